//! The analysis worker: a thread that receives commands from the UI and streams the search's
//! events back. The UI thread never searches; it stops a search through its shared control.

use crossbeam_channel::{Receiver, Sender, unbounded};

use std::any::Any;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::agents::{AgentConfig, build_agent};
use crate::game::{AnyPosition, Move, Position, Variant};
use crate::search::alphabeta::prune_snapshot_from;
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
    /// The tree below `path`, `depth` plies and `top` children a node deep, of analysis `id`
    /// running or finished: answered by the worker's explorer thread at once, from the tree
    /// the search last published or the finished search's agent, or by a fresh search of the
    /// node where that tree holds none of its children. A `refresh` (a part shown before,
    /// asked again to follow the search) is answered from the tree only.
    Subtree { id: u64, path: Vec<Move>, depth: u32, top: usize, refresh: bool },
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
    /// The answer to [`Job::Subtree`] (None: the tree does not reach that node). `fresh`: the subtree is a new search of the node, not a part of
    /// the analysis's own tree.
    Subtree {
        id: u64,
        path: Vec<Move>,
        tree: Option<TreeSnapshot>,
        fresh: bool,
    },
}

/// The finished search's agent, kept to answer questions about its tree.
type KeptTree = Box<dyn Fn(&[Move], u32, usize) -> Option<TreeSnapshot> + Send>;

/// What the explorer thread answers questions about an analysis's tree from.
enum TreeSource {
    Nothing,
    /// The running search's last published tree (see [`SearchEvent::Published`]).
    Published(Arc<TreeSnapshot>),
    /// The finished search's agent.
    Kept(KeptTree),
}

/// The tree of the worker's last analysis: set by the analysis thread (and its sink, as the
/// search publishes), read by the explorer thread. The search itself is never asked.
struct Trees {
    id: u64,
    /// What was searched (position, agent, limits, seed): a node the tree holds no children
    /// of is searched afresh with the same.
    searched: Option<(AnyPosition, AgentConfig, SearchLimits, u64)>,
    source: TreeSource,
}

type SharedTrees = Arc<Mutex<Trees>>;

fn lock(trees: &SharedTrees) -> MutexGuard<'_, Trees> {
    trees.lock().unwrap_or_else(|p| p.into_inner())
}

/// The answer to a [`Job::Subtree`] about analysis `id`: the subtree, and whether it is a
/// fresh search of the node (None: nothing to answer a refresh with).
fn answer(trees: &SharedTrees, id: u64, path: &[Move], depth: u32, top: usize, refresh: bool) -> Option<Report> {
    let report = |tree, fresh| Report::Subtree { id, path: path.to_vec(), tree, fresh };
    let (tree, searched) = {
        let t = lock(trees);
        if t.id != id {
            // Another analysis's tree (the UI shows one put aside): nothing is known below.
            return (!refresh).then(|| report(None, false));
        }
        let tree = match &t.source {
            TreeSource::Nothing => None,
            TreeSource::Published(tree) => tree.node_at(path).map(|n| prune_snapshot_from(tree, n, depth, top)),
            TreeSource::Kept(f) => f(path, depth, top),
        };
        (tree, t.searched.clone())
    };
    let leaf = tree.as_ref().is_none_or(|t| t.nodes.first().is_none_or(|n| n.children.is_empty()));
    if !leaf {
        return Some(report(tree, false));
    }
    if refresh {
        return None;
    }
    // No children in the tree: below the plies alpha-beta records, too few visits for MCTS
    // to publish, or a leaf of the search: searched afresh (nothing where the game is over).
    // A solver keeps no tree to explore.
    let fresh = match &searched {
        Some((pos, agent, limits, seed)) => match agent.for_variant(&pos.variant()) {
            agent @ (AgentConfig::AlphaBeta(_) | AgentConfig::Mcts(_)) => {
                search_below(pos, path, agent, limits, *seed, depth, top)
            }
            _ => None,
        },
        None => None,
    };
    Some(match fresh {
        Some(below) => report(Some(below), true),
        None => report(tree, false),
    })
}

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

/// The analysis's events go to the UI, its published trees to the explorer thread.
struct Forward {
    id: u64,
    tx: Sender<Report>,
    trees: SharedTrees,
}

impl ProgressSink for Forward {
    fn event(&mut self, event: SearchEvent) {
        match event {
            SearchEvent::Published(tree) => {
                let mut t = lock(&self.trees);
                if t.id == self.id {
                    t.source = TreeSource::Published(tree);
                }
            }
            event => {
                let _ = self.tx.send(Report::Event { id: self.id, event });
            }
        }
    }
}

