//! Running a matchup on all cores: one game per worker (each search single-threaded, for
//! fairness), each finished game appended to the results at once, resumable, cancelable, and
//! deterministic: game i depends only on the base seed and i, whatever the thread count.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use super::conditions::{CONDITIONS_FILE, RunConditions};
use super::entrants::{EntrantError, ResolvedEntrant};
use super::game::{GameRecord, play_game};
use super::matchup::{Matchup, MatchupError, MatchupProblem};
use super::results::{
    MATCHUP_FILE, RESULTS_FILE, ResultsError, ResultsWriter, for_each_result, read_results, write_csv_from_results,
};
use super::stats::{PairStats, Summarizer};
use super::time_use::TimeUseCounter;
use crate::gomocup::EngineError;
use crate::io::{FileError, write_atomic};
use crate::search::{SearchControl, SettingError};

#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads (0: the matchup's setting, and 0 there: all cores).
    pub threads: usize,
    pub out: PathBuf,
    /// Continue the results already in `out`.
    pub resume: bool,
    /// Multiplies every time budget.
    pub scale: f64,
    /// Overrides the games per pairing.
    pub games: Option<u32>,
    /// Run only games with index % n == i: (i, n).
    pub shard: Option<(u64, u64)>,
}

/// Why a run did not start or did not finish. Every check that refuses a run is made before
/// anything is written; `out` is the run's folder.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The matchup's `games` as `--games` set it.
    #[error("--games: {0}")]
    Games(#[source] MatchupError),
    #[error(transparent)]
    Matchup(#[from] MatchupError),
    #[error("{0}")]
    Variants(#[source] MatchupProblem),
    #[error(transparent)]
    Entrant(#[from] EntrantError),
    /// An entrant's limits times `--scale` are out of range.
    #[error("agents[{index}] ({name}) with --scale {scale}: {source}")]
    Scaled { index: usize, name: String, scale: f64, source: SettingError },
    /// An external program that does not start would forfeit every game.
    #[error("{name} ({command}): {source}")]
    Program { name: String, command: String, source: EngineError },
    #[error("cannot create {}: {source}", .out.display())]
    CreateFolder { out: PathBuf, source: std::io::Error },
    #[error("{} already holds results: add --resume to continue them, or choose another --out", .0.display())]
    HoldsResults(PathBuf),
    #[error(
        "{} holds results of a different matchup ({difference}): resume with the same file and options (--games too)",
        .out.display()
    )]
    OtherMatchup { out: PathBuf, difference: String },
    #[error(
        "{} holds games but no {CONDITIONS_FILE} (a run of an older mnklab): what they were played with cannot be checked, so they are not resumed; run into another --out",
        .0.display()
    )]
    NoConditions(PathBuf),
    #[error(
        "{}: its games were played under other conditions than these, so they are not resumed:\n  {}\nresume with the same files and --scale, or run into another --out",
        .out.display(), .differences.join("\n  ")
    )]
    OtherConditions { out: PathBuf, differences: Vec<String> },
    #[error(transparent)]
    Results(#[from] ResultsError),
    #[error(transparent)]
    File(#[from] FileError),
}

/// What the runner reports as games finish.
#[derive(Clone, Debug)]
pub struct ArenaProgress {
    pub done: u64,
    pub total: u64,
    pub game: GameRecord,
}

/// The matchup actually run (with `--games` applied): what the output folder records.
pub fn effective_matchup(m: &Matchup, opts: &RunOptions) -> Matchup {
    let mut m = m.clone();
    if let Some(g) = opts.games {
        m.games = g;
    }
    m
}

/// The number of games of a schedule of `len` in shard (i, n): indices with index % n == i.
pub fn shard_len(len: u64, shard: Option<(u64, u64)>) -> u64 {
    match shard {
        None => len,
        Some((i, n)) => (len + n - 1 - i) / n,
    }
}

/// What a run leaves beside its files: the statistics of every game in `out` (those resumed
/// too) and counts worth reporting.
#[derive(Clone, Debug, Default)]
pub struct RunSummary {
    pub games: u64,
    pub stats: Vec<PairStats>,
    pub forfeits: u64,
    pub unsearched_moves: u64,
    /// Time used against time allowed, per entrant with a fixed time a move.
    pub time_use: Vec<super::time_use::TimeUse>,
}

/// Games at a time on `cores` cores when each game's agents search on up to `threads` threads
/// each: games x threads stay within the cores (one game at least).
pub fn default_workers(cores: usize, threads: impl Iterator<Item = u32>) -> usize {
    (cores / threads.max().unwrap_or(1).max(1) as usize).max(1)
}

/// Runs (or resumes) a matchup; `base` is the folder agent file paths are relative to.
/// Calls `on_game` on this thread as each game is saved. Returns every game in `out`: for
/// long runs prefer [`run_matchup_summary`], which never holds the games in memory.
pub fn run_matchup(
    matchup: &Matchup,
    base: &Path,
    opts: &RunOptions,
    control: &SearchControl,
    on_game: impl FnMut(&ArenaProgress),
) -> Result<Vec<GameRecord>, RunError> {
    run_matchup_summary(matchup, base, opts, control, on_game)?;
    let mut all = read_results(&opts.out.join(RESULTS_FILE))?;
    all.sort_by_key(|r| r.index);
    Ok(all)
}

/// [`run_matchup`] in bounded memory: finished games go to the results file as they arrive
/// and are summarised a game at a time; the CSV exports are streamed from the results file.
pub fn run_matchup_summary(
    matchup: &Matchup,
    base: &Path,
    opts: &RunOptions,
    control: &SearchControl,
    mut on_game: impl FnMut(&ArenaProgress),
) -> Result<RunSummary, RunError> {
    let m = effective_matchup(matchup, opts);
    let entrants = resolve_checked(&m, base, opts)?;
    std::fs::create_dir_all(&opts.out).map_err(|source| RunError::CreateFolder { out: opts.out.clone(), source })?;
    let matchup_path = opts.out.join(MATCHUP_FILE);
    let results_path = opts.out.join(RESULTS_FILE);
    let mut conditions = RunConditions::new(&entrants, opts.scale);
    if opts.resume
        && let Some(saved) = check_resumable(&m, &conditions, &opts.out)?
    {
        conditions = conditions.with_commits_of(&saved);
    }
    let mut tally = Tally::new(&conditions);
    // Indices of the games already done, and their statistics: not the games themselves.
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let done = tally_saved(&m, &names, opts, &results_path, &mut tally)?;
    write_atomic(&matchup_path, m.to_ron().as_bytes())?;
    conditions.save(&opts.out.join(CONDITIONS_FILE))?;

    let total = shard_len(m.schedule_len(), opts.shard);
    // Taken one game at a time by the workers: the schedule is never held in memory whole.
    let pending = std::sync::Mutex::new(m.shard_schedule(opts.shard).filter(|g| !done.contains(&g.index)));
    let left = total.saturating_sub(done.len() as u64);
    let pairings: Vec<(crate::game::Variant, (usize, usize))> = {
        let variants = m.variant_list().map_err(RunError::Variants)?;
        variants.iter().flat_map(|&v| m.pairings().into_iter().map(move |p| (v, p))).collect()
    };
    let settled: Vec<std::sync::atomic::AtomicBool> = pairings.iter().map(|_| Default::default()).collect();
    // With an SPRT, games are counted (written and tallied) in each pairing's schedule order.
    let mut gate = super::sprt_gate::SprtGate::new(&m, &pairings, &done, &tally.summary, &settled);
    let threads = worker_count(opts, &m, &entrants);

    let mut writer = ResultsWriter::open(&results_path)?;
    // Bounded: workers wait for the writer rather than piling finished games up in memory.
    let (tx, rx) = crossbeam_channel::bounded::<GameRecord>(2 * threads);
    let mut error = None;
    std::thread::scope(|scope| {
        for _ in 0..(threads as u64).min(left.max(1)) {
            let tx = tx.clone();
            let (pending, entrants, m, settled, pairings) = (&pending, &entrants, &m, &settled, &pairings);
            scope.spawn(move || {
                loop {
                    if control.is_stopped() {
                        break;
                    }
                    let next = pending.lock().unwrap_or_else(|e| e.into_inner()).next();
                    let Some(spec) = next else { break };
                    let k = pairings.iter().position(|p| *p == (spec.variant, spec.pairing));
                    if k.is_some_and(|k| settled[k].load(Ordering::Relaxed)) {
                        continue;
                    }
                    if let Some(mut r) = play_game(&spec, entrants, &m.opening, opts.scale, control) {
                        r.commit = Some(crate::COMMIT.to_string());
                        let _ = tx.send(r);
                    }
                }
            });
        }
        drop(tx);
        for finished in rx {
            let counted = match gate.as_mut() {
                Some(gate) => gate.admit(finished, &settled),
                None => vec![finished],
            };
            for r in counted {
                if error.is_none()
                    && let Err(e) = writer.append(&r)
                {
                    error = Some(e);
                    control.stop();
                }
                tally.add(&r);
                on_game(&ArenaProgress { done: tally.totals.games, total, game: r });
            }
        }
    });
    if let Some(e) = error {
        return Err(e.into());
    }
    write_csv_from_results(&opts.out, &results_path, Some(&conditions))?;
    Ok(tally.finish())
}

/// The matchup's entrants, every check a run makes before it writes anything passed: the
/// schedule, each entrant's scaled limits, and consent to the external programs it starts (a
/// run refused here leaves no folder behind).
fn resolve_checked(m: &Matchup, base: &Path, opts: &RunOptions) -> Result<Vec<ResolvedEntrant>, RunError> {
    // `--games` is checked as the file's `games` is (an odd count with an opening).
    m.check().map_err(|e| if opts.games.is_some() { RunError::Games(e) } else { RunError::Matchup(e) })?;
    let entrants = m.resolve(base)?;
    for (index, e) in entrants.iter().enumerate() {
        e.limits.scaled(opts.scale).validate().map_err(|source| RunError::Scaled {
            index,
            name: e.name.clone(),
            scale: opts.scale,
            source,
        })?;
    }
    check_external_programs(m, &entrants)?;
    Ok(entrants)
}

/// What a run has counted of its games, one at a time: the statistics, the totals and the
/// agents' use of their time.
struct Tally {
    summary: Summarizer,
    totals: RunSummary,
    time_use: TimeUseCounter,
}

impl Tally {
    fn new(conditions: &RunConditions) -> Tally {
        Tally {
            summary: Summarizer::default(),
            totals: RunSummary::default(),
            time_use: TimeUseCounter::new(conditions),
        }
    }

    fn add(&mut self, r: &GameRecord) {
        self.time_use.add(r);
        self.summary.add(r);
        self.totals.games += 1;
        self.totals.forfeits += r.forfeit.is_some() as u64;
        self.totals.unsearched_moves += r.moves.iter().filter(|m| m.unsearched).count() as u64;
    }

    fn finish(self) -> RunSummary {
        RunSummary { stats: self.summary.finish(), time_use: self.time_use.finish(), ..self.totals }
    }
}

/// Counts the games already in the results file and returns their indices. A folder holding
/// results is continued only with `--resume`, and then only with this matchup's games, each once.
fn tally_saved(
    m: &Matchup,
    names: &[String],
    opts: &RunOptions,
    results_path: &Path,
    tally: &mut Tally,
) -> Result<std::collections::HashSet<u64>, RunError> {
    let mut done = std::collections::HashSet::new();
    let path = || results_path.to_path_buf();
    for_each_result(results_path, |r| {
        // Games of another matchup (or edited by hand) would skew what is resumed and summarised.
        if opts.resume {
            m.check_record(&r, Some(names))
                .map_err(|problem| ResultsError::NotThisMatchup { path: path(), problem: Box::new(problem) })?;
        }
        if !done.insert(r.index) && opts.resume {
            return Err(ResultsError::Twice { path: path(), index: r.index, hint: false });
        }
        tally.add(&r);
        Ok(())
    })?;
    if !opts.resume && !done.is_empty() {
        return Err(RunError::HoldsResults(opts.out.clone()));
    }
    Ok(done)
}

/// Games played at a time: `--threads`, else the matchup's, else all cores with a game's
/// search threads counted (games x threads stay within the cores).
fn worker_count(opts: &RunOptions, m: &Matchup, entrants: &[ResolvedEntrant]) -> usize {
    match (opts.threads, m.threads) {
        (0, 0) => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            default_workers(cores, entrants.iter().map(|e| e.file.agent.threads()))
        }
        (0, t) => t as usize,
        (t, _) => t,
    }
    .max(1)
}

