//! Drawing a [`Figure`] live with egui_plot, and the export row under every plot. The GUI
//! draws the same figure model the files are written from, with the same colours.

use std::path::PathBuf;

use crossbeam_channel::{Receiver, unbounded};
use egui::Color32;
use egui_plot::{
    Bar, BarChart, BoxElem, BoxPlot, BoxSpread, FilledArea, GridMark, Legend, Line, LineStyle, MarkerShape, Plot,
    PlotPoint, PlotPoints, PlotUi, Points, Polygon, Text,
};

use crate::plot::{
    ExportOptions, Figure, FigureData, HeatPanel, LegendEntry, Marker, Series, category_label, export_figure,
    heat_range, line_legend, line_y_extent, log_y, palette, reference_label, series_looks, ticks,
};

fn colour(c: [u8; 3]) -> Color32 {
    Color32::from_rgb(c[0], c[1], c[2])
}

/// A series colour on the theme's background: the palette's black (for white paper) is the
/// text colour, so that on the dark theme its line is not drawn black on black.
fn ink(c: [u8; 3], visuals: &egui::Visuals) -> Color32 {
    if c == [0, 0, 0] { visuals.strong_text_color() } else { colour(c) }
}

/// A plot's height: as tall as the tab's view has room below the plot's place in it, within
/// `range`, so that the whole plot shows at the default window size (a fixed height put its
/// bottom, or its top, under the fold). Measured from the top of the tab's content, not of
/// the view: scrolling changes nothing.
pub fn height_in_view(ui: &egui::Ui, range: std::ops::RangeInclusive<f32>) -> f32 {
    let room = ui.clip_rect().height() - (ui.cursor().top() - ui.min_rect().top()) - 8.0;
    room.clamp(*range.start(), *range.end())
}

/// The rows a plot drawn by [`draw_figure`] has above it: its title row and its legend.
pub fn title_rows() -> f32 {
    50.0
}

/// The height of the export row under a plot ([`Exporter::show`]) with the line of its
/// message ("wrote ..."), so that the message shows whole too (cut at the tab's edge, it
/// read as a path cut off).
pub fn export_rows(ui: &egui::Ui) -> f32 {
    let message = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
    ui.spacing().interact_size.y + ui.spacing().item_spacing.y + message
}

/// The height of a plot drawn by [`draw_figure`]: the room [`height_in_view`] finds less the
/// title and legend rows above the plot and, with `export_below`, the export row under it,
/// so that all of them show whole (the accuracy tab's plot ran under the fold, its Export
/// row out of sight). `range` is the plot's own height.
pub fn plot_height_in_view(ui: &egui::Ui, range: std::ops::RangeInclusive<f32>, export_below: bool) -> f32 {
    let rows = title_rows() + if export_below { export_rows(ui) } else { 0.0 };
    height_in_view(ui, (range.start() + rows)..=(range.end() + rows)) - rows
}

/// An axis label of at most `max` characters: `text` whole, or nothing (the figure's title
/// names the quantity; a label cut at a word, "mean nodes or…", read as text cut off).
pub fn whole_or_nothing(text: &str, max: usize) -> String {
    if text.chars().count() <= max { text.to_string() } else { String::new() }
}

/// How many characters of `text` fit in `px` points at the body size (the x axis takes about
/// 40 points of a plot's height): measured, so a label that fits is never cut.
fn chars_fitting(ui: &egui::Ui, text: &str, px: f32) -> usize {
    let font = egui::TextStyle::Body.resolve(ui.style());
    let width = ui.painter().layout_no_wrap(text.to_string(), font, Color32::WHITE).size().x;
    if width <= px { usize::MAX } else { (text.chars().count() as f32 * px / width.max(1.0)) as usize }
}

/// The y axis every in-app plot uses: labels kept where ticks are close, a minimum width.
pub fn y_axis() -> egui_plot::AxisHints<'static> {
    egui_plot::AxisHints::new_y().label_spacing(12.0..=20.0).min_thickness(30.0)
}

/// The row over a plot in a tab: an "Enlarge" button that opens the plot in a window of
/// its own, resizable, over the workbench (a tab at the default window size has room for a
/// plot some 100-250 points tall, too small to read a curve's detail), the title, and what
/// the caller puts first.
pub struct TitleRow<'a> {
    /// Whether the window is open.
    pub enlarged: &'a mut bool,
    /// Drawn at the start of the row, before the button and the title (the matchup's choice
    /// of plot): one row less above the plot in a short tab.
    pub leading: Option<&'a mut dyn FnMut(&mut egui::Ui)>,
}

