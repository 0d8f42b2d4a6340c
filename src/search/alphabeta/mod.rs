//! The alpha-beta family: plain minimax, alpha-beta, iterative deepening with time control,
//! transposition table, move ordering (none, neighbours, heuristic, TT move + killers +
//! history), a branching cap with optional timer calibration, immediate win and forced-block
//! detection, and scores that prefer faster wins. Every option is a field of
//! [`AlphaBetaConfig`].

use serde::{Deserialize, Serialize};

use super::progress::{Clock, RootMove};
use super::score::{INF, WIN, WIN_BOUND};
use super::tree::{AlphaBetaStats, Bound, SnapNode, TreeSnapshot};
use super::tt::TranspositionTable;
use super::{
    Agent, Progress, ProgressSink, Score, SearchControl, SearchEvent, SearchLimits, SearchResult, SearchStats,
};
use crate::eval::{EvalBoard, Heuristic, HeuristicConfig, Tactic, stones_around};
use crate::game::{Move, Position, Status, Variant};
use crate::search::SettingError;
use crate::search::threat_probe::{ThreatConfig, ThreatLine, ThreatProbe};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

/// How moves are ordered before they are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum MoveOrdering {
    /// As generated (increasing move id).
    None,
    /// Most stones around the cell first (Alam et al.).
    Neighbours,
    /// By the heuristic's move score.
    Heuristic,
    /// Transposition-table move, then killer moves, then history, then the heuristic.
    Full,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AlphaBetaConfig {
    /// false: plain minimax, every node searched (for node-count comparisons).
    pub pruning: bool,
    /// Search depth 1, 2, ... until a limit; otherwise one search at the depth limit.
    pub iterative_deepening: bool,
    /// Transposition table size in MiB (0: none).
    pub tt_mb: u32,
    pub ordering: MoveOrdering,
    /// Keep only the q best moves by heuristic at each node.
    pub branching_cap: Option<u32>,
    /// Flecart's timer calibration: with a time limit, after each iteration predict the next
    /// one's time from the measured growth and shrink the cap (down to 2) so it fits.
    pub calibrate_cap: bool,
    pub heuristic: HeuristicConfig,
    /// Take an immediate win, block the opponent's only immediate win, and see that two
    /// immediate wins of the opponent cannot both be blocked.
    pub tactics: bool,
    /// Sooner wins (and later losses) score higher; off, a win is a win whenever it comes.
    pub prefer_faster_wins: bool,
    /// Free placement: consider only cells within this many steps of a stone.
    pub radius: Option<u32>,
    /// Depth (plies from the root) of the tree recorded for the explorer.
    pub record_depth: u32,
    /// Exact values for this many best root moves (multi-PV), not only for the best: the root
    /// searches each move against the n-th best value so far instead of the best. 1: the
    /// usual search (the others are refuted with bounds), which is faster.
    pub multi_pv: u32,
    /// Search threads (Lazy SMP): helpers search the same position over the shared table,
    /// odd helpers one ply deeper, and the main thread's iterations give the move. 1: one
    /// thread, reproducible node for node.
    pub threads: u32,
    /// A deliberate error, to test whether it explains a paper's numbers (never for play).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flaw: Option<AlphaBetaFlaw>,
    /// Threat-space search at the tree's nodes (free placement, K-or-more rule): the side to
    /// move's win by threats ends a node's search; a move that leaves the opponent one is
    /// valued as the loss it is one ply lower. None: off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threats: Option<ThreatConfig>,
    /// Principal variation search with late move reductions (with pruning, multi_pv 1; below
    /// the root): every move after a node's first is searched with a null window first, and re-searched
    /// with the full one only if it beats the best so far; quiet late moves are searched
    /// shallower first. None: every move with the full window at full depth, as the
    /// published agents search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reductions: Option<Reductions>,
}

/// Late move reductions: at nodes with at least `min_depth` plies left, the moves from the
/// `after`-th on (in the node's order, counted from 0) that make no threat and answer none
/// are searched `1` ply shallower (`2` from the `4 * after`-th on) with a null window; one
/// that beats the best so far is searched again at full depth. `after` 0: no reductions,
/// principal variation search alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Reductions {
    pub after: u32,
    pub min_depth: u32,
}

impl Default for Reductions {
    fn default() -> Self {
        Reductions { after: 3, min_depth: 3 }
    }
}

/// Errors a published depth-limited alpha-beta may have had, as options that put them back.
/// Alam et al.'s alpha-beta loses tic-tac-toe, which a correct depth-6 search never does,
/// while its whole-tree node counts are exact: an error in the depth limit or the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum AlphaBetaFlaw {
    /// A finished game is valued from the root player's side instead of the side to move's:
    /// the searching player's own wins, one ply below each of its moves, count as losses.
    WinFromRootSide,
    /// The depth limit is tested before the game's end: a line won on the last ply searched
    /// is valued as the heuristic's (undecided) value, not as a win.
    HorizonBeforeWin,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            pruning: true,
            iterative_deepening: true,
            tt_mb: 64,
            ordering: MoveOrdering::Full,
            branching_cap: None,
            calibrate_cap: false,
            heuristic: HeuristicConfig::default(),
            tactics: true,
            prefer_faster_wins: true,
            radius: None,
            record_depth: 2,
            multi_pv: 1,
            threads: 1,
            flaw: None,
            threats: None,
            reductions: None,
        }
    }
}

