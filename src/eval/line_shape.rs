//! Line shapes: what a player makes along one line by putting a stone on an empty cell
//! (a line, an open four, a four, an open three, ...), read from the 2K-2 cells around the
//! cell on that line. The names are gomoku's (K = 5); the definitions hold for any K:
//!
//! - `short`: how many stones the best window through the cell still misses once the stone
//!   is on it (0: the stone completes a line; 1: a "four"; 2: a "three"; ...), counting only
//!   windows with no opponent stone and inside the board;
//! - open, for `short` 1: two or more distinct cells complete a line (a straight four, or two
//!   fours on one line); for `short` >= 2: one more stone on the line can make an open shape
//!   one stone shorter (an open three is one stone from a straight four).
//!
//! Shapes are looked up, not computed, in the search: a table over every segment (3^(2K-2)
//! entries) for K up to [`DENSE_MAX_K`], shared by all boards; above it, a memo kept by
//! each board of the segments it met.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// A line shape: `short * 2 + open` (see the module), or [`DEAD`].
pub type ShapeCode = u8;

/// No window through the cell can still become a line.
pub const DEAD: ShapeCode = u8::MAX;

/// K up to which every segment's shape is tabled up front (3^12 entries at 7).
pub const DENSE_MAX_K: usize = 7;

/// Stones short of a line (0: it is a line), or `None` for [`DEAD`].
#[inline]
pub fn short(code: ShapeCode) -> Option<u8> {
    (code != DEAD).then_some(code >> 1)
}

/// Is the shape open (see the module)?
#[inline]
pub fn is_open(code: ShapeCode) -> bool {
    code != DEAD && code & 1 == 1
}

/// What a segment cell holds, as its base-3 digit in a segment's index.
pub const EMPTY: u64 = 0;
pub const OWN: u64 = 1;
/// The opponent's stone, or a cell off the board.
pub const BLOCKED: u64 = 2;

/// The shapes of segments for one K. A segment is the 2K-2 cells around the cell on a line,
/// from the furthest on one side to the furthest on the other, as base-3 digits (first cell
/// least significant): [`EMPTY`], [`OWN`] or [`BLOCKED`].
#[derive(Clone, Debug)]
pub struct ShapeTable {
    k: usize,
    dense: Option<Arc<Vec<ShapeCode>>>,
    memo: HashMap<u64, ShapeCode>,
}

static DENSE: [OnceLock<Arc<Vec<ShapeCode>>>; DENSE_MAX_K + 1] = [const { OnceLock::new() }; DENSE_MAX_K + 1];

impl ShapeTable {
    /// K must be at least 1 and at most 21 (3^40 segments still fit an index).
    pub fn new(k: usize) -> ShapeTable {
        assert!((1..=21).contains(&k), "line shapes for K from 1 to 21");
        let dense = (k <= DENSE_MAX_K).then(|| DENSE[k].get_or_init(|| Arc::new(dense_table(k))).clone());
        ShapeTable { k, dense, memo: HashMap::new() }
    }

    pub fn k(&self) -> usize {
        self.k
    }

    /// The shape of the segment with this index.
    #[inline]
    pub fn code(&mut self, index: u64) -> ShapeCode {
        match &self.dense {
            Some(table) => table[index as usize],
            None => memo_code(self.k, index, &mut self.memo),
        }
    }
}

/// Every segment's shape, from the fullest index down: one more own stone raises the index,
/// so the shapes an entry's openness reads are computed before it.
fn dense_table(k: usize) -> Vec<ShapeCode> {
    let n = 3usize.pow(2 * (k as u32 - 1));
    let mut table = vec![DEAD; n];
    for index in (0..n).rev() {
        table[index] = classify(k, index as u64, |more| table[more as usize]);
    }
    table
}

fn memo_code(k: usize, index: u64, memo: &mut HashMap<u64, ShapeCode>) -> ShapeCode {
    if let Some(&c) = memo.get(&index) {
        return c;
    }
    let c = classify(k, index, |more| memo_code(k, more, memo));
    memo.insert(index, c);
    c
}

