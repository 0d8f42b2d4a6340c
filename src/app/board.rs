//! The board widget: draws a position and reports the move a click asks for.

use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};

use crate::game::{AnyPosition, Move, POLE_HEIGHT, POLE_XY, POLES, Player, Variant};

const FIRST: Color32 = Color32::from_rgb(30, 30, 30);
const SECOND: Color32 = Color32::from_rgb(235, 235, 235);

fn stone_colour(p: Player) -> Color32 {
    match p {
        Player::First => FIRST,
        Player::Second => SECOND,
    }
}

/// A candidate move drawn on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub mv: Move,
    /// In [0, 1]: 1 for the best move (the colour scale).
    pub strength: f32,
    /// A few characters that fit the cell.
    pub label: String,
    /// The full statistics, shown when the pointer is on the cell.
    pub tooltip: String,
    /// Outlined: the top candidate, when its score is known (not a proof still running).
    pub best: bool,
    /// A proof's label: a proven value, or `?` while a proof runs (the legend then explains
    /// proofs' labels, not heuristic scores; see [`crate::analysis::is_proof_label`]).
    pub proof_label: bool,
    /// A bound, not a value ("≤ -3.2", refuted): the legend then explains bounds.
    pub bound: bool,
}

/// The colour of a candidate of `strength` (also the legend's scale): from pale to deep blue.
pub fn mark_colour(strength: f32) -> Color32 {
    let t = strength.clamp(0.0, 1.0);
    let lerp = |a: f32, b: f32| (a + (b - a) * t) as u8;
    Color32::from_rgba_unmultiplied(lerp(170.0, 20.0), lerp(200.0, 80.0), lerp(235.0, 220.0), lerp(150.0, 235.0))
}

/// One candidate on the heatmap: blue, stronger for better moves, the best outlined, with its
/// label.
fn draw_mark(painter: &egui::Painter, r: Rect, cell: f32, best: bool, strength: f32, label: &str) {
    painter.rect_filled(r, cell * 0.15, mark_colour(strength));
    if best {
        painter.rect_stroke(
            r,
            cell * 0.15,
            Stroke::new(2.0, Color32::from_rgb(20, 40, 160)),
            egui::StrokeKind::Outside,
        );
    }
    // From 16 px: at 1100 x 700 gomoku's cells (18 px) showed colours with no label.
    if cell >= 16.0 {
        let ink = if strength > 0.45 { Color32::WHITE } else { Color32::from_rgb(10, 30, 90) };
        // As large as the text fits the mark's width (measured at 10 px and scaled), within
        // limits that keep it inside the cell and readable.
        let fit = |text: &str, height_share: f32| {
            let width_at_10 = painter
                .layout_no_wrap(text.to_string(), egui::FontId::proportional(10.0), Color32::WHITE)
                .size()
                .x
                .max(1.0);
            (10.0 * r.width() * 0.92 / width_at_10).min(cell * height_share).clamp(7.0, 16.0)
        };
        let one_line = fit(label, 0.42);
        if let Some(text) = crate::analysis::mark_text(label, one_line) {
            let font = egui::FontId::proportional(one_line);
            painter.text(r.center(), egui::Align2::CENTER_CENTER, text, font, ink);
        }
    }
}

/// Candidate `m`, ranked `rank.0` (0 best) of `rank.1`, in cell `r`: the best few as labelled cells, the
/// rest as discs sized by their strength (see [`crate::analysis::mark_style`]). `covered`: a
/// previewed stone lies on it, so no label shows through.
fn draw_candidate(painter: &egui::Painter, r: Rect, cell: f32, rank: (usize, usize), m: &Mark, covered: bool) {
    match crate::analysis::mark_style(rank.0, rank.1, m.strength) {
        crate::analysis::MarkStyle::Labelled => {
            // A gap around the chip: on a free-placement board the cells are the spacing of
            // the intersections, and a chip the cell's size touched the stones beside it.
            draw_mark(painter, r.shrink(cell * 0.12), cell, m.best, m.strength, if covered { "" } else { &m.label })
        }
        crate::analysis::MarkStyle::Disc { radius } => {
            painter.circle_filled(r.center(), cell * 0.5 * radius, mark_colour(m.strength));
        }
    }
}

