//! What a run was played with, recorded in its folder (`entrants.ron`): each entrant's agent
//! as resolved (the full configuration, whatever file or preset it came from), the limits
//! and budget it played under after `--scale`, and the scale. A run folder alone then says
//! exactly what was played, and `--resume` refuses to mix games played under other
//! conditions (an agent file edited between the two runs, another `--scale`).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::entrants::ResolvedEntrant;
use crate::agents::AgentFile;
use crate::io::{FileError, check_version, parse_ron, read_text, to_ron, write_atomic};
use crate::search::{GameBudget, SearchLimits};

pub const CONDITIONS_FILE: &str = "entrants.ron";
pub const CONDITIONS_VERSION: u32 = 1;

/// One entrant as it played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntrantConditions {
    pub name: String,
    /// The agent file as resolved: configuration, description, seed.
    pub agent: AgentFile,
    /// The per-move limits it searched with, `--scale` applied.
    pub limits: SearchLimits,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_budget: Option<GameBudget>,
    /// A short hash of what the entrant played with, for tables and papers: see
    /// [`config_hash`].
    pub config_hash: String,
}

/// The conditions of a whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConditions {
    pub version: u32,
    /// What every time budget was multiplied by.
    pub scale: f64,
    /// The mnklab builds ([`crate::COMMIT`]) that played games into this folder, the one that
    /// started it first; a resumed run by another build adds its own. Empty in folders of an
    /// older mnklab.
    #[serde(default)]
    pub commits: Vec<String>,
    pub entrants: Vec<EntrantConditions>,
}

/// What decides how an entrant plays, and nothing else (not its name or description).
#[derive(Serialize)]
struct PlayedConfig<'a> {
    agent: &'a crate::agents::AgentConfig,
    seed: u64,
    limits: &'a SearchLimits,
    game_budget: &'a Option<GameBudget>,
}

/// A hash of a resolved entrant, in hex: the CRC-32 of the RON of its agent configuration,
/// seed, limits as played (`--scale` applied) and game budget. Renaming an agent or editing
/// its description keeps the hash; any change to what it plays changes it.
pub fn config_hash(agent: &AgentFile, limits: &SearchLimits, game_budget: &Option<GameBudget>) -> String {
    let played = PlayedConfig { agent: &agent.agent, seed: agent.seed, limits, game_budget };
    format!("{:08x}", crc32fast::hash(crate::io::to_ron(&played).as_bytes()))
}

impl RunConditions {
    pub fn new(entrants: &[ResolvedEntrant], scale: f64) -> RunConditions {
        let entrants = entrants
            .iter()
            .map(|e| {
                let limits = e.limits.scaled(scale);
                EntrantConditions {
                    name: e.name.clone(),
                    agent: e.file.clone(),
                    config_hash: config_hash(&e.file, &limits, &e.game_budget),
                    limits,
                    game_budget: e.game_budget,
                }
            })
            .collect();
        RunConditions { version: CONDITIONS_VERSION, scale, commits: vec![crate::COMMIT.to_string()], entrants }
    }

    /// These conditions with the builds of `earlier` (the same run's saved conditions) first:
    /// a resumed folder keeps the record of every build that played into it.
    pub fn with_commits_of(mut self, earlier: &RunConditions) -> RunConditions {
        let mut commits = earlier.commits.clone();
        for c in self.commits {
            if !commits.contains(&c) {
                commits.push(c);
            }
        }
        self.commits = commits;
        self
    }

    /// The hash of each entrant by its index in the matchup ("" past the end).
    pub fn hash_of(&self, entrant: usize) -> &str {
        self.entrants.get(entrant).map_or("", |e| e.config_hash.as_str())
    }

