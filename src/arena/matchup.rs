//! The matchup file: which variants, which agents, how they pair up, how many games, what
//! budgets and openings, and the seed. Expanded into a deterministic list of games.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::agents::AgentFile;
use crate::game::{AnyPosition, GameError, GridRules, Position, Variant};
use crate::io::{FileError, check_version, parse_ron, read_text, to_ron};
use crate::search::{GameBudget, SearchLimits, SettingError};

pub const MATCHUP_VERSION: u32 = 1;

fn default_version() -> u32 {
    MATCHUP_VERSION
}

/// Where an entrant's agent comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum AgentSource {
    /// A preset by name (`alam-ab`, ...).
    Preset(String),
    /// An agent file, relative to the matchup file.
    File(String),
    /// The agent written out in full.
    Inline(Box<AgentFile>),
}

/// One player of the matchup.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entrant {
    /// Name in tables and results (default: the agent file's name).
    #[serde(default)]
    pub name: Option<String>,
    pub agent: AgentSource,
    /// Per-move limits (default: the matchup's, else the agent file's).
    #[serde(default)]
    pub limits: Option<SearchLimits>,
    /// A per-game budget split over the moves (default: the matchup's, else the file's).
    #[serde(default)]
    pub game_budget: Option<GameBudget>,
}

/// K for each board of a grid sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum KRule {
    /// These K values (boards where K > max(M, N) are skipped).
    Fixed(Vec<u8>),
    /// K = ceil(min(M, N) / 2) and that plus 1, as in Lim's study.
    HalfMinAndNext,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Variants {
    List(Vec<Variant>),
    /// Every width x height (x K) combination.
    Grid {
        widths: Vec<u8>,
        heights: Vec<u8>,
        k: KRule,
        gravity: bool,
        exact: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Pairing {
    /// The first two agents against each other.
    Pairwise,
    /// The first agent against each of the others.
    Gauntlet,
    /// Every agent against every other.
    RoundRobin,
    /// Every agent of the first group against every agent of the second (indices).
    Between(Vec<usize>, Vec<usize>),
    /// Exactly these pairs (indices), e.g. each alpha-beta against the MCTS of the same time a
    /// move only.
    List(Vec<(usize, usize)>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Opening {
    None,
    /// The first N plies uniformly random (from the game's seed).
    RandomPlies(u32),
    /// Openings as move lists; each is played with both colours.
    List(Vec<String>),
}

/// Who moves first in a pairing's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Colours {
    /// Colours alternate game by game (half the games each way).
    #[default]
    Alternate,
    /// The lower-numbered entrant of the pairing always moves first (e.g. Lim's baseline,
    /// where the random player always starts).
    AsListed,
}

/// Sequential probability ratio test: stop a pairing early once the Elo difference is shown
/// to be below `elo0` or above `elo1`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Matchup {
    #[serde(default = "default_version")]
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub variants: Variants,
    pub agents: Vec<Entrant>,
    pub pairing: Pairing,
    /// Games per pairing and variant; colours alternate unless `colours` says otherwise.
    pub games: u32,
    #[serde(default)]
    pub colours: Colours,
    /// Per-move limits for every entrant without its own.
    #[serde(default)]
    pub limits: Option<SearchLimits>,
    #[serde(default)]
    pub game_budget: Option<GameBudget>,
    #[serde(default)]
    pub seed: u64,
    #[serde(default = "no_opening")]
    pub opening: Opening,
    /// Worker threads (0: all cores).
    #[serde(default)]
    pub threads: u32,
    #[serde(default)]
    pub sprt: Option<SprtConfig>,
}

fn no_opening() -> Opening {
    Opening::None
}

/// One scheduled game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSpec {
    pub index: u64,
    pub variant: Variant,
    /// Entrant indices: [first player, second player].
    pub players: [usize; 2],
    /// The unordered pairing (lower entrant first), for statistics.
    pub pairing: (usize, usize),
    pub seed: u64,
    /// The seed of a random opening: one per pair of games that swap colours, so that each
    /// opening is played with both colour orders.
    pub opening_seed: u64,
    pub opening: Option<String>,
}

/// A matchup setting refused: the field at fault, as the file writes it ("agents[1].limits"),
/// and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct MatchupError {
    pub field: String,
    pub problem: MatchupProblem,
}

