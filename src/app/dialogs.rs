//! The workbench's modal questions: consent before an external program starts, replacing a
//! file, dropping unsaved moves. Each holds its question in the state and acts on the answer.
//! Each is an `egui::Modal`: while one is open the board, the panels and the shortcut keys take
//! no input, and autoplay waits (moves played behind an open "Unsaved moves" would go with
//! the game its Discard drops).

use super::*;

impl Workbench {
    /// The question before an external program starts: the exact command lines, allow or not.
    pub(super) fn consent_dialog(&mut self, ctx: &egui::Context) {
        if let Some(notice) = self.consent.take_notice() {
            self.message = Some(notice);
        }
        let Some(q) = self.consent.question() else { return };
        let mut decided = None;
        // No answer from Escape or a click beside it: the question stays until it is answered.
        egui::Modal::new(egui::Id::unique("consent question")).show(ctx, |ui| {
            ui.heading("Start an external program?");
            ui.label("A loaded file names a program to run. Start it only if you trust it:");
            for (who, line) in &q.commands {
                ui.label(format!("{who} runs"));
                ui.label(egui::RichText::new(line).monospace());
            }
            ui.label("Your answer, yes or no, is remembered for these exact command lines (Programs menu).");
            ui.horizontal(|ui| {
                if ui.button("Allow and start").clicked() {
                    decided = Some(true);
                }
                if ui.button("Don't start").clicked() {
                    decided = Some(false);
                }
            });
        });
        let Some(allow) = decided else { return };
        let Some(q) = self.consent.answer(allow) else { return };
        if !allow {
            if q.retry == Retry::Autoplay {
                self.autoplay.paused = true;
            }
            self.message = Some("the external program was not started".into());
            return;
        }
        match q.retry {
            Retry::Analyse(label) => {
                if let Some(i) = self.slots.iter().position(|s| s.label == label) {
                    self.start_slot(i);
                }
            }
            Retry::Autoplay => {}
            Retry::Review => self.start_review(),
            Retry::Matchup { resume } => self.matchup.start(&self.slots, resume),
        }
    }

    /// "Replace this file?" before Save writes over a file the game did not come from.
    pub(super) fn overwrite_dialog(&mut self, ctx: &egui::Context) {
        let Some((what, path)) = self.overwrite.clone() else { return };
        let mut decided = None;
        let shown = egui::Modal::new(egui::Id::unique("replace question")).show(ctx, |ui| {
            ui.heading("Replace file?");
            let thing = match what {
                None => "this game was not loaded from it".to_string(),
                Some(i) => format!("agent {} was not loaded from it", self.slots[i].label),
            };
            ui.label(format!("{path} already exists and {thing}. Replace it?"));
            ui.horizontal(|ui| {
                if ui.button("Replace").clicked() {
                    decided = Some(true);
                }
                if ui.button("Keep it").clicked() {
                    decided = Some(false);
                }
            });
        });
        // Escape or a click beside the question keeps the file.
        if decided.is_none() && shown.should_close() {
            decided = Some(false);
        }
        match decided {
            Some(true) => {
                self.overwrite = None;
                match what {
                    None => self.save(Path::new(&path)),
                    Some(i) => self.slots[i].save(Path::new(&path)),
                }
            }
            Some(false) => {
                self.overwrite = None;
                let message = Some(format!("not saved: {path} kept as it was"));
                match what {
                    None => self.message = message,
                    Some(i) => {
                        self.slots[i].message = message;
                        self.slots[i].message_failed = false;
                    }
                }
            }
            None => {}
        }
    }

    pub(super) fn confirm_dialog(&mut self, ctx: &egui::Context) {
        let Some(action) = self.pending.clone() else { return };
        let mut decided = None;
        let shown = egui::Modal::new(egui::Id::unique("unsaved question")).show(ctx, |ui| {
            ui.heading("Unsaved moves");
            ui.label("The game has moves that are not saved. Discard them?");
            ui.horizontal(|ui| {
                if ui.button("Save first").clicked() {
                    self.save_to_field();
                    if !self.dirty {
                        decided = Some(true);
                    } else {
                        decided = Some(false);
                    }
                }
                if ui.button("Discard").clicked() {
                    decided = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    decided = Some(false);
                }
            });
        });
        // Escape or a click beside the question cancels.
        if decided.is_none() && shown.should_close() {
            decided = Some(false);
        }
        match decided {
            Some(true) => {
                // The action clears the unsaved mark when it replaces the game: a load that
                // fails keeps the game, and with it the mark, so that the next load still
                // asks before replacing the moves.
                self.pending = None;
                self.perform(action);
            }
            Some(false) => self.pending = None,
            None => {}
        }
    }

    /// Whether one of the questions above is waiting for an answer: the rest of the window
    /// takes no input meanwhile.
    pub(super) fn question_open(&self) -> bool {
        self.pending.is_some() || self.overwrite.is_some() || self.consent.question().is_some()
    }
}
