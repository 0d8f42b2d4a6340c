//! Exact solving: the value of a position with perfect play and how far the end is.
//!
//! Values follow Pascal Pons' convention for the side to move: 0 a draw; a win made with the
//! move played when `n` stones are on the board scores floor((cells + 1 - n) / 2), so sooner
//! wins score higher; a loss is the negative of the opponent's win. Gravity boards whose
//! (width + 2) x (height + 1) < 64 use the bitboard solver ([`ConnectSolver`]); every other board
//! the generic one ([`GenericSolver`]).

mod agent;
mod batch;
mod book;
mod book_check;
mod book_journal;
mod connect;
mod dbsearch;
mod draw_proof;
mod gauge;
mod generic;
mod key;
mod pairing;
mod pns;
mod race;
mod service;
mod table;
mod threats;
mod value;

pub use agent::SolverAgent;
pub use batch::{Batch, BatchError, BatchReport, solve_batch};
pub use book::{
    BOOK_VERSION, BUILT_IN_BOOKS, Book, BookBuild, BookError, BookStats, Journal, JournalContents, LinkedBooks,
    book_key, book_solution, build_book, build_book_with, builtin_book, builtin_books_described, is_journal,
    link_books, move_values, read_journal,
};
pub use book_check::{BookCheck, Contradiction, SampledPosition, check_book};
pub use connect::ConnectSolver;
pub use dbsearch::{DbEnd, DbSearch, DbWin, PROBE_DEPTH as DB_PROBE_DEPTH};
pub use draw_proof::{DrawProof, DrawProofError, pairing_holds, potential_holds, prove_no_line};
use gauge::gauged;
pub use gauge::{GaugeReading, ProofGauge};
pub use generic::GenericSolver;
pub use pairing::{PairingOutcome, PairingSearch};
pub use pns::{
    Leaves, PNS_DEFAULT_MB, ProofEnd, ProofOutcome, ProofSearch, weak_value as proof_number_value,
    weak_value_move as proof_number_move, weak_value_with as proof_number_value_with,
};
use race::Raced;
pub use race::{RaceOutcome, RaceWinner, race_weak_value, race_with};
pub use service::{
    BookOutcome, GAUGE_EVERY, NamedBook, SolveEvent, SolveOutcome, SolveRequest, Stage, solve, stop_flag,
};
pub use table::SolverTable;
pub use threats::{Role as ThreatRole, ThreatSearch, ThreatWin, threats_apply};
pub use value::{distance, value_score};

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{AlphaBetaConfig, Score, SettingError};
use crate::game::{Move, Position, Status, Variant};

/// See [`bisect`]: chosen on Pons' four benchmark sets (node counts -10% to +4% of the plain
/// halving, times equal) and `64` (span 20 makes it 24 s, but the beginning set 40% slower).
const SIGN_FIRST_SPAN: i32 = 12;

/// Finds a value in [min, max] by null-window probes (Pons' bisection: cheap probes far
/// from 0 first, then the sign once the span is narrow): `probe(alpha, beta)` searches with
/// that window and returns None when stopped. With `weak`, results are clamped to their sign.
/// Returns the bounds proved.
pub fn bisect(min: i32, max: i32, weak: bool, probe: impl FnMut(i32, i32) -> Option<i32>) -> (i32, i32) {
    bisect_gauged(min, max, weak, None, probe)
}

/// [`bisect`], telling `gauge` the bounds proved before each probe.
pub fn bisect_gauged(
    mut min: i32,
    mut max: i32,
    weak: bool,
    gauge: Option<&ProofGauge>,
    mut probe: impl FnMut(i32, i32) -> Option<i32>,
) -> (i32, i32) {
    while min < max {
        if let Some(g) = gauge {
            g.set_bounds(min, max);
        }
        let mut med = min + (max - min) / 2;
        if med <= 0 && min / 2 < med {
            med = min / 2;
        } else if med >= 0 && max / 2 > med {
            med = max / 2;
        }
        // Once cheap probes far from zero have narrowed a strong solve to a span that holds
        // zero, probe the sign (then -1 | 0): an early position is most often a draw or a
        // narrow win, and the two probes around its value are the costly ones that every order
        // must make; the halving above would first add probes at 2 or 3 that cost nearly as
        // much (Pons' `64`, a draw, strong: 37 s with the halving alone, about 30 s). Wider spans keep
        // the halving: from a span of 20 a position worth +15 would pay for a slow sign proof.
        // A win likewise probes 1 | 2 first (the slowest win, the most common early): from
        // [1, 5] the halving probed 3 | 4 and 2 | 3 before it (Connect-4's empty board strong:
        // 138.5 M nodes against 187.7 M). A loss's -2 | -1 comes next from -1 | 0's bounds.
        if !weak && max - min <= SIGN_FIRST_SPAN {
            if min < 0 && max > 0 {
                med = 0;
            } else if min < -1 && max == 0 {
                med = -1;
            } else if min == 1 && max > 1 {
                med = 1;
            }
        }
        let Some(r) = probe(med, med + 1) else { break };
        // A weak solve proves only the sign: a fail-high may return the full value.
        let r = if weak { r.clamp(-1, 1) } else { r };
        if r <= med {
            max = r;
        } else {
            min = r;
        }
    }
    if let Some(g) = gauge {
        g.set_bounds(min, max);
    }
    (min, max)
}

