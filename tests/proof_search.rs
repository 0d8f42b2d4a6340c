//! The proof-number search and the Erdős–Selfridge bounds against ground truth (the known
//! values of ../shared/rules, copied into the table below) and against a solver that does not
//! use those bounds, on random positions of every board that one can finish.

use crate::positions::{random_position, random_positions};

use mnklab::eval::EvalBoard;
use mnklab::game::{AnyPosition, Player, Position};
use mnklab::rng::{below, seeded};
use mnklab::search::solver::{GenericSolver, Leaves, proof_number_move, proof_number_value, proof_number_value_with};
use mnklab::with_position;

fn pns(pos: &AnyPosition) -> i32 {
    let (value, runs) = with_position!(pos, p => proof_number_value(p, 512, None, None));
    value.unwrap_or_else(|| panic!("{}: unsolved {runs:?}", pos.history_string()))
}

/// The weak value by the alpha-beta solver, with or without the breaker bounds.
fn alphabeta(pos: &AnyPosition, bounds: bool) -> i32 {
    with_position!(pos, p => {
        let g = GenericSolver::new(p, 64);
        let mut g = if bounds { g } else { g.without_breaker_bounds() };
        let (lo, hi) = g.solve(true, None, None);
        assert_eq!(lo, hi, "{}", pos.history_string());
        lo
    })
}

#[test]
fn proof_number_search_finds_the_known_values() {
    // ../shared/rules/mnk-and-connect.md: "Known game-theoretic values".
    for (game, value) in [
        ("mnk:3,3,3", 0),
        ("mnk:4,3,3", 1),
        ("mnk:4,4,3", 1),
        ("mnk:4,4,4", 0),
        ("mnk:5,4,4", 0),
        ("mnk:5,5,4", 0),
        ("mnk:6,5,4", 1),
        ("mnk:5,5,5", 0),
        ("mnk:6,6,6", 0),
    ] {
        let pos = AnyPosition::new(game.parse().unwrap());
        assert_eq!(pns(&pos), value, "{game}");
    }
}

#[test]
fn six_six_five_is_a_draw_by_both_searches() {
    // Known from the literature (a draw); not provable here before the breaker bounds.
    let pos = AnyPosition::new("mnk:6,6,5".parse().unwrap());
    assert_eq!(pns(&pos), 0);
    assert_eq!(alphabeta(&pos, true), 0);
    let (_, runs) = with_position!(&pos, p => proof_number_value(p, 512, None, None));
    assert_eq!(runs.len(), 1, "the second question is settled by strategy stealing");
    // A real tree (13 nodes since moves equal up to symmetry are searched once; 591 before).
    assert!(runs[0].proof_size > 5 && runs[0].proof_size < runs[0].nodes, "{runs:?}");
}

/// Known from the literature (a draw, Hsu et al. 2020). Proof-number search proves it with
/// pairings at its leaves; without them it filled 2 GiB in 29 s and gave up.
#[test]
fn seven_seven_five_is_a_draw_by_proof_number_search() {
    let pos = AnyPosition::new("mnk:7,7,5".parse().unwrap());
    let (value, runs) = with_position!(&pos, p => proof_number_value(p, 512, None, None));
    assert_eq!(value, Some(0), "{runs:?}");
    assert_eq!(runs.len(), 1, "the second question is settled by strategy stealing");
    assert!(runs[0].proof_size > 1000 && runs[0].proof_size < runs[0].nodes, "{runs:?}");
}

/// Three searches, two of them free of the new knowledge's shared code paths where it
/// matters: the proof-number search, the solver with the breaker bounds, and without them.
#[test]
fn the_three_searches_agree_on_random_positions() {
    let mut rng = seeded(17);
    let mut compared = [0usize; 3];
    let boards = [
        ("mnk:4,4,4", 2..7),
        ("mnk:5,4,4", 2..8),
        ("mnk:5,5,4", 4..10),
        ("mnk:5,5,4:exact", 4..10),
        ("mnk:6,6,5", 10..16),
        ("connect:5,4,4", 3..9),
        ("connect:5,5,4", 6..12),
    ];
    for (game, pos) in random_positions(&mut rng, &boards, 12) {
        let reference = alphabeta(&pos, false);
        assert_eq!(alphabeta(&pos, true), reference, "{game} {}", pos.history_string());
        assert_eq!(pns(&pos), reference, "{game} {}", pos.history_string());
        let (unpaired, _) = with_position!(&pos, p => proof_number_value_with(p, 512, None, None, Leaves { pairings: false, threats: false }));
        assert_eq!(unpaired, Some(reference), "{game} {}: without pairings", pos.history_string());
        compared[(reference + 1) as usize] += 1;
    }
    // The sample holds wins, draws and losses for the side to move.
    assert!(compared.iter().all(|&c| c >= 3), "losses, draws, wins compared: {compared:?}");
}

