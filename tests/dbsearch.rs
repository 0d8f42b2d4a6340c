//! Dependency-based threat-space search against ground truth: the known first-player wins of
//! ../shared/rules (copied in tests/threats.rs), gomoku patterns, and the exact solver on
//! random positions of every board it finishes. A win is a claim, so every one must be a win
//! by the solver; the plans the verification refuted show it is not a formality.

use crate::positions::{THREAT_BOARDS, random_positions, solved};

use mnklab::eval::EvalBoard;
use mnklab::game::{AnyPosition, Position};
use mnklab::rng::seeded;
use mnklab::search::solver::{DbEnd, DbSearch, DbWin, ThreatSearch};
use mnklab::with_position;

/// The dependency-based search's stages for the side to move (no probe first: every win
/// comes from a plan), and its counters.
fn db(pos: &AnyPosition, stages: u32) -> (Result<DbWin, DbEnd>, DbSearch) {
    search_with(DbSearch::new(0).without_probe(), pos, stages)
}

fn search_with(mut search: DbSearch, pos: &AnyPosition, stages: u32) -> (Result<DbWin, DbEnd>, DbSearch) {
    with_position!(pos, p => {
        let mut p = p.clone();
        let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
        let before = p.hash();
        let found = search.winning_line(&mut p, &mut board, stages);
        assert_eq!(p.hash(), before, "the search gives the position back");
        (found, search)
    })
}

fn at(game: &str, moves: &str) -> AnyPosition {
    let mut p = AnyPosition::new(game.parse().unwrap());
    p.play_sequence(moves).unwrap();
    p
}

#[test]
fn three_in_a_row_boards_and_gomoku_patterns() {
    // First-player wins of the rules' table, found by a plan from the empty board.
    for game in ["mnk:4,3,3", "mnk:4,4,3", "mnk:5,4,3", "mnk:5,5,3"] {
        let (found, _) = db(&at(game, ""), 6);
        let win = found.unwrap_or_else(|e| panic!("{game}: {e:?}"));
        assert!(!win.plan.is_empty() && !win.line.line.is_empty(), "{game}: {win:?}");
    }
    // Tic-tac-toe is a draw: no plan may be claimed.
    assert!(db(&at("mnk:3,3,3", ""), 6).0.is_err());
    let gomoku = "mnk:15,15,5";
    // An open three: one move to an open four.
    let (found, _) = db(&at(gomoku, "h8 a1 i8 a3 j8 a5"), 6);
    assert_eq!(found.unwrap().plan.len(), 1);
    // Both ends blocked and nothing else: no plan, and every stage ran.
    assert_eq!(db(&at(gomoku, "h8 g8 i8 k8 j8 a5"), 6).0.unwrap_err(), DbEnd::Exhausted);
    // Two open twos crossing at h10: the double three is one move.
    let (found, _) = db(&at(gomoku, "h8 a1 h9 a4 f10 a7 g10 a10"), 6);
    let h10 = with_position!(&at(gomoku, ""), p => p.move_cell(p.parse_move("h10").unwrap())) as u16;
    assert_eq!(found.unwrap().plan, vec![h10]);
    // One open two and a stone: two threats needed, each a dependency of the last.
    let (found, _) = db(&at(gomoku, "h8 a1 i9 a2 h10 a4 i11 a6"), 6);
    assert!(found.unwrap().plan.len() >= 2);
    // With the probe (the default), the open three is the sound search's at once, no plan.
    let (found, search) = search_with(DbSearch::new(0), &at(gomoku, "h8 a1 i8 a3 j8 a5"), 6);
    let win = found.unwrap();
    assert!(win.probe && win.plan.is_empty() && win.stage == 0 && search.nodes == 0, "{win:?}");
    // The defender's four on the board comes first: refused by name.
    assert_eq!(db(&at(gomoku, "a1 h8 a15 i8 o1 j8 o15 k8"), 6).0.unwrap_err(), DbEnd::DefenderFour);
}

#[test]
fn every_dependency_based_win_is_a_win_by_the_solver() {
    let mut rng = seeded(29);
    let (mut claims, mut sound_claims, mut solver_wins, mut refuted) = (0usize, 0usize, 0usize, 0u64);
    let (mut probed_claims, mut probe_wins) = (0usize, 0usize);
    for (game, pos) in random_positions(&mut rng, &THREAT_BOARDS, 40) {
        let (found, search) = db(&pos, 6);
        refuted += search.refuted;
        let value = solved(&pos);
        assert!(
            found.is_err() || value == 1,
            "{game} {}: a dependency-based win, solver {value}",
            pos.history_string()
        );
        claims += found.is_ok() as usize;
        // The default search, the probe first: its wins are wins too, and it loses none of the
        // stages' (it runs them when the probe finds nothing, and no time limit is set).
        let (probed, _) = search_with(DbSearch::new(0), &pos, 6);
        assert!(probed.is_err() || value == 1, "{game} {}: a win with the probe, solver {value}", pos.history_string());
        assert!(probed.is_ok() || found.is_err(), "{game} {}: the probe lost a win", pos.history_string());
        probed_claims += probed.is_ok() as usize;
        probe_wins += probed.is_ok_and(|w| w.probe) as usize;
        solver_wins += (value == 1) as usize;
        let me = pos.side_to_move();
        let sound = with_position!(&pos, p => {
            let mut p = p.clone();
            let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
            ThreatSearch::new(0).wins(&mut p, &mut board, me, 8)
        });
        sound_claims += sound as usize;
    }
    eprintln!(
        "dependency-based wins {claims} ({probed_claims} with the probe, {probe_wins} of them the probe's), AND/OR threat wins {sound_claims}, solver wins for the side to move {solver_wins}, plans refuted {refuted}"
    );
    assert!(probe_wins > 0 && probed_claims >= claims);
    // It finds a real share of what the AND/OR search finds, and its verification rejected
    // plans on the way (a search that skipped it would have claimed them).
    assert!(claims * 4 >= sound_claims * 3, "{claims} against {sound_claims}");
    assert!(refuted > 0);
}
