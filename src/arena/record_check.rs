//! A game record read back checked against its matchup: a results file edited by hand, or
//! joined from another matchup, is refused by game rather than summarised into wrong
//! statistics.

use super::game::{GameRecord, Outcome};
use super::matchup::Matchup;
use crate::game::{AnyPosition, GameError, Status, Variant};

/// Why a game record does not belong to its matchup. `game` is the record's index; `ply`
/// counts the opening's moves and the game's from 1.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RecordProblem {
    #[error("game {game} is not in the matchup, whose schedule has {scheduled} games")]
    NotScheduled { game: u64, scheduled: u64 },
    #[error(
        "game {game} is recorded as {} with entrants {:?} and seed {}, but the matchup schedules {} with {:?} and seed {}",
        .recorded.0, .recorded.1, .recorded.2, .scheduled.0, .scheduled.1, .scheduled.2
    )]
    NotAsScheduled { game: u64, recorded: (Variant, [usize; 2], u64), scheduled: (Variant, [usize; 2], u64) },
    /// A swapped pair would credit one agent's wins to the other.
    #[error(
        "game {game} names its players {:?} and {:?}, but the matchup's entrants {entrants:?} are {:?} and {:?}",
        .recorded[0], .recorded[1], .expected[0], .expected[1]
    )]
    Names { game: u64, recorded: [String; 2], entrants: [usize; 2], expected: [String; 2] },
    #[error("game {game}: move {ply} '{mv}' took {seconds} seconds, which is not a time")]
    Time { game: u64, ply: usize, mv: String, seconds: f64 },
    #[error("game {game}: move {ply} '{mv}' used {seconds} CPU seconds, which is not a time")]
    CpuTime { game: u64, ply: usize, mv: String, seconds: f64 },
    #[error("game {game}: move {ply} '{mv}' comes after the game ended")]
    AfterTheEnd { game: u64, ply: usize, mv: String },
    #[error("game {game}: move {ply} '{mv}': {source}")]
    Move { game: u64, ply: usize, mv: String, source: GameError },
    #[error("game {game}: forfeit by side {side}, which is not 0 or 1")]
    Forfeit { game: u64, side: u8 },
    #[error("game {game}: its moves do not finish the game and no one forfeited")]
    Unfinished { game: u64 },
    #[error("game {game}: the moves end {played:?} but the record says {recorded:?}")]
    Outcome { game: u64, played: Outcome, recorded: Outcome },
}

impl Matchup {
    /// Checks a game record read back against this matchup: the game is in the schedule, its
    /// variant, players and seed are the ones the schedule gives it, and its moves are legal
    /// and end the way the record says.
    ///
    /// With `names` (the resolved entrants' names), the record's names must be theirs too.
    pub fn check_record(&self, r: &GameRecord, names: Option<&[String]>) -> Result<(), RecordProblem> {
        let game = r.index;
        let spec = self.spec(game).ok_or(RecordProblem::NotScheduled { game, scheduled: self.schedule_len() })?;
        if r.variant != spec.variant || r.players != spec.players || r.seed != spec.seed {
            return Err(RecordProblem::NotAsScheduled {
                game,
                recorded: (r.variant, r.players, r.seed),
                scheduled: (spec.variant, spec.players, spec.seed),
            });
        }
        if let Some(names) = names {
            let expected = [names[spec.players[0]].clone(), names[spec.players[1]].clone()];
            if r.names != expected {
                return Err(RecordProblem::Names { game, recorded: r.names.clone(), entrants: spec.players, expected });
            }
        }
        check_times(r)?;
        let mut pos = AnyPosition::new(r.variant);
        let moves = r.opening.iter().map(String::as_str).chain(r.moves.iter().map(|m| m.mv.as_str()));
        for (k, mv) in moves.enumerate() {
            let (ply, mv) = (k + 1, mv.to_string());
            if pos.status().is_over() {
                return Err(RecordProblem::AfterTheEnd { game, ply, mv });
            }
            if let Err(source) = pos.parse_move(&mv).and_then(|m| pos.try_play(m)) {
                return Err(RecordProblem::Move { game, ply, mv, source });
            }
        }
        let played = match (r.forfeit, pos.status()) {
            (Some(0), _) => Outcome::SecondWins,
            (Some(1), _) => Outcome::FirstWins,
            (Some(side), _) => return Err(RecordProblem::Forfeit { game, side }),
            (None, Status::Win(w)) if w.index() == 0 => Outcome::FirstWins,
            (None, Status::Win(_)) => Outcome::SecondWins,
            (None, Status::Draw) => Outcome::Draw,
            (None, _) => return Err(RecordProblem::Unfinished { game }),
        };
        if played != r.outcome {
            return Err(RecordProblem::Outcome { game, played, recorded: r.outcome });
        }
        Ok(())
    }
}

/// Every move's wall-clock and CPU time is a time: finite and not negative.
fn check_times(r: &GameRecord) -> Result<(), RecordProblem> {
    let not_a_time = |t: f64| !(t.is_finite() && t >= 0.0);
    let game = r.index;
    if let Some((k, m)) = r.moves.iter().enumerate().find(|(_, m)| not_a_time(m.time)) {
        return Err(RecordProblem::Time { game, ply: k + 1, mv: m.mv.clone(), seconds: m.time });
    }
    let cpu = r.moves.iter().enumerate().find_map(|(k, m)| m.cpu.filter(|&c| not_a_time(c)).map(|c| (k, m, c)));
    if let Some((k, m, seconds)) = cpu {
        return Err(RecordProblem::CpuTime { game, ply: k + 1, mv: m.mv.clone(), seconds });
    }
    Ok(())
}
