//! Drawing figures to files with plotters: SVG directly, PNG through its bitmap backend at
//! the requested DPI, PDF by converting the SVG with svg2pdf. Text is always DejaVu Sans from
//! assets/, registered with plotters and loaded into svg2pdf's font database, so a figure
//! looks the same on every machine (and the PDF embeds the font).

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontDesc, FontStyle};

use super::{BoxStats, Figure, FigureData, HeatPanel, heat_range, log_y, palette, ticks};
use crate::io::write_atomic;

/// The shipped font and the family name figures use.
pub const FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
pub const FONT: &str = "DejaVu Sans";

/// SVG and PDF user units per inch (CSS pixels).
const SVG_DPI: f64 = 96.0;

/// Size and resolution of an exported figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExportOptions {
    pub width_in: f64,
    pub height_in: f64,
    /// PNG pixels per inch (SVG and PDF are vector and use 96 units an inch).
    pub dpi: f64,
    /// Lines and box plots: y on a log10 scale.
    pub log_y: bool,
    /// Tick labels in points; titles, axis titles and legends are sized from it (9 pt reads
    /// well at 6.4 x 4 in; use 10-11 for a figure shrunk into one column of a paper).
    pub font_pt: f64,
    /// Lines: draw the 95% bands.
    pub bands: bool,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions { width_in: 6.4, height_in: 4.0, dpi: 150.0, log_y: false, font_pt: 9.0, bands: true }
    }
}

impl ExportOptions {
    /// Pixel size at `dpi`.
    pub fn pixels(&self, dpi: f64) -> (u32, u32) {
        ((self.width_in * dpi).round().max(16.0) as u32, (self.height_in * dpi).round().max(16.0) as u32)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureFormat {
    Svg,
    Png,
    Pdf,
}

impl FigureFormat {
    /// From a file name's extension.
    pub fn from_path(path: &Path) -> Result<FigureFormat, String> {
        match path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()).as_deref() {
            Some("svg") => Ok(FigureFormat::Svg),
            Some("png") => Ok(FigureFormat::Png),
            Some("pdf") => Ok(FigureFormat::Pdf),
            _ => Err(format!("{}: the figure's file name must end in .svg, .png or .pdf", path.display())),
        }
    }
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is compiled in; failing to parse it would be a build defect.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES);
    });
}

/// The figure as an SVG document.
pub fn render_svg(fig: &Figure, opts: &ExportOptions) -> Result<String, String> {
    register_font();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, opts.pixels(SVG_DPI)).into_drawing_area();
        draw(&root, &scaled(fig, opts), 1.0, opts)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// The figure as a PNG file (with its DPI recorded in the pHYs chunk).
pub fn render_png(fig: &Figure, opts: &ExportOptions) -> Result<Vec<u8>, String> {
    register_font();
    let (w, h) = opts.pixels(opts.dpi);
    let mut rgb = vec![255u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        draw(&root, &scaled(fig, opts), opts.dpi / SVG_DPI, opts)?;
        root.present().map_err(|e| e.to_string())?;
    }
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let per_metre = (opts.dpi / 0.0254).round() as u32;
        enc.set_pixel_dims(Some(png::PixelDimensions { xppu: per_metre, yppu: per_metre, unit: png::Unit::Meter }));
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(&rgb).map_err(|e| e.to_string())?;
    }
    Ok(bytes)
}

/// The figure as a PDF page, the font embedded.
pub fn render_pdf(fig: &Figure, opts: &ExportOptions) -> Result<Vec<u8>, String> {
    use svg2pdf::usvg;
    let svg = render_svg(fig, opts)?;
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_font_data(FONT_BYTES.to_vec());
    options.fontdb_mut().set_sans_serif_family(FONT);
    let tree = usvg::Tree::from_str(&svg, &options).map_err(|e| format!("internal SVG did not parse: {e}"))?;
    svg2pdf::to_pdf(&tree, svg2pdf::ConversionOptions::default(), svg2pdf::PageOptions { dpi: SVG_DPI as f32 })
        .map_err(|e| format!("PDF conversion failed: {e}"))
}

