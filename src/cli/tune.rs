//! `mnklab tune`: SPSA tuning of an agent's heuristic weights by games, into a folder it
//! can be resumed from.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use mnklab::arena::tune::Tune;
use mnklab::arena::tune_run::{TuneOptions, run_tune};
use mnklab::search::SearchControl;

use super::parse_threads;

#[derive(Args)]
pub struct TuneArgs {
    /// The tuning file (RON): agent, game, limits, openings, pairs, seed, weights.
    file: PathBuf,
    /// Output folder (default: out/<name>): tune.ron, spsa.csv (a row a pair), agent.ron.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run already in the output folder.
    #[arg(long)]
    resume: bool,
    /// Games at once within a batch (default: all cores).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
}

pub fn run(args: TuneArgs) -> Result<(), String> {
    let tune = Tune::load(&args.file).map_err(|e| e.to_string())?;
    let base = args.file.parent().map(PathBuf::from).unwrap_or_default();
    let out = args.out.unwrap_or_else(|| PathBuf::from("out").join(&tune.name));
    let opts = TuneOptions { out: out.clone(), resume: args.resume, threads: args.threads.unwrap_or(0) };
    let names: Vec<&str> = tune.parameters.iter().map(|p| p.name.as_str()).collect();
    let mut shown = Instant::now();
    let summary = run_tune(&tune, &base, &opts, &SearchControl::new(), |p| {
        // A line every ten seconds or so, and the last: a long run's log, not a flood.
        if shown.elapsed() >= Duration::from_secs(10) || p.done == p.total {
            shown = Instant::now();
            let weights: Vec<String> = names.iter().zip(p.weights).map(|(n, w)| format!("{n} {w:.4}")).collect();
            println!("pair {}/{}: {}", p.done, p.total, weights.join(", "));
        }
    })
    .map_err(|e| e.to_string())?;
    println!("{} pairs in {}: tuned agent in agent.ron, a row a pair in spsa.csv", summary.pairs, out.display());
    Ok(())
}
