//! The club's tokens and invitations ([`TokenStore`]) over its database
//! ([`ClubDb`]: the club file, or a schema of a PostgreSQL database).
//!
//! Every token not revoked is held in memory by its hash, so a `hello`
//! finds its token without the database; the times tokens were last used
//! are written in batches (see the fields). On PostgreSQL several server
//! processes share one club: a revocation is written with a `pg_notify`
//! in its own transaction (delivered at commit, never before;
//! `server/POSTGRES.md` §2), and each process's listener
//! ([`super::notify`]) hands it to [`ClubTokens::hint`], which forgets the
//! token here too; after the listener reconnects (notifications may have
//! been missed) the whole map is read again ([`ClubTokens::reload`]).
//!
//! On PostgreSQL the memory is trusted only while this process's listener
//! listens and has caught up on its present connection (review3 SHOULD 1):
//! otherwise (no listener, its connection lost, connecting again, not yet
//! read again) every `hello` reads the table, so a token revoked by another
//! process meanwhile is refused.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use xenolog_saves::db::{Db, DbError, DbExt, Row};

use super::club_db::ClubDb;
use super::notify::{Hint, Listener, Live};
use super::{
    CampaignId, ClubError, Grant, Invitation, Principal, Redeemed, SeatInvite, TokenId, TokenInfo,
    TokenStore,
};
use crate::secret::{Code, Role, Token};

/// How long the organiser invitation printed at a start stays valid.
pub const ORGANISER_INVITATION_DAYS: u32 = 7;

pub(crate) const DAY: i64 = 24 * 60 * 60;

/// Unix seconds now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// The notification channel of a club on PostgreSQL (one per club schema):
/// `xenolog_` and the schema's name, or, when that would pass PostgreSQL's
/// 63 bytes for a name (a schema of 56 or more; review3 SHOULD 6), its
/// first 38 bytes and a hash of the whole (two such schemas share a
/// channel only by a 64-bit collision; a hint is only a hint anyway).
pub fn channel(schema: &str) -> String {
    let plain = format!("xenolog_{schema}");
    if plain.len() <= 63 {
        return plain;
    }
    // FNV-1a, 64 bits: stable across builds and platforms.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in schema.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let head: String = schema.chars().take(38).collect();
    format!("xenolog_{head}_{h:016x}")
}

/// The club's tokens, invitations and grants.
pub struct ClubTokens {
    db: Arc<ClubDb>,
    /// Every token not revoked, by its hash: filled at the start and kept
    /// in step by `redeem` and `revoke` (and, on PostgreSQL, by the
    /// listener's hints), so that a `hello` (2,000 of them after a
    /// restart) finds its token without the database's lock.
    tokens: Mutex<HashMap<[u8; 32], Principal>>,
    /// When tokens were last used, not yet written: a `hello` writes
    /// nothing (each write would be an fsync under the club file's lock);
    /// these are written together when the tokens are listed, when idle
    /// battles are looked for (every minute), and when the server stops. A
    /// killed server forgets the last minute's (the time is shown to the
    /// organiser, nothing depends on it).
    last_used: Mutex<HashMap<TokenId, i64>>,
    /// On PostgreSQL, this process's listener's state (set by
    /// [`ClubTokens::listen`]); without it the memory is never trusted.
    live: Mutex<Option<Arc<Live>>>,
    /// The listener's connection whose catch-up (the tokens read again
    /// after it listened) is done; 0: none.
    caught_up: AtomicU64,
    /// Counts tokens forgotten: a reload that read its rows before a
    /// revocation's `forget` does not put the token back (it reads again).
    forgotten: AtomicU64,
}

impl Drop for ClubTokens {
    /// A server stopping writes the token times only memory holds (on
    /// PostgreSQL off the runtime's threads: its client blocks).
    fn drop(&mut self) {
        if self.db.is_sqlite() {
            self.flush_last_used();
        } else {
            super::club_db::off_runtime(|| self.flush_last_used());
        }
    }
}

/// 32 bytes from a cell the table's CHECK keeps 32 bytes long.
pub(crate) fn blob32(v: Vec<u8>) -> [u8; 32] {
    let mut b = [0u8; 32];
    let n = v.len().min(32);
    b[..n].copy_from_slice(&v[..n]);
    b
}

