//! The store's one error type. Every message is a sentence a player can act on.

use std::path::PathBuf;

use xenolog_engine::PlayError;
use xenolog_engine::games::NewBattleError;

use crate::BattleId;
use crate::db::{Code, DbError, Dialect};

/// Why a campaign operation did not happen. Whatever the variant, nothing was
/// changed: not the file, not the battle in memory.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Not a Xenolog campaign file: not SQLite, truncated, random bytes, empty,
    /// or another program's database.
    #[error("{} is not a Xenolog campaign: {why}", path.display())]
    NotACampaign { path: PathBuf, why: String },
    /// Saved by a newer Xenolog; this build refuses to touch it.
    #[error(
        "{} was saved by a newer Xenolog (campaign format {file}; this build knows formats up to {ours}): update Xenolog to open it",
        path.display()
    )]
    NewerSchema { path: PathBuf, file: u32, ours: u32 },
    /// Saved by an older Xenolog and opened read-only, so it cannot be upgraded.
    #[error(
        "{} was saved by an older Xenolog (campaign format {file}; this build writes {ours}): open it for writing once so it can be upgraded, e.g. `xenolog upgrade FILE` (a backup is kept)",
        path.display()
    )]
    OlderSchema { path: PathBuf, file: u32, ours: u32 },
    /// Another Xenolog (or another window of this one) has it open for writing.
    #[error(
        "{} is open in another Xenolog: close it there first (it can still be opened read-only)",
        path.display()
    )]
    Locked { path: PathBuf },
    /// The campaign was opened read-only.
    #[error("this campaign is open read-only, so nothing in it can be changed")]
    ReadOnly,
    /// `create` refuses to replace a file.
    #[error("{} already exists: choose another name", path.display())]
    Exists { path: PathBuf },
    #[error("this campaign has no battle {0}")]
    NoSuchBattle(BattleId),
    /// A note or bookmark on an entry the battle does not have.
    #[error("battle {battle} has no entry {entry}: it has {entries} (numbered from 0)")]
    NoSuchEntry {
        battle: BattleId,
        entry: u64,
        entries: u64,
    },
    /// An import file that is not a readable, intact battle.
    #[error("{} is not a usable Xenolog battle file: {why}", path.display())]
    BadBattleFile { path: PathBuf, why: String },
    /// A stored battle that cannot be rebuilt.
    #[error("battle {battle} is damaged: {why}")]
    Corrupt { battle: BattleId, why: String },
    /// The battle in memory is not the one stored (another battle, or
    /// entries that were never saved): load it again. "Stored", not "on
    /// disk": on PostgreSQL the campaign is a database's (session 18).
    #[error("the battle in memory does not match battle {battle} as stored ({why}): load it again")]
    Stale { battle: BattleId, why: String },
    /// The rules refused the command.
    #[error("{0}")]
    Play(#[from] PlayError),
    /// A battle could not be started.
    #[error("{0}")]
    NewBattle(#[from] NewBattleError),
    /// A file could not be read or written; the reason is in words (the disk
    /// is full, the folder is read-only...) with the system's own after it.
    #[error("could not read or write {}: {}", path.display(), io_words(source))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The database engine failed (disk full, I/O error, damaged file...).
    #[error("the campaign database failed: {0}")]
    Sql(String),
    /// A command id the seat gave before in this battle, for another
    /// command: the key of the command ids refused it (recognised by the
    /// database's constraint, on SQLite and PostgreSQL alike).
    #[error(
        "battle {battle}: seat {seat} already gave the command id '{cmd_id}' for another command: give each command its own; nothing was written"
    )]
    CommandIdUsed {
        battle: BattleId,
        /// The seat, counted from 0 (as JSON's `actor`).
        seat: u8,
        cmd_id: String,
    },
    /// A unique key refused the row (taken meanwhile by another writer, or
    /// already there in a damaged file), or PostgreSQL could not serialize
    /// two writers' transactions: nothing of this was written; trying again
    /// against what is stored now may succeed.
    #[error(
        "the campaign already holds a row under the same key, or another writer changed it at the same moment ({0}): nothing of this was written; load it again and retry"
    )]
    Conflict(String),
    /// The database server could not be reached, or the connection to it
    /// was lost (PostgreSQL restarted, the network cut): nothing of this
    /// was written unless it was a commit whose answer was lost (a resend
    /// with its command id settles that); a new connection may succeed.
    #[error("the campaign database is not reachable ({0})")]
    Unreachable(String),
    /// PostgreSQL: a lock the write needs is held by another session (a
    /// psql transaction left open, a merge into the campaign, a stopped
    /// process) for longer than the writer waits (`lock_timeout`, issue 31
    /// review5 S1): nothing of this was written; the same write may be
    /// given again once the other session lets go.
    #[error("{0}: nothing of this was written; try again in a moment")]
    Busy(String),
    /// A request the campaign refuses as it stands, said in words (a secret
    /// that is not the one committed to).
    #[error("{0}")]
    Refused(String),
}

