//! `mnklab solve`: the exact value of a position, or of every line of a Pons-format file.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use mnklab::game::{AnyPosition, Position};
use mnklab::search::solver::{AnySolver, Solution};
use mnklab::with_position;

use super::{PositionArgs, parse_seconds, parse_table_mb};

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Prove only win, draw or loss (faster).
    #[arg(long)]
    weak: bool,
    /// Give up after this many seconds and print the bounds proved.
    #[arg(long, value_parser = parse_seconds, allow_negative_numbers = true)]
    time: Option<f64>,
    /// Table size in MiB.
    #[arg(long, default_value_t = 256, value_parser = parse_table_mb)]
    tt_mb: u32,
    /// Solve every line of a file in Pons' benchmark format ("<moves> <score>"), from the
    /// position given (usually the start), printing "<moves> <score>" for each.
    #[arg(long)]
    batch: Option<PathBuf>,
}

pub fn run(args: SolveArgs) -> Result<(), String> {
    let pos = args.position.position()?;
    if let Some(why) = mnklab::search::solver::unsupported(&pos.variant()) {
        return Err(why);
    }
    if let Some(path) = &args.batch {
        let report = solve_batch(&pos, path, args.weak, args.tt_mb, None, |line| println!("{line}"))?;
        println!("solved {} positions, mean {:.1} us, mean {:.0} nodes", report.0, report.1, report.2);
        return Ok(());
    }
    let s = with_position!(&pos, p => {
        let mut solver = AnySolver::new(p, args.tt_mb as usize);
        solver.solve(p, args.weak, args.time.map(Duration::from_secs_f64), None)
    });
    print_solution(&pos, &s);
    Ok(())
}

fn print_solution(pos: &AnyPosition, s: &Solution) {
    let weak = if s.weak { ", weak" } else { "" };
    if s.over.is_some() {
        // Nothing to search: the result itself, and its value for the side to move.
        println!("value {} (score {} for the side to move{weak})", s.describe(), s.lower);
    } else if s.is_solved() {
        println!("value {} (score {}{weak})", s.describe(), s.lower);
        if let Some(m) = s.best {
            println!("bestmove {}", pos.format_move(m));
        }
    } else {
        println!("time ran out after {:.3} s: the value lies between {} and {}", s.elapsed, s.lower, s.upper);
    }
    println!("nodes {} time {:.3} s table {} MiB", s.nodes, s.elapsed, s.memory >> 20);
}

/// Solves every line of a Pons-format file from `start`; calls `out` with "<moves> <score>"
/// per line and returns (positions, mean microseconds, mean nodes). A fresh table each time.
pub fn solve_batch(
    start: &AnyPosition,
    path: &Path,
    weak: bool,
    tt_mb: u32,
    limit: Option<usize>,
    mut out: impl FnMut(String),
) -> Result<(usize, f64, f64), String> {
    let text = mnklab::io::read_bounded(path, 1 << 30).map_err(|e| e.to_string())?;
    let (mut n, mut micros, mut nodes) = (0usize, 0f64, 0f64);
    with_position!(start, p0 => {
        let mut solver = AnySolver::new(p0, tt_mb as usize);
        for (i, line) in text.lines().enumerate().take(limit.unwrap_or(usize::MAX)) {
            if line.trim().is_empty() {
                continue;
            }
            let moves = line.split_whitespace().next().unwrap_or("");
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
    if n == 0 {
        return Err(format!("{}: no positions in the file", path.display()));
    }
    Ok((n, micros / n as f64, nodes / n as f64))
}
