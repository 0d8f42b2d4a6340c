//! Live analysis: the state of one analysis (agent, limits, what arrived) and its side panel.

use std::time::{Duration, Instant};

use super::board::Mark;
use super::command::Command;
use super::lines::Tone;
use super::worker::{Job, Report, Worker};
use crate::agents::{AgentConfig, AgentFile};
use crate::analysis::{Candidate, PositionKey, candidates, full_label, short_label};
use crate::game::{AnyPosition, Move};
use crate::search::{Progress, SearchControl, SearchEvent, SearchLimits, SearchResult, TreeSnapshot};

mod tree;
pub use tree::LineExpansion;

/// The candidates slider's top where a position has fewer legal moves (on larger boards
/// the slider reaches every move).
pub const MOST_CANDIDATES: usize = 20;
/// The slider's setting "every move", whatever their number.
pub const EVERY_MOVE: usize = usize::MAX;

/// Finished analyses of other positions kept for [`Analysis::recall`], at most.
const RECALLED: usize = 32;

/// A finished analysis put aside: what it showed, about which position, by which agent.
struct Recalled {
    key: PositionKey,
    agent: AgentConfig,
    latest: Option<Progress>,
    reports: u64,
    result: Option<SearchResult>,
    tree: Option<TreeSnapshot>,
    notice: Option<String>,
    info: Option<String>,
}

/// Another agent's analysis of the same position, as this one's table compares with it.
#[derive(Clone, Debug, Default)]
pub struct OtherList {
    pub label: String,
    /// Its preferred move, once known (see [`crate::analysis::preferred`]).
    pub preferred: Option<Move>,
    /// Every move its table lists.
    pub moves: Vec<Move>,
}

/// What an analysis is drawn with from outside it: the position on the board, its slot, and
/// what the other slots and the slot's config say about its results.
pub struct SlotView<'a> {
    pub pos: &'a AnyPosition,
    /// The slot's number and its label (A, B...).
    pub slot: usize,
    pub id: &'a str,
    /// The other agents' tables of the same position: rows not among them are marked, and a
    /// different best move is said.
    pub others: &'a [OtherList],
    /// The slot's config changed since these results (a broken config cannot start again):
    /// they are marked as the previous config's.
    pub config_changed: bool,
}

/// One agent's analysis of the current position: the limits, what arrived, and the worker
/// thread that searches.
pub struct Analysis {
    /// Seconds per analysis; 0 runs until stopped (or until the agent's own limits).
    pub(super) seconds: f64,
    /// How many candidate moves the heatmap shows.
    pub(super) candidates: usize,
    pub(super) running: bool,
    /// A running analysis that reached a finished game: it resumes on the next position.
    pub(super) waiting: bool,
    /// Once started, analyse each new position of the game, finished analyses too (a solver's
    /// or a timed one's), until stopped: perfect play at a click instead of Space at each move.
    pub(super) follow: bool,
    pub(super) latest: Option<Progress>,
    pub(super) reports: u64,
    pub(super) result: Option<SearchResult>,
    pub(super) tree: Option<TreeSnapshot>,
    pub(super) error: Option<String>,
    /// Something the search said the user should know that is not a failure (an option it
    /// cannot use here), shown as a warning when there is no error.
    pub(super) notice: Option<String>,
    /// Where the answer came from when not from a search (a solver's book), shown when there
    /// is no error.
    pub(super) info: Option<String>,
    /// The position the results are about: anything else is never shown as current.
    pub(super) key: Option<PositionKey>,
    /// The candidate row under the pointer, from the last frame: its line is previewed on
    /// the board.
    pub(super) hovered_line: Option<Vec<Move>>,
    /// The row under the pointer in words, from the last frame: said in the notice lines
    /// above the table.
    hovered_detail: Option<String>,
    /// Subtrees asked of the worker and not yet arrived (the explorer says "fetching").
    pub(super) fetching: Vec<Vec<Move>>,
    /// "Expand PV" under way or just done (see [`Analysis::expand_line`]).
    pub(super) expansion: Option<LineExpansion>,
    /// The subtrees fetched into the tree, kept across a running search's snapshots.
    grafts: Vec<tree::Graft>,
    id: u64,
    control: SearchControl,
    worker: Worker,
    last_snapshot: Instant,
    /// When the running analysis started (a proof reports nothing until the position's value is
    /// proved: the wait is shown).
    started: Instant,
    /// The agent the results are from.
    agent: Option<AgentConfig>,
    /// Finished analyses of other positions, oldest first (see [`Analysis::recall`]).
    recalled: Vec<Recalled>,
    /// Started and not stopped by the user since: with `follow`, a new position is analysed.
    engaged: bool,
    /// The user stopped the search before it ended: its results read "stopped", not
    /// "finished" (an unfinished proof's last report is not a finished one's).
    stopped: bool,
}

