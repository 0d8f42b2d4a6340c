//! The `mnklab` command: parses the command line and calls the library.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use mnklab::arena::{Matchup, RunOptions, merge, read_results, run_matchup, summarize, table, write_csv};
use mnklab::game::Position;
use mnklab::game::{AnyPosition, LevelCount, Status, Variant, count_games, count_positions};
use mnklab::io::load_position;
use mnklab::search::solver::AnySolver;
use mnklab::search::{FnSink, Progress, SearchControl, SearchLimits, SearchResult, build_agent, load_agent};
use mnklab::with_position;

#[derive(Parser)]
#[command(
    name = "mnklab",
    version,
    about = "A workbench for k-in-a-row games and the search algorithms that play them"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Write a PNG of the window after it has drawn, then exit (for docs and checks).
    #[arg(long, global = true)]
    screenshot: Option<PathBuf>,
    /// A position file to open in the window.
    #[arg(long = "open", id = "open_file")]
    open_file: Option<PathBuf>,
    /// Window size, WxH.
    #[arg(long, value_parser = parse_size)]
    size: Option<[f32; 2]>,
    /// Start analysing at once (with the screenshot: a second of analysis in the picture).
    #[arg(long)]
    analyse: bool,
}

fn parse_size(s: &str) -> Result<[f32; 2], String> {
    let bad = || format!("'{s}' is not a size: write WxH, e.g. 1200x800");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (f32, f32) = (w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?);
    if !(200.0..=8000.0).contains(&w) || !(150.0..=8000.0).contains(&h) {
        return Err(bad());
    }
    Ok([w, h])
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum TableFormat {
    Text,
    Markdown,
    Latex,
}

#[derive(Args)]
struct PlotArgs {
    /// A run's output folder (results.ronl and matchup.ron) or its results.ronl.
    results: PathBuf,
    #[arg(long, value_enum)]
    kind: mnklab::plot::PlotKind,
    /// The horizontal field: m, n, k, board, variant, agent, opponent, pairing, colour, phase,
    /// ply, or agent./opponent. + budget, depth, iterations, nodes, time, strategy.
    #[arg(long)]
    x: Option<String>,
    /// Heatmaps: the vertical field (default n). Lines: the metric (same as --metric).
    #[arg(long)]
    y: Option<String>,
    #[arg(long, value_enum)]
    metric: Option<mnklab::plot::Metric>,
    /// Lines: one line per value of this field (default pairing).
    #[arg(long)]
    series: Option<String>,
    /// See the games from this entrant's side.
    #[arg(long)]
    agent: Option<String>,
    #[arg(long)]
    title: Option<String>,
    #[arg(long)]
    x_label: Option<String>,
    #[arg(long)]
    y_label: Option<String>,
    /// Histograms: the number of bins (default: Freedman-Diaconis).
    #[arg(long)]
    bins: Option<usize>,
    /// Width and height in inches.
    #[arg(long, default_value_t = 6.4)]
    width: f64,
    #[arg(long, default_value_t = 4.0)]
    height: f64,
    /// PNG resolution.
    #[arg(long, default_value_t = 150.0)]
    dpi: f64,
    /// Lines and box plots: a log10 y axis (for nodes or time spanning orders of magnitude).
    #[arg(long)]
    log_y: bool,
    /// FILE.svg, FILE.png or FILE.pdf; the data goes to FILE.csv.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Subcommand)]
enum Command {
    /// Print a position as text.
    Show(PositionArgs),
    /// Count distinct positions after exactly P moves, or games to the end.
    Count {
        #[command(flatten)]
        position: PositionArgs,
        /// Count distinct positions after exactly this many more moves (finished ones are not extended).
        #[arg(long, conflicts_with = "games", required_unless_present = "games")]
        plies: Option<usize>,
        /// Count move sequences from the position to a finished game.
        #[arg(long)]
        games: bool,
        /// Also print finished positions and positions up to symmetry.
        #[arg(long)]
        detail: bool,
    },
    /// Search a position with an agent, printing its progress, then its move.
    Analyse {
        #[command(flatten)]
        position: PositionArgs,
        /// A preset (alam-ab, lim-mcts, ...) or an agent file (.ron).
        #[arg(long)]
        agent: String,
        #[command(flatten)]
        limits: LimitArgs,
        /// Seed of the agent's random choices (default: the agent file's).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The exact value of a position with perfect play, its distance and a best move.
    Solve {
        #[command(flatten)]
        position: PositionArgs,
        /// Prove only win, draw or loss (faster).
        #[arg(long)]
        weak: bool,
        /// Give up after this many seconds and print the bounds proved.
        #[arg(long, value_parser = parse_seconds)]
        time: Option<f64>,
        /// Table size in MiB.
        #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
        tt_mb: u32,
        /// Solve every line of a file in Pons' benchmark format ("<moves> <score>"), from the
        /// position given (usually the start), printing "<moves> <score>" for each.
        #[arg(long)]
        batch: Option<PathBuf>,
    },
    /// Run a matchup file on all cores; results go to --out, a game at a time.
    Match {
        /// The matchup (RON).
        file: PathBuf,
        /// Worker threads (default: the file's, else all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Output folder (default: out/<matchup name>).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Continue the games already in the output folder.
        #[arg(long)]
        resume: bool,
        /// Games per pairing and variant, instead of the file's.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        games: Option<u32>,
        /// Multiply every time budget (quick runs of long experiments).
        #[arg(long, default_value_t = 1.0, value_parser = parse_scale)]
        scale: f64,
        /// Run one slice of the games, I/N (0-based I), e.g. for a Slurm job array.
        #[arg(long, value_parser = parse_shard)]
        shard: Option<(u64, u64)>,
    },
    /// Join the output folders of shards into one.
    Merge {
        /// Output folders of the shards.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Draw a figure from a run's results (SVG, PNG or PDF, with its CSV beside it).
    Plot(PlotArgs),
    /// Print a run's summary table as text, Markdown or LaTeX (booktabs).
    Table {
        /// A run's output folder or its results.ronl.
        results: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: TableFormat,
        /// Write to this file instead of printing.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Speak the Gomocup brain protocol on stdin/stdout (for Piskvork-style managers).
    Brain {
        /// A preset or an agent file (.ron).
        #[arg(long, default_value = "strong-ab")]
        agent: String,
        /// K and the rule from an m,n,k spelling (the board size comes from START).
        #[arg(long, value_parser = parse_variant, default_value = "gomoku")]
        game: Variant,
    },
    /// Measure speed.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Open the workbench window (the default when no command is given).
    Gui,
}

#[derive(Subcommand)]
enum BenchCommand {
    /// Uniformly random games on one thread, no tree.
    Playouts {
        #[arg(long, value_parser = parse_variant)]
        game: Variant,
        #[arg(long, default_value_t = 5.0, value_parser = parse_seconds)]
        seconds: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The solver on every line of a Pons benchmark file, a fresh table per position.
    Solve {
        #[arg(long, value_parser = parse_variant, default_value = "connect4")]
        game: Variant,
        #[arg(long)]
        batch: PathBuf,
        #[arg(long)]
        weak: bool,
        /// Solve only the first N lines.
        #[arg(long)]
        limit: Option<usize>,
        /// Table size in MiB (8 holds the largest benchmark search and stays in cache).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=65536))]
        tt_mb: u32,
    },
    /// An agent searching the start position for S seconds.
    Search {
        #[arg(long, value_parser = parse_variant)]
        game: Variant,
        #[arg(long)]
        agent: String,
        #[arg(long, default_value_t = 5.0, value_parser = parse_seconds)]
        seconds: f64,
    },
}

/// Per-move limits given on the command line; any of them replaces the agent file's limits.
#[derive(Args)]
struct LimitArgs {
    /// Seconds of search.
    #[arg(long, value_parser = parse_seconds)]
    time: Option<f64>,
    /// MCTS iterations.
    #[arg(long)]
    iterations: Option<u64>,
    /// Alpha-beta depth in plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=200))]
    depth: Option<u32>,
    /// Nodes.
    #[arg(long)]
    nodes: Option<u64>,
}

impl LimitArgs {
    fn or(&self, file: SearchLimits) -> SearchLimits {
        let given = SearchLimits { depth: self.depth, nodes: self.nodes, iterations: self.iterations, time: self.time };
        if given.is_unlimited() { file } else { given }
    }
}

#[derive(Args)]
struct PositionArgs {
    /// The game: tictactoe, gomoku, gomoku-exact, connect4, connect3d, mnk:M,N,K[:exact], connect:M,N,K.
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
        let mut pos = match &self.open {
            Some(path) => {
                let (_, pos) = load_position(path).map_err(|e| e.to_string())?;
                if let Some(g) = self.game
                    && g != pos.variant()
                {
                    return Err(format!("--game {g} does not match the file's game {}", pos.variant()));
                }
                pos
            }
            None => AnyPosition::new(self.game.expect("clap requires --game without --open")),
        };
        pos.play_sequence(&self.moves).map_err(|e| format!("--moves: {e}"))?;
        Ok(pos)
    }
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse().map_err(|e: mnklab::game::GameError| e.to_string())
}

fn parse_scale(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1e6 => Ok(x),
        _ => Err(format!("'{s}' is not a positive factor")),
    }
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{s}' is not a shard: write I/N with 0 <= I < N, e.g. 3/10");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1e6).contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a number of seconds between 0 and 1000000")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        None | Some(Command::Gui) => {
            let options = mnklab::app::LaunchOptions {
                open: cli.open_file,
                size: cli.size,
                analyse: cli.analyse,
                screenshot: cli.screenshot,
            };
            mnklab::app::run(options).map_err(|e| format!("cannot open the window: {e}"))
        }
        Some(Command::Show(args)) => {
            let pos = args.position()?;
            print!("{}", pos.render());
            println!("game {}", pos.variant());
            if !pos.history().is_empty() {
                println!("moves {}", pos.history_string());
            }
            match pos.status() {
                Status::Ongoing => println!("to move {}", pos.side_to_move()),
                Status::Win(p) => println!("result {p} wins"),
                Status::Draw => println!("result draw"),
            }
            Ok(())
        }
        Some(Command::Count { position, plies, games, detail }) => {
            let pos = position.position()?;
            if games {
                let n = with_position!(&pos, p => count_games(p));
                println!("games {n}");
            } else {
                let plies = plies.expect("clap requires --plies or --games");
                let levels: Vec<LevelCount> = with_position!(&pos, p => count_positions(p, plies));
                let last = levels[plies];
                println!("positions {}", last.positions);
                if detail {
                    println!("finished {}", last.finished);
                    println!("up_to_symmetry {}", last.canonical);
                }
            }
            Ok(())
        }
        Some(Command::Solve { position, weak, time, tt_mb, batch }) => {
            let pos = position.position()?;
            if let Some(why) = mnklab::search::solver::unsupported(&pos.variant()) {
                return Err(why);
            }
            if let Some(path) = batch {
                let report = solve_batch(&pos, &path, weak, tt_mb, None, |line| println!("{line}"))?;
                println!("solved {} positions, mean {:.1} us, mean {:.0} nodes", report.0, report.1, report.2);
                return Ok(());
            }
            let s = with_position!(&pos, p => {
                let mut solver = AnySolver::new(p, tt_mb as usize);
                solver.solve(p, weak, time.map(Duration::from_secs_f64), None)
            });
            if s.is_solved() {
                println!("value {} (score {}{})", s.describe(), s.lower, if weak { ", weak" } else { "" });
                if let Some(m) = s.best {
                    println!("bestmove {}", pos.format_move(m));
                }
            } else {
                println!("time ran out after {:.3} s: the value lies between {} and {}", s.elapsed, s.lower, s.upper);
            }
            println!("nodes {} time {:.3} s table {} MiB", s.nodes, s.elapsed, s.memory >> 20);
            Ok(())
        }
        Some(Command::Bench(BenchCommand::Solve { game, batch, weak, limit, tt_mb })) => {
            let pos = AnyPosition::new(game);
            let (n, mean_us, mean_nodes) = solve_batch(&pos, &batch, weak, tt_mb, limit, |_| {})?;
            println!("{} positions of {}: mean {:.1} us, mean {:.0} nodes", n, batch.display(), mean_us, mean_nodes);
            println!("mean_us {mean_us:.1}");
            Ok(())
        }
        Some(Command::Match { file, threads, out, resume, games, scale, shard }) => {
            let matchup = Matchup::load(&file).map_err(|e| e.to_string())?;
            let base = file.parent().map(PathBuf::from).unwrap_or_default();
            let mut out = out.unwrap_or_else(|| PathBuf::from("out").join(&matchup.name));
            if let Some((i, n)) = shard
                && !out.ends_with(format!("shard-{i}-of-{n}"))
            {
                out = out.join(format!("shard-{i}-of-{n}"));
            }
            let opts = RunOptions { threads: threads.unwrap_or(0), out: out.clone(), resume, scale, games, shard };
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left  {msg}",
                )
                .expect("valid template"),
            );
            let control = SearchControl::new();
            let records = run_matchup(&matchup, &base, &opts, &control, |p| {
                bar.set_length(p.total as u64);
                bar.set_position(p.done as u64);
                bar.set_message(format!("last: {} vs {} {:?}", p.game.names[0], p.game.names[1], p.game.outcome));
            })?;
            bar.finish_and_clear();
            print!("{}", table(&summarize(&records)));
            println!("{} games in {} (results.ronl, games.csv, moves.csv)", records.len(), out.display());
            Ok(())
        }
        Some(Command::Merge { dirs, out }) => {
            let mut runs = Vec::new();
            let mut matchup_text: Option<String> = None;
            for d in &dirs {
                runs.push(read_results(&d.join(mnklab::arena::results::RESULTS_FILE))?);
                if let Ok(t) = std::fs::read_to_string(d.join(mnklab::arena::results::MATCHUP_FILE)) {
                    if matchup_text.as_ref().is_some_and(|m| m != &t) {
                        return Err(format!("{} ran a different matchup from the other folders", d.display()));
                    }
                    matchup_text = Some(t);
                }
            }
            let all = merge(runs)?;
            std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
            let mut text = String::new();
            for r in &all {
                text.push_str(&ron::to_string(r).map_err(|e| e.to_string())?);
                text.push('\n');
            }
            mnklab::io::write_atomic(&out.join(mnklab::arena::results::RESULTS_FILE), text.as_bytes())
                .map_err(|e| e.to_string())?;
            if let Some(t) = matchup_text {
                mnklab::io::write_atomic(&out.join(mnklab::arena::results::MATCHUP_FILE), t.as_bytes())
                    .map_err(|e| e.to_string())?;
            }
            write_csv(&out, &all)?;
            print!("{}", table(&summarize(&all)));
            println!("{} games merged into {}", all.len(), out.display());
            Ok(())
        }
        Some(Command::Plot(args)) => plot(args),
        Some(Command::Table { results, format, out }) => {
            let run = mnklab::arena::results::load_run(&results)?;
            let stats = summarize(&run.records);
            let caption = run.matchup.as_ref().map_or("Results".to_string(), |m| {
                if m.description.is_empty() { m.name.clone() } else { m.description.clone() }
            });
            let text = match format {
                TableFormat::Text => table(&stats),
                TableFormat::Markdown => mnklab::plot::tables::markdown_table(&stats),
                TableFormat::Latex => mnklab::plot::tables::latex_table(&stats, &caption),
            };
            match out {
                Some(path) => {
                    mnklab::io::write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())?;
                    println!("wrote {}", path.display());
                }
                None => print!("{text}"),
            }
            Ok(())
        }
        Some(Command::Brain { agent, game }) => {
            let file = load_agent(&agent)?;
            let Some(rules) = game.grid().filter(|r| !r.gravity) else {
                return Err(format!("--game {game}: the brain protocol plays free-placement (mnk) games"));
            };
            let mut brain = mnklab::gomocup::Brain::new(file, rules.k, rules.exact);
            mnklab::gomocup::run_brain(std::io::stdin().lock(), std::io::stdout().lock(), &mut brain)
                .map_err(|e| format!("brain: {e}"))
        }
        Some(Command::Analyse { position, agent, limits, seed }) => {
            let pos = position.position()?;
            if pos.status().is_over() {
                return Err("the game is over: there is nothing to analyse".into());
            }
            let file = load_agent(&agent)?;
            let limits = limits.or(file.limits);
            let seed = seed.unwrap_or(file.seed);
            let (result, failure) = with_position!(&pos, p => {
                let mut a = build_agent(&file.agent, seed);
                let mut sink = FnSink(|e: &Progress| println!("{}", progress_line(&pos, e)));
                let r = a.search(p, &limits, &SearchControl::new(), &mut sink);
                (r, a.failure())
            });
            if let (None, Some(why)) = (result.best, failure) {
                return Err(format!("{}: {why}", file.name));
            }
            let best = result.best.map_or("none".to_string(), |m| pos.format_move(m));
            println!("bestmove {best} score {}", result.score);
            Ok(())
        }
        Some(Command::Bench(BenchCommand::Search { game, agent, seconds })) => {
            let file = load_agent(&agent)?;
            let pos = AnyPosition::new(game);
            let limits = SearchLimits::time(seconds);
            let r: SearchResult = with_position!(&pos, p => {
                let mut a = build_agent(&file.agent, file.seed);
                a.search(p, &limits, &SearchControl::new(), &mut mnklab::search::NullSink)
            });
            println!("game {game} agent {} ({})", file.name, file.agent.kind());
            println!(
                "nodes {} iterations {} depth {} in {:.3} s",
                r.stats.nodes, r.stats.iterations, r.stats.depth, r.stats.elapsed
            );
            if r.stats.iterations > 0 {
                println!("iterations_per_second {:.0}", r.stats.iterations as f64 / r.stats.elapsed);
            } else {
                println!("nodes_per_second {:.0}", r.stats.nodes as f64 / r.stats.elapsed);
            }
            Ok(())
        }
        Some(Command::Bench(BenchCommand::Playouts { game, seconds, seed })) => {
            let r = mnklab::bench::playouts(game, seconds, seed);
            let [w1, w2, d] = r.outcomes;
            println!("game {}", r.variant);
            println!(
                "playouts {} in {:.3} s, mean length {:.1} moves",
                r.playouts,
                r.elapsed.as_secs_f64(),
                r.mean_length()
            );
            println!(
                "first wins {:.1}%, second wins {:.1}%, draws {:.1}%",
                100.0 * w1 as f64 / r.playouts as f64,
                100.0 * w2 as f64 / r.playouts as f64,
                100.0 * d as f64 / r.playouts as f64
            );
            println!("playouts_per_second {:.0}", r.playouts_per_second());
            Ok(())
        }
    }
}

