//! The threat-space search inside alpha-beta: the side to move's win by threats at a node,
//! and the reply check of the root's best move.

use super::Searcher;
use crate::game::{Move, Position};
use crate::search::SearchEvent;

impl<P: Position> Searcher<'_, P> {
    /// The side to move's win by threats at this node, when its probe runs here: the line
    /// becomes the node's, its first move the one child recorded, and its length the win's
    /// distance: the proof's line, in which the defender plays its first reply; another
    /// reply may last longer, another attack be quicker, so the distance orders wins by
    /// threats among themselves and is not a count of plies to the end.
    pub(super) fn threat_win(&mut self, depth: u32, ply: u32) -> Option<i32> {
        let probe = self.threats.as_deref_mut()?;
        if depth < probe.config.min_depth {
            return None;
        }
        // The root is probed once a search, at its first iteration: a later one would only
        // repeat it.
        let root = ply == 0;
        if root && std::mem::replace(&mut self.root_probed, true) {
            return None;
        }
        // The probe's nodes are the search's: it gets what the node budget has left (a lazy
        // SMP thread's share, topped up from the team's) but one, the search's next node,
        // which ends the search at the budget exactly.
        if self.node_limit.saturating_sub(self.nodes) <= 1 && !self.reserve() {
            return None;
        }
        let left = self.node_limit.saturating_sub(self.nodes + 1);
        if left == 0 {
            return None;
        }
        let probe = self.threats.as_deref_mut()?;
        let before = probe.nodes();
        let mut limits = if root { probe.at_root(&self.clock.limits, true) } else { probe.at_node(depth) };
        limits.nodes = limits.nodes.min(left);
        let found = probe.side_to_move_wins(&mut self.pos, &mut self.board, limits);
        self.nodes += probe.nodes() - before;
        let line = found?;
        let first = *line.moves.first()?;
        let p = ply as usize;
        self.pv[p].clear();
        self.pv[p].extend_from_slice(&line.moves);
        let v = self.win_value(ply + line.plies);
        self.record_decided(ply, first, -v);
        if ply == 0 {
            self.root_threat = Some(line);
        }
        Some(v)
    }

    /// A root move the reply check refuted ([`ThreatConfig::reply_budget`]): its value for
    /// the root's mover (the loss), recorded as the root's child that it is.
    pub(super) fn refuted_at_root(&mut self, m: Move) -> Option<i32> {
        let &(_, v) = self.refuted.iter().find(|r| r.0 == m)?;
        self.record_decided(0, m, -v);
        Some(v)
    }

    /// The root moves the team's reply check refuted (the main thread's, which every thread
    /// values as lost), before an iteration.
    pub(super) fn take_team_refutations(&mut self) {
        if let Some(team) = self.team {
            self.refuted = team.refuted_now();
        }
    }

    /// Has `m` passed the reply check (or is there none to pass)? A move the check never
    /// looked at has not.
    pub(super) fn check_passed(&self, m: Move) -> bool {
        let on = self.threats.as_ref().is_some_and(|p| p.config.reply_budget > 0);
        !on || (self.checked.iter().any(|c| c.0 == m) && !self.refuted.iter().any(|r| r.0 == m))
    }

    /// The reply check of a depth's best move `best` at the root, the depth having taken
    /// `spent` nodes: true when the opponent is shown to win by threats after it. The move is
    /// then valued as that loss at the root for the rest of the search. The check gets half
    /// the depth's nodes, at most [`ThreatConfig::reply_budget`]: most checks find nothing
    /// and take their whole budget, so a share of the search's own work keeps their cost a
    /// share of it at every depth. A move is checked again only with four times the nodes of
    /// its last check; a check that finds nothing proves nothing.
    pub(super) fn refuted_by_threats(&mut self, best: Move, spent: u64) -> bool {
        let Some(probe) = self.threats.as_deref_mut() else { return false };
        let mut limits = probe.after_root(&self.clock.limits, true);
        let budget = limits.nodes.min((spent / 2).max(1_000));
        if probe.config.reply_budget == 0 || self.checked.iter().any(|&(m, b)| m == best && budget < 4 * b) {
            return false;
        }
        self.checked.push((best, budget));
        let left = self.node_limit.saturating_sub(self.nodes + 1);
        if left == 0 {
            return false;
        }
        let me = self.pos.side_to_move();
        let cell = self.pos.move_cell(best);
        self.pos.play(best);
        self.board.play(cell, me);
        let before = probe.nodes();
        limits.nodes = budget.min(left);
        let found = probe.side_to_move_wins(&mut self.pos, &mut self.board, limits);
        self.nodes += probe.nodes() - before;
        let line = found.map(|l| (l.plies, l.moves.iter().map(|&m| self.pos.format_move(m)).collect::<Vec<_>>()));
        self.board.undo(cell, me);
        self.pos.undo();
        let Some((plies, moves)) = line else { return false };
        // The opponent, to move at ply 1, wins `plies` plies later.
        let value = -self.win_value(1 + plies);
        self.refuted.push((best, value));
        if let Some(team) = self.team {
            // The helpers value it so from their next iteration.
            team.refuted.lock().unwrap_or_else(|e| e.into_inner()).push((best, value));
        }
        let text = format!(
            "alpha-beta: {} loses to threats in {} plies: {}",
            self.pos.format_move(best),
            plies + 1,
            moves.join(" ")
        );
        self.sink.event(SearchEvent::Notice(text));
        true
    }
}