/// Writes the figure to `path` (format from its extension) and its data to the same name
/// with `.csv`; returns both paths. Files are replaced atomically.
pub fn export_figure(fig: &Figure, path: &Path, opts: &ExportOptions) -> Result<Vec<PathBuf>, String> {
    let bytes = match FigureFormat::from_path(path)? {
        FigureFormat::Svg => render_svg(fig, opts)?.into_bytes(),
        FigureFormat::Png => render_png(fig, opts)?,
        FigureFormat::Pdf => render_pdf(fig, opts)?,
    };
    let csv = path.with_extension("csv");
    write_atomic(path, &bytes).map_err(|e| e.to_string())?;
    write_atomic(&csv, fig.to_csv().as_bytes()).map_err(|e| e.to_string())?;
    Ok(vec![path.to_path_buf(), csv])
}

fn rgb(c: [u8; 3]) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

/// A range with 5% room either side (and some room when it is a single value).
fn padded(lo: f64, hi: f64) -> std::ops::Range<f64> {
    let (lo, hi) = if lo.is_finite() && hi.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let span = if hi > lo { hi - lo } else { lo.abs().max(1.0) };
    (lo - 0.05 * span)..(hi + 0.05 * span)
}

/// An axis: its range, the tick values, and each tick's label.
struct Axis {
    range: std::ops::Range<f64>,
    ticks: Vec<f64>,
    labels: Vec<String>,
}

impl Axis {
    /// Round ticks in one notation (whole numbers only when `whole`).
    fn numeric(range: std::ops::Range<f64>, whole: bool, target: usize) -> Axis {
        let ticks = if whole {
            ticks::integer(range.start, range.end, target)
        } else {
            ticks::linear(range.start, range.end, target)
        };
        let labels = ticks::labels(&ticks);
        Axis { range, ticks, labels }
    }

    /// A log10 axis (the range in exponents): 1-2-5 ticks labelled with the data values.
    fn log(range: std::ops::Range<f64>) -> Axis {
        let ticks = ticks::log125(range.start, range.end);
        let values: Vec<f64> = ticks.iter().map(|v| round_sig(10f64.powf(*v))).collect();
        Axis { range, labels: ticks::labels(&values), ticks }
    }

    /// One tick per category at 0, 1, 2, ...
    fn categories(names: &[String]) -> Axis {
        let n = names.len();
        Axis { range: -0.5..(n as f64 - 0.5), ticks: (0..n).map(|i| i as f64).collect(), labels: names.to_vec() }
    }

    /// Ticks at given values (e.g. a histogram's bin edges).
    fn at(range: std::ops::Range<f64>, ticks: Vec<f64>) -> Axis {
        Axis { range, labels: ticks::labels(&ticks), ticks }
    }

    fn label(&self, v: f64) -> String {
        self.ticks.iter().position(|t| (t - v).abs() < 1e-9).map(|i| self.labels[i].clone()).unwrap_or_default()
    }

    fn coord(&self) -> Ticked {
        Ticked { range: self.range.clone(), ticks: self.ticks.clone() }
    }
}

/// A linear f64 coordinate whose ticks are exactly the ones given (plotters' own choice of
/// key points dropped end values such as K = 5, and gave 501.187 on log axes).
struct Ticked {
    range: std::ops::Range<f64>,
    ticks: Vec<f64>,
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

/// `v` to 6 significant digits (10^log10(500) is 499.99999999999994).
fn round_sig(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(5 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

/// Text sizes in pixels at 96 per inch, from the tick size in points.
#[derive(Clone, Copy)]
struct Sizes {
    /// Pixels per 96-dpi pixel (the PNG's dpi / 96).
    s: f64,
    tick: f64,
    title: f64,
    axis: f64,
    legend: f64,
    cell: f64,
}

impl Sizes {
    fn new(s: f64, font_pt: f64) -> Sizes {
        let tick = font_pt * 96.0 / 72.0;
        Sizes { s, tick, title: tick * 1.25, axis: tick * 1.1, legend: tick, cell: tick * 0.9 }
    }
    /// A font whose em is `size` pixels (plotters' sizes are 1.24 em: its SVG writes
    /// `font-size` as the size / 1.24, which left 9-pixel ticks at 6.7 pt).
    fn font(&self, size: f64) -> FontDesc<'static> {
        (FONT, size * self.s * 1.24).into_font()
    }
    fn px(&self, v: f64) -> u32 {
        (v * self.s).round() as u32
    }
}

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Ticked, Ticked>>;

/// `area` under the figure's title, the title made to fit its width: shrunk down to the tick
/// size, then cut at a word with "…" (a long title ran off both edges).
fn titled<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    z: &Sizes,
) -> Result<DrawingArea<DB, Shift>, String>
where
    DB::ErrorType: 'static,
{
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
    area.titled(&text, z.font(size)).map_err(|e| e.to_string())
}

/// The widest and tallest of `texts` in `font`, in pixels.
fn text_extent<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, texts: &[String], font: &FontDesc) -> (u32, u32) {
    texts.iter().fold((0, 0), |(w, h), t| {
        let (tw, th) = area.estimate_text_size(t, &TextStyle::from(font.clone())).unwrap_or((0, 0));
        (w.max(tw), h.max(th))
    })
}

