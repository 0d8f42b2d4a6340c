//! The solver against ground truth: Pons' Connect-4 benchmark sets, known m,n,k values, and
//! full alpha-beta searches on small boards.

use std::path::Path;

use mnklab::agents::{AgentConfig, build_agent};
use mnklab::game::{AnyPosition, Grid, Move, Position, Variant};
use mnklab::rng::{below, seeded};
use mnklab::search::solver::{AnySolver, GenericSolver, ProofGauge, SolveRun, SolverConfig, distance};
use mnklab::search::{
    AlphaBetaConfig, MoveOrdering, NullSink, Progress, Score, SearchControl, SearchEvent, SearchLimits, SettingError,
};
use mnklab::with_position;

fn data(name: &str) -> Vec<(String, i32)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/connect4").join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| {
            let mut it = l.split_whitespace();
            (it.next().unwrap().to_string(), it.next().unwrap().parse().unwrap())
        })
        .collect()
}

fn connect4(moves: &str) -> Grid<u64, true> {
    let mut g = Grid::<u64, true>::new(Variant::connect4().grid().unwrap());
    g.play_sequence(moves).unwrap();
    g
}

/// Every `step`-th line of a set, strong and weak, with one solver (a fresh table each time).
fn check_set(name: &str, step: usize) {
    let lines = data(name);
    let mut solver = AnySolver::new(&connect4(""), 16);
    for (moves, score) in lines.iter().step_by(step) {
        let p = connect4(moves);
        let strong = solver.run(&p, SolveRun { weak: false, best_move: false, ..SolveRun::default() });
        assert_eq!((strong.lower, strong.upper), (*score, *score), "{name}: {moves}");
        let weak = solver.run(&p, SolveRun { weak: true, best_move: false, ..SolveRun::default() });
        assert_eq!(weak.lower, score.signum(), "{name} weak: {moves}");
    }
}

#[test]
fn pons_end_game_easy_all() {
    check_set("Test_L3_R1", 1);
}

#[test]
fn pons_middle_game_easy_all() {
    check_set("Test_L2_R1", 1);
}

#[test]
fn pons_middle_game_medium_sample() {
    check_set("Test_L2_R2", 25);
}

#[test]
fn pons_beginning_easy_sample() {
    check_set("Test_L1_R1", 10);
}

/// Positions of the kind of Pons' beginning-hard set (4-13 stones, the game lasting more than
/// 28 more plies; made by `scripts/bench/begin_hard.sh 100 1`, every score the same as his
/// solver's; see tests/data/connect4/FORMAT.md): every 10th, strong and weak.
#[test]
fn beginning_hard_kind_sample() {
    check_set("L1_R3_mnklab_seed1", 10);
}

/// Two threads sharing the table (`solve --threads 2`) give Pons' scores, strong and weak,
/// on positions of 7 to 13 stones (where the threads share out moves) and of the middle game;
/// the helper thread searched a share of the nodes (a parallel solve that left it idle would
/// pass the value checks).
/// One table kept across a whole set (strong and weak solves mixed, as the agent does in the
/// workbench): every entry is a bound of its own position, so the scores stay Pons'. And a
/// game stepped through: once a position's moves are proved, the position after a move is
/// answered from the kept table in a sliver of a fresh solve's nodes.
#[test]
fn a_kept_table_gives_pons_scores_and_answers_the_next_position_at_once() {
    let mut solver = AnySolver::new(&connect4(""), 16);
    for (moves, score) in data("Test_L2_R2").iter().step_by(10) {
        let p = connect4(moves);
        let strong = solver.run(&p, SolveRun { weak: false, fresh_table: false, ..SolveRun::default() });
        assert_eq!((strong.lower, strong.upper), (*score, *score), "kept table: {moves}");
        let weak = solver.run(&p, SolveRun { weak: true, fresh_table: false, ..SolveRun::default() });
        assert_eq!(weak.lower, score.signum(), "kept table, weak: {moves}");
    }
    // Nine stones of Pons' beginning set: its moves proved, then each child from the table.
    let (mut kept_nodes, mut fresh_nodes) = (0, 0);
    for (moves, _) in data("Test_L1_R1").iter().filter(|(m, _)| m.len() == 9).take(5) {
        let p = connect4(moves);
        let mut kept = AnySolver::new(&p, 8);
        let s = kept.run(&p, SolveRun { weak: false, fresh_table: false, ..SolveRun::default() });
        let rows = kept.move_solutions(&p, Default::default(), |_, _, _| {});
        for (m, row) in rows {
            let row = row.expect("every move proved without a deadline");
            let mut child = p.clone();
            child.play(m);
            if child.is_over() {
                continue;
            }
            let fresh = AnySolver::new(&child, 8).solve(&child, false, None, None);
            let again = kept.run(&child, SolveRun { weak: false, fresh_table: false, ..SolveRun::default() });
            assert_eq!((again.lower, fresh.lower), (-row.lower, -row.lower), "{moves} then {m:?}");
            kept_nodes += again.nodes;
            fresh_nodes += fresh.nodes;
        }
        assert!(s.is_solved());
    }
    assert!(
        kept_nodes * 10 < fresh_nodes,
        "the children took {kept_nodes} nodes from the kept table, {fresh_nodes} fresh"
    );
}

