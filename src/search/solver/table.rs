//! The solver's transposition table: buckets of two 64-bit entries in 16 bytes (one cache
//! line holds the bucket), one entry kept for the position with the largest search under it
//! and one for the latest other, so the positions that were costly to solve survive the
//! millions of cheap ones a long proof stores (after John Tromp's Fhourstones, which keeps
//! the work of an entry). An entry is 42 bits of the key's hash, 6 bits of work (log2 of the
//! nodes searched to store it), an 8-bit value and an 8-bit generation.
//!
//! A key of at most `key_bits` bits (the Connect-X key: `width * (height + 1)` bits) is first
//! multiplied by an odd constant modulo 2^key_bits, a bijection on keys of that width; the top
//! 32 bits of the product, scaled to the table's n buckets (multiply-shift, no division),
//! choose the bucket, and the low 42 bits are stored. With n >= 2^(key_bits - 42) the pair
//! identifies the key exactly (no false hits): two products with equal low 42 bits differ by
//! a multiple of 2^42, so their top 32 bits differ by at least 2^(74 - key_bits) and their
//! buckets by at least 2^(74 - key_bits) n / 2^32 >= 1. Connect-4's 49-bit keys need 128
//! buckets; a 64-bit key needs 2^22 (64 MiB), and a smaller table is raised to that. Any n
//! works, so the table is the size asked for otherwise. A new generation empties the table
//! in O(1), so every position of a benchmark starts from a fresh table without clearing
//! megabytes.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// Two entries: `[0]` the one with the most work, `[1]` the latest other. Each entry is one
/// atomic word holding its own key bits, so threads sharing the table (a parallel solve) read
/// and write entries without locks: a bucket written by two threads at once may lose one of
/// the two entries, never mix them. (Relaxed atomic loads and stores of a word are plain
/// loads and stores on x86-64: the single-threaded solver pays nothing.)
#[repr(C, align(16))]
struct Bucket([AtomicU64; 2]);

// SAFETY: a Bucket is two AtomicU64; zero is a valid AtomicU64 (and the empty entry).
unsafe impl crate::search::limits::ZeroIsValid for Bucket {}

pub struct SolverTable {
    buckets: Box<[Bucket]>,
    /// `buckets.len()`.
    n: u64,
    key_bits: u32,
    generation: AtomicU64,
    /// The buckets asked for (more than it has when the system refused them).
    asked: u64,
}

const STORED_BITS: u32 = 42;
const STORED_MASK: u64 = (1 << STORED_BITS) - 1;
const WORK_SHIFT: u32 = 42;
const VALUE_SHIFT: u32 = 48;
const GENERATION_SHIFT: u32 = 56;
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
/// The empty entry: generation 0, which no table uses.
const EMPTY: u64 = 0;

/// log2 of a search's node count plus one, at most 63: the work an entry records.
#[inline(always)]
pub fn work_of(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()).min(63) as u8
}

impl SolverTable {
    /// A table of `megabytes` (at least 2^15 buckets, 512 KiB, and as many as exact keys of
    /// `key_bits` bits need) for keys below 2^key_bits.
    pub fn new(megabytes: usize, key_bits: u32) -> SolverTable {
        assert!((1..=64).contains(&key_bits));
        let exact_min = 1usize << key_bits.saturating_sub(STORED_BITS);
        let min = exact_min.max(1 << 15);
        let n = (megabytes.max(1) * 1024 * 1024 / 16).clamp(min, 1 << 32);
        // Zeroed by the system (all entries empty): the pages cost their faults in the search
        // that first touches them, inside its time limit, not before its clock starts.
        let buckets = crate::search::limits::allocate_zeroed::<Bucket>(n, min);
        SolverTable { n: buckets.len() as u64, buckets, key_bits, generation: AtomicU64::new(1), asked: n as u64 }
    }

    /// Why the table is smaller than asked, if it is.
    pub fn shortfall(&self) -> Option<String> {
        crate::search::limits::short_table("solver table", self.asked * 16, self.memory())
    }

    pub fn memory(&self) -> u64 {
        (self.buckets.len() * 16) as u64
    }

    /// Writes each 4 KiB page of a new table once (the empty entry it already holds), so that
    /// a batch of short searches, timed one by one, does not pay the first touch of the
    /// table's pages inside the first searches: Pons' solver clears its table before each
    /// position, outside his timing, which maps every page. Not for single solves: there the
    /// pages cost their time within the time limit. Only before the first search: it empties
    /// an entry a page.
    pub fn touch_pages(&self) {
        const BUCKETS_A_PAGE: usize = 4096 / 16;
        for b in self.buckets.iter().step_by(BUCKETS_A_PAGE) {
            // A store: the compiler removed the read-modify-write `fetch_or(EMPTY)` used before
            // (an `or` with zero whose result is unused does nothing it must keep), so no page
            // was mapped until the searches wrote to it.
            b.0[0].store(EMPTY, Relaxed);
        }
    }

