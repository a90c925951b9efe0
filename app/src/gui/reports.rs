//! Notes, bookmarks, the Luck panel and the battle report export.
//!
//! - Bookmarks are marks under the timeline (click one to jump to it), with
//!   buttons to bookmark the entry at the cursor, write a note on it, and go
//!   to the previous or next bookmark. The entries table shows the notes.
//! - The Luck panel (View > Luck) plots each side's faces against a fair
//!   die's expectation and the running luck over the battle (egui_plot), with
//!   the exact chances from `xenolog_report::luck`.
//! - File > Export battle report shows a preview in the chosen format, then
//!   asks for a file through the app's file-dialog trait.

use std::path::Path;

use eframe::egui::{self, Color32, Rect, Sense, Stroke, Ui, vec2};
use egui_plot::{Bar, BarChart, HLine, Legend, Line, Plot, PlotPoints};
use xenolog_engine::EntryId;
use xenolog_report::{Format, Header, Story, luck};

use super::command::{AppCommand, FileRequest};
use super::open::OpenBattle;
use super::store::{CampaignStore, Note};
use super::timeline::TimelineState;
use super::view::BattleView;
use super::widgets::icon_button;

/// A change to the notes, applied once the frame is drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum NoteAction {
    Bookmark(EntryId, bool),
    Note(EntryId, String),
}

/// The note being written.
#[derive(Clone, Debug, Default)]
pub struct NoteEditor {
    pub entry: EntryId,
    pub text: String,
}

/// The luck of the open battle, kept until its log or branch changes.
struct LuckCache {
    key: (i64, usize, u32),
    luck: luck::Luck,
}

/// The report preview, kept until the format, the log or the notes change.
struct Preview {
    key: (Format, i64, usize, u32, usize),
    text: String,
    files: usize,
    /// For HTML: the same report in Markdown, drawn as formatted text (the
    /// page itself is for a browser: "Open in browser").
    readable: Option<String>,
}

/// State of these windows, kept between frames.
#[derive(Default)]
pub struct ReportsUi {
    /// The battle whose notes `TimelineState::notes` holds.
    pub notes_for: Option<i64>,
    pub pending: Vec<NoteAction>,
    pub editor: Option<NoteEditor>,
    pub show_luck: bool,
    pub show_export: bool,
    pub format: Option<Format>,
    luck: Option<LuckCache>,
    preview: Option<Preview>,
}

/// Height of the bookmark row under the timeline's strip.
const ROW: f32 = 16.0;
/// As the strip's inset (`timeline::PAD`), so marks sit under their ticks.
const PAD: f32 = 10.0;

fn pos_to_x(rect: Rect, pos: usize, positions: usize) -> f32 {
    let span = (positions.max(2) - 1) as f32;
    rect.left() + PAD + (rect.width() - 2.0 * PAD) * pos as f32 / span
}

/// The bookmark flags, drawn along the bottom of the timeline strip: each
/// jumps to its entry.
pub fn bookmark_flags(
    ui: &mut Ui,
    strip: Rect,
    view: &BattleView,
    timeline: &TimelineState,
    commands: &mut Vec<AppCommand>,
) {
    let positions = view.line.positions();
    let rect = Rect::from_min_max(egui::pos2(strip.left(), strip.bottom() - ROW), strip.max);
    let colour = Color32::from_rgb(30, 100, 200);
    for (pos, note) in marked(view, timeline) {
        let x = pos_to_x(rect, pos, positions);
        let flag = Rect::from_center_size(egui::pos2(x, rect.center().y), vec2(10.0, ROW - 2.0));
        let label = format!("Bookmark at entry {}", note.entry);
        let r = ui
            .interact(
                flag,
                ui.scope_id().with(("bookmark", note.entry)),
                Sense::click(),
            )
            .on_hover_text(if note.text.is_empty() {
                format!("Entry {} (bookmarked): click to go there", note.entry)
            } else {
                format!("Entry {}: {}", note.entry, note.text)
            });
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
        let p = ui.painter();
        p.line_segment(
            [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
            Stroke::new(1.5, colour),
        );
        p.add(egui::Shape::convex_polygon(
            vec![
                egui::pos2(x, rect.top()),
                egui::pos2(x + 8.0, rect.top() + 3.5),
                egui::pos2(x, rect.top() + 7.0),
            ],
            colour,
            Stroke::NONE,
        ));
        if r.clicked() {
            commands.push(AppCommand::SeekLine(pos));
        }
    }
}

/// The bookmarked entries of the line shown, with their positions.
fn marked<'a>(view: &BattleView, timeline: &'a TimelineState) -> Vec<(usize, &'a Note)> {
    timeline
        .notes
        .iter()
        .filter(|n| n.bookmark)
        .filter_map(|n| view.line.pos_of(Some(n.entry)).map(|p| (p, n)))
        .collect()
}