/// Solver options (the `solver` preset's agent config).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolverConfig {
    /// Table size in MiB.
    pub tt_mb: u32,
    /// Prove only win, draw or loss (faster).
    pub weak: bool,
    /// As an agent, the alpha-beta search to fall back on when the proof does not finish
    /// within the first half of the move's time.
    pub fallback: AlphaBetaConfig,
    /// An opening book file (`mnklab book`) answering the positions it holds at once.
    pub book: Option<String>,
    /// Without a book file (or with one for another game), use the book mnklab ships for the
    /// game, if any (Connect-4: every position of at most ten stones). Off: every position
    /// is proved afresh.
    pub builtin_book: bool,
    /// Threads each proof searches on, sharing the table (`solve --threads`): Connect-X
    /// boards with (width + 2) x (height + 1) < 64. On other boards two or more race
    /// alpha-beta against proof-number search, one thread each, the first proof answering
    /// (see [`AnySolver::racing`]; as with `solve --method race`): a win's or loss's sign may
    /// then come without its distance, and which method answers, so the move played, depends
    /// on the clock.
    pub threads: u32,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            tt_mb: 8,
            weak: false,
            fallback: AlphaBetaConfig::default(),
            book: None,
            builtin_book: true,
            threads: 1,
        }
    }
}

impl SolverConfig {
    pub fn validate(&self) -> Result<(), super::SettingError> {
        super::limits::check_memory_mb("solver: tt_mb", self.tt_mb as u64, 1)?;
        super::limits::check_threads("solver: threads", self.threads)?;
        if let Some(path) = &self.book {
            Book::load(std::path::Path::new(path))
                .map_err(|e| super::SettingError::Book { path: path.clone(), cause: e.cause() })?;
        }
        self.fallback.validate()
    }
}

/// What the search for a move keeping a book's value found ([`AnySolver::prove_book_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookMoveProof {
    /// This move keeps the value, and no move does better: both proved.
    Proved(Move),
    /// This move keeps the value, proved; that no move does better was not searched, the
    /// book being one built into this program (see [`Book::is_shipped`]).
    Kept(Move),
    /// Every move was searched to its end and none keeps the value: the book is wrong at
    /// this position (it overstates the value).
    NoneKeeps,
    /// A move does better than the value, proved by a null-window search: the book is wrong
    /// at this position (it understates the value).
    Understated,
    /// The searches were stopped (deadline or stop flag) before a move was proved.
    Stopped,
    /// Not searched: books are made for Connect-X boards only.
    NotSearched,
}

impl BookMoveProof {
    /// Why the book is wrong at the position, when the search showed it: "no move keeps"
    /// or "a move does better than" (its value).
    pub fn book_is_wrong(&self) -> Option<&'static str> {
        match self {
            BookMoveProof::NoneKeeps => Some("no move keeps"),
            BookMoveProof::Understated => Some("a move does better than"),
            _ => None,
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// Proven bounds on the value (equal when solved; with `weak`, on its sign).
    pub lower: i32,
    pub upper: i32,
    pub weak: bool,
    /// A move keeping the value (when solved).
    pub best: Option<Move>,
    pub nodes: u64,
    /// Seconds.
    pub elapsed: f64,
    /// Plies to the end with perfect play, counting the last move (strong solves of won games).
    pub plies: Option<u32>,
    pub memory: u64,
    /// Set when the position was already finished: nothing was searched, and the value is the
    /// result itself (a loss for the side to move after a win, a draw on a full board).
    #[serde(default)]
    pub over: Option<Status>,
}

impl Solution {
    /// A proven value `v` (Pons' convention; with `weak` its sign) of a position with `n`
    /// stones on `cells` cells, without a search's counts: a row of every move's values.
    pub(super) fn of_value(v: i32, weak: bool, cells: i32, n: i32) -> Solution {
        let v = if weak { v.signum() } else { v };
        Solution {
            lower: v,
            upper: v,
            weak,
            best: None,
            nodes: 0,
            elapsed: 0.0,
            plies: if weak { None } else { distance(cells, v, n) },
            memory: 0,
            over: None,
        }
    }

