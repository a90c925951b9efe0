//! Battles in a campaign: start, load, play, save the position, verify.

use serde_json::Value;
use xenolog_engine::games;
use xenolog_engine::{
    Actor, Battle, BattleMeta, Branch, BranchId, BranchKind, Divergence, DivergenceKind, EntryId,
    EntryRecord, LoadError, PendingKind, PlayError, RuleError, RuleErrorKind, StoredSnapshot,
    VerifyReport,
};
use xenolog_schema::DiceMode;
use xenolog_schema::codec::{decode_snapshot, encode_entry, encode_snapshot};

use crate::blocks::write_entries;
use crate::campaign::now;
use crate::db::{Begin, Db, DbError, DbExt, Dialect};
use crate::scan::read_entries;
use crate::{BattleId, Campaign, SaveError};

/// Everything stored about one battle: what the engine rebuilds it from,
/// and the campaign's own facts about it.
pub(crate) struct BattleOnDisk {
    pub parts: xenolog_engine::StoredBattle,
    pub title: String,
    pub dice_mode: DiceMode,
    pub created: i64,
}

/// Why reading a battle's entries stopped.
pub(crate) enum ScanError {
    Save(SaveError),
    /// One entry cannot be read; `verify` reports this as a divergence.
    Entry {
        seq: EntryId,
        why: String,
    },
}

impl From<DbError> for ScanError {
    fn from(e: DbError) -> Self {
        ScanError::Save(e.into())
    }
}

impl From<SaveError> for ScanError {
    fn from(e: SaveError) -> Self {
        ScanError::Save(e)
    }
}

impl ScanError {
    pub(crate) fn into_save(self, battle: BattleId) -> SaveError {
        match self {
            ScanError::Save(e) => e,
            ScanError::Entry { seq, why } => SaveError::Corrupt {
                battle,
                why: format!("entry {seq} {why}"),
            },
        }
    }
}

/// The row of a battle to insert.
pub(crate) struct NewBattleRow<'a> {
    pub meta: &'a BattleMeta,
    pub title: &'a str,
    pub dice_mode: DiceMode,
    pub created: i64,
    pub cursor: Option<EntryId>,
    pub branch: BranchId,
    pub origin: Option<&'a str>,
    /// A finished club battle's revealed secret (its fair seed is in `meta`).
    pub secret: Option<&'a xenolog_engine::fair::Bytes32>,
}

impl<'a> NewBattleRow<'a> {
    /// The row of `battle` as it stands, made now, here (no origin, no
    /// secret).
    pub(crate) fn of(battle: &'a dyn Battle, title: &'a str, dice_mode: DiceMode) -> Self {
        NewBattleRow {
            meta: battle.meta(),
            title,
            dice_mode,
            created: now(),
            cursor: battle.cursor(),
            branch: battle.current_branch(),
            origin: None,
            secret: None,
        }
    }
}

pub(crate) const INSERT_ENTRY: &str =
    "INSERT INTO entries (battle, seq, record) VALUES (?1, ?2, ?3)";
pub(crate) const INSERT_SNAPSHOT: &str =
    "INSERT INTO snapshots (battle, seq, state) VALUES (?1, ?2, ?3)";
/// The battle's position and status, after a command or a move of the cursor.
pub(crate) const UPDATE_POSITION: &str =
    "UPDATE battles SET cursor = ?1, branch = ?2, status = ?3, result = ?4, updated = ?5
         WHERE id = ?6";

/// `"in progress"` or `"over"` and the result, at the battle's cursor.
fn status_of(battle: &dyn Battle) -> (&'static str, Option<String>) {
    match battle.outcome() {
        Some(o) => ("over", Some(o.summary)),
        None => ("in progress", None),
    }
}

fn opt_i64(v: Option<u64>) -> Option<i64> {
    v.map(|x| x as i64)
}

fn corrupt(battle: BattleId, why: impl Into<String>) -> SaveError {
    SaveError::Corrupt {
        battle,
        why: why.into(),
    }
}

fn stale(battle: BattleId, why: impl Into<String>) -> SaveError {
    SaveError::Stale {
        battle,
        why: why.into(),
    }
}

/// Number of entries stored for a battle (they are dense, 0..n): the head,
/// from the open tail and the sealed blocks (`blocks::entry_count`).
fn entry_count(conn: &dyn Db, id: BattleId) -> Result<u64, SaveError> {
    Ok(crate::blocks::entry_count(conn, id)?)
}

