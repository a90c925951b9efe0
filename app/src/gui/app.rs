//! The app: holds the open campaign and battle, draws the panels each frame,
//! then applies the commands the panels pushed.
//!
//! It keeps no copy of game state. Each frame it asks the battle's view cache,
//! which asks the engine again only when the cursor, the branch or the log
//! changed.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use eframe::egui::{self, Key, Panel, Ui};
use xenolog_engine::{Actor, Battle, EntryId, PendingKind, PlayError, RuleErrorKind, Viewer};

use super::board::{BoardInput, LosState, board_ui};
use super::boards::{self, BoardUi};
use super::branches::{BranchState, branches_ui};
use super::browser::browser_ui;
use super::club::{Arrival, ClubCampaign, Credentials};
use super::club_ui::ClubAction;
use super::command::{AppCommand, FileRequest, Intent, NewBattleSpec, PlayRequest};
use super::dialogs::{Dialog, DiceForm, NewBattleForm, Notice};
use super::files::{Answer, BATTLE_EXT, FileDialogs, InAppDialog};
use super::look::Look;
use super::menu::{MenuContext, PanelsShown, menu_bar_ui};
use super::messages::Messages;
use super::open::OpenBattle;
use super::position::PositionFile;
use super::prefs::{Prefs, ThemeChoice};
use super::reports::ReportsUi;
use super::shortcuts;
use super::side::{SideState, dice_tray_ui, entry_steps_ui, selection_ui, status_ui};
use super::store::{self, BattleId, BattleSummary, CampaignStore, DiceMode};
use super::timeline::{TimelineState, controls_ui, entries_table_ui, strip_ui};

/// Seconds of quiet after the cursor moves before the position is written, so
/// scrubbing does not write to disk on every frame.
const SAVE_POSITION_AFTER: f64 = 0.5;

/// How the app starts.
pub struct Startup {
    /// A campaign to open (from `xenolog open FILE`).
    pub campaign: Option<PathBuf>,
    /// Where the sample campaign is made on first start (`None`: nowhere to
    /// write, the app starts on a campaign kept in memory).
    pub data_dir: Option<PathBuf>,
    pub dialogs: Box<dyn FileDialogs>,
    /// Save a screenshot of the first fully drawn frame here, then quit.
    pub screenshot: Option<PathBuf>,
    /// Reopen the last campaign from the preferences.
    pub restore_last: bool,
    /// When the program started, to time the first frame.
    pub started: Instant,
    /// The sample campaign being made on another thread while the window
    /// opens (first start only); its path, or why it could not be made.
    pub sample: Option<std::thread::JoinHandle<Result<PathBuf, String>>>,
}

/// Saving the first fully drawn frame (for CI and the README).
struct ScreenshotJob {
    path: PathBuf,
    /// A first capture, of the first frame with the board, only to time
    /// when it reached the screen.
    timed: bool,
    requested: bool,
    done: Arc<Mutex<Option<Result<(), String>>>>,
}

/// The Xenolog desktop app.
pub struct App {
    pub prefs: Prefs,
    /// The open campaign file's check on a worker thread (issue 30 item 9).
    trust: super::trust::TrustCheck,
    /// File > Merge a copy… on a worker thread, while it runs (session 19).
    merging: Option<super::merge::MergeJob>,
    /// Merges wait for this before they begin (the UI tests).
    merge_hold: Option<super::merge::Hold>,
    files: Box<dyn FileDialogs>,
    pub campaign: Option<Box<dyn CampaignStore>>,
    pub battles: Vec<BattleSummary>,
    pub open: Option<OpenBattle>,
    /// How the battle is looked at: camera, panels, selection, line of
    /// sight, Branches, player aid, the hot-seat curtain.
    pub look: Look,
    pub timeline: TimelineState,
    pub side: SideState,
    pub branches: BranchState,
    /// The Campaign view (rosters, experience, skills).
    pub campaign_view: super::campaign_view::CampaignViewState,
    /// Notes and bookmarks, the Luck panel and the report export.
    pub reports: ReportsUi,
    /// The dialog, the notices, Xenolog's own file dialog and the status
    /// line.
    pub messages: Messages,
    /// File > Connect to a club.
    pub club: super::club_ui::ClubUi,
    /// Where a club's token, nonces and notes are kept.
    club_dir: Option<PathBuf>,
    commands: Vec<AppCommand>,
    /// When the cursor last moved without its position being written.
    position_dirty: Option<f64>,
    theme_applied: Option<ThemeChoice>,
    /// The window's width last frame, to tell a resize.
    window_width: Option<f32>,
    /// Frames still to draw after a click or a command, so what it opened
    /// shows without waiting for the pointer to move.
    settle_frames: u8,
    screenshot: Option<ScreenshotJob>,
    started: Instant,
    /// Time from start to the first frame with the board drawn.
    pub first_frame: Option<Duration>,
    ctx: egui::Context,
}

impl App {
    /// The app as eframe starts it.
    pub fn new(cc: &eframe::CreationContext<'_>, startup: Startup) -> Self {
        let prefs = cc
            .storage
            .and_then(|s| eframe::get_value::<Prefs>(s, Prefs::KEY))
            .unwrap_or_default();
        Self::with_prefs(&cc.egui_ctx, prefs, startup)
    }

    /// The app with given preferences (tests start here too).
    pub fn with_prefs(ctx: &egui::Context, prefs: Prefs, startup: Startup) -> Self {
        install_fonts(ctx);
        let club_dir = startup
            .data_dir
            .clone()
            .or_else(store::data_dir)
            .map(|d| d.join("club"));
        let mut app = Self {
            trust: Default::default(),
            merging: None,
            merge_hold: None,
            club: Default::default(),
            club_dir,
            look: Look::new(prefs.zoom),
            prefs,
            files: startup.dialogs,
            campaign: None,
            campaign_view: Default::default(),
            battles: Vec::new(),
            open: None,
            timeline: TimelineState {
                goto_turn: 1,
                ..TimelineState::default()
            },
            side: SideState::default(),
            branches: BranchState::default(),
            reports: ReportsUi::default(),
            messages: Messages::default(),
            commands: Vec::new(),
            position_dirty: None,
            theme_applied: None,
            settle_frames: 0,
            window_width: None,
            screenshot: startup.screenshot.map(|path| ScreenshotJob {
                path,
                timed: false,
                requested: false,
                done: Arc::new(Mutex::new(None)),
            }),
            started: startup.started,
            first_frame: None,
            ctx: ctx.clone(),
        };
        app.start(
            startup.campaign,
            startup.data_dir,
            startup.sample,
            startup.restore_last,
        );
        app
    }

    /// Open what the player asked for, else the last campaign, else the
    /// sample (made on first start), else a campaign in memory.
    fn start(
        &mut self,
        asked: Option<PathBuf>,
        data_dir: Option<PathBuf>,
        making: Option<std::thread::JoinHandle<Result<PathBuf, String>>>,
        restore: bool,
    ) {
        // Wait for a sample being made, whatever opens: its errors are told.
        let made = making.map(|h| {
            h.join()
                .unwrap_or_else(|_| Err("making it failed unexpectedly".to_owned()))
        });
        if let Some(Err(e)) = &made {
            self.notice("The sample campaign could not be made", e.clone());
        }
        let asked_failed = asked.is_some();
        let asked_path = asked.clone();
        if let Some(path) = asked {
            self.open_campaign(&path, false);
            if self.campaign.is_some() {
                return;
            }
        }

        if restore
            && let Some(last) = self.prefs.last_campaign.clone()
            && last.exists()
            // The file asked for, refused once (locked), is not asked again.
            && asked_path.as_deref() != Some(last.as_path())
        {
            // Its notice comes after the one about the file asked for.
            let title = if asked_failed {
                "Your last campaign could not be opened instead"
            } else {
                "The campaign could not be opened"
            };
            self.open_campaign_titled(&last, false, title);
            if self.campaign.is_some() {
                return;
            }
        }
        if let Some(dir) = data_dir {
            let sample = match made {
                Some(Ok(path)) => Ok(path),
                Some(Err(_)) => Err(()),
                None => store::make_sample(&dir).map_err(|e| {
                    self.notice("The sample campaign could not be made", e);
                }),
            };
            if let Ok(sample) = sample {
                self.open_campaign(&sample, false);
                if self.campaign.is_some() {
                    return;
                }
            }
        }
        match store::scratch("Scratch campaign (not saved)") {
            Ok(c) => self.campaign = Some(c),
            Err(e) => self.notice("No campaign could be made, not even in memory", e),
        }
        self.battles.clear();
    }

    // ---- a club server ----------------------------------------------------

