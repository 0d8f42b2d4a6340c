//! Position suites with proven move values: positions sampled from games of varied agents,
//! each legal move labelled by the solver with its value and distance, kept only where a
//! move can go wrong (the moves do not all share one value), one of each class of positions
//! equal under the board's symmetries. Made once (`mnklab suite`), reused by every accuracy
//! experiment.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::agents::{AgentConfig, build_agent, load_agent};
use crate::game::{AnyPosition, Move, Position, Variant};
use crate::io::FileError;
use crate::search::solver::{AnySolver, Book, Halt, NamedBook, SolveRequest, builtin_book, solve, unsupported};
use crate::search::{NullSink, Score, SearchControl, SearchLimits};
use crate::with_position;

/// The suite file format this build writes and reads.
pub const SUITE_VERSION: u32 = 1;

/// A suite: its positions and where they came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    pub version: u32,
    pub board: Variant,
    /// The seed of the sampling games (openings, agents' choices, which positions).
    pub seed: u64,
    /// The agents whose games were sampled, by preset name and limits.
    pub sampled_by: Vec<String>,
    /// Who labelled the moves: the solver (and the built-in book, where it holds the board).
    pub solver: String,
    /// When the suite was made (UTC date), and by which mnklab.
    pub made: String,
    pub positions: Vec<SuitePosition>,
}

/// One position: the moves from the start and every legal move's proven value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuitePosition {
    /// The sampling game it came from: positions of one game are not independent, and the
    /// intervals resample games, not positions.
    pub game: u32,
    /// The moves from the start, in the board's notation.
    pub moves: Vec<String>,
    /// Every legal move with its proven value for the player making it.
    pub values: Vec<MoveValue>,
    /// Decided by a one-ply tactic: a move wins at once, or every move but the keepers lets
    /// the opponent win at once (a block). Reported as a group of its own.
    pub tactic: bool,
}

/// A move's proven value for the player making it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveValue {
    pub mv: String,
    /// 1 a win, 0 a draw, -1 a loss.
    pub value: i8,
    /// Plies to the end with perfect play, counting this move.
    pub plies: Option<u32>,
}

impl SuitePosition {
    /// The position's proven value for the side to move: its best move's.
    pub fn value(&self) -> i8 {
        self.values.iter().map(|v| v.value).max().unwrap_or(0)
    }

    /// What playing `mv` does: None when it keeps the value, else the value thrown away (1: a
    /// win, 0: a draw). A move not in the list (illegal) is None as well: never asked.
    pub fn thrown_away(&self, mv: &str) -> Option<i8> {
        let best = self.value();
        let v = self.values.iter().find(|v| v.mv == mv)?;
        (v.value < best).then_some(best)
    }

    /// How many moves keep the value.
    pub fn keepers(&self) -> usize {
        let best = self.value();
        self.values.iter().filter(|v| v.value == best).count()
    }

    /// The position, played from the start of `board`.
    pub fn position(&self, board: Variant) -> Result<AnyPosition, crate::game::GameError> {
        let mut p = AnyPosition::new(board);
        p.play_sequence(&self.moves.join(" "))?;
        Ok(p)
    }
}

/// How a suite is made.
#[derive(Clone, Debug)]
pub struct SuiteSpec {
    pub board: Variant,
    /// Positions wanted.
    pub positions: usize,
    pub seed: u64,
    /// Seconds the solver may take on one position (its value and every move's): a position
    /// not labelled in time is left out, and counted.
    pub solver_seconds: f64,
    /// Positions taken from one game at most.
    pub per_game: usize,
}

/// What making a suite saw besides the positions kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SuiteCounts {
    pub games: u32,
    /// Sampled positions that were equal (up to symmetry) to one seen before.
    pub twins: u32,
    /// Positions whose moves all share one value: no choice to get wrong.
    pub no_choice: u32,
    /// Positions the solver did not label in the time.
    pub unlabelled: u32,
}

/// Why a suite could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error("{0}")]
    File(#[from] FileError),
    #[error("the solver does not play {board}: {why}")]
    Unsolvable { board: String, why: String },
    #[error("{path}: position {index}: {source}")]
    BadPosition { path: String, index: usize, source: crate::game::GameError },
    #[error("{path}: position {index}: its move list does not match the position's legal moves")]
    BadValues { path: String, index: usize },
}

