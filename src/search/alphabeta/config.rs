//! The alpha-beta family's options, each a field a researcher may toggle, and their checks.

use serde::{Deserialize, Serialize};

use crate::eval::HeuristicConfig;
use crate::search::SettingError;
use crate::search::threat_probe::ThreatConfig;

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
    /// With `branching_cap`: a node whose kept moves all lose searches the moves the cap left
    /// out too (those within `radius`), so a loss it reports, and the opponent's win above it,
    /// is not an artefact of the cap (a capped defender otherwise "loses" to a threat it had an
    /// answer to, and the search stops on a win that is not). Costs nodes only where the side
    /// to move loses. Off: the cap as the published agents apply it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub widen_losses: bool,
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
    /// Free placement (five or more) with the shapes heuristic: when the opponent is one
    /// stone from a line, an open four or two fours (a four or an open three on the board),
    /// search only the moves that stop it and the side to move's own fours; every other move
    /// loses within four plies, so the value is unchanged and the width goes to the answers
    /// (beyond `branching_cap` and `radius`). Not at a multi-PV root, which lists every move.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub forced_answers: bool,
    /// Principal variation search with late move reductions (with pruning, multi_pv 1; below
    /// the root): every move after a node's first is searched with a null window first, and re-searched
    /// with the full one only if it beats the best so far; quiet late moves are searched
    /// shallower first. None: every move with the full window at full depth, as the
    /// published agents search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reductions: Option<Reductions>,
    /// A limit (time, nodes) that stops an iteration after a root move other than the last
    /// depth's best has been valued above that move at the new depth (both exactly) plays
    /// it: the move, its value, its line and the candidates are the unfinished depth's, the
    /// depth reported and the explorer's tree the last one finished. Off: the last finished depth's result, and the
    /// unfinished depth's work is thrown away.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unfinished_depth: bool,
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
            widen_losses: false,
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
            forced_answers: false,
            unfinished_depth: false,
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
            crate::search::limits::check_memory_mb("alpha-beta: tt_mb", self.tt_mb as u64, 1)?;
        }
        if self.record_depth > 8 {
            return range("alpha-beta: record_depth", "must be at most 8");
        }
        if !(1..=64).contains(&self.multi_pv) {
            return range("alpha-beta: multi_pv", "must be 1 to 64");
        }
        crate::search::limits::check_threads("alpha-beta: threads", self.threads)?;
        if let Some(r) = &self.reductions
            && r.min_depth < 2
        {
            return range("alpha-beta: reductions.min_depth", "must be at least 2");
        }
        if self.forced_answers && !matches!(self.heuristic, HeuristicConfig::Shapes(_)) {
            return Err(SettingError::Needs {
                field: "alpha-beta: forced_answers",
                rule: "needs the shapes heuristic (its line shapes find the threats and their answers)",
            });
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
