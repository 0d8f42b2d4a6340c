//! The fast playout paths of grid boards play the same games as `random_move` + `play` on
//! the full position, for every board shape, rule and starting position.

use mnklab::game::{AnyPosition, GridRules, Position, Status, Variant};
use mnklab::rng::{below, seeded};
use mnklab::with_position;
use rand::Rng;

/// The reference: plays on a clone with the position's own rules, move by move.
fn slow_playout<P: Position>(pos: &P, rng: &mut mnklab::rng::GameRng) -> (Status, usize, [u32; 2]) {
    let mut p = pos.clone();
    let start = p.ply();
    while !p.is_over() {
        let m = p.random_move(rng);
        p.play(m);
    }
    (p.status(), p.ply() - start, p.points())
}

/// Plays `n` playouts both ways from `pos` with the same seeds; the generators must also end
/// in the same state (the same number of draws).
fn same_games<P: Position>(pos: &P, n: usize, seed: u64) -> usize {
    let mut scratch = pos.clone();
    let mut decided = 0;
    for i in 0..n {
        let mut a = seeded(seed + i as u64);
        let mut b = seeded(seed + i as u64);
        let fast = pos.random_playout(&mut scratch, &mut a);
        let slow = slow_playout(pos, &mut b);
        assert_eq!(
            (fast.status, fast.length, fast.points),
            slow,
            "{:?} after '{}' seed {}",
            pos.variant(),
            pos.history_string(),
            seed + i as u64
        );
        assert_eq!(a.next_u64(), b.next_u64(), "generators drifted apart");
        if fast.status != Status::Draw {
            decided += 1;
        }
    }
    decided
}

#[test]
fn fast_playouts_match_the_full_rules_on_the_usual_boards() {
    for variant in [
        Variant::connect4(),
        Variant::gomoku(),
        Variant::tictactoe(),
        Variant::Grid(GridRules::new(15, 15, 5, true, false).unwrap()),
        Variant::Grid(GridRules::new(9, 8, 5, false, true).unwrap()),
        Variant::Grid(GridRules::new(7, 6, 4, true, true).unwrap()),
        Variant::Grid(GridRules::new(21, 21, 6, false, false).unwrap()),
        Variant::Grid(GridRules::new(21, 21, 5, false, true).unwrap()),
    ] {
        let pos = AnyPosition::new(variant);
        let decided = with_position!(&pos, p => same_games(p, 300, 11));
        assert!(decided > 0, "{variant:?}: every playout a draw, the test would prove little");
    }
}

#[test]
fn fast_playouts_match_the_full_rules_on_random_boards_and_positions() {
    let mut rng = seeded(20261123);
    for case in 0..400 {
        let w = 1 + below(&mut rng, 21) as u32;
        let h = 1 + below(&mut rng, 21) as u32;
        let k = 1 + below(&mut rng, w.max(h) as usize) as u32;
        let exact = below(&mut rng, 2) == 1;
        let gravity = below(&mut rng, 2) == 1;
        let variant = Variant::Grid(GridRules::new(w, h, k, exact, gravity).unwrap());
        let mut pos = AnyPosition::new(variant);
        with_position!(&mut pos, p => {
            let plies = below(&mut rng, p.max_game_length() + 1);
            for _ in 0..plies {
                if p.is_over() {
                    break;
                }
                let m = p.random_move(&mut rng);
                p.play(m);
            }
            same_games(p, 20, case * 1000);
        });
    }
}

#[test]
fn fast_playouts_match_the_full_rules_in_connect3d() {
    let mut rng = seeded(3);
    for plies in [0, 1, 17, 40, 63] {
        let mut pos = AnyPosition::new(Variant::Connect3d);
        with_position!(&mut pos, p => {
            for _ in 0..plies {
                let m = p.random_move(&mut rng);
                p.play(m);
            }
            let decided = same_games(p, 300, plies as u64);
            assert!(decided > 0);
        });
    }
}

#[test]
fn a_finished_game_plays_no_move() {
    let pos = AnyPosition::from_moves(Variant::connect4(), "4455667").unwrap();
    with_position!(&pos, p => {
        let mut scratch = p.clone();
        let r = p.random_playout(&mut scratch, &mut seeded(1));
        assert_eq!((r.status, r.length), (p.status(), 0));
    });
}

/// A generator that repeats a short cycle of values: with few distinct draws, the stones pile
/// onto neighbouring poles, so games make many lines, several in one move, and lines before
/// the playout starts (rare in uniformly random games).
struct Cycle {
    values: Vec<u32>,
    at: usize,
}

impl rand::TryRng for Cycle {
    type Error = std::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.at += 1;
        Ok(self.values[self.at % self.values.len()])
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.try_next_u32()? as u64)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.fill(0);
        Ok(())
    }
}

