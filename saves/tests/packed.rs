//! Packed entries (issue 29, migration 8, `saves/src/blocks.rs`): a battle's
//! entries are its sealed blocks of 1,024 (`entry_blocks`) and then its open
//! tail (`entries`). These tests hold the layout to what the design says:
//! written whole or sealed by the append that completes a block, read back
//! exactly as played, counted through both tables, older files sealed when
//! opened for writing, damage named by the entry, and the trust book's digest
//! the same wherever an entry is stored.
//!
//! Each test runs on a campaign file and, when `XENOLOG_TEST_PG` holds a
//! connection string (`tests/pg/cluster.sh start`), on a PostgreSQL schema of
//! its own with a random name, dropped at the end (the pattern of
//! `backends.rs`: `<name>::on_sqlite`, `<name>::on_postgres`).

use xenolog_engine::games::race::{Race, RaceConfig};
use xenolog_engine::{Battle, Game, Session};
use xenolog_saves::db::pg::Postgres;
use xenolog_saves::db::{Db, DbExt};
use xenolog_saves::{BattleId, Campaign, DiceMode, SaveError, decide};
use xenolog_schema::codec::{BLOCK_ENTRIES, block_records, encode_block};

#[path = "support/pg.rs"]
mod pg;
#[path = "support/store.rs"]
#[macro_use]
mod store;

use store::{Kind, Store};

const BLOCK: u64 = BLOCK_ENTRIES;

/// A Dice Race of `n` entries played in memory by a fixed pattern, with a
/// take-back and a second branch every 700 entries (entries of a branch are
/// numbered on after the others: blocks go by number, not by branch).
fn race(seed: u64, n: usize) -> Session<Race> {
    let mut s = Session::<Race>::new(seed, RaceConfig { target: u32::MAX }).unwrap();
    for i in 0..n {
        if i % 700 == 699 {
            s.undo(3);
        }
        let legal = Race::legal(s.state());
        let (actor, command) = legal[(i * 5 + 1) % legal.len()].clone();
        s.play(actor, &command, None).unwrap();
    }
    s
}

/// (blocks, tail rows) stored for battle `id`.
fn layout(raw: &dyn Db, id: BattleId) -> (i64, i64) {
    let blocks = raw
        .one(
            "SELECT COUNT(*) FROM entry_blocks WHERE battle = ?1",
            &[&id],
        )
        .unwrap();
    let rows = raw
        .one("SELECT COUNT(*) FROM entries WHERE battle = ?1", &[&id])
        .unwrap();
    (blocks, rows)
}

/// The battle as loaded is the battle as played: every record, the
/// branches, the cursor, and the state at the cursor.
fn same_as_played(c: &Campaign, id: BattleId, played: &dyn Battle) {
    let b = c.load_battle(id).unwrap();
    assert_eq!(b.records().len(), played.records().len());
    for (i, (a, p)) in b.records().iter().zip(played.records()).enumerate() {
        assert_eq!(a, p, "entry {i}");
    }
    assert_eq!(b.branches(), played.branches());
    assert_eq!(b.cursor(), played.cursor());
    assert_eq!(b.state_json(b.cursor()), played.state_json(played.cursor()));
    let report = c.verify_battle(id).unwrap();
    assert!(report.ok(), "{report}");
    let summary = c.summary(id).unwrap();
    assert_eq!(
        summary.entries,
        played.records().len() as u64,
        "the list's count"
    );
}

/// Move every block of battle `id` back into tail rows, as a file written
/// before migration 8 stores its entries.
fn unseal(raw: &dyn Db, id: BattleId) {
    let mut blocks: Vec<(i64, Vec<u8>)> = Vec::new();
    raw.each(
        "SELECT first, block FROM entry_blocks WHERE battle = ?1 ORDER BY first",
        &[&id],
        |r| {
            blocks.push((r.get(0)?, r.get(1)?));
            Ok::<(), xenolog_saves::db::DbError>(())
        },
    )
    .unwrap();
    for (first, block) in blocks {
        for (i, rec) in block_records(&block).enumerate() {
            raw.execute(
                "INSERT INTO entries (battle, seq, record) VALUES (?1, ?2, ?3)",
                &[&id, &(first + i as i64), &rec.unwrap()],
            )
            .unwrap();
        }
    }
    raw.execute("DELETE FROM entry_blocks WHERE battle = ?1", &[&id])
        .unwrap();
}

