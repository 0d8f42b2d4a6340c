//! Errors of the rules engine: every one names the cell, move or number at fault.

use thiserror::Error;

use super::Player;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error(
        "unknown game '{0}': expected mnk:M,N,K[:exact], connect:M,N,K[:exact], connect3d, \
         or a preset (tictactoe, gomoku, gomoku-exact, connect4)"
    )]
    UnknownVariant(String),
    #[error("{0} is out of range: a board's width, height and K are at least 1")]
    Negative(String),
    #[error("board {width}x{height} is out of range: width and height must be between 1 and {max}")]
    SizeOutOfRange { width: u32, height: u32, max: u32 },
    #[error("K = {k} is out of range for a {width}x{height} board: it must be between 1 and {max}")]
    KOutOfRange { k: u32, width: u32, height: u32, max: u32 },
    #[error("'{token}' is not a move: {reason}")]
    BadMove { token: String, reason: String },
    #[error("move '{mv}' is illegal: {reason}")]
    IllegalMove { mv: String, reason: String },
    #[error("move {mv} would be ply {ply}, but the game ended at ply {}", .ply - 1)]
    GameOver { mv: String, ply: usize },
    #[error("invalid position: {0}")]
    Setup(#[from] SetupError),
}

/// What is wrong with a position given as stones rather than moves.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("cell {cell} is off the {width}x{height} board")]
    OffBoard { cell: String, width: usize, height: usize },
    #[error("cell {cell} is listed twice for the {player} player")]
    Duplicate { cell: String, player: Player },
    #[error("overlapping stones: cell {cell} holds stones of both players")]
    Overlap { cell: String },
    #[error(
        "impossible stone counts: the first player has {first} stones and the second {second}; \
         the first must have as many as the second or one more"
    )]
    StoneCounts { first: usize, second: usize },
    #[error("the side to move is {given}, but with {first} and {second} stones it must be {expected}")]
    SideToMove { given: Player, expected: Player, first: usize, second: usize },
    #[error("floating stone at {cell}: the cell below it is empty, which gravity does not allow")]
    Floating { cell: String },
    #[error("both players have a line (first through {first}, second through {second})")]
    BothLines { first: String, second: String },
    #[error("play continued after a line: the {player} player's line through {cell} was not made by the last move")]
    PlayedOnAfterLine { player: Player, cell: String },
    #[error("the grid does not fit the board: {what}")]
    GridShape { what: String },
    #[error("unknown character '{ch}' at {cell} in the grid (use X, O and .)")]
    GridChar { ch: char, cell: String },
    #[error("a cell is not a cell: '{0}' (write a column letter and a row number, like h8)")]
    BadCell(String),
    #[error(
        "connect3d positions must be given as a move list: the points depend on the order in which lines were made"
    )]
    NeedsMoveList,
}
