//! `mnklab solve`: the exact value of a position, or of every line of a Pons-format file.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use mnklab::game::{AnyPosition, Move, Position};
use mnklab::search::solver::{
    AnySolver, Batch, BatchReport, Book, BookMoveProof, BookOutcome, Halt, NamedBook, Solution, SolveOutcome,
    SolveRequest, solve, solve_batch,
};
use mnklab::with_position;

use super::{PositionArgs, parse_seconds, parse_table_mb};

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Prove only win, draw or loss (faster).
    #[arg(long)]
    weak: bool,
    /// Give up after this many seconds and print the bounds proved.
    #[arg(long, value_parser = parse_seconds, allow_negative_numbers = true)]
    time: Option<f64>,
    /// Table size in MiB [default: 8, for one position and for every line of a batch: a table
    /// that stays in the cache beats a larger one; see docs/solver.md]. With
    /// `--method pns`: the tree's memory [default: 2048], beside which come the table of
    /// solved positions (about 10 bytes each, kept across restarts) and the threat table (up
    /// to an eighth more). With `--method threats`: the threat table [default: 256]. With
    /// `--method race`: alphabeta's table (pns keeps its default).
    #[arg(long, value_parser = parse_table_mb)]
    tt_mb: Option<u32>,
    /// Solve every line of a file in Pons' benchmark format ("<moves> <score>", moves from the
    /// start), printing "<moves> <score>" for each and checking it against the file's score.
    /// (Flags that apply to one position conflict with it, said by clap.)
    #[arg(long, conflicts_with_all = ["book", "check", "no_pairings", "every_move", "moves", "open"])]
    batch: Option<PathBuf>,
    /// How to prove: `alphabeta` (null-window negamax; strong or weak), `pns` (proof-number
    /// search; weak only: win, draw or loss), which finds narrow proofs such as the draws of
    /// free-placement boards, or `threats` (threat-space search: does the side to move win by
    /// a sequence of fours and threes? Free placement, K or more in a row; a failure proves
    /// nothing), or `dbs` (the same question by Allis' dependency-based search: a plan found
    /// with the defender on every cost square at once, then verified by the sound search), or
    /// `race` (alphabeta and pns at once on two threads, weak: the first proof answers and the
    /// other is stopped; pns is often far faster on wins and losses of free-placement boards,
    /// alphabeta on draws. --tt-mb sizes alphabeta's table, pns keeps its 2048 MiB).
    #[arg(long, default_value = "alphabeta")]
    method: SolveMethod,
    /// An opening book (`mnklab book`): positions it holds are answered from it at once.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Check a draw again by an explicit proof, for each side, that it cannot make a line,
    /// built without the solver's shortcuts: every move of that side followed, one reply of
    /// the other, each leaf a pairing or a potential bound recomputed from the stones. Wins
    /// and losses are not checked. Free placement and `--method alphabeta` only. Prints the
    /// proof's size.
    #[arg(long)]
    check: bool,
    /// Leave out the pairing test on free-placement boards, with `--method alphabeta`, `pns`
    /// or `race` (an ablation: the value is the same, the nodes and time show what pairings
    /// save or cost).
    #[arg(long)]
    no_pairings: bool,
    /// `--method pns` or `race`: leave out the threat-space search at proof-number search's
    /// leaves (an ablation, as `--no-pairings`).
    #[arg(long)]
    no_threats: bool,
    /// `--method threats`: the most attacker moves (threats, and blocks it is forced to make)
    /// before the winning one, searched 1, 2, ... up to this, so the shortest win found comes
    /// first [default: 12].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    threat_depth: Option<u32>,
    /// `--method dbs`: the most stages (the first dependency stage, then each combination
    /// stage with its dependency stage) [default: 6].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    stages: Option<u32>,
    /// `--method dbs`: leave out the probe before the stages (the sound threat search alone,
    /// a few attacker moves and a few thousand nodes), so that any win found comes from a plan
    /// (an ablation: the probe finds short wins faster; the stages usually find them too, but
    /// they leave out threats whose cost squares give the defender a four, so a short win may
    /// be the probe's alone).
    #[arg(long)]
    no_probe: bool,
    /// Search each probe of one position on this many threads sharing the table (the default
    /// method on Connect-X boards with (width + 2) x (height + 1) < 64): "nodes" then counts
    /// every thread's. Worth it for long solves only (starting threads costs about 0.1 ms a
    /// probe).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
    /// After the position's value, every legal move's proven value for the side to move (what
    /// the workbench's solver shows per candidate), over the same table, within --time; the
    /// default method or --method race.
    #[arg(long)]
    every_move: bool,
}

