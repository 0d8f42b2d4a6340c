//! Figures from arena results: pick a kind, the fields for the axes and a metric; the games
//! are grouped and aggregated here, once, for both the GUI and file export.
//!
//! Every game is seen from one side, the *agent*: the entrant named by `--agent`, or else the
//! lower-numbered entrant of its pairing (as in the summary table). Its opponent is the other.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{BoxStats, Figure, FigureData, HeatPanel, LinePoint, Series, histogram};
use crate::arena::game::{GameRecord, Outcome};
use crate::arena::matchup::Matchup;
use crate::arena::stats::{Z95, wilson};
use crate::game::Variant;
use crate::search::{BudgetUnit, SearchLimits};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum PlotKind {
    /// A metric against a numeric field, one line per series, with its 95% band.
    Line,
    /// Stacked win/draw/loss bars, one per category.
    Bar,
    /// Win/draw/loss pies, one per category.
    Pie,
    /// A metric over two fields (e.g. M x N, budget x depth).
    Heatmap,
    /// A per-move metric (time, nodes, memory, depth) by group, e.g. game phase.
    Box,
    /// A histogram of a per-game metric (default: game length).
    Hist,
}

/// A name the plot options do not know, with the names they do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{given}': use {expected}")]
pub struct UnknownName {
    pub what: &'static str,
    pub given: String,
    pub expected: String,
}

/// Names as the command line writes them: each one the value whose name it is, in order.
fn by_name<T: Copy>(what: &'static str, s: &str, names: &[&str], values: &[T]) -> Result<T, UnknownName> {
    match names.iter().position(|n| n.eq_ignore_ascii_case(s)) {
        Some(i) => Ok(values[i]),
        None => Err(UnknownName { what, given: s.to_string(), expected: names.join(", ") }),
    }
}

impl PlotKind {
    pub const ALL: [PlotKind; 6] =
        [PlotKind::Line, PlotKind::Bar, PlotKind::Pie, PlotKind::Heatmap, PlotKind::Box, PlotKind::Hist];
    /// The names of [`PlotKind::ALL`], as `--kind` takes them.
    pub const NAMES: [&str; 6] = ["line", "bar", "pie", "heatmap", "box", "hist"];
}

impl FromStr for PlotKind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<PlotKind, UnknownName> {
        by_name("plot kind", s, &PlotKind::NAMES, &PlotKind::ALL)
    }
}

/// A parameter of an entrant's agent, read from the matchup file beside the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Param {
    /// The per-game budget's total, else the first per-move limit set.
    Budget,
    Depth,
    Iterations,
    Nodes,
    Time,
    /// The per-game budget's split strategy.
    Strategy,
}

/// How the entrants' parameters are spelled after `agent.` and `opponent.` (parsing and
/// error messages both read this).
const PARAM_NAMES: [(&str, Param); 6] = [
    ("budget", Param::Budget),
    ("depth", Param::Depth),
    ("iterations", Param::Iterations),
    ("nodes", Param::Nodes),
    ("time", Param::Time),
    ("strategy", Param::Strategy),
];

/// What a game (or move) can be grouped by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Field {
    /// Board columns (M).
    M,
    /// Board rows (N).
    N,
    K,
    /// M x N.
    Board,
    Variant,
    Agent,
    Opponent,
    /// "agent vs opponent".
    Pairing,
    /// Whether the agent moved first ("first" / "second").
    Colour,
    AgentParam(Param),
    OpponentParam(Param),
    /// Moves only: opening, middle game or endgame (thirds of the game's plies).
    Phase,
    /// Moves only: the ply number.
    Ply,
}

impl FromStr for Field {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Field, UnknownName> {
        let param = |p: &str| PARAM_NAMES.iter().find(|(name, _)| *name == p).map(|&(_, param)| param);
        Ok(match s {
            "m" | "width" => Field::M,
            "n" | "height" => Field::N,
            "k" => Field::K,
            "board" => Field::Board,
            "variant" => Field::Variant,
            "agent" => Field::Agent,
            "opponent" => Field::Opponent,
            "pairing" => Field::Pairing,
            "colour" | "color" => Field::Colour,
            "phase" => Field::Phase,
            "ply" => Field::Ply,
            _ => {
                if let Some(p) = s.strip_prefix("agent.").and_then(param) {
                    Field::AgentParam(p)
                } else if let Some(p) = s.strip_prefix("opponent.").and_then(param) {
                    Field::OpponentParam(p)
                } else {
                    return Err(UnknownName {
                        what: "field",
                        given: s.to_string(),
                        expected: "m, n, k, board, variant, agent, opponent, pairing, colour, phase, ply, or \
                                   agent./opponent. followed by budget, depth, iterations, nodes, time or strategy"
                            .into(),
                    });
                }
            }
        })
    }
}

