//! `mnklab ladder`: strength against budget by games. Each agent at each CPU budget plays a
//! fixed ladder of references from solver-drawn openings (both colours), each pairing stopped
//! by an SPRT; then every entrant is rated in Elo against the first rung.

use std::path::PathBuf;

use clap::Args;
use mnklab::arena::ladder::{LadderExperiment, run_ladder};
use mnklab::arena::{Matchup, RunOptions};
use mnklab::search::SearchControl;

use super::{consent_to_external, parse_threads};

#[derive(Args)]
pub struct LadderArgs {
    /// The ladder experiment (RON): openings, agents, budgets, rungs, SPRT
    /// (saves/experiments/ladder.ron; a quick one: saves/experiments/quick/ladder-work.ron).
    experiment: PathBuf,
    /// The folder of the run's files.
    #[arg(long)]
    out: PathBuf,
    /// Continue the games the folder holds (the same experiment).
    #[arg(long)]
    resume: bool,
    /// Worker threads (default: the file's, else all cores).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Let agents and rungs start the external programs their files name (the commands are
    /// shown otherwise).
    #[arg(long)]
    allow_external: bool,
}

pub fn run(args: LadderArgs) -> Result<(), String> {
    let exp = LadderExperiment::load(&args.experiment).map_err(|e| e.to_string())?;
    let base = args.experiment.parent().map(PathBuf::from).unwrap_or_default();
    let matchup = exp.matchup(&base).map_err(|e| e.to_string())?;
    let external = Matchup::external_commands(&matchup.resolve(&base).map_err(|e| e.to_string())?);
    consent_to_external(&external, args.allow_external)?;
    let opts = RunOptions {
        threads: args.threads.unwrap_or(0),
        out: args.out.clone(),
        resume: args.resume,
        scale: 1.0,
        games: None,
        shard: None,
    };
    let control = SearchControl::new();
    let started = std::time::Instant::now();
    let mut last = -1.0;
    let outcome = run_ladder(&exp, &base, &opts, &control, |p| {
        let now = started.elapsed().as_secs_f64();
        if now - last >= 2.0 || p.done == p.total {
            last = now;
            eprintln!("{} of at most {} games ({now:.0} s)", p.done, p.total);
        }
    })
    .map_err(|e| e.to_string())?;
    print!("{}", mnklab::arena::ladder::elo_csv(&outcome.rows));
    let files: Vec<String> = outcome.files.iter().map(|f| f.display().to_string()).collect();
    println!("{} games in {}/results.ronl; wrote {}", outcome.games, args.out.display(), files.join(", "));
    Ok(())
}
