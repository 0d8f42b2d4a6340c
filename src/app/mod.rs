//! The egui workbench. [`Workbench`] holds the state; the panels draw it and turn clicks into
//! changes; searches run on a worker thread (`worker`) and stream back over channels, so the
//! UI thread only draws and sends commands. `Workbench::show` draws from a `&mut Ui`, so tests
//! drive it with egui_kittest exactly as the window does.

mod analysis;
mod board;
mod explorer;
mod screenshot;
mod worker;

pub use analysis::Analysis;
pub use explorer::{Explorer, SortBy};

use std::path::Path;

use crate::game::{AnyPosition, Move, Setup, Status, Variant};
use crate::io::{PositionFile, load_position, save_position};

/// The application state.
pub struct Workbench {
    pub position: AnyPosition,
    /// The set-up the game started from, if any (kept for saving).
    pub setup: Option<Setup>,
    /// Moves taken back, for "forward".
    pub redo: Vec<Move>,
    /// Text of the variant field.
    pub variant_text: String,
    /// Text of the file path field (the typed fallback to file dialogs).
    pub file_path: String,
    /// The last error or notice to show (bad variant, illegal move, bad file).
    pub message: Option<String>,
    pub analysis: Analysis,
    pub explorer: Explorer,
    /// A position from the tree explorer shown on the board instead of the game.
    pub preview: Option<AnyPosition>,
}

impl Default for Workbench {
    fn default() -> Self {
        Workbench::new(Variant::connect4())
    }
}

impl Workbench {
    pub fn new(variant: Variant) -> Workbench {
        Workbench {
            position: AnyPosition::new(variant),
            setup: None,
            redo: Vec::new(),
            variant_text: variant.to_string(),
            file_path: "saves/positions/gomoku-opening.ron".into(),
            message: None,
            analysis: Analysis::default(),
            explorer: Explorer::default(),
            preview: None,
        }
    }

    fn position_changed(&mut self) {
        self.preview = None;
        if self.analysis.running {
            // Follow the game: analyse the new position.
            self.analysis.start(&self.position);
        }
    }

