//! The solve service: one position's value by the book policy, for every caller (the solver
//! agent, `mnklab solve`). A book answers what it holds; at its depth, where it holds the value
//! but not the moves', a move keeping the value is proved (and, for a book file, that none does
//! better), a wrong book is searched past; anything else is searched. Every legal move's value
//! follows when asked. What happens is told as [`SolveEvent`]s, worded once by
//! [`SolveEvent::words`]; callers forward or print them.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::{
    AnySolver, Book, BookMoveProof, GaugeReading, Halt, MoveProofs, ProofGauge, Solution, SolveRun, value_score,
};
use crate::game::{Move, Position};
use crate::search::Score;

/// How often a running proof's gauge is read, when the request asks for progress.
pub const GAUGE_EVERY: Duration = Duration::from_millis(250);

/// Seconds of a proof on one thread of the generic solver before [`SolveEvent::LongProof`].
const HINT_AFTER: f64 = 2.0;

/// A book a request may answer from, with how to name it.
#[derive(Clone, Copy, Debug)]
pub struct NamedBook<'a> {
    pub book: &'a Book,
    /// "the built-in book" or "the book PATH": how the events name it.
    pub name: &'a str,
}

/// What [`solve`] is asked.
#[derive(Clone, Debug)]
pub struct SolveRequest<'a> {
    /// Win, draw or loss only, no distances.
    pub weak: bool,
    pub book: Option<NamedBook<'a>>,
    /// Every legal move's proven value after the position's (when that is proved with a move).
    pub every_move: bool,
    /// When the clock of the request started: the book check's seconds count from it.
    pub start: Instant,
    /// When every proof of the request must end, and its stop flag.
    pub halt: Halt,
    /// Search the position from an emptied table (`mnklab solve`: node counts that do not
    /// depend on an earlier search); otherwise over the table the solver's earlier searches
    /// left (an agent in a game, which often finds the position among the last one's moves).
    pub fresh_table: bool,
    /// Read the proofs' gauges every [`GAUGE_EVERY`] and tell them as events (the proofs then
    /// run on a scoped thread); off, only the outcomes are told.
    pub progress: bool,
}

impl SolveRequest<'_> {
    /// A request with no book, no moves' proofs, no limit, no progress, from a fresh table.
    pub fn new(weak: bool) -> SolveRequest<'static> {
        SolveRequest {
            weak,
            book: None,
            every_move: false,
            start: Instant::now(),
            halt: Halt::default(),
            fresh_table: true,
            progress: false,
        }
    }
}

/// Which proof a [`SolveEvent::Nodes`] reading belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The check of a book's value: a move keeping it (and none better).
    BookCheck,
    /// The position's own proof.
    Position,
    /// The moves' proofs after it.
    Moves,
}

