//! The candidate table: the best moves of one analysis with their scores and lines, and where
//! two analyses of the same position agree.

use crate::game::Move;
use crate::search::tree::Bound;
use crate::search::{Progress, Score};

/// One row of the candidate table.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    /// For the side to move (see the convention in the module above).
    pub score: Score,
    /// Exact, or an upper bound for a move alpha-beta refuted without valuing it.
    pub bound: Bound,
    /// MCTS: the move's visits and their share of the root's.
    pub visits: u64,
    pub share: Option<f64>,
    /// The line the move starts (at least the move itself).
    pub pv: Vec<Move>,
    /// Strength for the board's colour scale, in [0, 1]: 1 for the best move.
    pub strength: f32,
}

/// The `n` best moves of a report, best first. MCTS ranks proven wins, then the move it
/// plays, then by visits; alpha-beta by value, moves with exact values before refuted ones.
pub fn candidates(p: &Progress, n: usize) -> Vec<Candidate> {
    // A root decided without a search of its moves (alpha-beta's win in one, or the one block
    // that still loses): its move and value, rather than an empty table after "win in 1".
    if p.root.is_empty()
        && p.score.is_proven()
        && let Some(mv) = p.best
    {
        let pv = if p.pv.first() == Some(&mv) { p.pv.clone() } else { vec![mv] };
        return vec![Candidate { mv, score: p.score, bound: Bound::Exact, visits: 0, share: None, pv, strength: 1.0 }];
    }
    let mut root = p.root.clone();
    let total: u64 = root.iter().map(|r| r.visits).sum();
    let line = |mv: Move, own: &[Move]| -> Vec<Move> {
        if !own.is_empty() {
            own.to_vec()
        } else if p.best == Some(mv) && p.pv.first() == Some(&mv) {
            p.pv.clone()
        } else {
            vec![mv]
        }
    };
    // The search's own move sorts first among equals (`false` before `true`).
    let not_best = |r: &crate::search::RootMove| Some(r.mv) != p.best;
    if total > 0 {
        // What MCTS plays first: a proven win (sooner first; MCTS-Solver plays it whatever its
        // visits: a one-visit move once topped the table above "best a, win"), then the
        // search's own move (its final-move rule), then by visits; proven losses last.
        let class = |s: Score| match s {
            Score::Win { .. } => 0,
            Score::Loss { .. } => 2,
            _ => 1,
        };
        root.sort_by(|a, b| {
            let proofs = match (a.score, b.score) {
                (Score::Win { .. }, Score::Win { .. }) => rank(b.score).total_cmp(&rank(a.score)),
                _ => std::cmp::Ordering::Equal,
            };
            // A total order (a NaN value sorts as the largest): `sort_by` may panic on one
            // that is not.
            class(a.score)
                .cmp(&class(b.score))
                .then(proofs)
                .then(not_best(a).cmp(&not_best(b)))
                .then(b.visits.cmp(&a.visits))
                .then(b.value.total_cmp(&a.value))
        });
        let top = root.iter().map(|r| r.visits).max().unwrap_or(1).max(1);
        root.iter()
            .take(n)
            .map(|r| Candidate {
                mv: r.mv,
                score: r.score,
                bound: Bound::Exact,
                visits: r.visits,
                share: Some(r.visits as f64 / total as f64),
                pv: line(r.mv, &r.pv),
                // The move played is drawn as the best, whatever its visits.
                strength: if Some(r.mv) == p.best { 1.0 } else { (r.visits as f64 / top as f64) as f32 },
            })
            .collect()
    } else {
        // Among equal values the search's own move first, so the table's top row, the board's
        // best mark and the "best" readout name the same move.
        root.sort_by(|a, b| {
            a.upper_bound
                .cmp(&b.upper_bound)
                .then(rank(b.score).total_cmp(&rank(a.score)))
                .then(not_best(a).cmp(&not_best(b)))
        });
        // The colour follows the value: the best exact move 1, others fading with their
        // distance below it (one heuristic unit, or 25 points of win probability, takes the
        // strength halfway down; proven results count as +-20 units); bounds are faint. Where
        // the best and the move are both proven, a scale of their own (see `proven_strength`).
        let best = root.iter().find(|r| !r.upper_bound).map(|r| r.score);
        root.iter()
            .take(n)
            .map(|r| {
                let strength = match best {
                    Some(b) if !r.upper_bound => proven_strength(b, r.score)
                        .unwrap_or_else(|| 0.15 + 0.85 / (1.0 + (effective(b) - effective(r.score)).max(0.0)) as f32),
                    _ => 0.1,
                };
                Candidate {
                    mv: r.mv,
                    score: r.score,
                    bound: if r.upper_bound { Bound::Upper } else { Bound::Exact },
                    visits: 0,
                    share: None,
                    pv: line(r.mv, &r.pv),
                    strength,
                }
            })
            .collect()
    }
}

