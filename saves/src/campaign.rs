//! Opening, creating and listing a campaign.

use std::path::{Path, PathBuf};

use xenolog_schema::{APPLICATION_ID, DiceMode, SCHEMA_VERSION};

use crate::db::{Code, Conn, Db, DbError, DbExt, Sqlite, pg};
use crate::error::sql_words;
use crate::file::{WriterLock, backup_path, precheck, sync_dir, temp_beside, wal_has_frames};
use crate::{BattleId, SaveError};

/// A battle as the campaign browser lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleSummary {
    /// Its id in this campaign.
    pub id: BattleId,
    /// Engine game id, e.g. `dimx`.
    pub game: String,
    /// E.g. "Dimension X: Breakout at Skylar".
    pub title: String,
    /// The seed of its dice stream.
    pub seed: u64,
    /// The rules version it was recorded under.
    pub rules_version: u32,
    /// Whether Xenolog rolls or the players type in their dice.
    pub dice_mode: DiceMode,
    /// When it was started, unix seconds.
    pub created: i64,
    /// When it was last written, unix seconds.
    pub updated: i64,
    /// Entries on all its branches.
    pub entries: u64,
    /// Branches, the main line included.
    pub branches: u32,
    /// `"in progress"` or `"over"`, at the saved cursor.
    pub status: String,
    /// The outcome in words when over.
    pub result: Option<String>,
    /// Where the battle came from: `None` if started here, else e.g.
    /// "imported from breakout.xenolog-battle".
    pub origin: Option<String>,
    /// A strict battle (no taking back a command whose dice were seen).
    pub strict: bool,
}

/// An open campaign file.
pub struct Campaign {
    pub(crate) conn: Conn,
    path: PathBuf,
    read_only: bool,
    /// The backup written when this open upgraded an older file.
    backup: Option<PathBuf>,
    /// Each battle's dice mode as last read or written (it never changes),
    /// so that playing a command reads nothing from the file before the
    /// command is known to be good: a refused command leaves even SQLite's
    /// side files as they were.
    pub(crate) dice_modes: std::sync::Mutex<std::collections::BTreeMap<crate::BattleId, DiceMode>>,
    /// The origin this open writes its campaign log entries under: a random
    /// tag made on the first entry written, so two copies of one file never
    /// write under one origin (migration 7, [`Campaign::merge`]).
    pub(crate) origin: std::sync::OnceLock<String>,
    // Declared after `conn`: fields drop in order, so the connection is closed
    // (and its log checkpointed) before the next writer can take the lock.
    _lock: Option<WriterLock>,
}

impl std::fmt::Debug for Campaign {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Campaign")
            .field("path", &self.path)
            .field("read_only", &self.read_only)
            .finish()
    }
}

pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// SQLite's own verdict on a file that passed [`precheck`].
fn classify(path: &Path, e: DbError) -> SaveError {
    match e.code {
        Some(Code::NotADatabase | Code::Corrupt) => SaveError::NotACampaign {
            path: path.to_owned(),
            why: sql_words(&e),
        },
        _ => SaveError::from(e),
    }
}

/// A PostgreSQL server that could not be connected to: unreachable (a
/// new attempt may succeed once it is back), not a campaign's failure.
fn unreachable(e: DbError) -> SaveError {
    SaveError::Unreachable(e.to_string())
}

fn connect(path: &Path, read_only: bool) -> Result<Conn, SaveError> {
    // Never create the file here: opening must not make a file appear.
    // Closing the last connection checkpoints the write-ahead log into the
    // file. Until the file is known to be a campaign that opens, that must not
    // happen: a stray `-wal` beside it (another database's, copied along with
    // it) would be written into the file that is then refused. `open` turns
    // checkpointing on again once the campaign is open. A reader may meet the
    // writer mid-checkpoint; it waits (5 s) rather than fail (`Sqlite::open`).
    let db = Sqlite::open(path, read_only).map_err(|e| classify(path, e))?;
    Ok(Conn::Sqlite(db))
}

