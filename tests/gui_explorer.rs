//! The search-tree explorer as a person uses it: a best line opened to its end while the search
//! runs, rows that hold still under the pointer, open nodes that belong to their position, and
//! a tree below a win in one.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use mnklab::agents::preset;
use mnklab::analysis::PositionKey;
use mnklab::app::{BottomTab, Workbench};
use mnklab::game::{Move, Variant};
use mnklab::search::tree::{MctsStats, SnapNode};
use mnklab::search::{Score, SearchLimits, TreeSnapshot};

use crate::common::{deepest, wait};

fn harness(w: Workbench) -> Harness<'static, Workbench> {
    crate::common::harness_sized(w, egui::vec2(1300.0, 900.0))
}

/// "expand PV" under an alpha-beta analysis that runs until stopped: the line opens to its end
/// below the plies the search records, while the search goes on, with its progress shown and
/// the nodes searched afresh marked with their depth. (It once waited for the search to end.)
#[test]
fn expand_pv_opens_the_line_while_the_search_runs() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("strong-ab").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::default());
    w.slot_mut(0).analysis_mut().set_seconds(0.0);
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 10.0, |w| w.analysis().tree().as_ref().is_some_and(|t| t.nodes.len() > 1)), "a first tree");
    let recorded = deepest(h.state().analysis().tree().as_ref().unwrap());
    h.get_by_label("expand PV").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("expanding the best line").is_some(), "its progress is shown");
    assert!(
        wait(&mut h, 40.0, |w| w.explorer().shown().is_some_and(|p| p.len() > recorded)),
        "the line opens below the {recorded} recorded plies: {:?} {:?}",
        h.state().explorer().shown(),
        h.state().analysis().error()
    );
    h.run_steps(2);
    assert!(h.state().analysis().running(), "while the search still runs");
    assert!(h.state().analysis().expansion().is_none(), "done");
    assert!(h.query_by_label_contains("expanding the best line").is_none());
    assert!(h.query_all_by_label_contains("searched afresh: depth").count() > 0, "fresh searches are marked");
    let line = h.state().explorer().shown().unwrap().to_vec();
    let root = h.state().position().clone();
    let mut p = root.clone();
    for m in &line {
        p.try_play(*m).expect("a legal line");
    }
    for k in 0..line.len() {
        assert!(h.state().explorer().is_open(&h.ctx, &root, "A", &line[..k]), "node {k} of the line is open");
    }
    // The line's end: the game is over there, or nothing below its last node.
    let tree = h.state().analysis().tree().cloned().unwrap();
    let end = tree.node_at(&line).expect("the line is in the tree");
    assert!(tree.nodes[end].children.is_empty());
    assert!(!mnklab::analysis::has_more(&tree.nodes[end]), "nothing more to fetch at the end");
    h.get_by_label("Stop A").click();
    assert!(wait(&mut h, 5.0, |w| !w.analysis().running()));
}

/// "stop expanding" ends the expansion at once, whatever is on its way.
#[test]
fn an_expansion_stops_on_request() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("strong-ab").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::default());
    w.slot_mut(0).analysis_mut().set_seconds(0.0);
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 10.0, |w| w.analysis().tree().as_ref().is_some_and(|t| t.nodes.len() > 1)), "a first tree");
    h.get_by_label("expand PV").click();
    h.run_steps(2);
    h.get_by_label("stop expanding").click();
    h.run_steps(2);
    assert!(h.state().analysis().expansion().is_none());
    assert!(h.query_by_label("expand PV").is_some(), "the button is back");
    h.get_by_label("Stop A").click();
    assert!(wait(&mut h, 5.0, |w| !w.analysis().running()));
}

fn mcts_node(mv: Option<Move>, order: u32, visits: u64, children: Vec<u32>) -> SnapNode {
    SnapNode {
        mv,
        order,
        children,
        mcts: Some(MctsStats {
            visits,
            mean: 0.5,
            exploration: 0.0,
            proven: None,
            rave_visits: 0,
            rave_mean: 0.0,
            prior: 0,
        }),
        alphabeta: None,
        hidden_children: 0,
    }
}

/// A running MCTS's tree of the start position: the root's children with these visits.
fn tree_with_visits(visits: &[u64]) -> TreeSnapshot {
    let total = visits.iter().sum();
    let mut nodes = vec![mcts_node(None, 0, total, (1..=visits.len() as u32).collect())];
    nodes.extend(visits.iter().enumerate().map(|(i, &v)| mcts_node(Some(Move(i as u16)), i as u32, v, vec![])));
    TreeSnapshot { nodes }
}

