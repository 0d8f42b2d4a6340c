//! The matchup tab: build a matchup from the agent slots, run it on the arena in a
//! background thread, and watch live plots (running score with its 95% band, time and nodes
//! per move, a heatmap for grid sweeps). Pause stops the run and resume continues it from
//! the results on disk (no game lost or played twice); results load back from a run folder.

mod results;

use std::path::{Path, PathBuf};

use crossbeam_channel::{Receiver, unbounded};
use serde::{Deserialize, Serialize};

use super::agents::AgentSlot;
use super::command::Command;
use super::consent::{Consent, Permission, Retry};
use super::files::Purpose;
use super::lines::{Tone, reserved_lines};
use super::plots::Exporter;
use crate::arena::results::{RESULTS_FILE, load_run, read_results};
use crate::arena::{
    AgentSource, Entrant, GameRecord, KRule, Matchup, Opening, Pairing, RunOptions, SprtConfig, Variants,
    run_matchup_summary,
};
use crate::game::Variant;
use crate::io::write_atomic;
use crate::plot::live::{PerMove, cumulative_score, per_move};
use crate::plot::{Field, Figure, Metric, PlotKind, PlotRequest, figure_from_results};
use crate::search::SearchControl;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Idle,
    Running,
    Paused,
    Cancelled,
    Finished,
}

enum Message {
    Game { total: u64, game: Box<GameRecord> },
    Ended(Result<usize, crate::arena::RunError>),
}

/// Which live plot is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LivePlot {
    Score,
    Time,
    Nodes,
    Heatmap,
}

impl LivePlot {
    /// The file name its export takes (before the extension).
    pub fn file_stem(self) -> &'static str {
        match self {
            LivePlot::Score => "score",
            LivePlot::Time => "time",
            LivePlot::Nodes => "nodes",
            LivePlot::Heatmap => "heatmap",
        }
    }
}

pub struct MatchupPanel {
    /// What the form says (remembered between sessions).
    pub(super) form: MatchupForm,
    pub(super) records: Vec<GameRecord>,
    pub(super) total: u64,
    pub(super) state: RunState,
    pub(super) error: Option<String>,
    /// What went well, said in the text colour (a save, the folder a run went to).
    pub(super) notice: Option<String>,
    pub(super) plot: LivePlot,
    pub(super) exporter: Exporter,
    /// The plot shown in a window of its own too ("Enlarge").
    plot_enlarged: bool,
    matchup: Option<Matchup>,
    /// A matchup opened from a file or a run, with the form as it was filled from it: Run
    /// plays that matchup as it is (its entrants, limits, openings, colours) until the form is
    /// edited or the slots' agents are chosen; the form cannot hold all of it.
    opened: Option<(Matchup, MatchupForm)>,
    control: SearchControl,
    inbox: Option<Receiver<Message>>,
    /// The live figure as last built, with the game count and plot it was built for: the
    /// figure is rebuilt when a game arrives or the plot changes, not every frame.
    shown: Option<(usize, LivePlot, Option<Figure>)>,
    /// The summary of the games so far, computed when games came in.
    summary: Option<results::Summary>,
    /// The summary table is shown in the plot's place (a short tab shows a headline above
    /// the plot, the table on request).
    table_shown: bool,
    /// The last frame's layout put the export row in a menu: its messages go to the state
    /// line, which stays in sight; `export_said` is the last one put there.
    export_in_menu: bool,
    export_said: Option<String>,
    /// The run's thread has not ended yet (after a pause, games in progress still finish
    /// stopping; a resume waits for that, so two runs never write one folder).
    busy: bool,
    /// The workbench's record of which external programs the user allowed.
    pub(super) consent: Consent,
    /// The last file or run folder read or written, for the workbench's Recent list.
    pub(super) touched: Option<String>,
}

impl Default for MatchupPanel {
    fn default() -> Self {
        MatchupPanel {
            form: MatchupForm::default(),
            records: Vec::new(),
            total: 0,
            state: RunState::Idle,
            error: None,
            notice: None,
            plot: LivePlot::Score,
            exporter: Exporter::new("out/workbench/score.svg"),
            plot_enlarged: false,
            matchup: None,
            opened: None,
            control: SearchControl::new(),
            inbox: None,
            busy: false,
            consent: Consent::default(),
            touched: None,
            shown: None,
            summary: None,
            table_shown: false,
            export_in_menu: false,
            export_said: None,
        }
    }
}

