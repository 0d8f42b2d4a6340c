//! Lim's heuristic: every window still open to one player is worth 1/K per stone of theirs in
//! it, plus a bonus when only one stone is missing.

use super::{EvalBoard, Heuristic, LINE};
use crate::game::Position;

#[derive(Clone, Copy, Debug)]
pub struct Lim {
    /// Extra value (in windows) of a window one stone short of a line.
    pub bonus: f64,
}

impl Heuristic for Lim {
    fn window_value(&self, k: usize, first: usize, second: usize) -> i32 {
        let one = |n: usize| -> i32 {
            if n == k {
                LINE
            } else {
                let bonus = if n + 1 == k { self.bonus } else { 0.0 };
                ((n as f64 / k as f64 + bonus) * 1000.0).round() as i32
            }
        };
        match (first, second) {
            (a, 0) => one(a),
            (0, b) => -one(b),
            _ => 0,
        }
    }

    fn evaluate<P: Position>(&self, pos: &P, board: &EvalBoard) -> i32 {
        board.window_sum(pos.side_to_move()).clamp(-(LINE as i64), LINE as i64) as i32
    }
}