/// The evaluation bar: the first player's share dark from the bottom (their stones' colour),
/// the second's light above, each player's stone at its end, a tick at the even line, the
/// score's label on the side's own colour; grey and empty while nothing is known. Always
/// drawn, so the board never moves when it fills.
pub fn eval_bar(ui: &mut egui::Ui, height: f32, bar: Option<&crate::analysis::EvalBar>) {
    // Level with the board's cells, which start 8 px below its top.
    let (space, response) = ui.allocate_exact_size(Vec2::new(22.0, height + 8.0), Sense::hover());
    // A stone of each player at the end their share fills from (which side the bar is for
    // was not said), the bar between them.
    let stone = 12.0;
    let rect = Rect::from_min_max(space.min + Vec2::new(0.0, 8.0 + stone), space.max - Vec2::new(0.0, stone));
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Meter, true, "evaluation bar"));
    let whole = ui.painter_at(space);
    // A light edge: the dark stone on a dark theme was a black disc on black.
    let edge = Stroke::new(1.5, Color32::from_gray(170));
    let second_at = egui::pos2(rect.center().x, rect.min.y - stone / 2.0);
    let first_at = egui::pos2(rect.center().x, rect.max.y + stone / 2.0);
    whole.circle(second_at, stone / 2.0 - 1.5, SECOND, edge);
    whole.circle(first_at, stone / 2.0 - 1.5, FIRST, edge);
    let painter = ui.painter_at(rect);
    let Some(bar) = bar else {
        painter.rect_filled(rect, 3.0, Color32::from_gray(150));
        let _ = response.on_hover_text("the evaluation bar: the first player's expected result, once analysed");
        return;
    };
    painter.rect_filled(rect, 3.0, SECOND);
    let dark = Rect::from_min_max(egui::pos2(rect.min.x, rect.max.y - rect.height() * bar.first_share), rect.max);
    // On a dark theme the first player's share is a lighter grey than its stones: in their
    // colour, a full bar read as the window behind it, an empty bar.
    let first = if ui.visuals().dark_mode { Color32::from_gray(85) } else { FIRST };
    painter.rect_filled(dark, 3.0, first);
    painter.line_segment(
        [egui::pos2(rect.min.x, rect.center().y), egui::pos2(rect.min.x + 5.0, rect.center().y)],
        Stroke::new(1.5, Color32::from_rgb(220, 40, 40)),
    );
    // A light edge as well as a dark one: a full dark bar on a dark theme read as no bar.
    painter.rect_stroke(rect, 3.0, Stroke::new(1.0, Color32::from_gray(160)), egui::StrokeKind::Inside);
    // On the side's own colour, where it reads: at the top over light, at the bottom over dark.
    let (at, align, ink) = if bar.first_share < 0.5 {
        (rect.center_top() + Vec2::new(0.0, 3.0), egui::Align2::CENTER_TOP, FIRST)
    } else {
        (rect.center_bottom() - Vec2::new(0.0, 3.0), egui::Align2::CENTER_BOTTOM, SECOND)
    };
    painter.text(at, align, &bar.label, egui::FontId::proportional(10.0), ink);
    let _ = response.on_hover_text(&bar.words);
}

/// A stone of a previewed line: where it lands, whose it is, its number in the line (from 1;
/// 0 for a single suggested move, drawn as a ring that leaves the cell's label readable).
pub type Ghost = ((usize, usize), Player, usize);

/// The stones a line of moves would put on the board, numbered from 1 (grid boards; under
/// gravity each lands on the stones before it). Stops at an illegal move or the game's end.
pub fn line_ghosts(pos: &AnyPosition, line: &[Move]) -> Vec<Ghost> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for (i, &m) in line.iter().enumerate() {
        let who = p.side_to_move();
        if p.status().is_over() || p.try_play(m).is_err() {
            break;
        }
        if let Some(cell) = p.last_cell() {
            out.push((cell, who, i + 1));
        }
    }
    out
}

/// Draws the board with the candidate marks and a previewed line; returns the move of a
/// click on it, if any.
pub fn show(ui: &mut egui::Ui, pos: &AnyPosition, marks: &[Mark], ghosts: &[Ghost]) -> Option<Move> {
    match pos.variant() {
        Variant::Grid(r) => grid(ui, pos, r.width() as usize, r.height() as usize, marks, ghosts, None).0,
        Variant::Connect3d => connect3d(ui, pos, marks),
    }
}

