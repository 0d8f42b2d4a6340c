//! Reproducing the published results: every experiment behind RESULTS.md, named in one
//! manifest (`saves/reproduce.ron`), re-run from its matchup file into a scratch
//! folder, its raw results, summary, figures and RESULTS.md's generated tables written beside
//! each other, and every file compared with the committed one.
//!
//! Two modes: [`Mode::Quick`] re-runs the deterministic subset (node-, iteration- and
//! depth-budgeted runs, and a budgeted twin of each timed experiment) and only reports what
//! differs; [`Mode::Full`] re-runs everything and then writes the new files over the
//! committed ones, reporting what changed.

mod accuracy;
pub mod compare;
mod ladder;
mod manifest;
mod outputs;

use std::path::{Path, PathBuf};

pub use compare::{FileDiff, compare_bytes, read_maybe_gz};
pub use manifest::{FigureStep, Job, Manifest, NodeCountStep, QuickPlan, RunStep, StudyJob, StudyPlan, StudyStep};
pub use outputs::{DrawnFigure, SUMMARY_COLUMNS, summary_csv, summary_markdown};

/// Where the manifest lives in the repository.
pub const MANIFEST: &str = "saves/reproduce.ron";
/// The file whose generated tables sit between markers.
pub const RESULTS_MD: &str = "RESULTS.md";

#[derive(Debug, thiserror::Error)]
pub enum ReproduceError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    File(#[from] crate::io::FileError),
    #[error("{manifest}: {problem}")]
    Manifest { manifest: PathBuf, problem: ManifestProblem },
    /// A run could not be made; the source says why (its matchup, its agents, its files).
    #[error("run {name}: {source}")]
    Run { name: String, source: Box<dyn std::error::Error + Send + Sync> },
    #[error("run {name}: {who} runs an external program ({command}); reproduce runs none")]
    External { name: String, who: String, command: String },
    #[error("run {name}: {text}: {source}")]
    Variant { name: String, text: String, source: crate::game::GameError },
    #[error("accuracy {name}: {source}")]
    Accuracy { name: String, source: Box<crate::arena::accuracy::AccuracyError> },
    #[error("ladder {name}: {source}")]
    Ladder { name: String, source: Box<crate::arena::ladder::LadderError> },
    #[error("figure {file}: {source}")]
    Figure { file: String, source: Box<dyn std::error::Error + Send + Sync> },
    #[error("{path}: {problem}")]
    Markers { path: PathBuf, problem: MarkerProblem },
}

/// Why a manifest is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ManifestProblem {
    #[error("'{0}' is not a run name (a folder name under results/)")]
    RunName(String),
    #[error("the name '{0}' is used twice")]
    Twice(String),
    #[error("figure {file} draws run '{run}', which the manifest does not make")]
    FigureOfNoRun { file: String, run: String },
    #[error("run {0}: scale must be a positive number")]
    Scale(String),
    #[error("--only {only}: no run of that name ({})", .runs.join(", "))]
    NoSuchRun { only: String, runs: Vec<String> },
}

/// Why RESULTS.md's generated blocks could not be rewritten.
#[derive(Debug, thiserror::Error)]
pub enum MarkerProblem {
    #[error("a marker is not closed")]
    NotClosed,
    #[error("no {end} after {after}", end = outputs::END)]
    NoEnd { after: String },
    #[error(
        "unknown generated block `{0}` (summary NAME, nodes NAME, accuracy NAME, crossovers NAME, elo NAME or commit)"
    )]
    UnknownBlock(String),
    #[error("{}: {source}", .path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Table(#[from] TableError),
}

