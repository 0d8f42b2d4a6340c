//! Checking a book file against its game: that it holds every position within its depth and
//! nothing else, that each shallower position's value is the best of its moves' (the way the
//! book was built), and that a seeded sample of its deepest positions, solved again, has the
//! values it gives. A file that loads (checksum, keys) can still be wrong: edited by hand and
//! resealed, or made by a build with a bug; this is what a researcher runs before trusting one.

use std::collections::HashSet;
use std::time::Instant;

use super::book::{Book, book_key, book_positions, move_values};
use super::{BookError, ConnectSolver};
use crate::game::{Grid, Position};
use crate::rng::{below, seeded};

/// A deepest position solved again and what the book gives it.
#[derive(Clone, Debug)]
pub struct SampledPosition {
    /// The moves from the empty board, as mnklab writes them.
    pub moves: String,
    pub book: i32,
    pub solved: i32,
}

/// A shallower position whose value is not the best of its moves'.
#[derive(Clone, Debug)]
pub struct Contradiction {
    pub moves: String,
    pub book: i32,
    pub best_of_moves: i32,
}

/// What [`check_book`] found.
#[derive(Clone, Debug, Default)]
pub struct BookCheck {
    /// Positions of the game within the book's depth, one per mirror pair.
    pub positions: usize,
    /// Of those, the ones the book does not hold (the first few, as moves) and their count.
    pub missing: Vec<String>,
    pub missing_count: usize,
    /// Entries that are no such position (counted: keys alone, no moves to show).
    pub extra: usize,
    /// Shallower positions checked against their moves, those left unchecked (a move's
    /// position missing), and those that disagree (the first few) with their count.
    pub shallower: usize,
    pub unchecked: usize,
    pub contradictions: Vec<Contradiction>,
    pub contradiction_count: usize,
    /// The deepest positions, and those solved again (seeded), each with both values.
    pub deepest: usize,
    pub sampled: Vec<SampledPosition>,
    /// The solver's nodes for the sample, and the whole check's seconds.
    pub nodes: u64,
    pub seconds: f64,
}

impl BookCheck {
    /// Sampled positions whose solved value is not the book's.
    pub fn wrong_samples(&self) -> impl Iterator<Item = &SampledPosition> {
        self.sampled.iter().filter(|s| s.book != s.solved)
    }

    /// Whether nothing was found wrong.
    pub fn is_sound(&self) -> bool {
        self.missing_count == 0 && self.extra == 0 && self.contradiction_count == 0 && self.wrong_samples().count() == 0
    }
}

/// How many of each kind of fault are listed (all are counted).
const LISTED: usize = 5;

/// Checks `book` (see the module documentation), solving again `sample` of its deepest
/// positions chosen by a generator seeded with `seed`, with a table of `table_mb` MiB kept
/// across them.
pub fn check_book(book: &Book, sample: usize, seed: u64, table_mb: usize) -> Result<BookCheck, BookError> {
    let start = Instant::now();
    let variant: crate::game::Variant = book.game.parse().map_err(|_| BookError::Unsupported(book.game.clone()))?;
    let rules = variant.grid().ok_or_else(|| BookError::Unsupported(book.game.clone()))?;
    if !ConnectSolver::fits(&rules) {
        return Err(BookError::Unsupported(book.game.clone()));
    }
    let all = book_positions(&rules, book.depth);
    let mut check = BookCheck { positions: all.len(), ..Default::default() };
    let mut held = HashSet::with_capacity(all.len());
    for pos in &all {
        if book.probe(pos).is_some() {
            held.insert(book_key(pos));
        } else {
            check.missing_count += 1;
            if check.missing.len() < LISTED {
                check.missing.push(pos.history_string());
            }
        }
    }
    check.extra = book.len() - held.len();
    // The shallower positions: each the best of its moves' values, as the build made them.
    for pos in all.iter().filter(|p| (p.ply() as u32) < book.depth) {
        if book.probe(pos).is_none() {
            continue;
        }
        // A move whose position is missing leaves it unchecked (that position is counted as
        // missing above; a trial's book with its depth raised read as all consistent).
        if move_values(book, pos).iter().any(|(_, v)| v.is_none()) {
            check.unchecked += 1;
            continue;
        }
        check.shallower += 1;
        if let Some((value, best)) = book.contradiction_at(pos) {
            check.contradiction_count += 1;
            if check.contradictions.len() < LISTED {
                check.contradictions.push(Contradiction {
                    moves: pos.history_string(),
                    book: value,
                    best_of_moves: best,
                });
            }
        }
    }
    // A seeded sample of the deepest, solved again over one table.
    let deepest: Vec<&Grid<u64, true>> =
        all.iter().filter(|p| p.ply() as u32 == book.depth && book.probe(p).is_some()).collect();
    check.deepest = deepest.len();
    let mut rng = seeded(seed);
    let mut chosen: Vec<usize> = (0..deepest.len()).collect();
    // A partial Fisher-Yates shuffle: the first `sample` are a uniform choice.
    let take = sample.min(chosen.len());
    for i in 0..take {
        let j = i + below(&mut rng, chosen.len() - i);
        chosen.swap(i, j);
    }
    let mut solver = ConnectSolver::new(&rules, table_mb);
    for &i in &chosen[..take] {
        let pos = deepest[i];
        let b = solver.board_of(pos);
        let (lo, hi) = solver.solve(&b, false, None, None);
        debug_assert_eq!(lo, hi, "no deadline: solved");
        let value = book.probe(pos).expect("chosen among the held");
        check.sampled.push(SampledPosition { moves: pos.history_string(), book: value, solved: lo });
    }
    check.nodes = solver.nodes;
    check.seconds = start.elapsed().as_secs_f64();
    Ok(check)
}