impl Default for Analysis {
    fn default() -> Self {
        Analysis {
            seconds: 0.0,
            candidates: 5,
            running: false,
            waiting: false,
            follow: true,
            latest: None,
            reports: 0,
            result: None,
            tree: None,
            error: None,
            notice: None,
            info: None,
            key: None,
            hovered_line: None,
            hovered_detail: None,
            fetching: Vec::new(),
            expansion: None,
            grafts: Vec::new(),
            id: 0,
            control: SearchControl::new(),
            worker: Worker::spawn(),
            last_snapshot: Instant::now(),
            started: Instant::now(),
            agent: None,
            recalled: Vec::new(),
            engaged: false,
            stopped: false,
        }
    }
}

/// Reading an analysis (for tests and screenshots), and the settings a user changes in its
/// controls. The workbench's panels read the fields themselves.
impl Analysis {
    /// Seconds a search may take (0: until stopped).
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// Sets the seconds field.
    pub fn set_seconds(&mut self, seconds: f64) {
        self.seconds = seconds;
    }

    /// How many candidate moves the table and the board show.
    pub fn candidates_shown(&self) -> usize {
        self.candidates
    }

    /// Sets the candidates slider.
    pub fn set_candidates_shown(&mut self, n: usize) {
        self.candidates = n;
    }

    /// A search of this analysis is running.
    pub fn running(&self) -> bool {
        self.running
    }

    /// Started, but waiting for the worker to finish the search before it.
    pub fn waiting(&self) -> bool {
        self.waiting
    }

    /// The "follow" box is ticked.
    pub fn follow_ticked(&self) -> bool {
        self.follow
    }

    /// Ticks or clears the "follow" box.
    pub fn set_follow(&mut self, follow: bool) {
        self.follow = follow;
    }

    /// The last progress report.
    pub fn latest(&self) -> Option<&Progress> {
        self.latest.as_ref()
    }

    /// Progress reports received from the running or last search.
    pub fn reports(&self) -> u64 {
        self.reports
    }

    /// The finished search's result.
    pub fn result(&self) -> Option<&SearchResult> {
        self.result.as_ref()
    }

    /// The search tree as last reported, with the subtrees fetched into it.
    pub fn tree(&self) -> Option<&TreeSnapshot> {
        self.tree.as_ref()
    }

    /// Shows `tree` as this analysis' search tree (a tree made elsewhere, to look at it).
    pub fn set_tree(&mut self, tree: Option<TreeSnapshot>) {
        self.tree = tree;
    }

    /// Why the analysis could not run or failed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// A warning: an option the agent cannot use here, and what answers instead.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// Where an answer came from when not from a search (a solver's book).
    pub fn info(&self) -> Option<&str> {
        self.info.as_deref()
    }

    /// The position the results are about.
    pub fn key(&self) -> Option<&PositionKey> {
        self.key.as_ref()
    }

    /// Says which position the results (a tree given by `set_tree`) are about.
    pub fn set_key(&mut self, key: Option<PositionKey>) {
        self.key = key;
    }

