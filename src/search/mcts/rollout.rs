//! Valuing the position at the end of a tree walk: a rollout (random, random then the
//! heuristic, heuristic-biased) or the reward of a finished game. Free functions of the
//! configuration, a generator and a scratch position, so tree-parallel threads run them
//! outside the tree's lock, each with its own.

use super::{MARGIN_SCALE, MctsConfig, Reward, Rollout, squash};
use crate::eval::Heuristic;
use crate::game::{Move, Player, Position, Status};
use crate::rng::{GameRng, below, unit};
use crate::search::playout::random_playout_on_copy;

/// Reward in [0, 1] of a finished game for `p`; with raw heuristic rewards, the heuristic's
/// value of it (Lim's program scored a finished line with the heuristic's WIN value too).
pub(super) fn terminal_reward<P: Position>(config: &MctsConfig, pos: &P, p: Player) -> f64 {
    let first = match &config.rollout {
        Rollout::RandomThenEval { heuristic, raw: true, .. } => {
            let v = heuristic.evaluate_fresh(pos) as f64;
            if pos.side_to_move() == Player::First { v } else { 1.0 - v }
        }
        _ => reward_of(config, pos, pos.status(), pos.points()),
    };
    if p == Player::First { first } else { 1.0 - first }
}

/// Values the position at the end of the tree walk for the first player, playing moves on
/// `pos` (taken back before returning) and recording them for RAVE; random choices from
/// `rng`, a plain random rollout on `scratch` (a buffer, reused).
pub(super) fn rollout<P: Position>(
    config: &MctsConfig,
    rng: &mut GameRng,
    scratch: &mut Option<P>,
    pos: &mut P,
    played: &mut Vec<(Move, Player)>,
) -> f64 {
    let start = played.len();
    let reward_first;
    match &config.rollout {
        Rollout::Random if config.rave.is_none() => {
            let scratch = scratch.get_or_insert_with(|| pos.clone());
            let r = random_playout_on_copy(pos, scratch, rng);
            let status = r.status;
            let points = r.points;
            reward_first = reward_of(config, pos, status, points);
            return reward_first;
        }
        Rollout::Random => {
            while !pos.is_over() {
                let m = pos.random_move(rng);
                played.push((m, pos.side_to_move()));
                pos.play(m);
            }
            reward_first = terminal_reward(config, pos, Player::First);
        }
        Rollout::RandomThenEval { plies, heuristic, scale, raw } => {
            let mut n = 0;
            while !pos.is_over() && n < *plies {
                let m = pos.random_move(rng);
                played.push((m, pos.side_to_move()));
                pos.play(m);
                n += 1;
            }
            reward_first = if pos.is_over() {
                terminal_reward(config, pos, Player::First)
            } else {
                let v = heuristic.evaluate_fresh(pos) as f64;
                // Raw: the value for the side to move, turned into the first player's by
                // 1 - v as the back-up does (a reflection, as for rewards in [0, 1]).
                let mine = if *raw { v } else { squash(v, *scale) };
                if pos.side_to_move() == Player::First { mine } else { 1.0 - mine }
            };
        }
        Rollout::HeuristicBiased { heuristic, epsilon } => {
            let heuristic = heuristic.clone();
            let epsilon = *epsilon;
            let mut board = heuristic.board(pos);
            let mut moves = Vec::new();
            while !pos.is_over() {
                let m = if unit(rng) < epsilon {
                    pos.random_move(rng)
                } else {
                    pos.legal_moves(&mut moves);
                    let mut best = moves[0];
                    let mut best_score = i32::MIN;
                    for &m in &moves {
                        // Random tie-breaks keep rollouts varied.
                        let s = heuristic.move_score(pos, &board, m).saturating_mul(8) + below(rng, 8) as i32;
                        if s > best_score {
                            best_score = s;
                            best = m;
                        }
                    }
                    best
                };
                let p = pos.side_to_move();
                board.play(pos.move_cell(m), p);
                played.push((m, p));
                pos.play(m);
            }
            reward_first = terminal_reward(config, pos, Player::First);
        }
    }
    for _ in start..played.len() {
        pos.undo();
    }
    reward_first
}

fn reward_of<P: Position>(config: &MctsConfig, pos: &P, status: Status, points: [u32; 2]) -> f64 {
    match config.reward {
        Reward::ScoreMargin if pos.variant().grid().is_none() => {
            (0.5 + 0.5 * (points[0] as f64 - points[1] as f64) / MARGIN_SCALE).clamp(0.0, 1.0)
        }
        _ => match status {
            Status::Win(Player::First) => 1.0,
            Status::Win(Player::Second) => 0.0,
            _ => 0.5,
        },
    }
}
