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
#[serde(deny_unknown_fields)]
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

/// The heuristic value that [`Score::expected`] reads as tanh(1), about 88% for the side it
/// is about: alpha-beta's heuristics give a four-in-a-row threat about this much.
pub const EVAL_SCALE: f64 = 2000.0;

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

    /// The expected result for the side this score is about, in [-1, 1] (win 1, draw 0, loss
    /// -1): a heuristic value squashed (tanh of value / 2000), an MCTS mean rescaled. What a
    /// review's losses and `moves.csv`'s `expected` column are measured in.
    pub fn expected(&self) -> Option<f64> {
        self.expected_at(EVAL_SCALE)
    }

    /// [`Score::expected`] with heuristic values squashed as tanh(value / `scale`): for a
    /// game whose values run on another scale (connect3d's points; see
    /// `analysis::eval_bar::value_scale`).
    pub fn expected_at(&self, scale: f64) -> Option<f64> {
        match *self {
            Score::Unknown => None,
            Score::Eval(v) => Some((v as f64 / scale).tanh()),
            Score::WinRate(r) => Some(2.0 * r - 1.0),
            Score::Win { .. } => Some(1.0),
            Score::Loss { .. } => Some(-1.0),
            Score::Draw => Some(0.0),
        }
    }

    /// This score of a position for the side to move there, read for the player who moved
    /// into it: the other side's view, one ply further from the end.
    pub fn for_mover(&self) -> Score {
        match *self {
            Score::Win { plies } => Score::Loss { plies: plies.map(|p| p + 1) },
            Score::Loss { plies } => Score::Win { plies: plies.map(|p| p + 1) },
            Score::Draw => Score::Draw,
            Score::Eval(v) => Score::Eval(-v),
            Score::WinRate(r) => Score::WinRate(1.0 - r),
            Score::Unknown => Score::Unknown,
        }
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

/// A rate in [0, 1] as a percentage with `decimals` decimals, never rounded to 0% or 100%
/// unless it is exactly that (a 99.8% MCTS rate read "100%", as if certain): one decimal
/// more where rounding would reach an end, then "<0.1%" or ">99.9%". For what a person
/// reads; data files keep [`Score`]'s numeric form.
///
/// ```
/// use mnklab::search::score::percent;
/// assert_eq!(percent(0.62, 0), "62%");
/// assert_eq!(percent(0.998, 0), "99.8%");
/// assert_eq!(percent(0.9996, 0), ">99.9%");
/// assert_eq!(percent(0.003, 0), "0.3%");
/// assert_eq!(percent(1.0, 0), "100%");
/// assert_eq!(percent(0.9996, 1), ">99.9%");
/// assert_eq!(percent(0.0, 1), "0.0%");
/// ```
pub fn percent(r: f64, decimals: usize) -> String {
    let v = r * 100.0;
    for d in decimals..=decimals.max(1) {
        let text = format!("{v:.d$}");
        let rounded: f64 = text.parse().unwrap_or(v);
        let at_end = (rounded == 100.0 && r < 1.0) || (rounded == 0.0 && r > 0.0);
        if !at_end {
            return format!("{text}%");
        }
    }
    if r > 0.5 { ">99.9%".into() } else { "<0.1%".into() }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Unknown => f.write_str("?"),
            Score::Eval(v) => write!(f, "{:+.3}", *v as f64 / 1000.0),
            // The data files' form (moves.csv's score column): a number with one decimal. What
            // the workbench shows rounds with `percent` instead.
            Score::WinRate(r) => write!(f, "{:.1}%", r * 100.0),
            Score::Win { plies: Some(p) } => write!(f, "win in {p}"),
            Score::Win { plies: None } => f.write_str("win"),
            Score::Loss { plies: Some(p) } => write!(f, "loss in {p}"),
            Score::Loss { plies: None } => f.write_str("loss"),
            Score::Draw => f.write_str("draw"),
        }
    }
}

/// [`bounds_label`] as what a running proof has found "so far: ...", or "nothing ruled out
/// yet: ..." when it has found nothing ("so far: nothing ruled out yet" read twice).
pub fn so_far_label(lowest: &Score, highest: &Score) -> String {
    let label = bounds_label(lowest, highest);
    if label.starts_with("nothing") { label } else { format!("so far: {label}") }
}

/// What a running proof has established, from the lowest and the highest value it has not
/// ruled out (proven scores, for the side to move): "a win in 9 to 15 plies", "a draw, or a
/// win in 7 plies or more", "nothing ruled out yet: a loss, a draw, or a win". A higher
/// value is a sooner win or a later loss: the lowest value is the slowest win and the
/// quickest loss, the highest the quickest win and the slowest loss. A win in 1 ply or more
/// and a loss in 2 or more rule out no distance (the quickest there are), so they are said
/// without one (a trial read "a win in 1 ply or more" where no win in 1 was possible as a
/// finding).
pub fn bounds_label(lowest: &Score, highest: &Score) -> String {
    let unit = |n: u32| if n == 1 { "ply" } else { "plies" };
    let range = |a: Option<u32>, b: Option<u32>| match (a, b) {
        (Some(a), Some(b)) if a == b => format!(" in {a} {}", unit(a)),
        (Some(a), Some(b)) => format!(" in {} to {} plies", a.min(b), a.max(b)),
        _ => String::new(),
    };
    // The quickest win is in 1 ply, the quickest loss in 2.
    let at_least = |a: Option<u32>, quickest: u32| {
        a.filter(|&a| a > quickest).map_or(String::new(), |a| format!(" in {a} {} or more", unit(a)))
    };
    match (lowest, highest) {
        (Score::Win { plies: a }, Score::Win { plies: b }) => format!("a win{}", range(*a, *b)),
        (Score::Loss { plies: a }, Score::Loss { plies: b }) => format!("a loss{}", range(*a, *b)),
        (Score::Draw, Score::Draw) => "a draw".into(),
        (Score::Draw, Score::Win { plies: b }) => format!("a draw, or a win{}", at_least(*b, 1)),
        (Score::Loss { plies: a }, Score::Draw) => format!("a loss{}, or a draw", at_least(*a, 2)),
        (Score::Loss { plies: a }, Score::Win { plies: b }) => {
            let (loss, win) = (at_least(*a, 2), at_least(*b, 1));
            let nothing = if loss.is_empty() && win.is_empty() { "nothing ruled out yet: " } else { "" };
            format!("{nothing}a loss{loss}, a draw, or a win{win}")
        }
        (lo, hi) => format!("between {lo} and {hi}"),
    }
}
