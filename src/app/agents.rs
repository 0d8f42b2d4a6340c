//! Agent slots: an agent config editor (a form for the options researchers toggle most, and
//! the whole config as RON text for everything, kept in step) with its own analysis. Two
//! slots stand side by side so the same position can be analysed by two configs at once.

use std::path::Path;

use super::Analysis;
use super::analysis::{OtherList, SlotView};
use super::command::Command;
use super::files::Purpose;
use crate::agents::{AgentConfig, AgentFile, PRESETS, PerFamily, preset};
use crate::eval::HeuristicConfig;
use crate::game::{AnyPosition, Family};
use crate::gomocup::ExternalConfig;
use crate::io::read_text;
use crate::search::limits::MAX_THREADS;
use crate::search::mcts::{Expansion, Reward, Rollout};
use crate::search::solver::SolverConfig;
use crate::search::{
    AlphaBetaConfig, AlphaBetaFlaw, FinalMove, MctsConfig, MoveOrdering, Parallel, Reductions, ThreatConfig,
};

/// The start of the complaint when Start is pressed on an invalid config.
const CONFIG_FIRST: &str = "fix the config first: ";

/// One agent: its config being edited, where it is saved, and its analysis.
pub struct AgentSlot {
    /// "A", "B": the name in labels.
    pub(super) label: String,
    pub(super) file: AgentFile,
    /// The config as RON, edited directly or regenerated from the form.
    pub(super) ron_text: String,
    /// Why the RON text or the form's values are not a valid config.
    pub(super) error: Option<String>,
    pub(super) path: String,
    /// The file this config was loaded from or last saved to: Save replaces it without asking.
    pub(super) own_file: Option<String>,
    pub(super) message: Option<String>,
    /// The message says a load or save failed: shown as an error, not like "loaded ...".
    pub(super) message_failed: bool,
    /// The last agent file read or written, for the workbench's Recent list.
    pub(super) touched: Option<String>,
    pub(super) analysis: Analysis,
}

fn is_solver(f: &AgentFile) -> bool {
    f.agent.is_solver()
}

impl AgentSlot {
    pub fn new(label: &str, preset_name: &str) -> AgentSlot {
        let file = preset(preset_name).unwrap_or_else(|| preset("random").expect("the random preset ships"));
        let ron_text = file.to_ron();
        let mut slot = AgentSlot {
            label: label.into(),
            // Empty until a file is loaded or named: never a shipped file by default.
            path: String::new(),
            own_file: None,
            file,
            ron_text,
            error: None,
            message: None,
            message_failed: false,
            touched: None,
            analysis: Analysis::default(),
        };
        if is_solver(&slot.file) {
            slot.show_every_move();
        }
        slot
    }

    /// Replaces the config (from a preset, a file or the RON editor). A solver values every
    /// move, so when the slot becomes one its table shows them all (the candidates slider at
    /// its top; the user may lower it again).
    pub fn set(&mut self, file: AgentFile) {
        if is_solver(&file) && !is_solver(&self.file) {
            self.show_every_move();
        }
        // Another agent's results are not this one's: a stopped analysis forgets them (a
        // following one starts again with the new agent); edits in the form or the editor
        // keep theirs, marked as the previous config's, to compare.
        if self.analysis.agent_differs(&file.agent) && !self.analysis.follows() {
            self.analysis.forget();
        }
        self.file = file;
        self.ron_text = self.file.to_ron();
        self.error = None;
        // "loaded FILE" or "saved FILE" was about the agent replaced.
        self.message = None;
        self.drop_stale_complaint();
    }

    /// "A", "B": the slot's name in labels.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The config as it stands (the last valid one while the RON text does not parse).
    pub fn file(&self) -> &AgentFile {
        &self.file
    }

    /// The config as RON text, as the editor shows it.
    pub fn ron_text(&self) -> &str {
        &self.ron_text
    }

    /// Why the RON text or the form's values are not a valid config.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The agent file field.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The file this config was loaded from or last saved to.
    pub fn own_file(&self) -> Option<&str> {
        self.own_file.as_deref()
    }

    /// The last load or save message.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The last message says a load or save failed.
    pub fn message_failed(&self) -> bool {
        self.message_failed
    }

    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    pub fn analysis_mut(&mut self) -> &mut Analysis {
        &mut self.analysis
    }

