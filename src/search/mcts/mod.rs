//! The MCTS family: UCT/UCB1 with an exploration constant; expansion random or by the neighbour
//! heuristic (Alam et al., with their heuristic/random mix); rollouts random to the end, a few
//! random plies then a heuristic mapped into [0, 1] (Lim, with a logistic scaling), or
//! heuristic-biased; rewards 1 / 0.5 / 0 or the score margin (connect3d); final move max child,
//! robust child or max-robust; tree reuse between moves; an arena of nodes (indices, not
//! pointers) with a memory cap; MCTS-Solver and RAVE as options.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use serde::{Deserialize, Serialize};

use super::progress::{Clock, RootMove};
use super::tree::{MctsStats, Proven, SnapNode, TreeSnapshot};
use super::{
    Agent, Progress, ProgressSink, Score, SearchControl, SearchEvent, SearchLimits, SearchResult, SearchStats,
};
use crate::eval::{EvalBoard, HeuristicConfig};
use crate::game::{Move, Player, Position, Status};
use crate::rng::{GameRng, seeded};
use crate::search::SettingError;
use crate::search::threat_probe::{ThreatConfig, ThreatProbe};

/// Which untried move a node expands next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Expansion {
    /// Uniformly random.
    Random,
    /// The untried move with the most stones around it with probability `heuristic_share`,
    /// otherwise a random one (Alam et al. use 0.9).
    Neighbours { heuristic_share: f64 },
}

/// How a new node is valued.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Rollout {
    /// Uniformly random moves to the end of the game.
    Random,
    /// `plies` random moves, then the heuristic, mapped into [0, 1] by a logistic curve with
    /// `scale` (the heuristic value that maps to about 0.73). Lim's design.
    RandomThenEval {
        plies: u32,
        heuristic: HeuristicConfig,
        scale: f64,
        /// The heuristic's raw value as the reward, not mapped (`scale` unused): what Lim's
        /// MCTS did and what he blames for its weakness (a value in the thousands drowns
        /// UCT's exploration term and the 0-1 reward of a finished game). For testing that
        /// explanation, not for play.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        raw: bool,
    },
    /// Every move is the heuristic's best with probability 1 - `epsilon`, else random.
    HeuristicBiased { heuristic: HeuristicConfig, epsilon: f64 },
}

/// What a finished game is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Reward {
    /// 1 for a win, 1/2 for a draw, 0 for a loss.
    WinDrawLoss,
    /// connect3d: 1/2 plus the point margin over `MARGIN_SCALE`, clamped to [0, 1].
    ScoreMargin,
}

/// Points of margin that map to a reward of 1 (or 0) with [`Reward::ScoreMargin`].
pub const MARGIN_SCALE: f64 = 200.0;

/// Which root child is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum FinalMove {
    /// Highest mean reward.
    MaxChild,
    /// Most visits.
    RobustChild,
    /// Highest in both; when they differ at the end of the budget, search up to 10% more
    /// iterations for them to agree, then the most visited.
    MaxRobust,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MctsConfig {
    /// c in mean + c * sqrt(ln N / n).
    pub exploration: f64,
    pub expansion: Expansion,
    pub rollout: Rollout,
    pub reward: Reward,
    pub final_move: FinalMove,
    /// Keep the subtree of the position reached when the next search starts from it.
    pub tree_reuse: bool,
    /// Node arena limit in MiB; when full, the tree stops growing and iterations go on.
    pub memory_mb: u32,
    /// MCTS-Solver: proven wins and losses propagate up the tree.
    pub solver: bool,
    /// RAVE with this equivalence parameter k (beta = sqrt(k / (3n + k))); None: off.
    pub rave: Option<f64>,
    /// Seed of the agent's random choices (recorded with results).
    pub seed: u64,
    /// Search threads (1: one thread, reproducible), working as `parallel` says.
    pub threads: u32,
    /// How threads share the work when `threads` > 1.
    pub parallel: Parallel,
    /// The tree grows no deeper than this many plies below the root: iterations that reach
    /// that depth roll out from there. 1 is flat Monte Carlo with UCB at the root, which is
    /// what an MCTS that never attaches the leaf it expands (Alam et al.'s published code)
    /// amounts to below the root's children. None: no cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tree_depth: Option<u32>,
    /// Threat-space search (free placement, K-or-more rule) at the root and at each node the
    /// tree expands: a win by threats for the side to move there is a proven node (needs
    /// `solver`). None: off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threats: Option<ThreatConfig>,
}

/// How MCTS uses more than one thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Parallel {
    /// One shared tree: each thread walks it under a lock, marks its path with
    /// `virtual_loss` lost visits so the others spread out, rolls out outside the lock, then
    /// backs its result up (Chaslot et al. 2008, global mutex). Iteration, node and memory
    /// limits hold for the whole tree. Not reproducible from one run to the next.
    Tree { virtual_loss: u32 },
    /// Each helper grows a tree of its own from the same position (its seed derived from
    /// `seed` and its number), and their root statistics are added to the main tree's before
    /// the move is chosen. An iteration or node limit and `memory_mb` are shared out among
    /// the threads; a time limit holds for each. Reproducible with an iteration limit.
    Root,
}