/// The battle's row as [`check_same`] reads it.
const SAME_ROW: &str =
    "SELECT game, seed, rules_version, config, strict, cursor FROM battles WHERE id = ?1";

/// Check that `battle` is battle `id` as stored, with no entry or branch
/// missing on either side; with `from`, that the stored cursor is the one
/// the move was decided from (a take-back or walk of another connection
/// moves only the cursor: review5 M1).
///
/// Under the battle's row lock on PostgreSQL (issue 31 P5): several
/// processes may write one battle there, so the row is read `FOR UPDATE`
/// and the check and the write after it (a command's entry, a take-back's
/// position) are one step against any other writer of the battle, who
/// waits for this transaction's end or, having written first, makes this
/// check fail `Stale`. SQLite's `IMMEDIATE` transaction locks the whole
/// file already.
fn check_same(
    tx: &dyn Db,
    id: BattleId,
    battle: &dyn Battle,
    from: Option<Option<EntryId>>,
) -> Result<(), SaveError> {
    let locked;
    let sql = match tx.dialect() {
        Dialect::Postgres => {
            locked = format!("{SAME_ROW} FOR UPDATE");
            &locked
        }
        Dialect::Sqlite => SAME_ROW,
    };
    type Same = (String, i64, u32, String, bool, Option<i64>);
    let row: Option<Same> = tx.row(sql, &[&id], |r| r.tuple())?;
    let (game, seed, rules_version, config, strict, cursor) =
        row.ok_or(SaveError::NoSuchBattle(id))?;
    let m = battle.meta();
    if game != m.game
        || seed as u64 != m.seed
        || rules_version != m.rules_version
        || config != m.config
        || strict != m.strict
    {
        return Err(stale(id, "it is another battle"));
    }
    let stored = entry_count(tx, id)?;
    let held = battle.records().len() as u64;
    if stored != held {
        return Err(stale(
            id,
            format!("{held} entries in memory, {stored} stored"),
        ));
    }
    let branches: u32 = tx.one("SELECT COUNT(*) FROM branches WHERE battle = ?1", &[&id])?;
    if branches as usize != battle.branches().len() {
        return Err(stale(
            id,
            format!(
                "{} branches in memory, {branches} stored",
                battle.branches().len()
            ),
        ));
    }
    if let Some(from) = from
        && cursor != opt_i64(from)
    {
        return Err(stale(
            id,
            format!(
                "moved from {}, the stored position is {}",
                crate::batch::at_words(opt_i64(from)),
                crate::batch::at_words(cursor)
            ),
        ));
    }
    Ok(())
}

/// Every branch of battle `id`, in id order.
pub(crate) fn read_branches(conn: &dyn Db, id: BattleId) -> Result<Vec<Branch>, DbError> {
    let mut branches = Vec::new();
    conn.each(
        "SELECT id, name, parent, fork, kind FROM branches WHERE battle = ?1 ORDER BY id",
        &[&id],
        |r| {
            branches.push(Branch {
                id: r.get(0)?,
                name: r.get(1)?,
                parent: r.get(2)?,
                fork: r.get::<Option<i64>>(3)?.map(|f| f as u64),
                // No kind (stored before migration 9): told on loading.
                kind: BranchKind::parse(r.get::<Option<String>>(4)?.as_deref()),
            });
            Ok::<(), DbError>(())
        },
    )?;
    Ok(branches)
}

fn insert_branch(tx: &dyn Db, id: BattleId, b: &Branch) -> Result<(), SaveError> {
    tx.execute(
        INSERT_BRANCH,
        &[
            &id,
            &b.id,
            &b.name,
            &b.parent,
            &opt_i64(b.fork),
            &b.kind.as_str(),
        ],
    )?;
    Ok(())
}

/// A branch's row: battle, id, name, parent, fork, kind.
pub(crate) const INSERT_BRANCH: &str =
    "INSERT INTO branches (battle, id, name, parent, fork, kind) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/// Insert a whole battle in the open transaction; returns its id.