both! {
    /// Written whole (a new battle of 2,600 entries, and the same battle
    /// exported and imported): two sealed blocks and a tail of 552 rows, read
    /// back record for record as played, counted through both tables.
    fn a_long_battle_is_stored_as_blocks_and_a_tail_and_reads_as_played(s) {
        let played = race(1, 2600);
        let id = s.c().insert_battle_bulk(&played, "Long", DiceMode::Rolled).unwrap();
        assert_eq!(layout(&*s.raw(), id), (2, 2600 - 2 * BLOCK as i64));
        same_as_played(s.c(), id, &played);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("long.xbattle");
        s.c().export_battle(id, &file).unwrap();
        let again = s.c().import_battle(&file).unwrap();
        assert_eq!(layout(&*s.raw(), again), (2, 552));
        same_as_played(s.c(), again, &played);
        // Exactly one block, no tail; and a battle shorter than a block.
        let one = s.c().insert_battle_bulk(&race(2, 1024), "One", DiceMode::Rolled).unwrap();
        assert_eq!(layout(&*s.raw(), one), (1, 0));
        let short = s.c().insert_battle_bulk(&race(3, 1023), "Short", DiceMode::Rolled).unwrap();
        assert_eq!(layout(&*s.raw(), short), (0, 1023));
        let c = s.reopen();
        same_as_played(c, one, &race(2, 1024));
        same_as_played(c, short, &race(3, 1023));
    }
}

both! {
    /// `Campaign::play`: the entry that completes a block seals it in the
    /// command's own transaction; the next entries start the new tail.
    fn the_command_that_completes_a_block_seals_it(s) {
        let id = s.c().insert_battle_bulk(&race(4, 1021), "Race", DiceMode::Rolled).unwrap();
        let mut b = s.c().load_battle(id).unwrap();
        let play = |c: &mut Campaign, b: &mut Box<dyn Battle>| {
            let legal = b.legal();
            let cmd = legal[1 % legal.len()].clone();
            c.play(id, &mut **b, cmd.actor, &cmd.command, None).unwrap()
        };
        assert_eq!(play(s.c(), &mut b), 1021);
        assert_eq!(play(s.c(), &mut b), 1022);
        assert_eq!(layout(&*s.raw(), id), (0, 1023));
        assert_eq!(play(s.c(), &mut b), 1023);
        assert_eq!(layout(&*s.raw(), id), (1, 0), "sealed with entry 1023");
        assert_eq!(play(s.c(), &mut b), 1024);
        assert_eq!(layout(&*s.raw(), id), (1, 1));
        same_as_played(s.c(), id, &*b);
        let c = s.reopen();
        same_as_played(c, id, &*b);
    }
}

both! {
    /// `append_batch`: a part that completes a block seals it inside the
    /// part's savepoint, so a part refused after writing its entries (its
    /// command id used before) takes its seal with it, and the others stand.
    fn a_batch_part_seals_its_block_and_a_refused_part_takes_its_seal_with_it(s) {
        let a = s.c().insert_battle_bulk(&race(5, 1022), "A", DiceMode::Rolled).unwrap();
        let other = s.c().insert_battle_bulk(&race(6, 10), "B", DiceMode::Rolled).unwrap();
        s.c().make_command_ids_table().unwrap();
        let mut ba = s.c().load_battle(a).unwrap();
        let mut bb = s.c().load_battle(other).unwrap();
        let next = |b: &mut Box<dyn Battle>| {
            let legal = b.legal();
            legal[0].clone()
        };
        let cmd = next(&mut ba);
        let first = decide(a, &mut *ba, cmd.actor, &cmd.command, None, DiceMode::Rolled)
            .unwrap()
            .command_id(cmd.actor, "one");
        let r = s.c().append_batch(&[first]).unwrap();
        assert!(r[0].is_ok());
        assert_eq!(layout(&*s.raw(), a), (0, 1023));
        // The same command id again, on the entry that completes the block.
        let cmd = next(&mut ba);
        let again = decide(a, &mut *ba, cmd.actor, &cmd.command, None, DiceMode::Rolled)
            .unwrap()
            .command_id(cmd.actor, "one");
        let cmd = next(&mut bb);
        let fine = decide(other, &mut *bb, cmd.actor, &cmd.command, None, DiceMode::Rolled)
            .unwrap();
        let r = s.c().append_batch(&[again, fine]).unwrap();
        assert!(matches!(r[0], Err(SaveError::CommandIdUsed { .. })), "{:?}", r[0]);
        assert!(r[1].is_ok());
        assert_eq!(layout(&*s.raw(), a), (0, 1023), "the refused part's seal is undone");
        assert_eq!(s.c().summary(a).unwrap().entries, 1023);
        // Decided again from the stored battle, with a new id: sealed.
        let mut ba = s.c().load_battle(a).unwrap();
        let cmd = next(&mut ba);
        let part = decide(a, &mut *ba, cmd.actor, &cmd.command, None, DiceMode::Rolled)
            .unwrap()
            .command_id(cmd.actor, "two");
        assert!(s.c().append_batch(&[part]).unwrap()[0].is_ok());
        assert_eq!(layout(&*s.raw(), a), (1, 0));
        same_as_played(s.c(), a, &*ba);
    }
}

