//! Uniformly random playouts of grid boards on a stripped-down copy of the position.
//!
//! A playout only needs the stones, the open moves and a win test: no history, no hashes, no
//! undo. These fast paths keep exactly the order of the open moves that [`super::Slots`] keeps
//! (a pick is removed by moving the last open move into its place), so with the same generator
//! they play the very same game as `play`/`random_move` on the full position; the tests
//! check that move by move.
//!
//! Two paths:
//! - Connect-X on one 64-bit word ("k or more"): the new column cell is found by adding the
//!   column's bottom bit to the occupancy mask, and the win test is a few shifts over the
//!   whole board (as in the C yardstick and Pons' solver).
//! - everything else (free placement, exact-k rules, wide boards): each player's stones as one
//!   32-bit word per line (rows, columns and both diagonals); the run through the new stone is
//!   the count of ones on either side of its bit, found with two bit scans per direction and no
//!   branch per cell.

use rand::Rng;

use super::bits::has_line_u64;
use super::geometry::GridGeometry;
use super::{Bits, MAX_SIDE, Player, Status};
use crate::rng::below;

/// How a random playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    pub status: Status,
    /// Points at the end (connect3d; zero otherwise).
    pub points: [u32; 2],
    /// Moves the playout played.
    pub length: usize,
}

impl PlayoutResult {
    /// The result of a game that is already over (no move played).
    pub fn over(status: Status, points: [u32; 2]) -> PlayoutResult {
        PlayoutResult { status, points, length: 0 }
    }
}

/// The player who makes the `ply`-th move (0-based) from the empty board.
#[inline(always)]
fn mover(ply: usize) -> Player {
    Player::to_move_after(ply)
}

/// Connect-X on one 64-bit word, "k or more" lines. `stones` in the padded layout of
/// `geometry`, `open` the open columns in the position's order, `ply` stones on the board.
#[inline]
pub(super) fn connect_u64<R: Rng + ?Sized>(
    geo: &GridGeometry,
    stones: [u64; 2],
    open: &[u16],
    ply: usize,
    rng: &mut R,
) -> PlayoutResult {
    let (stride, height, k) = (geo.stride, geo.height, geo.k);
    let mut cols = [0u8; MAX_SIDE];
    for (c, &x) in cols.iter_mut().zip(open) {
        *c = x as u8;
    }
    let mut n = open.len();
    let mut to_move = stones[ply & 1];
    let mut waiting = stones[(ply & 1) ^ 1];
    let mut mask = to_move | waiting;
    let column = (1u64 << height) - 1;
    let mut length = 0;
    while n > 0 {
        let i = below(rng, n);
        let base = (cols[i] as usize + 1) * stride + 1;
        let bit = (mask + (1u64 << base)) & (column << base);
        mask |= bit;
        to_move |= bit;
        length += 1;
        if bit >> (base + height - 1) != 0 {
            n -= 1;
            cols[i] = cols[n];
        }
        if has_line_u64(to_move, stride, k) {
            return PlayoutResult { status: Status::Win(mover(ply + length - 1)), points: [0, 0], length };
        }
        std::mem::swap(&mut to_move, &mut waiting);
    }
    PlayoutResult { status: Status::Draw, points: [0, 0], length }
}

/// Words per player: rows, columns, diagonals and anti-diagonals of a board up to MAX_SIDE.
const LINE_WORDS: usize = 2 * MAX_SIDE + 2 * (2 * MAX_SIDE - 1);
/// The word arrays' length: a power of two at least LINE_WORDS, so an index masked with
/// `WORDS - 1` needs no bounds check in the playout's inner loop.
const WORDS: usize = LINE_WORDS.next_power_of_two();

/// Each player's stones as one word per line.
struct LineWords {
    words: [[u32; WORDS]; 2],
    /// Where the columns, diagonals and anti-diagonals start (rows start at 0).
    cols: usize,
    diags: usize,
    antis: usize,
    height: usize,
}

impl LineWords {
    fn new(width: usize, height: usize) -> LineWords {
        let cols = height;
        let diags = cols + width;
        let antis = diags + width + height - 1;
        LineWords { words: [[0; WORDS]; 2], cols, diags, antis, height }
    }

