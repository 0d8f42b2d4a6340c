//! The command line as a user runs it.

use std::process::{Command, Output};

use crate::scratch::Scratch;

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
        // The window's agents are loaded before it opens: a bad name is a terminal error.
        (&["--agent-a", "nonsense", "--screenshot", "/tmp/never.png"][..], "--agent-a: unknown agent 'nonsense'"),
        (&["--agent-b", "/nonexistent/agent.ron"][..], "--agent-b"),
        // So is the window's position given by moves.
        (&["--game", "connect4", "--moves", "4444444", "--screenshot", "/tmp/never.png"][..], "--moves: "),
        (&["--moves", "44"][..], "--game"),
        (&["--game", "connect4", "--open", "/nonexistent.ron"][..], "cannot be used with"),
        // And a file to open that cannot be read (a screenshot run exited 0).
        (&["--open", "/nonexistent.ron", "--screenshot", "/tmp/never.png"][..], "--open /nonexistent.ron: "),
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

fn data(name: &str) -> String {
    format!("{}/tests/data/connect4/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn solve_prints_value_distance_and_move() {
    let o = mnklab(&["solve", "--game", "tictactoe"]);
    assert!(o.status.success());
    let s = stdout(&o);
    assert!(s.starts_with("value draw (score 0)\nbestmove "), "{s}");
    let o = mnklab(&["solve", "--game", "connect4", "--moves", "67152117737262713366376314254"]);
    assert!(stdout(&o).starts_with("value win in 3 (score 6)"), "{}", stdout(&o));
    let o = mnklab(&["solve", "--game", "mnk:4,4,3", "--weak"]);
    assert!(stdout(&o).starts_with("value win (score 1, weak)"), "{}", stdout(&o));
    let o = mnklab(&["solve", "--game", "mnk:7,7,5", "--time", "0.2"]);
    assert!(stdout(&o).starts_with("time ran out after"), "{}", stdout(&o));
    let o = mnklab(&["solve", "--game", "connect3d"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("connect3d is not solvable"));
}

/// `solve --check` re-proves a draw explicitly as "neither side can make a line", says so for
/// wins and losses (not checked), and is refused where it cannot check rather than ignored.
#[test]
fn solve_check_proves_draws_again_and_refuses_what_it_cannot_check() {
    let o = mnklab(&["solve", "--game", "mnk:6,6,5", "--weak", "--check"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = stdout(&o);
    assert!(s.starts_with("value draw (score 0, weak)"), "{s}");
    for side in ["first", "second"] {
        assert!(s.contains(&format!("check: the {side} player cannot make a line: proof of ")), "{s}");
    }
    // Wins are not checked (mnk:6,6,4's loser-side proof grew past 1.2 GB), and it says so.
    for game in ["mnk:4,4,3", "mnk:6,6,4"] {
        let o = mnklab(&["solve", "--game", game, "--weak", "--check"]);
        let s = stdout(&o);
        assert!(o.status.success() && s.contains("check: only draws are checked"), "{game}: {s}");
        assert!(!s.contains("cannot make a line"), "{s}");
    }
    // The ablation: the same value without pairings, in more nodes where they cut.
    let nodes = |o: &Output| -> u64 {
        let s = stdout(o);
        let line = s.lines().find(|l| l.starts_with("nodes ")).unwrap_or_else(|| panic!("{s}"));
        line.split(' ').nth(1).unwrap().parse().unwrap()
    };
    let with = mnklab(&["solve", "--game", "mnk:5,5,4", "--weak"]);
    let without = mnklab(&["solve", "--game", "mnk:5,5,4", "--weak", "--no-pairings"]);
    assert!(stdout(&without).starts_with("value draw (score 0, weak)"), "{}", stdout(&without));
    assert!(nodes(&without) > nodes(&with), "{} / {}", stdout(&with), stdout(&without));
    for (args, needle) in [
        (&["solve", "--game", "connect:5,4,4", "--check"][..], "needs free placement"),
        (&["solve", "--game", "mnk:4,4,4", "--method", "pns", "--check"][..], "leave out --method"),
        (
            &["solve", "--game", "mnk:7,7,5", "--time", "0.05", "--check"][..],
            "the time ran out before the value was proved",
        ),
        (&["solve", "--game", "mnk:4,4,3", "--moves", "a1 a2 b1 b2 c1", "--check"][..], "the game is over"),
        // --time bounds the solve and the check together: 7,7,5's first-player check takes
        // about 10 s, the solve under 1 s (5 s leaves the solve room on a loaded machine).
        (
            &["solve", "--game", "mnk:7,7,5", "--weak", "--time", "5", "--check"][..],
            "check not finished for the first player",
        ),
        (&["solve", "--game", "connect4", "--no-pairings"][..], "never uses pairings"),
        (&["solve", "--game", "mnk:12,11,5", "--time", "0.1", "--no-pairings"][..], "more than 128 cells"),
        (
            &["solve", "--game", "mnk:4,4,4", "--batch", "x.txt", "--no-pairings"][..],
            "cannot be used with '--no-pairings'",
        ),
        (&["solve", "--game", "connect4", "--batch", "x.txt", "--book", "x.book"][..], "cannot be used with '--book"),
    ] {
        let o = mnklab(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(needle), "{args:?}: {err}");
    }
    // A book of depth 0 would be a whole solve of the empty board (a minute on Connect-4).
    let dir = Scratch::new("cli-book-out");
    let out = dir.join("depth0.book");
    let o = mnklab(&["book", "--game", "connect4", "--depth", "0", "--out", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--depth 0: ") && err.contains("give 1 or more"), "{err}");
    assert!(!out.exists());
    let o = mnklab(&["book", "--game", "connect4", "--depth", "99", "--out", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("1 to 20 stones"), "{err}");
    // The book is never written over a build's journal (its values are the build's hours).
    let journal = dir.join("a-journal.book.journal");
    let text = "mnklab book journal 1 connect:5,4,4 depth 3\n2400 0\n";
    std::fs::write(&journal, text).unwrap();
    let other = dir.join("not-yet.book");
    // Nor over any file that is not a book (a typo in --out).
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "precious notes\n").unwrap();
    for (out_path, extra, says) in [
        (&journal, None, "that is a book build's journal, not overwritten"),
        (&other, Some(&other), "the same file as the build's journal"),
        (&notes, None, "the file exists and is not an mnklab book, so it is not overwritten"),
    ] {
        let mut args = vec!["book", "--game", "connect:5,4,4", "--depth", "3", "--out", out_path.to_str().unwrap()];
        if let Some(j) = extra {
            args.extend(["--journal", j.to_str().unwrap()]);
        }
        let o = mnklab(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(says), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), text, "the journal is as it was");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "precious notes\n");
    assert!(!other.exists());
}

/// The table is reported as configured, and a batch uses the 8 MiB default on every line.
#[test]
fn solve_reports_its_table_as_configured() {
    for (mb, says) in [("1", "table 1 MiB"), ("256", "table 256 MiB"), ("48", "table 48 MiB")] {
        // The generic solver (12-byte entries) and the Connect-X one (16-byte buckets).
        for game in ["mnk:4,4,4", "connect:5,4,4"] {
            let o = mnklab(&["solve", "--game", game, "--weak", "--tt-mb", mb]);
            assert!(stdout(&o).trim_end().ends_with(says), "{game} --tt-mb {mb}: {}", stdout(&o));
        }
    }
    let o = mnklab(&["solve", "--game", "connect:5,4,4", "--weak"]);
    assert!(stdout(&o).trim_end().ends_with("table 8 MiB"), "{}", stdout(&o));
    let dir = Scratch::new("cli-batch-table");
    let path = dir.join("positions.txt");
    std::fs::write(&path, "1\n1\n").unwrap();
    let o = mnklab(&["solve", "--game", "connect:6,5,4", "--weak", "--batch", path.to_str().unwrap()]);
    assert!(stdout(&o).contains("table 8 MiB"), "{}", stdout(&o));
    let o = mnklab(&["solve", "--game", "connect:6,5,4", "--weak", "--tt-mb", "4", "--batch", path.to_str().unwrap()]);
    assert!(stdout(&o).contains("table 4 MiB"), "{}", stdout(&o));
}

#[test]
fn solve_batch_reproduces_pons_format() {
    let text = std::fs::read_to_string(data("Test_L3_R1")).unwrap();
    let first: String = text.lines().take(20).map(|l| format!("{l}\n")).collect();
    let dir = Scratch::new("cli-batch");
    let path = dir.join("positions.txt");
    std::fs::write(&path, &first).unwrap();
    let o = mnklab(&["solve", "--game", "connect4", "--batch", path.to_str().unwrap()]);
    assert!(o.status.success());
    let s = stdout(&o);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 22);
    assert_eq!(lines[..20].join("\n") + "\n", first);
    assert!(lines[20].starts_with("solved 20 positions, mean "), "{}", lines[20]);
    assert_eq!(lines[21], "all 20 scores agree with the file");
    let o = mnklab(&["solve", "--game", "connect4", "--weak", "--batch", path.to_str().unwrap()]);
    for (got, want) in stdout(&o).lines().zip(first.lines()) {
        let sign = |l: &str| l.split_whitespace().nth(1).unwrap().parse::<i32>().unwrap().signum();
        assert_eq!(got.split_whitespace().nth(1).unwrap().parse::<i32>().unwrap(), sign(want), "{want}");
    }
    let o = mnklab(&["bench", "solve", "--batch", path.to_str().unwrap()]);
    let out = stdout(&o);
    let tail: Vec<&str> = out.lines().rev().take(2).collect();
    assert!(tail[1].starts_with("mean_us ") && tail[0].starts_with("mean_nodes "), "{out}");
    // Several files at once (`--batch Test_*`), each checked against its scores.
    let (l3, l2) = (data("Test_L3_R1"), data("Test_L2_R1"));
    let o = mnklab(&["bench", "solve", "--limit", "10", "--batch", &l3, &l2]);
    let s = stdout(&o);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(s.matches("all 10 scores agree with the file").count(), 2, "{s}");
    // A wrong score in the file is found and named, with its line; --moves cannot prefix lines.
    let wrong = first.replacen(" -1\n", " 5\n", 1);
    assert_ne!(wrong, first);
    std::fs::write(&path, &wrong).unwrap();
    let o = mnklab(&["solve", "--game", "connect4", "--batch", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(e.contains("1 of 20 solved values differ from the file's") && e.contains("the file says 5"), "{e}");
    let o = mnklab(&["solve", "--game", "connect4", "--moves", "44", "--batch", path.to_str().unwrap()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("'--moves <MOVES>' cannot be used with '--batch"), "a prefix is refused: {e}");
    std::fs::write(&path, "4444444 0\n").unwrap();
    let o = mnklab(&["solve", "--game", "connect4", "--batch", path.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stderr).contains(":1: "), "the line number is named");
}

#[test]
fn analyse_streams_progress_and_ends_with_the_move() {
    let o = mnklab(&["analyse", "--game", "connect4", "--moves", "4455", "--agent", "strong-ab", "--depth", "6"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = stdout(&o);
    let lines: Vec<&str> = s.lines().collect();
    assert!(lines.len() >= 2 && lines[..lines.len() - 1].iter().all(|l| l.starts_with("info ")), "{s}");
    let last = lines.last().unwrap();
    assert!(last == &"bestmove c score win in 3" || last == &"bestmove f score win in 3", "{last}");
    assert_eq!(lines[0], "info string scores for the first player (to move)", "whose view the scores are");
    assert!(lines[1].contains(" nps "), "alpha-beta counts nodes: {}", lines[1]);
    let o = mnklab(&["analyse", "--game", "connect4", "--agent", "jeng-mcts", "--iterations", "2000"]);
    let s = stdout(&o);
    assert!(
        s.lines().filter(|l| l.starts_with("info iterations")).all(|l| l.contains(" ips ")),
        "MCTS counts iterations: {s}"
    );
    // A book's answer searched nothing: nodes 0 and no rate (not "nps 0", a stalled search).
    let o = mnklab(&["analyse", "--game", "connect4", "--moves", "44", "--agent", "solver"]);
    let s = stdout(&o);
    assert!(s.contains("from the built-in book"), "{s}");
    let proof = s.lines().find(|l| l.starts_with("info proof")).unwrap_or_else(|| panic!("{s}"));
    assert!(proof.contains(" nodes 0 ") && !proof.contains(" nps ") && !proof.contains(" threads "), "{proof}");
    assert_eq!(
        s.lines().filter(|l| l.starts_with("info proof")).count(),
        1,
        "said once, not again with a later time: {s}"
    );
    let o = mnklab(&["analyse", "--game", "connect4", "--moves", "52753311433677442422121", "--agent", "solver"]);
    let s = stdout(&o);
    assert!(
        s.lines().filter(|l| l.starts_with("info proof")).all(|l| l.contains(" nps ")),
        "a searched proof keeps its rate: {s}"
    );
    let o = mnklab(&["analyse", "--game", "connect4", "--agent", "nonsense"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown agent 'nonsense'"));
    let o = mnklab(&["bench", "search", "--game", "connect4", "--agent", "jeng-mcts", "--seconds", "0.3"]);
    assert!(stdout(&o).lines().last().unwrap().starts_with("iterations_per_second "));
    // MCTS on a shared tree from the command line; a bad parallelism or a non-MCTS agent is
    // refused by name.
    let o = mnklab(&[
        "analyse",
        "--game",
        "connect4",
        "--moves",
        "4455",
        "--agent",
        "jeng-mcts",
        "--iterations",
        "20000",
        "--threads",
        "2",
        "--parallel",
        "tree:2",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let last = stdout(&o).lines().last().unwrap().to_string();
    assert!(last.starts_with("bestmove c ") || last.starts_with("bestmove f "), "{last}");
    for (args, needle) in [
        (&["--agent", "jeng-mcts", "--parallel", "tree:0"][..], "not a parallelism"),
        (&["--agent", "jeng-mcts", "--parallel", "leaf"][..], "not a parallelism"),
        (&["--agent", "strong-ab", "--parallel", "tree"][..], "only MCTS"),
    ] {
        let mut all = vec!["analyse", "--game", "connect4", "--iterations", "10"];
        all.extend_from_slice(args);
        let o = mnklab(&all);
        assert!(!o.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// `--against` runs a reference program alternately with the measurement and prints the
/// same-run ratios; a reference that prints no rate, or cannot run, is a clear error.
#[test]
fn bench_against_a_reference_prints_same_run_ratios() {
    let o = mnklab(&[
        "bench",
        "playouts",
        "--game",
        "tictactoe",
        "--seconds",
        "0.05",
        "--rounds",
        "2",
        "--against",
        "echo playouts_per_second 1000",
    ]);
    let s = stdout(&o);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(s.matches("round ").count(), 2, "{s}");
    assert!(s.contains("round 1: reference 1000/s"), "{s}");
    let median: f64 = s.lines().find_map(|l| l.strip_prefix("median_ratio ")).unwrap().parse().unwrap();
    // Tic-tac-toe playouts run far above 1000 a second.
    assert!(median > 100.0, "{s}");
    for (reference, needle) in [("true", "printed no"), ("/nonexistent/program", "cannot run")] {
        let o = mnklab(&["bench", "playouts", "--game", "tictactoe", "--seconds", "0.05", "--against", reference]);
        assert!(!o.status.success());
        assert!(String::from_utf8_lossy(&o.stderr).contains(needle), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

/// The lines of a Markdown file's `sh` code blocks, comments after `  #` cut off.
fn shell_lines(markdown: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in markdown.lines() {
        match line.trim() {
            "```sh" => inside = true,
            "```" => inside = false,
            l if inside => lines.push(l.split("  #").next().unwrap_or("").trim().to_string()),
            _ => {}
        }
    }
    lines
}

/// Every command of the README's quick start runs as written, from the repository's files:
/// each `mnklab` line in order (so `table` and `plot` read the folder `match` wrote) in a
/// scratch folder that sees the repository's `saves/` and `assets/`, and each `cargo run` line opens a
/// position file that loads (CI opens the same window under Xvfb).
#[test]
fn every_readme_command_runs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let dir = Scratch::new("readme-commands");
    for shipped in ["saves", "assets"] {
        std::os::unix::fs::symlink(root.join(shipped), dir.join(shipped)).unwrap();
    }
    let (mut ran, mut windows) = (0, 0);
    for line in shell_lines(&readme) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(
            !line.contains(['"', '\'']),
            "quote-free commands only, so that this test reads them as a shell does: {line}"
        );
        match words.as_slice() {
            ["mnklab", args @ ..] => {
                let o = Command::new(env!("CARGO_BIN_EXE_mnklab")).args(args).current_dir(&dir).output().unwrap();
                assert!(o.status.success(), "`{line}` failed: {}", String::from_utf8_lossy(&o.stderr));
                assert!(!o.stdout.is_empty(), "`{line}` printed nothing");
                ran += 1;
            }
            ["cargo", "run", "--release", "--", args @ ..] => {
                let file = args.iter().position(|a| *a == "--open").map(|i| args[i + 1]).expect("a position to open");
                mnklab::io::load_position(&root.join(file)).unwrap_or_else(|e| panic!("`{line}`: {e}"));
                windows += 1;
            }
            ["cargo", ..] => {}
            other => panic!("a command this test does not know: {other:?}"),
        }
    }
    assert!(ran >= 7 && windows >= 2, "{ran} commands run, {windows} windows");
    let figures = dir.join("out");
    assert!(
        figures.join("heuristics.svg").is_file() && figures.join("heuristics.csv").is_file(),
        "the figure and its CSV"
    );
    let s = stdout(&mnklab(&["solve", "--game", "connect4", "--moves", "4453"]));
    assert!(s.starts_with("value "), "{s}");
}

/// The figure examples in the README and docs/ plot the folder their `mnklab match` line
/// writes: `out/` and the matchup's name (the default output folder), for a matchup shipped
/// in the repository.
#[test]
fn the_docs_plot_the_folder_match_writes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    let docs = std::fs::read_dir(root.join("docs")).unwrap().flatten().map(|e| e.path());
    for file in docs.chain([root.join("README.md")]).filter(|p| p.extension().is_some_and(|x| x == "md")) {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(rest) = line.trim().strip_prefix("mnklab plot out/") else { continue };
            let folder = rest.split_whitespace().next().unwrap();
            // The match line that wrote it comes first, in the same example (a few paragraphs
            // up at most).
            let run = lines[..i]
                .iter()
                .rev()
                .take(30)
                .find_map(|l| l.trim().strip_prefix("mnklab match ").and_then(|r| r.split_whitespace().next()))
                .unwrap_or_else(|| panic!("{}: no `mnklab match` line before `{line}`", file.display()));
            let matchup = mnklab::arena::Matchup::load(&root.join(run)).unwrap();
            assert_eq!(folder, matchup.name, "`{line}` reads out/{folder}, but {run} writes out/{}", matchup.name);
            checked += 1;
        }
    }
    assert!(checked >= 2, "the README and docs have plot examples");
}

/// A matchup with an SPRT is refused for a shard (each shard would stop its own test and the
/// shards could never be merged), with the reason.
#[test]
fn an_sprt_matchup_is_not_sharded() {
    let dir = Scratch::new("sprt-shard");
    let file = dir.join("m.ron");
    std::fs::write(
        &file,
        r#"(name: "s", variants: List(["tictactoe"]), agents: [(name: Some("a"), agent: Preset("random")), (name: Some("b"), agent: Preset("random"))],
            pairing: Pairwise, games: 10, sprt: Some((elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05)))"#,
    )
    .unwrap();
    let out = dir.join("out");
    let o = mnklab(&["match", file.to_str().unwrap(), "--shard", "1/2", "--out", out.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("SPRT cannot be split into shards"), "{err}");
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn book_and_proof_number_search_from_the_command_line() {
    let dir = Scratch::new("cli-book");
    let path = dir.join("c544.book");
    let p = path.to_str().unwrap();
    let o = mnklab(&["book", "--game", "connect:5,4,4", "--depth", "4", "--out", p, "--tt-mb", "8"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("to depth 4"), "{}", stdout(&o));
    let with = stdout(&mnklab(&["solve", "--game", "connect:5,4,4", "--moves", "33", "--book", p]));
    let without = stdout(&mnklab(&["solve", "--game", "connect:5,4,4", "--moves", "33"]));
    assert!(with.contains("from the book"), "{with}");
    assert_eq!(with.lines().next(), without.lines().next(), "the same value");
    // At the book's depth the book has the value, not the moves': a best move is proved, and
    // it keeps the value (the position after it is worth the negated score to the opponent).
    let with = stdout(&mnklab(&["solve", "--game", "connect:5,4,4", "--moves", "3324", "--book", p]));
    assert!(
        with.contains("from the book") && with.contains("checked: a move keeping it proved, none better"),
        "{with}"
    );
    let score = |out: &str| -> i32 {
        let v = out.split("(score ").nth(1).expect("a score");
        v[..v.find([')', ',']).unwrap()].parse().unwrap()
    };
    let best = with.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a best move").to_string();
    // `--moves` takes Pons' column digits; the best move is printed as a column letter.
    let column = (best.as_bytes()[0] - b'a' + 1).to_string();
    let after = stdout(&mnklab(&["solve", "--game", "connect:5,4,4", "--moves", &format!("3324{column}")]));
    assert_eq!(score(&after), -score(&with), "{with}\n{after}");
    // A value at the book's depth one better than the truth (edited, checksum resealed): no
    // move keeps it, which every move's search to its end shows, so the book is not used
    // there and the position is searched (it once printed the book's value beside "the book
    // is wrong", and called a right value wrong where every move loses at once).
    use mnklab::game::Position as _;
    let wrong = dir.join("wrong.book");
    let mut bytes = std::fs::read(&path).unwrap();
    let mut g =
        mnklab::game::Grid::<u64, true>::new("connect:5,4,4".parse::<mnklab::game::Variant>().unwrap().grid().unwrap());
    g.play_sequence("3324").unwrap();
    let key = mnklab::search::solver::book_key(&g);
    let at = (0..bytes.len() - 12)
        .find(|&i| bytes[i..i + 8] == key.to_le_bytes() && (bytes.len() - 4 - i).is_multiple_of(9))
        .expect("the position's entry");
    bytes[at + 8] = (bytes[at + 8] as i8 + 1) as u8;
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&wrong, &bytes).unwrap();
    let o = mnklab(&["solve", "--game", "connect:5,4,4", "--moves", "3324", "--book", wrong.to_str().unwrap()]);
    let (out, searched) = (stdout(&o), stdout(&mnklab(&["solve", "--game", "connect:5,4,4", "--moves", "3324"])));
    assert!(out.contains("the book is wrong here, so searched: no move keeps its 'draw'"), "{out}");
    assert_eq!(out.lines().next(), searched.lines().next(), "the searched value, not the book's");
    assert_eq!(score(&out), score(&with), "{out}");
    // One lower than the truth: a move keeps it, but one does better (a trial's edited loss
    // to a quicker one was printed as the value, every move's row with it); and a --time
    // too short to check it gives the book's value as unconfirmed, not as the value.
    let understated = dir.join("understated.book");
    bytes[at + 8] = (bytes[at + 8] as i8 - 2) as u8;
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&understated, &bytes).unwrap();
    let u = understated.to_str().unwrap();
    let out = stdout(&mnklab(&["solve", "--game", "connect:5,4,4", "--moves", "3324", "--book", u]));
    assert!(out.contains("the book is wrong here, so searched: a move does better than its"), "{out}");
    assert_eq!(out.lines().next(), searched.lines().next(), "the searched value, not the book's");
    // (A ten-stone Connect-4 position: the check takes millions of nodes, the clock is read
    // every 4,096.)
    let builtin = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/books/connect4.book");
    let out = stdout(&mnklab(&[
        "solve",
        "--game",
        "connect4",
        "--moves",
        "ebeebfaagg",
        "--book",
        builtin,
        "--time",
        "0.001",
    ]));
    // The built-in book's value (its bytes, named as a file) is the program's: printed, with
    // no move kept in the time; any other book's is unconfirmed, as here a copy with another
    // position's value edited and its checksum resealed.
    assert!(out.starts_with("value loss in 32 (score -1)\nnodes "), "{out}");
    assert!(out.contains("but no move keeping it was proved in time") && !out.contains("bestmove"), "{out}");
    let mut bytes = std::fs::read(builtin).unwrap();
    let entries = bytes.len() - 4 - 9 * 1_208_493;
    bytes[entries + 8] = if bytes[entries + 8] == 0 { 1 } else { 0 };
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    let copy = dir.join("edited-copy.book");
    std::fs::write(&copy, &bytes).unwrap();
    let c = copy.to_str().unwrap();
    let out =
        stdout(&mnklab(&["solve", "--game", "connect4", "--moves", "ebeebfaagg", "--book", c, "--time", "0.001"]));
    assert!(out.starts_with("unconfirmed: the book gives loss in 32") && !out.contains("value "), "{out}");
    let out = stdout(&mnklab(&["solve", "--game", "connect4", "--moves", "ebeebfaagg", "--book", c]));
    assert!(
        out.starts_with("value loss in 32 (score") && out.contains("checked: a move keeping it proved, none better"),
        "{out}"
    );
    // `check-book` finds it by solving every deepest position again, and fails; the book as
    // built passes, as does the built-in one with a sample of two.
    let o = mnklab(&["check-book", wrong.to_str().unwrap(), "--sample", "1000"]);
    let (out, err) = (stdout(&o), String::from_utf8_lossy(&o.stderr).to_string());
    assert!(!o.status.success() && out.contains("WRONG at 1") && err.contains("the book is wrong"), "{out}{err}");
    let o = mnklab(&["check-book", p, "--sample", "1000"]);
    assert!(o.status.success() && stdout(&o).contains("every value the book's"), "{}", stdout(&o));
    let builtin = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/books/connect4.book");
    let o = mnklab(&["check-book", builtin, "--sample", "2", "--seed", "3"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("1208493 positions") && out.contains("and nothing else"), "{out}");
    assert!(out.contains("2 of the 809464 at depth 10 solved again (seed 3"), "{out}");
    // Where every move loses at once, the built-in book's loss in 2 plies is kept by any move.
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/books/connect4.book");
    let o = stdout(&mnklab(&["solve", "--game", "connect4", "--moves", "fbfcgbgdff", "--book", book]));
    assert!(o.starts_with("value loss in 2 (score -16)") && o.contains("; a move keeping it proved"), "{o}");
    // A book for another game is refused by name.
    let o = mnklab(&["solve", "--game", "connect4", "--book", p]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("the book is for connect:5,4,4"));
    // Proof-number search: 6,6,5 a draw (the first player cannot win; strategy stealing).
    let o = stdout(&mnklab(&["solve", "--game", "mnk:6,6,5", "--method", "pns"]));
    assert!(o.starts_with("value draw") && o.contains("first player wins: disproved"), "{o}");
    assert!(
        o.contains("no move proved: the first player cannot lose from the empty board by strategy stealing"),
        "{o}"
    );
    // Elsewhere the move that keeps the proved value (tests/proof_search.rs checks it keeps it).
    let o = stdout(&mnklab(&["solve", "--game", "connect:5,4,4", "--moves", "c", "--method", "pns"]));
    assert!(o.starts_with("value draw") && o.lines().nth(1).is_some_and(|l| l.starts_with("bestmove ")), "{o}");
    // An unanswered proof says why it stopped: memory (and what to do), or the time.
    let o = stdout(&mnklab(&["solve", "--game", "mnk:8,8,5", "--method", "pns", "--tt-mb", "2"]));
    assert!(o.starts_with("unsolved") && o.contains("its tree filled its memory (2.") && o.contains("--tt-mb"), "{o}");
    let o = stdout(&mnklab(&["solve", "--game", "mnk:8,8,5", "--method", "pns", "--time", "0.2"]));
    assert!(o.starts_with("unsolved") && o.contains("the time (--time) ran out"), "{o}");
    // A race of the two methods: the value of whichever answers, and what each did.
    let o = stdout(&mnklab(&["solve", "--game", "mnk:5,5,4", "--moves", "c3", "--method", "race"]));
    assert!(o.starts_with("value draw (score 0, weak"), "{o}");
    let race = o.lines().find(|l| l.starts_with("race: alpha-beta ")).unwrap_or_else(|| panic!("{o}"));
    assert!(race.contains("proof-number search") && race.contains("answered first"), "{race}");
    let o = stdout(&mnklab(&["solve", "--game", "mnk:8,8,5", "--method", "race", "--time", "0.2"]));
    assert!(o.starts_with("unsolved: neither method proved the value within --time"), "{o}");
    // The ablations apply to the race as to its methods; a count of one is "1 node".
    let o = stdout(&mnklab(&["solve", "--game", "tictactoe", "--method", "race", "--no-threats", "--no-pairings"]));
    assert!(o.starts_with("value draw (score 0, weak") && o.contains("race: alpha-beta "), "{o}");
    assert!(!o.contains(" 1 nodes"), "{o}");
    let o = stdout(&mnklab(&["solve", "--game", "mnk:4,4,3", "--moves", "a1 a2 b1 b2 c1", "--method", "race"]));
    assert!(o.starts_with("value game over: first player won"), "{o}");
    let o = mnklab(&["solve", "--game", "mnk:4,4,4", "--method", "race", "--batch", "x.txt"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--method race solves one position"));
    // Every move raced: with no --time every distance is completed, so the rows are the
    // default method's, line for line, and so is the value (from the moves' distances where
    // proof-number search proved only the sign: after a1 c3 a2, a win in 11).
    let lines = |o: &str, start: &str| o.lines().filter(|l| l.starts_with(start)).map(String::from).collect::<Vec<_>>();
    for moves in ["a1 d3", "a1 c3 a2"] {
        let plain = stdout(&mnklab(&["solve", "--game", "mnk:5,5,4", "--moves", moves, "--every-move"]));
        let o =
            stdout(&mnklab(&["solve", "--game", "mnk:5,5,4", "--moves", moves, "--method", "race", "--every-move"]));
        assert_eq!(lines(&o, "move ").len(), 25 - moves.split(' ').count(), "{o}");
        assert_eq!(lines(&o, "move "), lines(&plain, "move "), "{o}");
        assert_eq!(lines(&o, "value "), lines(&plain, "value "), "{o}");
        assert!(!o.contains("distances not within --time"), "{o}");
    }
    // Cut short, it says which moves have only their sign (after b2 every distance took 4.3 s
    // here; in 2 s two were open, in 1 s 29).
    let o = stdout(&mnklab(&[
        "solve",
        "--game",
        "mnk:6,6,4",
        "--moves",
        "b2",
        "--method",
        "race",
        "--every-move",
        "--time",
        "2",
    ]));
    assert!(o.contains("their signs are proved, their distances not within --time"), "{o}");
    // A finished game as the default method answers it.
    let over = ["solve", "--game", "mnk:5,5,4", "--moves", "a1 b1 a2 b2 a3 b3 a4", "--every-move"];
    let plain = stdout(&mnklab(&over));
    assert_eq!(stdout(&mnklab(&[&over[..], &["--method", "race"]].concat())).lines().next(), plain.lines().next());
    assert!(o.contains("race: each proof by alpha-beta and proof-number search at once"), "{o}");
    // On a board of the Connect-X solver it answers alone, as the default method does.
    let c544 = ["solve", "--game", "connect:5,4,4", "--moves", "c d", "--every-move"];
    let o = mnklab(&[&c544[..], &["--method", "race"]].concat());
    assert!(String::from_utf8_lossy(&o.stderr).contains("proved by the Connect-X solver alone"), "{o:?}");
    // The same lines but the clock's.
    let untimed = |o: &str| o.lines().filter(|l| !l.contains(" time ")).map(String::from).collect::<Vec<_>>();
    let plain = stdout(&mnklab(&c544));
    assert!(plain.contains("move d draw (score 0)") && plain.contains("move a loss in 18 (score"), "{plain}");
    assert_eq!(untimed(&stdout(&o)), untimed(&plain));
    let o = mnklab(&["solve", "--game", "mnk:4,4,4", "--method", "pns", "--every-move"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("or --method race"), "{o:?}");
}

/// `book` appends each searched value to a journal (OUT.journal by default); `--part I/N` runs
/// search their share into their own journals and write no book; a last run given every
/// journal searches nothing and writes the same book, byte for byte, as one build.
#[test]
fn book_parts_and_journals_from_the_command_line() {
    let dir = Scratch::new("cli-book-parts");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let base = ["book", "--game", "connect:5,4,4", "--depth", "5", "--tt-mb", "8"];
    let run = |extra: &[&str]| {
        let o = mnklab(&[&base[..], extra].concat());
        assert!(o.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&o.stderr));
        stdout(&o)
    };
    let whole = path("whole.book");
    let o = run(&["--out", &whole]);
    assert!(o.contains("0 from the journal"), "{o}");
    let lines = std::fs::read_to_string(path("whole.book.journal")).unwrap().lines().count();
    assert!(lines > 100, "one line a searched position, after the header: {lines}");
    // Run again, the journal answers everything.
    let o = run(&["--out", &whole]);
    assert!(o.contains(" 0 searched") && o.contains(&format!("{} from the journal", lines - 1)), "{o}");
    let split = path("split.book");
    for part in ["1/2", "2/2"] {
        let journal = path(&format!("part{}.journal", &part[..1]));
        let o = run(&["--out", &split, "--part", part, "--journal", &journal]);
        assert!(o.starts_with(&format!("part {part} of connect:5,4,4 to depth 5")), "{o}");
    }
    assert!(!dir.join("split.book").exists(), "a part writes no book");
    let o = run(&["--out", &split, "--journal", &path("part1.journal"), "--journal", &path("part2.journal")]);
    assert!(o.contains(" 0 searched"), "{o}");
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&split).unwrap(), "the same book");
    // A journal given twice is refused (it was read twice and named twice).
    let twice = ["--out", &split, "--journal", &path("part1.journal"), "--journal", &path("part1.journal")];
    let o = mnklab(&[&base[..], &twice[..]].concat());
    assert!(String::from_utf8_lossy(&o.stderr).contains("part1.journal: given twice"), "{o:?}");
    // A file of another kind with no whole line is refused and left as it was (one was cut
    // off as a stopped build's last line and replaced by a journal).
    std::fs::write(path("notes.txt"), "my notes, no newline at end").unwrap();
    let o = mnklab(&[&base[..], &["--out", &path("n.book"), "--journal", &path("notes.txt")]].concat());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a book journal"), "{o:?}");
    assert_eq!(std::fs::read_to_string(path("notes.txt")).unwrap(), "my notes, no newline at end");
    // A part out of range and a journal of another build are refused by name.
    let o = mnklab(&[&base[..], &["--out", &split, "--part", "3/2"]].concat());
    assert!(String::from_utf8_lossy(&o.stderr).contains("'3/2': give the part as I/N"));
    let o = mnklab(&[
        "book",
        "--game",
        "connect:5,4,4",
        "--depth",
        "4",
        "--out",
        &split,
        "--journal",
        &path("part1.journal"),
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && e.contains("part1.journal") && e.contains("this build is connect:5,4,4 depth 4"),
        "{e}"
    );
    // A key that is not one of the build's positions is refused by file and line (it was
    // named "a journal", with no line).
    let mut text = std::fs::read_to_string(path("part1.journal")).unwrap();
    text.push_str("123456 0\n");
    let line = text.lines().count();
    std::fs::write(path("odd.journal"), text).unwrap();
    let o = mnklab(&[&base[..], &["--out", &path("odd.book"), "--journal", &path("odd.journal")]].concat());
    let e = String::from_utf8_lossy(&o.stderr);
    let said = format!("odd.journal: not a usable book journal: line {line}: it holds key 123456 with value 0");
    assert!(!o.status.success() && e.contains(&said), "{e}");
}

#[test]
fn book_and_pns_refuse_what_they_would_ignore() {
    let err = |args: &[&str]| {
        let o = mnklab(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    assert!(err(&["solve", "--game", "connect4", "--method", "pns", "--batch", "x.txt"]).contains("leave out --batch"));
    assert!(err(&["solve", "--game", "connect4", "--method", "pns", "--book", "x.book"]).contains("leave out --book"));
    // The output place is checked before the build, the depth against the board.
    let e = err(&["book", "--game", "connect:5,4,4", "--depth", "3", "--out", "/nonexistent-mnklab/x.book"]);
    assert!(e.contains("does not exist"), "{e}");
    let e = err(&["book", "--game", "connect:4,4,3", "--depth", "20", "--out", "x.book"]);
    assert!(e.contains("16 cells"), "{e}");
    // A finished game is reported as such by either method.
    let o = stdout(&mnklab(&["solve", "--game", "tictactoe", "--moves", "a1 b1 a2 b2 a3", "--method", "pns"]));
    assert!(o.contains("game over: first player won"), "{o}");
}

#[test]
fn threat_space_search_from_the_command_line() {
    // mnk:4,3,3 is a first-player win (../shared/rules); it falls to a sequence of threats.
    let o = stdout(&mnklab(&["solve", "--game", "mnk:4,3,3", "--method", "threats"]));
    assert!(o.starts_with("the first player (to move) wins by threats"), "{o}");
    // Each move is named by what it does (checked by hand: b1-b2 leaves b3, c1 leaves a1 and
    // d1), the line is playable and ends in the winning move.
    let named = o.lines().nth(1).unwrap().split(": ").nth(1).unwrap().to_string();
    assert_eq!(named, "b2 (three) a2 (stops the three) b1 (four) b3 (block) c1 (double four) a1 (block) d1 (line)");
    let line = moves_of_named_line(&named);
    assert_eq!(line, "b2 a2 b1 b3 c1 a1 d1");
    let o = stdout(&mnklab(&["show", "--game", "mnk:4,3,3", "--moves", &line]));
    assert!(o.contains("result first wins"), "{line}: {o}");
    // Tic-tac-toe has no such win, and a failure says it proves nothing.
    let o = stdout(&mnklab(&["solve", "--game", "tictactoe", "--method", "threats"]));
    assert!(o.starts_with("no win by threats") && o.contains("proves nothing"), "{o}");
    let err = |args: &[&str]| {
        let o = mnklab(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    assert!(err(&["solve", "--game", "connect4", "--method", "threats"]).contains("has gravity"));
    assert!(err(&["solve", "--game", "mnk:15,15,5:exact", "--method", "threats"]).contains("exactly-K"));
    assert!(err(&["solve", "--game", "mnk:5,5,4", "--no-threats"]).contains("add --method pns"));
    assert!(err(&["solve", "--game", "mnk:5,5,4", "--method", "threats", "--weak"]).contains("leave out"));
    assert!(err(&["solve", "--game", "mnk:5,5,4", "--threat-depth", "3"]).contains("add --method threats"));
    assert!(err(&["solve", "--game", "mnk:5,5,4", "--method", "threats", "--check"]).contains("leave out --method"));
    // The ablation names the leaves it turned off: none tried.
    let o = stdout(&mnklab(&["solve", "--game", "mnk:6,6,5", "--method", "pns", "--no-threats"]));
    assert!(o.starts_with("value draw") && o.contains("threat wins 0 of 0 leaves tried"), "{o}");
}

/// A threat line's moves: the words outside the parentheses naming what each does.
fn moves_of_named_line(named: &str) -> String {
    let (mut line, mut depth) = (String::new(), 0);
    for ch in named.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if depth == 0 => line.push(c),
            _ => {}
        }
    }
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn dependency_based_search_from_the_command_line() {
    // mnk:4,3,3, a first-player win: a plan, proved by the sound search, whose line plays out
    // to the first player's line.
    // `--no-probe`: the stages alone, so the win comes from a plan.
    let o = stdout(&mnklab(&["solve", "--game", "mnk:4,3,3", "--method", "dbs", "--no-probe"]));
    assert!(o.starts_with("the first player (to move) wins by threats: dependency-based search found a plan"), "{o}");
    assert!(o.lines().next().unwrap().ends_with("proved the line below"), "{o}");
    let named = o.lines().nth(1).unwrap().split(": ").nth(1).unwrap();
    assert!(named.ends_with("(line)"), "{o}");
    let line = moves_of_named_line(named);
    let shown = stdout(&mnklab(&["show", "--game", "mnk:4,3,3", "--moves", &line]));
    assert!(shown.contains("result first wins"), "{line}: {shown}");
    assert!(o.lines().nth(2).unwrap().starts_with("plan it came from"), "{o}");
    assert!(o.lines().last().unwrap().contains("checked"), "{o}");
    // The plan is not the claim: on mnk:4,4,3 after b2 c3 its one move, a1, loses (the exact
    // solver: the second player wins), while the proved line starts with b3, a win.
    let o = stdout(&mnklab(&["solve", "--game", "mnk:4,4,3", "--moves", "b2 c3", "--method", "dbs", "--no-probe"]));
    let line_first = moves_of_named_line(o.lines().nth(1).unwrap().split(": ").nth(1).unwrap());
    let first = line_first.split_whitespace().next().unwrap();
    let after = stdout(&mnklab(&["solve", "--game", "mnk:4,4,3", "--moves", &format!("b2 c3 {first}"), "--weak"]));
    assert!(after.contains("value loss"), "the line's first move wins: {after}");
    assert!(o.contains("not proved as it stands"), "{o}");
    // By default a short win is the probe's: said as such, with its line and no plan; the
    // line wins when played out.
    let o = stdout(&mnklab(&["solve", "--game", "mnk:4,3,3", "--method", "dbs"]));
    assert!(o.starts_with("the first player (to move) wins by threats: the probe before the stages"), "{o}");
    assert!(!o.contains("plan it came from"), "{o}");
    let line = moves_of_named_line(o.lines().nth(1).unwrap().split(": ").nth(1).unwrap());
    let shown = stdout(&mnklab(&["show", "--game", "mnk:4,3,3", "--moves", &line]));
    assert!(shown.contains("result first wins"), "{line}: {shown}");
    // A short win only the probe finds: its first move's block gives the defender a four, a
    // threat the stages leave out. The exact solver agrees it wins.
    let moves = "d1 b4 e5 b5 c1 d2 e3 b1 d4 a1";
    let o = stdout(&mnklab(&["solve", "--game", "mnk:5,5,4", "--moves", moves, "--method", "dbs"]));
    assert!(o.starts_with("the first player (to move) wins by threats: the probe"), "{o}");
    let first = moves_of_named_line(o.lines().nth(1).unwrap().split(": ").nth(1).unwrap());
    let first = first.split_whitespace().next().unwrap().to_string();
    let after = stdout(&mnklab(&["solve", "--game", "mnk:5,5,4", "--moves", &format!("{moves} {first}"), "--weak"]));
    assert!(after.contains("value loss"), "the probe's first move wins: {after}");
    let o = stdout(&mnklab(&["solve", "--game", "mnk:5,5,4", "--moves", moves, "--method", "dbs", "--no-probe"]));
    assert!(o.starts_with("no win found"), "{o}");
    // A line to complete now is said as such, with no empty plan.
    let o = stdout(&mnklab(&["solve", "--game", "gomoku", "--moves", "h8 a1 h9 a2 h10 a3 h11 a5", "--method", "dbs"]));
    assert!(o.starts_with("the first player (to move) wins at once: "), "{o}");
    assert!(!o.contains("plan it came from"), "{o}");
    // Tic-tac-toe: nothing found, and that proves nothing, with one stage or the default.
    for stages in ["1", "6"] {
        let o = stdout(&mnklab(&["solve", "--game", "tictactoe", "--method", "dbs", "--stages", stages]));
        assert!(o.starts_with("no win found for the first player: every stage ran"), "{o}");
        assert!(o.contains("no plan was found") && o.contains("proves nothing"), "{o}");
    }
    // A four of the defender's on the board is named, not searched past.
    let o = stdout(&mnklab(&["solve", "--game", "gomoku", "--moves", "a1 h8 a15 i8 o1 j8 o15 k8", "--method", "dbs"]));
    assert!(o.starts_with("the second player has a four on the board"), "{o}");
    let err = |args: &[&str]| {
        let o = mnklab(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    assert!(err(&["solve", "--game", "mnk:5,5,4", "--stages", "3"]).contains("add --method dbs"));
    assert!(err(&["solve", "--game", "mnk:5,5,4", "--no-probe"]).contains("add --method dbs"));
    assert!(err(&["solve", "--game", "mnk:5,5,4", "--method", "dbs", "--threat-depth", "3"]).contains("--stages"));
    let e = err(&["solve", "--game", "mnk:5,5,4", "--method", "dbs", "--weak"]);
    assert!(e.contains("leave out --weak") && !e.contains("--batch"), "{e}");
    assert!(err(&["solve", "--game", "connect4", "--method", "dbs"]).contains("has gravity"));
    assert!(err(&["solve", "--game", "tictactoe", "--method", "dbs", "--tt-mb", "5"]).contains("leave out --tt-mb"));
}

#[test]
fn a_solve_on_two_threads() {
    // The first line of Pons' beginning set, with its score.
    let line = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/connect4/Test_L1_R1")).unwrap();
    let mut fields = line.lines().next().unwrap().split_whitespace();
    let (moves, score) = (fields.next().unwrap(), fields.next().unwrap());
    let o = stdout(&mnklab(&["solve", "--game", "connect4", "--moves", moves, "--threads", "2"]));
    assert!(o.contains(&format!("(score {score})")), "{o}");
    assert!(o.contains("threads 2 (the nodes are all of theirs)"), "{o}");
    let err = |args: &[&str]| {
        let o = mnklab(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    let batch = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/connect4/Test_L3_R1");
    assert!(err(&["solve", "--game", "connect4", "--batch", batch, "--threads", "2"]).contains("leave out --batch"));
    assert!(err(&["solve", "--game", "mnk:5,5,4", "--method", "pns", "--threads", "2"]).contains("leave out --method"));
    assert!(err(&["solve", "--game", "mnk:4,4,3", "--threads", "2"]).contains("only the Connect-X bitboard solver"));
    assert!(err(&["solve", "--game", "connect4", "--threads", "0"]).contains("--threads"));
    // --every-move with --method pns: what to leave out, naming only what was given (it once
    // named --batch to a user who had not given it).
    let e = err(&["solve", "--game", "mnk:4,4,3", "--method", "pns", "--every-move"]);
    assert!(e.contains("not pns: leave out --method pns") && !e.contains("--batch"), "{e}");
    let e = err(&["solve", "--game", "connect4", "--batch", "x.txt", "--every-move"]);
    assert!(e.contains("cannot be used with '--every-move'") && !e.contains("--method"), "{e}");
}

/// Proof-number search's report: an unanswered question has no proof size (it read "proof
/// size 0"), and a few KiB of memory are not "0 MiB".
#[test]
fn proof_number_reports_say_what_they_have() {
    let o = stdout(&mnklab(&["solve", "--game", "mnk:6,6,5", "--method", "pns"]));
    assert!(o.contains("memory (tree and tables) < 0.01 MiB"), "{o}");
    assert!(!o.contains(" 0 MiB"), "{o}");
    let o = stdout(&mnklab(&["solve", "--game", "mnk:8,8,5", "--method", "pns", "--time", "0.2"]));
    assert!(o.contains("unknown; nodes") && o.contains("proof size - (no answer)"), "{o}");
    let o = stdout(&mnklab(&["solve", "--game", "mnk:4,4,3", "--moves", "b2 c3", "--method", "dbs", "--no-probe"]));
    assert!(o.contains("nodes of the stages (threats applied and combinations)"), "{o}");
}

/// A gravity board whose bitboards would fit 64 bits but whose position does not (guard
/// columns: (width + 2) x (height + 1) >= 64) is refused by `book` with a sentence, not a panic.
#[test]
fn book_refuses_boards_its_position_cannot_hold() {
    for game in ["connect:6,7,4", "connect:9,5,4", "connect:8,7,4"] {
        let o = mnklab(&["book", "--game", game, "--depth", "0", "--out", "/tmp/mnklab-never-written.book"]);
        assert_eq!(o.status.code(), Some(2), "{game}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains("(width + 2) x (height + 1) < 64"), "{game}");
    }
}

/// `solve --every-move` lists every legal move's proven value for the side to move: on
/// positions of Pons' middle set the best of them is his score for the position, and each
/// is the negated score of a separate solve of the position after that move.
#[test]
fn solve_every_move_gives_each_moves_value() {
    let set = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/connect4/Test_L2_R1")).unwrap();
    let score_of = |line: &str| -> i32 {
        let (_, tail) = line.rsplit_once("(score ").unwrap_or_else(|| panic!("a score in {line}"));
        tail.trim_end_matches(')').parse().unwrap()
    };
    for line in set.lines().take(4) {
        let (moves, pons) = line.split_once(' ').unwrap();
        let pons: i32 = pons.parse().unwrap();
        let o = mnklab(&["solve", "--game", "connect4", "--moves", moves, "--every-move"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = stdout(&o);
        let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("move ")).collect();
        let full = (1..=7).filter(|c| moves.matches(&c.to_string()).count() >= 6).count();
        assert_eq!(rows.len(), 7 - full, "a row per legal move: {out}");
        let best = rows.iter().map(|r| score_of(r)).max().unwrap();
        assert_eq!(best, pons, "{moves}: {out}");
        for row in rows {
            let letter = row.split_whitespace().nth(1).unwrap();
            let column = (letter.as_bytes()[0] - b'a' + 1).to_string();
            let child = mnklab(&["solve", "--game", "connect4", "--moves", &format!("{moves}{column}")]);
            let text = stdout(&child);
            let first = text.lines().next().unwrap();
            if first.contains("game over") {
                continue;
            }
            assert_eq!(score_of(row), -score_of(first), "{moves} then {letter}: {row} / {first}");
        }
    }
    let o = mnklab(&["solve", "--game", "connect4", "--every-move", "--batch", "tests/data/connect4/Test_L2_R1"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--every-move"));
    // With the book the workbench uses, its table for the empty board, without a search:
    // the known first-move values (Pons' -2 -1 0 1 0 -1 -2).
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/books/connect4.book");
    let o = mnklab(&["solve", "--game", "connect4", "--every-move", "--book", book]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let scores: Vec<i32> = out.lines().filter(|l| l.starts_with("move ")).map(score_of).collect();
    assert_eq!(scores, [-2, -1, 0, 1, 0, -1, -2], "{out}");
    assert!(out.contains("move d win in 41 (score") && out.contains("moves' proofs: nodes 0 "), "{out}");
    // At the book's depth the move keeping its value and every move's are proved on --threads
    // threads (they once ran on one, and nothing said so), with the same values as on one.
    // The position: the first of these moves, as many as the built-in book's depth (the line
    // gives one for each depth it has shipped with, nine and ten).
    let depth = mnklab::search::solver::builtin_book(&mnklab::game::Variant::connect4()).unwrap().depth as usize;
    let line = "4344355314";
    assert!(line.len() >= depth, "'{line}' is shorter than the built-in book's depth {depth}");
    let at_depth = |threads: &str| {
        let o = mnklab(&[
            "solve",
            "--game",
            "connect4",
            "--moves",
            &line[..depth],
            "--every-move",
            "--book",
            book,
            "--threads",
            threads,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        stdout(&o)
    };
    let (one, two) = (at_depth("1"), at_depth("2"));
    let rows = |out: &str| -> Vec<String> {
        out.lines().filter(|l| l.starts_with("move ") || l.starts_with("value ")).map(String::from).collect()
    };
    assert_eq!(rows(&one), rows(&two), "{one}\n{two}");
    assert_eq!(rows(&one).len(), 8, "{one}");
    assert!(two.contains("threads 2 (the nodes are all of theirs)") && !one.contains("threads"), "{two}");
    // Where the book answers every row, no search ran: no thread count.
    let o = mnklab(&["solve", "--game", "connect4", "--every-move", "--book", book, "--threads", "2"]);
    assert!(!stdout(&o).contains("threads"), "{}", stdout(&o));
    // Weak rows say so, as the value's line does (their score is the strong one's sign).
    let o = mnklab(&["solve", "--game", "connect4", "--moves", "ebcgafafb", "--every-move", "--weak"]);
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(rows.len(), 7, "{out}");
    assert!(rows.iter().all(|r| r.ends_with(", weak)")), "{out}");
    // A book that does not hold the position says so beside the search's answer.
    let deeper = format!("{}7", &line[..depth]);
    let o = mnklab(&["solve", "--game", "connect4", "--moves", &deeper, "--book", book]);
    let out = stdout(&o);
    assert!(o.status.success() && out.starts_with("value "), "{out}");
    let missed = format!("not in the book {book} (depth {depth}: positions of at most {depth} stones), so searched");
    assert!(out.contains(&missed), "{out}");
    let o = mnklab(&["solve", "--game", "connect4", "--moves", &line[..depth], "--book", book]);
    assert!(!stdout(&o).contains("not in the book"), "{}", stdout(&o));
    // A finished game has no moves to value, and says so (no empty proofs line).
    let o = mnklab(&["solve", "--game", "connect4", "--moves", "1212121", "--every-move"]);
    let out = stdout(&o);
    assert!(out.contains("no move's value: the game is over") && !out.contains("moves' proofs"), "{out}");
}

/// A root that proof-number search's knowledge settles (here a threat sequence) still gets a
/// proved move, and it keeps the value (the default method's rows say so); a race prints
/// alpha-beta's move where proof-number search was stopped while seeking its own. Both once
/// printed a win with no move (a new-user trial, 2026-12-01).
#[test]
fn a_root_settled_by_knowledge_still_gets_its_move() {
    for (game, moves) in [("mnk:4,3,3", "a1 a2"), ("mnk:4,3,3", ""), ("mnk:4,4,3", "b2 c3")] {
        let with = |extra: &[&str]| {
            let mut a = vec!["solve", "--game", game];
            if !moves.is_empty() {
                a.extend(["--moves", moves]);
            }
            a.extend(extra);
            let o = mnklab(&a);
            assert!(o.status.success(), "{a:?}: {}", String::from_utf8_lossy(&o.stderr));
            stdout(&o)
        };
        let rows = with(&["--every-move"]);
        for method in ["pns", "race"] {
            let out = with(&["--method", method]);
            // Which method of a race answers first depends on the clock: either gives a move.
            assert!(out.starts_with("value win (score 1, weak"), "{game} {moves} {method}: {out}");
            assert!(!out.contains("no move proved"), "{game} {moves} {method}: {out}");
            let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a best move");
            let best = best.split(' ').next().unwrap();
            assert!(rows.contains(&format!("move {best} win in")), "{game} {moves} {method}: {best}\n{rows}");
        }
    }
}

/// A warning an agent gives during a match (here a solver named a book for another game)
/// reaches the user once on stderr, not once a move, and stays with each game's record.
#[test]
fn a_match_says_its_agents_warnings_once_and_keeps_them_with_the_games() {
    let dir = Scratch::new("match-warnings");
    let book = dir.join("c544.book");
    let o = mnklab(&["book", "--game", "connect:5,4,4", "--depth", "2", "--out", book.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = dir.join("m.ron");
    std::fs::write(
        &file,
        format!(
            r#"(name: "w", variants: List(["tictactoe"]), agents: [
                (name: Some("solver"), agent: Inline((name: "solver", agent: Solver((book: Some({:?}))), limits: (time: Some(1.0))))),
                (agent: Preset("random"))], pairing: Pairwise, games: 4)"#,
            book.display().to_string()
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let o = mnklab(&["match", file.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let warning = "solver: the book named";
    assert_eq!(err.matches(warning).count(), 1, "once for the run: {err}");
    assert!(err.contains("is for connect:5,4,4, not mnk:3,3,3: searched instead"), "{err}");
    let records = mnklab::arena::read_results(&out.join(mnklab::arena::results::RESULTS_FILE)).unwrap();
    assert_eq!(records.len(), 4);
    for g in &records {
        assert_eq!(g.warnings.len(), 1, "{:?}", g.warnings);
        assert!(g.warnings[0].starts_with(warning), "{:?}", g.warnings);
    }
}

/// docs/cli.md's synopsis says what the program takes: every flag it lists for a verb is one
/// that verb's `--help` names (a flag renamed or dropped in the code shows here).
#[test]
fn every_flag_the_cli_reference_lists_is_the_programs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/cli.md")).unwrap();
    // Each synopsis: a line starting "mnklab", with its continuation lines (indented, opening
    // with a bracket); the description beside them starts after a run of spaces.
    let mut synopses: Vec<String> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("```") {
            inside = !inside;
            continue;
        }
        let usage = line.split("   ").next().unwrap_or("").trim();
        if inside && line.starts_with("mnklab") {
            synopses.push(usage.to_string());
        } else if inside && line.starts_with(' ') && usage.starts_with(['[', '(']) {
            let last = synopses.last_mut().expect("a continuation after a synopsis");
            last.push(' ');
            last.push_str(usage);
        }
    }
    assert!(synopses.len() >= 25, "{synopses:#?}");
    let mut checked = 0;
    for synopsis in &synopses {
        let words: Vec<&str> = synopsis.split_whitespace().collect();
        let mut verb: Vec<&str> =
            words[1..].iter().take_while(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-')).copied().collect();
        verb.retain(|w| !w.starts_with('-'));
        verb.truncate(if verb.first() == Some(&"bench") { 2 } else { 1 });
        let help = stdout(&mnklab(&[verb.as_slice(), &["--help"]].concat()));
        for flag in synopsis.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).filter(|w| w.starts_with("--")) {
            assert!(
                help.contains(flag),
                "docs/cli.md: `{synopsis}` lists {flag}, which `mnklab {}` does not take",
                verb.join(" ")
            );
            checked += 1;
        }
    }
    assert!(checked >= 60, "{checked} flags checked");
}

/// Every command in a code block of docs/ is run: by this test, in order, in a scratch folder
/// that sees the repository's files (a `match` line with `--games 2`: the whole matchups run in
/// CI's `scripts/reproduce --quick`), else by the test or CI step named beside it below. A new example in docs/
/// fails here until it is one or the other. docs/cli.md's blocks are synopses (placeholders in
/// brackets and capitals), checked flag by flag in
/// `every_flag_the_cli_reference_lists_is_the_programs`.
#[test]
fn every_docs_command_is_run() {
    /// Commands run elsewhere, by how they start, and where.
    const ELSEWHERE: &[(&str, &str)] = &[
        ("cargo build --release", ".ci/screenshot.sh builds the program it opens"),
        ("scripts/reproduce --quick", ".ci/run runs the quick set in a fresh clone"),
        (
            "mnklab reproduce --redraw",
            "its two parts through the library: files::every_committed_figure_redraws_from_its_data and files::results_md_tables_are_what_the_committed_results_give",
        ),
        ("scripts/reproduce", "the full study (hours), run by hand; its results are committed in results/"),
        (
            "mnklab accuracy saves/experiments/accuracy.ron",
            "the accuracy study (about 2 core-hours), run by hand over sittings; resuming is tested by \
             accuracy's resume test and files::the_accuracy_step_reproduces_and_keeps_committed_rows",
        ),
        (
            "mnklab ladder saves/experiments/ladder.ron",
            "the ladder (about a core-hour), run by hand over sittings; its quick twin runs here, and \
             resuming is tested by ladder::a_ladder_is_the_same_however_it_is_run",
        ),
        ("mnklab table results/lim-grid-3s/all", "after a cluster run's merge; the README's quick start runs `table`"),
        (
            "mnklab tune saves/experiments/tune/",
            "the tuning runs, 8,000 to 12,000 games (20 to 25 minutes on 2 cores): run by hand; tune is tested by \
             cli::tune_writes_a_resumable_run and the tests of arena::tune and arena::tune_run",
        ),
        (
            "mnklab match saves/experiments/gomoku-vcf3-self.ron",
            "52 games of gomoku at 1 s a move (about 25 minutes on 2 cores): run by hand; its figures are in \
             docs/gomoku-strength.md; the matchup and its agent file resolve in files::every_shipped_experiment_resolves",
        ),
        (
            "scripts/bench/markcello.sh",
            "builds MNKGames (a network and a JDK) and needs the team's Gomocup bridge beside the clone: run by hand; its figures \
             are in docs/gomoku-strength.md",
        ),
        (
            "scripts/bench/rapfi.sh",
            "builds Rapfi from its source (a network and cmake) and plays about an hour: run by hand; its \
             figures are in docs/gomoku-strength.md, its engine settings tested by gomocup::external's tests",
        ),
    ];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Scratch::new("docs-commands");
    for shipped in ["saves", "assets", "results"] {
        std::os::unix::fs::symlink(root.join(shipped), dir.join(shipped)).unwrap();
    }
    let (mut ran, mut elsewhere, mut synopses) = (0, 0, 0);
    let docs = std::fs::read_dir(root.join("docs")).unwrap().flatten().map(|e| e.path());
    for file in docs.filter(|p| p.extension().is_some_and(|x| x == "md")) {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut block: Option<String> = None;
        for line in text.lines() {
            let t = line.trim();
            if let Some(lang) = t.strip_prefix("```") {
                block = if block.is_some() { None } else { Some(lang.to_string()) };
                continue;
            }
            // Output shown as text is not a command.
            if block.as_deref().is_none_or(|lang| lang == "text") {
                continue;
            }
            let command = t.split("  #").next().unwrap_or("").trim();
            if !command.starts_with("mnklab ") && !command.starts_with("cargo ") && !command.starts_with("scripts/") {
                continue;
            }
            // The reference's synopses, a description after a run of spaces.
            if file.ends_with("cli.md") {
                synopses += 1;
                continue;
            }
            if let Some((_, _where)) = ELSEWHERE.iter().find(|(start, _)| command.starts_with(start)) {
                elsewhere += 1;
                continue;
            }
            let words: Vec<&str> = command.split_whitespace().collect();
            assert!(
                words[0] == "mnklab" && !command.contains(['"', '\'']),
                "{}: `{command}` is neither run here nor named as run elsewhere",
                file.display()
            );
            let short: &[&str] = if words[1] == "match" { &["--games", "2"] } else { &[] };
            let o = Command::new(env!("CARGO_BIN_EXE_mnklab"))
                .args(&words[1..])
                .args(short)
                .current_dir(&dir)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{}: `{command}` failed: {}",
                file.display(),
                String::from_utf8_lossy(&o.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 2 && elsewhere >= 4 && synopses >= 25, "{ran} docs commands run here, {elsewhere} elsewhere");
    assert!(dir.join("fig.png").is_file(), "docs/figures.md's example writes its figure");
}

/// `mnklab review --run DIR --csv` on a run folder of three games: only CSV, one row a ply of
/// each game (plies from 1), the columns the reference names, every tic-tac-toe move judged by
/// proof with a loss >= 0; without --csv each game's summary.
#[test]
fn review_writes_a_row_a_ply_for_every_game_of_a_run() {
    let dir = Scratch::new("review-run");
    let m = dir.join("m.ron");
    std::fs::write(
        &m,
        r#"(name: "three", variants: List(["tictactoe"]), agents: [(name: Some("a"), agent: Preset("random")), (name: Some("b"), agent: Preset("random"))], pairing: Pairwise, games: 3, seed: 4)"#,
    )
    .unwrap();
    let out = dir.join("out");
    let o = mnklab(&["match", m.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = mnklab::arena::read_results(&out.join("results.ronl")).unwrap();
    assert_eq!(games.len(), 3);
    let o = mnklab(&["review", "--run", out.to_str().unwrap(), "--csv", "--time", "0.05"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut reader = csv::Reader::from_reader(o.stdout.as_slice());
    let header = reader.headers().unwrap().clone();
    for column in ["game", "ply", "move", "best", "before", "after", "loss", "judge", "judged"] {
        assert!(header.iter().any(|h| h == column), "{column} in {header:?}");
    }
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let mut order: Vec<&str> = rows.iter().map(|r| &r[col("game")]).collect();
    order.dedup();
    assert_eq!(order, ["0", "1", "2"], "games in the schedule's order, not as they finished");
    for g in &games {
        let mine: Vec<&csv::StringRecord> = rows.iter().filter(|r| r[col("game")] == g.index.to_string()).collect();
        assert_eq!(mine.len(), g.moves.len(), "game {}: a row a move", g.index);
        for (k, (row, played)) in mine.iter().zip(&g.moves).enumerate() {
            assert_eq!(row[col("ply")], (k + 1).to_string());
            assert_eq!(row[col("move")], played.mv, "in the game's notation");
            assert_eq!(&row[col("judged")], "true", "{row:?}");
            assert_eq!(&row[col("judge")], "solver", "{row:?}");
            let loss: f64 = row[col("loss")].parse().unwrap();
            assert!(loss >= 0.0, "{row:?}");
        }
    }
    let text = stdout(&mnklab(&["review", "--run", out.to_str().unwrap(), "--time", "0.05"]));
    assert_eq!(text.matches("first player:").count(), 3, "{text}");
    // --figure: a figure and its CSV a game, named by the game; never over a file without
    // --force, refused before any game is reviewed.
    let fig = dir.join("review.svg");
    let o = mnklab(&["review", "--run", out.to_str().unwrap(), "--time", "0.05", "--figure", fig.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for g in &games {
        let svg = std::fs::read_to_string(dir.join(format!("review-{}.svg", g.index))).unwrap();
        assert!(svg.contains("loss of the move (bars: 2 reaches the middle)"), "the figure's legend names the bars");
        let csv = std::fs::read_to_string(dir.join(format!("review-{}.csv", g.index))).unwrap();
        let bars: Vec<f64> = csv
            .lines()
            .filter_map(|l| l.strip_prefix("loss of the move (bars: 2 reaches the middle),"))
            .map(|rest| rest.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(bars.len(), g.moves.len(), "a bar a judged move: {csv}");
        // The bars' rows hold the moves' losses, as the review's CSV has them, not the heights
        // drawn (half the loss, at most 1).
        let losses: Vec<f64> = rows
            .iter()
            .filter(|r| r[col("game")] == g.index.to_string())
            .map(|r| r[col("loss")].parse().unwrap())
            .collect();
        for (bar, loss) in bars.iter().zip(&losses) {
            assert!((bar - loss).abs() < 1e-3, "bar {bar} for a loss of {loss}: {csv}");
        }
    }
    let o = mnklab(&["review", "--run", out.to_str().unwrap(), "--time", "0.05", "--figure", fig.to_str().unwrap()]);
    assert!(!o.status.success() && o.stdout.is_empty(), "refused before reviewing");
    assert!(String::from_utf8_lossy(&o.stderr).contains("review-0.svg exists: add --force"));
}

/// The blunder outside the judge's move generator: gomoku `h8 h7 i8 i7 j8`, then `a1`
/// ignores the open three. strong-ab generates no move that far from the stones; the review
/// values it all the same, names what it did (it lets the first player win by threats) and
/// ranks it first, above any drop of the judge's estimate.
#[test]
fn review_finds_a_blunder_the_judge_would_never_play() {
    let o = mnklab(&["review", "--game", "gomoku", "--moves", "h8 h7 i8 i7 j8 a1", "--time", "0.2", "--csv"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut reader = csv::Reader::from_reader(o.stdout.as_slice());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 6);
    let worst = rows
        .iter()
        .max_by(|a, b| a[col("loss")].parse::<f64>().unwrap().total_cmp(&b[col("loss")].parse().unwrap()))
        .unwrap();
    assert_eq!((&worst[col("ply")], &worst[col("move")]), ("6", "a1"), "{rows:?}");
    assert_eq!(
        (&worst[col("judged")], &worst[col("after")], &worst[col("verdict")]),
        ("true", "loss", "allows a threat win"),
        "{worst:?}"
    );
    let loss: f64 = worst[col("loss")].parse().unwrap();
    assert!(loss > 2.0 && loss <= 3.0, "a value changed ranks above every judge's drop (0..2): {loss}");
    let o = mnklab(&["review", "--game", "gomoku", "--moves", "h8 h7 i8 i7 j8 a1", "--time", "0.2"]);
    let text = stdout(&o);
    // After the game's line and the list's heading.
    let first_marked = text.lines().nth(2).unwrap_or("");
    assert!(first_marked.trim_start().starts_with("6. a1"), "worst first: {text}");
    assert!(first_marked.contains("(allows a threat win; best"), "named, not a number: {text}");
    // The solver as judge, by proofs alone: no proof of the 15x15 board, but the threat
    // search's of a1 (it said "no proof" for every ply), and no mean of no judged move.
    let o = mnklab(&["review", "--game", "gomoku", "--moves", "h8 h7 i8 i7 j8 a1", "--agent", "solver", "--time", "1"]);
    let text = stdout(&o);
    assert!(text.contains("6. a1 ? → loss (allows a threat win; best"), "{text}");
    assert!(text.contains("first player: no move judged (of 3)"), "{text}");
}

/// The other half: the first player, with a win by threats, plays away from it (`a2`); the
/// threat search finds no win after it. The review names it and ranks it above the judge's
/// drops, although the judge alone values the move played only a little lower.
#[test]
fn review_finds_a_threat_win_missed() {
    let moves = "h8 h7 i8 i7 j8 a1 a2";
    let o = mnklab(&["review", "--game", "gomoku", "--moves", moves, "--time", "0.2", "--csv"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut reader = csv::Reader::from_reader(o.stdout.as_slice());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let a2 = &rows[6];
    assert_eq!((&a2[col("ply")], &a2[col("move")], &a2[col("before")]), ("7", "a2", "win"), "{a2:?}");
    assert_eq!(&a2[col("verdict")], "threat win missed", "{a2:?}");
    let loss: f64 = a2[col("loss")].parse().unwrap();
    assert!(loss > 2.0 && loss <= 3.0, "{loss}");
}

/// Moves are named back as they were typed: Connect-4 columns typed as digits come back as
/// digits in the CSV and the report, columns typed as letters as letters; the report numbers
/// a column typed as a digit after a colon ("3: 5"), so it never reads as a decimal.
#[test]
fn review_names_moves_as_typed() {
    for (typed, names) in [("4453", ["4", "4", "5", "3"]), ("d d e c", ["d", "d", "e", "c"])] {
        let o = mnklab(&["review", "--game", "connect4", "--moves", typed, "--time", "0.05", "--csv"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut reader = csv::Reader::from_reader(o.stdout.as_slice());
        let header = reader.headers().unwrap().clone();
        let col = |name: &str| header.iter().position(|h| h == name).unwrap();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        let moves: Vec<&str> = rows.iter().map(|r| &r[col("move")]).collect();
        assert_eq!(moves, names, "{typed}");
        // The third move throws the win away; its best is column d, the fourth.
        assert_eq!(&rows[2][col("best")], if typed == "4453" { "4" } else { "d" });
    }
    let text = stdout(&mnklab(&["review", "--game", "connect4", "--moves", "4453", "--time", "0.05"]));
    assert!(text.contains("3: 5 win in 39 → loss in 37 (win thrown away; best 4)"), "{text}");
}

/// A table says when games repeat others move for move: the quick start's matchup asked for
/// twelve games of deterministic agents from three openings plays each of its six games
/// twice, which the intervals would count as twelve; its six games repeat nothing.
#[test]
fn a_table_says_when_games_repeat() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = std::fs::read_to_string(root.join("saves/experiments/heuristics.ron")).unwrap();
    assert!(shipped.contains("games: 6,"), "the shipped matchup plays each game once");
    let dir = Scratch::new("repeated-games");
    for (games, repeats) in [(6, None), (12, Some("repeats: 6 of 12 games repeat an earlier game move for move"))] {
        let file = dir.join(format!("h{games}.ron"));
        std::fs::write(&file, shipped.replace("games: 6,", &format!("games: {games},"))).unwrap();
        let out = dir.join(format!("run{games}"));
        let o = mnklab(&["match", file.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let table = stdout(&mnklab(&["table", out.to_str().unwrap()]));
        match repeats {
            None => assert!(!table.contains("repeats:"), "{table}"),
            Some(line) => assert!(table.contains(line), "{table}"),
        }
    }
}

/// A window size below the smallest the workbench lays out is refused with the range,
/// before any window opens; the smallest is taken.
#[test]
fn a_window_size_below_the_smallest_is_refused() {
    for size in ["640x480", "880x700", "12x", "wide"] {
        let o = mnklab(&["--size", size, "--game", "tictactoe", "--screenshot", "/nonexistent/x.png"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains("is not a size") && err.contains("900..8000 x 600..8000"),
            "{size}: {err}"
        );
    }
}

/// Every shipped file a command's help names as an example exists (`ladder --help` named
/// a ladder-quick.ron that never was).
#[test]
fn the_files_the_help_names_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut named = 0;
    for entry in std::fs::read_dir(root.join("src/cli")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for doc in text.lines().filter_map(|l| l.trim_start().strip_prefix("///")) {
            for word in doc.split(|c: char| c.is_whitespace() || "(),;:`".contains(c)) {
                if word.starts_with("saves/") && word.ends_with(".ron") {
                    named += 1;
                    assert!(root.join(word).is_file(), "{} names {word}, which is not shipped", path.display());
                }
            }
        }
    }
    assert!(named >= 3, "the help names example files: {named}");
}

/// `mnklab tune` on tic-tac-toe: the folder holds its file, a row a pair and an agent that
/// `analyse` loads; a second run into it is refused, `--resume` of a finished run adds
/// nothing, and a weight the heuristic does not have is named.
#[test]
fn tune_writes_a_resumable_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.ron");
    let text = r#"(name: "ttt-tuned", variant: "tictactoe",
        agent: Inline((name: "ab", agent: AlphaBeta((heuristic: Lim(bonus: 1.0))), limits: (depth: Some(2)))),
        opening: RandomPlies(1), pairs: 6, batch: 2, seed: 4,
        parameters: [(name: "bonus", step: 0.5, min: 0.0, max: 10.0)])"#;
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("run");
    let (f, o) = (file.to_str().unwrap(), out.to_str().unwrap());
    let first = mnklab(&["tune", f, "--out", o, "--threads", "1"]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert!(stdout(&first).contains("6 pairs in"), "{}", stdout(&first));
    let log = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    assert_eq!(log.lines().next(), Some("pair,opening,plus_score,plies,bonus"));
    assert_eq!(log.lines().count(), 7);
    let agent = out.join("agent.ron");
    let a = mnklab(&["analyse", "--game", "tictactoe", "--agent", agent.to_str().unwrap(), "--depth", "2"]);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    let again = mnklab(&["tune", f, "--out", o]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
    let resumed = mnklab(&["tune", f, "--out", o, "--resume"]);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(std::fs::read_to_string(out.join("spsa.csv")).unwrap(), log);
    std::fs::write(&file, text.replace("\"bonus\"", "\"bonsu\"")).unwrap();
    let bad = mnklab(&["tune", f, "--out", dir.path().join("other").to_str().unwrap()]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("parameters[0].name") && err.contains("bonus"), "{err}");
}

/// The bench scripts build a peer from source (minutes) and play for an hour: a setting they
/// cannot use is named at once, before anything is cloned or built, and the run stops.
#[test]
fn the_bench_scripts_name_a_bad_setting_before_building() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    /// A script, its environment and arguments, and the start of its error.
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [&'a str], &'a str);
    let cases: [Case; 9] = [
        ("rapfi.sh", &[("AGENTS", "no-such.ron")], &[], "AGENTS: no agent file no-such.ron"),
        ("rapfi.sh", &[], &["1s"], "SECONDS: '1s' is not a number of seconds"),
        ("rapfi.sh", &[("GAMES", "7")], &[], "GAMES: '7' is not an even positive count"),
        ("rapfi.sh", &[], &["1", "250", "1e3"], "NODES: '1e3' is not a positive whole number"),
        ("rapfi.sh", &[("OPENINGS", "canonicl")], &[], "OPENINGS: 'canonicl' is not 'canonical'"),
        ("markcello.sh", &[("AGENT", "no-such.ron")], &[], "AGENT: no agent file no-such.ron"),
        ("markcello.sh", &[("ROUNDS", "0")], &[], "ROUNDS: '0' is not a positive whole number"),
        ("markcello.sh", &[("SECONDS_A_MOVE", "0.5")], &[], "SECONDS_A_MOVE: '0.5' is not a whole number"),
        ("markcello.sh", &[], &["9,9"], "board '9,9' is not M,N,K"),
    ];
    for (script, env, args, says) in cases {
        let out = Command::new(root.join("scripts/bench").join(script))
            .current_dir(root)
            .envs(env.iter().copied())
            // A repository to clone that is not there: were a setting let through, the script
            // would fail here, not build.
            .env("RAPFI_REPO", "/nonexistent")
            .env("MNKGAMES_REPO", "/nonexistent")
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{script} {env:?} {args:?}: ran");
        assert!(err.starts_with(says), "{script} {env:?} {args:?}: {err}");
    }
}
