//! The one score convention (see the module above): turning what each search reports into
//! scores for the side to move at the root, and writing them at two lengths.

use crate::game::{AnyPosition, Player};
use crate::search::tree::{Bound, Proven, SnapNode};
use crate::search::{Progress, Score};

/// What a score counts, for its unit label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    Heuristic,
    WinProbability,
    Proven,
    Unknown,
}

impl ScoreKind {
    pub fn of(s: &Score) -> ScoreKind {
        match s {
            Score::Eval(_) => ScoreKind::Heuristic,
            Score::WinRate(_) => ScoreKind::WinProbability,
            Score::Win { .. } | Score::Loss { .. } | Score::Draw => ScoreKind::Proven,
            Score::Unknown => ScoreKind::Unknown,
        }
    }

    /// One line saying what the number means.
    pub fn help(self) -> &'static str {
        match self {
            ScoreKind::Heuristic => "heuristic value for the side to move (0 balanced, + better)",
            ScoreKind::WinProbability => "mean playout result for the side to move (a draw counts half)",
            ScoreKind::Proven => "proven by search: plies to the end, counting the last move",
            ScoreKind::Unknown => "not valued yet",
        }
    }
}

/// The same score for the other player.
pub fn flip(s: Score) -> Score {
    match s {
        Score::Unknown => Score::Unknown,
        Score::Eval(v) => Score::Eval(-v),
        Score::WinRate(r) => Score::WinRate(1.0 - r),
        Score::Win { plies } => Score::Loss { plies },
        Score::Loss { plies } => Score::Win { plies },
        Score::Draw => Score::Draw,
    }
}

fn flip_bound(b: Bound) -> Bound {
    match b {
        Bound::Exact => Bound::Exact,
        Bound::Lower => Bound::Upper,
        Bound::Upper => Bound::Lower,
    }
}

/// The score of an explorer node `plies` below the root, for the side to move at the root,
/// with its bound (exact for MCTS).
///
/// Alpha-beta stores a node's value for the side to move *at that node* (win distances
/// already counted from the root); MCTS stores the mean for the player who moved *into* the
/// node. The root's side moves at even depths and moves into nodes at odd depths.
pub fn node_score(node: &SnapNode, plies: u32) -> Option<(Score, Bound)> {
    let root_moves_here = plies.is_multiple_of(2);
    if let Some(a) = &node.alphabeta {
        let s = Score::from_value(a.value, true);
        return Some(if root_moves_here { (s, a.bound) } else { (flip(s), flip_bound(a.bound)) });
    }
    let m = node.mcts.as_ref()?;
    if m.visits == 0 && m.proven.is_none() {
        return Some((Score::Unknown, Bound::Exact));
    }
    // For the player who moved into the node.
    let mover = match m.proven {
        Some(Proven::Win) => Score::Win { plies: None },
        Some(Proven::Loss) => Score::Loss { plies: None },
        Some(Proven::Draw) => Score::Draw,
        None => Score::WinRate(m.mean),
    };
    Some((if root_moves_here { flip(mover) } else { mover }, Bound::Exact))
}

/// A bound of an unknown score says nothing (a move not yet proved, or whose proof ran out of
/// time): it is shown as `?` alone.
fn bound_prefix(s: Score, b: Bound) -> &'static str {
    match b {
        _ if s == Score::Unknown => "",
        Bound::Exact => "",
        Bound::Lower => "≥ ",
        Bound::Upper => "≤ ",
    }
}

/// The full label: `+1.400`, `62.0%`, `win in 5`, `≤ +0.250`.
pub fn full_label(s: Score, b: Bound) -> String {
    match s {
        // Never "100.0%" for a rate short of it (see `percent`).
        Score::WinRate(r) => format!("{}{}", bound_prefix(s, b), crate::search::score::percent(r, 1)),
        _ => format!("{}{s}", bound_prefix(s, b)),
    }
}

