//! Threat-space search inside the agents: at a node of alpha-beta's tree or of MCTS's, the
//! side to move's win by a sequence of threats (fours, then threes: VCF within VCT) ends the
//! search of that node as a proven win. The opponent's win by threats ends each move that
//! does not stop it one ply lower, where the opponent is to move: what is left to search
//! is the defence set.
//!
//! The searcher ([`ThreatSearch`]) is sound: a win it finds is a win. A failure within its
//! node budget proves nothing, and the agent searches on as without it. It applies on
//! free-placement boards under the K-or-more rule ([`threats_apply`]); elsewhere the probe
//! is off.

use serde::{Deserialize, Serialize};

use std::time::{Duration, Instant};

use super::solver::{ThreatSearch, ThreatWin, threats_apply};
use super::{SearchLimits, SettingError};
use crate::eval::EvalBoard;
use crate::game::{Move, Position};

/// How an agent runs threat-space search in its tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ThreatConfig {
    /// Attacker moves (threats and the blocks it is forced to make) a proof may take.
    pub depth: u32,
    /// Nodes one probe in the tree may visit before it gives up (and proves nothing).
    pub budget: u64,
    /// Nodes the probe of the search's root may visit: one probe a search, so it may look
    /// further than those in the tree.
    pub root_budget: u64,
    /// Alpha-beta: nodes with at least this many plies left to search are probed (1: every
    /// node but the leaves, which the heuristic values).
    pub min_depth: u32,
    /// Memory of the probe's table (failures are forgotten past it; wins kept), MiB.
    pub table_mb: u32,
    /// Alpha-beta: the most nodes of the check of each depth's best move before the search
    /// keeps it: the opponent's win by threats after it (the in-tree probes, with `budget`,
    /// miss the longer ones). A check takes half the depth's nodes, up to this. A move it
    /// refutes is valued as that loss and the depth is searched again without it. 0: no
    /// check.
    pub reply_budget: u64,
    /// Alpha-beta: nodes with at most this many plies left look for a win by fours alone
    /// (victory by continuous fours, each with one reply) rather than by fours and threes:
    /// a fraction of the cost where most probes are, near the leaves. 0: threes everywhere.
    #[serde(skip_serializing_if = "is_zero")]
    pub vcf_depth: u32,
    /// A probe that searches fours and threes looks for a win by fours alone first, with up
    /// to half its nodes: a win by fours takes a few nodes where the wider search, deepening
    /// one attacker move at a time over fours and threes, may spend its whole budget before
    /// it reaches the line's length.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fours_first: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Default for ThreatConfig {
    fn default() -> Self {
        ThreatConfig {
            depth: 10,
            budget: 400,
            root_budget: 200_000,
            min_depth: 1,
            table_mb: 32,
            reply_budget: 0,
            vcf_depth: 0,
            fours_first: false,
        }
    }
}

impl ThreatConfig {
    /// `fields`: the names of `depth`, `budget`, `root_budget` and `table_mb` in the agent's
    /// errors.
    pub fn validate(&self, fields: [&'static str; 4]) -> Result<(), SettingError> {
        let range = |field, rule| Err(SettingError::Range { field, rule, value: None });
        if !(1..=64).contains(&self.depth) {
            return range(fields[0], "must be 1 to 64");
        }
        if self.budget == 0 {
            return range(fields[1], "must be at least 1");
        }
        if self.root_budget == 0 {
            return range(fields[2], "must be at least 1");
        }
        super::limits::check_memory_mb(fields[3], self.table_mb as u64, 1)?;
        Ok(())
    }
}

/// A win by threats found in a tree: the moves from the side to move's first to its last,
/// both sides' (the defender's reply in the order the proof searched it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatLine {
    pub moves: Vec<Move>,
    /// Plies to the completed line along `moves` (two more when the line stops at a double
    /// threat no reply stops).
    pub plies: u32,
}

impl ThreatLine {
    fn from_win<P: Position>(pos: &P, win: &ThreatWin) -> ThreatLine {
        let moves: Vec<Move> = win.line.iter().filter_map(|&(cell, _)| pos.cell_move(cell)).collect();
        let plies = moves.len() as u32 + if win.every_reply_loses { 2 } else { 0 };
        ThreatLine { moves, plies: plies.max(1) }
    }
}

