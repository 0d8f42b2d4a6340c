//! Figures: one data model drawn by the workbench's live plots (egui_plot) and written to
//! files (SVG, PNG, PDF) by plotters, always with the CSV of the data beside it.
//!
//! A [`Figure`] holds the numbers already aggregated (means, intervals, bins), so what the
//! GUI shows and what a paper gets are the same numbers; [`from_results`] builds figures from
//! arena results, [`export`] writes them and [`tables`] writes summary tables.

pub mod accuracy;
mod chart;
mod draw;
pub mod export;
pub mod from_results;
pub mod live;
pub mod palette;
pub mod tables;
pub mod ticks;

use serde::{Deserialize, Serialize};

pub use chart::DrawError;
pub use export::{ExportError, ExportOptions, FigureFormat, export_figure, render_pdf, render_png, render_svg};
pub use from_results::{Field, FigureError, Metric, PlotKind, PlotRequest, figure_from_results};

/// One line of a line figure; `band` is the 95% interval at each point, if known.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Series {
    pub name: String,
    pub points: Vec<LinePoint>,
    /// The name whose colour the line takes, when not its own: one agent's lines on several
    /// boards ("strong-ab on connect4", "strong-ab on connect5") share the agent's colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour_of: Option<String>,
    /// The line's pattern, an index into [`DASHES`]: 0 solid. Lines of one colour differ by it
    /// (one pattern a board).
    #[serde(default, skip_serializing_if = "is_solid")]
    pub dash: u8,
    /// The panel the line is drawn in, when a figure has one panel a value (a board); empty:
    /// one panel for all. Panels share both axes and the legend.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub panel: String,
    /// A reference line (an agent that reads no budget, as random), flat across the range: it
    /// never widens the y axis, so that it does not squeeze the agents' lines into a corner
    /// (see [`line_y_extent`]). It is named with its value where it is drawn, not in the
    /// legend; above the axis' top only its name shows, under the top, with an arrow.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reference: bool,
    /// A level across the range (a ladder rung's rating): drawn without point markers, which
    /// would read as measurements at its two ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub level: bool,
}

/// The panels of a line figure, in the order their lines first come; empty for one panel.
pub fn line_panels(series: &[Series]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in series.iter().filter(|s| !s.panel.is_empty()) {
        if !out.contains(&s.panel) {
            out.push(s.panel.clone());
        }
    }
    out
}

/// The (rows, columns) `n` panels are drawn in: two wide for two and four panels, three wide
/// otherwise (three panels in one row: two wide left a quarter empty).
pub fn panel_grid(n: usize) -> (usize, usize) {
    let cols = match n {
        0 | 1 => 1,
        2 | 4 => 2,
        _ => 3,
    };
    (n.div_ceil(cols).max(1), cols)
}

fn is_solid(dash: &u8) -> bool {
    *dash == 0
}

/// Line patterns as (dash, gap) lengths in points, `None` solid; series index it by `dash`,
/// cycling. Drawn alike by the workbench and the exported figures.
pub const DASHES: [Option<(f64, f64)>; 4] = [None, Some((9.0, 5.0)), Some((2.0, 4.0)), Some((14.0, 4.0))];

impl Series {
    /// A solid line in its own colour.
    pub fn new(name: impl Into<String>, points: Vec<LinePoint>) -> Series {
        Series {
            name: name.into(),
            points,
            colour_of: None,
            dash: 0,
            panel: String::new(),
            reference: false,
            level: false,
        }
    }

    /// The (dash, gap) pattern of this line, `None` solid.
    pub fn pattern(&self) -> Option<(f64, f64)> {
        DASHES[self.dash as usize % DASHES.len()]
    }
}

/// A point's shape. Each palette colour has its own, so lines told apart by colour are told
/// apart in grey too: a paper printed in black and white, a reader who does not see colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Square,
    Up,
    Diamond,
    Down,
    Left,
    Right,
    Cross,
}

/// The marker of each palette colour, in [`palette::SERIES`]' order.
pub const MARKERS: [Marker; 8] = [
    Marker::Circle,
    Marker::Square,
    Marker::Up,
    Marker::Diamond,
    Marker::Down,
    Marker::Left,
    Marker::Right,
    Marker::Cross,
];

impl Marker {
    /// The outline of a filled marker, in units of its radius around its centre (x right, y
    /// down); None for the circle and the cross, drawn as a circle and two strokes.
    pub fn outline(self) -> Option<Vec<(f64, f64)>> {
        let s = 0.85; // a square as heavy as a circle of radius 1
        match self {
            Marker::Circle | Marker::Cross => None,
            Marker::Square => Some(vec![(-s, -s), (s, -s), (s, s), (-s, s)]),
            Marker::Diamond => Some(vec![(0.0, -1.2), (1.2, 0.0), (0.0, 1.2), (-1.2, 0.0)]),
            Marker::Up => Some(vec![(0.0, -1.2), (1.1, 0.8), (-1.1, 0.8)]),
            Marker::Down => Some(vec![(0.0, 1.2), (1.1, -0.8), (-1.1, -0.8)]),
            Marker::Left => Some(vec![(-1.2, 0.0), (0.8, -1.1), (0.8, 1.1)]),
            Marker::Right => Some(vec![(1.2, 0.0), (-0.8, -1.1), (-0.8, 1.1)]),
        }
    }
}

