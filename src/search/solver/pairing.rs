//! Pairing strategies: a proof that one side cannot make a line, found for one position.
//!
//! With free placement, the breaker stops every window of the maker if the empty cells hold
//! disjoint pairs such that every window still open to the maker (none of the breaker's
//! stones in it) contains both cells of some pair: whenever the maker takes one cell of a
//! pair, the breaker takes the other, and any other move of either side leaves the pairs as
//! they were. Who moves next does not matter. This is the test that proves mnk:7,7,5 a draw
//! (Hsu et al., "On solving the 7,7,5-game and the 8,8,5-game",
//! Theoretical Computer Science 815, 2020, use pairings found during the search); the
//! Erdős–Selfridge potential, the solver's other breaker test, is too weak there until late.
//!
//! Finding a pairing is a small exact-cover-like search: take the uncovered window with the
//! fewest free cells, try each pair in it (those covering most other windows first). It is
//! bounded by a step budget; running out says "not found", which is always safe.

use crate::game::{Player, Position, WindowTable};

/// The empty cells of `pos` among its first `cells` (at most 128) as bits: the `empty`
/// argument of [`PairingSearch::run`].
pub fn empty_cells<P: Position>(pos: &P, cells: usize) -> u128 {
    (0..cells.min(128)).filter(|&c| pos.stone_on(c).is_none()).fold(0u128, |e, c| e | 1 << c)
}

/// The search for one position. Boards of at most 128 cells (cells are bits of a `u128`).
pub struct PairingSearch {
    /// Per window open to the maker, its empty cells.
    windows: Vec<u128>,
    /// Per window open to the maker, its id in the window table.
    ids: Vec<u32>,
    /// Per window id of the table, its place in `windows`, or `NONE`.
    place: Vec<u32>,
    covered: Vec<bool>,
    pairs: Vec<(u8, u8)>,
    steps: u32,
    budget: u32,
    candidates: Vec<Vec<(u32, u8, u8)>>,
    /// Per window id, the other windows sharing two cells or more with it: the only ones a
    /// pair inside it can also cover (two cells fix the line). Made once per window table.
    near: Vec<Vec<u32>>,
    /// Per maximal line of the table, its windows in order along it.
    line_windows: Vec<Vec<u32>>,
    near_of: (usize, usize),
}

const NONE: u32 = u32::MAX;

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairingOutcome {
    /// Every open window of the maker holds a pair: the maker cannot make a line.
    Found,
    /// No pairing exists (the search was exhaustive).
    None,
    /// The step budget ran out first.
    Unknown,
}

impl Default for PairingSearch {
    fn default() -> Self {
        PairingSearch::new(DEFAULT_BUDGET)
    }
}

/// Steps before a search gives up (a search that fails costs its whole budget). Chosen on
/// mnk:7,7,5 (docs/solver-notes.md, "Tuning constants").
pub const DEFAULT_BUDGET: u32 = 200;

impl PairingSearch {
    /// A search that gives up after `budget` steps (a step is one choice of window).
    pub fn new(budget: u32) -> PairingSearch {
        PairingSearch {
            windows: Vec::new(),
            ids: Vec::new(),
            place: Vec::new(),
            covered: Vec::new(),
            pairs: Vec::new(),
            steps: 0,
            budget,
            candidates: Vec::new(),
            near: Vec::new(),
            line_windows: Vec::new(),
            near_of: (0, 0),
        }
    }

    fn prepare(&mut self, table: &WindowTable) {
        let key = (table as *const WindowTable as usize, table.len());
        if self.near_of == key && self.near.len() == table.len() {
            return;
        }
        let masks: Vec<u128> =
            (0..table.len()).map(|w| table.cells_of(w).iter().fold(0u128, |m, &c| m | 1u128 << c)).collect();
        self.near = (0..table.len())
            .map(|w| {
                (0..table.len())
                    .filter(|&v| v != w && (masks[v] & masks[w]).count_ones() >= 2)
                    .map(|v| v as u32)
                    .collect()
            })
            .collect();
        let by_mask: std::collections::HashMap<u128, u32> =
            masks.iter().enumerate().map(|(w, &m)| (m, w as u32)).collect();
        self.line_windows = table
            .lines
            .iter()
            .map(|line| {
                line.windows(table.k)
                    .filter_map(|cells| by_mask.get(&cells.iter().fold(0u128, |m, &c| m | 1u128 << c)).copied())
                    .collect()
            })
            .collect();
        self.place = vec![NONE; table.len()];
        self.near_of = key;
    }

