//! Binding a result to the position it was computed on, so that nothing computed for an
//! earlier position is ever shown as if it were about the current one.

use crate::game::{AnyPosition, Variant};

/// Identifies a position: its game, its hash and its ply (the hash alone could collide
/// across variants; the history is not part of it, so a transposition keeps its analysis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PositionKey {
    variant: Variant,
    hash: u64,
    ply: usize,
    first_to_move: bool,
}

impl PositionKey {
    pub fn of(pos: &AnyPosition) -> PositionKey {
        PositionKey {
            variant: pos.variant(),
            hash: pos.hash(),
            ply: pos.ply(),
            first_to_move: pos.side_to_move() == crate::game::Player::First,
        }
    }

    pub fn matches(&self, pos: &AnyPosition) -> bool {
        *self == PositionKey::of(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_matches_its_position_only() {
        let a = AnyPosition::from_moves(Variant::connect4(), "4453").unwrap();
        let k = PositionKey::of(&a);
        assert!(k.matches(&a));
        assert!(!k.matches(&AnyPosition::new(Variant::connect4())));
        assert!(!k.matches(&AnyPosition::from_moves(Variant::connect4(), "4454").unwrap()));
        // The same stones reached in another order are the same position.
        assert!(k.matches(&AnyPosition::from_moves(Variant::connect4(), "5344").unwrap()));
        // An empty board of another game is another position.
        assert!(
            !PositionKey::of(&AnyPosition::new(Variant::tictactoe())).matches(&AnyPosition::new(Variant::gomoku()))
        );
    }
}