/// Why a matchup setting is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MatchupProblem {
    #[error(
        "'{}' is not a plain folder name: use letters, digits, spaces inside and - _ + . = , (no / \\, no leading dot or space), at most 100",
        .0.escape_debug()
    )]
    FolderName(String),
    #[error("must be at least 1")]
    NoGames,
    #[error("{0} is more than 1024 (0 uses all cores)")]
    TooManyThreads(u32),
    #[error(transparent)]
    Setting(#[from] SettingError),
    #[error("a matchup needs at least two agents, not {0}")]
    TooFewAgents(usize),
    #[error("{0:?} {NAME_RULE}")]
    Name(String),
    #[error("needs 0 < alpha, beta < 0.5 and elo0 < elo1")]
    Sprt,
    #[error("the list is empty")]
    NoVariants,
    #[error("{0}")]
    Board(#[from] GameError),
    #[error("the grid gives no board")]
    EmptyGrid,
    #[error("the list is empty (write None for no opening)")]
    NoOpenings,
    #[error("List[{index}] \"{line}\" cannot open {variant}: {why}")]
    Opening { index: usize, line: String, variant: Variant, why: String },
    #[error(
        "RandomPlies({plies}) on {variant}, a game of at most {length} plies, would leave the agents no move: give fewer"
    )]
    TooManyRandomPlies { plies: u32, variant: Variant, length: u32 },
    #[error("{0} is odd, but each opening is played with both colour orders: give an even number")]
    OddGames(u32),
    #[error("agent index {index} is out of range (there are {agents} agents)")]
    NoSuchAgent { index: usize, agents: usize },
    #[error("List is empty")]
    NoPairs,
    #[error("({0}, {0}) pairs an agent with itself")]
    SelfPair(usize),
    /// The pairing (as the file writes it) leaves no game to play.
    #[error("{0} pairs no two different agents, so no game would be played")]
    NoGame(String),
}

impl MatchupProblem {
    /// This problem, found at `field`.
    fn at(self, field: impl Into<String>) -> MatchupError {
        MatchupError { field: field.into(), problem: self }
    }
}

/// A matchup's name becomes its output folder (`out/NAME`): it must be one plain folder name,
/// so that no file can make a run write outside the folder the user chose.
pub fn check_folder_name(name: &str) -> Result<(), MatchupProblem> {
    let plain = !name.trim().is_empty()
        && name.trim() == name
        && name.len() <= 100
        && name != "."
        && name != ".."
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_alphanumeric() || "-_+.=, ".contains(c));
    if plain { Ok(()) } else { Err(MatchupProblem::FolderName(name.to_string())) }
}

/// What an entrant's name may hold: it heads table rows and CSV cells.
pub(super) const NAME_RULE: &str = "must be 1 to 100 characters, with no line breaks or other control characters";

pub(super) fn plain_name(name: &str) -> bool {
    !name.trim().is_empty() && name.chars().count() <= 100 && !name.chars().any(char::is_control)
}

