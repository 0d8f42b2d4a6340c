//! Where two agents' mistake-rate curves cross on one budget axis, with a bootstrap interval:
//! games are resampled (both agents searched the same positions, so one resample serves
//! both curves), the crossing found again in each, and the 2.5th and 97.5th percentiles of
//! the crossings taken. Only CPU time is a unit alpha-beta and MCTS share; nodes and
//! iterations are not, so their crossovers are sought on CPU time alone.

use std::collections::BTreeMap;

use super::experiment::MoveRow;
use super::table::RESAMPLES;

/// Where `a` and `b` cross on one board's budget axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Crossover {
    pub board: String,
    pub budget_kind: String,
    pub a: String,
    pub b: String,
    /// The budget where the curves cross (interpolated on log2 of the budget), None when
    /// they do not cross within the budgets searched.
    pub at: Option<f64>,
    /// The 95% interval of the crossing over resampled games, where most resamples cross.
    pub interval: Option<(f64, f64)>,
    /// Which agent makes fewer mistakes at the smallest budget.
    pub better_first: String,
    /// Which makes fewer at the largest budget.
    pub better_last: String,
    /// How often the curves swap order over the budgets: more than one, and the first
    /// crossing is not where one agent takes over for good.
    pub crossings: usize,
}

impl Crossover {
    /// The crossing in words: "3.1 ms (1.2 ms to 9.4 ms)", "724 nodes (310 to 1500)", or "no
    /// crossing in the range".
    pub fn said(&self) -> String {
        match (self.at, self.interval) {
            (Some(at), Some((lo, hi))) => {
                let n = |v| number(&self.budget_kind, v);
                let unit = unit(&self.budget_kind);
                format!("{}{unit} ({} to {}){}", n(at), n(lo), n(hi), self.again())
            }
            (Some(at), None) => {
                let (at, unit) = (number(&self.budget_kind, at), unit(&self.budget_kind));
                format!("{at}{unit} (no interval: most resamples do not cross){}", self.again())
            }
            _ => "no crossing in the range".into(),
        }
    }

    /// Where the curves cross more than once: said, so that the first crossing does not read
    /// as where one agent takes over.
    fn again(&self) -> String {
        if self.crossings > 1 {
            format!("; the first of {} crossings, {} ahead at the largest budget", self.crossings, self.better_last)
        } else {
            String::new()
        }
    }
}

/// A budget as a person says it: CPU time in milliseconds or seconds; nodes and iterations,
/// counts, as whole numbers (an interpolated crossing read "90.500" nodes).
fn number(kind: &str, v: f64) -> String {
    match kind {
        "cpu_seconds" => crate::plot::accuracy::cpu_label(v),
        _ => format!("{}", v.round().max(1.0)),
    }
}

/// The unit after a count ("724 nodes"); CPU time carries its own.
fn unit(kind: &str) -> &'static str {
    match kind {
        "nodes" => " nodes",
        "iterations" => " iterations",
        _ => "",
    }
}

/// The first crossing of two curves over the same budgets (ascending), interpolated on
/// log2 budget: where `a - b` changes sign (a tie at a budget is a crossing there only if the
/// sign differs on both sides).
pub fn crossing(budgets: &[f64], a: &[f64], b: &[f64]) -> Option<f64> {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let first = d.iter().position(|v| *v != 0.0)?;
    for i in first + 1..d.len() {
        if d[i] == 0.0 {
            continue;
        }
        if d[i].signum() != d[first].signum() {
            // Between the last nonzero before i and i.
            let j = (first..i).rev().find(|&j| d[j] != 0.0).unwrap_or(first);
            let (x0, x1) = (budgets[j].log2(), budgets[i].log2());
            let t = d[j] / (d[j] - d[i]);
            return Some((x0 + t * (x1 - x0)).exp2());
        }
    }
    None
}

/// How often two curves over the same budgets swap order (ties skipped, as in [`crossing`]).
pub fn sign_changes(a: &[f64], b: &[f64]) -> usize {
    let signs: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).filter(|d| *d != 0.0).map(f64::signum).collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

/// Crossovers of every pair of agents on every board, for `budget_kind`.
pub fn crossovers(rows: &[MoveRow], budget_kind: &str, seed: u64) -> Vec<Crossover> {
    // board -> agent -> budget -> game -> (positions, mistakes)
    type Cells = BTreeMap<String, BTreeMap<String, BTreeMap<u64, BTreeMap<u32, (u32, u32)>>>>;
    let mut cells: Cells = BTreeMap::new();
    for r in rows.iter().filter(|r| r.budget_kind == budget_kind) {
        let Ok(b) = r.budget.parse::<f64>() else { continue };
        let per_game = cells.entry(r.board.clone()).or_default().entry(r.agent.clone()).or_default();
        let e = per_game.entry((b * 1e9) as u64).or_default().entry(r.game).or_default();
        e.0 += 1;
        e.1 += u32::from(!r.thrown.is_empty());
    }
    let mut out = Vec::new();
    for (board, agents) in &cells {
        let names: Vec<&String> = agents.keys().collect();
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                if let Some(c) = pair(board, budget_kind, (a, &agents[*a]), (b, &agents[*b]), seed) {
                    out.push(c);
                }
            }
        }
    }
    out
}

