//! The solver for any board (free placement, and gravity boards too wide for one word):
//! negamax with null windows like the Connect-X solver, over the generic position API, with
//! - forced moves first: take a win; block the opponent's only immediate win; two immediate
//!   wins of the opponent lose (under gravity also: never play below an opponent's winning cell);
//! - bounds from the windows still open: a side with no window free of the other's stones
//!   cannot win, and with none open to either side the game is a draw;
//! - dead cells (free placement, K or more): a cell on no open window is like a pass, which
//!   never helps in these games, so it is searched only when nothing else is left;
//! - a table of bounds keyed by the hash that is the same for all symmetric positions;
//! - moves ordered by the table's move, then by the threats they make and block.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::value;

use super::pairing::{PairingOutcome, PairingSearch, empty_cells};
use crate::eval::{EvalBoard, Threat, window_move_score};
use crate::game::{Move, Player, Position, Status};
use crate::search::tree::Bound;
use crate::search::tt::{TranspositionTable, TtHit};

/// What the steps of a node share: its ply from the root and stones on the board, the side
/// to move, whether the Erdős–Selfridge bounds apply, and whether the side to move (and the
/// opponent, one ply up) had no pairing against it.
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    n: i32,
    me: Player,
    breakable: bool,
    me_unpaired: bool,
    opponent_unpaired: bool,
}

pub struct GenericSolver<P: Position> {
    pos: P,
    board: EvalBoard,
    table: TranspositionTable,
    /// Set when a race's two methods proved different values (see `race::race_generic`): a
    /// bug, told by [`super::AnySolver::take_conflict`].
    pub(super) conflict: Option<String>,
    cells: i32,
    /// Opponent-threat shortcuts and dead cells are sound only for the K-or-more rule.
    freestyle: bool,
    gravity: bool,
    /// Use the Erdős–Selfridge bounds and strategy stealing (off only to cross-check them).
    breaker_bounds: bool,
    /// Also look for pairing strategies where the Erdős–Selfridge test fails (free placement).
    pairing: Option<PairingSearch>,
    /// Pairing searches made (the clock is read every 64).
    pairing_tests: u64,
    /// The cells of the last pairing found.
    last_pairing: u128,
    /// Set when a node returns: Some(Z) if its value rests only on a pairing against the
    /// player who cannot then make a line (the "maker") whose cells, with the defending reply
    /// that led to it, are in Z. Another move of the maker outside Z meets the same defence,
    /// so it needs no search: the pairing's cells stay empty and the windows it covers stay
    /// open to the same stones (a relevance zone, as Hsu et al. use to cut the maker's moves).
    zone: Option<u128>,
    /// Set by a node for its children: its side to move had no pairing against it. A move of
    /// that side takes a cell and kills no window of its own, so none can appear below.
    unpaired: bool,
    /// How many replies a node where a draw is enough tries for a pairing before searching
    /// any: all of them, the fastest on mnk:7,7,5 (docs/solver-notes.md, "Tuning
    /// constants").
    lookahead: usize,
    /// How often each of the three pairing tests succeeded lately: at a node where a value of
    /// at most 0 cuts, against the opponent where a draw is enough, and the reply look-ahead.
    entry_rate: HitRate,
    against_rate: HitRate,
    lookahead_rate: HitRate,
    pub nodes: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    /// Told the nodes and bounds while a solve runs (see [`super::ProofGauge`]).
    pub(super) gauge: Option<Arc<super::ProofGauge>>,
    pub aborted: bool,
    buffers: Vec<Vec<(Move, i32)>>,
    scratch: Vec<Move>,
    cells_scratch: Vec<u16>,
}

/// Window values used only to order moves: a window with c of one's stones is worth 8^c.
fn ordering_phi(_k: usize, a: usize, b: usize) -> i32 {
    match (a, b) {
        (a, 0) => 8i32.saturating_pow(a as u32).min(1 << 24),
        (0, b) => -(8i32.saturating_pow(b as u32).min(1 << 24)),
        _ => 0,
    }
}