/// How a series is drawn, besides its pattern: its colour and its points' marker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeriesLook {
    pub colour: [u8; 3],
    pub marker: Marker,
}

/// The name a series takes its colour by (`colour_of`, else its own), each series' index
/// among the sorted distinct names, and those names.
fn colour_names(series: &[Series]) -> (Vec<String>, Vec<usize>) {
    let key = |s: &Series| s.colour_of.clone().unwrap_or_else(|| s.name.clone());
    let mut names: Vec<String> = series.iter().map(key).collect();
    names.sort();
    names.dedup();
    let rank = series.iter().map(|s| names.binary_search(&key(s)).unwrap_or(0)).collect();
    (names, rank)
}

/// The colour and marker of each series: one per colour name, kept from figure to figure as
/// [`palette::series_slots`] keeps it.
pub fn series_looks(series: &[Series]) -> Vec<SeriesLook> {
    let (names, rank) = colour_names(series);
    let slots = palette::series_slots(&names);
    rank.iter()
        .map(|&r| SeriesLook {
            colour: palette::SERIES[slots[r].colour],
            marker: MARKERS[slots[r].marker % MARKERS.len()],
        })
        .collect()
}

/// The colour of each series (see [`series_looks`]).
pub fn series_colours(series: &[Series]) -> Vec<[u8; 3]> {
    series_looks(series).into_iter().map(|l| l.colour).collect()
}

/// Tells a figure's lines apart by pattern as well as by colour, so that a greyscale print
/// separates them along the whole line, not only by their markers. Each line takes its
/// colour's pattern ([`palette::COLOUR_DASH`]: colours that print as near greys differ in
/// pattern), so that an agent's whole look, colour, marker and pattern, is its own in every
/// figure, whoever it is drawn beside. A colour that comes twice in a figure (the ten
/// presets, or more names than the palette's eight colours: see [`palette::series_slots`])
/// takes the next pattern for each later name. A figure whose lines are patterned already (one
/// pattern a board) keeps them, and only a colour's second and third rounds are patterned;
/// reference lines and levels keep their own patterns.
pub fn tell_lines_apart(series: &mut [Series]) {
    let (names, rank) = colour_names(series);
    let slots = palette::series_slots(&names);
    let measured = |s: &Series| !s.reference && !s.level;
    let by_board = series.iter().any(|s| measured(s) && s.dash != 0);
    for (s, r) in series.iter_mut().zip(rank) {
        if !measured(s) || s.dash != 0 {
            continue;
        }
        let colour = slots[r].colour;
        // The names before this one in the figure with its colour.
        let round = (0..r).filter(|&q| slots[q].colour == colour).count();
        if !by_board {
            s.dash = ((usize::from(palette::COLOUR_DASH[colour]) + round) % DASHES.len()) as u8;
        } else if round > 0 {
            s.dash = 2 + ((round - 1) % (DASHES.len() - 2)) as u8;
        }
    }
}

/// Whether the series' x values are all whole numbers (counts: games, depths, board sizes,
/// K): their axis then gets whole-number ticks, in the exported figure and the workbench.
pub fn whole_x(series: &[Series]) -> bool {
    series.iter().flat_map(|s| &s.points).all(|p| p.x.fract() == 0.0)
}

/// The y extent a figure of lines is drawn over: its measured lines' points (and bands, when
/// drawn). A reference line widens it only when it is all there is; one above the measured
/// lines adds room at the top for its name, which is written there instead of the line
/// (random's 0.7 pressed the agents' lines into the lowest fifth). The exported figure and the
/// workbench draw the same extent. None when no point is drawn.
pub fn line_y_extent(series: &[Series], bands: bool) -> Option<(f64, f64)> {
    let measured = series.iter().any(|s| !s.reference && !s.points.is_empty());
    let (mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY);
    for s in series.iter().filter(|s| !(s.reference && measured)) {
        for p in &s.points {
            let (lo, hi) = if bands { p.band.unwrap_or((p.y, p.y)) } else { (p.y, p.y) };
            y0 = y0.min(p.y).min(lo);
            y1 = y1.max(p.y).max(hi);
        }
    }
    if !y0.is_finite() {
        return None;
    }
    if measured && series.iter().any(|s| s.reference && s.points.iter().any(|p| p.y > y1)) {
        y1 += 0.15 * (y1 - y0.min(0.0)).max(f64::EPSILON);
    }
    Some((y0, y1))
}

