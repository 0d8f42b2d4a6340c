//! The workbench's analysis as a person uses it: what it shows is about the position on the
//! board and nothing else, the candidate table previews and plays lines, the explorer keeps
//! its open lines by move path, and the keyboard drives the game.
#![cfg(feature = "gui")]

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use mnklab::agents::preset;
use mnklab::app::{BottomTab, Workbench};
use mnklab::game::Variant;
use mnklab::search::{Score, SearchLimits};

use crate::common::wait;

use crate::scratch::Scratch;

fn harness(w: Workbench) -> Harness<'static, Workbench> {
    crate::common::harness_sized(w, egui::vec2(1300.0, 900.0))
}

/// A Connect-4 workbench whose agent A is MCTS with a small iteration budget.
fn mcts_bench(iterations: u64) -> Workbench {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("jeng-mcts").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::iterations(iterations));
    w
}

/// A Connect-4 workbench whose agent A is the solver preset, 5 s an analysis.
fn solver_on_connect4() -> Workbench {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("solver").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::time(5.0));
    w
}

/// A harness around `w` whose agent A has analysed the position: with its result.
fn analysed(w: Workbench) -> (Harness<'static, Workbench>, mnklab::search::SearchResult) {
    let mut h = harness(w);
    h.run();
    analyse_a(&mut h);
    let result = h.state().slots()[0].analysis().result().cloned().expect("a result");
    (h, result)
}

fn analyse_a(h: &mut Harness<'static, Workbench>) {
    h.get_by_label("Start analysis A").click();
    assert!(
        wait(h, 20.0, |w| !w.slots()[0].analysis().running() && w.slots()[0].analysis().result().is_some()),
        "A finishes"
    );
    h.run();
}

#[test]
fn analysis_of_an_earlier_position_is_never_shown() {
    let mut w = mcts_bench(3000);
    // A finished analysis that does not follow the game stays with its position.
    w.slot_mut(0).analysis_mut().set_follow(false);
    let mut h = harness(w);
    h.run();
    analyse_a(&mut h);
    assert!(!h.state().analysis().heatmap(h.state().position()).is_empty(), "candidates for this position");
    // A move on the board: the finished analysis is about the position before it.
    h.state_mut().play(mnklab::game::Move(3));
    h.run();
    assert!(h.state().analysis().heatmap(h.state().position()).is_empty(), "no stale candidates on the board");
    assert!(h.query_by_label_contains("for another position").is_some(), "the panel says so");
    // Back to the analysed position: it is current again.
    h.get_by_label("Back").click();
    h.run();
    assert!(!h.state().analysis().heatmap(h.state().position()).is_empty());
    // A new game of another variant: nothing of the old game's analysis remains.
    h.state_mut().set_variant_text("gomoku");
    h.state_mut().new_game();
    h.run();
    assert!(h.state().analysis().heatmap(h.state().position()).is_empty());
    h.state_mut().show_tab(BottomTab::Explorer);
    h.run();
    assert!(h.query_by_label_contains("no tree yet").is_some(), "no stale tree in the explorer");
}

/// Stepping back and forth between positions analysed before shows each one's finished
/// analysis again (not only the last one's), and an analysis by another agent is not shown
/// as this agent's.
#[test]
fn returning_to_a_position_analysed_before_shows_its_analysis_again() {
    let mut w = mcts_bench(3000);
    // Not following the game: what is shown on going back is the recalled analysis alone.
    w.slot_mut(0).analysis_mut().set_follow(false);
    let (mut h, at_start) = analysed(w);
    h.state_mut().play(mnklab::game::Move(3));
    h.run();
    analyse_a(&mut h);
    let after_d = h.state().slots()[0].analysis().result().cloned().expect("a result");
    // Back to the start: its own analysis, not the one after d.
    h.get_by_label("Back").click();
    h.run();
    assert!(h.query_by_label_contains("for another position").is_none(), "the start's analysis is current");
    assert_eq!(h.state().slots()[0].analysis().result(), Some(&at_start));
    assert!(!h.state().analysis().heatmap(h.state().position()).is_empty(), "its candidates on the board");
    // Forward again: the analysis after d.
    h.get_by_label("Forward").click();
    h.run();
    assert_eq!(h.state().slots()[0].analysis().result(), Some(&after_d));
    assert!(!h.state().analysis().heatmap(h.state().position()).is_empty());
    // Another agent in the slot: the start's MCTS analysis is not shown as its own.
    h.state_mut().slot_mut(0).set(preset("strong-ab").unwrap());
    h.get_by_label("Back").click();
    h.run();
    assert!(h.state().analysis().heatmap(h.state().position()).is_empty(), "no other agent's candidates");
}

/// Perfect play at a click: the solver, started once, gives each new position's proven
/// values as moves are played, though each of its analyses finishes; Stop ends that, and the
/// next position shows the last analysis as another position's.
#[test]
fn a_finished_analysis_follows_the_game_until_stopped() {
    let mut h = harness(solver_on_connect4());
    h.run();
    analyse_a(&mut h);
    assert!(h.state().slots()[0].analysis().follows(), "finished, and following the game");
    // Clicking the candidate row d plays it; the position after it is analysed at once.
    let d = h.state().slots()[0].analysis().candidates(h.state().position())[0].mv;
    assert_eq!(h.state().position().format_move(d), "d", "d is the winning first move");
    h.state_mut().play(d);
    h.run();
    assert!(
        wait(&mut h, 20.0, |w| !w.slots()[0].analysis().running()
            && w.slots()[0].analysis().is_for(w.position())
            && w.slots()[0].analysis().candidates(w.position()).len() == 7),
        "the position after d is analysed without a new start"
    );
    // After d, every reply loses but d (the second player's draw is not there: 1 d d is a
    // first-player win too); the values come from the built-in book.
    let rows = h.state().slots()[0].analysis().candidates(h.state().position());
    assert!(rows.iter().all(|c| c.score.is_proven()), "{rows:?}");
    assert!(h.query_all_by_label_contains("loss in").count() >= 7, "seven losses for the second player");
    // Back: the empty board's analysis is recalled, not searched again.
    h.get_by_label("Back").click();
    h.run();
    assert!(!h.state().slots()[0].analysis().running() && h.state().slots()[0].analysis().is_for(h.state().position()));
    assert!(h.query_all_by_label_contains("win in 41").count() >= 1);
    h.get_by_label("Forward").click();
    h.run();
    // Stop: no longer following; the next move shows the old analysis as another position's.
    h.get_by_label("Stop A").click();
    h.run();
    assert!(!h.state().slots()[0].analysis().follows());
    h.state_mut().play(d);
    h.run();
    assert!(!h.state().slots()[0].analysis().running(), "a stopped analysis does not start again");
    assert!(h.query_by_label_contains("for another position").is_some());
}

