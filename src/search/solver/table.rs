//! The solver's transposition table: one 64-bit word per entry (48 key bits, an 8-bit value,
//! an 8-bit generation). A key is first multiplied by an odd constant, a bijection on 64-bit
//! words; the top 32 bits of the product, scaled to the table's n entries (multiply-shift, no
//! division), choose the slot, and the low 48 bits are stored. With n >= 2^16 the pair
//! identifies the key exactly (no false hits): two products with equal low 48 bits differ by a
//! multiple of 2^48, so their top halves differ by at least 2^16 and their slots by at least
//! 2^16 n / 2^32 >= 1. Any n works, so the table is the size asked for. A new
//! generation empties the table in O(1), so every position of a benchmark starts from a fresh
//! table without clearing megabytes.

pub struct SolverTable {
    entries: Vec<u64>,
    /// `entries.len()` (2^16 to 2^32).
    n: u64,
    generation: u64,
}

const KEY_BITS: u32 = 48;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

impl SolverTable {
    /// A table of `megabytes` (at least 2^16 entries).
    pub fn new(megabytes: usize) -> SolverTable {
        let n = (megabytes.max(1) * 1024 * 1024 / 8).clamp(1 << 16, 1 << 32);
        // Filled with a non-zero empty value (generation 0) so every page is touched now, not
        // as page faults in the middle of the first solves.
        let entries = crate::search::limits::allocate_table("solver table", n, 1 << 16, 1u64);
        SolverTable { n: entries.len() as u64, entries, generation: 1 }
    }

    pub fn memory(&self) -> u64 {
        (self.entries.len() * 8) as u64
    }

    /// Forgets every entry (O(1) except once every 255 calls).
    pub fn reset(&mut self) {
        self.generation += 1;
        if self.generation == 256 {
            self.entries.fill(1);
            self.generation = 1;
        }
    }

    #[inline(always)]
    fn split(&self, key: u64) -> (usize, u64) {
        let h = key.wrapping_mul(MIX);
        ((((h >> 32) * self.n) >> 32) as usize, h & KEY_MASK)
    }

    #[inline]
    pub fn put(&mut self, key: u64, value: u8) {
        let (slot, rest) = self.split(key);
        self.entries[slot] = rest | ((value as u64) << 48) | (self.generation << 56);
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<u8> {
        let (slot, rest) = self.split(key);
        let e = self.entries[slot];
        (e >> 56 == self.generation && e & KEY_MASK == rest).then_some((e >> 48) as u8)
    }

    /// Starts loading the slot of `key` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let (slot, _) = self.split(key);
            // SAFETY: the pointer is inside `entries`; a prefetch never faults.
            unsafe {
                core::arch::x86_64::_mm_prefetch(
                    self.entries.as_ptr().add(slot) as *const i8,
                    core::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_get_and_reset() {
        let mut t = SolverTable::new(1);
        t.put(123_456_789, 42);
        assert_eq!(t.get(123_456_789), Some(42));
        assert_eq!(t.get(123_456_790), None);
        t.reset();
        assert_eq!(t.get(123_456_789), None);
    }

    /// The exactness argument of the module comment, checked on a table of a size that is
    /// not a power of two: keys with equal stored bits never share a slot.
    #[test]
    fn equal_stored_bits_never_share_a_slot() {
        let t = SolverTable::new(3); // 393,216 entries
        assert_eq!(t.memory(), 3 << 20);
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // A second key whose product has the same low 48 bits but other top bits.
            let h = x.wrapping_mul(MIX);
            let other = h ^ ((x >> 48).max(1) << 48);
            let inverse = (0..6).fold(MIX, |y: u64, _| y.wrapping_mul(2u64.wrapping_sub(MIX.wrapping_mul(y))));
            let k2 = other.wrapping_mul(inverse);
            let (s1, r1) = t.split(x);
            let (s2, r2) = t.split(k2);
            assert_eq!(r1, r2);
            assert_ne!(s1, s2, "keys {x:#x} and {k2:#x}");
        }
    }

    #[test]
    fn keys_sharing_a_slot_are_told_apart() {
        let mut t = SolverTable::new(1);
        // Find two keys with the same slot.
        let (a, _) = t.split(1);
        let b = (2u64..).find(|&k| t.split(k).0 == a).unwrap();
        t.put(1, 7);
        assert_eq!(t.get(b), None);
        t.put(b, 9);
        assert_eq!(t.get(b), Some(9));
        assert_eq!(t.get(1), None);
    }
}