#[test]
fn parallel_solves_agree_with_pons() {
    let mut solver = AnySolver::new(&connect4(""), 16).with_threads(2).unwrap();
    for (name, step) in [("Test_L1_R1", 20), ("Test_L2_R2", 50)] {
        for (moves, score) in data(name).iter().step_by(step) {
            let p = connect4(moves);
            let strong = solver.run(&p, SolveRun { weak: false, best_move: false, ..SolveRun::default() });
            assert_eq!((strong.lower, strong.upper), (*score, *score), "{name}: {moves}");
            let weak = solver.run(&p, SolveRun { weak: true, best_move: false, ..SolveRun::default() });
            assert_eq!(weak.lower, score.signum(), "{name} weak: {moves}");
        }
    }
    // The helper searched (how much depends on how the machine schedules its thread: a
    // loaded machine gave it 9,096 nodes where an idle one gives over 10,000).
    assert!(solver.helper_nodes() > 0, "the helper searched no node");
}

/// A parallel solve stopped by its time limit returns the bounds proved, on time; threads are
/// refused, with a sentence, on a board the parallel solver does not cover.
#[test]
fn a_parallel_solve_stops_on_time_and_is_refused_where_it_does_not_apply() {
    let p = connect4("");
    let mut solver = AnySolver::new(&p, 16).with_threads(2).unwrap();
    let s = solver.solve(&p, false, Some(std::time::Duration::from_millis(100)), None);
    assert!(!s.is_solved() && s.lower <= s.upper && s.elapsed < 5.0, "{s:?}");
    let pos = AnyPosition::new("mnk:4,4,3".parse().unwrap());
    let err = with_position!(&pos, p => AnySolver::new(p, 16).with_threads(2).err());
    assert_eq!(err, Some(SettingError::SolverThreads));
}

/// The generic solver (no bitboard tricks) agrees with Pons' scores on Connect-4 too.
#[test]
fn generic_solver_agrees_with_pons() {
    for (name, step) in [("Test_L3_R1", 4), ("Test_L2_R1", 8), ("Test_L1_R1", 50)] {
        for (moves, score) in data(name).iter().step_by(step) {
            let p = connect4(moves);
            let mut g = GenericSolver::new(&p, 16);
            assert_eq!(g.solve(false, None, None), (*score, *score), "{name}: {moves}");
        }
    }
}

fn solve(game: &str, moves: &str, weak: bool) -> mnklab::search::solver::Solution {
    let pos = AnyPosition::from_moves(game.parse().unwrap(), moves).unwrap();
    with_position!(&pos, p => AnySolver::new(p, 64).solve(p, weak, None, None))
}

#[test]
fn known_mnk_values() {
    for (game, value) in [("mnk:3,3,3", 0), ("mnk:4,3,3", 1), ("mnk:4,4,3", 1), ("mnk:4,4,4", 0), ("mnk:5,4,4", 0)] {
        for weak in [true, false] {
            let s = solve(game, "", weak);
            assert!(s.is_solved(), "{game}");
            assert_eq!(s.lower.signum(), value, "{game} weak {weak}");
        }
    }
    // Gravity boards of other sizes.
    assert_eq!(solve("connect:5,4,4", "", false).score(), Score::Draw);
    assert_eq!(solve("connect:4,4,3", "", true).score(), Score::Win { plies: None });
}

