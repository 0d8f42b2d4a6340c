//! An accuracy experiment as a reproduction step: `mnklab accuracy EXPERIMENT` into
//! `results/NAME/` (its `accuracy.csv`, `crossovers.csv`, figures, `experiment.ron` and
//! `moves.csv.gz`), and its blocks of RESULTS.md.
//!
//! The full study takes hours, so the full mode keeps the rows already under
//! `results/NAME/` for the same experiment (from `mnklab accuracy ... --out results/NAME
//! --resume`, run over several sittings, or an earlier reproduction) and searches only the
//! rest. The quick mode searches its twin afresh: work budgets give the same rows on every
//! machine, so its table is compared with the committed one.

use std::path::Path;

use super::compare::read_maybe_gz;
use super::manifest::StudyJob;
use super::outputs::{Machine, gzip, results_dir};
use super::{Options, ReproduceError, TableError};
use crate::arena::accuracy::{AccuracyError, AccuracyExperiment, AccuracyOptions, run_accuracy};
use crate::search::SearchControl;

/// The files a step wrote (repository-relative), and those never compared: the rows'
/// measured CPU seconds and finishing order, the machine.
pub(super) struct Made {
    pub files: Vec<String>,
    pub volatile: Vec<String>,
}

/// Runs `job` into the scratch folder's `results/NAME/`; says its progress about once a minute.
pub(super) fn run(
    job: &StudyJob,
    base: &Path,
    opts: &Options,
    say: &mut dyn FnMut(&str),
) -> Result<Made, ReproduceError> {
    let fail = |e: AccuracyError| ReproduceError::Accuracy { name: job.name.clone(), source: Box::new(e) };
    let path = base.join(&job.experiment);
    let experiment = AccuracyExperiment::load(&path).map_err(fail)?;
    let rel = results_dir(&job.name);
    let dest = opts.out.join(&rel);
    let write = |p: &Path| {
        let p = p.to_path_buf();
        move |source| ReproduceError::Write { path: p, source }
    };
    std::fs::create_dir_all(&dest).map_err(write(&dest))?;
    let resume = job.keep_committed && keep_committed(&experiment, &opts.root.join(&rel), &dest, say)?;
    let before = Machine::now();
    let start = std::time::Instant::now();
    let mut last = std::time::Instant::now();
    let told = |rows: &[crate::arena::accuracy::MoveRow], total: usize| {
        let done = rows.len();
        if last.elapsed().as_secs() >= 60 || done == total {
            say(&format!("  {done} of {total} searches"));
            last = std::time::Instant::now();
        }
    };
    let run_opts = AccuracyOptions { resume, threads: opts.threads as u32 };
    run_accuracy(&experiment, &path, &dest, &run_opts, &SearchControl::new(), told).map_err(fail)?;
    let machine = before.text(&Machine::now(), start.elapsed().as_secs_f64());
    crate::io::write_atomic(&dest.join("machine.txt"), machine.as_bytes())?;
    gzip(&dest.join("moves.csv"))?;
    let files = super::outputs::folder_files(&dest, &rel)?;
    let volatile = vec![format!("{rel}/moves.csv.gz"), format!("{rel}/machine.txt")];
    Ok(Made { files, volatile })
}

/// Copies the rows committed in `committed` into `dest` when they are of this experiment
/// (its `experiment.ron` the same): the in-progress `moves.csv` of a resumed study, else the
/// committed `moves.csv.gz`. True when rows were kept.
fn keep_committed(
    experiment: &AccuracyExperiment,
    committed: &Path,
    dest: &Path,
    say: &mut dyn FnMut(&str),
) -> Result<bool, ReproduceError> {
    let recorded = committed.join("experiment.ron");
    let Ok(text) = std::fs::read_to_string(&recorded) else { return Ok(false) };
    if text != crate::io::to_ron(experiment) {
        say("  the committed rows are another experiment's: every search runs afresh");
        return Ok(false);
    }
    let rows = [committed.join("moves.csv"), committed.join("moves.csv.gz")].into_iter().find(|p| p.is_file());
    let Some(rows) = rows else { return Ok(false) };
    let bytes = read_maybe_gz(&rows)?;
    crate::io::write_atomic(&dest.join("experiment.ron"), text.as_bytes())?;
    crate::io::write_atomic(&dest.join("moves.csv"), &bytes)?;
    let count = bytes.iter().filter(|&&b| b == b'\n').count().saturating_sub(1);
    say(&format!("  keeps the {count} rows in {}", rows.display()));
    Ok(true)
}