    /// Puts a stone of player index `p` on (x, y) and returns the lengths of its runs through
    /// that cell along the row, the column and both diagonals.
    #[inline(always)]
    fn put(&mut self, p: usize, x: usize, y: usize) -> [u32; 4] {
        let w = &mut self.words[p & 1];
        let row = y & (WORDS - 1);
        let col = (self.cols + x) & (WORDS - 1);
        let diag = (self.diags + x + self.height - 1 - y) & (WORDS - 1);
        let anti = (self.antis + x + y) & (WORDS - 1);
        w[row] |= 1 << x;
        w[col] |= 1 << y;
        w[diag] |= 1 << x;
        w[anti] |= 1 << x;
        [run_at(w[row], x), run_at(w[col], y), run_at(w[diag], x), run_at(w[anti], x)]
    }
}

/// The run of ones in `line` through bit `i` (which is set).
#[inline(always)]
fn run_at(line: u32, i: usize) -> u32 {
    let up = (!(line >> i)).trailing_zeros();
    let down = (!(line << (31 - i))).leading_zeros();
    up + down - 1
}

/// Division by a board side (at most [`MAX_SIDE`]) of a cell id (below `MAX_SIDE^2`) as a
/// multiply and a shift: with `m = ceil(2^24 / d)`, `n * m >> 24` is `n / d` for every
/// `n < 2^24 / d` (the error `n (m d - 2^24) / (d 2^24)` stays below `1 / d`); a test checks
/// every side and cell.
#[derive(Clone, Copy)]
struct Reciprocal {
    m: u32,
}

impl Reciprocal {
    #[inline(always)]
    fn new(d: u32) -> Reciprocal {
        debug_assert!((1..=MAX_SIDE as u32).contains(&d));
        Reciprocal { m: (1u32 << 24).div_ceil(d) }
    }

    #[inline(always)]
    fn divide(self, n: u32) -> u32 {
        ((n as u64 * self.m as u64) >> 24) as u32
    }
}

/// Any grid board by line words. `stones` in the padded layout of `geometry`; `open` the open
/// moves in the position's order (cells `x * height + y`, or columns under gravity with
/// `heights`).
#[inline]
pub(super) fn by_lines<B: Bits, R: Rng + ?Sized, const GRAVITY: bool>(
    geo: &GridGeometry,
    stones: &[B; 2],
    open: &[u16],
    heights: &[u8; MAX_SIDE],
    ply: usize,
    rng: &mut R,
) -> PlayoutResult {
    let (height, k, exact) = (geo.height, geo.k as u32, geo.rules.exact());
    let mut lines = LineWords::new(geo.width, height);
    for (p, set) in stones.iter().enumerate() {
        set.for_each_one(|bit| {
            let (x, y) = geo.xy_of_bit(bit);
            lines.put(p, x, y);
        });
    }
    let mut heights = *heights;
    // Open moves as (x, y) packed in a u16 (free placement) or columns (gravity).
    let mut moves = [0u16; MAX_SIDE * MAX_SIDE];
    // A division per open cell cost 12% of a gomoku playout (225 `div`s); the reciprocal is exact here.
    let reciprocal = Reciprocal::new(height as u32);
    for (slot, &m) in moves.iter_mut().zip(open) {
        *slot = if GRAVITY {
            m
        } else {
            let x = reciprocal.divide(m as u32);
            ((x << 8) | (m as u32 - x * height as u32)) as u16
        };
    }
    let mut n = open.len();
    let mut length = 0;
    while n > 0 {
        let i = below(rng, n);
        let (x, y) = if GRAVITY {
            let x = moves[i] as usize;
            let y = heights[x] as usize;
            heights[x] += 1;
            if y + 1 == height {
                n -= 1;
                moves[i] = moves[n];
            }
            (x, y)
        } else {
            let m = moves[i] as usize;
            n -= 1;
            moves[i] = moves[n];
            (m >> 8, m & 0xff)
        };
        let p = (ply + length) & 1;
        length += 1;
        let runs = lines.put(p, x, y);
        if runs.iter().any(|&run| run == k || (!exact && run > k)) {
            return PlayoutResult { status: Status::Win(mover(ply + length - 1)), points: [0, 0], length };
        }
    }
    PlayoutResult { status: Status::Draw, points: [0, 0], length }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reciprocal_divides_every_cell_id_by_every_side() {
        for d in 1..=MAX_SIDE as u32 {
            let r = Reciprocal::new(d);
            for n in 0..(MAX_SIDE * MAX_SIDE) as u32 {
                assert_eq!(r.divide(n), n / d, "{n} / {d}");
            }
        }
    }
}