/// A read-only connection, also for a campaign on read-only media.
///
/// A file in write-ahead-log mode is read through its `-shm` index, which
/// SQLite must create beside the file if it is not there; in a folder that
/// is read-only (a write-protected stick, a read-only mount) it cannot, and
/// SQLite says only "unable to open database file". There, and only when
/// the log holds nothing (so the file alone is the whole campaign), the file
/// is opened as immutable: nothing can write a read-only file system, so
/// there is nothing to coordinate with.
fn connect_read_only(path: &Path) -> Result<Conn, SaveError> {
    let conn = connect(path, true)?;
    let probe = conn.one::<i64>("PRAGMA schema_version", &[]);
    match probe {
        Err(e) if e.code == Some(Code::CannotOpen) && on_read_only_file_system(path) => {
            drop(conn);
            if wal_has_frames(path) {
                return Err(SaveError::Sql(format!(
                    "{} is in a read-only folder and its log ({}-wal) holds entries not yet in the file: open it once where it can be written",
                    path.display(),
                    path.display()
                )));
            }
            let uri = immutable_uri(path).ok_or_else(|| SaveError::from(e))?;
            let db = Sqlite::open_uri_read_only(&uri).map_err(|e| classify(path, e))?;
            Ok(Conn::Sqlite(db))
        }
        _ => Ok(conn),
    }
}

/// Whether the file system holding `path` is mounted read-only: opening the
/// file for writing (which writes nothing) is refused with EROFS.
fn on_read_only_file_system(path: &Path) -> bool {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .is_err_and(|e| e.kind() == std::io::ErrorKind::ReadOnlyFilesystem)
}

/// `file:<path>?immutable=1`, with the characters a URI gives meaning to
/// escaped; `None` for a path that is not Unicode.
fn immutable_uri(path: &Path) -> Option<String> {
    let text = path.to_str()?;
    // An absolute path gets an empty authority, so one starting `//` is
    // still a path.
    let mut uri = String::from(if text.starts_with('/') {
        "file://"
    } else {
        "file:"
    });
    for ch in text.chars() {
        match ch {
            '%' | '?' | '#' => uri.push_str(&format!("%{:02X}", ch as u32)),
            c => uri.push(c),
        }
    }
    uri.push_str("?immutable=1");
    Some(uri)
}

/// Check the file is ours and not newer; returns its schema version. Reads only.
fn identify(conn: &Conn, path: &Path) -> Result<u32, SaveError> {
    let pragma = |name: &str| -> Result<i64, SaveError> {
        conn.one(&format!("PRAGMA {name}"), &[])
            .map_err(|e| classify(path, e))
    };
    let app = pragma("application_id")?;
    let version = pragma("user_version")?;
    if app as i32 != APPLICATION_ID {
        return Err(SaveError::NotACampaign {
            path: path.to_owned(),
            why: "it is a SQLite database, but not a Xenolog campaign".into(),
        });
    }
    let version = u32::try_from(version).map_err(|_| SaveError::NotACampaign {
        path: path.to_owned(),
        why: format!("its format number {version} is damaged"),
    })?;
    if version > SCHEMA_VERSION {
        return Err(SaveError::NewerSchema {
            path: path.to_owned(),
            file: version,
            ours: SCHEMA_VERSION,
        });
    }
    Ok(version)
}

/// Write-ahead log with `synchronous=FULL`.
///
/// Why FULL: with `NORMAL`, SQLite in WAL mode syncs the log only at
/// checkpoints, so the last transactions can be lost on power loss (the file
/// stays consistent, but a command the player saw accepted would be gone).
/// `FULL` syncs the log on every commit, so `play` returns only once its entry
/// is on disk. Measured cost: about one fsync per command, a median of
/// 0.8-4.0 ms on the development VM (crate docs, `notes/bench_store.md`).
fn set_durable(conn: &Conn) -> Result<(), SaveError> {
    let mode: String = conn.one("PRAGMA journal_mode=WAL", &[])?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(SaveError::Sql(format!(
            "the campaign's folder does not support the write-ahead log SQLite needs (journal mode stayed '{mode}')"
        )));
    }
    if let Some(s) = conn.sqlite() {
        s.pragma_set("synchronous", "FULL")?;
    }
    Ok(())
}