both! {
    /// A campaign whose entries are all tail rows (as every file written
    /// before migration 8) reads the same, read-only too, and the first open
    /// for writing seals its full tails, one transaction a battle.
    fn full_tails_are_sealed_when_the_campaign_is_opened_for_writing(s) {
        let long = race(7, 3000);
        let a = s.c().insert_battle_bulk(&long, "Long", DiceMode::Rolled).unwrap();
        let b = s.c().insert_battle_bulk(&race(8, 1500), "Other", DiceMode::Rolled).unwrap();
        let raw = s.raw();
        unseal(&*raw, a);
        unseal(&*raw, b);
        assert_eq!(layout(&*raw, a), (0, 3000));
        // Read as rows, as before.
        same_as_played(s.c(), a, &long);
        if let Kind::Sqlite { path, .. } = &s.kind {
            let path = path.clone();
            s.c = None;
            let ro = Campaign::open_read_only(&path).unwrap();
            same_as_played(&ro, a, &long);
            assert_eq!(layout(&*raw, a), (0, 3000), "a read-only open writes nothing");
        }
        let c = s.reopen();
        assert_eq!(layout(&*raw, a), (2, 3000 - 2 * BLOCK as i64));
        assert_eq!(layout(&*raw, b), (1, 1500 - BLOCK as i64));
        same_as_played(c, a, &long);
    }
}

/// A Xenolog campaign file of schema 7 (before packed entries) with a long
/// battle, opened by this build: backed up, upgraded, its tail sealed, and
/// read as it was played.
#[test]
fn a_schema_7_file_is_upgraded_and_its_long_battle_sealed() {
    let mut s = Store::sqlite();
    let long = race(9, 2100);
    let id = s
        .c()
        .insert_battle_bulk(&long, "Long", DiceMode::Rolled)
        .unwrap();
    let Kind::Sqlite { path, .. } = &s.kind else {
        unreachable!()
    };
    let path = path.clone();
    s.c = None;
    {
        let raw = rusqlite::Connection::open(&path).unwrap();
        unseal(&raw, id);
        // Schema 7: no blocks, and no kinds (migration 9).
        raw.execute_batch(
            "DROP TABLE entry_blocks;
             ALTER TABLE branches DROP COLUMN kind;
             ALTER TABLE campaign_conflicts DROP COLUMN kind;
             PRAGMA user_version = 7",
        )
        .unwrap();
    }
    let c = Campaign::open(&path).unwrap();
    assert!(c.upgrade_backup().is_some(), "backed up before the upgrade");
    let raw = rusqlite::Connection::open(&path).unwrap();
    assert_eq!(layout(&raw, id), (2, 52));
    same_as_played(&c, id, &long);
    // The backup is the file as it was: schema 7, every entry a row.
    let backup = rusqlite::Connection::open(c.upgrade_backup().unwrap()).unwrap();
    let rows: i64 = backup
        .query_row("SELECT COUNT(*) FROM entries", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 2100);
}

/// Forge damage into battle `id`'s layout with `how`, then load and verify
/// it: both refuse in words naming `entry` and saying `words`.
fn damaged(s: &mut Store, seed: u64, how: &dyn Fn(&dyn Db, BattleId), entry: u64, words: &str) {
    let id = s
        .c()
        .insert_battle_bulk(&race(seed, 2100), "Damaged", DiceMode::Rolled)
        .unwrap();
    how(&*s.raw(), id);
    let e = s
        .c()
        .load_battle(id)
        .err()
        .expect("a damaged layout is refused");
    let text = e.to_string();
    assert!(
        text.contains(&format!("entry {entry} ")) && text.contains(words),
        "{text}"
    );
    let report = s.c().verify_battle(id).unwrap();
    let problem = report.problem.expect("verify names the damage");
    assert_eq!(problem.entry, entry, "{}", problem.detail);
    assert!(problem.detail.contains(words), "{}", problem.detail);
}

