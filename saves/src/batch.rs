//! Group commit (the club server, issue 30, server/DESIGN.md section 7):
//! commands are decided in memory first ([`decide`]), then the entries of many
//! battles are written in **one** `IMMEDIATE` transaction
//! ([`Campaign::append_batch`]), one fsync for all of them.
//!
//! Each battle's part is checked against the head it was decided on (the
//! number of entries and branches stored, as `check_same` does, and the
//! cursor and branch it was decided from: a take-back of another connection
//! moves only those) inside the transaction; a part whose battle moved on is refused (`Stale`) and left
//! out, the others are written. A command id given with a part
//! ([`Decided::command_id`]) is recorded in the same transaction as the
//! entries it made, so a crash can never leave entries without their id (a
//! resend would then be decided twice) or an id without its entries.
//!
//! The ids live in `club_commands`, a table of server copies only: in a
//! file, made by the first batch that records one (`CREATE TABLE IF NOT
//! EXISTS`, in that batch's transaction); on PostgreSQL, made with the
//! campaign (or at the first writable open of an older one), never by a
//! batch (two processes making it at once collide in the catalog). Nothing
//! else reads it: a desktop Xenolog opening a server's campaign ignores it.
//!
//! On PostgreSQL a batch is written in a few statements whatever its size
//! (`pgbatch.rs`); the savepoint path below is SQLite's, and PostgreSQL's
//! when those statements fail.

use serde_json::Value;
use xenolog_engine::{
    Actor, Battle, Branch, BranchId, EntryId, PendingKind, PlayError, RuleErrorKind,
};
use xenolog_schema::DiceMode;
use xenolog_schema::codec::{encode_entry, encode_snapshot};

use crate::battles::{INSERT_SNAPSHOT, UPDATE_POSITION};
use crate::blocks::write_entries;
use crate::campaign::now;
use crate::db::{Begin, Code, Db, DbError, DbExt, Dialect};
use crate::{BattleId, Campaign, SaveError};

/// The table of command ids (see the module documentation).
pub(crate) const COMMANDS_TABLE: &str = "CREATE TABLE IF NOT EXISTS club_commands (
    battle  INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    cmd_id  TEXT    NOT NULL,
    entries TEXT    NOT NULL,
    PRIMARY KEY (battle, seat, cmd_id)
)";

/// What [`Campaign::append_batch_notify`] sends on PostgreSQL for each part
/// written: `pg_notify(channel, prefix || 'BATTLE:SEQ')`.
#[derive(Clone, Copy, Debug)]
pub struct AppendNotify<'a> {
    pub channel: &'a str,
    /// Put before `BATTLE:SEQ` (the club server's campaign, `C:`).
    pub prefix: &'a str,
}

/// One new entry to write.
pub(crate) struct Row {
    pub(crate) seq: EntryId,
    pub(crate) bytes: Vec<u8>,
    pub(crate) branch: Option<Branch>,
    pub(crate) snapshot: Option<Vec<u8>>,
}

/// One battle's entries, decided and committed in memory, not yet written.
pub struct Decided {
    pub(crate) battle: BattleId,
    pub(crate) game: String,
    pub(crate) seed: u64,
    pub(crate) entries_before: u64,
    pub(crate) branches_before: usize,
    /// The position it was decided from: a take-back or walk of another
    /// connection moves only these (no entry, no branch), so the head
    /// check compares them too (issue 31 P5, review5 M1).
    pub(crate) cursor_before: Option<EntryId>,
    pub(crate) branch_before: BranchId,
    pub(crate) rows: Vec<Row>,
    pub(crate) cursor: Option<EntryId>,
    pub(crate) branch: BranchId,
    pub(crate) status: &'static str,
    pub(crate) result: Option<String>,
    pub(crate) command_id: Option<(Actor, String)>,
}

impl Decided {
    /// The battle (in its campaign).
    pub fn battle(&self) -> BattleId {
        self.battle
    }

    /// The new entries: the command's, then the steps the game took on its own.
    pub fn entries(&self) -> Vec<EntryId> {
        self.rows.iter().map(|r| r.seq).collect()
    }

