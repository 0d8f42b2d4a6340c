//! [`EvalBoard`]: per-window stone counts kept up to date as a search plays and undoes moves,
//! so window heuristics evaluate in O(1) and threats are found without scanning the board.

use std::sync::Arc;

use super::ShapeBoard;
use crate::game::{Move, Player, Position, WindowTable};

/// A set of window ids with O(1) insert and remove.
#[derive(Clone, Debug)]
struct IdSet {
    items: Vec<u32>,
    at: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl IdSet {
    fn new(n: usize) -> IdSet {
        IdSet { items: Vec::new(), at: vec![ABSENT; n] }
    }
    #[inline]
    fn insert(&mut self, w: u32) {
        if self.at[w as usize] == ABSENT {
            self.at[w as usize] = self.items.len() as u32;
            self.items.push(w);
        }
    }
    #[inline]
    fn remove(&mut self, w: u32) {
        let i = self.at[w as usize];
        if i != ABSENT {
            let last = self.items.pop().unwrap();
            if (i as usize) < self.items.len() {
                self.items[i as usize] = last;
                self.at[last as usize] = i;
            }
            self.at[w as usize] = ABSENT;
        }
    }
}

/// Where a window's counts sit in the value table: 5 bits each (K is at most 21), so the
/// index is below 1024 by construction and the lookup needs no bounds check.
#[inline(always)]
fn phi_index(c: [u8; 2]) -> usize {
    ((c[0] as usize & 31) << 5) | (c[1] as usize & 31)
}

/// The counts of a window from its key (its place in the value table, see [`phi_index`]).
#[inline(always)]
fn split(key: u16) -> [u8; 2] {
    [(key >> 5) as u8 & 31, key as u8 & 31]
}

/// The value-only update: one addition to each window's key and one lookup of the gain;
/// returns the change of the sum.
#[inline(always)]
fn value_change(table: &WindowTable, counts: &mut [u16], gain: &[i64; 1024], cell: usize, p: usize, delta: u8) -> i64 {
    let unit: u16 = if p == 0 { 32 } else { 1 };
    let mut change = 0i64;
    if delta == 1 {
        for &w in table.windows_through(cell) {
            let key = &mut counts[w as usize];
            change += gain[*key as usize & 1023];
            *key = key.wrapping_add(unit);
        }
    } else {
        for &w in table.windows_through(cell) {
            let key = &mut counts[w as usize];
            *key = key.wrapping_sub(unit);
            change -= gain[*key as usize & 1023];
        }
    }
    change
}

/// Is a window with counts `c` one of `p`'s with exactly `want` stones and none of the
/// other's?
#[inline(always)]
fn holds(c: [u8; 2], p: usize, want: u8) -> bool {
    c[p] == want && c[1 - p] == 0
}

/// Keeps window `w` in the sets of windows with `want` stones of each player and none of the
/// other's, its counts having gone from `was` to `c`. A set is touched only where the
/// window's membership changes: most stones change none, and the test is cheaper than the
/// set's memory.
#[inline(always)]
fn update_level(sets: &mut [IdSet; 2], want: u8, w: u32, was: [u8; 2], c: [u8; 2]) {
    for (p, set) in sets.iter_mut().enumerate() {
        match (holds(was, p, want), holds(c, p, want)) {
            (false, true) => set.insert(w),
            (true, false) => set.remove(w),
            _ => {}
        }
    }
}

/// Keeps `near[0][p]` (windows with K-2 stones of `p`, none of the other's) and `near[1][p]`
/// (K-3 stones; none for K < 3) for window `w`, its counts having gone from `was` to `c`.
#[inline(always)]
fn update_near(near: &mut [[IdSet; 2]; 2], k: usize, w: u32, was: [u8; 2], c: [u8; 2]) {
    for (short, sets) in near.iter_mut().enumerate() {
        if let Some(want) = (k as u8).checked_sub(2 + short as u8) {
            update_level(sets, want, w, was, c);
        }
    }
}

/// Builds the set of windows with `want` stones of each player and none of the other's.
fn fill_level(sets: &mut [IdSet; 2], want: u8, w: u32, c: [u8; 2]) {
    for (p, set) in sets.iter_mut().enumerate() {
        if holds(c, p, want) {
            set.insert(w);
        }
    }
}

/// Window counts of a position and the running sum of a per-window value table.
#[derive(Clone, Debug)]
pub struct EvalBoard {
    table: Arc<WindowTable>,
    /// Per window, its stone counts as their index in `phi` ([`phi_index`]; [`split`] gives
    /// the counts back): a stone then changes one number, and the value lookups need it as is.
    counts: Vec<u16>,
    /// `phi[phi_index([a, b])]`: value of a window with `a` first-player and `b` second-player
    /// stones, from the first player's view.
    phi: Box<[i32; 1024]>,
    /// `step_gain[p][key]`: how much one more stone of player `p` in a window with that key
    /// changes its value (`phi` after minus `phi` before). The value-only update then looks up
    /// one number a window instead of two (undoing subtracts the gain at the key it goes back to).
    step_gain: Box<[[i64; 1024]; 2]>,
    sum: i64,
    /// Windows one stone short of a line for each player, with none of the other's stones.
    hot: [IdSet; 2],
    /// Windows with none of the other player's stones: where each player can still make a line.
    open: [u32; 2],
    /// Erdős–Selfridge potential of each player's open windows: the sum of 2^(own stones).
    /// Below 2^K (2^(K-1) with that player to move) the opponent can stop every line.
    potential: [u64; 2],
    /// Keep `potential` up to date: only the solvers ask for it, so heuristic searches skip
    /// its updates in their hot loop.
    track_potential: bool,
    /// Windows two and three stones short of a line for each player, with none of the other's
    /// stones (`near[0]`, `near[1]`): kept only for threat-space search (`with_near_windows`),
    /// which would otherwise scan every window at every node.
    near: Option<Box<[[IdSet; 2]; 2]>>,
    /// Keep `hot` and `open` up to date: off for searches that never ask for threats or open
    /// windows, which saves two set updates and two tests per window per move.
    threats: bool,
    /// Line shapes and cell values (for the shape heuristic), kept when asked for
    /// (`with_shapes`).
    shapes: Option<Box<ShapeBoard>>,
    /// Keep only `counts`, `hot` and `near`: see [`EvalBoard::set_paused`].
    paused: bool,
}

impl EvalBoard {
    /// Counts the windows of `pos`; `phi(k, a, b)` values a window (first player's view).
    pub fn new<P: Position>(pos: &P, phi: impl Fn(usize, usize, usize) -> i32) -> EvalBoard {
        let table = pos.windows().clone();
        let k = table.k;
        let mut phi_table = Box::new([0; 1024]);
        for a in 0..=k {
            for b in 0..=k - a {
                phi_table[phi_index([a as u8, b as u8])] = phi(k, a, b);
            }
        }
        let mut step_gain = Box::new([[0i64; 1024]; 2]);
        for a in 0..k {
            for b in 0..k - a {
                let key = phi_index([a as u8, b as u8]);
                let here = phi_table[key] as i64;
                step_gain[0][key] = phi_table[phi_index([a as u8 + 1, b as u8])] as i64 - here;
                step_gain[1][key] = phi_table[phi_index([a as u8, b as u8 + 1])] as i64 - here;
            }
        }
        let n = table.len();
        let mut board = EvalBoard {
            counts: vec![0; n],
            phi: phi_table,
            step_gain,
            sum: 0,
            hot: [IdSet::new(n), IdSet::new(n)],
            open: [0, 0],
            potential: [0, 0],
            track_potential: false,
            near: None,
            threats: true,
            shapes: None,
            paused: false,
            table,
        };
        for w in 0..n {
            let mut c = [0u8; 2];
            for &cell in board.table.cells_of(w) {
                if let Some(p) = pos.stone_on(cell as usize) {
                    c[p.index()] += 1;
                }
            }
            board.counts[w] = phi_index(c) as u16;
            board.open[0] += (c[1] == 0) as u32;
            board.open[1] += (c[0] == 0) as u32;
            board.potential[0] += if c[1] == 0 { 1u64 << c[0] } else { 0 };
            board.potential[1] += if c[0] == 0 { 1u64 << c[1] } else { 0 };
            board.sum += board.phi_of(c) as i64;
            fill_level(&mut board.hot, k as u8 - 1, w as u32, c);
        }
        board
    }

