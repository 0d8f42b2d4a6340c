//! Figures and tables: the numbers in a figure equal hand-computed aggregates of the games,
//! the CSV beside a figure holds exactly those numbers, SVG and PDF parse and carry the
//! labels, a PNG has the size its DPI asks for, and tables are well-formed LaTeX/Markdown.

use std::path::Path;
use std::process::Command;

use mnklab::arena::{GameRecord, Matchup, RunOptions, run_matchup, summarize, wilson};
use mnklab::plot::{
    BoxStats, ExportError, ExportOptions, Field, Figure, FigureData, FigureError, Metric, PlotKind, PlotRequest,
    export_figure, figure_from_results, histogram, render_pdf, render_png, render_svg,
};
use mnklab::search::SearchControl;

use crate::scratch::Scratch;

/// Two boards, two agents with different depths, 6 games each: quick and deterministic.
const SWEEP: &str = r#"(
    name: "plot-test",
    variants: List(["mnk:3,3,3", "mnk:4,4,3", "mnk:4,4,4"]),
    agents: [
        (name: Some("ab_2"), agent: Preset("strong-ab"), limits: Some((depth: Some(2)))),
        (name: Some("random"), agent: Preset("random")),
    ],
    pairing: Pairwise,
    games: 6,
    seed: 5,
)"#;

/// A fresh folder per call (several tests build the same sample run at once).
fn temp_dir(tag: &str) -> Scratch {
    Scratch::new(&format!("plot-{tag}"))
}

fn run(tag: &str) -> (Vec<GameRecord>, Matchup, Scratch) {
    let m = Matchup::parse(SWEEP, "sweep.ron".as_ref()).unwrap();
    let out = temp_dir(tag);
    let opts = RunOptions { threads: 2, out: out.to_path_buf(), resume: false, scale: 1.0, games: None, shard: None };
    let records = run_matchup(&m, Path::new("."), &opts, &SearchControl::new(), |_| {}).unwrap();
    assert_eq!(records.len(), 18);
    (records, m, out)
}

fn score_of(r: &GameRecord, name: &str) -> f64 {
    let side = r.names.iter().position(|n| n == name).unwrap();
    r.score_of(r.players[side]).unwrap()
}

/// A line of one pairing takes the colour of the agent whose games it shows, as the
/// workbench's lines do (the CLI once coloured "ab_2 vs random" by the pairing's name: the
/// same agent in another colour from the app's).
#[test]
fn a_pairings_line_has_its_agents_colour() {
    let (records, m, dir) = run("pair-colour");
    // One K a width, so that a point averages one board.
    let records: Vec<GameRecord> = records.into_iter().filter(|r| r.variant.to_string() != "mnk:4,4,3").collect();
    let mut req = PlotRequest::new(PlotKind::Line);
    req.x = Some(Field::M);
    req.metric = Some(Metric::Nodes);
    let fig = figure_from_results(&records, Some(&m), &dir, &req).unwrap();
    let FigureData::Lines(series) = &fig.data else { panic!("a line figure") };
    assert_eq!(series.len(), 1, "{:?}", series.iter().map(|s| &s.name).collect::<Vec<_>>());
    assert_eq!(series[0].name, "ab_2 vs random");
    assert!(fig.y_label.starts_with("nodes per move ("), "alpha-beta counts nodes: {}", fig.y_label);
    assert_eq!(series[0].colour_of.as_deref(), Some("ab_2"));
    let agent_line = mnklab::plot::Series::new("ab_2", Vec::new());
    assert_eq!(mnklab::plot::series_colours(series), mnklab::plot::series_colours(&[agent_line]));
}