impl ClubTokens {
    /// The tokens of the club in `db`, read into memory.
    pub fn open(db: Arc<ClubDb>) -> Result<ClubTokens, ClubError> {
        let t = ClubTokens {
            db,
            tokens: Mutex::new(HashMap::new()),
            last_used: Mutex::new(HashMap::new()),
            live: Mutex::new(None),
            caught_up: AtomicU64::new(0),
            forgotten: AtomicU64::new(0),
        };
        t.reload()?;
        Ok(t)
    }

    /// The club's database.
    pub fn db(&self) -> &Arc<ClubDb> {
        &self.db
    }

    /// Read every token not revoked again (the listener reconnected: a
    /// revocation made meanwhile by another process may not have been
    /// heard).
    ///
    /// A token forgotten (revoked) while the rows were read is not put
    /// back: the rows are read again (review3 SHOULD 1, the smaller race).
    pub fn reload(&self) -> Result<(), ClubError> {
        for _ in 0..5 {
            let before = self.forgotten.load(Ordering::Acquire);
            let conn = self.db.lock()?;
            let mut rows: Vec<(Vec<u8>, TokenId, String, String)> = Vec::new();
            conn.each(
                "SELECT hash, id, role, label FROM tokens WHERE revoked IS NULL",
                &[],
                |r| {
                    rows.push((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?));
                    Ok::<(), DbError>(())
                },
            )
            .map_err(|e| self.db.err(e))?;
            drop(conn);
            let mut tokens = HashMap::new();
            for (hash, id, role, label) in rows {
                tokens.insert(
                    blob32(hash),
                    Principal {
                        token: id,
                        role: self.role(&role)?,
                        label,
                    },
                );
            }
            // `forget` counts under this lock: unchanged, no revocation
            // came between the read and now that the rows could lack.
            let mut held = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
            if self.forgotten.load(Ordering::Acquire) == before {
                *held = tokens;
                return Ok(());
            }
        }
        Err(ClubError::File {
            path: self.db.place.clone(),
            why: "tokens kept being revoked while they were read again".into(),
        })
    }

    /// Whether a `hello` may be answered from memory: always on the SQLite
    /// club file (one process); on PostgreSQL only while the listener
    /// listens and has caught up on its present connection.
    pub fn trusts_memory(&self) -> bool {
        if self.db.is_sqlite() {
            return true;
        }
        let live = self.live.lock().unwrap_or_else(|p| p.into_inner()).clone();
        match live.and_then(|l| l.listening()) {
            Some(n) => self.caught_up.load(Ordering::Acquire) == n,
            None => false,
        }
    }

    /// Read the tokens again for the listener's present connection, and
    /// trust the memory for it once read.
    fn catch_up(&self) -> Result<(), ClubError> {
        let live = self.live.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let Some(n) = live.and_then(|l| l.listening()) else {
            // Lost again already: its next connection says catch up.
            return Ok(());
        };
        self.reload()?;
        self.caught_up.fetch_max(n, Ordering::AcqRel);
        Ok(())
    }

    /// On PostgreSQL, this process's listener on the club's channel
    /// ([`channel`]), its hints handed to this store ([`ClubTokens::hint`]);
    /// once it listens the tokens are read again, so a revocation made
    /// between the first read and the `LISTEN` is not missed. `None` on
    /// the SQLite club file (one server process: the folder's lock). The
    /// listener holds the store weakly; drop the listener to stop it.
    pub fn listen(self: &Arc<Self>) -> Result<Option<Listener>, ClubError> {
        let Some((url, schema)) = self.db.postgres() else {
            return Ok(None);
        };
        let me = Arc::downgrade(self);
        let listener = Listener::start(url, &channel(schema), move |hint| {
            if let Some(t) = me.upgrade() {
                t.hint(&hint);
            }
        })?;
        self.follow(&listener)?;
        Ok(Some(listener))
    }

    /// Take `listener` (started by this store or by the server's one
    /// listener, `ClubStore::listen`) as the one this store's memory
    /// follows, and read the tokens again now that it listens: from then
    /// on a `hello` is answered from memory while it listens
    /// ([`ClubTokens::trusts_memory`]).
    pub fn follow(&self, listener: &Listener) -> Result<(), ClubError> {
        *self.live.lock().unwrap_or_else(|p| p.into_inner()) = Some(listener.live());
        self.catch_up()
    }

    /// Whether [`ClubTokens::hint`] does anything with `hint` (it may
    /// then read the tokens again: a blocking call): a revocation and a
    /// catch-up; a battle's hints are nothing to the tokens.
    pub fn heeds(hint: &Hint) -> bool {
        matches!(hint, Hint::Revoked(_) | Hint::CatchUp)
    }

