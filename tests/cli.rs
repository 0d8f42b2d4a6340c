//! The command line as a user runs it.

use std::process::{Command, Output};

fn mnklab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mnklab")).args(args).output().expect("run mnklab")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn count_prints_ground_truth() {
    let o = mnklab(&["count", "--game", "connect4", "--plies", "6"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "positions 16422");
    let o = mnklab(&["count", "--game", "tictactoe", "--games"]);
    assert_eq!(stdout(&o).trim(), "games 255168");
    let o = mnklab(&["count", "--game", "mnk:3,3,3", "--plies", "9", "--detail"]);
    assert_eq!(stdout(&o), "positions 78\nfinished 78\nup_to_symmetry 15\n");
}

#[test]
fn show_prints_the_board() {
    let o = mnklab(&["show", "--game", "connect4", "--moves", "4455667"]);
    assert!(o.status.success());
    let s = stdout(&o);
    assert!(s.contains("  1 . . . X X X X"), "{s}");
    assert!(s.contains("result first wins"), "{s}");
    let o = mnklab(&["show", "--open", concat!(env!("CARGO_MANIFEST_DIR"), "/saves/positions/gomoku-opening.ron")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn bad_arguments_get_clear_errors() {
    for (args, needle) in [
        (&["show", "--game", "mnk:30,3,3"][..], "out of range"),
        (&["show", "--game", "chess"][..], "unknown game"),
        (&["show", "--game", "connect4", "--moves", "4444444"][..], "column d is full"),
        (&["count", "--game", "connect4"][..], "--plies"),
        (&["bench", "playouts", "--game", "connect4", "--seconds=-1"][..], "seconds"),
        (&["show", "--open", "/nonexistent.ron"][..], "/nonexistent.ron"),
    ] {
        let o = mnklab(args);
        assert!(!o.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn bench_playouts_ends_with_the_rate() {
    let o = mnklab(&["bench", "playouts", "--game", "connect3d", "--seconds", "0.2"]);
    assert!(o.status.success());
    let s = stdout(&o);
    let last = s.lines().last().unwrap();
    let rate: f64 = last.strip_prefix("playouts_per_second ").unwrap().parse().unwrap();
    assert!(rate > 0.0);
}
