//! The manifest of what `scripts/reproduce` re-runs: each experiment behind RESULTS.md with
//! its matchup file and options, the twin that stands in for it in the quick set, the node
//! counts of Alam's Table 1 and every committed figure with the options it is drawn with.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{ManifestProblem, Mode, ReproduceError};
use crate::io::{check_version, parse_ron, read_text};
use crate::plot::{Metric, PlotKind};

pub const MANIFEST_VERSION: u32 = 1;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub version: u32,
    pub runs: Vec<RunStep>,
    #[serde(default)]
    pub node_counts: Vec<NodeCountStep>,
    #[serde(default)]
    pub figures: Vec<FigureStep>,
    /// Accuracy experiments (`mnklab accuracy`), committed under `results/NAME/`.
    #[serde(default)]
    pub accuracy: Vec<StudyStep>,
    /// Ladders (`mnklab ladder`): strength against budget by games, under `results/NAME/`.
    #[serde(default)]
    pub ladders: Vec<StudyStep>,
}

/// One accuracy experiment (`mnklab accuracy EXPERIMENT --out results/NAME`) or ladder
/// (`mnklab ladder`). Its searches or games already committed for the same experiment are
/// kept, and only the missing ones run, so a study of hours is made over several sittings
/// (`mnklab accuracy ... --resume` into `results/NAME/`, then this step to write its table,
/// figures and RESULTS.md blocks).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyStep {
    pub name: String,
    /// Relative to the manifest's folder.
    pub experiment: String,
    pub quick: StudyPlan,
}

/// What stands for an accuracy experiment or a ladder in the quick set.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum StudyPlan {
    /// The experiment itself (work budgets only, quick enough).
    Same,
    /// A twin of work budgets only (CPU-time rows depend on the machine), committed under
    /// `results/NAME/` and re-run afresh by both modes.
    Twin { name: String, experiment: String },
    /// Only in the full set, for this reason.
    FullOnly(String),
}

/// One accuracy experiment or ladder to make, and whether committed rows may be kept.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyJob {
    pub name: String,
    pub experiment: String,
    /// Keep the rows committed under `results/NAME/` for the same experiment (the full
    /// study); a quick check searches everything afresh.
    pub keep_committed: bool,
}

/// One experiment: `mnklab match MATCHUP [--games G] [--scale S]`, its results committed
/// under `results/NAME/`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunStep {
    pub name: String,
    /// Relative to the manifest's folder.
    pub matchup: String,
    #[serde(default)]
    pub games: Option<u32>,
    #[serde(default)]
    pub scale: Option<f64>,
    /// Whether it is in the quick set, and as what.
    pub quick: QuickPlan,
}

/// What stands for a run in the quick set.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum QuickPlan {
    /// The run itself (deterministic and quick enough): the quick set re-runs it whole.
    Same,
    /// A deterministic twin (a budget instead of a time, fewer games), committed under
    /// `results/NAME/` and re-run by both modes.
    Twin { name: String, matchup: String, games: Option<u32> },
    /// Only in the full set, for this reason.
    FullOnly(String),
}

/// Alpha-beta node counts of whole game trees (Alam et al.'s Table 1): every agent on every
/// board, searched to `depth` from the empty board, into `results/NAME/nodes.csv`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeCountStep {
    pub name: String,
    pub variants: Vec<String>,
    /// Agent files, relative to the manifest's folder.
    pub agents: Vec<String>,
    pub depth: u32,
}

/// A committed figure: `mnklab plot results of RUN` with these options, written to
/// `FILE.csv`, `FILE.svg` and `FILE.png` (FILE relative to the repository).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureStep {
    pub file: String,
    pub run: String,
    pub kind: PlotKind,
    #[serde(default)]
    pub x: Option<String>,
    #[serde(default)]
    pub y: Option<String>,
    #[serde(default)]
    pub metric: Option<Metric>,
    #[serde(default)]
    pub series: Option<String>,
    #[serde(default)]
    pub agent: Option<String>,
    #[serde(default)]
    pub facet: Option<String>,
    #[serde(default)]
    pub boundary: Option<f64>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub x_label: Option<String>,
    /// Lines: each line's name, `{}` standing for the series value.
    #[serde(default)]
    pub series_label: Option<String>,
    #[serde(default)]
    pub y_label: Option<String>,
    /// Heatmaps: what the colour shows, in words (the colour bar's label).
    #[serde(default)]
    pub value_label: Option<String>,
    #[serde(default)]
    pub log_y: bool,
    #[serde(default)]
    pub width: Option<f64>,
    #[serde(default)]
    pub height: Option<f64>,
    /// Measured times or memory: regenerated, never compared.
    #[serde(default)]
    pub volatile: bool,
}