/// Refuses to resume into `out` a run of another matchup, or one whose games were played
/// under other conditions (an agent file edited since, another `--scale`): they are never
/// mixed into one summary. Returns the conditions saved in `out`, if any.
fn check_resumable(m: &Matchup, now: &RunConditions, out: &Path) -> Result<Option<RunConditions>, RunError> {
    if let Ok(saved) = crate::io::read_text(&out.join(MATCHUP_FILE))
        && saved != m.to_ron()
    {
        let difference = super::conditions::first_difference(&saved, &m.to_ron());
        return Err(RunError::OtherMatchup { out: out.to_path_buf(), difference });
    }
    let path = out.join(CONDITIONS_FILE);
    let has_games = std::fs::metadata(out.join(RESULTS_FILE)).is_ok_and(|m| m.len() > 0);
    if has_games && !path.exists() {
        return Err(RunError::NoConditions(out.to_path_buf()));
    }
    if path.exists() {
        let saved = RunConditions::load(&path)?;
        let differences = saved.differences(now);
        if !differences.is_empty() {
            return Err(RunError::OtherConditions { out: out.to_path_buf(), differences });
        }
        return Ok(Some(saved));
    }
    Ok(None)
}

/// Starts each external program once, for each variant, before the first game: one that
/// cannot start (a wrong path) would otherwise forfeit every game of the run.
fn check_external_programs(m: &Matchup, entrants: &[ResolvedEntrant]) -> Result<(), RunError> {
    let variants = m.variant_list().map_err(RunError::Variants)?;
    for e in entrants {
        if let crate::agents::AgentConfig::External(c) = &e.file.agent {
            for &v in &variants {
                crate::gomocup::check_starts(c, v).map_err(|source| RunError::Program {
                    name: e.name.clone(),
                    command: c.command_line(),
                    source,
                })?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod worker_tests {
    use super::default_workers;

    #[test]
    fn games_times_threads_stay_within_the_cores() {
        assert_eq!(default_workers(8, [1, 1].into_iter()), 8);
        assert_eq!(default_workers(8, [2, 1].into_iter()), 4);
        assert_eq!(default_workers(8, [3, 1].into_iter()), 2);
        assert_eq!(default_workers(2, [4].into_iter()), 1);
        assert_eq!(default_workers(1, std::iter::empty()), 1);
    }
}
