//! A position of whichever variant, for the CLI, the GUI and files. Generic code receives
//! the concrete type through [`with_position!`](crate::with_position).

use super::{Bits, ColumnStyle, Connect3d, GameError, Grid, Move, Player, Position, Setup, Status, Variant, Wide};

#[derive(Clone, Debug)]
pub enum AnyPosition {
    /// Free placement on a board whose padded layout fits 64 bits (tic-tac-toe up to 7 x 6).
    Free(Grid<u64, false>),
    Wide(Grid<Wide, false>),
    /// Gravity on a board that fits 64 bits (Connect-4).
    Gravity(Grid<u64, true>),
    GravityWide(Grid<Wide, true>),
    Connect3d(Connect3d),
}

/// Runs `$body` with `$p` bound to the concrete position inside an [`AnyPosition`] (or a
/// reference to one), so generic code is compiled once per board type.
///
/// ```
/// use mnklab::game::{AnyPosition, Position, Variant};
/// use mnklab::with_position;
/// let pos = AnyPosition::new(Variant::connect4());
/// let n = with_position!(&pos, p => p.num_legal_moves());
/// assert_eq!(n, 7);
/// ```
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::game::AnyPosition::Free($p) => $body,
            $crate::game::AnyPosition::Wide($p) => $body,
            $crate::game::AnyPosition::Gravity($p) => $body,
            $crate::game::AnyPosition::GravityWide($p) => $body,
            $crate::game::AnyPosition::Connect3d($p) => $body,
        }
    };
}

fn fits_u64(w: usize, h: usize) -> bool {
    (w + 2) * (h + 1) < u64::CAPACITY
}

impl AnyPosition {
    /// The start position of a variant.
    pub fn new(variant: Variant) -> AnyPosition {
        match variant {
            Variant::Connect3d => AnyPosition::Connect3d(Connect3d::new()),
            Variant::Grid(r) => {
                let small = fits_u64(r.width() as usize, r.height() as usize);
                match (r.gravity(), small) {
                    (false, true) => AnyPosition::Free(Grid::new(r)),
                    (false, false) => AnyPosition::Wide(Grid::new(r)),
                    (true, true) => AnyPosition::Gravity(Grid::new(r)),
                    (true, false) => AnyPosition::GravityWide(Grid::new(r)),
                }
            }
        }
    }

    /// The start position with a move list played (`"d4 e5"`, `"4453"`).
    pub fn from_moves(variant: Variant, moves: &str) -> Result<AnyPosition, GameError> {
        let mut p = AnyPosition::new(variant);
        p.play_sequence(moves)?;
        Ok(p)
    }

    /// A position from stones, validated: every rule violation is a distinct [`super::SetupError`].
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<AnyPosition, GameError> {
        let stones = setup.stones(&variant)?;
        let (f, s, t) = (&stones.first, &stones.second, setup.to_move);
        let r = variant.grid().expect("stones() rejects connect3d");
        Ok(match AnyPosition::new(variant) {
            AnyPosition::Free(_) => AnyPosition::Free(Grid::from_stones(r, f, s, t)?),
            AnyPosition::Wide(_) => AnyPosition::Wide(Grid::from_stones(r, f, s, t)?),
            AnyPosition::Gravity(_) => AnyPosition::Gravity(Grid::from_stones(r, f, s, t)?),
            AnyPosition::GravityWide(_) => AnyPosition::GravityWide(Grid::from_stones(r, f, s, t)?),
            AnyPosition::Connect3d(_) => unreachable!(),
        })
    }

