//! The transposition table shared by the alpha-beta agents and the solver: values with their
//! bound type, depth and best move, replaced by depth and age.

use super::score::WIN_BOUND;
use super::tree::Bound;
use crate::game::Move;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub value: i32,
    pub bound: Bound,
    pub depth: u32,
    pub mv: Option<Move>,
}

/// A table of 12-byte entries, shared by the threads of one search (Lazy SMP) without locks.
///
/// An entry is three 32-bit words: `check ^ value ^ meta`, `value`, `meta` (move in bits
/// 0-15, depth 16-23, bound 24-25 with 0 = empty, generation 26-31), where `check` is the upper
/// half of the hash (the lower half chose the slot). Words are read and written one at a time
/// (relaxed atomics: plain moves on x86); a probe that meets an entry half written by another
/// thread finds its three words inconsistent (the check fails) and treats it as a miss, as in
/// Hyatt's lockless hashing. With one thread this is an ordinary table.
pub struct TranspositionTable {
    words: Box<[AtomicU32]>,
    /// Entries in the table (any number: the slot is the low half of the hash scaled to it).
    entries: u64,
    generation: AtomicU32,
    /// The bytes asked for (more than it has when the system refused them).
    asked: u64,
}

const NO_MOVE: u32 = u16::MAX as u32;
const WORDS: usize = 3;