/// A score's place in the candidate table: its value, where a proven win or loss whose distance
/// is not proved (proof-number search's, MCTS-Solver's) counts as the least it may be, a win
/// as slower and a loss as quicker than any with a distance, so a row never looks better than
/// what was proved. (`Score::as_f64` puts an unknown distance at 0 plies.)
fn rank(s: Score) -> f64 {
    match s {
        Score::Win { plies: None } => s.as_f64() - 1e5,
        _ => s.as_f64(),
    }
}

/// A score on one scale for the colour: heuristic units, proven results at +-20.
fn effective(s: Score) -> f64 {
    match s {
        Score::Eval(v) => (v as f64 / 1000.0).clamp(-19.0, 19.0),
        Score::WinRate(r) => (r - 0.5) * 4.0,
        Score::Win { plies } => 20.0 - plies.unwrap_or(0) as f64 * 1e-3,
        Score::Loss { plies } => -20.0 + plies.unwrap_or(0) as f64 * 1e-3,
        Score::Draw | Score::Unknown => 0.0,
    }
}

/// The deepest colour of a proven value worse than the best's: visibly paler than the best
/// (the legend's "worse" swatch is paler still).
const WORSE_PROVEN: f32 = 0.7;

/// The deepest colour of a proven loss where the best move does not lose: a long loss sits
/// near a draw on the scale, and a new-user trial could barely tell Connect-4's opening
/// draws (0.7) from its losses in 40 (0.53) on the board.
const LOSS_UNDER_BETTER: f32 = 0.45;

/// The colour strength of a proven `score` when the best move's is proven too (None
/// otherwise): linear from 1 at the best down to 0.15 at a loss at once, on a scale where a
/// loss lies in (-3, 0) (longer resistance higher: -3 e^(-plies / 20)), a draw at 1 and a win
/// in (2, 8] (sooner higher: 2 + 6 e^(-plies / 20)), so that a draw stands clearly apart from both, and a quick loss
/// from a long one, a quick win from a slow one (a proof without its distance counts as the
/// least it may be, as in [`rank`]: a win as far, a loss as at once).
/// A value worse than the best is drawn at most [`WORSE_PROVEN`], a loss under a win or a draw at
/// most [`LOSS_UNDER_BETTER`]: far from the end the scale
/// flattens (a loss in 36 beside a loss in 38 came out at 0.98, the best's colour).
fn proven_strength(best: Score, score: Score) -> Option<f32> {
    let near = |plies: Option<u32>| plies.map_or(0.0, |p| (-(p as f64) / 20.0).exp());
    let place = |s: Score| match s {
        Score::Win { plies } => Some(2.0 + 6.0 * near(plies)),
        Score::Draw => Some(1.0),
        Score::Loss { plies } => Some(-3.0 * plies.map_or(1.0, |_| near(plies))),
        _ => None,
    };
    let (b, v) = (place(best)?, place(score)?);
    if v >= b {
        return Some(1.0);
    }
    let most = match (best, score) {
        (Score::Win { .. } | Score::Draw, Score::Loss { .. }) => LOSS_UNDER_BETTER,
        _ => WORSE_PROVEN,
    };
    Some(((1.0 - 0.85 * ((b - v) / (b + 3.0))) as f32).min(most))
}

/// The move an analysis prefers: its first candidate, once that one's score is known. A proof
/// still running lists its moves unproved (`?`) in no order of merit, and its first row is
/// then no preference (no "agent A prefers a" there).
pub fn preferred(list: &[Candidate]) -> Option<Move> {
    list.first().filter(|c| c.score != Score::Unknown).map(|c| c.mv)
}

/// Where two candidate lists of the same position agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Agreement {
    /// Both put the same move first.
    pub same_best: bool,
    /// Moves in one list and not in the other (either way).
    pub only_in_one: Vec<Move>,
}

