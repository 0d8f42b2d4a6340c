//! Game review: how much each move of a game gave away, judged the way a strong player would.
//!
//! For the position before each move, the loss of the move played is the value of the best
//! move minus the value of the move played, both for the mover and **from the same judgement**:
//! - proven values when the built-in book holds the position or the solver finishes within its
//!   budget (small boards, Connect-4's opening and late game), or, on free-placement boards,
//!   when the threat-space search proves a win for either side before and after the move:
//!   a proven win left for a draw or loss is "win thrown away", a draw left for a loss "draw
//!   thrown away", a loss reached sooner than it had to be "loss hastened", a win later than
//!   it could "win delayed";
//! - otherwise one search of the position with every root move valued: alpha-beta with
//!   multi-PV over all moves (so the move played is valued at the same depth as the best one,
//!   and the odd/even swing of shallow alpha-beta cancels out), or MCTS's statistics of each
//!   root move. A move played that the search did not value (outside its move generator,
//!   past the multi-PV cap, never visited) is searched on its own; what the threat search
//!   proves of either position replaces the estimate.
//!
//! The move the judgement prefers is never a mistake (its loss is 0 by construction), and a
//! move no judgement valued is "not judged", never passed over as a good one.
//! Values are expected results for the mover in [-1, 1] (win 1, draw 0, loss -1; a heuristic
//! value is squashed, an MCTS mean rescaled). [`Verdict`] defines mistake and inaccuracy.

use crate::agents::{AgentConfig, AgentFile, build_agent};
use crate::game::{AnyPosition, ColumnStyle, Move, Player, Position, numbered_move};
use crate::search::solver::{AnySolver, Solution, SolveRun, builtin_book, unsupported};
use crate::search::{Score, SearchControl, SearchEvent, SearchLimits};

use super::threat_judge::ThreatJudgement;
use crate::with_position;

/// What the review says of a move.
///
/// The terms, one definition for the review, the workbench and the accuracy study:
/// - a **mistake** changes the value, as a proof shows it: a proven win or draw thrown away;
///   a win by threats proven before the move and not found after it, or a move that lets the
///   opponent win by threats where the judge's best move does not;
/// - an **inaccuracy** loses distance (a proven loss hastened, a proven win delayed) or 0.1
///   or more of a heuristic judge's expected result. An estimate proves no value, so however
///   large the drop it is an inaccuracy, ranked by its `loss` (the list is worst first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move the judgement prefers (or one as good).
    Best,
    /// Gave away less than a tenth of a result.
    Good,
    /// A tenth of a result or more, by a heuristic judge's estimate.
    Inaccuracy,
    /// Proven: a won position left for a draw or a loss.
    WinThrownAway,
    /// Proven: a drawn position left for a loss.
    DrawThrownAway,
    /// Proven: lost either way, but the loss comes sooner than it had to.
    LossHastened,
    /// Proven: won either way, but the win comes later than it could.
    WinDelayed,
    /// The threat search proves a win before the move and finds none after the move played
    /// (whose value is the judge's estimate).
    ThreatWinMissed,
    /// The move played lets the opponent win by threats (proven), where the judge's best
    /// move does not (as far as the threat search sees).
    AllowsThreatWin,
    /// No judgement valued the move played (the search was stopped, or found nothing).
    NotJudged,
}

/// How much a move gave away, in the review's two terms (see [`Verdict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Nothing worth a mark.
    None,
    /// The value kept; distance or expected result lost.
    Inaccuracy,
    /// The value changed.
    Mistake,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::WinThrownAway => "win thrown away",
            Verdict::DrawThrownAway => "draw thrown away",
            Verdict::LossHastened => "loss hastened",
            Verdict::WinDelayed => "win delayed",
            Verdict::ThreatWinMissed => "threat win missed",
            Verdict::AllowsThreatWin => "allows a threat win",
            Verdict::NotJudged => "not judged",
        }
    }

    pub fn severity(self) -> Severity {
        match self {
            Verdict::Best | Verdict::Good | Verdict::NotJudged => Severity::None,
            Verdict::Inaccuracy | Verdict::LossHastened | Verdict::WinDelayed => Severity::Inaccuracy,
            Verdict::WinThrownAway | Verdict::DrawThrownAway | Verdict::ThreatWinMissed | Verdict::AllowsThreatWin => {
                Severity::Mistake
            }
        }
    }

    /// The move changed the value (see [`Verdict`]).
    pub fn is_mistake(self) -> bool {
        self.severity() == Severity::Mistake
    }

    /// Worth marking on the graph, the board and the move list: a mistake or an inaccuracy.
    pub fn is_marked(self) -> bool {
        self.severity() != Severity::None
    }
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's number in the game (1 = the first move).
    pub ply: usize,
    pub mover: Player,
    pub played: Move,
    /// The move the judgement prefers.
    pub best: Option<Move>,
    /// Both for the mover.
    pub best_score: Score,
    pub played_score: Score,
    /// The played move's value is only an upper bound (alpha-beta refuted it without valuing
    /// it exactly): the loss is then at least `loss`.
    pub played_bound: bool,
    /// Both values are the solver's proof.
    pub proven: bool,
    /// The expected results (for the mover, -1..1) the loss is computed from: for alpha-beta
    /// the mean of the last two completed depths (so the odd/even swing cancels out).
    pub best_value: Option<f64>,
    pub played_value: Option<f64>,
    /// What the move gave away, one number >= 0 that orders moves as the review does: a proven
    /// win or draw thrown away 2 + the classes lost (3 or 4), above everything else; a value
    /// changed where the threat search proves one side of it (threat win missed, allows a
    /// threat win) 2 + half the judge's drop on the other side (2..3); a proven loss hastened
    /// or win delayed the share of the distance given away (0..1); otherwise the judge's drop
    /// in expected result (0..2). 0 where the move was not judged.
    pub loss: f64,
    pub verdict: Verdict,
    /// What judged it: "solver", "alpha-beta depth 9", "MCTS 20000 iterations".
    pub judged_by: String,
}

impl MoveReview {
    /// The move played was valued (by proof or by the judge): its loss means something.
    pub fn judged(&self) -> bool {
        self.played_value.is_some()
    }

    /// The expected result for the first player after the move (the review graph).
    pub fn value_after(&self) -> Option<f64> {
        self.played_value.map(|v| if self.mover == Player::First { v } else { -v })
    }

    /// "6. b win in 29 → loss in 1 (win thrown away; best a)", moves named in `style` (a
    /// move named by a number follows a colon, "5: 9", so that it never reads as a decimal). Each
    /// distance is counted from its own position, as its analysis and the review graph say
    /// it: the best value's from before the move, the played one's from after it.
    pub fn describe(&self, pos_before: &AnyPosition, style: ColumnStyle) -> String {
        let best = self.best.map_or("-".into(), |m| pos_before.format_move_as(m, style));
        let played = pos_before.format_move_as(self.played, style);
        let bound = if self.played_bound { "≤ " } else { "" };
        // A judge's drop in expected result is given as a number (the scores shown are the
        // last depth's, the loss is from the matched pair of depths); a value changed is named.
        let loss = match self.verdict {
            // "loss 0.22": the `loss` column's number (>= 0), not a signed drop.
            Verdict::Good | Verdict::Inaccuracy => {
                format!(", loss {:.2}", self.loss)
            }
            _ => String::new(),
        };
        format!(
            "{} {} → {bound}{} ({}{loss}; best {best})",
            numbered_move(self.ply, &played),
            self.best_score,
            counted_from_after(self.played_score),
            self.verdict.label()
        )
    }
}