/// One progress report as a line: depth or iterations, nodes, speed, time, best move, score, PV.
fn progress_line(pos: &AnyPosition, p: &Progress) -> String {
    let mv = |m| pos.format_move(m);
    let pv: Vec<String> = p.pv.iter().map(|&m| mv(m)).collect();
    let work = if p.iterations > 0 { format!("iterations {}", p.iterations) } else { format!("depth {}", p.depth) };
    format!(
        "info {work} nodes {} nps {:.0} time {:.3} best {} score {} pv {}",
        p.nodes,
        p.nodes_per_second,
        p.elapsed,
        p.best.map_or("-".to_string(), mv),
        p.score,
        pv.join(" ")
    )
}

/// Solves every line of a Pons-format file from `start`; calls `out` with "<moves> <score>"
/// per line and returns (positions, mean microseconds, mean nodes). A fresh table each time.
fn solve_batch(
    start: &AnyPosition,
    path: &std::path::Path,
    weak: bool,
    tt_mb: u32,
    limit: Option<usize>,
    mut out: impl FnMut(String),
) -> Result<(usize, f64, f64), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (mut n, mut micros, mut nodes) = (0usize, 0f64, 0f64);
    with_position!(start, p0 => {
        let mut solver = AnySolver::new(p0, tt_mb as usize);
        for (i, line) in text.lines().enumerate().take(limit.unwrap_or(usize::MAX)) {
            let moves = line.split_whitespace().next().unwrap_or("");
            if moves.is_empty() && line.trim().is_empty() {
                continue;
            }
            let mut p = p0.clone();
            p.play_sequence(moves).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
            let s = solver.solve_with(&p, weak, None, None, false);
            n += 1;
            micros += s.elapsed * 1e6;
            nodes += s.nodes as f64;
            out(format!("{moves} {}", s.lower));
        }
        Ok::<(), String>(())
    })?;
    Ok((n, micros / n.max(1) as f64, nodes / n.max(1) as f64))
}

