//! The searcher's construction, its node budget and limits, and what it reports.

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

use super::record::{prune_snapshot, root_moves_from};
use super::{AlphaBetaConfig, Memory, Role, Searcher};
use crate::eval::HeuristicConfig;
use crate::game::{Move, Position, Status, Variant};
use crate::search::progress::Clock;
use crate::search::score::{WIN, WIN_BOUND};
use crate::search::threat_probe::ThreatProbe;
use crate::search::tree::Bound;
use crate::search::{Progress, ProgressSink, Score, SearchControl, SearchEvent};

impl<'a, P: Position> Searcher<'a, P> {
    pub(super) fn new(
        cfg: &'a AlphaBetaConfig,
        pos: &P,
        memory: Memory<'a>,
        clock: Clock,
        control: &'a SearchControl,
        sink: &'a mut dyn ProgressSink,
        role: Role<'a>,
    ) -> Searcher<'a, P> {
        let Memory { tt, history, threats } = memory;
        let threats = threats.filter(|_| ThreatProbe::applies(pos));
        let (team, helper) = match role {
            Role::Alone => (None, false),
            Role::Main(t) => (Some(t), false),
            Role::Helper(t) => (Some(t), true),
        };
        let three_d = matches!(pos.variant(), Variant::Connect3d);
        let exact = pos.variant().grid().is_some_and(|r| r.exact());
        // Work a search never reads is skipped: the hashes without a table, the threat windows
        // without tactics (Flecart's heuristic reads them too).
        let mut own = pos.clone();
        // The threat prover's table is keyed by the position's hash, as the table is.
        if tt.is_none() && threats.is_none() {
            own.set_hashing(false);
        }
        let mut board = cfg.heuristic.board(pos);
        if threats.is_some() {
            board = board.with_near_windows();
        } else if !cfg.tactics && !matches!(cfg.heuristic, HeuristicConfig::Flecart { .. }) {
            board = board.without_threats();
        }
        let mut s = Searcher {
            cfg,
            pos: own,
            board,
            tt,
            history,
            threats,
            root_threat: None,
            root_probed: false,
            refuted: Vec::new(),
            checked: Vec::new(),
            team,
            helper,
            shared: 0,
            // A team's threads start with nothing and take their first share at once below.
            node_limit: if team.is_some() { 0 } else { clock.limits.nodes.unwrap_or(u64::MAX) },
            next_check: 256,
            iteration: 0,
            superseded: false,
            killers: Vec::new(),
            buffers: Vec::new(),
            pv: Vec::new(),
            nodes: 0,
            tt_hits: 0,
            clock,
            control,
            sink,
            aborted: false,
            cap: cfg.branching_cap.map(|q| q as usize),
            opponent_tactics: cfg.tactics && !three_d && !exact,
            tactics: cfg.tactics && !three_d,
            completed: None,
            unfinished: Vec::new(),
            root_moves: Vec::new(),
            // Helpers record the root's moves only (their values go with a depth they finish
            // first); the explorer shows the main thread's tree.
            record_depth: if helper { 1 } else { cfg.record_depth },
            tree: Vec::new(),
            path: Vec::new(),
            last_tree: None,
            scratch: Vec::new(),
            answers: cfg.forced_answers && crate::search::solver::threats_apply(pos),
            stopping: Vec::new(),
            near: [Vec::new(), Vec::new()],
        };
        s.reserve();
        s
    }
}