impl Field {
    /// How the field is spelled on the command line.
    pub fn flag(self) -> String {
        let param = |p: Param| PARAM_NAMES.iter().find(|(_, q)| *q == p).map_or("", |&(name, _)| name);
        match self {
            Field::M => "m".into(),
            Field::N => "n".into(),
            Field::K => "k".into(),
            Field::Board => "board".into(),
            Field::Variant => "variant".into(),
            Field::Agent => "agent".into(),
            Field::Opponent => "opponent".into(),
            Field::Pairing => "pairing".into(),
            Field::Colour => "colour".into(),
            Field::AgentParam(p) => format!("agent.{}", param(p)),
            Field::OpponentParam(p) => format!("opponent.{}", param(p)),
            Field::Phase => "phase".into(),
            Field::Ply => "ply".into(),
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let param = |p: &Param| match p {
            Param::Budget => "budget",
            Param::Depth => "depth",
            Param::Iterations => "iterations",
            Param::Nodes => "nodes",
            Param::Time => "time (s)",
            Param::Strategy => "budget strategy",
        };
        match self {
            Field::M => write!(f, "M (columns)"),
            Field::N => write!(f, "N (rows)"),
            Field::K => write!(f, "K"),
            Field::Board => write!(f, "board"),
            Field::Variant => write!(f, "variant"),
            Field::Agent => write!(f, "agent"),
            Field::Opponent => write!(f, "opponent"),
            Field::Pairing => write!(f, "pairing"),
            Field::Colour => write!(f, "agent's colour"),
            Field::AgentParam(p) => write!(f, "agent {}", param(p)),
            Field::OpponentParam(p) => write!(f, "opponent {}", param(p)),
            Field::Phase => write!(f, "game phase"),
            Field::Ply => write!(f, "ply"),
        }
    }
}

impl FromStr for Metric {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Metric, UnknownName> {
        by_name("metric", s, &Metric::NAMES, &Metric::ALL)
    }
}

/// The number a figure shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Metric {
    /// The agent's score (win 1, draw 1/2), with a Wilson interval.
    Score,
    /// The agent's share of wins.
    Win,
    Draw,
    Loss,
    /// The share of games the first player won.
    FirstWin,
    /// Plies in the game.
    Length,
    /// Seconds per move (the agent's).
    Time,
    /// Nodes or iterations per move (the agent's).
    Nodes,
    /// Bytes of search memory per move (the agent's).
    Memory,
    /// Depth reached per move (the agent's).
    Depth,
    /// The share of games the agent forfeited (a budget gone, a crash, an illegal move); as
    /// bars, the counts of the agent's and the opponent's forfeits.
    Forfeit,
    /// Games with points (connect3d): the agent's points less the opponent's.
    Margin,
}

impl Metric {
    pub const ALL: [Metric; 12] = [
        Metric::Score,
        Metric::Win,
        Metric::Draw,
        Metric::Loss,
        Metric::FirstWin,
        Metric::Length,
        Metric::Time,
        Metric::Nodes,
        Metric::Memory,
        Metric::Depth,
        Metric::Forfeit,
        Metric::Margin,
    ];
    /// The names of [`Metric::ALL`], as `--metric` takes them.
    pub const NAMES: [&str; 12] = [
        "score",
        "win",
        "draw",
        "loss",
        "first-win",
        "length",
        "time",
        "nodes",
        "memory",
        "depth",
        "forfeit",
        "margin",
    ];

    fn is_rate(self) -> bool {
        matches!(self, Metric::Score | Metric::Win | Metric::Draw | Metric::Loss | Metric::FirstWin | Metric::Forfeit)
    }

    fn per_move(self) -> bool {
        matches!(self, Metric::Time | Metric::Nodes | Metric::Memory | Metric::Depth)
    }

    /// The metric's axis title. `work`: what the nodes metric counts for the agent's moves
    /// ([`crate::arena::game::work_unit`]: MCTS counts iterations).
    pub fn label(self, agent: &str, work: &str) -> String {
        match self {
            Metric::Score => format!("score of {agent}"),
            Metric::Win => format!("win rate of {agent}"),
            Metric::Draw => "draw rate".into(),
            Metric::Loss => format!("loss rate of {agent}"),
            Metric::FirstWin => "first-player win rate".into(),
            Metric::Length => "game length (plies)".into(),
            Metric::Time => format!("seconds per move ({agent})"),
            Metric::Nodes => format!("{work} per move ({agent})"),
            Metric::Memory => format!("bytes per move ({agent})"),
            Metric::Depth => format!("depth per move ({agent})"),
            Metric::Forfeit => format!("forfeit rate of {agent}"),
            Metric::Margin => format!("point margin of {agent}"),
        }
    }
}

/// What to plot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotRequest {
    pub kind: PlotKind,
    /// Default by kind: line `m`, bar and pie `pairing`, heatmap `m`, box `phase`.
    pub x: Option<Field>,
    /// Heatmaps: the vertical field (default `n`).
    pub y: Option<Field>,
    /// Default by kind: score, except box (time) and hist (length).
    pub metric: Option<Metric>,
    /// Lines: one line per value of this field (default `pairing`).
    pub series: Option<Field>,
    /// See every game from this entrant's side (default: the lower-numbered of each pairing).
    pub agent: Option<String>,
    pub title: Option<String>,
    pub bins: Option<usize>,
    /// Heatmaps: one panel per value of this field (e.g. `k` when each board has two K).
    #[serde(default)]
    pub facet: Option<Field>,
    /// Heatmaps: draw the boundary between cells on either side of this value.
    #[serde(default)]
    pub boundary: Option<f64>,
    /// Lines: each line's name, with `{}` for the series value (e.g. "{} rollouts a game");
    /// by default "FIELD = VALUE".
    #[serde(default)]
    pub series_label: Option<String>,
}

