//! Game review against known answers: the move that loses is the top mistake, the move the
//! judge prefers is never flagged, and proven positions are named by what was thrown away.

use mnklab::agents::preset;
use mnklab::analysis::review::{ReviewSettings, Verdict, evaluation_line, review_game, review_move, worst};
use mnklab::game::{AnyPosition, ColumnStyle, Variant};
use mnklab::search::SearchControl;

fn review(variant: Variant, moves: &str, agent: &str, seconds: f64) -> Vec<mnklab::analysis::review::MoveReview> {
    let start = AnyPosition::new(variant);
    let line = AnyPosition::from_moves(variant, moves).unwrap().history().to_vec();
    let settings = ReviewSettings::new(preset(agent).unwrap(), seconds);
    let mut out = Vec::new();
    review_game(&start, &line, &settings, &SearchControl::new(), |r| {
        out.push(r);
        true
    });
    out
}

/// Connect-4 `d a d a d b d`: 6.b lets four in column d through (the solver: loss in 16
/// becomes loss in 1). It is the top mistake, and 1.d (the preferred move) is no mistake.
#[test]
fn the_move_that_allows_four_is_the_top_mistake() {
    for agent in ["strong-ab", "jeng-mcts"] {
        let moves = review(Variant::connect4(), "d a d a d b d", agent, 0.3);
        assert_eq!(moves.len(), 7);
        let top = worst(&moves, 5);
        assert!(!top.is_empty(), "{agent}: {moves:#?}");
        assert_eq!(top[0].ply, 6, "{agent}: the top mistake is 6.b: {top:#?}");
        for m in &moves {
            if m.best == Some(m.played) {
                assert_eq!(m.verdict, Verdict::Best, "{agent}: the preferred move is never flagged: {m:?}");
                assert_eq!(m.loss, 0.0);
            }
        }
        assert!(!top.iter().any(|m| m.ply == 1), "{agent}: 1.d is not a mistake");
        if std::env::var_os("SHOW").is_some() {
            for m in &moves {
                eprintln!(
                    "{agent} {} {} -> {} {:.2} {:?} by {}; first player's value after: {:?}",
                    m.ply,
                    m.best_score,
                    m.played_score,
                    m.loss,
                    m.verdict,
                    m.judged_by,
                    m.value_after()
                );
            }
        }
    }
}

/// Tic-tac-toe: after the centre, an edge reply loses (proven), a corner draws.
#[test]
fn proven_positions_say_what_was_thrown_away() {
    let start = AnyPosition::from_moves(Variant::tictactoe(), "b2").unwrap();
    let settings = ReviewSettings::new(preset("strong-ab").unwrap(), 0.2);
    let edge = start.parse_move("b1").unwrap();
    let r = review_move(&start, edge, &settings, &SearchControl::new());
    assert!(r.proven, "{r:?}");
    assert_eq!(r.verdict, Verdict::DrawThrownAway, "{r:?}");
    assert_eq!(r.best_score.to_string(), "draw");
    assert!(r.played_score.to_string().starts_with("loss in"), "{r:?}");
    let text = r.describe(&start, ColumnStyle::Notation);
    assert!(text.starts_with("2. b1 draw → loss in"), "{text}");
    let corner = start.parse_move("a1").unwrap();
    let r = review_move(&start, corner, &settings, &SearchControl::new());
    assert!(r.proven && !r.verdict.is_mistake(), "{r:?}");
}

/// In Connect-4's opening the built-in book judges at once: with 1 ms for each proof (far too
/// little to search a position of one stone) the reply 1...a to 1.d is proven, against the
/// best reply's "loss in 40" (the first player wins in 41 plies from the empty board).
#[test]
fn the_built_in_book_judges_the_connect4_opening() {
    let start = AnyPosition::from_moves(Variant::connect4(), "d").unwrap();
    let mut settings = ReviewSettings::new(preset("strong-ab").unwrap(), 0.2);
    settings.solver_seconds = 0.001;
    let a = start.parse_move("a").unwrap();
    let r = review_move(&start, a, &settings, &SearchControl::new());
    assert!(r.proven, "{r:?}");
    assert_eq!(r.best_score.to_string(), "loss in 40", "{r:?}");
    assert!(r.played_score.to_string().starts_with("loss in"), "{r:?}");
}

