//! The Accuracy tab: runs an accuracy experiment (what `mnklab accuracy` runs) on a worker
//! thread, its mistake-rate curves filling in as the budgets finish, and exports the paper's
//! figure (a panel a board) as the other plots are exported.

use std::path::{Path, PathBuf};

use crossbeam_channel::{Receiver, unbounded};

use super::plots::{Exporter, TitleRow, draw_figure};
use crate::arena::accuracy::{
    AccuracyError, AccuracyExperiment, AccuracyOptions, AccuracyRow, accuracy_table, run_accuracy,
};
use crate::plot::accuracy::{BudgetAxis, accuracy_figure, accuracy_panels, boards};
use crate::search::SearchControl;

/// What the worker sends: the searches done, and the table of the rows so far now and then.
enum Message {
    Progress { done: usize, total: usize, table: Option<Vec<AccuracyRow>> },
    Ended(Result<Vec<AccuracyRow>, AccuracyError>),
}

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccuracyState {
    Idle,
    Running,
    Stopped,
    /// The run ended on an error (a refused experiment, a folder it cannot write).
    Failed,
    Finished,
}

/// The progress bar's words: what the run did, and what Resume would do.
fn status_text(state: AccuracyState, busy: bool, done: usize, total: usize, out_dir: &str) -> String {
    match state {
        AccuracyState::Idle => "not run yet".to_string(),
        AccuracyState::Running => format!("{done} of {total} searches"),
        AccuracyState::Stopped if busy => format!("stopping at {done} of {total} searches"),
        AccuracyState::Stopped => format!("stopped at {done} of {total} searches: Resume continues"),
        // Refused before a search ("stopped at 0 of 0 searches: Resume continues" offered to
        // resume what never started).
        AccuracyState::Failed if total == 0 => "not run: see the error below".to_string(),
        AccuracyState::Failed => format!("stopped by an error at {done} of {total} searches"),
        AccuracyState::Finished => format!("finished: {total} searches, tables in {out_dir}"),
    }
}

pub struct AccuracyPanel {
    /// The experiment file (RON).
    pub experiment: String,
    /// The run's folder: `moves.csv` a row a search, then `accuracy.csv` and the figures.
    pub out_dir: String,
    /// The run folder as the tab chose it, with the experiment's name it was chosen for: while
    /// the user has not typed their own, a run of another experiment goes to `out/ITS-NAME`
    /// (a new experiment's results went to the last one's folder, `out/accuracy-quick-2-2`).
    chosen: Option<(String, String)>,
    state: AccuracyState,
    control: SearchControl,
    inbox: Option<Receiver<Message>>,
    done: usize,
    total: usize,
    table: Vec<AccuracyRow>,
    axis: BudgetAxis,
    board: usize,
    error: Option<String>,
    notice: Option<String>,
    exporter: Exporter,
    /// The plot shown in a window of its own too ("Enlarge").
    plot_enlarged: bool,
    /// The last experiment file read, for the workbench's Recent list.
    pub(super) touched: Option<String>,
}

impl Default for AccuracyPanel {
    fn default() -> Self {
        AccuracyPanel {
            experiment: "saves/experiments/accuracy-quick.ron".into(),
            out_dir: "out/accuracy-quick".into(),
            chosen: Some(("accuracy-quick".into(), "out/accuracy-quick".into())),
            state: AccuracyState::Idle,
            control: SearchControl::new(),
            inbox: None,
            done: 0,
            total: 0,
            table: Vec::new(),
            axis: BudgetAxis::Work,
            board: 0,
            error: None,
            notice: None,
            // PDF: the run itself writes the SVGs (and their CSVs, the same numbers) beside
            // its tables; the export is the copy for the paper.
            exporter: Exporter::new("out/accuracy-quick/accuracy-work.pdf"),
            plot_enlarged: false,
            touched: None,
        }
    }
}

/// The table is worked out again at most this often while a run goes (its intervals are
/// bootstrapped, a thousand resamples a cell).
const TABLE_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

impl AccuracyPanel {
    pub fn state(&self) -> AccuracyState {
        self.state
    }

