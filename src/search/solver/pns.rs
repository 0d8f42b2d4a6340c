//! Proof-number search (Allis, 1994): proves or disproves "this player wins" by always
//! expanding a most-proving node, the leaf whose solution would change the root's proof and
//! disproof numbers most cheaply. It finds narrow proofs that a depth-first search meets only
//! by luck of ordering, and suits the draw proofs of free-placement boards, where the defender
//! needs one good reply at each of its turns.
//!
//! Knowledge at the leaves (each is sound, so a proof stays a proof):
//! - the game's end, an immediate win for the side to move, two immediate wins for the other
//!   side (K or more in a row only: under the exactly-K rule a "threat" may be an overline);
//! - Erdős–Selfridge (free placement): when the potential of the target's open windows is
//!   below the bound, the other side can stop every line, so the target cannot win;
//! - a table of solved positions keyed by the hash shared by symmetric positions;
//! - pairing strategies (free placement, K or more, at most 128 cells; see the pairing
//!   module): when the other side holds a pairing against the target, the target cannot win.
//!   Tested at most nodes while they succeed often enough (the solver's success-rate gate).
//! - threat-space search (free placement, K or more; see the threats module): a short search of
//!   fours and threes for either side, 4 attacker moves and 200 nodes at most, behind the same
//!   kind of gate. A win by threats is a win. On the wide boards of gomoku it is what lets the
//!   search prove a win at all; on the small draw boards it finds wins only where the tree
//!   would have found them cheaply, and costs time (docs/solver.md gives both).
//!
//! Children: the one block when the opponent threatens once; cells on no open window are left
//! out (free placement with K or more: such a cell is a pass, and a pass never helps);
//! the target's moves after which its lines are breakable are left out (they cannot prove).
//!
//! The tree lives in an arena of 16-byte nodes. When the arena is full the tree is dropped and
//! the search starts again from the root, keeping the table of solved positions (what was
//! proved stays proved); it gives up when a whole tree's worth of work solved nothing new.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::generic::HitRate;
use super::pairing::{PairingOutcome, PairingSearch, empty_cells};
use super::threats::{ThreatSearch, threats_apply};
use crate::eval::{EvalBoard, Tactic};
use crate::game::{Move, Player, Position, Status};

const INF: u32 = u32::MAX / 4;

#[derive(Clone, Copy, Debug)]
struct Node {
    mv: Move,
    pn: u32,
    dn: u32,
    /// Index of the first child; children are contiguous.
    first: u32,
    /// Number of children; 0 while unexpanded (or solved at creation).
    count: u16,
}

/// What a proof-number search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProofOutcome {
    /// The player whose win was the question.
    pub target: Player,
    /// Some(true): proved to win; Some(false): proved not to win (draw or loss); None: unknown.
    pub proved: Option<bool>,
    /// Nodes created (evaluated), over all restarts.
    pub nodes: u64,
    /// Nodes expanded.
    pub expansions: u64,
    /// The largest tree held at once, in nodes, and its bytes with the solved-position table.
    pub peak_nodes: u64,
    pub peak_bytes: u64,
    /// Nodes in the proof (or disproof) tree left at the end: at the target's turns one
    /// proving child, at the other's all children up to symmetry (for a disproof, the other way
    /// round).
    /// Positions solved from the table count as one node each.
    pub proof_size: u64,
    /// Leaves solved by threat-space search (a win by threats for either side), and the
    /// leaves where it was tried.
    #[serde(default)]
    pub threat_wins: u64,
    #[serde(default)]
    pub threat_tests: u64,
    /// Nodes the threat-space searches visited (not in `nodes`); their table is in
    /// `peak_bytes`.
    #[serde(default)]
    pub threat_nodes: u64,
    /// The root's move that settles the answer where one move does: the target's winning
    /// move when the target is to move and wins; when the other side is to move and the target
    /// cannot win, a move of the other's that keeps it so. None otherwise, and where the root
    /// was settled without a tree (a win found at once, a position solved before).
    #[serde(default)]
    pub root_move: Option<Move>,
    /// Times the tree was dropped because the arena was full.
    pub restarts: u32,
    /// Seconds.
    pub elapsed: f64,
    /// Why the search ended.
    pub ended: ProofEnd,
}