fn block_of(raw: &dyn Db, id: BattleId, first: i64) -> Vec<u8> {
    raw.one(
        "SELECT block FROM entry_blocks WHERE battle = ?1 AND first = ?2",
        &[&id, &first],
    )
    .unwrap()
}

fn put_block(raw: &dyn Db, id: BattleId, first: i64, block: &[u8]) {
    raw.execute(
        "UPDATE entry_blocks SET block = ?3 WHERE battle = ?1 AND first = ?2",
        &[&id, &first, &block],
    )
    .unwrap();
}

both! {
    /// Every way the layout can be damaged is refused in words naming the
    /// entry, by loading and by `verify`, never read as something else.
    fn a_damaged_layout_is_named_by_its_entry(s) {
        // An entry in a block and in the tail too.
        damaged(s, 10, &|raw, id| {
            let rec: Vec<u8> = block_of(raw, id, 0);
            let five = block_records(&rec).nth(5).unwrap().unwrap().to_vec();
            raw.execute(
                "INSERT INTO entries (battle, seq, record) VALUES (?1, 5, ?2)",
                &[&id, &five],
            )
            .unwrap();
        }, 5, "stored twice");
        // The first block gone: entry 0 is missing.
        damaged(s, 11, &|raw, id| {
            raw.execute("DELETE FROM entry_blocks WHERE battle = ?1 AND first = 0", &[&id])
                .unwrap();
        }, 0, "is missing");
        // A block moved off its multiple of 1,024.
        damaged(s, 12, &|raw, id| {
            raw.execute(
                "UPDATE entry_blocks SET first = 1000 WHERE battle = ?1 AND first = 1024",
                &[&id],
            )
            .unwrap();
        }, 1024, "not a multiple of 1024");
        // A block holding 1,000 of its 1,024 entries.
        damaged(s, 13, &|raw, id| {
            let block = block_of(raw, id, 1024);
            let fewer: Vec<Vec<u8>> =
                block_records(&block).take(1000).map(|r| r.unwrap().to_vec()).collect();
            put_block(raw, id, 1024, &encode_block(fewer.iter().map(Vec::as_slice)));
        }, 2024, "holds 1000 of its 1024");
        // A block cut short in its 301st record.
        damaged(s, 14, &|raw, id| {
            let block = block_of(raw, id, 0);
            let mut at = 1;
            let mut cut = 0;
            for (i, r) in block_records(&block).enumerate() {
                let r = r.unwrap();
                if i == 300 {
                    cut = at + 1 + r.len() / 2;
                    break;
                }
                at += 1 + r.len();
            }
            put_block(raw, id, 0, &block[..cut]);
        }, 300, "cut short");
        // A block of a newer Xenolog's format.
        damaged(s, 15, &|raw, id| {
            let mut block = block_of(raw, id, 1024);
            block[0] = 9;
            put_block(raw, id, 1024, &block);
        }, 1024, "newer Xenolog (block format 9");
        // A tail row missing between the blocks and the rest of the tail.
        damaged(s, 16, &|raw, id| {
            raw.execute("DELETE FROM entries WHERE battle = ?1 AND seq = 2048", &[&id])
                .unwrap();
        }, 2048, "is missing");
    }
}

/// The trust book's digest (what this machine verified) is the same whether
/// an entry is sealed in a block or a row of the tail: a battle verified
/// sealed is still trusted unsealed and sealed again, and a changed entry is
/// not.
#[test]
fn the_trust_digest_is_the_same_whichever_way_an_entry_is_stored() {
    use xenolog_saves::trust::{TrustBook, check_now};
    let mut s = Store::sqlite();
    let id = s
        .c()
        .insert_battle_bulk(&race(20, 2100), "Trusted", DiceMode::Rolled)
        .unwrap();
    let Kind::Sqlite { path, _dir } = &s.kind else {
        unreachable!()
    };
    let path = path.clone();
    let book = _dir.path().join("trust.json");
    s.c = None;
    let checked = check_now(&path, Some(&book), &mut |_, _| {}).unwrap();
    assert_eq!((checked.checked, checked.problem), (1, None));
    let untrusted = |path: &std::path::Path| {
        let c = Campaign::open_read_only(path).unwrap();
        TrustBook::read(&book).untrusted(&c).unwrap()
    };
    assert!(untrusted(&path).is_empty());
    let raw = rusqlite::Connection::open(&path).unwrap();
    unseal(&raw, id);
    assert_eq!(layout(&raw, id), (0, 2100));
    assert!(untrusted(&path).is_empty(), "unsealed, the same digest");
    drop(Campaign::open(&path).unwrap());
    assert_eq!(layout(&raw, id), (2, 52));
    assert!(untrusted(&path).is_empty(), "sealed again, the same digest");
    // One byte of one sealed entry's chain changed: not trusted.
    let mut block = block_of(&raw, id, 1024);
    let at = block.len() / 2;
    block[at] ^= 1;
    put_block(&raw, id, 1024, &block);
    assert_eq!(untrusted(&path), vec![id]);
}

