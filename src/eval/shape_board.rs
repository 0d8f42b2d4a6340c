//! [`ShapeBoard`]: for every empty cell, every line through it and both players, the
//! [line shape](super::line_shape) the player makes by playing there; the cell's value for
//! each player (its shapes and their combinations across lines: double four, four-three,
//! double three); and the sum of those values. A stone changes only the cells within K-1 of
//! it on its lines, so an update costs the same on an empty board and a full one.

use std::sync::Arc;

use super::line_shape::{BLOCKED, DEAD, EMPTY, OWN, ShapeCode, ShapeTable, is_open, short};
use crate::game::{Player, Position, WindowTable};

/// What shapes are worth, for one K: a cell's value for a player is the sum of its lines'
/// `by_code` and the bonus of its [`Combination`].
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeValues {
    /// Indexed by [`ShapeCode`] (`short * 2 + open`); codes past the end and [`DEAD`] are 0.
    pub by_code: Vec<i32>,
    /// Two fours, or an open four, through the cell (on any lines).
    pub double_four: i32,
    /// A four and an open three on two lines.
    pub four_three: i32,
    /// Two open threes.
    pub double_three: i32,
}

/// The kinds of threat a move makes, counted over the lines through its cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    pub lines: u8,
    pub open_fours: u8,
    pub fours: u8,
    pub open_threes: u8,
}

/// The strongest threat a move makes across the lines through its cell, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Combination {
    /// At most one four, or one open three (or weaker shapes).
    Single,
    /// Two open threes.
    DoubleThree,
    /// A four and an open three.
    FourThree,
    /// An open four or two fours: a line next move unless the opponent has one first.
    DoubleFour,
    /// The move completes a line.
    Line,
}

const COMBINATIONS: usize = 5;

// A line shape's threat kind, as a counter in a packed word (lines, open fours, fours, open
// threes: a byte each), so that a cell's threats are a sum over its lines.
const LINES: u32 = 1;
const OPEN_FOURS: u32 = 1 << 8;
const FOURS: u32 = 1 << 16;
const OPEN_THREES: u32 = 1 << 24;

/// The threat kind of one line shape: the one rule [`Threats`] and the cell values read.
fn kind_unit(code: ShapeCode) -> u32 {
    match (short(code), is_open(code)) {
        (Some(0), _) => LINES,
        (Some(1), true) => OPEN_FOURS,
        (Some(1), false) => FOURS,
        (Some(2), true) => OPEN_THREES,
        _ => 0,
    }
}

impl Threats {
    /// From a sum of [`kind_unit`]s (at most 255 lines through a cell).
    #[inline]
    fn from_packed(counts: u32) -> Threats {
        Threats {
            lines: counts as u8,
            open_fours: (counts >> 8) as u8,
            fours: (counts >> 16) as u8,
            open_threes: (counts >> 24) as u8,
        }
    }

    #[inline]
    pub fn combination(&self) -> Combination {
        if self.lines > 0 {
            Combination::Line
        } else if self.open_fours > 0 || self.fours >= 2 {
            Combination::DoubleFour
        } else if self.fours > 0 && self.open_threes > 0 {
            Combination::FourThree
        } else if self.open_threes >= 2 {
            Combination::DoubleThree
        } else {
            Combination::Single
        }
    }

    /// Wins in one more move of the player's unless the opponent has a line first: an open
    /// four or two fours.
    pub fn unstoppable(&self) -> bool {
        self.combination() >= Combination::DoubleFour
    }

    /// A four or an open four (or more): the opponent must block it next move.
    pub fn makes_four(&self) -> bool {
        self.open_fours + self.fours > 0
    }

    /// A four, an open three or more: a move the opponent must answer, or a line.
    pub fn forcing(&self) -> bool {
        self.lines + self.open_fours + self.fours + self.open_threes > 0
    }
}

