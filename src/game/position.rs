//! The game-independent position API that every algorithm is written against.

use std::fmt;
use std::hash::Hash;
use std::sync::Arc;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{GameError, PlayoutResult, Variant, WindowTable};

/// One of the two players. `First` moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Player {
    First,
    Second,
}

impl Player {
    /// 0 for the first player, 1 for the second: an index into per-player arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// The player to move after `ply` moves from the empty board.
    #[inline]
    pub fn to_move_after(ply: usize) -> Player {
        if ply.is_multiple_of(2) { Player::First } else { Player::Second }
    }

    /// The stone symbol used in text boards.
    pub fn symbol(self) -> char {
        match self {
            Player::First => 'X',
            Player::Second => 'O',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first",
            Player::Second => "second",
        })
    }
}

/// Whether the game goes on, and if not, how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Status {
    Ongoing,
    Win(Player),
    Draw,
}

impl Status {
    #[inline]
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }

    pub fn winner(self) -> Option<Player> {
        match self {
            Status::Win(p) => Some(p),
            _ => None,
        }
    }
}

/// A move as an action id in `0..num_actions()`: for free placement the cell
/// (`x * height + y`), for gravity the column, for connect3d the pole (0-based).
///
/// A plain id (as in OpenSpiel) keeps history tables, visit counts and heatmaps simple arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Move(pub u16);

impl Move {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A game position with play and O(1) undo.
///
/// Implementations keep the Zobrist hashes incrementally and detect the end of the game from
/// the last move only. `play` must only be given legal moves of an ongoing game (checked in
/// debug builds); [`Position::try_play`] checks and reports.
pub trait Position: Clone + Send + Sync + fmt::Debug + 'static {
    /// An exact (collision-free) key of the stones on the board, for counting and tests.
    type Key: Hash + Eq + Clone + Send + Sync + fmt::Debug;

    fn variant(&self) -> &Variant;

    /// This position as a gravity board of 64-bit bitboards (Connect-4, and every Connect-X
    /// board that fits), the one the Connect-X solver and the opening books read; None for
    /// any other board. The one place a position's concrete type is asked for.
    fn as_connect_grid(&self) -> Option<&super::Grid<u64, true>> {
        (self as &dyn std::any::Any).downcast_ref()
    }
    fn side_to_move(&self) -> Player;
    /// Stones on the board (equals moves played, also for set-up positions).
    fn ply(&self) -> usize;
    fn status(&self) -> Status;
    /// Points of each side (connect3d line scoring); zero in games won by a single line.
    fn points(&self) -> [u32; 2];
    /// One more than the largest move id.
    fn num_actions(&self) -> usize;
    /// The longest a game can last in moves.
    fn max_game_length(&self) -> usize;
    /// Legal moves in increasing id order (empty once the game is over). `out` is cleared first.
    fn legal_moves(&self, out: &mut Vec<Move>);
    fn num_legal_moves(&self) -> usize;
    fn is_legal(&self, m: Move) -> bool;
    /// Plays a legal move of an ongoing game.
    fn play(&mut self, m: Move);
    /// Takes back the last move played with [`Position::play`]. Panics if there is none.
    fn undo(&mut self);
    /// Moves played since the position was created (a set-up position starts with none).
    fn history(&self) -> &[Move];
    /// A uniformly random legal move in O(1). The game must be ongoing.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Move;
    /// Zobrist hash of the stones.
    fn hash(&self) -> u64;
    /// Hash shared by all positions equal under the board's symmetries.
    fn canonical_hash(&self) -> u64;
    fn key(&self) -> Self::Key;
    /// Switches the upkeep of the hashes off (for scratch copies in playouts, which never ask
    /// for a hash) or back on (recomputing them from the stones).
    fn set_hashing(&mut self, on: bool);
    /// Defers (or brings back) the scoring of lines, for games scored by their lines
    /// (connect3d): while deferred, a move skips the count of the lines it makes, and the
    /// game is scored at once when it ends or in [`Self::random_playout`]. `points()` (and
    /// the points part of the hash) of an unfinished game stay those of the moment scoring was
    /// deferred; a finished game's status and points are exact. For tree walks that only ask
    /// for the end's result; switching back counts the lines of the moves played since. Games
    /// that end on a line (m,n,k, Connect-X) keep their scoring as it is.
    fn set_deferred_scoring(&mut self, _on: bool) {}
    /// The status computed by scanning the whole board (slow; for validation and tests).
    fn scan_status(&self) -> Status;
    /// The move that would play `token` (notation like `h8`, `d` or `4`, or a pole number).
    fn parse_move(&self, token: &str) -> Result<Move, GameError>;
    /// The notation of a move id (`h8`, `d`, or the 1-based pole number for connect3d).
    fn format_move(&self, m: Move) -> String;
    /// The board as text, first row at the top.
    fn render(&self) -> String;

    /// Line windows and neighbours of the board. Cells are numbered densely: `x * height + y`
    /// on grids, `pole * 6 + level` in connect3d.
    fn windows(&self) -> &Arc<WindowTable>;
    /// The cell a legal move puts its stone on now.
    fn move_cell(&self, m: Move) -> usize;
    /// The stone on a cell.
    fn stone_on(&self, cell: usize) -> Option<Player>;
    /// The move that puts a stone on `cell` now, if that is legal.
    fn cell_move(&self, cell: usize) -> Option<Move>;

    /// Plays uniformly random moves from here to the end of the game and reports how it ended;
    /// `self` is left as it was. `scratch` is a buffer the playout may be played on (reused,
    /// so nothing is allocated). The default copies the position into `scratch`, switches
    /// hashing off there and plays with [`Position::random_move`] and [`Position::play`];
    /// a position type may override it with a faster path of its own, which must play the
    /// same game for the same generator.
    #[inline]
    fn random_playout<R: Rng + ?Sized>(&self, scratch: &mut Self, rng: &mut R) -> PlayoutResult {
        scratch.clone_from(self);
        scratch.set_hashing(false);
        let start = scratch.ply();
        while !scratch.is_over() {
            let m = scratch.random_move(rng);
            scratch.play(m);
        }
        PlayoutResult { status: scratch.status(), points: scratch.points(), length: scratch.ply() - start }
    }

    /// The side that moved last (the side not to move).
    #[inline]
    fn side_just_moved(&self) -> Player {
        self.side_to_move().other()
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.status().is_over()
    }

    /// Checks and plays a move given as an id.
    fn try_play(&mut self, m: Move) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver { mv: self.format_move_safe(m), ply: self.ply() + 1 });
        }
        if !self.is_legal(m) {
            return Err(GameError::IllegalMove {
                mv: self.format_move_safe(m),
                reason: "not a legal move here".into(),
            });
        }
        self.play(m);
        Ok(())
    }

    /// Parses and plays a sequence of moves (`"d4 e5"`, `"4453"`, `"d,d,e"`).
    fn play_sequence(&mut self, moves: &str) -> Result<(), GameError> {
        for token in super::split_move_tokens(self.variant(), moves)? {
            if self.is_over() {
                return Err(GameError::GameOver { mv: token, ply: self.ply() + 1 });
            }
            let m = self.parse_move(&token)?;
            self.play(m);
        }
        Ok(())
    }

    /// The moves played as a space-separated string that `play_sequence` reads back.
    fn history_string(&self) -> String {
        self.history().iter().map(|&m| self.format_move(m)).collect::<Vec<_>>().join(" ")
    }

    #[doc(hidden)]
    fn format_move_safe(&self, m: Move) -> String {
        if m.index() < self.num_actions() { self.format_move(m) } else { format!("#{}", m.0) }
    }
}