    /// The line of the candidate row under the pointer in the last frame.
    pub fn hovered_line(&self) -> Option<&[Move]> {
        self.hovered_line.as_deref()
    }

    /// Subtrees asked of the worker and not yet arrived.
    pub fn fetching(&self) -> &[Vec<Move>] {
        &self.fetching
    }

    /// "Expand PV" under way or just done.
    pub fn expansion(&self) -> Option<&LineExpansion> {
        self.expansion.as_ref()
    }
}

impl Analysis {
    /// Puts the current analysis aside when it finished without an error and was not stopped,
    /// so that returning to its position shows it again. Its results are moved out (not
    /// copied: a tree can be large); the callers replace them at once.
    fn put_aside(&mut self) {
        // A stopped one is not: returning to its position searches it again (it came back
        // unfinished, with moves still `?`).
        if self.running || self.waiting || self.stopped || self.result.is_none() || self.error.is_some() {
            return;
        }
        let (Some(key), Some(agent)) = (self.key, self.agent.clone()) else { return };
        self.recalled.retain(|r| !(r.key == key && r.agent == agent));
        if self.recalled.len() == RECALLED {
            self.recalled.remove(0);
        }
        self.recalled.push(Recalled {
            key,
            agent,
            latest: self.latest.take(),
            reports: self.reports,
            result: self.result.take(),
            tree: self.tree.take(),
            notice: self.notice.take(),
            info: self.info.take(),
        });
    }

    /// Where the finished analysis of `pos` by `agent` was put aside, if it was.
    fn recalled_index(&self, pos: &AnyPosition, agent: &AgentConfig) -> Option<usize> {
        self.recalled.iter().position(|r| r.key.matches(pos) && r.agent == *agent)
    }

    /// Shows again the finished analysis of `pos` by `agent`, if one was put aside (the board
    /// went back to a position analysed before), when nothing is running; true if it did. Its
    /// tree is shown, but the worker no longer holds it: deeper nodes are not fetched.
    fn recall(&mut self, pos: &AnyPosition, agent: &AgentConfig) -> bool {
        if self.running || self.waiting || self.is_for(pos) {
            return false;
        }
        let Some(i) = self.recalled_index(pos, agent) else {
            return false;
        };
        let r = self.recalled.remove(i);
        self.put_aside();
        // A new id: the worker's kept tree (for subtrees) is another analysis's.
        self.id += 1;
        self.key = Some(r.key);
        self.agent = Some(r.agent);
        self.latest = r.latest;
        self.reports = r.reports;
        self.result = r.result;
        self.tree = r.tree;
        self.notice = r.notice;
        self.info = r.info;
        self.stopped = false;
        self.error = None;
        self.forget_tree();
        true
    }

    /// Starts analysing `pos` with `file`'s agent (stopping any analysis still running).
    /// The time setting replaces the file's time; its depth, node and iteration limits stay.
    pub fn start(&mut self, pos: &AnyPosition, file: &AgentFile) {
        let was_running = self.running || self.waiting;
        self.halt();
        self.engaged = true;
        if pos.status().is_over() {
            // Not a failure: an ordinary end of the game, said in the text colour. The agent is
            // recorded so a changed config does not start it again and again.
            self.error = None;
            self.notice = None;
            self.info = Some("the game is over: nothing to analyse".into());
            self.agent = Some(file.agent.clone());
            self.waiting = was_running;
            // The stopped search is over for the panel now, not when its last report arrives
            // (until then it said "searching..." at the end of the game); its late reports,
            // about the position left, are not taken in.
            self.running = false;
            self.id += 1;
            return;
        }
        self.put_aside();
        // After: a stopped analysis is not put aside.
        self.stopped = false;
        let file = file.clone();
        self.id += 1;
        self.control = SearchControl::new();
        // The explorer shows its tree: published from the first depth on.
        self.control.want_trees();
        self.running = true;
        self.started = Instant::now();
        self.latest = None;
        self.result = None;
        self.tree = None;
        self.reports = 0;
        self.error = None;
        self.notice = None;
        self.info = None;
        self.key = Some(PositionKey::of(pos));
        self.agent = Some(file.agent.clone());
        self.forget_tree();
        let limits = SearchLimits { time: (self.seconds > 0.0).then_some(self.seconds), ..file.limits };
        self.worker.send(Job::Analyse {
            id: self.id,
            position: Box::new(pos.clone()),
            agent: Box::new(file.agent),
            limits,
            seed: file.seed,
            control: self.control.clone(),
        });
    }

