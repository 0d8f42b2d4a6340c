//! The threat-space search as a review's judge on free-placement boards: where either side
//! wins by a sequence of threats (fours and threes), the value of the position before a move,
//! or after it, is proven without a full solve. A move that lets the opponent win by threats
//! is then a proven loss however the heuristic judge valued it, and a move outside the judge's
//! move generator is valued all the same.

use crate::eval::EvalBoard;
use crate::game::{AnyPosition, Move, Position};
use crate::search::Score;
use crate::search::solver::{ThreatSearch, threats_apply};
use crate::with_position;

/// Attacker moves (threats and forced blocks) a proof may take: gomoku's forced wins found in
/// games are far shorter, and failures are cheap to store.
const DEPTH: u32 = 8;

/// What the threat-space search proved about a move, each value for the mover.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThreatJudgement {
    /// The position before the move: a win (with the move that starts the winning line) or
    /// a loss whatever is played.
    pub before: Option<(Score, Option<Move>)>,
    /// The position after the move played: the mover still wins, or the opponent wins.
    pub played: Option<Score>,
}

impl ThreatJudgement {
    /// Proves what it can about `played` from `before` within `seconds` (its four searches
    /// share them). Nothing where threats do not apply (gravity, the exactly-K rule).
    pub fn of(before: &AnyPosition, played: Move, seconds: f64) -> ThreatJudgement {
        let mut after = before.clone();
        if seconds <= 0.0 || after.try_play(played).is_err() || after.status().is_over() {
            return ThreatJudgement::default();
        }
        with_position!(before, p => {
            if !threats_apply(p) {
                return ThreatJudgement::default();
            }
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds);
            let mut search = ThreatSearch::new(0).with_deadline(Some(deadline)).with_table_mb(16);
            let mover = p.side_to_move();
            let mut pos = p.clone();
            let mut board = EvalBoard::new(&pos, |_, _, _| 0).with_near_windows();
            let before = if let Some(win) = search.winning_line(&mut pos, &mut board, mover, DEPTH) {
                let first = win.line.first().and_then(|&(cell, _)| pos.cell_move(cell));
                Some((Score::Win { plies: None }, first))
            } else if search.wins(&mut pos, &mut board, mover.other(), DEPTH) {
                Some((Score::Loss { plies: None }, None))
            } else {
                None
            };
            pos.play(played);
            let played = value_after(&mut search, &mut pos, mover);
            ThreatJudgement { before, played }
        })
    }

    /// What the threat search proves of the position after `mv` from `before`, for the mover,
    /// within `seconds`: the judge's best move is checked this way when the move played
    /// loses by threats (if the best loses too, the move played gave nothing away).
    pub fn after(before: &AnyPosition, mv: Move, seconds: f64) -> Option<Score> {
        let mut after = before.clone();
        if seconds <= 0.0 || after.try_play(mv).is_err() || after.status().is_over() {
            return None;
        }
        with_position!(&after, p => {
            if !threats_apply(p) {
                return None;
            }
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds);
            let mut search = ThreatSearch::new(0).with_deadline(Some(deadline)).with_table_mb(16);
            value_after(&mut search, &mut p.clone(), before.side_to_move())
        })
    }
}

impl ThreatJudgement {
    /// Moves from `before` that may stop the threat win the opponent has after `mv`: the
    /// cells of that winning line (its threats and their replies), in the line's order. A
    /// position is not lost because the judge's favourite loses: one of these may hold.
    pub fn defences(before: &AnyPosition, mv: Move, seconds: f64) -> Vec<Move> {
        let mut after = before.clone();
        if seconds <= 0.0 || after.try_play(mv).is_err() || after.status().is_over() {
            return Vec::new();
        }
        with_position!(&after, p => {
            if !threats_apply(p) {
                return Vec::new();
            }
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds);
            let mut search = ThreatSearch::new(0).with_deadline(Some(deadline)).with_table_mb(16);
            let mut pos = p.clone();
            let mut board = EvalBoard::new(&pos, |_, _, _| 0).with_near_windows();
            let Some(win) = search.winning_line(&mut pos, &mut board, before.side_to_move().other(), DEPTH) else {
                return Vec::new();
            };
            let legal = before.legal_moves();
            let mut out: Vec<Move> = Vec::new();
            for m in win.line.iter().filter_map(|&(cell, _)| pos.cell_move(cell)) {
                if legal.contains(&m) && !out.contains(&m) {
                    out.push(m);
                }
            }
            out
        })
    }
}

/// The position after the mover's move: the opponent wins by threats, or the mover still does.
fn value_after<P: Position>(search: &mut ThreatSearch, after: &mut P, mover: crate::game::Player) -> Option<Score> {
    let mut board = EvalBoard::new(after, |_, _, _| 0).with_near_windows();
    if search.wins(after, &mut board, mover.other(), DEPTH) {
        Some(Score::Loss { plies: None })
    } else if search.wins(after, &mut board, mover, DEPTH) {
        Some(Score::Win { plies: None })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gomoku after `h8 h7 i8 i7 j8`: the second player must stop the open three; `a1` lets
    /// the first player win by threats, `g8` does not (as far as threats go), and before the
    /// move neither side wins by threats alone.
    #[test]
    fn a_move_that_ignores_an_open_three_is_a_proven_loss() {
        let before = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 h7 i8 i7 j8").unwrap();
        let a1 = before.parse_move("a1").unwrap();
        let judged = ThreatJudgement::of(&before, a1, 2.0);
        assert_eq!(judged.played, Some(Score::Loss { plies: None }));
        assert_eq!(judged.before, None);
        let g8 = before.parse_move("g8").unwrap();
        assert_eq!(ThreatJudgement::of(&before, g8, 2.0).played, None);
        // The first player to move with an open four's threat: a win, and its first move.
        let won = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 h7 i8 i7 j8 a1").unwrap();
        let judged = ThreatJudgement::of(&won, won.parse_move("a2").unwrap(), 2.0);
        assert!(matches!(judged.before, Some((Score::Win { .. }, Some(_)))), "{judged:?}");
        // The stones that stop the open three are among the defences of a move ignoring it.
        let defences = ThreatJudgement::defences(&before, a1, 2.0);
        let names: Vec<String> = defences.iter().map(|&m| before.format_move(m)).collect();
        assert!(names.iter().any(|n| n == "g8" || n == "k8"), "{names:?}");
        assert!(defences.iter().any(|&m| ThreatJudgement::after(&before, m, 2.0).is_none()), "one holds");
        // Gravity boards: no threat-space search.
        let c4 = AnyPosition::from_moves("connect4".parse().unwrap(), "d").unwrap();
        assert_eq!(ThreatJudgement::of(&c4, c4.parse_move("d").unwrap(), 1.0), ThreatJudgement::default());
    }
}
