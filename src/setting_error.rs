//! Why a setting of an agent, its heuristic or its limits is refused: one type for every
//! `validate()` of the eval and search layers, each variant naming the field as a file writes
//! it; and the ranges the settings share.

/// The longest time any setting may name: 10^6 seconds (11.6 days). Larger finite numbers
/// would overflow a deadline; no search here needs more.
pub const MAX_SECONDS: f64 = 1e6;

/// The deepest fixed depth: beyond any board's length (21 x 21 = 441 plies).
pub const MAX_DEPTH: u32 = 1000;

/// The shortest time any setting may name: 0.1 ms. Less is no search at all (a clock
/// reading costs about as much), and a tiny `--scale` (1e-9) must not make 5e-11 s a move.
pub const MIN_SECONDS: f64 = 1e-4;

/// Most threads one search may start.
pub const MAX_THREADS: u32 = 256;

/// A setting out of its range. The messages name the field and say what it must be.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingError {
    #[error("{field} must be a number of seconds from {MIN_SECONDS} to {MAX_SECONDS:.0}, not {}", shown(*.value))]
    Seconds { field: String, value: f64 },
    #[error("{field} must be at least 1, not {value}")]
    Count { field: String, value: u64 },
    #[error("{field} must be between 1 and {MAX_DEPTH} plies, not {value}")]
    Depth { field: String, value: u32 },
    #[error("{field} must be 1 to {MAX_THREADS}, not {value}")]
    Threads { field: String, value: u32 },
    #[error("{field} must be at least {min} MiB, not {value}")]
    MemoryBelow { field: String, value: u64, min: u64 },
    #[error(
        "{field} is {value} MiB, more than three quarters of the memory this process may use ({total} MiB: the machine's, a container's or ulimit -v's limit)"
    )]
    MemoryAbove { field: String, value: u64, total: u64 },
    /// Any other number outside its range: `rule` says the range ("must be at least 1"), and
    /// `value` is the number given where the message shows it.
    #[error("{field} {rule}{}", .value.as_ref().map_or(String::new(), |v| format!(", not {v}")))]
    Range { field: &'static str, rule: &'static str, value: Option<String> },
    /// A per-family agent's configuration that is not a searching agent.
    #[error("{field}: a per-family agent is alpha-beta, MCTS or the solver on every family, not {kind}")]
    PerFamilyKind { field: &'static str, kind: &'static str },
    /// A per-family agent whose families are of different kinds.
    #[error("{field}: a per-family agent is one kind on every family: {field} is {kind}, free is {free}")]
    PerFamilyMixed { field: &'static str, kind: &'static str, free: &'static str },
    /// A setting refused in one family's configuration.
    #[error("{field}: {error}")]
    InFamily { field: &'static str, error: Box<SettingError> },
    /// Two settings that do not go together.
    #[error("{field} {rule}")]
    Needs { field: &'static str, rule: &'static str },
    /// `threads` on an agent that searches on one thread.
    #[error("threads: a {kind} agent searches on one thread (alpha-beta, MCTS and the solver take more)")]
    OneThread { kind: &'static str },
    /// `parallel` on an agent other than MCTS.
    #[error("parallel: only MCTS chooses how its threads work (the {kind} agent's threads are its own)")]
    ParallelOnlyMcts { kind: &'static str },
    /// Solver threads on a board the parallel (Connect-X bitboard) solver does not cover.
    #[error(
        "only the Connect-X bitboard solver (gravity boards with (width + 2) x (height + 1) < 64, Connect-4 and \
         smaller) searches on threads, and this board is not one for it"
    )]
    SolverThreads,
    /// An external engine's command line is empty.
    #[error("command: empty")]
    EmptyCommand,
    /// A book file named in the config that cannot be read: its cause (without the path, which
    /// comes after it, so a line cut to a panel's width keeps what is wrong).
    #[error("solver: book file: {cause} ({path})")]
    Book { path: String, cause: String },
}

/// A huge or tiny number in full would be hundreds of digits (1e300 was).
fn shown(t: f64) -> String {
    if t.abs() >= 1e7 || (t != 0.0 && t.abs() < 1e-4) { format!("{t:e}") } else { format!("{t}") }
}

impl SettingError {
    /// A number outside its range (see [`SettingError::Range`]).
    pub fn range(field: &'static str, rule: &'static str, value: impl std::fmt::Display) -> SettingError {
        SettingError::Range { field, rule, value: Some(value.to_string()) }
    }
}

/// Callers that still speak in sentences (the command line's parsers) take the message.
impl From<SettingError> for String {
    fn from(e: SettingError) -> String {
        e.to_string()
    }
}