/// What a solve tells as it goes. The book's events name it by [`NamedBook::name`].
#[derive(Clone, Debug, PartialEq)]
pub enum SolveEvent {
    /// The book holds the position with a move: its answer, nothing searched.
    BookAnswered(Solution),
    /// The book holds the value but not a move (a position at its depth): a move keeping it
    /// is now proved, and for a book file (not [`Book::is_shipped`]) that no move does better.
    /// `shown` is what may be shown meanwhile: the value itself from a shipped book, the
    /// bounds of any value from a file (unchecked).
    BookChecking { given: Solution, shown: Solution, shipped: bool },
    /// The check found a move keeping the book's value (and none better, unless shipped).
    BookKept { shipped: bool },
    /// No move keeping the book's value was proved in time: the value stands unchecked
    /// (a file's) or without a move (a shipped book's).
    BookUnconfirmed { given: Solution, shipped: bool },
    /// The check proved the book wrong here (`why`: "no move keeps" or "a move does better
    /// than"): the position is searched as if the book did not hold it.
    BookWrong { why: &'static str, given: Solution },
    /// The book's value of the position is not the best of its moves' (a file edited by
    /// hand): not used, searched.
    BookContradiction { value: i32, best: i32 },
    /// The book does not hold the position (`depth`: the most stones of its positions);
    /// `over` when the game is over and nothing is searched either.
    NotInBook { depth: u32, over: bool },
    /// A proof of the generic solver on one thread has run [`HINT_AFTER`] seconds: racing
    /// proof-number search on a second thread is often far sooner on such boards.
    LongProof,
    /// A proof's nodes so far (its stage's), and for the position's own proof the bounds
    /// proved so far, as scores for the side to move. Told when the gauge moved.
    Nodes { stage: Stage, nodes: u64, bounds: Option<(Score, Score)> },
    /// The solver's table got less memory than asked (the system refused it): node counts
    /// and speed differ from a run that had it. In words.
    TableShort(String),
    /// A racing solver's two methods proved different values (a bug): that value is left
    /// unproved. In words.
    MethodsDisagree(String),
    /// The position's value (solved or not) before the moves' proofs.
    Value(Solution),
    /// A move's proven value (None: not proved in time), and the moves' proofs' nodes so far.
    MoveProved { mv: Move, value: Option<Solution>, nodes: u64 },
}

impl SolveEvent {
    /// The event in words, for a log or a status line, with `book` the book's name; None for
    /// the events that are counts (nodes, values), which callers show as numbers.
    pub fn words(&self, book: &str) -> Option<String> {
        let given = |s: &Solution| s.describe();
        Some(match self {
            SolveEvent::BookAnswered(_) => format!("from {book}"),
            // A named file may be a copy of the built-in book: said, as only those are used
            // unchecked.
            SolveEvent::BookChecking { shipped: true, .. } => {
                format!("value from {book}{}; proving a move that keeps it", copy_note(book))
            }
            SolveEvent::BookChecking { given: s, .. } => {
                format!("{book} gives '{}'; checking it: proving a move that keeps it, none better", given(s))
            }
            SolveEvent::BookKept { shipped: true } => {
                format!("value from {book}{}; a move keeping it proved", copy_note(book))
            }
            SolveEvent::BookKept { shipped: false } => {
                format!("value from {book}, checked: a move keeping it proved, none better")
            }
            SolveEvent::BookUnconfirmed { given: s, shipped: true } => {
                format!("{book} gives '{}', but no move keeping it was proved in time", given(s))
            }
            SolveEvent::BookUnconfirmed { given: s, shipped: false } => {
                format!("{book} gives '{}', not checked in time", given(s))
            }
            // What it means first: a narrow panel cuts the end (the file's name).
            SolveEvent::BookWrong { why, given: s } => {
                format!("the book is wrong here, so searched: {why} its '{}' ({book})", given(s))
            }
            SolveEvent::BookContradiction { value, best } => format!(
                "{book} gives this position {value} but its moves' best {best}: it contradicts itself here, so searched"
            ),
            SolveEvent::NotInBook { depth, over } => format!(
                "not in {book} (depth {depth}: positions of at most {depth} {}), {}",
                if *depth == 1 { "stone" } else { "stones" },
                if *over { "the game is over" } else { "so searched" }
            ),
            SolveEvent::LongProof => {
                "a long proof on one thread: threads 2 (Options) races proof-number search, often far sooner here"
                    .into()
            }
            SolveEvent::TableShort(why) | SolveEvent::MethodsDisagree(why) => why.clone(),
            SolveEvent::Nodes { .. } | SolveEvent::Value(_) | SolveEvent::MoveProved { .. } => return None,
        })
    }
}

/// Said after a named file's name when it is used as the built-in book is.
fn copy_note(book: &str) -> &'static str {
    if book == "the built-in book" { "" } else { " (a copy of the built-in book)" }
}

/// What the book did for a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookOutcome {
    /// No book was given.
    NotAsked,
    /// It held the position with a move.
    Answered,
    /// It held the value only: what the search for a move keeping it found (never a wrong
    /// book's verdict: see `Wrong`).
    Checked(BookMoveProof),
    /// The check proved it wrong here; searched.
    Wrong,
    /// It contradicts itself here; searched.
    Contradiction,
    /// It does not hold the position; searched.
    Missing,
}