impl<P: Position> super::gauge::Gauged for GenericSolver<P> {
    fn nodes(&self) -> u64 {
        self.nodes
    }
    fn gauge_slot(&mut self) -> &mut Option<Arc<super::ProofGauge>> {
        &mut self.gauge
    }
}

impl<P: Position> GenericSolver<P> {
    pub fn new(pos: &P, table_mb: usize) -> GenericSolver<P> {
        let rules = pos.variant().grid();
        GenericSolver {
            pos: pos.clone(),
            board: EvalBoard::new(pos, ordering_phi).with_potential(),
            table: TranspositionTable::new(table_mb),
            cells: pos.max_game_length() as i32,
            freestyle: rules.is_some_and(|r| !r.exact()),
            gravity: pos.variant().has_gravity(),
            breaker_bounds: true,
            pairing: (!pos.variant().has_gravity() && rules.is_some() && pos.windows().cells <= 128)
                .then(PairingSearch::default),
            pairing_tests: 0,
            last_pairing: 0,
            zone: None,
            unpaired: false,
            lookahead: usize::MAX,
            entry_rate: HitRate::default(),
            against_rate: HitRate::default(),
            lookahead_rate: HitRate::default(),
            nodes: 0,
            deadline: None,
            stop: None,
            gauge: None,
            conflict: None,
            aborted: false,
            buffers: Vec::new(),
            scratch: Vec::new(),
            cells_scratch: Vec::new(),
        }
    }

    /// The solver without the Erdős–Selfridge bounds and strategy stealing: slower, and a
    /// reference that does not share that knowledge (tests cross-check the two).
    pub fn without_breaker_bounds(mut self) -> Self {
        self.breaker_bounds = false;
        self.pairing = None;
        self
    }

    /// The solver without the pairing test (the Erdős–Selfridge bounds kept): to cross-check
    /// the pairings and to measure what they save.
    pub fn without_pairings(mut self) -> Self {
        self.pairing = None;
        self
    }

    /// Can the opponent of `maker` stop all of `maker`'s lines with a pairing strategy?
    fn paired(&mut self, maker: Player) -> bool {
        if self.aborted {
            return false;
        }
        let Some(search) = self.pairing.as_mut() else {
            return false;
        };
        let empty = empty_cells(&self.pos, self.board.table().cells);
        let board = &self.board;
        self.pairing_tests += 1;
        let found = search.run(board.table(), |w| board.counts(w), empty, maker.index()) == PairingOutcome::Found;
        if found {
            self.last_pairing = search.pairs().iter().fold(0u128, |z, &(a, b)| z | 1 << a | 1 << b);
        }
        // A node may make dozens of these searches (one per reply where a draw is enough), so
        // the clock is read here too, not only every 1024 nodes, or a short `--time` (0.05 s
        // on mnk:9,9,5) overruns many times over.
        if self.pairing_tests & 63 == 0 {
            self.check_stop();
        }
        found
    }

    /// Why the table is smaller than asked, if it is.
    pub fn table_shortfall(&self) -> Option<String> {
        self.table.shortfall()
    }

    pub fn memory(&self) -> u64 {
        self.table.memory()
    }

    fn check_stop(&mut self) {
        if let Some(g) = &self.gauge {
            g.set_nodes(self.nodes);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
    }

    /// A winning move of the side to move, if it has one.
    fn immediate_win(&mut self) -> Option<Move> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let found = self.board.winning_move(&mut self.pos, &mut scratch);
        self.scratch = scratch;
        found
    }

