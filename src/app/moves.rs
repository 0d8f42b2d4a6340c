//! The move list: the game record as nested, indented rows (the library's
//! [`crate::record::GameTree::move_rows`]); click a move to go there, right-click to promote
//! or delete its line; a comment field for the current move.

use super::Workbench;
use super::command::Command;

impl Workbench {
    /// Draws the move list; what its clicks ask for goes to `out`.
    pub(super) fn move_list(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        ui.heading("Moves");
        let rows = self.record.move_rows();
        let start = self.start_position();
        let line = self.record.line();
        let current = self.record.current();
        let height = (ui.available_height() - 2.0 * ui.spacing().interact_size.y - 8.0).max(40.0);
        egui::ScrollArea::vertical().id_salt("moves").max_height(height).auto_shrink([false, true]).show(ui, |ui| {
            let about_start = self.record.comment(self.record.root());
            if !about_start.is_empty() {
                ui.weak(about_start);
            }
            for row in &rows {
                ui.horizontal_wrapped(|ui| {
                    ui.add_space(18.0 * row.indent as f32);
                    if row.indent > 0 {
                        ui.weak("(");
                    }
                    // A row is one line of consecutive moves: its position is built once, from
                    // the start to the row's first move, then advanced move by move (the list is
                    // drawn every frame).
                    let first = row.nodes[0];
                    let mut path = self.record.path(self.record.parent(first).expect("a move has a parent"));
                    let mut p = start.clone();
                    for &m in &path {
                        let _ = p.try_play(m);
                    }
                    for &n in &row.nodes {
                        let mv = self.record.mv(n).expect("a move");
                        let ply = path.len() + 1;
                        let name = p.format_move(mv);
                        let judged = self.review.mistake_after(&path);
                        let _ = p.try_play(mv);
                        path.push(mv);
                        let mut text = egui::RichText::new(crate::game::numbered_move(ply, &name));
                        if !line.contains(&n) {
                            text = text.italics();
                        }
                        if judged.is_some_and(|r| r.played == mv) {
                            text = text.color(ui.visuals().warn_fg_color).strong();
                        }
                        let b = ui.add(egui::Button::selectable(n == current, text).small());
                        if b.clicked() {
                            out.push(Command::GoTo(n));
                        }
                        b.context_menu(|ui| {
                            if ui.button("Make main line").clicked() {
                                out.push(Command::MakeMainLine(n));
                                ui.close();
                            }
                            if ui.button("Move variation up").clicked() {
                                out.push(Command::MoveVariationUp(n));
                                ui.close();
                            }
                            if ui.button("Delete from here").clicked() {
                                out.push(Command::DeleteFrom(n));
                                ui.close();
                            }
                        });
                        let comment = self.record.comment(n);
                        if !comment.is_empty() {
                            ui.weak(comment);
                        }
                    }
                    if row.indent > 0 {
                        ui.weak(")");
                    }
                });
            }
            if rows.is_empty() {
                ui.weak("no moves yet: click the board");
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("comment");
            let field = ui.add(
                egui::TextEdit::singleline(&mut self.comment_text)
                    .hint_text("on the current move")
                    .desired_width(ui.available_width()),
            );
            let field = field.labelled_by(label.id);
            if field.changed() {
                out.push(Command::SetComment(self.comment_text.clone()));
            }
        });
    }
}