/// The shape of one segment; `more(i)` is the shape of segment `i`, which has one more own
/// stone (so a larger index).
fn classify(k: usize, index: u64, mut more: impl FnMut(u64) -> ShapeCode) -> ShapeCode {
    let len = 2 * k - 1;
    let centre = k - 1;
    // Cells of the whole segment, the centre (the new stone) included.
    let mut cell = [EMPTY; 41];
    let mut rest = index;
    for (i, c) in cell.iter_mut().enumerate().take(len) {
        if i == centre {
            *c = OWN;
        } else {
            *c = rest % 3;
            rest /= 3;
        }
    }
    let mut best = 0usize;
    let mut live = false;
    for start in 0..k {
        let w = &cell[start..start + k];
        if w.contains(&BLOCKED) {
            continue;
        }
        live = true;
        best = best.max(w.iter().filter(|&&c| c == OWN).count());
    }
    if !live {
        return DEAD;
    }
    let short = k - best;
    let open = match short {
        0 => false,
        1 => {
            let mut completions = [usize::MAX; 2];
            let mut found = 0;
            for start in 0..k {
                let w = &cell[start..start + k];
                if w.contains(&BLOCKED) || w.iter().filter(|&&c| c == OWN).count() != k - 1 {
                    continue;
                }
                let gap = start + w.iter().position(|&c| c == EMPTY).expect("a window one short has a gap");
                if found == 0 || (found == 1 && completions[0] != gap) {
                    completions[found] = gap;
                    found += 1;
                }
            }
            found >= 2
        }
        _ => (0..len).filter(|&i| i != centre && cell[i] == EMPTY).any(|i| {
            let digit = if i < centre { i } else { i - 1 };
            let c = more(index + 3u64.pow(digit as u32));
            c != DEAD && c >> 1 == short as u8 - 1 && c & 1 == 1
        }),
    };
    (short as u8) << 1 | open as u8
}

/// The index of a segment given as text, for tests and docs: `x` own, `o` blocked, `.`
/// empty, 2K-2 characters from one end to the other (the centre left out).
pub fn segment_index(cells: &str) -> u64 {
    cells.chars().rev().fold(0, |acc, ch| {
        acc * 3
            + match ch {
                'x' => OWN,
                'o' => BLOCKED,
                _ => EMPTY,
            }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of `line`, a K-in-a-row segment written with `*` for the cell played.
    fn shape(k: usize, line: &str) -> (Option<u8>, bool) {
        let centre = line.find('*').unwrap();
        let before = &line[..centre];
        let after = &line[centre + 1..];
        // Cells further than K-1 away do not matter; the board's edge is blocked.
        let pad = |s: &str, left: bool| {
            let s = if left { &s[s.len().saturating_sub(k - 1)..] } else { &s[..s.len().min(k - 1)] };
            let fill = "o".repeat(k - 1 - s.len());
            if left { format!("{fill}{s}") } else { format!("{s}{fill}") }
        };
        let seg = pad(before, true) + &pad(after, false);
        let mut dense = ShapeTable::new(k);
        let mut memo = ShapeTable { k, dense: None, memo: HashMap::new() };
        let c = dense.code(segment_index(&seg));
        assert_eq!(c, memo.code(segment_index(&seg)), "the table and the memo agree on {line}");
        (short(c), is_open(c))
    }

    /// Gomoku's shapes, the `*` the stone just played (the other side's stones as `o`, the
    /// board's edge where the text ends).
    #[test]
    fn gomoku_shapes() {
        let cases = [
            ("...xx*xx...", Some(0), false),
            ("...xx*x.....", Some(1), true),  // straight four
            ("o.xx*x.....", Some(1), true),   // straight four against a stone
            ("...oxx*x....", Some(1), false), // four blocked on one side
            ("....x.*xx...", Some(1), false), // split four
            ("...x.x*x.x..", Some(1), true),  // two fours on one line
            ("....x*x.....", Some(2), true),  // open three
            ("....x.*x....", Some(2), true),  // split three
            ("...ox*x.....", Some(2), false), // three, one side blocked
            ("..o.x*x.o...", Some(2), false), // room for a four but no straight four
            ("..o.x*x..o..", Some(2), true),  // .xxx.. inside six cells
            ("...x*....", Some(3), true),     // open two
            ("o*xxo", None, false),           // no room for five
            ("o*xxx.o", Some(1), false),      // exactly five cells of room
            ("o*x...o", Some(3), false),      // a two that can only become a closed four
        ];
        for (line, want_short, want_open) in cases {
            assert_eq!(shape(5, line), (want_short, want_open), "{line}");
        }
    }

    /// The definitions hold for other K: tic-tac-toe's and Connect-4's shapes, and K = 8
    /// through the memo.
    #[test]
    fn other_k() {
        assert_eq!(shape(3, "x*x"), (Some(0), false));
        assert_eq!(shape(3, ".*x."), (Some(1), true));
        assert_eq!(shape(3, "o*x."), (Some(1), false));
        assert_eq!(shape(4, ".x*x."), (Some(1), true));
        assert_eq!(shape(4, "..*x.."), (Some(2), true));
        assert_eq!(shape(8, "..xxx*xxx.."), (Some(1), true));
        assert_eq!(shape(8, "..xxx*xx..."), (Some(2), true));
        assert_eq!(shape(8, "oxxx*xxo"), (None, false));
    }
}
