//! The drawing toolkit figures are built with: axes with ticks chosen by [`super::ticks`]
//! (plotters' own key points dropped end values), text sized in real points, titles fitted to
//! the width, legends placed outside the axes.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::FontDesc;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::export::FONT;
use super::ticks;
use super::{Figure, Marker};

pub(super) fn rgb(c: [u8; 3]) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

/// A range with 5% room either side (and some room when it is a single value).
pub(super) fn padded(lo: f64, hi: f64) -> std::ops::Range<f64> {
    let (lo, hi) = if lo.is_finite() && hi.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let span = if hi > lo { hi - lo } else { lo.abs().max(1.0) };
    (lo - 0.05 * span)..(hi + 0.05 * span)
}

/// An axis: its range, the tick values, and each tick's label.
#[derive(Clone)]
pub(super) struct Axis {
    pub(super) range: std::ops::Range<f64>,
    pub(super) ticks: Vec<f64>,
    pub(super) labels: Vec<String>,
    /// The x tick labels' size as a share of the tick size: below 1 where the labels were
    /// shrunk to fit between their ticks.
    pub(super) tick_scale: f64,
    /// Its labels already fitted to a chart's width (thinned or shrunk): panels sharing the
    /// axis keep the first panel's choice.
    pub(super) fitted: bool,
}

impl Axis {
    /// Round ticks in one notation (whole numbers only when `whole`).
    pub(super) fn numeric(range: std::ops::Range<f64>, whole: bool, target: usize) -> Axis {
        let ticks = if whole {
            ticks::integer(range.start, range.end, target)
        } else {
            ticks::linear(range.start, range.end, target)
        };
        let labels = ticks::labels(&ticks);
        Axis { range, ticks, labels, tick_scale: 1.0, fitted: false }
    }

    /// A log10 axis (the range in exponents): 1-2-5 ticks labelled with the data values.
    pub(super) fn log(range: std::ops::Range<f64>) -> Axis {
        let (ticks, labels) = ticks::log_axis(range.start, range.end);
        Axis { range, labels, ticks, tick_scale: 1.0, fitted: false }
    }

    /// One tick per category at 0, 1, 2, ...
    pub(super) fn categories(names: &[String]) -> Axis {
        let n = names.len();
        Axis {
            range: -0.5..(n as f64 - 0.5),
            ticks: (0..n).map(|i| i as f64).collect(),
            labels: names.to_vec(),
            tick_scale: 1.0,
            fitted: false,
        }
    }

    /// Ticks at given values (e.g. a histogram's bin edges).
    pub(super) fn at(range: std::ops::Range<f64>, ticks: Vec<f64>) -> Axis {
        Axis { range, labels: ticks::labels(&ticks), ticks, tick_scale: 1.0, fitted: false }
    }

    pub(super) fn label(&self, v: f64) -> String {
        self.ticks.iter().position(|t| (t - v).abs() < 1e-9).map(|i| self.labels[i].clone()).unwrap_or_default()
    }

    pub(super) fn coord(&self) -> Ticked {
        Ticked { range: self.range.clone(), ticks: self.ticks.clone() }
    }
}

/// A linear f64 coordinate whose ticks are exactly the ones given (plotters' own choice of
/// key points dropped end values such as K = 5, and gave 501.187 on log axes).
pub(super) struct Ticked {
    pub(super) range: std::ops::Range<f64>,
    pub(super) ticks: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.range.end - self.range.start;
        let t = if span > 0.0 { (value - self.range.start) / span } else { 0.5 };
        limit.0 + (t * (limit.1 - limit.0) as f64).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        // Light (minor) mesh lines: none.
        if hint.weight().allow_light_points() { Vec::new() } else { self.ticks.clone() }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.range.clone()
    }
}

/// Text sizes in pixels at 96 per inch, from the tick size in points.
#[derive(Clone, Copy)]
pub(super) struct Sizes {
    /// Pixels per 96-dpi pixel (the PNG's dpi / 96).
    pub(super) s: f64,
    pub(super) tick: f64,
    pub(super) title: f64,
    pub(super) axis: f64,
    pub(super) legend: f64,
    pub(super) cell: f64,
}

