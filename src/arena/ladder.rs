//! A ladder experiment: strength against budget, by games. Each agent plays at each CPU
//! budget against a fixed ladder of references (agents at fixed node or depth limits, which a
//! loaded machine does not change), from openings the solver proved drawn, each opening with
//! both colours; an SPRT stops a pairing once its result is clear. The rungs also play each
//! other, and one Bradley-Terry fit over all the games rates every agent and budget in Elo
//! against the first rung. Where the accuracy study counts mistakes position by position,
//! this asks whether fewer mistakes win more games.
//!
//! A ladder runs as one matchup (`results.ronl`, resumable, on all cores), so `mnklab table`,
//! `plot` and `review --run` read its games as any run's.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::accuracy::suite::{SuiteError, load_suite};
use super::accuracy::{AccuracyAgent, Budget, Doubling, budgets_for};
use super::elo::{Encounter, fit_elo};
use super::matchup::{Colours, Entrant, Matchup, Opening, Pairing, SprtConfig, Variants, plain_name};
use super::{GameRecord, MatchupError};
use crate::game::Variant;
use crate::io::FileError;

/// The ladder file format this build reads.
pub const LADDER_VERSION: u32 = 1;

/// The columns of `elo.csv`, a row an agent at a budget and a rung.
pub const ELO_COLUMNS: [&str; 9] = ["board", "agent", "budget_kind", "budget", "games", "points", "elo", "lo", "hi"];

/// What a ladder experiment plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderExperiment {
    #[serde(default = "first_version")]
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub openings: LadderOpenings,
    /// The agents measured, each at every budget.
    pub agents: Vec<AccuracyAgent>,
    /// Their budgets of work a move, doubling: nodes for alpha-beta, iterations for MCTS
    /// (the same games on every machine).
    #[serde(default)]
    pub work: Option<Doubling>,
    /// Their budgets of the searching thread's CPU seconds a move: the one unit alpha-beta
    /// and MCTS share.
    #[serde(default)]
    pub cpu_seconds: Vec<f64>,
    /// The references, each with its own limits; the first is rated 0.
    pub ladder: Vec<Entrant>,
    /// Stops a pairing once its Elo difference is shown below `elo0` or above `elo1`.
    pub sprt: SprtConfig,
    /// Games a pairing at most (an even number: each opening with both colours).
    pub games: u32,
    #[serde(default)]
    pub seed: u64,
    /// Worker threads (0: all cores).
    #[serde(default)]
    pub threads: u32,
}

fn first_version() -> u32 {
    LADDER_VERSION
}

/// Where the openings come from: a suite's positions the solver proved drawn (so neither
/// colour starts ahead), with at most `max_stones` stones, `count` of them by a seeded draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderOpenings {
    /// A suite file, relative to the experiment file's folder.
    pub suite: String,
    pub count: usize,
    pub max_stones: usize,
}

