//! Random playouts per variant (the figures `mnklab bench playouts` prints, under criterion).
//! With `MNKLAB_YARDSTICK` naming the team's C playout yardstick, built here (`gcc -O2 -o
//! /tmp/yardstick-playouts playouts.c`), it then prints same-run ratios against it for
//! Connect-4 and gomoku: the yardstick and mnklab alternately, 1 s each, five rounds.

use criterion::{Criterion, criterion_group, criterion_main};
use mnklab::bench::{playouts, same_run};
use mnklab::game::{AnyPosition, Variant};
use mnklab::rng::seeded;
use mnklab::search::playout::random_playout;
use mnklab::with_position;

fn random_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    for name in ["connect4", "gomoku", "connect3d", "tictactoe"] {
        let variant: Variant = name.parse().unwrap();
        let mut pos = AnyPosition::new(variant);
        let mut rng = seeded(1);
        group.bench_function(name, |b| with_position!(&mut pos, p => b.iter(|| random_playout(p, &mut rng))));
    }
    group.finish();
}

fn against_the_yardstick(_: &mut Criterion) {
    let Ok(yardstick) = std::env::var("MNKLAB_YARDSTICK") else {
        println!("same-run ratios: set MNKLAB_YARDSTICK to the C playout yardstick to print them");
        return;
    };
    for game in ["connect4", "gomoku"] {
        let variant: Variant = game.parse().unwrap();
        let ours = || Ok::<f64, std::convert::Infallible>(playouts(variant, 1.0, 1).playouts_per_second());
        match same_run(&format!("{yardstick} {game} 1"), 5, ours, |_, _, _| {}) {
            Ok(run) => println!("{game} playouts against {yardstick}:\n{}", run.report()),
            Err(e) => println!("{game}: {e}"),
        }
    }
}

criterion_group!(benches, random_playouts, against_the_yardstick);
criterion_main!(benches);
