//! The bottom area: its tabs (the explorer, the matchup, the review, the accuracy study) and
//! what each shows.

use super::*;

/// The tabs' first height as a share of the window's, and their panel's id. Half on boards of
/// up to 8 rows: at the default window size the matchup tab's summary and plot then show whole
/// under its buttons (at 0.42 the plot was cut by a third). 0.42 on taller grids (gomoku):
/// the matchup's live plot shows whole under its summary at the default window size (at a
/// third it began at the fold), and gomoku's cells keep some 25 points. A third on
/// connect3d's four levels, whose cells at half were 21 and 20 points, their labels too small
/// to read. Each kind has its own panel, so each keeps the height the user drags it to.
pub fn tabs_layout(variant: Variant) -> (f32, &'static str) {
    match variant.grid() {
        Some(r) if r.height() <= 8 => (0.5, "bottom"),
        Some(_) => (0.42, "bottom-tall-board"),
        None => (0.34, "bottom-big-board"),
    }
}

impl Workbench {
    /// The unfolded bottom panel, resizable, under the board. `height` is the window's height
    /// left for the board and the panel.
    pub(super) fn bottom_panel(&mut self, ui: &mut egui::Ui, height: f32, commands: &mut Vec<Command>) {
        // The board keeps 170 px however far the tabs are dragged up (a user drew them over
        // half of gomoku's board, which the cells then could not shrink to fit).
        let most = (height - 170.0).max(160.0);
        let (share, id) = tabs_layout(self.position.variant());
        egui::Panel::bottom(id)
            .resizable(true)
            // In proportion to the window: a first frame drawn before the window reached its
            // size must not leave the explorer a sliver for the session.
            .default_size((height * share).max(200.0).min(most))
            .min_size((height * 0.3).max(160.0).min(most))
            .max_size(most)
            .show(ui, |ui| commands.extend(self.bottom_area(ui)));
    }

    /// The row of tabs, with the button that folds or unfolds them; a tab clicked while they are
    /// folded unfolds them.
    pub(super) fn tab_row(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            for (tab, name) in [
                (BottomTab::Explorer, "Explorer"),
                (BottomTab::Matchup, "Matchup"),
                (BottomTab::Review, "Review"),
                (BottomTab::Accuracy, "Accuracy"),
            ] {
                let shown = self.tab == tab && !self.tabs_folded;
                if ui.selectable_label(shown, name).clicked() && !shown {
                    out.push(Command::ShowTab(tab));
                }
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let (text, hover) = if self.tabs_folded {
                    ("Unfold tabs", "Show the tabs under the board again (F2)")
                } else {
                    ("Fold tabs", "Fold the tabs to this row and give the board their height (F2)")
                };
                if ui.button(text).on_hover_text(hover).clicked() {
                    out.push(Command::ToggleTabs);
                }
            });
        });
        out
    }

    /// Draws the tabs; returns what their clicks asked for.
    pub(super) fn bottom_area(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        // The whole panel taken, whatever the tab draws: a panel whose content is shorter than
        // the height the user dragged it to (an explorer with no tree yet) shrank to its
        // content, and the board jumped under the pointer.
        ui.set_min_height(ui.available_height());
        let mut out = self.tab_row(ui);
        ui.separator();
        match self.tab {
            BottomTab::Explorer => self.explorer_tab(ui, &mut out),
            // Scrolled inside, below its run buttons, so that tall content (plots) never
            // grows the panel.
            BottomTab::Matchup => self.matchup.show(ui, &self.slots, &mut out),
            BottomTab::Accuracy => {
                egui::ScrollArea::vertical()
                    .id_salt("accuracy-tab")
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.accuracy.show(ui));
            }
            BottomTab::Review => {
                let (judge, game) = (self.slots[0].file.clone(), self.game_line());
                egui::ScrollArea::vertical()
                    .id_salt("review-tab")
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.review.show(ui, &judge, &game, &mut out));
            }
        }
        out
    }

    fn explorer_tab(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let slot = self.shown_slot.min(self.slots.len() - 1);
        let a = &self.slots[slot].analysis;
        // Only a tree of the position on the board (never an earlier one's), by the agent the
        // slot holds (never the one it held before another preset was chosen).
        let changed = a.agent_differs(&self.slots[slot].file.agent);
        let tree = a.tree.as_ref().filter(|_| a.is_for(&self.position) && self.edit.is_none() && !changed);
        let agent = self.slots[slot].label.clone();
        // The solver proves without a tree to keep: its answer is the candidate table.
        let empty = if self.slots[slot].file.agent.is_solver() {
            format!("the solver keeps no search tree: its proven values are in agent {agent}'s candidate table")
        } else if changed {
            format!("agent {agent}'s config changed since its last analysis: analyse again for its tree")
        } else {
            "no tree yet: start an analysis".to_string()
        };
        let fresh = a.fresh_nodes();
        let view = TreeView {
            root: &self.position,
            tree,
            agent: &agent,
            fetching: &a.fetching,
            fresh: &fresh,
            expansion: a.expansion.as_ref(),
            empty: &empty,
        };
        let asked = self.explorer.show(ui, &view);
        if asked.end_expansion {
            out.push(Command::EndExpansion(slot));
        }
        if let Some(sort) = asked.expand {
            out.push(Command::ExpandLine(slot, sort));
        }
        for (path, depth, top) in asked.fetch {
            out.push(Command::FetchSubtree { slot, path, depth, top });
        }
        if let Some(path) = asked.show {
            out.push(Command::ShowTreeNode(path));
        }
    }
}
