//! The egui workbench. [`Workbench`] holds the state; the panels draw it and turn clicks into
//! changes; searches, matchups, reviews, exports and file dialogs run on worker threads and
//! report back over channels, so the UI thread only draws and sends commands.
//! `Workbench::show` draws from a `&mut Ui`, so tests drive it with egui_kittest exactly as
//! the window does.

mod accuracy_tab;
mod agents;
mod agents_panel;
mod analysis;
mod autoplay;
mod board;
mod board_area;
mod bottom;
mod command;
mod consent;
mod dialogs;
mod edit;
mod explorer;
mod files;
mod game;
mod keys;
mod lines;
mod matchup;
mod moves;
mod plots;
mod review;
mod screenshot;
mod toolbar;
mod window;
mod worker;

pub use crate::analysis::SortBy;
pub use accuracy_tab::{AccuracyPanel, AccuracyState};
pub use agents::AgentSlot;
pub use analysis::Analysis;
pub use autoplay::{AutoPlay, Controller};
pub use board::{Ghost, Mark, line_ghosts, mark_colour};
pub use command::Command;
pub use consent::{Consent, Permission, Question, Retry};
pub use edit::{Brush, EditAction, EditState, NotEditable};
pub use explorer::{Explorer, TreeView};
pub use files::Purpose;
pub use matchup::{FormError, LivePlot, MatchupForm, MatchupPanel, RunState};
pub use review::Review;
pub use screenshot::ScreenshotError;
pub use window::{DEFAULT_WINDOW_SIZE, LaunchOptions, MIN_WINDOW_SIZE, WindowError, run};

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::agents::AgentFile;
use crate::game::{AnyPosition, Setup, Status, Variant};
use crate::io::{PositionFile, load_position_record, save_position};
use crate::record::GameTree;

/// The tabs of the bottom area.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BottomTab {
    Explorer,
    Matchup,
    Review,
    Accuracy,
}

/// Something that would drop unsaved moves, held until the user confirms.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    NewGame,
    Load(String),
    /// Closing the window.
    Close,
}

/// At most this many agents side by side.
pub const MAX_SLOTS: usize = 4;

/// What is remembered between runs (with egui's own memory: panel sizes, window).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub recent: Vec<String>,
    pub file_path: String,
    pub variant_text: String,
    pub dark: Option<bool>,
    pub agents: Vec<String>,
    pub tab: Option<BottomTab>,
    /// The tabs under the board folded to their row (the board given the height).
    pub tabs_folded: bool,
    pub run_folder: String,
    /// The matchup form as last filled in.
    pub matchup: Option<matchup::MatchupForm>,
    /// External command lines the user allowed to start (see [`Consent`]).
    pub allowed_programs: Vec<String>,
    /// External command lines the user refused.
    pub refused_programs: Vec<String>,
}

/// The application state.
pub struct Workbench {
    position: AnyPosition,
    /// The set-up the game started from, if any (kept for saving).
    setup: Option<Setup>,
    /// The game: every move tried, with variations and comments, and where the user is.
    /// `position` is always its start with the moves to its current node played.
    record: GameTree,
    /// The comment field's text for the current move.
    comment_text: String,
    /// Text of the variant field.
    variant_text: String,
    /// Text of the file path field (the typed fallback to file dialogs).
    file_path: String,
    recent: Vec<String>,
    /// The last error or notice to show (bad variant, illegal move, bad file).
    message: Option<String>,
    /// The agents side by side (A and B), each with its analysis.
    slots: Vec<AgentSlot>,
    /// Which slot's candidates the board and the explorer show.
    shown_slot: usize,
    explorer: Explorer,
    /// A position from the tree explorer shown on the board instead of the game.
    preview: Option<AnyPosition>,
    edit: Option<EditState>,
    tab: BottomTab,
    /// The tabs under the board folded to their row, so the board takes the height (gomoku's
    /// 15x15 at a small window).
    tabs_folded: bool,
    matchup: MatchupPanel,
    review: Review,
    accuracy: AccuracyPanel,
    /// Who plays each side (a person or an agent slot).
    autoplay: AutoPlay,
    /// Moves played since the last load or save.
    dirty: bool,
    pending: Option<Pending>,
    /// The file this session last saved the game to: Save replaces it without asking (any
    /// other existing file, the one it was opened from included, is asked about first).
    own_file: Option<String>,
    /// A Save that would replace another existing file, waiting for the user's yes: what
    /// would be saved (None: the game; Some(i): agent slot i's config) and where.
    overwrite: Option<(Option<usize>, String)>,
    /// Set when the user confirmed closing: the window may close.
    close_confirmed: bool,
    /// Which external programs the user allowed; shared with the matchup panel.
    consent: Consent,
    /// The keyboard-shortcut help window is open.
    show_help: bool,
    fonts_installed: bool,
    /// Text a copy asked for, handed to the clipboard at the end of the frame.
    clipboard: Option<String>,
    dialogs: files::Dialogs,
}

