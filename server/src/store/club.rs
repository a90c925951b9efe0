//! The embedded store: a data folder holding the club file
//! `club.xenolog-club` (SQLite, its own migrations in `server/migrations/`)
//! and, from step S4, one campaign file per campaign as today.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use xenolog_saves::db::{Db, DbError, DbExt};

use serde_json::Value;
use std::collections::HashMap;
use xenolog_engine::fair::{self, Bytes32, SeatNonce};
use xenolog_engine::{Actor, Battle, EntryId, games};
use xenolog_saves::{Campaign, DiceMode};

use super::writer::{
    Appends, Committer, Gone, Notify, Reopen, Settled, Unwritten, Writer, Written,
};

mod table;
pub use super::club_db::CLUB_APPLICATION_ID;
use super::club_db::ClubDb;
pub use super::club_tokens::ORGANISER_INVITATION_DAYS;
pub(crate) use super::club_tokens::now;
use super::club_tokens::{ClubTokens, blob32};
use super::{
    BattleInfo, BattleStore, CampaignId, CampaignInfo, ClubError, CreatedBattle, Grant, Invitation,
    Joined, LiveStore, MakeFrames, NewBattle, Played, Playing, Principal, Redeemed, RefreshFrames,
    RosterPick, SeatInvite, ServerBattleId, Store, TokenId, TokenInfo, TokenStore,
};
use crate::secret::{Code, Role, Token, random_bytes};

/// The club file's name inside the data folder.
pub const CLUB_FILE: &str = "club.xenolog-club";
/// The campaign files' folder inside the data folder.
pub const CAMPAIGNS: &str = "campaigns";
/// The club's schema on PostgreSQL.
pub const PG_CLUB_SCHEMA: &str = "club";

/// The club's store: a SQLite data folder (the club file and a file a
/// campaign) or a PostgreSQL database (`--database`: the schema `club` and a
/// schema a campaign). Called `SqliteStore` before session 18.
pub struct ClubStore {
    club: Club,
}

impl ClubStore {
    /// The club on PostgreSQL (`xenolog serve --database postgres://...`,
    /// issue 31): its tables in the schema `club`, each campaign a schema
    /// of its own (`campaign_N`). Several servers may serve one database.
    pub fn open_postgres(url: &str) -> Result<ClubStore, ClubError> {
        Ok(ClubStore {
            club: Club::open_postgres(url, PG_CLUB_SCHEMA)?,
        })
    }

    /// Start this process's listener on a club on PostgreSQL (`None` on
    /// the club file): every notification goes to the club's tokens
    /// (revocations) and to `on` (entries, catch-up).
    pub fn listen(
        &self,
        on: impl Fn(super::notify::Hint) + Send + Sync + 'static,
    ) -> Result<Option<super::notify::Listener>, ClubError> {
        let Some((url, schema)) = self.club.db.postgres() else {
            return Ok(None);
        };
        let tokens = Arc::downgrade(&self.club.tokens);
        let own = self.club.tag;
        // A battle's hints go to `on` from the listener's own thread (`on`
        // only queues them), one thread woken fewer a notification; the
        // tokens' (a revocation, a catch-up) on the listener's second
        // thread, where the tokens may be read again.
        let listener = super::notify::Listener::start_quick(
            url,
            &super::club_tokens::channel(schema),
            ClubTokens::heeds,
            move |hint| {
                // Its own take-back or walk (issue 31 P5): written by this
                // process, whose battle is current; not read again.
                if matches!(hint, super::notify::Hint::Moved { by, .. } if by == own) {
                    return;
                }
                if ClubTokens::heeds(&hint)
                    && let Some(t) = tokens.upgrade()
                {
                    // Off the listener's runtime: reading the tokens again
                    // may connect the club's blocking client anew, which
                    // panics on a thread that drives a runtime.
                    super::club_db::off_runtime(|| t.hint(&hint));
                }
                on(hint);
            },
        )?;
        // The tokens' memory follows this listener (revoked while nobody
        // listened: read once more, now listening), so a `hello` is
        // answered from memory while it listens, as with
        // `ClubTokens::listen`.
        self.club.tokens.follow(&listener)?;
        Ok(Some(listener))
    }

    /// Open (or create) the data folder and its club file.
    pub fn open(dir: &Path) -> Result<ClubStore, ClubError> {
        std::fs::create_dir_all(dir).map_err(|e| ClubError::File {
            path: dir.display().to_string(),
            why: format!("the data folder cannot be made: {e}"),
        })?;
        Ok(ClubStore {
            club: Club::open(&dir.join(CLUB_FILE))?,
        })
    }

    /// The club file's path.
    pub fn club_path(&self) -> &Path {
        &self.club.path
    }

    /// Group commit so far: (transactions, appends) over every open campaign.
    pub fn write_stats(&self) -> (u64, u64) {
        self.club.write_stats()
    }
}

impl Store for ClubStore {
    fn tokens(&self) -> &dyn TokenStore {
        &*self.club.tokens
    }
    fn battles(&self) -> &dyn BattleStore {
        &self.club
    }
    fn live(&self) -> &dyn LiveStore {
        &self.club
    }
    fn table(&self) -> &dyn super::table::TableStore {
        &self.club
    }
}

/// How [`Club::refresh_from`] read battles: only what is stored after the
/// head held, or whole (not in memory, or the store did not continue it).
#[derive(Default)]
struct Reads {
    after: std::sync::atomic::AtomicU64,
    whole: std::sync::atomic::AtomicU64,
    /// Extended from a notification's carried part, nothing read.
    carried: std::sync::atomic::AtomicU64,
}

/// A process's tag for its `moved` notifications: random, never 0 (0 is
/// "not said").
fn process_tag() -> u64 {
    let bytes = random_bytes::<8>().unwrap_or_else(|_| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        (t ^ u64::from(std::process::id())).to_le_bytes()
    });
    u64::from_le_bytes(bytes).max(1)
}

/// A test's hook between a battle's start and its record in the club.
#[cfg(test)]
type AfterStart = Mutex<Option<Box<dyn Fn() -> Result<(), ClubError> + Send + Sync>>>;

/// The club: tokens, grants, invitations, campaigns, in the club file or the
/// `club` schema (`ClubDb`). Called `ClubFile` before session 18.
pub struct Club {
    path: PathBuf,
    /// The data folder (campaign files under `campaigns/`).
    dir: PathBuf,
    /// The club's tables (`ClubDb`: the club file here), one statement at
    /// a time.
    db: Arc<ClubDb>,
    /// The club's tokens and invitations, on the same database (the
    /// club's `TokenStore`).
    tokens: Arc<ClubTokens>,
    /// The campaign files this server holds open, each owned by its writer
    /// thread (which holds the file's writer lock). Taken after `conn` and
    /// after a battle's slot, never before them.
    writers: Mutex<HashMap<CampaignId, Arc<Writer>>>,
    /// The started battles in memory, each behind its own lock: one
    /// battle's slow decide or write never holds another's. The lock is
    /// tokio's, so that a command waiting for its write holds it from a
    /// task as well as from a thread ([`LiveStore::play_begin`]).
    battles: Mutex<HashMap<ServerBattleId, Slot<LiveBattle>>>,
    /// Battles whose slot was emptied by a write refused `busy` (nothing
    /// of it written): how many of their entries are stored and were sent
    /// to their watchers. A notification of one of those heard late (this
    /// process's own earlier part, under load) is then known as old and
    /// does not close the watchers as a battle not in memory would
    /// (session 21: `club_pg_fault`'s seats were closed "reconnect to
    /// resume" after a busy answer).
    emptied_busy: Arc<Mutex<HashMap<ServerBattleId, usize>>>,
    /// Each campaign's file, as the club file names it (a campaign's file
    /// never changes): looked up once, not at every command under the
    /// club file's lock (BENCHMARKS.md, the club server, session 16).
    paths: Mutex<HashMap<CampaignId, PathBuf>>,
    /// Read-only connections to campaign files, kept for reuse: a battle is
    /// loaded (and a command id looked up) on one of these, not on the
    /// campaign's writer thread, so a long load never stalls appends.
    readers: Mutex<HashMap<CampaignId, Vec<Campaign>>>,
    /// One start at a time per battle: the club file's connection is not
    /// held while a battle is written to its campaign file, and this keeps
    /// two last joins (a resent one) from starting it twice.
    starting: Mutex<HashMap<ServerBattleId, Arc<Mutex<()>>>>,
    /// On PostgreSQL: the database's URL (each campaign a schema there,
    /// its "file" in the registry the schema's name). `None`: files.
    pg: Option<String>,
    /// Each battle loaded so far by (its campaign, its id in the
    /// campaign): a notification names a battle so (`C:B:SEQ`).
    index: Mutex<HashMap<(CampaignId, i64), ServerBattleId>>,
    /// On PostgreSQL: the process's one committer, which writes the
    /// appends of every campaign (`writer.rs`), started with the first
    /// campaign writer.
    committer: Mutex<Option<Arc<Committer>>>,
    /// Tests only: run after a last join's start is written to the
    /// campaign and before the club records it (a lost connection, a
    /// crash there; review4 S5).
    #[cfg(test)]
    after_start: AfterStart,
    /// Tests only: run while a battle's load reads (after it is indexed).
    #[cfg(test)]
    while_loading: Mutex<Option<Box<dyn Fn() + Send + Sync>>>,
    /// Whether a command may be decided on its socket's task
    /// ([`LiveStore::play_begin_now`]): on PostgreSQL. On the club file
    /// the blocking pool decides every command, as before session 21:
    /// there each campaign file's writer groups only its own campaign's
    /// appends, and commands decided on the task were measured slower
    /// (BENCHMARKS.md, session 21, pgswitch: 4,572-6,915 against
    /// 7,024-8,800 commands/s, the writers making more, smaller
    /// transactions a command).
    decide_on_task: bool,
    /// This process among the servers of one database: its `moved`
    /// notifications carry it, and it skips its own (issue 31 P5).
    tag: u64,
    /// How battles were brought up to date after another process wrote
    /// them ([`Club::refresh_reads`]).
    reads: Reads,
    /// The club file's lock ([`ClubLock`]): one server per data folder
    /// (none on PostgreSQL: several servers share one database). Last, so
    /// it is let go after the connection closes.
    _lock: Option<ClubLock>,
}

impl Drop for Club {
    /// The campaigns' PostgreSQL clients are closed off tokio's threads
    /// (a `postgres::Client` dropped on a runtime's thread panics: it
    /// blocks on a runtime of its own). The writers close theirs on their
    /// own threads.
    fn drop(&mut self) {
        if self.pg.is_some() {
            let readers =
                std::mem::take(&mut *self.readers.lock().unwrap_or_else(|p| p.into_inner()));
            let writers =
                std::mem::take(&mut *self.writers.lock().unwrap_or_else(|p| p.into_inner()));
            let committer = self
                .committer
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take();
            super::club_db::off_runtime(move || {
                drop(readers);
                drop(writers);
                drop(committer);
            });
        }
    }
}

/// A campaign writer's connection string on PostgreSQL: named, and a
/// transaction of its left idle (its process stopped mid-job, a network
/// cut) ended by PostgreSQL after 10 s, its battles' locks let go, as the
/// committer's are (`xenolog_saves::COMMITTER_SETTINGS`, review5 S1).
fn writer_url(url: &str) -> String {
    xenolog_saves::with_session(
        url,
        "xenolog campaign writer",
        &[("idle_in_transaction_session_timeout", "10s")],
    )
}

/// A campaign's failure as the club says it: the database out of reach
/// is [`ClubError::Unavailable`] (nothing changed; try again), anything
/// else the campaign's words.
fn campaign_fail(path: &Path, e: xenolog_saves::SaveError) -> ClubError {
    match e {
        xenolog_saves::SaveError::Unreachable(why) => {
            eprintln!("serve: {}: {why}", path.display());
            ClubError::Unavailable
        }
        e => ClubError::Campaign {
            file: path.display().to_string(),
            why: e.to_string(),
        },
    }
}

/// The OS lock that makes one server at a time the club file's (review of
/// session 16: the tokens live in memory, so a second `xenolog serve` on
/// the same folder would go on accepting a token the first revoked). As the
/// saves' writer lock of a campaign file: an advisory lock (`flock` on Unix,
/// `LockFileEx` on Windows) on a sidecar file `club.xenolog-club.lock`, not
/// on the database, so it never meets SQLite's own locking; the OS drops it
/// when the process ends however it ends. The holder writes its process id
/// in it, so the refusal names the running server. The sidecar is left in
/// place (deleting it while another waits would give two locks on two
/// inodes).
struct ClubLock {
    _file: std::fs::File,
}

impl ClubLock {
    /// How long a lock still held is waited for (a server stopping in this
    /// process, closing its club file) before the folder is called held.
    const WAIT: std::time::Duration = std::time::Duration::from_millis(500);

    fn take(club: &Path) -> Result<ClubLock, ClubError> {
        use std::io::{Read, Seek, Write};
        let mut name = club.as_os_str().to_owned();
        name.push(".lock");
        let lock_path = PathBuf::from(name);
        let folder = club
            .parent()
            .unwrap_or(Path::new("."))
            .display()
            .to_string();
        let file_err = |why: String| ClubError::File {
            path: lock_path.display().to_string(),
            why,
        };
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(|e| file_err(format!("its lock file cannot be opened: {e}")))?;
        let deadline = std::time::Instant::now() + Self::WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    let mut said = String::new();
                    let _ = file.read_to_string(&mut said);
                    let holder = match said.trim().parse::<u32>() {
                        Ok(pid) => format!("process {pid}"),
                        Err(_) => "a process that has not said its id yet".to_owned(),
                    };
                    return Err(ClubError::Held { folder, holder });
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(file_err(format!("its lock cannot be taken: {e}")));
                }
            }
        }
        // Who holds it, for a second server's refusal (best effort: the
        // lock is what counts).
        let _ = file
            .set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| write!(file, "{}", std::process::id()))
            .and_then(|()| file.flush());
        Ok(ClubLock { _file: file })
    }
}

/// Read-only connections kept per campaign.
const READERS_KEPT: usize = 4;

/// A battle's slot: empty until it is loaded.
type Slot<T> = Arc<tokio::sync::Mutex<Option<T>>>;

/// A held slot ([`Club::hold`]). Dropped while its thread panics (an
/// engine step failing half-way through a decide), or while a write of
/// what it holds is not known to be durable (`unsettled`: the write
/// failed, or whoever awaited it went away), it empties the slot: what it
/// holds may not be on disk, so the battle is loaded again from its file
/// and nothing that is not on disk is ever shown or decided on.
struct Held<T> {
    guard: tokio::sync::OwnedMutexGuard<Option<T>>,
    unsettled: bool,
}

impl<T> std::ops::Deref for Held<T> {
    type Target = Option<T>;
    fn deref(&self) -> &Option<T> {
        &self.guard
    }
}

impl<T> std::ops::DerefMut for Held<T> {
    fn deref_mut(&mut self) -> &mut Option<T> {
        &mut self.guard
    }
}

impl<T> Drop for Held<T> {
    fn drop(&mut self) {
        if self.unsettled || std::thread::panicking() {
            *self.guard = None;
        }
    }
}

/// What deciding a command came to, its battle held.
enum Decision {
    /// Answered (a command seen before, a walk along the recorded line).
    Done(Played),
    /// Decided in memory; its write queued on the campaign's writer.
    Queued {
        played: Played,
        written: Written,
        path: PathBuf,
    },
}

/// The words of a campaign whose writer could not take a job.
fn gone(path: &Path, g: Gone) -> ClubError {
    ClubError::Campaign {
        file: path.display().to_string(),
        why: g.0.unwrap_or_else(|| {
            "its writer has stopped (the server is stopping, or it failed): try again in a moment"
                .into()
        }),
    }
}