/// What a bound on a proven result means, in words: "≤ win in 3" reads easily as "a win
/// within 3 plies", the opposite of what it says (no better than a win in 3: a slower win, a
/// draw or a loss). None for exact values and for heuristic scores, whose ≤ and ≥ read plainly.
pub fn bound_meaning(s: Score, b: Bound) -> Option<String> {
    let fast = |plies: Option<u32>| {
        plies.map_or(String::new(), |p| format!(" in {p} {}", if p == 1 { "ply" } else { "plies" }))
    };
    match (s, b) {
        (Score::Win { plies }, Bound::Upper) => {
            Some(format!("no better than a win{}: a slower win, a draw or a loss", fast(plies)))
        }
        (Score::Draw, Bound::Upper) => Some("no better than a draw: a draw or a loss".into()),
        (Score::Loss { plies }, Bound::Upper) => Some(format!("a loss{} or a faster one", fast(plies))),
        (Score::Loss { plies }, Bound::Lower) => {
            Some(format!("no worse than a loss{}: a slower loss, a draw or a win", fast(plies)))
        }
        (Score::Draw, Bound::Lower) => Some("no worse than a draw: a draw or a win".into()),
        (Score::Win { plies }, Bound::Lower) => Some(format!("a win{} or a faster one", fast(plies))),
        _ => None,
    }
}

/// A label that fits a board cell (at most 5 characters or so): `+1.4`, `+12`, `62%`, `W5`,
/// `L4`, `=`, `≤+1.4`. The full label goes in the tooltip.
pub fn short_label(s: Score, b: Bound) -> String {
    let body = match s {
        Score::Unknown => "?".to_string(),
        Score::Eval(v) => {
            let x = v as f64 / 1000.0;
            if x.abs() < 9.95 {
                format!("{x:+.1}")
            } else if x.abs() < 999.5 {
                format!("{x:+.0}")
            } else if x.abs() < 999_500.0 {
                format!("{:+.0}k", x / 1000.0)
            } else {
                format!("{:+.0}M", x / 1e6)
            }
        }
        Score::WinRate(r) => crate::search::score::percent(r, 0),
        Score::Win { plies: Some(p) } => format!("W{p}"),
        Score::Win { plies: None } => "W".into(),
        Score::Loss { plies: Some(p) } => format!("L{p}"),
        Score::Loss { plies: None } => "L".into(),
        Score::Draw => "=".into(),
    };
    format!("{}{body}", bound_prefix(s, b).trim_end())
}

/// The smallest font, in points, at which a board mark's label is drawn when it holds a
/// bound sign: below it `≤-` read as one glyph ("≡3.2"), and the sign set apart, above or
/// beside the value, read as two labels or was lost.
pub const BOUND_LABEL_MIN_PT: f32 = 10.0;

/// What a candidate's mark on the board shows, its label fitting on one line at `one_line`
/// points: the label, or nothing for a bound (`≤ v`, `≥ v`) too small to read. The mark's
/// colour says "refuted" (the legend), and its tooltip gives the number.
pub fn mark_text(label: &str, one_line: f32) -> Option<&str> {
    let bound = label.starts_with(['≤', '≥']);
    (!bound || one_line >= BOUND_LABEL_MIN_PT).then_some(label)
}

/// A proof that searched nothing: a book's (or the rules') answer. It has no rate and ran on
/// no thread, and its readout says "no search".
pub fn searched_nothing(p: &Progress) -> bool {
    p.proof && p.nodes == 0
}

/// What the rate of a report counts: MCTS counts iterations, alpha-beta nodes.
pub fn rate_label(p: &Progress) -> String {
    if p.iterations > 0 {
        let rate = if p.elapsed > 0.0 { p.iterations as f64 / p.elapsed } else { 0.0 };
        format!("{rate:.0} iterations/s")
    } else {
        format!("{:.0} nodes/s", p.nodes_per_second)
    }
}

