//! What the workbench tests share: a harness around the app, and waiting for its workers.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use mnklab::app::Workbench;

pub fn harness_sized(w: Workbench, size: egui::Vec2) -> Harness<'static, Workbench> {
    // The workers run on their own threads and the app repaints while they report, so settling
    // may take more frames than egui_kittest's default of 4 when the machine is busy.
    Harness::builder().with_size(size).with_max_steps(100).build_ui_state(|ui, state: &mut Workbench| state.show(ui), w)
}

/// Steps the UI until `done` holds or the time runs out (the workers run on their own threads).
pub fn wait(h: &mut Harness<'static, Workbench>, seconds: f64, done: impl Fn(&Workbench) -> bool) -> bool {
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

/// The deepest node of a search tree snapshot, in plies from its root.
pub fn deepest(t: &mnklab::search::tree::TreeSnapshot) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(0usize, 0usize)];
    while let Some((n, d)) = stack.pop() {
        deepest = deepest.max(d);
        stack.extend(t.nodes[n].children.iter().map(|&c| (c as usize, d + 1)));
    }
    deepest
}
