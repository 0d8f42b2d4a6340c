//! Opening books: every value equals the solver's (itself checked against Pons' sets), the
//! file format refuses damaged, foreign and future files by name, and the solver agent gives
//! each candidate move its proven value from the book or from proofs.

use mnklab::agents::{AgentConfig, build_agent};
use mnklab::game::{AnyPosition, Grid, Position, Variant};
use mnklab::rng::{below, seeded};
use mnklab::search::solver::{
    AnySolver, Book, BookBuild, BookError, BookMoveProof, Halt, Journal, SolverConfig, book_key, book_solution,
    build_book, build_book_with, builtin_book, check_book, move_values, read_journal,
};
use mnklab::search::{NullSink, Progress, Score, SearchControl, SearchEvent, SearchLimits, SettingError};
use mnklab::with_position;
use std::path::Path;

use crate::scratch::Scratch;

fn rules(game: &str) -> mnklab::game::GridRules {
    game.parse::<Variant>().unwrap().grid().unwrap()
}

fn strong(g: &Grid<u64, true>) -> i32 {
    let mut s = AnySolver::new(g, 16);
    let sol = s.solve(g, false, None, None);
    assert!(sol.is_solved());
    sol.lower
}

#[test]
fn book_values_equal_the_solver_and_best_moves_keep_them() {
    let (book, stats) = build_book(&rules("connect:5,4,4"), 6, 16, 1, |_, _| {}).unwrap();
    // Positions after 0..6 moves of 5x4, one per mirror pair; none is finished that early.
    assert!(stats.positions == book.len() && book.len() > 1000, "{}", book.len());
    let mut rng = seeded(9);
    for _ in 0..150 {
        let mut g = Grid::<u64, true>::new(rules("connect:5,4,4"));
        let plies = below(&mut rng, 7);
        for _ in 0..plies {
            let mut ms = Vec::new();
            g.legal_moves(&mut ms);
            g.play(ms[below(&mut rng, ms.len())]);
        }
        let v = book.probe(&g).expect("every position up to the depth is in the book");
        assert_eq!(v, strong(&g), "{}", g.history_string());
        let s = book_solution(&book, &g, false).unwrap();
        if g.ply() < 6 {
            let best = s.best.expect("below the depth every move's value is known");
            let mut child = g.clone();
            child.play(best);
            assert_eq!(-strong(&child), v, "{} then {best:?}", g.history_string());
        }
    }
    // Deeper than the book: not answered.
    let mut g = Grid::<u64, true>::new(rules("connect:5,4,4"));
    g.play_sequence("1234512").unwrap();
    assert_eq!(book.probe(&g), None);
    // Through the generic lookups: the same answers for its game, none for another game of
    // the same size (whose positions have the same keys) or another kind of board.
    let mut g = Grid::<u64, true>::new(rules("connect:5,4,4"));
    g.play_sequence("123").unwrap();
    assert_eq!(book.value_of(&g), book.probe(&g));
    assert_eq!(book.solution_of(&g, true), book_solution(&book, &g, true));
    assert_eq!(book.move_values_of(&g), move_values(&book, &g));
    let mut other = Grid::<u64, true>::new(rules("connect:5,4,3"));
    other.play_sequence("123").unwrap();
    assert!(book.probe(&other).is_some(), "the raw probe does not know the game");
    assert_eq!(book.value_of(&other), None);
    assert_eq!(book.solution_of(&other, false), None);
    assert!(book.move_values_of(&other).is_empty());
    let free = AnyPosition::new("mnk:5,4,4".parse::<Variant>().unwrap());
    assert_eq!(with_position!(&free, p => book.value_of(p)), None);
}

#[test]
fn the_file_format_round_trips_and_refuses_bad_files_by_name() {
    let (book, _) = build_book(&rules("connect:4,4,3"), 4, 4, 1, |_, _| {}).unwrap();
    let dir = Scratch::new("book");
    let path = dir.join("c443.book");
    book.save(&path).unwrap();
    assert_eq!(Book::load(&path).unwrap(), book);
    let bytes = std::fs::read(&path).unwrap();
    let name = "x.book";
    // One flipped bit in an entry.
    let mut damaged = bytes.clone();
    let at = bytes.len() - 10;
    damaged[at] ^= 1;
    assert_eq!(Book::from_bytes(&damaged, name), Err(BookError::Checksum(name.into())));
    let mut future = bytes.clone();
    future[8] = 2;
    assert_eq!(Book::from_bytes(&future, name), Err(BookError::Version { path: name.into(), found: 2 }));
    // Cut short: the sizes said (the header's count makes more bytes than the file has).
    let cut = Book::from_bytes(&bytes[..bytes.len() - 5], name).unwrap_err().to_string();
    let said = format!(
        "x.book: the book ends early or its sizes disagree ({} bytes, where its header's {} positions make {})",
        bytes.len() - 5,
        book.len(),
        bytes.len()
    );
    assert_eq!(cut, said);
    let cut = Book::from_bytes(&bytes[..13], name).unwrap_err().to_string();
    assert!(cut.ends_with("(13 bytes, where its header needs 14)"), "{cut}");
    assert_eq!(Book::from_bytes(b"(version: 1)", name), Err(BookError::NotABook(name.into())));
    // A device that never ends is refused, not read until memory runs out; so is a file of
    // something else, from its first bytes.
    #[cfg(unix)]
    assert_eq!(
        Book::load(Path::new("/dev/zero")),
        Err(BookError::Io { path: "/dev/zero".into(), why: "not a regular file, so not a book".into() })
    );
    let text = dir.join("text.book");
    std::fs::write(&text, "(version: 1)").unwrap();
    assert_eq!(Book::load(&text), Err(BookError::NotABook(text.display().to_string())));
    // A value no game of this size can have, with a checksum that matches: refused by name.
    let resealed = |mut b: Vec<u8>| {
        let n = b.len() - 4;
        let crc = crc32fast::hash(&b[..n]);
        b[n..].copy_from_slice(&crc.to_le_bytes());
        b
    };
    let mut wild = bytes.clone();
    let last_value = bytes.len() - 5;
    wild[last_value] = 100;
    let err = Book::from_bytes(&resealed(wild), name).unwrap_err().to_string();
    assert!(err.contains("outside") && err.contains("connect:4,4,3"), "{err}");
    // A key that is no position's, sealed and in order: refused by name (it was read, and
    // every look-up missed). Each put in place of the first key above it (the order kept):
    // every column's 5 bits set (5 stones in a column of 4); two columns of two stones, none
    // the side to move's (it holds half the stones); a key larger than its mirror image's;
    // 6 stones in a depth-4 book.
    let entries = bytes.len() - 4 - 9 * book.len();
    let key_at = |b: &[u8], i: usize| u64::from_le_bytes(b[entries + 9 * i..entries + 9 * i + 8].try_into().unwrap());
    let keys: Vec<u64> = (0..book.len()).map(|i| key_at(&bytes, i)).collect();
    let (two, two_mine) = (0b00011u64, 0b00101u64);
    for odd_key in [
        0xF_FFFFu64,
        two << 15 | two,
        two_mine << 15 | two_mine << 5,
        two_mine << 15 | 0b00001 << 10 | 0b00010 << 5 | two_mine,
    ] {
        assert!(!keys.contains(&odd_key));
        let j = keys.iter().position(|&k| k > odd_key).unwrap_or(keys.len() - 1);
        let mut odd = bytes.clone();
        odd[entries + 9 * j..entries + 9 * j + 8].copy_from_slice(&odd_key.to_le_bytes());
        let err = Book::from_bytes(&resealed(odd), name).unwrap_err().to_string();
        let said = format!("its key {odd_key:x} is not the key of a connect:4,4,3 position of at most 4 stones");
        assert!(err.contains(&said), "{err}");
    }
    // A game name that is not text, and a depth deeper than the board, each said as such
    // (they were "ends early", and accepted).
    let len = u16::from_le_bytes([bytes[12], bytes[13]]) as usize;
    let mut garbled = bytes.clone();
    garbled[14] = 0xff;
    let err = Book::from_bytes(&resealed(garbled), name).unwrap_err().to_string();
    assert_eq!(err, "x.book: not a valid book: its game name is not text");
    let mut deep = bytes.clone();
    deep[14 + len..18 + len].copy_from_slice(&1000u32.to_le_bytes());
    let err = Book::from_bytes(&resealed(deep), name).unwrap_err().to_string();
    assert_eq!(err, "x.book: not a valid book: its depth 1000 is more stones than connect:4,4,3 has cells (16)");
    // Keys out of order.
    let mut swapped = bytes.clone();
    let first = bytes.len() - 4 - 9 * book.len();
    let (a, b) = (first, first + 9);
    let e0 = swapped[a..a + 9].to_vec();
    let e1 = swapped[b..b + 9].to_vec();
    swapped[a..a + 9].copy_from_slice(&e1);
    swapped[b..b + 9].copy_from_slice(&e0);
    let err = Book::from_bytes(&resealed(swapped), name).unwrap_err().to_string();
    assert!(err.contains("increasing order"), "{err}");
    let err = book.check_game(&Variant::connect4(), name).unwrap_err().to_string();
    assert!(err.contains("connect:4,4,3") && err.contains("connect:7,6,4"), "{err}");
    // An agent file naming a missing book is refused when checked, with the path.
    let config = SolverConfig { book: Some(dir.join("missing.book").display().to_string()), ..Default::default() };
    assert!(matches!(config.validate(), Err(SettingError::Book { path, .. }) if path.ends_with("missing.book")));
    // The cause comes before the path, so a line cut short still says what is wrong.
    let not_a_book = dir.join("not-a.book");
    std::fs::write(&not_a_book, "hello").unwrap();
    let config = SolverConfig { book: Some(not_a_book.display().to_string()), ..Default::default() };
    let err = config.validate().unwrap_err();
    assert!(matches!(&err, SettingError::Book { cause, .. } if cause.starts_with("not an mnklab book")), "{err:?}");
    let err = err.to_string();
    assert!(err.starts_with("solver: book file: not an mnklab book") && err.ends_with("not-a.book)"), "{err}");
}

