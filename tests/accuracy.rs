//! Accuracy against budget: suites whose every move's proven value matches an exhaustive
//! search written here, experiments whose rows match their suites, runs that resume after a
//! kill without losing or repeating a search.

use std::collections::HashMap;
use std::process::{Command, Output};

use mnklab::arena::accuracy::{MoveValue, SuiteSpec, load_suite, make_suite, read_moves, save_suite};
use mnklab::game::{AnyPosition, Status, Variant};

use crate::scratch::Scratch;

fn mnklab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mnklab")).args(args).output().expect("run mnklab")
}

/// Plain negamax to the end, with perfect play's distance: (value for the side to move,
/// plies to the end); the winner hastens, the loser delays. Memoised on the board's text.
pub(crate) fn negamax(pos: &AnyPosition, memo: &mut HashMap<String, (i8, u32)>) -> (i8, u32) {
    match pos.status() {
        Status::Win(_) => return (-1, 0),
        Status::Draw => return (0, 0),
        _ => {}
    }
    let key = pos.render();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let best = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.try_play(m).unwrap();
            let (v, p) = negamax(&child, memo);
            (-v, p + 1)
        })
        .max_by_key(|&(v, p)| (v, if v > 0 { -(p as i64) } else { p as i64 }))
        .unwrap();
    memo.insert(key, best);
    best
}

/// Every label of a suite on a free-placement and on a gravity board is the exhaustive
/// search's: each move's value for its player and, for wins and losses, its distance.
#[test]
fn suite_labels_match_an_exhaustive_search() {
    for board in [Variant::tictactoe(), "connect:4,4,3".parse().unwrap()] {
        let spec = SuiteSpec { board, positions: 30, seed: 5, solver_seconds: 10.0, per_game: 3 };
        let (suite, counts) = make_suite(&spec, |_, _| {}).unwrap();
        assert_eq!(suite.positions.len(), 30, "{board}: {counts:?}");
        let mut memo = HashMap::new();
        let mut tactics = 0;
        for p in &suite.positions {
            let pos = p.position(board).unwrap();
            assert_eq!(p.values.len(), pos.legal_moves().len());
            for MoveValue { mv, value, plies } in &p.values {
                let mut child = pos.clone();
                child.play_sequence(mv).unwrap();
                let (v, d) = negamax(&child, &mut memo);
                let want = (-v, if v == 0 { None } else { Some(d + 1) });
                assert_eq!((*value, *plies), want, "{board} after {:?}: move {mv}", p.moves);
            }
            assert!(p.values.iter().any(|v| v.value != p.value()), "a move can go wrong");
            tactics += usize::from(p.tactic);
        }
        assert!(tactics > 0 && tactics < 30, "{board}: one-ply tactics are a group, not all: {tactics}");
        // No two positions equal under the board's symmetries.
        let mut seen = std::collections::HashSet::new();
        assert!(suite.positions.iter().all(|p| seen.insert(p.position(board).unwrap().canonical_hash())));
    }
}

/// A suite reads back as written; one whose value list does not match the position's legal
/// moves is refused, naming the position.
#[test]
fn a_suite_file_round_trips_and_a_wrong_one_is_refused() {
    let dir = Scratch::new("suite-file");
    let spec = SuiteSpec { board: Variant::tictactoe(), positions: 5, seed: 2, solver_seconds: 5.0, per_game: 2 };
    let (suite, _) = make_suite(&spec, |_, _| {}).unwrap();
    let path = dir.join("s.ron");
    save_suite(&path, &suite).unwrap();
    assert_eq!(load_suite(&path).unwrap(), suite);
    let mut wrong = suite.clone();
    wrong.positions[3].values.pop();
    save_suite(&path, &wrong).unwrap();
    let e = load_suite(&path).unwrap_err().to_string();
    assert!(e.contains("position 3") && e.contains("legal moves"), "{e}");
}

