//! Bit sets for boards: `u64` for boards that fit (Connect-4, tic-tac-toe) and [`Wide`]
//! (512 bits) for everything else, behind one trait so the board code is written once.

use std::fmt::Debug;
use std::hash::Hash;

pub trait Bits: Copy + Default + Eq + Hash + Debug + Send + Sync + 'static {
    /// How many bits the set holds.
    const CAPACITY: usize;
    fn get(&self, i: usize) -> bool;
    fn set(&mut self, i: usize);
    fn clear(&mut self, i: usize);
    fn count(&self) -> u32;
    fn is_empty(&self) -> bool;
    /// Calls `f` with the index of every set bit, in increasing order.
    fn for_each_one(&self, f: impl FnMut(usize));
    /// Whether `k` set bits lie `step` apart in a row anywhere, when the set can tell it with
    /// a few shifts (None: walk the bits instead).
    #[inline(always)]
    fn has_run(&self, _step: usize, _k: usize) -> Option<bool> {
        None
    }
    /// The set as one 64-bit word, when it is one (fast paths for small boards).
    #[inline(always)]
    fn as_u64(&self) -> Option<u64> {
        None
    }
}

impl Bits for u64 {
    const CAPACITY: usize = 64;
    #[inline(always)]
    fn get(&self, i: usize) -> bool {
        (self >> i) & 1 != 0
    }
    #[inline(always)]
    fn set(&mut self, i: usize) {
        *self |= 1 << i;
    }
    #[inline(always)]
    fn clear(&mut self, i: usize) {
        *self &= !(1 << i);
    }
    #[inline(always)]
    fn count(&self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn for_each_one(&self, mut f: impl FnMut(usize)) {
        let mut w = *self;
        while w != 0 {
            f(w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
    #[inline(always)]
    fn as_u64(&self) -> Option<u64> {
        Some(*self)
    }
    /// Runs by doubling: `t` marks the starts of runs of `len` bits; two runs `len` apart make
    /// one of `2 len`, and two runs overlapping by `2 len - k` make one of `k`.
    #[inline(always)]
    fn has_run(&self, step: usize, k: usize) -> Option<bool> {
        // A shift past the word's width leaves nothing (no run that long fits).
        let shr = |t: u64, n: usize| u32::try_from(n).ok().and_then(|n| t.checked_shr(n)).unwrap_or(0);
        let mut t = *self;
        let mut len = 1;
        while len * 2 <= k {
            t &= shr(t, len * step);
            len *= 2;
        }
        if len < k {
            t &= shr(t, (k - len) * step);
        }
        Some(t != 0)
    }
}

/// Whether `b` holds `k` or more set bits in a row in any of the four directions of the padded
/// column layout (a column of `stride` bits, its top bit always clear, so runs never wrap
/// from one column into the next): the playouts' win test and the solver's line bounds.
#[inline(always)]
pub fn has_line_u64(b: u64, stride: usize, k: usize) -> bool {
    if k == 4 {
        // The common case spelled out: pairs, then pairs of pairs.
        let run4 = |d: usize| {
            let m = b & (b >> d);
            m & (m >> (2 * d)) != 0
        };
        return run4(1) || run4(stride) || run4(stride + 1) || run4(stride - 1);
    }
    [1, stride, stride + 1, stride - 1].iter().any(|&d| b.has_run(d, k) == Some(true))
}

/// The player whose stone is on `bit`, given both players' sets.
#[inline(always)]
pub fn owner<B: Bits>(stones: &[B; 2], bit: usize) -> Option<crate::game::Player> {
    if stones[0].get(bit) {
        Some(crate::game::Player::First)
    } else if stones[1].get(bit) {
        Some(crate::game::Player::Second)
    } else {
        None
    }
}

/// A 512-bit set: boards up to 21 x 21 with their padding, and the 8 x 8 x 8 padded 3D grid.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Wide(pub [u64; 8]);

impl Bits for Wide {
    const CAPACITY: usize = 512;
    #[inline(always)]
    fn get(&self, i: usize) -> bool {
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }
    #[inline(always)]
    fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }
    #[inline(always)]
    fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn for_each_one(&self, mut f: impl FnMut(usize)) {
        for (k, &word) in self.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                f(k * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
    }
}

#[cfg(test)]
mod run_tests {
    use super::Bits;

    /// `has_run` against a plain count of consecutive bits, for every step and length.
    #[test]
    fn runs_found_by_shifts_match_a_plain_walk() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = x & (x >> 3) & 0x0FFF_FFFF_FFFF_FFFF; // sparser sets, runs of all lengths
            for step in 1..9 {
                for k in 1..9 {
                    let walked =
                        (0..64).any(|start| (0..k).all(|i| start + i * step < 64 && set.get(start + i * step)));
                    assert_eq!(set.has_run(step, k), Some(walked), "{set:#x} step {step} k {k}");
                }
            }
        }
    }
}