    /// Types `path` into the agent file field.
    pub fn set_path(&mut self, path: &str) {
        self.path = path.to_string();
    }

    /// Changes the config as the options form does: checked, and the RON text follows.
    pub fn edit(&mut self, change: impl FnOnce(&mut AgentFile)) {
        change(&mut self.file);
        self.form_changed();
    }

    /// Replaces the RON text as typing into the editor does: a text that parses becomes the
    /// config, one that does not keeps the last valid config and says why.
    pub fn set_ron_text(&mut self, text: &str) {
        self.ron_text = text.to_string();
        self.ron_edited();
    }

    /// The RON editor's text changed.
    fn ron_edited(&mut self) {
        match AgentFile::parse(&self.ron_text, Path::new("(editor)")) {
            Ok(f) => {
                self.file = f;
                self.error = None;
                self.drop_stale_complaint();
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// A solver values every move: its table and the board show them all (a new-user trial
    /// saw a 5x5 board's last column blank, the table then stopping at 20 rows).
    fn show_every_move(&mut self) {
        self.analysis.candidates = crate::app::analysis::EVERY_MOVE;
    }

    /// The form changed the config: check it and refresh the RON text.
    fn form_changed(&mut self) {
        self.error = self
            .file
            .agent
            .validate()
            .and(self.file.limits.validate())
            .map_err(String::from)
            .and(self.file.agent.check_limits(&self.file.limits, None, false).map_err(|e| e.to_string()))
            .err();
        self.ron_text = self.file.to_ron();
        self.drop_stale_complaint();
    }

    /// "fix the config first" is about a config that is now valid: it goes.
    fn drop_stale_complaint(&mut self) {
        if self.error.is_none() && self.analysis.error.as_deref().is_some_and(|e| e.starts_with(CONFIG_FIRST)) {
            self.analysis.error = None;
        }
    }

    pub fn load(&mut self, path: &Path) {
        match read_text(path).and_then(|t| AgentFile::parse(&t, path)) {
            Ok(f) => {
                self.set(f);
                self.path = path.display().to_string();
                // Saving back over an opened file asks first (it may be a shipped preset).
                self.own_file = None;
                self.message = Some(format!("loaded {}", path.display()));
                self.message_failed = false;
                self.touched = Some(self.path.clone());
            }
            Err(e) => {
                // The cause first, the path after: the line is cut to the panel's width (the
                // whole of it in the hover text), and the path is in the field above.
                let name = path.display().to_string();
                let cause = e.cause();
                self.message = Some(format!("not loaded: {cause} ({name})"));
                self.message_failed = true;
            }
        }
    }

    pub fn save(&mut self, path: &Path) {
        if let Some(e) = &self.error {
            self.message = Some(format!("not saved: {e}"));
            self.message_failed = true;
            return;
        }
        let saved = self.file.save(path);
        self.message_failed = saved.is_err();
        self.message = Some(match saved {
            Ok(()) => {
                self.path = path.display().to_string();
                self.own_file = Some(self.path.clone());
                self.touched = Some(self.path.clone());
                format!("saved {}", path.display())
            }
            Err(e) => e.to_string(),
        });
    }

    /// The Save button: saves to the path field. Returns the path instead when it names an
    /// existing file this config did not come from: the workbench asks before replacing it.
    pub fn save_to_field(&mut self) -> Option<String> {
        let path = self.path.trim().to_string();
        if path.is_empty() {
            self.message = Some("type a file name (e.g. my-agents/fast-ab.ron), or use Save as...".into());
            self.message_failed = false;
        } else if Path::new(&path).exists() && self.own_file.as_deref() != Some(path.as_str()) {
            return Some(path);
        } else {
            self.save(Path::new(&path));
        }
        None
    }

    /// Starts this slot's analysis of `pos` with its config (if valid).
    pub fn start(&mut self, pos: &AnyPosition) {
        match &self.error {
            Some(e) => self.analysis.refuse(format!("{CONFIG_FIRST}{e}")),
            None => self.analysis.start(pos, &self.file),
        }
    }

    /// The editor of slot number `slot`, and its analysis; what its clicks ask of the
    /// workbench (start, a move, a file dialog, replacing a file) goes to `out`.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        pos: &AnyPosition,
        slot: usize,
        others: &[OtherList],
        out: &mut Vec<Command>,
    ) {
        let id = self.label.clone();
        ui.heading(format!("Agent {id}: {}", self.file.name));
        let mut chosen = None;
        // Tall enough for every preset, so that the last one (the solver) needs no scrolling.
        let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        egui::ComboBox::new(format!("preset-{id}"), format!("preset {id}"))
            .selected_text("load a preset")
            .height(PRESETS.len() as f32 * row + 2.0 * ui.spacing().menu_margin.sum().y)
            .show_ui(ui, |ui| {
                for (name, _) in PRESETS {
                    if ui.selectable_label(false, *name).clicked() {
                        chosen = Some(name.to_string());
                    }
                }
            });
        if let Some(name) = chosen
            && let Some(f) = preset(&name)
        {
            self.set(f);
        }
        let mut changed = false;
        egui::CollapsingHeader::new(format!("Options {id}")).default_open(false).show(ui, |ui| {
            changed |= form(ui, &id, &mut self.file, pos.variant().family());
        });
        egui::CollapsingHeader::new(format!("RON {id}")).default_open(false).show(ui, |ui| {
            let edit = ui.add(
                egui::TextEdit::multiline(&mut self.ron_text)
                    .code_editor()
                    .desired_rows(8)
                    .desired_width(f32::INFINITY),
            );
            if edit.changed() {
                self.ron_edited();
            }
        });
        if changed {
            self.form_changed();
        }
        // Folded by default: the analysis and its candidate table below need the height more.
        egui::CollapsingHeader::new(format!("File {id}")).default_open(false).show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                let label = ui.label(format!("Agent file {id}"));
                ui.add(egui::TextEdit::singleline(&mut self.path).hint_text("agent.ron").desired_width(150.0))
                    .labelled_by(label.id);
            });
            ui.horizontal_wrapped(|ui| {
                if ui.button(format!("Load agent {id}")).clicked() {
                    let p = self.path.clone();
                    self.load(Path::new(&p));
                }
                if ui.button(format!("Save agent {id}")).clicked()
                    && let Some(path) = self.save_to_field()
                {
                    out.push(Command::ConfirmAgentReplace(slot, path));
                }
                if ui.button(format!("Open agent {id}...")).clicked() {
                    out.push(Command::Dialog(Purpose::OpenAgent(slot)));
                }
                if ui.button(format!("Save agent {id} as...")).clicked() {
                    out.push(Command::Dialog(Purpose::SaveAgent(slot)));
                }
            });
        });
        // One line for the config's error or, when it is valid, the last file message: a line
        // less above the candidate table (a solver's seven rows fit at the default window size).
        match &self.error {
            Some(e) => super::lines::reserved_line(ui, Some(e), super::lines::Tone::Error),
            None => {
                let tone = if self.message_failed { super::lines::Tone::Error } else { super::lines::Tone::Plain };
                super::lines::reserved_line(ui, self.message.as_deref(), tone)
            }
        };
        ui.separator();
        // A broken config (in the RON editor the last valid one is kept) is not what the
        // results are from either.
        let config_changed = self.error.is_some() || self.analysis.agent_differs(&self.file.agent);
        self.analysis.show(ui, &SlotView { pos, slot, id: &id, others, config_changed }, out)
    }
}

