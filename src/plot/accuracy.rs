//! The accuracy study's figures, one a board: each agent's mistake rate against log budget,
//! a line an agent in the agent's colour, with its 95% band; random, which reads no budget,
//! as a flat line across the range.

use super::{Figure, FigureData, LinePoint, Series};
use crate::arena::accuracy::AccuracyRow;

/// Which budgets a figure shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BudgetAxis {
    /// Nodes (alpha-beta) and iterations (MCTS): each agent's own unit of work.
    Work,
    /// CPU seconds a move: the unit alpha-beta and MCTS share.
    CpuSeconds,
}

impl BudgetAxis {
    /// The x axis' title for budgets of these kinds: work names only the units drawn (a
    /// figure of alpha-beta agents alone said "MCTS: iterations" too).
    fn label<'k>(self, kinds: impl IntoIterator<Item = &'k str>) -> &'static str {
        let (mut nodes, mut iterations) = (false, false);
        for k in kinds {
            nodes |= k == "nodes";
            iterations |= k == "iterations";
        }
        match (self, nodes, iterations) {
            (BudgetAxis::CpuSeconds, ..) => "CPU time a move",
            (BudgetAxis::Work, true, false) => "nodes a move (alpha-beta)",
            (BudgetAxis::Work, false, true) => "iterations a move (MCTS)",
            (BudgetAxis::Work, ..) => "budget a move (alpha-beta: nodes; MCTS: iterations)",
        }
    }

    fn takes(self, kind: &str) -> bool {
        match self {
            BudgetAxis::Work => kind == "nodes" || kind == "iterations",
            BudgetAxis::CpuSeconds => kind == "cpu_seconds",
        }
    }
}

/// The boards of `rows`, sorted.
pub fn boards(rows: &[AccuracyRow]) -> Vec<String> {
    let mut boards: Vec<String> = rows.iter().map(|r| r.board.clone()).collect();
    boards.sort();
    boards.dedup();
    boards
}

/// The figure of `board`'s rows (group "all") on `axis`; None when no row is on it.
pub fn accuracy_figure(rows: &[AccuracyRow], axis: BudgetAxis, board: &str) -> Option<Figure> {
    let mut fig = board_figure(rows, axis, board)?;
    if let FigureData::Lines(series) = &mut fig.data {
        crate::plot::tell_lines_apart(series);
    }
    Some(fig)
}

/// The figure of `board`'s rows, its lines not yet told apart (see
/// [`crate::plot::tell_lines_apart`]).
fn board_figure(rows: &[AccuracyRow], axis: BudgetAxis, board: &str) -> Option<Figure> {
    let rows: Vec<&AccuracyRow> = rows.iter().filter(|r| r.group == "all" && r.board == board).collect();
    let point = |r: &AccuracyRow, x: f64| LinePoint { x, y: r.rate, band: Some((r.lo, r.hi)), n: r.positions as u32 };
    let mut series: Vec<Series> = Vec::new();
    let mut range = (f64::INFINITY, f64::NEG_INFINITY);
    for r in rows.iter().filter(|r| axis.takes(&r.budget_kind)) {
        let Ok(b) = r.budget.parse::<f64>() else { continue };
        let x = b.log2();
        range = (range.0.min(x), range.1.max(x));
        match series.iter_mut().find(|s| s.name == r.agent) {
            Some(s) => s.points.push(point(r, x)),
            None => series.push(Series::new(r.agent.clone(), vec![point(r, x)])),
        }
    }
    if series.is_empty() {
        return None;
    }
    // Agents that read no budget: flat across the range, for reference (random's 0.6-0.8
    // widened the axis and pressed the agents' lines into its lowest fifth).
    for r in rows.iter().filter(|r| r.budget_kind == "none") {
        let flat = vec![point(r, range.0), point(r, range.1)];
        series.push(Series { dash: 1, reference: true, ..Series::new(r.agent.clone(), flat) });
    }
    // Ticks at the budgets run, labelled as budgets (the axis is log2 of them).
    let mut budgets: Vec<f64> =
        rows.iter().filter(|r| axis.takes(&r.budget_kind)).filter_map(|r| r.budget.parse::<f64>().ok()).collect();
    budgets.sort_by(f64::total_cmp);
    budgets.dedup();
    let x_ticks = budgets.iter().map(|&b| (b.log2(), budget_label(axis, b))).collect();
    Some(Figure {
        title: format!("Mistakes on {board}, judged by the solver"),
        x_label: axis.label(rows.iter().map(|r| r.budget_kind.as_str())).into(),
        // A mistake: a move that throws a proven win or draw away (the caption says so).
        y_label: "mistake rate".into(),
        value_label: String::new(),
        // From 0, a rate's floor, to the measured agents' highest interval end.
        y_range: Some((0.0, 0.0)),
        data: FigureData::Lines(series),
        marks: crate::plot::Marks { x_ticks, x_log2: true, ..Default::default() },
    })
}