pub fn agreement(a: &[Candidate], b: &[Candidate]) -> Agreement {
    let has = |list: &[Candidate], m: Move| list.iter().any(|c| c.mv == m);
    let mut only: Vec<Move> = a.iter().filter(|c| !has(b, c.mv)).map(|c| c.mv).collect();
    only.extend(b.iter().filter(|c| !has(a, c.mv)).map(|c| c.mv));
    Agreement { same_best: a.first().map(|c| c.mv) == b.first().map(|c| c.mv), only_in_one: only }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::RootMove;

    fn rm(mv: u16, visits: u64, score: Score, upper: bool) -> RootMove {
        RootMove { mv: Move(mv), visits, value: score.as_f64(), score, upper_bound: upper, pv: vec![] }
    }

    #[test]
    fn mcts_candidates_rank_by_visits_with_their_share() {
        let p = Progress {
            iterations: 100,
            best: Some(Move(3)),
            pv: vec![Move(3), Move(2)],
            root: vec![
                rm(1, 20, Score::WinRate(0.6), false),
                rm(3, 70, Score::WinRate(0.55), false),
                rm(2, 10, Score::WinRate(0.4), false),
            ],
            ..Default::default()
        };
        let c = candidates(&p, 2);
        assert_eq!(c.iter().map(|c| c.mv).collect::<Vec<_>>(), vec![Move(3), Move(1)]);
        assert_eq!(c[0].share, Some(0.7));
        assert_eq!(c[0].pv, vec![Move(3), Move(2)], "the best move carries the principal variation");
        assert_eq!(c[1].pv, vec![Move(1)]);
        assert_eq!(c[0].strength, 1.0);
    }

    /// MCTS-Solver proved a move wins: it heads the table (as "best a, win" says), above a
    /// move with more visits; the search's own move before others; proven losses last.
    #[test]
    fn mcts_candidates_put_a_proven_win_and_the_move_played_first() {
        let p = Progress {
            iterations: 5,
            best: Some(Move(0)),
            root: vec![
                rm(1, 3, Score::WinRate(0.9), false),
                rm(2, 1, Score::Loss { plies: Some(2) }, false),
                rm(0, 1, Score::Win { plies: Some(1) }, false),
            ],
            ..Default::default()
        };
        let c = candidates(&p, 3);
        assert_eq!(c.iter().map(|c| c.mv).collect::<Vec<_>>(), vec![Move(0), Move(1), Move(2)]);
        assert_eq!(c[0].strength, 1.0);
        assert_eq!(preferred(&c), Some(Move(0)));
        // A final-move rule other than the most visits: the move played first all the same.
        let p = Progress {
            iterations: 100,
            best: Some(Move(2)),
            root: vec![rm(1, 60, Score::WinRate(0.5), false), rm(2, 40, Score::WinRate(0.7), false)],
            ..Default::default()
        };
        assert_eq!(candidates(&p, 2)[0].mv, Move(2));
    }

    #[test]
    fn alphabeta_candidates_put_exact_values_before_bounds() {
        let p = Progress {
            best: Some(Move(4)),
            pv: vec![Move(4)],
            root: vec![
                rm(0, 0, Score::Eval(900), true),
                rm(4, 0, Score::Eval(500), false),
                rm(5, 0, Score::Eval(-200), false),
                rm(6, 0, Score::Win { plies: Some(3) }, false),
            ],
            ..Default::default()
        };
        let c = candidates(&p, 4);
        assert_eq!(c.iter().map(|c| c.mv).collect::<Vec<_>>(), vec![Move(6), Move(4), Move(5), Move(0)]);
        assert_eq!(c[3].bound, Bound::Upper, "a refuted move is shown as a bound, never as a value");
        assert!(c[1].strength > c[2].strength && c[2].strength > c[3].strength);
    }

    #[test]
    fn among_equal_values_the_searched_best_move_comes_first() {
        // A proof gives three moves "win in 3" and plays the second: the table's top row is it.
        let win = Score::Win { plies: Some(3) };
        let p = Progress {
            best: Some(Move(2)),
            pv: vec![Move(2)],
            proof: true,
            root: vec![rm(1, 0, win, false), rm(2, 0, win, false), rm(3, 0, win, false), rm(0, 0, Score::Draw, false)],
            ..Default::default()
        };
        let c = candidates(&p, 4);
        assert_eq!(c.iter().map(|c| c.mv).collect::<Vec<_>>(), vec![Move(2), Move(1), Move(3), Move(0)]);
        assert_eq!(c[0].strength, 1.0);
    }

    /// Where every move loses, the longest resistance is the deepest colour and a quick loss
    /// is clearly paler; where every move wins, the quickest win is; a draw stays above every
    /// loss and a proven win above every heuristic value.
    #[test]
    fn proven_distances_separate_on_the_colour_scale() {
        let loss = |p| Score::Loss { plies: Some(p) };
        let win = |p| Score::Win { plies: Some(p) };
        let rows = |scores: &[Score]| Progress {
            best: Some(Move(0)),
            proof: true,
            root: scores.iter().enumerate().map(|(i, &s)| rm(i as u16, 0, s, false)).collect(),
            ..Default::default()
        };
        let c = candidates(&rows(&[loss(26), loss(12), loss(2)]), 3);
        assert_eq!(c.iter().map(|c| c.mv).collect::<Vec<_>>(), vec![Move(0), Move(1), Move(2)]);
        assert_eq!(c[0].strength, 1.0);
        assert!(c[1].strength < 0.8 && c[2].strength < 0.35 && c[2].strength < c[1].strength - 0.3, "{c:?}");
        // Far from the end too: resisting two plies less is not drawn as the best.
        let c = candidates(&rows(&[loss(38), loss(38), loss(36)]), 3);
        assert!(c[0].strength == 1.0 && c[1].strength == 1.0 && c[2].strength <= 0.7, "{c:?}");
        let c = candidates(&rows(&[win(3), win(25)]), 2);
        assert!(c[0].strength == 1.0 && c[1].strength < 0.75, "{c:?}");
        // Over a won position, a draw stands apart from the win and from every loss.
        let c = candidates(&rows(&[win(41), Score::Draw, loss(40), loss(2)]), 4);
        let s: Vec<f32> = c.iter().map(|c| c.strength).collect();
        assert!(s[0] == 1.0 && s[0] - s[1] > 0.15 && s[1] - s[2] > 0.2 && s[2] - s[3] > 0.15, "{s:?}");
        // Over a drawn position too: a long loss well below the draws.
        let c = candidates(&rows(&[Score::Draw, Score::Draw, loss(40)]), 3);
        assert!(c[1].strength == 1.0 && c[2].strength <= 0.45, "{c:?}");
        assert!(s[3] >= 0.15, "a proven loss never fades to a refuted move's 0.1: {s:?}");
        // A proof beside heuristic values keeps the common scale: the win first and deepest.
        let c = candidates(&rows(&[win(9), Score::Eval(1500), Score::Eval(-800)]), 3);
        assert!(c[0].strength == 1.0 && c[1].strength < 0.2 && c[2].strength < c[1].strength, "{c:?}");
    }

    /// A proven win or loss whose distance is not proved (a racing solver's sign) is shown as
    /// the least it may be: after the wins and losses with a distance, and no deeper.
    #[test]
    fn a_proof_without_its_distance_ranks_and_shades_as_the_least_it_may_be() {
        let rows = |scores: &[Score]| Progress {
            best: Some(Move(0)),
            proof: true,
            root: scores.iter().enumerate().map(|(i, &s)| rm(i as u16, 0, s, false)).collect(),
            ..Default::default()
        };
        let (loss, win) = (|p| Score::Loss { plies: p }, |p| Score::Win { plies: p });
        let c = candidates(&rows(&[loss(None), loss(Some(12)), loss(Some(10))]), 3);
        assert_eq!(c.iter().map(|c| c.mv).collect::<Vec<_>>(), vec![Move(1), Move(2), Move(0)]);
        assert!(c[0].strength == 1.0 && c[2].strength < c[1].strength, "{c:?}");
        let c = candidates(&rows(&[win(None), win(Some(25)), Score::Draw]), 3);
        assert_eq!(c.iter().map(|c| c.mv).collect::<Vec<_>>(), vec![Move(1), Move(0), Move(2)]);
        assert!(c[0].strength == 1.0 && c[1].strength < 1.0 && c[2].strength < c[1].strength, "{c:?}");
    }

    #[test]
    fn agreement_marks_the_moves_only_one_agent_likes() {
        let mk = |moves: &[u16]| -> Vec<Candidate> {
            moves
                .iter()
                .map(|&m| Candidate {
                    mv: Move(m),
                    score: Score::Unknown,
                    bound: Bound::Exact,
                    visits: 0,
                    share: None,
                    pv: vec![],
                    strength: 0.0,
                })
                .collect()
        };
        let a = agreement(&mk(&[3, 2, 4]), &mk(&[3, 4, 1]));
        assert!(a.same_best);
        assert_eq!(a.only_in_one, vec![Move(2), Move(1)]);
        assert!(!agreement(&mk(&[2]), &mk(&[3])).same_best);
    }

    #[test]
    fn an_unproved_first_row_is_no_preference() {
        let row = |m: u16, score: Score| Candidate {
            mv: Move(m),
            score,
            bound: Bound::Exact,
            visits: 0,
            share: None,
            pv: vec![Move(m)],
            strength: 0.0,
        };
        assert_eq!(preferred(&[row(0, Score::Unknown), row(3, Score::Unknown)]), None);
        assert_eq!(preferred(&[row(3, Score::Draw), row(0, Score::Unknown)]), Some(Move(3)));
        assert_eq!(preferred(&[row(2, Score::Eval(-500))]), Some(Move(2)));
        assert_eq!(preferred(&[]), None);
    }
}

