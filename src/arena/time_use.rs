//! How each entrant spent a fixed time a move: the time used against the time allowed, so
//! that a comparison "at equal time" shows that the time was equal. Moves that ended early
//! (a proof, a forced move, one legal move) are counted apart: they could not use more.

use super::conditions::RunConditions;
use super::game::GameRecord;

/// A move that used less than this share of its time ended early.
pub const EARLY: f64 = 0.95;

/// One entrant's time a move.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeUse {
    pub name: String,
    /// "wall" or "cpu".
    pub clock: &'static str,
    /// Seconds allowed a move.
    pub allowed: f64,
    /// Moves that used their time, and their mean.
    pub full_moves: u64,
    pub mean: f64,
    /// The longest move.
    pub max: f64,
    /// Moves that took more than the time allowed plus 10 ms.
    pub over: u64,
    /// Moves that ended before [`EARLY`] of their time.
    pub early: u64,
}

impl TimeUse {
    pub fn line(&self) -> String {
        if self.full_moves == 0 {
            return format!(
                "{}: {} {} s a move, every move ended early ({}: proved, forced or one move), longest {:.4} s",
                self.name, self.clock, self.allowed, self.early, self.max
            );
        }
        format!(
            "{}: {} {} s a move, used {:.4} s on average ({:.1}%) over {} moves, longest {:.4} s, {} over by more than 10 ms; {} ended early (proved, forced or one move)",
            self.name,
            self.clock,
            self.allowed,
            self.mean,
            100.0 * self.mean / self.allowed,
            self.full_moves,
            self.max,
            self.over,
            self.early
        )
    }
}

/// Adds up the time use of the entrants with a fixed time a move (wall or CPU), game by game.
pub struct TimeUseCounter {
    uses: Vec<Option<TimeUse>>,
    sums: Vec<f64>,
}

impl TimeUseCounter {
    pub fn new(conditions: &RunConditions) -> TimeUseCounter {
        let uses = conditions
            .entrants
            .iter()
            .map(|e| {
                // A game budget splits time unevenly by design: no fixed time to compare with.
                if e.game_budget.is_some() {
                    return None;
                }
                let (clock, allowed) = match (e.limits.time, e.limits.cpu_time) {
                    (Some(t), _) => ("wall", t),
                    (None, Some(t)) => ("cpu", t),
                    (None, None) => return None,
                };
                Some(TimeUse {
                    name: e.name.clone(),
                    clock,
                    allowed,
                    full_moves: 0,
                    mean: 0.0,
                    max: 0.0,
                    over: 0,
                    early: 0,
                })
            })
            .collect();
        TimeUseCounter { sums: vec![0.0; conditions.entrants.len()], uses }
    }

    pub fn add(&mut self, r: &GameRecord) {
        for m in &r.moves {
            let e = r.players[m.player as usize];
            let Some(Some(u)) = self.uses.get_mut(e) else { continue };
            let t = if u.clock == "wall" { m.time } else { m.cpu.unwrap_or(m.time) };
            u.max = u.max.max(t);
            u.over += (t > u.allowed + 0.010) as u64;
            if t < EARLY * u.allowed {
                u.early += 1;
            } else {
                u.full_moves += 1;
                self.sums[e] += t;
            }
        }
    }

    pub fn finish(self) -> Vec<TimeUse> {
        self.uses
            .into_iter()
            .zip(self.sums)
            .filter_map(|(u, sum)| u.map(|u| TimeUse { mean: sum / u.full_moves.max(1) as f64, ..u }))
            .collect()
    }
}

/// The time lines of a run (as `match` and `table` print them), from its matchup and games.
pub fn time_lines(m: &super::Matchup, base: &std::path::Path, scale: f64, records: &[GameRecord]) -> Vec<String> {
    let Ok(entrants) = m.resolve(base) else { return Vec::new() };
    let mut counter = TimeUseCounter::new(&RunConditions::new(&entrants, scale));
    records.iter().for_each(|r| counter.add(r));
    counter.finish().iter().map(TimeUse::line).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::preset;
    use crate::arena::entrants::ResolvedEntrant;
    use crate::search::SearchLimits;

    #[test]
    fn time_used_is_set_against_time_allowed_with_early_moves_apart() {
        let entrant = |name: &str, limits| ResolvedEntrant {
            name: name.into(),
            file: preset("strong-ab").unwrap(),
            limits,
            game_budget: None,
        };
        let conditions =
            RunConditions::new(&[entrant("a", SearchLimits::time(0.1)), entrant("b", SearchLimits::depth(3))], 1.0);
        let mut c = TimeUseCounter::new(&conditions);
        let mut game = crate::arena::GameRecord::with_result(
            0,
            crate::game::Variant::tictactoe(),
            [0, 1],
            ["a".into(), "b".into()],
            crate::arena::Outcome::Draw,
        );
        for (player, time) in [(0u8, 0.100), (1, 0.5), (0, 0.104), (0, 0.02), (0, 0.125)] {
            game.moves.push(crate::arena::MoveRecord {
                player,
                mv: "a1".into(),
                time,
                nodes: 1,
                iterations: 0,
                depth: 1,
                eval: 0.0,
                score: None,
                memory: 0,
                unsearched: false,
                cpu: None,
            });
        }
        c.add(&game);
        let uses = c.finish();
        assert_eq!(uses.len(), 1, "only the entrant with a fixed time");
        let a = &uses[0];
        assert_eq!((a.full_moves, a.early, a.over), (3, 1, 1));
        assert!((a.mean - (0.100 + 0.104 + 0.125) / 3.0).abs() < 1e-12 && a.max == 0.125);
        assert!(
            a.line().starts_with("a: wall 0.1 s a move, used 0.1097 s on average (109.7%) over 3 moves"),
            "{}",
            a.line()
        );
        // Every move early: no mean over no moves.
        let early = TimeUse { full_moves: 0, early: 4, mean: 0.0, ..a.clone() };
        assert_eq!(
            early.line(),
            "a: wall 0.1 s a move, every move ended early (4: proved, forced or one move), longest 0.1250 s"
        );
    }
}
