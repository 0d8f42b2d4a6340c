//! Heuristics: static evaluation and move scoring, one file each behind [`Heuristic`].
//!
//! Values are integers from the side to move's view, in "milli-windows": a window one stone
//! short of a line is worth about a thousand. Proven results are outside this range (see
//! `search::score`). [`HeuristicConfig`] is the serialisable choice of heuristic that agent
//! configs hold.

mod board;
mod flecart;
mod kang;
mod lim;
pub mod line_shape;
mod neighbours;
mod pattern;
mod shape_board;
mod shapes;
mod tactics;

pub use board::EvalBoard;
pub use flecart::Flecart;
pub use kang::Kang;
pub use lim::Lim;
pub use neighbours::{Neighbours, stones_around};
pub use pattern::Pattern;
pub use shape_board::{Combination, ShapeBoard, ShapeValues, Threats};
pub use shapes::{SHAPE_WEIGHT_NAMES, ShapeWeights};
pub use tactics::{Tactic, Threat};

use serde::{Deserialize, Serialize};

use crate::game::{Move, Player, Position};
use crate::setting_error::SettingError;

/// Value of a window that is already a line: far above any sum of open windows.
pub const LINE: i32 = 10_000_000;

/// A static evaluation and move scorer.
pub trait Heuristic {
    /// The value of a window holding `first` and `second` stones (first player's view), summed
    /// incrementally by [`EvalBoard`]. Heuristics that do not sum windows return 0.
    fn window_value(&self, _k: usize, _first: usize, _second: usize) -> i32 {
        0
    }

    /// Evaluation of an unfinished position from the side to move's view. `board` matches `pos`.
    fn evaluate<P: Position>(&self, pos: &P, board: &EvalBoard) -> i32;

    /// How promising a legal move is for the side to move (higher is better), for move ordering,
    /// branching caps and MCTS expansion. By default: what the move adds to the mover's windows
    /// plus what it takes from the opponent's.
    fn move_score<P: Position>(&self, pos: &P, board: &EvalBoard, m: Move) -> i32 {
        window_move_score(pos, board, m)
    }
}

/// The change a move makes to the window sum for the mover, plus the change the opponent
/// would make by playing there (so blocking scores as well as building).
pub fn window_move_score<P: Position>(pos: &P, board: &EvalBoard, m: Move) -> i32 {
    let cell = pos.move_cell(m);
    let me = pos.side_to_move();
    let you = me.other();
    let mut score = 0i64;
    for &w in board.table().windows_through(cell) {
        let c = board.counts(w as usize);
        let (own, opp) = (c[me.index()], c[you.index()]);
        score += (board.phi_for(me, own + 1, opp) - board.phi_for(me, own, opp)) as i64;
        score += (board.phi_for(you, opp + 1, own) - board.phi_for(you, opp, own)) as i64;
    }
    score.clamp(i32::MIN as i64 / 2, i32::MAX as i64 / 2) as i32
}

/// Which heuristic an agent uses, with its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum HeuristicConfig {
    /// No evaluation: unfinished positions are worth 0 (win/draw/loss only).
    None,
    /// Alam et al.: stones next to each other (ordering: stones around the cell).
    Neighbours,
    /// Lim: 1/K per own stone in every window still open, plus `bonus` when one stone is missing.
    Lim { bonus: f64 },
    /// Flecart: sliding windows weighted `base`^stones, with an end-game step (a threat to win
    /// next move) and a double-threat step (two threats the opponent cannot both block).
    Flecart { base: f64 },
    /// Kang et al.'s Connect-4 feature table (runs with open ends, centre columns), generalised to K.
    Kang,
    /// Weighted windows: `weights[i]` is the value of an open window missing i + 1 stones;
    /// the opponent's windows count `defence` times as much (negative).
    Pattern { weights: Vec<f64>, defence: f64 },
    /// Line shapes per direction (open four, four, open three, ...) and their combinations
    /// across lines, kept incrementally: see [`ShapeWeights`].
    Shapes(ShapeWeights),
}

impl Default for HeuristicConfig {
    fn default() -> Self {
        HeuristicConfig::Lim { bonus: 1.0 }
    }
}