/// What one probe may spend, and what it searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeLimits {
    /// Nodes the probe may visit before it gives up.
    pub nodes: u64,
    /// When it gives up, if its nodes last longer.
    pub deadline: Option<Instant>,
    /// Wins by fours alone, not by fours and threes ([`ThreatConfig::vcf_depth`]).
    pub fours_only: bool,
}

/// One agent's threat prover, kept between its searches (the table of one game).
#[derive(Debug)]
pub struct ThreatProbe {
    pub config: ThreatConfig,
    search: ThreatSearch,
}

impl ThreatProbe {
    pub fn new(config: ThreatConfig) -> ThreatProbe {
        let search = ThreatSearch::new(config.budget).with_table_mb(config.table_mb as usize);
        ThreatProbe { config, search }
    }

    /// Does the probe apply to this position's rules?
    pub fn applies<P: Position>(pos: &P) -> bool {
        threats_apply(pos)
    }

    /// Nodes the threat search visited over the probe's life.
    pub fn nodes(&self) -> u64 {
        self.search.nodes
    }

    /// A probe in the tree: its node budget, no deadline (it is short), fours and threes.
    pub fn in_tree(&self) -> ProbeLimits {
        ProbeLimits { nodes: self.config.budget, deadline: None, fours_only: false }
    }

    /// Alpha-beta's probe at a node with `plies_left` to search: [`Self::in_tree`], with
    /// fours alone within [`ThreatConfig::vcf_depth`] plies of the leaves.
    pub fn at_node(&self, plies_left: u32) -> ProbeLimits {
        ProbeLimits { fours_only: plies_left <= self.config.vcf_depth, ..self.in_tree() }
    }

    /// The root's probe under the search's `limits`: `root_budget` nodes, at most half a
    /// node limit (`nodes_count`: the agent counts the probe's nodes as its own), ending at a
    /// quarter of a time limit, so that the search proper keeps most of its budget.
    pub fn at_root(&self, limits: &SearchLimits, nodes_count: bool) -> ProbeLimits {
        Self::share(self.config.root_budget, limits, nodes_count)
    }

    /// The check of a best move at the root ([`ThreatConfig::reply_budget`]), shared as
    /// [`Self::at_root`] shares the root's probe.
    pub fn after_root(&self, limits: &SearchLimits, nodes_count: bool) -> ProbeLimits {
        Self::share(self.config.reply_budget, limits, nodes_count)
    }

    fn share(mut budget: u64, limits: &SearchLimits, nodes_count: bool) -> ProbeLimits {
        if let Some(n) = limits.nodes.filter(|_| nodes_count) {
            budget = budget.min((n / 2).max(1));
        }
        let seconds = match (limits.time, limits.cpu_time) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let deadline = seconds.map(|t| Instant::now() + Duration::from_secs_f64(t / 4.0));
        ProbeLimits { nodes: budget, deadline, fours_only: false }
    }

    /// The side to move's win by threats, with its line, within `limits` (from
    /// [`Self::in_tree`], [`Self::at_node`] or [`Self::at_root`]). `board` holds `pos`'s window counts, built
    /// [`EvalBoard::with_near_windows`]; both are restored.
    pub fn side_to_move_wins<P: Position>(
        &mut self,
        pos: &mut P,
        board: &mut EvalBoard,
        limits: ProbeLimits,
    ) -> Option<ThreatLine> {
        // The proof takes back every move it plays, so what it never reads (the line shapes
        // and the value) is left as it is rather than kept through it.
        board.set_paused(true);
        let line = self.wins_within(pos, board, limits);
        board.set_paused(false);
        line
    }

    fn wins_within<P: Position>(
        &mut self,
        pos: &mut P,
        board: &mut EvalBoard,
        limits: ProbeLimits,
    ) -> Option<ThreatLine> {
        let ProbeLimits { nodes: budget, deadline, fours_only } = limits;
        let end = self.search.nodes + budget;
        if !fours_only && self.config.fours_first {
            let half = self.search.nodes + (budget / 2).max(1);
            let line = self.deepen(pos, board, half, deadline, true);
            if line.is_some() || deadline.is_some_and(|d| Instant::now() >= d) {
                return line;
            }
        }
        self.deepen(pos, board, end, deadline, fours_only)
    }

