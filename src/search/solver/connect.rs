//! The Connect-X solver on one 64-bit word per bitboard, after Pascal Pons' Connect-4 solver:
//! negamax with alpha-beta and null windows (the value found by bisection), a transposition
//! table of bounds keyed by the position, centre-first columns sorted by the threats a move
//! makes, and only moves that do not hand the opponent an immediate win; and, beyond Pons,
//! bounds from the lines each side can still make when the opponent plays claimeven (Allis'
//! rule, see `mover_bound`), wins with claimeven by an even threat (`even_threat_wins`), or
//! holds the mover in zugzwang under an odd threat (`odd_threat_wins`). Generalised from
//! four in a row to any K (and to the exactly-K rule) and to any gravity board with (width + 2) x (height + 1) < 64.
//!
//! Layout: column x holds bits `x * (h + 1) .. x * (h + 1) + h`, the top bit of each column
//! always empty. `current` holds the stones of the side to move, `mask` all stones.

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use super::table::{SolverTable, work_of};
use super::value;
use crate::game::{Grid, GridRules, Move, Position, has_line_u64};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub current: u64,
    pub mask: u64,
    pub moves: i32,
}

#[inline(always)]
fn shl(x: u64, n: u32) -> u64 {
    x.checked_shl(n).unwrap_or(0)
}

#[inline(always)]
fn shr(x: u64, n: u32) -> u64 {
    x.checked_shr(n).unwrap_or(0)
}

/// A key's columns in reverse order (its mirror image) in three swaps, the word seen as eight
/// columns: halves, then pairs, then single columns, and a shift for boards of fewer than
/// eight; for boards of at most 8 columns of at most 8 bits (Connect-4: 7 of 7). A position
/// with few stones reads its key and every child's in mirror too, so this runs up to eight
/// times a node.
#[derive(Clone, Copy, Debug)]
struct ColumnSwaps {
    bits: u32,
    halves: u64,
    pairs: u64,
    singles: u64,
    shift: u32,
}

impl ColumnSwaps {
    fn new(w: usize, bits: usize) -> Option<ColumnSwaps> {
        if w > 8 || bits > 8 {
            return None;
        }
        let column = (1u64 << bits) - 1;
        let at = |cols: &[usize]| cols.iter().fold(0u64, |m, &c| m | column << (c * bits));
        Some(ColumnSwaps {
            bits: bits as u32,
            halves: at(&[0, 1, 2, 3]),
            pairs: at(&[0, 1, 4, 5]),
            singles: at(&[0, 2, 4, 6]),
            shift: ((8 - w) * bits) as u32,
        })
    }

    #[inline(always)]
    fn mirror(&self, x: u64, g: u32, shift: u32) -> u64 {
        let x = ((x >> (4 * g)) & self.halves) | ((x & self.halves) << (4 * g));
        let x = ((x >> (2 * g)) & self.pairs) | ((x & self.pairs) << (2 * g));
        let x = ((x >> g) & self.singles) | ((x & self.singles) << g);
        x >> shift
    }
}

/// Enhanced transposition cutoffs (Plaat et al.) where at least this many cells are empty:
/// before a node searches its first move, it reads the table entries of all its children (the
/// slots it prefetches), and a child whose stored upper bound already refutes the node (our
/// value >= beta) ends it without a search. Far from the end a cutoff saves a large subtree;
/// nearer the end the reads, which wait for memory the prefetch has only just asked for, cost
/// more than the small searches they save. 22 was the fastest of the values measured (the
/// measurements: docs/solver-notes.md, "Tuning constants").
const ETC_EMPTY_CELLS: i32 = 22;

/// `mover_bound`'s answer when the lines give no bound.
const NO_BOUND: i32 = i32::MAX;

/// The board's shape as the search reads it: Connect-4's as constants, so that the compiler
/// turns its shifts, masks and loops over columns into fixed ones (`--moves 64` strong took
/// 0.78x the time of reading them from the solver, the median of three alternated runs, the
/// same nodes; docs/solver.md), or any board's from the solver's fields.
trait Shape {
    /// A key for each column.
    type Keys: Copy + AsMut<[u64]>;
    const NO_KEYS: Self::Keys;
    /// Moves in the order tried, with room for as many again put off (see `negamax`).
    type Columns: Copy + AsMut<[u32]>;
    const NO_COLUMNS: Self::Columns;
    fn width(s: &ConnectSolver) -> usize;
    fn height(s: &ConnectSolver) -> usize;
    /// Four or more in a row (Pons' formula applies).
    fn four(s: &ConnectSolver) -> bool;
    /// A column's bits and the final shift of [`ColumnSwaps::mirror`].
    fn mirror_shifts(swaps: &ColumnSwaps) -> (u32, u32);
}

/// Connect-4: 7 columns of 6, four or more in a row.
enum Connect4 {}

impl Shape for Connect4 {
    type Keys = [u64; 7];
    const NO_KEYS: [u64; 7] = [0; 7];
    type Columns = [u32; 14];
    const NO_COLUMNS: [u32; 14] = [0; 14];
    #[inline(always)]
    fn width(_: &ConnectSolver) -> usize {
        7
    }
    #[inline(always)]
    fn height(_: &ConnectSolver) -> usize {
        6
    }
    #[inline(always)]
    fn four(_: &ConnectSolver) -> bool {
        true
    }
    #[inline(always)]
    fn mirror_shifts(_: &ColumnSwaps) -> (u32, u32) {
        (7, 7)
    }
}

/// Any board the solver fits, its shape read from the solver.
enum AnyShape {}

impl Shape for AnyShape {
    /// A fitting board has at most 29 columns ((width + 2) x 2 < 64).
    type Keys = [u64; 32];
    const NO_KEYS: [u64; 32] = [0; 32];
    type Columns = [u32; 64];
    const NO_COLUMNS: [u32; 64] = [0; 64];
    #[inline(always)]
    fn width(s: &ConnectSolver) -> usize {
        s.w
    }
    #[inline(always)]
    fn height(s: &ConnectSolver) -> usize {
        s.h
    }
    #[inline(always)]
    fn four(s: &ConnectSolver) -> bool {
        s.k == 4 && !s.exact
    }
    #[inline(always)]
    fn mirror_shifts(swaps: &ColumnSwaps) -> (u32, u32) {
        (swaps.bits, swaps.shift)
    }
}

