//! Files: RON formats, versioned, read with errors that name the file and the problem, and
//! written atomically so a crash never leaves half a file.

mod atomic;
mod kind;
mod output;
mod position_file;

pub use atomic::{write_atomic, write_atomic_with};
pub use kind::{FileKind, file_kind, kind_of_text};
pub use output::{OutputError, RUN_FILES, check_output, check_outputs, check_replace, free_run_dir};
pub use position_file::{POSITION_VERSION, PositionFile, load_position, load_position_record, save_position};

use std::path::PathBuf;

use thiserror::Error;

use crate::game::GameError;

/// Why a file could not be used. Its message names the file ("cannot read a.ron: ...",
/// "a.ron: not a valid ..."); [`FileError::cause`] is the same without the path, for a line
/// that shows the path elsewhere.
#[derive(Debug, Error)]
pub enum FileError {
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    Parse {
        path: PathBuf,
        what: &'static str,
        message: String,
    },
    Version {
        path: PathBuf,
        what: &'static str,
        found: u32,
        supported: u32,
    },
    Game {
        path: PathBuf,
        #[source]
        source: GameError,
    },
    /// The game record (moves and variations) is malformed or does not hold the position.
    Record {
        path: PathBuf,
        message: String,
    },
}

impl FileError {
    pub fn path(&self) -> &std::path::Path {
        match self {
            FileError::Read { path, .. }
            | FileError::Write { path, .. }
            | FileError::Parse { path, .. }
            | FileError::Version { path, .. }
            | FileError::Game { path, .. }
            | FileError::Record { path, .. } => path,
        }
    }

    /// What failed ("cannot read") where the message puts it before the path, and what is wrong.
    fn parts(&self) -> (Option<&'static str>, String) {
        match self {
            FileError::Read { source, .. } => (Some("cannot read"), source.to_string()),
            FileError::Write { source, .. } => (Some("cannot write"), source.to_string()),
            FileError::Parse { what, message, .. } => (None, format!("not a valid {what} file: {message}")),
            FileError::Version { what, found, supported, .. } => {
                (None, format!("{what} file version {found} is newer than this mnklab reads (up to {supported})"))
            }
            FileError::Game { source, .. } => (None, source.to_string()),
            FileError::Record { message, .. } => (None, message.clone()),
        }
    }