/// Found by a new-user trial: Space ends the following of a finished analysis too; going back
/// while the next position is still searched shows the finished analysis instead of searching
/// again; another agent in a following slot is analysed at once instead of showing the old
/// agent's table under its name; unticking `follow` ends an old start for good.
#[test]
fn following_ends_with_space_recalls_while_running_and_restarts_on_another_agent() {
    let mut w = mcts_bench(0);
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::default());
    w.slot_mut(0).analysis_mut().set_seconds(0.5);
    let (mut h, at_start) = analysed(w);
    // A move, and back at once while its search runs: the start's analysis, not a new search.
    h.state_mut().play(mnklab::game::Move(3));
    h.run();
    assert!(h.state().slots()[0].analysis().running(), "the new position is searched");
    h.get_by_label("Back").click();
    h.run();
    assert!(!h.state().slots()[0].analysis().running(), "no search of the start again");
    assert_eq!(h.state().slots()[0].analysis().result(), Some(&at_start));
    assert!(h.state().slots()[0].analysis().follows(), "still following");
    // Another agent in the slot: its own analysis starts.
    h.state_mut().slot_mut(0).set(preset("strong-ab").unwrap());
    h.run();
    assert!(
        wait(&mut h, 10.0, |w| !w.slots()[0].analysis().agent_differs(&w.slots()[0].file().agent)),
        "the new agent analyses"
    );
    assert!(wait(&mut h, 10.0, |w| !w.slots()[0].analysis().running()));
    // Space on the finished, following analysis ends the following.
    h.key_press(egui::Key::Space);
    h.run();
    assert!(!h.state().slots()[0].analysis().follows(), "Space stopped the following");
    h.state_mut().play(mnklab::game::Move(2));
    h.run();
    assert!(!h.state().slots()[0].analysis().running());
    // Started again, unticked, ticked: the old start is not revived.
    h.key_press(egui::Key::Space);
    assert!(wait(&mut h, 10.0, |w| !w.slots()[0].analysis().running() && w.slots()[0].analysis().is_for(w.position())));
    h.get_by_label("follow A").click();
    h.run();
    h.get_by_label("follow A").click();
    h.run();
    assert!(h.state().slots()[0].analysis().follow_ticked() && !h.state().slots()[0].analysis().follows());
}

#[test]
fn a_running_analysis_follows_the_position() {
    let mut w = mcts_bench(0);
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::default());
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 10.0, |w| w.slots()[0].analysis().reports() >= 2));
    h.state_mut().play(mnklab::game::Move(3));
    assert!(
        wait(&mut h, 10.0, |w| !w.analysis().heatmap(w.position()).is_empty()),
        "the analysis restarts on the new position"
    );
    assert!(h.state().slots()[0].analysis().is_for(h.state().position()));
    h.get_by_label("Stop A").click();
    assert!(wait(&mut h, 5.0, |w| !w.slots()[0].analysis().running()));
}

#[test]
fn the_candidate_table_previews_a_line_and_plays_a_move() {
    let mut h = harness(mcts_bench(20_000));
    h.run();
    analyse_a(&mut h);
    let pos = h.state().position().clone();
    let rows = h.state().slots()[0].analysis().candidates(&pos);
    assert!(rows.len() >= 2, "several candidates");
    let second = pos.format_move(rows[1].mv);
    // MCTS counts iterations: the rate says so.
    assert!(h.query_by_label_contains("iterations/s").is_some());
    assert!(h.query_by_label_contains("nodes/s").is_none(), "no 'nodes/s' for MCTS");
    assert!(h.query_all_by_label_contains("scores for the first player (to move)").count() >= 1, "whose scores");
    // Hover the second row's move: its line is previewed.
    h.get_all_by_role_and_label(Role::Button, &second).next().expect("a row button").hover();
    h.run();
    let line = h.state().slots()[0].analysis().hovered_line().map(<[_]>::to_vec).expect("a previewed line");
    assert_eq!(line[0], rows[1].mv);
    let ghosts = mnklab::app::line_ghosts(&pos, &line);
    assert_eq!(ghosts.len(), line.len().min(42));
    assert_eq!(ghosts[0].2, 1, "numbered from 1");
    // The row in words above the table (below it, a long table scrolled it out of view; in
    // a tooltip it covered the next row).
    h.run();
    let words: Vec<String> = line.iter().map(|&m| pos.format_move(m)).collect();
    let detail = h.get_by_label_contains(&format!("Line: {}", words.join(" "))).rect();
    let first = pos.format_move(rows[0].mv);
    let first_row = h.get_all_by_role_and_label(Role::Button, &first).next().unwrap().rect();
    assert!(detail.max.y <= first_row.min.y, "above the first row: {detail:?} {first_row:?}");
    assert!(h.query_by_label_contains("visits (").is_some(), "its visits");
    // Click it: the move is played.
    h.get_all_by_role_and_label(Role::Button, &second).next().unwrap().click();
    h.run();
    assert_eq!(h.state().position().history(), &[rows[1].mv]);
}

#[test]
fn explorer_nodes_stay_open_by_move_path() {
    let mut w = mcts_bench(5000);
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    analyse_a(&mut h);
    let tree = h.state().analysis().tree().cloned().expect("a tree");
    // Open the root's least visited shown child (the last by visits).
    let root = &tree.nodes[0];
    let least = root
        .children
        .iter()
        .map(|&c| &tree.nodes[c as usize])
        .filter(|n| !n.children.is_empty())
        .min_by_key(|n| n.mcts.as_ref().unwrap().visits)
        .expect("a child with children");
    let mv = least.mv.unwrap();
    let expand_buttons = h.get_all_by_label("expand").count();
    assert!(expand_buttons > 0);
    // Open it through the state (the buttons are all called "expand").
    let ctx = h.ctx.clone();
    let pos = h.state().position().clone();
    h.state().explorer().open(&ctx, &pos, "A", &[mv]);
    h.run();
    let is_open = |h: &Harness<'static, Workbench>, agent: &str, path: &[mnklab::game::Move]| {
        h.state().explorer().is_open(&h.ctx, &pos, agent, path)
    };
    assert!(is_open(&h, "A", &[mv]));
    // A new analysis of the same position re-sorts and renumbers the tree: the same line is open,
    // and no other.
    analyse_a(&mut h);
    assert!(is_open(&h, "A", &[mv]));
    let others = h.state().analysis().tree().cloned().unwrap();
    for &c in &others.nodes[0].children {
        let m = others.nodes[c as usize].mv.unwrap();
        if m != mv {
            assert!(!is_open(&h, "A", &[m]), "{m:?} opened by itself");
        }
    }
    // Agent B's tree does not inherit A's open nodes.
    assert!(!is_open(&h, "B", &[mv]));
    // Another position, where the same move is legal, has its own open nodes: none.
    h.state_mut().play(mv);
    h.run();
    let next = h.state().position().clone();
    assert!(!h.state().explorer().is_open(&h.ctx, &next, "A", &[mv]), "open at an unrelated position");
    // Back at the first position: still open. A new game at that same position: closed.
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert!(is_open(&h, "A", &[mv]), "open again at its own position");
    h.state_mut().new_game();
    h.run();
    assert!(h.state().position().history().is_empty(), "the same start position");
    assert!(!is_open(&h, "A", &[mv]), "the last game's nodes are closed in a new game");
}