/// How a reference line (see [`Series::reference`]) is labelled: its name and value, with
/// an arrow when it lies above the axis' top and is not drawn. Reference lines are named
/// where they are drawn, not in the legend.
pub fn reference_label(s: &Series, above: bool) -> String {
    let v = s.points.first().map_or(f64::NAN, |p| p.y);
    if above { format!("{} {v:.2} \u{2191}", s.name) } else { format!("{} {v:.2}", s.name) }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinePoint {
    pub x: f64,
    pub y: f64,
    /// Lower and upper ends of the 95% interval.
    pub band: Option<(f64, f64)>,
    /// How many samples the point aggregates.
    pub n: u32,
}

/// Box-plot statistics of one group (Tukey whiskers: the furthest points within 1.5 IQR).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxStats {
    pub name: String,
    pub n: u32,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
    pub whisker_low: f64,
    pub whisker_high: f64,
    /// Every value beyond the whiskers (drawn as points, listed in the CSV).
    #[serde(default)]
    pub outliers: Vec<f64>,
}

impl BoxStats {
    /// Quartiles by linear interpolation (R's type 7), None for no values.
    pub fn from_values(name: &str, values: &[f64]) -> Option<BoxStats> {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        let q = |p: f64| {
            let h = (v.len() - 1) as f64 * p;
            let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
            v[lo] + (h - lo as f64) * (v[hi] - v[lo])
        };
        let (q1, median, q3) = (q(0.25), q(0.5), q(0.75));
        let iqr = q3 - q1;
        let whisker_low = v.iter().copied().find(|&x| x >= q1 - 1.5 * iqr).unwrap_or(q1);
        let whisker_high = v.iter().rev().copied().find(|&x| x <= q3 + 1.5 * iqr).unwrap_or(q3);
        let outliers = v.iter().copied().filter(|&x| x < whisker_low || x > whisker_high).collect();
        Some(BoxStats {
            name: name.into(),
            n: v.len() as u32,
            min: v[0],
            q1,
            median,
            q3,
            max: v[v.len() - 1],
            whisker_low,
            whisker_high,
            outliers,
        })
    }
}

/// What a figure shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum FigureData {
    /// Lines over a numeric x axis, each with an optional 95% band.
    Lines(Vec<Series>),
    /// Stacked bars: one bar per category, `stacks[i].1[c]` the height of part i in bar c.
    StackedBars {
        categories: Vec<String>,
        stacks: Vec<(String, Vec<f64>)>,
    },
    /// One pie per group, each slice a (label, value) pair.
    Pies(Vec<(String, Vec<(String, f64)>)>),
    /// Cells over two fields, in one panel per value of a third field (a facet) or one
    /// panel; every panel has the same columns (along x) and rows (along y).
    Heatmap {
        columns: Vec<String>,
        rows: Vec<String>,
        panels: Vec<HeatPanel>,
        /// Draw the line between cells on either side of this value (e.g. 0.5: where one
        /// agent stops beating the other).
        #[serde(default)]
        boundary: Option<f64>,
    },
    Boxes(Vec<BoxStats>),
    /// Bins `[edges[i], edges[i + 1])` with their counts.
    Histogram {
        edges: Vec<f64>,
        counts: Vec<u32>,
    },
}

/// One panel of a heatmap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeatPanel {
    /// "K = 4" for a facet; empty for a heatmap of one panel.
    pub label: String,
    /// `values[row][column]`; None where no game was played.
    pub values: Vec<Vec<Option<f64>>>,
    /// Games behind each cell.
    pub counts: Vec<Vec<u32>>,
}

/// A figure: its data, title and axis labels (all editable before export).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Heatmaps: what the colour means.
    pub value_label: String,
    /// The y axis' range when the quantity has one (a score or a rate: 0..1; the review's
    /// expected result: -1..1), widened only by data outside it; (0, 0): from zero, as far as
    /// the data go (seconds, nodes). None: fitted to the data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_range: Option<(f64, f64)>,
    pub data: FigureData,
    /// What a figure of lines marks over its lines (the review's mistakes, proven distances
    /// and per-move losses), drawn alike by the workbench and the exported files.
    #[serde(default, skip_serializing_if = "Marks::is_empty")]
    pub marks: Marks,
}

/// A labelled place on a figure: a mistake's point and move, a proven distance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Label {
    pub x: f64,
    pub y: f64,
    pub text: String,
}

