//! Opening books for gravity boards: the strong value of every position up to a depth, made by
//! mnklab's own solver (`mnklab book`), so positions near the start answer at once.
//!
//! File format (all integers little-endian), version 1:
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `MNKBOOK\0` |
//! | 4 | format version (1) |
//! | 2 + n | the game as `mnklab` spells it (`connect:7,6,4`), its length first |
//! | 4 | depth: every position with at most this many stones is in the book |
//! | 8 | number of entries |
//! | 9 per entry | key (u64) and value (i8), sorted by key |
//! | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! A key is the position's bitboards (`stones of the side to move + all stones`, a column of
//! height + 1 bits per column from the left, the bottom cell lowest), the smaller of the
//! position's and its mirror image's. A value follows Pons' convention for the side to move
//! (see the solver module). Finished positions are not stored.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use super::ConnectSolver;
pub use super::book_journal::{Journal, JournalContents, is_journal, read_journal};
use crate::game::{Grid, GridRules, Move, Position, Variant};

pub(super) const MAGIC: &[u8; 8] = b"MNKBOOK\0";
/// The format version this build reads and writes.
pub const BOOK_VERSION: u32 = 1;

/// Why a book cannot be used. A message names the file ("b.book: the book is damaged ...");
/// [`BookError::cause`] is the same without the path.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum BookError {
    NotABook(String),
    Version {
        path: String,
        found: u32,
    },
    Checksum(String),
    /// The file and what its sizes say.
    Truncated(String, String),
    Invalid {
        path: String,
        why: String,
    },
    Journal {
        path: String,
        why: String,
    },
    Part {
        part: usize,
        parts: usize,
    },
    OtherGame {
        path: String,
        book: String,
        game: String,
    },
    /// The file could not be read (`why`: the system's message).
    Io {
        path: String,
        why: String,
    },
    /// The book could not be written (`why`: the system's message).
    Write {
        path: String,
        why: String,
    },
    /// The game books are not made for.
    Unsupported(String),
}

impl BookError {
    /// What failed ("cannot write") where the message puts it before the path, the file, and
    /// what is wrong.
    fn parts(&self) -> (Option<&'static str>, Option<&str>, String) {
        match self {
            BookError::NotABook(path) => {
                (None, Some(path), "not an mnklab book (the file does not start with MNKBOOK)".into())
            }
            BookError::Version { path, found } => {
                (None, Some(path), format!("book format version {found}; this mnklab reads version {BOOK_VERSION}"))
            }
            BookError::Checksum(path) => {
                (None, Some(path), "the book is damaged (its checksum does not match its contents)".into())
            }
            BookError::Truncated(path, sizes) => {
                (None, Some(path), format!("the book ends early or its sizes disagree ({sizes})"))
            }
            BookError::Invalid { path, why } => (None, Some(path), format!("not a valid book: {why}")),
            BookError::Journal { path, why } => (None, Some(path), format!("not a usable book journal: {why}")),
            BookError::Part { part, parts } => {
                (None, None, format!("--part {part}/{parts}: parts count from 1 to the number of parts"))
            }
            BookError::OtherGame { path, book, game } => {
                (None, Some(path), format!("the book is for {book}, the position is {game}"))
            }
            BookError::Io { path, why } => (None, Some(path), why.clone()),
            BookError::Write { path, why } => (Some("cannot write"), Some(path), why.clone()),
            BookError::Unsupported(game) => (
                None,
                None,
                format!(
                    "books are made for gravity boards with (width + 2) x (height + 1) < 64 (Connect-4 and smaller): {game}"
                ),
            ),
        }
    }

    /// The message without the file's path, for a line that shows the path elsewhere.
    pub fn cause(&self) -> String {
        match self.parts() {
            (Some(failed), _, why) => format!("{failed}: {why}"),
            (None, _, why) => why,
        }
    }
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.parts() {
            (Some(failed), Some(path), why) => write!(f, "{failed} {path}: {why}"),
            (None, Some(path), why) => write!(f, "{path}: {why}"),
            (_, None, why) => f.write_str(&why),
        }
    }
}

/// A loaded book: sorted keys and their values.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    pub game: String,
    pub depth: u32,
    keys: Vec<u64>,
    values: Vec<i8>,
    /// Whether its bytes are those of a book built into this program (see [`Book::is_shipped`]).
    shipped: bool,
}