/// The move `solve --method pns` prints keeps the value it proved, by the alpha-beta solver
/// (the child's value for its side to move is minus the position's); a win or a draw settled
/// by a tree names one, a loss none.
#[test]
fn the_proof_number_searchs_move_keeps_its_value() {
    let mut rng = seeded(23);
    let boards = [("mnk:4,4,4", 2..7), ("mnk:5,5,4", 4..10), ("connect:5,4,4", 3..9), ("connect:5,5,4", 6..12)];
    let mut named = [0usize; 3];
    for (game, pos) in random_positions(&mut rng, &boards, 12) {
        let (value, runs) = with_position!(&pos, p => proof_number_value(p, 512, None, None));
        let value = value.unwrap_or_else(|| panic!("{game} {}: unsolved", pos.history_string()));
        let Some(m) = proof_number_move(Some(value), &runs) else {
            // Only where no tree settled it: a loss, or the root's own checks.
            let rooted = runs.last().is_some_and(|r| r.proof_size == 1);
            assert!(value == -1 || rooted, "{game} {}: value {value} without a move", pos.history_string());
            continue;
        };
        let mut child = pos.clone();
        child.try_play(m).unwrap();
        let kept = if child.status().is_over() { value } else { -alphabeta(&child, true) };
        assert_eq!(kept, value, "{game} {} then {}", pos.history_string(), pos.format_move(m));
        named[(value + 1) as usize] += 1;
    }
    assert!(named[0] == 0 && named[1] >= 3 && named[2] >= 3, "moves named for losses, draws, wins: {named:?}");
}

/// The potential kept move by move (plays and undos) equals the one counted from scratch, and
/// a player whose lines it calls breakable never wins by the reference solver.
#[test]
fn the_breaker_potential_is_kept_exactly_and_is_sound() {
    let mut rng = seeded(3);
    let mut breakable_seen = 0;
    for game in ["mnk:4,4,4", "mnk:5,4,4", "mnk:5,5,4", "mnk:7,7,5"] {
        for _ in 0..30 {
            let start = AnyPosition::new(game.parse().unwrap());
            let n = 1 + below(&mut rng, 12);
            with_position!(&start, p => {
                let mut pos = p.clone();
                let mut board = EvalBoard::new(&pos, |_, _, _| 0).with_potential();
                for step in 0..n {
                    if pos.is_over() {
                        break;
                    }
                    if step % 4 == 3 {
                        let m = *pos.history().last().unwrap();
                        pos.undo();
                        let cell = pos.move_cell(m);
                        board.undo(cell, pos.side_to_move());
                    }
                    let mut ms = Vec::new();
                    pos.legal_moves(&mut ms);
                    let m = ms[below(&mut rng, ms.len())];
                    board.play(pos.move_cell(m), pos.side_to_move());
                    pos.play(m);
                    let fresh = EvalBoard::new(&pos, |_, _, _| 0).with_potential();
                    for who in [Player::First, Player::Second] {
                        assert_eq!(board.potential(who), fresh.potential(who), "{game} {}", pos.history_string());
                    }
                }
                let me = pos.side_to_move();
                if !pos.is_over() && game != "mnk:7,7,5" && board.lines_breakable(me, true) {
                    breakable_seen += 1;
                    let any = AnyPosition::from_moves(game.parse().unwrap(), &pos.history_string()).unwrap();
                    assert!(alphabeta(&any, false) <= 0, "{game} {}: breakable, yet a win", pos.history_string());
                }
            });
        }
    }
    assert!(breakable_seen >= 5, "breakable positions checked: {breakable_seen}");
}

/// The generic solver's value (weak or strong) with pairings (the default), without them,
/// or without any breaker knowledge.
fn generic(pos: &AnyPosition, weak: bool, knowledge: Knowledge) -> i32 {
    with_position!(pos, p => {
        let g = GenericSolver::new(p, 16);
        let mut g = match knowledge {
            Knowledge::Pairings => g,
            Knowledge::PotentialOnly => g.without_pairings(),
            Knowledge::None => g.without_breaker_bounds(),
        };
        let (lo, hi) = g.solve(weak, None, None);
        assert_eq!(lo, hi, "{}", pos.history_string());
        lo
    })
}

