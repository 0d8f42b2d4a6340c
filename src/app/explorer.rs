//! The search-tree explorer: the snapshot of a running or finished search as a collapsible
//! tree, children sorted as chosen, each node's statistics, and a button to show its position.
//! Open nodes are remembered by their move path (with the game, the position and the agent),
//! so a re-sorted or refreshed snapshot keeps the same lines open and another position starts
//! closed. Scores follow the one convention: for the side to move at the root, at every depth.

use std::collections::HashMap;

use super::analysis::LineExpansion;
use crate::analysis::{PositionKey, SortBy, full_label, has_more, keep_order, node_score, sorted_children};
use crate::game::{AnyPosition, Move};
use crate::search::TreeSnapshot;
use crate::search::tree::SnapNode;

#[derive(Default)]
pub struct Explorer {
    pub(super) sort: SortBy,
    /// The node shown on the board (its move path), highlighted and named in the breadcrumb.
    pub(super) shown: Option<Vec<Move>>,
    /// Counts the games opened: a node opened in one game is closed in the next, even at the
    /// same position.
    game: u64,
    /// The position the rows below are about: another one starts with its own open nodes.
    key: Option<PositionKey>,
    /// Each open node's children as last drawn (by move): while the pointer is over the tree
    /// they keep this order, so a row does not move under it as the search's numbers change.
    order: HashMap<Vec<Move>, Vec<Move>>,
    /// The pointer was over the tree's rows at the last frame.
    held: bool,
}

/// What the explorer draws: the analysed position, its tree and how far the fetching got.
pub struct TreeView<'a> {
    pub root: &'a AnyPosition,
    pub tree: Option<&'a TreeSnapshot>,
    /// Whose search it is ("A", "B").
    pub agent: &'a str,
    /// Nodes whose subtrees are on their way.
    pub fetching: &'a [Vec<Move>],
    /// Nodes whose children are a fresh search of the node, with that search's root.
    pub fresh: &'a [(&'a [Move], &'a SnapNode)],
    /// "Expand PV" under way.
    pub expansion: Option<&'a LineExpansion>,
    /// Said when there is no tree.
    pub empty: &'a str,
}

/// What the user asked of the explorer this frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExplorerOutput {
    /// Show this node's position on the board (moves from the root).
    pub show: Option<Vec<Move>>,
    /// Fetch the tree below these nodes from the worker: (path, depth, children a node).
    pub fetch: Vec<(Vec<Move>, u32, usize)>,
    /// Open the best line to its end, ordered so.
    pub expand: Option<SortBy>,
    /// Stop opening the line (or it was opened: the analysis forgets it).
    pub end_expansion: bool,
}

