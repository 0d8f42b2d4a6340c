//! The alpha-beta family: plain minimax, alpha-beta, iterative deepening with time control,
//! transposition table, move ordering (none, neighbours, heuristic, TT move + killers +
//! history), a branching cap with optional timer calibration, immediate win and forced-block
//! detection, threat-space search in the tree, principal variation search with late move
//! reductions, Lazy SMP threads, and scores that prefer faster wins. Every option is a field
//! of [`AlphaBetaConfig`].
//!
//! The files: `config` the options; `searcher` a search's state, node budget, limits and
//! reports; `iterate` iterative deepening and the result; `node` one node (the table, the
//! tactics, its moves); `moves` their generation, order and cap; `threats` the threat search
//! at a node and the reply check of the root's best move; `record` the tree kept for the
//! explorer; `lazy_smp` the helper threads.

mod config;
mod iterate;
mod lazy_smp;
mod moves;
mod node;
mod record;
mod searcher;
mod threats;

pub use config::{AlphaBetaConfig, AlphaBetaFlaw, MoveOrdering, Reductions};
pub use record::{prune_snapshot, prune_snapshot_from};

use std::sync::Arc;

use crate::eval::EvalBoard;
use crate::game::{Move, Position};
use crate::search::progress::{Clock, RootMove};
use crate::search::threat_probe::{ThreatLine, ThreatProbe};
use crate::search::tree::{SnapNode, TreeSnapshot};
use crate::search::tt::TranspositionTable;
use crate::search::{Agent, ProgressSink, SearchControl, SearchEvent, SearchLimits, SearchResult};
use lazy_smp::Team;

/// The alpha-beta agent: its configuration and what it keeps between searches.
pub struct AlphaBeta {
    pub config: AlphaBetaConfig,
    /// Allocated by the first search (inside its time limit), dropped by a new game.
    tt: Option<Arc<TranspositionTable>>,
    history: Vec<i32>,
    /// The last finished depth's tree, shared with whoever it was published to.
    last_tree: Option<Arc<TreeSnapshot>>,
    /// The threat prover and its table, kept between the searches of one game.
    threats: Option<ThreatProbe>,
}

const MAX_RECORDED: usize = 200_000;

impl AlphaBeta {
    pub fn new(config: AlphaBetaConfig) -> AlphaBeta {
        AlphaBeta { config, tt: None, history: Vec::new(), last_tree: None, threats: None }
    }
}

struct Searcher<'a, P: Position> {
    cfg: &'a AlphaBetaConfig,
    pos: P,
    board: EvalBoard,
    tt: Option<&'a TranspositionTable>,
    history: &'a mut Vec<i32>,
    /// Threat-space search at nodes with this many plies left or more (None: off, or not
    /// under these rules).
    threats: Option<&'a mut ThreatProbe>,
    /// The root's win by threats, when the probe found one there.
    root_threat: Option<ThreatLine>,
    /// The root has been probed (by an earlier iteration).
    root_probed: bool,
    /// Root moves the reply check refuted, with their values for the root's mover, and the
    /// moves it has checked, with the nodes of their last check.
    refuted: Vec<(Move, i32)>,
    checked: Vec<(Move, u64)>,
    /// What the threads of a Lazy SMP search share besides the table (None: one thread).
    team: Option<&'a Team>,
    /// This searcher is a helper: it adds to the team's nodes and reports its finished depths.
    helper: bool,
    /// Nodes already added to the team's count.
    shared: u64,
    /// The node count at which this thread stops, or asks the team for more: the node limit
    /// alone, or in a team what it has taken so far of the shared budget (see `reserve`).
    node_limit: u64,
    /// The node count at which the limits are read next.
    next_check: u64,
    /// The depth of the iteration being searched.
    iteration: u32,
    /// The main thread's iteration was cut because a helper finished that depth first.
    superseded: bool,
    killers: Vec<[Option<Move>; 2]>,
    buffers: Vec<Vec<(Move, i32)>>,
    pv: Vec<Vec<Move>>,
    nodes: u64,
    tt_hits: u64,
    clock: Clock,
    control: &'a SearchControl,
    sink: &'a mut dyn ProgressSink,
    aborted: bool,
    cap: Option<usize>,
    /// Tactics that read the opponent's threats are sound only without the exactly-K rule.
    opponent_tactics: bool,
    tactics: bool,
    /// Best move and value of the last completed iteration, for reports during the next.
    completed: Option<Completed>,
    /// The root moves the iteration under way has valued: move, value, and whether the value
    /// is only an upper bound (refuted by the window, not valued exactly).
    unfinished: Vec<(Move, i32, bool)>,
    root_moves: Vec<RootMove>,
    // Tree recording for the explorer.
    record_depth: u32,
    tree: Vec<SnapNode>,
    path: Vec<u32>,
    last_tree: Option<Arc<TreeSnapshot>>,
    scratch: Vec<Move>,
    /// [`AlphaBetaConfig::forced_answers`] applies here (free placement, five or more, with
    /// line shapes), and the cells that stop the opponent's threat at the node being listed.
    answers: bool,
    stopping: Vec<usize>,
    /// The cells within [`AlphaBetaConfig::radius`] of a stone at the node being listed,
    /// and the last step's copy: kept to be filled again rather than allocated a node.
    near: [Vec<bool>; 2],
}