#[derive(Clone, Copy)]
enum Knowledge {
    Pairings,
    PotentialOnly,
    None,
}

#[test]
fn the_known_values_hold_with_pairings_and_seven_seven_five_is_a_draw() {
    // ../shared/rules/mnk-and-connect.md's known values; 6,6,5 and 7,7,5 draws from the
    // literature (7,7,5: Hsu et al., Theoretical Computer Science 815, 2020).
    for (game, value) in [
        ("mnk:4,4,4", 0),
        ("mnk:5,4,4", 0),
        ("mnk:5,5,4", 0),
        ("mnk:6,5,4", 1),
        ("mnk:6,6,4", 1),
        ("mnk:6,6,5", 0),
        ("mnk:7,7,5", 0),
    ] {
        let pos = AnyPosition::new(game.parse().unwrap());
        assert_eq!(generic(&pos, true, Knowledge::Pairings).signum(), value, "{game}");
    }
    // Strong values (with the distance) against the solver without pairings.
    for game in ["mnk:4,4,4", "mnk:5,4,4", "mnk:5,5,4", "mnk:6,5,4", "mnk:6,6,4"] {
        let pos = AnyPosition::new(game.parse().unwrap());
        assert_eq!(
            generic(&pos, false, Knowledge::Pairings),
            generic(&pos, false, Knowledge::PotentialOnly),
            "{game} strong"
        );
    }
}

/// Pairings and the moves they let the solver skip (relevance zones) change no value, weak or
/// strong, against the solver without them and (on boards it finishes) without any breaker
/// knowledge, on random positions of every board the solver without pairings can finish.
#[test]
fn pairings_and_their_zones_change_no_value_on_random_positions() {
    let mut rng = seeded(29);
    let mut compared = [0usize; 3];
    for (game, stones, bare) in [
        ("mnk:4,4,4", 1..7, true),
        ("mnk:5,4,4", 2..8, true),
        ("mnk:5,5,4", 3..10, true),
        ("mnk:5,5,4:exact", 4..10, true),
        ("mnk:6,5,4", 4..12, false),
        ("mnk:6,6,4", 5..14, false),
        ("mnk:6,6,5", 6..16, false),
        ("mnk:7,7,5", 16..24, false),
    ] {
        for _ in 0..10 {
            let n = stones.start + below(&mut rng, stones.end - stones.start);
            let Some(pos) = random_position(game, &mut rng, n) else { continue };
            for weak in [true, false] {
                let reference = generic(&pos, weak, Knowledge::PotentialOnly);
                let at = format!("{game} {} weak {weak}", pos.history_string());
                assert_eq!(generic(&pos, weak, Knowledge::Pairings), reference, "{at}");
                if bare {
                    assert_eq!(generic(&pos, weak, Knowledge::None), reference, "{at} (no breaker bounds)");
                }
                if weak {
                    compared[(reference.signum() + 1) as usize] += 1;
                }
            }
        }
    }
    assert!(compared.iter().all(|&c| c >= 3), "losses, draws, wins compared: {compared:?}");
}

/// A pairing found is a pairing (checked cell by cell), and the side it holds never wins by
/// the solver without breaker knowledge.
#[test]
fn a_pairing_found_holds_and_its_maker_never_wins() {
    use mnklab::search::solver::{PairingOutcome, PairingSearch, pairing_holds};
    let mut rng = seeded(41);
    let mut found = 0;
    for game in ["mnk:4,4,4", "mnk:5,4,4", "mnk:5,5,4", "mnk:6,6,5"] {
        for _ in 0..60 {
            let n = 2 + below(&mut rng, 10);
            let Some(pos) = random_position(game, &mut rng, n) else { continue };
            let maker = pos.side_to_move();
            let paired = with_position!(&pos, p => {
                let mut search = PairingSearch::new(100_000);
                let out = search.run_on(p, maker);
                if out == PairingOutcome::Found {
                    assert!(pairing_holds(p, maker, search.pairs()), "{game} {}", pos.history_string());
                }
                out == PairingOutcome::Found
            });
            if paired {
                found += 1;
                // The bare solver (no breaker knowledge at all) where it finishes; on 6,6,5
                // the solver with the Erdős–Selfridge bounds only, itself checked against the
                // bare one on the smaller boards above.
                let reference = if game == "mnk:6,6,5" { Knowledge::PotentialOnly } else { Knowledge::None };
                let v = generic(&pos, true, reference);
                assert!(v <= 0, "{game} {}: paired, yet the side to move wins", pos.history_string());
            }
        }
    }
    assert!(found >= 20, "paired positions checked: {found}");
}

