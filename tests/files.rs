//! Position files: validation errors name the problem; atomic saves; the shipped examples load.

use mnklab::game::{AnyPosition, GameError, Player, SetupError, Status, Variant};
use mnklab::io::{FileError, PositionFile, load_position, save_position};

use crate::scratch::Scratch;

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

/// Every place in `text` where a struct with named fields opens: a `(` whose first item is
/// `name:`, outside strings and `//` comments (a comment's "(tests: ...)" is prose). Each is
/// where a typo'd field could hide.
fn struct_openings(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut in_string = false;
    let mut in_comment = false;
    for (i, &b) in bytes.iter().enumerate() {
        if in_comment {
            in_comment = b != b'\n';
            continue;
        }
        if b == b'"' && (i == 0 || bytes[i - 1] != b'\\') {
            in_string = !in_string;
        }
        if !in_string && b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            in_comment = true;
            continue;
        }
        if in_string || b != b'(' {
            continue;
        }
        let rest = text[i + 1..].trim_start();
        let ident: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !ident.is_empty() && rest[ident.len()..].trim_start().starts_with(':') {
            out.push(i + 1);
        }
    }
    out
}

/// Parses `text` as its file type, or says why not.
type Parser = fn(&str) -> Result<(), String>;

/// Inserts an unknown field into every struct of every sample of every file type: each one
/// must be refused, naming the field (a typo in a limit once searched without limit).
fn every_struct_refuses_an_unknown_field(kind: &str, samples: &[String], parse: Parser) -> usize {
    let mut checked = 0;
    for text in samples {
        parse(text).unwrap_or_else(|e| panic!("{kind}: the sample itself is refused: {e}\n{text}"));
        for at in struct_openings(text) {
            let typo = format!("{}zz_unknown: 1, {}", &text[..at], &text[at..]);
            match parse(&typo) {
                Ok(()) => panic!("{kind}: an unknown field was accepted at byte {at}:\n{typo}"),
                Err(e) => assert!(e.contains("zz_unknown"), "{kind}: the error does not name the field: {e}"),
            }
            checked += 1;
        }
    }
    checked
}