#[test]
fn line_points_are_the_mean_score_with_a_wilson_band() {
    let (records, m, dir) = run("line");
    let mut req = PlotRequest::new(PlotKind::Line);
    req.x = Some(Field::M);
    req.series = Some(Field::K);
    let fig = figure_from_results(&records, Some(&m), &dir, &req).unwrap();
    let FigureData::Lines(series) = &fig.data else { panic!("a line figure") };
    // K = 3 has boards 3x3 and 4x4; K = 4 only 4x4.
    let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["K = 3", "K = 4"]);
    for s in series {
        let k: u8 = s.name.trim_start_matches("K = ").parse().unwrap();
        for p in &s.points {
            let games: Vec<&GameRecord> = records
                .iter()
                .filter(|r| match r.variant {
                    mnklab::game::Variant::Grid(g) => g.width() as f64 == p.x && g.k() == k,
                    _ => false,
                })
                .collect();
            assert_eq!(p.n as usize, games.len());
            let mean = games.iter().map(|r| score_of(r, "ab_2")).sum::<f64>() / games.len() as f64;
            assert!((p.y - mean).abs() < 1e-12, "{} at x={}: {} vs {mean}", s.name, p.x, p.y);
            let (lo, hi) = wilson(mean, games.len() as f64, 1.959963984540054);
            assert_eq!(p.band, Some((lo, hi)));
        }
    }
    assert_eq!(fig.y_label, "score of ab_2");
}

#[test]
fn heatmap_bars_and_pies_count_the_games() {
    let (records, m, dir) = run("heat");
    let mut req = PlotRequest::new(PlotKind::Heatmap);
    req.x = Some(Field::Board);
    req.y = Some(Field::K);
    req.metric = Some(Metric::Length);
    let fig = figure_from_results(&records, Some(&m), &dir, &req).unwrap();
    let FigureData::Heatmap { columns, rows, panels, .. } = &fig.data else { panic!("a heatmap") };
    assert_eq!(panels.len(), 1);
    let (values, counts) = (&panels[0].values, &panels[0].counts);
    assert_eq!(counts, &[[6, 6], [0, 6]], "games behind each cell");
    assert_eq!(columns, &["3x3", "4x4"]);
    assert_eq!(rows, &["3", "4"]);
    // 3x3 with K = 4 was never played.
    assert_eq!(values[1][0], None);
    let mean_len = |v: &str| {
        let g: Vec<&GameRecord> = records.iter().filter(|r| r.variant.to_string() == v).collect();
        g.iter().map(|r| (r.opening.len() + r.moves.len()) as f64).sum::<f64>() / g.len() as f64
    };
    assert_eq!(values[0][0], Some(mean_len("mnk:3,3,3")));
    assert_eq!(values[0][1], Some(mean_len("mnk:4,4,3")));
    assert_eq!(values[1][1], Some(mean_len("mnk:4,4,4")));

    let mut req = PlotRequest::new(PlotKind::Bar);
    req.x = Some(Field::Variant);
    let fig = figure_from_results(&records, Some(&m), &dir, &req).unwrap();
    let FigureData::StackedBars { categories, stacks } = &fig.data else { panic!("bars") };
    let stats = summarize(&records);
    for (c, s) in categories.iter().zip(&stats) {
        let i = categories.iter().position(|x| x == c).unwrap();
        assert_eq!(c, &s.variant.to_string());
        assert_eq!([stacks[0].1[i], stacks[1].1[i], stacks[2].1[i]], [s.wins as f64, s.draws as f64, s.losses as f64]);
    }
    let mut req = PlotRequest::new(PlotKind::Pie);
    req.agent = Some("random".into());
    let fig = figure_from_results(&records, Some(&m), &dir, &req).unwrap();
    let FigureData::Pies(pies) = &fig.data else { panic!("pies") };
    assert_eq!(pies.len(), 1);
    assert_eq!(pies[0].0, "random vs ab_2");
    let total: (u32, u32, u32) = stats.iter().fold((0, 0, 0), |t, s| (t.0 + s.wins, t.1 + s.draws, t.2 + s.losses));
    // Seen from random's side, wins and losses swap.
    let got: Vec<f64> = pies[0].1.iter().map(|s| s.1).collect();
    assert_eq!(got, [total.2 as f64, total.1 as f64, total.0 as f64]);
}