    /// A sign-only value (a racing solver's strong proof) made exact from every move's
    /// value (see [`value_from_moves`]), keeping its own counts; false, and unchanged, unless
    /// every move has its distance.
    pub fn complete_from_moves(&mut self, proofs: &[(Move, Option<Solution>)]) -> bool {
        let Some(exact) = value_from_moves(proofs) else { return false };
        *self = Solution { nodes: self.nodes, elapsed: self.elapsed, memory: self.memory, ..exact };
        true
    }

    pub fn is_solved(&self) -> bool {
        self.lower == self.upper
    }

    pub fn score(&self) -> Score {
        if !self.is_solved() {
            return Score::Unknown;
        }
        value::proven_score(self.lower, self.plies)
    }

    /// The value of a finished position for the side to move, in the same convention: the
    /// player who just moved made the line with `ply - 1` stones on the board.
    pub fn finished(status: Status, cells: i32, ply: i32, weak: bool) -> Solution {
        let value = match status {
            // At least a loss: a line needs a stone (a game over at 0 stones is a test's).
            Status::Win(_) => value::lost(cells, ply).min(-1),
            _ => 0,
        };
        let value = if weak { value.signum() } else { value };
        Solution {
            lower: value,
            upper: value,
            weak,
            best: None,
            nodes: 0,
            elapsed: 0.0,
            plies: Some(0),
            memory: 0,
            over: Some(status),
        }
    }

    /// The bounds as proven scores for the side to move (equal when solved), for `pos`'s
    /// board and move number: see [`super::bounds_label`] for their words.
    pub fn bounds_as_scores<P: Position>(&self, pos: &P) -> (Score, Score) {
        let (cells, moves) = (pos.max_game_length() as i32, pos.ply() as i32);
        (value_score(self.lower, cells, moves, self.weak), value_score(self.upper, cells, moves, self.weak))
    }

    /// The value in the words of [`Score`] (as `analyse` and the workbench print it): "win in
    /// 7" (plies to the end), "draw", "loss in 4", "win" (a weak proof), or "game over: first
    /// player won", or the bounds when unsolved.
    pub fn describe(&self) -> String {
        match self.over {
            Some(Status::Win(p)) => format!("game over: {p} player won"),
            Some(_) => "game over: draw".into(),
            None if !self.is_solved() => format!("unsolved: value between {} and {}", self.lower, self.upper),
            None => self.score().to_string(),
        }
    }
}

/// Why a position cannot be solved here.
pub fn unsupported(variant: &Variant) -> Option<String> {
    match variant {
        Variant::Connect3d => {
            Some("connect3d is not solvable here: 64 plies of up to 24 moves, scored by points".into())
        }
        Variant::Grid(_) => None,
    }
}

/// A solver for positions of type `P`, keeping its table between calls.
pub enum AnySolver<P: Position> {
    // Both boxed: the variants differ in size (the Connect-X solver's masks and settings, the
    // generic solver's per-ply buffers and pairing state) and the enum is moved around.
    Connect(Box<ConnectSolver>),
    Generic {
        solver: Option<Box<GenericSolver<P>>>,
        tt_mb: usize,
        /// The pairing test on (the default); off to measure what it saves.
        pairings: bool,
        /// Each proof raced against proof-number search of its sign, with a tree of this
        /// many MiB (see [`AnySolver::racing`]); None: alpha-beta alone (the default).
        race: Option<usize>,
    },
}

impl<P: Position> AnySolver<P> {
    pub fn new(pos: &P, tt_mb: usize) -> AnySolver<P> {
        // No bigger than the board can need: at most 3^cells positions (8 bytes an entry).
        let cells = pos.max_game_length() as u32;
        let needed_mb = 3f64.powi(cells as i32) * 8.0 / (1024.0 * 1024.0);
        let tt_mb = tt_mb.min(needed_mb.ceil().max(1.0) as usize);
        match pos.variant().grid() {
            Some(r) if Self::is_connect(pos) => AnySolver::Connect(Box::new(ConnectSolver::new(&r, tt_mb))),
            _ => AnySolver::Generic { solver: None, tt_mb, pairings: true, race: None },
        }
    }