    /// Drops every result (of this position and the ones recalled): they are another agent's.
    pub fn forget(&mut self) {
        self.halt();
        self.running = false;
        self.id += 1;
        (self.latest, self.reports, self.result, self.tree) = (None, 0, None, None);
        (self.key, self.agent, self.expansion, self.stopped) = (None, None, None, false);
        (self.notice, self.info) = (None, None);
        self.fetching.clear();
        self.grafts.clear();
        self.recalled.clear();
    }

    /// Stops the running analysis, and the following of the game; what arrived so far stays.
    pub fn stop(&mut self) {
        if self.running {
            self.stopped = true;
        }
        self.halt();
        self.engaged = false;
    }

    /// A start refused (the slot's config is broken): the search still running, on the
    /// position left, is stopped and its late reports not taken in, and `why` is shown.
    /// Following stays on: the fixed config starts again.
    pub fn refuse(&mut self, why: String) {
        self.halt();
        if self.running {
            self.running = false;
            self.id += 1;
        }
        self.error = Some(why);
    }

    /// Stops the running search only (a new one replaces it).
    fn halt(&mut self) {
        self.control.stop();
        self.waiting = false;
    }

    /// Whether the results shown are by another agent than `agent` (the slot's config changed).
    pub fn agent_differs(&self, agent: &AgentConfig) -> bool {
        self.agent.as_ref().is_some_and(|a| a != agent)
    }

    /// What a change of position to `pos` does to this analysis; true if `pos` should be
    /// searched now (the caller starts it with the slot's agent file).
    /// - Back at a position this analysis finished before with `agent`: its result is shown
    ///   again, not searched again; a search still running on the position left is dropped
    ///   (not put aside: it did not finish) when the analysis follows the game.
    /// - A search running (or waiting at the end of the game) moves on to `pos`.
    /// - Otherwise `pos` is searched if the analysis follows the game and does not already
    ///   show `pos` by `agent`.
    pub fn on_new_position(&mut self, pos: &AnyPosition, agent: &AgentConfig) -> bool {
        if self.follow && self.recalled_index(pos, agent).is_some() {
            self.halt();
            self.running = false;
        }
        if self.running || self.waiting {
            return true;
        }
        if self.recall(pos, agent) {
            return false;
        }
        let current = self.is_for(pos) && !self.agent_differs(agent);
        !current && self.follows()
    }

    /// Whether a change of position should start this analysis again: it runs (or waits at the
    /// end of the game), or it was started, not stopped since, and follows the game.
    pub fn follows(&self) -> bool {
        self.running || self.waiting || (self.follow && self.engaged)
    }

