//! The workbench driven as a person would: clicks, typed paths, waiting for the analysis.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use mnklab::agents::preset;
use mnklab::app::{BottomTab, LivePlot, RunState, Workbench};
use mnklab::game::{ColumnStyle, Player, Status, Variant};

use crate::common::wait;

use crate::scratch::Scratch;

fn harness(w: Workbench) -> Harness<'static, Workbench> {
    crate::common::harness_sized(w, egui::vec2(1200.0, 820.0))
}

/// Brings the matchup plot's export row into sight, as a person would: in a short tab it is
/// in the "Export..." menu of the plot's title row, else under the plot, scrolled to.
fn show_the_export_row(h: &mut Harness<'static, Workbench>) {
    match h.query_by_label("Export plot") {
        Some(row) => row.scroll_to_me(),
        None => h.get_by_label("Export...").click(),
    }
    h.run();
}

/// Scrolls the widget labelled `label` into sight and clicks it, as a person does in a
/// long form or panel.
fn click_in_view(h: &mut Harness<'static, Workbench>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
}

/// The workbench on `game` after `moves`, agent A set to `agent` (a preset), its options open.
fn options_of(game: &str, moves: &str, agent: &str) -> Harness<'static, Workbench> {
    let mut w = Workbench::new(game.parse().unwrap());
    if !moves.is_empty() {
        w.paste_moves(moves);
    }
    w.slot_mut(0).set(preset(agent).unwrap());
    let mut h = harness(w);
    h.run();
    h.get_by_label("Options A").click();
    h.run();
    h
}

#[test]
fn clicking_the_board_drops_a_stone() {
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    // The centre of the Connect-4 board is column d.
    h.get_by_label("board").click();
    h.run();
    assert_eq!(h.state().position().history_string(), "d");
    assert_eq!(h.state().position().grid_stone(3, 0), Some(Player::First));
    // Back and forward.
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().position().ply(), 0);
    h.get_by_label("Forward").click();
    h.run();
    assert_eq!(h.state().position().history_string(), "d");
}

#[test]
fn analysis_streams_progress_and_stops() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("jeng-mcts").unwrap());
    // No limit: it runs until stopped.
    w.slot_mut(0).edit(|f| f.limits = mnklab::search::SearchLimits::default());
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(wait(&mut h, 10.0, |w| w.slots()[0].analysis().reports() >= 3), "progress reports arrive");
    assert!(h.state().slots()[0].analysis().running());
    assert!(h.state().slots()[0].analysis().latest().as_ref().unwrap().iterations > 0);
    h.get_by_label("Stop A").click();
    assert!(wait(&mut h, 5.0, |w| !w.slots()[0].analysis().running()), "the analysis stops");
    let result = h.state().slots()[0].analysis().result().cloned().unwrap();
    assert!(result.best.is_some());
    // The heatmap has candidates to draw.
    assert!(!h.state().analysis().heatmap(h.state().position()).is_empty());
}

#[test]
fn loading_a_file_shows_its_position_and_a_bad_file_an_error() {
    let dir = Scratch::new("gui");
    let good = dir.join("p.ron");
    std::fs::write(&good, r#"(variant: "tictactoe", moves: ["a1", "b1", "a2", "b2", "a3"])"#).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, r#"(variant: "tictactoe", moves: ["a1", "a1"])"#).unwrap();
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    h.state_mut().set_file_path(good.display().to_string());
    h.get_by_label("Load").click();
    h.run();
    assert_eq!(h.state().position().variant(), Variant::tictactoe());
    assert_eq!(h.state().position().status(), Status::Win(Player::First));
    h.state_mut().set_file_path(bad.display().to_string());
    h.get_by_label("Load").click();
    h.run();
    assert!(h.state().message().unwrap().contains("taken"), "{:?}", h.state().message());
    assert_eq!(h.state().position().variant(), Variant::tictactoe(), "the game is kept");
}

/// A path typed in the File field loads on Enter, as an address bar does: a user typed a
/// path, pressed Enter, and nothing happened.
#[test]
fn enter_in_the_file_field_loads_the_path_typed() {
    let dir = Scratch::new("gui");
    let good = dir.join("p.ron");
    std::fs::write(&good, r#"(variant: "tictactoe", moves: ["a1", "b1", "a2", "b2", "a3"])"#).unwrap();
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    let field = h.get_by_label("File");
    field.focus();
    field.type_text(&good.display().to_string());
    h.run();
    assert_eq!(h.state().position().variant(), Variant::connect4(), "typing alone loads nothing");
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().position().variant(), Variant::tictactoe(), "{:?}", h.state().message());
    assert_eq!(h.state().position().status(), Status::Win(Player::First));
}

/// A fresh workbench once had a shipped example in its File field, and Save wrote over it
/// without a word. Now the field starts empty, and Save asks before replacing a file the
/// game was not loaded from; the file the game came from is saved to without asking.
#[test]
fn save_never_replaces_another_file_without_asking() {
    let dir = Scratch::new("gui-save");
    let other = dir.join("someone-elses.ron");
    let original = r#"(variant: "tictactoe", moves: ["b2"])"#;
    std::fs::write(&other, original).unwrap();
    let mut h = harness(Workbench::new(Variant::tictactoe()));
    h.run();
    assert_eq!(h.state().file_path(), "", "no file is chosen for a new game");
    h.get_by_label("Save").click();
    h.run();
    assert!(h.state().message().unwrap().contains("type a file name"), "{:?}", h.state().message());
    let a1 = h.state().position().parse_move("a1").unwrap();
    h.state_mut().play(a1);
    h.state_mut().set_file_path(other.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    h.get_by_label("Keep it").click();
    h.run();
    assert_eq!(std::fs::read_to_string(&other).unwrap(), original, "kept");
    h.get_by_label("Save").click();
    h.run();
    h.get_by_label("Replace").click();
    h.run();
    assert!(std::fs::read_to_string(&other).unwrap().contains("a1"), "replaced once the user said so");
    // Now it is the game's own file: the next Save asks nothing.
    let c3 = h.state().position().parse_move("c3").unwrap();
    h.state_mut().play(c3);
    h.get_by_label("Save").click();
    h.run();
    assert!(h.query_by_label("Replace").is_none());
    assert!(std::fs::read_to_string(&other).unwrap().contains("c3"));
    // An opened file (a shipped example, say) is not the session's own: "Save first" in the
    // unsaved-moves prompt asks before replacing it, and keeping it writes nothing.
    h.state_mut().load(&other);
    let before = std::fs::read_to_string(&other).unwrap();
    let b2 = h.state().position().parse_move("b2").unwrap();
    h.state_mut().play(b2);
    h.get_by_label("New game").click();
    h.run();
    h.get_by_label("Save first").click();
    h.run();
    h.get_by_label("Keep it").click();
    h.run();
    assert_eq!(std::fs::read_to_string(&other).unwrap(), before, "an opened file is never replaced silently");
    assert!(h.state().dirty(), "the moves are still unsaved");
}

#[test]
fn the_explorer_expands_and_shows_a_node() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).set(preset("jeng-mcts").unwrap());
    w.slot_mut(0).analysis_mut().set_seconds(0.3);
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    assert!(
        wait(&mut h, 10.0, |w| !w.slots()[0].analysis().running() && w.slots()[0].analysis().tree().is_some()),
        "the search finishes with a tree"
    );
    h.run();
    // The root is open: its children are listed, each collapsed. Expanding one lists its
    // children: one more "show" button per grandchild.
    let shows_before = h.get_all_by_label("show").count();
    assert!(h.query_by_label("collapse").is_some(), "the root is open");
    h.get_all_by_label("expand").next().expect("a collapsed child").click();
    h.run();
    let shows_after = h.get_all_by_label("show").count();
    assert!(shows_after > shows_before, "expanding a node lists its children ({shows_before} -> {shows_after})");
    h.get_all_by_label("collapse").nth(1).expect("the child is open now").click();
    h.run();
    assert_eq!(h.get_all_by_label("show").count(), shows_before, "collapsing hides them again");
    // Show a child's position on the board: the note takes the legend's row, the board stays.
    let board = h.get_by_label("board").rect();
    h.get_all_by_label("show").next().expect("a child node with a show button").click();
    h.run();
    let preview = h.state().preview().expect("a node shown on the board");
    assert_eq!(preview.ply(), 1);
    assert_eq!(h.get_by_label("board").rect(), board, "the board does not move");
    h.get_by_label("Back to the game").click();
    h.run();
    assert!(h.state().preview().is_none());
}

#[test]
fn two_agents_analyse_side_by_side_and_the_editor_validates() {
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).analysis_mut().set_seconds(0.5);
    w.slot_mut(1).analysis_mut().set_seconds(0.5);
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    h.get_by_label("Start analysis B").click();
    assert!(
        wait(&mut h, 15.0, |w| w.slots().iter().all(|s| !s.analysis().running() && s.analysis().result().is_some())),
        "both analyses finish"
    );
    // Alpha-beta (A) reports depth and nodes, MCTS (B) iterations: two different answers.
    let a = h.state().slots()[0].analysis().latest().cloned().unwrap();
    let b = h.state().slots()[1].analysis().latest().cloned().unwrap();
    assert!(a.depth > 0 && a.iterations == 0);
    assert!(b.iterations > 0);
    // A bad edit in the RON text is refused with the reason, and the analysis will not start.
    let slot = &mut h.state_mut().slot_mut(0);
    let text = slot.ron_text().replace("tt_mb: 64", "tt_mb: -3");
    assert!(text.contains("tt_mb: -3"));
    let parsed = mnklab::agents::AgentFile::parse(&text, std::path::Path::new("x"));
    assert!(parsed.is_err());
    slot.set_ron_text(&text);
    assert!(slot.error().is_some_and(|e| e.contains("out of bounds")), "the editor says why: {:?}", slot.error());
    // Through the form: open the options and the preset menu, pick lim-minimax.
    h.get_by_label("Options A").click();
    h.run();
    // strong-ab is configured per family: the board's family is open, the others closed.
    assert!(h.query_by_label("gravity (Connect-X) (this board)").is_some(), "the board's family is named");
    assert!(h.query_by_label("free placement (m,n,k, gomoku)").is_some() && h.query_by_label("3D Connect-4").is_some());
    assert_eq!(h.query_all_by_label("alpha-beta pruning").count(), 1, "one family's options are open");
    assert!(h.query_by_label("alpha-beta pruning").is_some(), "the alpha-beta options are shown");
    h.get_by_label("alpha-beta pruning").click();
    h.run();
    // A (strong-ab) is configured per family: the form edits the board's family alone.
    let a = &h.state().slots()[0].file().agent;
    match a.for_variant(&Variant::connect4()) {
        mnklab::agents::AgentConfig::AlphaBeta(c) => assert!(!c.pruning, "the checkbox turned pruning off"),
        other => panic!("not alpha-beta: {other:?}"),
    }
    for other in ["gomoku", "connect3d"] {
        match a.for_variant(&other.parse().unwrap()) {
            mnklab::agents::AgentConfig::AlphaBeta(c) => assert!(c.pruning, "{other}'s agent is as it was"),
            other => panic!("not alpha-beta: {other:?}"),
        }
    }
    assert!(h.state().slots()[0].ron_text().contains("pruning: false"), "the RON text follows the form");
    h.get_by_label("Options A").click();
    h.run();
    // Save and load the config as RON.
    let dir = Scratch::new("gui-agent");
    let path = dir.join("a.ron");
    let _ = std::fs::remove_file(&path);
    assert_eq!(h.state().slots()[0].path(), "", "no file is named for a preset: never a shipped one");
    h.get_by_label("File A").click();
    h.get_by_label("File B").click();
    h.run();
    h.state_mut().slot_mut(0).set_path(&path.display().to_string());
    h.get_by_label("Save agent A").click();
    h.run();
    h.state_mut().slot_mut(1).set_path(&path.display().to_string());
    h.get_by_label("Load agent B").click();
    h.run();
    assert_eq!(
        h.state().slots()[1].file(),
        h.state().slots()[0].file(),
        "{:?} {:?}",
        h.state().slots()[0].message(),
        h.state().slots()[1].message()
    );
    // Another agent's Save onto that file asks first; its own file it replaces without asking.
    let before = std::fs::read_to_string(&path).unwrap();
    h.state_mut().slot_mut(1).set_path("");
    assert_eq!(h.state().slots()[1].own_file(), None, "B loaded the file: not its own");
    h.state_mut().slot_mut(1).set_path(&path.display().to_string());
    h.state_mut().slot_mut(1).edit(|f| f.name = "changed".into());
    h.get_by_label("Save agent B").click();
    h.run();
    h.get_by_label_contains("agent B was not loaded from it");
    h.get_by_label("Keep it").click();
    h.run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before, "kept");
    h.state_mut().slot_mut(0).edit(|f| f.name = "renamed".into());
    h.get_by_label("Save agent A").click();
    h.run();
    assert!(std::fs::read_to_string(&path).unwrap().contains("renamed"), "A's own file, saved without a question");
}

