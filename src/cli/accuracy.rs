//! `mnklab accuracy`: an accuracy experiment (agents x budgets x suites) run on all cores
//! into a folder: `moves.csv` a row a search as it finishes (a killed run resumes with
//! --resume), then `accuracy.csv`, each mistake rate with its interval.

use std::path::PathBuf;

use clap::Args;
use mnklab::arena::accuracy::{
    AccuracyExperiment, AccuracyOptions, accuracy_table, crossovers, run_accuracy, table_csv,
};
use mnklab::search::SearchControl;

#[derive(Args)]
pub struct AccuracyArgs {
    /// The experiment file (RON): suites, agents, budgets (saves/experiments/accuracy-quick.ron).
    experiment: PathBuf,
    /// The folder of the run's files.
    #[arg(long)]
    out: PathBuf,
    /// Continue the run the folder holds (the same experiment).
    #[arg(long)]
    resume: bool,
    /// Worker threads (default: the file's, else all cores).
    #[arg(long, default_value = "0")]
    threads: u32,
}

pub fn run(args: AccuracyArgs) -> Result<(), String> {
    let experiment = AccuracyExperiment::load(&args.experiment).map_err(|e| e.to_string())?;
    let control = SearchControl::new();
    let opts = AccuracyOptions { resume: args.resume, threads: args.threads };
    let started = std::time::Instant::now();
    let mut last = -1.0;
    let rows = run_accuracy(&experiment, &args.experiment, &args.out, &opts, &control, |rows, total| {
        let done = rows.len();
        let now = started.elapsed().as_secs_f64();
        if now - last >= 2.0 || done == total {
            last = now;
            eprintln!("{done} of {total} searches ({now:.0} s)");
        }
    })
    .map_err(|e| e.to_string())?;
    let table = accuracy_table(&rows, experiment.seed);
    print!("{}", table_csv(&table.into_iter().filter(|r| r.group == "all").collect::<Vec<_>>()));
    // Where curves cross: CPU time for alpha-beta against MCTS; each one's own work beside.
    for kind in ["cpu_seconds", "nodes", "iterations"] {
        for c in crossovers(&rows, kind, experiment.seed) {
            println!("crossing on {} ({kind}): {} / {}: {}", c.board, c.a, c.b, c.said());
        }
    }
    println!(
        "wrote {}: moves.csv, accuracy.csv, crossovers.csv and the figures (accuracy-work.svg, accuracy-cpu.svg: \
         a panel a board; accuracy-work-BOARD.svg ...: one a board), each with its CSV",
        args.out.display()
    );
    Ok(())
}
