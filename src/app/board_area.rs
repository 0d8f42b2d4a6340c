//! The central panel: the board (being edited, or with the analysis' marks and ghost stones)
//! and the one row above it for the legend, the review's note or the explorer's "show".

use super::*;

impl Workbench {
    /// The analysis' marks the board shows: the shown slot's candidates for the position, none
    /// while a position from the tree is shown, and none when the slot now holds another agent
    /// than the one whose results these are (a preset chosen since: its old labels and legend
    /// would be credited to the new agent).
    pub fn board_marks(&self) -> Vec<Mark> {
        let slot = &self.slots[self.shown_slot.min(self.slots.len() - 1)];
        if self.preview.is_some() || slot.analysis.agent_differs(&slot.file.agent) {
            return Vec::new();
        }
        self.analysis().heatmap(&self.position)
    }

    /// The evaluation bar's reading: the shown slot's score of the position on the board,
    /// under the same conditions as its marks (none for a tree position or another agent's).
    pub fn eval_bar(&self) -> Option<crate::analysis::EvalBar> {
        let slot = &self.slots[self.shown_slot.min(self.slots.len() - 1)];
        if self.preview.is_some() || slot.analysis.agent_differs(&slot.file.agent) {
            return None;
        }
        let latest = slot.analysis.latest.as_ref().filter(|_| slot.analysis.is_for(&self.position))?;
        let scale = crate::analysis::eval_bar::value_scale(&self.position);
        crate::analysis::EvalBar::of_scaled(latest.score, self.position.side_to_move(), scale)
    }

    /// The central panel: the board being edited, or the game's board with the analysis'
    /// marks, the hovered line's ghost stones and, above it, one row for the legend, the
    /// review's note or the explorer's "show".
    /// Returns what its clicks asked for.
    pub(super) fn board_area(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut out = Vec::new();
        if let Some(edit) = &mut self.edit {
            let action = edit.show(ui);
            let pos = self.position.clone();
            let stones = |x, y| edit.stone(x, y);
            if let Some((x, y)) = board::show_edit(ui, &pos, &stones) {
                edit.click(x, y);
            }
            out.extend(action.map(Command::FinishEdit));
            return out;
        }
        let marks = self.board_marks();
        // A candidate row under the pointer (any agent's) previews its line on the board.
        let hovered = self.slots.iter().find_map(|s| s.analysis.hovered_line.clone());
        // Standing before a move the review marked: the better move as a ring.
        let reviewed = self.review.mistake_after(self.position.history()).cloned();
        let ghosts = match (&hovered, &self.preview, &reviewed) {
            (Some(line), None, _) => board::line_ghosts(&self.position, line),
            (None, None, Some(r)) => r.best.map_or(Vec::new(), |b| {
                board::line_ghosts(&self.position, &[b]).into_iter().map(|(cell, who, _)| (cell, who, 0)).collect()
            }),
            _ => Vec::new(),
        };
        let review_note = match (&self.preview, &reviewed) {
            (None, Some(r)) => Some(format!(
                "review: {} — the better move {} is ringed",
                r.describe(&self.position, crate::game::ColumnStyle::Notation),
                r.best.map_or("-".into(), |b| self.position.format_move(b))
            )),
            _ => None,
        };
        let shown = self.preview.as_ref().unwrap_or(&self.position).clone();
        // Always drawn (not only with marks): the board must not move when analysis appears
        // or goes.
        // The review's note takes the legend's row, so the board stays where it is.
        // One fixed row (clipped), whichever it shows.
        let (row, _) = ui
            .allocate_exact_size(egui::vec2(ui.available_width(), ui.spacing().interact_size.y), egui::Sense::hover());
        let mut row_ui =
            ui.new_child(egui::UiBuilder::new().max_rect(row).layout(egui::Layout::left_to_right(egui::Align::Center)));
        row_ui.set_clip_rect(row.intersect(ui.clip_rect()));
        match &review_note {
            // The explorer's "show": said in the same row, so the board does not move.
            _ if self.preview.is_some() => {
                row_ui.label("showing a position from the search tree");
                if row_ui.button("Back to the game").clicked() {
                    out.push(Command::ShowTreeNode(Vec::new()));
                }
            }
            Some(text) => {
                let colour = row_ui.visuals().warn_fg_color;
                row_ui.add(egui::Label::new(egui::RichText::new(text).color(colour)).truncate()).on_hover_text(text);
            }
            None => {
                // From the marks just made: the candidates are not computed again.
                let proofs = marks.iter().any(|m| m.proof_label);
                let bounds = marks.iter().any(|m| m.bound);
                mark_legend(&mut row_ui, &self.position, crate::analysis::legend(proofs, bounds))
            }
        }
        // The board, and the evaluation bar at its right (the board's width less the bar's).
        let bar = self.eval_bar();
        let space = ui.available_size();
        let clicked = ui
            .horizontal_top(|ui| {
                let board =
                    ui.allocate_ui(egui::vec2(space.x - 34.0, space.y), |ui| board::show(ui, &shown, &marks, &ghosts));
                let r = board.response.rect;
                board::eval_bar(ui, (r.height() - 40.0).max(40.0), bar.as_ref());
                board.inner
            })
            .inner;
        out.extend(clicked.map(Command::BoardClick));
        out
    }
}

/// The legend of the board's candidate marks: the colour scale and whose scores they are.
fn mark_legend(ui: &mut egui::Ui, pos: &AnyPosition, legend: crate::analysis::Legend) {
    // In a clipped row of its own: a row wider than the panel never widens the board's space.
    // Whose scores first: a narrow row cuts the colour scale's end, not that (no "scores
    // for the second player (to mov").
    ui.horizontal(|ui| {
        let side = crate::analysis::side_label(pos);
        // Proven values need the room for their key more than these words (at 1200 px the key
        // was cut): "for the second player (to move)", and no "candidates:".
        // Whole words, as short (a trial read "for the first player ..." as clipped).
        let short = side.replacen("scores for the ", "", 1).replacen(" (to move)", "'s view (to move)", 1);
        ui.label(if legend.key.is_some() && side.starts_with("scores") { short.as_str() } else { &side });
        ui.separator();
        if legend.key.is_none() {
            ui.label("candidates:");
        }
        // Where the row is too narrow for the key of proven values beside the colour scale
        // (a trial's 1024 px window cut it at "win/loss (in n plies), ="), the key stays and
        // the scale goes: the labels on the cells need it more than their shades.
        let width = |t: &str| {
            egui::WidgetText::from(t)
                .into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, egui::TextStyle::Body)
                .size()
                .x
        };
        let gap = ui.spacing().item_spacing.x;
        let needed = |key: &str| {
            let scale: f32 = legend.scale.iter().map(|&(_, name)| 18.0 + 2.0 * gap + width(name)).sum();
            scale + width(key) + 3.0 * gap + 2.0
        };
        let narrow = legend.key.is_some_and(|key| ui.available_width() < needed(key));
        for &(t, name) in legend.scale.iter().filter(|_| !narrow) {
            let (r, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
            ui.painter().rect_filled(r, 2.0, board::mark_colour(t));
            if !name.is_empty() {
                ui.label(name);
            }
        }
        if let Some(key) = legend.key {
            // One separator where the scale is left out, not two side by side.
            if !narrow {
                ui.separator();
            }
            // Where the panel is narrow the row cuts it: the pointer on it shows it whole.
            ui.label(key).on_hover_text(key);
        }
    });
}
