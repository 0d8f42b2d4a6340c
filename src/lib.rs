//! mnklab: a workbench for studying k-in-a-row games with search algorithms.
//!
//! The library is the product; the `mnklab` binary (CLI and GUI) is a thin client. Modules,
//! lower layers first:
//! - [`game`]: rules only (bitboards, moves, win detection, hashing, notation).
//! - [`rng`]: the seeded random number generator every random choice comes from.
//! - [`record`]: the game record, a tree of moves with variations and comments.
//! - [`setting_error`]: why a setting is refused, and the ranges settings share.
//! - [`eval`]: heuristics, each one file, behind one trait.
//! - [`search`]: agents (alpha-beta, MCTS, the solver, random), limits, progress events and
//!   tree snapshots, generic over [`game::Position`].
//! - [`gomocup`]: the Gomocup brain protocol, both ways: mnklab as a brain, engines as agents.
//! - [`agents`]: agent configurations and files, the presets, and building an agent from its
//!   configuration (a search agent or an external engine).
//! - [`analysis`]: what an analysis and a review show (score convention, candidates), without
//!   a window.
//! - [`arena`]: matchups, sweeps, statistics and result records.
//! - [`io`]: files (RON), versioned, with clear errors; atomic writes.
//! - [`plot`]: figure data and file export, shared by the workbench and `mnklab plot`.
//! - [`reproduce`]: re-running the experiments behind RESULTS.md and comparing the results.
//! - [`bench`]: the measurements behind `mnklab bench`.
//! - `app`: the egui workbench (the `gui` feature, on by default).

pub mod agents;
pub mod analysis;
#[cfg(feature = "gui")]
pub mod app;

/// The smallest workbench window, in points: below it one panel ran over another (at
/// 640 x 480 the board's panel covered the agents' controls). Here, not in `app`, so that
/// the command line checks `--size` in a build without the window too.
pub const MIN_WINDOW_SIZE: [f32; 2] = [900.0, 600.0];
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
pub mod setting_error;

/// The git commit this build was made from (12 hex digits, "-dirty" with uncommitted changes
/// to the code or presets, "unknown" outside a git checkout): recorded in every run folder and
/// CSV the program writes, so a result names the code that made it.
pub const COMMIT: &str = env!("MNKLAB_COMMIT");

/// `mnklab --version`: the package version and the commit.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("MNKLAB_COMMIT"), ")");
