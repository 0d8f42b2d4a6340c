//! Game review: every position of the game analysed by one agent with a fixed budget on a
//! background thread; the evaluation plotted over the game (click a point to go there) and
//! the moves that lost the most marked.

use crossbeam_channel::{Receiver, unbounded};

use super::plots::{Exporter, draw_figure};
use crate::game::{AnyPosition, Move, Status};
use crate::plot::{Figure, FigureData, LinePoint, Series};
use crate::search::{AgentFile, NullSink, Score, SearchControl, SearchLimits, build_agent};
use crate::with_position;

/// A score as the expected result for the side to move, in [-1, 1].
pub fn expected(score: &Score) -> Option<f64> {
    match *score {
        Score::Unknown => None,
        Score::Eval(v) => Some((v as f64 / 2000.0).tanh()),
        Score::WinRate(r) => Some(2.0 * r - 1.0),
        Score::Win { .. } => Some(1.0),
        Score::Loss { .. } => Some(-1.0),
        Score::Draw => Some(0.0),
    }
}

/// One analysed position (before move `ply + 1`, or the final one).
#[derive(Clone, Debug)]
pub struct Reviewed {
    pub ply: usize,
    /// Expected result for the first player.
    pub value: Option<f64>,
    pub best: String,
}

/// A move that lost value, by the agent's judgement.
#[derive(Clone, Debug, PartialEq)]
pub struct Blunder {
    /// The move's number (1-based ply).
    pub ply: usize,
    pub mv: String,
    /// Drop in the mover's expected result (0..2).
    pub loss: f64,
    pub best: String,
}

pub struct Review {
    /// Seconds per position.
    pub seconds: f64,
    pub reviewed: Vec<Reviewed>,
    /// The game reviewed (all its moves).
    pub moves: Vec<String>,
    pub total: usize,
    pub running: bool,
    pub error: Option<String>,
    pub exporter: Exporter,
    control: SearchControl,
    inbox: Option<Receiver<Reviewed>>,
}

impl Default for Review {
    fn default() -> Self {
        Review {
            seconds: 0.2,
            reviewed: Vec::new(),
            moves: Vec::new(),
            total: 0,
            running: false,
            error: None,
            exporter: Exporter::new("results/review.svg"),
            control: SearchControl::new(),
            inbox: None,
        }
    }
}

impl Review {
    /// Reviews the game `start` + `line` with `file`'s agent, in the background.
    pub fn start(&mut self, start: &AnyPosition, line: &[Move], file: &AgentFile) {
        self.control.stop();
        self.control = SearchControl::new();
        let control = self.control.clone();
        let (tx, rx) = unbounded();
        let mut pos = start.clone();
        self.moves.clear();
        for &m in line {
            self.moves.push(pos.format_move(m));
            let _ = pos.try_play(m);
        }
        let (start, line, agent, seed) = (start.clone(), line.to_vec(), file.agent.clone(), file.seed);
        let limits = SearchLimits { time: Some(self.seconds), ..file.limits };
        self.total = line.len() + 1;
        self.reviewed.clear();
        self.error = None;
        self.running = true;
        std::thread::Builder::new()
            .name("mnklab-review".into())
            .spawn(move || {
                let mut pos = start;
                for ply in 0..=line.len() {
                    if control.is_stopped() {
                        return;
                    }
                    let first_to_move = pos.side_to_move().index() == 0;
                    let (value, best) = match pos.status() {
                        Status::Win(w) => (Some(if w.index() == 0 { 1.0 } else { -1.0 }), String::new()),
                        Status::Draw => (Some(0.0), String::new()),
                        Status::Ongoing => {
                            let r = with_position!(&pos, p => {
                                let mut a = build_agent(&agent, seed);
                                a.search(p, &limits, &control, &mut NullSink)
                            });
                            let v = expected(&r.score).map(|v| if first_to_move { v } else { -v });
                            (v, r.best.map(|m| pos.format_move(m)).unwrap_or_default())
                        }
                    };
                    if tx.send(Reviewed { ply, value, best }).is_err() {
                        return;
                    }
                    if let Some(&m) = line.get(ply) {
                        let _ = pos.try_play(m);
                    }
                }
            })
            .expect("spawn the review thread");
        self.inbox = Some(rx);
    }

