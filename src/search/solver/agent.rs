//! The solver as an agent: the workbench's and a match's player that proves its moves,
//! reporting its proof as it goes (the value, every move's value, a gauge of the search).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{
    AnySolver, Book, Halt, NamedBook, PNS_DEFAULT_MB, Solution, SolveEvent, SolveRequest, SolverConfig, Stage,
    builtin_book, solve, stop_flag, unsupported,
};
use crate::game::{Move, Position, Variant};
use crate::search::progress::Clock;
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
    /// Why the solver runs on one thread where the config asks for more, said at each search.
    threads_notice: Option<String>,
}

impl<P: Position> SolverAgent<P> {
    pub fn new(config: SolverConfig) -> SolverAgent<P> {
        let fallback = AlphaBeta::new(config.fallback.clone());
        SolverAgent { config, solver: None, fallback, book: None, threads_notice: None }
    }

    /// The book, if it is for `variant`. A book for another game is not used (the built-in
    /// one is, if on), and said so as a warning at every search (the workbench shows it beside
    /// the analysis, a match on stderr and with the game). The agent file cannot know the game
    /// it will play, so this is found only here.
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
                    let cause = e.cause();
                    let builtin = builtin(self.config.builtin_book);
                    let instead =
                        if builtin.is_some() { "the built-in book answers instead" } else { "searched instead" };
                    sink.event(SearchEvent::Warning(format!(
                        "solver: book file not used: {cause}; {instead} ({path})"
                    )));
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
            sink.event(SearchEvent::Warning(notice));
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

/// The agent's view of a running solve: the candidate rows and counts the service's events
/// fill, reported to the search's sink as progress and words.
struct ProofView<'a, P: Position> {
    pos: &'a P,
    clock: &'a Clock,
    threads: u32,
    /// The agent's own setting: a weaker solution is a racing solver's sign alone.
    weak: bool,
    /// How the book is named in the words said.
    book: &'a str,
    /// The position's value once known, and the candidate rows the moves' proofs fill.
    value: Option<Solution>,
    rows: Vec<RootMove>,
    moves_nodes: u64,
    /// What the check of a book's value shows meanwhile.
    checking: Option<(Solution, Vec<RootMove>)>,
    last_rows: Instant,
}

impl<P: Position> ProofView<'_, P> {
    fn hear(&mut self, event: SolveEvent, sink: &mut dyn ProgressSink) {
        let said = || event.words(self.book).map(|t| format!("solver: {t}")).expect("worded");
        match &event {
            SolveEvent::BookChecking { shown, .. } => {
                let rows = first_rows(self.pos, shown);
                self.checking = Some((shown.clone(), rows));
                sink.event(SearchEvent::Progress(self.checking_report(0)));
            }
            SolveEvent::Nodes { stage: Stage::BookCheck, nodes, .. } => {
                sink.event(SearchEvent::Progress(self.checking_report(*nodes)));
            }
            SolveEvent::Nodes { stage: Stage::Position, nodes, bounds } => {
                let elapsed = self.clock.elapsed();
                sink.event(SearchEvent::Progress(Progress {
                    nodes: *nodes,
                    nodes_per_second: if elapsed > 0.0 { *nodes as f64 / elapsed } else { 0.0 },
                    elapsed,
                    threads: self.threads,
                    proof: true,
                    bounds: *bounds,
                    ..Default::default()
                }));
            }
            SolveEvent::Value(s) => {
                self.rows = first_rows(self.pos, s);
                self.value = Some(s.clone());
                self.report_rows(sink);
            }
            SolveEvent::MoveProved { mv, value, nodes } => {
                self.moves_nodes = *nodes;
                if let Some(row) = self.rows.iter_mut().find(|r| r.mv == *mv) {
                    *row = root_move(*mv, value);
                }
                // The table fills as moves are proved, a report at most every 50 ms.
                if value.is_some() && self.last_rows.elapsed() >= Duration::from_millis(50) {
                    self.report_rows(sink);
                }
            }
            SolveEvent::Nodes { stage: Stage::Moves, nodes, .. } => {
                self.moves_nodes = self.moves_nodes.max(*nodes);
                self.report_rows(sink);
            }
            // A match's agent has no use for where the book ends (`solve` says it).
            SolveEvent::NotInBook { .. } => {}
            SolveEvent::BookWrong { .. } | SolveEvent::BookContradiction { .. } => {
                sink.event(SearchEvent::Notice(said()));
            }
            // Said as for an unfinished proof, so the heuristic score that follows is not
            // taken for the proven value.
            SolveEvent::BookUnconfirmed { .. } => {
                sink.event(SearchEvent::Info(format!("{}, so alpha-beta's move and score follow", said())))
            }
            SolveEvent::TableShort(_) | SolveEvent::MethodsDisagree(_) => {
                sink.event(SearchEvent::Warning(said()));
            }
            SolveEvent::BookAnswered(_) | SolveEvent::BookKept { .. } | SolveEvent::LongProof => {
                sink.event(SearchEvent::Info(said()));
            }
        }
        if let SolveEvent::BookChecking { .. } = event {
            sink.event(SearchEvent::Info(said()));
        }
    }

    /// A book's value being checked: shown with its bounds and the nodes so far.
    fn checking_report(&self, nodes: u64) -> Progress {
        let (shown, rows) = self.checking.as_ref().expect("checking");
        Progress {
            bounds: Some(shown.bounds_as_scores(self.pos)),
            ..proof_report(shown, rows, nodes, self.clock.elapsed(), self.threads, false)
        }
    }

    /// The position's value with the rows proved so far. A sign alone is shown with the best
    /// move proved so far, as the table shows it.
    fn report_rows(&mut self, sink: &mut dyn ProgressSink) {
        let s = self.value.as_ref().expect("the value comes before the moves");
        let shown = match best_with_distance(&self.rows, s.lower).filter(|_| s.weak && !self.weak) {
            Some(m) => Solution { best: Some(m), ..s.clone() },
            None => s.clone(),
        };
        let nodes = s.nodes + self.moves_nodes;
        sink.event(SearchEvent::Progress(proof_report(
            &shown,
            &self.rows,
            nodes,
            self.clock.elapsed(),
            self.threads,
            false,
        )));
        self.last_rows = Instant::now();
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
        if let Some(why) = unsupported(pos.variant()) {
            // Said, as for a proof that did not finish: heuristic scores under the solver's
            // name are not proofs. A book named in the config is not read here either; the
            // path last, as it may be cut.
            let book =
                self.config.book.as_ref().map_or(String::new(), |p| format!("; the book named is not used ({p})"));
            sink.event(SearchEvent::Notice(format!("solver: {why}; alpha-beta's move and score follow{book}")));
        } else if let Some(result) = self.prove(pos, limits, control, &clock, sink) {
            return result;
        }
        let rest = SearchLimits { time: limits.time.map(|t| (t - clock.elapsed()).max(0.01)), ..*limits };
        self.fallback.search(pos, &rest, control, sink)
    }

    fn new_game(&mut self) {
        self.solver = None;
        <AlphaBeta as Agent<P>>::new_game(&mut self.fallback);
    }
}