/// The solver agent's candidate rows: every move with its proven value, equal to a proof of
/// the position after it.
#[test]
fn the_solver_agent_values_every_move() {
    let dir = Scratch::new("book-agent");
    let path = dir.join("c544.book");
    let (book, _) = build_book(&rules("connect:5,4,4"), 5, 16, 1, |_, _| {}).unwrap();
    book.save(&path).unwrap();
    for (game, moves, with_book) in
        [("connect:5,4,4", "33", true), ("connect:5,4,4", "3324", false), ("mnk:4,4,3", "b2", false)]
    {
        let pos = AnyPosition::from_moves(game.parse().unwrap(), moves).unwrap();
        let book = with_book.then(|| path.display().to_string());
        let config = AgentConfig::Solver(SolverConfig { book, ..Default::default() });
        let mut events: Vec<SearchEvent> = Vec::new();
        let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(20.0), &SearchControl::new(), &mut events));
        assert_eq!(r.root.len(), pos.legal_moves().len(), "{game} {moves}");
        // The table fills as the proofs finish: first the position's value with its move's row,
        // then more rows; a row once proven keeps its value, and only the last report is final.
        let reports: Vec<&Progress> =
            events.iter().filter_map(|e| if let SearchEvent::Progress(p) = e { Some(p) } else { None }).collect();
        assert!(reports.len() >= 2, "{game} {moves}: {} reports", reports.len());
        let first = reports[0];
        assert!(!first.finished && first.proof && first.best == r.best && first.score == r.score, "{first:?}");
        assert_eq!(first.root.len(), r.root.len());
        let final_row = |mv| r.root.iter().find(|row| row.mv == mv).unwrap();
        let best_row = first.root.iter().find(|row| Some(row.mv) == r.best).unwrap();
        assert_eq!((best_row.score, best_row.value), (r.score, final_row(best_row.mv).value), "{game} {moves}");
        for (i, report) in reports.iter().enumerate() {
            assert_eq!(report.finished, i + 1 == reports.len(), "{game} {moves}: report {i}");
            for row in report.root.iter().filter(|row| row.score != Score::Unknown) {
                assert_eq!(
                    (row.score, row.value),
                    (final_row(row.mv).score, final_row(row.mv).value),
                    "{game} {moves}"
                );
            }
        }
        let last = reports.last().unwrap();
        assert!(last.root.iter().all(|row| row.score != Score::Unknown));
        // The readout's nodes, time and rate fit together: the nodes count the moves' proofs
        // as the time does (they once counted only the position's own proof).
        assert_eq!(r.stats.nodes, last.nodes, "{game} {moves}");
        assert!((last.nodes_per_second * last.elapsed - last.nodes as f64).abs() <= 1.0 + 1e-9 * last.nodes as f64);
        if !with_book {
            assert!(last.nodes > first.nodes, "{game} {moves}: the moves' proofs searched nothing? {}", last.nodes);
        }
        for row in &r.root {
            let mut child = pos.clone();
            child.try_play(row.mv).unwrap();
            let expected = if child.status().is_over() {
                None
            } else {
                Some(with_position!(&child, c => AnySolver::new(c, 16).solve(c, false, None, None)).lower)
            };
            match (row.score, expected) {
                (Score::Win { plies: Some(_) }, Some(v)) => assert!(v < 0, "{game} {moves} {:?}", row.mv),
                (Score::Loss { plies: Some(_) }, Some(v)) => assert!(v > 0, "{game} {moves} {:?}", row.mv),
                (Score::Draw, Some(v)) => assert_eq!(v, 0),
                (Score::Win { .. }, None) => {}
                (s, e) => panic!("{game} {moves} {:?}: {s:?} vs {e:?}", row.mv),
            }
            assert_eq!(row.value as i32, -expected.unwrap_or(-(row.value as i32)), "{game} {moves}");
        }
        // The best row is the move played, and its score the position's.
        let best = r.root.iter().max_by_key(|row| row.value as i32).unwrap();
        assert_eq!(best.score, r.score, "{game} {moves}");
    }
}