/// One analysis thread, and one that answers the explorer's questions about its tree, with
/// their channels.
pub struct Worker {
    commands: Sender<Job>,
    explorer: Sender<Job>,
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

/// A fresh search of the node at `path` with the analysis's agent (at most half a second),
/// its tree `depth` plies deep (alpha-beta records up to [`BELOW_PLIES`]): the subtree the
/// analysis's tree does not hold. Its values are for the side to move at each node, like the
/// first tree's.
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
    let mut agent = agent.for_variant(&p.variant()).clone();
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
        let (explorer, questions) = unbounded::<Job>();
        let (outbox, reports) = unbounded::<Report>();
        let trees: SharedTrees = Arc::new(Mutex::new(Trees { id: 0, searched: None, source: TreeSource::Nothing }));
        let (answers, explored) = (outbox.clone(), Arc::clone(&trees));
        std::thread::Builder::new()
            .name("mnklab-explorer".into())
            .spawn(move || {
                for job in questions {
                    if let Job::Subtree { id, path, depth, top, refresh } = job
                        && let Some(r) = answer(&explored, id, &path, depth, top, refresh)
                    {
                        let _ = answers.send(r);
                    }
                }
            })
            .expect("spawn the explorer thread");
        std::thread::Builder::new()
            .name("mnklab-analysis".into())
            .spawn(move || {
                let mut kept_solver: Option<KeptSolver> = None;
                // Ends when the UI drops its sender.
                for job in inbox {
                    if let Job::Analyse { id, position, agent, limits, seed, control } = job {
                        // The last tree can be large: free it before growing the next.
                        *lock(&trees) = Trees {
                            id,
                            searched: Some(((*position).clone(), (*agent).clone(), limits, seed)),
                            source: TreeSource::Nothing,
                        };
                        let (result, tree, keep) = analyse(
                            &position,
                            &agent,
                            limits,
                            seed,
                            &control,
                            &mut kept_solver,
                            Forward { id, tx: outbox.clone(), trees: Arc::clone(&trees) },
                        );
                        lock(&trees).source = TreeSource::Kept(keep);
                        let _ = outbox.send(Report::Finished { id, result, tree });
                    }
                }
            })
            .expect("spawn the analysis thread");
        Worker { commands, explorer, reports }
    }

    pub fn send(&self, job: Job) {
        let to = if matches!(job, Job::Subtree { .. }) { &self.explorer } else { &self.commands };
        let _ = to.send(job);
    }
}

/// One analysis: its result, its tree for the panel, and its agent kept to answer questions
/// about the tree (a solver's agent is kept in `kept_solver` instead, for the next analysis).
fn analyse(
    position: &AnyPosition,
    agent: &AgentConfig,
    limits: SearchLimits,
    seed: u64,
    control: &SearchControl,
    kept_solver: &mut Option<KeptSolver>,
    mut sink: Forward,
) -> (SearchResult, Option<TreeSnapshot>, KeptTree) {
    with_position!(position, p => {
        let mut a = agent_for(kept_solver, p, agent, seed);
        let r = a.search(p, &limits, control, &mut sink);
        let tree = a.snapshot(6, 12);
        let keep: KeptTree = if agent.is_solver() {
            // The solver keeps no tree to explore.
            let variant = *p.variant();
            *kept_solver = Some(KeptSolver { config: agent.clone(), variant, agent: Box::new(a) });
            Box::new(|_, _, _| None)
        } else {
            Box::new(move |path, depth, top| a.subtree(path, depth, top))
        };
        (r, tree, keep)
    })
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

    /// The answer about `path` to analysis `id`, waiting up to ten seconds; whether the
    /// analysis had finished before it came.
    fn answer_about(worker: &Worker, id: u64, path: &[Move]) -> (Option<TreeSnapshot>, bool, bool) {
        let mut finished = false;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match worker.reports.recv_timeout(left).expect("an answer within ten seconds") {
                Report::Subtree { id: i, path: p, tree, fresh } if i == id && p == path => {
                    return (tree, fresh, finished);
                }
                Report::Finished { id: i, .. } if i == id => finished = true,
                _ => {}
            }
        }
    }

    /// The explorer's questions about a running search are answered at once by the worker's
    /// explorer thread, from the tree the search published or, where that tree holds none of
    /// a node's children (below alpha-beta's recorded plies), by a fresh search of the node,
    /// marked so; the search itself is never asked and goes on.
    #[test]
    fn questions_about_a_running_search_are_answered_while_it_runs() {
        use crate::search::{AlphaBetaConfig, MctsConfig};
        let pos = AnyPosition::new(Variant::connect4());
        let legal = pos.legal_moves();
        for agent in [AgentConfig::AlphaBeta(AlphaBetaConfig::default()), AgentConfig::Mcts(MctsConfig::default())] {
            let worker = Worker::spawn();
            let control = SearchControl::new();
            control.want_trees();
            worker.send(Job::Analyse {
                id: 1,
                position: Box::new(pos.clone()),
                agent: Box::new(agent.clone()),
                // No limit: the search runs until stopped.
                limits: SearchLimits::default(),
                seed: 1,
                control: control.clone(),
            });
            std::thread::sleep(std::time::Duration::from_millis(1500));
            // A child of the root: in every published tree.
            let child = vec![legal[3]];
            worker.send(Job::Subtree { id: 1, path: child.clone(), depth: 2, top: 7, refresh: false });
            let (tree, fresh, finished) = answer_about(&worker, 1, &child);
            assert!(!finished, "{agent:?}: answered while the search runs");
            assert!(!fresh, "{agent:?}: from the search's own tree");
            assert!(tree.is_some_and(|t| !t.nodes[0].children.is_empty()), "{agent:?}: the node's children");
            // Four plies down: below the two plies alpha-beta records, searched afresh.
            let deep = vec![legal[3]; 4];
            worker.send(Job::Subtree { id: 1, path: deep.clone(), depth: 2, top: 7, refresh: false });
            let (tree, fresh, finished) = answer_about(&worker, 1, &deep);
            assert!(!finished, "{agent:?}: answered while the search runs");
            assert!(tree.is_some_and(|t| !t.nodes[0].children.is_empty()), "{agent:?}: the deep node's children");
            if matches!(agent, AgentConfig::AlphaBeta(_)) {
                assert!(fresh, "below the recorded plies: a fresh search");
            }
            // A refresh is answered from the tree only: nothing new is searched for it.
            worker.send(Job::Subtree { id: 1, path: vec![legal[3]; 12], depth: 2, top: 7, refresh: true });
            worker.send(Job::Subtree { id: 1, path: child.clone(), depth: 2, top: 7, refresh: true });
            let (tree, fresh, _) = answer_about(&worker, 1, &child);
            assert!(tree.is_some() && !fresh);
            control.stop();
        }
    }
}
