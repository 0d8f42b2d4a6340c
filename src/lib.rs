//! mnklab: a workbench for studying k-in-a-row games with search algorithms.
//!
//! The library is the product; the `mnklab` binary (CLI and GUI) is a thin client.
//! - [`game`]: rules only (bitboards, moves, win detection, hashing, notation).
//! - [`search`]: agents and playouts, generic over [`game::Position`].
//! - [`analysis`]: what an analysis shows (score convention, candidates), without a window.
//! - [`io`]: files (RON), versioned, with clear errors.
//! - [`bench`]: the measurements behind `mnklab bench`.
//! - [`app`]: the egui workbench.

pub mod analysis;
pub mod app;
pub mod arena;
pub mod bench;
pub mod eval;
pub mod game;
pub mod gomocup;
pub mod io;
pub mod plot;
pub mod record;
pub mod rng;
pub mod search;
