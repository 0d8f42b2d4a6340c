//! Lazy expansion: a node counts its legal moves when first expanded, and each child is
//! created when the expansion policy first tries its move, in a block of the arena that
//! doubles when full (old blocks are reused by the next block of their size).

use super::{Expansion, Mcts, NONE, Node};
use crate::eval::stones_around;
use crate::game::{Move, Position};
use crate::rng::{below, unit};

impl<P: Position> Mcts<P> {
    /// Expands node `n` (at position `pos`): counts its legal moves; children come later,
    /// one a time. False when there is nothing to expand (the game is over).
    pub(super) fn expand(&mut self, n: usize, pos: &P) -> bool {
        let legal = pos.num_legal_moves();
        self.nodes[n].legal = legal as u16;
        legal > 0
    }

    /// A block for `cap` children: a free one of that size, or new room at the end of the
    /// arena if the memory cap allows.
    fn alloc_block(&mut self, cap: usize) -> Option<u32> {
        if cap.is_power_of_two()
            && let Some(b) = self.free.get_mut(cap.trailing_zeros() as usize).and_then(|f| f.pop())
        {
            return Some(b);
        }
        if self.nodes.len() + cap > self.max_nodes {
            return None;
        }
        let first = self.nodes.len() as u32;
        self.nodes.resize(self.nodes.len() + cap, Node::new(Move(u16::MAX), 0));
        if self.config.rave.is_some() {
            self.rave.resize(self.nodes.len(), (0, 0.0));
        }
        Some(first)
    }

    /// Makes room in `n`'s block for one more child, moving the block to a larger one when it
    /// is full. False when the memory cap leaves no room.
    #[inline]
    pub(super) fn room_for_child(&mut self, n: usize) -> bool {
        let node = self.nodes[n];
        let old_cap = node.cap();
        if (node.tried as usize) < old_cap {
            return true;
        }
        let legal = node.legal as usize;
        let cap = if old_cap == 0 { legal.min(2) } else { (old_cap * 2).min(legal) };
        let Some(first) = self.alloc_block(cap) else { return false };
        if node.first_child != NONE {
            let old = node.first_child as usize;
            for i in 0..node.tried as usize {
                self.nodes[first as usize + i] = self.nodes[old + i];
                if !self.rave.is_empty() {
                    self.rave[first as usize + i] = self.rave[old + i];
                }
            }
            if old_cap.is_power_of_two() {
                let class = old_cap.trailing_zeros() as usize;
                if self.free.len() <= class {
                    self.free.resize(class + 1, Vec::new());
                }
                self.free[class].push(old as u32);
            }
        }
        self.nodes[n].first_child = first;
        true
    }

    /// Adds the child of `n` for move `m` in the room [`Self::room_for_child`] made, and
    /// returns it.
    #[inline]
    pub(super) fn add_child(&mut self, n: usize, m: Move, prior: u8) -> usize {
        let at = self.nodes[n].first_child as usize + self.nodes[n].tried as usize;
        self.nodes[at] = Node::new(m, prior);
        if !self.rave.is_empty() {
            self.rave[at] = (0, 0.0);
        }
        let parent = &mut self.nodes[n];
        parent.tried += 1;
        if m.index() < 32 {
            parent.tried_moves |= 1 << m.index();
        }
        self.live += 1;
        at
    }

    /// Creates the child of `n` (at position `pos`) for a move the expansion policy picks
    /// among those without a child yet, and returns it; None when every move has its child, or
    /// when the memory cap or the node budget forbids another node.
    pub(super) fn untried_child(&mut self, n: usize, pos: &P, moves: &mut Vec<Move>) -> Option<usize> {
        let node = self.nodes[n];
        if node.legal == 0 || node.fully_expanded() {
            return None;
        }
        if n != 0 && self.live + 1 > self.node_budget {
            self.budget_reached = true;
            return None;
        }
        // The moves without a child, in id order.
        pos.legal_moves(moves);
        if pos.num_actions() <= 32 {
            moves.retain(|m| node.tried_moves >> m.index() & 1 == 0);
        } else {
            let mut has_child = [0u64; 8];
            for c in self.children(n) {
                let m = self.nodes[c].mv.index();
                has_child[m >> 6] |= 1 << (m & 63);
            }
            moves.retain(|m| has_child[m.index() >> 6] >> (m.index() & 63) & 1 == 0);
        }
        // The pick, and its prior when the policy computed it (stones around the cell).
        let (pick, prior) = match self.config.expansion {
            Expansion::Random => (below(&mut self.rng, moves.len()), None),
            Expansion::Neighbours { heuristic_share } => {
                if unit(&mut self.rng) < heuristic_share {
                    // Most stones around; ties broken uniformly (reservoir sampling).
                    let (mut best, mut best_prior, mut ties) = (0, 0, 0);
                    for (i, &m) in moves.iter().enumerate() {
                        let prior = stones_around(pos, pos.move_cell(m));
                        if i == 0 || prior > best_prior {
                            (best, best_prior, ties) = (i, prior, 1);
                        } else if prior == best_prior {
                            ties += 1;
                            if below(&mut self.rng, ties) == 0 {
                                best = i;
                            }
                        }
                    }
                    (best, Some(best_prior))
                } else {
                    (below(&mut self.rng, moves.len()), None)
                }
            }
        };
        let m = moves[pick];
        if !self.room_for_child(n) {
            return None;
        }
        let prior = match self.config.expansion {
            Expansion::Neighbours { .. } => {
                prior.unwrap_or_else(|| stones_around(pos, pos.move_cell(m))).min(255) as u8
            }
            Expansion::Random => 0,
        };
        Some(self.add_child(n, m, prior))
    }
}
