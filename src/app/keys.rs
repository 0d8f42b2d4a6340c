//! Keyboard shortcuts, and the help window that lists them. Keys act only when no text field
//! has the keyboard (typing a game name must not step through the game).

use super::Workbench;
use super::command::Command;

/// Every shortcut, as the help window lists it.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("← / →", "back / forward one move"),
    ("Home / End", "the start / the end of the line"),
    ("↑ / ↓", "the previous / next variation at this move (another move played here)"),
    ("Space", "start the analysis of the agent the board shows, or stop it (and its following of the game)"),
    ("Ctrl+Z", "take back the last move: it leaves the record (in Edit position: the last edit)"),
    ("Ctrl+C", "copy the moves played as a move string"),
    ("Ctrl+Shift+C", "copy the position as a position file's RON text"),
    ("Ctrl+V", "paste a move string (played from the start of this game) or a position's RON text"),
    ("F1", "show or hide this help"),
    ("F2", "fold or unfold the tabs under the board (the board takes their height)"),
];

impl Workbench {
    /// What this frame's shortcut keys ask, as commands applied with the panels' after the
    /// frame is drawn. Keys are consumed here, so a widget drawn later does not see them too.
    pub(super) fn read_keys(&self, ctx: &egui::Context) -> Vec<Command> {
        use egui::{Key, Modifiers};
        let mut out = Vec::new();
        if ctx.input(|i| i.key_pressed(Key::F1)) {
            out.push(Command::ToggleHelp);
        }
        if ctx.input(|i| i.key_pressed(Key::F2)) {
            out.push(Command::ToggleTabs);
        }
        // Nor while a question is open: the game behind it must not change (see dialogs.rs).
        if ctx.egui_wants_keyboard_input() || self.question_open() {
            return out;
        }
        if self.edit.is_some() {
            // In edit mode only undo acts: the arrows and Space belong to the game.
            if ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::Z)) {
                out.push(Command::UndoEdit);
            }
            return out;
        }
        // Presses counted, not only seen: several in one frame (fast taps, a held key on a busy
        // machine) step as many moves, not one.
        let (left, right, home, end, space, undo, up, down) = ctx.input_mut(|i| {
            (
                i.count_and_consume_key(Modifiers::NONE, Key::ArrowLeft),
                i.count_and_consume_key(Modifiers::NONE, Key::ArrowRight),
                i.consume_key(Modifiers::NONE, Key::Home),
                i.consume_key(Modifiers::NONE, Key::End),
                i.consume_key(Modifiers::NONE, Key::Space),
                i.consume_key(Modifiers::COMMAND, Key::Z),
                i.consume_key(Modifiers::NONE, Key::ArrowUp),
                i.consume_key(Modifiers::NONE, Key::ArrowDown),
            )
        });
        if up || down {
            out.push(Command::SwitchVariation { next: down });
        }
        let (copy, as_ron, paste) = ctx.input(|i| {
            let copy = i.events.iter().any(|e| matches!(e, egui::Event::Copy));
            let as_ron = i.modifiers.shift;
            let paste = i.events.iter().find_map(|e| match e {
                egui::Event::Paste(t) => Some(t.clone()),
                _ => None,
            });
            (copy, as_ron, paste)
        });
        out.extend(std::iter::repeat_n(Command::Back, left));
        if undo {
            out.push(Command::TakeBack);
        }
        out.extend(std::iter::repeat_n(Command::Forward, right));
        if home {
            out.push(Command::Jump(0));
        }
        if end {
            out.push(Command::Jump(self.game_line().len()));
        }
        if space {
            out.push(Command::ToggleAnalysis);
        }
        if copy {
            out.push(Command::Copy { as_ron });
        }
        if let Some(text) = paste {
            out.push(Command::Paste(text));
        }
        out
    }

    /// Space: the analysis of the slot the board shows starts, or stops. A finished analysis
    /// that follows the game is stopped too (a solver's answer from the book finishes at once:
    /// Space would otherwise never end the following).
    pub(super) fn toggle_analysis(&mut self) {
        let i = self.shown_slot.min(self.slots.len() - 1);
        if self.slots[i].analysis.follows() {
            self.slots[i].analysis.stop();
        } else {
            self.start_slot(i);
        }
    }

    /// Ctrl+C: the moves as a move string, or (with Shift) the position as a position file's
    /// RON text, for the clipboard; the frame's end hands it over.
    pub(super) fn copy(&mut self, as_ron: bool) {
        let (text, said) = if as_ron {
            let file = crate::io::PositionFile::from_record(
                &self.position,
                self.setup.as_ref(),
                &self.record,
                &self.start_position(),
            );
            (file.to_ron(), "copied the position as RON")
        } else {
            (self.position.history_string(), "copied the moves")
        };
        self.clipboard = Some(text);
        self.message = Some(said.into());
    }

    /// The help window with every shortcut.
    pub fn help_window(&mut self, ctx: &egui::Context) {
        let mut open = self.show_help;
        // Centred: egui's default place is over the toolbar, where the window would hide the
        // Keys button that closes it again.
        egui::Window::new("Keyboard shortcuts")
            .open(&mut open)
            .collapsible(false)
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .show(ctx, |ui| {
                egui::Grid::new("shortcuts").num_columns(2).show(ui, |ui| {
                    for (k, what) in SHORTCUTS {
                        ui.strong(*k);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
            });
        self.show_help = open;
    }
}