    /// The message without the path: "cannot read: No such file or directory", "not a valid
    /// agent file: ...".
    pub fn cause(&self) -> String {
        match self.parts() {
            (Some(failed), why) => format!("{failed}: {why}"),
            (None, why) => why,
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path().display();
        match self.parts() {
            (Some(failed), why) => write!(f, "{failed} {path}: {why}"),
            (None, why) => write!(f, "{path}: {why}"),
        }
    }
}

/// Parses RON text into `T`, with the line and column of the first problem in the message.
/// Every file type refuses fields it does not know (a typo such as `itertions` would
/// otherwise be dropped in silence and its limit with it): the message names the field, the
/// ones it could be, and the nearest of them.
pub fn parse_ron<T: serde::de::DeserializeOwned>(
    text: &str,
    path: &std::path::Path,
    what: &'static str,
) -> Result<T, FileError> {
    ron::from_str(text).map_err(|e| FileError::Parse { path: path.to_path_buf(), what, message: ron_message(&e) })
}

/// A RON error in words, with "did you mean" for an unknown field or variant close to a
/// known one.
///
/// ```
/// #[derive(serde::Deserialize, Debug)]
/// #[serde(deny_unknown_fields)]
/// struct Limits { iterations: Option<u64> }
/// let e = ron::from_str::<Limits>("(itertions: Some(5))").unwrap_err();
/// let m = mnklab::io::ron_message(&e);
/// assert!(m.contains("`itertions`") && m.contains("did you mean `iterations`?"), "{m}");
/// ```
pub fn ron_message(e: &ron::error::SpannedError) -> String {
    use ron::error::Error;
    let (expected, found) = match &e.code {
        Error::NoSuchStructField { expected, found, .. } | Error::NoSuchEnumVariant { expected, found, .. } => {
            (*expected, found.as_str())
        }
        _ => return e.to_string(),
    };
    match nearest(found, expected) {
        Some(near) => format!("{e} (did you mean `{near}`?)"),
        None => e.to_string(),
    }
}

/// The known name nearest to `found`, if it is near enough to be a typo of it.
fn nearest<'a>(found: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(found, k), *k))
        .filter(|&(d, k)| d <= 2.max(k.len() / 4))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// Refuses a file written by a newer mnklab than this one.
pub fn check_version(path: &std::path::Path, what: &'static str, found: u32, supported: u32) -> Result<(), FileError> {
    if found > supported {
        Err(FileError::Version { path: path.to_path_buf(), what, found, supported })
    } else {
        Ok(())
    }
}

/// Today's date in UTC as YYYY-MM-DD, for the provenance a file records (days to a civil
/// date by Howard Hinnant's algorithm: no time-zone crate needed for a date in UTC).
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Pretty RON for files people read and edit.
pub fn to_ron<T: serde::Serialize>(value: &T) -> String {
    let config = ron::ser::PrettyConfig::default().struct_names(false);
    ron::ser::to_string_pretty(value, config).expect("RON serialisation of plain data cannot fail")
}

/// The largest position, agent or matchup file read (they are a few KiB; a bigger one is a
/// wrong path, not a config).
pub const MAX_CONFIG_BYTES: u64 = 16 << 20;

/// Reads a config file: a regular file (not a device like /dev/zero or a pipe that never
/// ends) of at most [`MAX_CONFIG_BYTES`], as UTF-8.
pub fn read_text(path: &std::path::Path) -> Result<String, FileError> {
    read_bounded(path, MAX_CONFIG_BYTES)
}

/// Opens a regular file for reading (a device or a pipe is a named error, never a hang).
pub fn open_regular(path: &std::path::Path) -> Result<(std::fs::File, std::fs::Metadata), FileError> {
    let err = |source| FileError::Read { path: path.to_path_buf(), source };
    // Checked before opening: opening a FIFO blocks until something writes to it.
    if !std::fs::metadata(path).map_err(err)?.is_file() {
        return Err(err(std::io::Error::other("not a regular file")));
    }
    let file = std::fs::File::open(path).map_err(err)?;
    let meta = file.metadata().map_err(err)?;
    if !meta.is_file() {
        return Err(err(std::io::Error::other("not a regular file")));
    }
    Ok((file, meta))
}

/// Reads a regular file of at most `max` bytes as UTF-8; anything else is a named error.
pub fn read_bounded(path: &std::path::Path, max: u64) -> Result<String, FileError> {
    use std::io::Read;
    let err = |source| FileError::Read { path: path.to_path_buf(), source };
    let (file, meta) = open_regular(path)?;
    if meta.len() > max {
        return Err(err(std::io::Error::other(format!("{} bytes is more than the {max} this reads", meta.len()))));
    }
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes).map_err(err)?;
    if bytes.len() as u64 > max {
        return Err(err(std::io::Error::other(format!("the file grew past the {max} bytes this reads"))));
    }
    String::from_utf8(bytes).map_err(|e| {
        // A binary file opened where text is expected: an opening book (its magic, see
        // `search::solver::book`) is named, as it is the one binary file mnklab writes.
        let why = if e.as_bytes().starts_with(b"MNKBOOK") {
            "this is an opening book (made by `mnklab book`), not a text file: a solver agent's book file \
             (Options, 'book file') or `solve --book` takes it"
        } else {
            "not a text file (not UTF-8): not one mnklab wrote"
        };
        err(std::io::Error::other(why))
    })
}

#[cfg(test)]
mod tests {
    use super::FileError;
    use std::path::PathBuf;

    /// A message names the file; its cause is the same words without the path.
    #[test]
    fn a_file_error_says_its_cause_with_and_without_the_path() {
        let path = PathBuf::from("b.ron");
        let gone = || std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let read = FileError::Read { path: path.clone(), source: gone() };
        assert_eq!((read.to_string(), read.cause()), ("cannot read b.ron: gone".into(), "cannot read: gone".into()));
        let write = FileError::Write { path: path.clone(), source: gone() };
        assert_eq!(write.cause(), "cannot write: gone");
        let parse = FileError::Parse { path: path.clone(), what: "agent", message: "1:2: no".into() };
        assert_eq!(parse.to_string(), "b.ron: not a valid agent file: 1:2: no");
        assert_eq!(parse.cause(), "not a valid agent file: 1:2: no");
        let version = FileError::Version { path: path.clone(), what: "agent", found: 9, supported: 1 };
        assert_eq!(version.to_string(), format!("b.ron: {}", version.cause()));
        let record = FileError::Record { path, message: "no such move".into() };
        assert_eq!(
            (record.to_string(), record.path()),
            ("b.ron: no such move".into(), PathBuf::from("b.ron").as_path())
        );
    }
}