/// A queued write's answer: the command's `played` once durable; refused
/// in words otherwise, the slot then emptied (the battle reads again from
/// its file) as `held` drops unsettled.
fn settle(
    mut held: Held<LiveBattle>,
    written: Settled,
    played: Played,
    path: &Path,
    (emptied_busy, battle): (&Mutex<HashMap<ServerBattleId, usize>>, ServerBattleId),
) -> Result<Played, ClubError> {
    match written {
        Ok(Ok(())) => {
            held.unsettled = false;
            Ok(played)
        }
        // Refused by the store: told as what it is, not as the store's
        // failure (review of session 16); in words true of a file and of
        // a database, and of a position moved without a new entry
        // (review5 NIT 7).
        Ok(Err(Unwritten::Stale(why))) => Err(ClubError::Stale(format!(
            "the battle as stored is not where the server decided the command ({why})"
        ))),
        Ok(Err(Unwritten::ReusedId)) => Err(ClubError::ReusedCmdId),
        Ok(Err(Unwritten::Unavailable)) => Err(ClubError::Unavailable),
        Ok(Err(Unwritten::Busy(why))) => {
            eprintln!("serve: {}: {why}", path.display());
            // Nothing written: the entries before the first of this
            // command's are what is stored and was sent.
            if let Some(&first) = played.entries.first() {
                emptied_busy
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(battle, first as usize);
            }
            Err(ClubError::Busy)
        }
        Ok(Err(Unwritten::Failed(why))) => Err(ClubError::Campaign {
            file: path.display().to_string(),
            why,
        }),
        Err(_) => Err(gone(path, Gone(None))),
    }
}

/// What is new in `fresh` to watchers holding its line to `head` (`over`:
/// it had ended there): the live line's entries after `head`, the secret
/// if one of them ended it, and where the live line parts from theirs if
/// it left `head` (a take-back elsewhere).
fn refreshed(
    fresh: &dyn Battle,
    head: Option<EntryId>,
    over: bool,
    secret: Option<Bytes32>,
) -> super::Refreshed {
    let cursor = fresh.cursor();
    // Most often (another process's command carried here) the live line
    // goes on through the watchers' head: its new entries are found walking
    // back from the cursor to the head, not along the whole line from the
    // setup (session 23: that was the battle's length a part).
    if let Some(entries) = head.and_then(|h| after_on_line(fresh, h, cursor)) {
        let ended = !over && fresh.outcome().is_some() && !entries.is_empty();
        return super::Refreshed {
            entries,
            revealed: secret.filter(|_| ended),
            moved: None,
        };
    }
    let line = fresh.path_to(cursor);
    // Where the watchers' line and the live line part: at their head
    // when the live line goes on through it (new entries, or a walk
    // along a recorded line), else at the last entry both share (a
    // take-back elsewhere: `moved`).
    let (from, moved) = match head {
        None => (None, None),
        Some(h) if line.contains(&h) => (Some(h), None),
        Some(h) => {
            let shared = fresh.common_ancestor(Some(h), cursor);
            (shared, Some(shared))
        }
    };
    let entries: Vec<EntryId> = match from {
        None => line,
        Some(f) => line.into_iter().skip_while(|e| *e != f).skip(1).collect(),
    };
    let ended = !over && fresh.outcome().is_some() && !entries.is_empty();
    super::Refreshed {
        entries,
        revealed: secret.filter(|_| ended),
        moved,
    }
}

/// The entries after `head` up to `cursor`, in order, when `head` is on the
/// line to `cursor` (`None` otherwise). An entry's id is greater than its
/// parent's (ids are arena indexes, given as entries are recorded), so the
/// walk back stops at the first id below `head`.
fn after_on_line(b: &dyn Battle, head: EntryId, cursor: Option<EntryId>) -> Option<Vec<EntryId>> {
    let records = b.records();
    let mut back = Vec::new();
    let mut at = cursor;
    while let Some(e) = at {
        if e == head {
            back.reverse();
            return Some(back);
        }
        if e < head {
            return None;
        }
        back.push(e);
        at = records.get(e as usize)?.parent;
    }
    None
}

/// A started battle in memory: only what is durable in its campaign file
/// (a command that could not be written drops it; it is loaded again).
struct LiveBattle {
    campaign: CampaignId,
    /// Its id in the campaign file.
    id: i64,
    battle: Box<dyn Battle>,
    dice_mode: DiceMode,
    /// The server's secret: the key of the receipts, revealed at the end.
    secret: Bytes32,
    /// Last read or played: an idle battle is evicted from memory
    /// ([`Club::evict_idle`]) and loaded again on its next use.
    used: std::time::Instant,
}

impl Club {
    /// Open the club file, creating and migrating it as needed. A file that
    /// is not a club file, or one from a newer Xenolog, is refused in words.
    pub fn open(path: &Path) -> Result<Club, ClubError> {
        // Before the file is touched: a second server changes nothing.
        let lock = ClubLock::take(path)?;
        let db = ClubDb::open_sqlite(path)?;
        let dir = path.parent().unwrap_or(Path::new(".")).to_owned();
        Club::on(path.to_owned(), dir, db, None, Some(lock))
    }

    /// The club on PostgreSQL at `url`: its tables in `schema` (made or
    /// upgraded on first use), its campaigns in schemas of their own.
    pub fn open_postgres(url: &str, schema: &str) -> Result<Club, ClubError> {
        let db = ClubDb::open_postgres(url, schema)?;
        // A campaign's "file" in the registry is its schema's name.
        let path = PathBuf::from(format!("the club schema {schema}"));
        Club::on(path, PathBuf::new(), db, Some(url.to_owned()), None)
    }

    /// The club on its database `db`: its tokens, nothing loaded yet.
    /// `dir` is where its campaigns' files go (none on PostgreSQL: `pg`).
    fn on(
        path: PathBuf,
        dir: PathBuf,
        db: ClubDb,
        pg: Option<String>,
        lock: Option<ClubLock>,
    ) -> Result<Club, ClubError> {
        let db = Arc::new(db);
        let tokens = Arc::new(ClubTokens::open(db.clone())?);
        let decide_on_task = pg.is_some();
        Ok(Club {
            path,
            dir,
            db,
            tokens,
            writers: Mutex::new(HashMap::new()),
            battles: Mutex::new(HashMap::new()),
            emptied_busy: Arc::default(),
            paths: Mutex::new(HashMap::new()),
            readers: Mutex::new(HashMap::new()),
            starting: Mutex::new(HashMap::new()),
            pg,
            index: Mutex::new(HashMap::new()),
            committer: Mutex::new(None),
            #[cfg(test)]
            after_start: Mutex::new(None),
            #[cfg(test)]
            while_loading: Mutex::new(None),
            decide_on_task,
            tag: process_tag(),
            reads: Reads::default(),
            _lock: lock,
        })
    }

    /// Open a campaign for writing: its file, or its schema.
    fn open_campaign(&self, path: &Path) -> Result<Campaign, xenolog_saves::SaveError> {
        match &self.pg {
            None => Campaign::open(path),
            Some(url) => Campaign::open_postgres(&writer_url(url), &path.to_string_lossy()),
        }
    }

    /// Open a campaign to read: its file read-only, or (on PostgreSQL) a
    /// connection of its own to its schema.
    fn open_reader(&self, path: &Path) -> Result<Campaign, xenolog_saves::SaveError> {
        match &self.pg {
            None => Campaign::open_read_only(path),
            // Read-only as a file's reader is (review4 S3): it refuses
            // every write, its session takes none, and it never upgrades
            // or seals (the writer, opened first, did that).
            Some(url) => Campaign::open_postgres_read_only(url, &path.to_string_lossy()),
        }
    }

    /// How a writer opens its campaign again.
    fn reopen(&self, path: &Path) -> Reopen {
        let path = path.to_owned();
        match self.pg.clone() {
            None => Box::new(move || Campaign::open(&path)),
            Some(url) => {
                let url = writer_url(&url);
                Box::new(move || Campaign::open_postgres(&url, &path.to_string_lossy()))
            }
        }
    }

    /// What a campaign's writer notifies on PostgreSQL.
    fn notify(&self, id: CampaignId) -> Option<Notify> {
        let (_, schema) = self.db.postgres()?;
        Some(Notify {
            channel: super::club_tokens::channel(schema),
            prefix: format!("{id}:"),
        })
    }

    /// Tell the other processes (PostgreSQL) that battle `id` of
    /// `campaign` moved its live cursor without a new entry (a take-back, a
    /// walk along its recorded line): their watchers hear `moved`
    /// (issue 31 P4). Sent once the position is written; should it fail,
    /// the move stands and the other processes see it at the battle's next
    /// entry (the server's log says so).
    pub(crate) fn tell_moved(&self, campaign: CampaignId, id: i64) {
        let Some((_, schema)) = self.db.postgres() else {
            return;
        };
        let hint = super::notify::Hint::Moved {
            campaign,
            battle: id,
            by: self.tag,
        };
        let sent = self.conn().and_then(|conn| {
            conn.execute(
                "SELECT pg_notify(?1, ?2)",
                &[&super::club_tokens::channel(schema), &hint.payload()],
            )
            .map_err(|e| self.sql(e))
        });
        if let Err(e) = sent {
            eprintln!(
                "serve: campaign {campaign} battle {id} moved, but the other servers could not be told: {e}"
            );
        }
    }

    /// Whether the campaigns live in PostgreSQL (several servers may write
    /// them).
    pub fn on_postgres(&self) -> bool {
        self.pg.is_some()
    }

    /// The server battle loaded as battle `id` of campaign `campaign`.
    pub fn loaded_as(&self, campaign: CampaignId, id: i64) -> Option<ServerBattleId> {
        self.index
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&(campaign, id))
            .copied()
    }

    /// How many times a battle was brought up to date after another
    /// process wrote it by reading only what is stored after its head, and
    /// how many by reading it whole: (after, whole).
    pub fn refresh_reads(&self) -> (u64, u64) {
        (
            self.reads.after.load(Ordering::Relaxed),
            self.reads.whole.load(Ordering::Relaxed),
        )
    }

    /// Whether battle `battle` is in memory here with entry `seq` already
    /// (this process wrote it, or read it before): a notification of it
    /// has nothing to bring. `false` when not known without waiting (the
    /// battle in use): then the refresh finds out in its turn.
    pub fn holds_entry(&self, battle: ServerBattleId, seq: u64) -> bool {
        self.held_now(battle)
            .is_some_and(|held| match held.as_ref() {
                Some(lb) => (seq as usize) < lb.battle.records().len(),
                // Emptied by a busy write: its entries before that write's
                // were stored and sent (`emptied_busy`).
                None => self
                    .emptied_busy
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get(&battle)
                    .is_some_and(|&n| (seq as usize) < n),
            })
    }

    /// How many times a battle was brought up to date from the part its
    /// notification carried, reading nothing.
    pub fn carried_refreshes(&self) -> u64 {
        self.reads.carried.load(Ordering::Relaxed)
    }

    /// Every battle loaded since the start (in memory now or evicted).
    pub fn loaded_battles(&self) -> Vec<ServerBattleId> {
        self.index
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .copied()
            .collect()
    }

    /// Read a loaded battle again from its campaign after another process
    /// wrote it (a notification: its entry `seq`, or a catch-up or a move
    /// when `seq` is `None`). `Ok(None)`: it is not in memory here
    /// (nothing to bring up to date; watchers of it resume from the
    /// store). Otherwise what is new to this process's watchers
    /// ([`super::Refreshed`]): the live line's entries after the head they
    /// hold, the secret if one of them ended the battle, and, when the
    /// live line left that head (a take-back elsewhere), where it now
    /// parts from theirs.
    pub fn refresh(
        &self,
        battle: ServerBattleId,
        seq: Option<u64>,
    ) -> Result<Option<super::Refreshed>, ClubError> {
        self.refresh_from(battle, seq, None)
    }

    /// [`Club::refresh`] for watchers known to hold the live line to
    /// `held` (`Some(None)`: the setup): a command of this process whose
    /// write lost a race with another process's (issue 31) was decided at
    /// `held`, and its battle was dropped from memory since; it is loaded
    /// again, and what is new after `held` is said.
    pub fn refresh_from(
        &self,
        battle: ServerBattleId,
        seq: Option<u64>,
        held: Option<Option<EntryId>>,
    ) -> Result<Option<super::Refreshed>, ClubError> {
        self.refresh_with(battle, seq, held, None)
    }

    /// [`Club::refresh`] for a part whose notification carried it
    /// ([`super::notify::Hint::Carried`], `body` its words): the battle
    /// held at the part's first entry is extended from `body` and nothing
    /// is read ([`xenolog_saves::Carried::extend`]); held otherwise, or the
    /// part refused (unreadable, not linking to the head held), what is
    /// stored after the head is read as for [`Club::refresh`].
    pub fn refresh_carried(
        &self,
        battle: ServerBattleId,
        seq: u64,
        body: &str,
    ) -> Result<Option<super::Refreshed>, ClubError> {
        self.refresh_with(battle, Some(seq), None, Some(body))
    }

    fn refresh_with(
        &self,
        battle: ServerBattleId,
        seq: Option<u64>,
        held: Option<Option<EntryId>>,
        carried: Option<&str>,
    ) -> Result<Option<super::Refreshed>, ClubError> {
        let slot = self.slot(battle);
        let mut guard = Self::hold(&slot);
        let (head, over) = match (held, guard.as_ref()) {
            (Some(h), lb) => (h, lb.is_some_and(|lb| lb.battle.outcome().is_some())),
            (None, Some(lb)) => {
                let before = lb.battle.records().len();
                if seq.is_some_and(|s| (s as usize) < before) {
                    // This process has it already (its own write, or read
                    // before).
                    return Ok(Some(super::Refreshed::default()));
                }
                (lb.battle.cursor(), lb.battle.outcome().is_some())
            }
            (None, None) => return Ok(None),
        };
        // The part the notification carried, added to the battle held
        // (issue 31 P5, session 20): nothing read when it fits.
        let from_part = match (carried, guard.as_mut()) {
            (Some(body), Some(lb)) => xenolog_saves::Carried::decode(body)
                .and_then(|part| part.extend(&mut *lb.battle))
                .is_ok(),
            _ => false,
        };
        let fresh = match guard.as_mut() {
            Some(lb) if from_part => {
                // Extended from the notification: nothing read.
                self.reads.carried.fetch_add(1, Ordering::Relaxed);
                lb.used = std::time::Instant::now();
                (&*lb.battle, lb.secret)
            }
            Some(lb) => {
                let (campaign, id) = (lb.campaign, lb.id);
                let path = self.path_of(campaign)?;
                // What is stored after the head held (issue 31 P5): one
                // snapshot of the battle's row, branches and the entries
                // after it, added to the battle held. Should the store not
                // continue it (this process held more or otherwise, or a
                // read failed), the whole battle is read as before.
                let after = self.reading(campaign, &path, |c| c.extend_battle(id, &mut *lb.battle));
                let read = match after {
                    Ok(_) => {
                        self.reads.after.fetch_add(1, Ordering::Relaxed);
                        Ok(())
                    }
                    Err(_) => self
                        .reading(campaign, &path, |c| c.load_battle(id))
                        .map(|b| {
                            self.reads.whole.fetch_add(1, Ordering::Relaxed);
                            lb.battle = b;
                        }),
                };
                match read {
                    Ok(()) => {
                        lb.used = std::time::Instant::now();
                        (&*lb.battle, lb.secret)
                    }
                    Err(e) => {
                        // Loaded again on its next use.
                        *guard = None;
                        return Err(e);
                    }
                }
            }
            None => {
                self.reads.whole.fetch_add(1, Ordering::Relaxed);
                let lb = self.loaded(&mut guard, battle)?;
                (&*lb.battle, lb.secret)
            }
        };
        let (fresh, secret) = fresh;
        Ok(Some(refreshed(fresh, head, over, Some(secret))))
    }

    /// The club's tokens and invitations.
    pub fn club_tokens(&self) -> &Arc<ClubTokens> {
        &self.tokens
    }

    /// Write the times tokens were last used that only memory holds.
    pub fn flush_last_used(&self) {
        self.tokens.flush_last_used();
    }

    /// [`TokenStore::redeem`] at a given time (tests move the clock).
    pub fn redeem_at(
        &self,
        code: &Code,
        label: Option<&str>,
        into: Option<&Principal>,
        at: i64,
    ) -> Result<Redeemed, ClubError> {
        self.tokens.redeem_at(code, label, into, at)
    }

    /// [`TokenStore::invite`] at a given time (tests move the clock).
    pub fn invite_at(
        &self,
        role: Role,
        label: &str,
        days: u32,
        at: i64,
        seat: Option<SeatInvite>,
    ) -> Result<Invitation, ClubError> {
        self.tokens.invite_at(role, label, days, at, seat)
    }

    /// The club's connection, held.
    fn conn(&self) -> Result<super::club_db::Held<'_>, ClubError> {
        self.db.lock()
    }

    fn sql(&self, e: DbError) -> ClubError {
        self.db.err(e)
    }
}

