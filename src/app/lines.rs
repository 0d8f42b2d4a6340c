//! Message lines that never move the layout: each takes exactly one line whether it shows
//! something or not, and a long message is cut to the line with the whole text on hover (a
//! line appearing above a button once moved the button under the pointer: an unwanted save).

/// One line for an optional error (red) or notice.
pub fn reserved_line(ui: &mut egui::Ui, text: Option<&str>, error: bool) -> egui::Response {
    let text = text.unwrap_or("");
    let rich =
        if error { egui::RichText::new(text).color(ui.visuals().error_fg_color) } else { egui::RichText::new(text) };
    let r = ui.add(egui::Label::new(rich).truncate());
    if text.is_empty() { r } else { r.on_hover_text(text) }
}