/// Stones by cell, for drawing a board being edited (which may break the rules for now).
pub type StoneAt<'a> = &'a dyn Fn(usize, usize) -> Option<Player>;

/// Draws a grid board with the stones `stones` gives (edit mode); returns the cell clicked.
pub fn show_edit(ui: &mut egui::Ui, pos: &AnyPosition, stones: StoneAt) -> Option<(usize, usize)> {
    match pos.variant() {
        Variant::Grid(r) => grid(ui, pos, r.width() as usize, r.height() as usize, &[], &[], Some(stones)).1,
        Variant::Connect3d => None,
    }
}

fn grid(
    ui: &mut egui::Ui,
    pos: &AnyPosition,
    w: usize,
    h: usize,
    marks: &[Mark],
    ghosts: &[Ghost],
    edit: Option<StoneAt>,
) -> (Option<Move>, Option<(usize, usize)>) {
    let avail = ui.available_size();
    // Small cells rather than a board cut off: a low panel still shows every cell.
    let cell = ((avail.x - 40.0) / w as f32).min((avail.y - 40.0) / h as f32).clamp(4.0, 80.0);
    let size = Vec2::new(cell * w as f32 + 40.0, cell * h as f32 + 40.0);
    let (response, painter) = ui.allocate_painter(size, Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "board"));
    let at = Layout { origin: response.rect.min + Vec2::new(28.0, 8.0), cell, w, h };
    draw_board(&painter, ui.visuals().text_color(), at, pos, edit);
    // The heatmap of candidate moves: deeper blue for better moves, with a short label; the
    // full statistics in the tooltip of the cell under the pointer.
    let pointer = response.hover_pos();
    let mut tip = None;
    for (rank, m) in marks.iter().enumerate() {
        let Some((x, y)) = pos.move_xy(m.mv) else { continue };
        let r = at.rect_of(x, y);
        // A previewed line's numbered stone covers this cell: its label would show through.
        let covered = ghosts.iter().any(|g| g.0 == (x, y) && g.2 > 0);
        draw_candidate(&painter, r, cell, (rank, marks.len()), m, covered);
        if pointer.is_some_and(|p| r.contains(p)) {
            tip = Some(m.tooltip.clone());
        }
    }
    draw_line_preview(&painter, at, ghosts);
    // The stone the pointer would play, as a faint ghost where it lands (under gravity: at
    // the bottom of the column, not under the pointer).
    if edit.is_none()
        && ghosts.is_empty()
        && let Some(p) = pointer.filter(|p| at.board().contains(*p))
        && let Some(mv) = hover_move(pos, at.cell_at(p))
        && let Some((x, y)) = pos.move_xy(mv)
    {
        let c = at.rect_of(x, y).center();
        painter.circle_filled(c, cell * 0.36, stone_colour(pos.side_to_move()).gamma_multiply(0.35));
        painter.circle_stroke(c, cell * 0.36, Stroke::new(1.0, Color32::from_black_alpha(120)));
    }
    let response = response.on_hover_text_at_pointer(tip.unwrap_or_else(|| "click a cell to play".into()));
    let click = response.interact_pointer_pos().filter(|p| response.clicked() && at.board().contains(*p));
    let Some(click) = click else { return (None, None) };
    let (x, y) = at.cell_at(click);
    (hover_move(pos, (x, y)), Some((x, y)))
}

/// Where a `w` x `h` board's cells are on the screen: `origin` is the top left corner of the
/// top row, cells `cell` points square, row 0 at the bottom.
#[derive(Clone, Copy)]
struct Layout {
    origin: egui::Pos2,
    cell: f32,
    w: usize,
    h: usize,
}

impl Layout {
    fn rect_of(&self, x: usize, y: usize) -> Rect {
        let corner = self.origin + Vec2::new(x as f32 * self.cell, (self.h - 1 - y) as f32 * self.cell);
        Rect::from_min_size(corner, Vec2::splat(self.cell))
    }

    fn board(&self) -> Rect {
        Rect::from_min_size(self.origin, Vec2::new(self.cell * self.w as f32, self.cell * self.h as f32))
    }

