//! Agents' search speed (the figures `mnklab bench search` prints, under criterion), then
//! same-run ratios against references where they are present:
//! - `scripts/bench/alphabeta.c` (the same alpha-beta in plain C), built here with the
//!   system's C compiler: Connect-4 depth 12 and gomoku depth 4 against
//!   `scripts/bench/plain-ab.ron`, after checking both visit the same nodes; built twice, as
//!   written and with `-DGAIN_TABLE` (the one-lookup window update mnklab uses);
//! - with `MNKLAB_SEED3D` naming a timing harness of the connect3d seed program (built by
//!   `scripts/bench/seed-connect3d.sh`, which keeps it with `KEEP=DIR`), jeng-mcts's
//!   iterations/s from the empty board.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use mnklab::agents::{AgentConfig, build_agent, load_agent, preset};
use mnklab::bench::same_run;
use mnklab::game::AnyPosition;
use mnklab::search::{NullSink, SearchControl, SearchLimits};
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

/// Nodes and nodes/s (or iterations/s) of one search from the start position.
fn measure(game: &str, agent: &AgentConfig, limits: SearchLimits) -> (u64, f64) {
    let pos = AnyPosition::new(game.parse().unwrap());
    let r = with_position!(&pos, p => build_agent(agent, 1).search(p, &limits, &SearchControl::new(), &mut NullSink));
    let work = if r.stats.iterations > 0 { r.stats.iterations } else { r.stats.nodes };
    (r.stats.nodes, work as f64 / r.stats.elapsed.max(1e-9))
}

/// Builds the C alpha-beta twin (with `flags`) into the target folder as `name`; why not,
/// without a compiler.
fn c_twin(flags: &[&str], name: &str) -> Result<PathBuf, String> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench/alphabeta.c");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = std::process::Command::new(&cc)
        .arg("-O2")
        .args(flags)
        .arg("-o")
        .arg(&out)
        .arg(&source)
        .status()
        .map_err(|e| format!("no C compiler ({cc}: {e})"))?;
    if !status.success() {
        return Err(format!("{cc} could not build {}", source.display()));
    }
    Ok(out)
}

fn against_references(_: &mut Criterion) {
    for (flags, name, what) in [
        (&[][..], "alphabeta-twin", "the C twin"),
        (&["-DGAIN_TABLE"][..], "alphabeta-twin-gain", "the C twin with the gain table"),
    ] {
        against_c_twin(flags, name, what);
    }
    against_seed_program();
}

/// Alpha-beta nodes/s against one build of the C twin, same run, after checking equal work.
fn against_c_twin(flags: &[&str], name: &str, what: &str) {
    match c_twin(flags, name) {
        Err(why) => println!("alpha-beta against {what}: skipped, {why}"),
        Ok(twin) => {
            let plain = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench/plain-ab.ron");
            let agent = load_agent(&plain.to_string_lossy()).expect("scripts/bench/plain-ab.ron").agent;
            for (game, depth) in [("connect4", 12), ("gomoku", 4)] {
                let command = format!("{} {game} {depth}", twin.display());
                // Equal work first: the twin prints "nodes N ...".
                let printed = std::process::Command::new(&twin).args([game, &depth.to_string()]).output();
                let c_nodes = printed.ok().and_then(|o| {
                    String::from_utf8_lossy(&o.stdout).split_whitespace().nth(1).and_then(|n| n.parse::<u64>().ok())
                });
                let (nodes, _) = measure(game, &agent, SearchLimits::depth(depth));
                if c_nodes != Some(nodes) {
                    println!(
                        "{game} depth {depth}: the C twin visited {c_nodes:?} nodes, mnklab {nodes}: not compared"
                    );
                    continue;
                }
                let ours = || Ok::<f64, std::convert::Infallible>(measure(game, &agent, SearchLimits::depth(depth)).1);
                match same_run(&command, 5, ours, |_, _, _| {}) {
                    Ok(run) => {
                        println!("{game} alpha-beta depth {depth}, {nodes} nodes, against {what}:\n{}", run.report())
                    }
                    Err(e) => println!("{game}: {e}"),
                }
            }
        }
    }
}

fn against_seed_program() {
    match std::env::var("MNKLAB_SEED3D") {
        Err(_) => println!("connect3d MCTS against the seed program: set MNKLAB_SEED3D to its timing harness"),
        Ok(harness) => {
            let jeng = preset("jeng-mcts").unwrap().agent;
            let ours = || Ok::<f64, std::convert::Infallible>(measure("connect3d", &jeng, SearchLimits::time(2.0)).1);
            match same_run(&format!("{harness} 2"), 5, ours, |_, _, _| {}) {
                Ok(run) => println!("connect3d jeng-mcts against the seed program:\n{}", run.report()),
                Err(e) => println!("connect3d: {e}"),
            }
        }
    }
}

criterion_group!(benches, search, against_references);
criterion_main!(benches);
