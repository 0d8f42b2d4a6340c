//! Agent configurations as files: a serde enum of every agent, saved and loaded as RON, the
//! seed papers' presets shipped in `saves/agents/` (and built into the binary), and
//! [`build_agent`]. It sits above `search` and `gomocup`, since an agent may be either.

mod per_family;

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use per_family::PerFamily;
use per_family::PerFamilyAgent;

use crate::game::{Position, Variant};
use crate::gomocup::{ExternalAgent, ExternalConfig};
use crate::io::{FileError, check_version, parse_ron, read_text, to_ron, write_atomic};
use crate::search::random::RandomAgent;
use crate::search::solver::{SolverAgent, SolverConfig};
use crate::search::{
    Agent, AlphaBeta, AlphaBetaConfig, GameBudget, Heeds, LimitError, Mcts, MctsConfig, Parallel, SearchLimits,
    SettingError, check_threads,
};

/// The newest agent file version this build reads and writes.
pub const AGENT_VERSION: u32 = 1;

/// Every kind of agent with all its options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum AgentConfig {
    /// A uniformly random legal move.
    Random,
    AlphaBeta(AlphaBetaConfig),
    Mcts(MctsConfig),
    /// The exact solver, falling back on alpha-beta when the proof takes too long.
    Solver(SolverConfig),
    /// An external program (a Gomocup brain) driven over its protocol.
    External(ExternalConfig),
    /// One kind of agent configured for each family of boards (free placement, gravity,
    /// 3D Connect-4); it plays each position with its family's configuration.
    PerFamily(PerFamily),
}

impl AgentConfig {
    pub fn validate(&self) -> Result<(), SettingError> {
        match self {
            AgentConfig::Random => Ok(()),
            AgentConfig::AlphaBeta(c) => c.validate(),
            AgentConfig::Mcts(c) => c.validate(),
            AgentConfig::Solver(c) => c.validate(),
            AgentConfig::External(c) => c.validate(),
            AgentConfig::PerFamily(c) => c.validate(),
        }
    }

    /// The configuration that plays on `variant`: a per-family agent's for its family, any
    /// other agent itself.
    pub fn for_variant(&self, variant: &Variant) -> &AgentConfig {
        match self {
            AgentConfig::PerFamily(c) => c.get(variant.family()),
            other => other,
        }
    }

    /// As [`AgentConfig::for_variant`], to change it.
    pub fn for_variant_mut(&mut self, variant: &Variant) -> &mut AgentConfig {
        match self {
            AgentConfig::PerFamily(c) => c.get_mut(variant.family()),
            other => other,
        }
    }

    /// The configuration that answers for the agent's kind: a per-family agent's free
    /// placement one (its families share their kind), any other agent itself.
    pub fn representative(&self) -> &AgentConfig {
        match self {
            AgentConfig::PerFamily(c) => &c.free,
            other => other,
        }
    }

    /// Every configuration this agent may play with: a per-family agent's three, else itself.
    pub fn each_mut(&mut self) -> Vec<&mut AgentConfig> {
        match self {
            AgentConfig::PerFamily(c) => vec![&mut *c.free, &mut *c.gravity, &mut *c.connect3d],
            other => vec![other],
        }
    }

    /// As [`AgentConfig::each_mut`], to read.
    pub fn each(&self) -> Vec<&AgentConfig> {
        match self {
            AgentConfig::PerFamily(c) => vec![&*c.free, &*c.gravity, &*c.connect3d],
            other => vec![other],
        }
    }

    /// The exact solver (on every family, for a per-family agent).
    pub fn is_solver(&self) -> bool {
        matches!(self.representative(), AgentConfig::Solver(_))
    }

    /// The program this agent would start, if it is an external engine: the exact command
    /// line (nothing named in a file is started without the user's consent).
    pub fn external_command(&self) -> Option<String> {
        match self {
            AgentConfig::External(c) => Some(c.command_line()),
            _ => None,
        }
    }

    /// Search threads the agent uses (1 for agents without a `threads` option).
    pub fn threads(&self) -> u32 {
        match self {
            AgentConfig::AlphaBeta(c) => c.threads.max(1),
            AgentConfig::Mcts(c) => c.threads.max(1),
            AgentConfig::Solver(c) => c.threads.max(1),
            AgentConfig::PerFamily(c) => c.free.threads().max(c.gravity.threads()).max(c.connect3d.threads()),
            _ => 1,
        }
    }