/// Why a ladder cannot run.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    #[error("{0}")]
    File(#[from] FileError),
    #[error("{0}")]
    Suite(#[from] SuiteError),
    #[error("{0}")]
    Matchup(#[from] MatchupError),
    #[error("{0}")]
    Run(#[from] super::RunError),
    #[error("{0}")]
    Results(#[from] super::ResultsError),
    #[error("a ladder needs at least one agent and one rung")]
    Empty,
    #[error(transparent)]
    Budget(#[from] super::accuracy::BudgetError),
    #[error("{0}")]
    Agent(#[from] super::EntrantError),
    #[error("games: {0} is not an even number of at least 2 (each opening is played with both colours)")]
    Games(u32),
    #[error("agents[{index}]: the name {name:?} {}", super::matchup::NAME_RULE)]
    Name { index: usize, name: String },
    #[error(
        "openings: {suite} has {found} positions proven drawn with at most {max_stones} stones, fewer than the {count} asked"
    )]
    TooFewOpenings { suite: String, found: usize, max_stones: usize, count: usize },
    #[error("{0}")]
    Export(#[from] crate::plot::ExportError),
}

/// One row of `elo.csv`: an agent at a budget (or a rung, `budget_kind` "ladder"), its games,
/// its points in them, and its rating with the 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct EloRow {
    pub board: String,
    pub agent: String,
    pub budget_kind: String,
    pub budget: String,
    pub games: u32,
    pub points: f64,
    pub elo: f64,
    pub lo: f64,
    pub hi: f64,
}

/// What each of the matchup's entrants stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderEntrant {
    pub agent: String,
    /// Its budget a move; None for a rung.
    pub budget: Option<Budget>,
}

impl LadderExperiment {
    /// Reads a ladder file.
    pub fn load(path: &Path) -> Result<LadderExperiment, LadderError> {
        LadderExperiment::parse(&crate::io::read_text(path)?, path)
    }

    /// Parses a ladder's text (`path` names it in errors), checking its settings.
    pub fn parse(text: &str, path: &Path) -> Result<LadderExperiment, LadderError> {
        let e: LadderExperiment = crate::io::parse_ron(text, path, "ladder experiment")?;
        crate::io::check_version(path, "ladder experiment", e.version, LADDER_VERSION)?;
        e.check()?;
        Ok(e)
    }

    pub fn to_ron(&self) -> String {
        crate::io::to_ron(self)
    }

    fn check(&self) -> Result<(), LadderError> {
        if self.agents.is_empty() || self.ladder.is_empty() {
            return Err(LadderError::Empty);
        }
        super::accuracy::check_budgets(self.work, &self.cpu_seconds)?;
        if self.games < 2 || !self.games.is_multiple_of(2) {
            return Err(LadderError::Games(self.games));
        }
        Ok(())
    }

    /// The openings: `count` of the suite's drawn positions with at most `max_stones` stones,
    /// in a seeded order, as move lists; and the suite's board.
    pub fn openings(&self, base: &Path) -> Result<(Variant, Vec<String>), LadderError> {
        let o = &self.openings;
        let suite = load_suite(&base.join(&o.suite))?;
        let mut drawn: Vec<String> = suite
            .positions
            .iter()
            .filter(|p| p.value() == 0 && p.moves.len() <= o.max_stones)
            .map(|p| p.moves.join(" "))
            .collect();
        if drawn.len() < o.count {
            return Err(LadderError::TooFewOpenings {
                suite: o.suite.clone(),
                found: drawn.len(),
                max_stones: o.max_stones,
                count: o.count,
            });
        }
        let mut rng = crate::rng::seeded(self.seed);
        crate::rng::shuffle(&mut drawn, &mut rng);
        drawn.truncate(o.count);
        Ok((suite.board, drawn))
    }

    /// The entrants: every agent at every budget ("strong-ab 4096 nodes", "plain-uct 4 ms"),
    /// then the rungs. Agent files are read from `base`.
    pub fn entrants(&self, base: &Path) -> Result<Vec<(Entrant, LadderEntrant)>, LadderError> {
        let mut out = Vec::new();
        for (index, a) in self.agents.iter().enumerate() {
            let file = a.agent.load(base, index)?;
            let name = a.name.clone().unwrap_or_else(|| file.name.clone());
            if !plain_name(&name) {
                return Err(LadderError::Name { index, name });
            }
            for budget in budgets_for(&file.agent, self.work, &self.cpu_seconds) {
                let said = match budget {
                    Budget::CpuSeconds(s) => crate::plot::accuracy::cpu_label(s),
                    Budget::None => "unlimited".into(),
                    _ => format!("{} {}", budget.amount(), budget.kind()),
                };
                let entrant = Entrant {
                    name: Some(format!("{name} {said}")),
                    agent: a.agent.clone(),
                    limits: Some(budget.limits()),
                    game_budget: None,
                };
                out.push((entrant, LadderEntrant { agent: name.clone(), budget: Some(budget) }));
            }
        }
        for (index, rung) in self.ladder.iter().enumerate() {
            let name = match &rung.name {
                Some(n) => n.clone(),
                None => rung.agent.load(base, index)?.name,
            };
            out.push((rung.clone(), LadderEntrant { agent: name, budget: None }));
        }
        Ok(out)
    }

    /// The matchup that plays the ladder: each agent at each budget against every rung, and
    /// the rungs against each other, from the openings with both colours, each pairing
    /// stopped by the SPRT.
    pub fn matchup(&self, base: &Path) -> Result<Matchup, LadderError> {
        let (board, openings) = self.openings(base)?;
        self.matchup_from(base, board, openings)
    }

    fn matchup_from(&self, base: &Path, board: Variant, openings: Vec<String>) -> Result<Matchup, LadderError> {
        let entrants = self.entrants(base)?;
        let candidates = entrants.iter().filter(|e| e.1.budget.is_some()).count();
        let rungs = candidates..entrants.len();
        let mut pairs: Vec<(usize, usize)> = (0..candidates).flat_map(|c| rungs.clone().map(move |r| (c, r))).collect();
        for a in rungs.clone() {
            pairs.extend((a + 1..rungs.end).map(|b| (a, b)));
        }
        let m = Matchup {
            version: super::matchup::MATCHUP_VERSION,
            name: self.name.clone(),
            description: self.description.clone(),
            variants: Variants::List(vec![board]),
            agents: entrants.into_iter().map(|e| e.0).collect(),
            pairing: Pairing::List(pairs),
            games: self.games,
            colours: Colours::Alternate,
            limits: None,
            game_budget: None,
            seed: self.seed,
            opening: Opening::List(openings),
            threads: self.threads,
            sprt: Some(self.sprt),
        };
        m.check()?;
        Ok(m)
    }

    /// Every entrant's rating from the ladder's games: one fit over all of them, the first
    /// rung at 0. Rows in the entrants' order; an entrant with no game has none.
    pub fn ratings(&self, base: &Path, board: Variant, records: &[GameRecord]) -> Result<Vec<EloRow>, LadderError> {
        let entrants = self.entrants(base)?;
        let n = entrants.len();
        let mut games = vec![0u32; n];
        let mut points = vec![0.0f64; n];
        let mut meetings: Vec<Encounter> = Vec::new();
        for r in records.iter().filter(|r| r.variant == board) {
            let [a, b] = r.players;
            let (Some(sa), Some(_)) = (r.score_of(a), r.score_of(b)) else { continue };
            for (e, s) in [(a, sa), (b, 1.0 - sa)] {
                games[e] += 1;
                points[e] += s;
            }
            let (lo, hi, s_lo) = if a < b { (a, b, sa) } else { (b, a, 1.0 - sa) };
            match meetings.iter_mut().find(|m| m.a == lo && m.b == hi) {
                Some(m) => {
                    m.games += 1.0;
                    m.score_a += s_lo;
                }
                None => meetings.push(Encounter { a: lo, b: hi, games: 1.0, score_a: s_lo }),
            }
        }
        let first_rung = entrants.iter().position(|e| e.1.budget.is_none()).unwrap_or(0);
        let ratings = fit_elo(n, &meetings, first_rung);
        Ok(entrants
            .iter()
            .enumerate()
            .filter_map(|(i, (_, what))| {
                let r = ratings[i]?;
                let (lo, hi) = r.interval();
                Some(EloRow {
                    board: board.to_string(),
                    agent: what.agent.clone(),
                    budget_kind: what.budget.map_or("ladder", |b| b.kind()).into(),
                    budget: what.budget.map_or_else(|| "0".into(), |b| b.amount()),
                    games: games[i],
                    points: points[i],
                    elo: r.elo,
                    lo,
                    hi,
                })
            })
            .collect())
    }
}

/// What a ladder run leaves: its ratings and the files written.
#[derive(Clone, Debug)]
pub struct LadderOutcome {
    pub rows: Vec<EloRow>,
    pub games: usize,
    pub files: Vec<PathBuf>,
}

/// Plays the ladder into `opts.out` (its games in `results.ronl`, resumed with
/// `opts.resume`), then rates every entrant and writes `ladder.ron` (the experiment),
/// `elo.csv` and the figures `elo-work.svg` and `elo-cpu.svg` (the budgets run) with their CSVs. `base`: the experiment file's folder.
pub fn run_ladder(
    exp: &LadderExperiment,
    base: &Path,
    opts: &super::RunOptions,
    control: &crate::search::SearchControl,
    on_game: impl FnMut(&super::ArenaProgress),
) -> Result<LadderOutcome, LadderError> {
    let (board, openings) = exp.openings(base)?;
    let m = exp.matchup_from(base, board, openings)?;
    let records = super::run_matchup(&m, base, opts, control, on_game)?;
    let rows = exp.ratings(base, board, &records)?;
    let files = write_ladder_outputs(exp, &opts.out, &rows)?;
    Ok(LadderOutcome { rows, games: records.len(), files })
}

/// `ladder.ron`, `elo.csv` and a figure a budget axis run (untitled, for a paper; each CSV
/// beside it) in `dir`.
pub fn write_ladder_outputs(exp: &LadderExperiment, dir: &Path, rows: &[EloRow]) -> Result<Vec<PathBuf>, LadderError> {
    let write = |name: &str, text: String| -> Result<PathBuf, LadderError> {
        let path = dir.join(name);
        crate::io::write_atomic(&path, text.as_bytes())?;
        Ok(path)
    };
    let mut files = vec![write("ladder.ron", exp.to_ron())?, write("elo.csv", elo_csv(rows))?];
    use crate::plot::accuracy::{BudgetAxis, ladder_figure};
    for (axis, kind) in [(BudgetAxis::Work, "work"), (BudgetAxis::CpuSeconds, "cpu")] {
        if let Some(mut fig) = ladder_figure(rows, axis) {
            fig.title.clear();
            let path = dir.join(format!("elo-{kind}.svg"));
            files.extend(crate::plot::export_figure(&fig, &path, &crate::plot::ExportOptions::default())?);
        }
    }
    Ok(files)
}

/// `elo.csv`'s text: a header, then a row an entrant.
pub fn elo_csv(rows: &[EloRow]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(ELO_COLUMNS);
    for r in rows {
        let _ = w.write_record([
            r.board.clone(),
            r.agent.clone(),
            r.budget_kind.clone(),
            r.budget.clone(),
            r.games.to_string(),
            format!("{}", r.points),
            format!("{:.1}", r.elo),
            format!("{:.1}", r.lo),
            format!("{:.1}", r.hi),
        ]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}