impl Default for Parallel {
    /// Root: on this 2-core machine it doubles the iterations, where one shared tree's lock
    /// and cache-line traffic cost more than the second thread brings with fast rollouts
    /// (measured in docs/benchmarks.md).
    fn default() -> Self {
        Parallel::Root
    }
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            expansion: Expansion::Random,
            rollout: Rollout::Random,
            reward: Reward::WinDrawLoss,
            final_move: FinalMove::RobustChild,
            tree_reuse: false,
            memory_mb: 512,
            solver: false,
            rave: None,
            seed: 1,
            threads: 1,
            parallel: Parallel::default(),
            max_tree_depth: None,
            threats: None,
        }
    }
}

impl MctsConfig {
    pub fn validate(&self) -> Result<(), SettingError> {
        if !self.exploration.is_finite() || self.exploration < 0.0 {
            return Err(SettingError::range("mcts: exploration", "must be a number >= 0", self.exploration));
        }
        if let Expansion::Neighbours { heuristic_share } = self.expansion
            && !(0.0..=1.0).contains(&heuristic_share)
        {
            let field = "mcts: expansion heuristic_share";
            return Err(SettingError::range(field, "must be between 0 and 1", heuristic_share));
        }
        match &self.rollout {
            Rollout::RandomThenEval { heuristic, scale, .. } => {
                heuristic.validate()?;
                if !scale.is_finite() || *scale <= 0.0 {
                    return Err(SettingError::range("mcts: rollout scale", "must be > 0", scale));
                }
            }
            Rollout::HeuristicBiased { heuristic, epsilon } => {
                heuristic.validate()?;
                if !(0.0..=1.0).contains(epsilon) {
                    return Err(SettingError::range("mcts: rollout epsilon", "must be between 0 and 1", epsilon));
                }
            }
            Rollout::Random => {}
        }
        if self.max_tree_depth == Some(0) {
            let rule = "must be at least 1 (the root's children)";
            return Err(SettingError::Range { field: "mcts: max_tree_depth", rule, value: None });
        }
        if let Some(k) = self.rave
            && (!k.is_finite() || k <= 0.0)
        {
            return Err(SettingError::range("mcts: rave", "must be a positive number", k));
        }
        super::limits::check_memory_mb("mcts: memory_mb", self.memory_mb as u64, 1)?;
        super::limits::check_threads("mcts: threads", self.threads)?;
        if let Parallel::Tree { virtual_loss } = self.parallel
            && !(1..=1000).contains(&virtual_loss)
        {
            let field = "mcts: parallel virtual_loss";
            return Err(SettingError::range(field, "must be between 1 and 1000", virtual_loss));
        }
        if let Some(t) = &self.threats {
            t.validate([
                "mcts: threats.depth",
                "mcts: threats.budget",
                "mcts: threats.root_budget",
                "mcts: threats.table_mb",
            ])?;
            if !self.solver {
                let rule = "needs solver: true (a win by threats is a proven node)";
                return Err(SettingError::Range { field: "mcts: threats", rule, value: None });
            }
            if t.reply_budget > 0 {
                let rule = "is alpha-beta's (its check of each depth's best move): 0 for MCTS";
                return Err(SettingError::Range { field: "mcts: threats.reply_budget", rule, value: None });
            }
            if t.vcf_depth > 0 {
                let rule = "is alpha-beta's (fours alone near its leaves): 0 for MCTS";
                return Err(SettingError::Range { field: "mcts: threats.vcf_depth", rule, value: None });
            }
        }
        Ok(())
    }
}

mod expansion;
#[cfg(test)]
mod invariants;
mod parallel;
mod rollout;
mod tree_parallel;

use parallel::RootStats;
use rollout::{rollout, terminal_reward};

const NONE: u32 = u32::MAX;

/// The published tree (see [`Mcts::published_tree`]) holds the nodes with at least this
/// share of the root's visits...
const PUBLISHED_SHARE: u32 = 4096;
/// ... to this many plies below the root.
const PUBLISHED_DEPTH: u32 = 64;
/// Seconds between two published trees while someone shows the tree.
const PUBLISH_EVERY: f64 = 1.0;

/// Which children of a node a snapshot copies: the `top` most visited with at least `least`
/// visits; the others are counted as hidden.
#[derive(Clone, Copy)]
struct Cut {
    top: usize,
    least: u32,
}

/// One tree node, 24 bytes. Children are created one at a time, when the expansion policy
/// first tries their move (lazy expansion: memory goes to visited nodes, not to every legal
/// move of every node reached). A node's children sit contiguously in a block of the arena with
/// room for [`Node::cap`]; a full block moves to one twice the size (at most `legal`), and the
/// old block is reused by the next block of its size.
#[derive(Clone, Copy, Debug)]
struct Node {
    first_child: u32,
    visits: u32,
    /// Sum of rewards for the player who moved into this node.
    value: f32,
    mv: Move,
    /// Legal moves here, once the node has been expanded (0 before).
    legal: u16,
    /// Children created (every one of them visited).
    tried: u16,
    /// Bit `i`: move `i` has its child (moves 0..32; boards with more moves look through
    /// the children instead). Saves reading the children's block, often not in the cache,
    /// at every expansion.
    tried_moves: u32,
    /// Expansion prior (stones around the cell) of this move at its parent.
    prior: u8,
    proven: Option<Proven>,
}

impl Node {
    fn new(mv: Move, prior: u8) -> Node {
        Node { first_child: NONE, visits: 0, value: 0.0, mv, legal: 0, tried: 0, tried_moves: 0, prior, proven: None }
    }