#[test]
fn a_matchup_runs_with_live_plots_and_exports_a_figure() {
    let dir = Scratch::new("gui-match");
    let mut w = Workbench::new(Variant::tictactoe());
    w.slot_mut(0).set(preset("strong-ab").unwrap());
    w.slot_mut(0).edit(|f| f.limits = mnklab::search::SearchLimits::depth(2));
    w.slot_mut(1).set(preset("random").unwrap());
    w.show_tab(BottomTab::Matchup);
    w.matchup_mut().form_mut().variants_text = "tictactoe mnk:4,4,3".into();
    w.matchup_mut().form_mut().games = 6;
    w.matchup_mut().form_mut().out_dir = dir.join("run").display().to_string();
    w.matchup_mut().exporter_mut().path = dir.join("figures").join("score.pdf").display().to_string();
    let mut h = harness(w);
    h.run();
    h.get_by_label("Run matchup").click();
    assert!(wait(&mut h, 30.0, |w| w.matchup().state() == RunState::Finished), "the matchup finishes");
    // The export follows the run, under the file name it had.
    assert_eq!(h.state().matchup().exporter().path, dir.join("run").join("score.pdf").display().to_string());
    h.state_mut().matchup_mut().exporter_mut().path = dir.join("figures").join("score.pdf").display().to_string();
    assert_eq!(h.state().matchup().records().len(), 12);
    assert!(dir.join("run").join("results.ronl").exists(), "results are on disk");
    // The live score plot shows the running score on each board, ending at the board's
    // score, in one colour (the agent's) and a pattern a board.
    let fig = h.state().matchup().figure().unwrap();
    let mnklab::plot::FigureData::Lines(series) = &fig.data else { panic!("a line plot") };
    assert_eq!(series.len(), 2, "one line a board");
    let records = &h.state().matchup().records();
    for s in series {
        let board = s.name.rsplit(" on ").next().unwrap();
        assert!(["mnk:3,3,3", "mnk:4,4,3"].contains(&board), "{}", s.name);
        let own: Vec<f64> =
            records.iter().filter(|r| r.variant.to_string() == board).map(|r| r.score_of(0).unwrap()).collect();
        let last = s.points.last().unwrap();
        assert_eq!(last.x as usize, 6);
        assert!((last.y - own.iter().sum::<f64>() / 6.0).abs() < 1e-12);
    }
    let legend = mnklab::plot::line_legend(series, true);
    assert_eq!(legend[0].colour, legend[1].colour, "an agent keeps its colour on every board");
    assert_ne!(legend[0].pattern, legend[1].pattern, "the boards differ by pattern");
    // The legend is a row above the plot (inside, it covered the lines' ends): each line
    // and the band, as the exported figure lists them.
    assert!(h.query_by_label("95% interval (shaded)").is_some(), "the band in the legend");
    // The other plots draw; the heatmap covers the two boards.
    h.get_by_label("Nodes per move").click();
    h.run();
    assert_eq!(h.state().matchup().plot(), LivePlot::Nodes);
    assert!(h.query_all_by_label_contains("strong-ab on ").count() >= 1, "strong-ab in the legend row");
    // Nodes are on a log axis: random searches none, has no line, and is not listed.
    assert!(h.query_all_by_label_contains("random on ").count() == 0, "no legend entry without a line");
    h.get_by_label("Heatmap").click();
    h.run();
    let fig = h.state().matchup().figure().unwrap();
    let mnklab::plot::FigureData::Heatmap { columns, .. } = &fig.data else { panic!("a heatmap") };
    assert_eq!(columns, &["3", "4"]);
    // Export the heatmap: under its own name (it once took the score's), in the same folder
    // and format; the file and its CSV appear.
    assert_eq!(h.state().matchup().exporter().path, dir.join("figures").join("heatmap.pdf").display().to_string());
    show_the_export_row(&mut h);
    h.get_by_label("Export plot").click();
    assert!(wait(&mut h, 10.0, |w| w.matchup().exporter().message.as_deref().is_some_and(|m| m.starts_with("wrote"))));
    assert!(
        dir.join("figures/heatmap.pdf").exists() && dir.join("figures/heatmap.csv").exists(),
        "the workbench makes its figures folder"
    );
    assert!(!dir.join("figures/score.pdf").exists(), "nothing under the score's name");
    // The file carries no title unless asked: a paper sets its caption under the figure.
    assert!(!std::fs::read_to_string(dir.join("figures/heatmap.csv")).unwrap().is_empty());
    // The title and labels are editable; the plot and the file both use the edited ones, and
    // a title typed is drawn in the file.
    h.state_mut().matchup_mut().exporter_mut().path = dir.join("heat.svg").display().to_string();
    h.state_mut().matchup_mut().exporter_mut().message = None;
    // (By accessibility: under an export row in sight the section lies below the fold.)
    h.get_by_label("Title and labels plot").click_accesskit();
    h.run();
    assert!(!h.state().matchup().exporter().title_in_file, "off until asked");
    let field = h.get_by_label("title plot");
    field.focus();
    field.type_text("Alpha-beta vs random");
    h.run();
    assert!(
        h.state().matchup().exporter().title_in_file,
        "typing a title asks for it in the file: {:?}",
        h.state().matchup().exporter().title
    );
    assert!(h.query_by_label("Alpha-beta vs random").is_some(), "the plot shows the edited title");
    h.get_by_label("Export plot").click();
    assert!(wait(&mut h, 10.0, |w| w.matchup().exporter().message.as_deref().is_some_and(|m| m.starts_with("wrote"))));
    assert!(std::fs::read_to_string(dir.join("heat.svg")).unwrap().contains("Alpha-beta vs random"));
    // Running again does not touch the first run's results: it goes to a new folder. (With
    // a time limit, so that there is time to pause it.)
    h.state_mut().slot_mut(0).set(preset("alam-mcts").unwrap());
    h.state_mut().slot_mut(0).edit(|f| f.limits = mnklab::search::SearchLimits::time(0.05));
    h.run();
    h.get_by_label("Run matchup").click();
    assert!(wait(&mut h, 5.0, |w| w.matchup().state() == RunState::Running));
    assert!(h.state().matchup().exporter().path.ends_with("run-2/heat.svg"), "{}", h.state().matchup().exporter().path);
    assert!(h.state().matchup().error().is_none(), "the new folder is a notice, not an error");
    assert!(h.state().matchup().notice().is_some_and(|n| n.contains("holds an earlier run")));
    assert!(
        h.state().matchup().form().out_dir.ends_with("run-2"),
        "{} {:?} {:?}",
        h.state().matchup().form().out_dir,
        h.state().matchup().error(),
        h.state().matchup().state()
    );
    h.get_by_label("Pause").click();
    assert!(wait(&mut h, 10.0, |w| w.matchup().state() == RunState::Paused && !w.matchup().busy()));
    let before = h.state().matchup().records().len();
    assert!(before < 12, "paused part-way ({before} games)");
    h.get_by_label("Resume").click();
    assert!(wait(&mut h, 30.0, |w| w.matchup().state() == RunState::Finished), "the resumed run finishes");
    assert_eq!(
        h.state().matchup().records().len(),
        12,
        "no game lost or played twice: {:?} {}",
        h.state().matchup().error(),
        h.state().matchup().form().out_dir
    );
}

/// Connect-4 `d a d a d b d`: the review lists 6.b (it lets four in column d through) as
/// the worst mistake, with the solver's values; clicking it goes to the position before, where
/// the better move is ringed; the marks are gone once the game changes.
#[test]
fn reviewing_a_game_marks_the_real_mistake() {
    let mut w = Workbench::new(Variant::connect4());
    w.paste_moves("d a d a d b d");
    w.show_tab(BottomTab::Review);
    w.review_mut().set_seconds(0.3);
    let mut h = harness(w);
    h.run();
    // The header says who judges: the solver's proofs first (these are), agent A where a proof
    // does not finish; exports go under out/, never into the committed results/.
    assert!(h.query_by_label_contains("Judge: proofs where they finish, else agent A").is_some());
    // The button stays where it is whatever the judge is called (it moved with the name).
    let button = h.get_by_label("Review game").rect();
    h.state_mut().slot_mut(0).edit(|f| f.name = "a judge with a very much longer name than strong-ab".into());
    h.run();
    assert_eq!(h.get_by_label("Review game").rect(), button, "the button holds still");
    h.state_mut().slot_mut(0).edit(|f| f.name = "strong-ab".into());
    assert!(h.state().review().exporter().path.starts_with("out/"), "{}", h.state().review().exporter().path);
    // Before a review the count names the game's moves ("0 of 0 moves" read as an empty game).
    assert!(h.query_by_label("0 of 7 moves reviewed").is_some(), "the count before a review");
    h.get_by_label("Review game").click();
    h.run_steps(2);
    assert!(wait(&mut h, 60.0, |w| !w.review().running() && w.review().moves().len() == 7), "every move is judged");
    h.run();
    assert!(h.query_by_label("7 of 7 moves reviewed").is_some());
    // The graph under the buttons and the list beside it (under the graph it began at the
    // tab's fold): the list's heading level with the graph's top.
    let buttons = h.get_by_label("Review game").rect();
    let heading = h.get_by_label("Mistakes and inaccuracies, worst first").rect();
    let top = h.state().review().mistakes()[0].clone();
    assert_eq!((top.ply, top.proven), (6, true), "{:?}", h.state().review().mistakes());
    let before = h.state().review().position_before(6).unwrap();
    let text = top.describe(&before, ColumnStyle::Notation);
    assert!(text.starts_with("6. b loss in 16 → loss in 1 (loss hastened; best d)"), "{text}");
    assert!(!h.state().review().moves()[0].verdict.is_mistake(), "1.d, the preferred move, is no mistake");
    // Each player's summary: the second player's three moves each hastened the loss.
    let summary = h.get_by_label_contains("second player: 0 mistakes, 3 inaccuracies").rect();
    // Above the graph, under the buttons: under the list it was below the tab's fold.
    assert!(summary.top() > buttons.bottom(), "{summary:?}");
    assert!((heading.top() - summary.bottom()).abs() < 20.0, "the list level with the graph's top: {heading:?}");
    assert!(heading.left() > buttons.left() + 300.0, "the list beside the graph: {heading:?}");
    // The worst move's button shows without a scroll, above the status bar.
    let worst = h.get_by_label(&text).rect();
    let status = h.get_by_label_contains("Connect-4").rect();
    assert!(worst.bottom() <= status.top() && worst.left() >= heading.left() - 1.0, "{worst:?} {status:?}");
    // The exported figure is the tab's: the marked moves labelled, proven distances, the loss
    // bars and the mate-style ticks, and the CSV beside it lists them (it held the line alone).
    let dir = Scratch::new("gui-review-figure");
    let svg_path = dir.join("review.svg");
    h.state_mut().review_mut().exporter_mut().path = svg_path.display().to_string();
    // Below the graph: scrolled to, as a person would.
    click_in_view(&mut h, "Export review");
    assert!(wait(&mut h, 10.0, |w| w.review().exporter().message.as_deref().is_some_and(|m| m.starts_with("wrote"))));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let fig = h.state().review().figure();
    assert!(!fig.marks.points.is_empty() && !fig.marks.bars.is_empty() && !fig.marks.notes.is_empty());
    let has = |text: &str| svg.contains(&format!(">{text}<")) || svg.contains(&format!(">\n{text}"));
    for label in fig.marks.points.iter().chain(&fig.marks.notes).map(|l| l.text.as_str()) {
        assert!(has(label), "the SVG lacks the label {label}");
    }
    for text in
        ["6. b", "L1", "W1", "+0.5", "loss of the move (bars: 2 reaches the middle)", "mistakes and inaccuracies"]
    {
        assert!(has(text), "the SVG lacks {text}");
    }
    let csv = std::fs::read_to_string(dir.join("review.csv")).unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",n,label"), "{csv}");
    assert!(csv.lines().any(|l| l.starts_with("mistakes and inaccuracies,6,") && l.ends_with(",6. b")), "{csv}");
    assert_eq!(
        csv.lines().filter(|l| l.starts_with("loss of the move (bars: 2 reaches the middle),")).count(),
        fig.marks.bars.len()
    );
    // The header names the judge of the review shown, not the agent slot A holds now.
    h.state_mut().slot_mut(0).set(preset("jeng-mcts").unwrap());
    h.run();
    assert!(
        h.query_by_label_contains("else strong-ab; A now holds jeng-mcts: Review game to use it").is_some(),
        "the review's own judge, named as slot A's agent no longer"
    );
    // The list button goes to the position before the mistake; the board says so and shows
    // the better move ringed.
    let board = h.get_by_label("board").rect();
    click_in_view(&mut h, &text);
    assert_eq!(h.state().position().history_string(), "d a d a d");
    assert_eq!(h.get_by_label("board").rect(), board, "the note takes the legend's row: the board stays");
    assert!(h.query_by_label_contains("review: 6. b").is_some(), "the board names the mistake");
    assert!(h.query_by_label_contains("the better move d is ringed").is_some(), "and the better move");
    // The move list marks it too (drawn in the warning colour; found by its label).
    assert!(h.query_by_label("6. b").is_some());
    // A new game: no marks of the old one remain.
    h.state_mut().new_game();
    h.run();
    assert!(h.state().review().moves().is_empty(), "the review is cleared");
    assert!(
        h.query_by_label("Mistakes and inaccuracies, worst first").is_some() && h.query_by_label("none yet").is_some()
    );
    assert!(h.query_by_label_contains("loss hastened").is_none());
}

