//! How much a search may spend: per-move limits, and per-game budgets split over the moves
//! by the strategies of the Connect-X study.

use serde::{Deserialize, Serialize};

pub use crate::setting_error::{MAX_DEPTH, MAX_SECONDS, MAX_THREADS, MIN_SECONDS, SettingError};

/// Per-move limits; a search stops at the first one reached. None set means "until stopped".
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchLimits {
    /// Alpha-beta depth in plies.
    pub depth: Option<u32>,
    /// Alpha-beta nodes (or MCTS nodes created).
    pub nodes: Option<u64>,
    /// MCTS iterations.
    pub iterations: Option<u64>,
    /// Wall time in seconds.
    pub time: Option<f64>,
    /// CPU time of the searching thread in seconds: a budget that a loaded machine does not
    /// shrink (time spent waiting for a core does not count). One-thread searches only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_time: Option<f64>,
}

impl SearchLimits {
    pub fn depth(d: u32) -> Self {
        SearchLimits { depth: Some(d), ..Default::default() }
    }
    pub fn iterations(n: u64) -> Self {
        SearchLimits { iterations: Some(n), ..Default::default() }
    }
    pub fn nodes(n: u64) -> Self {
        SearchLimits { nodes: Some(n), ..Default::default() }
    }
    pub fn time(seconds: f64) -> Self {
        SearchLimits { time: Some(seconds), ..Default::default() }
    }
    pub fn cpu_time(seconds: f64) -> Self {
        SearchLimits { cpu_time: Some(seconds), ..Default::default() }
    }
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.iterations.is_none()
            && self.time.is_none()
            && self.cpu_time.is_none()
    }
    /// A limit that can stop a search part-way through an iteration (a clock, a node
    /// count): a fixed-depth alpha-beta then deepens iteratively, so that it has a finished
    /// depth's move to give.
    pub fn may_cut(&self) -> bool {
        self.time.is_some() || self.cpu_time.is_some() || self.nodes.is_some()
    }
    /// Limits with every time budget multiplied by `x` (quick runs of long experiments).
    pub fn scaled(&self, x: f64) -> Self {
        SearchLimits { time: self.time.map(|t| t * x), cpu_time: self.cpu_time.map(|t| t * x), ..*self }
    }
    /// The one check of every limit, wherever limits come from (a file, the command line,
    /// the workbench's form): the same rules, the same words.
    pub fn validate(&self) -> Result<(), SettingError> {
        if let Some(t) = self.time {
            check_seconds("limits.time", t)?;
        }
        if let Some(t) = self.cpu_time {
            check_seconds("limits.cpu_time", t)?;
        }
        if let Some(d) = self.depth {
            check_depth("limits.depth", d)?;
        }
        if let Some(n) = self.nodes {
            check_count("limits.nodes", n)?;
        }
        if let Some(n) = self.iterations {
            check_count("limits.iterations", n)?;
        }
        Ok(())
    }
}

/// The per-move limits an agent kind heeds, in the order they are listed to a user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heeds {
    /// The kind's name in messages ("alpha-beta", "MCTS", ...).
    pub kind: &'static str,
    pub depth: bool,
    pub nodes: bool,
    pub iterations: bool,
    pub time: bool,
    pub cpu_time: bool,
    /// The search ends with no limit at all (a random move; an engine's own turn time).
    pub ends_unlimited: bool,
}