    /// What the club server sent since the last frame: another seat's move
    /// shows at once, a refusal as a notice.
    fn poll_club(&mut self) {
        let Some(c) = self.campaign.as_mut() else {
            return;
        };
        if !c.remote() {
            return;
        }
        let arrivals = c.poll();
        if c.club().is_some_and(|k| k.reconnecting()) {
            self.messages.status = "Reconnecting to the club server…".into();
        }
        // The network thread repaints when something arrives; this keeps
        // "reconnecting" current while it cannot.
        self.ctx.request_repaint_after(Duration::from_millis(250));
        let (mut reload, mut listing, mut first) = (false, false, None);
        for a in arrivals {
            match a {
                Arrival::Battle(id) => match &self.open {
                    Some(ob) if ob.id == id => reload = true,
                    Some(_) => {}
                    None => first = first.or(Some(id)),
                },
                Arrival::Listing => listing = true,
                Arrival::Notice { title, words } => self.notice(&title, words),
                Arrival::Status(s) => self.messages.status = s,
            }
        }
        if listing {
            self.reload_battles();
        }
        if reload {
            self.reload_open();
        } else if let Some(id) = first {
            // The battle just joined has started: show it, over the window.
            self.open_battle(id);
            self.club.shown = false;
        }
        if listing || reload {
            self.settle_frames = self.settle_frames.max(1);
        }
    }

    /// The open battle again from its store, at the newest entry if it was
    /// shown there, else where it was.
    fn reload_open(&mut self) {
        let (Some(c), Some(ob)) = (&self.campaign, &mut self.open) else {
            return;
        };
        // Only what is new is read (a long battle's copy is not built again
        // on every move).
        if let Ok(true) = c.catch_up(ob.id, ob.battle.as_mut()) {
            ob.view.invalidate();
            return;
        }
        match c.load_battle(ob.id) {
            Ok(mut battle) => {
                let at = ob.battle.cursor();
                if at != ob.battle.head(ob.battle.current_branch()) {
                    battle.seek(at);
                }
                ob.battle = battle;
                ob.view.invalidate();
            }
            Err(e) => self
                .messages
                .notice("The battle could not be read again", e),
        }
    }

    fn club_action(&mut self, action: ClubAction) {
        match action {
            ClubAction::Connect {
                server,
                invitation,
                ca_file,
            } => {
                let ca = Some(PathBuf::from(ca_file.trim())).filter(|p| !p.as_os_str().is_empty());
                self.connect_club(&server, Credentials::Invitation(invitation), ca)
            }
            ClubAction::Reconnect(host) => self.connect_club(&host, Credentials::Kept, None),
            ClubAction::Join(id) => {
                let Some(c) = self.campaign.as_mut().and_then(|c| c.club_mut()) else {
                    return;
                };
                match c.join(id) {
                    Ok(()) => self.messages.status = format!("Joining battle {id}…"),
                    Err(e) => self.notice(&format!("Battle {id} could not be joined"), e),
                }
            }
            ClubAction::Open(id) => {
                self.open_battle(id);
                self.club.shown = false;
            }
            ClubAction::AskTakeback { battle, to } => {
                let Some(c) = self.campaign.as_mut().and_then(|c| c.club_mut()) else {
                    return;
                };
                match c.ask_takeback(battle, to) {
                    Ok(()) => {
                        self.messages.status = format!("Asking for a take-back in battle {battle}…")
                    }
                    Err(e) => self.notice("The take-back was not asked", e),
                }
            }
            ClubAction::AnswerTakeback { battle, accept } => {
                let Some(c) = self.campaign.as_mut().and_then(|c| c.club_mut()) else {
                    return;
                };
                if let Err(e) = c.answer_takeback(battle, accept) {
                    self.notice("The take-back answer was not taken", e);
                }
            }
            ClubAction::Refresh => {
                if let Some(c) = self.campaign.as_mut().and_then(|c| c.club_mut())
                    && let Err(e) = c.refresh()
                {
                    self.notice("The club's battles could not be listed", e);
                }
            }
        }
    }

    /// Connect on a thread of its own (an unreachable server takes seconds
    /// to say so; the window says "Connecting…" meanwhile, and no frame
    /// waits).
    fn connect_club(&mut self, server: &str, credentials: Credentials, ca: Option<PathBuf>) {
        if self.club.connecting.is_some() {
            return;
        }
        let Some(dir) = self.club_dir.clone() else {
            self.club.error = Some("there is no home folder to keep the club's token in".into());
            return;
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let (server, ctx) = (server.to_owned(), self.ctx.clone());
        let started = std::thread::Builder::new()
            .name("club connect".into())
            .spawn(move || {
                let _ = tx.send(ClubCampaign::connect_with_ca(
                    &server,
                    credentials,
                    ca.as_deref(),
                    &dir,
                    &ctx,
                ));
                ctx.request_repaint();
            });
        match started {
            Ok(_) => {
                self.club.error = None;
                self.club.connecting = Some(rx);
            }
            Err(e) => self.club.error = Some(format!("cannot start connecting: {e}")),
        }
    }

    /// The connection made on its thread, once it is made (or refused).
    fn club_connected(&mut self) {
        let Some(rx) = &self.club.connecting else {
            return;
        };
        let made = match rx.try_recv() {
            Ok(made) => made,
            Err(std::sync::mpsc::TryRecvError::Empty) => {
                self.ctx.request_repaint_after(Duration::from_millis(100));
                return;
            }
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                Err("connecting failed unexpectedly".to_owned())
            }
        };
        self.club.connecting = None;
        match made {
            Ok(c) => {
                self.club.error = None;
                // The invitation is spent: nothing of it stays in the window.
                self.club.invitation.clear();
                self.set_campaign(Box::new(c));
                self.messages.status = format!("Connected to the club at {}", self.club_host());
            }
            Err(e) => self.club.error = Some(e),
        }
    }

    fn club_host(&self) -> String {
        self.campaign
            .as_ref()
            .and_then(|c| c.club())
            .map_or_else(String::new, |c| c.host().to_owned())
    }

    /// Whether a merge (File > Merge a copy…) still runs on its worker.
    pub fn merging(&self) -> bool {
        self.merging.is_some()
    }

    /// From now on every merge waits before it begins until the returned
    /// hold is released (the UI tests: a frame is seen while it runs).
    pub fn hold_merges(&mut self) -> super::merge::Hold {
        self.merge_hold.get_or_insert_with(Default::default).clone()
    }

    /// Whether the open campaign's check (issue 30 item 9) still runs.
    pub fn trust_running(&self) -> bool {
        self.trust.running()
    }

    /// Run every campaign check to its end before the frame goes on (the
    /// UI tests: a snapshot or a status line never catches the check's
    /// words half-way); one under way is waited for now.
    pub fn check_in_the_foreground(&mut self) {
        self.trust.in_the_foreground();
    }

    fn notice(&mut self, title: &str, text: impl Into<String>) {
        self.messages.notice(title, text);
    }

    /// Edit > Check this battle: replay the open battle from its seed, every
    /// branch, checking each entry's dice, events and hash; say the result.
    fn check_battle(&mut self) {
        let (Some(c), Some(ob)) = (&self.campaign, &self.open) else {
            return;
        };
        let title = ob.summary.title.clone();
        match c.verify_battle(ob.id) {
            Ok(report) if report.ok() => {
                self.notice(&format!("{title} checks out"), report.to_string());
            }
            Ok(report) => self.notice(
                &format!("{title} does not replay as recorded"),
                report.to_string(),
            ),
            Err(e) => self.notice(&format!("{title} could not be checked"), e),
        }
    }

    /// File > Merge a copy… (issue 30 item 9): the other copy merged into
    /// the open campaign file through the store (as `xenolog campaign
    /// merge`), on a worker thread (session 19): the campaign is shown
    /// read-only meanwhile, with a "Merging…" notice ([`super::merge`]).
    fn merge_copy(&mut self, path: &Path, same_campaign: bool) {
        // The open battle's position first: the merge may add to its line.
        self.flush_position();
        let refused = |why: String| Notice::new("The copy was not merged", why);
        let file = match (&self.campaign, &self.merging) {
            (_, Some(_)) => Err("Another copy is being merged: wait for it to end.".to_owned()),
            (None, None) => Err("Open the campaign file to merge the copy into first.".into()),
            (Some(c), None) => super::merge::file_to_merge_into(&**c),
        };
        let file = match file {
            Ok(f) => f,
            Err(why) => return self.messages.push_notice(refused(why)),
        };
        // The app lets go of the file (the worker writes it) and shows it
        // read-only until the merge ends.
        match store::open_store(&file, true) {
            Ok(read_only) => self.campaign = Some(read_only),
            Err(e) => return self.messages.push_notice(refused(e.message)),
        }
        let hold = self.merge_hold.clone();
        self.merging = Some(super::merge::MergeJob::start(
            file,
            path.to_owned(),
            same_campaign,
            hold,
            &self.ctx,
        ));
        self.messages.status = super::merge::merging_title(path);
        self.notice(
            &super::merge::merging_title(path),
            super::merge::MERGING_WORDS,
        );
    }