/// An optional number: a checkbox for "set", and the value when set.
fn optional<T: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut Option<T>,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> bool {
    let mut on = v.is_some();
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        let check = ui.checkbox(&mut on, label);
        changed |= check.changed();
        if on {
            let mut x = v.unwrap_or(default);
            changed |= ui.add(egui::DragValue::new(&mut x).range(range).speed(0.05)).labelled_by(check.id).changed();
            *v = Some(x);
        } else {
            *v = None;
        }
    });
    changed
}

fn opt_u32(ui: &mut egui::Ui, label: &str, v: &mut Option<u32>, default: u32) -> bool {
    optional(ui, label, v, default, 1..=1_000_000)
}

fn opt_u64(ui: &mut egui::Ui, label: &str, v: &mut Option<u64>, default: u64) -> bool {
    optional(ui, label, v, default, 1..=u64::MAX / 2)
}

fn opt_f64(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut Option<f64>,
    default: f64,
    range: std::ops::RangeInclusive<f64>,
) -> bool {
    optional(ui, label, v, default, range)
}

fn number<T: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut T,
    range: std::ops::RangeInclusive<T>,
) -> bool {
    ui.horizontal_wrapped(|ui| {
        let l = ui.label(label);
        ui.add(egui::DragValue::new(v).range(range).speed(0.05)).labelled_by(l.id).changed()
    })
    .inner
}

