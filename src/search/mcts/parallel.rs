//! Root parallelism: helper threads grow trees of their own from the same position, each
//! with a seed derived from the agent's, and their root statistics are added to the main
//! tree's before the move is chosen. Iteration and node limits are shared out, so a search
//! with an iteration limit is reproducible whatever the scheduling.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use super::{Mcts, MctsConfig, Proven};
use crate::game::{Move, Position};
use crate::search::{Agent, Progress, ProgressSink, SearchControl, SearchLimits, SearchResult};

/// What a root-parallel helper found at the root: each move's visits, reward sum and proof.
pub(super) type RootStats = Vec<(Move, u32, f32, Option<Proven>)>;

/// The share of `total` (an iteration or node limit) that thread `i` of `threads` gets.
fn share(total: u64, i: u64, threads: u64) -> u64 {
    total / threads + u64::from(i < total % threads)
}

/// The seed of helper `i`: a different, fixed stream for each helper (SplitMix64 of the pair).
pub(super) fn helper_seed(seed: u64, i: u32) -> u64 {
    let mut z = seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<P: Position> Mcts<P> {
    /// Adds a helper's root statistics to the main tree's root and its children (a move the
    /// helper tried and the main tree did not gets its child here).
    pub(super) fn merge_root(&mut self, stats: &RootStats) {
        if self.nodes[0].legal == 0 {
            return;
        }
        for &(mv, visits, value, proven) in stats {
            let c = match self.children(0).find(|&c| self.nodes[c].mv == mv) {
                Some(c) => c,
                None => {
                    if self.nodes[0].fully_expanded() || !self.room_for_child(0) {
                        continue;
                    }
                    self.add_child(0, mv, 0)
                }
            };
            let node = &mut self.nodes[c];
            node.visits += visits;
            node.value += value;
            if node.proven.is_none() {
                node.proven = proven;
            }
            self.nodes[0].visits += visits;
            self.nodes[0].value += visits as f32 - value;
        }
    }

    fn root_stats(&self) -> RootStats {
        self.tried_children(0)
            .map(|c| (self.nodes[c].mv, self.nodes[c].visits, self.nodes[c].value, self.nodes[c].proven))
            .collect()
    }
}

impl<P: Position> Mcts<P> {
    /// The search with `threads` > 1: helpers on scoped threads, the main tree here.
    pub(super) fn search_root_parallel(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
    ) -> SearchResult {
        // No thread without an iteration of its share: 100 iterations over 256 threads left
        // the main tree 1 iteration and most helpers none.
        let most = limits.iterations.map_or(u32::MAX, |n| n.clamp(1, u32::MAX as u64) as u32);
        let threads = self.config.threads.clamp(1, most);
        let t = threads as u64;
        let part = |i: u64| SearchLimits {
            iterations: limits.iterations.map(|n| share(n, i, t)),
            nodes: limits.nodes.map(|n| share(n, i, t)),
            ..*limits
        };
        let helpers = SearchControl::new();
        let counts: Vec<AtomicU64> = (1..threads).map(|_| AtomicU64::new(0)).collect();
        let config = MctsConfig {
            threads: 1,
            tree_reuse: false,
            memory_mb: (self.config.memory_mb / threads).max(1),
            ..self.config.clone()
        };
        // Every tree gets its share of `memory_mb`, the main one too, so the threads together
        // stay within it.
        let whole = self.max_nodes;
        self.max_nodes = (whole / threads as usize).max(16);
        let result = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for i in 1..threads {
                let (config, limits, helpers, count) =
                    (config.clone(), part(i as u64), &helpers, &counts[i as usize - 1]);
                handles.push(scope.spawn(move || {
                    let mut helper = Mcts::<P>::new(MctsConfig { seed: helper_seed(config.seed, i), ..config });
                    let mut sink = crate::search::progress::FnSink(|p: &Progress| count.store(p.iterations, Relaxed));
                    let r = helper.search(pos, &limits, helpers, &mut sink);
                    (helper.root_stats(), r.stats.iterations)
                }));
            }
            // A time limit is one deadline for all: each helper's clock starts when it does, and
            // with more threads than cores a helper may start late and run on past the main
            // search (64 threads on 2 cores: 1.3 s for a 0.5 s limit). Without a time limit
            // the iteration and node shares are never cut, so such a search stays reproducible.
            let started = std::time::Instant::now();
            let mut join = |cut_short: bool| {
                // Helpers end on their own limits (an iteration share); they are stopped early
                // when the main search was (by the user, or a proof) or its time is up.
                let time_up = limits.time.is_some_and(|t| started.elapsed().as_secs_f64() >= t);
                if cut_short || time_up {
                    helpers.stop();
                }
                let mut stats = Vec::new();
                let mut iterations = 0;
                for h in handles.drain(..) {
                    // A helper that panicked lost its statistics, not the search.
                    if let Ok((s, n)) = h.join() {
                        stats.extend(s);
                        iterations += n;
                    }
                }
                (stats, iterations)
            };
            self.search_on(pos, &part(0), control, sink, &counts, &mut join)
        });
        self.max_nodes = whole;
        result
    }
}