    /// The same agent with `threads` search threads; an error for agents without the option.
    pub fn with_threads(&self, threads: u32) -> Result<AgentConfig, SettingError> {
        check_threads("threads", threads)?;
        match self {
            AgentConfig::AlphaBeta(c) => Ok(AgentConfig::AlphaBeta(AlphaBetaConfig { threads, ..c.clone() })),
            AgentConfig::Mcts(c) => Ok(AgentConfig::Mcts(MctsConfig { threads, ..c.clone() })),
            AgentConfig::Solver(c) => Ok(AgentConfig::Solver(SolverConfig { threads, ..c.clone() })),
            AgentConfig::PerFamily(c) => Ok(AgentConfig::PerFamily(c.map(|a| a.with_threads(threads))?)),
            other if threads == 1 => Ok(other.clone()),
            other => Err(SettingError::OneThread { kind: other.kind() }),
        }
    }

    /// The same MCTS agent with threads working as `parallel` says; an error for other agents.
    pub fn with_parallel(&self, parallel: Parallel) -> Result<AgentConfig, SettingError> {
        match self {
            AgentConfig::Mcts(c) => Ok(AgentConfig::Mcts(MctsConfig { parallel, ..c.clone() })),
            AgentConfig::PerFamily(c) => Ok(AgentConfig::PerFamily(c.map(|a| a.with_parallel(parallel))?)),
            other => Err(SettingError::ParallelOnlyMcts { kind: other.kind() }),
        }
    }

    /// The per-move limits this agent reads. Alpha-beta: depth, nodes and time; MCTS:
    /// iterations, nodes (tree nodes created) and time; the solver: time (the proof has half,
    /// the fallback the rest; depth and nodes bound only the fallback, so they cannot end a
    /// proof); an external engine: time (its turn time; without one, its default); random:
    /// none (it does not search).
    pub fn heeds(&self) -> Heeds {
        let none = Heeds {
            kind: "",
            depth: false,
            nodes: false,
            iterations: false,
            time: false,
            cpu_time: false,
            ends_unlimited: false,
        };
        // A CPU-time budget is one thread's: searches on more threads do not read it.
        let one_thread = self.threads() == 1;
        match self {
            AgentConfig::Random => Heeds { kind: "random", ends_unlimited: true, ..none },
            AgentConfig::AlphaBeta(_) => {
                Heeds { kind: "alpha-beta", depth: true, nodes: true, time: true, cpu_time: one_thread, ..none }
            }
            AgentConfig::Mcts(_) => {
                Heeds { kind: "MCTS", iterations: true, nodes: true, time: true, cpu_time: one_thread, ..none }
            }
            AgentConfig::Solver(_) => Heeds { kind: "solver", time: true, ..none },
            AgentConfig::External(_) => Heeds { kind: "external", time: true, ends_unlimited: true, ..none },
            AgentConfig::PerFamily(c) => {
                let free = c.free.heeds();
                Heeds { cpu_time: free.cpu_time && one_thread, ..free }
            }
        }
    }

    /// Refuses limits (and a game budget) that cannot end this agent's search: a limit its
    /// kind does not read, and with `must_end` none it reads (an agent file may leave its
    /// limits to a matchup; a search about to run may not). A random agent takes any.
    pub fn check_limits(
        &self,
        limits: &SearchLimits,
        budget: Option<&GameBudget>,
        must_end: bool,
    ) -> Result<(), LimitError> {
        let mut heeds = self.heeds();
        if matches!(self, AgentConfig::Random) {
            return Ok(());
        }
        heeds.ends_unlimited |= !must_end;
        match budget {
            Some(b) => b.check_heeded(&heeds, limits),
            None => limits.check_heeded(&heeds),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            AgentConfig::Random => "random",
            AgentConfig::AlphaBeta(_) => "alpha-beta",
            AgentConfig::Mcts(_) => "mcts",
            AgentConfig::Solver(_) => "solver",
            AgentConfig::External(_) => "external",
            AgentConfig::PerFamily(c) => c.free.kind(),
        }
    }
}

fn default_version() -> u32 {
    AGENT_VERSION
}

/// An agent file: the configuration, its default per-move limits, an optional per-game budget,
/// and where it comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentFile {
    #[serde(default = "default_version")]
    pub version: u32,
    pub name: String,
    /// The paper it follows and any deliberate deviation.
    #[serde(default)]
    pub description: String,
    pub agent: AgentConfig,
    #[serde(default)]
    pub limits: SearchLimits,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_budget: Option<GameBudget>,
    /// Seed of the agent's random choices.
    #[serde(default)]
    pub seed: u64,
}

