//! Running a matchup on all cores: one game per worker (each search single-threaded, for
//! fairness), each finished game appended to the results at once, resumable, cancelable, and
//! deterministic: game i depends only on the base seed and i, whatever the thread count.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::game::{GameRecord, play_game};
use super::matchup::{GameSpec, Matchup};
use super::results::{MATCHUP_FILE, RESULTS_FILE, ResultsWriter, read_results, write_csv};
use super::stats::{sprt_bounds, sprt_llr};
use crate::io::write_atomic;
use crate::search::SearchControl;

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

/// What the runner reports as games finish.
#[derive(Clone, Debug)]
pub struct ArenaProgress {
    pub done: usize,
    pub total: usize,
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

/// Runs (or resumes) a matchup; `base` is the folder agent file paths are relative to.
/// Calls `on_game` on this thread as each game is saved. Returns every game in `out`.
pub fn run_matchup(
    matchup: &Matchup,
    base: &Path,
    opts: &RunOptions,
    control: &SearchControl,
    mut on_game: impl FnMut(&ArenaProgress),
) -> Result<Vec<GameRecord>, String> {
    let m = effective_matchup(matchup, opts);
    let entrants = m.resolve(base)?;
    std::fs::create_dir_all(&opts.out).map_err(|e| format!("cannot create {}: {e}", opts.out.display()))?;
    let matchup_path = opts.out.join(MATCHUP_FILE);
    let results_path = opts.out.join(RESULTS_FILE);
    let existing = read_results(&results_path)?;
    if opts.resume {
        if let Ok(saved) = std::fs::read_to_string(&matchup_path)
            && saved != m.to_ron()
        {
            return Err(format!(
                "{} holds results of a different matchup: resume with the same file and options",
                opts.out.display()
            ));
        }
    } else if !existing.is_empty() {
        return Err(format!(
            "{} already holds results: add --resume to continue them, or choose another --out",
            opts.out.display()
        ));
    }
    write_atomic(&matchup_path, m.to_ron().as_bytes()).map_err(|e| e.to_string())?;

    let done: std::collections::HashSet<u64> = existing.iter().map(|r| r.index).collect();
    let schedule: Vec<GameSpec> =
        m.schedule().into_iter().filter(|g| opts.shard.is_none_or(|(i, n)| g.index % n == i)).collect();
    let total = schedule.len();
    let pending: Vec<GameSpec> = schedule.into_iter().filter(|g| !done.contains(&g.index)).collect();
    let mut all = existing;
    let pairings: Vec<(crate::game::Variant, (usize, usize))> = {
        let mut v = Vec::new();
        for g in &pending {
            if !v.contains(&(g.variant, g.pairing)) {
                v.push((g.variant, g.pairing));
            }
        }
        v
    };
    let settled: Vec<std::sync::atomic::AtomicBool> = pairings.iter().map(|_| Default::default()).collect();
    let threads = match (opts.threads, m.threads) {
        (0, 0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        (0, t) => t as usize,
        (t, _) => t,
    }
    .max(1);

    let mut writer = ResultsWriter::open(&results_path)?;
    let next = AtomicUsize::new(0);
    let (tx, rx) = crossbeam_channel::unbounded::<GameRecord>();
    let mut error = None;
    std::thread::scope(|scope| {
        for _ in 0..threads.min(pending.len().max(1)) {
            let tx = tx.clone();
            let (next, pending, entrants, m, settled, pairings) = (&next, &pending, &entrants, &m, &settled, &pairings);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= pending.len() || control.is_stopped() {
                        break;
                    }
                    let spec = &pending[i];
                    let k = pairings.iter().position(|p| *p == (spec.variant, spec.pairing)).unwrap();
                    if settled[k].load(Ordering::Relaxed) {
                        continue;
                    }
                    if let Some(r) = play_game(spec, entrants, &m.opening, opts.scale, control) {
                        let _ = tx.send(r);
                    }
                }
            });
        }
        drop(tx);
        for r in rx {
            if error.is_none()
                && let Err(e) = writer.append(&r)
            {
                error = Some(e);
                control.stop();
            }
            all.push(r.clone());
            // SPRT: settle a pairing once its evidence crosses a bound.
            if let Some(sprt) = &m.sprt {
                let key = (r.variant, (r.players[0].min(r.players[1]), r.players[0].max(r.players[1])));
                if let Some(k) = pairings.iter().position(|p| *p == key) {
                    let a = key.1.0;
                    let scores: Vec<f64> = all
                        .iter()
                        .filter(|g| g.variant == key.0 && g.players.contains(&key.1.0) && g.players.contains(&key.1.1))
                        .filter_map(|g| g.score_of(a))
                        .collect();
                    let w = scores.iter().filter(|&&s| s == 1.0).count() as f64;
                    let d = scores.iter().filter(|&&s| s == 0.5).count() as f64;
                    let l = scores.len() as f64 - w - d;
                    let llr = sprt_llr(w, d, l, sprt.elo0, sprt.elo1);
                    let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
                    if llr <= lower || llr >= upper {
                        settled[k].store(true, Ordering::Relaxed);
                    }
                }
            }
            on_game(&ArenaProgress { done: all.len(), total, game: r });
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    all.sort_by_key(|r| r.index);
    write_csv(&opts.out, &all)?;
    Ok(all)
}