/// A build split into parts, each stopped partway and resumed from its journal (one with a
/// torn last line, as a kill mid-write leaves it), makes the same book byte for byte as one
/// uninterrupted build; journals for another build and damaged lines are refused by line.
#[test]
fn a_stopped_or_split_build_resumes_from_its_journals() {
    let dir = Scratch::new("book-journal");
    let c544 = rules("connect:5,4,4");
    let (whole, whole_stats) = build_book(&c544, 5, 8, 1, |_, _| {}).unwrap();
    let journals = [dir.join("part1.journal"), dir.join("part2.journal")];
    let mut searched = 0;
    for (i, path) in journals.iter().enumerate() {
        // Each part is stopped after 40 positions (a failing append, as a full disk would be),
        // then resumed from what its journal holds.
        let contents = read_journal(path, "connect:5,4,4", 5).unwrap();
        assert!(contents.values.is_empty());
        let mut journal = Journal::open(path, "connect:5,4,4", 5, &contents).unwrap();
        let mut appended = 0;
        let build = BookBuild { table_mb: 8, threads: 1, part: Some((i + 1, 2)), ..Default::default() };
        let stopped = build_book_with(
            &c544,
            5,
            build,
            |k, v| {
                if appended == 40 {
                    return Err(BookError::Io { path: "journal".into(), why: "stopped".into() });
                }
                appended += 1;
                journal.append(k, v)
            },
            |_, _| {},
        );
        assert_eq!(stopped.unwrap_err(), BookError::Io { path: "journal".into(), why: "stopped".into() });
        // Every appended value is in the file while the journal is still open (no buffer,
        // no sync or drop needed): what a killed build leaves.
        assert_eq!(read_journal(path, "connect:5,4,4", 5).unwrap().values.len(), 40);
        drop(journal);
        if i == 0 {
            // A kill in the middle of a write leaves a line without its newline.
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
            f.write_all(b"3f2a").unwrap();
        }
        let contents = read_journal(path, "connect:5,4,4", 5).unwrap();
        assert_eq!((contents.values.len(), contents.torn_tail), (40, i == 0), "part {}", i + 1);
        let known = contents.values.clone();
        let mut journal = Journal::open(path, "connect:5,4,4", 5, &contents).unwrap();
        let build = BookBuild { table_mb: 8, threads: 1, part: Some((i + 1, 2)), known, ..Default::default() };
        let (book, stats) = build_book_with(&c544, 5, build, |k, v| journal.append(k, v), |_, _| {}).unwrap();
        assert!(book.is_none(), "a part makes no book");
        assert_eq!(stats.from_journal, 40);
        searched += stats.solved;
    }
    assert_eq!(searched + 80, whole_stats.solved, "the parts cover the deepest positions once");
    // The last run reads both journals and searches nothing.
    let mut known = std::collections::HashMap::new();
    for path in &journals {
        known.extend(read_journal(path, "connect:5,4,4", 5).unwrap().values);
    }
    let build = BookBuild { table_mb: 8, threads: 1, known, ..Default::default() };
    let (book, stats) = build_book_with(&c544, 5, build, |_, _| panic!("nothing to search"), |_, _| {}).unwrap();
    assert_eq!((stats.solved, stats.from_journal), (0, whole_stats.solved));
    assert_eq!(book.unwrap().to_bytes(), whole.to_bytes());

    // Refused: another build's journal, a line that is not a value, one key with two values,
    // and a value for a position that is not one of the build's.
    let refused = |text: &str| {
        let path = dir.join("bad.journal");
        std::fs::write(&path, text).unwrap();
        read_journal(&path, "connect:5,4,4", 5).unwrap_err().to_string()
    };
    let head = "mnklab book journal 1 connect:5,4,4 depth 5\n";
    let e = refused("mnklab book journal 1 connect4 depth 5\n");
    assert!(e.contains("line 1") && e.contains("for connect4 depth 5, this build is connect:5,4,4 depth 5"), "{e}");
    assert!(refused("KEY VALUE\n").contains("not a book journal"));
    let e = refused(&format!("{head}12 1\nzz 1\n"));
    assert!(e.contains("line 3") && e.contains("'zz' is not hexadecimal"), "{e}");
    // Named as the journal it is, not as a book.
    assert!(e.contains("bad.journal: not a usable book journal") && !e.contains("valid book"), "{e}");
    let e = refused(&format!("{head}12 1\n12 -1\n"));
    assert!(e.contains("line 3") && e.contains("two values"), "{e}");
    // A file that is not text names no line (it said "line 0"), and a book given as a journal
    // is named as the book it is.
    std::fs::write(dir.join("bad.journal"), [0xffu8, 0xfe, 0x00]).unwrap();
    let e = read_journal(&dir.join("bad.journal"), "connect:5,4,4", 5).unwrap_err().to_string();
    assert!(e.contains("not text, so not a book journal") && !e.contains("line 0"), "{e}");
    let (small, _) = build_book(&c544, 3, 8, 1, |_, _| {}).unwrap();
    small.save(&dir.join("small.book")).unwrap();
    let e = read_journal(&dir.join("small.book"), "connect:5,4,4", 5).unwrap_err().to_string();
    assert!(e.contains("small.book") && e.contains("a book, not its build's journal") && !e.contains("line 0"), "{e}");
    let wrong: std::collections::HashMap<u64, i8> = [(0x12, 1)].into();
    let build = BookBuild { table_mb: 8, threads: 1, known: wrong, ..Default::default() };
    let e = build_book_with(&c544, 5, build, |_, _| Ok(()), |_, _| {}).unwrap_err().to_string();
    assert!(e.contains("key 12") && e.contains("not a position of connect:5,4,4 with 5 stones"), "{e}");
}

/// The book that ships for Connect-4 holds the known values of the first moves (Allis 1988;
/// Tromp; Pons' scores -2 -1 0 1 0 -1 -2: the centre wins with the last stone, c and e draw,
/// the rest lose), and the solver agent answers the empty board and each first move from it
/// without a search; with `builtin_book` off it searches.
#[test]
fn the_built_in_connect4_book_knows_the_first_moves() {
    let connect4: Variant = "connect4".parse().unwrap();
    let book = builtin_book(&connect4).expect("mnklab ships a Connect-4 book");
    assert!(book.depth >= 2, "depth {}", book.depth);
    assert!(builtin_book(&"connect:6,5,4".parse().unwrap()).is_none());
    let empty = Grid::<u64, true>::new(connect4.grid().unwrap());
    let values: Vec<Option<i32>> = move_values(&book, &empty).into_iter().map(|(_, v)| v).collect();
    assert_eq!(values, [-2, -1, 0, 1, 0, -1, -2].map(Some));
    for moves in ["", "1", "2", "3", "4", "5", "6", "7"] {
        let pos = AnyPosition::from_moves(connect4, moves).unwrap();
        let config = AgentConfig::Solver(SolverConfig::default());
        let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(20.0), &SearchControl::new(), &mut NullSink));
        assert_eq!(r.stats.nodes, 0, "after '{moves}': answered by a search");
        assert_eq!(r.root.len(), 7, "after '{moves}'");
        assert!(r.root.iter().all(|row| row.score != Score::Unknown), "after '{moves}': {:?}", r.root);
        // The move played is one of the best rows (moves may tie), with the position's score.
        let top = r.root.iter().map(|row| row.value as i32).max().unwrap();
        let played = r.root.iter().find(|row| Some(row.mv) == r.best).unwrap();
        assert_eq!((played.value as i32, played.score), (top, r.score), "after '{moves}'");
    }
    let off = AgentConfig::Solver(SolverConfig { builtin_book: false, ..Default::default() });
    let pos = AnyPosition::from_moves(connect4, "").unwrap();
    let r = with_position!(&pos, p => build_agent(&off, 1).search(p, &SearchLimits::time(0.2), &SearchControl::new(), &mut NullSink));
    assert!(r.stats.nodes > 0, "without the book the empty board is searched");
}

