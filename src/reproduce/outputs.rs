//! What a reproduction writes: a run's committable results, node counts, figures and
//! RESULTS.md's generated tables, each under the scratch folder at its place in the
//! repository. Each function returns the repository-relative paths it wrote.

use std::io::Write;
use std::path::Path;

use super::manifest::{FigureStep, Job, NodeCountStep};
use super::{MarkerProblem, Mode, Options, RESULTS_MD, ReproduceError, TableError};
use crate::agents::{build_agent, load_agent};
use crate::arena::results::load_run;
use crate::arena::{Matchup, PairStats, RunOptions, run_matchup_summary, summarize_by_first_mover, write_csv};
use crate::game::{AnyPosition, Variant};
use crate::search::{NullSink, SearchControl, SearchLimits};

/// Where a run's committed results live.
pub fn results_dir(name: &str) -> String {
    format!("results/{name}")
}

fn write_error(path: &Path) -> impl FnOnce(std::io::Error) -> ReproduceError + '_ {
    move |source| ReproduceError::Write { path: path.into(), source }
}

/// Plays one run into `out/runs/NAME` and writes its committable form into
/// `out/results/NAME/`: `games.csv.gz` and `moves.csv.gz` (in game order), `entrants.ron`,
/// `matchup.ron` and `summary.csv` (a row per pairing and colour order).
pub fn run_job(job: &Job, base: &Path, opts: &Options) -> Result<Vec<String>, ReproduceError> {
    let fail =
        |source: Box<dyn std::error::Error + Send + Sync>| ReproduceError::Run { name: job.name.clone(), source };
    let matchup_path = base.join(&job.matchup);
    let m = Matchup::load(&matchup_path)?;
    let matchup_dir = matchup_path.parent().unwrap_or(base);
    // Nothing here runs a program named in a file: that takes `mnklab match --allow-external`.
    let entrants = m.resolve(matchup_dir).map_err(|e| fail(e.into()))?;
    if let Some((who, command)) = Matchup::external_commands(&entrants).into_iter().next() {
        return Err(ReproduceError::External { name: job.name.clone(), who, command });
    }
    let run_dir = opts.out.join("runs").join(&job.name);
    let run_opts = RunOptions {
        threads: opts.threads,
        out: run_dir.clone(),
        resume: false,
        scale: job.scale.unwrap_or(1.0),
        games: job.games,
        shard: None,
    };
    let before = Machine::now();
    let start = std::time::Instant::now();
    run_matchup_summary(&m, matchup_dir, &run_opts, &SearchControl::new(), |_| {}).map_err(|e| fail(e.into()))?;
    let machine = before.text(&Machine::now(), start.elapsed().as_secs_f64());
    let run = load_run(&run_dir).map_err(|e| fail(e.into()))?;
    let mut records = run.records;
    records.sort_by_key(|r| r.index);
    let rel = results_dir(&job.name);
    let dest = opts.out.join(&rel);
    std::fs::create_dir_all(&dest).map_err(write_error(&dest))?;
    write_csv(&dest, &records, run.conditions.as_ref()).map_err(|e| fail(e.into()))?;
    let mut written = Vec::new();
    for name in ["games.csv", "moves.csv"] {
        gzip(&dest.join(name))?;
        written.push(format!("{rel}/{name}.gz"));
    }
    for name in [crate::arena::conditions::CONDITIONS_FILE, crate::arena::results::MATCHUP_FILE] {
        let from = run_dir.join(name);
        std::fs::copy(&from, dest.join(name)).map_err(write_error(&dest.join(name)))?;
        written.push(format!("{rel}/{name}"));
    }
    // Where and under what load it ran: what a timed run's games depend on.
    crate::io::write_atomic(&dest.join("machine.txt"), machine.as_bytes())?;
    written.push(format!("{rel}/machine.txt"));
    let summary = dest.join("summary.csv");
    crate::io::write_atomic(&summary, summary_csv(&summarize_by_first_mover(&records)).as_bytes())?;
    written.push(format!("{rel}/summary.csv"));
    let pairs = crate::arena::pairs::pentanomials(&records, &m);
    if !pairs.is_empty() {
        let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
        crate::io::write_atomic(&dest.join(PAIRS_FILE), pairs_csv(&pairs, &names).as_bytes())?;
        written.push(format!("{rel}/{PAIRS_FILE}"));
    }
    Ok(written)
}

