//! How far "perfect play at a click" reaches on Connect-4: for positions of a given number of
//! stones, played at random from the empty board (seeded), the time the solver takes for the
//! strong value, for the value and a move keeping it, and for those and then every move's value
//! (what the workbench's solver shows per candidate, in its order), with the built-in book as
//! the workbench uses it (the value from the book when it holds the position, a move keeping it
//! proved at the book's depth, every move's from the book where it holds the moves' positions).
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
//! the game (`AnySolver::run` over the kept table, as the solver agent does).

use std::time::{Duration, Instant};

use mnklab::game::{AnyPosition, Position};
use mnklab::rng::{below, seeded};
use mnklab::search::solver::{AnySolver, Book, MoveProofs, SolveRun, builtin_book};
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
    println!("stones | {HEADER}");
    for &ply in &plies {
        let mut times = Vec::new();
        while times.len() < per_ply {
            let Some(pos) = random_position(game, &mut rng, ply) else { continue };
            let mut solver = new_solver(&settings);
            let t = analyse(&mut solver, &pos, book.as_deref(), &settings, false);
            if list_slow {
                print_slow(&pos, &t);
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
    println!("stones | {HEADER}");
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
            if list_slow {
                print_slow(pos, &t);
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
    // [fresh, kept][ply index].
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
    println!("stones | table | {HEADER}");
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

/// Seconds to the value, to the value and a move keeping it, and to every move's value, each
/// infinite when not done within the cap.
#[derive(Clone, Copy)]
struct Times {
    value: f64,
    moved: f64,
    every: f64,
}

fn analyse(
    solver: &mut AnySolver<Connect4>,
    pos: &AnyPosition,
    book: Option<&Book>,
    settings: &Settings,
    keep: bool,
) -> Times {
    analyse_valued(solver, pos, book, settings, keep).0
}

/// [`analyse`], and the value (Pons' score for the side to move) when it was proved.
/// In the workbench's order: the value (from the book when it holds the position, as the
/// solver agent answers, else from a search), a move keeping it (the search's, the book's
/// below its depth, or at its depth proved by null-window searches as the agent does), then
/// every other move's value (from the book where it holds the move's position, else proved).
fn analyse_valued(
    solver: &mut AnySolver<Connect4>,
    pos: &AnyPosition,
    book: Option<&Book>,
    settings: &Settings,
    keep: bool,
) -> (Times, Option<i32>) {
    let AnyPosition::Gravity(p) = pos else { panic!("a Connect-4 position") };
    let cap = Duration::from_secs_f64(settings.cap);
    let start = Instant::now();
    let mut solution = match book.and_then(|b| b.solution_of(p, false)) {
        Some(s) => s,
        None if keep => {
            solver.run(p, SolveRun { weak: false, time: Some(cap), fresh_table: false, ..SolveRun::default() })
        }
        None => solver.solve(p, false, Some(cap), None),
    };
    let solved = solution.is_solved();
    let since = |done: bool| if done { start.elapsed().as_secs_f64() } else { f64::INFINITY };
    let value = since(solved);
    if solved && solution.best.is_none() && solution.over.is_none() {
        let check = book.is_some_and(|b| !b.is_shipped());
        solver.prove_book_move(
            p,
            &mut solution,
            check,
            mnklab::search::solver::Halt { deadline: Some(start + cap), stop: None },
            start,
            None,
        );
    }
    let moved = since(solved && (solution.best.is_some() || solution.over.is_some()));
    // The move keeping the value needs no proof again; every other move's proof starts from
    // the bound the value gives.
    let how = MoveProofs {
        book,
        best: solution.best.map(|m| (m, solution.lower)),
        deadline: Some(start + cap),
        ..Default::default()
    };
    let moves = solver.move_solutions(p, how, |_, _, _| {});
    let every = since(solved && moves.iter().all(|(_, m)| m.is_some()));
    (Times { value, moved, every }, solved.then_some(solution.lower))
}

/// The columns of [`HEADER`] after the stone count.
fn print_row(label: &str, times: &mut [Times]) {
    let within = |f: fn(&Times) -> f64| times.iter().filter(|t| f(t) <= 1.0).count();
    let median_of = |f: fn(&Times) -> f64| secs(median(&mut times.iter().map(f).collect::<Vec<_>>()));
    let slowest = |f: fn(&Times) -> f64| secs(times.iter().map(f).fold(0.0, f64::max));
    let n = times.len();
    println!(
        "{label} | {}/{n} | {}/{n} | {}/{n} | {} | {} | {} | {} | {}",
        within(|t| t.value),
        within(|t| t.moved),
        within(|t| t.every),
        median_of(|t| t.value),
        median_of(|t| t.every),
        slowest(|t| t.value),
        slowest(|t| t.moved),
        slowest(|t| t.every),
    );
}

/// `--slow`: a position whose every move's value took over 1 s, with its times.
fn print_slow(pos: &AnyPosition, t: &Times) {
    if t.every > 1.0 {
        let line = pos.history_string();
        println!(
            "  slow: {line} (value {:.3} s, a move keeping it {:.3} s, every move's {:.3} s)",
            t.value, t.moved, t.every
        );
    }
}

/// What [`print_row`] prints: "move" is the value and a move keeping it, "all" every move's.
const HEADER: &str = "value <= 1 s | value and move <= 1 s | value and every move's <= 1 s | median value s | median all s | slowest value s | slowest move s | slowest all s";

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