    /// The side to move's win before the search's node count reaches `end`, deepening one
    /// attacker move at a time: most wins are short, and a search straight to the full depth
    /// spends its budget deep in lines that fail. Failures are kept with their depth, so each
    /// pass starts from what the last one learnt.
    fn deepen<P: Position>(
        &mut self,
        pos: &mut P,
        board: &mut EvalBoard,
        end: u64,
        deadline: Option<Instant>,
        fours_only: bool,
    ) -> Option<ThreatLine> {
        let me = pos.side_to_move();
        self.search.set_fours_only(fours_only);
        for depth in 1..=self.config.depth {
            let left = end.saturating_sub(self.search.nodes);
            if left == 0 {
                return None;
            }
            self.search.set_limits(left, deadline);
            if let Some(win) = self.search.winning_line(pos, board, me, depth) {
                return Some(ThreatLine::from_win(pos, &win));
            }
            if self.search.aborted() {
                return None;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AnyPosition, Status};
    use crate::search::{AlphaBetaConfig, MctsConfig};
    use crate::with_position;

    /// Two crossing twos, h8 i8 and j9 j10: j8 makes two open threes, a win by threats that
    /// has no four until the defender has answered a three. Fours alone do not find it, and
    /// a failure without threes is not taken for one with them (the table keeps them apart).
    #[test]
    fn a_win_that_needs_a_three_is_not_a_win_by_fours() {
        let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 a1 i8 o15 j10 a15 j9 o1").unwrap();
        with_position!(&pos, p => {
            let mut p = p.clone();
            let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
            let mut probe = ThreatProbe::new(ThreatConfig::default());
            let fours = ProbeLimits { fours_only: true, ..probe.in_tree() };
            assert_eq!(probe.side_to_move_wins(&mut p, &mut board, fours), None);
            let line = probe.side_to_move_wins(&mut p, &mut board, probe.in_tree()).expect("a win by threats");
            let me = p.side_to_move();
            for &m in &line.moves {
                p.play(m);
            }
            assert!(p.status() == Status::Win(me) || line.plies as usize == line.moves.len() + 2);
        });
    }

    /// A position of a game against Rapfi: White wins by fours alone in 9 plies (k9 h9 l9 m9
    /// k8 m10 i10 g12 l7), which fours and threes do not reach within a probe's 400 nodes;
    /// fours first find it within them. Either way a win found plays out to a five.
    #[test]
    fn fours_first_finds_a_win_by_fours_within_the_budget() {
        let moves = "h8 i9 h7 h6 i7 g9 f9 f8 g7 j7 e8 e7 h10 h11 h5 j9 g8 i6 g6";
        let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), moves).unwrap();
        let found = |fours_first| {
            with_position!(&pos, p => {
                let mut p = p.clone();
                let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
                let mut probe = ThreatProbe::new(ThreatConfig { fours_first, ..ThreatConfig::default() });
                let line = probe.side_to_move_wins(&mut p, &mut board, probe.in_tree());
                assert!(probe.nodes() <= probe.config.budget, "{} nodes", probe.nodes());
                line.map(|line| {
                    let me = p.side_to_move();
                    for &m in &line.moves {
                        p.play(m);
                    }
                    assert_eq!(p.status(), Status::Win(me), "{}", p.history_string());
                    line.plies
                })
            })
        };
        assert_eq!(found(false), None);
        assert_eq!(found(true), Some(9));
    }

