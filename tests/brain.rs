//! mnklab as a Gomocup brain, driven through every command by a scripted manager.

use std::io::Write;
use std::process::{Command, Stdio};

fn session(script: &str, args: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnklab"))
        .arg("brain")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the brain");
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the brain must exit cleanly");
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect()
}

fn xy(s: &str) -> (usize, usize) {
    let (x, y) = s.split_once(',').unwrap_or_else(|| panic!("not a move: {s}"));
    (x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn every_command_of_a_session() {
    let script = "ABOUT\nSTART 15\nINFO timeout_turn 300\nINFO max_memory 83886080\nINFO time_left 100000\nBEGIN\nTURN 8,8\n\
                  BOARD\n7,7,1\n8,7,1\n9,7,1\n10,7,1\n0,0,2\n0,1,2\n0,2,2\n0,3,2\nDONE\n\
                  BOARD\n7,7,2\n7,8,2\n7,9,2\n1,1,1\n3,3,1\n2,14,1\nDONE\n\
                  TURN 99,99\nTURN x\nBOARD\n1,1\n2,2\nx\nDONE\nSTART 0\nINFO rule 4\nFROB\nRESTART\nRECTSTART 12,9\nBEGIN\nEND\nBEGIN\n";
    let out = session(script, &["--agent", "strong-ab"]);
    let mut it = out.iter();
    let about = it.next().unwrap();
    assert!(about.contains("name=\"mnklab") && about.contains("version=") && about.contains("author="), "{about}");
    assert_eq!(it.next().unwrap(), "OK");
    let first = xy(it.next().unwrap());
    assert_eq!(first, (7, 7), "the centre of an empty 15x15 board");
    let reply = xy(it.next().unwrap());
    assert!(reply != (8, 8) && reply != first, "a free cell");
    // Our open four on row 7 (x 7..10): complete five at 6,7 or 11,7 rather than block.
    let win = xy(it.next().unwrap());
    assert!(win == (6, 7) || win == (11, 7), "{win:?}");
    // The opponent has three in column 7 (y 7..9) and it is our move: block an end.
    let block = xy(it.next().unwrap());
    assert!(block.0 == 7 && (block.1 == 6 || block.1 == 10), "{block:?}");
    for expected in ["off the board", "TURN needs x,y", "bad BOARD line", "ERROR", "renju", "unknown command"] {
        let line = it.next().unwrap();
        assert!(line.starts_with("ERROR") && line.contains(expected), "{expected}: {line}");
    }
    assert_eq!(it.next().unwrap(), "OK", "RESTART");
    assert_eq!(it.next().unwrap(), "OK", "RECTSTART");
    let (x, y) = xy(it.next().unwrap());
    assert!(x < 12 && y < 9);
    assert!(it.next().is_none(), "nothing after END");
}

#[test]
fn exactly_five_rule_and_k_from_the_game() {
    // With K = 4 (--game mnk:9,9,4) the brain completes four.
    let out =
        session("START 9\nBOARD\n2,2,1\n3,2,1\n4,2,1\n0,8,2\n1,8,2\n8,0,2\nDONE\nEND\n", &["--game", "mnk:9,9,4"]);
    assert_eq!(out.len(), 2);
    let m = xy(&out[1]);
    assert!(m == (1, 2) || m == (5, 2), "{m:?}");
    // Under the exactly-five rule (INFO rule 1) extending to six does not win, so the brain
    // must not count on it: own X at 0..=4 except 2, and 6..=8 on row 0 ... only 2,0 makes
    // exactly five (0-4) while 5,0 would join into a line of nine.
    let script = "START 15\nINFO rule 1\nBOARD\n0,0,1\n1,0,1\n3,0,1\n4,0,1\n6,0,1\n7,0,1\n8,0,1\n0,5,2\n0,7,2\n0,9,2\n0,11,2\n2,14,2\n5,14,2\n9,14,2\nDONE\nEND\n";
    let out = session(script, &[]);
    assert_eq!(out.last().unwrap(), "2,0", "{out:?}");
}

#[test]
fn a_huge_line_is_refused_in_bounded_memory_and_not_echoed() {
    // 20 MB on one line: one short ERROR, the session goes on.
    let mut script = String::from("START 9\n");
    script.push_str(&"X".repeat(20 << 20));
    script.push_str("\nBEGIN\nEND\n");
    let out = session(&script, &[]);
    assert_eq!(out.len(), 3, "{:?}", out.iter().map(|l| &l[..l.len().min(80)]).collect::<Vec<_>>());
    assert_eq!(out[0], "OK");
    assert!(out[1].starts_with("ERROR") && out[1].len() < 200, "short ERROR: {}", &out[1][..out[1].len().min(200)]);
    xy(&out[2]);
    // A long unknown command is quoted, but only its start.
    let out = session(&format!("{}\nEND\n", "Y".repeat(5000)), &[]);
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("ERROR") && out[0].len() < 200, "{}", out[0]);
}

#[test]
fn end_inside_a_board_block_ends_the_session_and_a_bad_block_gets_one_error() {
    let out = session("START 9\nBOARD\n1,1,1\nEND\nBEGIN\n", &[]);
    assert_eq!(out, vec!["OK".to_string()], "END inside BOARD ends the session");
    let out = session("START 9\nBOARD\n1,1\n2,2\n3,3\nbad\nDONE\nBEGIN\nEND\n", &[]);
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[1].starts_with("ERROR"), "{out:?}");
    xy(&out[2]);
}

/// Sizes beyond the largest board are refused, not narrowed (4294967311 as a u32 is 15, and
/// the brain once played 15x15 and answered OK); BOARD's field is 1 or 2, as its error says.
#[test]
fn board_sizes_and_fields_out_of_range_are_refused() {
    let run = |script: &str| {
        let agent = mnklab::agents::preset("random").unwrap();
        let mut brain = mnklab::gomocup::Brain::new(agent, 5, false);
        let mut out = Vec::new();
        mnklab::gomocup::run_brain(script.as_bytes(), &mut out, &mut brain).unwrap();
        String::from_utf8(out).unwrap().lines().map(str::to_string).collect::<Vec<_>>()
    };
    for start in ["START 4294967311", "START 100000000000", "START 22", "RECTSTART 4294967311,15", "RECTSTART 15,22"] {
        let out = run(&format!("{start}\nEND\n"));
        assert!(out[0].starts_with("ERROR") && out[0].contains("larger than mnklab plays"), "{start}: {out:?}");
    }
    let out = run("START 21\nEND\n");
    assert_eq!(out, vec!["OK"]);
    let out = run("START 15\nBOARD\n7,7,3\nDONE\nEND\n");
    assert!(out[1].starts_with("ERROR bad BOARD line") && out[1].contains("field 1 or 2"), "{out:?}");
}
