//! Bytes on disk per entry, and bulk insertion.

use xenolog_saves::{Campaign, DiceMode};

use super::common::place;
use crate::race::long_race;

#[test]
fn an_entry_costs_at_most_100_bytes_on_disk() {
    let (_dir, path) = place();
    let n = 20_000;
    let session = long_race(n);
    let mut c = Campaign::create(&path, "Size").unwrap();
    let id = c
        .insert_battle_bulk(&session, "Long", DiceMode::Rolled)
        .unwrap();
    drop(c);
    let size = std::fs::metadata(&path).unwrap().len();
    let per_entry = size as f64 / n as f64;
    eprintln!("{size} bytes for {n} entries: {per_entry:.1} bytes per entry");
    assert!(per_entry <= 100.0, "{per_entry:.1} bytes per entry");

    let c = Campaign::open(&path).unwrap();
    let b = c.load_battle(id).unwrap();
    assert_eq!(b.records(), session.records());
    assert_eq!(b.cursor(), session.cursor());
    assert_eq!(
        b.state_json(b.cursor()),
        serde_json::to_value(session.state()).unwrap()
    );
    assert!(c.verify_battle(id).unwrap().ok());
}
