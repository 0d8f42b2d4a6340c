//! External engines as agents over the Gomocup protocol: two mnklab brains play full games
//! through the wrapper; a brain that hangs is timed out and loses; one that crashes or plays
//! an illegal move loses, and the next game gets a fresh process.

use std::path::Path;

use mnklab::arena::{GameRecord, Matchup, Outcome, RunOptions, run_matchup};
use mnklab::game::{AnyPosition, Status};
use mnklab::gomocup::EngineError;
use mnklab::search::SearchControl;

use crate::scratch::Scratch;

fn brain(name: &str, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    format!(
        r#"(name: Some("{name}"), agent: Inline((name: "{name}", agent: External((command: {:?}, args: [{}], protocol: Gomocup, grace: 0.5)))))"#,
        env!("CARGO_BIN_EXE_mnklab"),
        args.join(", ")
    )
}

/// A shell-script brain: answers START, RESTART and ABOUT, and does `on_move` when asked
/// for a move.
fn script(name: &str, on_move: &str) -> String {
    let body = format!(
        r#"while read l; do case "$l" in START*|RECTSTART*|RESTART*) echo OK;; ABOUT) echo 'name="{name}"';; BEGIN|TURN*|DONE) {on_move};; esac; done"#
    );
    format!(
        r#"(name: Some("{name}"), agent: Inline((name: "{name}", agent: External((command: "sh", args: ["-c", {body:?}], protocol: Gomocup, grace: 0.3)))))"#
    )
}

fn run(tag: &str, agents: [String; 2], games: u32, opening: &str) -> Vec<GameRecord> {
    let text = format!(
        r#"(name: "{tag}", variants: List(["mnk:9,9,5"]), agents: [{}, {}], pairing: Pairwise, games: {games},
            limits: Some((time: Some(0.15))), seed: 3, opening: {opening})"#,
        agents[0], agents[1]
    );
    let m = Matchup::parse(&text, "external.ron".as_ref()).unwrap();
    let dir = Scratch::new(&format!("external-{tag}"));
    let opts = RunOptions { threads: 1, out: dir.to_path_buf(), resume: false, scale: 1.0, games: None, shard: None };
    let mut records = run_matchup(&m, Path::new("."), &opts, &SearchControl::new(), |_| {}).unwrap();
    records.sort_by_key(|r| r.index);
    records
}

/// Replays a record's moves: they must all be legal, and the final status must match.
fn replay(r: &GameRecord) -> AnyPosition {
    let mut pos = AnyPosition::new(r.variant);
    for m in r.opening.iter().chain(r.moves.iter().map(|m| &m.mv)) {
        let mv = pos.parse_move(m).unwrap();
        pos.try_play(mv).unwrap_or_else(|e| panic!("game {}: {m} is illegal: {e}", r.index));
    }
    pos
}

