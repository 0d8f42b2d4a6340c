//! The matchup tab's results: the summary of the games so far, the live plot with its
//! export, each agent's time use and the live SPRT, laid out for the tab's height. A short
//! tab (the tabs under gomoku's or Connect-4's board at the default window size) gives the
//! plot the room first: the export row goes into a menu in the plot's title row, then the
//! table gives way to a one-line headline, the table shown on request in the plot's place.

use std::path::Path;

use super::{LivePlot, MatchupPanel, width_in_view, wrapped_in_view};
use crate::app::plots::{TitleRow, draw_figure, export_rows, height_in_view, plot_height_in_view, title_rows};
use crate::arena::{GameRecord, PairStats};

/// The lowest plot the export row is kept under, and the lowest the table is kept above: at
/// some 60 points (both of them, on gomoku) the nodes plot had no y tick labels left. The
/// table is worth more than the export row (which is there when asked for, in its menu): a
/// Connect-4 run over three boards keeps it at the default window size.
const PLOT_UNDER_EXPORT: f32 = 150.0;
const PLOT_UNDER_TABLE: f32 = 130.0;

/// The results as last computed, with the number of games they were made from.
pub(super) struct Summary {
    games: usize,
    rows: Vec<SummaryRow>,
    /// The rows in one line (see [`crate::arena::headline`]).
    headline: String,
    /// Each agent's time used against time allowed.
    times: Vec<String>,
    /// Where each pairing's SPRT stands, when the matchup has one.
    sprt: Vec<String>,
}

/// How the results share the tab's height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultsLayout {
    /// The summary table above the plot (or beside it); else a one-line headline, with the
    /// table on request in the plot's place.
    pub table: bool,
    /// The export row under the plot; else in a menu in the plot's title row.
    pub export_row: bool,
}

/// The heights, in points, a layout is chosen from.
#[derive(Clone, Copy, Debug)]
pub struct Heights {
    /// From the results' top to the tab's lower edge.
    pub room: f32,
    /// The summary table (zero with no games).
    pub table: f32,
    /// The plot's title row and legend.
    pub title: f32,
    /// The export row with its message line.
    pub export: f32,
}

impl ResultsLayout {
    /// The first layout that leaves the plot room: everything, while the plot keeps
    /// [`PLOT_UNDER_EXPORT`] points; the export row in a menu, while it keeps
    /// [`PLOT_UNDER_TABLE`]; the headline for the table too. In a wide view the table stands
    /// beside the plot and only the export row may go.
    pub fn choose(h: Heights, wide: bool) -> ResultsLayout {
        let plot = |above: f32, below: f32| h.room - above - h.title - below;
        let table_above = if wide { 0.0 } else { h.table };
        if plot(table_above, h.export) >= PLOT_UNDER_EXPORT {
            ResultsLayout { table: true, export_row: true }
        } else if wide || plot(table_above, 0.0) >= PLOT_UNDER_TABLE {
            ResultsLayout { table: true, export_row: false }
        } else {
            ResultsLayout { table: false, export_row: false }
        }
    }
}

