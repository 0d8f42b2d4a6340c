//! Scores: what a search says a position is worth, for the side to move.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Internal alpha-beta value of a win at the root (a win `p` plies away is `WIN - p`).
pub const WIN: i32 = 100_000_000;
/// Values beyond this are proven wins or losses.
pub const WIN_BOUND: i32 = WIN - 100_000;
pub const INF: i32 = WIN + 1;

/// A score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Default)]
pub enum Score {
    /// Not known (no search yet).
    #[default]
    Unknown,
    /// A heuristic value (milli-windows).
    Eval(i32),
    /// An MCTS mean reward in [0, 1].
    WinRate(f64),
    /// Proven win; `plies` counts the moves to the end including the winning one, when known.
    Win { plies: Option<u32> },
    /// Proven loss.
    Loss { plies: Option<u32> },
    /// Proven draw.
    Draw,
}

impl Score {
    /// From an alpha-beta value. `distances`: whether wins carry their distance.
    pub fn from_value(v: i32, distances: bool) -> Score {
        if v >= WIN_BOUND {
            Score::Win { plies: distances.then_some((WIN - v) as u32) }
        } else if v <= -WIN_BOUND {
            Score::Loss { plies: distances.then_some((WIN + v) as u32) }
        } else {
            Score::Eval(v)
        }
    }

    pub fn is_proven(&self) -> bool {
        matches!(self, Score::Win { .. } | Score::Loss { .. } | Score::Draw)
    }

    /// A number to compare and plot: wins above every evaluation, faster wins higher.
    pub fn as_f64(&self) -> f64 {
        match *self {
            Score::Unknown => f64::NAN,
            Score::Eval(v) => v as f64 / 1000.0,
            Score::WinRate(r) => r,
            Score::Win { plies } => 1e6 - plies.unwrap_or(0) as f64,
            Score::Loss { plies } => -1e6 + plies.unwrap_or(0) as f64,
            Score::Draw => 0.0,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Unknown => f.write_str("?"),
            Score::Eval(v) => write!(f, "{:+.3}", *v as f64 / 1000.0),
            Score::WinRate(r) => write!(f, "{:.1}%", r * 100.0),
            Score::Win { plies: Some(p) } => write!(f, "win in {p}"),
            Score::Win { plies: None } => f.write_str("win"),
            Score::Loss { plies: Some(p) } => write!(f, "loss in {p}"),
            Score::Loss { plies: None } => f.write_str("loss"),
            Score::Draw => f.write_str("draw"),
        }
    }
}
