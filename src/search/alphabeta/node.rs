//! A node's search: the table, the tactics, the threat probe, then its moves with principal
//! variation search and late move reductions.

use super::{AlphaBetaFlaw, MoveOrdering, Reductions, Searcher};
use crate::eval::{Heuristic, Tactic};
use crate::game::{Move, Player, Position, Status};
use crate::search::score::{INF, WIN_BOUND};
use crate::search::tree::{AlphaBetaStats, Bound};

impl<P: Position> Searcher<'_, P> {
    /// The legal moves other than `found` that end the game with a win for the side to move.
    fn other_wins_now(&mut self, found: Move) -> Vec<Move> {
        let me = self.pos.side_to_move();
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves);
        moves
            .into_iter()
            .filter(|&m| {
                if m == found {
                    return false;
                }
                self.pos.play(m);
                let won = self.pos.status() == Status::Win(me);
                self.pos.undo();
                won
            })
            .collect()
    }

    /// The value of a node searched no further: a finished game, or depth 0.
    #[inline(always)]
    fn settled_value(&self, depth: u32, ply: u32) -> Option<i32> {
        match self.pos.status() {
            Status::Win(_) if self.cfg.flaw.is_some() => self.flawed_win_value(depth, ply),
            Status::Win(_) => Some(-self.win_value(ply)),
            Status::Draw => Some(0),
            Status::Ongoing if depth == 0 => {
                Some(self.cfg.heuristic.evaluate(&self.pos, &self.board).clamp(-WIN_BOUND + 1, WIN_BOUND - 1))
            }
            Status::Ongoing => None,
        }
    }

    /// A finished, won game's value under [`AlphaBetaConfig::flaw`].
    #[cold]
    fn flawed_win_value(&self, depth: u32, ply: u32) -> Option<i32> {
        Some(match self.cfg.flaw {
            // The player who just moved won. At an odd ply that is the root player, whose
            // win the flaw hands to the side to move.
            Some(AlphaBetaFlaw::WinFromRootSide) if ply % 2 == 1 => self.win_value(ply),
            Some(AlphaBetaFlaw::HorizonBeforeWin) if depth == 0 => {
                self.cfg.heuristic.evaluate(&self.pos, &self.board).clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
            }
            _ => -self.win_value(ply),
        })
    }

    pub(super) fn negamax(
        &mut self,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        mv: Option<Move>,
        order: u32,
    ) -> i32 {
        if self.enter_node() {
            return 0;
        }
        let rec = self.record_enter(ply, mv, order);
        let (alpha0, beta0) = (alpha, beta);
        let mut stats = AlphaBetaStats {
            value: 0,
            bound: Bound::Exact,
            alpha,
            beta,
            depth,
            cutoff: false,
            tt_hit: false,
            cutoff_move: None,
        };
        let v = self.node(depth, ply, &mut alpha, beta, &mut stats);
        stats.value = v;
        stats.bound = if v <= alpha0 {
            Bound::Upper
        } else if v >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.record_exit(rec, stats);
        v
    }

    /// A node at depth 0 that the explorer does not record: what [`Self::negamax`] and
    /// [`Self::node`] do there (count it, heed the limits, clear its line, value it), without
    /// the call, the statistics and the record, which a search at a fixed depth pays at most of
    /// its nodes (gomoku at depth 4: 46 million leaves of 47 million nodes).
    #[inline(always)]
    fn leaf(&mut self, ply: u32) -> i32 {
        if self.enter_node() {
            return 0;
        }
        // The parent made room for this ply's line.
        self.pv[ply as usize].clear();
        self.settled_value(0, ply).unwrap_or(0)
    }

    /// A node's value for the side to move, with `depth` plies left at `ply` in the window
    /// (`alpha`, `beta`): `alpha` rises as its moves are searched, and `stats` says how the
    /// search went. Meaningless when the search was aborted.
    pub(super) fn node(&mut self, depth: u32, ply: u32, alpha: &mut i32, beta: i32, stats: &mut AlphaBetaStats) -> i32 {
        let p = ply as usize;
        if self.pv.len() <= p + 1 {
            self.pv.resize(p + 2, Vec::new());
            self.buffers.resize(p + 2, Vec::new());
            self.killers.resize(p + 2, [None, None]);
        }
        self.pv[p].clear();
        if let Some(v) = self.settled_value(depth, ply) {
            return v;
        }
        let hash = self.pos.hash();
        let tt_move = match self.probe_table(hash, depth, ply, (*alpha, beta), stats) {
            Ok(m) => m,
            Err(v) => return v,
        };
        // Multi-PV wants every root move valued (two wins in one are two candidates, and a
        // move that ignores a threat is listed as the loss it is), so the root takes no
        // shortcut there; its children do.
        let root_lists = ply == 0 && self.cfg.multi_pv > 1;
        let mut forced = None;
        if self.tactics && !root_lists {
            match self.node_tactic(ply) {
                Ok(f) => forced = f,
                Err(v) => return v,
            }
        }
        if !root_lists && let Some(v) = self.threat_win(depth, ply) {
            return v;
        }
        let Some((best, best_move)) = self.search_moves(depth, ply, (alpha, beta), stats, (tt_move, forced)) else {
            return 0;
        };
        if let Some(tt) = self.tt {
            let bound = if best <= stats.alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            tt.store(hash, ply, best, bound, depth, best_move);
        }
        best
    }

    /// The table's entry for this node: its move (Ok), or Err with the node's value when the
    /// entry settles it (deep enough, and exact or a bound outside the window `(alpha,
    /// beta)`). The root is always searched: its moves are the analysis's candidates.
    fn probe_table(
        &mut self,
        hash: u64,
        depth: u32,
        ply: u32,
        (alpha, beta): (i32, i32),
        stats: &mut AlphaBetaStats,
    ) -> Result<Option<Move>, i32> {
        let Some(hit) = self.tt.and_then(|tt| tt.probe(hash, ply)) else { return Ok(None) };
        self.tt_hits += 1;
        stats.tt_hit = true;
        let tt_move = hit.mv.filter(|&m| self.pos.is_legal(m));
        let usable = ply > 0
            && hit.depth >= depth
            && match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.value >= beta,
                Bound::Upper => hit.value <= alpha,
            };
        if !usable {
            return Ok(tt_move);
        }
        if let Some(m) = tt_move {
            self.pv[ply as usize].push(m);
        }
        Err(hit.value)
    }

    /// The tactics at this node: Err with its value when they decide it (a win now, or two
    /// threats of the opponent's), Ok with the block the opponent's one threat forces, if any.
    /// They are read only where a completed window is a line (not under the exactly-K rule,
    /// not in 3D), so counting the opponent's threats unplayed is exact.
    fn node_tactic(&mut self, ply: u32) -> Result<Option<Move>, i32> {
        let p = ply as usize;
        let mut scratch = std::mem::take(&mut self.scratch);
        let tactic = self.board.tactic(&mut self.pos, self.opponent_tactics, &mut scratch);
        self.scratch = scratch;
        match tactic {
            Tactic::WinNow(m) => {
                self.pv[p].clear();
                self.pv[p].push(m);
                let v = self.win_value(ply + 1);
                self.record_decided(ply, m, -v);
                if ply == 0 {
                    // Every other way to win at once is a candidate too (an open four's
                    // two ends); the move chosen stays the tactic's.
                    for other in self.other_wins_now(m) {
                        self.record_decided(ply, other, -v);
                    }
                }
                Err(v)
            }
            Tactic::Lost(block) => {
                // The blocking move is the line, so a lost root still names a searched move.
                self.pv[p].push(block);
                let v = -self.win_value(ply + 2);
                self.record_decided(ply, block, -v);
                Err(v)
            }
            Tactic::MustBlock(m) => Ok(Some(m)),
            Tactic::Quiet => Ok(None),
        }
    }

    /// The node's moves searched in order (only `forced` when the tactics force a block):
    /// the best value and move, or None when the search was aborted. The line of the best
    /// move goes to `pv[ply]`; a cutoff is recorded in `stats` and the killer and history
    /// tables.
    fn search_moves(
        &mut self,
        depth: u32,
        ply: u32,
        (alpha, beta): (&mut i32, i32),
        stats: &mut AlphaBetaStats,
        (tt_move, forced): (Option<Move>, Option<Move>),
    ) -> Option<(i32, Option<Move>)> {
        let p = ply as usize;
        // Moves in id order with nothing to sort or cut are not listed first but taken one at
        // a time: a cutoff on the first of gomoku's 200-odd moves then costs one move, not a
        // list of them all.
        let in_id_order = forced.is_none()
            && self.cfg.ordering == MoveOrdering::None
            && self.cap.is_none()
            && !self.answers
            && (self.cfg.radius.is_none() || self.pos.variant().has_gravity());
        let mut first = usize::MAX;
        if let Some(m) = forced {
            self.buffers[p].clear();
            self.buffers[p].push((m, 0));
        } else if !in_id_order {
            first = self.generate(p, tt_move);
        }
        let moves = std::mem::take(&mut self.buffers[p]);
        let total = if in_id_order { self.pos.num_legal_moves() } else { moves.len() };
        // The moves searched: the kept ones, then all of them if the kept ones all lose.
        let mut count = first.min(total);
        let mut next_id = 0;
        let mut best = -INF;
        let mut best_move = None;
        // Multi-PV at the root: each move is searched against the n-th best value so far, so
        // the n best get exact values.
        let multi = if ply == 0 { self.cfg.multi_pv.max(1) as usize } else { 1 };
        let floor = *alpha;
        let mut top: Vec<i32> = Vec::new();
        // Not at the root: its moves are the analysis's candidates, and a null window's
        // bound there (then searched again) would list a move as better than the best.
        let pvs = self.cfg.pruning && multi == 1 && ply > 0 && self.cfg.reductions.is_some();
        let mut i = 0;
        while i < count {
            let m = if in_id_order { self.next_legal(&mut next_id) } else { moves[i].0 };
            let lo =
                if multi > 1 { if top.len() >= multi { top[multi - 1].max(floor) } else { floor } } else { *alpha };
            let refuted = if ply == 0 { self.refuted_at_root(m) } else { None };
            let score = match refuted {
                Some(v) => v,
                None => {
                    let window = (lo, beta, pvs && i > 0, pvs && i > 0 && forced.is_none());
                    let s = self.search_move(m, i, depth, ply, window);
                    if self.aborted {
                        self.buffers[p] = moves;
                        return None;
                    }
                    s
                }
            };
            if ply == 0 && multi == 1 {
                // At the root the window's upper end is open: a value above `lo` is exact.
                self.unfinished.push((m, score, score <= lo && lo > -INF));
            }
            if multi > 1 {
                let at = top.partition_point(|&t| t >= score);
                top.insert(at, score);
                top.truncate(multi);
            }
            if score > best {
                best = score;
                best_move = Some(m);
                let (head, tail) = self.pv.split_at_mut(p + 1);
                head[p].clear();
                head[p].push(m);
                head[p].extend_from_slice(&tail[0]);
                *alpha = (*alpha).max(score);
            }
            if self.cfg.pruning && *alpha >= beta {
                stats.cutoff = i + 1 < count;
                stats.cutoff_move = stats.cutoff.then_some(m);
                self.remember_cutoff(p, m, depth);
                break;
            }
            i += 1;
            if i == count && count < total && best <= -WIN_BOUND {
                // Every move the cap kept loses (`widen_losses` keeps the others in the
                // list): the others are searched before the loss is believed.
                count = total;
            }
        }
        self.buffers[p] = moves;
        Some((best, best_move))
    }

    /// The legal move with the least id from `next_id` on, which moves past it.
    fn next_legal(&self, next_id: &mut usize) -> Move {
        while !self.pos.is_legal(Move(*next_id as u16)) {
            *next_id += 1;
        }
        *next_id += 1;
        debug_assert!(*next_id <= self.pos.num_actions());
        Move(*next_id as u16 - 1)
    }

    /// Move `m` cut the node at ply `p` off with `depth` plies left: it becomes the ply's
    /// first killer, and its history count (for the side to move) grows by depth squared.
    fn remember_cutoff(&mut self, p: usize, m: Move, depth: u32) {
        if self.cfg.ordering != MoveOrdering::Full {
            return;
        }
        let k = &mut self.killers[p];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let slot = m.index() * 2 + self.pos.side_to_move().index();
        if let Some(h) = self.history.get_mut(slot) {
            *h = (*h + (depth * depth) as i32).min(1 << 20);
        }
    }

    /// The value of move `m`, the `i`-th of the node at `ply` with `depth` plies left, for
    /// the side to move, searched with `window`: (lo, beta, a null window first (PVS), a
    /// late move reduction allowed). Meaningless when the search was aborted.
    fn search_move(&mut self, m: Move, i: usize, depth: u32, ply: u32, window: (i32, i32, bool, bool)) -> i32 {
        let (lo, beta, null_first, reducible) = window;
        let me = self.pos.side_to_move();
        let cell = self.pos.move_cell(m);
        let reduce = match self.cfg.reductions {
            Some(r) if reducible => self.reduction(r, depth, i, cell, me),
            _ => 0,
        };
        self.pos.play(m);
        self.board.play(cell, me);
        let score = if !self.cfg.pruning {
            -self.child(depth - 1, ply, -INF, INF, m, i)
        } else if null_first {
            // A null window first (shallower for a late quiet move): most moves only have to
            // be shown no better than the best so far.
            let mut s = -self.child(depth - 1 - reduce, ply, -lo - 1, -lo, m, i);
            if s > lo && reduce > 0 && !self.aborted {
                s = -self.child(depth - 1, ply, -lo - 1, -lo, m, i);
            }
            if s > lo && s < beta && !self.aborted {
                s = -self.child(depth - 1, ply, -beta, -lo, m, i);
            }
            s
        } else {
            -self.child(depth - 1, ply, -beta, -lo, m, i)
        };
        self.board.undo(cell, me);
        self.pos.undo();
        score
    }

    /// The child after move `m` (the `order`-th of the node at `ply`), searched `depth` more
    /// plies with the window (a, b).
    #[inline]
    fn child(&mut self, depth: u32, ply: u32, a: i32, b: i32, m: Move, order: usize) -> i32 {
        if depth == 0 && ply + 1 > self.record_depth {
            self.leaf(ply + 1)
        } else {
            self.negamax(depth, ply + 1, a, b, Some(m), order as u32)
        }
    }

    /// How many plies shallower the `i`-th move (on the empty `cell`) is first searched: none
    /// for the first moves, near the leaves, or for a move that makes a threat (a four or an
    /// open three, where the board keeps line shapes) or stops one of the opponent's.
    fn reduction(&self, r: Reductions, depth: u32, i: usize, cell: usize, me: Player) -> u32 {
        if r.after == 0 || depth < r.min_depth || i < r.after as usize {
            return 0;
        }
        if let Some(shapes) = self.board.shapes()
            && (shapes.threats(cell, me).forcing() || shapes.threats(cell, me.other()).forcing())
        {
            return 0;
        }
        let plies = if i >= 4 * r.after as usize { 2 } else { 1 };
        plies.min(depth - 1)
    }
}