impl AlphaBetaConfig {
    pub fn validate(&self) -> Result<(), SettingError> {
        self.heuristic.validate()?;
        let range = |field, rule| Err(SettingError::Range { field, rule, value: None });
        if self.branching_cap == Some(0) {
            return range("alpha-beta: branching_cap", "must be at least 1");
        }
        // No cell is within 0 of a stone: the search would see no moves and prove a loss.
        if self.radius == Some(0) {
            return range("alpha-beta: radius", "must be at least 1 (None: every empty cell)");
        }
        if self.tt_mb > 0 {
            super::limits::check_memory_mb("alpha-beta: tt_mb", self.tt_mb as u64, 1)?;
        }
        if self.record_depth > 8 {
            return range("alpha-beta: record_depth", "must be at most 8");
        }
        if !(1..=64).contains(&self.multi_pv) {
            return range("alpha-beta: multi_pv", "must be 1 to 64");
        }
        super::limits::check_threads("alpha-beta: threads", self.threads)?;
        if let Some(r) = &self.reductions
            && r.min_depth < 2
        {
            return range("alpha-beta: reductions.min_depth", "must be at least 2");
        }
        if let Some(t) = &self.threats {
            t.validate([
                "alpha-beta: threats.depth",
                "alpha-beta: threats.budget",
                "alpha-beta: threats.root_budget",
                "alpha-beta: threats.table_mb",
            ])?;
        }
        Ok(())
    }
}

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
    root_moves: Vec<RootMove>,
    // Tree recording for the explorer.
    record_depth: u32,
    tree: Vec<SnapNode>,
    path: Vec<u32>,
    last_tree: Option<Arc<TreeSnapshot>>,
    scratch: Vec<Move>,
}

impl<'a, P: Position> Searcher<'a, P> {
    #[inline]
    fn win_value(&self, ply: u32) -> i32 {
        if self.cfg.prefer_faster_wins { WIN - ply as i32 } else { WIN_BOUND + 50_000 }
    }

    /// Nodes of the whole search: this thread's, plus the helpers' for the main thread.
    fn all_nodes(&self) -> u64 {
        self.nodes + if self.helper { 0 } else { self.team.map_or(0, |t| t.nodes.load(Relaxed)) }
    }

    /// Takes more of the team's node budget: true when some was left. One thread alone has
    /// none to take (its limit is the budget).
    fn reserve(&mut self) -> bool {
        let Some(team) = self.team else { return false };
        let got = team.take_nodes();
        self.node_limit += got;
        got > 0
    }

    /// The node budget is spent and no more can be had: checked before an iteration starts,
    /// whose first node would otherwise be counted beyond the budget (a team thread that
    /// started with no share).
    fn out_of_nodes(&mut self) -> bool {
        self.nodes >= self.node_limit && !self.reserve()
    }