/// Reading the state (for the window, screenshots and tests), and the text fields a user
/// types into. Everything else changes through [`Command`]s and the game's methods.
impl Workbench {
    /// The game's position (the start with the record's current line played).
    pub fn position(&self) -> &AnyPosition {
        &self.position
    }

    /// The set-up the game started from, if it was edited.
    pub fn setup(&self) -> Option<&Setup> {
        self.setup.as_ref()
    }

    /// The game record: every move tried, with variations and comments.
    pub fn record(&self) -> &GameTree {
        &self.record
    }

    /// The File field.
    pub fn file_path(&self) -> &str {
        &self.file_path
    }

    /// Types `path` into the File field.
    pub fn set_file_path(&mut self, path: impl Into<String>) {
        self.file_path = path.into();
    }

    /// Types `text` into the Game field (the variant of the next new game).
    pub fn set_variant_text(&mut self, text: impl Into<String>) {
        self.variant_text = text.into();
    }

    /// Types `text` into the comment field (it becomes the current move's comment when the
    /// field changes on screen).
    pub fn set_comment_text(&mut self, text: impl Into<String>) {
        self.comment_text = text.into();
    }

    /// The status line's notice.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Says `text` in the status line (None clears it).
    pub fn set_message(&mut self, text: Option<String>) {
        self.message = text;
    }

    /// The agents side by side.
    pub fn slots(&self) -> &[AgentSlot] {
        &self.slots
    }

    /// Agent slot `i`: its config, file fields and analysis.
    pub fn slot_mut(&mut self, i: usize) -> &mut AgentSlot {
        &mut self.slots[i]
    }

    /// Which slot the board and the explorer show.
    pub fn shown_slot(&self) -> usize {
        self.shown_slot
    }

    pub fn explorer(&self) -> &Explorer {
        &self.explorer
    }

    /// A position of the search tree shown on the board instead of the game's.
    pub fn preview(&self) -> Option<&AnyPosition> {
        self.preview.as_ref()
    }

    /// The position being edited, in edit mode.
    pub fn edit(&self) -> Option<&EditState> {
        self.edit.as_ref()
    }

    pub fn edit_mut(&mut self) -> Option<&mut EditState> {
        self.edit.as_mut()
    }

    /// The bottom area's tab.
    pub fn tab(&self) -> BottomTab {
        self.tab
    }

    /// Shows this tab of the bottom area (unfolding the tabs).
    pub fn show_tab(&mut self, tab: BottomTab) {
        self.tab = tab;
        self.tabs_folded = false;
    }

    /// The tabs under the board are folded to their row.
    pub fn tabs_folded(&self) -> bool {
        self.tabs_folded
    }

    pub fn matchup(&self) -> &MatchupPanel {
        &self.matchup
    }

    pub fn matchup_mut(&mut self) -> &mut MatchupPanel {
        &mut self.matchup
    }

    pub fn accuracy(&self) -> &AccuracyPanel {
        &self.accuracy
    }