/// Every file in a step's folder `dest`, sorted, named repository-relative under `rel`.
pub(super) fn folder_files(dest: &Path, rel: &str) -> Result<Vec<String>, ReproduceError> {
    let mut names: Vec<String> = std::fs::read_dir(dest)
        .map_err(|source| ReproduceError::Read { path: dest.to_path_buf(), source })?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    Ok(names.iter().map(|n| format!("{rel}/{n}")).collect())
}

/// The colour-swapped pairs of a run whose colours alternate: a row per pairing and board.
pub const PAIRS_FILE: &str = "pairs.csv";

/// The pairs file's columns: pentanomial counts from `a`'s side (LL: both games lost, ...,
/// WW: both won; DD/WL: a point from the pair) and a's score with the pairs' interval.
pub const PAIRS_COLUMNS: [&str; 14] = [
    "variant",
    "a",
    "b",
    "pairs",
    "ll",
    "ld",
    "dd_wl",
    "wd",
    "ww",
    "unpaired",
    "a_score",
    "a_score_low",
    "a_score_high",
    "commit",
];

/// `pairs.csv`: the pentanomial of each pairing and board, `names` the entrants'.
pub fn pairs_csv(pairs: &[crate::arena::pairs::Pentanomial], names: &[String]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(PAIRS_COLUMNS);
    let name = |i: usize| names.get(i).cloned().unwrap_or_default();
    for p in pairs {
        let mut row = vec![p.variant.to_string(), name(p.a), name(p.b), p.pairs().to_string()];
        row.extend(p.counts.iter().map(u32::to_string));
        row.push(p.unpaired.to_string());
        row.extend([p.score, p.low, p.high].iter().map(|v| format!("{v:.4}")));
        row.push(crate::COMMIT.to_string());
        let _ = w.write_record(row);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// `pairs.csv` as a Markdown table.
pub fn pairs_markdown(csv_text: &str) -> Result<String, TableError> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let mut out = String::from(
        "| game | A | B | pairs | LL | LD | DD/WL | WD | WW | A's score over the pairs (95% CI) |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for rec in r.records() {
        let c = rec?;
        let f = |i: usize| c.get(i).unwrap_or("");
        let count = |i: usize| {
            f(i).parse::<u32>().map_err(|_| TableError::NotACount { file: "pairs.csv", cell: f(i).to_string() })
        };
        let pentanomial = [count(4)?, count(5)?, count(6)?, count(7)?, count(8)?];
        // From the counts, not the file's 4-decimal score: a number rounded twice can be
        // 0.001 off.
        let (score, low, high) = crate::arena::pairs::pair_score(&pentanomial);
        let counts: Vec<&str> = (3..9).map(f).collect();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {score:.3} ({low:.3}-{high:.3}) |\n",
            f(0),
            f(1),
            f(2),
            counts.join(" | "),
        ));
    }
    Ok(out)
}

/// The machine a run played on, and its load (Linux's /proc; "unknown" elsewhere).
pub(super) struct Machine {
    load: String,
}

impl Machine {
    pub(super) fn now() -> Machine {
        let load = std::fs::read_to_string("/proc/loadavg").ok();
        let load = load.as_deref().and_then(|l| l.split_whitespace().next()).unwrap_or("unknown").to_string();
        Machine { load }
    }

    /// The CPU, its cores, the 1-minute load average before and after, and the wall time.
    pub(super) fn text(&self, after: &Machine, seconds: f64) -> String {
        let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        });
        let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
        format!(
            "cpu: {}\ncores: {cores}\nload average (1 min) before: {}\nload average (1 min) after: {}\nwall seconds: {seconds:.0}\ncommit: {}\n",
            cpu.unwrap_or_else(|| "unknown".into()),
            self.load,
            after.load,
            crate::COMMIT
        )
    }
}

/// Replaces `path` by `path.gz` (gzip, best compression, no time stamp: the same bytes for
/// the same data).
pub(super) fn gzip(path: &Path) -> Result<(), ReproduceError> {
    let data = std::fs::read(path).map_err(|source| ReproduceError::Read { path: path.into(), source })?;
    let mut gz_name = path.as_os_str().to_owned();
    gz_name.push(".gz");
    let gz = std::path::PathBuf::from(gz_name);
    let mut e = flate2::GzBuilder::new().mtime(0).write(Vec::new(), flate2::Compression::best());
    e.write_all(&data).map_err(write_error(&gz))?;
    let bytes = e.finish().map_err(write_error(&gz))?;
    crate::io::write_atomic(&gz, &bytes)?;
    std::fs::remove_file(path).map_err(write_error(path))
}

