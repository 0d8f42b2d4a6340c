//! Solver benchmarks: proofs of 5,5,4 (draw) and 6,5,4 (first-player win), and Pons' sets.

use criterion::{Criterion, criterion_group, criterion_main};
use mnklab::game::{AnyPosition, Grid, Position, Variant};
use mnklab::search::solver::{AnySolver, SolveRun};
use mnklab::with_position;

fn free_placement(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for (game, weak, value) in [("mnk:5,5,4", true, 0), ("mnk:6,5,4", true, 1), ("mnk:6,5,4", false, 10)] {
        let pos = AnyPosition::new(game.parse().unwrap());
        let name = format!("{game}{}", if weak { " weak" } else { "" });
        group.bench_function(name, |b| {
            b.iter(|| {
                let s = with_position!(&pos, p => AnySolver::new(p, 256).solve(p, weak, None, None));
                assert_eq!(s.lower, value, "{game}");
            })
        });
    }
    group.finish();
}

fn pons_sets(c: &mut Criterion) {
    let mut group = c.benchmark_group("pons");
    group.sample_size(10);
    for set in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/connect4").join(set);
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let positions: Vec<Grid<u64, true>> = text
            .lines()
            .take(100)
            .map(|l| {
                let mut g = Grid::<u64, true>::new(Variant::connect4().grid().unwrap());
                g.play_sequence(l.split_whitespace().next().unwrap()).unwrap();
                g
            })
            .collect();
        let mut solver = AnySolver::new(&positions[0], 8);
        group.bench_function(format!("{set} x100"), |b| {
            b.iter(|| {
                for p in &positions {
                    solver.run(p, SolveRun { weak: false, best_move: false, ..SolveRun::default() });
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, free_placement, pons_sets);
criterion_main!(benches);