#[test]
fn edit_mode_places_stones_and_shows_the_rules_complaint() {
    let mut h = harness(Workbench::new(Variant::tictactoe()));
    h.run();
    h.get_by_label("Edit position").click();
    h.run();
    assert!(h.state().edit().is_some());
    // The centre cell: X; clicking cycles X -> O -> empty -> X.
    h.get_by_label("board").click();
    h.run();
    assert_eq!(h.state().edit().unwrap().stone(1, 1), Some(Player::First));
    h.get_by_label("board").click();
    h.run();
    assert_eq!(h.state().edit().unwrap().stone(1, 1), Some(Player::Second));
    h.get_by_label("board").click();
    h.get_by_label("board").click();
    h.run();
    assert_eq!(h.state().edit().unwrap().stone(1, 1), Some(Player::First));
    // A second X with no O: two stones ahead, which no game reaches.
    h.get_by_label("place first").click();
    h.run();
    let board = h.get_by_label("board").rect();
    let notice = h.get_by_label_contains("valid:").rect();
    h.state_mut().edit_mut().unwrap().click(0, 0);
    h.run();
    let err = h.state().edit().unwrap().result.clone().unwrap_err();
    assert!(matches!(err, mnklab::game::GameError::Setup(_)), "{err}");
    let err = err.to_string();
    assert!(err.contains("stones"), "{err}");
    assert!(h.query_by_label(&err).is_some(), "the complaint is shown in place");
    assert_eq!(h.get_by_label(&err).rect(), notice, "in the space the notice had: two lines, wrapped");
    assert_eq!(h.get_by_label("board").rect(), board, "the board does not move");
    // Remove it again: valid, O to move; Done takes the position.
    h.state_mut().edit_mut().unwrap().brush = mnklab::app::Brush::Erase;
    h.state_mut().edit_mut().unwrap().click(0, 0);
    h.run();
    assert!(h.state().edit().unwrap().result.is_ok());
    h.get_by_label("Done editing").click();
    h.run();
    assert!(h.state().edit().is_none(), "{:?}", h.state().message());
    assert_eq!(h.state().position().grid_stone(1, 1), Some(Player::First));
    assert_eq!(h.state().position().side_to_move(), Player::Second);
    assert!(h.state().setup().is_some(), "saved with its set-up");
}

/// The move list is the record's tree: a variation is listed, indented, under the move it
/// replaces (a variation inside it one level deeper), a click goes exactly there, and the
/// right-click menu promotes or deletes a line.
#[test]
fn the_move_list_is_a_tree_of_variations() {
    let mut w = Workbench::new(Variant::connect4());
    w.paste_moves("d d e");
    let mut h = harness(w);
    h.run();
    let line = |h: &Harness<'static, Workbench>| h.state().position().history_string();
    h.get_by_label("Back").click();
    h.run();
    h.get_by_label("Back").click();
    h.run();
    // Forward with the same move is just forward: no new line.
    let d = h.state().position().parse_move("d").unwrap();
    h.state_mut().play(d);
    h.run();
    assert_eq!(h.state().record().len(), 4, "start + d d e");
    h.get_by_label("Back").click();
    h.run();
    // Another second move c, then c and, instead of that c, b: a variation inside a variation.
    for m in ["c", "c"] {
        let mv = h.state().position().parse_move(m).unwrap();
        h.state_mut().play(mv);
    }
    h.state_mut().back();
    let b = h.state().position().parse_move("b").unwrap();
    h.state_mut().play(b);
    h.run();
    assert_eq!(line(&h), "d c b");
    let rows: Vec<(usize, usize)> = h.state().record().move_rows().iter().map(|r| (r.indent, r.nodes.len())).collect();
    assert_eq!(rows, vec![(0, 2), (1, 2), (2, 1), (0, 1)], "1.d 2.d / (2.c 3.c) / ((3.b)) / 3.e");
    // The indentation is drawn: the nested variation starts right of its parent line.
    let x = |h: &Harness<'static, Workbench>, l: &str| h.get_by_label(l).rect().left();
    assert!(x(&h, "2. c") > x(&h, "1. d") && x(&h, "3. b") > x(&h, "2. c"));
    // Clicks go to the line of the move clicked, wherever the user stands.
    h.get_by_label("3. e").click();
    h.run();
    assert_eq!(line(&h), "d d e");
    h.get_by_label("3. b").click();
    h.run();
    assert_eq!(line(&h), "d c b");
    h.get_by_label("3. c").click();
    h.run();
    assert_eq!(line(&h), "d c c");
    // Right-click: make c's line the main line; delete b's line.
    h.get_by_label("2. c").click_secondary();
    h.run();
    h.get_by_label("Make main line").click();
    h.run();
    let main: Vec<String> =
        h.state().record().main_line().iter().map(|&m| h.state().position().format_move(m)).collect();
    assert_eq!(main.join(" "), "d c c");
    h.get_by_label("3. b").click_secondary();
    h.run();
    h.get_by_label("Delete from here").click();
    h.run();
    assert!(h.query_by_label("3. b").is_none(), "the line is gone from the list");
    assert_eq!(h.state().record().len(), 6, "start + d, d e, c c");
    assert_eq!(line(&h), "d c c", "the user stays where they were");
    // Ctrl+Z takes the last move back out of the record.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(line(&h), "d c");
    assert_eq!(h.state().record().len(), 5);
    assert!(h.query_by_label("3. c").is_none());
    // A comment on the current move is kept in the record and shown in the list.
    h.state_mut().set_comment_text("the centre is better");
    h.state_mut().set_comment("the centre is better");
    h.run();
    assert!(h.query_by_label("the centre is better").is_some());
}

#[test]
fn unsaved_moves_are_not_dropped_without_asking() {
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    h.get_by_label("board").click();
    h.run();
    assert!(h.state().dirty());
    h.get_by_label("New game").click();
    h.run();
    assert!(h.state().pending().is_some(), "asks first");
    // While it asks, the keys and the board change nothing: moves played behind the question
    // once went with the game when Discard dropped it. A click beside the question, on the
    // board, answers Cancel and plays no move; so does Escape.
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().position().ply(), 1, "no move taken back behind the question");
    assert!(h.state().pending().is_some(), "still asking");
    h.get_by_label("board").click();
    h.run();
    assert_eq!(h.state().position().ply(), 1, "no move played behind the question");
    assert!(h.state().pending().is_none(), "a click beside the question answers Cancel");
    h.get_by_label("New game").click();
    h.run();
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.state().pending().is_none(), "Escape answers Cancel");
    h.get_by_label("New game").click();
    h.run();
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(h.state().position().ply(), 1, "cancel keeps the game");
    h.get_by_label("New game").click();
    h.run();
    h.get_by_label("Discard").click();
    h.run();
    assert_eq!(h.state().position().ply(), 0);
    // A load of a file that cannot be read says so at once, without asking to discard the
    // game (a mistyped path once asked first, then failed); the game is kept, still unsaved.
    h.get_by_label("board").click();
    h.run();
    h.state_mut().set_file_path(std::env::temp_dir().join("mnklab-no-such-file.ron").display().to_string());
    h.get_by_label("Load").click();
    h.run();
    assert!(h.state().pending().is_none(), "no question for a file that is not there");
    assert!(h.state().message().is_some_and(|m| m.contains("mnklab-no-such-file")), "{:?}", h.state().message());
    assert_eq!(h.state().position().ply(), 1, "the game is kept");
    assert!(h.state().dirty(), "and still unsaved");
    // An empty field names what is missing (it said "cannot read : No such file").
    h.state_mut().set_file_path(String::new());
    h.get_by_label("Load").click();
    h.run();
    assert!(h.state().message().is_some_and(|m| m.starts_with("no file named")), "{:?}", h.state().message());
    // A position that can be read is asked about first.
    h.state_mut().set_file_path(format!("{}/saves/positions/connect4-start.ron", env!("CARGO_MANIFEST_DIR")));
    h.get_by_label("Load").click();
    h.run();
    assert!(h.state().pending().is_some(), "a readable position asks first");
    // Settings round-trip: recent files, agents, run folder.
    let mut w = Workbench::new(Variant::connect4());
    w.apply_settings(&mnklab::app::Settings { recent: vec!["a.ron".into()], ..Default::default() });
    w.slot_mut(1).set(preset("lim-mcts").unwrap());
    w.matchup_mut().form_mut().out_dir = "results/x".into();
    let s = w.settings(true);
    let mut fresh = Workbench::new(Variant::tictactoe());
    fresh.apply_settings(&s);
    assert_eq!(fresh.recent(), ["a.ron"]);
    assert_eq!(fresh.slots()[1].file(), w.slots()[1].file());
    assert_eq!(fresh.matchup().form().out_dir, "results/x");
    assert_eq!(fresh.position().variant(), Variant::connect4());
    assert_eq!(fresh.message(), None, "nothing to say");
    // A remembered agent that no longer loads (its book file gone since) is not swapped for
    // the default in silence: the status line says which and why.
    let mut w = Workbench::new(Variant::connect4());
    let mut solver = preset("solver").unwrap();
    if let mnklab::agents::AgentConfig::Solver(c) = &mut solver.agent {
        c.book = Some(std::env::temp_dir().join("mnklab-no-such.book").display().to_string());
    }
    w.slot_mut(0).set(solver);
    let mut fresh = Workbench::new(Variant::connect4());
    let default_a = fresh.slots()[0].file().name.clone();
    fresh.apply_settings(&w.settings(true));
    assert_eq!(fresh.slots()[0].file().name, default_a);
    let said = fresh.message().unwrap_or_default();
    assert!(said.starts_with("agent A: the last session's agent was not restored ("), "{said}");
    assert!(said.contains("mnklab-no-such.book") && said.ends_with(&format!("; {default_a} instead")), "{said}");
    // And moves given on the command line do not hide it.
    fresh.keeping_message(|w| {
        w.new_game();
        w.play_command_line_moves("d");
    });
    let said = fresh.message().unwrap_or_default();
    assert!(said.contains("not restored") && said.ends_with("; played the 1 move given on the command line"), "{said}");
}

#[test]
fn an_agent_answers_a_human_move_and_two_agents_play_a_game_out() {
    use mnklab::app::Controller;
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(1).set(preset("random").unwrap());
    w.autoplay_mut().sides[1] = Controller::Agent(1);
    let mut h = harness(w);
    h.run();
    h.get_by_label("board").click();
    assert!(wait(&mut h, 10.0, |w| w.position().ply() == 2), "the agent answers");
    assert_eq!(h.state().position().history_string().split(' ').next(), Some("d"));
    let mut w = Workbench::new(Variant::tictactoe());
    w.slot_mut(0).set(preset("solver").unwrap());
    w.slot_mut(1).set(preset("solver").unwrap());
    w.autoplay_mut().sides = [Controller::Agent(0), Controller::Agent(1)];
    let mut h = harness(w);
    assert!(wait(&mut h, 30.0, |w| w.position().status().is_over()), "agent vs agent plays to the end");
    // Perfect play draws tic-tac-toe.
    assert_eq!(h.state().position().status(), Status::Draw);
    assert_eq!(h.state().position().ply(), 9);
}

#[test]
fn a_third_agent_joins_the_comparison_and_the_matchup_becomes_a_round_robin() {
    let mut h = harness(Workbench::new(Variant::tictactoe()));
    h.run();
    h.get_by_label("Add agent").click();
    h.run();
    assert_eq!(h.state().slots().len(), 3);
    assert!(h.query_by_label("Start analysis C").is_some(), "agent C has its own analysis");
    h.state_mut().matchup_mut().form_mut().move_time = 0.05;
    let m = h.state().matchup().build(h.state().slots()).unwrap();
    assert_eq!(m.pairings(), [(0, 1), (0, 2), (1, 2)]);
    assert_eq!(m.limits, Some(mnklab::search::SearchLimits::time(0.05)));
    h.get_by_label("Remove last agent").click();
    h.run();
    assert_eq!(h.state().slots().len(), 2);
    assert_eq!(h.state().matchup().build(h.state().slots()).unwrap().pairings(), [(0, 1)]);
}

/// An agent file naming a program (mnklab's own Gomocup brain) and its command line.
fn friendly_program() -> (mnklab::agents::AgentFile, String) {
    let exe = env!("CARGO_BIN_EXE_mnklab");
    let ron = format!(
        r#"(version: 1, name: "friendly", agent: External((command: "{exe}", args: ["brain", "--agent", "random"], protocol: Gomocup)), limits: (time: Some(0.3)))"#
    );
    let file = mnklab::agents::AgentFile::parse(&ron, std::path::Path::new("friendly.ron")).unwrap();
    (file, format!("{exe} brain --agent random"))
}

