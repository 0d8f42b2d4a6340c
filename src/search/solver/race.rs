//! A weak solve by two methods at once: the alpha-beta solver and proof-number search, each on
//! a thread of its own, the first proof answering and the other stopped.
//!
//! Neither method is the faster one everywhere. On free-placement boards proof-number search
//! proved wins and losses 7x to 260x sooner (mnk:6,6,4 after b2: 0.2 s against 46 s), while
//! alpha-beta proves most draws sooner (mnk:7,7,5 from the empty board: about 1 s against
//! 14 s); which kind a position is, nobody knows before the proof. On two cores the race took
//! 0.8x to 1.8x the faster method's time (the README's table).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{AnySolver, Leaves, ProofOutcome, Solution, proof_number_value_with};
use crate::game::Position;

/// Which method answered a race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceWinner {
    AlphaBeta,
    ProofNumber,
}

impl std::fmt::Display for RaceWinner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RaceWinner::AlphaBeta => "alpha-beta",
            RaceWinner::ProofNumber => "proof-number search",
        })
    }
}

/// What a race found: the weak value (1 win, 0 draw, -1 loss for the side to move) when
/// either method proved it, which one did, and both methods' own reports (the one that lost
/// the race stopped where it was).
#[derive(Clone, Debug)]
pub struct RaceOutcome {
    pub value: Option<i32>,
    pub winner: Option<RaceWinner>,
    pub alphabeta: Solution,
    pub proof_number: (Option<i32>, Vec<ProofOutcome>),
    /// Both answered and their values differ: one of them is wrong, so neither is given.
    pub conflict: bool,
    /// Seconds, the whole race.
    pub elapsed: f64,
}

/// Races the alpha-beta solver (a table of `tt_mb` MiB) against proof-number search
/// (`pns_mb` MiB for its tree) for the weak value of `pos`, until one proves it, `deadline`
/// passes or `stop` is set. Both methods' values are proofs, so whichever answers is the
/// value; where both answered (at nearly the same moment) they are checked to agree, and a
/// disagreement (a bug in one of them) is reported as `conflict`, with no value.
pub fn race_weak_value<P: Position + Sync>(
    pos: &P,
    tt_mb: usize,
    pns_mb: usize,
    leaves: Leaves,
    deadline: Option<Instant>,
    stop: Option<&Arc<AtomicBool>>,
) -> RaceOutcome {
    let start = Instant::now();
    // Each method stops on `halt`: set by the first to answer, or copied from `stop`.
    let halt = Arc::new(AtomicBool::new(false));
    let done = AtomicBool::new(false);
    let (alphabeta, proof_number) = std::thread::scope(|scope| {
        if let Some(stop) = stop {
            let (halt, done) = (&halt, &done);
            scope.spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    if stop.load(Ordering::Relaxed) {
                        halt.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            });
        }
        let pns = {
            let halt = halt.clone();
            scope.spawn(move || {
                let r = proof_number_value_with(pos, pns_mb, deadline, Some(&halt), leaves);
                if r.0.is_some() {
                    halt.store(true, Ordering::Relaxed);
                }
                r
            })
        };
        let time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let mut solver = AnySolver::new(pos, tt_mb);
        if !leaves.pairings {
            solver = solver.without_pairings();
        }
        let ab = solver.solve(pos, true, time, Some(halt.clone()));
        if ab.is_solved() {
            halt.store(true, Ordering::Relaxed);
        }
        let pn = pns.join().expect("the proof-number search thread does not panic");
        done.store(true, Ordering::Relaxed);
        (ab, pn)
    });
    let ab_value = alphabeta.is_solved().then_some(alphabeta.lower.signum());
    let conflict = matches!((ab_value, proof_number.0), (Some(a), Some(b)) if a != b);
    // Which finished first is not recorded by either; the faster one set `halt`, and the
    // other then ended without a value, except in a near tie (both values, equal).
    let winner = match (ab_value, proof_number.0) {
        (Some(_), None) => Some(RaceWinner::AlphaBeta),
        (None, Some(_)) => Some(RaceWinner::ProofNumber),
        (Some(_), Some(_)) => Some(if alphabeta.elapsed <= proof_number.1.iter().map(|r| r.elapsed).sum::<f64>() {
            RaceWinner::AlphaBeta
        } else {
            RaceWinner::ProofNumber
        }),
        (None, None) => None,
    };
    RaceOutcome {
        value: if conflict { None } else { ab_value.or(proof_number.0) },
        winner: if conflict { None } else { winner },
        conflict,
        alphabeta,
        proof_number,
        elapsed: start.elapsed().as_secs_f64(),
    }
}
