//! Packed entries, the measured case (issue 29, session 17): the floor each
//! layout of a battle's entries allows when a 1,000,000-entry battle is
//! opened, with no engine in the timed part.
//!
//! Run with `cargo bench -p xenolog-schema --bench packed` (add a filter such
//! as `packed/blocks_256` to run one). The battle is the 1,000,000-entry Dice
//! Race battle of `saves/benches/store.rs` (same seed, same bot), played in
//! memory once and encoded with `codec::encode_entry`. Its records are then
//! written into temporary SQLite files (WAL, as the store writes) two ways:
//!
//! - `rows`: one row an entry, as the store keeps them today (the `entries`
//!   table of migration 1: `(battle, seq)` key, `WITHOUT ROWID`);
//! - `blocks_N` (N = 64, 256, 1024): one row a block of N entries,
//!   `entry_blocks (battle, first, block)` keyed by the block's first entry,
//!   the block's records back to back in one blob, each after its length as
//!   a postcard varint (one byte for an entry under 128 bytes);
//!   `blocks_1024_rowid` is the same in an ordinary rowid table with the key as
//!   a unique index (SQLite advises rowid tables for rows larger than a
//!   twentieth of a page).
//!
//! Each bench opens the file read-only on a fresh connection (as
//! `Campaign::open_read_only` does), reads every entry of the battle in
//! order and decodes it into one of:
//!
//! - `records`: a `Vec<EntryRecord>`, today's in-memory form (three small
//!   vectors an entry: command, events, dice), by `codec::decode_entry`;
//! - `records_serde`: the same through serde's derived decoder
//!   (`codec::decode_entry_reference`, what `decode_entry` was before session 17);
//! - `views`: one buffer per battle (every blob copied into one `Vec<u8>`),
//!   and a `Vec<EntryView>` borrowing from it (`codec::decode_entry_view`):
//!   no allocation an entry, what an `EntryRecord` that borrows from its
//!   battle's buffer would cost;
//! - `scan`: the rows stepped and their blobs' lengths summed, nothing
//!   decoded: SQLite's own floor for the layout;
//! - `scan_mmap`, `views_mmap` (`rows` and `blocks_1024_rowid`): the same with
//!   the file mapped (`PRAGMA mmap_size`), SQLite reading its pages in place
//!   rather than copying each into its page cache.
//!
//! The sizes of the files (bytes an entry) are printed when they are built.
//!
//! Instructions, which the load of the shared machine does not change
//! (valgrind; this VM has no hardware counters):
//!
//! ```text
//! cargo bench -p xenolog-schema --bench packed --no-run     # prints the binary's path
//! XENOLOG_PACKED_DIR=/dev/shm/packed target/release/deps/packed-HASH   # the files, once
//! XENOLOG_PACKED_DIR=/dev/shm/packed XENOLOG_PACKED_COUNT=blocks_256/views \
//!     valgrind --tool=callgrind --toggle-collect='*count_read*' target/release/deps/packed-HASH
//! ```

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use rusqlite::{Connection, OpenFlags, params};
use xenolog_engine::games::race::{Race, RaceConfig};
use xenolog_engine::rng::SplitMix64;
use xenolog_engine::{EntryId, EntryRecord, Game, Session};
use xenolog_schema::codec::{
    EntryView, decode_entry, decode_entry_reference, decode_entry_view, encode_entry,
};

/// The same allocator as the `xenolog` binary, so the figures are the app's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const LONG: usize = 1_000_000;
/// The battle's id in every file (one battle a file, as in `store/open`).
const BATTLE: i64 = 1;
/// The rules version the battle was started under (format 2 entries carry
/// their own; this is only read for format 1).
const RULES: u32 = 1;

/// The stored bytes of every entry of the 1,000,000-entry battle.
fn stored_entries() -> Vec<Vec<u8>> {
    let mut s = Session::<Race>::new(42, RaceConfig { target: u32::MAX }).expect("sets up");
    // saves/benches/support/bot.rs's `Bot(7)` steps its state before mixing
    // it; the engine's SplitMix64 mixes, then steps: started one step on,
    // it draws the same numbers, so this is the store bench's battle.
    let mut bot = SplitMix64(7u64.wrapping_add(0x9E37_79B9_7F4A_7C15));
    for _ in 0..LONG {
        let mut legal = Race::legal(s.state());
        let (actor, command) = legal.swap_remove(bot.below(legal.len()));
        s.play(actor, &command, None).expect("legal");
    }
    s.records()
        .iter()
        .enumerate()
        .map(|(seq, rec)| encode_entry(seq as EntryId, rec).expect("encodes"))
        .collect()
}

