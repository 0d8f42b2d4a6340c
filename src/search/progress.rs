//! What a search reports while it runs, where it sends it, and how it is stopped.
//! The search never prints: a sink decides (a channel for the GUI, a printer for the CLI).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{Score, SearchLimits, TreeSnapshot};
use crate::game::Move;

/// Statistics of one root move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RootMove {
    pub mv: Move,
    /// MCTS visits (alpha-beta: 0).
    pub visits: u64,
    /// MCTS mean reward for the mover in [0, 1], or the alpha-beta score as a number.
    pub value: f64,
    pub score: Score,
    /// Alpha-beta: the value is only an upper bound (the move was refuted, not searched exactly).
    #[serde(default)]
    pub upper_bound: bool,
    /// The line this move starts, when the search knows it (MCTS: the most visited line;
    /// alpha-beta: empty, the principal variation is the best move's line).
    #[serde(default)]
    pub pv: Vec<Move>,
}

/// One progress report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    /// Alpha-beta: the depth completed (MCTS: the deepest tree path).
    pub depth: u32,
    pub iterations: u64,
    pub nodes: u64,
    pub nodes_per_second: f64,
    /// Seconds since the search started.
    pub elapsed: f64,
    pub best: Option<Move>,
    pub score: Score,
    pub pv: Vec<Move>,
    pub root: Vec<RootMove>,
    /// The last report of the search.
    pub finished: bool,
    /// Threads the search runs on (0 or 1: one).
    #[serde(default)]
    pub threads: u32,
    /// The score is an exact solver's proof: `depth` is then the plies to the game's end
    /// (0 for a draw), not a search depth.
    #[serde(default)]
    pub proof: bool,
    /// A proof still running: the lowest and the highest value it has not yet ruled out, for
    /// the side to move (see [`super::bounds_label`]); None otherwise.
    #[serde(default)]
    pub bounds: Option<(Score, Score)>,
}

/// Everything a search sends.
#[derive(Clone, Debug)]
pub enum SearchEvent {
    Progress(Progress),
    Snapshot(TreeSnapshot),
    /// The search's last completed tree, for whoever answers questions about it while the
    /// search goes on (the workbench's worker opening explorer nodes): alpha-beta's tree of
    /// its last finished depth, MCTS's most visited nodes as of now. Sent only while
    /// [`SearchControl::trees_wanted`]; the search itself answers no question about it.
    Published(Arc<TreeSnapshot>),
    /// Something the user should know about this search that is not an error of it: an
    /// option it cannot use here (a solver's book made for another game).
    Notice(String),
    /// Something wrong with the search's setup or with the program, which a user must hear even
    /// where no one watches the analysis (a match writes it on stderr and keeps it with the
    /// game): a book file not used, threads not used, a table smaller than asked, two proof
    /// methods disagreeing. Shown as a [`SearchEvent::Notice`] is.
    Warning(String),
    /// Where an answer came from when that is not a search (a solver's opening book): shown
    /// beside the analysis, not as a warning.
    Info(String),
}

/// Where a search sends its events.
pub trait ProgressSink {
    fn event(&mut self, e: SearchEvent);
}

/// Drops every event.
pub struct NullSink;

impl ProgressSink for NullSink {
    fn event(&mut self, _: SearchEvent) {}
}

impl ProgressSink for Vec<SearchEvent> {
    fn event(&mut self, e: SearchEvent) {
        self.push(e);
    }
}

impl ProgressSink for crossbeam_channel::Sender<SearchEvent> {
    /// A closed channel (the window went away) is not the search's problem.
    fn event(&mut self, e: SearchEvent) {
        let _ = self.send(e);
    }
}

/// Calls a function with every progress report (the CLI's printer).
pub struct FnSink<F: FnMut(&Progress)>(pub F);

impl<F: FnMut(&Progress)> ProgressSink for FnSink<F> {
    fn event(&mut self, e: SearchEvent) {
        if let SearchEvent::Progress(p) = e {
            (self.0)(&p)
        }
    }
}

/// Collects the trees a search publishes (see [`SearchEvent::Published`]), for tests.
#[cfg(test)]
pub(crate) struct PublishedTrees(pub Vec<Arc<TreeSnapshot>>);

#[cfg(test)]
impl ProgressSink for PublishedTrees {
    fn event(&mut self, e: SearchEvent) {
        if let SearchEvent::Published(t) = e {
            self.0.push(t);
        }
    }
}

/// Hands a stop asked in one place (a search's control, a caller's flag) to a search that
/// reads a flag of its own (a solver's, a race's), which it sets besides when its own work
/// ends: a thread checks `stopped` every 5 ms and sets `flag` once it holds. Dropping the
/// relay ends and joins that thread (and leaves `flag` as it is).
pub struct StopRelay {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl StopRelay {
    pub fn new(stopped: impl Fn() -> bool + Send + 'static, flag: Arc<AtomicBool>) -> StopRelay {
        let done = Arc::new(AtomicBool::new(false));
        let thread = {
            let done = Arc::clone(&done);
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    if stopped() {
                        flag.store(true, Ordering::Relaxed);
                        return;
                    }
                    // Woken at once when dropped: a sleep made each race wait up to 5 ms more
                    // (an every-move proof runs one a move).
                    std::thread::park_timeout(Duration::from_millis(5));
                }
            })
        };
        StopRelay { done, thread: Some(thread) }
    }
}

