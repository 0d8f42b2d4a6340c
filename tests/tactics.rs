//! The tactics suite (`tests/data/tactics.csv`, written by `examples/tactics_suite.rs`):
//! positions on 7x7 to 15x15 boards with K = 4 and 5 where the side to move wins by threats
//! (by fours alone, `vcf`, or with threes, `vct`), and positions whose value alpha-beta finds
//! only with the threat probe three plies below its root (`tree`). Ground truth: the exact
//! solver on the rows it finishes in seconds (marked); elsewhere the sound threat search's
//! proof, repeated here.

use mnklab::agents::{AgentConfig, load_agent, preset};
use mnklab::eval::EvalBoard;
use mnklab::game::{AnyPosition, Player, Status};
use mnklab::search::solver::{GenericSolver, ThreatSearch};
use mnklab::search::{
    Agent, AlphaBeta, AlphaBetaConfig, NullSink, Score, SearchControl, SearchEvent, SearchLimits, SearchResult,
    ThreatConfig,
};
use mnklab::with_position;

// DEPTH and SUITE_PROBE: the settings the suite was found with.
include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tactics_settings.rs"));

struct Row {
    game: String,
    moves: String,
    kind: String,
    /// "win" or "loss" for the side to move.
    value: String,
    /// The exact solver confirms the value (within seconds; 7x7 rows).
    solver: bool,
    pos: AnyPosition,
}

fn suite() -> Vec<Row> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tactics.csv");
    let mut reader = csv::ReaderBuilder::new().comment(Some(b'#')).from_path(path).unwrap();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let (game, moves) = (r[0].to_string(), r[1].to_string());
            let pos = AnyPosition::from_moves(game.parse().unwrap(), &moves).unwrap();
            Row { game, moves, kind: r[2].to_string(), value: r[3].to_string(), solver: &r[4] == "yes", pos }
        })
        .collect()
}

/// Does `attacker` win by threats from `pos` within `DEPTH` attacker moves (fours only with
/// `fours_only`)?
fn threat_win(pos: &AnyPosition, attacker: Player, fours_only: bool) -> bool {
    with_position!(pos, p => {
        let mut p = p.clone();
        let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
        let mut search = ThreatSearch::new(0);
        if fours_only {
            search = search.restricted_to(Vec::new());
        }
        // Deepening: a proof found at a smaller depth is found far sooner, and the table
        // carries what each pass learnt into the next.
        (1..=DEPTH).any(|depth| search.wins(&mut p, &mut board, attacker, depth))
    })
}

fn solved(pos: &AnyPosition) -> i32 {
    with_position!(pos, p => {
        let (lo, hi) = GenericSolver::new(p, 64).solve(true, None, None);
        assert_eq!(lo, hi);
        lo
    })
}

fn search(agent: &AgentConfig, pos: &AnyPosition, limits: &SearchLimits) -> SearchResult {
    with_position!(pos, p => {
        let mut a = mnklab::agents::build_agent(agent, 1);
        a.search(p, limits, &SearchControl::default(), &mut NullSink)
    })
}

/// The move keeps the win: it completes a line, or the mover still wins by threats after it.
fn keeps_the_win(pos: &AnyPosition, best: mnklab::game::Move) -> bool {
    let me = pos.side_to_move();
    let mut after = pos.clone();
    after.try_play(best).unwrap();
    after.status() == Status::Win(me) || threat_win(&after, me, false)
}

/// The preset with the threat probe, its root probe given `root_budget` nodes.
fn with_threats(name: &str, root_budget: u64) -> AgentConfig {
    let probe = ThreatConfig { root_budget, ..ThreatConfig::default() };
    let mut agent = preset(name).unwrap().agent;
    match &mut agent {
        AgentConfig::AlphaBeta(c) => c.threats = Some(probe),
        AgentConfig::Mcts(c) => c.threats = Some(probe),
        _ => panic!("{name}: not a searching agent"),
    }
    agent
}

/// Nodes the hardest row's proof takes (1.2 million, on 11x11): the root probe gets this many.
const HARDEST: u64 = 2_000_000;

#[test]
fn the_suite_covers_several_boards_and_every_kind() {
    let rows = suite();
    let boards: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.game.as_str()).collect();
    assert!(boards.len() >= 4, "{boards:?}");
    for kind in ["vcf", "vct", "tree"] {
        assert!(rows.iter().any(|r| r.kind == kind), "no {kind} row");
    }
    assert!(rows.iter().any(|r| r.game.ends_with(",4")) && rows.iter().any(|r| r.game.ends_with(",5")));
}

