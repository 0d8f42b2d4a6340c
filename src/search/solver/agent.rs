//! The solver as an agent: the workbench's and a match's player that proves its moves,
//! reporting its proof as it goes (the value, every move's value, a gauge of the search).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::{
    AnySolver, Book, GaugeReading, MoveProofs, PNS_DEFAULT_MB, ProofGauge, Solution, SolverConfig, builtin_book,
    unsupported, value_score,
};
use crate::game::{Move, Position, Variant};
use crate::search::progress::{Clock, StopRelay};
use crate::search::{
    Agent, AlphaBeta, Progress, ProgressSink, RootMove, Score, SearchControl, SearchEvent, SearchLimits, SearchResult,
    SearchStats, so_far_label,
};

/// The solver as an agent: perfect play when the proof finishes in half the move's time,
/// otherwise the fallback alpha-beta's move in the rest.
pub struct SolverAgent<P: Position> {
    pub config: SolverConfig,
    solver: Option<AnySolver<P>>,
    fallback: AlphaBeta,
    /// The book file, once loaded. A file that failed to load is tried again at the next
    /// search (the user may have mended it), and said so at each.
    book: Option<Arc<Book>>,
    warned: bool,
    /// Why the solver runs on one thread where the config asks for more, said at each search.
    threads_notice: Option<String>,
}

impl<P: Position> SolverAgent<P> {
    pub fn new(config: SolverConfig) -> SolverAgent<P> {
        let fallback = AlphaBeta::new(config.fallback.clone());
        SolverAgent { config, solver: None, fallback, book: None, warned: false, threads_notice: None }
    }

    /// The book, if it is for `variant`. A book for another game is not used (the built-in
    /// one is, if on), and said so:
    /// to the search's sink every time (the workbench shows it beside the analysis) and once
    /// on stderr (a match's games have no one watching their sink). The agent file cannot
    /// know the game it will play, so this is found only here.
    /// Returns it with how to name it: "the book PATH" or "the built-in book".
    fn book(&mut self, variant: &Variant, sink: &mut dyn ProgressSink) -> Option<(Arc<Book>, String)> {
        let builtin = |on: bool| on.then(|| builtin_book(variant)).flatten().map(|b| (b, "the built-in book".into()));
        let Some(path) = self.config.book.clone() else {
            return builtin(self.config.builtin_book);
        };
        if self.book.is_none() {
            match Book::load(std::path::Path::new(&path)) {
                Ok(b) => self.book = Some(Arc::new(b)),
                Err(e) => {
                    // The file was checked when the config was made, but may have changed
                    // since: a damaged book must not pass for a search that found nothing.
                    let cause = crate::io::cause_without_path(&e.to_string(), &path);
                    let builtin = builtin(self.config.builtin_book);
                    let instead =
                        if builtin.is_some() { "the built-in book answers instead" } else { "searched instead" };
                    let notice = format!("solver: book file not used: {cause}; {instead} ({path})");
                    if !self.warned {
                        self.warned = true;
                        eprintln!("{notice}");
                    }
                    sink.event(SearchEvent::Notice(notice));
                    return builtin;
                }
            }
        }
        let book = self.book.clone()?;
        let game = variant.to_string();
        if book.game != game {
            // The built-in book still answers, as it would with no file named: a file for
            // another game must not leave this game without the book it has.
            let builtin = builtin(self.config.builtin_book);
            // What it means first, the file last: a narrow panel cuts the line's end.
            let notice = match builtin {
                Some(_) => format!(
                    "solver: the book named ({path}) is for {}, not {game}: the built-in book answers",
                    book.game
                ),
                None => format!("solver: the book named ({path}) is for {}, not {game}: searched instead", book.game),
            };
            if !self.warned {
                self.warned = true;
                eprintln!("{notice}");
            }
            sink.event(SearchEvent::Notice(notice));
            return builtin;
        }
        Some((book, format!("the book {path}")))
    }
}

/// The solver agent's report: the position's proof `s` with the candidate rows known so far;
/// `nodes` counts every search since the start (the position's and the moves' proofs), as
/// `elapsed` counts their time.
fn proof_report(s: &Solution, rows: &[RootMove], nodes: u64, elapsed: f64, threads: u32, finished: bool) -> Progress {
    Progress {
        depth: s.plies.unwrap_or(0),
        nodes,
        nodes_per_second: if elapsed > 0.0 { nodes as f64 / elapsed } else { 0.0 },
        elapsed,
        best: s.best,
        score: s.score(),
        pv: s.best.into_iter().collect(),
        finished,
        root: rows.to_vec(),
        threads,
        proof: true,
        ..Default::default()
    }
}

