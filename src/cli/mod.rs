//! The command line: what each verb takes, checked once here with the library's own rules,
//! and one file per verb that calls the library.

mod accuracy;
mod analyse;
mod bench;
mod book;
mod brain;
mod check_book;
mod count;
mod ladder;
mod matchup;
mod merge;
mod plot;
mod reproduce;
mod review;
mod show;
mod solve;
mod suite;
mod table;
mod tune;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use mnklab::game::{AnyPosition, Variant};
use mnklab::io::load_position;
use mnklab::search::{SearchLimits, check_count, check_depth, check_memory_mb, check_seconds};

pub use bench::BenchCommand;
pub use plot::PlotArgs;

#[derive(Parser)]
#[command(
    name = "mnklab",
    version = mnklab::VERSION,
    about = "A workbench for k-in-a-row games and the search algorithms that play them",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub launch: LaunchArgs,
}

/// How the workbench window opens (`mnklab` alone, or `mnklab gui`).
#[derive(Args, Clone, Default)]
pub struct LaunchArgs {
    /// A file to open in the window: a position, a matchup or an agent (.ron), or a run folder.
    #[arg(long = "open", id = "open_file")]
    pub open_file: Option<PathBuf>,
    /// Open a new game of this kind instead (tictactoe, gomoku, connect4, mnk:M,N,K, ...).
    #[arg(long, value_parser = parse_variant, conflicts_with = "open_file")]
    pub game: Option<Variant>,
    /// With --game: moves played from the start ("4453", "d d e", "h8 i9"), as the other
    /// commands take them.
    #[arg(long, requires = "game")]
    pub moves: Option<String>,
    /// Window size, WxH (default 1300x860).
    #[arg(long, value_parser = parse_size)]
    pub size: Option<[f32; 2]>,
    /// Start every agent's analysis at once (with --screenshot: the picture is taken when every
    /// analysis has finished, or after --wait seconds, 1.5 by default).
    #[arg(long)]
    pub analyse: bool,
    /// Write a PNG of the window after it has drawn, then exit (for docs and checks).
    #[arg(long, value_parser = parse_png_path)]
    pub screenshot: Option<PathBuf>,
    /// With --screenshot --analyse: the longest wait, in seconds, for every analysis to finish
    /// (a slow proof, say); the picture is taken as soon as they have [default: 1.5].
    #[arg(long, value_parser = parse_seconds, requires = "analyse", requires = "screenshot")]
    pub wait: Option<f64>,
    /// Agent A: a preset (strong-ab, solver, ...) or an agent file (.ron).
    #[arg(long)]
    pub agent_a: Option<String>,
    /// Agent B: a preset or an agent file.
    #[arg(long)]
    pub agent_b: Option<String>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Print a position as text.
    Show(PositionArgs),
    /// Count distinct positions after exactly P moves, or games to the end.
    Count(count::CountArgs),
    /// Search a position with an agent, printing its progress, then its move.
    Analyse(analyse::AnalyseArgs),
    /// The exact value of a position with perfect play, its distance and a best move.
    Solve(solve::SolveArgs),
    /// Review a game move by move: its mistakes worst first, or one CSV row a ply.
    Review(review::ReviewArgs),
    /// Make a position suite: positions from games of varied agents, each legal move labelled
    /// with its proven value by the solver, for accuracy experiments.
    Suite(suite::SuiteArgs),
    /// Run an accuracy experiment: each agent's mistake rate on suites of proven positions,
    /// against budget, with intervals.
    Accuracy(accuracy::AccuracyArgs),
    /// Strength against budget by games: agents at CPU budgets against a fixed ladder of
    /// references, from openings the solver proved drawn, SPRT-stopped, rated in Elo.
    Ladder(ladder::LadderArgs),
    /// Build an opening book: the strong value of every position up to a depth.
    #[command(
        after_help = "The book's file format (versioned, with a checksum), the journal's and how the solver agent \
                            and the workbench load a book: README.md, section 'Proofs at the frontier, and opening \
                            books', and the documentation of mnklab::search::solver::book (cargo doc --open)."
    )]
    Book(book::BookArgs),
    /// Check a book file: every position within its depth held, each shallower one the best of
    /// its moves, and a seeded sample of the deepest solved again.
    CheckBook(check_book::CheckBookArgs),
    /// Run a matchup file on all cores; results go to --out, a game at a time.
    Match(matchup::MatchArgs),
    /// Join the output folders of shards into one.
    Merge(merge::MergeArgs),
    /// Draw a figure from a run's results (SVG, PNG or PDF, with its CSV beside it).
    Plot(PlotArgs),
    /// Tune an alpha-beta agent's heuristic weights by games (SPSA): seeded, resumable, a
    /// row a pair in the output folder's spsa.csv and the tuned agent in its agent.ron.
    Tune(tune::TuneArgs),
    /// Print a run's summary table as text, Markdown or LaTeX (booktabs).
    Table(table::TableArgs),
    /// Re-run the experiments behind RESULTS.md and compare every file with the committed one
    /// (--quick: the deterministic quick set, changing nothing).
    Reproduce(reproduce::ReproduceArgs),
    /// Speak the Gomocup brain protocol on stdin/stdout (for Piskvork-style managers).
    Brain(brain::BrainArgs),
    /// Measure speed.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Open the workbench window (the same as no command).
    Gui(LaunchArgs),
}

