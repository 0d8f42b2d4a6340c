//! `mnklab plot`: a figure from a run's results (SVG, PNG or PDF) with its CSV beside it.

use std::path::PathBuf;

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use mnklab::plot::{Metric, PlotKind};

#[derive(Args)]
pub struct PlotArgs {
    /// A run's output folder (results.ronl and matchup.ron) or its results.ronl.
    results: PathBuf,
    #[arg(long, value_parser = PossibleValuesParser::new(PlotKind::NAMES).try_map(|s| s.parse::<PlotKind>()))]
    kind: PlotKind,
    /// The horizontal field: m, n, k, board, variant, agent, opponent, pairing, colour, phase,
    /// ply, or agent./opponent. + budget, depth, iterations, nodes, time, strategy.
    #[arg(long)]
    x: Option<String>,
    /// Heatmaps: the vertical field (default n). Lines: the metric (same as --metric).
    #[arg(long)]
    y: Option<String>,
    #[arg(long, value_parser = PossibleValuesParser::new(Metric::NAMES).try_map(|s| s.parse::<Metric>()))]
    metric: Option<Metric>,
    /// Lines: one line per value of this field (default pairing).
    #[arg(long)]
    series: Option<String>,
    /// Lines: each line's name in the legend, `{}` standing for the series value, e.g.
    /// "{} rollouts a game" (default "FIELD = VALUE").
    #[arg(long)]
    series_label: Option<String>,
    /// See the games from this entrant's side.
    #[arg(long)]
    agent: Option<String>,
    /// A title drawn in the figure. Without it the figure has none (a paper sets its caption
    /// under the figure), and a suggested caption is printed.
    #[arg(long)]
    title: Option<String>,
    #[arg(long)]
    x_label: Option<String>,
    #[arg(long)]
    y_label: Option<String>,
    /// Histograms: the number of bins, 1 to 1000 (default: Freedman-Diaconis); whole-number
    /// data keeps whole-number bin widths, and the count drawn is said when it differs.
    #[arg(long, value_parser = parse_bins)]
    bins: Option<usize>,
    /// Width and height in inches (default width 6.4, or 2.4 a panel for a faceted heatmap).
    #[arg(long)]
    width: Option<f64>,
    #[arg(long, default_value_t = 4.0)]
    height: f64,
    /// PNG resolution.
    #[arg(long, default_value_t = 150.0)]
    dpi: f64,
    /// Lines and box plots: a log10 y axis (for nodes or time spanning orders of magnitude).
    #[arg(long)]
    log_y: bool,
    /// Heatmaps: one panel per value of this field (e.g. k when each board has two K).
    #[arg(long)]
    facet: Option<String>,
    /// Heatmaps: draw the boundary between cells on either side of this value (e.g. 0.5).
    #[arg(long)]
    boundary: Option<f64>,
    /// Tick labels in points (titles and legends sized from it); 10-11 for a figure set in
    /// one column of a two-column paper.
    #[arg(long, default_value_t = 9.0)]
    font_size: f64,
    /// Lines: leave out the 95% bands.
    #[arg(long)]
    no_bands: bool,
    /// FILE.svg, FILE.png or FILE.pdf; the data goes to FILE.csv (never over a run's own
    /// files; over existing files only with --force).
    #[arg(long)]
    out: PathBuf,
    /// Replace FILE and FILE.csv if they exist (a FILE.csv holding exactly this figure's data
    /// needs no --force).
    #[arg(long)]
    force: bool,
}