    #[inline(always)]
    fn phi_of(&self, c: [u8; 2]) -> i32 {
        self.phi[phi_index(c)]
    }

    /// Also keeps the Erdős–Selfridge potential move by move (for [`EvalBoard::potential`],
    /// [`EvalBoard::lines_breakable`] and [`EvalBoard::breakable_after`]).
    pub fn with_potential(mut self) -> EvalBoard {
        self.track_potential = true;
        self
    }

    /// Also keeps the windows two and three stones short of a line (for
    /// [`EvalBoard::near_windows`]).
    pub fn with_near_windows(mut self) -> EvalBoard {
        let n = self.table.len();
        let mut near = Box::new([[IdSet::new(n), IdSet::new(n)], [IdSet::new(n), IdSet::new(n)]]);
        for w in 0..n {
            for (short, sets) in near.iter_mut().enumerate() {
                if let Some(want) = (self.table.k as u8).checked_sub(2 + short as u8) {
                    fill_level(sets, want, w as u32, split(self.counts[w]));
                }
            }
        }
        self.near = Some(near);
        self
    }

    /// Also keeps the line shapes of `shapes` (built on the same position) move by move.
    pub fn with_shapes(mut self, shapes: ShapeBoard) -> EvalBoard {
        self.shapes = Some(Box::new(shapes));
        self
    }

