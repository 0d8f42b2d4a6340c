//! What an analysis shows, computed without a window: the workbench only draws it, and the
//! tests check it here.
//!
//! **The score convention.** Every score shown (agent panel, candidate table, board labels,
//! search-tree explorer, CLI `analyse`) is for the *side to move in the analysed position*:
//! `+1.400` and `win in 5` are good for that side, `62.0%` is that side's expected result.
//! Nodes deeper in the explorer are shown from the same side, so a line reads down the tree
//! without flipping signs. One unit per kind of agent:
//! - alpha-beta: a heuristic value (`+1.400`, in the heuristic's own unit, 0 balanced);
//! - MCTS: the mean result of the playouts through the move (`62.0%`, a draw counts half);
//! - proven by any agent: `win in N`, `loss in N` (plies, counting the last move), `draw`;
//! - a bound (alpha-beta refuted the move without valuing it exactly): `≤ +1.400`, `≥ ...`.

pub mod board_view;
pub mod candidates;
pub mod convention;
pub mod eval_bar;
pub mod review;
pub mod stamp;
pub mod threat_judge;
pub mod tree_view;

/// Re-exported beside [`proof_so_far`]: the words for a running proof's bounds.
pub use crate::search::bounds_label;
pub use board_view::{LABELLED_MARKS, MarkStyle, mark_style, star_points};
pub use candidates::{Agreement, Candidate, agreement, candidate_detail, candidates, fit_line, preferred};
pub use convention::{
    Legend, ScoreKind, bound_meaning, flip, full_label, is_proof_label, legend, mark_text, node_score, proof_so_far,
    rate_label, search_fields, search_label, searched_nothing, short_label, shows_pv, side_label, speed_fields,
    speed_label,
};
pub use eval_bar::EvalBar;
pub use stamp::PositionKey;
pub use tree_view::{SortBy, best_line, has_more, keep_order, sorted_children};