/// The options form for a whole agent file; `board` is the family of the board shown.
/// Returns true if anything changed.
fn form(ui: &mut egui::Ui, id: &str, file: &mut AgentFile, board: Family) -> bool {
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("name");
        changed |= ui.add(egui::TextEdit::singleline(&mut file.name).desired_width(140.0)).labelled_by(l.id).changed();
    });
    changed |= kind_form(ui, id, file);
    changed |= limits_form(ui, file);
    ui.separator();
    changed |= config_form(ui, id, &mut file.agent, board);
    changed |= number(ui, "file seed", &mut file.seed, 0..=u64::MAX);
    changed
}

/// The options of one agent configuration, whatever its kind.
fn config_form(ui: &mut egui::Ui, id: &str, agent: &mut AgentConfig, board: Family) -> bool {
    match agent {
        AgentConfig::Random => false,
        AgentConfig::AlphaBeta(c) => alphabeta_form(ui, id, c),
        AgentConfig::Mcts(c) => mcts_form(ui, id, c),
        AgentConfig::Solver(c) => solver_form(ui, id, c),
        AgentConfig::External(c) => external_form(ui, c),
        AgentConfig::PerFamily(c) => per_family_form(ui, id, c, board),
    }
}

/// A per-family agent: each family's options under its own heading, the board's open.
fn per_family_form(ui: &mut egui::Ui, id: &str, c: &mut PerFamily, board: Family) -> bool {
    let mut changed = false;
    ui.label("configured per family of boards: each position is played with its family's options");
    for family in Family::ALL {
        let sub = format!("{id}-{}", family.field());
        let title =
            if family == board { format!("{} (this board)", family.label()) } else { family.label().to_string() };
        egui::CollapsingHeader::new(title).id_salt(&sub).default_open(family == board).show(ui, |ui| {
            changed |= config_form(ui, &sub, c.get_mut(family), board);
        });
    }
    changed
}

/// The kind of agent; a new kind starts from its defaults, and "per family" from the agent
/// as it is, on every family.
fn kind_form(ui: &mut egui::Ui, id: &str, file: &mut AgentFile) -> bool {
    const PER_FAMILY: &str = "per family";
    let kinds = ["random", "alpha-beta", "mcts", "solver", "external", PER_FAMILY];
    let shown = |a: &AgentConfig| if matches!(a, AgentConfig::PerFamily(_)) { PER_FAMILY } else { a.kind() };
    let mut kind = shown(&file.agent);
    egui::ComboBox::new(format!("kind-{id}"), "kind").selected_text(kind).show_ui(ui, |ui| {
        for k in kinds {
            ui.selectable_value(&mut kind, k, k);
        }
    });
    if kind != shown(&file.agent) {
        file.agent = match kind {
            PER_FAMILY => AgentConfig::PerFamily(PerFamily::everywhere(&file.agent)),
            "random" => AgentConfig::Random,
            "alpha-beta" => AgentConfig::AlphaBeta(AlphaBetaConfig::default()),
            "mcts" => AgentConfig::Mcts(MctsConfig::default()),
            "solver" => AgentConfig::Solver(SolverConfig::default()),
            _ => AgentConfig::External(ExternalConfig::gomocup("")),
        };
        return true;
    }
    false
}