/// A consistent copy of the file at schema `version`, written beside it and
/// synced before anything is upgraded.
fn backup(conn: &dyn Db, path: &Path, version: u32) -> Result<PathBuf, SaveError> {
    let to = backup_path(path, version);
    let to_text = to.to_str().ok_or_else(|| {
        SaveError::Sql(format!(
            "the backup name {} is not valid Unicode",
            to.display()
        ))
    })?;
    // VACUUM INTO copies a consistent snapshot even in WAL mode, and keeps the
    // header's schema version and application id.
    conn.execute("VACUUM INTO ?1", &[&to_text]).map_err(|e| {
        SaveError::Sql(format!(
            "the backup before upgrading failed: {}",
            sql_words(&e)
        ))
    })?;
    std::fs::File::open(&to)
        .and_then(|f| f.sync_all())
        .map_err(|e| SaveError::io(&to, e))?;
    sync_dir(&to)?;
    Ok(to)
}

impl Campaign {
    /// Create a new campaign file (an error if the path exists).
    ///
    /// The file is built under a temporary name beside `path` and linked into
    /// place only when complete, so a crash never leaves a half-made campaign.
    pub fn create(path: &Path, name: &str) -> Result<Campaign, SaveError> {
        if path.symlink_metadata().is_ok() {
            return Err(SaveError::Exists {
                path: path.to_owned(),
            });
        }
        let name = match name.trim() {
            "" => path.file_stem().map_or_else(
                || "Campaign".to_owned(),
                |s| s.to_string_lossy().into_owned(),
            ),
            n => n.to_owned(),
        };
        // Name the missing folder, rather than the temporary file SQLite
        // would fail to open there.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::metadata(dir).map_err(|e| SaveError::io(dir, e))?;
        }
        let tmp = temp_beside(path, "creating");
        // The file is made here, empty (SQLite takes an empty file for a new
        // database), so a folder that cannot be written is named in words:
        // SQLite would say only "unable to open database file" of the
        // temporary name.
        let built = std::fs::File::create(&tmp)
            .map_err(|e| SaveError::io(path, e))
            .and_then(|_| build_new(&tmp, &name))
            .and_then(|()| place(&tmp, path));
        for leftover in [tmp.clone(), side(&tmp, "-wal"), side(&tmp, "-shm")] {
            let _ = std::fs::remove_file(leftover);
        }
        built?;
        Campaign::open(path)
    }

    /// Open for writing.
    ///
    /// Takes the writer lock: if another process (or another `Campaign` in
    /// this one) has the file open for writing, this is [`SaveError::Locked`].
    /// A file from an older Xenolog is copied to `<stem>.backup-v<N>.xenolog`
    /// and then upgraded in one transaction; a file from a newer one is
    /// refused ([`SaveError::NewerSchema`]) and left untouched, as is anything
    /// that is not a campaign.
    pub fn open(path: &Path) -> Result<Campaign, SaveError> {
        precheck(path)?;
        let lock = WriterLock::take(path)?;
        let mut conn = connect(path, false)?;
        let version = identify(&conn, path)?;
        let mut saved = None;
        if version < SCHEMA_VERSION && version > 0 {
            saved = Some(backup(&conn, path, version)?);
        }
        set_durable(&conn)?;
        if version < SCHEMA_VERSION {
            conn.migrate()?;
        }
        let c = Campaign {
            conn,
            path: path.to_owned(),
            read_only: false,
            backup: saved,
            dice_modes: Default::default(),
            origin: Default::default(),
            _lock: Some(lock),
        };
        c.name()?;
        if let Some(s) = c.conn.sqlite() {
            s.checkpoint_on_close(true)?;
        }
        c.seal_on_open();
        Ok(c)
    }

    /// A campaign kept in memory for as long as it lives (an in-memory
    /// SQLite database): the same tables, the same code and so the same
    /// rules as a file, with nothing written anywhere. The app runs on one
    /// when no campaign file can be written, and its UI tests do. Its
    /// [`Campaign::path`] is empty ([`Campaign::is_in_memory`]).
    pub fn create_in_memory(name: &str) -> Result<Campaign, SaveError> {
        let mut conn = Conn::Sqlite(Sqlite::in_memory()?);
        conn.migrate()?;
        conn.execute(NEW_CAMPAIGN_ROW, &[&name, &now()])?;
        Ok(Campaign {
            conn,
            path: PathBuf::new(),
            read_only: false,
            backup: None,
            dice_modes: Default::default(),
            origin: Default::default(),
            _lock: None,
        })
    }

    /// Create a campaign in a new schema `schema` of the PostgreSQL
    /// database at `url` (a `postgres://` URL or `host=... dbname=...`):
    /// the same tables as a file (the migrations rewritten), its version in
    /// a one-row `schema_version` table, the campaign's row, all in one
    /// transaction: made whole or not at all. A schema of that name already
    /// there is refused ([`SaveError::Exists`]) and left as it is.
    ///
    /// Not taken on PostgreSQL: the file's writer lock (several server
    /// processes may write one campaign: each append checks the battle's
    /// head inside its transaction, `server/POSTGRES.md` §2).
    pub fn create_postgres(url: &str, schema: &str, name: &str) -> Result<Campaign, SaveError> {
        let label = pg_label(schema);
        check_schema_name(schema)?;
        let db = pg::Postgres::connect(url).map_err(unreachable)?;
        if pg::identify_schema(&db, schema)? != pg::SchemaKind::Missing {
            return Err(SaveError::Exists { path: label });
        }
        let name = match name.trim() {
            "" => schema.to_owned(),
            n => n.to_owned(),
        };
        let made = now();
        pg::create_campaign_schema_at(&db, schema, SCHEMA_VERSION as usize, &|tx| {
            tx.execute(NEW_CAMPAIGN_ROW, &[&name, &made])?;
            // On PostgreSQL with the campaign, never by a batch (pgbatch.rs).
            tx.execute_batch(crate::batch::COMMANDS_TABLE)
        })
        .map_err(|e| match e.code {
            // Made meanwhile by another process.
            Some(Code::Unique) => SaveError::Exists {
                path: label.clone(),
            },
            _ => SaveError::from(e),
        })?;
        Campaign::on_postgres(db, schema, label, None)
    }

    /// Open campaign schema `schema` of the PostgreSQL database at `url`
    /// for writing. The schema is identified by its one-row
    /// `schema_version` table: a schema that is not a Xenolog campaign, or
    /// one from a newer Xenolog, is refused in words and left untouched;
    /// an older one is upgraded with the same migrations as a file, in one
    /// transaction (a failure leaves it as it was; the copy before an
    /// upgrade that a file gets, `VACUUM INTO`, is on PostgreSQL the
    /// operator's `pg_dump`), and [`Campaign::upgrade_backup`] is `None`.
    pub fn open_postgres(url: &str, schema: &str) -> Result<Campaign, SaveError> {
        let (db, label, version) = pg_open(url, schema)?;
        if version < i64::from(SCHEMA_VERSION) {
            pg::upgrade_campaign_schema(&db, schema).map_err(|e| {
                SaveError::Sql(format!(
                    "upgrading {} failed: {}",
                    label.display(),
                    sql_words(&e)
                ))
            })?;
        } else {
            pg::use_schema(&db, schema)?;
        }
        pg::ensure_command_ids_table(&db)?;
        let c = Campaign::on_postgres(db, schema, label, None)?;
        // Here only: not a new schema (nothing to seal), never a read-only
        // open (review4 S3: that one sealed too, before it was marked
        // read-only, scanning every battle and trying a write).
        c.seal_on_open();
        Ok(c)
    }

    /// Open campaign schema `schema` of the PostgreSQL database at `url`
    /// for reading only (spectators, `verify`; session 18), as
    /// [`Campaign::open_read_only`] opens a file: every write is refused
    /// ([`SaveError::ReadOnly`]) with nothing changed, and behind that the
    /// session itself is read-only (`default_transaction_read_only`: a
    /// write that got past would be refused by the server). Never upgrades:
    /// a schema of an older Xenolog is [`SaveError::OlderSchema`]; one that
    /// is not a campaign, or is newer, is refused as
    /// [`Campaign::open_postgres`] refuses it. Several readers and writers
    /// may have one campaign open at once.
    pub fn open_postgres_read_only(url: &str, schema: &str) -> Result<Campaign, SaveError> {
        let (db, label, version) = pg_open(url, schema)?;
        if version < i64::from(SCHEMA_VERSION) {
            return Err(SaveError::OlderSchema {
                path: label,
                file: u32::try_from(version).unwrap_or(0),
                ours: SCHEMA_VERSION,
            });
        }
        db.read_only()?;
        pg::use_schema(&db, schema)?;
        let mut c = Campaign::on_postgres(db, schema, label, None)?;
        c.read_only = true;
        Ok(c)
    }

    fn on_postgres(
        db: pg::Postgres,
        schema: &str,
        label: PathBuf,
        backup: Option<PathBuf>,
    ) -> Result<Campaign, SaveError> {
        let c = Campaign {
            conn: Conn::Postgres {
                db: Box::new(db),
                schema: schema.to_owned(),
            },
            path: label,
            read_only: false,
            backup,
            dice_modes: Default::default(),
            origin: Default::default(),
            _lock: None,
        };
        c.name()?;
        Ok(c)
    }

    /// Entries written before migration 8 are all tail: a campaign opened
    /// for writing seals the full ones (issue 29, `blocks.rs`). Best effort:
    /// a tail is read either way, only more slowly, a failure leaves it as
    /// it was, and the next write that completes a block seals the whole
    /// tail in order (`blocks::seal_if_full`). A failure is said on the
    /// standard error, not swallowed (review4 M1): another writer holding
    /// the file, a lost connection, a lock timeout.
    fn seal_on_open(&self) {
        if let Err(e) = self.seal_full_tails() {
            eprintln!(
                "xenolog: {}: its entries were not sealed into blocks on opening (they are \
                 read as rows meanwhile, and sealed by the next open or write): {e}",
                self.path.display()
            );
        }
    }

    /// The campaign's schema when it lives in PostgreSQL
    /// ([`Campaign::open_postgres`]); `None` for a file or memory.
    pub fn postgres_schema(&self) -> Option<&str> {
        self.conn.schema()
    }

    /// Whether this campaign lives in memory only
    /// ([`Campaign::create_in_memory`]).
    pub fn is_in_memory(&self) -> bool {
        self.path.as_os_str().is_empty()
    }

    /// The backup of the file as it was, when opening it upgraded it from an
    /// older Xenolog's format.
    pub fn upgrade_backup(&self) -> Option<&Path> {
        self.backup.as_deref()
    }

    /// Write without syncing each commit, for a file that is not in its place
    /// yet (the sample campaign is built beside its name, then linked in).
    /// `close_synced` ends it.
    pub(crate) fn unsynced(&self) -> Result<(), SaveError> {
        // PostgreSQL: nothing (a schema has no file to put in place; the
        // server's `synchronous_commit` is the operator's, not a campaign's).
        if let Some(s) = self.conn.sqlite() {
            s.pragma_set("synchronous", "OFF")?;
        }
        Ok(())
    }

    /// Close the file with everything checkpointed into it and synced.
    pub(crate) fn close_synced(self) -> Result<(), SaveError> {
        let Some(s) = self.conn.sqlite() else {
            // PostgreSQL: every commit is on the server; no file to sync.
            self.conn.close()?;
            return Ok(());
        };
        s.pragma_set("synchronous", "FULL")?;
        let path = self.path.clone();
        self.conn.close()?;
        std::fs::File::open(&path)
            .and_then(|f| f.sync_all())
            .map_err(|e| SaveError::io(&path, e))
    }

    /// Open for reading only: allowed while another process writes (it sees
    /// each of the writer's transactions once committed). Takes no lock and
    /// never upgrades: an older file is [`SaveError::OlderSchema`]. A campaign
    /// on read-only media (a write-protected stick, a read-only mount) opens
    /// too, when it was closed cleanly.
    pub fn open_read_only(path: &Path) -> Result<Campaign, SaveError> {
        precheck(path)?;
        let conn = connect_read_only(path)?;
        let version = identify(&conn, path)?;
        if version < SCHEMA_VERSION {
            return Err(SaveError::OlderSchema {
                path: path.to_owned(),
                file: version,
                ours: SCHEMA_VERSION,
            });
        }
        let c = Campaign {
            conn,
            path: path.to_owned(),
            read_only: true,
            backup: None,
            dice_modes: Default::default(),
            origin: Default::default(),
            _lock: None,
        };
        c.name()?;
        Ok(c)
    }

    /// The campaign file (empty for a campaign in memory).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this was opened read-only ([`Campaign::open_read_only`],
    /// [`Campaign::open_postgres_read_only`]).
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    pub(crate) fn writable(&self) -> Result<(), SaveError> {
        if self.read_only {
            Err(SaveError::ReadOnly)
        } else {
            Ok(())
        }
    }

    /// The campaign's name.
    pub fn name(&self) -> Result<String, SaveError> {
        self.conn
            .row("SELECT name FROM campaign WHERE id = 1", &[], |r| r.get(0))
            .map_err(|e| classify(&self.path, e))?
            .ok_or_else(|| SaveError::NotACampaign {
                path: self.path.clone(),
                why: "its campaign record is missing".into(),
            })
    }

    /// The campaign's uid: made once when the campaign was made (or upgraded
    /// to migration 7) and kept by every copy of the file. Two files with
    /// one uid are copies of one campaign.
    pub fn uid(&self) -> Result<String, SaveError> {
        let uid: Option<String> = self
            .conn
            .row("SELECT uid FROM campaign WHERE id = 1", &[], |r| r.get(0))
            .map_err(|e| classify(&self.path, e))?
            .flatten();
        uid.ok_or_else(|| SaveError::NotACampaign {
            path: self.path.clone(),
            why: "its campaign record has no uid".into(),
        })
    }

    /// The origin this open writes campaign log entries under (made on
    /// first use: 16 random hex digits from SQLite's own random source).
    pub(crate) fn origin(&self) -> Result<String, SaveError> {
        if let Some(o) = self.origin.get() {
            return Ok(o.clone());
        }
        let made: String = self.conn.one("SELECT lower(hex(randomblob(8)))", &[])?;
        Ok(self.origin.get_or_init(|| made).clone())
    }

    /// Every battle, oldest first.
    pub fn battles(&self) -> Result<Vec<BattleSummary>, SaveError> {
        let mut out = Vec::new();
        self.conn
            .each(&format!("{SUMMARY_SELECT} ORDER BY b.id"), &[], |r| {
                out.push(summary_row(r)?);
                Ok::<(), SaveError>(())
            })?;
        Ok(out)
    }

    /// One battle's summary.
    pub fn summary(&self, id: BattleId) -> Result<BattleSummary, SaveError> {
        self.conn
            .row(
                &format!("{SUMMARY_SELECT} WHERE b.id = ?1"),
                &[&id],
                summary_row,
            )?
            .ok_or(SaveError::NoSuchBattle(id))
    }
}