/// Parses the command line. Every command takes negative numbers as values, so `--games -1`
/// reaches the value's own check ("the count must be at least 1") instead of clap's
/// "unexpected argument '-1'".
pub fn parse() -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    fn allow(cmd: clap::Command) -> clap::Command {
        cmd.allow_negative_numbers(true).mut_subcommands(allow)
    }
    let matches = allow(Cli::command()).get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Runs a parsed command line.
pub fn dispatch(cli: Cli) -> Result<(), String> {
    match cli.command {
        None => gui(cli.launch),
        Some(Command::Gui(launch)) => gui(launch),
        Some(Command::Show(args)) => show::run(args),
        Some(Command::Count(args)) => count::run(args),
        Some(Command::Analyse(args)) => analyse::run(args),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Review(args)) => review::run(args),
        Some(Command::Suite(args)) => suite::run(args),
        Some(Command::Accuracy(args)) => accuracy::run(args),
        Some(Command::Ladder(args)) => ladder::run(args),
        Some(Command::Book(args)) => book::run(args),
        Some(Command::CheckBook(args)) => check_book::run(args),
        Some(Command::Match(args)) => matchup::run(args),
        Some(Command::Merge(args)) => merge::run(args),
        Some(Command::Plot(args)) => plot::run(args),
        Some(Command::Table(args)) => table::run(args),
        Some(Command::Tune(args)) => tune::run(args),
        Some(Command::Reproduce(args)) => reproduce::run(args),
        Some(Command::Brain(args)) => brain::run(args),
        Some(Command::Bench(cmd)) => bench::run(cmd),
    }
}

#[cfg(not(feature = "gui"))]
fn gui(_: LaunchArgs) -> Result<(), String> {
    Err("this mnklab was built without the workbench (cargo's `gui` feature): give a verb, such as \
         `mnklab analyse`; `mnklab --help` lists them"
        .into())
}

