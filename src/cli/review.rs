//! `mnklab review`: a game judged move by move, as the workbench's review tab does (proofs
//! where the solver or the threat search settles a position, else the agent's search valuing
//! every move): the marked moves worst first and each player's summary, or with `--csv` one
//! row a ply on standard output. A game from `--game`/`--moves`, a position file's moves, or
//! every game of a run folder.

use std::path::PathBuf;

use clap::Args;
use mnklab::agents::load_agent;
use mnklab::analysis::review::{
    MoveReview, REVIEW_COLUMNS, ReviewSettings, board_cells, player_summaries, review_figure, review_game, worst,
};
use mnklab::game::{AnyPosition, ColumnStyle, Move, Variant};
use mnklab::search::SearchControl;

use super::{consent_to_external, parse_seconds, parse_variant};

#[derive(Args)]
#[command(group = clap::ArgGroup::new("game_source").required(true).args(["game", "open", "run"]))]
pub struct ReviewArgs {
    /// The game: tictactoe, gomoku, connect4, mnk:M,N,K, connect:M,N,K, ...
    #[arg(long, value_parser = parse_variant, requires = "moves")]
    game: Option<Variant>,
    /// The moves to review, from the start ("h8 h7 i8", "4453").
    #[arg(long, conflicts_with = "run")]
    moves: Option<String>,
    /// A position file: its moves from its start (or set-up) are reviewed, then --moves.
    #[arg(long)]
    open: Option<PathBuf>,
    /// A run folder (or its results.ronl): every game, each from the end of its opening, named
    /// by its index in results.ronl (from 0, as `mnklab match` and the matchup tab name it).
    #[arg(long)]
    run: Option<PathBuf>,
    /// The judge where no proof settles a position: an alpha-beta or MCTS preset or agent
    /// file; the solver judges by proofs alone (--time a position, at least 1 s) and leaves a
    /// move no proof settles unjudged.
    #[arg(long, default_value = "strong-ab")]
    agent: String,
    /// Seconds of the judge's search a position.
    #[arg(long, value_parser = parse_seconds, default_value = "0.5")]
    time: f64,
    /// Only CSV on standard output, one row a ply (columns: game, ply, move, best, before,
    /// after, loss, judge, judged, mover, verdict, expected_before, expected_after; the
    /// expected results are the mover's, from -1 (a loss) to +1 (a win); a value the judge
    /// did not find is empty, as `before` for a block the threat search found).
    #[arg(long)]
    csv: bool,
    /// Also write each game's figure (the evaluation, the marked moves, proven distances and
    /// each move's loss, as the workbench's review tab draws it) to this SVG, PNG or PDF
    /// file, with its CSV beside it; a run folder's games get `NAME-GAME.EXT` each.
    #[arg(long)]
    figure: Option<PathBuf>,
    /// Write --figure (and its CSV) over existing files.
    #[arg(long, requires = "figure")]
    force: bool,
    /// Let an agent file start the external program it names (the command is shown otherwise).
    #[arg(long)]
    allow_external: bool,
}

/// One game to review: a name for its rows, its start, its moves and how they were written
/// (moves are named back as typed: Connect-4 columns typed as digits stay digits).
struct Game {
    name: String,
    start: AnyPosition,
    line: Vec<Move>,
    style: ColumnStyle,
}

pub fn run(args: ReviewArgs) -> Result<(), String> {
    let file = load_agent(&args.agent).map_err(|e| format!("--agent: {e}"))?;
    let settings = ReviewSettings::new(file.clone(), args.time);
    settings.check().map_err(|e| format!("--agent: {e}"))?;
    let external: Vec<(String, String)> =
        file.agent.external_command().map(|c| (file.name.clone(), c)).into_iter().collect();
    consent_to_external(&external, args.allow_external)?;
    let games = games(&args)?;
    // Every figure and CSV this run will write, checked before an hour of review, not after.
    if let Some(path) = &args.figure {
        mnklab::plot::FigureFormat::from_path(path).map_err(|e| format!("--figure: {e}"))?;
        for game in &games {
            let fig = figure_path(path, game, games.len() > 1);
            mnklab::io::check_outputs([fig.as_path(), fig.with_extension("csv").as_path()], args.force)
                .map_err(|e| format!("--figure: {e}"))?;
        }
    }
    let mut csv = args.csv.then(|| csv::Writer::from_writer(std::io::stdout()));
    if let Some(w) = &mut csv {
        w.write_record(REVIEW_COLUMNS).map_err(|e| e.to_string())?;
    }
    for (i, game) in games.iter().enumerate() {
        if games.len() > 1 {
            // A run's games take minutes: each said as it starts, on standard error.
            eprintln!("reviewing game {} ({} of {}, {} moves)", game.name, i + 1, games.len(), game.line.len());
        }
        let control = SearchControl::new();
        let mut moves = Vec::new();
        let mut pos = game.start.clone();
        let mut failed = None;
        review_game(&game.start, &game.line, &settings, &control, |r| {
            if let Some(w) = &mut csv {
                // Each row as it is judged: a long review shows its progress, and a stopped one
                // keeps what it did.
                let written =
                    w.write_record(r.csv_row(&game.name, &pos, game.style)).and_then(|_| w.flush().map_err(Into::into));
                if let Err(e) = written {
                    failed = Some(e.to_string());
                    return false;
                }
            }
            let _ = pos.try_play(r.played);
            moves.push(r);
            true
        });
        if let Some(e) = failed {
            return Err(format!("cannot write the CSV: {e}"));
        }
        if csv.is_none() {
            print_game(game, &moves, &settings.judge_said(&file.name));
        }
        if let Some(path) = &args.figure {
            write_figure(path, game, &moves, games.len() > 1)?;
        }
    }
    Ok(())
}

