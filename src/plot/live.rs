//! Figures that follow a matchup game by game (the workbench draws them live and exports
//! them like any other): the running score with its 95% band, and the time and nodes each
//! agent spent per move, game by game.

use super::{Figure, FigureData, LinePoint, Series};
use crate::arena::GameRecord;
use crate::arena::stats::{Z95, wilson};
use crate::game::Variant;

/// Entrant `agent`'s cumulative score after each of its games, in the order given (the order
/// they finished), with the Wilson interval of the score so far. A matchup over several boards
/// has one line per board, in the agent's colour and a pattern a board, x the game's number on
/// its board: scores of two boards never run on as one line with no mark between.
pub fn cumulative_score(records: &[GameRecord], agent: usize) -> Figure {
    let boards = Boards::of(records);
    let mut name = format!("entrant {agent}");
    let mut totals: Vec<(f64, Vec<LinePoint>)> = vec![(0.0, Vec::new()); boards.count()];
    for r in records {
        let Some(s) = r.score_of(agent) else { continue };
        if let Some(side) = r.players.iter().position(|&p| p == agent) {
            name = r.names[side].clone();
        }
        let (total, points) = &mut totals[boards.index(r)];
        *total += s;
        let n = points.len() as f64 + 1.0;
        let mean = *total / n;
        points.push(LinePoint { x: n, y: mean, band: Some(wilson(mean, n, Z95)), n: n as u32 });
    }
    // A board the agent played no game on has no line (nor a legend entry).
    let mut series: Vec<Series> = totals
        .into_iter()
        .enumerate()
        .filter(|(_, (_, points))| !points.is_empty())
        .map(|(b, (_, points))| boards.series(&name, b, points))
        .collect();
    if series.is_empty() {
        series.push(Series::new(name.clone(), Vec::new()));
    }
    super::tell_lines_apart(&mut series);
    Figure {
        title: format!("Cumulative score of {name}{}, with its 95% interval", boards.each()),
        x_label: boards.x_label().into(),
        // Short: a rotated title longer than a low plot was cut ("core of strong-ab"); the
        // agent is in the title and the legend.
        y_label: "score".into(),
        value_label: String::new(),
        y_range: Some((0.0, 1.0)),
        marks: Default::default(),
        data: FigureData::Lines(series),
    }
}

/// The boards of a matchup's games, in the order they first finished.
struct Boards(Vec<Variant>);

impl Boards {
    fn of(records: &[GameRecord]) -> Boards {
        let mut boards: Vec<Variant> = Vec::new();
        for r in records {
            if !boards.contains(&r.variant) {
                boards.push(r.variant);
            }
        }
        Boards(boards)
    }

    fn several(&self) -> bool {
        self.0.len() > 1
    }

    fn count(&self) -> usize {
        self.0.len().max(1)
    }

    fn index(&self, r: &GameRecord) -> usize {
        self.0.iter().position(|b| *b == r.variant).unwrap_or(0)
    }

    /// Agent `name`'s line on board `b`: named for the board and patterned by it when there
    /// are several, in the agent's colour either way.
    fn series(&self, name: &str, b: usize, points: Vec<LinePoint>) -> Series {
        if !self.several() {
            return Series::new(name, points);
        }
        Series {
            colour_of: Some(name.into()),
            dash: b as u8,
            ..Series::new(format!("{name} on {}", self.0[b]), points)
        }
    }

    fn each(&self) -> &'static str {
        if self.several() { " on each board" } else { "" }
    }

    fn x_label(&self) -> &'static str {
        if self.several() { "game on its board" } else { "games played" }
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
    let boards = Boards::of(records);
    // (entrant, board) -> the agent's name and its points.
    let mut lines: Vec<((usize, usize), String, Vec<LinePoint>)> = Vec::new();
    let mut played = vec![0usize; boards.count()];
    for r in records {
        let board = boards.index(r);
        played[board] += 1;
        let x = if boards.several() { played[board] } else { played.iter().sum() };
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
            let key = (r.players[side], board);
            let at = match lines.iter().position(|(k, ..)| *k == key) {
                Some(at) => at,
                None => {
                    lines.push((key, r.names[side].clone(), Vec::new()));
                    lines.len() - 1
                }
            };
            lines[at].2.push(LinePoint { x: x as f64, y: mean, band: None, n: own.len() as u32 });
        }
    }
    // The legend in the agents' order, each agent's boards together (in the order games came
    // it read "solver on 4,4,3, jeng-mcts on 4,4,3, jeng-mcts on 5,5,4, solver on 5,5,4").
    lines.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.1.cmp(&b.0.1)));
    let mut series: Vec<Series> =
        lines.into_iter().map(|((_, b), name, points)| boards.series(&name, b, points)).collect();
    super::tell_lines_apart(&mut series);
    let (title, y) = match what {
        // Short y titles: the workbench's plots are low, and a rotated title must fit.
        PerMove::Time => ("time per move, mean over each game".to_string(), "mean seconds per move".to_string()),
        PerMove::Nodes => {
            // Named by what was counted: MCTS's iterations are not nodes.
            let unit = crate::arena::game::work_unit(records.iter().flat_map(|r| &r.moves));
            (format!("{unit} per move, mean over each game"), format!("mean {unit} per move"))
        }
    };
    Figure {
        title,
        x_label: if boards.several() { "game on its board" } else { "game" }.into(),
        y_label: y,
        value_label: String::new(),
        // From zero, on a linear axis: seconds and nodes are read as ratios, and fitted to
        // the data alone a gomoku run's 0.044 s and 0.050 s a move filled a low plot with a
        // single tick label between them.
        y_range: Some((0.0, 0.0)),
        marks: Default::default(),
        data: FigureData::Lines(series),
    }
}
