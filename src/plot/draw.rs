//! Each kind of figure drawn on a plotters area: lines, stacked bars, pies, heatmaps (with
//! facets and a boundary), box plots, histograms.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{
    Axis, DrawError, Grid, Mark, Sizes, axes, draw_legend, legend_room, mesh, padded, rgb, text_extent, titled,
};
use super::export::ExportOptions;
use super::{
    BoxStats, Figure, FigureData, HeatPanel, SeriesLook, heat_range, line_legend, log_y, palette, reference_label,
    series_looks, ticks,
};

/// How strongly a 95% band (and its legend swatch) shows its line's colour.
const BAND_ALPHA: f64 = 0.14;

/// The figure as drawn: on a log scale if asked.
pub(super) fn scaled(fig: &Figure, opts: &ExportOptions) -> Figure {
    if opts.log_y { log_y(fig) } else { fig.clone() }
}

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    s: f64,
    opts: &ExportOptions,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let z = Sizes::new(s, opts.font_pt);
    root.fill(&WHITE)?;
    match &fig.data {
        FigureData::Lines(series) => draw_lines(root, fig, series, &z, opts),
        FigureData::StackedBars { categories, stacks } => draw_bars(root, fig, categories, stacks, &z),
        FigureData::Pies(pies) => draw_pies(root, fig, pies, &z),
        FigureData::Heatmap { columns, rows, panels, boundary } => {
            draw_heatmap(root, fig, columns, rows, panels, *boundary, &z)
        }
        FigureData::Boxes(boxes) => draw_boxes(root, fig, boxes, &z, opts.log_y),
        FigureData::Histogram { edges, counts } => draw_histogram(root, fig, edges, counts, &z),
    }
}

/// A band's colour as it shows over the white page, for its legend swatch.
fn on_white(c: [u8; 3]) -> RGBColor {
    let [r, g, b] = c.map(|v| (BAND_ALPHA * v as f64 + (1.0 - BAND_ALPHA) * 255.0).round() as u8);
    RGBColor(r, g, b)
}

fn stroke(z: &Sizes, c: RGBColor, w: f64) -> ShapeStyle {
    ShapeStyle { color: c.to_rgba(), filled: false, stroke_width: z.px(w).max(1) }
}

fn draw_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    series: &[super::Series],
    z: &Sizes,
    opts: &ExportOptions,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let (mut x, y) = line_axes(fig, series, opts);
    let marks = &fig.marks;
    let looks = series_looks(series);
    let entries = line_entries(series, marks, opts);
    let titled = titled(root, &fig.title, z)?;
    let panels = super::line_panels(series);
    // Panels take the whole width; their legend goes under them.
    let (plot, legend) = legend_room(&titled, &entries, z, !panels.is_empty());
    if panels.is_empty() {
        let mut chart = axes(&plot, "", z, &mut x, &y, true, true)?;
        mesh(&mut chart, fig, z, &x, &y, Grid::Both)?;
        // Under the lines, so that a bar never hides a point.
        let emphasis = rgb(palette::EMPHASIS);
        let bars = marks.bars.iter().map(|&(bx, v)| {
            Rectangle::new(
                [(bx - 0.3, marks.bar_base), (bx + 0.3, marks.bar_base + marks.bar_scale.height(v))],
                emphasis.mix(BAND_ALPHA * 2.0).filled(),
            )
        });
        chart.draw_series(bars)?;
        draw_series_lines(&mut chart, series.iter().zip(&looks), z, opts, y.range.end)?;
        draw_labels(&mut chart, marks, z)?;
    } else {
        // One panel a value (a board), in a grid two wide for two and four panels, three wide
        // otherwise (three panels in one row: two wide left a quarter empty), each with the
        // shared axes and its name as its title; a line keeps its colour in each.
        let (rows, cols) = super::panel_grid(panels.len());
        // The x title once, under the grid; the y title on the left column's panels only.
        let (title_w, title_h) = text_extent(&plot, std::slice::from_ref(&fig.x_label), &z.font(z.axis));
        let (grid, foot) = plot.split_vertically(plot.dim_in_pixel().1.saturating_sub(title_h + z.px(8.0)));
        let centred = (foot.dim_in_pixel().0.saturating_sub(title_w) / 2) as i32;
        foot.draw_text(&fig.x_label, &TextStyle::from(z.font(z.axis)), (centred, z.px(2.0) as i32))?;
        for (i, (area, name)) in grid.split_evenly((rows, cols)).iter().zip(&panels).enumerate() {
            let left = i % cols == 0;
            let titles = Figure {
                x_label: String::new(),
                y_label: if left { fig.y_label.clone() } else { String::new() },
                ..fig.clone()
            };
            // One x axis for all: the first panel, the narrowest (it carries the y title),
            // thins or shrinks the tick labels, and every panel keeps its choice (each chose
            // its own, and the panels' ticks differed in size).
            let mut chart = axes(area, name, z, &mut x, &y, left, false)?;
            mesh(&mut chart, &titles, z, &x, &y, Grid::Both)?;
            let here = series.iter().zip(&looks).filter(|(s, _)| &s.panel == name);
            draw_series_lines(&mut chart, here, z, opts, y.range.end)?;
        }
    }
    if let Some((area, column)) = legend {
        draw_legend(&area, column, &entries, z)?;
    }
    Ok(())
}

