//! The workbench driven as a person would: clicks, typed paths, waiting for the analysis.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use mnklab::app::Workbench;
use mnklab::game::{Player, Status, Variant};

fn harness(w: Workbench) -> Harness<'static, Workbench> {
    Harness::builder()
        .with_size(egui::vec2(1200.0, 820.0))
        .build_ui_state(|ui, state: &mut Workbench| state.show(ui), w)
}

/// Steps the UI until `done` holds or the time runs out (the worker runs on its own thread).
fn wait(h: &mut Harness<'static, Workbench>, seconds: f64, done: impl Fn(&Workbench) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds {
        h.step();
        if done(h.state()) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn clicking_the_board_drops_a_stone() {
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    // The centre of the Connect-4 board is column d.
    h.get_by_label("board").click();
    h.run();
    assert_eq!(h.state().position.history_string(), "d");
    assert_eq!(h.state().position.grid_stone(3, 0), Some(Player::First));
    // Back and forward.
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().position.ply(), 0);
    h.get_by_label("Forward").click();
    h.run();
    assert_eq!(h.state().position.history_string(), "d");
}

#[test]
fn analysis_streams_progress_and_stops() {
    let mut w = Workbench::new(Variant::connect4());
    w.analysis.agent = "jeng-mcts".into();
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis").click();
    assert!(wait(&mut h, 10.0, |w| w.analysis.reports >= 3), "progress reports arrive");
    assert!(h.state().analysis.running);
    assert!(h.state().analysis.latest.as_ref().unwrap().iterations > 0);
    h.get_by_label("Stop").click();
    assert!(wait(&mut h, 5.0, |w| !w.analysis.running), "the analysis stops");
    let result = h.state().analysis.result.clone().unwrap();
    assert!(result.best.is_some());
    // The heatmap has candidates to draw.
    assert!(!h.state().analysis.heatmap(&h.state().position).is_empty());
}

#[test]
fn loading_a_file_shows_its_position_and_a_bad_file_an_error() {
    let dir = std::env::temp_dir().join(format!("mnklab-gui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("p.ron");
    std::fs::write(&good, r#"(variant: "tictactoe", moves: ["a1", "b1", "a2", "b2", "a3"])"#).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, r#"(variant: "tictactoe", moves: ["a1", "a1"])"#).unwrap();
    let mut h = harness(Workbench::new(Variant::connect4()));
    h.run();
    h.state_mut().file_path = good.display().to_string();
    h.get_by_label("Load").click();
    h.run();
    assert_eq!(h.state().position.variant(), Variant::tictactoe());
    assert_eq!(h.state().position.status(), Status::Win(Player::First));
    h.state_mut().file_path = bad.display().to_string();
    h.get_by_label("Load").click();
    h.run();
    assert!(h.state().message.as_ref().unwrap().contains("taken"), "{:?}", h.state().message);
    assert_eq!(h.state().position.variant(), Variant::tictactoe(), "the game is kept");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_explorer_expands_and_shows_a_node() {
    let mut w = Workbench::new(Variant::connect4());
    w.analysis.agent = "jeng-mcts".into();
    w.analysis.seconds = 0.3;
    let mut h = harness(w);
    h.run();
    h.get_by_label("Start analysis").click();
    assert!(
        wait(&mut h, 10.0, |w| !w.analysis.running && w.analysis.tree.is_some()),
        "the search finishes with a tree"
    );
    h.run();
    // The root is open: its children are listed; show the first one on the board.
    h.get_all_by_label("show").next().expect("a child node with a show button").click();
    h.run();
    let preview = h.state().preview.clone().expect("a node shown on the board");
    assert_eq!(preview.ply(), 1);
    h.get_by_label("Back to the game").click();
    h.run();
    assert!(h.state().preview.is_none());
}