/// The games mnklab ships a book for (made by `mnklab book`, kept as `assets/books/GAME.book`).
/// The solver agent uses the one for its game unless its config names a book file or turns
/// `builtin_book` off.
pub const BUILT_IN_BOOKS: &[&str] = &["connect4"];

/// The built-in books' bytes as a program links them in (see [`link_books`]).
pub type LinkedBooks = &'static [(&'static str, &'static [u8])];

static LINKED: OnceLock<LinkedBooks> = OnceLock::new();

/// Hands the library the built-in books' bytes that a program links in: the `mnklab` binary
/// does so first thing, so that it needs no file beside it. Without this (the tests, another
/// program on the library) the books are read from the source tree's `assets/books/` the
/// first time one is asked for, so only the program that uses them carries their 10 MB.
pub fn link_books(books: LinkedBooks) {
    let _ = LINKED.set(books);
}

/// A built-in book's game and bytes.
type BookBytes = (&'static str, Cow<'static, [u8]>);

/// Each built-in book's game and bytes, read once: those linked in, else the files.
fn built_in_bytes() -> &'static [BookBytes] {
    static BYTES: OnceLock<Vec<BookBytes>> = OnceLock::new();
    BYTES.get_or_init(|| {
        BUILT_IN_BOOKS
            .iter()
            .filter_map(|&name| match LINKED.get() {
                Some(linked) => linked.iter().find(|(n, _)| *n == name).map(|&(_, b)| (name, Cow::Borrowed(b))),
                None => {
                    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/books").join(format!("{name}.book"));
                    std::fs::read(path).ok().map(|b| (name, Cow::Owned(b)))
                }
            })
            .collect()
    })
}

/// The built-in book for `variant`, if mnklab ships one (read once, then shared).
pub fn builtin_book(variant: &Variant) -> Option<Arc<Book>> {
    static LOADED: OnceLock<Vec<Arc<Book>>> = OnceLock::new();
    let loaded = LOADED.get_or_init(|| {
        built_in_bytes()
            .iter()
            .map(|(name, bytes)| {
                let book = Book::from_bytes(bytes, &format!("the built-in {name} book"))
                    .expect("a built-in book is checked by the tests");
                Arc::new(Book { shipped: true, ..book })
            })
            .collect()
    });
    let game = variant.to_string();
    loaded.iter().find(|b| b.game == game).cloned()
}

/// What the built-in books hold, in words, for the workbench's hint: "the book mnklab ships
/// for the game: connect4, every position of at most 4 stones".
pub fn builtin_books_described() -> String {
    let books: Vec<String> = BUILT_IN_BOOKS
        .iter()
        .filter_map(|name| {
            let book = builtin_book(&name.parse().ok()?)?;
            Some(format!("{name}, every position of at most {} stones", book.depth))
        })
        .collect();
    format!("the book mnklab ships for the game: {}", books.join("; "))
}

/// Whether `key` is what [`book_key`] makes of some position of a `w` x `h` board with at
/// most `depth` stones: each column `h + 1` bits, its `n` stones as `2^n - 1` plus the side to
/// move's among them (so at most `h` stones), nothing beyond the last column, the side to
/// move's stones half of all (rounded down), and no larger than its mirror image's key.
fn key_is_a_position(key: u64, w: usize, h: usize, depth: u32) -> bool {
    let bits = h + 1;
    let column = |x: usize| (key >> (x * bits)) & ((1u64 << bits) - 1);
    if w * bits < 64 && key >> (w * bits) != 0 {
        return false;
    }
    let (mut stones, mut movers) = (0u32, 0u32);
    for x in 0..w {
        let c = column(x);
        // n stones: c in [2^n - 1, 2^(n+1) - 2].
        let n = 63 - (c + 1).leading_zeros();
        if n as usize > h {
            return false;
        }
        stones += n;
        movers += (c - ((1u64 << n) - 1)).count_ones();
    }
    stones <= depth && movers == stones / 2 && key <= super::key::mirror_key(key, w, h)
}

/// The book key of a position (see the module documentation).
pub fn book_key(pos: &Grid<u64, true>) -> u64 {
    let r = pos.variant().grid().expect("a grid");
    let (w, h) = (r.width() as usize, r.height() as usize);
    let (current, mask) = super::key::bitboards(pos, w, h);
    super::key::symmetric_key(current + mask, w, h)
}