/// Marks over a figure of lines, each kind named for the legend and the CSV.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Marks {
    /// Emphasised points, each labelled above in bold (the review's mistakes).
    pub points: Vec<Label>,
    pub points_name: String,
    /// Small text under a point (a proven value's distance to the end).
    pub notes: Vec<Label>,
    pub notes_name: String,
    /// Bars as (x, value) standing on `bar_base` (each move's loss), drawn `bar_scale` high.
    /// The CSV writes the values, not the heights drawn.
    pub bars: Vec<(f64, f64)>,
    pub bar_base: f64,
    pub bar_scale: BarScale,
    pub bars_name: String,
    /// The y axis' ticks with their labels, where they are not plain numbers (the review's
    /// mate-style scale: "W5" above "+1.0").
    pub y_ticks: Vec<(f64, String)>,
    /// The x axis' ticks with their labels, where the axis is a scale of something else (the
    /// accuracy figures' log2 budget, labelled with the budgets: "4096", "8 ms").
    pub x_ticks: Vec<(f64, String)>,
    /// The x coordinate is log2 of the quantity the x label names (the accuracy figures'
    /// budgets): the CSV writes the quantity, 2^x, the numbers a reader re-plots.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub x_log2: bool,
    /// Not drawn: what a drawn line's points stand for where its y is a plotting scale (the
    /// review's expected result behind its mate-style coordinate), for the CSV's reader.
    pub readings: Vec<Label>,
    pub readings_name: String,
}

/// How high a bar of [`Marks::bars`] is drawn for its value: `per_unit` times the value, at
/// most `max` (the review's bars: a loss of 2 reaches the middle, larger losses stop there).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarScale {
    pub per_unit: f64,
    pub max: f64,
}

impl Default for BarScale {
    fn default() -> Self {
        BarScale { per_unit: 1.0, max: f64::MAX }
    }
}

impl BarScale {
    /// The height drawn for `value`.
    pub fn height(&self, value: f64) -> f64 {
        (value * self.per_unit).min(self.max)
    }
}

impl Marks {
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
            && self.notes.is_empty()
            && self.bars.is_empty()
            && self.y_ticks.is_empty()
            && self.x_ticks.is_empty()
            && !self.x_log2
            && self.readings.is_empty()
    }
}