    pub fn accuracy_mut(&mut self) -> &mut AccuracyPanel {
        &mut self.accuracy
    }

    pub fn review(&self) -> &Review {
        &self.review
    }

    pub fn review_mut(&mut self) -> &mut Review {
        &mut self.review
    }

    pub fn autoplay(&self) -> &AutoPlay {
        &self.autoplay
    }

    pub fn autoplay_mut(&mut self) -> &mut AutoPlay {
        &mut self.autoplay
    }

    /// Moves were played since the last load or save.
    pub fn dirty(&self) -> bool {
        self.dirty
    }

    /// What waits for the user's answer to "Unsaved moves".
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// Which external programs the user allowed or refused, and the open question.
    pub fn consent(&self) -> &Consent {
        &self.consent
    }

    /// The keyboard-shortcut help is open.
    pub fn help_open(&self) -> bool {
        self.show_help
    }

    /// The recent files, newest first.
    pub fn recent(&self) -> &[String] {
        &self.recent
    }
}

impl Default for Workbench {
    fn default() -> Self {
        Workbench::new(Variant::connect4())
    }
}

impl Workbench {
    pub fn new(variant: Variant) -> Workbench {
        let consent = Consent::default();
        Workbench {
            position: AnyPosition::new(variant),
            setup: None,
            record: GameTree::new(),
            comment_text: String::new(),
            variant_text: variant.to_string(),
            // Empty: a shipped example is not a place to save a new game by accident.
            file_path: String::new(),
            own_file: None,
            overwrite: None,
            recent: Vec::new(),
            message: None,
            slots: vec![AgentSlot::new("A", "strong-ab"), AgentSlot::new("B", "jeng-mcts")],
            shown_slot: 0,
            explorer: Explorer::default(),
            preview: None,
            edit: None,
            tab: BottomTab::Explorer,
            tabs_folded: false,
            matchup: MatchupPanel::for_game(variant, consent.clone()),
            review: Review::default(),
            accuracy: AccuracyPanel::default(),
            autoplay: AutoPlay::default(),
            dirty: false,
            pending: None,
            close_confirmed: false,
            consent,
            show_help: false,
            fonts_installed: false,
            clipboard: None,
            dialogs: files::Dialogs::default(),
        }
    }

    /// The settings to remember.
    pub fn settings(&self, dark: bool) -> Settings {
        Settings {
            recent: self.recent.clone(),
            file_path: self.file_path.clone(),
            variant_text: self.variant_text.clone(),
            dark: Some(dark),
            agents: self.slots.iter().map(|s| s.file.to_ron()).collect(),
            tab: Some(self.tab),
            tabs_folded: self.tabs_folded,
            run_folder: self.matchup.form.out_dir.clone(),
            matchup: Some(self.matchup.form().clone()),
            allowed_programs: self.consent.allowed(),
            refused_programs: self.consent.refused(),
        }
    }

    /// Restores remembered settings; anything unreadable is skipped.
    pub fn apply_settings(&mut self, s: &Settings) {
        self.recent = s.recent.clone();
        if !s.file_path.is_empty() {
            self.file_path = s.file_path.clone();
        }
        if let Ok(v) = s.variant_text.parse::<Variant>() {
            self.variant_text = s.variant_text.clone();
            self.position = AnyPosition::new(v);
        }
        while self.slots.len() < s.agents.len().min(MAX_SLOTS) {
            self.add_slot();
        }
        let mut not_restored = Vec::new();
        for (slot, text) in self.slots.iter_mut().zip(&s.agents) {
            match AgentFile::parse(text, Path::new("(settings)")) {
                Ok(f) => slot.set(f),
                // Said, not swapped in silence (a solver whose book file went bad since).
                Err(e) => not_restored.push(format!(
                    "agent {}: the last session's agent was not restored ({}); {} instead",
                    slot.label,
                    e.cause(),
                    slot.file.name
                )),
            }
        }
        if !not_restored.is_empty() {
            self.message = Some(not_restored.join("; "));
        }
        if let Some(t) = s.tab {
            self.tab = t;
        }
        self.tabs_folded = s.tabs_folded;
        if !s.run_folder.is_empty() {
            self.matchup.form.out_dir = s.run_folder.clone();
            self.matchup.exporter.propose_in(std::path::Path::new(&s.run_folder));
        }
        if let Some(form) = &s.matchup {
            self.matchup.apply_form(form);
        }
        self.consent.allow(s.allowed_programs.iter().cloned());
        self.consent.refuse(s.refused_programs.iter().cloned());
    }