    /// A merge's worker ended: the file open for writing again (if it is
    /// still the campaign shown), the battles read again, what landed and
    /// what was set aside said in a notice; then the campaign's battles not
    /// yet verified here (those copied over or grown) are checked in the
    /// background, as on opening.
    fn poll_merge(&mut self) {
        let Some(job) = &self.merging else { return };
        let Some(done) = job.poll() else {
            self.ctx.request_repaint_after(super::merge::POLL);
            return;
        };
        let Some(job) = self.merging.take() else {
            return;
        };
        let path = job.theirs.as_path();
        let merging = super::merge::merging_title(path);
        self.messages.retain_notices(|n| n.title != merging);
        let shown = self.campaign.as_ref().and_then(|c| c.path()) == Some(job.file.as_path());
        if shown {
            // The Campaign view reads the merged campaign (and what the
            // merge set aside) when next drawn.
            self.campaign_view.invalidate();
            match store::open_store(&job.file, false) {
                Ok(c) => self.campaign = Some(c),
                Err(e) => self.notice("The campaign stays open read-only", e.message),
            }
        }
        match done.result {
            Ok(m) if shown => {
                let (title, words) = super::merge::words(&m, path);
                self.reload_battles();
                // Battles may have grown: the open one is read again.
                if let Some(id) = self.open.as_ref().map(|o| o.id) {
                    self.open_battle(id);
                }
                // After open_battle's "Opened …": the merge's line stays.
                self.messages.status = super::merge::status(&m, path);
                let book = super::trust::book_in(self.club_dir.as_deref().and_then(Path::parent));
                self.trust.start(&job.file, book, &self.ctx);
                self.notice(&title, words);
            }
            Ok(m) => {
                let (title, words) = super::merge::words(&m, path);
                self.notice(&title, words);
            }
            Err(e) => {
                self.messages.status = "The copy was not merged".into();
                let mut n = Notice::new("The copy was not merged", e);
                if !job.same_campaign && done.may_be_older_copy {
                    n.action = Some((
                        "They are copies of one campaign: merge".into(),
                        AppCommand::MergeSameCampaign(path.to_owned()),
                    ));
                }
                self.messages.push_notice(n);
            }
        }
    }

    /// Queue a command as if a panel had pushed it (the GUI tests do).
    /// Apply a Campaign view action to the open campaign file.
    fn campaign_action(&mut self, action: super::campaign_view::CampaignAction) {
        let Some(c) = self.campaign.as_mut().and_then(|c| c.file_mut()) else {
            self.messages.status = "Rosters and experience live in a campaign file".into();
            return;
        };
        let mut commands = Vec::new();
        super::campaign_view::apply(&mut self.campaign_view, c, action, &mut commands);
        self.messages.status = self.campaign_view.message.clone();
        self.commands.extend(commands);
    }

    /// A command to give is stamped with the head it was chosen at: it is
    /// given in a later frame, and a club battle may move on meanwhile
    /// (the other seat's command arrives), so [`Self::give`] refuses it
    /// there in words instead of giving it at a position it was not chosen
    /// for.
    pub fn push(&mut self, mut command: AppCommand) {
        if let (AppCommand::Give(req), Some(ob)) = (&mut command, &self.open)
            && req.at.is_none()
        {
            req.at = Some(ob.battle.cursor());
        }
        self.commands.push(command);
    }

    // ---- campaigns and battles -------------------------------------------

    /// Open a campaign the caller made (benchmarks, tests).
    pub fn use_campaign(&mut self, campaign: Box<dyn CampaignStore>) {
        self.set_campaign(campaign);
    }

    fn set_campaign(&mut self, campaign: Box<dyn CampaignStore>) {
        self.flush_position();
        if let Some(p) = campaign.path() {
            self.prefs.opened(p);
            let book = super::trust::book_in(self.club_dir.as_deref().and_then(Path::parent));
            self.trust.start(p, book, &self.ctx);
            // A notice about this file (it was locked: "Open read-only")
            // is answered now that it is open.
            self.messages.retain_notices(|n| {
                !matches!(&n.action, Some((_, AppCommand::OpenCampaignReadOnly(q)
                    | AppCommand::OpenCampaign(q))) if q.as_path() == p)
            });
        }
        self.messages.status = format!("Opened campaign {}", campaign.name());
        self.campaign = Some(campaign);
        self.open = None;
        self.look.selected = None;
        self.reload_battles();
        // Go on with the battle looked at last time, else the latest of a
        // real game (not a test game), else the first one.
        let last = self
            .campaign
            .as_ref()
            .and_then(|c| c.path())
            .and_then(|p| self.prefs.last_battle.get(p).copied())
            .filter(|id| self.battles.iter().any(|b| b.id == *id));
        let test_game = super::browser::is_test_game;
        let remote = self.campaign.as_ref().is_some_and(|c| c.remote());
        let pick = last.or_else(|| {
            self.battles
                .iter()
                // A club battle not started yet cannot be shown.
                .filter(|b| {
                    !remote
                        || self
                            .campaign
                            .as_ref()
                            .is_some_and(|c| c.load_battle(b.id).is_ok())
                })
                .max_by_key(|b| (!test_game(&b.game), b.updated, std::cmp::Reverse(b.id)))
                .map(|b| b.id)
        });
        if let Some(id) = pick {
            self.open_battle(id);
        }
    }

    fn open_campaign(&mut self, path: &Path, read_only: bool) {
        self.open_campaign_titled(path, read_only, "The campaign could not be opened");
    }

    fn open_campaign_titled(&mut self, path: &Path, read_only: bool, title: &str) {
        match store::open_store(path, read_only) {
            Ok(c) => self.set_campaign(c),
            Err(e) => {
                let mut n = Notice::new(title, e.message);
                if e.locked {
                    n = n.with_action(
                        "Open read-only",
                        AppCommand::OpenCampaignReadOnly(path.to_owned()),
                    );
                }
                self.messages.push_notice(n);
            }
        }
    }

    fn reload_battles(&mut self) {
        let Some(c) = &self.campaign else { return };
        match c.battles() {
            Ok(list) => self.battles = list,
            Err(e) => self.notice("The battles could not be listed", e),
        }
        if let Some(ob) = &mut self.open
            && let Some(s) = self.battles.iter().find(|b| b.id == ob.id)
        {
            ob.summary = s.clone();
        }
    }

    /// Read the campaign again (a read-only one follows its writer): the
    /// battle list, and the open battle at the writer's saved position.
    fn refresh(&mut self) {
        let before = self
            .open
            .as_ref()
            .map(|ob| (ob.id, ob.battle.records().len()));
        self.reload_battles();
        if let Some((id, was)) = before {
            self.open_battle(id);
            if let Some(ob) = &self.open {
                let now = ob.battle.records().len();
                self.messages.status = if now > was {
                    format!(
                        "Refreshed: {} new entr{}",
                        now - was,
                        if now - was == 1 { "y" } else { "ies" }
                    )
                } else {
                    "Refreshed: nothing new".into()
                };
            }
        } else {
            self.messages.status = format!("Refreshed: {} battles", self.battles.len());
        }
    }

    fn open_battle(&mut self, id: BattleId) {
        self.flush_position();
        if !self.battles.iter().any(|b| b.id == id) {
            // Made elsewhere since the list was read (the Campaign view
            // starts battles from rosters).
            self.reload_battles();
        }
        let Some(c) = &self.campaign else { return };
        let summary = self.battles.iter().find(|b| b.id == id).cloned();
        match (c.load_battle(id), summary) {
            (Ok(battle), Some(summary)) => {
                let board = boards::for_game(battle.game_id());
                if let Some(p) = c.path() {
                    self.prefs.last_battle.insert(p.to_owned(), id);
                }
                // Nothing of the battle shown before carries over to this
                // one: its turn field, its steps, its notes, what the status
                // bar said about it, the Campaign view's sheet and messages.
                let another = self.open.as_ref().is_none_or(|o| o.id != id);
                if another {
                    self.timeline = TimelineState {
                        goto_turn: 1,
                        ..TimelineState::default()
                    };
                    self.reports.notes_for = None;
                    self.side = SideState::default();
                    self.look.los = None;
                    self.campaign_view.battle_changed();
                }
                self.messages.status = format!("Opened {}", summary.title);
                self.open = Some(OpenBattle::new(id, summary, battle, board));
                self.look.selected = None;
                self.timeline.playing = false;
                self.look.camera.pan = egui::Vec2::ZERO;
                self.look.camera.recentre = true;
                self.branches = BranchState::default();
            }
            (Err(e), _) => self.notice("The battle could not be opened", e),
            (_, None) => self.notice(
                "The battle could not be opened",
                format!("there is no battle {id}"),
            ),
        }
    }

    fn new_battle(&mut self, spec: NewBattleSpec) {
        let Some(c) = &mut self.campaign else { return };
        match c.new_battle(
            &spec.game,
            spec.seed,
            &spec.config,
            &spec.title,
            spec.dice_mode,
            spec.strict,
        ) {
            Ok(id) => {
                self.reload_battles();
                self.open_battle(id);
                self.messages.status = format!("Started {} (seed {})", spec.title, spec.seed);
            }
            Err(e) => self.notice("The battle could not be started", e),
        }
    }

    // ---- playing --------------------------------------------------------

    /// The dice a command would roll (their sides), to ask for real dice.
    /// The sides of each die a command would roll, and what each decides.
    fn dice_needed(
        battle: &dyn Battle,
        board: &dyn BoardUi,
        intent: &Intent,
    ) -> Result<(Vec<u8>, Vec<String>), String> {
        let p = battle
            .prepare_json(intent.actor, &intent.command, None)
            .map_err(|e| e.to_string())?;
        let record = match &p.kind {
            PendingKind::New { record, .. } => Some(record),
            PendingKind::Redo { entry } => battle.records().get(*entry as usize),
        };
        Ok(record.map_or_else(Default::default, |r| {
            (
                r.dice().iter().map(|d| d.sides).collect(),
                board.dice_purposes(r.events()),
            )
        }))
    }