impl Heeds {
    /// The names of the limits heeded, as a list in words ("depth, nodes or time").
    pub fn list(&self) -> String {
        let names: Vec<&str> = [
            ("depth", self.depth),
            ("nodes", self.nodes),
            ("iterations", self.iterations),
            ("time", self.time),
            ("cpu_time", self.cpu_time),
        ]
        .into_iter()
        .filter_map(|(n, on)| on.then_some(n))
        .collect();
        match names.as_slice() {
            [] => "none".into(),
            [one] => (*one).into(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    }
}

/// A limit that cannot end an agent's search: refused wherever limits meet an agent (a file,
/// the command line, a matchup, the workbench's form), since the search would run on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// A limit this kind of agent does not read.
    #[error("`{limit}` is not a limit this {kind} agent reads (it reads {heeded}): remove it")]
    Ignored { limit: &'static str, kind: &'static str, heeded: String },
    /// No limit the agent reads is set.
    #[error("no limit ends the search of this {kind} agent: give {heeded}")]
    Unlimited { kind: &'static str, heeded: String },
    /// A game budget counted in a unit this kind of agent does not read.
    #[error("a game budget in {unit} cannot limit the moves of this {kind} agent: give a budget in {heeded}")]
    BudgetUnit { unit: &'static str, kind: &'static str, heeded: String },
    /// `extra_moves: Depth` for an agent with no depth limit of its own.
    #[error(
        "game_budget.extra_moves: Depth grants as many moves as the agent's depth limit, and this {kind} agent has none: give it limits: (depth: ...)"
    )]
    ExtraMovesWithoutDepth { kind: &'static str },
}

impl SearchLimits {
    /// Checks that these limits can end the search of an agent that heeds `heeds`: every limit
    /// set is one it reads, and (unless the agent ends by itself) at least one is set.
    pub fn check_heeded(&self, heeds: &Heeds) -> Result<(), LimitError> {
        let set = [
            ("depth", self.depth.is_some(), heeds.depth),
            ("nodes", self.nodes.is_some(), heeds.nodes),
            ("iterations", self.iterations.is_some(), heeds.iterations),
            ("time", self.time.is_some(), heeds.time),
            ("cpu_time", self.cpu_time.is_some(), heeds.cpu_time),
        ];
        if let Some((limit, ..)) = set.iter().find(|(_, on, read)| *on && !*read) {
            return Err(LimitError::Ignored { limit, kind: heeds.kind, heeded: heeds.list() });
        }
        if !heeds.ends_unlimited && !set.iter().any(|(_, on, read)| *on && *read) {
            return Err(LimitError::Unlimited { kind: heeds.kind, heeded: heeds.list() });
        }
        Ok(())
    }
}

impl GameBudget {
    /// Checks that this budget can limit the moves of an agent that heeds `heeds`, whose own
    /// per-move limits are `own` (read beside the budget when it is spent as needed).
    pub fn check_heeded(&self, heeds: &Heeds, own: &SearchLimits) -> Result<(), LimitError> {
        let (unit, read) = match self.unit {
            BudgetUnit::Iterations => ("iterations", heeds.iterations),
            BudgetUnit::Nodes => ("nodes", heeds.nodes),
            BudgetUnit::Millis => ("milliseconds", heeds.time),
            BudgetUnit::Depth => ("depth", heeds.depth),
        };
        if !read {
            return Err(LimitError::BudgetUnit { unit, kind: heeds.kind, heeded: heeds.list() });
        }
        if self.strategy == BudgetStrategy::AsNeeded {
            // The entrant's own limits apply beside the budget: none may be one it ignores.
            let ends = Heeds { ends_unlimited: true, ..*heeds };
            own.check_heeded(&ends)?;
        }
        if self.extra_moves == ExtraMoves::Depth && (own.depth.is_none() || !heeds.depth) {
            // The extra moves search to the entrant's depth with no budget: without a depth
            // they would be unlimited.
            return Err(LimitError::ExtraMovesWithoutDepth { kind: heeds.kind });
        }
        Ok(())
    }
}

/// A number of seconds: finite, at least [`MIN_SECONDS`], at most [`MAX_SECONDS`].
pub fn check_seconds(what: &str, t: f64) -> Result<f64, SettingError> {
    if (MIN_SECONDS..=MAX_SECONDS).contains(&t) {
        Ok(t)
    } else {
        Err(SettingError::Seconds { field: what.into(), value: t })
    }
}

/// A count of nodes, iterations, games...: at least 1.
pub fn check_count(what: &str, n: u64) -> Result<u64, SettingError> {
    if n >= 1 { Ok(n) } else { Err(SettingError::Count { field: what.into(), value: n }) }
}

/// A search depth in plies: 1 to [`MAX_DEPTH`].
pub fn check_depth(what: &str, d: u32) -> Result<u32, SettingError> {
    if (1..=MAX_DEPTH).contains(&d) { Ok(d) } else { Err(SettingError::Depth { field: what.into(), value: d }) }
}

/// This machine's physical memory in MiB (Linux: /proc/meminfo), if it can be told.
pub fn machine_memory_mb() -> Option<u64> {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb / 1024)
    });
    // A container's or a batch job's limit (cgroup v2, then v1) and `ulimit -v` bound what
    // this process can have below the machine's total: exceeding them is an abort or a kill.
    let cgroup = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok()?.trim().parse::<u64>().ok())
        .filter(|&b| b < 1 << 60)
        .map(|b| b >> 20)
        .min();
    [total, cgroup, address_space_limit_mb()].into_iter().flatten().min()
}