impl Figure {
    /// The numbers behind the figure, one row per drawn value, in long form.
    pub fn to_csv(&self) -> String {
        let rows = match &self.data {
            FigureData::Lines(series) => self.lines_rows(series),
            FigureData::StackedBars { categories, stacks } => {
                let head = vec![self.x_label.clone(), "part".into(), self.y_label.clone()];
                let body = categories.iter().enumerate().flat_map(|(c, cat)| {
                    stacks.iter().map(move |(part, values)| vec![cat.clone(), part.clone(), num(values[c])])
                });
                std::iter::once(head).chain(body).collect()
            }
            FigureData::Pies(pies) => {
                let head = vec!["group".into(), "slice".into(), "value".into()];
                let body = pies.iter().flat_map(|(group, slices)| {
                    slices.iter().map(move |(label, v)| vec![group.clone(), label.clone(), num(*v)])
                });
                std::iter::once(head).chain(body).collect()
            }
            FigureData::Heatmap { columns, rows, panels, .. } => self.heatmap_rows(columns, rows, panels),
            FigureData::Boxes(boxes) => self.boxes_rows(boxes),
            FigureData::Histogram { edges, counts } => {
                let head = vec!["bin_low".into(), "bin_high".into(), "count".into()];
                let body =
                    counts.iter().enumerate().map(|(i, c)| vec![num(edges[i]), num(edges[i + 1]), c.to_string()]);
                std::iter::once(head).chain(body).collect()
            }
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in &rows {
            // Writing to a Vec cannot fail.
            let _ = w.write_record(r);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// The CSV rows of a line figure: a row a point, then the marks over the lines in rows of
    /// their own, named as in the legend, with a column for their labels (the mistake's move,
    /// the proven distance).
    fn lines_rows(&self, series: &[Series]) -> Vec<Vec<String>> {
        // A log2 x is written as the quantity, rounded off the last bits of 2^x (0.002, not
        // 0.0020000000000000005).
        let fx = |x: f64| if self.marks.x_log2 { num((x.exp2() * 1e12).round() / 1e12) } else { num(x) };
        let m = &self.marks;
        let marked = !(m.points.is_empty() && m.notes.is_empty() && m.bars.is_empty() && m.readings.is_empty());
        let paneled = !line_panels(series).is_empty();
        let line = |panel: &str, fields: Vec<String>, label: &str| {
            let mut all: Vec<String> = Vec::new();
            if paneled {
                all.push(panel.to_string());
            }
            all.extend(fields);
            if marked {
                all.push(label.to_string());
            }
            all
        };
        let mut head: Vec<String> = Vec::new();
        if paneled {
            head.push("panel".into());
        }
        head.extend(["series".into(), self.x_label.clone(), self.y_label.clone(), "low".into(), "high".into()]);
        head.push("n".into());
        if marked {
            head.push("label".into());
        }
        let mut rows = vec![head];
        for s in series {
            for p in &s.points {
                let (lo, hi) = p.band.map_or((String::new(), String::new()), |(a, b)| (num(a), num(b)));
                rows.push(line(&s.panel, vec![s.name.clone(), fx(p.x), num(p.y), lo, hi, p.n.to_string()], ""));
            }
        }
        let labelled = m
            .points
            .iter()
            .map(|l| (&m.points_name, l))
            .chain(m.notes.iter().map(|l| (&m.notes_name, l)))
            .chain(m.readings.iter().map(|l| (&m.readings_name, l)));
        let empty = || String::new();
        for (name, l) in labelled {
            rows.push(line("", vec![name.clone(), num(l.x), num(l.y), empty(), empty(), empty()], &l.text));
        }
        for &(x, h) in &m.bars {
            rows.push(line("", vec![m.bars_name.clone(), num(x), num(h), empty(), empty(), empty()], ""));
        }
        rows
    }

    /// The CSV rows of a heatmap: a row a cell with a value, with its panel when there are
    /// several (or a named one), and the games behind it.
    fn heatmap_rows(&self, columns: &[String], rows: &[String], panels: &[HeatPanel]) -> Vec<Vec<String>> {
        let faceted = panels.len() > 1 || panels.iter().any(|p| !p.label.is_empty());
        let mut head = vec![self.x_label.clone(), self.y_label.clone()];
        if faceted {
            head.push("panel".into());
        }
        head.extend([self.value_label.clone(), "games".into()]);
        let mut out = vec![head];
        for p in panels {
            for (r, name) in rows.iter().enumerate() {
                for (c, column) in columns.iter().enumerate() {
                    let Some(v) = p.values[r][c] else { continue };
                    let mut line = vec![column.clone(), name.clone()];
                    if faceted {
                        line.push(p.label.clone());
                    }
                    let games = p.counts.get(r).and_then(|row| row.get(c)).copied().unwrap_or(0);
                    line.extend([num(v), games.to_string()]);
                    out.push(line);
                }
            }
        }
        out
    }

    /// The CSV rows of box plots: a row a box, its five numbers, whiskers and outliers.
    fn boxes_rows(&self, boxes: &[BoxStats]) -> Vec<Vec<String>> {
        let head = [&self.x_label, "n", "min", "q1", "median", "q3", "max", "whisker_low", "whisker_high", "outliers"];
        let mut out = vec![head.iter().map(|h| h.to_string()).collect()];
        for b in boxes {
            out.push(vec![
                b.name.clone(),
                b.n.to_string(),
                num(b.min),
                num(b.q1),
                num(b.median),
                num(b.q3),
                num(b.max),
                num(b.whisker_low),
                num(b.whisker_high),
                b.outliers.iter().map(|&x| num(x)).collect::<Vec<_>>().join(" "),
            ]);
        }
        out
    }

    /// Whether there is anything to draw.
    pub fn is_empty(&self) -> bool {
        match &self.data {
            FigureData::Lines(s) => s.iter().all(|s| s.points.is_empty()),
            FigureData::StackedBars { categories, .. } => categories.is_empty(),
            FigureData::Pies(p) => p.is_empty(),
            FigureData::Heatmap { panels, .. } => {
                panels.iter().flat_map(|p| p.values.iter().flatten()).all(Option::is_none)
            }
            FigureData::Boxes(b) => b.is_empty(),
            FigureData::Histogram { counts, .. } => counts.is_empty(),
        }
    }
}

/// Equal-width bins over the values (Freedman-Diaconis width, whole numbers for integer data).
pub fn histogram(values: &[f64], bins: Option<usize>) -> FigureData {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return FigureData::Histogram { edges: vec![], counts: vec![] };
    }
    v.sort_by(f64::total_cmp);
    let (lo, hi) = (v[0], v[v.len() - 1]);
    let integers = v.iter().all(|x| x.fract() == 0.0);
    let bins = bins.unwrap_or_else(|| {
        let stats = BoxStats::from_values("", &v).expect("non-empty");
        let width = 2.0 * (stats.q3 - stats.q1) / (v.len() as f64).cbrt();
        if width > 0.0 { (((hi - lo) / width).ceil() as usize).clamp(1, 60) } else { 1 }
    });
    let mut width = ((hi - lo) / bins as f64).max(f64::MIN_POSITIVE);
    if integers {
        width = width.ceil().max(1.0);
    }
    let start = lo;
    let count = (((hi - start) / width).floor() as usize + 1).max(1);
    let edges: Vec<f64> = (0..=count).map(|i| start + i as f64 * width).collect();
    let mut counts = vec![0u32; count];
    for x in v {
        let i = (((x - start) / width).floor() as usize).min(count - 1);
        counts[i] += 1;
    }
    FigureData::Histogram { edges, counts }
}

/// The edges between neighbouring cells (left-right or up-down, both played) whose values lie
/// on either side of `level` (one >= level, the other below): the boundary a heatmap draws, as
/// segments in cell coordinates (cell (c, r) spans c-0.5..c+0.5, r-0.5..r+0.5).
pub fn boundary_segments(values: &[Vec<Option<f64>>], level: f64) -> Vec<((f64, f64), (f64, f64))> {
    let side = |v: Option<f64>| v.map(|v| v >= level);
    let mut out = Vec::new();
    for (r, row) in values.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            let (x, y) = (c as f64, r as f64);
            if let (Some(a), Some(b)) = (side(v), side(row.get(c + 1).copied().flatten()))
                && a != b
            {
                out.push(((x + 0.5, y - 0.5), (x + 0.5, y + 0.5)));
            }
            let above = values.get(r + 1).and_then(|next| next.get(c).copied().flatten());
            if let (Some(a), Some(b)) = (side(v), side(above))
                && a != b
            {
                out.push(((x - 0.5, y + 0.5), (x + 0.5, y + 0.5)));
            }
        }
    }
    out
}

