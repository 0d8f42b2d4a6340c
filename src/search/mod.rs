//! Agents and what they share: limits and budgets, progress events, tree snapshots, the
//! transposition table. Generic over [`crate::game::Position`]; never draws and never prints.

mod agent;
pub mod alphabeta;
pub mod limits;
pub mod mcts;
pub mod playout;
pub mod progress;
pub mod random;
pub mod score;
pub mod solver;
pub mod threat_probe;
pub mod tree;
pub mod tt;

pub use agent::{Agent, SearchResult, SearchStats};
pub use alphabeta::{AlphaBeta, AlphaBetaConfig, AlphaBetaFlaw, MoveOrdering, Reductions};
pub use limits::{
    BudgetStrategy, BudgetUnit, ExtraMoves, GameBudget, Heeds, LimitError, MAX_DEPTH, MAX_SECONDS, SearchLimits,
    SettingError, check_count, check_depth, check_memory_mb, check_seconds, check_threads, machine_memory_mb,
};
pub use mcts::{FinalMove, Mcts, MctsConfig, Parallel};
pub use progress::{FnSink, NullSink, Progress, ProgressSink, RootMove, SearchControl, SearchEvent};
pub use score::{Score, bounds_label, so_far_label};
pub use threat_probe::{ThreatConfig, ThreatLine, ThreatProbe};
pub use tree::TreeSnapshot;