/// On small boards the solver's value and distance equal a full alpha-beta search's.
#[test]
fn solver_equals_full_alphabeta_on_small_boards() {
    let full = AlphaBetaConfig {
        tactics: false,
        ordering: MoveOrdering::Full,
        heuristic: mnklab::eval::HeuristicConfig::None,
        iterative_deepening: false,
        ..AlphaBetaConfig::default()
    };
    let mut rng = seeded(5);
    for game in ["mnk:3,3,3", "mnk:4,4,3", "mnk:4,3,3", "connect:4,4,3", "connect:5,4,3", "mnk:4,4,4"] {
        for _ in 0..8 {
            let mut pos = AnyPosition::new(game.parse().unwrap());
            let opening = 2 + below(&mut rng, 5);
            for _ in 0..opening {
                let ms = pos.legal_moves();
                if ms.is_empty() {
                    break;
                }
                pos.try_play(ms[below(&mut rng, ms.len())]).unwrap();
            }
            if pos.status().is_over() {
                continue;
            }
            let s = with_position!(&pos, p => AnySolver::new(p, 16).solve(p, false, None, None));
            let depth = (pos.variant().grid().unwrap().cells() - pos.ply()) as u32;
            let ab = with_position!(&pos, p => build_agent(&AgentConfig::AlphaBeta(full.clone()), 1)
                .search(p, &SearchLimits::depth(depth), &SearchControl::new(), &mut NullSink));
            assert_eq!(s.score(), ab.score, "{game} {}", pos.history_string());
        }
    }
}

#[test]
fn distances_follow_the_benchmark_convention() {
    // Test_L3_R1 lines whose winner needs 3 and 5 plies, and a loss in 4.
    assert_eq!(distance(42, 6, 29), Some(3));
    assert_eq!(distance(42, 1, 36), Some(5));
    assert_eq!(distance(42, -1, 37), Some(4));
    // A win on this move with n stones scores floor((43 - n) / 2).
    for n in 0..42 {
        assert_eq!(distance(42, (43 - n) / 2, n), Some(1), "n = {n}");
    }
    let s = solve("connect4", "67152117737262713366376314254", false);
    assert_eq!(s.describe(), "win in 3");
}

#[test]
fn best_moves_keep_the_value() {
    for (moves, score) in data("Test_L2_R1").iter().step_by(100) {
        let p = connect4(moves);
        let s = AnySolver::new(&p, 16).solve(&p, false, None, None);
        let best = s.best.unwrap();
        let mut child = p.clone();
        child.play(best);
        if child.is_over() {
            assert!(*score > 0);
            continue;
        }
        let c = AnySolver::new(&child, 16).solve(&child, false, None, None);
        assert_eq!(-c.lower, *score, "{moves}: {}", child.format_move(best));
    }
}

#[test]
fn out_of_time_reports_bounds() {
    let s = solve("mnk:5,5,4", "", false);
    assert_eq!(s.score(), Score::Draw);
    let pos = AnyPosition::new("mnk:6,6,4".parse().unwrap());
    let s = with_position!(&pos, p => AnySolver::new(p, 16).solve(p, false, Some(std::time::Duration::from_millis(50)), None));
    assert!(!s.is_solved());
    assert!(s.lower <= s.upper);
    assert!(s.elapsed < 5.0);
}

#[test]
fn the_solver_agent_plays_a_perfect_move() {
    let (moves, score) = data("Test_L3_R1")[0].clone();
    let pos = AnyPosition::from_moves(Variant::connect4(), &moves).unwrap();
    let agent = mnklab::agents::preset("solver").unwrap().agent;
    let r = with_position!(&pos, p => build_agent(&agent, 1).search(p, &SearchLimits::time(2.0), &SearchControl::new(), &mut NullSink));
    let expected = if score > 0 {
        Score::Win { plies: distance(42, score, moves.len() as i32) }
    } else if score < 0 {
        Score::Loss { plies: distance(42, score, moves.len() as i32) }
    } else {
        Score::Draw
    };
    assert_eq!(r.score, expected);
    let _: Option<Move> = r.best;
}