/// What a candidate row means, said above the table while the pointer is on it (in three
/// lines of a half-width column): the move, its score and what a bound means, its visits,
/// whether another agent lists it, and last its whole line, the part a short column may cut
/// (the row shows its start). What a click does is the header's tooltip.
pub fn candidate_detail(c: &Candidate, mv: &str, line: &[String], alone: &[&str]) -> String {
    let mut s = format!("{mv} {}", super::full_label(c.score, c.bound));
    if let Some(meaning) = super::bound_meaning(c.score, c.bound) {
        s.push_str(&format!(": {meaning}"));
    } else if c.share.is_none() {
        match c.bound {
            Bound::Upper => s.push_str(": refuted, no better (multi-PV values the n best exactly)"),
            Bound::Lower => s.push_str(": at least this (its search stopped at a cutoff)"),
            Bound::Exact => {}
        }
    }
    if let Some(share) = c.share {
        s.push_str(&format!(", {} visits ({:.1}%)", c.visits, share * 100.0));
    }
    if !alone.is_empty() {
        s.push_str(&format!(", not agent {}'s", alone.join(", ")));
    }
    s.push_str(&format!(". Line: {}", line.join(" ")));
    s
}

/// A line of moves shortened to at most `max_chars` characters by whole moves, with "…" when
/// moves were left out: a cut never shows part of a move (`f1…` read as f1 when it was f12).
pub fn fit_line(moves: &[String], max_chars: usize) -> String {
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
        let sep = usize::from(!out.is_empty());
        let rest_after = usize::from(i + 1 < moves.len()); // room for "…"
        if out.chars().count() + sep + m.chars().count() + rest_after > max_chars {
            if out.is_empty() {
                return "…".into();
            }
            out.push('…');
            return out;
        }
        if sep == 1 {
            out.push(' ');
        }
        out.push_str(m);
    }
    out
}

