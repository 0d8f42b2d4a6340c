//! The search-tree explorer: the snapshot of a running or finished search as a collapsible
//! tree, children sorted as chosen, each node's statistics, and a button to show its position.
//! Open nodes are remembered by their move path (and agent), so a re-sorted or refreshed
//! snapshot keeps the same lines open. Scores follow the one convention: for the side to move
//! at the root, at every depth.

use crate::analysis::{full_label, node_score};
use crate::game::{AnyPosition, Move};
use crate::search::TreeSnapshot;
use crate::search::tree::SnapNode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SortBy {
    /// By visits for MCTS, by value for alpha-beta (which has no visits).
    #[default]
    Auto,
    Visits,
    Value,
    Order,
}

#[derive(Default)]
pub struct Explorer {
    pub sort: SortBy,
}

/// A raw alpha-beta window bound as a number for the root's side (heuristic units).
fn window_text(v: i32) -> String {
    if v >= crate::search::score::INF - 1 {
        "+inf".into()
    } else if v <= -crate::search::score::INF + 1 {
        "-inf".into()
    } else {
        full_label(crate::search::Score::from_value(v, true), crate::search::tree::Bound::Exact)
    }
}

/// One line per node: its move, its score for the root's side, and the statistics that
/// explain the choice (hover for what each means).
fn describe(pos: &AnyPosition, node: &SnapNode, plies: u32) -> String {
    let mv = node.mv.map_or("root".to_string(), |m| pos.format_move(m));
    let mut s = mv;
    if let Some((score, bound)) = node_score(node, plies) {
        let kind = match (bound, node.alphabeta.is_some()) {
            (crate::search::tree::Bound::Exact, true) => " exact",
            (crate::search::tree::Bound::Lower, _) => " (lower bound)",
            (crate::search::tree::Bound::Upper, _) => " (upper bound)",
            _ => "",
        };
        s.push_str(&format!("  {}{kind}", full_label(score, bound)));
    }
    if let Some(m) = &node.mcts {
        s.push_str(&format!("  visits {}  explore {:.3}", m.visits, m.exploration));
        if let Some(p) = m.proven {
            s.push_str(&format!("  proven {p:?} for the mover"));
        }
        if m.rave_visits > 0 {
            s.push_str(&format!("  rave {} / {:.3}", m.rave_visits, m.rave_mean));
        }
    }
    if let Some(a) = &node.alphabeta {
        // The window as the root's side sees it: negated (and swapped) at odd depths.
        let (lo, hi) = if plies.is_multiple_of(2) { (a.alpha, a.beta) } else { (-a.beta, -a.alpha) };
        s.push_str(&format!(
            "  window [{}, {}]  depth {}{}{}",
            window_text(lo),
            window_text(hi),
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

const HELP: &str = "Scores are for the side to move at the root, at every depth.\n\
MCTS: visits = playouts through the node; % = their mean result for the root's side; \
explore = the UCB exploration term at the parent's visit count; proven = solved by the MCTS solver; \
rave = AMAF visits / mean.\n\
Alpha-beta: the value with its bound (Exact, Lower = at least, Upper = at most); window = the \
alpha-beta window it was searched with; depth = plies searched below it; cutoff = a child \
refuted it before all were searched; tt hit = the table supplied a bound.";

impl Explorer {
    /// Draws the tree of agent `agent` ("A", "B"); returns the moves from the root to a node
    /// whose "show" was clicked.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        root_pos: &AnyPosition,
        tree: Option<&TreeSnapshot>,
        agent: &str,
    ) -> Option<Vec<Move>> {
        ui.horizontal(|ui| {
            ui.label("Search tree").on_hover_text(HELP);
            ui.selectable_value(&mut self.sort, SortBy::Auto, "best first");
            ui.selectable_value(&mut self.sort, SortBy::Visits, "by visits");
            ui.selectable_value(&mut self.sort, SortBy::Value, "by value");
            ui.selectable_value(&mut self.sort, SortBy::Order, "as searched");
            ui.weak(crate::analysis::side_label(root_pos));
        });
        let Some(tree) = tree.filter(|t| !t.nodes.is_empty()) else {
            ui.label("no tree yet: start an analysis");
            return None;
        };
        let mut clicked = None;
        egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
            let mut path = Vec::new();
            self.node(ui, root_pos, tree, 0, &mut path, agent, &mut clicked);
        });
        clicked
    }

    fn sorted_children(&self, tree: &TreeSnapshot, id: usize, plies: u32) -> Vec<usize> {
        let mut kids: Vec<usize> = tree.nodes[id].children.iter().map(|&c| c as usize).collect();
        let mcts = tree.nodes[id].mcts.is_some();
        let sort = match self.sort {
            SortBy::Auto if mcts => SortBy::Visits,
            SortBy::Auto => SortBy::Value,
            s => s,
        };
        // Best for the player choosing here first: the root's side chooses at even depths.
        let sign = if plies.is_multiple_of(2) { -1.0 } else { 1.0 };
        let key = |c: &usize| -> f64 {
            let n = &tree.nodes[*c];
            match sort {
                SortBy::Visits => -(n.mcts.as_ref().map_or(0, |m| m.visits) as f64),
                SortBy::Value => node_score(n, plies + 1).map_or(0.0, |(s, _)| {
                    let v = s.as_f64();
                    if v.is_nan() { f64::INFINITY } else { sign * v }
                }),
                SortBy::Order | SortBy::Auto => n.order as f64,
            }
        };
        kids.sort_by(|a, b| key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal));
        kids
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &self,
        ui: &mut egui::Ui,
        pos: &AnyPosition,
        tree: &TreeSnapshot,
        id: usize,
        path: &mut Vec<Move>,
        agent: &str,
        clicked: &mut Option<Vec<Move>>,
    ) {
        let node = &tree.nodes[id];
        let plies = path.len() as u32;
        let text = describe(pos, node, plies);
        if node.children.is_empty() {
            ui.horizontal(|ui| {
                ui.label(text);
                if id != 0 && ui.small_button("show").clicked() {
                    *clicked = Some(path.clone());
                }
            });
            return;
        }
        // Keyed by agent and move path, not by the node's index in this snapshot: the next
        // snapshot numbers its nodes differently.
        let state_id = egui::Id::unique(("tree-node", agent, path.clone()));
        let mut state = egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), state_id, id == 0);
        let open = state.is_open();
        ui.horizontal(|ui| {
            if ui.small_button(if open { "collapse" } else { "expand" }).clicked() {
                state.toggle(ui);
            }
            ui.label(text);
            if id != 0 && ui.small_button("show").clicked() {
                *clicked = Some(path.clone());
            }
        });
        state.store(ui.ctx());
        if open {
            ui.indent(state_id, |ui| {
                for c in self.sorted_children(tree, id, plies) {
                    if let Some(m) = tree.nodes[c].mv {
                        path.push(m);
                        self.node(ui, pos, tree, c, path, agent, clicked);
                        path.pop();
                    }
                }
            });
        }
    }
}

/// Whether the explorer node at `path` (agent `agent`) is open: for tests and the app.
pub fn is_open(ctx: &egui::Context, agent: &str, path: &[Move]) -> bool {
    let id = egui::Id::unique(("tree-node", agent, path.to_vec()));
    egui::collapsing_header::CollapsingState::load(ctx, id).is_some_and(|s| s.is_open())
}