#[test]
fn box_and_histogram_statistics_match_hand_values() {
    let b = BoxStats::from_values("x", &[1.0, 2.0, 3.0, 4.0, 100.0]).unwrap();
    assert_eq!((b.q1, b.median, b.q3), (2.0, 3.0, 4.0));
    // 100 lies beyond q3 + 1.5 IQR = 7: the whisker stops at 4.
    assert_eq!((b.whisker_low, b.whisker_high, b.max), (1.0, 4.0, 100.0));
    let FigureData::Histogram { edges, counts } = histogram(&[1.0, 2.0, 2.0, 3.0, 9.0], Some(4)) else { panic!() };
    assert_eq!(edges, [1.0, 3.0, 5.0, 7.0, 9.0, 11.0]);
    assert_eq!(counts, [3, 1, 0, 0, 1]);

    let (records, m, dir) = run("box");
    let mut req = PlotRequest::new(PlotKind::Box);
    req.agent = Some("ab_2".into());
    req.metric = Some(Metric::Depth);
    let fig = figure_from_results(&records, Some(&m), &dir, &req).unwrap();
    let FigureData::Boxes(boxes) = &fig.data else { panic!("boxes") };
    let moves: usize = records
        .iter()
        .map(|r| {
            let side = r.names.iter().position(|n| n == "ab_2").unwrap();
            r.moves.iter().filter(|m| m.player as usize == side).count()
        })
        .sum();
    assert_eq!(boxes.iter().map(|b| b.n as usize).sum::<usize>(), moves);
    assert_eq!(boxes[0].name, "opening");
    // A per-game metric is refused for a box plot, naming it.
    req.metric = Some(Metric::Score);
    let err = figure_from_results(&records, Some(&m), &dir, &req).unwrap_err();
    assert!(matches!(err, FigureError::NotPerMove(_)), "{err}");
}

#[test]
fn bad_requests_name_the_problem() {
    let (records, m, dir) = run("bad");
    assert!("colour".parse::<Field>().is_ok());
    let e = "widht".parse::<Field>().unwrap_err();
    assert_eq!((e.what, e.given.as_str()), ("field", "widht"), "{e}");
    assert!(e.expected.starts_with("m, n, k, board"), "{e}");
    // Kinds and metrics: every name the command line offers is the value of that name.
    for (name, kind) in PlotKind::NAMES.iter().zip(PlotKind::ALL) {
        assert_eq!(name.parse::<PlotKind>(), Ok(kind));
    }
    for (name, metric) in mnklab::plot::Metric::NAMES.iter().zip(mnklab::plot::Metric::ALL) {
        assert_eq!(name.parse::<mnklab::plot::Metric>(), Ok(metric));
    }
    let e = "firstwin".parse::<mnklab::plot::Metric>().unwrap_err();
    assert!(e.expected.contains("first-win") && e.expected.ends_with("forfeit, margin"), "{e}");
    let mut req = PlotRequest::new(PlotKind::Line);
    req.x = Some(Field::Agent);
    let e = figure_from_results(&records, Some(&m), &dir, &req).unwrap_err();
    assert_eq!(e, FigureError::NotNumeric(Field::Agent), "{e}");
    req.x = Some(Field::M);
    req.agent = Some("nobody".into());
    let e = figure_from_results(&records, Some(&m), &dir, &req).unwrap_err();
    let FigureError::NoSuchAgent { pattern, known } = &e else { panic!("{e}") };
    assert!(pattern == "nobody" && known.iter().any(|k| k == "ab_2"), "{e}");
    // Agent parameters come from the matchup; without it they are unknown.
    let mut req = PlotRequest::new(PlotKind::Bar);
    req.x = Some(Field::AgentParam(mnklab::plot::from_results::Param::Depth));
    let fig = figure_from_results(&records, Some(&m), &dir, &req).unwrap();
    let FigureData::StackedBars { categories, .. } = &fig.data else { panic!() };
    assert_eq!(categories, &["2"]);
    let e = figure_from_results(&records, None, &dir, &req).unwrap_err();
    assert!(matches!(e, FigureError::UnknownParam { .. }), "{e}");
}

