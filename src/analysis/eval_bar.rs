//! The evaluation bar beside the board (as Lichess has): how the game stands for the first
//! player, from the analysed side's score, and the words for it.

use crate::eval::POINT_VALUE;
use crate::game::{AnyPosition, Player};
use crate::search::Score;
use crate::search::score::EVAL_SCALE;

use super::short_label;

/// What the bar shows.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalBar {
    /// The first player's expected result as a share of the bar, 0 (lost) to 1 (won): the
    /// part drawn in the first player's colour.
    pub first_share: f32,
    /// The score for the first player, as the fill is (whoever is to move): "62%", "+1.4",
    /// "W7" (the first player wins in 7), "=". A number for the side to move beside a fill for
    /// the first player read as the same standing flipping sign every move.
    pub label: String,
    /// The same in words, with whose view it is.
    pub words: String,
}

impl EvalBar {
    /// The bar for `score`, the analysis's score for `to_move`; None while it is not known.
    pub fn of(score: Score, to_move: Player) -> Option<EvalBar> {
        EvalBar::of_scaled(score, to_move, EVAL_SCALE)
    }

    /// The bar for `score` with heuristic values read on `scale` ([`value_scale`] of the
    /// position). The score is the panel's (never a mean of two depths), turned to the first
    /// player's view when the second is to move.
    pub fn of_scaled(score: Score, to_move: Player, scale: f64) -> Option<EvalBar> {
        let expected = score.expected_at(scale)?;
        let first = if to_move == Player::First { expected } else { -expected };
        let for_first = if to_move == Player::First { score } else { other_view(score) };
        let label = short_label(for_first, crate::search::tree::Bound::Exact);
        let side = if to_move == Player::First { "the first player" } else { "the second player" };
        let words = format!(
            "{score} for {side} (to move); the bar and its number: the first player's view, {label}, \
             an expected result of {:.0}%",
            (first + 1.0) * 50.0
        );
        Some(EvalBar { first_share: ((first + 1.0) / 2.0) as f32, label, words })
    }
}

/// The same position's score for the other player (the same distance to the end).
fn other_view(score: Score) -> Score {
    match score {
        Score::Win { plies } => Score::Loss { plies },
        Score::Loss { plies } => Score::Win { plies },
        Score::Eval(v) => Score::Eval(-v),
        Score::WinRate(r) => Score::WinRate(1.0 - r),
        s @ (Score::Draw | Score::Unknown) => s,
    }
}

/// The heuristic value to read as tanh(1), about 88%, in this position (the `scale` of
/// [`Score::expected_at`]). Connect3d's values count `POINT_VALUE` a point scored, and the
/// k-th line scores 100 / k points: a lead reads against twice what the next line is worth,
/// so one line ahead is an edge at the start, and a lead of dozens of points is decisive
/// once lines are worth little. Every other game: `EVAL_SCALE`.
pub fn value_scale(pos: &AnyPosition) -> f64 {
    match pos {
        AnyPosition::Connect3d(p) => 2.0 * POINT_VALUE as f64 * (100 / (p.lines_made() + 1)).max(1) as f64,
        _ => EVAL_SCALE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_is_the_first_players_share_whoever_moves() {
        let b = EvalBar::of(Score::WinRate(0.75), Player::First).unwrap();
        assert!((b.first_share - 0.75).abs() < 1e-6);
        assert_eq!(b.label, "75%");
        let b = EvalBar::of(Score::WinRate(0.75), Player::Second).unwrap();
        assert!((b.first_share - 0.25).abs() < 1e-6, "the second player's 75% is the first's 25%");
        assert!(b.words.contains("the second player (to move)") && b.words.contains("25%"), "{}", b.words);
        assert_eq!(b.label, "25%", "the number is the first player's, as the fill is");
        let won = EvalBar::of(Score::Win { plies: Some(7) }, Player::Second).unwrap();
        assert_eq!(won.first_share, 0.0, "the second player wins: none of it the first's");
        assert_eq!(won.label, "L7", "the first player loses in 7");
        // One standing, either side to move: the same fill and the same number.
        let (a, b) = (EvalBar::of(Score::Eval(1250), Player::First), EvalBar::of(Score::Eval(-1250), Player::Second));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!((a.label.as_str(), a.first_share), (b.label.as_str(), b.first_share));
        assert_eq!(a.label, "+1.2");
        assert_eq!(EvalBar::of(Score::Draw, Player::First).unwrap().first_share, 0.5);
        assert_eq!(EvalBar::of(Score::Eval(0), Player::First).unwrap().first_share, 0.5);
        assert!(EvalBar::of(Score::Eval(4000), Player::First).unwrap().first_share > 0.9);
        assert_eq!(EvalBar::of(Score::Unknown, Player::First), None);
        // The label is the panel's score as it is.
        let b = EvalBar::of(Score::Eval(1000), Player::First).unwrap();
        assert_eq!(b.label, short_label(Score::Eval(1000), crate::search::tree::Bound::Exact));
        assert!(b.first_share > 0.5);
        assert_eq!(EvalBar::of(Score::Win { plies: Some(3) }, Player::First).unwrap().first_share, 1.0);
    }

    /// Connect3d's values count 1000 a point: a 46-point lead after a dozen lines (each now
    /// worth a few points) is decisive, one line's lead at the start (100 points) is not.
    #[test]
    fn connect3d_points_read_against_what_the_next_line_is_worth() {
        use crate::game::{AnyPosition, Variant};
        let start = AnyPosition::new(Variant::Connect3d);
        let early = value_scale(&start);
        let first = |v: i32, scale| EvalBar::of_scaled(Score::Eval(v), Player::First, scale).unwrap().first_share;
        assert!((0.6..0.9).contains(&first(100_000, early)), "{}", first(100_000, early));
        let late = 2.0 * 1000.0 * (100 / 13) as f64;
        assert!(first(46_000, late) > 0.95, "{}", first(46_000, late));
        assert!(first(-46_000, late) < 0.05);
        assert_eq!(value_scale(&AnyPosition::new(Variant::connect4())), EVAL_SCALE);
    }
}