/// The columns of a review as CSV (`mnklab review --csv`): one row a ply. `before` is the
/// value of the position for the mover (the judge's best move), `after` the value of the move
/// played, both as the workbench prints scores (empty where the judge found none, as for a
/// block the threat search found in place of a favourite that loses by threats; then
/// `expected_before` is still the judge's view of the position);
/// `loss` as [`MoveReview::loss`], empty with `judged` false where no judgement valued the
/// move; `expected_before` and `expected_after` the mover's expected result, -1 (a loss) to +1
/// (a win).
pub const REVIEW_COLUMNS: [&str; 13] = [
    "game",
    "ply",
    "move",
    "best",
    "before",
    "after",
    "loss",
    "judge",
    "judged",
    "mover",
    "verdict",
    "expected_before",
    "expected_after",
];

impl MoveReview {
    /// This move's row under [`REVIEW_COLUMNS`]; `before` is the position it was played in,
    /// moves named in `style` (as the game was typed).
    pub fn csv_row(&self, game: &str, before: &AnyPosition, style: ColumnStyle) -> Vec<String> {
        let number = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.4}"));
        // A score the judge did not find is an empty cell, as numbers are, not the "?" the
        // workbench prints.
        let score =
            |s: crate::search::Score| if s == crate::search::Score::Unknown { String::new() } else { s.to_string() };
        let judged = self.judged();
        vec![
            game.to_string(),
            self.ply.to_string(),
            before.format_move_as(self.played, style),
            self.best.map_or(String::new(), |m| before.format_move_as(m, style)),
            score(self.best_score),
            match score(self.played_score) {
                s if s.is_empty() || !self.played_bound => s,
                s => format!("≤ {s}"),
            },
            if judged { format!("{:.4}", self.loss) } else { String::new() },
            self.judged_by.clone(),
            judged.to_string(),
            self.mover.to_string(),
            self.verdict.label().to_string(),
            number(self.best_value),
            number(self.played_value),
        ]
    }
}

/// One player's moves in a review: how many were judged, marked, and the mean of their
/// [`MoveReview::loss`] over the judged moves (the mean of the `loss` column of the CSV):
/// the number Lichess' accuracy is made from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerSummary {
    pub moves: usize,
    pub judged: usize,
    pub mistakes: usize,
    pub inaccuracies: usize,
    pub mean_loss: f64,
}

impl PlayerSummary {
    /// "2 mistakes, 3 inaccuracies, mean loss 0.41 (24 of 24 moves judged)".
    pub fn describe(&self) -> String {
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        if self.judged == 0 {
            // No mean of nothing: "mean loss 0.000" read as perfect play.
            return format!("no move judged (of {})", self.moves);
        }
        format!(
            "{}, {}, mean loss {:.3} ({} of {} moves judged)",
            plural(self.mistakes, "mistake", "mistakes"),
            plural(self.inaccuracies, "inaccuracy", "inaccuracies"),
            self.mean_loss,
            self.judged,
            self.moves
        )
    }
}

/// Each player's summary, first player first.
pub fn player_summaries(moves: &[MoveReview]) -> [PlayerSummary; 2] {
    let mut out = [PlayerSummary::default(); 2];
    for m in moves {
        let s = &mut out[m.mover.index()];
        s.moves += 1;
        if !m.judged() {
            continue;
        }
        s.judged += 1;
        s.mistakes += usize::from(m.verdict.is_mistake());
        s.inaccuracies += usize::from(m.verdict.severity() == Severity::Inaccuracy);
        s.mean_loss += m.loss;
    }
    for s in &mut out {
        if s.judged > 0 {
            s.mean_loss /= s.judged as f64;
        }
    }
    out
}

/// How to judge: the agent (alpha-beta, MCTS, or the solver for proofs alone) and its time a
/// position, and the solver's.
#[derive(Clone, Debug)]
pub struct ReviewSettings {
    pub agent: AgentFile,
    pub seconds: f64,
    /// Seconds for each of the two proofs a position (0: never use the solver).
    pub solver_seconds: f64,
    pub solver_table_mb: usize,
}

impl ReviewSettings {
    /// The review with `agent` as its judge, `seconds` a position. A solver judges by proofs
    /// alone, `seconds` (at least one) each: a ply no proof settles is left unjudged.
    pub fn new(agent: AgentFile, seconds: f64) -> ReviewSettings {
        let solver_seconds = if agent.agent.is_solver() { seconds.max(1.0) } else { (seconds * 2.0).clamp(0.05, 1.0) };
        ReviewSettings { agent, seconds, solver_seconds, solver_table_mb: 64 }
    }

    /// Refuses an agent that cannot judge a game: it must value every root move itself
    /// (alpha-beta, MCTS) or prove them (the solver).
    pub fn check(&self) -> Result<(), NotAJudge> {
        match self.agent.agent.representative() {
            AgentConfig::AlphaBeta(_) | AgentConfig::Mcts(_) | AgentConfig::Solver(_) => Ok(()),
            _ => Err(NotAJudge { name: self.agent.name.clone() }),
        }
    }

    /// Who judges the review, for its header: `judge` names the agent (in the workbench,
    /// "agent A (strong-ab)").
    pub fn judge_said(&self, judge: &str) -> String {
        // Short enough for one line of the review tab beside the board (about 100
        // characters): "proofs" is said in full by [`PROOFS_ARE`].
        if self.proofs_only() {
            format!(
                "proofs only, by {judge}, {} s a position; a move no proof settles is left unjudged",
                self.solver_seconds
            )
        } else {
            format!("proofs where they finish, else {judge}")
        }
    }

    /// The judge proves or leaves unjudged: it has no estimate of its own.
    fn proofs_only(&self) -> bool {
        self.agent.agent.is_solver()
    }
}

/// What the review's "proofs" are, for the header's tooltip.
pub const PROOFS_ARE: &str =
    "proofs: the solver's (on free-placement boards, the threat search's) proven values, within the time a position";

/// The review header's judge: `reviewed`, the settings of the review shown (None before one),
/// and `now`, the agent slot A holds, who judges the next review at `seconds` a position.
/// After slot A changed, the review shown names the agent that judged it, not "agent A": that
/// read as the agent A holds now.
pub fn judge_header(reviewed: Option<&ReviewSettings>, now: &AgentFile, seconds: f64) -> String {
    let slot = |name: &str| format!("agent A ({name})");
    match reviewed {
        None => ReviewSettings::new(now.clone(), seconds).judge_said(&slot(&now.name)),
        Some(s) if s.agent == *now => s.judge_said(&slot(&now.name)),
        Some(s) => format!("{}; A now holds {}: Review game to use it", s.judge_said(&s.agent.name), now.name),
    }
}

/// The review's agent values every move of a position itself (alpha-beta, MCTS) or proves
/// them (the solver).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "the review needs an alpha-beta, MCTS or solver agent as its judge (it values every move); {name} is none of them"
)]
pub struct NotAJudge {
    /// The agent's name.
    pub name: String,
}

fn verdict_for(loss: f64) -> Verdict {
    match loss {
        l if l <= 1e-9 => Verdict::Best,
        l if l < 0.1 => Verdict::Good,
        _ => Verdict::Inaccuracy,
    }
}

/// Compares two proven scores for the mover: the loss and the verdict (see
/// [`MoveReview::loss`]).
fn proven_loss(best: &Score, played: &Score) -> (f64, Verdict) {
    let class = |s: &Score| match s {
        Score::Win { .. } => 1,
        Score::Draw => 0,
        _ => -1,
    };
    match (class(best), class(played)) {
        (1, c) if c < 1 => (2.0 + (1 - c) as f64, Verdict::WinThrownAway),
        (0, -1) => (3.0, Verdict::DrawThrownAway),
        (-1, -1) => match (best, played) {
            (Score::Loss { plies: Some(b) }, Score::Loss { plies: Some(p) }) if p < b => {
                ((b - p) as f64 / *b as f64, Verdict::LossHastened)
            }
            _ => (0.0, Verdict::Best),
        },
        (1, 1) => match (best, played) {
            (Score::Win { plies: Some(b) }, Score::Win { plies: Some(p) }) if p > b => {
                ((p - b) as f64 / *p as f64, Verdict::WinDelayed)
            }
            _ => (0.0, Verdict::Best),
        },
        _ => (0.0, Verdict::Best),
    }
}

