//! The report as Markdown (CommonMark with GFM tables), the board pictures
//! and plots referenced as files written beside it.

use std::fmt::Write as _;

use xenolog_engine::Importance;

use crate::{Options, Piece, Report, Story, dice_sentences, luck_rows, picture_files};

/// Escapes what Markdown would read as markup in the log's words: a
/// backslash before each punctuation mark Markdown reads, and `<` as a
/// character reference, so that no tag of a stranger's title or note is in
/// the file at all (a renderer that passes HTML through would otherwise see
/// `\<script` as close to a tag as a backslash allows).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '>' | '&' | '#' | '|' | '!' | '~' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// `text` as a code span, or as escaped text when a code span cannot hold
/// it as it is (a backtick would end it; a `<` is kept out of the file).
fn code(text: &str) -> String {
    if text.contains(['`', '<']) {
        escape(text)
    } else {
        format!("`{text}`")
    }
}

pub fn render(story: &Story, options: &Options) -> Report {
    let mut md = String::new();
    let stem = &options.stem;
    let img = |md: &mut String, i: usize| {
        let p = &story.pictures[i];
        let svg = format!("{stem}-{}.svg", p.name);
        let file = if options.png {
            format!("{stem}-{}.png", p.name)
        } else {
            svg.clone()
        };
        let caption = escape(&p.caption);
        let _ = writeln!(md, "![{caption}]({file})\n\n*{caption}* ([SVG]({svg}))\n");
    };
    let _ = writeln!(md, "# {}\n", escape(&story.title));
    let _ = writeln!(md, "| | |\n|---|---|");
    for (label, words) in story.facts() {
        let words = escape(&words);
        // The result stands out.
        let words = if label == "Result" {
            format!("**{words}**")
        } else {
            words
        };
        let _ = writeln!(md, "| {label} | {words} |");
    }
    let _ = writeln!(md, "| Seed | {} |", story.seed);
    let _ = writeln!(md, "| Rules version | {} |", story.rules_words());
    let _ = writeln!(
        md,
        "| Branch | {} ({} entries) |\n",
        escape(&story.branch),
        story.entries
    );
    let _ = writeln!(md, "{}\n", escape(&story.verified));
    let _ = writeln!(md, "Check it yourself: {}\n", code(&story.verify_command));
    if let Some(t) = &story.takebacks {
        let _ = writeln!(md, "{}\n", escape(t));
    }
    let _ = writeln!(md, "## The start\n");
    img(&mut md, story.start_picture);
    for turn in &story.turns {
        let _ = writeln!(md, "## {} {}\n", story.turn_word, turn.turn);
        for phase in &turn.phases {
            let _ = writeln!(md, "### {}\n", escape(&phase.name));
            for piece in &phase.pieces {
                match piece {
                    Piece::Folded { .. } => {
                        let words = piece.fold_words(escape);
                        let _ = writeln!(md, "- *{}*", words.unwrap_or_default());
                    }
                    Piece::Told(t) => {
                        let mark = if t.bookmark { " (bookmarked)" } else { "" };
                        let head = format!(
                            "**{}.** {}: {}{mark}",
                            t.entry,
                            escape(&t.actor),
                            escape(&t.command)
                        );
                        let _ = writeln!(md, "- {head}");
                        for l in &t.lines {
                            let text = escape(&l.text);
                            let text = match l.importance {
                                Importance::Key => format!("**{text}** ({})", l.kind.words()),
                                Importance::Notable => format!("{text} *({})*", l.kind.words()),
                                Importance::Routine => text,
                            };
                            let _ = writeln!(md, "  - {text}");
                        }
                        if t.folded_events > 0 {
                            let _ = writeln!(md, "  - *{} routine events folded*", t.folded_events);
                        }
                        if let Some(dice) = t.dice_words() {
                            let _ = writeln!(md, "  - {dice}");
                        }
                        if let Some(n) = &t.note {
                            let _ = writeln!(md, "  - Note: *{}*", escape(n));
                        }
                        if let Some(p) = t.picture {
                            md.push('\n');
                            img(&mut md, p);
                        }
                    }
                }
            }
            md.push('\n');
        }
        if let Some(p) = turn.picture {
            img(&mut md, p);
        }
    }
    let _ = writeln!(md, "## The end\n");
    let _ = writeln!(md, "**{}**\n", escape(&story.result));
    img(&mut md, story.end_picture);
    let _ = writeln!(md, "## Luck\n");
    for s in dice_sentences(&story.luck) {
        let _ = writeln!(md, "- {}", escape(&s));
    }
    md.push('\n');
    let rows = luck_rows(&story.luck);
    if !rows.is_empty() {
        let _ = writeln!(
            md,
            "| Side | What | Made | Expected | Chance of at least this | Luckier than |\n|---|---|---:|---:|---:|---:|"
        );
        for r in rows {
            let r: Vec<String> = r.iter().map(|x| escape(x)).collect();
            let _ = writeln!(md, "| {} |", r.join(" | "));
        }
        md.push('\n');
        let _ = writeln!(
            md,
            "\"Luckier than\" is the share of all the ways the same rolls could have fallen that did worse, computed exactly.\n"
        );
    }
    for (name, caption, _) in crate::plots::luck_plots(&story.luck) {
        let file = if options.png {
            format!("{stem}-{name}.png")
        } else {
            format!("{stem}-{name}.svg")
        };
        let _ = writeln!(md, "![{}]({file})\n", escape(&caption));
    }
    Report {
        text: md,
        files: picture_files(story, options),
    }
}
