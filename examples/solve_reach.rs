//! How far "perfect play at a click" reaches on Connect-4: for positions of a given number of
//! stones, played at random from the empty board (seeded), the time the solver takes for the
//! strong value, and for the value and then every move's value (what the workbench's solver
//! shows per candidate), with the built-in book as the workbench uses it (the value from the
//! book when it holds the position, every move's from it where it holds the moves' positions).
//! Counts how many are done within 1 s; each search is stopped at the cap.
//!
//! `cargo run --release --example solve_reach -- [--tt-mb MB] [--threads T] [--slow] [PER_PLY]
//! [SEED] [CAP_SECONDS] [PLIES...]` (defaults 20, 1, 5, plies 5 6 8 10 12 14). By default one
//! thread and an 8 MiB table (the solver agent's defaults), a fresh solver for each position;
//! `--slow` prints each position whose every move's value took over 1 s.

use std::time::{Duration, Instant};

use mnklab::game::{AnyPosition, Position};
use mnklab::rng::{below, seeded};
use mnklab::search::solver::{AnySolver, MoveProofs, builtin_book};
use mnklab::with_position;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let (mut tt_mb, mut threads, mut list_slow) = (8usize, 1usize, false);
    while let Some(flag) = args.first().filter(|a| a.starts_with("--")).cloned() {
        args.remove(0);
        match flag.as_str() {
            "--slow" => list_slow = true,
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
    let game = "connect4".parse().expect("a game");
    let book = builtin_book(&game);
    let mut rng = seeded(seed);
    println!(
        "Connect-4, {per_ply} random positions a ply (seed {seed}), strong, {threads} thread(s), \
         {tt_mb} MiB table, cap {cap} s"
    );
    println!("stones | value <= 1 s | value and every move's <= 1 s | median value s | median all s | slowest all s");
    for &ply in &plies {
        let (mut value_fast, mut all_fast) = (0, 0);
        let (mut t_value, mut t_all) = (Vec::new(), Vec::new());
        let mut done = 0;
        while done < per_ply {
            let Some(pos) = random_position(game, &mut rng, ply) else { continue };
            done += 1;
            let (value_secs, all_secs) = with_position!(&pos, p => {
                let start = Instant::now();
                let mut solver = AnySolver::new(p, tt_mb).with_threads(threads).expect("threads");
                // The value from the book when it holds the position (as the solver agent
                // answers), else from a search.
                // The solve's move (or the book's, below its depth) keeps the value: its row
                // needs no proof again.
                let solution = match book.as_deref().and_then(|b| b.solution_of(p, false)) {
                    Some(s) => s,
                    None => solver.solve(p, false, Some(Duration::from_secs_f64(cap)), None),
                };
                let solved = solution.is_solved();
                let value_secs = if solved { start.elapsed().as_secs_f64() } else { f64::INFINITY };
                let how = MoveProofs {
                    book: book.as_deref(),
                    best: solution.best.map(|m| (m, solution.lower)),
                    deadline: Some(start + Duration::from_secs_f64(cap)),
                    ..Default::default()
                };
                let moves = solver.move_solutions(p, how, |_, _, _| {});
                let every = solved && moves.iter().all(|(_, m)| m.is_some());
                (value_secs, if every { start.elapsed().as_secs_f64() } else { f64::INFINITY })
            });
            if list_slow && all_secs > 1.0 {
                println!("  slow: {} (value {value_secs:.3} s, every move's {all_secs:.3} s)", pos.history_string());
            }
            value_fast += (value_secs <= 1.0) as usize;
            all_fast += (all_secs <= 1.0) as usize;
            t_value.push(value_secs);
            t_all.push(all_secs);
        }
        let slowest = t_all.iter().copied().fold(0.0, f64::max);
        println!(
            "{ply} | {value_fast}/{per_ply} | {all_fast}/{per_ply} | {} | {} | {}",
            secs(median(&mut t_value)),
            secs(median(&mut t_all)),
            secs(slowest)
        );
    }
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
