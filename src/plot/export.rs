//! Drawing figures to files with plotters: SVG directly, PNG through its bitmap backend at
//! the requested DPI, PDF by converting the SVG with svg2pdf. Text is always DejaVu Sans from
//! assets/, registered with plotters and loaded into svg2pdf's font database, so a figure
//! looks the same on every machine (and the PDF embeds the font).

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Figure, FigureData, category_label, heat_range, log_y, palette};
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
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions { width_in: 6.4, height_in: 4.0, dpi: 150.0, log_y: false }
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
        draw(&root, &scaled(fig, opts), 1.0, opts.log_y)?;
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
        draw(&root, &scaled(fig, opts), opts.dpi / SVG_DPI, opts.log_y)?;
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

/// A category axis label at integer positions, nothing between.
fn category<'a>(names: &'a [String]) -> impl Fn(&f64) -> String + 'a {
    move |v: &f64| category_label(names, *v)
}

fn number(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 1e5 || v.abs() < 1e-3 {
        format!("{v:.1e}")
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A chart with the figure's title and room for tick labels and axis titles.
type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

fn axes<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    title: &str,
    s: f64,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> Result<Chart<'a, DB>, String>
where
    DB::ErrorType: 'static,
{
    let px = |v: f64| (v * s).round() as u32;
    ChartBuilder::on(area)
        .caption(title, (FONT, 16.0 * s).into_font())
        .margin(px(12.0))
        .x_label_area_size(px(42.0))
        .y_label_area_size(px(58.0))
        .build_cartesian_2d(x, y)
        .map_err(|e| e.to_string())
}

/// The common axes styling: axis titles from the figure, tick and title fonts, faint grid.
fn mesh<'a, 'b, DB: DrawingBackend>(
    chart: &'b mut Chart<'a, DB>,
    fig: &Figure,
    s: f64,
    tick_size: f64,
) -> MeshStyle<'a, 'b, RangedCoordf64, RangedCoordf64, DB> {
    let font = |size: f64| (FONT, size * s).into_font();
    let mut m = chart.configure_mesh();
    m.x_desc(&fig.x_label)
        .y_desc(&fig.y_label)
        .label_style(font(tick_size))
        .axis_desc_style(font(13.0))
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(235, 235, 235));
    m
}

/// The series legend, boxed, at `position`.
fn legend<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    position: SeriesLabelPosition,
    s: f64,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 11.0 * s).into_font())
        .draw()
        .map_err(|e| e.to_string())
}

