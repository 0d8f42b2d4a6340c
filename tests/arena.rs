//! The arena: interrupted runs resume to exactly the uninterrupted results, statistics match
//! hand-computed values, and malformed matchups are refused with the field named.

use std::path::Path;

use mnklab::agents::LoadAgentError;
use mnklab::arena::stats::{elo, sprt_llr};
use mnklab::arena::{
    EntrantError, GameRecord, Matchup, Outcome, RecordProblem, ResultsError, RunError, RunOptions, read_results,
    run_matchup, summarize, wilson,
};
use mnklab::search::SearchControl;

use crate::scratch::Scratch;

const QUICK: &str = r#"(
    name: "quick",
    variants: List(["mnk:4,4,3", "connect:5,4,4"]),
    agents: [
        (agent: Preset("random")),
        (name: Some("mcts-200"), agent: Preset("alam-mcts"), limits: Some((iterations: Some(200)))),
        (name: Some("ab-3"), agent: Preset("strong-ab"), limits: Some((depth: Some(3)))),
    ],
    pairing: RoundRobin,
    games: 4,
    seed: 99,
    opening: RandomPlies(1),
)"#;

fn temp_dir(tag: &str) -> Scratch {
    Scratch::new(&format!("arena-{tag}"))
}

fn opts(out: &Path, threads: usize, resume: bool) -> RunOptions {
    RunOptions { threads, out: out.to_path_buf(), resume, scale: 1.0, games: None, shard: None }
}

fn comparable(mut v: Vec<GameRecord>) -> Vec<(u64, Vec<String>, Outcome, Vec<String>)> {
    v.sort_by_key(|r| r.index);
    v.into_iter().map(|r| (r.index, r.names.to_vec(), r.outcome, r.moves.into_iter().map(|m| m.mv).collect())).collect()
}

