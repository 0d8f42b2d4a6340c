//! A tuning run into its folder: `tune.ron` (the file as run), `spsa.csv` (a row a pair:
//! its opening, the plus side's score and the weights after its update, appended a batch at
//! a time as batches finish) and `agent.ron` (the agent with the latest weights, replaced
//! atomically after each batch). A run resumed (`resume`) continues after the last whole
//! batch of `spsa.csv`, with the same results it would have had unbroken.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::tune::{PairResult, Perturbation, Spsa, Tune, TuneError, play_pair};
use crate::agents::AgentFile;
use crate::io::{FileError, write_atomic};
use crate::search::SearchControl;

/// Where and how a tuning run goes.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub out: PathBuf,
    pub resume: bool,
    /// Games at once (within a batch); 0: all cores.
    pub threads: usize,
}

/// Reported after every batch.
pub struct TuneProgress<'a> {
    pub done: u64,
    pub total: u64,
    pub last: &'a PairResult,
    pub weights: &'a [f64],
}

#[derive(Debug, thiserror::Error)]
pub enum TuneRunError {
    #[error("{0}")]
    Setting(#[from] TuneError),
    #[error("{0}")]
    File(#[from] FileError),
    #[error("{path} holds a tuning run: add --resume to continue it, or choose another --out")]
    Exists { path: PathBuf },
    #[error("{path} is another tuning run (its tune.ron differs from this file): resume it with its own file")]
    Different { path: PathBuf },
    #[error("nothing to resume in {path}: no tune.ron there")]
    NothingToResume { path: PathBuf },
    #[error("{path}, line {line}: {message}")]
    Log { path: PathBuf, line: usize, message: String },
    #[error("stopped after {done} of {total} pairs; --resume continues")]
    Stopped { done: u64, total: u64 },
}

/// What a finished run leaves: its weights and the tuned agent's file.
#[derive(Clone, Debug)]
pub struct TuneSummary {
    pub weights: Vec<f64>,
    pub pairs: u64,
    pub agent: AgentFile,
}

/// Runs (or resumes) `tune`; agent files are relative to `base`.
pub fn run_tune(
    tune: &Tune,
    base: &Path,
    opts: &TuneOptions,
    control: &SearchControl,
    mut progress: impl FnMut(TuneProgress),
) -> Result<TuneSummary, TuneRunError> {
    let (file, limits) = tune.resolve(base)?;
    let log = opts.out.join("spsa.csv");
    let mut spsa = Spsa::new(tune, tune.start(&file));
    let done = prepare_folder(tune, opts, &log, &mut spsa)?;
    let threads =
        if opts.threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { opts.threads };
    let mut k = done;
    // The agent of the last batch's weights, as saved (a resumed run that is done has none).
    let mut saved = None;
    while k < tune.pairs {
        let end = (k + tune.batch).min(tune.pairs);
        let jobs: Vec<(u64, Perturbation)> = (k..end).map(|j| (j, spsa.perturb(j))).collect();
        let results = play_batch(tune, &file, limits, &jobs, threads, control)
            .ok_or(TuneRunError::Stopped { done: k, total: tune.pairs })?;
        let mut rows = String::new();
        for ((j, p), r) in jobs.iter().zip(&results) {
            spsa.update(*j, p, 2.0 * r.plus_score - 2.0);
            rows += &log_row(r, &spsa.weights);
        }
        append(&log, &rows)?;
        let agent = tuned_agent(tune, &file, &spsa.weights, end);
        agent.save(&opts.out.join("agent.ron"))?;
        saved = Some(agent);
        k = end;
        progress(TuneProgress {
            done: k,
            total: tune.pairs,
            last: results.last().expect("a batch"),
            weights: &spsa.weights,
        });
    }
    Ok(TuneSummary {
        weights: spsa.weights.clone(),
        pairs: tune.pairs,
        agent: saved.unwrap_or_else(|| tuned_agent(tune, &file, &spsa.weights, k)),
    })
}

/// Checks the folder, writes `tune.ron` and the log's header for a new run, or reads back a
/// resumed run's weights; returns the pairs already done.
fn prepare_folder(tune: &Tune, opts: &TuneOptions, log: &Path, spsa: &mut Spsa) -> Result<u64, TuneRunError> {
    let saved = opts.out.join("tune.ron");
    let text = tune.to_ron();
    if !opts.resume {
        for path in [&saved, &log.to_path_buf()] {
            if path.exists() {
                return Err(TuneRunError::Exists { path: path.clone() });
            }
        }
        std::fs::create_dir_all(&opts.out).map_err(|source| FileError::Write { path: opts.out.clone(), source })?;
        write_atomic(&saved, text.as_bytes())?;
        write_atomic(log, header(tune).as_bytes())?;
        return Ok(0);
    }
    if !saved.exists() {
        return Err(TuneRunError::NothingToResume { path: opts.out.clone() });
    }
    if Tune::load(&saved)?.to_ron() != text {
        return Err(TuneRunError::Different { path: opts.out.clone() });
    }
    let rows = read_log(tune, log)?;
    // Only whole batches count: a batch cut short by a crash is played again, the same way.
    let kept = rows.len() as u64 / tune.batch * tune.batch;
    if kept < rows.len() as u64 {
        let mut text = header(tune);
        for (r, w) in &rows[..kept as usize] {
            text += &log_row(r, w);
        }
        write_atomic(log, text.as_bytes())?;
    }
    if let Some((_, w)) = rows[..kept as usize].last() {
        spsa.weights.clone_from(w);
    }
    Ok(kept)
}

fn header(tune: &Tune) -> String {
    let mut h = String::from("pair,opening,plus_score,plies");
    for p in &tune.parameters {
        h += ",";
        h += &p.name;
    }
    h + "\n"
}

fn log_row(r: &PairResult, weights: &[f64]) -> String {
    // Moves are separated by spaces in the log whatever the opening file used (a comma would
    // split the field).
    let opening = r.opening.replace(',', " ");
    let mut row = format!("{},{opening},{},{}", r.pair, r.plus_score, r.plies);
    for w in weights {
        row += &format!(",{w}");
    }
    row + "\n"
}

/// The log's rows in order (pairs 0, 1, ...), each with its weights; a last line cut short
/// by a crash is left out.
fn read_log(tune: &Tune, log: &Path) -> Result<Vec<(PairResult, Vec<f64>)>, TuneRunError> {
    // A row is about a hundred bytes: a gigabyte is ten million pairs.
    let text = crate::io::read_bounded(log, 1 << 30)?;
    let bad = |line: usize, message: String| TuneRunError::Log { path: log.to_path_buf(), line, message };
    let mut lines = text.split_inclusive('\n');
    if lines.next() != Some(header(tune).as_str()) {
        return Err(bad(1, format!("the header is not {:?}", header(tune).trim_end())));
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let Some(line) = line.strip_suffix('\n') else { break };
        let fields: Vec<&str> = line.split(',').collect();
        let n = 4 + tune.parameters.len();
        if fields.len() != n {
            return Err(bad(i + 2, format!("{} fields, not {n}", fields.len())));
        }
        let num = |s: &str| s.parse::<f64>().map_err(|_| bad(i + 2, format!("{s:?} is not a number")));
        let pair = fields[0].parse::<u64>().map_err(|_| bad(i + 2, format!("{:?} is not a pair number", fields[0])))?;
        if pair != i as u64 {
            return Err(bad(i + 2, format!("pair {pair} where pair {i} belongs")));
        }
        let weights = fields[4..].iter().map(|s| num(s)).collect::<Result<Vec<f64>, _>>()?;
        let r = PairResult {
            pair,
            opening: fields[1].to_string(),
            plus_score: num(fields[2])?,
            plies: num(fields[3])? as u32,
        };
        rows.push((r, weights));
    }
    Ok(rows)
}

fn append(log: &Path, rows: &str) -> Result<(), FileError> {
    let write = |source| FileError::Write { path: log.to_path_buf(), source };
    let mut f = std::fs::OpenOptions::new().append(true).open(log).map_err(write)?;
    f.write_all(rows.as_bytes()).map_err(write)?;
    f.sync_data().map_err(write)
}

fn tuned_agent(tune: &Tune, file: &AgentFile, weights: &[f64], pairs: u64) -> AgentFile {
    let mut f = tune.with_weights(file, weights);
    f.name = tune.name.clone();
    f.description = format!(
        "{} with its heuristic tuned by `mnklab tune` ({}, {pairs} of {} pairs, seed {}).",
        file.name, tune.name, tune.pairs, tune.seed
    );
    f
}

/// Plays a batch's pairs on `threads` threads, results in the batch's order; `None` if
/// `control` stopped a game.
fn play_batch(
    tune: &Tune,
    file: &AgentFile,
    limits: crate::search::SearchLimits,
    jobs: &[(u64, Perturbation)],
    threads: usize,
    control: &SearchControl,
) -> Option<Vec<PairResult>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<PairResult>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, jobs.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((k, p)) = jobs.get(i) else { break };
                    let Some((r, _)) = play_pair(tune, file, limits, *k, p, control) else { break };
                    results.lock().expect("no worker panics holding it")[i] = Some(r);
                }
            });
        }
    });
    results.into_inner().expect("workers done").into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tune(pairs: u64, batch: u64) -> Tune {
        Tune::parse(
            &format!(
                r#"(name: "t", variant: "tictactoe", agent: Inline((name: "ab", agent: AlphaBeta((heuristic: Lim(bonus: 1.0))),
                limits: (depth: Some(2)))), opening: RandomPlies(2), pairs: {pairs}, batch: {batch}, seed: 9,
                parameters: [(name: "bonus", step: 0.5, min: 0.0, max: 10.0)])"#
            ),
            Path::new("t.ron"),
        )
        .unwrap()
    }

    /// A run whose log a crash cut mid-batch, resumed, ends with the weights and the log of
    /// the run unbroken (the cut batch is played again); a new run refuses its folder.
    #[test]
    fn a_resumed_run_equals_an_unbroken_one() {
        let dir = tempfile::tempdir().unwrap();
        let control = SearchControl::new();
        let t = tune(8, 2);
        let whole = TuneOptions { out: dir.path().join("whole"), resume: false, threads: 2 };
        let a = run_tune(&t, Path::new("."), &whole, &control, |_| {}).unwrap();
        let full_log = std::fs::read_to_string(whole.out.join("spsa.csv")).unwrap();
        assert_eq!(full_log.lines().count(), 9);
        // The same run, its log cut after 5 pairs and half a line (a crash mid-batch).
        let cut = TuneOptions { out: dir.path().join("cut"), resume: false, threads: 1 };
        std::fs::create_dir_all(&cut.out).unwrap();
        std::fs::write(cut.out.join("tune.ron"), t.to_ron()).unwrap();
        let lines: Vec<&str> = full_log.split_inclusive('\n').collect();
        let partial = lines[..6].concat() + &lines[6][..5];
        std::fs::write(cut.out.join("spsa.csv"), partial).unwrap();
        assert!(matches!(run_tune(&t, Path::new("."), &cut, &control, |_| {}), Err(TuneRunError::Exists { .. })));
        let resumed = TuneOptions { resume: true, ..cut };
        let b = run_tune(&t, Path::new("."), &resumed, &control, |_| {}).unwrap();
        assert_eq!(a.weights, b.weights);
        assert_eq!(std::fs::read_to_string(resumed.out.join("spsa.csv")).unwrap(), full_log);
        let agent =
            AgentFile::parse(&std::fs::read_to_string(resumed.out.join("agent.ron")).unwrap(), Path::new("agent.ron"))
                .unwrap();
        assert_eq!(t.start(&agent), a.weights);
        // Another file cannot resume this run.
        let other = tune(8, 4);
        assert!(matches!(
            run_tune(&other, Path::new("."), &resumed, &control, |_| {}),
            Err(TuneRunError::Different { .. })
        ));
    }
}