/// What [`solve`] found.
#[derive(Clone, Debug)]
pub struct SolveOutcome {
    /// The position's value and a move keeping it (when proved).
    pub solution: Solution,
    pub book: BookOutcome,
    /// Every legal move's value, when asked and the position was proved with a move.
    pub moves: Option<Vec<(Move, Option<Solution>)>>,
    /// The moves' proofs' nodes and seconds.
    pub moves_nodes: u64,
    pub moves_seconds: f64,
    /// A racing solver's sign-only value was made exact from every move's distance.
    pub distance_from_moves: bool,
}

/// Solves `pos` with `solver` (its table kept between calls) by the book policy of the module
/// documentation, telling `on` what happens.
pub fn solve<P: Position>(
    solver: &mut AnySolver<P>,
    pos: &P,
    request: &SolveRequest,
    on: &mut dyn FnMut(SolveEvent),
) -> SolveOutcome {
    let (mut solution, book) = match request.book {
        Some(named) => from_book(solver, pos, request, named, on),
        None => (search(solver, pos, request, true, on), BookOutcome::NotAsked),
    };
    let (mut moves, mut moves_nodes, mut moves_seconds, mut distance_from_moves) = (None, 0, 0.0, false);
    if request.every_move && solution.is_solved() && solution.best.is_some() {
        let begun = Instant::now();
        on(SolveEvent::Value(solution.clone()));
        let (proofs, nodes) = move_values(solver, pos, &solution, request, on);
        // A sign-only value (a racing solver's) made exact by its moves' distances.
        if solution.weak && !request.weak {
            distance_from_moves = solution.complete_from_moves(&proofs);
        }
        (moves, moves_nodes, moves_seconds) = (Some(proofs), nodes, begun.elapsed().as_secs_f64());
    }
    if let Some(why) = solver.take_conflict() {
        on(SolveEvent::MethodsDisagree(why));
    }
    SolveOutcome { solution, book, moves, moves_nodes, moves_seconds, distance_from_moves }
}

/// The book's part of [`solve`]: its answer, its value checked, or a search where it fails.
fn from_book<P: Position>(
    solver: &mut AnySolver<P>,
    pos: &P,
    request: &SolveRequest,
    named: NamedBook,
    on: &mut dyn FnMut(SolveEvent),
) -> (Solution, BookOutcome) {
    let book = named.book;
    let Some(given) = book.solution_of(pos, request.weak) else {
        // A book that contradicts itself here (edited by hand) is not used, and said so.
        let outcome = match book.contradiction_of(pos) {
            Some((value, best)) => {
                on(SolveEvent::BookContradiction { value, best });
                BookOutcome::Contradiction
            }
            None => {
                on(SolveEvent::NotInBook { depth: book.depth, over: pos.is_over() });
                BookOutcome::Missing
            }
        };
        return (search(solver, pos, request, true, on), outcome);
    };
    if given.best.is_some() {
        on(SolveEvent::BookAnswered(given.clone()));
        return (given, BookOutcome::Answered);
    }
    // At the book's depth: a shipped book's value is part of the program (shown at once while
    // a move keeping it is sought); a file's is shown as the bounds of any value until the
    // check ends, since a file can be wrong.
    let shipped = book.is_shipped();
    let shown = if shipped {
        given.clone()
    } else {
        let (cells, n) = (pos.max_game_length() as i32, pos.ply() as i32);
        let (lower, upper) = super::value::value_range(cells, n, given.weak);
        Solution { lower, upper, best: None, plies: None, ..given.clone() }
    };
    on(SolveEvent::BookChecking { given: given.clone(), shown, shipped });
    let mut s = given.clone();
    let halt = request.halt.clone();
    let gauge = Gauged { progress: request.progress, stage: Stage::BookCheck, scores: None::<fn(_) -> _>, hint: false };
    let found =
        gauged_run(gauge, on, |gauge| solver.prove_book_move(pos, &mut s, !shipped, halt, request.start, gauge));
    s.memory = solver.table_memory();
    if let Some(why) = found.book_is_wrong() {
        on(SolveEvent::BookWrong { why, given });
        return (search(solver, pos, request, false, on), BookOutcome::Wrong);
    }
    on(match s.best {
        Some(_) => SolveEvent::BookKept { shipped },
        None => SolveEvent::BookUnconfirmed { given, shipped },
    });
    (s, BookOutcome::Checked(found))
}

