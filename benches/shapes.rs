//! The shape heuristic's update (a stone played and taken back, the position evaluated)
//! on gomoku with 0 to 160 stones on the board, under criterion; then the same-run ratio of
//! its cost with 160 stones to its cost on the empty board, alternating the two, which stays
//! near 1 because a stone changes only the cells within K-1 of it on its lines.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use mnklab::eval::{EvalBoard, Heuristic, HeuristicConfig, ShapeWeights};
use mnklab::game::{AnyPosition, Position};
use mnklab::rng::{below, seeded};
use mnklab::with_position;

const STONES: [usize; 5] = [0, 40, 80, 120, 160];

/// A gomoku position with `stones` stones from a seeded random game that is not over.
fn position(stones: usize) -> AnyPosition {
    let mut pos = AnyPosition::new("gomoku".parse().unwrap());
    let mut rng = seeded(stones as u64 + 1);
    while pos.history().len() < stones {
        let moves = pos.legal_moves();
        let mut next = pos.clone();
        next.try_play(moves[below(&mut rng, moves.len())]).unwrap();
        if !next.status().is_over() {
            pos = next;
        }
    }
    pos
}

/// Plays and takes back a stone on each of `cells` (empty), evaluating between: the work of a
/// search's node, on the shape board alone.
fn cycle<P: Position>(h: &HeuristicConfig, pos: &P, board: &mut EvalBoard, cells: &[usize]) -> i64 {
    let me = pos.side_to_move();
    let mut total = 0i64;
    for &c in cells {
        board.play(c, me);
        total += h.evaluate(pos, board) as i64;
        board.undo(c, me);
    }
    total
}

fn shapes(c: &mut Criterion) {
    let h = HeuristicConfig::Shapes(ShapeWeights::default());
    let mut group = c.benchmark_group("shape update");
    for stones in STONES {
        with_position!(&position(stones), p => {
            let (mut board, cells) = (h.board(p), empty_cells(p));
            group.bench_function(format!("{stones} stones"), |b| b.iter(|| black_box(cycle(&h, p, &mut board, &cells))));
        });
    }
    group.finish();
}

/// 64 empty cells of `pos`.
fn empty_cells<P: Position>(pos: &P) -> Vec<usize> {
    (0..pos.windows().cells).filter(|&c| pos.stone_on(c).is_none()).take(64).collect()
}

/// Nanoseconds a play, evaluation and take-back on `pos`, timed over many cycles.
fn nanos(h: &HeuristicConfig, pos: &AnyPosition) -> f64 {
    with_position!(pos, p => timed(h, p, &mut h.board(p), &empty_cells(p)))
}

fn timed<P: Position>(h: &HeuristicConfig, pos: &P, board: &mut EvalBoard, cells: &[usize]) -> f64 {
    let rounds = 2000;
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(cycle(h, pos, board, cells));
    }
    start.elapsed().as_nanos() as f64 / (rounds * cells.len()) as f64
}

fn full_against_empty(_: &mut Criterion) {
    let h = HeuristicConfig::Shapes(ShapeWeights::default());
    let (empty, full) = (position(0), position(*STONES.last().unwrap()));
    let mut ratios = Vec::new();
    for _ in 0..9 {
        let a = nanos(&h, &empty);
        let b = nanos(&h, &full);
        ratios.push(b / a);
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "shape update, {} stones against none: median ratio {:.2} over 9 alternating rounds (min {:.2}, max {:.2})",
        STONES.last().unwrap(),
        ratios[4],
        ratios[0],
        ratios[8]
    );
}

criterion_group!(benches, shapes, full_against_empty);
criterion_main!(benches);
