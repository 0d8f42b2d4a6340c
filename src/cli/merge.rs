//! `mnklab merge`: join the output folders of shards into one, refusing missing or empty
//! folders and saying which games of the matchup are still missing.

use std::path::PathBuf;

use clap::Args;
use mnklab::arena::conditions::{CONDITIONS_FILE, RunConditions};
use mnklab::arena::results::{MATCHUP_FILE, RESULTS_FILE};
use mnklab::arena::{Matchup, merge, read_results, summarize, table, write_csv};

#[derive(Args)]
pub struct MergeArgs {
    /// Output folders of the shards.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    #[arg(long)]
    out: PathBuf,
    /// Merge even when games of the matchup's schedule are missing (a sweep still running).
    #[arg(long)]
    partial: bool,
}

pub fn run(args: MergeArgs) -> Result<(), String> {
    // The merged run goes to a folder of its own: never over a run's results (an existing
    // run, or one of the folders being merged, whose results would be replaced).
    let same = |a: &std::path::Path, b: &std::path::Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if let Some(d) = args.dirs.iter().find(|d| same(d, &args.out)) {
        return Err(format!(
            "--out {}: is one of the folders being merged ({}); merge into a new folder",
            args.out.display(),
            d.display()
        ));
    }
    for name in mnklab::io::RUN_FILES {
        if args.out.join(name).exists() {
            return Err(format!(
                "--out {}: already holds results ({name}): merge into a new folder",
                args.out.display()
            ));
        }
    }
    let mut runs = Vec::new();
    let mut matchup_text: Option<String> = None;
    for d in &args.dirs {
        let results = d.join(RESULTS_FILE);
        if !results.is_file() {
            return Err(format!("{}: no {RESULTS_FILE} there (is it a run's output folder?)", d.display()));
        }
        let games = read_results(&results).map_err(|e| e.to_string())?;
        if games.is_empty() {
            return Err(format!("{}: holds no finished game", results.display()));
        }
        runs.push(games);
        if let Ok(t) = mnklab::io::read_text(&d.join(MATCHUP_FILE)) {
            if matchup_text.as_ref().is_some_and(|m| m != &t) {
                return Err(format!("{} ran a different matchup from the other folders", d.display()));
            }
            matchup_text = Some(t);
        }
    }
    let conditions = same_conditions(&args.dirs)?;
    let all = merge(runs).map_err(|e| e.to_string())?;
    match &matchup_text {
        Some(text) => {
            let m = Matchup::parse(text, &args.dirs[0].join(MATCHUP_FILE)).map_err(|e| e.to_string())?;
            let names: Option<Vec<String>> =
                m.resolve(&args.dirs[0]).ok().map(|e| e.into_iter().map(|e| e.name).collect());
            for r in &all {
                m.check_record(r, names.as_deref()).map_err(|e| e.to_string())?;
            }
            let expected = m.schedule_len();
            let have: std::collections::HashSet<u64> = all.iter().map(|r| r.index).collect();
            let missing: Vec<u64> = (0..expected).filter(|i| !have.contains(i)).take(11).collect();
            let count = expected.saturating_sub(have.iter().filter(|&&i| i < expected).count() as u64);
            if count > 0 {
                let shown: Vec<String> = missing.iter().take(10).map(u64::to_string).collect();
                let more = if count > 10 { ", ..." } else { "" };
                let message = format!(
                    "{count} of the matchup's {expected} games are missing (game {}{more}): a shard not run or not finished?",
                    shown.join(", ")
                );
                if !args.partial {
                    return Err(format!("{message}\nmerge them anyway with --partial"));
                }
                eprintln!("warning: {message}");
            }
        }
        None => eprintln!("warning: no {MATCHUP_FILE} in the folders: cannot check that every game is there"),
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut text = String::new();
    for r in &all {
        text.push_str(&ron::to_string(r).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    mnklab::io::write_atomic(&args.out.join(RESULTS_FILE), text.as_bytes()).map_err(|e| e.to_string())?;
    if let Some(t) = matchup_text {
        mnklab::io::write_atomic(&args.out.join(MATCHUP_FILE), t.as_bytes()).map_err(|e| e.to_string())?;
    }
    if let Some(c) = &conditions {
        c.save(&args.out.join(CONDITIONS_FILE)).map_err(|e| e.to_string())?;
    }
    write_csv(&args.out, &all, conditions.as_ref()).map_err(|e| e.to_string())?;
    print!("{}", table(&summarize(&all)));
    println!("{} games merged into {}", all.len(), args.out.display());
    Ok(())
}

/// The conditions every folder's games were played with (`entrants.ron`): all the same, or the
/// merge is refused naming the difference (shards played at another `--scale`, or with an
/// edited agent file, would be mixed in one summary). None when no folder records them (runs
/// of an older mnklab); a folder without them beside folders with them is refused.
fn same_conditions(dirs: &[PathBuf]) -> Result<Option<RunConditions>, String> {
    let mut first: Option<(&PathBuf, RunConditions)> = None;
    let mut unrecorded = None;
    for d in dirs {
        let path = d.join(CONDITIONS_FILE);
        if !path.is_file() {
            unrecorded = Some(d);
            continue;
        }
        let c = RunConditions::load(&path).map_err(|e| e.to_string())?;
        match &first {
            Some((f, c0)) => {
                let differences = c0.differences(&c);
                if !differences.is_empty() {
                    return Err(format!(
                        "{} was played under other conditions than {} (then: {}; now: {}):\n  {}",
                        d.display(),
                        f.display(),
                        f.display(),
                        d.display(),
                        differences.join("\n  ")
                    ));
                }
            }
            None => first = Some((d, c.clone())),
        }
        // The merged folder keeps every build that played into any shard (the conditions
        // are otherwise the same).
        if let Some((f, c0)) = first.take() {
            first = Some((f, c.with_commits_of(&c0)));
        }
    }
    if let (Some(_), Some(d)) = (&first, unrecorded) {
        return Err(format!(
            "{}: no {CONDITIONS_FILE}, unlike the other folders: what its games were played with cannot be checked",
            d.display()
        ));
    }
    Ok(first.map(|(_, c)| c))
}