/// A heatmap's colour scale: rates (values within 0..1) keep the whole 0..1 scale, so that
/// colours compare across figures; other values span their range.
pub fn heat_range(values: &[Vec<Option<f64>>]) -> (f64, f64) {
    let all = values.iter().flatten().flatten().copied();
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if lo >= 0.0 && hi <= 1.0 {
        (0.0, 1.0)
    } else if hi <= lo {
        (lo, lo + 1.0)
    } else {
        (lo, hi)
    }
}

/// One entry of a figure's legend: a series' line in its colour and pattern, or the shaded
/// intervals.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    pub name: String,
    pub colour: [u8; 3],
    /// The line's (dash, gap) pattern, `None` solid.
    pub pattern: Option<(f64, f64)>,
    /// The line's points' marker (None for the shaded band).
    pub marker: Option<Marker>,
    /// A shaded area (the 95% intervals), not a line: drawn in `colour` as lightly as the
    /// bands are.
    pub shaded: bool,
}

/// The legend of a figure of lines, outside the plot: each series in its colour, pattern and
/// marker (reference lines are named where they are drawn instead), then the shaded band when a point has one (and `bands` draws them), in the lines' colour
/// when they have one, else grey. The exported figure and the workbench list the same
/// entries; inside the plot, a legend covered the lines' ends.
pub fn line_legend(series: &[Series], bands: bool) -> Vec<LegendEntry> {
    let looks = series_looks(series);
    let colours: Vec<[u8; 3]> = looks.iter().map(|l| l.colour).collect();
    let mut entries: Vec<LegendEntry> = Vec::new();
    for (s, look) in series.iter().zip(&looks) {
        // One entry a line however many panels draw it; none for a line with nothing to draw
        // (on a log axis, the random agent's zero nodes).
        if !s.reference && !s.points.is_empty() && !entries.iter().any(|e| e.name == s.name) {
            let (colour, marker) = (look.colour, (!s.level).then_some(look.marker));
            entries.push(LegendEntry { name: s.name.clone(), colour, pattern: s.pattern(), marker, shaded: false });
        }
    }
    if bands && series.iter().flat_map(|s| &s.points).any(|p| p.band.is_some()) {
        let one = colours.iter().all(|c| Some(c) == colours.first());
        let colour = if one { colours[0] } else { [110, 110, 110] };
        // A line of one point has no band to shade: its interval is drawn as an error bar.
        let points = |s: &Series| s.points.len();
        let name = if series.iter().all(|s| points(s) <= 1) {
            "95% interval (error bars)"
        } else if series.iter().any(|s| points(s) == 1) {
            "95% interval (shaded; a bar at a lone point)"
        } else {
            "95% interval (shaded)"
        };
        entries.push(LegendEntry { name: name.into(), colour, pattern: None, marker: None, shaded: true });
    }
    entries
}

/// The label of a category axis at `v`: the category's name at whole positions, nothing
/// between them.
pub fn category_label(names: &[String], v: f64) -> String {
    let i = v.round();
    if (v - i).abs() < 1e-6 && i >= 0.0 { names.get(i as usize).cloned().unwrap_or_default() } else { String::new() }
}

