//! The toolbar: the game's variant, moves back and forward, edit mode, the position file and
//! the recent ones, the answers about external programs, the colour theme. It edits its own
//! text fields and returns what the user asked for, which the workbench applies after drawing.

use super::Workbench;
use super::command::Command;
use super::files::Purpose;

impl Workbench {
    /// Draws the toolbar; returns the commands its clicks asked for.
    pub(super) fn toolbar(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut out = Vec::new();
        // Wrapped: at a large zoom or in a narrow window the last buttons go to a second row
        // instead of being clipped.
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Game");
            let field =
                ui.add(egui::TextEdit::singleline(&mut self.variant_text).desired_width(110.0)).labelled_by(label.id);
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("New game").on_hover_text("a new game of the variant typed (or press Enter in it)").clicked()
                || entered
            {
                out.push(Command::NewGame);
            }
            ui.separator();
            if ui.button("Back").clicked() {
                out.push(Command::Back);
            }
            if ui.button("Forward").clicked() {
                out.push(Command::Forward);
            }
            if ui.button("Keys").on_hover_text("keyboard shortcuts (F1)").clicked() {
                out.push(Command::ToggleHelp);
            }
            if ui.selectable_label(self.edit.is_some(), "Edit position").clicked() {
                out.push(Command::ToggleEdit);
            }
            ui.separator();
            self.file_row(ui, &mut out);
            ui.separator();
            let dark = ui.ctx().theme() == egui::Theme::Dark;
            let theme = ui.button(if dark { "Light" } else { "Dark" }).on_hover_text("switch the colour theme");
            if theme.clicked() {
                ui.ctx().set_theme(if dark { egui::Theme::Light } else { egui::Theme::Dark });
            }
        });
        out
    }

    /// The file field, its buttons, the recent files and the programs' answers.
    fn file_row(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let label = ui.label("File");
        // Narrow enough that the whole toolbar fits one row at 1300 px (the README's
        // screenshots); a longer path scrolls in the field.
        let field = ui
            .add(egui::TextEdit::singleline(&mut self.file_path).hint_text("file.ron").desired_width(170.0))
            .labelled_by(label.id)
            .on_hover_text("a path; Enter or Load opens it");
        // Enter in the field loads, as in a browser's address bar: users typed a path and
        // pressed Enter, and nothing happened.
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Load").clicked() || entered {
            out.push(Command::Load(self.file_path.clone()));
        }
        if ui.button("Save").clicked() {
            out.push(Command::Save);
        }
        if ui.add_enabled(!self.dialogs.busy(), egui::Button::new("Open...")).clicked() {
            out.push(Command::Dialog(Purpose::OpenPosition));
        }
        if ui.add_enabled(!self.dialogs.busy(), egui::Button::new("Save as...")).clicked() {
            out.push(Command::Dialog(Purpose::SavePosition));
        }
        ui.menu_button("Recent", |ui| {
            if self.recent.is_empty() {
                ui.label("no recent files");
            }
            for p in &self.recent {
                if ui.button(p).clicked() {
                    out.push(Command::Load(p.clone()));
                    ui.close();
                }
            }
        });
        ui.menu_button("Programs", |ui| {
            let (allowed, refused) = (self.consent.allowed(), self.consent.refused());
            if allowed.is_empty() && refused.is_empty() {
                ui.label("no answers about external programs yet");
            }
            for (title, lines) in [("allowed to start:", allowed), ("refused:", refused)] {
                if !lines.is_empty() {
                    ui.label(title);
                    for l in lines {
                        ui.label(egui::RichText::new(l).monospace());
                    }
                }
            }
            if ui.button("Forget answers").clicked() {
                out.push(Command::ForgetProgramAnswers);
                ui.close();
            }
        })
        .response
        .on_hover_text("external programs named in files: what you allowed or refused");
    }
}