#[test]
fn resumed_and_threaded_runs_equal_one_uninterrupted_run() {
    let m = Matchup::parse(QUICK, "quick.ron".as_ref()).unwrap();
    let control = SearchControl::new();
    // The reference: one thread, start to end.
    let a = temp_dir("a");
    let full = run_matchup(&m, Path::new("."), &opts(&a, 1, false), &control, |_| {}).unwrap();
    assert_eq!(full.len(), 2 * 3 * 4);
    // Two threads give the same games.
    let b = temp_dir("b");
    let threaded = run_matchup(&m, Path::new("."), &opts(&b, 2, false), &control, |_| {}).unwrap();
    assert_eq!(comparable(threaded), comparable(full.clone()));
    // Interrupted after 7 games (the last line cut off half-way, as by a kill), then resumed.
    let c = temp_dir("c");
    let stop = SearchControl::new();
    let mut seen = 0;
    let _ = run_matchup(&m, Path::new("."), &opts(&c, 2, false), &stop, |_| {
        seen += 1;
        if seen == 7 {
            stop.stop();
        }
    });
    let results = c.join("results.ronl");
    let text = std::fs::read_to_string(&results).unwrap();
    let kept = read_results(&results).unwrap().len();
    assert!((7..24).contains(&kept), "{kept} games before the interruption");
    let cut = text.len() - text.lines().last().unwrap().len() / 2 - 1;
    std::fs::write(&results, &text[..cut]).unwrap();
    assert_eq!(read_results(&results).unwrap().len(), kept - 1, "the cut line is dropped");
    // Without --resume the folder is refused; with it the run completes.
    let refused = run_matchup(&m, Path::new("."), &opts(&c, 2, false), &control, |_| {}).unwrap_err();
    assert!(matches!(&refused, RunError::HoldsResults(dir) if dir == &*c), "{refused}");
    assert!(refused.to_string().contains("--resume"), "the message says how to continue: {refused}");
    let resumed = run_matchup(&m, Path::new("."), &opts(&c, 2, true), &control, |_| {}).unwrap();
    assert_eq!(comparable(resumed), comparable(full.clone()));
    // No game was played twice: the file holds each index once.
    let on_disk = read_results(&results).unwrap();
    let mut idx: Vec<u64> = on_disk.iter().map(|r| r.index).collect();
    idx.sort();
    idx.dedup();
    assert_eq!(idx.len(), on_disk.len());
    // CSV files hold a row per game and per move.
    let games_csv = std::fs::read_to_string(c.join("games.csv")).unwrap();
    assert_eq!(games_csv.lines().count(), 1 + 24);
    let moves_csv = std::fs::read_to_string(c.join("moves.csv")).unwrap();
    let total_moves: usize = full.iter().map(|r| r.moves.len()).sum();
    assert_eq!(moves_csv.lines().count(), 1 + total_moves);
    // Every agent's score in one unit: the expected result for the mover, -1..1, beside the
    // score as the workbench prints it.
    let mut reader = csv::Reader::from_reader(moves_csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (score, expected) = (col("score"), col("expected"));
    for row in reader.records() {
        let row = row.unwrap();
        if &row[score] == "?" {
            // The random agent values nothing.
            assert_eq!(&row[expected], "", "{row:?}");
            continue;
        }
        let e: f64 = row[expected].parse().unwrap_or_else(|_| panic!("expected in {row:?}"));
        assert!((-1.0..=1.0).contains(&e), "{row:?}");
    }
    // Resuming with a different matchup is refused.
    let mut other = m.clone();
    other.seed = 5;
    let other_matchup = run_matchup(&other, Path::new("."), &opts(&c, 2, true), &control, |_| {}).unwrap_err();
    assert!(
        matches!(&other_matchup, RunError::OtherMatchup { difference, .. } if difference.contains("seed")),
        "{other_matchup}"
    );
}

#[test]
fn shards_merge_into_the_whole() {
    let m = Matchup::parse(QUICK, "quick.ron".as_ref()).unwrap();
    let control = SearchControl::new();
    let whole = temp_dir("whole");
    let full = run_matchup(&m, Path::new("."), &opts(&whole, 2, false), &control, |_| {}).unwrap();
    let mut parts = Vec::new();
    for i in 0..3 {
        let d = temp_dir(&format!("shard{i}"));
        let o = RunOptions { shard: Some((i, 3)), ..opts(&d, 1, false) };
        parts.push(run_matchup(&m, Path::new("."), &o, &control, |_| {}).unwrap());
    }
    let merged = mnklab::arena::merge(parts.clone()).unwrap();
    assert_eq!(comparable(merged), comparable(full.clone()));
    // The same game with another result in a second shard is refused by its index.
    let mut other = full[0].clone();
    other.outcome = if other.outcome == Outcome::Draw { Outcome::FirstWins } else { Outcome::Draw };
    let e = mnklab::arena::merge(vec![full.clone(), vec![other]]).unwrap_err();
    assert!(matches!(e, ResultsError::Conflict(i) if i == full[0].index), "{e}");
}

/// What a run folder or results file may be refused for, each by its kind and place.
#[test]
fn results_are_refused_by_kind_and_line() {
    use mnklab::arena::results::load_run;
    let dir = temp_dir("refused");
    let e = load_run(&dir.join("nowhere")).err().unwrap();
    assert!(matches!(e, ResultsError::NoRun(_)), "{e}");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let e = load_run(&dir.join("empty")).err().unwrap();
    assert!(matches!(e, ResultsError::NoResultsFile(_)), "{e}");
    let results = dir.join("results.ronl");
    std::fs::write(&results, "\n(not a game)\n").unwrap();
    let e = read_results(&results).unwrap_err();
    assert!(matches!(e, ResultsError::NotAGame { line: 2, .. }), "{e}");
    assert!(e.to_string().contains("results.ronl:2: not a game record"), "{e}");
}

/// A shard's games are the schedule's games with index % n == i, in order, whatever the
/// shard (one past the schedule's end, more shards than games, one shard, not a shard).
#[test]
fn a_shards_schedule_is_its_slice_of_the_whole() {
    let m = Matchup::parse(QUICK, "quick.ron".as_ref()).unwrap();
    let whole: Vec<_> = m.schedule().collect();
    assert!(whole.len() >= 6, "a schedule to slice");
    let len = whole.len() as u64;
    for (i, n) in [(0, 1), (0, 3), (1, 3), (2, 3), (len - 1, len), (0, len + 5), (len + 1, len + 5), (5, 3)] {
        let expected: Vec<_> = whole.iter().filter(|g| i < n && g.index % n == i).cloned().collect();
        let indices = |v: &[mnklab::arena::GameSpec]| v.iter().map(|g| g.index).collect::<Vec<_>>();
        let got: Vec<_> = m.shard_schedule(Some((i, n))).collect();
        assert_eq!(indices(&got), indices(&expected), "shard {i}/{n}");
        assert_eq!(got, expected, "shard {i}/{n}: the same games, seeds and colours");
    }
    assert_eq!(m.shard_schedule(None).collect::<Vec<_>>(), whole);
}

#[test]
fn statistics_match_hand_computed_values() {
    // Wilson 95% interval of 7 successes in 10: (0.3968, 0.8922) (textbook value).
    let (lo, hi) = wilson(0.7, 10.0, 1.959963984540054);
    assert!((lo - 0.3968).abs() < 1e-4 && (hi - 0.8922).abs() < 1e-4, "{lo} {hi}");
    // A 75% score is +190.8 Elo; 50% is 0.
    assert!((elo(0.75) - 190.848).abs() < 0.01);
    assert!(elo(0.5).abs() < 1e-9);
    // SPRT log-likelihood ratio, by hand: W 60, D 20, L 20 (n 100), elo0 0, elo1 10:
    // mean 0.7, var with half a game of each result added (60.5*0.09 + 20.5*0.04 +
    // 20.5*0.49)/101.5 = 0.160690, s0 0.5, s1 0.514387,
    // LLR = 100 * 0.014387 * (1.4 - 1.014387) / (2 * 0.160690) = 1.7263.
    assert!((sprt_llr(60.0, 20.0, 20.0, 0.0, 10.0) - 1.7263).abs() < 1e-3);
    // One-sided records are decided, whichever side has no wins (0-1-99 used to give 0 and
    // run every game); all draws between symmetric bounds stay undecided.
    let (lower, upper) = mnklab::arena::stats::sprt_bounds(0.05, 0.05);
    assert!(sprt_llr(0.0, 1.0, 99.0, -35.0, 35.0) < lower);
    assert!(sprt_llr(99.0, 1.0, 0.0, -35.0, 35.0) > upper);
    assert!(sprt_llr(0.0, 0.0, 30.0, -35.0, 35.0) < lower);
    assert_eq!(sprt_llr(0.0, 50.0, 0.0, -35.0, 35.0), 0.0);
    // One game decides nothing (a single win once read as proof of H1 and stopped the pairing),
    // nor do a few.
    for (w, d, l) in [(1.0, 0.0, 0.0), (0.0, 0.0, 1.0), (3.0, 0.0, 0.0), (2.0, 1.0, 0.0)] {
        let llr = sprt_llr(w, d, l, 0.0, 100.0);
        assert!(llr > lower && llr < upper, "{w}-{d}-{l}: {llr}");
    }
    // Summaries of made-up games: a beats b 2 wins, 1 draw, 1 loss.
    let game = |index, players: [usize; 2], outcome| {
        let names = [format!("p{}", players[0]), format!("p{}", players[1])];
        GameRecord::with_result(index, "tictactoe".parse().unwrap(), players, names, outcome)
    };
    let games = vec![
        game(0, [0, 1], Outcome::FirstWins),
        game(1, [1, 0], Outcome::SecondWins),
        game(2, [0, 1], Outcome::Draw),
        game(3, [1, 0], Outcome::FirstWins),
    ];
    let s = &summarize(&games)[0];
    assert_eq!((s.wins, s.draws, s.losses), (2, 1, 1));
    assert!((s.score - 0.625).abs() < 1e-12);
    assert_eq!((s.first_player_wins, s.second_player_wins), (2, 1));
    assert_eq!(s.names, ["p0".to_string(), "p1".to_string()]);
    assert!((s.elo - elo(0.625)).abs() < 1e-9);
}

#[test]
fn malformed_matchups_name_the_field() {
    for (text, needle) in [
        (QUICK.replace("games: 4", "games: 0"), "games"),
        (QUICK.replace("pairing: RoundRobin", "pairing: Everyone"), "Everyone"),
        (QUICK.replace("\"mnk:4,4,3\"", "\"mnk:4,4,9\""), "K = 9"),
        (QUICK.replace("seed: 99", "sed: 99"), "sed"),
        (QUICK.replace("pairing: RoundRobin", "pairing: Between([0], [7])"), "agent index 7"),
        (QUICK.replace("limits: Some((depth: Some(3)))", "limits: Some((depth: Some(0)))"), "depth"),
    ] {
        let err = Matchup::parse(&text, "m.ron".as_ref()).map(|m| m.resolve(Path::new(".")).map(|_| ()));
        let msg = match err {
            Err(e) => e.to_string(),
            Ok(Err(e)) => e.to_string(),
            Ok(Ok(())) => panic!("accepted: {needle}"),
        };
        assert!(msg.contains(needle), "{needle}: {msg}");
    }
    let bad_agent = QUICK.replace("Preset(\"random\")", "Preset(\"nobody\")");
    let m = Matchup::parse(&bad_agent, "m.ron".as_ref()).unwrap();
    let err = m.resolve(Path::new(".")).unwrap_err();
    assert!(
        matches!(err, EntrantError::Load { index: 0, source: LoadAgentError::Unknown(ref name) } if name == "nobody"),
        "{err}"
    );
}

#[test]
fn shipped_experiments_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/experiments");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        // Sub-folders hold the quick set's twins and agent files (tests/files.rs walks them).
        // Accuracy experiments and ladders are run by `mnklab accuracy` and `mnklab ladder`
        // (tests/accuracy.rs, tests/ladder.rs).
        let kind = if path.is_dir() { None } else { Some(mnklab::io::file_kind(&path).unwrap()) };
        if kind.is_none_or(|k| matches!(k, mnklab::io::FileKind::Accuracy | mnklab::io::FileKind::Ladder)) {
            continue;
        }
        let m = Matchup::load(&path).unwrap_or_else(|e| panic!("{e}"));
        m.resolve(path.parent().unwrap()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(m.schedule().next().is_some());
        n += 1;
    }
    assert!(n >= 7);
    // Lim's grid: M, N in 8..15, each board once (36 boards; a board and its transpose are the
    // same game), two K each.
    for file in ["lim-grid-3s.ron", "lim-grid-5s.ron"] {
        let lim = Matchup::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/experiments").join(file)).unwrap();
        let variants = lim.variant_list().unwrap();
        assert_eq!(variants.len(), 72, "{file}");
        let boards: std::collections::HashSet<(u32, u32)> =
            variants.iter().map(|v| v.grid().map(|g| (g.width() as u32, g.height() as u32)).unwrap()).collect();
        assert_eq!(boards.len(), 36, "{file}");
        assert!(boards.iter().all(|&(m, n)| m >= n && (8..=15).contains(&n) && (8..=15).contains(&m)), "{file}");
    }
}

