//! `mnklab bench`: playouts, solver batches and search rates.

use std::path::PathBuf;

use clap::Subcommand;
use mnklab::agents::{build_agent, load_agent};
use mnklab::bench::{SameRunError, same_run};
use mnklab::game::{AnyPosition, Position, Variant};
use mnklab::search::{SearchControl, SearchLimits, SearchResult};
use mnklab::with_position;

use super::{consent_to_external, parse_count, parse_seconds, parse_table_mb, parse_variant};

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Uniformly random games on one thread, no tree.
    Playouts {
        #[arg(long, value_parser = parse_variant)]
        game: Variant,
        #[arg(long, default_value_t = 5.0, value_parser = parse_seconds, allow_negative_numbers = true)]
        seconds: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        against: AgainstArgs,
    },
    /// The solver on every line of a Pons benchmark file, a fresh table per position.
    Solve {
        #[arg(long, value_parser = parse_variant, default_value = "connect4")]
        game: Variant,
        /// One or more files in Pons' format (a shell glob like Test_* names them all).
        #[arg(long, num_args = 1.., required = true)]
        batch: Vec<PathBuf>,
        #[arg(long)]
        weak: bool,
        /// Solve only the first N lines.
        #[arg(long, value_parser = parse_count)]
        limit: Option<u64>,
        /// Table size in MiB (8 holds the largest benchmark search and stays in cache).
        #[arg(long, default_value_t = 8, value_parser = parse_table_mb)]
        tt_mb: u32,
    },
    /// An agent searching the start position for S seconds.
    Search {
        #[arg(long, value_parser = parse_variant)]
        game: Variant,
        #[arg(long)]
        agent: String,
        #[arg(long, default_value_t = 5.0, value_parser = parse_seconds, allow_negative_numbers = true)]
        seconds: f64,
        /// Search to this depth instead of for S seconds, and time it (alpha-beta).
        #[arg(long, value_parser = super::parse_depth)]
        depth: Option<u32>,
        /// Search threads (default: the agent file's).
        #[arg(long, value_parser = super::parse_search_threads)]
        threads: Option<u32>,
        /// MCTS threads: root, tree or tree:N (virtual loss N); default: the agent file's.
        #[arg(long, value_parser = super::parse_parallel)]
        parallel: Option<mnklab::search::Parallel>,
        /// Let an agent file start the external program it names.
        #[arg(long)]
        allow_external: bool,
        #[command(flatten)]
        against: AgainstArgs,
    },
    /// How an agent spends a fixed time a move: a self-play game, each move searched with
    /// `--time` (or `--cpu-time`); prints the time each move took, measured around the search
    /// call, against the time allowed.
    Timing {
        #[arg(long, value_parser = parse_variant)]
        game: Variant,
        #[arg(long)]
        agent: String,
        /// Seconds a move (wall time).
        #[arg(long, value_parser = parse_seconds, required_unless_present = "cpu_time", conflicts_with = "cpu_time")]
        time: Option<f64>,
        /// Seconds of the searching thread's CPU time a move.
        #[arg(long, value_parser = parse_seconds)]
        cpu_time: Option<f64>,
        /// Moves to play (fewer if the game ends).
        #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        moves: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// A reference program to measure beside mnklab in the same run.
#[derive(clap::Args)]
pub struct AgainstArgs {
    /// A reference program and its arguments ("/tmp/yardstick-playouts connect4 2"), run
    /// alternately with this measurement; it must print "<something>_per_second N". Prints
    /// each round's rates and ratio, the median ratio and the load.
    #[arg(long)]
    against: Option<String>,
    /// Rounds of reference, mnklab (with --against).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    rounds: u32,
}

impl AgainstArgs {
    /// Runs `ours` alone, or alternately with the reference (reference first each round).
    fn run(&self, mut ours: impl FnMut() -> Result<f64, String>) -> Result<(), String> {
        let Some(command) = &self.against else {
            ours()?;
            return Ok(());
        };
        let run = same_run(command, self.rounds, &mut ours, |round, reference, mine| {
            // Each round as it finishes (a long comparison shows progress).
            println!("round {round}: reference {reference:.0}/s  mnklab {mine:.0}/s  ratio {:.3}", mine / reference);
        })
        .map_err(|e| match e {
            SameRunError::Reference(why) => format!("--against: {why}"),
            SameRunError::Ours(e) => e,
        })?;
        let report = run.report();
        // The per-round lines were printed as the rounds finished.
        for line in report.lines().filter(|l| !l.starts_with("round ")) {
            println!("{line}");
        }
        Ok(())
    }
}

pub fn run(cmd: BenchCommand) -> Result<(), String> {
    match cmd {
        BenchCommand::Timing { game, agent, time, cpu_time, moves, seed } => {
            timing(game, &agent, time, cpu_time, moves, seed)
        }
        BenchCommand::Playouts { game, seconds, seed, against } => against.run(|| playouts(game, seconds, seed)),
        BenchCommand::Solve { game, batch, weak, limit, tt_mb } => {
            let pos = AnyPosition::new(game);
            if let Some(why) = mnklab::search::solver::unsupported(&game) {
                return Err(why);
            }
            let limit = limit.map(|n| n.min(usize::MAX as u64) as usize);
            for file in &batch {
                let r = super::solve::batch(&pos, file, weak, tt_mb, limit, |_| {})?;
                println!(
                    "{} positions of {}: mean {:.1} us, mean {:.0} nodes; {}",
                    r.positions,
                    file.display(),
                    r.mean_us,
                    r.mean_nodes,
                    r.verdict().map_err(|e| e.to_string())?
                );
                // Machine-readable, for scripts/bench/pons.sh and the like.
                println!("mean_us {:.3}\nmean_nodes {:.1}", r.mean_us, r.mean_nodes);
            }
            Ok(())
        }
        BenchCommand::Search { game, agent, seconds, depth, threads, parallel, allow_external, against } => {
            let mut file = load_agent(&agent).map_err(|e| e.to_string())?;
            if let Some(t) = threads {
                file.agent = file.agent.with_threads(t)?;
            }
            if let Some(p) = parallel {
                file.agent = file.agent.with_parallel(p)?;
            }
            let external: Vec<(String, String)> =
                file.agent.external_command().map(|c| (file.name.clone(), c)).into_iter().collect();
            consent_to_external(&external, allow_external)?;
            let pos = AnyPosition::new(game);
            let limits = match depth {
                Some(d) => SearchLimits { depth: Some(d), ..SearchLimits::default() },
                None => SearchLimits::time(seconds),
            };
            file.agent.check_limits(&limits, None, true).map_err(|e| format!("--agent {}: {e}", file.name))?;
            against.run(|| {
                let r: SearchResult = with_position!(&pos, p => {
                    let mut a = build_agent(&file.agent, file.seed);
                    a.search(p, &limits, &SearchControl::new(), &mut mnklab::search::NullSink)
                });
                let threads = file.agent.threads();
                println!(
                    "game {game} agent {} ({}, {threads} thread{})",
                    file.name,
                    file.agent.kind(),
                    if threads == 1 { "" } else { "s" }
                );
                println!(
                    "nodes {} iterations {} depth {} in {:.3} s",
                    r.stats.nodes, r.stats.iterations, r.stats.depth, r.stats.elapsed
                );
                let rate = if r.stats.iterations > 0 {
                    let rate = r.stats.iterations as f64 / r.stats.elapsed;
                    println!("iterations_per_second {rate:.0}");
                    rate
                } else {
                    let rate = r.stats.nodes as f64 / r.stats.elapsed;
                    println!("nodes_per_second {rate:.0}");
                    rate
                };
                Ok(rate)
            })
        }
    }
}

fn playouts(game: Variant, seconds: f64, seed: u64) -> Result<f64, String> {
    let r = mnklab::bench::playouts(game, seconds, seed);
    let [w1, w2, d] = r.outcomes;
    let share = |n: u64| 100.0 * n as f64 / r.playouts.max(1) as f64;
    println!("game {}", r.variant);
    println!("playouts {} in {:.3} s, mean length {:.1} moves", r.playouts, r.elapsed.as_secs_f64(), r.mean_length());
    println!("first wins {:.1}%, second wins {:.1}%, draws {:.1}%", share(w1), share(w2), share(d));
    println!("playouts_per_second {:.0}", r.playouts_per_second());
    Ok(r.playouts_per_second())
}

/// `bench timing`: each move's wall and CPU time against the time allowed.
fn timing(
    game: Variant,
    agent: &str,
    time: Option<f64>,
    cpu_time: Option<f64>,
    moves: u32,
    seed: u64,
) -> Result<(), String> {
    use mnklab::search::progress::thread_cpu_seconds;
    let file = load_agent(agent).map_err(|e| e.to_string())?;
    if file.agent.external_command().is_some() {
        return Err("bench timing measures mnklab's own agents, not an external program".into());
    }
    if matches!(file.agent, mnklab::agents::AgentConfig::Random) {
        return Err("bench timing: a random agent does not search, so it has no time to spend".into());
    }
    let limits = SearchLimits { time, cpu_time, ..SearchLimits::default() };
    file.agent.check_limits(&limits, None, true).map_err(|e| format!("--agent {}: {e}", file.name))?;
    let allowed = time.or(cpu_time).unwrap_or(0.0);
    let mut pos = AnyPosition::new(game);
    let mut rows: Vec<(f64, f64, u64)> = Vec::new();
    with_position!(&mut pos, p => {
        let mut a = build_agent::<_>(&file.agent, seed);
        for _ in 0..moves {
            if p.is_over() {
                break;
            }
            let (wall0, cpu0) = (std::time::Instant::now(), thread_cpu_seconds());
            let r = a.search(p, &limits, &SearchControl::new(), &mut mnklab::search::NullSink);
            let (wall, cpu) = (wall0.elapsed().as_secs_f64(), thread_cpu_seconds() - cpu0);
            let work = r.stats.iterations.max(r.stats.nodes);
            println!("move {:>3}: wall {wall:.4} s  cpu {cpu:.4} s  work {work}", rows.len() + 1);
            rows.push((wall, cpu, work));
            let Some(m) = r.best else { break };
            p.play(m);
        }
    });
    let spent: Vec<f64> = rows.iter().map(|r| if time.is_some() { r.0 } else { r.1 }).collect();
    let full: Vec<f64> = spent.iter().copied().filter(|&t| t >= 0.95 * allowed).collect();
    let mean = full.iter().sum::<f64>() / full.len().max(1) as f64;
    let max = spent.iter().copied().fold(0.0, f64::max);
    let over = spent.iter().filter(|&&t| t > allowed + 0.010).count();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{} {} s a move: mean {mean:.4} s ({:.1}%) over the {} moves that used their time, max {max:.4} s, \
         {over} over the budget + 10 ms, {} ended early (proved, forced or one move)",
        if time.is_some() { "wall" } else { "cpu" },
        allowed,
        100.0 * mean / allowed,
        full.len(),
        spent.len() - full.len()
    );
    println!("load {}", load.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    Ok(())
}
