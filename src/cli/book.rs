//! `mnklab book`: an opening book of strong values, made by mnklab's own solver.

use std::path::PathBuf;

use clap::Args;
use mnklab::game::Variant;
use mnklab::search::solver::build_book;

use super::{parse_table_mb, parse_variant, solve::mib};

#[derive(Args)]
pub struct BookArgs {
    /// The game: a gravity board of at most 64 bits (width x (height + 1)), e.g. connect4.
    #[arg(long, value_parser = parse_variant)]
    game: Variant,
    /// Every position with at most this many stones goes in the book.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// Where to write the book (written to a temporary file, then renamed).
    #[arg(long)]
    out: PathBuf,
    /// The solver's table in MiB, kept across the book's positions.
    #[arg(long, value_parser = parse_table_mb, default_value = "16")]
    tt_mb: u32,
    /// Solve each position on this many threads sharing the table (see `solve --threads`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
}

pub fn run(args: BookArgs) -> Result<(), String> {
    let rules = args.game.grid().ok_or_else(|| format!("{}: books are made for gravity boards", args.game))?;
    // Where the book goes is checked before the build, not after hours of it.
    if args.out.is_dir() {
        return Err(format!("--out {}: is a folder; give a file name", args.out.display()));
    }
    let parent = args.out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if !parent.is_dir() {
        return Err(format!("--out {}: the folder {} does not exist", args.out.display(), parent.display()));
    }
    let probe = args.out.with_extension("book.tmp");
    std::fs::write(&probe, b"").map_err(|e| format!("--out {}: cannot write there: {e}", args.out.display()))?;
    let _ = std::fs::remove_file(&probe);
    let cells = rules.cells() as u32;
    if args.depth > cells {
        return Err(format!("--depth {}: {} has {cells} cells, so no position has more stones", args.depth, args.game));
    }
    let start = std::time::Instant::now();
    let mut last = 0.0;
    let every = |done: usize, total: usize| {
        let t = start.elapsed().as_secs_f64();
        if t - last >= 5.0 || done == total {
            last = t;
            eprintln!("{done}/{total} positions done, {t:.0} s");
        }
    };
    let (book, stats) =
        build_book(&rules, args.depth, args.tt_mb as usize, args.threads as usize, every).map_err(|e| e.to_string())?;
    book.save(&args.out).map_err(|e| e.to_string())?;
    println!(
        "book {} for {} to depth {}: {} ({} bytes; {} solved, the rest the best of their moves), {} solver nodes, {:.1} s, table {}",
        args.out.display(),
        book.game,
        book.depth,
        plural(book.len(), "position"),
        std::fs::metadata(&args.out).map(|m| m.len()).unwrap_or(0),
        stats.solved,
        stats.nodes,
        stats.seconds,
        mib(args.tt_mb as u64 * 1024 * 1024)
    );
    if args.threads > 1 {
        println!("threads {} (the solver nodes are all of theirs)", args.threads);
    }
    Ok(())
}

/// "1 position", "30 positions".
fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}
