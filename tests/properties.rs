//! Property tests on random games of every variant, and no-panic tests of every parser.

use mnklab::game::{AnyPosition, Move, Player, Position, Setup, Status, Variant};
use mnklab::io::PositionFile;
use mnklab::rng::{below, seeded};
use mnklab::with_position;
use proptest::prelude::*;

const VARIANTS: &[&str] = &[
    "tictactoe",
    "mnk:4,4,3",
    "mnk:7,5,4",
    "mnk:1,6,2",
    "gomoku",
    "gomoku-exact",
    "mnk:21,21,5:exact",
    "mnk:19,13,6",
    "connect4",
    "connect:5,4,3",
    "connect:4,9,4:exact",
    "connect:9,8,5",
    "connect:21,21,7",
    "connect3d",
];

/// A random game (up to `len` moves) of `game`, chosen by a seeded RNG.
fn random_game(game: &str, seed: u64, len: usize) -> AnyPosition {
    let mut pos = AnyPosition::new(game.parse().unwrap());
    let mut rng = seeded(seed);
    for _ in 0..len {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.try_play(moves[below(&mut rng, moves.len())]).unwrap();
    }
    pos
}

/// The image of a move under a board symmetry, computed independently of the engine:
/// `s` indexes the 8 symmetries of the square (only those valid for the board are used).
fn map_move(variant: &Variant, s: usize, m: Move) -> Move {
    let t = |x: usize, y: usize, w: usize, h: usize| -> (usize, usize) {
        let (w1, h1) = (w - 1, h - 1);
        match s {
            0 => (x, y),
            1 => (w1 - x, y),
            2 => (x, h1 - y),
            3 => (w1 - x, h1 - y),
            4 => (y, x),
            5 => (w1 - y, h1 - x),
            6 => (y, h1 - x),
            _ => (w1 - y, x),
        }
    };
    match variant {
        Variant::Grid(r) if r.gravity() => Move(t(m.index(), 0, r.width() as usize, 1).0 as u16),
        Variant::Grid(r) => {
            let h = r.height() as usize;
            let (x, y) = t(m.index() / h, m.index() % h, r.width() as usize, h);
            Move((x * h + y) as u16)
        }
        Variant::Connect3d => {
            let (x, y) = mnklab::game::POLE_XY[m.index()];
            let (tx, ty) = t(x as usize, y as usize, 6, 6);
            Move(mnklab::game::POLE_XY.iter().position(|&p| p == (tx as u8, ty as u8)).unwrap() as u16)
        }
    }
}

fn key_text(p: &AnyPosition) -> String {
    with_position!(p, q => format!("{:?}", q.key()))
}