/// Nodes a proof-number search spends seeking a move for a root its knowledge settled (see
/// [`ProofSearch::run`]); past them the answer stands without a move.
const ROOT_MOVE_NODES: u64 = 100_000;

/// Why a proof-number search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ProofEnd {
    /// The question is answered (proved or disproved).
    Answered,
    /// The deadline passed.
    Deadline,
    /// The stop flag was set.
    Stopped,
    /// The tree filled its memory and a whole tree's work solved no position it had not
    /// solved before: starting again would grow the same tree.
    MemoryFull,
}

/// Proof-number search over any position (the knowledge above applies where its rules allow).
pub struct ProofSearch<P: Position> {
    pos: P,
    board: EvalBoard,
    target: Player,
    freestyle: bool,
    free_placement: bool,
    tree: Vec<Node>,
    max_nodes: usize,
    solved: HashMap<u64, bool>,
    nodes: u64,
    expansions: u64,
    scratch: Vec<Move>,
    children: Vec<(Move, u32, u32)>,
    /// The symmetry-canonical hashes of the children made so far at an expansion.
    seen: Vec<u64>,
    /// None where pairings do not apply (or turned off).
    pairing: Option<PairingSearch>,
    pairing_rate: HitRate,
    /// None where threat-space search does not apply (or turned off).
    threats: Option<ThreatSearch>,
    threat_rate: HitRate,
    threat_wins: u64,
    threat_tests: u64,
    /// Entries the threat table may hold before it is emptied.
    threat_table: usize,
}

/// Disproof number per doubling of the target's potential over its bound (see `leaf_numbers`).
const LEAF_DN_SCALE: f64 = 4.0;

/// Threat moves a leaf's threat-space search may take, and the nodes it may spend.
const THREAT_DEPTH: u32 = 4;
const THREAT_BUDGET: u64 = 200;
/// A win by threats found in at most this many nodes does not count for the gate.
const SHALLOW_WIN: u64 = 8;
/// The threat table is emptied past 1/8 of the search's memory, or 2^20 entries (it only
/// saves work).
const THREAT_TABLE_SHARE: usize = 8;
const THREAT_TABLE_MAX: usize = 1 << 20;

impl<P: Position> ProofSearch<P> {
    /// A search of `pos` for `target`'s win, holding at most `memory_mb` MiB of tree.
    pub fn new(pos: &P, target: Player, memory_mb: usize) -> ProofSearch<P> {
        let rules = pos.variant().grid();
        ProofSearch {
            pos: pos.clone(),
            board: if threats_apply(pos) {
                EvalBoard::new(pos, |_, _, _| 0).with_potential().with_near_windows()
            } else {
                EvalBoard::new(pos, |_, _, _| 0).with_potential()
            },
            target,
            freestyle: rules.is_some_and(|r| !r.exact()),
            free_placement: !pos.variant().has_gravity(),
            tree: Vec::new(),
            max_nodes: (memory_mb.max(1) << 20) / std::mem::size_of::<Node>(),
            solved: HashMap::new(),
            nodes: 0,
            expansions: 0,
            scratch: Vec::new(),
            children: Vec::new(),
            seen: Vec::new(),
            pairing: (rules.is_some_and(|r| !r.exact()) && !pos.variant().has_gravity() && pos.windows().cells <= 128)
                .then(PairingSearch::default),
            pairing_rate: HitRate::default(),
            threats: threats_apply(pos).then(|| ThreatSearch::new(THREAT_BUDGET)),
            threat_rate: HitRate::default(),
            threat_wins: 0,
            threat_tests: 0,
            threat_table: ((memory_mb.max(1) << 20) / THREAT_TABLE_SHARE / ThreatSearch::ENTRY_BYTES)
                .clamp(1024, THREAT_TABLE_MAX),
        }
    }

