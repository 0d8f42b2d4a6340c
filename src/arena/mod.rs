//! Matchups and sweeps between agents, their statistics and their result files: how a
//! researcher produces the tables of a paper.

pub mod game;
pub mod matchup;
pub mod results;
pub mod runner;
pub mod stats;

pub use game::{GameRecord, MoveRecord, Outcome, play_game};
pub use matchup::{AgentSource, Entrant, GameSpec, KRule, Matchup, Opening, Pairing, SprtConfig, Variants};
pub use results::{merge, read_results, write_csv};
pub use runner::{ArenaProgress, RunOptions, run_matchup};
pub use stats::{PairStats, summarize, table, wilson};