/// Steps of a shown node's path the breadcrumb names (the last ones).
const BREADCRUMB_STEPS: usize = 12;
/// Children listed a page at a time.
pub const PAGE: usize = 25;
/// A fetch for "more": two plies, every child the search has.
const FETCH_DEPTH: u32 = 2;
const FETCH_ALL: usize = usize::MAX;
/// A node's children are indented while the width left is above this: room for a row's
/// buttons and its text on one or two lines.
const MIN_INDENTED_WIDTH: f32 = 420.0;

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
    /// Forgets the open nodes: another game was opened.
    /// The node shown on the board, by its move path.
    pub fn shown(&self) -> Option<&[Move]> {
        self.shown.as_deref()
    }

    /// The children's order chosen.
    pub fn sort(&self) -> SortBy {
        self.sort
    }

    pub fn new_game(&mut self) {
        self.game += 1;
        self.shown = None;
        self.order.clear();
    }

    /// Draws the tree of `view`. Returns what the user asked for.
    pub fn show(&mut self, ui: &mut egui::Ui, view: &TreeView) -> ExplorerOutput {
        let mut out = ExplorerOutput::default();
        let key = PositionKey::of(view.root);
        if self.key != Some(key) {
            self.key = Some(key);
            self.order.clear();
            self.held = false;
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("Search tree").on_hover_text(HELP);
            ui.selectable_value(&mut self.sort, SortBy::Auto, "best first");
            ui.selectable_value(&mut self.sort, SortBy::Visits, "by visits");
            ui.selectable_value(&mut self.sort, SortBy::Value, "by value");
            ui.selectable_value(&mut self.sort, SortBy::Order, "as searched");
            let expanding = view.expansion.filter(|x| x.done.is_none());
            if expanding.is_some() {
                if ui.small_button("stop expanding").clicked() {
                    out.end_expansion = true;
                }
                ui.ctx().request_repaint_after(std::time::Duration::from_millis(200));
            } else {
                let b = ui.add_enabled(view.tree.is_some(), egui::Button::new("expand PV").small());
                let tip = "open the best line (as sorted) to its end, in the background, fetching \
                           deeper nodes as needed (alpha-beta: searching them afresh)";
                if b.on_hover_text(tip).clicked() {
                    out.expand = Some(self.sort);
                }
            }
            ui.weak(crate::analysis::side_label(view.root));
        });
        let Some(tree) = view.tree.filter(|t| !t.nodes.is_empty()) else {
            ui.label(view.empty);
            return out;
        };
        if let Some(line) = view.expansion.and_then(|x| x.done.as_ref()) {
            for k in 0..=line.len() {
                self.set_open(ui.ctx(), view, &line[..k]);
            }
            out.show = Some(line.clone());
            out.end_expansion = true;
        }
        self.breadcrumb(ui, view.root, &mut out);
        // One line, always there, so the rows below never move when what it says changes.
        let status = match (view.expansion.filter(|x| x.done.is_none()), view.fetching.is_empty(), self.held) {
            (Some(x), _, _) => format!(
                "expanding the best line: {} plies, {:.1} s (searching deeper nodes in the background)",
                x.plies,
                x.started.elapsed().as_secs_f64()
            ),
            (None, false, _) => "fetching deeper nodes...".into(),
            (None, true, true) => "rows hold their order while the pointer is over them".into(),
            (None, true, false) => " ".into(),
        };
        ui.weak(status);
        // Rows wrap to the width (deep rows were cut off at the right): vertical scrolling only.
        let mut drawn = HashMap::new();
        let area = egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            let mut path = Vec::new();
            let walk = Walk { view, tree };
            self.node(ui, &walk, 0, &mut path, &mut out, &mut drawn);
        });
        // Held while the pointer is over the rows; re-sorted as soon as it leaves.
        self.held = ui.rect_contains_pointer(area.inner_rect);
        self.order = drawn;
        if let Some(p) = &out.show {
            self.shown = Some(p.clone());
        }
        out
    }

    /// "root › d › e": where the shown node is; a click on a step shows that node.
    fn breadcrumb(&self, ui: &mut egui::Ui, root_pos: &AnyPosition, out: &mut ExplorerOutput) {
        // One row, there with or without a node shown, so the rows below never move when a
        // "show" is clicked; a deep line shows its last steps.
        let (row, _) = ui
            .allocate_exact_size(egui::vec2(ui.available_width(), ui.spacing().interact_size.y), egui::Sense::hover());
        let mut ui =
            ui.new_child(egui::UiBuilder::new().max_rect(row).layout(egui::Layout::left_to_right(egui::Align::Center)));
        ui.set_clip_rect(row.intersect(ui.clip_rect()));
        let Some(shown) = &self.shown else {
            // Cut with "…" in a narrow panel (the whole sentence on hover), never past its edge.
            ui.add(
                egui::Label::new(
                    egui::RichText::new("shown: the game's position (\"show\" on a row puts its node on the board)")
                        .weak(),
                )
                .truncate(),
            );
            return;
        };
        ui.label("shown:");
        if ui.small_button("root").clicked() {
            out.show = Some(Vec::new());
        }
        let mut pos = root_pos.clone();
        let skip = shown.len().saturating_sub(BREADCRUMB_STEPS);
        if skip > 0 {
            ui.label(format!("› … {skip} plies"));
        }
        for (i, &m) in shown.iter().enumerate() {
            if i >= skip {
                ui.label("›");
                if ui.small_button(pos.format_move(m)).on_hover_text("show this node").clicked() {
                    out.show = Some(shown[..=i].to_vec());
                }
            }
            if pos.try_play(m).is_err() {
                break;
            }
        }
    }

    /// One row of the tree and, when open, its children's (a page of them). `path` is the
    /// node's move path from the root; `drawn` collects each open node's row order.
    fn node(
        &self,
        ui: &mut egui::Ui,
        walk: &Walk,
        id: usize,
        path: &mut Vec<Move>,
        out: &mut ExplorerOutput,
        drawn: &mut HashMap<Vec<Move>, Vec<Move>>,
    ) {
        let Walk { view, tree } = *walk;
        let node = &tree.nodes[id];
        let plies = path.len() as u32;
        let text = describe(view.root, node, plies);
        let shown = self.shown.as_deref() == Some(path.as_slice()) && id != 0;
        let text = if shown {
            egui::RichText::new(text).strong().background_color(ui.visuals().selection.bg_fill)
        } else {
            egui::RichText::new(text)
        };
        // Keyed by position, agent and move path, not by the node's index in this snapshot:
        // the next snapshot numbers its nodes differently.
        let state_id = self.node_id(view, path);
        let has_children = !node.children.is_empty();
        let mut state = egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), state_id, id == 0);
        let open = has_children && state.is_open();
        let waiting = view.fetching.iter().any(|p| p == path);
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
                    self.set_open(ui.ctx(), view, path);
                }
            }
            // "show" before the text, so it stays on the row's first line: after the text,
            // a deep row's wrap put it on a line of its own.
            if id != 0 && ui.small_button("show").clicked() {
                out.show = Some(path.clone());
            }
            ui.label(text);
            if let Some((_, fresh)) = view.fresh.iter().find(|(p, _)| *p == path.as_slice()) {
                fresh_mark(ui, fresh, plies);
            }
        });
        if has_children {
            state.store(ui.ctx());
        }
        if !open {
            return;
        }
        let children = |ui: &mut egui::Ui| {
            let mut kids = sorted_children(tree, id, plies, self.sort);
            if self.held
                && let Some(before) = self.order.get(path.as_slice())
            {
                kids = keep_order(tree, kids, before);
            }
            drawn.insert(path.clone(), kids.iter().filter_map(|&c| tree.nodes[c].mv).collect());
            let page = page_bar(ui, state_id.with("page"), kids.len(), node.hidden_children, waiting, path, out);
            for &c in kids.iter().skip(page * PAGE).take(PAGE) {
                if let Some(m) = tree.nodes[c].mv {
                    path.push(m);
                    self.node(ui, walk, c, path, out, drawn);
                    path.pop();
                }
            }
        };
        // Indented while a row keeps room for its text; deeper, the children stand under
        // their parent (each row says its depth): at 20 plies the rows had 150 px and wrapped
        // to four lines.
        if ui.available_width() > MIN_INDENTED_WIDTH {
            ui.indent(state_id, children);
        } else {
            ui.push_id(state_id, children);
        }
    }

    /// The id of the open state of the node at `path`: this game's, this position's, this
    /// agent's.
    fn node_id(&self, view: &TreeView, path: &[Move]) -> egui::Id {
        self.id_at(self.key, view.agent, path)
    }

    fn id_at(&self, key: Option<PositionKey>, agent: &str, path: &[Move]) -> egui::Id {
        egui::Id::unique(("tree-node", self.game, key, agent, path.to_vec()))
    }

    fn set_open(&self, ctx: &egui::Context, view: &TreeView, path: &[Move]) {
        let mut state =
            egui::collapsing_header::CollapsingState::load_with_default_open(ctx, self.node_id(view, path), false);
        state.set_open(true);
        state.store(ctx);
    }

    /// Opens the node at `path` of agent `agent`'s tree of `root`, as its "expand" does.
    pub fn open(&self, ctx: &egui::Context, root: &AnyPosition, agent: &str, path: &[Move]) {
        let id = self.id_at(Some(PositionKey::of(root)), agent, path);
        let mut state = egui::collapsing_header::CollapsingState::load_with_default_open(ctx, id, false);
        state.set_open(true);
        state.store(ctx);
    }

    /// Whether the node at `path` of agent `agent`'s tree of `root` is open.
    pub fn is_open(&self, ctx: &egui::Context, root: &AnyPosition, agent: &str, path: &[Move]) -> bool {
        let id = self.id_at(Some(PositionKey::of(root)), agent, path);
        egui::collapsing_header::CollapsingState::load(ctx, id).is_some_and(|s| s.is_open())
    }
}