/// The club file's tokens are its [`ClubTokens`]' (the same database).
impl TokenStore for Club {
    fn organiser_invitation(&self, force: bool) -> Result<Option<Invitation>, ClubError> {
        self.tokens.organiser_invitation(force)
    }
    fn authenticate(&self, token: &Token) -> Result<Principal, ClubError> {
        self.tokens.authenticate(token)
    }
    fn redeem(
        &self,
        code: &Code,
        label: Option<&str>,
        into: Option<&Principal>,
    ) -> Result<Redeemed, ClubError> {
        self.tokens.redeem(code, label, into)
    }
    fn invite(
        &self,
        by: &Principal,
        role: Role,
        label: &str,
        days: u32,
        seat: Option<SeatInvite>,
    ) -> Result<Invitation, ClubError> {
        self.tokens.invite(by, role, label, days, seat)
    }
    fn grants(&self, token: TokenId) -> Result<Vec<Grant>, ClubError> {
        self.tokens.grants(token)
    }
    fn tokens(&self) -> Result<Vec<TokenInfo>, ClubError> {
        self.tokens.tokens()
    }
    fn revoke(&self, id: TokenId) -> Result<TokenInfo, ClubError> {
        self.tokens.revoke(id)
    }
}

impl Club {
    fn campaign_path(&self, conn: &dyn Db, id: CampaignId) -> Result<PathBuf, ClubError> {
        let file: Option<String> = conn
            .row("SELECT file FROM campaigns WHERE id = ?1", &[&id], |r| {
                r.get::<String>(0)
            })
            .map_err(|e| self.sql(e))?;
        Ok(self.dir.join(file.ok_or(ClubError::NoSuchCampaign(id))?))
    }

    /// The test's hook after a start (nothing outside tests).
    fn after_start(&self) -> Result<(), ClubError> {
        #[cfg(test)]
        if let Some(hook) = &*self.after_start.lock().unwrap_or_else(|p| p.into_inner()) {
            return hook();
        }
        Ok(())
    }

    /// Start a battle whose every seat has joined: its seed is derived from
    /// the secret and every nonce, and it is written to its campaign file.
    fn start(
        &self,
        path: PathBuf,
        battle: ServerBattleId,
        row: &BattleRow,
        nonces: Vec<SeatNonce>,
    ) -> Result<i64, ClubError> {
        let campaign_err = |e: xenolog_saves::SaveError| {
            if matches!(e, xenolog_saves::SaveError::Unreachable(_)) {
                // Its connection is gone: a new writer connects again.
                self.lost(row.campaign);
            }
            campaign_fail(&path, e)
        };
        let writer = self.writer(row.campaign, &path)?;
        let config: Value = serde_json::from_str(&row.config).map_err(|e| ClubError::File {
            path: self.path.display().to_string(),
            why: format!("battle {battle}'s config is not JSON: {e}"),
        })?;
        let (game, title, strict, secret) =
            (row.game.clone(), row.title.clone(), row.strict, row.secret);
        let dice_mode = if row.entered {
            DiceMode::Entered
        } else {
            DiceMode::Rolled
        };
        let picks: Vec<RosterPick> = match &row.rosters {
            None => Vec::new(),
            Some(text) => serde_json::from_str(text).map_err(|e| ClubError::File {
                path: self.path.display().to_string(),
                why: format!("battle {battle}'s rosters are not readable: {e}"),
            })?,
        };
        // A start that wrote the battle to its campaign file and stopped
        // before the club file recorded it (a crash between the two writes;
        // on PostgreSQL also the club's connection lost before its commit,
        // review4 S5) finds that battle again by the secret it holds,
        // rather than starting a second one: a resent join then records the
        // first (review of session 15, item 8).
        if picks.is_empty() {
            return writer
                .run(move |c| match c.club_battle_of_secret(&secret)? {
                    Some(id) => Ok(id),
                    None => c.new_club_battle(
                        &game, &config, &title, dice_mode, strict, &secret, nonces,
                    ),
                })
                .map_err(|g| self.gone(&path, g))?
                .map_err(campaign_err);
        }
        // Over rosters: the battle and the campaign's "battle fought with
        // these models" entry in one transaction, on the campaign's writer
        // thread; its result and experience come into the campaign's fold
        // when it ends (DESIGN.md section 10).
        let picks = super::seat_picks(&picks);
        writer
            .run(move |c| {
                // Its "battle fought" entry was written with it, in one
                // transaction: found, both are there.
                if let Some(id) = c.club_battle_of_secret(&secret)? {
                    return Ok(id);
                }
                c.new_club_roster_battle(
                    &config, &picks, &title, dice_mode, strict, &secret, nonces,
                )
            })
            .map_err(|g| self.gone(&path, g))?
            .map_err(|e| roster_fail(e, &path))
    }
}

impl Club {
    /// Group commit so far: (transactions, appends) over every open campaign.
    pub fn write_stats(&self) -> (u64, u64) {
        // On PostgreSQL the committer's transactions hold every campaign's.
        if let Some(c) = &*self.committer.lock().unwrap_or_else(|p| p.into_inner()) {
            return c.stats();
        }
        let writers = self.writers.lock().unwrap_or_else(|p| p.into_inner());
        writers
            .values()
            .map(|w| w.stats())
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    }

    fn gone(&self, path: &Path, g: Gone) -> ClubError {
        gone(path, g)
    }

    /// A campaign whose database connection was found lost: its writer
    /// and kept readers are let go (closed off tokio's threads), and new
    /// ones connect on the next use.
    fn lost(&self, campaign: CampaignId) {
        let w = self
            .writers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&campaign);
        let r = self
            .readers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&campaign);
        super::club_db::off_runtime(move || {
            drop(w);
            drop(r);
        });
    }

    /// Run `f` on a read-only connection to campaign `id`'s file (one kept
    /// from before, or a new one), off its writer thread. The writer is
    /// started first, so the file is open and upgraded. A panic in `f` is
    /// answered in words and its connection dropped.
    fn reading<T>(
        &self,
        id: CampaignId,
        path: &Path,
        f: impl FnOnce(&Campaign) -> Result<T, xenolog_saves::SaveError>,
    ) -> Result<T, ClubError> {
        let campaign_err = |why: String| ClubError::Campaign {
            file: path.display().to_string(),
            why,
        };
        self.writer(id, path)?;
        let kept = self
            .readers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_mut(&id)
            .and_then(Vec::pop);
        let c = match kept {
            Some(c) => c,
            None => self.open_reader(path).map_err(|e| campaign_fail(path, e))?,
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&c)));
        match r {
            Ok(Err(e)) => {
                // Not kept: its connection may be the thing that failed
                // (PostgreSQL restarted); a new one is opened next time.
                if self.pg.is_some() {
                    super::club_db::off_runtime(move || drop(c));
                }
                Err(campaign_fail(path, e))
            }
            Ok(r) => {
                let mut readers = self.readers.lock().unwrap_or_else(|p| p.into_inner());
                let list = readers.entry(id).or_default();
                if list.len() < READERS_KEPT {
                    list.push(c);
                }
                r.map_err(|e| campaign_fail(path, e))
            }
            Err(_) => Err(campaign_err(
                "reading it failed on this request (the server's log says where); try again".into(),
            )),
        }
    }

    /// The writer of a campaign if one is running: nothing opened.
    fn running_writer(&self, id: CampaignId) -> Option<Arc<Writer>> {
        self.writers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&id)
            .filter(|w| !w.is_dead())
            .cloned()
    }

    /// The writer of a campaign, its file opened (and its writer lock taken)
    /// on first use.
    fn writer(&self, id: CampaignId, path: &Path) -> Result<Arc<Writer>, ClubError> {
        let mut writers = self.writers.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(w) = writers.get(&id) {
            if !w.is_dead() {
                return Ok(w.clone());
            }
            // Its thread ended (the file could not be opened again after a
            // failure): a new writer opens it now.
            eprintln!(
                "serve: the writer of {} had stopped; starting a new one",
                path.display()
            );
            writers.remove(&id);
        }
        let campaign_err = |why: String| ClubError::Campaign {
            file: path.display().to_string(),
            why,
        };
        let campaign = self
            .open_campaign(path)
            .map_err(|e| campaign_fail(path, e))?;
        let appends = match &self.pg {
            None => None,
            Some(url) => {
                let mut slot = self.committer.lock().unwrap_or_else(|p| p.into_inner());
                let committer = match &*slot {
                    Some(c) => c.clone(),
                    None => {
                        let c = Arc::new(Committer::start(url.clone()).map_err(|e| {
                            campaign_err(format!("the committer thread cannot start: {e}"))
                        })?);
                        *slot = Some(c.clone());
                        c
                    }
                };
                Some(Appends {
                    committer,
                    schema: path.to_string_lossy().into_owned(),
                })
            }
        };
        let w = Arc::new(
            Writer::start(
                campaign,
                format!("campaign-{id}"),
                self.reopen(path),
                self.notify(id),
                appends,
            )
            .map_err(|e| campaign_err(format!("its writer thread cannot start: {e}")))?,
        );
        writers.insert(id, w.clone());
        Ok(w)
    }

    /// Where a started battle lives: its campaign, that campaign's file, its
    /// id in it, and the server's secret.
    fn located(
        &self,
        battle: ServerBattleId,
    ) -> Result<(CampaignId, PathBuf, i64, Bytes32), ClubError> {
        let conn = self.conn()?;
        let row: Option<(CampaignId, Option<i64>, Vec<u8>)> = conn
            .row(
                "SELECT campaign, battle, secret FROM server_battles WHERE id = ?1",
                &[&battle],
                |r| Ok::<_, DbError>((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .map_err(|e| self.sql(e))?;
        let (campaign, started, secret) = row.ok_or(ClubError::NoSuchBattle(battle))?;
        let started = started.ok_or(ClubError::NotStarted(battle))?;
        Ok((
            campaign,
            self.campaign_path(&*conn, campaign)?,
            started,
            blob32(secret),
        ))
    }

    /// The lock of a battle's slot (empty until it is loaded).
    fn slot(&self, battle: ServerBattleId) -> Slot<LiveBattle> {
        self.battles
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(battle)
            .or_default()
            .clone()
    }

    /// Hold a battle's slot if it is free now (`None` when it is in use,
    /// or was never made): what a task may do without waiting.
    fn held_now(&self, battle: ServerBattleId) -> Option<Held<LiveBattle>> {
        let slot = self
            .battles
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&battle)
            .cloned()?;
        Some(Held {
            guard: slot.try_lock_owned().ok()?,
            unsettled: false,
        })
    }

    /// Hold a battle's slot, waiting for it on this thread (never from a
    /// task: the server calls the store on the blocking pool). A holder
    /// that panics (an engine step failing half-way through `decide`) may
    /// hold entries that were never written: its [`Held`] empties the slot
    /// as it drops, so the battle is loaded again from its file and nothing
    /// that is not on disk is ever shown or decided on.
    fn hold<T>(slot: &Slot<T>) -> Held<T> {
        Held {
            guard: slot.clone().blocking_lock_owned(),
            unsettled: false,
        }
    }

    /// The battle in `slot`, loaded from its campaign file if it is not in memory.
    fn loaded<'a>(
        &self,
        slot: &'a mut Option<LiveBattle>,
        battle: ServerBattleId,
    ) -> Result<&'a mut LiveBattle, ClubError> {
        if slot.is_none() {
            let (campaign, path, id, secret) = self.located(battle)?;
            // Known before it is read (session 21): a notification of
            // another process's entry heard while this load reads is then
            // mapped to the battle and waits for its slot, and reads what
            // the load's snapshot missed. Indexed after the read, such a
            // hint was dropped as "not loaded here" and the battle stayed
            // behind for good (`club_pg_procs`' bots at once, caught live).
            self.index
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert((campaign, id), battle);
            #[cfg(test)]
            if let Some(hook) = &*self.while_loading.lock().unwrap_or_else(|p| p.into_inner()) {
                hook();
            }
            // On a read-only connection: a long load stalls no appends.
            let (b, dice_mode) = self.reading(campaign, &path, |c| {
                Ok((c.load_battle(id)?, c.summary(id)?.dice_mode))
            })?;
            // In memory again: the battle itself answers `holds_entry`.
            self.emptied_busy
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&battle);
            *slot = Some(LiveBattle {
                campaign,
                id,
                battle: b,
                dice_mode,
                secret,
                used: std::time::Instant::now(),
            });
        }
        let lb = slot.as_mut().ok_or(ClubError::NoSuchBattle(battle))?;
        lb.used = std::time::Instant::now();
        Ok(lb)
    }

    /// Run `f` on a started battle, loaded on first use, holding its lock.
    fn with_live<T>(
        &self,
        battle: ServerBattleId,
        f: impl FnOnce(&mut LiveBattle) -> Result<T, ClubError>,
    ) -> Result<T, ClubError> {
        let slot = self.slot(battle);
        let mut guard = Self::hold(&slot);
        f(self.loaded(&mut guard, battle)?)
    }

    /// Drop from memory every battle not read or played for `idle` (DESIGN.md
    /// section 8): what is in memory is only what is durable, so an evicted
    /// battle is loaded again from its file on its next use, as after a
    /// restart. A battle in use (its slot held) is left. Returns how many
    /// were evicted.
    pub fn evict_idle(&self, idle: std::time::Duration) -> usize {
        // Also the minute's token times (see `last_used`).
        self.flush_last_used();
        let mut battles = self.battles.lock().unwrap_or_else(|p| p.into_inner());
        let mut evicted = 0;
        battles.retain(|_, slot| {
            let Ok(mut held) = slot.try_lock() else {
                // In use (or its holder panicked: `hold` empties it).
                return true;
            };
            if held.as_ref().is_some_and(|lb| lb.used.elapsed() >= idle) {
                *held = None;
                evicted += 1;
            }
            // An empty slot nobody else holds goes from the map too.
            held.is_some() || Arc::strong_count(slot) > 1
        });
        evicted
    }

    /// Battles in memory now.
    pub fn battles_in_memory(&self) -> usize {
        self.battles
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .filter(|s| s.try_lock().map_or(true, |g| g.is_some()))
            .count()
    }

    /// The campaign file of a campaign: from memory once it was looked up
    /// (a campaign's file never changes), so a command does not wait for
    /// the club file's lock.
    fn path_of(&self, campaign: CampaignId) -> Result<PathBuf, ClubError> {
        if let Some(p) = self
            .paths
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&campaign)
        {
            return Ok(p.clone());
        }
        let path = {
            let conn = self.conn()?;
            self.campaign_path(&*conn, campaign)?
        };
        self.paths
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(campaign, path.clone());
        Ok(path)
    }
}

impl LiveStore for Club {
    fn play(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<EntryId>,
        command: &Value,
        cmd_id: Option<&str>,
    ) -> Result<Played, ClubError> {
        self.play_with_dice(battle, seat, at, command, None, cmd_id)
    }

    fn dice_needed(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        command: &Value,
    ) -> Result<Vec<u8>, ClubError> {
        self.with_live(battle, |lb| {
            if lb.dice_mode != DiceMode::Entered {
                return Err(ClubError::RolledDice {
                    battle,
                    what: "it does not say how many dice a command needs",
                });
            }
            if lb.battle.outcome().is_some() {
                return Err(ClubError::Over(battle));
            }
            lb.battle
                .dice_needed(seat, command)
                .map_err(|e| ClubError::Rule(e.to_string()))
        })
    }