    /// Room in the children's block: blocks hold 2, 4, 8 ... children (at most `legal`), and
    /// move to one twice the size when a child is added to a full one.
    fn cap(&self) -> usize {
        if self.tried == 0 { 0 } else { (self.tried as usize).next_power_of_two().max(2).min(self.legal as usize) }
    }

    /// Every legal move has its child.
    fn fully_expanded(&self) -> bool {
        self.tried == self.legal
    }
}

/// The MCTS agent: configuration, the node arena, the generator, and a scratch position that
/// rollouts are played on.
pub struct Mcts<P: Position> {
    pub config: MctsConfig,
    scratch: Option<P>,
    nodes: Vec<Node>,
    /// RAVE (all-moves-as-first) visits and reward sums, parallel to `nodes` when RAVE is on.
    rave: Vec<(u32, f32)>,
    rng: GameRng,
    /// Moves from the start of the game to the tree's root (for tree reuse).
    root_history: Vec<Move>,
    root_ply: usize,
    max_nodes: usize,
    /// The search's node limit: no expansion past it (but the root's, the smallest tree that
    /// can choose a move); one refused sets `budget_reached` and ends the search.
    node_budget: usize,
    budget_reached: bool,
    /// Node indices from the root to the current leaf.
    path: Vec<u32>,
    /// Nodes in the tree (the arena also holds free blocks).
    live: usize,
    /// Free children's blocks by size class (`free[i]` holds blocks of 2^i nodes).
    free: Vec<Vec<u32>>,
    /// sqrt(ln(n)) in f32 for the visit counts below its length (deep nodes, most of a
    /// walk's choices): the same values as computing them, without a logarithm each time.
    sqrt_ln: Vec<f32>,
    /// The threat prover and its table, kept between the searches of one game (None: off, or
    /// not under these rules).
    threats: Option<ThreatProbe>,
}

/// Visit counts whose sqrt(ln(n)) is looked up rather than computed.
const SQRT_LN_TABLE: usize = 4096;

/// Readies the position a tree walk plays its moves on: the tree is found by moves, never by
/// hash, so no hashes are kept up; with plain random rollouts nothing reads the score of an
/// unfinished game, so games scored by lines count them only at the end (in the rollout, or
/// when the walk itself fills the board).
pub(super) fn prepare_walk<P: Position>(config: &MctsConfig, work: &mut P) {
    // The threat prover's table is keyed by the position's hash.
    work.set_hashing(config.threats.is_some());
    work.set_deferred_scoring(matches!(config.rollout, Rollout::Random));
}

/// Logistic map of a heuristic value into (0, 1).
pub fn squash(v: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-v / scale).exp())
}

impl<P: Position> Mcts<P> {
    pub fn new(config: MctsConfig) -> Mcts<P> {
        let per_node = std::mem::size_of::<Node>() + if config.rave.is_some() { 8 } else { 0 };
        let max_nodes = (config.memory_mb as usize * 1024 * 1024 / per_node).max(16);
        let rng = seeded(config.seed);
        let threats = config.threats.map(ThreatProbe::new);
        Mcts {
            config,
            scratch: None,
            nodes: Vec::new(),
            rave: Vec::new(),
            rng,
            root_history: Vec::new(),
            root_ply: usize::MAX,
            max_nodes,
            node_budget: usize::MAX,
            budget_reached: false,
            path: Vec::new(),
            live: 0,
            free: Vec::new(),
            sqrt_ln: (0..SQRT_LN_TABLE).map(|n| (n.max(1) as f32).ln().sqrt()).collect(),
            threats,
        }
    }

    /// sqrt(ln(max(visits, 1))) in f32, from the table when it holds it.
    #[inline]
    fn sqrt_ln(&self, visits: u32) -> f32 {
        match self.sqrt_ln.get(visits as usize) {
            Some(&v) => v,
            None => (visits as f32).ln().sqrt(),
        }
    }

    fn new_root(&mut self) {
        self.nodes.clear();
        self.rave.clear();
        self.free.clear();
        self.live = 1;
        self.nodes.push(Node::new(Move(u16::MAX), 0));
        if self.config.rave.is_some() {
            self.rave.push((0, 0.0));
        }
    }

    /// Keeps the subtree of `pos` if `pos` follows the old root by moves the tree holds.
    fn reuse_or_reset(&mut self, pos: &P) {
        let h = pos.history();
        let reusable = self.config.tree_reuse
            && !self.nodes.is_empty()
            && h.len() >= self.root_history.len()
            && h[..self.root_history.len()] == self.root_history[..]
            && pos.ply() - h.len() == self.root_ply - self.root_history.len();
        if reusable {
            let mut at = Some(0usize);
            for &m in &h[self.root_history.len()..] {
                at = at.and_then(|n| self.tried_children(n).find(|&c| self.nodes[c].mv == m));
            }
            if let Some(at) = at {
                self.extract_subtree(at);
                self.root_history = h.to_vec();
                self.root_ply = pos.ply();
                return;
            }
        }
        self.new_root();
        self.root_history = h.to_vec();
        self.root_ply = pos.ply();
    }