    /// A hint from the listener: a token revoked elsewhere is forgotten
    /// here; after a reconnect everything is read again. Called on the
    /// listener's plain thread (it may block on the database).
    pub fn hint(&self, hint: &Hint) {
        match hint {
            Hint::Revoked(id) => self.forget(*id),
            Hint::CatchUp => {
                if let Err(e) = self.catch_up() {
                    eprintln!(
                        "serve: {}: the tokens could not be read again: {e}",
                        self.db.place
                    );
                }
            }
            Hint::Entry { .. } | Hint::Carried { .. } | Hint::Moved { .. } | Hint::Other(_) => {}
        }
    }

    /// Forget a token (revoked): its next `hello` reads the database.
    fn forget(&self, id: TokenId) {
        let mut held = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
        held.retain(|_, p| p.token != id);
        self.forgotten.fetch_add(1, Ordering::AcqRel);
    }

    /// Write the times tokens were last used that only memory holds, in
    /// one transaction. A failure is logged and they are kept for the next
    /// time.
    fn write_last_used(&self, conn: &dyn Db) {
        let pending: Vec<(TokenId, i64)> = self
            .last_used
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain()
            .collect();
        if pending.is_empty() {
            return;
        }
        let written = (|| {
            let tx = xenolog_saves::db::begin(conn, xenolog_saves::db::Begin::Deferred)?;
            for (id, at) in &pending {
                tx.execute(
                    "UPDATE tokens SET last_used = max(coalesce(last_used, 0), ?2) WHERE id = ?1",
                    &[id, at],
                )?;
            }
            tx.commit()
        })();
        if let Err(e) = written {
            eprintln!(
                "serve: {}: when tokens were last used could not be written: {e}",
                self.db.place
            );
            let mut m = self.last_used.lock().unwrap_or_else(|p| p.into_inner());
            for (id, at) in pending {
                let t = m.entry(id).or_insert(at);
                *t = (*t).max(at);
            }
        }
    }

    /// [`ClubTokens::write_last_used`] taking the database's lock.
    pub fn flush_last_used(&self) {
        match self.db.lock() {
            Ok(conn) => self.write_last_used(&*conn),
            Err(e) => eprintln!(
                "serve: {}: when tokens were last used could not be written: {e}",
                self.db.place
            ),
        }
    }

    fn role(&self, word: &str) -> Result<Role, ClubError> {
        Role::from_word(word).ok_or_else(|| ClubError::File {
            path: self.db.place.clone(),
            why: format!("it names an unknown role '{word}'"),
        })
    }