    /// Takes in what the worker sent; asks for a tree snapshot twice a second while running.
    pub fn poll(&mut self) {
        while let Ok(report) = self.worker.reports.try_recv() {
            match report {
                Report::Event { id, event } if id == self.id => match event {
                    SearchEvent::Progress(p) => {
                        self.reports += 1;
                        // A finished alpha-beta depth: fetch its tree at once, so the explorer
                        // never shows the previous depth's values beside this depth's score.
                        if p.iterations == 0 && self.latest.as_ref().is_none_or(|l| l.depth != p.depth) {
                            self.control.request_snapshot(6);
                            self.last_snapshot = Instant::now();
                        }
                        self.latest = Some(p);
                    }
                    SearchEvent::Snapshot(t) => self.take_snapshot(t),
                    // Shown on the analysis's message line until the next start.
                    SearchEvent::Notice(text) | SearchEvent::Warning(text) => self.notice = Some(text),
                    SearchEvent::Info(text) => self.info = Some(text),
                    // The worker keeps these to answer the explorer (it never forwards them).
                    SearchEvent::Published(_) => {}
                },
                Report::Finished { id, result, tree } if id == self.id => {
                    self.running = false;
                    self.result = Some(result);
                    if let Some(t) = tree {
                        self.take_snapshot(t);
                    }
                }
                Report::Subtree { id, path, tree, fresh } if id == self.id => self.graft(path, tree, fresh),
                _ => {}
            }
        }
        if self.running && self.last_snapshot.elapsed() > Duration::from_millis(500) {
            self.control.request_snapshot(6);
            self.last_snapshot = Instant::now();
        }
    }

    /// Whether the results are about `pos` (and not an earlier position).
    pub fn is_for(&self, pos: &AnyPosition) -> bool {
        self.key.is_some_and(|k| k.matches(pos))
    }

