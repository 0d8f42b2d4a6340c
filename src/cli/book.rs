//! `mnklab book`: an opening book of strong values, made by mnklab's own solver.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use clap::Args;
use mnklab::game::Variant;
use mnklab::search::solver::{BookBuild, ConnectSolver, Journal, JournalContents, build_book_with, read_journal};

use super::{parse_table_mb, parse_variant, plural, solve::mib};

#[derive(Args)]
pub struct BookArgs {
    /// The game: a gravity board with (width + 2) x (height + 1) < 64, e.g. connect4 (7 x 6) or
    /// connect:6,5,4; Connect-4 and smaller.
    #[arg(long, value_parser = parse_variant)]
    game: Variant,
    /// Every position with at most this many stones goes in the book.
    #[arg(long, value_parser = parse_book_depth)]
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
    /// The build's journal: each searched position's value is appended as it finishes, and a
    /// stopped build started again skips what it holds. Given more than once, every journal is
    /// read (the parts of a split build) and new values go to the first. Default: OUT.journal.
    #[arg(long)]
    journal: Vec<PathBuf>,
    /// Search only part I of N (e.g. 2/4) of the positions with DEPTH stones, writing their
    /// values to the journal and no book; a last run without --part, given every part's
    /// journal, makes the book.
    #[arg(long, value_parser = parse_part)]
    part: Option<(usize, usize)>,
}