/// The rows' top edges, by the visits each row shows.
fn row_tops(h: &Harness<'static, Workbench>, visits: &[u64]) -> Vec<f32> {
    visits.iter().map(|v| h.get_by_label_contains(&format!("visits {v} ")).rect().min.y).collect()
}

/// Rows hold their order while the pointer is over the tree, whatever the search's numbers do,
/// and re-sort when it leaves. (A click on "show" once hit the row that had moved under it.)
#[test]
fn rows_hold_still_under_the_pointer() {
    let mut w = Workbench::new(Variant::connect4());
    w.show_tab(BottomTab::Explorer);
    let key = PositionKey::of(w.position());
    w.slot_mut(0).analysis_mut().set_key(Some(key));
    w.slot_mut(0).analysis_mut().set_tree(Some(tree_with_visits(&[10, 30, 20])));
    let mut h = harness(w);
    h.run();
    let tops = row_tops(&h, &[30, 20, 10]);
    assert!(tops[0] < tops[1] && tops[1] < tops[2], "most visited first: {tops:?}");
    // The pointer over the rows; the search's numbers change the ranking.
    h.get_by_label_contains("visits 20 ").hover();
    h.run();
    h.state_mut().slot_mut(0).analysis_mut().set_tree(Some(tree_with_visits(&[50, 31, 21])));
    h.run();
    let held = row_tops(&h, &[31, 21, 50]);
    assert_eq!(held, tops, "the rows stay where they were");
    assert!(h.query_by_label_contains("rows hold their order").is_some(), "and say so");
    // The pointer leaves: best first again.
    h.get_by_label("board").hover();
    h.run();
    h.run();
    let sorted = row_tops(&h, &[50, 31, 21]);
    assert!(sorted[0] < sorted[1] && sorted[1] < sorted[2], "re-sorted: {sorted:?}");
}

/// A position with a win in one: the candidate table, the board's mark and the explorer's
/// children still show the winning move, for alpha-beta and MCTS alike (they once vanished).
#[test]
fn a_win_in_one_keeps_its_table_mark_and_tree() {
    for name in ["strong-ab", "jeng-mcts", "strong-mcts"] {
        let mut w = Workbench::new(Variant::connect4());
        w.slot_mut(0).set(preset(name).unwrap());
        w.slot_mut(0).analysis_mut().set_seconds(1.0);
        w.show_tab(BottomTab::Explorer);
        let mut h = harness(w);
        h.run();
        // First player: 4, 5 and 6 on the bottom row; 3 or 7 wins.
        h.state_mut().paste_moves("445566");
        h.run();
        h.get_by_label("Start analysis A").click();
        assert!(wait(&mut h, 20.0, |w| !w.analysis().running() && w.analysis().result().is_some()), "{name} finishes");
        h.run();
        let pos = h.state().position().clone();
        let wins: Vec<Move> = ["3", "7"].iter().map(|m| pos.parse_move(m).unwrap()).collect();
        let rows = h.state().analysis().candidates(&pos);
        assert!(!rows.is_empty() && wins.contains(&rows[0].mv), "{name}: the table's top row wins: {rows:?}");
        // Alpha-beta proves it; an MCTS without a solver sees it as a near-certain win.
        let winning = match rows[0].score {
            Score::Win { .. } => true,
            Score::WinRate(r) => name.ends_with("mcts") && r > 0.9,
            _ => false,
        };
        assert!(winning, "{name}: {:?}", rows[0].score);
        let marks = h.state().analysis().heatmap(&pos);
        assert!(marks.first().is_some_and(|m| m.best && wins.contains(&m.mv)), "{name}: the board marks it");
        let tree = h.state().analysis().tree().cloned().expect("a tree");
        let children: Vec<Move> = tree.nodes[0].children.iter().filter_map(|&c| tree.nodes[c as usize].mv).collect();
        assert!(children.iter().any(|m| wins.contains(m)), "{name}: the explorer lists the win: {children:?}");
        assert!(h.query_by_label("no tree yet: start an analysis").is_none());
    }
}

/// Drags the bottom panel's top edge `by` pixels (negative: up, taller).
fn drag_panel(h: &mut Harness<'static, Workbench>, by: f32) {
    let tab = h.get_by_label("Explorer").rect();
    let edge = egui::pos2(tab.min.x + 200.0, tab.min.y - 6.0);
    h.hover_at(edge);
    h.run();
    h.drag_at(edge);
    h.run();
    h.hover_at(edge + egui::vec2(0.0, by));
    h.run();
    h.drop_at(edge + egui::vec2(0.0, by));
    h.run();
}