    /// The searches done and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.done, self.total)
    }

    /// The rates so far (every board, agent, budget and group).
    pub fn table(&self) -> &[AccuracyRow] {
        &self.table
    }

    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn exporter(&self) -> &Exporter {
        &self.exporter
    }

    pub fn exporter_mut(&mut self) -> &mut Exporter {
        &mut self.exporter
    }

    /// Opens an experiment file into the form; its run folder is `out/NAME`.
    pub fn open(&mut self, path: &Path) {
        self.experiment = path.display().to_string();
        match AccuracyExperiment::load(path) {
            Ok(e) => {
                self.out_dir = format!("out/{}", e.name);
                self.chosen = Some((e.name.clone(), self.out_dir.clone()));
                self.error = None;
                self.touched = Some(path.display().to_string());
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Starts the experiment on a worker thread; `resume` continues the rows the folder holds.
    /// A fresh run never mixes with an earlier one's rows: it takes the next free folder.
    pub fn start(&mut self, resume: bool) {
        if self.state == AccuracyState::Running {
            return;
        }
        let file = PathBuf::from(&self.experiment);
        let experiment = match AccuracyExperiment::load(&file) {
            Ok(e) => e,
            Err(e) => {
                self.error = Some(e.to_string());
                return;
            }
        };
        // A folder the tab chose (not typed by the user) follows the experiment run, and its
        // next free folder numbers on from the experiment's name, not from the last one taken.
        let base = folder_base(self.chosen.as_ref(), &self.out_dir, &experiment.name, resume);
        self.out_dir = base.clone();
        let mut out = PathBuf::from(&self.out_dir);
        self.notice = None;
        if !resume && out.join("moves.csv").exists() {
            let free =
                (2..10_000).map(|n| PathBuf::from(format!("{base}-{n}"))).find(|d| !d.join("moves.csv").exists());
            let Some(free) = free else {
                self.error = Some(format!("{} holds a run: choose another folder", out.display()));
                return;
            };
            self.notice = Some(format!("{} holds an earlier run: this one goes to {}", out.display(), free.display()));
            self.out_dir = free.display().to_string();
            out = free;
        }
        if self.chosen.as_ref().is_some_and(|(_, dir)| *dir == base) || base == format!("out/{}", experiment.name) {
            self.chosen = Some((experiment.name.clone(), self.out_dir.clone()));
        }
        self.error = None;
        self.done = 0;
        self.total = 0;
        if !resume {
            self.table.clear();
        }
        self.exporter.follow(&out);
        self.control = SearchControl::new();
        let control = self.control.clone();
        let (tx, rx) = unbounded();
        std::thread::Builder::new()
            .name("mnklab-accuracy".into())
            .spawn(move || {
                let opts = AccuracyOptions { resume, threads: 0 };
                let mut last = std::time::Instant::now() - TABLE_EVERY;
                let told = |rows: &[crate::arena::accuracy::MoveRow], total: usize| {
                    let table = (last.elapsed() >= TABLE_EVERY || rows.len() == total).then(|| {
                        last = std::time::Instant::now();
                        accuracy_table(rows, experiment.seed)
                    });
                    let _ = tx.send(Message::Progress { done: rows.len(), total, table });
                };
                let r = run_accuracy(&experiment, &file, &out, &opts, &control, told);
                let r = r.map(|rows| accuracy_table(&rows, experiment.seed));
                let _ = tx.send(Message::Ended(r));
            })
            .expect("spawn the accuracy thread");
        self.inbox = Some(rx);
        self.state = AccuracyState::Running;
    }

    /// Stops the searches; Resume continues from the rows on disk.
    pub fn stop(&mut self) {
        self.control.stop();
        if self.state == AccuracyState::Running {
            self.state = AccuracyState::Stopped;
        }
    }

    /// A worker is at work, or still finishing after Stop (its last rows not yet on disk):
    /// no run or resume starts until it ends, or two would write one folder.
    pub fn busy(&self) -> bool {
        self.inbox.is_some()
    }

    /// Takes in the worker's messages.
    pub fn poll(&mut self) {
        let Some(rx) = &self.inbox else { return };
        let mut ended = false;
        loop {
            let msg = match rx.try_recv() {
                Ok(msg) => msg,
                Err(crossbeam_channel::TryRecvError::Empty) => break,
                Err(crossbeam_channel::TryRecvError::Disconnected) => {
                    ended = true;
                    break;
                }
            };
            match msg {
                Message::Progress { done, total, table } => {
                    (self.done, self.total) = (done, total);
                    if let Some(t) = table {
                        self.table = t;
                    }
                }
                Message::Ended(Ok(table)) => {
                    self.table = table;
                    if self.state == AccuracyState::Running {
                        self.state = AccuracyState::Finished;
                    }
                    ended = true;
                }
                Message::Ended(Err(e)) => {
                    self.error = Some(e.to_string());
                    self.state = AccuracyState::Failed;
                    ended = true;
                }
            }
        }
        if ended {
            self.inbox = None;
        }
    }

    /// The figure shown: the chosen board on the chosen axis.
    pub fn figure(&self) -> Option<crate::plot::Figure> {
        let boards = boards(&self.table);
        let board = boards.get(self.board.min(boards.len().saturating_sub(1)))?;
        accuracy_figure(&self.table, self.axis, board)
    }

    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.poll();
        let running = self.state == AccuracyState::Running;
        let busy = self.busy();
        if busy {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(200));
        }
        ui.label(
            "Mistake rate against budget: each agent searches positions whose every move the solver has \
             valued; a move that throws a proven win or draw away is a mistake.",
        );
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Experiment");
            ui.add_enabled(!running, egui::TextEdit::singleline(&mut self.experiment).desired_width(300.0))
                .labelled_by(l.id);
            let l = ui.label("Run folder");
            ui.add_enabled(!running, egui::TextEdit::singleline(&mut self.out_dir).desired_width(200.0))
                .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            if ui.add_enabled(!busy, egui::Button::new("Run experiment")).clicked() {
                self.start(false);
            }
            let resumable = !busy && Path::new(&self.out_dir).join("moves.csv").exists();
            if ui
                .add_enabled(resumable, egui::Button::new("Resume experiment"))
                .on_hover_text("continue the searches of the run in the folder (the same experiment)")
                .clicked()
            {
                self.start(true);
            }
            if ui.add_enabled(running, egui::Button::new("Stop experiment")).clicked() {
                self.stop();
            }
            let (done, total) = (self.done, self.total);
            let share = if total > 0 { done as f32 / total as f32 } else { 0.0 };
            let text = status_text(self.state, busy, done, total, &self.out_dir);
            ui.add(egui::ProgressBar::new(share).text(text).desired_width(ui.available_width().clamp(120.0, 360.0)));
        });
        super::lines::reserved_line(ui, self.error.as_deref(), super::lines::Tone::Error);
        if let Some(n) = &self.notice {
            ui.weak(n);
        }
        let boards = boards(&self.table);
        if boards.is_empty() {
            return;
        }
        let axis = self.axis;
        ui.horizontal_wrapped(|ui| {
            ui.label("budget axis:");
            ui.selectable_value(&mut self.axis, BudgetAxis::Work, "work (nodes, iterations)");
            ui.selectable_value(&mut self.axis, BudgetAxis::CpuSeconds, "CPU time");
            ui.separator();
            ui.label("board:");
            for (i, b) in boards.iter().enumerate() {
                ui.selectable_value(&mut self.board, i, b);
            }
        });
        // The export is the paper's figure: every board a panel, on the axis shown, named for
        // it (only when the axis changes: naming drops a pending "Replace?").
        if self.axis != axis {
            let kind = if self.axis == BudgetAxis::Work { "work" } else { "cpu" };
            self.exporter.name_for(&format!("accuracy-{kind}"));
        }
        let panels = accuracy_panels(&self.table, self.axis).map(|f| self.exporter.labelled(f));
        match self.figure() {
            Some(fig) => {
                let height = super::plots::plot_height_in_view(ui, 100.0..=260.0, true);
                let row = TitleRow { enlarged: &mut self.plot_enlarged, leading: None };
                draw_figure(ui, "accuracy", &fig, height, false, Some(row));
            }
            None => {
                ui.weak("no budget of this kind in the experiment (or none finished yet)");
            }
        }
        self.exporter.show(ui, "accuracy", panels.as_ref());
    }
}