fn sample_figure() -> Figure {
    let (records, m, dir) = run("sample");
    let mut req = PlotRequest::new(PlotKind::Line);
    req.x = Some(Field::M);
    req.series = Some(Field::K);
    let mut fig = figure_from_results(&records, Some(&m), &dir, &req).unwrap();
    fig.title = "Win rate by board width".into();
    fig.x_label = "Board width M".into();
    fig.y_label = "Score of alpha-beta".into();
    fig
}

#[test]
fn svg_and_pdf_parse_and_carry_the_labels() {
    let fig = sample_figure();
    let opts = ExportOptions::default();
    let svg = render_svg(&fig, &opts).unwrap();
    let tree = svg2pdf::usvg::Tree::from_str(&svg, &svg2pdf::usvg::Options::default()).expect("valid SVG");
    assert_eq!(tree.size().width().round() as u32, (6.4f64 * 96.0).round() as u32);
    for label in ["Win rate by board width", "Board width M", "Score of alpha-beta", "K = 3", "K = 4"] {
        assert!(svg.contains(&format!(">{label}<")) || svg.contains(&format!(">\n{label}")), "SVG lacks {label}");
    }
    assert!(svg.contains("DejaVu Sans"), "the SVG names the shipped font");

    let dir = temp_dir("pdf");
    let pdf_path = dir.join("fig.pdf");
    std::fs::write(&pdf_path, render_pdf(&fig, &opts).unwrap()).unwrap();
    let bytes = std::fs::read(&pdf_path).unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    assert!(String::from_utf8_lossy(&bytes).contains("DejaVu"), "the font is embedded");
    // The text read back by a PDF reader (a crate: no outside program), spaces aside (a
    // reader may drop them inside short labels, "K=3").
    let text = pdf_extract::extract_text_from_mem(&bytes).expect("a PDF reader reads it");
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    for label in ["Win rate by board width", "Board width M", "Score of alpha-beta", "K = 3"] {
        let label: String = label.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(text.contains(&label), "PDF text lacks {label}: {text}");
    }
}

#[test]
fn png_size_follows_the_dpi() {
    let fig = sample_figure();
    for dpi in [72.0, 150.0, 300.0] {
        let opts = ExportOptions { width_in: 5.0, height_in: 3.0, dpi, ..ExportOptions::default() };
        let png = render_png(&fig, &opts).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!((info.width, info.height), ((5.0 * dpi) as u32, (3.0 * dpi) as u32));
        let dims = info.pixel_dims.expect("pHYs chunk");
        assert_eq!(dims.xppu, (dpi / 0.0254).round() as u32);
    }
}

#[test]
fn the_csv_beside_a_figure_holds_its_data() {
    let fig = sample_figure();
    let dir = temp_dir("csv");
    let written = export_figure(&fig, &dir.join("score.svg"), &ExportOptions::default()).unwrap();
    assert_eq!(written, [dir.join("score.svg"), dir.join("score.csv")]);
    let mut reader = csv::Reader::from_path(dir.join("score.csv")).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, ["series", "Board width M", "Score of alpha-beta", "low", "high", "n"]);
    let rows: Vec<Vec<String>> = reader.records().map(|r| r.unwrap().iter().map(String::from).collect()).collect();
    let FigureData::Lines(series) = &fig.data else { panic!() };
    let expected: Vec<Vec<String>> = series
        .iter()
        .flat_map(|s| {
            s.points.iter().map(|p| {
                let (lo, hi) = p.band.unwrap();
                vec![s.name.clone(), p.x.to_string(), p.y.to_string(), lo.to_string(), hi.to_string(), p.n.to_string()]
            })
        })
        .collect();
    assert_eq!(rows, expected);
    // Every value parses back to the figure's number exactly.
    for (row, p) in rows.iter().zip(series.iter().flat_map(|s| &s.points)) {
        assert_eq!(row[2].parse::<f64>().unwrap(), p.y);
    }
    // A bad extension is refused before anything is written.
    let e = export_figure(&fig, &dir.join("score.jpeg"), &ExportOptions::default()).unwrap_err();
    assert!(matches!(e, ExportError::Format(_)), "{e}");
    assert!(e.to_string().contains(".svg, .png or .pdf"), "{e}");
    assert!(!dir.join("score.jpeg").exists());
}

