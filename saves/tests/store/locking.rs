//! One writer at a time, readers alongside, and no stale lock after a crash.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use xenolog_saves::{Campaign, SaveError};

use super::common::{campaign_with_race, place, play_n};

#[test]
fn a_second_writer_in_the_same_process_is_refused_and_a_reader_is_not() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let err = Campaign::open(&path).unwrap_err();
    assert!(matches!(err, SaveError::Locked { .. }), "{err}");
    assert!(
        err.to_string().contains("is open in another Xenolog"),
        "{err}"
    );

    // A reader sees each of the writer's commands once committed.
    let r = Campaign::open_read_only(&path).unwrap();
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 12);
    assert_eq!(r.summary(id).unwrap().entries, 12);
    assert_eq!(r.load_battle(id).unwrap().records(), b.records());

    drop(c);
    let c2 = Campaign::open(&path).expect("the lock is released on drop");
    drop(c2);
    drop(r);
}

#[test]
fn a_reader_can_open_a_campaign_nobody_has_open() {
    let (_dir, path) = place();
    let (c, id) = campaign_with_race(&path);
    drop(c);
    let r = Campaign::open_read_only(&path).unwrap();
    assert_eq!(r.summary(id).unwrap().title, "Race");
}

#[test]
fn another_process_holding_the_campaign_locks_it_until_it_dies() {
    let (_dir, path) = place();
    drop(campaign_with_race(&path));
    let mut child = Command::new(env!("CARGO_BIN_EXE_xenolog-crash-writer"))
        .arg("hold")
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "locked");

    let err = Campaign::open(&path).unwrap_err();
    assert!(matches!(err, SaveError::Locked { .. }), "{err}");
    assert!(Campaign::open_read_only(&path).is_ok());

    child.kill().unwrap(); // SIGKILL: no chance to unlock politely
    child.wait().unwrap();
    Campaign::open(&path).expect("a killed writer leaves no stale lock");
}