    /// The same search without threat-space search at the leaves (an ablation).
    pub fn without_threats(mut self) -> Self {
        self.threats = None;
        // Nor the window sets kept only for it, so the ablation costs what the search did.
        self.board = EvalBoard::new(&self.pos, |_, _, _| 0).with_potential();
        self
    }

    /// Does a sequence of threats win here for the side to move, or for the other side
    /// (whose threat on the board must then be answered)? The winner, if one is found.
    /// Also says whether the win was more than the tree finds at once (more nodes than
    /// `SHALLOW_WIN`): on the draw boards most wins by threats are a four and a double four
    /// the tree would have seen in two plies, and only the others make the test worth its cost.
    fn threat_winner(&mut self) -> (Option<Player>, bool) {
        let ProofSearch { pos, board, threats, threat_table, .. } = self;
        let Some(search) = threats.as_mut() else { return (None, false) };
        search.shrink_past(*threat_table);
        let me = pos.side_to_move();
        let before = search.nodes;
        let winner = [me, me.other()].into_iter().find(|&p| search.wins(pos, board, p, THREAT_DEPTH));
        (winner, winner.is_some() && search.nodes - before > SHALLOW_WIN)
    }

    /// The same search without pairing strategies (an ablation, and a cross-check in tests).
    pub fn without_pairings(mut self) -> Self {
        self.pairing = None;
        self
    }

    /// Does the other side hold a pairing against the target here?
    fn paired(&mut self) -> bool {
        let Some(search) = self.pairing.as_mut() else {
            return false;
        };
        let board = &self.board;
        let empty = empty_cells(&self.pos, board.table().cells);
        search.run(board.table(), |w| board.counts(w), empty, self.target.index()) == PairingOutcome::Found
    }

    /// The solution of the current position if knowledge gives it without search.
    fn evaluate(&mut self) -> Option<bool> {
        match self.pos.status() {
            Status::Win(p) => return Some(p == self.target),
            Status::Draw => return Some(false),
            Status::Ongoing => {}
        }
        let me = self.pos.side_to_move();
        let you = me.other();
        let mut scratch = std::mem::take(&mut self.scratch);
        let tactic = self.board.tactic(&mut self.pos, self.freestyle, &mut scratch);
        self.scratch = scratch;
        match tactic {
            Tactic::WinNow(_) => return Some(me == self.target),
            Tactic::Lost(_) => return Some(you == self.target),
            Tactic::MustBlock(_) | Tactic::Quiet => {}
        }
        if self.board.open_windows(self.target) == 0
            || (self.free_placement && self.board.lines_breakable(self.target, me == self.target))
        {
            return Some(false);
        }
        if let Some(&known) = self.solved.get(&self.pos.canonical_hash()) {
            return Some(known);
        }
        if self.pairing.is_some() && self.pairing_rate.worth_it() {
            let held = self.paired();
            self.pairing_rate.record(held);
            if held {
                return Some(false);
            }
        }
        if self.threats.is_some() && self.threat_rate.worth_it() {
            let (winner, deep) = self.threat_winner();
            self.threat_rate.record(deep);
            self.threat_tests += 1;
            self.threat_wins += winner.is_some() as u64;
            if let Some(w) = winner {
                return Some(w == self.target);
            }
        }
        None
    }

    /// A new leaf's proof and disproof numbers (the current position). On free-placement
    /// K-or-more boards the disproof number grows with the log of the target's
    /// Erdős–Selfridge potential over the bound below which its lines are breakable: the
    /// other side's replies that leave the target least are searched first, where with 1
    /// everywhere ties went to the first cell in board order. mnk:7,7,5: 16.9 M nodes with
    /// 1 everywhere, 10.5 M with this (scale 4; 8 and 32 the same within 1%); raising the
    /// proof number where the potential is low instead left 7,7,5 unproved after 300 s.
    fn leaf_numbers(&self) -> (u32, u32) {
        if !(self.freestyle && self.free_placement) {
            return (1, 1);
        }
        let pot = self.board.potential(self.target) as f64;
        let pot = if self.pos.side_to_move() == self.target { 2.0 * pot } else { pot };
        let bound = (1u64 << self.board.table().k) as f64;
        (1, 1 + (LEAF_DN_SCALE * (pot / bound).max(1.0).log2()) as u32)
    }