    pub fn stop(&mut self) {
        self.control.stop();
        self.running = false;
    }

    pub fn poll(&mut self) {
        if let Some(rx) = &self.inbox {
            while let Ok(r) = rx.try_recv() {
                self.reviewed.push(r);
            }
            if self.reviewed.len() >= self.total {
                self.running = false;
            }
        }
    }

    /// The moves that lost the most (at least 0.3 of the expected result), worst first.
    pub fn blunders(&self) -> Vec<Blunder> {
        let mut out = Vec::new();
        for w in self.reviewed.windows(2) {
            let (before, after) = (&w[0], &w[1]);
            let (Some(vb), Some(va)) = (before.value, after.value) else { continue };
            // Move number `after.ply` was made by the first player when its index is odd.
            let first_moved = after.ply % 2 == 1;
            let loss = if first_moved { vb - va } else { va - vb };
            if loss >= 0.3 {
                out.push(Blunder {
                    ply: after.ply,
                    mv: self.moves.get(after.ply - 1).cloned().unwrap_or_default(),
                    loss,
                    best: before.best.clone(),
                });
            }
        }
        out.sort_by(|a, b| b.loss.total_cmp(&a.loss));
        out.truncate(5);
        out
    }

    pub fn figure(&self) -> Figure {
        let points = self
            .reviewed
            .iter()
            .filter_map(|r| r.value.map(|v| LinePoint { x: r.ply as f64, y: v, band: None, n: 1 }))
            .collect();
        Figure {
            title: "evaluation over the game".into(),
            x_label: "ply".into(),
            y_label: "expected result for the first player (-1..1)".into(),
            value_label: String::new(),
            data: FigureData::Lines(vec![Series { name: "evaluation".into(), points }]),
        }
    }

    /// The review tab. Returns a ply to jump to when the plot or a blunder was clicked, and
    /// true in the second field when the user asked to start a review.
    pub fn show(&mut self, ui: &mut egui::Ui, agent_name: &str) -> (Option<usize>, bool) {
        self.poll();
        if self.running {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
        let mut start = false;
        let mut jump = None;
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("Review the game with agent A ({agent_name})"));
            let l = ui.label("seconds per position");
            ui.add(egui::DragValue::new(&mut self.seconds).range(0.01..=600.0).speed(0.05)).labelled_by(l.id);
            if ui.add_enabled(!self.running, egui::Button::new("Review game")).clicked() {
                start = true;
            }
            if ui.add_enabled(self.running, egui::Button::new("Stop review")).clicked() {
                self.stop();
            }
            ui.label(format!("{} of {} positions", self.reviewed.len(), self.total));
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        let blunders = self.blunders();
        if !blunders.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.label("Lost the most:");
                for b in &blunders {
                    let text = format!("{}.{} (-{:.2}, best {})", b.ply, b.mv, b.loss, b.best);
                    if ui.button(egui::RichText::new(text).color(ui.visuals().warn_fg_color)).clicked() {
                        jump = Some(b.ply - 1);
                    }
                }
            });
        }
        let fig = (!self.reviewed.is_empty()).then(|| self.exporter.labelled(self.figure()));
        self.exporter.show(ui, "review", fig.as_ref());
        if let Some(fig) = &fig
            && let Some(p) = draw_figure(ui, "review", fig, 220.0, self.exporter.log_y)
        {
            jump = Some(p.x.round().clamp(0.0, self.total.saturating_sub(1) as f64) as usize);
        }
        (jump, start)
    }
}
