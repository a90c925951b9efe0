//! The report as one self-contained HTML page: an askama template
//! (`templates/report.html`), the board pictures and plots inline as SVG,
//! no network and no script, readable on a phone and printed.

use askama::Template;
use xenolog_engine::{DieMark, Importance};

use crate::{Piece, Report, Story, dice_sentences, luck_rows};

struct LineView {
    text: String,
    kind: String,
    key: bool,
}

struct ItemView {
    folded: bool,
    class: &'static str,
    number: String,
    head: String,
    bookmark: bool,
    lines: Vec<LineView>,
    /// (class, face, what it needed)
    dice: Vec<(&'static str, u8, String)>,
    entered: bool,
    note: Option<String>,
    picture: Option<usize>,
}

struct PhaseView {
    name: String,
    items: Vec<ItemView>,
}

struct TurnView {
    turn: u32,
    phases: Vec<PhaseView>,
    picture: Option<usize>,
}

#[derive(Template)]
#[template(path = "report.html")]
struct Page<'a> {
    s: &'a Story,
    sides: String,
    turns: Vec<TurnView>,
    /// Each picture as a figure (inline SVG and its caption).
    figures: Vec<String>,
    dice_lines: Vec<String>,
    luck_rows: Vec<[String; 6]>,
    /// (caption, SVG)
    plots: Vec<(String, String)>,
}

/// Escape text for HTML (the figure markup is built here, not in the
/// template, so it is escaped by hand).
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG without its XML declaration, to sit inside HTML.
fn inline(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    }
}

pub fn render(story: &Story) -> Report {
    let figures = story
        .pictures
        .iter()
        .map(|p| {
            format!(
                "<figure>{}<figcaption>{}</figcaption></figure>",
                inline(&p.svg),
                escape(&p.caption)
            )
        })
        .collect();
    let turns = story
        .turns
        .iter()
        .map(|t| TurnView {
            turn: t.turn,
            picture: t.picture,
            phases: t
                .phases
                .iter()
                .map(|p| PhaseView {
                    name: p.name.clone(),
                    items: p.pieces.iter().map(item).collect(),
                })
                .collect(),
        })
        .collect();
    let plots = crate::plots::luck_plots(&story.luck)
        .into_iter()
        .map(|(_, caption, svg)| (caption, inline(&svg).to_owned()))
        .collect();
    let page = Page {
        s: story,
        sides: story.sides.join("; "),
        turns,
        figures,
        dice_lines: dice_sentences(&story.luck),
        luck_rows: luck_rows(&story.luck),
        plots,
    };
    Report {
        text: page.render().unwrap_or_else(|e| {
            format!("<!DOCTYPE html><p>the report could not be written: {e}</p>")
        }),
        files: Vec::new(),
    }
}

fn item(piece: &Piece) -> ItemView {
    match piece {
        Piece::Folded { .. } => ItemView {
            folded: true,
            class: "folded",
            number: String::new(),
            head: piece.fold_words(str::to_owned).unwrap_or_default(),
            bookmark: false,
            lines: Vec::new(),
            dice: Vec::new(),
            entered: false,
            note: None,
            picture: None,
        },
        Piece::Told(t) => ItemView {
            folded: false,
            class: if t.bookmark {
                "bookmark"
            } else {
                match t.importance {
                    Importance::Key => "key",
                    Importance::Notable => "notable",
                    Importance::Routine => "routine",
                }
            },
            number: t.entry.to_string(),
            head: format!("{}: {}", t.actor, t.command),
            bookmark: t.bookmark,
            lines: t
                .lines
                .iter()
                .map(|l| LineView {
                    text: l.text.clone(),
                    kind: if l.importance == Importance::Routine {
                        String::new()
                    } else {
                        l.kind.words().to_owned()
                    },
                    key: l.importance == Importance::Key,
                })
                .collect(),
            dice: t
                .dice
                .iter()
                .map(|d| {
                    let class = match d.mark {
                        DieMark::Hit => "hit",
                        DieMark::Miss => "miss",
                        DieMark::Pass => "pass",
                        DieMark::Fail => "fail",
                        DieMark::Plain => "plain",
                    };
                    let need = if d.need.is_empty() {
                        d.words().to_string()
                    } else {
                        format!("{}, needed {}", d.words(), d.need)
                    };
                    (class, d.face, need)
                })
                .collect(),
            entered: t.entered,
            note: t.note.clone(),
            picture: t.picture,
        },
    }
}