/// The agents whose games are sampled, with their per-move limits: varied strength, so the
/// positions range from the ones strong play reaches to the ones weak play leaves.
fn samplers() -> Vec<(String, AgentConfig, SearchLimits)> {
    let preset = |name: &str| load_agent(name).map(|f| f.agent).expect("a built-in preset");
    vec![
        ("random".into(), preset("random"), SearchLimits::default()),
        ("strong-ab-v1 nodes 256".into(), preset("strong-ab-v1"), SearchLimits::nodes(256)),
        ("strong-mcts iterations 256".into(), preset("strong-mcts"), SearchLimits::iterations(256)),
        ("strong-ab-v1 nodes 4096".into(), preset("strong-ab-v1"), SearchLimits::nodes(4096)),
    ]
}

/// Makes a suite by the spec: games between the samplers (each pair in turn, after 0-3 random
/// opening moves), up to `per_game` positions of each game at random plies, until
/// `positions` are labelled. `told` hears the counts after every game.
pub fn make_suite(
    spec: &SuiteSpec,
    mut told: impl FnMut(usize, &SuiteCounts),
) -> Result<(Suite, SuiteCounts), SuiteError> {
    if let Some(why) = unsupported(&spec.board) {
        return Err(SuiteError::Unsolvable { board: spec.board.to_string(), why });
    }
    let agents = samplers();
    let mut rng = crate::rng::seeded(spec.seed);
    let mut seen = std::collections::HashSet::new();
    let (mut positions, mut counts) = (Vec::new(), SuiteCounts::default());
    let mut labeller = Labeller::new(&AnyPosition::new(spec.board));
    while positions.len() < spec.positions {
        let game = counts.games;
        counts.games += 1;
        let (a, b) = (game as usize % agents.len(), (game as usize / agents.len()) % agents.len());
        let line = sample_game(spec.board, [&agents[a], &agents[b]], rng_next(&mut rng));
        // Distinct plies at random (not the last: a finished game has no move to choose).
        let mut plies: Vec<usize> = (0..line.len()).collect();
        crate::rng::shuffle(&mut plies, &mut rng);
        for &ply in plies.iter().take(spec.per_game) {
            let mut pos = AnyPosition::new(spec.board);
            for &m in &line[..ply] {
                pos.try_play(m).expect("a move of the game just played");
            }
            if !seen.insert(pos.canonical_hash()) {
                counts.twins += 1;
                continue;
            }
            match labeller.label(&pos, spec.solver_seconds) {
                None => counts.unlabelled += 1,
                Some(values) if values.iter().all(|v| v.value == values[0].value) => counts.no_choice += 1,
                Some(values) => {
                    let moves = line[..ply].iter().scan(AnyPosition::new(spec.board), |p, &m| {
                        let name = p.format_move(m);
                        p.try_play(m).ok()?;
                        Some(name)
                    });
                    let tactic = is_tactic(&values);
                    positions.push(SuitePosition { game, moves: moves.collect(), values, tactic });
                }
            }
            if positions.len() == spec.positions {
                break;
            }
        }
        told(positions.len(), &counts);
    }
    let suite = Suite {
        version: SUITE_VERSION,
        board: spec.board,
        seed: spec.seed,
        sampled_by: agents.iter().map(|a| a.0.clone()).collect(),
        solver: labeller.name(),
        made: format!("{} by mnklab {}", crate::io::today_utc(), env!("CARGO_PKG_VERSION")),
        positions,
    };
    Ok((suite, counts))
}

fn rng_next(rng: &mut crate::rng::GameRng) -> u64 {
    rand::Rng::next_u64(rng)
}

/// One game between two samplers after 0-3 random moves; its moves.
fn sample_game(board: Variant, agents: [&(String, AgentConfig, SearchLimits); 2], seed: u64) -> Vec<Move> {
    let mut rng = crate::rng::seeded(seed);
    let mut pos = AnyPosition::new(board);
    let mut moves = Vec::new();
    let opening = crate::rng::below(&mut rng, 4);
    let control = SearchControl::new();
    let mut players: Vec<_> = agents.iter().map(|a| (a, rng_next(&mut rng))).collect();
    while !pos.status().is_over() {
        let legal = pos.legal_moves();
        let m = if moves.len() < opening {
            legal[crate::rng::below(&mut rng, legal.len())]
        } else {
            let ((_, agent, limits), seed) = &mut players[moves.len() % 2];
            *seed = seed.wrapping_add(1);
            let best =
                with_position!(&pos, p => build_agent(agent, *seed).search(p, limits, &control, &mut NullSink).best);
            best.unwrap_or(legal[0])
        };
        pos.try_play(m).expect("a legal move");
        moves.push(m);
    }
    moves
}