/// Draws `fig` under its title (the plain title, or `row`); returns the plot coordinate
/// clicked, if any. With `log`, lines and boxes are drawn on a log10 y axis.
pub fn draw_figure(
    ui: &mut egui::Ui,
    id: &str,
    fig: &Figure,
    height: f32,
    log: bool,
    row: Option<TitleRow<'_>>,
) -> Option<PlotPoint> {
    let given = fig;
    let fig = &if log { log_y(fig) } else { fig.clone() };
    let start = ui.cursor().top();
    draw_title(ui, id, fig, given, log, row);
    // Heatmaps carry their values in the cells; lines have their legend outside the plot,
    // where it covers no line's end.
    if let FigureData::Lines(series) = &fig.data {
        legend_row(ui, &line_legend(series, true));
    }
    // A height measured for the tab (`plot_height_in_view`) leaves `title_rows()` above the
    // plot; a legend wrapped to more rows (a run over two boards) takes the rest from the
    // plot, whose x axis title ran under the fold.
    let height = (height - (ui.cursor().top() - start - title_rows()).max(0.0)).max(60.0);
    // Tick labels down to 12 points apart (egui_plot's default of 20 left a 200-point-high
    // 0..1 axis with no label but "0"), on an axis wide enough for "0.25".
    let mut plot = Plot::new(format!("plot-{id}")).height(height).custom_y_axes(vec![y_axis()]);
    if !matches!(&fig.data, FigureData::Heatmap { .. } | FigureData::Lines(_)) {
        plot = plot.legend(Legend::default());
    }
    // The rotated y label must fit the plot's height, or it runs up over the title and the
    // controls above. One that does not fit whole is left out: the title above names the
    // quantity, and "mean nodes or…" read as text cut off.
    let y_label = whole_or_nothing(&fig.y_label, chars_fitting(ui, &fig.y_label, height - 40.0));
    plot = plot.x_axis_label(fig.x_label.clone()).y_axis_label(y_label).allow_scroll(false);
    if let (Some((lo, hi)), false) = (fig.y_range, log) {
        plot = plot.include_y(lo).include_y(hi);
    }
    // Lines span the extent the exported figure has: a reference line (random) above the
    // measured ones does not widen it (it is named under the top instead).
    let extent = match &fig.data {
        FigureData::Lines(series) => line_y_extent(series, true),
        _ => None,
    };
    if let Some((lo, hi)) = extent {
        // Headroom over the highest point: a line at the top sat on the frame, its markers
        // cut in half.
        plot = plot.include_y(lo).include_y(hi + 0.04 * (hi - lo));
    }
    let top = extent.map(|e| e.1);
    if log {
        // Down to the decade under the lowest point, so that a line near 15 has the tick 10
        // under it (with the lowest tick at 100 it read as off the scale).
        if let FigureData::Lines(series) = &fig.data {
            let low = series.iter().flat_map(|s| &s.points).map(|p| p.y).fold(f64::INFINITY, f64::min);
            if low.is_finite() {
                plot = plot.include_y(low.floor());
            }
        }
    }
    plot = with_axes(plot, fig, log);
    let data = fig.data.clone();
    let response = plot.show(ui, move |p| {
        draw_data(p, &data, top);
        if p.response().clicked() { p.pointer_coordinate() } else { None }
    });
    response.inner
}

/// The title above a figure: the plain title, or `row` with its leading controls and the
/// button that opens the figure (`given`, before any log transform) in a window of its own.
fn draw_title(ui: &mut egui::Ui, id: &str, fig: &Figure, given: &Figure, log: bool, row: Option<TitleRow<'_>>) {
    match row {
        Some(TitleRow { enlarged: open, leading }) => {
            ui.horizontal(|ui| {
                if let Some(leading) = leading {
                    leading(ui);
                }
                let hover = "Show this plot in a window of its own, as large as you drag it";
                if ui.small_button("Enlarge plot").on_hover_text(hover).clicked() {
                    *open = true;
                }
                let title = egui::RichText::new(&fig.title).strong();
                ui.add(egui::Label::new(title).truncate()).on_hover_text(&fig.title);
            });
            let title = if fig.title.is_empty() { id.to_string() } else { fig.title.clone() };
            egui::Window::new(title)
                .id(egui::Id::unique(("enlarged plot", id)))
                .open(open)
                .default_size([900.0, 560.0])
                .resizable(true)
                .collapsible(false)
                .show(ui.ctx(), |ui| {
                    let height = (ui.available_height() - 70.0).clamp(200.0, 2000.0);
                    draw_figure(ui, &format!("{id} window"), given, height, log, None);
                });
        }
        None => {
            ui.label(egui::RichText::new(&fig.title).strong());
        }
    }
}