fn symmetries(variant: &Variant) -> usize {
    match variant {
        Variant::Grid(r) if r.gravity() => 2,
        Variant::Grid(r) if r.width() == r.height() => 8,
        Variant::Grid(_) => 4,
        Variant::Connect3d => 8,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    /// After every move, the status from the last move equals a scan of the whole board;
    /// for connect3d, the lines counted move by move equal a scan of every window.
    #[test]
    fn last_move_detection_equals_full_scan(v in 0..VARIANTS.len(), seed in any::<u64>()) {
        let mut pos = AnyPosition::new(VARIANTS[v].parse().unwrap());
        let mut rng = seeded(seed);
        with_position!(&mut pos, p => {
            while !p.is_over() {
                let m = p.random_move(&mut rng);
                p.play(m);
                prop_assert_eq!(p.status(), p.scan_status(), "after {}", p.history_string());
            }
        });
        if let AnyPosition::Connect3d(c) = &pos {
            prop_assert_eq!(c.scan_lines(Player::First) + c.scan_lines(Player::Second), c.lines_made());
        }
    }

    /// Play then undo restores the state and every hash exactly.
    #[test]
    fn play_then_undo_restores(v in 0..VARIANTS.len(), seed in any::<u64>(), len in 0usize..80) {
        let pos = random_game(VARIANTS[v], seed, len);
        let mut after = pos.clone();
        for m in pos.legal_moves() {
            after.try_play(m).unwrap();
            prop_assert!(after.undo());
            prop_assert_eq!(after.hash(), pos.hash());
            prop_assert_eq!(after.canonical_hash(), pos.canonical_hash());
            prop_assert_eq!(after.status(), pos.status());
            prop_assert_eq!(after.side_to_move(), pos.side_to_move());
            prop_assert_eq!(after.legal_moves(), pos.legal_moves());
            prop_assert_eq!(after.points(), pos.points());
            prop_assert_eq!(key_text(&after), key_text(&pos));
        }
    }

    /// Positions equal under a symmetry of the board share the canonical hash.
    #[test]
    fn symmetric_positions_share_the_canonical_hash(v in 0..VARIANTS.len(), seed in any::<u64>(), len in 0usize..60, s in 0usize..8) {
        let variant: Variant = VARIANTS[v].parse().unwrap();
        let s = s % symmetries(&variant);
        let pos = random_game(VARIANTS[v], seed, len);
        let mut image = AnyPosition::new(variant);
        for &m in pos.history() {
            image.try_play(map_move(&variant, s, m)).unwrap();
        }
        prop_assert_eq!(image.canonical_hash(), pos.canonical_hash());
        prop_assert_eq!(image.status(), pos.status());
        prop_assert_eq!(image.points(), pos.points());
    }

    /// Saving a position and loading it gives the same position, as a move list and as a set-up.
    #[test]
    fn saved_positions_load_back(v in 0..VARIANTS.len(), seed in any::<u64>(), len in 0usize..70) {
        let pos = random_game(VARIANTS[v], seed, len);
        let text = PositionFile::from_position(&pos, None).to_ron();
        let (_, loaded) = PositionFile::parse(&text, "t.ron".as_ref()).unwrap();
        prop_assert_eq!(loaded.hash(), pos.hash());
        prop_assert_eq!(loaded.history(), pos.history());
        prop_assert_eq!(loaded.status(), pos.status());
        prop_assert_eq!(loaded.points(), pos.points());
        if let Variant::Grid(r) = pos.variant() {
            let (w, h) = (r.width() as usize, r.height() as usize);
            let grid = (0..h).rev().map(|y| (0..w).map(|x| match pos.grid_stone(x, y) {
                Some(Player::First) => 'X', Some(Player::Second) => 'O', None => '.',
            }).collect()).collect();
            let setup = Setup { grid, to_move: Some(pos.side_to_move()), ..Setup::default() };
            let file = PositionFile { setup: Some(setup), moves: vec![], ..PositionFile::from_position(&AnyPosition::new(pos.variant()), None) };
            let (_, set_up) = PositionFile::parse(&file.to_ron(), "t.ron".as_ref()).unwrap();
            prop_assert_eq!(set_up.hash(), pos.hash());
            prop_assert_eq!(set_up.status(), pos.status());
            prop_assert_eq!(set_up.side_to_move(), pos.side_to_move());
            prop_assert_eq!(set_up.legal_moves(), pos.legal_moves());
        }
    }

    /// No text makes a parser panic: variants, move lists, position files.
    #[test]
    fn parsers_never_panic_on_text(text in "\\PC{0,60}", v in 0..VARIANTS.len()) {
        let _ = text.parse::<Variant>();
        let variant: Variant = VARIANTS[v].parse().unwrap();
        let _ = AnyPosition::from_moves(variant, &text);
        let _ = PositionFile::parse(&text, "t.ron".as_ref());
    }

    /// RON-shaped input with arbitrary fields: errors, never panics.
    #[test]
    fn position_files_never_panic(
        variant in prop_oneof![Just("connect4".to_string()), Just("mnk:5,5,4".to_string()), Just("connect3d".to_string()), "[a-z0-9:,]{0,16}"],
        moves in proptest::collection::vec("[a-z]?[0-9]{0,3}", 0..12),
        grid in proptest::collection::vec("[XO.x ]{0,8}", 0..8),
        first in proptest::collection::vec("[a-z][0-9]{1,2}", 0..6),
        second in proptest::collection::vec("[a-z][0-9]{1,2}", 0..6),
        to_move in proptest::option::of(prop_oneof![Just("First"), Just("Second")]),
        version in 0u32..4,
    ) {
        let q = |v: &Vec<String>| v.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ");
        let to_move = to_move.map(|t| format!("to_move: Some({t}),")).unwrap_or_default();
        let text = format!(
            "(version: {version}, variant: {variant:?}, setup: Some((grid: [{}], first: [{}], second: [{}], {to_move})), moves: [{}])",
            q(&grid), q(&first), q(&second), q(&moves)
        );
        if let Ok((_, pos)) = PositionFile::parse(&text, "t.ron".as_ref()) {
            // Whatever loads is a consistent position.
            prop_assert_eq!(pos.status(), with_position!(&pos, p => p.scan_status()));
        }
    }
}

#[test]
fn finished_positions_have_no_moves() {
    let p = AnyPosition::from_moves(Variant::connect4(), "4455667").unwrap();
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.status(), Status::Win(Player::First));
}