/// An agent file naming a program: the window shows the exact command line and starts
/// nothing until the user allows it; the answer is remembered in the settings.
#[test]
fn an_external_program_starts_only_after_the_user_allows_it() {
    let (file, line) = friendly_program();
    let mut w = Workbench::new("mnk:9,9,5".parse().unwrap());
    w.slot_mut(0).set(file.clone());
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    h.run();
    assert!(h.state().consent().question().is_some(), "asked before starting");
    h.get_by_label(&line);
    assert!(!h.state().slots()[0].analysis().running(), "nothing started yet");
    h.get_by_label("Don't start").click();
    h.run();
    assert!(h.state().consent().question().is_none());
    assert!(!h.state().slots()[0].analysis().running());
    assert!(h.state().settings(false).allowed_programs.is_empty());
    assert_eq!(h.state().settings(false).refused_programs, vec![line.clone()]);
    // The refusal is remembered, as the dialog says: the next start asks nothing, starts
    // nothing, and says why.
    h.get_by_label("Start analysis A").click();
    h.run();
    h.run();
    assert!(h.state().consent().question().is_none(), "a refused program is not asked about again");
    assert!(!h.state().slots()[0].analysis().running());
    assert!(h.state().message().is_some_and(|m| m.contains("you refused")), "{:?}", h.state().message());
    // Programs > Forget answers: asked again on the next start; allowed this time, and the
    // analysis runs the program.
    h.get_by_label("Programs").click();
    h.run();
    h.get_by_label("Forget answers").click();
    h.run();
    assert!(h.state().settings(false).refused_programs.is_empty());
    h.get_by_label("Start analysis A").click();
    h.run();
    h.get_by_label("Allow and start").click();
    h.run();
    assert!(
        wait(&mut h, 15.0, |w| w.slots()[0].analysis().result().as_ref().is_some_and(|r| r.best.is_some())),
        "{:?}",
        h.state().slots()[0].analysis().error()
    );
    assert_eq!(h.state().settings(false).allowed_programs, vec![line.clone()]);
    // A restarted workbench with those settings does not ask again.
    let mut w = Workbench::new("mnk:9,9,5".parse().unwrap());
    w.apply_settings(&h.state().settings(false));
    w.slot_mut(0).set(file);
    let mut h2 = harness(w);
    h2.run();
    h2.get_by_label("Start analysis A").click();
    h2.run();
    assert!(h2.state().consent().question().is_none());
    assert!(h2.state().slots()[0].analysis().running() || h2.state().slots()[0].analysis().result().is_some());
}

/// A slot following the game (started once with an in-process agent) switched to a program:
/// asked first; refused, the slot stops following instead of asking again at each frame
/// and each move, and the next move starts nothing.
#[test]
fn a_following_slot_switched_to_a_refused_program_stops_following() {
    let (file, _) = friendly_program();
    let mut w = Workbench::new("mnk:9,9,5".parse().unwrap());
    w.slot_mut(0).set(preset("random").unwrap());
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis A").click();
    h.run();
    assert!(h.state().slots()[0].analysis().follows(), "started: follows the game");
    h.state_mut().slot_mut(0).set(file);
    h.run();
    assert!(h.state().consent().question().is_some(), "asked before starting the program");
    assert!(h.state().slots()[0].analysis().follows(), "waiting for the answer, still following");
    h.get_by_label("Don't start").click();
    h.run();
    h.run();
    assert!(h.state().consent().question().is_none(), "not asked again");
    assert!(!h.state().slots()[0].analysis().follows(), "refused: no longer following");
    assert!(!h.state().slots()[0].analysis().running());
    let m = h.state().position().legal_moves()[0];
    h.state_mut().play(m);
    h.run();
    h.run();
    assert!(
        !h.state().slots()[0].analysis().running() && h.state().consent().question().is_none(),
        "the next move starts nothing"
    );
}

/// Load run + Resume of a run whose matchup names a program asks first, too; refused, a second
/// Resume starts nothing and says why.
#[test]
fn resuming_a_loaded_run_asks_before_starting_its_programs() {
    let dir = Scratch::new("gui-ext-run");
    std::fs::write(
        dir.join("matchup.ron"),
        r#"(version: 1, name: "ext", variants: List(["mnk:9,9,5"]), agents: [
            (name: Some("innocent"), agent: Inline((name: "x", agent: External((command: "/nonexistent/engine-xyz", args: ["--evil"], protocol: Gomocup))))),
            (name: Some("r"), agent: Preset("random"))], pairing: Pairwise, games: 2, seed: 1)"#,
    )
    .unwrap();
    std::fs::write(dir.join("results.ronl"), "").unwrap();
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.state_mut().show_tab(BottomTab::Matchup);
    h.run();
    h.state_mut().matchup_mut().load(&dir);
    h.run();
    assert_eq!(h.state().matchup().state(), RunState::Paused, "{:?}", h.state().matchup().error());
    h.get_by_label("Resume").click();
    h.run();
    let q = h.state().consent().question().expect("asked before resuming");
    assert_eq!(q.commands, vec![("innocent".to_string(), "/nonexistent/engine-xyz --evil".to_string())]);
    h.get_by_label("/nonexistent/engine-xyz --evil");
    assert!(!h.state().matchup().busy(), "nothing started");
    assert!(h.query_by_label_contains("waiting for your answer").is_some());
    h.get_by_label("Don't start").click();
    h.run();
    assert!(!h.state().matchup().busy());
    // Resume again: refused before, so not asked, not started, and the tab says so (not
    // "waiting for your answer", which no question on screen would answer).
    h.get_by_label("Resume").click();
    h.run();
    assert!(h.state().consent().question().is_none() && !h.state().matchup().busy());
    assert!(h.query_by_label_contains("waiting for your answer").is_none());
    assert!(
        h.query_by_label_contains("not started: you refused an entrant's program").is_some(),
        "{:?}",
        h.state().matchup().error()
    );
    assert!(
        !dir.join("results.ronl").exists() || std::fs::read_to_string(dir.join("results.ronl")).unwrap().is_empty()
    );
}

/// The matchup tab shows the numbers, not only plots: a summary table with the same W-D-L,
/// score interval and Elo as `mnklab table`, and forfeits.
#[test]
fn the_matchup_tab_shows_the_summary_table_of_the_run() {
    use mnklab::arena::{Matchup, RunOptions, run_matchup, summarize, table};
    let dir = Scratch::new("gui-summary");
    let m = Matchup::parse(
        r#"(version: 1, name: "s", variants: List(["tictactoe", "mnk:4,4,3"]), agents: [
            (name: Some("ab"), agent: Preset("strong-ab"), limits: Some((depth: Some(2)))),
            (name: Some("rnd"), agent: Preset("random"))], pairing: Pairwise, games: 6, seed: 2)"#,
        std::path::Path::new("s.ron"),
    )
    .unwrap();
    let opts = RunOptions { threads: 1, out: dir.to_path_buf(), resume: false, scale: 1.0, games: None, shard: None };
    let records =
        run_matchup(&m, std::path::Path::new("."), &opts, &mnklab::search::SearchControl::new(), |_| {}).unwrap();
    let cli = table(&summarize(&records));
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.state_mut().show_tab(BottomTab::Matchup);
    h.run();
    h.state_mut().matchup_mut().load(&dir);
    h.run();
    // A short tab has the summary in one line above the plot, the table on request.
    let line = mnklab::arena::headline(&summarize(&records));
    if h.query_by_label("W-D-L").is_none() {
        h.get_by_label(&line);
        h.get_by_label("Table").click();
        h.run();
    }
    h.get_by_label("W-D-L");
    h.get_by_label("score (95% CI)");
    for s in summarize(&records) {
        let wdl = format!("{}-{}-{}", s.wins, s.draws, s.losses);
        let score = format!("{:.3} ({:.3}-{:.3})", s.score, s.score_low, s.score_high);
        assert!(cli.contains(&wdl) && cli.contains(&score), "the CLI's table has the same numbers");
        assert!(h.query_all_by_label(&wdl).count() >= 1, "{wdl} shown");
        h.get_by_label(&score);
        h.get_by_label(&mnklab::arena::stats::elo_label(&s));
    }
    // Another run of as many games: its summary, not the first run's under its plot.
    let other = Scratch::new("gui-summary-2");
    let m2 = Matchup::parse(
        r#"(version: 1, name: "t", variants: List(["tictactoe", "mnk:4,4,3"]), agents: [
            (name: Some("first"), agent: Preset("random")),
            (name: Some("second"), agent: Preset("random"))], pairing: Pairwise, games: 6, seed: 3)"#,
        std::path::Path::new("t.ron"),
    )
    .unwrap();
    let opts = RunOptions { out: other.to_path_buf(), ..opts };
    let again = run_matchup(&m2, std::path::Path::new("."), &opts, &mnklab::search::SearchControl::new(), |_| {});
    assert_eq!(again.unwrap().len(), records.len());
    h.state_mut().matchup_mut().load(&other);
    h.run();
    assert!(h.query_all_by_label_contains("first").count() >= 1, "the second run's agents in the summary");
    assert_eq!(h.query_all_by_label_contains("rnd").count(), 0, "none of the first run's");
}