/// The plot's axes as the exported figure has them: categories, named ticks or whole numbers
/// along x; a heatmap's rows, or log ticks, along y.
fn with_axes(mut plot: Plot<'static>, fig: &Figure, log: bool) -> Plot<'static> {
    let categories: Vec<String> = match &fig.data {
        FigureData::StackedBars { categories, .. } => categories.clone(),
        FigureData::Boxes(b) => b.iter().map(|b| b.name.clone()).collect(),
        // Faceted heatmaps repeat the columns for each panel, a blank column between.
        FigureData::Heatmap { columns, panels, .. } => (0..panels.len())
            .flat_map(|k| columns.iter().cloned().chain((k + 1 < panels.len()).then(String::new)))
            .collect(),
        _ => Vec::new(),
    };
    let rows: Vec<String> = match &fig.data {
        FigureData::Heatmap { rows, .. } => rows.clone(),
        _ => Vec::new(),
    };
    let counts = categories.is_empty()
        && fig.marks.x_ticks.is_empty()
        && matches!(&fig.data, FigureData::Lines(series) if crate::plot::whole_x(series));
    if !categories.is_empty() {
        plot = plot.x_axis_formatter(move |mark, _| category_label(&categories, mark.value));
    } else if !fig.marks.x_ticks.is_empty() {
        // Ticks named by the figure (the accuracy study's budgets on a log2 axis: "64",
        // "2 ms"), at their places only, as the exported figure has them.
        let ticks = fig.marks.x_ticks.clone();
        let places: Vec<f64> = ticks.iter().map(|t| t.0).collect();
        plot = plot
            .x_grid_spacer(move |_| places.iter().map(|&value| GridMark { value, step_size: 1.0 }).collect())
            .x_axis_formatter(move |mark, _| {
                ticks.iter().find(|t| (t.0 - mark.value).abs() < 1e-9).map(|t| t.1.clone()).unwrap_or_default()
            });
    }
    if counts {
        // Counts (games, depths) get whole-number ticks, as in the exported figure: a run of
        // two games had its x axis marked 1.1, 1.2, ... 1.9.
        plot = plot.x_grid_spacer(whole_marks);
    }
    if !rows.is_empty() {
        plot = plot.y_axis_formatter(move |mark, _| category_label(&rows, mark.value));
    } else if log {
        // The exported figure's log ticks and labels (round data values), not egui's marks
        // at even steps of the exponent (10^2.5 read "316.228").
        plot = plot
            .y_grid_spacer(|input| {
                let (ticks, _) = ticks::log_axis(input.bounds.0, input.bounds.1);
                let step = (input.bounds.1 - input.bounds.0) / ticks.len().max(1) as f64;
                ticks.into_iter().map(|value| GridMark { value, step_size: step }).collect()
            })
            .y_axis_formatter(|mark, range| {
                let (ticks, labels) = ticks::log_axis(*range.start(), *range.end());
                ticks.iter().position(|t| (t - mark.value).abs() < 1e-9).map(|i| labels[i].clone()).unwrap_or_default()
            });
    }
    plot
}

/// egui_plot's grid marks on whole numbers only.
fn whole_marks(input: egui_plot::GridInput) -> Vec<GridMark> {
    let marks = egui_plot::log_grid_spacer(10)(input);
    marks.into_iter().filter(|m| m.step_size >= 1.0 && m.value.fract() == 0.0).collect()
}

/// A figure's legend as a row above the plot: a short line (or a shaded block) in each
/// entry's colour, then its name.
fn legend_row(ui: &mut egui::Ui, entries: &[LegendEntry]) {
    ui.horizontal_wrapped(|ui| {
        for e in entries {
            // Long enough for two periods of a pattern either side of the marker (at 18 a
            // dashed line's entry read as a solid one).
            let (rect, _) = ui.allocate_exact_size(egui::vec2(30.0, 12.0), egui::Sense::hover());
            let c = ink(e.colour, ui.visuals());
            let (from, to) = (rect.left_center(), rect.right_center());
            match (e.shaded, e.pattern) {
                (true, _) => {
                    ui.painter().rect_filled(rect.shrink2(egui::vec2(1.0, 1.0)), 1.0, band(c));
                }
                (false, None) => {
                    ui.painter().line_segment([from, to], egui::Stroke::new(2.5, c));
                }
                (false, Some((dash, gap))) => {
                    ui.painter().extend(egui::Shape::dashed_line(
                        &[from, to],
                        egui::Stroke::new(2.5, c),
                        // Half the line's scale, dots no smaller than the stroke.
                        (dash as f32 * 0.5).max(2.5),
                        (gap as f32 * 0.5).max(2.0),
                    ));
                }
            }
            if let Some(m) = e.marker {
                paint_marker(ui.painter(), m, rect.center(), 3.5, c);
            }
            ui.label(&e.name);
            ui.add_space(8.0);
        }
    });
}

/// The figure's data in the plot, in the figure's colours.
fn draw_data(p: &mut PlotUi<'_>, data: &FigureData, top: Option<f64>) {
    match data {
        FigureData::Lines(series) => draw_lines(p, series, top.unwrap_or(f64::INFINITY)),
        FigureData::StackedBars { categories, stacks } => {
            let mut charts: Vec<BarChart> = Vec::new();
            for (i, (part, values)) in stacks.iter().enumerate() {
                let c = colour(if stacks.len() == 3 { palette::OUTCOME[i] } else { palette::series(i) });
                let bars = (0..categories.len()).map(|k| Bar::new(k as f64, values[k]).width(0.76)).collect();
                let refs: Vec<&BarChart> = charts.iter().collect();
                let chart = BarChart::new(part.clone(), bars).color(c).stack_on(&refs);
                charts.push(chart);
            }
            for c in charts {
                p.bar_chart(c);
            }
        }
        FigureData::Pies(pies) => {
            // Pies as one stacked bar per group (shares), which reads as well on screen.
            for i in 0..pies.first().map_or(0, |p| p.1.len()) {
                let c = colour(palette::OUTCOME.get(i).copied().unwrap_or(palette::series(i)));
                let bars = pies
                    .iter()
                    .enumerate()
                    .map(|(k, (_, slices))| {
                        let total: f64 = slices.iter().map(|s| s.1).sum();
                        let below: f64 = slices[..i].iter().map(|s| s.1).sum();
                        Bar::new(k as f64, slices[i].1 / total.max(1e-12))
                            .base_offset(below / total.max(1e-12))
                            .width(0.6)
                    })
                    .collect();
                p.bar_chart(BarChart::new(pies[0].1[i].0.clone(), bars).color(c));
            }
        }
        FigureData::Heatmap { columns, rows, panels, boundary } => {
            draw_heatmap(p, columns.len(), rows.len(), panels, *boundary)
        }
        FigureData::Boxes(boxes) => {
            let elems = boxes
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    BoxElem::new(i as f64, BoxSpread::new(b.whisker_low, b.q1, b.median, b.q3, b.whisker_high))
                        .name(&b.name)
                })
                .collect();
            p.box_plot(BoxPlot::new("per move", elems).color(colour(palette::series(0))));
        }
        FigureData::Histogram { edges, counts } => {
            let bars = counts
                .iter()
                .enumerate()
                .map(|(i, &n)| Bar::new((edges[i] + edges[i + 1]) / 2.0, n as f64).width(edges[i + 1] - edges[i]))
                .collect();
            p.bar_chart(BarChart::new("games", bars).color(colour(palette::series(0))));
        }
    }
}