    fn give(&mut self, req: PlayRequest) {
        let (Some(ob), Some(store)) = (self.open.as_mut(), self.campaign.as_mut()) else {
            return;
        };
        if store.is_read_only() {
            self.messages.push_notice(Notice::new(
                "This campaign is open read-only",
                "Another Xenolog has it open for writing; nothing was played.",
            ));
            return;
        }
        // Hot-seat: only the seat the screen is with plays (a click on a
        // face-down card of another seat must not play it for them).
        if let (Viewer::Seat(seat), _) = ob.viewer(self.look.reveal_hidden)
            && req.intent.actor != seat
            && req.intent.actor != Actor::SYSTEM
        {
            let seats = ob.battle.seats();
            let name = |a: Actor| {
                seats.iter().find(|(s, _)| *s == a).map_or_else(
                    || format!("seat {}", u16::from(a.0) + 1),
                    |(_, n)| n.clone(),
                )
            };
            let (who, with) = (name(req.intent.actor), name(seat));
            self.messages.push_notice(Notice::new(
                "Not this seat's screen",
                format!(
                    "The screen is with {with}; {who} cannot play \"{}\" from it. Pass the screen to {who} when they are asked.",
                    req.intent.text
                ),
            ));
            return;
        }
        if let Some(at) = req.at
            && at != ob.battle.cursor()
        {
            let entry = |e: Option<EntryId>| {
                e.map_or_else(|| "its setup".to_owned(), |e| format!("entry {e}"))
            };
            self.messages.push_notice(Notice::new(
                "Not given: the battle moved on",
                format!(
                    "\"{}\" was chosen at {}, and the battle is now at {}: nothing was sent. Look at the board again and give the command if it still applies.",
                    req.intent.text,
                    entry(at),
                    entry(ob.battle.cursor())
                ),
            ));
            return;
        }
        if store.remote() {
            // A club battle: the server decides; the entry comes back as an
            // event (`poll`), so the frame does not wait for the network.
            match store.play(
                ob.id,
                ob.battle.as_mut(),
                req.intent.actor,
                &req.intent.command,
                None,
            ) {
                Ok(_) => self.messages.status = format!("Sent: {}", req.intent.text),
                Err(e) => self.notice("The command was not sent", e),
            }
            return;
        }
        let battle = ob.battle.as_ref();
        if !req.forfeit_ok
            && let Some(cmd) = ob
                .view
                .legal
                .iter()
                .find(|c| c.actor == req.intent.actor && c.command == req.intent.command)
            && let Some(what) = ob.board.forfeits(battle, cmd)
        {
            self.messages
                .open_dialog(Dialog::ConfirmForfeit { request: req, what });
            return;
        }
        let refused = |e: String| Notice::new("Not allowed", format!("{}: {e}.", req.intent.text));
        if ob.summary.dice_mode == DiceMode::Entered && req.dice.is_none() {
            match Self::dice_needed(battle, ob.board.as_ref(), &req.intent) {
                Err(e) => {
                    self.messages.push_notice(refused(e));
                    return;
                }
                Ok((sides, purposes)) if !sides.is_empty() => {
                    self.messages.open_dialog(Dialog::EnterDice(DiceForm {
                        request: req,
                        sides,
                        purposes,
                        text: String::new(),
                        error: None,
                    }));
                    return;
                }
                Ok(_) => {}
            }
        }
        let new_branch =
            match battle.prepare_json(req.intent.actor, &req.intent.command, req.dice.clone()) {
                // Typed dice that do not fit: ask again, keeping what was typed.
                // (How many dice a command rolls can depend on what they show.)
                Err(PlayError::Rule(e))
                    if matches!(e.kind, RuleErrorKind::Dice | RuleErrorKind::MoreDice)
                        && req.dice.is_some() =>
                {
                    let typed = req.dice.clone().unwrap_or_default();
                    let (sides, purposes) =
                        Self::dice_needed(battle, ob.board.as_ref(), &req.intent)
                            .unwrap_or_default();
                    self.messages.open_dialog(Dialog::EnterDice(DiceForm {
                        text: typed
                            .iter()
                            .map(u8::to_string)
                            .collect::<Vec<_>>()
                            .join(" "),
                        request: PlayRequest { dice: None, ..req },
                        sides,
                        purposes,
                        error: Some(e.to_string()),
                    }));
                    return;
                }
                Err(e) => {
                    self.messages.push_notice(refused(e.to_string()));
                    return;
                }
                Ok(p) => matches!(
                    p.kind,
                    PendingKind::New {
                        new_branch: Some(_),
                        ..
                    }
                ),
            };
        if new_branch && !req.branch_ok {
            let branch = battle.current_branch();
            let name = battle
                .branches()
                .get(branch as usize)
                .map_or("this branch", |b| b.name.as_str());
            let later = ob.view.line.positions() - 1 - ob.view.pos;
            let why = format!(
                "You are at {} and {name} goes on for {}. Playing here starts a new branch from \
                 this point; the later entries of {name} stay as they are and you can switch \
                 back to them at any time.",
                super::view::position_label(&ob.view.line, ob.view.pos),
                super::widgets::count(later as u64, "more entry", "more entries")
            );
            self.messages
                .open_dialog(Dialog::ConfirmBranch { request: req, why });
            return;
        }
        let PlayRequest { intent, dice, .. } = req;
        match store.play(
            ob.id,
            ob.battle.as_mut(),
            intent.actor,
            &intent.command,
            dice,
        ) {
            Ok(_) => {
                self.position_dirty = None;
                self.messages.status = if new_branch {
                    format!("Started a new branch: {}", intent.text)
                } else {
                    format!("Played: {}", intent.text)
                };
                self.reload_battles();
            }
            Err(e) => self.notice("The command was not played", e),
        }
    }

    // ---- the cursor -------------------------------------------------------

    fn move_cursor(&mut self, f: impl FnOnce(&mut dyn Battle)) {
        let Some(ob) = &mut self.open else { return };
        let before = (ob.battle.cursor(), ob.battle.current_branch());
        f(ob.battle.as_mut());
        if (ob.battle.cursor(), ob.battle.current_branch()) != before {
            self.position_dirty = Some(self.ctx.input(|i| i.time));
            // "Played: ..." is about the position it was said at.
            self.messages.status.clear();
        }
    }

    /// Write the cursor and branch if they moved.
    fn flush_position(&mut self) {
        if self.position_dirty.take().is_none() {
            return;
        }
        let (Some(ob), Some(store)) = (&self.open, &mut self.campaign) else {
            return;
        };
        if store.is_read_only() {
            return;
        }
        if let Err(e) = store.save_position(ob.id, ob.battle.as_ref()) {
            self.messages
                .push_notice(Notice::new("The position could not be saved", e));
        }
    }

    // ---- files ------------------------------------------------------------

    fn ask_file(&mut self, request: FileRequest) {
        let title = self
            .open
            .as_ref()
            .map(|o| o.summary.title.clone())
            .unwrap_or_default();
        let safe: String = title
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == ' ' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let suggested = match request {
            FileRequest::NewCampaign => format!("New campaign.{}", super::files::CAMPAIGN_EXT),
            FileRequest::ExportBattle => format!("{safe}.{BATTLE_EXT}"),
            FileRequest::ExportPicture => format!("{safe}.svg"),
            FileRequest::ExportReport(f) => format!("{safe}.{}", f.extension()),
            FileRequest::OpenCampaign
            | FileRequest::ImportBattle
            | FileRequest::MergeCopy
            | FileRequest::PositionFile => String::new(),
        };
        match self.files.pick(&request, &suggested) {
            Answer::Chosen(path) => self.file_chosen(request, path),
            Answer::Cancelled => {}
            Answer::Unavailable(why) => {
                // Never taken for a cancel: say why, and ask in the window.
                self.messages.status = format!("Choose the file in Xenolog's own window: {why}");
                let folder = self.dialog_folder();
                self.messages
                    .ask_in_app(InAppDialog::new(request, &suggested, &folder));
            }
        }
    }

    /// Where Xenolog's own file dialog starts: beside the open campaign, else
    /// the home folder.
    fn dialog_folder(&self) -> PathBuf {
        self.campaign
            .as_ref()
            .and_then(|c| c.path())
            .and_then(Path::parent)
            .map(Path::to_owned)
            .or_else(|| directories::UserDirs::new().map(|d| d.home_dir().to_owned()))
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default()
    }

    fn file_chosen(&mut self, request: FileRequest, path: PathBuf) {
        self.apply(match request {
            FileRequest::NewCampaign => AppCommand::NewCampaign(path),
            FileRequest::OpenCampaign => AppCommand::OpenCampaign(path),
            FileRequest::ImportBattle => AppCommand::ImportBattle(path),
            FileRequest::MergeCopy => AppCommand::MergeCopy(path),
            FileRequest::ExportBattle => AppCommand::ExportBattle(path),
            FileRequest::ExportPicture => AppCommand::ExportPicture(path),
            FileRequest::PositionFile => AppCommand::NewBattleFromFile(path),
            FileRequest::ExportReport(f) => AppCommand::ExportReport(f, path),
        });
    }