/// The figure with its y values on a log10 scale (lines, bands and box plots; other kinds
/// are returned as they are), for quantities spanning orders of magnitude such as nodes per
/// move. Axis ticks then read `10^v`. A line's points at 0 or below are left out (a log
/// scale has no place for them: drawn a decade below the smallest value they read as a
/// count, "0 nodes" as 18); a band's low end and a box's values at 0 or below sit a decade
/// below the smallest positive value, at the axis' foot.
pub fn log_y(fig: &Figure) -> Figure {
    let positives = |vals: &mut dyn Iterator<Item = f64>| vals.filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
    let mut out = fig.clone();
    let floor = match &fig.data {
        FigureData::Lines(series) => positives(&mut series.iter().flat_map(|s| &s.points).flat_map(|p| {
            let (lo, hi) = p.band.unwrap_or((p.y, p.y));
            [p.y, lo, hi]
        })),
        FigureData::Boxes(boxes) => positives(&mut boxes.iter().flat_map(|b| [b.min, b.q1, b.median, b.q3, b.max])),
        _ => return out,
    };
    let floor = if floor.is_finite() { floor / 10.0 } else { 1.0 };
    let t = |v: f64| v.max(floor).log10();
    match &mut out.data {
        FigureData::Lines(series) => {
            for s in series.iter_mut() {
                s.points.retain(|p| p.y > 0.0);
            }
            for p in series.iter_mut().flat_map(|s| s.points.iter_mut()) {
                p.y = t(p.y);
                p.band = p.band.map(|(lo, hi)| (t(lo), t(hi)));
            }
        }
        FigureData::Boxes(boxes) => {
            for b in boxes {
                for v in [
                    &mut b.min,
                    &mut b.q1,
                    &mut b.median,
                    &mut b.q3,
                    &mut b.max,
                    &mut b.whisker_low,
                    &mut b.whisker_high,
                ] {
                    *v = t(*v);
                }
                for v in &mut b.outliers {
                    *v = t(*v);
                }
            }
        }
        _ => {}
    }
    out
}

/// A number as the CSV files write it: Rust's shortest form that reads back the same.
fn num(x: f64) -> String {
    format!("{x}")
}

#[cfg(test)]
mod log_and_legend_tests {
    use super::*;

    fn lines(points: &[(f64, f64)]) -> Figure {
        Figure {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            value_label: String::new(),
            y_range: None,
            marks: Default::default(),
            data: FigureData::Lines(vec![Series::new(
                "a",
                points.iter().map(|&(x, y)| LinePoint { x, y, band: None, n: 1 }).collect(),
            )]),
        }
    }

    /// A move searched with 0 nodes (a book answer, a forced reply) is no point on a log
    /// scale; it was drawn a decade below the smallest count, where it read as a count.
    #[test]
    fn a_log_scale_leaves_out_zeros_and_keeps_the_rest() {
        let FigureData::Lines(s) = log_y(&lines(&[(1.0, 0.0), (2.0, 180.0), (3.0, 1e4)])).data else { panic!() };
        let ys: Vec<f64> = s[0].points.iter().map(|p| p.y).collect();
        assert_eq!(s[0].points.iter().map(|p| p.x).collect::<Vec<_>>(), [2.0, 3.0]);
        assert!((ys[0] - 180f64.log10()).abs() < 1e-12 && (ys[1] - 4.0).abs() < 1e-12, "{ys:?}");
    }

    /// On a log axis, an agent that searched no nodes (random) has no point: the legend does
    /// not list a line that is not drawn, and the others keep the colours they had.
    #[test]
    fn a_log_scale_lists_no_line_it_cannot_draw() {
        let mut fig = lines(&[(1.0, 0.0), (2.0, 0.0)]);
        let FigureData::Lines(series) = &mut fig.data else { panic!() };
        series[0].name = "random".into();
        series.push(Series::new("strong-ab", vec![LinePoint { x: 1.0, y: 5e4, band: None, n: 1 }]));
        let before = line_legend(series, false);
        let FigureData::Lines(logged) = log_y(&fig).data else { panic!() };
        let after = line_legend(&logged, false);
        assert_eq!(before.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["random", "strong-ab"]);
        assert_eq!(after.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["strong-ab"]);
        assert_eq!(after[0].colour, before[1].colour);
    }

    /// The legend lists every series in its own colour, and the band once, as the export does.
    #[test]
    fn the_legend_lists_series_and_the_band_once() {
        let mut fig = lines(&[(0.0, 0.1), (5.0, 0.5)]);
        let FigureData::Lines(series) = &mut fig.data else { panic!() };
        series.push(Series::new("b", series[0].points.clone()));
        series[1].points[0].band = Some((0.0, 0.2));
        let legend = line_legend(series, true);
        let names: Vec<&str> = legend.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "95% interval (shaded)"]);
        assert_ne!(legend[0].colour, legend[1].colour);
        assert!(legend[2].shaded && !legend[0].shaded);
        assert_eq!(line_legend(series, false).len(), 2);
    }

    /// One agent's lines on two boards take the agent's colour and differ by pattern; another
    /// agent keeps the colour it has alone, and one colour's band is drawn in it.
    #[test]
    fn an_agent_keeps_its_colour_across_boards() {
        let pts = vec![LinePoint { x: 1.0, y: 0.5, band: Some((0.4, 0.6)), n: 1 }];
        let on = |agent: &str, board: &str, dash| Series {
            colour_of: Some(agent.into()),
            dash,
            ..Series::new(format!("{agent} on {board}"), pts.clone())
        };
        let series = [on("strong-ab", "connect4", 0), on("strong-ab", "connect5", 1), on("random", "connect4", 0)];
        let alone = series_colours(&[Series::new("strong-ab", pts.clone()), Series::new("random", pts.clone())]);
        let legend = line_legend(&series, true);
        assert_eq!(legend[0].colour, legend[1].colour);
        assert_eq!(legend[0].colour, alone[0]);
        assert_eq!(legend[2].colour, alone[1]);
        assert_eq!((legend[0].pattern, legend[1].pattern.is_some()), (None, true));
        let band = line_legend(&series[..2], true);
        let by_itself = series_colours(&[Series::new("strong-ab", pts.clone())])[0];
        assert!(band[2].shaded && band[2].colour == by_itself, "{band:?}");
    }
}

