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
    /// The node shown on the board (its move path), highlighted and named in the breadcrumb.
    pub shown: Option<Vec<Move>>,
    /// "Expand PV" goes on as fetched subtrees arrive, until the line ends.
    expanding_pv: bool,
}

/// What the user asked of the explorer this frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExplorerOutput {
    /// Show this node's position on the board (moves from the root).
    pub show: Option<Vec<Move>>,
    /// Fetch the tree below these nodes from the worker: (path, depth, children a node).
    pub fetch: Vec<(Vec<Move>, u32, usize)>,
}

/// Children listed a page at a time.
pub const PAGE: usize = 25;
/// A fetch for "more": two plies, every child the search has.
const FETCH_DEPTH: u32 = 2;
const FETCH_ALL: usize = usize::MAX;

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
        s.push_str(&format!("  visits {}", m.visits));
        if node.mv.is_some() {
            // The selection score at the parent: the mover's mean plus the exploration term.
            // Selection is from the view of the player choosing at the parent (not the root's
            // side, as the score before it): say so.
            s.push_str(&format!(
                "  ucb for the mover here {:.3} = exploit {:.3} + explore {:.3}",
                m.mean + m.exploration,
                m.mean,
                m.exploration
            ));
        }
        if m.prior > 0 {
            s.push_str(&format!("  prior {}", m.prior));
        }
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
            match (a.cutoff, a.cutoff_move) {
                (true, Some(m)) => format!("  cutoff by {}", pos.format_move(m)),
                (true, None) => "  cutoff".into(),
                _ => String::new(),
            },
            if a.tt_hit { "  tt hit" } else { "" }
        ));
    }
    s
}

const HELP: &str = "Scores are for the side to move at the root, at every depth.\n\
MCTS: visits = playouts through the node; % = their mean result for the root's side; \
ucb = exploit + explore, the score the parent selects by, from the view of the player who moved \
here (not the root's side): exploit = that player's mean, explore = the exploration term at the parent's visit count; prior = stones around the \
cell (neighbour expansion); proven = solved by the MCTS solver; rave = AMAF visits / mean.\n\
Alpha-beta: the value with its bound (Exact, Lower = at least, Upper = at most); window = the \
alpha-beta window it was searched with; depth = plies searched below it; cutoff = a child \
refuted it before all were searched (cutoff by: that child); tt hit = the table supplied a bound.";

