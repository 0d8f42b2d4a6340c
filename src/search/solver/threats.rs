//! Threat-space search: proves that a player (the attacker) wins by a sequence of threats,
//! after Allis' threat-space search for gomoku. The attacker plays only moves that threaten:
//! a "four" (a window one stone short of a line, which must be blocked at once) or a "three"
//! (a move after which the attacker has a move making two fours at once). The defender is
//! given every reply that does not lose at once: for a four, its one block; for a three,
//! every cell that spoils all of the attacker's double-four moves, and every move making a
//! four of its own (a counter-threat the attacker must answer).
//!
//! This is the sound AND/OR form of the idea, not Allis' single-agent search with the defender
//! taking all cost squares at once and a verification afterwards: every step is a real move
//! and every defender reply left out provably loses within three plies, so a win found is a
//! win. A failure proves nothing (a quiet move may still win). Free placement with the
//! K-or-more rule only: under the exactly-K rule a "four" may be an overline that does not
//! win, and under gravity a block may not be playable.
//!
//! Depth counts the attacker's moves, threats and the blocks it is forced to make (the final
//! winning move, and the one after a three no reply stops, are free). Results are kept
//! in a table keyed by the symmetric hash: wins for good, failures with their depth.

use std::collections::HashMap;
use std::time::Instant;

use crate::eval::EvalBoard;
use crate::game::{Player, Position};

/// Does threat-space search apply to this position's rules?
pub fn threats_apply<P: Position>(pos: &P) -> bool {
    !pos.variant().has_gravity() && pos.variant().grid().is_some_and(|r| !r.exact())
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    win: bool,
    /// For a failure: the depth it was searched to. For a win at the attacker's turn: the
    /// winning move's cell (for the line shown to a user).
    depth: u8,
    cell: u16,
    /// The low bits of the plain hash of the position `cell` was found in. The table's key is
    /// the same for a position's mirror images, and `cell` is a cell of the one it was found
    /// in: in another, the winning cell is found again (see [`ThreatSearch::winning_cell`]).
    orient: u32,
}

/// A threat-space searcher with its table; reusable across positions of one game.
#[derive(Debug, Default)]
pub struct ThreatSearch {
    table: HashMap<u64, Entry>,
    /// Nodes visited over the searcher's life.
    pub nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    /// The node count at which the clock is read next.
    next_check: u64,
    /// Failures are not stored past this many entries (wins always are: the line is read
    /// from them), which bounds the table's memory. 0: no limit.
    max_entries: usize,
    aborted: bool,
    scratch: Vec<u16>,
    /// When set, the attacker's only threats besides fours (forced blocks are still played): the
    /// verification of a plan found by [`super::DbSearch`]. Failures then say nothing of the
    /// position, so a restricted searcher is used for one plan and dropped.
    only: Option<Vec<u16>>,
    /// The attacker's threats are fours alone (and the blocks it is forced to make): victory
    /// by continuous fours. Its results are kept apart from those with threes (a failure
    /// without threes says nothing of a search with them). Set by [`Self::set_fours_only`].
    fours_only: bool,
}

/// What one search found, for a user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatWin {
    /// The attacker's moves and the defender's first reply after each, as cells with what
    /// each move does, from the attacker's first move to its winning move.
    pub line: Vec<(usize, Role)>,
    /// The line stops short of the winning move because no reply of the defender stops
    /// every move making two fours (a double three, say): which one to show is arbitrary.
    pub every_reply_loses: bool,
}

/// What a move of a threat line does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The attacker's move leaving one cell to complete a line.
    Four,
    /// The attacker's move leaving two or more such cells.
    DoubleFour,
    /// The attacker's move after which it has a move making two fours.
    Three,
    /// A move on the cell the other side would complete a line on.
    Block,
    /// The attacker's forced block, which also makes a four.
    BlockAndFour,
    /// The defender's move making a four of its own, which the attacker must block.
    CounterFour,
    /// The defender's move stopping a three.
    Stop,
    /// The attacker's move completing a line.
    Win,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Four => "four",
            Role::DoubleFour => "double four",
            Role::Three => "three",
            Role::Block => "block",
            Role::BlockAndFour => "block and four",
            Role::CounterFour => "counter-four",
            Role::Stop => "stops the three",
            Role::Win => "line",
        }
    }
}

