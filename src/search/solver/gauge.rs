//! A running proof's progress, read from another thread: the solver writes its node count
//! (at its periodic stop check) and the bounds each null-window probe proves; whoever waits
//! for the proof (the solver agent) reads them and reports, so a long proof shows how far it
//! got instead of only a clock.

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering::Relaxed};

/// See the module documentation. Values are in Pons' convention (see [`super`]).
#[derive(Debug)]
pub struct ProofGauge {
    nodes: AtomicU64,
    lower: AtomicI32,
    upper: AtomicI32,
    /// For a run of several proofs by one solver (every move's, after the position's): the
    /// solver's count when the current proof began, and the nodes of the run's earlier
    /// proofs. A reading counts the run's nodes, whichever count the solver keeps.
    base: AtomicU64,
    earlier: AtomicU64,
}

/// What a [`ProofGauge`] read: nodes so far, and the bounds proved (None before the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaugeReading {
    pub nodes: u64,
    pub bounds: Option<(i32, i32)>,
}

impl Default for ProofGauge {
    fn default() -> Self {
        ProofGauge {
            nodes: AtomicU64::new(0),
            lower: AtomicI32::new(i32::MIN),
            upper: AtomicI32::new(i32::MAX),
            base: AtomicU64::new(0),
            earlier: AtomicU64::new(0),
        }
    }
}

impl ProofGauge {
    pub fn set_nodes(&self, nodes: u64) {
        self.nodes.store(nodes, Relaxed);
    }

    /// A new proof of a run begins with the solver's count at `solver_nodes`, after `earlier`
    /// nodes of the run's proofs before it.
    pub fn start_part(&self, solver_nodes: u64, earlier: u64) {
        self.base.store(solver_nodes, Relaxed);
        self.nodes.store(solver_nodes, Relaxed);
        self.earlier.store(earlier, Relaxed);
    }

    pub fn set_bounds(&self, lower: i32, upper: i32) {
        self.lower.store(lower, Relaxed);
        self.upper.store(upper, Relaxed);
    }

    /// The two bounds are read apart, so a reading may pair one probe's lower bound with the
    /// next one's upper: both are proved and only narrow, so any pair holds the value.
    pub fn read(&self) -> GaugeReading {
        let (lower, upper) = (self.lower.load(Relaxed), self.upper.load(Relaxed));
        GaugeReading {
            nodes: self.earlier.load(Relaxed) + self.nodes.load(Relaxed).saturating_sub(self.base.load(Relaxed)),
            bounds: (lower != i32::MIN && upper != i32::MAX).then_some((lower, upper)),
        }
    }
}

/// A solver that can tell a [`ProofGauge`] its nodes as it searches.
pub(super) trait Gauged {
    fn nodes(&self) -> u64;
    fn gauge_slot(&mut self) -> &mut Option<Arc<ProofGauge>>;
}

/// Runs `proof` on `solver` with `gauge` told its nodes, as one proof of a run after `earlier`
/// nodes of the run's proofs before it; takes the gauge off again after. Returns the proof's
/// result and the nodes it searched.
pub(super) fn gauged<S: Gauged, R>(
    solver: &mut S,
    gauge: &Option<Arc<ProofGauge>>,
    earlier: u64,
    proof: impl FnOnce(&mut S) -> R,
) -> (R, u64) {
    let before = solver.nodes();
    if let Some(g) = gauge {
        g.start_part(before, earlier);
    }
    *solver.gauge_slot() = gauge.clone();
    let r = proof(solver);
    *solver.gauge_slot() = None;
    (r, solver.nodes() - before)
}

#[cfg(test)]
mod tests {
    use super::ProofGauge;

    /// A run of proofs counts its own nodes: from each proof's start, after the earlier ones'.
    #[test]
    fn a_run_of_proofs_counts_its_nodes_from_each_start() {
        let g = ProofGauge::default();
        g.set_nodes(700);
        assert_eq!(g.read().nodes, 700, "a lone proof: the solver's count");
        g.start_part(1000, 50);
        assert_eq!(g.read().nodes, 50, "nothing of the new proof yet");
        g.set_nodes(1200);
        assert_eq!(g.read().nodes, 250);
        // A solver made anew counts from 0 again.
        g.start_part(0, 250);
        g.set_nodes(30);
        assert_eq!(g.read().nodes, 280);
        assert_eq!(g.read().bounds, None);
    }
}
