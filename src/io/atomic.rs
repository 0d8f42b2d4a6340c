//! Atomic file writes: a temporary file beside the target, flushed, then renamed over it.

use std::io::Write;
use std::path::Path;

use super::FileError;

/// Writes `contents` to `path` so that readers see either the old file or the new one,
/// never a partial write.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    let err = |source| FileError::Write { path: path.to_path_buf(), source };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(err)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "file".into());
    // Unique per call, so two threads writing the same file never share a temporary file.
    static SEQUENCE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SEQUENCE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err)
}
