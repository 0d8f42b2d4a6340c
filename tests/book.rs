//! Opening books: every value equals the solver's (itself checked against Pons' sets), the
//! file format refuses damaged, foreign and future files by name, and the solver agent gives
//! each candidate move its proven value from the book or from proofs.

use mnklab::game::{AnyPosition, Grid, Position, Variant};
use mnklab::rng::{below, seeded};
use mnklab::search::solver::{
    AnySolver, Book, BookError, SolverConfig, book_solution, build_book, builtin_book, move_values,
};
use mnklab::search::{AgentConfig, NullSink, Score, SearchControl, SearchEvent, SearchLimits, build_agent};
use mnklab::with_position;

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
}

#[test]
fn the_file_format_round_trips_and_refuses_bad_files_by_name() {
    let (book, _) = build_book(&rules("connect:4,4,3"), 4, 4, 1, |_, _| {}).unwrap();
    let dir = std::env::temp_dir().join(format!("mnklab-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    assert_eq!(Book::from_bytes(&bytes[..bytes.len() - 5], name), Err(BookError::Truncated(name.into())));
    assert_eq!(Book::from_bytes(b"(version: 1)", name), Err(BookError::NotABook(name.into())));
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
    assert!(config.validate().unwrap_err().contains("missing.book"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The solver agent's candidate rows: every move with its proven value, equal to a proof of
/// the position after it.
#[test]
fn the_solver_agent_values_every_move() {
    let dir = std::env::temp_dir().join(format!("mnklab-book-agent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c544.book");
    let (book, _) = build_book(&rules("connect:5,4,4"), 5, 16, 1, |_, _| {}).unwrap();
    book.save(&path).unwrap();
    for (game, moves, with_book) in
        [("connect:5,4,4", "33", true), ("connect:5,4,4", "3324", false), ("mnk:4,4,3", "b2", false)]
    {
        let pos = AnyPosition::from_moves(game.parse().unwrap(), moves).unwrap();
        let book = with_book.then(|| path.display().to_string());
        let config = AgentConfig::Solver(SolverConfig { book, ..Default::default() });
        let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(20.0), &SearchControl::new(), &mut NullSink));
        assert_eq!(r.root.len(), pos.legal_moves().len(), "{game} {moves}");
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
    std::fs::remove_dir_all(&dir).unwrap();
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

/// At a position with as many stones as the book's depth the book knows the value but not
/// the moves': the agent proves a move that keeps it, plays it with the book's score, and
/// says so; with no time to prove one it plays the fallback's move and names the book's
/// value instead of claiming it for that move.
#[test]
fn at_the_books_depth_the_agent_proves_a_move_keeping_the_books_value() {
    let dir = std::env::temp_dir().join(format!("mnklab-book-depth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
        assert!(said.iter().any(|t| t.starts_with("solver: value from the book")), "{moves}: {said:?}");
        let best = r.best.unwrap();
        let mut child = g.clone();
        child.play(best);
        let kept = if child.is_over() { value } else { -strong(&child) };
        assert_eq!(kept, value, "{moves}: {best:?} keeps the book's value");
        assert!(r.score.is_proven(), "{moves}: {:?}", r.score);
    }
    // No time (Connect-4 at the built-in book's depth, where proving a move takes seconds):
    // the fallback's move, and the book's value named, not claimed for it.
    let connect4 = Variant::connect4();
    let builtin = builtin_book(&connect4).unwrap();
    let moves = "4".repeat(builtin.depth as usize);
    let pos = AnyPosition::from_moves(connect4, &moves).unwrap();
    let AnyPosition::Gravity(g) = pos.clone() else { unreachable!("Connect-4 fits 64 bits") };
    let value = book_solution(&builtin, &g, false).expect("in the book").describe();
    let mut events: Vec<SearchEvent> = Vec::new();
    let config = AgentConfig::Solver(SolverConfig::default());
    let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(0.001), &SearchControl::new(), &mut events));
    let said: Vec<&String> =
        events.iter().filter_map(|e| if let SearchEvent::Info(t) = e { Some(t) } else { None }).collect();
    let named = format!("gives '{value}'");
    assert!(said.iter().any(|t| t.contains(&named) && t.contains("no move keeping it")), "{said:?}, expected {named}");
    assert!(!r.score.is_proven(), "the fallback's score is not a proof: {:?}", r.score);
    std::fs::remove_dir_all(&dir).unwrap();
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
    let pos = AnyPosition::new("mnk:4,4,3".parse().unwrap());
    let mut events: Vec<SearchEvent> = Vec::new();
    let r = with_position!(&pos, p => build_agent(&config, 1).search(p, &SearchLimits::time(20.0), &SearchControl::new(), &mut events));
    assert!(r.best.is_some());
    assert!(
        events.iter().any(|e| matches!(e, SearchEvent::Notice(t) if t.contains("threads 2: only the Connect-X") && t.ends_with("proving on one thread"))),
        "{events:?}"
    );
}