/// A file dropped on the window, as the windowing layer hands it to egui.
#[derive(Debug)]
struct Dropped(std::path::PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// A saved game keeps its variations and comments, and dropping the file on the window opens
/// it where it was saved; a file of another kind is named and nothing changes.
#[test]
fn a_saved_record_reopens_by_drag_and_drop() {
    let dir = Scratch::new("gui-drop");
    let path = dir.join("tree.ron");
    let mut w = Workbench::new(Variant::connect4());
    w.paste_moves("d d e");
    w.back();
    let c = w.position().parse_move("c").unwrap();
    w.play(c);
    w.set_comment("the quiet move");
    w.save(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("record: Some(\"d d {the quiet move} c") || text.contains("(c {the quiet move})"), "{text}");

    let mut h = harness(Workbench::new(Variant::tictactoe()));
    h.run();
    h.input_mut().dropped_files.push(std::sync::Arc::new(Dropped(path.clone())));
    h.run();
    assert_eq!(h.state().position().variant(), Variant::connect4(), "{:?}", h.state().message());
    assert_eq!(h.state().position().history_string(), "d d c", "opened where it was saved");
    assert_eq!(h.state().record().len(), 5, "start + d d e + c");
    assert!(h.query_by_label("the quiet move").is_some(), "the comment is shown");
    assert!(h.query_by_label("3. e").is_some(), "the other line is kept");

    let other = dir.join("notes.txt");
    std::fs::write(&other, "hello").unwrap();
    h.input_mut().dropped_files.push(std::sync::Arc::new(Dropped(other)));
    h.run();
    assert!(h.state().message().unwrap_or("").contains("not a position file"), "{:?}", h.state().message());
    assert_eq!(h.state().position().history_string(), "d d c");
}

/// The matchup form is remembered between sessions and read back from a loaded run; a run with
/// SPRT shows each pairing's live log-likelihood ratio against its bounds, and stops a pairing
/// whose evidence is decisive.
#[test]
fn the_matchup_form_is_remembered_and_runs_an_sprt() {
    let dir = Scratch::new("gui-sprt");
    let mut w = Workbench::new(Variant::tictactoe());
    w.slot_mut(1).set(preset("random").unwrap());
    w.show_tab(BottomTab::Matchup);
    let mut h = harness(w);
    h.run();
    {
        let m = &mut h.state_mut().matchup_mut();
        let form = m.form_mut();
        form.variants_text = "tictactoe".into();
        form.plays_board = false;
        form.games = 400;
        form.seed = 7;
        form.threads = 1;
        form.opening_plies = 1;
        form.out_dir = dir.display().to_string();
    }
    h.run();
    h.get_by_label("SPRT").click();
    h.run();
    assert!(h.state().matchup().form().sprt);
    h.state_mut().matchup_mut().form_mut().sprt_config.elo1 = 100.0;
    h.get_by_label("Run matchup").click();
    h.run_steps(2);
    assert!(wait(&mut h, 60.0, |w| !w.matchup().busy()), "the run ends: {:?}", h.state().matchup().error());
    h.run();
    let games = h.state().matchup().records().len();
    // strong-ab never loses tic-tac-toe and beats random most games: H1 long before 400 games.
    assert!(games < 400, "the SPRT stopped the pairing early ({games} games)");
    let sprt = h.state().matchup().form().sprt_config;
    let stats = mnklab::arena::summarize(h.state().matchup().records());
    assert_eq!(stats.len(), 1);
    // The words `match` prints.
    let line = mnklab::arena::stats::sprt_line(&stats[0], sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta);
    assert!(
        line.starts_with("sprt(elo0 0, elo1 100, alpha 0.05, beta 0.05): strong-ab vs random on mnk:3,3,3, LLR ")
            && line.contains("H1 accepted (for strong-ab"),
        "{line}"
    );
    assert!(h.query_by_label(&line).is_some(), "shown under the summary: {line}");
    // Time used against time allowed, under the summary as `match` prints it (strong-ab has
    // 1 s a move and proves tic-tac-toe at once: every move ended early).
    h.get_by_label_contains("time: strong-ab: wall 1 s a move, every move ended early");
    // Remembered: the settings of this session fill the next one's form.
    let remembered = h.state().settings(true);
    let mut next = Workbench::new(Variant::connect4());
    next.apply_settings(&remembered);
    assert_eq!(next.matchup().form(), h.state().matchup().form());
    // The export path is proposed in the remembered run folder (it named out/workbench).
    let folder = std::path::Path::new(&next.matchup().form().out_dir).to_path_buf();
    assert_eq!(std::path::Path::new(&next.matchup().exporter().path).parent(), Some(folder.as_path()));
    // Read back from the run: a fresh form loading the run folder gets the run's settings.
    let mut fresh = Workbench::new(Variant::connect4());
    fresh.matchup_mut().load(&dir);
    let f = fresh.matchup().form();
    assert_eq!(
        (f.variants_text.as_str(), f.games, f.seed, f.opening_plies, f.sprt),
        ("mnk:3,3,3", 400, 7, 1, true),
        "the canonical name of the variant"
    );
    assert_eq!(f.sprt_config.elo1, 100.0);
}

/// MCTS's threads can share one tree: the form's "parallel" choice sets the agent file's
/// field (and its RON text), shows the virtual loss, and the analysis runs on two threads.
#[test]
fn mcts_threads_share_one_tree_when_the_form_says_so() {
    use mnklab::agents::AgentConfig;
    use mnklab::search::Parallel;
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(1).analysis_mut().set_seconds(0.5);
    let mut h = harness(w);
    h.run();
    assert!(matches!(&h.state().slots()[1].file().agent, AgentConfig::Mcts(_)), "B is MCTS");
    h.get_by_label("Options B").click();
    h.run();
    assert!(h.query_by_label("virtual loss").is_none(), "root parallelism has no virtual loss");
    // The form is long: scroll to the choice, then open it.
    click_in_view(&mut h, "parallel");
    h.get_by_label("tree (shared, virtual loss)").click();
    h.run();
    match &h.state().slots()[1].file().agent {
        AgentConfig::Mcts(c) => {
            assert_eq!(c.parallel, Parallel::Tree { virtual_loss: 1 });
        }
        other => panic!("not MCTS: {other:?}"),
    }
    h.state_mut().slot_mut(1).edit(|f| {
        if let AgentConfig::Mcts(c) = &mut f.agent {
            c.threads = 2;
        }
    });
    let text = &h.state().slots()[1].ron_text();
    assert!(text.contains("parallel: Tree(") && text.contains("virtual_loss: 1"), "the RON text follows: {text}");
    assert!(h.query_by_label("virtual loss").is_some(), "the virtual loss is shown for a shared tree");
    h.get_by_label("Options B").click();
    h.run();
    h.get_by_label("Start analysis B").click();
    assert!(wait(&mut h, 15.0, |w| !w.slots()[1].analysis().running() && w.slots()[1].analysis().result().is_some()));
    let r = h.state().slots()[1].analysis().result().cloned().unwrap();
    assert!(r.stats.iterations > 1_000 && r.best.is_some(), "{:?}", r.stats);
}

/// The suspected flaws of the papers' programs are options of the form, as in an agent file:
/// MCTS's tree depth cap (1: Alam's flat tree, as we read his code) and alpha-beta's flaw,
/// each set by a click and written into the RON text.
#[test]
fn the_form_sets_the_papers_suspected_flaws() {
    use mnklab::agents::AgentConfig;
    use mnklab::search::AlphaBetaFlaw;
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    let c4 = Variant::connect4();
    assert!(matches!(h.state().slots()[0].file().agent.for_variant(&c4), AgentConfig::AlphaBeta(_)), "A is alpha-beta");
    assert!(matches!(&h.state().slots()[1].file().agent, AgentConfig::Mcts(_)), "B is MCTS");
    h.get_by_label("Options B").click();
    h.run();
    let cap = "tree depth cap (1: flat UCB over the root's moves)";
    click_in_view(&mut h, cap);
    match &h.state().slots()[1].file().agent {
        AgentConfig::Mcts(c) => assert_eq!(c.max_tree_depth, Some(1)),
        other => panic!("not MCTS: {other:?}"),
    }
    assert!(h.state().slots()[1].ron_text().contains("max_tree_depth: Some(1)"), "{}", h.state().slots()[1].ron_text());
    h.get_by_label("Options B").click();
    h.get_by_label("Options A").click();
    h.run();
    click_in_view(&mut h, "flaw (for tests)");
    h.get_by_label("horizon tested before the win").click();
    h.run();
    match h.state().slots()[0].file().agent.for_variant(&c4) {
        AgentConfig::AlphaBeta(c) => assert_eq!(c.flaw, Some(AlphaBetaFlaw::HorizonBeforeWin)),
        other => panic!("not alpha-beta: {other:?}"),
    }
    assert!(
        h.state().slots()[0].ron_text().contains("flaw: Some(HorizonBeforeWin)"),
        "{}",
        h.state().slots()[0].ron_text()
    );
}

/// Three Left presses within one frame step back three moves, and Right forward again (fast
/// taps once stepped one: a new-user trial's presses 12 ms apart).
#[test]
fn presses_within_one_frame_each_step_a_move() {
    let mut w = Workbench::new(Variant::connect4());
    w.paste_moves("d c d c d");
    let mut h = harness(w);
    h.run();
    assert_eq!(h.state().position().ply(), 5);
    for _ in 0..3 {
        h.key_press(egui::Key::ArrowLeft);
    }
    h.run();
    assert_eq!(h.state().position().ply(), 2);
    h.key_press(egui::Key::ArrowRight);
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!(h.state().position().ply(), 4);
}

/// Moves given on the command line (`mnklab --game connect4 --moves ...`) are played as a line
/// of the record, and the status line says they came from the command line, not a paste.
#[test]
fn command_line_moves_say_where_they_came_from() {
    let mut w = Workbench::new(Variant::connect4());
    w.play_command_line_moves("dcd");
    assert_eq!(w.position().ply(), 3);
    assert_eq!(w.message(), Some("played the 3 moves given on the command line"));
    w.paste_moves("dd");
    assert_eq!(w.message(), Some("pasted 2 moves"));
    w.play_command_line_moves("d d d d d d d");
    assert_eq!(w.position().ply(), 2, "an illegal line leaves the game as it was");
    assert!(w.message().unwrap().starts_with("not a move string"), "{:?}", w.message());
}

/// An agent file that does not load says why first and names the file last: the panel's one
/// line is cut at its width, and a trial saw only "not loaded: /long/path: not a valid agent…".
#[test]
fn an_agent_file_that_does_not_load_says_why_first() {
    let dir = Scratch::new("gui-agent-file");
    let path = dir.join("broken.ron");
    std::fs::write(&path, "(version: 1, name: \"x\", agent: Nonsense)").unwrap();
    let mut w = Workbench::new(Variant::connect4());
    w.slot_mut(0).load(&path);
    let said = w.slots()[0].message().unwrap_or_default();
    assert!(said.starts_with("not loaded: not a valid agent file: "), "{said}");
    assert!(said.ends_with(&format!(" ({})", path.display())), "{said}");
    assert!(w.slots()[0].message_failed());
    // A file that is not there: the path is named once, at the end.
    let missing = dir.join("missing.ron");
    w.slot_mut(0).load(&missing);
    let said = w.slots()[0].message().unwrap_or_default();
    assert!(said.starts_with("not loaded: cannot read: "), "{said}");
    assert_eq!(said.matches(&missing.display().to_string()).count(), 1, "{said}");
}

/// The agent form offers the limits the agent reads, and refuses one it does not: an MCTS
/// agent with an iteration limit turned into alpha-beta keeps the limit on screen, with the
/// error naming it, until it is cleared (alpha-beta once searched on without end).
#[test]
fn the_agent_form_refuses_a_limit_the_agent_ignores() {
    let mut h = options_of("connect4", "", "alam-mcts");
    assert!(h.query_by_label("iterations").is_some(), "MCTS reads iterations");
    assert!(h.query_by_label("depth").is_none(), "MCTS does not read a depth: not offered");
    h.get_by_label("kind").click();
    h.run();
    h.get_by_label("alpha-beta").click();
    h.run();
    h.run();
    assert!(matches!(h.state().slots()[0].file().agent, mnklab::agents::AgentConfig::AlphaBeta(_)));
    let error = h.state().slots()[0].error().unwrap_or_default();
    assert!(error.contains("`iterations` is not a limit this alpha-beta agent reads"), "{error}");
    h.get_by_label_contains("`iterations` is not a limit");
    // The limit is still shown, so it can be cleared; then the form is valid.
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "iterations").click();
    h.run();
    assert_eq!(h.state().slots()[0].file().limits.iterations, None);
    assert_eq!(h.state().slots()[0].error(), None);
    assert!(h.query_by_label("depth").is_some(), "alpha-beta reads a depth: offered");
}

/// "per family" in the kind menu makes the agent a per-family one with itself on every
/// family; a click in the board's family's options then changes that family alone, and the
/// RON text says so.
#[test]
fn the_kind_menu_makes_an_agent_per_family() {
    use mnklab::agents::AgentConfig;
    let mut h = options_of("mnk:9,9,5", "", "strong-ab-v1");
    let plain = h.state().slots()[0].file().agent.clone();
    h.get_by_label("kind").click();
    h.run();
    h.get_by_label("per family").click();
    h.run();
    h.run();
    let AgentConfig::PerFamily(p) = &h.state().slots()[0].file().agent else { panic!("not per family") };
    assert!([&p.free, &p.gravity, &p.connect3d].iter().all(|c| ***c == plain), "itself on every family");
    assert_eq!(h.state().slots()[0].error(), None);
    assert!(h.state().slots()[0].ron_text().contains("PerFamily("), "{}", h.state().slots()[0].ron_text());
    assert!(h.query_by_label("free placement (m,n,k, gomoku) (this board)").is_some(), "the board's family");
    h.get_by_label("alpha-beta pruning").click();
    h.run();
    let agent = &h.state().slots()[0].file().agent;
    let pruning = |v: &str| match agent.for_variant(&v.parse().unwrap()) {
        AgentConfig::AlphaBeta(c) => c.pruning,
        other => panic!("not alpha-beta: {other:?}"),
    };
    assert!(!pruning("mnk:9,9,5") && pruning("connect4") && pruning("connect3d"), "the board's family alone");
}

/// The toolbar's Recent menu loads the file picked (and shows it in the file field), and Keys
/// opens and closes the shortcuts window, as clicks.
#[test]
fn the_recent_menu_loads_a_file_and_keys_shows_the_shortcuts() {
    let dir = Scratch::new("gui-recent");
    let file = dir.join("recent.ron");
    std::fs::write(&file, r#"(variant: "tictactoe", moves: ["b2", "a1"])"#).unwrap();
    let path = file.display().to_string();
    let mut w = Workbench::new(Variant::connect4());
    w.apply_settings(&mnklab::app::Settings { recent: vec![path.clone()], ..Default::default() });
    let mut h = harness(w);
    h.run();
    h.get_by_label("Recent").click();
    h.run();
    h.get_by_label(path.as_str()).click();
    h.run();
    assert_eq!(h.state().position().variant(), Variant::tictactoe());
    assert_eq!(h.state().position().history_string(), "b2 a1");
    assert_eq!(h.state().file_path(), path, "the field names the file loaded");
    assert!(!h.state().help_open());
    h.get_by_label("Keys").click();
    h.run();
    assert!(h.state().help_open(), "the shortcuts window opens");
    assert!(h.query_by_label("Keyboard shortcuts").is_some(), "and is drawn");
    h.get_by_label("Keys").click();
    h.run();
    assert!(!h.state().help_open(), "and closes again");
}

/// An export never replaces a file silently: a file this session did not write is asked
/// about (Replace or Keep); the exporter's own earlier file is replaced without a question.
#[test]
fn an_export_asks_before_replacing_a_file_it_did_not_write() {
    let dir = Scratch::new("gui-export-ask");
    let figure = dir.join("review.svg");
    std::fs::write(&figure, "a colleague's figure").unwrap();
    let mut w = Workbench::new(Variant::tictactoe());
    w.paste_moves("b2 a1 b1");
    w.show_tab(BottomTab::Review);
    w.review_mut().set_seconds(0.05);
    w.review_mut().exporter_mut().path = figure.display().to_string();
    let mut h = harness(w);
    h.run();
    h.get_by_label("Review game").click();
    assert!(wait(&mut h, 30.0, |w| !w.review().running() && w.review().moves().len() == 3));
    h.run();
    // Below the graph: scrolled to, as a person would.
    click_in_view(&mut h, "Export review");
    assert!(h.state().review().exporter().message.as_deref().is_some_and(|m| m.contains("exists")));
    assert_eq!(std::fs::read_to_string(&figure).unwrap(), "a colleague's figure", "nothing written yet");
    // Below the graph: scrolled to, as a person would.
    click_in_view(&mut h, "Keep review");
    assert_eq!(std::fs::read_to_string(&figure).unwrap(), "a colleague's figure");
    // Below the graph: scrolled to, as a person would.
    click_in_view(&mut h, "Export review");
    // Below the graph: scrolled to, as a person would.
    click_in_view(&mut h, "Replace review");
    assert!(wait(&mut h, 10.0, |w| w.review().exporter().message.as_deref().is_some_and(|m| m.starts_with("wrote"))));
    assert!(std::fs::read_to_string(&figure).unwrap().starts_with("<svg"), "replaced once asked");
    // Its own file again: written without a question.
    // Below the graph: scrolled to, as a person would.
    click_in_view(&mut h, "Export review");
    assert!(wait(&mut h, 10.0, |w| w.review().exporter().message.as_deref().is_some_and(|m| m.starts_with("wrote"))));
    assert!(h.query_by_label("Replace review").is_none());
}

/// A review says when the game has moved on: moves added after it, or another line shown.
#[test]
fn a_review_says_which_moves_it_does_not_cover() {
    let mut w = Workbench::new(Variant::tictactoe());
    w.paste_moves("b2 a1 b1");
    w.show_tab(BottomTab::Review);
    w.review_mut().set_seconds(0.05);
    let mut h = harness(w);
    h.run();
    h.get_by_label("Review game").click();
    assert!(wait(&mut h, 30.0, |w| !w.review().running() && w.review().moves().len() == 3));
    h.run();
    assert!(h.query_by_label_contains("This review covers").is_none(), "the whole game is reviewed");
    let b3 = h.state().position().parse_move("b3").unwrap();
    h.state_mut().play(b3);
    h.run();
    h.get_by_label_contains("covers the first 3 of the game's 4 moves");
    assert_eq!(h.state().review().moves().len(), 3, "the review of the first moves stays");
    // Another line from the start: the review is said to be of another line.
    h.state_mut().paste_moves("a2");
    h.run();
    h.get_by_label_contains("This review is of another line");
}

/// Save matchup never writes into another run's folder: the form's folder holding results,
/// the draft goes to the next free folder, where a fresh run goes too; the form stays.
#[test]
fn save_matchup_leaves_a_runs_folder_alone() {
    let dir = Scratch::new("gui-matchup-draft");
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("results.ronl"), "").unwrap();
    let mut w = Workbench::new(Variant::tictactoe());
    w.show_tab(BottomTab::Matchup);
    w.matchup_mut().form_mut().out_dir = run.display().to_string();
    let mut h = harness(w);
    h.run();
    h.get_by_label("Files").click();
    h.run();
    h.get_by_label("Save matchup").click();
    h.run();
    assert!(!run.join("run.ron").exists() && !run.join("run-2.ron").exists(), "the run's folder is left alone");
    // Named after the folder it went to: `mnklab match` on it writes out/run-2.
    let saved = mnklab::arena::matchup::Matchup::load(&dir.join("run-2").join("run-2.ron")).unwrap();
    assert_eq!(saved.name, "run-2");
    assert_eq!(h.state().matchup().form().out_dir, run.display().to_string(), "the form is left alone");
    assert!(h.state().matchup().error().is_none());
}

