//! The native window around the workbench (eframe): launch options, remembered settings,
//! the screenshot mode for docs and checks, and the fonts.

use super::*;

/// How to open the window.
#[derive(Clone, Debug, Default)]
pub struct LaunchOptions {
    /// A position file to load at start.
    pub open: Option<std::path::PathBuf>,
    /// Or a new game of this variant with these moves played (checked by the caller).
    pub game: Option<(crate::game::Variant, String)>,
    /// Window size in points.
    pub size: Option<[f32; 2]>,
    /// Start analysing the position at once.
    pub analyse: bool,
    /// Write a PNG of the window after it has drawn (and analysed for a second), then exit.
    pub screenshot: Option<std::path::PathBuf>,
    /// With `screenshot` and `analyse`: the longest wait for the analyses to finish (the
    /// picture is taken as soon as they have); None: 1.5 s.
    pub wait: Option<f64>,
    /// Agents A and B instead of the defaults (or the remembered ones).
    pub agents: [Option<crate::agents::AgentFile>; 2],
}

/// The window: the workbench plus an optional screenshot to take.
struct WorkbenchApp {
    bench: Workbench,
    job: Option<screenshot::ScreenshotJob>,
    /// Why the screenshot could not be written: the run then ends with an error.
    /// The screenshot that could not be written, and why.
    screenshot_error: std::sync::Arc<std::sync::Mutex<Option<(std::path::PathBuf, screenshot::ScreenshotError)>>>,
    dark: bool,
    /// CPU seconds the UI thread spent on each frame (screenshot runs report them).
    frame_times: Vec<f32>,
}

const SETTINGS_KEY: &str = "mnklab-settings";

