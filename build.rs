//! Records the git commit the binary is built from (`MNKLAB_COMMIT`), so that `--version`,
//! every run folder and every CSV say which code made them. "-dirty" marks a build with
//! uncommitted changes to the code or the presets; "unknown" a build outside a git checkout.

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    // What decides how the program plays; docs, results and tests do not mark a build dirty.
    const CODE: [&str; 5] = ["src", "build.rs", "Cargo.toml", "Cargo.lock", "saves/agents"];
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(c) if !c.is_empty() => {
            // --no-optional-locks: `git status` would otherwise refresh the index, and a
            // rewritten index must not look like a change that needs this script again.
            let mut status = vec!["--no-optional-locks", "status", "--porcelain", "--untracked-files=no", "--"];
            status.extend(CODE);
            match git(&status) {
                Some(s) if s.is_empty() => c,
                _ => format!("{c}-dirty"),
            }
        }
        _ => "unknown".to_string(),
    };
    println!("cargo:rustc-env=MNKLAB_COMMIT={commit}");
    for path in CODE {
        println!("cargo:rerun-if-changed={path}");
    }
    // A new commit moves the branch's ref (or packed-refs) and HEAD. The index is not
    // watched: any git command may rewrite it, and a rebuild of the library each time costs
    // minutes; a change to the code itself is seen through CODE above.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let dir = PathBuf::from(dir);
        let mut watched = vec![dir.join("HEAD"), dir.join("packed-refs")];
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(dir.join(head));
        }
        // A path that does not exist would make cargo run this script on every build.
        for p in watched.into_iter().filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
}
