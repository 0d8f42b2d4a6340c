//! The position file: a variant plus a move list, or plus a set-up (stone grid and side to
//! move) and the moves played after it.
//!
//! ```ron
//! (
//!     version: 1,
//!     variant: "connect:7,6,4",
//!     moves: ["d", "d", "e"],
//!     record: Some("d d e (c c (b)) f"),
//! )
//! ```
//!
//! `moves` is the position (what `analyse` and `solve` read); `record` (version 2) is the
//! whole game as text: the main line with variations in parentheses and comments in braces,
//! see [`crate::record::movetext`]. `moves` must be a line of the record; the workbench opens
//! the file there. Version 1 files (no record) open as the one line of their moves.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{FileError, check_version, parse_ron, read_text, to_ron, write_atomic};
use crate::game::{AnyPosition, GameError, Setup, Variant};
use crate::record::{GameTree, movetext};

/// The newest position file version this build reads and writes.
pub const POSITION_VERSION: u32 = 2;

fn default_version() -> u32 {
    POSITION_VERSION
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionFile {
    #[serde(default = "default_version")]
    pub version: u32,
    pub variant: Variant,
    /// Stones to start from instead of the empty board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Setup>,
    /// Moves played from the start (or from the set-up), in notation (`h8`, `d`, `12`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    /// The game record with its variations and comments (absent: the one line of `moves`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
}

impl PositionFile {
    /// Builds the position, checking every rule; errors name the move or cell at fault.
    pub fn to_position(&self) -> Result<AnyPosition, GameError> {
        let mut pos = self.start_position()?;
        for (i, token) in self.moves.iter().enumerate() {
            if pos.status().is_over() {
                return Err(GameError::GameOver { mv: format!("{token} (moves[{i}])"), ply: pos.ply() + 1 });
            }
            let m = pos.parse_move(token)?;
            pos.try_play(m)?;
        }
        Ok(pos)
    }

    /// The file for a position: its set-up (if it started from one) and its moves.
    pub fn from_position(pos: &AnyPosition, setup: Option<&Setup>) -> PositionFile {
        PositionFile {
            version: POSITION_VERSION,
            variant: pos.variant(),
            setup: setup.cloned(),
            moves: pos.history().iter().map(|&m| pos.format_move(m)).collect(),
            comment: String::new(),
            record: None,
        }
    }

    /// The file for a position inside a game record: `pos` is where the user stands, `start`
    /// the record's start position. A record that is just the line played is not repeated.
    pub fn from_record(pos: &AnyPosition, setup: Option<&Setup>, tree: &GameTree, start: &AnyPosition) -> PositionFile {
        let mut file = PositionFile::from_position(pos, setup);
        let plain = tree.main_line() == tree.path(tree.current())
            && tree.preorder().iter().all(|&n| tree.comment(n).is_empty() && tree.children(n).len() <= 1);
        if !plain {
            file.record = Some(movetext::write(tree, start));
        }
        file
    }

    /// The position before any move: the set-up, or the empty board.
    pub fn start_position(&self) -> Result<AnyPosition, GameError> {
        match &self.setup {
            Some(setup) => AnyPosition::from_setup(self.variant, setup),
            None => Ok(AnyPosition::new(self.variant)),
        }
    }

    /// Parses position-file text with its game record, standing at the file's position.
    pub fn parse_with_record(text: &str, path: &Path) -> Result<(PositionFile, AnyPosition, GameTree), FileError> {
        let file: PositionFile = parse_ron(text, path, "position")?;
        check_version(path, "position", file.version, POSITION_VERSION)?;
        let pos = file.to_position().map_err(|source| FileError::Game { path: path.into(), source })?;
        let bad = |message: String| FileError::Record { path: path.into(), message };
        let mut tree = match &file.record {
            Some(record) => {
                let start = file.start_position().map_err(|source| FileError::Game { path: path.into(), source })?;
                movetext::parse(&start, record).map_err(|e| bad(e.to_string()))?
            }
            None => GameTree::from_moves(pos.history()),
        };
        let here = tree
            .find(pos.history())
            .ok_or_else(|| bad(format!("the position's moves ({}) are not in the record", file.moves.join(" "))))?;
        tree.goto(here);
        Ok((file, pos, tree))
    }

    pub fn to_ron(&self) -> String {
        to_ron(self)
    }

    /// Parses and validates position-file text (`path` is only used in messages).
    pub fn parse(text: &str, path: &Path) -> Result<(PositionFile, AnyPosition), FileError> {
        // The record is checked too: a file the workbench refuses is refused everywhere.
        PositionFile::parse_with_record(text, path).map(|(file, pos, _)| (file, pos))
    }
}

/// Reads and validates a position file.
pub fn load_position(path: &Path) -> Result<(PositionFile, AnyPosition), FileError> {
    PositionFile::parse(&read_text(path)?, path)
}

/// Reads and validates a position file with its game record (see
/// [`PositionFile::parse_with_record`]).
pub fn load_position_record(path: &Path) -> Result<(PositionFile, AnyPosition, GameTree), FileError> {
    PositionFile::parse_with_record(&read_text(path)?, path)
}

/// Writes a position file atomically.
pub fn save_position(path: &Path, file: &PositionFile) -> Result<(), FileError> {
    write_atomic(path, file.to_ron().as_bytes())
}