/// The limits per move this kind of agent reads, and any other that is set (refused by the
/// form's check, and shown so that it can be cleared).
fn limits_form(ui: &mut egui::Ui, file: &mut AgentFile) -> bool {
    let mut changed = false;
    ui.label("limits per move");
    let heeds = file.agent.heeds();
    let l = &mut file.limits;
    if heeds.time || l.time.is_some() {
        changed |= opt_f64(ui, "time (s)", &mut l.time, 1.0, 0.0..=3600.0);
    }
    if heeds.cpu_time || l.cpu_time.is_some() {
        changed |= opt_f64(ui, "CPU time (s)", &mut l.cpu_time, 1.0, 0.0..=3600.0);
    }
    if heeds.depth || l.depth.is_some() {
        changed |= opt_u32(ui, "depth", &mut l.depth, 6);
    }
    if heeds.iterations || l.iterations.is_some() {
        changed |= opt_u64(ui, "iterations", &mut l.iterations, 10_000);
    }
    if heeds.nodes || l.nodes.is_some() {
        changed |= opt_u64(ui, "nodes", &mut l.nodes, 1_000_000);
    }
    changed
}

fn mcts_form(ui: &mut egui::Ui, id: &str, c: &mut MctsConfig) -> bool {
    let mut changed = false;
    changed |= number(ui, "exploration c", &mut c.exploration, 0.0..=10.0);
    let mut share = match c.expansion {
        Expansion::Random => None,
        Expansion::Neighbours { heuristic_share } => Some(heuristic_share),
    };
    if opt_f64(ui, "expand near stones, share", &mut share, 0.5, 0.0..=1.0) {
        c.expansion = share.map_or(Expansion::Random, |s| Expansion::Neighbours { heuristic_share: s });
        changed = true;
    }
    changed |= rollout_form(ui, id, c);
    egui::ComboBox::new(format!("reward-{id}"), "reward").selected_text(format!("{:?}", c.reward)).show_ui(ui, |ui| {
        for r in [Reward::WinDrawLoss, Reward::ScoreMargin] {
            changed |= ui.selectable_value(&mut c.reward, r, format!("{r:?}")).changed();
        }
    });
    egui::ComboBox::new(format!("final-{id}"), "final move").selected_text(format!("{:?}", c.final_move)).show_ui(
        ui,
        |ui| {
            for f in [FinalMove::MaxChild, FinalMove::RobustChild, FinalMove::MaxRobust] {
                changed |= ui.selectable_value(&mut c.final_move, f, format!("{f:?}")).changed();
            }
        },
    );
    changed |= ui.checkbox(&mut c.tree_reuse, "tree reuse").changed();
    changed |= opt_u32(ui, "tree depth cap (1: flat UCB over the root's moves)", &mut c.max_tree_depth, 1);
    changed |= ui.checkbox(&mut c.solver, "MCTS-Solver").changed();
    if threats_form(ui, &mut c.threats, false) {
        // A win by threats is a proven node: the probe works through MCTS-Solver.
        c.solver |= c.threats.is_some();
        changed = true;
    }
    changed |= opt_f64(ui, "RAVE k", &mut c.rave, 300.0, 0.0..=1e9);
    changed |= number(ui, "memory (MiB)", &mut c.memory_mb, 1..=65_536);
    changed |= number(ui, "threads", &mut c.threads, 1..=MAX_THREADS);
    let tree = matches!(c.parallel, Parallel::Tree { .. });
    let mut pick = tree;
    egui::ComboBox::new(format!("parallel-{id}"), "parallel")
        .selected_text(if tree { "tree (shared, virtual loss)" } else { "root (separate trees)" })
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut pick, false, "root (separate trees)");
            ui.selectable_value(&mut pick, true, "tree (shared, virtual loss)");
        });
    if pick != tree {
        c.parallel = if pick { Parallel::Tree { virtual_loss: 1 } } else { Parallel::Root };
        changed = true;
    }
    if let Parallel::Tree { virtual_loss } = &mut c.parallel {
        changed |= number(ui, "virtual loss", virtual_loss, 1..=1000);
    }
    changed |= number(ui, "seed", &mut c.seed, 0..=u64::MAX);
    changed
}