/// What a searcher keeps between searches: the transposition table (shared by a team's
/// threads) and its own history heuristic's counts.
struct Memory<'a> {
    tt: Option<&'a TranspositionTable>,
    history: &'a mut Vec<i32>,
    threats: Option<&'a mut ThreatProbe>,
}

/// A searcher's place: alone, or in a Lazy SMP team as its main thread or a helper.
#[derive(Clone, Copy)]
enum Role<'a> {
    Alone,
    Main(&'a Team),
    Helper(&'a Team),
}

/// The deepest iteration a search may run: the depth limit, or with none the moves left in
/// the game (the search then deepens until another limit or the stop flag).
fn max_depth<P: Position>(pos: &P, limits: &SearchLimits) -> u32 {
    let remaining = ((pos.max_game_length() - pos.ply()) as u32).max(1);
    limits.depth.unwrap_or(remaining).min(remaining)
}

/// A finished iteration: best move, value, principal variation, depth.
type Completed = (Move, i32, Vec<Move>, u32);

impl<P: Position> Agent<P> for AlphaBeta {
    fn search(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
    ) -> SearchResult {
        // The clock starts first: allocating the table is part of the search's time.
        let clock = Clock::new(limits);
        if pos.is_over() {
            return SearchResult::default();
        }
        if self.tt.is_none() && self.config.tt_mb > 0 && self.config.pruning {
            let tt = TranspositionTable::new(self.config.tt_mb as usize);
            if self.config.threads > 1 {
                // At most a tenth of the time limit; pages left untouched work as before.
                let budget = limits.time.map_or(f64::INFINITY, |t| t / 10.0);
                tt.touch_pages(|| clock.elapsed() < budget && !control.is_stopped());
            }
            if let Some(why) = tt.shortfall() {
                sink.event(SearchEvent::Warning(format!("alpha-beta: {why}")));
            }
            self.tt = Some(Arc::new(tt));
        }
        if self.config.threads.max(1) == 1 {
            return self.search_main(pos, limits, clock, control, sink, None);
        }
        self.search_lazy_smp(pos, limits, clock, control, sink)
    }

    fn snapshot(&self, depth: u32, top: usize) -> Option<TreeSnapshot> {
        self.last_tree.as_ref().map(|t| prune_snapshot(t, depth, top))
    }

    fn subtree(&self, path: &[Move], depth: u32, top: usize) -> Option<TreeSnapshot> {
        let tree = self.last_tree.as_ref()?;
        Some(prune_snapshot_from(tree, tree.node_at(path)?, depth, top))
    }

    fn new_game(&mut self) {
        // A fresh table at the next search (zeroed pages from the system, no clearing here).
        self.tt = None;
        self.history.clear();
        self.last_tree = None;
        self.threats = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AnyPosition, Variant};
    use crate::with_position;

    /// Each finished depth's tree is published (what the workbench answers the explorer
    /// from), the last one the tree the agent keeps; and nothing when no one wants the trees.
    #[test]
    fn each_finished_depth_publishes_its_tree_when_wanted() {
        let start = AnyPosition::new(Variant::connect4());
        with_position!(&start, p => {
            let mut agent = AlphaBeta::new(AlphaBetaConfig::default());
            let mut sink = crate::search::progress::PublishedTrees(Vec::new());
            agent.search(p, &SearchLimits::depth(5), &SearchControl::new(), &mut sink);
            assert!(sink.0.is_empty(), "no one wants the tree: nothing published");
            let wanted = SearchControl::new();
            wanted.want_trees();
            agent.search(p, &SearchLimits::depth(5), &wanted, &mut sink);
            assert_eq!(sink.0.len(), 5, "one tree a depth");
            let last = sink.0.last().unwrap();
            assert!(Arc::ptr_eq(last, agent.last_tree.as_ref().unwrap()), "the tree kept is the last published");
        });
    }
}
