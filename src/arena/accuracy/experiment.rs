//! An accuracy experiment: agents x budgets x suites. Each agent searches each suite
//! position under each budget; its move either keeps the proven value or throws a win or a
//! draw away (a mistake, whatever the opponent would do). One row a search is appended to
//! `moves.csv` as it finishes, so a killed run resumes where it stopped.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::suite::{Suite, SuiteError, load_suite};
use crate::agents::{AgentConfig, AgentFile, build_agent};
use crate::arena::EntrantError;
use crate::arena::matchup::{AgentSource, NAME_RULE, plain_name};
use crate::io::FileError;
use crate::search::progress::thread_cpu_seconds;
use crate::search::{NullSink, SearchControl, SearchLimits};
use crate::with_position;

/// The experiment file format this build reads.
pub const EXPERIMENT_VERSION: u32 = 1;

/// The columns of `moves.csv`, one row a search.
pub const MOVE_COLUMNS: [&str; 14] = [
    "board",
    "agent",
    "budget_kind",
    "budget",
    "position",
    "game",
    "tactic",
    "move",
    "thrown",
    "keepers",
    "legal",
    "seed",
    "cpu_seconds",
    "work",
];

/// What an accuracy experiment runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccuracyExperiment {
    #[serde(default = "first_version")]
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Suite files, relative to the experiment file's folder.
    pub suites: Vec<String>,
    pub agents: Vec<AccuracyAgent>,
    /// Budgets of work a move, doubling: nodes for alpha-beta, iterations for MCTS.
    #[serde(default)]
    pub work: Option<Doubling>,
    /// Budgets of the searching thread's CPU seconds a move: the one unit alpha-beta and
    /// MCTS share.
    #[serde(default)]
    pub cpu_seconds: Vec<f64>,
    /// Positions of each suite used (a seeded sample; all when None).
    #[serde(default)]
    pub positions: Option<usize>,
    /// Work budgets above `above` search only the first `positions` of the sample.
    #[serde(default)]
    pub subsample: Option<Subsample>,
    /// The seed of the sample and of every search (each search's seed is in its row).
    #[serde(default)]
    pub seed: u64,
    /// Worker threads (0: all cores).
    #[serde(default)]
    pub threads: u32,
}

fn first_version() -> u32 {
    EXPERIMENT_VERSION
}

/// An agent of an experiment: a preset, a file or inline, with the name its rows carry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccuracyAgent {
    #[serde(default)]
    pub name: Option<String>,
    pub agent: AgentSource,
}

/// 2^from, 2^(from+1), ..., 2^to.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Doubling {
    pub from: u32,
    pub to: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subsample {
    pub above: u64,
    pub positions: usize,
}

/// A budget a move: what it limits and how much.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Nodes(u64),
    Iterations(u64),
    CpuSeconds(f64),
    /// An agent that reads no limit (random): searched once.
    None,
}

impl Budget {
    /// The `budget_kind` column.
    pub fn kind(&self) -> &'static str {
        match self {
            Budget::Nodes(_) => "nodes",
            Budget::Iterations(_) => "iterations",
            Budget::CpuSeconds(_) => "cpu_seconds",
            Budget::None => "none",
        }
    }

    /// The `budget` column.
    pub fn amount(&self) -> String {
        match *self {
            Budget::Nodes(n) | Budget::Iterations(n) => n.to_string(),
            Budget::CpuSeconds(s) => format!("{s}"),
            Budget::None => "0".into(),
        }
    }

    /// `agent` with its transposition table no larger than this budget can fill: four
    /// entries for each node it may search (a CPU budget at a generous 8 million nodes a
    /// second), at most the agent's own size. Each search builds its agent afresh (a table
    /// left from another position would make a row depend on the order of the tasks), and a
    /// fresh table's pages are mapped as the search first touches them: at 8 ms of CPU a
    /// 64 MiB table's page faults took a good share of the budget, which a smaller table,
    /// never full at these budgets, does not cost.
    pub fn sized(&self, agent: &AgentConfig) -> AgentConfig {
        const ENTRY_BYTES: f64 = 12.0;
        let nodes = match *self {
            Budget::Nodes(n) => n as f64,
            Budget::CpuSeconds(s) => 8.0e6 * s,
            Budget::Iterations(_) | Budget::None => return agent.clone(),
        };
        let mut sized = agent.clone();
        for one in sized.each_mut() {
            if let AgentConfig::AlphaBeta(c) = one
                && c.tt_mb > 0
            {
                let mb = (4.0 * nodes * ENTRY_BYTES / (1024.0 * 1024.0)).ceil().max(1.0);
                c.tt_mb = c.tt_mb.min(mb as u32);
            }
        }
        sized
    }

    /// A rough CPU cost in seconds, to order the searches: alpha-beta at about 4 million
    /// nodes a second, MCTS at about half a million iterations.
    fn cost(&self) -> f64 {
        match *self {
            Budget::Nodes(n) => n as f64 / 4.0e6,
            Budget::Iterations(n) => n as f64 / 5.0e5,
            Budget::CpuSeconds(s) => s,
            Budget::None => 0.0,
        }
    }

    /// The search limits that make this budget.
    pub fn limits(&self) -> SearchLimits {
        match *self {
            Budget::Nodes(n) => SearchLimits::nodes(n),
            Budget::Iterations(n) => SearchLimits::iterations(n),
            Budget::CpuSeconds(s) => SearchLimits::cpu_time(s),
            Budget::None => SearchLimits::default(),
        }
    }
}