    /// A hex picked with the line-of-sight tool: the first end, the second
    /// (then the line is measured), or a new first end.
    fn los_pick(&mut self, id: String) {
        let (Some(los), Some(ob)) = (&mut self.look.los, &self.open) else {
            return;
        };
        if los.from.is_none() || los.to.is_some() {
            *los = LosState {
                from: Some(id),
                ..LosState::default()
            };
            return;
        }
        let from = los.from.clone().unwrap_or_default();
        match ob.board.line_of_sight(ob.battle.as_ref(), &from, &id) {
            Some((crossed, words)) => {
                los.crossed = crossed;
                los.words = words;
            }
            None => {
                los.words = vec!["This game has no lines of sight to measure.".into()];
            }
        }
        los.to = Some(id);
    }

    /// The legend and player aid of the open battle's game.
    fn player_aid_ui(&mut self, ctx: &egui::Context) {
        if !self.look.show_aid {
            return;
        }
        let mut open = true;
        egui::Window::new("Legend and player aid")
            .open(&mut open)
            .default_size([440.0, 560.0])
            .vscroll(true)
            .show(ctx, |ui| match &self.open {
                Some(ob) => ob.board.player_aid_ui(ui, ob.battle.as_ref()),
                None => {
                    ui.weak("Open a battle to see its game's legend and player aid.");
                }
            });
        self.look.show_aid = open;
    }

    fn export_picture(&mut self, path: &Path) {
        let Some(ob) = &mut self.open else { return };
        ob.view.refresh(ob.battle.as_ref());
        // Through a synced temporary file and a rename: a failed export never
        // leaves half a picture over an old one.
        match xenolog_saves::write_atomically(path, ob.view.scene.to_svg().as_bytes()) {
            Ok(()) => self.messages.status = format!("Board picture saved to {}", path.display()),
            Err(e) => self.notice("The board picture was not saved", e.to_string()),
        }
    }

    // ---- applying commands ------------------------------------------------

    /// Apply one command.
    pub fn apply(&mut self, command: AppCommand) {
        // A battle played, taken back or switched, or another campaign
        // opened: the Campaign view recomputes when next drawn.
        self.campaign_view.invalidate();
        match command {
            AppCommand::ShowCampaign(show) => self.campaign_view.shown = show,
            AppCommand::ExportRosterSheets => {
                self.campaign_view.shown = true;
                self.campaign_action(super::campaign_view::CampaignAction::ExportSheets);
            }
            AppCommand::Give(req) => self.give(req),
            AppCommand::Choose(options) => self.messages.open_dialog(Dialog::Choose(options)),
            AppCommand::Seek(at) => self.move_cursor(|b| b.seek(at)),
            AppCommand::SeekLine(pos) => {
                let Some(ob) = &self.open else { return };
                if pos >= ob.view.line.positions() {
                    return;
                }
                let at = ob.view.line.entry_at(pos);
                self.move_cursor(|b| b.seek(at));
            }
            AppCommand::Undo => {
                self.timeline.playing = false;
                self.move_cursor(|b| {
                    b.undo(1);
                });
            }
            AppCommand::Redo => self.move_cursor(|b| {
                b.redo(1);
            }),
            AppCommand::SwitchBranch(id) => {
                let mut err = None;
                self.move_cursor(|b| err = b.switch_branch(id).err());
                if let Some(e) = err {
                    self.notice("The branch could not be switched", e);
                }
            }
            AppCommand::RenameBranch(id, name) => {
                let Some(ob) = &mut self.open else { return };
                match ob.battle.rename_branch(id, &name) {
                    Ok(()) => {
                        self.position_dirty = Some(0.0);
                        self.flush_position();
                        self.messages.status = format!("Branch renamed to {name}");
                    }
                    Err(e) => self.notice("The branch was not renamed", e),
                }
            }
            AppCommand::Select(s) => {
                // A unit chosen from a list (or on the board) is brought into
                // view when it is off the screen.
                if let (Some(id), Some(ob)) = (&s, &self.open) {
                    super::board::bring_into_view(&ob.view.scene, id, &mut self.look.camera);
                }
                self.look.selected = s;
            }
            AppCommand::SetPlaying(p) => {
                self.timeline.playing = p;
                self.timeline.next_step_at = 0.0;
            }
            AppCommand::AskFile(request) => self.ask_file(request),
            AppCommand::NewCampaign(path) => {
                let name = path.file_stem().map_or_else(
                    || "Campaign".to_owned(),
                    |s| s.to_string_lossy().into_owned(),
                );
                match store::create_store(&path, &name) {
                    Ok(c) => self.set_campaign(c),
                    Err(e) => self.notice("The campaign could not be created", e),
                }
            }
            AppCommand::OpenCampaign(path) => self.open_campaign(&path, false),
            AppCommand::OpenCampaignReadOnly(path) => self.open_campaign(&path, true),
            AppCommand::Dropped(path) => {
                if path.extension().is_some_and(|e| e == BATTLE_EXT) {
                    self.apply(AppCommand::ImportBattle(path));
                } else {
                    self.open_campaign(&path, false);
                }
            }
            AppCommand::OpenBattle(id) => self.open_battle(id),
            AppCommand::Refresh => self.refresh(),
            AppCommand::NewBattle(spec) => self.new_battle(spec),
            AppCommand::NewBattleFromFile(path) => match PositionFile::read(&path) {
                Ok(p) => {
                    self.messages
                        .open_dialog(Dialog::NewBattle(NewBattleForm::from_position(
                            self.prefs.show_test_games,
                            p,
                        )));
                }
                Err(e) => self.notice("The position file was not read", e),
            },
            AppCommand::ImportBattle(path) => {
                let Some(c) = &mut self.campaign else { return };
                match super::trust::import(&mut **c, &path) {
                    Ok((id, said)) => {
                        self.reload_battles();
                        self.open_battle(id);
                        self.messages.status = format!("Imported {}", path.display());
                        super::trust::tell_import(said, &mut self.messages);
                    }
                    Err(e) => self.notice("The battle was not imported", e),
                }
            }
            AppCommand::MergeCopy(path) => self.merge_copy(&path, false),
            AppCommand::MergeSameCampaign(path) => self.merge_copy(&path, true),
            AppCommand::ExportBattle(path) => {
                let (Some(c), Some(ob)) = (&self.campaign, &self.open) else {
                    return;
                };
                match c.export_battle(ob.id, &path) {
                    Ok(()) => {
                        self.messages.status = format!("Battle exported to {}", path.display())
                    }
                    Err(e) => self.notice("The battle was not exported", e),
                }
            }
            AppCommand::ExportPicture(path) => self.export_picture(&path),
            AppCommand::CheckBattle => self.check_battle(),
            AppCommand::ShowNewBattle => {
                self.messages
                    .open_dialog(Dialog::NewBattle(NewBattleForm::remembered(
                        self.prefs.show_test_games,
                        self.prefs.new_battle.as_ref(),
                    )));
            }
            AppCommand::RememberNewBattle(choices) => self.prefs.new_battle = Some(choices),
            AppCommand::ShowShortcuts => self.messages.open_dialog(Dialog::Shortcuts),
            AppCommand::ShowPlayerAid => self.look.show_aid = true,
            AppCommand::ShowConnectClub => {
                self.club.shown = true;
                self.club.saved = self
                    .club_dir
                    .as_deref()
                    .map(super::club::saved_clubs)
                    .unwrap_or_default();
            }
            AppCommand::ShowLuck => self.reports.show_luck = true,
            AppCommand::ShowReportExport => self.reports.show_export = true,
            AppCommand::ExportReport(format, path) => {
                match super::reports::export(
                    self.campaign.as_deref(),
                    self.open.as_ref(),
                    &self.timeline.notes,
                    format,
                    &path,
                ) {
                    Ok(done) => self.messages.status = done,
                    Err(e) => self.notice("The battle report was not saved", e),
                }
            }
            AppCommand::LineOfSight(on) => {
                self.look.los = on.then(LosState::default);
                if on {
                    self.messages.status = "Line of sight: click two hexes on the board".into();
                }
            }
            AppCommand::LosPick(id) => self.los_pick(id),
            AppCommand::ShowAbout => self.messages.open_dialog(Dialog::About),
            AppCommand::ShowGettingStarted => self.messages.open_dialog(Dialog::GettingStarted),
            AppCommand::ShowBranches(show) => self.look.show_branches = show,
            AppCommand::Explain(text) => self.messages.status = text,
            AppCommand::DismissNotice => {
                self.messages.dismiss_notice();
            }
            AppCommand::LookAs(seat) => {
                if let Some(ob) = &mut self.open {
                    ob.looking = Some(seat);
                    self.look.selected = None;
                }
            }
            AppCommand::RevealHidden(on) => self.look.reveal_hidden = on,
            AppCommand::Quit => self.ctx.send_viewport_cmd(egui::ViewportCommand::Close),
        }
    }

    // ---- each frame -------------------------------------------------------