    /// The line shapes, if the board was built `with_shapes`.
    #[inline]
    pub fn shapes(&self) -> Option<&ShapeBoard> {
        self.shapes.as_deref()
    }

    /// With line shapes, when `p`'s opponent is one stone from a line or an open four (see
    /// [`ShapeBoard::threatened`]): the cells where `p` stops it, into `out` (true). False
    /// without shapes or threats.
    pub fn stopping_cells(&mut self, p: Player, out: &mut Vec<usize>) -> bool {
        match self.shapes.as_deref_mut() {
            Some(shapes) if !self.paused && shapes.threatened(p) => {
                shapes.stopping_cells(p, out);
                true
            }
            _ => false,
        }
    }

    /// Stops (or resumes) keeping all but the window counts and the windows short of a line
    /// (the line shapes, the value, the open windows and the potential), for a search that
    /// reads only those and takes back every move it plays before resuming (the threat-space
    /// search): the rest is right again once the board is back where it was paused.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// Was the board built `with_near_windows`?
    pub fn has_near_windows(&self) -> bool {
        self.near.is_some()
    }

    /// Windows with exactly K-2 (`short` 2) or K-3 (`short` 3) stones of `p` and none of the
    /// other's, in no particular order. Empty unless built `with_near_windows`.
    pub fn near_windows(&self, p: Player, short: usize) -> &[u32] {
        match (&self.near, short) {
            (Some(near), 2 | 3) => &near[short - 2][p.index()].items,
            _ => &[],
        }
    }

    /// Keeps only the value: for a search that never calls `has_threat_window`,
    /// `threat_moves`, `threat_cells`, `threat_cell_list` or `open_windows` (they would be
    /// wrong).
    pub fn without_threats(mut self) -> EvalBoard {
        self.threats = false;
        self.hot = [IdSet::new(0), IdSet::new(0)];
        self
    }

    #[inline]
    pub fn play(&mut self, cell: usize, p: Player) {
        self.change(cell, p.index(), 1);
    }