impl PlotRequest {
    pub fn new(kind: PlotKind) -> PlotRequest {
        PlotRequest {
            kind,
            x: None,
            y: None,
            metric: None,
            series: None,
            agent: None,
            title: None,
            bins: None,
            facet: None,
            series_label: None,
            boundary: None,
        }
    }
}

/// A field's value: numbers sort as numbers, text in order of appearance.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Num(f64),
    Text(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Value::Num(x) => write!(f, "{x}"),
            Value::Text(s) => write!(f, "{s}"),
        }
    }
}

/// One entrant's parameters, as far as the matchup file tells them.
#[derive(Clone, Debug, Default)]
struct EntrantParams {
    limits: SearchLimits,
    budget: Option<(u64, BudgetUnit, String)>,
}

impl EntrantParams {
    fn get(&self, p: Param) -> Option<Value> {
        let l = &self.limits;
        match p {
            Param::Budget => self.budget.as_ref().map(|b| Value::Num(b.0 as f64)).or_else(|| {
                l.iterations.or(l.nodes).map(|x| x as f64).or(l.time).or(l.depth.map(f64::from)).map(Value::Num)
            }),
            Param::Depth => l.depth.map(|d| Value::Num(d as f64)),
            Param::Iterations => l.iterations.map(|d| Value::Num(d as f64)),
            Param::Nodes => l.nodes.map(|d| Value::Num(d as f64)),
            Param::Time => l.time.map(Value::Num),
            Param::Strategy => self.budget.as_ref().map(|b| Value::Text(b.2.clone())),
        }
    }
}

fn entrant_params(matchup: Option<&Matchup>, base: &std::path::Path) -> Vec<EntrantParams> {
    let Some(m) = matchup else { return Vec::new() };
    let budget = |b: Option<crate::search::GameBudget>| b.map(|b| (b.total, b.unit, format!("{:?}", b.strategy)));
    match m.resolve(base) {
        Ok(resolved) => {
            resolved.into_iter().map(|r| EntrantParams { limits: r.limits, budget: budget(r.game_budget) }).collect()
        }
        // Agent files may not sit beside a copied matchup: use what the matchup itself says.
        Err(_) => m
            .agents
            .iter()
            .map(|e| EntrantParams {
                limits: e.limits.or(m.limits).unwrap_or_default(),
                budget: budget(e.game_budget.or(m.game_budget)),
            })
            .collect(),
    }
}

/// One game seen from the agent's side.
struct GameView<'a> {
    record: &'a GameRecord,
    /// Side (0 first, 1 second) the agent played.
    side: usize,
}

impl GameView<'_> {
    fn agent(&self) -> usize {
        self.record.players[self.side]
    }
    fn opponent(&self) -> usize {
        self.record.players[1 - self.side]
    }
    fn score(&self) -> f64 {
        match (self.record.outcome, self.side) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::FirstWins, 0) | (Outcome::SecondWins, 1) => 1.0,
            _ => 0.0,
        }
    }
    fn plies(&self) -> usize {
        self.record.opening.len() + self.record.moves.len()
    }
}

struct Context<'a> {
    params: Vec<EntrantParams>,
    views: Vec<GameView<'a>>,
    /// Boards are named with their K ("6x5 K3"): K differs between the games and no axis,
    /// series or panel shows it.
    board_k: bool,
}

