//! Lazy SMP: helper threads search the same position over the shared lock-free table, odd
//! helpers a ply deeper; each depth a helper finishes first becomes the team's result for it,
//! and the main thread, finding its iteration done, takes it and goes deeper.

use std::sync::Mutex;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64};

use super::{AlphaBeta, AlphaBetaConfig, Completed, Memory, Role, Searcher};
use crate::game::{Move, Position};
use crate::search::progress::Clock;
use crate::search::score::{INF, WIN_BOUND};
use crate::search::tree::TreeSnapshot;
use crate::search::tt::TranspositionTable;
use crate::search::{ProgressSink, SearchControl, SearchLimits, SearchResult, ThreatProbe};

/// What the threads of a Lazy SMP search share besides the table.
pub(super) struct Team {
    /// Nodes of the helpers, added as they go.
    pub(super) nodes: AtomicU64,
    /// The main thread's nodes, stored when it ends.
    pub(super) main_nodes: AtomicU64,
    /// What is left of the node budget (u64::MAX: none set), taken in shares of `share`.
    nodes_left: AtomicU64,
    share: u64,
    /// The deepest iteration a helper has finished, and its result (move, value, PV) with
    /// the tree of its root moves.
    pub(super) depth: AtomicU32,
    pub(super) result: Mutex<Option<(Completed, TreeSnapshot)>>,
    /// Root moves the main thread's reply check refuted, with their values: the helpers
    /// value them so, as the main thread does.
    pub(super) refuted: Mutex<Vec<(Move, i32)>>,
}

impl Team {
    /// A team of `threads` sharing a budget of `nodes` (None: no node limit).
    pub(super) fn new(nodes: Option<u64>, threads: u32) -> Team {
        // Small shares, so that a thread stopped with part of its share unused leaves little
        // of the budget unsearched (at most a sixteenth), yet few enough to cost nothing.
        let share = nodes.map_or(256, |n| (n / (16 * threads.max(1) as u64)).clamp(1, 256));
        Team {
            nodes: AtomicU64::new(0),
            main_nodes: AtomicU64::new(0),
            nodes_left: AtomicU64::new(nodes.unwrap_or(u64::MAX)),
            share,
            depth: AtomicU32::new(0),
            result: Mutex::new(None),
            refuted: Mutex::new(Vec::new()),
        }
    }

    /// Forgets the helpers' result, its move turned down by the reply check: the depths past
    /// `done` are open again.
    pub(super) fn drop_result(&self, done: u32) {
        *self.result.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.depth.store(done, Relaxed);
    }