impl Drop for StopRelay {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// Shared with whoever runs the search: stop it, or ask it for a tree snapshot.
#[derive(Clone, Debug, Default)]
pub struct SearchControl {
    stop: Arc<AtomicBool>,
    /// Requested snapshot depth (0: none).
    snapshot: Arc<AtomicU32>,
    /// Someone shows this search's tree (a snapshot was asked for): a search that finishes a
    /// depth sends that depth's tree before it reports the depth, so what shows the tree
    /// never pairs the new depth's score with the old depth's tree.
    trees_wanted: Arc<AtomicBool>,
}

impl SearchControl {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// Clears the stop flag for the next search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::Relaxed);
    }
    /// Ask the running search for a snapshot of its tree to `depth` plies.
    pub fn request_snapshot(&self, depth: u32) {
        self.trees_wanted.store(true, Ordering::Relaxed);
        self.snapshot.store(depth.max(1), Ordering::Relaxed);
    }
    /// Someone will show this search's tree: it publishes its trees from the start (see
    /// [`SearchEvent::Published`]).
    pub fn want_trees(&self) {
        self.trees_wanted.store(true, Ordering::Relaxed);
    }
    /// Does someone show the tree (a snapshot asked for, or [`Self::want_trees`])?
    pub fn trees_wanted(&self) -> bool {
        self.trees_wanted.load(Ordering::Relaxed)
    }
    pub fn take_snapshot_request(&self) -> Option<u32> {
        match self.snapshot.swap(0, Ordering::Relaxed) {
            0 => None,
            d => Some(d),
        }
    }
}

/// Time keeping of one search: the limits, the stop flag and the report rhythm.
pub struct Clock {
    start: Instant,
    deadline: Option<Instant>,
    /// The thread CPU time (seconds, as [`thread_cpu_seconds`] reads it) at which a CPU-time
    /// budget is spent.
    cpu_deadline: Option<f64>,
    last_report: Instant,
    pub limits: SearchLimits,
}

thread_local! {
    /// A test's clock for this thread: (its start, time passed, time added at each reading).
    static TEST_CLOCK: std::cell::Cell<Option<(Instant, Duration, Duration)>> = const { std::cell::Cell::new(None) };
}

/// Now, for searches: the real clock, or on a thread that set one, a test's clock that moves
/// on by a fixed step at each reading (see [`with_test_clock`]), so that how a search spends
/// its time is tested exactly, whatever the machine's load.
pub fn now() -> Instant {
    TEST_CLOCK.with(|c| match c.get() {
        None => Instant::now(),
        Some((start, passed, step)) => {
            c.set(Some((start, passed + step, step)));
            start + passed + step
        }
    })
}

/// Runs `f` with this thread's searches reading a test clock that advances `step` at each
/// reading (and CPU time read as the same clock).
pub fn with_test_clock<T>(step: Duration, f: impl FnOnce() -> T) -> T {
    TEST_CLOCK.with(|c| c.set(Some((Instant::now(), Duration::ZERO, step))));
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            TEST_CLOCK.with(|c| c.set(None));
        }
    }
    let _reset = Reset;
    f()
}

/// The CPU time this thread has used, in seconds (the test clock's time where one is set).
/// A budget of CPU time is fair on a shared machine: time the thread waited for a core does
/// not count.
pub fn thread_cpu_seconds() -> f64 {
    if let Some((start, ..)) = TEST_CLOCK.with(|c| c.get()) {
        return now().duration_since(start).as_secs_f64();
    }
    #[cfg(unix)]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime only writes the struct it is given.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9;
        }
    }
    0.0
}

/// Reports go out at least this often (10 a second and more).
pub const REPORT_INTERVAL: Duration = Duration::from_millis(80);

impl Clock {
    pub fn new(limits: &SearchLimits) -> Clock {
        let start = now();
        Clock {
            start,
            deadline: limits.time.map(|t| start + Duration::from_secs_f64(t.min(1e7))),
            cpu_deadline: limits.cpu_time.map(|t| thread_cpu_seconds() + t),
            last_report: start,
            limits: *limits,
        }
    }

    pub fn elapsed(&self) -> f64 {
        now().duration_since(self.start).as_secs_f64()
    }

    /// Is the wall time, or this thread's CPU time, spent?
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| now() >= d) || self.cpu_deadline.is_some_and(|d| thread_cpu_seconds() >= d)
    }

    /// Is a report due? (Resets the rhythm when it says yes.)
    pub fn report_due(&mut self) -> bool {
        let now = now();
        if now.duration_since(self.last_report) >= REPORT_INTERVAL {
            self.last_report = now;
            true
        } else {
            false
        }
    }

    pub fn rate(&self, count: u64) -> f64 {
        let e = self.elapsed();
        if e > 0.0 { count as f64 / e } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_relay_passes_a_stop_on_and_ends_when_dropped() {
        let control = SearchControl::new();
        let flag = Arc::new(AtomicBool::new(false));
        let relay = {
            let control = control.clone();
            StopRelay::new(move || control.is_stopped(), Arc::clone(&flag))
        };
        std::thread::sleep(Duration::from_millis(20));
        assert!(!flag.load(Ordering::Relaxed), "nothing asked a stop yet");
        control.stop();
        let asked = Instant::now();
        while !flag.load(Ordering::Relaxed) {
            assert!(asked.elapsed() < Duration::from_secs(5), "the stop never reached the flag");
            std::thread::sleep(Duration::from_millis(1));
        }
        drop(relay);

        // Dropped before any stop: the thread ends and the flag stays clear.
        let flag = Arc::new(AtomicBool::new(false));
        let relay = StopRelay::new(|| false, Arc::clone(&flag));
        std::thread::sleep(Duration::from_millis(20));
        let dropped = Instant::now();
        drop(relay);
        assert!(dropped.elapsed() < Duration::from_secs(1));
        assert!(!flag.load(Ordering::Relaxed));
    }
}