impl Context<'_> {
    fn game_field(&self, g: &GameView, f: Field) -> Result<Value, FigureError> {
        let r = g.record;
        let dims = match r.variant {
            Variant::Grid(rules) => Some((rules.width() as f64, rules.height() as f64, rules.k() as f64)),
            Variant::Connect3d => None,
        };
        let need_dims = || dims.ok_or(FigureError::NotDefinedFor { field: f, variant: r.variant });
        let param = |e: usize, p: Param| {
            self.params.get(e).and_then(|ep| ep.get(p)).ok_or_else(|| FigureError::UnknownParam {
                field: f,
                entrant: r.names[if e == g.agent() { g.side } else { 1 - g.side }].clone(),
            })
        };
        Ok(match f {
            Field::M => Value::Num(need_dims()?.0),
            Field::N => Value::Num(need_dims()?.1),
            Field::K => Value::Num(need_dims()?.2),
            Field::Board => match r.variant {
                Variant::Grid(rules) if self.board_k => {
                    Value::Text(format!("{}x{} K{}", rules.width(), rules.height(), rules.k()))
                }
                Variant::Grid(rules) => Value::Text(format!("{}x{}", rules.width(), rules.height())),
                Variant::Connect3d => Value::Text("4x4x6".into()),
            },
            Field::Variant => Value::Text(r.variant.to_string()),
            Field::Agent => Value::Text(r.names[g.side].clone()),
            Field::Opponent => Value::Text(r.names[1 - g.side].clone()),
            Field::Pairing => Value::Text(format!("{} vs {}", r.names[g.side], r.names[1 - g.side])),
            Field::Colour => Value::Text(if g.side == 0 { "first" } else { "second" }.into()),
            Field::AgentParam(p) => param(g.agent(), p)?,
            Field::OpponentParam(p) => param(g.opponent(), p)?,
            Field::Phase | Field::Ply => return Err(FigureError::DescribesMoves(f)),
        })
    }

    /// A field other than the `fixed` ones (the axes, series, facet) that takes two values
    /// among the games of one cell (so that the cell would silently average them), if there is
    /// one. Board shape first (K, M, N, variant), then, unless `shape_only`, the entrants'
    /// parameters and the pairing itself.
    fn mixed_within_cells(&self, fixed: &[Field], shape_only: bool) -> Option<Field> {
        let mut candidates = vec![Field::K, Field::M, Field::N, Field::Variant];
        if !shape_only {
            for p in [Param::Strategy, Param::Budget, Param::Depth, Param::Iterations, Param::Nodes, Param::Time] {
                candidates.extend([Field::AgentParam(p), Field::OpponentParam(p)]);
            }
            candidates.push(Field::Pairing);
        }
        let has = |f: Field| fixed.contains(&f);
        candidates.into_iter().filter(|&f| !has(f)).find(|&f| {
            // A board field (or the variant) fixes M and N; the variant fixes all three.
            if (has(Field::Board) || has(Field::Variant)) && matches!(f, Field::M | Field::N) {
                return false;
            }
            if has(Field::Variant) && f == Field::K {
                return false;
            }
            let mut seen: Vec<(Vec<String>, String)> = Vec::new();
            for g in &self.views {
                let key: Result<Vec<String>, FigureError> =
                    fixed.iter().map(|&k| self.game_field(g, k).map(|v| v.to_string())).collect();
                let (Ok(key), Ok(v)) = (key, self.game_field(g, f)) else { continue };
                let v = v.to_string();
                match seen.iter().find(|s| s.0 == key) {
                    Some(s) if s.1 != v => return true,
                    Some(_) => {}
                    None => seen.push((key, v)),
                }
            }
            false
        })
    }

    fn game_metric(&self, g: &GameView, m: Metric) -> Option<f64> {
        let own = || g.record.moves.iter().filter(|mv| mv.player as usize == g.side);
        let mean = |values: Vec<f64>| {
            if values.is_empty() { None } else { Some(values.iter().sum::<f64>() / values.len() as f64) }
        };
        match m {
            Metric::Score => Some(g.score()),
            Metric::Win => Some((g.score() == 1.0) as u8 as f64),
            Metric::Draw => Some((g.score() == 0.5) as u8 as f64),
            Metric::Loss => Some((g.score() == 0.0) as u8 as f64),
            Metric::FirstWin => Some((g.record.outcome == Outcome::FirstWins) as u8 as f64),
            Metric::Length => Some(g.plies() as f64),
            Metric::Time => mean(own().map(|mv| mv.time).collect()),
            Metric::Nodes => mean(own().map(|mv| mv.work() as f64).collect()),
            Metric::Memory => mean(own().map(|mv| mv.memory as f64).collect()),
            Metric::Depth => mean(own().map(|mv| mv.depth as f64).collect()),
            Metric::Forfeit => Some((g.record.forfeit == Some(g.side as u8)) as u8 as f64),
            Metric::Margin => {
                let p = g.record.points;
                Some(p[g.side] as f64 - p[1 - g.side] as f64)
            }
        }
    }
}

/// Groups keyed by a field value, in sorted order when every key is a number.
fn ordered_keys(keys: Vec<Value>) -> Vec<Value> {
    let mut unique: Vec<Value> = Vec::new();
    for k in keys {
        if !unique.contains(&k) {
            unique.push(k);
        }
    }
    if unique.iter().all(|k| matches!(k, Value::Num(_))) {
        unique.sort_by(|a, b| match (a, b) {
            (Value::Num(x), Value::Num(y)) => x.total_cmp(y),
            _ => std::cmp::Ordering::Equal,
        });
    }
    unique
}

/// Mean and 95% interval: Wilson for rates, normal for the rest.
fn aggregate(values: &[f64], rate: bool) -> (f64, (f64, f64)) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n.max(1.0);
    if rate {
        return (mean, wilson(mean, n, Z95));
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = Z95 * (var / n.max(1.0)).sqrt();
    (mean, (mean - half, mean + half))
}

