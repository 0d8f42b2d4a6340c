//! The shape heuristic: every empty cell is worth, to each player, the line shapes the player
//! would make there (open four, four, open three, ...) and their combinations across lines
//! (double four, four-three, double three), kept incrementally by a
//! [`ShapeBoard`](super::ShapeBoard). A position is worth the side to move's sum less
//! `defence` times the opponent's. Moves are ordered by what the cell is worth to both
//! players: a threat of one's own and the answer to the opponent's come first.
//!
//! The shapes are defined for any K (see [`line_shape`](super::line_shape)); the weights
//! name gomoku's shapes, which are K = 5's case.

use serde::{Deserialize, Serialize};

use super::shape_board::{Combination, ShapeBoard, ShapeValues};
use super::{EvalBoard, Heuristic, LINE};
use crate::game::{Move, Player, Position};
use crate::setting_error::SettingError;

/// The weights of the shape heuristic: what one cell is worth for a player who would make
/// that shape there, one line at a time, plus one bonus for the best combination.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ShapeWeights {
    /// The cell completes a line (the player has a four on the board).
    pub five: f64,
    /// A straight four (two cells complete it) or two fours on one line.
    pub open_four: f64,
    /// A four one cell completes.
    pub four: f64,
    /// A three that one more stone makes a straight four.
    pub open_three: f64,
    pub three: f64,
    /// A two that one more stone makes an open three.
    pub open_two: f64,
    pub two: f64,
    /// A single stone with room for a line, or less (K > 5).
    pub one: f64,
    /// Bonus: two fours (on two lines) or an open four through the cell.
    pub double_four: f64,
    /// Bonus: a four and an open three.
    pub four_three: f64,
    /// Bonus: two open threes.
    pub double_three: f64,
    /// How much the opponent's cells count against the side to move's (1: as much).
    pub defence: f64,
    /// Tempo: the side to move completes a line with its next move (plus), or the opponent
    /// has two cells that do and the side to move none (minus: it can stop one). 0: off.
    pub tempo_line: f64,
    /// Tempo: the side to move can make an open four (or two fours) and the opponent
    /// cannot complete a line first.
    pub tempo_open_four: f64,
    /// Tempo: the side to move can make a four and an open three at once, and the opponent
    /// cannot complete a line first.
    pub tempo_four_three: f64,
}

impl Default for ShapeWeights {
    fn default() -> Self {
        ShapeWeights {
            five: 10_000.0,
            open_four: 4_000.0,
            four: 700.0,
            open_three: 800.0,
            three: 200.0,
            open_two: 150.0,
            two: 40.0,
            one: 10.0,
            double_four: 4_000.0,
            four_three: 3_000.0,
            double_three: 1_500.0,
            defence: 1.0,
            tempo_line: 0.0,
            tempo_open_four: 0.0,
            tempo_four_three: 0.0,
        }
    }
}

/// The weights' names, `to_vec` and `from_slice` from one list of the fields, in order.
macro_rules! weight_list {
    ($($field:ident),* $(,)?) => {
        /// The names of the weights, in the order of [`ShapeWeights::to_vec`].
        pub const SHAPE_WEIGHT_NAMES: [&str; 15] = [$(stringify!($field)),*];

        impl ShapeWeights {
            /// The weights as numbers, in the order of [`SHAPE_WEIGHT_NAMES`] (for tuners).
            pub fn to_vec(&self) -> Vec<f64> {
                vec![$(self.$field),*]
            }

            /// The inverse of [`ShapeWeights::to_vec`]; `None` unless there are 15 numbers.
            pub fn from_slice(v: &[f64]) -> Option<ShapeWeights> {
                let &[$($field),*] = v else { return None };
                Some(ShapeWeights { $($field),* })
            }
        }
    };
}

weight_list!(
    five,
    open_four,
    four,
    open_three,
    three,
    open_two,
    two,
    one,
    double_four,
    four_three,
    double_three,
    defence,
    tempo_line,
    tempo_open_four,
    tempo_four_three,
);

/// Largest absolute weight: a cell's value stays far below [`LINE`] on any board.
const MAX_WEIGHT: f64 = 1e6;

impl ShapeWeights {
    pub fn validate(&self) -> Result<(), SettingError> {
        for (name, w) in SHAPE_WEIGHT_NAMES.iter().zip(self.to_vec()) {
            if !w.is_finite() || w.abs() > MAX_WEIGHT {
                let rule = "each weight must be a number within +-1000000";
                return Err(SettingError::Range {
                    field: "heuristic Shapes: weights",
                    rule,
                    value: Some(format!("{name}: {w}")),
                });
            }
        }
        if !(0.0..=100.0).contains(&self.defence) {
            return Err(SettingError::range("heuristic Shapes: defence", "must be between 0 and 100", self.defence));
        }
        Ok(())
    }

    /// The cell values for lines of `k`.
    pub fn values(&self, k: usize) -> ShapeValues {
        let round = |w: f64| w.round() as i32;
        let by_code = (0..=k)
            .flat_map(|short| {
                let (closed, open) = match short {
                    0 => (self.five, self.five),
                    1 => (self.four, self.open_four),
                    2 => (self.three, self.open_three),
                    3 => (self.two, self.open_two),
                    _ => (self.one, self.one),
                };
                [round(closed), round(open)]
            })
            .collect();
        ShapeValues {
            by_code,
            double_four: round(self.double_four),
            four_three: round(self.four_three),
            double_three: round(self.double_three),
        }
    }
}