/// A 95% band's fill: its line's colour, faint.
fn band(c: Color32) -> Color32 {
    c.gamma_multiply(0.25)
}

/// Each series as a line with its points (in its marker) and its 95% band; a reference line
/// dashed and named at its right end, or named under `top` when it lies above it.
fn draw_lines(p: &mut PlotUi<'_>, series: &[Series], top: f64) {
    let looks = series_looks(series);
    let visuals = p.ctx().global_style().visuals.clone();
    // Every band (a filled area: a band is rarely convex, so not a polygon) before the lines,
    // so that no line is drawn under another's band.
    for (s, look) in series.iter().zip(&looks).filter(|(s, _)| !s.reference) {
        let banded: Vec<_> = s.points.iter().filter_map(|q| q.band.map(|b| (q.x, b))).collect();
        if banded.len() >= 2 {
            let xs: Vec<f64> = banded.iter().map(|b| b.0).collect();
            let lo: Vec<f64> = banded.iter().map(|b| b.1.0).collect();
            let hi: Vec<f64> = banded.iter().map(|b| b.1.1).collect();
            let fill = band(ink(look.colour, &visuals));
            p.add(
                FilledArea::new(format!("{} 95%", s.name), &xs, &lo, &hi).fill_color(fill).stroke(egui::Stroke::NONE),
            );
        }
    }
    for (s, look) in series.iter().zip(&looks) {
        let c = ink(look.colour, &visuals);
        if s.reference {
            let (Some(first), Some(last)) = (s.points.first(), s.points.last()) else { continue };
            let above = first.y > top;
            let (at, anchor) = if above {
                (PlotPoint::new(first.x, top), egui::Align2::LEFT_TOP)
            } else {
                let pts: Vec<[f64; 2]> = s.points.iter().map(|q| [q.x, q.y]).collect();
                p.line(
                    Line::new(s.name.clone(), PlotPoints::from(pts))
                        .color(c)
                        .width(1.5)
                        .style(LineStyle::dashed_loose()),
                );
                (PlotPoint::new(last.x, last.y), egui::Align2::RIGHT_BOTTOM)
            };
            // At the body size: egui_plot's small default read as a footnote.
            let label = egui::RichText::new(reference_label(s, above)).size(14.0).color(c);
            p.text(Text::new(s.name.clone(), at, label).anchor(anchor));
            continue;
        }
        let pts: Vec<[f64; 2]> = s.points.iter().map(|q| [q.x, q.y]).collect();
        let style = match s.pattern() {
            None => LineStyle::Solid,
            Some((dash, gap)) if dash <= gap => LineStyle::Dotted { spacing: gap as f32 + 2.0 },
            Some((dash, _)) => LineStyle::Dashed { length: dash as f32 },
        };
        p.line(Line::new(s.name.clone(), PlotPoints::from(pts.clone())).color(c).width(2.0).style(style));
        if !s.level {
            let points = Points::new(s.name.clone(), PlotPoints::from(pts)).color(c).radius(3.5);
            p.points(points.shape(marker_shape(look.marker)).filled(true));
        }
    }
}