    /// The best moves of the latest report, if it is about `pos`; legal moves only.
    pub fn candidates(&self, pos: &AnyPosition) -> Vec<Candidate> {
        match &self.latest {
            Some(p) if self.is_for(pos) => {
                let legal = pos.legal_moves();
                candidates(p, self.candidates).into_iter().filter(|c| legal.contains(&c.mv)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The candidate moves to draw on the board, best first (nothing for another position).
    pub fn heatmap(&self, pos: &AnyPosition) -> Vec<Mark> {
        let proof = self.latest.as_ref().is_some_and(|p| p.proof);
        self.candidates(pos)
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                let mut tip = format!("{}: {}", pos.format_move(c.mv), full_label(c.score, c.bound));
                if let Some(meaning) = crate::analysis::bound_meaning(c.score, c.bound) {
                    tip.push_str(&format!(" ({meaning})"));
                }
                if let Some(share) = c.share {
                    tip.push_str(&format!(", {} visits ({:.1}%)", c.visits, share * 100.0));
                }
                let line: Vec<String> = c.pv.iter().map(|&m| pos.format_move(m)).collect();
                tip.push_str(&format!("\nline {}", line.join(" ")));
                let best = i == 0 && c.score != crate::search::Score::Unknown;
                let proof_label = crate::analysis::is_proof_label(proof, c.score);
                Mark {
                    mv: c.mv,
                    strength: c.strength,
                    label: short_label(c.score, c.bound),
                    tooltip: tip,
                    best,
                    proof_label,
                    bound: c.bound == crate::search::tree::Bound::Upper,
                }
            })
            .collect()
    }

    /// The analysis controls and readout of a slot; what its clicks ask of the workbench
    /// (start, a candidate played, a line walked) goes to `out`.
    pub fn show(&mut self, ui: &mut egui::Ui, view: &SlotView, out: &mut Vec<Command>) {
        let pos = view.pos;
        self.controls(ui, view, out);
        // Where an answer came from is about the analysed position only.
        let info = self.info.as_deref().filter(|_| self.is_for(pos));
        // No table for this position: no row of one is under the pointer (a row's words
        // stayed after a click walked its line to another position).
        if self.latest.is_none() || !self.is_for(pos) {
            self.hovered_detail = None;
        }
        // Three lines: a notice names an option, why it does not apply and what answers
        // instead, which two lines of a half-width panel cut (a new-user trial saw a book's
        // game and a fallback's name lost).
        // The candidate row under the pointer is said here too, in words (below the table a
        // long table scrolled it out of view; in a tooltip it covered the next row).
        let (text, tone) = match (&self.error, &self.notice) {
            (Some(e), _) => (Some(e.as_str()), Tone::Error),
            (None, Some(n)) => (Some(n.as_str()), Tone::Warning),
            (None, None) => (self.hovered_detail.as_deref().or(info), Tone::Plain),
        };
        super::lines::reserved_lines(ui, text, tone, 3);
        ui.separator();
        self.hovered_line = None;
        match &self.latest {
            None if self.running => {
                ui.label(format!("searching... {:.1} s", self.started.elapsed().as_secs_f64()));
                ui.ctx().request_repaint_after(Duration::from_millis(100));
            }
            // At the end of a game there is nothing to start: "no analysis yet" would promise
            // that a Start gives one.
            None if pos.status().is_over() => {
                ui.label("the game is over: nothing to analyse");
            }
            None => {
                ui.label("no analysis yet");
            }
            Some(_) if !self.is_for(pos) => {
                // Results of an earlier position are never shown as if about this one.
                ui.weak(if self.running {
                    "searching..."
                } else if pos.status().is_over() {
                    "the game is over"
                } else {
                    "for another position: start to analyse this one"
                });
            }
            Some(p) => {
                self.readout(ui, view, p);
                self.candidate_table(ui, pos, view.others, out);
            }
        }
    }

    /// The analysis' controls: its seconds, Start, Stop and follow, and how many candidates.
    fn controls(&mut self, ui: &mut egui::Ui, view: &SlotView, out: &mut Vec<Command>) {
        let (pos, id, slot) = (view.pos, view.id, view.slot);
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(format!("seconds {id} (0: until stopped)"));
            ui.add(egui::DragValue::new(&mut self.seconds).range(0.0..=3600.0).speed(0.1)).labelled_by(label.id);
        });
        ui.horizontal_wrapped(|ui| {
            if ui.add_enabled(!self.running, egui::Button::new(format!("Start analysis {id}"))).clicked() {
                out.push(Command::StartSlot(slot));
            }
            // A finished analysis that follows the game is stopped too: no new position is
            // analysed after it.
            let stop = ui.add_enabled(self.follows(), egui::Button::new(format!("Stop {id}")));
            // Enabled while idle (a finished search, a finished game) it still does something:
            // it ends the following, so the next position is not analysed. Said so.
            let stop = if self.running || self.waiting {
                stop.on_hover_text("stop the search and stop following the game")
            } else {
                stop.on_hover_text(
                    "nothing is searched now; stop following the game (the next position is not analysed)",
                )
            };
            if stop.clicked() {
                self.stop();
            }
            let follow = ui.checkbox(&mut self.follow, format!("follow {id}"));
            if follow.changed() && !self.follow && !self.running {
                // Unticked after it finished: ticking again does not revive that old start.
                self.engaged = false;
            }
            follow.on_hover_text(
                "once started, analyse each new position (a move, back, forward) until stopped, \
                 finished analyses too; off: a finished analysis stays with its position",
            );
        });
        // The slider reaches every legal move (a 7x7 board's solver lists 49); at its top it
        // means "every move", kept as such when the next position has more or fewer.
        let top = MOST_CANDIDATES.max(pos.num_legal_moves());
        let mut shown = self.candidates.min(top);
        if ui.add(egui::Slider::new(&mut shown, 1..=top).text("candidates")).changed() {
            self.candidates = if shown == top { EVERY_MOVE } else { shown };
        }
    }