/// The bookmark and note buttons of the entry at the cursor, for the
/// timeline's row of controls: bookmark it, write its note, go to the
/// previous or next bookmark; its note or the number of bookmarks.
pub fn bookmark_buttons(
    ui: &mut Ui,
    view: &BattleView,
    timeline: &TimelineState,
    reports: &mut ReportsUi,
    commands: &mut Vec<AppCommand>,
) {
    let marked = marked(view, timeline);
    let here = view.line.entry_at(view.pos);
    // In the timeline's wrapped row the buttons and their count go to the
    // next row together when this one has no room for them (issue 28: at
    // 1024x700 on Alien Invasion "0 bookmarks" was cut by a character):
    // their width as last drawn says so; a frame that finds it changed is
    // drawn again at once.
    let width_id = ui.scope_id().with("bookmark-buttons-width");
    let width = ui.data(|d| d.get_temp::<f32>(width_id));
    if width.is_some_and(|w| w > ui.available_size_before_wrap().x + 0.5) {
        ui.end_row();
    }
    let drawn = ui.horizontal(|ui| {
        let note = here.and_then(|e| timeline.notes.iter().find(|n| n.entry == e));
        let marked_here = note.is_some_and(|n| n.bookmark);
        let (icon, label) = if marked_here {
            ("★", "Remove the bookmark")
        } else {
            ("☆", "Bookmark this entry")
        };
        if icon_button(ui, icon, label, here.is_some()).clicked()
            && let Some(e) = here
        {
            reports.pending.push(NoteAction::Bookmark(e, !marked_here));
        }
        if icon_button(ui, "✏", "Write a note on this entry", here.is_some()).clicked()
            && let Some(e) = here
        {
            reports.editor = Some(NoteEditor {
                entry: e,
                text: note.map(|n| n.text.clone()).unwrap_or_default(),
            });
        }
        let before = marked.iter().rev().find(|(p, _)| *p < view.pos);
        let after = marked.iter().find(|(p, _)| *p > view.pos);
        if icon_button(ui, "⏮", "Previous bookmark", before.is_some()).clicked()
            && let Some((p, _)) = before
        {
            commands.push(AppCommand::SeekLine(*p));
        }
        if icon_button(ui, "⏭", "Next bookmark", after.is_some()).clicked()
            && let Some((p, _)) = after
        {
            commands.push(AppCommand::SeekLine(*p));
        }
        match note {
            Some(n) if !n.text.is_empty() => {
                ui.add(egui::Label::new(format!("Note: {}", n.text)).truncate());
            }
            _ => {
                ui.weak(format!(
                    "{} bookmark{}",
                    marked.len(),
                    if marked.len() == 1 { "" } else { "s" }
                ));
            }
        }
    });
    let natural = drawn.response.rect.width();
    if width.is_none_or(|w| (w - natural).abs() > 0.5) {
        ui.data_mut(|d| d.insert_temp(width_id, natural));
        ui.ctx()
            .request_discard("the bookmark buttons' width changed");
    }
}