/// The proof procedure of `mnklab solve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolveMethod {
    Alphabeta,
    Pns,
    Threats,
    Dbs,
    Race,
}

pub fn run(args: SolveArgs) -> Result<(), String> {
    let pos = args.position.position()?;
    if let Some(why) = mnklab::search::solver::unsupported(&pos.variant()) {
        return Err(why);
    }
    check_flags(&args, &pos)?;
    if args.method == SolveMethod::Threats || args.method == SolveMethod::Dbs {
        return threats(&pos, &args);
    }
    if let Some(path) = &args.batch {
        let table_mb = args.tt_mb.unwrap_or(DEFAULT_TABLE_MB);
        let r = batch(&pos, path, args.weak, table_mb, None, |line| println!("{line}"))?;
        println!(
            "solved {} positions, mean {:.1} us, mean {:.0} nodes, table {}",
            r.positions,
            r.mean_us,
            r.mean_nodes,
            mib(r.table_bytes)
        );
        println!("{}", r.verdict().map_err(|e| e.to_string())?);
        return Ok(());
    }
    // (`--method race --every-move` answers a finished game as the default method does.)
    if (args.method == SolveMethod::Pns || (args.method == SolveMethod::Race && !args.every_move))
        && pos.status().is_over()
    {
        // Nothing to prove: say so as the default method does.
        let s = with_position!(&pos, p => AnySolver::new(p, 1).solve(p, true, None, None));
        print_solution(&pos, &s);
        return Ok(());
    }
    if args.method == SolveMethod::Pns {
        return proof_number(&pos, &args);
    }
    if args.method == SolveMethod::Race && !args.every_move {
        return race(&pos, &args);
    }
    // `--method race --every-move`: each proof raced, on boards of the generic solver. On
    // boards of the Connect-X solver, the faster there, it answers alone (as docs/solver.md's
    // usage says), each move by the default method.
    let racing = args.method == SolveMethod::Race && !with_position!(&pos, p => AnySolver::is_connect(p));
    if args.method == SolveMethod::Race && !racing {
        eprintln!(
            "--method race --every-move: {} is proved by the Connect-X solver alone (the faster there), as the default method does",
            pos.variant()
        );
    }
    exact(&pos, &args, racing)
}

/// The flags' combinations that depend on the method's value or on the board, which clap's
/// `conflicts_with` (presence only) cannot say; each refused by name, up front rather than
/// ignored (a user who asked for a check must get one).
fn check_flags(args: &SolveArgs, pos: &AnyPosition) -> Result<(), String> {
    if args.check {
        if args.method != SolveMethod::Alphabeta {
            return Err(
                "--check re-proves a draw of one position solved by --method alphabeta (the default): leave out --method"
                    .into(),
            );
        }
        if pos.variant().has_gravity() {
            return Err(format!(
                "--check needs free placement ({} has gravity: a player cannot answer in any cell)",
                pos.variant()
            ));
        }
    }
    if args.no_pairings {
        if pos.variant().has_gravity() {
            return Err(format!("--no-pairings: {} has gravity, where the solver never uses pairings", pos.variant()));
        }
        if with_position!(&pos, p => p.max_game_length()) > 128 {
            return Err(format!(
                "--no-pairings: {} has more than 128 cells, where the solver never uses pairings",
                pos.variant()
            ));
        }
    }
    if args.threat_depth.is_some() && args.method == SolveMethod::Dbs {
        return Err("--threat-depth bounds --method threats; --method dbs is bounded by --stages".into());
    }
    if args.threat_depth.is_some() && args.method != SolveMethod::Threats {
        return Err(
            "--threat-depth bounds --method threats: add --method threats (inside --method pns the depth is fixed)"
                .into(),
        );
    }
    if args.no_threats && args.method != SolveMethod::Pns && args.method != SolveMethod::Race {
        return Err(
            "--no-threats turns off the threat-space search inside proof-number search: add --method pns (or race)"
                .into(),
        );
    }
    if args.no_threats && !with_position!(&pos, p => mnklab::search::solver::threats_apply(p)) {
        return Err(format!(
            "--no-threats: {} is not free placement with the K-or-more rule, where threat-space search is never used",
            pos.variant()
        ));
    }
    if args.threads > 1 && args.batch.is_some() {
        return Err(
            "--threads solves one position: leave out --batch (a batch's times are the benchmark against one-thread solvers)"
                .into(),
        );
    }
    if args.threads > 1 && args.method != SolveMethod::Alphabeta {
        return Err("--threads works with --method alphabeta (the default): leave out --method".into());
    }
    if args.stages.is_some() && args.method != SolveMethod::Dbs {
        return Err("--stages bounds --method dbs: add --method dbs".into());
    }
    if args.no_probe && args.method != SolveMethod::Dbs {
        return Err("--no-probe leaves out --method dbs's probe: add --method dbs".into());
    }
    // Each conflict named as given: one message for both would name --batch to a user who
    // gave only --method pns.
    if args.every_move && !matches!(args.method, SolveMethod::Alphabeta | SolveMethod::Race) {
        let method =
            clap::ValueEnum::to_possible_value(&args.method).map_or(String::new(), |v| v.get_name().to_string());
        return Err(format!(
            "--every-move proves each move by the default method or --method race, not {method}: leave out --method {method}"
        ));
    }
    if args.every_move && args.method == SolveMethod::Race && args.no_threats {
        return Err(
            "--no-threats: --method race --every-move keeps proof-number search's threats: leave out --no-threats"
                .into(),
        );
    }
    if args.method == SolveMethod::Pns || args.method == SolveMethod::Race {
        let method = if args.method == SolveMethod::Pns { "pns" } else { "race" };
        if args.batch.is_some() {
            return Err(format!("--method {method} solves one position: leave out --batch"));
        }
        if args.book.is_some() {
            return Err(format!("--method {method} does not read books: leave out --book (the default method does)"));
        }
    }
    Ok(())
}