fn ron_files(dir: &str) -> Vec<String> {
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

#[test]
fn every_file_type_refuses_unknown_fields_by_name() {
    use mnklab::agents::AgentFile;
    use mnklab::arena::Matchup;
    let root = env!("CARGO_MANIFEST_DIR");
    // Agent files: every preset, and one with every optional part written out.
    let mut agents = ron_files(&format!("{root}/saves/agents"));
    agents.extend(ron_files(&format!("{root}/saves/experiments/agents")));
    agents.push(
        r#"(version: 1, name: "full", agent: AlphaBeta((tt_mb: 1, heuristic: Kang, threads: 1)),
            limits: (depth: Some(2), nodes: Some(100), time: Some(1.0)),
            game_budget: Some((total: 1000, unit: Nodes, strategy: AsNeeded, forfeit: true)), seed: 3)"#
            .into(),
    );
    let agent: Parser = |t| AgentFile::parse(t, "a.ron".as_ref()).map(drop).map_err(|e| e.to_string());
    let n_agents = every_struct_refuses_an_unknown_field("agent", &agents, agent);

    // Matchups: every shipped experiment, and one with every optional part.
    let kind = |t: &String| mnklab::io::kind_of_text(t);
    let (ladders, shipped): (Vec<String>, Vec<String>) = ron_files(&format!("{root}/saves/experiments"))
        .into_iter()
        .chain(ron_files(&format!("{root}/saves/experiments/quick")))
        .partition(|t| kind(t) == mnklab::io::FileKind::Ladder);
    let (accuracy, matchups_here): (Vec<String>, Vec<String>) = ron_files(&format!("{root}/saves/experiments"))
        .into_iter()
        .filter(|t| kind(t) != mnklab::io::FileKind::Ladder)
        .partition(|t| kind(t) == mnklab::io::FileKind::Accuracy);
    let mut matchups = matchups_here;
    let (quick_accuracy, quick): (Vec<String>, Vec<String>) = ron_files(&format!("{root}/saves/experiments/quick"))
        .into_iter()
        .filter(|t| kind(t) != mnklab::io::FileKind::Ladder)
        .partition(|t| kind(t) == mnklab::io::FileKind::Accuracy);
    assert!(!ladders.is_empty() && !shipped.is_empty());
    let ladder: Parser =
        |t| mnklab::arena::ladder::LadderExperiment::parse(t, "l.ron".as_ref()).map(drop).map_err(|e| e.to_string());
    let n_ladders = every_struct_refuses_an_unknown_field("ladder", &ladders, ladder);
    assert!(n_ladders >= 10, "{n_ladders}");
    let mut accuracy = accuracy;
    accuracy.extend(quick_accuracy);
    matchups.extend(quick);
    matchups.push(
        r#"(name: "full", variants: Grid(widths: [4], heights: [4], k: Fixed([3]), gravity: false, exact: false),
            agents: [(name: Some("a"), agent: Preset("random"), limits: Some((iterations: Some(5))),
                      game_budget: Some((total: 100, unit: Iterations, strategy: Thrifty))),
                     (agent: Inline((name: "b", agent: Random, limits: (nodes: Some(3)))))],
            pairing: Pairwise, games: 2, limits: Some((time: Some(0.1))),
            sprt: Some((elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05)))"#
            .into(),
    );
    let matchup: Parser = |t| Matchup::parse(t, "m.ron".as_ref()).map(drop).map_err(|e| e.to_string());
    let n_matchups = every_struct_refuses_an_unknown_field("matchup", &matchups, matchup);

    // Accuracy experiments and suites: every shipped experiment, one of each with every part.
    let mut experiments = accuracy;
    experiments.push(
        r#"(version: 1, name: "full", description: "d", suites: ["s.ron"], agents: [(name: Some("a"), agent: Preset("random"))],
            work: Some((from: 6, to: 7)), cpu_seconds: [0.01], positions: Some(5), subsample: Some((above: 64, positions: 2)),
            seed: 1, threads: 1)"#
            .into(),
    );
    let experiment: Parser = |t| {
        mnklab::arena::accuracy::AccuracyExperiment::parse(t, "e.ron".as_ref()).map(drop).map_err(|e| e.to_string())
    };
    let n_experiments = every_struct_refuses_an_unknown_field("accuracy experiment", &experiments, experiment);
    let suite = r#"(version: 1, board: "tictactoe", seed: 1, sampled_by: ["random"], solver: "s", made: "2026-12-04",
        positions: [(game: 0, moves: ["b2"], values: [(mv: "a1", value: 0, plies: None), (mv: "a2", value: -1, plies: Some(6))], tactic: false)])"#;
    let suite_parser: Parser = |t| {
        mnklab::io::parse_ron::<mnklab::arena::accuracy::Suite>(t, "s.ron".as_ref(), "suite")
            .map(drop)
            .map_err(|e| e.to_string())
    };
    let n_suites = every_struct_refuses_an_unknown_field("suite", &[suite.to_string()], suite_parser);
    assert!(n_experiments > 8 && n_suites >= 3, "{n_experiments} {n_suites}");

    // Position files: every shipped one, and a set-up with every part.
    let mut positions = ron_files(&format!("{root}/saves/positions"));
    positions.push(
        r#"(version: 2, variant: "tictactoe", setup: Some((grid: ["X..", "...", "..."], first: [], second: ["b2"], to_move: Some(First))), moves: ["c3"], comment: "c")"#.into(),
    );
    let position: Parser = |t| PositionFile::parse(t, "p.ron".as_ref()).map(drop).map_err(|e| e.to_string());
    let n_positions = every_struct_refuses_an_unknown_field("position", &positions, position);

    // Results: every game of the shipped run.
    let results: Vec<String> = std::fs::read_to_string(format!("{root}/tests/data/workbench-run/results.ronl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let record: Parser = |t| {
        let dir = Scratch::new("unknown-fields");
        let path = dir.join("results.ronl");
        std::fs::write(&path, format!("{t}\n")).unwrap();
        mnklab::arena::read_results(&path).map(drop).map_err(|e| e.to_string())
    };
    let n_results = every_struct_refuses_an_unknown_field("results", &results, record);
    assert!(n_agents > 30 && n_matchups > 50 && n_positions > 6 && n_results > 20, "too few structs walked");
}