    /// Rebuilds the arena with `root` as node 0 (breadth first, children stay contiguous).
    fn extract_subtree(&mut self, root: usize) {
        let old = std::mem::take(&mut self.nodes);
        let old_rave = std::mem::take(&mut self.rave);
        let rave = !old_rave.is_empty();
        let mut r = old[root];
        r.mv = Move(u16::MAX);
        self.nodes.push(r);
        if rave {
            self.rave.push(old_rave[root]);
        }
        let mut queue = vec![(root, 0usize)];
        let mut qi = 0;
        while qi < queue.len() {
            let (o, n) = queue[qi];
            qi += 1;
            let on = old[o];
            if on.first_child == NONE {
                continue;
            }
            let first = self.nodes.len();
            for i in 0..on.tried as usize {
                let c = on.first_child as usize + i;
                self.nodes.push(old[c]);
                if rave {
                    self.rave.push(old_rave[c]);
                }
                queue.push((c, first + i));
            }
            // The block keeps its room for more children.
            for _ in on.tried as usize..on.cap() {
                self.nodes.push(Node::new(Move(u16::MAX), 0));
                if rave {
                    self.rave.push((0, 0.0));
                }
            }
            self.nodes[n].first_child = if on.tried > 0 { first as u32 } else { NONE };
        }
        self.free.clear();
        self.live = queue.len();
    }

    /// The first `count` children of node `n` (empty before it is expanded).
    #[inline]
    fn child_range(&self, n: usize, count: u16) -> std::ops::Range<usize> {
        let first = self.nodes[n].first_child;
        if first == NONE { 0..0 } else { first as usize..first as usize + count as usize }
    }

    /// All children created so far (each one visited).
    #[inline]
    fn children(&self, n: usize) -> std::ops::Range<usize> {
        self.child_range(n, self.nodes[n].tried)
    }

    /// The children visited so far (with lazy expansion, the same as [`Self::children`]).
    #[inline]
    fn tried_children(&self, n: usize) -> std::ops::Range<usize> {
        self.child_range(n, self.nodes[n].tried)
    }

    /// Reward in [0, 1] of a finished game for `p`.
    fn terminal_reward(&self, pos: &P, p: Player) -> f64 {
        terminal_reward(&self.config, pos, p)
    }

    /// Values the position at the end of the tree walk for the first player (see [`rollout`]).
    fn rollout(&mut self, pos: &mut P, played: &mut Vec<(Move, Player)>) -> f64 {
        rollout(&self.config, &mut self.rng, &mut self.scratch, pos, played)
    }

    /// The UCT (or RAVE-blended) choice among the tried children of `n`.
    fn select_child(&self, n: usize) -> Option<usize> {
        let solver = self.config.solver;
        if !solver && self.config.rave.is_none() {
            return self.select_plain(n);
        }
        let c_ln = self.config.exploration * (self.nodes[n].visits.max(1) as f64).ln().sqrt();
        let all_lost = solver && self.tried_children(n).all(|ch| self.nodes[ch].proven == Some(Proven::Loss));
        let mut best = None;
        let mut best_v = f64::NEG_INFINITY;
        for ch in self.tried_children(n) {
            let node = &self.nodes[ch];
            if solver && !all_lost && node.proven == Some(Proven::Loss) {
                continue;
            }
            let visits = node.visits.max(1) as f64;
            let mean = node.value as f64 / visits;
            let q = match self.config.rave {
                Some(k) if self.rave[ch].0 > 0 => {
                    let beta = (k / (3.0 * visits + k)).sqrt();
                    (1.0 - beta) * mean + beta * self.rave[ch].1 as f64 / self.rave[ch].0 as f64
                }
                _ => mean,
            };
            let v = q + c_ln / visits.sqrt();
            if v > best_v {
                best_v = v;
                best = Some(ch);
            }
        }
        best
    }

    /// Plain UCB1 over the block of children of `n` with the tie-break of
    /// [`Self::select_child`] (the first maximum), in f32 (the precision of the stored sums).
    /// Both steps run without branches the compiler cannot turn into vector code: the scores
    /// of a chunk of children first (vector divisions and square roots), then their maximum
    /// (lane-wise, then across the lanes), then the first child that has it. A running
    /// "best so far" would mispredict at random children, on every level of every walk.
    fn select_plain(&self, n: usize) -> Option<usize> {
        const CHUNK: usize = 32;
        const LANES: usize = 8;
        let c_ln = self.config.exploration as f32 * self.sqrt_ln(self.nodes[n].visits);
        let range = self.tried_children(n);
        let mut best = None;
        let mut best_v = f32::NEG_INFINITY;
        let mut scores = [0f32; CHUNK];
        let max = |a: f32, b: f32| if a > b { a } else { b };
        for (c, chunk) in self.nodes[range.clone()].chunks(CHUNK).enumerate() {
            for (score, node) in scores.iter_mut().zip(chunk) {
                let visits = node.visits.max(1) as f32;
                *score = node.value / visits + c_ln / visits.sqrt();
            }
            scores[chunk.len()..].fill(f32::NEG_INFINITY);
            let mut lanes = [f32::NEG_INFINITY; LANES];
            for row in scores.chunks_exact(LANES) {
                for (lane, &v) in lanes.iter_mut().zip(row) {
                    *lane = max(*lane, v);
                }
            }
            let top = lanes.into_iter().fold(f32::NEG_INFINITY, max);
            if top > best_v {
                best_v = top;
                best = scores.iter().position(|&v| v == top).map(|i| range.start + c * CHUNK + i);
            }
        }
        best
    }

