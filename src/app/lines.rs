//! Message lines that never move the layout: each takes exactly one line whether it shows
//! something or not, and a long message is cut to the line with the whole text on hover (a
//! line appearing above a button would move the button under the pointer: an unwanted save).

/// How a message line reads: a plain message, a warning (something the user should know that
/// is not a failure), or an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Plain,
    Warning,
    Error,
}

impl Tone {
    fn colour(self, ui: &egui::Ui) -> egui::Color32 {
        match self {
            Tone::Plain => ui.visuals().text_color(),
            Tone::Warning => ui.visuals().warn_fg_color,
            Tone::Error => ui.visuals().error_fg_color,
        }
    }
}

/// One line for an optional message. A message cut to the line shows whole on hover (egui's
/// own tooltip for a cut label; a second one of ours would show the text twice).
pub fn reserved_line(ui: &mut egui::Ui, text: Option<&str>, tone: Tone) -> egui::Response {
    let text = text.unwrap_or("");
    ui.add(egui::Label::new(egui::RichText::new(text).color(tone.colour(ui))).truncate())
}

/// `rows` lines for an optional message that wraps inside them: the space is the same with a
/// message or without, so what is below stays put; what does not fit is in the hover text.
pub fn reserved_lines(ui: &mut egui::Ui, text: Option<&str>, tone: Tone, rows: usize) -> egui::Response {
    let text = text.unwrap_or("");
    let row = ui.text_style_height(&egui::TextStyle::Body);
    let size = egui::vec2(ui.available_width(), row * rows as f32 + ui.spacing().item_spacing.y);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    let colour = tone.colour(ui);
    let mut job =
        egui::text::LayoutJob::simple(text.to_owned(), egui::TextStyle::Body.resolve(ui.style()), colour, rect.width());
    job.wrap.max_rows = rows;
    job.wrap.break_anywhere = false;
    job.wrap.overflow_character = Some('…');
    let galley = ui.painter().layout_job(job);
    ui.painter().galley(rect.min, galley, colour);
    // Painted, not a Label: name it for screen readers (and the UI tests).
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, text));
    if text.is_empty() { response } else { response.on_hover_text(text) }
}