    /// Does the breaker have a pairing against `maker` (0 or 1, the player index)?
    /// `counts(w)` gives the stones of each player in window `w`; `empty` has a bit set for
    /// each empty cell. Boards of more than 128 cells are never paired (Unknown).
    pub fn run(
        &mut self,
        table: &WindowTable,
        counts: impl Fn(usize) -> [u8; 2],
        empty: u128,
        maker: usize,
    ) -> PairingOutcome {
        if table.cells > 128 {
            return PairingOutcome::Unknown;
        }
        self.prepare(table);
        for &w in &self.ids {
            self.place[w as usize] = NONE;
        }
        self.windows.clear();
        self.ids.clear();
        self.covered.clear();
        self.pairs.clear();
        self.steps = 0;
        for w in 0..table.len() {
            let c = counts(w);
            if c[1 - maker] != 0 {
                continue;
            }
            let mut free = 0u128;
            for &cell in table.cells_of(w) {
                free |= 1u128 << cell;
            }
            free &= empty;
            if free.count_ones() < 2 {
                return PairingOutcome::None;
            }
            self.place[w] = self.windows.len() as u32;
            self.windows.push(free);
            self.ids.push(w as u32);
        }
        // A quick necessary condition: each line needs its own pairs (two cells fix a line),
        // at least as many as the greedy choice on that line alone makes (in window order,
        // an uncovered window takes its two last free cells), and pairs take distinct cells.
        let mut need = 0u32;
        let mut usable = 0u128;
        for (line, windows) in table.lines.iter().zip(&self.line_windows) {
            let mut last_low: Option<usize> = None;
            for (start, &w) in windows.iter().enumerate() {
                let i = self.place[w as usize];
                if i == NONE || last_low.is_some_and(|low| low >= start) {
                    continue;
                }
                usable |= self.windows[i as usize];
                let mut found = 0;
                for at in (start..start + table.k).rev() {
                    if empty & (1u128 << line[at]) != 0 {
                        found += 1;
                        if found == 2 {
                            last_low = Some(at);
                            break;
                        }
                    }
                }
                need += 1;
            }
        }
        if 2 * need > usable.count_ones() {
            return PairingOutcome::None;
        }
        // A window whose free cells include all of another's is covered whenever that one
        // is: it is marked covered from the start (ties: the later one).
        self.covered.resize(self.windows.len(), false);
        for i in 0..self.windows.len() {
            let wi = self.windows[i];
            for &v in &self.near[self.ids[i] as usize] {
                let j = self.place[v as usize];
                if j != NONE && !self.covered[j as usize] {
                    let wj = self.windows[j as usize];
                    if wj & !wi == 0 && (wi != wj || (j as usize) < i) {
                        self.covered[i] = true;
                        break;
                    }
                }
            }
        }
        let r = self.search(0, 0);
        match r {
            Some(true) => PairingOutcome::Found,
            Some(false) => PairingOutcome::None,
            None => PairingOutcome::Unknown,
        }
    }

    /// [`PairingSearch::run`] with the window counts and empty cells read from `pos`'s stones
    /// (no incremental board: the explicit checker and the tests use this).
    pub fn run_on<P: Position>(&mut self, pos: &P, maker: Player) -> PairingOutcome {
        let table = pos.windows();
        let empty = empty_cells(pos, table.cells);
        let counts = |w: usize| {
            let mut n = [0u8; 2];
            for &c in table.cells_of(w) {
                if let Some(s) = pos.stone_on(c as usize) {
                    n[s.index()] += 1;
                }
            }
            n
        };
        self.run(table, counts, empty, maker.index())
    }

    /// The pairs of the last pairing found (cell ids).
    pub fn pairs(&self) -> &[(u8, u8)] {
        &self.pairs
    }