impl HeuristicConfig {
    pub fn name(&self) -> &'static str {
        match self {
            HeuristicConfig::None => "none",
            HeuristicConfig::Neighbours => "neighbours",
            HeuristicConfig::Lim { .. } => "lim",
            HeuristicConfig::Flecart { .. } => "flecart",
            HeuristicConfig::Kang => "kang",
            HeuristicConfig::Pattern { .. } => "pattern",
            HeuristicConfig::Shapes(_) => "shapes",
        }
    }

    /// Checks parameters; the message names the field.
    pub fn validate(&self) -> Result<(), SettingError> {
        match self {
            HeuristicConfig::Lim { bonus } if !bonus.is_finite() || *bonus < 0.0 => {
                Err(SettingError::range("heuristic Lim: bonus", "must be a number >= 0", bonus))
            }
            HeuristicConfig::Flecart { base } if !base.is_finite() || *base < 1.0 || *base > 1000.0 => {
                Err(SettingError::range("heuristic Flecart: base", "must be between 1 and 1000", base))
            }
            HeuristicConfig::Pattern { weights, defence } => {
                if weights.iter().any(|w| !w.is_finite() || w.abs() > 1e6) {
                    let rule = "must be numbers within +-1000000";
                    return Err(SettingError::Range { field: "heuristic Pattern: weights", rule, value: None });
                }
                if !defence.is_finite() || defence.abs() > 100.0 {
                    return Err(SettingError::range("heuristic Pattern: defence", "must be within +-100", defence));
                }
                Ok(())
            }
            HeuristicConfig::Shapes(w) => w.validate(),
            _ => Ok(()),
        }
    }

    /// The heuristic's numeric parameters by name, in a fixed order (for tuners): Lim's
    /// `bonus`, Flecart's `base`, Pattern's `weight1`.. and `defence`, Shapes' weights
    /// ([`SHAPE_WEIGHT_NAMES`]); none for the others.
    pub fn parameters(&self) -> Vec<(String, f64)> {
        match self {
            HeuristicConfig::Lim { bonus } => vec![("bonus".into(), *bonus)],
            HeuristicConfig::Flecart { base } => vec![("base".into(), *base)],
            HeuristicConfig::Pattern { weights, defence } => weights
                .iter()
                .enumerate()
                .map(|(i, &w)| (format!("weight{}", i + 1), w))
                .chain([("defence".to_string(), *defence)])
                .collect(),
            HeuristicConfig::Shapes(w) => SHAPE_WEIGHT_NAMES.iter().map(|n| n.to_string()).zip(w.to_vec()).collect(),
            HeuristicConfig::None | HeuristicConfig::Neighbours | HeuristicConfig::Kang => Vec::new(),
        }
    }

    /// Sets the parameter `name` (one of [`Self::parameters`]); false if there is none of that
    /// name. The value is not checked: [`Self::validate`] does that.
    pub fn set_parameter(&mut self, name: &str, value: f64) -> bool {
        let slot: Option<&mut f64> = match self {
            HeuristicConfig::Lim { bonus } => (name == "bonus").then_some(bonus),
            HeuristicConfig::Flecart { base } => (name == "base").then_some(base),
            HeuristicConfig::Pattern { weights, defence } => match name {
                "defence" => Some(defence),
                _ => name
                    .strip_prefix("weight")
                    .and_then(|i| i.parse::<usize>().ok())
                    .and_then(|i| i.checked_sub(1))
                    .and_then(|i| weights.get_mut(i)),
            },
            HeuristicConfig::Shapes(w) => {
                let mut all = w.to_vec();
                let Some(i) = SHAPE_WEIGHT_NAMES.iter().position(|n| *n == name) else { return false };
                all[i] = value;
                *w = ShapeWeights::from_slice(&all).expect("as many numbers as names");
                return true;
            }
            HeuristicConfig::None | HeuristicConfig::Neighbours | HeuristicConfig::Kang => None,
        };
        match slot {
            Some(v) => {
                *v = value;
                true
            }
            None => false,
        }
    }

    /// Builds the incremental window board this heuristic evaluates from.
    pub fn board<P: Position>(&self, pos: &P) -> EvalBoard {
        let board = EvalBoard::new(pos, |k, a, b| self.window_value(k, a, b));
        match self {
            HeuristicConfig::Shapes(w) => board.with_shapes(ShapeBoard::new(pos, w.values(pos.windows().k))),
            _ => board,
        }
    }

    /// Evaluation of a position from scratch (side to move's view), e.g. at the end of a rollout.
    pub fn evaluate_fresh<P: Position>(&self, pos: &P) -> i32 {
        self.evaluate(pos, &self.board(pos))
    }
}