    fn check_limits(&mut self) {
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

    /// A finished depth's tree (the main thread's or a helper's), for whoever shows it: it is
    /// published, so that questions about it (the explorer opening a node) are answered by
    /// whoever holds it, not by the search; and with `snapshot`, sent whole to be shown,
    /// before the depth's report, so the new score never stands beside the old depth's tree.
    /// Nothing when no one shows the tree.
    fn publish_tree(&mut self, snapshot: bool) {
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
    fn adopt_team_result(&mut self, than: u32) -> Option<(u32, i32)> {
        let team = self.team?;
        let ((best, value, pv, done), tree) = team.result.lock().unwrap_or_else(|e| e.into_inner()).clone()?;
        if done <= than {
            return None;
        }
        self.completed = Some((best, value, pv, done));
        self.root_moves = root_moves_from(&tree.nodes, self.cfg.prefer_faster_wins);
        self.last_tree = Some(Arc::new(tree));
        Some((done, value))
    }

    fn progress(&self, finished: bool) -> Progress {
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
    fn completed_line(&mut self, depth: u32) -> Vec<Move> {
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

    fn partial_tree(&self) -> TreeSnapshot {
        TreeSnapshot { nodes: self.tree.clone() }
    }

    /// Moves of the current node into `buffers[ply]`, filtered, scored and sorted.
    fn generate(&mut self, ply: usize, tt_move: Option<Move>) {
        let mut buf = std::mem::take(&mut self.buffers[ply]);
        buf.clear();
        self.pos.legal_moves(&mut self.scratch);
        let near = self.cfg.radius.filter(|_| !self.pos.variant().has_gravity()).map(|r| self.near_cells(r));
        for &m in &self.scratch {
            if let Some(near) = &near
                && !near[self.pos.move_cell(m)]
            {
                continue;
            }
            buf.push((m, 0));
        }
        let cfg = self.cfg;
        let needs_heuristic =
            cfg.branching_cap.is_some() || matches!(cfg.ordering, MoveOrdering::Heuristic | MoveOrdering::Full);
        for entry in buf.iter_mut() {
            let m = entry.0;
            let mut s = 0i64;
            match cfg.ordering {
                MoveOrdering::None => {}
                MoveOrdering::Neighbours => s = stones_around(&self.pos, self.pos.move_cell(m)) as i64,
                MoveOrdering::Heuristic => {}
                MoveOrdering::Full => {
                    if Some(m) == tt_move {
                        s += 1 << 40;
                    } else if self.killers.get(ply).is_some_and(|k| k[0] == Some(m)) {
                        s += 1 << 36;
                    } else if self.killers.get(ply).is_some_and(|k| k[1] == Some(m)) {
                        s += 1 << 35;
                    }
                    let side = self.pos.side_to_move().index();
                    s += (self.history.get(m.index() * 2 + side).copied().unwrap_or(0) as i64) << 8;
                }
            }
            if needs_heuristic {
                s += cfg.heuristic.move_score(&self.pos, &self.board, m) as i64;
            }
            entry.1 = s.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        }
        if cfg.ordering != MoveOrdering::None || cfg.branching_cap.is_some() {
            // Stable: equal scores keep the generation order, so runs are reproducible.
            buf.sort_by_key(|e| std::cmp::Reverse(e.1));
        }
        if let Some(q) = self.cap
            && buf.len() > q
        {
            // The root's moves the reply check refuted take none of the cap's places: they
            // stay last, valued as the losses they are, and the next best are searched.
            let refuted: Vec<(Move, i32)> = if ply == 0 {
                let (late, kept): (Vec<_>, Vec<_>) = buf.iter().partition(|e| self.refuted.iter().any(|r| r.0 == e.0));
                buf = kept;
                late
            } else {
                Vec::new()
            };
            buf.truncate(q);
            buf.extend(refuted);
        }
        if near.is_some() && buf.is_empty() {
            // Empty board: the most central cell.
            let t = self.pos.windows().clone();
            let best = self.scratch.iter().copied().max_by_key(|&m| t.centrality[self.pos.move_cell(m)]);
            buf.extend(best.map(|m| (m, 0)));
        }
        self.buffers[ply] = buf;
    }

    fn near_cells(&self, r: u32) -> Vec<bool> {
        let t = self.pos.windows().clone();
        let mut near: Vec<bool> = (0..t.cells).map(|c| self.pos.stone_on(c).is_some()).collect();
        for _ in 0..r {
            let prev = near.clone();
            for (c, _) in prev.iter().enumerate().filter(|(_, on)| **on) {
                for &n in t.neighbours(c) {
                    near[n as usize] = true;
                }
            }
        }
        near
    }

    fn record_enter(&mut self, ply: u32, mv: Option<Move>, order: u32) -> Option<u32> {
        if ply > self.record_depth || self.tree.len() >= MAX_RECORDED {
            return None;
        }
        let id = self.tree.len() as u32;
        self.tree.push(SnapNode { mv, order, children: Vec::new(), mcts: None, alphabeta: None, hidden_children: 0 });
        if let Some(&parent) = self.path.last() {
            self.tree[parent as usize].children.push(id);
        }
        self.path.push(id);
        Some(id)
    }

    /// The legal moves other than `found` that end the game with a win for the side to move.
    fn other_wins_now(&mut self, found: Move) -> Vec<Move> {
        let me = self.pos.side_to_move();
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves);
        moves
            .into_iter()
            .filter(|&m| {
                if m == found {
                    return false;
                }
                self.pos.play(m);
                let won = self.pos.status() == Status::Win(me);
                self.pos.undo();
                won
            })
            .collect()
    }

    /// A node the tactics decided without a search of its moves: the deciding move (the win,
    /// or the block that still loses) recorded as its one child, valued `value` for the side
    /// to move there, so the explorer lists it below a "win in 1" instead of nothing.
    fn record_decided(&mut self, ply: u32, mv: Move, value: i32) {
        let id = self.record_enter(ply + 1, Some(mv), 0);
        let stats = AlphaBetaStats {
            value,
            bound: Bound::Exact,
            alpha: -INF,
            beta: INF,
            depth: 0,
            cutoff: false,
            tt_hit: false,
            cutoff_move: None,
        };
        self.record_exit(id, stats);
    }

    fn record_exit(&mut self, id: Option<u32>, stats: AlphaBetaStats) {
        if let Some(id) = id {
            self.tree[id as usize].alphabeta = Some(stats);
            self.path.pop();
        }
    }

    /// The side to move's win by threats at this node, when its probe runs here: the line
    /// becomes the node's, its first move the one child recorded, and its length the win's
    /// distance: the proof's line, in which the defender plays its first reply; another
    /// reply may last longer, another attack be quicker, so the distance orders wins by
    /// threats among themselves and is not a count of plies to the end.
    fn threat_win(&mut self, depth: u32, ply: u32) -> Option<i32> {
        let probe = self.threats.as_deref_mut()?;
        if depth < probe.config.min_depth {
            return None;
        }
        // The root is probed once a search, at its first iteration: a later one would only
        // repeat it.
        let root = ply == 0;
        if root && std::mem::replace(&mut self.root_probed, true) {
            return None;
        }
        // The probe's nodes are the search's: it gets what the node budget has left (a lazy
        // SMP thread's share, topped up from the team's) but one, the search's next node,
        // which ends the search at the budget exactly.
        if self.node_limit.saturating_sub(self.nodes) <= 1 && !self.reserve() {
            return None;
        }
        let left = self.node_limit.saturating_sub(self.nodes + 1);
        if left == 0 {
            return None;
        }
        let probe = self.threats.as_deref_mut()?;
        let before = probe.nodes();
        let (budget, deadline) = if root { probe.at_root(&self.clock.limits, true) } else { probe.in_tree() };
        let found = probe.side_to_move_wins(&mut self.pos, &mut self.board, (budget.min(left), deadline));
        self.nodes += probe.nodes() - before;
        let line = found?;
        let first = *line.moves.first()?;
        let p = ply as usize;
        self.pv[p].clear();
        self.pv[p].extend_from_slice(&line.moves);
        let v = self.win_value(ply + line.plies);
        self.record_decided(ply, first, -v);
        if ply == 0 {
            self.root_threat = Some(line);
        }
        Some(v)
    }

    /// Counts a node and heeds the limits; true when the search must stop. A node budget is
    /// exact (a comparison a node); the clock and the stop flag are read every 256 nodes (the
    /// threat prover's nodes count, and come many at a time).
    #[inline(always)]
    fn enter_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check || self.nodes >= self.node_limit {
            // The next multiple of 256: the checks fall where they always did.
            self.next_check = (self.nodes | 255) + 1;
            self.check_limits();
        }
        self.aborted
    }

    /// The value of a node searched no further: a finished game, or depth 0.
    #[inline(always)]
    fn settled_value(&self, depth: u32, ply: u32) -> Option<i32> {
        match self.pos.status() {
            Status::Win(_) if self.cfg.flaw.is_some() => self.flawed_win_value(depth, ply),
            Status::Win(_) => Some(-self.win_value(ply)),
            Status::Draw => Some(0),
            Status::Ongoing if depth == 0 => {
                Some(self.cfg.heuristic.evaluate(&self.pos, &self.board).clamp(-WIN_BOUND + 1, WIN_BOUND - 1))
            }
            Status::Ongoing => None,
        }
    }

    /// A finished, won game's value under [`AlphaBetaConfig::flaw`].
    #[cold]
    fn flawed_win_value(&self, depth: u32, ply: u32) -> Option<i32> {
        Some(match self.cfg.flaw {
            // The player who just moved won. At an odd ply that is the root player, whose
            // win the flaw hands to the side to move.
            Some(AlphaBetaFlaw::WinFromRootSide) if ply % 2 == 1 => self.win_value(ply),
            Some(AlphaBetaFlaw::HorizonBeforeWin) if depth == 0 => {
                self.cfg.heuristic.evaluate(&self.pos, &self.board).clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
            }
            _ => -self.win_value(ply),
        })
    }

    fn negamax(&mut self, depth: u32, ply: u32, mut alpha: i32, beta: i32, mv: Option<Move>, order: u32) -> i32 {
        if self.enter_node() {
            return 0;
        }
        let rec = self.record_enter(ply, mv, order);
        let (alpha0, beta0) = (alpha, beta);
        let mut stats = AlphaBetaStats {
            value: 0,
            bound: Bound::Exact,
            alpha,
            beta,
            depth,
            cutoff: false,
            tt_hit: false,
            cutoff_move: None,
        };
        let v = self.node(depth, ply, &mut alpha, beta, &mut stats);
        stats.value = v;
        stats.bound = if v <= alpha0 {
            Bound::Upper
        } else if v >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.record_exit(rec, stats);
        v
    }

    /// A node at depth 0 that the explorer does not record: what [`Self::negamax`] and
    /// [`Self::node`] do there (count it, heed the limits, clear its line, value it), without
    /// the call, the statistics and the record, which a search at a fixed depth pays at most of
    /// its nodes (gomoku at depth 4: 46 million leaves of 47 million nodes).
    #[inline(always)]
    fn leaf(&mut self, ply: u32) -> i32 {
        if self.enter_node() {
            return 0;
        }
        // The parent made room for this ply's line.
        self.pv[ply as usize].clear();
        self.settled_value(0, ply).unwrap_or(0)
    }

    fn node(&mut self, depth: u32, ply: u32, alpha: &mut i32, beta: i32, stats: &mut AlphaBetaStats) -> i32 {
        let p = ply as usize;
        if self.pv.len() <= p + 1 {
            self.pv.resize(p + 2, Vec::new());
            self.buffers.resize(p + 2, Vec::new());
            self.killers.resize(p + 2, [None, None]);
        }
        self.pv[p].clear();
        if let Some(v) = self.settled_value(depth, ply) {
            return v;
        }
        let pruning = self.cfg.pruning;
        let hash = self.pos.hash();
        let mut tt_move = None;
        if let Some(tt) = self.tt
            && let Some(hit) = tt.probe(hash, ply)
        {
            self.tt_hits += 1;
            stats.tt_hit = true;
            tt_move = hit.mv.filter(|&m| self.pos.is_legal(m));
            if ply > 0 && hit.depth >= depth {
                let usable = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.value >= beta,
                    Bound::Upper => hit.value <= *alpha,
                };
                if usable {
                    if let Some(m) = tt_move {
                        self.pv[p].push(m);
                    }
                    return hit.value;
                }
            }
        }
        let me = self.pos.side_to_move();
        let mut forced: Option<Move> = None;
        // Multi-PV wants every root move valued (two wins in one are two candidates, and a
        // move that ignores a threat is listed as the loss it is), so the root takes no
        // shortcut there; its children do.
        let root_lists = ply == 0 && self.cfg.multi_pv > 1;
        if self.tactics && !root_lists {
            // A win now ends the search of this node; the opponent's threats force the block
            // or, two at once, lose. They are read only where a completed window is a line
            // (not under the exactly-K rule, not in 3D), so counting them unplayed is exact.
            let mut scratch = std::mem::take(&mut self.scratch);
            let tactic = self.board.tactic(&mut self.pos, self.opponent_tactics, &mut scratch);
            self.scratch = scratch;
            match tactic {
                Tactic::WinNow(m) => {
                    self.pv[p].clear();
                    self.pv[p].push(m);
                    let v = self.win_value(ply + 1);
                    self.record_decided(ply, m, -v);
                    if ply == 0 {
                        // Every other way to win at once is a candidate too (an open four's
                        // two ends); the move chosen stays the tactic's.
                        for other in self.other_wins_now(m) {
                            self.record_decided(ply, other, -v);
                        }
                    }
                    return v;
                }
                Tactic::Lost(block) => {
                    // The blocking move is the line, so a lost root still names a searched move.
                    self.pv[p].push(block);
                    let v = -self.win_value(ply + 2);
                    self.record_decided(ply, block, -v);
                    return v;
                }
                Tactic::MustBlock(m) => forced = Some(m),
                Tactic::Quiet => {}
            }
        }
        if !root_lists && let Some(v) = self.threat_win(depth, ply) {
            return v;
        }
        // Moves in id order with nothing to sort or cut are not listed first but taken one at
        // a time: a cutoff on the first of gomoku's 200-odd moves then costs one move, not a
        // list of them all.
        let in_id_order = forced.is_none()
            && self.cfg.ordering == MoveOrdering::None
            && self.cap.is_none()
            && (self.cfg.radius.is_none() || self.pos.variant().has_gravity());
        if let Some(m) = forced {
            self.buffers[p].clear();
            self.buffers[p].push((m, 0));
        } else if !in_id_order {
            self.generate(p, tt_move);
        }
        let moves = std::mem::take(&mut self.buffers[p]);
        let (count, actions) =
            if in_id_order { (self.pos.num_legal_moves(), self.pos.num_actions()) } else { (moves.len(), 0) };
        let mut next_id = 0;
        let mut best = -INF;
        let mut best_move = None;
        // Multi-PV at the root: each move is searched against the n-th best value so far, so
        // the n best get exact values.
        let multi = if ply == 0 { self.cfg.multi_pv.max(1) as usize } else { 1 };
        let floor = *alpha;
        let mut top: Vec<i32> = Vec::new();
        // Not at the root: its moves are the analysis's candidates, and a null window's
        // bound there (then searched again) would list a move as better than the best.
        let pvs = pruning && multi == 1 && ply > 0 && self.cfg.reductions.is_some();
        for i in 0..count {
            let m = if in_id_order {
                while !self.pos.is_legal(Move(next_id as u16)) {
                    next_id += 1;
                }
                next_id += 1;
                debug_assert!(next_id <= actions);
                Move(next_id as u16 - 1)
            } else {
                moves[i].0
            };
            let lo =
                if multi > 1 { if top.len() >= multi { top[multi - 1].max(floor) } else { floor } } else { *alpha };
            let refuted = if ply == 0 { self.refuted_at_root(m) } else { None };
            let score = match refuted {
                Some(v) => v,
                None => {
                    let window = (lo, beta, pvs && i > 0, pvs && i > 0 && forced.is_none());
                    let s = self.search_move(m, i, depth, ply, window);
                    if self.aborted {
                        self.buffers[p] = moves;
                        return 0;
                    }
                    s
                }
            };
            if multi > 1 {
                let at = top.partition_point(|&t| t >= score);
                top.insert(at, score);
                top.truncate(multi);
            }
            if score > best {
                best = score;
                best_move = Some(m);
                let (head, tail) = self.pv.split_at_mut(p + 1);
                head[p].clear();
                head[p].push(m);
                head[p].extend_from_slice(&tail[0]);
                if score > *alpha {
                    *alpha = score;
                }
            }
            if pruning && *alpha >= beta {
                stats.cutoff = i + 1 < count;
                stats.cutoff_move = stats.cutoff.then_some(m);
                if self.cfg.ordering == MoveOrdering::Full {
                    let k = &mut self.killers[p];
                    if k[0] != Some(m) {
                        k[1] = k[0];
                        k[0] = Some(m);
                    }
                    let slot = m.index() * 2 + me.index();
                    if let Some(h) = self.history.get_mut(slot) {
                        *h = (*h + (depth * depth) as i32).min(1 << 20);
                    }
                }
                break;
            }
        }
        self.buffers[p] = moves;
        if let Some(tt) = self.tt {
            let bound = if best <= stats.alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            tt.store(hash, ply, best, bound, depth, best_move);
        }
        best
    }
}

impl<P: Position> Searcher<'_, P> {
    /// The value of move `m`, the `i`-th of the node at `ply` with `depth` plies left, for
    /// the side to move, searched with `window`: (lo, beta, a null window first (PVS), a
    /// late move reduction allowed). Meaningless when the search was aborted.
    fn search_move(&mut self, m: Move, i: usize, depth: u32, ply: u32, window: (i32, i32, bool, bool)) -> i32 {
        let (lo, beta, null_first, reducible) = window;
        let me = self.pos.side_to_move();
        let cell = self.pos.move_cell(m);
        let reduce = match self.cfg.reductions {
            Some(r) if reducible => self.reduction(r, depth, i, cell, me),
            _ => 0,
        };
        self.pos.play(m);
        self.board.play(cell, me);
        let score = if !self.cfg.pruning {
            -self.child(depth - 1, ply, -INF, INF, m, i)
        } else if null_first {
            // A null window first (shallower for a late quiet move): most moves only have to
            // be shown no better than the best so far.
            let mut s = -self.child(depth - 1 - reduce, ply, -lo - 1, -lo, m, i);
            if s > lo && reduce > 0 && !self.aborted {
                s = -self.child(depth - 1, ply, -lo - 1, -lo, m, i);
            }
            if s > lo && s < beta && !self.aborted {
                s = -self.child(depth - 1, ply, -beta, -lo, m, i);
            }
            s
        } else {
            -self.child(depth - 1, ply, -beta, -lo, m, i)
        };
        self.board.undo(cell, me);
        self.pos.undo();
        score
    }

