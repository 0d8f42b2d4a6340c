//! The search-tree explorer: the snapshot of a running or finished search as a collapsible
//! tree, children sorted as chosen, each node's statistics, and a button to show its position.

use crate::game::{AnyPosition, Move};
use crate::search::TreeSnapshot;
use crate::search::tree::SnapNode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SortBy {
    #[default]
    Visits,
    Value,
    Order,
}

#[derive(Default)]
pub struct Explorer {
    pub sort: SortBy,
}

fn bound_text(v: i32) -> String {
    if v >= crate::search::score::INF - 1 {
        "+inf".into()
    } else if v <= -crate::search::score::INF + 1 {
        "-inf".into()
    } else {
        v.to_string()
    }
}

fn describe(pos: &AnyPosition, node: &SnapNode) -> String {
    let mv = node.mv.map_or("root".to_string(), |m| pos.format_move(m));
    let mut s = mv;
    if let Some(m) = &node.mcts {
        s.push_str(&format!("  visits {}  mean {:.3}  explore {:.3}", m.visits, m.mean, m.exploration));
        if let Some(p) = m.proven {
            s.push_str(&format!("  proven {p:?}"));
        }
        if m.rave_visits > 0 {
            s.push_str(&format!("  rave {} / {:.3}", m.rave_visits, m.rave_mean));
        }
    }
    if let Some(a) = &node.alphabeta {
        s.push_str(&format!(
            "  value {}  {:?}  window [{}, {}]  depth {}{}{}",
            a.value,
            a.bound,
            bound_text(a.alpha),
            bound_text(a.beta),
            a.depth,
            if a.cutoff { "  cutoff" } else { "" },
            if a.tt_hit { "  tt hit" } else { "" }
        ));
    }
    if node.hidden_children > 0 {
        s.push_str(&format!("  (+{} more)", node.hidden_children));
    }
    s
}

impl Explorer {
    /// Draws the tree; returns the moves from the root to a node whose "show" was clicked.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        root_pos: &AnyPosition,
        tree: Option<&TreeSnapshot>,
    ) -> Option<Vec<Move>> {
        ui.horizontal(|ui| {
            ui.label("Search tree");
            ui.selectable_value(&mut self.sort, SortBy::Visits, "by visits");
            ui.selectable_value(&mut self.sort, SortBy::Value, "by value");
            ui.selectable_value(&mut self.sort, SortBy::Order, "as searched");
        });
        let Some(tree) = tree.filter(|t| !t.nodes.is_empty()) else {
            ui.label("no tree yet: start an analysis");
            return None;
        };
        let mut clicked = None;
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            self.node(ui, root_pos, tree, 0, &mut clicked);
        });
        clicked.map(|id| tree.path_to(id))
    }

    fn sorted_children(&self, tree: &TreeSnapshot, id: usize) -> Vec<usize> {
        let mut kids: Vec<usize> = tree.nodes[id].children.iter().map(|&c| c as usize).collect();
        let key = |c: &usize| -> f64 {
            let n = &tree.nodes[*c];
            match self.sort {
                SortBy::Visits => -(n.mcts.as_ref().map_or(0, |m| m.visits) as f64),
                SortBy::Value => {
                    -n.mcts.as_ref().map(|m| m.mean).or(n.alphabeta.as_ref().map(|a| -a.value as f64)).unwrap_or(0.0)
                }
                SortBy::Order => n.order as f64,
            }
        };
        kids.sort_by(|a, b| key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal));
        kids
    }

    fn node(&self, ui: &mut egui::Ui, pos: &AnyPosition, tree: &TreeSnapshot, id: usize, clicked: &mut Option<usize>) {
        let node = &tree.nodes[id];
        let text = describe(pos, node);
        if node.children.is_empty() {
            ui.horizontal(|ui| {
                ui.label(text);
                if id != 0 && ui.small_button("show").clicked() {
                    *clicked = Some(id);
                }
            });
            return;
        }
        // A labelled expand/collapse button (rather than egui's bare arrow), so the toggle
        // reads as what it does, to people and to accessibility tools alike.
        let state_id = ui.make_persistent_id(("tree-node", id));
        let mut state = egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), state_id, id == 0);
        let open = state.is_open();
        ui.horizontal(|ui| {
            if ui.small_button(if open { "collapse" } else { "expand" }).clicked() {
                state.toggle(ui);
            }
            ui.label(text);
            if id != 0 && ui.small_button("show").clicked() {
                *clicked = Some(id);
            }
        });
        state.store(ui.ctx());
        if open {
            ui.indent(state_id, |ui| {
                for c in self.sorted_children(tree, id) {
                    self.node(ui, pos, tree, c, clicked);
                }
            });
        }
    }
}
