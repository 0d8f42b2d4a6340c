//! `mnklab check-book`: is an opening book file right for its game? See
//! `mnklab::search::solver::check_book`.

use std::path::PathBuf;

use clap::Args;
use mnklab::search::solver::{Book, check_book};

use super::{parse_table_mb, plural};

#[derive(Args)]
pub struct CheckBookArgs {
    /// The book file (made by `mnklab book`, or the built-in assets/books/connect4.book).
    book: PathBuf,
    /// How many of the deepest positions to solve again (0: none), chosen at random.
    #[arg(long, default_value_t = 20)]
    sample: usize,
    /// The seed of the sample's choice (printed with the result).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The solver's table in MiB, kept across the sample.
    #[arg(long, value_parser = parse_table_mb, default_value = "16")]
    tt_mb: u32,
}

pub fn run(args: CheckBookArgs) -> Result<(), String> {
    let book = Book::load(&args.book).map_err(|e| e.to_string())?;
    let path = args.book.display();
    println!(
        "{path}: {}, depth {}, {}: checksum and keys sound",
        book.game,
        book.depth,
        plural(book.len(), "position")
    );
    let c = check_book(&book, args.sample, args.seed, args.tt_mb as usize).map_err(|e| e.to_string())?;
    let listed = |items: &[String]| items.join(", ");
    if c.missing_count == 0 && c.extra == 0 {
        println!(
            "holds every position of at most {} (one of each mirror pair), and nothing else",
            plural(book.depth as usize, "stone")
        );
    } else {
        if c.missing_count > 0 {
            println!(
                "MISSING {} of the {} positions of at most {} ({}{})",
                c.missing_count,
                c.positions,
                plural(book.depth as usize, "stone"),
                first_of(c.missing_count, c.missing.len()),
                listed(&c.missing)
            );
        }
        if c.extra > 0 {
            println!("EXTRA {}: keys of no position reached within the depth", plural(c.extra, "entry"));
        }
    }
    let unchecked = if c.unchecked > 0 {
        format!("; {} not checkable (a move's position missing)", plural(c.unchecked, "position"))
    } else {
        String::new()
    };
    if c.contradiction_count == 0 {
        println!(
            "each of the {} above depth {} checked has the best of its moves' values{unchecked}",
            plural(c.shallower, "position"),
            book.depth
        );
    } else {
        let first: Vec<String> = c
            .contradictions
            .iter()
            .map(|x| format!("{} gives {} where its moves' best is {}", show(&x.moves), x.book, x.best_of_moves))
            .collect();
        println!(
            "CONTRADICTS ITSELF at {} of the {} above depth {} checked ({}{}){unchecked}",
            c.contradiction_count,
            c.shallower,
            book.depth,
            first_of(c.contradiction_count, first.len()),
            first.join("; ")
        );
    }
    let wrong: Vec<String> = c
        .wrong_samples()
        .map(|s| format!("{} gives {} where a solve gives {}", show(&s.moves), s.book, s.solved))
        .collect();
    let sample = format!(
        "{} of the {} at depth {} solved again (seed {}, {} nodes)",
        c.sampled.len(),
        c.deepest,
        book.depth,
        args.seed,
        c.nodes
    );
    if c.sampled.is_empty() {
        // Nothing solved: nothing to call right ("0 of the 0 ...: every value the book's").
        let why = if c.deepest == 0 { "none held at that depth" } else { "--sample 0" };
        println!("none of the {} at depth {} solved again ({why})", c.deepest, book.depth);
    } else if wrong.is_empty() {
        println!("{sample}: every value the book's");
    } else {
        println!("{sample}: WRONG at {} ({})", wrong.len(), wrong.join("; "));
    }
    println!("checked in {:.1} s", c.seconds);
    if c.is_sound() {
        // What the check cannot see: a deepest value that is wrong, not sampled, and not the
        // best move of the positions above it (so no contradiction shows it).
        println!(
            "sound as far as checked: a wrong deepest value outside the sample shows only where it changes \
             the best of a shallower position's moves"
        );
        Ok(())
    } else {
        Err(format!("{path}: the book is wrong (above); do not use it"))
    }
}

/// "first 5: " before a list cut short, nothing before a whole one.
fn first_of(count: usize, listed: usize) -> String {
    if count > listed { format!("first {listed}: ") } else { String::new() }
}

/// The moves of a position, or "the empty board".
fn show(moves: &str) -> String {
    if moves.is_empty() { "the empty board".into() } else { format!("'{moves}'") }
}