/// Why a results CSV could not be shown as a Markdown table.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error(transparent)]
    Csv(#[from] csv::Error),
    #[error("{file}: `{cell}` is not a count")]
    NotACount { file: &'static str, cell: String },
    #[error("{file}: its columns lack some of {wanted}")]
    Columns { file: &'static str, wanted: &'static str },
    #[error("a row of {cells} cells under {columns} columns")]
    RowLength { cells: usize, columns: usize },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Quick,
    Full,
}

/// What a reproduction found: each regenerated file against the committed one.
#[derive(Debug, Default)]
pub struct Report {
    /// Repository-relative path and its differences (only files that differ).
    pub changed: Vec<(String, FileDiff)>,
    /// Regenerated files with no committed counterpart.
    pub new: Vec<String>,
    /// Files compared and found the same.
    pub same: usize,
    /// Runs of the manifest left out (of this mode, or by --only), with the reason.
    pub skipped: Vec<String>,
}

impl Report {
    pub fn is_same(&self) -> bool {
        self.changed.is_empty() && self.new.is_empty()
    }

    /// The report in words: each differing file and number, then a count.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for (path, d) in &self.changed {
            s.push_str(&format!("{path}: {} difference(s)\n", d.count));
            for l in &d.lines {
                s.push_str(&format!("  {l}\n"));
            }
            if d.count > d.lines.len() {
                s.push_str(&format!("  ... and {} more\n", d.count - d.lines.len()));
            }
        }
        for path in &self.new {
            s.push_str(&format!("{path}: not committed\n"));
        }
        for why in &self.skipped {
            s.push_str(&format!("left out: {why}\n"));
        }
        s.push_str(&format!(
            "{} file(s) the same, {} differ, {} not committed\n",
            self.same,
            self.changed.len(),
            self.new.len()
        ));
        s
    }
}

/// Options of one reproduction.
pub struct Options {
    /// The repository: the manifest, the matchup files and the committed results.
    pub root: PathBuf,
    /// The scratch folder everything is written to first (its `runs/` holds the raw run
    /// folders; the other files mirror their place in the repository).
    pub out: PathBuf,
    pub mode: Mode,
    /// Games at a time (0: every core).
    pub threads: usize,
    /// Only these runs (and the figures and tables drawn from them); empty: every run of the
    /// mode.
    pub only: Vec<String>,
}

/// Draws every committed figure of the manifest under `root` again from its recorded data,
/// and RESULTS.md's generated tables from the committed results (after a change to how
/// figures or tables are drawn), re-running nothing; returns the files written. The block
/// naming the commit that made the results stays: the results did not change.
pub fn redraw(root: &Path, say: &mut dyn FnMut(&str)) -> Result<Vec<String>, ReproduceError> {
    let manifest = Manifest::load(&root.join(MANIFEST))?;
    let mut written = Vec::new();
    for step in &manifest.figures {
        say(&format!("redraw {}", step.file));
        written.extend(outputs::redraw(step, root)?);
    }
    say(&format!("tables of {RESULTS_MD}"));
    if retable_with(root, &manifest)? {
        written.push(RESULTS_MD.to_string());
    }
    Ok(written)
}

/// Writes RESULTS.md's generated tables again from the results committed under `root`
/// (`results/NAME/`), leaving the block that names the commit that made them; true when the
/// file changed.
pub fn retable(root: &Path) -> Result<bool, ReproduceError> {
    retable_with(root, &Manifest::load(&root.join(MANIFEST))?)
}

fn retable_with(root: &Path, manifest: &Manifest) -> Result<bool, ReproduceError> {
    let committed: Vec<String> =
        manifest.names().into_iter().filter(|n| root.join(outputs::results_dir(n)).is_dir()).collect();
    // Quick mode: the commit block is rewritten only by a full run.
    let opts = Options { root: root.into(), out: root.into(), mode: Mode::Quick, threads: 0, only: Vec::new() };
    let before = std::fs::read(root.join(RESULTS_MD)).ok();
    Ok(outputs::results_md(&opts, &committed)?.is_some() && std::fs::read(root.join(RESULTS_MD)).ok() != before)
}

/// A study's reproduction step: its job, the manifest's folder, the options, progress.
type StudyStepFn =
    fn(&manifest::StudyJob, &Path, &Options, &mut dyn FnMut(&str)) -> Result<accuracy::Made, ReproduceError>;

/// One step of a reproduction, made ready to run: it hears `say` and returns what it wrote.
type ReadyStep<'a> = dyn FnOnce(&mut dyn FnMut(&str)) -> Result<accuracy::Made, ReproduceError> + 'a;

