//! Tuning a heuristic's weights by games: SPSA (simultaneous perturbation stochastic
//! approximation) as chess engines' testing frameworks run it. Each pair of games perturbs
//! every weight at once by a random sign times a step, plays the weights plus the step
//! against the weights minus it from one opening with both colours, and moves every weight
//! towards the side that scored: by `a_k * result * sign / c_k`, where `result` is the plus
//! side's score less the minus side's (from -2 to 2), and the step `c_k` and the rate `a_k`
//! shrink as the run goes on (`c_k = c / (k + 1)^gamma`, `a_k = a / (A + k + 1)^alpha`,
//! with `c` and `a` set so that the last pair perturbs each weight by its `step` and moves
//! it by `r_end * step` a point of result).
//!
//! A run is a [`Tune`] file: the agent whose heuristic is tuned (alpha-beta), the game,
//! the limits of a move, the openings, the pairs, the seed and the weights with their
//! steps and bounds. Every random choice (the signs, the opening) comes from the seed and
//! the pair's number, so a run is the same at any thread count, resumed or not, and node
//! or depth limits make its games the same on any machine.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::matchup::{AgentSource, GameSpec, Opening, check_folder_name, game_seed};
use super::{GameRecord, ResolvedEntrant, play_game};
use crate::agents::{AgentConfig, AgentFile};
use crate::eval::HeuristicConfig;
use crate::game::Variant;
use crate::io::{FileError, check_version, parse_ron, read_text, to_ron};
use crate::rng::{below, seeded};
use crate::search::{SearchControl, SearchLimits};

pub const TUNE_VERSION: u32 = 1;

fn default_version() -> u32 {
    TUNE_VERSION
}

fn one() -> u64 {
    1
}

/// A tuning run, as its file writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tune {
    #[serde(default = "default_version")]
    pub version: u32,
    /// Names the output folder (`out/NAME`) and the tuned agent (`NAME`).
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub variant: Variant,
    /// The agent whose heuristic is tuned: an alpha-beta agent. Its weights are the start.
    pub agent: AgentSource,
    /// The limits of a move, both sides (default: the agent file's). Node or depth limits
    /// make the games the same on every machine; time limits do not.
    #[serde(default)]
    pub limits: Option<SearchLimits>,
    /// The opening of each pair (`List`: one picked at random a pair; `RandomPlies(n)`).
    pub opening: Opening,
    /// Pairs of games (each opening with both colours, plus against minus).
    pub pairs: u64,
    /// Pairs played with the same weights (the updates of a batch are applied in order after
    /// it): the games of a batch can be played at once on several threads.
    #[serde(default = "one")]
    pub batch: u64,
    #[serde(default)]
    pub seed: u64,
    pub parameters: Vec<TuneParameter>,
    #[serde(default)]
    pub spsa: SpsaSchedule,
}

/// One weight to tune.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneParameter {
    /// A parameter of the agent's heuristic (`HeuristicConfig::parameters`).
    pub name: String,
    /// The perturbation at the end of the run (larger at the start).
    pub step: f64,
    /// The weight never leaves `min..=max`.
    pub min: f64,
    pub max: f64,
}

/// SPSA's gains (the defaults are the usual ones).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpsaSchedule {
    /// The move of a weight at the end of the run, per point of result, in steps.
    pub r_end: f64,
    /// `A` as a fraction of the pairs: damps the first updates.
    pub a_fraction: f64,
    pub alpha: f64,
    pub gamma: f64,
}

impl Default for SpsaSchedule {
    fn default() -> Self {
        SpsaSchedule { r_end: 0.002, a_fraction: 0.1, alpha: 0.602, gamma: 0.101 }
    }
}