    /// MCTS-Solver: settles node `n` from its children if they prove it.
    fn prove(&mut self, n: usize) {
        let range = self.children(n);
        if range.is_empty() {
            return;
        }
        let mut all_lost = true;
        let mut all_proven = true;
        for ch in range {
            match self.nodes[ch].proven {
                // A child that wins for the player choosing it: the node is lost for whoever moved into it.
                Some(Proven::Win) => {
                    self.nodes[n].proven = Some(Proven::Loss);
                    return;
                }
                Some(Proven::Loss) => {}
                Some(Proven::Draw) => all_lost = false,
                None => {
                    all_lost = false;
                    all_proven = false;
                }
            }
        }
        if !self.nodes[n].fully_expanded() {
            // A move without a child yet may be better than every child.
        } else if all_lost {
            self.nodes[n].proven = Some(Proven::Win);
        } else if all_proven {
            self.nodes[n].proven = Some(Proven::Draw);
        }
    }

    fn mean(&self, n: usize) -> f64 {
        let node = &self.nodes[n];
        if node.visits == 0 { 0.0 } else { node.value as f64 / node.visits as f64 }
    }

    fn best_by_visits(&self) -> Option<usize> {
        self.children(0).filter(|&c| self.nodes[c].visits > 0).max_by(|&a, &b| {
            self.nodes[a].visits.cmp(&self.nodes[b].visits).then(self.mean(a).total_cmp(&self.mean(b)))
        })
    }

    fn best_by_mean(&self) -> Option<usize> {
        self.children(0).filter(|&c| self.nodes[c].visits > 0).max_by(|&a, &b| {
            self.mean(a).total_cmp(&self.mean(b)).then(self.nodes[a].visits.cmp(&self.nodes[b].visits))
        })
    }

    fn chosen(&self) -> Option<usize> {
        if self.config.solver
            && let Some(w) = self.children(0).find(|&c| self.nodes[c].proven == Some(Proven::Win))
        {
            return Some(w);
        }
        match self.config.final_move {
            FinalMove::MaxChild => self.best_by_mean(),
            FinalMove::RobustChild | FinalMove::MaxRobust => self.best_by_visits(),
        }
    }

    fn pv(&self) -> Vec<Move> {
        self.chosen().map_or_else(Vec::new, |n| self.line_from(n, 64))
    }

    /// The most visited line from node `n` (its move first), at most `max` moves.
    fn line_from(&self, n: usize, max: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut at = Some(n);
        while let Some(n) = at {
            line.push(self.nodes[n].mv);
            at = self.children(n).filter(|&c| self.nodes[c].visits > 0).max_by_key(|&c| self.nodes[c].visits);
            if line.len() >= max {
                break;
            }
        }
        line
    }

    fn score_of(&self, n: usize) -> Score {
        match self.nodes[n].proven {
            Some(Proven::Win) => Score::Win { plies: None },
            Some(Proven::Loss) => Score::Loss { plies: None },
            Some(Proven::Draw) => Score::Draw,
            // A raw heuristic reward (Lim's flaw) is no rate: clamped for display only.
            None => Score::WinRate(self.mean(n).clamp(0.0, 1.0)),
        }
    }

    fn root_moves(&self) -> Vec<RootMove> {
        self.tried_children(0)
            .map(|c| RootMove {
                mv: self.nodes[c].mv,
                visits: self.nodes[c].visits as u64,
                value: self.mean(c),
                score: self.score_of(c),
                upper_bound: false,
                pv: self.line_from(c, 12),
            })
            .collect()
    }

    fn depth_of_pv(&self) -> u32 {
        self.pv().len() as u32
    }

    fn progress(&self, clock: &Clock, iterations: u64, finished: bool) -> Progress {
        let best = self.chosen();
        Progress {
            depth: self.depth_of_pv(),
            iterations,
            nodes: self.live as u64,
            nodes_per_second: clock.rate(iterations),
            elapsed: clock.elapsed(),
            best: best.map(|b| self.nodes[b].mv),
            score: best.map_or(Score::Unknown, |b| self.score_of(b)),
            pv: self.pv(),
            root: self.root_moves(),
            finished,
            threads: self.config.threads.max(1),
            proof: false,
            bounds: None,
        }
    }

    /// One iteration: select, expand, roll out, back up.
    fn iterate(&mut self, pos: &mut P, moves: &mut Vec<Move>, played: &mut Vec<(Move, Player)>) {
        let into_root = pos.side_to_move().other();
        let mut path = std::mem::take(&mut self.path);
        let leaf = self.descend(pos, moves, played, &mut path);
        let depth = played.len();
        let reward_first = match self.leaf_reward(pos, leaf) {
            Some(r) => r,
            None => self.rollout(pos, played),
        };
        self.back_up(&path, played, depth, reward_first, into_root, 0);
        for _ in 0..depth {
            pos.undo();
        }
        self.path = path;
    }