/// On PostgreSQL a block is kept out of line uncompressed (migration 8 there:
/// `SET STORAGE EXTERNAL`; hashes do not compress, and reading skips pglz).
#[test]
fn on_postgres_a_block_is_stored_external() {
    let Some(mut s) = Store::postgres("external") else {
        return;
    };
    s.c()
        .insert_battle_bulk(&race(30, 1100), "Long", DiceMode::Rolled)
        .unwrap();
    let storage: String = s
        .raw()
        .one(
            "SELECT CAST(attstorage AS TEXT) FROM pg_attribute \
             WHERE attrelid = to_regclass('entry_blocks') AND attname = 'block'",
            &[],
        )
        .unwrap();
    assert_eq!(storage, "e");
}

/// Play `n` more commands on battle `id` (held as `b`) by a fixed pattern.
fn play_on(c: &mut Campaign, id: BattleId, b: &mut dyn Battle, n: usize) {
    for i in 0..n {
        let legal = b.legal();
        let l = legal[(i * 5 + 1) % legal.len()].clone();
        c.play(id, b, l.actor, &l.command, None).unwrap();
    }
}

both! {
    /// review4 M1: a battle whose full tail was left unsealed (the seal on
    /// open failed, or an older build wrote the rows) and is then played on
    /// past the next block boundary: the row that completes a block seals
    /// every whole block of the tail, in order, so no tail is left below a
    /// block, the head never moves back, and the battle loads, plays on and
    /// verifies (it read "entry 0 is missing" with 2,048 entries counted of
    /// 3,072).
    fn review4_m1_head_after_sealing_above_an_unsealed_full_tail(s) {
        let long = race(7, 3000);
        let a = s.c().insert_battle_bulk(&long, "Long", DiceMode::Rolled).unwrap();
        let raw = s.raw();
        unseal(&*raw, a);
        assert_eq!(layout(&*raw, a), (0, 3000));
        let mut b = s.c().load_battle(a).unwrap();
        play_on(s.c(), a, &mut *b, 72);
        assert_eq!(layout(&*raw, a), (3, 0), "every whole block sealed, in order");
        assert_eq!(s.c().summary(a).unwrap().entries, 3072, "the head never moves back");
        same_as_played(s.c(), a, &*b);
        play_on(s.c(), a, &mut *b, 1);
        assert_eq!(layout(&*raw, a), (3, 1));
        let c = s.reopen();
        same_as_played(c, a, &*b);
    }
}