    pub fn load(path: &Path) -> Result<RunConditions, FileError> {
        let c: RunConditions = parse_ron(&read_text(path)?, path, "run conditions")?;
        check_version(path, "run conditions", c.version, CONDITIONS_VERSION)?;
        Ok(c)
    }

    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        write_atomic(path, to_ron(self).as_bytes())
    }

    /// What differs between the conditions a run was played with (`self`) and `now`, in
    /// words, one line each; empty when they are the same.
    pub fn differences(&self, now: &RunConditions) -> Vec<String> {
        let mut out = Vec::new();
        if self.scale != now.scale {
            out.push(format!("--scale was {}, now {}", self.scale, now.scale));
        }
        if self.entrants.len() != now.entrants.len() {
            out.push(format!("{} entrants then, {} now", self.entrants.len(), now.entrants.len()));
        }
        for (i, (a, b)) in self.entrants.iter().zip(&now.entrants).enumerate() {
            let who = format!("agents[{i}] ({})", b.name);
            if a.name != b.name {
                out.push(format!("{who}: was named {:?}", a.name));
            }
            if a.agent != b.agent {
                out.push(format!(
                    "{who}: its agent changed ({})",
                    first_difference(&a.agent.to_ron(), &b.agent.to_ron())
                ));
            }
            if a.limits != b.limits {
                out.push(format!("{who}: limits were {}, now {}", limits_text(&a.limits), limits_text(&b.limits)));
            }
            if a.game_budget != b.game_budget {
                out.push(format!("{who}: game budget was {:?}, now {:?}", a.game_budget, b.game_budget));
            }
        }
        out
    }

    /// The conditions as lines for a table's foot: each entrant's kind, limits and hash.
    pub fn describe(&self) -> String {
        let builds = if self.commits.is_empty() { "not recorded".to_string() } else { self.commits.join(", ") };
        let mut s = format!("played with time scale {}, by mnklab {builds}\n", self.scale);
        for e in &self.entrants {
            let budget = e.game_budget.map_or(String::new(), |b| {
                format!(
                    ", game budget {} {:?} {:?}{}",
                    b.total,
                    b.unit,
                    b.strategy,
                    if b.forfeit { " (forfeit)" } else { "" }
                )
            });
            s.push_str(&format!(
                "  {}: {} agent, config {}, limits {}{budget}\n",
                e.name,
                e.agent.agent.kind(),
                e.config_hash,
                limits_text(&e.limits)
            ));
        }
        s
    }
}

/// Limits in words: "time 0.1 s, nodes 500"; "none".
pub fn limits_text(l: &SearchLimits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = l.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("nodes {n}"));
    }
    if let Some(n) = l.iterations {
        parts.push(format!("iterations {n}"));
    }
    if let Some(t) = l.time {
        parts.push(format!("time {t} s"));
    }
    if let Some(t) = l.cpu_time {
        parts.push(format!("CPU time {t} s"));
    }
    if parts.is_empty() { "none".into() } else { parts.join(", ") }
}

/// The first line where two texts differ, as "then `...`, now `...`".
pub fn first_difference(a: &str, b: &str) -> String {
    let (mut la, mut lb) = (a.lines(), b.lines());
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (x, y) => {
                return format!("then `{}`, now `{}`", x.unwrap_or("").trim(), y.unwrap_or("").trim());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_the_scale_and_the_changed_field() {
        let file = crate::agents::preset("strong-ab-v1").unwrap();
        let e = ResolvedEntrant {
            name: "a".into(),
            file: file.clone(),
            limits: SearchLimits::time(0.1),
            game_budget: None,
        };
        let then = RunConditions::new(std::slice::from_ref(&e), 1.0);
        assert!(then.differences(&then.clone()).is_empty());
        let scaled = RunConditions::new(std::slice::from_ref(&e), 0.1);
        let d = then.differences(&scaled);
        assert_eq!(d[0], "--scale was 1, now 0.1");
        assert!(
            d[1].contains("limits were time 0.1 s, now time 0.010000000000000002 s")
                || d[1].contains("limits were time 0.1 s"),
            "{d:?}"
        );
        let mut edited = e.clone();
        if let crate::agents::AgentConfig::AlphaBeta(c) = &mut edited.file.agent {
            c.tt_mb = 16;
        }
        let d = then.differences(&RunConditions::new(&[edited], 1.0));
        assert_eq!(d.len(), 1);
        assert!(
            d[0].contains("its agent changed") && d[0].contains("tt_mb: 64") && d[0].contains("tt_mb: 16"),
            "{d:?}"
        );
    }
}
