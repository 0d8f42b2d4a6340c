//! What the panels ask of the workbench. A panel draws from the state, changes only what is
//! its own (a text field, a table's sort, a slider), and returns a [`Command`] for anything
//! beyond it: a move, another slot's analysis, a file dialog, a question. `Workbench::show`
//! applies them after the frame is drawn (as rerun does), so a panel never changes what a
//! panel drawn later in the same frame shows, and no request waits in a flag for someone to
//! pick it up.

use crate::analysis::SortBy;
use crate::game::Move;
use crate::record::NodeId;

use super::BottomTab;
use super::files::Purpose;
use super::{Controller, EditAction, Pending, Workbench};

/// One thing a click or a key asked of the workbench.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Start a new game of the variant typed (asking first if the game is unsaved).
    NewGame,
    /// Open a file: a position (asking first if the game is unsaved), a matchup, an agent or
    /// a run folder (see `Workbench::open`).
    Load(String),
    Back,
    Forward,
    /// Go to ply `n` of the game's line (a review's mistake or its graph clicked).
    Jump(usize),
    ToggleHelp,
    /// Show this tab under the board (unfolding the tabs).
    ShowTab(BottomTab),
    /// Fold the tabs under the board to their row, or unfold them.
    ToggleTabs,
    ToggleEdit,
    /// Leave edit mode, taking the edited position (Done) or not (Cancel).
    FinishEdit(EditAction),
    /// Save the game to the path in the file field (asking before replacing another file).
    Save,
    /// A file dialog for this purpose, starting where its field points.
    Dialog(Purpose),
    /// Forget every answer about starting external programs.
    ForgetProgramAnswers,
    /// A move chosen by the user: a candidate's button, or a cell of the board.
    Play(Move),
    /// A click on the board's cell for this move: played, unless an agent is to move.
    BoardClick(Move),
    /// Walk the game along this line from the current position (a move of a candidate's line
    /// clicked); the record keeps it as a variation where it is new.
    Walk(Vec<Move>),
    /// Start slot `i`'s analysis of the game position (asking first for an external program).
    StartSlot(usize),
    /// The board and the explorer show slot `i`'s analysis.
    ShowSlot(usize),
    AddSlot,
    RemoveSlot,
    /// Slot `i`'s Save would replace an existing file it was not loaded from: ask first.
    ConfirmAgentReplace(usize, String),
    /// Go to this move of the record (a move of the list clicked).
    GoTo(NodeId),
    /// Make the line through this move the main line.
    MakeMainLine(NodeId),
    /// Move the variation through this move one place up among its siblings.
    MoveVariationUp(NodeId),
    /// Delete this move and everything after it from the record.
    DeleteFrom(NodeId),
    /// The comment of the current move, as typed.
    SetComment(String),
    /// Review the game with agent A (asking first for an external program).
    StartReview,
    /// Show this node of the search tree on the board (moves from the game's position);
    /// empty: the game's position again.
    ShowTreeNode(Vec<Move>),
    /// Slot `i`'s explorer asks for the tree below a node: (path, depth, children a node).
    FetchSubtree {
        slot: usize,
        path: Vec<Move>,
        depth: u32,
        top: usize,
    },
    /// Slot `i`'s explorer opens its best line to the end, ordered so.
    ExpandLine(usize, SortBy),
    /// Slot `i`'s explorer stops opening its line (or it was opened).
    EndExpansion(usize),
    /// The previous (false) or next (true) move tried at this point of the game.
    SwitchVariation {
        next: bool,
    },
    /// The last move played leaves the record.
    TakeBack,
    /// In edit mode: the last edit is undone.
    UndoEdit,
    /// Start the analysis of the slot the board shows, or stop it.
    ToggleAnalysis,
    /// Copy the moves, or the position as RON, to the clipboard.
    Copy {
        as_ron: bool,
    },
    /// A move string or a position's RON text, pasted.
    Paste(String),
    /// A line for the status bar.
    Say(String),
}