/// A chart whose label areas are as wide as its tick labels and axis titles need, so the
/// y-axis title never overlaps the ticks.
fn axes<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    title: &str,
    z: &Sizes,
    x: &Axis,
    y: &Axis,
    y_title: bool,
) -> Result<Chart<'a, DB>, String>
where
    DB::ErrorType: 'static,
{
    let (yw, _) = text_extent(area, &y.labels, &z.font(z.tick));
    let (_, xh) = text_extent(area, &x.labels, &z.font(z.tick));
    let (_, ah) = text_extent(area, &["Ag".to_string()], &z.font(z.axis));
    let gap = z.px(6.0);
    let title_room = if y_title { ah + gap } else { 0 };
    let mut b = ChartBuilder::on(area);
    if !title.is_empty() {
        b.caption(title, z.font(z.title));
    }
    b.margin(z.px(10.0))
        .x_label_area_size(xh + ah + 3 * gap)
        .y_label_area_size(yw + title_room + 2 * gap)
        .build_cartesian_2d(x.coord(), y.coord())
        .map_err(|e| e.to_string())
}

/// Which grid lines a chart gets.
#[derive(Clone, Copy, PartialEq)]
enum Grid {
    Both,
    /// At the y ticks only (bars, boxes, histograms).
    Horizontal,
    /// None (heatmaps: the cells are the grid).
    None,
}

/// Grid, ticks and axis titles.
fn mesh<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    fig: &Figure,
    z: &Sizes,
    x: &Axis,
    y: &Axis,
    grid: Grid,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let (xf, yf) = (|v: &f64| x.label(*v), |v: &f64| y.label(*v));
    let mut m = chart.configure_mesh();
    m.x_desc(&fig.x_label)
        .y_desc(&fig.y_label)
        .label_style(z.font(z.tick))
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
    m.draw().map_err(|e| e.to_string())
}

/// What a legend entry shows beside its name.
#[derive(Clone, Copy)]
enum Mark {
    Line(RGBColor),
    Block(RGBColor),
}

/// The plot's area and, when there is a legend, its area and whether it is a column.
type WithLegend<DB> = (DrawingArea<DB, Shift>, Option<(DrawingArea<DB, Shift>, bool)>);