impl ShapeWeights {
    /// What having the move is worth beyond the cells' values: the sums count a cell that
    /// completes a line, or makes an open four, alike for both players, but the side to move
    /// plays its own first. Read where the search stops, it sees a threat one ply beyond.
    fn tempo(&self, shapes: &ShapeBoard, me: Player) -> f64 {
        let them = me.other();
        let their_lines = shapes.cells_with(them, Combination::Line);
        if shapes.cells_with(me, Combination::Line) > 0 {
            self.tempo_line
        } else if their_lines >= 2 {
            -self.tempo_line
        } else if their_lines == 1 {
            // The side to move must block: its own threats wait.
            0.0
        } else if shapes.cells_with(me, Combination::DoubleFour) > 0 {
            self.tempo_open_four
        } else if shapes.cells_with(me, Combination::FourThree) > 0 {
            self.tempo_four_three
        } else {
            0.0
        }
    }
}

impl Heuristic for ShapeWeights {
    fn evaluate<P: Position>(&self, pos: &P, board: &EvalBoard) -> i32 {
        let Some(shapes) = board.shapes() else { return 0 };
        let me = pos.side_to_move();
        let v = shapes.sum(me) as f64 - self.defence * shapes.sum(me.other()) as f64 + self.tempo(shapes, me);
        v.clamp(-(LINE as f64) + 1.0, LINE as f64 - 1.0) as i32
    }

    fn move_score<P: Position>(&self, pos: &P, board: &EvalBoard, m: Move) -> i32 {
        let Some(shapes) = board.shapes() else { return 0 };
        let cell = pos.move_cell(m);
        let me = pos.side_to_move();
        shapes.value(cell, me).saturating_add(shapes.value(cell, me.other()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::HeuristicConfig;
    use crate::game::AnyPosition;
    use crate::with_position;

    #[test]
    fn weights_round_trip_through_numbers() {
        let w = ShapeWeights::default();
        assert_eq!(ShapeWeights::from_slice(&w.to_vec()), Some(w.clone()));
        assert_eq!(ShapeWeights::from_slice(&[1.0; 14]), None);
        let mut bad = w;
        bad.four = f64::NAN;
        assert!(bad.validate().unwrap_err().to_string().contains("four"));
    }

    /// The side to move with an open three is further ahead than with three scattered
    /// stones, and the opponent, to move, is behind.
    #[test]
    fn an_open_three_is_worth_more_than_scattered_stones() {
        let h = HeuristicConfig::Shapes(ShapeWeights::default());
        let value = |moves: &str| {
            let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), moves).unwrap();
            with_position!(&pos, p => h.evaluate_fresh(p))
        };
        // The first player to move: three in a row, or three apart; the second's stones
        // in the corners.
        let three = value("h8 a1 i8 a15 j8 o1");
        let scattered = value("h8 a1 c3 a15 m12 o1");
        assert!(three > scattered && scattered > 0, "{three} {scattered}");
        assert!(value("h8 a1 i8 a15 j8") < -scattered, "the second player to move is behind");
    }

    /// The tempo terms: the side to move's line next move is worth `tempo_line`; an open
    /// three to move is worth `tempo_open_four` unless the opponent has a four; the
    /// opponent's open four (two cells) is worth minus `tempo_line`.
    #[test]
    fn the_tempo_terms_read_who_is_to_move() {
        let tempo =
            ShapeWeights { tempo_line: 1e5, tempo_open_four: 3e4, tempo_four_three: 1e4, ..ShapeWeights::default() };
        let difference = |moves: &str| {
            let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), moves).unwrap();
            let with = HeuristicConfig::Shapes(tempo.clone());
            let without = HeuristicConfig::Shapes(ShapeWeights::default());
            with_position!(&pos, p => with.evaluate_fresh(p) - without.evaluate_fresh(p))
        };
        // The first player's open three, the first to move: an open four next.
        assert_eq!(difference("h8 a1 i8 a15 j8 o1"), 30_000);
        // The second to move facing it: no four of its own, so it must block; no tempo.
        assert_eq!(difference("h8 a1 i8 a15 j8"), 0);
        // A four (h8-k8, blocked at g8), the first to move: a line next move.
        assert_eq!(difference("h8 g8 i8 a15 j8 o1 k8 o15"), 100_000);
        // The second to move against an open four: two cells complete it.
        assert_eq!(difference("h8 a1 i8 a15 j8 o1 k8"), -100_000);
        // Against a single four the second player must block; its own open three waits.
        assert_eq!(difference("h8 g8 i8 c5 j8 c6 a15 c7 k8"), 0);
        // With the four blocked, the second player's open three is its tempo.
        assert_eq!(difference("h8 g8 i8 c5 j8 c6 a15 c7 k8 l8"), 0, "the first to move, no threat");
        assert_eq!(difference("h8 g8 i8 c5 j8 c6 a15 c7 k8 l8 o15"), 30_000);
    }

    /// Moves that answer an open three come before quiet moves, for the side that must.
    #[test]
    fn the_answers_to_an_open_three_come_first() {
        let h = HeuristicConfig::Shapes(ShapeWeights::default());
        let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 a1 i8 a2 j8").unwrap();
        with_position!(&pos, p => {
            let board = h.board(p);
            let mut ms = Vec::new();
            p.legal_moves(&mut ms);
            ms.sort_by_key(|&m| std::cmp::Reverse(h.move_score(p, &board, m)));
            let first: Vec<String> = ms[..2].iter().map(|&m| p.format_move(m)).collect();
            assert!(first.contains(&"g8".to_string()) && first.contains(&"k8".to_string()), "{first:?}");
        });
    }
}