    /// A root move the reply check refuted ([`ThreatConfig::reply_budget`]): its value for
    /// the root's mover (the loss), recorded as the root's child that it is.
    fn refuted_at_root(&mut self, m: Move) -> Option<i32> {
        let &(_, v) = self.refuted.iter().find(|r| r.0 == m)?;
        self.record_decided(0, m, -v);
        Some(v)
    }

    /// The reply check of a depth's best move `best` at the root, the depth having taken
    /// `spent` nodes: true when the opponent is shown to win by threats after it. The move is
    /// then valued as that loss at the root for the rest of the search. The check gets half
    /// the depth's nodes, at most [`ThreatConfig::reply_budget`]: most checks find nothing
    /// and take their whole budget, so a share of the search's own work keeps their cost a
    /// share of it at every depth. A move is checked again only with four times the nodes of
    /// its last check; a check that finds nothing proves nothing.
    fn refuted_by_threats(&mut self, best: Move, spent: u64) -> bool {
        let Some(probe) = self.threats.as_deref_mut() else { return false };
        let (cap, deadline) = probe.after_root(&self.clock.limits, true);
        let budget = cap.min((spent / 2).max(1_000));
        if probe.config.reply_budget == 0 || self.checked.iter().any(|&(m, b)| m == best && budget < 4 * b) {
            return false;
        }
        self.checked.push((best, budget));
        let left = self.node_limit.saturating_sub(self.nodes + 1);
        if left == 0 {
            return false;
        }
        let me = self.pos.side_to_move();
        let cell = self.pos.move_cell(best);
        self.pos.play(best);
        self.board.play(cell, me);
        let before = probe.nodes();
        let found = probe.side_to_move_wins(&mut self.pos, &mut self.board, (budget.min(left), deadline));
        self.nodes += probe.nodes() - before;
        let line = found.map(|l| (l.plies, l.moves.iter().map(|&m| self.pos.format_move(m)).collect::<Vec<_>>()));
        self.board.undo(cell, me);
        self.pos.undo();
        let Some((plies, moves)) = line else { return false };
        // The opponent, to move at ply 1, wins `plies` plies later.
        let value = -self.win_value(1 + plies);
        self.refuted.push((best, value));
        let text = format!(
            "alpha-beta: {} loses to threats in {} plies: {}",
            self.pos.format_move(best),
            plies + 1,
            moves.join(" ")
        );
        self.sink.event(SearchEvent::Notice(text));
        true
    }