/// The attacker's open-window picture of a position (defender to move, no attacker four).
struct Picture {
    /// Cells where one attacker stone makes two or more fours (distinct winning cells).
    double_fours: Vec<u16>,
    /// Windows with K-2 attacker stones, no defender stone: their two empty cells.
    warm: Vec<[u16; 2]>,
}

impl ThreatSearch {
    /// A table entry's bytes: key and value, and the hash map's control byte.
    pub const ENTRY_BYTES: usize = std::mem::size_of::<(u64, Entry)>() + 1;

    /// A searcher giving up a search after `budget` nodes (0: no limit).
    pub fn new(budget: u64) -> ThreatSearch {
        ThreatSearch { budget, ..ThreatSearch::default() }
    }

    /// Each later search looks for a win by fours alone (victory by continuous fours), or by
    /// fours and threes.
    pub fn set_fours_only(&mut self, fours_only: bool) {
        self.fours_only = fours_only;
    }

    /// Gives up each later search after `budget` nodes (0: no limit) or at `deadline`.
    pub fn set_limits(&mut self, budget: u64, deadline: Option<Instant>) {
        self.budget = budget;
        self.deadline = deadline;
    }

    /// The same searcher, giving up at `deadline` (checked every 1,024 nodes).
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> ThreatSearch {
        self.deadline = deadline;
        self
    }

    /// The same searcher, its table held to about `mb` MiB: past that, failures are no longer
    /// remembered (wins still are; there are few).
    pub fn with_table_mb(mut self, mb: usize) -> ThreatSearch {
        // A hash map holds up to 7/8 of its buckets, a power of two: 7/16 of the entries that
        // fit keeps the buckets, and so the allocation, within the bound.
        self.max_entries = ((mb << 20) / Self::ENTRY_BYTES * 7 / 16).max(1);
        self
    }

    /// The same searcher, its attacker playing no three outside `cells` (fours and forced
    /// blocks it still plays): the sound check of a plan. Use it for that plan only, as its failures
    /// hold for the restriction, not for the position.
    pub fn restricted_to(mut self, cells: Vec<u16>) -> ThreatSearch {
        self.only = Some(cells);
        self
    }

    /// The table's memory as allocated, in bytes.
    pub fn table_bytes(&self) -> u64 {
        (self.table.capacity() * Self::ENTRY_BYTES) as u64
    }

    fn remember_failure(&mut self, key: u64, depth: u8) {
        if !self.aborted && (self.max_entries == 0 || self.table.len() < self.max_entries) {
            self.table.insert(key, Entry { win: false, depth, cell: 0, orient: 0 });
        }
    }

    /// Does `attacker` win by threats from `pos`, with at most `depth` attacker moves (threats and forced blocks)? The side
    /// to move may be either player: when it is the defender, the attacker's threat already
    /// on the board must be answered. `board` holds `pos`'s window counts and was built
    /// [`EvalBoard::with_near_windows`]; both are restored.
    pub fn wins<P: Position>(&mut self, pos: &mut P, board: &mut EvalBoard, attacker: Player, depth: u32) -> bool {
        debug_assert!(threats_apply(pos));
        assert!(board.has_near_windows(), "threat-space search needs EvalBoard::with_near_windows");
        if pos.status().is_over() {
            return false;
        }
        self.aborted = false;
        let start = self.nodes;
        let limit = if self.budget == 0 { u64::MAX } else { start + self.budget };
        let depth = depth.min(u8::MAX as u32) as u8;
        if pos.side_to_move() == attacker {
            self.attack(pos, board, attacker, depth, limit)
        } else {
            self.defend(pos, board, attacker, depth, limit)
        }
    }