/// How often a running proof's gauge is reported.
const GAUGE_EVERY: Duration = Duration::from_millis(250);

/// One gauged solve's settings (see [`solve_reporting`]).
struct GaugedRun<'a> {
    weak: bool,
    budget: Option<Duration>,
    stop: Arc<AtomicBool>,
    clock: &'a Clock,
    /// Said (as an Info line) once the proof has run [`HINT_AFTER`] seconds.
    hint: Option<String>,
}

/// Seconds of a proof before its [`GaugedRun::hint`] is said.
const HINT_AFTER: f64 = 2.0;

/// Solves `pos` (over the solver's kept table) on a scoped thread while this one reports its
/// gauge every [`GAUGE_EVERY`]: the nodes and the bounds proved so far, so a long proof shows
/// how far it got, not only a clock. Reports go only when something changed.
fn solve_reporting<P: Position>(
    solver: &mut AnySolver<P>,
    pos: &P,
    run: GaugedRun,
    sink: &mut dyn ProgressSink,
) -> Solution {
    let gauge = Arc::new(ProofGauge::default());
    let (cells, moves, threads) = (pos.max_game_length() as i32, pos.ply() as i32, solver.threads() as u32);
    let GaugedRun { weak, budget, stop, clock, mut hint } = run;
    let shared = Arc::clone(&gauge);
    let mut last = None;
    run_reporting(
        &gauge,
        move |_: std::sync::mpsc::Sender<()>| solver.solve_gauged(pos, weak, budget, Some(stop), shared),
        |heard, _| {
            let Heard::Quiet(reading) = heard else { return false };
            if let Some(hint) = hint.take_if(|_| clock.elapsed() >= HINT_AFTER) {
                sink.event(SearchEvent::Info(hint));
            }
            if last == Some(reading) || reading.bounds.is_none() {
                return false;
            }
            last = Some(reading);
            let elapsed = clock.elapsed();
            sink.event(SearchEvent::Progress(Progress {
                nodes: reading.nodes,
                nodes_per_second: if elapsed > 0.0 { reading.nodes as f64 / elapsed } else { 0.0 },
                elapsed,
                threads,
                proof: true,
                bounds: reading
                    .bounds
                    .map(|(lo, hi)| (value_score(lo, cells, moves, weak), value_score(hi, cells, moves, weak))),
                ..Default::default()
            }));
            true
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
/// nothing was reported for [`GAUGE_EVERY`], until the work ends. `heard` is also given the
/// time since the last report, and returns whether it reported (for a reading the time counts
/// from it in any case).
fn run_reporting<T: Send, M: Send>(
    gauge: &ProofGauge,
    work: impl FnOnce(std::sync::mpsc::Sender<M>) -> T + Send,
    mut heard: impl FnMut(Heard<M>, Duration) -> bool,
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
        let mut last_report = Instant::now();
        loop {
            let wait = GAUGE_EVERY.saturating_sub(last_report.elapsed()).max(Duration::from_millis(1));
            let reported = match rx.recv_timeout(wait) {
                Ok(m) => heard(Heard::Message(m), last_report.elapsed()),
                Err(RecvTimeoutError::Timeout) => {
                    heard(Heard::Quiet(gauge.read()), last_report.elapsed());
                    true
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if reported {
                last_report = Instant::now();
            }
        }
        job.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Among candidate rows, the best whose value has the sign `sign` with its distance proved
/// (a draw's is its value): the move to show and play where the position's sign alone is
/// known. None when no such row is proved yet.
fn best_with_distance(rows: &[RootMove], sign: i32) -> Option<Move> {
    rows.iter()
        .filter(|r| match r.score {
            Score::Win { plies: Some(_) } => sign > 0,
            Score::Loss { plies: Some(_) } => sign < 0,
            Score::Draw => sign == 0,
            _ => false,
        })
        .max_by(|a, b| a.value.total_cmp(&b.value))
        .map(|r| r.mv)
}

/// The candidate rows before any move's proof: every legal move unknown but the position's best
/// move, whose value is the position's.
fn first_rows<P: Position>(pos: &P, s: &Solution) -> Vec<RootMove> {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    legal.iter().map(|&m| root_move(m, &(Some(m) == s.best).then(|| s.clone()))).collect()
}

/// A root move's row for the candidate table from its proven solution.
fn root_move(m: Move, s: &Option<Solution>) -> RootMove {
    match s {
        Some(s) => {
            RootMove { mv: m, visits: 0, value: s.lower as f64, score: s.score(), upper_bound: false, pv: vec![m] }
        }
        None => RootMove {
            mv: m,
            visits: 0,
            // The lowest finite value: rows are saved as RON, which has no standard infinity.
            value: f64::MIN,
            score: Score::Unknown,
            upper_bound: true,
            pv: vec![m],
        },
    }
}

impl<P: Position> Agent<P> for SolverAgent<P> {
    fn search(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
    ) -> SearchResult {
        let clock = Clock::new(limits);
        if pos.is_over() {
            return SearchResult::default();
        }
        let budget = limits.time.map(|t| Duration::from_secs_f64(t / 2.0));
        let clock_start = Instant::now();
        if unsupported(pos.variant()).is_none() {
            let tt = self.config.tt_mb as usize;
            let book = self.book(pos.variant(), sink);
            if self.solver.is_none() {
                let threads = self.config.threads.max(1) as usize;
                let solver = AnySolver::new(pos, tt);
                // On free-placement boards a second thread races proof-number search (see
                // `AnySolver::racing`): off by default, as which method answers first depends
                // on the clock, and with it the move played and the nodes reported.
                let solver = match solver {
                    AnySolver::Generic { .. } if threads > 1 => {
                        if threads > 2 {
                            // Once on stderr too, as for a book: a match's games have no one
                            // watching.
                            let notice = format!(
                                "solver: threads {threads}: on this board two race (alpha-beta and proof-number search), the others are not used"
                            );
                            eprintln!("{notice}");
                            self.threads_notice = Some(notice);
                        }
                        solver.racing(PNS_DEFAULT_MB)
                    }
                    solver => solver,
                };
                // Takes any count now: the Connect-X solver splits its probes, a racing one
                // runs two, and the generic one alone was left at one thread.
                self.solver = Some(solver.with_threads(threads).expect("threads fit the solver"));
            }
            if let Some(notice) = &self.threads_notice {
                sink.event(SearchEvent::Notice(notice.clone()));
            }
            let solver = self.solver.as_mut().expect("made above");
            let stop = Arc::new(AtomicBool::new(false));
            // The control's stop reaches the solver's flag through a relay thread.
            let relay = {
                let control = control.clone();
                StopRelay::new(move || control.is_stopped(), stop.clone())
            };
            // Named as it answers: a file for another game leaves the built-in book answering.
            let (book, which) = book.map_or((None, String::new()), |(b, which)| (Some(b), which));
            let from_book = book.as_deref().and_then(|b| b.solution_of(pos, self.config.weak));
            // A book that contradicts itself here (edited by hand) is not used, and said so.
            // (Only where the book gave nothing: its answer already passed the check.)
            if from_book.is_none()
                && let Some((value, best)) = book.as_deref().and_then(|b| b.contradiction_of(pos))
            {
                sink.event(SearchEvent::Notice(format!(
                    "solver: {which} gives this position {value} but its moves' best {best}: it contradicts itself here, so searched"
                )));
            }
            let mut s = match from_book {
                Some(s) if s.best.is_some() => {
                    sink.event(SearchEvent::Info(format!("solver: from {which}")));
                    s
                }
                // The book holds the value but not the moves' (a position with as many stones
                // as its depth): a move keeping the value is proved by null-window searches.
                Some(mut s) => {
                    // A book file's value is said at once, but not shown as a proof until it
                    // is checked (a move keeping it, none better), since a book file can be
                    // wrong; the check reports its nodes and clock as it goes, so the panel
                    // never stands still for seconds. A shipped book's value is part of the
                    // program (see `Book::is_shipped`): shown at once, while a move keeping it
                    // is sought (a check can take more than a second at ten stones).
                    let shipped = book.as_deref().is_some_and(Book::is_shipped);
                    let threads = solver.threads() as u32;
                    let (cells, n) = (pos.max_game_length() as i32, pos.ply() as i32);
                    let (lower, upper) = if s.weak { (-1, 1) } else { (-(cells - n) / 2, (cells + 1 - n) / 2) };
                    let shown = if shipped {
                        s.clone()
                    } else {
                        Solution { lower, upper, best: None, plies: None, ..s.clone() }
                    };
                    let rows = first_rows(pos, &shown);
                    let checking = |nodes: u64, elapsed: f64| Progress {
                        bounds: Some(shown.bounds_as_scores(pos)),
                        ..proof_report(&shown, &rows, nodes, elapsed, threads, false)
                    };
                    sink.event(SearchEvent::Progress(checking(0, clock.elapsed())));
                    // A named file may be a copy of the built-in book: said, as only those are
                    // used unchecked.
                    let copy = if which == "the built-in book" { "" } else { " (a copy of the built-in book)" };
                    sink.event(SearchEvent::Info(if shipped {
                        format!("solver: value from {which}{copy}; proving a move that keeps it")
                    } else {
                        format!(
                            "solver: {which} gives '{}'; checking it: proving a move that keeps it, none better",
                            s.describe()
                        )
                    }));
                    let deadline = budget.map(|b| clock_start + b);
                    let gauge = Arc::new(ProofGauge::default());
                    let (shared, stopping) = (Arc::clone(&gauge), stop.clone());
                    let proving = &mut *solver;
                    let sought = &mut s;
                    let found = run_reporting(
                        &gauge,
                        move |_: std::sync::mpsc::Sender<()>| {
                            proving.prove_book_move(
                                pos,
                                sought,
                                !shipped,
                                super::Halt { deadline, stop: Some(stopping) },
                                clock_start,
                                Some(shared),
                            )
                        },
                        |heard, _| {
                            let Heard::Quiet(reading) = heard else { return false };
                            sink.event(SearchEvent::Progress(checking(reading.nodes, clock.elapsed())));
                            true
                        },
                    );
                    if let Some(why) = found.book_is_wrong() {
                        // No move keeps the value, or one does better (both proved): the book
                        // is wrong here, so the position is searched as if it were not in it.
                        // What it means first: a narrow panel cuts the end (the file's name).
                        sink.event(SearchEvent::Notice(format!(
                            "solver: the book is wrong here, so searched: {why} its '{}' ({which})",
                            s.describe()
                        )));
                        // In what is left of the solver's half of the time.
                        let left = budget.map(|b| b.saturating_sub(clock_start.elapsed()));
                        let run = GaugedRun {
                            weak: self.config.weak,
                            budget: left,
                            stop: stop.clone(),
                            clock: &clock,
                            hint: None,
                        };
                        solve_reporting(solver, pos, run, sink)
                    } else {
                        sink.event(SearchEvent::Info(match s.best {
                            // Replaces "proving a move that keeps it" beside the analysis.
                            Some(_) if shipped => format!("solver: value from {which}{copy}; a move keeping it proved"),
                            Some(_) => format!("solver: value from {which}, checked: a move keeping it proved, none better"),
                            // Said as for an unfinished proof, so the heuristic score that
                            // follows is not taken for the proven value.
                            None if shipped => format!(
                                "solver: {which} gives '{}', but no move keeping it was proved in time, so alpha-beta's move and score follow",
                                s.describe()
                            ),
                            None => format!(
                                "solver: {which} gives '{}', not checked in time, so alpha-beta's move and score follow",
                                s.describe()
                            ),
                        }));
                        s
                    }
                }
                // Over the table the agent's earlier searches left: in a game, or a game stepped
                // through in the workbench, the position was often proved among the last one's
                // moves, and is then answered from the table at once.
                None => {
                    // On a free-placement board a second thread races proof-number search,
                    // which proves most wins and losses far sooner: said where it is off and
                    // a proof runs long (a trial's default solver sat "proving" for minutes
                    // on 6,6,4 after a3, which two threads prove in about ten seconds).
                    let hint = (solver.threads() == 1 && matches!(solver, AnySolver::Generic { .. })).then(|| {
                        "solver: a long proof on one thread: threads 2 (Options) races proof-number search, often far sooner here"
                            .to_string()
                    });
                    let run = GaugedRun { weak: self.config.weak, budget, stop: stop.clone(), clock: &clock, hint };
                    solve_reporting(solver, pos, run, sink)
                }
            };
            // Every move's proven value, for the candidate table, in the rest of the half. The
            // table fills as they are proved: the position's value and move at once, then the
            // other moves' (a report at most every 50 ms, and every 250 ms while one runs), so
            // a slow proof of one does not hide what is known. `moves_nodes`: the nodes of the moves' proofs, after the
            // position's own.
            let mut moves_nodes = 0u64;
            // Not when no move keeping a book's value was proved: that search had the same
            // time, so the moves' proofs would only report every move unproved (`analyse`
            // printed one more proof line after saying alpha-beta's move follows).
            let root = if s.is_solved() && s.best.is_some() {
                let deadline = budget.map(|b| clock_start + b);
                let mut rows = first_rows(pos, &s);
                let threads = solver.threads() as u32;
                let sign_only = s.weak && !self.config.weak;
                let partial = |rows: &[RootMove], spent: u64| {
                    // A sign alone: the best move proved so far, as the table shows it.
                    let shown = match best_with_distance(rows, s.lower).filter(|_| sign_only) {
                        Some(m) => Solution { best: Some(m), ..s.clone() },
                        None => s.clone(),
                    };
                    SearchEvent::Progress(proof_report(&shown, rows, s.nodes + spent, clock.elapsed(), threads, false))
                };
                let first = partial(&rows, 0);
                sink.event(first);
                let gauge = Arc::new(ProofGauge::default());
                let how = MoveProofs {
                    weak: self.config.weak,
                    book: book.as_deref(),
                    // A value whose sign alone was proved (a racing solver's) bounds no move's.
                    best: s.best.filter(|_| s.weak == self.config.weak).map(|m| (m, s.lower)),
                    // But it proves its move's sign.
                    best_sign: s.best.filter(|_| sign_only).map(|m| (m, s.lower.signum())),
                    deadline,
                    stop: Some(stop.clone()),
                    gauge: Some(Arc::clone(&gauge)),
                };
                // The proofs run on a scoped thread and send each move's result here, so the
                // table fills as they finish and, during a long one, its nodes and the clock
                // still move, rather than standing still for the whole of a move's proof.
                let proving = &mut *solver;
                let proofs = run_reporting(
                    &gauge,
                    move |done| {
                        proving.move_solutions(pos, how, |m, proved, spent| {
                            let _ = done.send((m, proved.clone(), spent));
                        })
                    },
                    |heard, since_report| {
                        let fresh = match heard {
                            Heard::Message((m, proved, spent)) => {
                                moves_nodes = spent;
                                if let Some(row) = rows.iter_mut().find(|r| r.mv == m) {
                                    *row = root_move(m, &proved);
                                }
                                proved.is_some() && since_report >= Duration::from_millis(50)
                            }
                            Heard::Quiet(reading) => {
                                moves_nodes = moves_nodes.max(reading.nodes);
                                true
                            }
                        };
                        if fresh {
                            sink.event(partial(&rows, moves_nodes));
                        }
                        fresh
                    },
                );
                // A sign-only value (a racing solver's) made exact by its moves' distances; or,
                // with some distances open, played by the best move proved so far (the
                // quickest win, the longest loss: it keeps the sign).
                if sign_only
                    && !s.complete_from_moves(&proofs)
                    && let Some(m) = best_with_distance(&rows, s.lower)
                {
                    s.best = Some(m);
                }
                rows
            } else {
                Vec::new()
            };
            drop(relay);
            if s.is_solved()
                && let Some(best) = s.best
            {
                let progress =
                    proof_report(&s, &root, s.nodes + moves_nodes, clock.elapsed(), solver.threads() as u32, true);
                sink.event(SearchEvent::Progress(progress));
                return SearchResult {
                    best: Some(best),
                    score: s.score(),
                    pv: vec![best],
                    stats: SearchStats {
                        nodes: s.nodes + moves_nodes,
                        elapsed: clock.elapsed(),
                        memory: s.memory,
                        ..Default::default()
                    },
                    root,
                    unsearched: false,
                };
            }
            if !s.is_solved() {
                // Alpha-beta's move and heuristic score follow: said, with what the proof had
                // established, so they are not taken for the proof's.
                let (lo, hi) = s.bounds_as_scores(pos);
                let why = if control.is_stopped() { "was stopped" } else { "did not finish in half the time" };
                sink.event(SearchEvent::Notice(format!(
                    "solver: the proof {why} ({} nodes; {}); alpha-beta's move and score follow",
                    s.nodes,
                    so_far_label(&lo, &hi)
                )));
            }
        } else if let Some(why) = unsupported(pos.variant()) {
            // Said, as for a proof that did not finish: heuristic scores under the solver's
            // name are not proofs (a new-user trial saw connect3d's shown with no word).
            // A book named in the config is not read here either (a trial's connect3d agent
            // named a Connect-4 book and heard nothing of it); the path last, as it may be cut.
            let book =
                self.config.book.as_ref().map_or(String::new(), |p| format!("; the book named is not used ({p})"));
            sink.event(SearchEvent::Notice(format!("solver: {why}; alpha-beta's move and score follow{book}")));
        }
        let rest = SearchLimits { time: limits.time.map(|t| (t - clock.elapsed()).max(0.01)), ..*limits };
        self.fallback.search(pos, &rest, control, sink)
    }

    fn new_game(&mut self) {
        self.solver = None;
        <AlphaBeta as Agent<P>>::new_game(&mut self.fallback);
    }
}