/// egui_plot's shape for a figure's marker.
fn marker_shape(m: Marker) -> MarkerShape {
    match m {
        Marker::Circle => MarkerShape::Circle,
        Marker::Square => MarkerShape::Square,
        Marker::Up => MarkerShape::Up,
        Marker::Diamond => MarkerShape::Diamond,
        Marker::Down => MarkerShape::Down,
        Marker::Left => MarkerShape::Left,
        Marker::Right => MarkerShape::Right,
        Marker::Cross => MarkerShape::Cross,
    }
}

/// A marker in a legend swatch, centred at `c`, `r` points in radius.
fn paint_marker(painter: &egui::Painter, m: Marker, c: egui::Pos2, r: f32, colour: Color32) {
    match m.outline() {
        Some(outline) => {
            let pts = outline.into_iter().map(|(x, y)| c + egui::vec2(x as f32, y as f32) * r).collect();
            painter.add(egui::Shape::convex_polygon(pts, colour, egui::Stroke::NONE));
        }
        None if m == Marker::Cross => {
            let s = egui::Stroke::new(2.0, colour);
            painter.line_segment([c + egui::vec2(-r, -r), c + egui::vec2(r, r)], s);
            painter.line_segment([c + egui::vec2(-r, r), c + egui::vec2(r, -r)], s);
        }
        None => {
            painter.circle_filled(c, r, colour);
        }
    }
}

/// Heatmap panels side by side, a column apart, each titled with its facet value; the
/// boundary drawn over the cells.
fn draw_heatmap(p: &mut PlotUi<'_>, columns: usize, rows: usize, panels: &[HeatPanel], boundary: Option<f64>) {
    let all: Vec<Vec<Option<f64>>> = panels.iter().flat_map(|p| p.values.iter().cloned()).collect();
    let (lo, hi) = heat_range(&all);
    let stride = (columns + 1) as f64;
    for (k, panel) in panels.iter().enumerate() {
        let offset = k as f64 * stride;
        if !panel.label.is_empty() {
            let centre = offset + (columns as f64 - 1.0) / 2.0;
            p.text(Text::new("panels", PlotPoint::new(centre, rows as f64 - 0.2), panel.label.clone()));
        }
        for (r, row) in panel.values.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let Some(v) = v else { continue };
                let rgb = palette::viridis((v - lo) / (hi - lo));
                let (x, y) = (offset + c as f64, r as f64);
                let cell = vec![[x - 0.5, y - 0.5], [x + 0.5, y - 0.5], [x + 0.5, y + 0.5], [x - 0.5, y + 0.5]];
                p.polygon(
                    Polygon::new("cells", PlotPoints::from(cell)).fill_color(colour(rgb)).stroke(egui::Stroke::NONE),
                );
                p.text(
                    Text::new("values", PlotPoint::new(x, y), format!("{:.2}", v)).color(colour(palette::text_on(rgb))),
                );
            }
        }
        if let Some(level) = boundary {
            for (a, b) in crate::plot::boundary_segments(&panel.values, level) {
                let pts = vec![[offset + a.0, a.1], [offset + b.0, b.1]];
                p.line(Line::new("boundary", PlotPoints::from(pts)).color(Color32::RED).width(3.0));
            }
        }
    }
}

/// What an export thread sends back: the files written, or why not.
type ExportResult = Result<Vec<PathBuf>, crate::plot::ExportError>;

/// A figure an exporter wrote: its title and the run it came from.
#[derive(Clone, Debug, PartialEq)]
struct Written {
    title: String,
    source: Option<PathBuf>,
}

