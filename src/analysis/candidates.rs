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

/// The `n` best moves of a report, best first. MCTS ranks by visits (what it plays), alpha-beta
/// by value, moves with exact values before refuted ones.
pub fn candidates(p: &Progress, n: usize) -> Vec<Candidate> {
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
    if total > 0 {
        root.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(b.value.partial_cmp(&a.value).unwrap_or(std::cmp::Ordering::Equal))
        });
        let top = root.first().map_or(1, |r| r.visits.max(1));
        root.iter()
            .take(n)
            .map(|r| Candidate {
                mv: r.mv,
                score: r.score,
                bound: Bound::Exact,
                visits: r.visits,
                share: Some(r.visits as f64 / total as f64),
                pv: line(r.mv, &r.pv),
                strength: (r.visits as f64 / top as f64) as f32,
            })
            .collect()
    } else {
        // Among equal values the search's own move first, so the table's top row, the board's
        // best mark and the "best" readout name the same move.
        let not_best = |r: &crate::search::RootMove| Some(r.mv) != p.best;
        root.sort_by(|a, b| {
            (a.upper_bound, -a.score.as_f64())
                .partial_cmp(&(b.upper_bound, -b.score.as_f64()))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(not_best(a).cmp(&not_best(b)))
        });
        // The colour follows the value: the best exact move 1, others fading with their
        // distance below it (one heuristic unit, or 25 points of win probability, takes the
        // strength halfway down); proven results count as 20 to 28 units (see `effective`);
        // bounds are faint.
        let best = root.iter().find(|r| !r.upper_bound).map(|r| effective(r.score));
        root.iter()
            .take(n)
            .map(|r| {
                let strength = match best {
                    Some(b) if !r.upper_bound => 0.15 + 0.85 / (1.0 + (b - effective(r.score)).max(0.0)) as f32,
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

/// A score on one scale for the colour: heuristic units (within +-19), proven results beyond
/// them, by distance: a win from 20 + 8 (at once) down towards 20 (far off), a loss from -28
/// (at once) up towards -20, so that where every move wins or every move loses, the quick win
/// and the long resistance stand out (a win in 3 against one in 25 is 4.6 units apart, a loss
/// in 26 against one in 2 5.1); a proof without a distance (weak) at +-20.
fn effective(s: Score) -> f64 {
    let sooner = |plies: Option<u32>| plies.map_or(0.0, |p| 8.0 * (-(p as f64) / 20.0).exp());
    match s {
        Score::Eval(v) => (v as f64 / 1000.0).clamp(-19.0, 19.0),
        Score::WinRate(r) => (r - 0.5) * 4.0,
        Score::Win { plies } => 20.0 + sooner(plies),
        Score::Loss { plies } => -20.0 - sooner(plies),
        Score::Draw | Score::Unknown => 0.0,
    }
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
        assert!(c[1].strength < 0.6 && c[2].strength < 0.35 && c[2].strength < c[1].strength - 0.1, "{c:?}");
        let c = candidates(&rows(&[win(3), win(25)]), 2);
        assert!(c[0].strength == 1.0 && c[1].strength < 0.35, "{c:?}");
        assert!(effective(Score::Draw) > effective(loss(60)) && effective(loss(60)) > effective(loss(1)));
        assert!(effective(win(200)) > effective(Score::Eval(1_000_000)));
        assert!(effective(Score::Loss { plies: None }) < effective(Score::Eval(-1_000_000)));
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