/// What stays the same while the tree's rows are drawn.
#[derive(Clone, Copy)]
struct Walk<'a> {
    view: &'a TreeView<'a>,
    tree: &'a TreeSnapshot,
}

/// Above an open node's children, where it is seen without scrolling past them: the pages of
/// its `kids` children (PAGE a page, the page kept at `page_id`), and a button fetching the
/// `hidden` children the snapshot left out. Gives the page to draw.
fn page_bar(
    ui: &mut egui::Ui,
    page_id: egui::Id,
    kids: usize,
    hidden: u32,
    waiting: bool,
    path: &[Move],
    out: &mut ExplorerOutput,
) -> usize {
    let pages = kids.div_ceil(PAGE).max(1);
    let page = ui.ctx().data(|d| d.get_temp::<usize>(page_id)).unwrap_or(0).min(pages - 1);
    if pages == 1 && hidden == 0 {
        return page;
    }
    ui.horizontal(|ui| {
        if pages > 1 {
            if ui.add_enabled(page > 0, egui::Button::new("previous").small()).clicked() {
                ui.ctx().data_mut(|d| d.insert_temp(page_id, page - 1));
            }
            let first = page * PAGE + 1;
            ui.weak(format!("{first}-{} of {}", (first + PAGE - 1).min(kids), kids));
            if ui.add_enabled(page + 1 < pages, egui::Button::new("next").small()).clicked() {
                ui.ctx().data_mut(|d| d.insert_temp(page_id, page + 1));
            }
        }
        if hidden > 0 {
            let b = ui.add_enabled(!waiting, egui::Button::new(format!("+{hidden} more")).small());
            if b.on_hover_text("fetch every child the search has").clicked() {
                out.fetch.push((path.to_vec(), FETCH_DEPTH, FETCH_ALL));
            }
        }
    });
    page
}

/// The mark of a node whose children come from a fresh search of it (the analysis recorded
/// fewer plies): its depth and value, which need not follow from the row's own.
fn fresh_mark(ui: &mut egui::Ui, fresh: &SnapNode, plies: u32) {
    let depth = fresh.alphabeta.as_ref().map_or(0, |a| a.depth);
    let value = node_score(fresh, plies).map_or(String::new(), |(s, b)| format!(", {}", full_label(s, b)));
    let color = ui.visuals().warn_fg_color;
    ui.label(egui::RichText::new(format!("searched afresh: depth {depth}{value}")).color(color)).on_hover_text(
        "the analysis recorded fewer plies than this: the rows below come from a new search of \
         this node, to this depth, so their values need not follow from this row's",
    );
}
