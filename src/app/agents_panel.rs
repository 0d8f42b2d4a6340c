//! The agents panel, right of the board: one column per agent slot with its analysis, and
//! the buttons that add, remove and start them.

use super::*;

impl Workbench {
    /// Draws the panel; returns what its clicks asked for.
    pub(super) fn agents_panel(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut out = Vec::new();
        // While editing, the board shows the edited stones: analysis of the game's position is
        // about an earlier position and is shown as such.
        let pos = match &self.edit {
            Some(e) => e.result.clone().unwrap_or_else(|_| AnyPosition::new(e.variant)),
            None => self.position.clone(),
        };
        // Each agent's table marks where the others disagree (only analyses of this position).
        let lists: Vec<analysis::OtherList> = self
            .slots
            .iter()
            .map(|s| {
                // A slot whose config changed since its analysis prefers nothing yet: the
                // previous agent's choice is not its.
                let changed = s.analysis.agent_differs(&s.file.agent);
                let rows = if changed { Vec::new() } else { s.analysis.candidates(&pos) };
                analysis::OtherList {
                    label: s.label.clone(),
                    preferred: crate::analysis::preferred(&rows),
                    moves: rows.into_iter().map(|c| c.mv).collect(),
                }
            })
            .collect();
        let others = |i: usize| -> Vec<analysis::OtherList> {
            lists.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, l)| l.clone()).collect()
        };
        // A fixed height (not shrunk to the content), so the rows below stay under the pointer
        // while tables fill in and options open.
        // The rest goes to the move list (a tree of variations needs rows).
        let agents_height = (ui.available_height() * 0.7).min(ui.available_height() - 170.0);
        // A scroll area per agent: opening one agent's options scrolls that column only (one
        // area for all would move B's table away while A's is scrolled back into view).
        ui.allocate_ui(egui::vec2(ui.available_width(), agents_height), |ui| {
            ui.columns(self.slots.len(), |cols| {
                for (i, (col, slot)) in cols.iter_mut().zip(self.slots.iter_mut()).enumerate() {
                    // A bar beside the content, not over it: a floating one hides the end of
                    // the column's lines when scrolled. Always there, so that the column keeps
                    // its width when its content outgrows it (the table moved 2 px sideways).
                    col.spacing_mut().scroll = egui::style::ScrollStyle::solid();
                    // Both ways: a row of options wider than the column scrolls sideways in
                    // it (in a vertical area it widened the panel for good, moving the other
                    // column and the board under the pointer). The sideways bar comes out of
                    // the column's height, or the move list below lost its last row.
                    let height = agents_height - col.spacing().scroll.allocated_width();
                    egui::ScrollArea::both()
                        .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                        .id_salt(("agent", i))
                        .auto_shrink([false, false])
                        .max_height(height)
                        .min_scrolled_height(height)
                        .show(col, |ui| slot.show(ui, &pos, i, &others(i), &mut out));
                }
            });
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("board and explorer show:");
            for (i, slot) in self.slots.iter().enumerate() {
                if ui.selectable_label(self.shown_slot == i, format!("agent {}", slot.label)).clicked() {
                    out.push(Command::ShowSlot(i));
                }
            }
            ui.separator();
            if ui.add_enabled(self.slots.len() < MAX_SLOTS, egui::Button::new("Add agent")).clicked() {
                out.push(Command::AddSlot);
            }
            if ui.add_enabled(self.slots.len() > 2, egui::Button::new("Remove last agent")).clicked() {
                out.push(Command::RemoveSlot);
            }
        });
        ui.separator();
        let labels: Vec<String> = self.slots.iter().map(|s| s.label.clone()).collect();
        self.autoplay.show(ui, &labels);
        self.move_list(ui, &mut out);
        out
    }
}
