//! Atomic file writes: a temporary file beside the target, flushed, then renamed over it, and
//! the folder flushed so the rename itself survives a power cut.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::FileError;

/// Writes `contents` to `path` so that readers see either the old file or the new one,
/// never a partial write.
///
/// - A symlink is followed: its target is replaced, the link stays a link.
/// - An existing file keeps its permissions (a 600 file stays 600).
/// - Temporary files left by an earlier write that was killed are removed.
/// - The folder must exist: a mistyped one is an error, not a new folder.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    write_atomic_with(path, |w| w.write_all(contents))
}

/// [`write_atomic`] for contents too large to build in memory: `write` streams them into the
/// temporary file (through a buffer), which replaces `path` only if every write succeeded.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), FileError> {
    let err = |source| FileError::Write { path: path.to_path_buf(), source };
    let target = resolve_links(path).map_err(err)?;
    // Renaming over a device or a pipe (`--out /dev/null`) would replace it with a file.
    if std::fs::metadata(&target).is_ok_and(|m| !m.is_file()) {
        return Err(err(std::io::Error::other(
            "not a regular file (a device, pipe or folder): refusing to replace it",
        )));
    }
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    // A missing folder is most often a typo: say so rather than create it (runs create their
    // own output folder on purpose).
    if !dir.is_dir() {
        return Err(err(std::io::Error::other(format!("the folder {} does not exist", dir.display()))));
    }
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "file".into());
    remove_stale_temporaries(&dir, &name);
    // Unique per call, so two threads writing the same file never share a temporary file.
    static SEQUENCE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SEQUENCE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
    let permissions = std::fs::metadata(&target).ok().map(|m| m.permissions());
    let result = (|| {
        let mut buffered = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        write(&mut buffered)?;
        let f = buffered.into_inner().map_err(|e| e.into_error())?;
        if let Some(p) = permissions {
            f.set_permissions(p)?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, &target)?;
        sync_dir(&dir)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err)
}

/// The file a path finally names, following symlinks (also dangling ones, whose target is
/// created). Gives up after 40 links, like the kernel.
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Flushes a folder's entries (the rename) to disk. Not every platform can open a folder.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Removes `.NAME.PID.N.tmp` files of writes that were killed: their process is gone (on
/// Linux, no `/proc/PID`), or, where that cannot be told, they are over a day old.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let prefix = format!(".{name}.");
    let me = std::process::id().to_string();
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)).and_then(|r| r.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some((pid, seq)) = rest.split_once('.') else { continue };
        if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) || !seq.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if pid == me {
            continue; // another thread of this process may be writing it now
        }
        let proc = Path::new("/proc");
        let dead = if proc.join("self").exists() {
            !proc.join(pid).exists()
        } else {
            entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 86_400)
        };
        if dead {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