impl Book {
    /// `pos` as the board books are made for (a gravity board of 64-bit bitboards) when it is
    /// of this book's game; None for any other board or game. Keys do not name the game (two
    /// games of the same size share them), so every lookup from generic code goes through here.
    fn own_board<'a, P: Position>(&self, pos: &'a P) -> Option<&'a Grid<u64, true>> {
        let grid = pos.as_connect_grid()?;
        (grid.variant().to_string() == self.game).then_some(grid)
    }

    /// [`Book::contradiction_at`] for any position type: None for boards and games not this
    /// book's.
    pub fn contradiction_of<P: Position>(&self, pos: &P) -> Option<(i32, i32)> {
        self.contradiction_at(self.own_board(pos)?)
    }

    /// [`Book::probe`] for any position type: None for boards and games not this book's.
    pub fn value_of<P: Position>(&self, pos: &P) -> Option<i32> {
        self.probe(self.own_board(pos)?)
    }

    /// [`book_solution`] for any position type: None for boards and games not this book's.
    pub fn solution_of<P: Position>(&self, pos: &P, weak: bool) -> Option<super::Solution> {
        book_solution(self, self.own_board(pos)?, weak)
    }

    /// [`move_values`] for any position type: empty for boards and games not this book's.
    pub fn move_values_of<P: Position>(&self, pos: &P) -> Vec<(Move, Option<i32>)> {
        self.own_board(pos).map(|g| move_values(self, g)).unwrap_or_default()
    }

    /// The value of `pos` for the side to move, if the book has it.
    pub fn probe(&self, pos: &Grid<u64, true>) -> Option<i32> {
        if pos.ply() > self.depth as usize || pos.is_over() {
            return None;
        }
        let key = book_key(pos);
        self.keys.binary_search(&key).ok().map(|i| self.values[i] as i32)
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Does this book belong to the game of `variant`?
    pub fn check_game(&self, variant: &Variant, path: &str) -> Result<(), BookError> {
        let game = variant.to_string();
        if game != self.game {
            return Err(BookError::OtherGame { path: path.into(), book: self.game.clone(), game });
        }
        Ok(())
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(30 + self.game.len() + 9 * self.keys.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&BOOK_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.game.len() as u16).to_le_bytes());
        out.extend_from_slice(self.game.as_bytes());
        out.extend_from_slice(&self.depth.to_le_bytes());
        out.extend_from_slice(&(self.keys.len() as u64).to_le_bytes());
        for (k, v) in self.keys.iter().zip(&self.values) {
            out.extend_from_slice(&k.to_le_bytes());
            out.push(*v as u8);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a book from its bytes; `path` names it in errors.
    pub fn from_bytes(bytes: &[u8], path: &str) -> Result<Book, BookError> {
        let short = |at: usize, n: usize, what: &str| {
            let why = format!("{} bytes, where its {what} needs {}", bytes.len(), at + n);
            BookError::Truncated(path.into(), why)
        };
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(BookError::NotABook(path.into()));
        }
        let mut at = 8;
        let mut take = |n: usize, what: &str| -> Result<&[u8], BookError> {
            let s = bytes.get(at..at + n).ok_or_else(|| short(at, n, what))?;
            at += n;
            Ok(s)
        };
        let version = u32::from_le_bytes(take(4, "version")?.try_into().unwrap());
        if version != BOOK_VERSION {
            return Err(BookError::Version { path: path.into(), found: version });
        }
        let len = u16::from_le_bytes(take(2, "header")?.try_into().unwrap()) as usize;
        let game = String::from_utf8(take(len, "game name")?.to_vec())
            .map_err(|_| BookError::Invalid { path: path.into(), why: "its game name is not text".into() })?;
        let depth = u32::from_le_bytes(take(4, "header")?.try_into().unwrap());
        let count = u64::from_le_bytes(take(8, "header")?.try_into().unwrap()) as usize;
        let body = 8 + 4 + 2 + len + 4 + 8;
        let size = count.checked_mul(9).and_then(|n| n.checked_add(body + 4));
        if size != Some(bytes.len()) {
            let why = match size {
                Some(n) => format!("{} bytes, where its header's {count} positions make {n}", bytes.len()),
                None => format!("its header counts {count} positions, more than any file holds"),
            };
            return Err(BookError::Truncated(path.into(), why));
        }
        let (data, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(data) != u32::from_le_bytes(crc.try_into().unwrap()) {
            return Err(BookError::Checksum(path.into()));
        }
        let mut keys = Vec::with_capacity(count);
        let mut values = Vec::with_capacity(count);
        for e in data[body..].chunks_exact(9) {
            keys.push(u64::from_le_bytes(e[..8].try_into().unwrap()));
            values.push(e[8] as i8);
        }
        if keys.windows(2).any(|w| w[0] >= w[1]) {
            return Err(BookError::Invalid { path: path.into(), why: "its keys are not in increasing order".into() });
        }
        // Values within the game's range: (cells + 1) / 2 at most either way.
        let variant: Variant = game
            .parse()
            .map_err(|e| BookError::Invalid { path: path.into(), why: format!("its game '{game}': {e}") })?;
        let rules = variant.grid().filter(ConnectSolver::fits).ok_or_else(|| BookError::Invalid {
            path: path.into(),
            why: format!("{game} is not a board books are made for"),
        })?;
        if depth as usize > rules.cells() {
            return Err(BookError::Invalid {
                path: path.into(),
                why: format!("its depth {depth} is more stones than {game} has cells ({})", rules.cells()),
            });
        }
        let limit = (rules.cells() as i32 + 1) / 2;
        if let Some(v) = values.iter().find(|v| (**v as i32).abs() > limit) {
            return Err(BookError::Invalid {
                path: path.into(),
                why: format!("a value {v} is outside -{limit}..{limit}, the range of {game}"),
            });
        }
        // Each key a position of this board within the depth, as `book_key` makes them: a
        // file whose checksum matches but whose keys are not positions (made by hand) was
        // read, and every look-up missed without a word.
        let (w, h) = (rules.width() as usize, rules.height() as usize);
        if let Some(k) = keys.iter().find(|&&k| !key_is_a_position(k, w, h, depth)) {
            return Err(BookError::Invalid {
                path: path.into(),
                why: format!("its key {k:x} is not the key of a {game} position of at most {depth} stones"),
            });
        }
        Ok(Book { game, depth, keys, values, shipped: false })
    }

    /// Whether this book is one built into this program (or a file byte for byte the same):
    /// its values are then part of the program, as the solver's code is, and a value at the
    /// book's depth is used as it is, where a book file's is checked by a search first (one
    /// edited with its checksum resealed must not read as proved). The check can take more
    /// than a second at ten stones, and would leave the workbench without a value meanwhile.
    pub fn is_shipped(&self) -> bool {
        self.shipped
    }

    /// Whether the file at `path` starts as a book does (its magic), whole or not: `mnklab
    /// book` writes a new book only over one of these.
    pub fn is_book_file(path: &Path) -> bool {
        super::book_journal::file_starts_with(path, MAGIC)
    }

    /// Loads a book file.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        use std::io::Read;
        let name = path.display().to_string();
        let io = |e: std::io::Error| BookError::Io { path: name.clone(), why: e.to_string() };
        let mut file = std::fs::File::open(path).map_err(io)?;
        // Not read whole before it is known to be a book: a device such as /dev/zero never
        // ends, and a large file of something else is read for nothing.
        if !file.metadata().map_err(io)?.is_file() {
            return Err(BookError::Io { path: name, why: "not a regular file, so not a book".into() });
        }
        let mut bytes = vec![0u8; MAGIC.len()];
        if file.read_exact(&mut bytes).is_err() || bytes != MAGIC {
            return Err(BookError::NotABook(name));
        }
        file.read_to_end(&mut bytes).map_err(io)?;
        let book = Book::from_bytes(&bytes, &name)?;
        // The size and checksum first: only a likely copy reads the built-in book's pages.
        let shipped = built_in_bytes().iter().any(|(_, b)| {
            b.len() == bytes.len() && b[b.len() - 4..] == bytes[bytes.len() - 4..] && *b == bytes.as_slice()
        });
        Ok(Book { shipped, ..book })
    }

    /// Writes the book atomically, as every file is written ([`crate::io::write_atomic`]: a
    /// symlink stays a link and its target is replaced).
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        crate::io::write_atomic(path, &self.to_bytes()).map_err(|e| match e {
            crate::io::FileError::Write { path, source } => {
                BookError::Write { path: path.display().to_string(), why: source.to_string() }
            }
            e => BookError::Io { path: e.path().display().to_string(), why: e.cause() },
        })
    }
}