    /// Whether [`AnySolver::new`] gives `pos` the Connect-X bitboard solver (gravity boards
    /// with (width + 2) x (height + 1) < 64), without making one.
    pub fn is_connect(pos: &P) -> bool {
        pos.variant().grid().is_some_and(|r| ConnectSolver::fits(&r)) && pos.as_connect_grid().is_some()
    }

    /// The solver with each probe searched on `threads` threads sharing its table; an error
    /// on a board the parallel solver does not cover.
    pub fn with_threads(mut self, threads: usize) -> Result<AnySolver<P>, SettingError> {
        match &mut self {
            AnySolver::Connect(s) => s.set_threads(threads),
            // A racing solver's second thread is proof-number search's.
            AnySolver::Generic { race: None, .. } if threads > 1 => return Err(SettingError::SolverThreads),
            AnySolver::Generic { .. } => {}
        }
        Ok(self)
    }

    /// Threads each probe searches on (two for a racing solver: alpha-beta and proof-number
    /// search).
    pub fn threads(&self) -> usize {
        match self {
            AnySolver::Connect(s) => s.threads(),
            AnySolver::Generic { race: Some(_), .. } => 2,
            AnySolver::Generic { .. } => 1,
        }
    }

    /// Nodes searched so far by the helper threads of parallel probes (0 on one thread).
    pub fn helper_nodes(&self) -> u64 {
        match self {
            AnySolver::Connect(s) => s.helper_nodes,
            AnySolver::Generic { .. } => 0,
        }
    }

    /// The solver without the pairing test on free-placement boards (`solve --no-pairings`):
    /// an ablation, to measure what pairings save or cost. Values are the same either way.
    pub fn without_pairings(mut self) -> AnySolver<P> {
        if let AnySolver::Generic { pairings, .. } = &mut self {
            *pairings = false;
        }
        self
    }

    /// On free-placement boards, each proof (the position's, and every move's in
    /// [`AnySolver::move_solutions`]) raced against proof-number search on a second thread,
    /// whose tree may take `pns_mb` MiB: the first to prove the sign answers. Where
    /// proof-number search wins, a strong proof gives the sign without the distance (a
    /// weak [`Solution`]), and `move_solutions` then seeks the moves' distances by alpha-beta
    /// within the proved signs, after every move has its sign. Connect-X boards are solved as
    /// before (their alpha-beta is the faster there).
    pub fn racing(mut self, pns_mb: usize) -> AnySolver<P> {
        if let AnySolver::Generic { race, .. } = &mut self {
            *race = Some(pns_mb);
        }
        self
    }

    /// Maps the pages of a new Connect-X solver's table before a batch of timed searches (see
    /// [`SolverTable::touch_pages`]); the generic solver makes its table per search.
    pub fn touch_table_pages(&mut self) {
        if let AnySolver::Connect(s) = self {
            s.table.touch_pages();
        }
    }

    /// Completes `s`, a book's answer for `pos` without a move (a position with as many stones
    /// as the book's depth): a move keeping its value, proved by null-window searches of the
    /// moves, and, with `check_value` (a book file, not a shipped one: see
    /// [`Book::is_shipped`]), that no move does better, by one of the position, before `halt`'s deadline (in
    /// `s.best` and the result), the nodes they spent, and the time since `since`. The result tells a wrong book (every move searched to its end, none
    /// keeps the value) from searches stopped first, so that no caller has to tell them
    /// apart by reading the clock. `gauge` is told their nodes as they go (and bounds, which are the
    /// moves' positions', not this one's).
    pub fn prove_book_move(
        &mut self,
        pos: &P,
        s: &mut Solution,
        check_value: bool,
        halt: Halt,
        since: Instant,
        gauge: Option<Arc<ProofGauge>>,
    ) -> BookMoveProof {
        let Halt { deadline, stop } = halt;
        let (found, nodes) = match self {
            AnySolver::Connect(c) => match pos.as_connect_grid() {
                Some(grid) => {
                    let b = c.board_of(grid);
                    gauged(c.as_mut(), &gauge, 0, |c| {
                        c.best_move_within(&b, s.lower, s.weak, check_value, deadline, stop)
                    })
                }
                None => (BookMoveProof::NotSearched, 0),
            },
            AnySolver::Generic { .. } => (BookMoveProof::NotSearched, 0),
        };
        s.best = match found {
            BookMoveProof::Proved(m) | BookMoveProof::Kept(m) => Some(m),
            _ => None,
        };
        s.nodes = nodes;
        s.elapsed = since.elapsed().as_secs_f64();
        found
    }