#[cfg(feature = "gui")]
fn gui(launch: LaunchArgs) -> Result<(), String> {
    // Loaded before the window opens, so a bad name is a clear error on the terminal. An
    // agent that names an external program still asks before it starts (in the window).
    let agent = |name: &Option<String>, slot: &str| {
        name.as_deref().map(|n| mnklab::agents::load_agent(n).map_err(|e| format!("--agent-{slot}: {e}"))).transpose()
    };
    // Checked here too: a move string the game does not allow is an error on the terminal.
    let game = match launch.game {
        Some(variant) => {
            let moves = launch.moves.unwrap_or_default();
            AnyPosition::new(variant).play_sequence(&moves).map_err(|e| format!("--moves: {e}"))?;
            Some((variant, moves))
        }
        None => None,
    };
    // A file that cannot be read is a clear error here too (a screenshot run said it only in
    // the picture's status line, and exited 0); what it holds is read, and judged, in the window.
    if let Some(path) = launch.open_file.as_ref().filter(|p| !p.is_dir()) {
        std::fs::File::open(path).map_err(|e| format!("--open {}: {e}", path.display()))?;
    }
    let options = mnklab::app::LaunchOptions {
        open: launch.open_file,
        game,
        size: launch.size,
        analyse: launch.analyse,
        screenshot: launch.screenshot,
        wait: launch.wait,
        agents: [agent(&launch.agent_a, "a")?, agent(&launch.agent_b, "b")?],
    };
    mnklab::app::run(options).map_err(|e| e.to_string())
}

/// A screenshot is a PNG: another extension would name a format the file is not in.
fn parse_png_path(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    match p.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("png") => Ok(p),
        _ => Err(format!("'{s}' does not end in .png: screenshots are written as PNG")),
    }
}

/// Writing to a closed pipe (`mnklab analyse ... | head -1`) ends the program quietly, as it
/// does for other command-line tools, instead of a panic in `println!`.
///
/// SIGPIPE stays ignored (Rust's default): restoring the default handler would also kill the
/// whole program when an external engine closes *its* pipe (a crash must be a forfeit, not
/// the end of a match or of the workbench). Only a failed print to our own stdout ends the
/// program, with the shell's code for a closed pipe (141) and no message.
pub fn exit_quietly_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

/// Where a game starts: a variant, or a position file, then moves.
#[derive(Args)]
pub struct PositionArgs {
    /// The game: tictactoe, gomoku, gomoku-exact, connect4, connect3d, mnk:M,N,K[:exact], connect:M,N,K[:exact].
    #[arg(long, value_parser = parse_variant, required_unless_present = "open")]
    game: Option<Variant>,
    /// Moves from the start: "h8 i9", "4453", "d d e", or pole numbers for connect3d.
    #[arg(long, default_value = "")]
    moves: String,
    /// Start from a position file (RON) instead; --moves are played after it.
    #[arg(long)]
    open: Option<PathBuf>,
}

impl PositionArgs {
    fn position(&self) -> Result<AnyPosition, String> {
        let mut pos = match (&self.open, self.game) {
            (Some(path), game) => {
                let (_, pos) = load_position(path).map_err(|e| e.to_string())?;
                if let Some(g) = game
                    && g != pos.variant()
                {
                    return Err(format!("--game {g} does not match the file's game {}", pos.variant()));
                }
                pos
            }
            (None, Some(game)) => AnyPosition::new(game),
            (None, None) => return Err("give --game or --open".into()),
        };
        pos.play_sequence(&self.moves).map_err(|e| format!("--moves: {e}"))?;
        Ok(pos)
    }
}

/// Per-move limits given on the command line; any of them replaces the agent file's limits.
#[derive(Args)]
struct LimitArgs {
    /// Seconds of search.
    #[arg(long, value_parser = parse_seconds, allow_negative_numbers = true)]
    time: Option<f64>,
    /// MCTS iterations.
    #[arg(long, value_parser = parse_count, allow_negative_numbers = true)]
    iterations: Option<u64>,
    /// Alpha-beta depth in plies.
    #[arg(long, value_parser = parse_depth, allow_negative_numbers = true)]
    depth: Option<u32>,
    /// Nodes.
    #[arg(long, value_parser = parse_count, allow_negative_numbers = true)]
    nodes: Option<u64>,
    /// Seconds of the searching thread's CPU time (one-thread searches).
    #[arg(long, value_parser = parse_seconds, allow_negative_numbers = true)]
    cpu_time: Option<f64>,
}

