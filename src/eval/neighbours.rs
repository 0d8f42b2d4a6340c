//! Alam et al.'s neighbour heuristic: a stone next to other stones is worth more. As a move
//! score, the number of stones around the cell (either colour): the basis of their move
//! ordering and MCTS expansion.

use super::{EvalBoard, Heuristic};
use crate::game::{Move, Position};

#[derive(Clone, Copy, Debug, Default)]
pub struct Neighbours;

/// Stones of any colour on the cells around `cell`.
pub fn stones_around<P: Position>(pos: &P, cell: usize) -> i32 {
    pos.windows().neighbours(cell).iter().filter(|&&n| pos.stone_on(n as usize).is_some()).count() as i32
}

impl Heuristic for Neighbours {
    /// Own stones touching own stones, minus the same for the opponent (ten per pair).
    fn evaluate<P: Position>(&self, pos: &P, board: &EvalBoard) -> i32 {
        let me = pos.side_to_move();
        let table = board.table();
        let mut v = 0;
        for cell in 0..table.cells {
            let Some(p) = pos.stone_on(cell) else {
                continue;
            };
            let same = table.neighbours(cell).iter().filter(|&&n| pos.stone_on(n as usize) == Some(p)).count() as i32;
            v += if p == me { same } else { -same };
        }
        v * 10
    }

    fn move_score<P: Position>(&self, pos: &P, _board: &EvalBoard, m: Move) -> i32 {
        stones_around(pos, pos.move_cell(m))
    }
}