/// The summary columns; `mean_ms_*` are measured times, never compared.
pub const SUMMARY_COLUMNS: [&str; 17] = [
    "variant",
    "first",
    "second",
    "games",
    "first_wins",
    "draws",
    "second_wins",
    "first_score",
    "first_score_low",
    "first_score_high",
    "mean_nodes_first",
    "mean_nodes_second",
    "forfeits_first",
    "forfeits_second",
    "mean_ms_first",
    "mean_ms_second",
    "commit",
];

/// A row per pairing and colour order, from the first mover's side.
pub fn summary_csv(stats: &[PairStats]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(SUMMARY_COLUMNS);
    for s in stats {
        let _ = w.write_record([
            s.variant.to_string(),
            s.names[0].clone(),
            s.names[1].clone(),
            s.games.to_string(),
            s.wins.to_string(),
            s.draws.to_string(),
            s.losses.to_string(),
            format!("{:.4}", s.score),
            format!("{:.4}", s.score_low),
            format!("{:.4}", s.score_high),
            format!("{:.1}", s.mean_nodes[0]),
            format!("{:.1}", s.mean_nodes[1]),
            s.forfeits[0].to_string(),
            s.forfeits[1].to_string(),
            format!("{:.4}", s.mean_time[0] * 1000.0),
            format!("{:.4}", s.mean_time[1] * 1000.0),
            crate::COMMIT.to_string(),
        ]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Every agent's whole-tree search of every board: `results/NAME/nodes.csv`.
pub fn node_counts(step: &NodeCountStep, opts: &Options) -> Result<String, ReproduceError> {
    let base = opts.root.join(super::MANIFEST);
    let base = base.parent().unwrap_or(Path::new("."));
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(["variant", "agent", "depth", "nodes", "value", "commit"]);
    for v in &step.variants {
        let variant: Variant =
            v.parse().map_err(|source| ReproduceError::Variant { name: step.name.clone(), text: v.clone(), source })?;
        for a in &step.agents {
            let file = load_agent(&base.join(a).to_string_lossy())
                .map_err(|e| ReproduceError::Run { name: step.name.clone(), source: e.into() })?;
            let pos = AnyPosition::new(variant);
            let limits = SearchLimits::depth(step.depth);
            let r = crate::with_position!(&pos, p => build_agent(&file.agent, file.seed)
                .search(p, &limits, &SearchControl::new(), &mut NullSink));
            let _ = w.write_record([
                variant.to_string(),
                file.name.clone(),
                step.depth.to_string(),
                r.stats.nodes.to_string(),
                r.score.to_string(),
                crate::COMMIT.to_string(),
            ]);
        }
    }
    let rel = format!("{}/nodes.csv", results_dir(&step.name));
    let path = opts.out.join(&rel);
    std::fs::create_dir_all(path.parent().unwrap_or(&opts.out)).map_err(write_error(&path))?;
    crate::io::write_atomic(&path, &w.into_inner().unwrap_or_default())?;
    Ok(rel)
}

/// Draws a figure from its run's results: `FILE.csv`, `FILE.svg` and `FILE.png`. A volatile
/// figure's CSV is listed last and marked by the caller.
pub fn figure(step: &FigureStep, opts: &Options) -> Result<Vec<String>, ReproduceError> {
    use crate::plot::{ExportOptions, Field, PlotRequest, export_figure, figure_from_results};
    let fail =
        |source: Box<dyn std::error::Error + Send + Sync>| ReproduceError::Figure { file: step.file.clone(), source };
    let field = |s: &Option<String>| s.as_deref().map(str::parse::<Field>).transpose().map_err(|e| fail(e.into()));
    let mut req = PlotRequest::new(step.kind);
    req.x = field(&step.x)?;
    req.y = field(&step.y)?;
    req.metric = step.metric;
    req.series = field(&step.series)?;
    req.agent = step.agent.clone();
    req.title = step.title.clone();
    req.facet = field(&step.facet)?;
    req.boundary = step.boundary;
    req.series_label = step.series_label.clone();
    let run = load_run(&opts.out.join("runs").join(&step.run)).map_err(|e| fail(e.into()))?;
    let mut fig =
        figure_from_results(&run.records, run.matchup.as_ref(), &run.dir, &req).map_err(|e| fail(e.into()))?;
    step.label(&mut fig);
    let fitted = ExportOptions::for_figure(&fig);
    let export = ExportOptions {
        width_in: step.width.unwrap_or(fitted.width_in),
        height_in: step.height.unwrap_or(fitted.height_in),
        log_y: step.log_y,
        ..fitted
    };
    let svg = opts.out.join(format!("{}.svg", step.file));
    std::fs::create_dir_all(svg.parent().unwrap_or(&opts.out)).map_err(write_error(&svg))?;
    export_figure(&fig, &svg, &export).map_err(|e| fail(e.into()))?;
    export_figure(&fig, &svg.with_extension("png"), &export).map_err(|e| fail(e.into()))?;
    let drawn = DrawnFigure { commit: crate::COMMIT.to_string(), run: step.run.clone(), figure: fig, export };
    crate::io::write_atomic(&svg.with_extension("figure.ron"), crate::io::to_ron(&drawn).as_bytes())?;
    Ok(["svg", "png", "figure.ron", "csv"].iter().map(|e| format!("{}.{e}", step.file)).collect())
}

/// Draws a committed figure again from its `FILE.figure.ron` (the data and the options it was
/// drawn with) with this build's drawing code and the manifest's labels: `FILE.svg`,
/// `FILE.png`, `FILE.csv` (whose header carries the labels) and the record, now naming this
/// build, where they change. The data stay as they are; no game is re-run.
pub fn redraw(step: &FigureStep, root: &Path) -> Result<Vec<String>, ReproduceError> {
    let fail =
        |source: Box<dyn std::error::Error + Send + Sync>| ReproduceError::Figure { file: step.file.clone(), source };
    let record = root.join(format!("{}.figure.ron", step.file));
    let mut drawn: DrawnFigure = crate::io::parse_ron(&crate::io::read_text(&record)?, &record, "drawn figure")?;
    step.label(&mut drawn.figure);
    let files = [
        ("svg", crate::plot::render_svg(&drawn.figure, &drawn.export).map_err(|e| fail(e.into()))?.into_bytes()),
        ("png", crate::plot::render_png(&drawn.figure, &drawn.export).map_err(|e| fail(e.into()))?),
        ("csv", drawn.figure.to_csv().into_bytes()),
    ];
    let path = |ext: &str| root.join(format!("{}.{ext}", step.file));
    // A figure this build draws byte for byte as before keeps its files and its record.
    if files.iter().all(|(ext, bytes)| std::fs::read(path(ext)).is_ok_and(|old| &old == bytes)) {
        return Ok(Vec::new());
    }
    for (ext, bytes) in &files {
        crate::io::write_atomic(&path(ext), bytes)?;
    }
    drawn.commit = crate::COMMIT.to_string();
    crate::io::write_atomic(&record, crate::io::to_ron(&drawn).as_bytes())?;
    Ok(["svg", "png", "csv", "figure.ron"].iter().map(|e| format!("{}.{e}", step.file)).collect())
}

/// What a committed figure was drawn from (`FILE.figure.ron` beside it): its data and the
/// options it was drawn with. Its data written as CSV is `FILE.csv`, and drawn it is
/// `FILE.svg`, byte for byte: a test redraws every committed figure and compares both.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawnFigure {
    /// The build that drew it.
    pub commit: String,
    /// The run (`results/RUN/`) whose games it shows.
    pub run: String,
    pub figure: crate::plot::Figure,
    pub export: crate::plot::ExportOptions,
}

/// The marker that opens a generated block of RESULTS.md: `<!-- reproduce:KIND NAME -->`,
/// closed by [`END`].
const BEGIN: &str = "<!-- reproduce:";
pub(super) const END: &str = "<!-- /reproduce -->";

/// RESULTS.md with every generated block whose run this reproduction made rewritten from the
/// new files: `summary NAME` (the run's summary as a Markdown table), `nodes NAME` (node
/// counts) and, in the full mode without `--only`, `commit` (the build that made the results). Blocks of runs
/// not made keep their committed text. None when the repository has no RESULTS.md.
pub fn results_md(opts: &Options, ran: &[String]) -> Result<Option<String>, ReproduceError> {
    let path = opts.root.join(RESULTS_MD);
    if !path.is_file() {
        return Ok(None);
    }
    let text = crate::io::read_text(&path)?;
    let fail = |problem: MarkerProblem| ReproduceError::Markers { path: path.clone(), problem };
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find(BEGIN) {
        let open_end =
            rest[start..].find("-->").map(|i| start + i + 3).ok_or_else(|| fail(MarkerProblem::NotClosed))?;
        let what = rest[start + BEGIN.len()..open_end - 3].trim().to_string();
        let close = rest[open_end..]
            .find(END)
            .map(|i| open_end + i)
            .ok_or_else(|| fail(MarkerProblem::NoEnd { after: what.clone() }))?;
        out.push_str(&rest[..open_end]);
        let old = &rest[open_end..close];
        let new = block(&what, opts, ran).map_err(fail)?;
        out.push_str(&new.map_or(old.to_string(), |b| format!("\n{b}")));
        out.push_str(END);
        rest = &rest[close + END.len()..];
    }
    out.push_str(rest);
    let written = opts.out.join(RESULTS_MD);
    crate::io::write_atomic(&written, out.as_bytes())?;
    Ok(Some(RESULTS_MD.to_string()))
}

/// The new text of one block, or None to keep the committed one.
fn block(what: &str, opts: &Options, ran: &[String]) -> Result<Option<String>, MarkerProblem> {
    let (kind, name) = what.split_once(' ').unwrap_or((what, ""));
    let made = ran.iter().any(|r| r == name);
    match kind {
        // Only a run of everything re-dates the results; `--only` re-runs a part of them.
        "commit" => Ok((opts.mode == Mode::Full && opts.only.is_empty())
            .then(|| format!("Generated by `scripts/reproduce` at commit `{}`.\n", crate::COMMIT))),
        "summary" | "nodes" if !made => Ok(None),
        "summary" => {
            let dir = opts.out.join(results_dir(name));
            let read = |file: &str| {
                let path = dir.join(file);
                std::fs::read_to_string(&path).map_err(|source| MarkerProblem::Read { path, source })
            };
            let mut table = summary_markdown(&read("summary.csv")?)?;
            // Colour-swapped pairs, where the run has them: the interval that accounts for
            // a pair's two games not being independent.
            if dir.join(PAIRS_FILE).is_file() {
                table.push_str("\nThe colour-swapped game pairs (pentanomial counts from A's side):\n\n");
                table.push_str(&pairs_markdown(&read(PAIRS_FILE)?)?);
            }
            Ok(Some(table))
        }
        "accuracy" | "crossovers" if !made => Ok(None),
        "accuracy" | "crossovers" => {
            let file = if kind == "accuracy" { "accuracy.csv" } else { "crossovers.csv" };
            let path = opts.out.join(results_dir(name)).join(file);
            let text = std::fs::read_to_string(&path).map_err(|source| MarkerProblem::Read { path, source })?;
            Ok(Some(if kind == "accuracy" {
                super::accuracy::accuracy_markdown(&text)?
            } else {
                super::accuracy::crossovers_markdown(&text)?
            }))
        }
        "elo" if !made => Ok(None),
        "elo" => {
            let path = opts.out.join(results_dir(name)).join("elo.csv");
            let text = std::fs::read_to_string(&path).map_err(|source| MarkerProblem::Read { path, source })?;
            Ok(Some(super::ladder::elo_markdown(&text)?))
        }
        "nodes" => {
            let path = opts.out.join(results_dir(name)).join("nodes.csv");
            let text = std::fs::read_to_string(&path).map_err(|source| MarkerProblem::Read { path, source })?;
            Ok(Some(csv_markdown(&text)?))
        }
        _ => Err(MarkerProblem::UnknownBlock(what.to_string())),
    }
}

/// A summary CSV as a Markdown table: the first mover's wins, draws and losses with its
/// score and 95% interval, and the nodes a move each side searched.
pub fn summary_markdown(csv_text: &str) -> Result<String, TableError> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let mut out = String::from(
        "| game | P1 | P2 | games | P1 wins | draws | P2 wins | P1 score (95% CI) | nodes a move P1 / P2 | forfeits P1 / P2 |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for rec in r.records() {
        let c = rec?;
        let f = |i: usize| c.get(i).unwrap_or("");
        let num = |i: usize| f(i).parse::<f64>().unwrap_or(f64::NAN);
        let count = |i: usize| {
            f(i).parse::<u64>().map_err(|_| TableError::NotACount { file: "summary.csv", cell: f(i).to_string() })
        };
        // From the counts, not the file's 4-decimal score: a number rounded twice can be
        // 0.001 off.
        let (score, low, high) = crate::arena::stats::score_interval(count(4)?, count(5)?, count(3)?);
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {score:.3} ({low:.3}-{high:.3}) | {:.0} / {:.0} | {} / {} |\n",
            f(0),
            f(1),
            f(2),
            f(3),
            f(4),
            f(5),
            f(6),
            num(10),
            num(11),
            f(12),
            f(13)
        ));
    }
    Ok(out)
}

