//! Accuracy against budget, judged by the solver: agents search positions whose every move
//! has a proven value, and a move that changes the value is a mistake whatever the opponent
//! would do. Per CPU-second this measures an agent far more sharply than games do: draws do
//! not hide a mistake, and every position is a sample of its own.
//!
//! [`suite`] makes and reads the position suites, [`experiment`] runs agents x budgets x
//! suites into a resumable `moves.csv`, [`table`] aggregates it into `accuracy.csv` with
//! intervals bootstrapped by game.

pub mod crossover;
pub mod experiment;
pub mod suite;
pub mod table;

pub use crossover::{Crossover, crossing, crossovers};
pub use experiment::{
    AccuracyAgent, AccuracyError, AccuracyExperiment, AccuracyOptions, Budget, BudgetError, Doubling, MOVE_COLUMNS,
    MoveRow, Subsample, budgets_for, check_budgets, read_moves, run_accuracy,
};
pub use suite::{
    MoveValue, SUITE_VERSION, Suite, SuiteCounts, SuiteError, SuitePosition, SuiteSpec, load_suite, make_suite,
    save_suite,
};
pub use table::{ACCURACY_COLUMNS, AccuracyRow, accuracy_table, table_csv};
