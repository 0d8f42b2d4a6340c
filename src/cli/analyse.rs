//! `mnklab analyse`: an agent searches a position, printing a line per progress report, then
//! its move.

use clap::Args;
use mnklab::agents::{build_agent, load_agent};
use mnklab::game::{AnyPosition, Status};
use mnklab::search::{Progress, ProgressSink, SearchControl, SearchEvent};
use mnklab::with_position;

use super::{LimitArgs, PositionArgs, consent_to_external};

#[derive(Args)]
pub struct AnalyseArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// A preset (alam-ab, lim-mcts, ...) or an agent file (.ron).
    #[arg(long)]
    agent: String,
    #[command(flatten)]
    limits: LimitArgs,
    /// Seed of the agent's random choices (default: the agent file's).
    #[arg(long)]
    seed: Option<u64>,
    /// Search threads (alpha-beta: Lazy SMP; MCTS: as --parallel or its file says; default: the
    /// agent file's).
    #[arg(long, value_parser = super::parse_search_threads)]
    threads: Option<u32>,
    /// MCTS threads: root (separate trees, root statistics added) or tree / tree:N (one shared
    /// tree, virtual loss N); default: the agent file's.
    #[arg(long, value_parser = super::parse_parallel)]
    parallel: Option<mnklab::search::Parallel>,
    /// Let an agent file start the external program it names (the command is shown otherwise).
    #[arg(long)]
    allow_external: bool,
}

pub fn run(args: AnalyseArgs) -> Result<(), String> {
    let pos = args.position.position()?;
    match pos.status() {
        Status::Win(p) => return Err(format!("the game is over: the {p} player won; there is nothing to analyse")),
        Status::Draw => return Err("the game is over: it is a draw; there is nothing to analyse".into()),
        Status::Ongoing => {}
    }
    let mut file = load_agent(&args.agent).map_err(|e| e.to_string())?;
    if let Some(t) = args.threads {
        file.agent = file.agent.with_threads(t)?;
    }
    if let Some(p) = args.parallel {
        file.agent = file.agent.with_parallel(p)?;
    }
    let external: Vec<(String, String)> =
        file.agent.external_command().map(|c| (file.name.clone(), c)).into_iter().collect();
    consent_to_external(&external, args.allow_external)?;
    let limits = args.limits.or(file.limits);
    limits.validate()?;
    file.agent.check_limits(&limits, None, true).map_err(|e| format!("--agent {}: {e}", file.name))?;
    let seed = args.seed.unwrap_or(file.seed);
    // Whose view every score below is from (the one convention of the workbench too).
    println!("info string {}", mnklab::analysis::side_label(&pos));
    let (result, failure) = with_position!(&pos, p => {
        let mut a = build_agent(&file.agent, seed);
        let mut sink = Printer { pos: &pos, last: String::new() };
        let r = a.search(p, &limits, &SearchControl::new(), &mut sink);
        (r, a.failure())
    });
    if let (None, Some(why)) = (result.best, failure) {
        return Err(format!("{}: {why}", file.name));
    }
    let best = result.best.map_or("none".to_string(), |m| pos.format_move(m));
    if result.unsearched {
        println!("bestmove {best} score ? unsearched (the limits ended the search before it valued any move)");
    } else {
        println!("bestmove {best} score {}", result.score);
    }
    Ok(())
}

/// Prints what the search says: each report as an `info` line (a report saying the same as
/// the one before it, but for its time, is not printed again), where an answer came from (a
/// book) and notices as `info string` lines.
struct Printer<'a> {
    pos: &'a AnyPosition,
    last: String,
}

impl ProgressSink for Printer<'_> {
    fn event(&mut self, e: SearchEvent) {
        // What a line says apart from its clock: a report differing only in its time and
        // rate (a book's answer reported again as the final one) says nothing new.
        let (line, said) = match e {
            SearchEvent::Progress(p) => {
                let line = progress_line(self.pos, &p);
                (line, progress_line(self.pos, &Progress { elapsed: 0.0, nodes_per_second: 0.0, ..p }))
            }
            SearchEvent::Info(text) => {
                let line = format!("info string {text}");
                (line.clone(), line)
            }
            SearchEvent::Notice(text) | SearchEvent::Warning(text) => {
                let line = format!("info string notice: {text}");
                (line.clone(), line)
            }
            SearchEvent::Snapshot(_) | SearchEvent::Published(_) => return,
        };
        if said != self.last {
            println!("{line}");
            self.last = said;
        }
    }
}

/// One progress report as a line: depth or iterations, nodes, speed, time, best move, score, PV.
fn progress_line(pos: &AnyPosition, p: &Progress) -> String {
    let mv = |m| pos.format_move(m);
    let pv: Vec<String> = p.pv.iter().map(|&m| mv(m)).collect();
    // A proof's depth is the plies to the end (none for a draw), not a search depth.
    // A proof still running says what it has established so far.
    let running = p.bounds.as_ref().map(|(lo, hi)| mnklab::analysis::bounds_label(lo, hi));
    let work = match (p.proof, p.iterations > 0) {
        (true, _) if let Some(so_far) = running => format!("proving: {so_far};"),
        (true, _) if p.depth > 0 => format!("proof plies {}", p.depth),
        (true, _) => "proof".to_string(),
        (false, true) => format!("iterations {}", p.iterations),
        (false, false) => format!("depth {}", p.depth),
    };
    // MCTS's rate counts iterations (ips), alpha-beta's nodes (nps). A book's answer searched
    // nothing: no threads ran and it has no rate (its "nps 0" read as a stalled search).
    let searched = !mnklab::analysis::searched_nothing(p);
    let rate = match (searched, p.iterations > 0) {
        (false, _) => String::new(),
        (true, true) => format!(" ips {:.0}", p.nodes_per_second),
        (true, false) => format!(" nps {:.0}", p.nodes_per_second),
    };
    let threads = if p.threads > 1 && searched { format!(" threads {}", p.threads) } else { String::new() };
    format!(
        "info {work} nodes {}{threads}{rate} time {:.3} best {} score {} pv {}",
        p.nodes,
        p.elapsed,
        p.best.map_or("-".to_string(), mv),
        p.score,
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}
