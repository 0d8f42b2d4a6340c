//! A running proof's progress, read from another thread: the solver writes its node count
//! (at its periodic stop check) and the bounds each null-window probe proves; whoever waits
//! for the proof (the solver agent) reads them and reports, so a long proof shows how far it
//! got instead of only a clock.

use std::sync::atomic::{AtomicI32, AtomicU64, Ordering::Relaxed};

/// See the module documentation. Values are in Pons' convention (see [`super`]).
#[derive(Debug)]
pub struct ProofGauge {
    nodes: AtomicU64,
    lower: AtomicI32,
    upper: AtomicI32,
}

/// What a [`ProofGauge`] read: nodes so far, and the bounds proved (None before the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaugeReading {
    pub nodes: u64,
    pub bounds: Option<(i32, i32)>,
}

impl Default for ProofGauge {
    fn default() -> Self {
        ProofGauge { nodes: AtomicU64::new(0), lower: AtomicI32::new(i32::MIN), upper: AtomicI32::new(i32::MAX) }
    }
}

impl ProofGauge {
    pub fn set_nodes(&self, nodes: u64) {
        self.nodes.store(nodes, Relaxed);
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
            nodes: self.nodes.load(Relaxed),
            bounds: (lower != i32::MIN && upper != i32::MAX).then_some((lower, upper)),
        }
    }
}
