//! Statistics per pairing and variant: W/D/L and score with 95% Wilson intervals, the Elo
//! difference with its error, the first player's advantage, time and nodes per move, SPRT.

use serde::{Deserialize, Serialize};

use super::game::{GameRecord, Outcome};
use crate::game::Variant;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of a proportion `p` over `n` trials.
pub fn wilson(p: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference that gives an expected score `s` (logistic model).
pub fn elo(s: f64) -> f64 {
    let s = s.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score at an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Log-likelihood ratio of H1 (elo1) against H0 (elo0) for W/D/L results, in the trinomial
/// normal approximation used by chess testing frameworks.
pub fn sprt_llr(w: f64, d: f64, l: f64, elo0: f64, elo1: f64) -> f64 {
    let n = w + d + l;
    if n == 0.0 || w == 0.0 || l == 0.0 && d == 0.0 {
        return 0.0;
    }
    let mean = (w + 0.5 * d) / n;
    let var = (w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2)) / n;
    if var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The SPRT's bounds: accept H0 below the first, H1 above the second.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let m = v.len() / 2;
    if v.len() % 2 == 1 { v[m] } else { (v[m - 1] + v[m]) / 2.0 }
}

/// Results of one pairing on one variant, from the view of agent `a` (the lower entrant).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairStats {
    pub variant: Variant,
    pub a: usize,
    pub b: usize,
    pub names: [String; 2],
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// a's mean score and its 95% Wilson interval.
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
    pub elo: f64,
    /// Half-width of the 95% interval of the Elo difference.
    pub elo_error: f64,
    /// Wins of whoever moved first, and draws, over all games of the pairing.
    pub first_player_wins: u32,
    pub second_player_wins: u32,
    /// Per agent [a, b]: mean and median seconds and nodes (or iterations) per move.
    pub mean_time: [f64; 2],
    pub median_time: [f64; 2],
    pub mean_nodes: [f64; 2],
    pub median_nodes: [f64; 2],
}

/// Groups games by variant and pairing, in the order they first appear by game index.
pub fn summarize(records: &[GameRecord]) -> Vec<PairStats> {
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.index);
    let mut keys: Vec<(Variant, usize, usize)> = Vec::new();
    for r in &sorted {
        let (a, b) = (r.players[0].min(r.players[1]), r.players[0].max(r.players[1]));
        if !keys.contains(&(r.variant, a, b)) {
            keys.push((r.variant, a, b));
        }
    }
    keys.into_iter()
        .map(|(variant, a, b)| {
            let games: Vec<&&GameRecord> = sorted
                .iter()
                .filter(|r| r.variant == variant && r.players.contains(&a) && r.players.contains(&b))
                .collect();
            let mut s = PairStats {
                variant,
                a,
                b,
                names: ["".into(), "".into()],
                games: games.len() as u32,
                wins: 0,
                draws: 0,
                losses: 0,
                score: 0.0,
                score_low: 0.0,
                score_high: 0.0,
                elo: 0.0,
                elo_error: 0.0,
                first_player_wins: 0,
                second_player_wins: 0,
                mean_time: [0.0; 2],
                median_time: [0.0; 2],
                mean_nodes: [0.0; 2],
                median_nodes: [0.0; 2],
            };
            let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
            let mut nodes: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
            for g in &games {
                let side_a = if g.players[0] == a { 0 } else { 1 };
                s.names[0] = g.names[side_a].clone();
                s.names[1] = g.names[1 - side_a].clone();
                match g.score_of(a) {
                    Some(1.0) => s.wins += 1,
                    Some(0.5) => s.draws += 1,
                    _ => s.losses += 1,
                }
                match g.outcome {
                    Outcome::FirstWins => s.first_player_wins += 1,
                    Outcome::SecondWins => s.second_player_wins += 1,
                    Outcome::Draw => {}
                }
                for m in &g.moves {
                    let who = if m.player as usize == side_a { 0 } else { 1 };
                    times[who].push(m.time);
                    nodes[who].push(m.nodes.max(m.iterations) as f64);
                }
            }
            let n = s.games as f64;
            s.score = (s.wins as f64 + 0.5 * s.draws as f64) / n.max(1.0);
            (s.score_low, s.score_high) = wilson(s.score, n, Z95);
            s.elo = elo(s.score);
            // Delta method on the per-game score variance.
            let var = (s.wins as f64 * (1.0 - s.score).powi(2)
                + s.draws as f64 * (0.5 - s.score).powi(2)
                + s.losses as f64 * s.score.powi(2))
                / n.max(1.0);
            let p = s.score.clamp(1e-9, 1.0 - 1e-9);
            let derivative = 400.0 / (std::f64::consts::LN_10 * p * (1.0 - p));
            s.elo_error = Z95 * derivative * (var / n.max(1.0)).sqrt();
            for i in 0..2 {
                s.mean_time[i] = times[i].iter().sum::<f64>() / times[i].len().max(1) as f64;
                s.mean_nodes[i] = nodes[i].iter().sum::<f64>() / nodes[i].len().max(1) as f64;
                s.median_time[i] = median(&mut times[i]);
                s.median_nodes[i] = median(&mut nodes[i]);
            }
            s
        })
        .collect()
}

/// A plain-text table of the statistics.
pub fn table(stats: &[PairStats]) -> String {
    let mut out = format!(
        "{:<18} {:<28} {:>5} {:>11} {:>22} {:>14} {:>11} {:>21} {:>21}\n",
        "variant", "a vs b", "games", "W-D-L", "score (95% CI)", "Elo", "1st wins", "ms/move a|b", "nodes/move a|b"
    );
    for s in stats {
        out.push_str(&format!(
            "{:<18} {:<28} {:>5} {:>11} {:>22} {:>14} {:>11} {:>21} {:>21}\n",
            s.variant.to_string(),
            format!("{} vs {}", s.names[0], s.names[1]),
            s.games,
            format!("{}-{}-{}", s.wins, s.draws, s.losses),
            format!("{:.3} ({:.3}-{:.3})", s.score, s.score_low, s.score_high),
            if s.score > 0.0 && s.score < 1.0 { format!("{:+.0} +-{:.0}", s.elo, s.elo_error) } else { "n/a".into() },
            format!("{:.1}%", 100.0 * s.first_player_wins as f64 / s.games.max(1) as f64),
            format!("{:.2}|{:.2}", s.mean_time[0] * 1e3, s.mean_time[1] * 1e3),
            format!("{:.0}|{:.0}", s.mean_nodes[0], s.mean_nodes[1]),
        ));
    }
    out
}
