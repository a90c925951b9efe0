//! The campaign database's migrations.
//!
//! Each migration is a numbered file in `schema/migrations/` (`0001_*.sql`,
//! `0002_*.sql`, ...), compiled in. `rusqlite_migration` applies every pending
//! one in a single transaction and records the result in SQLite's
//! `user_version`, so a file is either at its old version or fully at the new
//! one. A migration, once released, is never edited: a change is a new file.

use rusqlite_migration::{M, Migrations};

/// Marks a SQLite file as a Xenolog campaign ('XNLG'); set by migration 1.
pub const APPLICATION_ID: i32 = 0x584E_4C47;

static MIGRATIONS: &[M<'static>] = &[
    M::up(include_str!("../migrations/0001_campaign.sql")),
    M::up(include_str!("../migrations/0002_battle_origin.sql")),
    M::up(include_str!("../migrations/0003_strict_battles.sql")),
    M::up(include_str!("../migrations/0004_notes.sql")),
    M::up(include_str!("../migrations/0005_campaign.sql")),
    M::up(include_str!("../migrations/0006_fair_seeds.sql")),
    M::up(include_str!("../migrations/0007_copies.sql")),
    M::up(include_str!("../migrations/0008_entry_blocks.sql")),
    M::up(include_str!("../migrations/0009_kinds.sql")),
];

/// The schema version this build writes: the number of migrations.
pub const SCHEMA_VERSION: u32 = 9;

