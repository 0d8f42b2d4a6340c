//! What a file the user opens is: a position, a matchup, an agent, or a run folder. One Open
//! (the workbench's File field, a dropped file) takes any of them and hands it to its reader,
//! whose errors then speak of the right format.

use std::path::{Path, PathBuf};

use super::{FileError, read_text};

/// The kinds of file one Open takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    Position,
    Matchup,
    Agent,
    /// An accuracy experiment (it lists `suites`): run by `mnklab accuracy`.
    Accuracy,
    /// A ladder experiment (it lists a `ladder`): run by `mnklab ladder`.
    Ladder,
    /// A run's folder (holding `results.ronl`), also when its results file was named.
    Run(PathBuf),
}

/// The name of a run's results file (see [`crate::arena::results`]).
const RESULTS: &str = "results.ronl";

/// What `path` holds, by its place (a folder of results, a results file) or by the fields its
/// RON names: a matchup lists `variants` and a `pairing`, an agent file an `agent`, a position
/// a `variant`. A file of none of them reads as a position, whose reader names the problem.
pub fn file_kind(path: &Path) -> Result<FileKind, FileError> {
    if path.is_dir() {
        return Ok(FileKind::Run(path.to_path_buf()));
    }
    if path.file_name().is_some_and(|n| n == RESULTS) {
        return Ok(FileKind::Run(path.parent().map(Path::to_path_buf).unwrap_or_default()));
    }
    Ok(kind_of_text(&read_text(path)?))
}

/// [`file_kind`] of a RON text.
pub fn kind_of_text(text: &str) -> FileKind {
    let names = |field: &str| field_named(text, field);
    if names("suites") {
        FileKind::Accuracy
    } else if names("ladder") {
        FileKind::Ladder
    } else if names("variants") || names("pairing") {
        FileKind::Matchup
    } else if names("agent") && !names("variant") {
        FileKind::Agent
    } else {
        FileKind::Position
    }
}

/// Whether `text` has a field `name:` (outside strings and comments, as a whole word).
fn field_named(text: &str, name: &str) -> bool {
    let mut in_string = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => i += 1,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ if !in_string && text[i..].starts_with(name) => {
                let before = i.checked_sub(1).map(|j| bytes[j]);
                let word_start = before.is_none_or(|b| !(b.is_ascii_alphanumeric() || b == b'_'));
                let rest = text[i + name.len()..].trim_start();
                if word_start && rest.starts_with(':') {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped file is told apart by its kind: positions, matchups and agents.
    #[test]
    fn shipped_files_are_told_apart() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        for (folder, kind) in [
            ("saves/positions", FileKind::Position),
            ("saves/experiments", FileKind::Matchup),
            ("saves/agents", FileKind::Agent),
        ] {
            for e in std::fs::read_dir(root.join(folder)).unwrap().flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "ron") {
                    let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    let kind = match () {
                        _ if name.starts_with("accuracy") => FileKind::Accuracy,
                        _ if name.starts_with("ladder") => FileKind::Ladder,
                        _ => kind.clone(),
                    };
                    assert_eq!(file_kind(&p).unwrap(), kind, "{}", p.display());
                    seen += 1;
                }
            }
        }
        assert!(seen >= 10, "{seen} files");
    }

    #[test]
    fn a_field_is_a_whole_word_outside_strings_and_comments() {
        assert_eq!(kind_of_text(r#"(name: "variants: x", agent: Random)"#), FileKind::Agent);
        assert_eq!(kind_of_text("// variants: none\n(variant: \"tictactoe\")"), FileKind::Position);
        assert_eq!(kind_of_text("(name: \"m\", variants: List([]), agents: [])"), FileKind::Matchup);
        assert_eq!(kind_of_text("(subagent: 1)"), FileKind::Position);
        assert_eq!(kind_of_text("not ron at all"), FileKind::Position);
    }
}