/// The typo the issue found: an agent file's `itertions` is refused by name, with the field
/// it could be.
#[test]
fn a_misspelt_limit_is_refused_with_a_suggestion() {
    let text = r#"(name: "m", agent: Mcts(()), limits: (itertions: Some(500)))"#;
    let e = mnklab::agents::AgentFile::parse(text, "m.ron".as_ref()).unwrap_err().to_string();
    assert!(e.contains("`itertions`") && e.contains("did you mean `iterations`?"), "{e}");
    let text = r#"(name: "m", variants: List(["tictactoe"]), agents: [(agent: Preset("random")), (agent: Preset("random"))],
                   pairing: Pairwise, games: 2, sprt: Some((elo0: 0.0, elo1: 5.0, alfa: 0.05, alpha: 0.05, beta: 0.05)))"#;
    let e = mnklab::arena::Matchup::parse(text, "m.ron".as_ref()).unwrap_err().to_string();
    assert!(e.contains("`alfa`") && e.contains("did you mean `alpha`?"), "{e}");
}

/// Every shipped experiment resolves: its entrants' limits are ones their agents read, their
/// names are distinct, its openings can be played (what `match` checks before a game).
#[test]
fn every_shipped_experiment_resolves() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/experiments");
    let mut n = 0;
    for dir in [root.clone(), root.join("quick")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "ron")
                || mnklab::io::file_kind(&path).unwrap() == mnklab::io::FileKind::Accuracy
            {
                continue;
            }
            // A ladder is played as the matchup it makes: its openings drawn from its suite.
            if mnklab::io::file_kind(&path).unwrap() == mnklab::io::FileKind::Ladder {
                let ladder = mnklab::arena::ladder::LadderExperiment::load(&path).unwrap();
                let m = ladder.matchup(&dir).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                m.resolve(&dir).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                n += 1;
                continue;
            }
            let m = mnklab::arena::Matchup::load(&path).unwrap_or_else(|e| panic!("{e}"));
            m.resolve(&dir).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            n += 1;
        }
    }
    assert!(n >= 23, "{n} experiments");
}

// ---- Reproducible results: the manifest, the committed runs and the quick check ----

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn manifest() -> mnklab::reproduce::Manifest {
    mnklab::reproduce::Manifest::load(&std::path::Path::new(ROOT).join(mnklab::reproduce::MANIFEST)).unwrap()
}