/// A long run is summarised in bounded memory: the summary keeps counts, exact means and a
/// thinned sample for medians, never every move (a run of millions of fast games once grew
/// without bound). Means stay exact, the median of the thinned sample stays close, and the
/// table says the medians are of a sample.
#[test]
fn a_long_run_is_summarised_in_bounded_memory() {
    use mnklab::arena::{MoveRecord, Summarizer};
    let mut summary = Summarizer::default();
    let moves_per_game = 100u64;
    let games = 20_000u64; // 2 million moves: more than the sample keeps
    for index in 0..games {
        let moves = (0..moves_per_game)
            .map(|i| {
                let k = index * moves_per_game + i;
                MoveRecord {
                    player: (i % 2) as u8,
                    mv: "a1".into(),
                    // Times 0..1 s spread evenly (a scrambled order), nodes = 2 * k.
                    time: ((k * 7919) % 1_000_000) as f64 / 1e6,
                    nodes: 2 * k,
                    iterations: 0,
                    depth: 1,
                    eval: 0.0,
                    score: None,
                    memory: 0,
                    unsearched: false,
                    cpu: None,
                }
            })
            .collect();
        let players = [(index % 2) as usize, 1 - (index % 2) as usize];
        let outcome = if index % 3 == 0 { Outcome::Draw } else { Outcome::FirstWins };
        let mut game =
            GameRecord::with_result(index, "tictactoe".parse().unwrap(), players, ["p0".into(), "p1".into()], outcome);
        game.moves = moves;
        summary.add(&game);
    }
    assert!(summary.held_samples() <= 4 * (1 << 18), "holds {} samples", summary.held_samples());
    let s = &summary.finish()[0];
    assert_eq!(s.games as u64, games);
    assert!(s.medians_thinned);
    // Exact mean of an even spread over [0, 1): 0.4999995.
    let mean_time = (s.mean_time[0] + s.mean_time[1]) / 2.0;
    assert!((mean_time - 0.4999995).abs() < 1e-3, "{mean_time}");
    for m in s.median_time {
        assert!((m - 0.5).abs() < 0.01, "median {m}");
    }
    assert!(mnklab::arena::table(&summary.finish()).contains("games"));
}