#[test]
fn keys_step_through_the_game_and_paste_a_line() {
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    h.state_mut().paste_moves("4453");
    h.run();
    assert_eq!(h.state().position().ply(), 4);
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().position().ply(), 3);
    h.key_press(egui::Key::Home);
    h.run();
    assert_eq!(h.state().position().ply(), 0);
    h.key_press(egui::Key::End);
    h.run();
    assert_eq!(h.state().position().ply(), 4);
    h.key_press(egui::Key::ArrowLeft);
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!(h.state().position().ply(), 4);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(h.state().position().ply(), 3, "Ctrl+Z takes back the last move");
    // Space starts the analysis of the shown agent, and stops it.
    h.key_press(egui::Key::Space);
    h.run();
    assert!(h.state().slots()[0].analysis().running() || h.state().slots()[0].analysis().result().is_some());
    // A bad string is refused and the game kept.
    h.state_mut().paste_moves("4 4 4 4 4 4 4");
    h.run();
    assert_eq!(h.state().position().ply(), 3);
    assert!(h.state().message().unwrap_or("").contains("not a move string"));
    // F1 opens the help with every shortcut.
    h.key_press(egui::Key::F1);
    h.run();
    assert!(h.query_by_label("Keyboard shortcuts").is_some());
    assert!(h.query_by_label_contains("take back the last move").is_some());
}

#[test]
fn two_agents_side_by_side_mark_where_they_differ() {
    let mut w = mcts_bench(3000);
    w.slot_mut(1).set(preset("strong-ab").unwrap());
    w.slot_mut(1).edit(|f| f.limits = SearchLimits::depth(4));
    w.slot_mut(0).analysis_mut().set_candidates_shown(3);
    w.slot_mut(1).analysis_mut().set_candidates_shown(3);
    let mut h = harness(w);
    h.run();
    h.state_mut().paste_moves("4453");
    h.get_by_label("Start analysis A").click();
    h.get_by_label("Start analysis B").click();
    assert!(wait(&mut h, 20.0, |w| w
        .slots()
        .iter()
        .all(|s| !s.analysis().running() && s.analysis().result().is_some())));
    h.run();
    h.run();
    let pos = h.state().position().clone();
    let (a, b) = (h.state().slots()[0].analysis().candidates(&pos), h.state().slots()[1].analysis().candidates(&pos));
    assert_eq!(a.len(), 3);
    assert_eq!(b.len(), 3);
    let agree = mnklab::analysis::agreement(&a, &b);
    assert_eq!(h.query_all_by_label("≠").count(), agree.only_in_one.len(), "a mark per move only one agent lists");
    let says = h.query_all_by_label_contains("prefers").count() > 0;
    assert_eq!(says, !agree.same_best, "a different best move is said");
}

/// A proof still running lists its moves unproved, in no order of merit: the other agent's
/// table does not read its first row as a preference (a new-user trial saw "agent A prefers
/// a" beside a solver whose every row was `?`).
#[test]
fn an_unproved_table_prefers_no_move() {
    let connect4 = Variant::connect4();
    let depth = mnklab::search::solver::builtin_book(&connect4).unwrap().depth as usize;
    let mut w = solver_on_connect4();
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::time(30.0));
    w.slot_mut(1).set(preset("strong-ab").unwrap());
    w.slot_mut(1).edit(|f| f.limits = SearchLimits::depth(4));
    let mut h = harness(w);
    h.run();
    // At the book's depth: the value at once, then seconds proving a move that keeps it (see
    // tests/book.rs), every row `?` meanwhile.
    h.state_mut().paste_moves(&"1212767627"[..depth]);
    h.get_by_label("Start analysis A").click();
    h.get_by_label("Start analysis B").click();
    let unproved = |w: &Workbench| {
        let rows = w.slots()[0].analysis().candidates(w.position());
        !rows.is_empty() && rows.iter().all(|c| c.score == mnklab::search::Score::Unknown)
    };
    assert!(
        wait(&mut h, 20.0, |w| unproved(w)
            && !w.slots()[1].analysis().running()
            && w.slots()[1].analysis().result().is_some()),
        "A still proving a move when B is done"
    );
    h.run();
    assert!(unproved(h.state()), "the move took longer than this");
    assert_eq!(h.query_all_by_label_contains("agent A prefers").count(), 0, "A prefers nothing yet");
    // B's preference is real, and A's table says so while A has none.
    assert_eq!(h.query_all_by_label_contains("agent B prefers").count(), 1);
    // The board's legend is the proofs' one, which explains the `?` in its cells.
    let key = mnklab::analysis::legend(true, false).key.unwrap();
    assert_eq!(h.query_all_by_label(key).count(), 1, "the proof legend while every move is `?`");
    h.get_by_label("Stop A").click();
    h.run();
    // B stopped, then given another preset: its old agent's preference and tree are not the
    // new agent's, in A's table or in the explorer.
    h.state_mut().slot_mut(1).analysis_mut().stop();
    h.state_mut().slot_mut(1).set(preset("jeng-mcts").unwrap());
    h.run();
    assert_eq!(h.query_all_by_label_contains("agent B prefers").count(), 0, "strong-ab's choice, not jeng-mcts'");
    let pos = h.state().position().clone();
    assert!(h.state().slots()[1].analysis().candidates(&pos).is_empty(), "B's table forgets strong-ab's rows");
    h.get_by_label("agent B").click();
    h.state_mut().show_tab(BottomTab::Explorer);
    h.run();
    assert!(h.query_by_label_contains("no tree yet").is_some(), "nor does the explorer show its tree");
}

#[test]
fn an_error_line_does_not_move_the_buttons_below_it() {
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    h.get_by_label("File A").click();
    h.run();
    let before = h.get_by_label("Save agent A").rect();
    let board = h.get_by_label("board").rect();
    let text = h.state().slots()[0].ron_text().to_string();
    // A long complaint: a field named at length, which the editor's error repeats.
    h.state_mut().slot_mut(0).set_ron_text("(a_long_complaint_about_the_exploration_constant_that_goes_on_and_on: 1)");
    assert!(h.state().slots()[0].error().is_some_and(|e| e.len() > 60), "{:?}", h.state().slots()[0].error());
    h.state_mut().set_message(Some("a notice in the status line".into()));
    h.run();
    assert_eq!(h.get_by_label("Save agent A").rect(), before, "the button stays under the pointer");
    assert_eq!(h.get_by_label("board").rect(), board, "the board keeps its place");
    h.state_mut().slot_mut(0).set_ron_text(&text);
    assert_eq!(h.state().slots()[0].error(), None);
    h.state_mut().set_message(None);
    h.run();
    assert_eq!(h.get_by_label("Save agent A").rect(), before);
}

