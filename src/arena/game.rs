//! Playing one game of a matchup between two agents, and the record it leaves.

use serde::{Deserialize, Serialize};

use super::entrants::ResolvedEntrant;
use super::matchup::{GameSpec, Opening};
use crate::agents::build_agent;
use crate::game::{AnyPosition, Position, Status, Variant};
use crate::rng::{below, seeded};
use crate::search::{ProgressSink, SearchControl, SearchEvent, SearchLimits};
use crate::with_position;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Outcome {
    FirstWins,
    SecondWins,
    Draw,
}

/// One searched move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRecord {
    /// 0: the first player, 1: the second.
    pub player: u8,
    pub mv: String,
    /// Seconds.
    pub time: f64,
    pub nodes: u64,
    pub iterations: u64,
    pub depth: u32,
    /// The agent's score as a number (see `Score::as_f64`): for sorting within one agent
    /// kind; `score` and the CSV's `expected` column are the comparable forms.
    pub eval: f64,
    /// The agent's score for the mover, in the one convention (`+1.400`, `62.0%`, `win in 5`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<crate::search::Score>,
    /// Bytes.
    pub memory: u64,
    /// CPU seconds the searching thread used (a search's helper threads not counted; None in
    /// runs of an older mnklab).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<f64>,
    /// The agent stopped before valuing any move: this one is a legal move, not a searched one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unsearched: bool,
}

impl MoveRecord {
    /// The search's work on the move, one figure per agent kind: MCTS iterations (its tree
    /// nodes count expansions, not work), alpha-beta nodes.
    pub fn work(&self) -> u64 {
        if self.iterations > 0 { self.iterations } else { self.nodes }
    }
}

/// What [`MoveRecord::work`] counts over `moves`, for an axis title: "nodes" (alpha-beta,
/// the solver), "MCTS iterations", or both where the moves hold both; "nodes" for none.
pub fn work_unit<'a>(moves: impl IntoIterator<Item = &'a MoveRecord>) -> &'static str {
    let (mut iterations, mut nodes) = (false, false);
    for m in moves {
        if m.iterations > 0 {
            iterations = true;
        } else if m.nodes > 0 {
            nodes = true;
        }
    }
    match (nodes, iterations) {
        (_, false) => "nodes",
        (false, true) => "MCTS iterations",
        (true, true) => "nodes or MCTS iterations",
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    pub index: u64,
    pub variant: Variant,
    /// Entrant indices of the first and second player.
    pub players: [usize; 2],
    pub names: [String; 2],
    pub seed: u64,
    /// Opening moves played before the agents took over.
    pub opening: Vec<String>,
    pub moves: Vec<MoveRecord>,
    pub outcome: Outcome,
    pub points: [u32; 2],
    /// The player (0 or 1) who lost by running out of budget or by an illegal move.
    pub forfeit: Option<u8>,
    /// Why that player forfeited ("budget", "illegal move", an engine's "timeout ...").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit_reason: Option<String>,
    /// External engines' ABOUT lines, by side.
    #[serde(default, skip_serializing_if = "no_about")]
    pub about: [Option<String>; 2],
    /// The mnklab build that played the game ([`crate::COMMIT`]; None in runs of an older
    /// mnklab).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// What the agents warned of during the game, each once (a book file not used, a table
    /// smaller than asked: see [`SearchEvent::Warning`]), so a result carries what may make it
    /// differ from another run's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl GameRecord {
    /// A game known by its players and result only (no moves, seed 0, no forfeit): for tests
    /// of statistics and tables, which read nothing else.
    pub fn with_result(
        index: u64,
        variant: Variant,
        players: [usize; 2],
        names: [String; 2],
        outcome: Outcome,
    ) -> GameRecord {
        GameRecord {
            index,
            variant,
            players,
            names,
            seed: 0,
            opening: Vec::new(),
            moves: Vec::new(),
            outcome,
            points: [0, 0],
            forfeit: None,
            forfeit_reason: None,
            about: [None, None],
            commit: None,
            warnings: Vec::new(),
        }
    }
}

fn no_about(a: &[Option<String>; 2]) -> bool {
    a.iter().all(Option::is_none)
}

impl GameRecord {
    /// The score of entrant `e` in this game (1, 1/2, 0), if it played.
    pub fn score_of(&self, e: usize) -> Option<f64> {
        let side = self.players.iter().position(|&p| p == e)?;
        Some(match (self.outcome, side) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::FirstWins, 0) | (Outcome::SecondWins, 1) => 1.0,
            _ => 0.0,
        })
    }
}

