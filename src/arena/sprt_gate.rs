//! An SPRT that stops each pairing at the same game on every run, however many workers play
//! and in whatever order their games finish. A pairing's games count in schedule order: a
//! game that finishes before an earlier game of its pairing waits for it, and the test is
//! taken after each game of that order. Once it crosses a bound the pairing is settled: no
//! further game of it starts, and one already under way is dropped when it finishes (it
//! lies past the stopping point). The results file then holds, for each pairing, the games
//! up to its stopping point, which a resumed run continues exactly: judged as games arrive
//! (as before), the stopping point, and so every count and rating after it, depended on the
//! workers' timing, and a resumed run played on past it.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};

use super::GameRecord;
use super::matchup::{Matchup, SprtConfig};
use super::stats::{Summarizer, sprt_bounds, sprt_llr};
use crate::game::Variant;

/// A pairing's key: its board and its entrants, the lower first.
pub type PairingKey = (Variant, (usize, usize));

/// The test's state for every pairing of a matchup with an SPRT.
pub struct SprtGate {
    sprt: SprtConfig,
    pairings: Vec<PairingKey>,
    /// A pairing's scheduled games not yet counted, in schedule order.
    waiting: Vec<VecDeque<u64>>,
    /// Games finished before an earlier game of their pairing.
    held: Vec<BTreeMap<u64, GameRecord>>,
    /// Wins, draws and losses of the pairing's lower entrant over the games counted.
    counts: Vec<[u32; 3]>,
}

impl SprtGate {
    /// The gate of matchup `m` over `pairings`, its games in `done` already counted (their
    /// tallies in `summary`); `settled` is set for pairings the saved games already settle.
    pub fn new(
        m: &Matchup,
        pairings: &[PairingKey],
        done: &HashSet<u64>,
        summary: &Summarizer,
        settled: &[AtomicBool],
    ) -> Option<SprtGate> {
        let sprt = m.sprt?;
        let mut waiting = vec![VecDeque::new(); pairings.len()];
        for g in m.schedule().filter(|g| !done.contains(&g.index)) {
            if let Some(k) = pairings.iter().position(|p| *p == (g.variant, g.pairing)) {
                waiting[k].push_back(g.index);
            }
        }
        let counts: Vec<[u32; 3]> = pairings
            .iter()
            .map(|&(v, (a, b))| summary.pair(v, a, b).map_or([0; 3], |s| [s.wins, s.draws, s.losses]))
            .collect();
        let gate = SprtGate {
            sprt,
            pairings: pairings.to_vec(),
            waiting,
            held: vec![BTreeMap::new(); pairings.len()],
            counts,
        };
        for (k, flag) in settled.iter().enumerate() {
            if gate.decided(k) {
                flag.store(true, Ordering::Relaxed);
            }
        }
        Some(gate)
    }

    /// Whether pairing `k`'s games counted so far cross a bound of the test.
    fn decided(&self, k: usize) -> bool {
        let [w, d, l] = self.counts[k].map(f64::from);
        let llr = sprt_llr(w, d, l, self.sprt.elo0, self.sprt.elo1);
        let (lower, upper) = sprt_bounds(self.sprt.alpha, self.sprt.beta);
        llr <= lower || llr >= upper
    }

    /// A finished game: the games now counted, in schedule order (none while an earlier game
    /// of its pairing is still playing, none past the pairing's stopping point). Sets
    /// `settled[k]` when the pairing stops.
    pub fn admit(&mut self, r: GameRecord, settled: &[AtomicBool]) -> Vec<GameRecord> {
        let (lo, hi) = (r.players[0].min(r.players[1]), r.players[0].max(r.players[1]));
        let Some(k) = self.pairings.iter().position(|p| *p == (r.variant, (lo, hi))) else { return vec![r] };
        if settled[k].load(Ordering::Relaxed) {
            return Vec::new();
        }
        self.held[k].insert(r.index, r);
        let mut counted = Vec::new();
        while let Some(&next) = self.waiting[k].front() {
            let Some(game) = self.held[k].remove(&next) else { break };
            self.waiting[k].pop_front();
            match game.score_of(lo) {
                Some(1.0) => self.counts[k][0] += 1,
                Some(0.5) => self.counts[k][1] += 1,
                _ => self.counts[k][2] += 1,
            }
            counted.push(game);
            if self.decided(k) {
                settled[k].store(true, Ordering::Relaxed);
                self.held[k].clear();
                break;
            }
        }
        counted
    }
}
