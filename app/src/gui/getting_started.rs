//! Help > Getting started: the page `app/GETTING_STARTED.md`, the one text
//! `xenolog help getting-started` prints too, drawn as a page (headings,
//! bullets, paragraphs; `code` in a fixed font).

use eframe::egui::{self, Ui};

/// The page, as the command line prints it.
pub const TEXT: &str = include_str!("../../GETTING_STARTED.md");

/// How wide the page's lines are at most.
const WIDTH: f32 = 560.0;

/// One paragraph's words, its `code` spans in the fixed font, wrapped at
/// `width`.
fn words_ui(ui: &mut Ui, text: &str, width: f32) {
    let mut job = egui::text::LayoutJob::default();
    let body = egui::TextFormat {
        font_id: egui::TextStyle::Body.resolve(ui.style()),
        color: ui.visuals().text_color(),
        ..Default::default()
    };
    let code = egui::TextFormat {
        font_id: egui::TextStyle::Monospace.resolve(ui.style()),
        color: ui.visuals().strong_text_color(),
        background: ui.visuals().code_bg_color,
        ..Default::default()
    };
    for (i, part) in text.split('`').enumerate() {
        let format = if i % 2 == 1 { &code } else { &body };
        job.append(part, 0.0, format.clone());
    }
    job.wrap.max_width = width;
    ui.add(egui::Label::new(job).wrap());
}

/// The page: `# ` its title, `## ` a heading, `- ` a bullet, other lines
/// paragraphs.
pub fn page_ui(ui: &mut Ui) {
    let width = ui.available_width().min(WIDTH);
    ui.set_max_width(width);
    for line in TEXT.lines().map(str::trim_end) {
        if line.is_empty() {
            continue;
        }
        if let Some(title) = line.strip_prefix("# ") {
            ui.heading(title);
        } else if let Some(head) = line.strip_prefix("## ") {
            ui.add_space(6.0);
            ui.strong(head);
        } else if let Some(item) = line.strip_prefix("- ") {
            ui.horizontal_top(|ui| {
                ui.label("•");
                words_ui(ui, item, width - 16.0);
            });
        } else {
            words_ui(ui, line, width);
        }
    }
}