/// The streamed summary of a run equals the summary of its games read back, and the CSV
/// exports written from the results file hold one row a game and a move.
#[test]
fn a_streamed_run_summary_equals_the_summary_of_its_games() {
    let m = Matchup::parse(QUICK, "quick.ron".as_ref()).unwrap();
    let dir = temp_dir("streamed");
    let summary =
        mnklab::arena::run_matchup_summary(&m, Path::new("."), &opts(&dir, 2, false), &SearchControl::new(), |_| {})
            .unwrap();
    let games = read_results(&dir.join("results.ronl")).unwrap();
    assert_eq!(summary.games, games.len() as u64);
    assert_eq!(summary.stats, summarize(&games));
    let rows = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap().lines().count() - 1;
    assert_eq!(rows("games.csv"), games.len());
    assert_eq!(rows("moves.csv"), games.iter().map(|g| g.moves.len()).sum::<usize>());
}

/// Elo cells never show "-0" or an error of "+-0" from games that all scored the same.
#[test]
fn elo_cells_of_all_draws_say_there_is_no_spread() {
    use mnklab::arena::stats::elo_label;
    let mut s = mnklab::arena::PairStats {
        variant: "tictactoe".parse().unwrap(),
        a: 0,
        b: 1,
        names: ["a".into(), "b".into()],
        games: 10,
        wins: 0,
        draws: 10,
        losses: 0,
        score: 0.5,
        score_low: 0.2,
        score_high: 0.8,
        elo: -0.0,
        elo_error: 0.0,
        first_player_wins: 0,
        second_player_wins: 0,
        mean_time: [0.0; 2],
        median_time: [0.0; 2],
        mean_nodes: [0.0; 2],
        median_nodes: [0.0; 2],
        medians_thinned: false,
        forfeits: [0; 2],
    };
    assert_eq!(elo_label(&s), "0 (no spread)");
    (s.wins, s.draws, s.losses, s.elo, s.elo_error, s.score) = (3, 4, 3, -0.3, 120.0, 0.5);
    assert_eq!(elo_label(&s), "0 +-120");
    (s.wins, s.draws, s.losses, s.score) = (0, 0, 10, 0.0);
    assert_eq!(elo_label(&s), "n/a");
}

