//! The embedded store: a data folder holding the club file
//! `club.xenolog-club` (SQLite, its own migrations in `server/migrations/`)
//! and, from step S4, one campaign file per campaign as today.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use rusqlite_migration::{M, Migrations};

use super::{ClubError, Invitation, Principal, Redeemed, Store, TokenId, TokenInfo, TokenStore};
use crate::secret::{Code, Role, Token};

/// The club file's name inside the data folder.
pub const CLUB_FILE: &str = "club.xenolog-club";
/// Marks a SQLite file as a Xenolog club file ('XNLC'); set by migration 1.
pub const CLUB_APPLICATION_ID: i32 = 0x584E_4C43;
/// How long the organiser invitation printed at a start stays valid.
pub const ORGANISER_INVITATION_DAYS: u32 = 7;

static MIGRATIONS: &[M<'static>] = &[M::up(include_str!("../../migrations/0001_club.sql"))];

const DAY: i64 = 24 * 60 * 60;

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// The SQLite data folder.
pub struct SqliteStore {
    club: ClubFile,
}

impl SqliteStore {
    /// Open (or create) the data folder and its club file.
    pub fn open(dir: &Path) -> Result<SqliteStore, ClubError> {
        std::fs::create_dir_all(dir).map_err(|e| ClubError::File {
            path: dir.display().to_string(),
            why: format!("the data folder cannot be made: {e}"),
        })?;
        Ok(SqliteStore {
            club: ClubFile::open(&dir.join(CLUB_FILE))?,
        })
    }

    /// The club file's path.
    pub fn club_path(&self) -> &Path {
        &self.club.path
    }
}

impl Store for SqliteStore {
    fn tokens(&self) -> &dyn TokenStore {
        &self.club
    }
}

/// The club file: tokens, grants, invitations, campaigns.
pub struct ClubFile {
    path: PathBuf,
    conn: Mutex<Connection>,
}

impl ClubFile {
    /// Open the club file, creating and migrating it as needed. A file that
    /// is not a club file, or one from a newer Xenolog, is refused in words.
    pub fn open(path: &Path) -> Result<ClubFile, ClubError> {
        let file_err = |why: String| ClubError::File {
            path: path.display().to_string(),
            why,
        };
        let sql = |e: rusqlite::Error| file_err(e.to_string());
        let mut conn = Connection::open(path).map_err(sql)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(sql)?;
        let app: i32 = conn
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .map_err(|e| file_err(format!("it is not a SQLite database ({e})")))?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(sql)?;
        if version > 0 && app != CLUB_APPLICATION_ID {
            return Err(file_err(
                "it is a SQLite database, but not a Xenolog club file".into(),
            ));
        }
        if version > MIGRATIONS.len() as i64 {
            return Err(file_err(format!(
                "it was written by a newer Xenolog (club format {version}, this build reads up to {})",
                MIGRATIONS.len()
            )));
        }
        let mode: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .map_err(sql)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(file_err(format!(
                "its folder does not support SQLite's write-ahead log (journal mode stayed '{mode}')"
            )));
        }
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(sql)?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(sql)?;
        Migrations::from_slice(MIGRATIONS)
            .to_latest(&mut conn)
            .map_err(|e| file_err(format!("its tables cannot be made: {e}")))?;
        Ok(ClubFile {
            path: path.to_owned(),
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite's own state whole (its
        // transaction rolls back on drop), so the poison is not a reason to stop.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn sql(&self, e: rusqlite::Error) -> ClubError {
        ClubError::File {
            path: self.path.display().to_string(),
            why: e.to_string(),
        }
    }

    fn role(&self, word: &str) -> Result<Role, ClubError> {
        Role::from_word(word).ok_or_else(|| ClubError::File {
            path: self.path.display().to_string(),
            why: format!("it names an unknown role '{word}'"),
        })
    }

    /// Make and store an invitation; its code exists only in the result.
    fn insert_invitation(
        &self,
        conn: &Connection,
        role: Role,
        label: &str,
        days: u32,
        at: i64,
    ) -> Result<Invitation, ClubError> {
        let code = Code::generate().map_err(|e| ClubError::Random(e.to_string()))?;
        let expires = at + i64::from(days) * DAY;
        conn.execute(
            "INSERT INTO invitations (hash, role, label, created, expires) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![&code.hash()[..], role.word(), label, at, expires],
        )
        .map_err(|e| self.sql(e))?;
        Ok(Invitation {
            code,
            role,
            label: label.to_owned(),
            expires,
        })
    }

    /// [`TokenStore::redeem`] at a given time (tests move the clock).
    pub fn redeem_at(
        &self,
        code: &Code,
        label: Option<&str>,
        into: Option<&Principal>,
        at: i64,
    ) -> Result<Redeemed, ClubError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.sql(e))?;
        let found: Option<(i64, String, String, i64, Option<i64>, bool)> = tx
            .query_row(
                "SELECT id, role, label, expires, spent_by, void FROM invitations WHERE hash = ?1",
                [&code.hash()[..]],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        let Some((id, role, invited_label, expires, spent_by, void)) = found else {
            return Err(ClubError::UnknownCode);
        };
        if void {
            return Err(ClubError::UnknownCode);
        }
        if spent_by.is_some() {
            return Err(ClubError::SpentCode);
        }
        if expires <= at {
            let ago = (at - expires) / DAY;
            return Err(ClubError::ExpiredCode(match ago {
                0 => "less than a day ago".into(),
                1 => "a day ago".into(),
                n => format!("{n} days ago"),
            }));
        }
        let role = self.role(&role)?;
        let redeemed = match into {
            Some(p) => {
                if p.role != role {
                    return Err(ClubError::OtherRole {
                        wanted: role.word(),
                        have: p.role.word(),
                    });
                }
                // Step S4: the invitation's grants join this token here.
                Redeemed {
                    token: None,
                    principal: p.clone(),
                }
            }
            None => {
                let token = Token::generate(role).map_err(|e| ClubError::Random(e.to_string()))?;
                let label = label
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .unwrap_or(&invited_label)
                    .to_owned();
                tx.execute(
                    "INSERT INTO tokens (hash, role, label, created, last_used) VALUES (?1, ?2, ?3, ?4, ?4)",
                    params![&token.hash()[..], role.word(), label, at],
                )
                .map_err(|e| self.sql(e))?;
                Redeemed {
                    token: Some(token),
                    principal: Principal {
                        token: tx.last_insert_rowid(),
                        role,
                        label,
                    },
                }
            }
        };
        tx.execute(
            "UPDATE invitations SET spent_by = ?2 WHERE id = ?1",
            params![id, redeemed.principal.token],
        )
        .map_err(|e| self.sql(e))?;
        tx.commit().map_err(|e| self.sql(e))?;
        Ok(redeemed)
    }

    /// [`TokenStore::invite`] at a given time (tests move the clock).
    pub fn invite_at(
        &self,
        role: Role,
        label: &str,
        days: u32,
        at: i64,
    ) -> Result<Invitation, ClubError> {
        if !(1..=30).contains(&days) {
            return Err(ClubError::BadDays(days));
        }
        let conn = self.conn();
        self.insert_invitation(&conn, role, label, days, at)
    }

    fn token_info(&self, conn: &Connection, id: TokenId) -> Result<TokenInfo, ClubError> {
        let row = conn
            .query_row(
                "SELECT role, label, created, last_used, revoked FROM tokens WHERE id = ?1",
                [id],
                |r| {
                    let role: String = r.get(0)?;
                    let info = TokenInfo {
                        id,
                        role: Role::Player,
                        label: r.get(1)?,
                        created: r.get(2)?,
                        last_used: r.get(3)?,
                        revoked: r.get(4)?,
                    };
                    Ok((role, info))
                },
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        let (role, info) = row.ok_or(ClubError::NoSuchToken(id))?;
        Ok(TokenInfo {
            role: self.role(&role)?,
            ..info
        })
    }
}

impl TokenStore for ClubFile {
    fn organiser_invitation(&self, force: bool) -> Result<Option<Invitation>, ClubError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.sql(e))?;
        let organisers: i64 = tx
            .query_row(
                "SELECT count(*) FROM tokens WHERE role = 'organiser' AND revoked IS NULL",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.sql(e))?;
        if organisers > 0 && !force {
            return Ok(None);
        }
        tx.execute(
            "UPDATE invitations SET void = 1 WHERE role = 'organiser' AND spent_by IS NULL",
            [],
        )
        .map_err(|e| self.sql(e))?;
        let inv = self.insert_invitation(
            &tx,
            Role::Organiser,
            "organiser",
            ORGANISER_INVITATION_DAYS,
            now(),
        )?;
        tx.commit().map_err(|e| self.sql(e))?;
        Ok(Some(inv))
    }

    fn authenticate(&self, token: &Token) -> Result<Principal, ClubError> {
        let conn = self.conn();
        let row: Option<(i64, String, String, Option<i64>)> = conn
            .query_row(
                "SELECT id, role, label, revoked FROM tokens WHERE hash = ?1",
                [&token.hash()[..]],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        let (id, role, label, revoked) = row.ok_or(ClubError::UnknownToken)?;
        if revoked.is_some() {
            return Err(ClubError::RevokedToken);
        }
        conn.execute(
            "UPDATE tokens SET last_used = ?2 WHERE id = ?1",
            params![id, now()],
        )
        .map_err(|e| self.sql(e))?;
        Ok(Principal {
            token: id,
            role: self.role(&role)?,
            label,
        })
    }

    fn redeem(
        &self,
        code: &Code,
        label: Option<&str>,
        into: Option<&Principal>,
    ) -> Result<Redeemed, ClubError> {
        self.redeem_at(code, label, into, now())
    }

    fn invite(
        &self,
        _by: &Principal,
        role: Role,
        label: &str,
        days: u32,
    ) -> Result<Invitation, ClubError> {
        self.invite_at(role, label, days, now())
    }

    fn tokens(&self) -> Result<Vec<TokenInfo>, ClubError> {
        let conn = self.conn();
        let ids: Vec<TokenId> = conn
            .prepare("SELECT id FROM tokens ORDER BY id")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .map_err(|e| self.sql(e))?;
        ids.into_iter()
            .map(|id| self.token_info(&conn, id))
            .collect()
    }

    fn revoke(&self, id: TokenId) -> Result<TokenInfo, ClubError> {
        let conn = self.conn();
        conn.execute(
            "UPDATE tokens SET revoked = ?2 WHERE id = ?1 AND revoked IS NULL",
            params![id, now()],
        )
        .map_err(|e| self.sql(e))?;
        self.token_info(&conn, id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn club() -> (tempfile::TempDir, ClubFile) {
        let dir = tempfile::tempdir().unwrap();
        let club = ClubFile::open(&dir.path().join(CLUB_FILE)).unwrap();
        (dir, club)
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
        let inv = club.invite_at(Role::Player, "Anna", 7, now()).unwrap();
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
        let inv = club.invite_at(Role::Player, "Anna", 7, t0).unwrap();
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
        let inv = club.invite_at(Role::Player, "Anna", 7, now()).unwrap();
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

    #[test]
    fn a_campaign_file_is_not_a_club_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("PRAGMA application_id = 1; PRAGMA user_version = 3;")
            .unwrap();
        drop(conn);
        let err = ClubFile::open(&path).err().expect("refused");
        assert!(err.to_string().contains("not a Xenolog club file"), "{err}");
    }

    #[test]
    fn the_club_migrations_are_valid() {
        Migrations::from_slice(MIGRATIONS).validate().unwrap();
    }
}