#[test]
fn tables_are_booktabs_latex_and_markdown() {
    let (records, _, _) = run("tables");
    let stats = summarize(&records);
    let tex = mnklab::plot::tables::latex_table(&stats, "50% of a sweep_1");
    assert!(tex.contains("\\toprule") && tex.contains("\\midrule") && tex.contains("\\bottomrule"));
    // Underscores and percent signs are escaped.
    assert!(tex.contains("ab\\_2") && tex.contains("50\\% of a sweep\\_1"));
    assert_eq!(tex.matches(" \\\\\n").count(), 1 + stats.len());
    let md = mnklab::plot::tables::markdown_table(&stats);
    let lines: Vec<&str> = md.lines().collect();
    assert_eq!(lines.len(), 2 + stats.len());
    assert!(lines.iter().all(|l| l.starts_with('|') && l.ends_with('|') && l.matches('|').count() == 12));
    let s = &stats[0];
    assert!(lines[2].contains(&format!("{}-{}-{}", s.wins, s.draws, s.losses)));
    // Each side's time and work a move, as a paper reports them beside the results.
    assert!(lines[0].contains("ms/move") && lines[0].contains("Nodes/move"));
    let ms = format!("{:.1} / {:.1}", s.mean_time[0] * 1e3, s.mean_time[1] * 1e3);
    assert!(lines[2].contains(&ms) && tex.contains(&ms), "{ms} in {}", lines[2]);
    assert!(s.mean_nodes[0] > 0.0, "the agents searched");
}