/// The bitboard solver's bounds from the lines still open (claimeven with paired odd columns,
/// and the opponent's claimeven line) against the generic solver, which uses none of them:
/// random positions of gravity boards of even height (where claimeven applies), of odd height
/// (where only the open-lines bound does), and under the exactly-k rule. Strong values, so a
/// bound one off would show.
#[test]
fn line_bounds_keep_the_value_on_other_boards() {
    let games = [
        "connect:4,4,3",
        "connect:5,4,3",
        "connect:5,4,4",
        "connect:6,4,4",
        "connect:4,6,3",
        "connect:5,4,3:exact",
        "connect:4,6,3:exact",
        "connect:5,5,3",
        "connect:5,3,3",
    ];
    let checked = bitboard_solver_agrees_with_generic(17, &games, 40, 2..11);
    assert!(checked > 250, "only {checked} positions");
}

/// Random positions of each game (`per_game` tries, a stone count drawn from `stones`; those
/// already over are skipped) solved strongly by the bitboard solver and by the generic one:
/// the values must be equal. Returns the positions checked.
fn bitboard_solver_agrees_with_generic(
    seed: u64,
    games: &[&str],
    per_game: usize,
    stones: std::ops::Range<usize>,
) -> usize {
    let mut rng = seeded(seed);
    let mut checked = 0;
    for game in games {
        for _ in 0..per_game {
            let mut pos = AnyPosition::new(game.parse().unwrap());
            let n = stones.start + below(&mut rng, stones.len());
            for _ in 0..n {
                let ms = pos.legal_moves();
                if ms.is_empty() || pos.status().is_over() {
                    break;
                }
                pos.try_play(ms[below(&mut rng, ms.len())]).unwrap();
            }
            if pos.status().is_over() {
                continue;
            }
            let (fast, slow) = with_position!(&pos, p => {
                let s = AnySolver::new(p, 16).solve(p, false, None, None);
                (s.lower, GenericSolver::new(p, 16).solve(false, None, None).0)
            });
            assert_eq!(fast, slow, "{game} {}", pos.history_string());
            checked += 1;
        }
    }
    checked
}

/// While the moves' proofs run after the position's value, the report keeps moving: nodes
/// and clock go on between one move's row and the next (they once stood still for the whole
/// of a long proof of one move).
#[test]
fn the_moves_proofs_report_as_they_go() {
    // The first player wins at once in column 4 (proved at once); every other move lets the
    // opponent block, and each of those is a long proof: 1.5 s in all here without the book
    // (3 s given, 1.5 for them; `mnklab solve --game connect4 --moves 424642 --every-move`),
    // reported every 250 ms. (`121212`, used before, had one long proof, 0.4 s once the
    // solver got faster: too short for two reports.)
    let pos = AnyPosition::from_moves(Variant::connect4(), "424642").unwrap();
    let config = AgentConfig::Solver(SolverConfig { builtin_book: false, ..Default::default() });
    let mut events: Vec<SearchEvent> = Vec::new();
    let result = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(3.0), &SearchControl::new(), &mut events));
    assert!(matches!(result.score, Score::Win { plies: Some(1) }), "{:?}", result.score);
    let proved = |p: &Progress| p.root.iter().filter(|r| r.score != Score::Unknown).count();
    let moving: Vec<&Progress> = events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Progress(p) if !p.root.is_empty() && !p.finished => Some(p),
            _ => None,
        })
        .collect();
    for (a, b) in moving.iter().zip(moving.iter().skip(1)) {
        assert!(b.nodes >= a.nodes && b.elapsed >= a.elapsed, "{a:?} then {b:?}");
    }
    // Reports with no new row, yet more nodes: a move's proof seen running.
    let running = moving
        .iter()
        .zip(moving.iter().skip(1))
        .filter(|(a, b)| proved(a) == proved(b) && b.nodes > a.nodes && b.elapsed > a.elapsed)
        .count();
    assert!(running >= 2, "{running} reports while a move's proof ran: {moving:?}");
    let last = events.iter().rev().find_map(|e| if let SearchEvent::Progress(p) = e { Some(p) } else { None });
    assert!(last.unwrap().finished && last.unwrap().nodes >= moving.last().unwrap().nodes);
}

