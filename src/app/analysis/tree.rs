//! The analysis's search tree as the explorer shows it: subtrees fetched on demand and kept
//! across the snapshots of a running search, and the best line opened to its end in the
//! background.

use std::time::Instant;

use super::Analysis;
use crate::analysis::{SortBy, best_line};
use crate::game::Move;
use crate::search::TreeSnapshot;
use crate::search::tree::SnapNode;

use super::super::worker::Job;

/// The deepest line "expand PV" opens (a game of gomoku lasts at most 225 plies).
const LONGEST_LINE: usize = 400;
/// What "expand PV" asks for at the end of the line: plies and children a node.
const LINE_CHUNK: (u32, usize) = (8, 12);

/// A subtree put into the tree shown, kept to be put in again when the next snapshot of a
/// running search replaces the tree. `None`: the search has nothing below that node.
#[derive(Clone, Debug)]
pub(super) struct Graft {
    path: Vec<Move>,
    tree: Option<TreeSnapshot>,
    fresh: bool,
}

/// "Expand PV" under way: the best line as `sort` orders it, opened chunk by chunk until it
/// ends, whatever the explorer tab shows meanwhile.
#[derive(Clone, Debug)]
pub struct LineExpansion {
    pub sort: SortBy,
    pub started: Instant,
    /// Plies of the line so far.
    pub plies: usize,
    /// The whole line, once it ends: the explorer opens it and shows its last node.
    pub done: Option<Vec<Move>>,
    /// The line's end asked about last: still a leaf after its answer, the line ends there
    /// (the game is over, or nothing was found below).
    asked: Option<Vec<Move>>,
}

impl Analysis {
    /// Asks the worker for the tree below `path`, `depth` plies and `top` children a node
    /// deep, to graft into the tree shown. The worker answers at once, running search or
    /// finished, from the tree the search last published, or with a fresh search of the node
    /// where that tree holds none of its children.
    pub fn request_subtree(&mut self, path: Vec<Move>, depth: u32, top: usize) {
        if self.fetching.contains(&path) || self.tree.is_none() {
            return;
        }
        self.fetching.push(path.clone());
        self.worker.send(Job::Subtree { id: self.id, path, depth, top, refresh: false });
    }

    /// Puts a fetched subtree in place in the tree shown, and keeps it for the next snapshots.
    pub(super) fn graft(&mut self, path: Vec<Move>, tree: Option<TreeSnapshot>, fresh: bool) {
        self.fetching.retain(|p| *p != path);
        if tree.is_none() && self.tree.as_ref().is_none_or(|t| t.node_at(&path).is_none()) {
            self.error = Some("the search's tree does not reach that node".into());
        }
        // A later answer for the same node replaces the earlier one.
        self.grafts.retain(|g| g.path != path);
        self.grafts.push(Graft { path: path.clone(), tree, fresh });
        // Deeper grafts after the shallower ones they hang from: this one, then those below it
        // (its answer replaced their parents' nodes).
        self.grafts.sort_by_key(|g| g.path.len());
        if let Some(t) = self.tree.as_mut() {
            for g in self.grafts.iter().filter(|g| g.path.starts_with(&path)) {
                apply(t, g);
            }
        }
        self.advance_expansion();
    }

    /// A new snapshot of the running search: the subtrees fetched before are put in again (the
    /// rows the user opened stay), and those from the search's own tree asked for afresh so
    /// their numbers follow the search.
    pub(super) fn take_snapshot(&mut self, mut tree: TreeSnapshot) {
        for g in &self.grafts {
            apply(&mut tree, g);
        }
        self.tree = Some(tree);
        if self.running {
            for g in self.grafts.iter().filter(|g| !g.fresh && g.tree.is_some()) {
                let (depth, top) = g.tree.as_ref().map_or(LINE_CHUNK, extent);
                self.worker.send(Job::Subtree { id: self.id, path: g.path.clone(), depth, top, refresh: true });
            }
        }
        self.advance_expansion();
    }

    /// The nodes whose children came from a fresh search of the node, with that search's root
    /// statistics (its depth and value): the explorer marks them.
    /// Borrowed, as the explorer draws them each frame (cloned, every frame copied each path).
    pub fn fresh_nodes(&self) -> Vec<(&[Move], &SnapNode)> {
        self.grafts
            .iter()
            .filter(|g| g.fresh)
            .filter_map(|g| Some((g.path.as_slice(), g.tree.as_ref()?.nodes.first()?)))
            .collect()
    }

    /// Starts opening the best line, as `sort` orders it, to its end.
    pub fn expand_line(&mut self, sort: SortBy) {
        self.expansion = Some(LineExpansion { sort, started: Instant::now(), plies: 0, done: None, asked: None });
        self.advance_expansion();
    }

    /// Forgets the tree's fetched parts and the line being opened (a new analysis).
    pub(super) fn forget_tree(&mut self) {
        self.grafts.clear();
        self.fetching.clear();
        self.expansion = None;
    }

    /// One step of "expand PV": the line's last node has more below it: ask for it; else the
    /// line is done.
    fn advance_expansion(&mut self) {
        let (Some(x), Some(tree)) = (&self.expansion, &self.tree) else { return };
        if x.done.is_some() {
            return;
        }
        // To the end of the game: a leaf of the search is asked about too (the worker searches
        // it afresh), once; still a leaf after its answer, the line ends there.
        // An answer on its way (a new snapshot came first) decides.
        let (path, _) = best_line(tree, x.sort);
        let waiting = self.fetching.contains(&path);
        let more = x.asked.as_ref() != Some(&path) && path.len() < LONGEST_LINE;
        if let Some(x) = self.expansion.as_mut() {
            x.plies = path.len();
            if waiting {
                return;
            }
            if more {
                x.asked = Some(path.clone());
            } else {
                x.done = Some(path.clone());
            }
        }
        if more {
            self.request_subtree(path, LINE_CHUNK.0, LINE_CHUNK.1);
        }
    }
}

/// Plies and children a node of a fetched subtree: asked for again at that size.
fn extent(t: &TreeSnapshot) -> (u32, usize) {
    let top = t.nodes.iter().map(|n| n.children.len() + n.hidden_children as usize).max().unwrap_or(1);
    let mut deepest = 0;
    let mut stack = vec![(0usize, 0u32)];
    while let Some((n, d)) = stack.pop() {
        deepest = deepest.max(d);
        stack.extend(t.nodes[n].children.iter().map(|&c| (c as usize, d + 1)));
    }
    (deepest.max(1), top.max(1))
}

/// Puts `g` into `tree` where its node is. Nothing below it (a forced win, the end of the
/// game): the node offers no more, so "expand" and "expand PV" stop there instead of asking
/// again.
fn apply(tree: &mut TreeSnapshot, g: &Graft) {
    if let Some(sub) = &g.tree {
        tree.graft(&g.path, sub);
    }
    if let Some(n) = tree.node_at(&g.path)
        && tree.nodes[n].children.is_empty()
    {
        tree.nodes[n].hidden_children = 0;
        if let Some(a) = tree.nodes[n].alphabeta.as_mut() {
            a.depth = 0;
        }
    }
}