impl<P: Position> Searcher<'_, P> {
    #[inline]
    pub(super) fn win_value(&self, ply: u32) -> i32 {
        if self.cfg.prefer_faster_wins { WIN - ply as i32 } else { WIN_BOUND + 50_000 }
    }

    /// Nodes of the whole search: this thread's, plus the helpers' for the main thread.
    pub(super) fn all_nodes(&self) -> u64 {
        self.nodes + if self.helper { 0 } else { self.team.map_or(0, |t| t.nodes.load(Relaxed)) }
    }

    /// Takes more of the team's node budget: true when some was left. One thread alone has
    /// none to take (its limit is the budget).
    pub(super) fn reserve(&mut self) -> bool {
        let Some(team) = self.team else { return false };
        let got = team.take_nodes();
        self.node_limit += got;
        got > 0
    }

    /// The node budget is spent and no more can be had: checked before an iteration starts,
    /// whose first node would otherwise be counted beyond the budget (a team thread that
    /// started with no share).
    pub(super) fn out_of_nodes(&mut self) -> bool {
        self.nodes >= self.node_limit && !self.reserve()
    }

    pub(super) fn check_limits(&mut self) {
        // Every thread's nodes count against one budget: a thread goes on only while it
        // holds part of it, so the team never searches more than the budget.
        if self.nodes >= self.node_limit && !self.reserve() {
            self.aborted = true;
        }
        if self.helper {
            if let Some(t) = self.team {
                t.nodes.fetch_add(self.nodes - self.shared, Relaxed);
                self.shared = self.nodes;
            }
            if self.control.is_stopped() {
                self.aborted = true;
            }
            return;
        }
        if self.aborted || self.control.is_stopped() || self.clock.out_of_time() {
            self.aborted = true;
        } else if self.team.is_some_and(|t| t.depth.load(Relaxed) >= self.iteration) {
            // A helper finished this depth first: take its result and go deeper.
            self.aborted = true;
            self.superseded = true;
        }
        if let Some(depth) = self.control.take_snapshot_request() {
            let top = usize::MAX;
            let pruned = match &self.last_tree {
                Some(tree) => prune_snapshot(tree, depth, top),
                None => prune_snapshot(&self.partial_tree(), depth, top),
            };
            self.sink.event(SearchEvent::Snapshot(pruned));
        }
        if self.clock.report_due() {
            let p = self.progress(false);
            self.sink.event(SearchEvent::Progress(p));
        }
    }

    /// Counts a node and heeds the limits; true when the search must stop. A node budget is
    /// exact (a comparison a node); the clock and the stop flag are read every 256 nodes (the
    /// threat prover's nodes count, and come many at a time).
    #[inline(always)]
    pub(super) fn enter_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check || self.nodes >= self.node_limit {
            // The next multiple of 256: the checks fall where they always did.
            self.next_check = (self.nodes | 255) + 1;
            self.check_limits();
        }
        self.aborted
    }

    /// A finished depth's tree (the main thread's or a helper's), for whoever shows it: it is
    /// published, so that questions about it (the explorer opening a node) are answered by
    /// whoever holds it, not by the search; and with `snapshot`, sent whole to be shown,
    /// before the depth's report, so the new score never stands beside the old depth's tree.
    /// Nothing when no one shows the tree.
    pub(super) fn publish_tree(&mut self, snapshot: bool) {
        if !self.control.trees_wanted() {
            return;
        }
        let Some(t) = &self.last_tree else { return };
        // Published first: a question about the tree just shown finds it.
        self.sink.event(SearchEvent::Published(Arc::clone(t)));
        if snapshot {
            self.sink.event(SearchEvent::Snapshot((**t).clone()));
        }
    }

    /// Takes the team's result if a helper finished a depth deeper than `than`: its move,
    /// value and line with its own candidates and tree (not an older depth's), so that the
    /// table, the best move and the line speak of one search. Gives its depth and value.
    ///
    /// The reply check runs on the main thread alone, so a helper's move is taken only if it
    /// passes one: with `spent` nodes for a check (an iteration's, as the main thread's own
    /// moves get), or, with `spent` None (the search is over), if an earlier check passed it.
    /// A move turned down is dropped from the team's result, and the depth is the main
    /// thread's to finish.
    pub(super) fn adopt_team_result(&mut self, than: u32, spent: Option<u64>) -> Option<(u32, i32)> {
        let team = self.team?;
        let ((best, value, pv, done), tree) = team.result.lock().unwrap_or_else(|e| e.into_inner()).clone()?;
        if done <= than {
            return None;
        }
        let passed = match spent {
            _ if self.refuted.iter().any(|r| r.0 == best) => false,
            Some(spent) => value.abs() >= WIN_BOUND || !self.refuted_by_threats(best, spent),
            None => self.check_passed(best),
        };
        if !passed {
            team.drop_result(than);
            return None;
        }
        self.completed = Some((best, value, pv, done));
        self.root_moves = root_moves_from(&tree.nodes, self.cfg.prefer_faster_wins);
        self.last_tree = Some(Arc::new(tree));
        Some((done, value))
    }

    pub(super) fn progress(&self, finished: bool) -> Progress {
        let (best, value, pv, depth) = match &self.completed {
            Some((m, v, pv, d)) => (Some(*m), Some(*v), pv.clone(), *d),
            None => (None, None, Vec::new(), 0),
        };
        let nodes = self.all_nodes();
        Progress {
            depth,
            iterations: 0,
            nodes,
            nodes_per_second: self.clock.rate(nodes),
            elapsed: self.clock.elapsed(),
            best,
            score: value.map_or(Score::Unknown, |v| Score::from_value(v, self.cfg.prefer_faster_wins)),
            pv,
            root: self.root_moves.clone(),
            finished,
            threads: self.cfg.threads.max(1),
            proof: false,
            bounds: None,
        }
    }

    /// The root's line after an iteration of `depth`, continued from the table where a node
    /// took an exact value from it: such a node's line stops at the table's move, and with
    /// helpers filling the table (Lazy SMP) that can be the second ply. The continuation
    /// follows exact entries only, so every move shown is one the search valued exactly.
    pub(super) fn completed_line(&mut self, depth: u32) -> Vec<Move> {
        let mut line = self.pv[0].clone();
        let Some(tt) = self.tt else { return line };
        let mut played = 0;
        for &m in &line {
            if self.pos.status() != Status::Ongoing || !self.pos.is_legal(m) {
                break;
            }
            self.pos.play(m);
            played += 1;
        }
        if played == line.len() {
            while (line.len() as u32) < depth && self.pos.status() == Status::Ongoing {
                let Some(hit) = tt.probe(self.pos.hash(), played as u32) else { break };
                let Some(m) = hit.mv.filter(|&m| hit.bound == Bound::Exact && self.pos.is_legal(m)) else { break };
                self.pos.play(m);
                played += 1;
                line.push(m);
            }
        }
        for _ in 0..played {
            self.pos.undo();
        }
        line
    }
}
