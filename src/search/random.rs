//! The random agent: a uniformly random legal move from its own seeded generator.

use super::progress::Clock;
use super::{
    Agent, Progress, ProgressSink, Score, SearchControl, SearchEvent, SearchLimits, SearchResult, SearchStats,
};
use crate::game::Position;
use crate::rng::{GameRng, seeded};

pub struct RandomAgent {
    rng: GameRng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: seeded(seed) }
    }
}

impl<P: Position> Agent<P> for RandomAgent {
    fn search(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        _control: &SearchControl,
        sink: &mut dyn ProgressSink,
    ) -> SearchResult {
        let clock = Clock::new(limits);
        if pos.is_over() {
            return SearchResult::default();
        }
        let m = pos.random_move(&mut self.rng);
        let progress =
            Progress { best: Some(m), pv: vec![m], elapsed: clock.elapsed(), finished: true, ..Default::default() };
        sink.event(SearchEvent::Progress(progress));
        SearchResult {
            best: Some(m),
            score: Score::Unknown,
            pv: vec![m],
            stats: SearchStats { elapsed: clock.elapsed(), ..Default::default() },
            root: Vec::new(),
            // A random move is this agent's whole method, not a search cut short.
            unsearched: false,
        }
    }
}
