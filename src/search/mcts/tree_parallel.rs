//! Tree parallelism with virtual loss: every thread walks the one shared tree. A thread
//! holds the tree's lock only to walk down and expand (then it marks the path with a virtual
//! loss: `virtual_loss` visits that brought nothing, so the next thread walking by prefers
//! other lines) and, after its rollout, to back the result up (the real result replaces the
//! virtual visits). Rollouts, the bulk of the work on most boards, run outside the lock on
//! each thread's own copy of the position with its own generator. (Chaslot, Winands and van
//! den Herik, "Parallel Monte-Carlo Tree Search", 2008: the global-mutex variant.)
//!
//! Not reproducible (the threads' interleaving decides which walk sees which statistics);
//! `threads: 1` is.

use parking_lot::{Mutex, MutexGuard};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};

use super::parallel::helper_seed;
use super::{FinalMove, Mcts, MctsConfig, rollout};
use crate::game::{Move, Player, Position};
use crate::rng::{GameRng, seeded};
use crate::search::progress::Clock;
use crate::search::{ProgressSink, SearchControl, SearchEvent, SearchLimits, SearchResult};

/// What the threads share besides the tree.
struct Team<'a, P: Position> {
    tree: Mutex<&'a mut Mcts<P>>,
    /// Iterations begun, against the iteration limit.
    started: AtomicU64,
    /// Iterations backed up.
    done: AtomicU64,
    budget: u64,
    /// Set when the search must end: stopped, out of time, node budget, proven root.
    halt: AtomicBool,
    virtual_loss: u32,
}

impl<'a, P: Position> Team<'a, P> {
    fn lock(&self) -> MutexGuard<'_, &'a mut Mcts<P>> {
        self.tree.lock()
    }
}

/// Walks a thread makes each time it holds the lock (then rolls them all out): fewer
/// hand-overs of the lock and of the tree's cache lines between the cores. The virtual loss
/// sends the walks of one batch down different lines.
const BATCH: usize = 4;

/// One walk of a batch: its copy of the root position (the walk's moves played on it), the
/// moves and nodes of the walk, and its result until it is backed up.
struct Walk<P: Position> {
    work: P,
    played: Vec<(Move, Player)>,
    path: Vec<u32>,
    /// The walk as each node's place among its parent's children.
    ordinals: Vec<u32>,
    /// The result for the first player and the walk's depth in the tree, not yet backed up.
    pending: Option<(f64, usize)>,
}

/// One thread's own state: its walks, buffers and generator.
struct Walker<P: Position> {
    config: MctsConfig,
    walks: Vec<Walk<P>>,
    scratch: Option<P>,
    rng: GameRng,
    moves: Vec<Move>,
    /// The player who moved into the root.
    into_root: Player,
}

impl<P: Position> Walker<P> {
    fn new(root: &P, config: MctsConfig, seed: u64) -> Walker<P> {
        let mut work = root.clone();
        super::prepare_walk(&config, &mut work);
        let walk =
            || Walk { work: work.clone(), played: Vec::new(), path: Vec::new(), ordinals: Vec::new(), pending: None };
        Walker {
            config,
            into_root: root.side_to_move().other(),
            walks: (0..BATCH).map(|_| walk()).collect(),
            scratch: None,
            rng: seeded(seed),
            moves: Vec::new(),
        }
    }

    /// Up to [`BATCH`] iterations on the shared tree; false when the search is over. The lock
    /// is taken once: to back up the last batch's results and make the next walks.
    fn iterate(&mut self, team: &Team<P>) -> bool {
        let mut made = 0;
        {
            let mut tree = team.lock();
            self.back_up_pending(&mut tree, team);
            for walk in &mut self.walks {
                if team.halt.load(Relaxed)
                    || tree.budget_reached
                    || tree.nodes[0].proven.is_some()
                    || team.started.fetch_add(1, Relaxed) >= team.budget
                {
                    team.halt.store(true, Relaxed);
                    break;
                }
                let leaf = tree.descend(&mut walk.work, &mut self.moves, &mut walk.played, &mut walk.path);
                let known = tree.leaf_reward(&walk.work, leaf);
                tree.add_virtual_loss(&walk.path, team.virtual_loss);
                // Another thread's expansion may move a block of children before this walk
                // is backed up; a child's place in its block (children are only appended)
                // stays.
                walk.ordinals.clear();
                for w in walk.path.windows(2) {
                    walk.ordinals.push(w[1] - tree.nodes[w[0] as usize].first_child);
                }
                // A known value needs no rollout; NaN marks one to do.
                walk.pending = Some((known.unwrap_or(f64::NAN), walk.played.len()));
                made += 1;
            }
        }
        for walk in &mut self.walks[..made] {
            if let Some((reward, _)) = &mut walk.pending
                && reward.is_nan()
            {
                *reward = rollout(&self.config, &mut self.rng, &mut self.scratch, &mut walk.work, &mut walk.played);
            }
        }
        made > 0
    }

