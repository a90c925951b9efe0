//! Reading a battle's entries: one prepared statement scanning the battle's
//! key range of the `entries` table in key order, decoding as it goes.
//!
//! For a long battle this is most of the time it takes to open it: about half
//! SQLite stepping through the rows, half turning each record into the
//! engine's `EntryRecord` (mostly the three small allocations each one needs).
//! Overlapping the two on a second thread was tried and measured: on the
//! shared two-core development machine it was slower (830-920 ms against
//! 760-880 ms for a 1,000,000-entry battle), so the scan stays simple.

use xenolog_engine::{EntryId, EntryRecord};
use xenolog_schema::codec::decode_entry;

use crate::BattleId;
use crate::battles::ScanError;
use crate::db::{Conn, DbError, DbExt};

/// The fewest bytes an entry takes in the file: its stored record alone has
/// two 16-byte hashes and at least ten one-byte fields.
const MIN_ENTRY_BYTES: u64 = 42;

/// The most entries the database can hold at its present size. The count a
/// battle is presized by comes from the last entry's number; a damaged or
/// hostile file may number it 2^40, and that must not turn into terabytes
/// reserved before the first row is read. SQLite: the file's pages; on
/// PostgreSQL the `entries` table's size on disk, its indexes and TOAST
/// included (`pg_total_relation_size`), which bounds the entries the same
/// way (each row there takes more than its record).
fn most_entries(conn: &Conn) -> Result<u64, DbError> {
    let bytes = match conn {
        Conn::Sqlite(_) => {
            let pages: i64 = conn.one("PRAGMA page_count", &[])?;
            let page_size: i64 = conn.one("PRAGMA page_size", &[])?;
            (pages.max(0) as u64).saturating_mul(page_size.max(0) as u64)
        }
        Conn::Postgres { db, .. } => crate::db::pg::table_bytes(db, "entries")?,
    };
    Ok(bytes / MIN_ENTRY_BYTES)
}

/// Every entry of battle `id`, started under rules version `battle_rules`,
/// in order; `count` (how many there are, by the last entry's number) sizes
/// the result once, if the file is large enough to hold that many. A gap in
/// the sequence or an unreadable record stops the scan with the entry it
/// concerns.
pub(crate) fn read_entries(
    conn: &Conn,
    id: BattleId,
    count: u64,
    battle_rules: u32,
) -> Result<Vec<EntryRecord>, ScanError> {
    let presize = count.min(most_entries(conn)?);
    let mut out = Vec::with_capacity(usize::try_from(presize).unwrap_or(0));
    // The typed fast path: each record is decoded from the row in place,
    // no cell copied or boxed, no call per row through a `dyn`.
    conn.scan(
        "SELECT seq, record FROM entries WHERE battle = ?1 ORDER BY seq",
        &[&id],
        |r| {
            let expect = out.len() as EntryId;
            let seq = r.get::<i64>(0)? as EntryId;
            if seq != expect {
                return Err(ScanError::Entry {
                    seq: expect,
                    why: "is missing".into(),
                });
            }
            let bytes = r.blob(1)?.ok_or_else(|| ScanError::Entry {
                seq,
                why: "is not stored as bytes".into(),
            })?;
            let rec = decode_entry(seq, bytes, battle_rules).map_err(|e| ScanError::Entry {
                seq,
                why: format!("cannot be read: {e}"),
            })?;
            out.push(rec);
            Ok(())
        },
    )?;
    Ok(out)
}