/// Every position of Pons' beginning set (his solver's scores, a peer's ground truth) within
/// the built-in book's depth has his score in the book, and every move of one with fewer
/// stones than the depth leads to a book position (or a finished game).
#[test]
fn the_built_in_connect4_book_agrees_with_pons_scores() {
    let connect4 = Variant::connect4();
    let book = builtin_book(&connect4).unwrap();
    let set = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/connect4/Test_L1_R1")).unwrap();
    let mut checked = 0;
    for line in set.lines() {
        let mut fields = line.split_whitespace();
        let (moves, score) = (fields.next().unwrap(), fields.next().unwrap().parse::<i32>().unwrap());
        if moves.len() > book.depth as usize {
            continue;
        }
        let AnyPosition::Gravity(g) = AnyPosition::from_moves(connect4, moves).unwrap() else { unreachable!() };
        assert_eq!(book.probe(&g), Some(score), "{moves}");
        if moves.len() < book.depth as usize {
            assert!(move_values(&book, &g).iter().all(|(_, v)| v.is_some()), "{moves}");
        }
        checked += 1;
    }
    let said = mnklab::search::solver::builtin_books_described();
    assert!(said.ends_with(&format!("connect4, every position of at most {} stones", book.depth)), "{said}");
    // The set holds 43 positions of four stones, 12 of five, 52 of six, 21 of seven, 61 of
    // eight, 74 of nine and 106 of ten.
    let expected = [(4, 43), (5, 12), (6, 52), (7, 21), (8, 61), (9, 74), (10, 106)]
        .iter()
        .filter(|(n, _)| *n <= book.depth)
        .map(|(_, c)| c)
        .sum::<usize>();
    assert_eq!(checked, expected);
    assert!(checked >= 43, "the book holds four stones at least: {checked}");
}

/// The built-in Connect-4 book and the position after the first of `line`'s moves, as many
/// as the book's depth (the line gives one for each depth the book has shipped with: nine and
/// ten).
fn at_builtin_depth(line: &str) -> (std::sync::Arc<Book>, AnyPosition, Grid<u64, true>) {
    let connect4 = Variant::connect4();
    let builtin = builtin_book(&connect4).unwrap();
    let depth = builtin.depth as usize;
    assert!(line.len() >= depth, "'{line}' is shorter than the built-in book's depth {depth}");
    let pos = AnyPosition::from_moves(connect4, &line[..depth]).unwrap();
    let AnyPosition::Gravity(g) = pos.clone() else { unreachable!("Connect-4 fits 64 bits") };
    (builtin, pos, g)
}

/// At a position with as many stones as the book's depth the book knows the value but not
/// the moves': the agent proves a move that keeps it, plays it with the book's score, and
/// says so; with no time to prove one it plays the fallback's move and names the book's
/// value instead of claiming it for that move.
#[test]
fn at_the_books_depth_the_agent_proves_a_move_keeping_the_books_value() {
    let dir = Scratch::new("book-depth");
    let path = dir.join("c544-d4.book");
    let (book, _) = build_book(&rules("connect:5,4,4"), 4, 16, 1, |_, _| {}).unwrap();
    book.save(&path).unwrap();
    let config = AgentConfig::Solver(SolverConfig { book: Some(path.display().to_string()), ..Default::default() });
    for moves in ["3322", "3311", "1234"] {
        let pos = AnyPosition::from_moves("connect:5,4,4".parse().unwrap(), moves).unwrap();
        let AnyPosition::Gravity(g) = pos.clone() else { unreachable!("connect:5,4,4 fits 64 bits") };
        let value = book.probe(&g).expect("in the book");
        assert_eq!(book_solution(&book, &g, false).unwrap().best, None, "no move from the book at its depth");
        let mut events: Vec<SearchEvent> = Vec::new();
        let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(20.0), &SearchControl::new(), &mut events));
        let said: Vec<&String> =
            events.iter().filter_map(|e| if let SearchEvent::Info(t) = e { Some(t) } else { None }).collect();
        assert!(said.iter().any(|t| t.contains("checking it: proving a move that keeps it")), "{moves}: {said:?}");
        assert!(
            said.last().is_some_and(|t| t.ends_with(", checked: a move keeping it proved, none better")),
            "{moves}: {said:?}"
        );
        let best = r.best.unwrap();
        let mut child = g.clone();
        child.play(best);
        let kept = if child.is_over() { value } else { -strong(&child) };
        assert_eq!(kept, value, "{moves}: {best:?} keeps the book's value");
        assert!(r.score.is_proven(), "{moves}: {:?}", r.score);
    }
    // No time (Connect-4 at the built-in book's depth, where proving a move takes longer):
    // the fallback's move, and the book's value named, not claimed for it.
    // A position of the book's depth whose moves take longer than the millisecond to prove
    // (the centre column filled after the first eight ends in a quick win, proved within it):
    // at nine stones, and at ten with d after them (26 ms to prove a move there).
    let (builtin, pos, g) = at_builtin_depth("4344355314");
    let value = book_solution(&builtin, &g, false).expect("in the book").describe();
    let mut events: Vec<SearchEvent> = Vec::new();
    let config = AgentConfig::Solver(SolverConfig::default());
    let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(0.001), &SearchControl::new(), &mut events));
    let said: Vec<&String> =
        events.iter().filter_map(|e| if let SearchEvent::Info(t) = e { Some(t) } else { None }).collect();
    // The built-in book's value is shown at once, as proved (it is the program's: see
    // `Book::is_shipped`), before any move is.
    let first = events.iter().find_map(|e| if let SearchEvent::Progress(p) = e { Some(p) } else { None }).unwrap();
    let book_score = book_solution(&builtin, &g, false).unwrap().score();
    assert!(first.proof && first.best.is_none() && first.score == book_score, "{first:?}");
    assert_eq!(
        said.first().map(|t| t.as_str()),
        Some("solver: value from the built-in book; proving a move that keeps it")
    );
    // And whose move and score follow, as when a proof does not finish.
    let named = format!("gives '{value}'");
    assert!(
        said.iter().any(|t| t.contains(&named)
            && t.contains("no move keeping it was proved in time")
            && t.contains("alpha-beta's move and score follow")),
        "{said:?}, expected {named}"
    );
    assert!(!r.score.is_proven(), "the fallback's score is not a proof: {:?}", r.score);
    // After saying so, only the fallback reports (no proof line of unproved moves between).
    let said_at = events
        .iter()
        .position(|e| matches!(e, SearchEvent::Info(t) if t.contains("alpha-beta's move and score follow")))
        .unwrap();
    assert!(
        !events[said_at..].iter().any(|e| matches!(e, SearchEvent::Progress(p) if p.proof)),
        "a proof report after the fallback was announced"
    );
}