fn plot(args: PlotArgs) -> Result<(), String> {
    use mnklab::plot::{ExportOptions, Field, PlotKind, PlotRequest, export_figure, figure_from_results};
    let field = |name: &str, s: &Option<String>| -> Result<Option<Field>, String> {
        s.as_deref().map(|v| v.parse::<Field>().map_err(|e| format!("--{name}: {e}"))).transpose()
    };
    let mut req = PlotRequest::new(args.kind);
    req.x = field("x", &args.x)?;
    req.metric = args.metric;
    if args.kind == PlotKind::Heatmap {
        req.y = field("y", &args.y)?;
    } else if let Some(y) = &args.y {
        // For the other kinds --y names the plotted metric.
        let m = <mnklab::plot::Metric as clap::ValueEnum>::from_str(y, true).map_err(|_| {
            format!("--y {y}: not a metric (score, win, draw, loss, first-win, length, time, nodes, memory, depth)")
        })?;
        req.metric = Some(m);
    }
    req.series = field("series", &args.series)?;
    req.agent = args.agent;
    req.title = args.title;
    req.bins = args.bins;
    let run = mnklab::arena::results::load_run(&args.results)?;
    let mut fig = figure_from_results(&run.records, run.matchup.as_ref(), &run.dir, &req)?;
    if let Some(l) = args.x_label {
        fig.x_label = l;
    }
    if let Some(l) = args.y_label {
        fig.y_label = l;
    }
    if !(args.width > 0.5 && args.width < 100.0 && args.height > 0.5 && args.height < 100.0) {
        return Err("--width and --height are inches, between 0.5 and 100".into());
    }
    if !(args.dpi >= 10.0 && args.dpi <= 2400.0) {
        return Err("--dpi must be between 10 and 2400".into());
    }
    let opts = ExportOptions { width_in: args.width, height_in: args.height, dpi: args.dpi, log_y: args.log_y };
    for p in export_figure(&fig, &args.out, &opts)? {
        println!("wrote {}", p.display());
    }
    Ok(())
}