/// Re-runs the manifest's experiments for `opts.mode`, compares every regenerated file with
/// the committed one and, in [`Mode::Full`], writes the new files into the repository.
/// `say` hears a line as each step starts and ends.
pub fn reproduce(opts: &Options, say: &mut dyn FnMut(&str)) -> Result<Report, ReproduceError> {
    let manifest_path = opts.root.join(MANIFEST);
    let manifest = Manifest::load(&manifest_path)?;
    let mut report = Report::default();
    let mut produced: Vec<String> = Vec::new();
    // Files of measured times: regenerated, never compared.
    let mut volatile: Vec<String> = Vec::new();
    let mut ran: Vec<String> = Vec::new();
    if let Some(unknown) = opts.only.iter().find(|n| !manifest.names().contains(n)) {
        return Err(ReproduceError::Manifest {
            manifest: manifest_path.clone(),
            problem: ManifestProblem::NoSuchRun { only: unknown.clone(), runs: manifest.names() },
        });
    }
    let chosen = |name: &str| opts.only.is_empty() || opts.only.iter().any(|n| n == name);
    let base = manifest_path.parent().unwrap_or(Path::new("."));
    // Matchups, accuracy experiments and ladders: each run by its own step, timed alike.
    let mut steps: Vec<(String, String, Box<ReadyStep<'_>>)> = Vec::new();
    for job in manifest.jobs(opts.mode, &mut report.skipped) {
        let (name, heading) = (job.name.clone(), format!("run {} ({})", job.name, job.matchup));
        let step = move |_: &mut dyn FnMut(&str)| {
            outputs::run_job(&job, base, opts).map(|files| accuracy::Made { files, volatile: Vec::new() })
        };
        steps.push((name, heading, Box::new(step)));
    }
    let studies: [(&str, Vec<manifest::StudyJob>, StudyStepFn); 2] = [
        ("accuracy", manifest.accuracy_jobs(opts.mode, &mut report.skipped), accuracy::run),
        ("ladder", manifest.ladder_jobs(opts.mode, &mut report.skipped), ladder::run),
    ];
    for (kind, jobs, run) in studies {
        for job in jobs {
            let (name, heading) = (job.name.clone(), format!("{kind} {} ({})", job.name, job.experiment));
            let step = move |say: &mut dyn FnMut(&str)| run(&job, base, opts, say);
            steps.push((name, heading, Box::new(step)));
        }
    }
    for (name, heading, step) in steps {
        if !chosen(&name) {
            report.skipped.push(format!("{name} (not asked for by --only)"));
            continue;
        }
        let start = std::time::Instant::now();
        say(&heading);
        let made = step(say)?;
        volatile.extend(made.volatile);
        produced.extend(made.files);
        ran.push(name);
        say(&format!("  done in {:.0} s", start.elapsed().as_secs_f64()));
    }
    for step in manifest.node_counts.iter().filter(|s| chosen(&s.name)) {
        ran.push(step.name.clone());
        say(&format!("node counts {}", step.name));
        produced.push(outputs::node_counts(step, opts)?);
    }
    for fig in manifest.figures.iter().filter(|f| ran.contains(&f.run)) {
        say(&format!("figure {}", fig.file));
        produced.extend(outputs::figure(fig, opts)?);
        if fig.volatile {
            volatile.push(format!("{}.csv", fig.file));
        }
    }
    if let Some(path) = outputs::results_md(opts, &ran)? {
        produced.push(path);
    }
    compare_all(&produced, &volatile, opts, &mut report)?;
    if opts.mode == Mode::Full {
        for rel in &produced {
            let bytes = std::fs::read(opts.out.join(rel))
                .map_err(|source| ReproduceError::Read { path: opts.out.join(rel), source })?;
            let target = opts.root.join(rel);
            if let Some(dir) = target.parent() {
                std::fs::create_dir_all(dir).map_err(|source| ReproduceError::Write { path: dir.into(), source })?;
            }
            crate::io::write_atomic(&target, &bytes)?;
        }
    }
    Ok(report)
}

/// Compares each regenerated file with the committed one into `report`.
fn compare_all(
    produced: &[String],
    volatile: &[String],
    opts: &Options,
    report: &mut Report,
) -> Result<(), ReproduceError> {
    for rel in produced {
        let now = opts.out.join(rel);
        let committed = opts.root.join(rel);
        if !committed.exists() {
            report.new.push(rel.clone());
            continue;
        }
        // Images are drawn from the data whose CSV is beside them, which is compared; the
        // machine a run played on is a record, not a result.
        let measured = [".svg", ".png", ".figure.ron", "machine.txt"];
        if measured.iter().any(|e| rel.ends_with(e)) || volatile.contains(rel) {
            continue;
        }
        let d = compare_bytes(rel, &read_maybe_gz(&committed)?, &read_maybe_gz(&now)?);
        if d.is_same() {
            report.same += 1;
        } else {
            report.changed.push((rel.clone(), d));
        }
    }
    Ok(())
}