/// The figure as drawn: on a log scale if asked.
fn scaled(fig: &Figure, opts: &ExportOptions) -> Figure {
    if opts.log_y { log_y(fig) } else { fig.clone() }
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, fig: &Figure, s: f64, log: bool) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let ytick = |v: &f64| if log { number(10f64.powf(*v)) } else { number(*v) };
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let font = |size: f64| (FONT, size * s).into_font();
    let px = |v: f64| (v * s).round() as u32;
    let stroke = |c: RGBColor, w: f64| ShapeStyle { color: c.to_rgba(), filled: false, stroke_width: px(w).max(1) };
    root.fill(&WHITE).map_err(err)?;
    match &fig.data {
        FigureData::Lines(series) => {
            // Whole-number x data (depths, board sizes) gets whole-number ticks only.
            let whole = series.iter().flat_map(|s| &s.points).all(|p| p.x.fract() == 0.0);
            let xtick = |v: &f64| if whole && v.fract().abs() > 1e-9 { String::new() } else { number(*v) };
            let pts = series.iter().flat_map(|s| &s.points);
            let (mut x0, mut x1, mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
            for p in pts {
                x0 = x0.min(p.x);
                x1 = x1.max(p.x);
                let (lo, hi) = p.band.unwrap_or((p.y, p.y));
                y0 = y0.min(p.y).min(lo);
                y1 = y1.max(p.y).max(hi);
            }
            let mut chart = axes(root, &fig.title, s, padded(x0, x1), padded(y0, y1))?;
            mesh(&mut chart, fig, s, 12.0).x_label_formatter(&xtick).y_label_formatter(&ytick).draw().map_err(err)?;
            for (i, ser) in series.iter().enumerate() {
                let c = rgb(palette::series(i));
                let mut band: Vec<(f64, f64)> = ser.points.iter().filter_map(|p| p.band.map(|b| (p.x, b.1))).collect();
                band.extend(ser.points.iter().rev().filter_map(|p| p.band.map(|b| (p.x, b.0))));
                if band.len() >= 4 {
                    chart.draw_series(std::iter::once(Polygon::new(band, c.mix(0.18).filled()))).map_err(err)?;
                }
                chart
                    .draw_series(LineSeries::new(ser.points.iter().map(|p| (p.x, p.y)), stroke(c, 2.0)))
                    .map_err(err)?
                    .label(ser.name.clone())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
                chart
                    .draw_series(ser.points.iter().map(|p| Circle::new((p.x, p.y), px(3.0), c.filled())))
                    .map_err(err)?;
            }
            legend(&mut chart, SeriesLabelPosition::LowerRight, s)?;
        }
        FigureData::StackedBars { categories, stacks } => {
            let n = categories.len();
            let top = (0..n).map(|c| stacks.iter().map(|s| s.1[c]).sum::<f64>()).fold(0.0, f64::max);
            let mut chart = axes(root, &fig.title, s, -0.5..(n as f64 - 0.5), 0.0..(top.max(1.0) * 1.3))?;
            let names = category(categories);
            mesh(&mut chart, fig, s, 11.0)
                .disable_x_mesh()
                .x_labels(n.clamp(1, 40) * 2 + 1)
                .x_label_formatter(&names)
                .y_label_formatter(&|v| number(*v))
                .draw()
                .map_err(err)?;
            let mut base = vec![0.0; n];
            for (i, (part, values)) in stacks.iter().enumerate() {
                let c = rgb(if stacks.len() == 3 { palette::OUTCOME[i] } else { palette::series(i) });
                let bars: Vec<_> = (0..n)
                    .map(|k| {
                        let r = Rectangle::new(
                            [(k as f64 - 0.38, base[k]), (k as f64 + 0.38, base[k] + values[k])],
                            c.filled(),
                        );
                        base[k] += values[k];
                        r
                    })
                    .collect();
                chart
                    .draw_series(bars)
                    .map_err(err)?
                    .label(part.clone())
                    .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
            }
            legend(&mut chart, SeriesLabelPosition::UpperRight, s)?;
        }
        FigureData::Pies(pies) => {
            let area = root.titled(&fig.title, font(16.0)).map_err(err)?;
            let (w, h) = area.dim_in_pixel();
            let (pies_area, legend) = area.split_vertically(h.saturating_sub(px(28.0)));
            let cols = if pies.len() <= 4 { pies.len().max(1) } else { (pies.len() as f64).sqrt().ceil() as usize };
            let rows = pies.len().div_ceil(cols).max(1);
            for (cell, (group, slices)) in pies_area.split_evenly((rows, cols)).iter().zip(pies) {
                let (cw, ch) = cell.dim_in_pixel();
                let label_h = px(18.0) as i32;
                cell.draw(&Text::new(
                    group.clone(),
                    (cw as i32 / 2, 2),
                    font(12.0).color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top)),
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
                    let c = rgb(if slices.len() == 3 { palette::OUTCOME[i] } else { palette::series(i) });
                    cell.draw(&Polygon::new(poly, c.filled())).map_err(err)?;
                    if v / total >= 0.05 {
                        let mid = angle + sweep / 2.0;
                        let at = (
                            center.0 + (0.62 * radius * mid.cos()) as i32,
                            center.1 + (0.62 * radius * mid.sin()) as i32,
                        );
                        let tc = rgb(palette::text_on(if slices.len() == 3 {
                            palette::OUTCOME[i]
                        } else {
                            palette::series(i)
                        }));
                        cell.draw(&Text::new(
                            format!("{:.0}%", 100.0 * v / total),
                            at,
                            font(11.0).color(&tc).pos(Pos::new(HPos::Center, VPos::Center)),
                        ))
                        .map_err(err)?;
                    }
                    angle += sweep;
                }
            }
            if let Some((_, slices)) = pies.first() {
                let step = w as i32 / slices.len().max(1) as i32;
                for (i, (label, _)) in slices.iter().enumerate() {
                    let c = rgb(if slices.len() == 3 { palette::OUTCOME[i] } else { palette::series(i) });
                    let x = i as i32 * step + px(16.0) as i32;
                    let y = px(14.0) as i32;
                    legend
                        .draw(&Rectangle::new(
                            [(x, y - px(5.0) as i32), (x + px(12.0) as i32, y + px(5.0) as i32)],
                            c.filled(),
                        ))
                        .map_err(err)?;
                    legend
                        .draw(&Text::new(
                            label.clone(),
                            (x + px(18.0) as i32, y),
                            font(11.0).color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center)),
                        ))
                        .map_err(err)?;
                }
            }
        }
        FigureData::Heatmap { columns, rows, values } => {
            let (lo, hi) = heat_range(values);
            let (w, _) = root.dim_in_pixel();
            let (main, bar) = root.split_horizontally(w.saturating_sub(px(96.0)));
            let (nc, nr) = (columns.len(), rows.len());
            let mut chart = axes(&main, &fig.title, s, -0.5..(nc as f64 - 0.5), -0.5..(nr as f64 - 0.5))?;
            let (cx, cy) = (category(columns), category(rows));
            mesh(&mut chart, fig, s, 11.0)
                .disable_mesh()
                .x_labels(nc.clamp(1, 40) * 2 + 1)
                .y_labels(nr.clamp(1, 40) * 2 + 1)
                .x_label_formatter(&cx)
                .y_label_formatter(&cy)
                .draw()
                .map_err(err)?;
            let show_text = nc <= 16 && nr <= 16;
            for (r, row) in values.iter().enumerate() {
                for (c, v) in row.iter().enumerate() {
                    let Some(v) = v else { continue };
                    let colour = palette::viridis((v - lo) / (hi - lo));
                    let (x, y) = (c as f64, r as f64);
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                            rgb(colour).filled(),
                        )))
                        .map_err(err)?;
                    if show_text {
                        chart
                            .draw_series(std::iter::once(Text::new(
                                number((v * 100.0).round() / 100.0),
                                (x, y),
                                font(10.0)
                                    .color(&rgb(palette::text_on(colour)))
                                    .pos(Pos::new(HPos::Center, VPos::Center)),
                            )))
                            .map_err(err)?;
                    }
                }
            }
            let mut scale = ChartBuilder::on(&bar)
                .margin_top(px(40.0))
                .margin_bottom(px(54.0))
                .margin_right(px(8.0))
                .y_label_area_size(px(50.0))
                .build_cartesian_2d(0.0..1.0, lo..hi)
                .map_err(err)?;
            scale
                .configure_mesh()
                .disable_mesh()
                .disable_x_axis()
                .y_desc(&fig.value_label)
                .y_label_formatter(&|v| number(*v))
                .label_style(font(10.0))
                .axis_desc_style(font(11.0))
                .draw()
                .map_err(err)?;
            let steps = 64;
            scale
                .draw_series((0..steps).map(|i| {
                    let (a, b) = (i as f64 / steps as f64, (i + 1) as f64 / steps as f64);
                    let colour = palette::viridis((a + b) / 2.0);
                    Rectangle::new([(0.0, lo + a * (hi - lo)), (1.0, lo + b * (hi - lo))], rgb(colour).filled())
                }))
                .map_err(err)?;
        }
        FigureData::Boxes(boxes) => {
            let n = boxes.len();
            let lo = boxes.iter().map(|b| b.min).fold(f64::INFINITY, f64::min);
            let hi = boxes.iter().map(|b| b.max).fold(f64::NEG_INFINITY, f64::max);
            let names: Vec<String> = boxes.iter().map(|b| b.name.clone()).collect();
            let mut chart = axes(root, &fig.title, s, -0.5..(n as f64 - 0.5), padded(lo, hi))?;
            let cat = category(&names);
            mesh(&mut chart, fig, s, 11.0)
                .disable_x_mesh()
                .x_labels(n.clamp(1, 40) * 2 + 1)
                .x_label_formatter(&cat)
                .y_label_formatter(&ytick)
                .draw()
                .map_err(err)?;
            let c = rgb(palette::series(0));
            for (i, b) in boxes.iter().enumerate() {
                let x = i as f64;
                let line = |p: Vec<(f64, f64)>| PathElement::new(p, stroke(BLACK, 1.0));
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x - 0.3, b.q1), (x + 0.3, b.q3)],
                        c.mix(0.35).filled(),
                    )))
                    .map_err(err)?;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x - 0.3, b.q1), (x + 0.3, b.q3)],
                        stroke(BLACK, 1.0),
                    )))
                    .map_err(err)?;
                chart
                    .draw_series([
                        PathElement::new(vec![(x - 0.3, b.median), (x + 0.3, b.median)], stroke(BLACK, 2.0)),
                        line(vec![(x, b.q3), (x, b.whisker_high)]),
                        line(vec![(x, b.q1), (x, b.whisker_low)]),
                        line(vec![(x - 0.12, b.whisker_high), (x + 0.12, b.whisker_high)]),
                        line(vec![(x - 0.12, b.whisker_low), (x + 0.12, b.whisker_low)]),
                    ])
                    .map_err(err)?;
                let outliers = [b.min, b.max].into_iter().filter(|&v| v < b.whisker_low || v > b.whisker_high);
                chart.draw_series(outliers.map(|v| Circle::new((x, v), px(3.0), stroke(BLACK, 1.0)))).map_err(err)?;
            }
        }
        FigureData::Histogram { edges, counts } => {
            let top = counts.iter().copied().max().unwrap_or(1) as f64;
            let mut chart = axes(root, &fig.title, s, edges[0]..edges[edges.len() - 1], 0.0..(top * 1.1))?;
            mesh(&mut chart, fig, s, 12.0)
                .disable_x_mesh()
                .x_label_formatter(&|v| number(*v))
                .y_label_formatter(&|v| number(*v))
                .draw()
                .map_err(err)?;
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
                        .map(|(i, &n)| Rectangle::new([(edges[i], 0.0), (edges[i + 1], n as f64)], stroke(WHITE, 1.0))),
                )
                .map_err(err)?;
        }
    }
    Ok(())
}