/// Before any analysis (the explorer has no tree, a short content): a panel dragged taller on
/// the Review tab keeps its height on the Explorer tab (it shrank back to its content).
#[test]
fn a_dragged_panel_keeps_its_height_over_a_short_tab() {
    let mut w = Workbench::new(Variant::gomoku());
    w.show_tab(BottomTab::Review);
    let mut h = harness(w);
    h.run();
    let before = h.get_by_label("board").rect();
    drag_panel(&mut h, -120.0);
    let dragged = h.get_by_label("board").rect();
    assert!(dragged.height() < before.height() - 20.0, "{before:?} -> {dragged:?}");
    for tab in ["Explorer", "Matchup", "Review", "Explorer"] {
        h.get_by_label(tab).click();
        h.run();
        assert_eq!(h.get_by_label("board").rect(), dragged, "after the {tab} tab");
    }
}

/// The bottom panel keeps the height the user dragged it to through tab switches and the
/// explorer's "show" and "Back to the game": the board never moves under the pointer (a click
/// once played a move the user did not aim at).
#[test]
fn panel_sizes_persist_and_the_board_holds_still() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("jeng-mcts").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::iterations(3000));
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 20.0, |w| !w.analysis().running() && w.analysis().tree().is_some()), "a tree");
    h.run();
    let before = h.get_by_label("board").rect();
    // The panel's top edge, just above its tab row: dragged 120 px up.
    drag_panel(&mut h, -120.0);
    let dragged = h.get_by_label("board").rect();
    assert!(dragged.height() < before.height() - 60.0, "the board made room: {before:?} -> {dragged:?}");
    for tab in ["Matchup", "Review", "Explorer"] {
        h.get_by_label(tab).click();
        h.run();
        assert_eq!(h.get_by_label("board").rect(), dragged, "after the {tab} tab");
    }
    // A node of the tree shown on the board, then the game again.
    h.get_all_by_label("show").next().expect("a row to show").click();
    h.run();
    assert!(h.state().preview().is_some());
    assert_eq!(h.get_by_label("board").rect(), dragged, "a tree position in the same place");
    h.get_by_label("Back to the game").click();
    h.run();
    assert_eq!(h.get_by_label("board").rect(), dragged, "back to the game");
    // Dragged again on the Review tab, 80 px further up: kept on the Explorer tab.
    h.get_by_label("Review").click();
    h.run();
    drag_panel(&mut h, -80.0);
    let again = h.get_by_label("board").rect();
    assert!(again.height() < dragged.height() - 40.0, "dragged on Review: {dragged:?} -> {again:?}");
    for tab in ["Explorer", "Matchup", "Review", "Explorer"] {
        h.get_by_label(tab).click();
        h.run();
        assert_eq!(h.get_by_label("board").rect(), again, "after the {tab} tab");
    }
}

/// The evaluation bar beside the board reads the shown agent's score of the position as the
/// first player's share, and says it in words on hover; it stays in place, empty, before any
/// analysis and while a position from the tree is shown.
#[test]
fn the_evaluation_bar_shows_the_first_players_share() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("jeng-mcts").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::iterations(5000));
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    let empty = h.get_by_label("evaluation bar").rect();
    assert!(h.state().eval_bar().is_none(), "nothing known yet");
    h.state_mut().paste_moves("4");
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 20.0, |w| !w.analysis().running() && w.analysis().result().is_some()), "A finishes");
    h.run();
    let bar = h.state().eval_bar().expect("a reading");
    let score = h.state().analysis().latest().as_ref().unwrap().score;
    let Score::WinRate(second) = score else { panic!("an MCTS rate: {score:?}") };
    assert!((bar.first_share as f64 - (1.0 - second)).abs() < 1e-6, "the second player moves: {bar:?}");
    assert_eq!(h.get_by_label("evaluation bar").rect(), empty, "the bar holds its place");
    h.get_all_by_label("show").next().expect("a row to show").click();
    h.run();
    assert!(h.state().eval_bar().is_none(), "a tree position is not the analysed one");
}

