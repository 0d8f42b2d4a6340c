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

/// A score (a draw counted as half a win) over `games` and its 95% Wilson interval, from
/// the counts: tables print these, never a rounded score read back from a file.
pub fn score_interval(wins: u64, draws: u64, games: u64) -> (f64, f64, f64) {
    let n = games as f64;
    let score = (wins as f64 + 0.5 * draws as f64) / n.max(1.0);
    let (low, high) = wilson(score, n, Z95);
    (score, low, high)
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
    if n == 0.0 {
        return 0.0;
    }
    let mean = (w + 0.5 * d) / n;
    // The spread is estimated with half a game of each result added: a one-sided record (all
    // wins, or no win) then has a spread that shrinks as it grows, so it is decided once it is
    // long enough, not after its first game (with no spread at all, one win read as proof of
    // H1 and stopped the pairing), nor never (0-1-99). All draws stay undecided: their mean
    // sits between the hypotheses.
    let (pw, pd, pl) = (w + 0.5, d + 0.5, l + 0.5);
    let var = (pw * (1.0 - mean).powi(2) + pd * (0.5 - mean).powi(2) + pl * mean.powi(2)) / (pw + pd + pl);
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The SPRT's bounds: accept H0 below the first, H1 above the second.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// Where a pairing's SPRT stands: "sprt(elo0 0, elo1 10, alpha 0.05, beta 0.05): a vs b,
/// LLR 3.02 in (-2.94, 2.94) after 812 games (...): H1 accepted (...)". The LLR is the
/// first-named entrant's.
pub fn sprt_line(s: &PairStats, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> String {
    let llr = sprt_llr(s.wins as f64, s.draws as f64, s.losses as f64, elo0, elo1);
    let (lo, hi) = sprt_bounds(alpha, beta);
    // What crossing a bound means: the games favour one hypothesis over the other, at the
    // test's error rates; not that the difference is known to lie past it.
    let verdict = if llr >= hi {
        format!("H1 accepted (for {}, elo1 {elo1} is favoured over elo0 {elo0})", s.names[0])
    } else if llr <= lo {
        format!("H0 accepted (for {}, elo0 {elo0} is favoured over elo1 {elo1})", s.names[0])
    } else {
        "undecided".to_string()
    };
    format!(
        "sprt(elo0 {elo0}, elo1 {elo1}, alpha {alpha}, beta {beta}): {} vs {} on {}, LLR {llr:.2} in ({lo:.2}, {hi:.2}) after {} games ({}-{}-{}): {verdict}",
        s.names[0], s.names[1], s.variant, s.games, s.wins, s.draws, s.losses
    )
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    // A total order: a NaN (a hand-edited file) sorts last instead of panicking.
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 { v[m] } else { (v[m - 1] + v[m]) / 2.0 }
}

/// Results of one pairing on one variant, from the view of agent `a` (the lower entrant).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// Medians taken from an evenly thinned sample (a run with very many moves).
    #[serde(default)]
    pub medians_thinned: bool,
    /// Games each agent [a, b] forfeited (a crash, a timeout, an illegal move, a program
    /// that did not start).
    #[serde(default)]
    pub forfeits: [u32; 2],
}

/// Groups games by variant and pairing, in the order they first appear by game index.
/// The games that repeat an earlier game of `records` move for move (the same board, the
/// same players in the same colours, the same opening and moves): deterministic agents from
/// one opening play one game however often it is asked for, and a repeat adds no
/// information, though the intervals count it as an independent game.
pub fn repeated_games(records: &[GameRecord]) -> usize {
    let mut seen = std::collections::HashSet::new();
    records
        .iter()
        .filter(|r| {
            let moves: Vec<&str> = r.moves.iter().map(|m| m.mv.as_str()).collect();
            !seen.insert((r.variant, r.players, r.opening.clone(), moves))
        })
        .count()
}

/// The note a table of `records` carries when some games repeat others (see
/// [`repeated_games`]); None when every game is new.
pub fn repeats_note(records: &[GameRecord]) -> Option<String> {
    match repeated_games(records) {
        0 => None,
        n => Some(format!(
            "repeats: {n} of {} games repeat an earlier game move for move (deterministic agents from the \
             same opening); the intervals count them as independent: use more openings, or fewer games",
            records.len()
        )),
    }
}

pub fn summarize(records: &[GameRecord]) -> Vec<PairStats> {
    let mut s = Summarizer::default();
    for r in records {
        s.add(r);
    }
    s.finish()
}

/// Groups games by variant and *ordered* pairing: each colour order is a row of its own, seen
/// from the entrant that moved first (`a`), as in papers that report "player 1 = MCTS" and
/// "player 1 = alpha-beta" separately. Wins are then the first player's.
pub fn summarize_by_first_mover(records: &[GameRecord]) -> Vec<PairStats> {
    let mut s = Summarizer { by_first_mover: true, ..Summarizer::default() };
    for r in records {
        s.add(r);
    }
    s.finish()
}

/// Samples of one quantity, for its median: every sample up to [`Samples::CAP`], then every
/// 2nd, 4th, ... so that a run of any length holds a bounded number (the median is then of an
/// evenly thinned sample, and marked as such).
#[derive(Clone, Debug, Default)]
struct Samples {
    kept: Vec<f64>,
    stride: u64,
    seen: u64,
    sum: f64,
}

impl Samples {
    const CAP: usize = 1 << 18;

    fn push(&mut self, x: f64) {
        self.sum += x;
        if self.seen.is_multiple_of(self.stride.max(1)) {
            self.kept.push(x);
            if self.kept.len() >= Self::CAP {
                let mut i = 0;
                self.kept.retain(|_| {
                    i += 1;
                    i % 2 == 1
                });
                self.stride = self.stride.max(1) * 2;
            }
        }
        self.seen += 1;
    }

    fn mean(&self) -> f64 {
        // + 0.0: an empty sum is -0.0, printed "-0.00".
        self.sum / self.seen.max(1) as f64 + 0.0
    }

    fn thinned(&self) -> bool {
        self.stride > 1
    }
}

#[derive(Clone, Debug)]
struct PairAccumulator {
    first_index: u64,
    names: [String; 2],
    wins: u32,
    draws: u32,
    losses: u32,
    first_player_wins: u32,
    second_player_wins: u32,
    forfeits: [u32; 2],
    times: [Samples; 2],
    nodes: [Samples; 2],
}

/// A pairing's tally, from the view of its lower entrant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinsDrawsLosses {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// [`summarize`] a game at a time, holding counts and a bounded sample per pairing rather than
/// the games: a run of any length is summarised in bounded memory, in any arrival order.
#[derive(Clone, Debug, Default)]
pub struct Summarizer {
    pairs: Vec<((Variant, usize, usize), PairAccumulator)>,
    /// Key by (first mover, second mover) instead of (lower entrant, higher entrant).
    by_first_mover: bool,
}

impl Summarizer {
    pub fn add(&mut self, r: &GameRecord) {
        let (a, b) = if self.by_first_mover {
            (r.players[0], r.players[1])
        } else {
            (r.players[0].min(r.players[1]), r.players[0].max(r.players[1]))
        };
        let key = (r.variant, a, b);
        let k = match self.pairs.iter().position(|(k, _)| *k == key) {
            Some(k) => k,
            None => {
                let acc = PairAccumulator {
                    first_index: r.index,
                    names: Default::default(),
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    first_player_wins: 0,
                    second_player_wins: 0,
                    forfeits: [0; 2],
                    times: Default::default(),
                    nodes: Default::default(),
                };
                self.pairs.push((key, acc));
                self.pairs.len() - 1
            }
        };
        let s = &mut self.pairs[k].1;
        let side_a = if r.players[0] == a { 0 } else { 1 };
        if r.index <= s.first_index || s.names[0].is_empty() {
            s.first_index = s.first_index.min(r.index);
            s.names = [r.names[side_a].clone(), r.names[1 - side_a].clone()];
        }
        match r.score_of(a) {
            Some(1.0) => s.wins += 1,
            Some(0.5) => s.draws += 1,
            _ => s.losses += 1,
        }
        match r.outcome {
            Outcome::FirstWins => s.first_player_wins += 1,
            Outcome::SecondWins => s.second_player_wins += 1,
            Outcome::Draw => {}
        }
        if let Some(side) = r.forfeit {
            s.forfeits[if side as usize == side_a { 0 } else { 1 }] += 1;
        }
        for m in &r.moves {
            let who = if m.player as usize == side_a { 0 } else { 1 };
            s.times[who].push(m.time);
            s.nodes[who].push(m.work() as f64);
        }
    }

    /// Wins, draws and losses of the lower entrant `a` against `b` on `variant` so far.
    pub fn pair(&self, variant: Variant, a: usize, b: usize) -> Option<WinsDrawsLosses> {
        let (_, s) = self.pairs.iter().find(|(k, _)| *k == (variant, a, b))?;
        Some(WinsDrawsLosses { wins: s.wins, draws: s.draws, losses: s.losses })
    }

    /// Move samples held for medians (bounded whatever the number of games added).
    pub fn held_samples(&self) -> usize {
        self.pairs.iter().map(|(_, s)| s.times.iter().chain(&s.nodes).map(|x| x.kept.len()).sum::<usize>()).sum()
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.pairs.iter().map(|(_, s)| (s.wins + s.draws + s.losses) as u64).sum()
    }

    pub fn finish(&self) -> Vec<PairStats> {
        let mut order: Vec<&((Variant, usize, usize), PairAccumulator)> = self.pairs.iter().collect();
        order.sort_by_key(|(_, s)| s.first_index);
        order
            .into_iter()
            .map(|&((variant, a, b), ref acc)| {
                let mut s = PairStats {
                    variant,
                    a,
                    b,
                    names: acc.names.clone(),
                    games: acc.wins + acc.draws + acc.losses,
                    wins: acc.wins,
                    draws: acc.draws,
                    losses: acc.losses,
                    score: 0.0,
                    score_low: 0.0,
                    score_high: 0.0,
                    elo: 0.0,
                    elo_error: 0.0,
                    first_player_wins: acc.first_player_wins,
                    second_player_wins: acc.second_player_wins,
                    mean_time: [0.0; 2],
                    median_time: [0.0; 2],
                    mean_nodes: [0.0; 2],
                    median_nodes: [0.0; 2],
                    medians_thinned: false,
                    forfeits: acc.forfeits,
                };
                let n = s.games as f64;
                (s.score, s.score_low, s.score_high) = score_interval(s.wins.into(), s.draws.into(), s.games.into());
                s.elo = elo(s.score) + 0.0;
                // Delta method on the per-game score variance.
                let var = (s.wins as f64 * (1.0 - s.score).powi(2)
                    + s.draws as f64 * (0.5 - s.score).powi(2)
                    + s.losses as f64 * s.score.powi(2))
                    / n.max(1.0);
                let p = s.score.clamp(1e-9, 1.0 - 1e-9);
                let derivative = 400.0 / (std::f64::consts::LN_10 * p * (1.0 - p));
                s.elo_error = Z95 * derivative * (var / n.max(1.0)).sqrt();
                for i in 0..2 {
                    s.mean_time[i] = acc.times[i].mean();
                    s.mean_nodes[i] = acc.nodes[i].mean();
                    s.median_time[i] = median(&mut acc.times[i].kept.clone());
                    s.median_nodes[i] = median(&mut acc.nodes[i].kept.clone());
                    s.medians_thinned |= acc.times[i].thinned() || acc.nodes[i].thinned();
                }
                s
            })
            .collect()
    }
}

/// The Elo cell of a table: the difference and its 95% half-width, or why there is none
/// (a clean sweep has no finite Elo; games that all score the same show no spread to estimate
/// an error from).
pub fn elo_label(s: &PairStats) -> String {
    if s.games == 0 || s.score <= 0.0 || s.score >= 1.0 {
        return "n/a".into();
    }
    let rounded = s.elo.round();
    let elo = if rounded == 0.0 { "0".to_string() } else { format!("{rounded:+.0}") };
    if s.wins + s.losses == 0 || s.games < 2 {
        return format!("{elo} (no spread)");
    }
    format!("{elo} +-{:.0}", s.elo_error)
}

/// The cells of one pairing's row, as the CLI's table and the workbench's summary show them:
/// variant, "a vs b", games, W-D-L, score (95% CI), Elo, first-player wins, ms and nodes a move.
pub fn row_cells(s: &PairStats) -> [String; 10] {
    [
        s.variant.to_string(),
        format!("{} vs {}", s.names[0], s.names[1]),
        s.games.to_string(),
        format!("{}-{}-{}", s.wins, s.draws, s.losses),
        format!("{:.3} ({:.3}-{:.3})", s.score, s.score_low, s.score_high),
        elo_label(s),
        format!("{:.1}%", 100.0 * s.first_player_wins as f64 / s.games.max(1) as f64),
        format!("{:.2}|{:.2}", s.mean_time[0] * 1e3, s.mean_time[1] * 1e3),
        format!("{:.0}|{:.0}", s.mean_nodes[0], s.mean_nodes[1]),
        format!("{}|{}", s.forfeits[0], s.forfeits[1]),
    ]
}

/// The headers of [`row_cells`].
pub const ROW_HEADERS: [&str; 10] = [
    "variant",
    "a vs b",
    "games",
    "W-D-L",
    "score (95% CI)",
    "Elo",
    "1st wins",
    "ms/move a|b",
    "nodes/move a|b",
    "forfeits a|b",
];

/// A plain-text table of the statistics.
pub fn table(stats: &[PairStats]) -> String {
    let line = |c: &[String]| {
        format!(
            "{:<18} {:<28} {:>5} {:>11} {:>22} {:>14} {:>11} {:>21} {:>21} {:>12}\n",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]
        )
    };
    let mut out = line(&ROW_HEADERS.map(String::from));
    for s in stats {
        out.push_str(&line(&row_cells(s)));
    }
    out
}