    /// Why the solver's table is smaller than asked, if it is (the generic solver's: the last
    /// search's).
    pub fn table_shortfall(&self) -> Option<String> {
        match self {
            AnySolver::Connect(s) => s.table.shortfall(),
            AnySolver::Generic { solver, .. } => solver.as_ref().and_then(|g| g.table_shortfall()),
        }
    }

    /// Two racing proof methods' disagreement since the last call (a bug), in words.
    pub fn take_conflict(&mut self) -> Option<String> {
        match self {
            AnySolver::Connect(_) => None,
            AnySolver::Generic { solver, .. } => solver.as_mut().and_then(|g| g.conflict.take()),
        }
    }

    /// The bytes of the Connect-X solver's table (0 for the generic solver, which makes its
    /// table per search).
    pub fn table_memory(&self) -> u64 {
        match self {
            AnySolver::Connect(s) => s.table.memory(),
            AnySolver::Generic { .. } => 0,
        }
    }

    /// Solves `pos` within `time` (None: no limit), from a fresh table, and finds a best move.
    pub fn solve(&mut self, pos: &P, weak: bool, time: Option<Duration>, stop: Option<Arc<AtomicBool>>) -> Solution {
        self.run(pos, SolveRun { weak, time, stop, ..SolveRun::default() })
    }