/// How a file keeps the battle's entries.
#[derive(Clone, Copy)]
enum Layout {
    /// One row an entry.
    Rows,
    /// One row a block of this many entries.
    Blocks(usize),
    /// The same in a rowid table with a unique index on the key.
    BlocksRowid(usize),
}

impl Layout {
    fn name(self) -> String {
        match self {
            Layout::Rows => "rows".into(),
            Layout::Blocks(n) => format!("blocks_{n}"),
            Layout::BlocksRowid(n) => format!("blocks_{n}_rowid"),
        }
    }

    fn select(self) -> &'static str {
        match self {
            Layout::Rows => "SELECT seq, record FROM entries WHERE battle = ?1 ORDER BY seq",
            Layout::Blocks(_) | Layout::BlocksRowid(_) => {
                "SELECT first, block FROM entry_blocks WHERE battle = ?1 ORDER BY first"
            }
        }
    }
}

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A postcard varint at the start of `bytes` and the bytes after it.
fn read_varint(bytes: &[u8]) -> Option<(u64, &[u8])> {
    let mut v = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        v |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((v, &bytes[i + 1..]));
        }
    }
    None
}

/// Write `entries` into a new file at `path` in `layout`, in one transaction.
fn build(path: &Path, layout: Layout, entries: &[Vec<u8>]) -> Duration {
    let _ = std::fs::remove_file(path);
    let t = Instant::now();
    let mut conn = Connection::open(path).expect("creates");
    let mode: String = conn
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .expect("WAL");
    assert_eq!(mode, "wal");
    let table = match layout {
        Layout::Rows => {
            "CREATE TABLE entries (battle INTEGER NOT NULL, seq INTEGER NOT NULL, \
             record BLOB NOT NULL, PRIMARY KEY (battle, seq)) WITHOUT ROWID"
        }
        Layout::Blocks(_) => {
            "CREATE TABLE entry_blocks (battle INTEGER NOT NULL, first INTEGER NOT NULL, \
             block BLOB NOT NULL, PRIMARY KEY (battle, first)) WITHOUT ROWID"
        }
        Layout::BlocksRowid(_) => {
            "CREATE TABLE entry_blocks (battle INTEGER NOT NULL, first INTEGER NOT NULL, \
             block BLOB NOT NULL, UNIQUE (battle, first))"
        }
    };
    conn.execute(table, []).expect("a table");
    let tx = conn.transaction().expect("begins");
    match layout {
        Layout::Rows => {
            let mut ins = tx
                .prepare("INSERT INTO entries (battle, seq, record) VALUES (?1, ?2, ?3)")
                .expect("prepares");
            for (seq, bytes) in entries.iter().enumerate() {
                ins.execute(params![BATTLE, seq as i64, bytes])
                    .expect("inserts");
            }
        }
        Layout::Blocks(n) | Layout::BlocksRowid(n) => {
            let mut ins = tx
                .prepare("INSERT INTO entry_blocks (battle, first, block) VALUES (?1, ?2, ?3)")
                .expect("prepares");
            let mut block = Vec::new();
            for (b, chunk) in entries.chunks(n).enumerate() {
                block.clear();
                for bytes in chunk {
                    varint(bytes.len() as u64, &mut block);
                    block.extend_from_slice(bytes);
                }
                ins.execute(params![BATTLE, (b * n) as i64, &block])
                    .expect("inserts");
            }
        }
    }
    tx.commit().expect("commits");
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .expect("checkpoints");
    drop(conn);
    t.elapsed()
}

/// Whether the read connection maps the file (`PRAGMA mmap_size`) instead of
/// reading its pages into SQLite's page cache.
static MMAP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn open(path: &Path) -> Connection {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .expect("opens");
    if MMAP.load(std::sync::atomic::Ordering::Relaxed) {
        let size: i64 = conn
            .query_row("PRAGMA mmap_size = 1073741824", [], |r| r.get(0))
            .expect("maps");
        assert!(size > 0, "this SQLite maps files");
    }
    conn
}