/// The explorer opens any node to any depth: "+N more" fetches every child the finished search
/// has (paged 25 at a time), "expand PV" opens the best line to the end of the game (searching
/// deeper nodes afresh as it goes) and shows it, with a breadcrumb and the shown node
/// highlighted.
#[test]
fn the_explorer_fetches_deeper_nodes_pages_children_and_expands_the_pv() {
    let mut w = Workbench::new("mnk:9,9,5".parse().unwrap());
    w.slot_mut(0).set(preset("jeng-mcts").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::iterations(20_000));
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    analyse_a(&mut h);
    let tree = h.state().analysis().tree().cloned().unwrap();
    let shown = tree.nodes[0].children.len();
    let hidden = tree.nodes[0].hidden_children as usize;
    assert!(shown <= 12 && hidden > 0, "the first snapshot is 12 children wide: {shown} + {hidden}");
    h.get_by_label(&format!("+{hidden} more")).click();
    // Not `run()`: the app repaints until the subtree arrives, which may take any number of frames.
    h.run_steps(3);
    assert!(wait(&mut h, 10.0, |w| w.analysis().fetching().is_empty()), "the subtree arrives");
    h.run();
    let tree = h.state().analysis().tree().cloned().unwrap();
    let all = tree.nodes[0].children.len();
    assert_eq!(all, shown + hidden, "every child of the root is listed now; {:?}", h.state().analysis().error());
    assert_eq!(tree.nodes[0].hidden_children, 0);
    // Paged: 25 rows, then the next 25.
    assert!(all > 25);
    h.get_by_label(&format!("1-25 of {all}"));
    h.get_by_label("next").click();
    h.run();
    h.get_by_label(&format!("26-50 of {all}"));
    // Expand PV: the best line is opened to its end, deeper than the first snapshot's 6
    // plies where the search went deeper, and its last node is shown on the board.
    h.get_by_label("expand PV").click();
    assert!(
        wait(&mut h, 10.0, |w| w.explorer().shown().is_some_and(|p| !p.is_empty())
            && w.analysis().fetching().is_empty()),
        "the PV is expanded"
    );
    h.run();
    let line = h.state().explorer().shown().unwrap().to_vec();
    for k in 0..line.len() {
        let root = h.state().position().clone();
        assert!(h.state().explorer().is_open(&h.ctx, &root, "A", &line[..k]), "node {k} of the PV is open");
    }
    let tree = h.state().analysis().tree().cloned().unwrap();
    let end = tree.node_at(&line).expect("the line is in the tree");
    assert!(tree.nodes[end].children.is_empty() && tree.nodes[end].hidden_children == 0, "the line ends there");
    assert!(h.state().preview().is_some(), "the PV's last position is on the board");
    h.get_by_label("root");
    h.get_by_label("shown:");
    // The breadcrumb's first step (after "… N plies" where the line is long: it names the
    // last 12) shows that node.
    let k = line.len().saturating_sub(12);
    let mut at = h.state().position().clone();
    for m in &line[..k] {
        at.try_play(*m).unwrap();
    }
    let step = at.format_move(line[k]);
    h.get_all_by_label(&step).next().unwrap().click();
    h.run();
    assert_eq!(h.state().explorer().shown(), Some(&line[..=k]));
}

/// ↑/↓ move between the moves tried at the same point: two other moves played after "d d"
/// are variations there, and ↓ cycles through all three lines, ↑ back.
#[test]
fn up_and_down_switch_between_variations() {
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    let line = |h: &Harness<'static, Workbench>| h.state().position().history_string();
    h.state_mut().paste_moves("4455");
    h.run();
    // Back to "d d" twice, each time playing another third move: the line left is kept as a
    // variation branching there.
    for alt in [3usize, 6] {
        h.key_press(egui::Key::End);
        h.run();
        while h.state().position().ply() > 2 {
            h.key_press(egui::Key::ArrowLeft);
            h.run();
        }
        h.state_mut().play(mnklab::game::Move(alt as u16));
        h.run();
    }
    let dd = h.state().record().find(&h.state().record().path(h.state().record().current())[..2]).unwrap();
    assert_eq!(h.state().record().children(dd).len(), 3, "three third moves tried after d d");
    let start = line(&h);
    let mut seen = vec![start.clone()];
    for _ in 0..2 {
        h.key_press(egui::Key::ArrowDown);
        h.run();
        assert_eq!(h.state().position().ply(), 3, "the switch lands on the branching move");
        seen.push(line(&h));
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 3, "↓ visits every move tried after d d: {seen:?}");
    h.key_press(egui::Key::ArrowDown);
    h.run();
    assert_eq!(line(&h), start, "and comes back round");
    h.key_press(egui::Key::ArrowDown);
    h.run();
    let after = line(&h);
    h.key_press(egui::Key::ArrowUp);
    h.run();
    assert_eq!(line(&h), start, "↑ goes back");
    assert_ne!(after, start);
}

/// Each explorer row carries the statistics that explain the choice: for MCTS the selection
/// score as exploit + explore, for alpha-beta the move that caused a cutoff.
#[test]
fn explorer_rows_explain_the_choice() {
    let mut w = mcts_bench(3000);
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    analyse_a(&mut h);
    assert!(h.query_all_by_label_contains("= exploit ").count() > 0, "MCTS rows show ucb = exploit + explore");
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("strong-ab").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::depth(6));
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    analyse_a(&mut h);
    assert!(h.query_all_by_label_contains("cutoff by ").count() > 0, "alpha-beta rows name the refuting move");
}

/// Ctrl+Z in Edit position takes back the last edit; Ctrl+V of a position's RON text opens it
/// as the game (a move string is played from the start, as before).
#[test]
fn undo_edits_and_paste_a_position() {
    let mut h = harness(Workbench::new(Variant::tictactoe()));
    h.run();
    h.get_by_label("Edit position").click();
    h.run();
    h.state_mut().edit_mut().unwrap().click(1, 1);
    h.state_mut().edit_mut().unwrap().click(0, 0);
    h.run();
    assert!(h.state().edit().unwrap().stone(0, 0).is_some());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    let edit = h.state().edit().unwrap();
    assert!(edit.stone(0, 0).is_none() && edit.stone(1, 1).is_some(), "only the last edit is taken back");
    h.get_by_label("Edit position").click();
    h.run();
    assert!(h.state().edit().is_none());
    h.event(egui::Event::Paste(r#"(variant: "mnk:5,5,4", moves: ["c3", "b2", "c2"])"#.into()));
    h.run();
    assert_eq!(h.state().position().variant().to_string(), "mnk:5,5,4");
    assert_eq!(h.state().position().ply(), 3, "{:?}", h.state().message());
    h.event(egui::Event::Paste("c3 d4".into()));
    h.run();
    assert_eq!(h.state().position().ply(), 2, "a move string is played from the start");
}

/// Placing a stone in Edit position makes the board differ from the analysed position: the
/// analysis is shown as about an earlier position, not as current.
#[test]
fn editing_the_position_hides_the_analysis_of_the_game() {
    let mut h = harness(mcts_bench(3000));
    h.run();
    analyse_a(&mut h);
    assert!(h.query_by_label_contains("for another position").is_none());
    h.get_by_label("Edit position").click();
    h.run();
    h.state_mut().edit_mut().unwrap().click(5, 0);
    h.run();
    assert!(h.query_by_label_contains("for another position").is_some(), "the old analysis is not shown as current");
    assert!(h.query_by_label_contains("no tree yet").is_some(), "nor its tree");
}

/// The board keeps its place whether or not there is analysis to mark on it (the legend line
/// above it once came and went with the marks), and Enter in the Game field starts that game.
#[test]
fn the_board_does_not_move_when_analysis_comes_and_goes() {
    let mut h = harness(mcts_bench(3000));
    h.run();
    let before = h.get_by_label("board").rect();
    analyse_a(&mut h);
    assert!(!h.state().analysis().heatmap(h.state().position()).is_empty());
    assert_eq!(h.get_by_label("board").rect(), before);
    h.state_mut().set_variant_text("tictactoe");
    h.get_by_label("Game").click();
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().position().variant(), Variant::tictactoe(), "Enter in the Game field starts that game");
    assert_eq!(h.state().file_path(), "", "a new game names no file");
}

/// While the search runs, "+N more" is answered by the running search itself (between
/// iterations), not after it stops.
#[test]
fn the_explorer_fetches_subtrees_while_the_search_runs() {
    let mut w = Workbench::new("mnk:9,9,5".parse().unwrap());
    w.slot_mut(0).set(preset("jeng-mcts").unwrap());
    // No limit: it runs until stopped.
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::default());
    w.slot_mut(0).analysis_mut().set_seconds(0.0);
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    h.run_steps(2);
    assert!(
        wait(&mut h, 10.0, |w| w.analysis().tree().as_ref().is_some_and(|t| t.nodes[0].hidden_children > 0)),
        "a first snapshot arrives"
    );
    h.run_steps(2);
    let hidden = h.state().analysis().tree().as_ref().unwrap().nodes[0].hidden_children;
    let label = h.query_by_label_contains("more").map(|n| n.rect());
    assert!(label.is_some(), "a '+N more' button ({hidden} hidden)");
    h.get_by_label_contains(" more").click();
    h.run_steps(2);
    assert!(
        wait(&mut h, 5.0, |w| w.analysis().fetching().is_empty()
            && w.analysis().tree().as_ref().is_some_and(|t| t.nodes[0].hidden_children == 0)),
        "the subtree arrives: {:?}",
        h.state().analysis().error()
    );
    assert!(h.state().analysis().running(), "while the search is still running");
    h.run();
    assert!(h.query_by_label_contains("   running").is_some());
    h.get_by_label("Stop A").click();
    assert!(wait(&mut h, 5.0, |w| !w.analysis().running()));
    h.run();
    // Stopped by the user, not finished: said so (it once read "finished").
    assert!(h.query_by_label_contains("   stopped").is_some());
    assert!(h.query_by_label_contains("   finished").is_none());
}

