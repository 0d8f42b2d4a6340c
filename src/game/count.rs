//! Counting positions and games: the ground-truth checks of a rules implementation.

use std::collections::{HashMap, HashSet};

use super::{Move, Position};

/// Distinct positions reached after exactly `ply` moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelCount {
    pub ply: usize,
    /// Distinct positions (by exact stones).
    pub positions: u64,
    /// How many of them are finished (a win or a full board).
    pub finished: u64,
    /// Distinct up to the board's symmetries (by canonical hash).
    pub canonical: u64,
}

/// Distinct positions after 0..=`max_ply` moves from `root`. Finished positions are counted
/// and not extended. A depth-first walk that skips positions already seen (a position's ply
/// is its stone count, so one set serves every level).
///
/// Unbounded: see [`count_positions_within`] for a walk that stops at a memory budget.
pub fn count_positions<P: Position>(root: &P, max_ply: usize) -> Vec<LevelCount> {
    count_positions_within(root, max_ply, u64::MAX).expect("an unbounded count has no budget to exceed")
}

/// Why a count stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    #[error("more than {positions} distinct positions to remember, more than {mib} MiB of memory holds")]
    TooManyPositions { positions: usize, mib: u64 },
    #[error("more than 2^128 games: too many to count")]
    Overflow,
}

/// The positions `max_bytes` can remember: a key in a hash set, counted at the worst moment
/// (while the set doubles, old and new tables are both alive: about 4 slots a key), and its
/// canonical hash in another.
fn positions_within<P: Position>(max_bytes: u64) -> usize {
    let per_position = 4 * (std::mem::size_of::<P::Key>() as u64 + 1) + 4 * 9;
    usize::try_from(max_bytes / per_position).unwrap_or(usize::MAX)
}

/// [`count_positions`] that gives up, with an error, before the positions it remembers would
/// take more than `max_bytes`, rather than exhausting memory.
pub fn count_positions_within<P: Position>(
    root: &P,
    max_ply: usize,
    max_bytes: u64,
) -> Result<Vec<LevelCount>, CountError> {
    let max_positions = positions_within::<P>(max_bytes);
    let mut levels: Vec<LevelCount> =
        (0..=max_ply).map(|ply| LevelCount { ply: root.ply() + ply, ..Default::default() }).collect();
    let mut canonical: Vec<HashSet<u64>> = vec![HashSet::new(); max_ply + 1];
    let mut seen = HashSet::new();
    let mut pos = root.clone();
    seen.insert(pos.key());
    if !walk(&mut pos, 0, max_ply, &mut seen, &mut canonical, &mut levels, max_positions) {
        return Err(CountError::TooManyPositions { positions: max_positions, mib: max_bytes >> 20 });
    }
    for (l, c) in levels.iter_mut().zip(&canonical) {
        l.canonical = c.len() as u64;
    }
    Ok(levels)
}

fn walk<P: Position>(
    pos: &mut P,
    depth: usize,
    max: usize,
    seen: &mut HashSet<P::Key>,
    canonical: &mut [HashSet<u64>],
    levels: &mut [LevelCount],
    budget: usize,
) -> bool {
    levels[depth].positions += 1;
    canonical[depth].insert(pos.canonical_hash());
    if pos.is_over() {
        levels[depth].finished += 1;
        return true;
    }
    if depth == max {
        return true;
    }
    let mut moves: Vec<Move> = Vec::new();
    pos.legal_moves(&mut moves);
    for m in moves {
        pos.play(m);
        let fresh = seen.insert(pos.key());
        let within = seen.len() <= budget && (!fresh || walk(pos, depth + 1, max, seen, canonical, levels, budget));
        pos.undo();
        if !within {
            return false;
        }
    }
    true
}

/// Move sequences from `root` to a finished game. Memoised by position, so games that share
/// positions are counted without being replayed; feasible while the positions fit in memory.
///
/// Unbounded: see [`count_games_within`].
pub fn count_games<P: Position>(root: &P) -> u128 {
    count_games_within(root, u64::MAX).expect("games of a board small enough to count unbounded")
}

/// [`count_games`] that gives up before its memo would take more than `max_bytes`, and says
/// so when the count does not fit in 128 bits (never a wrapped-around number).
pub fn count_games_within<P: Position>(root: &P, max_bytes: u64) -> Result<u128, CountError> {
    count_games_reporting(root, max_bytes, &mut |_| {})
}

/// [`count_games_within`] that tells `progress` the positions memoised so far, every 65,536
/// of them, and the most it may hold: a long count shows that it is working and how near it
/// is to its memory limit.
pub fn count_games_reporting<P: Position>(
    root: &P,
    max_bytes: u64,
    progress: &mut dyn FnMut(GamesProgress),
) -> Result<u128, CountError> {
    let mut memo = HashMap::new();
    let mut pos = root.clone();
    let max_positions = positions_within::<P>(max_bytes);
    let mut counter = Counter {
        memo: &mut memo,
        budget: max_positions,
        progress,
        bytes_each: max_bytes / max_positions.max(1) as u64,
    };
    games(&mut pos, &mut counter)
        .map_err(|_: usize| CountError::TooManyPositions { positions: max_positions, mib: max_bytes >> 20 })?
        .ok_or(CountError::Overflow)
}

/// How far a count of games has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamesProgress {
    /// Positions memoised so far.
    pub positions: usize,
    /// The most it may memoise before it stops with [`CountError::TooManyPositions`].
    pub max_positions: usize,
    /// Their memory, about.
    pub bytes: u64,
}

struct Counter<'a, K> {
    memo: &'a mut HashMap<K, u128>,
    budget: usize,
    progress: &'a mut dyn FnMut(GamesProgress),
    bytes_each: u64,
}

/// Games from `pos`: Err when the memo is full, Ok(None) past 2^128.
fn games<P: Position>(pos: &mut P, c: &mut Counter<'_, P::Key>) -> Result<Option<u128>, usize> {
    if pos.is_over() {
        return Ok(Some(1));
    }
    if let Some(&n) = c.memo.get(&pos.key()) {
        return Ok(Some(n));
    }
    if c.memo.len() >= c.budget {
        return Err(c.budget);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut total = 0u128;
    for m in moves {
        pos.play(m);
        let n = games(pos, c);
        pos.undo();
        match n?.and_then(|n| total.checked_add(n)) {
            Some(t) => total = t,
            None => return Ok(None),
        }
    }
    c.memo.insert(pos.key(), total);
    if c.memo.len().is_multiple_of(1 << 16) {
        let positions = c.memo.len();
        (c.progress)(GamesProgress { positions, max_positions: c.budget, bytes: positions as u64 * c.bytes_each });
    }
    Ok(Some(total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AnyPosition, Variant};
    use crate::with_position;

    #[test]
    fn a_count_over_its_memory_budget_is_an_error_not_an_abort() {
        let pos = AnyPosition::new("tictactoe".parse::<Variant>().unwrap());
        // 5,478 positions in all; a budget of a few hundred is too small.
        let small = with_position!(&pos, p => count_positions_within(p, 9, 20_000));
        assert!(matches!(small, Err(CountError::TooManyPositions { .. })), "{small:?}");
        let games = with_position!(&pos, p => count_games_within(p, 20_000));
        assert!(matches!(games, Err(CountError::TooManyPositions { .. })), "{games:?}");
        let whole = with_position!(&pos, p => count_positions_within(p, 9, 64 << 20)).unwrap();
        assert_eq!(whole.iter().map(|l| l.positions).sum::<u64>(), 5_478);
        assert_eq!(with_position!(&pos, p => count_games_within(p, 64 << 20)), Ok(255_168));
    }
}
