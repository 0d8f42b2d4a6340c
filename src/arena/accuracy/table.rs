//! The accuracy table: each board, agent and budget's mistake rate with a 95% interval
//! bootstrapped by the sampling game a position came from (positions of one game are not
//! independent: resampling positions would give intervals too narrow).

use std::collections::BTreeMap;

use super::experiment::MoveRow;

/// The columns of `accuracy.csv`.
pub const ACCURACY_COLUMNS: [&str; 12] = [
    "board",
    "agent",
    "budget_kind",
    "budget",
    "group",
    "positions",
    "mistakes",
    "rate",
    "lo",
    "hi",
    "wins_thrown",
    "draws_thrown",
];

/// Bootstrap resamples of the games behind a rate.
pub const RESAMPLES: usize = 1000;

/// One row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct AccuracyRow {
    pub board: String,
    pub agent: String,
    pub budget_kind: String,
    pub budget: String,
    /// "all", or "quiet" (positions not decided by a one-ply tactic), or "tactic".
    pub group: String,
    pub positions: usize,
    pub mistakes: usize,
    pub rate: f64,
    pub lo: f64,
    pub hi: f64,
    pub wins_thrown: usize,
    pub draws_thrown: usize,
}

/// The table of `rows`: a row for every board, agent, budget and group with positions, in
/// the order of board, agent, budget kind, then budget by size. Intervals from `seed`.
pub fn accuracy_table(rows: &[MoveRow], seed: u64) -> Vec<AccuracyRow> {
    type Key = (String, String, String, u64, String, String);
    let mut cells: BTreeMap<Key, Vec<&MoveRow>> = BTreeMap::new();
    for r in rows {
        // Budgets by size (a number's text sorts 1024 before 64); CPU seconds in microseconds.
        let size =
            r.budget.parse::<f64>().map_or(0, |b| if r.budget_kind == "cpu_seconds" { b * 1e6 } else { b } as u64);
        let groups = ["all", if r.tactic { "tactic" } else { "quiet" }];
        for g in groups {
            let key = (r.board.clone(), r.agent.clone(), r.budget_kind.clone(), size, r.budget.clone(), g.to_string());
            cells.entry(key).or_default().push(r);
        }
    }
    cells
        .into_iter()
        .map(|((board, agent, budget_kind, _, budget, group), rows)| {
            let mistakes = rows.iter().filter(|r| !r.thrown.is_empty()).count();
            let (lo, hi) = game_bootstrap(&rows, seed);
            AccuracyRow {
                board,
                agent,
                budget_kind,
                budget,
                group,
                positions: rows.len(),
                mistakes,
                rate: mistakes as f64 / rows.len() as f64,
                lo,
                hi,
                wins_thrown: rows.iter().filter(|r| r.thrown == "win").count(),
                draws_thrown: rows.iter().filter(|r| r.thrown == "draw").count(),
            }
        })
        .collect()
}

/// The 95% percentile interval of the mistake rate, resampling the games (with all their
/// positions) with replacement.
pub fn game_bootstrap(rows: &[&MoveRow], seed: u64) -> (f64, f64) {
    let mut by_game: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    for r in rows {
        let e = by_game.entry(r.game).or_default();
        e.0 += 1;
        e.1 += usize::from(!r.thrown.is_empty());
    }
    let games: Vec<(usize, usize)> = by_game.into_values().collect();
    if games.is_empty() {
        return (0.0, 0.0);
    }
    let mut rng = crate::rng::seeded(seed);
    let mut rates: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            let (mut n, mut m) = (0, 0);
            for _ in 0..games.len() {
                let (gn, gm) = games[crate::rng::below(&mut rng, games.len())];
                n += gn;
                m += gm;
            }
            m as f64 / n.max(1) as f64
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    let at = |q: f64| rates[((q * RESAMPLES as f64) as usize).min(RESAMPLES - 1)];
    (at(0.025), at(0.975))
}

/// The table as CSV text.
pub fn table_csv(rows: &[AccuracyRow]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(ACCURACY_COLUMNS);
    for r in rows {
        let _ = w.write_record([
            r.board.clone(),
            r.agent.clone(),
            r.budget_kind.clone(),
            r.budget.clone(),
            r.group.clone(),
            r.positions.to_string(),
            r.mistakes.to_string(),
            format!("{:.4}", r.rate),
            format!("{:.4}", r.lo),
            format!("{:.4}", r.hi),
            r.wins_thrown.to_string(),
            r.draws_thrown.to_string(),
        ]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u32, thrown: &str, tactic: bool) -> MoveRow {
        MoveRow {
            board: "connect4".into(),
            agent: "a".into(),
            budget_kind: "nodes".into(),
            budget: "64".into(),
            position: 0,
            game,
            tactic,
            mv: "d".into(),
            thrown: thrown.into(),
            keepers: 1,
            legal: 7,
            seed: 0,
            cpu_seconds: 0.0,
            work: 64,
        }
    }

    /// The rate counts mistakes over positions, split by what was thrown away and by group.
    #[test]
    fn the_table_counts_mistakes_by_group() {
        let rows = [row(0, "win", false), row(0, "", true), row(1, "draw", false), row(2, "", false)];
        let t = accuracy_table(&rows, 1);
        let all = t.iter().find(|r| r.group == "all").unwrap();
        assert_eq!((all.positions, all.mistakes, all.wins_thrown, all.draws_thrown), (4, 2, 1, 1));
        assert!((all.rate - 0.5).abs() < 1e-12 && all.lo <= 0.5 && all.hi >= 0.5);
        let quiet = t.iter().find(|r| r.group == "quiet").unwrap();
        assert_eq!((quiet.positions, quiet.mistakes), (3, 2));
        let tactic = t.iter().find(|r| r.group == "tactic").unwrap();
        assert_eq!((tactic.positions, tactic.mistakes), (1, 0));
    }

    /// One game's positions move together: 10 positions of one game, all mistakes, and 10
    /// games of one clean position each give a wide interval (as 2 games would), not the
    /// narrow one 20 independent positions would.
    #[test]
    fn the_interval_resamples_games_not_positions() {
        let mut rows: Vec<MoveRow> = (0..10).map(|_| row(0, "win", false)).collect();
        rows.extend((1..=10).map(|g| row(g, "", false)));
        let refs: Vec<&MoveRow> = rows.iter().collect();
        let (lo, hi) = game_bootstrap(&refs, 7);
        // With the one game of mistakes drawn 0 to 3 times of 11, the rate spans ~0 to ~0.6.
        assert!(lo < 0.15 && hi > 0.45, "{lo}..{hi}");
        // Positions as independent: 10 of 20 at p = 0.5 gives about 0.28..0.72; games widen it.
        let spread = hi - lo;
        assert!(spread > 0.4, "{spread}");
    }

    /// Budgets sort by size, not as text.
    #[test]
    fn budgets_sort_by_size() {
        let mut a = row(0, "", false);
        a.budget = "1024".into();
        let b = row(0, "", false);
        let t = accuracy_table(&[a, b], 1);
        let budgets: Vec<&str> = t.iter().filter(|r| r.group == "all").map(|r| r.budget.as_str()).collect();
        assert_eq!(budgets, ["64", "1024"]);
    }
}