    /// What the analysis of the position shown found, above its candidate table: best move,
    /// score and state, the search's fields, the proof so far and the PV.
    fn readout(&self, ui: &mut egui::Ui, view: &SlotView, p: &Progress) {
        let pos = view.pos;
        let best = p.best.map_or("-".to_string(), |m| pos.format_move(m));
        let state = match (self.running, self.stopped, view.config_changed) {
            (true, _, false) => "running",
            (true, _, true) => "running, by the previous config",
            (false, false, false) => "finished",
            (false, false, true) => "finished, by the previous config",
            (false, true, false) => "stopped",
            (false, true, true) => "stopped, by the previous config",
        };
        let text = egui::RichText::new(format!("best {best}   score {}   {state}", p.score));
        let text = if view.config_changed { text.color(ui.visuals().warn_fg_color) } else { text };
        let help = crate::analysis::ScoreKind::of(&p.score).help();
        ui.label(text).on_hover_text(if view.config_changed {
            format!("{help}\n\nThe agent's config changed since this analysis started: start it again (Space) for the new one.")
        } else {
            help.to_string()
        });
        // A field at a time, so a narrow panel breaks the line between fields only;
        // the speed's fields follow on the same lines (a line of their own took
        // Connect-4's seventh candidate row in a half panel).
        let fields = crate::analysis::search_fields(p);
        let speed = crate::analysis::speed_fields(p, self.reports);
        ui.horizontal_wrapped(|ui| {
            for field in fields.into_iter().chain(speed) {
                // Never broken inside ("nodes" on one line, its count on the next).
                ui.add(egui::Label::new(field).wrap_mode(egui::TextWrapMode::Extend));
            }
        });
        // A running proof: what it has ruled out, wrapped to the column.
        if let Some(so_far) = crate::analysis::proof_so_far(p) {
            ui.label(so_far);
        }
        if crate::analysis::shows_pv(p) {
            let pv: Vec<String> = p.pv.iter().map(|&m| pos.format_move(m)).collect();
            ui.label(format!("PV {}", pv.join(" ")));
        }
    }

    /// The candidate table: a row per move (score, visits share or bound, line); hovering a
    /// row previews its line on the board, clicking plays the move.
    fn candidate_table(&mut self, ui: &mut egui::Ui, pos: &AnyPosition, others: &[OtherList], out: &mut Vec<Command>) {
        let rows = self.candidates(pos);
        if rows.is_empty() {
            return;
        }
        // Whose scores these are is said once, in the legend row above the board (and in the
        // score's tooltip): a line here took a candidate row.
        // One line per other agent, said or not, so the table does not jump.
        for other in others {
            let differs = other.preferred.filter(|&m| crate::analysis::preferred(&rows) != Some(m));
            let text = differs.map(|m| format!("agent {} prefers {}", other.label, pos.format_move(m)));
            super::lines::reserved_line(ui, text.as_deref(), Tone::Plain);
        }
        // Fixed column widths (not an egui Grid, which re-measures and redraws the frame each
        // time a line's width changes: 2-4x slower frames while a search streams).
        // The line takes what the column has left (a wider row would widen the panel).
        // The visits column only where there are visits (MCTS): alpha-beta's bounds are marked
        // ≤ / ≥ in the score, so its line gets that room.
        let gap = ui.spacing().item_spacing.x;
        let visits_w = if rows[0].share.is_some() { 48.0 } else { 0.0 };
        let columns = if visits_w > 0.0 { 5.0 } else { 4.0 };
        let line_w = (ui.available_width() - (38.0 + 74.0 + visits_w + 14.0) - columns * gap).max(30.0);
        let widths = [38.0, 74.0, visits_w, line_w, 14.0];
        // The row under the pointer, said above (in the notice lines) from the next frame.
        let detail = self.hovered_detail.take();
        ui.horizontal(|ui| {
            let heads = ["move", "score", if rows[0].share.is_some() { "visits" } else { "" }, "line", ""];
            for (w, t) in widths.iter().zip(heads) {
                if *w > 0.0 {
                    fixed_cell(ui, *w, &mut |ui| {
                        ui.strong(t).on_hover_text("click a move to play it, a move of its line to walk to it")
                    });
                }
            }
        });
        for c in &rows {
            self.candidate_row(ui, c, pos, others, widths, out);
        }
        // Said a frame late: one more frame when it changed.
        if self.hovered_detail != detail {
            ui.ctx().request_repaint();
        }
    }