    /// The probe's table is shared by a position's mirror images (its key is the canonical
    /// hash) but a winning cell is a cell of the image it was found in: a probe kept between
    /// positions gives each image a line of its own that plays out to a five. Pairs of
    /// images (left-right, top-bottom, a diagonal) of an open three, and of a three with a
    /// two beside it.
    #[test]
    fn a_mirror_image_gets_its_own_winning_line() {
        let pairs = [
            ("h8 a1 i8 a3 j8 a5", "h8 o1 g8 o3 f8 o5"),
            ("h8 a1 i8 a3 j8 a5 h9 a7 h10 b1", "h8 o1 g8 o3 f8 o5 h9 o7 h10 n1"),
            ("h8 a1 h9 c1 h10 e1", "h8 a15 h7 c15 h6 e15"),
            ("h8 a1 i9 a3 j10 a5", "h8 a1 i7 a3 j6 a5"),
        ];
        for (a, b) in pairs {
            let mut probe = ThreatProbe::new(ThreatConfig::default());
            for moves in [a, b] {
                let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), moves).unwrap();
                with_position!(&pos, p => {
                    let mut p = p.clone();
                    let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
                    let line = probe.side_to_move_wins(&mut p, &mut board, probe.in_tree());
                    let line = line.unwrap_or_else(|| panic!("{moves}: a win by threats"));
                    let me = p.side_to_move();
                    for &m in &line.moves {
                        assert!(p.is_legal(m), "{moves}: {} in the line is taken", p.format_move(m));
                        p.play(m);
                    }
                    assert_eq!(p.status(), Status::Win(me), "{moves}: the line {}", p.history_string());
                });
            }
        }
    }

    #[test]
    fn a_setting_out_of_range_is_named() {
        let ab = |t: ThreatConfig| AlphaBetaConfig { threats: Some(t), ..AlphaBetaConfig::default() }.validate();
        let field = |r: Result<(), SettingError>| match r {
            Err(SettingError::Range { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert!(ab(ThreatConfig::default()).is_ok());
        assert_eq!(field(ab(ThreatConfig { depth: 0, ..ThreatConfig::default() })), "alpha-beta: threats.depth");
        assert_eq!(field(ab(ThreatConfig { budget: 0, ..ThreatConfig::default() })), "alpha-beta: threats.budget");
        assert!(ab(ThreatConfig { table_mb: 0, ..ThreatConfig::default() }).is_err());
        // MCTS proves nodes with it: without MCTS-Solver the setting means nothing.
        let mcts = |solver| MctsConfig { threats: Some(ThreatConfig::default()), solver, ..MctsConfig::default() };
        assert_eq!(field(mcts(false).validate()), "mcts: threats");
        assert!(mcts(true).validate().is_ok());
        // The check of a depth's best move is alpha-beta's: MCTS names it rather than ignore it.
        let reply = ThreatConfig { reply_budget: 1_000, ..ThreatConfig::default() };
        let mcts = MctsConfig { threats: Some(reply), solver: true, ..MctsConfig::default() };
        assert_eq!(field(mcts.validate()), "mcts: threats.reply_budget");
        assert!(ab(reply).is_ok());
        let fours = ThreatConfig { vcf_depth: 2, ..ThreatConfig::default() };
        let mcts = MctsConfig { threats: Some(fours), solver: true, ..MctsConfig::default() };
        assert_eq!(field(mcts.validate()), "mcts: threats.vcf_depth");
        assert!(ab(fours).is_ok());
    }

    #[test]
    fn the_line_found_is_legal_and_ends_in_a_win() {
        // Gomoku after h8 h7 i8 i7 j8 a1: the first player wins by threats (an open four).
        let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 h7 i8 i7 j8 a1").unwrap();
        with_position!(&pos, p => {
            let mut p = p.clone();
            let before = p.hash();
            let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
            let mut probe = ThreatProbe::new(ThreatConfig::default());
            let line = probe.side_to_move_wins(&mut p, &mut board, probe.in_tree()).expect("a win by threats");
            assert_eq!(p.hash(), before, "the position is given back");
            let me = p.side_to_move();
            for &m in &line.moves {
                assert!(p.is_legal(m));
                p.play(m);
            }
            assert_eq!(p.status(), Status::Win(me));
            assert_eq!(line.plies as usize, line.moves.len());
        });
        // The open four comes from fours alone too.
        let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 h7 i8 i7 j8 a1").unwrap();
        with_position!(&pos, p => {
            let mut p = p.clone();
            let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
            let mut probe = ThreatProbe::new(ThreatConfig { vcf_depth: 2, ..ThreatConfig::default() });
            assert!(probe.at_node(2).fours_only && !probe.at_node(3).fours_only);
            assert!(probe.side_to_move_wins(&mut p, &mut board, probe.at_node(2)).is_some());
        });
        // Tic-tac-toe from the start: no win by threats (a draw), and the probe says so.
        let pos = AnyPosition::new("tictactoe".parse().unwrap());
        with_position!(&pos, p => {
            let mut p = p.clone();
            let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
            let mut probe = ThreatProbe::new(ThreatConfig::default());
            let limits = probe.at_root(&SearchLimits::default(), true);
            assert!(probe.side_to_move_wins(&mut p, &mut board, limits).is_none());
        });
    }
}
