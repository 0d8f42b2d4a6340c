//! Positions given as stones (a grid and/or cell lists) rather than moves, as in files.

use serde::{Deserialize, Serialize};

use super::notation::parse_cell_unbounded;
use super::{GameError, Player, SetupError, Variant};

/// Stones on the board and the side to move. `grid` rows run top row first, `X` for the
/// first player, `O` for the second, `.` for empty; `first` and `second` list more stones as
/// cells (`h8`). Either or both may be given.
///
/// ```
/// use mnklab::game::{AnyPosition, Setup, Variant, Player, Status};
/// let setup = Setup { grid: vec!["XX.".into(), "OO.".into(), "...".into()], ..Setup::default() };
/// let pos = AnyPosition::from_setup(Variant::tictactoe(), &setup).unwrap();
/// assert_eq!(pos.side_to_move(), Player::First);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grid: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub second: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<Player>,
}

/// Stone coordinates of a set-up, before the rules check them.
pub(crate) struct Stones {
    pub first: Vec<(usize, usize)>,
    pub second: Vec<(usize, usize)>,
}

impl Setup {
    /// Reads the grid and the cell lists into coordinates, checking only their form
    /// (the rules are checked by the board).
    pub(crate) fn stones(&self, variant: &Variant) -> Result<Stones, GameError> {
        let rules = variant.grid().ok_or(SetupError::NeedsMoveList)?;
        let (w, h) = (rules.width() as usize, rules.height() as usize);
        let mut stones = Stones { first: Vec::new(), second: Vec::new() };
        if !self.grid.is_empty() {
            if self.grid.len() != h {
                return Err(SetupError::GridShape {
                    what: format!("the grid has {} rows but the board has {h}", self.grid.len()),
                }
                .into());
            }
            for (r, row) in self.grid.iter().enumerate() {
                let y = h - 1 - r;
                let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
                if cells.len() != w {
                    return Err(SetupError::GridShape {
                        what: format!(
                            "row {} (grid line {}) has {} cells but the board has {w} columns",
                            y + 1,
                            r + 1,
                            cells.len()
                        ),
                    }
                    .into());
                }
                for (x, c) in cells.into_iter().enumerate() {
                    match c {
                        'X' | 'x' => stones.first.push((x, y)),
                        'O' | 'o' => stones.second.push((x, y)),
                        '.' | '-' | '_' => {}
                        other => {
                            return Err(SetupError::GridChar { ch: other, cell: super::cell_name(x, y) }.into());
                        }
                    }
                }
            }
        }
        for (list, out) in [(&self.first, &mut stones.first), (&self.second, &mut stones.second)] {
            for cell in list {
                let xy = parse_cell_unbounded(cell).map_err(|_| SetupError::BadCell(cell.clone()))?;
                out.push(xy);
            }
        }
        Ok(stones)
    }
}