/// The `accuracy NAME` block of RESULTS.md: each board and agent's mistake rate (all
/// positions) with its 95% interval, in percent, a column a budget: one table for CPU time a
/// move, one for work a move (every other doubling; every budget is in `accuracy.csv`).
pub(super) fn accuracy_markdown(csv_text: &str) -> Result<String, TableError> {
    let cells = AccuracyCells::read(csv_text)?;
    let axes = [
        ("cpu_seconds", "CPU time a move", "Mistakes in percent (95% interval) at each CPU time a move:"),
        (
            "work",
            "nodes or iterations a move",
            "Mistakes in percent (95% interval) at each work budget a move, alpha-beta's in nodes and MCTS's in iterations:",
        ),
    ];
    let out: String = axes.iter().map(|&(axis, what, caption)| cells.table(axis, what, caption)).collect();
    Ok(out.trim_end().to_string() + "\n")
}

/// The mistake rates of `accuracy.csv` over all positions, as its tables read them.
struct AccuracyCells {
    /// (board, agent) in the file's order.
    rows: Vec<(String, String)>,
    /// Each row's cell, "rate (lo-hi)" in percent, by (board, agent, budget kind, budget).
    cells: std::collections::HashMap<(String, String, String, String), String>,
    /// The budgets by kind and size (CPU time in microseconds), with their text in the file.
    budgets: std::collections::BTreeMap<(String, u64), String>,
}

impl AccuracyCells {
    fn read(csv_text: &str) -> Result<AccuracyCells, TableError> {
        let mut r = csv::Reader::from_reader(csv_text.as_bytes());
        let header: Vec<String> = r.headers()?.iter().map(str::to_string).collect();
        let col = |name: &str| header.iter().position(|h| h == name);
        let (Some(board), Some(agent), Some(kind), Some(budget), Some(group), Some(rate), Some(lo), Some(hi)) = (
            col("board"),
            col("agent"),
            col("budget_kind"),
            col("budget"),
            col("group"),
            col("rate"),
            col("lo"),
            col("hi"),
        ) else {
            return Err(TableError::Columns {
                file: "accuracy.csv",
                wanted: "board,agent,budget_kind,budget,group,rate,lo,hi",
            });
        };
        let mut out = AccuracyCells { rows: Vec::new(), cells: Default::default(), budgets: Default::default() };
        for rec in r.records() {
            let c = rec?;
            let f = |i: usize| c.get(i).unwrap_or("").to_string();
            if f(group) != "all" {
                continue;
            }
            let num =
                |i: usize| f(i).parse::<f64>().map_err(|_| TableError::NotACount { file: "accuracy.csv", cell: f(i) });
            let key = (f(board), f(agent));
            if !out.rows.contains(&key) {
                out.rows.push(key.clone());
            }
            let cell = format!("{:.0} ({:.0}-{:.0})", 100.0 * num(rate)?, 100.0 * num(lo)?, 100.0 * num(hi)?);
            let size = num(budget)?;
            let size = if f(kind) == "cpu_seconds" { (size * 1e6).round() as u64 } else { size as u64 };
            if f(kind) != "none" {
                out.budgets.insert((f(kind), size), f(budget));
            }
            out.cells.insert((key.0, key.1, f(kind), f(budget)), cell);
        }
        Ok(out)
    }