    /// The stone of `p` on `cell` was taken back.
    #[inline]
    pub fn undo(&mut self, cell: usize, p: Player) {
        self.change(cell, p.index(), u8::MAX);
    }

    #[inline(always)]
    fn change(&mut self, cell: usize, p: usize, delta: u8) {
        let EvalBoard {
            table,
            counts,
            phi,
            step_gain,
            sum,
            hot,
            open,
            potential,
            track_potential,
            near,
            threats,
            shapes,
            paused,
        } = self;
        let k = table.k;
        if *paused {
            for &w in table.windows_through(cell) {
                let was = split(counts[w as usize]);
                let mut c = was;
                c[p] = c[p].wrapping_add(delta);
                counts[w as usize] = phi_index(c) as u16;
                if *threats {
                    update_level(hot, k as u8 - 1, w, was, c);
                }
                if let Some(near) = near {
                    update_near(near, k, w, was, c);
                }
            }
            return;
        }
        if let Some(shapes) = shapes {
            shapes.change(cell, if p == 0 { Player::First } else { Player::Second }, delta == 1);
        }
        let track = *track_potential;
        if !*threats {
            *sum += value_change(table, counts, &step_gain[p & 1], cell, p, delta);
            return;
        }
        for &w in table.windows_through(cell) {
            let was = split(counts[w as usize]);
            let mut c = was;
            if c[p] == 0 {
                open[1 - p] -= 1;
            }
            if track {
                if c[p] == 0 {
                    potential[1 - p] -= 1 << c[1 - p];
                }
                if c[1 - p] == 0 {
                    potential[p] -= 1 << c[p];
                }
            }
            *sum -= phi[phi_index(c)] as i64;
            c[p] = c[p].wrapping_add(delta);
            counts[w as usize] = phi_index(c) as u16;
            if c[p] == 0 {
                open[1 - p] += 1;
            }
            if track {
                if c[p] == 0 {
                    potential[1 - p] += 1 << c[1 - p];
                }
                if c[1 - p] == 0 {
                    potential[p] += 1 << c[p];
                }
            }
            *sum += phi[phi_index(c)] as i64;
            update_level(hot, k as u8 - 1, w, was, c);
            if let Some(near) = near {
                update_near(near, k, w, was, c);
            }
        }
    }

    pub fn table(&self) -> &WindowTable {
        &self.table
    }

    /// Stones of each player in window `w`.
    #[inline]
    pub fn counts(&self, w: usize) -> [u8; 2] {
        split(self.counts[w])
    }

    /// The sum of the window values from `p`'s view.
    #[inline]
    pub fn window_sum(&self, p: Player) -> i64 {
        if p == Player::First { self.sum } else { -self.sum }
    }

    /// The value table entry for a window with `own` stones of `p` and `other` of the opponent,
    /// from `p`'s view.
    #[inline]
    pub fn phi_for(&self, p: Player, own: u8, other: u8) -> i32 {
        match p {
            Player::First => self.phi_of([own, other]),
            Player::Second => -self.phi_of([other, own]),
        }
    }

    /// Windows where `p` can still make a line (none of the opponent's stones in them).
    #[inline]
    pub fn open_windows(&self, p: Player) -> u32 {
        self.open[p.index()]
    }

    /// Can the opponent of `p` stop every line of `p` by the Erdős–Selfridge strategy, with
    /// `p` to move or not? Sufficient, not necessary: the windows' potential
    /// sum 2^-(K - own stones) is below 1/2 with `p` to move, below 1 otherwise. Holds for free
    /// placement only (the blocker must be free to take any cell).
    #[inline]
    pub fn lines_breakable(&self, p: Player, p_to_move: bool) -> bool {
        debug_assert!(self.track_potential, "EvalBoard::with_potential was not asked for");
        let limit = 1u64 << self.table.k;
        let pot = self.potential[p.index()];
        if p_to_move { 2 * pot < limit } else { pot < limit }
    }