/// Slots of the table of positions being searched in a parallel solve.
const BUSY_SLOTS: usize = 4096;

/// A parallel solve shares out the moves of positions with at least this many empty cells
/// (see `negamax`); below it the threads search alike, meeting in the table. Sharing out
/// deeper costs more than it saves: the busy table's reads and writes, and table entries
/// written by both threads at once. 24 was the fastest of the values measured (the
/// measurements: docs/solver-notes.md, "Tuning constants").
const SPLIT_EMPTY_CELLS: i32 = 24;

pub struct ConnectSolver {
    /// Connect-4 itself: the search runs on [`Connect4`]'s constants.
    connect4: bool,
    w: usize,
    h: usize,
    k: u32,
    exact: bool,
    cells: i32,
    bottom: u64,
    board: u64,
    order: Vec<usize>,
    pub table: Arc<SolverTable>,
    pub nodes: u64,
    /// Of `nodes`, those the helper threads of parallel probes searched.
    pub helper_nodes: u64,
    min_score: i32,
    max_score: i32,
    /// Cells in the odd rows counted from the bottom (1st, 3rd, ...): the lower cells of the
    /// pairs claimeven plays on (see `mover_bound`). Zero when the height is odd (claimeven
    /// needs a cell above each of them), which turns claimeven off.
    odd_rows: u64,
    /// Cells in the even rows counted from the bottom (2nd, 4th, ...): a column's next cell (the
    /// lowest empty one, or the guard bit above a full column) lies there when the column is
    /// filled to an odd height, so none set in `mask + bottom` means every height is even.
    even_rows: u64,
    /// The mirror of a key by swaps (see [`ColumnSwaps`]), where the board allows it.
    swaps: Option<ColumnSwaps>,
    /// Fold positions with fewer stones than this with their mirror image in the table: early
    /// on mirrored transpositions are common, later they are rare and the fold costs time.
    pub symmetry_until: i32,
    /// Bounds from the opponent's threats: odd ones in zugzwang (see `odd_threat_wins`), even
    /// ones under claimeven (see `even_threat_wins`); off only to measure them.
    pub threat_bounds: bool,
    /// The deepest loss the threat bounds are sought for, (height + 1) / 2: one threat's deepest
    /// (see `loss_by_threat`; 0 without claimeven). Several threats can give deeper ones,
    /// rarely: sought further, they cost about what they save.
    deepest_threat_loss: i32,
    /// Enhanced transposition cutoffs (see [`ETC_EMPTY_CELLS`]) in positions with fewer
    /// stones than this.
    pub etc_until: i32,
    deadline: Option<Instant>,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Told the nodes and bounds while a solve runs (see [`super::ProofGauge`]).
    pub(super) gauge: Option<Arc<super::ProofGauge>>,
    pub aborted: bool,
    /// The other threads of a parallel solve (empty: one thread), each a solver of its own on
    /// the shared table.
    helpers: Vec<ConnectSolver>,
    /// Set when one thread of a parallel probe has finished it: the others stop.
    team_done: Option<Arc<AtomicBool>>,
    /// The positions being searched by some thread of a parallel solve, by key (a slot a key).
    busy: Option<Arc<[AtomicU64]>>,
}

/// The column of an entry of a node's child order (`score << 8 | column`, see
/// `ConnectSolver::order_children`).
#[inline(always)]
fn seq_column(e: u32) -> usize {
    (e & 255) as usize
}

impl ConnectSolver {
    /// Whether a board of these rules fits this solver: its bitboards need width x (height + 1)
    /// bits, and the positions it is given (`Grid<u64, true>`, with its guard columns)
    /// (width + 2) x (height + 1) < 64, the stricter of the two (Connect-4 and smaller).
    pub fn fits(rules: &GridRules) -> bool {
        let (w, h) = (rules.width() as usize, rules.height() as usize);
        // The second bound implies the first.
        rules.gravity() && (w + 2) * (h + 1) < 64
    }

    pub fn new(rules: &GridRules, table_mb: usize) -> ConnectSolver {
        assert!(Self::fits(rules));
        let (w, h) = (rules.width() as usize, rules.height() as usize);
        let bottom = (0..w).fold(0u64, |b, x| b | 1 << (x * (h + 1)));
        let board = bottom * ((1u64 << h) - 1);
        let order = (0..w)
            .map(|i| (w as i64 / 2 + (1 - 2 * (i as i64 % 2)) * (i as i64 + 1) / 2) as usize)
            .filter(|&c| c < w)
            .collect();
        let cells = (w * h) as i32;
        let k = rules.k() as i32;
        ConnectSolver {
            connect4: (w, h, rules.k(), rules.exact()) == (7, 6, 4, false),
            w,
            h,
            k: rules.k() as u32,
            exact: rules.exact(),
            cells,
            bottom,
            board,
            order,
            table: Arc::new(SolverTable::new(table_mb, (w * (h + 1)) as u32)),
            nodes: 0,
            helper_nodes: 0,
            odd_rows: if h.is_multiple_of(2) { (0..h).step_by(2).fold(0, |r, y| r | bottom << y) } else { 0 },
            even_rows: (1..h).step_by(2).fold(0, |r, y| r | bottom << y),
            // The quickest win: the first player's K-th stone, played onto 2K - 2 stones; the
            // quickest loss, that line made with the board at 2K stones.
            max_score: value::win_now(cells, 2 * k - 2).max(1),
            min_score: value::lost(cells, 2 * k).min(-1),
            swaps: ColumnSwaps::new(w, h + 1),
            symmetry_until: 14,
            threat_bounds: true,
            deepest_threat_loss: if h.is_multiple_of(2) { (h as i32 + 1) / 2 } else { 0 },
            etc_until: cells - ETC_EMPTY_CELLS,
            deadline: None,
            stop: None,
            gauge: None,
            aborted: false,
            helpers: Vec::new(),
            team_done: None,
            busy: None,
        }
    }