    fn play_with_dice(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<EntryId>,
        command: &Value,
        dice: Option<Vec<u8>>,
        cmd_id: Option<&str>,
    ) -> Result<Played, ClubError> {
        let slot = self.slot(battle);
        let mut guard = Self::hold(&slot);
        match self.decide_held(&mut guard, battle, seat, at, command, dice, cmd_id, false)? {
            Decision::Done(played) => Ok(played),
            Decision::Queued {
                played,
                written,
                path,
            } => {
                guard.unsettled = true;
                // On this thread (a test, a caller without a runtime).
                settle(
                    guard,
                    written.settled_blocking(),
                    played,
                    &path,
                    (&self.emptied_busy, battle),
                )
            }
        }
    }

    fn play_begin(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<EntryId>,
        command: &Value,
        dice: Option<Vec<u8>>,
        cmd_id: Option<&str>,
        frames: &mut MakeFrames<'_>,
    ) -> Result<Playing, ClubError> {
        let slot = self.slot(battle);
        let guard = Self::hold(&slot);
        self.begin_held(
            guard, battle, seat, at, command, dice, cmd_id, frames, false,
        )
    }

    fn play_begin_now(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<EntryId>,
        command: &Value,
        dice: Option<Vec<u8>>,
        cmd_id: Option<&str>,
        frames: &mut MakeFrames<'_>,
    ) -> Option<Result<Playing, ClubError>> {
        // On PostgreSQL only (`decide_on_task`). Only what needs no wait
        // and no read: the battle in memory and free, the command at its
        // head with nothing recorded after it (no command id to look up,
        // no walk), its campaign's file known and its writer running
        // (nothing to open).
        if !self.decide_on_task {
            return None;
        }
        let guard = self.held_now(battle)?;
        let lb = guard.as_ref()?;
        let quick = lb.battle.outcome().is_none()
            && at == lb.battle.cursor()
            && lb.battle.children(at).is_empty()
            && (dice.is_none() || lb.dice_mode == DiceMode::Entered)
            && self
                .paths
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .contains_key(&lb.campaign)
            && self.running_writer(lb.campaign).is_some();
        if !quick {
            return None;
        }
        Some(self.begin_held(guard, battle, seat, at, command, dice, cmd_id, frames, true))
    }

    fn refresh_carried_now(
        &self,
        battle: ServerBattleId,
        seq: u64,
        body: &str,
        frames: &mut RefreshFrames<'_>,
    ) -> Option<Result<(), ClubError>> {
        let mut guard = self.held_now(battle)?;
        let lb = guard.as_mut()?;
        let before = lb.battle.records().len();
        let (head, over) = (lb.battle.cursor(), lb.battle.outcome().is_some());
        if (seq as usize) < before {
            // This process has it already (its own write, or read before).
            return Some(Ok(()));
        }
        // Only a part that fits the head held: anything else reads (the
        // blocking pool's [`Club::refresh_carried`]).
        xenolog_saves::Carried::decode(body)
            .and_then(|part| part.extend(&mut *lb.battle))
            .ok()?;
        self.reads.carried.fetch_add(1, Ordering::Relaxed);
        lb.used = std::time::Instant::now();
        let r = refreshed(&*lb.battle, head, over, Some(lb.secret));
        frames(&*lb.battle, &lb.secret, &r);
        Some(Ok(()))
    }

    fn read(
        &self,
        battle: ServerBattleId,
        f: &mut dyn FnMut(&dyn Battle),
    ) -> Result<(), ClubError> {
        self.with_live(battle, |lb| {
            f(&*lb.battle);
            Ok(())
        })
    }

    fn read_keyed(
        &self,
        battle: ServerBattleId,
        f: &mut dyn FnMut(&dyn Battle, &Bytes32),
    ) -> Result<(), ClubError> {
        self.with_live(battle, |lb| {
            f(&*lb.battle, &lb.secret);
            Ok(())
        })
    }

    fn evict_idle(&self, idle: std::time::Duration) -> usize {
        Club::evict_idle(self, idle)
    }

    fn refresh_reads(&self) -> (u64, u64) {
        Club::refresh_reads(self)
    }

    fn loaded_as(&self, campaign: CampaignId, id: i64) -> Option<ServerBattleId> {
        Club::loaded_as(self, campaign, id)
    }

    fn loaded_battles(&self) -> Vec<ServerBattleId> {
        Club::loaded_battles(self)
    }

    fn refresh(
        &self,
        battle: ServerBattleId,
        seq: Option<u64>,
    ) -> Result<Option<super::Refreshed>, ClubError> {
        Club::refresh(self, battle, seq)
    }

    fn refresh_from(
        &self,
        battle: ServerBattleId,
        held: Option<EntryId>,
    ) -> Result<Option<super::Refreshed>, ClubError> {
        Club::refresh_from(self, battle, None, Some(held))
    }

    fn refresh_carried(
        &self,
        battle: ServerBattleId,
        seq: u64,
        body: &str,
    ) -> Result<Option<super::Refreshed>, ClubError> {
        Club::refresh_carried(self, battle, seq, body)
    }

    fn carried_refreshes(&self) -> u64 {
        Club::carried_refreshes(self)
    }

    fn holds_entry(&self, battle: ServerBattleId, seq: u64) -> bool {
        Club::holds_entry(self, battle, seq)
    }

    fn shared_writers(&self) -> bool {
        self.on_postgres()
    }

    fn revealed(&self, battle: ServerBattleId) -> Result<Option<Bytes32>, ClubError> {
        // Only what is durable is in memory: an ended battle's reveal was
        // written with its last entry.
        self.with_live(battle, |lb| {
            Ok(lb.battle.outcome().is_some().then_some(lb.secret))
        })
    }
}

impl Club {
    /// [`LiveStore::play_begin`] on the held battle; `on_runtime`: called
    /// from a task ([`LiveStore::play_begin_now`]), where nothing may
    /// block.
    #[allow(clippy::too_many_arguments)]
    fn begin_held(
        &self,
        mut guard: Held<LiveBattle>,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<EntryId>,
        command: &Value,
        dice: Option<Vec<u8>>,
        cmd_id: Option<&str>,
        frames: &mut MakeFrames<'_>,
        on_runtime: bool,
    ) -> Result<Playing, ClubError> {
        match self.decide_held(
            &mut guard, battle, seat, at, command, dice, cmd_id, on_runtime,
        )? {
            Decision::Done(played) => Ok(Playing::Done(played)),
            Decision::Queued {
                played,
                written,
                path,
            } => {
                // From here until the write is known durable, a drop (the
                // awaiting task gone) empties the slot.
                guard.unsettled = true;
                let made = match guard.as_ref() {
                    Some(lb) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        frames(&*lb.battle, &lb.secret, &played)
                    })),
                    None => Ok(()),
                };
                if let (Err(panic), true) = (&made, on_runtime) {
                    // A task cannot wait here: the write is awaited by the
                    // future, holding the battle as below, and the command
                    // is then refused (its frames were not made), whether
                    // written or not (a resend with its command id says).
                    eprintln!(
                        "serve: battle {battle}: making a command's frames panicked: {}",
                        panic
                            .downcast_ref::<&str>()
                            .copied()
                            .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                            .unwrap_or("no message")
                    );
                    let emptied = self.emptied_busy.clone();
                    return Ok(Playing::Writing(Box::pin(async move {
                        let written = written.settled().await;
                        drop(settle(guard, written, played, &path, (&emptied, battle)));
                        Err(ClubError::Campaign {
                            file: path.display().to_string(),
                            why: "making the command's frames failed after it was queued: its watchers were sent nothing".into(),
                        })
                    })));
                }
                if let Err(panic) = made {
                    // A panic in `frames` (review of session 16) must not
                    // empty the slot while the write is still queued: a
                    // command after it would load the battle from its file
                    // without the entries about to be written there, and
                    // decide on it. The battle stays held until the write
                    // settles (kept if it is durable, emptied if not; on
                    // this thread, the blocking pool's), then the panic
                    // goes on to the caller.
                    drop(settle(
                        guard,
                        written.settled_blocking(),
                        played,
                        &path,
                        (&self.emptied_busy, battle),
                    ));
                    std::panic::resume_unwind(panic);
                }
                // The battle stays held while the write is awaited, by a
                // task, not a thread: no one reads entries not yet durable.
                let emptied = self.emptied_busy.clone();
                Ok(Playing::Writing(Box::pin(async move {
                    let written = written.settled().await;
                    settle(guard, written, played, &path, (&emptied, battle))
                })))
            }
        }
    }
}

impl Club {
    /// Decide a seat's command on its held battle (loaded if need be) and
    /// queue its write ([`LiveStore::play_with_dice`], whose words apply):
    /// the caller awaits the write, holding the battle.
    #[allow(clippy::too_many_arguments)]
    fn decide_held(
        &self,
        guard: &mut Held<LiveBattle>,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<EntryId>,
        command: &Value,
        dice: Option<Vec<u8>>,
        cmd_id: Option<&str>,
        on_runtime: bool,
    ) -> Result<Decision, ClubError> {
        let lb = self.loaded(guard, battle)?;
        let path = self.path_of(lb.campaign)?;
        let writer = if on_runtime {
            // From a task nothing may be opened (a blocking client): a
            // writer that stopped since `play_begin_now` looked is started
            // again by the next command, on the blocking pool. Nothing was
            // decided yet.
            self.running_writer(lb.campaign)
                .ok_or(ClubError::Unavailable)?
        } else {
            self.writer(lb.campaign, &path)?
        };
        // A command id can have been decided before only where a command
        // was: a command is decided only at the head its sending names
        // (`at`), a resend names the same, and its entry stays under that
        // head for good (a take-back keeps it; nothing is deleted). So when
        // `at` is the head and nothing is recorded after it, the id is new
        // and the campaign file is not asked (session 16: the look-up cost
        // about 100 µs a command, BENCHMARKS.md). An id reused by a client
        // for another command there is refused by the file's key on the
        // write, in words, and changes nothing.
        let unseen_here = at == lb.battle.cursor() && lb.battle.children(at).is_empty();
        if let Some(cid) = cmd_id.filter(|_| !unseen_here) {
            // Recorded in the same transaction as its entries (append_batch):
            // if they are there, so is the id, and the other way round.
            // Read off the writer thread: this battle's own appends are
            // all durable (they are made holding its slot, as this is).
            let id = lb.id;
            let done = self.reading(lb.campaign, &path, |c| c.command_entries(id, seat, cid))?;
            if let Some(entries) = done {
                // Over when the battle ended at the last of those entries.
                let ended =
                    lb.battle.outcome().is_some() && entries.last().copied() == lb.battle.cursor();
                return Ok(Decision::Done(Played {
                    entries,
                    revealed: ended.then_some(lb.secret),
                    again: true,
                    walked: false,
                }));
            }
        }
        if dice.is_some() && lb.dice_mode != DiceMode::Entered {
            return Err(ClubError::RolledDice {
                battle,
                what: "it takes no dice entered by hand",
            });
        }
        let b = &mut lb.battle;
        let head = b.cursor();
        // A command for an older head is stale even when the battle ended
        // since (the other seat's last command came first): the seat chose
        // it for a position that is gone, and says so before "over".
        if at != head {
            let mut words = match head {
                None => "the battle is at its start".to_owned(),
                Some(h) => {
                    let t = b.entry_texts_as(&[h], xenolog_engine::Viewer::Seat(seat));
                    match t.first() {
                        Some(t) => format!("entry {h} ({}: {})", t.actor, t.command),
                        None => format!("entry {h}"),
                    }
                }
            };
            if b.outcome().is_some() {
                words.push_str(super::STALE_AT_END);
            }
            return Err(ClubError::Stale(words));
        }
        if b.outcome().is_some() {
            return Err(ClubError::Over(battle));
        }
        // Section 9, a real redo: after a take-back, the command recorded
        // next (the same seat, command and entered dice) walks the recorded
        // line instead of deciding it again: the same entry with the same
        // dice (principle 3), no new branch, nothing written but the
        // position. Tried only where something is recorded after the head.
        if !b.children(head).is_empty()
            && let Ok(p) = b.prepare_json(seat, command, dice.clone())
            && matches!(p.kind, xenolog_engine::PendingKind::Redo { .. })
        {
            let entered = lb.dice_mode == DiceMode::Entered;
            return self
                .walk(guard, battle, p, entered, seat, cmd_id, &path, &writer)
                .map(Decision::Done);
        }
        let held = b.records().len();
        // Decided on this thread (the blocking pool), in memory only.
        let decided =
            match xenolog_saves::decide(lb.id, &mut **b, seat, command, dice, lb.dice_mode) {
                Ok(d) => d,
                Err(e) => {
                    let changed = b.records().len() != held;
                    if changed {
                        // A step after the command failed: what is in memory is
                        // not written. Load the battle again next time.
                        **guard = None;
                    }
                    return Err(refused_decide(e, changed, battle, &path));
                }
            };
        let decided = match cmd_id {
            Some(cid) => decided.command_id(seat, cid),
            None => decided,
        };
        let entries = decided.entries();
        let ends = decided.ends();
        let secret = lb.secret;
        match writer.append_async(decided) {
            Ok(written) => Ok(Decision::Queued {
                played: Played {
                    entries,
                    revealed: ends.then_some(secret),
                    again: false,
                    walked: false,
                },
                written,
                path,
            }),
            Err(g) => {
                // Not queued: what is in memory is not written.
                **guard = None;
                Err(self.gone(&path, g))
            }
        }
    }
}

impl Club {
    /// Walk the recorded line from the battle's head: the seat's command
    /// recorded next (`first`, a redo), then each step of the game's own
    /// recorded after it, as [`xenolog_saves::decide`] played them when the
    /// line was first made. The position is written (with the command id)
    /// on the campaign's writer thread; until it is, the slot is empty, so a
    /// failure leaves nothing in memory that is not on disk.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        guard: &mut Held<LiveBattle>,
        battle: ServerBattleId,
        first: xenolog_engine::Pending,
        entered: bool,
        seat: Actor,
        cmd_id: Option<&str>,
        path: &Path,
        writer: &Writer,
    ) -> Result<Played, ClubError> {
        let Some(mut live) = guard.take() else {
            return Err(ClubError::NoSuchBattle(battle));
        };
        let id = live.id;
        let id_campaign = live.campaign;
        let mut b = live.battle;
        let from = b.cursor();
        let mut walked = Vec::new();
        let mut next = Some(first);
        while let Some(p) = next.take() {
            match b.commit(p) {
                Ok(e) => walked.push(e),
                Err(_) => break,
            }
            next = b
                .due_step()
                .and_then(|step| {
                    b.prepare_json(Actor::SYSTEM, &step.command, entered.then(Vec::new))
                        .ok()
                })
                .filter(|p| matches!(p.kind, xenolog_engine::PendingKind::Redo { .. }));
        }
        // A battle never ends on a line it left: a take-back is refused
        // after the end. Should a recorded line end it, it is not walked
        // (the reveal is written only with an ending entry).
        if b.outcome().is_some() {
            // Nothing was written: the slot stays empty and the battle
            // loads again from its file, as it is there.
            return Err(ClubError::Rule(
                "walking the recorded line would end the battle here, and a line that ended is never taken back: give another command".to_owned(),
            ));
        }
        let cmd = cmd_id.map(str::to_owned);
        let entries = walked.clone();
        let saved = writer
            .run(move |c| {
                let r = match &cmd {
                    Some(cid) => c.save_position_for_command(id, &*b, from, seat, cid, &entries),
                    None => c.save_position_from(id, &*b, from),
                };
                (b, r)
            })
            .map_err(|g| self.gone(path, g))?;
        match saved {
            (b, Ok(())) => {
                live.battle = b;
                **guard = Some(live);
                self.tell_moved(id_campaign, id);
                Ok(Played {
                    entries: walked,
                    revealed: None,
                    again: false,
                    walked: true,
                })
            }
            (_, Err(e)) => {
                if matches!(e, xenolog_saves::SaveError::Unreachable(_)) {
                    self.lost(id_campaign);
                }
                Err(campaign_fail(path, e))
            }
        }
    }
}