/// At the built-in book's depth, the search for a move keeping the book's value reports as
/// it runs: the value at once, then nodes and clock moving before the move is known (the
/// panel once stood still for seconds there).
#[test]
fn the_search_for_a_move_keeping_the_books_value_reports_as_it_runs() {
    // a b a b g f g f b: about 2.5 s to prove a move here; then g, 1.6 s (ten stones).
    let (builtin, pos, g) = at_builtin_depth("1212767627");
    let book_score = book_solution(&builtin, &g, false).unwrap().score();
    let mut events: Vec<SearchEvent> = Vec::new();
    let config = AgentConfig::Solver(SolverConfig::default());
    let control = SearchControl::new();
    with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(2.0), &control, &mut events));
    let said = events.iter().find_map(|e| if let SearchEvent::Info(t) = e { Some(t.as_str()) } else { None });
    assert_eq!(said, Some("solver: value from the built-in book; proving a move that keeps it"), "said first");
    let running: Vec<&Progress> = events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Progress(p) if p.best.is_none() && p.nodes > 0 => Some(p),
            _ => None,
        })
        .collect();
    assert!(!running.is_empty(), "reports while the move is sought: {events:?}");
    for p in &running {
        // The built-in book's value is shown while its move is sought (a book file's is not
        // before it is checked: see the test of the built-in book's values below).
        assert!(p.proof && !p.finished && p.score == book_score && p.root.len() == 7, "{p:?}");
    }
    for (a, b) in running.iter().zip(running.iter().skip(1)) {
        assert!(b.nodes >= a.nodes && b.elapsed > a.elapsed, "{a:?} then {b:?}");
    }
}

/// The solver agent on two threads (`threads: 2`, no book) plays moves that keep Pons' scores
/// on his beginning set; on a board the parallel solver does not cover it solves on one
/// thread and says so beside the analysis.
#[test]
fn the_solver_agent_on_two_threads() {
    let set = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/connect4/Test_L1_R1")).unwrap();
    let config = AgentConfig::Solver(SolverConfig { threads: 2, builtin_book: false, ..Default::default() });
    // The option as the arena (its worker count) and `analyse --threads` see it.
    assert_eq!(config.threads(), 2);
    let from_default = AgentConfig::Solver(SolverConfig { builtin_book: false, ..Default::default() }).with_threads(2);
    assert_eq!(from_default, Ok(config.clone()));
    for line in set.lines().step_by(97).take(6) {
        let mut fields = line.split_whitespace();
        let (moves, score) = (fields.next().unwrap(), fields.next().unwrap().parse::<i32>().unwrap());
        let pos = AnyPosition::from_moves(Variant::connect4(), moves).unwrap();
        let AnyPosition::Gravity(g) = pos.clone() else { unreachable!("Connect-4 fits 64 bits") };
        let mut events: Vec<SearchEvent> = Vec::new();
        let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(60.0), &SearchControl::new(), &mut events));
        assert!(!events.iter().any(|e| matches!(e, SearchEvent::Notice(_))), "{moves}: {events:?}");
        let mut child = g.clone();
        child.play(r.best.unwrap());
        assert_eq!(strong(&child), -score, "{moves}: the move played does not keep {score}");
    }
    // On a free-placement board two threads race alpha-beta against proof-number search
    // (tests/solver.rs checks the values), with no notice; more than two say the rest idle.
    let pos = AnyPosition::new("mnk:4,4,3".parse().unwrap());
    let exact = with_position!(&pos, p => mnklab::search::solver::AnySolver::new(p, 8).solve(p, false, None, None));
    let mut events: Vec<SearchEvent> = Vec::new();
    let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(20.0), &SearchControl::new(), &mut events));
    assert_eq!(r.score, exact.score(), "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, SearchEvent::Notice(_))), "{events:?}");
    let four = AgentConfig::Solver(SolverConfig { threads: 4, builtin_book: false, ..Default::default() });
    let mut events: Vec<SearchEvent> = Vec::new();
    let r = with_position!(&pos, p => build_agent(&four, 1).search(p, &SearchLimits::time(20.0), &SearchControl::new(), &mut events));
    assert_eq!(r.score, exact.score());
    assert!(
        events.iter().any(|e| matches!(e, SearchEvent::Warning(t) if t.contains("threads 4: on this board two race"))),
        "{events:?}"
    );
}

/// Every move's value where the position's comes from elsewhere: at a book's depth (the
/// book's value, with or without a move keeping it proved) and after a proof of the position, weak and strong,
/// each move's proof starts from the bound the position's value gives; every row must still
/// equal a separate proof of the position after the move, from a fresh solver.
#[test]
fn every_moves_value_from_the_positions_bound_equals_a_fresh_proof() {
    use mnklab::search::solver::MoveProofs;
    use std::time::Instant;
    let game = "connect:5,4,4";
    let (book, _) = build_book(&rules(game), 4, 16, 1, |_, _| {}).unwrap();
    let fresh = |child: &AnyPosition, weak: bool| -> Option<i32> {
        (!child.status().is_over()).then(|| {
            let s = with_position!(child, c => AnySolver::new(c, 16).solve(c, weak, None, None));
            assert!(s.is_solved());
            s.lower
        })
    };
    let mut rng = seeded(5);
    let mut checked = 0;
    for round in 0..24 {
        let weak = round % 2 == 1;
        // Book positions (four stones) and others (six to ten stones: no book answers).
        let (variant, plies): (&str, usize) = if round % 4 < 2 { (game, 4) } else { ("mnk:4,4,3", 2 + round % 3) };
        let mut pos = AnyPosition::new(variant.parse().unwrap());
        let plies = if variant == game { plies } else { plies + below(&mut rng, 4) };
        while pos.ply() < plies && !pos.status().is_over() {
            let moves = pos.legal_moves();
            pos.try_play(moves[below(&mut rng, moves.len())]).unwrap();
        }
        if pos.status().is_over() {
            continue;
        }
        // At the book's depth, half the time no move is proved first: the bound then comes
        // from the book's value of the position, given the book.
        let book_value_only = round % 8 >= 4;
        let rows = with_position!(&pos, p => {
            let mut solver = AnySolver::new(p, 16);
            let s = match book.solution_of(p, weak) {
                Some(mut s) if variant == game => {
                    assert!(s.best.is_none(), "a position at the book's depth has no move in it");
                    if !book_value_only {
                        solver.prove_book_move(p, &mut s, true, Halt::default(), Instant::now(), None);
                    }
                    s
                }
                _ => solver.solve(p, weak, None, None),
            };
            let given = (variant == game && book_value_only).then_some(&book);
            let how = MoveProofs { weak, book: given, best: s.best.map(|m| (m, s.lower)), ..Default::default() };
            solver.move_solutions(p, how, |_, _, _| {})
        });
        for (m, proved) in rows {
            let mut child = pos.clone();
            child.try_play(m).unwrap();
            let row = proved.expect("no deadline: every move proved");
            if let Some(v) = fresh(&child, weak) {
                assert_eq!(row.lower, -v, "{variant} {} then {m:?}, weak {weak}", pos.history_string());
                checked += 1;
            }
        }
    }
    assert!(checked > 60, "{checked} moves checked");
}