    pub(super) fn refuted_now(&self) -> Vec<(Move, i32)> {
        self.refuted.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Takes a share of the node budget: the nodes taken (0 once it is spent).
    pub(super) fn take_nodes(&self) -> u64 {
        let before = self.nodes_left.fetch_update(Relaxed, Relaxed, |left| Some(left.saturating_sub(self.share)));
        before.unwrap_or(0).min(self.share)
    }
}

/// A Lazy SMP helper: iterative deepening from depth `first` over the shared table until
/// `control` stops it or `max_depth` is done. It leaves entries in the table, and each depth
/// it finishes before anyone else becomes the team's result for that depth. After a depth it
/// goes on one deeper than the deepest finished (odd helpers two deeper, so they spread out).
fn help<P: Position>(
    cfg: &AlphaBetaConfig,
    pos: &P,
    tt: Option<&TranspositionTable>,
    control: &SearchControl,
    team: &Team,
    index: u32,
    max_depth: u32,
) {
    let mut history = vec![0; pos.num_actions() * 2];
    let mut sink = crate::search::NullSink;
    let clock = Clock::new(&SearchLimits::default());
    // A helper proves threats with a table of its own, dropped with it.
    let mut probe = cfg.threats.map(ThreatProbe::new);
    let memory = Memory { tt, history: &mut history, threats: probe.as_mut() };
    let mut s = Searcher::new(cfg, pos, memory, clock, control, &mut sink, Role::Helper(team));
    let skip = index % 2;
    let mut depth = 1 + skip;
    while depth <= max_depth && !s.out_of_nodes() {
        s.start_iteration(depth);
        let v = s.negamax(depth, 0, -INF, INF, None, 0);
        if s.aborted {
            break;
        }
        if let Some(&best) = s.pv[0].first() {
            let line = s.completed_line(depth);
            let mut result = team.result.lock().unwrap_or_else(|e| e.into_inner());
            // A move refuted while this depth was searched is not offered.
            let refuted = team.refuted_now().iter().any(|r| r.0 == best);
            if team.depth.load(Relaxed) < depth && !refuted {
                *result = Some(((best, v, line, depth), s.partial_tree()));
                team.depth.store(depth, Relaxed);
            }
        }
        if v.abs() >= WIN_BOUND {
            break;
        }
        depth = (depth + 1).max(team.depth.load(Relaxed) + 1 + skip);
    }
    team.nodes.fetch_add(s.nodes - s.shared, Relaxed);
}

impl AlphaBeta {
    /// The search with `threads` > 1: helpers on scoped threads, the main search here.
    pub(super) fn search_lazy_smp<P: Position>(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        clock: Clock,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
    ) -> SearchResult {
        let threads = self.config.threads.max(1);
        let max_depth = super::max_depth(pos, limits);
        let team = Team::new(limits.nodes, threads);
        let helpers = SearchControl::new();
        let cfg = self.config.clone();
        let tt = self.tt.clone();
        let mut result = std::thread::scope(|scope| {
            for i in 1..threads {
                let (cfg, tt, helpers, team) = (&cfg, tt.as_deref(), &helpers, &team);
                scope.spawn(move || help(cfg, pos, tt, helpers, team, i, max_depth));
            }
            // Helpers stop when the main thread is done, however it ends.
            struct StopOnDrop<'c>(&'c SearchControl);
            impl Drop for StopOnDrop<'_> {
                fn drop(&mut self) {
                    self.0.stop();
                }
            }
            let _stop = StopOnDrop(&helpers);
            self.search_main(pos, limits, clock, control, sink, Some(&team))
        });
        // Every thread's nodes, now that the helpers have added their last ones.
        result.stats.nodes = team.main_nodes.load(Relaxed) + team.nodes.load(Relaxed);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AnyPosition, Move, Variant};
    use crate::search::NullSink;
    use crate::search::tree::SnapNode;
    use crate::with_position;

    /// The main thread takes a depth a helper finished with that helper's candidates and
    /// tree, not those of its own older depth (the table then disagreed with the best move).
    #[test]
    fn an_adopted_helper_depth_brings_its_root_moves_and_tree() {
        let pos = AnyPosition::new(Variant::Grid(crate::game::GridRules::new(9, 9, 5, false, false).unwrap()));
        // What a helper left: depth 3 done, best move 40 with two candidates valued.
        let team = Team::new(None, 2);
        let node = |mv: Option<u16>, value: i32, children: Vec<u32>| SnapNode {
            mv: mv.map(Move),
            order: 0,
            children,
            mcts: None,
            alphabeta: Some(crate::search::tree::AlphaBetaStats {
                value,
                bound: crate::search::tree::Bound::Exact,
                alpha: -1000,
                beta: 1000,
                depth: 2,
                cutoff: false,
                tt_hit: false,
                cutoff_move: None,
            }),
            hidden_children: 0,
        };
        let tree = TreeSnapshot {
            nodes: vec![node(None, 7, vec![1, 2]), node(Some(40), -7, vec![]), node(Some(3), 5, vec![])],
        };
        *team.result.lock().unwrap() = Some(((Move(40), 7, vec![Move(40), Move(41)], 3), tree.clone()));
        team.depth.store(3, Relaxed);
        let mut ab = AlphaBeta::new(AlphaBetaConfig { tt_mb: 0, ..Default::default() });
        let limits = SearchLimits::depth(3);
        let r = with_position!(&pos, p => ab.search_main(p, &limits, Clock::new(&limits), &SearchControl::new(), &mut NullSink, Some(&team)));
        assert_eq!((r.best, r.stats.depth), (Some(Move(40)), 3));
        let root: Vec<(u16, f64)> = r.root.iter().map(|m| (m.mv.0, m.value)).collect();
        assert_eq!(root, vec![(40, 7.0), (3, -5.0)], "the helper's candidates");
        assert_eq!(ab.last_tree.as_ref().map(|t| t.nodes.len()), Some(3), "the helper's tree");
    }

    /// A helper's depth whose move the main thread's reply check has refuted is not taken:
    /// the main thread searches the depth itself, valuing the move as lost.
    #[test]
    fn a_helper_depth_with_a_refuted_move_is_not_taken() {
        let pos = AnyPosition::new(Variant::Grid(crate::game::GridRules::new(9, 9, 5, false, false).unwrap()));
        let centre = Move(40);
        let threats = Some(crate::search::ThreatConfig { reply_budget: 10_000, ..Default::default() });
        let cfg = AlphaBetaConfig { tt_mb: 0, threats, ..Default::default() };
        let limits = SearchLimits::depth(3);
        let search = |team: &Team| {
            let mut ab = AlphaBeta::new(cfg.clone());
            with_position!(&pos, p => ab.search_main(p, &limits, Clock::new(&limits), &SearchControl::new(), &mut NullSink, Some(team)))
        };
        let helper_left = |refuted: bool| {
            let team = Team::new(None, 2);
            *team.result.lock().unwrap() = Some(((centre, 7, vec![centre], 3), TreeSnapshot::default()));
            team.depth.store(3, Relaxed);
            if refuted {
                team.refuted.lock().unwrap().push((centre, -crate::search::score::WIN));
            }
            team
        };
        // Not refuted: the centre passes the check on an empty board, and the helper's depth
        // is taken.
        let r = search(&helper_left(false));
        assert_eq!((r.best, r.stats.depth), (Some(centre), 3));
        // Refuted: another move, the depth the main thread's own, the helper's result dropped.
        let team = helper_left(true);
        let r = search(&team);
        assert_ne!(r.best, Some(centre));
        assert_eq!(r.stats.depth, 3);
        assert!(team.result.lock().unwrap().is_none());
        let lost = r.root.iter().find(|m| m.mv == centre).expect("the centre among the candidates");
        assert!(matches!(lost.score, crate::search::Score::Loss { .. }), "{:?}", lost.score);
    }
}