    /// The table of one budget axis (`cpu_seconds`, or `work`: nodes and iterations) under
    /// its caption, a column a budget; empty when no budget is on the axis. `what` names
    /// the axis's budget in the footnote of cells not searched.
    fn table(&self, axis: &str, what: &str, caption: &str) -> String {
        let on_axis = |k: &str| if axis == "work" { k == "nodes" || k == "iterations" } else { k == axis };
        let mut columns: Vec<(u64, String)> = Vec::new();
        for ((k, size), text) in &self.budgets {
            if on_axis(k) && !columns.iter().any(|(s, _)| s == size) {
                columns.push((*size, text.clone()));
            }
        }
        columns.sort();
        if axis == "work" {
            // Every other doubling keeps the table readable.
            let first = columns.first().map_or(0, |c| c.0.trailing_zeros());
            columns.retain(|c| (c.0.trailing_zeros() - first).is_multiple_of(2));
        }
        if columns.is_empty() {
            return String::new();
        }
        let heading = |c: &(u64, String)| {
            if axis == "cpu_seconds" {
                format!("{} ms", c.0 as f64 / 1000.0)
            } else {
                format!("2^{}", c.0.trailing_zeros())
            }
        };
        let mut out = format!(
            "{caption}\n\n| board | agent | {} |\n",
            columns.iter().map(heading).collect::<Vec<_>>().join(" | ")
        );
        out.push_str(&format!("|---|---|{}\n", "---:|".repeat(columns.len())));
        for (b, a) in &self.rows {
            let budgetless = self.cells.get(&(b.clone(), a.clone(), "none".into(), "0".into()));
            let line: Vec<String> = columns
                .iter()
                .map(|(_, text)| {
                    let found = ["cpu_seconds", "nodes", "iterations"]
                        .iter()
                        .filter(|k| on_axis(k))
                        .find_map(|k| self.cells.get(&(b.clone(), a.clone(), k.to_string(), text.clone())));
                    found.or(budgetless).cloned().unwrap_or_else(|| "·".into())
                })
                .collect();
            if line.iter().all(|c| c == "·") {
                continue;
            }
            let name = if budgetless.is_some() { format!("{a} (reads no budget)") } else { a.clone() };
            out.push_str(&format!("| {b} | {name} | {} |\n", line.join(" | ")));
        }
        if out.contains(" · |") {
            out.push_str(&format!("\n(·: not searched at this {what}.)\n"));
        }
        out.push('\n');
        out
    }
}