/// Every committed figure is drawn by the manifest, every generated block of RESULTS.md
/// names one of its runs, and every run of the quick set has its results committed.
#[test]
fn the_manifest_covers_every_committed_figure_and_table() {
    let m = manifest();
    let names = m.names();
    let drawn: std::collections::HashSet<String> = m.figures.iter().map(|f| format!("{}.svg", f.file)).collect();
    for dir in ["assets/figures", "assets/figures/results"] {
        for entry in std::fs::read_dir(std::path::Path::new(ROOT).join(dir)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().to_string();
            if name.ends_with(".png") || name.ends_with(".svg") {
                let svg = format!("{dir}/{}", name.replace(".png", ".svg"));
                assert!(drawn.contains(&svg), "{dir}/{name} is committed but no step of the manifest draws it");
            }
        }
    }
    let results = std::fs::read_to_string(format!("{ROOT}/RESULTS.md")).unwrap();
    let mut blocks = 0;
    for marker in results.split("<!-- reproduce:").skip(1) {
        let what = marker.split("-->").next().unwrap().trim();
        if let Some((_, name)) = what.split_once(' ') {
            assert!(names.iter().any(|n| n == name), "RESULTS.md's block `{what}` names no run of the manifest");
        }
        blocks += 1;
    }
    assert!(blocks >= 10, "{blocks} generated blocks in RESULTS.md");
    let mut skipped = Vec::new();
    for job in m.jobs(mnklab::reproduce::Mode::Quick, &mut skipped) {
        let dir = std::path::Path::new(ROOT).join("results").join(&job.name);
        for file in ["games.csv.gz", "moves.csv.gz", "entrants.ron", "matchup.ron", "summary.csv"] {
            assert!(dir.join(file).is_file(), "the quick set's {}/{file} is not committed", job.name);
        }
    }
    for job in m.accuracy_jobs(mnklab::reproduce::Mode::Quick, &mut skipped) {
        let dir = std::path::Path::new(ROOT).join("results").join(&job.name);
        for file in ["accuracy.csv", "crossovers.csv", "moves.csv.gz", "experiment.ron"] {
            assert!(dir.join(file).is_file(), "the quick set's {}/{file} is not committed", job.name);
        }
    }
}

/// A scratch repository with one accuracy experiment (`NAME`, quick: Same) on the quick
/// mnk:5,5,4 suite, strong-mcts at 64 to 256 iterations.
fn accuracy_root(name: &str, seed: u64) -> Scratch {
    let root = Scratch::new("reproduce-accuracy");
    std::fs::create_dir_all(root.join("saves/experiments")).unwrap();
    std::fs::create_dir_all(root.join("saves/suites")).unwrap();
    let manifest = format!(
        r#"(version: 1, runs: [], accuracy: [(name: "{name}", experiment: "experiments/{name}.ron", quick: Same)])"#
    );
    std::fs::write(root.join("saves/reproduce.ron"), manifest).unwrap();
    std::fs::copy(format!("{ROOT}/saves/suites/quick-mnk-5-5-4.ron"), root.join("saves/suites/quick-mnk-5-5-4.ron"))
        .unwrap();
    let experiment = format!(
        r#"(name: "{name}", suites: ["../suites/quick-mnk-5-5-4.ron"], agents: [(agent: Preset("strong-mcts"))],
            work: Some((from: 6, to: 8)), seed: {seed})"#
    );
    std::fs::write(root.join(format!("saves/experiments/{name}.ron")), experiment).unwrap();
    root
}

fn reproduce_in(
    root: &std::path::Path,
    mode: mnklab::reproduce::Mode,
    said: &mut Vec<String>,
) -> mnklab::reproduce::Report {
    let out = Scratch::new("reproduce-out");
    let opts =
        mnklab::reproduce::Options { root: root.to_path_buf(), out: out.join("new"), mode, threads: 2, only: vec![] };
    mnklab::reproduce::reproduce(&opts, &mut |l| said.push(l.to_string())).unwrap()
}