    /// Expands the node at `at` (the current position), returning false when the arena is full.
    fn expand(&mut self, at: usize) -> bool {
        let me = self.pos.side_to_move();
        let you = me.other();
        let or_node = me == self.target;
        let mut moves = std::mem::take(&mut self.scratch);
        let forced = if self.freestyle { self.board.threat(&self.pos, you, &mut moves).first() } else { None };
        match forced {
            Some(m) => {
                moves.clear();
                moves.push(m);
            }
            None => {
                self.pos.legal_moves(&mut moves);
                if self.freestyle && self.free_placement {
                    let live: Vec<Move> =
                        moves.iter().copied().filter(|&m| self.board.is_live(self.pos.move_cell(m))).collect();
                    if !live.is_empty() {
                        moves = live;
                    }
                }
            }
        }
        let mut children = std::mem::take(&mut self.children);
        children.clear();
        // Moves leading to positions equal up to the board's symmetries have equal values: one
        // of each is searched (mnk:7,7,5: 2.9 M nodes against 10.5 M; the proof tree then
        // holds one move of each class where every move is needed).
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        for &m in &moves {
            let cell = self.pos.move_cell(m);
            if or_node && self.free_placement && self.board.breakable_after(me, cell) {
                continue;
            }
            self.pos.play(m);
            let h = self.pos.canonical_hash();
            if seen.contains(&h) {
                self.pos.undo();
                continue;
            }
            seen.push(h);
            self.board.play(cell, me);
            self.nodes += 1;
            let value = self.evaluate();
            let (pn, dn) = match value {
                Some(true) => (0, INF),
                Some(false) => (INF, 0),
                None => self.leaf_numbers(),
            };
            self.board.undo(cell, me);
            self.pos.undo();
            children.push((m, pn, dn));
            // One proving move proves an OR node; one refutation disproves an AND node.
            if (or_node && pn == 0) || (!or_node && dn == 0) {
                children.clear();
                children.push((m, pn, dn));
                break;
            }
        }
        self.scratch = moves;
        self.seen = seen;
        if self.tree.len() + children.len() > self.max_nodes {
            self.children = children;
            return false;
        }
        self.expansions += 1;
        let first = self.tree.len() as u32;
        for &(mv, pn, dn) in &children {
            self.tree.push(Node { mv, pn, dn, first: 0, count: 0 });
        }
        let node = &mut self.tree[at];
        node.first = first;
        node.count = children.len() as u16;
        if children.is_empty() {
            // No move for the target can prove (OR), or none is left (AND: cannot happen on a
            // board in progress; treated as disproved, as a draw would be).
            node.pn = INF;
            node.dn = 0;
        }
        self.children = children;
        true
    }

    /// Proof and disproof numbers of an expanded node from its children.
    fn update(&mut self, at: usize, or_node: bool) {
        let Node { first, count, .. } = self.tree[at];
        if count == 0 {
            return;
        }
        let kids = &self.tree[first as usize..first as usize + count as usize];
        let (mut min, mut sum) = (INF, 0u32);
        for c in kids {
            let (a, b) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
            min = min.min(a);
            sum = sum.saturating_add(b).min(INF);
        }
        let node = &mut self.tree[at];
        if or_node {
            (node.pn, node.dn) = (min, sum);
        } else {
            (node.pn, node.dn) = (sum, min);
        }
    }