    /// Solves `pos` as `run` says: within its time, over a fresh table or the one the
    /// earlier searches left, telling its gauge. Over a kept table every entry is a proven
    /// bound of its own position's value, whatever search stored it, so a position met again
    /// (the next position of a game analysed move by move, whose value the previous position's
    /// move proofs found) is answered from the table; node counts then depend on what came
    /// before, values do not.
    pub fn run(&mut self, pos: &P, run: SolveRun) -> Solution {
        let SolveRun { weak, time, stop, best_move, fresh_table, gauge } = run;
        // The clock starts once the table is ready: filling a large table is set-up, not search
        // (it can take more than a short --time by itself).
        let start;
        let cells = pos.max_game_length() as i32;
        let moves = pos.ply() as i32;
        // The searches below assume a game in progress: a finished one has its result as value.
        if pos.is_over() {
            return Solution::finished(pos.status(), cells, moves, weak);
        }
        match self {
            AnySolver::Connect(s) => {
                let grid = pos.as_connect_grid().expect("checked in new");
                let b = s.board_of(grid);
                if fresh_table {
                    s.table.reset();
                }
                s.nodes = 0;
                start = Instant::now();
                let deadline = time.map(|t| start + t);
                s.gauge = gauge;
                let (lower, upper) = s.solve(&b, weak, deadline, stop);
                s.gauge = None;
                let solved = lower == upper && !s.aborted;
                let best = if best_move && solved && !pos.is_over() { s.best_move(&b, lower, weak) } else { None };
                Solution {
                    lower,
                    upper,
                    weak,
                    best,
                    nodes: s.nodes,
                    elapsed: start.elapsed().as_secs_f64(),
                    plies: if weak || !solved { None } else { distance(cells, lower, moves) },
                    memory: s.table.memory(),
                    over: None,
                }
            }
            AnySolver::Generic { solver: slot, tt_mb, pairings, race } => {
                let mut g = GenericSolver::new(pos, *tt_mb);
                if !*pairings {
                    g = g.without_pairings();
                }
                start = Instant::now();
                let deadline = time.map(|t| start + t);
                g.gauge = gauge;
                let (raced, pns_nodes) = match *race {
                    Some(mb) => {
                        let leaves = Leaves { pairings: *pairings, threats: true };
                        race::race_generic(&mut g, pos, None, weak, (None, None), (mb, leaves), Halt { deadline, stop })
                    }
                    None => {
                        let (lo, hi) = g.solve(weak, deadline, stop);
                        (Raced::Bounds(lo, hi), 0)
                    }
                };
                g.gauge = None;
                let (lower, upper, sign_only, raced_move) = match raced {
                    Raced::Bounds(lo, hi) => (lo, hi, false, None),
                    // A draw's value is its sign; a win's or loss's distance is not known.
                    Raced::Sign(s, m) => (s, s, !weak && s != 0, Some(m)),
                };
                let weak = weak || sign_only;
                let solved = lower == upper && !g.aborted;
                let best = match raced_move {
                    Some(Some(m)) => Some(m),
                    // Every move of a loss loses: the first keeps the sign (its distance,
                    // which a strong proof would make the longest, is not known). Proving
                    // it by alpha-beta would redo the search proof-number search outran.
                    Some(None) if lower < 0 => {
                        let mut moves = Vec::new();
                        pos.legal_moves(&mut moves);
                        moves.first().copied()
                    }
                    _ if best_move && solved && !pos.is_over() => g.best_move(lower, weak),
                    _ => None,
                };
                let solution = Solution {
                    lower,
                    upper,
                    weak,
                    best,
                    // Both threads' nodes, as a parallel solve counts its helpers'.
                    nodes: g.nodes + pns_nodes,
                    elapsed: start.elapsed().as_secs_f64(),
                    plies: if weak || !solved { None } else { distance(cells, lower, moves) },
                    memory: g.memory(),
                    over: None,
                };
                *slot = Some(Box::new(g));
                solution
            }
        }
    }
}

/// When a proof must end: at a deadline, when a stop flag is set, or (neither) once proved.
#[derive(Clone, Debug, Default)]
pub struct Halt {
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
}

/// One solve's settings (see [`AnySolver::run`]); the default: strong, no limit, a best move,
/// a fresh table.
#[derive(Clone, Debug)]
pub struct SolveRun {
    pub weak: bool,
    pub time: Option<Duration>,
    pub stop: Option<Arc<AtomicBool>>,
    /// Find a move keeping the value once it is proved (off: the value alone, as benchmarks
    /// time it).
    pub best_move: bool,
    /// Empty the table first (in O(1)); off: over the table as earlier searches left it.
    pub fresh_table: bool,
    /// Told the nodes and bounds as the solve goes (see [`ProofGauge`]).
    pub gauge: Option<Arc<ProofGauge>>,
}

impl Default for SolveRun {
    fn default() -> Self {
        SolveRun { weak: false, time: None, stop: None, best_move: true, fresh_table: true, gauge: None }
    }
}

/// What a run of [`AnySolver::move_solutions`] may use and how long it may take.
#[derive(Clone, Debug, Default)]
pub struct MoveProofs<'a> {
    /// Win, draw or loss only, no distances.
    pub weak: bool,
    /// A book answering first, when it is for this board.
    pub book: Option<&'a Book>,
    /// A move already proved to keep the position's value, and that value (for the side to
    /// move): its row is that value, with no proof again (the position's own solve found it),
    /// and every other move's proof starts from the bound it gives (no move is worth more).
    pub best: Option<(Move, i32)>,
    /// A move keeping the position's value whose sign alone was proved (a racing solver's
    /// strong solve, answered first by proof-number search), and that sign (-1, 0 or 1): its
    /// row is that sign at once, its distance sought with the others'. (It was searched again
    /// from nothing, and a trial's `--every-move` printed "bestmove d3" above "move d3 not
    /// proved within --time".)
    pub best_sign: Option<(Move, i32)>,
    /// Moves whose proof has not finished by then get None.
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
    /// Told the nodes of the moves' proofs as they run (their bounds too, which are the
    /// child's: not the position's).
    pub gauge: Option<Arc<ProofGauge>>,
}

/// What a move's proof in [`AnySolver::move_solutions`] is asked: strong or weak, the floor
/// the position's value gives the child, and when to stop.
#[derive(Clone, Copy)]
struct ChildProof<'a> {
    weak: bool,
    floor: Option<i32>,
    deadline: Option<Instant>,
    stop: &'a Option<Arc<AtomicBool>>,
    gauge: &'a Option<Arc<ProofGauge>>,
}

