//! Who plays each side: a person at the board, or one of the agent slots. When it is an
//! agent's turn, it searches on its own worker thread and its move is played when it comes.

use super::AgentSlot;
use super::worker::{Job, Report, Worker};
use crate::game::{AnyPosition, Move};
use crate::search::{SearchControl, SearchLimits};

/// Who moves for a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controller {
    Human,
    /// The agent in this slot.
    Agent(usize),
}

pub struct AutoPlay {
    /// First and second player.
    pub sides: [Controller; 2],
    /// Paused: agents do not move (the game can be stepped through freely).
    pub paused: bool,
    worker: Worker,
    id: u64,
    /// The game line (moves) the pending search is for.
    pending: Option<Vec<Move>>,
    control: SearchControl,
}

impl Default for AutoPlay {
    fn default() -> Self {
        AutoPlay {
            sides: [Controller::Human, Controller::Human],
            paused: false,
            worker: Worker::spawn(),
            id: 0,
            pending: None,
            control: SearchControl::new(),
        }
    }
}

impl AutoPlay {
    pub fn thinking(&self) -> bool {
        self.pending.is_some()
    }

    /// Stops a pending search (the position changed under it, or the user took over).
    pub fn cancel(&mut self) {
        self.control.stop();
        self.pending = None;
    }

    /// Starts the agent whose turn it is, if any; returns a move that arrived for `pos`.
    pub fn tick(&mut self, pos: &AnyPosition, slots: &[AgentSlot]) -> Option<Move> {
        let mut arrived = None;
        while let Ok(report) = self.worker.reports.try_recv() {
            if let Report::Finished { id, result, .. } = report
                && id == self.id
                && self.pending.as_deref() == Some(pos.history())
            {
                arrived = result.best;
                self.pending = None;
            }
        }
        if arrived.is_some() {
            return arrived;
        }
        if self.pending.as_deref().is_some_and(|line| line != pos.history()) {
            self.cancel();
        }
        if self.paused || self.pending.is_some() || pos.status().is_over() {
            return None;
        }
        let Controller::Agent(slot) = self.sides[pos.side_to_move().index()] else { return None };
        let file = &slots.get(slot)?.file;
        let limits = file.limits;
        // An agent with no limit of its own gets a second a move.
        let limits = if limits == SearchLimits::default() { SearchLimits::time(1.0) } else { limits };
        self.id += 1;
        self.control = SearchControl::new();
        self.worker.send(Job::Analyse {
            id: self.id,
            position: Box::new(pos.clone()),
            agent: Box::new(file.agent.clone()),
            limits,
            seed: file.seed.wrapping_add(pos.ply() as u64),
            control: self.control.clone(),
        });
        self.pending = Some(pos.history().to_vec());
        None
    }

    /// The side selectors.
    pub fn show(&mut self, ui: &mut egui::Ui, slot_labels: &[String]) {
        ui.horizontal_wrapped(|ui| {
            for (side, name) in ["First", "Second"].iter().enumerate() {
                let current = match self.sides[side] {
                    Controller::Human => "human".to_string(),
                    Controller::Agent(i) => format!("agent {}", slot_labels.get(i).map_or("?", |s| s.as_str())),
                };
                egui::ComboBox::new(format!("side-{side}"), format!("{name} player")).selected_text(current).show_ui(
                    ui,
                    |ui| {
                        ui.selectable_value(&mut self.sides[side], Controller::Human, "human");
                        for (i, l) in slot_labels.iter().enumerate() {
                            ui.selectable_value(&mut self.sides[side], Controller::Agent(i), format!("agent {l}"));
                        }
                    },
                );
            }
            ui.checkbox(&mut self.paused, "pause agents");
            if self.thinking() {
                ui.label("agent thinking...");
            }
        });
    }
}
