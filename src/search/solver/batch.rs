//! A batch of positions in Pons' benchmark format ("<moves> <score>" a line, moves from the
//! start of the game), each solved and checked against the score the line gives: `mnklab solve
//! --batch` and `mnklab bench solve`.

use super::{AnySolver, SolveRun};
use crate::game::{GameError, Position};

/// Why a batch could not be solved, or did not agree with its file.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum BatchError {
    #[error("{source_name}:{line}: '{text}' is not a score (a line is \"<moves> <score>\")")]
    NotAScore { source_name: String, line: usize, text: String },
    #[error("{source_name}:{line}: {error}")]
    Moves { source_name: String, line: usize, error: GameError },
    #[error("{0}: no positions in the file")]
    Empty(String),
    #[error("{count} of {checked} solved values differ from the file's; the first: {first}")]
    Disagrees { count: usize, checked: usize, first: String },
}

/// What a batch solve found: counts, means, and how its values compare with the file's.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchReport {
    pub positions: usize,
    pub mean_us: f64,
    pub mean_nodes: f64,
    /// Lines that gave a score to compare with.
    pub checked: usize,
    /// "file:line: ..." for each line whose solved value differs from the file's.
    pub mismatches: Vec<String>,
    /// The table's size.
    pub table_bytes: u64,
}

impl BatchReport {
    /// Every score the file gave agrees with the solver (the score's sign with `weak`).
    pub fn verdict(&self) -> Result<String, BatchError> {
        match self.mismatches.first() {
            None if self.checked == 0 => Ok("the file gives no scores to compare with".into()),
            None => Ok(format!("all {} scores agree with the file", self.checked)),
            Some(first) => {
                Err(BatchError::Disagrees { count: self.mismatches.len(), checked: self.checked, first: first.clone() })
            }
        }
    }
}

/// What [`solve_batch`] solves: the file's text, named `source_name` in messages, the first
/// `limit` lines of it (None: all), weak or strong, over a table of `table_mb`.
#[derive(Clone, Copy, Debug)]
pub struct Batch<'a> {
    pub text: &'a str,
    pub source_name: &'a str,
    pub weak: bool,
    pub table_mb: u32,
    pub limit: Option<usize>,
}

/// Solves every line of `batch` from `start`; calls `out` with "<moves> <score>" per line and
/// compares each value with the score the line gives (its sign, for a weak solve). One table
/// for all, emptied in O(1) before each line, its pages mapped before the first clock.
pub fn solve_batch<P: Position>(
    start: &P,
    batch: Batch,
    mut out: impl FnMut(String),
) -> Result<BatchReport, BatchError> {
    let Batch { text, source_name, weak, table_mb, limit } = batch;
    let (mut n, mut micros, mut nodes) = (0usize, 0f64, 0f64);
    let (mut checked, mut mismatches) = (0usize, Vec::new());
    let mut table_bytes = 0;
    let mut solver = AnySolver::new(start, table_mb as usize);
    // Set-up, not search: the table's pages are mapped before the first position's clock.
    solver.touch_table_pages();
    for (i, line) in text.lines().enumerate().take(limit.unwrap_or(usize::MAX)) {
        if line.trim().is_empty() {
            continue;
        }
        let mut fields = line.split_whitespace();
        let moves = fields.next().unwrap_or("");
        let expected = match fields.next() {
            None => None,
            Some(t) => Some(t.parse::<i32>().map_err(|_| BatchError::NotAScore {
                source_name: source_name.into(),
                line: i + 1,
                text: t.into(),
            })?),
        };
        let mut p = start.clone();
        p.play_sequence(moves).map_err(|error| BatchError::Moves {
            source_name: source_name.into(),
            line: i + 1,
            error,
        })?;
        let s = solver.run(&p, SolveRun { weak, best_move: false, ..SolveRun::default() });
        table_bytes = table_bytes.max(s.memory);
        n += 1;
        micros += s.elapsed * 1e6;
        nodes += s.nodes as f64;
        if let Some(want) = expected {
            checked += 1;
            let agrees = if weak { s.lower.signum() == want.signum() } else { s.lower == want };
            if !agrees {
                mismatches.push(format!("{source_name}:{}: {moves} solved {}, the file says {want}", i + 1, s.lower));
            }
        }
        out(format!("{moves} {}", s.lower));
    }
    if n == 0 {
        return Err(BatchError::Empty(source_name.into()));
    }
    Ok(BatchReport {
        positions: n,
        mean_us: micros / n as f64,
        mean_nodes: nodes / n as f64,
        checked,
        mismatches,
        table_bytes,
    })
}