    fn negamax(&mut self, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.zone = None;
        let opponent_unpaired = std::mem::take(&mut self.unpaired);
        self.nodes += 1;
        // Every 1024 nodes: a gomoku node (225 moves to order) is slow enough that 4096 of
        // them overran `--time 0.05` by 20 ms.
        if self.nodes & 1023 == 0 {
            self.check_stop();
        }
        if self.aborted {
            return 0;
        }
        let n = self.pos.ply() as i32;
        if let Some(v) = self.finished_value() {
            return v;
        }
        if self.immediate_win().is_some() {
            return value::win_now(self.cells, n);
        }
        if n >= self.cells - 1 {
            return 0;
        }
        let me = self.pos.side_to_move();
        let (forced, below_threat) = match self.opponent_threats(me.other(), n) {
            Ok(t) => t,
            Err(v) => return v,
        };
        // Lines the opponent can all stop mean a value of at most 0: with alpha >= 0 nothing
        // below this node can raise it (Erdős–Selfridge, free placement only).
        let breakable = !self.gravity && self.breaker_bounds;
        let mut me_unpaired = false;
        if breakable && alpha >= 0 {
            if self.board.lines_breakable(me, true) {
                return 0;
            }
            if self.pairing.is_some() && self.entry_rate.worth_it() {
                let held = self.paired(me);
                self.entry_rate.record(held);
                if held {
                    self.zone = Some(self.last_pairing);
                    return 0;
                }
                me_unpaired = true;
            }
        }
        let node = Node { ply, n, me, breakable, me_unpaired, opponent_unpaired };
        if self.buffers.len() <= ply {
            self.buffers.resize(ply + 1, Vec::new());
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let v = self.search_node(node, &mut moves, (forced, &below_threat), alpha, beta);
        self.buffers[ply] = moves;
        v
    }

    /// The opponent's immediate wins (K or more): the cell to block, if one, and under gravity
    /// the opponent's winning cells (not to be played below); Err with the node's value when
    /// two cannot both be blocked.
    #[inline]
    fn opponent_threats(&mut self, you: Player, n: i32) -> Result<(Option<Move>, Vec<u16>), i32> {
        let mut below_threat: Vec<u16> = Vec::new();
        if !self.freestyle {
            return Ok((None, below_threat));
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let threat = self.board.threat(&self.pos, you, &mut scratch);
        self.scratch = scratch;
        if let Threat::Double(_) = threat {
            return Err(value::loss_to_reply(self.cells, n));
        }
        if self.gravity && self.board.has_threat_window(you) {
            let mut cells = std::mem::take(&mut self.cells_scratch);
            self.board.threat_cell_list(&self.pos, you, &mut cells);
            below_threat.extend(cells.iter().copied());
            self.cells_scratch = cells;
        }
        Ok((threat.first(), below_threat))
    }

    /// A node past its first shortcuts: its moves listed into `moves`, its window narrowed by
    /// the bounds, then its moves searched. The block `forced` (with the opponent's winning
    /// cells under gravity) is the only move when there is one.
    #[inline]
    fn search_node(
        &mut self,
        node: Node,
        moves: &mut Vec<(Move, i32)>,
        (forced, below_threat): (Option<Move>, &[u16]),
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let hash = self.pos.canonical_hash();
        let hit = self.table.probe(hash, 0);
        // The hash is shared with mirror images, so the stored move may not be legal here.
        let tt_move = hit.as_ref().and_then(|h| h.mv).filter(|&m| self.pos.is_legal(m));
        // Moves, before any bound: a bound assumes a move that does not lose at once exists.
        if let Some(v) = self.list_moves(moves, node, forced, below_threat, tt_move, beta) {
            return v;
        }
        let (alpha, beta) = match self.window(node, hit, alpha, beta) {
            Ok(w) => w,
            Err(v) => return v,
        };
        if node.breakable && beta <= 0 && self.held_after_a_reply(moves, node.me) {
            return 0;
        }
        self.search_moves(node, moves, alpha, beta, hash)
    }

    /// The node's moves, best first, into `moves`: the block alone when there is one, else
    /// every move but those that hand the opponent a win under gravity and dead cells, ordered
    /// by the table's move, then by the threats they make and block (where a draw is enough,
    /// `beta <= 0`, by the opponent's lines they break). Some(the node's value) when no move is
    /// left or the block loses.
    #[inline]
    fn list_moves(
        &mut self,
        moves: &mut Vec<(Move, i32)>,
        node: Node,
        forced: Option<Move>,
        below_threat: &[u16],
        tt_move: Option<Move>,
        beta: i32,
    ) -> Option<i32> {
        moves.clear();
        let h = self.pos.variant().grid().map_or(6, |r| r.height() as usize);
        // Under gravity, a stone right below an opponent's winning cell hands it over.
        let hands_over = |cell: usize| cell % h + 1 < h && below_threat.contains(&((cell + 1) as u16));
        if let Some(m) = forced {
            // Under gravity the block may open the cell above it to another winning stone.
            if self.gravity && hands_over(self.pos.move_cell(m)) {
                return Some(value::loss_to_reply(self.cells, node.n));
            }
            moves.push((m, 0));
            return None;
        }
        // Where a draw is enough (beta <= 0), only the opponent's lines matter.
        let blocking = node.breakable && beta <= 0;
        let you = node.me.other();
        self.pos.legal_moves(&mut self.scratch);
        for i in 0..self.scratch.len() {
            let m = self.scratch[i];
            let cell = self.pos.move_cell(m);
            if self.gravity && hands_over(cell) {
                continue;
            }
            if self.freestyle && !self.gravity && !self.board.is_live(cell) {
                continue;
            }
            let mut score = if blocking {
                // Only a loss is to be avoided here: block as the Erdős–Selfridge breaker does.
                let pot = self.board.potential_through(you, cell) as i64;
                // The weight 128 was chosen on 5,5,4 ... 6,6,5 and a 7,7,5 position: larger
                // weights help draws (6,6,5: 32 k nodes unweighted, 818 here) and cost wins
                // more (6,6,4 weak: 114 k nodes unweighted, 581 k here, 2.4 M at 1024).
                (pot * 128 + window_move_score(&self.pos, &self.board, m) as i64).clamp(-(1 << 29), 1 << 29) as i32
            } else {
                window_move_score(&self.pos, &self.board, m)
            };
            if Some(m) == tt_move {
                score = i32::MAX;
            }
            moves.push((m, score));
        }
        if moves.is_empty() {
            // Every move under gravity hands over a win; with free placement only dead
            // cells are left, where nobody can make a line.
            return Some(if self.gravity { value::loss_to_reply(self.cells, node.n) } else { 0 });
        }
        moves.sort_by_key(|e| std::cmp::Reverse(e.1));
        None
    }

    /// The window (`alpha`, `beta`) narrowed to what the node can be worth: the moves left,
    /// lines dead or breakable (Erdős–Selfridge), a pairing against the opponent where a draw
    /// is enough, and the table's bound. Err with the node's value when that settles it.
    #[inline]
    fn window(&mut self, node: Node, hit: Option<TtHit>, mut alpha: i32, mut beta: i32) -> Result<(i32, i32), i32> {
        let (n, me, you) = (node.n, node.me, node.me.other());
        let mut min = if self.freestyle { -(self.cells - 2 - n) / 2 } else { value::loss_to_reply(self.cells, n) };
        let mut max = (self.cells - 1 - n) / 2;
        let (mut mine_dead, mut yours_dead) = (self.board.open_windows(me) == 0, self.board.open_windows(you) == 0);
        if !self.gravity && self.breaker_bounds {
            // With free placement, lines the other side can all stop (Erdős–Selfridge) are as
            // good as gone: the bound needs no search below this node.
            mine_dead |= self.board.lines_breakable(me, true);
            yours_dead |= self.board.lines_breakable(you, false);
            // Where a draw is enough, a pairing against the opponent's lines proves it.
            if !yours_dead
                && beta <= 0
                && !node.opponent_unpaired
                && self.pairing.is_some()
                && self.against_rate.worth_it()
            {
                let held = self.paired(you);
                self.against_rate.record(held);
                if held {
                    self.zone = Some(self.last_pairing);
                    return Err(0);
                }
            }
        }
        if mine_dead && yours_dead {
            return Err(0);
        }
        if mine_dead {
            max = max.min(0);
        }
        if yours_dead {
            min = min.max(0);
        }
        if let Some(hit) = hit {
            match hit.bound {
                Bound::Exact => return Err(hit.value),
                Bound::Lower => min = min.max(hit.value),
                Bound::Upper => max = max.min(hit.value),
            }
        }
        alpha = alpha.max(min);
        beta = beta.min(max);
        if alpha >= beta {
            return Err(alpha);
        }
        Ok((alpha, beta))
    }

    /// Where a draw is enough: true when one of the first replies leaves the opponent held
    /// by a pairing, which ends the node at 0 without a search below it (the test is cheap
    /// next to a wrong first try); the node's zone is then set.
    #[inline]
    fn held_after_a_reply(&mut self, moves: &[(Move, i32)], me: Player) -> bool {
        if self.pairing.is_none() || self.lookahead == 0 || !self.lookahead_rate.worth_it() {
            return false;
        }
        let mut held_by = None;
        for &(m, _) in moves.iter().take(self.lookahead) {
            let cell = self.pos.move_cell(m);
            self.pos.play(m);
            self.board.play(cell, me);
            let held =
                self.pos.status() == Status::Ongoing && self.immediate_win().is_none() && self.paired(me.other());
            self.board.undo(cell, me);
            self.pos.undo();
            if held {
                held_by = Some(cell);
                break;
            }
        }
        self.lookahead_rate.record(held_by.is_some());
        let Some(cell) = held_by else { return false };
        self.zone = Some(self.last_pairing | 1u128 << cell);
        true
    }

    /// The node's moves searched in order within (`alpha`, `beta`), its value stored in the
    /// table and its zone set. A move outside the zone of a reply's pairing, or after which
    /// the side to move's lines are breakable, cannot raise an `alpha` of 0 or more.
    #[inline]
    fn search_moves(&mut self, node: Node, moves: &[(Move, i32)], mut alpha: i32, beta: i32, hash: u64) -> i32 {
        let me = node.me;
        let alpha0 = alpha;
        let mut best = i32::MIN;
        let mut best_move = None;
        // Zones of the moves refuted by a pairing (see `zone`), and this node's own zone.
        let mut zones: [u128; 4] = [0; 4];
        let mut zone_count = 0;
        let mut my_zone = None;
        for &(m, _) in moves {
            let cell = self.pos.move_cell(m);
            let outside_a_zone = zones[..zone_count].iter().any(|z| z & (1u128 << cell) == 0);
            if node.breakable && alpha >= 0 && (outside_a_zone || self.board.breakable_after(me, cell)) {
                // This move's value is at most 0 <= alpha: it cannot raise alpha.
                if best < 0 {
                    best = 0;
                    best_move = best_move.or(Some(m));
                }
                continue;
            }
            self.pos.play(m);
            self.board.play(cell, me);
            self.unpaired = node.me_unpaired;
            let score = -self.negamax(node.ply + 1, -beta, -alpha);
            let child_zone = self.zone.take();
            self.board.undo(cell, me);
            self.pos.undo();
            if self.aborted {
                return 0;
            }
            if let Some(z) = child_zone {
                if alpha >= 0 && score <= 0 && zone_count < zones.len() {
                    // The maker's move failed against a pairing: so do its moves outside it.
                    zones[zone_count] = z;
                    zone_count += 1;
                } else if beta <= 0 && score >= beta {
                    // This reply holds the maker to a pairing: the zone includes the reply.
                    my_zone = Some(z | 1u128 << cell);
                }
            }
            if score > best {
                best = score;
                best_move = Some(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best <= alpha0 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.table.store(hash, 0, best, bound, 0, best_move);
        self.zone = if best >= beta { my_zone } else { None };
        best
    }

    /// The value by null-window bisection (Pons' convention); with `weak`, its sign only.
    /// Returns the bounds proved: equal when solved.
    pub fn solve(&mut self, weak: bool, deadline: Option<Instant>, stop: Option<Arc<AtomicBool>>) -> (i32, i32) {
        self.solve_at_least(weak, None, deadline, stop)
    }

    /// [`GenericSolver::solve`] of a position whose value is known to be at least `floor` (a
    /// child of a solved position: at least minus the parent's value): the bisection starts
    /// from that bound, skipping the probes below it.
    pub fn solve_at_least(
        &mut self,
        weak: bool,
        floor: Option<i32>,
        deadline: Option<Instant>,
        stop: Option<Arc<AtomicBool>>,
    ) -> (i32, i32) {
        self.solve_between(weak, (floor, None), deadline, stop)
    }

    /// [`GenericSolver::solve`] of a position whose value is known to lie within `known`
    /// (either end may be open): a child of a solved position (at least minus the parent's
    /// value), or one whose sign another method proved (a win is at least 1, a loss at most
    /// -1). The bisection skips the probes outside it.
    pub fn solve_between(
        &mut self,
        weak: bool,
        known: (Option<i32>, Option<i32>),
        deadline: Option<Instant>,
        stop: Option<Arc<AtomicBool>>,
    ) -> (i32, i32) {
        self.resume(deadline, stop);
        let n = self.pos.ply() as i32;
        // A finished game's value is its result (distance 0), as `Solution::finished` gives it.
        if let Some(v) = self.finished_value() {
            let v = if weak { v.signum() } else { v };
            return (v, v);
        }
        if self.immediate_win().is_some() {
            let v = value::win_now(self.cells, n);
            return if weak { (1, 1) } else { (v, v) };
        }
        let (mut min, max) = value::value_range(self.cells, n, weak);
        if n == 0 && self.freestyle && !self.gravity && self.breaker_bounds {
            // Strategy stealing: with free placement and K or more in a row, an extra stone
            // never hurts, so the first player cannot lose from the empty board.
            min = 0;
        }
        let (floor, ceiling) = known;
        let min = floor.map_or(min, |f| f.clamp(min, max));
        let max = ceiling.map_or(max, |c| c.clamp(min, max));
        let gauge = self.gauge.clone();
        super::bisect_gauged(min, max, weak, gauge.as_deref(), |a, c| {
            let r = self.negamax(0, a, c);
            (!self.aborted).then_some(r)
        })
    }

    /// The value of a finished position for its side to move, in Pons' convention (the side
    /// that just moved won with its last stone: a loss for the side to move; a draw is 0), or
    /// None while the game goes on.
    #[inline(always)]
    fn finished_value(&self) -> Option<i32> {
        match self.pos.status() {
            Status::Win(_) => Some(value::lost(self.cells, self.pos.ply() as i32)),
            Status::Draw => Some(0),
            Status::Ongoing => None,
        }
    }

    /// Searches from now on end at `deadline` or when `stop` is set (a search that ended
    /// before, aborted, leaves its flag and clock behind: a race's stop flag, say).
    pub fn resume(&mut self, deadline: Option<Instant>, stop: Option<Arc<AtomicBool>>) {
        self.deadline = deadline;
        self.stop = stop;
        self.aborted = false;
    }

    /// A move that keeps the proven value.
    pub fn best_move(&mut self, value: i32, weak: bool) -> Option<Move> {
        if let Some(m) = self.immediate_win() {
            return Some(m);
        }
        let me = self.pos.side_to_move();
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves);
        moves.sort_by_key(|&m| std::cmp::Reverse(window_move_score(&self.pos, &self.board, m)));
        let target = if weak { value.signum() } else { value };
        for &m in &moves {
            let cell = self.pos.move_cell(m);
            self.pos.play(m);
            self.board.play(cell, me);
            // Our value >= target  <=>  the child's value <= -target.
            let r = if weak {
                let (lo, hi) = self.solve(true, self.deadline, self.stop.clone());
                if lo == hi { -lo } else { i32::MIN }
            } else {
                -self.negamax(1, -target, -target + 1)
            };
            self.board.undo(cell, me);
            self.pos.undo();
            if self.aborted {
                break;
            }
            if r >= target {
                return Some(m);
            }
        }
        moves.first().copied()
    }

    /// The bounds of the position after `m` (for its side to move), keeping the table: the
    /// proof of the position before usually leaves most of the work done.
    pub fn solve_after(
        &mut self,
        m: Move,
        weak: bool,
        known: (Option<i32>, Option<i32>),
        deadline: Option<Instant>,
        stop: Option<Arc<AtomicBool>>,
    ) -> (i32, i32) {
        let me = self.pos.side_to_move();
        let cell = self.pos.move_cell(m);
        self.pos.play(m);
        self.board.play(cell, me);
        let r = self.solve_between(weak, known, deadline, stop);
        self.board.undo(cell, me);
        self.pos.undo();
        r
    }

    pub fn position(&self) -> &P {
        &self.pos
    }
}

/// How often a pairing test succeeded lately, to skip most of one that rarely does. Where the
/// opponent is winning (the strong solve of a won board probes many such nodes) a failed
/// search costs its whole step budget: mnk:6,6,4 strong took 0.42 s with every test and
/// 0.19 s with none. Below `FLOOR` one node in `SAMPLE` still tests, to notice a change.
/// Deterministic (no clock), so node counts stay reproducible.
#[derive(Clone, Copy, Debug)]
pub(super) struct HitRate {
    /// A moving average of successes over about 64 tests.
    rate: f32,
    skipped: u32,
}

impl Default for HitRate {
    fn default() -> Self {
        HitRate { rate: 1.0, skipped: 0 }
    }
}

impl HitRate {
    const FLOOR: f32 = 0.05;
    const SAMPLE: u32 = 16;

    pub(super) fn worth_it(&mut self) -> bool {
        if self.rate >= Self::FLOOR {
            return true;
        }
        self.skipped = self.skipped.wrapping_add(1);
        self.skipped.is_multiple_of(Self::SAMPLE)
    }

    pub(super) fn record(&mut self, hit: bool) {
        self.rate += (hit as u8 as f32 - self.rate) / 64.0;
    }
}

#[cfg(test)]
mod hit_rate_tests {
    use super::HitRate;

    #[test]
    fn a_test_that_keeps_failing_is_sampled_and_comes_back_when_it_succeeds() {
        let mut r = HitRate::default();
        // At first every node tests.
        assert!((0..10).all(|_| r.worth_it()));
        for _ in 0..400 {
            r.record(false);
        }
        let tested = (0..160).filter(|_| r.worth_it()).count();
        assert_eq!(tested, 160 / HitRate::SAMPLE as usize);
        // Successes in the sampled tests raise the rate past the floor again.
        for _ in 0..10 {
            r.record(true);
        }
        assert!((0..10).all(|_| r.worth_it()));
    }
}

#[cfg(test)]
mod finished_tests {
    use super::GenericSolver;
    use crate::game::{AnyPosition, Move, Position, Status, Variant};
    use crate::search::solver::Solution;
    use crate::with_position;

    /// On a finished game every entry point gives the game's result as the value (distance
    /// 0), the value `Solution::finished` and the `solve` command give: a won position was
    /// called a draw, and `solve_after` a winning move gave (i32::MIN, i32::MIN).
    #[test]
    fn a_finished_game_is_valued_as_its_result() {
        for (game, moves, last) in [
            ("tictactoe", "a1 b1 a2 b2", "a3"),
            ("mnk:4,4,3", "a1 b1 a2 b2", "a3"),
            ("tictactoe", "a1 b2 c3 a2 c2 c1 a3 b3", "b1"),
        ] {
            let variant: Variant = game.parse().unwrap();
            let before = AnyPosition::from_moves(variant, moves).unwrap();
            let mut after = before.clone();
            after.play_sequence(last).unwrap();
            assert!(after.status().is_over(), "{game} {moves} {last}");
            let cells = with_position!(&after, p => p.max_game_length()) as i32;
            let want = Solution::finished(after.status(), cells, after.ply() as i32, false).lower;
            let (solved, weak) = with_position!(&after, p => {
                let mut s = GenericSolver::new(p, 1);
                (s.solve(false, None, None), s.solve(true, None, None))
            });
            assert_eq!(solved, (want, want), "{game}");
            assert_eq!(weak, (want.signum(), want.signum()), "{game}");
            match after.status() {
                Status::Win(_) => assert!(want < 0, "a loss for the side to move"),
                _ => assert_eq!(want, 0),
            }
            // From the position before: the move that ends the game.
            let m: Move = before.parse_move(last).unwrap();
            let r =
                with_position!(&before, p => GenericSolver::new(p, 1).solve_after(m, false, (None, None), None, None));
            assert_eq!(r, (want, want), "{game}: solve_after the last move");
        }
    }
}
