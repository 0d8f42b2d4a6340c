//! `mnklab count`: distinct positions after exactly P moves, or games to the end.

use clap::Args;
use mnklab::game::{LevelCount, Position, count_games, count_positions};
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
    if args.games {
        let n = with_position!(&pos, p => count_games(p));
        println!("games {n}");
        return Ok(());
    }
    let Some(plies) = args.plies else { return Err("give --plies P or --games".into()) };
    let left = with_position!(&pos, p => p.max_game_length() - p.ply());
    if plies > left as u64 {
        return Err(format!("--plies {plies}: at most {left} moves are left in this game"));
    }
    let plies = plies as usize;
    let levels: Vec<LevelCount> = with_position!(&pos, p => count_positions(p, plies));
    let last = levels[plies];
    println!("positions {}", last.positions);
    if args.detail {
        println!("finished {}", last.finished);
        println!("up_to_symmetry {}", last.canonical);
    }
    Ok(())
}