/// [`ShapeValues`] as two lookups a code: its value, and its [`kind_unit`], so a cell's value
/// is a sum over its lines and the bonus of its combination.
#[derive(Clone, Debug)]
struct Scorer {
    value: Box<[i32; 256]>,
    kind: Box<[u32; 256]>,
    /// Indexed by [`Combination`]: a line and a single shape have none.
    bonus: [i32; COMBINATIONS],
}

impl Scorer {
    fn new(values: &ShapeValues) -> Scorer {
        let mut value = Box::new([0i32; 256]);
        let mut kind = Box::new([0u32; 256]);
        for code in 0..=254u8 {
            value[code as usize] = values.by_code.get(code as usize).copied().unwrap_or(0);
            kind[code as usize] = kind_unit(code);
        }
        let bonus = [0, values.double_three, values.four_three, values.double_four, 0];
        Scorer { value, kind, bonus }
    }

    /// The value and the combination of a cell whose lines have these codes.
    #[inline]
    fn value(&self, codes: impl Iterator<Item = ShapeCode>) -> (i32, Combination) {
        let mut v = 0i32;
        let mut counts = 0u32;
        for c in codes {
            v = v.saturating_add(self.value[c as usize]);
            counts += self.kind[c as usize];
        }
        let combination = Threats::from_packed(counts).combination();
        (v.saturating_add(self.bonus[combination as usize]), combination)
    }
}

/// The lines through every cell: where a cell sits on each, and where each line's cells keep
/// their shapes. Built once a board (it depends on the variant only).
#[derive(Debug)]
struct Geometry {
    /// `lines[l]`: the cells of maximal line `l`, in order.
    lines: Vec<Vec<u16>>,
    /// `slot_of[l][i]`: the slot of line `l`'s `i`-th cell (its place in `codes`, over 2).
    slot_of: Vec<Vec<u32>>,
    /// `through[through_start[c]..through_start[c + 1]]`: (line, place on it) of cell `c`.
    through: Vec<(u32, u16)>,
    through_start: Vec<u32>,
}

impl Geometry {
    fn new(table: &WindowTable) -> Geometry {
        let mut per_cell: Vec<Vec<(u32, u16)>> = vec![Vec::new(); table.cells];
        for (l, line) in table.lines.iter().enumerate() {
            for (i, &c) in line.iter().enumerate() {
                per_cell[c as usize].push((l as u32, i as u16));
            }
        }
        let mut through = Vec::new();
        let mut through_start = vec![0u32];
        let mut slot_of: Vec<Vec<u32>> = table.lines.iter().map(|l| vec![0; l.len()]).collect();
        for cell_lines in &per_cell {
            for &(l, i) in cell_lines {
                slot_of[l as usize][i as usize] = through.len() as u32;
                through.push((l, i));
            }
            through_start.push(through.len() as u32);
        }
        Geometry { lines: table.lines.clone(), slot_of, through, through_start }
    }

    #[inline]
    fn through(&self, cell: usize) -> &[(u32, u16)] {
        &self.through[self.through_start[cell] as usize..self.through_start[cell + 1] as usize]
    }
}

/// Shapes and cell values of a position, kept as stones are played and taken back.
#[derive(Clone, Debug)]
pub struct ShapeBoard {
    k: usize,
    scorer: Arc<Scorer>,
    geometry: Arc<Geometry>,
    /// `pow3[d]`: the weight of a segment's digit `d`.
    pow3: Vec<u64>,
    kept: Kept,
}