/// Call `each(first, blob)` for every row of the battle, in order.
fn each_row(conn: &Connection, layout: Layout, mut each: impl FnMut(u64, &[u8])) {
    let mut stmt = conn.prepare(layout.select()).expect("prepares");
    let mut rows = stmt.query(params![BATTLE]).expect("queries");
    while let Some(row) = rows.next().expect("steps") {
        let first = row.get::<_, i64>(0).expect("a key") as u64;
        let blob = row.get_ref(1).expect("a blob").as_blob().expect("bytes");
        each(first, blob);
    }
}

/// Each stored entry of a row: the row itself, or a block's length-prefixed
/// records; `each(seq, bytes)`.
fn split<'a>(layout: Layout, first: u64, blob: &'a [u8], mut each: impl FnMut(u64, &'a [u8])) {
    match layout {
        Layout::Rows => each(first, blob),
        Layout::Blocks(_) | Layout::BlocksRowid(_) => {
            let mut rest = blob;
            let mut seq = first;
            while !rest.is_empty() {
                let (len, after) = read_varint(rest).expect("a length");
                let (bytes, after) = after.split_at(len as usize);
                each(seq, bytes);
                seq += 1;
                rest = after;
            }
        }
    }
}

/// Every entry decoded into today's records, by `decode`.
fn read_records(
    path: &Path,
    layout: Layout,
    decode: fn(EntryId, &[u8], u32) -> Result<EntryRecord, xenolog_schema::codec::CodecError>,
) -> Vec<EntryRecord> {
    let conn = open(path);
    let mut out = Vec::with_capacity(LONG);
    each_row(&conn, layout, |first, blob| {
        split(layout, first, blob, |seq, bytes| {
            debug_assert_eq!(seq, out.len() as u64);
            out.push(decode(seq, bytes, RULES).expect("decodes"));
        })
    });
    out
}

/// Every row's bytes in one buffer, then a view of every entry into it.
fn read_views(path: &Path, layout: Layout, check: impl FnOnce(&[EntryView])) {
    let conn = open(path);
    let mut buffer = Vec::new();
    // Where each row starts in the buffer, and the entry it starts with.
    let mut rows: Vec<(u64, usize)> = Vec::new();
    each_row(&conn, layout, |first, blob| {
        rows.push((first, buffer.len()));
        buffer.extend_from_slice(blob);
    });
    let mut views = Vec::with_capacity(LONG);
    for (i, &(first, start)) in rows.iter().enumerate() {
        let end = rows.get(i + 1).map_or(buffer.len(), |r| r.1);
        split(layout, first, &buffer[start..end], |seq, bytes| {
            views.push(decode_entry_view(seq, bytes, RULES).expect("decodes"));
        });
    }
    check(&views);
}

/// SQLite alone: every row stepped, its blob's length summed.
fn scan(path: &Path, layout: Layout) -> u64 {
    let conn = open(path);
    let mut total = 0;
    each_row(&conn, layout, |_, blob| total += blob.len() as u64);
    total
}

struct Fixture {
    layout: Layout,
    path: PathBuf,
}

/// The five layouts the benchmark compares.
const LAYOUTS: [Layout; 5] = [
    Layout::Rows,
    Layout::Blocks(64),
    Layout::Blocks(256),
    Layout::Blocks(1024),
    Layout::BlocksRowid(1024),
];