/// Save matchup says its success in the text colour, on a line kept for it (the plot below
/// stays put); the saved file opens again through the toolbar's File field (one Open for positions, matchups, agents and runs), filling the form.
#[test]
fn a_saved_matchup_opens_again_from_the_file_field() {
    let dir = Scratch::new("gui-matchup-open");
    let mut w = Workbench::new(Variant::tictactoe());
    w.show_tab(BottomTab::Matchup);
    w.matchup_mut().form_mut().out_dir = dir.display().to_string();
    w.matchup_mut().form_mut().variants_text = "tictactoe mnk:4,4,3".into();
    w.matchup_mut().form_mut().games = 8;
    let mut h = harness(w);
    h.run();
    let plot_at = h.get_by_label("Score").rect();
    h.get_by_label("Files").click();
    h.run();
    h.get_by_label("Save matchup").click();
    h.run();
    let name = dir.file_name().unwrap().to_str().unwrap().to_string();
    let saved = dir.join(format!("{name}.ron"));
    assert_eq!(mnklab::arena::matchup::Matchup::load(&saved).unwrap().name, name, "named after its folder");
    assert_eq!(h.state().matchup().error(), None, "a success is no error");
    assert_eq!(h.get_by_label("Score").rect(), plot_at, "the notice's line was kept for it: the plot stays put");
    assert!(h.query_by_label_contains(&format!("saved {}", saved.display())).is_some());
    // Change the form, then open the file from the File field: the form is the file's again.
    h.state_mut().matchup_mut().form_mut().games = 2;
    h.state_mut().matchup_mut().form_mut().variants_text = "connect4".into();
    h.state_mut().show_tab(BottomTab::Explorer);
    h.state_mut().set_file_path(saved.display().to_string());
    h.run();
    h.get_by_label("Load").click();
    h.run();
    assert_eq!(h.state().tab(), BottomTab::Matchup, "the matchup tab shows what was opened");
    assert_eq!(
        (h.state().matchup().form().games, h.state().matchup().form().variants_text.as_str()),
        (8, "mnk:3,3,3 mnk:4,4,3")
    );
    assert_eq!(h.state().position().variant(), Variant::tictactoe(), "the game is left alone");
    assert!(h.state().message().is_some_and(|m| m.contains("matchup")), "{:?}", h.state().message());
    // An agent file opens into slot A.
    h.state_mut().set_file_path(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/agents/jeng-mcts.ron").display().to_string(),
    );
    h.run();
    h.get_by_label("Load").click();
    h.run();
    assert_eq!(h.state().slots()[0].file().name, "jeng-mcts");
}

/// Every file the panels read or write goes to Recent, as the game's own files do: a saved
/// matchup, a saved and a loaded agent. A file that fails to open does not, and the message
/// says where the reason is.
#[test]
fn files_saved_and_opened_by_the_panels_go_to_recent() {
    let dir = Scratch::new("gui-recent-panels");
    let mut w = Workbench::new(Variant::tictactoe());
    w.show_tab(BottomTab::Matchup);
    w.matchup_mut().form_mut().out_dir = dir.join("run").display().to_string();
    let mut h = harness(w);
    h.run();
    h.get_by_label("Files").click();
    h.run();
    h.get_by_label("Save matchup").click();
    h.run();
    let matchup = dir.join("run").join("run.ron").display().to_string();
    assert_eq!(h.state().recent().first(), Some(&matchup), "{:?}", h.state().matchup().error());
    let agent = dir.join("a.ron").display().to_string();
    h.get_by_label("File A").click();
    h.get_by_label("File B").click();
    h.run();
    h.state_mut().slot_mut(0).set_path(&agent);
    h.get_by_label("Save agent A").click();
    h.run();
    assert_eq!(h.state().recent(), [agent.clone(), matchup.clone()]);
    // B cannot read the matchup as an agent: not remembered. B's load of the agent keeps
    // it at the top, once.
    h.state_mut().slot_mut(1).set_path(&matchup);
    h.get_by_label("Load agent B").click();
    h.run();
    h.state_mut().slot_mut(1).set_path(&agent);
    h.get_by_label("Load agent B").click();
    h.run();
    assert_eq!(h.state().recent(), [agent.clone(), matchup.clone()], "a failed load is not remembered");
    // A matchup file that does not read: not opened, not remembered, said so.
    let broken = dir.join("broken.ron");
    std::fs::write(&broken, "(variants: oops)").unwrap();
    h.state_mut().open(&broken.display().to_string());
    h.run();
    assert_eq!(h.state().recent(), [agent, matchup]);
    let message = h.state().message().unwrap_or_default().to_string();
    assert!(message.starts_with("not opened") && message.contains("the matchup tab says why"), "{message}");
    assert!(h.state().matchup().error().is_some());
}

/// Save matchup on an opened matchup file saves that matchup, its name and its agents (it
/// saved the form's, between the slots, named "workbench"); reopened, the run folder is the
/// one `mnklab match` writes for that name.
#[test]
fn save_matchup_keeps_an_opened_matchups_name_and_agents() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/experiments/heuristics.ron");
    let dir = Scratch::new("gui-matchup-resave");
    let mut w = Workbench::new(Variant::tictactoe());
    w.show_tab(BottomTab::Matchup);
    let mut h = harness(w);
    h.run();
    h.state_mut().open(&file.display().to_string());
    h.run();
    h.state_mut().matchup_mut().form_mut().out_dir = dir.join("heuristics").display().to_string();
    h.run();
    h.get_by_label("Files").click();
    h.run();
    h.get_by_label("Save matchup").click();
    h.run();
    let saved = dir.join("heuristics").join("heuristics.ron");
    let (want, got) = (mnklab::arena::Matchup::load(&file).unwrap(), mnklab::arena::Matchup::load(&saved).unwrap());
    assert_eq!((got.name.as_str(), &got.agents, got.games), ("heuristics", &want.agents, want.games));
    h.state_mut().open(&saved.display().to_string());
    h.run();
    assert_eq!(h.state().matchup().form().out_dir, "out/heuristics");
    assert!(h.query_by_label_contains("Agents: lim, flecart (the file's").is_some());
}

/// A matchup file opened in the workbench runs as the file says (its entrants, limits and
/// openings), not between the slots' agents with the form's defaults; the tab says whose
/// agents they are, and editing the form or "use the slots' agents" returns to the slots.
#[test]
fn an_opened_matchup_runs_its_own_agents() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/experiments/heuristics.ron");
    let mut w = Workbench::new(Variant::tictactoe());
    w.show_tab(BottomTab::Matchup);
    let mut h = harness(w);
    h.run();
    // Opening a matchup moves nothing under the pointer (its agents' line wrapped to two).
    let run_button = h.get_by_label("Run matchup").rect();
    h.state_mut().open(&file.display().to_string());
    h.run();
    assert_eq!(h.get_by_label("Run matchup").rect(), run_button, "the Run button holds still");
    assert_eq!(h.state().tab(), BottomTab::Matchup);
    assert_eq!(h.state().matchup().form().out_dir, "out/heuristics", "the folder `mnklab match` writes");
    let want = mnklab::arena::Matchup::load(&file).unwrap();
    let run = h.state().matchup().to_run(h.state().slots()).unwrap();
    assert_eq!((run.agents.clone(), run.limits, run.opening.clone()), (want.agents, want.limits, want.opening));
    assert!(h.query_by_label_contains("Agents: lim, flecart (the file's").is_some());
    assert!(h.query_by_label_contains("Agents A (").is_none(), "not the slots'");
    // "use the slots' agents": the form's matchup between the slots.
    h.get_by_label("use the slots' agents").click();
    h.run();
    let run = h.state().matchup().to_run(h.state().slots()).unwrap();
    assert_eq!(run.agents.len(), 2);
    assert_ne!(run.agents[0].name.as_deref(), Some("lim"));
    assert!(h.query_by_label_contains("Agents A (").is_some());
    // Opened again, then the form edited: the form's too.
    h.state_mut().open(&file.display().to_string());
    h.run();
    assert!(h.state().matchup().opened().is_some());
    h.state_mut().matchup_mut().form_mut().games = 2;
    h.run();
    assert!(h.state().matchup().opened().is_none(), "an edited form is the form's matchup");
    // A run folder opened is the run's matchup too (its folder, set after the form was
    // remembered, once made the form differ at once: the tab named the slots' agents).
    let run = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/workbench-run");
    h.state_mut().open(&run.display().to_string());
    h.run();
    assert!(h.state().matchup().opened().is_some(), "the opened run's matchup");
    assert!(h.query_by_label_contains("(the file's, with its limits").is_some());
    assert!(h.query_by_label_contains("Agents A (").is_none(), "not the slots'");
    // Another run folder typed: where the run goes, not what it plays; nothing below moves.
    let save = h.get_by_label("Files").rect();
    h.state_mut().matchup_mut().form_mut().out_dir.push('x');
    h.run();
    assert!(h.state().matchup().opened().is_some(), "still the opened matchup's agents");
    assert_eq!(h.get_by_label("Files").rect(), save, "the button stays under the pointer");
}

/// A run folder that names a file (a matchup loaded through "Load run" left its path there)
/// is refused with the reason before anything runs, not with the system's "File exists".
#[test]
fn a_run_folder_that_is_a_file_is_refused_with_the_reason() {
    let dir = Scratch::new("gui-run-folder-file");
    let file = dir.join("matchup.ron");
    std::fs::write(&file, "not a folder").unwrap();
    let mut w = Workbench::new(Variant::tictactoe());
    w.show_tab(BottomTab::Matchup);
    w.matchup_mut().form_mut().games = 2;
    w.matchup_mut().form_mut().out_dir = file.display().to_string();
    let mut h = harness(w);
    h.run();
    h.get_by_label("Run matchup").click();
    h.run();
    let error = h.state().matchup().error().unwrap_or_default().to_string();
    assert!(error.contains("is a file: name a folder"), "{error}");
    assert_eq!(h.state().matchup().state(), RunState::Idle, "nothing ran");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a folder", "the file is untouched");
}

/// A low window shrinks the board's cells rather than cutting the board: every cell of
/// gomoku's 15 x 15 and connect3d's six levels stays above the tabs below.
#[test]
fn a_low_window_shows_the_whole_board() {
    for game in [Variant::gomoku(), "connect3d".parse().unwrap()] {
        for height in [520.0, 420.0] {
            let mut h = crate::common::harness_sized(Workbench::new(game), egui::vec2(900.0, height));
            h.run();
            let board = h.get_by_label("board").rect();
            let tabs = h.get_by_label("Explorer").rect();
            assert!(board.bottom() <= tabs.top(), "{game} at {height}: board {board:?}, tabs {tabs:?}");
        }
    }
}

/// After a set-up, the status line counts moves from it, as the move list does ("1." is the
/// first move after the set-up), and says how many stones the set-up has.
#[test]
fn moves_after_a_set_up_count_from_it() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut w = Workbench::new(Variant::connect4());
    w.open(&root.join("saves/positions/connect4-setup.ron").display().to_string());
    let setup = w.start_position().ply();
    assert!(setup > 0, "the file is a set-up");
    let mut h = harness(w);
    h.run();
    for _ in 0..2 {
        let m = h.state().position().legal_moves()[0];
        h.state_mut().play(m);
    }
    h.run();
    h.get_by_label_contains(&format!("move 3 after a set-up of {setup} stones"));
    h.get_by_label("2. a");
}