/// `ulimit -v`, if set.
fn address_space_limit_mb() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: getrlimit only writes the struct it is given.
        let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
        (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur >> 20)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Types whose all-zero bit pattern is a valid value, so a table of them may come zeroed from
/// the allocator.
///
/// # Safety
/// Implement only for types for which all-zero bytes are a valid, initialised value.
pub unsafe trait ZeroIsValid {}

// SAFETY: an AtomicU32 has the representation of a u32; zero is a valid u32.
unsafe impl ZeroIsValid for std::sync::atomic::AtomicU32 {}

/// `n` zeroed values (at least `min`), halving `n` while the system refuses: a table smaller
/// than asked, which its owner reports (see [`short_table`]). The memory comes from the
/// allocator already zeroed (fresh pages from the system), so nothing is written now: a page
/// costs its fault when the table first touches it, inside the search and its time limit, not
/// before the clock starts.
pub fn allocate_zeroed<T: ZeroIsValid>(n: usize, min: usize) -> Box<[T]> {
    use std::alloc::{Layout, alloc_zeroed};
    assert!(std::mem::size_of::<T>() > 0);
    let mut n = n.max(min).max(1);
    loop {
        let layout = Layout::array::<T>(n).expect("table size overflows");
        // SAFETY: the layout has a non-zero size; a null result is handled below.
        let ptr = unsafe { alloc_zeroed(layout) } as *mut T;
        if !ptr.is_null() {
            // SAFETY: `ptr` holds `n` zeroed T (all-zero bits are a valid T, by ZeroIsValid),
            // allocated by the global allocator with the layout of `[T; n]`.
            return unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)) };
        }
        if n <= min {
            std::alloc::handle_alloc_error(layout);
        }
        n = (n / 2).max(min);
    }
}

/// Said when a table of `what` got fewer than the `asked` bytes (the system refused them, see
/// [`allocate_zeroed`]): a search's warning, since its node counts and speed then differ from
/// a run that had them.
pub fn short_table(what: &str, asked: u64, got: u64) -> Option<String> {
    (got < asked).then(|| format!("could not allocate the {what}'s {} MiB: it has {} MiB", asked >> 20, got >> 20))
}

/// A thread count: 1 to [`MAX_THREADS`].
pub fn check_threads(what: &str, threads: u32) -> Result<(), SettingError> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(SettingError::Threads { field: what.into(), value: threads })
    }
}

/// A table or tree size in MiB: at least `min`, and no more than this machine's memory, so
/// that a size typed in a file is an error here rather than an abort when it is allocated.
pub fn check_memory_mb(what: &str, mb: u64, min: u64) -> Result<u64, SettingError> {
    if mb < min {
        return Err(SettingError::MemoryBelow { field: what.into(), value: mb, min });
    }
    if let Some(total) = machine_memory_mb()
        && mb > total * 3 / 4
    {
        return Err(SettingError::MemoryAbove { field: what.into(), value: mb, total });
    }
    Ok(mb)
}

/// How a per-game budget is split over a player's moves (Connect-X study).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum BudgetStrategy {
    /// budget / max_moves on every move.
    Thrifty,
    /// budget / (max_moves / 2) on each of the first max_moves / 2 moves, then nothing.
    Greedy,
    /// Move i gets a share proportional to 0.9^i, normalised to the budget; the rounding rest
    /// goes to the last move.
    Optimistic,
    /// No split: every move searches with the entrant's own limits (e.g. a depth) and takes
    /// what it uses from the total, capped at what is left. The Connect-X study's minimax:
    /// a fixed depth under a game budget of evaluated states. With `forfeit`, a player whose
    /// budget is gone before the game ends loses it.
    AsNeeded,
}

/// What the per-game budget counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum BudgetUnit {
    Iterations,
    Nodes,
    /// Milliseconds.
    Millis,
    /// Alpha-beta depth is not divisible; `Depth` spends the same depth on every move.
    Depth,
}

/// A budget for a whole game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameBudget {
    pub total: u64,
    pub unit: BudgetUnit,
    pub strategy: BudgetStrategy,
    /// Lose the game when the budget is gone before it ends (otherwise play on with the
    /// smallest search: one iteration or depth 1).
    #[serde(default)]
    pub forfeit: bool,
    /// Moves still played once the budget is gone, before the forfeit (with `forfeit` only).
    /// Left out of a file (and of its config hash) when it is the default, none.
    #[serde(default, skip_serializing_if = "ExtraMoves::is_none")]
    pub extra_moves: ExtraMoves,
}

