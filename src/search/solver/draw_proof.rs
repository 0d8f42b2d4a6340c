//! An explicit, checked proof that one side cannot make a line (free placement): the tree
//! a skeptic would replay, built apart from the solver's shortcuts.
//!
//! The solver's draw proofs rest on a table, null windows, relevance zones and incremental
//! window counts; a mistake in any of them would turn into a wrong value. This module proves
//! the same claim again with none of them: every legal move of the maker is played at the
//! maker's turns (no move is skipped), one reply is found at the other side's turns, and a
//! leaf is accepted only when the game is over without a line of the maker, or when a
//! pairing (see [`super::pairing`]) or the Erdős–Selfridge potential, both recomputed here
//! from the stones, shows the maker cannot make one. Positions are remembered by their exact
//! key, never by a hash. Its size is the proof's size.

use std::collections::HashMap;
use std::time::Instant;

use super::pairing::{PairingOutcome, PairingSearch};
use crate::game::{Move, Player, Position, Status};

/// The size of a checked proof.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawProof {
    /// Positions with the maker to move where every move was followed.
    pub maker_nodes: u64,
    /// Positions with the breaker to move (one reply each).
    pub breaker_nodes: u64,
    /// Leaves: a pairing checked cell by cell.
    pub pairing_leaves: u64,
    /// Leaves: the Erdős–Selfridge potential of the maker's open windows below its bound.
    pub potential_leaves: u64,
    /// Leaves: the game over without a line of the maker (a full board or the breaker's line).
    pub ended_leaves: u64,
    /// Distinct positions of the maker to move in the proof (transpositions counted once).
    pub distinct_maker_positions: usize,
}

impl DrawProof {
    /// Every node of the proof tree, transpositions counted once.
    pub fn size(&self) -> u64 {
        self.maker_nodes + self.breaker_nodes + self.pairing_leaves + self.potential_leaves + self.ended_leaves
    }
}

/// Why no proof was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawProofError {
    #[error("the maker makes a line after {0}")]
    MakerWins(String),
    #[error("no reply found that holds the maker after {0} (the maker may win there)")]
    NoReply(String),
    #[error("the time ran out after {0} proof nodes")]
    Stopped(u64),
    #[error("the proof outgrew {0} positions of the maker (a memory bound)")]
    TooLarge(usize),
    #[error("a draw proof needs free placement: under gravity the breaker cannot take any cell")]
    Gravity,
}

/// Do `pairs` (disjoint empty cells) cover every window of `maker` free of the other's stones?
/// Counted from the stones alone.
pub fn pairing_holds<P: Position>(pos: &P, maker: Player, pairs: &[(u8, u8)]) -> bool {
    let table = pos.windows();
    let mut used = std::collections::HashSet::new();
    for &(a, b) in pairs {
        if a == b || pos.stone_on(a as usize).is_some() || pos.stone_on(b as usize).is_some() {
            return false;
        }
        if !used.insert(a) || !used.insert(b) {
            return false;
        }
    }
    (0..table.len()).all(|w| {
        let cells = table.cells_of(w);
        cells.iter().any(|&c| pos.stone_on(c as usize) == Some(maker.other()))
            || pairs.iter().any(|&(a, b)| cells.contains(&(a as u16)) && cells.contains(&(b as u16)))
    })
}

/// Erdős–Selfridge from the stones: the sum over the maker's open windows of
/// 2^(maker's stones) is below 2^(K-1) with the maker to move, 2^K otherwise.
pub fn potential_holds<P: Position>(pos: &P, maker: Player) -> bool {
    let table = pos.windows();
    let mut sum = 0u64;
    for w in 0..table.len() {
        let mut own = 0;
        let mut open = true;
        for &c in table.cells_of(w) {
            match pos.stone_on(c as usize) {
                Some(p) if p == maker => own += 1,
                Some(_) => open = false,
                None => {}
            }
        }
        if open {
            sum += 1 << own;
        }
    }
    let bound = 1u64 << table.k;
    if pos.side_to_move() == maker { 2 * sum < bound } else { sum < bound }
}