    /// Selection and expansion: walks from the root to a new child (or a finished game, or a
    /// proven node), playing the moves on `pos` and recording them in `played` and the nodes
    /// in `path` (the root first). Returns the node reached.
    fn descend(
        &mut self,
        pos: &mut P,
        moves: &mut Vec<Move>,
        played: &mut Vec<(Move, Player)>,
        path: &mut Vec<u32>,
    ) -> usize {
        played.clear();
        path.clear();
        path.push(0);
        let mut n = 0usize;
        loop {
            if pos.is_over() || (self.config.solver && self.nodes[n].proven.is_some()) {
                break;
            }
            // A node at the depth cap is a leaf for good: the rollout starts here.
            if self.config.max_tree_depth.is_some_and(|d| path.len() > d as usize) {
                break;
            }
            if self.nodes[n].legal == 0 {
                if n != 0 && self.threat_proof(n, pos) {
                    break;
                }
                if !self.expand(n, pos) {
                    break;
                }
            }
            let next = match self.untried_child(n, pos, moves) {
                Some(c) => (c, true),
                None => match self.select_child(n) {
                    Some(c) => (c, false),
                    None => break,
                },
            };
            let m = self.nodes[next.0].mv;
            played.push((m, pos.side_to_move()));
            pos.play(m);
            n = next.0;
            path.push(n as u32);
            if next.1 {
                break;
            }
        }
        n
    }

    /// Node `n`, reached at `pos` for the first time since it was made, is proven a loss for
    /// the player who moved into it when the side to move wins by threats there.
    fn threat_proof(&mut self, n: usize, pos: &mut P) -> bool {
        let Some(probe) = self.threats.as_mut() else { return false };
        if !ThreatProbe::applies(pos) {
            return false;
        }
        let mut board = EvalBoard::new(pos, |_, _, _| 0).with_near_windows();
        let limits = probe.in_tree();
        if probe.side_to_move_wins(pos, &mut board, limits).is_none() {
            return false;
        }
        self.nodes[n].proven = Some(Proven::Loss);
        true
    }

    /// The root's win by threats, as the search's result: its first move, the line, "win in"
    /// the line's length, said in a notice.
    fn root_threat_win(&mut self, pos: &P, clock: &Clock, sink: &mut dyn ProgressSink) -> Option<SearchResult> {
        let probe = self.threats.as_mut()?;
        if !ThreatProbe::applies(pos) {
            return None;
        }
        let mut work = pos.clone();
        work.set_hashing(true);
        let mut board = EvalBoard::new(&work, |_, _, _| 0).with_near_windows();
        // MCTS's node limit counts tree nodes, not the prover's.
        let limits = probe.at_root(&clock.limits, false);
        let line = probe.side_to_move_wins(&mut work, &mut board, limits)?;
        let moves: Vec<String> = line.moves.iter().map(|&m| pos.format_move(m)).collect();
        sink.event(SearchEvent::Notice(format!("mcts: win by threats in {} plies: {}", line.plies, moves.join(" "))));
        let score = Score::Win { plies: Some(line.plies) };
        let best = *line.moves.first()?;
        // The winning move is the one candidate, as alpha-beta lists a win found at once.
        let root =
            vec![RootMove { mv: best, visits: 0, value: 1.0, score, upper_bound: false, pv: line.moves.clone() }];
        let progress = Progress {
            score,
            best: Some(best),
            pv: line.moves.clone(),
            root: root.clone(),
            ..self.progress(clock, 0, true)
        };
        sink.event(SearchEvent::Progress(progress));
        Some(SearchResult {
            best: Some(best),
            score,
            pv: line.moves,
            stats: SearchStats { elapsed: clock.elapsed(), ..SearchStats::default() },
            root,
            unsearched: false,
        })
    }

    /// The value for the first player of node `n` at `pos` when no rollout is needed: a
    /// finished game (proved, with MCTS-Solver) or a node MCTS-Solver has proved.
    fn leaf_reward(&mut self, pos: &P, n: usize) -> Option<f64> {
        if pos.is_over() {
            if self.config.solver {
                let mover = pos.side_just_moved();
                self.nodes[n].proven = Some(match pos.status() {
                    Status::Win(w) if w == mover => Proven::Win,
                    Status::Win(_) => Proven::Loss,
                    _ => Proven::Draw,
                });
            }
            Some(self.terminal_reward(pos, Player::First))
        } else if self.config.solver && self.nodes[n].proven.is_some() && n != 0 {
            let mover = pos.side_just_moved();
            let r = match self.nodes[n].proven {
                Some(Proven::Win) => 1.0,
                Some(Proven::Loss) => 0.0,
                _ => 0.5,
            };
            Some(if mover == Player::First { r } else { 1.0 - r })
        } else {
            None
        }
    }

    /// Tree parallelism: marks the walk's nodes with `virtual_loss` visits that brought
    /// nothing (a loss for whoever moved into them) until [`Self::back_up`] replaces them.
    fn add_virtual_loss(&mut self, path: &[u32], virtual_loss: u32) {
        for &n in path {
            self.nodes[n as usize].visits += virtual_loss;
        }
    }

