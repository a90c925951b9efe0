//! Moving a campaign whole between backends (issue 31, `server/POSTGRES.md`
//! §4): a campaign file into a PostgreSQL schema and back, or file to file.
//!
//! Both sides are the same tables through the same [`Db`] trait, so the copy
//! is one generic function over the current schema's table list: every row
//! of every table, as it is (no battle is decided again, no hash
//! recomputed: what verified there verifies here), in parents-first order
//! (PostgreSQL checks the foreign keys of `fair_seeds` and `seat_nonces`),
//! in **one** transaction on the target. The campaign's own row (its name,
//! when it was made, its uid) is the source's: the copy is the same campaign,
//! not a new one. Identity columns are caught up after (PostgreSQL's
//! sequences follow the ids copied, as SQLite's rowid does by itself).
//!
//! The target must be a campaign just made ([`Campaign::create`],
//! [`Campaign::create_postgres`]): one that holds anything but its own row
//! is refused in words and nothing is written. A failure midway rolls the
//! whole transaction back: the target is left as empty as it was.

use crate::batch::COMMANDS_TABLE;
use crate::db::{Begin, Db, DbError, DbExt, Value};
use crate::{Campaign, SaveError};

/// The campaign tables of the current schema, parents first (a table is
/// after every table it references). `club_commands` is made on first use
/// (`batch.rs`), so a campaign may not have it.
const TABLES: &[&str] = &[
    "campaign",
    "battles",
    "branches",
    "entries",
    "entry_blocks",
    "snapshots",
    "notes",
    "campaign_log",
    "campaign_results",
    "campaign_conflicts",
    "fair_seeds",
    "seat_nonces",
    "club_commands",
];

/// What a copy wrote: each table with its rows, in the order copied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CampaignCopy {
    pub tables: Vec<(String, u64)>,
}

impl CampaignCopy {
    /// Rows written in all.
    pub fn rows(&self) -> u64 {
        self.tables.iter().map(|(_, n)| n).sum()
    }
}

/// Copy campaign `from` whole into `to`, a campaign just made (module
/// docs). Either every row of every table lands, in one transaction, or
/// nothing does.
pub fn copy_campaign(from: &Campaign, to: &mut Campaign) -> Result<CampaignCopy, SaveError> {
    to.writable()?;
    let have = from.conn.tables()?;
    if let Some(t) = have.iter().find(|t| !TABLES.contains(&t.as_str())) {
        return Err(SaveError::Refused(format!(
            "{} has a table this Xenolog does not know ({t}): it cannot be copied whole; \
             nothing was written",
            from.path().display()
        )));
    }
    let order: Vec<&str> = TABLES
        .iter()
        .copied()
        .filter(|t| have.iter().any(|h| h == t))
        .collect();
    let target = to.path().display().to_string();
    // Every table of the source read from one snapshot (review3 SHOULD 8):
    // a campaign copied while it is played is copied as it was at one
    // moment, never a battle's row from before an append and its entries
    // from after. Read only: it ends with the copy, whatever happens.
    let seen = from.conn.begin(Begin::Snapshot)?;
    let tx = to.conn.begin(Begin::Immediate)?;
    // Only a campaign just made: its one row and nothing else.
    for t in to.conn.tables()? {
        let rows: i64 = tx.one(&format!("SELECT COUNT(*) FROM {t}"), &[])?;
        let own = if t == "campaign" { 1 } else { 0 };
        if rows > own {
            return Err(SaveError::Refused(format!(
                "{target} is not empty (its table {t} holds {rows} rows): a campaign is copied \
                 only into one just made; nothing was written"
            )));
        }
    }
    if order.contains(&"club_commands") {
        tx.execute_batch(COMMANDS_TABLE)?;
    }
    tx.execute("DELETE FROM campaign", &[])?;
    let mut out = CampaignCopy::default();
    for table in order {
        let n = copy_table(from, &tx, table).map_err(|e| match e {
            SaveError::Sql(why) => SaveError::Sql(format!(
                "copying table {table} into {target} failed ({why}); nothing was written"
            )),
            e => e,
        })?;
        out.tables.push((table.to_owned(), n));
    }
    to.conn.catch_up_identities()?;
    tx.commit()?;
    drop(seen);
    to.dice_modes
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clear();
    Ok(out)
}

/// Every row of `table` of `from`, as it is, into `to` (the same columns by
/// name); how many.
fn copy_table(from: &Campaign, to: &dyn Db, table: &str) -> Result<u64, SaveError> {
    let cols = from.conn.columns(table)?;
    let names = cols.join(", ");
    let marks: Vec<String> = (1..=cols.len()).map(|i| format!("?{i}")).collect();
    let mut put = to.statement(&format!(
        "INSERT INTO {table} ({names}) VALUES ({})",
        marks.join(", ")
    ))?;
    let mut n = 0u64;
    let mut row: Vec<Value> = Vec::with_capacity(cols.len());
    // Streamed from the source (`Conn::scan`): a battle of a million
    // entries is never in memory whole.
    from.conn
        .scan(&format!("SELECT {names} FROM {table}"), &[], |r| {
            row.clear();
            for i in 0..cols.len() {
                row.push(r.value(i)?);
            }
            let params: Vec<&dyn crate::db::ToParam> =
                row.iter().map(|v| v as &dyn crate::db::ToParam).collect();
            put.execute(&params)?;
            n += 1;
            Ok::<(), DbError>(())
        })?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p2_the_copy_knows_every_table_of_the_current_schema() {
        let c = Campaign::create_in_memory("Club").unwrap();
        c.conn.execute_batch(COMMANDS_TABLE).unwrap();
        let mut have = c.conn.tables().unwrap();
        have.sort();
        let mut known: Vec<String> = TABLES.iter().map(|t| t.to_string()).collect();
        known.sort();
        assert_eq!(
            have, known,
            "a migration added or dropped a table: put it in TABLES, parents first"
        );
    }
}
