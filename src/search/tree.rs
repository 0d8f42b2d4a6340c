//! Read-only snapshots of a search tree for the explorer: the top children of each node to a
//! chosen depth, with the statistics of the algorithm that built it.

use serde::{Deserialize, Serialize};

use crate::game::Move;

/// Proven result of a node for the player who moved into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Proven {
    Win,
    Loss,
    Draw,
}

/// Alpha-beta bound type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Bound {
    Exact,
    /// The value is at least this (a cutoff: fail high).
    Lower,
    /// The value is at most this (fail low).
    Upper,
}

/// Statistics of an MCTS node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MctsStats {
    pub visits: u64,
    /// Mean reward for the player who moved into this node.
    pub mean: f64,
    /// The UCB exploration term at the parent's current visit count.
    pub exploration: f64,
    pub proven: Option<Proven>,
    pub rave_visits: u64,
    pub rave_mean: f64,
    /// The expansion prior of the move (stones around its cell, for neighbour expansion; 0
    /// when the expansion policy has none).
    #[serde(default)]
    pub prior: u32,
}

/// Statistics of an alpha-beta node (from its last visit).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlphaBetaStats {
    /// Value for the side to move at this node.
    pub value: i32,
    pub bound: Bound,
    pub alpha: i32,
    pub beta: i32,
    pub depth: u32,
    /// A child refuted the node before every child was searched.
    pub cutoff: bool,
    pub tt_hit: bool,
    /// The move that refuted it (with `cutoff`).
    #[serde(default)]
    pub cutoff_move: Option<Move>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapNode {
    /// The move into this node (None at the root).
    pub mv: Option<Move>,
    /// Position in the order the search tried the parent's children (0 first).
    pub order: u32,
    pub children: Vec<u32>,
    pub mcts: Option<MctsStats>,
    pub alphabeta: Option<AlphaBetaStats>,
    /// Children not included (beyond the top ones or the depth).
    pub hidden_children: u32,
}

/// Nodes in an arena; node 0 is the root.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeSnapshot {
    pub nodes: Vec<SnapNode>,
}

impl TreeSnapshot {
    pub fn root(&self) -> Option<&SnapNode> {
        self.nodes.first()
    }

    /// The node reached by `path` (moves from the root), if the snapshot holds it.
    pub fn node_at(&self, path: &[Move]) -> Option<usize> {
        let mut at = if self.nodes.is_empty() { return None } else { 0 };
        for &m in path {
            at = self.nodes[at].children.iter().map(|&c| c as usize).find(|&c| self.nodes[c].mv == Some(m))?;
        }
        Some(at)
    }

    /// Puts `sub` (a snapshot rooted at the node `path` reaches, fetched on demand) in place of
    /// that node's children, so the explorer can open it deeper or wider than the first
    /// snapshot went. The node keeps its place and statistics. False if `path` is not here.
    pub fn graft(&mut self, path: &[Move], sub: &TreeSnapshot) -> bool {
        let (Some(at), Some(sub_root)) = (self.node_at(path), sub.nodes.first()) else { return false };
        // Sub's node i (i >= 1) becomes node offset + i - 1 here.
        let offset = self.nodes.len() as u32;
        let renumber = |c: u32| offset + c - 1;
        for n in &sub.nodes[1..] {
            let mut n = n.clone();
            n.children = n.children.iter().map(|&c| renumber(c)).collect();
            self.nodes.push(n);
        }
        let node = &mut self.nodes[at];
        node.children = sub_root.children.iter().map(|&c| renumber(c)).collect();
        node.hidden_children = sub_root.hidden_children;
        true
    }

    /// The moves from the root to node `id`.
    pub fn path_to(&self, id: usize) -> Vec<Move> {
        let mut parent = vec![usize::MAX; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            for &c in &n.children {
                parent[c as usize] = i;
            }
        }
        let mut path = Vec::new();
        let mut at = id;
        while at != 0 && at < self.nodes.len() {
            if let Some(m) = self.nodes[at].mv {
                path.push(m);
            }
            at = parent[at];
        }
        path.reverse();
        path
    }
}