/// Insert a battle just made (no entries yet) in `tx`: its row and its
/// branches, the status it starts in.
pub(crate) fn insert_fresh(
    tx: &dyn Db,
    battle: &dyn Battle,
    title: &str,
    dice_mode: DiceMode,
) -> Result<BattleId, SaveError> {
    let (status, result) = status_of(battle);
    insert_battle(
        tx,
        &NewBattleRow::of(battle, title, dice_mode),
        (status, result.as_deref()),
        battle.branches(),
        &[],
        std::iter::empty(),
    )
}

/// Insert `battle` whole as `row` says, in `tx`: its branches, its
/// entries, the snapshots it holds, and the status at its cursor.
pub(crate) fn insert_whole(
    tx: &dyn Db,
    row: &NewBattleRow<'_>,
    battle: &dyn Battle,
) -> Result<BattleId, SaveError> {
    let (status, result) = status_of(battle);
    let n = battle.records().len() as EntryId;
    let rules_version = battle.rules_version_now();
    let snapshots = (0..n).filter_map(|entry| {
        battle.snapshot_bytes(entry).map(|state| StoredSnapshot {
            entry,
            rules_version,
            state,
        })
    });
    insert_battle(
        tx,
        row,
        (status, result.as_deref()),
        battle.branches(),
        battle.records(),
        snapshots,
    )
}

pub(crate) fn insert_battle(
    tx: &dyn Db,
    row: &NewBattleRow<'_>,
    status: (&str, Option<&str>),
    branches: &[Branch],
    records: &[EntryRecord],
    snapshots: impl Iterator<Item = StoredSnapshot>,
) -> Result<BattleId, SaveError> {
    let now = now();
    let id = tx.insert_id(
        "INSERT INTO battles (game, title, seed, rules_version, config, dice_mode, cursor,
                              branch, status, result, created, updated, origin, strict)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        &[
            &row.meta.game,
            &row.title,
            &(row.meta.seed as i64),
            &row.meta.rules_version,
            &row.meta.config,
            &row.dice_mode.as_str(),
            &opt_i64(row.cursor),
            &row.branch,
            &status.0,
            &status.1,
            &row.created,
            &now,
            &row.origin,
            &row.meta.strict,
        ],
    )?;
    if let Some(fair) = &row.meta.fair {
        crate::fair::insert_fair(tx, id, fair, row.secret, true)?;
    }
    for b in branches {
        insert_branch(tx, id, b)?;
    }
    write_entries(
        tx,
        id,
        records.iter().enumerate().map(|(seq, rec)| {
            let seq = seq as EntryId;
            let bytes = encode_entry(seq, rec).map_err(|e| corrupt(id, e.to_string()))?;
            Ok((seq, bytes))
        }),
    )?;
    let mut put = tx.statement(INSERT_SNAPSHOT)?;
    for s in snapshots {
        let state = encode_snapshot(s.rules_version, &s.state);
        put.execute(&[&id, &(s.entry as i64), &state])?;
    }
    Ok(id)
}

impl Campaign {
    /// Start a battle (`xenolog_engine::games::new_battle`) and store it.
    pub fn new_battle(
        &mut self,
        game: &str,
        seed: u64,
        config: &Value,
        title: &str,
        dice_mode: DiceMode,
    ) -> Result<BattleId, SaveError> {
        self.new_battle_with(game, seed, config, title, dice_mode, false)
    }

    /// Start a battle, strict or not (`xenolog_engine::BattleMeta::strict`),
    /// and store it.
    pub fn new_battle_with(
        &mut self,
        game: &str,
        seed: u64,
        config: &Value,
        title: &str,
        dice_mode: DiceMode,
        strict: bool,
    ) -> Result<BattleId, SaveError> {
        self.writable()?;
        let battle = games::new_battle_with(game, seed, config, strict)?;
        self.store_new(&*battle, title, dice_mode, None)
    }

    /// Store a battle just started (no entries yet) and play the game's
    /// first steps; `held` is the secret of a club battle, kept unrevealed
    /// in the same transaction (`Campaign::new_club_battle`).
    pub(crate) fn store_new(
        &mut self,
        battle: &dyn Battle,
        title: &str,
        dice_mode: DiceMode,
        held: Option<&xenolog_engine::fair::Bytes32>,
    ) -> Result<BattleId, SaveError> {
        let title = match title.trim() {
            "" => battle.game_name(),
            t => t,
        };
        let tx = self.conn.begin(Begin::Immediate)?;
        let id = insert_fresh(&tx, battle, title, dice_mode)?;
        if let Some(secret) = held {
            tx.execute(
                "UPDATE fair_seeds SET secret = ?2 WHERE battle = ?1",
                &[&id, &&secret[..]],
            )?;
        }
        tx.commit()?;
        self.remember_dice_mode(id, dice_mode);
        // A game that shuffles and deals at the start does it as its first
        // steps, written like any other entry.
        if battle.due_step().is_some() {
            let mut battle = self.load_battle(id)?;
            self.play_due(id, &mut *battle)?;
        }
        Ok(id)
    }