/// Why a tuning file cannot run: the field at fault and the rule it breaks.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct TuneError {
    pub field: String,
    pub problem: TuneProblem,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TuneProblem {
    #[error("must be at least 1")]
    Zero,
    #[error("lists no parameter to tune")]
    NoParameters,
    #[error("the agent is {kind}: only an alpha-beta agent's heuristic is tuned")]
    NotTunable { kind: &'static str },
    #[error("{name:?} is not a parameter of the heuristic {heuristic} (it has: {known})")]
    Unknown { name: String, heuristic: &'static str, known: String },
    #[error("{name:?} is listed twice")]
    Twice { name: String },
    #[error("must be a number above 0, not {value}")]
    NotPositive { value: f64 },
    #[error("min {min} must be below max {max}")]
    Bounds { min: f64, max: f64 },
    #[error("the agent's {name} is {value}, outside min..=max")]
    StartOutside { name: String, value: f64 },
    #[error("{value} is refused by the heuristic: {message}")]
    Refused { value: f64, message: String },
    #[error("lists no opening")]
    NoOpening,
    #[error("{0}")]
    Other(String),
}

impl TuneProblem {
    fn at(self, field: impl Into<String>) -> TuneError {
        TuneError { field: field.into(), problem: self }
    }
}

impl Tune {
    pub fn parse(text: &str, path: &Path) -> Result<Tune, FileError> {
        let t: Tune = parse_ron(text, path, "tuning")?;
        check_version(path, "tuning", t.version, TUNE_VERSION)?;
        Ok(t)
    }

    pub fn load(path: &Path) -> Result<Tune, FileError> {
        Tune::parse(&read_text(path)?, path)
    }

    pub fn to_ron(&self) -> String {
        to_ron(self)
    }

    /// The agent file and the limits of a move, every setting checked against them (`base`:
    /// the folder agent files are relative to).
    pub fn resolve(&self, base: &Path) -> Result<(AgentFile, SearchLimits), TuneError> {
        check_folder_name(&self.name).map_err(|e| TuneProblem::Other(e.to_string()).at("name"))?;
        for (field, n) in [("pairs", self.pairs), ("batch", self.batch)] {
            if n == 0 {
                return Err(TuneProblem::Zero.at(field));
            }
        }
        if matches!(&self.opening, Opening::List(l) if l.is_empty()) {
            return Err(TuneProblem::NoOpening.at("opening"));
        }
        let s = &self.spsa;
        for (field, v) in [("spsa.r_end", s.r_end), ("spsa.alpha", s.alpha), ("spsa.gamma", s.gamma)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(TuneProblem::NotPositive { value: v }.at(field));
            }
        }
        if !(s.a_fraction.is_finite() && s.a_fraction >= 0.0) {
            return Err(
                TuneProblem::Other(format!("must be a number >= 0, not {}", s.a_fraction)).at("spsa.a_fraction")
            );
        }
        let file = self.agent.load(base, 0).map_err(|e| TuneProblem::Other(e.to_string()).at("agent"))?;
        let limits = self.limits.unwrap_or(file.limits);
        limits.validate().map_err(|e| TuneProblem::Other(e.to_string()).at("limits"))?;
        file.agent.check_limits(&limits, None, true).map_err(|e| TuneProblem::Other(e.to_string()).at("limits"))?;
        let heuristic = heuristic_of(file.agent.for_variant(&self.variant)).map_err(|p| p.at("agent"))?;
        if self.parameters.is_empty() {
            return Err(TuneProblem::NoParameters.at("parameters"));
        }
        let known = heuristic.parameters();
        for (i, p) in self.parameters.iter().enumerate() {
            let field = |f: &str| format!("parameters[{i}].{f}");
            let Some(&(_, start)) = known.iter().find(|(n, _)| *n == p.name) else {
                let names: Vec<&str> = known.iter().map(|(n, _)| n.as_str()).collect();
                let known = if names.is_empty() { "none".into() } else { names.join(", ") };
                return Err(
                    TuneProblem::Unknown { name: p.name.clone(), heuristic: heuristic.name(), known }.at(field("name"))
                );
            };
            if self.parameters[..i].iter().any(|q| q.name == p.name) {
                return Err(TuneProblem::Twice { name: p.name.clone() }.at(field("name")));
            }
            if !(p.step.is_finite() && p.step > 0.0) {
                return Err(TuneProblem::NotPositive { value: p.step }.at(field("step")));
            }
            if !(p.min.is_finite() && p.max.is_finite() && p.min < p.max) {
                return Err(TuneProblem::Bounds { min: p.min, max: p.max }.at(field("min")));
            }
            if !(p.min..=p.max).contains(&start) {
                return Err(TuneProblem::StartOutside { name: p.name.clone(), value: start }.at(field("min")));
            }
            // Both bounds must make an agent the heuristic accepts: every weight the run can
            // try lies between them.
            for (bound, v) in [("min", p.min), ("max", p.max)] {
                let mut h = heuristic.clone();
                h.set_parameter(&p.name, v);
                h.validate().map_err(|e| TuneProblem::Refused { value: v, message: e.to_string() }.at(field(bound)))?;
            }
        }
        Ok((file, limits))
    }

    /// The agent's starting weights, in the order of `parameters`.
    pub fn start(&self, file: &AgentFile) -> Vec<f64> {
        let known = heuristic_of(file.agent.for_variant(&self.variant)).map(|h| h.parameters()).unwrap_or_default();
        self.parameters.iter().map(|p| known.iter().find(|(n, _)| *n == p.name).map_or(0.0, |&(_, v)| v)).collect()
    }

    /// `file` with these weights (in the order of `parameters`) in its heuristic.
    pub fn with_weights(&self, file: &AgentFile, weights: &[f64]) -> AgentFile {
        let mut f = file.clone();
        // A per-family agent is tuned on the family of the game played.
        if let AgentConfig::AlphaBeta(c) = f.agent.for_variant_mut(&self.variant) {
            for (p, &w) in self.parameters.iter().zip(weights) {
                c.heuristic.set_parameter(&p.name, w);
            }
        }
        f
    }
}

fn heuristic_of(agent: &AgentConfig) -> Result<&HeuristicConfig, TuneProblem> {
    match agent {
        AgentConfig::AlphaBeta(c) => Ok(&c.heuristic),
        other => Err(TuneProblem::NotTunable { kind: other.kind() }),
    }
}

/// The perturbation of one pair: the weights each side plays with.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// +1 or -1 a weight.
    pub signs: Vec<f64>,
    /// The step of each weight at this pair.
    pub steps: Vec<f64>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// SPSA's state: the weights and the gains.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    pub weights: Vec<f64>,
    c: Vec<f64>,
    a: Vec<f64>,
    big_a: f64,
    schedule: SpsaSchedule,
    bounds: Vec<(f64, f64)>,
    seed: u64,
}