    /// The cell under a point of the board (a point off it: the nearest cell of the edge).
    fn cell_at(&self, p: egui::Pos2) -> (usize, usize) {
        let x = (((p.x - self.origin.x) / self.cell) as usize).min(self.w - 1);
        let y = self.h - 1 - (((p.y - self.origin.y) / self.cell) as usize).min(self.h - 1);
        (x, y)
    }
}

/// The board itself: its wood, lines or cells, coordinates, the stones (`edit`'s when
/// editing), the winning line and the last move.
fn draw_board(painter: &egui::Painter, text: Color32, at: Layout, pos: &AnyPosition, edit: Option<StoneAt>) {
    let (w, h, cell) = (at.w, at.h, at.cell);
    painter.rect_filled(at.board(), 4.0, Color32::from_rgb(205, 170, 110));
    // Free placement boards as players know them: stones on the intersections of lines, with
    // star points; boards with gravity keep their cells (a stone falls into a column).
    let lines = !pos.variant().has_gravity();
    if lines {
        let ink = Stroke::new(1.0, Color32::from_black_alpha(140));
        for x in 0..w {
            painter.line_segment([at.rect_of(x, h - 1).center(), at.rect_of(x, 0).center()], ink);
        }
        for y in 0..h {
            painter.line_segment([at.rect_of(0, y).center(), at.rect_of(w - 1, y).center()], ink);
        }
        for (x, y) in crate::analysis::star_points(w, h) {
            painter.circle_filled(at.rect_of(x, y).center(), (cell * 0.09).max(2.0), Color32::from_black_alpha(200));
        }
    }
    let font = egui::FontId::proportional((cell * 0.42).clamp(11.0, 18.0));
    let winning = if edit.is_some() { Vec::new() } else { pos.winning_cells() };
    for x in 0..w {
        painter.text(
            at.rect_of(x, 0).center_bottom() + Vec2::new(0.0, 4.0),
            egui::Align2::CENTER_TOP,
            crate::game::column_name(x),
            font.clone(),
            text,
        );
        for y in 0..h {
            let r = at.rect_of(x, y);
            if !lines {
                painter.rect_stroke(r, 0.0, Stroke::new(1.0, Color32::from_black_alpha(90)), egui::StrokeKind::Inside);
            }
            let stone = match edit {
                Some(f) => f(x, y),
                None => pos.grid_stone(x, y),
            };
            if let Some(p) = stone {
                painter.circle_filled(r.center(), cell * 0.4, stone_colour(p));
                if winning.contains(&(x, y)) {
                    painter.circle_stroke(r.center(), cell * 0.42, Stroke::new(3.0, Color32::from_rgb(220, 40, 40)));
                }
            }
        }
    }
    for y in 0..h {
        painter.text(
            at.rect_of(0, y).left_center() - Vec2::new(6.0, 0.0),
            egui::Align2::RIGHT_CENTER,
            (y + 1).to_string(),
            font.clone(),
            text,
        );
    }
    if let Some((x, y)) = pos.last_cell().filter(|_| edit.is_none()) {
        painter.circle_filled(at.rect_of(x, y).center(), cell * 0.1, Color32::from_rgb(220, 40, 40));
    }
}

/// A previewed line: translucent stones numbered in order.
fn draw_line_preview(painter: &egui::Painter, at: Layout, ghosts: &[Ghost]) {
    for &((x, y), who, n) in ghosts {
        let c = at.rect_of(x, y).center();
        if n == 0 {
            // The review's better move: a thick ring in the mover's colour, outlined, around
            // whatever the cell shows (the analysis' label of that move stays readable).
            let ring = at.cell * 0.44;
            painter.circle_stroke(c, ring, Stroke::new(at.cell * 0.1 + 2.0, Color32::from_rgb(20, 80, 220)));
            painter.circle_stroke(c, ring, Stroke::new(at.cell * 0.1, stone_colour(who)));
            continue;
        }
        let fill = stone_colour(who).gamma_multiply(0.6);
        painter.circle_filled(c, at.cell * 0.36, fill);
        painter.circle_stroke(c, at.cell * 0.36, Stroke::new(1.5, Color32::from_rgb(20, 80, 220)));
        let ink = if who == Player::First { Color32::WHITE } else { Color32::BLACK };
        painter.text(
            c,
            egui::Align2::CENTER_CENTER,
            n.to_string(),
            egui::FontId::proportional((at.cell * 0.4).clamp(8.0, 20.0)),
            ink,
        );
    }
}

