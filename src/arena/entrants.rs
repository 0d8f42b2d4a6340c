//! A matchup's entrants resolved: each agent loaded (a preset, a file or inline), with the
//! limits that apply to it, every one checked before a game is played.

use std::path::Path;

use super::matchup::{AgentSource, Matchup, NAME_RULE, plain_name};
use crate::agents::{AgentFile, LoadAgentError, load_agent};
use crate::search::{GameBudget, LimitError, SearchLimits, SettingError};

/// A resolved entrant: its agent file and the budgets that apply.
#[derive(Clone, Debug)]
pub struct ResolvedEntrant {
    pub name: String,
    pub file: AgentFile,
    pub limits: SearchLimits,
    pub game_budget: Option<GameBudget>,
}

/// Why an entrant cannot play; `index` is its place in the matchup's `agents` list, as the
/// file writes it (`agents[1]`).
#[derive(Debug, thiserror::Error)]
pub enum EntrantError {
    /// Its preset or agent file could not be loaded.
    #[error("agents[{index}]: {source}")]
    Load { index: usize, source: LoadAgentError },
    /// Its inline agent has a setting out of range.
    #[error("agents[{index}]: {source}")]
    Inline { index: usize, source: SettingError },
    #[error("agents[{index}].limits: {source}")]
    Limits { index: usize, source: SettingError },
    /// The limits that apply (the entrant's, the matchup's or the file's) would not end its
    /// search, or name one its kind ignores.
    #[error("agents[{index}] ({name}): {source}")]
    Unheeded { index: usize, name: String, source: LimitError },
    #[error("agents[{index}]: the name {name:?} {NAME_RULE}")]
    Name { index: usize, name: String },
    /// Two entrants of one name could not be told apart in a table or a CSV.
    #[error(
        "agents[{first}] and agents[{second}] are both named {name:?}: give each a name of its own (`name: Some(\"...\")`)"
    )]
    SameName { first: usize, second: usize, name: String },
}

impl EntrantError {
    /// The entrant at fault (the second, for two of one name).
    pub fn index(&self) -> usize {
        match self {
            EntrantError::Load { index, .. }
            | EntrantError::Inline { index, .. }
            | EntrantError::Limits { index, .. }
            | EntrantError::Unheeded { index, .. }
            | EntrantError::Name { index, .. } => *index,
            EntrantError::SameName { second, .. } => *second,
        }
    }
}

impl AgentSource {
    /// The agent file this source names (a file's path relative to `base`); `index` is the
    /// entrant's place in its list, for the error.
    pub fn load(&self, base: &Path, index: usize) -> Result<AgentFile, EntrantError> {
        match self {
            AgentSource::Preset(name) => load_agent(name),
            AgentSource::File(p) => load_agent(base.join(p).to_str().unwrap_or(p)),
            AgentSource::Inline(f) => {
                f.agent.validate().map_err(|source| EntrantError::Inline { index, source })?;
                Ok((**f).clone())
            }
        }
        .map_err(|source| EntrantError::Load { index, source })
    }
}

impl Matchup {
    /// The external programs the resolved entrants would start: (entrant name, command line).
    pub fn external_commands(entrants: &[ResolvedEntrant]) -> Vec<(String, String)> {
        entrants.iter().filter_map(|e| Some((e.name.clone(), e.file.agent.external_command()?))).collect()
    }

    /// Loads every entrant's agent (paths relative to `base`, the matchup file's folder).
    pub fn resolve(&self, base: &Path) -> Result<Vec<ResolvedEntrant>, EntrantError> {
        let mut entrants: Vec<ResolvedEntrant> = Vec::with_capacity(self.agents.len());
        for (index, e) in self.agents.iter().enumerate() {
            let file = e.agent.load(base, index)?;
            let limits = e.limits.or(self.limits).unwrap_or(file.limits);
            limits.validate().map_err(|source| EntrantError::Limits { index, source })?;
            let game_budget = e.game_budget.or(self.game_budget).or(file.game_budget);
            let name = e.name.clone().unwrap_or_else(|| file.name.clone());
            // Limits the agent ignores would leave its search running on: refused here,
            // where the limits that apply (the entrant's, the matchup's, the file's) meet.
            if let Err(source) = file.agent.check_limits(&limits, game_budget.as_ref(), true) {
                return Err(EntrantError::Unheeded { index, name, source });
            }
            if !plain_name(&name) {
                return Err(EntrantError::Name { index, name });
            }
            entrants.push(ResolvedEntrant { name, file, limits, game_budget });
        }
        // After every entrant loaded: a file that cannot be read is the first thing to fix.
        for (second, e) in entrants.iter().enumerate() {
            if let Some(first) = entrants[..second].iter().position(|o| o.name == e.name) {
                return Err(EntrantError::SameName { first, second, name: e.name.clone() });
            }
        }
        Ok(entrants)
    }
}
