//! The analysis worker: a thread that receives commands from the UI and streams the search's
//! events back. The UI thread never searches; it stops a search through its shared control.

use crossbeam_channel::{Receiver, Sender, unbounded};

use std::any::Any;

use crate::agents::{AgentConfig, build_agent};
use crate::game::{AnyPosition, Move, Position, Variant};
use crate::search::{Agent, ProgressSink, SearchControl, SearchEvent, SearchLimits, SearchResult, TreeSnapshot};
use crate::with_position;

/// What the UI asks of the worker.
pub enum Job {
    Analyse {
        id: u64,
        position: Box<AnyPosition>,
        agent: Box<AgentConfig>,
        limits: SearchLimits,
        seed: u64,
        control: SearchControl,
    },
    /// The last search's tree below `path`, `depth` plies and `top` children deep (answered
    /// once the search has ended: the worker runs one thing at a time).
    Subtree { id: u64, path: Vec<Move>, depth: u32, top: usize },
    /// A fresh search of the node `path` reaches from `root`, for a node below the plies a
    /// running alpha-beta search records: answered on the worker's second thread at once,
    /// not when the running search ends (which, until stopped, is never).
    SearchBelow {
        id: u64,
        root: Box<AnyPosition>,
        path: Vec<Move>,
        agent: Box<AgentConfig>,
        limits: SearchLimits,
        seed: u64,
        depth: u32,
        top: usize,
    },
}

/// What the worker reports, tagged with the analysis it belongs to.
pub enum Report {
    Event {
        id: u64,
        event: SearchEvent,
    },
    Finished {
        id: u64,
        result: SearchResult,
        tree: Option<TreeSnapshot>,
    },
    /// The answer to [`Job::Subtree`] and [`Job::SearchBelow`] (None: the tree does
    /// not reach that node). `fresh`: the subtree is a new search of the node, not a part of
    /// the analysis's own tree.
    Subtree {
        id: u64,
        path: Vec<Move>,
        tree: Option<TreeSnapshot>,
        fresh: bool,
    },
}

/// The last search's agent, kept to answer subtree requests about its tree.
type KeptTree = Box<dyn Fn(&[Move], u32, usize) -> Option<TreeSnapshot> + Send>;

/// The last solver agent, kept between analyses of one game with the same config: its table
/// holds proven bounds, valid whatever search stored them, so a game stepped through move by
/// move gets each next position's value, mostly proved among the last position's moves, at
/// once. Other agents are made afresh for every analysis: a kept alpha-beta table or MCTS
/// tree would make the same analysis give other results.
struct KeptSolver {
    config: AgentConfig,
    variant: Variant,
    /// A `Box<dyn Agent<P>>` for the game's position type.
    agent: Box<dyn Any + Send>,
}

/// The kept solver agent when it fits `config` and the game of `p`, else a new agent.
fn agent_for<P: Position + 'static>(
    kept: &mut Option<KeptSolver>,
    p: &P,
    config: &AgentConfig,
    seed: u64,
) -> Box<dyn Agent<P>> {
    if let Some(k) = kept.take()
        && k.config == *config
        && k.variant == *p.variant()
        && let Ok(agent) = k.agent.downcast::<Box<dyn Agent<P>>>()
    {
        return *agent;
    }
    build_agent(config, seed)
}

struct Forward {
    id: u64,
    tx: Sender<Report>,
}

impl ProgressSink for Forward {
    fn event(&mut self, event: SearchEvent) {
        let _ = self.tx.send(Report::Event { id: self.id, event });
    }
}

/// One analysis thread and one for fresh searches of explorer nodes, with their channels.
pub struct Worker {
    commands: Sender<Job>,
    below: Sender<Job>,
    pub reports: Receiver<Report>,
}

impl Default for Worker {
    fn default() -> Self {
        Worker::spawn()
    }
}

/// Plies a fresh search below an explorer node records (alpha-beta records few: its tree is
/// kept at every node it visits that deep).
const BELOW_PLIES: u32 = 4;

/// A fresh alpha-beta search of the node at `path` (at most half a second), recording `depth`
/// plies (up to [`BELOW_PLIES`]) below it: the subtree the first search did not record. Its
/// values are for the side to move at each node, like the first tree's.
fn search_below(
    pos: &AnyPosition,
    path: &[Move],
    agent: &AgentConfig,
    limits: &SearchLimits,
    seed: u64,
    depth: u32,
    top: usize,
) -> Option<TreeSnapshot> {
    let mut p = pos.clone();
    for &m in path {
        p.try_play(m).ok()?;
    }
    if p.status().is_over() {
        return None;
    }
    let mut agent = agent.clone();
    if let AgentConfig::AlphaBeta(c) = &mut agent {
        c.record_depth = depth.clamp(c.record_depth.max(1), BELOW_PLIES);
    }
    let time = limits.time.map_or(0.5, |t| t.min(0.5));
    let limits = SearchLimits { time: Some(time), ..*limits };
    with_position!(&p, q => {
        let mut a = build_agent(&agent, seed);
        a.search(q, &limits, &SearchControl::new(), &mut crate::search::NullSink);
        a.snapshot(depth, top)
    })
}