    /// Some(found) when the search ended, None when the budget ran out.
    fn search(&mut self, used: u128, depth: usize) -> Option<bool> {
        self.steps += 1;
        if self.steps > self.budget {
            return None;
        }
        let mut pick = None;
        let mut fewest = u32::MAX;
        for (i, &w) in self.windows.iter().enumerate() {
            if self.covered[i] {
                continue;
            }
            let free = (w & !used).count_ones();
            if free < 2 {
                return Some(false);
            }
            if free < fewest {
                fewest = free;
                pick = Some(i);
            }
        }
        let Some(pick) = pick else {
            return Some(true);
        };
        let free = self.windows[pick] & !used;
        if self.candidates.len() <= depth {
            self.candidates.resize(depth + 1, Vec::new());
        }
        let near = std::mem::take(&mut self.near[self.ids[pick] as usize]);
        let mut candidates = std::mem::take(&mut self.candidates[depth]);
        candidates.clear();
        let mut a_bits = free;
        while a_bits != 0 {
            let a = a_bits.trailing_zeros();
            a_bits &= a_bits - 1;
            let mut b_bits = a_bits;
            while b_bits != 0 {
                let b = b_bits.trailing_zeros();
                b_bits &= b_bits - 1;
                let pair = (1u128 << a) | (1u128 << b);
                let cover = near
                    .iter()
                    .map(|&v| self.place[v as usize])
                    .filter(|&j| j != NONE && !self.covered[j as usize] && self.windows[j as usize] & pair == pair)
                    .count();
                candidates.push((cover as u32, a as u8, b as u8));
            }
        }
        candidates.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        let mut result = Some(false);
        let mut newly: Vec<u32> = Vec::with_capacity(near.len());
        self.covered[pick] = true;
        for &(_, a, b) in &candidates {
            let pair = (1u128 << a) | (1u128 << b);
            newly.clear();
            for &v in &near {
                let j = self.place[v as usize];
                if j != NONE && !self.covered[j as usize] && self.windows[j as usize] & pair == pair {
                    newly.push(j);
                }
            }
            for &j in &newly {
                self.covered[j as usize] = true;
            }
            self.pairs.push((a, b));
            let r = self.search(used | pair, depth + 1);
            if r == Some(true) {
                result = r;
                break;
            }
            self.pairs.pop();
            for &j in &newly {
                self.covered[j as usize] = false;
            }
            if r.is_none() {
                result = None;
                break;
            }
        }
        if result != Some(true) {
            self.covered[pick] = false;
        }
        self.near[self.ids[pick] as usize] = near;
        self.candidates[depth] = candidates;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AnyPosition, Variant};
    use crate::with_position;

    fn pairing_of(game: &str, moves: &str, maker: Player) -> (PairingOutcome, Vec<(u8, u8)>, AnyPosition) {
        let variant: Variant = game.parse().unwrap();
        let pos = AnyPosition::from_moves(variant, moves).unwrap();
        let mut s = PairingSearch::new(1_000_000);
        let out = with_position!(&pos, p => s.run_on(p, maker));
        (out, s.pairs().to_vec(), pos)
    }

    /// The pairs are disjoint empty cells and every window open to the maker holds one.
    fn check(pos: &AnyPosition, pairs: &[(u8, u8)], maker: Player) {
        with_position!(pos, p => {
            let table = p.windows().clone();
            let mut seen = 0u128;
            for &(a, b) in pairs {
                assert!(p.stone_on(a as usize).is_none() && p.stone_on(b as usize).is_none());
                let pair = (1u128 << a) | (1u128 << b);
                assert_eq!(seen & pair, 0, "pairs overlap");
                seen |= pair;
            }
            for w in 0..table.len() {
                let cells = table.cells_of(w);
                if cells.iter().any(|&c| p.stone_on(c as usize) == Some(maker.other())) {
                    continue;
                }
                assert!(
                    pairs.iter().any(|&(a, b)| cells.contains(&(a as u16)) && cells.contains(&(b as u16))),
                    "window {w} has no pair"
                );
            }
        });
    }

    #[test]
    fn an_empty_seven_by_seven_board_has_no_pairing_against_five() {
        // Rows and columns each need two of their three middle cells: 12 cells of the middle
        // 3x3 block, which has 9.
        let (out, _, _) = pairing_of("mnk:7,7,5", "", Player::First);
        assert_eq!(out, PairingOutcome::None);
    }

    #[test]
    fn a_row_of_nine_against_five_is_paired() {
        // Windows 0-4 ... 4-8: the pair (3, 4) covers the first four and (5, 6) the last.
        let (out, pairs, pos) = pairing_of("mnk:9,1,5", "", Player::First);
        assert_eq!(out, PairingOutcome::Found);
        assert_eq!(pairs.len(), 2);
        check(&pos, &pairs, Player::First);
    }

    #[test]
    fn a_window_one_stone_short_has_no_pair() {
        // The first player's a1 b1 c1 d1: the window a1-e1 has one free cell.
        let (out, _, _) = pairing_of("mnk:7,7,5", "a1 a7 b1 b7 c1 c7 d1", Player::First);
        assert_eq!(out, PairingOutcome::None);
    }

    #[test]
    fn pairings_found_are_checked_pairings() {
        // Several positions with many second-player stones: whatever is found must check.
        let mut found = 0;
        for moves in ["d4 c3 a1 e5 a7 c5 g1 e3", "d4 d3 c4 e4 b5 c5 a6 d5", "a1 d4 g7 c3 a7 e5 g1 c5 b2 e3"] {
            for maker in [Player::First, Player::Second] {
                let (out, pairs, pos) = pairing_of("mnk:7,7,5", moves, maker);
                if out == PairingOutcome::Found {
                    check(&pos, &pairs, maker);
                    found += 1;
                }
            }
        }
        assert!(found > 0, "no position was paired");
    }
}