    /// Whether the last entry ends the battle (its fair secret, if this copy
    /// holds one, is revealed in the same transaction).
    pub fn ends(&self) -> bool {
        self.status == "over"
    }

    /// Record `cmd_id`, given by `seat`, with these entries (same transaction).
    pub fn command_id(mut self, seat: Actor, cmd_id: &str) -> Decided {
        self.command_id = Some((seat, cmd_id.to_owned()));
        self
    }
}

/// Decide `actor`'s `command` in `battle` (battle `id` of its campaign) and
/// the steps the game then takes on its own, committing them **in memory
/// only**: write them with [`Campaign::append_batch`]. `mode` is the
/// battle's dice mode (an entered-dice battle refuses a rolling command that
/// comes without its dice, as [`Campaign::play`] does).
///
/// On a refusal of the command itself nothing changed. If a step after it
/// fails, the error is returned and `battle` holds entries that are not
/// written: the caller drops it and loads it again. The same holds when the
/// batch's write then fails.
pub fn decide(
    id: BattleId,
    battle: &mut dyn Battle,
    actor: Actor,
    command: &Value,
    dice: Option<Vec<u8>>,
    mode: DiceMode,
) -> Result<Decided, SaveError> {
    let entered = mode == DiceMode::Entered;
    if dice.is_none() && entered {
        let need = battle.dice_needed(actor, command)?;
        if !need.is_empty() {
            return Err(SaveError::Play(PlayError::Rule(
                xenolog_engine::RuleError::new(
                    RuleErrorKind::MoreDice,
                    crate::dice_to_enter(&need),
                ),
            )));
        }
    }
    let mut out = Decided {
        battle: id,
        game: battle.meta().game.clone(),
        seed: battle.meta().seed,
        entries_before: battle.records().len() as u64,
        branches_before: battle.branches().len(),
        cursor_before: battle.cursor(),
        branch_before: battle.current_branch(),
        rows: Vec::new(),
        cursor: battle.cursor(),
        branch: battle.current_branch(),
        status: "in progress",
        result: None,
        command_id: None,
    };
    decide_one(&mut out, battle, actor, command, dice)?;
    while let Some(step) = battle.due_step() {
        let dice = entered.then(Vec::new);
        match decide_one(&mut out, battle, Actor::SYSTEM, &step.command, dice) {
            Ok(()) => {}
            // An entered-dice step waits for the players' dice.
            Err(SaveError::Play(PlayError::Rule(e)))
                if entered && e.kind == RuleErrorKind::MoreDice =>
            {
                break;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

fn decide_one(
    out: &mut Decided,
    battle: &mut dyn Battle,
    actor: Actor,
    command: &Value,
    dice: Option<Vec<u8>>,
) -> Result<(), SaveError> {
    let pending = battle.prepare_json(actor, command, dice)?;
    let PendingKind::New {
        id,
        record,
        new_branch,
        snapshot,
    } = &pending.kind
    else {
        return Err(SaveError::Refused(format!(
            "battle {}: the command repeats a recorded entry from a point behind the head; \
             a batch only appends at the head",
            out.battle
        )));
    };
    let seq = *id;
    let bytes = encode_entry(seq, record).map_err(|e| SaveError::Corrupt {
        battle: out.battle,
        why: e.to_string(),
    })?;
    let row = Row {
        seq,
        bytes,
        branch: new_branch.clone(),
        snapshot: snapshot
            .as_ref()
            .map(|s| encode_snapshot(record.rules_version, s)),
    };
    let (status, result) = match &pending.outcome {
        Some(o) => ("over", Some(o.summary.clone())),
        None => ("in progress", None),
    };
    let branch = record.branch;
    battle.commit(pending).map_err(|e| SaveError::Stale {
        battle: out.battle,
        why: e.to_string(),
    })?;
    out.rows.push(row);
    out.cursor = Some(seq);
    out.branch = branch;
    out.status = status;
    out.result = result;
    Ok(())
}

impl Campaign {
    /// Write many battles' decided entries ([`decide`]) in one `IMMEDIATE`
    /// transaction: one fsync for all. Each part is checked against the head
    /// it was decided on; a part whose battle moved on, or whose write fails,
    /// is left out (`Err` in its place, nothing of it written) and the others
    /// are written. If the transaction itself cannot be made or committed,
    /// the whole batch is refused and nothing is written.
    ///
    /// With each part: the battle's cursor, branch and status; its command id
    /// if it has one; and, when it ends the battle, the fair secret this copy
    /// holds marked revealed.
    pub fn append_batch(
        &mut self,
        batch: &[Decided],
    ) -> Result<Vec<Result<(), SaveError>>, SaveError> {
        self.append_batch_notify(batch, None)
    }

    /// [`Campaign::append_batch`], and on PostgreSQL each part written
    /// also sends `pg_notify(channel, prefix || 'B:SEQ')` (its battle and
    /// its last entry) inside the part's savepoint: the notification is
    /// delivered when (and only if) the transaction commits, so a listener
    /// never hears of an entry that is not stored (issue 31,
    /// `server/POSTGRES.md` §2). On SQLite `notify` is not used.
    pub fn append_batch_notify(
        &mut self,
        batch: &[Decided],
        notify: Option<&AppendNotify<'_>>,
    ) -> Result<Vec<Result<(), SaveError>>, SaveError> {
        self.writable()?;
        if let crate::db::Conn::Postgres { db, schema } = &self.conn {
            // A few statements for the whole batch (pgbatch.rs).
            let group = crate::pgbatch::Group {
                schema,
                batch,
                notify: notify.copied(),
            };
            let mut out = crate::pgbatch::write_groups(db, &[group], false)?;
            return Ok(out.pop().unwrap_or_default());
        }
        let tx = self.conn.begin(Begin::Immediate)?;
        if batch.iter().any(|d| d.command_id.is_some()) {
            tx.execute_batch(COMMANDS_TABLE)?;
        }
        let results = write_parts(&tx, batch, notify)?;
        tx.commit()?;
        Ok(results)
    }

    /// Make the table of command ids now, not with the first batch that
    /// records one: on PostgreSQL two processes making it at once collide
    /// in the catalog (`pg_type`), so the club server makes it when it
    /// makes the campaign (issue 31).
    pub fn make_command_ids_table(&self) -> Result<(), SaveError> {
        self.writable()?;
        self.conn.execute_batch(COMMANDS_TABLE)?;
        Ok(())
    }

    /// The entries a command id recorded by [`Campaign::append_batch`]
    /// made, if `seat` gave it in battle `id`.
    pub fn command_entries(
        &self,
        id: BattleId,
        seat: Actor,
        cmd_id: &str,
    ) -> Result<Option<Vec<EntryId>>, SaveError> {
        if !self.conn.table_exists("club_commands")? {
            return Ok(None);
        }
        let entries: Option<String> = self.conn.row(
            "SELECT entries FROM club_commands WHERE battle = ?1 AND seat = ?2 AND cmd_id = ?3",
            &[&id, &seat.0, &cmd_id],
            |r| r.get(0),
        )?;
        entries
            .map(|e| {
                serde_json::from_str(&e).map_err(|e| SaveError::Corrupt {
                    battle: id,
                    why: format!("a command id's entries are not readable: {e}"),
                })
            })
            .transpose()
    }
}

/// Record that `seat`'s command id `cmd_id` made (or walked) `entries`,
/// in the caller's transaction (the table made: [`COMMANDS_TABLE`]).
pub(crate) fn record_command(
    tx: &dyn Db,
    id: BattleId,
    seat: Actor,
    cmd_id: &str,
    entries: &[EntryId],
) -> Result<(), SaveError> {
    let entries = serde_json::to_string(entries).unwrap_or_else(|_| "[]".into());
    tx.execute(
        "INSERT INTO club_commands (battle, seat, cmd_id, entries) VALUES (?1, ?2, ?3, ?4)",
        &[&id, &seat.0, &cmd_id, &entries],
    )
    .map_err(|e| match e.code {
        // The table's one key is (battle, seat, cmd_id): a unique failure
        // of this insert is the id given before (by its code, on both
        // backends; the words differ). On PostgreSQL it aborts the
        // transaction: the caller's savepoint (a batch's part) or the
        // whole transaction is rolled back, never carried on.
        Some(Code::Unique) => SaveError::CommandIdUsed {
            battle: id,
            seat: seat.0,
            cmd_id: cmd_id.to_owned(),
        },
        _ => SaveError::from(e),
    })?;
    Ok(())
}

/// Write each part of `batch` in the caller's transaction `tx`, each in a
/// savepoint of its own: a part refused (stale, its command id used, a
/// statement failed) is rolled back alone and the others are written. On
/// PostgreSQL each part written sends its notification (`notify`) inside
/// its savepoint. The path of every batch on SQLite; on PostgreSQL the one
/// a batch falls back to when its few statements failed (`pgbatch.rs`).
pub(crate) fn write_parts(
    tx: &crate::db::Tx<'_>,
    batch: &[Decided],
    notify: Option<&AppendNotify<'_>>,
) -> Result<Vec<Result<(), SaveError>>, SaveError> {
    let mut results = Vec::with_capacity(batch.len());
    let mut refused = std::collections::HashSet::new();
    for d in batch {
        if refused.contains(&d.battle) {
            results.push(Err(d.after_refused()));
            continue;
        }
        let sp = tx.savepoint()?;
        let r = write_part(&sp, d).and_then(|()| match notify {
            Some(n) if sp.dialect() == Dialect::Postgres => {
                for notice in d.notices(n.prefix) {
                    sp.execute(crate::db::pg::NOTIFY, &[&n.channel, &notice])?;
                }
                Ok(())
            }
            _ => Ok(()),
        });
        if r.is_ok() {
            sp.release()?;
        } else {
            sp.rollback()?;
            refused.insert(d.battle);
        }
        results.push(r);
    }
    Ok(results)
}

impl Decided {
    /// The payload of this part's notification: `prefix`, its battle and
    /// its last entry (`C:B:SEQ`).
    pub(crate) fn notice(&self, prefix: &str) -> String {
        let last = self.rows.last().map_or(0, |r| r.seq);
        format!("{prefix}{}:{last}", self.battle)
    }

    /// The payloads of this part's notifications, in the order sent: the
    /// part carried (`e1:C:B:SEQ:BODY`, [`crate::Carried`]: the other
    /// process reads nothing), unless it would not fit PostgreSQL's
    /// payload, then always `C:B:SEQ` (what a process of session 19 reads,
    /// and what a process that cannot use the carried part falls back on).
    pub(crate) fn notices(&self, prefix: &str) -> Vec<String> {
        let plain = self.notice(prefix);
        let carried = crate::Carried {
            first: self.entries_before,
            records: self.rows.iter().map(|r| r.bytes.clone()).collect(),
            branches: self.rows.iter().filter_map(|r| r.branch.clone()).collect(),
            cursor: self.cursor,
            branch: self.branch,
        };
        if carried.records.is_empty() {
            return vec![plain];
        }
        let full = format!("{}{plain}:{}", crate::Carried::TAG, carried.encode());
        if full.len() > crate::Carried::LONGEST {
            return vec![plain];
        }
        vec![full, plain]
    }

    /// Why a part is left out when a part of the same battle before it in
    /// the batch was: it was decided on that part's entries, which are not
    /// written (its own head may even match what another process wrote
    /// meanwhile, but its entries follow the ones left out).
    pub(crate) fn after_refused(&self) -> SaveError {
        SaveError::Stale {
            battle: self.battle,
            why: "decided after a command of the same batch that was not written".into(),
        }
    }

    /// The head check of this part against what is stored of its battle:
    /// its game and seed, its number of entries and of branches, its
    /// cursor and branch (`Stale`, in words, when they are not what it was
    /// decided on).
    pub(crate) fn check_head(&self, h: &Head) -> Result<(), SaveError> {
        let Head {
            game,
            seed,
            entries: stored,
            branches,
            cursor,
            branch,
        } = h;
        let (seed, stored, branches) = (*seed, *stored, *branches);
        let stale = |why: String| SaveError::Stale {
            battle: self.battle,
            why,
        };
        if *game != self.game || seed as u64 != self.seed {
            return Err(stale("it is another battle".into()));
        }
        if stored != self.entries_before {
            return Err(stale(format!(
                "decided after {} entries, {stored} stored",
                self.entries_before
            )));
        }
        if branches as usize != self.branches_before {
            return Err(stale(format!(
                "decided with {} branches, {branches} stored",
                self.branches_before
            )));
        }
        if *cursor != self.cursor_before.map(|c| c as i64) {
            return Err(stale(format!(
                "decided at {}, the stored position is {}",
                at_words(self.cursor_before.map(|c| c as i64)),
                at_words(*cursor)
            )));
        }
        if *branch != i64::from(self.branch_before) {
            return Err(stale(format!(
                "decided on branch {}, the stored position is on branch {branch}",
                self.branch_before
            )));
        }
        Ok(())
    }
}

/// A battle's position in words: "entry 9", or "the setup".
pub(crate) fn at_words(cursor: Option<i64>) -> String {
    match cursor {
        Some(c) => format!("entry {c}"),
        None => "the setup".to_owned(),
    }
}

/// What is stored of a battle, as the head check reads it under the
/// battle's row lock.
pub(crate) struct Head {
    pub(crate) game: String,
    pub(crate) seed: i64,
    pub(crate) entries: u64,
    pub(crate) branches: i64,
    pub(crate) cursor: Option<i64>,
    pub(crate) branch: i64,
}

fn write_part(tx: &dyn Db, d: &Decided) -> Result<(), SaveError> {
    let id = d.battle;
    // The head check (server/POSTGRES.md §2): on PostgreSQL several
    // processes may write one battle, and a transaction does not lock the
    // whole database as SQLite's IMMEDIATE one does; the battle's row is
    // locked first, so a second writer of the same battle waits here for
    // the first's commit and then reads its entries (read committed: each
    // statement sees what was committed before it) and is stale. Two
    // processes never write two commands on one entry; the entries' key
    // (battle, seq) is the last guard.
    if tx.dialect() == Dialect::Postgres {
        tx.row(crate::db::pg::LOCK_BATTLE, &[&id], |r| r.get::<i64>(0))?;
    }
    let row: Option<(String, i64, Option<i64>, i64)> = tx.row(
        "SELECT game, seed, cursor, branch FROM battles WHERE id = ?1",
        &[&id],
        |r| Ok::<_, DbError>((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    let (game, seed, cursor, branch) = row.ok_or(SaveError::NoSuchBattle(id))?;
    let entries = crate::blocks::entry_count(tx, id)?;
    let branches: i64 = tx.one("SELECT COUNT(*) FROM branches WHERE battle = ?1", &[&id])?;
    d.check_head(&Head {
        game,
        seed,
        entries,
        branches,
        cursor,
        branch,
    })?;
    // The entries (a block sealed with them if they complete one, inside
    // this part's savepoint: a part rolled back takes its seal with it),
    // then each one's new branch and snapshot.
    write_entries(tx, id, d.rows.iter().map(|r| Ok((r.seq, &r.bytes))))?;
    for r in &d.rows {
        if let Some(b) = &r.branch {
            tx.execute(
                crate::battles::INSERT_BRANCH,
                &[
                    &id,
                    &b.id,
                    &b.name,
                    &b.parent,
                    &b.fork.map(|f| f as i64),
                    &b.kind.as_str(),
                ],
            )?;
        }
        if let Some(state) = &r.snapshot {
            tx.execute(INSERT_SNAPSHOT, &[&id, &(r.seq as i64), state])?;
        }
    }
    tx.execute(
        UPDATE_POSITION,
        &[
            &d.cursor.map(|c| c as i64),
            &d.branch,
            &d.status,
            &d.result,
            &now(),
            &id,
        ],
    )?;
    if let Some((seat, cmd)) = &d.command_id {
        record_command(tx, id, *seat, cmd, &d.entries())?;
    }
    if d.ends() {
        tx.execute(
            "UPDATE fair_seeds SET revealed = 1 WHERE battle = ?1 AND secret IS NOT NULL",
            &[&id],
        )?;
    }
    Ok(())
}