/// What a [`ShapeBoard`] keeps up to date (apart from what it only reads, so that an update
/// borrows the two separately).
#[derive(Clone, Debug)]
struct Kept {
    shapes: ShapeTable,
    /// Per cell: 0 empty, 1 the first player's stone, 2 the second's.
    state: Vec<u8>,
    /// `index[slot * 2 + p]`: the segment around the slot's cell on its line, from `p`'s
    /// view (see [`ShapeTable`]), kept for every cell, occupied or not: a stone changes one
    /// digit of each segment it is in.
    index: Vec<u64>,
    /// `codes[slot * 2 + p]`: the shape `p` makes on the slot's line by playing its cell
    /// (stale for occupied cells).
    codes: Vec<ShapeCode>,
    /// `value[cell][p]`: the cell's value for `p` (0 once occupied).
    value: Vec<[i32; 2]>,
    /// `combination[cell][p]`: the cell's combination for `p` (single once occupied).
    combination: Vec<[Combination; 2]>,
    /// Sum of `value` over the cells, per player.
    sum: [i64; 2],
    /// `count[p][c]`: empty cells whose combination for `p` is `c` (single: not counted).
    count: [[u32; COMBINATIONS]; 2],
    /// Segments looked up since the board was built (the work an update does).
    lookups: u64,
}

impl Kept {
    /// Both players' shapes on a slot, from its segments.
    #[inline]
    fn look_up(&mut self, slot: usize) {
        self.codes[slot * 2] = self.shapes.code(self.index[slot * 2]);
        self.codes[slot * 2 + 1] = self.shapes.code(self.index[slot * 2 + 1]);
        self.lookups += 2;
    }

    /// The empty `cell`'s value and combination for both players, from its lines' codes.
    #[inline]
    fn update_value(&mut self, geometry: &Geometry, scorer: &Scorer, cell: usize) {
        let start = geometry.through_start[cell] as usize;
        let end = geometry.through_start[cell + 1] as usize;
        for p in 0..2 {
            let (v, c) = scorer.value(self.codes[start * 2..end * 2].iter().skip(p).step_by(2).copied());
            self.sum[p] += (v - self.value[cell][p]) as i64;
            self.value[cell][p] = v;
            self.set_combination(cell, p, c);
        }
    }

    #[inline]
    fn set_combination(&mut self, cell: usize, p: usize, c: Combination) {
        let old = std::mem::replace(&mut self.combination[cell][p], c);
        if old != c {
            if old != Combination::Single {
                self.count[p][old as usize] -= 1;
            }
            if c != Combination::Single {
                self.count[p][c as usize] += 1;
            }
        }
    }

    /// The cell is occupied: its value and combination no longer count.
    fn occupy(&mut self, cell: usize) {
        let [a, b] = std::mem::take(&mut self.value[cell]);
        self.sum[0] -= a as i64;
        self.sum[1] -= b as i64;
        for p in 0..2 {
            self.set_combination(cell, p, Combination::Single);
        }
    }
}

impl ShapeBoard {
    pub fn new<P: Position>(pos: &P, values: ShapeValues) -> ShapeBoard {
        let table = pos.windows();
        let k = table.k;
        let cells = table.cells;
        let geometry = Geometry::new(table);
        let slots = geometry.through.len();
        let state: Vec<u8> = (0..cells).map(|c| pos.stone_on(c).map_or(0, |p| p.index() as u8 + 1)).collect();
        let pow3: Vec<u64> = (0..2 * (k as u32 - 1)).map(|d| 3u64.pow(d)).collect();
        let mut index = vec![0u64; slots * 2];
        for (l, line) in geometry.lines.iter().enumerate() {
            for i in 0..line.len() {
                let slot = geometry.slot_of[l][i] as usize;
                let offsets = (i as isize - k as isize + 1..i as isize + k as isize).filter(|&o| o != i as isize);
                for (o, pow) in offsets.zip(&pow3) {
                    let s = if o < 0 || o as usize >= line.len() { 3 } else { state[line[o as usize] as usize] };
                    let (a, b) = match s {
                        0 => (EMPTY, EMPTY),
                        1 => (OWN, BLOCKED),
                        2 => (BLOCKED, OWN),
                        _ => (BLOCKED, BLOCKED),
                    };
                    index[slot * 2] += a * pow;
                    index[slot * 2 + 1] += b * pow;
                }
            }
        }
        let mut kept = Kept {
            shapes: ShapeTable::new(k),
            state,
            index,
            codes: vec![DEAD; slots * 2],
            value: vec![[0, 0]; cells],
            combination: vec![[Combination::Single; 2]; cells],
            sum: [0, 0],
            count: [[0; COMBINATIONS]; 2],
            lookups: 0,
        };
        let scorer = Scorer::new(&values);
        for cell in 0..cells {
            if kept.state[cell] == 0 {
                let start = geometry.through_start[cell] as usize;
                for slot in start..geometry.through_start[cell + 1] as usize {
                    kept.look_up(slot);
                }
                kept.update_value(&geometry, &scorer, cell);
            }
        }
        ShapeBoard { k, scorer: Arc::new(scorer), geometry: Arc::new(geometry), pow3, kept }
    }