impl Workbench {
    /// Does what a command asks.
    pub fn apply(&mut self, command: Command) {
        match command {
            Command::NewGame => self.guarded(Pending::NewGame),
            Command::Load(path) => {
                // The field shows the file being loaded (a recent one, say).
                self.file_path = path.clone();
                self.open(&path);
            }
            Command::Back => self.back(),
            Command::Forward => self.forward(),
            Command::Jump(n) => self.jump(n),
            Command::ToggleHelp => self.show_help = !self.show_help,
            Command::ShowTab(tab) => self.show_tab(tab),
            Command::ToggleTabs => self.tabs_folded = !self.tabs_folded,
            Command::ToggleEdit => self.toggle_edit(),
            Command::FinishEdit(action) => self.finish_edit(action),
            Command::Save => self.save_to_field(),
            Command::Dialog(purpose) => self.open_dialog(purpose),
            Command::ForgetProgramAnswers => {
                self.consent.revoke_all();
                self.message = Some("answers forgotten: each external program is asked about again".into());
            }
            Command::Play(m) => self.play(m),
            Command::BoardClick(m) => self.board_click(m),
            Command::Walk(line) => self.walk_line(&line),
            Command::StartSlot(i) if i < self.slots.len() => self.start_slot(i),
            Command::ShowSlot(i) if i < self.slots.len() => self.shown_slot = i,
            Command::AddSlot => self.add_slot(),
            Command::RemoveSlot => self.remove_slot(),
            Command::ConfirmAgentReplace(i, path) if i < self.slots.len() => self.overwrite = Some((Some(i), path)),
            Command::GoTo(n) => self.goto_node(n),
            Command::MakeMainLine(n) => self.promote_to_main(n),
            Command::MoveVariationUp(n) => self.promote(n),
            Command::DeleteFrom(n) => self.delete_from(n),
            Command::SetComment(text) => self.set_comment(&text),
            Command::StartReview => self.start_review(),
            Command::ShowTreeNode(path) => self.show_tree_node(&path),
            Command::FetchSubtree { slot, path, depth, top } if slot < self.slots.len() => {
                self.slots[slot].analysis.request_subtree(path, depth, top)
            }
            Command::ExpandLine(i, sort) if i < self.slots.len() => self.slots[i].analysis.expand_line(sort),
            Command::EndExpansion(i) if i < self.slots.len() => self.slots[i].analysis.expansion = None,
            Command::SwitchVariation { next } => self.switch_variation(next),
            Command::TakeBack => self.take_back(),
            Command::UndoEdit => {
                if let Some(edit) = self.edit.as_mut() {
                    edit.undo();
                }
            }
            Command::ToggleAnalysis => self.toggle_analysis(),
            Command::Copy { as_ron } => self.copy(as_ron),
            Command::Paste(text) => self.paste(&text),
            Command::Say(text) => self.message = Some(text),
            // A slot removed in the same frame as its click: nothing left to act on.
            Command::StartSlot(_)
            | Command::ShowSlot(_)
            | Command::ConfirmAgentReplace(..)
            | Command::FetchSubtree { .. }
            | Command::ExpandLine(..)
            | Command::EndExpansion(_) => {}
        }
    }

    /// A click on the board: the move is played, unless an agent plays the side to move or
    /// the board shows a position from the tree (its cells are not moves of the game).
    fn board_click(&mut self, m: Move) {
        if self.preview.is_some() {
            return;
        }
        match self.autoplay.sides[self.position.side_to_move().index()] {
            Controller::Agent(i) if !self.autoplay.paused => {
                self.message = Some(format!("agent {} is to move (pause agents to move for it)", self.slots[i].label));
            }
            _ => self.play(m),
        }
    }

    /// Shows a node of the search tree on the board; an empty path shows the game again.
    fn show_tree_node(&mut self, path: &[Move]) {
        if path.is_empty() {
            self.preview = None;
            self.explorer.shown = None;
            return;
        }
        let mut p = self.position.clone();
        for &m in path {
            if p.try_play(m).is_err() {
                break;
            }
        }
        self.preview = Some(p);
    }

    /// Opens a file dialog (one at a time), starting where the purpose's field points.
    fn open_dialog(&mut self, purpose: Purpose) {
        if self.dialogs.busy() {
            self.message = Some("a file dialog is already open".into());
            return;
        }
        let near = match purpose {
            Purpose::OpenPosition | Purpose::SavePosition => self.file_path.clone(),
            Purpose::OpenAgent(i) | Purpose::SaveAgent(i) => match self.slots.get(i) {
                Some(slot) => slot.path.clone(),
                None => return,
            },
            Purpose::OpenRun | Purpose::SaveMatchup => format!("{}/", self.matchup.form.out_dir),
        };
        self.dialogs.open(purpose, &near);
    }
}