    /// Read everything stored about a battle, as one moment of the database
    /// saw it (one read transaction, unless the caller has one open): a
    /// writer sealing a block, or appending, between two of the reads would
    /// otherwise show an entry missing or twice. Entries are read by one
    /// prepared statement a table ([`crate::scan::read_entries`]).
    pub(crate) fn read_battle(&self, id: BattleId) -> Result<BattleOnDisk, ScanError> {
        if self.conn.in_transaction() {
            return self.read_battle_now(id);
        }
        let seen = self.conn.begin(Begin::Snapshot)?;
        let out = self.read_battle_now(id)?;
        seen.commit()?;
        Ok(out)
    }

    fn read_battle_now(&self, id: BattleId) -> Result<BattleOnDisk, ScanError> {
        type Head = (
            String,
            i64,
            u32,
            String,
            String,
            String,
            i64,
            Option<i64>,
            u32,
            bool,
        );
        let head: Option<Head> = self.conn.row(
            "SELECT game, seed, rules_version, config, title, dice_mode, created, cursor, branch,
                        strict
                 FROM battles WHERE id = ?1",
            &[&id],
            |r| r.tuple(),
        )?;
        let (game, seed, rules_version, config, title, dice, created, cursor, branch, strict) =
            head.ok_or(SaveError::NoSuchBattle(id))?;
        let dice_mode = DiceMode::from_word(&dice)
            .ok_or_else(|| corrupt(id, format!("its dice mode '{dice}' is unknown")))?;
        self.remember_dice_mode(id, dice_mode);

        let branches = read_branches(&self.conn, id)?;

        let count = entry_count(&self.conn, id)?;
        let records = read_entries(&self.conn, id, count, rules_version)?;
        let mut snapshots = Vec::new();
        self.conn.each(
            "SELECT seq, state FROM snapshots WHERE battle = ?1 ORDER BY seq",
            &[&id],
            |r| {
                let seq = r.get::<i64>(0)? as u64;
                // Snapshots are a cache: one this build cannot open is left out,
                // the engine folds the entries instead and the store rewrites it.
                if let Some(bytes) = r.blob(1)?
                    && let Ok((rules, state)) = decode_snapshot(bytes)
                {
                    snapshots.push(StoredSnapshot {
                        entry: seq,
                        rules_version: rules.unwrap_or(rules_version),
                        state: state.to_vec(),
                    });
                }
                Ok::<(), DbError>(())
            },
        )?;

        Ok(BattleOnDisk {
            parts: xenolog_engine::StoredBattle {
                meta: BattleMeta {
                    game,
                    seed: seed as u64,
                    rules_version,
                    config,
                    strict,
                    fair: crate::fair::read_fair(&self.conn, id)?,
                },
                cursor: cursor.map(|c| c as u64),
                branch,
                branches,
                records,
                snapshots,
            },
            title,
            dice_mode,
            created,
        })
    }

    /// Load a battle (records, branches, snapshots, cursor) into the engine.
    ///
    /// This checks that every entry decodes and the log is a well-formed tree,
    /// not the hashes: [`Campaign::verify_battle`] replays and checks them all.
    pub fn load_battle(&self, id: BattleId) -> Result<Box<dyn Battle>, SaveError> {
        let s = self.read_battle(id).map_err(|e| e.into_save(id))?;
        let battle = games::load_battle(s.parts).map_err(|e| corrupt(id, e.to_string()))?;
        if !self.is_read_only() {
            // The status and the snapshots are caches that a crash can leave
            // one step behind (crate docs), and a snapshot of older rules is
            // rebuilt on loading; writing them is best effort, loading is the point.
            let _ = self.refresh_status(id, &*battle);
            let _ = self.rewrite_snapshots(id, &*battle);
        }
        Ok(battle)
    }