impl FigureStep {
    /// The manifest's axis and colour labels over the ones a figure was made with.
    pub fn label(&self, fig: &mut crate::plot::Figure) {
        let labels = [
            (&self.x_label, &mut fig.x_label),
            (&self.y_label, &mut fig.y_label),
            (&self.value_label, &mut fig.value_label),
        ];
        for (chosen, label) in labels {
            if let Some(l) = chosen {
                label.clone_from(l);
            }
        }
    }
}

/// One run to make: a manifest run or its twin.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    pub name: String,
    pub matchup: String,
    pub games: Option<u32>,
    pub scale: Option<f64>,
}

impl Manifest {
    pub fn load(path: &Path) -> Result<Manifest, ReproduceError> {
        let m: Manifest = parse_ron(&read_text(path)?, path, "reproduce manifest")?;
        check_version(path, "reproduce manifest", m.version, MANIFEST_VERSION)?;
        m.check().map_err(|problem| ReproduceError::Manifest { manifest: path.into(), problem })?;
        Ok(m)
    }

    /// Every run's name, twins and node counts included.
    pub fn names(&self) -> Vec<String> {
        let mut names = Vec::new();
        for r in &self.runs {
            names.push(r.name.clone());
            if let QuickPlan::Twin { name, .. } = &r.quick {
                names.push(name.clone());
            }
        }
        names.extend(self.node_counts.iter().map(|n| n.name.clone()));
        for a in self.accuracy.iter().chain(&self.ladders) {
            names.push(a.name.clone());
            if let StudyPlan::Twin { name, .. } = &a.quick {
                names.push(name.clone());
            }
        }
        names
    }

    /// The accuracy experiments a mode makes; those it leaves out are described in `skipped`.
    pub fn accuracy_jobs(&self, mode: Mode, skipped: &mut Vec<String>) -> Vec<StudyJob> {
        study_jobs(&self.accuracy, mode, skipped)
    }

    /// The ladders a mode makes; those it leaves out are described in `skipped`.
    pub fn ladder_jobs(&self, mode: Mode, skipped: &mut Vec<String>) -> Vec<StudyJob> {
        study_jobs(&self.ladders, mode, skipped)
    }

    /// Names used once, figures of runs that exist, numbers in range.
    fn check(&self) -> Result<(), ManifestProblem> {
        let mut names = std::collections::HashSet::new();
        for name in self.names() {
            if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
                return Err(ManifestProblem::RunName(name));
            }
            if !names.insert(name.clone()) {
                return Err(ManifestProblem::Twice(name));
            }
        }
        for f in &self.figures {
            if !names.contains(f.run.as_str()) {
                return Err(ManifestProblem::FigureOfNoRun { file: f.file.clone(), run: f.run.clone() });
            }
        }
        for r in &self.runs {
            if r.scale.is_some_and(|s| !(s > 0.0 && s.is_finite())) {
                return Err(ManifestProblem::Scale(r.name.clone()));
            }
        }
        Ok(())
    }

    /// The runs a mode makes, in manifest order; the runs it leaves out are described in
    /// `skipped`.
    pub fn jobs(&self, mode: Mode, skipped: &mut Vec<String>) -> Vec<Job> {
        let mut jobs = Vec::new();
        for r in &self.runs {
            let own = Job { name: r.name.clone(), matchup: r.matchup.clone(), games: r.games, scale: r.scale };
            match (&r.quick, mode) {
                (QuickPlan::Same, _) => jobs.push(own),
                (QuickPlan::Twin { name, matchup, games }, _) => {
                    if mode == Mode::Full {
                        jobs.push(own);
                    } else {
                        skipped.push(format!("{} (its budgeted twin {name} runs instead)", r.name));
                    }
                    jobs.push(Job { name: name.clone(), matchup: matchup.clone(), games: *games, scale: None });
                }
                (QuickPlan::FullOnly(_), Mode::Full) => jobs.push(own),
                (QuickPlan::FullOnly(why), Mode::Quick) => skipped.push(format!("{}: {why}", r.name)),
            }
        }
        jobs
    }
}

/// The jobs of `steps` in `mode` (see [`StudyPlan`]).
fn study_jobs(steps: &[StudyStep], mode: Mode, skipped: &mut Vec<String>) -> Vec<StudyJob> {
    let mut jobs = Vec::new();
    let job = |name: &str, experiment: &str, keep_committed| StudyJob {
        name: name.into(),
        experiment: experiment.into(),
        keep_committed,
    };
    for a in steps {
        let full = mode == Mode::Full;
        match &a.quick {
            StudyPlan::Same => jobs.push(job(&a.name, &a.experiment, full)),
            StudyPlan::Twin { name, experiment } => {
                if full {
                    jobs.push(job(&a.name, &a.experiment, true));
                } else {
                    skipped.push(format!("{} (its work-budget twin {name} runs instead)", a.name));
                }
                jobs.push(job(name, experiment, false));
            }
            StudyPlan::FullOnly(_) if full => jobs.push(job(&a.name, &a.experiment, true)),
            StudyPlan::FullOnly(why) => skipped.push(format!("{}: {why}", a.name)),
        }
    }
    jobs
}
