//! Random positions for the tests that compare searches on them.

use mnklab::game::AnyPosition;
use mnklab::rng::below;

/// `stones` uniformly random moves from the start of `game`, or None if the game ends on the way.
pub fn random_position(game: &str, rng: &mut impl rand::Rng, stones: usize) -> Option<AnyPosition> {
    let mut pos = AnyPosition::new(game.parse().unwrap());
    for _ in 0..stones {
        let ms = pos.legal_moves();
        pos.try_play(ms[below(rng, ms.len())]).unwrap();
        if pos.status().is_over() {
            return None;
        }
    }
    Some(pos)
}