impl Sizes {
    pub(super) fn new(s: f64, font_pt: f64) -> Sizes {
        let tick = font_pt * 96.0 / 72.0;
        Sizes { s, tick, title: tick * 1.25, axis: tick * 1.1, legend: tick, cell: tick * 0.9 }
    }
    /// A font whose em is `size` pixels (plotters' sizes are 1.24 em: its SVG writes
    /// `font-size` as the size / 1.24, which left 9-pixel ticks at 6.7 pt).
    pub(super) fn font(&self, size: f64) -> FontDesc<'static> {
        (FONT, size * self.s * 1.24).into_font()
    }
    pub(super) fn px(&self, v: f64) -> u32 {
        (v * self.s).round() as u32
    }
}

/// What the drawing backend refused; its error type depends on the backend (SVG, bitmap).
#[derive(Debug)]
pub struct DrawError(Box<dyn std::error::Error + Send + Sync>);

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for DrawError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<DrawingAreaErrorKind<E>> for DrawError {
    fn from(e: DrawingAreaErrorKind<E>) -> DrawError {
        DrawError(Box::new(e))
    }
}

pub(super) type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Ticked, Ticked>>;

/// `area` under the figure's title, the title made to fit its width: shrunk down to the tick
/// size, then cut at a word with "…" (a long title ran off both edges). An empty title
/// (a figure for a paper, whose caption is set under it) leaves a small margin only.
pub(super) fn titled<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    z: &Sizes,
) -> Result<DrawingArea<DB, Shift>, DrawError>
where
    DB::ErrorType: 'static,
{
    if title.trim().is_empty() {
        return Ok(area.margin(z.px(6.0), 0, 0, 0));
    }
    let (w, _) = area.dim_in_pixel();
    let room = (w as f64 * 0.96) as u32;
    let fits = |t: &str, size: f64| text_extent(area, &[t.to_string()], &z.font(size)).0 <= room;
    let mut size = z.title;
    while size > z.tick && !fits(title, size) {
        size -= 0.5;
    }
    let mut text = title.to_string();
    let mut words: Vec<&str> = title.split(' ').collect();
    while !fits(&text, size) && words.len() > 1 {
        words.pop();
        text = format!("{}…", words.join(" "));
    }
    area.titled(&text, z.font(size)).map_err(DrawError::from)
}

/// The widest and tallest of `texts` in `font`, in pixels.
pub(super) fn text_extent<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    texts: &[String],
    font: &FontDesc,
) -> (u32, u32) {
    texts.iter().fold((0, 0), |(w, h), t| {
        let (tw, th) = area.estimate_text_size(t, &TextStyle::from(font.clone())).unwrap_or((0, 0));
        (w.max(tw), h.max(th))
    })
}

/// A chart whose label areas are as wide as its tick labels and axis titles need, so the
/// y-axis title never overlaps the ticks. `x_title`: room under the ticks for the x axis'
/// title (panels sharing one title under the grid leave it out, or a row of panels stood
/// apart by an empty line).
pub(super) fn axes<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    title: &str,
    z: &Sizes,
    x: &mut Axis,
    y: &Axis,
    y_title: bool,
    x_title: bool,
) -> Result<Chart<'a, DB>, DrawError>
where
    DB::ErrorType: 'static,
{
    let (yw, _) = text_extent(area, &y.labels, &z.font(z.tick));
    let (xw, xh) = text_extent(area, &x.labels, &z.font(z.tick));
    let (_, ah) = text_extent(area, &["Ag".to_string()], &z.font(z.axis));
    let gap = z.px(6.0);
    let title_room = if y_title { ah + gap } else { 0 };
    // x labels wider than the room between ticks would run into each other: shrink them
    // down to 70% of the tick size, and where that is not enough label every k-th tick
    // only (the ticks stay).
    let plot_w = area.dim_in_pixel().0.saturating_sub(yw + title_room + 2 * gap + 2 * z.px(10.0)) as f64;
    if x.ticks.len() > 1 && !x.fitted {
        x.fitted = true;
        let per_tick = plot_w * (x.ticks[1] - x.ticks[0]) / (x.range.end - x.range.start);
        let room = per_tick - z.px(6.0) as f64;
        let every = ((xw as f64 + z.px(6.0) as f64) / per_tick.max(1.0)).ceil().max(1.0) as usize;
        if every > 1 && room >= 0.7 * xw as f64 {
            x.tick_scale = room / xw as f64;
        } else if every > 1 {
            for (i, label) in x.labels.iter_mut().enumerate() {
                if i % every != 0 {
                    label.clear();
                }
            }
        }
    }
    let mut b = ChartBuilder::on(area);
    if !title.is_empty() {
        b.caption(title, z.font(z.title));
    }
    b.margin(z.px(10.0))
        .x_label_area_size(if x_title { xh + ah + 3 * gap } else { xh + 2 * gap })
        .y_label_area_size(yw + title_room + 2 * gap)
        .build_cartesian_2d(x.coord(), y.coord())
        .map_err(DrawError::from)
}

