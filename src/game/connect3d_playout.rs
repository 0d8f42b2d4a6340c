//! connect3d's random playout on a compact board: the stones of each player in 294 bits
//! (x + 7 y + 49 z, a padding column x = 6 and row y = 6 that never hold a stone) and the
//! ply each cell was filled. Lines are not counted move by move: after the last move every
//! window of four one player owns is found by shifts over the whole board (13 directions), and
//! the ply that completed it is the latest of its four cells. Sorting those plies gives the
//! order in which the game made its lines, so the points (the k-th line scores 100 / k) are
//! exactly those of playing the moves one by one. On random games this is about twice as
//! fast as keeping per-window counters (a few hundred independent shifts and ANDs against
//! some 1,300 dependent counter updates a game; measured in docs/benchmarks.md).

use super::connect3d::{GAME_LENGTH, POLE_HEIGHT, POLE_XY, POLES, line_points};

/// 64-bit words of the compact board (294 bits used).
const WORDS: usize = 5;
/// Bits of one level (z) of the compact board.
const LEVEL: usize = 49;
/// Bits of the compact board in use.
const CELLS: usize = LEVEL * POLE_HEIGHT;

type Board = [u64; WORDS];

/// Entries of the table of plies by compact bit: a power of two above every bit a window
/// can reach (319 + 3 * 57), so an index masked by `PLY_MASK` needs no bounds check.
const PLY_CELLS: usize = 512;
const PLY_MASK: usize = PLY_CELLS - 1;
type Plies = [u8; PLY_CELLS];
const _: () = assert!(CELLS <= PLY_CELLS && WORDS * 64 - 1 + 3 * 57 < PLY_CELLS);

/// The compact bit of each pole's bottom cell.
const POLE_BASE: [u16; POLES] = {
    let mut t = [0u16; POLES];
    let mut p = 0;
    while p < POLES {
        t[p] = (POLE_XY[p].0 as usize + 7 * POLE_XY[p].1 as usize) as u16;
        p += 1;
    }
    t
};

/// The compact bit of `pole`'s cell at level `z`.
#[inline(always)]
pub(super) fn compact_bit(pole: usize, z: usize) -> usize {
    POLE_BASE[pole] as usize + LEVEL * z
}

/// `a` shifted right by `D` bits: bit `s` of the result is bit `s + D` of `a`.
#[inline(always)]
fn shr<const D: usize>(a: &Board) -> Board {
    let (w, b) = (D / 64, D % 64);
    let mut out = [0u64; WORDS];
    for (i, o) in out.iter_mut().enumerate() {
        let lo = if i + w < WORDS { a[i + w] } else { 0 };
        let hi = if i + w + 1 < WORDS { a[i + w + 1] } else { 0 };
        *o = if b == 0 { lo } else { (lo >> b) | (hi << ((64 - b) % 64)) };
    }
    out
}

#[inline(always)]
fn and(a: &Board, b: &Board) -> Board {
    let mut out = [0u64; WORDS];
    for i in 0..WORDS {
        out[i] = a[i] & b[i];
    }
    out
}

/// Windows of four in direction step `D` (bit `s` set: cells `s`, `s + D`, `s + 2D` and
/// `s + 3D` are all in `own`), each reported with the latest ply among its cells.
#[inline(always)]
fn windows<const D: usize, const D2: usize>(own: &Board, ply: &Plies, mut found: impl FnMut(u8)) {
    let pairs = and(own, &shr::<D>(own));
    let fours = and(&pairs, &shr::<D2>(&pairs));
    for (i, &word) in fours.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let s = i * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let at = |c: usize| ply[c & PLY_MASK];
            found(at(s).max(at(s + D)).max(at(s + 2 * D)).max(at(s + 3 * D)));
        }
    }
}