    fn keyboard(&mut self, ui: &Ui) {
        if self.messages.busy() || ui.ctx().text_edit_focused() {
            return;
        }
        if let Some(p) = &mut self.look.panels {
            ui.input_mut(|i| {
                // Shift+Ctrl+B first: Ctrl+B would match it too.
                if i.consume_shortcut(&shortcuts::TOGGLE_SIDE) {
                    p.side = !p.side;
                }
                if i.consume_shortcut(&shortcuts::TOGGLE_BROWSER) {
                    p.browser = !p.browser;
                }
            });
        }
        let Some(ob) = &self.open else {
            return;
        };
        let pos = ob.view.pos;
        let last = ob.view.line.positions() - 1;
        let prev_turn = ob
            .view
            .line
            .ticks
            .iter()
            .rev()
            .find(|t| t.turn_start && t.pos < pos)
            .map(|t| t.pos);
        let next_turn = ob
            .view
            .line
            .ticks
            .iter()
            .find(|t| t.turn_start && t.pos > pos)
            .map(|t| t.pos);
        let mut out = Vec::new();
        ui.input_mut(|i| {
            if i.consume_shortcut(&shortcuts::REDO) || i.consume_shortcut(&shortcuts::REDO_Y) {
                out.push(AppCommand::Redo);
            }
            if i.consume_shortcut(&shortcuts::UNDO) {
                out.push(AppCommand::Undo);
            }
            if i.consume_shortcut(&shortcuts::OPEN) {
                out.push(AppCommand::AskFile(FileRequest::OpenCampaign));
            }
            if i.consume_shortcut(&shortcuts::NEW_BATTLE) {
                out.push(AppCommand::ShowNewBattle);
            }
            let plain = |i: &mut egui::InputState, k: Key| i.consume_key(egui::Modifiers::NONE, k);
            if plain(i, Key::ArrowLeft) {
                out.push(AppCommand::SeekLine(pos.saturating_sub(1)));
            }
            if plain(i, Key::ArrowRight) {
                out.push(AppCommand::SeekLine((pos + 1).min(last)));
            }
            if plain(i, Key::Home) {
                out.push(AppCommand::SeekLine(0));
            }
            if plain(i, Key::End) {
                out.push(AppCommand::SeekLine(last));
            }
            if plain(i, Key::PageUp) {
                out.push(AppCommand::SeekLine(prev_turn.unwrap_or(0)));
            }
            if plain(i, Key::PageDown) {
                out.push(AppCommand::SeekLine(next_turn.unwrap_or(last)));
            }
            if plain(i, Key::Space) {
                out.push(AppCommand::SetPlaying(!self.timeline.playing));
            }
            if plain(i, Key::Escape) {
                out.push(AppCommand::Select(None));
                out.push(AppCommand::LineOfSight(false));
            }
            if i.consume_shortcut(&shortcuts::ZOOM_IN) || i.consume_shortcut(&shortcuts::ZOOM_IN_EQ)
            {
                self.look.camera.zoom =
                    (self.look.camera.zoom * 1.25).min(super::board::ZOOM_RANGE.1);
            }
            if i.consume_shortcut(&shortcuts::ZOOM_OUT) {
                self.look.camera.zoom =
                    (self.look.camera.zoom * 0.8).max(super::board::ZOOM_RANGE.0);
            }
            if i.consume_shortcut(&shortcuts::ZOOM_FIT) {
                self.look.camera.reset();
            }
            if i.consume_shortcut(&shortcuts::NEXT_UNIT)
                && let Some(next) = next_acting(&ob.view.legal, self.look.selected.as_deref())
            {
                out.push(AppCommand::Select(Some(next)));
            }
            if i.consume_shortcut(&shortcuts::CENTRE)
                && let Some(sel) = &self.look.selected
            {
                super::board::centre_on(&ob.view.scene, sel, &mut self.look.camera);
            }
            if i.consume_shortcut(&shortcuts::END_STEP) {
                out.push(match ending_command(&ob.view.legal) {
                    Ok(c) => AppCommand::Give(PlayRequest::new(c.into())),
                    Err(why) => AppCommand::Explain(why),
                });
            }
        });
        self.commands.extend(out);
    }

    fn playback(&mut self, ui: &Ui) {
        if !self.timeline.playing {
            return;
        }
        let Some(ob) = &self.open else {
            self.timeline.playing = false;
            return;
        };
        let now = ui.input(|i| i.time);
        let pos = ob.view.pos;
        if pos + 1 >= ob.view.line.positions() {
            self.timeline.playing = false;
            return;
        }
        let step = 1.0 / f64::from(self.prefs.playback_speed.max(0.1));
        if now >= self.timeline.next_step_at {
            self.commands.push(AppCommand::SeekLine(pos + 1));
            self.timeline.next_step_at = now + step;
        }
        ui.ctx().request_repaint_after(Duration::from_secs_f64(
            (self.timeline.next_step_at - now).max(0.0),
        ));
    }