/// The x and y axes of a line figure: over the data, its bands and its marks, with the
/// figure's ticks and y range where it sets them.
fn line_axes(fig: &Figure, series: &[super::Series], opts: &ExportOptions) -> (Axis, Axis) {
    // Whole-number x data (depths, board sizes, K) gets whole-number ticks, every value kept.
    let whole = super::whole_x(series);
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in series.iter().flat_map(|s| &s.points) {
        x0 = x0.min(p.x);
        x1 = x1.max(p.x);
    }
    let (mut y0, mut y1) = super::line_y_extent(series, opts.bands).unwrap_or((f64::INFINITY, f64::NEG_INFINITY));
    let marks = &fig.marks;
    let x = if marks.x_ticks.is_empty() {
        Axis::numeric(padded(x0, x1), whole, 8)
    } else {
        let (ticks, labels) = marks.x_ticks.iter().cloned().unzip();
        Axis { range: padded(x0, x1), ticks, labels, tick_scale: 1.0, fitted: false }
    };
    for l in marks.points.iter().chain(&marks.notes) {
        y0 = y0.min(l.y);
        y1 = y1.max(l.y);
    }
    let y = match fig.y_range {
        _ if opts.log_y => Axis::log(padded(y0, y1)),
        Some((lo, hi)) if !marks.y_ticks.is_empty() => {
            // Room above the top for the marks' labels.
            let top = if marks.points.is_empty() { hi } else { hi + 0.3 * (hi - lo) / 2.0 };
            let (ticks, labels) = marks.y_ticks.iter().cloned().unzip();
            Axis { range: lo.min(y0)..top.max(y1), ticks, labels, tick_scale: 1.0, fitted: false }
        }
        Some((lo, hi)) => Axis::numeric(lo.min(y0)..hi.max(y1), false, 6),
        None => Axis::numeric(padded(y0, y1), false, 6),
    };
    (x, y)
}

/// The legend's entries: each line (or shaded band), then the marks' points and bars.
fn line_entries(series: &[super::Series], marks: &super::Marks, opts: &ExportOptions) -> Vec<(String, Mark)> {
    let mut entries: Vec<(String, Mark)> = line_legend(series, opts.bands)
        .into_iter()
        .map(|e| {
            let c = rgb(e.colour);
            (e.name, if e.shaded { Mark::Block(on_white(e.colour)) } else { Mark::Line(c, e.pattern, e.marker) })
        })
        .collect();
    if !marks.points.is_empty() {
        entries.push((marks.points_name.clone(), Mark::Block(rgb(palette::EMPHASIS))));
    }
    if !marks.bars.is_empty() {
        entries.push((marks.bars_name.clone(), Mark::Block(on_white(palette::EMPHASIS))));
    }
    entries
}