/// The bar reads the panel's score, for alpha-beta too (it once showed the mean of the last
/// two depths, -1.1 beside the panel's +1.000), turned to the first player's view.
#[test]
fn the_evaluation_bar_reads_the_panels_score() {
    let mut w = Workbench::new("gomoku".parse().unwrap());
    w.slot_mut(0).set(preset("strong-ab").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::depth(4));
    let mut h = harness(w);
    h.run();
    h.state_mut().paste_moves("h8 h7 i8");
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 30.0, |w| !w.analysis().running() && w.analysis().result().is_some()), "A finishes");
    h.run();
    let bar = h.state().eval_bar().expect("a reading");
    let latest = h.state().analysis().latest().cloned().unwrap();
    assert!(latest.depth >= 2, "two depths or more behind it");
    // The second player is to move: the bar's number is the panel's score in the first
    // player's view, as its fill is (the same standing read the same after every move).
    let Score::Eval(v) = latest.score else { panic!("an alpha-beta value: {:?}", latest.score) };
    let label = mnklab::analysis::short_label(Score::Eval(-v), mnklab::search::tree::Bound::Exact);
    assert_eq!(bar.label, label, "the bar's number is the panel's, for the first player");
}

/// "expand PV" under a finished MCTS analysis opens the best line to the end of the game: a
/// node the tree holds no children of (a leaf of the search, a node visited once) is searched
/// afresh, not the end of the line. (It stopped at the tree's edge, on a node visited once.)
#[test]
fn expand_pv_opens_an_mcts_line_to_the_end_of_the_game() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("jeng-mcts").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::iterations(20_000));
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 20.0, |w| !w.analysis().running() && w.analysis().tree().is_some()), "a finished tree");
    let recorded = deepest(h.state().analysis().tree().as_ref().unwrap());
    h.get_by_label("expand PV").click();
    assert!(
        wait(&mut h, 60.0, |w| w.analysis().expansion().is_none() && w.explorer().shown().is_some()),
        "the expansion ends: {:?}",
        h.state().analysis().expansion()
    );
    let line = h.state().explorer().shown().unwrap().to_vec();
    assert!(line.len() > recorded, "past the {recorded} plies of the tree: {}", line.len());
    let mut p = h.state().position().clone();
    for m in &line {
        p.try_play(*m).expect("a legal line");
    }
    assert!(p.status().is_over(), "the line ends where the game does: {} plies", line.len());
    assert!(h.query_all_by_label_contains("searched afresh").count() > 0, "fresh searches are marked");
    // Deep rows keep room for their text: the indentation stops where 420 px are left (at 20
    // plies a row had 150 px and wrapped to four lines; this line is longer).
    h.run();
    let tab = h.get_by_label("Explorer").rect().left()..(1300.0 - 560.0);
    let deepest_show = h.query_all_by_label("show").map(|n| n.rect().left()).fold(0.0, f32::max);
    // Right of "show": the row's text, at least 300 px of it.
    assert!(deepest_show < tab.end - 300.0, "a row's buttons at {deepest_show} px of {tab:?}");
}

/// More children than a page: the first 25 are shown with "1-25 of 30", "next" turns to the
/// rest, and the children the snapshot left out are offered as "+N more".
#[test]
fn the_children_come_a_page_at_a_time() {
    let mut w = Workbench::new("gomoku".parse().unwrap());
    w.show_tab(BottomTab::Explorer);
    let key = PositionKey::of(w.position());
    w.slot_mut(0).analysis_mut().set_key(Some(key));
    let visits: Vec<u64> = (1..=30).map(|v| v * 100).collect();
    let mut tree = tree_with_visits(&visits);
    tree.nodes[0].hidden_children = 3;
    w.slot_mut(0).analysis_mut().set_tree(Some(tree));
    let mut h = harness(w);
    h.run();
    assert!(h.query_by_label("1-25 of 30").is_some(), "the first page");
    assert!(h.query_by_label_contains("visits 3000 ").is_some(), "most visited first");
    assert!(h.query_by_label_contains("visits 500 ").is_none(), "the 26th is on the next page");
    assert!(h.query_by_label("+3 more").is_some(), "the children left out");
    h.get_by_label("next").click();
    h.run();
    h.run();
    assert!(h.query_by_label("26-30 of 30").is_some(), "the second page");
    assert!(h.query_by_label_contains("visits 500 ").is_some());
    assert!(h.query_by_label_contains("visits 3000 ").is_none());
    h.get_by_label("previous").click();
    h.run();
    h.run();
    assert!(h.query_by_label("1-25 of 30").is_some(), "back to the first");
}
