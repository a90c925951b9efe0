//! A hostile campaign file (issue 30 item 9): one battle's stored snapshot
//! altered, and its entry's state hash and the hash chain from there forged
//! to match, so opening the battle takes the false snapshot without a word;
//! only a full replay (`verify`) finds it.

use std::path::Path;

use rusqlite::params;
use xenolog_engine::EntryRecord;
use xenolog_engine::hash::{chain_hash, state_hash};
use xenolog_schema::codec::{decode_entry, decode_snapshot, encode_entry, encode_snapshot};

/// In the closed campaign file at `path`, give battle `battle`'s second
/// stored snapshot the state of its first, and forge the hashes to match.
/// Returns the entry whose snapshot was altered.
pub fn forge_snapshot(path: &Path, battle: i64) -> u64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    let rules: u32 = conn
        .query_row(
            "SELECT rules_version FROM battles WHERE id = ?1",
            [battle],
            |r| r.get(0),
        )
        .unwrap();
    let snaps: Vec<(i64, Vec<u8>)> = conn
        .prepare("SELECT seq, state FROM snapshots WHERE battle = ?1 ORDER BY seq")
        .unwrap()
        .query_map([battle], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(snaps.len() >= 2, "play longer: {} snapshots", snaps.len());
    let (from, at) = (&snaps[0], &snaps[1]);
    let (snap_rules, state) = decode_snapshot(&from.1).unwrap();
    let state = state.to_vec();
    conn.execute(
        "UPDATE snapshots SET state = ?3 WHERE battle = ?1 AND seq = ?2",
        params![
            battle,
            at.0,
            encode_snapshot(snap_rules.unwrap_or(rules), &state)
        ],
    )
    .unwrap();
    let mut recs: Vec<EntryRecord> = conn
        .prepare("SELECT seq, record FROM entries WHERE battle = ?1 ORDER BY seq")
        .unwrap()
        .query_map([battle], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
        })
        .unwrap()
        .map(|r| {
            let (seq, bytes) = r.unwrap();
            decode_entry(seq as u64, &bytes, rules).unwrap()
        })
        .collect();
    let at = at.0 as usize;
    recs[at].state_hash = state_hash(&state, recs[at].rng_after);
    for i in at..recs.len() {
        let parent = recs[i].parent.expect("a forged entry after the first") as usize;
        let chain = chain_hash(&recs[parent].chain, &recs[i], rules);
        recs[i].chain = chain;
        conn.execute(
            "UPDATE entries SET record = ?3 WHERE battle = ?1 AND seq = ?2",
            params![battle, i as i64, encode_entry(i as u64, &recs[i]).unwrap()],
        )
        .unwrap();
    }
    at as u64
}

/// A campaign "Club" with one long Dice Race (200 commands: three stored
/// snapshots, so `forge_snapshot` has a second one to alter), closed when
/// this returns. Returns the battle's id.
#[allow(dead_code)]
pub fn raced_campaign(path: &Path) -> i64 {
    use xenolog_saves::{Campaign, DiceMode};
    let mut c = Campaign::create(path, "Club").unwrap();
    let id = c
        .new_battle(
            "race",
            7,
            &serde_json::json!({ "target": 1_000_000 }),
            "Race",
            DiceMode::Rolled,
        )
        .unwrap();
    let mut b = c.load_battle(id).unwrap();
    for i in 0..200 {
        let legal = b.legal();
        let l = legal[(i * 5 + 1) % legal.len()].clone();
        c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
    }
    id
}