    fn dropped_files(&mut self, ui: &Ui) {
        let dropped: Vec<PathBuf> = ui.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_owned())
                .collect()
        });
        for path in dropped {
            self.commands.push(AppCommand::Dropped(path));
        }
    }

    /// Draw one frame and apply what it asked for.
    pub fn frame_ui(&mut self, ui: &mut Ui) {
        if self.theme_applied != Some(self.prefs.theme) {
            ui.ctx().set_theme(self.prefs.theme.to_egui());
            self.theme_applied = Some(self.prefs.theme);
        }
        self.club_connected();
        self.poll_club();
        match self.trust.poll(&self.ctx) {
            Some(super::trust::TrustNews::Notice(title, words)) => self.notice(&title, words),
            Some(super::trust::TrustNews::Status(s)) => self.messages.status = s,
            None => {}
        }
        self.dropped_files(ui);
        self.keyboard(ui);
        self.playback(ui);
        self.look.curtain = None;
        if let Some(ob) = &mut self.open {
            let (viewer, pass_to) = ob.viewer(self.look.reveal_hidden);
            ob.view.viewer = viewer;
            self.look.curtain = pass_to.map(|a| (a, ob.battle.actor_name(a)));
        }
        if let Some(ob) = &mut self.open {
            ob.view.refresh(ob.battle.as_ref());
            // When every legal command is about one unit (a tie the Kay'otz
            // player breaks, a unit halfway through its action), select it
            // so its hexes and targets light up; only when the position
            // changed, so the player can still look at other units.
            if ob.rebuilt_since_looked()
                && let Some(s) = lone_subject(&ob.view.legal)
            {
                self.look.selected = Some(s.to_owned());
            }
            // A selection that is neither drawn nor acting is gone.
            if let Some(sel) = &self.look.selected
                && ob.view.scene.find(sel).is_none()
                && !ob
                    .view
                    .legal
                    .iter()
                    .any(|c| c.subject.as_deref() == Some(sel.as_str()))
            {
                self.look.selected = None;
            }
        }
        let mut commands = std::mem::take(&mut self.commands);
        self.panels_ui(ui, &mut commands);
        super::reports::windows_ui(
            ui.ctx(),
            &mut self.reports,
            self.campaign.as_deref_mut(),
            self.open.as_mut(),
            &mut self.timeline,
            &mut self.messages.status,
            &mut commands,
        );
        if let Some((request, path)) =
            self.messages
                .ui(ui.ctx(), self.prefs.show_test_games, &mut commands)
        {
            self.file_chosen(request, path);
        }
        self.player_aid_ui(ui.ctx());
        let mut club_actions = Vec::new();
        super::club_ui::club_window(
            ui.ctx(),
            &mut self.club,
            self.campaign.as_ref().and_then(|c| c.club()),
            &mut club_actions,
        );
        if let Some(c) = self.campaign.as_ref().and_then(|c| c.club()) {
            let open = self.open.as_ref().map(|ob| (ob.id, ob.battle.as_ref()));
            super::club_ui::takeback_window(ui.ctx(), c, open, &mut club_actions);
        }
        if !club_actions.is_empty() {
            self.settle_frames = 2;
        }
        for a in club_actions {
            self.club_action(a);
        }
        // Show the result of a click or of what was just applied at once,
        // not when the pointer next moves: a window opened by a click (Help
        // > Legend) lays itself out in its first frame and shows in the
        // next, so two more frames are drawn.
        let input = ui.input(|i| {
            // Not on a press: a button held down is not a click yet (and
            // frames drawn while it is held must not make it a long press).
            i.pointer.any_released()
                || i.events
                    .iter()
                    .any(|e| matches!(e, egui::Event::Key { pressed: true, .. }))
        });
        if input || !commands.is_empty() {
            self.settle_frames = 2;
        }
        if self.settle_frames > 0 {
            self.settle_frames -= 1;
            ui.ctx().request_repaint();
        }
        for c in commands {
            self.apply(c);
        }
        // After the frame is drawn: the "Merging…" notice is seen at least
        // once, however fast the worker.
        self.poll_merge();
        self.prefs.zoom = self.look.camera.zoom;
        let now = ui.input(|i| i.time);
        let pointer_down = ui.input(|i| i.pointer.any_down());
        if let Some(t) = self.position_dirty
            && now - t >= SAVE_POSITION_AFTER
            && !pointer_down
        {
            self.flush_position();
        }
        if self.position_dirty.is_some() {
            ui.ctx()
                .request_repaint_after(Duration::from_secs_f64(SAVE_POSITION_AFTER));
        }
        self.screenshot_step(ui.ctx());
    }

    fn panels_ui(&mut self, ui: &mut Ui, commands: &mut Vec<AppCommand>) {
        // Panels start at sizes in proportion to the window, so a small
        // window still leaves the board a fair share (the player can resize
        // them; egui remembers).
        let whole = ui.max_rect();
        let left_size = (whole.width() * 0.2).clamp(200.0, 280.0);
        let side_size = (whole.width() * 0.22).clamp(240.0, 300.0);
        // The most a panel may take, in proportion to the window, so one
        // widened by its content (a long branch name being typed) gives the
        // room back when the window narrows.
        let left_max = (whole.width() * 0.28).clamp(200.0, 420.0);
        let side_max = (whole.width() * 0.3).clamp(240.0, 460.0);
        let table_size = if self.prefs.show_table {
            // Room for the timeline's controls and strip, and five rows of
            // entries below their header (session 21: at 1024x700 the
            // table showed one or two).
            (whole.height() * 0.22).clamp(230.0, 260.0)
        } else {
            90.0
        };
        // After the window is resized the panels take their share of the
        // new width again (one made narrow by a small window does not stay
        // narrow in a large one) and the board centres again.
        let resized = self
            .window_width
            .is_some_and(|w| (w - whole.width()).abs() > 0.5);
        self.window_width = Some(whole.width());
        if resized {
            self.look.camera.pan = egui::Vec2::ZERO;
            self.look.camera.recentre = true;
        }
        // A narrow window starts with the board and the side panel only.
        let mut shown = *self.look.panels.get_or_insert(PanelsShown {
            browser: whole.width() >= 1200.0,
            side: true,
        });
        let menu = MenuContext {
            battle_open: self.open.is_some(),
            can_undo: self.open.as_ref().is_some_and(|o| o.view.pos > 0),
            can_redo: self
                .open
                .as_ref()
                .is_some_and(|o| o.view.pos + 1 < o.view.line.positions()),
            show_branches: self.look.show_branches,
            reveal_hidden: self.look.reveal_hidden,
            show_campaign: self.campaign_view.shown,
            campaign_file: self
                .campaign
                .as_ref()
                .is_some_and(|c| c.path().is_some() && !c.is_read_only() && !c.remote()),
        };
        Panel::top("menu").show(ui, |ui| {
            menu_bar_ui(
                ui,
                &menu,
                &mut self.prefs,
                &mut self.look.camera,
                &mut shown,
                commands,
            );
        });
        self.look.panels = Some(shown);
        Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                let read_only = self.campaign.as_ref().is_some_and(|c| c.is_read_only());
                if read_only {
                    ui.colored_label(ui.visuals().warn_fg_color, "Read-only")
                        .on_hover_text("Another Xenolog has this campaign open for writing");
                    if ui
                        .button("Refresh")
                        .on_hover_text(
                            "Read the campaign again: the writer's new battles and entries",
                        )
                        .clicked()
                    {
                        commands.push(AppCommand::Refresh);
                    }
                }
                ui.label(if self.messages.status.is_empty() {
                    "Ready"
                } else {
                    &self.messages.status
                });
            });
        });
        if let Some((seat, name)) = self.look.curtain.clone() {
            // Hot-seat: nothing of the battle is drawn until the seat whose
            // turn it is takes the screen (a curtain against seeing by
            // accident, not a defence against a player who opens the file).
            egui::CentralPanel::default().show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(ui.available_height() * 0.3);
                    ui.heading(format!("Pass the screen to {name}"));
                    ui.label(
                        "Their hand and what only they may see are hidden until they take it.",
                    );
                    ui.add_space(12.0);
                    if ui.button(format!("I am {name}: show my view")).clicked() {
                        commands.push(AppCommand::LookAs(seat));
                    }
                });
            });
            return;
        }
        if let Some(ob) = &mut self.open {
            Panel::bottom("timeline")
                .resizable(true)
                .default_size(table_size)
                .min_size(90.0)
                .show(ui, |ui| {
                    ui.add_space(4.0);
                    // Wrapped: in a narrow window the bookmark buttons go to
                    // a second row rather than off the edge.
                    ui.horizontal_wrapped(|ui| {
                        controls_ui(
                            ui,
                            &ob.view,
                            &mut self.timeline,
                            &mut self.prefs.playback_speed,
                            commands,
                        );
                        ui.separator();
                        super::reports::bookmark_buttons(
                            ui,
                            &ob.view,
                            &self.timeline,
                            &mut self.reports,
                            commands,
                        );
                    });
                    let strip = strip_ui(ui, &ob.view, commands);
                    super::reports::bookmark_flags(ui, strip, &ob.view, &self.timeline, commands);
                    if self.prefs.show_table {
                        ui.add_space(4.0);
                        entries_table_ui(
                            ui,
                            ob.battle.as_ref(),
                            &mut ob.view,
                            &mut self.timeline,
                            ob.board.as_ref(),
                            &mut self.side,
                            commands,
                        );
                    }
                });
        }
        let mut left = Panel::left("browser")
            .resizable(true)
            .default_size(left_size)
            .size_range(200.0..=left_max);
        if resized {
            left = left.exact_size(left_size);
        }
        left.show_collapsible(ui, &mut shown.browser, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("browser-scroll")
                .show(ui, |ui| {
                    let name = self.campaign.as_ref().map(|c| c.name());
                    let campaign = self
                        .campaign
                        .as_ref()
                        .map(|c| (name.as_deref().unwrap_or(""), c.path()));
                    browser_ui(
                        ui,
                        campaign,
                        &self.battles,
                        self.open.as_ref().map(|o| o.id),
                        self.prefs.show_test_games,
                        self.campaign.as_ref().is_some_and(|c| c.remote()),
                        commands,
                    );
                    ui.separator();
                    if ui.button("Rosters and experience…").clicked() {
                        commands.push(AppCommand::ShowCampaign(true));
                    }
                    if self.look.show_branches
                        && let Some(ob) = &self.open
                    {
                        ui.separator();
                        ui.heading("Branches");
                        branches_ui(ui, ob.battle.as_ref(), &mut self.branches, commands);
                    }
                });
        });
        if let Some(ob) = &mut self.open {
            let mut right = Panel::right("side")
                .resizable(true)
                .default_size(side_size)
                .size_range(220.0..=side_max);
            if resized {
                right = right.exact_size(side_size);
            }
            right.show_collapsible(ui, &mut shown.side, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("side-scroll")
                    .show(ui, |ui| {
                        let prompt = ob.board.prompt(ob.battle.as_ref());
                        status_ui(ui, &ob.view, ob.summary.dice_mode, prompt.as_ref());
                        let choosing = prompt.is_some();
                        if let Some(los) = &self.look.los {
                            ui.separator();
                            los_ui(ui, los, commands);
                        }
                        ui.separator();
                        selection_ui(
                            ui,
                            ob.battle.as_ref(),
                            &ob.view,
                            ob.board.as_ref(),
                            self.look.selected.as_deref(),
                            choosing,
                            commands,
                        );
                        ob.board.panel_ui_as(
                            ui,
                            ob.battle.as_ref(),
                            &ob.view,
                            self.look.selected.as_deref(),
                            commands,
                        );
                        ui.separator();
                        ui.strong("At the cursor");
                        entry_steps_ui(
                            ui,
                            ob.battle.as_ref(),
                            &mut ob.view,
                            ob.board.as_ref(),
                            &mut self.side,
                        );
                        ui.separator();
                        ui.strong("Dice tray");
                        dice_tray_ui(ui, ob.battle.as_ref(), &mut ob.view);
                    });
            });
        }
        // A panel dragged shut or open by its edge stays so.
        self.look.panels = Some(shown);
        if !shown.side {
            // No step is shown beside the board: it shows the entry done.
            self.side.step_scene = None;
        }
        if self.campaign_view.shown {
            let mut actions = Vec::new();
            let file = self.campaign.as_ref().and_then(|c| c.file());
            egui::CentralPanel::default().show(ui, |ui| {
                super::campaign_view::campaign_view_ui(
                    ui,
                    &mut self.campaign_view,
                    file,
                    &mut actions,
                    commands,
                );
            });
            for a in actions {
                self.campaign_action(a);
            }
            return;
        }
        egui::CentralPanel::no_frame().show(ui, |ui| match &self.open {
            Some(ob) => {
                let selected = self.look.selected.as_deref();
                let trails = ob
                    .view
                    .line
                    .entry_at(ob.view.pos)
                    .map(|id| ob.board.trails(ob.battle.as_ref(), id))
                    .unwrap_or_default();
                let why_not = |target: &str| {
                    selected.and_then(|s| ob.board.why_not(ob.battle.as_ref(), s, target))
                };
                let marks = ob.board.marks(ob.battle.as_ref(), selected);
                let click = |under: &[&str], at: [f32; 2]| {
                    ob.board
                        .click(
                            ob.battle.as_ref(),
                            super::boards::BoardClick {
                                selected,
                                under,
                                at,
                            },
                        )
                        .or_else(|| {
                            out_of_range_click(ob, &marks, selected?, under, at)
                        })
                };
                let drags = selected.is_some_and(|s| ob.board.drags(ob.battle.as_ref(), s));
                // Part-way through the entry at the cursor when an earlier
                // step than its last is shown beside it.
                let scene = self
                    .side
                    .scene_for(ob.view.line.entry_at(ob.view.pos))
                    .unwrap_or(&ob.view.scene);
                let input = BoardInput {
                    scene,
                    legal: &ob.view.legal,
                    selected,
                    focus: &self.side.focus,
                    why_not: &why_not,
                    marked_apart: &|c| ob.board.marked_apart(c),
                    target_label: &|cmds| ob.board.target_label(ob.battle.as_ref(), cmds),
                    trails: &trails,
                    los: self.look.los.as_ref(),
                    marks: &marks,
                    click: &click,
                    drags,
                };
                board_ui(ui, &input, &mut self.look.camera, commands);
                if self.first_frame.is_none() {
                    self.first_frame = Some(self.started.elapsed());
                }
            }
            None => {
                ui.centered_and_justified(|ui| {
                    ui.label("No battle open. Start one with File > New battle, or pick one on the left.");
                });
            }
        });
    }

    fn screenshot_step(&mut self, ctx: &egui::Context) {
        let Some(job) = &mut self.screenshot else {
            return;
        };
        if self.first_frame.is_some() && !job.timed {
            job.timed = true;
            let started = self.started;
            ctx.request_screenshot(move |_| {
                eprintln!(
                    "xenolog: first frame with the board on screen {} ms after start",
                    started.elapsed().as_millis()
                );
            });
        }
        // Wait for the board and a couple more frames so fonts and panels settle.
        let ready = self.first_frame.is_some() && ctx.cumulative_frame_nr() >= 3;
        if ready && !job.requested {
            job.requested = true;
            let path = job.path.clone();
            let done = job.done.clone();
            let ctx2 = ctx.clone();
            let started = self.started;
            ctx.request_screenshot(move |image| {
                eprintln!(
                    "xenolog: frame {} captured {} ms after start",
                    ctx2.cumulative_frame_nr(),
                    started.elapsed().as_millis()
                );
                let result = save_png(&path, &image);
                if let Ok(mut d) = done.lock() {
                    *d = Some(result);
                }
                ctx2.request_repaint();
            });
        }
        let finished = job.done.lock().ok().and_then(|mut d| d.take());
        match finished {
            Some(Ok(())) => {
                if let Some(t) = self.first_frame {
                    eprintln!(
                        "xenolog: first frame drawn {} ms after start",
                        t.as_millis()
                    );
                }
                eprintln!("xenolog: screenshot saved to {}", job.path.display());
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            Some(Err(e)) => {
                eprintln!("xenolog: {e}");
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            None => ctx.request_repaint(),
        }
    }
}

/// A click inside the selection's move range that its game did not take as
/// a command (not a place a move may end, or the group may not move now):
/// said in words, and the selection stays (it was dropped silently).
/// `None` when the click is outside every range or on a lit target (the
/// generic board plays that).
fn out_of_range_click(
    ob: &OpenBattle,
    marks: &[super::boards::Mark],
    selected: &str,
    under: &[&str],
    at: [f32; 2],
) -> Option<AppCommand> {
    let in_range = marks.iter().any(|m| match m {
        super::boards::Mark::Area { outline, .. } => super::board::in_polygon(outline, at),
        super::boards::Mark::Line { .. } => false,
    });
    let on_target = ob.view.legal.iter().any(|c| {
        c.subject.as_deref() == Some(selected)
            && c.target.as_deref().is_some_and(|t| under.contains(&t))
    });
    // A counter under the pointer is the player's to select.
    let on_counter = under.iter().any(|id| {
        *id != selected
            && ob.view.scene.find(id).is_some_and(|i| {
                matches!(
                    i.kind,
                    xenolog_engine::scene::ItemKind::Counter
                        | xenolog_engine::scene::ItemKind::Marker
                )
            })
    });
    if !in_range || on_target || on_counter {
        return None;
    }
    let name = ob
        .view
        .scene
        .find(selected)
        .map_or_else(|| selected.to_owned(), super::board::item_name);
    let why = ob
        .board
        .why_idle(ob.battle.as_ref(), selected)
        .unwrap_or_else(|| "no move of it may end at that point".to_owned());
    Some(AppCommand::Explain(format!(
        "Not possible: {name} cannot end a move there: {why}"
    )))
}

/// What the line-of-sight tool measured, or what to do next.
fn los_ui(ui: &mut Ui, los: &LosState, commands: &mut Vec<AppCommand>) {
    ui.horizontal(|ui| {
        ui.strong("Line of sight");
        if ui.button("Close").clicked() {
            commands.push(AppCommand::LineOfSight(false));
        }
    });
    match (&los.from, &los.to) {
        (None, _) => {
            ui.weak("Click the hex the line starts in.");
        }
        (Some(_), None) => {
            ui.weak("Click the hex the line ends in.");
        }
        (Some(_), Some(_)) => {
            for w in &los.words {
                ui.label(w);
            }
            ui.weak("Click another hex to start a new line.");
        }
    }
}

/// The unit that can act after `selected`, in the order the game lists
/// their commands (round to the first).
pub fn next_acting(
    legal: &[xenolog_engine::LegalCommand],
    selected: Option<&str>,
) -> Option<String> {
    let mut subjects: Vec<&str> = Vec::new();
    for s in legal.iter().filter_map(|c| c.subject.as_deref()) {
        if !subjects.contains(&s) {
            subjects.push(s);
        }
    }
    let at = selected.and_then(|s| subjects.iter().position(|x| *x == s));
    let next = at.map_or(0, |i| (i + 1) % subjects.len().max(1));
    subjects.get(next).map(|s| (*s).to_owned())
}

/// The one command that ends the phase, the card or the turn (a command of
/// no unit whose words begin with "end"), or why the E key does nothing.
pub fn ending_command(
    legal: &[xenolog_engine::LegalCommand],
) -> Result<&xenolog_engine::LegalCommand, String> {
    let ends: Vec<&xenolog_engine::LegalCommand> = legal
        .iter()
        .filter(|c| c.subject.is_none())
        .filter(|c| c.text.to_lowercase().starts_with("end"))
        .collect();
    match ends.as_slice() {
        [one] => Ok(one),
        [] => Err("Nothing to end here: no command ends the phase, card or turn now".into()),
        _ => Err("More than one command ends something here: choose it in the side panel".into()),
    }
}

/// The subject of every legal command, when they all have the same one.
pub fn lone_subject(legal: &[xenolog_engine::LegalCommand]) -> Option<&str> {
    let first = legal.first()?.subject.as_deref()?;
    legal
        .iter()
        .all(|c| c.subject.as_deref() == Some(first))
        .then_some(first)
}

/// egui's default proportional font has no arrows, triangles or circles; the
/// bundled monospace font has, so it backs the proportional one up.
pub fn install_fonts(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    let mono = fonts
        .families
        .get(&egui::FontFamily::Monospace)
        .and_then(|f| f.first())
        .cloned();
    if let (Some(mono), Some(prop)) = (
        mono,
        fonts.families.get_mut(&egui::FontFamily::Proportional),
    ) && !prop.contains(&mono)
    {
        // Before the emoji fonts, so arrows and shapes keep Hack's look.
        let at = prop
            .iter()
            .position(|f| f == "NotoEmoji-Regular")
            .unwrap_or(prop.len());
        prop.insert(at, mono);
    }
    ctx.set_fonts(fonts);
}

fn save_png(path: &Path, image: &egui::ColorImage) -> Result<(), String> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    let img = image::RgbaImage::from_raw(w as u32, h as u32, bytes)
        .ok_or("the screenshot has the wrong size")?;
    img.save(path).map_err(|e| {
        format!(
            "the screenshot could not be saved to {}: {e}",
            path.display()
        )
    })
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.frame_ui(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.flush_position();
        eframe::set_value(storage, Prefs::KEY, &self.prefs);
    }

    fn on_exit(&mut self) {
        self.flush_position();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use xenolog_engine::{Actor, LegalCommand};

    use super::lone_subject;

    fn cmd(subject: Option<&str>) -> LegalCommand {
        LegalCommand {
            actor: Actor(1),
            command: json!("x"),
            text: "x".into(),
            subject: subject.map(Into::into),
            target: None,
        }
    }

    #[test]
    fn a_lone_subject_is_one_shared_by_every_command() {
        assert_eq!(
            lone_subject(&[cmd(Some("unit:K5")), cmd(Some("unit:K5"))]),
            Some("unit:K5")
        );
        assert_eq!(
            lone_subject(&[cmd(Some("unit:K5")), cmd(Some("unit:K6"))]),
            None
        );
        // A command about no unit (end the phase) is a choice too.
        assert_eq!(lone_subject(&[cmd(Some("unit:K5")), cmd(None)]), None);
        assert_eq!(lone_subject(&[cmd(None)]), None);
        assert_eq!(lone_subject(&[]), None);
    }
}