impl Spsa {
    pub fn new(tune: &Tune, start: Vec<f64>) -> Spsa {
        let s = tune.spsa;
        let n = tune.pairs as f64;
        let big_a = s.a_fraction * n;
        Spsa {
            weights: start,
            c: tune.parameters.iter().map(|p| p.step * n.powf(s.gamma)).collect(),
            a: tune.parameters.iter().map(|p| s.r_end * p.step * p.step * (big_a + n).powf(s.alpha)).collect(),
            big_a,
            schedule: s,
            bounds: tune.parameters.iter().map(|p| (p.min, p.max)).collect(),
            seed: tune.seed,
        }
    }

    /// The signs and weights of pair `k` (from 0), from the seed and `k` alone.
    pub fn perturb(&self, k: u64) -> Perturbation {
        let mut rng = seeded(game_seed(self.seed, 2 * k));
        let signs: Vec<f64> = self.weights.iter().map(|_| if below(&mut rng, 2) == 0 { -1.0 } else { 1.0 }).collect();
        let scale = (k as f64 + 1.0).powf(self.schedule.gamma);
        let steps: Vec<f64> = self.c.iter().map(|c| c / scale).collect();
        let side = |dir: f64| -> Vec<f64> {
            (0..self.weights.len())
                .map(|i| (self.weights[i] + dir * signs[i] * steps[i]).clamp(self.bounds[i].0, self.bounds[i].1))
                .collect()
        };
        Perturbation { plus: side(1.0), minus: side(-1.0), signs, steps }
    }

    /// Moves the weights by pair `k`'s result: the plus side's score less the minus side's.
    pub fn update(&mut self, k: u64, p: &Perturbation, result: f64) {
        let rate = (self.big_a + k as f64 + 1.0).powf(self.schedule.alpha);
        for i in 0..self.weights.len() {
            let step = self.a[i] / rate * result * p.signs[i] / p.steps[i];
            self.weights[i] = (self.weights[i] + step).clamp(self.bounds[i].0, self.bounds[i].1);
        }
    }
}

/// A pair's games and their result.
#[derive(Clone, Debug, PartialEq)]
pub struct PairResult {
    pub pair: u64,
    pub opening: String,
    /// The plus side's score over the two games (0 to 2).
    pub plus_score: f64,
    pub plies: u32,
}

/// The opening of pair `k`: a list's entry picked by the seed, or the seed of random plies.
fn pair_opening(tune: &Tune, k: u64) -> (Option<String>, u64) {
    let seed = game_seed(tune.seed, 2 * k + 1);
    match &tune.opening {
        Opening::List(list) => (Some(list[below(&mut seeded(seed), list.len())].clone()), seed),
        _ => (None, seed),
    }
}