/// Lines with their bands (or error bars at a single x) and points, each in its colour and
/// with its marker; a reference line dashed and named at its right end, or only named under
/// the top when it lies above it.
fn draw_series_lines<'s, DB: DrawingBackend>(
    chart: &mut super::chart::Chart<'_, DB>,
    series: impl Iterator<Item = (&'s super::Series, &'s SeriesLook)>,
    z: &Sizes,
    opts: &ExportOptions,
    top: f64,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    // Every band first, then the lines over them: a band drawn after another line muddied it
    // (a pink line under three bands read grey).
    let series: Vec<(&super::Series, &SeriesLook)> = series.collect();
    for &(ser, look) in series.iter().filter(|(s, _)| opts.bands && !s.reference) {
        let c = rgb(look.colour);
        let mut band: Vec<(f64, f64)> = ser.points.iter().filter_map(|p| p.band.map(|b| (p.x, b.1))).collect();
        band.extend(ser.points.iter().rev().filter_map(|p| p.band.map(|b| (p.x, b.0))));
        if band.len() >= 4 {
            chart.draw_series(std::iter::once(Polygon::new(band, c.mix(BAND_ALPHA).filled())))?;
        } else {
            // One x value has no band to fill: its interval is drawn as an error bar.
            let bars = ser.points.iter().filter_map(|p| {
                p.band.map(|(lo, hi)| ErrorBar::new_vertical(p.x, lo, p.y, hi, stroke(z, c, 1.5), z.px(8.0)))
            });
            chart.draw_series(bars)?;
        }
    }
    for (ser, look) in series {
        let c = rgb(look.colour);
        if ser.reference {
            let (Some(first), Some(last)) = (ser.points.first(), ser.points.last()) else { continue };
            let above = first.y > top;
            let font = z.font(z.tick).color(&c);
            let label = if above {
                // Above the axis: named with its value under the top's left end instead of drawn.
                let at = Pos::new(HPos::Left, VPos::Top);
                EmptyElement::at((first.x, top))
                    + Text::new(reference_label(ser, true), (z.px(4.0) as i32, z.px(3.0) as i32), font.pos(at))
            } else {
                let points = ser.points.iter().map(|p| (p.x, p.y));
                let pattern = DashedLineSeries::new(points, z.px(6.0).max(1), z.px(4.0).max(1), stroke(z, c, 1.5));
                chart.draw_series(pattern)?;
                let at = Pos::new(HPos::Right, VPos::Bottom);
                EmptyElement::at((last.x, last.y))
                    + Text::new(reference_label(ser, false), (-(z.px(2.0) as i32), -(z.px(2.0) as i32)), font.pos(at))
            };
            chart.draw_series(std::iter::once(label))?;
            continue;
        }
        let points = ser.points.iter().map(|p| (p.x, p.y));
        match ser.pattern() {
            None => chart.draw_series(LineSeries::new(points, stroke(z, c, 2.0)))?,
            Some((dash, gap)) => chart.draw_series(DashedLineSeries::new(
                points,
                z.px(dash).max(1),
                z.px(gap).max(1),
                stroke(z, c, 2.0),
            ))?,
        };
        for p in ser.points.iter().filter(|_| !ser.level) {
            super::chart::draw_marker(chart.plotting_area(), (p.x, p.y), look.marker, z, c, true)?;
        }
    }
    Ok(())
}

