//! Strength against budget by games: openings the solver proved drawn (checked here by an
//! exhaustive search), an SPRT that stops each pairing at the same game however many workers
//! play and after a stop and resume, and ratings that follow the games.

use std::path::Path;
use std::process::Command;

use mnklab::arena::accuracy::{SuiteSpec, make_suite, save_suite};
use mnklab::arena::ladder::{EloRow, LadderExperiment, run_ladder};
use mnklab::arena::stats::{sprt_bounds, sprt_llr};
use mnklab::arena::{GameRecord, RunOptions, read_results};
use mnklab::game::{AnyPosition, Variant};
use mnklab::search::SearchControl;

use crate::scratch::Scratch;

const QUICK: &str = "saves/experiments/quick/ladder-work.ron";

fn quick() -> LadderExperiment {
    LadderExperiment::load(Path::new(QUICK)).unwrap()
}

fn base() -> &'static Path {
    Path::new(QUICK).parent().unwrap()
}

fn run(exp: &LadderExperiment, out: &Path, threads: usize, resume: bool, stop_after: Option<u64>) -> Vec<EloRow> {
    let opts = RunOptions { threads, out: out.to_path_buf(), resume, scale: 1.0, games: None, shard: None };
    let control = SearchControl::new();
    let outcome = run_ladder(exp, base(), &opts, &control, |p| {
        if stop_after.is_some_and(|n| p.done >= n) {
            control.stop();
        }
    })
    .unwrap();
    outcome.rows
}

/// The openings are positions an exhaustive search finds drawn, with at most the stones
/// asked, as many as asked, all different; a suite with too few is refused by name.
#[test]
fn the_openings_are_proven_draws() {
    let dir = Scratch::new("ladder-openings");
    let spec = SuiteSpec { board: Variant::tictactoe(), positions: 40, seed: 3, solver_seconds: 5.0, per_game: 3 };
    save_suite(&dir.join("s.ron"), &make_suite(&spec, |_, _| {}).unwrap().0).unwrap();
    let text = |count: usize| {
        format!(
            r#"(name: "t", openings: (suite: "s.ron", count: {count}, max_stones: 4),
                agents: [(agent: Preset("random"))], cpu_seconds: [0.001],
                ladder: [(agent: Preset("random"))],
                sprt: (elo0: -100, elo1: 100, alpha: 0.05, beta: 0.05), games: 4)"#
        )
    };
    let exp = LadderExperiment::parse(&text(4), &dir.join("e.ron")).unwrap();
    let (board, openings) = exp.openings(&dir).unwrap();
    assert_eq!((board, openings.len()), (Variant::tictactoe(), 4));
    let mut memo = Default::default();
    for o in &openings {
        let mut p = AnyPosition::new(board);
        p.play_sequence(o).unwrap();
        assert!(o.split_whitespace().count() <= 4, "{o}");
        assert_eq!(crate::accuracy::negamax(&p, &mut memo).0, 0, "{o} is not a draw");
    }
    let mut unique = openings.clone();
    unique.dedup();
    assert_eq!(unique.len(), openings.len());
    let err = LadderExperiment::parse(&text(400), &dir.join("e.ron")).unwrap().openings(&dir).unwrap_err();
    assert!(err.to_string().contains("fewer than the 400 asked"), "{err}");
}

/// Each pairing's games, in schedule order, stop where the test first crosses a bound, or
/// run to the most games: never past the crossing, never short of it.
fn assert_stopped_at_the_crossing(records: &[GameRecord], exp: &LadderExperiment) {
    let mut by_pairing: std::collections::BTreeMap<(usize, usize), Vec<&GameRecord>> = Default::default();
    for r in records {
        by_pairing.entry((r.players[0].min(r.players[1]), r.players[0].max(r.players[1]))).or_default().push(r);
    }
    let (lower, upper) = sprt_bounds(exp.sprt.alpha, exp.sprt.beta);
    let mut stopped_early = 0;
    for ((lo, _), games) in &mut by_pairing {
        games.sort_by_key(|r| r.index);
        let mut wdl = [0.0; 3];
        let mut crossed_here = false;
        for (i, g) in games.iter().enumerate() {
            let s = g.score_of(*lo).unwrap();
            wdl[if s == 1.0 {
                0
            } else if s == 0.5 {
                1
            } else {
                2
            }] += 1.0;
            let llr = sprt_llr(wdl[0], wdl[1], wdl[2], exp.sprt.elo0, exp.sprt.elo1);
            let crossed = llr <= lower || llr >= upper;
            assert_eq!(crossed, crossed && i + 1 == games.len(), "played past the crossing");
            crossed_here |= crossed;
        }
        assert!(games.len() == exp.games as usize || crossed_here, "stopped short of the crossing");
        stopped_early += usize::from(crossed_here && games.len() < exp.games as usize);
    }
    assert!(stopped_early > 0 && stopped_early < by_pairing.len(), "the test stops some pairings, not all");
}