/// `--method pns`: proof-number search's weak value and the runs it took.
fn proof_number(pos: &AnyPosition, args: &SolveArgs) -> Result<(), String> {
    let memory = args.tt_mb.unwrap_or(PNS_DEFAULT_MB) as usize;
    let deadline = args.time.map(|t| Instant::now() + Duration::from_secs_f64(t));
    if args.time.is_none() {
        // It prints nothing until it ends: said first, or a run of minutes looks hung.
        eprintln!(
            "proof-number search with no --time: it runs until the value is proved or its {memory} MiB are full, \
             and prints only then (Ctrl-C stops it; --time S bounds it)"
        );
    }
    let (value, runs) = with_position!(pos, p => {
        mnklab::search::solver::proof_number_value_with(
            p,
            memory,
            deadline,
            None,
            mnklab::search::solver::Leaves { pairings: !args.no_pairings, threats: !args.no_threats },
        )
    });
    print_proof(pos, value, &runs);
    Ok(())
}

/// The default method, and `--method race --every-move` (`racing`: each proof raced, alpha-beta
/// against proof-number search, strong unless `--weak`): the value by the solve service, from
/// `--book` where it holds the position, every move's value if asked, then `--check`.
fn exact(pos: &AnyPosition, args: &SolveArgs, racing: bool) -> Result<(), String> {
    let book = match &args.book {
        Some(path) => {
            let book = Book::load(path).map_err(|e| e.to_string())?;
            book.check_game(&pos.variant(), &path.display().to_string()).map_err(|e| e.to_string())?;
            Some((book, format!("the book {}", path.display())))
        }
        None => None,
    };
    // `--time` bounds the whole command: what the solve leaves is the moves' and the check's.
    let start = Instant::now();
    let deadline = args.time.map(|t| start + Duration::from_secs_f64(t));
    let request = SolveRequest {
        weak: args.weak,
        book: book.as_ref().map(|(book, name)| NamedBook { book, name }),
        every_move: args.every_move,
        start,
        halt: Halt { deadline, stop: None },
        fresh_table: true,
        progress: false,
    };
    let table_mb = args.tt_mb.unwrap_or(DEFAULT_TABLE_MB) as usize;
    let mut said = Vec::new();
    let name = book.as_ref().map_or("", |(_, name)| name.as_str());
    let outcome = with_position!(pos, p => {
        let solver = AnySolver::new(p, table_mb);
        let mut solver = if racing {
            solver.racing(PNS_DEFAULT_MB as usize)
        } else {
            solver
                .with_threads(args.threads as usize)
                .map_err(|why| format!("--threads {}: {why}; leave out --threads", args.threads))?
        };
        if args.no_pairings {
            solver = solver.without_pairings();
        }
        Ok::<_, String>(solve(&mut solver, p, &request, &mut |event| said.extend(event.words(name))))
    })?;
    let s = &outcome.solution;
    let shipped = book.as_ref().is_some_and(|(b, _)| b.is_shipped());
    if outcome.book == BookOutcome::Checked(BookMoveProof::Stopped) && !shipped {
        // Not "value ...": a book file's value is unchecked until a move keeps it and none
        // does better.
        let weak = if s.weak { ", weak" } else { "" };
        println!(
            "unconfirmed: the book gives {} (score {}{weak}); the searches checking it did not finish within --time",
            s.describe(),
            s.lower
        );
        print_counts(s);
    } else {
        print_solution(pos, s);
    }
    if racing {
        print_race_sign(&outcome, args.weak);
    }
    // Worded as the workbench words them.
    for line in said {
        println!("solver: {line}");
    }
    let from_book = matches!(outcome.book, BookOutcome::Answered | BookOutcome::Checked(_));
    if let Some((book, _)) = book.as_ref().filter(|_| from_book) {
        println!("the book: depth {}, {}", book.depth, super::plural(book.len(), "position"));
    }
    let why = if from_book {
        "the book's value was not checked within --time"
    } else {
        "the position's own proof did not finish"
    };
    print_every_move(pos, &outcome, args.every_move, why);
    if racing {
        let open = outcome.moves.iter().flatten().filter(|(_, p)| p.as_ref().is_some_and(|p| p.weak)).count();
        if open > 0 && !args.weak {
            println!("{}: their signs are proved, their distances not within --time", super::plural(open, "move"));
        }
        println!("race: each proof by alpha-beta and proof-number search at once, a thread each; the nodes are both's");
    }
    // Threads only where a search ran (a book alone answers on none).
    print_threads(args.threads, outcome.book != BookOutcome::Answered || outcome.moves_nodes > 0);
    if args.check {
        check_draw(pos, s, deadline)?;
    }
    Ok(())
}