    /// One candidate's row: its move (a click plays it), score, visits, the moves of its line
    /// that fit (a click walks to one) and a mark where another agent's list lacks it.
    fn candidate_row(
        &mut self,
        ui: &mut egui::Ui,
        c: &crate::analysis::Candidate,
        pos: &AnyPosition,
        others: &[OtherList],
        widths: [f32; 5],
        out: &mut Vec<Command>,
    ) {
        let mv = pos.format_move(c.mv);
        let extra = c.share.map(|s| format!("{:.1}%", s * 100.0));
        let line: Vec<String> = c.pv.iter().map(|&m| pos.format_move(m)).collect();
        // Whole moves that fit the column (about 0.6 of the font size a character), the
        // full line in the tooltip.
        let chars = (widths[3] / (ui.style().text_styles[&egui::TextStyle::Body].size * 0.6)) as usize;
        // A one-letter move takes a two-letter target (below): counted so.
        let counted: Vec<String> =
            line.iter().map(|m| if m.chars().count() < 2 { format!("{m} ") } else { m.clone() }).collect();
        let shown = crate::analysis::fit_line(&counted, chars);
        // The moves that fit, each a link: a click walks the line to it.
        let fitting = shown.trim_end_matches('…').split_whitespace().count().min(line.len());
        let alone: Vec<&str> = others
            .iter()
            .filter(|o| !o.moves.is_empty() && !o.moves.contains(&c.mv))
            .map(|o| o.label.as_str())
            .collect();
        let mut clicked = false;
        let row = ui.horizontal(|ui| {
            clicked = fixed_cell(ui, widths[0], &mut |ui| ui.add(egui::Button::new(&mv).small())).clicked();
            fixed_cell(ui, widths[1], &mut |ui| ui.label(full_label(c.score, c.bound)));
            if let Some(extra) = &extra {
                fixed_cell(ui, widths[2], &mut |ui| ui.label(extra));
            }
            let mut walk = None;
            fixed_cell(ui, widths[3], &mut |ui| {
                // Each move a target at least 16 px wide, lit under the pointer: one-letter
                // Connect-4 moves 9 px apart sent a click to the neighbouring move.
                ui.spacing_mut().item_spacing.x = 2.0;
                ui.spacing_mut().button_padding.x = 2.0;
                for (k, name) in line.iter().take(fitting).enumerate() {
                    let target = egui::Button::new(name.as_str())
                        .small()
                        .frame_when_inactive(false)
                        .min_size(egui::vec2(16.0, 0.0));
                    if ui.add(target).clicked() {
                        walk = Some(k + 1);
                    }
                }
                ui.label(if fitting < line.len() { "…" } else { "" })
            });
            if let Some(n) = walk {
                out.push(Command::Walk(c.pv[..n].to_vec()));
            }
            if !alone.is_empty() {
                fixed_cell(ui, widths[4], &mut |ui| ui.colored_label(egui::Color32::from_rgb(200, 120, 0), "≠"));
            }
        });
        if clicked {
            out.push(Command::Play(c.mv));
        }
        if ui.rect_contains_pointer(row.response.rect) {
            self.hovered_line = Some(c.pv.clone());
            self.hovered_detail = Some(crate::analysis::candidate_detail(c, &mv, &line, &alone));
        }
    }
}

/// A table cell of width `w` and a row's height: exactly its rectangle (clipped), so columns
/// line up and never push.
fn fixed_cell(ui: &mut egui::Ui, w: f32, add: &mut dyn FnMut(&mut egui::Ui) -> egui::Response) -> egui::Response {
    let h = ui.spacing().interact_size.y;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(w, h), egui::Sense::hover());
    let mut child =
        ui.new_child(egui::UiBuilder::new().max_rect(rect).layout(egui::Layout::left_to_right(egui::Align::Center)));
    child.set_clip_rect(rect.intersect(ui.clip_rect()));
    add(&mut child)
}