/// MCTS's rollout policy and its options.
fn rollout_form(ui: &mut egui::Ui, id: &str, c: &mut MctsConfig) -> bool {
    let mut changed = false;
    let rollout = match &c.rollout {
        Rollout::Random => "random",
        Rollout::RandomThenEval { .. } => "random then eval",
        Rollout::HeuristicBiased { .. } => "heuristic-biased",
    };
    let mut r = rollout;
    egui::ComboBox::new(format!("rollout-{id}"), "rollout").selected_text(r).show_ui(ui, |ui| {
        for k in ["random", "random then eval", "heuristic-biased"] {
            ui.selectable_value(&mut r, k, k);
        }
    });
    if r != rollout {
        c.rollout = match r {
            "random" => Rollout::Random,
            "random then eval" => {
                Rollout::RandomThenEval { plies: 4, heuristic: HeuristicConfig::default(), scale: 100.0, raw: false }
            }
            _ => Rollout::HeuristicBiased { heuristic: HeuristicConfig::default(), epsilon: 0.1 },
        };
        changed = true;
    }
    match &mut c.rollout {
        Rollout::Random => {}
        Rollout::RandomThenEval { plies, heuristic, scale, raw } => {
            changed |= number(ui, "random plies", plies, 0..=400);
            changed |= number(ui, "eval scale", scale, 0.001..=1e6);
            changed |= ui
                .checkbox(raw, "raw value as reward (Lim's flaw, for tests)")
                .on_hover_text("The heuristic's value unmapped: the design Lim blames for his MCTS's weakness")
                .changed();
            changed |= heuristic_form(ui, &format!("{id}-rollout"), heuristic);
        }
        Rollout::HeuristicBiased { heuristic, epsilon } => {
            changed |= number(ui, "epsilon", epsilon, 0.0..=1.0);
            changed |= heuristic_form(ui, &format!("{id}-rollout"), heuristic);
        }
    }
    changed
}

fn solver_form(ui: &mut egui::Ui, id: &str, c: &mut SolverConfig) -> bool {
    let mut changed = false;
    changed |= number(ui, "table (MiB)", &mut c.tt_mb, 1..=65_536);
    changed |= ui.checkbox(&mut c.weak, "weak (win/draw/loss only)").changed();
    changed |= number(ui, "threads", &mut c.threads, 1..=MAX_THREADS);
    ui.horizontal(|ui| {
        ui.label("book file");
        let mut text = c.book.clone().unwrap_or_default();
        if ui
            .text_edit_singleline(&mut text)
            .on_hover_text("an opening book made by `mnklab book`; empty: none")
            .changed()
        {
            c.book = (!text.trim().is_empty()).then(|| text.trim().to_string());
            changed = true;
        }
    });
    changed |= ui
        .checkbox(&mut c.builtin_book, "built-in book (without a book file)")
        .on_hover_text(crate::search::solver::builtin_books_described())
        .changed();
    ui.label("fallback alpha-beta:");
    changed |= alphabeta_form(ui, &format!("{id}-fallback"), &mut c.fallback);
    changed
}

fn external_form(ui: &mut egui::Ui, c: &mut ExternalConfig) -> bool {
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("command");
        changed |= ui.add(egui::TextEdit::singleline(&mut c.command).desired_width(160.0)).labelled_by(l.id).changed();
    });
    let mut args = c.args.join(" ");
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("arguments");
        if ui.add(egui::TextEdit::singleline(&mut args).desired_width(160.0)).labelled_by(l.id).changed() {
            c.args = args.split_whitespace().map(String::from).collect();
            changed = true;
        }
    });
    changed |= number(ui, "grace (s)", &mut c.grace, 0.01..=600.0);
    changed |= number(ui, "default turn (s)", &mut c.default_turn, 0.01..=3600.0);
    changed
}