pub fn run(args: PlotArgs) -> Result<(), String> {
    use mnklab::plot::{ExportOptions, Field, PlotRequest, export_figure, figure_from_results};
    let field = |name: &str, s: &Option<String>| -> Result<Option<Field>, String> {
        s.as_deref().map(|v| v.parse::<Field>().map_err(|e| format!("--{name}: {e}"))).transpose()
    };
    let mut req = PlotRequest::new(args.kind);
    req.x = field("x", &args.x)?;
    req.metric = args.metric;
    if args.kind == PlotKind::Heatmap {
        req.y = field("y", &args.y)?;
    } else if let Some(y) = &args.y {
        // For the other kinds --y names the plotted metric.
        req.metric = Some(y.parse::<Metric>().map_err(|e| format!("--y: {e}"))?);
    }
    req.series = field("series", &args.series)?;
    req.agent = args.agent;
    req.title = args.title.clone();
    req.bins = args.bins;
    req.facet = field("facet", &args.facet)?;
    req.boundary = args.boundary;
    req.series_label = args.series_label;
    if req.series_label.is_some() && args.kind != PlotKind::Line {
        return Err("--series-label applies to line plots".into());
    }
    if args.boundary.is_some_and(|b| !b.is_finite()) {
        return Err("--boundary must be a number".into());
    }
    if args.log_y && !matches!(args.kind, PlotKind::Line | PlotKind::Box) {
        return Err("--log-y applies to line and box plots".into());
    }
    if args.no_bands && args.kind != PlotKind::Line {
        return Err("--no-bands applies to line plots (the only ones with bands)".into());
    }
    if req.boundary.is_some() && args.kind != PlotKind::Heatmap {
        return Err("--boundary applies to heatmaps".into());
    }
    if req.facet.is_some() && args.kind != PlotKind::Heatmap {
        return Err("--facet applies to heatmaps".into());
    }
    if !(args.font_size >= 4.0 && args.font_size <= 40.0) {
        return Err("--font-size is in points, between 4 and 40".into());
    }
    mnklab::plot::FigureFormat::from_path(&args.out).map_err(|e| e.to_string())?;
    if args.bins.is_some() && args.kind != PlotKind::Hist {
        return Err("--bins applies to histograms (--kind hist)".into());
    }
    let csv = args.out.with_extension("csv");
    // The CSV is never a run's own file; whether an existing one may be replaced is decided
    // once its new text is known (below).
    mnklab::io::check_output(&args.out, args.force).map_err(|e| format!("--out: {e}"))?;
    mnklab::io::check_output(&csv, true).map_err(|e| format!("--out: {e}"))?;
    let run = mnklab::arena::results::load_run(&args.results).map_err(|e| e.to_string())?;
    let mut fig = figure_from_results(&run.records, run.matchup.as_ref(), &run.dir, &req).map_err(|e| e.to_string())?;
    if let Some(l) = args.x_label {
        fig.x_label = l;
    }
    if let Some(l) = args.y_label {
        fig.y_label = l;
    }
    // A faceted heatmap gets room for each panel unless a width is asked for.
    let width = args.width.unwrap_or(ExportOptions::for_figure(&fig).width_in);
    if !(width > 0.5 && width < 100.0 && args.height > 0.5 && args.height < 100.0) {
        return Err("--width and --height are inches, between 0.5 and 100".into());
    }
    if !(args.dpi >= 10.0 && args.dpi <= 2400.0) {
        return Err("--dpi must be between 10 and 2400".into());
    }
    let opts = ExportOptions {
        width_in: width,
        height_in: args.height,
        dpi: args.dpi,
        log_y: args.log_y,
        font_pt: args.font_size,
        bands: !args.no_bands,
    };
    if let (Some(asked), mnklab::plot::FigureData::Histogram { counts, edges }) = (args.bins, &fig.data)
        && counts.len() != asked
    {
        let width = edges.get(1).zip(edges.first()).map_or(0.0, |(b, a)| b - a);
        println!(
            "--bins {asked}: whole-number data needs whole-number bins, so {} bins of width {width} are drawn",
            counts.len()
        );
    }
    // The same figure in another format (fig.png after fig.svg) writes the same CSV again,
    // which loses nothing; any other CSV there is the user's, replaced only with --force.
    mnklab::io::check_replace(&csv, fig.to_csv().as_bytes(), args.force).map_err(|e| format!("--out: {e}"))?;
    if args.title.is_none() {
        println!("caption (not drawn; --title draws one): {}", fig.title);
        fig.title.clear();
    }
    for p in export_figure(&fig, &args.out, &opts).map_err(|e| e.to_string())? {
        println!("wrote {}", p.display());
    }
    Ok(())
}

/// A histogram's bin count: 1 to 1000 (more bins than pixels draws nothing readable).
fn parse_bins(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n @ 1..=1000) => Ok(n),
        _ => Err(format!("'{s}' is not a number of bins from 1 to 1000")),
    }
}