/// On a game it cannot solve (connect3d) the solver agent plays alpha-beta's move and says
/// so, so its heuristic scores are not taken for proofs.
#[test]
fn the_solver_agent_says_when_a_game_is_not_solvable() {
    let pos = AnyPosition::new(Variant::Connect3d);
    let config = AgentConfig::Solver(SolverConfig::default());
    let mut events: Vec<SearchEvent> = Vec::new();
    let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(0.3), &SearchControl::new(), &mut events));
    assert!(r.best.is_some(), "it still plays");
    let said = events.iter().find_map(|e| if let SearchEvent::Notice(t) = e { Some(t.as_str()) } else { None });
    assert_eq!(
        said,
        Some(
            "solver: connect3d is not solvable here: 64 plies of up to 24 moves, scored by points; alpha-beta's move and score follow"
        )
    );
    // A book named for it (books are for Connect-X boards) is said not to be used.
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/books/connect4.book");
    let config = AgentConfig::Solver(SolverConfig { book: Some(book.into()), ..Default::default() });
    let mut events: Vec<SearchEvent> = Vec::new();
    with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(0.3), &SearchControl::new(), &mut events));
    let said = events.iter().find_map(|e| if let SearchEvent::Notice(t) = e { Some(t.as_str()) } else { None });
    assert!(
        said.is_some_and(
            |t| t.ends_with(&format!("alpha-beta's move and score follow; the book named is not used ({book})"))
        ),
        "{said:?}"
    );
}

/// On a free-placement board a long proof on one thread points at the race (`threads: 2`),
/// which proves most wins and losses there far sooner; a short one does not.
#[test]
fn a_long_one_thread_proof_on_a_free_board_points_at_the_race() {
    let hint = |moves: &str, time: f64| {
        let pos = AnyPosition::from_moves("mnk:6,6,4".parse().unwrap(), moves).unwrap();
        let config = AgentConfig::Solver(SolverConfig::default());
        let mut events: Vec<SearchEvent> = Vec::new();
        with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(time), &SearchControl::new(), &mut events));
        events
            .iter()
            .any(|e| matches!(e, SearchEvent::Info(t) if t.contains("threads 2 (Options) races proof-number search")))
    };
    // 6,6,4 after a3: over 100 s for alpha-beta alone (the race table in docs/solver.md).
    assert!(hint("a3", 5.0), "a proof of over 2 s");
    // Won at once (four in a row on the next move): no hint.
    assert!(!hint("a1 f6 b1 f5 c1 f4", 5.0), "a proof of no time");
}