/// The move a click on cell `(x, y)` plays: under gravity the column's move (wherever in the
/// column), otherwise that cell's; None where nothing can be played.
pub fn hover_move(pos: &AnyPosition, (x, y): (usize, usize)) -> Option<Move> {
    if pos.status().is_over() {
        return None;
    }
    if pos.variant().has_gravity() {
        pos.legal_moves().into_iter().find(|m| m.index() == x)
    } else {
        pos.move_to(x, y).filter(|m| pos.legal_moves().contains(m))
    }
}

/// The six levels in two rows of three, scaled to the space; each pole numbered as moves are
/// written (1-24), the last stone ringed, points and lines made below. A click on any level's
/// pole drops a stone on that pole; candidate marks are drawn where the stone would land.
fn connect3d(ui: &mut egui::Ui, pos: &AnyPosition, marks: &[Mark]) -> Option<Move> {
    let AnyPosition::Connect3d(c) = pos else {
        return None;
    };
    const COLS: usize = 3;
    const ROWS: usize = 2;
    let avail = ui.available_size();
    let last = pos.history().last().map(|m| {
        let pole = m.index();
        let z = (0..POLE_HEIGHT).rev().find(|&z| c.stone_at(pole, z).is_some()).unwrap_or(0);
        (pole, z)
    });
    let summary = connect3d_summary(c, pos.ply(), last);
    // Wrapped to the space's width: unwrapped, a narrow panel ran the points line under the
    // evaluation bar beside the board.
    let text = ui.visuals().text_color();
    let mut galley = Some(ui.painter().layout(summary, egui::FontId::proportional(14.0), text, avail.x - 10.0));
    // A level is 6 cells wide plus half a cell of gap; a row adds a title line (22); below
    // the levels, the title offset (20) and the summary's lines.
    let below = |g: &Option<std::sync::Arc<egui::Galley>>| 20.0 + g.as_ref().map_or(0.0, |g| g.size().y + 6.0);
    let cell_for =
        |below: f32| ((avail.x - 20.0) / (COLS as f32 * 6.5)).min((avail.y - below - 2.0 * 22.0) / (ROWS as f32 * 6.0));
    // Too low for both: the levels keep the room (the status line says the points too).
    if cell_for(below(&galley)) < 8.0 {
        galley = None;
    }
    let below = below(&galley);
    let cell = cell_for(below).clamp(4.0, 70.0);
    let level_w = cell * 6.5;
    let level_h = cell * 6.0 + 22.0;
    let width = (level_w * COLS as f32 + 10.0).max(galley.as_ref().map_or(0.0, |g| g.size().x + 10.0));
    let size = Vec2::new(width, level_h * ROWS as f32 + below);
    let (response, painter) = ui.allocate_painter(size, Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "board"));
    let origin = response.rect.min + Vec2::new(5.0, 20.0);
    let base_of = |z: usize| origin + Vec2::new((z % COLS) as f32 * level_w, (z / COLS) as f32 * level_h);
    let cell_rect = |pole: usize, z: usize| {
        let (x, y) = POLE_XY[pole];
        Rect::from_min_size(base_of(z) + Vec2::new(x as f32 * cell, y as f32 * cell), Vec2::splat(cell))
    };
    let mut hit = None;
    let click = response.interact_pointer_pos().filter(|_| response.clicked());
    for z in 0..POLE_HEIGHT {
        painter.text(
            base_of(z) - Vec2::new(0.0, 4.0),
            egui::Align2::LEFT_BOTTOM,
            format!("level {}", z + 1),
            egui::FontId::proportional(12.0),
            text,
        );
        for pole in 0..POLES {
            let r = cell_rect(pole, z);
            painter.rect_filled(r.shrink(1.0), 2.0, Color32::from_rgb(205, 170, 110));
            let stone = c.stone_at(pole, z);
            if let Some(p) = stone {
                painter.circle_filled(r.center(), cell * 0.38, stone_colour(p));
                if last == Some((pole, z)) {
                    painter.circle_stroke(r.center(), cell * 0.42, Stroke::new(2.5, Color32::from_rgb(220, 40, 40)));
                }
            }
            if click.is_some_and(|p: Pos2| r.contains(p)) {
                hit = Some(Move(pole as u16));
            }
        }
    }
    let pointer = response.hover_pos();
    let mut tip = None;
    for (rank, m) in marks.iter().enumerate() {
        let pole = m.mv.index();
        if pole >= POLES {
            continue;
        }
        let Some(z) = (0..POLE_HEIGHT).find(|&z| c.stone_at(pole, z).is_none()) else { continue };
        let r = cell_rect(pole, z);
        // The mark leaves the cell's top strip to the pole's number (a mark over the whole
        // cell hid it where the move is to be played).
        let below_number = Rect::from_min_max(r.min + Vec2::new(0.0, cell * 0.26), r.max);
        draw_candidate(&painter, below_number, cell, (rank, marks.len()), m, false);
        if pointer.is_some_and(|p| r.contains(p)) {
            tip = Some(m.tooltip.clone());
        }
    }
    number_poles(&painter, c, cell, &cell_rect);
    if let Some(galley) = galley {
        painter.galley(origin + Vec2::new(0.0, level_h * ROWS as f32), galley, text);
    }
    let _ =
        response.on_hover_text_at_pointer(tip.unwrap_or_else(|| "click a pole on any level to drop a stone".into()));
    hit.filter(|m| pos.legal_moves().contains(m))
}