/// The solver a review keeps from one move to the next: the position after a move is the one
/// before the next, and the proofs of the first leave its value in the table (every entry a
/// proven bound of its own position), so the next move's first proof is mostly answered at
/// once and more moves are judged by proof within the same budget.
#[derive(Default)]
pub struct ReviewSolver(Option<Box<dyn std::any::Any + Send>>);

impl ReviewSolver {
    /// The kept solver for `pos`'s board type (a new one the first time, or for another type).
    fn get<P: Position + 'static>(&mut self, pos: &P, table_mb: usize) -> &mut AnySolver<P> {
        if !self.0.as_ref().is_some_and(|s| s.is::<AnySolver<P>>()) {
            self.0 = Some(Box::new(AnySolver::new(pos, table_mb)));
        }
        self.0.as_mut().and_then(|s| s.downcast_mut::<AnySolver<P>>()).expect("made above for this type")
    }
}

/// Reviews the move `played` from `before` (a position with the game going on).
pub fn review_move(
    before: &AnyPosition,
    played: Move,
    settings: &ReviewSettings,
    control: &SearchControl,
) -> MoveReview {
    review_move_with(before, played, settings, control, &mut ReviewSolver::default())
}

/// [`review_move`] with a solver kept from the moves reviewed before (see [`ReviewSolver`]).
pub fn review_move_with(
    before: &AnyPosition,
    played: Move,
    settings: &ReviewSettings,
    control: &SearchControl,
    solver: &mut ReviewSolver,
) -> MoveReview {
    let ply = before.ply() + 1;
    let mover = before.side_to_move();
    let mut review = MoveReview {
        ply,
        mover,
        played,
        best: None,
        best_score: Score::Unknown,
        played_score: Score::Unknown,
        played_bound: false,
        proven: false,
        best_value: None,
        played_value: None,
        loss: 0.0,
        verdict: Verdict::NotJudged,
        judged_by: String::new(),
    };
    if let Some((best, best_score, played_score)) = prove(before, played, settings, solver) {
        review.set_proven(best, best_score, played_score, "solver");
        return review;
    }
    let threats = ThreatJudgement::of(before, played, settings.solver_seconds);
    if let (Some((best_score, best)), Some(played_score)) = (threats.before, threats.played) {
        review.set_proven(best, best_score, played_score, "threat search");
        return review;
    }
    if settings.proofs_only() {
        // The move played proven lost by threats, where a block of that line holds: the
        // threat win it allows is proven, as it is under a heuristic judge.
        let lost = matches!(threats.played, Some(Score::Loss { .. }));
        let block = lost.then(|| threat_block(before, played, settings.solver_seconds)).flatten();
        if let Some(block) = block {
            review.best = Some(block);
            review.played_score = Score::Loss { plies: None };
            review.played_value = Some(-1.0);
            (review.loss, review.verdict) = (2.5, Verdict::AllowsThreatWin);
            review.judged_by = "threat search (the move played loses; a block holds)".into();
            return review;
        }
        review.judged_by = format!("no proof within {} s", settings.solver_seconds);
        return review;
    }
    judge(before, played, settings, control, &mut review);
    // What the threat search proved replaces the judge's estimate of it.
    if let Some((score, best)) = threats.before {
        review.best_score = score;
        review.best_value = score.expected();
        review.best = best.or(review.best);
        review.judged_by.push_str("; the position before by threat search");
    }
    if let Some(score) = threats.played {
        review.played_score = score;
        review.played_bound = false;
        review.played_value = score.expected();
        review.judged_by.push_str("; the move played by threat search");
    }
    review.set_loss();
    review.set_threat_loss(&threats, before, settings.solver_seconds);
    review
}

impl MoveReview {
    /// Both values proven, by `judge`.
    fn set_proven(&mut self, best: Option<Move>, best_score: Score, played_score: Score, judge: &str) {
        let (loss, verdict) = proven_loss(&best_score, &played_score);
        self.best = best;
        self.best_score = best_score;
        self.played_score = played_score;
        self.proven = true;
        self.best_value = best_score.expected();
        self.played_value = played_score.expected();
        self.loss = loss;
        self.verdict = if best == Some(self.played) { Verdict::Best } else { verdict };
        self.judged_by = judge.into();
    }

    /// The loss and verdict from the values: nothing judged, the best move, or the drop in
    /// expected result.
    fn set_loss(&mut self) {
        // The move played valued (exactly) at least as high as the judge's favourite, as
        // when it was searched on its own: it is the best move of this judgement, and the
        // row names it so (a row read "best f5" beside f4 at +1.800 against f5's +1.600).
        if let (Some(b), Some(m)) = (self.best_value, self.played_value)
            && m >= b
            && !self.played_bound
            && self.best != Some(self.played)
        {
            self.best = Some(self.played);
            self.best_score = self.played_score;
            self.best_value = Some(m);
        }
        (self.loss, self.verdict) = match (self.best_value, self.played_value) {
            (_, None) => (0.0, Verdict::NotJudged),
            _ if self.best == Some(self.played) => (0.0, Verdict::Best),
            (Some(b), Some(m)) => {
                let loss = (b - m).max(0.0);
                (loss, verdict_for(loss))
            }
            (None, Some(_)) => (0.0, Verdict::NotJudged),
        };
    }

    /// Where the threat search proved one side of the comparison and the judge valued the
    /// other: a value changed ranks above every judge's drop (see [`MoveReview::loss`]).
    fn set_threat_loss(&mut self, threats: &ThreatJudgement, before: &AnyPosition, seconds: f64) {
        let (Some(best_value), Some(played_value)) = (self.best_value, self.played_value) else { return };
        let favourite = self.best == Some(self.played);
        match (threats.before, threats.played) {
            (Some((Score::Win { .. }, _)), None) if !favourite => {
                self.loss = 2.0 + (1.0 - played_value) / 2.0;
                self.verdict = Verdict::ThreatWinMissed;
            }
            (None, Some(Score::Loss { .. })) => {
                let loses = |m: Move| matches!(ThreatJudgement::after(before, m, seconds), Some(Score::Loss { .. }));
                // The judge's favourite loses by threats as well (or is the move played: a
                // row read "+1.800 → loss, best"): the position is lost only if no move stops
                // the threats (a heuristic judge that misses the block is no proof).
                if favourite || self.best.is_some_and(loses) {
                    match threat_block(before, self.played, seconds) {
                        Some(block) => {
                            self.best = Some(block);
                            self.best_score = Score::Unknown;
                            self.judged_by
                                .push_str("; its best move lost by threats, the block found by threat search");
                            self.loss = 2.0 + (best_value + 1.0) / 2.0;
                            self.verdict = Verdict::AllowsThreatWin;
                        }
                        None => {
                            self.best_score = Score::Loss { plies: None };
                            self.best_value = Some(-1.0);
                            self.judged_by.push_str("; its best move by threat search");
                            (self.loss, self.verdict) = (0.0, if favourite { Verdict::Best } else { Verdict::Good });
                        }
                    }
                } else {
                    self.loss = 2.0 + (best_value + 1.0) / 2.0;
                    self.verdict = Verdict::AllowsThreatWin;
                }
            }
            _ => {}
        }
    }
}

/// A move from `before` that stops the threat win the opponent has after `played`, as far as
/// the threat search sees: a cell of that winning line after which the opponent no longer
/// wins by threats.
fn threat_block(before: &AnyPosition, played: Move, seconds: f64) -> Option<Move> {
    let loses = |m: Move| matches!(ThreatJudgement::after(before, m, seconds), Some(Score::Loss { .. }));
    ThreatJudgement::defences(before, played, seconds).into_iter().find(|&m| !loses(m))
}