    /// Runs until the root is solved, the deadline passes, `stop` is set, or memory gives out.
    pub fn run(&mut self, deadline: Option<Instant>, stop: Option<&Arc<AtomicBool>>) -> ProofOutcome {
        let start = Instant::now();
        let mut restarts = 0;
        let (mut peak, mut peak_bytes) = (0u64, 0u64);
        self.nodes += 1;
        // Knowledge may settle the root itself (a win at once, a threat sequence, pairings):
        // where one move would then keep the answer (see `ProofOutcome::root_move`), the tree
        // is still searched for it, so that a win comes with its move (the root's children
        // are usually settled by the same knowledge at their expansion). Its answer stands
        // if that search is cut short.
        let settled = self.evaluate();
        let mut proved = settled.filter(|&p| (self.pos.side_to_move() == self.target) != p);
        let mut path: Vec<usize> = Vec::new();
        let mut next_check = 0u64;
        let mut ended = ProofEnd::Answered;
        'search: while proved.is_none() {
            self.tree.clear();
            self.tree.push(Node { mv: Move(0), pn: 1, dn: 1, first: 0, count: 0 });
            let solved_before = self.solved.len();
            loop {
                let root = self.tree[0];
                if root.pn == 0 || root.dn == 0 {
                    proved = Some(root.pn == 0);
                    break 'search;
                }
                // The stop flag every iteration: a load, and a race's loser should stop at once
                // (checked every 4096 nodes, it ran on 0.1 s after the winner on mnk:5,5,4, at
                // about 40 us a node). The clock by nodes evaluated, not iterations: an
                // iteration on a wide board with threat searches at its leaves can take a
                // millisecond.
                if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    ended = ProofEnd::Stopped;
                    break 'search;
                }
                if self.nodes >= next_check {
                    next_check = self.nodes + 256;
                    // A move for a settled root is sought within a budget: the answer needs
                    // no more, and a tree that does not settle its children soon would grow
                    // until its memory is full.
                    if settled.is_some() && self.nodes >= ROOT_MOVE_NODES {
                        ended = ProofEnd::Stopped;
                        break 'search;
                    }
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        ended = ProofEnd::Deadline;
                        break 'search;
                    }
                }
                let at = self.descend(&mut path);
                let full = !self.expand(at);
                self.back_up(&path);
                peak = peak.max(self.tree.len() as u64);
                peak_bytes = peak_bytes.max(self.bytes());
                if full {
                    restarts += 1;
                    if self.solved.len() == solved_before {
                        ended = ProofEnd::MemoryFull;
                        break 'search;
                    }
                    continue 'search;
                }
            }
        }
        debug_assert!(
            settled.is_none() || proved.is_none() || proved == settled,
            "the root's knowledge and its tree disagree"
        );
        if proved.is_none() && settled.is_some() {
            (proved, ended) = (settled, ProofEnd::Answered);
            self.tree.clear();
        }
        self.outcome(proved, ended, (peak, peak_bytes), restarts, start)
    }

    /// From the root down to a most-proving node, playing its moves: the node, with the
    /// nodes passed (the root first) in `path`. Not inlined, nor `back_up`: inlined, the board's
    /// play and undo went into `run` with them, and the search was 3-4% slower.
    #[inline(never)]
    fn descend(&mut self, path: &mut Vec<usize>) -> usize {
        path.clear();
        let mut at = 0usize;
        path.push(at);
        while self.tree[at].count > 0 {
            let or_node = self.pos.side_to_move() == self.target;
            let Node { first, count, .. } = self.tree[at];
            let mut best = first as usize;
            for i in first as usize..first as usize + count as usize {
                let (c, b) = (&self.tree[i], &self.tree[best]);
                if (or_node && c.pn < b.pn) || (!or_node && c.dn < b.dn) {
                    best = i;
                }
            }
            let m = self.tree[best].mv;
            let cell = self.pos.move_cell(m);
            let me = self.pos.side_to_move();
            self.pos.play(m);
            self.board.play(cell, me);
            at = best;
            path.push(at);
        }
        at
    }

    /// Back up `path` (from [`Self::descend`]) to the root, taking its moves back, updating
    /// each node's numbers and remembering what got solved.
    #[inline(never)]
    fn back_up(&mut self, path: &[usize]) {
        for (i, &n) in path.iter().enumerate().rev() {
            let or_node = self.pos.side_to_move() == self.target;
            self.update(n, or_node);
            let node = self.tree[n];
            if node.count > 0 && (node.pn == 0 || node.dn == 0) {
                self.solved.insert(self.pos.canonical_hash(), node.pn == 0);
            }
            if i > 0 {
                // Under gravity a move's cell is where it lands: ask after taking it back.
                self.pos.undo();
                let cell = self.pos.move_cell(node.mv);
                self.board.undo(cell, self.pos.side_to_move());
            }
        }
    }

    /// What a run found (`proved`, how it `ended`), with its counts, peak sizes and time since
    /// `start`.
    fn outcome(
        &mut self,
        proved: Option<bool>,
        ended: ProofEnd,
        (peak, peak_bytes): (u64, u64),
        restarts: u32,
        start: Instant,
    ) -> ProofOutcome {
        let proof_size = match proved {
            Some(p) if self.tree.first().is_some_and(|r| r.count > 0) => self.proof_size(0, p),
            Some(_) => 1,
            None => 0,
        };
        let root_move = proved.and_then(|p| self.root_move(p));
        ProofOutcome {
            target: self.target,
            proved,
            nodes: self.nodes,
            expansions: self.expansions,
            peak_nodes: peak,
            peak_bytes: peak_bytes.max(self.bytes()),
            proof_size,
            root_move,
            restarts,
            threat_wins: self.threat_wins,
            threat_tests: self.threat_tests,
            threat_nodes: self.threats.as_ref().map_or(0, |t| t.nodes),
            elapsed: start.elapsed().as_secs_f64(),
            ended,
        }
    }

    fn bytes(&self) -> u64 {
        // A hash map entry costs about its key and value plus a control byte, at a load of 7/8.
        (self.tree.capacity() * std::mem::size_of::<Node>()) as u64
            + self.solved.capacity() as u64 * 10
            + self.threats.as_ref().map_or(0, |t| t.table_bytes())
    }

    /// See [`ProofOutcome::root_move`]: a root child that settles `proved` on its own.
    fn root_move(&self, proved: bool) -> Option<Move> {
        let root = self.tree.first().filter(|r| r.count > 0)?;
        let or_node = self.pos.side_to_move() == self.target;
        if or_node != proved {
            // Every move is needed (all of the target's fail, or all of the other's lose).
            return None;
        }
        let children = &self.tree[root.first as usize..root.first as usize + root.count as usize];
        children.iter().find(|c| if proved { c.pn == 0 } else { c.dn == 0 }).map(|c| c.mv)
    }

    /// The size of the proof (`proved`) or disproof below node `at` (the current position).
    fn proof_size(&mut self, at: usize, proved: bool) -> u64 {
        let Node { first, count, .. } = self.tree[at];
        if count == 0 {
            return 1;
        }
        let or_node = self.pos.side_to_move() == self.target;
        // Where one child is enough: the target's turn for a proof, the other's for a disproof.
        let one = or_node == proved;
        let mut size = 1;
        for i in first as usize..first as usize + count as usize {
            let c = self.tree[i];
            let solves = if proved { c.pn == 0 } else { c.dn == 0 };
            if !solves {
                continue;
            }
            let cell = self.pos.move_cell(c.mv);
            let me = self.pos.side_to_move();
            self.pos.play(c.mv);
            self.board.play(cell, me);
            size += self.proof_size(i, proved);
            self.board.undo(cell, me);
            self.pos.undo();
            if one {
                break;
            }
        }
        size
    }
}