#[test]
fn every_threat_row_is_proved_of_its_kind_and_agrees_with_the_solver() {
    for row in suite().iter().filter(|r| r.kind != "tree") {
        let me = row.pos.side_to_move();
        let what = format!("{} {} ({})", row.game, row.moves, row.kind);
        assert_eq!(row.value, "win", "{what}");
        assert!(threat_win(&row.pos, me, false), "{what}: no win by threats");
        assert_eq!(threat_win(&row.pos, me, true), row.kind == "vcf", "{what}: fours alone");
        if row.solver {
            assert_eq!(solved(&row.pos), 1, "{what}: the solver");
        }
    }
}

#[test]
fn alpha_beta_with_the_threat_probe_wins_every_threat_row() {
    // Twice the hardest proof's nodes: the root probe may take half of a node limit.
    let agent = with_threats("strong-ab-v1", HARDEST);
    for row in suite().iter().filter(|r| r.kind != "tree") {
        let what = format!("{} {} ({})", row.game, row.moves, row.kind);
        let r = search(&agent, &row.pos, &SearchLimits::nodes(2 * HARDEST));
        assert!(matches!(r.score, Score::Win { .. }), "{what}: {:?}", r.score);
        assert!(keeps_the_win(&row.pos, r.best.unwrap()), "{what}: {:?} gives the win away", r.best);
    }
}

#[test]
fn the_probe_proves_more_of_the_suite_than_plain_alpha_beta_at_equal_nodes() {
    let limits = SearchLimits::nodes(200_000);
    let wins = |agent: &AgentConfig| {
        suite()
            .iter()
            .filter(|r| r.kind != "tree")
            .filter(|r| matches!(search(agent, &r.pos, &limits).score, Score::Win { .. }))
            .count()
    };
    let (probe, plain) = (wins(&with_threats("strong-ab-v1", HARDEST)), wins(&preset("strong-ab-v1").unwrap().agent));
    let rows = suite().iter().filter(|r| r.kind != "tree").count();
    assert!(probe >= plain + rows / 4, "of {rows} rows: {probe} with the probe, {plain} without");
}

#[test]
fn mcts_with_the_threat_probe_wins_every_threat_row() {
    let agent = with_threats("strong-mcts", HARDEST);
    for row in suite().iter().filter(|r| r.kind != "tree") {
        let what = format!("{} {} ({})", row.game, row.moves, row.kind);
        let r = search(&agent, &row.pos, &SearchLimits::iterations(200));
        assert!(matches!(r.score, Score::Win { .. }), "{what}: {:?}", r.score);
        assert!(keeps_the_win(&row.pos, r.best.unwrap()), "{what}: {:?} gives the win away", r.best);
    }
}

/// The value of a `tree` row comes from a probe three plies below the root: alpha-beta
/// with the probe finds it at depth 4 (probes at plies 0 to 3), not at depth 3 (probes at
/// plies 0 to 2), and without the probe not at depth 4; the solver says it is the value.
#[test]
fn a_value_found_only_by_the_probe_three_plies_down_is_the_solvers() {
    let rows: Vec<Row> = suite().into_iter().filter(|r| r.kind == "tree").collect();
    assert!(!rows.is_empty());
    for row in rows {
        let what = format!("{} {}", row.game, row.moves);
        let value = |threats: bool, depth: u32| {
            let cfg =
                AlphaBetaConfig { radius: None, threats: threats.then_some(SUITE_PROBE), ..AlphaBetaConfig::default() };
            let r = with_position!(&row.pos, p => AlphaBeta::new(cfg).search(p, &SearchLimits::depth(depth), &SearchControl::default(), &mut NullSink));
            match r.score {
                Score::Win { .. } => Some(1),
                Score::Loss { .. } => Some(-1),
                _ => None,
            }
        };
        let expected = if row.value == "win" { 1 } else { -1 };
        assert_eq!(value(true, 4), Some(expected), "{what}: with the probe at depth 4");
        assert_eq!(value(true, 3), None, "{what}: with the probe at depth 3");
        assert_eq!(value(false, 4), None, "{what}: without the probe at depth 4");
        assert_eq!(solved(&row.pos), expected, "{what}: the solver");
    }
}