/// A connection to the database at `url` and the version of its campaign
/// schema `schema` (what `open_postgres` and `open_postgres_read_only` are
/// given), with the campaign's name in messages: a schema missing, not a
/// campaign, newer than this build or damaged is refused in words, with
/// nothing changed.
fn pg_open(url: &str, schema: &str) -> Result<(pg::Postgres, PathBuf, i64), SaveError> {
    let label = pg_label(schema);
    check_schema_name(schema)?;
    let db = pg::Postgres::connect(url).map_err(unreachable)?;
    let version = pg_version(&db, schema, &label)?;
    Ok((db, label, version))
}

fn pg_version(db: &pg::Postgres, schema: &str, label: &Path) -> Result<i64, SaveError> {
    let version = match pg::identify_schema(db, schema)? {
        pg::SchemaKind::Missing => {
            return Err(SaveError::NotACampaign {
                path: label.to_owned(),
                why: "the database has no schema of that name".into(),
            });
        }
        pg::SchemaKind::Foreign(why) => {
            return Err(SaveError::NotACampaign {
                path: label.to_owned(),
                why,
            });
        }
        pg::SchemaKind::Campaign(v) => v,
    };
    if version > i64::from(SCHEMA_VERSION) {
        return Err(SaveError::NewerSchema {
            path: label.to_owned(),
            file: u32::try_from(version).unwrap_or(u32::MAX),
            ours: SCHEMA_VERSION,
        });
    }
    if version < 1 {
        return Err(SaveError::NotACampaign {
            path: label.to_owned(),
            why: format!("its format number {version} is damaged"),
        });
    }
    Ok(version)
}