impl SaveError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        SaveError::Io {
            path: path.into(),
            source,
        }
    }
}

impl From<DbError> for SaveError {
    fn from(e: DbError) -> Self {
        match e.code {
            Some(Code::Unique | Code::Serialization) => SaveError::Conflict(e.to_string()),
            Some(Code::Lost) => SaveError::Unreachable(e.to_string()),
            Some(Code::Busy) if e.dialect() == Dialect::Postgres => SaveError::Busy(
                "another connection to the database holds a lock it needs right now".into(),
            ),
            _ => SaveError::Sql(sql_words(&e)),
        }
    }
}

/// An I/O failure in words a player can act on, the system's own in brackets.
pub(crate) fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    let words = match e.kind() {
        K::StorageFull | K::QuotaExceeded => "the disk is full",
        K::ReadOnlyFilesystem => "the folder is read-only",
        K::PermissionDenied => "permission was denied",
        K::NotFound => "it does not exist",
        K::FileTooLarge => "the file is larger than the system allows",
        _ => return e.to_string(),
    };
    format!("{words} ({e})")
}

/// A database failure in words: of the file and its disk on SQLite, of the
/// database on PostgreSQL (whose disk and files are the server's, not the
/// player's: session 18). Never the connection string.
pub(crate) fn sql_words(e: &DbError) -> String {
    if e.dialect() == Dialect::Postgres {
        return match e.code {
            Some(Code::DiskFull) => {
                "the database server's disk is full: free some space there and try again".into()
            }
            Some(Code::Busy) => {
                "another connection to the database holds a lock the campaign needs right now: try again".into()
            }
            Some(Code::ReadOnly) => "the database takes no writes on this connection (the campaign is open read-only, or the server is a read-only one): nothing was written".into(),
            Some(Code::PermissionDenied) => {
                format!("the database user may not do this in the campaign's schema ({e})")
            }
            Some(Code::Corrupt) => format!("the database reports damaged data ({e})"),
            Some(Code::Io) => format!("the database server reported an I/O error ({e})"),
            _ => e.to_string(),
        };
    }
    match e.code {
        Some(Code::DiskFull) => "the disk is full: free some space and try again".into(),
        Some(Code::Busy) => "another program is using the campaign file right now".into(),
        Some(Code::ReadOnly) => "the file or its folder is read-only: it cannot be written".into(),
        Some(Code::PermissionDenied) => "permission to use the file was denied".into(),
        Some(Code::Corrupt) => format!("the file is damaged ({e})"),
        Some(Code::NotADatabase) => "the file is not a SQLite database".into(),
        Some(Code::Io) => format!("the disk reported an error ({e})"),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Session 18: every failure SQLite words as the file's or the disk's
    /// is the database's on PostgreSQL.
    #[test]
    fn p2_postgres_failures_are_worded_as_the_databases_not_a_files() {
        use Code::*;
        for code in [DiskFull, Busy, ReadOnly, PermissionDenied, Corrupt, Io] {
            let lite = sql_words(&DbError::coded(code, "x", Dialect::Sqlite));
            assert!(
                lite.contains("file") || lite.contains("disk"),
                "{code:?}: {lite}"
            );
            let pg = sql_words(&DbError::coded(code, "x", Dialect::Postgres));
            assert!(pg.contains("database"), "{code:?}: {pg}");
            assert!(
                !pg.contains("file") && !pg.contains("folder") && !pg.contains("the disk"),
                "{code:?}: {pg}"
            );
        }
    }
}