/// "fix the config first" goes once the config is valid again (it stayed after the fix).
#[test]
fn a_fixed_config_clears_its_complaint() {
    let mut h = harness(mcts_bench(1000));
    h.run();
    h.state_mut().slot_mut(0).set_ron_text("(a config broken in the editor");
    h.get_by_label("Start analysis A").click();
    h.run();
    assert!(h.query_by_label_contains("fix the config first").is_some());
    h.state_mut().slot_mut(0).set(preset("jeng-mcts").unwrap());
    h.run();
    assert!(h.query_by_label_contains("fix the config first").is_none(), "the stale complaint is gone");
    assert!(h.state().slots()[0].analysis().error().is_none());
}

/// Results shown after the config was changed (or broken, so it cannot start again) say they
/// are the previous config's, not "finished" under the new one's name; a fixed config that
/// follows the game analyses again and the mark goes.
#[test]
fn results_of_a_changed_config_are_marked_as_the_previous_ones() {
    let mut h = harness(mcts_bench(1000));
    h.run();
    analyse_a(&mut h);
    assert!(h.query_by_label_contains("finished, by the previous config").is_none());
    h.state_mut().slot_mut(0).set_ron_text("(a config broken in the editor");
    h.run();
    assert!(h.query_by_label_contains("finished, by the previous config").is_some(), "a broken config");
    assert!(h.state().slots()[0].analysis().result().is_some(), "what arrived stays");
    let mut other = preset("jeng-mcts").unwrap();
    other.limits = SearchLimits::iterations(1000);
    if let mnklab::agents::AgentConfig::Mcts(c) = &mut other.agent {
        c.exploration *= 2.0;
    }
    let fixed = other.agent.clone();
    h.state_mut().slot_mut(0).set(other);
    h.run();
    assert!(wait(&mut h, 20.0, |w| !w.slots()[0].analysis().running()), "the fixed config's analysis finishes");
    h.run();
    assert!(!h.state().slots()[0].analysis().agent_differs(&fixed), "the fixed config analysed again");
    assert!(h.state().slots()[0].analysis().result().is_some());
    assert!(h.query_by_label_contains("finished, by the previous config").is_none());
}

/// A finished game opened with no analysis started says so in each slot, not "no analysis
/// yet" (as if a Start would give one).
#[test]
fn a_finished_game_says_the_game_is_over_before_any_start() {
    let mut w = mcts_bench(100);
    w.paste_moves("d a d a d a d");
    let mut h = harness(w);
    h.run();
    assert!(h.state().position().status().is_over());
    assert_eq!(h.query_all_by_label_contains("the game is over: nothing to analyse").count(), 2, "both slots");
    assert!(h.query_by_label_contains("no analysis yet").is_none());
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_eq!(h.query_all_by_label_contains("no analysis yet").count(), 2, "a live position again");
}

/// A running analysis that follows the game to its end waits there (saying at once that the game
/// is over) and resumes, without the stale complaint, as soon as the board shows a live position.
#[test]
fn a_following_analysis_waits_at_the_end_and_resumes() {
    let mut w = mcts_bench(0);
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::default());
    w.paste_moves("d a d a d a d");
    w.back();
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 10.0, |w| w.slots()[0].analysis().reports() >= 1));
    h.key_press(egui::Key::End);
    h.run();
    assert!(h.state().position().status().is_over());
    // At once, not when the stopped search's last report comes in (which took longer than a
    // frame on a busy machine: the panel said "searching..." at the end of the game).
    assert!(!h.state().slots()[0].analysis().running() && h.state().slots()[0].analysis().waiting());
    assert_eq!(h.query_all_by_label_contains("the game is over").count(), 2, "A's and B's (never started)");
    h.key_press(egui::Key::ArrowLeft);
    assert!(wait(&mut h, 5.0, |w| w.slots()[0].analysis().running()), "it resumes on the live position");
    h.run_steps(2);
    assert!(h.query_by_label_contains("the game is over").is_none(), "no stale complaint");
    h.state_mut().slot_mut(0).analysis_mut().stop();
    assert!(wait(&mut h, 5.0, |w| !w.slots()[0].analysis().running()));
}

/// Alpha-beta records two plies of its tree; "expand PV" goes on below them, each frontier
/// node searched afresh by the worker, so the line opens deeper than the recorded plies.
#[test]
fn alpha_beta_lines_open_below_the_recorded_plies() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("strong-ab").unwrap());
    w.slot_mut(0).analysis_mut().set_seconds(0.3);
    w.show_tab(BottomTab::Explorer);
    let mut h = harness(w);
    h.run();
    analyse_a(&mut h);
    let recorded = crate::common::deepest(h.state().analysis().tree().as_ref().unwrap());
    h.get_by_label("expand PV").click();
    assert!(
        wait(&mut h, 30.0, |w| w.explorer().shown().is_some_and(|p| p.len() > recorded)
            && w.analysis().fetching().is_empty()),
        "the PV opens below the {recorded} recorded plies: {:?} {:?}",
        h.state().explorer().shown(),
        h.state().analysis().error()
    );
    let line = h.state().explorer().shown().unwrap().to_vec();
    let mut p = h.state().position().clone();
    for m in &line {
        p.try_play(*m).expect("a legal line");
    }
}