/// The position's own proof, within the request's halt; `hint` allows [`SolveEvent::LongProof`].
fn search<P: Position>(
    solver: &mut AnySolver<P>,
    pos: &P,
    request: &SolveRequest,
    hint: bool,
    on: &mut dyn FnMut(SolveEvent),
) -> Solution {
    let Halt { deadline, stop } = request.halt.clone();
    let time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let (cells, moves, weak) = (pos.max_game_length() as i32, pos.ply() as i32, request.weak);
    let hint = hint && solver.threads() == 1 && matches!(solver, AnySolver::Generic { .. });
    let scores = move |(lo, hi): (i32, i32)| (value_score(lo, cells, moves, weak), value_score(hi, cells, moves, weak));
    let fresh_table = request.fresh_table;
    let gauge = Gauged { progress: request.progress, stage: Stage::Position, scores: Some(scores), hint };
    let s = gauged_run(gauge, on, |gauge| {
        solver.run(pos, SolveRun { weak, time, stop, best_move: true, fresh_table, gauge })
    });
    if let Some(why) = solver.table_shortfall() {
        on(SolveEvent::TableShort(why));
    }
    s
}

/// Every legal move's value after the position's solution `s`, and the nodes of their proofs;
/// each told as it is proved.
fn move_values<P: Position>(
    solver: &mut AnySolver<P>,
    pos: &P,
    s: &Solution,
    request: &SolveRequest,
    on: &mut dyn FnMut(SolveEvent),
) -> (Vec<(Move, Option<Solution>)>, u64) {
    let weak = request.weak;
    let sign_only = s.weak && !weak;
    let mut spent = 0;
    let proofs = {
        let mut each = |mv: Move, value: &Option<Solution>, nodes: u64| {
            spent = nodes;
            (mv, value.clone(), nodes)
        };
        let how = |gauge| MoveProofs {
            weak,
            book: request.book.map(|b| b.book),
            // A value whose sign alone was proved (a racing solver's) bounds no move's.
            best: s.best.filter(|_| s.weak == weak).map(|m| (m, s.lower)),
            // But it proves its move's sign.
            best_sign: s.best.filter(|_| sign_only).map(|m| (m, s.lower.signum())),
            deadline: request.halt.deadline,
            stop: request.halt.stop.clone(),
            gauge,
        };
        if request.progress {
            // The proofs run on a scoped thread and send each move's result here, so they are
            // told as they finish and, during a long one, its nodes still move.
            let gauge = Arc::new(ProofGauge::default());
            let shared = Arc::clone(&gauge);
            let mut last = 0;
            run_reporting(
                &gauge,
                move |done| {
                    solver.move_solutions(pos, how(Some(shared)), |m, proved, spent| {
                        let _ = done.send(each(m, proved, spent));
                    })
                },
                |heard| match heard {
                    Heard::Message((mv, value, nodes)) => {
                        last = nodes;
                        on(SolveEvent::MoveProved { mv, value, nodes });
                    }
                    Heard::Quiet(reading) => {
                        last = last.max(reading.nodes);
                        on(SolveEvent::Nodes { stage: Stage::Moves, nodes: last, bounds: None });
                    }
                },
            )
        } else {
            solver.move_solutions(pos, how(None), |m, proved, spent| {
                let (mv, value, nodes) = each(m, proved, spent);
                on(SolveEvent::MoveProved { mv, value, nodes });
            })
        }
    };
    (proofs, spent)
}