type Curve = BTreeMap<u64, BTreeMap<u32, (u32, u32)>>;

fn pair(board: &str, kind: &str, a: (&str, &Curve), b: (&str, &Curve), seed: u64) -> Option<Crossover> {
    // The budgets both searched, and the games behind them.
    let budgets: Vec<u64> = a.1.keys().filter(|k| b.1.contains_key(k)).copied().collect();
    if budgets.len() < 2 {
        return None;
    }
    let games: Vec<u32> = {
        let mut g: Vec<u32> = budgets.iter().flat_map(|k| a.1[k].keys().chain(b.1[k].keys())).copied().collect();
        g.sort_unstable();
        g.dedup();
        g
    };
    let rate = |curve: &Curve, k: u64, weights: &BTreeMap<u32, u32>| {
        let (mut n, mut m) = (0u64, 0u64);
        for (g, &(gn, gm)) in &curve[&k] {
            let w = *weights.get(g).unwrap_or(&0) as u64;
            n += w * gn as u64;
            m += w * gm as u64;
        }
        m as f64 / n.max(1) as f64
    };
    let xs: Vec<f64> = budgets.iter().map(|&k| k as f64 / 1e9).collect();
    let curves = |w: &BTreeMap<u32, u32>| -> (Vec<f64>, Vec<f64>) {
        (budgets.iter().map(|&k| rate(a.1, k, w)).collect(), budgets.iter().map(|&k| rate(b.1, k, w)).collect())
    };
    let all: BTreeMap<u32, u32> = games.iter().map(|&g| (g, 1)).collect();
    let (ra, rb) = curves(&all);
    let at = crossing(&xs, &ra, &rb);
    let mut rng = crate::rng::seeded(seed);
    let mut found: Vec<f64> = Vec::new();
    for _ in 0..RESAMPLES {
        let mut w: BTreeMap<u32, u32> = BTreeMap::new();
        for _ in 0..games.len() {
            *w.entry(games[crate::rng::below(&mut rng, games.len())]).or_default() += 1;
        }
        let (ra, rb) = curves(&w);
        if let Some(x) = crossing(&xs, &ra, &rb) {
            found.push(x);
        }
    }
    found.sort_by(f64::total_cmp);
    // An interval only where most resamples cross: otherwise the crossing itself is in doubt.
    let interval = (found.len() * 2 > RESAMPLES).then(|| {
        let q = |p: f64| found[((p * found.len() as f64) as usize).min(found.len() - 1)];
        (q(0.025), q(0.975))
    });
    let better_first = if ra[0] <= rb[0] { a.0 } else { b.0 };
    let last = ra.len() - 1;
    let better_last = if ra[last] <= rb[last] { a.0 } else { b.0 };
    Some(Crossover {
        board: board.into(),
        budget_kind: kind.into(),
        a: a.0.into(),
        b: b.0.into(),
        at,
        interval,
        better_first: better_first.into(),
        better_last: better_last.into(),
        crossings: sign_changes(&ra, &rb),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Curves that swap order between 2^4 and 2^5 cross between them, on the log axis; a tie
    /// that does not swap them is no crossing; curves that never swap, none.
    #[test]
    fn a_crossing_is_where_the_order_swaps() {
        let xs = [8.0, 16.0, 32.0, 64.0];
        let at = crossing(&xs, &[0.5, 0.4, 0.2, 0.1], &[0.3, 0.3, 0.3, 0.3]).unwrap();
        // d = 0.2, 0.1, -0.1: halfway between 16 and 32 on log2: 2^4.5.
        assert!((at - 2f64.powf(4.5)).abs() < 1e-9, "{at}");
        assert_eq!(crossing(&xs, &[0.5, 0.3, 0.4, 0.4], &[0.3, 0.3, 0.3, 0.3]), None, "touching is not crossing");
        assert_eq!(crossing(&xs, &[0.5, 0.4, 0.4, 0.35], &[0.3, 0.3, 0.3, 0.3]), None);
        // Curves that swap and swap back: two crossings, the first one found.
        let (a, b) = ([0.5, 0.2, 0.4, 0.1], [0.3, 0.3, 0.3, 0.3]);
        assert_eq!(sign_changes(&a, &b), 3);
        assert_eq!(sign_changes(&[0.5, 0.3, 0.2, 0.1], &b), 1, "a tie skipped");
        let c = Crossover {
            board: "b".into(),
            budget_kind: "nodes".into(),
            a: "x".into(),
            b: "y".into(),
            at: crossing(&xs, &a, &b),
            interval: Some((10.0, 20.0)),
            better_first: "y".into(),
            better_last: "x".into(),
            crossings: 3,
        };
        assert!(c.said().ends_with("; the first of 3 crossings, x ahead at the largest budget"), "{}", c.said());
        assert!(!Crossover { crossings: 1, ..c }.said().contains("crossings"));
    }
}