/// Both proofs within the budget: the position before (its value and a best move) and the
/// position after the move played.
fn prove(
    before: &AnyPosition,
    played: Move,
    settings: &ReviewSettings,
    kept: &mut ReviewSolver,
) -> Option<(Option<Move>, Score, Score)> {
    if settings.solver_seconds <= 0.0 || unsupported(&before.variant()).is_some() {
        return None;
    }
    let time = Some(std::time::Duration::from_secs_f64(settings.solver_seconds));
    before.clone().try_play(played).ok()?;
    // The book mnklab ships for the game (Connect-4: every position of up to ten stones)
    // answers first, as it does for the solver agent: an opening is judged at once.
    fn from_book<P: Position>(pos: &P) -> Option<Solution> {
        builtin_book(pos.variant())?.solution_of(pos, false)
    }
    with_position!(before, p => {
        let solver = kept.get(p, settings.solver_table_mb);
        // At the book's depth it knows the value but not a best move: then the solver proves.
        let here = match from_book(p).filter(|s| s.best.is_some()) {
            Some(s) => s,
            None => solver.run(p, SolveRun { weak: false, time, fresh_table: false, ..SolveRun::default() }),
        };
        if !here.is_solved() {
            return None;
        }
        let mut next = p.clone();
        next.play(played);
        let there = match from_book(&next) {
            Some(s) => s,
            // Over the first proof's table: the position after the move was searched in it.
            None => solver.run(&next, SolveRun { weak: false, time, fresh_table: false, ..SolveRun::default() }),
        };
        if !there.is_solved() {
            return None;
        }
        Some((here.best, here.score(), there.score().for_mover()))
    })
}

/// One search of `before` valuing every root move; the best and the played move's values from it.
fn judge(
    before: &AnyPosition,
    played: Move,
    settings: &ReviewSettings,
    control: &SearchControl,
    review: &mut MoveReview,
) {
    let mut agent = settings.agent.agent.for_variant(&before.variant()).clone();
    let legal = before.legal_moves().len() as u32;
    if let AgentConfig::AlphaBeta(c) = &mut agent {
        // Every move valued exactly, at the same depth as the best.
        c.multi_pv = legal.clamp(1, 64);
        c.iterative_deepening = true;
    }
    let limits = SearchLimits { time: Some(settings.seconds), ..settings.agent.limits };
    let mut events: Vec<SearchEvent> = Vec::new();
    let result = with_position!(before, p => {
        let mut a = build_agent(&agent, settings.agent.seed);
        a.search(p, &limits, control, &mut events)
    });
    let reports: Vec<&crate::search::Progress> = events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Progress(p) if !p.root.is_empty() => Some(p),
            _ => None,
        })
        .collect();
    let Some(&last) = reports.last() else {
        // No root list (one legal move, a forced reply): the search's own move and value.
        review.best = result.best;
        review.best_score = result.score;
        review.best_value = result.score.expected();
        if result.best == Some(played) {
            (review.played_score, review.played_value) = (result.score, review.best_value);
        } else {
            value_alone(before, played, settings, None, control, review);
        }
        return;
    };
    if last.iterations > 0 {
        // MCTS: the best is the most visited (as it would play); both moves valued alone.
        review.judged_by = format!("MCTS {} iterations", last.iterations);
        if let Some(best) = last.root.iter().max_by_key(|r| r.visits) {
            value_both_alone(before, best.mv, played, settings, control, review);
        }
        return;
    }
    judge_by_depths(&reports, before, played, settings, control, review);
}

/// The alpha-beta judge's values from its reports: the root as valued at the last completed
/// depth and at the one before, averaged (matched depths: the parity swing of shallow
/// alpha-beta cancels out).
fn judge_by_depths(
    reports: &[&crate::search::Progress],
    before: &AnyPosition,
    played: Move,
    settings: &ReviewSettings,
    control: &SearchControl,
    review: &mut MoveReview,
) {
    let Some(&last) = reports.last() else { return };
    let previous =
        (last.depth > 1).then(|| reports.iter().rev().find(|p| p.depth + 1 == last.depth).copied()).flatten();
    review.judged_by = match previous {
        Some(b) => format!("alpha-beta depths {} and {} (mean)", b.depth, last.depth),
        None => format!("alpha-beta depth {}", last.depth),
    };
    let score_in = |p: &crate::search::Progress, m: Move| -> Option<(Score, bool)> {
        p.root.iter().find(|r| r.mv == m).map(|r| (r.score, r.upper_bound))
    };
    // A move's score: the mean of the two depths' evaluations where both are exact estimates,
    // else (a bound or a proof at either depth) the last depth's. The score shown and the
    // expected result it gives are the same number (the expected result was the mean of two
    // depths beside the last depth's score: a CSV row read "+0.000" and 0.482).
    let judged = |m: Move| -> Option<(Score, bool)> {
        let (now, bound) = score_in(last, m)?;
        match (now, previous.and_then(|b| score_in(b, m))) {
            (Score::Eval(a), Some((Score::Eval(b), false))) if !bound => Some((Score::Eval((a + b) / 2), false)),
            _ => Some((now, bound)),
        }
    };
    // The best: the highest exact value.
    let best = last.root.iter().filter(|r| !r.upper_bound).max_by(|a, b| a.score.as_f64().total_cmp(&b.score.as_f64()));
    let Some(best) = best else { return };
    review.best = Some(best.mv);
    review.best_score = judged(best.mv).map_or(Score::Unknown, |s| s.0);
    review.best_value = review.best_score.expected();
    if best.mv == played {
        (review.played_score, review.played_value) = (review.best_score, review.best_value);
        return;
    }
    match judged(played) {
        Some((played_score, bound)) => {
            review.played_score = played_score;
            review.played_bound = bound;
            review.played_value = played_score.expected();
        }
        // Left out of the root list (outside the move generator or past the multi-PV cap):
        // searched on its own, one ply shallower below it.
        None => {
            let depth = Some(last.depth.saturating_sub(1).max(1));
            value_alone(before, played, settings, depth, control, review);
        }
    }
}

/// Values the move played by a search of the position after it, with the judge's agent and
/// time (and `depth` for alpha-beta): its score there, read for the mover.
fn value_alone(
    before: &AnyPosition,
    played: Move,
    settings: &ReviewSettings,
    depth: Option<u32>,
    control: &SearchControl,
    review: &mut MoveReview,
) {
    let Some(score) = searched_after(before, played, settings, settings.seconds, depth, control) else { return };
    review.played_score = score;
    review.played_bound = false;
    review.played_value = score.expected();
    review.judged_by.push_str("; the move played searched on its own");
}

/// MCTS: the best move (the root's most visited) and the move played each valued by a
/// search of the position after it, half the judge's time each. A child's mean in the
/// root's tree depends on how often the root tried it: a move seldom tried keeps the low
/// mean that made it seldom tried, so every move but the best read as a mistake, and the
/// best child's mean (the one most exploited) read higher than the position. Valued alike,
/// the two differ only by the moves.
fn value_both_alone(
    before: &AnyPosition,
    best: Move,
    played: Move,
    settings: &ReviewSettings,
    control: &SearchControl,
    review: &mut MoveReview,
) {
    let half = settings.seconds / 2.0;
    let Some(best_score) = searched_after(before, best, settings, half, None, control) else { return };
    review.best = Some(best);
    (review.best_score, review.best_value) = (best_score, best_score.expected());
    let played_score =
        if best == played { Some(best_score) } else { searched_after(before, played, settings, half, None, control) };
    if let Some(score) = played_score {
        (review.played_score, review.played_bound, review.played_value) = (score, false, score.expected());
    }
    review.judged_by.push_str("; each move valued by a search of the position after it");
}