/// The accuracy step: the full mode writes the table, crossovers, rows and figures into
/// results/NAME/; the quick mode then finds them the same, and a changed seed (other
/// rollouts, other moves) is found as a difference in accuracy.csv. A full run over
/// committed rows of the same experiment keeps them and searches only what is missing.
#[test]
fn the_accuracy_step_reproduces_and_keeps_committed_rows() {
    use mnklab::reproduce::Mode;
    let root = accuracy_root("acc", 1);
    let mut said = Vec::new();
    let made = reproduce_in(&root, Mode::Full, &mut said);
    assert!(made.new.iter().any(|f| f == "results/acc/accuracy.csv"), "{}", made.text());
    let dir = root.join("results/acc");
    for file in ["accuracy.csv", "crossovers.csv", "moves.csv.gz", "experiment.ron", "accuracy-work.svg"] {
        assert!(dir.join(file).is_file(), "{file} written");
    }
    let same = reproduce_in(&root, Mode::Quick, &mut Vec::new());
    assert!(same.is_same() && same.same >= 3, "{}", same.text());
    let other = accuracy_root("acc", 2);
    for e in std::fs::read_dir(&dir).unwrap() {
        let e = e.unwrap();
        std::fs::create_dir_all(other.join("results/acc")).unwrap();
        std::fs::copy(e.path(), other.join("results/acc").join(e.file_name())).unwrap();
    }
    let changed = reproduce_in(&other, Mode::Quick, &mut Vec::new());
    assert!(
        changed
            .changed
            .iter()
            .any(|(f, d)| f == "results/acc/moves.csv.gz" || (f == "results/acc/accuracy.csv" && d.count > 0))
            || !changed.is_same(),
        "another seed should differ:\n{}",
        changed.text()
    );
    // Keep the committed rows but the last budget's: the full mode searches only those.
    let rows = mnklab::reproduce::read_maybe_gz(&dir.join("moves.csv.gz")).unwrap();
    let text = String::from_utf8(rows).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.contains(",iterations,256,")).collect();
    let missing = text.lines().count() - kept.len();
    assert!(missing >= 50, "{missing}");
    std::fs::write(dir.join("moves.csv"), kept.join("\n") + "\n").unwrap();
    std::fs::remove_file(dir.join("moves.csv.gz")).unwrap();
    let mut said = Vec::new();
    let again = reproduce_in(&root, Mode::Full, &mut said);
    assert!(said.iter().any(|l| l.contains(&format!("keeps the {} rows", kept.len() - 1))), "{said:?}");
    assert!(
        said.iter().any(|l| l.contains(&format!(
            "{} of {} searches",
            text.lines().count() - 1,
            text.lines().count() - 1
        ))),
        "{said:?}"
    );
    assert!(again.changed.iter().all(|(f, _)| !f.ends_with("accuracy.csv")), "{}", again.text());
}

/// Each committed run says which build played it and with what: every game names the commit
/// and the configuration hashes of entrants.ron, and the summary holds the games' counts.
#[test]
fn committed_runs_record_their_commit_and_configurations() {
    use mnklab::arena::conditions::RunConditions;
    let mut checked = 0;
    for entry in std::fs::read_dir(format!("{ROOT}/results")).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.join("games.csv.gz").is_file() {
            continue;
        }
        let c = RunConditions::load(&dir.join("entrants.ron")).unwrap();
        assert!(!c.commits.is_empty() && c.commits.iter().all(|x| x.len() >= 7 && x != "unknown"), "{dir:?}");
        let games = mnklab::reproduce::read_maybe_gz(&dir.join("games.csv.gz")).unwrap();
        let mut r = csv::Reader::from_reader(games.as_slice());
        let h = r.headers().unwrap().clone();
        let col = |name: &str| h.iter().position(|x| x == name).unwrap();
        let (commit, first, second) = (col("commit"), col("first_config"), col("second_config"));
        let (fe, se, outcome) = (col("first_entrant"), col("second_entrant"), col("outcome"));
        let mut first_wins = std::collections::HashMap::<(String, String), u32>::new();
        for rec in r.records() {
            let rec = rec.unwrap();
            assert!(c.commits.iter().any(|x| x == &rec[commit]), "{dir:?}: game by {}", &rec[commit]);
            let (a, b): (usize, usize) = (rec[fe].parse().unwrap(), rec[se].parse().unwrap());
            assert_eq!(&rec[first], c.entrants[a].config_hash);
            assert_eq!(&rec[second], c.entrants[b].config_hash);
            let key = (c.entrants[a].name.clone(), c.entrants[b].name.clone());
            *first_wins.entry(key).or_default() += (&rec[outcome] == "FirstWins") as u32;
        }
        let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
        let mut r = csv::Reader::from_reader(summary.as_bytes());
        let mut wins_in_summary = std::collections::HashMap::<(String, String), u32>::new();
        for rec in r.records() {
            let rec = rec.unwrap();
            *wins_in_summary.entry((rec[1].to_string(), rec[2].to_string())).or_default() +=
                rec[4].parse::<u32>().unwrap();
        }
        assert_eq!(first_wins, wins_in_summary, "{dir:?}: summary.csv against games.csv.gz");
        checked += 1;
    }
    assert!(checked >= 9, "{checked} committed runs");
}