/// What a campaign in PostgreSQL is called in messages (where a file's
/// path would be): never the connection string, which may hold a password.
fn pg_label(schema: &str) -> PathBuf {
    PathBuf::from(format!("PostgreSQL schema {schema}"))
}

fn check_schema_name(schema: &str) -> Result<(), SaveError> {
    if pg::valid_schema_name(schema) {
        return Ok(());
    }
    Err(SaveError::Refused(format!(
        "'{schema}' cannot name a campaign's schema: use lower-case letters, digits and _ \
         (not first a digit), at most 63, not pg_..., public or information_schema; nothing was changed"
    )))
}

/// The campaign's one row, with a uid of 16 random bytes (migration 7).
const NEW_CAMPAIGN_ROW: &str =
    "INSERT INTO campaign (id, name, created, uid) VALUES (1, ?1, ?2, lower(hex(randomblob(16))))";

/// Entries are dense (0..n), so their count is the head, found in the keys
/// of the tail and the blocks without scanning (`summary_row`); branches are
/// few.
const SUMMARY_SELECT: &str = "SELECT b.id, b.game, b.title, b.seed, b.rules_version, b.dice_mode,
        b.created, b.updated, b.status, b.result, b.origin,
        (SELECT e.seq FROM entries e WHERE e.battle = b.id ORDER BY e.seq DESC LIMIT 1),
        (SELECT COUNT(*) FROM branches r WHERE r.battle = b.id), b.strict,
        (SELECT k.first FROM entry_blocks k WHERE k.battle = b.id ORDER BY k.first DESC LIMIT 1)
    FROM battles b";

