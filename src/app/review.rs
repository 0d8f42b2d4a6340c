//! The review tab: the game judged move by move on a background thread by the library's
//! [`crate::analysis::review`] (proven values where the solver finishes, else one search
//! valuing every move); the evaluation over the game with the mistakes marked (click a point
//! to go there) and the mistakes listed, worst first.

use crossbeam_channel::{Receiver, unbounded};
use egui_plot::{Bar, BarChart, Line, Plot, PlotPoints, Points, Text};

use super::command::Command;
use super::plots::Exporter;
use crate::agents::AgentFile;
use crate::analysis::review::{
    MoveReview, PROOFS_ARE, ReviewSettings, board_cells, graph_tick_label, judge_header, player_summaries,
    review_figure, review_game, worst,
};
use crate::game::{AnyPosition, Move};
use crate::plot::{Figure, FigureData};
use crate::search::SearchControl;

pub struct Review {
    /// Seconds of search per position.
    pub(super) seconds: f64,
    /// The moves judged so far, in order.
    pub(super) moves: Vec<MoveReview>,
    /// The game reviewed: its start and its line of moves.
    pub(super) line: Vec<Move>,
    start: Option<AnyPosition>,
    /// Move names of the line, for labels.
    names: Vec<String>,
    pub(super) running: bool,
    pub(super) error: Option<String>,
    pub(super) exporter: Exporter,
    /// How the review shown is (or was) judged: its header names that agent, not the one
    /// slot A holds now.
    judge: Option<ReviewSettings>,
    control: SearchControl,
    inbox: Option<Receiver<MoveReview>>,
}

impl Default for Review {
    fn default() -> Self {
        Review {
            seconds: 0.3,
            moves: Vec::new(),
            line: Vec::new(),
            start: None,
            names: Vec::new(),
            running: false,
            error: None,
            exporter: Exporter::new("out/review.svg"),
            judge: None,
            control: SearchControl::new(),
            inbox: None,
        }
    }
}

impl Review {
    /// Seconds of search per position.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// Types a number of seconds into the review's field.
    pub fn set_seconds(&mut self, seconds: f64) {
        self.seconds = seconds;
    }

    /// The moves judged so far, in order.
    pub fn moves(&self) -> &[MoveReview] {
        &self.moves
    }

    /// The line of moves reviewed.
    pub fn line(&self) -> &[Move] {
        &self.line
    }

    pub fn running(&self) -> bool {
        self.running
    }

    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The figure export's fields.
    pub fn exporter(&self) -> &Exporter {
        &self.exporter
    }

    pub fn exporter_mut(&mut self) -> &mut Exporter {
        &mut self.exporter
    }

    /// Reviews the game `start` + `line` with `file`'s agent, in the background.
    pub fn start(&mut self, start: &AnyPosition, line: &[Move], file: &AgentFile) {
        self.clear();
        let settings = ReviewSettings::new(file.clone(), self.seconds);
        if let Err(e) = settings.check() {
            self.error = Some(e.to_string());
            return;
        }
        let control = self.control.clone();
        let (tx, rx) = unbounded();
        let mut pos = start.clone();
        for &m in line {
            self.names.push(pos.format_move(m));
            let _ = pos.try_play(m);
        }
        self.line = line.to_vec();
        self.start = Some(start.clone());
        self.judge = Some(settings.clone());
        self.running = true;
        let (start, line) = (start.clone(), line.to_vec());
        std::thread::Builder::new()
            .name("mnklab-review".into())
            .spawn(move || review_game(&start, &line, &settings, &control, |r| tx.send(r).is_ok()))
            .expect("spawn the review thread");
        self.inbox = Some(rx);
    }

    pub fn stop(&mut self) {
        self.control.stop();
        self.running = false;
    }

    /// Forgets the review (a new game, or the reviewed line is gone).
    pub fn clear(&mut self) {
        self.stop();
        self.control = SearchControl::new();
        self.moves.clear();
        self.line.clear();
        self.start = None;
        self.names.clear();
        self.error = None;
        self.judge = None;
        self.inbox = None;
    }

    /// Whether the review is about this game: the same start, and its line still recorded.
    pub fn is_for(&self, start: &AnyPosition, record: &crate::record::GameTree) -> bool {
        match &self.start {
            None => true,
            Some(s) => s.hash() == start.hash() && s.history() == start.history() && record.find(&self.line).is_some(),
        }
    }

