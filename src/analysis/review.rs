//! Game review: how much each move of a game gave away, judged the way a strong player would.
//!
//! For the position before each move, the loss of the move played is the value of the best
//! move minus the value of the move played, both for the mover and **from the same judgement**:
//! - proven values when the built-in book holds the position or the solver finishes within its
//!   budget (small boards, Connect-4's opening and late game):
//!   a proven win left for a draw or loss is "win thrown away", a draw left for a loss "draw
//!   thrown away", a loss reached sooner than it had to be "loss hastened";
//! - otherwise one search of the position with every root move valued: alpha-beta with
//!   multi-PV over all moves (so the move played is valued at the same depth as the best one,
//!   and the odd/even swing of shallow alpha-beta cancels out), or MCTS's statistics of each
//!   root move.
//!
//! The move the judgement prefers is never a mistake (its loss is 0 by construction).
//! Values are expected results for the mover in [-1, 1] (win 1, draw 0, loss -1; a heuristic
//! value is squashed, an MCTS mean rescaled), so losses are in 0..2.

use crate::agents::{AgentConfig, AgentFile, build_agent};
use crate::game::{AnyPosition, Move, Player, Position};
use crate::search::solver::{AnySolver, Solution, SolveRun, builtin_book, unsupported};
use crate::search::{Score, SearchControl, SearchEvent, SearchLimits};
use crate::with_position;

/// What the review says of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move the judgement prefers (or one as good).
    Best,
    /// Gave away less than a tenth of a result.
    Good,
    /// 0.1 to 0.3 of a result.
    Inaccuracy,
    /// 0.3 to 0.6.
    Mistake,
    /// More than 0.6.
    Blunder,
    /// Proven: a won position left for a draw or a loss.
    WinThrownAway,
    /// Proven: a drawn position left for a loss.
    DrawThrownAway,
    /// Proven: lost either way, but the loss comes sooner than it had to.
    LossHastened,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
            Verdict::WinThrownAway => "win thrown away",
            Verdict::DrawThrownAway => "draw thrown away",
            Verdict::LossHastened => "loss hastened",
        }
    }

    /// Worth marking on the graph, the board and the move list.
    pub fn is_mistake(self) -> bool {
        !matches!(self, Verdict::Best | Verdict::Good | Verdict::Inaccuracy)
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
    /// Expected result given away, 0..2 (proven "loss hastened": the share of the distance
    /// to the end given away, 0..1).
    pub loss: f64,
    pub verdict: Verdict,
    /// What judged it: "solver", "alpha-beta depth 9", "MCTS 20000 iterations".
    pub judged_by: String,
}

impl MoveReview {
    /// The expected result for the first player after the move (the review graph).
    pub fn value_after(&self) -> Option<f64> {
        self.played_value.map(|v| if self.mover == Player::First { v } else { -v })
    }

    /// "6.b loss in 16 → loss in 1 (loss hastened; best d)".
    pub fn describe(&self, pos_before: &AnyPosition) -> String {
        let best = self.best.map_or("-".into(), |m| pos_before.format_move(m));
        let played = pos_before.format_move(self.played);
        let bound = if self.played_bound { "≤ " } else { "" };
        // A judged (not proven) loss is given as a number: the scores shown are the last
        // depth's, the loss is from the matched pair of depths.
        let loss =
            if self.proven || self.verdict == Verdict::Best { String::new() } else { format!(" −{:.2}", self.loss) };
        format!(
            "{}.{played} {} → {bound}{} ({}{loss}; best {best})",
            self.ply,
            self.best_score,
            self.played_score,
            self.verdict.label()
        )
    }
}

/// How to judge: the agent (alpha-beta or MCTS) and its time a position, and the solver's.
#[derive(Clone, Debug)]
pub struct ReviewSettings {
    pub agent: AgentFile,
    pub seconds: f64,
    /// Seconds for each of the two proofs a position (0: never use the solver).
    pub solver_seconds: f64,
    pub solver_table_mb: usize,
}

impl ReviewSettings {
    pub fn new(agent: AgentFile, seconds: f64) -> ReviewSettings {
        ReviewSettings { agent, seconds, solver_seconds: (seconds * 2.0).clamp(0.05, 1.0), solver_table_mb: 64 }
    }

    /// Refuses an agent that cannot judge a game (it must value every root move itself).
    pub fn check(&self) -> Result<(), NotAJudge> {
        match self.agent.agent {
            AgentConfig::AlphaBeta(_) | AgentConfig::Mcts(_) => Ok(()),
            _ => Err(NotAJudge { name: self.agent.name.clone() }),
        }
    }
}

/// The review's agent values every move of a position itself: alpha-beta or MCTS.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("the review needs an alpha-beta or MCTS agent in slot A (it values every move); {name} is neither")]
pub struct NotAJudge {
    /// The agent's name.
    pub name: String,
}

fn verdict_for(loss: f64) -> Verdict {
    match loss {
        l if l <= 1e-9 => Verdict::Best,
        l if l < 0.1 => Verdict::Good,
        l if l < 0.3 => Verdict::Inaccuracy,
        l if l < 0.6 => Verdict::Mistake,
        _ => Verdict::Blunder,
    }
}