/// `colours: AsListed` gives the first entrant the first move in every game; a summary by
/// first mover splits alternating games into a row per colour order, whose wins are the first
/// player's (as papers report "player 1 = MCTS" and "player 1 = AB" apart).
#[test]
fn colour_orders_can_be_fixed_and_reported_apart() {
    let text = |colours: &str| {
        format!(
            r#"(name: "colours", variants: List(["tictactoe"]),
                agents: [(agent: Preset("random")), (name: Some("ab"), agent: Preset("strong-ab"), limits: Some((depth: Some(9))))],
                pairing: Pairwise, games: 10, seed: 4{colours})"#
        )
    };
    let fixed = Matchup::parse(&text(", colours: AsListed"), "m.ron".as_ref()).unwrap();
    let dir = temp_dir("colours-fixed");
    let records = run_matchup(&fixed, Path::new("."), &opts(&dir, 2, false), &SearchControl::new(), |_| {}).unwrap();
    assert!(records.iter().all(|r| r.players == [0, 1] && r.names[0] == "random"));

    let alternating = Matchup::parse(&text(""), "m.ron".as_ref()).unwrap();
    let dir = temp_dir("colours-alternate");
    let records =
        run_matchup(&alternating, Path::new("."), &opts(&dir, 2, false), &SearchControl::new(), |_| {}).unwrap();
    let rows = mnklab::arena::summarize_by_first_mover(&records);
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row.games, 5);
        let firsts: Vec<&GameRecord> = records.iter().filter(|r| r.players[0] == row.a).collect();
        assert_eq!(row.names[0], firsts[0].names[0], "the row is seen from its first mover");
        let first_wins = firsts.iter().filter(|r| r.outcome == Outcome::FirstWins).count() as u32;
        assert_eq!(row.wins, first_wins);
        assert_eq!(row.first_player_wins, first_wins);
    }
    // A perfect player never loses tic-tac-toe, from either side.
    let ab_losses: u32 = rows.iter().map(|r| if r.names[0] == "ab" { r.losses } else { r.wins }).sum();
    assert_eq!(ab_losses, 0);
}

