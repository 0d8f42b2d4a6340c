//! Matchups and sweeps between agents, their statistics and their result files: how a
//! researcher produces the tables of a paper.

pub mod accuracy;
pub mod conditions;
pub mod elo;
pub mod entrants;
pub mod game;
pub mod ladder;
pub mod matchup;
pub mod pairs;
pub mod record_check;
pub mod results;
pub mod runner;
pub mod sprt_gate;
pub mod stats;
pub mod time_use;
pub mod tune;
pub mod tune_run;

pub use entrants::{EntrantError, ResolvedEntrant};
pub use game::{GameRecord, MoveRecord, Outcome, play_game};
pub use matchup::{
    AgentSource, Colours, Entrant, GameSpec, KRule, Matchup, MatchupError, MatchupProblem, Opening, Pairing,
    SprtConfig, Variants,
};
pub use record_check::RecordProblem;
pub use results::{ResultsError, for_each_result, merge, read_results, write_csv, write_csv_from_results};
pub use runner::{ArenaProgress, RunError, RunOptions, RunSummary, run_matchup, run_matchup_summary};
pub use stats::{PairStats, Summarizer, headline, summarize, summarize_by_first_mover, table, wilson};