/// Steps of each pairing search at a leaf (finding, not checking: a pairing found is then
/// checked by [`pairing_holds`]). Fewer steps give a larger proof found with fewer failed
/// searches; 200 was the fastest on mnk:7,7,5 (docs/solver-notes.md, "Tuning constants").
const CHECK_BUDGET: u32 = 200;

/// Positions of the maker remembered before the proof gives up (about 50 bytes each with
/// the map's overhead: a few hundred MB). mnk:5,5,4's draw needs far fewer.
pub const MAX_MAKER_POSITIONS: usize = 4_000_000;

struct Prover<P: Position> {
    pos: P,
    maker: Player,
    pairing: PairingSearch,
    seen: HashMap<P::Key, bool>,
    proof: DrawProof,
    deadline: Option<Instant>,
    stopped: bool,
    too_large: bool,
    failure: Option<DrawProofError>,
    failure_depth: usize,
    last_leaf_paired: bool,
}

impl<P: Position> Prover<P> {
    fn leaf(&mut self) -> bool {
        self.last_leaf_paired = false;
        match self.pos.status() {
            Status::Win(p) if p == self.maker => return false,
            Status::Win(_) | Status::Draw => {
                self.proof.ended_leaves += 1;
                return true;
            }
            Status::Ongoing => {}
        }
        if potential_holds(&self.pos, self.maker) {
            self.proof.potential_leaves += 1;
            return true;
        }
        if self.pairing.run_on(&self.pos, self.maker) == PairingOutcome::Found
            && pairing_holds(&self.pos, self.maker, self.pairing.pairs())
        {
            self.proof.pairing_leaves += 1;
            self.last_leaf_paired = true;
            return true;
        }
        false
    }

    /// The maker to move: every move must be held.
    fn maker_turn(&mut self) -> bool {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
        if self.seen.len() >= MAX_MAKER_POSITIONS {
            self.too_large = true;
            self.stopped = true;
        }
        if self.stopped {
            return false;
        }
        if self.leaf() {
            return true;
        }
        let key = self.pos.key();
        if let Some(&known) = self.seen.get(&key) {
            return known;
        }
        self.proof.maker_nodes += 1;
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves);
        let mut held = true;
        let mut hints = Vec::new();
        for m in moves {
            self.pos.play(m);
            let ok = match self.pos.status() {
                Status::Win(p) if p == self.maker => {
                    self.note(DrawProofError::MakerWins(self.pos_moves()));
                    false
                }
                Status::Ongoing => self.breaker_turn(&mut hints),
                _ => {
                    self.proof.ended_leaves += 1;
                    true
                }
            };
            self.pos.undo();
            if !ok {
                held = false;
                break;
            }
        }
        if !self.stopped {
            self.seen.insert(key, held);
        }
        held
    }

    /// The breaker to move: one reply must hold. First the replies and pairings that held
    /// the maker's other moves from the same position (`hints`: each pairing checked again
    /// here), then replies that leave a pairing or a potential below its bound, then each
    /// reply followed in turn.
    fn breaker_turn(&mut self, hints: &mut Vec<(Move, Vec<(u8, u8)>)>) -> bool {
        self.proof.breaker_nodes += 1;
        for (r, pairs) in hints.iter().rev() {
            if !self.pos.is_legal(*r) {
                continue;
            }
            self.pos.play(*r);
            let ok = self.pos.status() == Status::Ongoing && pairing_holds(&self.pos, self.maker, pairs);
            self.pos.undo();
            if ok {
                self.proof.pairing_leaves += 1;
                return true;
            }
        }
        let replies = self.replies();
        for &r in &replies {
            self.pos.play(r);
            let ok = self.leaf();
            if ok && self.last_leaf_paired {
                if hints.len() == 8 {
                    hints.remove(0);
                }
                hints.push((r, self.pairing.pairs().to_vec()));
            }
            self.pos.undo();
            if ok {
                return true;
            }
        }
        for &r in &replies {
            self.pos.play(r);
            let ok = self.maker_turn();
            self.pos.undo();
            if ok {
                return true;
            }
            if self.stopped {
                return false;
            }
        }
        self.note(DrawProofError::NoReply(self.pos_moves()));
        false
    }

    /// The breaker's moves: one that makes the breaker's own line first; then, if the maker
    /// has a window one stone short, only those and the block (anything else loses at once);
    /// the rest by how much of the maker's potential they remove.
    fn replies(&self) -> Vec<Move> {
        const WIN: i64 = 1 << 50;
        const BLOCK: i64 = 1 << 40;
        let table = self.pos.windows();
        let k = table.k;
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves);
        let mut scored: Vec<(i64, Move)> = moves
            .into_iter()
            .map(|m| {
                let cell = self.pos.move_cell(m);
                let mut score = 0i64;
                for &w in table.windows_through(cell) {
                    let (mut own, mut other) = (0, 0);
                    for &c in table.cells_of(w as usize) {
                        match self.pos.stone_on(c as usize) {
                            Some(p) if p == self.maker => own += 1,
                            Some(_) => other += 1,
                            None => {}
                        }
                    }
                    if other == 0 {
                        score += if own + 1 == k { BLOCK } else { 1 << own };
                    } else if own == 0 && other + 1 == k {
                        score = score.max(WIN);
                    }
                }
                (score, m)
            })
            .collect();
        scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        if scored.first().is_some_and(|&(s, _)| s >= BLOCK) {
            scored.retain(|&(s, _)| s >= BLOCK);
        }
        scored.into_iter().map(|(_, m)| m).collect()
    }

    /// Keeps the failure nearest the root: the line the proof could not hold.
    fn note(&mut self, e: DrawProofError) {
        let depth = self.pos.history().len();
        if self.failure.is_none() || depth <= self.failure_depth {
            self.failure = Some(e);
            self.failure_depth = depth;
        }
    }

    fn pos_moves(&self) -> String {
        let h: Vec<String> = self.pos.history().iter().map(|&m| self.pos.format_move(m)).collect();
        if h.is_empty() { "the start".into() } else { h.join(" ") }
    }
}

