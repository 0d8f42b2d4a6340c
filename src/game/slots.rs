//! A set of small integers with O(1) insert-back, remove and uniform random pick.
//!
//! Used for the empty cells (free placement), open columns (gravity) and open poles
//! (connect3d), so a random playout picks a move in O(1). Removals are undone in LIFO order
//! by [`Slots::restore`], which puts every element back where it was, so the order (and thus
//! every seeded random choice) depends only on the moves played.

#[derive(Debug)]
pub struct Slots {
    items: Vec<u16>,
    /// Where each value sits in `items` (kept after removal so `restore` knows where it was).
    at: Vec<u16>,
}

impl Clone for Slots {
    fn clone(&self) -> Self {
        Slots { items: self.items.clone(), at: self.at.clone() }
    }
    fn clone_from(&mut self, source: &Self) {
        self.items.clone_from(&source.items);
        self.at.clone_from(&source.at);
    }
}

impl Slots {
    /// All values `0..n` present.
    pub fn full(n: usize) -> Slots {
        Slots { items: (0..n as u16).collect(), at: (0..n as u16).collect() }
    }

    /// Only the given values present, in that order (values below `n`).
    pub fn from_values(n: usize, values: impl IntoIterator<Item = u16>) -> Slots {
        let mut s = Slots { items: Vec::with_capacity(n), at: vec![0; n] };
        for v in values {
            s.at[v as usize] = s.items.len() as u16;
            s.items.push(v);
        }
        s
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        self.items[i]
    }

    #[inline]
    pub fn as_slice(&self) -> &[u16] {
        &self.items
    }

    /// Removes `v` (which must be present) by moving the last element into its place.
    #[inline(always)]
    pub fn remove(&mut self, v: u16) {
        let i = self.at[v as usize] as usize;
        let last = self.items.pop().expect("remove from empty Slots");
        if i < self.items.len() {
            self.items[i] = last;
            self.at[last as usize] = i as u16;
        }
    }

    /// Undoes the most recent `remove(v)` still in effect. (Always inlined: a search's undo
    /// runs it at every node.)
    #[inline(always)]
    pub fn restore(&mut self, v: u16) {
        let i = self.at[v as usize] as usize;
        if i == self.items.len() {
            self.items.push(v);
        } else {
            let moved = self.items[i];
            self.at[moved as usize] = self.items.len() as u16;
            self.items.push(moved);
            self.items[i] = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remove_then_restore_gives_back_the_same_order() {
        let mut s = Slots::full(6);
        let before = s.as_slice().to_vec();
        s.remove(2);
        s.remove(5);
        s.remove(0);
        assert_eq!(s.len(), 3);
        assert!(!s.as_slice().contains(&2) && !s.as_slice().contains(&5) && !s.as_slice().contains(&0));
        s.restore(0);
        s.restore(5);
        s.restore(2);
        assert_eq!(s.as_slice(), &before[..]);
    }
}
