//! The workbench's game: moving through the record (play, back, forward, variations, take
//! back) and replacing it (open, paste). The record itself is the library's
//! [`crate::record::GameTree`]; this keeps the position on the board in step with it.

use std::path::Path;

use super::Workbench;
use crate::game::{AnyPosition, Move};
use crate::io::PositionFile;
use crate::record::{GameTree, NodeId};

impl Workbench {
    /// The start of the game (the position before its first move).
    pub fn start_position(&self) -> AnyPosition {
        let mut p = self.position.clone();
        while p.undo() {}
        p
    }

    /// The line the move list shows as the game: to the current move and on to its end.
    pub fn game_line(&self) -> Vec<Move> {
        self.record.line_moves()
    }

    /// Plays a move: a move tried here before is followed, a new one is added to the record
    /// (a variation where another move was played).
    pub fn play(&mut self, m: Move) {
        match self.position.try_play(m) {
            Ok(()) => {
                let known = self.record.child_by_move(self.record.current(), m).is_some();
                self.record.play(m);
                self.message = None;
                self.dirty |= !known;
                self.moved();
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// Walks a line from the current position to its last move, as Lichess and Lizzie do
    /// with a clicked move of a line: the moves the record lacks are added (a variation).
    pub fn walk_line(&mut self, line: &[Move]) {
        let mut p = self.position.clone();
        let mut at = self.record.current();
        for &m in line {
            if p.try_play(m).is_err() {
                break;
            }
            self.dirty |= self.record.child_by_move(at, m).is_none();
            at = self.record.add(at, m);
        }
        self.record.goto(at);
        self.position = p;
        self.message = None;
        self.moved();
    }

    pub fn back(&mut self) {
        if self.record.back() {
            self.position.undo();
            self.moved();
        }
    }

    pub fn forward(&mut self) {
        if self.record.forward() {
            let m = self.record.mv(self.record.current()).expect("a move's node has a move");
            let _ = self.position.try_play(m);
            self.moved();
        }
    }

    /// Goes to ply `n` of the line shown.
    pub fn jump(&mut self, n: usize) {
        let line = self.record.line();
        if let Some(&id) = line.get(n.min(line.len() - 1)) {
            self.goto_node(id);
        }
    }

    /// Stands at a node of the record (a click in the move list).
    pub fn goto_node(&mut self, id: NodeId) {
        let mut p = self.start_position();
        for m in self.record.path(id) {
            if p.try_play(m).is_err() {
                self.message = Some("the record holds an illegal move here".into());
                return;
            }
        }
        self.record.goto(id);
        self.position = p;
        self.moved();
    }

    /// Ctrl+Z: the last move played leaves the record; elsewhere one step back.
    pub fn take_back(&mut self) {
        if self.record.take_back() {
            self.position.undo();
            self.dirty = true;
            self.moved();
        }
    }

    /// Goes to another move tried at the current move (↑/↓): the next sibling with `next`,
    /// else the previous one, round the ends. Where the current move has no alternative, the
    /// alternatives of the next move are used.
    pub fn switch_variation(&mut self, next: bool) {
        let cur = self.record.current();
        let here = self.record.siblings(cur).to_vec();
        let (set, at) = if here.len() > 1 {
            (here, cur)
        } else {
            let after = self.record.children(cur).to_vec();
            match self.record.line().get(self.record.depth(cur) + 1) {
                Some(&n) if after.len() > 1 => (after, n),
                _ => {
                    self.message = Some("no other move was tried here".into());
                    return;
                }
            }
        };
        let i = set.iter().position(|&n| n == at).unwrap_or(0);
        let j = if next { (i + 1) % set.len() } else { (i + set.len() - 1) % set.len() };
        self.goto_node(set[j]);
    }

    /// Makes the line through `id` the main line.
    pub fn promote_to_main(&mut self, id: NodeId) {
        self.record.promote_to_main(id);
        self.dirty = true;
    }

    /// Moves the variation at `id` one place up among the moves tried there.
    pub fn promote(&mut self, id: NodeId) {
        if self.record.promote(id) {
            self.dirty = true;
        }
    }

    /// Deletes `id` and every move after it from the record.
    pub fn delete_from(&mut self, id: NodeId) {
        let current = self.record.path(self.record.current());
        if self.record.delete(id) && self.record.path(self.record.current()) != current {
            let here = self.record.current();
            self.goto_node(here);
        }
        self.dirty = true;
    }

    /// Sets the comment on the current move.
    pub fn set_comment(&mut self, text: &str) {
        let id = self.record.current();
        if self.record.comment(id) != text.trim() {
            self.record.set_comment(id, text);
            self.dirty = true;
        }
    }

    /// After the current node changed: the comment field shows its comment, the analysis
    /// follows the position.
    pub(super) fn moved(&mut self) {
        self.comment_text = self.record.comment(self.record.current()).to_string();
        self.position_changed();
    }

    /// Makes a position read from a file (or pasted) the game, with its record.
    pub fn open_position(&mut self, file: PositionFile, pos: AnyPosition, record: GameTree, message: String) {
        self.variant_text = pos.variant().to_string();
        self.matchup.follow_board(pos.variant());
        self.setup = file.setup;
        self.position = pos;
        self.record = record;
        self.edit = None;
        self.message = Some(message);
        self.dirty = true;
        self.explorer.new_game();
        self.moved();
    }

    /// Pastes a position file's RON text (opened as a game, like a loaded file) or else a move
    /// string.
    pub fn paste(&mut self, text: &str) {
        if text.trim_start().starts_with('(') {
            match PositionFile::parse_with_record(text, Path::new("(pasted)")) {
                Ok((file, pos, tree)) => self.open_position(file, pos, tree, "pasted a position".into()),
                Err(e) => self.message = Some(e.to_string()),
            }
        } else {
            self.paste_moves(text);
        }
    }

    /// Plays a pasted move string from the start of this game, as a line of the record (the
    /// game is kept as it was if the string is not a legal line).
    pub fn paste_moves(&mut self, text: &str) {
        self.play_line(text, |n| format!("pasted {}", moves_said(n)));
    }

    /// Plays the moves given on the command line (`--moves`), as `paste_moves` does; the
    /// status line says where they came from.
    pub fn play_command_line_moves(&mut self, text: &str) {
        self.play_line(text, |n| format!("played the {} given on the command line", moves_said(n)));
    }

    /// Runs `step` of the window's start (a file opened, moves played) keeping in view what
    /// the start already had to say (a remembered agent not restored), before what `step`
    /// says.
    pub fn keeping_message(&mut self, step: impl FnOnce(&mut Self)) {
        let before = self.message.take();
        step(self);
        if let Some(b) = before {
            self.message = Some(match self.message.take() {
                Some(now) => format!("{b}; {now}"),
                None => b,
            });
        }
    }

    fn play_line(&mut self, text: &str, said: impl Fn(usize) -> String) {
        let mut p = self.start_position();
        match p.play_sequence(text.trim()) {
            Ok(()) => {
                let mut at = self.record.root();
                for &m in p.history() {
                    at = self.record.add(at, m);
                }
                self.record.goto(at);
                self.position = p;
                self.dirty = true;
                self.message = Some(said(self.position.ply()));
                self.moved();
            }
            Err(e) => self.message = Some(format!("not a move string for this game: {e}")),
        }
    }
}

/// "1 move", "3 moves".
fn moves_said(n: usize) -> String {
    if n == 1 { "1 move".into() } else { format!("{n} moves") }
}