/// The marks' points with their labels above, in bold, and the notes under their points.
fn draw_labels<DB: DrawingBackend>(
    chart: &mut super::chart::Chart<'_, DB>,
    marks: &super::Marks,
    z: &Sizes,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let emphasis = rgb(palette::EMPHASIS);
    chart.draw_series(marks.points.iter().map(|l| Circle::new((l.x, l.y), z.px(5.0), emphasis.filled())))?;
    let bold = z.font(z.tick).style(FontStyle::Bold).color(&emphasis).pos(Pos::new(HPos::Center, VPos::Bottom));
    chart.draw_series(
        marks
            .points
            .iter()
            .map(|l| EmptyElement::at((l.x, l.y)) + Text::new(l.text.clone(), (0, -(z.px(8.0) as i32)), bold.clone())),
    )?;
    let small = z.font(z.tick * 0.8).color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top));
    chart.draw_series(
        marks
            .notes
            .iter()
            .map(|l| EmptyElement::at((l.x, l.y)) + Text::new(l.text.clone(), (0, z.px(6.0) as i32), small.clone())),
    )?;
    Ok(())
}

fn draw_bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    categories: &[String],
    stacks: &[(String, Vec<f64>)],
    z: &Sizes,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let n = categories.len();
    let top = (0..n).map(|c| stacks.iter().map(|s| s.1[c]).sum::<f64>()).fold(0.0, f64::max);
    let counts = stacks.iter().flat_map(|s| &s.1).all(|v| v.fract() == 0.0);
    let colour = |i: usize| rgb(if stacks.len() == 3 { palette::OUTCOME[i] } else { palette::series(i) });
    let entries: Vec<(String, Mark)> =
        stacks.iter().enumerate().map(|(i, (name, _))| (name.clone(), Mark::Block(colour(i)))).collect();
    let titled = titled(root, &fig.title, z)?;
    let (plot, legend) = legend_room(&titled, &entries, z, false);
    let mut x = Axis::categories(categories);
    let y = Axis::numeric(0.0..(top.max(1.0) * 1.05), counts, 6);
    let mut chart = axes(&plot, "", z, &mut x, &y, true, true)?;
    mesh(&mut chart, fig, z, &x, &y, Grid::Horizontal)?;
    let mut base = vec![0.0; n];
    for (i, (_, values)) in stacks.iter().enumerate() {
        let c = colour(i);
        let bars: Vec<_> = (0..n)
            .map(|k| {
                let r =
                    Rectangle::new([(k as f64 - 0.38, base[k]), (k as f64 + 0.38, base[k] + values[k])], c.filled());
                base[k] += values[k];
                r
            })
            .collect();
        chart.draw_series(bars)?;
    }
    if let Some((area, column)) = legend {
        draw_legend(&area, column, &entries, z)?;
    }
    Ok(())
}

