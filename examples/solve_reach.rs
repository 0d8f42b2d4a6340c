//! How far "perfect play at a click" reaches on Connect-4: for positions of a given number of
//! stones, played at random from the empty board (seeded), the time the solver takes for the
//! strong value, and for the value and then every move's value (what the workbench's solver
//! shows per candidate), with the built-in book as the workbench uses it (the value from the
//! book when it holds the position, every move's from it where it holds the moves' positions).
//! Counts how many are done within 1 s; each search is stopped at the cap.
//!
//! `cargo run --release --example solve_reach -- [--tt-mb MB] [--threads T] [--slow] [--line]
//! [--file FILE] [PER_PLY] [SEED] [CAP_SECONDS] [PLIES...]` (defaults 20, 1, 5, plies 5 6 8 10 12 14). By
//! default one thread and an 8 MiB table (the solver agent's defaults), a fresh solver for each
//! position; `--slow` prints each position whose every move's value took over 1 s.
//!
//! `--file FILE`: the positions of a file in Pons' format (`moves score` a line, columns 1-7)
//! instead of random ones, PER_PLY at most of each stone count asked for (the file's first),
//! each value also checked against the file's score (a peer's ground truth; a difference is
//! printed and counted).
//!
//! `--line`: PER_PLY random games instead, each analysed at the given plies in turn (give
//! consecutive plies: a game stepped through move by move), twice, alternating which goes
//! first: with a fresh table for every position, and with one solver keeping its table along
//! the game (`AnySolver::solve_keeping_table`, as the solver agent does).

use std::time::{Duration, Instant};

use mnklab::game::{AnyPosition, Position};
use mnklab::rng::{below, seeded};
use mnklab::search::solver::{AnySolver, Book, MoveProofs, builtin_book};
use mnklab::with_position;

struct Settings {
    tt_mb: usize,
    threads: usize,
    cap: f64,
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let (mut tt_mb, mut threads, mut list_slow, mut line) = (8usize, 1usize, false, false);
    let mut file = None;
    while let Some(flag) = args.first().filter(|a| a.starts_with("--")).cloned() {
        args.remove(0);
        match flag.as_str() {
            "--slow" => list_slow = true,
            "--line" => line = true,
            "--file" => file = Some(args.remove(0)),
            "--tt-mb" => tt_mb = args.remove(0).parse().expect("--tt-mb: megabytes"),
            "--threads" => threads = args.remove(0).parse().expect("--threads: a count"),
            other => panic!("unknown flag {other}"),
        }
    }
    let per_ply: usize = args.first().map_or(20, |a| a.parse().expect("PER_PLY: a count"));
    let seed: u64 = args.get(1).map_or(1, |a| a.parse().expect("SEED: a number"));
    let cap: f64 = args.get(2).map_or(5.0, |a| a.parse().expect("CAP_SECONDS: a number"));
    let plies: Vec<usize> = if args.len() > 3 {
        args[3..].iter().map(|a| a.parse().expect("PLIES: numbers")).collect()
    } else {
        vec![5, 6, 8, 10, 12, 14]
    };
    let settings = Settings { tt_mb, threads, cap };
    let game = "connect4".parse().expect("a game");
    let book = builtin_book(&game);
    let mut rng = seeded(seed);
    if let Some(file) = file {
        println!(
            "Connect-4, {file}: at most {per_ply} positions a stone count, strong, {threads} thread(s), {tt_mb} MiB table, cap {cap} s"
        );
        return from_file(&file, game, book.as_deref(), &settings, per_ply, &plies, list_slow);
    }
    println!(
        "Connect-4, {per_ply} random {} (seed {seed}), strong, {threads} thread(s), {tt_mb} MiB table, cap {cap} s",
        if line { "games" } else { "positions a ply" }
    );
    if line {
        return lines(game, book.as_deref(), &settings, per_ply, &plies, &mut rng);
    }
    println!("stones | value <= 1 s | value and every move's <= 1 s | median value s | median all s | slowest all s");
    for &ply in &plies {
        let mut times = Vec::new();
        while times.len() < per_ply {
            let Some(pos) = random_position(game, &mut rng, ply) else { continue };
            let mut solver = new_solver(&settings);
            let t = analyse(&mut solver, &pos, book.as_deref(), &settings, false);
            if list_slow && t.1 > 1.0 {
                println!("  slow: {} (value {:.3} s, every move's {:.3} s)", pos.history_string(), t.0, t.1);
            }
            times.push(t);
        }
        print_row(&ply.to_string(), &mut times);
    }
}

/// `--file`: the file's positions of each stone count, their values checked against its scores.
fn from_file(
    path: &str,
    game: mnklab::game::Variant,
    book: Option<&Book>,
    settings: &Settings,
    per_ply: usize,
    plies: &[usize],
    list_slow: bool,
) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let positions: Vec<(AnyPosition, i32)> = text
        .lines()
        .filter_map(|l| {
            let mut fields = l.split_whitespace();
            let (moves, score) = (fields.next()?, fields.next()?.parse().ok()?);
            Some((AnyPosition::from_moves(game, moves).unwrap_or_else(|e| panic!("{path}: {moves}: {e}")), score))
        })
        .collect();
    println!("stones | value <= 1 s | value and every move's <= 1 s | median value s | median all s | slowest all s");
    let mut differ = 0;
    for &ply in plies {
        let mut times = Vec::new();
        for (pos, score) in positions.iter().filter(|(p, _)| p.ply() == ply).take(per_ply) {
            let mut solver = new_solver(settings);
            let (t, value) = analyse_valued(&mut solver, pos, book, settings, false);
            if value.is_some_and(|v| v != *score) {
                differ += 1;
                println!("  differs: {} value {value:?}, the file says {score}", pos.history_string());
            }
            if list_slow && t.1 > 1.0 {
                println!("  slow: {} (value {:.3} s, every move's {:.3} s)", pos.history_string(), t.0, t.1);
            }
            times.push(t);
        }
        if !times.is_empty() {
            print_row(&ply.to_string(), &mut times);
        }
    }
    println!("{differ} values differ from the file's scores");
}