/// The ladder's figure on `axis`: each agent's Elo against its budget a move (log axis), with
/// its 95% band, in the agent's colour; each rung as a flat dashed line at its rating, named
/// "rung: NAME". None when no agent was rated on the axis.
pub fn ladder_figure(rows: &[crate::arena::ladder::EloRow], axis: BudgetAxis) -> Option<Figure> {
    let mut series: Vec<Series> = Vec::new();
    let mut budgets: Vec<f64> = Vec::new();
    for r in rows.iter().filter(|r| axis.takes(&r.budget_kind)) {
        let Ok(b) = r.budget.parse::<f64>() else { continue };
        budgets.push(b);
        let p = LinePoint { x: b.log2(), y: r.elo, band: Some((r.lo, r.hi)), n: r.games };
        match series.iter_mut().find(|s| s.name == r.agent) {
            Some(s) => s.points.push(p),
            None => series.push(Series::new(r.agent.clone(), vec![p])),
        }
    }
    budgets.sort_by(f64::total_cmp);
    budgets.dedup();
    let (&first, &last) = (budgets.first()?, budgets.last()?);
    for r in rows.iter().filter(|r| r.budget_kind == "ladder") {
        let at = |b: f64| LinePoint { x: b.log2(), y: r.elo, band: None, n: r.games };
        series.push(Series {
            dash: 1,
            level: true,
            ..Series::new(format!("rung: {}", r.agent), vec![at(first), at(last)])
        });
    }
    crate::plot::tell_lines_apart(&mut series);
    let board = rows.first().map_or("", |r| r.board.as_str());
    Some(Figure {
        title: format!("Strength against budget on {board}, by games against a fixed ladder"),
        x_label: axis.label(rows.iter().map(|r| r.budget_kind.as_str())).into(),
        y_label: "Elo (first rung 0)".into(),
        value_label: String::new(),
        y_range: None,
        data: FigureData::Lines(series),
        marks: crate::plot::Marks {
            x_ticks: budgets.iter().map(|&b| (b.log2(), budget_label(axis, b))).collect(),
            x_log2: true,
            ..Default::default()
        },
    })
}

/// A budget as a tick says it: "64", "4096", "65k" (2^16 and up in thousands), "2 ms", "1 s".
fn budget_label(axis: BudgetAxis, b: f64) -> String {
    match axis {
        BudgetAxis::Work if b >= 65_536.0 => format!("{}k", (b / 1024.0).round()),
        BudgetAxis::Work => format!("{b}"),
        BudgetAxis::CpuSeconds => cpu_label(b),
    }
}

/// CPU seconds as a person writes them: "2 ms", "0.5 ms", "1 s".
pub fn cpu_label(seconds: f64) -> String {
    if seconds < 1.0 { format!("{} ms", (seconds * 1000.0 * 100.0).round() / 100.0) } else { format!("{seconds} s") }
}

