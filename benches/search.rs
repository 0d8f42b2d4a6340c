//! Agents' search speed (the figures `mnklab bench search` prints, under criterion).

use criterion::{Criterion, criterion_group, criterion_main};
use mnklab::game::AnyPosition;
use mnklab::search::{NullSink, SearchControl, SearchLimits, build_agent, preset};
use mnklab::with_position;

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (game, agent, limits) in [
        ("connect3d", "jeng-mcts", SearchLimits::iterations(10_000)),
        ("connect4", "jeng-mcts", SearchLimits::iterations(10_000)),
        ("gomoku", "strong-ab", SearchLimits::depth(4)),
        ("connect4", "strong-ab", SearchLimits::depth(10)),
    ] {
        let pos = AnyPosition::new(game.parse().unwrap());
        let file = preset(agent).unwrap();
        group.bench_function(format!("{game}/{agent}"), |b| {
            b.iter(|| {
                with_position!(&pos, p => build_agent(&file.agent, 1).search(p, &limits, &SearchControl::new(), &mut NullSink))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
