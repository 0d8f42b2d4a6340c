//! Zobrist keys, fixed at compile time so hashes are the same in every run and on every
//! machine (saved analyses and tests can rely on them).

/// Bits in the largest padded board (see [`super::Wide`]).
pub const ZOBRIST_CELLS: usize = 512;

const fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const fn build() -> [[u64; ZOBRIST_CELLS]; 2] {
    let mut t = [[0u64; ZOBRIST_CELLS]; 2];
    let mut p = 0;
    while p < 2 {
        let mut c = 0;
        while c < ZOBRIST_CELLS {
            t[p][c] = splitmix64(0x6D6E_6B6C_6162_0000 ^ ((p * ZOBRIST_CELLS + c) as u64));
            c += 1;
        }
        p += 1;
    }
    t
}

/// `ZOBRIST[player][padded cell]`.
pub static ZOBRIST: [[u64; ZOBRIST_CELLS]; 2] = build();
