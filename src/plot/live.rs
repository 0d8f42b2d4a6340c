//! Figures that follow a matchup game by game (the workbench draws them live and exports
//! them like any other): the running score with its 95% band, and the time and nodes each
//! agent spent per move, game by game.

use super::{Figure, FigureData, LinePoint, Series};
use crate::arena::GameRecord;
use crate::arena::stats::{Z95, wilson};

/// Entrant `agent`'s cumulative score after each of its games, in the order given (the order
/// they finished), with the Wilson interval of the score so far.
pub fn cumulative_score(records: &[GameRecord], agent: usize) -> Figure {
    let mut name = format!("entrant {agent}");
    let mut total = 0.0;
    let mut points = Vec::new();
    for r in records {
        let Some(s) = r.score_of(agent) else { continue };
        if let Some(side) = r.players.iter().position(|&p| p == agent) {
            name = r.names[side].clone();
        }
        total += s;
        let n = points.len() as f64 + 1.0;
        let mean = total / n;
        points.push(LinePoint { x: n, y: mean, band: Some(wilson(mean, n, Z95)), n: n as u32 });
    }
    Figure {
        title: format!("Cumulative score of {name}, with its 95% interval"),
        x_label: "games played".into(),
        y_label: format!("score of {name}"),
        value_label: String::new(),
        y_range: Some((0.0, 1.0)),
        data: FigureData::Lines(vec![Series { name, points }]),
    }
}

/// Which per-move quantity to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerMove {
    Time,
    Nodes,
}

/// Each entrant's mean time or nodes (iterations for MCTS) per move in each of its games,
/// one line per entrant, x the game's number in finishing order. A matchup over several boards
/// has one line per entrant and board ("strong-ab on connect4"), x the game's number on its
/// board: the games of two boards are never one line with no mark where the board changes.
pub fn per_move(records: &[GameRecord], what: PerMove) -> Figure {
    let boards = records.iter().fold(Vec::new(), |mut b, r| {
        if !b.contains(&r.variant) {
            b.push(r.variant);
        }
        b
    });
    let several = boards.len() > 1;
    let mut series: Vec<((usize, crate::game::Variant), Series)> = Vec::new();
    let mut played = vec![0usize; boards.len()];
    for r in records {
        let board = boards.iter().position(|b| *b == r.variant).unwrap_or(0);
        played[board] += 1;
        let x = if several { played[board] } else { played.iter().sum() };
        for side in 0..2 {
            let own: Vec<f64> = r
                .moves
                .iter()
                .filter(|m| m.player as usize == side)
                .map(|m| match what {
                    PerMove::Time => m.time,
                    PerMove::Nodes => m.work() as f64,
                })
                .collect();
            if own.is_empty() {
                continue;
            }
            let mean = own.iter().sum::<f64>() / own.len() as f64;
            let key = (r.players[side], if several { r.variant } else { boards[0] });
            let at = match series.iter().position(|(k, _)| *k == key) {
                Some(at) => at,
                None => {
                    let name = r.names[side].clone();
                    let name = if several { format!("{name} on {}", r.variant) } else { name };
                    series.push((key, Series { name, points: Vec::new() }));
                    series.len() - 1
                }
            };
            series[at].1.points.push(LinePoint { x: x as f64, y: mean, band: None, n: own.len() as u32 });
        }
    }
    let (title, y) = match what {
        PerMove::Time => ("time per move", "seconds per move (mean over the game)"),
        PerMove::Nodes => ("nodes per move", "nodes or iterations per move (mean)"),
    };
    Figure {
        title: title.into(),
        x_label: if several { "game on its board" } else { "game" }.into(),
        y_label: y.into(),
        value_label: String::new(),
        y_range: None,
        data: FigureData::Lines(series.into_iter().map(|s| s.1).collect()),
    }
}
