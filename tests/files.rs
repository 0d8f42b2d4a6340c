//! Position files: validation errors name the problem; atomic saves; the shipped examples load.

use mnklab::game::{AnyPosition, GameError, Player, SetupError, Status, Variant};
use mnklab::io::{FileError, PositionFile, load_position, save_position};

#[path = "common/scratch.rs"]
mod scratch;
use scratch::Scratch;

fn load(text: &str) -> Result<AnyPosition, FileError> {
    PositionFile::parse(text, "test.ron".as_ref()).map(|(_, p)| p)
}

fn setup_error(text: &str) -> SetupError {
    match load(text) {
        Err(FileError::Game { source: GameError::Setup(e), .. }) => e,
        other => panic!("expected a set-up error, got {other:?}"),
    }
}

#[test]
fn grid_setups_load() {
    let p = load(r#"(variant: "tictactoe", setup: Some((grid: ["X.O", ".X.", "..O"])))"#).unwrap();
    assert_eq!(p.side_to_move(), Player::First);
    assert_eq!(p.grid_stone(0, 2), Some(Player::First));
    assert_eq!(p.grid_stone(2, 0), Some(Player::Second));
    let won = load(r#"(variant: "tictactoe", setup: Some((grid: ["XXX", "OO.", "..."])))"#).unwrap();
    assert_eq!(won.status(), Status::Win(Player::First));
    let c4 = load(r#"(variant: "connect4", setup: Some((first: ["d1", "d2"], second: ["e1"], to_move: Some(Second))), moves: ["e"])"#).unwrap();
    assert_eq!(c4.grid_stone(4, 1), Some(Player::Second));
}

#[test]
fn every_setup_error_names_the_problem() {
    let e = setup_error(r#"(variant: "tictactoe", setup: Some((first: ["a1"], second: ["a1"])))"#);
    assert_eq!(e, SetupError::Overlap { cell: "a1".into() });
    let e = setup_error(r#"(variant: "tictactoe", setup: Some((grid: ["XXX", "...", "..."])))"#);
    assert_eq!(e, SetupError::StoneCounts { first: 3, second: 0 });
    let e = setup_error(r#"(variant: "tictactoe", setup: Some((grid: ["X..", "...", "..."], to_move: Some(First))))"#);
    assert!(matches!(e, SetupError::SideToMove { given: Player::First, expected: Player::Second, .. }));
    let e = setup_error(r#"(variant: "mnk:4,4,3", setup: Some((grid: ["XXX.", "OOO.", "X...", "O..."])))"#);
    assert!(matches!(e, SetupError::BothLines { .. }), "{e}");
    // Two separate lines of the first player: no single last move made both.
    let e =
        setup_error(r#"(variant: "mnk:5,5,3", setup: Some((grid: ["XXX..", ".....", "XXX..", "OO.OO", "O...."])))"#);
    assert!(matches!(e, SetupError::PlayedOnAfterLine { player: Player::First, .. }), "{e}");
    // The first player has a line but the second moved after it.
    let e = setup_error(r#"(variant: "tictactoe", setup: Some((grid: ["XXX", "OO.", "O.."])))"#);
    assert!(matches!(e, SetupError::PlayedOnAfterLine { player: Player::First, .. }), "{e}");
    let e = setup_error(r#"(variant: "connect4", setup: Some((first: ["d2"], second: [])))"#);
    assert_eq!(e, SetupError::Floating { cell: "d2".into() });
    let e = setup_error(r#"(variant: "tictactoe", setup: Some((first: ["d1"])))"#);
    assert!(matches!(e, SetupError::OffBoard { .. }), "{e}");
    assert!(e.to_string().contains("d1"));
    let e = setup_error(r#"(variant: "tictactoe", setup: Some((grid: ["XX", "...", "..."])))"#);
    assert!(matches!(e, SetupError::GridShape { .. }), "{e}");
    let e = setup_error(r#"(variant: "tictactoe", setup: Some((grid: ["X?.", "...", "..."])))"#);
    assert!(matches!(e, SetupError::GridChar { ch: '?', .. }), "{e}");
    let e = setup_error(r#"(variant: "connect3d", setup: Some((first: ["a1"])))"#);
    assert_eq!(e, SetupError::NeedsMoveList);
}

#[test]
fn move_list_errors_name_the_move() {
    let err = load(r#"(variant: "connect4", moves: ["d", "d", "d", "d", "d", "d", "d"])"#).unwrap_err();
    assert!(err.to_string().contains("column d is full"), "{err}");
    let err = load(r#"(variant: "tictactoe", moves: ["a1", "b1", "a2", "b2", "a3", "c3"])"#).unwrap_err();
    assert!(err.to_string().contains("c3 (moves[5]) would be ply 6, but the game ended at ply 5"), "{err}");
    let err = load(r#"(variant: "mnk:40,40,5")"#).unwrap_err();
    assert!(err.to_string().contains("out of range"), "{err}");
    let err = load(r#"(variant: "mnk:5,5,9")"#).unwrap_err();
    assert!(err.to_string().contains("K = 9"), "{err}");
    let err = load(r#"(variant: "connect4", moves: ["q"])"#).unwrap_err();
    assert!(err.to_string().contains("'q'"), "{err}");
    let err = load(r#"(variant: "connect4", colour: "red")"#).unwrap_err();
    assert!(err.to_string().contains("colour"), "{err}");
    let err = load(r#"(version: 9, variant: "connect4")"#).unwrap_err();
    assert!(matches!(err, FileError::Version { found: 9, .. }), "{err}");
    let err = load("(variant: ").unwrap_err();
    assert!(matches!(err, FileError::Parse { .. }), "{err}");
}

#[test]
fn save_is_atomic_and_loads_back() {
    let dir = Scratch::new("files");
    let path = dir.join("sub").join("game.ron");
    let pos = AnyPosition::from_moves(Variant::gomoku(), "h8 i9 h9 h10").unwrap();
    // A missing folder is named, not created (a typo must not scatter files).
    let e = save_position(&path, &PositionFile::from_position(&pos, None)).unwrap_err().to_string();
    assert!(e.contains("does not exist") && e.contains("sub"), "{e}");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    save_position(&path, &PositionFile::from_position(&pos, None)).unwrap();
    let (_, back) = load_position(&path).unwrap();
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(back.history(), pos.history());
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("game.ron")]);
    let err = load_position("/nonexistent/x.ron".as_ref()).unwrap_err();
    assert!(err.to_string().contains("/nonexistent/x.ron"), "{err}");
}

#[test]
fn shipped_positions_load() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/saves/positions");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        load_position(&path).unwrap_or_else(|e| panic!("{e}"));
        n += 1;
    }
    assert!(n >= 3);
}