/// How [`gauged_run`] tells a proof's progress.
struct Gauged<F> {
    /// Off: the proof runs here, told no gauge, and nothing is told.
    progress: bool,
    stage: Stage,
    /// The position's bounds as scores: readings are told only once they have bounds.
    scores: Option<F>,
    /// Tell [`SolveEvent::LongProof`] once the proof has run [`HINT_AFTER`] seconds.
    hint: bool,
}

/// Runs `work`, told a fresh gauge when progress is on: then on a scoped thread while this
/// one tells `on` the gauge's nodes (and the bounds proved, as scores) every [`GAUGE_EVERY`].
fn gauged_run<T: Send, F: Fn((i32, i32)) -> (Score, Score)>(
    how: Gauged<F>,
    on: &mut dyn FnMut(SolveEvent),
    work: impl FnOnce(Option<Arc<ProofGauge>>) -> T + Send,
) -> T {
    let Gauged { progress, stage, scores, mut hint } = how;
    if !progress {
        return work(None);
    }
    let gauge = Arc::new(ProofGauge::default());
    let shared = Arc::clone(&gauge);
    let begun = Instant::now();
    let mut last = None;
    run_reporting(
        &gauge,
        move |_: std::sync::mpsc::Sender<()>| work(Some(shared)),
        |heard| {
            let Heard::Quiet(reading) = heard else { return };
            if hint && begun.elapsed().as_secs_f64() >= HINT_AFTER {
                hint = false;
                on(SolveEvent::LongProof);
            }
            let bounds = match &scores {
                // The position's proof: told once it has bounds, and when they or the nodes move.
                Some(scores) => match reading.bounds {
                    Some(b) => Some(scores(b)),
                    None => return,
                },
                None => None,
            };
            if stage == Stage::Position && last == Some(reading) {
                return;
            }
            last = Some(reading);
            on(SolveEvent::Nodes { stage, nodes: reading.nodes, bounds });
        },
    )
}

/// What the thread waiting for a proof hears (see [`run_reporting`]).
enum Heard<M> {
    /// A message the proof sent.
    Message(M),
    /// Nothing reported for [`GAUGE_EVERY`]: the gauge's reading.
    Quiet(GaugeReading),
}

/// Runs `work` (a proof told `gauge`) on a scoped thread, giving it a sender for messages,
/// while this one hands `heard` each message as it comes and the gauge's reading whenever
/// nothing came for [`GAUGE_EVERY`], until the work ends.
fn run_reporting<T: Send, M: Send>(
    gauge: &ProofGauge,
    work: impl FnOnce(std::sync::mpsc::Sender<M>) -> T + Send,
    mut heard: impl FnMut(Heard<M>),
) -> T {
    use std::sync::mpsc::RecvTimeoutError;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        // The channel closes when the work returns, even if it let go of its sender before.
        let job = scope.spawn(move || {
            let done = work(tx.clone());
            drop(tx);
            done
        });
        let mut last_heard = Instant::now();
        loop {
            let wait = GAUGE_EVERY.saturating_sub(last_heard.elapsed()).max(Duration::from_millis(1));
            match rx.recv_timeout(wait) {
                Ok(m) => heard(Heard::Message(m)),
                Err(RecvTimeoutError::Timeout) => heard(Heard::Quiet(gauge.read())),
                Err(RecvTimeoutError::Disconnected) => break,
            }
            last_heard = Instant::now();
        }
        job.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// A stop flag for a request, and the relay that sets it when `stopped` says so (an agent's
/// search control), until dropped.
pub fn stop_flag(stopped: impl Fn() -> bool + Send + 'static) -> (Arc<AtomicBool>, crate::search::progress::StopRelay) {
    let stop = Arc::new(AtomicBool::new(false));
    let relay = crate::search::progress::StopRelay::new(stopped, stop.clone());
    (stop, relay)
}