fn parse_part(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{s}': give the part as I/N, e.g. 1/4, with 1 <= I <= N");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

pub fn run(args: BookArgs) -> Result<(), String> {
    let rules = args.game.grid().ok_or_else(|| format!("{}: books are made for gravity boards", args.game))?;
    // Where the book goes is checked before the build, not after hours of it.
    check_out_folder(&args.out)?;
    let cells = rules.cells() as u32;
    if args.depth > cells {
        return Err(format!("--depth {}: {} has {cells} cells, so no position has more stones", args.depth, args.game));
    }
    let game = args.game.to_string();
    if !ConnectSolver::fits(&rules) {
        return Err(mnklab::search::solver::BookError::Unsupported(game).to_string());
    }
    if args.depth == 0 {
        // It would be the empty board alone: a whole solve, with nothing to look up after it.
        return Err(format!(
            "--depth 0: a book holds the positions up to its depth, and depth 0 is only the empty board; \
             give 1 or more (`mnklab solve --game {}` gives the empty board's value)",
            args.game
        ));
    }
    let journals = journal_paths(&args)?;
    let Known { values: known, from: known_from, first } = read_journals(&args, &journals, &game)?;
    let mut journal = Journal::open(&journals[0], &game, args.depth, &first).map_err(|e| format!("--journal: {e}"))?;
    if !known.is_empty() {
        eprintln!("{} position(s) already solved in the journal(s)", known.len());
    }
    // Listing the positions comes first and takes seconds on deep books (depth 12: about 7 s).
    eprintln!(
        "listing every position of {} with up to {} (one per mirror pair)",
        args.game,
        plural(args.depth as usize, "stone")
    );
    let build =
        BookBuild { table_mb: args.tt_mb as usize, threads: args.threads as usize, known, part: args.part, known_from };
    let (book, stats) = build_book_with(&rules, args.depth, build, |k, v| journal.append(k, v), progress(args.depth))
        .map_err(|e| e.to_string())?;
    // Every value on disk before the run says it is done (appends sync once a second).
    journal.sync().map_err(|e| format!("--journal: {e}"))?;
    let searched = format!(
        "{} searched ({} solver nodes, {:.1} s), {} from the journal",
        stats.solved, stats.nodes, stats.seconds, stats.from_journal
    );
    let Some(book) = book else {
        let (i, n) = args.part.expect("only a part makes no book");
        println!(
            "part {i}/{n} of {} to depth {}: {searched}; values in {}. Make the book with a run without --part \
             given every part's journal (--journal FILE, once each)",
            game,
            args.depth,
            journals[0].display()
        );
        return Ok(());
    };
    book.save(&args.out).map_err(|e| e.to_string())?;
    println!(
        "book {} for {} to depth {}: {} ({} bytes; positions with {} stones: {searched}; the rest the best of their moves), table {}",
        args.out.display(),
        book.game,
        book.depth,
        plural(book.len(), "position"),
        std::fs::metadata(&args.out).map(|m| m.len()).unwrap_or(0),
        args.depth,
        mib(args.tt_mb as u64 * 1024 * 1024)
    );
    if args.threads > 1 {
        println!("threads {} (the solver nodes are all of theirs)", args.threads);
    }
    let kept: Vec<String> = journals.iter().map(|j| j.display().to_string()).collect();
    let (noun, them) = if kept.len() == 1 { ("journal", "it") } else { ("journals", "them") };
    println!("{noun} {} kept: a run with {them} searches nothing again; delete {them} to search anew", kept.join(", "));
    Ok(())
}

/// `--out` names a file in a folder that exists and can be written to.
fn check_out_folder(out: &Path) -> Result<(), String> {
    if out.is_dir() {
        return Err(format!("--out {}: is a folder; give a file name", out.display()));
    }
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(format!("--out {}: the folder {} does not exist", out.display(), parent.display()));
    }
    let probe = out.with_extension("book.tmp");
    std::fs::write(&probe, b"").map_err(|e| format!("--out {}: cannot write there: {e}", out.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// The build's journals (OUT.journal by default), each once, none of them `--out`; and `--out`
/// no journal and no file but a book (a typo in --out must not replace a text file without a
/// word, nor the build's hours of solving).
fn journal_paths(args: &BookArgs) -> Result<Vec<PathBuf>, String> {
    let journals = if args.journal.is_empty() {
        let mut name = args.out.clone().into_os_string();
        name.push(".journal");
        vec![PathBuf::from(name)]
    } else {
        args.journal.clone()
    };
    // Each journal once: the same file twice would be read twice and named twice in the report.
    let same_file = |p: &PathBuf| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
    for (i, path) in journals.iter().enumerate() {
        if journals[..i].iter().any(|q| same_file(q) == same_file(path)) {
            return Err(format!("--journal {}: given twice; name each part's journal once", path.display()));
        }
    }
    let out = args.out.display();
    if journals.contains(&args.out) {
        return Err(format!("--out {out}: the same file as the build's journal; name another file for the book"));
    }
    if mnklab::search::solver::is_journal(&args.out) {
        return Err(format!(
            "--out {out}: that is a book build's journal, not overwritten; name another file for the book"
        ));
    }
    if args.out.is_file() && !mnklab::search::solver::Book::is_book_file(&args.out) {
        return Err(format!(
            "--out {out}: the file exists and is not an mnklab book, so it is not overwritten; name another file or remove it"
        ));
    }
    Ok(journals)
}

/// What the journals already hold: every value, where each was read, and the first
/// journal's contents (the one new values are appended to).
struct Known {
    values: HashMap<u64, i8>,
    from: HashMap<u64, (String, usize)>,
    first: JournalContents,
}

/// Reads every journal, refusing by name a key that two journals give two values.
fn read_journals(args: &BookArgs, journals: &[PathBuf], game: &str) -> Result<Known, String> {
    let mut values: HashMap<u64, i8> = HashMap::new();
    let mut from: HashMap<u64, (String, usize)> = HashMap::new();
    let mut first = None;
    for path in journals {
        let contents = read_journal(path, game, args.depth).map_err(|e| {
            let named = if args.journal.is_empty() { "the build's journal (OUT.journal)" } else { "--journal" };
            format!(
                "{named}: {e}; give another --journal, or move that file away to start this build afresh \
                 (its values are kept in it)"
            )
        })?;
        for (&k, &v) in &contents.values {
            if let Some(&line) = contents.lines.get(&k) {
                from.entry(k).or_insert_with(|| (path.display().to_string(), line));
            }
            if let Some(old) = values.insert(k, v)
                && old != v
            {
                return Err(format!("--journal {}: key {k:x} has value {v}, another journal {old}", path.display()));
            }
        }
        if first.is_none() {
            if contents.torn_tail {
                eprintln!("{}: its last line was cut short (a stopped build) and is left out", path.display());
            }
            first = Some(contents);
        }
    }
    let first = first.expect("a build has at least one journal");
    Ok(Known { values, from, first })
}

/// The build's progress on stderr: what is to be searched, then a line at most every 5 s.
fn progress(depth: u32) -> impl FnMut(usize, usize) {
    let start = std::time::Instant::now();
    let mut last = 0.0;
    move |done: usize, total: usize| {
        let t = start.elapsed().as_secs_f64();
        if done == 0 {
            // Before the first proof: each is a whole solve from a position with `depth`
            // stones (minutes each near Connect-4's empty board), and nothing prints until one ends.
            eprintln!(
                "{} with {} to search (one per mirror pair), a proof each; a progress line as they \
                 finish, at most every 5 s (none until the first proof ends)",
                plural(total, "position"),
                plural(depth as usize, "stone")
            );
        } else if t - last >= 5.0 || done == total {
            last = t;
            // The rest at the pace so far: positions differ, so a guess, but the order of a
            // build that runs for hours is worth knowing.
            let left = if done < total {
                format!("; about {} left at this pace", about(t / done as f64 * (total - done) as f64))
            } else {
                String::new()
            };
            eprintln!("{done}/{total} positions searched, {t:.0} s{left}");
        }
    }
}

/// `--depth`: 1 to 20 (0 is refused after parsing, with the game's own advice).
fn parse_book_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(d) if d <= 20 => Ok(d),
        Ok(d) => Err(format!("{d} stones: a book goes to 1 to 20 stones")),
        Err(_) => Err(format!("'{text}' is not a count of stones (1 to 20)")),
    }
}

/// A duration in words to the nearest unit that matters: "40 s", "12 min", "3 h 20 min".
fn about(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    let m = (s + 30) / 60;
    match (s, m) {
        (0..60, _) => format!("{s} s"),
        (_, 0..60) => format!("{m} min"),
        _ => format!("{} h {} min", m / 60, m % 60),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations_in_words() {
        assert_eq!(super::about(0.4), "0 s");
        assert_eq!(super::about(59.4), "59 s");
        assert_eq!(super::about(89.0), "1 min");
        assert_eq!(super::about(90.0), "2 min");
        assert_eq!(super::about(3599.0), "1 h 0 min");
        assert_eq!(super::about(3.0 * 3600.0 + 20.0 * 60.0), "3 h 20 min");
    }
}
