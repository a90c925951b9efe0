//! The report as forum BBCode (what BoardGameGeek and most forums accept:
//! [b], [i], [size], [color], [list], [img]), with the pictures written
//! beside it to be uploaded, and every tag closed.

use std::fmt::Write as _;

use xenolog_engine::Importance;

use crate::{Options, Piece, Report, Story, dice_sentences, luck_rows, picture_files};

/// Square brackets in the log's words would read as tags: they become
/// round ones.
pub fn escape(text: &str) -> String {
    text.replace('[', "(").replace(']', ")")
}

pub fn render(story: &Story, options: &Options) -> Report {
    let mut bb = String::new();
    let stem = &options.stem;
    let ext = if options.png { "png" } else { "svg" };
    let img = |bb: &mut String, i: usize| {
        let p = &story.pictures[i];
        let _ = writeln!(bb, "[img]{stem}-{}.{ext}[/img]", p.name);
        let _ = writeln!(bb, "[i]{}[/i]\n", escape(&p.caption));
    };
    let _ = writeln!(bb, "[size=18][b]{}[/b][/size]\n", escape(&story.title));
    let _ = writeln!(
        bb,
        "[color=#806000][i]Upload the picture files written beside this report ({stem}-*.{ext}) to the forum and put each one's address in place of its file name below.[/i][/color]\n"
    );
    for (label, words) in story.facts() {
        let _ = writeln!(bb, "[b]{label}:[/b] {}", escape(&words));
    }
    let _ = writeln!(
        bb,
        "[b]Seed:[/b] {}, rules version {}",
        story.seed,
        story.rules_words()
    );
    let _ = writeln!(bb, "{}", escape(&story.verified));
    let _ = writeln!(bb, "Check it yourself: {}\n", escape(&story.verify_command));
    if let Some(t) = &story.takebacks {
        let _ = writeln!(bb, "{}\n", escape(t));
    }
    img(&mut bb, story.start_picture);
    for turn in &story.turns {
        let _ = writeln!(
            bb,
            "[size=14][b]{} {}[/b][/size]",
            story.turn_word, turn.turn
        );
        for phase in &turn.phases {
            let _ = writeln!(bb, "[b]{}[/b]", escape(&phase.name));
            let _ = writeln!(bb, "[list]");
            for piece in &phase.pieces {
                match piece {
                    Piece::Folded { .. } => {
                        let words = piece.fold_words(escape).unwrap_or_default();
                        let _ = writeln!(bb, "[*][i]{words}[/i]");
                    }
                    Piece::Told(t) => {
                        let _ = write!(
                            bb,
                            "[*][b]{}.[/b] {}: {}",
                            t.entry,
                            escape(&t.actor),
                            escape(&t.command)
                        );
                        if t.bookmark {
                            let _ = write!(bb, " [color=#1060c0](bookmarked)[/color]");
                        }
                        bb.push('\n');
                        for l in &t.lines {
                            let text = escape(&l.text);
                            let _ = match l.importance {
                                Importance::Key => writeln!(
                                    bb,
                                    "[color=#b00000][b]{text}[/b][/color] ({})",
                                    l.kind.words()
                                ),
                                Importance::Notable => {
                                    writeln!(bb, "{text} [i]({})[/i]", l.kind.words())
                                }
                                Importance::Routine => writeln!(bb, "{text}"),
                            };
                        }
                        if let Some(dice) = t.dice_words() {
                            let _ = writeln!(bb, "{dice}");
                        }
                        if let Some(n) = &t.note {
                            let _ = writeln!(bb, "Note: [i]{}[/i]", escape(n));
                        }
                    }
                }
            }
            let _ = writeln!(bb, "[/list]");
            for piece in &phase.pieces {
                if let Piece::Told(t) = piece
                    && let Some(p) = t.picture
                {
                    img(&mut bb, p);
                }
            }
        }
        if let Some(p) = turn.picture {
            img(&mut bb, p);
        }
    }
    let _ = writeln!(bb, "[size=14][b]The end[/b][/size]");
    let _ = writeln!(bb, "[b]{}[/b]\n", escape(&story.result));
    img(&mut bb, story.end_picture);
    let _ = writeln!(bb, "[size=14][b]Luck[/b][/size]");
    let _ = writeln!(bb, "[list]");
    for s in dice_sentences(&story.luck) {
        let _ = writeln!(bb, "[*]{}", escape(&s));
    }
    for r in luck_rows(&story.luck) {
        let _ = writeln!(
            bb,
            "[*]{}, {}: {} made, {} expected; chance of at least this {}; [b]luckier than {} of possible battles[/b]",
            escape(&r[0]),
            r[1],
            r[2],
            r[3],
            r[4],
            r[5]
        );
    }
    let _ = writeln!(bb, "[/list]");
    for (name, _, _) in crate::plots::luck_plots(&story.luck) {
        let _ = writeln!(bb, "[img]{stem}-{name}.{ext}[/img]");
    }
    Report {
        text: bb,
        files: picture_files(story, options),
    }
}