/// Which grid lines a chart gets.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Grid {
    Both,
    /// At the y ticks only (bars, boxes, histograms).
    Horizontal,
    /// None (heatmaps: the cells are the grid).
    None,
}

/// Grid, ticks and axis titles.
pub(super) fn mesh<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    fig: &Figure,
    z: &Sizes,
    x: &Axis,
    y: &Axis,
    grid: Grid,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let (xf, yf) = (|v: &f64| x.label(*v), |v: &f64| y.label(*v));
    let mut m = chart.configure_mesh();
    m.x_desc(&fig.x_label)
        .y_desc(&fig.y_label)
        .label_style(z.font(z.tick))
        .x_label_style(z.font(z.tick * x.tick_scale))
        .axis_desc_style(z.font(z.axis))
        .x_label_formatter(&xf)
        .y_label_formatter(&yf)
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(235, 235, 235));
    match grid {
        Grid::Both => {}
        Grid::Horizontal => {
            m.disable_x_mesh();
        }
        Grid::None => {
            m.disable_mesh();
        }
    }
    m.draw().map_err(DrawError::from)
}

/// What a legend entry shows beside its name.
#[derive(Clone, Copy)]
pub(super) enum Mark {
    /// A line in its colour and (dash, gap) pattern (`None` solid), with its points' marker.
    Line(RGBColor, Option<(f64, f64)>, Option<Marker>),
    Block(RGBColor),
}

/// The plot's area and, when there is a legend, its area and whether it is a column.
pub(super) type WithLegend<DB> = (DrawingArea<DB, Shift>, Option<(DrawingArea<DB, Shift>, bool)>);

/// A legend swatch's length, in points: long enough for a dashed pattern, drawn at
/// `SWATCH_SCALE`, to show two periods either side of the marker (at 24, at a scale fitted to
/// the whole swatch, the marker hid all but one dash a side, and a dashed line's entry read
/// as a solid one).
const SWATCH: f64 = 36.0;

/// The scale of a pattern in a legend swatch: one for every pattern, so that long dashes stay
/// longer than dashes.
const SWATCH_SCALE: f64 = 0.5;

/// Room for a legend entry's swatch and the gaps around it, in points.
const SWATCH_ROOM: f64 = SWATCH + 16.0;

/// Where each legend entry goes in rows of `width` pixels: entries flow left to right, each
/// as wide as its own name needs (a long "95% interval (shaded)" made every entry its width),
/// and wrap. Returns (x, row) of each, and the number of rows.
fn legend_flow(widths: &[u32], width: u32) -> (Vec<(u32, u32)>, u32) {
    let (mut x, mut row, mut out) = (0u32, 0u32, Vec::new());
    for &w in widths {
        if x > 0 && x + w > width {
            x = 0;
            row += 1;
        }
        out.push((x, row));
        x += w;
    }
    (out, if widths.is_empty() { 0 } else { row + 1 })
}

fn entry_widths<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: &[(String, Mark)], z: &Sizes) -> Vec<u32> {
    let font = z.font(z.legend);
    entries.iter().map(|e| text_extent(area, std::slice::from_ref(&e.0), &font).0 + z.px(SWATCH_ROOM)).collect()
}

/// Splits off room for a legend outside the axes: a column on the right when the names are
/// short and `rows` is not asked for, else rows under the plot. Returns (plot area, legend
/// area).
pub(super) fn legend_room<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, Mark)],
    z: &Sizes,
    rows: bool,
) -> WithLegend<DB> {
    if entries.is_empty() {
        return (area.clone(), None);
    }
    let names: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let (_, th) = text_extent(area, &names, &z.font(z.legend));
    let (w, h) = area.dim_in_pixel();
    let widest = entry_widths(area, entries, z).into_iter().max().unwrap_or(0);
    let line_h = th + z.px(6.0);
    // A column takes at most a third of the width: the plot keeps two thirds.
    if !rows && (widest as f64) <= w as f64 / 3.0 {
        let (plot, legend) = area.split_horizontally(w - widest);
        (plot, Some((legend, true)))
    } else {
        let (_, n) = legend_flow(&entry_widths(area, entries, z), w.saturating_sub(z.px(8.0)));
        let (plot, legend) = area.split_vertically(h.saturating_sub(n * line_h + z.px(8.0)));
        (plot, Some((legend, false)))
    }
}