/// Proves, with every leaf checked from the stones, that `maker` cannot make a line from
/// `pos` (free placement; boards of at most 128 cells). With the maker the first player on
/// an empty board, where strategy stealing gives the first player at least a draw, this
/// proves the game a draw.
///
/// ```
/// use mnklab::game::{AnyPosition, Player};
/// use mnklab::search::solver::prove_no_line;
/// use mnklab::with_position;
///
/// let pos = AnyPosition::new("mnk:6,6,5".parse().unwrap());
/// let proof = with_position!(&pos, p => prove_no_line(p, Player::First, None)).unwrap();
/// assert!(proof.size() > 0);
/// ```
pub fn prove_no_line<P: Position>(
    pos: &P,
    maker: Player,
    deadline: Option<Instant>,
) -> Result<DrawProof, DrawProofError> {
    if pos.variant().has_gravity() {
        return Err(DrawProofError::Gravity);
    }
    let mut prover = Prover {
        pos: pos.clone(),
        maker,
        pairing: PairingSearch::new(CHECK_BUDGET),
        seen: HashMap::new(),
        proof: DrawProof::default(),
        deadline,
        stopped: false,
        too_large: false,
        failure: None,
        failure_depth: 0,
        last_leaf_paired: false,
    };
    let held = if pos.side_to_move() == maker {
        prover.maker_turn()
    } else {
        match pos.status() {
            Status::Win(p) if p == maker => false,
            Status::Ongoing => prover.breaker_turn(&mut Vec::new()),
            _ => true,
        }
    };
    if prover.too_large {
        return Err(DrawProofError::TooLarge(MAX_MAKER_POSITIONS));
    }
    if prover.stopped {
        return Err(DrawProofError::Stopped(prover.proof.size()));
    }
    if !held {
        let at = prover.pos_moves();
        return Err(prover.failure.unwrap_or(DrawProofError::NoReply(at)));
    }
    prover.proof.distinct_maker_positions = prover.seen.values().filter(|&&v| v).count();
    Ok(prover.proof)
}