/// Moves a player may still make after its game budget is spent, before it forfeits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ExtraMoves {
    /// None: the move that finds the budget gone (or runs it out mid-search) forfeits.
    #[default]
    None,
    /// As many moves as the entrant's own depth limit, each searched to that depth and not
    /// charged to the budget. The Connect-X study's rule for minimax ("depth number of
    /// additional moves after its budget is consumed, since it can reuse the tree computed
    /// in previous moves"); a fresh search of the full depth is an upper bound on what the
    /// reused tree gives. The move cut short by the budget is the first of them.
    Depth,
}

impl ExtraMoves {
    pub fn is_none(&self) -> bool {
        *self == ExtraMoves::None
    }

    /// How many moves this grants an entrant whose own per-move limits are `own`.
    pub fn count(&self, own: &SearchLimits) -> u32 {
        match self {
            ExtraMoves::None => 0,
            ExtraMoves::Depth => own.depth.unwrap_or(0),
        }
    }
}

impl GameBudget {
    pub fn validate(&self) -> Result<(), SettingError> {
        check_count("game_budget.total", self.total)?;
        if !self.extra_moves.is_none() && !self.forfeit {
            return Err(SettingError::Needs {
                field: "game_budget.extra_moves",
                rule: "applies before a forfeit: it needs forfeit: true",
            });
        }
        match self.unit {
            BudgetUnit::Millis => {
                check_seconds("game_budget.total (milliseconds)", self.total as f64 / 1000.0).map(drop)
            }
            BudgetUnit::Depth => {
                check_depth("game_budget.total (depth)", self.total.min(u32::MAX as u64) as u32).map(drop)
            }
            BudgetUnit::Iterations | BudgetUnit::Nodes => Ok(()),
        }
    }

    /// The shares of every move `0..max_moves` (the player's own moves). They sum to `total`.
    pub fn shares(&self, max_moves: usize) -> Vec<u64> {
        let n = max_moves.max(1);
        let total = self.total;
        match self.strategy {
            // The first move may take it all; what is left is known only as the game goes.
            BudgetStrategy::AsNeeded => (0..n).map(|i| if i == 0 { total } else { 0 }).collect(),
            BudgetStrategy::Thrifty => vec![total / n as u64; n],
            BudgetStrategy::Greedy => {
                let half = (n / 2).max(1);
                (0..n).map(|i| if i < half { total / half as u64 } else { 0 }).collect()
            }
            BudgetStrategy::Optimistic => {
                let weights: Vec<f64> = (0..n).map(|i| 0.9f64.powi(i as i32)).collect();
                let sum: f64 = weights.iter().sum();
                let mut shares: Vec<u64> = weights.iter().map(|w| (total as f64 * w / sum).floor() as u64).collect();
                let given: u64 = shares.iter().sum();
                *shares.last_mut().unwrap() += total - given;
                shares
            }
        }
    }

    /// The limits of the player's move number `i` (0-based) out of `max_moves`, having spent
    /// `spent` (nodes or iterations) so far, with `own` the entrant's per-move limits; None when
    /// the budget is gone and `forfeit` is set.
    pub fn next_limits(&self, i: usize, max_moves: usize, own: &SearchLimits, spent: u64) -> Option<SearchLimits> {
        if self.strategy != BudgetStrategy::AsNeeded {
            return self.limits_for_move(i, max_moves);
        }
        let left = self.total.saturating_sub(spent);
        if left == 0 && self.forfeit && self.unit != BudgetUnit::Depth {
            return None;
        }
        let mut l = *own;
        match self.unit {
            BudgetUnit::Iterations => l.iterations = Some(l.iterations.map_or(left, |x| x.min(left)).max(1)),
            BudgetUnit::Nodes => l.nodes = Some(l.nodes.map_or(left, |x| x.min(left)).max(1)),
            BudgetUnit::Millis => {
                let t = left.max(1) as f64 / 1000.0;
                l.time = Some(l.time.map_or(t, |x| x.min(t)));
            }
            BudgetUnit::Depth => l.depth = Some(self.total.clamp(1, 1000) as u32),
        }
        Some(l)
    }

    /// What a move spent of this budget's unit (for [`BudgetStrategy::AsNeeded`]).
    pub fn spent_by(&self, nodes: u64, iterations: u64, seconds: f64) -> u64 {
        match self.unit {
            BudgetUnit::Iterations => iterations,
            BudgetUnit::Nodes => nodes,
            BudgetUnit::Millis => (seconds * 1000.0).ceil() as u64,
            BudgetUnit::Depth => 0,
        }
    }

