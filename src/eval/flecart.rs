//! Flecart's sliding-window heuristic with its end-game and double-threat steps: windows open
//! to one player are worth `base`^(stones - 1) tens; a player to move with a playable winning
//! cell is about to win; a player facing two playable winning cells of the opponent is lost.

use super::{EvalBoard, Heuristic, LINE, Threat};
use crate::game::Position;

/// A near-certain result, below proven wins but above any window sum.
pub const STEP: i32 = 1_000_000;

#[derive(Clone, Copy, Debug)]
pub struct Flecart {
    pub base: f64,
}

impl Heuristic for Flecart {
    fn window_value(&self, k: usize, first: usize, second: usize) -> i32 {
        let one = |n: usize| -> i32 {
            match n {
                0 => 0,
                n if n == k => LINE,
                n => (10.0 * self.base.powi(n as i32 - 1)).min(STEP as f64 / 10.0) as i32,
            }
        };
        match (first, second) {
            (a, 0) => one(a),
            (0, b) => -one(b),
            _ => 0,
        }
    }

    fn evaluate<P: Position>(&self, pos: &P, board: &EvalBoard) -> i32 {
        let me = pos.side_to_move();
        let mut v = board.window_sum(me).clamp(-(STEP as i64) / 2, STEP as i64 / 2) as i32;
        let mut moves = Vec::new();
        // End-game step: a winning cell playable now wins on this move (not played out: an
        // overline under the exactly-K rule still counts here, as Flecart's rule reads).
        if board.threat(pos, me, &mut moves) != Threat::None {
            return v + STEP;
        }
        // Double-threat step: two playable winning cells of the opponent cannot both be blocked.
        if let Threat::Double(_) = board.threat(pos, me.other(), &mut moves) {
            v -= STEP;
        }
        v
    }
}