    /// A stone of `p` was put on `cell` (`placed`), or taken back from it.
    pub fn change(&mut self, cell: usize, p: Player, placed: bool) {
        let (geometry, scorer, kept) = (&*self.geometry, &*self.scorer, &mut self.kept);
        kept.state[cell] = if placed { p.index() as u8 + 1 } else { 0 };
        if placed {
            kept.occupy(cell);
        }
        let reach = self.k - 1;
        // The stone is a digit of every segment within reach on its lines: OWN for `p`,
        // BLOCKED for the other.
        let (mine, theirs) = (p.index(), 1 - p.index());
        for &(l, i) in geometry.through(cell) {
            let line = &geometry.lines[l as usize];
            let slots = &geometry.slot_of[l as usize];
            let i = i as usize;
            for j in i.saturating_sub(reach)..(i + reach + 1).min(line.len()) {
                if j == i {
                    continue;
                }
                // The stone's digit in the segment of the cell `j`: the cells before `j`
                // come first, furthest first.
                let digit = if i < j { i + reach - j } else { i + reach - j - 1 };
                let pow = self.pow3[digit];
                let slot = slots[j] as usize;
                if placed {
                    kept.index[slot * 2 + mine] += OWN * pow;
                    kept.index[slot * 2 + theirs] += BLOCKED * pow;
                } else {
                    kept.index[slot * 2 + mine] -= OWN * pow;
                    kept.index[slot * 2 + theirs] -= BLOCKED * pow;
                }
                let other = line[j] as usize;
                if kept.state[other] == 0 {
                    kept.look_up(slot);
                    kept.update_value(geometry, scorer, other);
                }
            }
        }
        if !placed {
            let start = geometry.through_start[cell] as usize;
            for slot in start..geometry.through_start[cell + 1] as usize {
                kept.look_up(slot);
            }
            kept.update_value(geometry, scorer, cell);
        }
    }

    /// The sum of the empty cells' values for `p`.
    #[inline]
    pub fn sum(&self, p: Player) -> i64 {
        self.kept.sum[p.index()]
    }

    /// The value of the empty `cell` for `p` (0 if occupied).
    #[inline]
    pub fn value(&self, cell: usize, p: Player) -> i32 {
        self.kept.value[cell][p.index()]
    }

    /// The empty cells where `p` would make the combination `c` (not [`Combination::Single`]).
    #[inline]
    pub fn cells_with(&self, p: Player, c: Combination) -> u32 {
        self.kept.count[p.index()][c as usize]
    }

    /// The threats `p` makes by playing the empty `cell`.
    pub fn threats(&self, cell: usize, p: Player) -> Threats {
        let start = self.geometry.through_start[cell] as usize;
        let end = self.geometry.through_start[cell + 1] as usize;
        let counts = (start..end).map(|s| self.scorer.kind[self.kept.codes[s * 2 + p.index()] as usize]).sum();
        Threats::from_packed(counts)
    }

    /// Segments looked up since the board was built: the update's work, counted.
    pub fn lookups(&self) -> u64 {
        self.kept.lookups
    }

