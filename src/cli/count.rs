//! `mnklab count`: distinct positions after exactly P moves, or games to the end.

use clap::Args;
use mnklab::game::{LevelCount, Position, count_games_reporting, count_positions_within};
use mnklab::with_position;

use super::PositionArgs;

#[derive(Args)]
pub struct CountArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Count distinct positions after exactly this many more moves (finished ones are not extended).
    #[arg(long, conflicts_with = "games", required_unless_present = "games")]
    plies: Option<u64>,
    /// Count move sequences from the position to a finished game.
    #[arg(long)]
    games: bool,
    /// Also print finished positions and positions up to symmetry.
    #[arg(long)]
    detail: bool,
}

pub fn run(args: CountArgs) -> Result<(), String> {
    let pos = args.position.position()?;
    let budget = position_budget();
    let too_many = |e: mnklab::game::CountError| format!("cannot count this: {e} (try fewer plies or a smaller board)");
    if args.games {
        // Every position reached is memoised: past 12 cells that is minutes to hours and gigabytes,
        // said before it starts, with its progress while it runs.
        let cells = with_position!(&pos, p => p.max_game_length() - p.ply());
        if cells > 12 {
            eprintln!(
                "counting the games of {} ({cells} moves left) memoises every position reached: it may run for hours \
                 and fill up to {} MiB before it gives up (Ctrl-C stops it)",
                pos.variant(),
                budget >> 20
            );
        }
        let bar = indicatif::ProgressBar::new_spinner();
        let mut report = |p: mnklab::game::GamesProgress| {
            bar.set_message(format!(
                "{} positions memoised, {} MiB of at most {} MiB",
                p.positions,
                p.bytes >> 20,
                budget >> 20
            ));
            bar.tick();
        };
        let n = with_position!(&pos, p => count_games_reporting(p, budget, &mut report)).map_err(too_many);
        bar.finish_and_clear();
        println!("games {}", n?);
        return Ok(());
    }
    let Some(plies) = args.plies else { return Err("give --plies P or --games".into()) };
    let left = with_position!(&pos, p => p.max_game_length() - p.ply());
    if plies > left as u64 {
        return Err(format!("--plies {plies}: at most {left} moves are left in this game"));
    }
    let plies = plies as usize;
    let levels: Vec<LevelCount> =
        with_position!(&pos, p => count_positions_within(p, plies, budget)).map_err(too_many)?;
    let last = levels[plies];
    println!("positions {}", last.positions);
    if args.detail {
        println!("finished {}", last.finished);
        println!("up_to_symmetry {}", last.canonical);
    }
    Ok(())
}

/// The memory a count may fill: half of what this process may use (the machine's, a
/// container's or `ulimit -v`'s limit), so that a count too big for it is an error, not an abort.
fn position_budget() -> u64 {
    let mb = mnklab::search::machine_memory_mb().unwrap_or(4096);
    (mb << 20) / 2
}