/// What a seat is told when deciding its command failed. The command's
/// own refusal is the rule's words about it. When a step the game takes on
/// its own after the command fails, the game's words were made on the whole
/// state (they may name another seat's hidden card, or the next one of a
/// deck): the seat is told only that it failed and that nothing was
/// written; the words go to the server's log, for the operator.
fn refused_decide(
    e: xenolog_saves::SaveError,
    changed: bool,
    battle: ServerBattleId,
    file: &Path,
) -> ClubError {
    match e {
        xenolog_saves::SaveError::Play(p) if !changed => ClubError::Rule(p.to_string()),
        other if changed => {
            eprintln!(
                "serve: battle {battle}: the game's own step after a command failed: {other}"
            );
            ClubError::Campaign {
                file: file.display().to_string(),
                why: format!(
                    "the game's own step after this command failed in battle {battle}, so nothing \
                     was written and the battle is as it was (the server's log holds the game's \
                     words: they are made on the whole state, which this seat may not see)"
                ),
            }
        }
        other => ClubError::Campaign {
            file: file.display().to_string(),
            why: other.to_string(),
        },
    }
}

/// A roster battle that could not be set up or written: the campaign's
/// rules in their words, or the store's failure.
fn roster_fail(e: xenolog_saves::CampaignFail, path: &Path) -> ClubError {
    match e {
        xenolog_saves::CampaignFail::Save(e) => ClubError::Campaign {
            file: path.display().to_string(),
            why: e.to_string(),
        },
        other => ClubError::Rule(other.to_string()),
    }
}

/// A battle as `server_battles` holds it.
struct BattleRow {
    campaign: CampaignId,
    game: String,
    config: String,
    title: String,
    strict: bool,
    seats: usize,
    secret: Bytes32,
    commitment: Bytes32,
    started: Option<i64>,
    /// Dice entered by hand.
    entered: bool,
    /// Each seat's roster picks as JSON (`None`: no rosters).
    rosters: Option<String>,
}

impl BattleStore for Club {
    fn create_campaign(&self, name: &str) -> Result<CampaignInfo, ClubError> {
        let name = name.trim();
        let conn = self.conn()?;
        let next: i64 = conn
            .one("SELECT coalesce(max(id), 0) + 1 FROM campaigns", &[])
            .map_err(|e| self.sql(e))?;
        let file = match &self.pg {
            // A schema of the club's database.
            Some(url) => {
                let schema = format!("campaign_{next}");
                let made = Campaign::create_postgres(url, &schema, name)
                    .map_err(|e| campaign_fail(Path::new(&schema), e))?;
                // Made now, by one process, not by the first batches of
                // two processes at once (they would collide in the catalog).
                made.make_command_ids_table()
                    .map_err(|e| campaign_fail(Path::new(&schema), e))?;
                super::club_db::off_runtime(move || drop(made));
                schema
            }
            None => {
                let file = format!("{CAMPAIGNS}/{next}.xenolog");
                let path = self.dir.join(&file);
                std::fs::create_dir_all(self.dir.join(CAMPAIGNS)).map_err(|e| ClubError::File {
                    path: self.dir.display().to_string(),
                    why: format!("the campaigns folder cannot be made: {e}"),
                })?;
                Campaign::create(&path, name).map_err(|e| ClubError::Campaign {
                    file: path.display().to_string(),
                    why: e.to_string(),
                })?;
                file
            }
        };
        conn.execute(
            "INSERT INTO campaigns (id, file, name, created) VALUES (?1, ?2, ?3, ?4)",
            &[&next, &file, &name, &now()],
        )
        .map_err(|e| self.sql(e))?;
        Ok(CampaignInfo {
            id: next,
            name: name.to_owned(),
            file,
        })
    }

    fn campaigns(&self) -> Result<Vec<CampaignInfo>, ClubError> {
        let conn = self.conn()?;
        conn.rows(
            "SELECT id, name, file FROM campaigns ORDER BY id",
            &[],
            |r| {
                Ok(CampaignInfo {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    file: r.get(2)?,
                })
            },
        )
        .map_err(|e| self.sql(e))
    }

    fn create_battle(&self, b: NewBattle) -> Result<CreatedBattle, ClubError> {
        // A battle over rosters: an Alien Invasion battle whose picks the
        // campaign takes as it stands now (checked again when it starts).
        let rosters = if b.rosters.is_empty() {
            None
        } else {
            if b.game != "invasion" {
                return Err(ClubError::Battle(format!(
                    "a battle over the campaign's rosters is an Alien Invasion battle (game \"invasion\"), not \"{}\"",
                    b.game
                )));
            }
            let path = {
                let conn = self.conn()?;
                self.campaign_path(&*conn, b.campaign)?
            };
            let (config, picks) = (b.config.clone(), super::seat_picks(&b.rosters));
            let checked = self.reading(b.campaign, &path, move |c| {
                Ok(match c.check_roster_picks(&config, &picks) {
                    Ok(()) => Ok(()),
                    Err(xenolog_saves::CampaignFail::Save(e)) => return Err(e),
                    Err(other) => Err(other.to_string()),
                })
            })?;
            checked.map_err(ClubError::Battle)?;
            Some(serde_json::to_string(&b.rosters).unwrap_or_default())
        };
        let held = self.conn()?;
        let conn = self.db.begin(&held)?;
        self.campaign_path(&conn, b.campaign)?;
        // The game and its config are checked now, with a seed that is never
        // used: the battle itself starts when every seat has joined.
        let trial = games::new_battle_with(&b.game, 0, &b.config, b.strict)
            .map_err(|e| ClubError::Battle(e.to_string()))?;
        let seats = trial.seats();
        let title = match b.title.trim() {
            "" => trial.game_name().to_owned(),
            t => t.to_owned(),
        };
        let secret: Bytes32 = random_bytes().map_err(|e| ClubError::Random(e.to_string()))?;
        let commitment = fair::commitment(&secret);
        let id = conn
            .insert_id(
                "INSERT INTO server_battles
                 (campaign, game, config, title, strict, seats, secret, commitment, created, rosters)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                &[
                    &b.campaign,
                    &b.game,
                    &b.config.to_string(),
                    &title,
                    &b.strict,
                    &(seats.len() as i64),
                    &&secret[..],
                    &&commitment[..],
                    &now(),
                    &rosters,
                ],
            )
            .map_err(|e| self.sql(e))?;
        if b.entered_dice {
            conn.execute(
                "INSERT INTO server_battle_dice (server_battle, mode) VALUES (?1, 'entered')",
                &[&id],
            )
            .map_err(|e| self.sql(e))?;
        }
        conn.commit().map_err(|e| self.sql(e))?;
        Ok(CreatedBattle {
            id,
            seats,
            commitment,
        })
    }

    fn battles_of(&self, campaign: CampaignId) -> Result<Vec<BattleInfo>, ClubError> {
        let conn = self.conn()?;
        self.campaign_path(&*conn, campaign)?;
        conn.rows(
            "SELECT id, game, title, seats, battle IS NOT NULL,
                    EXISTS (SELECT 1 FROM server_battle_dice d WHERE d.server_battle = b.id),
                    strict
             FROM server_battles b WHERE campaign = ?1 ORDER BY id",
            &[&campaign],
            |r| {
                Ok(BattleInfo {
                    id: r.get(0)?,
                    game: r.get(1)?,
                    title: r.get(2)?,
                    seats: r.get::<i64>(3)? as usize,
                    started: r.get(4)?,
                    entered_dice: r.get(5)?,
                    strict: r.get(6)?,
                })
            },
        )
        .map_err(|e| self.sql(e))
    }

    fn join(&self, battle: ServerBattleId, seat: u8, nonce: Bytes32) -> Result<Joined, ClubError> {
        // One join of a battle at a time: the club file's connection is let
        // go before the battle is written to its campaign file (a slow
        // campaign holds no other request of the club), and two last joins
        // (one resent) still start it once.
        let gate = self
            .starting
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(battle)
            .or_default()
            .clone();
        let _one = gate.lock().unwrap_or_else(|p| p.into_inner());
        let conn = self.conn()?;
        let tx = self.db.begin(&conn)?;
        // Several processes on PostgreSQL (issue 31 P4): the gate above is
        // this process's only. The battle's row is locked for the join's
        // transaction, so the joins of one battle through any process
        // take turns: each reads the nonces the ones before it committed
        // (a seat given twice is `AlreadyJoined`, not a key violation; the
        // last join sees every seat, never two joins each seeing only its
        // own). SQLite's `IMMEDIATE` transaction is one writer already.
        let select = if self.pg.is_some() {
            "SELECT campaign, game, config, title, strict, seats, secret, commitment, battle,
                    EXISTS (SELECT 1 FROM server_battle_dice d WHERE d.server_battle = b.id),
                    rosters
             FROM server_battles b WHERE id = ?1 FOR UPDATE"
        } else {
            "SELECT campaign, game, config, title, strict, seats, secret, commitment, battle,
                    EXISTS (SELECT 1 FROM server_battle_dice d WHERE d.server_battle = b.id),
                    rosters
             FROM server_battles b WHERE id = ?1"
        };
        let row = tx
            .row(select, &[&battle], |r| {
                Ok::<_, DbError>(BattleRow {
                    campaign: r.get(0)?,
                    game: r.get(1)?,
                    config: r.get(2)?,
                    title: r.get(3)?,
                    strict: r.get(4)?,
                    seats: r.get::<i64>(5)? as usize,
                    secret: blob32(r.get(6)?),
                    commitment: blob32(r.get(7)?),
                    started: r.get(8)?,
                    entered: r.get(9)?,
                    rosters: r.get(10)?,
                })
            })
            .map_err(|e| self.sql(e))?
            .ok_or(ClubError::NoSuchBattle(battle))?;
        if usize::from(seat) >= row.seats {
            return Err(ClubError::NoSuchSeat {
                battle,
                seat,
                seats: row.seats,
            });
        }
        let given: Option<Vec<u8>> = tx
            .row(
                "SELECT nonce FROM server_nonces WHERE server_battle = ?1 AND seat = ?2",
                &[&battle, &seat],
                |r| r.get::<Vec<u8>>(0),
            )
            .map_err(|e| self.sql(e))?;
        match given {
            // The same nonce again (a resent join) is answered as the first time.
            Some(n) if n == nonce => {}
            Some(_) => return Err(ClubError::AlreadyJoined { battle, seat }),
            None => {
                tx.execute(
                    "INSERT INTO server_nonces (server_battle, seat, nonce, joined)
                     VALUES (?1, ?2, ?3, ?4)",
                    &[&battle, &seat, &&nonce[..], &now()],
                )
                .map_err(|e| self.sql(e))?;
            }
        }
        let nonces = tx
            .rows(
                "SELECT seat, nonce FROM server_nonces WHERE server_battle = ?1 ORDER BY seat",
                &[&battle],
                |r| {
                    Ok(SeatNonce {
                        seat: Actor(r.get(0)?),
                        nonce: blob32(r.get(1)?),
                        absent: false,
                    })
                },
            )
            .map_err(|e| self.sql(e))?;
        let joined: Vec<u8> = nonces.iter().map(|n| n.seat.0).collect();
        // The nonce is durable before the battle starts: a start that fails
        // is tried again by the same join resent.
        tx.commit().map_err(|e| self.sql(e))?;
        let path = self.campaign_path(&*conn, row.campaign)?;
        drop(conn);
        let mut started = row.started;
        if started.is_none() && nonces.len() == row.seats && self.pg.is_some() {
            // Every seat has joined: on PostgreSQL the start holds the
            // battle's row (another process's last join, or this join
            // resent through another process, waits for it and then finds
            // the battle started), so it starts once. The club's
            // connection is held meanwhile: one campaign transaction.
            let conn = self.conn()?;
            let tx = self.db.begin(&conn)?;
            let already: Option<i64> = tx
                .row(
                    "SELECT battle FROM server_battles WHERE id = ?1 FOR UPDATE",
                    &[&battle],
                    |r| r.get::<Option<i64>>(0),
                )
                .map_err(|e| self.sql(e))?
                .flatten();
            let id = match already {
                Some(id) => id,
                None => {
                    let id = self.start(path, battle, &row, nonces)?;
                    self.after_start()?;
                    tx.execute(
                        "UPDATE server_battles SET battle = ?2 WHERE id = ?1",
                        &[&battle, &id],
                    )
                    .map_err(|e| self.sql(e))?;
                    id
                }
            };
            tx.commit().map_err(|e| self.sql(e))?;
            started = Some(id);
        } else if started.is_none() && nonces.len() == row.seats {
            let id = self.start(path, battle, &row, nonces)?;
            self.after_start()?;
            self.conn()?
                .execute(
                    "UPDATE server_battles SET battle = ?2 WHERE id = ?1",
                    &[&battle, &id],
                )
                .map_err(|e| self.sql(e))?;
            started = Some(id);
        }
        if started.is_some() {
            // Started: a later join sees it in the club file, so its gate
            // is no longer needed (the map does not grow with the battles).
            self.starting
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&battle);
        }
        Ok(Joined {
            commitment: row.commitment,
            joined,
            seats: row.seats,
            started,
        })
    }
}

#[cfg(test)]
mod tests {
    /// Session 23: the new entries after the watchers' head, found walking
    /// back from the cursor, are those the whole line from the setup
    /// gives, for every head on a battle with a take-back's branch; a head
    /// off the live line is `None` (the line from the setup is read, and a
    /// `moved` told, as before).
    #[test]
    fn s23_the_entries_after_a_head_walked_back_are_those_of_the_whole_line() {
        let mut b =
            xenolog_engine::games::new_battle("race", 7, &serde_json::json!({"target": 1000}))
                .unwrap();
        let play = |b: &mut Box<dyn Battle>, n: usize| {
            for _ in 0..n {
                let seat = b.legal().first().map(|l| l.actor).unwrap();
                let p = b
                    .prepare_json(seat, &serde_json::json!("hold"), None)
                    .unwrap();
                b.commit(p).unwrap();
            }
        };
        play(&mut b, 6);
        let old_line = b.path_to(b.cursor());
        // A take-back to the third entry, and a new line from there.
        b.seek(Some(old_line[2]));
        play(&mut b, 5);
        let cursor = b.cursor();
        let line = b.path_to(cursor);
        assert_ne!(line, old_line, "a second line was made");
        let mut on = 0;
        for h in 0..b.records().len() as EntryId {
            let walked = after_on_line(&*b, h, cursor);
            match line.iter().position(|e| *e == h) {
                Some(at) => {
                    on += 1;
                    assert_eq!(walked, Some(line[at + 1..].to_vec()), "head {h}");
                    let r = refreshed(&*b, Some(h), false, None);
                    assert_eq!((r.entries, r.moved), (line[at + 1..].to_vec(), None));
                }
                None => assert_eq!(walked, None, "head {h} is off the live line"),
            }
        }
        assert_eq!(
            on,
            line.len(),
            "every entry of the line was tried as the head"
        );
    }

    use super::super::club_db::MIGRATIONS;
    use super::super::club_tokens::DAY;
    use super::*;

    fn club() -> (tempfile::TempDir, Club) {
        let dir = tempfile::tempdir().unwrap();
        let club = Club::open(&dir.path().join(CLUB_FILE)).unwrap();
        (dir, club)
    }

    /// A club with a campaign and a started race to 1,000 in it.
    fn club_with_race() -> (tempfile::TempDir, Club, CampaignId, ServerBattleId) {
        let (dir, club) = club();
        let c = club.create_campaign("Club").unwrap();
        let battle = started_race(&club, c.id, 1_000);
        (dir, club, c.id, battle)
    }

    /// A two-seat race in `campaign`, to be created.
    fn race(campaign: CampaignId, config: Value, entered_dice: bool) -> NewBattle {
        NewBattle {
            campaign,
            game: "race".into(),
            config,
            title: String::new(),
            strict: false,
            entered_dice,
            rosters: Vec::new(),
        }
    }

    /// Seat `seat` holds in `battle` against the head `at`.
    fn hold(
        club: &Club,
        battle: ServerBattleId,
        seat: u8,
        at: Option<EntryId>,
        cmd_id: Option<&str>,
    ) -> Result<Played, ClubError> {
        club.play(battle, Actor(seat), at, &serde_json::json!("hold"), cmd_id)
    }

    /// The head of `battle` as the club holds it.
    fn head(club: &Club, battle: ServerBattleId) -> Option<EntryId> {
        let mut head = None;
        club.read(battle, &mut |b| head = b.cursor()).unwrap();
        head
    }