impl<P: Position> AnySolver<P> {
    /// The proven value of each legal move of `pos` (for the side to move), after a solve of
    /// `pos` with this solver (its table is kept: the children's proofs are mostly done).
    /// `each` hears every move's result as it is known (the workbench shows them one by one),
    /// with the nodes these proofs have searched so far.
    pub fn move_solutions(
        &mut self,
        pos: &P,
        how: MoveProofs,
        mut each: impl FnMut(Move, &Option<Solution>, u64),
    ) -> Vec<(Move, Option<Solution>)> {
        let MoveProofs { weak, book, best, best_sign, deadline, stop, gauge } = how;
        // The nodes of these proofs: each search's own (a generic solver may be made anew).
        let mut spent = 0u64;
        let cells = pos.max_game_length() as i32;
        let n = pos.ply() as i32;
        let ours = |v: i32| Solution::of_value(v, weak, cells, n);
        // A win or loss whose sign proof-number search proved, not its distance (a racing
        // solver's strong proofs).
        let sign_only = |v: i32| Solution { weak: true, plies: None, ..ours(v.signum()) };
        let from_book = book.map(|b| b.move_values_of(pos)).unwrap_or_default();
        // No move is worth more than the position: each child is worth at least minus its
        // value to the child's player, so the probes below that are known answers. After the
        // position's own proof the table mostly holds them; at a book's depth it does not
        // (the value came from the book): on 40 nine-stone positions of Pons' sets with the
        // built-in book, the every-move proofs searched 11% fewer nodes (300 M to 268 M).
        // Without a proved move the book's value of the position gives the same bound (at the
        // book's depth, where it holds the position but none of its moves).
        let value = best.map(|(_, v)| v).or_else(|| book.and_then(|b| b.value_of(pos)));
        let floor = value.map(|v| if weak { -v.signum() } else { -v });
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut out = Vec::with_capacity(moves.len());
        let mut push = |m: Move, s: Option<Solution>, spent: u64| {
            each(m, &s, spent);
            out.push((m, s));
        };
        // Moves whose positions are equal up to the board's symmetries (the empty board's
        // corners) have equal values: each proved once, by its canonical hash, the key the
        // solvers' tables already trust. Hashing is turned on first: a stale hash would join
        // positions that are not twins.
        let twin_key = |child: &mut P| {
            child.set_hashing(true);
            child.canonical_hash()
        };
        let mut proved: Vec<(u64, Solution)> = Vec::new();
        for m in moves {
            if let Some((_, Some(v))) = from_book.iter().find(|(mm, _)| *mm == m) {
                push(m, Some(ours(*v)), spent);
                continue;
            }
            if let Some((_, v)) = best.filter(|(b, _)| *b == m) {
                push(m, Some(ours(v)), spent);
                continue;
            }
            if let Some((_, v)) = best_sign.filter(|(b, _)| *b == m) {
                push(m, Some(if weak || v == 0 { ours(v.signum()) } else { sign_only(v) }), spent);
                continue;
            }
            let mut child = pos.clone();
            child.play(m);
            if let Status::Win(_) = child.status() {
                push(m, Some(ours(value::win_now(cells, n))), spent);
                continue;
            }
            if child.status() == Status::Draw {
                push(m, Some(ours(0)), spent);
                continue;
            }
            let key = twin_key(&mut child);
            if let Some((_, twin)) = proved.iter().find(|(k, _)| *k == key) {
                push(m, Some(twin.clone()), spent);
                continue;
            }
            if deadline.is_some_and(|d| Instant::now() >= d)
                || stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
            {
                push(m, None, spent);
                continue;
            }
            let ask = ChildProof { weak, floor, deadline, stop: &stop, gauge: &gauge };
            let (raced, nodes) = self.prove_child(pos, &child, m, &ask, spent);
            spent += nodes;
            let solution = match raced {
                Raced::Bounds(lo, hi) => (lo == hi).then(|| ours(-lo)),
                Raced::Sign(v, _) if weak || v == 0 => Some(ours(-v)),
                Raced::Sign(v, _) => Some(sign_only(-v)),
            };
            if let Some(s) = &solution {
                proved.push((key, s.clone()));
            }
            push(m, solution, spent);
        }
        if !weak && let AnySolver::Generic { solver: Some(g), race: Some(_), .. } = self {
            let pass = race::DistancePass { floor, deadline, stop, gauge };
            race::complete_distances(g, pos, &mut out, pass, spent, each);
        }
        out
    }

