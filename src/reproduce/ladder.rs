//! A ladder as a reproduction step: `mnklab ladder EXPERIMENT` into `results/NAME/`: its
//! ratings (`elo.csv`), figures, `ladder.ron`, the games as any run's (`games.csv.gz`,
//! `moves.csv.gz`, `matchup.ron`, `entrants.ron`) and `results.ronl.gz`, from which the full
//! mode resumes.
//!
//! A ladder at CPU budgets takes hours, so the full mode keeps the games already under
//! `results/NAME/` for the same experiment (from `mnklab ladder ... --out results/NAME
//! --resume` over several sittings) and plays only the rest. The quick mode plays its twin
//! afresh: at work budgets on one worker its games are the same on every machine.

use std::path::Path;

use super::accuracy::Made;
use super::compare::read_maybe_gz;
use super::manifest::StudyJob;
use super::outputs::{Machine, gzip, results_dir};
use super::{Options, ReproduceError};
use crate::arena::RunOptions;
use crate::arena::conditions::CONDITIONS_FILE;
use crate::arena::ladder::{LadderError, LadderExperiment, run_ladder};
use crate::arena::results::{MATCHUP_FILE, RESULTS_FILE};
use crate::search::SearchControl;

/// Runs `job` into the scratch folder's `results/NAME/`; says its progress about once a minute.
pub(super) fn run(
    job: &StudyJob,
    base: &Path,
    opts: &Options,
    say: &mut dyn FnMut(&str),
) -> Result<Made, ReproduceError> {
    let fail = |e: LadderError| ReproduceError::Ladder { name: job.name.clone(), source: Box::new(e) };
    let path = base.join(&job.experiment);
    let exp = LadderExperiment::load(&path).map_err(fail)?;
    let exp_dir = path.parent().unwrap_or(base);
    // Nothing here runs a program named in a file: that takes `mnklab ladder --allow-external`.
    let entrants = exp.matchup(exp_dir).and_then(|m| Ok(m.resolve(exp_dir)?)).map_err(fail)?;
    if let Some((who, command)) = crate::arena::Matchup::external_commands(&entrants).into_iter().next() {
        return Err(ReproduceError::External { name: job.name.clone(), who, command });
    }
    let rel = results_dir(&job.name);
    let dest = opts.out.join(&rel);
    std::fs::create_dir_all(&dest).map_err(|source| ReproduceError::Write { path: dest.clone(), source })?;
    let resume = job.keep_committed && keep_committed(&exp, &opts.root.join(&rel), &dest, say)?;
    let before = Machine::now();
    let start = std::time::Instant::now();
    let mut last = std::time::Instant::now();
    let run_opts =
        RunOptions { threads: opts.threads, out: dest.clone(), resume, scale: 1.0, games: None, shard: None };
    let outcome = run_ladder(&exp, exp_dir, &run_opts, &SearchControl::new(), |p| {
        if last.elapsed().as_secs() >= 60 {
            say(&format!("  {} of at most {} games", p.done, p.total));
            last = std::time::Instant::now();
        }
    })
    .map_err(fail)?;
    say(&format!("  {} games", outcome.games));
    let machine = before.text(&Machine::now(), start.elapsed().as_secs_f64());
    crate::io::write_atomic(&dest.join("machine.txt"), machine.as_bytes())?;
    // The summary every committed run has (wins, draws and losses by first mover).
    let records = crate::arena::read_results(&dest.join(RESULTS_FILE)).map_err(|e| fail(e.into()))?;
    let summary = super::outputs::summary_csv(&crate::arena::summarize_by_first_mover(&records));
    crate::io::write_atomic(&dest.join("summary.csv"), summary.as_bytes())?;
    for name in ["games.csv", "moves.csv", RESULTS_FILE] {
        gzip(&dest.join(name))?;
    }
    let files = super::outputs::folder_files(&dest, &rel)?;
    // The games' times, the build that played them and the machine are records, not results.
    let volatile = ["moves.csv.gz", "games.csv.gz", "results.ronl.gz", "machine.txt", CONDITIONS_FILE]
        .iter()
        .map(|n| format!("{rel}/{n}"))
        .collect();
    Ok(Made { files, volatile })
}