/// The score of the position after `mv`, read for the player who made it: a search with the
/// judge's agent for `seconds` (and `depth` for alpha-beta), or the game's end. None when
/// stopped before a move was found.
fn searched_after(
    before: &AnyPosition,
    mv: Move,
    settings: &ReviewSettings,
    seconds: f64,
    depth: Option<u32>,
    control: &SearchControl,
) -> Option<Score> {
    let mut after = before.clone();
    if control.is_stopped() || after.try_play(mv).is_err() {
        return None;
    }
    match after.status() {
        crate::game::Status::Win(_) => Some(Score::Win { plies: Some(1) }),
        crate::game::Status::Draw => Some(Score::Draw),
        _ => {
            let limits = SearchLimits {
                time: Some(seconds),
                depth: depth.or(settings.agent.limits.depth),
                ..settings.agent.limits
            };
            let mut events: Vec<SearchEvent> = Vec::new();
            let result = with_position!(&after, p => {
                build_agent(&settings.agent.agent, settings.agent.seed).search(p, &limits, control, &mut events)
            });
            if control.is_stopped() && result.best.is_none() {
                return None;
            }
            Some(mcts_root_mean(&events).filter(|_| !result.score.is_proven()).unwrap_or(result.score).for_mover())
        }
    }
}

/// An MCTS search's value of its root: the mean reward of all its iterations (the children's
/// means weighted by their visits), for the side to move there. The most visited child's
/// mean, the search's own score, swung from run to run with which child came out on top
/// (a gomoku review valued one move 35% in one run and 47% in the next); the mean over the
/// whole tree moves little. None for alpha-beta.
fn mcts_root_mean(events: &[SearchEvent]) -> Option<Score> {
    let last = events.iter().rev().find_map(|e| match e {
        SearchEvent::Progress(p) if p.iterations > 0 && !p.root.is_empty() => Some(p),
        _ => None,
    })?;
    let visits: u64 = last.root.iter().map(|r| r.visits).sum();
    if visits == 0 {
        return None;
    }
    let sum: f64 = last.root.iter().map(|r| r.visits as f64 * r.value.clamp(0.0, 1.0)).sum();
    Some(Score::WinRate(sum / visits as f64))
}

/// Reviews a whole game (`start` + `line`), a move at a time, until `control` stops it.
pub fn review_game(
    start: &AnyPosition,
    line: &[Move],
    settings: &ReviewSettings,
    control: &SearchControl,
    mut each: impl FnMut(MoveReview) -> bool,
) {
    let mut pos = start.clone();
    let mut solver = ReviewSolver::default();
    for &m in line {
        if control.is_stopped() || pos.status().is_over() {
            return;
        }
        if !each(review_move_with(&pos, m, settings, control, &mut solver)) {
            return;
        }
        if pos.try_play(m).is_err() {
            return;
        }
    }
}

/// The review's graph: the expected result for the first player after each judged move.
/// Where a heuristic judged both, the value after move k is the mean of two judgements of
/// the same position: the mover's value of its move and the next mover's value of its best
/// reply. Each side's search values its own moves with the same bias (an MCTS playout
/// favours the side to move; a heuristic its own side), so the two views' biases cancel,
/// as the mean of two depths cancels alpha-beta's odd/even swing; alone, the line zig-zags
/// by twice the bias from ply to ply. A proven value is used as it is.
pub fn evaluation_line(moves: &[MoveReview]) -> Vec<(usize, f64)> {
    evaluation_points(moves).map(|(m, v)| (m.ply, v)).collect()
}

/// [`evaluation_line`]'s points with the move each follows. A move with no judged reply (the
/// last one reviewed, or one before a proof) has no second view to cancel its mover's bias:
/// its value is corrected by the bias the game's pairs of views measured (half their mean
/// difference, towards the mover), or used as it is where no pair was judged.
fn evaluation_points(moves: &[MoveReview]) -> impl Iterator<Item = (&MoveReview, f64)> {
    let first = |m: &MoveReview, v: f64| if m.mover == Player::First { v } else { -v };
    let reply = move |i: usize| -> Option<f64> {
        let (m, n) = (&moves[i], moves.get(i + 1)?);
        if n.ply != m.ply + 1 || m.played_score.is_proven() || n.best_score.is_proven() {
            return None;
        }
        n.best_value.map(|b| first(n, b))
    };
    // The mover's bias: how much higher its own view of its move is than the reply's view.
    let biases: Vec<f64> = (0..moves.len())
        .filter_map(|i| {
            let m = &moves[i];
            let v = m.value_after().filter(|_| !m.played_score.is_proven())?;
            Some(first(m, v - reply(i)?) / 2.0)
        })
        .collect();
    let bias = if biases.is_empty() { 0.0 } else { biases.iter().sum::<f64>() / biases.len() as f64 };
    moves.iter().enumerate().filter_map(move |(i, m)| {
        let v = m.value_after()?;
        Some((
            m,
            match reply(i) {
                Some(r) => (v + r) / 2.0,
                None if m.played_score.is_proven() => v,
                None => (v - first(m, bias)).clamp(-1.0, 1.0),
            },
        ))
    })
}

/// The review graph's scale, mate-style (as chess tools draw a mate above every evaluation):
/// an estimate (an expected result in -1..1) is drawn at half height, within -0.5..0.5; a
/// proven win in n plies at 1 - 0.5 (n - 1) / cells, above every estimate and nearer the top
/// the sooner it ends (a win of unknown distance at 0.75); a proven loss the same below; a
/// proven draw at 0. `cells`: the board's, the longest a game can run. So a line of proven
/// values is not flat: a loss hastened or a win delayed moves it.
pub fn graph_line(moves: &[MoveReview], cells: usize) -> Vec<(usize, f64)> {
    let cells = cells.max(1) as f64;
    let distance = |n: Option<u32>| n.map_or(0.75, |n| 1.0 - 0.5 * ((n.max(1) - 1) as f64 / cells).min(1.0));
    evaluation_points(moves)
        .map(|(m, v)| {
            let y = match proven_after(m) {
                Some(Score::Win { plies }) => distance(plies),
                Some(Score::Loss { plies }) => -distance(plies),
                Some(_) => 0.0,
                None => v / 2.0,
            };
            (m.ply, y)
        })
        .collect()
}

/// The label of the graph's y axis at `y` (see [`graph_line`]): the expected result within
/// ±0.5 ("+0.6" at 0.3), "W n" / "L n" beyond (the distance a proof there has).
pub fn graph_tick_label(y: f64, cells: usize) -> String {
    if y.abs() <= 0.5 + 1e-9 {
        return format!("{:+.1}", 2.0 * y).replace("+0.0", "0").replace("-0.0", "0");
    }
    let n = 1.0 + (1.0 - y.abs()) / 0.5 * cells.max(1) as f64;
    format!("{}{}", if y > 0.0 { "W" } else { "L" }, n.round() as i64)
}

/// What each point of [`graph_line`] stands for, off its plotting scale: the first player's
/// expected result after the move (-1..1, the mean the graph draws at half height), or a
/// proof's ±1 or 0 labelled with its distance ("W13", "L12", "=").
pub fn readings(moves: &[MoveReview]) -> Vec<crate::plot::Label> {
    let proven = proven_labels(moves);
    evaluation_points(moves)
        .map(|(m, v)| {
            // A proof's value is its own (±1, 0): only its label says more.
            let text = proven.iter().find(|p| p.0 == m.ply).map_or_else(|| format!("{v:+.3}"), |p| p.1.clone());
            crate::plot::Label { x: m.ply as f64, y: v, text }
        })
        .collect()
}

/// The review's bars: each judged move's loss.
pub fn loss_bars(moves: &[MoveReview]) -> Vec<(usize, f64)> {
    moves.iter().filter(|m| m.judged()).map(|m| (m.ply, m.loss)).collect()
}