    /// [`ThreatSearch::wins`] with the attacker to move, and the line found: the attacker's
    /// moves and, after each, the defender's first reply in the order searched.
    pub fn winning_line<P: Position>(
        &mut self,
        pos: &mut P,
        board: &mut EvalBoard,
        attacker: Player,
        depth: u32,
    ) -> Option<ThreatWin> {
        if pos.side_to_move() != attacker || !self.wins(pos, board, attacker, depth) {
            return None;
        }
        let mut line = Vec::new();
        let mut every_reply_loses = false;
        let mut played = 0;
        let defender = attacker.other();
        loop {
            let me = pos.side_to_move();
            let (cell, role) = if me == attacker {
                if let Some(c) = self.immediate(pos, board, attacker) {
                    line.push((c, Role::Win));
                    break;
                }
                let forced = board.has_threat_window(defender);
                let role = if forced { Role::Block } else { Role::Three };
                match self.table.get(&self.key(pos, attacker)).copied() {
                    Some(e) if e.win && e.orient == pos.hash() as u32 => (e.cell as usize, role),
                    Some(e) if e.win => match self.winning_cell(pos, board, attacker) {
                        Some(cell) => (cell, role),
                        None => break,
                    },
                    _ => break,
                }
            } else {
                let (replies, won) = self.replies(pos, board, attacker);
                let blocking = board.has_threat_window(attacker);
                match replies.first() {
                    Some(&c) => (c as usize, if blocking { Role::Block } else { Role::Stop }),
                    // Two fours: the defender blocks one (the first found) and loses to the other.
                    None if won => match self.immediate(pos, board, attacker) {
                        Some(c) => (c, Role::Block),
                        None => {
                            every_reply_loses = true;
                            break;
                        }
                    },
                    None => break,
                }
            };
            let Some(m) = pos.cell_move(cell) else { break };
            pos.play(m);
            board.play(cell, me);
            played += 1;
            // What the move made, seen on the board after it.
            let role = match role {
                Role::Three | Role::Block if me == attacker => {
                    self.scratch.clear();
                    board.threat_cell_list(pos, attacker, &mut self.scratch);
                    match (role, self.scratch.len()) {
                        (Role::Block, 0) => Role::Block,
                        (Role::Block, _) => Role::BlockAndFour,
                        (_, 0) => Role::Three,
                        (_, 1) => Role::Four,
                        _ => Role::DoubleFour,
                    }
                }
                Role::Stop if board.has_threat_window(defender) => Role::CounterFour,
                r => r,
            };
            line.push((cell, role));
        }
        for _ in 0..played {
            let m = *pos.history().last().expect("played above");
            let cell = pos.move_cell(m);
            pos.undo();
            board.undo(cell, pos.side_to_move());
        }
        Some(ThreatWin { line, every_reply_loses })
    }

    /// The attacker's winning cell (attacker to move) when the table's win for this position
    /// was found in a mirror image of it: the move whose reply position the table holds as
    /// won (or that makes two fours), from the moves the search tries there.
    fn winning_cell<P: Position>(&mut self, pos: &mut P, board: &mut EvalBoard, attacker: Player) -> Option<usize> {
        let mut blocks = Vec::new();
        board.threat_cell_list(pos, attacker.other(), &mut blocks);
        attacker_moves(pos, board, attacker, blocks.first().copied(), self.fours_only)
            .into_iter()
            .map(|c| c as usize)
            .find(|&cell| {
                let Some(m) = pos.cell_move(cell) else { return false };
                pos.play(m);
                board.play(cell, attacker);
                let won = self.table.get(&self.key(pos, attacker)).is_some_and(|e| e.win)
                    || self.replies(pos, board, attacker).1;
                board.undo(cell, attacker);
                pos.undo();
                won
            })
    }

    /// Empties the table once it holds more than `entries` (it only saves work).
    pub fn shrink_past(&mut self, entries: usize) {
        if self.table.len() > entries {
            self.table.clear();
        }
    }

    /// Was the last search cut short by the node budget or the deadline?
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The attacker's winning cell if it has one and is to move.
    fn immediate<P: Position>(&mut self, pos: &P, board: &EvalBoard, attacker: Player) -> Option<usize> {
        if !board.has_threat_window(attacker) {
            return None;
        }
        board.threat_cell_list(pos, attacker, &mut self.scratch);
        self.scratch.first().map(|&c| c as usize)
    }

    fn key<P: Position>(&self, pos: &P, attacker: Player) -> u64 {
        // The same position asks a different question for each attacker, and for fours only.
        pos.canonical_hash()
            ^ if attacker == Player::First { 0 } else { 0x9e37_79b9_7f4a_7c15 }
            ^ if self.fours_only { 0x5851_f42d_4c95_7f2d } else { 0 }
    }