/// The same games and ratings on one worker and on two, and after a stop and a resume; the
/// SPRT stops each pairing at its crossing; the stronger rung rates above the weaker.
#[test]
fn a_ladder_is_the_same_however_it_is_run() {
    let dir = Scratch::new("ladder-runs");
    let exp = quick();
    let one = run(&exp, &dir.join("one"), 1, false, None);
    let two = run(&exp, &dir.join("two"), 2, false, None);
    assert_eq!(one, two);
    let part = run(&exp, &dir.join("resumed"), 2, false, Some(40));
    assert_ne!(part, one, "stopped part-way");
    assert_eq!(run(&exp, &dir.join("resumed"), 2, true, None), one);
    let records = read_results(&dir.join("one").join("results.ronl")).unwrap();
    assert_stopped_at_the_crossing(&records, &exp);
    for name in ["elo.csv", "elo-work.svg", "elo-work.csv", "ladder.ron"] {
        assert!(dir.join("one").join(name).is_file(), "{name}");
    }
    let rung = |name: &str| one.iter().find(|r| r.agent == name && r.budget_kind == "ladder").unwrap().clone();
    let (weak, strong) = (rung("uct-64"), rung("uct-1024"));
    assert_eq!((weak.elo, weak.lo, weak.hi), (0.0, 0.0, 0.0), "the first rung is the anchor");
    assert!(strong.lo > 0.0, "1024 iterations rate above 64: {strong:?}");
    // Every row's games and points are those of results.ronl.
    for r in &one {
        let games = records.iter().filter(|g| g.names.iter().any(|n| n.starts_with(&r.agent))).count();
        assert!(games as u32 >= r.games, "{r:?}");
    }
}

/// The command line: the ratings on standard output, the files named; a second run into
/// the same folder is refused until told to resume; a bad file says what is wrong.
#[test]
fn the_ladder_command_writes_its_files_and_refuses_bad_input() {
    let dir = Scratch::new("ladder-cli");
    let out = dir.join("run");
    let mnklab = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_mnklab")).args(args).output().unwrap();
    let o = mnklab(&["ladder", QUICK, "--out", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.starts_with("board,agent,budget_kind,budget,games,points,elo,lo,hi\n"), "{text}");
    assert!(text.contains("uct-1024,ladder") && text.contains("elo-work.svg"), "{text}");
    let again = mnklab(&["ladder", QUICK, "--out", out.to_str().unwrap()]);
    assert!(!again.status.success() && String::from_utf8_lossy(&again.stderr).contains("--resume"));
    let exp = std::fs::read_to_string(QUICK).unwrap();
    // The file's own paths, made absolute for a copy in the scratch folder.
    let saves = format!("{}/", Path::new("saves").canonicalize().unwrap().display());
    let agents = format!("{}", Path::new("saves/experiments/agents").canonicalize().unwrap().display());
    for (from, to, says) in [
        ("games: 12", "games: 7", "not an even number"),
        ("from: 6, to: 10", "from: 10, to: 6", "from 10 to 6"),
        // The budgets are checked as the accuracy experiment checks them (one rule).
        ("work: Some((from: 6, to: 10))", "work: None", "no budget: give work"),
        ("work: Some((from: 6, to: 10))", "cpu_seconds: [0.5, -1.0]", "cpu_seconds: -1 is not a budget"),
        ("count: 6", "count: 6000", "fewer than the 6000 asked"),
    ] {
        let bad = dir.join("bad.ron");
        std::fs::write(&bad, exp.replace(from, to).replace("../../", &saves).replace("../agents", &agents)).unwrap();
        let o = mnklab(&["ladder", bad.to_str().unwrap(), "--out", dir.join("x").to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(says), "{to}: {err}");
    }
}