/// Splits off room for a legend outside the axes: a column on the right when the names are
/// short, else rows under the plot. Returns (plot area, legend area).
fn legend_room<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, Mark)],
    z: &Sizes,
) -> WithLegend<DB> {
    if entries.is_empty() {
        return (area.clone(), None);
    }
    let names: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let (tw, th) = text_extent(area, &names, &z.font(z.legend));
    let (w, h) = area.dim_in_pixel();
    let entry_w = tw + z.px(34.0);
    let line_h = th + z.px(6.0);
    if (entry_w as f64) <= 0.3 * w as f64 {
        let (plot, legend) = area.split_horizontally(w - entry_w);
        (plot, Some((legend, true)))
    } else {
        let per_row = (w / entry_w.max(1)).max(1) as usize;
        let rows = entries.len().div_ceil(per_row) as u32;
        let (plot, legend) = area.split_vertically(h.saturating_sub(rows * line_h + z.px(8.0)));
        (plot, Some((legend, false)))
    }
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    column: bool,
    entries: &[(String, Mark)],
    z: &Sizes,
    top: i32,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let names: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let (tw, th) = text_extent(area, &names, &z.font(z.legend));
    let line_h = (th + z.px(6.0)) as i32;
    let entry_w = (tw + z.px(34.0)) as i32;
    let (w, _) = area.dim_in_pixel();
    let per_row = if column { 1 } else { (w as i32 / entry_w.max(1)).max(1) };
    for (i, (name, mark)) in entries.iter().enumerate() {
        let (col, row) = (i as i32 % per_row, i as i32 / per_row);
        let x = col * entry_w + z.px(8.0) as i32;
        let y = if column { top } else { z.px(6.0) as i32 } + row * line_h + line_h / 2;
        let sw = z.px(18.0) as i32;
        match *mark {
            Mark::Line(c) => area
                .draw(&PathElement::new(vec![(x, y), (x + sw, y)], c.stroke_width(z.px(2.0).max(1))))
                .map_err(err)?,
            Mark::Block(c) => {
                let r = z.px(5.0) as i32;
                area.draw(&Rectangle::new([(x + 3, y - r), (x + 3 + 2 * r, y + r)], c.filled())).map_err(err)?
            }
        }
        area.draw(&Text::new(
            name.clone(),
            (x + sw + z.px(6.0) as i32, y),
            z.font(z.legend).color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// The figure as drawn: on a log scale if asked.
fn scaled(fig: &Figure, opts: &ExportOptions) -> Figure {
    if opts.log_y { log_y(fig) } else { fig.clone() }
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    s: f64,
    opts: &ExportOptions,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let z = Sizes::new(s, opts.font_pt);
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
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

fn stroke(z: &Sizes, c: RGBColor, w: f64) -> ShapeStyle {
    ShapeStyle { color: c.to_rgba(), filled: false, stroke_width: z.px(w).max(1) }
}

fn draw_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    series: &[super::Series],
    z: &Sizes,
    opts: &ExportOptions,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    // Whole-number x data (depths, board sizes, K) gets whole-number ticks, every value kept.
    let whole = series.iter().flat_map(|s| &s.points).all(|p| p.x.fract() == 0.0);
    let (mut x0, mut x1, mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
    for p in series.iter().flat_map(|s| &s.points) {
        x0 = x0.min(p.x);
        x1 = x1.max(p.x);
        let (lo, hi) = if opts.bands { p.band.unwrap_or((p.y, p.y)) } else { (p.y, p.y) };
        y0 = y0.min(p.y).min(lo);
        y1 = y1.max(p.y).max(hi);
    }
    let x = Axis::numeric(padded(x0, x1), whole, 8);
    let y = if opts.log_y { Axis::log(padded(y0, y1)) } else { Axis::numeric(padded(y0, y1), false, 6) };
    let entries: Vec<(String, Mark)> =
        series.iter().enumerate().map(|(i, s)| (s.name.clone(), Mark::Line(rgb(palette::series(i))))).collect();
    let titled = titled(root, &fig.title, z)?;
    let (plot, legend) = legend_room(&titled, &entries, z);
    let mut chart = axes(&plot, "", z, &x, &y, true)?;
    mesh(&mut chart, fig, z, &x, &y, Grid::Both)?;
    for (i, ser) in series.iter().enumerate() {
        let c = rgb(palette::series(i));
        if opts.bands {
            let mut band: Vec<(f64, f64)> = ser.points.iter().filter_map(|p| p.band.map(|b| (p.x, b.1))).collect();
            band.extend(ser.points.iter().rev().filter_map(|p| p.band.map(|b| (p.x, b.0))));
            if band.len() >= 4 {
                chart.draw_series(std::iter::once(Polygon::new(band, c.mix(0.18).filled()))).map_err(err)?;
            }
        }
        chart.draw_series(LineSeries::new(ser.points.iter().map(|p| (p.x, p.y)), stroke(z, c, 2.0))).map_err(err)?;
        chart.draw_series(ser.points.iter().map(|p| Circle::new((p.x, p.y), z.px(3.0), c.filled()))).map_err(err)?;
    }
    if let Some((area, column)) = legend {
        draw_legend(&area, column, &entries, z, z.px(14.0) as i32)?;
    }
    Ok(())
}

fn draw_bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    categories: &[String],
    stacks: &[(String, Vec<f64>)],
    z: &Sizes,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let n = categories.len();
    let top = (0..n).map(|c| stacks.iter().map(|s| s.1[c]).sum::<f64>()).fold(0.0, f64::max);
    let counts = stacks.iter().flat_map(|s| &s.1).all(|v| v.fract() == 0.0);
    let colour = |i: usize| rgb(if stacks.len() == 3 { palette::OUTCOME[i] } else { palette::series(i) });
    let entries: Vec<(String, Mark)> =
        stacks.iter().enumerate().map(|(i, (name, _))| (name.clone(), Mark::Block(colour(i)))).collect();
    let titled = titled(root, &fig.title, z)?;
    let (plot, legend) = legend_room(&titled, &entries, z);
    let x = Axis::categories(categories);
    let y = Axis::numeric(0.0..(top.max(1.0) * 1.05), counts, 6);
    let mut chart = axes(&plot, "", z, &x, &y, true)?;
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
        chart.draw_series(bars).map_err(err)?;
    }
    if let Some((area, column)) = legend {
        draw_legend(&area, column, &entries, z, z.px(14.0) as i32)?;
    }
    Ok(())
}

fn draw_pies<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    pies: &[(String, Vec<(String, f64)>)],
    z: &Sizes,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let colour = |n: usize, i: usize| if n == 3 { palette::OUTCOME[i] } else { palette::series(i) };
    let entries: Vec<(String, Mark)> = pies.first().map_or(Vec::new(), |(_, slices)| {
        slices.iter().enumerate().map(|(i, (l, _))| (l.clone(), Mark::Block(rgb(colour(slices.len(), i))))).collect()
    });
    let area = titled(root, &fig.title, z)?;
    let (pies_area, legend) = legend_room(&area, &entries, z);
    let cols = if pies.len() <= 4 { pies.len().max(1) } else { (pies.len() as f64).sqrt().ceil() as usize };
    let rows = pies.len().div_ceil(cols).max(1);
    for (cell, (group, slices)) in pies_area.split_evenly((rows, cols)).iter().zip(pies) {
        let (cw, ch) = cell.dim_in_pixel();
        let label_h = z.px(z.tick * 1.5) as i32;
        cell.draw(&Text::new(
            group.clone(),
            (cw as i32 / 2, 2),
            z.font(z.tick).color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(err)?;
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
            cell.draw(&Polygon::new(poly, rgb(c).filled())).map_err(err)?;
            if v / total >= 0.05 {
                let mid = angle + sweep / 2.0;
                let at = (center.0 + (0.62 * radius * mid.cos()) as i32, center.1 + (0.62 * radius * mid.sin()) as i32);
                cell.draw(&Text::new(
                    format!("{:.0}%", 100.0 * v / total),
                    at,
                    z.font(z.cell).color(&rgb(palette::text_on(c))).pos(Pos::new(HPos::Center, VPos::Center)),
                ))
                .map_err(err)?;
            }
            angle += sweep;
        }
    }
    if let Some((area, column)) = legend {
        draw_legend(&area, column, &entries, z, z.px(14.0) as i32)?;
    }
    Ok(())
}

fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    columns: &[String],
    rows: &[String],
    panels: &[HeatPanel],
    boundary: Option<f64>,
    z: &Sizes,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
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
    let show_text = nc * panels.len() <= 16 && nr <= 16;
    for (p, (cell, panel)) in cells.iter().zip(panels).enumerate() {
        let mut chart = axes(cell, &panel.label, z, &x, &y, p == 0)?;
        let mut f = fig.clone();
        if p > 0 {
            f.y_label.clear();
        }
        mesh(&mut chart, &f, z, &x, &y, Grid::None)?;
        for (r, row) in panel.values.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let Some(v) = v else { continue };
                let colour = palette::viridis((v - lo) / (hi - lo));
                let (cx, cy) = (c as f64, r as f64);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(cx - 0.5, cy - 0.5), (cx + 0.5, cy + 0.5)],
                        rgb(colour).filled(),
                    )))
                    .map_err(err)?;
                if show_text {
                    chart
                        .draw_series(std::iter::once(Text::new(
                            format!("{v:.2}"),
                            (cx, cy),
                            z.font(z.cell)
                                .color(&rgb(palette::text_on(colour)))
                                .pos(Pos::new(HPos::Center, VPos::Center)),
                        )))
                        .map_err(err)?;
                }
            }
        }
        // Over the cells: the line between cells on either side of the boundary value.
        if let Some(level) = boundary {
            let segments = super::boundary_segments(&panel.values, level);
            chart
                .draw_series(segments.into_iter().map(|(a, b)| PathElement::new(vec![a, b], stroke(z, RED, 3.0))))
                .map_err(err)?;
        }
    }
    // The colour bar, drawn by hand: gradient, ticks labelled right-aligned to its left, the
    // rotated title left of them (plotters' own axis let the labels run under the bar).
    let (_, bh) = bar.dim_in_pixel();
    let (top, bottom) = (z.px(20.0) as i32, bh as i32 - z.px(z.tick * 4.0) as i32);
    let (x0, x1) = (scale_labels as i32, scale_labels as i32 + z.px(20.0) as i32);
    let y_of = |v: f64| bottom - (((v - lo) / (hi - lo)) * (bottom - top) as f64).round() as i32;
    let steps = 64;
    for i in 0..steps {
        let (a, b) = (i as f64 / steps as f64, (i + 1) as f64 / steps as f64);
        let colour = palette::viridis((a + b) / 2.0);
        let (ya, yb) = (y_of(lo + a * (hi - lo)), y_of(lo + b * (hi - lo)));
        bar.draw(&Rectangle::new([(x0, yb), (x1, ya)], rgb(colour).filled())).map_err(err)?;
    }
    for (v, label) in scale_axis.ticks.iter().zip(&scale_axis.labels) {
        let y = y_of(*v);
        bar.draw(&PathElement::new(vec![(x0 - z.px(4.0) as i32, y), (x0, y)], stroke(z, BLACK, 1.0))).map_err(err)?;
        bar.draw(&Text::new(
            label.clone(),
            (x0 - z.px(6.0) as i32, y),
            z.font(z.tick).color(&BLACK).pos(Pos::new(HPos::Right, VPos::Center)),
        ))
        .map_err(err)?;
    }
    bar.draw(&Text::new(
        fig.value_label.clone(),
        (z.px(4.0) as i32, (top + bottom) / 2),
        z.font(z.axis)
            .transform(plotters::style::FontTransform::Rotate270)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))
    .map_err(err)?;
    Ok(())
}