/// The weak value (1 win, 0 draw, -1 loss for the side to move) by two proof-number searches:
/// can the side to move win, and if not, can the other side? From the empty board of a
/// free-placement K-or-more game the second question is settled by strategy stealing (the first
/// player cannot lose) and not searched. Returns the value when both questions were answered,
/// and the outcomes of the searches run.
pub fn weak_value<P: Position>(
    pos: &P,
    memory_mb: usize,
    deadline: Option<Instant>,
    stop: Option<&Arc<AtomicBool>>,
) -> (Option<i32>, Vec<ProofOutcome>) {
    weak_value_with(pos, memory_mb, deadline, stop, Leaves::default())
}

/// A move that keeps the weak value [`weak_value`] proved, from its searches: the winning move
/// of a win, a move keeping a draw (from the search that showed the other side cannot win).
/// None for a loss (every move loses), and where no tree settled it (a win found at once; a
/// draw from the empty board by strategy stealing, whose move is not proved).
pub fn weak_value_move(value: Option<i32>, runs: &[ProofOutcome]) -> Option<Move> {
    match value? {
        1 => runs.first()?.root_move,
        0 => runs.get(1)?.root_move,
        _ => None,
    }
}

/// The tree's memory of a proof-number search unless asked otherwise (`solve --method pns`
/// without `--tt-mb`, a race's, a racing solver agent's): a cap, taken as the tree grows.
pub const PNS_DEFAULT_MB: usize = 2048;