/// Every board's figure on `axis` as one, a panel a board (in the boards' order), sharing
/// the axes and the legend; an agent keeps its colour in every panel. None when no row is on
/// the axis.
pub fn accuracy_panels(rows: &[AccuracyRow], axis: BudgetAxis) -> Option<Figure> {
    let mut series = Vec::new();
    let mut first: Option<Figure> = None;
    for board in boards(rows) {
        let Some(fig) = board_figure(rows, axis, &board) else { continue };
        if let FigureData::Lines(lines) = &fig.data {
            series.extend(lines.iter().map(|s| Series { panel: board.clone(), ..s.clone() }));
        }
        first.get_or_insert(fig);
    }
    let first = first?;
    crate::plot::tell_lines_apart(&mut series);
    Some(Figure {
        title: "Mistakes against budget, judged by the solver".into(),
        data: FigureData::Lines(series),
        ..first
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(agent: &str, board: &str, kind: &str, budget: &str, rate: f64) -> AccuracyRow {
        AccuracyRow {
            board: board.into(),
            agent: agent.into(),
            budget_kind: kind.into(),
            budget: budget.into(),
            group: "all".into(),
            positions: 10,
            mistakes: (rate * 10.0) as usize,
            rate,
            lo: rate - 0.1,
            hi: rate + 0.1,
            wins_thrown: 0,
            draws_thrown: 0,
        }
    }

    /// A figure a board, a line an agent on log2 budget; random is flat across the range;
    /// CPU rows stay off the work axis.
    #[test]
    fn a_figure_a_board_and_a_line_an_agent() {
        let rows = [
            row("ab", "c4", "nodes", "64", 0.4),
            row("ab", "c4", "nodes", "256", 0.2),
            row("ab", "m5", "nodes", "64", 0.3),
            row("uct", "c4", "iterations", "128", 0.5),
            row("uct", "c4", "cpu_seconds", "0.002", 0.5),
            row("random", "c4", "none", "0", 0.7),
        ];
        assert_eq!(boards(&rows), ["c4", "m5"]);
        let fig = accuracy_figure(&rows, BudgetAxis::Work, "c4").unwrap();
        let FigureData::Lines(s) = &fig.data else { panic!() };
        let names: Vec<&str> = s.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ab", "uct", "random"]);
        assert_eq!(s[0].points.iter().map(|p| p.x).collect::<Vec<_>>(), [6.0, 8.0]);
        assert_eq!(s[2].points.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>(), [(6.0, 0.7), (8.0, 0.7)]);
        let m5 = accuracy_figure(&rows, BudgetAxis::Work, "m5").unwrap();
        let FigureData::Lines(s) = &m5.data else { panic!() };
        assert_eq!((s.len(), s[0].points[0].y), (1, 0.3), "the other board's panel");
        let cpu = accuracy_figure(&rows, BudgetAxis::CpuSeconds, "c4").unwrap();
        let FigureData::Lines(s) = &cpu.data else { panic!() };
        assert_eq!(s[0].points[0].x, 0.002f64.log2());
        // One figure, a panel a board: each board's lines as its own figure has them.
        let all = accuracy_panels(&rows, BudgetAxis::Work).unwrap();
        let FigureData::Lines(s) = &all.data else { panic!() };
        assert_eq!(crate::plot::line_panels(s), ["c4", "m5"]);
        let c4: Vec<(&str, usize)> =
            s.iter().filter(|s| s.panel == "c4").map(|s| (s.name.as_str(), s.points.len())).collect();
        assert_eq!(c4, [("ab", 2), ("uct", 1), ("random", 2)]);
        let csv = all.to_csv();
        // The CSV holds the budgets, not their logarithms the axis is drawn on.
        assert!(csv.starts_with("panel,series,") && csv.contains("\nm5,ab,64,0.3,"), "{csv}");
        let cpu_csv = accuracy_figure(&rows, BudgetAxis::CpuSeconds, "c4").unwrap().to_csv();
        assert!(cpu_csv.contains("\nab,0.002,0.5,") || cpu_csv.contains("\nuct,0.002,0.5,"), "{cpu_csv}");
        // Ticks say the budgets, not their logarithms.
        let ticks: Vec<&str> = all.marks.x_ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(ticks, ["64", "128", "256"]);
        assert_eq!(budget_label(BudgetAxis::CpuSeconds, 0.002), "2 ms");
        assert_eq!(budget_label(BudgetAxis::Work, 131_072.0), "128k");
        // The legend names each agent once, whatever the panels.
        let legend = crate::plot::line_legend(s, false);
        assert_eq!(legend.iter().filter(|e| e.name == "ab").count(), 1);
    }

    /// Random's flat line far above the agents does not set the y axis: the axis ends near
    /// the agents' highest interval, and random is named with its value at the top.
    #[test]
    fn random_far_above_does_not_squeeze_the_agents() {
        let rows = [
            row("ab", "c4", "nodes", "64", 0.1),
            row("ab", "c4", "nodes", "256", 0.05),
            row("random", "c4", "none", "0", 0.7),
        ];
        let fig = accuracy_figure(&rows, BudgetAxis::Work, "c4").unwrap();
        let FigureData::Lines(s) = &fig.data else { panic!() };
        assert!(s[1].reference && !s[0].reference);
        let opts = crate::plot::ExportOptions::for_figure(&fig);
        let svg = crate::plot::render_svg(&fig, &opts).unwrap();
        assert!(svg.contains("random 0.70 \u{2191}"), "random named above");
        // The y ticks (the text lines that are decimals; the x ticks are whole) end near the agents' 0.2 (0.1 and its
        // interval's 0.1): random's 0.7 is not on the axis.
        let top = svg
            .lines()
            .filter(|l| l.contains('.'))
            .filter_map(|l| l.trim().parse::<f64>().ok())
            .fold(f64::MIN, f64::max);
        assert!((0.2..0.3).contains(&top), "top tick {top}");
    }

    /// Sized for print: a board's figure one column wide (3.4 in), all boards across two
    /// columns (7 in), and no text under 8 points at that size (the 6.4 in figures shrunk into
    /// a column had 4.7-point ticks). Agents differ by marker as well as colour, an agent keeps
    /// both from figure to figure, and random is named where it is drawn, not in the legend.
    #[test]
    fn figures_print_legibly_at_a_papers_column_width() {
        let agents = ["plain-ab", "plain-uct", "strong-ab", "strong-mcts"];
        let mut rows: Vec<AccuracyRow> = Vec::new();
        for board in ["connect:7,6,4", "mnk:5,5,4", "mnk:6,5,4"] {
            for (i, a) in agents.iter().enumerate() {
                for (k, b) in ["0.001", "0.004", "0.016"].iter().enumerate() {
                    rows.push(row(a, board, "cpu_seconds", b, 0.2 - 0.03 * i as f64 - 0.04 * k as f64));
                }
            }
            rows.push(row("random", board, "none", "0", 0.75));
        }
        let one = accuracy_figure(&rows, BudgetAxis::CpuSeconds, "mnk:5,5,4").unwrap();
        let all = accuracy_panels(&rows, BudgetAxis::CpuSeconds).unwrap();
        for (fig, opts, inches) in [
            (&one, crate::plot::ExportOptions::column(), 3.4),
            (&all, crate::plot::ExportOptions::two_columns(crate::plot::panel_grid(3).0), 7.0),
        ] {
            let svg = crate::plot::render_svg(fig, &opts).unwrap();
            let width: f64 = svg.split("width=\"").nth(1).and_then(|w| w.split('"').next()).unwrap().parse().unwrap();
            assert_eq!(width, (inches * 96.0f64).round(), "{inches} in at 96 units an inch");
            // plotters writes a font's size as its size / 1.24 (see chart::Sizes::font).
            let sizes: Vec<f64> =
                svg.split("font-size=\"").skip(1).filter_map(|t| t.split('"').next()?.parse::<f64>().ok()).collect();
            let smallest = sizes.iter().copied().fold(f64::INFINITY, f64::min);
            assert!(!sizes.is_empty() && smallest * 72.0 / 96.0 >= 7.99, "smallest text {smallest} units");
            assert!(svg.contains("random 0.75 \u{2191}"), "random named where it is");
        }
        let FigureData::Lines(s) = &all.data else { panic!() };
        let legend = crate::plot::line_legend(s, true);
        let names: Vec<&str> = legend.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["plain-ab", "plain-uct", "strong-ab", "strong-mcts", "95% interval (shaded)"]);
        let mut markers: Vec<String> = legend.iter().filter_map(|e| e.marker).map(|m| format!("{m:?}")).collect();
        markers.sort();
        markers.dedup();
        assert_eq!(markers.len(), 4, "a marker an agent: {markers:?}");
        // Without plain-uct an agent keeps its colour and marker.
        let fewer: Vec<AccuracyRow> = rows.iter().filter(|r| r.agent != "plain-uct").cloned().collect();
        let FigureData::Lines(f) = &accuracy_panels(&fewer, BudgetAxis::CpuSeconds).unwrap().data else { panic!() };
        let again = crate::plot::line_legend(f, true);
        let look = |l: &[crate::plot::LegendEntry], n: &str| {
            l.iter().find(|e| e.name == n).map(|e| (e.colour, e.marker)).unwrap()
        };
        for a in ["plain-ab", "strong-ab", "strong-mcts"] {
            assert_eq!(look(&legend, a), look(&again, a), "{a}");
        }
    }

    /// Random within the agents' range is drawn dashed and named at its right end with its
    /// value, as it is named when above the axis: the same words either way.
    #[test]
    fn random_within_the_range_is_drawn_and_named() {
        let rows = [
            row("ab", "c4", "nodes", "64", 0.5),
            row("ab", "c4", "nodes", "256", 0.1),
            row("random", "c4", "none", "0", 0.3),
        ];
        let fig = accuracy_figure(&rows, BudgetAxis::Work, "c4").unwrap();
        let svg = crate::plot::render_svg(&fig, &crate::plot::ExportOptions::column()).unwrap();
        assert!(svg.contains("random 0.30") && !svg.contains("random 0.30 \u{2191}"), "named on its line");
        let FigureData::Lines(s) = &fig.data else { panic!() };
        let (lo, hi) = crate::plot::line_y_extent(s, true).unwrap();
        assert!(lo.abs() < 1e-9 && (hi - 0.6).abs() < 1e-9, "the agents' bands set the extent: {lo} {hi}");
    }

    /// A ladder's rungs are levels across the range: no point markers (two at the ends read
    /// as measurements there), and no marker in their legend entries; the agents have both.
    #[test]
    fn ladder_rungs_are_levels_without_markers() {
        use crate::arena::ladder::EloRow;
        let elo = |agent: &str, kind: &str, budget: &str, elo: f64| EloRow {
            board: "connect4".into(),
            agent: agent.into(),
            budget_kind: kind.into(),
            budget: budget.into(),
            games: 10,
            points: 5.0,
            elo,
            lo: elo - 50.0,
            hi: elo + 50.0,
        };
        let rows = [
            elo("ab", "cpu_seconds", "0.001", 200.0),
            elo("ab", "cpu_seconds", "0.004", 260.0),
            elo("uct-128", "ladder", "", 0.0),
        ];
        let fig = ladder_figure(&rows, BudgetAxis::CpuSeconds).unwrap();
        let FigureData::Lines(s) = &fig.data else { panic!() };
        assert_eq!((s[0].level, s[1].level, s[1].name.as_str()), (false, true, "rung: uct-128"));
        let legend = crate::plot::line_legend(s, false);
        assert!(legend[0].marker.is_some() && legend[1].marker.is_none(), "{legend:?}");
        let svg = crate::plot::render_svg(&fig, &crate::plot::ExportOptions::default()).unwrap();
        let ab = render_alone(&rows[..2]);
        // The rung adds its dashed line and its legend entry, no marker.
        assert_eq!(svg.matches("<circle").count() + svg.matches("<polygon").count(), ab, "{svg}");
    }

    fn render_alone(rows: &[crate::arena::ladder::EloRow]) -> usize {
        let fig = ladder_figure(rows, BudgetAxis::CpuSeconds).unwrap();
        let svg = crate::plot::render_svg(&fig, &crate::plot::ExportOptions::default()).unwrap();
        svg.matches("<circle").count() + svg.matches("<polygon").count()
    }

    /// Ten agents, eight colours: the two whose colour comes round again take the next
    /// pattern of their colour, so every legend entry (colour and pattern) is one of its own.
    #[test]
    fn ten_agents_are_ten_lines_to_tell_apart() {
        let names: Vec<String> = (0..10).map(|i| format!("agent-{i}")).collect();
        let rows: Vec<AccuracyRow> = names.iter().map(|n| row(n, "c4", "cpu_seconds", "0.001", 0.2)).collect();
        let fig = accuracy_panels(&rows, BudgetAxis::CpuSeconds).unwrap();
        let FigureData::Lines(s) = &fig.data else { panic!() };
        let legend = crate::plot::line_legend(s, false);
        let styles: Vec<String> = legend.iter().map(|e| format!("{:?} {:?}", e.colour, e.pattern)).collect();
        let mut unique = styles.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 10, "{styles:?}");
        let repeats: Vec<&Series> = s.iter().filter(|x| x.name == "agent-8" || x.name == "agent-9").collect();
        for r in repeats {
            let first =
                s.iter().zip(&legend).find(|(x, e)| x.name != r.name && e.colour == legend_of(&legend, &r.name));
            assert!(first.is_some_and(|(x, _)| x.dash != r.dash), "{} {styles:?}", r.name);
        }
    }

    fn legend_of(legend: &[crate::plot::LegendEntry], name: &str) -> [u8; 3] {
        legend.iter().find(|e| e.name == name).unwrap().colour
    }

    /// The work axis names only the units drawn.
    #[test]
    fn the_work_axis_names_the_units_drawn() {
        let ab = [row("ab", "c4", "nodes", "64", 0.4), row("random", "c4", "none", "0", 0.7)];
        assert_eq!(accuracy_figure(&ab, BudgetAxis::Work, "c4").unwrap().x_label, "nodes a move (alpha-beta)");
        let both = [row("ab", "c4", "nodes", "64", 0.4), row("uct", "c4", "iterations", "64", 0.4)];
        assert!(accuracy_figure(&both, BudgetAxis::Work, "c4").unwrap().x_label.contains("MCTS: iterations"));
    }
}