/// `Pairing::List` schedules exactly the pairs named (e.g. each alpha-beta against the MCTS of
/// its own time a move), and refuses an index out of range or an agent paired with itself.
#[test]
fn a_list_of_pairs_schedules_only_those_pairs() {
    let text = |pairs: &str| {
        format!(
            r#"(name: "pairs", variants: List(["tictactoe"]),
                agents: [(agent: Preset("random")), (agent: Preset("random")), (agent: Preset("random")), (agent: Preset("random"))],
                pairing: List({pairs}), games: 4, seed: 1)"#
        )
    };
    let m = Matchup::parse(&text("[(0, 2), (3, 1)]"), "m.ron".as_ref()).unwrap();
    let pairs: std::collections::BTreeSet<(usize, usize)> = m.schedule().map(|g| g.pairing).collect();
    assert_eq!(pairs.into_iter().collect::<Vec<_>>(), [(0, 2), (1, 3)]);
    assert_eq!(m.schedule_len(), 8);
    let e = Matchup::parse(&text("[(0, 4)]"), "m.ron".as_ref()).unwrap_err().to_string();
    assert!(e.contains("agent index 4 is out of range"), "{e}");
    let e = Matchup::parse(&text("[(1, 1)]"), "m.ron".as_ref()).unwrap_err().to_string();
    assert!(e.contains("(1, 1) pairs an agent with itself"), "{e}");
    let e = Matchup::parse(&text("[]"), "m.ron".as_ref()).unwrap_err().to_string();
    assert!(e.contains("List is empty"), "{e}");
}

