//! The key of a gravity position in 64 bits, shared by the Connect-X solver's table and the
//! opening books: Pons' `current + mask`, where `current` holds the side to move's stones and
//! `mask` every stone, each column `height + 1` bits from the bottom (the side to move's
//! stones so count twice, which keeps the key unique); and the key of its mirror image.

use crate::game::{Grid, Position};

/// The side to move's stones and every stone of `pos`, as bitboards of `w` x `h` columns.
pub fn bitboards(pos: &Grid<u64, true>, w: usize, h: usize) -> (u64, u64) {
    let me = pos.side_to_move();
    let (mut current, mut mask) = (0u64, 0u64);
    for x in 0..w {
        for y in 0..h {
            if let Some(p) = pos.stone_at(x, y) {
                let b = 1u64 << (x * (h + 1) + y);
                mask |= b;
                if p == me {
                    current |= b;
                }
            }
        }
    }
    (current, mask)
}

/// The key of the mirror image of the position keyed `key` on a board of `w` columns of
/// height `h`: its columns in reverse order. (The solver also has a faster form for the
/// boards it can, `ColumnSwaps`, tested equal to this.)
pub fn mirror_key(key: u64, w: usize, h: usize) -> u64 {
    let bits = h + 1;
    let column = (1u64 << bits) - 1;
    (0..w).fold(0, |mirror, x| mirror | ((key >> (x * bits)) & column) << ((w - 1 - x) * bits))
}

/// The smaller of a position's key and its mirror image's: one key for the pair.
pub fn symmetric_key(key: u64, w: usize, h: usize) -> u64 {
    key.min(mirror_key(key, w, h))
}
