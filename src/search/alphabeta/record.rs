//! The tree recorded for the explorer: its nodes as the search enters and leaves them, the
//! root's candidates read from it, and copies cut to what the explorer shows.

use super::{MAX_RECORDED, Searcher};
use crate::game::{Move, Position};
use crate::search::Score;
use crate::search::progress::RootMove;
use crate::search::score::INF;
use crate::search::tree::{AlphaBetaStats, Bound, SnapNode, TreeSnapshot};

impl<P: Position> Searcher<'_, P> {
    pub(super) fn partial_tree(&self) -> TreeSnapshot {
        TreeSnapshot { nodes: self.tree.clone() }
    }

    pub(super) fn record_enter(&mut self, ply: u32, mv: Option<Move>, order: u32) -> Option<u32> {
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

    /// A node the tactics decided without a search of its moves: the deciding move (the win,
    /// or the block that still loses) recorded as its one child, valued `value` for the side
    /// to move there, so the explorer lists it below a "win in 1" instead of nothing.
    pub(super) fn record_decided(&mut self, ply: u32, mv: Move, value: i32) {
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

    pub(super) fn record_exit(&mut self, id: Option<u32>, stats: AlphaBetaStats) {
        if let Some(id) = id {
            self.tree[id as usize].alphabeta = Some(stats);
            self.path.pop();
        }
    }
}

pub(super) fn root_moves_from(tree: &[SnapNode], distances: bool) -> Vec<RootMove> {
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