    /// Backs up the walks' results, if any, and takes their moves back.
    fn back_up_pending(&mut self, tree: &mut Mcts<P>, team: &Team<P>) {
        for walk in &mut self.walks {
            let Some((reward_first, depth)) = walk.pending.take() else { continue };
            walk.path.clear();
            walk.path.push(0);
            let mut n = 0;
            for &i in &walk.ordinals {
                n = tree.nodes[n].first_child as usize + i as usize;
                walk.path.push(n as u32);
            }
            tree.back_up(&walk.path, &walk.played, depth, reward_first, self.into_root, team.virtual_loss);
            for _ in 0..depth {
                walk.work.undo();
            }
            team.done.fetch_add(1, Relaxed);
        }
    }
}

impl<P: Position> Mcts<P> {
    /// The search with `threads` > 1 over one shared tree.
    pub(super) fn search_tree_parallel(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
        virtual_loss: u32,
    ) -> SearchResult {
        let mut clock = Clock::new(limits);
        self.reuse_or_reset(pos);
        self.node_budget = limits.nodes.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        self.budget_reached = false;
        let threads = self.config.threads.max(1);
        let config = self.config.clone();
        let seed = config.seed;
        let node_limit = limits.nodes;
        let team = Team {
            tree: Mutex::new(&mut *self),
            started: AtomicU64::new(0),
            done: AtomicU64::new(0),
            budget: limits.iterations.unwrap_or(u64::MAX),
            halt: AtomicBool::new(false),
            virtual_loss: virtual_loss.max(1),
        };
        std::thread::scope(|scope| {
            for i in 1..threads {
                let (team, config) = (&team, config.clone());
                scope.spawn(move || {
                    let mut walker = Walker::new(pos, config, helper_seed(seed, i));
                    while walker.iterate(team) {}
                });
            }
            // The main thread walks too, and between its walks keeps the clock, the stop flag,
            // the node limit, the published tree and the reports.
            let mut walker = Walker::new(pos, config.clone(), helper_seed(seed, 0));
            let mut own = 0u64;
            let mut next_publish = 0.0;
            while walker.iterate(&team) {
                // The clock after every batch (heavy batches would overrun a time limit), the
                // rest every 4 batches: 16 iterations, as one thread checks.
                own += 1;
                if clock.out_of_time() {
                    team.halt.store(true, Relaxed);
                    break;
                }
                if own & 3 != 0 {
                    continue;
                }
                let tree = team.lock();
                if control.is_stopped() || clock.out_of_time() || node_limit.is_some_and(|n| tree.live as u64 >= n) {
                    team.halt.store(true, Relaxed);
                    break;
                }
                if let Some(d) = control.take_snapshot_request() {
                    sink.event(SearchEvent::Snapshot(tree.snapshot_tree(d, 8)));
                }
                if control.trees_wanted() && clock.elapsed() >= next_publish {
                    sink.event(SearchEvent::Published(Arc::new(tree.published_tree())));
                    next_publish = clock.elapsed() + super::PUBLISH_EVERY;
                }
                if clock.report_due() {
                    sink.event(SearchEvent::Progress(tree.progress(&clock, team.done.load(Relaxed), false)));
                }
            }
            team.halt.store(true, Relaxed);
            // A walk cut short by the clock or the stop flag still counts.
            walker.back_up_pending(&mut team.lock(), &team);
        });
        let iterations = team.done.load(Relaxed);
        // Max-robust's extra iterations (up to 10%) for the best by mean and the most visited
        // to agree, on this thread.
        let mut extra = 0;
        if self.config.final_move == FinalMove::MaxRobust && !control.is_stopped() {
            let (mut work, mut moves, mut played) = (pos.clone(), Vec::new(), Vec::new());
            super::prepare_walk(&self.config, &mut work);
            while self.best_by_mean() != self.best_by_visits()
                && extra < iterations / 10
                && self.nodes[0].proven.is_none()
                && !self.budget_reached
            {
                self.iterate(&mut work, &mut moves, &mut played);
                extra += 1;
            }
        }
        self.conclude(pos, &clock, iterations + extra, iterations + extra, sink)
    }
}
