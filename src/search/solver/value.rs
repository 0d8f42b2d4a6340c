//! Pons' value arithmetic, once: a position's value for the side to move, on a board of
//! `cells` cells with `n` stones. A win made by the move played onto `n` stones scores
//! floor((cells + 1 - n) / 2), so sooner wins score higher; a loss is the negative of the
//! opponent's win; a draw is 0. A weak value is only the sign.

use crate::search::Score;

/// The value of winning with the move about to be played onto `n` stones.
#[inline(always)]
pub const fn win_now(cells: i32, n: i32) -> i32 {
    (cells + 1 - n) / 2
}

/// The value of losing to the opponent's reply (its win onto `n + 1` stones): the worst a
/// position with `n` stones can be.
#[inline(always)]
pub const fn loss_to_reply(cells: i32, n: i32) -> i32 {
    -(cells - n) / 2
}

/// The value of a finished position whose side to move has lost: the line was made by the
/// stone that brought the board to `n`.
#[inline(always)]
pub const fn lost(cells: i32, n: i32) -> i32 {
    -(cells + 2 - n) / 2
}

/// Every value a position with `n` stones may have, as bounds: from losing to the reply to
/// winning now (the signs, -1 to 1, when `weak`).
#[inline(always)]
pub const fn value_range(cells: i32, n: i32, weak: bool) -> (i32, i32) {
    if weak { (-1, 1) } else { (loss_to_reply(cells, n), win_now(cells, n)) }
}

/// Plies to the end (counting the last move) of `value` at a position with `moves` stones;
/// None for a draw or a value no game reaches.
pub fn distance(cells: i32, value: i32, moves: i32) -> Option<u32> {
    if value == 0 {
        return None;
    }
    // The winner moves when the stone count has the winner's parity.
    let parity = if value > 0 { moves & 1 } else { (moves + 1) & 1 };
    let s = value.abs();
    let n = [cells + 1 - 2 * s, cells - 2 * s].into_iter().find(|n| n & 1 == parity)?;
    Some((n - moves + 1).max(1) as u32)
}

/// A value (a bound, or an exact value) as a proven score for the side to move, with its
/// distance unless `weak`: "win in 7" reads the same wherever a value is shown.
pub fn value_score(v: i32, cells: i32, moves: i32, weak: bool) -> Score {
    proven_score(v, if weak { None } else { distance(cells, v, moves) })
}

/// The proven score of a value's sign, with `plies` to the end where known.
pub fn proven_score(v: i32, plies: Option<u32>) -> Score {
    match v.signum() {
        0 => Score::Draw,
        1 => Score::Win { plies },
        _ => Score::Loss { plies },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On Connect-4 (42 cells): a win with the last stone scores 1 and with the first 21;
    /// the opponent's win on the next move is the worst value; `distance` counts the plies
    /// back from each, and a position's every value lies in its range.
    #[test]
    fn the_arithmetic_agrees_with_pons_scores_and_distances() {
        assert_eq!((win_now(42, 41), win_now(42, 0)), (1, 21));
        assert_eq!(loss_to_reply(42, 0), -21);
        assert_eq!(loss_to_reply(42, 40), -1);
        assert_eq!(lost(42, 42), -1);
        assert_eq!(lost(42, 7), -18, "the first player's line with its fourth stone, at 7 stones");
        for n in 0..42 {
            assert_eq!(distance(42, win_now(42, n), n), Some(1), "a win now is one ply away at {n}");
            if n < 41 {
                // (At 41 stones the move fills the board: there is no reply.)
                assert_eq!(distance(42, loss_to_reply(42, n), n), Some(2), "a loss to the reply is two at {n}");
                let (lo, hi) = value_range(42, n, false);
                assert!(lo < 0 && hi > 0 && -lo <= hi, "{n}: {lo}..{hi}");
            }
        }
        assert_eq!(value_range(42, 10, true), (-1, 1));
        assert_eq!(value_score(win_now(42, 3), 42, 3, false), Score::Win { plies: Some(1) });
        assert_eq!(value_score(-2, 42, 3, true), Score::Loss { plies: None });
        assert_eq!(value_score(0, 42, 3, false), Score::Draw);
    }
}