fn draw_pies<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    pies: &[(String, Vec<(String, f64)>)],
    z: &Sizes,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let colour = |n: usize, i: usize| if n == 3 { palette::OUTCOME[i] } else { palette::series(i) };
    let entries: Vec<(String, Mark)> = pies.first().map_or(Vec::new(), |(_, slices)| {
        slices.iter().enumerate().map(|(i, (l, _))| (l.clone(), Mark::Block(rgb(colour(slices.len(), i))))).collect()
    });
    let area = titled(root, &fig.title, z)?;
    let (pies_area, legend) = legend_room(&area, &entries, z, false);
    let cols = if pies.len() <= 4 { pies.len().max(1) } else { (pies.len() as f64).sqrt().ceil() as usize };
    let rows = pies.len().div_ceil(cols).max(1);
    for (cell, (group, slices)) in pies_area.split_evenly((rows, cols)).iter().zip(pies) {
        let (cw, ch) = cell.dim_in_pixel();
        let label_h = z.px(z.tick * 1.5) as i32;
        cell.draw(&Text::new(
            group.clone(),
            (cw as i32 / 2, 2),
            z.font(z.tick).color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
        let center = (cw as i32 / 2, label_h + (ch as i32 - label_h) / 2);
        let radius = 0.42 * (cw as f64).min((ch as i32 - label_h) as f64);
        let total: f64 = slices.iter().map(|s| s.1).sum();
        let mut angle = -std::f64::consts::FRAC_PI_2;
        for (i, (_, v)) in slices.iter().enumerate() {
            if *v <= 0.0 || total <= 0.0 {
                continue;
            }
            let sweep = v / total * std::f64::consts::TAU;
            let steps = ((sweep * 40.0).ceil() as usize).max(2);
            let mut poly = vec![center];
            for k in 0..=steps {
                let a = angle + sweep * k as f64 / steps as f64;
                poly.push((center.0 + (radius * a.cos()) as i32, center.1 + (radius * a.sin()) as i32));
            }
            let c = colour(slices.len(), i);
            cell.draw(&Polygon::new(poly, rgb(c).filled()))?;
            if v / total >= 0.05 {
                let mid = angle + sweep / 2.0;
                let at = (center.0 + (0.62 * radius * mid.cos()) as i32, center.1 + (0.62 * radius * mid.sin()) as i32);
                cell.draw(&Text::new(
                    format!("{:.0}%", 100.0 * v / total),
                    at,
                    z.font(z.cell).color(&rgb(palette::text_on(c))).pos(Pos::new(HPos::Center, VPos::Center)),
                ))?;
            }
            angle += sweep;
        }
    }
    if let Some((area, column)) = legend {
        draw_legend(&area, column, &entries, z)?;
    }
    Ok(())
}

/// A cell's value to two decimals; `short`: a rate without its leading zero (".75"), 0 and 1
/// as "0" and "1".
fn cell_text(v: f64, short: bool) -> String {
    let text = format!("{v:.2}");
    match text.as_str() {
        "0.00" if short => "0".into(),
        "1.00" if short => "1".into(),
        t if short => t.trim_start_matches('0').to_string(),
        _ => text,
    }
}

fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    columns: &[String],
    rows: &[String],
    panels: &[HeatPanel],
    boundary: Option<f64>,
    z: &Sizes,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let all: Vec<Vec<Option<f64>>> = panels.iter().flat_map(|p| p.values.iter().cloned()).collect();
    let (lo, hi) = heat_range(&all);
    let area = titled(root, &fig.title, z)?;
    // The colour bar's strip: its tick labels, its title and the bar itself.
    let scale_axis = Axis::numeric(lo..hi, false, 5);
    let (yw, _) = text_extent(&area, &scale_axis.labels, &z.font(z.tick));
    let (_, ah) = text_extent(&area, &["Ag".to_string()], &z.font(z.axis));
    let scale_labels = yw + ah + 3 * z.px(6.0);
    let (w, _) = area.dim_in_pixel();
    let (main, bar) = area.split_horizontally(w.saturating_sub(scale_labels + z.px(36.0)));
    let (nc, nr) = (columns.len(), rows.len());
    let (x, y) = (Axis::categories(columns), Axis::categories(rows));
    let cells = main.split_evenly((1, panels.len().max(1)));
    // Values in the cells where "0.00" fits a cell's width (it ran into its neighbours in
    // narrow panels), at the cell size or down to three quarters of it: the room a column
    // gets is the panel less its y labels and margins (the colour bar is beside the panels).
    let (yw, _) = text_extent(&main, &y.labels, &z.font(z.tick));
    let panel_w = cells.first().map_or(0, |c| c.dim_in_pixel().0) as f64;
    let column_w = (panel_w - yw as f64 - z.px(48.0) as f64) / nc.max(1) as f64;
    // Values in [0, 1] may drop the leading zero (".75", as papers print rates) where "0.75"
    // does not fit even smaller.
    let unit = all.iter().flatten().flatten().all(|v| (0.0..=1.0).contains(v));
    let choices = [(z.cell, false), (z.cell * 0.75, false), (z.cell * 0.75, unit)];
    let cell_style = choices.into_iter().find(|&(size, short)| {
        let widest = if short { ".00" } else { "0.00" };
        let (text_w, _) = text_extent(&main, &[widest.to_string()], &z.font(size));
        (text_w + z.px(4.0)) as f64 <= column_w
    });
    let show_text = nr <= 16 && cell_style.is_some();
    let (cell_font, short) = cell_style.unwrap_or((z.cell, false));
    for (p, (cell, panel)) in cells.iter().zip(panels).enumerate() {
        let mut x = x.clone();
        let mut chart = axes(cell, &panel.label, z, &mut x, &y, p == 0, true)?;
        // Axis titles once: the y title left of the first panel, the x title under the middle
        // one (one under each ran into its neighbours').
        let mut f = fig.clone();
        if p > 0 {
            f.y_label.clear();
        }
        if p != panels.len() / 2 {
            f.x_label.clear();
        }
        mesh(&mut chart, &f, z, &x, &y, Grid::None)?;
        for (r, row) in panel.values.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let Some(v) = v else { continue };
                let colour = palette::viridis((v - lo) / (hi - lo));
                let (cx, cy) = (c as f64, r as f64);
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(cx - 0.5, cy - 0.5), (cx + 0.5, cy + 0.5)],
                    rgb(colour).filled(),
                )))?;
                if show_text {
                    chart.draw_series(std::iter::once(Text::new(
                        cell_text(*v, short),
                        (cx, cy),
                        z.font(cell_font)
                            .color(&rgb(palette::text_on(colour)))
                            .pos(Pos::new(HPos::Center, VPos::Center)),
                    )))?;
                }
            }
        }
        // Over the cells: the line between cells on either side of the boundary value.
        if let Some(level) = boundary {
            let segments = super::boundary_segments(&panel.values, level);
            chart.draw_series(segments.into_iter().map(|(a, b)| PathElement::new(vec![a, b], stroke(z, RED, 3.0))))?;
        }
    }
    draw_colour_bar(&bar, (lo, hi), &scale_axis, scale_labels, &fig.value_label, z)
}