/// What a set of entrant names have in common, for labels: the name itself when all are the
/// same, else their common prefix up to a separator ("minimax-d1-100" and "minimax-d5-10k":
/// "minimax"), else `otherwise`.
fn common_name(names: &[String], otherwise: &str) -> String {
    let Some(first) = names.first() else { return otherwise.into() };
    if names.iter().all(|n| n == first) {
        return first.trim_end_matches(['-', '_', '@', ' ']).to_string();
    }
    let mut len = first.len();
    for n in names {
        len = len.min(first.bytes().zip(n.bytes()).take_while(|(a, b)| a == b).count());
    }
    let prefix = &first[..len];
    // Back to the last separator, so "minimax-d" becomes "minimax".
    let cut = prefix.rfind(['-', '_', '@', ' ']).map_or(prefix, |i| &prefix[..i]);
    if cut.is_empty() { otherwise.into() } else { cut.to_string() }
}

/// " (200 games a cell)", or " (12-200 games a cell)" when they differ: how much each
/// value of a figure rests on.
fn games_each(counts: impl Iterator<Item = u32>, what: &str) -> String {
    counted_each(counts, "games", what)
}

/// " (N UNIT a WHAT)" or " (LO-HI UNIT a WHAT)"; empty when nothing is counted.
fn counted_each(counts: impl Iterator<Item = u32>, unit: &str, what: &str) -> String {
    let (lo, hi) = counts.fold((u32::MAX, 0), |(lo, hi), n| (lo.min(n), hi.max(n)));
    match (lo, hi) {
        (_, 0) => String::new(),
        (lo, hi) if lo == hi => format!(" ({hi} {unit} a {what})"),
        (lo, hi) => format!(" ({lo}-{hi} {unit} a {what})"),
    }
}

/// Whether entrant `name` is the one `--agent` asks for: the same name, or a pattern ending in
/// `*` that it starts with ("mcts-*" for every MCTS entrant of a sweep).
fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

/// Why a figure cannot be drawn from a run's games. Each names what to change.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FigureError {
    #[error("the results hold no finished game")]
    NoGames,
    #[error("--agent '{pattern}' matches both players of a game ({first} and {second}): use a name or a longer prefix")]
    AgentIsBothPlayers { pattern: String, first: String, second: String },
    #[error("no game has an agent named '{pattern}'; the agents are: {}", .known.join(", "))]
    NoSuchAgent { pattern: String, known: Vec<String> },
    #[error("{field} is not defined for {variant}")]
    NotDefinedFor { field: Field, variant: Variant },
    #[error("{field} is unknown for {entrant}: no matchup.ron beside the results, or it does not set it")]
    UnknownParam { field: Field, entrant: String },
    #[error("{0} describes moves: use it with --kind box")]
    DescribesMoves(Field),
    #[error("--x {0} is not a number; a line needs a numeric x (try --kind bar)")]
    NotNumeric(Field),
    #[error(
        "a point of the line would average games with different {0}: use --series {flag} or --x {flag}, or plot \
         one {0} at a time",
        flag = .0.flag()
    )]
    MixedInPoint(Field),
    #[error(
        "a bar would pool games with different {0}: use --x {flag} or --x variant, or plot one {0} at a time",
        flag = .0.flag()
    )]
    MixedInBar(Field),
    #[error("a cell of the heatmap would average games with different {varying}: {}", cell_advice(*.varying, *.faceted))]
    MixedInCell { varying: Field, faceted: bool },
    #[error("a box plot shows a per-move metric (time, nodes, memory, depth), not {0:?}")]
    NotPerMove(Metric),
    #[error("nothing to plot: no game gives a value for {0:?}")]
    NothingToPlot(Metric),
}

fn cell_advice(varying: Field, faceted: bool) -> String {
    if faceted {
        format!("put {varying} on an axis or in the facet, or plot one {varying} at a time")
    } else {
        format!("give each its own panel with --facet {}, or plot one {varying} at a time", varying.flag())
    }
}