impl MatchupPanel {
    /// The results: the summary, the live plot with its export, the time and SPRT lines. In a
    /// wide view (the tabs under a big board are wide and short) the plot stands beside the
    /// summary; in a narrow one under it. The layout gives the plot room first (see
    /// [`ResultsLayout::choose`]).
    pub(super) fn show_results(&mut self, ui: &mut egui::Ui) {
        self.refresh_results();
        let wide = width_in_view(ui) >= 900.0;
        let layout = ResultsLayout::choose(self.heights(ui), wide);
        self.export_in_menu = !layout.export_row;
        if !wide {
            if layout.table {
                self.show_summary(ui);
            } else {
                self.show_headline(ui);
            }
            // The table shown in the plot's place has the lines under it; under a plot in a
            // short tab they were cut at its edge (the Table shows them).
            if !self.show_plot(ui, layout) && layout.table {
                self.show_result_lines(ui);
            }
            return;
        }
        let left = (width_in_view(ui) * 0.42).clamp(360.0, 560.0);
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(left);
                self.show_summary(ui);
                self.show_result_lines(ui);
            });
            ui.separator();
            ui.vertical(|ui| {
                ui.set_width(width_in_view(ui) - 8.0);
                let _ = self.show_plot(ui, layout);
            });
        });
    }

    /// The heights of the results' parts at the cursor (the results' top).
    fn heights(&self, ui: &egui::Ui) -> Heights {
        let rows = self.summary.as_ref().map_or(0, |s| s.rows.len());
        // The grid's rows (and its header) are as tall as a button, `ROW_GAP` apart.
        let pitch = ui.spacing().interact_size.y + ROW_GAP;
        let table = if rows == 0 {
            0.0
        } else {
            ((rows + 1) as f32 * pitch).min(summary_cap(ui)) + ui.spacing().item_spacing.y
        };
        Heights { room: height_in_view(ui, 0.0..=f32::INFINITY), table, title: title_rows(), export: export_rows(ui) }
    }

    /// The figure and the summary, computed again when games came in or another plot was
    /// chosen.
    fn refresh_results(&mut self) {
        if self.shown.as_ref().is_none_or(|c| c.0 != self.records.len() || c.1 != self.plot) {
            self.shown = Some((self.records.len(), self.plot, self.figure()));
        }
        if self.summary.as_ref().is_none_or(|s| s.games != self.records.len()) {
            let times = self
                .matchup
                .as_ref()
                .map_or(Vec::new(), |m| crate::arena::time_use::time_lines(m, Path::new("."), 1.0, &self.records));
            let stats = crate::arena::summarize(&self.records);
            let sprt = self.matchup.as_ref().and_then(|m| m.sprt).map_or(Vec::new(), |t| {
                stats.iter().map(|s| crate::arena::stats::sprt_line(s, t.elo0, t.elo1, t.alpha, t.beta)).collect()
            });
            self.summary = Some(Summary {
                games: self.records.len(),
                rows: summary_rows(&self.records, &stats),
                headline: crate::arena::headline(&stats),
                times,
                sprt,
            });
        }
    }

    /// The summary, when there are games.
    fn summary_of_games(&self) -> Option<&Summary> {
        self.summary.as_ref().filter(|s| !s.rows.is_empty())
    }

    /// The summary table, scrolling within a third of the view when its rows would take
    /// more: a run over many boards pushed the plot under the fold.
    fn show_summary(&self, ui: &mut egui::Ui) {
        if let Some(s) = self.summary_of_games() {
            egui::ScrollArea::vertical()
                .id_salt("matchup-summary")
                .max_height(summary_cap(ui))
                .auto_shrink([true, true])
                .show(ui, |ui| summary_table(ui, "matchup-summary", &s.rows));
        }
    }

    /// The summary in one line, the table on hover.
    fn show_headline(&self, ui: &mut egui::Ui) {
        if let Some(s) = self.summary_of_games() {
            let width = width_in_view(ui);
            ui.scope(|ui| {
                ui.set_max_width(width);
                ui.add(egui::Label::new(&s.headline).truncate())
                    .on_hover_ui(|ui| summary_table(ui, "matchup-summary-hover", &s.rows));
            });
        }
    }

    /// The choice of plot (and of the table, when it is not above), in the plot's title row,
    /// the plot as tall as the view has room for, its export row or menu. True when the
    /// table was shown instead, with the time and SPRT lines.
    #[must_use]
    fn show_plot(&mut self, ui: &mut egui::Ui, layout: ResultsLayout) -> bool {
        let fig = self.shown.as_ref().and_then(|c| c.2.clone()).map(|f| self.exporter.labelled(f));
        let log = self.exporter.log_y;
        let offer_table = !layout.table && self.summary_of_games().is_some();
        let table_view = offer_table && self.table_shown;
        let (plot, exporter, table_shown) = (&mut self.plot, &mut self.exporter, &mut self.table_shown);
        let exported = fig.as_ref();
        let mut choices = |ui: &mut egui::Ui| {
            if offer_table
                && ui
                    .selectable_label(table_view, "Table")
                    .on_hover_text("the summary table in the plot's place, as mnklab table prints it")
                    .clicked()
            {
                *table_shown = true;
            }
            for (p, label) in [
                (LivePlot::Score, "Score"),
                (LivePlot::Time, "Time per move"),
                (LivePlot::Nodes, "Nodes per move"),
                (LivePlot::Heatmap, "Heatmap"),
            ] {
                if ui.selectable_label(*plot == p && !table_view, label).clicked() {
                    *table_shown = false;
                    if *plot != p {
                        *plot = p;
                        // Nodes and iterations span orders of magnitude (MCTS's iterations
                        // beside alpha-beta's nodes): a log axis when that plot is chosen.
                        exporter.log_y = p == LivePlot::Nodes;
                        // Each plot its own file: a nodes figure never lands on the score's.
                        exporter.name_for(p.file_stem());
                    }
                }
            }
            ui.separator();
            if !layout.export_row {
                exporter.show_in_menu(ui, "plot", exported);
            }
        };
        match &fig {
            _ if table_view => {
                ui.horizontal(|ui| choices(ui));
                let height = height_in_view(ui, 100.0..=f32::INFINITY);
                let s = self.summary.as_ref().expect("a table is offered only with rows");
                egui::ScrollArea::vertical().id_salt("matchup-summary").max_height(height).show(ui, |ui| {
                    summary_table(ui, "matchup-summary", &s.rows);
                    self.show_result_lines(ui);
                });
            }
            Some(f) => {
                let height = plot_height_in_view(ui, 100.0..=240.0, layout.export_row);
                let row = TitleRow { enlarged: &mut self.plot_enlarged, leading: Some(&mut choices) };
                draw_figure(ui, "matchup", f, height, log, Some(row));
            }
            None => {
                ui.horizontal(|ui| choices(ui));
                ui.label("no games yet");
            }
        }
        if layout.export_row {
            self.exporter.show(ui, "plot", fig.as_ref());
        }
        table_view
    }

    /// How each agent used its time, and the live SPRT (in `match`'s words).
    fn show_result_lines(&self, ui: &mut egui::Ui) {
        let Some(s) = self.summary_of_games() else { return };
        for line in &s.times {
            wrapped_in_view(ui, &format!("time: {line}"));
        }
        if !s.sprt.is_empty() {
            ui.add_space(4.0);
        }
        for line in &s.sprt {
            wrapped_in_view(ui, line);
        }
    }
}