    /// The child after move `m` (the `order`-th of the node at `ply`), searched `depth` more
    /// plies with the window (a, b).
    #[inline]
    fn child(&mut self, depth: u32, ply: u32, a: i32, b: i32, m: Move, order: usize) -> i32 {
        if depth == 0 && ply + 1 > self.record_depth {
            self.leaf(ply + 1)
        } else {
            self.negamax(depth, ply + 1, a, b, Some(m), order as u32)
        }
    }

    /// How many plies shallower the `i`-th move (on the empty `cell`) is first searched: none
    /// for the first moves, near the leaves, or for a move that makes a threat (a four or an
    /// open three, where the board keeps line shapes) or stops one of the opponent's.
    fn reduction(&self, r: Reductions, depth: u32, i: usize, cell: usize, me: crate::game::Player) -> u32 {
        if r.after == 0 || depth < r.min_depth || i < r.after as usize {
            return 0;
        }
        if let Some(shapes) = self.board.shapes()
            && (shapes.threats(cell, me).forcing() || shapes.threats(cell, me.other()).forcing())
        {
            return 0;
        }
        let plies = if i >= 4 * r.after as usize { 2 } else { 1 };
        plies.min(depth - 1)
    }
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

impl<'a, P: Position> Searcher<'a, P> {
    fn new(
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
            root_moves: Vec::new(),
            // Helpers record the root's moves only (their values go with a depth they finish
            // first); the explorer shows the main thread's tree.
            record_depth: if helper { 1 } else { cfg.record_depth },
            tree: Vec::new(),
            path: Vec::new(),
            last_tree: None,
            scratch: Vec::new(),
        };
        s.reserve();
        s
    }
}