/// The export row under a plot: a path (SVG, PNG or PDF by extension), the DPI, a button.
/// Exports run on their own thread; the CSV goes beside the figure.
pub struct Exporter {
    pub path: String,
    pub dpi: f64,
    /// Title and axis labels replacing the figure's own (empty: keep them), both on screen
    /// and in the file.
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Whether the file carries the title. Off by default: a paper sets its own caption under
    /// the figure, and a title drawn in it reads as the workbench's words ("score of ... so
    /// far"). Typing a title turns it on.
    pub title_in_file: bool,
    /// A log10 y axis (lines and box plots), on screen and in the file.
    pub log_y: bool,
    pub message: Option<String>,
    /// The run the figures come from (see [`Exporter::follow`]); None outside the matchup tab.
    source: Option<PathBuf>,
    /// The export running, and what its figure is (see `written`).
    pending: Option<(Receiver<ExportResult>, Written)>,
    /// The files this exporter wrote in this session, with the figure in them (its title and
    /// the run it came from): exporting the same figure of the same run to them again replaces
    /// them without asking (the user's own figure, made again); another figure, or the same
    /// plot of another run, asks first (a path typed back to the first run's folder once
    /// replaced its figure with the second run's data).
    written: Vec<(PathBuf, Written)>,
    /// A figure waiting for the user's yes to replace a file this session did not write, and
    /// the path asked about.
    replace: Option<(String, Figure)>,
}

impl Exporter {
    pub fn new(path: &str) -> Exporter {
        Exporter {
            path: path.into(),
            dpi: 150.0,
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            title_in_file: false,
            log_y: false,
            message: None,
            source: None,
            pending: None,
            written: Vec::new(),
            replace: None,
        }
    }

    /// No run is shown: nothing to export from, nothing said of the last export.
    pub fn forget(&mut self) {
        self.source = None;
        self.replace = None;
        self.message = None;
    }

    /// The export path proposed in `dir`, under the same file name, with no run shown yet
    /// (the run folder restored from the last session: the path still named out/workbench).
    pub fn propose_in(&mut self, dir: &std::path::Path) {
        let name = PathBuf::from(&self.path).file_name().map_or_else(|| "figure.svg".into(), |n| n.to_owned());
        self.path = dir.join(name).display().to_string();
    }

    /// Exports go to `dir` from now on (the run shown), under the same file name.
    pub fn follow(&mut self, dir: &std::path::Path) {
        self.propose_in(dir);
        self.source = Some(dir.to_path_buf());
        self.replace = None;
        // "wrote ..." named the last run's files: under the new path it read as this run's.
        self.message = None;
    }

    /// What `fig` is, for `written`.
    fn what(&self, fig: &Figure) -> Written {
        Written { title: fig.title.clone(), source: self.source.clone() }
    }

    /// Exports are named `stem` from now on (the plot shown), in the same folder and format.
    pub fn name_for(&mut self, stem: &str) {
        let p = PathBuf::from(&self.path);
        let ext = p.extension().map_or_else(|| "svg".to_string(), |e| e.to_string_lossy().into_owned());
        self.path = p.with_file_name(format!("{stem}.{ext}")).display().to_string();
        self.replace = None;
        // The row speaks of the plot shown: "wrote .../nodes.svg" under the time plot read as
        // that plot's export.
        self.message = None;
    }

    /// Exports `fig`, unless that would replace a file this session did not write (a run's
    /// figure exported before, another program's file): then it asks first.
    pub fn export_or_ask(&mut self, fig: &Figure) {
        let path = PathBuf::from(&self.path);
        let csv = path.with_extension("csv");
        // A file is replaced without a question when this exporter wrote it for this figure
        // (the figure made again), or, for the CSV, when it holds the same numbers (nodes.pdf
        // after nodes.svg writes the same nodes.csv).
        let ours = |p: &PathBuf| self.written.iter().any(|(q, w)| q == p && *w == self.what(fig));
        let check = if ours(&path) { Ok(()) } else { crate::io::check_output(&path, false) }.and_then(|_| {
            if ours(&csv) { Ok(()) } else { crate::io::check_replace(&csv, fig.to_csv().as_bytes(), false) }
        });
        match check {
            Err(crate::io::OutputError::Exists { path: existing }) => {
                self.message = Some(format!("{} exists: Replace it, or change the path", existing.display()));
                self.replace = Some((self.path.clone(), fig.clone()));
            }
            Err(e @ crate::io::OutputError::RunFile { .. }) => self.message = Some(e.to_string()),
            _ => self.export(fig),
        }
    }

    /// The figure with the edited title and labels.
    pub fn labelled(&self, mut fig: Figure) -> Figure {
        for (edited, field) in
            [(&self.title, &mut fig.title), (&self.x_label, &mut fig.x_label), (&self.y_label, &mut fig.y_label)]
        {
            if !edited.trim().is_empty() {
                *field = edited.clone();
            }
        }
        fig
    }

    /// Starts writing `fig` to the path.
    pub fn export(&mut self, fig: &Figure) {
        let (tx, rx) = unbounded();
        let what = self.what(fig);
        let mut fig = fig.clone();
        if !self.title_in_file {
            fig.title.clear();
        }
        let (path, dpi, log_y) = (PathBuf::from(&self.path), self.dpi, self.log_y);
        std::thread::spawn(move || {
            let opts = ExportOptions { dpi, log_y, ..ExportOptions::default() };
            // The workbench's own figures folder (out/...) is created on first export, as a
            // run creates its folder; the CLI names a missing folder as an error instead.
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = tx.send(export_figure(&fig, &path, &opts));
        });
        self.pending = Some((rx, what));
        self.message = Some("exporting...".into());
    }