/// Any CSV as a Markdown table, without the columns that change from run to run (the commit,
/// times): RESULTS.md shows results, and says once which build made them.
pub fn csv_markdown(csv_text: &str) -> Result<String, TableError> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = r.headers()?.iter().map(str::to_string).collect();
    let kept: Vec<usize> =
        (0..header.len()).filter(|&i| !super::compare::VOLATILE_COLUMNS.contains(&header[i].as_str())).collect();
    let row = |cells: Vec<&str>| format!("| {} |\n", kept.iter().map(|&i| cells[i]).collect::<Vec<_>>().join(" | "));
    let mut out = row(header.iter().map(String::as_str).collect());
    out.push_str(&format!("|{}\n", "---|".repeat(kept.len())));
    for rec in r.records() {
        let rec = rec?;
        if rec.len() != header.len() {
            return Err(TableError::RowLength { cells: rec.len(), columns: header.len() });
        }
        out.push_str(&row(rec.iter().collect()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pairing's pentanomial as a CSV row and a Markdown row: counts in the order LL, LD,
    /// DD/WL, WD, WW, the names of the entrants, the score and its interval.
    /// The table's score is worked out from the counts (31.5 points of 50 pairs = 0.630, by
    /// hand), not read back from the file's rounded one (here a deliberately different 0.7).
    #[test]
    fn pairs_file_and_table_carry_the_pentanomial() {
        let p = crate::arena::pairs::Pentanomial {
            variant: "mnk:3,3,3".parse().unwrap(),
            a: 1,
            b: 0,
            counts: [1, 2, 30, 4, 13],
            unpaired: 1,
            score: 0.7,
            low: 0.61,
            high: 0.79,
        };
        let names = ["mcts".to_string(), "ab".to_string()];
        let csv = pairs_csv(&[p], &names);
        let mut lines = csv.lines();
        assert_eq!(lines.next().unwrap(), PAIRS_COLUMNS.join(","));
        let row = lines.next().unwrap();
        assert!(row.starts_with("\"mnk:3,3,3\",ab,mcts,50,1,2,30,4,13,1,0.7000,0.6100,0.7900,"), "{row}");
        let md = pairs_markdown(&csv).unwrap();
        assert!(md.ends_with("| mnk:3,3,3 | ab | mcts | 50 | 1 | 2 | 30 | 4 | 13 | 0.630 (0.561-0.699) |\n"), "{md}");
    }

    /// A bound whose 4-decimal form rounds the other way a second time: 4 draws of 100 score
    /// 0.02, Wilson (0.005502, 0.070012): the table shows 0.006, not the 0.005 that the
    /// file's "0.0055" would print.
    #[test]
    fn summary_tables_work_from_the_counts() {
        let csv = format!(
            "{}\n\"mnk:3,3,3\",a,b,100,0,4,96,0.0200,0.0055,0.0700,10.0,20.0,0,0,1.0,1.0,abc\n",
            SUMMARY_COLUMNS.join(",")
        );
        let md = summary_markdown(&csv).unwrap();
        assert!(md.contains("| 0.020 (0.006-0.070) |"), "{md}");
        assert!(summary_markdown(&csv.replace(",100,0,4,", ",100,x,4,")).is_err());
    }

    #[test]
    fn markdown_tables_leave_out_the_commit_and_times() {
        let csv = "variant,agent,nodes,commit\n\"mnk:3,3,3\",full-tree,18297,abc\n";
        assert_eq!(
            csv_markdown(csv).unwrap(),
            "| variant | agent | nodes |\n|---|---|---|\n| mnk:3,3,3 | full-tree | 18297 |\n"
        );
        assert!(csv_markdown("a,b\n1\n").is_err());
    }
}