    /// Is `p`'s opponent one stone from a line, or from an open four or two fours (a line
    /// the stone after, whatever `p` blocks)? Then `p`, unless it wins first, has to stop it.
    #[inline]
    pub fn threatened(&self, p: Player) -> bool {
        let o = p.other().index();
        self.kept.count[o][Combination::Line as usize] + self.kept.count[o][Combination::DoubleFour as usize] > 0
    }

    /// The empty cells where a stone of `p` leaves its opponent no such threat (see
    /// [`Self::threatened`]), in cell order, into `out` (empty when nothing threatens, or
    /// nothing stops it). Each candidate is tried on the board, which is as it was after.
    pub fn stopping_cells(&mut self, p: Player, out: &mut Vec<usize>) {
        out.clear();
        let o = p.other().index();
        let state = &self.kept.state;
        let combination = &self.kept.combination;
        let threats: Vec<usize> =
            (0..state.len()).filter(|&c| state[c] == 0 && combination[c][o] >= Combination::DoubleFour).collect();
        let Some((&first, rest)) = threats.split_first() else { return };
        // What the opponent makes on a cell depends on the cells within K-1 of it on its
        // lines: a stone anywhere else leaves that threat as it is.
        let reaches: Vec<Vec<usize>> = rest.iter().map(|&d| self.within_reach(d)).collect();
        let mut candidates = self.within_reach(first);
        candidates.retain(|x| reaches.iter().all(|r| r.contains(x)));
        for x in candidates {
            self.change(x, p, true);
            let stops = !self.threatened(p);
            self.change(x, p, false);
            if stops {
                out.push(x);
            }
        }
        out.sort_unstable();
    }