/// Agent A's analysis of connect:5,4,4 after c c, five candidates: each row's value proven.
fn every_candidate_proven_on_connect544(agent: mnklab::agents::AgentFile) -> Harness<'static, Workbench> {
    let mut w = Workbench::new("connect:5,4,4".parse().unwrap());
    w.slot_mut(0).set(agent);
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::time(10.0));
    w.slot_mut(0).analysis_mut().set_candidates_shown(5);
    let mut h = harness(w);
    h.run();
    h.state_mut().paste_moves("33");
    analyse_a(&mut h);
    h.run();
    let pos = h.state().position().clone();
    let rows = h.state().slots()[0].analysis().candidates(&pos);
    assert_eq!(rows.len(), 5, "one row per legal move");
    assert!(rows.iter().all(|c| c.score.is_proven()), "{rows:?}");
    h
}

/// The solver beside the heuristic agents: its candidate rows carry proven values.
#[test]
fn the_solver_shows_a_proven_value_per_candidate() {
    let h = every_candidate_proven_on_connect544(preset("solver").unwrap());
    // What a person sees: the values in words.
    let shown = ["win in", "loss in", "draw"].iter().map(|t| h.query_all_by_label_contains(t).count()).sum::<usize>();
    assert!(shown >= 5, "proven values shown: {shown}");
    // The board's legend explains the cells' labels (W3, =, L2, ?) instead of the heuristic
    // scale's bounds, which a proof has none of.
    assert_eq!(h.query_all_by_label("W/L (n): win/loss (in n plies), = draw, ? unproved").count(), 1);
    assert_eq!(h.query_all_by_label_contains("refuted").count(), 0);
}

/// A solver on a board of more than 20 cells lists and marks every move, not the first 20
/// (a new-user trial saw mnk:5,5,4's last column left blank), and the candidates slider
/// reaches every move.
#[test]
fn a_solver_marks_every_move_of_a_large_board() {
    let mut w = Workbench::new("mnk:5,5,4".parse().unwrap());
    w.slot_mut(0).set(preset("solver").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::time(10.0));
    let mut h = harness(w);
    h.run();
    analyse_a(&mut h);
    let pos = h.state().position().clone();
    assert_eq!(h.state().slots()[0].analysis().candidates(&pos).len(), 25, "a row per cell");
    let marks = h.state().analysis().heatmap(&pos);
    assert_eq!(marks.len(), 25, "a mark per cell");
    assert!(marks.iter().all(|m| m.label == "="), "5,5,4 is a draw whatever the first move");
    assert!(h.query_all_by_label_contains("candidates").count() >= 1);
    // Lowered by the user, the table and the board follow.
    h.state_mut().slot_mut(0).analysis_mut().set_candidates_shown(7);
    h.run();
    assert_eq!(h.state().analysis().heatmap(&pos).len(), 7);
}

/// Before any analysis, and for a heuristic agent, the legend is the heuristic scale's; it
/// names bounds only where a candidate is one (MCTS has none: "refuted" misled a trial).
#[test]
fn the_legend_is_the_heuristic_scale_without_proofs() {
    let mut h = harness(Workbench::new("connect:5,4,4".parse().unwrap()));
    h.run();
    assert_eq!(h.query_all_by_label("weaker").count(), 1);
    assert_eq!(h.query_all_by_label("refuted (≤ bound)").count(), 0, "no bound on the board");
    assert_eq!(h.query_all_by_label_contains("win/loss in n").count(), 0);
}

/// The solver preset with its `book` field naming `path`.
fn solver_with_book(path: &std::path::Path) -> mnklab::agents::AgentFile {
    let mut solver = preset("solver").unwrap();
    if let mnklab::agents::AgentConfig::Solver(c) = &mut solver.agent {
        c.book = Some(path.display().to_string());
    }
    solver
}

/// A connect:5,4,4 book of `depth` written in `dir`: its path.
fn small_book(dir: &Scratch, depth: u32) -> std::path::PathBuf {
    let path = dir.join("small.book");
    let small: Variant = "connect:5,4,4".parse().unwrap();
    let (book, _) = mnklab::search::solver::build_book(&small.grid().unwrap(), depth, 16, 1, |_, _| {}).unwrap();
    book.save(&path).unwrap();
    path
}

/// A solver given a book made for another game plays without it and says so beside the
/// analysis (not only on a terminal no one watches); where mnklab ships a book for the game,
/// that one answers instead.
#[test]
fn a_book_for_another_game_is_named_beside_the_analysis() {
    let dir = Scratch::new("gui-book");
    let path = small_book(&dir, 2);
    let mut w = Workbench::new("connect:6,5,4".parse().unwrap());
    w.slot_mut(0).set(solver_with_book(&path));
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::time(1.0));
    let mut h = harness(w);
    h.run();
    h.state_mut().paste_moves("3344");
    analyse_a(&mut h);
    let shown = h.query_all_by_label_contains("is for connect:5,4,4, not connect:6,5,4: searched instead").count();
    assert!(shown >= 1, "the notice is shown: {:?}", h.state().slots()[0].analysis().notice());
    assert_eq!(h.state().slots()[0].analysis().error(), None, "a notice, not an error");
    assert!(h.state().slots()[0].analysis().result().as_ref().unwrap().best.is_some(), "it still plays");
    assert_eq!(h.query_all_by_label_contains("the built-in book answers").count(), 0, "there is none");

    // On Connect-4 the built-in book answers instead (as with no file named): the empty
    // board's values at once, not a long proof.
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(solver_with_book(&path));
    let mut h = harness(w);
    h.run();
    analyse_a(&mut h);
    let a = &h.state().slots()[0].analysis();
    // The file named beside "the book named", not beside the built-in book (read as its place).
    let said = format!(
        "solver: the book named ({}) is for connect:5,4,4, not connect:7,6,4: the built-in book answers",
        path.display()
    );
    assert_eq!(a.notice(), Some(said.as_str()));
    assert_eq!(a.result().as_ref().unwrap().stats.nodes, 0, "answered from the built-in book");
    // And the answer is credited to the book that gave it, not to the file refused (a
    // new-user trial saw "solver: from the book small.book" after the refusal).
    assert_eq!(a.info(), Some("solver: from the built-in book"));
    assert!(h.query_all_by_label_contains("win in 41").count() >= 1);
}

/// A book file damaged after the agent was set (its config checked then) is not used in
/// silence: the analysis says why beside the readout, and once the file is mended the next
/// analysis reads it (a new-user trial saw a damaged book ignored without a word, and the
/// mended one ignored too until a restart).
#[test]
fn a_book_damaged_after_the_agent_was_set_is_named_and_read_again_once_mended() {
    let dir = Scratch::new("gui-book-damaged");
    let path = small_book(&dir, 4);
    let good = std::fs::read(&path).unwrap();
    let mut w = Workbench::new("connect:5,4,4".parse().unwrap());
    w.slot_mut(0).set(solver_with_book(&path));
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::time(2.0));
    w.slot_mut(0).analysis_mut().set_follow(false);
    let mut h = harness(w);
    h.run();
    h.state_mut().paste_moves("cd");
    // Damaged after the config was checked: one byte of a position's value flipped.
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x5a;
    std::fs::write(&path, &bad).unwrap();
    analyse_a(&mut h);
    let a = &h.state().slots()[0].analysis();
    let notice = a.notice().unwrap_or_default().to_string();
    assert!(notice.starts_with("solver: book file not used: "), "{notice:?}");
    assert!(notice.contains("searched instead"), "no built-in book for this board: {notice:?}");
    assert!(h.query_all_by_label_contains("solver: book file not used").count() >= 1, "shown");
    assert!(a.result().as_ref().unwrap().stats.nodes > 0, "it searched");
    // Mended: the next analysis answers from it.
    std::fs::write(&path, &good).unwrap();
    h.state_mut().paste_moves("cdc");
    analyse_a(&mut h);
    let a = &h.state().slots()[0].analysis();
    assert_eq!(a.notice(), None, "{:?}", a.notice());
    assert_eq!(a.info(), Some(format!("solver: from the book {}", path.display()).as_str()));
}