impl<P: Position> SolverAgent<P> {
    /// The solver, made at the first search of a game: on free-placement boards a second thread
    /// races proof-number search (see `AnySolver::racing`) when the config asks for threads.
    /// Off by default, as which method answers first depends on the clock, and with it the move
    /// played and the nodes reported. Returned with the notice its making left, if any.
    fn solver(&mut self, pos: &P) -> (&mut AnySolver<P>, Option<&str>) {
        if self.solver.is_none() {
            let threads = self.config.threads.max(1) as usize;
            let solver = match AnySolver::new(pos, self.config.tt_mb as usize) {
                solver @ AnySolver::Generic { .. } if threads > 1 => {
                    if threads > 2 {
                        self.threads_notice = Some(format!(
                            "solver: threads {threads}: on this board two race (alpha-beta and proof-number search), the others are not used"
                        ));
                    }
                    solver.racing(PNS_DEFAULT_MB)
                }
                solver => solver,
            };
            // Takes any count: the Connect-X solver splits its probes, a racing one runs two.
            self.solver = Some(solver.with_threads(threads).expect("threads fit the solver"));
        }
        (self.solver.as_mut().expect("made above"), self.threads_notice.as_deref())
    }

    /// The proof in the first half of the move's time, by the solve service: the result when it
    /// proved the value with a move, else None (said why) for alpha-beta to play.
    fn prove(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        control: &SearchControl,
        clock: &Clock,
        sink: &mut dyn ProgressSink,
    ) -> Option<SearchResult> {
        let start = Instant::now();
        let deadline = limits.time.map(|t| start + Duration::from_secs_f64(t / 2.0));
        let book = self.book(pos.variant(), sink);
        let weak = self.config.weak;
        let (solver, notice) = self.solver(pos);
        if let Some(notice) = notice {
            sink.event(SearchEvent::Warning(notice.to_string()));
        }
        let threads = solver.threads() as u32;
        // The control's stop reaches the solver's flag through a relay thread.
        let (stop, relay) = {
            let control = control.clone();
            stop_flag(move || control.is_stopped())
        };
        // Named as it answers: a file for another game leaves the built-in book answering.
        let name = book.as_ref().map_or(String::new(), |(_, which)| which.clone());
        let request = SolveRequest {
            weak,
            book: book.as_ref().map(|(b, _)| NamedBook { book: b, name: &name }),
            every_move: true,
            start,
            halt: Halt { deadline, stop: Some(stop) },
            fresh_table: false,
            progress: true,
        };
        let mut view = ProofView {
            pos,
            clock,
            threads,
            weak,
            book: &name,
            value: None,
            rows: Vec::new(),
            moves_nodes: 0,
            checking: None,
            last_rows: Instant::now(),
        };
        let outcome = solve(solver, pos, &request, &mut |event| view.hear(event, sink));
        drop(relay);
        let mut s = outcome.solution;
        let root: Vec<RootMove> = outcome.moves.iter().flatten().map(|(m, proved)| root_move(*m, proved)).collect();
        // A sign-only value whose distance the moves did not all give: played by the best move
        // proved so far (the quickest win, the longest loss: it keeps the sign).
        if s.weak
            && !weak
            && let Some(m) = best_with_distance(&root, s.lower)
        {
            s.best = Some(m);
        }
        let nodes = s.nodes + outcome.moves_nodes;
        if s.is_solved()
            && let Some(best) = s.best
        {
            sink.event(SearchEvent::Progress(proof_report(&s, &root, nodes, clock.elapsed(), threads, true)));
            return Some(SearchResult {
                best: Some(best),
                score: s.score(),
                pv: vec![best],
                stats: SearchStats { nodes, elapsed: clock.elapsed(), memory: s.memory, ..Default::default() },
                root,
                unsearched: false,
            });
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
        None
    }
}
