//! The `mnklab` command: parses the command line and calls the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use mnklab::game::{AnyPosition, LevelCount, Status, Variant, count_games, count_positions};
use mnklab::io::load_position;
use mnklab::with_position;

#[derive(Parser)]
#[command(
    name = "mnklab",
    version,
    about = "A workbench for k-in-a-row games and the search algorithms that play them"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Print a position as text.
    Show(PositionArgs),
    /// Count distinct positions after exactly P moves, or games to the end.
    Count {
        #[command(flatten)]
        position: PositionArgs,
        /// Count distinct positions after exactly this many more moves (finished ones are not extended).
        #[arg(long, conflicts_with = "games", required_unless_present = "games")]
        plies: Option<usize>,
        /// Count move sequences from the position to a finished game.
        #[arg(long)]
        games: bool,
        /// Also print finished positions and positions up to symmetry.
        #[arg(long)]
        detail: bool,
    },
    /// Measure speed.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Open the workbench window (the default when no command is given).
    Gui,
}

#[derive(Subcommand)]
enum BenchCommand {
    /// Uniformly random games on one thread, no tree.
    Playouts {
        #[arg(long, value_parser = parse_variant)]
        game: Variant,
        #[arg(long, default_value_t = 5.0, value_parser = parse_seconds)]
        seconds: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Args)]
struct PositionArgs {
    /// The game: tictactoe, gomoku, gomoku-exact, connect4, connect3d, mnk:M,N,K[:exact], connect:M,N,K.
    #[arg(long, value_parser = parse_variant, required_unless_present = "open")]
    game: Option<Variant>,
    /// Moves from the start: "h8 i9", "4453", "d d e", or pole numbers for connect3d.
    #[arg(long, default_value = "")]
    moves: String,
    /// Start from a position file (RON) instead; --moves are played after it.
    #[arg(long)]
    open: Option<PathBuf>,
}

impl PositionArgs {
    fn position(&self) -> Result<AnyPosition, String> {
        let mut pos = match &self.open {
            Some(path) => {
                let (_, pos) = load_position(path).map_err(|e| e.to_string())?;
                if let Some(g) = self.game
                    && g != pos.variant()
                {
                    return Err(format!(
                        "--game {g} does not match the file's game {}",
                        pos.variant()
                    ));
                }
                pos
            }
            None => AnyPosition::new(self.game.expect("clap requires --game without --open")),
        };
        pos.play_sequence(&self.moves)
            .map_err(|e| format!("--moves: {e}"))?;
        Ok(pos)
    }
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse()
        .map_err(|e: mnklab::game::GameError| e.to_string())
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1e6).contains(&x) => Ok(x),
        _ => Err(format!(
            "'{s}' is not a number of seconds between 0 and 1000000"
        )),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        None | Some(Command::Gui) => {
            mnklab::app::run().map_err(|e| format!("cannot open the window: {e}"))
        }
        Some(Command::Show(args)) => {
            let pos = args.position()?;
            print!("{}", pos.render());
            println!("game {}", pos.variant());
            if !pos.history().is_empty() {
                println!("moves {}", pos.history_string());
            }
            match pos.status() {
                Status::Ongoing => println!("to move {}", pos.side_to_move()),
                Status::Win(p) => println!("result {p} wins"),
                Status::Draw => println!("result draw"),
            }
            Ok(())
        }
        Some(Command::Count {
            position,
            plies,
            games,
            detail,
        }) => {
            let pos = position.position()?;
            if games {
                let n = with_position!(&pos, p => count_games(p));
                println!("games {n}");
            } else {
                let plies = plies.expect("clap requires --plies or --games");
                let levels: Vec<LevelCount> = with_position!(&pos, p => count_positions(p, plies));
                let last = levels[plies];
                println!("positions {}", last.positions);
                if detail {
                    println!("finished {}", last.finished);
                    println!("up_to_symmetry {}", last.canonical);
                }
            }
            Ok(())
        }
        Some(Command::Bench(BenchCommand::Playouts {
            game,
            seconds,
            seed,
        })) => {
            let r = mnklab::bench::playouts(game, seconds, seed);
            let [w1, w2, d] = r.outcomes;
            println!("game {}", r.variant);
            println!(
                "playouts {} in {:.3} s, mean length {:.1} moves",
                r.playouts,
                r.elapsed.as_secs_f64(),
                r.mean_length()
            );
            println!(
                "first wins {:.1}%, second wins {:.1}%, draws {:.1}%",
                100.0 * w1 as f64 / r.playouts as f64,
                100.0 * w2 as f64 / r.playouts as f64,
                100.0 * d as f64 / r.playouts as f64
            );
            println!("playouts_per_second {:.0}", r.playouts_per_second());
            Ok(())
        }
    }
}
