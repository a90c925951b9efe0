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
//!
//! The merge runs on a worker thread (session 19: a large copy froze the
//! window): the app shows the campaign read-only meanwhile, with a
//! "Merging…" notice; the worker opens the file for writing itself (the
//! app has let go of it), merges, and hands back what landed; the app then
//! opens the file for writing again, reads the battles again and says the
//! result ([`MergeJob`]).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use xenolog_saves::{Campaign, MergeOptions, Merged};

use super::store::CampaignStore;
use super::widgets::count;

/// How often a frame looks for the worker's result while a merge runs.
pub const POLL: Duration = Duration::from_millis(100);

/// A merge running on a worker thread.
pub struct MergeJob {
    /// The campaign file merged into.
    pub file: PathBuf,
    /// The other copy.
    pub theirs: PathBuf,
    pub same_campaign: bool,
    rx: Receiver<Finished>,
}

/// What a merge's worker hands back.
pub struct Finished {
    /// What landed, or the store's words when it was refused.
    pub result: Result<Merged, String>,
    /// Refused as another campaign, and it may be a copy of this one from
    /// before copies kept one uid (review finding SHOULD 5).
    pub may_be_older_copy: bool,
}

/// Merges wait for this before they begin, until released (the UI tests:
/// a frame is seen while a merge runs, whatever the machine's speed).
#[derive(Clone, Default)]
pub struct Hold(Arc<(Mutex<bool>, Condvar)>);

impl Hold {
    /// Let every merge held, and every one after, go on.
    pub fn release(&self) {
        let (released, cv) = &*self.0;
        *released.lock().unwrap_or_else(|e| e.into_inner()) = true;
        cv.notify_all();
    }

    fn wait(&self) {
        let (released, cv) = &*self.0;
        let mut r = released.lock().unwrap_or_else(|e| e.into_inner());
        while !*r {
            r = cv.wait(r).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl MergeJob {
    /// Merge the copy at `theirs` into the campaign file `file` on a worker
    /// thread (after `hold`, if any, is released); `ctx` is asked for a
    /// frame when it ends.
    pub fn start(
        file: PathBuf,
        theirs: PathBuf,
        same_campaign: bool,
        hold: Option<Hold>,
        ctx: &egui::Context,
    ) -> MergeJob {
        let (tx, rx) = std::sync::mpsc::channel();
        let wake = ctx.clone();
        let (f, t) = (file.clone(), theirs.clone());
        std::thread::spawn(move || {
            if let Some(h) = hold {
                h.wait();
            }
            let _ = tx.send(run(&f, &t, same_campaign));
            // A frame soon, not at once (a UI test's `run` never waits for
            // a thread).
            wake.request_repaint_after(POLL);
        });
        MergeJob {
            file,
            theirs,
            same_campaign,
            rx,
        }
    }

    /// The worker's result, once it has ended.
    pub fn poll(&self) -> Option<Finished> {
        match self.rx.try_recv() {
            Ok(f) => Some(f),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Finished {
                result: Err("The merge stopped before it ended (its worker failed).".into()),
                may_be_older_copy: false,
            }),
        }
    }
}

/// The worker: open the file for writing, merge, and, when the copy is
/// refused as another campaign, whether it may be an older copy of it.
fn run(file: &Path, theirs: &Path, same_campaign: bool) -> Finished {
    let mut c = match Campaign::open(file) {
        Ok(c) => c,
        Err(e) => {
            return Finished {
                result: Err(e.to_string()),
                may_be_older_copy: false,
            };
        }
    };
    let result = c
        .merge_with(theirs, MergeOptions { same_campaign })
        .map_err(|e| e.to_string());
    let may_be_older_copy = result.is_err() && !same_campaign && c.may_be_older_copy(theirs);
    Finished {
        result,
        may_be_older_copy,
    }
}

/// The title of the notice shown while the copy at `theirs` is merged.
pub fn merging_title(theirs: &Path) -> String {
    format!("Merging {}…", file_name(theirs))
}

/// Its words.
pub const MERGING_WORDS: &str = "The copy is merged in the background: the campaign is shown      read-only until it ends, and then what landed is said here.";

/// The campaign file the open campaign's copy is merged into; the words
/// when it cannot take one.
pub fn file_to_merge_into(c: &dyn CampaignStore) -> Result<PathBuf, String> {
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
    match (c.path(), c.file()) {
        (Some(p), Some(_)) => Ok(p.to_owned()),
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
    if m.notes > 0 {
        text.push_str(&format!(
            " The notes and bookmarks of {} came over, each on its entry here.",
            plural(m.notes, "entry", "entries")
        ));
    }
    if m.added == 0
        && m.grafted == 0
        && m.copied.is_empty()
        && m.conflicts.is_empty()
        && m.notices.is_empty()
        && m.notes == 0
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
