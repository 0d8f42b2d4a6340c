//! Random positions for the tests that compare searches on them.

use mnklab::game::AnyPosition;
use mnklab::rng::below;
use mnklab::search::solver::GenericSolver;
use mnklab::with_position;

/// `stones` uniformly random moves from the start of `game`, or None if the game ends on the way.
pub fn random_position(game: &str, rng: &mut impl rand::Rng, stones: usize) -> Option<AnyPosition> {
    let mut pos = AnyPosition::new(game.parse().unwrap());
    for _ in 0..stones {
        let ms = pos.legal_moves();
        pos.try_play(ms[below(rng, ms.len())]).unwrap();
        if pos.status().is_over() {
            return None;
        }
    }
    Some(pos)
}

/// The free-placement boards the threat searches are checked on, with the stone counts that
/// leave positions the exact solver finishes and threats still to find.
#[allow(dead_code)] // not every test file using this module compares threat searches
pub const THREAT_BOARDS: [(&str, std::ops::Range<usize>); 7] = [
    ("mnk:4,4,3", 1..6),
    ("mnk:5,4,4", 2..9),
    ("mnk:5,5,4", 3..12),
    ("mnk:6,5,4", 2..12),
    ("mnk:6,6,4", 10..16),
    ("mnk:6,6,5", 8..18),
    ("mnk:7,7,5", 12..24),
];

/// `per_board` tries on each board: a stone count drawn from its range, then that many random
/// moves; the games that ended on the way are left out. Each position with its game.
pub fn random_positions<'a>(
    rng: &mut impl rand::Rng,
    boards: &[(&'a str, std::ops::Range<usize>)],
    per_board: usize,
) -> Vec<(&'a str, AnyPosition)> {
    let mut out = Vec::new();
    for (game, stones) in boards {
        for _ in 0..per_board {
            let n = stones.start + below(rng, stones.end - stones.start);
            if let Some(pos) = random_position(game, rng, n) {
                out.push((*game, pos));
            }
        }
    }
    out
}

/// The weak value for the side to move by the alpha-beta solver (the ground truth the threat
/// searches are checked against).
#[allow(dead_code)] // not every test file using this module needs the solver
pub fn solved(pos: &AnyPosition) -> i32 {
    with_position!(pos, p => {
        let (lo, hi) = GenericSolver::new(p, 64).solve(true, None, None);
        assert_eq!(lo, hi, "{}", pos.history_string());
        lo
    })
}