/// `--line`: each game analysed at the plies in turn, with a fresh table and with one kept.
fn lines(
    game: mnklab::game::Variant,
    book: Option<&Book>,
    settings: &Settings,
    games: usize,
    plies: &[usize],
    rng: &mut impl rand::Rng,
) {
    let last = plies.iter().copied().max().unwrap_or(0);
    // [fresh, kept][ply index]: (value s, every move's s).
    let mut times = vec![vec![Vec::new(); plies.len()]; 2];
    let mut done = 0;
    while done < games {
        let Some(end) = random_position(game, rng, last) else { continue };
        done += 1;
        let order = if done % 2 == 0 { [1, 0] } else { [0, 1] };
        for keep in order {
            let mut pos = AnyPosition::new(game);
            let mut solver = None;
            for (i, &ply) in plies.iter().enumerate() {
                while pos.ply() < ply {
                    pos.try_play(end.history()[pos.ply()]).expect("a move of the game");
                }
                if keep == 0 || solver.is_none() {
                    solver = Some(new_solver(settings));
                }
                let t = analyse(solver.as_mut().expect("made above"), &pos, book, settings, keep == 1);
                times[keep][i].push(t);
            }
        }
    }
    println!(
        "stones | table | value <= 1 s | value and every move's <= 1 s | median value s | median all s | slowest all s"
    );
    for (i, ply) in plies.iter().enumerate() {
        for (keep, name) in [(0, "fresh"), (1, "kept")] {
            print_row(&format!("{ply} | {name}"), &mut times[keep][i]);
        }
    }
}

type Connect4 = mnklab::game::Grid<u64, true>;

fn new_solver(settings: &Settings) -> AnySolver<Connect4> {
    let AnyPosition::Gravity(empty) = AnyPosition::new("connect4".parse().expect("a game")) else {
        unreachable!("Connect-4 is a gravity board of 64 bits")
    };
    AnySolver::new(&empty, settings.tt_mb).with_threads(settings.threads).expect("threads")
}

/// Seconds to the value and to every move's value (infinite when not done within the cap).
fn analyse(
    solver: &mut AnySolver<Connect4>,
    pos: &AnyPosition,
    book: Option<&Book>,
    settings: &Settings,
    keep: bool,
) -> (f64, f64) {
    analyse_valued(solver, pos, book, settings, keep).0
}

/// [`analyse`], and the value (Pons' score for the side to move) when it was proved.
fn analyse_valued(
    solver: &mut AnySolver<Connect4>,
    pos: &AnyPosition,
    book: Option<&Book>,
    settings: &Settings,
    keep: bool,
) -> ((f64, f64), Option<i32>) {
    let AnyPosition::Gravity(p) = pos else { panic!("a Connect-4 position") };
    let cap = Duration::from_secs_f64(settings.cap);
    let start = Instant::now();
    // The value from the book when it holds the position (as the solver agent answers), else
    // from a search.
    let solution = match book.and_then(|b| b.solution_of(p, false)) {
        Some(s) => s,
        None if keep => solver.solve_keeping_table(p, false, Some(cap), None),
        None => solver.solve(p, false, Some(cap), None),
    };
    let solved = solution.is_solved();
    let value_secs = if solved { start.elapsed().as_secs_f64() } else { f64::INFINITY };
    // The solve's move (or the book's, below its depth) keeps the value: its row needs no
    // proof again.
    let how = MoveProofs {
        book,
        best: solution.best.map(|m| (m, solution.lower)),
        deadline: Some(start + cap),
        ..Default::default()
    };
    let moves = solver.move_solutions(p, how, |_, _, _| {});
    let every = solved && moves.iter().all(|(_, m)| m.is_some());
    let times = (value_secs, if every { start.elapsed().as_secs_f64() } else { f64::INFINITY });
    (times, solved.then_some(solution.lower))
}

fn print_row(label: &str, times: &mut [(f64, f64)]) {
    let value_fast = times.iter().filter(|t| t.0 <= 1.0).count();
    let all_fast = times.iter().filter(|t| t.1 <= 1.0).count();
    let mut t_value: Vec<f64> = times.iter().map(|t| t.0).collect();
    let mut t_all: Vec<f64> = times.iter().map(|t| t.1).collect();
    let slowest = t_all.iter().copied().fold(0.0, f64::max);
    let n = times.len();
    println!(
        "{label} | {value_fast}/{n} | {all_fast}/{n} | {} | {} | {}",
        secs(median(&mut t_value)),
        secs(median(&mut t_all)),
        secs(slowest)
    );
}

/// `stones` random legal moves from the empty board; None when the game ended on the way.
fn random_position(game: mnklab::game::Variant, rng: &mut impl rand::Rng, stones: usize) -> Option<AnyPosition> {
    let mut pos = AnyPosition::new(game);
    for _ in 0..stones {
        let moves: Vec<_> = with_position!(&pos, p => {
            let mut all = Vec::new();
            p.legal_moves(&mut all);
            all
        });
        pos.try_play(moves[below(rng, moves.len())]).ok()?;
        if pos.status().is_over() {
            return None;
        }
    }
    Some(pos)
}

/// The median with searches stopped at the cap counted as infinite (so a median "over the
/// cap" says most did not finish); `mnklab::bench::median` would leave them out.
fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn secs(s: f64) -> String {
    if s.is_finite() { format!("{s:.3}") } else { "over the cap".into() }
}