#[test]
fn mcts_proves_replies_lost_by_threats_inside_its_tree() {
    // Gomoku after h8 h7 i8 i7 j8: the second player must stop the open three. With the
    // probe, a reply that does not is proven lost at the node it makes (the first player to
    // move there wins by threats), two plies below the root; MCTS-Solver alone proves few.
    let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 h7 i8 i7 j8").unwrap();
    let lost = |agent: &AgentConfig| {
        let r = search(agent, &pos, &SearchLimits::iterations(3_000));
        let lost: Vec<String> =
            r.root.iter().filter(|m| matches!(m.score, Score::Loss { .. })).map(|m| pos.format_move(m.mv)).collect();
        (r, lost)
    };
    let (r, with) = lost(&with_threats("strong-mcts", ThreatConfig::default().root_budget));
    let (_, without) = lost(&preset("strong-mcts").unwrap().agent);
    assert!(with.len() >= 5 && with.len() > without.len(), "with the probe {with:?}, without {without:?}");
    // The stops of the three are not among them, and the move chosen is one.
    for stop in ["g8", "k8"] {
        assert!(!with.contains(&stop.to_string()), "{stop} in {with:?}");
    }
    let best = pos.format_move(r.best.unwrap());
    assert!(!with.contains(&best), "{best} is proven lost");
}

/// Where threats do not apply (gravity, the exactly-K rule, 3D) the probe is off: the same
/// search node for node, so nothing is lost on those games.
#[test]
fn the_probe_changes_nothing_where_threats_do_not_apply() {
    for (game, moves) in
        [("connect4", "4453"), ("connect:6,5,4", "33"), ("gomoku-exact", "h8 h9 i8"), ("connect3d", "1 2")]
    {
        let pos = AnyPosition::from_moves(game.parse().unwrap(), moves).unwrap();
        for name in ["strong-ab-v1", "strong-mcts"] {
            let limits = if name == "strong-ab-v1" { SearchLimits::depth(5) } else { SearchLimits::iterations(500) };
            let plain = search(&preset(name).unwrap().agent, &pos, &limits);
            let probed = search(&with_threats(name, HARDEST), &pos, &limits);
            assert_eq!(
                (probed.best, probed.score, probed.pv, probed.stats.nodes, probed.stats.iterations),
                (plain.best, plain.score, plain.pv, plain.stats.nodes, plain.stats.iterations),
                "{game} {name}"
            );
        }
    }
}

/// Gomoku after h8 h9 h6 i8 i7 f7 j7, from a game strong-ab lost to Rapfi: at depth 6
/// gomoku-ab as it was then (`gomoku-ab-cap10`, 10 moves a node) plays j6, as it did in the
/// game, after which the first player wins by threats in a line its in-tree probes (400 nodes
/// each) are too short to find. With the reply check, j6 is found lost, said so and valued
/// so among the candidates, and another move is played.
#[test]
fn the_reply_check_turns_down_a_move_that_loses_to_threats() {
    let pos = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 h9 h6 i8 i7 f7 j7").unwrap();
    let j6 = pos.parse_move("j6").unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/saves/experiments/agents/gomoku-ab-cap10.ron");
    let then = load_agent(path).unwrap().agent;
    let with_check = |reply_budget: u64, limits: SearchLimits| {
        let AgentConfig::AlphaBeta(mut cfg) = then.clone() else { panic!("gomoku-ab-cap10") };
        let probe = cfg.threats.expect("gomoku-ab has the probe");
        cfg.threats = Some(ThreatConfig { reply_budget, ..probe });
        let mut events: Vec<SearchEvent> = Vec::new();
        let r =
            with_position!(&pos, p => AlphaBeta::new(cfg).search(p, &limits, &SearchControl::default(), &mut events));
        let notices: Vec<String> =
            events.into_iter().filter_map(|e| if let SearchEvent::Notice(t) = e { Some(t) } else { None }).collect();
        (r, notices)
    };
    let (plain, _) = with_check(0, SearchLimits::depth(6));
    assert_eq!(plain.best, Some(j6), "without the check");
    let (checked, notices) = with_check(200_000, SearchLimits::depth(6));
    let best = checked.best.unwrap();
    assert_ne!(best, j6, "with the check");
    assert!(notices.iter().any(|t| t.starts_with("alpha-beta: j6 loses to threats in")), "{notices:?}");
    let listed = checked.root.iter().find(|m| m.mv == j6).expect("j6 among the candidates");
    assert!(matches!(listed.score, Score::Loss { .. }), "{:?}", listed.score);
    // Ground truth: after j6 the first player wins by threats (the sound search, with no
    // node budget); the move played is valued above j6.
    let mut after = pos.clone();
    after.try_play(j6).unwrap();
    assert!(threat_win(&after, Player::First, false), "j6 does not lose by threats");
    let value = |m| checked.root.iter().find(|r| r.mv == m).map(|r| r.value);
    assert!(value(best) > value(j6), "{:?} {:?}", value(best), value(j6));
    // The checks' nodes are the search's: a node limit holds with them, exactly.
    for limit in [20_000, 300_000] {
        let (r, _) = with_check(200_000, SearchLimits::nodes(limit));
        assert_eq!(r.stats.nodes, limit, "a limit of {limit} nodes");
    }
}