    /// The Erdős–Selfridge potential of `p`'s open windows: the sum of 2^(p's stones) over
    /// windows without the opponent's stones.
    pub fn potential(&self, p: Player) -> u64 {
        debug_assert!(self.track_potential, "EvalBoard::with_potential was not asked for");
        self.potential[p.index()]
    }

    /// How much `p`'s potential falls when the opponent takes `cell`: the Erdős–Selfridge
    /// blocker's greedy choice is the cell where this is largest.
    #[inline]
    pub fn potential_through(&self, p: Player, cell: usize) -> u64 {
        let (me, you) = (p.index(), 1 - p.index());
        let mut pot = 0;
        for &w in self.table.windows_through(cell) {
            let c = split(self.counts[w as usize]);
            if c[you] == 0 {
                pot += 1u64 << c[me];
            }
        }
        pot
    }

    /// Would `p`'s lines be breakable (as [`EvalBoard::lines_breakable`] with the opponent to
    /// move) after `p` puts a stone on the empty `cell`? Computed without playing it.
    #[inline]
    pub fn breakable_after(&self, p: Player, cell: usize) -> bool {
        debug_assert!(self.track_potential, "EvalBoard::with_potential was not asked for");
        let (me, you) = (p.index(), 1 - p.index());
        let mut pot = self.potential[me];
        for &w in self.table.windows_through(cell) {
            let c = split(self.counts[w as usize]);
            if c[you] == 0 {
                pot += 1 << c[me];
            }
        }
        pot < 1u64 << self.table.k
    }

    /// Is the cell on a window either player can still complete?
    #[inline]
    pub fn is_live(&self, cell: usize) -> bool {
        self.table.windows_through(cell).iter().any(|&w| {
            let c = split(self.counts[w as usize]);
            c[0] == 0 || c[1] == 0
        })
    }

    /// Empty cells (playable now or not) where `p` would complete a window.
    pub fn threat_cell_list<P: Position>(&self, pos: &P, p: Player, out: &mut Vec<u16>) {
        out.clear();
        for &w in &self.hot[p.index()].items {
            if let Some(&c) = self.table.cells_of(w as usize).iter().find(|&&c| pos.stone_on(c as usize).is_none())
                && !out.contains(&c)
            {
                out.push(c);
            }
        }
    }

    /// Does `p` have a window one stone short of a line?
    #[inline]
    pub fn has_threat_window(&self, p: Player) -> bool {
        !self.hot[p.index()].items.is_empty()
    }

    /// Moves that complete a window for `p` and are playable now, deduplicated, in no particular
    /// order. Under the exactly-K rule a candidate may still make an overline: callers that need
    /// certainty play it and look at the status.
    pub fn threat_moves<P: Position>(&self, pos: &P, p: Player, out: &mut Vec<Move>) {
        out.clear();
        for &w in &self.hot[p.index()].items {
            for &cell in self.table.cells_of(w as usize) {
                if pos.stone_on(cell as usize).is_none() {
                    if let Some(m) = pos.cell_move(cell as usize)
                        && !out.contains(&m)
                    {
                        out.push(m);
                    }
                    break;
                }
            }
        }
    }