    pub fn variant(&self) -> Variant {
        *with_position!(self, p => p.variant())
    }
    pub fn side_to_move(&self) -> Player {
        with_position!(self, p => p.side_to_move())
    }
    pub fn status(&self) -> Status {
        with_position!(self, p => p.status())
    }
    pub fn ply(&self) -> usize {
        with_position!(self, p => p.ply())
    }
    pub fn points(&self) -> [u32; 2] {
        with_position!(self, p => p.points())
    }
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::new();
        with_position!(self, p => p.legal_moves(&mut v));
        v
    }
    /// How many legal moves there are (no list made: the workbench asks every frame).
    pub fn num_legal_moves(&self) -> usize {
        with_position!(self, p => p.num_legal_moves())
    }
    pub fn num_actions(&self) -> usize {
        with_position!(self, p => p.num_actions())
    }
    pub fn history(&self) -> &[Move] {
        with_position!(self, p => p.history())
    }
    pub fn history_string(&self) -> String {
        with_position!(self, p => p.history_string())
    }
    /// Checks and plays a move.
    pub fn try_play(&mut self, m: Move) -> Result<(), GameError> {
        with_position!(self, p => p.try_play(m))
    }
    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        with_position!(self, p => {
            if p.history().is_empty() {
                false
            } else {
                p.undo();
                true
            }
        })
    }
    pub fn play_sequence(&mut self, moves: &str) -> Result<(), GameError> {
        with_position!(self, p => p.play_sequence(moves))
    }
    pub fn parse_move(&self, token: &str) -> Result<Move, GameError> {
        with_position!(self, p => p.parse_move(token))
    }
    pub fn format_move(&self, m: Move) -> String {
        with_position!(self, p => p.format_move_safe(m))
    }

    /// Move `m`, legal here, named in `style`: a gravity column typed as a digit is named by
    /// its number from 1 (`4`), everything else as [`AnyPosition::format_move`] names it.
    pub fn format_move_as(&self, m: Move, style: ColumnStyle) -> String {
        match (style, self.variant()) {
            (ColumnStyle::Digits, Variant::Grid(r)) if r.gravity() => {
                self.move_xy(m).map_or_else(|| self.format_move(m), |(x, _)| (x + 1).to_string())
            }
            _ => self.format_move(m),
        }
    }
    pub fn hash(&self) -> u64 {
        with_position!(self, p => p.hash())
    }
    pub fn canonical_hash(&self) -> u64 {
        with_position!(self, p => p.canonical_hash())
    }
    pub fn render(&self) -> String {
        with_position!(self, p => p.render())
    }

    /// The stone on (x, y) of a grid board (None for connect3d).
    pub fn grid_stone(&self, x: usize, y: usize) -> Option<Player> {
        match self {
            AnyPosition::Free(g) => g.stone_at(x, y),
            AnyPosition::Wide(g) => g.stone_at(x, y),
            AnyPosition::Gravity(g) => g.stone_at(x, y),
            AnyPosition::GravityWide(g) => g.stone_at(x, y),
            AnyPosition::Connect3d(_) => None,
        }
    }

    /// Cells of the winning lines of a grid board (empty for connect3d and unfinished games).
    pub fn winning_cells(&self) -> Vec<(usize, usize)> {
        let Status::Win(w) = self.status() else {
            return Vec::new();
        };
        let lines = match self {
            AnyPosition::Free(g) => g.lines_of(w),
            AnyPosition::Wide(g) => g.lines_of(w),
            AnyPosition::Gravity(g) => g.lines_of(w),
            AnyPosition::GravityWide(g) => g.lines_of(w),
            AnyPosition::Connect3d(_) => Vec::new(),
        };
        lines.into_iter().flatten().collect()
    }

    /// The cell the last move landed on (grid boards).
    pub fn last_cell(&self) -> Option<(usize, usize)> {
        let n = self.history().len();
        if n == 0 {
            return None;
        }
        match self {
            AnyPosition::Free(g) => Some(g.history_cell(n - 1)),
            AnyPosition::Wide(g) => Some(g.history_cell(n - 1)),
            AnyPosition::Gravity(g) => Some(g.history_cell(n - 1)),
            AnyPosition::GravityWide(g) => Some(g.history_cell(n - 1)),
            AnyPosition::Connect3d(_) => None,
        }
    }

    /// The (x, y) cell a legal move would put its stone on (grid boards).
    pub fn move_xy(&self, m: Move) -> Option<(usize, usize)> {
        let r = self.variant().grid()?;
        if !with_position!(self, p => p.is_legal(m)) {
            return None;
        }
        let cell = with_position!(self, p => p.move_cell(m));
        Some((cell / r.height() as usize, cell % r.height() as usize))
    }

    /// The move putting a stone on (x, y) of a grid board, if legal now.
    pub fn move_to(&self, x: usize, y: usize) -> Option<Move> {
        match self {
            AnyPosition::Free(g) => g.move_to(x, y),
            AnyPosition::Wide(g) => g.move_to(x, y),
            AnyPosition::Gravity(g) => g.move_to(x, y),
            AnyPosition::GravityWide(g) => g.move_to(x, y),
            AnyPosition::Connect3d(_) => None,
        }
    }
}
