//! The egui workbench. State lives in [`Workbench`]; panels only draw it and turn clicks
//! into changes. `Workbench::show` draws from a `&mut Ui`, so tests drive it with
//! egui_kittest exactly as the window does.

mod board;

use crate::game::{AnyPosition, Status, Variant};

/// The application state.
pub struct Workbench {
    pub position: AnyPosition,
    /// Text of the variant field.
    pub variant_text: String,
    /// The last error to show (bad variant, illegal move).
    pub message: Option<String>,
}

impl Default for Workbench {
    fn default() -> Self {
        Workbench::new(Variant::connect4())
    }
}

impl Workbench {
    pub fn new(variant: Variant) -> Workbench {
        Workbench { position: AnyPosition::new(variant), variant_text: variant.to_string(), message: None }
    }

    /// Starts a new game of the variant typed in the field.
    pub fn new_game(&mut self) {
        match self.variant_text.parse::<Variant>() {
            Ok(v) => {
                self.position = AnyPosition::new(v);
                self.message = None;
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    pub fn show(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("toolbar").show(ui, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label("Game");
                ui.add(egui::TextEdit::singleline(&mut self.variant_text).desired_width(140.0)).labelled_by(label.id);
                if ui.button("New game").clicked() {
                    self.new_game();
                }
                if ui.button("Undo").clicked() {
                    self.position.undo();
                }
            });
        });
        egui::Panel::bottom("status").show(ui, |ui| {
            let pos = &self.position;
            let text = match pos.status() {
                Status::Ongoing => {
                    format!("{} — {} to move, move {}", pos.variant().label(), pos.side_to_move(), pos.ply() + 1)
                }
                Status::Win(p) => format!("{} — {} player wins", pos.variant().label(), p),
                Status::Draw => format!("{} — draw", pos.variant().label()),
            };
            ui.label(text);
            if let Some(m) = &self.message {
                ui.colored_label(ui.visuals().error_fg_color, m);
            }
        });
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(m) = board::show(ui, &self.position) {
                if let Err(e) = self.position.try_play(m) {
                    self.message = Some(e.to_string());
                } else {
                    self.message = None;
                }
            }
        });
    }
}

impl eframe::App for Workbench {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// Opens the workbench window.
pub fn run() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1000.0, 720.0]).with_title("mnklab"),
        ..Default::default()
    };
    eframe::run_native("mnklab", options, Box::new(|_cc| Ok(Box::new(Workbench::default()))))
}
