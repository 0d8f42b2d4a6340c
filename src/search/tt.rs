//! The transposition table shared by the alpha-beta agents and the solver: values with their
//! bound type, depth and best move, replaced by depth and age.

use super::score::WIN_BOUND;
use super::tree::Bound;
use crate::game::Move;

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    /// Upper 32 bits of the hash (the lower bits chose the slot).
    check: u32,
    value: i32,
    mv: u16,
    depth: u8,
    /// Bound in bits 0-1 (0 = empty), generation in bits 2-7.
    flags: u8,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub value: i32,
    pub bound: Bound,
    pub depth: u32,
    pub mv: Option<Move>,
}

pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

const NO_MOVE: u16 = u16::MAX;

impl TranspositionTable {
    /// A table of about `megabytes` (rounded down to a power of two entries, at least 1024).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Entry>()).max(1024).next_power_of_two() / 2;
        let n = n.max(1024);
        let entries = super::limits::allocate_table("transposition table", n, 1024, Entry::default());
        TranspositionTable { mask: entries.len() - 1, entries, generation: 1 }
    }

    pub fn memory(&self) -> u64 {
        (self.entries.len() * std::mem::size_of::<Entry>()) as u64
    }

    /// Starts a new search: older entries stay usable but are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation % 63) + 1;
    }

    /// Forgets everything (O(size)).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
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

    #[inline]
    pub fn probe(&self, hash: u64, ply: u32) -> Option<TtHit> {
        let e = &self.entries[hash as usize & self.mask];
        if e.flags & 3 == 0 || e.check != (hash >> 32) as u32 {
            return None;
        }
        let bound = match e.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(TtHit {
            value: Self::from_stored(e.value, ply),
            bound,
            depth: e.depth as u32,
            mv: (e.mv != NO_MOVE).then_some(Move(e.mv)),
        })
    }

    #[inline]
    pub fn store(&mut self, hash: u64, ply: u32, value: i32, bound: Bound, depth: u32, mv: Option<Move>) {
        let slot = &mut self.entries[hash as usize & self.mask];
        let same = slot.check == (hash >> 32) as u32;
        let old_gen = slot.flags >> 2;
        // Keep a deeper entry of this search unless it is the same position.
        if slot.flags & 3 != 0 && old_gen == self.generation && !same && (slot.depth as u32) > depth {
            return;
        }
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *slot = Entry {
            check: (hash >> 32) as u32,
            value: Self::to_stored(value, ply),
            mv: mv.map_or(if same { slot.mv } else { NO_MOVE }, |m| m.0),
            depth: depth.min(255) as u8,
            flags: b | (self.generation << 2),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::WIN;

    #[test]
    fn stores_and_probes_with_win_distance_relative_to_the_node() {
        let mut tt = TranspositionTable::new(1);
        let h = 0xDEAD_BEEF_1234_5678;
        // A win 3 plies below a node at ply 5 is WIN - 8 at the root.
        tt.store(h, 5, WIN - 8, Bound::Exact, 4, Some(Move(3)));
        let hit = tt.probe(h, 7).unwrap();
        assert_eq!(hit.value, WIN - 10);
        assert_eq!(hit.mv, Some(Move(3)));
        assert_eq!(hit.depth, 4);
        assert!(tt.probe(h ^ (1 << 40), 7).is_none());
    }
}