    /// Adds an agent slot (C, D) for comparing more configs side by side.
    pub fn add_slot(&mut self) {
        if self.slots.len() < MAX_SLOTS {
            let label = ((b'A' + self.slots.len() as u8) as char).to_string();
            self.slots.push(AgentSlot::new(&label, "lim-mcts"));
        }
    }

    /// Removes the last slot (two always stay); sides it played go back to a person.
    pub fn remove_slot(&mut self) {
        if self.slots.len() > 2 {
            let gone = self.slots.len() - 1;
            self.slots[gone].analysis.stop();
            self.slots.pop();
            self.shown_slot = self.shown_slot.min(gone - 1);
            for side in &mut self.autoplay.sides {
                if *side == Controller::Agent(gone) {
                    *side = Controller::Human;
                }
            }
        }
    }

    /// The analysis of the slot shown on the board.
    pub fn analysis(&self) -> &Analysis {
        &self.slots[self.shown_slot.min(self.slots.len() - 1)].analysis
    }

    fn position_changed(&mut self) {
        self.preview = None;
        self.explorer.shown = None;
        for i in 0..self.slots.len() {
            let agent = self.slots[i].file.agent.clone();
            // Follow the game, or show a finished analysis of the position again: the
            // analysis decides (`Analysis::on_new_position`).
            if self.slots[i].analysis.on_new_position(&self.position, &agent) {
                self.start_slot(i);
            }
        }
    }

    /// Asks before `action` drops unsaved moves; does it at once when nothing would be lost.
    pub(super) fn guarded(&mut self, action: Pending) {
        if self.dirty {
            self.pending = Some(action);
        } else {
            self.perform(action);
        }
    }

    fn perform(&mut self, action: Pending) {
        match action {
            Pending::NewGame => self.new_game(),
            Pending::Load(p) => self.load(Path::new(&p)),
            Pending::Close => self.close_confirmed = true,
        }
    }