    /// Back-propagation of `reward_first` (for the first player) along `path`, whose first
    /// `depth` moves are in `played` (then the rollout's, for RAVE); `into_root` moved into
    /// the root. With a virtual loss on the path, its visits are taken back for the real one.
    fn back_up(
        &mut self,
        path: &[u32],
        played: &[(Move, Player)],
        depth: usize,
        reward_first: f64,
        into_root: Player,
        virtual_loss: u32,
    ) {
        for i in (0..depth).rev() {
            let (at, parent) = (path[i + 1] as usize, path[i] as usize);
            let (_, mover) = played[i];
            let r = if mover == Player::First { reward_first } else { 1.0 - reward_first };
            let node = &mut self.nodes[at];
            node.visits = node.visits + 1 - virtual_loss;
            node.value += r as f32;
            if self.config.rave.is_some() {
                // AMAF: siblings whose move the same player played later in this simulation.
                for ch in self.children(parent) {
                    let mv = self.nodes[ch].mv;
                    if played[i..].iter().step_by(2).any(|&(m, p)| m == mv && p == mover) {
                        self.rave[ch].0 += 1;
                        self.rave[ch].1 += r as f32;
                    }
                }
            }
            if self.config.solver && self.nodes[at].proven.is_none() {
                self.prove(at);
            }
        }
        // The root's own statistics, for the player who moved into it (as every node's), so
        // the explorer shows a real mean at the root too.
        let r = if into_root == Player::First { reward_first } else { 1.0 - reward_first };
        self.nodes[0].value += r as f32;
        self.nodes[0].visits = self.nodes[0].visits + 1 - virtual_loss;
        if self.config.solver {
            self.prove(0);
        }
    }

    fn snapshot_tree(&self, depth: u32, top: usize) -> TreeSnapshot {
        let mut out = TreeSnapshot::default();
        if self.nodes.is_empty() {
            return out;
        }
        self.copy_node(&mut out, 0, None, depth, Cut { top, least: 1 }, 0);
        out
    }

    /// The tree published while the search runs (see [`SearchEvent::Published`]): every node
    /// with at least 1/[`PUBLISHED_SHARE`] of the root's visits. The visits of one ply's nodes
    /// add up to at most the root's, so it holds at most that many nodes a ply, whatever the
    /// size of the tree; a node with fewer visits is counted as hidden below its parent.
    fn published_tree(&self) -> TreeSnapshot {
        let mut out = TreeSnapshot::default();
        if !self.nodes.is_empty() {
            let least = (self.nodes[0].visits / PUBLISHED_SHARE).max(1);
            self.copy_node(&mut out, 0, None, PUBLISHED_DEPTH, Cut { top: usize::MAX, least }, 0);
        }
        out
    }

    /// Copies node `n` and, `depth` levels down, the children `cut` keeps into `out`; `order`
    /// is its rank among its siblings.
    fn copy_node(
        &self,
        out: &mut TreeSnapshot,
        n: usize,
        parent: Option<usize>,
        depth: u32,
        cut: Cut,
        order: u32,
    ) -> u32 {
        let c = self.config.exploration;
        let node = &self.nodes[n];
        let parent_visits = parent.map_or(node.visits, |p| self.nodes[p].visits);
        let exploration = if node.visits > 0 {
            c * ((parent_visits.max(1) as f64).ln() / node.visits as f64).sqrt()
        } else {
            f64::INFINITY
        };
        let id = out.nodes.len() as u32;
        out.nodes.push(SnapNode {
            mv: parent.map(|_| node.mv),
            order,
            children: Vec::new(),
            mcts: Some(MctsStats {
                visits: node.visits as u64,
                mean: self.mean(n),
                exploration,
                proven: node.proven,
                rave_visits: self.rave.get(n).map_or(0, |r| r.0 as u64),
                rave_mean: self.rave.get(n).map_or(0.0, |r| if r.0 > 0 { r.1 as f64 / r.0 as f64 } else { 0.0 }),
                prior: node.prior as u32,
            }),
            alphabeta: None,
            hidden_children: 0,
        });
        let mut kids: Vec<usize> = self.children(n).filter(|&ch| self.nodes[ch].visits > 0).collect();
        kids.sort_by(|&a, &b| self.nodes[b].visits.cmp(&self.nodes[a].visits));
        let total = kids.len();
        if depth == 0 {
            out.nodes[id as usize].hidden_children = total as u32;
            return id;
        }
        let shown = kids.iter().take(cut.top).take_while(|&&ch| self.nodes[ch].visits >= cut.least).count();
        kids.truncate(shown);
        let ids: Vec<u32> = kids
            .iter()
            .enumerate()
            .map(|(i, &ch)| self.copy_node(out, ch, Some(n), depth - 1, cut, i as u32))
            .collect();
        out.nodes[id as usize].children = ids;
        out.nodes[id as usize].hidden_children = (total - kids.len()) as u32;
        id
    }
}

impl<P: Position> Agent<P> for Mcts<P> {
    fn search(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
    ) -> SearchResult {
        if self.config.threads.max(1) == 1 || pos.is_over() {
            return self.search_on(pos, limits, control, sink, &[], &mut |_| (Vec::new(), 0));
        }
        match self.config.parallel {
            Parallel::Tree { virtual_loss } => self.search_tree_parallel(pos, limits, control, sink, virtual_loss),
            Parallel::Root => self.search_root_parallel(pos, limits, control, sink),
        }
    }

    fn snapshot(&self, depth: u32, top: usize) -> Option<TreeSnapshot> {
        (!self.nodes.is_empty()).then(|| self.snapshot_tree(depth, top))
    }

    fn subtree(&self, path: &[Move], depth: u32, top: usize) -> Option<TreeSnapshot> {
        if self.nodes.is_empty() {
            return None;
        }
        let (mut at, mut parent) = (0usize, None);
        for &m in path {
            let next = self.children(at).find(|&c| self.nodes[c].mv == m)?;
            (parent, at) = (Some(at), next);
        }
        let mut out = TreeSnapshot::default();
        self.copy_node(&mut out, at, parent, depth, Cut { top, least: 1 }, 0);
        Some(out)
    }

