//! Verified before trusted (issue 30 item 9): a campaign file opened here
//! is checked on a worker thread (`xenolog_saves::trust`): every battle this
//! machine has not verified as it stands (all of them, the first time a
//! campaign is opened here) is replayed in full, and the first entry that
//! does not replay is named in a notice. Opening never waits for it, except
//! where the app is told to ([`TrustCheck::in_the_foreground`]: the UI tests,
//! so that no frame they read can catch the check half-way).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

use xenolog_saves::trust::{CheckNews, Checked, check_in_background};

use super::messages::Messages;
use super::store::CampaignStore;

/// How often a frame looks for news while a check runs.
const POLL: Duration = Duration::from_millis(200);

/// After this long, a check still running says so in the status line.
const SAY_AFTER: Duration = Duration::from_secs(2);

/// The check of the campaign open in the app, while it runs.
#[derive(Default)]
pub struct TrustCheck {
    running: Option<Running>,
    /// Every check runs to its end before `start` returns.
    foreground: bool,
}

struct Running {
    rx: Receiver<CheckNews>,
    started: Instant,
    progress: (usize, usize),
    said: bool,
    /// What the check found, once it ended (given on the next poll).
    ended: Option<Checked>,
}

/// What a frame should show of the check.
#[derive(Debug, PartialEq, Eq)]
pub enum TrustNews {
    /// A status line ("Checking 2 of 5 battles…").
    Status(String),
    /// A notice: a title and its words.
    Notice(String, String),
}

/// This machine's trust book: `XENOLOG_TRUST_BOOK`, else `trusted.json` in
/// the app's data folder (the command line keeps the same one).
pub fn book_in(data_dir: Option<&Path>) -> Option<PathBuf> {
    std::env::var_os("XENOLOG_TRUST_BOOK")
        .map(PathBuf::from)
        .or_else(|| data_dir.map(|d| d.join("trusted.json")))
}

impl TrustCheck {
    /// Start checking the campaign file at `path` (a check of the campaign
    /// open before is dropped: its thread ends on its own).
    pub fn start(&mut self, path: &Path, book: Option<PathBuf>, ctx: &egui::Context) {
        let wake = ctx.clone();
        // A repaint soon, not at once: a frame under way is never made to
        // run again (nor a UI test's `run` to wait for a thread).
        let rx = check_in_background(path.to_owned(), book, move || {
            wake.request_repaint_after(POLL)
        });
        self.running = Some(Running {
            rx,
            started: Instant::now(),
            progress: (0, 0),
            said: false,
            ended: None,
        });
        if self.foreground {
            self.wait();
        }
    }

    /// From now on every check runs to its end before the frame that
    /// started it goes on, and one under way is waited for now: what a
    /// frame shows never depends on how far a worker thread got (the UI
    /// tests, on a loaded machine). Its news still come with the next poll,
    /// as in the background; a check that ended this way never said it was
    /// running, so a campaign that replays says nothing.
    pub fn in_the_foreground(&mut self) {
        self.foreground = true;
        self.wait();
    }

    /// Block until the running check has ended, keeping what it found.
    fn wait(&mut self) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        while r.ended.is_none() {
            match r.rx.recv() {
                Ok(CheckNews::Progress { done, total }) => r.progress = (done, total),
                Ok(CheckNews::Done(c)) => r.ended = Some(c),
                Err(_) => r.ended = Some(Checked::default()),
            }
        }
    }

    /// Whether a check is running.
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// What arrived since the last frame (and, while the check runs, a
    /// frame again soon to look).
    pub fn poll(&mut self, ctx: &egui::Context) -> Option<TrustNews> {
        let r = self.running.as_mut()?;
        ctx.request_repaint_after(POLL);
        while r.ended.is_none() {
            match r.rx.try_recv() {
                Ok(CheckNews::Progress { done, total }) => r.progress = (done, total),
                Ok(CheckNews::Done(c)) => r.ended = Some(c),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => r.ended = Some(Checked::default()),
            }
        }
        if let Some(c) = r.ended.take() {
            let said = r.said;
            self.running = None;
            return match c.problem {
                Some(why) => Some(TrustNews::Notice(
                    "A battle of this campaign does not replay as recorded".into(),
                    format!(
                        "{why}.\n\nThis campaign came from another machine, or changed since it was last \
                         verified here; what it shows there may not be what was played. \
                         Edit > Check this battle, or `xenolog verify`, gives the whole report."
                    ),
                )),
                None if said => Some(TrustNews::Status(format!(
                    "Checked {} battle{}: every one replays exactly",
                    c.checked,
                    if c.checked == 1 { "" } else { "s" }
                ))),
                None => None,
            };
        }
        let (d, t) = r.progress;
        if t > 0 && r.started.elapsed() >= SAY_AFTER {
            r.said = true;
            return Some(TrustNews::Status(format!(
                "Checking the battles not yet verified on this machine: {d} of {t}…"
            )));
        }
        None
    }
}

/// What an import of a battle file says of the campaign (issue 30 item 9).
#[derive(Debug, PartialEq, Eq)]
pub enum ImportSaid {
    /// Nothing to say: not a roster battle, or a store that cannot tell.
    Nothing,
    /// A roster battle of a copy of this campaign: it counts.
    Counts,
    /// A roster battle that arrived bare, and why.
    Bare(String),
}

/// Import a battle file: into a campaign file, a roster battle of a copy of
/// the same campaign counts for its rosters (and one that cannot, says why).
pub fn import(c: &mut dyn CampaignStore, path: &Path) -> Result<(i64, ImportSaid), String> {
    match c.file_mut() {
        Some(f) => f
            .import_battle_counted(path)
            .map(|got| {
                let said = match (got.counted, got.notice) {
                    (true, _) => ImportSaid::Counts,
                    (false, Some(why)) => ImportSaid::Bare(why),
                    (false, None) => ImportSaid::Nothing,
                };
                (got.id, said)
            })
            .map_err(|e| e.to_string()),
        None => c.import_battle(path).map(|id| (id, ImportSaid::Nothing)),
    }
}

/// Tell the player what an import said.
pub fn tell_import(said: ImportSaid, messages: &mut Messages) {
    match said {
        ImportSaid::Nothing => {}
        ImportSaid::Counts => messages.status.push_str(
            ": a battle of a copy of this campaign, it counts for its rosters (experience and casualties as if played here)",
        ),
        ImportSaid::Bare(why) => messages.notice("The battle arrived without its rosters", why),
    }
}