    /// The per-move limits of the player's move number `i` (0-based) out of `max_moves`, or
    /// None when the budget is gone and `forfeit` is set.
    pub fn limits_for_move(&self, i: usize, max_moves: usize) -> Option<SearchLimits> {
        let share = self.shares(max_moves).get(i).copied().unwrap_or(0);
        if share == 0 && self.forfeit && self.unit != BudgetUnit::Depth {
            return None;
        }
        Some(match self.unit {
            BudgetUnit::Iterations => SearchLimits::iterations(share.max(1)),
            BudgetUnit::Nodes => SearchLimits::nodes(share.max(1)),
            BudgetUnit::Millis => SearchLimits::time(share.max(1) as f64 / 1000.0),
            BudgetUnit::Depth => SearchLimits::depth(self.total.clamp(1, 1000) as u32),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_out_of_range_are_named_short() {
        assert_eq!(check_seconds("--time", 2.5), Ok(2.5));
        for (t, shown) in
            [(0.0, "not 0"), (-1.0, "not -1"), (f64::NAN, "not NaN"), (1e300, "not 1e300"), (2e6, "not 2000000")]
        {
            let e = check_seconds("--time", t).unwrap_err();
            assert!(matches!(&e, SettingError::Seconds { field, .. } if field == "--time"), "{e:?}");
            let e = e.to_string();
            assert!(e.starts_with("--time must be a number of seconds") && e.ends_with(shown), "{e}");
        }
    }

    fn budget(total: u64, strategy: BudgetStrategy) -> GameBudget {
        GameBudget { total, unit: BudgetUnit::Iterations, strategy, forfeit: false, extra_moves: ExtraMoves::None }
    }

    #[test]
    fn thrifty_spends_evenly() {
        // Connect-4: 42 cells, max_moves = 21.
        let s = budget(2100, BudgetStrategy::Thrifty).shares(21);
        assert_eq!(s, vec![100; 21]);
    }

    #[test]
    fn greedy_spends_the_first_half() {
        let s = budget(1000, BudgetStrategy::Greedy).shares(21);
        assert_eq!(&s[..10], &[100; 10]);
        assert!(s[10..].iter().all(|&x| x == 0));
    }

    #[test]
    fn optimistic_decays_by_nine_tenths_and_sums_to_the_budget() {
        let s = budget(10_000, BudgetStrategy::Optimistic).shares(21);
        assert_eq!(s.iter().sum::<u64>(), 10_000);
        // 0.9^0 / sum(0.9^i, i < 21) of 10,000 = 1,124.4...
        let sum: f64 = (0..21).map(|i| 0.9f64.powi(i)).sum();
        assert_eq!(s[0], (10_000.0 / sum).floor() as u64);
        assert!(s[1] < s[0] && s[2] < s[1]);
        assert!((s[5] as f64 / s[4] as f64 - 0.9).abs() < 0.01);
    }

    /// As needed: the entrant's own depth, capped at what is left; the game is forfeited once
    /// the budget is gone.
    #[test]
    fn as_needed_spends_what_the_move_takes() {
        let b = GameBudget {
            total: 1000,
            unit: BudgetUnit::Nodes,
            strategy: BudgetStrategy::AsNeeded,
            forfeit: true,
            extra_moves: ExtraMoves::None,
        };
        let own = SearchLimits::depth(4);
        let l = b.next_limits(0, 21, &own, 0).unwrap();
        assert_eq!((l.depth, l.nodes), (Some(4), Some(1000)));
        let l = b.next_limits(3, 21, &own, 900).unwrap();
        assert_eq!((l.depth, l.nodes), (Some(4), Some(100)));
        assert_eq!(b.next_limits(4, 21, &own, 1000), None);
        assert_eq!(b.spent_by(250, 0, 0.1), 250);
        let keep = GameBudget { forfeit: false, ..b };
        assert_eq!(keep.next_limits(4, 21, &own, 1200).unwrap().nodes, Some(1));
    }

    #[test]
    fn forfeit_when_the_budget_is_gone() {
        let mut b = budget(1000, BudgetStrategy::Greedy);
        assert_eq!(b.limits_for_move(15, 21), Some(SearchLimits::iterations(1)));
        b.forfeit = true;
        assert_eq!(b.limits_for_move(15, 21), None);
        assert_eq!(b.limits_for_move(0, 21), Some(SearchLimits::iterations(100)));
    }
}