    /// What the table says of a position searched to `depth`: a win found at any depth holds;
    /// a failure holds only if searched at least as deep.
    fn known(&self, key: u64, depth: u8) -> Option<bool> {
        self.table.get(&key).filter(|e| e.win || e.depth >= depth).map(|e| e.win)
    }

    /// Attacker to move.
    fn attack<P: Position>(
        &mut self,
        pos: &mut P,
        board: &mut EvalBoard,
        attacker: Player,
        depth: u8,
        limit: u64,
    ) -> bool {
        // The budget is exact: a node past it is not entered (its caller's search gives up).
        if self.nodes >= limit {
            self.aborted = true;
            return false;
        }
        self.nodes += 1;
        if board.has_threat_window(attacker) {
            return true;
        }
        let defender = attacker.other();
        let mut blocks = std::mem::take(&mut self.scratch);
        board.threat_cell_list(pos, defender, &mut blocks);
        let forced = blocks.first().copied();
        let too_many = blocks.len() >= 2;
        self.scratch = blocks;
        if too_many || depth == 0 {
            return false;
        }
        if self.nodes >= limit {
            self.aborted = true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 1024;
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
        }
        if self.aborted {
            return false;
        }
        let key = self.key(pos, attacker);
        if let Some(known) = self.known(key, depth) {
            return known;
        }
        let mut candidates = attacker_moves(pos, board, attacker, forced, self.fours_only);
        if let (None, Some(only)) = (forced, &self.only) {
            // The plan's moves, and any four (one reply: it cannot widen the tree).
            let table = board.table();
            let fours: Vec<u16> = board
                .near_windows(attacker, 2)
                .iter()
                .flat_map(|&w| table.cells_of(w as usize).iter().copied())
                .collect();
            candidates.retain(|c| only.contains(c) || fours.contains(c));
        }
        for cell in candidates {
            let Some(m) = pos.cell_move(cell as usize) else { continue };
            pos.play(m);
            board.play(cell as usize, attacker);
            let won = self.defend(pos, board, attacker, depth - 1, limit);
            board.undo(cell as usize, attacker);
            pos.undo();
            if won {
                self.table.insert(key, Entry { win: true, depth, cell, orient: pos.hash() as u32 });
                return true;
            }
        }
        self.remember_failure(key, depth);
        false
    }

    /// Defender to move, after the attacker's move.
    fn defend<P: Position>(
        &mut self,
        pos: &mut P,
        board: &mut EvalBoard,
        attacker: Player,
        depth: u8,
        limit: u64,
    ) -> bool {
        // The budget is exact: a node past it is not entered (its caller's search gives up).
        if self.nodes >= limit {
            self.aborted = true;
            return false;
        }
        self.nodes += 1;
        let defender = attacker.other();
        if pos.status().is_over() || board.has_threat_window(defender) {
            // A full board, or the defender completes a line now.
            return false;
        }
        let (replies, won) = self.replies(pos, board, attacker);
        if won {
            return true;
        }
        if replies.is_empty() {
            // No threat on the board: the defender may play anything.
            return false;
        }
        let key = self.key(pos, attacker);
        if let Some(known) = self.known(key, depth) {
            return known;
        }
        for cell in replies {
            let Some(m) = pos.cell_move(cell as usize) else { continue };
            pos.play(m);
            board.play(cell as usize, defender);
            let won = self.attack(pos, board, attacker, depth, limit);
            board.undo(cell as usize, defender);
            pos.undo();
            if !won {
                self.remember_failure(key, depth);
                return false;
            }
        }
        self.table.insert(key, Entry { win: true, depth, cell: 0, orient: 0 });
        true
    }