/// A racing solve's words on a win's or loss's sign proved first by proof-number search.
fn print_race_sign(outcome: &SolveOutcome, weak: bool) {
    let s = &outcome.solution;
    if outcome.distance_from_moves {
        println!(
            "proof-number search proved the sign first; the distance is the best move's, from the moves' proofs below"
        );
    } else if s.weak && !weak && s.over.is_none() {
        println!("proof-number search proved the sign first; the distance is not proved (the moves' may be, below)");
    }
}

/// Prints `--every-move`'s rows with their proofs' nodes and seconds, or why there are none
/// (`why`, when they were not made).
fn print_every_move(pos: &AnyPosition, outcome: &SolveOutcome, asked: bool, why: &str) {
    if !asked {
        return;
    }
    match &outcome.moves {
        _ if pos.status().is_over() => println!("no move's value: the game is over"),
        Some(proofs) => {
            for (m, proved) in proofs {
                match proved {
                    // A weak row's score is the sign of the strong one: said, as on the value's line.
                    Some(v) => {
                        let weak = if v.weak { ", weak" } else { "" };
                        println!("move {} {} (score {}{weak})", pos.format_move(*m), v.describe(), v.lower);
                    }
                    None => println!("move {} not proved within --time", pos.format_move(*m)),
                }
            }
            println!("moves' proofs: nodes {} time {:.3} s", outcome.moves_nodes, outcome.moves_seconds);
        }
        None => println!("no move's value: {why}"),
    }
}

/// The threads a search ran on, when more than one and a search ran (`searched`).
fn print_threads(threads: u32, searched: bool) {
    if threads > 1 && searched {
        println!("threads {threads} (the nodes are all of theirs)");
    }
}

