//! The bottom area: its tabs (the explorer, the matchup, the review) and what each shows.

use super::*;

impl Workbench {
    pub(super) fn bottom_area(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.tab, BottomTab::Explorer, "Explorer");
            ui.selectable_value(&mut self.tab, BottomTab::Matchup, "Matchup");
            ui.selectable_value(&mut self.tab, BottomTab::Review, "Review");
        });
        ui.separator();
        match self.tab {
            BottomTab::Explorer => {
                // Only a tree of the position on the board (never an earlier one's).
                let a = self.analysis();
                let tree = a.tree.clone().filter(|_| a.is_for(&self.position) && self.edit.is_none());
                let fetching = a.fetching.clone();
                let slot = self.shown_slot.min(self.slots.len() - 1);
                let agent = self.slots[slot].label.clone();
                // The solver proves without a tree to keep: its answer is the candidate table.
                let empty = if matches!(self.slots[slot].file.agent, crate::agents::AgentConfig::Solver(_)) {
                    format!("the solver keeps no search tree: its proven values are in agent {agent}'s candidate table")
                } else {
                    "no tree yet: start an analysis".to_string()
                };
                let asked = self.explorer.show(ui, &self.position, tree.as_ref(), &agent, &fetching, &empty);
                if asked.show.as_ref().is_some_and(|p| p.is_empty()) {
                    self.preview = None;
                    self.explorer.shown = None;
                }
                for (path, depth, top) in asked.fetch {
                    self.slots[slot].analysis.request_subtree(path, depth, top);
                }
                if let Some(path) = asked.show.filter(|p| !p.is_empty()) {
                    let mut p = self.position.clone();
                    for m in path {
                        if p.try_play(m).is_err() {
                            break;
                        }
                    }
                    self.preview = Some(p);
                }
            }
            // Scrolled, so that tall content (plots) never grows the panel.
            BottomTab::Matchup => {
                egui::ScrollArea::both().id_salt("matchup-tab").auto_shrink([false, false]).show(ui, |ui| {
                    self.matchup.show(ui, &self.slots);
                });
            }
            BottomTab::Review => {
                let name = self.slots[0].file.name.clone();
                let (jump, start) = egui::ScrollArea::vertical()
                    .id_salt("review-tab")
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.review.show(ui, &name))
                    .inner;
                if start {
                    self.start_review();
                }
                if let Some(n) = jump {
                    self.jump(n);
                }
            }
        }
    }
}
