//! Writes the tactics suite (`tests/data/tactics.csv`): positions on several free-placement
//! boards where the side to move wins by a sequence of threats, each with what the sound
//! threat-space search proves of it. Games start from a few seeded random stones near the
//! centre and go on with alpha-beta at a small node budget. Each game gives at most one row of
//! each kind: `vcf`, the side to move wins by fours alone (continuous fours); `vct`, it needs
//! threes; both in 5 plies or more. On 7x7 the exact solver checks a row when it finishes it
//! within two seconds (`solver` yes), and gives `tree` rows: the
//! value (a win or a loss for the side to move) that alpha-beta with the threat probe finds
//! at depth 4 only, where the probe runs 3 plies below the root, and without the probe not
//! at all; the solver confirms it.
//!
//! `cargo run --release --example tactics_suite -- [GAMES_PER_BOARD] [SEED] [tree] > tests/data/tactics.csv`
//! (defaults 12, 1; `tree`: the `tree` rows only).

use std::time::{Duration, Instant};

use mnklab::agents::{AgentConfig, build_agent, preset};
use mnklab::eval::EvalBoard;
use mnklab::game::{AnyPosition, Player, Position, Variant};
use mnklab::rng::{below, seeded};
use mnklab::search::solver::{GenericSolver, ThreatSearch};
use mnklab::search::{Agent, AlphaBeta, AlphaBetaConfig, NullSink, Score, SearchControl, SearchLimits, ThreatConfig};
use mnklab::with_position;

/// Boards of the suite: sizes and K that make different shapes of threat.
const BOARDS: [&str; 5] = ["mnk:7,7,4", "mnk:8,8,4", "mnk:9,9,5", "mnk:11,11,5", "gomoku"];

/// Boards the exact solver finishes from a middle game: the only ones given "tree" rows, whose
/// value no threat search proves.
const SOLVED: [&str; 1] = ["mnk:7,7,4"];

// DEPTH and SUITE_PROBE: the settings the suite was found with.
include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tactics_settings.rs"));

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().map_or(12, |a| a.parse().expect("GAMES_PER_BOARD: a count"));
    let seed: u64 = args.get(1).map_or(1, |a| a.parse().expect("SEED: a number"));
    let mut rng = seeded(seed);
    let ab = preset("strong-ab").expect("a preset").agent;
    let tree_only = args.get(2).is_some_and(|a| a == "tree");
    println!("game,moves,kind,value,solver,plies,line");
    for game in BOARDS.iter().filter(|_| !tree_only) {
        let variant: Variant = game.parse().expect("a game");
        let solved = SOLVED.contains(game);
        let mut rows = 0;
        for _ in 0..games {
            let opening = 2 + below(&mut rng, 4);
            for row in play_game(variant, &ab, &mut rng, opening, solved) {
                println!("{row}");
                rows += 1;
            }
        }
        eprintln!("{game}: {rows} positions from {games} games");
    }
    // Positions of random stones, no four on the board: the first `games` whose value only
    // the probe three plies down finds.
    let (variant, mut rows, mut tries) = ("mnk:7,7,4".parse::<Variant>().expect("a game"), 0, 0);
    while rows < games && tries < games * 400 {
        tries += 1;
        let stones = 8 + below(&mut rng, 7);
        let Some(pos) = random_position(variant, &mut rng, stones) else { continue };
        if let Some(value) = decided_only_with_probes_at_ply_3(&pos) {
            println!("\"{variant}\",{},tree,{value},yes,,", pos.history_string());
            rows += 1;
        }
    }
    eprintln!("{variant}: {rows} tree positions from {tries} random ones");
}

/// `stones` random moves, with no line and no four (a window one stone short) on the board.
fn random_position(variant: Variant, rng: &mut impl rand::Rng, stones: usize) -> Option<AnyPosition> {
    let mut pos = AnyPosition::new(variant);
    for _ in 0..stones {
        let moves = pos.legal_moves();
        pos.try_play(moves[below(rng, moves.len())]).ok()?;
        if pos.status().is_over() {
            return None;
        }
    }
    let fours = with_position!(&pos, p => {
        let board = EvalBoard::new(p, |_, _, _| 0);
        board.has_threat_window(Player::First) || board.has_threat_window(Player::Second)
    });
    (!fours).then_some(pos)
}