    /// Load a battle and replay it all: every hash, every die, every snapshot.
    /// An entry that cannot even be read is reported as a corrupt entry.
    pub fn verify_battle(&self, id: BattleId) -> Result<VerifyReport, SaveError> {
        let report = |entries: u64, entry: EntryId, detail: String| {
            VerifyReport::failed(
                entries,
                Divergence {
                    entry,
                    kind: DivergenceKind::Corrupt,
                    detail,
                },
            )
        };
        let s = match self.read_battle(id) {
            Ok(s) => s,
            Err(ScanError::Entry { seq, why }) => {
                let n = entry_count(&self.conn, id)?;
                return Ok(report(n, seq, format!("the entry {why}")));
            }
            Err(ScanError::Save(e)) => return Err(e),
        };
        let n = s.parts.records.len() as u64;
        match games::load_battle(s.parts) {
            Ok(battle) => Ok(battle.verify()),
            Err(LoadError::Corrupt { entry, why }) => Ok(report(n, entry, why)),
            Err(e) => Err(corrupt(id, e.to_string())),
        }
    }

    /// Decide a JSON command at the battle's cursor, write the entry (and any
    /// new branch, snapshot and the cursor) durably in one transaction, then
    /// commit it into `battle`. On any error nothing changes, in memory or on
    /// disk. A command given before from the same point is a redo: no new
    /// entry, the cursor moves onto the recorded one (and that is saved).
    ///
    /// Then the steps the game takes on its own are played, each its own
    /// durable entry ([`Campaign::play_due`]); the returned entry is the
    /// command's own. If one of those steps fails, the command stays recorded
    /// and the error is returned: the step is still due.
    pub fn play(
        &mut self,
        id: BattleId,
        battle: &mut dyn Battle,
        actor: Actor,
        command: &Value,
        dice: Option<Vec<u8>>,
    ) -> Result<EntryId, SaveError> {
        Ok(self.play_with_steps(id, battle, actor, command, dice)?[0])
    }

    /// [`Campaign::play`], returning the command's entry followed by the
    /// entries of the steps the game then took on its own (a deal, an alien
    /// deck's turn), so that a caller can show them all.
    ///
    /// In a battle whose dice the players roll and type in
    /// ([`DiceMode::Entered`]), a player's command that rolls dice and comes
    /// without them is refused in words, naming how many it rolls: it is
    /// never rolled from the stream behind the players' backs.
    pub fn play_with_steps(
        &mut self,
        id: BattleId,
        battle: &mut dyn Battle,
        actor: Actor,
        command: &Value,
        dice: Option<Vec<u8>>,
    ) -> Result<Vec<EntryId>, SaveError> {
        if dice.is_none() && self.dice_mode(id)? == DiceMode::Entered {
            // The mode is known from loading the battle (no read of the file).
            let need = battle.dice_needed(actor, command)?;
            if !need.is_empty() {
                return Err(SaveError::Play(PlayError::Rule(RuleError::new(
                    RuleErrorKind::MoreDice,
                    dice_to_enter(&need),
                ))));
            }
        }
        let mut entries = vec![self.play_one(id, battle, actor, command, dice)?];
        entries.extend(self.play_due(id, battle)?);
        Ok(entries)
    }