/// The seed of game `index`: a splitmix64 step from the base seed.
pub fn game_seed(base: u64, index: u64) -> u64 {
    let mut z = base ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(0x6A09_E667_F3BC_C908);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Matchup {
    /// Parses and checks a matchup file; errors name the field.
    pub fn parse(text: &str, path: &Path) -> Result<Matchup, FileError> {
        let m: Matchup = parse_ron(text, path, "matchup")?;
        check_version(path, "matchup", m.version, MATCHUP_VERSION)?;
        m.check().map_err(|e| FileError::Parse { path: path.into(), what: "matchup", message: e.to_string() })?;
        Ok(m)
    }

    /// Every check of a matchup read from a file (and of one changed by `--games`): the
    /// message names the field at fault.
    pub fn check(&self) -> Result<(), MatchupError> {
        check_folder_name(&self.name).map_err(|e| e.at("name"))?;
        if self.games == 0 {
            return Err(MatchupProblem::NoGames.at("games"));
        }
        // The same bound as the CLI's --threads (0: all cores): a thread a worker.
        if self.threads > 1024 {
            return Err(MatchupProblem::TooManyThreads(self.threads).at("threads"));
        }
        if let Some(l) = &self.limits {
            l.validate().map_err(|e| MatchupProblem::from(e).at("limits"))?;
        }
        if let Some(b) = &self.game_budget {
            b.validate().map_err(|e| MatchupProblem::from(e).at("game_budget"))?;
        }
        self.check_entrants()?;
        if let Some(s) = &self.sprt
            && !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5 && s.elo0 < s.elo1)
        {
            return Err(MatchupProblem::Sprt.at("sprt"));
        }
        let variants = self.variant_list().map_err(|e| e.at("variants"))?;
        self.check_openings(&variants)?;
        self.check_pairing()
    }

    /// At least two entrants, each with valid limits, budget, agent and name.
    fn check_entrants(&self) -> Result<(), MatchupError> {
        if self.agents.len() < 2 {
            return Err(MatchupProblem::TooFewAgents(self.agents.len()).at("agents"));
        }
        for (i, e) in self.agents.iter().enumerate() {
            let setting = |field: &'static str| {
                move |err: SettingError| MatchupProblem::from(err).at(format!("agents[{i}].{field}"))
            };
            if let Some(l) = &e.limits {
                l.validate().map_err(setting("limits"))?;
            }
            if let Some(b) = &e.game_budget {
                b.validate().map_err(setting("game_budget"))?;
            }
            if let AgentSource::Inline(f) = &e.agent {
                f.agent.validate().map_err(setting("agent"))?;
            }
            if let Some(name) = e.name.as_ref().filter(|n| !plain_name(n)) {
                return Err(MatchupProblem::Name(name.clone()).at(format!("agents[{i}].name")));
            }
        }
        Ok(())
    }

    /// Openings that can be played on every variant, each with both colour orders. One that
    /// cannot would silently leave its games out of the run, or cut them short.
    fn check_openings(&self, variants: &[Variant]) -> Result<(), MatchupError> {
        if let Opening::List(list) = &self.opening {
            if list.is_empty() {
                return Err(MatchupProblem::NoOpenings.at("opening"));
            }
            for (i, line) in list.iter().enumerate() {
                for &v in variants {
                    let mut pos = AnyPosition::new(v);
                    let why = match pos.play_sequence(line) {
                        Err(e) => Some(e.to_string()),
                        Ok(_) if pos.status().is_over() => {
                            Some("the game is over after it: no move is left to play".into())
                        }
                        Ok(_) => None,
                    };
                    if let Some(why) = why {
                        let problem = MatchupProblem::Opening { index: i, line: line.clone(), variant: v, why };
                        return Err(problem.at("opening"));
                    }
                }
            }
        }
        if let Opening::RandomPlies(n) = self.opening {
            for &v in variants {
                let pos = AnyPosition::new(v);
                let length = crate::with_position!(&pos, p => p.max_game_length()) as u32;
                if n >= length {
                    return Err(MatchupProblem::TooManyRandomPlies { plies: n, variant: v, length }.at("opening"));
                }
            }
        }
        // Openings are paired across colours (each is played both ways), so an odd count
        // would leave one opening played by one colour order only.
        let openings = !matches!(self.opening, Opening::None);
        if openings && self.colours == Colours::Alternate && self.games % 2 == 1 {
            return Err(MatchupProblem::OddGames(self.games).at("games"));
        }
        Ok(())
    }

    /// Indices within the entrants, and at least one pair of two different agents.
    fn check_pairing(&self) -> Result<(), MatchupError> {
        let indices: Vec<usize> = match &self.pairing {
            Pairing::Between(left, right) => left.iter().chain(right).copied().collect(),
            Pairing::List(pairs) => pairs.iter().flat_map(|&(i, j)| [i, j]).collect(),
            _ => Vec::new(),
        };
        if let Some(i) = indices.iter().find(|&&i| i >= self.agents.len()) {
            return Err(MatchupProblem::NoSuchAgent { index: *i, agents: self.agents.len() }.at("pairing"));
        }
        if let Pairing::List(pairs) = &self.pairing {
            if pairs.is_empty() {
                return Err(MatchupProblem::NoPairs.at("pairing"));
            }
            if let Some((i, _)) = pairs.iter().find(|(i, j)| i == j) {
                return Err(MatchupProblem::SelfPair(*i).at("pairing"));
            }
        }
        if self.pairings().is_empty() {
            return Err(MatchupProblem::NoGame(format!("{:?}", self.pairing)).at("pairing"));
        }
        Ok(())
    }

    pub fn load(path: &Path) -> Result<Matchup, FileError> {
        Matchup::parse(&read_text(path)?, path)
    }

    /// Where a run of this matchup goes unless told otherwise: `out/NAME` (the CLI's `match`
    /// and the workbench's Matchup tab alike).
    pub fn default_out_dir(&self) -> std::path::PathBuf {
        Path::new("out").join(&self.name)
    }

    pub fn to_ron(&self) -> String {
        to_ron(self)
    }

    /// The variants, in order.
    pub fn variant_list(&self) -> Result<Vec<Variant>, MatchupProblem> {
        match &self.variants {
            Variants::List(v) if v.is_empty() => Err(MatchupProblem::NoVariants),
            Variants::List(v) => Ok(v.clone()),
            Variants::Grid { widths, heights, k, gravity, exact } => {
                let mut out = Vec::new();
                for &w in widths {
                    for &h in heights {
                        let ks: Vec<u8> = match k {
                            KRule::Fixed(ks) => ks.clone(),
                            KRule::HalfMinAndNext => {
                                let half = w.min(h).div_ceil(2);
                                vec![half, half + 1]
                            }
                        };
                        for k in ks {
                            if k > w.max(h) {
                                continue;
                            }
                            let r = GridRules::new(w as u32, h as u32, k as u32, *exact, *gravity)?;
                            out.push(Variant::Grid(r));
                        }
                    }
                }
                if out.is_empty() { Err(MatchupProblem::EmptyGrid) } else { Ok(out) }
            }
        }
    }

    /// The pairings as entrant index pairs.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.agents.len();
        match &self.pairing {
            Pairing::Pairwise => vec![(0, 1)],
            Pairing::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            Pairing::RoundRobin => (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect(),
            Pairing::Between(left, right) => left
                .iter()
                .flat_map(|&i| right.iter().map(move |&j| (i.min(j), i.max(j))))
                .filter(|(i, j)| i != j)
                .collect(),
            Pairing::List(pairs) => pairs.iter().map(|&(i, j)| (i.min(j), i.max(j))).collect(),
        }
    }

    /// Every game of the matchup in a fixed order; game i's colours alternate with i.
    /// Generated as they are taken, so a schedule of billions of games costs no memory.
    pub fn schedule(&self) -> impl Iterator<Item = GameSpec> + Send + '_ {
        self.shard_schedule(None)
    }

    /// The games of shard (i, n) of the schedule (those whose index % n == i; every game
    /// without a shard), in order. Only the shard's indices are visited: a shard of a few
    /// games of a schedule of billions starts and ends at once.
    pub fn shard_schedule(&self, shard: Option<(u64, u64)>) -> impl Iterator<Item = GameSpec> + Send + '_ {
        let variants = self.variant_list().unwrap_or_default();
        let pairings = self.pairings();
        let len = self.schedule_len();
        let (first, step) = match shard {
            Some((i, n)) if i < n => (i, n),
            Some(_) => (len, 1), // not a shard (i >= n): no game
            None => (0, 1),
        };
        // A step beyond usize (a 32-bit target) leaves at most the first index.
        let step = usize::try_from(step).unwrap_or(usize::MAX);
        (first..len).step_by(step).map(move |index| self.spec_with(index, &variants, &pairings))
    }

    /// Game `index` of the schedule, if there is one.
    pub fn spec(&self, index: u64) -> Option<GameSpec> {
        (index < self.schedule_len())
            .then(|| self.spec_with(index, &self.variant_list().unwrap_or_default(), &self.pairings()))
    }

    fn spec_with(&self, index: u64, variants: &[Variant], pairings: &[(usize, usize)]) -> GameSpec {
        let games = self.games as u64;
        let per_variant = pairings.len() as u64 * games;
        let variant = variants[(index / per_variant) as usize];
        let (a, b) = pairings[((index % per_variant) / games) as usize];
        let g = index % games;
        let players = if g.is_multiple_of(2) || self.colours == Colours::AsListed { [a, b] } else { [b, a] };
        let opening = match &self.opening {
            Opening::List(list) if !list.is_empty() => Some(list[(g / 2) as usize % list.len()].clone()),
            _ => None,
        };
        // Colours alternating, games 2i and 2i + 1 of a pairing share their opening.
        let pair_first = if self.colours == Colours::Alternate { index - g % 2 } else { index };
        let opening_seed = game_seed(self.seed ^ 0x0BE0_0000_0000_0001, pair_first);
        GameSpec { index, variant, players, pairing: (a, b), seed: game_seed(self.seed, index), opening_seed, opening }
    }

    /// The number of games in [`Matchup::schedule`].
    pub fn schedule_len(&self) -> u64 {
        let variants = self.variant_list().map_or(0, |v| v.len() as u64);
        variants * self.pairings().len() as u64 * self.games as u64
    }
}