    /// The proof of one move's child for [`AnySolver::move_solutions`]: the child's bounds
    /// (or sign), none if the proof was cut short, and the nodes it searched.
    fn prove_child(&mut self, pos: &P, child: &P, m: Move, ask: &ChildProof, spent: u64) -> (Raced, u64) {
        let ChildProof { weak, floor, deadline, stop, gauge } = *ask;
        match self {
            AnySolver::Connect(s) => {
                let g = child.as_connect_grid().expect("checked in new");
                let b = s.board_of(g);
                let (r, nodes) =
                    gauged(s.as_mut(), gauge, spent, |s| s.solve_at_least(&b, weak, floor, deadline, stop.clone()));
                let (lo, hi) = if s.aborted { (i32::MIN, i32::MAX) } else { r };
                (Raced::Bounds(lo, hi), nodes)
            }
            AnySolver::Generic { solver: slot, tt_mb, pairings, race } => {
                let fresh = || {
                    let g = GenericSolver::new(pos, *tt_mb);
                    if *pairings { g } else { g.without_pairings() }
                };
                let g = slot.get_or_insert_with(|| Box::new(fresh()));
                if g.position().history() != pos.history() {
                    **g = fresh();
                }
                let known = (floor, None);
                let ((raced, pns_nodes), nodes) = gauged(g.as_mut(), gauge, spent, |g| match *race {
                    Some(mb) => {
                        let leaves = Leaves { pairings: *pairings, threats: true };
                        let halt = Halt { deadline, stop: stop.clone() };
                        race::race_generic(g, child, Some(m), weak, known, (mb, leaves), halt)
                    }
                    None => {
                        let r = g.solve_after(m, weak, known, deadline, stop.clone());
                        (Raced::Bounds(r.0, r.1), 0)
                    }
                });
                let raced = match raced {
                    Raced::Bounds(..) if g.aborted => Raced::Bounds(i32::MIN, i32::MAX),
                    r => r,
                };
                (raced, nodes + pns_nodes)
            }
        }
    }
}

/// The position's value from every move's strong value (as [`AnySolver::move_solutions`] gives
/// them, for the side to move), with the best move; None unless every move has one. A racing
/// solver's position whose sign alone was proved gets its distance so.
pub fn value_from_moves(proofs: &[(Move, Option<Solution>)]) -> Option<Solution> {
    let mut best: Option<(Move, &Solution)> = None;
    for (m, proof) in proofs {
        let p = proof.as_ref().filter(|p| p.is_solved() && !p.weak)?;
        if best.is_none_or(|(_, b)| p.lower > b.lower) {
            best = Some((*m, p));
        }
    }
    best.map(|(m, p)| Solution { best: Some(m), ..p.clone() })
}

#[cfg(test)]
mod tests {
    use super::bisect;

    /// Against a hidden value and a probe that answers as a null-window search does (fail-hard
    /// at the window's edge, or fail-soft with the exact value), bisection ends on the value
    /// (its sign when weak) from every range, and never probes outside the range it holds.
    #[test]
    fn bisection_finds_every_value_with_hard_and_soft_probes() {
        for (min, max) in [(-20i32, 21i32), (-21, 21), (-3, 4), (-1, 1), (0, 7), (-9, -2)] {
            for v in min..=max {
                for soft in [false, true] {
                    for weak in [false, true] {
                        if weak && (min, max) != (-1, 1) {
                            continue;
                        }
                        let v = if weak { v.signum() } else { v };
                        let (mut lo, mut hi, mut probes) = (min, max, 0);
                        let got = bisect(min, max, weak, |a, b| {
                            assert!(lo <= a && a < hi, "probe ({a}, {b}) outside [{lo}, {hi}] for {v}");
                            probes += 1;
                            let r = if v > a {
                                if soft { v } else { b }
                            } else if soft {
                                v
                            } else {
                                a
                            };
                            if r <= a {
                                hi = r
                            } else {
                                lo = r
                            }
                            Some(r)
                        });
                        assert_eq!(got, (v, v), "range [{min}, {max}], value {v}, soft {soft}, weak {weak}");
                        assert!(probes <= 12, "{probes} probes for {v} in [{min}, {max}]");
                    }
                }
            }
        }
    }

    /// A strong solve near zero probes the sign, then the slowest win or loss next to it: a
    /// position worth 1 or -1 takes the two probes either side of its value and no others once
    /// the span is narrow (the halving would probe 3 | 4 and 2 | 3 from [1, 5] first).
    #[test]
    fn a_narrow_value_takes_the_probes_beside_it() {
        for (v, expected) in
            [(1, vec![(0, 1), (1, 2)]), (-1, vec![(0, 1), (-1, 0), (-2, -1)]), (0, vec![(0, 1), (-1, 0)])]
        {
            let mut probes = Vec::new();
            let got = bisect(-3, 5, false, |a, b| {
                probes.push((a, b));
                Some(if v > a { b } else { a })
            });
            assert_eq!(got, (v, v));
            assert_eq!(probes, expected, "value {v}");
        }
    }

    /// A stopped probe leaves the bounds proved so far.
    #[test]
    fn a_stopped_bisection_returns_the_bounds_proved() {
        let mut calls = 0;
        let (lo, hi) = bisect(-20, 21, false, |a, b| {
            calls += 1;
            (calls == 1).then_some(if 3 > a { b } else { a })
        });
        assert!(lo <= 3 && 3 <= hi && (lo, hi) != (-20, 21), "[{lo}, {hi}]");
    }
}
