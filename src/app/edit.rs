//! Edit mode: place and remove stones and set the side to move; every change is checked by
//! the rules engine at once and its complaint shown above the board; "Done" takes the
//! position only when it is valid.

use crate::game::{AnyPosition, GameError, Player, Setup, Variant};

/// What a click on a cell does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Brush {
    /// Empty -> first -> second -> empty.
    Cycle,
    First,
    Second,
    Erase,
}

/// What the user asked of the edit bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditAction {
    Done,
    Cancel,
}

/// Edit mode places stones on a grid; connect3d's are set up by its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("connect3d positions are set up by their moves, not edited")]
pub struct NotEditable;

pub struct EditState {
    pub variant: Variant,
    width: usize,
    height: usize,
    /// Stones by cell `x * height + y`.
    stones: Vec<Option<Player>>,
    /// None: whoever's turn the stone counts give.
    pub to_move: Option<Player>,
    pub brush: Brush,
    /// The position the stones make, or why they make none.
    pub result: Result<AnyPosition, GameError>,
    /// The stones before each edit, for undo (Ctrl+Z).
    undo: Vec<Vec<Option<Player>>>,
}

impl EditState {
    /// Starts editing from `pos` (grid boards only; connect3d is edited by its moves).
    pub fn from_position(pos: &AnyPosition) -> Result<EditState, NotEditable> {
        let rules = pos.variant().grid().ok_or(NotEditable)?;
        let (w, h) = (rules.width() as usize, rules.height() as usize);
        let mut stones = vec![None; w * h];
        for x in 0..w {
            for y in 0..h {
                stones[x * h + y] = pos.grid_stone(x, y);
            }
        }
        let mut e = EditState {
            variant: pos.variant(),
            width: w,
            height: h,
            stones,
            to_move: None,
            brush: Brush::Cycle,
            result: Ok(pos.clone()),
            undo: Vec::new(),
        };
        e.check();
        Ok(e)
    }

    pub fn stone(&self, x: usize, y: usize) -> Option<Player> {
        self.stones.get(x * self.height + y).copied().flatten()
    }

    pub fn click(&mut self, x: usize, y: usize) {
        if x >= self.width || y >= self.height {
            return;
        }
        self.undo.push(self.stones.clone());
        let cell = &mut self.stones[x * self.height + y];
        *cell = match (self.brush, *cell) {
            (Brush::Cycle, None) => Some(Player::First),
            (Brush::Cycle, Some(Player::First)) => Some(Player::Second),
            (Brush::Cycle, Some(Player::Second)) => None,
            (Brush::First, _) => Some(Player::First),
            (Brush::Second, _) => Some(Player::Second),
            (Brush::Erase, _) => None,
        };
        self.check();
    }

    pub fn clear(&mut self) {
        self.undo.push(self.stones.clone());
        self.stones.iter_mut().for_each(|s| *s = None);
        self.check();
    }

    /// Takes back the last edit (a stone placed or removed, or Clear).
    pub fn undo(&mut self) {
        if let Some(before) = self.undo.pop() {
            self.stones = before;
            self.check();
        }
    }

    /// The stones as a set-up (grid rows from the top).
    pub fn setup(&self) -> Setup {
        let grid = (0..self.height)
            .rev()
            .map(|y| {
                (0..self.width)
                    .map(|x| match self.stone(x, y) {
                        Some(Player::First) => 'X',
                        Some(Player::Second) => 'O',
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        Setup { grid, first: vec![], second: vec![], to_move: self.to_move }
    }

    /// Runs the rules engine's checks on the stones.
    pub fn check(&mut self) {
        self.result = AnyPosition::from_setup(self.variant, &self.setup());
    }

    /// The edit bar above the board.
    pub fn show(&mut self, ui: &mut egui::Ui) -> Option<EditAction> {
        let mut action = None;
        ui.horizontal_wrapped(|ui| {
            ui.label("Editing: click cells to");
            for (b, label) in [
                (Brush::Cycle, "cycle"),
                (Brush::First, "place first"),
                (Brush::Second, "place second"),
                (Brush::Erase, "erase"),
            ] {
                ui.selectable_value(&mut self.brush, b, label);
            }
            ui.separator();
            ui.label("to move:");
            let before = self.to_move;
            ui.selectable_value(&mut self.to_move, None, "by count");
            ui.selectable_value(&mut self.to_move, Some(Player::First), "first");
            ui.selectable_value(&mut self.to_move, Some(Player::Second), "second");
            if before != self.to_move {
                self.check();
            }
            ui.separator();
            if ui.button("Clear board").clicked() {
                self.clear();
            }
            if ui.add_enabled(self.result.is_ok(), egui::Button::new("Done editing")).clicked() {
                action = Some(EditAction::Done);
            }
            if ui.button("Cancel editing").clicked() {
                action = Some(EditAction::Cancel);
            }
        });
        match &self.result {
            // Two lines reserved: a long complaint wraps instead of being cut to one line.
            Ok(p) => super::lines::reserved_lines(
                ui,
                Some(&format!("valid: {} to move", p.side_to_move())),
                super::lines::Tone::Plain,
                2,
            ),
            Err(e) => super::lines::reserved_lines(ui, Some(&e.to_string()), super::lines::Tone::Error, 2),
        };
        action
    }
}
