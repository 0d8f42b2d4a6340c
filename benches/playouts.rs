//! Random playouts per variant (the figures `mnklab bench playouts` prints, under criterion).

use criterion::{Criterion, criterion_group, criterion_main};
use mnklab::game::{AnyPosition, Variant};
use mnklab::rng::seeded;
use mnklab::search::playout::random_playout;
use mnklab::with_position;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    for name in ["connect4", "gomoku", "connect3d", "tictactoe"] {
        let variant: Variant = name.parse().unwrap();
        let mut pos = AnyPosition::new(variant);
        let mut rng = seeded(1);
        group.bench_function(name, |b| with_position!(&mut pos, p => b.iter(|| random_playout(p, &mut rng))));
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