mod lazy_smp;

use lazy_smp::Team;

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

impl AlphaBeta {
    /// The search of the main thread (the only one with `threads: 1`): iterative deepening,
    /// progress reports, the result.
    fn search_main<P: Position>(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        clock: Clock,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
        team: Option<&Team>,
    ) -> SearchResult {
        let remaining = (pos.max_game_length() - pos.ply()) as u32;
        let max_depth = max_depth(pos, limits);
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
        let cfg = &self.config;
        if let Some(t) = cfg.threats
            && self.threats.as_ref().is_none_or(|p| p.config != t)
        {
            self.threats = Some(ThreatProbe::new(t));
        }
        let memory = Memory { tt: self.tt.as_deref(), history: &mut self.history, threats: self.threats.as_mut() };
        let mut s = Searcher::new(cfg, pos, memory, clock, control, sink, team.map_or(Role::Alone, Role::Main));
        // A fixed-depth search cut by a clock (wall or CPU) or a node limit has no move to give,
        // so those limits deepen iteratively up to the depth: the result is the deepest
        // finished depth.
        let iterative = cfg.iterative_deepening || limits.may_cut();
        let first_depth = if iterative { 1 } else { max_depth };
        let mut last_nodes = 0u64;
        let mut proven = false;
        let mut depth = first_depth;
        while depth <= max_depth && !s.out_of_nodes() {
            s.tree.clear();
            s.path.clear();
            s.iteration = depth;
            let before = s.nodes;
            let started = s.clock.elapsed();
            let mut v = s.negamax(depth, 0, -INF, INF, None, 0);
            if s.aborted && s.superseded {
                // A helper finished this depth (or a deeper one) first: its result stands.
                s.aborted = false;
                s.superseded = false;
                let Some((done, value)) = s.adopt_team_result(depth - 1) else { break };
                depth = done;
                v = value;
                s.publish_tree(false);
            } else if s.aborted {
                break;
            } else {
                let pv = s.completed_line(depth);
                let Some(&best) = pv.first() else { break };
                if v.abs() < WIN_BOUND && s.refuted_by_threats(best, s.nodes - before) {
                    // The depth again without it: the completed result stays the last
                    // depth's, whose move the check passed.
                    continue;
                }
                // Root statistics from the recorded tree (values of the root's children).
                s.root_moves = root_moves_from(&s.tree, cfg.prefer_faster_wins);
                s.completed = Some((best, v, pv, depth));
                s.last_tree = Some(Arc::new(s.partial_tree()));
                s.publish_tree(true);
            }
            let p = s.progress(false);
            s.sink.event(SearchEvent::Progress(p));
            let exhaustive = depth >= remaining && cfg.branching_cap.is_none() && cfg.radius.is_none();
            if v.abs() >= WIN_BOUND || exhaustive {
                proven = exhaustive || v.abs() >= WIN_BOUND;
                break;
            }
            // Timer calibration: predict the next iteration from this one's growth.
            let spent = s.nodes - before;
            if let (Some(t), true) = (limits.time, cfg.calibrate_cap && cfg.branching_cap.is_some()) {
                let growth = if last_nodes > 0 { spent as f64 / last_nodes as f64 } else { 4.0 };
                let this_time = s.clock.elapsed() - started;
                let left = t - s.clock.elapsed();
                if this_time * growth > left
                    && let Some(q) = s.cap
                {
                    s.cap = Some((q * 2 / 3).max(2));
                }
            }
            last_nodes = spent.max(1);
            depth += 1;
        }
        if let Some(line) = &s.root_threat {
            let moves: Vec<String> = line.moves.iter().map(|&m| pos.format_move(m)).collect();
            let text = format!("alpha-beta: win by threats in {} plies: {}", line.plies, moves.join(" "));
            s.sink.event(SearchEvent::Notice(text));
        }
        // Stopped before it finished a depth a helper finished: the helper's result stands.
        s.adopt_team_result(s.completed.as_ref().map_or(0, |c| c.3));
        let unsearched = s.completed.is_none();
        let (best, value, pv, depth) = match s.completed.clone() {
            Some(c) => c,
            None => {
                // Stopped before depth 1 finished: a legal move, flagged as unsearched.
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                (moves[0], 0, Vec::new(), 0)
            }
        };
        let score = if unsearched {
            Score::Unknown
        } else if proven && value == 0 {
            Score::Draw
        } else {
            Score::from_value(value, cfg.prefer_faster_wins)
        };
        let mut result = SearchResult {
            best: Some(best),
            score,
            pv,
            stats: SearchStats {
                nodes: s.all_nodes(),
                iterations: 0,
                depth,
                elapsed: s.clock.elapsed(),
                memory: s.tt.as_ref().map_or(0, |t| t.memory()),
                tt_hits: s.tt_hits,
            },
            root: s.root_moves.clone(),
            unsearched,
        };
        let mut last = s.progress(true);
        last.score = result.score;
        s.sink.event(SearchEvent::Progress(last));
        if let Some(t) = team {
            t.main_nodes.store(s.nodes, Relaxed);
        }
        let last_tree = s.last_tree.take();
        self.last_tree = last_tree;
        result.stats.memory += self.last_tree.as_ref().map_or(0, |t| (t.nodes.len() * 96) as u64);
        result
    }
}

