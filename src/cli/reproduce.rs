//! `mnklab reproduce`: re-runs the experiments behind RESULTS.md (the manifest
//! `saves/reproduce.ron`) and compares every file with the committed one.

use std::path::PathBuf;

use clap::Args;
use mnklab::reproduce::{Mode, Options, reproduce};

#[derive(Args)]
pub struct ReproduceArgs {
    /// Only the deterministic quick set; report what differs from the committed files and
    /// change nothing in the repository.
    #[arg(long)]
    quick: bool,
    /// The repository (default: the current folder).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// The scratch folder for the runs and new files (default: a new folder under the system's
    /// temporary folder). It must be empty or not exist.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Games at a time (default: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Only these runs (comma-separated names from saves/reproduce.ron) and what is drawn from
    /// them.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Draw every committed figure again from its recorded data (FILE.figure.ron), and
    /// RESULTS.md's generated tables from the committed results, after a change to how they
    /// are drawn; runs no game and writes only what changes.
    #[arg(long, conflicts_with_all = ["quick", "only", "out", "threads"])]
    redraw: bool,
}

pub fn run(args: ReproduceArgs) -> Result<(), String> {
    if args.redraw {
        let written =
            mnklab::reproduce::redraw(&args.root, &mut |line| println!("{line}")).map_err(|e| e.to_string())?;
        println!("{} file(s) written (see git diff)", written.len());
        return Ok(());
    }
    let mode = if args.quick { Mode::Quick } else { Mode::Full };
    let out = args.out.unwrap_or_else(|| {
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        std::env::temp_dir().join(format!("mnklab-reproduce-{stamp}-{}", std::process::id()))
    });
    if out.read_dir().is_ok_and(|mut d| d.next().is_some()) {
        return Err(format!("--out {}: not empty (give a new or empty folder)", out.display()));
    }
    if !args.root.join(mnklab::reproduce::MANIFEST).is_file() {
        return Err(format!(
            "{}: no {} here (run from the repository, or give --root)",
            args.root.display(),
            mnklab::reproduce::MANIFEST
        ));
    }
    println!("mnklab {}; new files in {}", mnklab::VERSION, out.display());
    let start = std::time::Instant::now();
    let opts = Options { root: args.root, out, mode, threads: args.threads, only: args.only };
    let report = reproduce(&opts, &mut |line| println!("{line}")).map_err(|e| e.to_string())?;
    print!("{}", report.text());
    println!("{:.0} s in all", start.elapsed().as_secs_f64());
    // Times, loads and the commit are recorded, never compared: said, so that a `git diff`
    // showing them after a full run is no surprise.
    println!("(not compared: measured times, machine loads, the commit that ran, and the images)");
    println!("the runs and new files are kept in {} (delete it when done)", opts.out.display());
    match mode {
        Mode::Quick if !report.is_same() => Err(format!(
            "the quick set differs from the committed results in {} file(s): a change that changes the \
             games regenerates them in the same commit (scripts/reproduce)",
            report.changed.len() + report.new.len()
        )),
        Mode::Quick => {
            println!("the quick set reproduces the committed results");
            Ok(())
        }
        Mode::Full => {
            println!("wrote the new files into the repository (see git diff)");
            Ok(())
        }
    }
}