    /// Distinct empty cells (playable now or later) that would complete a line for `p`.
    pub fn threat_cells<P: Position>(&self, pos: &P, p: Player) -> usize {
        let mut cells: Vec<u16> = Vec::new();
        for &w in &self.hot[p.index()].items {
            if let Some(&c) = self.table.cells_of(w as usize).iter().find(|&&c| pos.stone_on(c as usize).is_none())
                && !cells.contains(&c)
            {
                cells.push(c);
            }
        }
        cells.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyPosition;
    use crate::rng::{below, seeded};
    use crate::with_position;

    /// A value table with a different number for every count pair, so a key updated wrongly
    /// (wrong player, wrong direction, a window missed) changes the sum.
    fn phi(_k: usize, a: usize, b: usize) -> i32 {
        (a * a * 1000) as i32 - (b * b * 700) as i32 + (a * b) as i32 * 13
    }

    /// The windows one, two and three stones short of a line kept move by move are exactly
    /// those a fresh count of `board`'s windows puts there.
    fn assert_sets_are_counted(board: &EvalBoard, game: &str) {
        let k = board.table().k as u8;
        for p in [Player::First, Player::Second] {
            for short in [1u8, 2, 3] {
                let mut kept = match short {
                    1 => board.hot[p.index()].items.clone(),
                    _ => board.near_windows(p, short as usize).to_vec(),
                };
                kept.sort_unstable();
                let counted: Vec<u32> = (0..board.table().len())
                    .filter(|&w| {
                        let c = board.counts(w);
                        k >= short && c[p.index()] == k - short && c[p.other().index()] == 0
                    })
                    .map(|w| w as u32)
                    .collect();
                assert_eq!(kept, counted, "{game} {p:?} K-{short}");
            }
        }
    }

    /// The value-only update (one gain lookup a window, see `step_gain`) and the full update
    /// keep the sum a board counted from scratch has, through random moves and take-backs;
    /// a board paused through moves it takes back has it again when resumed.
    #[test]
    fn both_updates_keep_the_sum_of_a_fresh_count() {
        let mut rng = seeded(7);
        for game in ["mnk:3,3,3", "mnk:15,15,5", "connect:7,6,4", "connect3d"] {
            let start = AnyPosition::from_moves(game.parse().unwrap(), "").unwrap();
            with_position!(&start, p => {
                for _ in 0..40 {
                    let mut pos = p.clone();
                    let mut full = EvalBoard::new(&pos, phi).with_near_windows().with_potential();
                    let mut value_only = EvalBoard::new(&pos, phi).without_threats();
                    for step in 0..30 {
                        if pos.is_over() {
                            break;
                        }
                        if step % 5 == 4 {
                            let m = *pos.history().last().unwrap();
                            pos.undo();
                            let cell = pos.move_cell(m);
                            full.undo(cell, pos.side_to_move());
                            value_only.undo(cell, pos.side_to_move());
                        }
                        let mut ms = Vec::new();
                        pos.legal_moves(&mut ms);
                        let m = ms[below(&mut rng, ms.len())];
                        let cell = pos.move_cell(m);
                        full.play(cell, pos.side_to_move());
                        value_only.play(cell, pos.side_to_move());
                        pos.play(m);
                        let fresh = EvalBoard::new(&pos, phi).window_sum(Player::First);
                        assert_eq!(full.window_sum(Player::First), fresh, "{game} {:?}", pos.history());
                        assert_eq!(value_only.window_sum(Player::First), fresh, "{game} {:?}", pos.history());
                        assert_sets_are_counted(&full, game);
                        // Paused for moves that are all taken back (a threat-space search),
                        // it keeps the threat windows right, and the rest once resumed.
                        full.set_paused(true);
                        let mut probe = Vec::new();
                        for _ in 0..3 {
                            let mut ms = Vec::new();
                            pos.legal_moves(&mut ms);
                            if pos.is_over() || ms.is_empty() {
                                break;
                            }
                            let m = ms[below(&mut rng, ms.len())];
                            full.play(pos.move_cell(m), pos.side_to_move());
                            pos.play(m);
                            probe.push(m);
                            assert_sets_are_counted(&full, game);
                        }
                        for m in probe.into_iter().rev() {
                            pos.undo();
                            full.undo(pos.move_cell(m), pos.side_to_move());
                        }
                        full.set_paused(false);
                        let fresh = EvalBoard::new(&pos, phi).with_potential();
                        assert_eq!(full.window_sum(Player::First), fresh.window_sum(Player::First), "{game}");
                        for p in [Player::First, Player::Second] {
                            assert_eq!(full.open_windows(p), fresh.open_windows(p), "{game}");
                            assert_eq!(full.potential(p), fresh.potential(p), "{game}");
                        }
                    }
                }
            });
        }
    }
}