/// The Connect-X study's rule: minimax plays as many moves as its depth after its game budget
/// is spent, then forfeits. The same games with and without it agree move for move up to the
/// forfeit; with it, minimax makes exactly `depth` more moves, each searched to that depth.
#[test]
fn extra_moves_after_the_budget_are_the_depth_then_a_forfeit() {
    let matchup = |extra: &str| {
        let ron = format!(
            r#"(name: "extra", variants: List(["connect4"]),
                agents: [
                    (name: Some("minimax-d3-60"), agent: Preset("connectx-minimax"), limits: Some((depth: Some(3))),
                     game_budget: Some((total: 60, unit: Nodes, strategy: AsNeeded, forfeit: true{extra}))),
                    (name: Some("mcts-2k"), agent: Preset("connectx-mcts"),
                     game_budget: Some((total: 2000, unit: Iterations, strategy: Optimistic, forfeit: true))),
                ],
                pairing: List([(0, 1)]), games: 4, seed: 5)"#
        );
        Matchup::parse(&ron, "m.ron".as_ref()).unwrap()
    };
    let control = SearchControl::new();
    let (a, b) = (temp_dir("extra-none"), temp_dir("extra-depth"));
    let mut without = run_matchup(&matchup(""), Path::new("."), &opts(&a, 2, false), &control, |_| {}).unwrap();
    let mut with =
        run_matchup(&matchup(", extra_moves: Depth"), Path::new("."), &opts(&b, 2, false), &control, |_| {}).unwrap();
    without.sort_by_key(|r| r.index);
    with.sort_by_key(|r| r.index);
    assert_eq!(with.len(), 4);
    // (move, nodes, depth, searched to the end) of each minimax move: times differ by run.
    let minimax_moves = |r: &GameRecord| {
        let side = r.names.iter().position(|n| n == "minimax-d3-60").unwrap() as u8;
        r.moves
            .iter()
            .filter(|m| m.player == side)
            .map(|m| (m.mv.clone(), m.nodes, m.depth, m.unsearched))
            .collect::<Vec<_>>()
    };
    for (n, w) in without.iter().zip(&with) {
        let side = n.names.iter().position(|x| x == "minimax-d3-60").unwrap() as u8;
        assert_eq!(n.forfeit, Some(side), "game {}: 60 nodes do not last a game", n.index);
        let (before, after) = (minimax_moves(n), minimax_moves(w));
        assert_eq!(after[..before.len()], before[..], "game {}: the same moves up to the budget", n.index);
        let extra = &after[before.len()..];
        if w.forfeit.is_some() {
            assert_eq!(w.forfeit, Some(side), "game {}", w.index);
            assert_eq!(w.forfeit_reason.as_deref(), Some("budget"));
            assert_eq!(extra.len(), 3, "game {}: depth 3 grants three moves", w.index);
        } else {
            assert!(extra.len() <= 3, "game {}: ended within the extra moves", w.index);
        }
        assert!(!extra.is_empty());
        assert!(extra.iter().all(|m| m.2 == 3 && !m.3), "game {}: {extra:?}", w.index);
    }
}

/// A matchup's checks name the field at fault and the problem, as values.
#[test]
fn matchup_checks_name_the_field_and_the_problem() {
    use mnklab::arena::{MatchupError, MatchupProblem, Pairing};
    let m = Matchup::parse(QUICK, "quick.ron".as_ref()).unwrap();
    let refused = |edit: &dyn Fn(&mut Matchup)| {
        let mut bad = m.clone();
        edit(&mut bad);
        bad.check().unwrap_err()
    };
    let at = |field: &str, problem| MatchupError { field: field.into(), problem };
    assert_eq!(refused(&|m| m.games = 0), at("games", MatchupProblem::NoGames));
    assert_eq!(refused(&|m| m.pairing = Pairing::List(vec![(1, 1)])), at("pairing", MatchupProblem::SelfPair(1)));
    assert_eq!(refused(&|m| m.agents.truncate(1)), at("agents", MatchupProblem::TooFewAgents(1)));
    assert_eq!(refused(&|m| m.name = "../up".into()), at("name", MatchupProblem::FolderName("../up".into())));
    let e = refused(&|m| m.pairing = Pairing::List(vec![(0, 9)]));
    assert_eq!(e, at("pairing", MatchupProblem::NoSuchAgent { index: 9, agents: m.agents.len() }));
    assert!(e.to_string().starts_with("pairing: agent index 9 is out of range"), "{e}");
}