/// The solver preset on the empty Connect-4 board answers from the book mnklab ships: every
/// first move's proven value at once (d wins in 41, c and e draw), and the analysis line
/// says where the answer came from, in the text colour (it is not a warning).
#[test]
fn the_built_in_book_answers_the_first_connect4_move_and_says_so() {
    let mut h = harness(solver_on_connect4());
    h.run();
    analyse_a(&mut h);
    let a = &h.state().slots()[0].analysis();
    // A solver's table shows every move without the candidates slider being raised.
    assert_eq!(a.candidates(h.state().position()).len(), 7, "a row per column");
    assert_eq!(a.error(), None);
    assert_eq!(a.result().as_ref().unwrap().stats.nodes, 0, "answered without a search");
    assert!(h.query_all_by_label_contains("solver: from the built-in book").count() >= 1, "{:?}", a.info());
    assert!(h.query_all_by_label_contains("win in 41").count() >= 1);
    assert!(h.query_all_by_label_contains("draw").count() >= 2, "c and e");
    assert!(h.query_all_by_label_contains("loss in").count() >= 4, "a, b, f and g");
}

/// At the window's default size, which is the README's screenshot size (1300 x 860), a solver's
/// table shows all seven Connect-4 moves without scrolling: the last rows (a and g, "loss in
/// 40") sit above the row below the agents' area, not hidden under it.
#[test]
fn a_solvers_seven_rows_fit_at_the_default_size() {
    let [w, h] = mnklab::app::DEFAULT_WINDOW_SIZE;
    assert_eq!([w, h], [1300.0, 860.0], "the README's screenshots are made at the default size");
    let mut h = crate::common::harness_sized(solver_on_connect4(), egui::vec2(w, h));
    h.run();
    analyse_a(&mut h);
    let below = h.get_by_label("board and explorer show:").rect();
    let rows: Vec<egui::Rect> = h.query_all_by_label("loss in 40").map(|n| n.rect()).collect();
    assert_eq!(rows.len(), 2, "a and g");
    for r in rows {
        assert!(r.max.y <= below.min.y, "a row at {r:?} is under the agents' area, which ends at {below:?}");
    }
}

/// At the README's screenshot width, which is the default window's, the toolbar is one row:
/// its last button sits level with its first.
#[test]
fn the_toolbar_fits_one_row_at_1300_px() {
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    h.state_mut().set_file_path("saves/positions/a-rather-long-file-name-for-a-position.ron");
    h.run();
    let first = h.get_by_label("New game").rect();
    let theme = h.query_by_label("Light").or_else(|| h.query_by_label("Dark")).expect("the theme button").rect();
    assert!((theme.center().y - first.center().y).abs() < 2.0, "theme button at {theme:?}, New game at {first:?}");
    assert!(theme.max.x <= 1300.0, "{theme:?}");
}

/// The solver agent on two threads (its form's "threads"): on Connect-X boards every candidate
/// still gets its proven value; on tic-tac-toe, a free-placement board, the two threads race
/// alpha-beta against proof-number search, and every candidate gets its value too.
#[test]
fn the_solver_on_two_threads_proves_every_candidate() {
    let two_threads = || {
        let mut solver = preset("solver").unwrap();
        if let mnklab::agents::AgentConfig::Solver(c) = &mut solver.agent {
            c.threads = 2;
        }
        solver
    };
    let h = every_candidate_proven_on_connect544(two_threads());
    assert_eq!(h.query_all_by_label_contains("proving on one thread").count(), 0);
    // The readout says the proof ran on two threads.
    assert!(
        h.query_all_by_label_contains("on 2 threads").count() >= 1,
        "{:?}",
        h.state().slots()[0].analysis().latest()
    );

    let mut w = Workbench::new("tictactoe".parse().unwrap());
    w.slot_mut(0).set(two_threads());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::time(5.0));
    let mut h = harness(w);
    h.run();
    analyse_a(&mut h);
    h.run();
    let analysis = &h.state().slots()[0].analysis();
    assert_eq!((&analysis.notice(), &analysis.error()), (&None, &None));
    assert!(h.query_all_by_label_contains("on 2 threads").count() >= 1, "{:?}", analysis.latest());
    // Tic-tac-toe is a draw: every move from the empty board keeps it.
    assert_eq!(analysis.result().as_ref().unwrap().score, Score::Draw);
    let rows = &analysis.latest().as_ref().unwrap().root;
    assert_eq!(rows.len(), 9);
    assert!(rows.iter().all(|r| r.score == Score::Draw), "{rows:?}");
    assert!(h.query_all_by_label("draw").count() >= 9, "the table's rows");
}

/// A long proof shows how far it got while it runs (what it has ruled out, its nodes), not
/// only a clock; Stop ends it.
#[test]
fn a_long_proof_shows_its_bounds_while_it_runs() {
    let mut w = Workbench::new(Variant::connect4());
    let mut solver = preset("solver").unwrap();
    if let mnklab::agents::AgentConfig::Solver(c) = &mut solver.agent {
        c.builtin_book = false;
    }
    w.slot_mut(0).set(solver);
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::time(60.0));
    let mut h = harness(w);
    h.run();
    // Pons' `64` without the book: a proof of many seconds.
    h.state_mut().paste_moves("64");
    h.get_by_label("Start analysis A").click();
    let gauged = |w: &Workbench| w.slots()[0].analysis().latest().as_ref().is_some_and(|p| p.bounds.is_some());
    assert!(wait(&mut h, 10.0, gauged), "a report while the proof runs");
    h.run();
    assert!(h.query_by_label_contains("so far: a loss in").is_some(), "what is ruled out so far");
    assert!(h.query_by_label_contains("searching...").is_none());
    // The config changed under the running proof: said at once.
    h.state_mut().slot_mut(0).set_ron_text("(a config broken in the editor");
    h.run();
    assert!(h.query_by_label_contains("running, by the previous config").is_some());
    // A move with the config broken: the proof of the position left stops, and the panel
    // says why nothing searches the new one (not "searching...").
    h.state_mut().back();
    h.run();
    h.run();
    assert!(!h.state().slots()[0].analysis().running(), "the old proof was stopped");
    assert!(h.query_by_label_contains("fix the config first").is_some());
    assert!(h.query_by_label_contains("searching...").is_none());
}