#[test]
fn two_mnklab_brains_play_full_games_through_the_wrapper() {
    // Game 0 starts from the empty board (BEGIN, then TURN); game 1 from a random opening
    // (BOARD), with the colours swapped.
    let agents =
        [brain("strong", &["brain", "--agent", "strong-ab"]), brain("random", &["brain", "--agent", "random"])];
    let records = run("pair", agents, 2, "RandomPlies(3)");
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(r.forfeit, None, "game {}: {:?}", r.index, r.forfeit_reason);
        let pos = replay(r);
        // strong-ab beats random at 9,9,5 with 0.15 s a move, whichever colour it has.
        let strong_side = r.names.iter().position(|n| n == "strong").unwrap();
        assert!(
            matches!(pos.status(), Status::Win(w) if w.index() == strong_side),
            "game {}: {:?}",
            r.index,
            pos.status()
        );
        let expected = if strong_side == 0 { Outcome::FirstWins } else { Outcome::SecondWins };
        assert_eq!(r.outcome, expected, "game {}: strong-ab lost to random", r.index);
        // Each side's ABOUT is in the record.
        assert!(r.about[strong_side].as_deref().unwrap().contains(r#"name="mnklab strong-ab""#));
        assert!(r.about[1 - strong_side].as_deref().unwrap().contains(r#"name="mnklab random""#));
    }
    assert_eq!(records[1].opening.len(), 3);
}

#[test]
fn a_hanging_brain_is_timed_out_and_loses() {
    let agents = [script("hang", "sleep 3"), brain("random", &["brain", "--agent", "random"])];
    let records = run("hang", agents, 2, "None");
    assert_eq!(records.len(), 2);
    for r in &records {
        let side = r.names.iter().position(|n| n == "hang").unwrap() as u8;
        assert_eq!(r.forfeit, Some(side), "game {}", r.index);
        assert!(r.forfeit_reason.as_deref().unwrap().starts_with("timeout"), "{:?}", r.forfeit_reason);
        assert_eq!(r.outcome, if side == 0 { Outcome::SecondWins } else { Outcome::FirstWins });
        assert_eq!(r.about[side as usize].as_deref(), Some(r#"name="hang""#));
    }
}

#[test]
fn crashing_and_illegal_brains_lose_and_the_next_game_restarts_them() {
    let agents = [script("crash", "exit 3"), brain("random", &["brain", "--agent", "random"])];
    let records = run("crash", agents, 2, "None");
    assert_eq!(records.len(), 2, "the second game is played with a fresh process");
    for r in &records {
        let side = r.names.iter().position(|n| n == "crash").unwrap() as u8;
        assert_eq!(r.forfeit, Some(side));
        let reason = r.forfeit_reason.as_deref().unwrap();
        assert!(reason.contains("crashed") || reason.contains("closed") || reason.contains("input closed"), "{reason}");
    }
    // Always 0,0: legal once, then a taken cell.
    let agents = [script("stubborn", "echo 0,0"), brain("random", &["brain", "--agent", "random"])];
    let records = run("illegal", agents, 2, "None");
    for r in &records {
        let side = r.names.iter().position(|n| n == "stubborn").unwrap() as u8;
        assert_eq!(r.forfeit, Some(side));
        let reason = r.forfeit_reason.as_deref().unwrap();
        assert!(reason.contains("illegal move 0,0"), "{reason}");
        // The one legal 0,0 is a9 (x 0, y 0 counts from the top of the 9-row board).
        let own: Vec<&str> = r.moves.iter().filter(|m| m.player == side).map(|m| m.mv.as_str()).collect();
        assert_eq!(own, ["a9"]);
    }
}

/// A brain that drops a TURN and reads its coordinates as an unknown command (as Rapfi does
/// with a TURN that comes the moment it prints its move) is sent the whole board instead,
/// and the game goes on: no forfeit.
#[test]
fn a_brain_that_drops_a_turn_is_sent_the_board() {
    let body = format!(
        r#"exec 3>&1; n=0; while read l; do case "$l" in TURN*) n=$((n+1)); if [ $n = 1 ]; then echo "ERROR Unknown command: ${{l#TURN }}" >&3; continue; fi;; esac; echo "$l"; done | {:?} brain --agent random"#,
        env!("CARGO_BIN_EXE_mnklab")
    );
    let dropper = format!(
        r#"(name: Some("dropper"), agent: Inline((name: "dropper", agent: External((command: "sh", args: ["-c", {body:?}], protocol: Gomocup, grace: 0.5)))))"#
    );
    let records = run("drop", [dropper, brain("random", &["brain", "--agent", "random"])], 2, "None");
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(r.forfeit, None, "game {}: {:?}", r.index, r.forfeit_reason);
        assert!(replay(r).status().is_over(), "game {}", r.index);
    }
}

#[test]
fn an_external_engine_refuses_gravity_boards_with_a_reason() {
    use mnklab::agents::{AgentConfig, build_agent};
    use mnklab::search::{NullSink, SearchLimits};
    let cfg: AgentConfig =
        ron::from_str(r#"External((command: "sh", args: ["-c", "cat"], protocol: Gomocup))"#).unwrap();
    let search = |game: &str, cfg: &AgentConfig| {
        let pos = AnyPosition::new(game.parse().unwrap());
        mnklab::with_position!(&pos, p => {
            let mut agent = build_agent(cfg, 0);
            let r = agent.search(p, &SearchLimits::time(0.1), &SearchControl::new(), &mut NullSink);
            (r.best.is_some(), agent.failure().unwrap_or_default())
        })
    };
    let (moved, failure) = search("connect4", &cfg);
    assert!(!moved);
    assert!(failure.contains("free-placement"), "{failure}");
    // A missing program is named.
    let cfg: AgentConfig = ron::from_str(r#"External((command: "/nonexistent/brain", protocol: Gomocup))"#).unwrap();
    let (moved, failure) = search("mnk:9,9,5", &cfg);
    assert!(!moved);
    assert!(failure.contains("cannot start '/nonexistent/brain'"), "{failure}");
    // The same two checks before a matchup's first game, by their kinds.
    let AgentConfig::External(external) = cfg else { unreachable!() };
    let e = mnklab::gomocup::check_starts(&external, "mnk:9,9,5".parse().unwrap()).unwrap_err();
    assert!(matches!(&e, EngineError::Start { command, .. } if command == "/nonexistent/brain"), "{e}");
    let e = mnklab::gomocup::check_starts(&external, "connect4".parse().unwrap()).unwrap_err();
    assert!(matches!(e, EngineError::NotFreePlacement(_)), "{e}");
}