impl Explorer {
    /// Draws the tree of agent `agent` ("A", "B"); `fetching` lists the nodes whose subtrees
    /// are on their way; `empty` is said when there is no tree. Returns what the user asked for.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        root_pos: &AnyPosition,
        tree: Option<&TreeSnapshot>,
        agent: &str,
        fetching: &[Vec<Move>],
        empty: &str,
    ) -> ExplorerOutput {
        let mut out = ExplorerOutput::default();
        let mut expand_pv = false;
        ui.horizontal_wrapped(|ui| {
            ui.label("Search tree").on_hover_text(HELP);
            ui.selectable_value(&mut self.sort, SortBy::Auto, "best first");
            ui.selectable_value(&mut self.sort, SortBy::Visits, "by visits");
            ui.selectable_value(&mut self.sort, SortBy::Value, "by value");
            ui.selectable_value(&mut self.sort, SortBy::Order, "as searched");
            expand_pv = ui
                .button("expand PV")
                .on_hover_text("open the best line (as sorted) to its end, fetching deeper nodes as needed")
                .clicked();
            ui.weak(crate::analysis::side_label(root_pos));
        });
        let Some(tree) = tree.filter(|t| !t.nodes.is_empty()) else {
            ui.label(empty);
            return out;
        };
        if expand_pv {
            self.expanding_pv = true;
        }
        if self.expanding_pv {
            self.expand_pv(ui.ctx(), tree, agent, fetching, &mut out);
        }
        self.breadcrumb(ui, root_pos, &mut out);
        if !fetching.is_empty() {
            ui.weak("fetching deeper nodes...");
        }
        // Rows wrap to the width (deep rows were cut off at the right): vertical scrolling only.
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            let mut path = Vec::new();
            let walk = Walk { pos: root_pos, tree, agent, fetching };
            self.node(ui, &walk, 0, &mut path, &mut out);
        });
        if let Some(p) = &out.show {
            self.shown = Some(p.clone());
        }
        out
    }

    /// "root › d › e": where the shown node is; a click on a step shows that node.
    fn breadcrumb(&self, ui: &mut egui::Ui, root_pos: &AnyPosition, out: &mut ExplorerOutput) {
        let Some(shown) = &self.shown else { return };
        ui.horizontal_wrapped(|ui| {
            ui.label("shown:");
            let mut pos = root_pos.clone();
            if ui.small_button("root").clicked() {
                out.show = Some(Vec::new());
            }
            for (i, &m) in shown.iter().enumerate() {
                ui.label("›");
                if ui.small_button(pos.format_move(m)).on_hover_text("show this node").clicked() {
                    out.show = Some(shown[..=i].to_vec());
                }
                if pos.try_play(m).is_err() {
                    break;
                }
            }
        });
    }

    /// Opens the best child of each node from the root down, asking for the subtree where the
    /// snapshot ends and the search went on; stops at the line's end.
    fn expand_pv(
        &mut self,
        ctx: &egui::Context,
        tree: &TreeSnapshot,
        agent: &str,
        fetching: &[Vec<Move>],
        out: &mut ExplorerOutput,
    ) {
        let (mut id, mut path) = (0usize, Vec::new());
        loop {
            set_open(ctx, agent, &path, true);
            let node = &tree.nodes[id];
            if node.children.is_empty() {
                if has_more(node) && path.len() < 200 {
                    if !fetching.contains(&path) {
                        out.fetch.push((path, 8, 12));
                    }
                    // Goes on when the subtree arrives.
                    return;
                }
                break;
            }
            let best = self.sorted_children(tree, id, path.len() as u32)[0];
            match tree.nodes[best].mv {
                Some(m) => path.push(m),
                None => break,
            }
            id = best;
        }
        self.expanding_pv = false;
        out.show = Some(path);
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
        kids.sort_by(|a, b| key(a).total_cmp(&key(b)));
        kids
    }

    /// One row of the tree and, when open, its children's (a page of them). `path` is the
    /// node's move path from the root.
    fn node(&self, ui: &mut egui::Ui, walk: &Walk, id: usize, path: &mut Vec<Move>, out: &mut ExplorerOutput) {
        let Walk { pos, tree, agent, fetching } = *walk;
        let node = &tree.nodes[id];
        let plies = path.len() as u32;
        let text = describe(pos, node, plies);
        let shown = self.shown.as_deref() == Some(path.as_slice()) && id != 0;
        let text = if shown {
            egui::RichText::new(text).strong().background_color(ui.visuals().selection.bg_fill)
        } else {
            egui::RichText::new(text)
        };
        // Keyed by agent and move path, not by the node's index in this snapshot: the next
        // snapshot numbers its nodes differently.
        let state_id = node_id(agent, path);
        let has_children = !node.children.is_empty();
        let mut state = egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), state_id, id == 0);
        let open = has_children && state.is_open();
        let waiting = fetching.iter().any(|p| p == path);
        ui.horizontal_wrapped(|ui| {
            if has_children {
                if ui.small_button(if open { "collapse" } else { "expand" }).clicked() {
                    state.toggle(ui);
                }
            } else if has_more(node) {
                // The snapshot stops here but the search went on: fetch the rest (alpha-beta
                // below its recorded plies: a fresh search of this node).
                let b = ui.add_enabled(!waiting, egui::Button::new("expand").small());
                if b.on_hover_text("fetch this node's children from the search").clicked() {
                    out.fetch.push((path.clone(), FETCH_DEPTH, FETCH_ALL));
                    set_open(ui.ctx(), agent, path, true);
                }
            }
            ui.label(text);
            if id != 0 && ui.small_button("show").clicked() {
                out.show = Some(path.clone());
            }
        });
        if has_children {
            state.store(ui.ctx());
        }
        if !open {
            return;
        }
        ui.indent(state_id, |ui| {
            let kids = self.sorted_children(tree, id, plies);
            let page_id = state_id.with("page");
            let pages = kids.len().div_ceil(PAGE).max(1);
            let page = ui.ctx().data(|d| d.get_temp::<usize>(page_id)).unwrap_or(0).min(pages - 1);
            // Above the children, where it is seen without scrolling past them.
            if pages > 1 || node.hidden_children > 0 {
                ui.horizontal(|ui| {
                    if pages > 1 {
                        if ui.add_enabled(page > 0, egui::Button::new("previous").small()).clicked() {
                            ui.ctx().data_mut(|d| d.insert_temp(page_id, page - 1));
                        }
                        let first = page * PAGE + 1;
                        ui.weak(format!("{first}-{} of {}", (first + PAGE - 1).min(kids.len()), kids.len()));
                        if ui.add_enabled(page + 1 < pages, egui::Button::new("next").small()).clicked() {
                            ui.ctx().data_mut(|d| d.insert_temp(page_id, page + 1));
                        }
                    }
                    if node.hidden_children > 0 {
                        let more = format!("+{} more", node.hidden_children);
                        let b = ui.add_enabled(!waiting, egui::Button::new(more).small());
                        if b.on_hover_text("fetch every child the search has").clicked() {
                            out.fetch.push((path.clone(), FETCH_DEPTH, FETCH_ALL));
                        }
                    }
                });
            }
            for &c in kids.iter().skip(page * PAGE).take(PAGE) {
                if let Some(m) = tree.nodes[c].mv {
                    path.push(m);
                    self.node(ui, walk, c, path, out);
                    path.pop();
                }
            }
        });
    }
}

/// What stays the same while the tree's rows are drawn: the root position, the snapshot, whose
/// search it is, and the paths whose children are being fetched.
#[derive(Clone, Copy)]
struct Walk<'a> {
    pos: &'a AnyPosition,
    tree: &'a TreeSnapshot,
    agent: &'a str,
    fetching: &'a [Vec<Move>],
}

fn node_id(agent: &str, path: &[Move]) -> egui::Id {
    egui::Id::unique(("tree-node", agent, path.to_vec()))
}

fn set_open(ctx: &egui::Context, agent: &str, path: &[Move], open: bool) {
    let mut state = egui::collapsing_header::CollapsingState::load_with_default_open(ctx, node_id(agent, path), false);
    state.set_open(open);
    state.store(ctx);
}

/// Whether the explorer node at `path` (agent `agent`) is open: for tests and the app.
pub fn is_open(ctx: &egui::Context, agent: &str, path: &[Move]) -> bool {
    egui::collapsing_header::CollapsingState::load(ctx, node_id(agent, path)).is_some_and(|s| s.is_open())
}

/// Whether a node has children the snapshot does not show: cut off by width or depth, or an
/// alpha-beta node searched deeper than the plies its search recorded.
pub fn has_more(node: &crate::search::tree::SnapNode) -> bool {
    node.hidden_children > 0 || (node.children.is_empty() && node.alphabeta.as_ref().is_some_and(|a| a.depth > 0))
}
