//! Drawing figures to files with plotters: SVG directly, PNG through its bitmap backend at
//! the requested DPI, PDF by converting the SVG with svg2pdf. Text is always DejaVu Sans from
//! assets/, registered with plotters and loaded into svg2pdf's font database, so a figure
//! looks the same on every machine (and the PDF embeds the font).

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

use super::Figure;
use super::draw::{draw, scaled};
use crate::io::{FileError, write_atomic};

/// The shipped font and the family name figures use.
pub const FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
pub const FONT: &str = "DejaVu Sans";

/// SVG and PDF user units per inch (CSS pixels).
const SVG_DPI: f64 = 96.0;

/// Size and resolution of an exported figure.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// The default size for `fig`: 6.4 x 4 in, and a faceted heatmap 2.4 in a panel (plus
    /// room for its labels and colour bar) so that its panels keep their cells readable.
    pub fn for_figure(fig: &super::Figure) -> ExportOptions {
        let panels = match &fig.data {
            super::FigureData::Heatmap { panels, .. } => panels.len(),
            _ => 1,
        };
        let width_in = if panels > 1 { (1.6 + 2.4 * panels as f64).max(6.4) } else { 6.4 };
        ExportOptions { width_in, ..ExportOptions::default() }
    }

    /// A figure for one column of a two-column paper: 3.4 in wide, 8-point tick labels at
    /// the size it prints (a 6.4 in figure shrunk into the column had 4.7-point text).
    pub fn column() -> ExportOptions {
        ExportOptions { width_in: 3.4, height_in: 2.7, dpi: 300.0, font_pt: 8.0, ..ExportOptions::default() }
    }

    /// A figure across both columns of a paper (7 in), with `rows` rows of panels, 8-point
    /// tick labels at print size.
    pub fn two_columns(rows: usize) -> ExportOptions {
        let height_in = 1.0 + 2.1 * rows.max(1) as f64;
        ExportOptions { width_in: 7.0, height_in, dpi: 300.0, font_pt: 8.0, ..ExportOptions::default() }
    }

    /// Pixel size at `dpi`.
    pub fn pixels(&self, dpi: f64) -> (u32, u32) {
        ((self.width_in * dpi).round().max(16.0) as u32, (self.height_in * dpi).round().max(16.0) as u32)
    }
}

/// Why a figure could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{}: the figure's file name must end in .svg, .png or .pdf", .0.display())]
    Format(PathBuf),
    #[error(transparent)]
    Draw(#[from] super::chart::DrawError),
    #[error("{0}")]
    Png(#[from] png::EncodingError),
    #[error("internal SVG did not parse: {0}")]
    Svg(#[from] svg2pdf::usvg::Error),
    #[error("PDF conversion failed: {0}")]
    Pdf(svg2pdf::ConversionError),
    #[error(transparent)]
    File(#[from] FileError),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureFormat {
    Svg,
    Png,
    Pdf,
}

impl FigureFormat {
    /// From a file name's extension.
    pub fn from_path(path: &Path) -> Result<FigureFormat, ExportError> {
        match path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()).as_deref() {
            Some("svg") => Ok(FigureFormat::Svg),
            Some("png") => Ok(FigureFormat::Png),
            Some("pdf") => Ok(FigureFormat::Pdf),
            _ => Err(ExportError::Format(path.to_path_buf())),
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
pub fn render_svg(fig: &Figure, opts: &ExportOptions) -> Result<String, ExportError> {
    register_font();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, opts.pixels(SVG_DPI)).into_drawing_area();
        draw(&root, &scaled(fig, opts), 1.0, opts)?;
        root.present().map_err(super::chart::DrawError::from)?;
    }
    Ok(out)
}

/// The figure as a PNG file (with its DPI recorded in the pHYs chunk).
pub fn render_png(fig: &Figure, opts: &ExportOptions) -> Result<Vec<u8>, ExportError> {
    register_font();
    let (w, h) = opts.pixels(opts.dpi);
    let mut rgb = vec![255u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        draw(&root, &scaled(fig, opts), opts.dpi / SVG_DPI, opts)?;
        root.present().map_err(super::chart::DrawError::from)?;
    }
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let per_metre = (opts.dpi / 0.0254).round() as u32;
        enc.set_pixel_dims(Some(png::PixelDimensions { xppu: per_metre, yppu: per_metre, unit: png::Unit::Meter }));
        let mut writer = enc.write_header()?;
        writer.write_image_data(&rgb)?;
    }
    Ok(bytes)
}

/// The figure as a PDF page, the font embedded.
pub fn render_pdf(fig: &Figure, opts: &ExportOptions) -> Result<Vec<u8>, ExportError> {
    use svg2pdf::usvg;
    let svg = render_svg(fig, opts)?;
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_font_data(FONT_BYTES.to_vec());
    options.fontdb_mut().set_sans_serif_family(FONT);
    let tree = usvg::Tree::from_str(&svg, &options)?;
    let page = svg2pdf::PageOptions { dpi: SVG_DPI as f32 };
    svg2pdf::to_pdf(&tree, svg2pdf::ConversionOptions::default(), page).map_err(ExportError::Pdf)
}

/// Writes the figure to `path` (format from its extension) and its data to the same name
/// with `.csv`; returns both paths. Files are replaced atomically.
pub fn export_figure(fig: &Figure, path: &Path, opts: &ExportOptions) -> Result<Vec<PathBuf>, ExportError> {
    let bytes = match FigureFormat::from_path(path)? {
        FigureFormat::Svg => render_svg(fig, opts)?.into_bytes(),
        FigureFormat::Png => render_png(fig, opts)?,
        FigureFormat::Pdf => render_pdf(fig, opts)?,
    };
    let csv = path.with_extension("csv");
    write_atomic(path, &bytes)?;
    write_atomic(&csv, fig.to_csv().as_bytes())?;
    Ok(vec![path.to_path_buf(), csv])
}