/// Why an experiment cannot run.
#[derive(Debug, thiserror::Error)]
pub enum AccuracyError {
    #[error("{0}")]
    File(#[from] FileError),
    #[error("{0}")]
    Suite(#[from] SuiteError),
    /// A suite the experiment names that is not there: which entry, and where paths start.
    #[error(
        "suites[{index}]: {} is not a file (a suite's path is relative to the experiment file's folder, {})",
        .path.display(),
        .base.display()
    )]
    NoSuite { index: usize, path: PathBuf, base: PathBuf },
    /// `positions` asks more of a suite than it holds (a typo would otherwise pass for a
    /// study of that many positions).
    #[error(
        "positions: Some({asked}) is more than suites[{index}] ({}) holds ({has}): ask for at most {has}, or None for all",
        .path.display()
    )]
    TooFewPositions { index: usize, path: PathBuf, has: usize, asked: usize },
    #[error("{0}")]
    Agent(#[from] EntrantError),
    #[error("agents[{index}] ({name}): {why}")]
    NotMeasurable { index: usize, name: String, why: String },
    #[error("agents[{index}]: the name {name:?} {NAME_RULE}")]
    Name { index: usize, name: String },
    #[error("agents[{first}] and agents[{second}] are both named {name:?}: give each a name of its own")]
    SameName { first: usize, second: usize, name: String },
    #[error("an experiment needs at least one suite and one agent")]
    Empty,
    #[error(transparent)]
    Budget(#[from] BudgetError),
    #[error("{0}")]
    Export(#[from] crate::plot::ExportError),
    #[error("{} already holds moves of this experiment: add --resume to continue them, or choose another --out", .0.display())]
    HasMoves(PathBuf),
    #[error("{} holds another experiment's moves ({why}): choose another --out", .dir.display())]
    OtherExperiment { dir: PathBuf, why: String },
    #[error("cannot write {}: {source}", .path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("{}: {why}", .path.display())]
    BadMoves { path: PathBuf, why: String },
}

/// A study's budgets that are not budgets: the accuracy experiment's and the ladder's.
#[derive(Debug, thiserror::Error)]
pub enum BudgetError {
    #[error("work: from {from} to {to}: need from <= to <= 40 (2^40 nodes a move)")]
    Work { from: u32, to: u32 },
    #[error("cpu_seconds: {0} is not a budget (seconds above 0, at most 3600)")]
    CpuSeconds(f64),
    #[error("no budget: give work (from, to) or cpu_seconds, or both")]
    NoBudget,
}

/// Checks a study's budgets: the work doublings `2^from..=2^to` (at most 2^40) and CPU
/// seconds in (0, 3600], at least one budget in all.
pub fn check_budgets(work: Option<Doubling>, cpu_seconds: &[f64]) -> Result<(), BudgetError> {
    if let Some(Doubling { from, to }) = work
        && (from > to || to > 40)
    {
        return Err(BudgetError::Work { from, to });
    }
    if let Some(&s) = cpu_seconds.iter().find(|s| !(s.is_finite() && **s > 0.0 && **s <= 3600.0)) {
        return Err(BudgetError::CpuSeconds(s));
    }
    if work.is_none() && cpu_seconds.is_empty() {
        return Err(BudgetError::NoBudget);
    }
    Ok(())
}

/// An agent ready to search: its name and file.
#[derive(Clone, Debug)]
pub struct Measured {
    pub name: String,
    pub file: AgentFile,
}

impl AccuracyExperiment {
    /// Reads an experiment file.
    pub fn load(path: &Path) -> Result<AccuracyExperiment, AccuracyError> {
        AccuracyExperiment::parse(&crate::io::read_text(path)?, path)
    }

    /// Parses an experiment's text (`path` names it in errors), checking its settings.
    pub fn parse(text: &str, path: &Path) -> Result<AccuracyExperiment, AccuracyError> {
        let e: AccuracyExperiment = crate::io::parse_ron(text, path, "accuracy experiment")?;
        crate::io::check_version(path, "accuracy experiment", e.version, EXPERIMENT_VERSION)?;
        e.check()?;
        Ok(e)
    }

    fn check(&self) -> Result<(), AccuracyError> {
        if self.suites.is_empty() || self.agents.is_empty() {
            return Err(AccuracyError::Empty);
        }
        Ok(check_budgets(self.work, &self.cpu_seconds)?)
    }

    /// Loads every agent (files relative to `base`), refusing agents that cannot be measured
    /// (the solver, the judge itself; external programs), and names that clash.
    pub fn agents(&self, base: &Path) -> Result<Vec<Measured>, AccuracyError> {
        let mut out: Vec<Measured> = Vec::new();
        for (index, a) in self.agents.iter().enumerate() {
            let file = a.agent.load(base, index)?;
            let name = a.name.clone().unwrap_or_else(|| file.name.clone());
            let why = file.agent.each().into_iter().find_map(|one| match one {
                AgentConfig::Solver(_) => Some("the solver is the judge: it makes no mistakes to count"),
                AgentConfig::External(_) => Some("external programs are not measured here (no node budget)"),
                // Cut by a node budget, one fixed-depth search plays whatever move the cut
                // left; iterative deepening plays the last finished depth's.
                AgentConfig::AlphaBeta(c) if !c.iterative_deepening && self.work.is_some() => {
                    Some("a node budget needs iterative deepening (iterative_deepening: true)")
                }
                _ => None,
            });
            if let Some(why) = why {
                return Err(AccuracyError::NotMeasurable { index, name, why: why.into() });
            }
            if !plain_name(&name) {
                return Err(AccuracyError::Name { index, name });
            }
            // Every budget must end its search: alpha-beta without iterative deepening under a
            // node budget would play whatever move the cut left.
            for budget in self.budgets(&file.agent) {
                if let Err(e) = file.agent.check_limits(&budget.limits(), None, budget != Budget::None) {
                    return Err(AccuracyError::NotMeasurable { index, name, why: e.to_string() });
                }
            }
            if let Some(first) = out.iter().position(|m| m.name == name) {
                return Err(AccuracyError::SameName { first, second: index, name });
            }
            out.push(Measured { name, file });
        }
        Ok(out)
    }

    /// The budgets `agent` is searched under (see [`budgets_for`]).
    pub fn budgets(&self, agent: &AgentConfig) -> Vec<Budget> {
        budgets_for(agent, self.work, &self.cpu_seconds)
    }

    /// The indices of `suite`'s positions this experiment uses, in the order of a seeded
    /// shuffle (so a subsample is the first of them).
    pub fn sample(&self, suite: &Suite, suite_index: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..suite.positions.len()).collect();
        let mut rng = crate::rng::seeded(self.seed ^ (suite_index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        crate::rng::shuffle(&mut order, &mut rng);
        order.truncate(self.positions.unwrap_or(usize::MAX));
        order
    }

    /// How many positions a budget searches.
    fn positions_for(&self, budget: &Budget, sampled: usize) -> usize {
        match (budget, self.subsample) {
            (Budget::Nodes(n) | Budget::Iterations(n), Some(s)) if *n > s.above => s.positions.min(sampled),
            _ => sampled,
        }
    }
}

/// The budgets of `agent` in an experiment: its kind of work (nodes for alpha-beta,
/// iterations for MCTS) doubling over `work`, then the CPU seconds; one budget, none, for an
/// agent that reads no limit (random).
pub fn budgets_for(agent: &AgentConfig, work: Option<Doubling>, cpu_seconds: &[f64]) -> Vec<Budget> {
    let work: Vec<u64> = work.map_or(Vec::new(), |d| (d.from..=d.to).map(|e| 1u64 << e).collect());
    let mut out: Vec<Budget> = match agent.representative() {
        AgentConfig::AlphaBeta(_) => work.into_iter().map(Budget::Nodes).collect(),
        AgentConfig::Mcts(_) => work.into_iter().map(Budget::Iterations).collect(),
        _ => return vec![Budget::None],
    };
    out.extend(cpu_seconds.iter().map(|&s| Budget::CpuSeconds(s)));
    out
}

/// One search to make.
#[derive(Clone, Debug)]
struct Task {
    suite: usize,
    agent: usize,
    budget: Budget,
    position: usize,
    seed: u64,
}

/// A search's row.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRow {
    pub board: String,
    pub agent: String,
    pub budget_kind: String,
    pub budget: String,
    pub position: usize,
    pub game: u32,
    pub tactic: bool,
    pub mv: String,
    /// "win" or "draw" where the move threw that value away, else empty.
    pub thrown: String,
    pub keepers: usize,
    pub legal: usize,
    pub seed: u64,
    pub cpu_seconds: f64,
    /// What the search did: alpha-beta's nodes, MCTS's iterations (what a CPU budget bought).
    pub work: u64,
}

impl MoveRow {
    fn key(&self) -> (String, String, String, String, usize) {
        (self.board.clone(), self.agent.clone(), self.budget_kind.clone(), self.budget.clone(), self.position)
    }

    fn record(&self) -> Vec<String> {
        vec![
            self.board.clone(),
            self.agent.clone(),
            self.budget_kind.clone(),
            self.budget.clone(),
            self.position.to_string(),
            self.game.to_string(),
            self.tactic.to_string(),
            self.mv.clone(),
            self.thrown.clone(),
            self.keepers.to_string(),
            self.legal.to_string(),
            self.seed.to_string(),
            format!("{:.6}", self.cpu_seconds),
            self.work.to_string(),
        ]
    }

    fn parse(r: &csv::StringRecord) -> Option<MoveRow> {
        let f = |i: usize| r.get(i).map(str::to_string);
        Some(MoveRow {
            board: f(0)?,
            agent: f(1)?,
            budget_kind: f(2)?,
            budget: f(3)?,
            position: f(4)?.parse().ok()?,
            game: f(5)?.parse().ok()?,
            tactic: f(6)?.parse().ok()?,
            mv: f(7)?,
            thrown: f(8)?,
            keepers: f(9)?.parse().ok()?,
            legal: f(10)?.parse().ok()?,
            seed: f(11)?.parse().ok()?,
            cpu_seconds: f(12)?.parse().ok()?,
            work: f(13)?.parse().ok()?,
        })
    }
}

/// Reads `moves.csv` (a run's rows so far); a torn last line (a kill mid-write) is dropped.
pub fn read_moves(path: &Path) -> Result<Vec<MoveRow>, AccuracyError> {
    let bad = |why: String| AccuracyError::BadMoves { path: path.to_path_buf(), why };
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_path(path).map_err(|e| bad(e.to_string()))?;
    let header: Vec<String> = reader.headers().map_err(|e| bad(e.to_string()))?.iter().map(String::from).collect();
    if header != MOVE_COLUMNS {
        return Err(bad(format!("not an accuracy moves file (its columns: {})", header.join(","))));
    }
    let records: Vec<csv::StringRecord> = reader.records().collect::<Result<_, _>>().map_err(|e| bad(e.to_string()))?;
    let last = records.len().saturating_sub(1);
    let mut rows = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        match MoveRow::parse(r) {
            Some(row) => rows.push(row),
            None if i == last => {}
            None => return Err(bad(format!("row {} is not a move row", i + 2))),
        }
    }
    Ok(rows)
}

/// How a run goes.
#[derive(Clone, Debug, Default)]
pub struct AccuracyOptions {
    /// Continue the rows `out` holds.
    pub resume: bool,
    /// Worker threads (overrides the file's; 0: the file's, else all cores).
    pub threads: u32,
}

/// Runs `experiment` (read from `file`) into `out`: `moves.csv` grows a row a search, then
/// `accuracy.csv` is written from all rows. `told(rows, total)` hears the progress: the rows
/// so far (for live curves) and the searches in all. Returns every row.
pub fn run_accuracy(
    experiment: &AccuracyExperiment,
    file: &Path,
    out: &Path,
    opts: &AccuracyOptions,
    control: &SearchControl,
    mut told: impl FnMut(&[MoveRow], usize),
) -> Result<Vec<MoveRow>, AccuracyError> {
    let base = file.parent().unwrap_or(Path::new("."));
    let agents = experiment.agents(base)?;
    let mut suites: Vec<Suite> = Vec::new();
    for (index, s) in experiment.suites.iter().enumerate() {
        let path = base.join(s);
        if !path.is_file() {
            let base = if base.as_os_str().is_empty() { Path::new(".") } else { base };
            return Err(AccuracyError::NoSuite { index, path, base: base.to_path_buf() });
        }
        let suite = load_suite(&path)?;
        if let Some(asked) = experiment.positions.filter(|&n| n > suite.positions.len()) {
            return Err(AccuracyError::TooFewPositions { index, path, has: suite.positions.len(), asked });
        }
        suites.push(suite);
    }
    let moves_path = out.join("moves.csv");
    let done = prepare_out(experiment, out, &moves_path, opts.resume)?;
    let mut tasks = Vec::new();
    for (si, suite) in suites.iter().enumerate() {
        let sample = experiment.sample(suite, si);
        for (ai, agent) in agents.iter().enumerate() {
            for budget in experiment.budgets(&agent.file.agent) {
                for &position in &sample[..experiment.positions_for(&budget, sample.len())] {
                    let seed = task_seed(experiment.seed, &agent.name, &budget, si, position);
                    tasks.push(Task { suite: si, agent: ai, budget, position, seed });
                }
            }
        }
    }
    // The cheap budgets first, on every board and agent: a long study stopped part way has
    // whole curves up to some budget, not every budget of the first board only.
    tasks.sort_by(|a, b| a.budget.cost().total_cmp(&b.budget.cost()));
    let mut rows: Vec<MoveRow> = done;
    let have: std::collections::HashSet<_> = rows.iter().map(MoveRow::key).collect();
    let key = |t: &Task| {
        let b = suites[t.suite].board.to_string();
        (b, agents[t.agent].name.clone(), t.budget.kind().to_string(), t.budget.amount(), t.position)
    };
    tasks.retain(|t| !have.contains(&key(t)));
    let total = rows.len() + tasks.len();
    told(&rows, total);
    let threads = match (opts.threads, experiment.threads) {
        (0, 0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        (0, n) | (n, _) => n as usize,
    };
    let mut writer = append_writer(&moves_path)?;
    let write_err = |source: std::io::Error| AccuracyError::Write { path: moves_path.clone(), source };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = crossbeam_channel::unbounded::<MoveRow>();
    std::thread::scope(|scope| -> Result<(), AccuracyError> {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (tasks, suites, agents, next) = (&tasks, &suites, &agents, &next);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(t) = tasks.get(i) else { break };
                    if control.is_stopped() {
                        break;
                    }
                    if let Some(row) = search_one(t, &suites[t.suite], &agents[t.agent], control)
                        && tx.send(row).is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for row in rx {
            let line = row.record();
            writer
                .write_record(&line)
                .and_then(|_| writer.flush().map_err(Into::into))
                .map_err(|e| write_err(std::io::Error::other(e.to_string())))?;
            rows.push(row);
            told(&rows, total);
        }
        Ok(())
    })?;
    write_outputs(out, &rows, experiment.seed)?;
    Ok(rows)
}

/// What a run leaves beside `moves.csv`, made from all its rows: `accuracy.csv`,
/// `crossovers.csv` (CPU time, the one axis alpha-beta and MCTS share; and each agent's own
/// work where two agents share a unit), a figure an axis with a panel a board
/// (`accuracy-work.svg`, `accuracy-cpu.svg`) and a figure a board and axis
/// (`accuracy-work-BOARD.svg`, `accuracy-cpu-BOARD.svg`), each with its CSV. Returns the
/// files written.
pub fn write_outputs(out: &Path, rows: &[MoveRow], seed: u64) -> Result<Vec<PathBuf>, AccuracyError> {
    let table = super::table::accuracy_table(rows, seed);
    let mut written = vec![out.join("accuracy.csv")];
    crate::io::write_atomic(&written[0], super::table::table_csv(&table).as_bytes())?;
    let mut w = csv::Writer::from_writer(Vec::new());
    // `said`: the crossing in words, "no crossing in the range" where the numbers are empty;
    // `crossings`: how often the curves swap order (more than one: `crossing` is the first).
    let _ = w.write_record([
        "board",
        "budget_kind",
        "a",
        "b",
        "crossing",
        "lo",
        "hi",
        "better_at_smallest",
        "better_at_largest",
        "crossings",
        "said",
    ]);
    for kind in ["cpu_seconds", "nodes", "iterations"] {
        for c in super::crossover::crossovers(rows, kind, seed) {
            let f = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v}"));
            let (lo, hi) = (c.interval.map(|i| i.0), c.interval.map(|i| i.1));
            let (said, crossings) = (c.said(), c.crossings.to_string());
            let _ = w.write_record([
                c.board,
                c.budget_kind,
                c.a,
                c.b,
                f(c.at),
                f(lo),
                f(hi),
                c.better_first,
                c.better_last,
                crossings,
                said,
            ]);
        }
    }
    let path = out.join("crossovers.csv");
    crate::io::write_atomic(&path, &w.into_inner().unwrap_or_default())?;
    written.push(path);
    use crate::plot::accuracy::{BudgetAxis, accuracy_figure, accuracy_panels, boards};
    // The paper's figure: a panel a board, on each axis.
    // No titles in the files, as every figure for a paper (its caption is set under it).
    let untitled = |mut fig: crate::plot::Figure| {
        fig.title.clear();
        fig
    };
    // Sized for print: a board's figure one column wide, all boards across both columns.
    use crate::plot::ExportOptions;
    let across = ExportOptions::two_columns(crate::plot::panel_grid(boards(&table).len()).0);
    for (axis, kind) in [(BudgetAxis::Work, "work"), (BudgetAxis::CpuSeconds, "cpu")] {
        if let Some(fig) = accuracy_panels(&table, axis).map(untitled) {
            let path = out.join(format!("accuracy-{kind}.svg"));
            written.extend(crate::plot::export_figure(&fig, &path, &across)?);
        }
    }
    for board in boards(&table) {
        let slug: String = board.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        for (axis, kind) in [(BudgetAxis::Work, "work"), (BudgetAxis::CpuSeconds, "cpu")] {
            if let Some(fig) = accuracy_figure(&table, axis, &board).map(untitled) {
                let path = out.join(format!("accuracy-{kind}-{slug}.svg"));
                written.extend(crate::plot::export_figure(&fig, &path, &ExportOptions::column())?);
            }
        }
    }
    Ok(written)
}

/// The folder ready for the run: the experiment recorded beside its rows (the same one when
/// resuming); the rows already there.
fn prepare_out(
    experiment: &AccuracyExperiment,
    out: &Path,
    moves: &Path,
    resume: bool,
) -> Result<Vec<MoveRow>, AccuracyError> {
    let write = |path: &Path, source| AccuracyError::Write { path: path.to_path_buf(), source };
    std::fs::create_dir_all(out).map_err(|e| write(out, e))?;
    let recorded = out.join("experiment.ron");
    let text = crate::io::to_ron(experiment);
    if moves.exists() {
        // Another experiment's rows first: "add --resume" is no advice for them.
        let before = std::fs::read_to_string(&recorded).unwrap_or_default();
        if before != text {
            let why = "its experiment.ron differs from this experiment".to_string();
            return Err(AccuracyError::OtherExperiment { dir: out.to_path_buf(), why });
        }
        if !resume {
            return Err(AccuracyError::HasMoves(out.to_path_buf()));
        }
        // The rows kept, written back without a torn last line (a kill mid-write), so the
        // rows appended next start on a line of their own and the file reads whole again.
        let rows = read_moves(moves)?;
        crate::io::write_atomic(moves, moves_csv(&rows).as_bytes())?;
        return Ok(rows);
    }
    crate::io::write_atomic(&recorded, text.as_bytes())?;
    crate::io::write_atomic(moves, moves_csv(&[]).as_bytes())?;
    Ok(Vec::new())
}

/// `moves.csv`'s text for `rows`, header first.
fn moves_csv(rows: &[MoveRow]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(MOVE_COLUMNS);
    for r in rows {
        let _ = w.write_record(r.record());
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// A CSV writer appending to `path` (after a torn last line, on a line of its own).
fn append_writer(path: &Path) -> Result<csv::Writer<std::fs::File>, AccuracyError> {
    let err = |source| AccuracyError::Write { path: path.to_path_buf(), source };
    let mut f = std::fs::OpenOptions::new().append(true).open(path).map_err(err)?;
    let text = std::fs::read(path).map_err(err)?;
    if text.last().is_some_and(|&b| b != b'\n') {
        f.write_all(b"\n").map_err(err)?;
    }
    Ok(csv::WriterBuilder::new().has_headers(false).from_writer(f))
}

/// Each search's seed from the experiment's, the agent, budget, suite and position: the same
/// search gets the same seed in every run and on every machine (FNV-1a of the key).
fn task_seed(seed: u64, agent: &str, budget: &Budget, suite: usize, position: usize) -> u64 {
    let key = format!("{seed}/{agent}/{}/{}/{suite}/{position}", budget.kind(), budget.amount());
    key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// One search of a suite position by an agent under a budget, on this thread; its row.
fn search_one(t: &Task, suite: &Suite, agent: &Measured, control: &SearchControl) -> Option<MoveRow> {
    let p = &suite.positions[t.position];
    let pos = p.position(suite.board).ok()?;
    let limits = t.budget.limits();
    let cpu = thread_cpu_seconds();
    let config = t.budget.sized(&agent.file.agent);
    let result = with_position!(&pos, q => build_agent(&config, t.seed).search(q, &limits, control, &mut NullSink));
    let cpu_seconds = thread_cpu_seconds() - cpu;
    if control.is_stopped() {
        return None;
    }
    let mv = pos.format_move(result.best?);
    let work = if result.stats.iterations > 0 { result.stats.iterations } else { result.stats.nodes };
    let thrown = match p.thrown_away(&mv) {
        Some(1) => "win",
        Some(_) => "draw",
        None => "",
    };
    Some(MoveRow {
        board: suite.board.to_string(),
        agent: agent.name.clone(),
        budget_kind: t.budget.kind().into(),
        budget: t.budget.amount(),
        position: t.position,
        game: p.game,
        tactic: p.tactic,
        mv,
        thrown: thrown.into(),
        keepers: p.keepers(),
        legal: p.values.len(),
        seed: t.seed,
        cpu_seconds,
        work,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_mb(c: &AgentConfig) -> u32 {
        match c {
            AgentConfig::AlphaBeta(c) => c.tt_mb,
            _ => panic!("not alpha-beta"),
        }
    }

    /// A budget's table holds four entries a node it may search, never more than the agent's
    /// own; agents without a table, and MCTS, are left as they are.
    #[test]
    fn a_budget_sizes_the_table_it_can_fill() {
        let ab = crate::agents::preset("strong-ab-v1").unwrap().agent;
        let own = table_mb(&ab);
        assert_eq!(own, 64, "the preset's table, which the sizes below are against");
        // 2^16 nodes: 262,144 entries of 12 bytes, 3 MiB.
        assert_eq!(table_mb(&Budget::Nodes(1 << 16).sized(&ab)), 3);
        assert_eq!(table_mb(&Budget::Nodes(64).sized(&ab)), 1);
        assert_eq!(table_mb(&Budget::Nodes(1 << 24).sized(&ab)), own, "never above the agent's own");
        // 8 ms of CPU: 64,000 nodes at most, 3 MiB.
        assert_eq!(table_mb(&Budget::CpuSeconds(0.008).sized(&ab)), 3);
        assert_eq!(table_mb(&Budget::CpuSeconds(2.0).sized(&ab)), own);
        let AgentConfig::AlphaBeta(mut plain) = ab.clone() else { unreachable!() };
        plain.tt_mb = 0;
        let plain = AgentConfig::AlphaBeta(plain);
        assert_eq!(table_mb(&Budget::Nodes(1 << 16).sized(&plain)), 0, "no table stays none");
        let mcts = crate::agents::preset("strong-mcts").unwrap().agent;
        assert_eq!(Budget::CpuSeconds(0.008).sized(&mcts), mcts);
        // A per-family agent's table is sized in every family.
        let per_family = crate::agents::preset("strong-ab").unwrap().agent;
        let sized = Budget::Nodes(1 << 16).sized(&per_family);
        assert_eq!(sized.each().into_iter().map(table_mb).collect::<Vec<_>>(), [3, 3, 3]);
    }
}