/// What building a book cost.
#[derive(Clone, Debug, PartialEq)]
pub struct BookStats {
    pub positions: usize,
    /// Positions searched in this build (of those with exactly the book's depth of stones);
    /// the shallower ones are the best of their moves.
    pub solved: usize,
    /// Positions of the book's depth whose values came from journals instead (see
    /// [`BookBuild::known`]).
    pub from_journal: usize,
    pub nodes: u64,
    pub seconds: f64,
}

/// How a book is built: the solver's table and threads, the values of deepest positions
/// already solved (read from journals: see [`read_journal`]), and which part of the deepest
/// positions this run searches.
#[derive(Clone, Debug, Default)]
pub struct BookBuild {
    pub table_mb: usize,
    pub threads: usize,
    /// Values of positions with the book's depth of stones, by book key, not searched again.
    pub known: HashMap<u64, i8>,
    /// `Some((i, n))`: search only the i-th of n equal runs of the deepest positions (1-based)
    /// and make no book; the parts' journals then make it in a run without a part.
    pub part: Option<(usize, usize)>,
    /// Where each known value was read (journal file, line), to name a value refused.
    pub known_from: HashMap<u64, (String, usize)>,
}

/// Every unfinished position of `rules` with at most `depth` stones, one per key, the deepest
/// first (breadth first, reversed: each position after every position it leads to).
pub(super) fn book_positions(rules: &GridRules, depth: u32) -> Vec<Grid<u64, true>> {
    let mut seen: HashSet<u64> = HashSet::new();
    let mut layer = vec![Grid::<u64, true>::new(*rules)];
    let mut all: Vec<Grid<u64, true>> = Vec::new();
    seen.insert(book_key(&layer[0]));
    for ply in 0..=depth {
        let mut next = Vec::new();
        for pos in &layer {
            if pos.is_over() {
                continue;
            }
            all.push(pos.clone());
            if ply == depth {
                continue;
            }
            let mut moves: Vec<Move> = Vec::new();
            pos.legal_moves(&mut moves);
            for m in moves {
                let mut child = pos.clone();
                child.play(m);
                if seen.insert(book_key(&child)) {
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    all.reverse();
    all
}

/// The strong value of every position of `rules` with at most `depth` stones (one of each
/// mirror pair): those with `depth` stones solved, with one table kept across them, the
/// shallower ones the best of their moves, each solve on `threads` threads sharing the
/// table. `progress(done, total)` is called before the first search (done 0) and as searched
/// positions finish.
pub fn build_book(
    rules: &GridRules,
    depth: u32,
    table_mb: usize,
    threads: usize,
    progress: impl FnMut(usize, usize),
) -> Result<(Book, BookStats), BookError> {
    let build = BookBuild { table_mb, threads, ..Default::default() };
    let (book, stats) = build_book_with(rules, depth, build, |_, _| Ok(()), progress)?;
    Ok((book.expect("a build without a part makes its book"), stats))
}

/// [`build_book`] with values already known and a part: `record(key, value)` is called with
/// each deepest position's value as soon as it is searched (to append it to a journal), before
/// the next search starts. Returns the book, or None for a part.
pub fn build_book_with(
    rules: &GridRules,
    depth: u32,
    build: BookBuild,
    mut record: impl FnMut(u64, i8) -> Result<(), BookError>,
    mut progress: impl FnMut(usize, usize),
) -> Result<(Option<Book>, BookStats), BookError> {
    let game = Variant::Grid(*rules).to_string();
    if !ConnectSolver::fits(rules) {
        return Err(BookError::Unsupported(game));
    }
    if let Some((i, n)) = build.part
        && (n == 0 || i == 0 || i > n)
    {
        return Err(BookError::Part { part: i, parts: n });
    }
    let start = Instant::now();
    let all = book_positions(rules, depth);
    let deepest: Vec<&Grid<u64, true>> = all.iter().filter(|p| p.ply() as u32 == depth).collect();
    // A journal value for a key that is not a deepest position is a journal of something else.
    let deep_keys: HashSet<u64> = deepest.iter().map(|p| book_key(p)).collect();
    let limit = (rules.cells() as i32 + 1) / 2;
    if let Some((k, v)) = build.known.iter().find(|(k, v)| !deep_keys.contains(k) || (**v as i32).abs() > limit) {
        let what =
            format!("it holds key {k:x} with value {v}, not a position of {game} with {depth} stones and a value");
        let (path, why) = match build.known_from.get(k) {
            Some((file, line)) => (file.clone(), format!("line {line}: {what}")),
            None => ("a journal".into(), what),
        };
        return Err(BookError::Journal { path, why });
    }
    let mine = match build.part {
        Some((i, n)) => &deepest[(i - 1) * deepest.len() / n..i * deepest.len() / n],
        None => &deepest[..],
    };
    let todo: Vec<&Grid<u64, true>> =
        mine.iter().copied().filter(|p| !build.known.contains_key(&book_key(p))).collect();
    let mut solver = ConnectSolver::new(rules, build.table_mb);
    solver.set_threads(build.threads.max(1));
    let mut values: HashMap<u64, i8> = build.known.clone();
    // Said before the first search: on a large board one position is a long proof.
    progress(0, todo.len());
    for (i, pos) in todo.iter().enumerate() {
        let b = solver.board_of(pos);
        let (lo, hi) = solver.solve(&b, false, None, None);
        debug_assert_eq!(lo, hi);
        let key = book_key(pos);
        record(key, lo as i8)?;
        values.insert(key, lo as i8);
        progress(i + 1, todo.len());
    }
    let stats = BookStats {
        positions: all.len(),
        solved: todo.len(),
        from_journal: mine.len() - todo.len(),
        nodes: solver.nodes,
        seconds: start.elapsed().as_secs_f64(),
    };
    if build.part.is_some() {
        return Ok((None, stats));
    }
    // Every shallower position is the best of its moves (negamax over the positions they
    // lead to, all in the book or finished), which costs nothing and is exact: a strong
    // solve of the parent would prove the same maximum.
    for pos in all.iter().filter(|p| (p.ply() as u32) < depth) {
        let value = best_of_moves(pos, |child| values.get(&book_key(child)).map(|&v| v as i32))
            .expect("a book position's moves lead to finished positions or deeper book positions");
        values.insert(book_key(pos), value as i8);
    }
    let mut entries: Vec<(u64, i8)> = values.into_iter().collect();
    entries.sort_unstable();
    let (keys, values) = entries.into_iter().unzip();
    Ok((Some(Book { game, depth, keys, values, shipped: false }), stats))
}

/// The proven value of every legal move of `pos` for the side to move, as far as the book
/// knows it: a move that wins at once is worth the win; otherwise the negated value of the
/// position it leads to, when that is in the book.
pub fn move_values(book: &Book, pos: &Grid<u64, true>) -> Vec<(Move, Option<i32>)> {
    values_of_moves(pos, |child| book.probe(child))
}

/// Every legal move's value for the side to move, with `known` giving the value of an
/// unfinished position reached (for its own side to move).
fn values_of_moves(pos: &Grid<u64, true>, known: impl Fn(&Grid<u64, true>) -> Option<i32>) -> Vec<(Move, Option<i32>)> {
    let cells = pos.max_game_length() as i32;
    let mut moves: Vec<Move> = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play(m);
            let value = match child.status() {
                crate::game::Status::Win(_) => Some(-super::value::lost(cells, child.ply() as i32)),
                crate::game::Status::Draw => Some(0),
                crate::game::Status::Ongoing => known(&child).map(|v| -v),
            };
            (m, value)
        })
        .collect()
}

/// Where the book holds every move's value and their best is not `value` (the position's
/// own entry), that best: the book contradicts itself there (a file made or edited by hand,
/// its checksum resealed) and is not used for the position.
fn disagreement(value: i32, moves: &[(Move, Option<i32>)]) -> Option<i32> {
    best_value(moves).filter(|&best| best != value)
}

/// The best of the moves' values; None if one is unknown.
fn best_value(moves: &[(Move, Option<i32>)]) -> Option<i32> {
    moves.iter().map(|(_, v)| *v).try_fold(i32::MIN, |best, v| Some(best.max(v?)))
}

impl Book {
    /// Where the book holds `pos` and every move's value, but their best is not the
    /// position's own value: both values (the position's, its moves' best). Such a position
    /// is not answered from the book ([`book_solution`] gives None).
    pub fn contradiction_at(&self, pos: &Grid<u64, true>) -> Option<(i32, i32)> {
        let value = self.probe(pos)?;
        disagreement(value, &move_values(self, pos)).map(|best| (value, best))
    }
}

/// The value of `pos` as the best of its moves' values; None if one is unknown.
fn best_of_moves(pos: &Grid<u64, true>, known: impl Fn(&Grid<u64, true>) -> Option<i32>) -> Option<i32> {
    best_value(&values_of_moves(pos, known))
}

/// The book's solution of `pos`: its value, and a best move when the book holds every move's
/// outcome (positions below the book's depth). None when the position is not in the book.
pub fn book_solution(book: &Book, pos: &Grid<u64, true>, weak: bool) -> Option<super::Solution> {
    let value = book.probe(pos)?;
    let values = move_values(book, pos);
    if disagreement(value, &values).is_some() {
        return None;
    }
    let best = values.iter().find(|(_, v)| *v == Some(value)).map(|(m, _)| *m);
    let cells = pos.max_game_length() as i32;
    let moves = pos.ply() as i32;
    Some(super::Solution {
        lower: if weak { value.signum() } else { value },
        upper: if weak { value.signum() } else { value },
        weak,
        best,
        nodes: 0,
        elapsed: 0.0,
        plies: if weak { None } else { super::distance(cells, value, moves) },
        memory: 0,
        over: None,
    })
}

#[cfg(test)]
mod tests {
    /// A book's message names its file; its cause is the same words without the path.
    #[test]
    fn a_book_error_says_its_cause_with_and_without_the_path() {
        use super::BookError;
        let damaged = BookError::Checksum("b.book".into());
        assert_eq!(damaged.to_string(), "b.book: the book is damaged (its checksum does not match its contents)");
        assert_eq!(damaged.cause(), "the book is damaged (its checksum does not match its contents)");
        let write = BookError::Write { path: "b.book".into(), why: "disk full".into() };
        assert_eq!(
            (write.to_string(), write.cause()),
            ("cannot write b.book: disk full".into(), "cannot write: disk full".into())
        );
        let part = BookError::Part { part: 3, parts: 2 };
        assert_eq!(part.cause(), part.to_string(), "no file: the whole message");
    }

    use super::*;

    /// Every key `book_key` makes passes the check, at its stone count and not below it; the
    /// keys of a column overfull, of the side to move holding more than half the stones, and
    /// of a mirror image's larger key do not.
    #[test]
    fn the_keys_of_positions_are_positions_and_others_are_not() {
        let rules: GridRules = "connect4".parse::<Variant>().unwrap().grid().unwrap();
        let mut seed = 12345u64;
        for game in 0..300 {
            let mut g = Grid::<u64, true>::new(rules);
            for stones in 0..=(game % 20) {
                let key = book_key(&g);
                assert!(key_is_a_position(key, 7, 6, stones), "{key:x} at {stones} stones");
                if stones > 0 {
                    assert!(!key_is_a_position(key, 7, 6, stones - 1), "{key:x} is not within {}", stones - 1);
                }
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                if g.is_over() || moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                g.play(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
        let column = |c: u64, x: usize| c << (x * 7);
        // Column 0 full of 7 bits: 7 stones in a column of 6.
        assert!(!key_is_a_position(column(0x7F, 0) | column(0x7F, 6), 7, 6, 42));
        // Two stones, both the side to move's (c = 3 + 3), mirrored alike.
        assert!(!key_is_a_position(column(6, 0) | column(6, 6), 7, 6, 42));
        // One stone (the first player's, the other side's now) in column 0 is a position; in
        // column 6 its mirror image's key is the smaller, so not a book key.
        assert!(key_is_a_position(column(1, 0), 7, 6, 1));
        assert!(!key_is_a_position(column(1, 6), 7, 6, 1));
        // Bits beyond the last column.
        assert!(!key_is_a_position(1 << 49, 7, 6, 42));
    }
}
