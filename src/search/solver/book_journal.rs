//! A book build's journal: each deepest position's value appended as it is solved, so a build
//! that is stopped (a crash, a time limit on a cluster, the end of a day) resumes where it
//! was, and a build split into parts (`mnklab book --part I/N`, each part its own journal)
//! is put together by a last run that reads every part's journal.
//!
//! The format is text, a line each: the header `mnklab book journal 1 GAME depth D`, then
//! `KEY VALUE` lines, the key in hexadecimal (the book key, see [`super::book_key`]) and the
//! value in Pons' convention for the side to move. A last line without its newline is the
//! write a stop cut short: it is left out (and overwritten on resume), never read as a value.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::BookError;

const HEADER: &str = "mnklab book journal 1";

/// The values a journal holds, and whether its last line was cut short.
#[derive(Debug, Default)]
pub struct JournalContents {
    pub values: HashMap<u64, i8>,
    /// The line each key was first read from (1-based), to name it in a later refusal.
    pub lines: HashMap<u64, usize>,
    /// A last line without its newline was left out.
    pub torn_tail: bool,
}

/// An open journal that solved values are appended to.
pub struct Journal {
    path: PathBuf,
    file: File,
    /// When the file was last synced to disk (see [`Journal::append`]).
    synced: Instant,
}

/// How long after a sync the next append syncs again (see [`Journal::append`]).
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// Whether the file at `path` is a book build's journal (it starts with the journal's header):
/// `mnklab book` will not write a book over one.
pub fn is_journal(path: &Path) -> bool {
    file_starts_with(path, HEADER.as_bytes())
}

/// Whether the file at `path` can be read and starts with `prefix` (a journal's header, a
/// book's magic).
pub(super) fn file_starts_with(path: &Path, prefix: &[u8]) -> bool {
    use std::io::Read;
    let mut start = vec![0u8; prefix.len()];
    File::open(path).and_then(|mut f| f.read_exact(&mut start)).is_ok() && start == prefix
}

fn header(game: &str, depth: u32) -> String {
    format!("{HEADER} {game} depth {depth}")
}

/// Reads the journal at `path`, made for `game` to `depth`; a missing file holds nothing.
pub fn read_journal(path: &Path, game: &str, depth: u32) -> Result<JournalContents, BookError> {
    let name = path.display().to_string();
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(JournalContents::default()),
        Err(e) => return Err(BookError::Io { path: name, why: e.to_string() }),
    };
    let bad = |line: usize, why: String| BookError::Journal { path: name.clone(), why: format!("line {line}: {why}") };
    let text = String::from_utf8(text).map_err(|e| {
        // Not "line 0": the file as a whole is not one (most often the book itself).
        let book = e.as_bytes().starts_with(super::book::MAGIC);
        let why =
            if book { "a book, not its build's journal (OUT.journal)" } else { "not text, so not a book journal" };
        BookError::Journal { path: name.clone(), why: why.into() }
    })?;
    let mut out = JournalContents::default();
    // Everything after the last newline is a write the stop cut short.
    let complete = match text.rfind('\n') {
        Some(end) => {
            out.torn_tail = end + 1 < text.len();
            &text[..end + 1]
        }
        None => {
            // No whole line: only a header cut short is a stopped build's; anything else is a
            // file of another kind, never overwritten (a note with no final newline, named as
            // --journal by mistake, would otherwise be cut off and replaced by a journal).
            if text.as_bytes().starts_with(super::book::MAGIC) {
                return Err(BookError::Journal {
                    path: name,
                    why: "a book, not its build's journal (OUT.journal)".into(),
                });
            }
            if !header(game, depth).starts_with(text.as_str()) {
                return Err(bad(1, format!("not a book journal (it does not start with '{HEADER}')")));
            }
            out.torn_tail = !text.is_empty();
            ""
        }
    };
    let mut lines = complete.lines().enumerate();
    match lines.next() {
        None => return Ok(out),
        Some((_, first)) if !first.starts_with(HEADER) => {
            return Err(bad(1, format!("not a book journal (it does not start with '{HEADER}')")));
        }
        Some((_, first)) if first != header(game, depth) => {
            let found = first.trim_start_matches(HEADER).trim();
            return Err(bad(1, format!("the journal is for {found}, this build is {game} depth {depth}")));
        }
        Some(_) => {}
    }
    for (i, line) in lines {
        let mut words = line.split_whitespace();
        let (Some(key), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad(i + 1, format!("'{line}' is not 'KEY VALUE'")));
        };
        let key = u64::from_str_radix(key, 16).map_err(|_| bad(i + 1, format!("key '{key}' is not hexadecimal")))?;
        let value: i8 = value.parse().map_err(|_| bad(i + 1, format!("value '{value}' is not a small integer")))?;
        out.lines.entry(key).or_insert(i + 1);
        if let Some(old) = out.values.insert(key, value)
            && old != value
        {
            return Err(bad(i + 1, format!("key {key:x} has two values, {old} and {value}")));
        }
    }
    Ok(out)
}

impl Journal {
    /// Opens the journal at `path` for appending, writing its header if it is new; a torn
    /// last line (see the module documentation) is cut off first.
    pub fn open(path: &Path, game: &str, depth: u32, contents: &JournalContents) -> Result<Journal, BookError> {
        let name = path.display().to_string();
        let io = |e: std::io::Error| BookError::Io { path: name.clone(), why: e.to_string() };
        let fresh = !path.exists() || std::fs::metadata(path).map_err(io)?.len() == 0;
        if contents.torn_tail && !fresh {
            let bytes = std::fs::read(path).map_err(io)?;
            let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            OpenOptions::new().write(true).open(path).and_then(|f| f.set_len(keep as u64)).map_err(io)?;
        }
        let mut file = OpenOptions::new().create(true).append(true).open(path).map_err(io)?;
        if fresh || std::fs::metadata(path).map_err(io)?.len() == 0 {
            writeln!(file, "{}", header(game, depth)).map_err(io)?;
            file.sync_data().map_err(io)?;
        }
        Ok(Journal { path: path.to_path_buf(), file, synced: Instant::now() })
    }

    /// Appends one solved value. The line is in the file (the system's) when this returns, in
    /// one write: a stopped or killed build loses nothing. The file is synced to disk by the
    /// first append a second or more after the last sync, and at the end: the values not yet
    /// on disk were all appended within one second, so a crash of the machine loses at most
    /// one second's solving, which a resumed build does again. (A sync after every value cost
    /// about 4 ms each, a hundred times the solving of a small board's cheap positions.)
    pub fn append(&mut self, key: u64, value: i8) -> Result<(), BookError> {
        let line = format!("{key:x} {value}\n");
        self.file.write_all(line.as_bytes()).map_err(|e| self.io_error(e))?;
        if self.synced.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    /// Syncs what was appended to disk.
    pub fn sync(&mut self) -> Result<(), BookError> {
        self.file.sync_data().map_err(|e| self.io_error(e))?;
        self.synced = Instant::now();
        Ok(())
    }

    fn io_error(&self, e: std::io::Error) -> BookError {
        BookError::Io { path: self.path.display().to_string(), why: e.to_string() }
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        // An error here has no one to tell; the values are in the file either way.
        let _ = self.file.sync_data();
    }
}
