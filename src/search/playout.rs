//! Uniformly random playouts: the rollouts of MCTS and the speed benchmark of the rules.

use rand::Rng;

pub use crate::game::PlayoutResult;
use crate::game::Position;

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

/// Plays uniformly random moves from `pos` to the end without touching it, by the position's
/// own [`Position::random_playout`] (a stripped-down copy, or `scratch` reused): no undo, so
/// several times as fast as [`random_playout`].
#[inline]
pub fn random_playout_on_copy<P: Position, R: Rng + ?Sized>(pos: &P, scratch: &mut P, rng: &mut R) -> PlayoutResult {
    pos.random_playout(scratch, rng)
}
