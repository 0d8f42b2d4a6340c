//! The moves of a node: generated, filtered by distance, ordered and capped.

use super::{MoveOrdering, Searcher};
use crate::eval::{Combination, Heuristic, stones_around};
use crate::game::{Move, Position};

impl<P: Position> Searcher<'_, P> {
    /// Moves of the current node into `buffers[ply]`, filtered, scored and sorted, and how many
    /// of them to search: under a branching cap, the first that many; the others follow, for a
    /// node that widens when its kept moves all lose (`widen_losses`).
    pub(super) fn generate(&mut self, ply: usize, tt_move: Option<Move>) -> usize {
        let mut buf = std::mem::take(&mut self.buffers[ply]);
        buf.clear();
        self.pos.legal_moves(&mut self.scratch);
        if let Some(fours) = self.threat_answers(ply) {
            self.push_answers(&mut buf, fours);
        }
        // Nothing stops the threat (every move loses): all of them are searched, as usual.
        let answering = !buf.is_empty();
        let mut radius = None;
        if !answering {
            radius = self.cfg.radius.filter(|_| !self.pos.variant().has_gravity());
            if let Some(r) = radius {
                self.near_cells(r);
            }
            for &m in &self.scratch {
                if radius.is_some() && !self.near[0][self.pos.move_cell(m)] {
                    continue;
                }
                buf.push((m, 0));
            }
        }
        let cfg = self.cfg;
        let needs_heuristic =
            cfg.branching_cap.is_some() || matches!(cfg.ordering, MoveOrdering::Heuristic | MoveOrdering::Full);
        for entry in buf.iter_mut() {
            let m = entry.0;
            let mut s = 0i64;
            match cfg.ordering {
                MoveOrdering::None => {}
                MoveOrdering::Neighbours => s = stones_around(&self.pos, self.pos.move_cell(m)) as i64,
                MoveOrdering::Heuristic => {}
                MoveOrdering::Full => {
                    if Some(m) == tt_move {
                        s += 1 << 40;
                    } else if self.killers.get(ply).is_some_and(|k| k[0] == Some(m)) {
                        s += 1 << 36;
                    } else if self.killers.get(ply).is_some_and(|k| k[1] == Some(m)) {
                        s += 1 << 35;
                    }
                    let side = self.pos.side_to_move().index();
                    s += (self.history.get(m.index() * 2 + side).copied().unwrap_or(0) as i64) << 8;
                }
            }
            if needs_heuristic {
                s += cfg.heuristic.move_score(&self.pos, &self.board, m) as i64;
            }
            entry.1 = s.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        }
        if cfg.ordering != MoveOrdering::None || cfg.branching_cap.is_some() {
            // Stable: equal scores keep the generation order, so runs are reproducible.
            buf.sort_by_key(|e| std::cmp::Reverse(e.1));
        }
        let mut first = buf.len();
        if let Some(q) = self.cap.filter(|_| !answering)
            && buf.len() > q
        {
            // The root's moves the reply check refuted take none of the cap's places: they
            // come after the kept ones, valued as the losses they are, and the next best are
            // searched.
            let refuted: Vec<(Move, i32)> = if ply == 0 && !self.refuted.is_empty() {
                let (late, kept): (Vec<_>, Vec<_>) = buf.iter().partition(|e| self.refuted.iter().any(|r| r.0 == e.0));
                buf = kept;
                late
            } else {
                Vec::new()
            };
            let kept = q.min(buf.len());
            first = kept + refuted.len();
            if !self.cfg.widen_losses {
                buf.truncate(kept);
            }
            // Under `widen_losses` the ones cut off stay, after the kept and refuted ones, for
            // a widening: already in that order unless there are refuted moves to put between.
            if !refuted.is_empty() {
                buf.splice(kept..kept, refuted);
            }
        }
        if radius.is_some() && buf.is_empty() {
            // Empty board: the most central cell.
            let t = self.pos.windows().clone();
            let best = self.scratch.iter().copied().max_by_key(|&m| t.centrality[self.pos.move_cell(m)]);
            buf.extend(best.map(|m| (m, 0)));
            first = buf.len();
        }
        self.buffers[ply] = buf;
        first
    }

    /// Under [`AlphaBetaConfig::forced_answers`](super::AlphaBetaConfig::forced_answers), when
    /// the opponent is one stone from a line or an open four and the side to move has no line of
    /// its own to complete: Some(whether its own fours answer too, which they do unless the
    /// opponent's line is one stone away), with the cells that stop the threat in `stopping`.
    fn threat_answers(&mut self, ply: usize) -> Option<bool> {
        if !self.answers || (ply == 0 && self.cfg.multi_pv > 1) {
            return None;
        }
        let me = self.pos.side_to_move();
        let shapes = self.board.shapes()?;
        if shapes.cells_with(me, Combination::Line) > 0 {
            return None;
        }
        let fours = shapes.cells_with(me.other(), Combination::Line) == 0;
        let mut stopping = std::mem::take(&mut self.stopping);
        let threatened = self.board.stopping_cells(me, &mut stopping);
        self.stopping = stopping;
        threatened.then_some(fours)
    }

    /// The legal moves that stop the threat (in `stopping`) or, with `fours`, make a four of
    /// the side to move's (the opponent must answer it before going on).
    fn push_answers(&self, buf: &mut Vec<(Move, i32)>, fours: bool) {
        let me = self.pos.side_to_move();
        let Some(shapes) = self.board.shapes() else { return };
        for &m in &self.scratch {
            let cell = self.pos.move_cell(m);
            let four = fours && shapes.threats(cell, me).makes_four();
            if four || self.stopping.binary_search(&cell).is_ok() {
                buf.push((m, 0));
            }
        }
    }

    /// Marks in `near[0]` the cells within `r` steps (king moves) of a stone.
    fn near_cells(&mut self, r: u32) {
        let t = self.pos.windows();
        let [near, prev] = &mut self.near;
        near.clear();
        near.extend((0..t.cells).map(|c| self.pos.stone_on(c).is_some()));
        for _ in 0..r {
            prev.clone_from(near);
            for (c, _) in prev.iter().enumerate().filter(|(_, on)| **on) {
                for &n in t.neighbours(c) {
                    near[n as usize] = true;
                }
            }
        }
    }
}