#[cfg(test)]
mod boundary_tests {
    use super::boundary_segments;

    /// A 2 x 3 map: the line runs between 0.4 and 0.6 and between 0.6 and 0.3, not next to a
    /// cell never played.
    #[test]
    fn the_boundary_separates_cells_on_either_side() {
        let values = vec![vec![Some(0.4), Some(0.6), None], vec![Some(0.45), Some(0.3), Some(0.9)]];
        let segs = boundary_segments(&values, 0.5);
        assert_eq!(segs, vec![((0.5, -0.5), (0.5, 0.5)), ((0.5, 0.5), (1.5, 0.5)), ((1.5, 0.5), (1.5, 1.5))]);
    }
}

#[cfg(test)]
mod pattern_tests {
    use super::palette::grey;
    use super::*;

    fn lines(names: &[&str]) -> Vec<Series> {
        let pts = vec![LinePoint { x: 1.0, y: 0.5, band: None, n: 1 }];
        names.iter().map(|n| Series::new(*n, pts.clone())).collect()
    }

    /// Whatever the agents, two colours that print as near greys (within 25 of 255) never
    /// share a pattern, and a colour that comes twice (more names than colours) differs by
    /// pattern from its first line (from the others, by marker).
    #[test]
    fn near_greys_never_share_a_pattern() {
        let study = ["plain-ab", "plain-uct", "strong-ab", "strong-mcts"];
        let eight: Vec<String> = (0..8).map(|i| format!("agent-{i}")).collect();
        let eight: Vec<&str> = eight.iter().map(String::as_str).collect();
        for names in [&study[..], &study[..2], &study[1..], &eight[..]] {
            let mut series = lines(names);
            series.push(Series { dash: 1, reference: true, ..lines(&["random"]).remove(0) });
            tell_lines_apart(&mut series);
            assert_eq!(series.last().unwrap().dash, 1, "the reference line keeps its dashes");
            let colours = series_colours(&series);
            let looks: Vec<([u8; 3], u8)> =
                series.iter().zip(&colours).filter(|(s, _)| !s.reference).map(|(s, &c)| (c, s.dash)).collect();
            let once = |c: [u8; 3]| looks.iter().filter(|l| l.0 == c).count() == 1;
            for (i, a) in looks.iter().enumerate() {
                for b in &looks[i + 1..] {
                    if a.0 == b.0 {
                        assert_ne!(a.1, b.1, "a colour's second line differs by pattern: {looks:?}");
                    } else if once(a.0) && once(b.0) && (grey(a.0) - grey(b.0)).abs() < 25.0 {
                        assert_ne!(a.1, b.1, "near greys share a pattern: {looks:?}");
                    }
                }
            }
        }
    }

    /// An agent's pattern is its own: alone, beside random, beside jeng-mcts, beside all the
    /// presets (strong-ab's line was solid beside jeng-mcts and dashed beside random).
    #[test]
    fn an_agent_keeps_its_pattern_beside_any_other() {
        let dash_of = |names: &[&str], who: &str| {
            let mut series = lines(names);
            tell_lines_apart(&mut series);
            series.iter().find(|s| s.name == who).unwrap().dash
        };
        let presets: Vec<&str> = palette::preset_names().collect();
        for &who in &presets {
            let alone = dash_of(&[who], who);
            for &other in &presets {
                if palette::series_for(&[who, other])[0] != palette::series_for(&[who, other])[1] {
                    assert_eq!(dash_of(&[who, other], who), alone, "{who} beside {other}");
                    assert_eq!(dash_of(&[other, who], who), alone, "{who} after {other}");
                }
            }
        }
        assert_eq!(dash_of(&["strong-ab"], "strong-ab"), 0, "strong-ab is solid");
    }

    /// A figure patterned by board keeps its patterns.
    #[test]
    fn lines_already_told_apart_keep_their_patterns() {
        let on = |board: &str, dash| Series {
            colour_of: Some("strong-mcts".into()),
            dash,
            ..Series::new(format!("strong-mcts on {board}"), lines(&["x"]).remove(0).points)
        };
        let mut boards = vec![on("a", 0), on("b", 1), lines(&["plain-uct"]).remove(0)];
        tell_lines_apart(&mut boards);
        assert_eq!(boards.iter().map(|s| s.dash).collect::<Vec<_>>(), [0, 1, 0]);
    }
}