/// A book that contradicts itself (a value edited by hand, its checksum resealed) is not
/// trusted where it can be checked, and no move is said to keep a value none keeps: the
/// empty board's value changed from a draw to a win gave "bestmove c, proved by null-window
/// searches" while every move's row said draw or loss.
#[test]
fn a_book_that_contradicts_itself_is_not_trusted() {
    let (book, _) = build_book(&rules("connect:5,4,4"), 4, 4, 1, |_, _| {}).unwrap();
    let empty = Grid::<u64, true>::new(rules("connect:5,4,4"));
    let truth = book.probe(&empty).expect("the empty board is in the book");
    assert_eq!(truth, 0, "connect:5,4,4 is a draw");
    assert_eq!(book.contradiction_at(&empty), None);
    // The empty board's key is 0, the first entry: its value byte follows the 8-byte key.
    let mut bytes = book.to_bytes();
    let entries = bytes.len() - 4 - 9 * book.len();
    assert_eq!(u64::from_le_bytes(bytes[entries..entries + 8].try_into().unwrap()), 0);
    bytes[entries + 8] = 1;
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    let wrong = Book::from_bytes(&bytes, "wrong.book").unwrap();
    assert_eq!(wrong.contradiction_at(&empty), Some((1, 0)));
    assert_eq!(book_solution(&wrong, &empty, false), None, "not answered from the book");
    assert!(book_solution(&book, &empty, false).is_some());
    // The solver agent named that file says so and gives the searched value, a draw.
    let dir = Scratch::new("contradiction");
    let file = dir.join("wrong.book");
    std::fs::write(&file, &bytes).unwrap();
    let config = AgentConfig::Solver(SolverConfig { book: Some(file.display().to_string()), ..Default::default() });
    let pos = AnyPosition::new("connect:5,4,4".parse::<Variant>().unwrap());
    let mut events: Vec<SearchEvent> = Vec::new();
    let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(20.0), &SearchControl::new(), &mut events));
    let said = events
        .iter()
        .any(|e| matches!(e, SearchEvent::Notice(t) if t.contains("gives this position 1 but its moves' best 0")));
    assert!(said, "{events:?}");
    assert_eq!(r.score, Score::Draw);

    // At the book's depth the moves are not in it: the move keeping the value is searched,
    // and none keeps a wrong one.
    let mut g = empty.clone();
    g.play_sequence("cdbd").unwrap();
    let right = book_solution(&book, &g, false).expect("a position of the book's depth");
    assert_eq!(right.best, None, "the moves of a depth-4 position are not in a depth-4 book");
    let mut solver = AnySolver::new(&g, 8);
    let mut s = right.clone();
    let found = solver.prove_book_move(&g, &mut s, true, Halt::default(), std::time::Instant::now(), None);
    assert!(matches!(found, BookMoveProof::Proved(m) if s.best == Some(m)), "a move keeps the true value: {found:?}");
    let mut s = mnklab::search::solver::Solution { lower: right.lower + 1, upper: right.lower + 1, ..right.clone() };
    let found = solver.prove_book_move(&g, &mut s, true, Halt::default(), std::time::Instant::now(), None);
    assert_eq!(s.best, None, "no move keeps a value one better than the true one");
    assert_eq!(found, BookMoveProof::NoneKeeps, "every move searched to its end");
    // One worse than the true one: a move keeps it, but one does better, which is proved too
    // (a trial's books with a loss edited to a quicker one, a win to a draw, were taken).
    let mut s = mnklab::search::solver::Solution { lower: right.lower - 1, upper: right.lower - 1, ..right.clone() };
    let found = solver.prove_book_move(&g, &mut s, true, Halt::default(), std::time::Instant::now(), None);
    assert_eq!((found, s.best), (BookMoveProof::Understated, None));
    // The solver agent named a book with that value raised says the book is wrong there and
    // gives the searched value (it once said no move was proved in time, and played
    // alpha-beta's).
    let mut bytes = book.to_bytes();
    let key = mnklab::search::solver::book_key(&g);
    let at = entries + 9 * (0..book.len()).find(|&i| bytes[entries + 9 * i..][..8] == key.to_le_bytes()).unwrap();
    bytes[at + 8] = (right.lower + 1) as i8 as u8;
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&file, &bytes).unwrap();
    let config = AgentConfig::Solver(SolverConfig { book: Some(file.display().to_string()), ..Default::default() });
    let pos = AnyPosition::Gravity(g.clone());
    let mut events: Vec<SearchEvent> = Vec::new();
    let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(20.0), &SearchControl::new(), &mut events));
    let said = events.iter().any(
        |e| matches!(e, SearchEvent::Notice(t) if t.contains("the book is wrong here, so searched: no move keeps its")),
    );
    assert!(said, "{events:?}");
    assert_eq!(r.score, right.bounds_as_scores(&g).0, "the searched value, {}", right.describe());
}

/// At the book's depth, a position where every move lets the opponent win at once: any move
/// keeps its value (a loss in 2 plies). The search for a keeping move tried none there, and
/// `solve --book` called the built-in book wrong (2026-11-29).
#[test]
fn every_move_keeps_a_forced_loss_at_the_books_depth() {
    let connect4: Variant = "connect4".parse().unwrap();
    let book = builtin_book(&connect4).expect("mnklab ships a Connect-4 book");
    let mut g = Grid::<u64, true>::new(rules("connect4"));
    // O holds b1 c1 d1 with a1 and e1 open; X has no line to make: ten stones, X to move.
    g.play_sequence("fbfcgbgdff").unwrap();
    assert_eq!(g.ply(), book.depth as usize, "a position at the book's depth");
    let right = book.solution_of(&g, false).expect("in the book");
    assert_eq!((right.lower, right.best), (-16, None), "a loss in 2 plies: 42 - 10 cells, halved");
    let mut solver = AnySolver::new(&g, 8);
    let mut s = right.clone();
    let found = solver.prove_book_move(&g, &mut s, true, Halt::default(), std::time::Instant::now(), None);
    assert!(matches!(found, BookMoveProof::Proved(_)), "{found:?}");
    // Where the mover wins at once, a value below the win now is understated (the null-window
    // search assumes no win at once, so it is not asked).
    let mut win = Grid::<u64, true>::new(rules("connect4"));
    win.play_sequence("cceeagagaf").unwrap();
    let now = book.solution_of(&win, false).expect("in the book");
    assert_eq!(now.lower, 16, "a win on the next move: (42 + 1 - 10) / 2");
    let mut s = mnklab::search::solver::Solution { lower: 15, upper: 15, ..now.clone() };
    let mut solver_w = AnySolver::new(&win, 8);
    assert_eq!(
        solver_w.prove_book_move(&win, &mut s, true, Halt::default(), std::time::Instant::now(), None),
        BookMoveProof::Understated
    );
    let mut s = now.clone();
    let found = solver_w.prove_book_move(&win, &mut s, true, Halt::default(), std::time::Instant::now(), None);
    assert!(matches!(found, BookMoveProof::Proved(_)), "{found:?}");
    // A better value is still kept by no move (the book would be wrong).
    let mut s = mnklab::search::solver::Solution { lower: -15, upper: -15, ..right };
    assert_eq!(
        solver.prove_book_move(&g, &mut s, true, Halt::default(), std::time::Instant::now(), None),
        BookMoveProof::NoneKeeps
    );
    // A search stopped before it starts has proved nothing, and says so (not "none keeps"):
    // a ten-stone position whose proof takes millions of nodes (the stop is read every 4,096).
    let mut slow = Grid::<u64, true>::new(rules("connect4"));
    slow.play_sequence("ebeebfaagg").unwrap();
    let mut s = book.solution_of(&slow, false).expect("in the book");
    let stopped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let found = AnySolver::new(&slow, 8).prove_book_move(
        &slow,
        &mut s,
        true,
        Halt { deadline: None, stop: Some(stopped) },
        std::time::Instant::now(),
        None,
    );
    assert_eq!((found, s.best), (BookMoveProof::Stopped, None));
    // The solver agent (the workbench's) keeps the book's value and says a move keeps it.
    let pos = AnyPosition::Gravity(g);
    let config = AgentConfig::Solver(SolverConfig::default());
    let mut events: Vec<SearchEvent> = Vec::new();
    let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(10.0), &SearchControl::new(), &mut events));
    assert_eq!(r.score, Score::Loss { plies: Some(2) });
    let said = events.iter().any(|e| matches!(e, SearchEvent::Info(t) if t.contains("a move keeping it proved")));
    assert!(said, "{events:?}");
}