    /// Play the steps the game takes on its own at the battle's cursor (a
    /// deal, an alien deck's turn), each its own durable entry, until none is
    /// due. In a battle with entered dice a step that rolls waits for the
    /// players' dice (give it with [`Campaign::play`], actor
    /// `Actor::SYSTEM`). Returns the entries played.
    pub fn play_due(
        &mut self,
        id: BattleId,
        battle: &mut dyn Battle,
    ) -> Result<Vec<EntryId>, SaveError> {
        let mut played = Vec::new();
        if battle.due_step().is_none() {
            return Ok(played);
        }
        let entered = self.dice_mode(id)? == DiceMode::Entered;
        while let Some(step) = battle.due_step() {
            let dice = entered.then(Vec::new);
            match self.play_one(id, battle, Actor::SYSTEM, &step.command, dice) {
                Ok(e) => played.push(e),
                Err(SaveError::Play(PlayError::Rule(e)))
                    if entered && e.kind == RuleErrorKind::MoreDice =>
                {
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(played)
    }

    pub(crate) fn remember_dice_mode(&self, id: BattleId, mode: DiceMode) {
        if let Ok(mut known) = self.dice_modes.lock() {
            known.insert(id, mode);
        }
    }

    fn dice_mode(&self, id: BattleId) -> Result<DiceMode, SaveError> {
        if let Some(mode) = self
            .dice_modes
            .lock()
            .ok()
            .and_then(|k| k.get(&id).copied())
        {
            return Ok(mode);
        }
        let word: String = self
            .conn
            .row("SELECT dice_mode FROM battles WHERE id = ?1", &[&id], |r| {
                r.get(0)
            })?
            .ok_or(SaveError::NoSuchBattle(id))?;
        let mode = DiceMode::from_word(&word)
            .ok_or_else(|| corrupt(id, format!("its dice mode '{word}' is unknown")))?;
        self.remember_dice_mode(id, mode);
        Ok(mode)
    }

    fn play_one(
        &mut self,
        id: BattleId,
        battle: &mut dyn Battle,
        actor: Actor,
        command: &Value,
        dice: Option<Vec<u8>>,
    ) -> Result<EntryId, SaveError> {
        self.writable()?;
        let pending = battle.prepare_json(actor, command, dice)?;
        let PendingKind::New {
            id: seq,
            record,
            new_branch,
            snapshot,
        } = &pending.kind
        else {
            // A redo only moves the cursor, which can be moved back exactly.
            let (cursor, branch) = (battle.cursor(), battle.current_branch());
            let entry = battle
                .commit(pending)
                .map_err(|e| stale(id, e.to_string()))?;
            if let Err(e) = self.write_position(id, battle, None, None) {
                restore(battle, branch, cursor);
                return Err(e);
            }
            return Ok(entry);
        };
        let tx = self.conn.begin(Begin::Immediate)?;
        check_same(&tx, id, battle, None)?;
        let bytes = encode_entry(*seq, record).map_err(|e| corrupt(id, e.to_string()))?;
        // A row of the tail, sealed into a block with it if it completes one.
        write_entries(&tx, id, [Ok((*seq, bytes))])?;
        if let Some(b) = new_branch {
            insert_branch(&tx, id, b)?;
        }
        if let Some(state) = snapshot {
            let state = encode_snapshot(record.rules_version, state);
            tx.execute(INSERT_SNAPSHOT, &[&id, &(*seq as i64), &state])?;
        }
        // The status after the entry comes with the pending entry, so it is
        // written in the same transaction as the entry itself.
        let (status, result) = match &pending.outcome {
            Some(o) => ("over", Some(o.summary.clone())),
            None => ("in progress", None),
        };
        tx.execute(
            UPDATE_POSITION,
            &[
                &(*seq as i64),
                &record.branch,
                &status,
                &result,
                &now(),
                &id,
            ],
        )?;
        // Decided a moment ago from this same battle, so it cannot be stale;
        // were it ever, the entry is on disk and loading the battle shows it.
        tx.commit()?;
        battle.commit(pending).map_err(|e| stale(id, e.to_string()))
    }

    /// Persist cursor, current branch and branch names after undo, redo,
    /// seek, switch or rename (these never touch entries).
    pub fn save_position(&mut self, id: BattleId, battle: &dyn Battle) -> Result<(), SaveError> {
        self.writable()?;
        self.write_position(id, battle, None, None)
    }

    /// [`Campaign::save_position`] for a move decided from cursor `from`
    /// (a take-back from the head the seats were shown): refused `Stale`,
    /// nothing written, when the stored cursor is not `from` any more, as
    /// when another process of a club on one PostgreSQL database took the
    /// battle back or walked it first (checked under the battle's row lock
    /// with the rest of `check_same`; issue 31 P5, review5 M1).
    pub fn save_position_from(
        &mut self,
        id: BattleId,
        battle: &dyn Battle,
        from: Option<EntryId>,
    ) -> Result<(), SaveError> {
        self.writable()?;
        self.write_position(id, battle, Some(from), None)
    }

    /// [`Campaign::save_position`] for a club server's command that walked
    /// the recorded line (a redo after a take-back: no new entry), with the
    /// command id `seat` gave and the entries walked, recorded in the same
    /// transaction as the position (as [`Campaign::append_batch`] records
    /// an id with its entries): a resend finds them, never decides again.
    /// `from` is the cursor the walk started at, checked as
    /// [`Campaign::save_position_from`] checks it.
    pub fn save_position_for_command(
        &mut self,
        id: BattleId,
        battle: &dyn Battle,
        from: Option<EntryId>,
        seat: xenolog_engine::Actor,
        cmd_id: &str,
        entries: &[xenolog_engine::EntryId],
    ) -> Result<(), SaveError> {
        self.writable()?;
        self.write_position(id, battle, Some(from), Some((seat, cmd_id, entries)))
    }

    fn write_position(
        &mut self,
        id: BattleId,
        battle: &dyn Battle,
        from: Option<Option<EntryId>>,
        command: Option<(xenolog_engine::Actor, &str, &[xenolog_engine::EntryId])>,
    ) -> Result<(), SaveError> {
        let tx = self.conn.begin(Begin::Immediate)?;
        check_same(&tx, id, battle, from)?;
        let (status, result) = status_of(battle);
        tx.execute(
            UPDATE_POSITION,
            &[
                &opt_i64(battle.cursor()),
                &battle.current_branch(),
                &status,
                &result,
                &now(),
                &id,
            ],
        )?;
        for b in battle.branches() {
            tx.execute(
                "UPDATE branches SET name = ?3 WHERE battle = ?1 AND id = ?2 AND name <> ?3",
                &[&id, &b.id, &b.name],
            )?;
        }
        if let Some((seat, cmd_id, entries)) = command {
            // On PostgreSQL the table is made with the campaign or at its
            // first writable open (`pg::ensure_command_ids_table`), never
            // here (review5 NIT 5: a round trip a walk, and a catalog
            // clash of two processes making it at once).
            if tx.dialect() == Dialect::Sqlite {
                tx.execute_batch(crate::batch::COMMANDS_TABLE)?;
            }
            crate::batch::record_command(&tx, id, seat, cmd_id, entries)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Write back the snapshots the engine rebuilt on loading (missing, not
    /// readable, or written under other rules), in one transaction.
    fn rewrite_snapshots(&self, id: BattleId, battle: &dyn Battle) -> Result<(), SaveError> {
        if battle.rebuilt_snapshots().is_empty() {
            return Ok(());
        }
        let tx = self.conn.begin(Begin::Deferred)?;
        for &seq in battle.rebuilt_snapshots() {
            if let Some(state) = battle.snapshot_bytes(seq) {
                let state = encode_snapshot(battle.rules_version_now(), &state);
                tx.execute(
                    "INSERT OR REPLACE INTO snapshots (battle, seq, state) VALUES (?1, ?2, ?3)",
                    &[&id, &(seq as i64), &state],
                )?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Write the status summary if it differs from the battle's outcome.
    fn refresh_status(&self, id: BattleId, battle: &dyn Battle) -> Result<(), SaveError> {
        let (status, result) = status_of(battle);
        let stored: Option<(String, Option<String>)> = self.conn.row(
            "SELECT status, result FROM battles WHERE id = ?1",
            &[&id],
            |r| Ok::<_, DbError>((r.get(0)?, r.get(1)?)),
        )?;
        if stored.is_some_and(|(s, r)| s != status || r != result) {
            self.conn.execute(
                "UPDATE battles SET status = ?1, result = ?2 WHERE id = ?3",
                &[&status, &result, &id],
            )?;
        }
        Ok(())
    }
}

/// Put the cursor and current branch back where they were. The cursor always
/// lies on its branch's line, so switching to the branch (cursor at its head)
/// and seeking back keeps that branch current.
fn restore(battle: &mut dyn Battle, branch: BranchId, cursor: Option<EntryId>) {
    // The branch existed a moment ago, so switching back cannot fail.
    let _ = battle.switch_branch(branch);
    battle.seek(cursor);
}

/// Why a command of an entered-dice battle that came without its dice is
/// refused: "the players roll this battle's dice: this command rolls 3 dice
/// (d6 d6 d6); give them with the command".
pub fn dice_to_enter(sides: &[u8]) -> String {
    let dice = sides
        .iter()
        .map(|s| format!("d{s}"))
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "the players roll this battle's dice, and this command rolls {} ({dice}): enter {} with the command",
        match sides.len() {
            1 => "1 die".to_owned(),
            n => format!("{n} dice"),
        },
        if sides.len() == 1 { "it" } else { "them" }
    )
}