/// One line for all of `stats`: each pairing's wins, draws and losses (of `a`) summed over
/// its boards, with the score and its 95% interval from those sums, and the board it was
/// played on or how many. The workbench shows it where a short tab has no room for the
/// table (`table` has the rows by board).
pub fn headline(stats: &[PairStats]) -> String {
    /// A pairing's sums over its boards.
    struct Pairing<'a> {
        entrants: (usize, usize),
        names: &'a [String; 2],
        wdl: [u64; 3],
        boards: Vec<Variant>,
    }
    // Pairings in the order they first appear.
    let mut pairs: Vec<Pairing> = Vec::new();
    for s in stats {
        let at = match pairs.iter().position(|p| p.entrants == (s.a, s.b)) {
            Some(i) => i,
            None => {
                pairs.push(Pairing { entrants: (s.a, s.b), names: &s.names, wdl: [0; 3], boards: Vec::new() });
                pairs.len() - 1
            }
        };
        let p = &mut pairs[at];
        for (sum, n) in p.wdl.iter_mut().zip([s.wins, s.draws, s.losses]) {
            *sum += u64::from(n);
        }
        if !p.boards.contains(&s.variant) {
            p.boards.push(s.variant);
        }
    }
    let parts: Vec<String> = pairs
        .iter()
        .map(|p| {
            let [w, d, l] = p.wdl;
            let games = w + d + l;
            let (score, low, high) = score_interval(w, d, games);
            let on = match p.boards.as_slice() {
                [one] => one.to_string(),
                many => format!("{} boards", many.len()),
            };
            let plural = if games == 1 { "" } else { "s" };
            format!(
                "{} vs {}: {w}-{d}-{l}, score {score:.3} ({low:.3}-{high:.3}), {games} game{plural} on {on}",
                p.names[0], p.names[1]
            )
        })
        .collect();
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(variant: &str, a: usize, b: usize, names: [&str; 2], wdl: [u32; 3]) -> PairStats {
        let games = wdl.iter().sum();
        let (score, score_low, score_high) = score_interval(wdl[0].into(), wdl[1].into(), games as u64);
        PairStats {
            variant: variant.parse().unwrap(),
            a,
            b,
            names: names.map(String::from),
            games,
            wins: wdl[0],
            draws: wdl[1],
            losses: wdl[2],
            score,
            score_low,
            score_high,
            elo: elo(score),
            elo_error: 0.0,
            first_player_wins: 0,
            second_player_wins: 0,
            mean_time: [0.0; 2],
            median_time: [0.0; 2],
            mean_nodes: [0.0; 2],
            median_nodes: [0.0; 2],
            medians_thinned: false,
            forfeits: [0; 2],
        }
    }

    /// A pairing over two boards is one part with the sums: 1-0-1 and 0-2-0 are 1-2-1, a
    /// score of 2/4, and the interval of four games (Wilson's at 0.5 over 4: 0.150-0.850).
    #[test]
    fn the_headline_sums_a_pairing_over_its_boards() {
        let stats = [
            pair("mnk:4,4,3", 0, 1, ["strong-ab", "jeng-mcts"], [1, 0, 1]),
            pair("mnk:5,5,4", 0, 1, ["strong-ab", "jeng-mcts"], [0, 2, 0]),
        ];
        assert_eq!(headline(&stats), "strong-ab vs jeng-mcts: 1-2-1, score 0.500 (0.150-0.850), 4 games on 2 boards");
        let one = headline(&stats[..1]);
        assert_eq!(one, "strong-ab vs jeng-mcts: 1-0-1, score 0.500 (0.095-0.905), 2 games on mnk:4,4,3");
    }

    /// A round robin's pairings stay apart, in the order they first appear; one game is
    /// "1 game".
    #[test]
    fn the_headline_keeps_pairings_apart() {
        let stats = [
            pair("connect:7,6,4", 0, 1, ["a", "b"], [3, 0, 0]),
            pair("connect:7,6,4", 0, 2, ["a", "c"], [0, 0, 1]),
            pair("mnk:4,4,3", 0, 1, ["a", "b"], [0, 0, 1]),
        ];
        let line = headline(&stats);
        let parts: Vec<&str> = line.split("; ").collect();
        assert_eq!(parts.len(), 2, "{line}");
        assert!(parts[0].starts_with("a vs b: 3-0-1, score 0.750"), "{line}");
        assert!(parts[0].ends_with("4 games on 2 boards"), "{line}");
        assert!(parts[1].starts_with("a vs c: 0-0-1, score 0.000"), "{line}");
        assert!(parts[1].ends_with("1 game on connect:7,6,4"), "{line}");
        assert_eq!(headline(&[]), "");
    }

    /// The SPRT line names the verdict the bounds give (alpha = beta = 0.05: +-2.94).
    #[test]
    fn the_sprt_line_reads_the_bounds() {
        let line = |wdl| sprt_line(&pair("gomoku", 0, 1, ["new", "old"], wdl), 0.0, 10.0, 0.05, 0.05);
        let h1 = line([300, 0, 100]);
        assert!(
            h1.contains("H1 accepted (for new, elo1 10 is favoured")
                && h1.contains("new vs old on mnk:15,15,5, LLR")
                && h1.contains("in (-2.94, 2.94) after 400 games"),
            "{h1}"
        );
        assert!(line([20_000, 0, 20_000]).contains("H0 accepted"));
        let open = line([10, 0, 10]);
        let llr = sprt_llr(10.0, 0.0, 10.0, 0.0, 10.0);
        assert!(open.contains(&format!("LLR {llr:.2}")) && open.ends_with("undecided"), "{open}");
    }
}