/// Each agent's column scrolls on its own: scrolling A (to reach its table below its opened
/// options) leaves B where it was.
#[test]
fn each_agents_column_scrolls_on_its_own() {
    let mut h = harness(mcts_bench(1000));
    h.run();
    h.get_by_label("Options A").click();
    h.run();
    let top = |h: &Harness<'static, Workbench>, label: &str| h.get_by_label(label).rect().min.y;
    let (a0, b0) = (top(&h, "Options A"), top(&h, "Options B"));
    h.get_by_label("Options A").hover();
    h.run();
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, -400.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    });
    for _ in 0..10 {
        h.run();
    }
    let (a1, b1) = (top(&h, "Options A"), top(&h, "Options B"));
    assert!(a1 < a0 - 50.0, "A scrolled: {a0} -> {a1}");
    assert_eq!(b1, b0, "B stays put");
}

/// Every preset is in reach in the preset list without scrolling it: clicking the last one
/// (the solver) loads it.
#[test]
fn the_preset_list_shows_every_preset() {
    let mut h = harness(mcts_bench(1000));
    h.run();
    h.get_by_label("preset A").click();
    h.run();
    let last = mnklab::agents::PRESETS.last().unwrap().0;
    h.get_by_role_and_label(Role::Button, last).click();
    h.run();
    assert_eq!(
        h.state().slots()[0].file(),
        &preset(last).unwrap(),
        "the last preset, clicked where it is drawn, loads"
    );
}

/// A stopped analysis is not kept as if it had finished: back at its position after another
/// analysis, it is searched again (it once came back, with moves still unknown, as done).
#[test]
fn a_stopped_analysis_is_not_recalled() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("jeng-mcts").unwrap());
    // No limit: it runs until stopped.
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::default());
    w.slot_mut(0).analysis_mut().set_seconds(0.0);
    w.paste_moves("d c");
    w.back();
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 10.0, |w| w.slots()[0].analysis().reports() >= 1));
    h.get_by_label("Stop A").click();
    assert!(wait(&mut h, 5.0, |w| !w.slots()[0].analysis().running()));
    h.run();
    assert!(h.query_by_label_contains("   stopped").is_some());
    // An analysis of the next position puts the stopped one aside, were it kept.
    h.key_press(egui::Key::ArrowRight);
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 10.0, |w| w.slots()[0].analysis().reports() >= 1));
    // Back: searched again (following the game), not the stopped result shown as done.
    assert_eq!(h.state().position().ply(), 2);
    h.key_press(egui::Key::ArrowLeft);
    h.run_steps(2);
    assert_eq!(h.state().position().ply(), 1);
    assert!(h.state().slots()[0].analysis().running(), "the position is searched again");
    assert!(h.query_by_label_contains("   stopped").is_none() && h.query_by_label_contains("   finished").is_none());
    h.get_by_label("Stop A").click();
    assert!(wait(&mut h, 5.0, |w| !w.slots()[0].analysis().running()));
}

/// Alpha-beta's refuted moves beside a proven win read "≤ win in 3", which says the opposite of
/// "a win within 3 plies": hovering the score says what the bound means.
#[test]
fn a_bound_on_a_win_is_explained_on_hover() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("strong-ab").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::time(0.3));
    let mut h = harness(w);
    h.run();
    // The first player's c1 d1 become an open three at b1 or e1: a win in 3 plies.
    h.state_mut().paste_moves("4433");
    h.run();
    analyse_a(&mut h);
    let pos = h.state().position().clone();
    let rows = h.state().slots()[0].analysis().candidates(&pos);
    assert!(["b", "e"].contains(&pos.format_move(rows[0].mv).as_str()), "{rows:?}");
    assert!(rows.len() >= 2 && rows[1].bound == mnklab::search::tree::Bound::Upper, "{rows:?}");
    let label = mnklab::analysis::full_label(rows[1].score, rows[1].bound);
    assert!(label.starts_with("≤ win in"), "{label}");
    assert_eq!(h.query_all_by_label_contains("no better than a win").count(), 0, "not before the hover");
    h.get_all_by_label(&label).next().expect("the refuted row's score").hover();
    for _ in 0..3 {
        h.run();
    }
    assert!(
        h.query_all_by_label_contains("no better than a win in 3 plies: a slower win, a draw or a loss").count() >= 1,
        "the tooltip says what '{label}' means"
    );
}

/// Choosing another preset for a slot takes the old agent's marks, and the proof legend they
/// called for, off the board: they are not the new agent's.
#[test]
fn another_preset_takes_the_old_agents_marks_off_the_board() {
    let mut w = Workbench::new(Variant::tictactoe());
    w.paste_moves("b2");
    w.slot_mut(0).set(preset("solver").unwrap());
    let mut h = harness(w);
    h.run();
    h.state_mut().start_slot(0);
    assert!(
        wait(&mut h, 30.0, |w| !w.slots()[0].analysis().running() && !w.board_marks().is_empty()),
        "the solver's marks"
    );
    assert!(h.state().board_marks().iter().any(|m| m.proof_label), "proofs on the board");
    // As the preset list does: the results shown are the solver's, the slot now strong-ab's.
    h.state_mut().slot_mut(0).set(preset("strong-ab").unwrap());
    assert!(h.state().board_marks().is_empty(), "the solver's marks are not strong-ab's");
}

/// A click on a move of a candidate's line walks the game to it, as Lichess and Lizzie do;
/// the moves become the game record's line (a variation where the record had another).
#[test]
fn clicking_a_move_of_a_line_walks_to_it() {
    let mut w = Workbench::new(Variant::tictactoe());
    w.slot_mut(0).set(preset("strong-ab").unwrap());
    w.slot_mut(0).edit(|f| f.limits = SearchLimits::depth(5));
    // Not following: the position walked to gets no table of its own, under the pointer.
    w.slot_mut(0).analysis_mut().set_follow(false);
    let mut h = harness(w);
    h.run();
    h.state_mut().start_slot(0);
    assert!(wait(&mut h, 30.0, |w| !w.slots()[0].analysis().running()), "the analysis ends");
    h.run();
    let pos = h.state().position().clone();
    let best = h.state().slots()[0].analysis().candidates(&pos)[0].pv.clone();
    assert!(best.len() >= 3, "a line to walk: {best:?}");
    let second = pos.format_move(best[1]);
    // The link in the best row's line: right of its move's button, on its row (the same
    // name may be another row's candidate button).
    let row =
        h.query_all_by_role_and_label(Role::Button, &pos.format_move(best[0])).next().expect("the best row").rect();
    let link_rect = |h: &Harness<'static, Workbench>| {
        h.query_all_by_role_and_label(Role::Button, &second)
            .map(|n| n.rect())
            .find(|r| r.min.x > row.max.x + 40.0 && (r.center().y - row.center().y).abs() < row.height())
            .unwrap_or_else(|| panic!("the line's move {second} is a link"))
    };
    let target = link_rect(&h);
    assert!(target.width() >= 16.0, "a target a pointer can hit: {target:?}");
    h.hover_at(target.center());
    h.run();
    h.run();
    let said = format!(". Line: {}", pos.format_move(best[0]));
    assert!(h.query_by_label_contains(&said).is_some(), "the row said in words");
    // A press and release at the link, as a pointer clicks.
    let at = link_rect(&h).center();
    h.drag_at(at);
    h.drop_at(at);
    h.run();
    assert_eq!(h.state().position().history(), &best[..2], "walked to the second move of the line");
    assert_eq!(h.state().record().len(), 3, "start and the two moves");
    h.run();
    assert!(
        h.query_by_label_contains("a move of the line to walk to it").is_none(),
        "no row of another position's table is said"
    );
}