/// `check_book` on a sound book finds nothing; on edited ones (a deepest value, a shallower
/// one, an entry removed; each resealed) it finds each, by sampling, by the moves' best, and
/// by the positions of the game.
#[test]
fn a_books_check_finds_each_kind_of_fault() {
    let (book, _) = build_book(&rules("connect:5,4,4"), 4, 4, 1, |_, _| {}).unwrap();
    let c = check_book(&book, usize::MAX, 1, 4).unwrap();
    assert!(c.is_sound(), "{c:?}");
    assert_eq!((c.positions, c.missing_count, c.extra), (book.len(), 0, 0));
    assert_eq!(c.sampled.len(), c.deepest, "every deepest position solved again");
    assert!(c.deepest > 100 && c.shallower > 30, "{} {}", c.deepest, c.shallower);
    // The same seed picks the same sample.
    let picks = |seed| check_book(&book, 5, seed, 4).unwrap().sampled.into_iter().map(|s| s.moves).collect::<Vec<_>>();
    assert_eq!(picks(7), picks(7));
    assert_ne!(picks(7), picks(8));

    let bytes = book.to_bytes();
    let entries = bytes.len() - 4 - 9 * book.len();
    let index_of = |moves: &str| {
        let mut g = Grid::<u64, true>::new(rules("connect:5,4,4"));
        g.play_sequence(moves).unwrap();
        let key = book_key(&g);
        (0..book.len()).find(|&i| bytes[entries + 9 * i..][..8] == key.to_le_bytes()).expect("held")
    };
    let reseal = |mut b: Vec<u8>| {
        let n = b.len() - 4;
        let crc = crc32fast::hash(&b[..n]);
        b[n..].copy_from_slice(&crc.to_le_bytes());
        Book::from_bytes(&b, "edited.book").unwrap()
    };
    // A deepest value one higher: the full sample solves it again and finds it.
    let mut edited = bytes.clone();
    let at = entries + 9 * index_of("3324") + 8;
    edited[at] = (edited[at] as i8 + 1) as u8;
    let c = check_book(&reseal(edited), usize::MAX, 1, 4).unwrap();
    let wrong: Vec<_> = c.wrong_samples().collect();
    assert_eq!(wrong.len(), 1, "{c:?}");
    assert_eq!(wrong[0].book, wrong[0].solved + 1);
    assert!(!c.is_sound());
    // The empty board a win: its moves' best says otherwise.
    let mut edited = bytes.clone();
    let at = entries + 9 * index_of("") + 8;
    edited[at] = 1;
    let c = check_book(&reseal(edited), 0, 1, 4).unwrap();
    assert_eq!(c.contradiction_count, 1, "{c:?}");
    assert_eq!(
        (c.contradictions[0].moves.as_str(), c.contradictions[0].book, c.contradictions[0].best_of_moves),
        ("", 1, 0)
    );
    // An entry taken out (the count lowered): missing, found by the game's positions.
    let i = index_of("3324");
    let mut edited = bytes[..entries + 9 * i].to_vec();
    edited.extend_from_slice(&bytes[entries + 9 * (i + 1)..]);
    let count_at = entries - 8;
    edited[count_at..entries].copy_from_slice(&(book.len() as u64 - 1).to_le_bytes());
    let c = check_book(&reseal(edited), 0, 1, 4).unwrap();
    assert_eq!(c.missing_count, 1, "{c:?}");
    assert!(c.unchecked >= 1, "its parent cannot be checked against its moves: {c:?}");
    assert!(!c.is_sound());
}