fn root_moves_from(tree: &[SnapNode], distances: bool) -> Vec<RootMove> {
    let Some(root) = tree.first() else {
        return Vec::new();
    };
    root.children
        .iter()
        .filter_map(|&c| {
            let n = &tree[c as usize];
            let ab = n.alphabeta.as_ref()?;
            let v = -ab.value;
            // The child's lower bound (a cutoff below it) is an upper bound for the root's mover.
            let upper_bound = ab.bound == Bound::Lower;
            Some(RootMove {
                mv: n.mv?,
                visits: 0,
                value: v as f64,
                score: Score::from_value(v, distances),
                upper_bound,
                pv: Vec::new(),
            })
        })
        .collect()
}

/// A copy of `tree` cut to `depth` plies and the first `top` children searched at each node.
pub fn prune_snapshot(tree: &TreeSnapshot, depth: u32, top: usize) -> TreeSnapshot {
    prune_snapshot_from(tree, 0, depth, top)
}

/// [`prune_snapshot`] of the subtree below node `start`, which becomes the copy's root.
pub fn prune_snapshot_from(tree: &TreeSnapshot, start: usize, depth: u32, top: usize) -> TreeSnapshot {
    let mut out = TreeSnapshot::default();
    if tree.nodes.is_empty() {
        return out;
    }
    fn copy(tree: &TreeSnapshot, out: &mut TreeSnapshot, id: usize, depth: u32, top: usize) -> u32 {
        let n = &tree.nodes[id];
        let new_id = out.nodes.len() as u32;
        out.nodes.push(SnapNode { children: Vec::new(), hidden_children: 0, ..n.clone() });
        if depth > 0 {
            let mut kids: Vec<u32> = n.children.clone();
            kids.sort_by_key(|&c| tree.nodes[c as usize].order);
            let hidden = kids.len().saturating_sub(top) as u32 + n.hidden_children;
            kids.truncate(top);
            let ids: Vec<u32> = kids.iter().map(|&c| copy(tree, out, c as usize, depth - 1, top)).collect();
            out.nodes[new_id as usize].children = ids;
            out.nodes[new_id as usize].hidden_children = hidden;
        } else {
            out.nodes[new_id as usize].hidden_children = n.children.len() as u32 + n.hidden_children;
        }
        new_id
    }
    copy(tree, &mut out, start, depth, top);
    out
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