/// The presets the seed papers' results cite are frozen: what one plays (configuration, seed,
/// limits) keeps its hash, so `alam-mcts` in a paper means the agent that made these results.
/// A change to what a preset plays is a new preset with a new name (`alam-mcts-v2`), added to
/// this list; never an edit of a frozen one.
#[test]
fn the_papers_presets_are_frozen() {
    const FROZEN: [(&str, &str); 8] = [
        ("random", "5f494a4b"),
        ("alam-ab", "1bdb7a52"),
        ("alam-mcts", "0cccbc1a"),
        ("lim-minimax", "d222dffc"),
        ("lim-mcts", "a47ed58e"),
        ("jeng-mcts", "e54d461f"),
        ("connectx-minimax", "d799de31"),
        ("connectx-mcts", "48f6526b"),
    ];
    let mut wrong = Vec::new();
    for (name, hash) in FROZEN {
        let p = mnklab::agents::preset(name).unwrap();
        let now = mnklab::arena::conditions::config_hash(&p, &p.limits, &p.game_budget);
        if now != hash {
            wrong.push(format!("{name}: frozen {hash}, now {now}"));
        }
    }
    assert!(wrong.is_empty(), "a frozen preset plays differently: {wrong:?}");
}

/// A copy of the repository's files a reproduction of `run` reads, with the committed results.
fn reproduction_root(run: &str, matchup_text: &str, extra: &[(&str, &str)]) -> Scratch {
    let root = Scratch::new("reproduce-root");
    std::fs::create_dir_all(root.join("saves/experiments")).unwrap();
    let manifest = format!(r#"(version: 1, runs: [(name: "{run}", matchup: "experiments/{run}.ron", quick: Same)])"#);
    std::fs::write(root.join("saves/reproduce.ron"), manifest).unwrap();
    std::fs::write(root.join(format!("saves/experiments/{run}.ron")), matchup_text).unwrap();
    for (name, text) in extra {
        std::fs::write(root.join("saves/experiments").join(name), text).unwrap();
    }
    let committed = std::path::Path::new(ROOT).join("results").join(run);
    std::fs::create_dir_all(root.join("results").join(run)).unwrap();
    for e in std::fs::read_dir(&committed).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), root.join("results").join(run).join(e.file_name())).unwrap();
    }
    root
}

fn quick(root: &std::path::Path) -> mnklab::reproduce::Report {
    let out = Scratch::new("reproduce-out");
    let opts = mnklab::reproduce::Options {
        root: root.to_path_buf(),
        out: out.join("new"),
        mode: mnklab::reproduce::Mode::Quick,
        threads: 2,
        only: vec![],
    };
    mnklab::reproduce::reproduce(&opts, &mut |_| {}).unwrap()
}

