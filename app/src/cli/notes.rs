//! `xenolog note add|list|remove` and `xenolog bookmarks`: a player's notes
//! and bookmarks on a battle's entries. They are annotations beside the log,
//! never game facts: `verify` does not read them and the hash chain does not
//! cover them.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;
use xenolog_engine::{Battle, EntryId};
use xenolog_saves::{BattleId, Note};

use super::{Fail, Out, json_line, line, load, open_ro, open_rw};

/// The battle an annotation is on.
#[derive(Args, Debug)]
pub(super) struct NoteAt {
    /// The campaign file.
    file: PathBuf,
    /// The battle id (see `xenolog battles FILE`).
    #[arg(long)]
    battle: BattleId,
}

#[derive(Subcommand, Debug)]
pub(super) enum NoteCmd {
    /// Write a note on an entry (replacing the note it had), optionally
    /// bookmarking it too.
    Add {
        #[command(flatten)]
        at: NoteAt,
        /// The entry's number, as `xenolog log` prints it.
        #[arg(long)]
        entry: EntryId,
        /// The note, e.g. "the turning point".
        #[arg(long)]
        text: String,
        /// Bookmark the entry as well.
        #[arg(long)]
        bookmark: bool,
    },
    /// The notes and bookmarks of a battle, in entry order.
    List {
        #[command(flatten)]
        at: NoteAt,
        #[arg(long)]
        json: bool,
    },
    /// Remove an entry's note and its bookmark.
    Remove {
        #[command(flatten)]
        at: NoteAt,
        #[arg(long)]
        entry: EntryId,
    },
}

/// The bookmarks command's arguments.
#[derive(Args, Debug)]
pub(super) struct BookmarksArgs {
    #[command(flatten)]
    at: NoteAt,
    /// Bookmark this entry.
    #[arg(long, value_name = "ENTRY", conflicts_with = "remove")]
    add: Option<EntryId>,
    /// Take the bookmark off this entry (its note stays).
    #[arg(long, value_name = "ENTRY")]
    remove: Option<EntryId>,
    #[arg(long)]
    json: bool,
}

pub(super) fn note(cmd: NoteCmd, out: &mut dyn Write) -> Out {
    match cmd {
        NoteCmd::Add {
            at,
            entry,
            text,
            bookmark,
        } => {
            if text.trim().is_empty() && !bookmark {
                return Err(Fail::usage(
                    "the note is empty: give --text, or use `note remove` to delete a note",
                ));
            }
            let mut c = open_rw(&at.file)?;
            c.set_note(at.battle, entry, &text)?;
            if bookmark {
                c.set_bookmark(at.battle, entry, true)?;
            }
            line(
                out,
                format!(
                    "noted entry {entry} of {}{}",
                    c.battle_name(at.battle)?,
                    if bookmark { " and bookmarked it" } else { "" }
                ),
            )
        }
        NoteCmd::List { at, json } => {
            let c = open_ro(&at.file)?;
            let notes = c.notes(at.battle)?;
            let b = load(&c, at.battle)?;
            list(&*b, &notes, json, out)
        }
        NoteCmd::Remove { at, entry } => {
            let mut c = open_rw(&at.file)?;
            if c.remove_note(at.battle, entry)? {
                line(out, format!("removed the note on entry {entry}"))
            } else {
                line(out, format!("entry {entry} had no note or bookmark"))
            }
        }
    }
}

pub(super) fn bookmarks(args: BookmarksArgs, out: &mut dyn Write) -> Out {
    let at = &args.at;
    if args.add.is_some() || args.remove.is_some() {
        let mut c = open_rw(&at.file)?;
        if let Some(e) = args.add {
            c.set_bookmark(at.battle, e, true)?;
            line(out, format!("bookmarked entry {e}"))?;
        }
        if let Some(e) = args.remove {
            c.set_bookmark(at.battle, e, false)?;
            line(out, format!("took the bookmark off entry {e}"))?;
        }
        return Ok(());
    }
    let c = open_ro(&at.file)?;
    let marks = c.bookmarks(at.battle)?;
    let b = load(&c, at.battle)?;
    if marks.is_empty() && !args.json {
        return line(
            out,
            format!("{} has no bookmarks", c.battle_name(at.battle)?),
        );
    }
    list(&*b, &marks, args.json, out)
}

/// One line per annotated entry: its number, bookmark, turn and phase, the
/// command in words, and the note.
fn list(b: &dyn Battle, notes: &[Note], json: bool, out: &mut dyn Write) -> Out {
    for n in notes {
        let words = b.entry_texts(&[n.entry]).into_iter().next();
        let (what, flow) = words
            .map(|t| {
                (
                    format!("{}: {}", t.actor, t.command),
                    format!("turn {}, {}", t.flow.turn, t.flow.phase),
                )
            })
            .unwrap_or_default();
        if json {
            json_line(
                out,
                &json!({"entry": n.entry, "bookmark": n.bookmark, "note": n.text,
                    "entry_text": what, "flow": flow, "updated": n.updated}),
            )?;
        } else {
            let mark = if n.bookmark { "*" } else { " " };
            let note = if n.text.is_empty() {
                String::new()
            } else {
                format!(" -- note: {}", n.text)
            };
            line(
                out,
                format!("{mark} entry {} ({flow}) {what}{note}", n.entry),
            )?;
        }
    }
    Ok(())
}