fn packed(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let t = Instant::now();
    let entries = stored_entries();
    let stored: usize = entries.iter().map(Vec::len).sum();
    println!(
        "{LONG} entries played and encoded in {:.2?}: {stored} bytes of records, {:.1} an entry",
        t.elapsed(),
        stored as f64 / LONG as f64
    );
    let fixtures: Vec<Fixture> = LAYOUTS
        .iter()
        .map(|&layout| {
            let path = dir.path().join(format!("{}.sqlite", layout.name()));
            let took = build(&path, layout, &entries);
            let size = std::fs::metadata(&path).expect("exists").len();
            println!(
                "{}: written in {took:.2?}, file {size} bytes = {:.1} bytes an entry",
                layout.name(),
                size as f64 / LONG as f64
            );
            Fixture { layout, path }
        })
        .collect();
    let last = entries.last().cloned().expect("entries");
    drop(entries);
    let expect_last = decode_entry((LONG - 1) as u64, &last, RULES).expect("decodes");

    let mut g = c.benchmark_group("packed");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.warm_up_time(Duration::from_secs(1));
    for f in &fixtures {
        let name = f.layout.name();
        g.bench_function(format!("{name}/scan"), |b| {
            b.iter(|| black_box(scan(&f.path, f.layout)))
        });
        g.bench_function(format!("{name}/records"), |b| {
            b.iter(|| {
                let records = read_records(&f.path, f.layout, decode_entry);
                assert_eq!(records.len(), LONG);
                assert_eq!(records[LONG - 1], expect_last);
                black_box(records)
            })
        });
        g.bench_function(format!("{name}/views"), |b| {
            b.iter(|| {
                read_views(&f.path, f.layout, |views| {
                    assert_eq!(views.len(), LONG);
                    assert_eq!(views[LONG - 1].to_record(), expect_last);
                    black_box(views);
                })
            })
        });
        if matches!(f.layout, Layout::Rows | Layout::BlocksRowid(1024)) {
            let mapped = |on| MMAP.store(on, std::sync::atomic::Ordering::Relaxed);
            g.bench_function(format!("{name}/scan_mmap"), |b| {
                mapped(true);
                b.iter(|| black_box(scan(&f.path, f.layout)));
                mapped(false);
            });
            g.bench_function(format!("{name}/views_mmap"), |b| {
                mapped(true);
                b.iter(|| read_views(&f.path, f.layout, |views| assert_eq!(views.len(), LONG)));
                mapped(false);
            });
        }
        if matches!(f.layout, Layout::Rows | Layout::Blocks(256)) {
            g.bench_function(format!("{name}/records_serde"), |b| {
                b.iter(|| {
                    let records = read_records(&f.path, f.layout, decode_entry_reference);
                    assert_eq!(records.len(), LONG);
                    black_box(records)
                })
            });
        }
    }
    g.finish();
}

/// Counting instructions instead of timing (the machine has no hardware
/// counters; see the module docs): with `XENOLOG_PACKED_DIR` set, build the
/// five files there if they are not, and, with `XENOLOG_PACKED_COUNT` set to
/// `LAYOUT/TARGET` (e.g. `blocks_256/views`), read one of them once in
/// `count_read`, the function to count with callgrind's `--toggle-collect`.
fn counting(dir: &str) {
    let dir = Path::new(dir);
    let path = |l: Layout| dir.join(format!("{}.sqlite", l.name()));
    if LAYOUTS.iter().any(|&l| !path(l).exists()) {
        let entries = stored_entries();
        for &l in &LAYOUTS {
            let took = build(&path(l), l, &entries);
            println!("{}: written in {took:.2?}", l.name());
        }
    }
    let Ok(what) = std::env::var("XENOLOG_PACKED_COUNT") else {
        return;
    };
    let (name, target) = what.split_once('/').expect("LAYOUT/TARGET");
    let layout = *LAYOUTS
        .iter()
        .find(|l| l.name() == name)
        .expect("a layout: rows, blocks_64, blocks_256, blocks_1024, blocks_1024_rowid");
    println!("{}", count_read(&path(layout), layout, target));
}

#[inline(never)]
fn count_read(path: &Path, layout: Layout, target: &str) -> String {
    match target {
        "scan" => format!("{} bytes scanned", scan(path, layout)),
        "scan_mmap" | "views_mmap" => {
            MMAP.store(true, std::sync::atomic::Ordering::Relaxed);
            count_read(path, layout, target.trim_end_matches("_mmap"))
        }
        "records" => format!("{} records", read_records(path, layout, decode_entry).len()),
        "records_serde" => format!(
            "{} records",
            read_records(path, layout, decode_entry_reference).len()
        ),
        "views" => {
            let mut n = 0;
            read_views(path, layout, |v| n = v.len());
            format!("{n} views")
        }
        _ => panic!("a target: scan, records, records_serde, views, scan_mmap, views_mmap"),
    }
}

criterion_group!(benches, packed);

fn main() {
    if let Ok(dir) = std::env::var("XENOLOG_PACKED_DIR") {
        counting(&dir);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