    pub fn poll(&mut self) {
        if let Some(rx) = &self.inbox {
            loop {
                match rx.try_recv() {
                    Ok(r) => self.moves.push(r),
                    // The thread is done (every move judged, or stopped).
                    Err(crossbeam_channel::TryRecvError::Disconnected) => {
                        self.running = false;
                        break;
                    }
                    Err(crossbeam_channel::TryRecvError::Empty) => break,
                }
            }
        }
    }

    /// The moves marked as mistakes, worst first (at most 8).
    pub fn mistakes(&self) -> Vec<&MoveReview> {
        worst(&self.moves, 8)
    }

    /// The review of the move that would be played from the position after `path` (the moves
    /// from the start), when that move is a reviewed mistake.
    pub fn mistake_after(&self, path: &[Move]) -> Option<&MoveReview> {
        let k = path.len();
        if k >= self.line.len() || self.line[..k] != *path {
            return None;
        }
        self.moves.get(k).filter(|m| m.verdict.is_marked())
    }

    /// Plies (1-based move numbers) of the mistakes, for the move list.
    pub fn mistake_plies(&self) -> Vec<usize> {
        self.moves.iter().filter(|m| m.verdict.is_marked()).map(|m| m.ply).collect()
    }

    fn name(&self, ply: usize) -> String {
        crate::game::numbered_move(ply, self.names.get(ply - 1).map_or("?", |s| s))
    }

    /// The board's cells: the longest a game can run, the graph's scale of distances.
    fn cells(&self) -> usize {
        // connect3d: 4 x 4 poles of 4.
        self.start.as_ref().map_or(42, board_cells)
    }

    /// The review's figure ([`review_figure`]): what the tab draws and what is exported.
    pub fn figure(&self) -> Figure {
        review_figure(&self.moves, &self.names, self.cells())
    }

    /// The review tab; a click on the plot or a mistake (a ply to jump to) and the Review
    /// button go to `out`; `judge` is agent A's file, who judges a review started now.
    /// What the review does not cover of the game line `game` now shown (moves added or
    /// another variation chosen after it started), said above its results.
    pub fn outdated_note(&self, game: &[Move]) -> Option<String> {
        if self.start.is_none() || game == self.line.as_slice() {
            return None;
        }
        let shared = game.iter().zip(&self.line).take_while(|(a, b)| a == b).count();
        Some(if shared == self.line.len() {
            format!(
                "This review covers the first {} of the game's {} moves: Review game again to judge the rest.",
                self.line.len(),
                game.len()
            )
        } else {
            format!(
                "This review is of another line (it leaves the game shown after move {shared}): \
                 Review game to judge the line shown."
            )
        })
    }