/// Builds the figure `req` asks for from game records. `matchup` (the `matchup.ron` beside
/// the results, agent files relative to `base`) supplies the agents' parameters.
pub fn figure_from_results(
    records: &[GameRecord],
    matchup: Option<&Matchup>,
    base: &std::path::Path,
    req: &PlotRequest,
) -> Result<Figure, FigureError> {
    let views = game_views(records, req)?;
    let plotted = [req.x, req.series, req.facet, if req.kind == PlotKind::Heatmap { req.y } else { None }];
    let ks: Vec<u32> = views
        .iter()
        .filter_map(|g| match g.record.variant {
            Variant::Grid(rules) => Some(rules.k() as u32),
            Variant::Connect3d => None,
        })
        .collect();
    let board_k = !plotted.contains(&Some(Field::K)) && ks.iter().any(|&k| Some(&k) != ks.first());
    let ctx = Context { params: entrant_params(matchup, base), views, board_k };
    // Name the agents in labels: the entrant, or what the entrants seen have in common.
    let agent_label = match &req.agent {
        Some(a) => a.strip_suffix('*').map_or(a.clone(), |p| common_name(&[p.to_string()], "agent")),
        None => common_name(&ctx.views.iter().map(|g| g.record.names[g.side].clone()).collect::<Vec<_>>(), "agent"),
    };
    let opponents: Vec<String> = ctx.views.iter().map(|g| g.record.names[1 - g.side].clone()).collect();
    let opponent_label = common_name(&opponents, "opponent");
    let metric = req.metric.unwrap_or(match req.kind {
        PlotKind::Box => Metric::Time,
        PlotKind::Hist => Metric::Length,
        _ => Metric::Score,
    });
    let default_x = match req.kind {
        PlotKind::Line | PlotKind::Heatmap => Field::M,
        PlotKind::Bar | PlotKind::Pie => Field::Pairing,
        PlotKind::Box => Field::Phase,
        PlotKind::Hist => Field::M,
    };
    let work = crate::arena::game::work_unit(
        ctx.views.iter().flat_map(|g| g.record.moves.iter().filter(move |mv| mv.player as usize == g.side)),
    );
    let plan = Plan {
        req,
        x: req.x.unwrap_or(default_x),
        metric,
        y_label: metric.label(&agent_label, work),
        agent_label,
        opponent_label,
        name: matchup.map(|m| m.name.clone()).unwrap_or_default(),
        ctx,
    };
    let figure = match req.kind {
        PlotKind::Line => plan.lines()?,
        PlotKind::Bar | PlotKind::Pie => plan.bars_or_pies()?,
        PlotKind::Heatmap => plan.heatmap()?,
        PlotKind::Box => plan.boxes()?,
        PlotKind::Hist => plan.histogram(),
    };
    if figure.is_empty() {
        return Err(FigureError::NothingToPlot(metric));
    }
    Ok(figure)
}

/// The games seen from the agent's side, in game order: every game, or those `--agent` names
/// a player of.
fn game_views<'a>(records: &'a [GameRecord], req: &PlotRequest) -> Result<Vec<GameView<'a>>, FigureError> {
    if records.is_empty() {
        return Err(FigureError::NoGames);
    }
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.index);
    // A pattern matching both players of a game cannot say whose side to take.
    if let Some(name) = &req.agent
        && let Some(r) = sorted.iter().find(|r| r.names.iter().all(|n| name_matches(name, n)))
    {
        return Err(FigureError::AgentIsBothPlayers {
            pattern: name.clone(),
            first: r.names[0].clone(),
            second: r.names[1].clone(),
        });
    }
    let views: Vec<GameView> = sorted
        .into_iter()
        .filter_map(|record| {
            let side = match &req.agent {
                Some(name) => record.names.iter().position(|n| name_matches(name, n))?,
                None => (record.players[1] < record.players[0]) as usize,
            };
            Some(GameView { record, side })
        })
        .collect();
    if views.is_empty() {
        let mut known: Vec<String> = Vec::new();
        for n in records.iter().flat_map(|r| r.names.iter()) {
            if !known.contains(n) {
                known.push(n.clone());
            }
        }
        return Err(FigureError::NoSuchAgent { pattern: req.agent.clone().unwrap_or_default(), known });
    }
    Ok(views)
}

/// A figure request with what it resolved to: the games, the x field, the metric and the
/// labels naming the agent and its opponents.
struct Plan<'a> {
    req: &'a PlotRequest,
    ctx: Context<'a>,
    x: Field,
    metric: Metric,
    y_label: String,
    agent_label: String,
    opponent_label: String,
    /// The matchup's name, which titles start with.
    name: String,
}

