//! The rules of the games: bitboards, moves, win detection, hashing, notation.
//!
//! No search and no UI live here. Search code is generic over [`Position`]; the concrete
//! position types are [`Grid`] (m,n,k and Connect-X boards, with or without gravity) and
//! [`Connect3d`]. [`AnyPosition`] holds whichever one a [`Variant`] asks for, and the
//! [`with_position!`](crate::with_position) macro hands the concrete type to generic code so
//! that hot loops are monomorphised (no dynamic dispatch per move).

mod any;
mod bits;
mod connect3d;
mod connect3d_playout;
mod count;
mod error;
mod geometry;
mod grid;
mod notation;
mod playout;
mod position;
mod setup;
mod slots;
mod variant;
mod windows;
mod zobrist;

pub use any::AnyPosition;
pub use bits::{Bits, Wide, has_line_u64};
pub use connect3d::{Connect3d, POLE_HEIGHT, POLE_XY, POLES};
pub use count::{
    CountError, GamesProgress, LevelCount, count_games, count_games_reporting, count_games_within, count_positions,
    count_positions_within,
};
pub use error::{GameError, SetupError};
pub use grid::Grid;
pub use notation::{ColumnStyle, cell_name, column_name, numbered_move, split_move_tokens};
pub use playout::PlayoutResult;
pub use position::{Move, Player, Position, Status};
pub use setup::Setup;
pub use variant::{Family, GridRules, MAX_SIDE, Variant};
pub use windows::WindowTable;