/// How far a search went, for the line under its score: the depth (alpha-beta), the
/// iterations (MCTS) or the proof (the solver, whose `depth` is the plies to the end), with
/// the nodes, and the threads when more than one (alpha-beta's and the solver's nodes are
/// then those of every thread).
pub fn search_label(p: &Progress) -> String {
    search_fields(p).join("   ")
}

/// [`search_label`]'s fields, each to be kept whole when a narrow panel wraps the line.
pub fn search_fields(p: &Progress) -> Vec<String> {
    let mut fields = if p.proof {
        // No nodes: answered by a book (or the rules), which a bare "nodes 0" did not say.
        let nodes = if searched_nothing(p) { "no search".to_string() } else { format!("nodes {}", p.nodes) };
        match p.score {
            // What it has ruled out so far is a sentence of its own: see [`proof_so_far`].
            Score::Unknown if p.bounds.is_some() => vec!["proving".to_string(), nodes],
            // A weak proof's win or loss has no distance (it read "ends in 0 plies").
            Score::Win { plies: Some(plies) } | Score::Loss { plies: Some(plies) } => {
                let plies = if plies == 1 { "1 ply".to_string() } else { format!("{plies} plies") };
                vec![format!("proof: the game ends in {plies}"), nodes]
            }
            Score::Draw => vec!["proof: a draw".to_string(), nodes],
            Score::Win { plies: None } | Score::Loss { plies: None } => {
                vec!["proof (weak: no distance)".to_string(), nodes]
            }
            _ => vec!["proof".to_string(), nodes],
        }
    } else if p.iterations > 0 {
        vec![format!("iterations {}", p.iterations), format!("tree nodes {}", p.nodes)]
    } else {
        vec![format!("depth {}", p.depth), format!("nodes {}", p.nodes)]
    };
    // Not beside "no search": a book's answer ran on no thread.
    if p.threads > 1 && !searched_nothing(p) {
        fields.push(format!("on {} threads", p.threads));
    }
    fields
}

/// What a running proof has established so far ([`bounds_label`] of its bounds), as the
/// workbench shows it below the search fields; None for anything else.
pub fn proof_so_far(p: &Progress) -> Option<String> {
    let (lo, hi) = p.bounds.as_ref().filter(|_| p.proof && !p.score.is_proven())?;
    Some(crate::search::so_far_label(lo, hi))
}

/// The speed line: the rate, the time, and how many reports came (a proof comes as one).
pub fn speed_label(p: &Progress, reports: u64) -> String {
    speed_fields(p, reports).join("   ")
}

/// [`speed_label`]'s fields, each kept whole where a narrow panel wraps them (the workbench
/// puts them on the line of [`search_fields`], which left Connect-4's seventh candidate
/// behind a scrollbar when each had its own line).
pub fn speed_fields(p: &Progress, reports: u64) -> Vec<String> {
    let time = format!("{:.2} s", p.elapsed);
    // "0 nodes/s" beside "no search" read as a stalled search.
    if searched_nothing(p) {
        return vec![time];
    }
    let mut fields = vec![rate_label(p), time];
    if !p.proof {
        fields.push(format!("{reports} {}", if reports == 1 { "report" } else { "reports" }));
    }
    fields
}

/// Whether the workbench shows a line "PV ..." for `p`: not for a proof whose line is its
/// best move alone, which the line above already names.
pub fn shows_pv(p: &Progress) -> bool {
    !(p.proof && p.pv.len() <= 1)
}

/// Whose scores these are, for the label above them: "scores for the first player (to move)".
pub fn side_label(pos: &AnyPosition) -> String {
    if pos.status().is_over() {
        return "game over: nothing to score".into();
    }
    let who = match pos.side_to_move() {
        Player::First => "first player",
        Player::Second => "second player",
    };
    format!("scores for the {who} (to move)")
}