/// The note editor, the Luck panel and the report export window; applies
/// pending note changes and keeps the notes of the open battle loaded.
pub fn windows_ui(
    ctx: &egui::Context,
    reports: &mut ReportsUi,
    campaign: Option<&mut (dyn CampaignStore + 'static)>,
    open: Option<&mut OpenBattle>,
    timeline: &mut TimelineState,
    status: &mut String,
    commands: &mut Vec<AppCommand>,
) {
    let Some(ob) = open else {
        timeline.notes.clear();
        reports.notes_for = None;
        reports.show_export = false;
        return;
    };
    let Some(campaign) = campaign else { return };
    // Notes changed in the last frame are written now.
    for action in std::mem::take(&mut reports.pending) {
        let done = match &action {
            NoteAction::Bookmark(e, on) => campaign.set_bookmark(ob.id, *e, *on),
            NoteAction::Note(e, text) => campaign.set_note(ob.id, *e, text),
        };
        match done {
            Ok(()) => {
                *status = match action {
                    NoteAction::Bookmark(e, true) => format!("Bookmarked entry {e}"),
                    NoteAction::Bookmark(e, false) => format!("Took the bookmark off entry {e}"),
                    NoteAction::Note(e, t) if t.trim().is_empty() => {
                        format!("Deleted the note on entry {e}")
                    }
                    NoteAction::Note(e, _) => format!("Saved the note on entry {e}"),
                };
            }
            Err(e) => *status = format!("The note was not saved: {e}"),
        }
        reports.notes_for = None;
    }
    if reports.notes_for != Some(ob.id) {
        timeline.notes = campaign.notes(ob.id).unwrap_or_default();
        reports.notes_for = Some(ob.id);
        reports.preview = None;
    }
    note_editor_ui(ctx, reports);
    if reports.show_luck {
        let mut open = true;
        // Over the board, below the menu bar (never over the menus).
        egui::Window::new("Luck")
            .open(&mut open)
            .pivot(egui::Align2::CENTER_TOP)
            .default_pos(egui::pos2(ctx.content_rect().center().x, 48.0))
            .default_size([520.0, 560.0])
            .vscroll(true)
            .show(ctx, |ui| luck_ui(ui, reports, ob));
        reports.show_luck = open;
    }
    if reports.show_export {
        let mut open = true;
        egui::Window::new("Export battle report")
            .open(&mut open)
            .pivot(egui::Align2::CENTER_TOP)
            .default_pos(egui::pos2(ctx.content_rect().center().x, 48.0))
            .default_size([560.0, 520.0])
            .show(ctx, |ui| {
                export_ui(ui, reports, ob, &*campaign, &timeline.notes, commands)
            });
        reports.show_export = open;
    }
}

fn note_editor_ui(ctx: &egui::Context, reports: &mut ReportsUi) {
    let Some(editor) = &mut reports.editor else {
        return;
    };
    let mut close = false;
    let mut save = None;
    egui::Window::new(format!("Note on entry {}", editor.entry))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            let label = ui.label("Note:");
            ui.add(
                egui::TextEdit::multiline(&mut editor.text)
                    .desired_rows(3)
                    .hint_text("the turning point"),
            )
            .labelled_by(label.id);
            ui.horizontal(|ui| {
                if ui.button("Save note").clicked() {
                    save = Some(editor.text.clone());
                }
                if ui.button("Delete note").clicked() {
                    save = Some(String::new());
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
    if let Some(text) = save {
        reports.pending.push(NoteAction::Note(editor.entry, text));
        close = true;
    }
    if close {
        reports.editor = None;
    }
}

fn battle_key(ob: &OpenBattle) -> (i64, usize, u32) {
    (ob.id, ob.battle.records().len(), ob.battle.current_branch())
}

const SIDE_COLOURS: [Color32; 4] = [
    Color32::from_rgb(31, 119, 180),
    Color32::from_rgb(214, 39, 40),
    Color32::from_rgb(44, 160, 44),
    Color32::from_rgb(148, 103, 189),
];

fn luck_ui(ui: &mut Ui, reports: &mut ReportsUi, ob: &OpenBattle) {
    let key = battle_key(ob);
    if reports.luck.as_ref().is_none_or(|c| c.key != key) {
        let b = ob.battle.as_ref();
        let line = b.path_to(b.head(b.current_branch()));
        let dice = luck::dice_of(b, &line, 0);
        reports.luck = Some(LuckCache {
            key,
            luck: luck::luck(&dice),
        });
    }
    let Some(cache) = &reports.luck else { return };
    let l = &cache.luck;
    ui.label("The dice of this branch, each side's against what the rules made likely.");
    if l.sides.is_empty() {
        ui.weak("No dice have been rolled yet.");
        return;
    }
    for line in xenolog_report::dice_sentences(l) {
        ui.label(line);
    }
    ui.separator();
    egui::Grid::new("luck-table").striped(true).show(ui, |ui| {
        for h in ["Side", "What", "Made", "Expected", "Luckier than"] {
            ui.strong(h);
        }
        ui.end_row();
        for row in xenolog_report::luck_rows(l) {
            ui.label(&row[0]);
            ui.label(&row[1]);
            ui.label(&row[2]);
            ui.label(&row[3]);
            ui.label(format!("{} of possible battles", row[5]))
                .on_hover_text(format!("Chance of at least this many: {}", row[4]));
            ui.end_row();
        }
    });
    for (i, s) in l.sides.iter().enumerate() {
        if s.d6() == 0 {
            continue;
        }
        let colour = SIDE_COLOURS[i % SIDE_COLOURS.len()];
        ui.strong(format!("{}: faces against a fair die", s.side));
        let expected = f64::from(s.d6()) / 6.0;
        let bars: Vec<Bar> = s
            .faces
            .iter()
            .enumerate()
            .map(|(k, &c)| Bar::new(k as f64 + 1.0, f64::from(c)).width(0.7))
            .collect();
        let plot = Plot::new(("luck-faces", i))
            .height(150.0)
            .legend(Legend::default())
            .allow_scroll(false)
            .allow_drag(false)
            .allow_zoom(false)
            .show(ui, |p| {
                p.bar_chart(BarChart::new("rolled", bars).color(colour));
                p.hline(HLine::new(format!("expected ({expected:.1})"), expected));
            });
        let name = format!("Faces rolled by the {}", s.side);
        plot.response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &name));
    }
    ui.strong("Running luck: made less expected, entry by entry");
    let plot = Plot::new("luck-running")
        .height(180.0)
        .legend(Legend::default())
        .allow_scroll(false)
        .show(ui, |p| {
            for (i, s) in l.sides.iter().enumerate() {
                if s.running.is_empty() {
                    continue;
                }
                let mut points = vec![[0.0, 0.0]];
                points.extend(s.running.iter().map(|(e, v)| [*e as f64, *v]));
                p.line(
                    Line::new(s.side.clone(), PlotPoints::from(points))
                        .color(SIDE_COLOURS[i % SIDE_COLOURS.len()]),
                );
            }
        });
    plot.response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Image, true, "Running luck over the battle")
    });
}