    pub fn show(&mut self, ui: &mut egui::Ui, judge: &AgentFile, game: &[Move], out: &mut Vec<Command>) {
        self.poll();
        if self.running {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
        ui.horizontal_wrapped(|ui| {
            // The buttons first, where they stay: after the judge's name they moved with its
            // length.
            if ui.add_enabled(!self.running, egui::Button::new("Review game")).clicked() {
                out.push(Command::StartReview);
            }
            if ui.add_enabled(self.running, egui::Button::new("Stop review")).clicked() {
                self.stop();
            }
            let l = ui.label("seconds per position");
            ui.add(egui::DragValue::new(&mut self.seconds).range(0.01..=600.0).speed(0.05)).labelled_by(l.id);
            // Before a review, the game's own length ("0 of 0 moves" read as an empty game).
            let of = if self.line.is_empty() { game.len() } else { self.line.len() };
            ui.label(format!("{} of {of} moves reviewed", self.moves.len()));
        });
        ui.horizontal(|ui| {
            // Who judges: the solver first (its proofs, or the opening book), agent A where a
            // proof does not finish in the time; each mistake's tooltip names its judge. One
            // line, whole on hover: wrapped to two after slot A changed, it moved the graph.
            let text = format!("Judge: {}", judge_header(self.judge.as_ref(), judge, self.seconds));
            ui.add(egui::Label::new(&text).truncate()).on_hover_text(format!("{text}\n{PROOFS_ARE}"));
        })
        .response
        .on_hover_text(
            "Each move's loss = the best move's value minus the played move's, for the mover, from one \
             judgement of the position before it: the solver's proof when it finishes in the budget, else \
             one search valuing every move (alpha-beta multi-PV at one depth, or MCTS's statistics).",
        );
        super::lines::reserved_line(ui, self.error.as_deref(), super::lines::Tone::Error);
        if let Some(note) = self.outdated_note(game) {
            ui.colored_label(ui.visuals().warn_fg_color, note);
        }
        if !self.moves.is_empty() {
            // Each player's count and mean loss, the numbers behind Lichess' accuracy: above
            // the graph, where the default window size shows them (under the list they were
            // below the tab's fold).
            // A line each: side by side they wrapped at one place or another with the numbers.
            let [first, second] = player_summaries(&self.moves);
            ui.label(format!("first player: {}", first.describe()));
            ui.label(format!("second player: {}", second.describe()));
        }
        // The graph, and the list of marked moves beside it, as Lichess has its graph beside
        // the moves: one under the other, the list began at the tab's fold at the default
        // window size (on gomoku the graph shrank to 100 px and the list was out of sight).
        let height = super::plots::height_in_view(ui, 140.0..=240.0);
        let list_width = (ui.available_width() * 0.34).clamp(200.0, 340.0);
        let plot_width = (ui.available_width() - list_width - ui.spacing().item_spacing.x).max(200.0);
        ui.horizontal_top(|ui| {
            if !self.moves.is_empty() {
                ui.allocate_ui(egui::vec2(plot_width, height), |ui| {
                    if let Some(x) = self.plot(ui, plot_width, height) {
                        out.push(Command::Jump(graph_click_target(x, self.line.len())));
                    }
                });
            }
            ui.allocate_ui(egui::vec2(list_width, height), |ui| {
                ui.vertical(|ui| self.mistake_list(ui, height, out));
            });
        });
        // A move no judgement valued is said, never passed over as a good one.
        let unjudged: Vec<String> = self.moves.iter().filter(|m| !m.judged()).map(|m| self.name(m.ply)).collect();
        if !unjudged.is_empty() {
            ui.label(format!("Not judged (stopped, or no value found): {}", unjudged.join(" ")));
        }
        if !self.moves.is_empty() {
            ui.weak(GRAPH_CAPTION);
            let fig = self.exporter.labelled(self.figure());
            self.exporter.show(ui, "review", Some(&fig));
        }
    }

    /// The marked moves, worst first, a button each that goes to the position before it; in
    /// a column `height` high that scrolls when they are more.
    fn mistake_list(&self, ui: &mut egui::Ui, height: f32, out: &mut Vec<Command>) {
        // Both terms: the list holds inaccuracies too (a list of three inaccuracies under
        // "Mistakes:" read as three mistakes). The scores are the mover's (best move → move
        // played); the graph is the first player's view, which read as a sign flip without it.
        ui.label("Mistakes and inaccuracies, worst first");
        ui.weak("scores for the player who moved: before → after");
        let mistakes = self.mistakes();
        if mistakes.is_empty() {
            ui.weak(if self.moves.is_empty() { "none yet" } else { "none found" });
        }
        egui::ScrollArea::vertical().id_salt("review-mistakes").max_height(height - 40.0).show(ui, |ui| {
            for m in &mistakes {
                let text = self
                    .position_before(m.ply)
                    .map_or_else(|| self.name(m.ply), |p| m.describe(&p, crate::game::ColumnStyle::Notation));
                let b = ui.add(egui::Button::new(egui::RichText::new(text).color(ui.visuals().warn_fg_color)).wrap());
                if b.on_hover_text(format!("judged by {}; go to the position before it", m.judged_by)).clicked() {
                    out.push(Command::Jump(m.ply - 1));
                }
            }
        });
    }

    /// The position before move `ply` of the line reviewed.
    pub fn position_before(&self, ply: usize) -> Option<AnyPosition> {
        let mut p = self.start.clone()?;
        for &m in self.line.get(..ply.checked_sub(1)?)? {
            p.try_play(m).ok()?;
        }
        Some(p)
    }

    /// The review's figure drawn: the evaluation line, the marked moves as points labelled by
    /// move, proven distances, loss bars; returns the x clicked (a move number).
    fn plot(&self, ui: &mut egui::Ui, width: f32, height: f32) -> Option<f64> {
        let cells = self.cells();
        let fig = self.figure();
        let FigureData::Lines(series) = &fig.data else { return None };
        let line: Vec<[f64; 2]> = series.iter().flat_map(|s| &s.points).map(|p| [p.x, p.y]).collect();
        let marks = &fig.marks;
        let warn = ui.visuals().warn_fg_color;
        // The whole graph in view, its y title whole.
        let response =
            Plot::new("plot-review")
                .width(width)
                .height(height)
                .custom_y_axes(vec![super::plots::y_axis()])
                // No legend over the data (its corner covered the loss bars or the line's first
                // points): the caption under the plot says what each mark is.
                .x_axis_label("move")
                .y_axis_label("first player")
                // Mate-style: estimates within ±0.5 (labelled as expected results), proofs beyond
                // (labelled by their distance, W5 above W10).
                .y_axis_formatter(move |mark, _| {
                    if mark.value.abs() <= 1.0 { graph_tick_label(mark.value, cells) } else { String::new() }
                })
                .include_y(-1.0)
                // Room above +1 for the mistakes' labels.
                .include_y(1.3)
                .allow_scroll(false)
                .show(ui, |p| {
                    let name = &series[0].name;
                    p.line(Line::new(name.as_str(), PlotPoints::from(line.clone())).width(2.0));
                    p.points(Points::new(name.as_str(), PlotPoints::from(line)).radius(2.0));
                    let pts: Vec<[f64; 2]> = marks.points.iter().map(|l| [l.x, l.y]).collect();
                    p.points(Points::new(marks.points_name.as_str(), PlotPoints::from(pts)).radius(5.0).color(warn));
                    // Labels keep a gap in pixels from their points (a gap in plot units put them
                    // on the points when the graph is short): mistakes above, distances below.
                    let units_per_px = p.transform().dvalue_dpos()[1].abs();
                    for l in &marks.points {
                        let text = egui::RichText::new(&l.text).size(15.0).strong().color(warn);
                        let at = egui_plot::PlotPoint::new(l.x, l.y + MARK_GAP_PX * units_per_px);
                        p.text(Text::new("mistake labels", at, text).anchor(egui::Align2::CENTER_BOTTOM));
                    }
                    // Where the value is proven, its distance to the end, so that a line flat at a
                    // proven win still shows each move hastening or delaying it.
                    for l in &marks.notes {
                        let at = egui_plot::PlotPoint::new(l.x, l.y - MARK_GAP_PX * units_per_px);
                        let text = egui::RichText::new(&l.text).size(13.0);
                        p.text(Text::new(marks.notes_name.as_str(), at, text).anchor(egui::Align2::CENTER_TOP));
                    }
                    let bars: Vec<Bar> = marks
                        .bars
                        .iter()
                        .map(|&(x, v)| Bar::new(x, marks.bar_scale.height(v)).base_offset(marks.bar_base).width(0.6))
                        .collect();
                    p.bar_chart(BarChart::new(marks.bars_name.as_str(), bars).color(warn.gamma_multiply(0.45)));
                });
        let r = &response.response;
        if !r.clicked() {
            return None;
        }
        let at = response.transform.value_from_position(r.interact_pointer_pos()?);
        Some(at.x)
    }
}

/// Pixels between a marked point's edge (radius 5) and its label.
const MARK_GAP_PX: f64 = 7.0;

/// What the review graph's marks are, said under the list.
const GRAPH_CAPTION: &str = "line: how the game stands for the first player after each move: an estimate \
    within ±0.5 (the expected result, -1..1, at half height), a proof beyond (W13, L12: win or loss in that many \
    plies, the sooner the nearer the edge; =: a proven draw); orange: marked moves; bars from the bottom: each \
    move's loss (a loss of 2, a whole win given away, reaches the middle). Click a move to see its review.";

/// Where a click at `x` on the graph goes: the position before the move nearest `x` (moves
/// 1..=`len`), as the list's buttons go, so that the board shows that move's review with its
/// better move ringed. (It went to the position after the move, which showed the next
/// move's review under the point clicked.)
pub fn graph_click_target(x: f64, len: usize) -> usize {
    let mv = (x.round().max(1.0) as usize).min(len.max(1));
    mv - 1
}

#[cfg(test)]
mod tests {
    /// A click on the graph's point of move 3 goes to the position before move 3 (ply 2),
    /// as the list's button for move 3 does; clicks off the ends go to the first and last move.
    #[test]
    fn a_graph_click_shows_the_clicked_moves_review() {
        assert_eq!(super::graph_click_target(3.2, 6), 2);
        assert_eq!(super::graph_click_target(2.6, 6), 2);
        assert_eq!(super::graph_click_target(0.2, 6), 0);
        assert_eq!(super::graph_click_target(-1.0, 6), 0);
        assert_eq!(super::graph_click_target(9.0, 6), 5);
        assert_eq!(super::graph_click_target(1.0, 0), 0);
    }
}