impl eframe::App for WorkbenchApp {
    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        // Screenshot runs are for checks and docs: they neither read nor change the settings.
        if self.job.is_none() {
            eframe::set_value(storage, SETTINGS_KEY, &self.bench.settings(self.dark));
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if self.job.is_some()
            && let Some(t) = frame.info().cpu_usage
        {
            self.frame_times.push(t);
        }
        self.dark = ui.ctx().theme() == egui::Theme::Dark;
        // Closing with unsaved moves asks first.
        if ui.ctx().input(|i| i.viewport().close_requested()) && self.bench.dirty && !self.bench.close_confirmed {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.bench.pending = Some(Pending::Close);
        }
        if self.bench.close_confirmed {
            self.bench.close_confirmed = false;
            self.bench.dirty = false;
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.bench.show(ui);
        if let Some(job) = &mut self.job
            && let Some(outcome) = job.tick(ui.ctx(), self.bench.slots.iter().all(|s| !s.analysis.running))
        {
            match outcome {
                Ok(()) => {
                    println!("screenshot {}", job.path.display());
                    // How long the UI thread took per frame while the workers ran: the
                    // figure behind "the UI stays responsive during a search".
                    let mut t = self.frame_times.clone();
                    t.sort_by(f32::total_cmp);
                    if !t.is_empty() {
                        let mean = t.iter().sum::<f32>() / t.len() as f32;
                        println!(
                            "frames {} ui_ms_mean {:.2} ui_ms_p95 {:.2} ui_ms_max {:.2}",
                            t.len(),
                            mean * 1e3,
                            t[(t.len() * 95 / 100).min(t.len() - 1)] * 1e3,
                            t[t.len() - 1] * 1e3
                        );
                    }
                }
                Err(e) => {
                    *self.screenshot_error.lock().unwrap_or_else(|p| p.into_inner()) = Some((job.path.clone(), e))
                }
            }
            self.job = None;
            // Not the user's close: nothing to save (the moves came from the command line),
            // so no "Unsaved moves" question, which a `--moves` screenshot run would wait on
            // for ever after writing its picture.
            self.bench.close_confirmed = true;
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

/// The window's first size, in points, unless `--size` or a remembered size says otherwise:
/// the README's screenshots' size, wide enough for the toolbar on one row and tall enough for a
/// solver's seven Connect-4 rows without scrolling (kittests check both).
pub const DEFAULT_WINDOW_SIZE: [f32; 2] = [1300.0, 860.0];
pub use crate::MIN_WINDOW_SIZE;

/// What failed: the window, or the screenshot.
#[derive(Debug, thiserror::Error)]
pub enum WindowError {
    #[error("cannot open the window: {0}")]
    Open(#[from] eframe::Error),
    #[error("cannot write the screenshot {}: {source}", .path.display())]
    Screenshot { path: std::path::PathBuf, source: screenshot::ScreenshotError },
}

/// Opens the workbench window.
pub fn run(options: LaunchOptions) -> Result<(), WindowError> {
    let screenshot = options.screenshot.is_some();
    let screenshot_error = std::sync::Arc::new(std::sync::Mutex::new(None));
    let failed = screenshot_error.clone();
    // A file eframe writes the state into, removed when the window closes, so batch
    // screenshot runs leave nothing behind.
    let scratch =
        screenshot.then(|| std::env::temp_dir().join(format!("mnklab-screenshot-{}.ron", std::process::id())));
    let job = options.screenshot.clone().map(|p| {
        use std::time::Duration;
        if options.analyse {
            let wait = Duration::from_secs_f64(options.wait.unwrap_or(1.5));
            // A finished analysis (a proof, a book) is pictured at once; a running one at `wait`.
            screenshot::ScreenshotJob::new(p, wait).settling(Duration::from_millis(300))
        } else {
            screenshot::ScreenshotJob::new(p, Duration::from_millis(300))
        }
    });
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size(options.size.unwrap_or(DEFAULT_WINDOW_SIZE))
            .with_min_inner_size(MIN_WINDOW_SIZE)
            .with_title("mnklab"),
        // A screenshot is taken with the default layout, whatever this machine remembers.
        persist_window: !screenshot,
        // A screenshot run keeps its state in a scratch file: it never reads or rewrites the
        // user's remembered workbench (recent files, layout).
        persistence_path: scratch.clone(),
        ..Default::default()
    };
    let opened = eframe::run_native(
        "mnklab",
        native,
        Box::new(move |cc| {
            let mut bench = Workbench::default();
            let mut dark = cc.egui_ctx.theme() == egui::Theme::Dark;
            if !screenshot
                && let Some(settings) = cc.storage.and_then(|s| eframe::get_value::<Settings>(s, SETTINGS_KEY))
            {
                bench.apply_settings(&settings);
                if let Some(d) = settings.dark {
                    dark = d;
                    cc.egui_ctx.set_theme(if d { egui::Theme::Dark } else { egui::Theme::Light });
                }
            }
            if screenshot {
                // Nor the remembered panel sizes.
                cc.egui_ctx.memory_mut(|m| *m = Default::default());
            }
            if let Some(path) = &options.open {
                bench.keeping_message(|b| b.open(&path.display().to_string()));
            }
            if let Some((variant, moves)) = &options.game {
                bench.keeping_message(|b| {
                    b.variant_text = variant.to_string();
                    b.new_game();
                    if !moves.trim().is_empty() {
                        b.play_command_line_moves(moves);
                    }
                });
            }
            for (slot, file) in bench.slots.iter_mut().zip(&options.agents) {
                if let Some(file) = file {
                    slot.set(file.clone());
                }
            }
            if options.analyse {
                // Every agent side by side (through the consent check, like a click would).
                for i in 0..bench.slots.len() {
                    bench.slots[i].analysis.seconds = 0.0;
                    bench.start_slot(i);
                }
            }
            Ok(Box::new(WorkbenchApp { bench, job, dark, frame_times: Vec::new(), screenshot_error }))
        }),
    );
    if let Some(file) = &scratch {
        let _ = std::fs::remove_file(file);
    }
    opened?;
    match failed.lock().unwrap_or_else(|p| p.into_inner()).take() {
        Some((path, source)) => Err(WindowError::Screenshot { path, source }),
        None => Ok(()),
    }
}

/// Adds the shipped DejaVu Sans behind egui's own fonts, for the symbols they lack (≤ ≥ ← →).
pub(super) fn install_fonts(ctx: &egui::Context) {
    use egui::epaint::text::{FontInsert, FontPriority, InsertFontFamily};
    let data = egui::FontData::from_static(include_bytes!("../../assets/fonts/DejaVuSans.ttf"));
    let families = [egui::FontFamily::Proportional, egui::FontFamily::Monospace]
        .into_iter()
        .map(|family| InsertFontFamily { family, priority: FontPriority::Lowest })
        .collect();
    ctx.add_font(FontInsert { name: "DejaVuSans".into(), data, families });
}
