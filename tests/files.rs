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

/// Every place in `text` where a struct with named fields opens: a `(` whose first item is
/// `name:`. Each is where a typo'd field could hide.
fn struct_openings(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut in_string = false;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'"' && (i == 0 || bytes[i - 1] != b'\\') {
            in_string = !in_string;
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
    use mnklab::arena::Matchup;
    use mnklab::search::AgentFile;
    let root = env!("CARGO_MANIFEST_DIR");
    // Agent files: every preset, and one with every optional part written out.
    let mut agents = ron_files(&format!("{root}/saves/agents"));
    agents.push(
        r#"(version: 1, name: "full", agent: AlphaBeta((tt_mb: 1, heuristic: Kang, threads: 1)),
            limits: (depth: Some(2), nodes: Some(100), time: Some(1.0)),
            game_budget: Some((total: 1000, unit: Nodes, strategy: AsNeeded, forfeit: true)), seed: 3)"#
            .into(),
    );
    let agent: Parser = |t| AgentFile::parse(t, "a.ron".as_ref()).map(drop).map_err(|e| e.to_string());
    let n_agents = every_struct_refuses_an_unknown_field("agent", &agents, agent);

    // Matchups: every shipped experiment, and one with every optional part.
    let mut matchups = ron_files(&format!("{root}/saves/experiments"));
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

    // Position files: every shipped one, and a set-up with every part.
    let mut positions = ron_files(&format!("{root}/saves/positions"));
    positions.push(
        r#"(version: 2, variant: "tictactoe", setup: Some((grid: ["X..", "...", "..."], first: [], second: ["b2"], to_move: Some(First))), moves: ["c3"], comment: "c")"#.into(),
    );
    let position: Parser = |t| PositionFile::parse(t, "p.ron".as_ref()).map(drop).map_err(|e| e.to_string());
    let n_positions = every_struct_refuses_an_unknown_field("position", &positions, position);

    // Results: every game of the shipped run.
    let results: Vec<String> = std::fs::read_to_string(format!("{root}/results/workbench/results.ronl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let record: Parser = |t| {
        let dir = Scratch::new("unknown-fields");
        let path = dir.join("results.ronl");
        std::fs::write(&path, format!("{t}\n")).unwrap();
        mnklab::arena::read_results(&path).map(drop)
    };
    let n_results = every_struct_refuses_an_unknown_field("results", &results, record);
    assert!(n_agents > 30 && n_matchups > 50 && n_positions > 6 && n_results > 20, "too few structs walked");
}

/// The typo the issue found: an agent file's `itertions` is refused by name, with the field
/// it could be.
#[test]
fn a_misspelt_limit_is_refused_with_a_suggestion() {
    let text = r#"(name: "m", agent: Mcts(()), limits: (itertions: Some(500)))"#;
    let e = mnklab::search::AgentFile::parse(text, "m.ron".as_ref()).unwrap_err().to_string();
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
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/experiments");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let m = mnklab::arena::Matchup::load(&path).unwrap_or_else(|e| panic!("{e}"));
        m.resolve(&dir).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        n += 1;
    }
    assert!(n >= 20, "{n} experiments");
}