    /// The empty cells within K-1 of `cell` on its lines, `cell` itself included.
    fn within_reach(&self, cell: usize) -> Vec<usize> {
        let reach = self.k - 1;
        let mut out = vec![cell];
        for &(l, i) in self.geometry.through(cell) {
            let line = &self.geometry.lines[l as usize];
            let i = i as usize;
            out.extend(
                (i.saturating_sub(reach)..(i + reach + 1).min(line.len()))
                    .filter(|&j| j != i && self.kept.state[line[j] as usize] == 0)
                    .map(|j| line[j] as usize),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyPosition;
    use crate::rng::{below, seeded};
    use crate::with_position;

    /// Different numbers for every code and bonus, so a code kept wrongly changes a sum.
    fn values() -> ShapeValues {
        ShapeValues {
            by_code: (0..40).map(|c| 1000 - c * 23 + (c % 2) * 7).collect(),
            double_four: 5003,
            four_three: 3001,
            double_three: 1009,
        }
    }

    /// Kept move by move, through random moves and take-backs, the board equals one built
    /// from scratch: every cell's value for both players and the sums.
    #[test]
    fn updates_keep_a_fresh_count() {
        let mut rng = seeded(11);
        for game in ["mnk:3,3,3", "mnk:15,15,5", "mnk:9,9,8", "connect:7,6,4", "connect3d"] {
            let start = AnyPosition::from_moves(game.parse().unwrap(), "").unwrap();
            with_position!(&start, p => {
                for _ in 0..8 {
                    let mut pos = p.clone();
                    let mut kept = ShapeBoard::new(&pos, values());
                    for step in 0..40 {
                        if pos.is_over() {
                            break;
                        }
                        if step % 5 == 4 {
                            let m = *pos.history().last().unwrap();
                            pos.undo();
                            kept.change(pos.move_cell(m), pos.side_to_move(), false);
                        }
                        let mut ms = Vec::new();
                        pos.legal_moves(&mut ms);
                        let m = ms[below(&mut rng, ms.len())];
                        kept.change(pos.move_cell(m), pos.side_to_move(), true);
                        pos.play(m);
                        let fresh = ShapeBoard::new(&pos, values());
                        for who in [Player::First, Player::Second] {
                            assert_eq!(kept.sum(who), fresh.sum(who), "{game} {:?}", pos.history());
                            for c in [Combination::DoubleThree, Combination::FourThree, Combination::DoubleFour, Combination::Line] {
                                let counted = (0..pos.windows().cells)
                                    .filter(|&cell| pos.stone_on(cell).is_none() && fresh.threats(cell, who).combination() == c)
                                    .count() as u32;
                                assert_eq!(kept.cells_with(who, c), counted, "{game} {c:?} {:?}", pos.history());
                            }
                            for c in 0..pos.windows().cells {
                                assert_eq!(kept.value(c, who), fresh.value(c, who), "{game} cell {c}");
                            }
                        }
                    }
                }
            });
        }
    }

    /// An update looks up at most 2 players x 2(K-1) cells x the lines through the cell
    /// (and the cell itself on a take-back), however many stones are on the board.
    #[test]
    fn an_update_costs_the_same_at_every_stone_count() {
        let mut rng = seeded(5);
        let start = AnyPosition::from_moves("gomoku".parse().unwrap(), "").unwrap();
        with_position!(&start, p => {
            let mut pos = p.clone();
            let mut board = ShapeBoard::new(&pos, values());
            let bound = 2 * (2 * 4 + 1) * 4;
            for _ in 0..200 {
                let mut ms = Vec::new();
                pos.legal_moves(&mut ms);
                if ms.is_empty() || pos.is_over() {
                    break;
                }
                let m = ms[below(&mut rng, ms.len())];
                let before = board.lookups();
                board.change(pos.move_cell(m), pos.side_to_move(), true);
                pos.play(m);
                assert!(board.lookups() - before <= bound, "{} lookups", board.lookups() - before);
            }
        });
    }

    /// The cells that stop an opponent's threat, against the rules themselves: on random
    /// positions where the side to move is threatened, a cell stops the threat if and only if,
    /// with a stone there, no cell completes a line for the opponent and none makes two
    /// (counted on the windows of the game, not on line shapes).
    #[test]
    fn stopping_cells_are_the_cells_that_leave_no_double_threat() {
        // The cells that complete a window for `o` (K-1 of its stones, none of the other's).
        fn completions(t: &WindowTable, state: &[u8], o: u8, around: Option<usize>) -> Vec<usize> {
            let windows: Vec<usize> = match around {
                Some(c) => t.windows_through(c).iter().map(|&w| w as usize).collect(),
                None => (0..t.len()).collect(),
            };
            let mut out: Vec<usize> = windows
                .into_iter()
                .filter_map(|w| {
                    let cells = t.cells_of(w);
                    let own = cells.iter().filter(|&&c| state[c as usize] == o).count();
                    let empty: Vec<usize> = cells.iter().map(|&c| c as usize).filter(|&c| state[c] == 0).collect();
                    (own == t.k - 1 && empty.len() == 1).then(|| empty[0])
                })
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        }
        // Does `o` complete a line now, or make two cells that do with one stone?
        fn threatens(t: &WindowTable, state: &mut [u8], o: u8) -> bool {
            if !completions(t, state, o, None).is_empty() {
                return true;
            }
            (0..t.cells).any(|d| {
                if state[d] != 0 {
                    return false;
                }
                state[d] = o;
                let two = completions(t, state, o, Some(d)).len() >= 2;
                state[d] = 0;
                two
            })
        }
        let mut rng = seeded(31);
        for game in ["mnk:9,9,5", "mnk:8,8,4", "mnk:10,7,6", "mnk:7,7,3"] {
            let mut found = 0;
            let mut stops_seen = 0;
            for _ in 0..2000 {
                if found == 12 {
                    break;
                }
                let mut pos = AnyPosition::from_moves(game.parse().unwrap(), "").unwrap();
                let k = pos.variant().grid().map_or(5, |g| g.k() as usize);
                let plies = 4 + below(&mut rng, 4 * k);
                for _ in 0..plies {
                    let mut ms = pos.legal_moves();
                    if pos.status().is_over() || ms.is_empty() {
                        break;
                    }
                    with_position!(&pos, p => {
                        let near: Vec<_> = ms.iter().copied().filter(|&m| {
                            p.windows().neighbours(p.move_cell(m)).iter().any(|&n| p.stone_on(n as usize).is_some())
                        }).collect();
                        if !near.is_empty() {
                            ms = near;
                        }
                    });
                    pos.try_play(ms[below(&mut rng, ms.len())]).unwrap();
                }
                if pos.status().is_over() {
                    continue;
                }
                with_position!(&pos, p => {
                    let t = p.windows().clone();
                    let me = p.side_to_move();
                    let (mine, theirs) = (me.index() as u8 + 1, me.other().index() as u8 + 1);
                    let mut state: Vec<u8> = (0..t.cells).map(|c| p.stone_on(c).map_or(0, |s| s.index() as u8 + 1)).collect();
                    let mut board = ShapeBoard::new(p, values());
                    assert_eq!(board.threatened(me), threatens(&t, &mut state, theirs), "{game} {:?}", p.history());
                    if board.threatened(me) && completions(&t, &state, mine, None).is_empty() {
                        found += 1;
                        let mut got = Vec::new();
                        board.stopping_cells(me, &mut got);
                        let want: Vec<usize> = (0..t.cells)
                            .filter(|&x| {
                                if state[x] != 0 {
                                    return false;
                                }
                                state[x] = mine;
                                let stops = !threatens(&t, &mut state, theirs);
                                state[x] = 0;
                                stops
                            })
                            .collect();
                        assert_eq!(got, want, "{game} {:?}", p.history());
                        stops_seen += want.len();
                        // The board is as it was.
                        let fresh = ShapeBoard::new(p, values());
                        for c in 0..t.cells {
                            assert_eq!(board.value(c, me), fresh.value(c, me));
                        }
                    }
                });
            }
            assert_eq!(found, 12, "{game}: threatened positions found");
            assert!(stops_seen > 0, "{game}");
        }
    }

    /// On gomoku after h8 a1 i8 a2 j8: g8 and k8 make a straight four for the first player,
    /// and the second must stop it there.
    #[test]
    fn threats_of_an_open_three() {
        let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 a1 i8 a2 j8").unwrap();
        with_position!(&pos, p => {
            let board = ShapeBoard::new(p, values());
            let cell = |name: &str| p.move_cell(p.parse_move(name).unwrap());
            for name in ["g8", "k8"] {
                let t = board.threats(cell(name), Player::First);
                assert_eq!(t.open_fours, 1, "{name}");
                assert!(t.unstoppable());
            }
            let t = board.threats(cell("f8"), Player::First);
            assert_eq!((t.open_fours, t.fours), (0, 1), "f8 makes a four with a gap");
            assert_eq!(board.threats(cell("h9"), Player::First).open_fours, 0);
            assert_eq!(board.threats(cell("g8"), Player::Second), Threats::default());
            // The open three's two ends make open fours; no cell completes a line yet.
            assert_eq!(board.cells_with(Player::First, Combination::DoubleFour), 2);
            assert_eq!(board.cells_with(Player::First, Combination::Line), 0);
            assert_eq!(board.cells_with(Player::Second, Combination::DoubleFour), 0);
            // The second player stops it at either end, and only there: a stone one further
            // out leaves the other end a straight four.
            let mut board = board;
            assert!(board.threatened(Player::Second) && !board.threatened(Player::First));
            let mut stops = Vec::new();
            board.stopping_cells(Player::Second, &mut stops);
            assert_eq!(stops, vec![cell("g8").min(cell("k8")), cell("g8").max(cell("k8"))]);
        });
    }
}
