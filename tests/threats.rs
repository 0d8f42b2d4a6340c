//! Threat-space search against ground truth: the known values of ../shared/rules (copied
//! below) and the exact solver on random positions of every board it finishes. A threat win is
//! a claim, so every one must be a win by the solver; a failure claims nothing, but the search
//! must find a fair share of the solver's wins or it is not doing its job.

use crate::positions::{THREAT_BOARDS, random_positions, solved};

use mnklab::eval::EvalBoard;
use mnklab::game::{AnyPosition, Player, Position};
use mnklab::rng::seeded;
use mnklab::search::solver::ThreatSearch;
use mnklab::with_position;

/// Does `attacker` win by threats (at most `depth` attacker moves) from `pos`?
fn threat_win(pos: &AnyPosition, attacker: Player, depth: u32) -> bool {
    with_position!(pos, p => {
        let mut p = p.clone();
        let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
        let before = p.hash();
        let won = ThreatSearch::new(0).wins(&mut p, &mut board, attacker, depth);
        assert_eq!(p.hash(), before, "the search gives the position back");
        won
    })
}

#[test]
fn three_in_a_row_on_four_by_three_and_up_is_won_by_threats() {
    // ../shared/rules/mnk-and-connect.md: mnk:M,N,3 with M >= 4, N >= 3: first player wins.
    for game in ["mnk:4,3,3", "mnk:4,4,3", "mnk:5,4,3", "mnk:5,5,3"] {
        let pos = AnyPosition::new(game.parse().unwrap());
        assert!(threat_win(&pos, Player::First, 6), "{game}");
    }
    // Tic-tac-toe is a draw: no sequence of threats may claim it.
    let pos = AnyPosition::new("mnk:3,3,3".parse().unwrap());
    assert!(!threat_win(&pos, Player::First, 9));
}

#[test]
fn gomoku_patterns_are_won_by_threats_and_blocked_ones_are_not() {
    let game = "mnk:15,15,5".parse().unwrap();
    let at = |moves: &str| {
        let mut p = AnyPosition::new(game);
        p.play_sequence(moves).unwrap();
        p
    };
    // An open three (h8 i8 j8, second player far away): the first player makes an open four.
    assert!(threat_win(&at("h8 a1 i8 a3 j8 a5"), Player::First, 1));
    // Both ends blocked: no four can be made open, and no other threat exists.
    assert!(!threat_win(&at("h8 g8 i8 k8 j8 a5"), Player::First, 4));
    // Two open twos crossing at h10 (h8 h9 and f10 g10): the double three there is one
    // attacker move; no one stone then stops both threes' double fours.
    assert!(threat_win(&at("h8 a1 h9 a4 f10 a7 g10 a10"), Player::First, 1));
    // One open two and a stone: a single three is stopped, so one attacker move is not enough.
    assert!(!threat_win(&at("h8 a1 f10 a4 g10 a7"), Player::First, 1));
    // After the double three, with the second player to move: it stops one three, the other
    // becomes an open four. Asked from the defender's side, one attacker move is enough.
    let double_three = at("h8 a1 h9 a4 f10 a7 g10 a10 h10");
    assert!(threat_win(&double_three, Player::First, 1));
    // Without the double three (g10 not played) a single open three is stopped.
    assert!(!threat_win(&at("h8 a1 h9 a4 f10 a7 h10"), Player::First, 1));
}

#[test]
fn every_threat_win_is_a_win_by_the_solver() {
    let mut rng = seeded(23);
    let (mut claims, mut solver_wins) = (0usize, 0usize);
    for (game, pos) in random_positions(&mut rng, &THREAT_BOARDS, 40) {
        let me = pos.side_to_move();
        let value = solved(&pos);
        let mine = threat_win(&pos, me, 8);
        // The other side's threat already on the board, with `me` to answer it.
        let theirs = threat_win(&pos, me.other(), 8);
        assert!(
            !mine || value == 1,
            "{game} {}: a threat win for the side to move, solver {value}",
            pos.history_string()
        );
        assert!(
            !theirs || value == -1,
            "{game} {}: a threat win for the other side, solver {value}",
            pos.history_string()
        );
        assert!(!(mine && theirs));
        claims += (mine || theirs) as usize;
        solver_wins += (value != 0) as usize;
    }
    eprintln!("{claims} threat wins of {solver_wins} decided positions");
    // The search finds a real share of the decided positions (most random ones are decided
    // by a direct attack); a search that never claims would pass the checks above.
    assert!(claims * 3 >= solver_wins, "{claims} threat wins of {solver_wins} decided positions");
}

#[test]
fn proof_number_search_proves_a_gomoku_win_with_threats_at_its_leaves() {
    use mnklab::search::solver::{Leaves, ProofSearch, proof_number_value_with};
    let mut pos = AnyPosition::new("mnk:15,15,5".parse().unwrap());
    // Two diagonal pairs for the first player; the second player's stones are far away.
    pos.play_sequence("h8 a1 i9 a2 h10 a4 i11 a6").unwrap();
    let with = |threats| with_position!(&pos, p => proof_number_value_with(p, 64, None, None, Leaves { pairings: true, threats }));
    let (value, runs) = with(true);
    assert_eq!(value, Some(1), "{runs:?}");
    assert!(runs[0].threat_wins >= 1, "{runs:?}");
    // The threat search's win holds when the threat search names it from the root.
    assert!(threat_win(&pos, Player::First, 4));
    // Without it the same search fills its 64 MiB without an answer: 225 cells a move.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let plain = with_position!(&pos, p => {
        ProofSearch::new(p, Player::First, 64).without_threats().run(Some(deadline), None)
    });
    assert_eq!(plain.proved, None, "{plain:?}");
}

#[test]
fn the_threat_table_is_held_to_its_memory() {
    let mut pos = AnyPosition::new("mnk:15,15,5".parse().unwrap());
    pos.play_sequence("h8 h9 i8 i9 g9 j8 g7 g8 i7 j6").unwrap();
    let me = pos.side_to_move();
    let bytes = |search: ThreatSearch| {
        with_position!(&pos, p => {
            let mut p = p.clone();
            let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
            let mut search = search;
            search.wins(&mut p, &mut board, me, 30);
            assert!(search.aborted(), "the budget, not the answer, ends this search");
            search.table_bytes()
        })
    };
    let free = bytes(ThreatSearch::new(1_500_000));
    let held = bytes(ThreatSearch::new(1_500_000).with_table_mb(1));
    assert!(held <= 1 << 20, "held to 1 MiB: {held} bytes");
    assert!(free > 2 * held, "without a bound the table grows past it: {free} against {held}");
}