    /// The defender's replies that do not lose at once (defender to move, with no line of its
    /// own to complete), and whether the attacker has already won (two fours: the defender
    /// blocks one, the attacker completes the other). No replies: nothing is threatened.
    fn replies<P: Position>(&mut self, pos: &P, board: &EvalBoard, attacker: Player) -> (Vec<u16>, bool) {
        let mut fours = std::mem::take(&mut self.scratch);
        board.threat_cell_list(pos, attacker, &mut fours);
        let answer = match fours.len() {
            0 => None,
            1 => Some((vec![fours[0]], false)),
            _ => Some((Vec::new(), true)),
        };
        self.scratch = fours;
        if let Some(a) = answer {
            return a;
        }
        let picture = picture(pos, board, attacker);
        if picture.double_fours.is_empty() {
            return (Vec::new(), false);
        }
        // A stone on a cell of no warm window leaves every double four in place; one on a warm
        // window's cell kills that window. A reply spoils when no double four is left.
        let mut replies: Vec<u16> = Vec::new();
        for w in &picture.warm {
            for &c in w {
                if !replies.contains(&c) && double_fours_without(&picture.warm, c).is_empty() {
                    replies.push(c);
                }
            }
        }
        // Counter-fours: the attacker must block them before it plays its double four.
        let table = board.table();
        for &w in board.near_windows(attacker.other(), 2) {
            for &cell in table.cells_of(w as usize) {
                if pos.stone_on(cell as usize).is_none() && !replies.contains(&cell) {
                    replies.push(cell);
                }
            }
        }
        if replies.is_empty() {
            // Nothing spoils the double fours and no counter-four exists: lost.
            return (Vec::new(), true);
        }
        (replies, false)
    }
}

/// The attacker's warm windows (K-2 stones, no defender stone) and its double-four cells.
fn picture<P: Position>(pos: &P, board: &EvalBoard, attacker: Player) -> Picture {
    let table = board.table();
    let mut warm = Vec::new();
    for &w in board.near_windows(attacker, 2) {
        let mut empty = table.cells_of(w as usize).iter().copied().filter(|&c| pos.stone_on(c as usize).is_none());
        if let (Some(a), Some(b)) = (empty.next(), empty.next()) {
            warm.push([a, b]);
        }
    }
    let double_fours = double_fours_without(&warm, u16::MAX);
    Picture { double_fours, warm }
}

/// Cells where an attacker stone completes two warm windows to fours with distinct winning
/// cells, ignoring warm windows through `blocked` (a defender stone there).
fn double_fours_without(warm: &[[u16; 2]], blocked: u16) -> Vec<u16> {
    // cell -> its first partner; a second, different partner makes it a double four.
    let mut first: Vec<(u16, u16)> = Vec::new();
    let mut doubles: Vec<u16> = Vec::new();
    for w in warm {
        if w.contains(&blocked) {
            continue;
        }
        for (x, y) in [(w[0], w[1]), (w[1], w[0])] {
            match first.iter().find(|(c, _)| *c == x) {
                None => first.push((x, y)),
                Some(&(_, p)) if p != y && !doubles.contains(&x) => doubles.push(x),
                Some(_) => {}
            }
        }
    }
    doubles
}

/// The attacker's moves to try: the cell that blocks the defender's four (`forced`) if it has
/// one, since any other move loses, else its threat moves.
fn attacker_moves<P: Position>(
    pos: &P,
    board: &EvalBoard,
    attacker: Player,
    forced: Option<u16>,
    fours_only: bool,
) -> Vec<u16> {
    match forced {
        Some(c) => vec![c],
        None => threat_candidates(pos, board, attacker, fours_only),
    }
}

/// The attacker's moves that may threaten (no defender four on the board): cells of windows
/// that would hold K-2 or more attacker stones and no defender stone. Fours first (they leave
/// the defender one reply), then by how many such windows a cell lies on.
fn threat_candidates<P: Position>(pos: &P, board: &EvalBoard, attacker: Player, fours_only: bool) -> Vec<u16> {
    let table = board.table();
    let mut scored: Vec<(u16, u32)> = Vec::new();
    let fours = board.near_windows(attacker, 2).iter().map(|&w| (w, 1000));
    // Victory by continuous fours: no move that only makes a three.
    let three_windows: &[u32] = if fours_only { &[] } else { board.near_windows(attacker, 3) };
    let threes = three_windows.iter().map(|&w| (w, 1));
    // A four scores far above any count of threes.
    for (w, weight) in fours.chain(threes) {
        for &cell in table.cells_of(w as usize) {
            if pos.stone_on(cell as usize).is_some() {
                continue;
            }
            match scored.iter_mut().find(|(c, _)| *c == cell) {
                Some(e) => e.1 += weight,
                None => scored.push((cell, weight)),
            }
        }
    }
    scored.sort_by_key(|&(cell, score)| (std::cmp::Reverse(score), cell));
    scored.into_iter().map(|(c, _)| c).collect()
}