/// A position decided by a one-ply tactic: a move wins at once, or every move that throws
/// the value away loses at once (the opponent's next move wins: the keepers are the blocks).
fn is_tactic(values: &[MoveValue]) -> bool {
    let best = values.iter().map(|v| v.value).max().unwrap_or(0);
    let wins_at_once = values.iter().any(|v| v.value == 1 && v.plies == Some(1));
    let losers_lose_at_once = values.iter().filter(|v| v.value < best).all(|v| v.value == -1 && v.plies == Some(2));
    wins_at_once || (best > -1 && losers_lose_at_once)
}

/// The solver kept across positions of one board (its table helps the next position), and
/// the built-in book where it holds the board.
struct Labeller {
    solver: Option<Box<dyn std::any::Any>>,
    book: Option<std::sync::Arc<Book>>,
}

impl Labeller {
    fn new(start: &AnyPosition) -> Labeller {
        Labeller { solver: None, book: builtin_book(&start.variant()) }
    }

    fn name(&self) -> String {
        match &self.book {
            Some(_) => "mnklab solver, the built-in opening book first".into(),
            None => "mnklab solver".into(),
        }
    }

    /// Every legal move's proven value for the side to move, or None if a proof did not
    /// finish in `seconds`.
    fn label(&mut self, pos: &AnyPosition, seconds: f64) -> Option<Vec<MoveValue>> {
        with_position!(pos, p => self.label_in(p, seconds))
    }

    fn label_in<P: Position + 'static>(&mut self, pos: &P, seconds: f64) -> Option<Vec<MoveValue>> {
        if !self.solver.as_ref().is_some_and(|s| s.is::<AnySolver<P>>()) {
            self.solver = Some(Box::new(AnySolver::new(pos, 64)));
        }
        let solver = self.solver.as_mut()?.downcast_mut::<AnySolver<P>>()?;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds);
        let book = self.book.as_deref().map(|book| NamedBook { book, name: "the built-in book" });
        let request = SolveRequest {
            book,
            every_move: true,
            halt: Halt { deadline: Some(deadline), stop: None },
            fresh_table: false,
            ..SolveRequest::new(false)
        };
        let outcome = solve(solver, pos, &request, &mut |_| {});
        let moves = outcome.moves?;
        moves
            .into_iter()
            .map(|(m, s)| {
                let s = s.filter(|s| s.is_solved() && !s.weak)?;
                let (value, plies) = match s.score() {
                    Score::Win { plies } => (1, plies),
                    Score::Loss { plies } => (-1, plies),
                    Score::Draw => (0, None),
                    _ => return None,
                };
                Some(MoveValue { mv: pos.format_move(m), value, plies })
            })
            .collect()
    }
}

/// Reads a suite file, checking every position against the rules: its moves are legal and
/// its value list names exactly the legal moves.
pub fn load_suite(path: &Path) -> Result<Suite, SuiteError> {
    let text = crate::io::read_bounded(path, 1 << 30)?;
    let suite: Suite = crate::io::parse_ron(&text, path, "suite")?;
    crate::io::check_version(path, "suite", suite.version, SUITE_VERSION)?;
    let name = path.display().to_string();
    for (index, p) in suite.positions.iter().enumerate() {
        let pos =
            p.position(suite.board).map_err(|source| SuiteError::BadPosition { path: name.clone(), index, source })?;
        let mut legal: Vec<String> = pos.legal_moves().iter().map(|&m| pos.format_move(m)).collect();
        let mut listed: Vec<String> = p.values.iter().map(|v| v.mv.clone()).collect();
        legal.sort();
        listed.sort();
        if legal != listed || pos.status().is_over() {
            return Err(SuiteError::BadValues { path: name, index });
        }
    }
    Ok(suite)
}

/// Writes a suite atomically.
pub fn save_suite(path: &Path, suite: &Suite) -> Result<(), FileError> {
    // A position to a line: a suite of thousands of positions stays a file one can read.
    let config = ron::ser::PrettyConfig::default().struct_names(false).depth_limit(2);
    let text = ron::ser::to_string_pretty(suite, config).expect("RON serialisation of plain data cannot fail");
    crate::io::write_atomic(path, text.as_bytes())
}
