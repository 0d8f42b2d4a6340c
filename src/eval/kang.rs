//! Kang, Wang and Hu's Connect-4 feature table (2019), as used in the Connect-X study,
//! generalised from four in a row to K:
//! - K - 1 in a row with both ends open: unstoppable (near a win); one end open: 900,000;
//! - K - 2 in a row: 10,000 per open cell it can still grow into, up to 50,000;
//! - a lone stone: 40, 70, 120 or 200 by how close its column is to the centre.
//!
//! The paper values positions for one player; here the opponent's features count against.

use super::{EvalBoard, Heuristic, LINE};
use crate::game::{Move, Player, Position};

#[derive(Clone, Copy, Debug, Default)]
pub struct Kang;

const UNSTOPPABLE: i64 = 1_000_000;

/// The feature value of `p`'s runs along every line.
fn features<P: Position>(pos: &P, board: &EvalBoard, p: Player) -> i64 {
    let table = board.table();
    let k = table.k;
    let mut v = 0i64;
    for line in &table.lines {
        let mut i = 0;
        while i < line.len() {
            if pos.stone_on(line[i] as usize) != Some(p) {
                i += 1;
                continue;
            }
            let start = i;
            while i < line.len() && pos.stone_on(line[i] as usize) == Some(p) {
                i += 1;
            }
            let run = i - start;
            let empty_before =
                (0..start).rev().take_while(|&j| pos.stone_on(line[j] as usize).is_none()).count().min(k - run.min(k));
            let empty_after =
                (i..line.len()).take_while(|&j| pos.stone_on(line[j] as usize).is_none()).count().min(k - run.min(k));
            if run >= k {
                v += LINE as i64;
            } else if run + 1 == k && k > 1 {
                v += match (empty_before > 0, empty_after > 0) {
                    (true, true) => UNSTOPPABLE,
                    (true, false) | (false, true) => 900_000,
                    _ => 0,
                };
            } else if run + 2 == k && k > 2 && run + empty_before + empty_after >= k {
                v += 10_000 * (empty_before + empty_after).min(5) as i64;
            }
        }
    }
    // Lone stones (no own stone around), by column: 200 in the centre, 120, 70, then 40.
    for cell in 0..table.cells {
        if pos.stone_on(cell) == Some(p) && !table.neighbours(cell).iter().any(|&n| pos.stone_on(n as usize) == Some(p))
        {
            v += match table.centrality[cell] {
                0 => 40,
                1 => 70,
                2 => 120,
                _ => 200,
            };
        }
    }
    v
}

impl Heuristic for Kang {
    fn evaluate<P: Position>(&self, pos: &P, board: &EvalBoard) -> i32 {
        let me = pos.side_to_move();
        let v = features(pos, board, me) - features(pos, board, me.other());
        v.clamp(-(LINE as i64) + 1, LINE as i64 - 1) as i32
    }

    /// Centre first, then cells touching more stones (the table itself is too slow per move).
    fn move_score<P: Position>(&self, pos: &P, board: &EvalBoard, m: Move) -> i32 {
        let cell = pos.move_cell(m);
        board.table().centrality[cell] as i32 * 4 + super::stones_around(pos, cell)
    }
}