/// Plays pair `k` (the plus side first, then second) with `p`'s weights; `None` if
/// `control` stopped it.
pub fn play_pair(
    tune: &Tune,
    file: &AgentFile,
    limits: SearchLimits,
    k: u64,
    p: &Perturbation,
    control: &SearchControl,
) -> Option<(PairResult, [GameRecord; 2])> {
    let entrant = |name: &str, w: &[f64]| ResolvedEntrant {
        name: name.into(),
        file: tune.with_weights(file, w),
        limits,
        game_budget: None,
    };
    let entrants = [entrant("plus", &p.plus), entrant("minus", &p.minus)];
    let (opening, opening_seed) = pair_opening(tune, k);
    let game = |g: u64, players: [usize; 2]| {
        let spec = GameSpec {
            index: 2 * k + g,
            variant: tune.variant,
            players,
            pairing: (0, 1),
            seed: game_seed(tune.seed ^ 0x5eed, 2 * k + g),
            opening_seed,
            opening: opening.clone(),
        };
        play_game(&spec, &entrants, &tune.opening, 1.0, control)
    };
    let first = game(0, [0, 1])?;
    let second = game(1, [1, 0])?;
    let plus_score = first.score_of(0).unwrap_or(0.0) + second.score_of(0).unwrap_or(0.0);
    let shown = first.opening.join(" ");
    let plies = (first.moves.len() + second.moves.len()) as u32;
    Some((PairResult { pair: k, opening: shown, plus_score, plies }, [first, second]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tune() -> Tune {
        Tune::parse(
            r#"(name: "t", variant: "tictactoe", agent: Inline((name: "ab", agent: AlphaBeta((heuristic: Lim(bonus: 1.0))),
                limits: (depth: Some(2)))), opening: RandomPlies(1), pairs: 100, seed: 3,
                parameters: [(name: "bonus", step: 0.5, min: 0.0, max: 10.0)])"#,
            Path::new("t.ron"),
        )
        .unwrap()
    }

    /// The gains are set so that the last pair perturbs a weight by its step, and a point
    /// of result there moves it by `r_end` steps.
    #[test]
    fn the_last_pair_uses_the_step_and_r_end() {
        let t = tune();
        let mut s = Spsa::new(&t, vec![5.0]);
        let p = s.perturb(t.pairs - 1);
        assert!((p.steps[0] - 0.5).abs() < 1e-12, "{:?}", p.steps);
        assert_eq!(p.plus[0] - 5.0, 5.0 - p.minus[0]);
        s.update(t.pairs - 1, &p, 1.0);
        let moved = (s.weights[0] - 5.0) * p.signs[0];
        assert!((moved - 0.002 * 0.5).abs() < 1e-12, "{moved}");
    }

    /// A weight moves towards the side that scored, and never past its bounds.
    #[test]
    fn weights_follow_the_winner_within_bounds() {
        let mut t = tune();
        t.spsa.r_end = 0.05;
        let mut s = Spsa::new(&t, vec![5.0]);
        for k in 0..100 {
            let p = s.perturb(k);
            // The plus side wins whenever its weight is the higher: a signal "higher is better".
            let result = if p.plus[0] > p.minus[0] { 2.0 } else { -2.0 };
            s.update(k, &p, result);
            assert!((0.0..=10.0).contains(&s.weights[0]));
        }
        assert!(s.weights[0] > 6.0, "{}", s.weights[0]);
    }

    /// The signs and openings depend on the seed and the pair only.
    #[test]
    fn perturbations_come_from_the_seed_and_the_pair() {
        let t = tune();
        let a = Spsa::new(&t, vec![5.0]);
        let mut b = Spsa::new(&t, vec![5.0]);
        b.update(0, &b.perturb(0), 2.0);
        assert_eq!(a.perturb(7).signs, b.perturb(7).signs);
        let signs: Vec<f64> = (0..64).map(|k| a.perturb(k).signs[0]).collect();
        assert!(signs.contains(&1.0) && signs.contains(&-1.0));
    }

    #[test]
    fn settings_out_of_range_are_named() {
        let base = Path::new(".");
        let t = tune();
        assert!(t.resolve(base).is_ok());
        let mut bad = t.clone();
        bad.parameters[0].name = "base".into();
        let e = bad.resolve(base).unwrap_err();
        assert_eq!(e.field, "parameters[0].name");
        assert!(e.to_string().contains("bonus"), "{e}");
        let mut bad = t.clone();
        bad.parameters[0].min = -1.0;
        assert_eq!(bad.resolve(base).unwrap_err().field, "parameters[0].min", "Lim refuses a negative bonus");
        let mut bad = t.clone();
        bad.parameters[0].max = 0.5;
        assert!(matches!(bad.resolve(base).unwrap_err().problem, TuneProblem::StartOutside { .. }));
        let mut bad = t.clone();
        bad.pairs = 0;
        assert_eq!(bad.resolve(base).unwrap_err().field, "pairs");
        let mut bad = t;
        bad.agent = AgentSource::Preset("jeng-mcts".into());
        assert!(matches!(bad.resolve(base).unwrap_err().problem, TuneProblem::NotTunable { .. }));
    }

    /// A pair on tic-tac-toe is two games with the colours swapped, from one opening.
    #[test]
    fn a_pair_swaps_colours() {
        let t = tune();
        let (file, limits) = t.resolve(Path::new(".")).unwrap();
        let s = Spsa::new(&t, t.start(&file));
        let (r, games) = play_pair(&t, &file, limits, 4, &s.perturb(4), &SearchControl::new()).unwrap();
        assert_eq!(games[0].opening, games[1].opening);
        assert_eq!(games[0].names, ["plus".to_string(), "minus".to_string()]);
        assert_eq!(games[1].names, ["minus".to_string(), "plus".to_string()]);
        assert!((0.0..=2.0).contains(&r.plus_score));
    }
}