/// Compares two proven scores for the mover.
fn proven_loss(best: &Score, played: &Score) -> (f64, Verdict) {
    let class = |s: &Score| match s {
        Score::Win { .. } => 1,
        Score::Draw => 0,
        _ => -1,
    };
    match (class(best), class(played)) {
        (1, c) if c < 1 => (1.0 - c as f64, Verdict::WinThrownAway),
        (0, -1) => (1.0, Verdict::DrawThrownAway),
        (-1, -1) => match (best, played) {
            (Score::Loss { plies: Some(b) }, Score::Loss { plies: Some(p) }) if p < b => {
                ((b - p) as f64 / *b as f64, Verdict::LossHastened)
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
        verdict: Verdict::Best,
        judged_by: String::new(),
    };
    if let Some((best, best_score, played_score)) = prove(before, played, settings, solver) {
        let (loss, verdict) = proven_loss(&best_score, &played_score);
        review.best = best;
        review.best_score = best_score;
        review.played_score = played_score;
        review.proven = true;
        review.best_value = best_score.expected();
        review.played_value = played_score.expected();
        review.loss = loss;
        review.verdict = if best == Some(played) { Verdict::Best } else { verdict };
        review.judged_by = "solver".into();
        return review;
    }
    judge(before, played, settings, control, &mut review);
    review
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
    let mut agent = settings.agent.agent.clone();
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
        review.best = result.best;
        review.best_score = result.score;
        review.best_value = result.score.expected();
        return;
    };
    let mcts = last.iterations > 0;
    // Alpha-beta: the root as valued at the last completed depth and at the one before, to
    // average the two (matched depths: the parity swing of shallow alpha-beta cancels out).
    let before =
        (!mcts && last.depth > 1).then(|| reports.iter().rev().find(|p| p.depth + 1 == last.depth).copied()).flatten();
    review.judged_by = match (mcts, before) {
        (true, _) => format!("MCTS {} iterations", last.iterations),
        (false, Some(b)) => format!("alpha-beta depths {} and {} (mean)", b.depth, last.depth),
        (false, None) => format!("alpha-beta depth {}", last.depth),
    };
    let score_in = |p: &crate::search::Progress, m: Move| -> Option<(Score, bool)> {
        let r = p.root.iter().find(|r| r.mv == m)?;
        if mcts { (r.visits > 0).then_some((Score::WinRate(r.value), false)) } else { Some((r.score, r.upper_bound)) }
    };
    let value_of = |m: Move| -> Option<f64> {
        let (now, bound) = score_in(last, m)?;
        let now = now.expected()?;
        match before.and_then(|b| score_in(b, m)) {
            // Both exact: their mean; a bound or a proof at either depth: the last depth's.
            Some((prev, false)) if !bound && !prev.is_proven() && !score_in(last, m)?.0.is_proven() => {
                prev.expected().map(|p| (now + p) / 2.0)
            }
            _ => Some(now),
        }
    };
    // The best: the most visited (MCTS, as it would play) or the highest exact value.
    let best = if mcts {
        last.root.iter().max_by_key(|r| r.visits)
    } else {
        last.root.iter().filter(|r| !r.upper_bound).max_by(|a, b| a.score.as_f64().total_cmp(&b.score.as_f64()))
    };
    let Some(best) = best else { return };
    review.best = Some(best.mv);
    review.best_score = score_in(last, best.mv).map_or(Score::Unknown, |s| s.0);
    review.best_value = value_of(best.mv);
    let Some((played_score, bound)) = score_in(last, played) else {
        return;
    };
    review.played_score = played_score;
    review.played_bound = bound;
    review.played_value = value_of(played);
    if best.mv == played {
        review.played_value = review.best_value;
        review.verdict = Verdict::Best;
        return;
    }
    if let (Some(b), Some(m)) = (review.best_value, review.played_value) {
        review.loss = (b - m).max(0.0);
        review.verdict = verdict_for(review.loss);
    }
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

/// The mistakes, worst first: the marked verdicts, proven ones before judged ones of the same
/// loss.
pub fn worst(moves: &[MoveReview], n: usize) -> Vec<&MoveReview> {
    let mut out: Vec<&MoveReview> = moves.iter().filter(|m| m.verdict.is_mistake()).collect();
    out.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(b.proven.cmp(&a.proven)));
    out.truncate(n);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_values_name_what_was_thrown_away() {
        let win = Score::Win { plies: Some(5) };
        let draw = Score::Draw;
        let loss = |p| Score::Loss { plies: Some(p) };
        assert_eq!(proven_loss(&win, &draw), (1.0, Verdict::WinThrownAway));
        assert_eq!(proven_loss(&win, &loss(4)), (2.0, Verdict::WinThrownAway));
        assert_eq!(proven_loss(&draw, &loss(4)), (1.0, Verdict::DrawThrownAway));
        assert_eq!(proven_loss(&loss(16), &loss(1)).1, Verdict::LossHastened);
        assert_eq!(proven_loss(&loss(16), &loss(16)).1, Verdict::Best);
        // A slower win is still a win.
        assert_eq!(proven_loss(&win, &Score::Win { plies: Some(9) }).1, Verdict::Best);
    }

    #[test]
    fn a_childs_score_reads_for_the_mover() {
        assert_eq!(Score::Loss { plies: Some(0) }.for_mover(), Score::Win { plies: Some(1) });
        assert_eq!(Score::Win { plies: Some(3) }.for_mover(), Score::Loss { plies: Some(4) });
        assert_eq!(Score::Eval(250).for_mover(), Score::Eval(-250));
        assert_eq!(Score::WinRate(0.25).for_mover(), Score::WinRate(0.75));
    }
}