fn alphabeta_form(ui: &mut egui::Ui, id: &str, c: &mut AlphaBetaConfig) -> bool {
    let mut changed = false;
    changed |= ui.checkbox(&mut c.pruning, "alpha-beta pruning").changed();
    changed |= ui.checkbox(&mut c.iterative_deepening, "iterative deepening").changed();
    changed |= number(ui, "table (MiB, 0: none)", &mut c.tt_mb, 0..=65_536);
    changed |= number(ui, "threads (Lazy SMP)", &mut c.threads, 1..=MAX_THREADS);
    egui::ComboBox::new(format!("ordering-{id}"), "ordering").selected_text(format!("{:?}", c.ordering)).show_ui(
        ui,
        |ui| {
            for o in [MoveOrdering::None, MoveOrdering::Neighbours, MoveOrdering::Heuristic, MoveOrdering::Full] {
                changed |= ui.selectable_value(&mut c.ordering, o, format!("{o:?}")).changed();
            }
        },
    );
    changed |= opt_u32(ui, "branching cap", &mut c.branching_cap, 8);
    changed |= ui
        .checkbox(&mut c.widen_losses, "beyond the cap when all moves lose")
        .on_hover_text(
            "A node whose capped moves all lose searches the others too, so a loss (and the \
             opponent's win) it reports is proven, not an artefact of the cap",
        )
        .changed();
    changed |= ui.checkbox(&mut c.calibrate_cap, "calibrate the cap to the time").changed();
    changed |= ui.checkbox(&mut c.tactics, "tactics (wins, forced blocks)").changed();
    changed |= ui.checkbox(&mut c.prefer_faster_wins, "prefer faster wins").changed();
    ui.horizontal(|ui| {
        let l = ui.label("multi-PV (n best valued exactly)");
        changed |= ui.add(egui::DragValue::new(&mut c.multi_pv).range(1..=64)).labelled_by(l.id).changed();
    });
    changed |= opt_u32(ui, "radius", &mut c.radius, 2);
    changed |= threats_form(ui, &mut c.threats, true);
    changed |= reductions_form(ui, &mut c.reductions);
    changed |= ui
        .checkbox(&mut c.unfinished_depth, "the unfinished depth's better move")
        .on_hover_text(
            "When a limit stops a depth after a root move was valued above the last depth's best, \
             play that move rather than throw the unfinished depth away",
        )
        .changed();
    changed |= ui
        .checkbox(&mut c.forced_answers, "only answers to an open three or a four")
        .on_hover_text(
            "Free placement, shapes heuristic: when the opponent is one stone from a line or an open four, \
             search only the moves that stop it and the side to move's own fours",
        )
        .changed();
    changed |= heuristic_form(ui, id, &mut c.heuristic);
    // The errors suspected in a paper's program, to test whether they explain its numbers.
    let flaw_name = |f: Option<AlphaBetaFlaw>| match f {
        None => "none (correct)",
        Some(AlphaBetaFlaw::WinFromRootSide) => "win valued from the root's side",
        Some(AlphaBetaFlaw::HorizonBeforeWin) => "horizon tested before the win",
    };
    egui::ComboBox::new(format!("flaw-{id}"), "flaw (for tests)").selected_text(flaw_name(c.flaw)).show_ui(ui, |ui| {
        for f in [None, Some(AlphaBetaFlaw::WinFromRootSide), Some(AlphaBetaFlaw::HorizonBeforeWin)] {
            changed |= ui.selectable_value(&mut c.flaw, f, flaw_name(f)).changed();
        }
    });
    changed
}

/// An optional part of a form: a checkbox puts it on (with its defaults) or off, and when on
/// `settings` shows its fields, indented.
fn optional_form<T: Default>(
    ui: &mut egui::Ui,
    label: &str,
    hover: &str,
    value: &mut Option<T>,
    settings: impl FnOnce(&mut egui::Ui, &mut T) -> bool,
) -> bool {
    let mut on = value.is_some();
    let mut changed = ui.checkbox(&mut on, label).on_hover_text(hover).changed();
    if changed {
        *value = on.then(T::default);
    }
    if let Some(v) = value {
        ui.indent(label, |ui| changed |= settings(ui, v));
    }
    changed
}

/// The threat probe: on or off, and when on its settings (`plies_left`: alpha-beta's
/// `min_depth`, `reply_budget` and `vcf_depth`, which MCTS has not).
fn threats_form(ui: &mut egui::Ui, threats: &mut Option<ThreatConfig>, plies_left: bool) -> bool {
    let hover = "Threat-space search inside the tree (free placement, five or more): a win by fours \
                 and threes ends a node as a proven win";
    optional_form(ui, "threat search in the tree", hover, threats, |ui, t| {
        let mut changed = number(ui, "attacker moves (depth)", &mut t.depth, 1..=64);
        changed |= number(ui, "nodes a probe", &mut t.budget, 1..=10_000_000);
        changed |= number(ui, "nodes at the root", &mut t.root_budget, 1..=100_000_000);
        if plies_left {
            changed |= number(ui, "probe nodes with plies left >=", &mut t.min_depth, 1..=64);
            changed |= number(ui, "nodes to check the best move (0: off)", &mut t.reply_budget, 0..=100_000_000);
            changed |= number(ui, "fours alone with plies left <=", &mut t.vcf_depth, 0..=64);
        }
        changed |= ui
            .checkbox(&mut t.fours_first, "fours alone first")
            .on_hover_text("Each probe looks for a win by fours alone first, with half its nodes")
            .changed();
        changed | number(ui, "probe table (MiB)", &mut t.table_mb, 1..=65_536)
    })
}

