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
pub mod reproduce;
pub mod rng;
pub mod search;

/// The git commit this build was made from (12 hex digits, "-dirty" with uncommitted changes
/// to the code or presets, "unknown" outside a git checkout): recorded in every run folder and
/// CSV the program writes, so a result names the code that made it.
pub const COMMIT: &str = env!("MNKLAB_COMMIT");

/// `mnklab --version`: the package version and the commit.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("MNKLAB_COMMIT"), ")");