/// How the loss bars are drawn from the graph's bottom edge: a loss of 2 (a whole win given
/// away) reaches the middle; a proven value thrown away, worth 3 or 4 in the ranking, is drawn
/// as that largest drop of expected result there is.
pub const LOSS_BAR_SCALE: crate::plot::BarScale = crate::plot::BarScale { per_unit: 0.5, max: 1.0 };

/// The proven value of the position after move `m`, as the first player sees it, its
/// distance counted from that position (as the analysis of that position says it: after a
/// move that lets four through, "win in 1", not the 2 plies counted from before the move).
/// None where the value after the move is not proven.
fn proven_after(m: &MoveReview) -> Option<Score> {
    if !m.played_score.is_proven() {
        return None;
    }
    let first = if m.mover == Player::First { m.played_score } else { super::flip(m.played_score) };
    Some(counted_from_after(first))
}

/// A move's proven value counted from the position after it: one ply fewer than counted
/// from before (the move itself). A value that is no proof is unchanged.
fn counted_from_after(s: Score) -> Score {
    match s {
        Score::Win { plies } => Score::Win { plies: plies.map(|p| p.saturating_sub(1)) },
        Score::Loss { plies } => Score::Loss { plies: plies.map(|p| p.saturating_sub(1)) },
        other => other,
    }
}

/// The distance to the end where a value after a move is proven, for the graph, as the first
/// player sees it from the position after the move: "W13" (the first player wins in 13
/// plies), "L12", "=" (a draw), "won" or "lost" where the move ended the game; a flat line of
/// proven values then still shows the game hastening or delaying its end.
pub fn proven_labels(moves: &[MoveReview]) -> Vec<(usize, String)> {
    moves
        .iter()
        .filter_map(|m| {
            let text = match proven_after(m)? {
                Score::Win { plies: Some(0) } => "won".to_string(),
                Score::Loss { plies: Some(0) } => "lost".to_string(),
                s => super::short_label(s, crate::search::tree::Bound::Exact),
            };
            Some((m.ply, text))
        })
        .collect()
}

/// The longest a game from `start`'s board can run (its cells; connect3d's 64): the review
/// graph's scale of proven distances.
pub fn board_cells(start: &AnyPosition) -> usize {
    start.variant().grid().map_or(64, |g| g.cells())
}

/// The review's figure, as the workbench draws it and a paper prints it: the evaluation after
/// each move for the first player on [`graph_line`]'s scale (y ticks labelled by
/// [`graph_tick_label`]), the marked moves as points labelled with their move, the proven
/// distances under their points ([`proven_labels`]), and each move's loss as a bar from the
/// bottom edge, half the height a loss of 2 ([`loss_bars`]). `names`: the moves' names, one
/// per ply; `cells`: the board's.
pub fn review_figure(moves: &[MoveReview], names: &[String], cells: usize) -> crate::plot::Figure {
    use crate::plot::{Figure, FigureData, Label, LinePoint, Marks, Series};
    let values = graph_line(moves, cells);
    let y_at = |ply: usize| values.iter().find(|v| v.0 == ply).map(|v| v.1);
    let name = |ply: usize| numbered_move(ply, names.get(ply.wrapping_sub(1)).map_or("?", |s| s));
    let points = moves
        .iter()
        .filter(|m| m.verdict.is_marked())
        .filter_map(|m| Some(Label { x: m.ply as f64, y: y_at(m.ply)?, text: name(m.ply) }))
        .collect();
    let notes = proven_labels(moves)
        .into_iter()
        .filter_map(|(ply, text)| Some(Label { x: ply as f64, y: y_at(ply)?, text }))
        .collect();
    // Not at ±0.75: a proof of unknown distance sits there, and "W114" read as its distance.
    let ticks = [-1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0];
    let marks = Marks {
        points,
        points_name: "mistakes and inaccuracies".into(),
        notes,
        notes_name: "proven: plies to the end".into(),
        bars: loss_bars(moves).into_iter().map(|(ply, l)| (ply as f64, l)).collect(),
        bar_base: -1.0,
        bar_scale: LOSS_BAR_SCALE,
        bars_name: "loss of the move (bars: 2 reaches the middle)".into(),
        y_ticks: ticks.iter().map(|&y| (y, graph_tick_label(y, cells))).collect(),
        readings: readings(moves),
        readings_name: "first player's result (expected -1..1; proven: ±1, 0)".into(),
        x_ticks: Vec::new(),
        x_log2: false,
    };
    let line = values.iter().map(|&(ply, v)| LinePoint { x: ply as f64, y: v, band: None, n: 1 }).collect();
    Figure {
        title: "evaluation over the game, for the first player".into(),
        x_label: "move".into(),
        // Short enough for a column's width: the scale's key is the caption's to give.
        y_label: "first player's result (Wn, Ln: proven)".into(),
        value_label: String::new(),
        y_range: Some((-1.0, 1.0)),
        data: FigureData::Lines(vec![Series::new("after the move played", line)]),
        marks,
    }
}

