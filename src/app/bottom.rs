//! The bottom area: its tabs (the explorer, the matchup, the review, the accuracy study) and
//! what each shows.

use super::*;

impl Workbench {
    /// Draws the tabs; returns what their clicks asked for.
    pub(super) fn bottom_area(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut out = Vec::new();
        // The whole panel taken, whatever the tab draws: a panel whose content is shorter than
        // the height the user dragged it to (an explorer with no tree yet) shrank to its
        // content, and the board jumped under the pointer.
        ui.set_min_height(ui.available_height());
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.tab, BottomTab::Explorer, "Explorer");
            ui.selectable_value(&mut self.tab, BottomTab::Matchup, "Matchup");
            ui.selectable_value(&mut self.tab, BottomTab::Review, "Review");
            ui.selectable_value(&mut self.tab, BottomTab::Accuracy, "Accuracy");
        });
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
        let empty = if matches!(self.slots[slot].file.agent, crate::agents::AgentConfig::Solver(_)) {
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
