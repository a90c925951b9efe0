//! The embedded store: a data folder holding the club file
//! `club.xenolog-club` (SQLite, its own migrations in `server/migrations/`)
//! and, from step S4, one campaign file per campaign as today.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use rusqlite_migration::{M, Migrations};

use serde_json::Value;
use std::collections::HashMap;
use xenolog_engine::fair::{self, Bytes32, SeatNonce};
use xenolog_engine::{Actor, Battle, EntryId, games};
use xenolog_saves::{Campaign, DiceMode};

use super::{
    BattleStore, CampaignId, CampaignInfo, ClubError, CreatedBattle, Grant, Invitation, Joined,
    LiveStore, NewBattle, Played, Principal, Redeemed, SeatInvite, ServerBattleId, Store, TokenId,
    TokenInfo, TokenStore,
};
use crate::secret::{Code, Role, Token, random_bytes};

/// The club file's name inside the data folder.
pub const CLUB_FILE: &str = "club.xenolog-club";
/// Marks a SQLite file as a Xenolog club file ('XNLC'); set by migration 1.
pub const CLUB_APPLICATION_ID: i32 = 0x584E_4C43;
/// How long the organiser invitation printed at a start stays valid.
pub const ORGANISER_INVITATION_DAYS: u32 = 7;

static MIGRATIONS: &[M<'static>] = &[
    M::up(include_str!("../../migrations/0001_club.sql")),
    M::up(include_str!("../../migrations/0002_battles.sql")),
    M::up(include_str!("../../migrations/0003_commands.sql")),
];
/// The campaign files' folder inside the data folder.
pub const CAMPAIGNS: &str = "campaigns";

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
    fn battles(&self) -> &dyn BattleStore {
        &self.club
    }
    fn live(&self) -> &dyn LiveStore {
        &self.club
    }
}

/// The club file: tokens, grants, invitations, campaigns.
pub struct ClubFile {
    path: PathBuf,
    /// The data folder (campaign files under `campaigns/`).
    dir: PathBuf,
    conn: Mutex<Connection>,
    /// The campaign files this server holds open (their writer locks) and
    /// their loaded battles. Taken after `conn`, never before it.
    live: Mutex<HashMap<CampaignId, LiveCampaign>>,
}

