//! `mnklab brain`: the Gomocup brain protocol on stdin and stdout.

use clap::Args;
use mnklab::agents::load_agent;
use mnklab::game::Variant;

use super::{consent_to_external, parse_variant};

#[derive(Args)]
pub struct BrainArgs {
    /// A preset or an agent file (.ron).
    #[arg(long, default_value = "strong-ab")]
    agent: String,
    /// K and the rule from an m,n,k spelling (the board size comes from START).
    #[arg(long, value_parser = parse_variant, default_value = "gomoku")]
    game: Variant,
    /// Let an agent file start the external program it names (the command is shown otherwise).
    #[arg(long)]
    allow_external: bool,
}

pub fn run(args: BrainArgs) -> Result<(), String> {
    let file = load_agent(&args.agent).map_err(|e| e.to_string())?;
    // The manager's turn time is always added; any other limit must be one the agent reads.
    let with_turn_time = mnklab::search::SearchLimits { time: Some(1.0), ..file.limits };
    file.agent.check_limits(&with_turn_time, None, true).map_err(|e| format!("--agent {}: {e}", file.name))?;
    let external: Vec<(String, String)> =
        file.agent.external_command().map(|c| (file.name.clone(), c)).into_iter().collect();
    consent_to_external(&external, args.allow_external)?;
    let Some(rules) = args.game.grid().filter(|r| !r.gravity()) else {
        return Err(format!("--game {}: the brain protocol plays free-placement (mnk) games", args.game));
    };
    let mut brain = mnklab::gomocup::Brain::new(file, rules.k(), rules.exact());
    match mnklab::gomocup::run_brain(std::io::stdin().lock(), std::io::stdout().lock(), &mut brain) {
        // The manager (or `| head`) closed our output: end quietly, as every command does.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(141),
        r => r.map_err(|e| format!("brain: {e}")),
    }
}