/// A game record edited by hand, or from another matchup, is refused with what is wrong as
/// a variant: each way of tampering with a real game of a real run.
#[test]
fn a_tampered_record_is_refused_with_what_is_wrong() {
    let text = r#"(name: "m", variants: List(["tictactoe"]), agents: [(name: Some("a"), agent: Preset("random")), (name: Some("b"), agent: Preset("random"))],
                   pairing: RoundRobin, games: 2, seed: 11)"#;
    let m = Matchup::parse(text, "m.ron".as_ref()).unwrap();
    let dir = Scratch::new("tampered");
    let opts = RunOptions { threads: 1, out: dir.join("o"), resume: false, scale: 1.0, games: None, shard: None };
    let games = run_matchup(&m, &dir, &opts, &SearchControl::new(), |_| {}).unwrap();
    let names = ["a".to_string(), "b".to_string()];
    let good =
        games.iter().find(|g| g.outcome != Outcome::Draw && g.forfeit.is_none()).expect("a decided game").clone();
    assert_eq!(m.check_record(&good, Some(&names)), Ok(()));
    let tamper = |f: &dyn Fn(&mut GameRecord)| {
        let mut r = good.clone();
        f(&mut r);
        m.check_record(&r, Some(&names)).unwrap_err()
    };
    let game = good.index;
    assert_eq!(tamper(&|r| r.index = 9), RecordProblem::NotScheduled { game: 9, scheduled: 2 });
    assert!(matches!(tamper(&|r| r.seed ^= 1), RecordProblem::NotAsScheduled { .. }));
    assert!(
        matches!(tamper(&|r| r.names.swap(0, 1)), RecordProblem::Names { ref recorded, .. } if recorded[0] == good.names[1])
    );
    assert!(matches!(tamper(&|r| r.moves[1].time = -1.0), RecordProblem::Time { ply: 2, .. }));
    assert!(matches!(tamper(&|r| r.moves[0].cpu = Some(f64::NAN)), RecordProblem::CpuTime { ply: 1, .. }));
    let first = good.moves[0].mv.clone();
    assert!(matches!(
        tamper(&|r| r.moves[1].mv = first.clone()),
        RecordProblem::Move { ply: 2, ref mv, source: mnklab::game::GameError::IllegalMove { .. }, .. } if *mv == first
    ));
    assert!(matches!(
        tamper(&|r| r.moves[0].mv = "z9".into()),
        RecordProblem::Move { ply: 1, source: mnklab::game::GameError::BadMove { .. }, .. }
    ));
    let extra = tamper(&|r| {
        let mut last = r.moves.last().unwrap().clone();
        last.mv = "a1 b1 c1 a2 b2 c2 a3 b3 c3".split(' ').find(|c| !r.moves.iter().any(|m| m.mv == *c)).unwrap().into();
        r.moves.push(last);
    });
    assert!(matches!(extra, RecordProblem::AfterTheEnd { ply, .. } if ply == good.moves.len() + 1), "{extra}");
    assert_eq!(tamper(&|r| r.forfeit = Some(2)), RecordProblem::Forfeit { game, side: 2 });
    assert_eq!(tamper(&|r| drop(r.moves.pop())), RecordProblem::Unfinished { game });
    let flipped = tamper(&|r| r.outcome = Outcome::Draw);
    assert_eq!(flipped, RecordProblem::Outcome { game, played: good.outcome, recorded: Outcome::Draw });
}
