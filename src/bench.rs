//! Measurements behind `mnklab bench` and the criterion benches.

use std::time::{Duration, Instant};

use crate::game::{AnyPosition, Position, Variant};
use crate::rng::seeded;
use crate::search::playout::random_playout_on_copy;
use crate::with_position;

/// What a playout benchmark measured.
#[derive(Clone, Debug)]
pub struct PlayoutReport {
    pub variant: Variant,
    pub playouts: u64,
    pub moves: u64,
    pub elapsed: Duration,
    /// Wins of the first and second player and draws, as a sanity check of the rules.
    pub outcomes: [u64; 3],
}

impl PlayoutReport {
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64()
    }
    pub fn mean_length(&self) -> f64 {
        self.moves as f64 / self.playouts.max(1) as f64
    }
}

/// Plays uniformly random games from the start position on this thread for about `seconds`.
pub fn playouts(variant: Variant, seconds: f64, seed: u64) -> PlayoutReport {
    let pos = AnyPosition::new(variant);
    with_position!(pos, p => playouts_on(p, seconds, seed))
}

fn playouts_on<P: Position>(pos: P, seconds: f64, seed: u64) -> PlayoutReport {
    let mut rng = seeded(seed);
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let start = Instant::now();
    let (mut playouts, mut moves, mut outcomes) = (0u64, 0u64, [0u64; 3]);
    let mut scratch = pos.clone();
    loop {
        // Check the clock once per batch so timing stays off the hot path.
        for _ in 0..256 {
            let r = random_playout_on_copy(&pos, &mut scratch, &mut rng);
            outcomes[r.status.winner().map_or(2, |p| p.index())] += 1;
            moves += r.length as u64;
            playouts += 1;
        }
        if start.elapsed() >= budget {
            break;
        }
    }
    PlayoutReport { variant: *pos.variant(), playouts, moves, elapsed: start.elapsed(), outcomes }
}
