//! File > Merge a copy… (issue 30 item 9: a campaign without a server):
//! another copy of the open campaign file, carried from another machine,
//! merged into it through the store, as `xenolog campaign merge` does
//! (`xenolog_saves::Campaign::merge`): both logs land, the other copy's
//! battles are checked before they are copied, and an entry that no longer
//! validates is set aside (kept beside, never lost) and shown in words.
//! A file that is not a campaign, another campaign, or this campaign's own
//! file is refused in words, and nothing changes. A copy upgraded apart
//! from before copies kept one campaign uid is refused too, with a button
//! by which the player says it is a copy of this campaign (then it merges
//! if the two files' entries from before the upgrade agree).

use std::path::Path;

use xenolog_saves::{MergeOptions, Merged};

use super::store::CampaignStore;
use super::widgets::count;

/// Merge the copy at `path` into the open campaign; the store's words when
/// it is refused.
pub fn merge(
    c: &mut dyn CampaignStore,
    path: &Path,
    same_campaign: bool,
) -> Result<Merged, String> {
    if c.remote() {
        return Err(
            "A club's campaign is kept by its server, which merges every edit as it comes: \
             only a campaign file on this machine merges another copy of it."
                .into(),
        );
    }
    if c.is_read_only() {
        return Err(
            "This campaign is open read-only (another Xenolog is writing it): merge the copy \
             in the Xenolog that has it open for writing."
                .into(),
        );
    }
    match (c.path().is_some(), c.file_mut()) {
        (true, Some(f)) => f
            .merge_with(path, MergeOptions { same_campaign })
            .map_err(|e| e.to_string()),
        _ => Err(
            "Only a campaign file merges another copy of it: save the campaign first \
                  (File > New campaign…), or open the file."
                .into(),
        ),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    count(n as u64, one, many)
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// One line for the status bar.
pub fn status(m: &Merged, path: &Path) -> String {
    format!(
        "Merged {}: {} and {} landed, {} copied, {} set aside",
        file_name(path),
        plural(m.added, "log entry", "log entries"),
        plural(m.grafted, "battle entry", "battle entries"),
        plural(m.copied.len(), "battle", "battles"),
        plural(m.conflicts.len(), "conflict", "conflicts"),
    )
}

/// The notice after a merge: a title and its words (what landed, the
/// battles copied over, each conflict set aside, anything else to know).
pub fn words(m: &Merged, path: &Path) -> (String, String) {
    let name = file_name(path);
    let title = if m.conflicts.is_empty() {
        format!("Merged {name}")
    } else {
        format!(
            "Merged {name}: {} set aside",
            plural(m.conflicts.len(), "conflict", "conflicts")
        )
    };
    let mut text = format!(
        "{} of {name} landed in this campaign's log",
        plural(m.added, "entry", "entries")
    );
    if m.grafted > 0 {
        text.push_str(&format!(
            ", and {} of its moves in battles played on in both copies",
            plural(m.grafted, "battle entry", "battle entries")
        ));
    }
    text.push('.');
    if m.added == 0
        && m.grafted == 0
        && m.copied.is_empty()
        && m.conflicts.is_empty()
        && m.notices.is_empty()
    {
        text = format!("{name} had nothing this campaign lacks: nothing changed.");
    }
    if !m.copied.is_empty() {
        text.push_str(&format!(
            "\n\nBattles copied over (each replayed in full first): {}.",
            m.copied.join("; ")
        ));
    }
    if !m.conflicts.is_empty() {
        text.push_str(
            "\n\nConflicts: an entry that no longer holds where the merge put it is set aside, \
             kept beside the log (never lost), not applied; a battle played to two endings \
             counts one, the other kept as a branch:",
        );
        for c in &m.conflicts {
            text.push_str(&format!("\n• {c}"));
        }
    }
    for n in &m.notices {
        text.push_str(&format!("\n\n{n}"));
    }
    text.push_str(
        "\n\nThe battles not yet verified on this machine are now checked in the background.",
    );
    (title, text)
}