fn summary_row(r: &crate::db::Row<'_>) -> Result<BattleSummary, SaveError> {
    let id: BattleId = r.get(0)?;
    let dice: String = r.get(5)?;
    let Some(dice_mode) = DiceMode::from_word(&dice) else {
        return Err(SaveError::Corrupt {
            battle: id,
            why: format!("its dice mode '{dice}' is unknown"),
        });
    };
    Ok(BattleSummary {
        id,
        game: r.get(1)?,
        title: r.get(2)?,
        seed: r.get::<i64>(3)? as u64,
        rules_version: r.get(4)?,
        dice_mode,
        created: r.get(6)?,
        updated: r.get(7)?,
        status: r.get(8)?,
        result: r.get(9)?,
        origin: r.get(10)?,
        // The head: the tail's last entry + 1, or the last block's first +
        // 1,024; a damaged file may number it up to i64::MAX (or below 0),
        // which must neither overflow nor fail the list.
        entries: crate::blocks::count_from(r.get(11)?, r.get(14)?),
        branches: r.get(12)?,
        strict: r.get(13)?,
    })
}

pub(crate) fn side(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// A complete, closed, synced campaign at `tmp`.
fn build_new(tmp: &Path, name: &str) -> Result<(), SaveError> {
    let mut conn = Conn::Sqlite(Sqlite::create(tmp)?);
    set_durable(&conn)?;
    conn.migrate()?;
    conn.execute(NEW_CAMPAIGN_ROW, &[&name, &now()])?;
    // Closing the last connection checkpoints the log into the file and
    // removes it, so the file alone is the whole campaign.
    conn.close()?;
    std::fs::File::open(tmp)
        .and_then(|f| f.sync_all())
        .map_err(|e| SaveError::io(tmp, e))
}

/// Give the finished file its name, refusing to replace anything there.
pub(crate) fn place(tmp: &Path, path: &Path) -> Result<(), SaveError> {
    match std::fs::hard_link(tmp, path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(SaveError::Exists {
                path: path.to_owned(),
            });
        }
        // Some file systems (FAT on a USB stick) have no hard links.
        Err(_) if path.symlink_metadata().is_err() => {
            std::fs::rename(tmp, path).map_err(|e| SaveError::io(path, e))?;
        }
        Err(e) => return Err(SaveError::io(path, e)),
    }
    sync_dir(path)
}
