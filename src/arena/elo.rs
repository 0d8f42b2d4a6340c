//! Elo ratings of several players from the games between them: the Bradley-Terry model's
//! maximum-likelihood fit (a draw counted as half a win for each side), anchored at one
//! player. Unlike an Elo difference read off one pairing's score, the fit places players that
//! never met (a candidate and a ladder rung it skipped) through the games they share.

/// The games between players `a` and `b`: how many, and `a`'s points (a win 1, a draw 0.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encounter {
    pub a: usize,
    pub b: usize,
    pub games: f64,
    pub score_a: f64,
}

/// A player's rating in Elo points relative to the anchor, with its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    /// The standard error given the other players' ratings (0 for the anchor).
    pub se: f64,
}

impl Rating {
    /// The 95% interval.
    pub fn interval(&self) -> (f64, f64) {
        (self.elo - 1.96 * self.se, self.elo + 1.96 * self.se)
    }
}

/// Elo points a unit of the model's natural log-strength.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Fits every player's rating, the `anchor` at 0. Each pairing counts one extra game, a draw
/// (a weak prior towards equal strength): a player who won every game would otherwise rate
/// infinitely high, and a cell an SPRT stopped after a few wins is such a player. None for a
/// player with no path of games to the anchor.
///
/// ```
/// use mnklab::arena::elo::{Encounter, fit_elo};
/// // 300 points of 400 games is a 75% score: 400 log10(3) = 190.8 Elo.
/// let r = fit_elo(2, &[Encounter { a: 1, b: 0, games: 400.0, score_a: 300.0 }], 0);
/// assert!((r[1].unwrap().elo - 190.8).abs() < 1.0);
/// ```
pub fn fit_elo(players: usize, encounters: &[Encounter], anchor: usize) -> Vec<Option<Rating>> {
    let games: Vec<Encounter> = encounters
        .iter()
        .filter(|e| e.a != e.b && e.a < players && e.b < players && e.games > 0.0)
        .map(|e| Encounter { games: e.games + 1.0, score_a: e.score_a + 0.5, ..*e })
        .collect();
    let linked = linked_to(players, &games, anchor);
    let mut points = vec![0.0; players];
    for e in &games {
        points[e.a] += e.score_a;
        points[e.b] += e.games - e.score_a;
    }
    // Hunter's minorise-maximise iteration: gamma_i = points_i / sum_j n_ij / (gamma_i + gamma_j),
    // rescaled so that the anchor stays at 1. It converges for any connected set of games with
    // the prior's draws (every player has points and has lost points).
    let mut gamma = vec![1.0f64; players];
    for _ in 0..100_000 {
        let mut denominator = vec![0.0; players];
        for e in &games {
            let d = e.games / (gamma[e.a] + gamma[e.b]);
            denominator[e.a] += d;
            denominator[e.b] += d;
        }
        let mut next: Vec<f64> =
            (0..players).map(|i| if denominator[i] > 0.0 { points[i] / denominator[i] } else { 1.0 }).collect();
        let scale = next.get(anchor).copied().filter(|g| *g > 0.0).unwrap_or(1.0);
        next.iter_mut().for_each(|g| *g /= scale);
        let change = next.iter().zip(&gamma).map(|(n, g)| (n.ln() - g.ln()).abs()).fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    (0..players)
        .map(|i| {
            if !linked[i] {
                return None;
            }
            let information: f64 = games
                .iter()
                .filter(|e| e.a == i || e.b == i)
                .map(|e| {
                    let p = gamma[e.a] / (gamma[e.a] + gamma[e.b]);
                    e.games * p * (1.0 - p)
                })
                .sum();
            let se = if i == anchor || information <= 0.0 { 0.0 } else { ELO_PER_NAT / information.sqrt() };
            Some(Rating { elo: ELO_PER_NAT * gamma[i].ln(), se })
        })
        .collect()
}

/// Which players have a path of games to `anchor`.
fn linked_to(players: usize, games: &[Encounter], anchor: usize) -> Vec<bool> {
    let mut linked = vec![false; players];
    if anchor >= players {
        return linked;
    }
    linked[anchor] = true;
    loop {
        let mut grew = false;
        for e in games {
            if linked[e.a] != linked[e.b] {
                linked[e.a] = true;
                linked[e.b] = true;
                grew = true;
            }
        }
        if !grew {
            return linked;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::stats::elo as elo_of_score;

    fn meet(a: usize, b: usize, games: f64, score_a: f64) -> Encounter {
        Encounter { a, b, games, score_a }
    }

    /// Many games between two players: the fit is the score's Elo, with the standard error of
    /// a binomial score through the logistic's slope.
    #[test]
    fn two_players_rate_as_their_score_says() {
        let r = fit_elo(2, &[meet(0, 1, 10_000.0, 7_500.0)], 1);
        let (a, b) = (r[0].unwrap(), r[1].unwrap());
        assert_eq!((b.elo, b.se), (0.0, 0.0));
        assert!((a.elo - elo_of_score(0.75)).abs() < 0.2, "{a:?}");
        // Var(score) = p(1-p)/n; d elo / d p = ELO_PER_NAT / (p (1-p)).
        let expected_se = ELO_PER_NAT / (10_000.0f64 * 0.75 * 0.25).sqrt();
        assert!((a.se - expected_se).abs() < 0.05, "{} against {expected_se}", a.se);
    }

    /// Ratings chain through shared opponents: A 75% against B, B 75% against C, A and C never
    /// met: A is about twice 190.8 above C. The anchor's choice shifts every rating alike.
    #[test]
    fn players_who_never_met_are_placed_through_their_opponents() {
        let games = [meet(0, 1, 4000.0, 3000.0), meet(1, 2, 4000.0, 3000.0)];
        let from_c = fit_elo(3, &games, 2);
        let a = from_c[0].unwrap().elo;
        assert!((a - 2.0 * elo_of_score(0.75)).abs() < 1.0, "{a}");
        let from_b = fit_elo(3, &games, 1);
        for i in 0..3 {
            let shift = from_c[i].unwrap().elo - from_b[i].unwrap().elo;
            assert!((shift - from_c[1].unwrap().elo).abs() < 1e-6);
        }
    }

    /// A clean sweep has a finite rating (the prior's draw), above any player it did not sweep,
    /// and a player with no games linking it to the anchor has none.
    #[test]
    fn a_sweep_is_finite_and_an_unlinked_player_unrated() {
        let r = fit_elo(4, &[meet(0, 1, 6.0, 6.0), meet(2, 1, 100.0, 70.0)], 1);
        let sweep = r[0].unwrap();
        assert!(sweep.elo.is_finite() && sweep.elo > r[2].unwrap().elo, "{r:?}");
        assert!(sweep.se > 0.0);
        assert_eq!(r[3], None);
    }
}