pub(super) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    column: bool,
    entries: &[(String, Mark)],
    z: &Sizes,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let names: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let (_, th) = text_extent(area, &names, &z.font(z.legend));
    let line_h = (th + z.px(6.0)) as i32;
    let (w, _) = area.dim_in_pixel();
    let widths = entry_widths(area, entries, z);
    let places: Vec<(u32, u32)> = if column {
        (0..entries.len() as u32).map(|i| (0, i)).collect()
    } else {
        legend_flow(&widths, w.saturating_sub(z.px(8.0))).0
    };
    for ((name, mark), &(ex, row)) in entries.iter().zip(&places) {
        let x = ex as i32 + z.px(8.0) as i32;
        // A column starts level with the top of the axes; rows start at the strip's top.
        let y = if column { z.px(14.0) } else { z.px(6.0) } as i32 + row as i32 * line_h + line_h / 2;
        let sw = z.px(SWATCH) as i32;
        match *mark {
            Mark::Line(c, pattern, m) => {
                let width = c.stroke_width(z.px(2.0).max(1));
                match pattern {
                    None => area.draw(&PathElement::new(vec![(x, y), (x + sw, y)], width))?,
                    Some((dash, gap)) => area.draw(&plotters::element::DashedPathElement::new(
                        vec![(x, y), (x + sw, y)],
                        z.px(SWATCH_SCALE * dash).max(1),
                        z.px(SWATCH_SCALE * gap).max(1),
                        width,
                    ))?,
                }
                if let Some(m) = m {
                    draw_marker(area, (x + sw / 2, y), m, z, c, false)?;
                }
            }
            Mark::Block(c) => {
                let r = z.px(5.0) as i32;
                area.draw(&Rectangle::new([(x + sw / 2 - r, y - r), (x + sw / 2 + r, y + r)], c.filled()))?
            }
        }
        area.draw(&Text::new(
            name.clone(),
            (x + sw + z.px(6.0) as i32, y),
            z.font(z.legend).color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// Draws a marker centred at `at` on `area`, 3.5 points in radius; `edged`, with a white edge
/// so that points of two lines on top of each other both show (not in a legend swatch, where
/// the edge cut the line and the swatch read as dashed).
pub(super) fn draw_marker<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    m: Marker,
    z: &Sizes,
    c: RGBColor,
    edged: bool,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
    CT::From: Clone,
{
    let r = z.px(3.5).max(2) as f64;
    let px = |pts: Vec<(f64, f64)>| -> Vec<(i32, i32)> {
        pts.into_iter().map(|(x, y)| ((x * r).round() as i32, (y * r).round() as i32)).collect()
    };
    match (m, m.outline()) {
        (_, Some(outline)) => {
            let shape = px(outline);
            let mut closed = shape.clone();
            closed.push(shape[0]);
            let edge = PathElement::new(closed, if edged { WHITE } else { c }.stroke_width(1));
            area.draw(&(EmptyElement::at(at) + Polygon::new(shape, c.filled()) + edge))?;
        }
        (Marker::Cross, None) => {
            let w = c.stroke_width(z.px(2.0).max(1));
            let (a, b) = (px(vec![(-1.0, -1.0), (1.0, 1.0)]), px(vec![(-1.0, 1.0), (1.0, -1.0)]));
            area.draw(&(EmptyElement::at(at) + PathElement::new(a, w) + PathElement::new(b, w)))?;
        }
        _ => {
            let edge = Circle::new((0, 0), r as i32, if edged { WHITE } else { c }.stroke_width(1));
            area.draw(&(EmptyElement::at(at) + Circle::new((0, 0), r as i32, c.filled()) + edge))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Legend entries flow in rows, each as wide as its own name, and wrap at the width.
    #[test]
    fn legend_entries_flow_and_wrap() {
        let (places, rows) = super::legend_flow(&[100, 80, 150, 60], 300);
        assert_eq!(places, [(0, 0), (100, 0), (0, 1), (150, 1)]);
        assert_eq!(rows, 2);
        // An entry wider than the row still gets a row of its own.
        assert_eq!(super::legend_flow(&[400, 50], 300), (vec![(0, 0), (0, 1)], 2));
        assert_eq!(super::legend_flow(&[], 300).1, 0);
    }
}
