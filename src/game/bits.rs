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