/// The folder a run of the experiment `name` starts from: `out/NAME` while the run folder is
/// the one the tab chose (`chosen`: the experiment it was chosen for and the folder), the
/// user's own folder once they typed one, the folder as it is for a resume.
fn folder_base(chosen: Option<&(String, String)>, out_dir: &str, name: &str, resume: bool) -> String {
    match chosen {
        Some((_, dir)) if dir == out_dir && !resume => format!("out/{name}"),
        _ => out_dir.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{AccuracyState, status_text};

    /// A run refused before any search says so, and offers no resume of nothing; one cut
    /// short by an error says where.
    #[test]
    fn a_refused_run_is_not_called_stopped() {
        let said = |state, busy, done, total| status_text(state, busy, done, total, "out/x");
        assert_eq!(said(AccuracyState::Failed, false, 0, 0), "not run: see the error below");
        assert_eq!(said(AccuracyState::Failed, false, 3, 40), "stopped by an error at 3 of 40 searches");
        assert!(said(AccuracyState::Stopped, false, 3, 40).ends_with("Resume continues"));
        assert_eq!(said(AccuracyState::Stopped, true, 3, 40), "stopping at 3 of 40 searches");
        assert_eq!(said(AccuracyState::Finished, false, 40, 40), "finished: 40 searches, tables in out/x");
    }

    /// A folder the tab chose follows the experiment run (a new experiment's results went to
    /// the last one's `out/accuracy-quick-2-2`); a folder the user typed stays; a resume keeps
    /// the folder.
    #[test]
    fn the_run_folder_follows_the_experiment_until_the_user_names_one() {
        let chosen = ("accuracy-quick".to_string(), "out/accuracy-quick-2".to_string());
        assert_eq!(super::folder_base(Some(&chosen), "out/accuracy-quick-2", "mine", false), "out/mine");
        assert_eq!(
            super::folder_base(Some(&chosen), "out/accuracy-quick-2", "accuracy-quick", false),
            "out/accuracy-quick"
        );
        assert_eq!(super::folder_base(Some(&chosen), "my/folder", "mine", false), "my/folder");
        assert_eq!(super::folder_base(Some(&chosen), "out/accuracy-quick-2", "mine", true), "out/accuracy-quick-2");
        assert_eq!(super::folder_base(None, "out/x", "mine", false), "out/x");
    }
}