/// A whole game's review keeps one solver from move to move: the same proven values and
/// verdicts as reviewing each move on its own with a new solver (every proof finishing), in
/// less time (`SHOW=1 cargo test --release --test integration review::keeps_its_solver -- --nocapture` prints both).
#[test]
fn a_games_review_keeps_its_solver_and_judges_as_move_by_move() {
    // A game from Pons' middle set (its first line of 18 moves), reviewed from its ninth move.
    let data = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/connect4/Test_L2_R2")).unwrap();
    let game = data.lines().map(|l| l.split_whitespace().next().unwrap()).find(|m| m.len() == 18).unwrap();
    let start = AnyPosition::from_moves(Variant::connect4(), &game[..8]).unwrap();
    let line = AnyPosition::from_moves(Variant::connect4(), game).unwrap().history()[8..].to_vec();
    let mut settings = ReviewSettings::new(preset("strong-ab").unwrap(), 0.05);
    settings.solver_seconds = 60.0;
    let clock = std::time::Instant::now();
    let mut kept = Vec::new();
    review_game(&start, &line, &settings, &SearchControl::new(), |r| {
        kept.push(r);
        true
    });
    let kept_secs = clock.elapsed().as_secs_f64();
    let clock = std::time::Instant::now();
    let mut pos = start.clone();
    let mut alone = Vec::new();
    for &m in &line {
        alone.push(review_move(&pos, m, &settings, &SearchControl::new()));
        pos.try_play(m).unwrap();
    }
    let alone_secs = clock.elapsed().as_secs_f64();
    assert_eq!(kept.len(), line.len());
    for (k, a) in kept.iter().zip(&alone) {
        assert!(k.proven && a.proven, "every move proved: {k:?}");
        assert_eq!((k.best_score, k.played_score, k.verdict), (a.best_score, a.played_score, a.verdict), "{k:?}");
    }
    if std::env::var_os("SHOW").is_some() {
        eprintln!("{} moves: {kept_secs:.2} s with one solver kept, {alone_secs:.2} s move by move", line.len());
    }
}

/// An MCTS judge values the best move and the move played alike (each by a search of the
/// position after it). Valued by their means in the root's tree, every sensible gomoku
/// opening move read as a mistake (a move the root seldom tried keeps a low mean) and the
/// graph zig-zagged by about 0.5 a ply. A fixed iteration budget keeps the test exact.
#[test]
fn an_mcts_judge_values_the_opening_evenly() {
    let mut judge = preset("strong-mcts").unwrap();
    judge.limits.iterations = Some(6000);
    let start = AnyPosition::new(Variant::gomoku());
    let line = AnyPosition::from_moves(Variant::gomoku(), "h8 h7 i8 g9 j7 i9").unwrap().history().to_vec();
    let settings = ReviewSettings::new(judge, 60.0);
    let mut moves = Vec::new();
    review_game(&start, &line, &settings, &SearchControl::new(), |r| {
        moves.push(r);
        true
    });
    let shown: Vec<String> =
        moves.iter().map(|m| format!("{} {} → {} {:?}", m.ply, m.best_score, m.played_score, m.verdict)).collect();
    assert!(moves.iter().all(|m| m.judged()), "{shown:#?}");
    assert!(!moves[..5].iter().any(|m| m.verdict.is_mistake()), "no opening move is a mistake: {shown:#?}");
    let line = evaluation_line(&moves);
    let steps: Vec<f64> = line.windows(2).map(|w| (w[1].1 - w[0].1).abs()).collect();
    assert!(steps.iter().all(|&d| d < 0.3), "no zig-zag: {line:?} {shown:#?}");
}

/// The solver as judge judges by proofs alone: on Connect-4 (`a d a d a b a`, the shipped
/// example) every move is proven and both wins thrown away (1.a, 6.b) are mistakes, worst
/// first; on gomoku, where no proof settles the opening, every move is left unjudged, not
/// valued by a guess.
#[test]
fn the_solver_judges_by_proofs_alone() {
    let moves = review(Variant::connect4(), "a d a d a b a", "solver", 1.0);
    assert_eq!(moves.len(), 7);
    assert!(moves.iter().all(|m| m.proven && m.judged()), "{moves:#?}");
    let top = worst(&moves, 5);
    let mistakes: Vec<usize> = top.iter().filter(|m| m.verdict == Verdict::WinThrownAway).map(|m| m.ply).collect();
    assert_eq!(mistakes.len(), 2, "{top:#?}");
    assert!(mistakes.contains(&1) && mistakes.contains(&6), "{top:#?}");
    let gomoku = review("gomoku".parse().unwrap(), "h8 h7 i8 i7", "solver", 1.0);
    assert_eq!(gomoku.len(), 4);
    assert!(gomoku.iter().all(|m| !m.judged() && m.judged_by.starts_with("no proof within")), "{gomoku:#?}");
    let settings = ReviewSettings::new(preset("solver").unwrap(), 0.3);
    assert!(settings.check().is_ok());
    assert_eq!(settings.solver_seconds, 1.0, "a proof a second at least");
    assert!(settings.judge_said("solver").starts_with("proofs only"));
    assert!(ReviewSettings::new(preset("random").unwrap(), 0.3).check().is_err(), "random values nothing");
}

/// A heuristic judge's row says one number: the score shown before and after the move is the
/// one whose expected result the loss is measured in (alpha-beta's two depths averaged as
/// scores, not as expected results beside one depth's score: a row read "+0.000" and 0.482).
#[test]
fn a_rows_scores_and_expected_results_agree() {
    let moves = review(Variant::gomoku(), "h8 h7 i8 i7", "strong-ab", 0.3);
    let mut estimated = 0;
    for m in &moves {
        for (score, value) in [(m.best_score, m.best_value), (m.played_score, m.played_value)] {
            if score.is_proven() || value.is_none() {
                continue;
            }
            estimated += 1;
            let expected = score.expected().unwrap();
            assert!((expected - value.unwrap()).abs() < 1e-9, "ply {}: {score:?} is {expected}, not {value:?}", m.ply);
        }
        assert!(m.loss >= 0.0);
    }
    assert!(estimated >= 4, "{estimated} estimates in {moves:?}");
}