/// Each pole's number (as moves are written) on every level, drawn last: on a stone, in its
/// middle in the stone's contrasting colour (a chip in the corner covered a quarter of a small
/// stone); on an empty cell, in its corner, dark on a chip of the board's colour, readable
/// over a candidate's mark. Cells too small for a number on each: level 1's only, which names
/// the poles.
fn number_poles(
    painter: &egui::Painter,
    c: &crate::game::Connect3d,
    cell: f32,
    cell_rect: &dyn Fn(usize, usize) -> Rect,
) {
    let number_font = egui::FontId::proportional((cell * 0.26).clamp(8.0, 13.0));
    let numbered_levels = if cell < 16.0 { 1 } else { POLE_HEIGHT };
    for z in 0..numbered_levels {
        for pole in 0..POLES {
            let r = cell_rect(pole, z);
            if let Some(p) = c.stone_at(pole, z) {
                let ink = if p == Player::First { Color32::from_gray(225) } else { Color32::from_gray(35) };
                painter.text(r.center(), egui::Align2::CENTER_CENTER, (pole + 1).to_string(), number_font.clone(), ink);
                continue;
            }
            let corner = r.min + Vec2::splat(cell * 0.04);
            let galley = painter.layout_no_wrap((pole + 1).to_string(), number_font.clone(), Color32::from_gray(40));
            let chip = Rect::from_min_size(corner, galley.size() + Vec2::new(3.0, 0.0));
            painter.rect_filled(chip, 2.0, Color32::from_rgb(205, 170, 110));
            painter.galley(corner + Vec2::new(1.5, 0.0), galley, Color32::from_gray(40));
        }
    }
}

/// The text under the levels: the points, the move number and the last move (ringed).
fn connect3d_summary(c: &crate::game::Connect3d, ply: usize, last: Option<(usize, usize)>) -> String {
    format!(
        "{}\nmove {} of 64{}",
        c.points_said(),
        ply + 1,
        last.map_or(String::new(), |(pole, z)| format!(", last: pole {} on level {} (ringed)", pole + 1, z + 1))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    /// Under gravity the pointer anywhere in a column lands on the column's lowest free cell.
    #[test]
    fn the_hover_ghost_lands_where_the_stone_would() {
        let pos = AnyPosition::from_moves(Variant::connect4(), "d d").unwrap();
        let mv = hover_move(&pos, (3, 5)).unwrap();
        assert_eq!(pos.move_xy(mv), Some((3, 2)), "the third stone of column d, not the top cell");
        assert_eq!(hover_move(&pos, (0, 4)).and_then(|m| pos.move_xy(m)), Some((0, 0)));
        let full = AnyPosition::from_moves(Variant::connect4(), "a a a a a a").unwrap();
        assert_eq!(hover_move(&full, (0, 0)), None, "a full column plays nothing");
        let ttt = AnyPosition::from_moves(Variant::tictactoe(), "b2").unwrap();
        assert_eq!(hover_move(&ttt, (1, 1)), None, "an occupied cell plays nothing");
        assert_eq!(ttt.move_xy(hover_move(&ttt, (0, 2)).unwrap()), Some((0, 2)));
    }
}