/// Where `game`'s figure goes: `path`, or `NAME-GAME.EXT` beside it when `several` games
/// share the flag.
fn figure_path(path: &std::path::Path, game: &Game, several: bool) -> PathBuf {
    if !several {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map_or("review".into(), |s| s.to_string_lossy().into_owned());
    let ext = path.extension().map_or("svg".into(), |e| e.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}-{}.{ext}", game.name))
}

/// The game's review figure at `path` (at `NAME-GAME.EXT` beside it when `several` games
/// share the flag), the CSV beside it; said on standard error, standard output being the
/// CSV's with `--csv`.
fn write_figure(path: &std::path::Path, game: &Game, moves: &[MoveReview], several: bool) -> Result<(), String> {
    let path = figure_path(path, game, several);
    let mut pos = game.start.clone();
    let names: Vec<String> = game
        .line
        .iter()
        .map(|&m| {
            let name = pos.format_move_as(m, game.style);
            let _ = pos.try_play(m);
            name
        })
        .collect();
    let mut fig = review_figure(moves, &names, board_cells(&game.start));
    // As `plot` does: no title in a figure for a paper, whose caption is set under it.
    fig.title.clear();
    let written = mnklab::plot::export_figure(&fig, &path, &mnklab::plot::ExportOptions::default())
        .map_err(|e| format!("--figure {}: {e}", path.display()))?;
    let shown: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    eprintln!("wrote {}", shown.join(" and "));
    Ok(())
}

/// The games the arguments name. Every line is played through the position's own
/// `play_sequence`, which checks each move against the rules and names the one at fault.
fn games(args: &ReviewArgs) -> Result<Vec<Game>, String> {
    if let Some(run) = &args.run {
        let run = mnklab::arena::results::load_run(run).map_err(|e| e.to_string())?;
        let mut games = Vec::new();
        // In the order of the schedule, not the order the games finished in.
        let mut records: Vec<_> = run.records.iter().collect();
        records.sort_by_key(|r| r.index);
        for r in records {
            let mut start = AnyPosition::new(r.variant);
            start.play_sequence(&r.opening.join(" ")).map_err(|e| format!("game {}: its opening: {e}", r.index))?;
            let mut end = start.clone();
            let moves: Vec<&str> = r.moves.iter().map(|m| m.mv.as_str()).collect();
            end.play_sequence(&moves.join(" ")).map_err(|e| format!("game {}: {e}", r.index))?;
            let style = ColumnStyle::of_typed(&r.variant, &moves.join(" "));
            games.push(Game { name: r.index.to_string(), line: line_between(&start, &end), start, style });
        }
        return Ok(games);
    }
    // The start, and the position its file's moves reach (checked when the file was read).
    let (start, mut end) = match (&args.open, args.game) {
        (Some(path), _) => {
            let (file, end) = mnklab::io::load_position(path).map_err(|e| e.to_string())?;
            (file.start_position().map_err(|e| format!("{}: {e}", path.display()))?, end)
        }
        (None, Some(game)) => (AnyPosition::new(game), AnyPosition::new(game)),
        (None, None) => return Err("give --game with --moves, --open or --run".into()),
    };
    end.play_sequence(args.moves.as_deref().unwrap_or("")).map_err(|e| format!("--moves: {e}"))?;
    let line = line_between(&start, &end);
    if line.is_empty() {
        return Err("no moves to review: give them with --moves".into());
    }
    let style = ColumnStyle::of_typed(&start.variant(), args.moves.as_deref().unwrap_or(""));
    Ok(vec![Game { name: "1".into(), start, line, style }])
}

/// The moves that lead from `start` to `end`, a position reached from it.
fn line_between(start: &AnyPosition, end: &AnyPosition) -> Vec<Move> {
    end.history()[start.history().len()..].to_vec()
}

/// The text report of one game: its marked moves worst first, the moves not judged, and each
/// player's summary.
fn print_game(game: &Game, moves: &[MoveReview], judge: &str) {
    println!("game {} ({}, {} moves; judge: {judge})", game.name, game.start.variant(), moves.len());
    let before = |ply: usize| {
        let mut p = game.start.clone();
        for &m in &game.line[..ply - 1] {
            let _ = p.try_play(m);
        }
        p
    };
    let marked = worst(moves, usize::MAX);
    if marked.is_empty() {
        println!("  no mistake or inaccuracy found");
    }
    if !marked.is_empty() {
        // The graph is the first player's view; these scores are the mover's.
        println!(
            "  worst first (scores for the player who moved: before the move, by the best move → after the move played):"
        );
    }
    for m in marked {
        println!("  {} [{}]", m.describe(&before(m.ply), game.style), m.judged_by);
    }
    let unjudged: Vec<String> = moves.iter().filter(|m| !m.judged()).map(|m| m.ply.to_string()).collect();
    if !unjudged.is_empty() {
        println!("  not judged (no value found in the time): plies {}", unjudged.join(", "));
    }
    for (who, s) in ["first", "second"].iter().zip(player_summaries(moves)) {
        println!("  {who} player: {}", s.describe());
    }
}