impl Plan<'_> {
    fn title(&self, what: String) -> String {
        self.req
            .title
            .clone()
            .unwrap_or_else(|| if self.name.is_empty() { what } else { format!("{}: {what}", self.name) })
    }

    fn field(&self, g: &GameView, f: Field) -> Result<Value, FigureError> {
        self.ctx.game_field(g, f)
    }

    /// The metric against a numeric x, one line per series, each point with its 95% band.
    fn lines(&self) -> Result<Figure, FigureError> {
        let (x, metric) = (self.x, self.metric);
        let series_field = self.req.series.unwrap_or(Field::Pairing);
        let mut groups: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
        let mut colour_of: BTreeMap<String, String> = BTreeMap::new();
        let mut order: Vec<String> = Vec::new();
        for g in &self.ctx.views {
            let Value::Num(xv) = self.field(g, x)? else {
                return Err(FigureError::NotNumeric(x));
            };
            let s = match (self.field(g, series_field)?, &self.req.series_label) {
                (v, Some(template)) => template.replace("{}", &v.to_string()),
                (Value::Num(v), None) => format!("{series_field} = {v}"),
                (other, None) => other.to_string(),
            };
            if let Some(y) = self.ctx.game_metric(g, metric) {
                if !order.contains(&s) {
                    order.push(s.clone());
                    // A line of one agent's games (its pairing, or the agent) takes the
                    // agent's colour, as the workbench's plots do: a colour belongs to an
                    // agent, not to the pairing it played in.
                    if matches!(series_field, Field::Pairing | Field::Agent) {
                        colour_of.insert(s.clone(), self.field(g, Field::Agent)?.to_string());
                    }
                }
                groups.entry(s).or_default().push((xv, y));
            }
        }
        // A point averages its games: never over boards of different shapes unawares.
        if let Some(varying) = self.ctx.mixed_within_cells(&[x, series_field], true) {
            return Err(FigureError::MixedInPoint(varying));
        }
        let mut series = order
            .into_iter()
            .map(|name| {
                let samples = &groups[&name];
                let xs = ordered_keys(samples.iter().map(|s| Value::Num(s.0)).collect());
                let points = xs
                    .into_iter()
                    .filter_map(|xv| {
                        let Value::Num(xv) = xv else { return None };
                        let ys: Vec<f64> = samples.iter().filter(|s| s.0 == xv).map(|s| s.1).collect();
                        let (y, band) = aggregate(&ys, metric.is_rate());
                        Some(LinePoint { x: xv, y, band: Some(band), n: ys.len() as u32 })
                    })
                    .collect();
                Series { colour_of: colour_of.get(&name).cloned(), ..Series::new(name, points) }
            })
            .collect::<Vec<Series>>();
        super::tell_lines_apart(&mut series);
        let n = series.iter().flat_map(|s| s.points.iter().map(|p| p.n));
        Ok(Figure {
            title: format!("{}{}", self.title(format!("{} by {x}", self.y_label)), games_each(n, "point")),
            x_label: x.to_string(),
            y_label: self.y_label.clone(),
            value_label: String::new(),
            y_range: self.metric.is_rate().then_some((0.0, 1.0)),
            marks: Default::default(),
            data: FigureData::Lines(series),
        })
    }

    /// Wins, draws and losses (or forfeits) of each x category, as stacked bars or pies.
    fn bars_or_pies(&self) -> Result<Figure, FigureError> {
        let (x, req) = (self.x, self.req);
        // A bar labelled by a board field counts games of that board only: not of boards
        // of different shapes unawares (by pairing or agent, pooling boards is the point).
        if matches!(x, Field::M | Field::N | Field::K | Field::Board)
            && let Some(varying) = self.ctx.mixed_within_cells(&[x], true)
        {
            return Err(FigureError::MixedInBar(varying));
        }
        let keys = self.ctx.views.iter().map(|g| self.field(g, x)).collect::<Result<Vec<Value>, _>>()?;
        let categories = ordered_keys(keys.clone());
        let forfeits = self.metric == Metric::Forfeit;
        let mut wdl = vec![[0.0f64; 3]; categories.len()];
        for (g, k) in self.ctx.views.iter().zip(&keys) {
            let c = categories.iter().position(|c| c == k).expect("key is a category");
            let part = if forfeits {
                match g.record.forfeit {
                    Some(side) if side as usize == g.side => 0,
                    Some(_) => 1,
                    None => 2,
                }
            } else {
                match g.score() {
                    1.0 => 0,
                    0.5 => 1,
                    _ => 2,
                }
            };
            wdl[c][part] += 1.0;
        }
        let (agent, opponent) = (&self.agent_label, &self.opponent_label);
        let parts = if forfeits {
            [format!("{agent} forfeits"), format!("{opponent} forfeits"), "no forfeit".to_string()]
        } else {
            [format!("{agent} wins"), "draws".to_string(), format!("{opponent} wins")]
        };
        let names: Vec<String> = categories
            .iter()
            .map(|c| match (c, req.kind) {
                (Value::Num(v), PlotKind::Pie) => format!("{x} = {v}"),
                _ => c.to_string(),
            })
            .collect();
        let what = if req.kind == PlotKind::Bar { "bar" } else { "pie" };
        let games = games_each(wdl.iter().map(|c| c.iter().sum::<f64>() as u32), what);
        let title =
            format!("{}{games}", self.title(format!("{} by {x}", if forfeits { "forfeits" } else { "results" })));
        let data = if req.kind == PlotKind::Bar {
            FigureData::StackedBars {
                categories: names,
                // Forfeit bars count forfeits only, not the games without one.
                stacks: (0..if forfeits { 2 } else { 3 })
                    .map(|i| (parts[i].clone(), wdl.iter().map(|c| c[i]).collect()))
                    .collect(),
            }
        } else {
            FigureData::Pies(
                names
                    .into_iter()
                    .zip(&wdl)
                    .map(|(n, c)| (n, (0..3).map(|i| (parts[i].clone(), c[i])).collect()))
                    .collect(),
            )
        };
        Ok(Figure {
            title,
            x_label: x.to_string(),
            y_label: "games".into(),
            value_label: String::new(),
            y_range: None,
            marks: Default::default(),
            data,
        })
    }

    /// The metric's mean over x and y, one panel per facet value.
    fn heatmap(&self) -> Result<Figure, FigureError> {
        let (x, req) = (self.x, self.req);
        let y = req.y.unwrap_or(Field::N);
        let mut cells: Vec<(Value, Value, Value, f64)> = Vec::new();
        for g in &self.ctx.views {
            if let Some(v) = self.ctx.game_metric(g, self.metric) {
                let facet = match req.facet {
                    Some(f) => self.field(g, f)?,
                    None => Value::Text(String::new()),
                };
                cells.push((self.field(g, x)?, self.field(g, y)?, facet, v));
            }
        }
        let fixed: Vec<Field> = [x, y].into_iter().chain(req.facet).collect();
        if let Some(varying) = self.ctx.mixed_within_cells(&fixed, false) {
            return Err(FigureError::MixedInCell { varying, faceted: req.facet.is_some() });
        }
        let columns = ordered_keys(cells.iter().map(|c| c.0.clone()).collect());
        let rows = ordered_keys(cells.iter().map(|c| c.1.clone()).collect());
        let facets = ordered_keys(cells.iter().map(|c| c.2.clone()).collect());
        let panels: Vec<HeatPanel> = facets
            .iter()
            .map(|fv| {
                let in_cell = |cv: &Value, rv: &Value| -> Vec<f64> {
                    cells.iter().filter(|c| &c.0 == cv && &c.1 == rv && &c.2 == fv).map(|c| c.3).collect()
                };
                let mean = |cv: &Value, rv: &Value| {
                    let vs = in_cell(cv, rv);
                    (!vs.is_empty()).then(|| vs.iter().sum::<f64>() / vs.len() as f64)
                };
                let values = rows.iter().map(|rv| columns.iter().map(|cv| mean(cv, rv)).collect()).collect();
                let counts =
                    rows.iter().map(|rv| columns.iter().map(|cv| in_cell(cv, rv).len() as u32).collect()).collect();
                let label = match (req.facet, fv) {
                    (Some(f), Value::Num(v)) => format!("{f} = {v}"),
                    (Some(_), other) => other.to_string(),
                    (None, _) => String::new(),
                };
                HeatPanel { label, values, counts }
            })
            .collect();
        let by = req.facet.map_or(String::new(), |f| format!(", one panel per {f}"));
        let n = panels.iter().flat_map(|p: &HeatPanel| p.counts.iter().flatten().copied().filter(|&c| c > 0));
        let games = games_each(n, "cell");
        Ok(Figure {
            title: format!("{}{games}", self.title(format!("{} by {x} and {y}{by}", self.y_label))),
            x_label: x.to_string(),
            y_label: y.to_string(),
            value_label: self.y_label.clone(),
            y_range: None,
            marks: Default::default(),
            data: FigureData::Heatmap {
                columns: columns.iter().map(|v| v.to_string()).collect(),
                rows: rows.iter().map(|v| v.to_string()).collect(),
                panels,
                boundary: req.boundary,
            },
        })
    }

    /// A per-move metric of the agent's moves, one box per x group (the game phase by default).
    fn boxes(&self) -> Result<Figure, FigureError> {
        let (x, metric) = (self.x, self.metric);
        if !metric.per_move() {
            return Err(FigureError::NotPerMove(metric));
        }
        const PHASES: [&str; 3] = ["opening", "middle game", "endgame"];
        let mut samples: Vec<(Value, f64)> = Vec::new();
        for g in &self.ctx.views {
            let plies = g.plies().max(1);
            for (i, mv) in g.record.moves.iter().enumerate() {
                if mv.player as usize != g.side {
                    continue;
                }
                let ply = g.record.opening.len() + i + 1;
                let key = match x {
                    Field::Phase => Value::Text(PHASES[((ply - 1) * 3 / plies).min(2)].into()),
                    Field::Ply => Value::Num(ply as f64),
                    other => self.field(g, other)?,
                };
                let v = match metric {
                    Metric::Time => mv.time,
                    Metric::Nodes => mv.work() as f64,
                    Metric::Memory => mv.memory as f64,
                    _ => mv.depth as f64,
                };
                samples.push((key, v));
            }
        }
        let keys = ordered_keys(samples.iter().map(|s| s.0.clone()).collect());
        let keys = if x == Field::Phase {
            PHASES.iter().map(|p| Value::Text(p.to_string())).filter(|p| keys.contains(p)).collect()
        } else {
            keys
        };
        let boxes: Vec<BoxStats> = keys
            .iter()
            .filter_map(|k| {
                let vs: Vec<f64> = samples.iter().filter(|s| &s.0 == k).map(|s| s.1).collect();
                BoxStats::from_values(&k.to_string(), &vs)
            })
            .collect();
        let moves = counted_each(boxes.iter().map(|b| b.n), "moves", "box");
        Ok(Figure {
            title: format!("{}{moves}", self.title(format!("{} by {x}", self.y_label))),
            x_label: x.to_string(),
            y_label: self.y_label.clone(),
            value_label: String::new(),
            y_range: None,
            marks: Default::default(),
            data: FigureData::Boxes(boxes),
        })
    }

    /// A per-game metric's histogram (game length by default).
    fn histogram(&self) -> Figure {
        let values: Vec<f64> = self.ctx.views.iter().filter_map(|g| self.ctx.game_metric(g, self.metric)).collect();
        let label = self.y_label.clone();
        Figure {
            title: self.title(format!("{label} over {} games", values.len())),
            x_label: label,
            y_label: "games".into(),
            value_label: String::new(),
            y_range: None,
            marks: Default::default(),
            data: histogram(&values, self.req.bins),
        }
    }
}