    /// Starts a new game of the variant typed in the field.
    pub fn new_game(&mut self) {
        match self.variant_text.parse::<Variant>() {
            Ok(v) => {
                self.position = AnyPosition::new(v);
                self.setup = None;
                self.redo.clear();
                self.message = None;
                self.position_changed();
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// Plays a move on the game (a new move drops the moves taken back).
    pub fn play(&mut self, m: Move) {
        match self.position.try_play(m) {
            Ok(()) => {
                self.redo.clear();
                self.message = None;
                self.position_changed();
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    pub fn back(&mut self) {
        if let Some(&m) = self.position.history().last()
            && self.position.undo()
        {
            self.redo.push(m);
            self.position_changed();
        }
    }

    pub fn forward(&mut self) {
        if let Some(m) = self.redo.pop() {
            let _ = self.position.try_play(m);
            self.position_changed();
        }
    }

    /// Loads a position file; a bad file leaves the game as it was and says why.
    pub fn load(&mut self, path: &Path) {
        match load_position(path) {
            Ok((file, pos)) => {
                self.variant_text = pos.variant().to_string();
                self.setup = file.setup;
                self.position = pos;
                self.redo.clear();
                self.message = Some(format!("loaded {}", path.display()));
                self.file_path = path.display().to_string();
                self.position_changed();
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    pub fn save(&mut self, path: &Path) {
        let file = PositionFile::from_position(&self.position, self.setup.as_ref());
        self.message = Some(match save_position(path, &file) {
            Ok(()) => format!("saved {}", path.display()),
            Err(e) => e.to_string(),
        });
    }

    fn toolbar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Game");
            ui.add(egui::TextEdit::singleline(&mut self.variant_text).desired_width(130.0)).labelled_by(label.id);
            if ui.button("New game").clicked() {
                self.new_game();
            }
            ui.separator();
            if ui.button("Back").clicked() {
                self.back();
            }
            if ui.button("Forward").clicked() {
                self.forward();
            }
            ui.separator();
            let label = ui.label("File");
            ui.add(egui::TextEdit::singleline(&mut self.file_path).desired_width(260.0)).labelled_by(label.id);
            if ui.button("Load").clicked() {
                let path = self.file_path.clone();
                self.load(Path::new(&path));
            }
            if ui.button("Save").clicked() {
                let path = self.file_path.clone();
                self.save(Path::new(&path));
            }
            ui.separator();
            let dark = ui.ctx().theme() == egui::Theme::Dark;
            if ui.button(if dark { "Light theme" } else { "Dark theme" }).clicked() {
                ui.ctx().set_theme(if dark { egui::Theme::Light } else { egui::Theme::Dark });
            }
        });
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
            Status::Ongoing => format!("{} to move, move {}", pos.side_to_move(), pos.ply() + 1),
            Status::Win(p) => format!("{p} player wins"),
            Status::Draw => "draw".into(),
        };
        format!("{} — {state}{points}", pos.variant().label())
    }

    fn move_list(&mut self, ui: &mut egui::Ui) {
        ui.heading("Moves");
        let moves: Vec<String> = self.position.history().iter().map(|&m| self.position.format_move(m)).collect();
        let mut jump = None;
        egui::ScrollArea::vertical().id_salt("moves").max_height(160.0).show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                for (i, m) in moves.iter().enumerate() {
                    if ui.small_button(format!("{}.{m}", i + 1)).clicked() {
                        jump = Some(i + 1);
                    }
                }
            });
        });
        if let Some(n) = jump {
            while self.position.history().len() > n {
                self.back();
            }
        }
    }

    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.analysis.poll();
        if self.analysis.running {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(50));
        }
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar(ui));
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.label(self.status_line());
            if let Some(m) = &self.message {
                ui.label(m);
            }
        });
        egui::Panel::right("analysis").resizable(true).default_size(320.0).show(ui, |ui| {
            if self.analysis.show(ui, &self.position) {
                let pos = self.position.clone();
                self.analysis.start(&pos);
            }
            ui.separator();
            self.move_list(ui);
        });
        egui::Panel::bottom("explorer").resizable(true).default_size(240.0).min_size(160.0).show(ui, |ui| {
            let tree = self.analysis.tree.clone();
            if let Some(path) = self.explorer.show(ui, &self.position, tree.as_ref()) {
                let mut p = self.position.clone();
                for m in path {
                    if p.try_play(m).is_err() {
                        break;
                    }
                }
                self.preview = Some(p);
            }
        });
        egui::CentralPanel::default().show(ui, |ui| {
            if self.preview.is_some() {
                ui.horizontal(|ui| {
                    ui.label("showing a position from the search tree");
                    if ui.button("Back to the game").clicked() {
                        self.preview = None;
                    }
                });
            }
            let marks = if self.preview.is_none() { self.analysis.heatmap(&self.position) } else { Vec::new() };
            let shown = self.preview.as_ref().unwrap_or(&self.position).clone();
            if let Some(m) = board::show(ui, &shown, &marks)
                && self.preview.is_none()
            {
                self.play(m);
            }
        });
    }
}

/// How to open the window.
#[derive(Clone, Debug, Default)]
pub struct LaunchOptions {
    /// A position file to load at start.
    pub open: Option<std::path::PathBuf>,
    /// Window size in points.
    pub size: Option<[f32; 2]>,
    /// Start analysing the position at once.
    pub analyse: bool,
    /// Write a PNG of the window after it has drawn (and analysed for a second), then exit.
    pub screenshot: Option<std::path::PathBuf>,
}

/// The window: the workbench plus an optional screenshot to take.
struct WorkbenchApp {
    bench: Workbench,
    job: Option<screenshot::ScreenshotJob>,
}

impl eframe::App for WorkbenchApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.bench.show(ui);
        if let Some(job) = &mut self.job
            && let Some(outcome) = job.tick(ui.ctx())
        {
            match outcome {
                Ok(()) => println!("screenshot {}", job.path.display()),
                Err(e) => eprintln!("error: cannot write the screenshot {}: {e}", job.path.display()),
            }
            self.job = None;
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

/// Opens the workbench window.
pub fn run(options: LaunchOptions) -> eframe::Result {
    let mut bench = Workbench::default();
    if let Some(path) = &options.open {
        bench.load(path);
    }
    if options.analyse {
        bench.analysis.seconds = 0.0;
        let pos = bench.position.clone();
        bench.analysis.start(&pos);
    }
    let job = options.screenshot.clone().map(|p| {
        screenshot::ScreenshotJob::new(p, std::time::Duration::from_millis(if options.analyse { 1500 } else { 300 }))
    });
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size(options.size.unwrap_or([1200.0, 820.0]))
            .with_title("mnklab"),
        ..Default::default()
    };
    eframe::run_native("mnklab", native, Box::new(|_cc| Ok(Box::new(WorkbenchApp { bench, job }))))
}