/// Which knowledge a proof-number search uses at its leaves, beyond the cheap sure checks:
/// both by default; turning one off is an ablation (the value stays, the work changes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaves {
    pub pairings: bool,
    pub threats: bool,
}

impl Default for Leaves {
    fn default() -> Self {
        Leaves { pairings: true, threats: true }
    }
}

/// [`weak_value`], with the leaf knowledge of `leaves`.
pub fn weak_value_with<P: Position>(
    pos: &P,
    memory_mb: usize,
    deadline: Option<Instant>,
    stop: Option<&Arc<AtomicBool>>,
    leaves: Leaves,
) -> (Option<i32>, Vec<ProofOutcome>) {
    let search = |target: Player| {
        let mut s = ProofSearch::new(pos, target, memory_mb);
        if !leaves.pairings {
            s = s.without_pairings();
        }
        if !leaves.threats {
            s = s.without_threats();
        }
        s
    };
    let me = pos.side_to_move();
    let first = search(me).run(deadline, stop);
    match first.proved {
        Some(true) => return (Some(1), vec![first]),
        None => return (None, vec![first]),
        Some(false) => {}
    }
    let stealing = pos.ply() == 0 && !pos.variant().has_gravity() && pos.variant().grid().is_some_and(|r| !r.exact());
    if stealing {
        return (Some(0), vec![first]);
    }
    let second = search(me.other()).run(deadline, stop);
    let value = second.proved.map(|p| if p { -1 } else { 0 });
    (value, vec![first, second])
}

#[cfg(test)]
mod leaf_number_tests {
    use super::ProofSearch;
    use crate::game::{AnyPosition, Player};
    use crate::with_position;

    fn leaf(game: &str, moves: &str) -> (u32, u32) {
        let pos = AnyPosition::from_moves(game.parse().unwrap(), moves).unwrap();
        with_position!(&pos, p => ProofSearch::new(p, Player::First, 1).leaf_numbers())
    }

    #[test]
    fn a_leaf_where_the_target_has_more_lines_left_is_harder_to_disprove() {
        // The first player to move in both; in the first it holds the centre, in the second
        // the other side does.
        let strong = leaf("mnk:7,7,5", "d4 a1");
        let weak = leaf("mnk:7,7,5", "a1 d4");
        assert_eq!((strong.0, weak.0), (1, 1));
        assert!(strong.1 > weak.1 && weak.1 > 1, "{strong:?} {weak:?}");
        // Under gravity the potential bound does not hold: no estimate.
        assert_eq!(leaf("connect4", "44"), (1, 1));
    }

    /// The children the root of `moves` gets when expanded.
    fn root_children(game: &str, moves: &str) -> u16 {
        let pos = AnyPosition::from_moves(game.parse().unwrap(), moves).unwrap();
        with_position!(&pos, p => {
            let mut s = ProofSearch::new(p, Player::First, 1);
            s.tree.push(super::Node { mv: crate::game::Move(0), pn: 1, dn: 1, first: 0, count: 0 });
            assert!(s.expand(0));
            s.tree[0].count
        })
    }

    #[test]
    fn moves_equal_up_to_symmetry_are_searched_once() {
        // The empty 5x5 board: 25 moves, 6 up to the square's 8 symmetries; 7x7: 10.
        assert_eq!(root_children("mnk:5,5,4", ""), 6);
        assert_eq!(root_children("mnk:7,7,5", ""), 10);
        // After a1 b3 no symmetry is left: every live move is its own class.
        let count = root_children("mnk:5,5,4", "a1 b3");
        assert!(count > 10, "{count}");
    }
}
