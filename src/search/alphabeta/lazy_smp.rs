//! Lazy SMP: helper threads search the same position over the shared lock-free table, odd
//! helpers a ply deeper; each depth a helper finishes first becomes the team's result for it,
//! and the main thread, finding its iteration done, takes it and goes deeper.

use std::sync::Mutex;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64};

use super::{AlphaBeta, AlphaBetaConfig, Completed, Searcher};
use crate::game::Position;
use crate::search::progress::Clock;
use crate::search::score::{INF, WIN_BOUND};
use crate::search::tt::TranspositionTable;
use crate::search::{ProgressSink, SearchControl, SearchLimits, SearchResult};

/// What the threads of a Lazy SMP search share besides the table.
#[derive(Default)]
pub(super) struct Team {
    /// Nodes of the helpers, added as they go.
    pub(super) nodes: AtomicU64,
    /// The deepest iteration a helper has finished, and its result (move, value, PV).
    pub(super) depth: AtomicU32,
    pub(super) result: Mutex<Option<Completed>>,
}

/// A Lazy SMP helper: iterative deepening from depth `first` over the shared table until
/// `control` stops it or `max_depth` is done. It leaves entries in the table, and each depth
/// it finishes before anyone else becomes the team's result for that depth. After a depth it
/// goes on one deeper than the deepest finished (odd helpers two deeper, so they spread out).
#[allow(clippy::too_many_arguments)]
fn help<P: Position>(
    cfg: &AlphaBetaConfig,
    pos: &P,
    tt: Option<&TranspositionTable>,
    control: &SearchControl,
    team: &Team,
    index: u32,
    max_depth: u32,
) {
    let mut history = vec![0; pos.num_actions() * 2];
    let mut sink = crate::search::NullSink;
    let clock = Clock::new(&SearchLimits::default());
    let mut s = Searcher::new(cfg, pos, tt, &mut history, clock, control, &mut sink, Some(team), true);
    let skip = index % 2;
    let mut depth = 1 + skip;
    while depth <= max_depth {
        s.tree.clear();
        s.path.clear();
        s.iteration = depth;
        let v = s.negamax(depth, 0, -INF, INF, None, 0);
        if s.aborted {
            break;
        }
        if let Some(&best) = s.pv[0].first() {
            let line = s.completed_line(depth);
            let mut result = team.result.lock().unwrap_or_else(|e| e.into_inner());
            if team.depth.load(Relaxed) < depth {
                *result = Some((best, v, line, depth));
                team.depth.store(depth, Relaxed);
            }
        }
        if v.abs() >= WIN_BOUND {
            break;
        }
        depth = (depth + 1).max(team.depth.load(Relaxed) + 1 + skip);
    }
    team.nodes.fetch_add(s.nodes - s.shared, Relaxed);
}

impl AlphaBeta {
    /// The search with `threads` > 1: helpers on scoped threads, the main search here.
    pub(super) fn search_lazy_smp<P: Position>(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        clock: Clock,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
    ) -> SearchResult {
        let threads = self.config.threads.max(1);
        let max_depth = super::max_depth(pos, limits);
        let team = Team::default();
        let helpers = SearchControl::new();
        let cfg = self.config.clone();
        let tt = self.tt.clone();
        std::thread::scope(|scope| {
            for i in 1..threads {
                let (cfg, tt, helpers, team) = (&cfg, tt.as_deref(), &helpers, &team);
                scope.spawn(move || help(cfg, pos, tt, helpers, team, i, max_depth));
            }
            // Helpers stop when the main thread is done, however it ends.
            struct StopOnDrop<'c>(&'c SearchControl);
            impl Drop for StopOnDrop<'_> {
                fn drop(&mut self) {
                    self.0.stop();
                }
            }
            let _stop = StopOnDrop(&helpers);
            self.search_main(pos, limits, clock, control, sink, Some(&team))
        })
    }
}