/// The matchup form's settings: remembered between sessions, and read back from a run's
/// matchup when a run is loaded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MatchupForm {
    pub variants_text: String,
    /// The variants are the game on the board, and follow it to another game, until the user
    /// types others or a matchup fills the form (see [`MatchupPanel::follow_board`]).
    #[serde(default)]
    pub plays_board: bool,
    pub grid: bool,
    pub widths_text: String,
    pub heights_text: String,
    pub k_text: String,
    pub gravity: bool,
    pub games: u32,
    pub move_time: f64,
    pub seed: u64,
    pub threads: usize,
    pub opening_plies: u32,
    pub out_dir: String,
    pub sprt: bool,
    pub sprt_config: SprtConfig,
}

impl Default for MatchupForm {
    fn default() -> Self {
        MatchupForm {
            variants_text: "mnk:4,4,3 mnk:5,5,4".into(),
            plays_board: false,
            grid: false,
            widths_text: "5 6 7".into(),
            heights_text: "5 6 7".into(),
            k_text: String::new(),
            gravity: false,
            games: 10,
            move_time: 0.0,
            seed: 1,
            threads: 0,
            opening_plies: 0,
            out_dir: "out/workbench".into(),
            sprt: false,
            sprt_config: SprtConfig { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05 },
        }
    }
}