    /// Searches each probe on `threads` threads (at least 1) sharing the table.
    /// Threads each probe searches on: this solver and its helpers.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// The helpers take this solver's settings as they are now.
    pub fn set_threads(&mut self, threads: usize) {
        self.busy = (threads > 1).then(|| (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect());
        let helpers = (1..threads.max(1)).map(|_| self.sibling()).collect();
        self.helpers = helpers;
    }

    /// A solver for a helper thread, on the same table and settings.
    fn sibling(&self) -> ConnectSolver {
        ConnectSolver {
            order: self.order.clone(),
            table: Arc::clone(&self.table),
            nodes: 0,
            helper_nodes: 0,
            deadline: None,
            stop: None,
            gauge: None,
            aborted: false,
            helpers: Vec::new(),
            team_done: None,
            busy: self.busy.clone(),
            ..*self
        }
    }

    #[inline(always)]
    fn busy_slot(&self, key: u64) -> Option<&AtomicU64> {
        let busy = self.busy.as_ref()?;
        busy.get((key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize % BUSY_SLOTS)
    }

    #[inline(always)]
    fn is_busy(&self, key: u64) -> bool {
        self.busy_slot(key).is_some_and(|s| s.load(Relaxed) == key)
    }

    #[inline(always)]
    fn mark_busy(&self, key: u64) {
        if let Some(s) = self.busy_slot(key) {
            s.store(key, Relaxed);
        }
    }

    #[inline(always)]
    fn unmark_busy(&self, key: u64) {
        if let Some(s) = self.busy_slot(key) {
            let _ = s.compare_exchange(key, 0, Relaxed, Relaxed);
        }
    }

    /// The bitboards of a position (side to move's stones in `current`).
    pub fn board_of(&self, pos: &Grid<u64, true>) -> Board {
        let (current, mask) = super::key::bitboards(pos, self.w, self.h);
        Board { current, mask, moves: pos.ply() as i32 }
    }

    #[inline(always)]
    fn column_mask<S: Shape>(&self, x: usize) -> u64 {
        let h = S::height(self);
        ((1u64 << h) - 1) << (x * (h + 1))
    }

    #[inline(always)]
    fn possible(&self, b: &Board) -> u64 {
        (b.mask + self.bottom) & self.board
    }

    /// Empty cells (reachable or not) where a stone of `pos` would make a line.
    #[inline(always)]
    fn winning<S: Shape>(&self, pos: u64, mask: u64) -> u64 {
        if S::four(self) { self.winning4::<S>(pos, mask) } else { self.winning_k(pos, mask) }
    }

    /// Pons' formula for four in a row.
    #[inline(always)]
    fn winning4<S: Shape>(&self, pos: u64, mask: u64) -> u64 {
        let h = S::height(self) as u32;
        // Vertical.
        let mut r = (pos << 1) & (pos << 2) & (pos << 3);
        for d in [h + 1, h, h + 2] {
            let p = (pos << d) & (pos << (2 * d));
            r |= p & (pos << (3 * d));
            r |= p & (pos >> d);
            let p = (pos >> d) & (pos >> (2 * d));
            r |= p & (pos << d);
            r |= p & (pos >> (3 * d));
        }
        r & (self.board ^ mask)
    }

    fn winning_k(&self, pos: u64, mask: u64) -> u64 {
        let k = self.k;
        let mut r = 0u64;
        // Vertical: only stones below.
        let mut below = u64::MAX;
        for i in 1..k {
            below &= shl(pos, i);
        }
        if self.exact {
            below &= !shl(pos, k);
        }
        r |= below;
        for d in [self.h as u32 + 1, self.h as u32, self.h as u32 + 2] {
            let mut before = [u64::MAX; 22];
            let mut after = [u64::MAX; 22];
            for i in 1..=k as usize {
                before[i] = before[i - 1] & shl(pos, i as u32 * d);
                after[i] = after[i - 1] & shr(pos, i as u32 * d);
            }
            for a in 0..k as usize {
                let b = k as usize - 1 - a;
                if self.exact {
                    r |= (before[a] & !before[a + 1]) & (after[b] & !after[b + 1]);
                } else {
                    r |= before[a] & after[b];
                }
            }
        }
        r & (self.board ^ mask)
    }

    /// Whether `cells` (a set of cells within the board) hold k in a row anywhere.
    #[inline(always)]
    fn holds_line<S: Shape>(&self, cells: u64) -> bool {
        has_line_u64(cells, S::height(self) + 1, if S::four(self) { 4 } else { self.k as usize })
    }

    /// An upper bound of the side to move's value from the lines still open to it: 0 (at best a
    /// draw) when no k cells in a row are free of the opponent's stones, or when the opponent
    /// can hold the mover to cells that hold no line; -1 (a loss) when, holding it so, the
    /// opponent also gets a line of its own, or a faster loss when the opponent's threats
    /// end the game with cells still empty (see `even_threat_wins`, `odd_threat_wins`: the
    /// mover's cells less some, `alpha` saying how fast a loss is worth seeking);
    /// `NO_BOUND` otherwise.
    ///
    /// The opponent's strategy is claimeven (Allis 1988) with a pairing of the columns filled
    /// to an odd height. The board's height being even, each column's empty cells pair up from
    /// the top (a cell in an odd row counted from the bottom with the one above it), leaving a
    /// column of odd height its lowest empty cell unpaired. The opponent answers a move into a
    /// pair with the cell above it, and a move into an unpaired cell with another unpaired
    /// cell, which needs their number even when the mover is to move. The mover then gets only
    /// odd-row cells and unpaired ones, and the opponent, if the game runs to the end, every
    /// upper cell of a pair. Under the exactly-k rule a line of the opponent's may be spoilt by
    /// the unpaired cells it gets too, so there only the bound 0 is used. With
    /// `draw_bound` false only losses are sought (the caller has no use for 0).
    #[inline(always)]
    fn mover_bound<S: Shape>(&self, b: &Board, threats: u64, draw_bound: bool, alpha: i32) -> i32 {
        let empty = self.board & !b.mask;
        if self.odd_rows != 0 {
            let unpaired = self.unpaired_cells(b);
            if unpaired.count_ones().is_multiple_of(2) {
                let mine = b.current | (empty & self.odd_rows) | unpaired;
                if self.holds_line::<S>(mine) {
                    if self.threat_bounds
                        && !self.exact
                        && let Some(above) = self.even_threat_wins::<S>(threats, mine, unpaired)
                    {
                        return self.loss_by_threat(b, above);
                    }
                    return NO_BOUND;
                }
                // The mover makes no line: any threat of the opponent's in an upper cell wins,
                // the lowest the soonest (only worth finding when -1 cannot cut).
                if alpha < -1
                    && self.threat_bounds
                    && !self.exact
                    && let Some(above) = self.even_threat_wins::<S>(threats, mine, unpaired)
                {
                    return self.loss_by_threat(b, above);
                }
                let upper_cells = empty & self.even_rows & !unpaired;
                if !self.exact && self.holds_line::<S>((b.current ^ b.mask) | upper_cells) {
                    return -1;
                }
                return 0;
            }
            if self.threat_bounds
                && !self.exact
                && let Some(above) = self.odd_threat_wins::<S>(b, threats, empty, unpaired, alpha)
            {
                return self.loss_by_threat(b, above);
            }
        }
        if draw_bound && !self.holds_line::<S>(b.current | empty) { 0 } else { NO_BOUND }
    }

    /// Whether the opponent wins by a threat in zugzwang (Allis' odd threat, here for any
    /// player whose turn parity fits): the mover to move, an odd number of unpaired cells (see
    /// `mover_bound`), and a column c filled to an odd height (one with an unpaired cell) where the
    /// opponent has a threat t (an empty cell completing a line of its stones) with an odd
    /// number of empty cells below it (t lies in an odd row counted from the bottom). The
    /// opponent answers a move into a pair with the cell above it, as in claimeven, and a move
    /// into an unpaired cell of another column with another such cell (their number is even
    /// without c's); in column c it pairs the cells below t from the bottom, which leaves the
    /// one just under t to the mover. The mover, all its other moves answered, must at last play
    /// under t (or does so sooner), and the opponent completes its line at t, unless the mover
    /// has made a line first from the cells it can get: its stones, the lower cells of the
    /// pairs (odd rows outside c; in c the bottom cell of each pair and the cell under t: the
    /// even rows below t) and the unpaired cells outside c. When those hold no line the mover
    /// loses. Not under the exactly-k rule: the opponent's later stones may spoil its line.
    ///
    /// The opponent's threats in the upper cells of pairs outside c (even rows, not unpaired)
    /// take cells from the mover as in `even_threat_wins`: it loses at once when it plays
    /// under one, so it gets no cell above any of them.
    ///
    /// Returns, when the mover loses so, the most empty cells there will be when it does over
    /// the columns c where it does (see `loss_by_threat`): those above t, and the other
    /// threats' as in `even_threat_wins`.
    #[inline]
    fn odd_threat_wins<S: Shape>(&self, b: &Board, threats: u64, empty: u64, unpaired: u64, alpha: i32) -> Option<u32> {
        let odd_threats = threats & self.odd_rows;
        if odd_threats == 0 {
            return None;
        }
        let (even_above, even_columns) = self.cells_above_threats::<S>(threats & self.even_rows & !unpaired);
        let mut best = None;
        let mut columns = unpaired;
        while columns != 0 {
            let base = columns & columns.wrapping_neg();
            columns ^= base;
            let col = self.column_mask::<S>(base.trailing_zeros() as usize / (S::height(self) + 1));
            let in_col = odd_threats & col;
            if in_col == 0 {
                continue;
            }
            // The lowest threat of the column: it lies above the unpaired cell (an even row).
            let t = in_col & in_col.wrapping_neg();
            let below = (t - 1) & col & empty;
            let others = even_above & !col;
            let mine =
                (b.current | (empty & self.odd_rows & !col) | (unpaired & !col) | (below & self.even_rows)) & !others;
            if !self.holds_line::<S>(mine) {
                let other_columns = (even_columns & !col).count_ones();
                let stay_empty = (col & empty & !below & !t).count_ones() + others.count_ones() + 2 * other_columns;
                best = best.max(Some(stay_empty));
                if self.loss_by_threat(b, stay_empty) <= alpha {
                    break;
                }
            }
        }
        best
    }

    /// The cells above `threats` (each column's lowest counts: the others lie above it), and
    /// the columns holding them (their bottom cells).
    #[inline(always)]
    fn cells_above_threats<S: Shape>(&self, mut threats: u64) -> (u64, u64) {
        let (mut above, mut columns) = (0u64, 0u64);
        while threats != 0 {
            let t = threats & threats.wrapping_neg();
            let x = t.trailing_zeros() as usize / (S::height(self) + 1);
            let col = self.column_mask::<S>(x);
            threats &= !col;
            above |= col & !((t << 1) - 1);
            columns |= self.bottom & col;
        }
        (above, columns)
    }

    /// Whether the opponent, playing claimeven (see `mover_bound`), wins by its threats in
    /// even rows (each the upper cell of a pair; an empty cell completing a line of its
    /// stones): the mover, taking at most the lower cells of the pairs and the unpaired cells,
    /// loses at once when it plays under one of them (the opponent completes its line there,
    /// unless that move makes the mover's own line), so it gets no cell above any of them.
    /// When the mover's cells without those hold no line, the mover must at last play under
    /// one and loses. Not under the exactly-k rule.
    ///
    /// Returns, when the mover loses so, the empty cells there will be at least when it does
    /// (see `loss_by_threat`): those above the threat won at, and above each other threat the
    /// threat itself and the cell under it too, none of which anyone plays before. A column's
    /// lowest threat is the one that counts: the others lie above it.
    #[inline]
    fn even_threat_wins<S: Shape>(&self, threats: u64, mine: u64, unpaired: u64) -> Option<u32> {
        let threats = threats & self.even_rows & !unpaired;
        if threats == 0 {
            return None;
        }
        let (above, columns) = self.cells_above_threats::<S>(threats);
        (!self.holds_line::<S>(mine & !above)).then(|| above.count_ones() + 2 * (columns.count_ones() - 1))
    }

    /// The mover's value when the opponent wins by completing a line at a threat, the mover
    /// unable to make a line before, with `empty` cells known to stay empty until then
    /// (`odd_threat_wins`, `even_threat_wins`): the opponent's winning stone comes at the
    /// latest when every other cell is filled, so the win is at least that fast. Pons' score
    /// of a win played onto n stones is (cells + 1 - n) / 2; n, the opponent's parity, is at
    /// most cells - 1 - empty.
    #[inline(always)]
    fn loss_by_threat(&self, b: &Board, empty: u32) -> i32 {
        let mut n = self.cells - 1 - empty as i32;
        if (n - b.moves - 1) & 1 != 0 {
            n -= 1;
        }
        -value::win_now(self.cells, n)
    }

    /// The unpaired cells of claimeven's pairing (see `mover_bound`): the next cell of each
    /// column filled to an odd height, which lies in an even row.
    #[inline(always)]
    fn unpaired_cells(&self, b: &Board) -> u64 {
        (b.mask + self.bottom) & self.even_rows
    }

    /// The cells where the opponent of the side to move would complete a line.
    #[inline(always)]
    fn opponent_threats<S: Shape>(&self, b: &Board) -> u64 {
        self.winning::<S>(b.current ^ b.mask, b.mask)
    }

    #[inline(always)]
    fn can_win_next(&self, b: &Board) -> bool {
        self.winning::<AnyShape>(b.current, b.mask) & self.possible(b) != 0
    }

    /// Moves that do not let the opponent win at once (0: every move loses).
    #[inline(always)]
    fn non_losing_moves(&self, b: &Board, opponent_win: u64) -> u64 {
        let mut possible = self.possible(b);
        let forced = possible & opponent_win;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        // Not below a cell where the opponent would win.
        possible & !(opponent_win >> 1)
    }

    #[inline(always)]
    fn play(b: &Board, mv: u64) -> Board {
        Board { current: b.current ^ b.mask, mask: b.mask | mv, moves: b.moves + 1 }
    }

    #[inline(always)]
    fn key<S: Shape>(&self, b: &Board) -> u64 {
        let key = b.current + b.mask;
        if b.moves >= self.symmetry_until {
            return key;
        }
        if let Some(swaps) = &self.swaps {
            let (bits, shift) = S::mirror_shifts(swaps);
            return key.min(swaps.mirror(key, bits, shift));
        }
        key.min(self.mirror_by_columns(key))
    }

    /// The mirror of a key column by column (any board).
    fn mirror_by_columns(&self, key: u64) -> u64 {
        super::key::mirror_key(key, self.w, self.h)
    }

    fn check_stop(&mut self) {
        if let Some(g) = &self.gauge {
            g.set_nodes(self.nodes);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.stop.as_ref().is_some_and(|s| s.load(Relaxed))
            || self.team_done.as_ref().is_some_and(|s| s.load(Relaxed))
        {
            self.aborted = true;
        }
    }

    /// The null-window or windowed search of `b`, on Connect-4's constants where it is that.
    fn search(&mut self, b: &Board, alpha: i32, beta: i32) -> i32 {
        if self.connect4 {
            self.negamax::<Connect4>(b, self.key::<Connect4>(b), alpha, beta)
        } else {
            self.negamax::<AnyShape>(b, self.key::<AnyShape>(b), alpha, beta)
        }
    }

    /// The search of `b`, whose table key (`key`) its parent has already made.
    fn negamax<S: Shape>(&mut self, b: &Board, key: u64, alpha: i32, beta: i32) -> i32 {
        let first_node = self.nodes;
        self.nodes += 1;
        if self.nodes & 4095 == 0 {
            self.check_stop();
        }
        if self.aborted {
            return 0;
        }
        // The opponent's threats: the moves that do not lose at once avoid them, and the bounds
        // below read them too.
        let threats = self.opponent_threats::<S>(b);
        let next = self.non_losing_moves(b, threats);
        if next == 0 {
            return -(self.cells - b.moves) / 2;
        }
        if b.moves >= self.cells - 2 {
            return 0;
        }
        let (mut alpha, beta) = match self.window::<S>(b, key, threats, alpha, beta) {
            Ok(w) => w,
            Err(v) => return v,
        };
        let mut col_keys = S::NO_KEYS;
        let col_keys = col_keys.as_mut();
        let mut seq = S::NO_COLUMNS;
        let seq = seq.as_mut();
        let n = self.order_children::<S>(b, next, col_keys, seq);
        if let Some(v) = self.shortcut::<S>(b, key, next, (&seq[..n], col_keys), beta) {
            return v;
        }
        // In a parallel solve, far enough from the end, a move another thread is searching is
        // put off to the end of `seq` (simplified ABDADA: by then its value is usually in the
        // table), except the first, which every thread searches.
        let parallel = self.busy.is_some() && self.cells - b.moves >= SPLIT_EMPTY_CELLS;
        let (mut len, mut p) = (n, 0);
        while p < len {
            let e = seq[p];
            let child_key = col_keys[seq_column(e)];
            p += 1;
            if parallel && 1 < p && p <= n && self.is_busy(child_key) {
                seq[len] = e;
                len += 1;
                continue;
            }
            let child = Self::play(b, next & self.column_mask::<S>(seq_column(e)));
            if parallel {
                self.mark_busy(child_key);
            }
            let score = -self.negamax::<S>(&child, child_key, -beta, -alpha);
            if parallel {
                self.unmark_busy(child_key);
            }
            if self.aborted {
                return 0;
            }
            if score >= beta {
                self.table.put(
                    key,
                    (score + self.max_score - 2 * self.min_score + 2) as u8,
                    work_of(self.nodes - first_node),
                );
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.table.put(key, (alpha - self.min_score + 1) as u8, work_of(self.nodes - first_node));
        alpha
    }

    /// The window (`alpha`, `beta`) narrowed to what `b` can be worth: the moves left, the
    /// lines still open and the opponent's `threats`, and the table's bound under `key`. Err
    /// with the value when that settles it.
    #[inline(always)]
    fn window<S: Shape>(
        &mut self,
        b: &Board,
        key: u64,
        threats: u64,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<(i32, i32), i32> {
        let min = -(self.cells - 2 - b.moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return Err(alpha);
            }
        }
        let mut max = (self.cells - 1 - b.moves) / 2;
        // Bounds from the lines still open (0, -1, and down to -deepest_threat_loss from the
        // threats: only worth computing when they can cut).
        if beta >= 0 || (alpha >= -self.deepest_threat_loss && self.threat_bounds) {
            let bound = self.mover_bound::<S>(b, threats, beta > 0, alpha);
            if bound < max {
                max = bound;
                if alpha >= max {
                    return Err(max);
                }
            }
        }
        if let Some(v) = self.table.get(key) {
            let v = v as i32;
            if v > self.max_score - self.min_score + 1 {
                let lower = v + 2 * self.min_score - self.max_score - 2;
                if alpha < lower {
                    alpha = lower;
                    if alpha >= beta {
                        return Err(alpha);
                    }
                }
            } else {
                max = v + self.min_score - 1;
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return Err(beta);
            }
        }
        Ok((alpha, beta))
    }

    /// The children of `b` reached by the moves in `next`, in the order tried, into `seq` (each
    /// `score << 8 | column`), their table keys into `col_keys` by column; how many there are.
    #[inline(always)]
    fn order_children<S: Shape>(&self, b: &Board, next: u64, col_keys: &mut [u64], seq: &mut [u32]) -> usize {
        // Start loading the children's table slots before the moves are scored and sorted, so
        // that work hides the memory's latency (the first child is searched right after).
        for (x, ck) in col_keys.iter_mut().enumerate().take(S::width(self)) {
            let mv = next & self.column_mask::<S>(x);
            if mv != 0 {
                *ck = self.key::<S>(&Self::play(b, mv));
                self.table.prefetch(*ck);
            }
        }
        // Centre columns first, then by the number of threats the move makes: each entry a
        // column and its move's score (score << 8 | column), sorted by score, then reversed to
        // the order tried (the best first).
        let mut n = 0;
        for i in (0..S::width(self)).rev() {
            let x = self.order[i];
            let mv = next & self.column_mask::<S>(x);
            if mv != 0 {
                let score = (self.winning::<S>(b.current | mv, b.mask)).count_ones();
                // Insertion sort, stable for equal scores (the centre-first order stays).
                let mut j = n;
                while j > 0 && seq[j - 1] >> 8 > score {
                    seq[j] = seq[j - 1];
                    j -= 1;
                }
                seq[j] = score << 8 | x as u32;
                n += 1;
            }
        }
        seq[..n].reverse();
        n
    }

    /// A value for `b` without searching its children `seq` (keys `col_keys`): a lower bound of
    /// `beta` or more from claimeven, or a child's table entry that cuts (enhanced transposition
    /// cutoff); each is stored in the table under `key`.
    #[inline(always)]
    fn shortcut<S: Shape>(
        &mut self,
        b: &Board,
        key: u64,
        next: u64,
        (seq, col_keys): (&[u32], &[u64]),
        beta: i32,
    ) -> Option<i32> {
        if beta <= self.deepest_threat_loss.max(1) {
            let floor = self.claimeven_floor::<S>(b, next, beta);
            if floor >= beta {
                self.table.put(key, (floor + self.max_score - 2 * self.min_score + 2) as u8, 1);
                return Some(floor);
            }
        }
        // The children from the last tried to the first: the order the cutoffs were measured
        // in (the first child found that cuts gives the value stored).
        if b.moves < self.etc_until
            && let Some(score) = self.etc_cutoff(seq.iter().rev().map(|&e| col_keys[seq_column(e)]), beta)
        {
            // Stored as a lower bound, like a cutoff after a search; work 1, as nothing was
            // searched under it.
            self.table.put(key, (score + self.max_score - 2 * self.min_score + 2) as u8, 1);
            return Some(score);
        }
        None
    }

    /// A lower bound of this position's value from `moves` (their cells, one a column) that
    /// leave the opponent, then to move, held by claimeven (see `mover_bound`): 1 or more when
    /// one leaves it lost (the first bound found at `beta` or above, else the best), 0 when one
    /// leaves it unable to win, `-NO_BOUND` when none does. Where the unpaired cells are odd in
    /// number now (even after any move) it finds the reply that restores the pairing before
    /// searching the others; where they are even, a move that leaves the opponent in
    /// zugzwang under an odd threat of ours (see `odd_threat_wins`).
    #[inline]
    fn claimeven_floor<S: Shape>(&self, b: &Board, moves: u64, beta: i32) -> i32 {
        if self.odd_rows == 0 {
            return -NO_BOUND;
        }
        if self.unpaired_cells(b).count_ones().is_multiple_of(2) {
            if !self.threat_bounds || self.exact {
                return -NO_BOUND;
            }
            // Every move leaves the opponent an odd number of unpaired cells: a move that
            // leaves it in zugzwang under an odd threat of ours (see `odd_threat_wins`) wins.
            // None can when no move, nor all of them at once, makes such a threat.
            if self.winning::<S>(b.current | self.possible(b), b.mask) & self.odd_rows == 0 {
                return -NO_BOUND;
            }
            return self.best_move_floor(b, moves, beta, |child| {
                let unpaired = self.unpaired_cells(child);
                let threats = self.opponent_threats::<S>(child);
                self.odd_threat_wins::<S>(child, threats, self.board & !child.mask, unpaired, -beta)
                    .map_or(-NO_BOUND, |above| -self.loss_by_threat(child, above))
            });
        }
        // A line of the opponent's that avoids every cell a move can take lies in the cells
        // claimeven leaves it after any of the moves: none can then bound it, unless our even
        // threats take some of those cells from it (see `even_threat_wins`). A filter only:
        // cells above the threats a move makes are not taken out, so it may skip a move that
        // would bound (same run: 6-11% fewer nodes than with the threats' cells left in, and
        // about as many as with no filter at all, for less time).
        let empty = self.board & !b.mask;
        let next = self.possible(b);
        let unpaired = self.unpaired_cells(b);
        let theirs = (b.current ^ b.mask) | (empty & (self.odd_rows | unpaired));
        let (our_above, _) =
            self.cells_above_threats::<S>(self.winning::<S>(b.current, b.mask) & self.even_rows & !unpaired);
        if self.holds_line::<S>(theirs & !next & !our_above) {
            return -NO_BOUND;
        }
        self.best_move_floor(b, moves, beta, |child| {
            -self.mover_bound::<S>(child, self.opponent_threats::<S>(child), true, -beta)
        })
    }

    /// The best of the lower bounds `moves` give this position, each `floor_after` of the
    /// position after it (`-NO_BOUND` when none), stopping at the first at `beta` or above.
    #[inline(always)]
    fn best_move_floor(&self, b: &Board, moves: u64, beta: i32, floor_after: impl Fn(&Board) -> i32) -> i32 {
        let mut floor = -NO_BOUND;
        let mut rest = moves;
        while rest != 0 {
            let mv = rest & rest.wrapping_neg();
            rest ^= mv;
            floor = floor.max(floor_after(&Self::play(b, mv)));
            if floor >= beta {
                break;
            }
        }
        floor
    }

    /// A cutoff from the table entries of children (enhanced transposition cutoffs): the
    /// first child whose stored upper bound u gives our value -u >= beta.
    #[inline]
    fn etc_cutoff(&self, mut child_keys: impl Iterator<Item = u64>, beta: i32) -> Option<i32> {
        child_keys.find_map(|ck| {
            // An upper bound u of a child (entries at or below max - min + 1) makes our value
            // at least -u through that move.
            let v = i32::from(self.table.get(ck)?);
            let score = -(v + self.min_score - 1);
            (v <= self.max_score - self.min_score + 1 && score >= beta).then_some(score)
        })
    }

    /// The value of `b` by null-window bisection; with `weak`, only its sign (-1, 0, 1).
    /// Returns the bounds proved: equal when solved, wider when the time ran out.
    pub fn solve(
        &mut self,
        b: &Board,
        weak: bool,
        deadline: Option<Instant>,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> (i32, i32) {
        self.solve_at_least(b, weak, None, deadline, stop)
    }

    /// [`ConnectSolver::solve`] of a position whose value is known to be at least `floor`
    /// (a child of a solved position: at least minus the parent's value, on the scale `solve`
    /// returns): the bisection starts from that bound, skipping the probes below it.
    pub fn solve_at_least(
        &mut self,
        b: &Board,
        weak: bool,
        floor: Option<i32>,
        deadline: Option<Instant>,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> (i32, i32) {
        self.deadline = deadline;
        self.stop = stop;
        self.aborted = false;
        if self.can_win_next(b) {
            let v = value::win_now(self.cells, b.moves);
            let v = if weak { 1 } else { v };
            if let Some(g) = &self.gauge {
                g.set_bounds(v, v);
            }
            return (v, v);
        }
        let (min, max) = value::value_range(self.cells, b.moves, weak);
        let min = floor.map_or(min, |f| f.clamp(min, max));
        let gauge = self.gauge.clone();
        super::bisect_gauged(min, max, weak, gauge.as_deref(), |a, c| self.probe(b, a, c))
    }

    /// A null-window search of `b` (None when stopped), on every thread of the solve: each
    /// searches the whole probe over the shared table, putting off moves another thread is
    /// searching (see `negamax`); the first to finish gives the answer (any thread's is exact,
    /// every table entry being a proved bound), and the others stop. Threads are started for
    /// each probe: about 0.1 ms, nothing to a long solve, several times a short one's time.
    fn probe(&mut self, b: &Board, alpha: i32, beta: i32) -> Option<i32> {
        if self.helpers.is_empty() {
            let r = self.search(b, alpha, beta);
            return (!self.aborted).then_some(r);
        }
        let done = Arc::new(AtomicBool::new(false));
        let mut helpers = std::mem::take(&mut self.helpers);
        let b = *b;
        self.team_done = Some(Arc::clone(&done));
        let results: Vec<Option<i32>> = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .map(|h| {
                    h.deadline = self.deadline;
                    h.stop = self.stop.clone();
                    h.aborted = false;
                    h.team_done = Some(Arc::clone(&done));
                    let done = &done;
                    scope.spawn(move || {
                        let r = h.search(&b, alpha, beta);
                        (!h.aborted).then(|| {
                            done.store(true, Relaxed);
                            r
                        })
                    })
                })
                .collect();
            let r = self.search(&b, alpha, beta);
            let mine = (!self.aborted).then(|| {
                done.store(true, Relaxed);
                r
            });
            std::iter::once(mine).chain(handles.into_iter().map(|h| h.join().unwrap_or(None))).collect()
        });
        for h in &mut helpers {
            self.nodes += h.nodes;
            self.helper_nodes += h.nodes;
            h.nodes = 0;
            h.team_done = None;
        }
        self.helpers = helpers;
        self.team_done = None;
        let r = results.into_iter().flatten().next();
        self.aborted = r.is_none();
        r
    }

    /// A move that keeps `value`, a value known from elsewhere (a book), found within
    /// `deadline`; never an unproved move. With `check_value`, also that no move does better.
    pub fn best_move_within(
        &mut self,
        b: &Board,
        value: i32,
        weak: bool,
        check_value: bool,
        deadline: Option<Instant>,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> super::BookMoveProof {
        self.deadline = deadline;
        self.stop = stop;
        self.aborted = false;
        // No fallback: the value comes from a book, which may be wrong (a hand-edited one
        // can name a move that does not keep its value).
        let best = self.keeping_move(b, value, weak, false);
        let m = match best {
            _ if self.aborted => return super::BookMoveProof::Stopped,
            Some(m) => m,
            None => return super::BookMoveProof::NoneKeeps,
        };
        if !check_value {
            return super::BookMoveProof::Kept(m);
        }
        // A move keeping the value proves it a lower bound; that no move does better is the
        // other half, one null-window probe (a trial's book with a loss edited to a quicker
        // one had every move "proved" to keep it, and the rows all showed the edited loss).
        let target = if weak { value.signum() } else { value };
        let best_possible = if weak { 1 } else { value::win_now(self.cells, b.moves) };
        // The search below assumes the mover cannot win at once (as Pons' does): a win now is
        // the best there is, so only that value is kept.
        if self.can_win_next(b) {
            return if target >= best_possible {
                super::BookMoveProof::Proved(m)
            } else {
                super::BookMoveProof::Understated
            };
        }
        if target < best_possible {
            match self.probe(b, target, target + 1) {
                None => return super::BookMoveProof::Stopped,
                Some(r) if r > target => return super::BookMoveProof::Understated,
                Some(_) => {}
            }
        }
        super::BookMoveProof::Proved(m)
    }

    /// A move that keeps the value `value` (found with a null-window search per move); the
    /// first legal move if none is found (the search was stopped).
    pub fn best_move(&mut self, b: &Board, value: i32, weak: bool) -> Option<Move> {
        self.keeping_move(b, value, weak, true)
    }

    /// A move that keeps `value`; where none does (or the search stops first), the first
    /// legal move if `fall_back`, else None.
    fn keeping_move(&mut self, b: &Board, value: i32, weak: bool, fall_back: bool) -> Option<Move> {
        let possible = self.possible(b);
        let wins = self.winning::<AnyShape>(b.current, b.mask) & possible;
        for &x in &self.order.clone() {
            let mv = possible & self.column_mask::<AnyShape>(x);
            if mv == 0 {
                continue;
            }
            if mv & wins != 0 {
                return Some(Move(x as u16));
            }
        }
        let next = self.non_losing_moves(b, self.opponent_threats::<AnyShape>(b));
        if next == 0 {
            // Every move lets the opponent win at once (the value the search gives such a
            // position): any move keeps a value no better. Without this, no move was tried and
            // a book's right value there was called one no move keeps.
            let loss_now = -(self.cells - b.moves) / 2;
            let keeps = if weak { value.signum() <= -1 } else { value <= loss_now };
            let first = self.order.iter().find(|&&x| possible & self.column_mask::<AnyShape>(x) != 0);
            return first.map(|&x| Move(x as u16)).filter(|_| keeps || fall_back);
        }
        let mut fallback = None;
        for &x in &self.order.clone() {
            let mv = possible & self.column_mask::<AnyShape>(x);
            if mv == 0 {
                continue;
            }
            fallback.get_or_insert(Move(x as u16));
            if mv & next == 0 {
                continue;
            }
            let child = Self::play(b, mv);
            // Our value >= target  <=>  the child's value <= -target.
            let target = if weak { value.signum() } else { value };
            let r = if weak {
                let (lo, hi) = self.solve(&child, true, self.deadline, self.stop.clone());
                if lo == hi { -lo } else { i32::MIN }
            } else {
                // On every thread of the solver, as the solve's own probes (`solve --book
                // --threads 2` proves the book's move on both threads too).
                self.probe(&child, -target, -target + 1).map_or(i32::MIN, |r| -r)
            };
            if self.aborted {
                return fallback.filter(|_| fall_back);
            }
            if r >= target {
                return Some(Move(x as u16));
            }
        }
        fallback.filter(|_| fall_back)
    }

    /// Plies to the end with perfect play for a value (positive: the side to move wins).
    pub fn plies_to_end(&self, value: i32, moves: i32) -> Option<u32> {
        value::distance(self.cells, value, moves)
    }
}

impl super::gauge::Gauged for ConnectSolver {
    fn nodes(&self) -> u64 {
        self.nodes
    }
    fn gauge_slot(&mut self) -> &mut Option<Arc<super::ProofGauge>> {
        &mut self.gauge
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connect-4's constants ([`Connect4`]) search exactly as the shape read from the solver
    /// ([`AnyShape`]) does: the same values, Pons' scores, and the same nodes, on the 1,000
    /// positions of Pons' beginning set (7-13 stones, where keys fold with their mirror) and
    /// 100 of the middle set.
    #[test]
    fn connect4s_constants_search_as_the_general_shape_does() {
        let rules = GridRules::new(7, 6, 4, false, true).unwrap();
        let sets = [
            include_str!("../../../tests/data/connect4/Test_L1_R1"),
            include_str!("../../../tests/data/connect4/Test_L2_R1"),
        ];
        let mut checked = 0;
        for line in sets[0].lines().chain(sets[1].lines().take(100)) {
            let (moves, score) = line.split_once(' ').expect("<moves> <score>");
            let score: i32 = score.parse().expect("a score");
            let mut results = Vec::new();
            for constants in [true, false] {
                let mut solver = ConnectSolver::new(&rules, 1);
                assert!(solver.connect4);
                solver.connect4 = constants;
                let mut b = Board { current: 0, mask: 0, moves: 0 };
                for c in moves.bytes() {
                    let x = (c - b'1') as usize;
                    b = ConnectSolver::play(&b, solver.possible(&b) & solver.column_mask::<AnyShape>(x));
                }
                let (lo, hi) = solver.solve(&b, false, None, None);
                assert_eq!((lo, hi), (score, score), "{moves}, constants {constants}");
                results.push((lo, solver.nodes));
            }
            assert_eq!(results[0], results[1], "{moves}: (value, nodes) with and without the constants");
            checked += 1;
        }
        assert_eq!(checked, 1100);
    }

    /// The threat bounds change no score of 200 positions of Pons' middle set (medium) and
    /// save nodes on them (about a fifth): the rules fire in real positions.
    #[test]
    fn threat_bounds_keep_pons_scores_and_save_nodes() {
        let rules = GridRules::new(7, 6, 4, false, true).unwrap();
        let set = include_str!("../../../tests/data/connect4/Test_L2_R2");
        let mut nodes = [0u64; 2];
        for line in set.lines().take(200) {
            let (moves, score) = line.split_once(' ').expect("<moves> <score>");
            let score: i32 = score.parse().expect("a score");
            for (on, total) in [true, false].into_iter().zip(nodes.iter_mut()) {
                let mut solver = ConnectSolver::new(&rules, 1);
                solver.threat_bounds = on;
                let mut b = Board { current: 0, mask: 0, moves: 0 };
                for c in moves.bytes() {
                    b = ConnectSolver::play(
                        &b,
                        solver.possible(&b) & solver.column_mask::<AnyShape>((c - b'1') as usize),
                    );
                }
                assert_eq!(solver.solve(&b, false, None, None), (score, score), "{moves}, odd threats {on}");
                *total += solver.nodes;
            }
        }
        assert!(nodes[0] * 10 < nodes[1] * 9, "nodes with the rule {} and without {}", nodes[0], nodes[1]);
    }

    /// The swaps give the column-by-column mirror on every board they serve, for keys with any
    /// bits of the board's columns set.
    #[test]
    fn column_swaps_mirror_as_the_loop_does() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut served = 0;
        for w in 1..=8 {
            for h in 1..=7 {
                // K as large as 3 where the board allows it (1x1 has only K = 1): the mirror
                // does not depend on K, every size is served.
                let rules = GridRules::new(w, h, 3.min(w.max(h)), false, true).unwrap();
                if !ConnectSolver::fits(&rules) {
                    continue;
                }
                let solver = ConnectSolver::new(&rules, 1);
                let swaps = solver.swaps.expect("a board of at most 8 columns of at most 8 bits");
                served += 1;
                let board = (1u64 << (w as usize * (h as usize + 1))) - 1;
                for _ in 0..200 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let key = x & board;
                    assert_eq!(
                        swaps.mirror(key, swaps.bits, swaps.shift),
                        solver.mirror_by_columns(key),
                        "{w}x{h}, key {key:x}"
                    );
                }
            }
        }
        assert!(served > 20, "{served}");
    }
}