/// An open campaign file and its started battles in memory.
struct LiveCampaign {
    campaign: Campaign,
    battles: HashMap<i64, Box<dyn Battle>>,
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
            dir: path.parent().unwrap_or(Path::new(".")).to_owned(),
            conn: Mutex::new(conn),
            live: Mutex::new(HashMap::new()),
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
        seat: Option<SeatInvite>,
    ) -> Result<Invitation, ClubError> {
        let code = Code::generate().map_err(|e| ClubError::Random(e.to_string()))?;
        let expires = at + i64::from(days) * DAY;
        conn.execute(
            "INSERT INTO invitations (hash, role, label, created, expires, campaign, battle, seat)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                &code.hash()[..],
                role.word(),
                label,
                at,
                expires,
                seat.map(|s| s.campaign),
                seat.map(|s| s.battle),
                seat.map(|s| s.seat)
            ],
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
        // A seat invitation's seat joins the token's grants.
        tx.execute(
            "INSERT INTO grants (token, campaign, battle, seat)
             SELECT ?2, campaign, battle, seat FROM invitations
             WHERE id = ?1 AND campaign IS NOT NULL",
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
        seat: Option<SeatInvite>,
    ) -> Result<Invitation, ClubError> {
        if !(1..=30).contains(&days) {
            return Err(ClubError::BadDays(days));
        }
        let conn = self.conn();
        if let Some(s) = seat {
            let seats: Option<(CampaignId, i64)> = conn
                .query_row(
                    "SELECT campaign, seats FROM server_battles WHERE id = ?1",
                    [s.battle],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(|e| self.sql(e))?;
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
        self.insert_invitation(&conn, role, label, days, at, seat)
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
            None,
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
        seat: Option<SeatInvite>,
    ) -> Result<Invitation, ClubError> {
        self.invite_at(role, label, days, now(), seat)
    }

    fn grants(&self, token: TokenId) -> Result<Vec<Grant>, ClubError> {
        let conn = self.conn();
        conn.prepare("SELECT campaign, battle, seat FROM grants WHERE token = ?1 ORDER BY rowid")
            .and_then(|mut s| {
                s.query_map([token], |r| {
                    Ok(Grant {
                        campaign: r.get(0)?,
                        battle: r.get(1)?,
                        seat: r.get(2)?,
                    })
                })?
                .collect()
            })
            .map_err(|e| self.sql(e))
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

impl ClubFile {
    fn campaign_path(&self, conn: &Connection, id: CampaignId) -> Result<PathBuf, ClubError> {
        let file: Option<String> = conn
            .query_row("SELECT file FROM campaigns WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.sql(e))?;
        Ok(self.dir.join(file.ok_or(ClubError::NoSuchCampaign(id))?))
    }

    /// Start a battle whose every seat has joined: its seed is derived from
    /// the secret and every nonce, and it is written to its campaign file.
    fn start(
        &self,
        conn: &Connection,
        battle: ServerBattleId,
        row: &BattleRow,
        nonces: Vec<SeatNonce>,
    ) -> Result<i64, ClubError> {
        let path = self.campaign_path(conn, row.campaign)?;
        let campaign_err = |e: xenolog_saves::SaveError| ClubError::Campaign {
            file: path.display().to_string(),
            why: e.to_string(),
        };
        let mut live = self.live();
        let campaign = &mut self.open_campaign(&mut live, row.campaign, &path)?.campaign;
        let config: Value = serde_json::from_str(&row.config).map_err(|e| ClubError::File {
            path: self.path.display().to_string(),
            why: format!("battle {battle}'s config is not JSON: {e}"),
        })?;
        campaign
            .new_club_battle(
                &row.game,
                &config,
                &row.title,
                DiceMode::Rolled,
                row.strict,
                &row.secret,
                nonces,
            )
            .map_err(campaign_err)
    }
}

impl ClubFile {
    fn live(&self) -> std::sync::MutexGuard<'_, HashMap<CampaignId, LiveCampaign>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The open campaign, opened (and its writer lock taken) on first use.
    fn open_campaign<'a>(
        &self,
        live: &'a mut HashMap<CampaignId, LiveCampaign>,
        id: CampaignId,
        path: &Path,
    ) -> Result<&'a mut LiveCampaign, ClubError> {
        match live.entry(id) {
            std::collections::hash_map::Entry::Occupied(e) => Ok(e.into_mut()),
            std::collections::hash_map::Entry::Vacant(v) => {
                let campaign = Campaign::open(path).map_err(|e| ClubError::Campaign {
                    file: path.display().to_string(),
                    why: e.to_string(),
                })?;
                Ok(v.insert(LiveCampaign {
                    campaign,
                    battles: HashMap::new(),
                }))
            }
        }
    }

    /// Where a started battle lives: its campaign, that campaign's file, and
    /// its id in it.
    fn located(&self, battle: ServerBattleId) -> Result<(CampaignId, PathBuf, i64), ClubError> {
        let conn = self.conn();
        let row: Option<(CampaignId, Option<i64>)> = conn
            .query_row(
                "SELECT campaign, battle FROM server_battles WHERE id = ?1",
                [battle],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        let (campaign, started) = row.ok_or(ClubError::NoSuchBattle(battle))?;
        let started = started.ok_or(ClubError::NotStarted(battle))?;
        Ok((campaign, self.campaign_path(&conn, campaign)?, started))
    }

    /// Run `f` on a started battle, loaded on first use.
    fn with_live<T>(
        &self,
        battle: ServerBattleId,
        f: impl FnOnce(&mut Campaign, i64, &mut Box<dyn Battle>) -> Result<T, ClubError>,
    ) -> Result<T, ClubError> {
        let (campaign, path, id) = self.located(battle)?;
        let mut live = self.live();
        let lc = self.open_campaign(&mut live, campaign, &path)?;
        let b = match lc.battles.entry(id) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let loaded = lc
                    .campaign
                    .load_battle(id)
                    .map_err(|e| ClubError::Campaign {
                        file: path.display().to_string(),
                        why: e.to_string(),
                    })?;
                v.insert(loaded)
            }
        };
        f(&mut lc.campaign, id, b)
    }
}

impl ClubFile {
    /// Decide, write and reveal (`LiveStore::play` without the command id).
    fn play_now(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<EntryId>,
        command: &Value,
    ) -> Result<Played, ClubError> {
        self.with_live(battle, |campaign, id, b| {
            if b.outcome().is_some() {
                return Err(ClubError::Over(battle));
            }
            let head = b.cursor();
            if at != head {
                let words = match head {
                    None => "the battle is at its start".to_owned(),
                    Some(h) => {
                        let t = b.entry_texts_as(&[h], xenolog_engine::Viewer::Seat(seat));
                        match t.first() {
                            Some(t) => format!("entry {h} ({}: {})", t.actor, t.command),
                            None => format!("entry {h}"),
                        }
                    }
                };
                return Err(ClubError::Stale(words));
            }
            let entries = campaign
                .play_with_steps(id, &mut **b, seat, command, None)
                .map_err(|e| match e {
                    xenolog_saves::SaveError::Play(p) => ClubError::Rule(p.to_string()),
                    other => ClubError::Campaign {
                        file: campaign.path().display().to_string(),
                        why: other.to_string(),
                    },
                })?;
            let revealed = if b.outcome().is_some() {
                Some(
                    campaign
                        .reveal_held_secret(id)
                        .map_err(|e| ClubError::Rule(e.to_string()))?,
                )
            } else {
                None
            };
            Ok(Played {
                entries,
                revealed,
                again: false,
            })
        })
    }
}

impl LiveStore for ClubFile {
    fn play(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<EntryId>,
        command: &Value,
        cmd_id: Option<&str>,
    ) -> Result<Played, ClubError> {
        if let Some(cid) = cmd_id {
            let done: Option<String> = self
                .conn()
                .query_row(
                    "SELECT entries FROM server_commands
                     WHERE server_battle = ?1 AND seat = ?2 AND cmd_id = ?3",
                    rusqlite::params![battle, seat.0, cid],
                    |r| r.get(0),
                )
                .optional()
                .map_err(|e| self.sql(e))?;
            if let Some(done) = done {
                return Ok(Played {
                    entries: serde_json::from_str(&done).unwrap_or_default(),
                    revealed: None,
                    again: true,
                });
            }
        }
        let played = self.play_now(battle, seat, at, command)?;
        if let Some(cid) = cmd_id {
            // After the entries are durable; see migration 3 for a crash between.
            let entries = serde_json::to_string(&played.entries).unwrap_or_default();
            if let Err(e) = self.conn().execute(
                "INSERT OR IGNORE INTO server_commands (server_battle, seat, cmd_id, entries)
                 VALUES (?1, ?2, ?3, ?4)",
                rusqlite::params![battle, seat.0, cid, entries],
            ) {
                eprintln!("serve: battle {battle}: a command id was not recorded: {e}");
            }
        }
        Ok(played)
    }

    fn read(
        &self,
        battle: ServerBattleId,
        f: &mut dyn FnMut(&dyn Battle),
    ) -> Result<(), ClubError> {
        self.with_live(battle, |_, _, b| {
            f(&**b);
            Ok(())
        })
    }

    fn revealed(&self, battle: ServerBattleId) -> Result<Option<Bytes32>, ClubError> {
        self.with_live(battle, |campaign, id, _| {
            campaign
                .fair_secret(id)
                .map_err(|e| ClubError::Rule(e.to_string()))
        })
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
}

fn blob32(v: Vec<u8>) -> Bytes32 {
    let mut b = [0u8; 32];
    // The table's CHECK keeps these 32 bytes long.
    let n = v.len().min(32);
    b[..n].copy_from_slice(&v[..n]);
    b
}

impl BattleStore for ClubFile {
    fn create_campaign(&self, name: &str) -> Result<CampaignInfo, ClubError> {
        let name = name.trim();
        let conn = self.conn();
        let next: i64 = conn
            .query_row("SELECT coalesce(max(id), 0) + 1 FROM campaigns", [], |r| {
                r.get(0)
            })
            .map_err(|e| self.sql(e))?;
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
        conn.execute(
            "INSERT INTO campaigns (id, file, name, created) VALUES (?1, ?2, ?3, ?4)",
            params![next, file, name, now()],
        )
        .map_err(|e| self.sql(e))?;
        Ok(CampaignInfo {
            id: next,
            name: name.to_owned(),
            file,
        })
    }

    fn campaigns(&self) -> Result<Vec<CampaignInfo>, ClubError> {
        let conn = self.conn();
        conn.prepare("SELECT id, name, file FROM campaigns ORDER BY id")
            .and_then(|mut s| {
                s.query_map([], |r| {
                    Ok(CampaignInfo {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        file: r.get(2)?,
                    })
                })?
                .collect()
            })
            .map_err(|e| self.sql(e))
    }

    fn create_battle(&self, b: NewBattle) -> Result<CreatedBattle, ClubError> {
        let conn = self.conn();
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
        conn.execute(
            "INSERT INTO server_battles
                 (campaign, game, config, title, strict, seats, secret, commitment, created)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                b.campaign,
                b.game,
                b.config.to_string(),
                title,
                b.strict,
                seats.len() as i64,
                &secret[..],
                &commitment[..],
                now()
            ],
        )
        .map_err(|e| self.sql(e))?;
        Ok(CreatedBattle {
            id: conn.last_insert_rowid(),
            seats,
            commitment,
        })
    }

    fn join(&self, battle: ServerBattleId, seat: u8, nonce: Bytes32) -> Result<Joined, ClubError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.sql(e))?;
        let row = tx
            .query_row(
                "SELECT campaign, game, config, title, strict, seats, secret, commitment, battle
                 FROM server_battles WHERE id = ?1",
                [battle],
                |r| {
                    Ok(BattleRow {
                        campaign: r.get(0)?,
                        game: r.get(1)?,
                        config: r.get(2)?,
                        title: r.get(3)?,
                        strict: r.get(4)?,
                        seats: r.get::<_, i64>(5)? as usize,
                        secret: blob32(r.get(6)?),
                        commitment: blob32(r.get(7)?),
                        started: r.get(8)?,
                    })
                },
            )
            .optional()
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
            .query_row(
                "SELECT nonce FROM server_nonces WHERE server_battle = ?1 AND seat = ?2",
                params![battle, seat],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        match given {
            // The same nonce again (a resent join) is answered as the first time.
            Some(n) if n == nonce => {}
            Some(_) => return Err(ClubError::AlreadyJoined { battle, seat }),
            None => {
                tx.execute(
                    "INSERT INTO server_nonces (server_battle, seat, nonce, joined)
                     VALUES (?1, ?2, ?3, ?4)",
                    params![battle, seat, &nonce[..], now()],
                )
                .map_err(|e| self.sql(e))?;
            }
        }
        let nonces: Vec<SeatNonce> = tx
            .prepare("SELECT seat, nonce FROM server_nonces WHERE server_battle = ?1 ORDER BY seat")
            .and_then(|mut s| {
                s.query_map([battle], |r| {
                    Ok(SeatNonce {
                        seat: Actor(r.get(0)?),
                        nonce: blob32(r.get(1)?),
                        absent: false,
                    })
                })?
                .collect()
            })
            .map_err(|e| self.sql(e))?;
        let joined: Vec<u8> = nonces.iter().map(|n| n.seat.0).collect();
        let mut started = row.started;
        if started.is_none() && nonces.len() == row.seats {
            let id = self.start(&tx, battle, &row, nonces)?;
            tx.execute(
                "UPDATE server_battles SET battle = ?2 WHERE id = ?1",
                params![battle, id],
            )
            .map_err(|e| self.sql(e))?;
            started = Some(id);
        }
        tx.commit().map_err(|e| self.sql(e))?;
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