/// A long proof reports as it goes: nodes, and the bounds proved so far, which always hold
/// the value; and a gauged solve leaves the solution's own bounds on its gauge.
#[test]
fn a_long_proof_reports_its_bounds_as_it_goes() {
    // Pons' `64`, a draw, without the book: a proof of many seconds; 2 s given, it has 1.
    let pos = AnyPosition::from_moves(Variant::connect4(), "64").unwrap();
    let config = AgentConfig::Solver(SolverConfig { builtin_book: false, ..Default::default() });
    let mut events: Vec<SearchEvent> = Vec::new();
    with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(2.0), &SearchControl::new(), &mut events));
    let gauged: Vec<&Progress> = events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Progress(p) if p.bounds.is_some() => Some(p),
            _ => None,
        })
        .collect();
    assert!(gauged.len() >= 2, "reports while the proof runs: {gauged:?}");
    for (a, b) in gauged.iter().zip(gauged.iter().skip(1)) {
        assert!(b.nodes >= a.nodes && b.elapsed > a.elapsed, "{a:?} then {b:?}");
    }
    for p in &gauged {
        assert!(p.proof && !p.finished && p.best.is_none() && p.score == Score::Unknown, "{p:?}");
        let (lo, hi) = p.bounds.unwrap();
        // A draw: never ruled out.
        assert!(matches!(lo, Score::Loss { plies: Some(_) } | Score::Draw), "{p:?}");
        assert!(matches!(hi, Score::Win { plies: Some(_) } | Score::Draw), "{p:?}");
    }
    assert!(gauged.last().unwrap().nodes > 0);
    // Unfinished, the proof says so, with what it established, before alpha-beta's move.
    let said = events.iter().find_map(|e| if let SearchEvent::Notice(t) = e { Some(t.as_str()) } else { None });
    let said = said.expect("a notice that the proof did not finish");
    assert!(said.contains("did not finish in half the time") && said.contains("so far: a loss in"), "{said}");

    for (moves, value) in data("Test_L3_R1").into_iter().step_by(100).take(5) {
        let g = connect4(&moves);
        let gauge = std::sync::Arc::new(ProofGauge::default());
        let s = AnySolver::new(&g, 16)
            .run(&g, SolveRun { weak: false, fresh_table: false, gauge: Some(gauge.clone()), ..SolveRun::default() });
        assert_eq!((s.lower, s.upper), (value, value), "{moves}");
        let reading = gauge.read();
        assert_eq!(reading.bounds, Some((value, value)), "{moves}");
        assert!(reading.nodes <= s.nodes, "{moves}: the gauge's nodes are those counted so far");
    }
}

/// The threat bounds (an opponent's threat with an odd number of empty cells below it, the
/// mover in zugzwang; an even threat under claimeven) against the generic solver, which has
/// no such rules, on random
/// positions of gravity boards of even height with more stones than above (where threats
/// are set up), and under the exactly-k rule, where the rule is off (by argument: a later
/// stone of the threat's owner may lengthen its line past k; these positions do not tell the
/// rule on from off there, while every loosening of the rule's cells or rows fails here or in
/// the tests above).
#[test]
fn odd_threat_bounds_keep_the_value() {
    let games = [
        "connect:4,4,3:exact",
        "connect:5,4,3:exact",
        "connect:4,6,3:exact",
        "connect:5,4,4:exact",
        "connect:5,4,4",
        "connect:6,4,4",
        "connect:4,6,3",
    ];
    let checked = bitboard_solver_agrees_with_generic(23, &games, 200, 4..14);
    assert!(checked > 900, "only {checked} positions");
}

/// Every move's proven value (the workbench's candidates, `solve --every-move`) proves moves
/// equal up to the board's symmetries once: on the empty 5x5 board 6 searches for 25 moves,
/// on Connect-X's 3 for 5; and each row is the value a fresh solve of that move's position
/// finds, weak and strong.
#[test]
fn every_moves_values_prove_symmetric_twins_once_and_match_fresh_solves() {
    for (game, moves, classes) in
        [("mnk:5,5,4", "", 6), ("mnk:4,4,3", "", 3), ("connect:5,4,4", "", 3), ("mnk:4,4,3", "b2 c3", 8)]
    {
        let pos = AnyPosition::from_moves(game.parse().unwrap(), moves).unwrap();
        for weak in [true, false] {
            with_position!(&pos, p => {
                let mut solver = AnySolver::new(p, 8);
                let how = mnklab::search::solver::MoveProofs { weak, ..Default::default() };
                let mut last = 0;
                let mut searched = 0;
                let rows = solver.move_solutions(p, how, |_, _, spent| {
                    searched += usize::from(spent > last);
                    last = spent;
                });
                assert_eq!(searched, classes, "{game} {moves:?} weak {weak}: moves searched");
                for (m, row) in rows {
                    let row = row.expect("proved without a deadline");
                    let mut child = p.clone();
                    child.play(m);
                    let fresh = AnySolver::new(&child, 8).solve(&child, weak, None, None);
                    assert_eq!((fresh.lower, fresh.upper), (-row.lower, -row.upper), "{game} {moves:?} then {m:?}, weak {weak}");
                }
            });
        }
    }
}