/// The gap between the summary table's rows.
const ROW_GAP: f32 = 2.0;

/// The most height the summary table takes before it scrolls: a third of the view.
fn summary_cap(ui: &egui::Ui) -> f32 {
    (ui.clip_rect().height() / 3.0).max(60.0)
}

/// One row of the live summary: the same numbers as `mnklab table`, plus forfeits.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    pub cells: [String; 10],
    /// Forfeit reasons, for the row's tooltip.
    pub forfeits: Vec<String>,
}

pub const SUMMARY_COLUMNS: [&str; 10] = crate::arena::stats::ROW_HEADERS;

/// The summary's headers as the tab shows them: the last three shortened to fit its width
/// (their tooltips give `mnklab table`'s full headers).
const SHOWN_COLUMNS: [&str; 10] =
    ["variant", "a vs b", "games", "W-D-L", "score (95% CI)", "Elo", "1st wins", "ms a|b", "nodes a|b", "forfeits"];

/// The live summary's rows: `stats`, the arena's statistics of `records` (those `mnklab
/// table` prints), with the forfeits of `records` for the rows' tooltips.
pub fn summary_rows(records: &[GameRecord], stats: &[PairStats]) -> Vec<SummaryRow> {
    stats
        .iter()
        .map(|s| {
            let forfeits: Vec<String> = records
                .iter()
                .filter(|r| r.variant == s.variant && r.players.contains(&s.a) && r.players.contains(&s.b))
                .filter_map(|r| {
                    let side = r.forfeit? as usize;
                    Some(format!(
                        "game {}: {} {}",
                        r.index,
                        r.names[side],
                        r.forfeit_reason.as_deref().unwrap_or("forfeits")
                    ))
                })
                .collect();
            SummaryRow { cells: crate::arena::stats::row_cells(s), forfeits }
        })
        .collect()
}

/// The summary, as `mnklab table` prints it (its hover says so), in a smaller type with
/// narrow gaps: at the body size its ten columns ran past the tab's right edge at the default
/// window size.
fn summary_table(ui: &mut egui::Ui, id: &str, rows: &[SummaryRow]) {
    let small = |t: &str| egui::RichText::new(t).size(11.5);
    let grid = egui::Grid::new(id).striped(true).spacing([8.0, ROW_GAP]);
    grid.num_columns(SUMMARY_COLUMNS.len()).show(ui, |ui| {
        for (shown, full) in SHOWN_COLUMNS.iter().zip(SUMMARY_COLUMNS) {
            let hover = match full {
                "nodes/move a|b" => "nodes per move of a and b (iterations for MCTS), as mnklab table prints it".into(),
                _ => format!("{full}, as mnklab table prints it"),
            };
            ui.label(small(shown).strong()).on_hover_text(hover);
        }
        ui.end_row();
        for row in rows {
            for (i, cell) in row.cells.iter().enumerate() {
                let l = ui.label(small(cell));
                if i == 9 && !row.forfeits.is_empty() {
                    l.on_hover_text(row.forfeits.join("\n"));
                }
            }
            ui.end_row();
        }
    });
}
#[cfg(test)]
mod tests {
    use super::*;

    fn heights(room: f32, table: f32) -> Heights {
        Heights { room, table, title: 50.0, export: 40.0 }
    }

    /// The plot gets its room first: the export row goes before the table does, each while
    /// the plot keeps its least height.
    #[test]
    fn a_short_tab_gives_up_the_export_row_then_the_table() {
        let all = ResultsLayout { table: true, export_row: true };
        let menu = ResultsLayout { table: true, export_row: false };
        let headline = ResultsLayout { table: false, export_row: false };
        let (export, table) = (PLOT_UNDER_EXPORT, PLOT_UNDER_TABLE);
        assert_eq!(ResultsLayout::choose(heights(90.0 + 50.0 + 40.0 + export, 90.0), false), all);
        assert_eq!(ResultsLayout::choose(heights(90.0 + 50.0 + 40.0 + export - 1.0, 90.0), false), menu);
        assert_eq!(ResultsLayout::choose(heights(90.0 + 50.0 + table, 90.0), false), menu);
        assert_eq!(ResultsLayout::choose(heights(90.0 + 50.0 + table - 1.0, 90.0), false), headline);
        // No games: no table to give up.
        assert_eq!(ResultsLayout::choose(heights(50.0 + table, 0.0), false), menu);
        // Beside the plot the table costs it nothing: only the export row may go.
        assert_eq!(ResultsLayout::choose(heights(50.0 + 40.0 + export, 300.0), true), all);
        assert_eq!(ResultsLayout::choose(heights(100.0, 300.0), true), menu);
    }
}
