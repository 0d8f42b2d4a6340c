//! `mnklab suite`: a position suite with proven move values for accuracy experiments,
//! sampled from games of varied agents and labelled by the solver.

use std::path::PathBuf;

use clap::Args;
use mnklab::arena::accuracy::{SuiteSpec, make_suite, save_suite};
use mnklab::game::Variant;

use super::{parse_count, parse_seconds, parse_variant};

#[derive(Args)]
pub struct SuiteArgs {
    /// The board: connect4, connect:M,N,K, mnk:M,N,K, tictactoe (boards the solver settles).
    #[arg(long, value_parser = parse_variant)]
    game: Variant,
    /// Positions wanted.
    #[arg(long, value_parser = parse_count, default_value = "1000")]
    positions: u64,
    /// Seed of the sampling games and of which positions are taken.
    #[arg(long, default_value = "1")]
    seed: u64,
    /// Seconds the solver may take to label one position (a position not labelled in time
    /// is left out, and counted).
    #[arg(long, value_parser = parse_seconds, default_value = "5")]
    solver_seconds: f64,
    /// Positions taken from one game at most.
    #[arg(long, value_parser = parse_count, default_value = "3")]
    per_game: u64,
    /// The suite file to write (RON).
    #[arg(long)]
    out: PathBuf,
    /// Write over an existing file.
    #[arg(long)]
    force: bool,
}

pub fn run(args: SuiteArgs) -> Result<(), String> {
    mnklab::io::check_output(&args.out, args.force).map_err(|e| format!("--out: {e}"))?;
    let spec = SuiteSpec {
        board: args.game,
        positions: args.positions as usize,
        seed: args.seed,
        solver_seconds: args.solver_seconds,
        per_game: args.per_game as usize,
    };
    let started = std::time::Instant::now();
    let mut last = 0.0;
    let (suite, counts) = make_suite(&spec, |kept, c| {
        let now = started.elapsed().as_secs_f64();
        if now - last >= 2.0 {
            last = now;
            eprintln!("{kept} of {} positions from {} games ({now:.0} s)", spec.positions, c.games);
        }
    })
    .map_err(|e| e.to_string())?;
    save_suite(&args.out, &suite).map_err(|e| e.to_string())?;
    let tactic = suite.positions.iter().filter(|p| p.tactic).count();
    println!(
        "wrote {}: {} positions of {} from {} games ({} decided by a one-ply tactic); left out: {} twins under \
         symmetry, {} with no choice to get wrong, {} not labelled in {} s",
        args.out.display(),
        suite.positions.len(),
        suite.board,
        counts.games,
        tactic,
        counts.twins,
        counts.no_choice,
        counts.unlabelled,
        args.solver_seconds
    );
    print_distribution(&suite);
    Ok(())
}

/// The plies the positions were taken at and how many moves keep each one's value.
fn print_distribution(suite: &mnklab::arena::accuracy::Suite) {
    let mut plies = std::collections::BTreeMap::<usize, usize>::new();
    let mut keepers = std::collections::BTreeMap::<usize, usize>::new();
    for p in &suite.positions {
        *plies.entry(p.moves.len()).or_default() += 1;
        *keepers.entry(p.keepers()).or_default() += 1;
    }
    let line = |m: &std::collections::BTreeMap<usize, usize>| {
        m.iter().map(|(k, n)| format!("{k}:{n}")).collect::<Vec<_>>().join(" ")
    };
    println!("plies (ply:positions): {}", line(&plies));
    println!("value-keeping moves (moves:positions): {}", line(&keepers));
}