/// A racing solver (alpha-beta against proof-number search: the solver agent on two threads
/// on free-placement boards) gives the values a plain solve gives: the position's and every
/// move's, each exact or, where proof-number search answered first, its sign (a weak
/// solution). Without a deadline the moves' distances are all completed after their signs.
/// Which method answers depends on the clock, so either is accepted; on two of these
/// positions proof-number search answered the position's own proof in every run here (1-2 ms
/// against alpha-beta's 24 and 100 ms alone; about 12 s in all, most of it the moves'
/// distances).
#[test]
fn a_racing_solver_gives_the_plain_solvers_values_or_their_signs() {
    use mnklab::search::solver::MoveProofs;
    let mut rng = seeded(29);
    let mut positions: Vec<AnyPosition> = Vec::new();
    for (game, stones) in [("mnk:5,5,4", 2), ("mnk:5,5,4", 3), ("mnk:5,4,4", 2), ("mnk:5,4,4", 3), ("mnk:6,5,4", 4)] {
        let mut pos = AnyPosition::new(game.parse().unwrap());
        for _ in 0..stones {
            let mut moves = Vec::new();
            with_position!(&pos, p => p.legal_moves(&mut moves));
            let m = moves[below(&mut rng, moves.len())];
            with_position!(&mut pos, p => p.play(m));
        }
        positions.push(pos);
    }
    let (mut sign_only, mut completed) = (0, 0);
    for pos in &positions {
        with_position!(pos, p => {
            assert!(!p.is_over());
            let mut plain = AnySolver::new(p, 8);
            let exact = plain.solve(p, false, None, None);
            let mut racing = AnySolver::new(p, 8).racing(256);
            assert_eq!(racing.threads(), 2);
            let raced = racing.run(p, SolveRun { weak: false, fresh_table: false, ..SolveRun::default() });
            assert!(exact.is_solved() && raced.is_solved(), "{p:?}");
            if raced.weak {
                sign_only += 1;
                assert_eq!((raced.lower, raced.plies), (exact.lower.signum(), None), "{p:?}");
                assert_ne!(raced.lower, 0, "a draw's sign is its value");
            } else {
                assert_eq!((raced.lower, raced.plies), (exact.lower, exact.plies), "{p:?}");
            }
            let best = raced.best.expect("a move keeping the value");
            // A row heard first as a sign, then again with its distance: pass two at work.
            let mut heard: Vec<(Move, bool)> = Vec::new();
            let rows = racing.move_solutions(p, MoveProofs { weak: false, ..Default::default() }, |m, s, _| {
                heard.push((m, s.as_ref().is_some_and(|s| s.weak)));
            });
            completed += heard.iter().filter(|(m, weak)| !weak && heard.iter().any(|h| h == &(*m, true))).count();
            let plain_rows = plain.move_solutions(p, MoveProofs { weak: false, ..Default::default() }, |_, _, _| {});
            for ((m, row), (_, plain_row)) in rows.iter().zip(&plain_rows) {
                let (row, plain_row) = (row.as_ref().unwrap(), plain_row.as_ref().unwrap());
                assert!(!row.weak, "{p:?} then {m:?}: every distance completed");
                assert_eq!((row.lower, row.plies), (plain_row.lower, plain_row.plies), "{p:?} then {m:?}");
            }
            let best_row = rows.iter().find(|(m, _)| *m == best).unwrap().1.as_ref().unwrap();
            assert_eq!(best_row.lower.signum(), exact.lower.signum(), "{p:?}: the move keeps the sign");
        });
    }
    // Where proof-number search is far the faster: mnk:6,6,4 after b2, a loss for the side to
    // move that it proves in about 0.2 s and alpha-beta in about 46 s (docs/solver.md's race
    // table). Its sign alone, with a move (any move of a loss keeps its sign).
    let pos = AnyPosition::from_moves("mnk:6,6,4".parse().unwrap(), "b2").unwrap();
    with_position!(&pos, p => {
        let raced = AnySolver::new(p, 8).racing(256).solve(p, false, Some(std::time::Duration::from_secs(30)), None);
        assert!(raced.weak && raced.is_solved() && raced.plies.is_none(), "{raced:?}");
        assert_eq!(raced.lower, -1);
        assert_eq!(mnklab::search::solver::proof_number_value(p, 256, None, None).0, Some(-1));
        assert!(raced.best.is_some());
        sign_only += 1;
        // Its move's row is that sign at once, even when no other move's proof has time (the
        // deadline already past): `--every-move` printed "bestmove" above "not proved".
        let best = raced.best.unwrap();
        let how = MoveProofs {
            best_sign: Some((best, raced.lower)),
            deadline: Some(std::time::Instant::now()),
            ..Default::default()
        };
        let rows = AnySolver::new(p, 8).racing(256).move_solutions(p, how, |_, _, _| {});
        for (m, row) in rows {
            match row {
                Some(row) if m == best => assert!(row.weak && row.lower == -1 && row.plies.is_none(), "{row:?}"),
                None if m != best => {}
                row => panic!("{m:?}: {row:?}"),
            }
        }
    });
    // 3 positions and 39 moves here (each move's race is ms against tens of ms too): were
    // none left, the distances' pass would be untested.
    assert!(completed > 0, "no move's sign came first: {sign_only} positions' did");
}

