//! Figures a paper can use as they are: legends beside the data, round ticks in one notation
//! on every axis (log axes too), whole numbers on count axes, every outlier, no silent
//! averaging in heatmaps, agents named in legends, text at the size asked for. Checked on the
//! SVG a figure renders to (text positions, sizes and marks), on hand-made figures whose
//! right answer is known.

use std::path::Path;

use mnklab::arena::{Matchup, RunOptions, run_matchup};
use mnklab::plot::{
    BoxStats, ExportOptions, Field, Figure, FigureData, FigureError, LinePoint, Metric, PlotKind, PlotRequest, Series,
    figure_from_results, histogram, render_svg,
};
use mnklab::search::SearchControl;

/// Parses a matchup and runs it into a fresh temporary folder named after `tag`.
fn run_in_temp(ron: &str, tag: &str) -> (Matchup, std::path::PathBuf, Vec<mnklab::arena::GameRecord>) {
    let m = Matchup::parse(ron, "m.ron".as_ref()).unwrap();
    let out = std::env::temp_dir().join(format!("mnklab-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let opts = RunOptions { threads: 2, out: out.clone(), resume: false, scale: 1.0, games: None, shard: None };
    let records = run_matchup(&m, Path::new("."), &opts, &SearchControl::new(), |_| {}).unwrap();
    (m, out, records)
}

/// (text, x, y, font-size) of every `<text>` in an SVG.
fn texts(svg: &str) -> Vec<(String, f64, f64, f64)> {
    let attr = |tag: &str, name: &str| -> f64 {
        let key = format!(" {name}=\"");
        tag.find(&key).map_or(f64::NAN, |i| {
            let rest = &tag[i + key.len()..];
            rest[..rest.find('"').unwrap()].parse().unwrap()
        })
    };
    svg.split("<text")
        .skip(1)
        .map(|chunk| {
            let end = chunk.find('>').unwrap();
            let tag = &chunk[..end];
            let body = &chunk[end + 1..chunk.find("</text>").unwrap()];
            (body.trim().to_string(), attr(tag, "x"), attr(tag, "y"), attr(tag, "font-size"))
        })
        .collect()
}

/// The vertices of every data line drawn with `points` points or more: the polylines 2 units
/// wide (grid and axes are 1 wide; a legend swatch has 2 points). A line's points carry
/// markers of several shapes (circles, squares, triangles), so the lines, not the markers,
/// say where the data are.
fn line_vertices(svg: &str, points: usize) -> Vec<(f64, f64)> {
    svg.split("<polyline")
        .skip(1)
        .filter(|c| c[..c.find('>').unwrap()].contains("stroke-width=\"2\""))
        .filter_map(|c| {
            let i = c.find(" points=\"").unwrap() + " points=\"".len();
            let list = &c[i..i + c[i..].find('"').unwrap()];
            let pts: Vec<(f64, f64)> = list
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            (pts.len() >= points).then_some(pts)
        })
        .flatten()
        .collect()
}

/// Centres of every `<circle>` (data markers, outliers).
fn circles(svg: &str) -> Vec<(f64, f64)> {
    svg.split("<circle")
        .skip(1)
        .map(|c| {
            let get = |name: &str| -> f64 {
                let key = format!(" {name}=\"");
                let i = c.find(&key).unwrap() + key.len();
                c[i..i + c[i..].find('"').unwrap()].parse().unwrap()
            };
            (get("cx"), get("cy"))
        })
        .collect()
}

fn line(name: &str, pts: &[(f64, f64)]) -> Series {
    Series::new(name, pts.iter().map(|&(x, y)| LinePoint { x, y, band: Some((y - 0.05, y + 0.05)), n: 10 }).collect())
}

fn figure(data: FigureData) -> Figure {
    Figure {
        title: "t".into(),
        x_label: "K".into(),
        y_label: "score of strong-ab".into(),
        value_label: String::new(),
        y_range: None,
        marks: Default::default(),
        data,
    }
}

/// The legend sits outside the axes: right of every data point, and a line over K = 3, 4, 5
/// keeps its last tick label.
#[test]
fn the_legend_is_beside_the_data_and_every_whole_x_is_labelled() {
    let fig = figure(FigureData::Lines(vec![
        line("strong-ab vs jeng-mcts", &[(3.0, 0.9), (4.0, 0.95), (5.0, 0.99)]),
        line("strong-ab vs random", &[(3.0, 0.1), (4.0, 0.5), (5.0, 0.99)]),
    ]));
    let svg = render_svg(&fig, &ExportOptions::default()).unwrap();
    let t = texts(&svg);
    let marks = line_vertices(&svg, 3);
    assert_eq!(marks.len(), 6);
    let right_of_data = marks.iter().map(|m| m.0).fold(0.0, f64::max);
    for name in ["strong-ab vs jeng-mcts", "strong-ab vs random"] {
        let (_, x, _, _) = t.iter().find(|e| e.0 == name).unwrap_or_else(|| panic!("{name} in the legend"));
        assert!(*x > right_of_data, "legend entry {name} at x {x} is over the data (up to {right_of_data})");
    }
    for k in ["3", "4", "5"] {
        assert!(t.iter().any(|e| e.0 == k), "tick {k} is labelled: {:?}", t.iter().map(|e| &e.0).collect::<Vec<_>>());
    }
    assert!(!t.iter().any(|e| e.0 == "3.5"), "whole-number x has whole-number ticks only");
    // Bands are switchable.
    let with = svg.matches("<polygon").count();
    let without = render_svg(&fig, &ExportOptions { bands: false, ..ExportOptions::default() }).unwrap();
    assert_eq!(with - without.matches("<polygon").count(), 2, "one band per line, and none when switched off");
}

/// Log axes: 1-2-5 ticks (or every mantissa in a narrow range) in one notation, and the
/// y-axis title clear of the tick labels.
#[test]
fn log_ticks_are_round_and_the_axis_title_clears_them() {
    let narrow = figure(FigureData::Lines(vec![line("a", &[(1.0, 501.187), (2.0, 1258.925)])]));
    let wide = figure(FigureData::Lines(vec![line("a", &[(1.0, 9000.0), (2.0, 2.0e6)])]));
    let opts = ExportOptions { log_y: true, bands: false, ..ExportOptions::default() };
    let ticks_of = |fig: &Figure| -> Vec<(String, f64, f64)> {
        let svg = render_svg(fig, &opts).unwrap();
        let t = texts(&svg);
        // y tick labels: left of every data point.
        let data_left = line_vertices(&svg, 2).iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
        t.into_iter()
            .filter(|e| e.1 < data_left && e.0.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .map(|e| (e.0, e.1, e.3))
            .collect()
    };
    let narrow_ticks: Vec<String> = ticks_of(&narrow).into_iter().map(|t| t.0).collect();
    for t in &narrow_ticks {
        let v: f64 = t.parse().unwrap_or_else(|_| panic!("{t} is a plain number"));
        assert!(v % 100.0 == 0.0, "{t} is a round value");
    }
    assert!(narrow_ticks.iter().any(|t| t == "1000"), "{narrow_ticks:?}");
    let wide_ticks: Vec<String> = ticks_of(&wide).into_iter().map(|t| t.0).collect();
    assert!(wide_ticks.contains(&"10⁴".to_string()) && wide_ticks.contains(&"10⁶".to_string()), "{wide_ticks:?}");
    assert!(wide_ticks.iter().all(|t| t.starts_with("10")), "one notation on the axis: {wide_ticks:?}");
    // The rotated y title ends left of where the widest tick label starts.
    let svg = render_svg(&wide, &opts).unwrap();
    let t = texts(&svg);
    let title = t.iter().find(|e| e.0 == "score of strong-ab").unwrap();
    for (label, x, _, size) in t.iter().filter(|e| wide_ticks.contains(&e.0)) {
        // Tick labels end at x (right-aligned); DejaVu Sans glyphs are under 0.7 em wide.
        let left = x - label.chars().count() as f64 * 0.7 * size;
        assert!(title.1 + title.3 * 0.6 < left, "title at {} overlaps tick {label} starting at {left}", title.1);
    }
}

/// Every outlier is drawn and listed; counts get whole-number ticks; histogram ticks sit on
/// bin edges.
#[test]
fn outliers_counts_and_bins_are_exact() {
    let b = BoxStats::from_values("opening", &[1.0, 2.0, 3.0, 4.0, 5.0, 40.0, 50.0, -30.0]).unwrap();
    assert_eq!(b.outliers, vec![-30.0, 40.0, 50.0]);
    let fig = figure(FigureData::Boxes(vec![b]));
    let svg = render_svg(&fig, &ExportOptions::default()).unwrap();
    assert_eq!(circles(&svg).len(), 3, "one mark per outlier");
    let csv = fig.to_csv();
    assert!(csv.lines().nth(1).unwrap().ends_with("-30 40 50"), "{csv}");

    let bars = figure(FigureData::StackedBars {
        categories: vec!["3x3".into(), "4x4".into()],
        stacks: vec![
            ("strong-ab wins".into(), vec![3.0, 1.0]),
            ("draws".into(), vec![0.0, 2.0]),
            ("random wins".into(), vec![0.0, 0.0]),
        ],
    });
    let t = texts(&render_svg(&bars, &ExportOptions::default()).unwrap());
    let numbers: Vec<&String> = t.iter().map(|e| &e.0).filter(|s| s.parse::<f64>().is_ok()).collect();
    assert!(!numbers.is_empty() && numbers.iter().all(|s| !s.contains('.')), "count ticks: {numbers:?}");

    let FigureData::Histogram { edges, counts } = histogram(&[10.0, 12.0, 13.0, 17.0, 30.0, 31.0], Some(5)) else {
        panic!()
    };
    let hist = figure(FigureData::Histogram { edges: edges.clone(), counts });
    let t = texts(&render_svg(&hist, &ExportOptions::default()).unwrap());
    // The y axis's "0" is the leftmost label; the x ticks are right of it.
    let zero = t.iter().filter(|e| e.0 == "0").map(|e| e.1).fold(f64::INFINITY, f64::min);
    let x_ticks: Vec<f64> = t.iter().filter(|e| e.1 > zero).filter_map(|e| e.0.parse().ok()).collect();
    assert!(x_ticks.len() >= 3, "{x_ticks:?}");
    assert!(x_ticks.iter().all(|v| edges.contains(v)), "ticks {x_ticks:?} on the edges {edges:?}");
}

/// `font_pt` is the tick labels' size in points (a 96-dpi SVG: 4/3 pixels a point).
#[test]
fn text_comes_at_the_size_asked_for() {
    let fig = figure(FigureData::Lines(vec![line("a", &[(3.0, 0.5), (5.0, 0.7)])]));
    for pt in [9.0, 11.0] {
        let t = texts(&render_svg(&fig, &ExportOptions { font_pt: pt, ..ExportOptions::default() }).unwrap());
        let tick = t.iter().find(|e| e.0 == "5").unwrap();
        assert!((tick.3 - pt * 96.0 / 72.0).abs() < 0.01, "{pt} pt ticks are {} px", tick.3);
        assert!(t.iter().all(|e| e.3 >= pt * 96.0 / 72.0 * 0.89), "no text smaller than 0.9 of the ticks");
    }
}

/// A heatmap over M x N of a sweep with two K a board refuses to average them and names the
/// field; faceted by K it has a panel per K with the games of each cell, in the CSV too. Bar
/// legends name both agents.
#[test]
fn heatmaps_facet_instead_of_averaging_and_legends_name_the_agents() {
    let (m, out, records) = run_in_temp(
        r#"(name: "facet", variants: List(["mnk:3,3,3", "mnk:4,4,3", "mnk:4,4,4"]),
            agents: [(name: Some("strong-ab"), agent: Preset("strong-ab"), limits: Some((depth: Some(2)))), (agent: Preset("random"))],
            pairing: Pairwise, games: 4, seed: 9)"#,
        "facet",
    );
    let mut req = PlotRequest::new(PlotKind::Heatmap);
    req.x = Some(Field::M);
    req.y = Some(Field::N);
    req.metric = Some(Metric::Score);
    let e = figure_from_results(&records, Some(&m), &out, &req).unwrap_err();
    assert_eq!(e, FigureError::MixedInCell { varying: Field::K, faceted: false }, "{e}");
    assert!(e.to_string().contains("--facet k"), "{e}");
    req.facet = Some(Field::K);
    let fig = figure_from_results(&records, Some(&m), &out, &req).unwrap();
    let FigureData::Heatmap { columns, panels, .. } = &fig.data else { panic!("a heatmap") };
    assert_eq!(columns, &["3", "4"]);
    let labels: Vec<&str> = panels.iter().map(|p| p.label.as_str()).collect();
    assert_eq!(labels, ["K = 3", "K = 4"]);
    assert_eq!(panels[0].counts, [[4, 0], [0, 4]]);
    assert_eq!(panels[1].counts, [[0, 0], [0, 4]]);
    let csv = fig.to_csv();
    assert!(csv.lines().next().unwrap().ends_with(",panel,score of strong-ab,games"), "{csv}");
    assert_eq!(csv.lines().count(), 1 + 3);
    // A line over M would average K = 3 and K = 4 at M = 4 too: refused, naming K; with one
    // line per K it is drawn.
    let mut line = PlotRequest::new(PlotKind::Line);
    line.x = Some(Field::M);
    let e = figure_from_results(&records, Some(&m), &out, &line).unwrap_err();
    assert_eq!(e, FigureError::MixedInPoint(Field::K), "{e}");
    assert!(e.to_string().contains("--series k"), "{e}");
    line.series = Some(Field::K);
    assert!(figure_from_results(&records, Some(&m), &out, &line).is_ok());
    // K on the y axis and boards along x need no facet.
    req.facet = None;
    req.x = Some(Field::Board);
    req.y = Some(Field::K);
    assert!(figure_from_results(&records, Some(&m), &out, &req).is_ok());

    // Bars by board: K differs between the boards and no axis shows it, so each board is
    // named with its K and 4x4's K = 3 and K = 4 are two bars, not one pooled.
    let mut req = PlotRequest::new(PlotKind::Bar);
    req.x = Some(Field::Board);
    let fig = figure_from_results(&records, Some(&m), &out, &req).unwrap();
    let FigureData::StackedBars { categories, .. } = &fig.data else { panic!("bars") };
    assert_eq!(categories, &["3x3 K3", "4x4 K3", "4x4 K4"]);
    // A pattern matching both players is refused, naming them.
    req.x = Some(Field::Variant);
    req.agent = Some("r*".into());
    assert!(figure_from_results(&records, Some(&m), &out, &req).is_ok(), "r* is only random");
    req.agent = Some("*".into());
    let e = figure_from_results(&records, Some(&m), &out, &req).unwrap_err();
    assert!(matches!(e, FigureError::AgentIsBothPlayers { .. }), "{e}");
    req.agent = None;
    let fig = figure_from_results(&records, Some(&m), &out, &req).unwrap();
    let FigureData::StackedBars { stacks, .. } = &fig.data else { panic!("bars") };
    let parts: Vec<&str> = stacks.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(parts, ["strong-ab wins", "draws", "random wins"]);
    let _ = std::fs::remove_dir_all(&out);
}

/// The Connect-X study's figures: forfeit bars count each side's forfeits, `--agent 'mcts-*'`
/// sees every game from its MCTS entrant, and labels name what the entrants share ("mcts",
/// "minimax"). A minimax that spends its game budget as needed forfeits once it is gone.
#[test]
fn forfeit_bars_and_agent_patterns() {
    let (m, out, records) = run_in_temp(
        r#"(name: "budgets", variants: List(["connect4"]),
            agents: [
                (name: Some("minimax-d3-60"), agent: Preset("connectx-minimax"), limits: Some((depth: Some(3))),
                 game_budget: Some((total: 60, unit: Nodes, strategy: AsNeeded, forfeit: true))),
                (name: Some("minimax-d1-5000"), agent: Preset("connectx-minimax"), limits: Some((depth: Some(1))),
                 game_budget: Some((total: 5000, unit: Nodes, strategy: AsNeeded, forfeit: true))),
                (name: Some("mcts-300-greedy"), agent: Preset("connectx-mcts"),
                 game_budget: Some((total: 300, unit: Iterations, strategy: Greedy, forfeit: true))),
            ],
            pairing: List([(0, 2), (1, 2)]), games: 6, seed: 3)"#,
        "forfeits",
    );
    // Depth 3 from the start costs more than 60 nodes in two moves: that minimax forfeits.
    let small: Vec<_> = records.iter().filter(|r| r.names.contains(&"minimax-d3-60".to_string())).collect();
    assert!(small.iter().all(|r| r.forfeit.is_some_and(|s| r.names[s as usize] == "minimax-d3-60")));
    let mut req = PlotRequest::new(PlotKind::Bar);
    req.x = Some(Field::Opponent);
    req.agent = Some("mcts-*".into());
    req.metric = Some(Metric::Forfeit);
    let fig = figure_from_results(&records, Some(&m), &out, &req).unwrap();
    let FigureData::StackedBars { categories, stacks } = &fig.data else { panic!("bars") };
    let parts: Vec<&str> = stacks.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(parts, ["mcts forfeits", "minimax forfeits"]);
    for (c, opponent) in categories.iter().enumerate() {
        let games: Vec<_> = records.iter().filter(|r| r.names.contains(opponent)).collect();
        let by = |name: &str| games.iter().filter(|r| r.forfeit.is_some_and(|s| r.names[s as usize] == name)).count();
        assert_eq!(stacks[0].1[c], by("mcts-300-greedy") as f64, "{opponent}");
        assert_eq!(stacks[1].1[c], by(opponent) as f64, "{opponent}");
    }
    assert!(fig.title.starts_with("budgets: forfeits by"), "{}", fig.title);
    let _ = std::fs::remove_dir_all(&out);
}