    fn new_game(&mut self) {
        self.nodes.clear();
        self.rave.clear();
        self.root_history.clear();
        self.root_ply = usize::MAX;
        self.threats = self.config.threats.map(ThreatProbe::new);
    }
}

impl<P: Position> Mcts<P> {
    /// The search of the main thread: `team` counts the helpers' iterations as they go;
    /// `join` waits for the helpers (stopping them first when told) and returns their root
    /// statistics and iterations, merged before the move is chosen.
    fn search_on(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
        team: &[AtomicU64],
        join: &mut dyn FnMut(bool) -> (RootStats, u64),
    ) -> SearchResult {
        let team_iterations = || team.iter().map(|c| c.load(Relaxed)).sum::<u64>();
        let mut clock = Clock::new(limits);
        if pos.is_over() {
            return SearchResult::default();
        }
        self.reuse_or_reset(pos);
        if let Some(result) = self.root_threat_win(pos, &clock, sink) {
            return result;
        }
        let mut work = pos.clone();
        prepare_walk(&self.config, &mut work);
        let mut moves = Vec::new();
        let mut played = Vec::new();
        let mut iterations: u64 = 0;
        // No limit at all: search until stopped.
        let mut budget = limits.iterations.unwrap_or(u64::MAX);
        self.node_budget = limits.nodes.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        self.budget_reached = false;
        // The clock is read every `stride` iterations: 16 for light ones, fewer for heavy ones
        // (a heuristic rollout on a big board), so that it is read about every 0.25 ms and a
        // time limit is never overrun by more than that (16 heavy iterations overran a 20 ms
        // move by 12 ms).
        let (mut stride, mut next_check, mut last_check) = (16u64, 16u64, 0.0f64);
        let mut next_publish = 0.0;
        loop {
            if iterations >= budget {
                // Max-robust: allow up to 10% more for the best-by-mean and most-visited to agree.
                if self.config.final_move == FinalMove::MaxRobust
                    && self.best_by_mean() != self.best_by_visits()
                    && iterations < limits.iterations.unwrap_or(budget) + limits.iterations.unwrap_or(budget) / 10
                {
                    budget = iterations + 1;
                } else {
                    break;
                }
            }
            self.iterate(&mut work, &mut moves, &mut played);
            iterations += 1;
            if self.config.solver && self.nodes[0].proven.is_some() {
                break;
            }
            // A node budget is exact: the search ends at the first expansion it would not
            // allow. The clock and the stop flag are read every `stride` iterations.
            if self.budget_reached || limits.nodes.is_some_and(|n| self.live as u64 >= n) {
                break;
            }
            if iterations >= next_check {
                if control.is_stopped() || clock.out_of_time() {
                    break;
                }
                let now = clock.elapsed();
                let each = (now - last_check) / stride as f64;
                stride = if each > 0.0 { ((0.000_25 / each) as u64).clamp(1, 16) } else { 16 };
                last_check = now;
                next_check = iterations + stride;
                if control.trees_wanted() && now >= next_publish {
                    sink.event(SearchEvent::Published(Arc::new(self.published_tree())));
                    next_publish = now + PUBLISH_EVERY;
                }
                if let Some(d) = control.take_snapshot_request() {
                    sink.event(SearchEvent::Snapshot(self.snapshot_tree(d, 8)));
                }
                if clock.report_due() {
                    let all = iterations + team_iterations();
                    sink.event(SearchEvent::Progress(self.progress(&clock, all, false)));
                }
            }
        }
        let cut_short = control.is_stopped() || self.nodes[0].proven.is_some();
        let (helpers, helper_iterations) = join(cut_short);
        self.merge_root(&helpers);
        self.conclude(pos, &clock, iterations + helper_iterations, iterations, sink)
    }

    /// The search's result from the tree as it stands: the move, its score, the line and the
    /// statistics (`iterations` in all, `own` by this thread), also sent as the last report.
    fn conclude(
        &mut self,
        pos: &P,
        clock: &Clock,
        iterations: u64,
        own: u64,
        sink: &mut dyn ProgressSink,
    ) -> SearchResult {
        let chosen = self.chosen().or_else(|| self.children(0).next());
        let best = chosen.map(|c| self.nodes[c].mv).or_else(|| {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            moves.first().copied()
        });
        let score = match self.nodes[0].proven {
            // The root's proof is for the player who moved into it: the opponent of the side to move.
            Some(Proven::Win) => Score::Loss { plies: None },
            Some(Proven::Loss) => Score::Win { plies: None },
            Some(Proven::Draw) => Score::Draw,
            None => chosen.map_or(Score::Unknown, |c| self.score_of(c)),
        };
        let last = Progress { score, ..self.progress(clock, iterations, true) };
        sink.event(SearchEvent::Progress(last));
        SearchResult {
            best,
            score,
            pv: self.pv(),
            stats: SearchStats {
                nodes: self.live as u64,
                iterations,
                depth: self.depth_of_pv(),
                elapsed: clock.elapsed(),
                memory: (self.nodes.capacity() * std::mem::size_of::<Node>()) as u64,
                tt_hits: 0,
            },
            root: self.root_moves(),
            unsearched: own == 0 && chosen.is_none(),
        }
    }
}