/// The header of the open battle's report.
fn header_of(ob: &OpenBattle, campaign: &dyn CampaignStore, notes: &[Note]) -> Header {
    Header {
        title: ob.summary.title.clone(),
        battle_id: ob.id,
        campaign_file: campaign
            .path()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        date: xenolog_report::date(ob.summary.created),
        notes: notes.to_vec(),
        branch: None,
        bookmark_pictures_only: false,
    }
}

fn export_ui(
    ui: &mut Ui,
    reports: &mut ReportsUi,
    ob: &OpenBattle,
    campaign: &dyn CampaignStore,
    notes: &[Note],
    commands: &mut Vec<AppCommand>,
) {
    let format = *reports.format.get_or_insert(Format::Html);
    let mut chosen = format;
    ui.horizontal(|ui| {
        ui.label("Format:");
        for f in Format::ALL {
            ui.radio_value(&mut chosen, f, f.name());
        }
    });
    reports.format = Some(chosen);
    let (id, entries, branch) = battle_key(ob);
    let key = (chosen, id, entries, branch, notes.len());
    if reports.preview.as_ref().is_none_or(|p| p.key != key) {
        let story = Story::build(ob.battle.as_ref(), &header_of(ob, campaign, notes));
        let options = xenolog_report::Options {
            png: false,
            ..Default::default()
        };
        let r = xenolog_report::render(&story, chosen, &options);
        let readable = (chosen == Format::Html)
            .then(|| xenolog_report::render(&story, Format::Markdown, &options).text);
        reports.preview = Some(Preview {
            key,
            files: r.files.len(),
            text: r.text,
            readable,
        });
    }
    let Some(preview) = &reports.preview else {
        return;
    };
    ui.label(match chosen {
        Format::Html => {
            "One page with the pictures inside it: open it in any browser, print it.".to_owned()
        }
        Format::Markdown | Format::BbCode => format!(
            "The board pictures and plots are written beside it ({} files, SVG and PNG).",
            preview.files
        ),
        Format::Csv => "One row per die, for your own graphs.".to_owned(),
    });
    ui.horizontal(|ui| {
        if ui.button("Export…").clicked() {
            commands.push(AppCommand::AskFile(FileRequest::ExportReport(chosen)));
        }
        if chosen == Format::Html
            && ui
                .button("Open in browser")
                .on_hover_text("The page as it will be written, opened in your web browser")
                .clicked()
        {
            commands.push(AppCommand::Explain(open_in_browser(&preview.text)));
        }
    });
    ui.separator();
    if let Some(md) = &preview.readable {
        // The HTML page is for a browser; here the same report reads as
        // formatted text, not as markup.
        ui.strong("Preview");
        egui::ScrollArea::vertical()
            .id_salt("report-preview")
            .auto_shrink([false, false])
            .show(ui, |ui| markdown_ui(ui, md));
        return;
    }
    let heading = ui.strong("Preview");
    let mut text = preview.text.as_str();
    egui::ScrollArea::vertical()
        .id_salt("report-preview")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.add(
                egui::TextEdit::multiline(&mut text)
                    .font(egui::TextStyle::Monospace)
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(heading.id)
            .on_hover_text("The report as it will be written");
        });
}

