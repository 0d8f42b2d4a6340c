//! Live analysis: the state of one analysis (agent, limits, what arrived) and its side panel.

use std::time::{Duration, Instant};

use super::worker::{Command, Report, Worker};
use crate::game::{AnyPosition, Move};
use crate::search::{AgentFile, Progress, SearchControl, SearchEvent, SearchLimits, SearchResult, TreeSnapshot};

/// One agent's analysis of the current position: the limits, what arrived, and the worker
/// thread that searches.
pub struct Analysis {
    /// Seconds per analysis; 0 runs until stopped (or until the agent's own limits).
    pub seconds: f64,
    /// How many candidate moves the heatmap shows.
    pub candidates: usize,
    pub running: bool,
    pub latest: Option<Progress>,
    pub reports: u64,
    pub result: Option<SearchResult>,
    pub tree: Option<TreeSnapshot>,
    pub error: Option<String>,
    id: u64,
    control: SearchControl,
    worker: Worker,
    last_snapshot: Instant,
}

impl Default for Analysis {
    fn default() -> Self {
        Analysis {
            seconds: 0.0,
            candidates: 5,
            running: false,
            latest: None,
            reports: 0,
            result: None,
            tree: None,
            error: None,
            id: 0,
            control: SearchControl::new(),
            worker: Worker::spawn(),
            last_snapshot: Instant::now(),
        }
    }
}

impl Analysis {
    /// Starts analysing `pos` with `file`'s agent (stopping any analysis still running).
    /// The time setting replaces the file's time; its depth, node and iteration limits stay.
    pub fn start(&mut self, pos: &AnyPosition, file: &AgentFile) {
        self.stop();
        if pos.status().is_over() {
            self.error = Some("the game is over: nothing to analyse".into());
            return;
        }
        let file = file.clone();
        self.id += 1;
        self.control = SearchControl::new();
        self.running = true;
        self.latest = None;
        self.result = None;
        self.tree = None;
        self.reports = 0;
        self.error = None;
        let limits = SearchLimits { time: (self.seconds > 0.0).then_some(self.seconds), ..file.limits };
        self.worker.send(Command::Analyse {
            id: self.id,
            position: Box::new(pos.clone()),
            agent: file.agent,
            limits,
            seed: file.seed,
            control: self.control.clone(),
        });
    }

    /// Stops the running analysis; what arrived so far stays.
    pub fn stop(&mut self) {
        self.control.stop();
    }

    /// Takes in what the worker sent; asks for a tree snapshot twice a second while running.
    pub fn poll(&mut self) {
        while let Ok(report) = self.worker.reports.try_recv() {
            match report {
                Report::Event { id, event } if id == self.id => match event {
                    SearchEvent::Progress(p) => {
                        self.reports += 1;
                        self.latest = Some(p);
                    }
                    SearchEvent::Snapshot(t) => self.tree = Some(t),
                },
                Report::Finished { id, result, tree } if id == self.id => {
                    self.running = false;
                    self.result = Some(result);
                    if tree.is_some() {
                        self.tree = tree;
                    }
                }
                _ => {}
            }
        }
        if self.running && self.last_snapshot.elapsed() > Duration::from_millis(500) {
            self.control.request_snapshot(6);
            self.last_snapshot = Instant::now();
        }
    }

    /// The candidate moves to draw: (move, strength in [0, 1], label), best first.
    pub fn heatmap(&self, pos: &AnyPosition) -> Vec<(Move, f32, String)> {
        let Some(p) = &self.latest else { return Vec::new() };
        let mut root = p.root.clone();
        let total: u64 = root.iter().map(|r| r.visits).sum();
        if total > 0 {
            root.sort_by_key(|r| std::cmp::Reverse(r.visits));
            root.iter()
                .take(self.candidates)
                .map(|r| {
                    (r.mv, r.visits as f32 / total as f32, format!("{:.0}%", 100.0 * r.visits as f64 / total as f64))
                })
                .collect()
        } else {
            let legal = pos.legal_moves();
            // Exact values first, best first; refuted moves (upper bounds) after.
            root.sort_by(|a, b| {
                (a.upper_bound, -a.value).partial_cmp(&(b.upper_bound, -b.value)).unwrap_or(std::cmp::Ordering::Equal)
            });
            let n = root.len().min(self.candidates).max(1);
            root.iter()
                .take(self.candidates)
                .enumerate()
                .map(|(i, r)| {
                    let label = if r.upper_bound { format!("<={}", r.score) } else { r.score.to_string() };
                    (r.mv, if r.upper_bound { 0.15 } else { 1.0 - i as f32 / n as f32 * 0.8 }, label)
                })
                .filter(|(m, _, _)| legal.contains(m))
                .collect()
        }
    }

    /// The analysis controls and readout of slot `id`. Returns true when the user asked to
    /// start.
    pub fn show(&mut self, ui: &mut egui::Ui, pos: &AnyPosition, id: &str) -> bool {
        let mut start = false;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(format!("seconds {id} (0: until stopped)"));
            ui.add(egui::DragValue::new(&mut self.seconds).range(0.0..=3600.0).speed(0.1)).labelled_by(label.id);
        });
        ui.horizontal_wrapped(|ui| {
            if ui.add_enabled(!self.running, egui::Button::new(format!("Start analysis {id}"))).clicked() {
                start = true;
            }
            if ui.add_enabled(self.running, egui::Button::new(format!("Stop {id}"))).clicked() {
                self.stop();
            }
        });
        ui.add(egui::Slider::new(&mut self.candidates, 1..=20).text("candidates"));
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.separator();
        match &self.latest {
            None if self.running => {
                ui.label("searching...");
            }
            None => {
                ui.label("no analysis yet");
            }
            Some(p) => {
                let best = p.best.map_or("-".to_string(), |m| pos.format_move(m));
                ui.label(format!("best {best}   score {}", p.score));
                if p.iterations > 0 {
                    ui.label(format!("iterations {}   nodes {}", p.iterations, p.nodes));
                } else {
                    ui.label(format!("depth {}   nodes {}", p.depth, p.nodes));
                }
                ui.label(format!("{:.0} nodes/s   {:.2} s   {} reports", p.nodes_per_second, p.elapsed, self.reports));
                let pv: Vec<String> = p.pv.iter().map(|&m| pos.format_move(m)).collect();
                ui.label(format!("PV {}", pv.join(" ")));
                ui.label(if self.running { "running" } else { "finished" });
            }
        }
        start
    }
}