/// The Accuracy tab: an experiment file opened with Open lands in the tab; Run fills the
/// curves as budgets finish (the progress says the searches), Stop and Resume continue the
/// run's rows, and Export writes the paper's figure (a panel a board) into the run's folder.
#[test]
fn the_accuracy_tab_runs_an_experiment_with_live_curves() {
    let dir = Scratch::new("gui-accuracy");
    let suite = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("saves/suites/quick-mnk-5-5-4.ron");
    let file = dir.join("tiny.ron");
    std::fs::write(
        &file,
        format!(
            r#"(name: "tiny", suites: ["{}"], agents: [(agent: Preset("random")), (agent: Preset("strong-ab")),
                (agent: Preset("strong-mcts"))], work: Some((from: 6, to: 9)), cpu_seconds: [0.001], positions: Some(40),
                seed: 3)"#,
            suite.display()
        ),
    )
    .unwrap();
    let mut w = Workbench::new(Variant::tictactoe());
    w.open(&file.display().to_string());
    assert_eq!(w.tab(), BottomTab::Accuracy, "Open recognises an accuracy experiment");
    assert_eq!(w.accuracy().out_dir, "out/tiny", "its run folder named after it");
    w.accuracy_mut().out_dir = dir.join("run").display().to_string();
    let mut h = harness(w);
    h.run();
    assert!(h.query_by_label_contains("not run yet").is_some());
    h.get_by_label("Run experiment").click();
    h.run();
    assert_eq!(h.state().accuracy().state(), mnklab::app::AccuracyState::Running);
    assert!(wait(&mut h, 20.0, |w| w.accuracy().progress().0 > 0), "progress arrives");
    h.get_by_label("Stop experiment").click();
    h.run();
    assert!(wait(&mut h, 20.0, |w| w.accuracy().state() == mnklab::app::AccuracyState::Stopped));
    // Resume waits for the stopped worker's last rows (two workers never write one folder).
    assert!(wait(&mut h, 20.0, |w| !w.accuracy().busy()), "the worker ends");
    let (stopped_at, total) = h.state().accuracy().progress();
    assert_eq!(total, 40 + 2 * 5 * 40, "random once, the others at four work budgets and one of CPU");
    assert!(dir.join("run/moves.csv").is_file(), "the rows so far are on disk");
    // Resume continues the same folder's rows; the curves fill in to the end.
    h.get_by_label("Resume experiment").click();
    assert!(wait(&mut h, 60.0, |w| w.accuracy().state() == mnklab::app::AccuracyState::Finished));
    h.run();
    assert_eq!(h.state().accuracy().progress(), (total, total), "stopped at {stopped_at}: none searched twice");
    let rows = std::fs::read_to_string(dir.join("run/moves.csv")).unwrap().lines().count() - 1;
    assert_eq!(rows, total, "one row a search");
    let table = h.state().accuracy().table();
    assert!(table.iter().any(|r| r.agent == "strong-mcts" && r.budget == "512" && r.group == "all"), "{table:?}");
    assert!(h.query_by_label_contains("finished: 440 searches").is_some());
    let fig = h.state().accuracy().figure().expect("a figure of the board");
    let mnklab::plot::FigureData::Lines(lines) = &fig.data else { panic!("lines") };
    assert_eq!(lines.len(), 3, "a line an agent, random flat");
    // Export: the paper's figure into the run's folder, as a PDF beside the run's own SVG
    // (its CSV the same numbers, replaced without a question).
    click_in_view(&mut h, "Export accuracy");
    assert!(wait(&mut h, 10.0, |w| w.accuracy().exporter().message.as_deref().is_some_and(|m| m.starts_with("wrote"))));
    assert!(dir.join("run/accuracy-work.pdf").is_file() && dir.join("run/accuracy-work.csv").is_file());
    // The CPU axis exports under its own name, and a file the exporter did not write is
    // asked about, the question held from frame to frame until answered.
    std::fs::write(dir.join("run/accuracy-cpu.pdf"), "mine").unwrap();
    click_in_view(&mut h, "CPU time");
    assert!(
        h.state().accuracy().exporter().path.ends_with("accuracy-cpu.pdf"),
        "{}",
        h.state().accuracy().exporter().path
    );
    click_in_view(&mut h, "Export accuracy");
    h.run();
    assert!(h.query_by_label("Replace accuracy").is_some(), "the question stays");
    h.get_by_label("Keep accuracy").click();
    h.run();
    assert_eq!(std::fs::read_to_string(dir.join("run/accuracy-cpu.pdf")).unwrap(), "mine");
    // A second run never mixes with the first's rows: the next free folder.
    click_in_view(&mut h, "Run experiment");
    assert!(h.state().accuracy().out_dir.ends_with("run-2"), "{}", h.state().accuracy().out_dir);
    h.get_by_label("Stop experiment").click();
    assert!(wait(&mut h, 20.0, |w| w.accuracy().state() != mnklab::app::AccuracyState::Running));
    // Its worker ends before the scratch folder goes (it wrote into a deleted run-2).
    assert!(wait(&mut h, 20.0, |w| !w.accuracy().busy()), "the worker ends");
}

/// "Enlarge" opens the matchup's plot in a window of its own, far taller than the tab has room
/// for at the default window size, with the same figure (its title twice: tab and window).
#[test]
fn enlarge_shows_the_plot_in_a_window_of_its_own() {
    let mut w = Workbench::new(Variant::connect4());
    let run = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/workbench-run");
    w.open(&run.display().to_string());
    let mut h = crate::common::harness_sized(w, egui::vec2(1300.0, 860.0));
    h.run();
    let title = h.state().matchup().figure().expect("a figure of the run").title;
    assert_eq!(h.get_all_by_label(&title).count(), 1, "in the tab only");
    let window = egui::Id::unique(("enlarged plot", "matchup"));
    assert!(h.ctx.memory(|m| m.area_rect(window)).is_none());
    h.get_by_label("Enlarge plot").click();
    h.run();
    h.run();
    assert_eq!(h.get_all_by_label(&title).count(), 3, "the tab's, the window's title bar and its plot's");
    let rect = h.ctx.memory(|m| m.area_rect(window)).expect("the window is open");
    assert!(rect.height() >= 500.0 && rect.width() >= 800.0, "{rect:?}");
}

/// At the default window size (1300x860) an opened run's summary and plot show whole under
/// the run buttons (they needed a scroll: the form came first), the plot at least 130 points
/// tall with its export in a menu of its title row (under it, the row left the plot some 95
/// points), and the summary's ten columns fit the tab's width (the last was cut).
#[test]
fn a_runs_summary_and_plot_show_whole_at_the_default_size() {
    let mut w = Workbench::new(Variant::connect4());
    let run = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/workbench-run");
    w.open(&run.display().to_string());
    assert_eq!(w.tab(), BottomTab::Matchup);
    let mut h = crate::common::harness_sized(w, egui::vec2(1300.0, 860.0));
    h.run();
    assert_eq!(h.state().matchup().records().len(), 60);
    let buttons = h.get_by_label("Run matchup").rect();
    let header = h.get_by_label("W-D-L").rect();
    let forfeits = h.get_by_label("forfeits").rect();
    let legend = h.get_by_label("95% interval (shaded)").rect();
    let status = h.get_by_label_contains("first to move").rect();
    assert!(header.top() > buttons.bottom(), "the summary under the buttons");
    assert!(forfeits.right() <= 1300.0 - 560.0, "the last column left of the agents panel: {forfeits:?}");
    assert!(legend.top() > header.bottom() + 3.0 * 16.0, "three rows of boards above the plot");
    assert!(status.top() - legend.bottom() >= 130.0, "the plot under its legend: {legend:?} {status:?}");
    assert!(h.query_by_label("Export plot").is_none(), "the export row in its menu");
    assert!(h.get_by_label("Export...").rect().bottom() < legend.top(), "the menu in the title row");
    // The form under them wraps at the tab's width (its last field ran past the edge).
    h.get_by_label("threads (0: all)").scroll_to_me();
    h.run();
    let threads = h.get_by_label("threads (0: all)").rect();
    assert!(threads.right() <= 1300.0 - 560.0, "the form's last field within the tab: {threads:?}");
}

/// Opening an agent's options never widens the agents' panel: a row wider than the column
/// scrolls in it (the panel grew by 120 px for good, and Options B moved under the pointer).
#[test]
fn opening_an_agents_options_moves_nothing_beside_it() {
    let mut h = crate::common::harness_sized(Workbench::new(Variant::connect4()), egui::vec2(1300.0, 860.0));
    h.run();
    let b = h.get_by_label("Options B").rect();
    let board = h.get_by_label("board").rect();
    h.get_by_label("Options A").click();
    h.run();
    h.run();
    assert!(h.query_by_label_contains("iterative deepening").is_some(), "A's options are open");
    assert_eq!(h.get_by_label("Options B").rect(), b, "B's options stay under the pointer");
    assert_eq!(h.get_by_label("board").rect(), board, "the board keeps its place and size");
}

/// Folding the tabs gives gomoku's board their height (at the default size it was left 310 px
/// wide); a tab clicked while folded unfolds them, and F2 folds and unfolds too.
#[test]
fn folding_the_tabs_gives_the_board_their_height() {
    let gomoku: Variant = "mnk:15,15,5".parse().unwrap();
    let mut h = crate::common::harness_sized(Workbench::new(gomoku), egui::vec2(1300.0, 860.0));
    h.run();
    let unfolded = h.get_by_label("board").rect();
    h.get_by_label("Fold tabs").click();
    h.run();
    h.run();
    assert!(h.state().tabs_folded());
    let folded = h.get_by_label("board").rect();
    assert!(folded.height() > unfolded.height() + 150.0, "{unfolded:?} -> {folded:?}");
    assert!(h.query_by_label_contains("no tree yet").is_none(), "the explorer is folded away");
    h.get_by_label("Review").click();
    h.run();
    h.run();
    assert!(!h.state().tabs_folded());
    assert_eq!(h.state().tab(), BottomTab::Review);
    assert_eq!(h.get_by_label("board").rect(), unfolded, "the unfolded tabs keep their height");
    h.key_press(egui::Key::F2);
    h.run();
    assert!(h.state().tabs_folded());
    h.get_by_label("Unfold tabs").click();
    h.run();
    assert!(!h.state().tabs_folded());
}

/// At the default window size the tabs take a third of the height under connect3d (its cells
/// were 20 points with the tabs at half, their labels too small to read), 42% under gomoku
/// (its cells keep some 25 points, and the matchup's live plot shows whole: at a third it
/// began at the fold) and half under Connect-4, whose matchup summary and plot need the room.
#[test]
fn a_big_board_gets_two_thirds_of_the_height() {
    let board_height = |game: &str| {
        let v: Variant = game.parse().unwrap();
        let mut h = crate::common::harness_sized(Workbench::new(v), egui::vec2(1300.0, 860.0));
        h.run();
        h.run();
        h.get_by_label("board").rect().height()
    };
    let connect3d = board_height("connect3d");
    assert!(connect3d >= 420.0, "connect3d: {connect3d}");
    let gomoku = board_height("mnk:15,15,5");
    assert!(gomoku >= 15.0 * 24.0, "gomoku: {gomoku}");
    let c4 = board_height("connect4");
    assert!((300.0..400.0).contains(&c4), "connect4: {c4}");
}

/// The matchup form plays the board: a new game of gomoku (as `--game gomoku` starts one), or
/// a position of another game opened, makes its variants that game's (they stayed
/// Connect-4's, and Run matchup played that); variants the user typed stay through another
/// game, also when they are the board's name, and so does an opened matchup's; the choice is
/// remembered into the next session, which plays its own board.
#[test]
fn the_matchup_form_follows_the_board() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut w = Workbench::new(Variant::connect4());
    assert_eq!(w.matchup().form().variants_text, "connect:7,6,4");
    w.set_variant_text("mnk:15,15,5");
    w.new_game();
    assert_eq!(w.matchup().form().variants_text, "mnk:15,15,5");
    w.open(&root.join("saves/positions/connect4-mistake.ron").display().to_string());
    assert_eq!(w.position().variant(), Variant::connect4());
    assert_eq!(w.matchup().form().variants_text, "connect:7,6,4", "an opened position's game");
    // The next session remembers that the form plays the board, and plays its own.
    let remembered = w.matchup().form().clone();
    let mut next = Workbench::new("mnk:15,15,5".parse().unwrap());
    next.matchup_mut().apply_form(&remembered);
    assert_eq!(next.matchup().form().variants_text, "mnk:15,15,5", "this session's board");
    // Typed in the form (as a person would), the variants stay, even the board's own name.
    let mut h = crate::common::harness_sized(w, egui::vec2(1300.0, 860.0));
    h.state_mut().show_tab(BottomTab::Matchup);
    h.run();
    h.get_by_label("variants").focus();
    h.run();
    h.get_by_label("variants").type_text(" mnk:4,4,3");
    h.run();
    assert_eq!(h.state().matchup().form().variants_text, "connect:7,6,4 mnk:4,4,3");
    // Typed back to the board's name: still the user's choice (the form once told the two
    // apart by that name).
    for _ in 0..10 {
        h.key_press(egui::Key::Backspace);
    }
    h.run();
    assert_eq!(h.state().matchup().form().variants_text, "connect:7,6,4");
    h.state_mut().set_variant_text("mnk:15,15,5");
    h.state_mut().new_game();
    assert_eq!(h.state().matchup().form().variants_text, "connect:7,6,4", "the user's choice stays");
    let remembered = h.state().matchup().form().clone();
    next.matchup_mut().apply_form(&remembered);
    assert_eq!(next.matchup().form().variants_text, "connect:7,6,4", "and is remembered");
    // An opened matchup's form plays its boards.
    let mut w = Workbench::new(Variant::connect4());
    w.open(&root.join("saves/experiments/two-boards.ron").display().to_string());
    let boards = w.matchup().form().variants_text.clone();
    assert_eq!(boards, "mnk:4,4,3 connect:5,4,4");
    w.set_variant_text("mnk:15,15,5");
    w.new_game();
    assert_eq!(w.matchup().form().variants_text, boards);
}