/// Plays the game `spec` (None if `control` stopped it). `scale` multiplies time budgets.
pub fn play_game(
    spec: &GameSpec,
    entrants: &[ResolvedEntrant],
    opening: &Opening,
    scale: f64,
    control: &SearchControl,
) -> Option<GameRecord> {
    let mut pos = AnyPosition::new(spec.variant);
    let mut opening_moves = Vec::new();
    match (opening, &spec.opening) {
        (_, Some(list)) => {
            pos.play_sequence(list).ok()?;
            opening_moves = pos.history().iter().map(|&m| pos.format_move(m)).collect();
        }
        (Opening::RandomPlies(n), None) => {
            let mut rng = seeded(spec.opening_seed);
            for _ in 0..*n {
                // Uniform among the moves that leave the game open: the agents play the end,
                // and an opening never stops short where a random move won.
                let mut open: Vec<(crate::game::Move, AnyPosition)> = pos
                    .legal_moves()
                    .into_iter()
                    .filter_map(|m| {
                        let mut probe = pos.clone();
                        probe.try_play(m).ok()?;
                        (!probe.status().is_over()).then_some((m, probe))
                    })
                    .collect();
                if open.is_empty() {
                    break; // every move ends the game: the opening is as long as it can be
                }
                let (m, next) = open.swap_remove(below(&mut rng, open.len()));
                opening_moves.push(pos.format_move(m));
                pos = next;
            }
        }
        _ => {}
    }
    let names = [entrants[spec.players[0]].name.clone(), entrants[spec.players[1]].name.clone()];
    let played = with_position!(&mut pos, p => play_on(p, spec, entrants, scale, control))?;
    let (moves, forfeit) = (played.moves, played.forfeit.as_ref().map(|f| f.0));
    let outcome = match (forfeit, pos.status()) {
        (Some(0), _) => Outcome::SecondWins,
        (Some(_), _) => Outcome::FirstWins,
        (None, Status::Win(w)) if w.index() == 0 => Outcome::FirstWins,
        (None, Status::Win(_)) => Outcome::SecondWins,
        (None, _) => Outcome::Draw,
    };
    Some(GameRecord {
        index: spec.index,
        variant: spec.variant,
        players: spec.players,
        names,
        seed: spec.seed,
        opening: opening_moves,
        moves,
        outcome,
        points: pos.points(),
        forfeit,
        forfeit_reason: played.forfeit.map(|f| f.1),
        about: played.about,
        commit: None,
        warnings: played.warnings.0,
    })
}

/// What the agents did: their moves, a forfeit (side and reason) and external engines' ABOUT.
struct Played {
    moves: Vec<MoveRecord>,
    forfeit: Option<(u8, String)>,
    about: [Option<String>; 2],
    warnings: Warnings,
}

/// A game's sink: its agents' warnings, each kept once; every other event dropped (no one
/// watches a match's searches).
#[derive(Default)]
struct Warnings(Vec<String>);

impl ProgressSink for Warnings {
    fn event(&mut self, e: SearchEvent) {
        if let SearchEvent::Warning(text) = e
            && !self.0.contains(&text)
        {
            self.0.push(text);
        }
    }
}

/// What one side has used of its game budget, and the extra moves left once it is spent.
#[derive(Clone, Copy, Default)]
struct BudgetAccount {
    /// The side's own moves so far.
    moves: usize,
    /// Nodes, iterations or milliseconds spent.
    spent: u64,
    /// Once the budget is gone: the extra moves it still may play (`GameBudget::extra_moves`).
    extra_left: Option<u32>,
}

impl BudgetAccount {
    /// The limits of the side's next move, or None when it forfeits for want of budget.
    fn limits(&mut self, e: &ResolvedEntrant, max_moves: usize) -> Option<SearchLimits> {
        let Some(b) = &e.game_budget else { return Some(e.limits) };
        if self.extra_left.is_some() {
            return self.extra(e);
        }
        match b.next_limits(self.moves, max_moves, &e.limits, self.spent) {
            Some(l) => Some(l),
            None => self.begin_extra(e),
        }
    }

    /// The budget is gone: starts the extra moves it grants, and gives the first one's
    /// limits (None when it grants none: the side forfeits).
    fn begin_extra(&mut self, e: &ResolvedEntrant) -> Option<SearchLimits> {
        let n = e.game_budget.map_or(0, |b| b.extra_moves.count(&e.limits));
        if self.extra_left.is_none() && n > 0 {
            self.extra_left = Some(n);
        }
        self.extra(e)
    }