/// The board legend for the candidates shown: the colour scale, strongest first, as
/// (strength, name) with an empty name for a step between; and for proven values (a solver's
/// or a book's) the key to the cells' labels, which the heuristic scale does not explain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Legend {
    pub scale: &'static [(f32, &'static str)],
    pub key: Option<&'static str>,
}

/// Whether a candidate's label is a proof's: a proven value, or `?` for a move a proof has
/// not reached yet (`proof`: the analysis is a solver's). The board's legend then explains
/// proofs' labels, even while every move is still `?`.
pub fn is_proof_label(proof: bool, score: Score) -> bool {
    score.is_proven() || (proof && score == Score::Unknown)
}

/// The legend for candidates that are proven values (`proofs`) or scores; `bounds`: some
/// candidate is a bound (alpha-beta's refuted moves), which only then the legend names (MCTS
/// has none).
pub fn legend(proofs: bool, bounds: bool) -> Legend {
    if proofs {
        // No "refuted": a move not yet proved reads `?` in the lowest colour. Two steps: the
        // cells' labels say the rest, and the key needs the row's room.
        Legend {
            scale: &[(1.0, "best"), (0.25, "worse")],
            key: Some("W/L (n): win/loss (in n plies), = draw, ? unproved"),
        }
    } else if bounds {
        Legend { scale: &[(1.0, "best"), (0.55, ""), (0.25, "weaker"), (0.1, "refuted (≤ bound)")], key: None }
    } else {
        Legend { scale: &[(1.0, "best"), (0.55, ""), (0.25, "weaker")], key: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bounds_label;

    /// The proof legend's key names every label a proven value or an unproved move takes on
    /// the board; the heuristic one has no key and names bounds.
    #[test]
    fn the_legend_explains_the_labels_it_is_shown_with() {
        let key = legend(true, false).key.expect("a key for proofs");
        for s in [Score::Win { plies: Some(31) }, Score::Loss { plies: Some(28) }, Score::Draw, Score::Unknown] {
            let label = short_label(s, Bound::Exact);
            let head: String = label.chars().take_while(|c| !c.is_ascii_digit()).collect();
            assert!(key.contains(&head), "{label} ({head}) not in {key}");
        }
        assert!(key.contains("win/loss (in n plies)"), "{key}");
        // A proof without its distance (a racing solver's sign): "W" alone, explained too.
        for s in [Score::Win { plies: None }, Score::Loss { plies: None }] {
            assert!(key.starts_with("W/L (n)") && ["W", "L"].contains(&short_label(s, Bound::Exact).as_str()), "{s:?}");
        }
        let heuristic = legend(false, true);
        assert!(!legend(false, false).scale.iter().any(|(_, n)| n.contains("bound")), "MCTS: no bounds");
        assert_eq!(heuristic.key, None);
        assert!(heuristic.scale.iter().any(|(_, n)| n.contains("bound")));
        assert!(!legend(true, false).scale.iter().any(|(_, n)| n.contains("bound")));
    }

    /// A solver's table of `?` rows (a move still being proved) takes the proof legend, which
    /// explains `?`; a heuristic score never does, and a proven one always does.
    #[test]
    fn unproved_rows_of_a_proof_are_proof_labels() {
        assert!(is_proof_label(true, Score::Unknown));
        assert!(!is_proof_label(false, Score::Unknown));
        assert!(!is_proof_label(true, Score::Eval(120)));
        assert!(is_proof_label(false, Score::Draw));
        assert!(is_proof_label(false, Score::Loss { plies: Some(8) }));
    }
    use crate::search::tree::{AlphaBetaStats, MctsStats};

    #[test]
    fn a_running_proofs_bounds_read_as_outcomes() {
        let win = |p| Score::Win { plies: Some(p) };
        let loss = |p| Score::Loss { plies: Some(p) };
        // The lowest value is the slowest win and the quickest loss.
        assert_eq!(bounds_label(&win(15), &win(9)), "a win in 9 to 15 plies");
        assert_eq!(bounds_label(&loss(4), &loss(12)), "a loss in 4 to 12 plies");
        assert_eq!(bounds_label(&Score::Draw, &win(7)), "a draw, or a win in 7 plies or more");
        assert_eq!(bounds_label(&loss(4), &Score::Draw), "a loss in 4 plies or more, or a draw");
        // The quickest loss (2 plies) and win (1 ply) rule nothing out: said without a distance.
        assert_eq!(bounds_label(&loss(2), &Score::Draw), "a loss, or a draw");
        assert_eq!(bounds_label(&loss(2), &win(1)), "nothing ruled out yet: a loss, a draw, or a win");
        assert_eq!(bounds_label(&loss(22), &win(1)), "a loss in 22 plies or more, a draw, or a win");
        assert_eq!(bounds_label(&loss(2), &win(9)), "a loss, a draw, or a win in 9 plies or more");
        assert_eq!(bounds_label(&loss(2), &loss(12)), "a loss in 2 to 12 plies");
        assert_eq!(bounds_label(&Score::Win { plies: None }, &Score::Win { plies: None }), "a win");
        let weak = bounds_label(&Score::Loss { plies: None }, &Score::Win { plies: None });
        assert_eq!(weak, "nothing ruled out yet: a loss, a draw, or a win");
        let p = Progress { proof: true, nodes: 7, bounds: Some((Score::Draw, win(3))), ..Default::default() };
        assert_eq!(search_fields(&p), ["proving", "nodes 7"]);
        assert_eq!(proof_so_far(&p).as_deref(), Some("so far: a draw, or a win in 3 plies or more"));
        let nothing = Progress { bounds: Some((loss(2), win(1))), ..p.clone() };
        assert_eq!(proof_so_far(&nothing).as_deref(), Some("nothing ruled out yet: a loss, a draw, or a win"));
        let done = Progress { score: Score::Draw, ..p };
        assert_eq!(proof_so_far(&done), None);
    }

    #[test]
    fn the_side_label_names_the_side_to_move_or_the_end() {
        let v = crate::game::Variant::connect4();
        assert_eq!(side_label(&AnyPosition::new(v)), "scores for the first player (to move)");
        assert_eq!(side_label(&AnyPosition::from_moves(v, "d").unwrap()), "scores for the second player (to move)");
        let won = AnyPosition::from_moves(v, "d a d a d a d").unwrap();
        assert_eq!(side_label(&won), "game over: nothing to score");
    }

    fn ab(value: i32, bound: Bound) -> SnapNode {
        SnapNode {
            mv: None,
            order: 0,
            children: vec![],
            mcts: None,
            alphabeta: Some(AlphaBetaStats {
                value,
                bound,
                alpha: 0,
                beta: 0,
                depth: 1,
                cutoff: false,
                tt_hit: false,
                cutoff_move: None,
            }),
            hidden_children: 0,
        }
    }

    fn mc(mean: f64, visits: u64, proven: Option<Proven>) -> SnapNode {
        SnapNode {
            mv: None,
            order: 0,
            children: vec![],
            mcts: Some(MctsStats { visits, mean, exploration: 0.0, proven, rave_visits: 0, rave_mean: 0.0, prior: 0 }),
            alphabeta: None,
            hidden_children: 0,
        }
    }

    #[test]
    fn alphabeta_nodes_read_from_the_roots_side() {
        // A child of the root valued -1400 for its side to move is +1.400 for the root's side.
        assert_eq!(node_score(&ab(-1400, Bound::Exact), 1), Some((Score::Eval(1400), Bound::Exact)));
        assert_eq!(node_score(&ab(-1400, Bound::Exact), 2), Some((Score::Eval(-1400), Bound::Exact)));
        // A fail-high at a child (at least v for the child's mover) is at most -v for the root.
        assert_eq!(node_score(&ab(300, Bound::Lower), 1), Some((Score::Eval(-300), Bound::Upper)));
        let win = crate::search::score::WIN - 5;
        assert_eq!(node_score(&ab(-win, Bound::Exact), 1), Some((Score::Win { plies: Some(5) }, Bound::Exact)));
    }

    #[test]
    fn mcts_nodes_read_from_the_roots_side() {
        // The root's children hold the mean of the root's side (it moved into them).
        assert_eq!(node_score(&mc(0.7, 10, None), 1), Some((Score::WinRate(0.7), Bound::Exact)));
        // Grandchildren hold the opponent's mean; the root itself the opponent's too.
        let Some((Score::WinRate(r), _)) = node_score(&mc(0.7, 10, None), 2) else { panic!() };
        assert!((r - 0.3).abs() < 1e-12);
        let Some((Score::WinRate(r), _)) = node_score(&mc(0.25, 10, None), 0) else { panic!() };
        assert!((r - 0.75).abs() < 1e-12);
        assert_eq!(node_score(&mc(0.0, 3, Some(Proven::Win)), 2), Some((Score::Loss { plies: None }, Bound::Exact)));
        assert_eq!(node_score(&mc(0.0, 0, None), 1), Some((Score::Unknown, Bound::Exact)));
    }

    #[test]
    fn labels_fit_a_cell_and_say_the_bound() {
        assert_eq!(short_label(Score::Eval(1400), Bound::Exact), "+1.4");
        assert_eq!(short_label(Score::Eval(-10_089_250), Bound::Upper), "≤-10k");
        assert_eq!(short_label(Score::Eval(10_089), Bound::Exact), "+10");
        assert_eq!(short_label(Score::WinRate(0.848), Bound::Exact), "85%");
        // A rate short of certain never reads as certain (99.8% read "100%"); the data
        // files' form stays a number.
        assert_eq!(short_label(Score::WinRate(0.998), Bound::Exact), "99.8%");
        assert_eq!(full_label(Score::WinRate(0.9996), Bound::Exact), ">99.9%");
        assert_eq!(Score::WinRate(0.9996).to_string(), "100.0%");
        assert_eq!(short_label(Score::Win { plies: Some(7) }, Bound::Exact), "W7");
        assert_eq!(short_label(Score::Draw, Bound::Exact), "=");
    }

    /// A bound's label shows only where it is legible on one line; an exact value shows at
    /// any size the cell gives it.
    #[test]
    fn a_bound_shows_only_where_it_can_be_read() {
        for (s, b, bound) in [
            (Score::Eval(-500), Bound::Upper, true),
            (Score::Eval(1400), Bound::Lower, true),
            (Score::WinRate(0.62), Bound::Lower, true),
            (Score::Eval(1400), Bound::Exact, false),
            (Score::Win { plies: Some(7) }, Bound::Exact, false),
            (Score::Unknown, Bound::Upper, false),
        ] {
            let label = short_label(s, b);
            assert_eq!(mark_text(&label, 12.0), Some(label.as_str()), "{label}");
            assert_eq!(mark_text(&label, 7.0).is_none(), bound, "{label} at 7 pt");
            assert_eq!(mark_text(&label, BOUND_LABEL_MIN_PT), Some(label.as_str()));
        }
        for s in [Score::Eval(-999_999_000), Score::Eval(123_456), Score::Loss { plies: Some(41) }] {
            assert!(short_label(s, Bound::Upper).chars().count() <= 6, "{}", short_label(s, Bound::Upper));
        }
        assert_eq!(full_label(Score::Eval(250), Bound::Upper), "≤ +0.250");
        assert_eq!(full_label(Score::Unknown, Bound::Upper), "?");
        assert_eq!(short_label(Score::Unknown, Bound::Upper), "?");
        assert_eq!(full_label(Score::WinRate(0.62), Bound::Exact), "62.0%");
    }

    /// A bound on a win or a loss is said in words, the way round it means.
    #[test]
    fn bounds_on_proven_results_say_which_way_they_go() {
        let win3 = Score::Win { plies: Some(3) };
        assert_eq!(
            bound_meaning(win3, Bound::Upper).unwrap(),
            "no better than a win in 3 plies: a slower win, a draw or a loss"
        );
        assert_eq!(
            bound_meaning(Score::Win { plies: Some(1) }, Bound::Lower).unwrap(),
            "a win in 1 ply or a faster one"
        );
        assert_eq!(
            bound_meaning(Score::Loss { plies: None }, Bound::Lower).unwrap(),
            "no worse than a loss: a slower loss, a draw or a win"
        );
        assert_eq!(bound_meaning(win3, Bound::Exact), None);
        assert_eq!(bound_meaning(Score::Eval(250), Bound::Upper), None);
    }

    #[test]
    fn the_search_line_says_what_was_searched_and_on_how_many_threads() {
        let ab = Progress { depth: 9, nodes: 1200, threads: 1, ..Default::default() };
        assert_eq!(search_label(&ab), "depth 9   nodes 1200");
        assert_eq!(speed_label(&ab, 1), "0 nodes/s   0.00 s   1 report");
        let lazy = Progress { threads: 2, ..ab.clone() };
        assert_eq!(search_label(&lazy), "depth 9   nodes 1200   on 2 threads");
        assert_eq!(search_fields(&lazy), ["depth 9", "nodes 1200", "on 2 threads"]);
        let mcts = Progress { iterations: 500, nodes: 480, depth: 7, ..Default::default() };
        assert_eq!(search_label(&mcts), "iterations 500   tree nodes 480");
        // A proof: its depth is the distance to the end, and a draw has none.
        let win = Progress {
            proof: true,
            depth: 13,
            nodes: 5000,
            score: Score::Win { plies: Some(13) },
            threads: 2,
            ..Default::default()
        };
        assert_eq!(search_label(&win), "proof: the game ends in 13 plies   nodes 5000   on 2 threads");
        let mate = Progress { score: Score::Win { plies: Some(1) }, ..win.clone() };
        assert_eq!(search_fields(&mate)[0], "proof: the game ends in 1 ply", "one ply, not '1 plies'");
        let weak = Progress { proof: true, nodes: 9, score: Score::Loss { plies: None }, ..Default::default() };
        assert_eq!(search_label(&weak), "proof (weak: no distance)   nodes 9");
        let draw = Progress { proof: true, nodes: 70, score: Score::Draw, ..Default::default() };
        assert_eq!(search_label(&draw), "proof: a draw   nodes 70");
        let book = Progress { nodes: 0, elapsed: 0.004, ..win.clone() };
        assert_eq!(search_fields(&book), ["proof: the game ends in 13 plies", "no search"], "no threads either");
        assert_eq!(speed_label(&book, 1), "0.00 s", "and no rate");
        assert_eq!(speed_label(&draw, 1), "0 nodes/s   0.00 s");
        assert_eq!(speed_fields(&ab, 2), ["0 nodes/s", "0.00 s", "2 reports"]);
        // A proof's line of one move is its best move, named above: no "PV" line for it.
        let mv = crate::game::Move(3);
        assert!(!shows_pv(&Progress { pv: vec![mv], ..draw.clone() }));
        assert!(shows_pv(&Progress { pv: vec![mv, mv], ..draw.clone() }));
        assert!(shows_pv(&Progress { pv: vec![mv], ..ab.clone() }), "alpha-beta's line always shown");
    }

    #[test]
    fn mcts_rates_count_iterations() {
        let p = Progress {
            iterations: 5000,
            nodes: 90_000,
            nodes_per_second: 90_000.0,
            elapsed: 0.5,
            ..Default::default()
        };
        assert_eq!(rate_label(&p), "10000 iterations/s");
        let p = Progress { nodes: 90_000, nodes_per_second: 180_000.0, elapsed: 0.5, ..Default::default() };
        assert_eq!(rate_label(&p), "180000 nodes/s");
    }
}
