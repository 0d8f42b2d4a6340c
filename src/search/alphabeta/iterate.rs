//! The main thread's search: iterative deepening, the reply check between depths, the result.

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

use super::lazy_smp::Team;
use super::record::root_moves_from;
use super::{AlphaBeta, Memory, Role, Searcher, max_depth};
use crate::game::Position;
use crate::search::progress::{Clock, RootMove};
use crate::search::score::{INF, WIN_BOUND};
use crate::search::threat_probe::ThreatProbe;
use crate::search::{ProgressSink, Score, SearchControl, SearchEvent, SearchLimits, SearchResult, SearchStats};

impl AlphaBeta {
    /// The search of the main thread (the only one with `threads: 1`): iterative deepening,
    /// progress reports, the result.
    pub(super) fn search_main<P: Position>(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        clock: Clock,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
        team: Option<&Team>,
    ) -> SearchResult {
        self.prepare(pos);
        let memory = Memory { tt: self.tt.as_deref(), history: &mut self.history, threats: self.threats.as_mut() };
        let role = team.map_or(Role::Alone, Role::Main);
        let mut s = Searcher::new(&self.config, pos, memory, clock, control, sink, role);
        let proven = s.deepen(limits);
        if let Some(line) = &s.root_threat {
            let moves: Vec<String> = line.moves.iter().map(|&m| pos.format_move(m)).collect();
            let text = format!("alpha-beta: win by threats in {} plies: {}", line.plies, moves.join(" "));
            s.sink.event(SearchEvent::Notice(text));
        }
        let mut result = s.result(proven);
        if let Some(t) = team {
            t.main_nodes.store(s.nodes, Relaxed);
        }
        self.last_tree = s.last_tree.take();
        result.stats.memory += self.last_tree.as_ref().map_or(0, |t| (t.nodes.len() * 96) as u64);
        result
    }

    /// What a search keeps from the last one, made ready for this one: the table's age, the
    /// history counts (an eighth of them kept), and the threat prover (new if its settings
    /// changed).
    fn prepare<P: Position>(&mut self, pos: &P) {
        if let Some(tt) = self.tt.as_ref() {
            tt.new_search();
        }
        let n = pos.num_actions() * 2;
        if self.history.len() != n {
            self.history = vec![0; n];
        }
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        if let Some(t) = self.config.threats
            && self.threats.as_ref().is_none_or(|p| p.config != t)
        {
            self.threats = Some(ThreatProbe::new(t));
        }
    }
}

/// How an iteration of iterative deepening ended.
enum Iteration {
    /// The depth (or a deeper one a helper finished) is done, with the root's value.
    Done(u32, i32),
    /// The reply check turned the best move down: the same depth again.
    Again,
    /// Stopped by a limit, or nothing to play.
    Stopped,
}

