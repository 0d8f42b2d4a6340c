//! Result files: `results.ronl` holds one game a line, appended as each game finishes, so a
//! killed run loses at most the games in progress; CSV exports for pandas and R.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::conditions::RunConditions;
use super::game::{GameRecord, Outcome};
use crate::io::FileError;

pub const RESULTS_FILE: &str = "results.ronl";
pub const MATCHUP_FILE: &str = "matchup.ron";

/// The longest line a results file may hold (a game of every cell of a 64x64 board is far
/// shorter); a longer one is not a game record.
const MAX_RESULT_LINE: u64 = 64 << 20;

/// Why a results file or a run folder could not be read or written. Each names the file.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("cannot {action} {}: {source}", .path.display())]
    Io { action: &'static str, path: PathBuf, source: std::io::Error },
    #[error("cannot {action} a result: {source}")]
    Append { action: &'static str, source: std::io::Error },
    #[error("{}:{line}: a line longer than {MAX_RESULT_LINE} bytes is not a game record", .path.display())]
    LineTooLong { path: PathBuf, line: usize },
    #[error("{}:{line}: not a game record: {message}", .path.display())]
    NotAGame { path: PathBuf, line: usize, message: String },
    #[error("{0}")]
    Encode(#[from] ron::Error),
    #[error("{0}")]
    Csv(#[from] csv::Error),
    /// Two shards hold the same game with different moves or results.
    #[error("game {0} appears twice with different moves")]
    Conflict(u64),
    #[error("{}: no such folder or file (give a run folder or its {RESULTS_FILE})", .0.display())]
    NoRun(PathBuf),
    #[error("{}: no results file (expected a run folder or a {RESULTS_FILE})", .0.display())]
    NoResultsFile(PathBuf),
    #[error("{}: holds no game records (is it a results file?)", .0.display())]
    NoGames(PathBuf),
    /// A game twice in one run's results; `hint` says how shards are joined.
    #[error("{}: game {index} appears twice{}", .path.display(), if *.hint { " (join shards with mnklab merge, which keeps each game once)" } else { "" })]
    Twice { path: PathBuf, index: u64, hint: bool },
    /// A game the run's matchup could not have played.
    #[error("{}: {problem}", .path.display())]
    NotThisMatchup { path: PathBuf, problem: Box<super::record_check::RecordProblem> },
}

/// Reads the games of a results file. A last line cut off by a crash is ignored; any other
/// bad line is an error naming it.
pub fn read_results(path: &Path) -> Result<Vec<GameRecord>, ResultsError> {
    let mut out = Vec::new();
    for_each_result(path, |r| {
        out.push(r);
        Ok::<_, ResultsError>(())
    })?;
    Ok(out)
}

/// Calls `f` with each game of a results file in file order, a line at a time: a results file
/// of any size is read in bounded memory. A missing file has no games. `f`'s own error ends
/// the reading and is returned.
pub fn for_each_result<E: From<ResultsError>>(
    path: &Path,
    mut f: impl FnMut(GameRecord) -> Result<(), E>,
) -> Result<u64, E> {
    use std::io::{BufRead, Read};
    if !path.exists() {
        return Ok(0);
    }
    // A regular file only (a FIFO or /dev/zero named as results would never end).
    let (file, _) = crate::io::open_regular(path).map_err(ResultsError::from)?;
    let mut reader = std::io::BufReader::new(file);
    let mut line = Vec::new();
    let mut count = 0;
    for number in 1.. {
        line.clear();
        let n = (&mut reader)
            .take(MAX_RESULT_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(|source| ResultsError::Io { action: "read", path: path.into(), source })?;
        if n == 0 {
            break;
        }
        let complete = line.ends_with(b"\n");
        if line.len() as u64 > MAX_RESULT_LINE {
            return Err(ResultsError::LineTooLong { path: path.into(), line: number }.into());
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        match ron::from_str::<GameRecord>(text.trim_end()) {
            Ok(r) => {
                f(r)?;
                count += 1;
            }
            // Only the last line can lack its newline: a line cut off by a crash.
            Err(_) if !complete => break,
            Err(e) => {
                let message = crate::io::ron_message(&e);
                return Err(ResultsError::NotAGame { path: path.into(), line: number, message }.into());
            }
        }
    }
    Ok(count)
}

/// Appends one game and flushes it to disk before returning.
pub struct ResultsWriter {
    file: std::fs::File,
}

impl ResultsWriter {
    pub fn open(path: &Path) -> Result<ResultsWriter, ResultsError> {
        // A last line without its newline is either a whole game written by hand or by a tool
        // that dropped the newline (keep it: end the line), or a line cut off by a crash,
        // which holds no whole game (cut it away before appending).
        let mut tail = None;
        if let Ok(bytes) = std::fs::read(path)
            && !bytes.is_empty()
            && !bytes.ends_with(b"\n")
        {
            let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let last = String::from_utf8_lossy(&bytes[keep..]);
            tail = Some(if ron::from_str::<GameRecord>(&last).is_ok() { None } else { Some(keep as u64) });
        }
        if let Some(Some(keep)) = tail {
            let f = std::fs::OpenOptions::new().write(true).open(path).map_err(io("open", path))?;
            f.set_len(keep).map_err(io("trim", path))?;
        }
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(io("open", path))?;
        if let Some(None) = tail {
            file.write_all(b"\n").map_err(io("append to", path))?;
        }
        Ok(ResultsWriter { file })
    }

    pub fn append(&mut self, r: &GameRecord) -> Result<(), ResultsError> {
        let line = ron::to_string(r)? + "\n";
        let append = |action| move |source| ResultsError::Append { action, source };
        self.file.write_all(line.as_bytes()).map_err(append("append"))?;
        self.file.sync_data().map_err(append("flush"))
    }
}

/// An I/O error of `action` on `path`, as a results error.
fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> ResultsError {
    let path = path.to_path_buf();
    move |source| ResultsError::Io { action, path, source }
}

/// Joins games from several runs (shards), each game once; the same game with different
/// results is an error.
pub fn merge(runs: Vec<Vec<GameRecord>>) -> Result<Vec<GameRecord>, ResultsError> {
    let mut by_index: BTreeMap<u64, GameRecord> = BTreeMap::new();
    for r in runs.into_iter().flatten() {
        if let Some(old) = by_index.get(&r.index) {
            if old != &r
                && (old.outcome != r.outcome || old.moves.iter().map(|m| &m.mv).ne(r.moves.iter().map(|m| &m.mv)))
            {
                return Err(ResultsError::Conflict(r.index));
            }
            continue;
        }
        by_index.insert(r.index, r);
    }
    Ok(by_index.into_values().collect())
}

const GAME_COLUMNS: [&str; 19] = [
    "index",
    "variant",
    "first",
    "second",
    "first_entrant",
    "second_entrant",
    "seed",
    "outcome",
    "winner",
    "first_points",
    "second_points",
    "plies",
    "forfeit",
    "forfeit_reason",
    "opening",
    "moves",
    // Provenance: the build that played the game, and the hash of each player's resolved
    // configuration (entrants.ron; empty in runs of an older mnklab).
    "commit",
    "first_config",
    "second_config",
];

const MOVE_COLUMNS: [&str; 16] = [
    "index",
    "variant",
    "ply",
    "player",
    "agent",
    "move",
    "time_s",
    "nodes",
    "iterations",
    "depth",
    "eval",
    "memory_bytes",
    "unsearched",
    // The score for the mover as the workbench and `analyse` print it, and as one number for
    // every agent kind: the expected result for the mover, -1 (loss) .. 1 (win).
    "score",
    "expected",
    // CPU seconds of the thread that searched (empty in runs of an older mnklab).
    "cpu_s",
];

fn game_row(r: &GameRecord, conditions: Option<&RunConditions>) -> [String; 19] {
    let hash = |side: usize| conditions.map_or(String::new(), |c| c.hash_of(r.players[side]).to_string());
    let winner = match r.outcome {
        Outcome::FirstWins => r.names[0].as_str(),
        Outcome::SecondWins => r.names[1].as_str(),
        Outcome::Draw => "",
    };
    [
        r.index.to_string(),
        r.variant.to_string(),
        r.names[0].clone(),
        r.names[1].clone(),
        r.players[0].to_string(),
        r.players[1].to_string(),
        r.seed.to_string(),
        format!("{:?}", r.outcome),
        winner.to_string(),
        r.points[0].to_string(),
        r.points[1].to_string(),
        (r.opening.len() + r.moves.len()).to_string(),
        r.forfeit.map_or(String::new(), |f| f.to_string()),
        r.forfeit_reason.clone().unwrap_or_default(),
        r.opening.join(" "),
        r.moves.iter().map(|m| m.mv.as_str()).collect::<Vec<_>>().join(" "),
        r.commit.clone().unwrap_or_default(),
        hash(0),
        hash(1),
    ]
}

fn move_rows(r: &GameRecord) -> Vec<[String; 16]> {
    r.moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            [
                r.index.to_string(),
                r.variant.to_string(),
                (r.opening.len() + i + 1).to_string(),
                m.player.to_string(),
                r.names[m.player as usize].clone(),
                m.mv.clone(),
                format!("{:.6}", m.time),
                m.nodes.to_string(),
                m.iterations.to_string(),
                m.depth.to_string(),
                m.eval.to_string(),
                m.memory.to_string(),
                m.unsearched.to_string(),
                m.score.map_or(String::new(), |s| s.to_string()),
                m.score.and_then(|s| s.expected()).map_or(String::new(), |e| format!("{e:.4}")),
                m.cpu.map_or(String::new(), |c| format!("{c:.6}")),
            ]
        })
        .collect()
}

/// A visitor of games: calls its argument with each game in turn.
type EachGame<'a> = dyn Fn(&mut dyn FnMut(&GameRecord) -> Result<(), ResultsError>) -> Result<(), ResultsError> + 'a;

/// Writes one CSV file atomically from the games `each` visits, streaming: `rows` turns a
/// game into its rows.
fn write_csv_file<const N: usize, I: IntoIterator<Item = [String; N]>>(
    path: &Path,
    header: [&str; N],
    each: &EachGame,
    rows: impl Fn(&GameRecord) -> I,
) -> Result<(), ResultsError> {
    let mut failure = None;
    let written = crate::io::write_atomic_with(path, |out| {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(header)?;
        let visited = each(&mut |r| {
            for row in rows(r) {
                w.write_record(&row)?;
            }
            Ok(())
        });
        if let Err(e) = visited {
            let message = e.to_string();
            failure = Some(e);
            return Err(std::io::Error::other(message));
        }
        w.flush()
    });
    match (failure, written) {
        (Some(e), _) => Err(e),
        (None, r) => Ok(r?),
    }
}

/// `games.csv` (one row a game) and `moves.csv` (one row a move) in `dir`; `conditions` (the
/// run's `entrants.ron`) gives each game its players' configuration hashes.
pub fn write_csv(dir: &Path, records: &[GameRecord], conditions: Option<&RunConditions>) -> Result<(), ResultsError> {
    let each = |f: &mut dyn FnMut(&GameRecord) -> Result<(), ResultsError>| records.iter().try_for_each(&mut *f);
    write_csv_file(&dir.join("games.csv"), GAME_COLUMNS, &each, |r| [game_row(r, conditions)])?;
    write_csv_file(&dir.join("moves.csv"), MOVE_COLUMNS, &each, move_rows)
}

/// [`write_csv`] from a results file, in bounded memory (games in file order).
pub fn write_csv_from_results(
    dir: &Path,
    results: &Path,
    conditions: Option<&RunConditions>,
) -> Result<(), ResultsError> {
    let each =
        |f: &mut dyn FnMut(&GameRecord) -> Result<(), ResultsError>| for_each_result(results, |r| f(&r)).map(|_| ());
    write_csv_file(&dir.join("games.csv"), GAME_COLUMNS, &each, |r| [game_row(r, conditions)])?;
    write_csv_file(&dir.join("moves.csv"), MOVE_COLUMNS, &each, move_rows)
}

/// A finished (or partial) run read back: its games and, if saved beside them, its matchup.
pub struct Run {
    pub records: Vec<GameRecord>,
    pub matchup: Option<super::matchup::Matchup>,
    /// The folder the run is in (agent files of the matchup resolve against it).
    pub dir: std::path::PathBuf,
    /// The agents and scale the games were played with (None: a run of an older mnklab).
    pub conditions: Option<super::conditions::RunConditions>,
}

/// Reads a run from its output folder or its `results.ronl`. A missing results file is an
/// error here (unlike resuming, where it means "nothing done yet").
pub fn load_run(path: &Path) -> Result<Run, ResultsError> {
    let (dir, results) = if path.is_dir() {
        (path.to_path_buf(), path.join(RESULTS_FILE))
    } else {
        (path.parent().map(Path::to_path_buf).unwrap_or_default(), path.to_path_buf())
    };
    if !path.exists() {
        return Err(ResultsError::NoRun(path.into()));
    }
    if !results.is_file() {
        return Err(ResultsError::NoResultsFile(path.into()));
    }
    let records = read_results(&results)?;
    let matchup_path = dir.join(MATCHUP_FILE);
    let matchup = if matchup_path.is_file() { Some(super::matchup::Matchup::load(&matchup_path)?) } else { None };
    if let Some(m) = &matchup {
        // Names are checked when the entrants' agent files can be read from here.
        let names: Option<Vec<String>> = m.resolve(&dir).ok().map(|e| e.into_iter().map(|e| e.name).collect());
        let mut seen = std::collections::HashSet::new();
        for r in &records {
            m.check_record(r, names.as_deref()).map_err(|problem| ResultsError::NotThisMatchup {
                path: results.clone(),
                problem: Box::new(problem),
            })?;
            if !seen.insert(r.index) {
                return Err(ResultsError::Twice { path: results.clone(), index: r.index, hint: true });
            }
        }
    }
    if records.is_empty() && matchup.is_none() {
        return Err(ResultsError::NoGames(results));
    }
    let conditions_path = dir.join(super::conditions::CONDITIONS_FILE);
    let conditions =
        if conditions_path.is_file() { Some(super::conditions::RunConditions::load(&conditions_path)?) } else { None };
    Ok(Run { records, matchup, dir, conditions })
}
