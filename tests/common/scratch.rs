//! Scratch folders for tests that write files: each under the system's temporary folder with a
//! name of its own, and removed with everything in it when the test that made it ends, so
//! running the suite leaves nothing behind. A failed test's folder is kept (its path is
//! printed) to look at what it wrote.

use std::path::Path;

pub struct Scratch(Option<tempfile::TempDir>);

impl Scratch {
    /// A new empty folder, named `mnklab-{tag}-...`.
    pub fn new(tag: &str) -> Scratch {
        let dir = tempfile::Builder::new().prefix(&format!("mnklab-{tag}-")).tempdir().expect("a scratch folder");
        Scratch(Some(dir))
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.as_ref().expect("until dropped").path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking()
            && let Some(dir) = self.0.take()
        {
            eprintln!("kept the failed test's files: {}", dir.keep().display());
        }
    }
}