/// Principal variation search with late move reductions: on or off, and when on from which
/// move and at how many plies left.
fn reductions_form(ui: &mut egui::Ui, reductions: &mut Option<Reductions>) -> bool {
    let hover = "Principal variation search (null windows after the first move), and quiet late moves \
                 searched shallower first";
    optional_form(ui, "PVS and late move reductions", hover, reductions, |ui, r| {
        let changed = number(ui, "reduce from the move (0: none)", &mut r.after, 0..=1000);
        changed | number(ui, "at nodes with plies left >=", &mut r.min_depth, 2..=64)
    })
}

fn heuristic_form(ui: &mut egui::Ui, id: &str, h: &mut HeuristicConfig) -> bool {
    let name = |h: &HeuristicConfig| match h {
        HeuristicConfig::None => "none",
        HeuristicConfig::Neighbours => "neighbours",
        HeuristicConfig::Lim { .. } => "Lim",
        HeuristicConfig::Flecart { .. } => "Flecart",
        HeuristicConfig::Kang => "Kang",
        HeuristicConfig::Pattern { .. } => "pattern",
        HeuristicConfig::Shapes(_) => "shapes",
    };
    let current = name(h);
    let mut pick = current;
    egui::ComboBox::new(format!("heuristic-{id}"), "heuristic").selected_text(current).show_ui(ui, |ui| {
        for k in ["none", "neighbours", "Lim", "Flecart", "Kang", "pattern", "shapes"] {
            ui.selectable_value(&mut pick, k, k);
        }
    });
    let mut changed = false;
    if pick != current {
        *h = match pick {
            "none" => HeuristicConfig::None,
            "neighbours" => HeuristicConfig::Neighbours,
            "Lim" => HeuristicConfig::Lim { bonus: 1.0 },
            "Flecart" => HeuristicConfig::Flecart { base: 10.0 },
            "Kang" => HeuristicConfig::Kang,
            "shapes" => HeuristicConfig::Shapes(Default::default()),
            _ => HeuristicConfig::Pattern { weights: vec![0.0, 1.0, 10.0, 100.0, 1000.0], defence: 1.0 },
        };
        changed = true;
    }
    changed | parameters_form(ui, id, h)
}

/// A heuristic's numeric parameters ([`HeuristicConfig::parameters`]), each a field. Where
/// there are many (the pattern's and the shapes' weights) all but `defence` are folded: the
/// fields a researcher tunes, or reads after `mnklab tune`.
fn parameters_form(ui: &mut egui::Ui, id: &str, h: &mut HeuristicConfig) -> bool {
    let params = h.parameters();
    let many = params.len() > 2;
    let shapes = matches!(h, HeuristicConfig::Shapes(_));
    let mut field = |ui: &mut egui::Ui, name: &str, mut v: f64| {
        let range = match name {
            "defence" if shapes => 0.0..=100.0,
            "defence" | "bonus" => 0.0..=1e6,
            "base" => 1.0..=1e6,
            _ => -1e6..=1e6,
        };
        number(ui, &name.replace('_', " "), &mut v, range) && h.set_parameter(name, v)
    };
    let mut changed = false;
    for (name, v) in params.iter().filter(|(n, _)| !many || n == "defence") {
        changed |= field(ui, name, *v);
    }
    if many {
        egui::CollapsingHeader::new("weights").id_salt(format!("weights-{id}")).show(ui, |ui| {
            for (name, v) in params.iter().filter(|(n, _)| n != "defence") {
                changed |= field(ui, name, *v);
            }
        });
    }
    changed
}