/// The colour bar, drawn by hand: gradient, ticks labelled right-aligned to its left, the
/// rotated title left of them (plotters' own axis let the labels run under the bar).
/// `labels_w` is the room left of the bar for the labels and the title.
fn draw_colour_bar<DB: DrawingBackend>(
    bar: &DrawingArea<DB, Shift>,
    (lo, hi): (f64, f64),
    scale_axis: &Axis,
    labels_w: u32,
    title: &str,
    z: &Sizes,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let (_, bh) = bar.dim_in_pixel();
    let (top, bottom) = (z.px(20.0) as i32, bh as i32 - z.px(z.tick * 4.0) as i32);
    let (x0, x1) = (labels_w as i32, labels_w as i32 + z.px(20.0) as i32);
    let y_of = |v: f64| bottom - (((v - lo) / (hi - lo)) * (bottom - top) as f64).round() as i32;
    let steps = 64;
    for i in 0..steps {
        let (a, b) = (i as f64 / steps as f64, (i + 1) as f64 / steps as f64);
        let colour = palette::viridis((a + b) / 2.0);
        let (ya, yb) = (y_of(lo + a * (hi - lo)), y_of(lo + b * (hi - lo)));
        bar.draw(&Rectangle::new([(x0, yb), (x1, ya)], rgb(colour).filled()))?;
    }
    for (v, label) in scale_axis.ticks.iter().zip(&scale_axis.labels) {
        let y = y_of(*v);
        bar.draw(&PathElement::new(vec![(x0 - z.px(4.0) as i32, y), (x0, y)], stroke(z, BLACK, 1.0)))?;
        bar.draw(&Text::new(
            label.clone(),
            (x0 - z.px(6.0) as i32, y),
            z.font(z.tick).color(&BLACK).pos(Pos::new(HPos::Right, VPos::Center)),
        ))?;
    }
    bar.draw(&Text::new(
        title.to_string(),
        (z.px(4.0) as i32, (top + bottom) / 2),
        z.font(z.axis)
            .transform(plotters::style::FontTransform::Rotate270)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    Ok(())
}

fn draw_boxes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    boxes: &[BoxStats],
    z: &Sizes,
    log: bool,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let lo = boxes.iter().map(|b| b.min).fold(f64::INFINITY, f64::min);
    let hi = boxes.iter().map(|b| b.max).fold(f64::NEG_INFINITY, f64::max);
    let names: Vec<String> = boxes.iter().map(|b| b.name.clone()).collect();
    let mut x = Axis::categories(&names);
    let y = if log { Axis::log(padded(lo, hi)) } else { Axis::numeric(padded(lo, hi), false, 6) };
    let titled = titled(root, &fig.title, z)?;
    let mut chart = axes(&titled, "", z, &mut x, &y, true, true)?;
    mesh(&mut chart, fig, z, &x, &y, Grid::Horizontal)?;
    let c = rgb(palette::series(0));
    for (i, b) in boxes.iter().enumerate() {
        let x = i as f64;
        let line = |p: Vec<(f64, f64)>| PathElement::new(p, stroke(z, BLACK, 1.0));
        chart.draw_series(std::iter::once(Rectangle::new([(x - 0.3, b.q1), (x + 0.3, b.q3)], c.mix(0.35).filled())))?;
        chart
            .draw_series(std::iter::once(Rectangle::new([(x - 0.3, b.q1), (x + 0.3, b.q3)], stroke(z, BLACK, 1.0))))?;
        chart.draw_series([
            PathElement::new(vec![(x - 0.3, b.median), (x + 0.3, b.median)], stroke(z, BLACK, 2.0)),
            line(vec![(x, b.q3), (x, b.whisker_high)]),
            line(vec![(x, b.q1), (x, b.whisker_low)]),
            line(vec![(x - 0.12, b.whisker_high), (x + 0.12, b.whisker_high)]),
            line(vec![(x - 0.12, b.whisker_low), (x + 0.12, b.whisker_low)]),
        ])?;
        // Every point beyond the whiskers, not only the extremes. Many of them (thousands of
        // moves) as faint dots spread across the box's width, so that their density shows
        // instead of a solid bar; the spread is fixed (golden-ratio steps), not random.
        if b.outliers.len() <= 50 {
            chart.draw_series(b.outliers.iter().map(|&v| Circle::new((x, v), z.px(2.5), stroke(z, BLACK, 1.0))))?;
        } else {
            let spread = |i: usize| x + 0.5 * ((i as f64 * 0.618_033_988_75).fract() - 0.5);
            chart.draw_series(
                b.outliers
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| Circle::new((spread(i), v), z.px(1.2), BLACK.mix(0.25).filled())),
            )?;
        }
    }
    Ok(())
}