/// The explicit proof: it holds for the known draws (7,7,5 included) and is refused where the
/// maker wins; on random positions it is made exactly when the solver says the side cannot win.
#[test]
fn explicit_proofs_hold_for_draws_and_fail_for_wins() {
    use mnklab::search::solver::{DrawProofError, prove_no_line};
    for game in ["mnk:4,4,4", "mnk:5,4,4", "mnk:6,6,5", "mnk:7,7,5"] {
        let pos = AnyPosition::new(game.parse().unwrap());
        for maker in [Player::First, Player::Second] {
            let proof = with_position!(&pos, p => prove_no_line(p, maker, None));
            let proof = proof.unwrap_or_else(|e| panic!("{game} {maker}: {e}"));
            assert!(proof.size() > 0, "{game}: {proof:?}");
            // 7,7,5 is beyond the Erdős–Selfridge potential until late: it needs pairings.
            if game == "mnk:7,7,5" {
                assert!(proof.pairing_leaves > 0 && proof.maker_nodes > 0, "{game}: {proof:?}");
            }
        }
    }
    for game in ["mnk:4,4,3", "mnk:6,5,4"] {
        let pos = AnyPosition::new(game.parse().unwrap());
        // Refuting takes every reply: a deadline ends it (a stop is an error, never a proof).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        let refused = with_position!(&pos, p => prove_no_line(p, Player::First, Some(deadline)));
        match refused {
            Err(DrawProofError::Stopped(_)) => assert_eq!(game, "mnk:6,5,4", "4,4,3 is refuted in full"),
            Err(_) => {}
            Ok(proof) => panic!("{game} is a win, yet a proof: {proof:?}"),
        }
    }
    let mut rng = seeded(43);
    let mut seen = [0usize; 2];
    for _ in 0..40 {
        let n = 6 + below(&mut rng, 8);
        let Some(pos) = random_position("mnk:5,5,4", &mut rng, n) else { continue };
        let cannot_win = generic(&pos, true, Knowledge::None) <= 0;
        // Where the maker wins, the prover would have to try every reply before giving up:
        // a deadline ends that (a stop is an error, never a proof).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
        let proved = with_position!(&pos, p => prove_no_line(p, p.side_to_move(), Some(deadline))).is_ok();
        assert_eq!(proved, cannot_win, "5,5,4 {}", pos.history_string());
        seen[cannot_win as usize] += 1;
    }
    assert!(seen.iter().all(|&c| c >= 5), "wins, non-wins: {seen:?}");
}

/// `solve --method race`: the value of whichever method proves it first is the value the
/// solver without the breaker bounds finds, on random positions of free-placement and gravity
/// boards (which method wins each race varies with the machine's load; the value must not).
#[test]
fn a_race_of_the_two_methods_gives_the_reference_value() {
    use mnklab::search::solver::race_weak_value;
    let mut rng = seeded(29);
    let boards = [("mnk:4,4,4", 2..7), ("mnk:5,5,4", 3..10), ("mnk:6,5,4", 8..14), ("connect:5,4,4", 3..9)];
    let mut compared = [0usize; 3];
    for (game, pos) in random_positions(&mut rng, &boards, 8) {
        let r = with_position!(&pos, p => race_weak_value(p, 16, 256, Leaves::default(), None, None));
        let reference = alphabeta(&pos, false);
        assert!(!r.conflict, "{game} {}", pos.history_string());
        assert_eq!(r.value, Some(reference), "{game} {}: {:?}", pos.history_string(), r.winner);
        assert!(r.winner.is_some());
        compared[(reference + 1) as usize] += 1;
    }
    assert!(compared.iter().all(|&c| c >= 2), "losses, draws, wins compared: {compared:?}");
}

/// A race stopped from outside, or given a deadline already past, ends without a value (a
/// position neither method settles at its root).
#[test]
fn a_stopped_race_ends_without_a_value() {
    use mnklab::search::solver::race_weak_value;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let pos = AnyPosition::from_moves("mnk:7,7,5".parse().unwrap(), "a1").unwrap();
    let stop = Arc::new(AtomicBool::new(true));
    let r = with_position!(&pos, p => race_weak_value(p, 16, 256, Leaves::default(), None, Some(&stop)));
    assert_eq!((r.value, r.winner, r.conflict), (None, None, false));
    let past = std::time::Instant::now();
    let r = with_position!(&pos, p => race_weak_value(p, 16, 256, Leaves::default(), Some(past), None));
    assert_eq!(r.value, None);
}
