//! Colour-swapped game pairs analysed as pairs, as fastchess and cutechess report them: games
//! 2i and 2i + 1 of a pairing play the same opening with colours swapped, so their results
//! are not independent (a first-player win on a board won by the first player shows up in
//! both). The pentanomial counts (the pair's score for one side: 0, 1/2, 1, 3/2, 2) and the
//! interval from the pairs' own variance account for that, and for draws.

use super::game::GameRecord;
use super::matchup::{Colours, Matchup};
use crate::game::Variant;

/// Pair results of one pairing on one variant, from entrant `a`'s side.
#[derive(Clone, Debug, PartialEq)]
pub struct Pentanomial {
    pub variant: Variant,
    pub a: usize,
    pub b: usize,
    /// Pairs whose two games scored a 0, 1/2, 1, 3/2 and 2 points in all.
    pub counts: [u32; 5],
    /// Games whose partner is missing (an odd count, an unfinished run).
    pub unpaired: u32,
    /// a's mean score a game over the pairs, and its 95% interval from the pairs' variance.
    pub score: f64,
    pub low: f64,
    pub high: f64,
}

impl Pentanomial {
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// "LL 3, LD 1, DD/WL 10, WD 2, WW 4 (20 pairs): score 0.538 (0.42-0.66)".
    pub fn line(&self, names: &[String]) -> String {
        let name = |i: usize| names.get(i).map_or("?", String::as_str);
        let c = self.counts;
        let mut s = format!(
            "{} {} vs {}: pairs LL {}, LD {}, DD/WL {}, WD {}, WW {} ({} pairs): score {:.3} ({:.3}-{:.3})",
            self.variant,
            name(self.a),
            name(self.b),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            self.pairs(),
            self.score,
            self.low,
            self.high
        );
        if self.unpaired > 0 {
            s.push_str(&format!(", {} game(s) unpaired", self.unpaired));
        }
        s
    }
}

/// A pairing on a variant: (variant, a, b).
type PairingKey = (Variant, usize, usize);
/// a's scores in each pair, by the pair's first game index.
type ScoresByPair = std::collections::BTreeMap<u64, Vec<f64>>;

/// The pentanomial of every pairing and variant of a run whose colours alternate; empty for
/// `Colours::AsListed` (no game has a colour-swapped partner).
pub fn pentanomials(records: &[GameRecord], m: &Matchup) -> Vec<Pentanomial> {
    if m.colours != Colours::Alternate {
        return Vec::new();
    }
    let games = m.games.max(1) as u64;
    let mut groups: Vec<(PairingKey, ScoresByPair)> = Vec::new();
    for r in records {
        let Some(spec) = m.spec(r.index) else { continue };
        let (a, b) = spec.pairing;
        let Some(score) = r.score_of(a) else { continue };
        let key = (r.variant, a, b);
        let pair = r.index - (r.index % games) % 2;
        let group = match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g,
            None => {
                groups.push((key, Default::default()));
                &mut groups.last_mut().expect("just pushed").1
            }
        };
        group.entry(pair).or_default().push(score);
    }
    groups
        .into_iter()
        .map(|((variant, a, b), pairs)| {
            let mut counts = [0u32; 5];
            let mut unpaired = 0;
            for scores in pairs.values() {
                if scores.len() == 2 {
                    counts[((scores[0] + scores[1]) * 2.0).round() as usize] += 1;
                } else {
                    unpaired += scores.len() as u32;
                }
            }
            let (score, low, high) = pair_score(&counts);
            Pentanomial { variant, a, b, counts, unpaired, score, low, high }
        })
        .collect()
}

/// A's mean score a game over the pairs of `counts` (pentanomial, LL to WW) and its 95%
/// interval from the pairs' variance: computed from the counts, so a table printed from
/// them shows the same numbers as the run.
pub fn pair_score(counts: &[u32; 5]) -> (f64, f64, f64) {
    let per_game = counts.iter().enumerate().flat_map(|(i, &c)| std::iter::repeat_n(i as f64 / 4.0, c as usize));
    mean_interval(&per_game.collect::<Vec<_>>())
}

/// The mean of per-pair scores (each in [0, 1]) and its 95% normal interval, clamped to
/// [0, 1]; (0.5, 0, 1) for no pairs.
fn mean_interval(x: &[f64]) -> (f64, f64, f64) {
    let n = x.len() as f64;
    if x.is_empty() {
        return (0.5, 0.0, 1.0);
    }
    let mean = x.iter().sum::<f64>() / n;
    let var = if x.len() > 1 { x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.25 };
    // One pair, or pairs all alike, say nothing about the spread: no narrower than a
    // Wilson-like floor of one draw either way.
    let var = var.max(0.25 / (n + 1.0));
    let half = 1.96 * (var / n).sqrt();
    (mean, (mean - half).max(0.0), (mean + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Outcome;

    fn matchup(games: u32) -> Matchup {
        let text = format!(
            r#"(name: "m", variants: List(["tictactoe"]), agents: [(agent: Preset("random")), (name: Some("r2"), agent: Preset("random"))],
                pairing: Pairwise, games: {games})"#
        );
        Matchup::parse(&text, "m.ron".as_ref()).unwrap()
    }

    fn game(m: &Matchup, index: u64, outcome: Outcome) -> GameRecord {
        let spec = m.spec(index).unwrap();
        GameRecord::with_result(index, spec.variant, spec.players, ["a".into(), "b".into()], outcome)
    }

    #[test]
    fn a_board_the_first_player_wins_gives_even_pairs() {
        // Every game won by whoever moves first: each pair is one win and one loss for a, so
        // every pair scores 1, the score is exactly 1/2 and the interval is narrow, where the
        // games one by one (10 wins, 10 losses) give a Wilson interval of about +-0.2.
        let m = matchup(20);
        let records: Vec<_> = (0..20).map(|i| game(&m, i, Outcome::FirstWins)).collect();
        let p = &pentanomials(&records, &m)[0];
        assert_eq!(p.counts, [0, 0, 10, 0, 0]);
        assert_eq!(p.score, 0.5);
        assert!(p.high - p.low < 0.25, "{p:?}");
        let (lo, hi) = crate::arena::wilson(0.5, 20.0, 1.96);
        assert!(hi - lo > 0.35);
    }

    #[test]
    fn pairs_are_counted_by_their_total_and_strays_are_unpaired() {
        let m = matchup(6);
        // Games 0/1: a wins as first (index 0: a first) and draws as second: 3/2.
        // Games 2/3: a loses both: 0. Game 4 alone (its partner 5 not played).
        let records = vec![
            game(&m, 0, Outcome::FirstWins),
            game(&m, 1, Outcome::Draw),
            game(&m, 2, Outcome::SecondWins),
            game(&m, 3, Outcome::FirstWins),
            game(&m, 4, Outcome::Draw),
        ];
        let p = &pentanomials(&records, &m)[0];
        assert_eq!(p.counts, [1, 0, 0, 1, 0]);
        assert_eq!(p.unpaired, 1);
        assert!((p.score - 0.375).abs() < 1e-12);
        assert!(p.low >= 0.0 && p.high <= 1.0 && p.low < p.score && p.score < p.high);
        assert!(p.line(&["a".into(), "b".into()]).contains("pairs LL 1, LD 0, DD/WL 0, WD 1, WW 0 (2 pairs)"));
    }
}
