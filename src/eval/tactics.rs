//! One-ply tactics, read from an [`EvalBoard`]: a win on this move, a cell the opponent would
//! win on next move (to be blocked), and two such cells (a double threat: one is blocked, the
//! other wins). Alpha-beta, the generic and proof-number solvers and the Flecart heuristic all
//! read them here.

use super::EvalBoard;
use crate::game::{Move, Player, Position, Status};

/// The cells `p` could complete a line on with a move playable now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threat {
    /// No such cell.
    None,
    /// One: the other side must play it (the move given).
    One(Move),
    /// Two or more, which one move cannot all block; the move given is the first found.
    Double(Move),
}

impl Threat {
    /// The first threatened move, if any.
    pub fn first(self) -> Option<Move> {
        match self {
            Threat::None => None,
            Threat::One(m) | Threat::Double(m) => Some(m),
        }
    }
}

/// What one ply of tactics says about a position, for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tactic {
    /// The side to move wins with this move.
    WinNow(Move),
    /// The opponent threatens two cells: the side to move loses in two plies whatever it
    /// plays (the move given blocks one of them).
    Lost(Move),
    /// The opponent threatens one cell: the side to move must block it.
    MustBlock(Move),
    /// Nothing forced.
    Quiet,
}

impl EvalBoard {
    /// A winning move of the side to move, checked by playing it: under the exactly-K rule a
    /// cell that completes a window may make an overline instead. `scratch` is reused.
    pub fn winning_move<P: Position>(&self, pos: &mut P, scratch: &mut Vec<Move>) -> Option<Move> {
        let me = pos.side_to_move();
        if !self.has_threat_window(me) {
            return None;
        }
        self.threat_moves(pos, me, scratch);
        scratch.iter().copied().find(|&m| {
            pos.play(m);
            let won = pos.status() == Status::Win(me);
            pos.undo();
            won
        })
    }

    /// The cells `p` could complete a window on with a move playable now. Not checked by
    /// playing: under the exactly-K rule one may make an overline instead of a line. The
    /// searches read threats only under the K-or-more rule, where each is a line; Flecart's
    /// heuristic reads them under either rule, as its estimate.
    pub fn threat<P: Position>(&self, pos: &P, p: Player, scratch: &mut Vec<Move>) -> Threat {
        if !self.has_threat_window(p) {
            return Threat::None;
        }
        self.threat_moves(pos, p, scratch);
        match scratch.as_slice() {
            [] => Threat::None,
            [m] => Threat::One(*m),
            [m, ..] => Threat::Double(*m),
        }
    }

    /// The side to move's tactic: a win now, else (when `opponent` asks for it) the
    /// opponent's threats, else quiet.
    pub fn tactic<P: Position>(&self, pos: &mut P, opponent: bool, scratch: &mut Vec<Move>) -> Tactic {
        if let Some(m) = self.winning_move(pos, scratch) {
            return Tactic::WinNow(m);
        }
        if !opponent {
            return Tactic::Quiet;
        }
        match self.threat(pos, pos.side_to_move().other(), scratch) {
            Threat::None => Tactic::Quiet,
            Threat::One(m) => Tactic::MustBlock(m),
            Threat::Double(m) => Tactic::Lost(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyPosition;
    use crate::rng::{below, seeded};
    use crate::with_position;

    /// Does the side to move win with some legal move (found by playing every one)?
    fn wins_now<P: Position>(pos: &mut P) -> bool {
        let me = pos.side_to_move();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        moves.into_iter().any(|m| {
            pos.play(m);
            let won = pos.status() == Status::Win(me);
            pos.undo();
            won
        })
    }

    /// Does `m` leave the opponent a win on its next move?
    fn lets_a_win<P: Position>(pos: &mut P, m: Move) -> bool {
        pos.play(m);
        let lost = !pos.status().is_over() && wins_now(pos);
        pos.undo();
        lost
    }

    /// Every tactic the board reads is what playing the moves out shows, on random positions of
    /// free-placement and gravity boards: a win now wins and none is missed, a lost position
    /// loses after every reply, and a forced block is the only move that does not.
    #[test]
    fn tactics_agree_with_playing_the_moves_out() {
        let mut rng = seeded(11);
        let mut seen = [0usize; 4];
        for game in ["mnk:5,5,4", "mnk:9,9,5", "connect:7,6,4", "connect:5,4,3"] {
            let start = AnyPosition::from_moves(game.parse().unwrap(), "").unwrap();
            with_position!(&start, p => {
                for _ in 0..300 {
                    let mut pos = p.clone();
                    let plies = below(&mut rng, 20);
                    for _ in 0..plies {
                        let mut ms = Vec::new();
                        pos.legal_moves(&mut ms);
                        if pos.status().is_over() || ms.is_empty() {
                            break;
                        }
                        pos.play(ms[below(&mut rng, ms.len())]);
                    }
                    if pos.status().is_over() {
                        continue;
                    }
                    let board = EvalBoard::new(&pos, |_, _, _| 0);
                    let mut moves = Vec::new();
                    pos.legal_moves(&mut moves);
                    let tactic = board.tactic(&mut pos, true, &mut Vec::new());
                    let at = format!("{game} {:?}: {tactic:?}", pos.history());
                    if let Tactic::WinNow(m) = tactic {
                        seen[0] += 1;
                        pos.play(m);
                        assert!(pos.status().is_over(), "{at}");
                        pos.undo();
                        continue;
                    }
                    assert!(!wins_now(&mut pos), "a win missed: {at}");
                    match tactic {
                        Tactic::Lost(_) => {
                            seen[1] += 1;
                            assert!(moves.iter().all(|&m| lets_a_win(&mut pos, m)), "{at}");
                        }
                        Tactic::MustBlock(b) => {
                            seen[2] += 1;
                            assert!(moves.iter().filter(|&&m| m != b).all(|&m| lets_a_win(&mut pos, m)), "{at}");
                        }
                        _ => seen[3] += 1,
                    }
                }
            });
        }
        // Each kind came up often enough for the checks to mean something.
        assert!(seen.iter().all(|&n| n >= 20), "{seen:?}");
    }
}