impl TranspositionTable {
    /// A table of `megabytes` (as many 12-byte entries as fit, at least 1024). The memory
    /// comes zeroed from the system: pages are touched when the search first uses them, so a
    /// large table costs its time inside the search that uses it.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let n = (bytes / (WORDS * 4)).clamp(1024, u32::MAX as usize);
        let words = super::limits::allocate_zeroed(n * WORDS, 1024 * WORDS);
        let asked = (n * WORDS * 4) as u64;
        TranspositionTable { entries: (words.len() / WORDS) as u64, words, generation: AtomicU32::new(1), asked }
    }

    /// Why the table is smaller than asked, if it is.
    pub fn shortfall(&self) -> Option<String> {
        super::limits::short_table("transposition table", self.asked, self.memory())
    }

    /// Writes every 4 KiB page of a fresh table once, while `go_on` says so (asked every
    /// MiB), so that no page is first mapped read-only (the shared zero page) by a probe and
    /// then replaced by a store: with several threads each such replacement interrupts the
    /// other cores to flush their TLBs (about 4% of a two-thread search's time by `perf`).
    pub fn touch_pages(&self, mut go_on: impl FnMut() -> bool) {
        const WORDS_A_PAGE: usize = 4096 / 4;
        const PAGES_A_MIB: usize = 256;
        for (i, w) in self.words.iter().step_by(WORDS_A_PAGE).enumerate() {
            if i % PAGES_A_MIB == 0 && !go_on() {
                return;
            }
            w.store(0, Relaxed);
        }
    }

    pub fn memory(&self) -> u64 {
        (self.words.len() * 4) as u64
    }

    /// Starts a new search: older entries stay usable but are replaced first.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g % 63) + 1, Relaxed);
    }

    /// Win values are stored relative to the node so they stay right when the same position is
    /// reached at another ply.
    #[inline]
    fn to_stored(value: i32, ply: u32) -> i32 {
        if value >= WIN_BOUND {
            value + ply as i32
        } else if value <= -WIN_BOUND {
            value - ply as i32
        } else {
            value
        }
    }

    #[inline]
    fn from_stored(value: i32, ply: u32) -> i32 {
        if value >= WIN_BOUND {
            value - ply as i32
        } else if value <= -WIN_BOUND {
            value + ply as i32
        } else {
            value
        }
    }

    #[inline(always)]
    fn slot(&self, hash: u64) -> &[AtomicU32] {
        // The low 32 bits scaled to the table (multiply-shift, no division); the high 32 bits
        // are the check.
        let i = (((hash & 0xffff_ffff) * self.entries) >> 32) as usize * WORDS;
        &self.words[i..i + WORDS]
    }

    /// The entry's value and meta word, if it holds `hash` (and was not torn by a writer).
    #[inline(always)]
    fn read(&self, hash: u64) -> (bool, u32, u32) {
        let e = self.slot(hash);
        let (x, value, meta) = (e[0].load(Relaxed), e[1].load(Relaxed), e[2].load(Relaxed));
        (x ^ value ^ meta == (hash >> 32) as u32, value, meta)
    }

    #[inline]
    pub fn probe(&self, hash: u64, ply: u32) -> Option<TtHit> {
        let (same, value, meta) = self.read(hash);
        let bound = match (meta >> 24) & 3 {
            0 => return None,
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        if !same {
            return None;
        }
        let mv = meta & 0xffff;
        Some(TtHit {
            value: Self::from_stored(value as i32, ply),
            bound,
            depth: (meta >> 16) & 0xff,
            mv: (mv != NO_MOVE).then_some(Move(mv as u16)),
        })
    }

    #[inline]
    pub fn store(&self, hash: u64, ply: u32, value: i32, bound: Bound, depth: u32, mv: Option<Move>) {
        let (same, _, old) = self.read(hash);
        let generation = self.generation.load(Relaxed);
        // Keep a deeper entry of this search unless it is the same position.
        if (old >> 24) & 3 != 0 && old >> 26 == generation && !same && ((old >> 16) & 0xff) > depth {
            return;
        }
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let mv = mv.map_or(if same { old & 0xffff } else { NO_MOVE }, |m| m.0 as u32);
        let meta = mv | (depth.min(255) << 16) | (b << 24) | (generation << 26);
        let value = Self::to_stored(value, ply) as u32;
        let e = self.slot(hash);
        e[1].store(value, Relaxed);
        e[2].store(meta, Relaxed);
        e[0].store((hash >> 32) as u32 ^ value ^ meta, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::WIN;

    #[test]
    fn stores_and_probes_with_win_distance_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        let h = 0xDEAD_BEEF_1234_5678;
        // A win 3 plies below a node at ply 5 is WIN - 8 at the root.
        tt.store(h, 5, WIN - 8, Bound::Exact, 4, Some(Move(3)));
        let hit = tt.probe(h, 7).unwrap();
        assert_eq!(hit.value, WIN - 10);
        assert_eq!(hit.mv, Some(Move(3)));
        assert_eq!(hit.depth, 4);
        assert!(tt.probe(h ^ (1 << 40), 7).is_none());
    }

    /// Touching pages asks whether to go on once a MiB, stops when told, and leaves a fresh
    /// table empty.
    #[test]
    fn touching_pages_stops_when_told_and_stores_nothing() {
        let tt = TranspositionTable::new(4);
        let mut asked = 0;
        tt.touch_pages(|| {
            asked += 1;
            true
        });
        assert_eq!(asked, 4, "once for each MiB of a 4 MiB table");
        let mut asked = 0;
        tt.touch_pages(|| {
            asked += 1;
            asked < 2
        });
        assert_eq!(asked, 2, "stops at the first no");
        assert!((0..1000u64).all(|i| tt.probe(i.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0).is_none()));
    }

    /// An entry whose words come from two different writes (another thread's store caught
    /// half way) fails its check and reads as a miss, never as a wrong value.
    #[test]
    fn a_torn_entry_is_a_miss() {
        let tt = TranspositionTable::new(1);
        let h = 0x0123_4567_89AB_CDEF;
        tt.store(h, 0, 42, Bound::Exact, 3, Some(Move(1)));
        let value_of_other_write = 7u32;
        tt.slot(h)[1].store(value_of_other_write, Relaxed);
        assert!(tt.probe(h, 0).is_none());
        tt.store(h, 0, 42, Bound::Lower, 5, None);
        let hit = tt.probe(h, 0).unwrap();
        assert_eq!((hit.value, hit.depth, hit.mv), (42, 5, None), "a rewrite of the slot heals it");
    }
}