/// On gomoku at the default window size (the tabs at 42% of the height) a run's live plot
/// shows whole and at least 150 points tall: the summary is one line, its table on request in
/// the plot's place, and the export row is in a menu that says what it wrote on the state
/// line. With the table and the export row above and under it, the plot was some 60 points,
/// the nodes plot without a y tick label, and the export row at the tab's edge.
#[test]
fn the_live_plot_shows_whole_under_gomoku() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Scratch::new("gui-gomoku-live-plot");
    std::fs::copy(root.join("tests/data/workbench-run/results.ronl"), dir.join("results.ronl")).unwrap();
    let mut w = Workbench::new("mnk:15,15,5".parse().unwrap());
    w.open(&dir.display().to_string());
    assert_eq!(w.matchup().records().len(), 60);
    assert_eq!(w.position().variant(), "mnk:15,15,5".parse().unwrap(), "the game is left alone");
    let mut h = crate::common::harness_sized(w, egui::vec2(1300.0, 860.0));
    h.run();
    h.run();
    let headline = h.get_by_label_contains(" vs ").rect();
    let legend = h.get_by_label("95% interval (shaded)").rect();
    let status = h.get_by_label_contains("Gomoku").rect();
    assert!(h.query_by_label("W-D-L").is_none(), "no table above the plot");
    assert!(headline.bottom() < legend.top());
    assert!(status.top() - legend.bottom() >= 150.0, "the plot under its legend: {legend:?} {status:?}");
    // The table on request, in the plot's place, and the plot back.
    h.get_by_label("Table").click();
    h.run();
    assert!(h.query_by_label("W-D-L").is_some_and(|t| t.rect().bottom() < status.top()), "the table in sight");
    assert!(h.query_by_label("95% interval (shaded)").is_none(), "in the plot's place");
    h.get_by_label("Score").click();
    h.run();
    assert!(h.query_by_label("W-D-L").is_none());
    assert!(h.query_by_label("95% interval (shaded)").is_some());
    // The export, from its menu; what it wrote is said on the state line too, in sight once
    // the menu is closed.
    h.state_mut().matchup_mut().exporter_mut().path = dir.join("score.svg").display().to_string();
    show_the_export_row(&mut h);
    h.get_by_label("Export plot").click();
    assert!(wait(&mut h, 10.0, |w| w.matchup().exporter().message.as_deref().is_some_and(|m| m.starts_with("wrote"))));
    assert!(dir.join("score.svg").exists());
    h.key_press(egui::Key::Escape);
    h.run();
    h.run();
    assert!(h.query_by_label("Export plot").is_none(), "the menu closed");
    let state = h.get_by_label_contains("Finished: 60 of 60 games. wrote");
    assert!(state.rect().bottom() < legend.top(), "the state line above the plot");
}

/// Opening a matchup file after a run was shown leaves no trace of that run: its table, plot
/// and "Finished" beside the new matchup's form read as the new matchup's.
#[test]
fn opening_a_matchup_after_a_run_shows_no_old_results() {
    let mut w = Workbench::new(Variant::connect4());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    w.open(&root.join("tests/data/workbench-run").display().to_string());
    assert_eq!(w.matchup().records().len(), 60);
    assert_eq!(w.matchup().state(), RunState::Finished);
    w.open(&root.join("saves/experiments/heuristics.ron").display().to_string());
    assert!(w.matchup().records().is_empty(), "the old run's games are gone");
    assert_eq!(w.matchup().state(), RunState::Idle);
    let mut h = crate::common::harness_sized(w, egui::vec2(1300.0, 860.0));
    h.run();
    assert!(h.query_by_label("W-D-L").is_none(), "no summary table of the old run");
    assert!(h.query_by_label_contains("Finished").is_none());
    assert!(h.state().matchup().notice().is_some_and(|n| n.contains("heuristics.ron")));
    // Exports would go to the new matchup's run folder, not the old run's.
    let folder = h.state().matchup().form().out_dir.clone();
    assert!(h.state().matchup().exporter().path.starts_with(&folder), "{}", h.state().matchup().exporter().path);
}

/// The threat probe is an option of both searching agents' forms: a click turns it on, its
/// settings show (alpha-beta's own among them), the RON text has it (MCTS's MCTS-Solver
/// with it), and the analysis of a gomoku position won by threats says so.
#[test]
fn the_form_turns_the_threat_search_on() {
    use mnklab::agents::AgentConfig;
    // strong-ab searches gomoku with threats already: the form is tried on the one before.
    let mut h = options_of("gomoku", "h8 h7 i8 i7 j8 a1", "strong-ab-v1");
    click_in_view(&mut h, "threat search in the tree");
    match &h.state().slots()[0].file().agent {
        AgentConfig::AlphaBeta(c) => assert!(c.threats.is_some()),
        other => panic!("not alpha-beta: {other:?}"),
    }
    assert!(h.state().slots()[0].ron_text().contains("threats: Some("), "{}", h.state().slots()[0].ron_text());
    assert!(h.query_by_label("nodes a probe").is_some(), "the probe's settings show");
    assert!(h.query_by_label(CHECK).is_some(), "alpha-beta's check of its best move shows");
    assert!(h.query_by_label(FOURS).is_some(), "alpha-beta's fours alone near the leaves show");
    h.get_by_label("Options A").click();
    h.run();
    click_in_view(&mut h, "Start analysis A");
    assert!(wait(&mut h, 15.0, |w| w.slots()[0].analysis().result().is_some() && !w.slots()[0].analysis().running()));
    let notice = h.state().slots()[0].analysis().notice().unwrap_or_default().to_string();
    assert!(notice.contains("win by threats in"), "{notice}");
    // MCTS: the probe needs MCTS-Solver, which the click keeps on.
    h.state_mut().slot_mut(1).edit(|f| {
        if let AgentConfig::Mcts(c) = &mut f.agent {
            c.solver = false;
        }
    });
    h.get_by_label("Options B").click();
    h.run();
    // B's form is the right-hand one (A's may still be open beside it).
    h.get_all_by_label("threat search in the tree").last().unwrap().scroll_to_me();
    h.run();
    h.get_all_by_label("threat search in the tree").last().unwrap().click();
    h.run();
    match &h.state().slots()[1].file().agent {
        AgentConfig::Mcts(c) => assert!(c.threats.is_some() && c.solver, "{c:?}"),
        other => panic!("not MCTS: {other:?}"),
    }
    // MCTS's probe settings have no check of a best move (alpha-beta's alone).
    let probes = h.query_all_by_label("nodes a probe").count();
    assert!(probes >= 1);
    assert_eq!(h.query_all_by_label(CHECK).count(), probes - 1, "a check field beside MCTS's probe");
    assert_eq!(h.query_all_by_label(FOURS).count(), probes - 1, "a fours-alone field beside MCTS's probe");
}

/// The label of alpha-beta's check of each depth's best move (`threats.reply_budget`).
const CHECK: &str = "nodes to check the best move (0: off)";

/// The label of alpha-beta's fours alone near the leaves (`threats.vcf_depth`).
const FOURS: &str = "fours alone with plies left <=";

/// PVS with late move reductions is an option of alpha-beta's form: a click turns it on,
/// its settings show, and the file and its RON text say so.
#[test]
fn the_form_turns_the_reductions_on() {
    use mnklab::agents::AgentConfig;
    let mut h = options_of("gomoku", "", "strong-ab-v1");
    assert!(h.query_by_label("reduce from the move (0: none)").is_none(), "off: no settings");
    click_in_view(&mut h, "PVS and late move reductions");
    match &h.state().slots()[0].file().agent {
        AgentConfig::AlphaBeta(c) => assert!(c.reductions.is_some(), "{c:?}"),
        other => panic!("not alpha-beta: {other:?}"),
    }
    let text = h.state().slots()[0].ron_text();
    assert!(text.contains("reductions: Some("), "{text}");
    assert!(h.query_by_label("reduce from the move (0: none)").is_some(), "the reductions' settings show");
}

/// The search kept to the answers of a threat is an option of alpha-beta's form: a click
/// turns it on, and the file and its RON text say so.
#[test]
fn the_form_turns_the_forced_answers_on() {
    use mnklab::agents::AgentConfig;
    let mut h = options_of("gomoku", "", "gomoku-ab");
    assert!(!h.state().slots()[0].ron_text().contains("forced_answers"), "off: not written");
    click_in_view(&mut h, "only answers to an open three or a four");
    match &h.state().slots()[0].file().agent {
        AgentConfig::AlphaBeta(c) => assert!(c.forced_answers, "{c:?}"),
        other => panic!("not alpha-beta: {other:?}"),
    }
    let text = h.state().slots()[0].ron_text();
    assert!(text.contains("forced_answers: true"), "{text}");
}

/// The options gomoku-ab turns on beyond the published agents' are checkboxes of the form:
/// widening a capped node that loses, fours alone first in the threat search, and the
/// unfinished depth's better move. A click turns each off, in the file and its RON text (an
/// option off is not written).
#[test]
fn the_form_turns_gomoku_abs_own_options_off() {
    use mnklab::agents::AgentConfig;
    use mnklab::search::AlphaBetaConfig;
    // A checkbox's label, its field in the file, and what holds of the agent once it is off.
    type Check = (&'static str, &'static str, fn(&AlphaBetaConfig) -> bool);
    let checks: [Check; 3] = [
        ("beyond the cap when all moves lose", "widen_losses", |c| !c.widen_losses && c.branching_cap == Some(20)),
        ("fours alone first", "fours_first", |c| c.threats.is_some_and(|t| !t.fours_first)),
        ("the unfinished depth's better move", "unfinished_depth", |c| !c.unfinished_depth),
    ];
    for (label, field, off) in checks {
        let mut h = options_of("gomoku", "", "gomoku-ab");
        assert!(h.state().slots()[0].ron_text().contains(&format!("{field}: true")), "gomoku-ab has {field}");
        click_in_view(&mut h, label);
        match &h.state().slots()[0].file().agent {
            AgentConfig::AlphaBeta(c) => assert!(off(c), "{field}: {c:?}"),
            other => panic!("not alpha-beta: {other:?}"),
        }
        assert!(!h.state().slots()[0].ron_text().contains(field), "{field} off: not written");
    }
}

/// The shape heuristic is a choice of the agent form: picked from the heuristic list, the
/// file and its RON text say so, its defence shows, and an analysis with it answers an open
/// three at one of its ends.
#[test]
fn the_form_picks_the_shape_heuristic() {
    use mnklab::agents::AgentConfig;
    use mnklab::eval::HeuristicConfig;
    // strong-ab evaluates gomoku by shapes already: the form is tried on the one before.
    let mut h = options_of("gomoku", "h8 a1 i8 a2 j8", "strong-ab-v1");
    click_in_view(&mut h, "heuristic");
    h.get_by_label("shapes").click();
    h.run();
    match &h.state().slots()[0].file().agent {
        AgentConfig::AlphaBeta(c) => assert!(matches!(c.heuristic, HeuristicConfig::Shapes(_)), "{:?}", c.heuristic),
        other => panic!("not alpha-beta: {other:?}"),
    }
    assert!(h.state().slots()[0].ron_text().contains("heuristic: Shapes("), "{}", h.state().slots()[0].ron_text());
    assert!(h.query_by_label("defence").is_some(), "the shape heuristic's defence shows");
    h.get_by_label("Options A").click();
    h.run();
    click_in_view(&mut h, "Start analysis A");
    // The analysis runs until stopped: a few iterations, then Stop.
    assert!(wait(&mut h, 15.0, |w| w.slots()[0].analysis().candidates(w.position()).len() >= 2));
    h.get_by_label("Stop A").click();
    assert!(wait(&mut h, 15.0, |w| w.slots()[0].analysis().result().is_some() && !w.slots()[0].analysis().running()));
    let r = h.state().slots()[0].analysis().result().cloned().unwrap();
    let pos = mnklab::game::AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 a1 i8 a2 j8").unwrap();
    let best = pos.format_move(r.best.unwrap());
    assert!(["g8", "k8", "f8", "l8"].contains(&best.as_str()), "played {best}");
}

/// The shape heuristic's weights are fields of the agent form, folded under "weights": one
/// typed there is the file's and its RON text's, and `defence` stays above the fold.
#[test]
fn the_form_edits_the_shape_weights() {
    use mnklab::agents::AgentConfig;
    use mnklab::eval::HeuristicConfig;
    let mut h = options_of("gomoku", "", "gomoku-ab");
    assert!(h.query_by_label("open three").is_none(), "folded at first");
    assert!(h.query_by_label("defence").is_some(), "defence above the fold");
    click_in_view(&mut h, "weights");
    // Every weight but defence, each once.
    for name in mnklab::eval::SHAPE_WEIGHT_NAMES.iter().filter(|n| **n != "defence") {
        assert_eq!(h.query_all_by_label(&name.replace('_', " ")).count(), 1, "{name}");
    }
    click_in_view(&mut h, "open three");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("open three").type_text("1234");
    h.key_press(egui::Key::Enter);
    h.run();
    match &h.state().slots()[0].file().agent {
        AgentConfig::AlphaBeta(c) => match &c.heuristic {
            HeuristicConfig::Shapes(s) => assert_eq!(s.open_three, 1234.0),
            other => panic!("not shapes: {other:?}"),
        },
        other => panic!("not alpha-beta: {other:?}"),
    }
    let text = h.state().slots()[0].ron_text();
    assert!(text.contains("open_three: 1234"), "{text}");
}