    /// An extra move's limits: the entrant's own, no budget (None once they are used up).
    fn extra(&self, e: &ResolvedEntrant) -> Option<SearchLimits> {
        (self.extra_left? > 0).then_some(e.limits)
    }

    /// Books a played move.
    fn charge(&mut self, e: &ResolvedEntrant, r: &crate::search::SearchResult, wall: f64) {
        self.moves += 1;
        match (&mut self.extra_left, &e.game_budget) {
            (Some(left), _) => *left -= 1,
            (None, Some(b)) => self.spent += b.spent_by(r.stats.nodes, r.stats.iterations, wall),
            (None, None) => {}
        }
    }
}

/// Searches one move for `side`, timed around the whole call (the table's allocation and the
/// tree's release included): the time the agent took, as its opponent waited.
fn timed_search<P: Position>(
    agent: &mut dyn crate::search::Agent<P>,
    pos: &P,
    limits: &SearchLimits,
    control: &SearchControl,
    warnings: &mut Warnings,
) -> (crate::search::SearchResult, f64, f64) {
    let (wall_before, cpu_before) = (std::time::Instant::now(), crate::search::progress::thread_cpu_seconds());
    let r = agent.search(pos, limits, control, warnings);
    (r, wall_before.elapsed().as_secs_f64(), crate::search::progress::thread_cpu_seconds() - cpu_before)
}

fn play_on<P: Position>(
    pos: &mut P,
    spec: &GameSpec,
    entrants: &[ResolvedEntrant],
    scale: f64,
    control: &SearchControl,
) -> Option<Played> {
    // Each side's agent gets its own seed from the game's.
    let mut agents = [0, 1].map(|side| {
        let e = &entrants[spec.players[side]];
        build_agent::<P>(&e.file.agent, spec.seed ^ (side as u64 + 1).wrapping_mul(0xA076_1D64_78BD_642F))
    });
    let max_moves = pos.max_game_length().div_ceil(2);
    let mut accounts = [BudgetAccount::default(); 2];
    let mut records = Vec::new();
    let mut warnings = Warnings::default();
    let done = |agents: &[Box<dyn crate::search::Agent<P>>; 2], moves, forfeit, warnings| {
        Some(Played { moves, forfeit, about: [agents[0].about(), agents[1].about()], warnings })
    };
    while !pos.is_over() {
        let side = pos.side_to_move().index();
        let e = &entrants[spec.players[side]];
        let Some(limits) = accounts[side].limits(e, max_moves) else {
            return done(&agents, records, Some((side as u8, "budget".into())), warnings);
        };
        let (mut r, mut wall, mut cpu) =
            timed_search(agents[side].as_mut(), pos, &limits.scaled(scale), control, &mut warnings);
        if control.is_stopped() {
            return None;
        }
        // A move cut short by what was left of an as-needed budget, before the search had a
        // move: the budget ran out mid-move. The game is lost as the study rules, unless the
        // budget grants extra moves: this is then the first, searched again without a budget.
        if r.unsearched
            && e.game_budget.is_some_and(|b| b.forfeit && b.strategy == crate::search::BudgetStrategy::AsNeeded)
        {
            let Some(extra) = accounts[side].begin_extra(e) else {
                return done(&agents, records, Some((side as u8, "budget".into())), warnings);
            };
            (r, wall, cpu) = timed_search(agents[side].as_mut(), pos, &extra.scaled(scale), control, &mut warnings);
            if control.is_stopped() {
                return None;
            }
        }
        let Some(m) = r.best.filter(|&m| pos.is_legal(m)) else {
            let reason = agents[side].failure().unwrap_or_else(|| match r.best {
                Some(m) => format!("illegal move {}", pos.format_move_safe(m)),
                None => "no move".into(),
            });
            return done(&agents, records, Some((side as u8, reason)), warnings);
        };
        records.push(MoveRecord {
            player: side as u8,
            mv: pos.format_move(m),
            time: wall,
            nodes: r.stats.nodes,
            iterations: r.stats.iterations,
            depth: r.stats.depth,
            eval: r.score.as_f64(),
            score: Some(r.score),
            memory: r.stats.memory,
            unsearched: r.unsearched,
            cpu: Some(cpu),
        });
        accounts[side].charge(e, &r, wall);
        pos.play(m);
    }
    done(&agents, records, None, warnings)
}