/// A game from `opening` random stones near the centre, then alpha-beta, until it ends: the
/// first position where the side to move wins by fours alone and the first where it needs
/// threes (each in 5 plies or more), as rows; on `solved` boards the solver checks them.
fn play_game(
    variant: Variant,
    ab: &AgentConfig,
    rng: &mut impl rand::Rng,
    opening: usize,
    solved: bool,
) -> Vec<String> {
    let mut pos = AnyPosition::new(variant);
    let Some(grid) = variant.grid() else { return Vec::new() };
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    for _ in 0..opening {
        let (x, y) = (w / 2 - 2 + below(rng, 5), h / 2 - 2 + below(rng, 5));
        if let Some(m) = pos.move_to(x, y) {
            let _ = pos.try_play(m);
        }
    }
    let mut rows = Vec::new();
    let (mut vcf, mut vct) = (false, false);
    while !(pos.status().is_over() || vcf && vct) {
        if let Some((kind, line)) = threat_win(&pos) {
            let seen = if kind == "vcf" { &mut vcf } else { &mut vct };
            if !*seen && line.len() >= 5 {
                *seen = true;
                // The solver's word where it is quick (the test repeats it): it must agree.
                let value = if solved { quick_solve(&pos) } else { None };
                assert!(value.is_none_or(|v| v == 1), "{}: a threat win the solver denies", pos.history_string());
                let checked = if value.is_some() { "yes" } else { "no" };
                let (n, line) = (line.len(), line.join(" "));
                rows.push(format!("\"{variant}\",{},{kind},win,{checked},{n},{line}", pos.history_string()));
            }
        }
        let result = with_position!(&pos, p => {
            let mut agent = build_agent(ab, 1);
            agent.search(p, &SearchLimits::nodes(3_000), &SearchControl::default(), &mut NullSink)
        });
        let Some(best) = result.best else { break };
        if pos.try_play(best).is_err() {
            break;
        }
    }
    rows
}

/// Alpha-beta with the threat probe decides the position at depth 4 (probes down to ply 3)
/// and not at depth 3, the same search without the probe does not at depth 4, and the exact
/// solver agrees: the value ("win" or "loss" for the side to move) needs a probe at ply 3.
fn decided_only_with_probes_at_ply_3(pos: &AnyPosition) -> Option<&'static str> {
    let value = |threats: bool, depth: u32| {
        let mut cfg = AlphaBetaConfig { radius: None, ..AlphaBetaConfig::default() };
        cfg.threats = threats.then_some(SUITE_PROBE);
        let limits = SearchLimits { nodes: Some(3_000_000), ..SearchLimits::depth(depth) };
        let r =
            with_position!(pos, p => AlphaBeta::new(cfg).search(p, &limits, &SearchControl::default(), &mut NullSink));
        match r.score {
            Score::Win { .. } => Some(1),
            Score::Loss { .. } => Some(-1),
            _ => None,
        }
    };
    let found = value(true, 4)?;
    if value(true, 3).is_some() || value(false, 4).is_some() {
        return None;
    }
    (quick_solve(pos) == Some(found)).then_some(if found == 1 { "win" } else { "loss" })
}

/// The solver's value for the side to move if it finds it within two seconds (the test
/// repeats it for every row it checks).
fn quick_solve(pos: &AnyPosition) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(2);
    let (lo, hi) = with_position!(pos, p => GenericSolver::new(p, 64).solve(true, Some(deadline), None));
    (lo == hi).then_some(lo)
}

/// The side to move's win by threats: "vcf" or "vct", and the proof's line.
fn threat_win(pos: &AnyPosition) -> Option<(&'static str, Vec<String>)> {
    with_position!(pos, p => {
        let mut p = p.clone();
        let me = p.side_to_move();
        let mut board = EvalBoard::new(&p, |_, _, _| 0).with_near_windows();
        let fours_only = ThreatSearch::new(2_000_000).restricted_to(Vec::new()).winning_line(&mut p, &mut board, me, DEPTH);
        let (kind, win) = match fours_only {
            Some(w) => ("vcf", w),
            None => ("vct", ThreatSearch::new(2_000_000).winning_line(&mut p, &mut board, me, DEPTH)?),
        };
        let line = win.line.iter().filter_map(|&(c, _)| p.cell_move(c)).map(|m| p.format_move(m)).collect();
        Some((kind, line))
    })
}