/// `--method threats`: iterative deepening of a threat-space search for the side to move.
fn threats(pos: &AnyPosition, args: &SolveArgs) -> Result<(), String> {
    use mnklab::search::solver::{ThreatSearch, threats_apply};
    let method = if args.method == SolveMethod::Dbs { "dbs" } else { "threats" };
    let given: Vec<&str> = [
        (args.batch.is_some(), "--batch"),
        (args.book.is_some(), "--book"),
        (args.no_pairings, "--no-pairings"),
        (args.weak, "--weak"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    if !given.is_empty() {
        return Err(format!(
            "--method {method} searches one position for a win by threats: leave out {}",
            given.join(" and ")
        ));
    }
    if !with_position!(pos, p => threats_apply(p)) {
        return Err(format!(
            "--method {method} needs free placement and the K-or-more rule ({} has {})",
            pos.variant(),
            if pos.variant().has_gravity() { "gravity" } else { "the exactly-K rule" }
        ));
    }
    if pos.status().is_over() {
        return Err("the game is over: there is no threat to search".into());
    }
    if args.method == SolveMethod::Dbs {
        if args.tt_mb.is_some() {
            return Err("--tt-mb: --method dbs keeps no table (--stages and --time bound it): leave out --tt-mb".into());
        }
        return dependency_based(pos, args);
    }
    let me = pos.side_to_move();
    let start = std::time::Instant::now();
    let deadline = args.time.map(|t| start + Duration::from_secs_f64(t));
    let table_mb = args.tt_mb.unwrap_or(THREATS_DEFAULT_MB) as usize;
    let mut search = ThreatSearch::new(0).with_deadline(deadline).with_table_mb(table_mb);
    let mut board = with_position!(pos, p => mnklab::eval::EvalBoard::new(p, |_, _, _| 0).with_near_windows());
    let mut reached = 0;
    let found = with_position!(pos, p => {
        let mut p = p.clone();
        let mut found = None;
        for depth in 1..=args.threat_depth.unwrap_or(12) {
            if let Some(win) = search.winning_line(&mut p, &mut board, me, depth) {
                let line: Vec<String> = win
                    .line
                    .iter()
                    .map(|&(c, role)| format!("{} ({})", p.format_move(p.cell_move(c).expect("empty cell")), role.name()))
                    .collect();
                found = Some((depth, line, win.every_reply_loses));
                break;
            }
            if search.aborted() {
                break;
            }
            reached = depth;
        }
        found
    });
    let secs = start.elapsed().as_secs_f64();
    match found {
        Some((depth, line, every_reply_loses)) => {
            let moves = if depth == 1 { "move" } else { "moves" };
            println!(
                "the {me} player (to move) wins by threats, found with at most {depth} attacker {moves} \
                 (threats and forced blocks) before the last"
            );
            println!(
                "line (its moves, and the first reply searched after each): {}{}",
                line.join(" "),
                if every_reply_loses { "; then no reply stops every move making two fours" } else { "" }
            );
        }
        None if search.aborted() => println!(
            "no win by threats within {reached} attacker moves; stopped by --time while searching {}: this proves nothing about the value",
            reached + 1
        ),
        None => println!(
            "no win by threats within {reached} attacker moves for the {me} player: this proves nothing about the value (a quiet move may still win)"
        ),
    }
    println!("{} nodes, table {}, {:.3} s", search.nodes, mib(search.table_bytes()), secs);
    Ok(())
}

/// `--method dbs`: Allis' dependency-based search for the side to move, its plan verified.
fn dependency_based(pos: &AnyPosition, args: &SolveArgs) -> Result<(), String> {
    use mnklab::search::solver::{DB_PROBE_DEPTH, DbEnd, DbSearch};
    let me = pos.side_to_move();
    let start = std::time::Instant::now();
    let deadline = args.time.map(|t| start + Duration::from_secs_f64(t));
    let stages = args.stages.unwrap_or(6);
    let mut search = DbSearch::new(0).with_deadline(deadline);
    if args.no_probe {
        search = search.without_probe();
    }
    let mut board = with_position!(pos, p => mnklab::eval::EvalBoard::new(p, |_, _, _| 0).with_near_windows());
    let result = with_position!(pos, p => {
        let mut p = p.clone();
        search.winning_line(&mut p, &mut board, stages).map(|win| {
            // Every cell of the plan and the line is empty in the position searched.
            let name = |c: usize| p.format_move(p.cell_move(c).expect("an empty cell"));
            let plan: Vec<String> = win.plan.iter().map(|&c| name(c as usize)).collect();
            let line: Vec<String> =
                win.line.line.iter().map(|&(c, role)| format!("{} ({})", name(c), role.name())).collect();
            (win.stage, plan, line, win.line.every_reply_loses, win.probe)
        })
    });
    let secs = start.elapsed().as_secs_f64();
    let proved = |line: &[String], every_reply_loses: bool| {
        println!(
            "line (proved; its moves, and the first reply searched after each): {}{}",
            line.join(" "),
            if every_reply_loses { "; then no reply stops every move making two fours" } else { "" }
        )
    };
    match result {
        Ok((_, _, line, every_reply_loses, true)) => {
            println!(
                "the {me} player (to move) wins by threats: the probe before the stages (the sound threat search alone, \
                 up to {DB_PROBE_DEPTH} attacker moves) proved the line below; no plan was needed"
            );
            proved(&line, every_reply_loses);
        }
        Ok((_, plan, line, _, _)) if plan.is_empty() => {
            println!("the {me} player (to move) wins at once: {}", line.join(" "));
        }
        Ok((stage, plan, line, every_reply_loses, _)) => {
            let moves = if plan.len() == 1 { "move" } else { "moves" };
            println!(
                "the {me} player (to move) wins by threats: dependency-based search found a plan of {} attacker \
                 {moves} in stage {stage}, and the sound threat search, its attacker given the plan's moves and any \
                 four, proved the line below",
                plan.len()
            );
            proved(&line, every_reply_loses);
            println!(
                "plan it came from (the defender on every cost square at once; not proved as it stands, and the line \
                 may leave it): {}",
                plan.join(" ")
            );
        }
        Err(DbEnd::DefenderFour) => println!(
            "the {} player has a four on the board: the {me} player must block it first, and dependency-based search \
             starts from positions without one (--method threats plays the block)",
            me.other()
        ),
        Err(DbEnd::Stopped) => println!(
            "no win found; stopped by --time ({} plans refuted by the sound search): this proves nothing about the value",
            search.refuted
        ),
        Err(DbEnd::Stages) => println!(
            "no win found within {stages} {} (--stages), with nodes still to combine ({} plans refuted by the sound \
             search): this proves nothing about the value",
            if stages == 1 { "stage" } else { "stages" },
            search.refuted
        ),
        Err(DbEnd::Exhausted) => println!(
            "no win found for the {me} player: every stage ran to the end, {}; this proves nothing about the value \
             (a threat this search does not combine, or a quiet move, may still win)",
            match search.plans {
                0 => "and no plan was found".to_string(),
                1 => "and the one plan found was refuted by the sound search".to_string(),
                n => format!("and all {n} plans found were refuted by the sound search"),
            }
        ),
    }
    println!(
        "{} nodes of the stages (threats applied and combinations), {} moves tried, {} {} checked ({} refuted), \
         {} nodes of the sound search, nodes' memory {}, {:.3} s",
        search.nodes,
        search.tried,
        search.plans,
        if search.plans == 1 { "plan" } else { "plans" },
        search.refuted,
        search.verify_nodes,
        mib(search.peak_bytes),
        secs
    );
    Ok(())
}

/// `--check`: a draw proved again, explicitly, as "neither side can make a line". Wins and
/// losses are not checked: the loser's side of such a proof must follow every move until the
/// winner's line ends the game, which grows without bound (mnk:6,6,4 passed 1.2 GB in 4 min).
fn check_draw(pos: &AnyPosition, s: &Solution, deadline: Option<std::time::Instant>) -> Result<(), String> {
    use mnklab::search::solver::{DrawProofError, prove_no_line};
    if s.over.is_some() {
        return Err("--check: the game is over, there is nothing to check".into());
    }
    if !s.is_solved() {
        return Err("--check: the time ran out before the value was proved, so there is nothing to check".into());
    }
    if s.lower != 0 {
        println!("check: only draws are checked (a win or loss rests on the solver alone)");
        return Ok(());
    }
    let me = pos.side_to_move();
    for maker in [me, me.other()] {
        let start = std::time::Instant::now();
        match with_position!(pos, p => prove_no_line(p, maker, deadline)) {
            Ok(proof) => println!(
                "check: the {} player cannot make a line: proof of {} nodes (positions of that player to move: {}, \
                 replies: {}, leaves: {} pairings, {} potential bounds, {} ends), checked in {:.3} s",
                maker,
                proof.size(),
                proof.maker_nodes,
                proof.breaker_nodes,
                proof.pairing_leaves,
                proof.potential_leaves,
                proof.ended_leaves,
                start.elapsed().as_secs_f64()
            ),
            Err(e @ (DrawProofError::Stopped(_) | DrawProofError::TooLarge(_))) => {
                return Err(format!("check not finished for the {maker} player: {e}; the value stands unchecked"));
            }
            Err(e) => return Err(format!("check refuted for the {maker} player: {e}")),
        }
    }
    Ok(())
}

/// Tree memory of a proof-number search when `--tt-mb` is not given.
pub const PNS_DEFAULT_MB: u32 = mnklab::search::solver::PNS_DEFAULT_MB as u32;
/// `solve --method threats`: the threat table's MiB.
pub const THREATS_DEFAULT_MB: u32 = 256;

/// The move the proof-number searches proved to keep the value, or why there is none.
fn print_proof_move(pos: &AnyPosition, value: Option<i32>, runs: &[mnklab::search::solver::ProofOutcome]) {
    if let Some(m) = mnklab::search::solver::proof_number_move(value, runs) {
        println!("bestmove {}", pos.format_move(m));
    } else if value == Some(0) && runs.len() == 1 {
        println!(
            "no move proved: the first player cannot lose from the empty board by strategy stealing, no move searched"
        );
    } else if matches!(value, Some(0 | 1)) {
        // The root's own checks (a threat sequence, pairings, a win at once) settled it.
        println!("no move proved: the value was settled at the root, without a search tree");
    }
}

/// `--method race`: alpha-beta and proof-number search at once, the first proof answering.
/// The position is not over (checked by the caller).
fn race(pos: &AnyPosition, args: &SolveArgs) -> Result<(), String> {
    let deadline = args.time.map(|t| std::time::Instant::now() + Duration::from_secs_f64(t));
    let table_mb = args.tt_mb.unwrap_or(DEFAULT_TABLE_MB) as usize;
    let leaves = mnklab::search::solver::Leaves { pairings: !args.no_pairings, threats: !args.no_threats };
    if args.time.is_none() {
        // It prints nothing until it ends, as --method pns: said first, or a run of minutes
        // looks hung.
        eprintln!(
            "race with no --time: it runs until one method proves the value (proof-number search \
             stops when its {PNS_DEFAULT_MB} MiB are full), and prints only then (Ctrl-C stops it; --time S bounds it)"
        );
    }
    let r = with_position!(pos, p => {
        mnklab::search::solver::race_weak_value(p, table_mb, PNS_DEFAULT_MB as usize, leaves, deadline, None)
    });
    if r.conflict {
        return Err(format!(
            "alpha-beta and proof-number search proved different values ({} and {:?}): a bug, please report it with the position",
            r.alphabeta.lower, r.proof_number.0
        ));
    }
    use mnklab::search::solver::RaceWinner;
    let (ab, (pn_value, runs)) = (&r.alphabeta, &r.proof_number);
    let pn_nodes: u64 = runs.iter().map(|x| x.nodes).sum();
    match r.winner {
        Some(RaceWinner::AlphaBeta) => print_solution(pos, ab),
        Some(RaceWinner::ProofNumber) => {
            // Proof-number search was stopped while it sought its move for a root its
            // knowledge settled (alpha-beta having answered too): alpha-beta's move keeps the
            // same proved sign (the race refuses values that differ, above).
            let other = ab.best.filter(|_| ab.is_solved()).map(|m| (m, "alpha-beta's, which proved the same sign"));
            print_proof_with(pos, *pn_value, runs, other)
        }
        None => println!(
            "unsolved: neither method proved the value{} (alpha-beta's proven bounds {}..{}, weak)",
            if deadline.is_some() { " within --time" } else { "" },
            ab.lower.clamp(-1, 1),
            ab.upper.clamp(-1, 1)
        ),
    }
    let nodes = |n: u64| if n == 1 { "1 node".to_string() } else { format!("{n} nodes") };
    let said = |solved: bool, first: bool| match (solved, first) {
        (true, true) => "answered first",
        (true, false) => "answered too",
        (false, _) => "stopped",
    };
    println!(
        "race: alpha-beta {} after {} and {:.3} s; proof-number search {} after {} and {:.3} s; {:.3} s in all",
        said(ab.is_solved(), r.winner == Some(RaceWinner::AlphaBeta)),
        nodes(ab.nodes),
        ab.elapsed,
        said(pn_value.is_some(), r.winner == Some(RaceWinner::ProofNumber)),
        nodes(pn_nodes),
        runs.iter().map(|x| x.elapsed).sum::<f64>(),
        r.elapsed
    );
    Ok(())
}

fn print_proof(pos: &AnyPosition, value: Option<i32>, runs: &[mnklab::search::solver::ProofOutcome]) {
    print_proof_with(pos, value, runs, None)
}

/// [`print_proof`], with `other` a move another proof of the same value found (a race's
/// alpha-beta), printed where proof-number search was stopped before proving one.
fn print_proof_with(
    pos: &AnyPosition,
    value: Option<i32>,
    runs: &[mnklab::search::solver::ProofOutcome],
    other: Option<(Move, &str)>,
) {
    match value {
        Some(1) => println!("value win (score 1, weak, proof-number search)"),
        Some(0) => println!("value draw (score 0, weak, proof-number search)"),
        Some(_) => println!("value loss (score -1, weak, proof-number search)"),
        None => {
            use mnklab::search::solver::ProofEnd;
            let why = match runs.last().map(|r| r.ended) {
                Some(ProofEnd::Deadline) => "the time (--time) ran out".to_string(),
                Some(ProofEnd::Stopped) => "it was stopped".to_string(),
                Some(ProofEnd::MemoryFull) => format!(
                    "its tree filled its memory ({} with its tables) without solving a position it had \
                     not solved before (more memory: --tt-mb)",
                    mib(runs.last().map_or(0, |r| r.peak_bytes))
                ),
                Some(ProofEnd::Answered) | None => "it ended".to_string(),
            };
            println!("unsolved: the proof-number search stopped before an answer: {why}")
        }
    }
    match other.filter(|_| mnklab::search::solver::proof_number_move(value, runs).is_none()) {
        Some((m, by)) => println!("bestmove {} ({by})", pos.format_move(m)),
        None => print_proof_move(pos, value, runs),
    }
    for r in runs {
        let answer = match r.proved {
            Some(true) => "proved",
            None => "unknown",
            Some(false) => "disproved",
        };
        // After a restart, positions solved in a dropped tree are leaves of one node here.
        let partial = if r.restarts > 0 && r.proved.is_some() { " (partial: trees dropped by restarts)" } else { "" };
        // No proof where the question was not answered (it read "proof size 0").
        let size = if r.proved.is_some() { r.proof_size.to_string() } else { "- (no answer)".into() };
        println!(
            "{} player wins: {answer}; nodes {} expanded {} proof size {size}{partial} peak tree {} nodes, \
             memory (tree and tables) {} restarts {} threat wins {} of {} leaves tried, threat nodes {}, time {:.3} s",
            r.target,
            r.nodes,
            r.expansions,
            r.peak_nodes,
            mib(r.peak_bytes),
            r.restarts,
            r.threat_wins,
            r.threat_tests,
            r.threat_nodes,
            r.elapsed
        );
    }
}

/// A solve's counts line: its nodes, seconds and table.
fn print_counts(s: &Solution) {
    println!("nodes {} time {:.3} s table {}", s.nodes, s.elapsed, mib(s.memory));
}

fn print_solution(pos: &AnyPosition, s: &Solution) {
    let weak = if s.weak { ", weak" } else { "" };
    if s.over.is_some() {
        // Nothing to search: the result itself, and its value for the side to move.
        println!("value {} (score {} for the side to move{weak})", s.describe(), s.lower);
    } else if s.is_solved() {
        println!("value {} (score {}{weak})", s.describe(), s.lower);
        if let Some(m) = s.best {
            println!("bestmove {}", pos.format_move(m));
        }
    } else {
        let (lo, hi) = mnklab::with_position!(pos, p => s.bounds_as_scores(p));
        let so_far = mnklab::search::so_far_label(&lo, &hi);
        println!("time ran out after {:.3} s: {so_far} (score between {} and {}{weak})", s.elapsed, s.lower, s.upper);
    }
    print_counts(s);
}

/// The table of a solve and of each line of a batch, in MiB, when `--tt-mb` is not given. The
/// Connect-X table keeps the costliest entry of each bucket (see `SolverTable`), so a table
/// that mostly stays in the cache wins: Connect-4 from the empty board, weak, took 39 s with
/// 8 MiB, 45 s with 16 and 73 s with 64 (fewer nodes, each a cache miss more often).
pub const DEFAULT_TABLE_MB: u32 = 8;

/// A byte count in MiB to two decimals, without them when they are zeros ("256 MiB",
/// "8 MiB", "0.50 MiB", "9.38 MiB").
pub fn mib(bytes: u64) -> String {
    // Some memory is not none: a few KiB read "0 MiB".
    if bytes > 0 && bytes < 5 * 1024 * 1024 / 1000 {
        return "< 0.01 MiB".into();
    }
    let m = format!("{:.2}", bytes as f64 / (1024.0 * 1024.0));
    format!("{} MiB", m.strip_suffix(".00").unwrap_or(&m))
}

/// Solves every line of the Pons-format file at `path` from the start of `start`'s game (see
/// [`solve_batch`]), the first `limit` lines of it; `out` hears "<moves> <score>" per line.
pub fn batch(
    start: &AnyPosition,
    path: &Path,
    weak: bool,
    table_mb: u32,
    limit: Option<usize>,
    out: impl FnMut(String),
) -> Result<BatchReport, String> {
    let text = mnklab::io::read_bounded(path, 1 << 30).map_err(|e| e.to_string())?;
    let source_name = path.display().to_string();
    let batch = Batch { text: &text, source_name: &source_name, weak, table_mb, limit };
    with_position!(start, p => solve_batch(p, batch, out)).map_err(|e| e.to_string())
}