/// Markdown drawn as formatted text: headings, paragraphs, list items,
/// tables as grids, links by their words, pictures named (they are in the
/// page): no markup shows (issue 28).
fn markdown_ui(ui: &mut Ui, md: &str) {
    let mut table: Vec<Vec<String>> = Vec::new();
    let mut tables = 0;
    for line in md.lines().chain(std::iter::once("")) {
        let t = line.trim_end();
        if t.starts_with('|') {
            if !t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ')) {
                table.push(table_cells(t));
            }
            continue;
        }
        if !table.is_empty() {
            tables += 1;
            egui::Grid::new(("report-table", tables))
                .striped(true)
                .show(ui, |ui| {
                    for row in table.drain(..) {
                        for cell in row {
                            ui.label(cell);
                        }
                        ui.end_row();
                    }
                });
        }
        if let Some(h) = t.strip_prefix("# ") {
            ui.heading(plain_md(h));
        } else if let Some(h) = t.strip_prefix("## ") {
            ui.add_space(6.0);
            ui.label(egui::RichText::new(plain_md(h)).strong().size(16.0));
        } else if let Some(h) = t.strip_prefix("### ").or_else(|| t.strip_prefix("#### ")) {
            ui.add_space(4.0);
            ui.strong(plain_md(h));
        } else if let Some(rest) = t.strip_prefix("![") {
            let alt = rest.split_once("](").map_or(rest, |(a, _)| a);
            ui.weak(format!("[picture: {alt}]"));
        } else if let Some(item) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
            ui.label(format!("• {}", plain_md(item)));
        } else if t.is_empty() {
            ui.add_space(4.0);
        } else {
            ui.label(plain_md(t));
        }
    }
}