    /// The battle the club file records for server battle `b`.
    fn recorded(club: &Club, b: ServerBattleId) -> Option<i64> {
        club.conn()
            .unwrap()
            .one("SELECT battle FROM server_battles WHERE id = ?1", &[&b])
            .unwrap()
    }

    /// Wait for `done`, 60 s at the most (a slow machine under load is
    /// given time; only a hang fails).
    fn until(what: &str, mut done: impl FnMut() -> bool) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !done() {
            assert!(
                std::time::Instant::now() < deadline,
                "{what}: not within 60 s"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// Review of session 16: the tokens live in memory, so a second
    /// server on one data folder would accept a token the first revoked.
    /// The club file is held by one server at a time; a second is refused
    /// in words naming the folder and the running one, having changed
    /// nothing, and the folder opens again once the first has closed it.
    #[test]
    fn a_second_server_on_one_club_folder_is_refused_in_words_naming_the_folder_and_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let first = ClubStore::open(dir.path()).unwrap();
        let inv = first.tokens().organiser_invitation(false).unwrap().unwrap();
        let org = first.tokens().redeem(&inv.code, None, None).unwrap();
        let token = org.token.unwrap();
        let id = org.principal.token;
        first.tokens().revoke(id).unwrap();
        let refused = match ClubStore::open(dir.path()) {
            Ok(_) => panic!("a second server opened the club folder the first holds"),
            Err(e) => e,
        };
        assert!(matches!(refused, ClubError::Held { .. }), "{refused:?}");
        let words = refused.to_string();
        assert!(
            words.contains("another xenolog serve holds this club folder"),
            "{words}"
        );
        assert!(
            words.contains(&dir.path().display().to_string()),
            "the folder: {words}"
        );
        assert!(
            words.contains(&format!("process {}", std::process::id())),
            "the running one: {words}"
        );
        // The first goes on; stopped, the folder opens, the token still
        // revoked.
        assert!(matches!(
            first.tokens().authenticate(&token),
            Err(ClubError::UnknownToken | ClubError::RevokedToken)
        ));
        drop(first);
        let again = ClubStore::open(dir.path()).unwrap();
        assert!(matches!(
            again.tokens().authenticate(&token),
            Err(ClubError::UnknownToken | ClubError::RevokedToken)
        ));
    }

    /// Review of session 13: a decide that panics half-way leaves its
    /// slot holding an entry that was never written. The slot is emptied
    /// as the panicking holder lets go (the battle reloads from its file),
    /// and is usable again afterwards.
    #[test]
    fn a_slot_whose_holder_panicked_is_emptied_so_the_battle_reloads_from_disk() {
        let slot: Slot<u32> = Arc::new(tokio::sync::Mutex::new(Some(7u32)));
        let held = Arc::clone(&slot);
        let panicked = std::thread::spawn(move || {
            let mut g = Club::hold(&held);
            *g = Some(8); // decided in memory, never written
            panic!("an engine step failed");
        })
        .join();
        assert!(panicked.is_err());
        assert_eq!(*Club::hold(&slot), None, "nothing unwritten is kept");
        *Club::hold(&slot) = Some(9);
        assert_eq!(*Club::hold(&slot), Some(9), "the slot is usable again");
    }

    /// A command whose write is awaited by a task that goes away before
    /// the write is known durable leaves nothing in memory: its battle is
    /// read again from its file (which has the command or not, as the
    /// writer left it; never something only memory holds).
    #[test]
    fn a_held_slot_dropped_before_its_write_settled_is_emptied() {
        let slot: Slot<u32> = Arc::new(tokio::sync::Mutex::new(Some(7u32)));
        let mut g = Club::hold(&slot);
        *g = Some(8);
        g.unsettled = true;
        drop(g);
        assert_eq!(*Club::hold(&slot), None);
        let mut g = Club::hold(&slot);
        *g = Some(9);
        g.unsettled = true;
        g.unsettled = false; // durable
        drop(g);
        assert_eq!(*Club::hold(&slot), Some(9));
    }

    /// Session 21 (club_pg_fault's table hold, failed once under load): a
    /// write refused busy empties its battle's slot; a notification of an
    /// entry stored before it (this process's own earlier part, heard late)
    /// is known as held, so its watchers are not closed as for a battle not
    /// in memory; an entry of that refused write, or after it, is not.
    #[test]
    fn after_a_busy_write_the_entries_stored_before_it_are_known_held() {
        let (_dir, club) = club();
        let c = club.create_campaign("Club").unwrap();
        let battle = started_race(&club, c.id, 1_000);
        let first = hold(&club, battle, 0, None, Some("c-1")).unwrap();
        let stored = first.entries.len() as u64;
        assert!(club.holds_entry(battle, stored - 1));
        let slot = club.slot(battle);
        let mut g = Club::hold(&slot);
        g.unsettled = true;
        let refused = settle(
            g,
            Ok(Err(Unwritten::Busy("held by another session".into()))),
            Played {
                entries: vec![stored, stored + 1],
                revealed: None,
                again: false,
                walked: false,
            },
            Path::new("campaign_1"),
            (&club.emptied_busy, battle),
        );
        assert!(matches!(refused, Err(ClubError::Busy)), "{refused:?}");
        assert!(Club::hold(&slot).is_none(), "the slot is emptied");
        for seq in 0..stored {
            assert!(
                club.holds_entry(battle, seq),
                "entry {seq} was stored and sent"
            );
        }
        assert!(
            !club.holds_entry(battle, stored),
            "the refused write's entry"
        );
        assert!(!club.holds_entry(battle, stored + 5));
        // Loaded again on its next use, the battle itself answers.
        let next = hold(&club, battle, 1, Some(stored - 1), Some("c-2")).unwrap();
        assert_eq!(next.entries.first().copied(), Some(stored));
        assert!(club.holds_entry(battle, stored));
        assert!(
            !club.emptied_busy.lock().unwrap().contains_key(&battle),
            "forgotten once loaded again"
        );
    }

    #[test]
    fn the_first_start_makes_one_organiser_invitation_and_later_starts_none() {
        let (_dir, club) = club();
        let first = club
            .organiser_invitation(false)
            .unwrap()
            .expect("first start");
        let redeemed = club.redeem(&first.code, None, None).unwrap();
        assert_eq!(redeemed.principal.role, Role::Organiser);
        assert!(club.organiser_invitation(false).unwrap().is_none());
        // --invite-organiser makes another one even so.
        assert!(club.organiser_invitation(true).unwrap().is_some());
    }

    #[test]
    fn a_new_organiser_invitation_voids_the_one_printed_before() {
        let (_dir, club) = club();
        let old = club.organiser_invitation(false).unwrap().unwrap();
        let new = club.organiser_invitation(false).unwrap().unwrap();
        assert!(matches!(
            club.redeem(&old.code, None, None),
            Err(ClubError::UnknownCode)
        ));
        club.redeem(&new.code, None, None).unwrap();
    }

    #[test]
    fn only_hashes_are_stored() {
        let (dir, club) = club();
        let inv = club.organiser_invitation(false).unwrap().unwrap();
        let token = club.redeem(&inv.code, None, None).unwrap().token.unwrap();
        drop(club);
        let mut bytes = std::fs::read(dir.path().join(CLUB_FILE)).unwrap();
        if let Ok(wal) = std::fs::read(dir.path().join(format!("{CLUB_FILE}-wal"))) {
            bytes.extend(wal);
        }
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(token.expose()));
        assert!(!text.contains(&token.expose()[6..]));
        assert!(!text.contains(&inv.code.expose()[5..].replace('-', "")));
        // The hash is there: that is how the token is found.
        let hash = token.hash();
        assert!(bytes.windows(32).any(|w| w == hash));
    }

    #[test]
    fn an_invitation_is_spent_once() {
        let (_dir, club) = club();
        let inv = club
            .invite_at(Role::Player, "Anna", 7, now(), None)
            .unwrap();
        let first = club.redeem(&inv.code, None, None).unwrap();
        assert_eq!(first.principal.label, "Anna");
        assert!(matches!(
            club.redeem(&inv.code, None, None),
            Err(ClubError::SpentCode)
        ));
        assert_eq!(club.tokens().unwrap().len(), 1);
    }

    #[test]
    fn an_invitation_expires() {
        let (_dir, club) = club();
        let t0 = now();
        let inv = club.invite_at(Role::Player, "Anna", 7, t0, None).unwrap();
        let late = club.redeem_at(&inv.code, None, None, t0 + 8 * DAY);
        assert!(
            matches!(&late, Err(ClubError::ExpiredCode(w)) if w == "a day ago"),
            "{late:?}"
        );
        assert!(club.tokens().unwrap().is_empty(), "nothing was made");
        club.redeem_at(&inv.code, None, None, t0 + 6 * DAY).unwrap();
    }

    #[test]
    fn a_revoked_token_opens_nothing() {
        let (_dir, club) = club();
        let inv = club
            .invite_at(Role::Player, "Anna", 7, now(), None)
            .unwrap();
        let r = club.redeem(&inv.code, None, None).unwrap();
        let token = r.token.unwrap();
        assert_eq!(club.authenticate(&token).unwrap().token, r.principal.token);
        let info = club.revoke(r.principal.token).unwrap();
        assert!(info.revoked.is_some());
        assert!(matches!(
            club.authenticate(&token),
            Err(ClubError::RevokedToken)
        ));
        assert!(matches!(club.revoke(99), Err(ClubError::NoSuchToken(99))));
        assert!(matches!(
            club.authenticate(&Token::from_text("xnl_p_nothing")),
            Err(ClubError::UnknownToken)
        ));
    }

    /// Session 16: a hello finds its token in memory (filled when the club
    /// file opens, kept in step by redeem and revoke) and writes nothing;
    /// the time it was used is written when the tokens are listed, or the
    /// club file closes.
    #[test]
    fn a_hello_writes_nothing_and_its_time_is_written_when_the_tokens_are_listed() {
        let (dir, club) = club();
        let inv = club
            .invite_at(Role::Player, "Anna", 7, now(), None)
            .unwrap();
        let r = club.redeem(&inv.code, None, None).unwrap();
        let (token, id) = (r.token.unwrap(), r.principal.token);
        let stored = |club: &Club| -> i64 {
            club.conn()
                .unwrap()
                .one("SELECT last_used FROM tokens WHERE id = ?1", &[&id])
                .unwrap()
        };
        club.conn()
            .unwrap()
            .execute("UPDATE tokens SET last_used = 1 WHERE id = ?1", &[&id])
            .unwrap();
        assert_eq!(club.authenticate(&token).unwrap().label, "Anna");
        assert_eq!(stored(&club), 1, "the hello wrote nothing");
        let listed = club.tokens().unwrap();
        let anna = listed.iter().find(|t| t.id == id).unwrap();
        assert!(anna.last_used.unwrap() > 1, "{anna:?}");
        assert!(stored(&club) > 1);
        // Again, then the club file closes (the server stops): written.
        club.conn()
            .unwrap()
            .execute("UPDATE tokens SET last_used = 1 WHERE id = ?1", &[&id])
            .unwrap();
        club.authenticate(&token).unwrap();
        drop(club);
        let club = Club::open(&dir.path().join(CLUB_FILE)).unwrap();
        assert!(stored(&club) > 1);
        // Opened again, the token is known from the file.
        assert_eq!(club.authenticate(&token).unwrap().token, id);
    }

