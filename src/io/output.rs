//! Where a command may write: never over a run's own files, and never over a file it did not
//! write unless the user says `--force`. A typo in `--out` must not cost a night's results.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// The files a run folder holds (the matchup played, the entrants resolved, the raw results
/// and the tables made from them): no other command replaces them.
pub const RUN_FILES: &[&str] = &["results.ronl", "matchup.ron", "entrants.ron", "games.csv", "moves.csv"];

#[derive(Debug, Error, PartialEq, Eq)]
pub enum OutputError {
    /// The path is one of a run folder's own files.
    #[error("{path} is the run's own {name}: nothing replaces a run's files; write elsewhere")]
    RunFile { path: PathBuf, name: &'static str },
    /// The file exists and `--force` was not given.
    #[error("{path} exists: add --force to replace it, or choose another name")]
    Exists { path: PathBuf },
}

/// Checks that a command may write `path`: not a run folder's own file (whatever `force`
/// says; a symlink is judged by what it points at), and, without `force`, not an existing
/// file.
///
/// ```
/// use mnklab::io::{OutputError, check_output};
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("results.ronl"), "").unwrap();
/// let games = dir.path().join("games.csv");
/// assert!(matches!(check_output(&games, true), Err(OutputError::RunFile { .. })));
/// let table = dir.path().join("table.txt");
/// assert_eq!(check_output(&table, false), Ok(()));
/// std::fs::write(&table, "mine").unwrap();
/// assert!(matches!(check_output(&table, false), Err(OutputError::Exists { .. })));
/// assert_eq!(check_output(&table, true), Ok(()));
/// ```
pub fn check_output(path: &Path, force: bool) -> Result<(), OutputError> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if let Some(name) = run_file(&target).or_else(|| run_file(path)) {
        return Err(OutputError::RunFile { path: path.to_path_buf(), name });
    }
    if !force && std::fs::symlink_metadata(path).is_ok() {
        return Err(OutputError::Exists { path: path.to_path_buf() });
    }
    Ok(())
}

/// [`check_output`] once the new bytes are known: an existing file that already holds exactly
/// `bytes` is no conflict (writing it again loses nothing, e.g. a figure's CSV when the same
/// figure is drawn in a second format).
///
/// ```
/// use mnklab::io::{OutputError, check_replace};
/// let dir = tempfile::tempdir().unwrap();
/// let data = dir.path().join("fig.csv");
/// std::fs::write(&data, "x,y\n1,2\n").unwrap();
/// assert_eq!(check_replace(&data, b"x,y\n1,2\n", false), Ok(()));
/// assert!(matches!(check_replace(&data, b"x,y\n1,3\n", false), Err(OutputError::Exists { .. })));
/// assert_eq!(check_replace(&data, b"x,y\n1,3\n", true), Ok(()));
/// ```
pub fn check_replace(path: &Path, bytes: &[u8], force: bool) -> Result<(), OutputError> {
    let same = std::fs::read(path).is_ok_and(|old| old == bytes);
    check_output(path, force || same)
}

/// [`check_output`] for every path a command is about to write, before it writes any.
pub fn check_outputs<'a>(paths: impl IntoIterator<Item = &'a Path>, force: bool) -> Result<(), OutputError> {
    paths.into_iter().try_for_each(|p| check_output(p, force))
}

/// The folder a fresh run takes when `dir` holds an earlier run's results: the next free
/// `name-N` beside it (N from 2), counted on from `dir`'s own number when `dir` is itself
/// one of them (`run-2` is followed by `run-3`, not `run-2-2`); `dir` itself when it holds
/// no results. None when no name up to N = 9,999 is free.
///
/// ```
/// use mnklab::io::free_run_dir;
/// let root = tempfile::tempdir().unwrap();
/// let run = root.path().join("run");
/// assert_eq!(free_run_dir(&run), Some(run.clone()));
/// for dir in [root.path().join("run"), root.path().join("run-2")] {
///     std::fs::create_dir_all(&dir).unwrap();
///     std::fs::write(dir.join("results.ronl"), "").unwrap();
/// }
/// assert_eq!(free_run_dir(&run), Some(root.path().join("run-3")));
/// assert_eq!(free_run_dir(&root.path().join("run-2")), Some(root.path().join("run-3")));
/// ```
pub fn free_run_dir(dir: &Path) -> Option<PathBuf> {
    let holds = |d: &Path| d.join("results.ronl").exists();
    if !holds(dir) {
        return Some(dir.to_path_buf());
    }
    let name = dir.file_name()?.to_string_lossy().into_owned();
    // "run-2" numbers on from "run" when "run" is a run too; "run-2024" alone is a name.
    let numbered = name.rsplit_once('-').and_then(|(base, n)| {
        let n: u32 = n.parse().ok().filter(|n| *n >= 2)?;
        holds(&dir.with_file_name(base)).then(|| (base.to_string(), n))
    });
    let (base, from) = numbered.unwrap_or((name, 1));
    (from + 1..10_000).map(|n| dir.with_file_name(format!("{base}-{n}"))).find(|d| !holds(d))
}

/// The run file `path` is, if its folder is a run's (it holds results or a matchup).
fn run_file(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    let file = RUN_FILES.iter().find(|f| **f == name)?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    (dir.join("results.ronl").exists() || dir.join("matchup.ron").exists()).then_some(*file)
}
