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
pub fn count_positions<P: Position>(root: &P, max_ply: usize) -> Vec<LevelCount> {
    let mut levels: Vec<LevelCount> =
        (0..=max_ply).map(|ply| LevelCount { ply: root.ply() + ply, ..Default::default() }).collect();
    let mut canonical: Vec<HashSet<u64>> = vec![HashSet::new(); max_ply + 1];
    let mut seen = HashSet::new();
    let mut pos = root.clone();
    seen.insert(pos.key());
    walk(&mut pos, 0, max_ply, &mut seen, &mut canonical, &mut levels);
    for (l, c) in levels.iter_mut().zip(&canonical) {
        l.canonical = c.len() as u64;
    }
    levels
}

fn walk<P: Position>(
    pos: &mut P,
    depth: usize,
    max: usize,
    seen: &mut HashSet<P::Key>,
    canonical: &mut [HashSet<u64>],
    levels: &mut [LevelCount],
) {
    levels[depth].positions += 1;
    canonical[depth].insert(pos.canonical_hash());
    if pos.is_over() {
        levels[depth].finished += 1;
        return;
    }
    if depth == max {
        return;
    }
    let mut moves: Vec<Move> = Vec::new();
    pos.legal_moves(&mut moves);
    for m in moves {
        pos.play(m);
        if seen.insert(pos.key()) {
            walk(pos, depth + 1, max, seen, canonical, levels);
        }
        pos.undo();
    }
}

/// Move sequences from `root` to a finished game. Memoised by position, so games that share
/// positions are counted without being replayed; feasible while the positions fit in memory.
pub fn count_games<P: Position>(root: &P) -> u128 {
    let mut memo = HashMap::new();
    let mut pos = root.clone();
    games(&mut pos, &mut memo)
}

fn games<P: Position>(pos: &mut P, memo: &mut HashMap<P::Key, u128>) -> u128 {
    if pos.is_over() {
        return 1;
    }
    if let Some(&n) = memo.get(&pos.key()) {
        return n;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut total = 0u128;
    for m in moves {
        pos.play(m);
        total += games(pos, memo);
        pos.undo();
    }
    memo.insert(pos.key(), total);
    total
}