    /// Make and store an invitation; its code exists only in the result.
    fn insert_invitation(
        &self,
        conn: &dyn Db,
        role: Role,
        label: &str,
        days: u32,
        at: i64,
        seat: Option<SeatInvite>,
    ) -> Result<Invitation, ClubError> {
        let code = Code::generate().map_err(|e| ClubError::Random(e.to_string()))?;
        let expires = at + i64::from(days) * DAY;
        conn.execute(
            "INSERT INTO invitations (hash, role, label, created, expires, campaign, battle, seat)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            &[
                &&code.hash()[..],
                &role.word(),
                &label,
                &at,
                &expires,
                &seat.map(|s| s.campaign),
                &seat.map(|s| s.battle),
                &seat.map(|s| s.seat),
            ],
        )
        .map_err(|e| self.db.err(e))?;
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
        let conn = self.db.lock()?;
        let tx = self.db.begin(&conn)?;
        type Found = (i64, String, String, i64, Option<i64>, bool);
        let found: Option<Found> = tx
            .row(
                "SELECT id, role, label, expires, spent_by, void FROM invitations WHERE hash = ?1",
                &[&&code.hash()[..]],
                |r| r.tuple::<Found>(),
            )
            .map_err(|e| self.db.err(e))?;
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
                let id = tx
                    .insert_id(
                        "INSERT INTO tokens (hash, role, label, created, last_used) VALUES (?1, ?2, ?3, ?4, ?4)",
                        &[&&token.hash()[..], &role.word(), &label, &at],
                    )
                    .map_err(|e| self.db.err(e))?;
                Redeemed {
                    token: Some(token),
                    principal: Principal {
                        token: id,
                        role,
                        label,
                    },
                }
            }
        };
        // Review3 M2: spent only if still unspent and not void. On
        // PostgreSQL (READ COMMITTED) the SELECT above does not lock: two
        // processes may both have read it unspent; this UPDATE waits for
        // the other's to commit and then finds its row spent (no row
        // changed): this redemption is refused and its token rolled back.
        let spent = tx
            .execute(
                "UPDATE invitations SET spent_by = ?2 WHERE id = ?1 AND spent_by IS NULL AND void = 0",
                &[&id, &redeemed.principal.token],
            )
            .map_err(|e| self.db.err(e))?;
        if spent != 1 {
            return Err(ClubError::SpentCode);
        }
        // A seat invitation's seat joins the token's grants.
        tx.execute(
            "INSERT INTO grants (token, campaign, battle, seat)
             SELECT ?2, campaign, battle, seat FROM invitations
             WHERE id = ?1 AND campaign IS NOT NULL",
            &[&id, &redeemed.principal.token],
        )
        .map_err(|e| self.db.err(e))?;
        tx.commit().map_err(|e| self.db.err(e))?;
        if let Some(token) = &redeemed.token {
            self.tokens
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(token.hash(), redeemed.principal.clone());
        }
        Ok(redeemed)
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
        if !(1..=30).contains(&days) {
            return Err(ClubError::BadDays(days));
        }
        let conn = self.db.lock()?;
        if let Some(s) = seat {
            let seats: Option<(CampaignId, i64)> = conn
                .row(
                    "SELECT campaign, seats FROM server_battles WHERE id = ?1",
                    &[&s.battle],
                    |r| Ok::<_, DbError>((r.get(0)?, r.get(1)?)),
                )
                .map_err(|e| self.db.err(e))?;
            match seats {
                Some((c, n)) if c == s.campaign => {
                    let n = n as usize;
                    if usize::from(s.seat) >= n {
                        return Err(ClubError::NoSuchSeat {
                            battle: s.battle,
                            seat: s.seat,
                            seats: n,
                        });
                    }
                }
                _ => return Err(ClubError::NoSuchBattle(s.battle)),
            }
        }
        self.insert_invitation(&*conn, role, label, days, at, seat)
    }

    fn token_info(&self, conn: &dyn Db, id: TokenId) -> Result<TokenInfo, ClubError> {
        let read = |r: &Row<'_>| -> Result<(String, TokenInfo), DbError> {
            Ok((
                r.get(0)?,
                TokenInfo {
                    id,
                    role: Role::Player,
                    label: r.get(1)?,
                    created: r.get(2)?,
                    last_used: r.get(3)?,
                    revoked: r.get(4)?,
                },
            ))
        };
        let row = conn
            .row(
                "SELECT role, label, created, last_used, revoked FROM tokens WHERE id = ?1",
                &[&id],
                read,
            )
            .map_err(|e| self.db.err(e))?;
        let (role, info) = row.ok_or(ClubError::NoSuchToken(id))?;
        Ok(TokenInfo {
            role: self.role(&role)?,
            ..info
        })
    }
}

impl TokenStore for ClubTokens {
    fn organiser_invitation(&self, force: bool) -> Result<Option<Invitation>, ClubError> {
        let conn = self.db.lock()?;
        let tx = self.db.begin(&conn)?;
        // Review3 M2: two processes starting at once make one valid
        // organiser invitation, not two (SQLite's BEGIN IMMEDIATE already
        // serialises; PostgreSQL's BEGIN does not): the second waits here
        // for the first to commit, then voids the first's.
        if let Some((_, schema)) = self.db.postgres() {
            tx.execute(
                "SELECT pg_advisory_xact_lock(hashtext(?1))",
                &[&format!("xenolog club {schema} organiser invitation")],
            )
            .map_err(|e| self.db.err(e))?;
        }
        let organisers: i64 = tx
            .one(
                "SELECT count(*) FROM tokens WHERE role = 'organiser' AND revoked IS NULL",
                &[],
            )
            .map_err(|e| self.db.err(e))?;
        if organisers > 0 && !force {
            return Ok(None);
        }
        // On PostgreSQL another server process of the club may have made
        // the invitation waiting now and printed it to its operator, who
        // has not redeemed it yet (issue 31 P5): a second `serve
        // --database` started meanwhile finds it and makes none, rather
        // than voiding the code just printed. (A club file has one server
        // at a time: there a start without an organiser always prints a
        // new one, the old one voided.) `force` makes a new one anyway.
        if self.db.postgres().is_some() && !force {
            let waiting: Option<i64> = tx
                .one(
                    "SELECT max(expires) FROM invitations
                         WHERE role = 'organiser' AND spent_by IS NULL AND void = 0
                           AND expires > ?1",
                    &[&now()],
                )
                .map_err(|e| self.db.err(e))?;
            if let Some(until) = waiting {
                eprintln!(
                    "serve: {}: an organiser invitation made by a server of this club is waiting \
                     (valid {} more day(s)), not yet redeemed: redeem that one, or start with \
                     --invite-organiser to make a new one (the waiting one is then void)",
                    self.db.place,
                    ((until - now()).max(0) + DAY - 1) / DAY
                );
                return Ok(None);
            }
        }
        tx.execute(
            "UPDATE invitations SET void = 1 WHERE role = 'organiser' AND spent_by IS NULL",
            &[],
        )
        .map_err(|e| self.db.err(e))?;
        let inv = self.insert_invitation(
            &tx,
            Role::Organiser,
            "organiser",
            ORGANISER_INVITATION_DAYS,
            now(),
            None,
        )?;
        tx.commit().map_err(|e| self.db.err(e))?;
        Ok(Some(inv))
    }

