//! The weighted window-pattern heuristic: a researcher's own weights per number of stones
//! missing from an open window, and a weight on the opponent's windows.

use super::{EvalBoard, Heuristic, LINE};
use crate::game::Position;

#[derive(Clone, Debug)]
pub struct Pattern {
    /// `weights[i]`: an open window missing `i + 1` stones. Missing more than listed: 0.
    pub weights: Vec<f64>,
    /// How much the opponent's windows count against (1 = symmetric).
    pub defence: f64,
}

impl Pattern {
    fn value(&self, k: usize, n: usize) -> f64 {
        if n == k {
            return LINE as f64;
        }
        if n == 0 {
            return 0.0;
        }
        self.weights.get(k - n - 1).copied().unwrap_or(0.0)
    }
}

impl Heuristic for Pattern {
    /// From the first player's view; the evaluation flips it for the side to move. `defence`
    /// applies to the side not to move when evaluating, so it is folded in symmetrically here.
    fn window_value(&self, k: usize, first: usize, second: usize) -> i32 {
        let v = match (first, second) {
            (a, 0) => self.value(k, a),
            (0, b) => -self.value(k, b) * self.defence,
            _ => 0.0,
        };
        v.round().clamp(-(LINE as f64), LINE as f64) as i32
    }

    fn evaluate<P: Position>(&self, pos: &P, board: &EvalBoard) -> i32 {
        board.window_sum(pos.side_to_move()).clamp(-(LINE as i64), LINE as i64) as i32
    }
}