/// The `crossovers NAME` block: where two agents' curves cross on the CPU-time axis, the
/// one unit alpha-beta and MCTS share, with its 95% interval.
pub(super) fn crossovers_markdown(csv_text: &str) -> Result<String, TableError> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let mut out = String::from(
        "| board | agents | fewer mistakes at the least time | at the most time | curves cross at (95% interval) |\n|---|---|---|---|---|\n",
    );
    let ms = |s: &str| s.parse::<f64>().map(|v| format!("{:.1} ms", v * 1000.0)).unwrap_or_default();
    for rec in r.records() {
        let c = rec?;
        let f = |i: usize| c.get(i).unwrap_or("");
        if f(1) != "cpu_seconds" {
            continue;
        }
        let mut at = match (f(4), f(5), f(6)) {
            ("", _, _) => "no crossing in the range".to_string(),
            (at, "", _) | (at, _, "") => format!("{} (most resamples do not cross)", ms(at)),
            (at, lo, hi) => format!("{} ({} to {})", ms(at), ms(lo), ms(hi)),
        };
        // Curves that swap back: the first crossing is not where one agent takes over.
        if let Ok(n @ 2..) = f(9).parse::<usize>() {
            at = format!("first of {n} crossings: {at}");
        }
        out.push_str(&format!("| {} | {} / {} | {} | {} | {at} |\n", f(0), f(2), f(3), f(7), f(8)));
    }
    if out.lines().count() == 2 {
        return Ok("(No CPU-time budgets in this experiment: nodes and iterations are no common unit.)\n".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "board,agent,budget_kind,budget,group,positions,mistakes,rate,lo,hi,wins_thrown,draws_thrown
b,random,none,0,all,100,50,0.5,0.4,0.6,10,40
b,ab,nodes,64,all,100,20,0.2,0.12,0.28,5,15
b,ab,nodes,64,quiet,80,20,0.25,0.15,0.35,5,15
b,ab,nodes,128,all,100,15,0.15,0.1,0.2,5,10
b,ab,nodes,256,all,100,10,0.1,0.05,0.15,5,5
b,ab,cpu_seconds,0.001,all,100,12,0.12,0.06,0.18,2,10
b,uct,iterations,64,all,100,30,0.3,0.2,0.4,10,20
b,uct,cpu_seconds,0.001,all,100,9,0.09,0.04,0.14,2,7
";

    /// Each axis a table, a row a board and agent, rates in percent with their interval;
    /// the work table keeps every other doubling; random, which reads no budget, has its one
    /// rate in every column; a budget not searched is a dot.
    #[test]
    fn the_accuracy_block_is_a_table_an_axis() {
        let md = accuracy_markdown(TABLE).unwrap();
        let cpu = md.split("each work budget").next().unwrap();
        assert!(cpu.contains("| board | agent | 1 ms |"), "{md}");
        assert!(cpu.contains("| b | random (reads no budget) | 50 (40-60) |"), "{md}");
        assert!(cpu.contains("| b | ab | 12 (6-18) |"), "{md}");
        assert!(cpu.contains("| b | uct | 9 (4-14) |"), "{md}");
        let work = md.split("each work budget").nth(1).unwrap();
        assert!(work.contains("| board | agent | 2^6 | 2^8 |"), "{md}");
        assert!(work.contains("| b | ab | 20 (12-28) | 10 (5-15) |"), "the quiet group left out, 2^7 skipped: {md}");
        assert!(work.contains("| b | uct | 30 (20-40) | · |"), "{md}");
        assert!(accuracy_markdown("board,agent\nb,ab\n").is_err());
        // The footnote of a dot goes under the table with the dot alone.
        assert!(!cpu.contains("(·: not searched"), "{md}");
        assert!(work.contains("(·: not searched at this nodes or iterations a move.)"), "{md}");
        let dot_in_cpu_alone = "board,agent,budget_kind,budget,group,rate,lo,hi
b,ab,cpu_seconds,0.001,all,0.2,0.1,0.3
b,ab,nodes,64,all,0.2,0.1,0.3
b,uct,cpu_seconds,0.002,all,0.3,0.2,0.4
b,uct,nodes,64,all,0.3,0.2,0.4
";
        let md = accuracy_markdown(dot_in_cpu_alone).unwrap();
        let (cpu, work) = md.split_once("each work budget").unwrap();
        assert!(
            cpu.contains("| b | ab | 20 (10-30) | · |") && cpu.contains("(·: not searched at this CPU time"),
            "{md}"
        );
        assert!(!work.contains("(·: not searched"), "{md}");
    }

    /// Crossovers on CPU time only, in milliseconds, with "no crossing" said in words.
    #[test]
    fn the_crossover_block_lists_the_cpu_axis() {
        let csv = "board,budget_kind,a,b,crossing,lo,hi,better_at_smallest,better_at_largest,crossings,said
b,cpu_seconds,ab,uct,0.0031,0.0012,0.0094,uct,ab,1,
b,cpu_seconds,ab,mcts,,,,ab,ab,0,
b,cpu_seconds,ab,plain,0.002,0.001,0.003,plain,plain,2,
b,nodes,ab,strong,70,60,80,ab,strong,1,
";
        let md = crossovers_markdown(csv).unwrap();
        assert!(md.contains("| b | ab / uct | uct | ab | 3.1 ms (1.2 ms to 9.4 ms) |"), "{md}");
        assert!(md.contains("| b | ab / mcts | ab | ab | no crossing in the range |"), "{md}");
        assert!(
            md.contains("| b | ab / plain | plain | plain | first of 2 crossings: 2.0 ms (1.0 ms to 3.0 ms) |"),
            "{md}"
        );
        assert!(!md.contains("strong"), "nodes are no common unit: {md}");
    }
}