/// What one point scored (connect3d) is worth in a heuristic value.
pub const POINT_VALUE: i32 = 1000;

/// Points already scored (connect3d) count for the side that has them.
fn points_term<P: Position>(pos: &P) -> i32 {
    let [a, b] = pos.points();
    let diff = a as i32 - b as i32;
    let v = diff * POINT_VALUE;
    if pos.side_to_move() == Player::First { v } else { -v }
}

impl Heuristic for HeuristicConfig {
    fn window_value(&self, k: usize, first: usize, second: usize) -> i32 {
        match self {
            HeuristicConfig::None
            | HeuristicConfig::Neighbours
            | HeuristicConfig::Kang
            | HeuristicConfig::Shapes(_) => 0,
            HeuristicConfig::Lim { bonus } => Lim { bonus: *bonus }.window_value(k, first, second),
            HeuristicConfig::Flecart { base } => Flecart { base: *base }.window_value(k, first, second),
            HeuristicConfig::Pattern { weights, defence } => {
                Pattern { weights: weights.clone(), defence: *defence }.window_value(k, first, second)
            }
        }
    }

    fn evaluate<P: Position>(&self, pos: &P, board: &EvalBoard) -> i32 {
        let base = match self {
            HeuristicConfig::None => 0,
            HeuristicConfig::Neighbours => Neighbours.evaluate(pos, board),
            HeuristicConfig::Lim { bonus } => Lim { bonus: *bonus }.evaluate(pos, board),
            HeuristicConfig::Flecart { base } => Flecart { base: *base }.evaluate(pos, board),
            HeuristicConfig::Kang => Kang.evaluate(pos, board),
            HeuristicConfig::Shapes(w) => w.evaluate(pos, board),
            HeuristicConfig::Pattern { .. } => {
                board.window_sum(pos.side_to_move()).clamp(-(LINE as i64), LINE as i64) as i32
            }
        };
        base.saturating_add(points_term(pos))
    }

    fn move_score<P: Position>(&self, pos: &P, board: &EvalBoard, m: Move) -> i32 {
        match self {
            HeuristicConfig::None => 0,
            HeuristicConfig::Neighbours => Neighbours.move_score(pos, board, m),
            HeuristicConfig::Kang => Kang.move_score(pos, board, m),
            HeuristicConfig::Shapes(w) => w.move_score(pos, board, m),
            _ => window_move_score(pos, board, m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every parameter a heuristic lists can be set by its name, and only those.
    #[test]
    fn parameters_are_set_by_name() {
        for mut h in [
            HeuristicConfig::Lim { bonus: 1.0 },
            HeuristicConfig::Flecart { base: 10.0 },
            HeuristicConfig::Pattern { weights: vec![1.0, 2.0, 3.0], defence: 1.0 },
            HeuristicConfig::Shapes(ShapeWeights::default()),
            HeuristicConfig::Kang,
        ] {
            let names: Vec<String> = h.parameters().into_iter().map(|(n, _)| n).collect();
            for (i, name) in names.iter().enumerate() {
                assert!(h.set_parameter(name, 7.0 + i as f64), "{name}");
            }
            let now: Vec<f64> = h.parameters().into_iter().map(|(_, v)| v).collect();
            assert_eq!(now, (0..names.len()).map(|i| 7.0 + i as f64).collect::<Vec<_>>(), "{}", h.name());
            assert!(!h.set_parameter("weight0", 1.0) && !h.set_parameter("nothing", 1.0));
        }
        assert_eq!(HeuristicConfig::Shapes(ShapeWeights::default()).parameters().len(), 15);
    }
}