/// A Markdown table row's cells, each as plain words.
fn table_cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            // An escaped bar is a bar in the cell.
            '\\' => {
                if let Some(n) = chars.next() {
                    cell.push('\\');
                    cell.push(n);
                }
            }
            '|' => cells.push(plain_md(std::mem::take(&mut cell).trim())),
            c => cell.push(c),
        }
    }
    cells.push(plain_md(cell.trim()));
    cells
}

/// A Markdown line's words without its marks: emphasis, escapes, inline
/// code's backticks, and links (`[words](target)` reads "words").
fn plain_md(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut rest = t;
    while let Some(i) = rest.find('[') {
        let (before, after) = rest.split_at(i);
        out.push_str(before);
        match after[1..].split_once("](") {
            Some((words, tail)) if !words.contains('[') && tail.contains(')') => {
                let (_, tail) = tail.split_once(')').unwrap_or(("", tail));
                out.push_str(words);
                rest = tail;
            }
            _ => {
                out.push('[');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out.replace(['*', '`'], "").replace("\\", "")
}

/// Write the report page to a temporary file and ask the system to open it
/// in the browser; what happened, for the status bar.
fn open_in_browser(html: &str) -> String {
    let path = std::env::temp_dir().join(format!("xenolog-report-{}.html", std::process::id()));
    if let Err(e) = std::fs::write(&path, html) {
        return format!("The report page could not be written for the browser: {e}");
    }
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    match std::process::Command::new(opener)
        .arg(&path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(_) => format!(
            "Opened the report page in your browser ({})",
            path.display()
        ),
        Err(_) => format!(
            "No browser could be started from here: the page is at {}",
            path.display()
        ),
    }
}

/// Write the open battle's report to `path`.
pub fn export(
    campaign: Option<&dyn CampaignStore>,
    open: Option<&OpenBattle>,
    notes: &[Note],
    format: Format,
    path: &Path,
) -> Result<String, String> {
    let (Some(c), Some(ob)) = (campaign, open) else {
        return Err("no battle is open".into());
    };
    let story = Story::build(ob.battle.as_ref(), &header_of(ob, c, notes));
    let written = xenolog_report::write_report(&story, format, path).map_err(|e| e.to_string())?;
    Ok(format!(
        "{} report saved to {}{}",
        format.name(),
        path.display(),
        if written.len() > 1 {
            format!(" with {} pictures beside it", written.len() - 1)
        } else {
            String::new()
        }
    ))
}

#[cfg(test)]
mod markdown_tests {
    use super::{plain_md, table_cells};

    #[test]
    fn the_preview_shows_a_markdown_line_without_its_marks() {
        assert_eq!(
            plain_md("The board at the start ([SVG](report-board-00-start.svg))"),
            "The board at the start (SVG)"
        );
        assert_eq!(
            plain_md("Check it yourself: `xenolog verify club.xenolog --battle 1`"),
            "Check it yourself: xenolog verify club.xenolog --battle 1"
        );
        assert_eq!(plain_md("**Aliens win** \\[2\\]"), "Aliens win [2]");
    }

    #[test]
    fn a_table_row_is_split_into_its_cells() {
        assert_eq!(
            table_cells("| Sides | Marines (seat 1); Kay'otz (seat 2) |"),
            ["Sides", "Marines (seat 1); Kay'otz (seat 2)"]
        );
        assert_eq!(table_cells(r"| a \| b | c |"), ["a | b", "c"]);
    }
}