/// Why the matchup form gives no matchup.
#[derive(Debug, thiserror::Error)]
pub enum FormError {
    /// An agent slot's own form is invalid (`why` as the slot shows it).
    #[error("agent {slot} is not valid: {why}")]
    Agent { slot: String, why: String },
    #[error("{field}: '{text}' is not a number from 1 to 255")]
    NotANumber { field: &'static str, text: String },
    #[error("variants: {0}")]
    Variant(#[source] crate::game::GameError),
    /// The checks a matchup file gets.
    #[error(transparent)]
    Matchup(#[from] crate::io::FileError),
}

fn numbers(text: &str, field: &'static str) -> Result<Vec<u8>, FormError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u8>().map_err(|_| FormError::NotANumber { field, text: s.to_string() }))
        .collect()
}

impl MatchupPanel {
    /// A panel that asks the workbench's consent before starting external programs.
    pub fn with_consent(consent: Consent) -> MatchupPanel {
        MatchupPanel { consent, ..MatchupPanel::default() }
    }

    /// The board is now `new`: a form that plays the board plays the new one; variants the
    /// user chose stay. The game given with `--game` comes after the panel was made for
    /// Connect-4, and on gomoku Run matchup played Connect-4.
    pub fn follow_board(&mut self, new: Variant) {
        // An opened matchup plays its own boards: its form is left as the file made it.
        if self.opened.is_none() && self.form.plays_board && !self.form.grid {
            self.form.variants_text = new.to_string();
        }
    }

    /// A panel whose form plays the game on the board: on gomoku, Run matchup played the
    /// form's default small boards (mnk:4,4,3 and mnk:5,5,4).
    pub fn for_game(variant: Variant, consent: Consent) -> MatchupPanel {
        let mut panel = MatchupPanel::with_consent(consent);
        panel.form.variants_text = variant.to_string();
        panel.form.plays_board = true;
        panel
    }

    /// The form's settings.
    pub fn form(&self) -> &MatchupForm {
        &self.form
    }

    /// The form as the user fills it in.
    pub fn form_mut(&mut self) -> &mut MatchupForm {
        &mut self.form
    }

    /// The games of the run shown, as they finished.
    pub fn records(&self) -> &[GameRecord] {
        &self.records
    }

    pub fn state(&self) -> RunState {
        self.state
    }

    /// Why the last start, load or save failed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// What went well: a save, the folder a run went to.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The live figure chosen.
    pub fn plot(&self) -> LivePlot {
        self.plot
    }

    /// The figure export's fields.
    pub fn exporter(&self) -> &Exporter {
        &self.exporter
    }

    pub fn exporter_mut(&mut self) -> &mut Exporter {
        &mut self.exporter
    }

    /// Fills the form with remembered settings (an empty run folder keeps the default).
    /// A form that played the board goes on playing it: the board of this session, not the
    /// last session's.
    pub fn apply_form(&mut self, f: &MatchupForm) {
        let out_dir = if f.out_dir.is_empty() { self.form.out_dir.clone() } else { f.out_dir.clone() };
        let plays_board = f.plays_board && self.form.plays_board;
        let variants_text = if plays_board { self.form.variants_text.clone() } else { f.variants_text.clone() };
        self.form = MatchupForm {
            games: f.games.max(1),
            move_time: f.move_time.max(0.0),
            out_dir,
            variants_text,
            plays_board,
            ..f.clone()
        };
    }

    /// Fills the form from a run's matchup (the settings the run was made with).
    fn form_from_matchup(&mut self, m: &Matchup) {
        // The matchup's boards, whatever the board is.
        self.form.plays_board = false;
        match &m.variants {
            Variants::List(list) => {
                self.form.grid = false;
                self.form.variants_text = list.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ");
            }
            Variants::Grid { widths, heights, k, gravity, .. } => {
                let join = |v: &[u8]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
                self.form.grid = true;
                self.form.widths_text = join(widths);
                self.form.heights_text = join(heights);
                self.form.k_text = match k {
                    KRule::Fixed(k) => join(k),
                    _ => String::new(),
                };
                self.form.gravity = *gravity;
            }
        }
        self.form.games = m.games;
        self.form.move_time = m.limits.and_then(|l| l.time).unwrap_or(0.0);
        self.form.seed = m.seed;
        self.form.threads = m.threads as usize;
        self.form.opening_plies = match m.opening {
            Opening::RandomPlies(n) => n,
            _ => 0,
        };
        self.form.sprt = m.sprt.is_some();
        if let Some(c) = m.sprt {
            self.form.sprt_config = c;
        }
    }

    /// The opened matchup while the form is as it was filled from it: what Run plays as it is.
    pub fn opened(&self) -> Option<&Matchup> {
        // The run folder is where a run goes, not what it plays: editing it keeps the opened
        // matchup (it switched the tab to the slots' agents).
        let same = |form: &MatchupForm| MatchupForm { out_dir: self.form.out_dir.clone(), ..form.clone() } == self.form;
        self.opened.as_ref().filter(|(_, form)| same(form)).map(|(m, _)| m)
    }

    /// What Run plays: the opened matchup unchanged, else the form's between the slots.
    pub fn to_run(&self, slots: &[AgentSlot]) -> Result<Matchup, FormError> {
        match self.opened() {
            Some(m) => Ok(m.clone()),
            None => self.build(slots),
        }
    }

    /// The matchup the form describes, between the agent slots' configs.
    pub fn build(&self, slots: &[AgentSlot]) -> Result<Matchup, FormError> {
        if let Some((s, e)) = slots.iter().find_map(|s| s.error.as_ref().map(|e| (s, e))) {
            return Err(FormError::Agent { slot: s.label.clone(), why: e.clone() });
        }
        let variants = if self.form.grid {
            let k = numbers(&self.form.k_text, "K")?;
            Variants::Grid {
                widths: numbers(&self.form.widths_text, "widths")?,
                heights: numbers(&self.form.heights_text, "heights")?,
                k: if k.is_empty() { KRule::HalfMinAndNext } else { KRule::Fixed(k) },
                gravity: self.form.gravity,
                exact: false,
            }
        } else {
            let list: Result<Vec<Variant>, _> = self.form.variants_text.split_whitespace().map(str::parse).collect();
            Variants::List(list.map_err(FormError::Variant)?)
        };
        let mut names: Vec<String> = slots.iter().map(|s| s.file.name.clone()).collect();
        if names.len() == 2 && names[0] == names[1] {
            for (n, s) in names.iter_mut().zip(slots) {
                *n = format!("{n} ({})", s.label);
            }
        }
        let agents = slots
            .iter()
            .zip(names)
            .map(|(s, name)| Entrant {
                name: Some(name),
                agent: AgentSource::Inline(Box::new(s.file.clone())),
                limits: None,
                game_budget: None,
            })
            .collect();
        let who: Vec<String> = slots.iter().map(|s| format!("{} ({})", s.label, s.file.name)).collect();
        let m = Matchup {
            version: crate::arena::matchup::MATCHUP_VERSION,
            // The run folder's name: `mnklab match` on the saved file writes out/NAME, and
            // the workbench opening it proposes that folder.
            name: folder_name(Path::new(&self.form.out_dir)).unwrap_or_else(|| "workbench".into()),
            description: format!("built in the workbench: {}", who.join(" against ")),
            variants,
            agents,
            // Two agents play each other; more play a round robin.
            pairing: if slots.len() > 2 { Pairing::RoundRobin } else { Pairing::Pairwise },
            games: self.form.games,
            colours: Default::default(),
            limits: (self.form.move_time > 0.0).then(|| crate::search::SearchLimits::time(self.form.move_time)),
            game_budget: None,
            seed: self.form.seed,
            opening: if self.form.opening_plies > 0 {
                Opening::RandomPlies(self.form.opening_plies)
            } else {
                Opening::None
            },
            threads: self.form.threads as u32,
            sprt: self.form.sprt.then_some(self.form.sprt_config),
        };
        // The same checks as a matchup file gets.
        Ok(Matchup::parse(&m.to_ron(), Path::new("(workbench)"))?)
    }

    /// Whether the run's thread is still going.
    pub fn busy(&self) -> bool {
        self.busy
    }

    /// Starts (or, with `resume`, continues) the run in the background.
    pub fn start(&mut self, slots: &[AgentSlot], resume: bool) {
        if self.busy {
            self.error = Some("the previous run is still stopping".into());
            return;
        }
        let m = if resume {
            match self.matchup.clone() {
                Some(m) => m,
                None => return,
            }
        } else {
            match self.to_run(slots) {
                Ok(m) => m,
                Err(e) => {
                    self.error = Some(e.to_string());
                    return;
                }
            }
        };
        let mut out = PathBuf::from(&self.form.out_dir);
        if out.exists() && !out.is_dir() {
            self.error = Some(format!("the run folder {} is a file: name a folder for the results", out.display()));
            return;
        }
        let mut notice = None;
        if !resume {
            // A fresh run never mixes with (or overwrites) an earlier run's results: it takes
            // the next free folder name instead.
            if out.join(RESULTS_FILE).exists() {
                let Some(free) = crate::io::free_run_dir(&out) else {
                    self.error = Some(format!("{} holds results: choose another folder", out.display()));
                    return;
                };
                notice = Some(format!("{} holds an earlier run: this one goes to {}", out.display(), free.display()));
                self.form.out_dir = free.display().to_string();
                out = free;
            }
            self.set_records(Vec::new());
            self.shown = None;
        } else {
            self.set_records(read_results(&out.join(RESULTS_FILE)).unwrap_or_default());
            self.shown = None;
        }
        // Nothing named in a file (a loaded run's matchup.ron) starts without the user's yes.
        if let Ok(entrants) = m.resolve(Path::new(".")) {
            let why =
                match self.consent.permits_commands(Matchup::external_commands(&entrants), Retry::Matchup { resume }) {
                    Permission::Granted => None,
                    Permission::Asked => Some("waiting for your answer: start the external programs?"),
                    Permission::Refused => Some(
                        "not started: you refused an entrant's program (Programs > Forget answers to be asked again)",
                    ),
                };
            if let Some(why) = why {
                self.error = Some(why.into());
                return;
            }
        }
        self.total = m.schedule_len();
        self.error = None;
        self.notice = notice;
        // The export follows the run: a figure of this run never lands in an earlier run's folder.
        self.exporter.follow(&out);
        self.control = SearchControl::new();
        let control = self.control.clone();
        let (tx, rx) = unbounded();
        let opts = RunOptions { threads: self.form.threads, out, resume, scale: 1.0, games: None, shard: None };
        let run = m.clone();
        std::thread::Builder::new()
            .name("mnklab-matchup".into())
            .spawn(move || {
                let r = run_matchup_summary(&run, Path::new("."), &opts, &control, |p| {
                    let _ = tx.send(Message::Game { total: p.total, game: Box::new(p.game.clone()) });
                });
                let _ = tx.send(Message::Ended(r.map(|s| s.games as usize)));
            })
            .expect("spawn the matchup thread");
        self.matchup = Some(m);
        self.inbox = Some(rx);
        self.state = RunState::Running;
        self.busy = true;
    }

    /// Stops the games in progress; resume continues from the results on disk.
    pub fn pause(&mut self) {
        self.control.stop();
        self.state = RunState::Paused;
    }

    pub fn cancel(&mut self) {
        self.control.stop();
        self.state = RunState::Cancelled;
    }

    /// Takes in finished games.
    pub fn poll(&mut self) {
        let Some(rx) = &self.inbox else { return };
        while let Ok(msg) = rx.try_recv() {
            match msg {
                Message::Game { total, game } => {
                    self.total = total.max(self.total);
                    if !self.records.iter().any(|r| r.index == game.index) {
                        self.records.push(*game);
                    }
                }
                Message::Ended(r) => {
                    self.busy = false;
                    if let Err(e) = r {
                        self.error = Some(e.to_string());
                    }
                    if self.state == RunState::Running {
                        self.state = RunState::Finished;
                    }
                }
            }
        }
    }

    /// Shows no run: no games, summary, plot or export of one.
    fn forget_run(&mut self) {
        self.set_records(Vec::new());
        self.total = 0;
        self.shown = None;
        self.matchup = None;
        self.state = RunState::Idle;
        // The export path names the form's run folder (it kept the old run's).
        self.exporter.follow(Path::new(&self.form.out_dir));
        self.exporter.forget();
    }

    /// Replaces the games shown, and the summary made of the last ones: another run of as many
    /// games kept the last run's table under this run's plot.
    fn set_records(&mut self, records: Vec<GameRecord>) {
        self.records = records;
        self.summary = None;
    }

    /// Loads a finished (or partial) run from its folder, or a matchup file into the form.
    pub fn load(&mut self, dir: &Path) {
        if dir.is_file() && crate::io::file_kind(dir).is_ok_and(|k| k == crate::io::FileKind::Matchup) {
            self.load_matchup_file(dir);
            return;
        }
        match load_run(dir) {
            Ok(run) => {
                self.total = run.matchup.as_ref().map_or(run.records.len() as u64, |m| m.schedule_len());
                self.set_records(run.records);
                self.shown = None;
                if let Some(m) = &run.matchup {
                    self.form_from_matchup(m);
                }
                // The run's folder is part of the form it was opened as: set after the form
                // was remembered, it made the form differ at once, and the tab named the
                // slots' agents instead of the run's.
                self.form.out_dir = run.dir.display().to_string();
                self.touched = Some(dir.display().to_string());
                if let Some(m) = &run.matchup {
                    self.opened = Some((m.clone(), self.form.clone()));
                }
                self.matchup = run.matchup;
                self.exporter.follow(&run.dir);
                self.state =
                    if (self.records.len() as u64) < self.total { RunState::Paused } else { RunState::Finished };
                self.error = None;
                self.notice = Some(format!("loaded the run in {}", run.dir.display()));
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Fills the form from a matchup file (one saved with Save matchup, or written by hand):
    /// Run matchup then plays it between the agent slots.
    pub fn load_matchup_file(&mut self, path: &Path) {
        match Matchup::load(path) {
            Ok(mut m) => {
                // Its agent files are named relative to it: made usable from here.
                let dir = path.parent().unwrap_or(Path::new(""));
                for e in &mut m.agents {
                    if let crate::arena::matchup::AgentSource::File(f) = &mut e.agent
                        && Path::new(f.as_str()).is_relative()
                    {
                        *f = dir.join(f.as_str()).display().to_string();
                    }
                }
                self.form_from_matchup(&m);
                // The folder `mnklab match` would write: the same file, the same run folder.
                self.form.out_dir = m.default_out_dir().display().to_string();
                // The run shown was another matchup's: its table, plot and "Finished" beside
                // this one's form read as this matchup's. A run still playing stays.
                if self.state != RunState::Running && !self.busy {
                    self.forget_run();
                }
                self.opened = Some((m, self.form.clone()));
                self.error = None;
                self.notice = Some(format!("the form holds the matchup {}", path.display()));
                self.touched = Some(path.display().to_string());
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Saves what Run matchup would play (the opened matchup, else the form's between the
    /// slots) as `NAME.ron` in the folder Run matchup would write: the run folder, or, when
    /// that holds a run's results, the next free folder (where a fresh run goes too). The
    /// form's matchup is named after that folder; an opened one keeps its name. The form is
    /// left as it is.
    pub fn save_draft(&mut self, slots: &[AgentSlot]) {
        let mut dir = PathBuf::from(&self.form.out_dir);
        let mut moved = None;
        if dir.join(RESULTS_FILE).exists() {
            let Some(free) = crate::io::free_run_dir(&dir) else {
                self.error = Some(format!("{} holds a run: name another run folder", dir.display()));
                return;
            };
            moved = Some(format!("{} holds a run: Run matchup writes to {} too", dir.display(), free.display()));
            dir = free;
        }
        let m = match self.to_save(slots, &dir) {
            Ok(m) => m,
            Err(e) => {
                (self.error, self.notice) = (Some(e.to_string()), None);
                return;
            }
        };
        if let Err(e) = std::fs::create_dir_all(&dir) {
            self.error = Some(format!("cannot create the run folder {}: {e}", dir.display()));
            return;
        }
        self.write_matchup(&m, &dir.join(format!("{}.ron", m.name)));
        if let (Some(moved), Some(n)) = (moved, self.notice.as_mut()) {
            *n = format!("{n} ({moved})");
        }
    }

    /// Saves what Run matchup would play (see [`Self::save_draft`]) as `path`.
    pub fn save_matchup(&mut self, slots: &[AgentSlot], path: &Path) {
        // Named after the file: `mnklab match` on it writes out/NAME.
        match self.to_save(slots, &path.with_extension("")) {
            Ok(m) => self.write_matchup(&m, path),
            Err(e) => (self.error, self.notice) = (Some(e.to_string()), None),
        }
    }

    /// What Run matchup would play, to be saved: the opened matchup as it is, else the
    /// form's, named by the last part of `named` (a folder, or a file without its extension)
    /// when that may name a matchup.
    fn to_save(&self, slots: &[AgentSlot], named: &Path) -> Result<Matchup, FormError> {
        match self.opened() {
            Some(m) => Ok(m.clone()),
            None => self.build(slots).map(|mut m| {
                m.name = folder_name(named).unwrap_or(m.name);
                m
            }),
        }
    }

    fn write_matchup(&mut self, m: &Matchup, path: &Path) {
        (self.error, self.notice) = match write_atomic(path, m.to_ron().as_bytes()) {
            Ok(()) => {
                self.touched = Some(path.display().to_string());
                (None, Some(format!("saved {}", path.display())))
            }
            Err(e) => (Some(e.to_string()), None),
        };
    }

    /// The figure for the live plot chosen.
    pub fn figure(&self) -> Option<Figure> {
        if self.records.is_empty() {
            return None;
        }
        Some(match self.plot {
            LivePlot::Score => cumulative_score(&self.records, 0),
            LivePlot::Time => per_move(&self.records, PerMove::Time),
            LivePlot::Nodes => per_move(&self.records, PerMove::Nodes),
            LivePlot::Heatmap => {
                let mut req = PlotRequest::new(PlotKind::Heatmap);
                req.x = Some(Field::M);
                req.y = Some(Field::N);
                req.metric = Some(Metric::Score);
                // A sweep with two K a board (Lim's rule) gets a panel per K, not averages.
                figure_from_results(&self.records, self.matchup.as_ref(), Path::new("."), &req)
                    .or_else(|_| {
                        req.facet = Some(Field::K);
                        figure_from_results(&self.records, self.matchup.as_ref(), Path::new("."), &req)
                    })
                    .ok()?
            }
        })
    }

    /// The matchup tab; its file dialogs are asked of the workbench through `out`.
    pub fn show(&mut self, ui: &mut egui::Ui, slots: &[AgentSlot], out: &mut Vec<Command>) {
        self.poll();
        if self.busy {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
        self.tell_export(ui);
        match self.opened() {
            Some(m) => {
                let mut use_slots = false;
                // One line whatever the names, as tall as the slots' line: wrapped to two, it
                // moved the form and the Run button under the pointer when a matchup was opened.
                ui.horizontal(|ui| {
                    ui.set_min_height(ui.spacing().interact_size.y);
                    use_slots = ui
                        .small_button("use the slots' agents")
                        .on_hover_text("run the form's matchup between the agent slots instead")
                        .clicked();
                    let text = format!("Agents: {}", opened_entrants(m));
                    ui.add(egui::Label::new(&text).truncate()).on_hover_text(&text);
                });
                if use_slots {
                    self.opened = None;
                }
            }
            None => {
                let names: Vec<&str> = slots.iter().map(|s| s.file.name.as_str()).collect();
                let who: Vec<String> = slots.iter().zip(&names).map(|(s, n)| format!("{} ({n})", s.label)).collect();
                let how = if slots.len() > 2 { "round robin" } else { "against each other" };
                let text = format!("Agents {}: {how}, colours alternating", who.join(", "));
                ui.horizontal(|ui| {
                    ui.set_min_height(ui.spacing().interact_size.y);
                    ui.add(egui::Label::new(&text).truncate()).on_hover_text(&text);
                });
            }
        }
        // The buttons above the form: an opened matchup's form has rows of its own (its
        // openings, its SPRT), and under the form the Run button moved with them.
        self.show_run_buttons(ui, slots, out);
        let stopping =
            if self.busy && self.state != RunState::Running { " (stopping the games in progress)" } else { "" };
        let state = format!("{:?}{stopping}: {} of {} games", self.state, self.records.len(), self.total);
        // The state and the message in one line kept whether a message shows or not (a
        // notice coming and going moved the plot below it by a row), cut with an ellipsis and
        // whole on hover: a second line kept for it left a short tab no room for the plot.
        let (text, tone) = match (&self.error, &self.notice) {
            (Some(e), _) => (format!("{state}. {e}"), Tone::Error),
            (None, Some(n)) => (format!("{state}. {n}"), Tone::Plain),
            (None, None) => (state, Tone::Plain),
        };
        reserved_lines(ui, Some(&text), tone, 1);
        // The lines above stay in place (Pause and Cancel in reach during a run); the results
        // scroll, first, so that the summary and the plot show whole at the default window
        // size, with the form to edit under them.
        egui::ScrollArea::both().id_salt("matchup-tab").auto_shrink([false, false]).show(ui, |ui| {
            ui.scope(|ui| self.show_results(ui));
            ui.add_space(6.0);
            ui.separator();
            ui.label(egui::RichText::new("Settings of the next run").strong());
            // Wrapped at the view's width: the area scrolls sideways (for a wide summary), and
            // there the form's rows ran past the view's edge instead of wrapping.
            let width = width_in_view(ui);
            ui.scope(|ui| {
                ui.set_max_width(width);
                self.show_form(ui);
            });
        });
    }

    /// With the export row in a menu, an export's message ("wrote ...", "... exists") is
    /// the state line's notice: the menu may be closed, and the message said under the
    /// plot would need a line the short tab does not have.
    fn tell_export(&mut self, ui: &egui::Ui) {
        self.exporter.tick(ui);
        let message = self.exporter.message.clone();
        if self.export_in_menu && message != self.export_said {
            if message.is_some() {
                self.notice.clone_from(&message);
            }
            self.export_said = message;
        }
    }

    /// The matchup's settings: boards, games, time, seed, opening, threads, SPRT.
    fn show_form(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.form.grid, "grid sweep");
            if self.form.grid {
                let l = ui.label("widths");
                ui.add(egui::TextEdit::singleline(&mut self.form.widths_text).desired_width(70.0)).labelled_by(l.id);
                let l = ui.label("heights");
                ui.add(egui::TextEdit::singleline(&mut self.form.heights_text).desired_width(70.0)).labelled_by(l.id);
                let l = ui.label("K (empty: Lim's rule)");
                ui.add(egui::TextEdit::singleline(&mut self.form.k_text).desired_width(50.0)).labelled_by(l.id);
                ui.checkbox(&mut self.form.gravity, "gravity");
            } else {
                let l = ui.label("variants");
                let edit = egui::TextEdit::singleline(&mut self.form.variants_text).desired_width(220.0);
                if ui.add(edit).labelled_by(l.id).changed() {
                    self.form.plays_board = false;
                }
            }
        });
        // Each label with its field as one unit of the wrapped row: a label cut by the wrap
        // ("threads (0:" / "all)") read as two.
        let field = |ui: &mut egui::Ui, label: &str, value: egui::DragValue| {
            ui.horizontal(|ui| {
                let l = ui.add(egui::Label::new(label).extend());
                ui.add(value).labelled_by(l.id);
            });
        };
        ui.horizontal_wrapped(|ui| {
            let f = &mut self.form;
            field(ui, "games per variant", egui::DragValue::new(&mut f.games).range(1..=100_000));
            let time = egui::DragValue::new(&mut f.move_time).range(0.0..=3600.0).speed(0.05);
            field(ui, "seconds a move (0: the agents' own limits)", time);
            field(ui, "seed", egui::DragValue::new(&mut f.seed));
            field(ui, "random opening plies", egui::DragValue::new(&mut f.opening_plies).range(0..=20));
            field(ui, "threads (0: all)", egui::DragValue::new(&mut f.threads).range(0..=256));
        });
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.form.sprt, "SPRT").on_hover_text(
                "stop each pairing once the evidence shows its Elo difference is below elo0 (H0) or above elo1 (H1)",
            );
            ui.add_enabled_ui(self.form.sprt, |ui| {
                let c = &mut self.form.sprt_config;
                for (name, value, range) in [
                    ("elo0", &mut c.elo0, -1000.0..=1000.0),
                    ("elo1", &mut c.elo1, -1000.0..=1000.0),
                    ("alpha", &mut c.alpha, 0.001..=0.49),
                    ("beta", &mut c.beta, 0.001..=0.49),
                ] {
                    let l = ui.label(name);
                    let speed = if name.starts_with("elo") { 1.0 } else { 0.005 };
                    ui.add(egui::DragValue::new(value).range(range).speed(speed)).labelled_by(l.id);
                }
            });
        });
    }

    /// The run folder and what can be done with it: run, pause, resume, cancel, load, save.
    fn show_run_buttons(&mut self, ui: &mut egui::Ui, slots: &[AgentSlot], out: &mut Vec<Command>) {
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Run folder");
            ui.add(egui::TextEdit::singleline(&mut self.form.out_dir).desired_width(160.0)).labelled_by(l.id);
            let running = self.state == RunState::Running;
            if ui.add_enabled(!self.busy, egui::Button::new("Run matchup")).clicked() {
                self.start(slots, false);
            }
            if ui.add_enabled(running, egui::Button::new("Pause")).clicked() {
                self.pause();
            }
            if ui
                .add_enabled(
                    self.state == RunState::Paused && self.matchup.is_some() && !self.busy,
                    egui::Button::new("Resume"),
                )
                .clicked()
            {
                self.start(slots, true);
            }
            if ui.add_enabled(running, egui::Button::new("Cancel")).clicked() {
                self.cancel();
            }
            if ui.add_enabled(!self.busy, egui::Button::new("Load run")).clicked() {
                let d = self.form.out_dir.clone();
                self.load(Path::new(&d));
            }
            // The file dialogs in a menu, so that the row holds on one line at the default
            // window size (on two, the plot under it lost a row of room).
            ui.menu_button("Files", |ui| {
                if ui.add_enabled(!self.busy, egui::Button::new("Open run...")).clicked() {
                    out.push(Command::Dialog(Purpose::OpenRun));
                }
                if ui.button("Save matchup as...").clicked() {
                    out.push(Command::Dialog(Purpose::SaveMatchup));
                }
                if ui
                    .button("Save matchup")
                    .on_hover_text("what Run matchup would play, as NAME.ron in the run folder")
                    .clicked()
                {
                    self.save_draft(slots);
                }
            })
            .response
            .on_hover_text("open a run folder; save the form's matchup as a file");
        });
    }
}

/// A folder's last name, when it may name a matchup (see `check_folder_name`).
fn folder_name(dir: &Path) -> Option<String> {
    let name = dir.file_name()?.to_str()?;
    crate::arena::matchup::check_folder_name(name).is_ok().then(|| name.to_string())
}

/// The width from the cursor to the view's right edge (at least 200 px): the tab scrolls
/// sideways, so the layout's own width is the widest row's, not what the user sees.
fn width_in_view(ui: &egui::Ui) -> f32 {
    (ui.clip_rect().right() - ui.cursor().left()).max(200.0)
}

/// A line of text wrapped at the width of the tab's view. The tab scrolls sideways for the
/// summary table's sake, and in it a long line ran past the view's edge instead of wrapping.
fn wrapped_in_view(ui: &mut egui::Ui, text: &str) {
    // Within a column (the summary's, beside the plot) at the column's width.
    let width = width_in_view(ui).min(ui.available_width().max(200.0));
    ui.scope(|ui| {
        ui.set_max_width(width);
        ui.add(egui::Label::new(text).wrap());
    });
}

/// The entrants of an opened matchup in a few words: their names (or sources) and that the
/// file's own settings (limits, openings, colours) apply.
fn opened_entrants(m: &Matchup) -> String {
    let names: Vec<String> = m.agents.iter().map(entrant_name).collect();
    // Short: at the default window size the line has about 80 characters.
    format!("{} (the file's, with its limits, openings, colours)", names.join(", "))
}

/// An entrant as a person names it: its name, else its preset or file.
fn entrant_name(e: &crate::arena::matchup::Entrant) -> String {
    use crate::arena::matchup::AgentSource;
    e.name.clone().unwrap_or_else(|| match &e.agent {
        AgentSource::Preset(p) => p.clone(),
        AgentSource::File(f) => f.clone(),
        AgentSource::Inline(a) => a.name.clone(),
    })
}
