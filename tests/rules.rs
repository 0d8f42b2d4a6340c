//! The rules engine against ground truth (the team's rule files with their counts, outside this repository; the values are written here).

use mnklab::game::{AnyPosition, Connect3d, Player, Position, Status, Variant, count_games, count_positions};
use mnklab::rng::seeded;
use mnklab::search::playout::random_playout;
use mnklab::with_position;

fn levels(game: &str, plies: usize) -> Vec<mnklab::game::LevelCount> {
    let pos = AnyPosition::new(game.parse().unwrap());
    with_position!(&pos, p => count_positions(p, plies))
}

#[test]
fn tictactoe_counts() {
    let l = levels("tictactoe", 9);
    let per_ply: Vec<u64> = l.iter().map(|c| c.positions).collect();
    assert_eq!(per_ply, [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]);
    assert_eq!(l.iter().map(|c| c.positions).sum::<u64>(), 5478);
    assert_eq!(l.iter().map(|c| c.canonical).sum::<u64>(), 765);
    assert_eq!(l.iter().map(|c| c.finished).sum::<u64>(), 958);
    let pos = AnyPosition::new(Variant::tictactoe());
    assert_eq!(with_position!(&pos, p => count_games(p)), 255_168);
}

#[test]
fn connect4_positions_per_ply() {
    let per_ply: Vec<u64> = levels("connect4", 9).iter().map(|c| c.positions).collect();
    assert_eq!(per_ply, [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186]);
}

#[test]
fn wins_are_detected_in_every_direction() {
    // Connect-4: horizontal, vertical, both diagonals.
    for (moves, winner) in [
        ("4455667", Player::First),
        ("1212121", Player::First),
        ("12234334544", Player::First), // rising diagonal a1 b2 c3 d4
        ("76654554344", Player::First), // falling diagonal g1 f2 e3 d4
        ("71212121", Player::Second),
    ] {
        let p = AnyPosition::from_moves(Variant::connect4(), moves).unwrap();
        assert_eq!(p.status(), Status::Win(winner), "{moves}");
    }
    // Gomoku, exact rule: an overline does not win, five does.
    let exact: Variant = "gomoku-exact".parse().unwrap();
    let six = "a1 a15 b1 b15 c1 c15 e1 e15 f1 f14 d1";
    assert_eq!(AnyPosition::from_moves(exact, six).unwrap().status(), Status::Ongoing);
    assert_eq!(AnyPosition::from_moves(Variant::gomoku(), six).unwrap().status(), Status::Win(Player::First));
    let five = "a1 a15 b1 b15 c1 c15 d1 d15 e1";
    assert_eq!(AnyPosition::from_moves(exact, five).unwrap().status(), Status::Win(Player::First));
    // A full tic-tac-toe board without a line is a draw.
    let draw = AnyPosition::from_moves(Variant::tictactoe(), "b2 a1 c1 a3 a2 c2 b1 b3 c3").unwrap();
    assert_eq!(draw.status(), Status::Draw);
}

#[test]
fn moves_after_the_end_are_refused() {
    let err = AnyPosition::from_moves(Variant::connect4(), "44556677").unwrap_err();
    assert!(err.to_string().contains("move 7 would be ply 8, but the game ended at ply 7"), "{err}");
    let err = AnyPosition::from_moves(Variant::connect4(), "4444444").unwrap_err();
    assert!(err.to_string().contains("column d is full"), "{err}");
    let err = AnyPosition::from_moves(Variant::tictactoe(), "a1 a1").unwrap_err();
    assert!(err.to_string().contains("taken"), "{err}");
    let err = AnyPosition::from_moves(Variant::connect4(), "d2").unwrap_err();
    assert!(err.to_string().contains("lands on d1"), "{err}");
}

#[test]
fn connect3d_scoring_examples() {
    // A pole of four: the first line of the game scores 100.
    let mut p = Connect3d::new();
    p.play_sequence("9 1 9 2 9 3 9").unwrap();
    assert_eq!((p.points(), p.lines_made()), ([100, 0], 1));
    // The second line, by the other player, scores 50.
    p.play_sequence("1 12 1 12 1").unwrap();
    assert_eq!((p.points(), p.lines_made()), ([100, 50], 2));
    // Extending a run of four to five makes one more line (the third: 33).
    let mut p = Connect3d::new();
    p.play_sequence("7 19 8 20 9 23 10 24").unwrap();
    assert_eq!(p.points(), [100, 0]);
    p.play_sequence("11").unwrap();
    assert_eq!((p.points(), p.lines_made()), ([150, 0], 2));
    // One stone completing two lines takes two numbers: 100 and 50.
    let mut p = Connect3d::new();
    p.play_sequence("7 13 8 19 9 23 2 24 5 18 16 6").unwrap();
    assert_eq!(p.lines_made(), 0);
    p.play_sequence("10").unwrap();
    assert_eq!((p.points(), p.lines_made()), ([150, 0], 2));
    // The board says points and lines apart: 150 points are two lines, not 150.
    assert_eq!(p.points_said(), "points: first 150, second 0 (2 lines of four; the k-th line scores 100/k)");
    // Lines counted move by move equal a scan of every window of four.
    assert_eq!(p.scan_lines(Player::First), 2);
}

#[test]
fn connect3d_random_games_last_64_moves_and_match_the_reference_statistics() {
    // Reference (rules file): first player wins about 52.6%, draws about 1.6%, 4.5 lines a game.
    let mut rng = seeded(7);
    let mut pos = Connect3d::new();
    let n = 20_000;
    let (mut first, mut draws, mut lines) = (0, 0, 0u64);
    for _ in 0..n {
        let mut played = 0;
        while !pos.is_over() {
            let m = pos.random_move(&mut rng);
            pos.play(m);
            played += 1;
        }
        assert_eq!(played, 64);
        lines += pos.lines_made() as u64;
        match pos.status() {
            Status::Win(Player::First) => first += 1,
            Status::Draw => draws += 1,
            _ => {}
        }
        for _ in 0..played {
            pos.undo();
        }
    }
    let first = first as f64 / n as f64;
    let draws = draws as f64 / n as f64;
    let lines = lines as f64 / n as f64;
    // Four standard errors of a 20,000-game sample each way.
    assert!((first - 0.526).abs() < 0.015, "first wins {first}");
    assert!((draws - 0.016).abs() < 0.004, "draws {draws}");
    assert!((lines - 4.5).abs() < 0.25, "lines {lines}");
}

#[test]
fn random_playouts_leave_the_position_unchanged() {
    let mut rng = seeded(3);
    for game in ["gomoku", "connect4", "connect3d", "mnk:21,21,5:exact", "connect:9,8,5"] {
        let mut pos = AnyPosition::from_moves(game.parse().unwrap(), "").unwrap();
        let before = pos.hash();
        with_position!(&mut pos, p => {
            let r = random_playout(p, &mut rng);
            assert!(r.status.is_over());
            assert!(r.length <= p.max_game_length());
        });
        assert_eq!(pos.hash(), before);
        assert_eq!(pos.ply(), 0);
    }
}