impl AgentFile {
    pub fn to_ron(&self) -> String {
        to_ron(self)
    }

    /// Parses and validates agent-file text (`path` is only used in messages).
    pub fn parse(text: &str, path: &Path) -> Result<AgentFile, FileError> {
        let file: AgentFile = parse_ron(text, path, "agent")?;
        check_version(path, "agent", file.version, AGENT_VERSION)?;
        let budget = || file.game_budget.as_ref().map_or(Ok(()), GameBudget::validate).map_err(String::from);
        let heeded = || {
            file.agent.check_limits(&file.limits, file.game_budget.as_ref(), false).map_err(|e| format!("limits: {e}"))
        };
        file.agent
            .validate()
            .and(file.limits.validate())
            .map_err(String::from)
            .and_then(|_| budget())
            .and_then(|_| heeded())
            .map_err(|message| FileError::Parse { path: path.into(), what: "agent", message })?;
        Ok(file)
    }

    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        write_atomic(path, self.to_ron().as_bytes())
    }
}

/// The presets, by name, with their file text (the same files as in `saves/agents/`).
pub const PRESETS: &[(&str, &str)] = &[
    ("random", include_str!("../../saves/agents/random.ron")),
    ("alam-ab", include_str!("../../saves/agents/alam-ab.ron")),
    ("alam-mcts", include_str!("../../saves/agents/alam-mcts.ron")),
    ("lim-minimax", include_str!("../../saves/agents/lim-minimax.ron")),
    ("lim-mcts", include_str!("../../saves/agents/lim-mcts.ron")),
    ("flecart", include_str!("../../saves/agents/flecart.ron")),
    ("jeng-mcts", include_str!("../../saves/agents/jeng-mcts.ron")),
    ("connectx-minimax", include_str!("../../saves/agents/connectx-minimax.ron")),
    ("connectx-mcts", include_str!("../../saves/agents/connectx-mcts.ron")),
    ("strong-ab", include_str!("../../saves/agents/strong-ab.ron")),
    ("strong-ab-v1", include_str!("../../saves/agents/strong-ab-v1.ron")),
    ("gomoku-ab", include_str!("../../saves/agents/gomoku-ab.ron")),
    ("strong-mcts", include_str!("../../saves/agents/strong-mcts.ron")),
    ("solver", include_str!("../../saves/agents/solver.ron")),
];

/// A preset by name.
pub fn preset(name: &str) -> Option<AgentFile> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(n, text)| {
        AgentFile::parse(text, Path::new(&format!("preset {n}")))
            .unwrap_or_else(|e| panic!("shipped preset {n} is broken: {e}"))
    })
}

/// A preset name or the path of an agent file.
pub fn load_agent(name_or_path: &str) -> Result<AgentFile, LoadAgentError> {
    if let Some(p) = preset(name_or_path) {
        return Ok(p);
    }
    let path = Path::new(name_or_path);
    if path.extension().is_some_and(|e| e == "ron") || path.exists() {
        let text = read_text(path)?;
        return Ok(AgentFile::parse(&text, path)?);
    }
    Err(LoadAgentError::Unknown(name_or_path.to_string()))
}

/// Why `--agent` (or a matchup's agent) names no agent.
#[derive(Debug, thiserror::Error)]
pub enum LoadAgentError {
    /// Neither a preset nor a file.
    #[error("unknown agent '{0}': give a preset ({presets}) or a .ron file", presets = preset_names().join(", "))]
    Unknown(String),
    /// A file that cannot be read or is not a valid agent file.
    #[error(transparent)]
    File(#[from] FileError),
}

/// The presets' names, in [`PRESETS`] order.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}

/// The agent a configuration describes, for positions of type `P`. `seed` overrides the
/// configuration's own seed when given (MCTS and random).
pub fn build_agent<P: Position>(config: &AgentConfig, seed: u64) -> Box<dyn Agent<P>> {
    match config {
        AgentConfig::Random => Box::new(RandomAgent::new(seed)),
        AgentConfig::AlphaBeta(c) => Box::new(AlphaBeta::new(c.clone())),
        AgentConfig::Mcts(c) => Box::new(Mcts::<P>::new(MctsConfig { seed, ..c.clone() })),
        AgentConfig::Solver(c) => Box::new(SolverAgent::<P>::new(c.clone())),
        AgentConfig::External(c) => Box::new(ExternalAgent::new(c.clone())),
        AgentConfig::PerFamily(c) => Box::new(PerFamilyAgent::new(c.clone(), seed)),
    }
}