/// Copies the games committed in `committed` into `dest` when they are of this experiment
/// (its `ladder.ron` the same), with the matchup and conditions a resumed run checks. True
/// when games were kept.
fn keep_committed(
    exp: &LadderExperiment,
    committed: &Path,
    dest: &Path,
    say: &mut dyn FnMut(&str),
) -> Result<bool, ReproduceError> {
    let Ok(text) = std::fs::read_to_string(committed.join("ladder.ron")) else { return Ok(false) };
    if text != exp.to_ron() {
        say("  the committed games are another experiment's: every game is played afresh");
        return Ok(false);
    }
    let games = [committed.join(RESULTS_FILE), committed.join(format!("{RESULTS_FILE}.gz"))];
    let Some(games) = games.into_iter().find(|p| p.is_file()) else { return Ok(false) };
    let bytes = read_maybe_gz(&games)?;
    crate::io::write_atomic(&dest.join(RESULTS_FILE), &bytes)?;
    for name in [MATCHUP_FILE, CONDITIONS_FILE] {
        if let Ok(b) = std::fs::read(committed.join(name)) {
            crate::io::write_atomic(&dest.join(name), &b)?;
        }
    }
    let count = bytes.iter().filter(|&&b| b == b'\n').count();
    say(&format!("  keeps the {count} games in {}", games.display()));
    Ok(true)
}

/// The `elo NAME` block of RESULTS.md: a row an agent, a column a budget, each cell its Elo
/// against the first rung with the 95% interval and the games it rests on; then the rungs.
pub(super) fn elo_markdown(csv_text: &str) -> Result<String, super::TableError> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = r.headers()?.iter().map(str::to_string).collect();
    if header != crate::arena::ladder::ELO_COLUMNS {
        return Err(super::TableError::Columns {
            file: "elo.csv",
            wanted: "board,agent,budget_kind,budget,games,points,elo,lo,hi",
        });
    }
    let rows: Vec<csv::StringRecord> = r.records().collect::<Result<_, _>>()?;
    let f = |c: &csv::StringRecord, i: usize| c.get(i).unwrap_or("").to_string();
    let cell = |c: &csv::StringRecord| format!("{} [{}, {}] ({} games)", f(c, 6), f(c, 7), f(c, 8), f(c, 4));
    let mut out = String::new();
    for kind in ["nodes|iterations", "cpu_seconds"] {
        let on = |c: &csv::StringRecord| kind.split('|').any(|k| k == f(c, 2));
        let mut budgets: Vec<(f64, String)> =
            rows.iter().filter(|c| on(c)).map(|c| (f(c, 3).parse().unwrap_or(0.0), f(c, 3))).collect();
        budgets.sort_by(|a, b| a.0.total_cmp(&b.0));
        budgets.dedup_by(|a, b| a.1 == b.1);
        if budgets.is_empty() {
            continue;
        }
        let said =
            |b: &(f64, String)| if kind == "cpu_seconds" { crate::plot::accuracy::cpu_label(b.0) } else { b.1.clone() };
        out.push_str(&format!(
            "| agent | {} |\n|---|{}\n",
            budgets.iter().map(said).collect::<Vec<_>>().join(" | "),
            "---|".repeat(budgets.len())
        ));
        let mut agents: Vec<String> = Vec::new();
        for c in rows.iter().filter(|c| on(c)) {
            if !agents.contains(&f(c, 1)) {
                agents.push(f(c, 1));
            }
        }
        for a in &agents {
            let cells: Vec<String> = budgets
                .iter()
                .map(|b| rows.iter().find(|c| on(c) && f(c, 1) == *a && f(c, 3) == b.1).map_or_else(String::new, cell))
                .collect();
            out.push_str(&format!("| {a} | {} |\n", cells.join(" | ")));
        }
        out.push('\n');
    }
    out.push_str("| rung | Elo [95%] |\n|---|---|\n");
    for c in rows.iter().filter(|c| f(c, 2) == "ladder") {
        out.push_str(&format!("| {} | {} |\n", f(c, 1), cell(c)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// A row an agent, a column a budget in its unit, the rungs below; a file with other
    /// columns is refused.
    #[test]
    fn the_elo_block_has_a_row_an_agent_and_a_column_a_budget() {
        let csv = "board,agent,budget_kind,budget,games,points,elo,lo,hi
b,ab,nodes,64,10,4,-20.0,-90.0,50.0
b,ab,nodes,128,12,7,30.0,-40.0,100.0
b,uct,iterations,64,8,2,-80.0,-160.0,0.0
b,ab,cpu_seconds,0.004,20,11,10.0,-30.0,50.0
b,r1,ladder,0,30,15,0.0,0.0,0.0
";
        let md = super::elo_markdown(csv).unwrap();
        assert!(md.contains("| agent | 64 | 128 |"), "{md}");
        assert!(md.contains("| ab | -20.0 [-90.0, 50.0] (10 games) | 30.0 [-40.0, 100.0] (12 games) |"), "{md}");
        assert!(md.contains("| uct | -80.0 [-160.0, 0.0] (8 games) |  |"), "{md}");
        assert!(md.contains("| agent | 4 ms |\n|---|---|\n| ab | 10.0 [-30.0, 50.0] (20 games) |"), "{md}");
        assert!(md.contains("| r1 | 0.0 [0.0, 0.0] (30 games) |"), "{md}");
        assert!(super::elo_markdown("board,agent\nb,a\n").is_err());
    }
}