    /// Forgets every entry (O(1) except once every 255 calls). Not while a search runs.
    pub fn reset(&self) {
        let g = self.generation.load(Relaxed) + 1;
        if g == 256 {
            for b in self.buckets.iter() {
                b.0[0].store(EMPTY, Relaxed);
                b.0[1].store(EMPTY, Relaxed);
            }
            self.generation.store(1, Relaxed);
        } else {
            self.generation.store(g, Relaxed);
        }
    }

    /// The bucket of `key` and the bits stored with it.
    #[inline(always)]
    fn split(&self, key: u64) -> (usize, u64) {
        let b = self.key_bits;
        let h = key.wrapping_mul(MIX) & (u64::MAX >> (64 - b));
        let top = if b >= 32 { h >> (b - 32) } else { h << (32 - b) };
        (((top * self.n) >> 32) as usize, h & STORED_MASK)
    }

    #[inline(always)]
    fn holds(e: u64, rest: u64, generation: u64) -> bool {
        e >> GENERATION_SHIFT == generation && e & STORED_MASK == rest
    }

    /// Stores `value` for `key`, found with `work` (see [`work_of`]).
    #[inline]
    pub fn put(&self, key: u64, value: u8, work: u8) {
        let (slot, rest) = self.split(key);
        let generation = self.generation.load(Relaxed);
        let e =
            rest | ((work as u64) << WORK_SHIFT) | ((value as u64) << VALUE_SHIFT) | (generation << GENERATION_SHIFT);
        let bucket = &self.buckets[slot].0;
        let first = bucket[0].load(Relaxed);
        let live = first >> GENERATION_SHIFT == generation;
        if live && first & STORED_MASK == rest {
            bucket[0].store(e, Relaxed);
        } else if !live || work as u64 >= (first >> WORK_SHIFT) & 63 {
            // The new entry took at least as much work: it takes the first place, and the one
            // it displaces the second (over an older entry of this key, if that was there; an
            // older entry left in the second place is never read, the first being read first).
            if live {
                bucket[1].store(first, Relaxed);
            }
            bucket[0].store(e, Relaxed);
        } else {
            bucket[1].store(e, Relaxed);
        }
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<u8> {
        let (slot, rest) = self.split(key);
        let generation = self.generation.load(Relaxed);
        let bucket = &self.buckets[slot].0;
        let a = bucket[0].load(Relaxed);
        if Self::holds(a, rest, generation) {
            Some((a >> VALUE_SHIFT) as u8)
        } else if let b = bucket[1].load(Relaxed)
            && Self::holds(b, rest, generation)
        {
            Some((b >> VALUE_SHIFT) as u8)
        } else {
            None
        }
    }

    /// Starts loading the bucket of `key` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let (slot, _) = self.split(key);
            // SAFETY: the pointer is inside `buckets`; a prefetch never faults.
            unsafe {
                core::arch::x86_64::_mm_prefetch(
                    self.buckets.as_ptr().add(slot) as *const i8,
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
        let t = SolverTable::new(1, 49);
        t.put(123_456_789, 42, 3);
        assert_eq!(t.get(123_456_789), Some(42));
        assert_eq!(t.get(123_456_790), None);
        t.reset();
        assert_eq!(t.get(123_456_789), None);
    }

    /// The exactness argument of the module comment, checked for Connect-4's key width, a
    /// wider one and the widest, on tables of a size that is not a power of two (the smallest
    /// each width allows): keys with equal stored bits never share a bucket.
    #[test]
    fn equal_stored_bits_never_share_a_bucket() {
        for (bits, mb) in [(49u32, 1usize), (56, 3), (64, 67)] {
            let t = SolverTable::new(mb, bits);
            assert!(t.n >= 1 << bits.saturating_sub(STORED_BITS), "{bits}-bit keys, {} buckets", t.n);
            let width = u64::MAX >> (64 - bits);
            // MIX's inverse modulo 2^64 (Newton's iteration), also its inverse modulo 2^bits.
            let inverse = (0..6).fold(MIX, |y: u64, _| y.wrapping_mul(2u64.wrapping_sub(MIX.wrapping_mul(y))));
            let mut x = 0x1234_5678_9ABC_DEF1u64;
            for _ in 0..100_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let k1 = x & width;
                // A second key whose product has the same low 42 bits but other high bits.
                let h = k1.wrapping_mul(MIX) & width;
                let other = (h ^ (((x >> 50) | 1) << STORED_BITS)) & width;
                if other == h {
                    continue;
                }
                let k2 = other.wrapping_mul(inverse) & width;
                let (s1, r1) = t.split(k1);
                let (s2, r2) = t.split(k2);
                assert_eq!(r1, r2);
                assert_ne!(s1, s2, "{bits}-bit keys {k1:#x} and {k2:#x}");
            }
        }
    }

    /// A table smaller than exact keys of the width need is raised to that size.
    #[test]
    fn wide_keys_get_a_table_big_enough_to_be_exact() {
        assert_eq!(SolverTable::new(1, 49).memory(), 1 << 20);
        assert_eq!(SolverTable::new(1, 64).memory(), 64 << 20);
    }

    #[test]
    fn keys_sharing_a_bucket_are_told_apart_and_the_costly_one_stays() {
        let t = SolverTable::new(1, 49);
        let (a, _) = t.split(1);
        let mut same: Vec<u64> = (2u64..).filter(|&k| t.split(k).0 == a).take(3).collect();
        same.insert(0, 1);
        t.put(same[0], 7, 20);
        assert_eq!(t.get(same[1]), None);
        t.put(same[1], 9, 2);
        assert_eq!((t.get(same[0]), t.get(same[1])), (Some(7), Some(9)));
        // Cheap entries replace each other in the second place; the costly one stays.
        t.put(same[2], 11, 1);
        assert_eq!((t.get(same[0]), t.get(same[1]), t.get(same[2])), (Some(7), None, Some(11)));
        // A costlier entry takes the first place and moves the old first to the second.
        t.put(same[3], 13, 30);
        assert_eq!((t.get(same[0]), t.get(same[2]), t.get(same[3])), (Some(7), None, Some(13)));
        // Storing a key again replaces its entry, whatever its work.
        t.put(same[3], 14, 0);
        assert_eq!(t.get(same[3]), Some(14));
    }

    /// The bytes of `t`'s buckets in resident pages (Linux's `mincore`; None elsewhere). The
    /// table's own pages: the process's resident memory moves with the tests running beside
    /// this one (one freeing a table made it seem to grow by 24 MiB for 64).
    #[cfg(target_os = "linux")]
    fn resident_table_bytes(t: &SolverTable) -> Option<u64> {
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let page = usize::try_from(page).ok().filter(|&p| p > 0)?;
        let start = t.buckets.as_ptr() as usize;
        let len = std::mem::size_of_val(&*t.buckets);
        let aligned = start & !(page - 1);
        let span = start + len - aligned;
        let mut resident = vec![0u8; span.div_ceil(page)];
        // SAFETY: the range is the table's allocation widened to whole pages, all mapped
        // while `t` lives, and `resident` has a byte for each of its pages.
        let r = unsafe { libc::mincore(aligned as *mut libc::c_void, span, resident.as_mut_ptr()) };
        (r == 0).then(|| resident.iter().filter(|&&b| b & 1 == 1).count() as u64 * page as u64)
    }

    #[cfg(not(target_os = "linux"))]
    fn resident_table_bytes(_: &SolverTable) -> Option<u64> {
        None
    }

    /// Touching a new table's pages maps them: its pages become resident (they did not when
    /// the compiler left the touch out).
    #[test]
    fn touching_a_new_tables_pages_maps_them() {
        let t = SolverTable::new(64, 49);
        let Some(before) = resident_table_bytes(&t) else { return };
        t.touch_pages();
        let after = resident_table_bytes(&t).expect("read before");
        let grown = after.saturating_sub(before);
        assert!(grown >= 48 << 20, "the table's resident pages grew by {} KiB for a 64 MiB table", grown >> 10);
    }

    /// Mapping a new table's pages leaves it empty and usable.
    #[test]
    fn touching_a_new_tables_pages_stores_nothing() {
        let t = SolverTable::new(2, 49);
        t.touch_pages();
        assert!((0..10_000u64).all(|k| t.get(k.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 15).is_none()));
        t.put(77, 5, 9);
        assert_eq!(t.get(77), Some(5));
    }

    #[test]
    fn work_is_the_bit_length_of_the_node_count() {
        assert_eq!((work_of(0), work_of(1), work_of(2), work_of(1000), work_of(u64::MAX)), (0, 1, 2, 10, 63));
    }
}
