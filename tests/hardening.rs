//! The hardening issue, one test per finding: each of these failed before its fix. Run as a
//! user runs the program (the binary, exit codes, stderr), except where only the library can
//! set the scene (a torn results file, a stale temporary file).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::scratch::Scratch;

fn mnklab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mnklab")).args(args).output().expect("run mnklab")
}

fn mnklab_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mnklab")).current_dir(dir).args(args).output().expect("run mnklab")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit code 2 with a named error, and no panic.
fn refused(o: &Output, needle: &str) {
    let e = err(o);
    assert_eq!(o.status.code(), Some(2), "exit code 2 expected; stderr: {e}; stdout: {}", out(o));
    assert!(e.contains(needle), "stderr should name '{needle}': {e}");
    assert!(!e.contains("panicked"), "{e}");
}

/// Runs one brain session: `input` on stdin, the lines it answered on stdout.
fn brain_session(input: &[u8]) -> (Output, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnklab"))
        .arg("brain")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let o = child.wait_with_output().unwrap();
    let lines = out(&o).lines().map(str::to_string).collect();
    (o, lines)
}

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("hardening-{name}"))
}

const TWO_RANDOMS: &str = r#"agents: [(name: Some("a"), agent: Preset("random")), (name: Some("b"), agent: Preset("random"))], pairing: Pairwise, seed: 1"#;

// 1. A fresh clone passes: no test, bench, README or docs/ example reads outside the repository.
#[test]
fn tests_and_readme_use_only_data_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for (dir, ext) in [("tests", "rs"), ("benches", "rs"), ("examples", "rs"), ("docs", "md")] {
        if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
            files.extend(entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == ext)));
        }
    }
    let outside = ["..", "/shared"].concat();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            let is_doc = line.trim_start().starts_with("//");
            // The speed sections (docs/benchmarks.md and the solver's notebook) name the C
            // yardstick they were measured against (a developer's measurement beside the
            // repository, not an example a user runs).
            let is_yardstick = f.extension().is_some_and(|x| x == "md") && line.contains("yardsticks/");
            assert!(
                is_doc || is_yardstick || !code.contains(&outside),
                "{}:{} reads outside the repository: {line}",
                f.display(),
                i + 1
            );
        }
    }
    for set in ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1"] {
        let text = std::fs::read_to_string(root.join("tests/data/connect4").join(set)).unwrap();
        assert_eq!(text.lines().count(), 1000, "{set}");
    }
}

// 2. solve on a finished position says the game is over and who won.
#[test]
fn solve_on_a_finished_game_names_the_winner() {
    for weak in [false, true] {
        for (game, moves) in [("tictactoe", "a1 b1 a2 b2 a3"), ("connect:4,4,3", "aabbc"), ("connect4", "4455667")] {
            let mut args = vec!["solve", "--game", game, "--moves", moves];
            if weak {
                args.push("--weak");
            }
            let o = mnklab(&args);
            assert!(o.status.success(), "{}", err(&o));
            let first = out(&o).lines().next().unwrap().to_string();
            assert!(first.starts_with("value game over: first player won"), "{game} {moves}: {first}");
            assert!(!out(&o).contains("draw") && !out(&o).contains("win in"), "{}", out(&o));
        }
    }
    let o = mnklab(&["solve", "--game", "tictactoe", "--moves", "b2 a1 c1 a3 a2 c2 b1 b3 c3"]);
    assert!(out(&o).starts_with("value game over: draw"), "{}", out(&o));
    // The batch path: the side to move has lost, so its score is negative (Pons' convention).
    let dir = scratch("batch-over");
    let file = dir.join("over.txt");
    std::fs::write(&file, "4455667 0\n").unwrap();
    let o = mnklab(&["solve", "--game", "connect4", "--batch", file.to_str().unwrap()]);
    let line = out(&o).lines().next().unwrap().to_string();
    let score: i32 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(score < 0, "{line}");
}