impl Worker {
    pub fn spawn() -> Worker {
        let (commands, inbox) = unbounded::<Job>();
        let (below, below_inbox) = unbounded::<Job>();
        let (outbox, reports) = unbounded::<Report>();
        let below_out = outbox.clone();
        std::thread::Builder::new()
            .name("mnklab-explorer".into())
            .spawn(move || {
                for cmd in below_inbox {
                    if let Job::SearchBelow { id, root, path, agent, limits, seed, depth, top } = cmd {
                        let tree = search_below(&root, &path, &agent, &limits, seed, depth, top);
                        let _ = below_out.send(Report::Subtree { id, path, tree, fresh: true });
                    }
                }
            })
            .expect("spawn the explorer thread");
        std::thread::Builder::new()
            .name("mnklab-analysis".into())
            .spawn(move || {
                let mut kept: Option<(u64, KeptTree)> = None;
                let mut kept_solver: Option<KeptSolver> = None;
                // The last search's position and agent, to search deeper below a node its
                // recorded tree does not reach (alpha-beta records a few plies only).
                let mut last: Option<(AnyPosition, AgentConfig, SearchLimits, u64)> = None;
                // Ends when the UI drops its sender.
                for cmd in inbox {
                    match cmd {
                        Job::Analyse { id, position, agent, limits, seed, control } => {
                            // The last tree can be large: free it before growing the next.
                            drop(kept.take());
                            let agent = *agent;
                            last = Some(((*position).clone(), agent.clone(), limits, seed));
                            let mut sink = Forward { id, tx: outbox.clone() };
                            let (result, tree, agent) = with_position!(&*position, p => {
                                let mut a = agent_for(&mut kept_solver, p, &agent, seed);
                                let r = a.search(p, &limits, &control, &mut sink);
                                let tree = a.snapshot(6, 12);
                                let keep: KeptTree = if matches!(agent, AgentConfig::Solver(_)) {
                                    // The solver keeps no tree to explore.
                                    let variant = *p.variant();
                                    kept_solver = Some(KeptSolver { config: agent.clone(), variant, agent: Box::new(a) });
                                    Box::new(|_, _, _| None)
                                } else {
                                    Box::new(move |path, depth, top| a.subtree(path, depth, top))
                                };
                                (r, tree, keep)
                            });
                            kept = Some((id, agent));
                            let _ = outbox.send(Report::Finished { id, result, tree });
                        }
                        Job::Subtree { id, path, depth, top } => {
                            let mut tree =
                                kept.as_ref().filter(|(k, _)| *k == id).and_then(|(_, f)| f(&path, depth, top));
                            let leaf =
                                tree.as_ref().is_none_or(|t| t.nodes.first().is_none_or(|n| n.children.is_empty()));
                            let mut fresh = false;
                            if leaf
                                && kept.as_ref().is_some_and(|(k, _)| *k == id)
                                && let Some((pos, agent @ AgentConfig::AlphaBeta(_), limits, seed)) = &last
                                && let Some(below) = search_below(pos, &path, agent, limits, *seed, depth, top)
                            {
                                tree = Some(below);
                                fresh = true;
                            }
                            let _ = outbox.send(Report::Subtree { id, path, tree, fresh });
                        }
                        Job::SearchBelow { .. } => {}
                    }
                }
            })
            .expect("spawn the analysis thread");
        Worker { commands, below, reports }
    }

    pub fn send(&self, cmd: Job) {
        let to = if matches!(cmd, Job::SearchBelow { .. }) { &self.below } else { &self.commands };
        let _ = to.send(cmd);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::solver::SolverConfig;

    /// Analyses `pos` on `worker` with `agent` (a minute's limit: every proof finishes).
    fn analyse(worker: &Worker, id: u64, pos: &AnyPosition, agent: &AgentConfig) -> SearchResult {
        worker.send(Job::Analyse {
            id,
            position: Box::new(pos.clone()),
            agent: Box::new(agent.clone()),
            limits: SearchLimits { time: Some(60.0), ..Default::default() },
            seed: 1,
            control: SearchControl::new(),
        });
        loop {
            match worker.reports.recv().expect("the worker answers") {
                Report::Finished { id: done, result, .. } if done == id => return result,
                _ => {}
            }
        }
    }

    /// Stepping through a game with the solver: the worker keeps the solver agent (and its
    /// table) between analyses, so the position after the best move costs a fraction of the
    /// nodes a new worker's solver spends on it; the values are the same. Another config gets
    /// a new agent.
    #[test]
    fn the_solver_agent_and_its_table_are_kept_between_analyses() {
        let solver = AgentConfig::Solver(SolverConfig { builtin_book: false, ..Default::default() });
        let mut pos = AnyPosition::from_moves("connect4".parse().unwrap(), "cggdedcbb").unwrap();
        let stepping = Worker::spawn();
        let first = analyse(&stepping, 1, &pos, &solver);
        pos.try_play(first.best.expect("a proved move")).unwrap();
        let kept = analyse(&stepping, 2, &pos, &solver);
        let fresh = analyse(&Worker::spawn(), 1, &pos, &solver);
        assert_eq!(kept.score, fresh.score);
        assert_eq!(kept.root, fresh.root, "every move's value the same");
        assert!(
            kept.stats.nodes * 2 < fresh.stats.nodes,
            "{} nodes with the kept table, {} with a new one",
            kept.stats.nodes,
            fresh.stats.nodes
        );
        // A changed config (another table size) is a new agent, with a new table.
        let other = AgentConfig::Solver(SolverConfig { builtin_book: false, tt_mb: 16, ..Default::default() });
        let again = analyse(&stepping, 3, &pos, &other);
        assert_eq!(again.score, fresh.score);
        assert!(again.stats.nodes * 2 > fresh.stats.nodes, "{} against {}", again.stats.nodes, fresh.stats.nodes);
    }
}
