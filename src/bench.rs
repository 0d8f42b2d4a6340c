//! Measurements behind `mnklab bench` and the criterion benches.

use std::time::{Duration, Instant};

use crate::game::{AnyPosition, Position, Variant};
use crate::rng::seeded;
use crate::search::playout::random_playout_on_copy;
use crate::with_position;

/// One run of the reference program: the rate it printed.
fn reference_rate(command: &str, program: &str, args: &[&str]) -> Result<f64, ReferenceError> {
    let out = std::process::Command::new(program)
        .args(args)
        .output()
        .map_err(|source| ReferenceError::Start { program: program.to_string(), source })?;
    if !out.status.success() {
        return Err(ReferenceError::Failed { command: command.to_string(), status: out.status });
    }
    printed_rate(&String::from_utf8_lossy(&out.stdout))
        .ok_or_else(|| ReferenceError::NoRate { command: command.to_string() })
}

/// What a playout benchmark measured.
#[derive(Clone, Debug)]
pub struct PlayoutReport {
    pub variant: Variant,
    pub playouts: u64,
    pub moves: u64,
    pub elapsed: Duration,
    /// Wins of the first and second player and draws, as a sanity check of the rules.
    pub outcomes: [u64; 3],
}

impl PlayoutReport {
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64()
    }
    pub fn mean_length(&self) -> f64 {
        self.moves as f64 / self.playouts.max(1) as f64
    }
}

/// Plays uniformly random games from the start position on this thread for about `seconds`.
pub fn playouts(variant: Variant, seconds: f64, seed: u64) -> PlayoutReport {
    let pos = AnyPosition::new(variant);
    with_position!(pos, p => playouts_on(p, seconds, seed))
}

fn playouts_on<P: Position>(pos: P, seconds: f64, seed: u64) -> PlayoutReport {
    let mut rng = seeded(seed);
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let start = Instant::now();
    let (mut playouts, mut moves, mut outcomes) = (0u64, 0u64, [0u64; 3]);
    let mut scratch = pos.clone();
    loop {
        // Check the clock once per batch so timing stays off the hot path.
        for _ in 0..256 {
            let r = random_playout_on_copy(&pos, &mut scratch, &mut rng);
            outcomes[r.status.winner().map_or(2, |p| p.index())] += 1;
            moves += r.length as u64;
            playouts += 1;
        }
        if start.elapsed() >= budget {
            break;
        }
    }
    PlayoutReport { variant: *pos.variant(), playouts, moves, elapsed: start.elapsed(), outcomes }
}

/// The rate a reference program printed: the number after the last `..._per_second` word
/// (the yardsticks print `playouts_per_second N`, timing harnesses `iterations_per_second N`).
pub fn printed_rate(output: &str) -> Option<f64> {
    output.lines().rev().find_map(|line| {
        let mut words = line.split_whitespace();
        while let Some(w) = words.next() {
            if w.ends_with("_per_second") {
                return words.next()?.parse::<f64>().ok().filter(|r| r.is_finite() && *r > 0.0);
            }
        }
        None
    })
}

/// A same-run comparison: each round runs the reference program once, then mnklab's
/// measurement once (A, B, A, B ...), so both see the same machine and load.
#[derive(Clone, Debug, Default)]
pub struct SameRun {
    /// (reference rate, mnklab rate) per round.
    pub rounds: Vec<(f64, f64)>,
    /// The 1, 5 and 15 minute load averages at the end (Linux), as `/proc/loadavg` gives them.
    pub load: Option<String>,
}

impl SameRun {
    /// mnklab's rate over the reference's, per round.
    pub fn ratios(&self) -> Vec<f64> {
        self.rounds.iter().map(|(reference, mine)| mine / reference).collect()
    }

    pub fn median_ratio(&self) -> Option<f64> {
        median(&self.ratios())
    }

    /// The lines `mnklab bench --against` and the criterion benches print: each round, the
    /// ratios, the median and the load.
    pub fn report(&self) -> String {
        let mut out = String::new();
        for (i, (reference, mine)) in self.rounds.iter().enumerate() {
            let ratio = mine / reference;
            out += &format!("round {}: reference {reference:.0}/s  mnklab {mine:.0}/s  ratio {ratio:.3}\n", i + 1);
        }
        let list: Vec<String> = self.ratios().iter().map(|r| format!("{r:.3}")).collect();
        out += &format!("ratio mnklab/reference per round: {}\n", list.join(" "));
        out += &format!("median_ratio {:.3}\n", self.median_ratio().unwrap_or(f64::NAN));
        if let Some(load) = &self.load {
            out += &format!("load {load}\n");
        }
        out
    }
}

/// Why the reference program of a same-run comparison gave no rate.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    #[error("no program to run")]
    NoProgram,
    #[error("cannot run {program}: {source}")]
    Start { program: String, source: std::io::Error },
    #[error("{command} failed ({status})")]
    Failed { command: String, status: std::process::ExitStatus },
    #[error("{command} printed no \"..._per_second N\" line")]
    NoRate { command: String },
}

/// Why a same-run comparison stopped: the reference, or mnklab's own measurement (`E`).
#[derive(Debug, thiserror::Error)]
pub enum SameRunError<E: std::fmt::Display + std::fmt::Debug> {
    #[error("the reference: {0}")]
    Reference(#[source] ReferenceError),
    #[error("{0}")]
    Ours(E),
}

/// Runs `command` (a program and its arguments, split at spaces; it must print
/// `<something>_per_second N`) and `ours` (mnklab's measurement, returning its rate)
/// alternately for `rounds` rounds, reference first; `each` sees every finished round.
pub fn same_run<E: std::fmt::Display + std::fmt::Debug>(
    command: &str,
    rounds: u32,
    mut ours: impl FnMut() -> Result<f64, E>,
    mut each: impl FnMut(usize, f64, f64),
) -> Result<SameRun, SameRunError<E>> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let Some((program, args)) = words.split_first() else {
        return Err(SameRunError::Reference(ReferenceError::NoProgram));
    };
    let mut run = SameRun::default();
    for round in 1..=rounds as usize {
        let reference = reference_rate(command, program, args).map_err(SameRunError::Reference)?;
        let mine = ours().map_err(SameRunError::Ours)?;
        each(round, reference, mine);
        run.rounds.push((reference, mine));
    }
    run.load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    Ok(run)
}

/// The median of some ratios (the mean of the middle two for an even count).
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 })
}

#[cfg(test)]
mod tests {
    use super::{median, printed_rate};

    #[test]
    fn rates_are_read_from_a_reference_program_output() {
        assert_eq!(printed_rate("first-player net score 3\nplayouts_per_second 6071000\n"), Some(6_071_000.0));
        assert_eq!(printed_rate("iterations_per_second 117876"), Some(117_876.0));
        assert_eq!(printed_rate("x 1\nnodes 5 nodes_per_second 25.5 more"), Some(25.5));
        assert_eq!(printed_rate("nothing here"), None);
        assert_eq!(printed_rate("playouts_per_second fast"), None);
        assert_eq!(printed_rate("playouts_per_second -3"), None);
    }

    #[test]
    fn medians() {
        assert_eq!(median(&[1.3, 1.27, 1.28, 1.29, 1.25]), Some(1.28));
        assert_eq!(median(&[2.0, 1.0]), Some(1.5));
        assert_eq!(median(&[]), None);
    }
}
