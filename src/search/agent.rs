//! The one agent API: given a position, limits, a control and a progress sink, an agent returns
//! the best move, its score, the principal variation and statistics.

use serde::{Deserialize, Serialize};

use super::{ProgressSink, RootMove, Score, SearchControl, SearchLimits, TreeSnapshot};
use crate::game::{Move, Position};

/// What a search spent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchStats {
    pub nodes: u64,
    pub iterations: u64,
    pub depth: u32,
    /// Seconds.
    pub elapsed: f64,
    /// Estimated bytes held by the search (tree or table).
    pub memory: u64,
    pub tt_hits: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchResult {
    /// None only when the game is over.
    pub best: Option<Move>,
    pub score: Score,
    pub pv: Vec<Move>,
    pub stats: SearchStats,
    pub root: Vec<RootMove>,
    /// The move was not searched: the search stopped (by the clock, a node limit or the stop
    /// flag) before it valued any move, and `best` is only a legal move. Results record it.
    #[serde(default)]
    pub unsearched: bool,
}

/// A search algorithm with its configuration and any state it keeps between moves.
pub trait Agent<P: Position>: Send {
    /// Searches `pos` until a limit is reached or `control` says stop. Sends progress to `sink`
    /// (10 reports a second or more) and snapshots when `control` asks for one.
    fn search(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
    ) -> SearchResult;

    /// A snapshot of the last search's tree, `depth` plies deep, `top` children a node.
    fn snapshot(&self, _depth: u32, _top: usize) -> Option<TreeSnapshot> {
        None
    }

    /// A snapshot of the last search's tree below the node `path` (moves from the root)
    /// reaches: that node is the snapshot's root. For an explorer opening a node deeper or
    /// wider than the first snapshot went. None if the tree does not reach it.
    fn subtree(&self, _path: &[Move], _depth: u32, _top: usize) -> Option<TreeSnapshot> {
        None
    }

    /// Forget anything kept from the previous game (trees, tables, killers).
    fn new_game(&mut self) {}

    /// What an external engine says about itself (its ABOUT line).
    fn about(&self) -> Option<String> {
        None
    }

    /// Why the last search gave no move, when it failed (an engine's timeout or crash).
    fn failure(&self) -> Option<String> {
        None
    }
}