/// The quick check is sharp: Alam's 6,6,5 run (alpha-beta at depth 4 against MCTS)
/// reproduces its committed games exactly, and the same run with alpha-beta's move ordering
/// changed (neighbour count to generation order: one line of its configuration) fails,
/// naming the file, the game and the column that differ.
#[test]
fn a_change_to_move_ordering_fails_the_quick_check() {
    let run = "alam-table3-665";
    let matchup = std::fs::read_to_string(format!("{ROOT}/saves/experiments/{run}.ron")).unwrap();
    let same = quick(&reproduction_root(run, &matchup, &[]));
    assert!(same.is_same(), "the committed run does not reproduce:\n{}", same.text());
    assert!(same.same >= 5, "{}", same.text());

    let ab = std::fs::read_to_string(format!("{ROOT}/saves/agents/alam-ab.ron")).unwrap();
    let changed_ab = ab.replace("ordering: Neighbours", "ordering: None");
    assert_ne!(ab, changed_ab);
    let changed = matchup.replace(r#"agent: Preset("alam-ab")"#, r#"agent: File("alam-ab.ron")"#);
    assert_ne!(changed, matchup);
    let report = quick(&reproduction_root(run, &changed, &[("alam-ab.ron", &changed_ab)]));
    assert!(!report.is_same());
    let text = report.text();
    let games = report.changed.iter().find(|(path, _)| path == &format!("results/{run}/games.csv.gz"));
    let (_, d) = games.unwrap_or_else(|| panic!("the games should differ:\n{text}"));
    assert!(d.count > 10, "{text}");
    assert!(d.lines.iter().any(|l| l.starts_with("row (index ") && l.contains("column moves: committed ")), "{text}");
}

/// Every committed figure is what its data draws: the data it was drawn from
/// (`FILE.figure.ron`) written as CSV is the committed `FILE.csv`, and drawn again with the
/// committed options it is the committed `FILE.svg`, byte for byte. An SVG whose numbers
/// disagree with its CSV (as alam-table3-score.svg once did) fails here.
#[test]
fn every_committed_figure_redraws_from_its_data() {
    let mut checked = 0;
    for step in manifest().figures {
        let file = std::path::Path::new(ROOT).join(&step.file);
        let with = |ext: &str| std::path::PathBuf::from(format!("{}.{ext}", file.display()));
        let drawn: mnklab::reproduce::DrawnFigure = ron::from_str(
            &std::fs::read_to_string(with("figure.ron")).unwrap_or_else(|e| panic!("{}.figure.ron: {e}", step.file)),
        )
        .unwrap();
        let csv = std::fs::read_to_string(with("csv")).unwrap();
        assert_eq!(drawn.figure.to_csv(), csv, "{}.csv is not the data of {}.figure.ron", step.file, step.file);
        let svg = std::fs::read_to_string(with("svg")).unwrap();
        let redrawn = mnklab::plot::render_svg(&drawn.figure, &drawn.export).unwrap();
        assert!(redrawn == svg, "{}.svg is not what its data draws", step.file);
        checked += 1;
    }
    assert!(checked >= 10, "{checked} figures");
}

/// RESULTS.md's generated tables are what the committed results give: a copy of the
/// repository's manifest, RESULTS.md and each run's summary, pairs and node counts, with
/// its tables written again from those files, is the committed RESULTS.md byte for byte. A
/// table edited by hand, or printed from a number rounded twice, fails here.
#[test]
fn results_md_tables_are_what_the_committed_results_give() {
    let root = std::path::Path::new(ROOT);
    let copy = tempfile::tempdir().unwrap();
    let put = |rel: &str| {
        let to = copy.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root.join(rel), to).unwrap();
    };
    put(mnklab::reproduce::MANIFEST);
    put(mnklab::reproduce::RESULTS_MD);
    let mut copied = 0;
    for name in manifest().names() {
        for file in ["summary.csv", "pairs.csv", "nodes.csv", "accuracy.csv", "crossovers.csv", "elo.csv"] {
            let rel = format!("results/{name}/{file}");
            if root.join(&rel).is_file() {
                put(&rel);
                copied += 1;
            }
        }
    }
    assert!(copied >= 20, "{copied} files of committed results");
    let changed = mnklab::reproduce::retable(copy.path()).unwrap();
    let again = std::fs::read_to_string(copy.path().join(mnklab::reproduce::RESULTS_MD)).unwrap();
    let committed = std::fs::read_to_string(root.join(mnklab::reproduce::RESULTS_MD)).unwrap();
    assert!(
        !changed && again == committed,
        "RESULTS.md's tables are not what results/ gives: `mnklab reproduce --redraw`"
    );
}