fn draw_boxes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    boxes: &[BoxStats],
    z: &Sizes,
    log: bool,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let lo = boxes.iter().map(|b| b.min).fold(f64::INFINITY, f64::min);
    let hi = boxes.iter().map(|b| b.max).fold(f64::NEG_INFINITY, f64::max);
    let names: Vec<String> = boxes.iter().map(|b| b.name.clone()).collect();
    let x = Axis::categories(&names);
    let y = if log { Axis::log(padded(lo, hi)) } else { Axis::numeric(padded(lo, hi), false, 6) };
    let titled = titled(root, &fig.title, z)?;
    let mut chart = axes(&titled, "", z, &x, &y, true)?;
    mesh(&mut chart, fig, z, &x, &y, Grid::Horizontal)?;
    let c = rgb(palette::series(0));
    for (i, b) in boxes.iter().enumerate() {
        let x = i as f64;
        let line = |p: Vec<(f64, f64)>| PathElement::new(p, stroke(z, BLACK, 1.0));
        chart
            .draw_series(std::iter::once(Rectangle::new([(x - 0.3, b.q1), (x + 0.3, b.q3)], c.mix(0.35).filled())))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Rectangle::new([(x - 0.3, b.q1), (x + 0.3, b.q3)], stroke(z, BLACK, 1.0))))
            .map_err(err)?;
        chart
            .draw_series([
                PathElement::new(vec![(x - 0.3, b.median), (x + 0.3, b.median)], stroke(z, BLACK, 2.0)),
                line(vec![(x, b.q3), (x, b.whisker_high)]),
                line(vec![(x, b.q1), (x, b.whisker_low)]),
                line(vec![(x - 0.12, b.whisker_high), (x + 0.12, b.whisker_high)]),
                line(vec![(x - 0.12, b.whisker_low), (x + 0.12, b.whisker_low)]),
            ])
            .map_err(err)?;
        // Every point beyond the whiskers, not only the extremes.
        chart
            .draw_series(b.outliers.iter().map(|&v| Circle::new((x, v), z.px(2.5), stroke(z, BLACK, 1.0))))
            .map_err(err)?;
    }
    Ok(())
}

fn draw_histogram<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    edges: &[f64],
    counts: &[u32],
    z: &Sizes,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let top = counts.iter().copied().max().unwrap_or(1) as f64;
    // Ticks on the bin edges, so a bar reads from tick to tick; counts in whole numbers.
    let x = Axis::at(edges[0]..edges[edges.len() - 1], ticks::thinned(edges, 10));
    let y = Axis::numeric(0.0..(top * 1.05).max(1.0), true, 6);
    let titled = titled(root, &fig.title, z)?;
    let mut chart = axes(&titled, "", z, &x, &y, true)?;
    mesh(&mut chart, fig, z, &x, &y, Grid::Horizontal)?;
    let c = rgb(palette::series(0));
    chart
        .draw_series(
            counts
                .iter()
                .enumerate()
                .map(|(i, &n)| Rectangle::new([(edges[i], 0.0), (edges[i + 1], n as f64)], c.filled())),
        )
        .map_err(err)?;
    chart
        .draw_series(
            counts
                .iter()
                .enumerate()
                .map(|(i, &n)| Rectangle::new([(edges[i], 0.0), (edges[i + 1], n as f64)], stroke(z, WHITE, 1.0))),
        )
        .map_err(err)?;
    Ok(())
}
