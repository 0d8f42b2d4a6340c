//! Native file dialogs (rfd) run off the UI thread, with the typed path field as the fallback
//! when no dialog service answers (a headless session, a desktop without a portal); and the
//! list of recent files.

use std::path::PathBuf;

use crossbeam_channel::{Receiver, unbounded};

use super::command::Command;

/// What a dialog was opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    OpenPosition,
    SavePosition,
    /// An agent config for the slot.
    OpenAgent(usize),
    SaveAgent(usize),
    /// A run's output folder.
    OpenRun,
    SaveMatchup,
}

#[derive(Default)]
pub struct Dialogs {
    pending: Option<(Purpose, Receiver<Option<PathBuf>>)>,
}

impl Dialogs {
    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }

    /// Opens a dialog on its own thread, starting in the folder of `near`.
    pub fn open(&mut self, purpose: Purpose, near: &str) {
        let (tx, rx) = unbounded();
        let dir = PathBuf::from(near).parent().map(PathBuf::from).filter(|d| d.is_dir());
        std::thread::spawn(move || {
            let mut d = rfd::FileDialog::new().add_filter("RON", &["ron"]);
            if let Some(dir) = dir {
                d = d.set_directory(dir);
            }
            let picked = match purpose {
                Purpose::OpenPosition | Purpose::OpenAgent(_) => d.pick_file(),
                Purpose::SavePosition => d.set_file_name("position.ron").save_file(),
                Purpose::SaveAgent(_) => d.set_file_name("agent.ron").save_file(),
                Purpose::SaveMatchup => d.set_file_name("matchup.ron").save_file(),
                Purpose::OpenRun => rfd::FileDialog::new().pick_folder(),
            };
            let _ = tx.send(picked);
        });
        self.pending = Some((purpose, rx));
    }

    /// The dialog's answer once it came: the path, or None when cancelled or unavailable.
    pub fn poll(&mut self) -> Option<(Purpose, Option<PathBuf>)> {
        let (purpose, rx) = self.pending.as_ref()?;
        let answer = rx.try_recv().ok()?;
        let purpose = *purpose;
        self.pending = None;
        Some((purpose, answer))
    }
}

/// Most recent first, without repeats, at most `MAX_RECENT`.
pub const MAX_RECENT: usize = 8;

pub fn remember(recent: &mut Vec<String>, path: &str) {
    recent.retain(|p| p != path);
    recent.insert(0, path.to_string());
    recent.truncate(MAX_RECENT);
}

impl super::Workbench {
    /// A file dropped on the window opens as the File field's Load does (see
    /// `Workbench::open`); anything else is named and left alone. While files hover, the
    /// window says so.
    pub(super) fn read_dropped_files(&self, ctx: &egui::Context) -> Option<Command> {
        let (hovering, dropped) = ctx.input(|i| (!i.raw.hovered_files.is_empty(), i.raw.dropped_files.clone()));
        if hovering {
            egui::Area::new(egui::Id::unique("drop-hint"))
                .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
                .order(egui::Order::Foreground)
                .show(ctx, |ui| {
                    egui::Frame::popup(ui.style()).show(ui, |ui| {
                        ui.heading("drop a position, matchup or agent file (.ron), or a run folder, to open it")
                    });
                });
        }
        let path = dropped.first()?.path();
        Some(if path.is_dir() || path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ron") || e == "ronl") {
            Command::Load(path.display().to_string())
        } else {
            Command::Say(format!(
                "{}: not a position file, matchup, agent (.ron) or run folder; nothing opened",
                path.display()
            ))
        })
    }
}