#[cfg(test)]
mod fit_tests {
    use super::fit_line;

    /// Every kind of score and bound: what the row means fits before its line (three lines of
    /// a half-width column hold about 120 characters), and the line comes last, whole.
    #[test]
    fn a_rows_detail_says_its_meaning_before_its_line() {
        use super::{Bound, Candidate, Score, candidate_detail};
        let scores = [
            Score::Eval(-320),
            Score::WinRate(0.613),
            Score::Draw,
            Score::Win { plies: Some(23) },
            Score::Loss { plies: Some(22) },
            Score::Win { plies: None },
        ];
        let line: Vec<String> = "h8 h9 i8 i9 j8 j9 k8 k9 l8 l9 m8 m9".split(' ').map(String::from).collect();
        for score in scores {
            for bound in [Bound::Exact, Bound::Upper, Bound::Lower] {
                for share in [None, Some(0.123)] {
                    let c = Candidate {
                        mv: crate::game::Move(0),
                        score,
                        bound,
                        visits: 1_234_567,
                        share,
                        pv: Vec::new(),
                        strength: 1.0,
                    };
                    let text = candidate_detail(&c, "h8", &line, &["B"]);
                    let (meaning, shown) = text.split_once(". Line: ").unwrap();
                    assert!(meaning.starts_with("h8 ") && meaning.chars().count() <= 120, "{text}");
                    assert_eq!(shown, line.join(" "), "{text}");
                    let estimate = matches!(score, Score::Eval(_) | Score::WinRate(_));
                    let refuted = share.is_none() && bound == Bound::Upper && estimate;
                    assert_eq!(meaning.contains("refuted, no better"), refuted, "{text}");
                    let cut = share.is_none() && bound == Bound::Lower && estimate;
                    assert_eq!(meaning.contains("at least this"), cut, "{text}");
                }
            }
        }
    }

    #[test]
    fn lines_are_cut_between_moves() {
        let moves: Vec<String> = ["f12", "e13", "g11", "h10"].iter().map(|s| s.to_string()).collect();
        assert_eq!(fit_line(&moves, 100), "f12 e13 g11 h10");
        assert_eq!(fit_line(&moves, 15), "f12 e13 g11 h10");
        assert_eq!(fit_line(&moves, 14), "f12 e13 g11…");
        assert_eq!(fit_line(&moves, 6), "f12…");
        assert_eq!(fit_line(&moves, 4), "f12…");
        assert_eq!(fit_line(&moves, 3), "…", "never part of a move");
        assert_eq!(fit_line(&[], 4), "");
    }
}