/// The migrations, in order.
pub fn migrations() -> Migrations<'static> {
    Migrations::from_slice(MIGRATIONS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_migrations_apply_to_an_empty_database() {
        migrations()
            .validate()
            .expect("the migrations are valid SQL");
    }

    #[test]
    fn schema_version_counts_the_migrations() {
        assert_eq!(SCHEMA_VERSION as usize, MIGRATIONS.len());
    }

    /// Every `.sql` file in `schema/migrations/` is listed, in order, with no gap:
    /// a file added but not listed would never run.
    #[test]
    fn every_migration_file_is_listed_in_order() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".sql"))
            .collect();
        names.sort();
        assert_eq!(names.len(), MIGRATIONS.len(), "{names:?}");
        for (i, name) in names.iter().enumerate() {
            let number: usize = name[..4].parse().unwrap();
            assert_eq!(number, i + 1, "{name} is out of sequence");
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            assert_eq!(
                MIGRATIONS[i],
                M::up(Box::leak(text.into_boxed_str())),
                "{name} is not the migration compiled in at position {}",
                i + 1
            );
        }
    }

    #[test]
    fn migration_1_marks_the_file_as_ours() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        migrations().to_version(&mut conn, 1).unwrap();
        let id: i32 = conn
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .unwrap();
        assert_eq!(id, APPLICATION_ID);
        let version: u32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 1);
    }

    #[test]
    fn migration_4_adds_notes_beside_the_battles() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        migrations().to_version(&mut conn, 3).unwrap();
        conn.execute(
            "INSERT INTO battles (game, title, seed, rules_version, config, dice_mode, created, updated)
             VALUES ('race', 'Old', 1, 1, '{}', 'rolled', 5, 6)",
            [],
        )
        .unwrap();
        migrations().to_latest(&mut conn).unwrap();
        conn.execute(
            "INSERT INTO notes (battle, entry, bookmark, text, created, updated)
             VALUES (1, 0, 1, 'the turning point', 7, 7)",
            [],
        )
        .unwrap();
        let n: i64 = conn
            .query_row("SELECT COUNT(*) FROM battles", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
        // Neither flag nor text beyond the checks.
        assert!(
            conn.execute(
                "INSERT INTO notes (battle, entry, bookmark, created, updated) VALUES (1, 1, 2, 7, 7)",
                [],
            )
            .is_err()
        );
    }

    #[test]
    fn migration_2_keeps_battles_and_adds_their_origin() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        migrations().to_version(&mut conn, 1).unwrap();
        conn.execute(
            "INSERT INTO battles (game, title, seed, rules_version, config, dice_mode, created, updated)
             VALUES ('race', 'Old', -1, 1, '{}', 'rolled', 5, 6)",
            [],
        )
        .unwrap();
        migrations().to_latest(&mut conn).unwrap();
        let (title, seed, origin): (String, i64, Option<String>) = conn
            .query_row("SELECT title, seed, origin FROM battles", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!(
            (title.as_str(), seed as u64, origin),
            ("Old", u64::MAX, None)
        );
    }

    /// Migration 7 (issue 30 item 9): an older campaign gets a uid, and its
    /// log entries keep their numbers under the shared origin '', so every
    /// copy of the file keys them alike; a key is unique.
    #[test]
    fn migration_7_gives_a_campaign_a_uid_and_its_entries_keys() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        migrations().to_version(&mut conn, 6).unwrap();
        conn.execute(
            "INSERT INTO campaign (id, name, created) VALUES (1, 'Old', 5)",
            [],
        )
        .unwrap();
        for id in 1..=3 {
            conn.execute(
                "INSERT INTO campaign_log (id, at, event) VALUES (?1, 9, '{}')",
                [id],
            )
            .unwrap();
        }
        migrations().to_latest(&mut conn).unwrap();
        let uid: String = conn
            .query_row("SELECT uid FROM campaign", [], |r| r.get(0))
            .unwrap();
        assert_eq!(uid.len(), 32, "{uid}");
        assert!(uid.chars().all(|c| c.is_ascii_hexdigit()), "{uid}");
        let keys: Vec<(String, i64)> = conn
            .prepare("SELECT origin, origin_id FROM campaign_log ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(keys, [("".into(), 1), ("".into(), 2), ("".into(), 3)]);
        assert!(
            conn.execute(
                "INSERT INTO campaign_log (id, at, event, origin, origin_id) VALUES (4, 9, '{}', '', 2)",
                [],
            )
            .is_err(),
            "two entries with one key"
        );
    }

    /// Migration 8 (issue 29, packed entries): the entries stay where they
    /// are (all of an older battle is its open tail) and a table of sealed
    /// blocks comes beside them, keyed by battle and first entry.
    #[test]
    fn migration_8_keeps_the_entries_and_adds_their_blocks() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        migrations().to_version(&mut conn, 7).unwrap();
        conn.execute(
            "INSERT INTO entries (battle, seq, record) VALUES (1, 0, x'02')",
            [],
        )
        .unwrap();
        migrations().to_latest(&mut conn).unwrap();
        let n: i64 = conn
            .query_row("SELECT COUNT(*) FROM entries", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
        let blocks = "INSERT INTO entry_blocks (battle, first, block) VALUES (1, 0, x'01')";
        conn.execute(blocks, []).unwrap();
        assert!(conn.execute(blocks, []).is_err(), "one block a first entry");
        assert!(
            conn.execute(
                "INSERT INTO entry_blocks (battle, first, block) VALUES (1, 1024, NULL)",
                []
            )
            .is_err(),
            "a block is never empty"
        );
    }

    /// Migration 9 (issue 30 item 9 left-overs): a line grafted by a merge
    /// before kinds were kept (known by its name) becomes a copy's line by
    /// kind, the main line 'main', other branches no kind (told on loading);
    /// what merges set aside before is a log entry.
    #[test]
    fn migration_9_gives_grafted_lines_their_kind_and_conflicts_theirs() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        migrations().to_version(&mut conn, 8).unwrap();
        conn.execute_batch(
            "INSERT INTO branches (battle, id, name, parent, fork) VALUES
                (1, 0, 'Main', NULL, NULL),
                (1, 1, 'Branch 1', 0, 3),
                (1, 2, 'Main (from the copy laptop.xenolog)', 0, 2);
             INSERT INTO campaign_conflicts (origin, origin_id, at, event, why, merged)
                VALUES ('ab', 1, 5, '{}', 'spent twice', 6);",
        )
        .unwrap();
        migrations().to_latest(&mut conn).unwrap();
        let kinds: Vec<Option<String>> = conn
            .prepare("SELECT kind FROM branches ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(kinds, [Some("main".into()), None, Some("from-copy".into())]);
        let kind: String = conn
            .query_row("SELECT kind FROM campaign_conflicts", [], |r| r.get(0))
            .unwrap();
        assert_eq!(kind, "entry");
    }
}
