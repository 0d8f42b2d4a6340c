//! A weak solve by two methods at once: the alpha-beta solver and proof-number search, each on
//! a thread of its own, the first proof answering and the other stopped.
//!
//! Neither method is the faster one everywhere. On free-placement boards proof-number search
//! proved wins and losses 7x to 260x sooner (mnk:6,6,4 after b2: 0.2 s against 46 s), while
//! alpha-beta proves most draws sooner (mnk:7,7,5 from the empty board: about 1 s against
//! 14 s); which kind a position is, nobody knows before the proof. On two cores the race took
//! 0.8x to 1.8x the faster method's time (the table in docs/solver.md).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::gauge::gauged;
use super::{AnySolver, GenericSolver, Leaves, ProofGauge, ProofOutcome, Solution, proof_number_value_with};
use crate::game::{Move, Position};
use crate::search::progress::StopRelay;

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
    let (alphabeta, proof_number) = race_with(pos, pns_mb, leaves, deadline, stop, |halt| {
        let time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let mut solver = AnySolver::new(pos, tt_mb);
        if !leaves.pairings {
            solver = solver.without_pairings();
        }
        let ab = solver.solve(pos, true, time, Some(halt));
        let solved = ab.is_solved();
        (ab, solved)
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

/// Runs `alphabeta` on this thread against proof-number search of `pos`'s weak value on
/// another, until either answers (`alphabeta` returns whether it proved its value), `deadline`
/// passes or `stop` is set. `alphabeta` is handed the flag it must stop on: set by the
/// proof-number search when it answers, and copied from `stop`. Returns both results; the
/// loser's is what it had when stopped. Used by [`race_weak_value`] and by the solver's own
/// searches on free-placement boards (see [`super::AnySolver::racing`]), whose alpha-beta keeps
/// its table between searches.
pub fn race_with<P: Position + Sync, T: Send>(
    pos: &P,
    pns_mb: usize,
    leaves: Leaves,
    deadline: Option<Instant>,
    stop: Option<&Arc<AtomicBool>>,
    alphabeta: impl FnOnce(Arc<AtomicBool>) -> (T, bool),
) -> (T, (Option<i32>, Vec<ProofOutcome>)) {
    // Each method stops on `halt`: set by the first to answer, or copied from `stop`.
    let halt = Arc::new(AtomicBool::new(false));
    let _relay = stop.map(|stop| {
        let stop = Arc::clone(stop);
        StopRelay::new(move || stop.load(Ordering::Relaxed), Arc::clone(&halt))
    });
    std::thread::scope(|scope| {
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
        let (ab, solved) = alphabeta(halt.clone());
        if solved {
            halt.store(true, Ordering::Relaxed);
        }
        let pn = pns.join().expect("the proof-number search thread does not panic");
        (ab, pn)
    })
}

/// What a raced proof of one position found (see [`race_generic`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Raced {
    /// Alpha-beta's bounds (Pons' convention, equal when it proved the value; the whole range
    /// of values when the two methods disagreed, which is a bug in one and never a value).
    Bounds(i32, i32),
    /// Proof-number search answered first: the sign of the value (1, 0, -1), and a move
    /// keeping it when its trees settled one (a win's winning move, a draw's holding move).
    Sign(i32, Option<Move>),
}

/// One of the free-placement solver's own proofs raced against proof-number search: `pos`
/// itself (`after` None) or the position after `after` (`pos` is then that child, and `g`
/// still stands before the move, keeping its table). Alpha-beta proves what was asked
/// (strong or weak, within `known`); proof-number search the sign. The sign of a strong
/// value is all proof-number search gives: on mnk:6,6,4 after a3 it took 11.7 s where
/// alpha-beta took 1071 s for the distance (and 1032 s for the sign alone). Afterwards `g`
/// runs until `halt`'s deadline or stop flag again (the race's own stop flag is left behind). Also
/// returns proof-number search's nodes (alpha-beta's are `g`'s count).
pub(super) fn race_generic<P: Position>(
    g: &mut GenericSolver<P>,
    pos: &P,
    after: Option<Move>,
    weak: bool,
    known: (Option<i32>, Option<i32>),
    (pns_mb, leaves): (usize, Leaves),
    halt: super::Halt,
) -> (Raced, u64) {
    let super::Halt { deadline, stop } = halt;
    let ((lo, hi), (sign, runs)) = race_with(pos, pns_mb, leaves, deadline, stop.as_ref(), |halt| {
        let r = match after {
            Some(m) => g.solve_after(m, weak, known, deadline, Some(halt)),
            None => g.solve_between(weak, known, deadline, Some(halt)),
        };
        let solved = r.0 == r.1 && !g.aborted;
        (r, solved)
    });
    let solved = lo == hi && !g.aborted;
    g.resume(deadline, stop);
    let raced = match (solved, sign) {
        (true, Some(s)) if s != lo.signum() => {
            g.conflict = Some(format!(
                "alpha-beta and proof-number search proved different values ({lo} and {s}) after \"{}\": a bug, please report it; the value is left unproved",
                pos.history_string()
            ));
            let (cells, n) = (pos.max_game_length() as i32, pos.ply() as i32);
            let (lo, hi) = super::value::value_range(cells, n, weak);
            Raced::Bounds(lo, hi)
        }
        (true, _) => Raced::Bounds(lo, hi),
        (false, Some(s)) => Raced::Sign(s, super::proof_number_move(Some(s), &runs)),
        (false, None) => Raced::Bounds(lo, hi),
    };
    (raced, runs.iter().map(|r| r.nodes).sum())
}

/// What [`complete_distances`] may use: the bound on every child's value from the position's
/// (see [`super::MoveProofs`]), the time, the stop flag and the gauge.
pub(super) struct DistancePass {
    pub floor: Option<i32>,
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
    pub gauge: Option<Arc<ProofGauge>>,
}

/// The first slice of time each open distance gets (see [`complete_distances`]).
const FIRST_SLICE: Duration = Duration::from_millis(250);

/// The distances of the wins and losses in `rows` whose sign alone was proved (a racing
/// solver's), by alpha-beta within that sign: after every move has its sign, so one slow
/// distance hides no move's value. Their costs differ by thousands (on mnk:6,6,4 after a3 some
/// losses' took seconds, the win's did not finish in 100 s), so each open one gets a slice of
/// time, wins first, and the slice doubles each round until all are done, `deadline` passes or
/// `stop` is set: the cheap ones come first whatever their order, and a slow one costs at most
/// about twice its time (its table stays). Moves equal up to the board's symmetries are proved
/// once. `each` hears every row completed, with the nodes spent by then (`spent` before).
pub(super) fn complete_distances<P: Position>(
    g: &mut GenericSolver<P>,
    pos: &P,
    rows: &mut [(Move, Option<Solution>)],
    pass: DistancePass,
    mut spent: u64,
    mut each: impl FnMut(Move, &Option<Solution>, u64),
) {
    let DistancePass { floor, deadline, stop, gauge } = pass;
    let (cells, n) = (pos.max_game_length() as i32, pos.ply() as i32);
    let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(rows[i].1.as_ref().map_or(0, |s| s.lower)));
    // Each open row's twin key, computed once.
    let mut open: Vec<(usize, u64)> = order
        .into_iter()
        .filter(|&i| rows[i].1.as_ref().is_some_and(|s| s.weak && s.lower != 0))
        .map(|i| {
            let mut child = pos.clone();
            child.play(rows[i].0);
            child.set_hashing(true);
            (i, child.canonical_hash())
        })
        .collect();
    let mut slice = FIRST_SLICE;
    while !open.is_empty() && !stopped() && !out_of_time() {
        let mut proved: Vec<(u64, Solution)> = Vec::new();
        let mut tried: Vec<u64> = Vec::new();
        for &(i, key) in &open {
            if stopped() || out_of_time() {
                break;
            }
            let (m, row) = &mut rows[i];
            let found = match proved.iter().find(|(k, _)| *k == key) {
                Some((_, s)) => Some(s.clone()),
                // Its twin ran out of its slice this round.
                None if tried.contains(&key) => None,
                None => {
                    tried.push(key);
                    let sign = row.as_ref().map_or(0, |s| s.lower);
                    // The child's value: at most -1 when the move wins, at least 1 when it loses.
                    let known = if sign > 0 { (floor, Some(-1)) } else { (Some(floor.map_or(1, |f| f.max(1))), None) };
                    let until = Some(deadline.map_or(Instant::now() + slice, |d| d.min(Instant::now() + slice)));
                    let (r, nodes) = gauged(g, &gauge, spent, |g| g.solve_after(*m, false, known, until, stop.clone()));
                    spent += nodes;
                    let v = -r.0;
                    let found = (r.0 == r.1 && !g.aborted).then(|| Solution::of_value(v, false, cells, n));
                    if let Some(s) = &found {
                        proved.push((key, s.clone()));
                    }
                    found
                }
            };
            if let Some(s) = found {
                *row = Some(s);
                each(*m, row, spent);
            }
        }
        open.retain(|&(i, _)| rows[i].1.as_ref().is_some_and(|s| s.weak));
        slice *= 2;
    }
}