    /// Collects a finished export; true while one is running.
    pub fn poll(&mut self) -> bool {
        if let Some((rx, what)) = &self.pending
            && let Ok(r) = rx.try_recv()
        {
            let what = what.clone();
            self.message = Some(match r {
                Ok(paths) => {
                    self.written.extend(paths.iter().map(|p| (p.clone(), what.clone())));
                    let files = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
                    if self.title_in_file {
                        format!("wrote {files}")
                    } else {
                        format!("wrote {files}, without a title (see Title and labels)")
                    }
                }
                Err(e) => e.to_string(),
            });
            self.pending = None;
        }
        self.pending.is_some()
    }

    /// Collects a finished export and keeps the frames coming while one runs: called each
    /// frame whether the export row shows or not (in a menu, closed, the message stayed
    /// "exporting...").
    pub fn tick(&mut self, ui: &egui::Ui) {
        if self.poll() {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(50));
        }
    }

    /// The export row in a menu, for a plot in a short tab: its button, "Export...", goes in
    /// the plot's title row. The menu stays open while its fields are edited and after the
    /// export, with the message in it.
    pub fn show_in_menu(&mut self, ui: &mut egui::Ui, id: &str, fig: Option<&Figure>) {
        use egui::containers::menu::{MenuButton, MenuConfig};
        self.tick(ui);
        let config = MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
        let (button, _) = MenuButton::new("Export...").config(config).ui(ui, |ui| {
            ui.set_min_width(520.0);
            self.show(ui, id, fig);
        });
        button.on_hover_text(format!("Export the {id} to SVG, PNG or PDF, with its data as CSV"));
    }

    pub fn show(&mut self, ui: &mut egui::Ui, id: &str, fig: Option<&Figure>) {
        self.tick(ui);
        ui.horizontal_wrapped(|ui| {
            let l = ui.label(format!("Export {id} to"));
            ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(200.0)).labelled_by(l.id);
            // A log scale only where every value is positive: a signed one (the review's
            // -1..1) has no log.
            if fig.is_none_or(|f| f.y_range.is_none_or(|(lo, _)| lo >= 0.0)) {
                ui.checkbox(&mut self.log_y, format!("log y {id}"));
            } else {
                self.log_y = false;
            }
            let l = ui.label("dpi");
            ui.add(egui::DragValue::new(&mut self.dpi).range(30.0..=1200.0)).labelled_by(l.id);
            if ui.add_enabled(fig.is_some(), egui::Button::new(format!("Export {id}"))).clicked()
                && let Some(f) = fig
            {
                self.export_or_ask(f);
            }
            if let Some((asked, f)) = self.replace.clone() {
                if ui.button(format!("Replace {id}")).clicked() {
                    self.replace = None;
                    // The path edited since the question: that one is asked about afresh.
                    if asked == self.path { self.export(&f) } else { self.export_or_ask(&f) }
                }
                if ui.button(format!("Keep {id}")).clicked() {
                    self.replace = None;
                    self.message = Some("not exported: the file is kept".into());
                }
            }
        });
        // Its own reserved line: a notice that wrapped inside the row above pushed the plot down.
        super::lines::reserved_line(ui, self.message.as_deref(), super::lines::Tone::Plain);
        egui::CollapsingHeader::new(format!("Title and labels {id}")).default_open(false).show(ui, |ui| {
            ui.checkbox(&mut self.title_in_file, format!("title in the file {id}")).on_hover_text(
                "Draw the title in the exported figure. Off: the figure has axes and legend only, \
                 for a paper that sets its own caption under it.",
            );
            let mut typed = false;
            for (label, text) in
                [("title", &mut self.title), ("x label", &mut self.x_label), ("y label", &mut self.y_label)]
            {
                ui.horizontal(|ui| {
                    let l = ui.label(format!("{label} {id}"));
                    let edit = ui
                        .add(egui::TextEdit::singleline(text).desired_width(260.0).hint_text("as generated"))
                        .labelled_by(l.id);
                    typed |= label == "title" && edit.changed();
                });
            }
            // A title typed is a title wanted in the file.
            if typed && !self.title.trim().is_empty() {
                self.title_in_file = true;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    /// A run of two games is marked 1 and 2 on its x axis, not 1.1 ... 1.9; a long run keeps
    /// round marks.
    #[test]
    fn a_count_axis_has_whole_marks() {
        let marks = |lo, hi, step| {
            let input = egui_plot::GridInput { bounds: (lo, hi), base_step_size: step };
            let mut v: Vec<f64> = super::whole_marks(input).iter().map(|m| m.value).collect();
            v.sort_by(f64::total_cmp);
            v.dedup();
            v
        };
        assert_eq!(marks(0.95, 2.05, 0.005), vec![1.0, 2.0]);
        let long = marks(-5.0, 205.0, 1.5);
        assert!(long.contains(&100.0) && long.iter().all(|v| v.fract() == 0.0), "{long:?}");
    }

    use super::*;

    fn figure(title: &str) -> Figure {
        let mut f = crate::plot::live::cumulative_score(&[], 0);
        f.title = title.into();
        f
    }

    /// Waits for the export running to finish.
    fn finish(e: &mut Exporter) {
        while e.poll() {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// An exported figure carries no title unless asked: a paper sets its caption under it,
    /// and the workbench's title read as UI text there. Ticking the box draws it.
    #[test]
    fn an_export_draws_the_title_only_when_asked() {
        let dir = std::env::temp_dir().join(format!("mnklab-exporter-title-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let fig = figure("Cumulative score of strong-ab");
        let mut e = Exporter::new(&dir.join("plain.svg").display().to_string());
        e.export_or_ask(&fig);
        finish(&mut e);
        assert!(e.message.as_deref().is_some_and(|m| m.contains("without a title")), "{:?}", e.message);
        let plain = std::fs::read_to_string(dir.join("plain.svg")).expect("written");
        assert!(!plain.contains("Cumulative score"), "no title drawn");
        assert!(plain.contains(&fig.y_label), "the axes are drawn");
        e.title_in_file = true;
        e.name_for("titled");
        e.export_or_ask(&fig);
        finish(&mut e);
        let titled = std::fs::read_to_string(dir.join("titled.svg")).expect("written");
        assert!(titled.contains("Cumulative score of strong-ab"), "the title drawn when asked");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Following a new run forgets "wrote ..." of the last one: under the new path it read as
    /// this run's files.
    #[test]
    fn a_new_run_forgets_the_last_runs_export_message() {
        let mut e = Exporter::new("out/run/score.svg");
        e.message = Some("wrote out/run/score.svg, out/run/score.csv".into());
        e.follow(std::path::Path::new("out/run-2"));
        assert_eq!((e.path.as_str(), e.message.as_ref()), ("out/run-2/score.svg", None));
    }

    /// Each plot exports to its own name; the exporter's own file is replaced without a
    /// question only by the same figure made again: another figure at that path asks first
    /// (a nodes figure once replaced the score figure of the same run silently).
    #[test]
    fn another_figure_never_replaces_an_export_silently() {
        let dir = std::env::temp_dir().join(format!("mnklab-exporter-{}", std::process::id()));
        let mut e = Exporter::new(&dir.join("score.svg").display().to_string());
        e.export_or_ask(&figure("score"));
        finish(&mut e);
        assert!(e.message.as_deref().is_some_and(|m| m.starts_with("wrote")), "{:?}", e.message);
        e.export_or_ask(&figure("score"));
        finish(&mut e);
        assert!(e.message.as_deref().is_some_and(|m| m.starts_with("wrote")), "the same figure again: {:?}", e.message);
        e.export_or_ask(&figure("nodes per move"));
        assert!(e.message.as_deref().is_some_and(|m| m.contains("exists")), "asked: {:?}", e.message);
        assert!(e.pending.is_none(), "nothing written");
        e.name_for("nodes");
        assert_eq!(PathBuf::from(&e.path), dir.join("nodes.svg"));
        assert_eq!(e.message, None, "the score plot's question is not the nodes plot's");
        e.export_or_ask(&figure("nodes per move"));
        finish(&mut e);
        assert!(dir.join("nodes.svg").is_file() && dir.join("score.svg").is_file());
        // The same figure as a PDF: its CSV is the one just written, replaced without a
        // question (it asked to replace "its own" nodes.csv).
        e.path = dir.join("nodes.pdf").display().to_string();
        e.export_or_ask(&figure("nodes per move"));
        finish(&mut e);
        assert!(e.message.as_deref().is_some_and(|m| m.starts_with("wrote")), "{:?}", e.message);
        assert!(dir.join("nodes.pdf").is_file());
        // The same plot of another run, typed back to the first export's path, asks first.
        e.follow(&dir.join("run-2"));
        e.path = dir.join("score.svg").display().to_string();
        e.message = None;
        e.export_or_ask(&figure("score"));
        assert!(e.message.as_deref().is_some_and(|m| m.contains("exists")), "another run's score: {:?}", e.message);
        assert!(e.pending.is_none(), "nothing written");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_axis_label_is_whole_or_left_out() {
        let label = "mean nodes or MCTS iterations per move";
        assert_eq!(super::whole_or_nothing(label, 100), label);
        assert_eq!(super::whole_or_nothing(label, 14), "");
    }
}
