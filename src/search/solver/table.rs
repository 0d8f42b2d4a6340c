//! The solver's transposition table: one 64-bit word per entry (48 key bits, an 8-bit value,
//! an 8-bit generation). A key is first multiplied by an odd constant, a bijection on 64-bit
//! words; the top bits of the product choose the slot and the low 48 bits are stored, so the
//! pair identifies the key exactly (no false hits) with no division on the hot path. A new
//! generation empties the table in O(1), so every position of a benchmark starts from a fresh
//! table without clearing megabytes.

pub struct SolverTable {
    entries: Vec<u64>,
    shift: u32,
    generation: u64,
}

const KEY_BITS: u32 = 48;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

impl SolverTable {
    /// A table of about `megabytes` (rounded down to a power of two, at least 2^16 entries).
    pub fn new(megabytes: usize) -> SolverTable {
        let wanted = (megabytes.max(1) * 1024 * 1024 / 8).max(1 << 16);
        let n = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        // Filled with a non-zero empty value (generation 0) so every page is touched now, not
        // as page faults in the middle of the first solves.
        let entries = crate::search::limits::allocate_table("solver table", n, 1 << 16, 1u64);
        SolverTable { shift: 64 - entries.len().trailing_zeros(), entries, generation: 1 }
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
        ((h >> self.shift) as usize, h & KEY_MASK)
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