#[test]
fn connect3d_fast_playouts_score_line_rich_games_as_the_full_rules() {
    let (mut most_lines, mut multi_line_moves, mut lines_before) = (0, 0, 0);
    let mut pattern_rng = seeded(11);
    for case in 0..400u64 {
        let len = 1 + below(&mut pattern_rng, 4);
        let values: Vec<u32> = (0..len).map(|_| pattern_rng.next_u32() >> below(&mut pattern_rng, 5)).collect();
        let plies = below(&mut pattern_rng, 48);
        let mut start = mnklab::game::Connect3d::new();
        let mut gen_start = Cycle { values: values.clone(), at: case as usize };
        for _ in 0..plies {
            let m = start.random_move(&mut gen_start);
            start.play(m);
        }
        let (mut a, mut b) = (Cycle { values: values.clone(), at: 0 }, Cycle { values, at: 0 });
        let fast = start.random_playout(&mut start.clone(), &mut a);
        let mut slow = start.clone();
        let mut last_lines = slow.lines_made();
        while !slow.is_over() {
            let m = slow.random_move(&mut b);
            slow.play(m);
            multi_line_moves += (slow.lines_made() >= last_lines + 2) as u32;
            last_lines = slow.lines_made();
        }
        assert_eq!(
            (fast.status, fast.points, fast.length),
            (slow.status(), slow.points(), 64 - plies),
            "case {case} after '{}'",
            start.history_string()
        );
        most_lines = most_lines.max(slow.lines_made());
        lines_before += (start.lines_made() > 0) as u32;
    }
    // The cases exercise what random play rarely does.
    assert!(most_lines >= 20, "at most {most_lines} lines in a game");
    assert!(multi_line_moves >= 50, "{multi_line_moves} moves made two lines or more");
    assert!(lines_before >= 50, "{lines_before} playouts started after lines were made");
}

/// Deferred scoring (the MCTS tree walk's mode) ends every game with the points of live
/// scoring: when the walk fills the board itself, in a playout from a deferred position, after
/// taking moves back past the point it was deferred from, and when switched back on midway
/// (the line counts of the moves played since must come back exactly, or later lines score
/// wrong). Line-rich games, as above.
#[test]
fn connect3d_deferred_scoring_ends_games_as_live_scoring() {
    let mut pattern_rng = seeded(5);
    let (mut lines_while_deferred, mut full_walks) = (0, 0);
    for case in 0..300u64 {
        let len = 1 + below(&mut pattern_rng, 4);
        let values: Vec<u32> = (0..len).map(|_| pattern_rng.next_u32() >> below(&mut pattern_rng, 5)).collect();
        let mut game = Cycle { values: values.clone(), at: case as usize };
        // The whole game, played live: the reference for every ply.
        let mut live = mnklab::game::Connect3d::new();
        let mut moves = Vec::new();
        let mut lines_at = vec![(0u32, [0u32; 2])];
        while !live.is_over() {
            let m = live.random_move(&mut game);
            live.play(m);
            moves.push(m);
            lines_at.push((live.lines_made(), live.points()));
        }
        let from = below(&mut pattern_rng, 60);
        let mut pos = mnklab::game::Connect3d::new();
        for &m in &moves[..from] {
            pos.play(m);
        }
        pos.set_deferred_scoring(true);
        // A playout from a deferred position, moves after the deferral on the board.
        let walk = from + below(&mut pattern_rng, 64 - from);
        for &m in &moves[from..walk] {
            pos.play(m);
        }
        lines_while_deferred += (lines_at[walk].0 > lines_at[from].0) as u32;
        let mut reference = pos.clone();
        reference.set_deferred_scoring(false);
        assert_eq!(
            (reference.lines_made(), reference.points()),
            lines_at[walk],
            "case {case}: switched back at {walk}"
        );
        let gen_values = values.clone();
        let (mut a, mut b) = (Cycle { values: gen_values.clone(), at: 0 }, Cycle { values: gen_values, at: 0 });
        let deferred_playout = pos.random_playout(&mut pos.clone(), &mut a);
        let live_playout = reference.random_playout(&mut reference.clone(), &mut b);
        assert_eq!(
            (deferred_playout.status, deferred_playout.points),
            (live_playout.status, live_playout.points),
            "case {case}: playout after '{}' deferred from {from}",
            pos.history_string()
        );
        // The walk fills the board itself.
        for &m in &moves[walk..] {
            pos.play(m);
        }
        full_walks += 1;
        assert_eq!((pos.status(), pos.points()), (live.status(), live.points()), "case {case}: full board");
        // Back past the deferral point, then on again with live scoring.
        let back = below(&mut pattern_rng, 65);
        for _ in back..64 {
            pos.undo();
        }
        pos.set_deferred_scoring(false);
        assert_eq!((pos.lines_made(), pos.points()), lines_at[back], "case {case}: taken back to {back}");
        for (i, &m) in moves[back..].iter().enumerate() {
            pos.play(m);
            assert_eq!((pos.lines_made(), pos.points()), lines_at[back + i + 1], "case {case}: replayed from {back}");
        }
        assert_eq!(pos.status(), live.status());
    }
    assert!(lines_while_deferred >= 100, "{lines_while_deferred} cases made lines while deferred");
    assert_eq!(full_walks, 300);
}