/// The built-in book is compiled into the program, so its values are the program's: at its
/// depth a value is used as it is and only a move keeping it is sought; a file byte for byte
/// the same is used so too, and any other file (here the same book with one value edited,
/// its checksum resealed) is still checked first. The check cost up to 1.5 s at ten stones,
/// and the workbench showed no value meanwhile (a new-user trial, 2026-12-01: 2.8 s on
/// `ebeebfaagg`).
#[test]
fn the_built_in_books_values_are_used_as_they_are_and_book_files_checked() {
    let connect4: Variant = "connect4".parse().unwrap();
    let book = builtin_book(&connect4).expect("mnklab ships a Connect-4 book");
    assert!(book.is_shipped());
    let dir = Scratch::new("shipped");
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/books/connect4.book")).unwrap();
    let copy = dir.join("copy.book");
    std::fs::write(&copy, &bytes).unwrap();
    assert!(Book::load(&copy).unwrap().is_shipped(), "the same bytes are the built-in book");
    // Another position's value edited (the first entry's, sign flipped), the checksum resealed.
    let mut edited = bytes.clone();
    let entries = edited.len() - 4 - 9 * book.len();
    edited[entries + 8] = if edited[entries + 8] == 0 { 1 } else { 0 };
    let n = edited.len() - 4;
    let crc = crc32fast::hash(&edited[..n]);
    edited[n..].copy_from_slice(&crc.to_le_bytes());
    let other = dir.join("edited.book");
    std::fs::write(&other, &edited).unwrap();
    let loaded = Book::load(&other).expect("a readable book");
    assert!(!loaded.is_shipped(), "an edited copy is a book file like any other");

    // At the book's depth: the shipped book's move is proved to keep the value, and no probe
    // of the position follows (fewer nodes); a book file's is checked both ways.
    let mut g = Grid::<u64, true>::new(rules("connect4"));
    g.play_sequence("ebeebfaagg").unwrap();
    let given = book.solution_of(&g, false).expect("in the book");
    assert_eq!((given.lower, given.best), (-1, None), "a loss in 32 plies at the book's depth");
    let (mut kept, mut checked) = (given.clone(), given.clone());
    let now = std::time::Instant::now;
    let k = AnySolver::new(&g, 8).prove_book_move(&g, &mut kept, false, Halt::default(), now(), None);
    let c = AnySolver::new(&g, 8).prove_book_move(&g, &mut checked, true, Halt::default(), now(), None);
    let (BookMoveProof::Kept(m), BookMoveProof::Proved(m2)) = (k, c) else { panic!("{k:?} {c:?}") };
    assert_eq!((Some(m), Some(m2)), (kept.best, checked.best));
    assert!(kept.nodes < checked.nodes, "{} against {}", kept.nodes, checked.nodes);
    let mut child = g.clone();
    child.play(m);
    assert_eq!(strong(&child), 1, "the move kept the loss in 32: the opponent wins as late");

    // The agent shows the shipped book's value before any search, proved; a book file's only
    // once checked (its first report proves nothing).
    let first_report = |book_file: Option<&Path>| {
        let config = AgentConfig::Solver(SolverConfig {
            book: book_file.map(|p| p.display().to_string()),
            ..Default::default()
        });
        let pos = AnyPosition::Gravity(g.clone());
        let mut events: Vec<SearchEvent> = Vec::new();
        let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(30.0), &SearchControl::new(), &mut events));
        assert_eq!(r.score, Score::Loss { plies: Some(32) });
        let first = events.iter().find_map(|e| match e {
            SearchEvent::Progress(p) => Some(p.score),
            _ => None,
        });
        let said = |what: &str| events.iter().any(|e| matches!(e, SearchEvent::Info(t) if t.contains(what)));
        (first, said("a move keeping it proved"), said("none better"), said("a copy of the built-in book"))
    };
    assert_eq!(first_report(None), (Some(Score::Loss { plies: Some(32) }), true, false, false));
    assert_eq!(first_report(Some(&copy)), (Some(Score::Loss { plies: Some(32) }), true, false, true));
    assert_eq!(first_report(Some(&other)), (Some(Score::Unknown), true, true, false));
}

/// The solve service tells what the book did by typed events, the same for every caller: its
/// answer, its value checked, a wrong or self-contradicting book searched past, a position it
/// does not hold; and every move's value after the position's. (A check stopped before it
/// ends: `book_and_proof_number_search_from_the_command_line` in tests/cli.rs.)
#[test]
fn the_solve_service_tells_each_book_outcome_by_its_event() {
    use mnklab::search::solver::{BookOutcome, NamedBook, SolveEvent, SolveOutcome, SolveRequest, solve};
    let (book, _) = build_book(&rules("connect:5,4,4"), 4, 4, 1, |_, _| {}).unwrap();
    let run = |book: &Book, moves: &str, every_move: bool| -> (SolveOutcome, Vec<SolveEvent>) {
        let mut g = Grid::<u64, true>::new(rules("connect:5,4,4"));
        g.play_sequence(moves).unwrap();
        let request =
            SolveRequest { book: Some(NamedBook { book, name: "the book b" }), every_move, ..SolveRequest::new(false) };
        let mut events = Vec::new();
        let outcome = solve(&mut AnySolver::new(&g, 8), &g, &request, &mut |e| events.push(e));
        (outcome, events)
    };
    let at = |moves: &str| {
        let mut g = Grid::<u64, true>::new(rules("connect:5,4,4"));
        g.play_sequence(moves).unwrap();
        g
    };
    // Held with its move: answered, nothing searched.
    let (o, events) = run(&book, "", false);
    assert!(
        matches!(events.as_slice(), [SolveEvent::BookAnswered(s)] if s.lower == 0 && s.best.is_some()),
        "{events:?}"
    );
    assert_eq!((o.book, o.solution.lower, o.solution.nodes), (BookOutcome::Answered, 0, 0));
    // At the book's depth: its value checked, a move keeping it proved.
    let (o, events) = run(&book, "cdbd", false);
    let truth = strong(&at("cdbd"));
    assert!(
        matches!(
            events.as_slice(),
            [SolveEvent::BookChecking { shipped: false, .. }, SolveEvent::BookKept { shipped: false }]
        ),
        "{events:?}"
    );
    assert!(matches!(o.book, BookOutcome::Checked(BookMoveProof::Proved(m)) if o.solution.best == Some(m)), "{o:?}");
    assert_eq!(o.solution.lower, truth);
    // Not held (five stones, deeper than the book): searched.
    let (o, events) = run(&book, "cdbdc", false);
    assert_eq!(events, [SolveEvent::NotInBook { depth: 4, over: false }]);
    assert_eq!((o.book, o.solution.lower), (BookOutcome::Missing, strong(&at("cdbdc"))));
    // A value one better than the truth at the book's depth: no move keeps it, so searched.
    let edited = |moves: &str, value: i32| {
        let mut bytes = book.to_bytes();
        let entries = bytes.len() - 4 - 9 * book.len();
        let key = book_key(&at(moves));
        let i = (0..book.len()).find(|&i| bytes[entries + 9 * i..][..8] == key.to_le_bytes()).unwrap();
        bytes[entries + 9 * i + 8] = value as i8 as u8;
        let n = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..n]);
        bytes[n..].copy_from_slice(&crc.to_le_bytes());
        Book::from_bytes(&bytes, "edited.book").unwrap()
    };
    let (o, events) = run(&edited("cdbd", truth + 1), "cdbd", false);
    assert!(matches!(events.last(), Some(SolveEvent::BookWrong { why: "no move keeps", .. })), "{events:?}");
    assert_eq!((o.book, o.solution.lower), (BookOutcome::Wrong, truth));
    // The empty board's value edited: the book contradicts its moves' there, so searched.
    let (o, events) = run(&edited("", 1), "", false);
    assert_eq!(events, [SolveEvent::BookContradiction { value: 1, best: 0 }]);
    assert_eq!((o.book, o.solution.lower), (BookOutcome::Contradiction, 0));
    // Every move's value after the position's: each told, each the negated value of its child.
    let (o, events) = run(&book, "cdbd", true);
    let told: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            SolveEvent::MoveProved { mv, value, .. } => Some((*mv, value.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(Some(&told), o.moves.as_ref());
    assert_eq!(told.len(), 5);
    assert!(events.iter().any(|e| matches!(e, SolveEvent::Value(s) if s.lower == truth)), "{events:?}");
    let g = at("cdbd");
    for (m, value) in told {
        let mut child = g.clone();
        child.play(m);
        let want = if child.is_over() { None } else { Some(-strong(&child)) };
        if let Some(want) = want {
            assert_eq!(value.map(|v| v.lower), Some(want), "{}", g.format_move(m));
        }
    }
    // Words for each book event, counts left to numbers.
    assert_eq!(
        SolveEvent::BookKept { shipped: false }.words("the book b").unwrap(),
        "value from the book b, checked: a move keeping it proved, none better"
    );
    assert_eq!(SolveEvent::Value(o.solution.clone()).words("the book b"), None);
}