fn draw_histogram<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    edges: &[f64],
    counts: &[u32],
    z: &Sizes,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let top = counts.iter().copied().max().unwrap_or(1) as f64;
    // Ticks on the bin edges, so a bar reads from tick to tick; counts in whole numbers.
    let mut x = Axis::at(edges[0]..edges[edges.len() - 1], ticks::thinned(edges, 10));
    let y = Axis::numeric(0.0..(top * 1.05).max(1.0), true, 6);
    let titled = titled(root, &fig.title, z)?;
    let mut chart = axes(&titled, "", z, &mut x, &y, true, true)?;
    mesh(&mut chart, fig, z, &x, &y, Grid::Horizontal)?;
    let c = rgb(palette::series(0));
    chart.draw_series(
        counts
            .iter()
            .enumerate()
            .map(|(i, &n)| Rectangle::new([(edges[i], 0.0), (edges[i + 1], n as f64)], c.filled())),
    )?;
    chart.draw_series(
        counts
            .iter()
            .enumerate()
            .map(|(i, &n)| Rectangle::new([(edges[i], 0.0), (edges[i + 1], n as f64)], stroke(z, WHITE, 1.0))),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::cell_text;

    #[test]
    fn short_cell_values_drop_the_leading_zero() {
        assert_eq!(cell_text(0.75, false), "0.75");
        assert_eq!(cell_text(0.75, true), ".75");
        assert_eq!(cell_text(0.5, true), ".50");
        assert_eq!((cell_text(0.0, true), cell_text(1.0, true)), ("0".to_string(), "1".to_string()));
        assert_eq!(cell_text(0.999, true), "1");
        assert_eq!(cell_text(0.004, true), "0");
    }
}