impl LimitArgs {
    fn or(&self, file: SearchLimits) -> SearchLimits {
        let given = SearchLimits {
            depth: self.depth,
            nodes: self.nodes,
            iterations: self.iterations,
            time: self.time,
            cpu_time: self.cpu_time,
        };
        if given.is_unlimited() { file } else { given }
    }
}

/// Refuses to go on when an agent would start a program named in a file, unless the user
/// said `--allow-external`; the message lists the exact command lines.
fn consent_to_external(commands: &[(String, String)], allowed: bool) -> Result<(), String> {
    if commands.is_empty() || allowed {
        return Ok(());
    }
    let list: Vec<String> = commands.iter().map(|(who, cmd)| format!("  {who}: {cmd}")).collect();
    Err(format!(
        "this would start external programs named in a file:\n{}\nrun them only if you trust them: add --allow-external",
        list.join("\n")
    ))
}

/// "1 position", "30 positions".
fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse().map_err(|e: mnklab::game::GameError| e.to_string())
}

fn parse_size(s: &str) -> Result<[f32; 2], String> {
    let [w0, h0] = mnklab::MIN_WINDOW_SIZE;
    let bad = || format!("'{s}' is not a size: write WxH, e.g. 1200x800 ({w0}..8000 x {h0}..8000)");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (f32, f32) = (w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?);
    if !(w0..=8000.0).contains(&w) || !(h0..=8000.0).contains(&h) {
        return Err(bad());
    }
    Ok([w, h])
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    let t: f64 = s.trim().parse().map_err(|_| format!("'{s}' is not a number of seconds"))?;
    Ok(check_seconds("the time", t)?)
}

pub(crate) fn parse_count(s: &str) -> Result<u64, String> {
    let n: u64 = s.trim().parse().map_err(|_| format!("'{s}' is not a whole number >= 1"))?;
    Ok(check_count("the count", n)?)
}

fn parse_depth(s: &str) -> Result<u32, String> {
    let d: u32 = s.trim().parse().map_err(|_| format!("'{s}' is not a depth in plies"))?;
    Ok(check_depth("the depth", d)?)
}

fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!("'{s}' is not a number of threads between 1 and 1024")),
    }
}

/// Threads of one search: 1 to 256.
fn parse_search_threads(s: &str) -> Result<u32, String> {
    let n: u32 = s.trim().parse().map_err(|_| format!("'{s}' is not a number of threads"))?;
    mnklab::search::check_threads("threads", n)?;
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    if n as usize > cores {
        // Allowed (a root-parallel MCTS with an iteration limit gives the same result on any
        // machine), but threads then wait for a core: 256 on 2 cores overran 0.5 s by 1.4 s.
        eprintln!("mnklab: {n} search threads on {cores} cores: they take turns, so a time limit is kept only roughly");
    }
    Ok(n)
}

/// MCTS parallelism: `root`, `tree` (virtual loss 1) or `tree:N` (virtual loss N).
fn parse_parallel(s: &str) -> Result<mnklab::search::Parallel, String> {
    use mnklab::search::Parallel;
    let bad = || format!("'{s}' is not a parallelism: root, tree or tree:N (N = virtual loss, 1..1000)");
    let parallel = match s.trim().split_once(':') {
        None if s.trim() == "root" => Parallel::Root,
        None if s.trim() == "tree" => Parallel::Tree { virtual_loss: 1 },
        Some(("tree", n)) => Parallel::Tree { virtual_loss: n.trim().parse().map_err(|_| bad())? },
        _ => return Err(bad()),
    };
    match parallel {
        Parallel::Tree { virtual_loss } if !(1..=1000).contains(&virtual_loss) => Err(bad()),
        p => Ok(p),
    }
}

fn parse_table_mb(s: &str) -> Result<u32, String> {
    let mb: u32 = s.trim().parse().map_err(|_| format!("'{s}' is not a size in MiB"))?;
    check_memory_mb("the table", mb as u64, 1)?;
    Ok(mb)
}