/// The marked moves (mistakes and inaccuracies), worst first: by loss, proven ones before
/// judged ones of the same loss.
pub fn worst(moves: &[MoveReview], n: usize) -> Vec<&MoveReview> {
    let mut out: Vec<&MoveReview> = moves.iter().filter(|m| m.verdict.is_marked()).collect();
    out.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(b.proven.cmp(&a.proven)));
    out.truncate(n);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_the_agent_that_judged_the_review_shown() {
        let strong = crate::agents::preset("strong-ab").unwrap();
        let mcts = crate::agents::preset("strong-mcts").unwrap();
        assert!(judge_header(None, &strong, 0.3).ends_with("else agent A (strong-ab)"));
        let reviewed = ReviewSettings::new(strong.clone(), 0.3);
        assert!(judge_header(Some(&reviewed), &strong, 0.3).ends_with("else agent A (strong-ab)"));
        // Slot A now holds another agent: the review shown was still judged by strong-ab.
        let after = judge_header(Some(&reviewed), &mcts, 0.3);
        assert!(after.contains("else strong-ab; A now holds strong-mcts: Review game to use it"), "{after}");
        assert!(format!("Judge: {after}").chars().count() <= 100, "one line of the review tab: {after}");
        assert!(!after.contains("agent A (strong-mcts)") && !after.contains("agent A (strong-ab)"), "{after}");
    }

    #[test]
    fn proven_values_name_what_was_thrown_away() {
        let win = Score::Win { plies: Some(5) };
        let draw = Score::Draw;
        let loss = |p| Score::Loss { plies: Some(p) };
        assert_eq!(proven_loss(&win, &draw), (3.0, Verdict::WinThrownAway));
        assert_eq!(proven_loss(&win, &loss(4)), (4.0, Verdict::WinThrownAway));
        assert_eq!(proven_loss(&draw, &loss(4)), (3.0, Verdict::DrawThrownAway));
        assert_eq!(proven_loss(&loss(16), &loss(1)), (15.0 / 16.0, Verdict::LossHastened));
        assert_eq!(proven_loss(&loss(16), &loss(16)).1, Verdict::Best);
        // A slower win is still a win, with distance given away; a faster one is no loss.
        assert_eq!(proven_loss(&win, &Score::Win { plies: Some(9) }), (4.0 / 9.0, Verdict::WinDelayed));
        assert_eq!(proven_loss(&Score::Win { plies: Some(9) }, &win).1, Verdict::Best);
        // Every value thrown away ranks above any distance given away.
        let distance = [
            proven_loss(&loss(40), &loss(1)).0,
            proven_loss(&Score::Win { plies: Some(1) }, &Score::Win { plies: Some(41) }).0,
        ];
        assert!(distance.iter().all(|&d| d < 1.0 && d < proven_loss(&draw, &loss(1)).0));
    }

    fn judged_move(ply: usize, best_value: f64, played_value: f64) -> MoveReview {
        let pos = AnyPosition::new("tictactoe".parse().unwrap());
        let mut m = MoveReview {
            ply,
            mover: if ply % 2 == 1 { Player::First } else { Player::Second },
            played: pos.legal_moves()[0],
            best: Some(pos.legal_moves()[1]),
            best_score: Score::Eval(0),
            played_score: Score::Eval(0),
            played_bound: false,
            proven: false,
            best_value: Some(best_value),
            played_value: Some(played_value),
            loss: 0.0,
            verdict: Verdict::NotJudged,
            judged_by: "test".into(),
        };
        m.set_loss();
        m
    }

    /// A heuristic judge whose favourite (k6) loses to the open three as the move played (a1)
    /// does: the position is not lost, since a block holds; a1 is still the threat win it
    /// allows, with the block as the better move (a trial's MCTS judge called a1 good).
    #[test]
    fn a_judge_that_misses_the_block_does_not_excuse_the_blunder() {
        let before = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 h7 i8 i7 j8").unwrap();
        let (a1, k6) = (before.parse_move("a1").unwrap(), before.parse_move("k6").unwrap());
        let mut m = judged_move(6, 0.2, -0.3);
        (m.played, m.best) = (a1, Some(k6));
        let threats = ThreatJudgement::of(&before, a1, 2.0);
        assert_eq!(threats.played, Some(Score::Loss { plies: None }));
        m.set_threat_loss(&threats, &before, 2.0);
        assert_eq!(m.verdict, Verdict::AllowsThreatWin, "{m:?}");
        let best = before.format_move(m.best.unwrap());
        assert!(best == "g8" || best == "k8", "the block: {best}");
        assert!(m.loss > 2.0);
    }

    /// The judge's favourite is the move played, and the threat search proves it lost: a row
    /// never reads "+0.2 → loss, best". With a block at hand the move is the threat win it
    /// allows, the block the better move.
    #[test]
    fn a_favourite_proven_lost_is_no_best_move_while_a_block_holds() {
        let before = AnyPosition::from_moves("gomoku".parse().unwrap(), "h8 h7 i8 i7 j8").unwrap();
        let a1 = before.parse_move("a1").unwrap();
        let mut m = judged_move(6, 0.2, 0.2);
        (m.played, m.best) = (a1, Some(a1));
        let threats = ThreatJudgement::of(&before, a1, 2.0);
        m.played_score = threats.played.unwrap();
        m.played_value = m.played_score.expected();
        m.set_loss();
        assert_eq!(m.verdict, Verdict::Best, "the judge's own favourite, before the threat search");
        m.set_threat_loss(&threats, &before, 2.0);
        assert_eq!(m.verdict, Verdict::AllowsThreatWin, "{m:?}");
        assert!(m.best != Some(a1) && m.loss > 2.0, "{m:?}");
    }

    /// The move played valued above the judge's favourite (searched on its own, deeper): it is
    /// the best move of that judgement, and its row names it, not the favourite below it.
    #[test]
    fn a_move_valued_above_the_favourite_is_the_best_move() {
        let m = judged_move(5, 0.3, 0.45);
        assert_eq!((m.best, m.best_value, m.loss, m.verdict), (Some(m.played), Some(0.45), 0.0, Verdict::Best));
        let pos = AnyPosition::new("tictactoe".parse().unwrap());
        let row = m.csv_row("0", &pos, ColumnStyle::Notation);
        let column = |name| row[REVIEW_COLUMNS.iter().position(|c| *c == name).unwrap()].clone();
        assert_eq!(column("best"), column("move"), "{row:?}");
        // A bound is no value: a move refuted as no better than 0.45 does not displace it.
        let mut bound = judged_move(5, 0.3, 0.0);
        (bound.played_value, bound.played_bound) = (Some(0.45), true);
        bound.set_loss();
        assert_ne!(bound.best, Some(bound.played));
    }

    /// A move no judgement valued: `judged` false and `loss` empty in its row (never a loss of
    /// 0, which would read as a good move), and no mark.
    #[test]
    fn an_unjudged_move_has_an_empty_loss_in_its_row() {
        let mut m = judged_move(3, 0.5, 0.1);
        m.played_value = None;
        m.set_loss();
        assert_eq!(m.verdict, Verdict::NotJudged);
        let pos = AnyPosition::new("tictactoe".parse().unwrap());
        let row = m.csv_row("7", &pos, ColumnStyle::Notation);
        let column = |name| row[REVIEW_COLUMNS.iter().position(|c| *c == name).unwrap()].as_str();
        assert_eq!((column("game"), column("ply"), column("loss"), column("judged")), ("7", "3", "", "false"));
        assert!(worst(&[m.clone()], 10).is_empty(), "not a mistake");
        // A score the judge did not find: an empty cell, not "?" (a trial's CSV held "?").
        (m.best_score, m.played_score) = (Score::Unknown, Score::Unknown);
        let row = m.csv_row("7", &pos, ColumnStyle::Notation);
        let column = |name| row[REVIEW_COLUMNS.iter().position(|c| *c == name).unwrap()].as_str();
        assert_eq!((column("before"), column("after")), ("", ""), "{row:?}");
    }

    /// A win the threat search proves before the move and cannot find after it ranks as a
    /// value changed: above every judge's drop, below a value thrown away by proof, and it is
    /// named, not given as the judge's small drop.
    #[test]
    fn a_threat_win_missed_ranks_between_proofs_and_estimates() {
        let before = AnyPosition::new("gomoku".parse().unwrap());
        let win = ThreatJudgement { before: Some((Score::Win { plies: None }, None)), played: None };
        let mut missed = judged_move(7, 1.0, 0.6);
        assert_eq!(missed.verdict, Verdict::Inaccuracy, "the judge alone: a drop of 0.4, no proof");
        missed.set_threat_loss(&win, &before, 0.0);
        assert_eq!(missed.verdict, Verdict::ThreatWinMissed);
        assert!((missed.loss - 2.2).abs() < 1e-12, "{}", missed.loss);
        let blunder = judged_move(5, 1.0, -1.0);
        assert_eq!((blunder.verdict, blunder.loss), (Verdict::Inaccuracy, 2.0));
        assert!(missed.loss > blunder.loss && missed.loss < proven_loss(&Score::Draw, &Score::Loss { plies: None }).0);
        let worst_first: Vec<usize> = worst(&[blunder.clone(), missed.clone()], 2).iter().map(|m| m.ply).collect();
        assert_eq!(worst_first, [7, 5]);
        let text = missed.describe(&before, ColumnStyle::Notation);
        assert!(text.contains("(threat win missed; best"), "{text}");
        // The move the threat search starts its win with is never a mistake.
        let mut kept = judged_move(7, 1.0, 1.0);
        kept.best = Some(kept.played);
        kept.set_threat_loss(&win, &before, 0.0);
        assert_eq!(kept.loss, 0.0);
    }

    /// Proven values sit beyond every estimate, nearer the edge the sooner the game ends: a
    /// game of proven moves is no flat line at +1.
    #[test]
    fn the_graph_draws_proofs_by_distance_beyond_the_estimates() {
        let mut moves = vec![judged_move(1, 0.9, 0.9), judged_move(2, 0.0, 0.0), judged_move(3, 0.0, 0.0)];
        moves[0].best = Some(moves[0].played);
        // Ply 2, by the second player: the first player now wins in 9; ply 3: in 5 (hastened).
        moves[1].set_proven(None, Score::Loss { plies: Some(12) }, Score::Loss { plies: Some(10) }, "solver");
        moves[2].set_proven(None, Score::Win { plies: Some(5) }, Score::Win { plies: Some(5) }, "solver");
        let line = graph_line(&moves, 42);
        let y: Vec<f64> = line.iter().map(|p| p.1).collect();
        assert!(y[0] > 0.0 && y[0] <= 0.5, "an estimate within half height: {y:?}");
        assert!(y[1] > 0.5 && y[2] > y[1] && y[2] < 1.0, "proofs above, the nearer win higher: {y:?}");
        // Counted from the position after each move, as its analysis says it.
        assert_eq!(graph_tick_label(y[1], 42), "W9");
        assert_eq!(graph_tick_label(y[2], 42), "W4");
        assert_eq!(graph_tick_label(-y[2], 42), "L4");
        assert_eq!(graph_tick_label(0.25, 42), "+0.5");
        assert_eq!(graph_tick_label(0.0, 42), "0");
    }

    /// The figure's CSV says what each point stands for off the plotting scale: the expected
    /// result itself (not its half-height coordinate) and a proof's distance.
    #[test]
    fn the_figure_lists_each_points_reading_beside_its_coordinate() {
        let mut moves = vec![judged_move(1, 0.6, 0.6), judged_move(2, 0.0, 0.0)];
        moves[0].best = Some(moves[0].played);
        moves[1].set_proven(None, Score::Loss { plies: Some(12) }, Score::Loss { plies: Some(10) }, "solver");
        let r = readings(&moves);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].y, r[0].text.as_str()), (0.6, "+0.600"), "the expected result, not 0.3 drawn");
        // The second player's move loses in 10 counting itself: the first player wins in 9
        // from the position after it.
        assert_eq!((r[1].y, r[1].text.as_str()), (1.0, "W9"), "the first player wins in 9");
        let csv = review_figure(&moves, &["a1".into(), "b1".into()], 9).to_csv();
        assert!(csv.contains(",0.3,") && csv.contains(",0.6,,,,+0.600"), "{csv}");
    }

    /// The summary's mean loss is the mean of the loss column over the judged moves, and its
    /// counts use the review's two terms (a judge's drop of a whole result is an inaccuracy:
    /// only a proof changes the value).
    #[test]
    fn the_summary_is_the_mean_of_the_loss_column() {
        let mut moves = vec![judged_move(1, 0.5, 0.5), judged_move(3, 0.5, -0.5), judged_move(5, 0.2, 0.0)];
        moves.push(MoveReview { played_value: None, ..judged_move(7, 0.0, 0.0) });
        moves[0].best = Some(moves[0].played);
        moves[0].set_loss();
        let mut proven = judged_move(9, 1.0, 0.0);
        proven.set_proven(proven.best, Score::Win { plies: Some(3) }, Score::Draw, "solver");
        moves.push(proven);
        let [first, second] = player_summaries(&moves);
        assert_eq!(second, PlayerSummary::default());
        assert_eq!((first.moves, first.judged, first.mistakes, first.inaccuracies), (5, 4, 1, 2));
        let column: f64 = moves.iter().filter(|m| m.judged()).map(|m| m.loss).sum();
        assert!((first.mean_loss - column / 4.0).abs() < 1e-12);
        assert!((first.mean_loss - (0.0 + 1.0 + 0.2 + 3.0) / 4.0).abs() < 1e-12, "{first:?}");
        assert_eq!(first.describe(), "1 mistake, 2 inaccuracies, mean loss 1.050 (4 of 5 moves judged)");
    }

    /// A judge that values each side's own moves 0.3 low (as random playouts do the side not
    /// to move) makes the raw line zig-zag by 0.6; the graph's line is flat at the true 0, to
    /// its last move.
    #[test]
    fn the_graph_cancels_a_judges_bias_for_the_side_to_move() {
        let first = AnyPosition::new("tictactoe".parse().unwrap());
        let moves: Vec<MoveReview> = (1..=6)
            .map(|ply| MoveReview {
                ply,
                mover: if ply % 2 == 1 { Player::First } else { Player::Second },
                played: first.legal_moves()[ply],
                best: Some(first.legal_moves()[ply]),
                best_score: Score::Eval(-300),
                played_score: Score::Eval(-300),
                played_bound: false,
                proven: false,
                best_value: Some(-0.3),
                played_value: Some(-0.3),
                loss: 0.0,
                verdict: Verdict::Best,
                judged_by: "test".into(),
            })
            .collect();
        let raw: Vec<f64> = moves.iter().filter_map(MoveReview::value_after).collect();
        assert!((raw[1] - raw[0] - 0.6).abs() < 1e-12, "{raw:?}");
        let line = evaluation_line(&moves);
        assert_eq!(line.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
        assert!(line[..5].iter().all(|p| p.1.abs() < 1e-12), "{line:?}");
        // The last move has no reply: its value is corrected by the bias the pairs measured.
        assert!(line[5].1.abs() < 1e-12, "{line:?}");
        // Alone (no pair to measure a bias by), a move's value is its own.
        assert_eq!(evaluation_line(&moves[..1]), [(1, raw[0])]);
        // A proven value after a move is kept as it is.
        let mut proven = moves.clone();
        proven[2].played_score = Score::Win { plies: Some(3) };
        proven[2].played_value = Some(1.0);
        assert_eq!(evaluation_line(&proven)[2], (3, 1.0));
    }

    /// Connect-4 `d a d a d b d`, judged by the solver: each proven value labelled with its
    /// distance for the first player, and each move's loss a bar.
    #[test]
    fn proven_values_carry_their_distance_and_losses_their_bars() {
        let start = AnyPosition::new("connect4".parse().unwrap());
        let line = AnyPosition::from_moves("connect4".parse().unwrap(), "d a d a d b d").unwrap().history().to_vec();
        let settings = ReviewSettings::new(crate::agents::preset("strong-ab").unwrap(), 0.2);
        let mut moves = Vec::new();
        review_game(&start, &line, &settings, &SearchControl::new(), |r| {
            moves.push(r);
            true
        });
        assert!(moves.iter().all(|m| m.proven), "{moves:#?}");
        let labels = proven_labels(&moves);
        assert_eq!(labels.len(), 7);
        // 6.b lets four through: the first player then wins in 1, as the analysis of the
        // position after 6.b says (2 plies counted from before 6.b); 7.d wins.
        assert_eq!(labels[5], (6, "W1".to_string()));
        assert_eq!(labels[6], (7, "won".to_string()));
        assert!(labels.iter().all(|(_, l)| l.starts_with('W') || l == "won"), "the first player wins: {labels:?}");
        let bars = loss_bars(&moves);
        assert_eq!(bars.len(), 7);
        assert!(bars.iter().zip(&moves).all(|(b, m)| b.1 == m.loss), "the bars are the losses: {bars:?}");
        assert!(bars[5].1 > 0.8, "6.b hastens the loss: {bars:?}");
        // A loss of 2 reaches the middle; a proven value thrown away (3 or 4) stops there.
        assert_eq!(LOSS_BAR_SCALE.height(0.5), 0.25);
        assert_eq!(LOSS_BAR_SCALE.height(2.0), 1.0);
        assert_eq!(LOSS_BAR_SCALE.height(3.0), 1.0);
    }

    #[test]
    fn a_mistake_changes_the_value_an_inaccuracy_loses_distance_or_expected_result() {
        use Verdict::*;
        for v in [WinThrownAway, DrawThrownAway, ThreatWinMissed, AllowsThreatWin] {
            assert!(v.is_mistake() && v.is_marked(), "{v:?}");
        }
        for v in [LossHastened, WinDelayed, Inaccuracy] {
            assert_eq!(v.severity(), Severity::Inaccuracy, "{v:?}");
            assert!(!v.is_mistake() && v.is_marked(), "{v:?}");
        }
        for v in [Best, Good] {
            assert!(!v.is_marked(), "{v:?}");
        }
    }

    #[test]
    fn a_childs_score_reads_for_the_mover() {
        assert_eq!(Score::Loss { plies: Some(0) }.for_mover(), Score::Win { plies: Some(1) });
        assert_eq!(Score::Win { plies: Some(3) }.for_mover(), Score::Loss { plies: Some(4) });
        assert_eq!(Score::Eval(250).for_mover(), Score::Eval(-250));
        assert_eq!(Score::WinRate(0.25).for_mover(), Score::WinRate(0.75));
    }
}
