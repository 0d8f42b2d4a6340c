//! Uniformly random playouts: the rollouts of MCTS and the speed benchmark of the rules.

use rand::Rng;

use crate::game::{Position, Status};

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    pub status: Status,
    /// Points at the end (connect3d; zero otherwise).
    pub points: [u32; 2],
    /// Moves the playout played.
    pub length: usize,
}

/// Plays uniformly random moves until the game ends, then takes them all back, so `pos` is
/// left as it was.
#[inline]
pub fn random_playout<P: Position, R: Rng + ?Sized>(pos: &mut P, rng: &mut R) -> PlayoutResult {
    let mut length = 0;
    while !pos.is_over() {
        let m = pos.random_move(rng);
        pos.play(m);
        length += 1;
    }
    let result = PlayoutResult { status: pos.status(), points: pos.points(), length };
    for _ in 0..length {
        pos.undo();
    }
    result
}

/// Copies `pos` into `scratch` (reusing its buffers), switches hashing off there and plays
/// uniformly random moves to the end: no undo, so about twice as fast as [`random_playout`].
#[inline]
pub fn random_playout_on_copy<P: Position, R: Rng + ?Sized>(pos: &P, scratch: &mut P, rng: &mut R) -> PlayoutResult {
    scratch.clone_from(pos);
    scratch.set_hashing(false);
    let start = scratch.ply();
    while !scratch.is_over() {
        let m = scratch.random_move(rng);
        scratch.play(m);
    }
    PlayoutResult { status: scratch.status(), points: scratch.points(), length: scratch.ply() - start }
}
