//! The seeded random number generator behind every random choice in mnklab.
//!
//! Xoshiro256++ is fast and its output is fixed by its definition, so a seed recorded with
//! results reproduces them on any machine and with any later version of `rand`.

use rand::{Rng, SeedableRng};

pub type GameRng = rand::rngs::Xoshiro256PlusPlus;

/// A generator from a 64-bit seed.
pub fn seeded(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// A number in `0..n` (n > 0) by Lemire's multiply-shift: one multiplication, no division.
/// The bias is below n / 2^32, far below anything measurable for board-sized n.
#[inline(always)]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

/// Shuffles `v` in place (Fisher-Yates, with [`below`]): the same order for the same seed
/// on every machine.
pub fn shuffle<T, R: Rng + ?Sized>(v: &mut [T], rng: &mut R) {
    for i in (1..v.len()).rev() {
        v.swap(i, below(rng, i + 1));
    }
}

/// A uniform float in [0, 1).
#[inline]
pub fn unit<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}