impl<P: Position> Searcher<'_, P> {
    /// Iterative deepening until a limit, the last depth, or a proof: true when the result is
    /// proven (a win or loss found, or the whole game searched with nothing left out).
    fn deepen(&mut self, limits: &SearchLimits) -> bool {
        let cfg = self.cfg;
        let remaining = (self.pos.max_game_length() - self.pos.ply()) as u32;
        let max_depth = max_depth(&self.pos, limits);
        // A fixed-depth search cut by a clock (wall or CPU) or a node limit has no move to give,
        // so those limits deepen iteratively up to the depth: the result is the deepest
        // finished depth.
        let iterative = cfg.iterative_deepening || limits.may_cut();
        let mut depth = if iterative { 1 } else { max_depth };
        let mut last_nodes = 0u64;
        while depth <= max_depth && !self.out_of_nodes() {
            let before = self.nodes;
            let started = self.clock.elapsed();
            let (done, v) = match self.iterate(depth) {
                Iteration::Done(done, v) => (done, v),
                Iteration::Again => continue,
                Iteration::Stopped => break,
            };
            depth = done;
            let p = self.progress(false);
            self.sink.event(SearchEvent::Progress(p));
            let exhaustive = depth >= remaining && cfg.branching_cap.is_none() && cfg.radius.is_none();
            if v.abs() >= WIN_BOUND || exhaustive {
                return true;
            }
            let spent = self.nodes - before;
            if let Some(t) = limits.time.filter(|_| cfg.calibrate_cap) {
                self.calibrate_cap(t, spent, last_nodes, self.clock.elapsed() - started);
            }
            last_nodes = spent.max(1);
            depth += 1;
        }
        false
    }

    /// One iteration at `depth`: the root searched, then its result taken (or a helper's, when
    /// one finished the depth first) and published, unless the reply check turns its move
    /// down.
    fn iterate(&mut self, depth: u32) -> Iteration {
        self.start_iteration(depth);
        // The depth's cost is the team's: the reply check's share is taken from it.
        let before = self.all_nodes();
        let v = self.negamax(depth, 0, -INF, INF, None, 0);
        if self.aborted && self.superseded {
            // A helper finished this depth (or a deeper one) first: its result stands, if its
            // move passes the reply check; else the depth again, the move valued as lost.
            self.aborted = false;
            self.superseded = false;
            let Some((done, value)) = self.adopt_team_result(depth - 1, Some(self.all_nodes() - before)) else {
                return if self.out_of_nodes() || self.control.is_stopped() || self.clock.out_of_time() {
                    Iteration::Stopped
                } else {
                    Iteration::Again
                };
            };
            self.publish_tree(false);
            return Iteration::Done(done, value);
        }
        if self.aborted {
            if self.cfg.unfinished_depth {
                self.take_unfinished_best();
            }
            return Iteration::Stopped;
        }
        let pv = self.completed_line(depth);
        let Some(&best) = pv.first() else { return Iteration::Stopped };
        if v.abs() < WIN_BOUND && self.refuted_by_threats(best, self.all_nodes() - before) {
            // The depth again without it: the completed result stays the last depth's, whose
            // move the check passed.
            return Iteration::Again;
        }
        // Root statistics from the recorded tree (values of the root's children).
        self.root_moves = root_moves_from(&self.tree, self.cfg.prefer_faster_wins);
        self.completed = Some((best, v, pv, depth));
        self.last_tree = Some(Arc::new(self.partial_tree()));
        self.publish_tree(true);
        Iteration::Done(depth, v)
    }

    /// What an iteration at `depth` starts from, on every thread: no tree recorded, no root
    /// move valued, and the root moves the team's reply check refuted.
    pub(super) fn start_iteration(&mut self, depth: u32) {
        self.tree.clear();
        self.path.clear();
        self.unfinished.clear();
        self.iteration = depth;
        self.take_team_refutations();
    }

    /// [`AlphaBetaConfig::unfinished_depth`]: after a limit stopped the iteration under way,
    /// its best move becomes the result if it is not the last finished depth's best, which
    /// this iteration valued exactly too, below it. The reply check, when on, must have passed
    /// the move at an earlier depth (a check now would overrun the limit). The candidates
    /// become this depth's, so that none of an older depth's values stands above the move.
    fn take_unfinished_best(&mut self) {
        let Some((last, _, _, done)) = self.completed.clone() else { return };
        // The root raises its window with each better move: the last exact value is the best.
        let Some(&(best, value, _)) = self.unfinished.iter().rev().find(|u| !u.2) else { return };
        let last_valued = self.unfinished.iter().any(|u| u.0 == last && !u.2);
        if best == last || !last_valued || !self.check_passed(best) || self.pv[0].first() != Some(&best) {
            return;
        }
        let line = self.completed_line(self.iteration);
        let distances = self.cfg.prefer_faster_wins;
        self.root_moves = self
            .unfinished
            .iter()
            .map(|&(mv, v, upper_bound)| RootMove {
                mv,
                visits: 0,
                value: v as f64,
                score: Score::from_value(v, distances),
                upper_bound,
                pv: Vec::new(),
            })
            .collect();
        self.completed = Some((best, value, line, done));
    }

    /// Flecart's timer calibration, after an iteration that took `spent` nodes and `took`
    /// seconds (the one before it `last_nodes`): the next is predicted from this growth, and
    /// the branching cap shrinks by a third (down to 2) when it would not fit in the time
    /// limit `time`.
    fn calibrate_cap(&mut self, time: f64, spent: u64, last_nodes: u64, took: f64) {
        let growth = if last_nodes > 0 { spent as f64 / last_nodes as f64 } else { 4.0 };
        let left = time - self.clock.elapsed();
        if took * growth > left
            && let Some(q) = self.cap
        {
            self.cap = Some((q * 2 / 3).max(2));
        }
    }

    /// The search's result, its last report sent: the deepest finished depth's (or a
    /// helper's deeper one), or a legal move flagged unsearched when none finished.
    fn result(&mut self, proven: bool) -> SearchResult {
        // Stopped before it finished a depth a helper finished: the helper's result stands.
        self.adopt_team_result(self.completed.as_ref().map_or(0, |c| c.3), None);
        let unsearched = self.completed.is_none();
        let (best, value, pv, depth) = match self.completed.clone() {
            Some(c) => c,
            None => {
                // Stopped before depth 1 finished: a legal move, flagged as unsearched.
                let mut moves = Vec::new();
                self.pos.legal_moves(&mut moves);
                (moves[0], 0, Vec::new(), 0)
            }
        };
        let score = if unsearched {
            Score::Unknown
        } else if proven && value == 0 {
            Score::Draw
        } else {
            Score::from_value(value, self.cfg.prefer_faster_wins)
        };
        let result = SearchResult {
            best: Some(best),
            score,
            pv,
            stats: SearchStats {
                nodes: self.all_nodes(),
                iterations: 0,
                depth,
                elapsed: self.clock.elapsed(),
                memory: self.tt.as_ref().map_or(0, |t| t.memory()),
                tt_hits: self.tt_hits,
            },
            root: self.root_moves.clone(),
            unsearched,
        };
        let mut last = self.progress(true);
        last.score = result.score;
        self.sink.event(SearchEvent::Progress(last));
        result
    }
}