/// review4 M1, how the tail gets there: a campaign file opened for writing
/// while another connection holds its write lock past the busy timeout
/// opens (the seal on open is best effort, and now said on the standard
/// error) with its full tail unsealed; played on past the next block, the
/// whole tail is sealed in order and the battle stays whole.
#[test]
fn review4_m1_a_seal_on_open_that_fails_under_a_held_write_lock_is_made_good_by_the_next_block() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.xenolog");
    let mut c = Campaign::create(&path, "P").unwrap();
    let a = c
        .insert_battle_bulk(&race(7, 3000), "Long", DiceMode::Rolled)
        .unwrap();
    drop(c);
    let raw = rusqlite::Connection::open(&path).unwrap();
    unseal(&raw, a);
    raw.execute_batch("BEGIN IMMEDIATE").unwrap();
    let p2 = path.clone();
    let opened = std::thread::spawn(move || Campaign::open(&p2));
    // The lock is held until the open is over: past the 5-second busy
    // timeout of the seal's transaction, however late the open began (a
    // fixed wait let a slow machine's seal start late and get the lock).
    let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !opened.is_finished() {
        assert!(
            std::time::Instant::now() < until,
            "the open gives up its seal and returns (120 s at the most)"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    raw.execute_batch("COMMIT").unwrap();
    let mut c = opened.join().unwrap().expect("the open itself succeeds");
    assert_eq!(layout(&raw, a), (0, 3000), "its seal failed under the lock");
    let mut b = c.load_battle(a).unwrap();
    play_on(&mut c, a, &mut *b, 72);
    assert_eq!(layout(&raw, a), (3, 0));
    assert_eq!(c.summary(a).unwrap().entries, 3072);
    same_as_played(&c, a, &*b);
}

/// Index and sequential scans of table `table` of schema `schema` so far,
/// as the statistics collector has them (a backend's are flushed when its
/// connection closes).
fn scans(admin: &Postgres, schema: &str, table: &str) -> i64 {
    admin
        .execute_batch("SELECT pg_stat_clear_snapshot()")
        .unwrap();
    admin
        .one(
            "SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_user_tables
             WHERE schemaname = ?1 AND relname = ?2",
            &[&schema, &table],
        )
        .unwrap()
}

/// `url` with its connections named `name` (`application_name`), so a
/// test can tell when they are all gone.
fn named(url: &str, name: &str) -> String {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let sep = if url.contains('?') { '&' } else { '?' };
        format!("{url}{sep}application_name={name}")
    } else {
        format!("{url} application_name={name}")
    }
}

/// Wait (60 s at the most) until no connection named `name` but `admin`'s
/// own is left: a backend's statistics are flushed before it leaves
/// `pg_stat_activity` (PostgreSQL 15: the flush is a `before_shmem_exit`
/// hook, the activity entry's removal an `on_shmem_exit` one), so then
/// every scan they made is counted.
fn all_closed(admin: &Postgres, name: &str) {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let left: i64 = admin
            .one(
                "SELECT count(*) FROM pg_stat_activity
                 WHERE application_name = ?1 AND pid <> pg_backend_pid()",
                &[&name],
            )
            .unwrap();
        if left == 0 {
            return;
        }
        assert!(
            std::time::Instant::now() < until,
            "{left} connections named {name} still open after 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// review4 S3: a read-only open of a PostgreSQL campaign tries no seal (it
/// scanned every battle's tail and began a write before it was marked
/// read-only); an open for writing still seals. Measured by the scans of
/// the `entries` table the statistics collector counts for the schema,
/// read when every other connection of the test has closed (so flushed
/// its counts; a fixed wait let a late flush count against the
/// read-only open on a slow machine, or a read-only scan go uncounted).
#[test]
fn review4_s3_a_read_only_open_on_postgres_tries_no_seal() {
    let Some(server) = pg::server() else {
        return;
    };
    let schema = pg::random_schema("ro_no_seal");
    let url = named(&server, &schema);
    let mut s = Store {
        c: Some(Campaign::create_postgres(&url, &schema, "Club").unwrap()),
        kind: Kind::Postgres {
            url: url.clone(),
            schema: schema.clone(),
        },
    };
    let a = s
        .c()
        .insert_battle_bulk(&race(7, 3000), "Long", DiceMode::Rolled)
        .unwrap();
    s.c = None;
    let raw = s.raw();
    unseal(&*raw, a);
    drop(raw);
    let admin = Postgres::connect(&url).unwrap();
    all_closed(&admin, &schema);
    let before = scans(&admin, &schema, "entries");
    assert!(before > 0, "the scans so far are counted: {before}");
    let ro = Campaign::open_postgres_read_only(&url, &schema).unwrap();
    assert!(ro.is_read_only());
    drop(ro);
    all_closed(&admin, &schema);
    assert_eq!(
        scans(&admin, &schema, "entries"),
        before,
        "a read-only open touched no entry"
    );
    let raw = s.raw();
    assert_eq!(layout(&*raw, a), (0, 3000), "nothing sealed");
    drop(raw);
    all_closed(&admin, &schema);
    let before = scans(&admin, &schema, "entries");
    // The control: an open for writing scans the tails and seals them.
    let w = Campaign::open_postgres(&url, &schema).unwrap();
    drop(w);
    all_closed(&admin, &schema);
    assert!(scans(&admin, &schema, "entries") > before);
    let raw = s.raw();
    assert_eq!(layout(&*raw, a), (2, 3000 - 2 * BLOCK as i64));
}