// 3. A fixed-depth agent under a time limit deepens iteratively; a move the limits left
// unsearched is flagged, never passed off as searched.
#[test]
fn a_time_limit_never_yields_a_fake_depth_zero_move() {
    // Every clock: the CPU-time one once played the first legal move at every budget of an
    // accuracy experiment (one iteration at the board's full depth, cut).
    for (agent, clock) in ["alam-ab", "connectx-minimax"].iter().flat_map(|a| [(a, "--time"), (a, "--cpu-time")]) {
        let o = mnklab(&["analyse", "--game", "connect4", "--agent", agent, clock, "0.2"]);
        assert!(o.status.success(), "{}", err(&o));
        let s = out(&o);
        assert!(!s.contains("info depth 0"), "{agent} {clock}: {s}");
        let depths = s.lines().filter(|l| l.starts_with("info depth ") && !l.starts_with("info depth 0")).count();
        assert!(depths >= 2, "{agent} {clock}: deepened iteratively: {s}");
        assert!(!s.contains("unsearched"), "{s}");
    }
    // 361 moves and a limit of one node: depth 1 cannot finish; the move is flagged.
    let o = mnklab(&["analyse", "--game", "mnk:19,19,5", "--agent", "connectx-minimax", "--nodes", "1"]);
    let last = out(&o).lines().last().unwrap().to_string();
    assert!(last.contains("score ?") && last.contains("unsearched"), "{last}");
    // In a matchup every move of the fixed-depth preset under a time limit was searched.
    let dir = scratch("timed");
    let m = dir.join("m.ron");
    std::fs::write(
        &m,
        r#"(version: 1, name: "timed", variants: List(["connect:5,4,4"]), agents: [(name: Some("ab"), agent: Preset("alam-ab")), (name: Some("r"), agent: Preset("random"))], pairing: Pairwise, games: 2, limits: Some((time: Some(0.01))), seed: 3)"#,
    )
    .unwrap();
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--threads", "1"]);
    assert!(o.status.success(), "{}", err(&o));
    let csv = std::fs::read_to_string(dir.join("o/moves.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (agent, depth, unsearched) = (col("agent"), col("depth"), col("unsearched"));
    let mut rows = 0;
    for line in csv.lines().skip(1) {
        // The variant is quoted ("connect:5,4,4"): split after it.
        let rest = line.split_once("\",").unwrap().1;
        let f: Vec<&str> = std::iter::once("").chain(std::iter::once("")).chain(rest.split(',')).collect();
        if f[agent] == "ab" {
            rows += 1;
            assert!(f[depth].parse::<u32>().unwrap() >= 1, "{line}");
            assert_eq!(f[unsearched], "false", "{line}");
        }
    }
    assert!(rows > 5);
}

// 4. merge refuses missing or empty inputs and reports missing games; table refuses non-results.
#[test]
fn merge_and_table_refuse_what_is_not_a_whole_run() {
    let dir = scratch("merge");
    refused(&mnklab(&["merge", "--out", dir.join("m").to_str().unwrap(), "/nonexistent-run"]), "/nonexistent-run");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    refused(
        &mnklab(&["merge", "--out", dir.join("m").to_str().unwrap(), dir.join("empty").to_str().unwrap()]),
        "empty",
    );
    let m = dir.join("m.ron");
    std::fs::write(&m, format!(r#"(version: 1, name: "sh", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 6)"#))
        .unwrap();
    let o = mnklab_in(&dir, &["match", "m.ron", "--shard", "1/2", "--out", "s0"]);
    assert!(o.status.success(), "{}", err(&o));
    let o = mnklab_in(&dir, &["merge", "--out", "all", "s0/shard-1-of-2"]);
    refused(&o, "3 of the matchup's 6 games are missing");
    let o = mnklab_in(&dir, &["merge", "--out", "all", "--partial", "s0/shard-1-of-2"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains("missing") || out(&o).contains("missing"), "still reported: {}{}", out(&o), err(&o));
    let o = mnklab_in(&dir, &["match", "m.ron", "--shard", "2/2", "--out", "s1"]);
    assert!(o.status.success());
    let o = mnklab_in(&dir, &["merge", "--out", "all2", "s0/shard-1-of-2", "s1/shard-2-of-2"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("6 games"), "{}", out(&o));
    refused(&mnklab_in(&dir, &["table", "m.ron"]), "m.ron");
    std::fs::write(dir.join("empty.ronl"), "").unwrap();
    refused(&mnklab_in(&dir, &["table", "empty.ronl"]), "empty.ronl");
}

// 5 and 6. External programs need consent; forfeits are printed as they happen and have a
// reason in games.csv; the summary shows the external command.
#[test]
fn external_programs_need_consent_and_forfeits_are_reported() {
    let dir = scratch("external");
    let m = dir.join("ext.ron");
    std::fs::write(
        &m,
        r#"(version: 1, name: "ext", variants: List(["mnk:9,9,5"]), agents: [
            (name: Some("innocent"), agent: Inline((name: "x", agent: External((command: "/nonexistent/engine-xyz", args: ["--evil"], protocol: Gomocup))))),
            (name: Some("r"), agent: Preset("random"))], pairing: Pairwise, games: 2, limits: Some((time: Some(0.2))), seed: 1)"#,
    )
    .unwrap();
    let o = mnklab_in(&dir, &["match", "ext.ron", "--out", "o"]);
    refused(&o, "--allow-external");
    assert!(err(&o).contains("innocent: /nonexistent/engine-xyz --evil"), "the command is listed: {}", err(&o));
    assert!(!dir.join("o").exists(), "nothing was run");
    // A program that does not start is refused before the first game, by name (it once
    // forfeited every game of the run with exit 0).
    let o = mnklab_in(&dir, &["match", "ext.ron", "--out", "o", "--allow-external"]);
    refused(&o, "cannot start '/nonexistent/engine-xyz'");
    assert!(err(&o).contains("innocent (/nonexistent/engine-xyz --evil)"), "{}", err(&o));
    assert!(!dir.join("o").exists(), "refused before anything is written");
    // An engine that starts and then forfeits (it plays off the board): forfeits are
    // reported, counted per agent and named in games.csv.
    std::fs::write(
        &m,
        r#"(version: 1, name: "ext", variants: List(["mnk:9,9,5"]), agents: [
            (name: Some("innocent"), agent: Inline((name: "x", agent: External((command: "/bin/sh", args: ["-c", "while read l; do case $l in START*|RECTSTART*) echo OK;; BEGIN|TURN*|BOARD*|DONE) echo 99,99;; esac; done"], protocol: Gomocup))))),
            (name: Some("r"), agent: Preset("random"))], pairing: Pairwise, games: 2, limits: Some((time: Some(0.2))), seed: 1)"#,
    )
    .unwrap();
    let o = mnklab_in(&dir, &["match", "ext.ron", "--out", "o2", "--allow-external"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains("forfeits"), "forfeits on stderr: {}", err(&o));
    assert!(out(&o).contains("/bin/sh"), "the summary shows the command: {}", out(&o));
    assert!(out(&o).contains("forfeits a|b"), "{}", out(&o));
    let t = mnklab_in(&dir, &["table", "o2"]);
    let row = out(&t).lines().find(|l| l.contains("innocent")).unwrap_or_default().to_string();
    assert!(row.trim_end().ends_with("2|0"), "the table's forfeits column: {}", out(&t));
    let csv = std::fs::read_to_string(dir.join("o2/games.csv")).unwrap();
    assert!(csv.lines().next().unwrap().contains("forfeit_reason"));
    assert!(csv.lines().skip(1).all(|l| l.contains("99,99") || l.contains("illegal")), "{csv}");
    // An agent file naming a program: analyse and brain refuse it too.
    let a = dir.join("agent.ron");
    std::fs::write(
        &a,
        r#"(version: 1, name: "x", agent: External((command: "/nonexistent/engine-xyz", protocol: Gomocup)))"#,
    )
    .unwrap();
    refused(
        &mnklab_in(&dir, &["analyse", "--game", "mnk:9,9,5", "--agent", "agent.ron", "--time", "0.1"]),
        "--allow-external",
    );
    let o = mnklab_in(&dir, &["table", "o2"]);
    assert!(out(&o).contains("/bin/sh"), "{}", out(&o));
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnklab"))
        .current_dir(&dir)
        .args(["brain", "--agent", "agent.ron"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdin.take());
    let o = child.wait_with_output().unwrap();
    refused(&o, "--allow-external");
}

// 7. A matchup name is a plain folder name.
#[test]
fn a_matchup_name_cannot_leave_the_output_folder() {
    let dir = scratch("names");
    // Names of their own, so that a folder left by anything else cannot fail the test.
    let escape = format!("mnklab-escape-{}", std::process::id());
    let outside = [dir.parent().unwrap().join(&escape), std::env::temp_dir().join(&escape)];
    let names = [format!("../../{escape}"), outside[1].display().to_string()];
    for name in names.iter().map(String::as_str).chain(["a/b", ".hidden", "", " ", " x", "x "]) {
        let m = dir.join("m.ron");
        std::fs::write(
            &m,
            format!(r#"(version: 1, name: "{name}", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 2)"#),
        )
        .unwrap();
        refused(&mnklab_in(&dir, &["match", "m.ron"]), "name");
    }
    assert!(outside.iter().all(|p| !p.exists()), "{outside:?}");
}

// 8. Huge finite durations in files are refused where they are read.
#[test]
fn huge_durations_in_files_are_refused() {
    let dir = scratch("durations");
    let m = dir.join("m.ron");
    std::fs::write(
        &m,
        format!(r#"(version: 1, name: "d", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 2, limits: Some((time: Some(1e30))))"#),
    )
    .unwrap();
    refused(&mnklab_in(&dir, &["match", "m.ron"]), "time");
    for (file, needle) in [
        (r#"(version: 1, name: "s", agent: Solver((time: Some(1e30))))"#, "time"),
        (r#"(version: 1, name: "s", agent: External((command: "x", protocol: Gomocup, startup: 1e30)))"#, "startup"),
        (r#"(version: 1, name: "s", agent: External((command: "x", protocol: Gomocup, grace: -1.0)))"#, "grace"),
        (r#"(version: 1, name: "s", agent: AlphaBeta((tt_mb: 65536000)))"#, "tt_mb"),
    ] {
        std::fs::write(dir.join("a.ron"), file).unwrap();
        refused(&mnklab_in(&dir, &["analyse", "--game", "tictactoe", "--agent", "a.ron", "--allow-external"]), needle);
    }
}

// 9. Sizes are checked against the machine; schedules are streamed.
#[test]
fn huge_sizes_are_refused_or_streamed() {
    refused(&mnklab(&["solve", "--game", "connect4", "--tt-mb", "100000000"]), "table");
    refused(&mnklab(&["count", "--game", "tictactoe", "--plies", "18446744073709551615"]), "plies");
    let dir = scratch("games");
    std::fs::write(
        dir.join("m.ron"),
        format!(r#"(version: 1, name: "g", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 2)"#),
    )
    .unwrap();
    let start = std::time::Instant::now();
    let o = mnklab_in(&dir, &["match", "m.ron", "--games", "4294967295", "--shard", "1/1000000000", "--out", "o"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("5 games"), "{}", out(&o));
    assert!(start.elapsed().as_secs() < 60, "a schedule of billions is never built");
}

// 10. A closed pipe ends the program quietly.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/connect4/Test_L3_R1");
    for args in [
        &["analyse", "--game", "connect4", "--agent", "strong-ab", "--time", "3"][..],
        &["solve", "--game", "connect4", "--batch", data][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mnklab"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        // The reader is dropped here: the pipe is closed, as `| head -1` does.
        let o = child.wait_with_output().unwrap();
        assert!(!first.is_empty());
        assert!(!err(&o).contains("panicked") && o.status.code() != Some(101), "{args:?}: {}", err(&o));
    }
}

// 11. Zero or negative counts and times get one consistent message.
#[test]
fn zero_counts_and_negative_times_are_refused() {
    for (args, needle) in [
        (&["analyse", "--game", "connect4", "--agent", "jeng-mcts", "--iterations", "0"][..], "at least 1"),
        (&["analyse", "--game", "connect4", "--agent", "strong-ab", "--nodes", "0"][..], "at least 1"),
        (&["analyse", "--game", "connect4", "--agent", "strong-ab", "--time", "-1"][..], "seconds from 0.0001"),
        (&["analyse", "--game", "connect4", "--agent", "strong-ab", "--time", "0"][..], "seconds from 0.0001"),
        (&["analyse", "--game", "connect4", "--agent", "strong-ab", "--time", "inf"][..], "seconds from 0.0001"),
        (&["match", "x.ron", "--threads", "0"][..], "threads"),
        (&["bench", "solve", "--limit", "0"][..], "at least 1"),
    ] {
        refused(&mnklab(args), needle);
    }
}

// 12. Resume keeps a complete last game without its newline; atomic writes clean up, keep
// symlinks and permissions.
#[test]
fn results_and_atomic_writes_lose_nothing() {
    let dir = scratch("resume");
    std::fs::write(
        dir.join("m.ron"),
        format!(r#"(version: 1, name: "r", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 4)"#),
    )
    .unwrap();
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--threads", "1"]);
    assert!(o.status.success(), "{}", err(&o));
    let results = dir.join("o/results.ronl");
    let full = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 4);
    // Two whole games, the second without its newline: resume must keep both.
    std::fs::write(&results, format!("{}\n{}", lines[0], lines[1])).unwrap();
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--resume", "--threads", "1"]);
    assert!(o.status.success(), "{}", err(&o));
    let after = std::fs::read_to_string(&results).unwrap();
    assert_eq!(after.lines().count(), 4, "{after}");
    assert_eq!(after.lines().take(2).collect::<Vec<_>>(), lines[..2].to_vec());
    assert!(after.ends_with('\n'));
    // A torn last line is cut away and its game played again.
    std::fs::write(&results, format!("{}\n{}", lines[0], &lines[1][..lines[1].len() / 2])).unwrap();
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--resume", "--threads", "1"]);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(mnklab::arena::read_results(&results).unwrap().len(), 4);

    use std::os::unix::fs::{PermissionsExt, symlink};
    let target = dir.join("real.ron");
    std::fs::write(&target, "old").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.join("link.ron");
    symlink("real.ron", &link).unwrap();
    // A temporary file of a write killed long ago (a process id that cannot be alive).
    let stale = dir.join(".real.ron.4294967.0.tmp");
    std::fs::write(&stale, "half").unwrap();
    mnklab::io::write_atomic(&link, b"new").unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    assert_eq!(std::fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o600);
    assert!(!stale.exists(), "the stale temporary file is removed");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

// 14. gui accepts what the bare command accepts; subcommands refuse --screenshot; column
// games hint at columns; a move after the end names the ply.
#[test]
fn launch_flags_and_move_messages() {
    let o = Command::new(env!("CARGO_BIN_EXE_mnklab"))
        .args(["gui", "--open", "/nonexistent-position.ron"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(!err(&o).contains("unexpected argument"), "{}", err(&o));
    refused(&mnklab(&["count", "--game", "tictactoe", "--plies", "1", "--screenshot", "x.png"]), "--screenshot");
    refused(&mnklab(&["show", "--game", "connect4", "--moves", "z"]), "a move here is a column");
    refused(
        &mnklab(&["show", "--game", "tictactoe", "--moves", "a1 b1 a2 b2 a3 c3"]),
        "would be ply 6, but the game ended at ply 5",
    );
}

#[test]
fn brain_refuses_unbounded_time() {
    let (o, lines) = brain_session(b"START 9\nINFO timeout_turn 99999999999999999\nBEGIN\nEND\n");
    assert!(o.status.success());
    assert_eq!(lines[0], "OK");
    assert!(lines[1].contains(','), "a move, in the clamped time: {lines:?}");
}

// Every file reader reads regular files of bounded size: a device or a pipe named as a file is a
// named error, not an endless read that takes all memory.
#[test]
fn devices_and_pipes_named_as_files_are_refused() {
    for args in [
        &["solve", "--game", "connect4", "--batch", "/dev/zero"][..],
        &["show", "--open", "/dev/zero"],
        &["analyse", "--game", "tictactoe", "--agent", "/dev/zero", "--depth", "1"],
        &["table", "/dev/zero"],
    ] {
        let o = mnklab(args);
        assert_ne!(o.status.code(), Some(0), "{args:?}");
        assert!(!err(&o).contains("panicked"), "{args:?}: {}", err(&o));
        assert!(err(&o).contains("/dev/zero"), "{args:?} names the file: {}", err(&o));
    }
    let d = scratch("fifo");
    let fifo = d.join("agent.ron");
    let made = Command::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false);
    if made {
        refused(
            &mnklab(&["analyse", "--game", "tictactoe", "--agent", fifo.to_str().unwrap(), "--depth", "1"]),
            "not a regular file",
        );
    }
    let big = d.join("big.ron");
    std::fs::write(&big, vec![b' '; (mnklab::io::MAX_CONFIG_BYTES + 1) as usize]).unwrap();
    refused(&mnklab(&["show", "--open", big.to_str().unwrap()]), "bytes is more than");
}

// An external engine that dies closes its pipe: that is a forfeit, never the end of the
// program (restoring SIGPIPE's default for `| head` once killed the whole match here).
#[test]
fn a_crashing_engine_is_a_forfeit_not_the_end_of_the_program() {
    let dir = scratch("crash");
    std::fs::write(
        dir.join("crash.ron"),
        r#"(version: 1, name: "crash", agent: External((command: "/bin/sh", args: ["-c", "read a; echo OK; read b; exit 3"], protocol: Gomocup)))"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("m.ron"),
        r#"(version: 1, name: "m", variants: List(["mnk:9,9,5"]), agents: [(name: Some("crash"), agent: File("crash.ron")), (name: Some("r"), agent: Preset("random"))], pairing: Pairwise, games: 2, limits: Some((time: Some(0.2))), seed: 1)"#,
    )
    .unwrap();
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--allow-external"]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}; stdout: {}", err(&o), out(&o));
    let csv = std::fs::read_to_string(dir.join("o/games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "both games recorded: {csv}");
    assert!(err(&o).contains("forfeit"), "{}", err(&o));
    let o = mnklab_in(
        &dir,
        &["analyse", "--game", "mnk:9,9,5", "--agent", "crash.ron", "--time", "0.2", "--allow-external"],
    );
    assert_ne!(o.status.code(), Some(141), "analyse survives the engine's crash: {}", err(&o));
    assert!(!err(&o).contains("panicked"), "{}", err(&o));
}

// Writing output over a device or a pipe is refused: an atomic rename would replace it.
#[test]
fn outputs_never_replace_a_device_or_pipe() {
    let dir = scratch("devout");
    let fifo = dir.join("fifo");
    if Command::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false) {
        let r = mnklab::io::write_atomic(&fifo, b"x");
        assert!(r.is_err(), "refused");
        assert!(!std::fs::metadata(&fifo).unwrap().is_file(), "the pipe is still a pipe");
    }
    assert!(mnklab::io::write_atomic(Path::new("/dev/null"), b"x").is_err());
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
}

#[test]
fn threads_in_a_matchup_file_are_checked_like_the_flag() {
    let dir = scratch("threads");
    std::fs::write(
        dir.join("m.ron"),
        format!(
            r#"(version: 1, name: "t", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 2, threads: 4294967295)"#
        ),
    )
    .unwrap();
    refused(&mnklab_in(&dir, &["match", "m.ron", "--out", "o"]), "threads: 4294967295 is more than 1024");
}

#[test]
fn negative_numbers_get_the_values_own_message() {
    for (args, needle) in [
        (&["count", "--game", "tictactoe", "--plies", "-1"][..], "'-1' for '--plies"),
        (&["solve", "--game", "connect4", "--tt-mb", "-1"][..], "'-1' for '--tt-mb"),
        (&["bench", "solve", "--batch", "x", "--limit", "-1"][..], "'-1' for '--limit"),
    ] {
        let o = mnklab(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(err(&o).contains(needle) && !err(&o).contains("unexpected argument"), "{args:?}: {}", err(&o));
    }
}

/// An opening that cannot be played (an illegal move, or one that ends the game) once left
/// its games out of the run silently: "0 games", exit 0. It is refused by name.
#[test]
fn an_unplayable_opening_is_refused_by_name() {
    let dir = scratch("opening");
    for (opening, needle) in [
        (r#"List(["a1 a1"])"#, r#"List[0] "a1 a1" cannot open mnk:3,3,3: move 'a1' is illegal"#),
        (r#"List(["b2", "a1 b1 a2 b2 a3"])"#, r#"List[1] "a1 b1 a2 b2 a3" cannot open mnk:3,3,3: the game is over"#),
        ("List([])", "opening: the list is empty"),
    ] {
        std::fs::write(
            dir.join("m.ron"),
            format!(
                r#"(version: 1, name: "t", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 2, opening: {opening})"#
            ),
        )
        .unwrap();
        refused(&mnklab_in(&dir, &["match", "m.ron", "--out", "o"]), needle);
        assert!(!dir.join("o").exists(), "nothing is written for a refused matchup");
    }
}

/// Runs mnklab under `ulimit -v` (KiB): a batch job's or a container's memory limit.
fn mnklab_limited(kib: u64, args: &[&str]) -> Output {
    let script = format!("ulimit -v {kib} && exec \"$0\" \"$@\"");
    Command::new("sh").arg("-c").arg(script).arg(env!("CARGO_BIN_EXE_mnklab")).args(args).output().expect("run sh")
}

/// Under a memory limit below the machine's (`ulimit -v`, a cgroup), a table size is checked
/// against the limit, and a count that would outgrow it stops with an error: both used to
/// abort ("memory allocation failed", exit 134).
#[test]
fn memory_limits_below_the_machines_are_respected() {
    let o = mnklab_limited(1_000_000, &["solve", "--game", "connect:5,4,4", "--tt-mb", "900"]);
    refused(&o, "more than three quarters of the memory this process may use");
    let o = mnklab_limited(1_000_000, &["solve", "--game", "connect:5,4,4", "--tt-mb", "64"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("value draw"), "{}", out(&o));
    let o = mnklab_limited(1_000_000, &["count", "--game", "gomoku", "--plies", "6"]);
    refused(&o, "cannot count this: more than");
    let o = mnklab_limited(1_000_000, &["count", "--game", "gomoku", "--games"]);
    refused(&o, "cannot count this: more than");
    // A count that fits is still exact (tic-tac-toe: 255,168 games).
    let o = mnklab_limited(1_000_000, &["count", "--game", "tictactoe", "--games"]);
    assert_eq!(out(&o).trim(), "games 255168", "{}", err(&o));
}

/// `--screenshot x.jpg` once wrote a PNG under a .jpg name: only .png is accepted. (That a
/// screenshot which cannot be written exits 2 is checked by .ci/screenshot.sh, which has a
/// display.)
#[test]
fn a_screenshot_is_named_as_what_it_is() {
    refused(&mnklab(&["--screenshot", "/tmp/x.jpg"]), "does not end in .png");
    refused(&mnklab(&["gui", "--screenshot", "shot"]), "does not end in .png");
    // --wait is how long a screenshot waits for analyses: alone it would mean nothing.
    refused(&mnklab(&["--wait", "5"]), "--analyse");
    refused(&mnklab(&["--wait", "5", "--analyse"]), "--screenshot");
    refused(&mnklab(&["--wait", "-1", "--analyse", "--screenshot", "x.png"]), "-1");
}

/// A node budget is a budget: alpha-beta once read it every 256 nodes and MCTS every 16
/// iterations, so `--nodes 1000` reported up to a few hundred more, unmarked; the threat
/// probe's nodes (gomoku-ab) once went a few past it.
#[test]
fn node_budgets_are_never_overshot() {
    for (game, agent) in [
        ("gomoku", "strong-ab"),
        ("connect4", "strong-ab"),
        ("gomoku", "gomoku-ab"),
        ("mnk:9,9,5", "gomoku-ab"),
        ("gomoku", "alam-mcts"),
        ("connect4", "alam-mcts"),
    ] {
        for budget in [300u64, 1000, 5000] {
            let o = mnklab(&["analyse", "--game", game, "--agent", agent, "--nodes", &budget.to_string()]);
            assert_eq!(o.status.code(), Some(0), "{}", err(&o));
            let text = out(&o);
            let info = text.lines().rfind(|l| l.starts_with("info ")).expect("an info line");
            let words: Vec<&str> = info.split_whitespace().collect();
            let nodes: u64 = words[words.iter().position(|w| *w == "nodes").unwrap() + 1].parse().unwrap();
            assert!(nodes <= budget, "{game} {agent} --nodes {budget}: {info}");
            assert!(nodes * 2 >= budget || agent == "alam-mcts", "{game} {agent} stopped early: {info}");
        }
    }
}

/// A negative time or memory from the manager was taken as "use the default" without a word.
/// It is an ERROR naming the key; 0 (as fast as possible) still gives a move.
#[test]
fn brain_refuses_negative_times_and_sizes() {
    let (_, lines) = brain_session(
        b"INFO timeout_turn -1\nINFO time_left -100\nINFO max_memory -5\nSTART 9\nINFO timeout_turn 0\nBEGIN\nEND\n",
    );
    assert_eq!(lines[0], "ERROR INFO timeout_turn must be 0 or more, not -1");
    assert_eq!(lines[1], "ERROR INFO time_left must be 0 or more, not -100");
    assert_eq!(lines[2], "ERROR INFO max_memory must be 0 or more, not -5");
    assert_eq!(lines[3], "OK");
    assert!(lines[4].contains(','), "a move at once: {lines:?}");
}

/// Game records read back were trusted: an entrant index past the matchup's, an illegal
/// move or a flipped result in a hand-edited (or mixed-up) results file went into tables,
/// plots and resumed runs. Each is refused, naming the game.
#[test]
fn results_are_checked_against_their_matchup() {
    let dir = scratch("records");
    std::fs::write(
        dir.join("m.ron"),
        format!(r#"(version: 1, name: "t", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 4)"#),
    )
    .unwrap();
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "run", "--games", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let results = dir.join("run/results.ronl");
    let good = std::fs::read_to_string(&results).unwrap();
    let first = good.lines().next().unwrap().to_string();
    let first_move = first.split("mv:\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    let outcome =
        ["FirstWins", "SecondWins", "Draw"].into_iter().find(|o| first.contains(&format!("outcome:{o}"))).unwrap();
    let flipped = if outcome == "Draw" { "FirstWins" } else { "Draw" };
    for (bad, needle) in [
        (first.replacen("players:(0,1)", "players:(0,7)", 1).replacen("players:(1,0)", "players:(7,0)", 1), "entrants"),
        (first.replacen(&format!("mv:\"{first_move}\""), "mv:\"z9\"", 1), "move 1 'z9'"),
        (first.replacen(&format!("outcome:{outcome}"), &format!("outcome:{flipped}"), 1), "the record says"),
        // Names swapped: one agent's wins credited to the other.
        (
            first.replacen(r#"names:("a","b")"#, r#"names:("b","a")"#, 1).replacen(
                r#"names:("b","a")"#,
                r#"names:("a","b")"#,
                usize::from(!first.contains(r#"names:("a","b")"#)),
            ),
            "but the matchup's entrants",
        ),
        // The same game twice (two files joined by hand).
        (format!("{first}\n{first}"), "appears twice"),
    ] {
        assert_ne!(bad, first, "the edit applies");
        std::fs::write(&results, good.replacen(&first, &bad, 1)).unwrap();
        refused(&mnklab_in(&dir, &["table", "run"]), needle);
        refused(&mnklab_in(&dir, &["match", "m.ron", "--out", "run", "--games", "4", "--resume"]), needle);
    }
    std::fs::write(&results, &good).unwrap();
    assert_eq!(mnklab_in(&dir, &["table", "run"]).status.code(), Some(0));
}

/// Small wording that misled: "win in 1 plies", and a negative board size called an unknown
/// game rather than a size out of range.
#[test]
fn words_and_ranges_say_what_they_mean() {
    let o = mnklab(&["solve", "--game", "tictactoe", "--moves", "a1 b1 a2 b2"]);
    assert!(out(&o).starts_with("value win in 1 (score"), "{}", out(&o));
    for game in ["mnk:-1,3,3", "mnk:256,3,3", "connect:7,-6,4"] {
        refused(&mnklab(&["show", "--game", game]), "out of range");
    }
}

/// From the second new-user trial: a BOARD block before START gave one ERROR per line of the
/// block, and `brain | head -1` ended with "error: brain: Broken pipe" (exit 2) where every
/// other command ends quietly.
#[test]
fn brain_gives_one_error_per_command_and_ends_quietly_on_a_closed_pipe() {
    let (_, lines) = brain_session(b"BOARD\n0,0,2\n1,0,2\nDONE\nSTART 9\nEND\n");
    assert_eq!(lines, vec!["ERROR no game: send START first".to_string(), "OK".to_string()]);
    // A reader that goes away after one line.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnklab"))
        .arg("brain")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"START 9\n").unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert_eq!(first.trim(), "OK");
    let _ = stdin.write_all(b"BEGIN\nBEGIN\nBEGIN\n");
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(matches!(o.status.code(), Some(0) | Some(141)), "{:?}", o.status);
    assert!(err(&o).is_empty(), "quiet: {}", err(&o));
}

/// A mistyped output folder was created without a word (`table --out /nonexistent/dir/t.md`
/// wrote there); it is named as missing instead. Runs still create their own output folder.
#[test]
fn a_missing_output_folder_is_named_not_created() {
    let dir = scratch("missing-folder");
    std::fs::write(
        dir.join("m.ron"),
        format!(r#"(version: 1, name: "t", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 2)"#),
    )
    .unwrap();
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "new/run"]);
    assert_eq!(o.status.code(), Some(0), "a run creates its folder: {}", err(&o));
    refused(&mnklab_in(&dir, &["table", "new/run", "--out", "typo/t.md"]), "the folder typo does not exist");
    assert!(!dir.join("typo").exists());
}

/// `solve --time 0.05` on 5,5,4 reported "time ran out after 0.135 s": filling the table was
/// counted against the search's time. The clock starts once the table is ready. (5,5,4 now
/// solves within 0.05 s; boards it cannot finish stand in for it.) mnk:9,9,5 ran 0.46 s when
/// a node's pairing searches did not read the clock; gomoku's nodes are the slowest.
#[test]
fn a_solver_time_limit_is_the_searchs_own() {
    for game in ["mnk:9,9,5", "mnk:8,8,5", "mnk:15,15,5"] {
        let o = mnklab(&["solve", "--game", game, "--time", "0.05"]);
        let text = out(&o);
        let line = text.lines().next().unwrap_or("");
        let secs: f64 = line
            .strip_prefix("time ran out after ")
            .and_then(|r| r.split(' ').next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{game}: {line}"));
        assert!((0.05..0.1).contains(&secs), "{game}: {line}");
    }
}

// ---- Runs that cannot silently go wrong (strict files, budgets that end, results never
// overwritten): one test per finding, each failing before its fix.

/// A limit the agent does not read is refused by name, in analyse, bench, brain and match
/// (`--iterations` on alpha-beta searched on at depth 15; `--depth` on MCTS likewise), and so
/// are matchup limits that set none the agent reads.
#[test]
fn limits_the_agent_ignores_are_refused_everywhere() {
    let dir = scratch("ignored-limits");
    let analyse = |agent: &str, flag: &str, value: &str| {
        mnklab(&["analyse", "--game", "connect4", "--agent", agent, flag, value])
    };
    refused(&analyse("strong-ab", "--iterations", "100"), "`iterations` is not a limit this alpha-beta agent reads");
    refused(&analyse("strong-mcts", "--depth", "3"), "`depth` is not a limit this MCTS agent reads");
    refused(&analyse("solver", "--nodes", "1000"), "`nodes` is not a limit this solver agent reads");
    let o = mnklab(&["bench", "search", "--game", "connect4", "--agent", "strong-mcts", "--depth", "3"]);
    refused(&o, "`depth` is not a limit");
    std::fs::write(dir.join("it.ron"), r#"(name: "it", agent: AlphaBeta(()), limits: (iterations: Some(500)))"#)
        .unwrap();
    refused(&mnklab_in(&dir, &["brain", "--agent", "it.ron"]), "`iterations` is not a limit");
    for (limits, needle) in [
        ("Some(())", "no limit ends the search of this alpha-beta agent"),
        ("Some((iterations: Some(100)))", "`iterations` is not a limit"),
    ] {
        std::fs::write(
            dir.join("m.ron"),
            format!(
                r#"(name: "m", variants: List(["tictactoe"]), agents: [(name: Some("ab"), agent: Preset("strong-ab")), (name: Some("r"), agent: Preset("random"))], pairing: Pairwise, games: 2, limits: {limits})"#
            ),
        )
        .unwrap();
        let o = mnklab_in(&dir, &["match", "m.ron", "--out", "o"]);
        refused(&o, needle);
        assert!(err(&o).contains("agents[0] (ab)"), "{}", err(&o));
    }
}

/// A CPU-time budget on one thread is accepted and recorded; on more threads it is refused
/// (a thread's CPU time is not the team's).
#[test]
fn a_cpu_time_budget_is_one_threads() {
    let o = mnklab(&["analyse", "--game", "connect4", "--agent", "strong-ab", "--cpu-time", "0.05"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("bestmove"), "{}", out(&o));
    let o = mnklab(&["analyse", "--game", "connect4", "--agent", "strong-ab", "--cpu-time", "0.05", "--threads", "2"]);
    refused(&o, "`cpu_time` is not a limit");
    let dir = scratch("cpu-time");
    std::fs::write(
        dir.join("m.ron"),
        r#"(name: "m", variants: List(["tictactoe"]), agents: [(name: Some("ab"), agent: Preset("strong-ab")), (name: Some("r"), agent: Preset("random"))], pairing: Pairwise, games: 2, limits: Some((cpu_time: Some(0.01))))"#,
    )
    .unwrap();
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "o"]);
    assert!(o.status.success(), "{}", err(&o));
    let mut moves = csv::Reader::from_path(dir.join("o/moves.csv")).unwrap();
    let cpu = moves.headers().unwrap().iter().position(|c| c == "cpu_s").expect("a cpu_s column");
    for row in moves.records() {
        let row = row.unwrap();
        let v: f64 = row[cpu].parse().expect("a CPU time on every move");
        assert!((0.0..1.0).contains(&v), "{row:?}");
    }
    let t = mnklab_in(&dir, &["table", "o"]);
    assert!(out(&t).contains("limits CPU time 0.01 s") && out(&t).contains("ab: cpu 0.01 s a move"), "{}", out(&t));
}

/// `merge` never writes over a run: not into an existing run folder, not into one of its
/// own inputs (both replaced the results with exit 0).
#[test]
fn merge_refuses_a_folder_that_holds_results() {
    let dir = scratch("merge-over");
    std::fs::write(
        dir.join("m.ron"),
        format!(r#"(version: 1, name: "m", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 2)"#),
    )
    .unwrap();
    for out_dir in ["a", "b"] {
        assert!(mnklab_in(&dir, &["match", "m.ron", "--out", out_dir]).status.success());
    }
    let before = std::fs::read(dir.join("b/results.ronl")).unwrap();
    refused(&mnklab_in(&dir, &["merge", "a", "--out", "b"]), "already holds results");
    refused(&mnklab_in(&dir, &["merge", "a", "b", "--out", "a"]), "is one of the folders being merged");
    refused(&mnklab_in(&dir, &["merge", "a", "--out", "./a/"]), "is one of the folders being merged");
    assert_eq!(std::fs::read(dir.join("b/results.ronl")).unwrap(), before, "b's results are as they were");
    // Shards played under other conditions are not merged; a merge keeps what was played.
    std::fs::write(
        dir.join("s.ron"),
        format!(r#"(version: 1, name: "s", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 4)"#),
    )
    .unwrap();
    assert!(mnklab_in(&dir, &["match", "s.ron", "--shard", "1/2", "--out", "s"]).status.success());
    assert!(mnklab_in(&dir, &["match", "s.ron", "--shard", "2/2", "--out", "s", "--scale", "0.5"]).status.success());
    refused(&mnklab_in(&dir, &["merge", "s/shard-1-of-2", "s/shard-2-of-2", "--out", "all"]), "--scale was 1, now 0.5");
    assert!(mnklab_in(&dir, &["match", "s.ron", "--shard", "2/2", "--out", "t"]).status.success());
    let o = mnklab_in(&dir, &["merge", "s/shard-1-of-2", "t/shard-2-of-2", "--out", "all"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&mnklab_in(&dir, &["table", "all"])).contains("played with time scale 1"));
    // A run whose conditions are not recorded is not resumed as if they were known.
    std::fs::remove_file(dir.join("a/entrants.ron")).unwrap();
    refused(&mnklab_in(&dir, &["match", "m.ron", "--out", "a", "--resume"]), "no entrants.ron");
}

/// `table --out` and `plot --out` never write over a run's own files (even with --force), nor
/// over a file they did not write without --force.
#[test]
fn outputs_never_replace_a_runs_files_or_a_users() {
    let dir = scratch("outputs");
    std::fs::write(
        dir.join("m.ron"),
        format!(r#"(version: 1, name: "m", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 4)"#),
    )
    .unwrap();
    assert!(mnklab_in(&dir, &["match", "m.ron", "--out", "run"]).status.success());
    let files: Vec<(String, Vec<u8>)> = ["results.ronl", "games.csv", "moves.csv", "matchup.ron", "entrants.ron"]
        .iter()
        .map(|f| (f.to_string(), std::fs::read(dir.join("run").join(f)).unwrap()))
        .collect();
    for force in [false, true] {
        let f: &[&str] = if force { &["--force"] } else { &[] };
        for target in ["run/results.ronl", "run/games.csv", "run/matchup.ron"] {
            let o = mnklab_in(&dir, &[&["table", "run", "--out", target][..], f].concat());
            refused(&o, "the run's own");
        }
        // The plot's CSV would be games.csv.
        let o = mnklab_in(&dir, &[&["plot", "run", "--kind", "bar", "--out", "run/games.png"][..], f].concat());
        refused(&o, "the run's own games.csv");
    }
    for (name, bytes) in &files {
        assert_eq!(&std::fs::read(dir.join("run").join(name)).unwrap(), bytes, "{name} unchanged");
    }
    // A user's data.csv beside a plot's data.png.
    std::fs::write(dir.join("data.csv"), "mine").unwrap();
    refused(&mnklab_in(&dir, &["plot", "run", "--kind", "bar", "--out", "data.png"]), "data.csv exists: add --force");
    assert_eq!(std::fs::read_to_string(dir.join("data.csv")).unwrap(), "mine");
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    refused(&mnklab_in(&dir, &["table", "run", "--out", "notes.txt"]), "notes.txt exists: add --force");
    let o = mnklab_in(&dir, &["table", "run", "--out", "notes.txt", "--force"]);
    assert!(o.status.success(), "{}", err(&o));
    // The same table again holds the same bytes: nothing to lose, so no --force.
    let o = mnklab_in(&dir, &["table", "run", "--out", "notes.txt"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(std::fs::read_to_string(dir.join("notes.txt")).unwrap().contains("random"));
    let o = mnklab_in(&dir, &["plot", "run", "--kind", "bar", "--out", "fig.svg"]);
    assert!(o.status.success(), "{}", err(&o));
    // A figure for a paper: no title drawn, the suggested caption printed; --title draws one.
    let caption = String::from_utf8_lossy(&o.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("caption (not drawn; --title draws one): ").map(str::to_string));
    let caption = caption.expect("a caption printed");
    let svg = std::fs::read_to_string(dir.join("fig.svg")).unwrap();
    assert!(!caption.is_empty() && !svg.contains(&caption), "{caption}");
    let o = mnklab_in(&dir, &["plot", "run", "--kind", "bar", "--title", "Wins by agent", "--out", "titled.svg"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(std::fs::read_to_string(dir.join("titled.svg")).unwrap().contains("Wins by agent"));
    // The same figure as a PNG writes the same fig.csv: nothing to lose, so no --force.
    let o = mnklab_in(&dir, &["plot", "run", "--kind", "bar", "--out", "fig.png"]);
    assert!(o.status.success(), "{}", err(&o));
    // Another figure's data is not the same CSV: refused, as the user's own file was.
    refused(&mnklab_in(&dir, &["plot", "run", "--kind", "pie", "--out", "fig.pdf"]), "fig.csv exists: add --force");
    assert!(!dir.join("fig.pdf").exists());
}

/// `--resume` refuses games played under other conditions, naming the difference: another
/// `--scale`, or an agent file edited between the runs; `table` shows what was played.
#[test]
fn resume_refuses_changed_conditions_and_table_shows_them() {
    let dir = scratch("resume-conditions");
    std::fs::write(dir.join("ab.ron"), r#"(name: "ab", agent: AlphaBeta((tt_mb: 1)), limits: (time: Some(0.02)))"#)
        .unwrap();
    std::fs::write(
        dir.join("m.ron"),
        r#"(version: 1, name: "m", variants: List(["tictactoe"]), agents: [(agent: File("ab.ron")), (agent: Preset("random"))], pairing: Pairwise, games: 8, seed: 1)"#,
    )
    .unwrap();
    assert!(mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--games", "2"]).status.success());
    // --games is part of the matchup: resume with the same, other --scale.
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--games", "2", "--resume", "--scale", "0.5"]);
    refused(&o, "--scale was 1, now 0.5");
    std::fs::write(dir.join("ab.ron"), r#"(name: "ab", agent: AlphaBeta((tt_mb: 2)), limits: (time: Some(0.02)))"#)
        .unwrap();
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--games", "2", "--resume"]);
    refused(&o, "agents[0] (ab): its agent changed (then `tt_mb: 1,`, now `tt_mb: 2,`)");
    let o = mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--games", "4", "--resume"]);
    refused(&o, "a different matchup (then `games: 2,`, now `games: 4,`)");
    let t = mnklab_in(&dir, &["table", "o"]);
    assert!(out(&t).contains("played with time scale 1"), "{}", out(&t));
    assert!(out(&t).contains("ab: alpha-beta agent, config ") && out(&t).contains("limits time 0.02 s"), "{}", out(&t));
}

/// Matchups that would play nothing, or mislabel what they play, are refused by name.
#[test]
fn matchups_that_play_nothing_or_mislabel_are_refused() {
    let dir = scratch("matchup-checks");
    let run = |agents: &str, rest: &str| {
        std::fs::write(
            dir.join("m.ron"),
            format!(r#"(name: "m", variants: List(["tictactoe"]), agents: [{agents}], games: 2, seed: 1, {rest})"#),
        )
        .unwrap();
        mnklab_in(&dir, &["match", "m.ron", "--out", "o"])
    };
    let two = r#"(name: Some("a"), agent: Preset("random")), (name: Some("b"), agent: Preset("random"))"#;
    refused(&run(two, "pairing: Between([], [1])"), "pairs no two different agents");
    refused(&run(two, "pairing: Between([1], [1])"), "pairs no two different agents");
    refused(
        &run(r#"(agent: Preset("random")), (agent: Preset("random"))"#, "pairing: Pairwise"),
        "both named \"random\"",
    );
    refused(
        &run(r#"(name: Some("a\nb"), agent: Preset("random")), (agent: Preset("strong-ab"))"#, "pairing: Pairwise"),
        "no line breaks",
    );
    refused(&run(two, "pairing: Pairwise, opening: RandomPlies(100)"), "RandomPlies(100) on mnk:3,3,3");
    refused(&run(two, "pairing: Pairwise, opening: RandomPlies(9)"), "would leave the agents no move");
    std::fs::write(
        dir.join("m.ron"),
        r#"(name: "m", variants: List(["tictactoe"]), agents: [(name: Some("a"), agent: Preset("random")), (name: Some("b"), agent: Preset("random"))], pairing: Pairwise, games: 3, opening: RandomPlies(2))"#,
    )
    .unwrap();
    refused(&mnklab_in(&dir, &["match", "m.ron", "--out", "o"]), "games: 3 is odd");
    // --games is checked as the file's games is.
    std::fs::write(
        dir.join("m.ron"),
        r#"(name: "m", variants: List(["tictactoe"]), agents: [(name: Some("a"), agent: Preset("random")), (name: Some("b"), agent: Preset("random"))], pairing: Pairwise, games: 4, opening: RandomPlies(2))"#,
    )
    .unwrap();
    refused(&mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--games", "3"]), "--games: games: 3 is odd");
    // A time --scale makes too short is refused, naming the entrant.
    std::fs::write(
        dir.join("m.ron"),
        r#"(name: "m", variants: List(["tictactoe"]), agents: [(name: Some("a"), agent: Preset("strong-ab")), (name: Some("b"), agent: Preset("random"))], pairing: Pairwise, games: 2, limits: Some((time: Some(0.05))))"#,
    )
    .unwrap();
    refused(
        &mnklab_in(&dir, &["match", "m.ron", "--out", "o", "--scale", "1e-9"]),
        "agents[0] (a) with --scale 0.000000001",
    );
    assert!(!dir.join("o").exists(), "a refused run writes nothing");
}

/// Random openings are paired: each is played with both colour orders, and an opening never
/// ends the game (one stopped short exactly where a random move won).
#[test]
fn random_openings_are_played_with_both_colours() {
    use mnklab::arena::{Matchup, RunOptions, run_matchup};
    let text = r#"(name: "m", variants: List(["tictactoe", "mnk:4,4,3"]), agents: [(name: Some("a"), agent: Preset("random")), (name: Some("b"), agent: Preset("random"))],
                   pairing: Pairwise, games: 40, seed: 5, opening: RandomPlies(6))"#;
    let m = Matchup::parse(text, "m.ron".as_ref()).unwrap();
    let dir = scratch("paired-openings");
    let opts = RunOptions { threads: 2, out: dir.join("o"), resume: false, scale: 1.0, games: None, shard: None };
    let games = run_matchup(&m, &dir, &opts, &mnklab::search::SearchControl::new(), |_| {}).unwrap();
    assert_eq!(games.len(), 80);
    for pair in games.chunks(2) {
        let (g, h) = (&pair[0], &pair[1]);
        assert_eq!((g.index % 2, h.index), (0, g.index + 1));
        assert_eq!(g.opening, h.opening, "games {} and {} share their opening", g.index, h.index);
        assert_eq!(g.players, [h.players[1], h.players[0]], "with the colours swapped");
        assert_eq!(g.opening.len(), 6, "six random plies, none ending the game");
    }
    let distinct: std::collections::HashSet<_> = games.iter().map(|g| g.opening.clone()).collect();
    assert!(distinct.len() >= 30, "{} distinct openings", distinct.len());
}

/// `book --out LINK` keeps the link and replaces its target (it once replaced the link).
#[test]
fn a_book_written_to_a_symlink_keeps_the_link() {
    let dir = scratch("book-link");
    std::os::unix::fs::symlink("real.book", dir.join("link.book")).unwrap();
    let o = mnklab_in(&dir, &["book", "--game", "connect:4,4,3", "--depth", "2", "--out", "link.book"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(std::fs::symlink_metadata(dir.join("link.book")).unwrap().file_type().is_symlink(), "still a link");
    assert!(mnklab::search::solver::Book::is_book_file(&dir.join("real.book")), "the target is the book");
}

/// A NaN time in a hand-edited results file: `table` answers (it panicked sorting it), and a
/// run folder's check names the game.
#[test]
fn a_nan_time_in_results_is_named_not_a_panic() {
    let dir = scratch("nan-time");
    std::fs::write(
        dir.join("m.ron"),
        format!(r#"(version: 1, name: "m", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 2)"#),
    )
    .unwrap();
    assert!(mnklab_in(&dir, &["match", "m.ron", "--out", "o"]).status.success());
    let results = std::fs::read_to_string(dir.join("o/results.ronl")).unwrap();
    let first_time = results.find("time:").unwrap();
    let end = first_time + results[first_time..].find(',').unwrap();
    let edited = format!("{}time:NaN{}", &results[..first_time], &results[end..]);
    std::fs::write(dir.join("o/results.ronl"), &edited).unwrap();
    refused(&mnklab_in(&dir, &["table", "o"]), "seconds, which is not a time");
    // Without its matchup (no check), the table is still made.
    std::fs::create_dir(dir.join("bare")).unwrap();
    std::fs::write(dir.join("bare/results.ronl"), &edited).unwrap();
    let o = mnklab_in(&dir, &["table", "bare/results.ronl"]);
    assert!(o.status.success(), "{}", err(&o));
    // A CPU time that is not one, likewise.
    let first_cpu = results.find("cpu:Some(").unwrap() + "cpu:Some(".len();
    let end = first_cpu + results[first_cpu..].find(')').unwrap();
    std::fs::write(dir.join("o/results.ronl"), format!("{}NaN{}", &results[..first_cpu], &results[end..])).unwrap();
    refused(&mnklab_in(&dir, &["table", "o"]), "CPU seconds, which is not a time");
}

/// `plot --bins` out of range is refused, and a count it cannot keep is said.
#[test]
fn histogram_bins_are_checked() {
    let dir = scratch("bins");
    std::fs::write(
        dir.join("m.ron"),
        format!(r#"(version: 1, name: "m", variants: List(["tictactoe"]), {TWO_RANDOMS}, games: 6)"#),
    )
    .unwrap();
    assert!(mnklab_in(&dir, &["match", "m.ron", "--out", "o"]).status.success());
    for bins in ["0", "1000000000", "-1"] {
        refused(
            &mnklab_in(&dir, &["plot", "o", "--kind", "hist", "--metric", "length", "--bins", bins, "--out", "h.svg"]),
            "not a number of bins from 1 to 1000",
        );
    }
    refused(
        &mnklab_in(&dir, &["plot", "o", "--kind", "bar", "--bins", "5", "--out", "b.svg"]),
        "--bins applies to histograms",
    );
    let o = mnklab_in(&dir, &["plot", "o", "--kind", "hist", "--metric", "length", "--bins", "1000", "--out", "h.svg"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("--bins 1000: whole-number data"), "{}", out(&o));
}

/// `count --games` on a big board says up front what it is in for, and shows progress.
#[test]
fn a_huge_count_warns_before_it_starts() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnklab"))
        .args(["count", "--game", "gomoku", "--games"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut first).unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(first.contains("memoises every position") && first.contains("MiB"), "{first}");
    let o = mnklab(&["count", "--game", "tictactoe", "--games"]);
    assert_eq!(out(&o).trim(), "games 255168");
    assert!(err(&o).is_empty(), "no warning for a small board: {}", err(&o));
}