/// The solver agent on two threads on a free-placement board races its proofs: where
/// proof-number search proves the position's sign first, the distance comes from the moves'
/// proofs (every move's strong value known, the best of them is the position's), so the
/// analysis ends with the value a plain solve gives, distance and all; the candidates are
/// those of a plain solve.
#[test]
fn the_solver_agent_on_two_threads_races_and_still_ends_with_the_distance() {
    // mnk:5,5,4 after two stones (cells 17 and 0): proof-number search proves the sign in
    // 1-2 ms, alpha-beta the value in about 24 ms (see the test above).
    let mut pos = AnyPosition::new("mnk:5,5,4".parse().unwrap());
    with_position!(&mut pos, p => { p.play(Move(17)); p.play(Move(0)); });
    let exact = with_position!(&pos, p => AnySolver::new(p, 8).solve(p, false, None, None));
    assert!(exact.is_solved() && exact.plies.is_some(), "{exact:?}");
    let config = AgentConfig::Solver(SolverConfig { threads: 2, ..Default::default() });
    let mut events: Vec<SearchEvent> = Vec::new();
    let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(20.0), &SearchControl::new(), &mut events));
    let want = if exact.lower > 0 { Score::Win { plies: exact.plies } } else { Score::Loss { plies: exact.plies } };
    assert_eq!(r.score, want);
    let last = events.iter().rev().find_map(|e| if let SearchEvent::Progress(p) = e { Some(p) } else { None }).unwrap();
    assert!(last.finished && last.threads == 2, "{last:?}");
    let rows = with_position!(&pos, p => {
        let mut plain = AnySolver::new(p, 8);
        plain.solve(p, false, None, None);
        plain.move_solutions(p, mnklab::search::solver::MoveProofs::default(), |_, _, _| {})
    });
    assert_eq!(last.root.len(), rows.len());
    for (m, s) in rows {
        let row = last.root.iter().find(|r| r.mv == m).unwrap();
        assert_eq!(row.score, s.unwrap().score(), "{m:?}");
    }
    // The move played keeps the value.
    let best = last.root.iter().find(|row| Some(row.mv) == r.best).unwrap();
    assert_eq!(best.score, want);
    // While the distances came in, the best shown was the best proved so far: once a move of
    // the position's kind had its distance, the best was such a move, the best of them.
    let with_distance = |s: Score| matches!(s, Score::Win { plies: Some(_) } | Score::Loss { plies: Some(_) });
    let mut seen = 0;
    for p in events.iter().filter_map(|e| if let SearchEvent::Progress(p) = e { Some(p) } else { None }) {
        let kind = |s: Score| std::mem::discriminant(&s) == std::mem::discriminant(&want);
        let proved: Vec<_> = p.root.iter().filter(|r| with_distance(r.score) && kind(r.score)).collect();
        let Some(top) = proved.iter().max_by(|a, b| a.value.total_cmp(&b.value)) else { continue };
        let shown = p.root.iter().find(|r| Some(r.mv) == p.best).unwrap();
        assert!(with_distance(shown.score) && shown.value == top.value, "{p:?}");
        seen += 1;
    }
    assert!(seen > 0);
}
