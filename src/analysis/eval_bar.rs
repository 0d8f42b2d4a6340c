//! The evaluation bar beside the board (as Lichess has): how the game stands for the first
//! player, from the analysed side's score, and the words for it.

use crate::game::Player;
use crate::search::Score;

use super::short_label;

/// What the bar shows.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalBar {
    /// The first player's expected result as a share of the bar, 0 (lost) to 1 (won): the
    /// part drawn in the first player's colour.
    pub first_share: f32,
    /// The score in the one convention (for the side to move): "62.0%", "+1.40", "W7", "=".
    pub label: String,
    /// The same in words, with whose view it is.
    pub words: String,
}

impl EvalBar {
    /// The bar for `score`, the analysis's score for `to_move`; None while it is not known.
    pub fn of(score: Score, to_move: Player) -> Option<EvalBar> {
        EvalBar::of_depths(score, None, to_move)
    }

    /// The bar for alpha-beta's `score` at its last depth and `previous`, its score at the
    /// depth before: two heuristic values are averaged (as the review does), since shallow
    /// alpha-beta's value swings between odd and even depths and the bar flipped from one
    /// side to the other at each depth. A proven score, or none before, is taken as it is.
    pub fn of_depths(score: Score, previous: Option<Score>, to_move: Player) -> Option<EvalBar> {
        let now = score.expected()?;
        let matched = previous.filter(|p| matches!((p, score), (Score::Eval(_), Score::Eval(_))));
        let expected = matched.and_then(|p| p.expected()).map_or(now, |p| (now + p) / 2.0);
        let first = if to_move == Player::First { expected } else { -expected };
        let label = short_label(score, crate::search::tree::Bound::Exact);
        let side = if to_move == Player::First { "the first player" } else { "the second player" };
        let mean = if matched.is_some() { ", the mean of the last two depths" } else { "" };
        let words = format!(
            "{score} for {side} (to move); the bar: the first player's expected result {:.0}%{mean}",
            (first + 1.0) * 50.0
        );
        Some(EvalBar { first_share: ((first + 1.0) / 2.0) as f32, label, words })
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
        let won = EvalBar::of(Score::Win { plies: Some(7) }, Player::Second).unwrap();
        assert_eq!(won.first_share, 0.0, "the second player wins: none of it the first's");
        assert_eq!(EvalBar::of(Score::Draw, Player::First).unwrap().first_share, 0.5);
        assert_eq!(EvalBar::of(Score::Eval(0), Player::First).unwrap().first_share, 0.5);
        assert!(EvalBar::of(Score::Eval(4000), Player::First).unwrap().first_share > 0.9);
        assert_eq!(EvalBar::of(Score::Unknown, Player::First), None);
        // Two depths of alpha-beta at -3.2 and +1.0 (gomoku's odd/even swing): the bar stands
        // between them, on neither side, and a proof is taken as it is.
        let lo = EvalBar::of(Score::Eval(-3200), Player::First).unwrap().first_share;
        let hi = EvalBar::of(Score::Eval(1000), Player::First).unwrap().first_share;
        let mean = EvalBar::of_depths(Score::Eval(1000), Some(Score::Eval(-3200)), Player::First).unwrap();
        assert!(mean.first_share > lo && mean.first_share < hi && mean.first_share < 0.5, "{mean:?}");
        assert!(mean.words.contains("mean of the last two depths"), "{}", mean.words);
        assert_eq!(mean.label, "+1.0", "the label is the last depth's score");
        let won = EvalBar::of_depths(Score::Win { plies: Some(3) }, Some(Score::Eval(-3200)), Player::First).unwrap();
        assert_eq!(won.first_share, 1.0);
    }
}