/// Every window of four in `own` with the ply that completed it. The 13 directions as
/// positive steps (a direction and its reverse find the same windows): (1,0,0) 1, (0,1,0) 7,
/// (0,0,1) 49, (1,1,0) 8, (-1,1,0) 6, (1,0,1) 50, (-1,0,1) 48, (0,1,1) 56, (0,-1,1) 42,
/// (1,1,1) 57, (-1,-1,1) 41, (1,-1,1) 43, (-1,1,1) 55. A step off the grid in x or y lands
/// on a padding cell (x = 6 or y = 6) or off the board, never on another real cell.
fn all_windows(own: &Board, ply: &Plies, mut found: impl FnMut(u8)) {
    windows::<1, 2>(own, ply, &mut found);
    windows::<7, 14>(own, ply, &mut found);
    windows::<49, 98>(own, ply, &mut found);
    windows::<8, 16>(own, ply, &mut found);
    windows::<6, 12>(own, ply, &mut found);
    windows::<50, 100>(own, ply, &mut found);
    windows::<48, 96>(own, ply, &mut found);
    windows::<56, 112>(own, ply, &mut found);
    windows::<42, 84>(own, ply, &mut found);
    windows::<57, 114>(own, ply, &mut found);
    windows::<41, 82>(own, ply, &mut found);
    windows::<43, 86>(own, ply, &mut found);
    windows::<55, 110>(own, ply, &mut found);
}

/// The end of a random game from a position: `history` (its moves, pole numbers 0-based),
/// of which the first `scored` have had their lines counted into `lines_before` and
/// `points_before`, and the open poles in [`super::slots::Slots`]' order. Plays
/// uniformly random moves with `draw` (`draw(n)` picks one of `n` open poles) to move 64 and
/// returns the final count of lines and points.
pub(super) fn finish_random_game(
    history: &[super::Move],
    scored: usize,
    open: &[u16],
    lines_before: u32,
    points_before: [u32; 2],
    mut draw: impl FnMut(usize) -> usize,
) -> (u32, [u32; 2]) {
    let mut stones: [Board; 2] = [[0; WORDS]; 2];
    // The ply each cell was filled, + 1 (stones whose lines were counted keep 0).
    let mut ply: Plies = [0; PLY_CELLS];
    // The heights, counted from the history.
    let mut heights = [0u8; POLES];
    for (i, m) in history.iter().enumerate() {
        let pole = m.index();
        let bit = compact_bit(pole, heights[pole] as usize);
        heights[pole] += 1;
        stones[i & 1][bit / 64] |= 1 << (bit % 64);
        if i >= scored {
            ply[bit & PLY_MASK] = i as u8 + 1;
        }
    }
    let mut poles = [0u8; POLES];
    for (slot, &p) in poles.iter_mut().zip(open) {
        *slot = p as u8;
    }
    let mut n = open.len();
    let start = history.len();
    for t in start..GAME_LENGTH {
        let i = draw(n);
        let pole = poles[i] as usize;
        let z = heights[pole] as usize;
        heights[pole] += 1;
        if z + 1 == POLE_HEIGHT {
            n -= 1;
            poles[i] = poles[n];
        }
        let bit = compact_bit(pole, z);
        stones[t & 1][bit / 64] |= 1 << (bit % 64);
        ply[bit & PLY_MASK] = t as u8 + 1;
    }
    // Lines made by each ply's move (index ply + 1). A window is completed by the move of its
    // latest cell, so by that move's player; one whose cells were all filled before the
    // first `scored` moves was counted already.
    let mut made = [0u8; GAME_LENGTH + 1];
    for own in &stones {
        all_windows(own, &ply, |t| made[t as usize] += 1);
    }
    let (mut lines, mut points) = (lines_before, points_before);
    for (t, &count) in made.iter().enumerate().skip(scored + 1) {
        for _ in 0..count {
            lines += 1;
            points[(t - 1) & 1] += line_points(lines);
        }
    }
    (lines, points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compact_layout_gives_every_cell_its_own_bit_below_the_padding() {
        let mut seen = std::collections::HashSet::new();
        for pole in 0..POLES {
            for z in 0..POLE_HEIGHT {
                let b = compact_bit(pole, z);
                assert!(b < CELLS && b % 7 != 6 && (b % LEVEL) / 7 != 6, "pole {pole} z {z} -> {b}");
                assert!(seen.insert(b));
            }
        }
    }
}