    /// Starts a new game of the variant typed in the field.
    pub fn new_game(&mut self) {
        match self.variant_text.parse::<Variant>() {
            Ok(v) => {
                self.matchup.follow_board(v);
                self.position = AnyPosition::new(v);
                self.setup = None;
                self.record = GameTree::new();
                self.edit = None;
                self.message = None;
                self.dirty = false;
                // A new game is not the file shown before: Save asks for a name.
                self.file_path.clear();
                self.own_file = None;
                self.explorer.new_game();
                self.moved();
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// One Open for every file the workbench reads: a position (read first, then asking if the
    /// game's moves would be lost), a matchup (into the matchup form), an agent (into slot A), or a
    /// run folder (into the matchup tab). A file that is none of them is named as the position
    /// reader finds it.
    pub fn open(&mut self, path: &str) {
        if path.trim().is_empty() {
            self.message = Some("no file named: type a path in the File field, or use Open...".into());
            return;
        }
        let p = Path::new(path);
        // What the panels read or wrote before goes to Recent now: what they hold after the
        // load below says whether it was read.
        self.remember_touched();
        match crate::io::file_kind(p) {
            Ok(crate::io::FileKind::Matchup) => {
                self.matchup.load_matchup_file(p);
                let read = self.matchup.touched.is_some();
                self.opened_elsewhere(
                    path,
                    BottomTab::Matchup,
                    read,
                    ("a matchup: the matchup tab holds it", "the matchup tab"),
                );
            }
            Ok(crate::io::FileKind::Agent) => {
                self.slots[0].load(p);
                let read = self.slots[0].touched.is_some();
                self.opened_elsewhere(path, self.tab, read, ("an agent: slot A holds it", "slot A"));
            }
            Ok(crate::io::FileKind::Accuracy) => {
                self.accuracy.open(p);
                let read = self.accuracy.touched.is_some();
                let what = ("an accuracy experiment: the accuracy tab holds it", "the accuracy tab");
                self.opened_elsewhere(path, BottomTab::Accuracy, read, what);
            }
            // Hours of games on all cores: a batch job for the command line, whose folder
            // then opens here as a run.
            Ok(crate::io::FileKind::Ladder) => {
                self.message = Some(format!(
                    "{path} is a ladder experiment: run it with `mnklab ladder {path} --out FOLDER`, then open \
                     FOLDER here to see its games in the matchup tab"
                ));
            }
            Ok(crate::io::FileKind::Run(dir)) => {
                self.matchup.load(&dir);
                let read = self.matchup.touched.is_some();
                self.opened_elsewhere(
                    path,
                    BottomTab::Matchup,
                    read,
                    ("a run: the matchup tab shows it", "the matchup tab"),
                );
            }
            // Read before asking to discard the game: a mistyped path or a broken file is
            // said at once, not after the moves were offered up for nothing.
            Ok(crate::io::FileKind::Position) => match load_position_record(p) {
                Ok(_) => self.guarded(Pending::Load(path.to_string())),
                Err(e) => self.message = Some(e.to_string()),
            },
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// After a file other than a position was opened (`read`) or not: its tab shown, where
    /// the panel says what went wrong. `said`: what was opened, and where a failure is
    /// explained. A file read goes to Recent with the panels' others
    /// ([`Self::remember_touched`]).
    fn opened_elsewhere(&mut self, path: &str, tab: BottomTab, read: bool, said: (&str, &str)) {
        self.show_tab(tab);
        let (what, why_at) = said;
        self.message = Some(match read {
            true => format!("opened {path}, {what}"),
            false => format!("not opened: {path} ({why_at} says why)"),
        });
    }

    /// The files the panels read or wrote since the last frame (an agent, a matchup, a run
    /// folder, an experiment), put at the top of Recent as the game's own files are.
    fn remember_touched(&mut self) {
        let slots = self.slots.iter_mut().filter_map(|s| s.touched.take());
        let touched: Vec<String> =
            slots.chain(self.matchup.touched.take()).chain(self.accuracy.touched.take()).collect();
        for path in touched {
            files::remember(&mut self.recent, &path);
        }
    }

    pub fn load(&mut self, path: &Path) {
        match load_position_record(path) {
            Ok((file, pos, tree)) => {
                self.open_position(file, pos, tree, format!("loaded {}", path.display()));
                self.file_path = path.display().to_string();
                // Only a file this session wrote is replaced without asking: an opened file
                // (a shipped example, a colleague's game) is asked about first.
                self.own_file = None;
                files::remember(&mut self.recent, &self.file_path);
                self.dirty = false;
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// The Save button: saves to the File field, but asks before replacing an existing file
    /// that this game did not come from, and asks for a name when there is none.
    pub fn save_to_field(&mut self) {
        let path = self.file_path.trim().to_string();
        if path.is_empty() {
            self.message = Some("type a file name in File (e.g. saves/positions/mine.ron), or use Save as...".into());
        } else if Path::new(&path).exists() && self.own_file.as_deref() != Some(path.as_str()) {
            self.overwrite = Some((None, path));
        } else {
            self.save(Path::new(&path));
        }
    }

    pub fn save(&mut self, path: &Path) {
        let file = PositionFile::from_record(&self.position, self.setup.as_ref(), &self.record, &self.start_position());
        self.message = Some(match save_position(path, &file) {
            Ok(()) => {
                self.dirty = false;
                self.file_path = path.display().to_string();
                self.own_file = Some(self.file_path.clone());
                files::remember(&mut self.recent, &self.file_path);
                format!("saved {}", path.display())
            }
            Err(e) => e.to_string(),
        });
    }

    /// Starts or ends edit mode.
    pub fn toggle_edit(&mut self) {
        if self.edit.is_some() {
            self.edit = None;
            return;
        }
        match EditState::from_position(&self.position) {
            Ok(e) => self.edit = Some(e),
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// Takes the edited position as the game's start.
    fn finish_edit(&mut self, action: EditAction) {
        let Some(edit) = self.edit.take() else { return };
        if action == EditAction::Cancel {
            return;
        }
        let setup = edit.setup();
        match edit.result {
            Ok(pos) => {
                self.setup = Some(setup);
                self.position = pos;
                self.record = GameTree::new();
                self.dirty = true;
                self.message = Some("position set up".into());
                self.moved();
            }
            // "Done" is only enabled for a valid position; keep editing otherwise.
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    fn poll_dialogs(&mut self) {
        if let Some((purpose, answer)) = self.dialogs.poll() {
            match (purpose, answer) {
                (files::Purpose::OpenPosition, Some(p)) => self.open(&p.display().to_string()),
                (files::Purpose::SavePosition, Some(p)) => self.save(&p),
                (files::Purpose::OpenAgent(i), Some(p)) => {
                    if let Some(slot) = self.slots.get_mut(i) {
                        slot.load(&p);
                    }
                }
                (files::Purpose::SaveAgent(i), Some(p)) => {
                    if let Some(slot) = self.slots.get_mut(i) {
                        slot.path = p.display().to_string();
                        slot.save(&p);
                    }
                }
                (files::Purpose::OpenRun, Some(p)) => self.matchup.load(&p),
                (files::Purpose::SaveMatchup, Some(p)) => self.matchup.save_matchup(&self.slots, &p),
                (_, None) => {
                    self.message =
                        Some("no file chosen (or no file dialog on this system): type a path in the File field".into())
                }
            }
        }
    }

    fn status_line(&self) -> String {
        let pos = &self.position;
        let points = match pos.variant() {
            Variant::Connect3d => {
                let [a, b] = pos.points();
                format!(" — points {a} : {b}")
            }
            _ => String::new(),
        };
        let state = match pos.status() {
            // After a set-up, moves count from it, as the move list and the review count them.
            Status::Ongoing => match self.start_position().ply() {
                0 => format!("{} to move, move {}", pos.side_to_move(), pos.ply() + 1),
                setup => format!(
                    "{} to move, move {} after a set-up of {setup} stones",
                    pos.side_to_move(),
                    pos.ply().saturating_sub(setup) + 1
                ),
            },
            Status::Win(p) => format!("{p} player wins"),
            Status::Draw => "draw".into(),
        };
        let unsaved = if self.dirty { " — unsaved" } else { "" };
        format!("{} — {state}{points}{unsaved}", pos.variant().label())
    }

    /// Starts slot `i`'s analysis of the game position, once its program (if external) is allowed.
    pub fn start_slot(&mut self, i: usize) {
        let slot = &self.slots[i];
        let who = format!("agent {}", slot.label);
        match self.consent.permits([(who, &slot.file.agent)], Retry::Analyse(slot.label.clone())) {
            Permission::Granted => {
                let pos = self.position.clone();
                self.slots[i].start(&pos);
            }
            // Waiting for an answer, a slot following the game goes on following: "Allow"
            // starts it.
            Permission::Asked => {}
            // A refused program: a slot following the game stops following, instead of
            // asking again at every frame (and the next position) for a program that will
            // not start.
            Permission::Refused => self.slots[i].analysis.stop(),
        }
    }

    /// Another agent (or config) in a slot that follows the game: its analysis starts, not
    /// the previous agent's results shown under its name.
    fn restart_changed_slots(&mut self) {
        for i in 0..self.slots.len() {
            let slot = &self.slots[i];
            if slot.analysis.follows() && slot.error.is_none() && slot.analysis.agent_differs(&slot.file.agent) {
                self.start_slot(i);
            }
        }
    }

    /// Reviews the game with agent A, once its program (if external) is allowed.
    pub fn start_review(&mut self) {
        let (s, line) = (self.start_position(), self.game_line());
        if line.is_empty() {
            self.review.error = Some("no moves to review: play or load a game".into());
            return;
        }
        let file = self.slots[0].file.clone();
        if !self.consent.permits([(format!("agent {}", self.slots[0].label), &file.agent)], Retry::Review).granted() {
            return;
        }
        self.review.start(&s, &line, &file);
    }

    /// Whether the agent to move under autoplay may start (asks if its program is not allowed).
    fn autoplay_permitted(&self) -> bool {
        match self.autoplay.sides[self.position.side_to_move().index()] {
            Controller::Agent(i)
                if !self.autoplay.paused && !self.autoplay.thinking() && !self.position.status().is_over() =>
            {
                self.slots.get(i).is_none_or(|s| {
                    self.consent.permits([(format!("agent {}", s.label), &s.file.agent)], Retry::Autoplay).granted()
                })
            }
            _ => true,
        }
    }

    pub fn show(&mut self, ui: &mut egui::Ui) {
        if !self.fonts_installed {
            window::install_fonts(ui.ctx());
            self.fonts_installed = true;
        }
        for slot in &mut self.slots {
            slot.analysis.poll();
        }
        self.poll_dialogs();
        self.remember_touched();
        if self.edit.is_none()
            && !self.question_open()
            && self.autoplay_permitted()
            && let Some(m) = self.autoplay.tick(&self.position, &self.slots)
        {
            self.play(m);
        }
        // Ten frames a second while work runs: enough for its clock and reports, and a frame
        // drawn by a software renderer (a machine without a GPU, Xvfb) takes the core the
        // search needs. At 20 a second the solver's every-move proofs at a nine-stone
        // position took 6.0-6.1 s in the window against 4.7-5.5 s at 10 (4.8 s in `analyse`).
        if self.slots.iter().any(|s| s.analysis.running) || self.dialogs.busy() || self.autoplay.thinking() {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
        // A review of another game (new, opened, edited, or its line deleted) is dropped.
        if !self.review.is_for(&self.start_position(), &self.record) {
            self.review.clear();
        }
        let ctx = ui.ctx().clone();
        let mut commands = self.read_keys(&ctx);
        commands.extend(self.read_dropped_files(&ctx));
        self.help_window(&ctx);
        egui::Panel::top("toolbar").show(ui, |ui| commands.extend(self.toolbar(ui)));
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.label(self.status_line());
            lines::reserved_line(ui, self.message.as_deref(), lines::Tone::Plain);
        });
        // Bounded, so that a long line of analysis text never widens the panel over the board
        // from one frame to the next.
        let width = ui.available_width();
        egui::Panel::right("agents")
            .resizable(true)
            .default_size(560.0_f32.min(width * 0.5))
            .max_size((width * 0.6).max(300.0))
            .show(ui, |ui| commands.extend(self.agents_panel(ui)));
        let height = ui.available_height();
        if self.tabs_folded {
            // Its own panel: the unfolded one keeps the height the user gave it.
            egui::Panel::bottom("bottom-folded").resizable(false).show(ui, |ui| commands.extend(self.tab_row(ui)));
        } else {
            self.bottom_panel(ui, height, &mut commands);
        }
        egui::CentralPanel::default().show(ui, |ui| commands.extend(self.board_area(ui)));
        // Applied after drawing, so this frame showed the state before them: draw again.
        if !commands.is_empty() {
            ui.ctx().request_repaint();
        }
        for c in commands {
            self.apply(c);
        }
        self.restart_changed_slots();
        let ctx = ui.ctx().clone();
        if let Some(text) = self.clipboard.take() {
            ctx.copy_text(text);
        }
        self.confirm_dialog(&ctx);
        self.overwrite_dialog(&ctx);
        self.consent_dialog(&ctx);
    }
}