    /// Club migration 5 makes `server_battle_dice`, which session 14 made
    /// on opening: a club file of session 14 (version 4, the table and its
    /// rows there) and an older one (version 3, no table) both open, at
    /// the latest version, their battles as they were.
    #[test]
    fn club_files_made_before_migration_5_open_with_their_entered_dice() {
        let (_dir, club) = club();
        let c = club.create_campaign("Club").unwrap();
        let made = |club: &Club, entered_dice| {
            let new = race(c.id, serde_json::json!({}), entered_dice);
            club.create_battle(new).unwrap().id
        };
        let (entered, rolled) = (made(&club, true), made(&club, false));
        let path = club.path.clone();
        drop(club);
        // As session 14 left it: version 4, the table made on opening (and
        // nothing of the migrations after 5).
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "ALTER TABLE server_battles DROP COLUMN rosters; PRAGMA user_version = 4;",
        )
        .unwrap();
        drop(conn);
        let club = Club::open(&path).unwrap();
        let version: i64 = club
            .conn()
            .unwrap()
            .one("PRAGMA user_version", &[])
            .unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);
        let dice: Vec<(ServerBattleId, bool)> = club
            .battles_of(c.id)
            .unwrap()
            .iter()
            .map(|b| (b.id, b.entered_dice))
            .collect();
        assert_eq!(dice, vec![(entered, true), (rolled, false)]);
        drop(club);
        // Older still: version 3, no table at all.
        let older = tempfile::tempdir().unwrap();
        let old = older.path().join(CLUB_FILE);
        let mut conn = rusqlite::Connection::open(&old).unwrap();
        let ms: Vec<rusqlite_migration::M<'static>> = MIGRATIONS
            .iter()
            .map(|m| rusqlite_migration::M::up(m))
            .collect();
        rusqlite_migration::Migrations::new(ms)
            .to_version(&mut conn, 3)
            .unwrap();
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 'server_battle_dice'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0);
        drop(conn);
        let club = Club::open(&old).unwrap();
        let c = club.create_campaign("Old").unwrap();
        let b = club
            .create_battle(race(c.id, serde_json::json!({}), true))
            .unwrap();
        assert!(club.battles_of(c.id).unwrap()[0].entered_dice, "{}", b.id);
    }

    #[test]
    fn a_campaign_file_is_not_a_club_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.sqlite");
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("PRAGMA application_id = 1; PRAGMA user_version = 3;")
            .unwrap();
        drop(conn);
        let err = Club::open(&path).err().expect("refused");
        assert!(err.to_string().contains("not a Xenolog club file"), "{err}");
    }

    /// A campaign with a started two-seat race (target `target`): the club,
    /// and the battle's server id.
    fn started_race(club: &Club, campaign: CampaignId, target: u32) -> ServerBattleId {
        let config = serde_json::json!({ "target": target });
        let b = club.create_battle(race(campaign, config, false)).unwrap();
        for seat in 0..2u8 {
            club.join(b.id, seat, [seat + 1; 32]).unwrap();
        }
        b.id
    }

    /// Review of session 15, item 8: the server stops after a battle's
    /// start is written to its campaign file and before the club file
    /// records it. The resent last join finds that battle (by the secret
    /// its campaign copy holds) and records it: no second battle.
    #[test]
    fn a_start_the_club_file_never_recorded_is_found_again_not_started_twice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CLUB_FILE);
        let club = Club::open(&path).unwrap();
        let c = club.create_campaign("Club").unwrap();
        let battle = started_race(&club, c.id, 1_000);
        let first = recorded(&club, battle);
        assert!(first.is_some());
        // The crash between the two writes: the club file's record is lost.
        club.conn()
            .unwrap()
            .execute(
                "UPDATE server_battles SET battle = NULL WHERE id = ?1",
                &[&battle],
            )
            .unwrap();
        drop(club);
        let club = Club::open(&path).unwrap();
        let again = club.join(battle, 1, [2; 32]).unwrap();
        assert_eq!(
            again.started, first,
            "the battle written is the one recorded"
        );
        let file = club.campaign_path(&*club.conn().unwrap(), c.id).unwrap();
        let held = xenolog_saves::Campaign::open_read_only(&file)
            .unwrap()
            .battles()
            .unwrap();
        assert_eq!(held.len(), 1, "one battle in the campaign file: {held:?}");
    }

    /// A database of its own on the test cluster (`XENOLOG_TEST_PG`; with
    /// `XENOLOG_REQUIRE_PG` a missing cluster fails), dropped after.
    struct TestDb {
        admin: String,
        name: String,
        url: String,
    }

    impl TestDb {
        fn new() -> Option<TestDb> {
            let admin = xenolog_saves::db::pg::test_cluster()?;
            let mut r = [0u8; 6];
            getrandom::fill(&mut r).unwrap();
            let name = format!(
                "t_{}",
                r.iter().map(|b| format!("{b:02x}")).collect::<String>()
            );
            xenolog_saves::db::pg::Postgres::connect(&admin)
                .unwrap()
                .execute_batch(&format!("CREATE DATABASE {name} TEMPLATE template0"))
                .unwrap();
            let url = xenolog_saves::db::pg::with_dbname(&admin, &name);
            Some(TestDb { admin, name, url })
        }
    }

    impl Drop for TestDb {
        fn drop(&mut self) {
            if let Ok(pg) = xenolog_saves::db::pg::Postgres::connect(&self.admin) {
                let _ = pg.execute_batch(&format!(
                    "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                    self.name
                ));
            }
        }
    }

    /// The battles campaign `id` of `club` holds, read on a connection
    /// of the test's own.
    fn battles_held(club: &Club, id: CampaignId) -> usize {
        let file = club.campaign_path(&*club.conn().unwrap(), id).unwrap();
        let c = match &club.pg {
            None => Campaign::open_read_only(&file),
            Some(url) => Campaign::open_postgres_read_only(url, &file.to_string_lossy()),
        };
        c.unwrap().battles().unwrap().len()
    }

    /// review4 S5: the last join writes the battle to its campaign, and
    /// the club's record of it fails (on PostgreSQL the club's connection
    /// is ended between the two, for real: its transaction, which holds
    /// the battle's row, is lost). The join is answered with an error; the
    /// join resent finds the battle written (by the secret its campaign
    /// copy holds) and records it: the campaign holds one battle, never an
    /// orphan and a second.
    fn a_start_whose_record_failed(
        club: &Club,
        kill: impl Fn() -> Result<(), ClubError> + Send + Sync + 'static,
    ) {
        let c = club.create_campaign("Club").unwrap();
        let config = serde_json::json!({ "target": 1_000 });
        let b = club.create_battle(race(c.id, config, false)).unwrap();
        let first = club.join(b.id, 0, [1; 32]).unwrap();
        assert_eq!(first.started, None);
        let fired = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = fired.clone();
        let kill: Box<dyn Fn() -> Result<(), ClubError> + Send + Sync> = Box::new(move || {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            kill()
        });
        *club.after_start.lock().unwrap() = Some(kill);
        let lost = club.join(b.id, 1, [2; 32]);
        *club.after_start.lock().unwrap() = None;
        assert_eq!(fired.load(std::sync::atomic::Ordering::SeqCst), 1);
        let e = lost.expect_err("the club's record of the start failed");
        assert_eq!(battles_held(club, c.id), 1, "the start was written: {e}");
        assert_eq!(
            recorded(club, b.id),
            None,
            "the club did not record it: {e}"
        );
        // The join resent (the client's answer was lost): started once.
        let again = club.join(b.id, 1, [2; 32]).unwrap();
        let started = again.started.expect("the resent last join starts it");
        assert_eq!(battles_held(club, c.id), 1, "one battle, not two");
        assert_eq!(
            recorded(club, b.id),
            Some(started),
            "the battle written is recorded"
        );
        let seat0 = club.join(b.id, 0, [1; 32]).unwrap();
        assert_eq!(seat0.started, Some(started));
        assert_eq!(battles_held(club, c.id), 1);
    }

    #[test]
    fn review4_s5_a_start_whose_club_record_failed_is_found_again_on_sqlite() {
        let (_dir, club) = club();
        a_start_whose_record_failed(&club, || Err(ClubError::Unavailable));
    }

    #[test]
    fn review4_s5_a_start_whose_club_connection_was_ended_is_found_again_on_postgres() {
        let Some(db) = TestDb::new() else {
            return;
        };
        let club = Club::open_postgres(&db.url, "club").unwrap();
        let pid: i64 = club
            .conn()
            .unwrap()
            .one("SELECT pg_backend_pid()::bigint", &[])
            .unwrap();
        let url = db.url.clone();
        a_start_whose_record_failed(&club, move || {
            let admin = xenolog_saves::db::pg::Postgres::connect(&url).unwrap();
            admin
                .execute_batch(&format!("SELECT pg_terminate_backend({pid})"))
                .unwrap();
            // Gone before the club's next statement.
            until("the club's connection ends", || {
                let left: i64 = admin
                    .one(
                        "SELECT count(*) FROM pg_stat_activity WHERE pid::bigint = ?1",
                        &[&pid],
                    )
                    .unwrap();
                left == 0
            });
            Ok(())
        });
        drop(club);
    }

    /// review4 S3: on PostgreSQL the club's readers of a campaign open it
    /// read-only (as a file's readers are): every write refused, no seal
    /// or upgrade tried; a battle still loads through them.
    #[test]
    fn review4_s3_a_clubs_campaign_readers_on_postgres_open_read_only() {
        let Some(db) = TestDb::new() else {
            return;
        };
        let club = Club::open_postgres(&db.url, "club").unwrap();
        let c = club.create_campaign("Club").unwrap();
        let battle = started_race(&club, c.id, 1_000);
        let file = club.campaign_path(&*club.conn().unwrap(), c.id).unwrap();
        let reader = club.open_reader(&file).unwrap();
        assert!(reader.is_read_only(), "a reader opens read-only");
        let mut reader = reader;
        let e = reader
            .new_battle(
                "race",
                1,
                &serde_json::json!({ "target": 5 }),
                "R",
                DiceMode::Rolled,
            )
            .unwrap_err();
        assert!(matches!(e, xenolog_saves::SaveError::ReadOnly), "{e}");
        drop(reader);
        let (_, _, id, _) = club.located(battle).unwrap();
        let loaded = club
            .reading(c.id, &file, |r| {
                assert!(r.is_read_only());
                r.load_battle(id)
            })
            .unwrap();
        assert!(loaded.outcome().is_none(), "the race just started");
        drop(club);
    }

    #[test]
    fn a_command_resent_after_a_restart_is_answered_again_not_decided_twice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CLUB_FILE);
        let club = Club::open(&path).unwrap();
        let c = club.create_campaign("Club").unwrap();
        let battle = started_race(&club, c.id, 1_000);
        let first = hold(&club, battle, 0, None, Some("c-1")).unwrap();
        assert!(!first.again);
        // The server goes down before its reply reaches the client: the
        // command id went to disk in the entries' own transaction.
        drop(club);
        let club = Club::open(&path).unwrap();
        let again = hold(&club, battle, 0, None, Some("c-1")).unwrap();
        assert!(again.again, "answered as the first time");
        assert_eq!(again.entries, first.entries);
        let mut held = 0;
        club.read(battle, &mut |b| held = b.records().len())
            .unwrap();
        assert_eq!(held, first.entries.len(), "decided once");
        // Another seat's id of the same name is another command.
        let other = hold(&club, battle, 0, None, Some("c-2"));
        assert!(matches!(other, Err(ClubError::Stale(_))), "{other:?}");
    }

    #[test]
    fn one_battle_held_does_not_hold_another() {
        let (_dir, club) = club();
        let club = std::sync::Arc::new(club);
        let c = club.create_campaign("Club").unwrap();
        let a = started_race(&club, c.id, 1_000);
        let b = started_race(&club, c.id, 1_000);
        let (held_tx, held_rx) = std::sync::mpsc::channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let holder = {
            let club = club.clone();
            std::thread::spawn(move || {
                club.read(a, &mut |_| {
                    held_tx.send(()).unwrap();
                    // Battle a is busy (a slow decide) until released.
                    let _ = release_rx.recv();
                })
                .unwrap();
            })
        };
        held_rx.recv().unwrap();
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let player = {
            let club = club.clone();
            std::thread::spawn(move || {
                let r = hold(&club, b, 0, None, None);
                done_tx.send(r.map(|p| p.entries)).unwrap();
            })
        };
        let played = done_rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("battle b is decided and written while battle a is held");
        assert_eq!(played.unwrap(), vec![0]);
        // Battle a's own command waits its turn.
        let (a_tx, a_rx) = std::sync::mpsc::channel();
        let waiting = {
            let club = club.clone();
            std::thread::spawn(move || {
                let r = hold(&club, a, 0, None, None);
                a_tx.send(r.map(|p| p.entries)).unwrap();
            })
        };
        assert!(
            a_rx.recv_timeout(std::time::Duration::from_millis(300))
                .is_err(),
            "battle a is busy: its command waits"
        );
        release_tx.send(()).unwrap();
        assert_eq!(a_rx.recv().unwrap().unwrap(), vec![0]);
        for t in [holder, player, waiting] {
            t.join().unwrap();
        }
    }

    /// Seat 0 holds in `battle` with `cmd_id`: decided on this thread,
    /// `frames` made, its write queued and not awaited.
    fn hold_begun(
        club: &Club,
        battle: ServerBattleId,
        cmd_id: &str,
        frames: &mut MakeFrames<'_>,
    ) -> Result<Playing, ClubError> {
        let hold = serde_json::json!("hold");
        club.play_begin(battle, Actor(0), None, &hold, None, Some(cmd_id), frames)
    }

    /// What a begun command made, once its write is durable.
    fn settled(playing: Playing) -> Played {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(playing.settled()).unwrap()
    }

    #[test]
    fn appends_queued_while_the_writer_is_busy_share_one_transaction() {
        let (_dir, club) = club();
        let c = club.create_campaign("Club").unwrap();
        let battles: Vec<ServerBattleId> =
            (0..6).map(|_| started_race(&club, c.id, 1_000)).collect();
        // Load every battle first, so that only appends go to the writer below.
        for b in &battles {
            club.read(*b, &mut |_| {}).unwrap();
        }
        let writer = club.writer(c.id, &club.path_of(c.id).unwrap()).unwrap();
        let before = writer.stats();
        // The writer is busy (a long fsync, say) while six battles' commands
        // are decided and their appends queued.
        let (release, busy) = busy_writer(&club, c.id);
        let playing: Vec<Playing> = battles
            .iter()
            .map(|b| hold_begun(&club, *b, "h", &mut |_, _, _| {}).unwrap())
            .collect();
        release.send(()).unwrap();
        busy.join().unwrap();
        for p in playing {
            assert_eq!(settled(p).entries, vec![0]);
        }
        let after = writer.stats();
        let (transactions, appends) = (after.0 - before.0, after.1 - before.1);
        assert_eq!(appends, 6);
        assert!(
            transactions < appends,
            "{appends} appends in {transactions} transactions: they were grouped"
        );
        for b in &battles {
            let again = hold(&club, *b, 0, None, Some("h")).unwrap();
            assert!(
                again.again,
                "each command id went with its own battle's entries"
            );
        }
    }

    /// A job queued after an append runs after that append is written: it
    /// sees the file as every request before it left it. The append is
    /// queued behind a busy job before the look is (it was `play` on a
    /// thread and a 300 ms sleep, which a loaded machine could overtake).
    #[test]
    fn a_job_queued_after_an_append_sees_it_written() {
        let (_dir, club, c, battle) = club_with_race();
        club.read(battle, &mut |_| {}).unwrap();
        let writer = club.writer(c, &club.path_of(c).unwrap()).unwrap();
        let (release, busy) = busy_writer(&club, c);
        // The append is queued behind the busy job; then a job that looks.
        let playing = hold_begun(&club, battle, "h", &mut |_, _, _| {}).unwrap();
        let looker = std::thread::spawn(move || {
            writer
                .run(|c| {
                    let id = c.battles().unwrap()[0].id;
                    c.command_entries(id, Actor(0), "h").unwrap()
                })
                .unwrap()
        });
        release.send(()).unwrap();
        busy.join().unwrap();
        assert_eq!(settled(playing).entries, vec![0]);
        assert_eq!(
            looker.join().unwrap(),
            Some(vec![0]),
            "the job ran before the append queued ahead of it was written"
        );
    }

    /// Play a race to its end with command ids; the last command's id and
    /// seat, and what it made.
    fn race_to_the_end(club: &Club, battle: ServerBattleId) -> (Actor, String, Played) {
        for n in 0..400 {
            let (mut seat, mut total, mut head) = (Actor(0), 0, None);
            club.read(battle, &mut |b| {
                seat = b.to_move().unwrap();
                head = b.cursor();
                total = b.state_json(b.cursor())["turn_total"].as_u64().unwrap();
            })
            .unwrap();
            let command = if total > 0 {
                serde_json::json!("hold")
            } else {
                serde_json::json!({"roll": {"dice": 1}})
            };
            let cid = format!("c{n}");
            let played = club.play(battle, seat, head, &command, Some(&cid)).unwrap();
            if played.revealed.is_some() {
                return (seat, cid, played);
            }
        }
        panic!("the race ends");
    }

    #[test]
    fn a_resent_command_that_ended_the_battle_is_answered_over() {
        let (_dir, club) = club();
        let c = club.create_campaign("Club").unwrap();
        let battle = started_race(&club, c.id, 3);
        let first = club
            .play(
                battle,
                Actor(0),
                None,
                &serde_json::json!({"roll": {"dice": 1}}),
                Some("first"),
            )
            .unwrap();
        let (seat, cid, last) = race_to_the_end(&club, battle);
        let again = hold(&club, battle, seat.0, None, Some(&cid)).unwrap();
        assert!(again.again);
        assert_eq!(again.entries, last.entries);
        assert_eq!(again.revealed, last.revealed, "over, with the secret");
        let early = hold(&club, battle, 0, None, Some("first")).unwrap();
        assert!(early.again);
        assert_eq!(early.entries, first.entries);
        assert_eq!(early.revealed, None, "that command did not end it");
    }

    /// Session 21 (a flaky end of `gui_club`'s game played to the end): a
    /// seat's command chosen before the other seat's last command ended the
    /// battle names an older head: it is stale (moved on, to the end), not
    /// "over"; a command at the last head is over.
    #[test]
    fn a_command_for_an_older_head_after_the_end_is_stale_and_says_the_battle_ended() {
        let (_dir, club) = club();
        let c = club.create_campaign("Club").unwrap();
        let battle = started_race(&club, c.id, 3);
        let (seat, _, last) = race_to_the_end(&club, battle);
        let before = last.entries[0].checked_sub(1);
        let other = Actor(1 - seat.0);
        let e = hold(&club, battle, other.0, before, Some("late")).unwrap_err();
        match &e {
            ClubError::Stale(words) => {
                assert!(words.ends_with(", where the battle ended"), "{words}")
            }
            e => panic!("stale expected: {e:?}"),
        }
        let text = e.to_string();
        assert!(
            text.contains("moved on before your command")
                && text.ends_with("nothing more can be played in it")
                && !text.contains("give the command again"),
            "{text}"
        );
        let at_end = head(&club, battle);
        let e = hold(&club, battle, other.0, at_end, Some("later")).unwrap_err();
        assert!(matches!(e, ClubError::Over(b) if b == battle), "{e:?}");
    }

    #[test]
    fn a_panic_on_the_writer_thread_is_answered_in_words_and_the_campaign_goes_on() {
        let (_dir, club, c, battle) = club_with_race();
        let path = club.path_of(c).unwrap();
        let writer = club.writer(c, &path).unwrap();
        let r = writer.run(|_| -> () { panic!("a bug in a job") });
        let words = r.unwrap_err().0.expect("answered in words");
        // The panic's own words stay in the server's log (they may come
        // from game code on the whole state: principle 14).
        assert!(!words.contains("a bug in a job"), "{words}");
        assert!(words.contains("the campaign goes on"), "{words}");
        // Counted once the thread has opened the file again.
        until("the panic is counted", || writer.panics() >= 1);
        assert_eq!(writer.panics(), 1);
        assert!(!writer.is_dead());
        // The same writer writes the next command.
        let played = hold(&club, battle, 0, None, None).unwrap();
        assert_eq!(played.entries, vec![0]);
        assert!(Arc::ptr_eq(&writer, &club.writer(c, &path).unwrap()));
    }

    #[test]
    fn a_writer_that_died_is_replaced_on_its_next_use() {
        let (_dir, club, c, battle) = club_with_race();
        let path = club.path_of(c).unwrap();
        let writer = club.writer(c, &path).unwrap();
        // The file is away when the writer opens it again after a panic:
        // its thread ends.
        let away = path.with_extension("away");
        let (p, a) = (path.clone(), away.clone());
        let _ = writer.run(move |_| {
            std::fs::rename(&p, &a).unwrap();
            panic!("a bug in a job");
        });
        until("the writer's thread ends", || writer.is_dead());
        std::fs::rename(&away, &path).unwrap();
        let played = hold(&club, battle, 0, None, None).unwrap();
        assert_eq!(played.entries, vec![0], "a new writer wrote it");
        assert!(!Arc::ptr_eq(&writer, &club.writer(c, &path).unwrap()));
    }

    /// Keep campaign `c`'s writer busy until the sender is dropped or sent to.
    fn busy_writer(
        club: &Club,
        c: CampaignId,
    ) -> (std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>) {
        let path = club.path_of(c).unwrap();
        let writer = club.writer(c, &path).unwrap();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let (busy_tx, busy_rx) = std::sync::mpsc::channel::<()>();
        let t = std::thread::spawn(move || {
            writer
                .run(move |_| {
                    busy_tx.send(()).unwrap();
                    let _ = release_rx.recv();
                })
                .unwrap();
        });
        busy_rx.recv().unwrap();
        (release_tx, t)
    }

    #[test]
    fn a_battle_loads_while_its_campaigns_writer_is_busy() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CLUB_FILE);
        let club = Club::open(&path).unwrap();
        let c = club.create_campaign("Club").unwrap();
        let battle = started_race(&club, c.id, 1_000);
        hold(&club, battle, 0, None, None).unwrap();
        // After a restart the battle is not in memory.
        drop(club);
        let club = std::sync::Arc::new(Club::open(&path).unwrap());
        let (release, busy) = busy_writer(&club, c.id);
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let reader = {
            let club = club.clone();
            std::thread::spawn(move || {
                let mut held = 0;
                let r = club.read(battle, &mut |b| held = b.records().len());
                done_tx.send(r.map(|()| held)).unwrap();
            })
        };
        let held = done_rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("loaded on its own connection, not behind the busy writer");
        assert_eq!(held.unwrap(), 1);
        release.send(()).unwrap();
        busy.join().unwrap();
        reader.join().unwrap();
    }

    #[test]
    fn the_club_file_is_not_held_while_a_battle_starts() {
        let (_dir, club) = club();
        let club = std::sync::Arc::new(club);
        let c = club.create_campaign("Club").unwrap();
        let config = serde_json::json!({ "target": 10 });
        let b = club.create_battle(race(c.id, config, false)).unwrap();
        club.join(b.id, 0, [1; 32]).unwrap();
        let (release, busy) = busy_writer(&club, c.id);
        // The last join waits for the writer to start the battle...
        let last = {
            let club = club.clone();
            std::thread::spawn(move || club.join(b.id, 1, [2; 32]))
        };
        std::thread::sleep(std::time::Duration::from_millis(200));
        // ...and the club file answers everyone else meanwhile.
        let (tx, rx) = std::sync::mpsc::channel();
        let other = {
            let club = club.clone();
            std::thread::spawn(move || tx.send(club.campaigns().map(|c| c.len())).unwrap())
        };
        let listed = rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the club file is not held by the starting battle");
        assert_eq!(listed.unwrap(), 1);
        release.send(()).unwrap();
        busy.join().unwrap();
        other.join().unwrap();
        let joined = last.join().unwrap().unwrap();
        assert!(joined.started.is_some());
        // A resent last join starts nothing twice.
        let again = club.join(b.id, 1, [2; 32]).unwrap();
        assert_eq!(again.started, joined.started);
        assert!(club.starting.lock().unwrap().is_empty(), "no gate kept");
    }

    #[test]
    fn a_failed_game_step_tells_the_seat_nothing_the_game_said() {
        let hidden = xenolog_saves::SaveError::Play(xenolog_engine::PlayError::Rule(
            xenolog_engine::RuleError::new(
                xenolog_engine::RuleErrorKind::Illegal,
                "the next card of the deck, the Ace of Saucers, cannot be drawn",
            ),
        ));
        let e = refused_decide(hidden, true, 7, Path::new("/srv/club/campaigns/c.xenolog"));
        let words = e.to_string();
        assert!(!words.contains("Ace"), "{words}");
        assert!(words.contains("nothing was written"), "{words}");
        // Nor where the server keeps its files (the log has the path).
        assert!(words.starts_with("the campaign's file: "), "{words}");
        assert!(!words.contains("/srv/club"), "{words}");
        assert!(!words.contains("c.xenolog"), "{words}");
        // The seat's own command refused: the rule's words about it.
        let own = xenolog_saves::SaveError::Play(xenolog_engine::PlayError::Rule(
            xenolog_engine::RuleError::new(
                xenolog_engine::RuleErrorKind::Illegal,
                "it is Bo's turn",
            ),
        ));
        let e = refused_decide(own, false, 7, Path::new("c.xenolog"));
        assert!(
            matches!(&e, ClubError::Rule(w) if w.contains("Bo's turn")),
            "{e}"
        );
    }

    /// Session 16: a command id is looked up in the campaign file only
    /// where it could have been decided before (its `at` is not the head,
    /// or something is recorded after the head). A resend is answered
    /// `again` as before; an id reused for another command at a new head is
    /// refused by the file's key, in words, and changes nothing.
    #[test]
    fn a_command_id_is_looked_up_only_where_it_could_have_been_decided() {
        let (_dir, club, _, battle) = club_with_race();
        let first = hold(&club, battle, 0, None, Some("c-1")).unwrap();
        assert_eq!((first.entries.clone(), first.again), (vec![0], false));
        hold(&club, battle, 1, Some(0), Some("c-2")).unwrap();
        // Resent as it was first sent: answered again, from the file.
        let again = hold(&club, battle, 0, None, Some("c-1")).unwrap();
        assert_eq!((again.entries, again.again), (vec![0], true));
        // The same id for another command at the head: refused in words.
        // Review of session 16: told as a bad request in words, not as
        // the file's failure in SQLite's.
        let reused = hold(&club, battle, 0, Some(1), Some("c-1"));
        assert!(matches!(&reused, Err(ClubError::ReusedCmdId)), "{reused:?}");
        let words = reused.unwrap_err().client_words();
        assert!(
            words.contains("this cmd_id was used for another command"),
            "{words}"
        );
        assert!(
            !words.contains("UNIQUE") && !words.contains("club_commands"),
            "{words}"
        );
        assert_eq!(head(&club, battle), Some(1), "nothing changed");
        // A new id there is decided.
        let next = hold(&club, battle, 0, Some(1), Some("c-3")).unwrap();
        assert_eq!(next.entries, vec![2]);
    }

    /// Review of session 16: a panic while the frames were made (game
    /// code in the lens) emptied the slot with the write still queued, so
    /// the next command could load the battle from its file without the
    /// entries about to be written. The battle stays held until the write
    /// settles, is kept (the write is durable), and the panic reaches the
    /// caller after.
    #[test]
    fn a_panic_while_making_frames_keeps_the_battle_held_until_its_write_settles() {
        let (_dir, club, c, battle) = club_with_race();
        let begun = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            hold_begun(&club, battle, "p-1", &mut |_, _, _| {
                panic!("the lens failed on the new entry")
            })
        }));
        assert!(begun.is_err(), "the panic reaches the caller");
        // Settled before the panic went on: durable, and in memory still.
        let slot = club.slot(battle);
        let held = slot.try_lock().expect("let go once the write settled");
        let lb = held
            .as_ref()
            .expect("kept: what it holds is durable, not emptied for a reload");
        assert_eq!(lb.battle.cursor(), Some(0));
        let id = lb.id;
        drop(held);
        let file = club.campaign_path(&*club.conn().unwrap(), c).unwrap();
        let on_disk = xenolog_saves::Campaign::open_read_only(&file)
            .unwrap()
            .load_battle(id)
            .unwrap()
            .records()
            .len();
        assert_eq!(on_disk, 1, "the command is durable");
        // Sent again with its id: answered, not decided twice.
        let again = hold(&club, battle, 0, None, Some("p-1")).unwrap();
        assert!(again.again && again.entries == vec![0], "{again:?}");
    }

    /// Review of session 16: a command whose write finds the campaign
    /// file's battle moved on (something wrote it behind the server's
    /// back) is told `Stale` in words, not as the file's failure; nothing
    /// of it is written, and the battle is read again from its file.
    #[test]
    fn a_write_that_finds_the_file_moved_on_is_stale_in_words() {
        let (_dir, club, c, battle) = club_with_race();
        hold(&club, battle, 0, None, None).unwrap();
        // Behind the server's back: the file gets entry 1.
        let (_, path, id, _) = club.located(battle).unwrap();
        let writer = club.writer(c, &path).unwrap();
        writer
            .run(move |camp| {
                let mut b = camp.load_battle(id).unwrap();
                let mode = camp.summary(id).unwrap().dice_mode;
                let d = xenolog_saves::decide(
                    id,
                    &mut *b,
                    Actor(1),
                    &serde_json::json!("hold"),
                    None,
                    mode,
                )
                .unwrap();
                camp.append_batch(&[d]).unwrap().pop().unwrap().unwrap();
            })
            .unwrap();
        // In memory the head is entry 0: decided there, refused on the write.
        let stale = hold(&club, battle, 1, Some(0), None);
        match &stale {
            Err(ClubError::Stale(words)) => {
                assert!(
                    words.contains("the battle as stored is not where the server decided")
                        && words.contains("decided after 1 entries, 2 stored")
                        && !words.contains("file"),
                    "{words}"
                )
            }
            other => panic!("{other:?}"),
        }
        // Read again from the file: its head is the entry written there.
        assert_eq!(head(&club, battle), Some(1));
    }

    /// Session 16: a command is decided on a thread and its write awaited
    /// by a task. Its frames are made once, holding the battle with its new
    /// entry; the battle stays held (no reader sees the entry, eviction
    /// leaves it) until the write is durable; then it is played.
    #[test]
    fn a_begun_command_holds_its_battle_until_its_write_is_durable() {
        let (_dir, club, _, battle) = club_with_race();
        let mut made = Vec::new();
        let playing = hold_begun(&club, battle, "b-1", &mut |b, _, played| {
            made.push((b.cursor(), played.entries.clone()))
        })
        .unwrap();
        assert_eq!(
            made,
            vec![(Some(0), vec![0])],
            "frames made once, on the new head"
        );
        assert!(matches!(playing, Playing::Writing(_)));
        assert!(
            club.slot(battle).try_lock().is_err(),
            "held while the write is awaited"
        );
        assert_eq!(club.evict_idle(std::time::Duration::ZERO), 0);
        let played = settled(playing);
        assert_eq!(played.entries, vec![0]);
        assert!(!played.again);
        assert_eq!(head(&club, battle), Some(0));
        // Durable with its id: sent again, it is answered, not decided.
        let again = hold_begun(&club, battle, "b-1", &mut |_, _, _| {
            panic!("nothing new, no frames")
        })
        .unwrap();
        assert!(matches!(&again, Playing::Done(p) if p.again && p.entries == vec![0]));
    }

    /// Session 21: a command is decided on the calling task
    /// (`play_begin_now`, no blocking-pool thread) only when nothing is to
    /// be waited for or read: the battle in memory and free, the command
    /// at its head, its campaign's writer running. Otherwise `None`, no
    /// frames made and nothing changed: the blocking pool's `play_begin`
    /// decides it. Decided there, it is held until durable as there.
    #[test]
    fn a_command_is_decided_on_the_task_only_when_nothing_is_waited_for_or_read() {
        let (_dir, mut club, _c, battle) = club_with_race();
        let cmd = serde_json::json!("hold");
        let mut no_frames = |_: &dyn Battle, _: &Bytes32, _: &Played| {
            panic!("no frames for a command not decided here")
        };
        // Loaded and free at its head, but on the club file: the blocking
        // pool decides (measured faster there).
        club.read(battle, &mut |_| {}).unwrap();
        assert!(
            club.play_begin_now(battle, Actor(0), None, &cmd, None, None, &mut no_frames)
                .is_none(),
            "on the club file, never on the task"
        );
        club.evict_idle(std::time::Duration::ZERO);
        // As on PostgreSQL (the rules below are the same on both).
        club.decide_on_task = true;
        let club = club;
        let now = |seat: u8, at: Option<EntryId>, frames: &mut MakeFrames<'_>| {
            club.play_begin_now(battle, Actor(seat), at, &cmd, None, None, frames)
        };
        assert!(
            now(0, None, &mut no_frames).is_none(),
            "not in memory: it would be loaded"
        );
        let first = settled(
            club.play_begin(battle, Actor(0), None, &cmd, None, None, &mut |_, _, _| {})
                .unwrap(),
        );
        assert_eq!(first.entries, vec![0]);
        assert!(
            now(1, None, &mut no_frames).is_none(),
            "a command at another head than the battle's"
        );
        let held = club.slot(battle).try_lock_owned().unwrap();
        assert!(
            now(1, Some(0), &mut no_frames).is_none(),
            "the battle in use: it would be waited for"
        );
        drop(held);
        assert_eq!(head(&club, battle), Some(0), "nothing changed");
        let mut made = Vec::new();
        let playing = now(1, Some(0), &mut |_, _, p| made.push(p.entries.clone()))
            .expect("decided here")
            .unwrap();
        assert_eq!(made, vec![vec![1]], "its frames made once, holding it");
        assert!(matches!(playing, Playing::Writing(_)));
        assert!(
            club.slot(battle).try_lock().is_err(),
            "held while its write is awaited"
        );
        assert_eq!(settled(playing).entries, vec![1]);
        assert_eq!(head(&club, battle), Some(1));
    }

    /// Session 21 (club_pg_procs' two bots at once, caught live): a battle
    /// is mapped to its campaign's id before its load reads, so a
    /// notification of another process's entry heard meanwhile reaches it
    /// (and waits for its slot, then reads what the load's snapshot
    /// missed) instead of being dropped as "not loaded here".
    #[test]
    fn a_battle_being_loaded_is_known_to_notifications_while_its_load_reads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CLUB_FILE);
        let club = Club::open(&path).unwrap();
        let c = club.create_campaign("Club").unwrap();
        let battle = started_race(&club, c.id, 1_000);
        drop(club);
        let club = Arc::new(Club::open(&path).unwrap());
        let (campaign, _, id, _) = club.located(battle).unwrap();
        assert_eq!(
            club.loaded_as(campaign, id),
            None,
            "not loaded since the start"
        );
        let seen = Arc::new(Mutex::new(None));
        let (weak, into) = (Arc::downgrade(&club), seen.clone());
        *club.while_loading.lock().unwrap() = Some(Box::new(move || {
            if let Some(c) = weak.upgrade() {
                *into.lock().unwrap() = Some(c.loaded_as(campaign, id));
            }
        }));
        club.read(battle, &mut |_| {}).unwrap();
        assert_eq!(
            *seen.lock().unwrap(),
            Some(Some(battle)),
            "mapped while its load read"
        );
        *club.while_loading.lock().unwrap() = None;
    }

    #[test]
    fn an_idle_battle_is_evicted_and_loaded_again_on_its_next_use() {
        let (_dir, club) = club();
        let c = club.create_campaign("Club").unwrap();
        let a = started_race(&club, c.id, 1_000);
        let b = started_race(&club, c.id, 1_000);
        hold(&club, a, 0, None, None).unwrap();
        club.read(b, &mut |_| {}).unwrap();
        assert_eq!(club.battles_in_memory(), 2);
        // Nothing has been idle for an hour.
        assert_eq!(club.evict_idle(std::time::Duration::from_secs(3600)), 0);
        // A battle in use stays.
        let slot = club.slot(b);
        let held = Club::hold(&slot);
        assert_eq!(club.evict_idle(std::time::Duration::ZERO), 1);
        drop(held);
        drop(slot);
        assert_eq!(club.battles_in_memory(), 1);
        assert_eq!(club.evict_idle(std::time::Duration::ZERO), 1);
        assert_eq!(club.battles_in_memory(), 0);
        assert!(
            club.battles.lock().unwrap().is_empty(),
            "the map holds nothing idle"
        );
        // The next command loads battle a from its file and goes on from its head.
        let next = hold(&club, a, 1, Some(0), None).unwrap();
        assert_eq!(next.entries, vec![1]);
    }

    #[test]
    fn the_club_migrations_are_valid() {
        let ms: Vec<rusqlite_migration::M<'static>> = MIGRATIONS
            .iter()
            .map(|m| rusqlite_migration::M::up(m))
            .collect();
        rusqlite_migration::Migrations::new(ms).validate().unwrap();
    }
}