/// An experiment of two agents on a committed suite: one row per agent, budget and position;
/// each row's verdict is the suite's; a run cut short (rows lost, a torn last line) resumes to
/// exactly the rows of a whole run, and a second run into the folder needs --resume.
#[test]
fn an_experiment_writes_a_row_a_search_and_resumes() {
    let dir = Scratch::new("accuracy-run");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let suite = root.join("saves/suites/quick-connect-5-4-4.ron");
    let exp = dir.join("e.ron");
    std::fs::write(
        &exp,
        format!(
            r#"(name: "t", suites: [{suite:?}], agents: [(agent: Preset("random")), (agent: Preset("strong-ab"))],
               work: Some((from: 6, to: 8)), positions: Some(40), seed: 3, threads: 2)"#
        ),
    )
    .unwrap();
    let out = dir.join("run");
    let o = mnklab(&["accuracy", exp.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = read_moves(&out.join("moves.csv")).unwrap();
    // random: one search a position; strong-ab: 3 budgets.
    assert_eq!(rows.len(), 40 + 3 * 40);
    let s = load_suite(&suite).unwrap();
    for r in &rows {
        let p = &s.positions[r.position];
        let expect = match p.thrown_away(&r.mv) {
            Some(1) => "win",
            Some(_) => "draw",
            None => "",
        };
        assert_eq!(r.thrown, expect, "{r:?}");
        assert_eq!((r.game, r.keepers, r.legal), (p.game, p.keepers(), p.values.len()));
        // The work column: what a node budget allowed, and no more.
        if r.budget_kind == "nodes" {
            let budget: u64 = r.budget.parse().unwrap();
            assert!(r.work > 0 && r.work <= budget, "{r:?}");
        }
    }
    let table = std::fs::read_to_string(out.join("accuracy.csv")).unwrap();
    assert!(table.starts_with("board,agent,budget_kind,budget,group,positions,mistakes,rate,lo,hi,"), "{table}");
    let random = rows.iter().filter(|r| r.agent == "random").count();
    let line = format!("\"connect:5,4,4\",random,none,0,all,{random},");
    assert!(table.contains(&line), "{table}");
    // Again into the same folder: refused, nothing lost.
    let o = mnklab(&["accuracy", exp.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--resume"));
    // Another experiment into it: named so, never told to resume (a trial was, then refused).
    let other = exp.with_file_name("other.ron");
    std::fs::write(&other, std::fs::read_to_string(&exp).unwrap().replace("seed: ", "seed: 9")).unwrap();
    let o = mnklab(&["accuracy", other.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("another experiment") && !err.contains("--resume"), "{err}");
    // Cut short: the first 50 rows and half of the next line kept.
    let text = std::fs::read_to_string(out.join("moves.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = format!("{}\n{}", lines[..51].join("\n"), &lines[51][..lines[51].len() / 2]);
    std::fs::write(out.join("moves.csv"), cut).unwrap();
    let o = mnklab(&["accuracy", exp.to_str().unwrap(), "--out", out.to_str().unwrap(), "--resume"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut again = read_moves(&out.join("moves.csv")).unwrap();
    let mut first = rows.clone();
    let key = |r: &mnklab::arena::accuracy::MoveRow| (r.agent.clone(), r.budget.clone(), r.position);
    again.sort_by_key(key);
    first.sort_by_key(key);
    assert_eq!(again.len(), first.len(), "no search lost or made twice");
    for (a, b) in again.iter().zip(&first) {
        assert_eq!((&a.mv, a.seed), (&b.mv, b.seed), "the same seeded search: the same move");
    }
}

/// Experiment files name their problems: an agent that cannot be measured, no budget.
#[test]
fn a_bad_experiment_is_refused_with_its_reason() {
    let dir = Scratch::new("accuracy-bad");
    let cases = [
        (
            r#"(name: "t", suites: ["s.ron"], agents: [(agent: Preset("solver"))], work: Some((from: 6, to: 7)))"#,
            "the solver is the judge",
        ),
        (r#"(name: "t", suites: ["s.ron"], agents: [(agent: Preset("random"))])"#, "no budget"),
        (
            r#"(name: "t", suites: ["s.ron"], agents: [(agent: Preset("random"))], cpu_seconds: [0.0])"#,
            "cpu_seconds: 0",
        ),
        (
            r#"(name: "t", suites: ["s.ron"], agents: [(agent: Preset("alam-ab"))], work: Some((from: 6, to: 7)))"#,
            "alam-ab",
        ),
        (r#"(name: "t", suits: ["s.ron"])"#, "did you mean `suites`?"),
        (r#"(name: "t", suites: [], agents: [(agent: Preset("random"))], cpu_seconds: [0.1])"#, "at least one suite"),
        (
            r#"(name: "t", suites: ["s.ron"], agents: [(agent: Preset("random"))], work: Some((from: 7, to: 6)))"#,
            "from 7 to 6",
        ),
        // A suite's path written from the repository, not from the experiment's folder.
        (
            r#"(name: "t", suites: ["saves/suites/s.ron"], agents: [(agent: Preset("random"))], cpu_seconds: [0.01])"#,
            "suites[0]: ",
        ),
        (
            r#"(name: "t", suites: ["saves/suites/s.ron"], agents: [(agent: Preset("random"))], cpu_seconds: [0.01])"#,
            "is relative to the experiment file's folder",
        ),
        // More positions than the suite holds (its 3 were used in silence).
        (
            r#"(name: "t", suites: ["s.ron"], agents: [(agent: Preset("random"))], cpu_seconds: [0.01], positions: Some(30))"#,
            "positions: Some(30) is more than suites[0]",
        ),
    ];
    let spec = SuiteSpec { board: Variant::tictactoe(), positions: 3, seed: 2, solver_seconds: 5.0, per_game: 2 };
    save_suite(&dir.join("s.ron"), &make_suite(&spec, |_, _| {}).unwrap().0).unwrap();
    for (text, says) in cases {
        let exp = dir.join("e.ron");
        std::fs::write(&exp, text).unwrap();
        let o = mnklab(&["accuracy", exp.to_str().unwrap(), "--out", dir.join("o").to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(says), "{text}: {err}");
    }
}

/// The committed quick experiment runs from the repository alone: its table, crossovers and
/// a figure a board and axis; at the largest work budget each searching agent makes fewer
/// mistakes than random, by intervals that do not overlap (a search that plays no better
/// than chance would fail this).
#[test]
fn the_quick_experiment_runs_and_search_beats_chance() {
    let dir = Scratch::new("accuracy-quick");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let exp = root.join("saves/experiments/accuracy-quick.ron");
    let out = dir.join("q");
    let o = mnklab(&["accuracy", exp.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["accuracy.csv", "crossovers.csv", "accuracy-work-connect-7-6-4.svg", "accuracy-cpu-mnk-5-5-4.csv"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    // Each pair's crossing said in words, also where there is none; the files named.
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.lines().any(|l| l.starts_with("crossing on ") && l.contains(" (cpu_seconds): ")), "{said}");
    assert!(said.contains("crossovers.csv") && said.contains("accuracy-cpu.svg"), "{said}");
    let crossings = std::fs::read_to_string(out.join("crossovers.csv")).unwrap();
    assert!(crossings.lines().next().unwrap().ends_with(",said"), "{crossings}");
    for rec in csv::Reader::from_reader(crossings.as_bytes()).records() {
        let rec = rec.unwrap();
        assert_eq!(rec[4].is_empty(), &rec[10] == "no crossing in the range", "an empty crossing is said: {rec:?}");
        // A crossing is counted; curves that swap back say so in words.
        let crossings: usize = rec[9].parse().unwrap();
        assert_eq!(rec[4].is_empty(), crossings == 0, "{rec:?}");
        assert_eq!(crossings > 1, rec[10].contains(" crossings, "), "{rec:?}");
    }
    // The figure's CSV holds the budgets (its axis is their log2), and the file has no title.
    let fig_csv = std::fs::read_to_string(out.join("accuracy-cpu.csv")).unwrap();
    assert!(fig_csv.lines().any(|l| l.contains(",0.002,")), "{fig_csv}");
    let svg = std::fs::read_to_string(out.join("accuracy-work.svg")).unwrap();
    assert!(!svg.contains("judged by the solver"), "no title drawn");
    let mut reader = csv::Reader::from_path(out.join("accuracy.csv")).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let boards: std::collections::BTreeSet<&str> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(boards.len(), 3);
    for board in boards {
        let cell = |agent: &str, budget: &str| -> (f64, f64) {
            let r = rows.iter().find(|r| &r[0] == board && &r[1] == agent && &r[3] == budget && &r[4] == "all");
            let r = r.unwrap_or_else(|| panic!("{board} {agent} {budget}"));
            (r[8].parse().unwrap(), r[9].parse().unwrap())
        };
        let (random_lo, _) = cell("random", "0");
        for agent in ["strong-ab-v1", "strong-mcts", "plain-ab", "plain-uct"] {
            let (_, hi) = cell(agent, "4096");
            assert!(hi < random_lo, "{board}: {agent} at 4096 ({hi}) against random ({random_lo})");
        }
    }
}

/// Every committed suite reads (each position's moves legal, its value list the legal moves),
/// each position has a move that throws its value away, and the 4,4,3 suite's every label is
/// the exhaustive search's.
#[test]
fn the_committed_suites_hold_what_they_say() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/suites");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let suite = load_suite(&e.path()).unwrap_or_else(|err| panic!("{err}"));
        assert!(suite.positions.iter().all(|p| p.keepers() < p.values.len()), "{}", e.path().display());
        let want = if e.file_name().to_string_lossy().starts_with("quick-") { 100 } else { 1000 };
        assert_eq!(suite.positions.len(), want, "{}", e.path().display());
        if suite.board == "mnk:4,4,3".parse().unwrap() {
            let mut memo = HashMap::new();
            for p in &suite.positions {
                let pos = p.position(suite.board).unwrap();
                for v in &p.values {
                    let mut child = pos.clone();
                    child.play_sequence(&v.mv).unwrap();
                    let (value, d) = negamax(&child, &mut memo);
                    assert_eq!((v.value, v.plies), (-value, (value != 0).then_some(d + 1)), "{:?} {}", p.moves, v.mv);
                }
            }
        }
        n += 1;
    }
    assert!(n >= 7, "{n} suites");
}