#[test]
fn cli_plot_and_table_write_their_files() {
    let (_, _, dir) = run("cli");
    let bin = env!("CARGO_BIN_EXE_mnklab");
    let out = dir.join("fig.pdf");
    let o = Command::new(bin)
        .args(["plot", dir.to_str().unwrap(), "--kind", "heatmap", "--x", "board", "--y", "k", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.exists() && dir.join("fig.csv").exists());
    let o = Command::new(bin)
        .args(["plot", dir.to_str().unwrap(), "--kind", "line", "--x", "colour", "--out", "x.svg"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a number"));
    let o = Command::new(bin).args(["table", dir.to_str().unwrap(), "--format", "markdown"]).output().unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("| Variant |"));
    // A folder that is not there is said so (a misspelt run name), an existing one without
    // results differently.
    let o = Command::new(bin).args(["plot", "/nonexistent/run", "--kind", "bar", "--out", "x.svg"]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/run: no such folder or file"));
    let empty = tempfile::tempdir().unwrap();
    let o = Command::new(bin)
        .args(["plot", empty.path().to_str().unwrap(), "--kind", "bar", "--out", "x.svg"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("no results file"));
}

#[test]
fn a_log_axis_transforms_lines_and_boxes_and_keeps_the_csv_raw() {
    use mnklab::plot::{LinePoint, Series, log_y};
    let fig = Figure {
        title: "t".into(),
        x_label: "x".into(),
        y_label: "nodes".into(),
        value_label: String::new(),
        y_range: None,
        marks: Default::default(),
        data: FigureData::Lines(vec![Series::new(
            "s",
            vec![
                LinePoint { x: 1.0, y: 100.0, band: Some((10.0, 1000.0)), n: 1 },
                LinePoint { x: 2.0, y: 0.0, band: None, n: 1 },
            ],
        )]),
    };
    let FigureData::Lines(s) = log_y(&fig).data else { panic!() };
    assert_eq!(s[0].points[0].y, 2.0);
    assert_eq!(s[0].points[0].band, Some((1.0, 3.0)));
    // A line's zero is left out (a decade below the smallest value, it read as a count); a
    // box's minimum of zero sits a decade below its smallest positive value.
    assert_eq!(s[0].points.len(), 1, "{:?}", s[0].points);
    let boxes = Figure {
        data: FigureData::Boxes(vec![BoxStats::from_values("b", &[1.0, 10.0, 100.0]).unwrap()]),
        ..fig.clone()
    };
    let FigureData::Boxes(b) = log_y(&boxes).data else { panic!() };
    assert_eq!((b[0].min, b[0].median, b[0].max), (0.0, 1.0, 2.0));
    // The file keeps the raw numbers.
    let dir = temp_dir("log");
    let opts = ExportOptions { log_y: true, ..ExportOptions::default() };
    export_figure(&fig, &dir.join("log.svg"), &opts).unwrap();
    let csv = std::fs::read_to_string(dir.join("log.csv")).unwrap();
    assert!(csv.contains("s,1,100,10,1000,1"), "{csv}");
}

/// A line figure with one x value keeps its interval: drawn as an error bar (there is no
/// band to fill), so the figure with bands differs from the one without.
#[test]
fn a_single_point_line_keeps_its_interval() {
    let mut fig = sample_figure();
    fig.data = mnklab::plot::FigureData::Lines(vec![mnklab::plot::Series::new(
        "alpha-beta",
        vec![mnklab::plot::LinePoint { x: 5.0, y: 0.6, band: Some((0.4, 0.8)), n: 20 }],
    )]);
    let with = render_svg(&fig, &ExportOptions::default()).unwrap();
    let without = render_svg(&fig, &ExportOptions { bands: false, ..ExportOptions::default() }).unwrap();
    assert_ne!(with, without, "the interval is drawn");
    assert!(with.contains("95% interval (error bars)"), "the legend names what is drawn");
    assert!(
        with.matches("<line").count() + with.matches("<polyline").count()
            > without.matches("<line").count() + without.matches("<polyline").count()
    );
}

/// The running score is drawn on its whole range, 0 to 1, whatever the games so far, with a
/// caption rather than a UI label, and its shaded interval is named in the legend; a
/// series keeps its colour whatever place it comes in.
#[test]
fn a_score_figure_spans_zero_to_one_and_names_its_band() {
    use mnklab::arena::Outcome;
    let game = |index, outcome| {
        GameRecord::with_result(index, "tictactoe".parse().unwrap(), [0, 1], ["ab".into(), "mcts".into()], outcome)
    };
    let records: Vec<GameRecord> =
        (0..6).map(|i| game(i, if i % 3 == 0 { Outcome::Draw } else { Outcome::FirstWins })).collect();
    let fig = mnklab::plot::live::cumulative_score(&records, 0);
    assert_eq!(fig.y_range, Some((0.0, 1.0)));
    assert!(!fig.title.contains("so far"), "{}", fig.title);
    // A short y title (a low plot cut a long one); whose score, the title says.
    assert_eq!(fig.y_label, "score");
    assert!(fig.title.contains("of ab"), "{}", fig.title);
    let svg = render_svg(&fig, &ExportOptions::for_figure(&fig)).unwrap();
    assert!(svg.contains("95% interval (shaded)"), "the band in the legend");
    // Without bands, no band in the legend.
    let mut bare = fig.clone();
    if let FigureData::Lines(series) = &mut bare.data {
        series.iter_mut().flat_map(|s| s.points.iter_mut()).for_each(|p| p.band = None);
    }
    assert!(!render_svg(&bare, &ExportOptions::for_figure(&bare)).unwrap().contains("95% interval (shaded)"));
    let colours = mnklab::plot::palette::series_for(&["ab", "mcts", "random"]);
    let reordered = mnklab::plot::palette::series_for(&["random", "ab"]);
    assert_eq!((reordered[1], reordered[0]), (colours[0], colours[2]), "a name keeps its colour");
}

/// A matchup over two boards: the per-move figure has a line per agent and board, each
/// numbered by its own board's games, never one line across both with no mark between.
#[test]
fn per_move_figures_keep_each_board_apart() {
    use mnklab::arena::{MoveRecord, Outcome};
    let game = |index, variant: &str| {
        let mut r = GameRecord::with_result(
            index,
            variant.parse().unwrap(),
            [0, 1],
            ["ab".into(), "mcts".into()],
            Outcome::Draw,
        );
        r.moves = (0..4)
            .map(|ply| MoveRecord {
                player: (ply % 2) as u8,
                mv: String::new(),
                time: 0.1,
                nodes: 100 * (index + 1),
                iterations: 0,
                depth: 1,
                eval: 0.0,
                score: None,
                memory: 0,
                cpu: None,
                unsearched: false,
            })
            .collect();
        r
    };
    let records = vec![game(0, "tictactoe"), game(1, "connect4"), game(2, "tictactoe")];
    let fig = mnklab::plot::live::per_move(&records, mnklab::plot::live::PerMove::Nodes);
    let FigureData::Lines(series) = &fig.data else { panic!("lines") };
    let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
    // An agent's boards together in the legend, agents in order of name.
    assert_eq!(names, ["ab on mnk:3,3,3", "ab on connect:7,6,4", "mcts on mnk:3,3,3", "mcts on connect:7,6,4"]);
    let xs: Vec<f64> = series[0].points.iter().map(|p| p.x).collect();
    assert_eq!(xs, [1.0, 2.0], "numbered on its own board");
    assert_eq!(series[1].points[0].x, 1.0);
    assert_eq!(fig.x_label, "game on its board");
    // One board: one line per agent, games numbered in finishing order.
    let one = mnklab::plot::live::per_move(&records[..1], mnklab::plot::live::PerMove::Nodes);
    let FigureData::Lines(series) = &one.data else { panic!("lines") };
    assert_eq!(series.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["ab", "mcts"]);
    // The y title names what was counted: MCTS's iterations are not nodes.
    assert_eq!(one.y_label, "mean nodes per move");
    let mut mixed = records.clone();
    for mv in mixed[0].moves.iter_mut().filter(|m| m.player == 1) {
        (mv.iterations, mv.nodes) = (mv.nodes, 7);
    }
    let fig = mnklab::plot::live::per_move(&mixed[..1], mnklab::plot::live::PerMove::Nodes);
    assert_eq!(fig.y_label, "mean nodes or MCTS iterations per move");
    for mv in mixed[0].moves.iter_mut() {
        mv.iterations = 5;
    }
    let fig = mnklab::plot::live::per_move(&mixed[..1], mnklab::plot::live::PerMove::Nodes);
    assert_eq!(fig.y_label, "mean MCTS iterations per move");
}

/// A matchup over two boards: an agent's score has a line for each board it played on, in
/// one colour with a pattern a board; a board it never played on has no line (nor a legend
/// entry naming it).
#[test]
fn a_score_figure_has_a_line_for_each_board_played() {
    use mnklab::arena::Outcome;
    let game = |index, variant: &str, players: [usize; 2]| {
        GameRecord::with_result(
            index,
            variant.parse().unwrap(),
            players,
            [format!("e{}", players[0]), format!("e{}", players[1])],
            Outcome::FirstWins,
        )
    };
    let records = vec![game(0, "tictactoe", [0, 1]), game(1, "connect4", [0, 2]), game(2, "tictactoe", [1, 0])];
    let FigureData::Lines(zero) = mnklab::plot::live::cumulative_score(&records, 0).data else { panic!("lines") };
    assert_eq!(zero.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["e0 on mnk:3,3,3", "e0 on connect:7,6,4"]);
    assert_eq!(zero[0].points.iter().map(|p| p.y).collect::<Vec<_>>(), [1.0, 0.5], "its own board's games");
    assert_ne!(zero[0].dash, zero[1].dash);
    let FigureData::Lines(one) = mnklab::plot::live::cumulative_score(&records, 1).data else { panic!("lines") };
    assert_eq!(one.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["e1 on mnk:3,3,3"], "no connect4 line");
}