    fn authenticate(&self, token: &Token) -> Result<Principal, ClubError> {
        let hash = token.hash();
        // On PostgreSQL the memory only while no revocation can have been
        // missed (review3 SHOULD 1); else the table decides.
        let known = if self.trusts_memory() {
            self.tokens
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&hash)
                .cloned()
        } else {
            None
        };
        if let Some(p) = known {
            self.last_used
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(p.token, now());
            return Ok(p);
        }
        // Not in memory: unknown or revoked (the database says which), or
        // (on PostgreSQL) made by another server process, or the memory is
        // not trusted now.
        let conn = self.db.lock()?;
        let row: Option<(i64, String, String, Option<i64>)> = conn
            .row(
                "SELECT id, role, label, revoked FROM tokens WHERE hash = ?1",
                &[&&hash[..]],
                |r| Ok::<_, DbError>((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .map_err(|e| self.db.err(e))?;
        let (id, role, label, revoked) = row.ok_or(ClubError::UnknownToken)?;
        if revoked.is_some() {
            return Err(ClubError::RevokedToken);
        }
        drop(conn);
        // Written with the others (a hello writes nothing, here too).
        self.last_used
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, now());
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
        seat: Option<SeatInvite>,
    ) -> Result<Invitation, ClubError> {
        self.invite_at(role, label, days, now(), seat)
    }

    fn grants(&self, token: TokenId) -> Result<Vec<Grant>, ClubError> {
        let conn = self.db.lock()?;
        let mut out = Vec::new();
        conn.each(
            "SELECT campaign, battle, seat FROM grants WHERE token = ?1 ORDER BY rowid",
            &[&token],
            |r| {
                out.push(Grant {
                    campaign: r.get(0)?,
                    battle: r.get(1)?,
                    seat: r.get(2)?,
                });
                Ok::<(), DbError>(())
            },
        )
        .map_err(|e| self.db.err(e))?;
        Ok(out)
    }

    fn tokens(&self) -> Result<Vec<TokenInfo>, ClubError> {
        let conn = self.db.lock()?;
        self.write_last_used(&*conn);
        let mut ids: Vec<TokenId> = Vec::new();
        conn.each("SELECT id FROM tokens ORDER BY id", &[], |r| {
            ids.push(r.get(0)?);
            Ok::<(), DbError>(())
        })
        .map_err(|e| self.db.err(e))?;
        ids.into_iter()
            .map(|id| self.token_info(&*conn, id))
            .collect()
    }

    fn revoke(&self, id: TokenId) -> Result<TokenInfo, ClubError> {
        let conn = self.db.lock()?;
        let tx = self.db.begin(&conn)?;
        tx.execute(
            "UPDATE tokens SET revoked = ?2 WHERE id = ?1 AND revoked IS NULL",
            &[&id, &now()],
        )
        .map_err(|e| self.db.err(e))?;
        // Every other server process on this club hears of it when (and
        // only if) the revocation commits (POSTGRES.md §2).
        if let Some((_, schema)) = self.db.postgres() {
            tx.execute(
                "SELECT pg_notify(?1, ?2)",
                &[&channel(schema), &Hint::Revoked(id).payload()],
            )
            .map_err(|e| self.db.err(e))?;
        }
        tx.commit().map_err(|e| self.db.err(e))?;
        // Written: from now on its hello is refused.
        self.forget(id);
        self.write_last_used(&*conn);
        self.token_info(&*conn, id)
    }
}
