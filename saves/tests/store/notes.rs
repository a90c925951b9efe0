//! Notes and bookmarks: written, edited, deleted, kept across reopening, and
//! never part of the game facts (the battle and its verification unchanged).

use xenolog_saves::{Campaign, SaveError};

use super::common::{campaign_with_race, place, play_n};

#[test]
fn notes_and_bookmarks_are_written_edited_and_deleted() {
    let (_dir, path) = place();
    let (mut c, id) = campaign_with_race(&path);
    let mut b = c.load_battle(id).unwrap();
    play_n(&mut c, id, &mut *b, 6);
    let before = b.verify();
    let chain: Vec<_> = b.records().iter().map(|r| r.chain).collect();

    c.set_note(id, 2, "the turning point").unwrap();
    c.set_bookmark(id, 2, true).unwrap();
    c.set_bookmark(id, 4, true).unwrap();
    c.set_note(id, 5, "we argued about line of sight here")
        .unwrap();
    let notes = c.notes(id).unwrap();
    let got: Vec<(u64, bool, &str)> = notes
        .iter()
        .map(|n| (n.entry, n.bookmark, n.text.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (2, true, "the turning point"),
            (4, true, ""),
            (5, false, "we argued about line of sight here")
        ]
    );
    let marks: Vec<u64> = c.bookmarks(id).unwrap().iter().map(|n| n.entry).collect();
    assert_eq!(marks, vec![2, 4]);

    // Editing replaces the text and keeps the bookmark.
    c.set_note(id, 2, "  the real turning point ").unwrap();
    let n = c.annotation(id, 2).unwrap().unwrap();
    assert_eq!(
        (n.bookmark, n.text.as_str()),
        (true, "the real turning point")
    );
    // Taking the bookmark off keeps the note; with neither the row goes.
    c.set_bookmark(id, 2, false).unwrap();
    assert_eq!(
        c.annotation(id, 2).unwrap().unwrap().text,
        "the real turning point"
    );
    c.set_note(id, 2, "").unwrap();
    assert_eq!(c.annotation(id, 2).unwrap(), None);
    assert!(c.remove_note(id, 5).unwrap());
    assert!(!c.remove_note(id, 5).unwrap());

    // A note on an entry the battle does not have is refused in words.
    let e = c.set_note(id, 99, "x").unwrap_err();
    assert!(matches!(e, SaveError::NoSuchEntry { entry: 99, .. }), "{e}");
    assert!(e.to_string().contains("has no entry 99"), "{e}");
    assert!(matches!(
        c.set_note(id + 1, 0, "x"),
        Err(SaveError::NoSuchBattle(_))
    ));

    // Not game facts: the battle, its chain and its verification unchanged.
    drop(b);
    drop(c);
    let c = Campaign::open_read_only(&path).unwrap();
    let b = c.load_battle(id).unwrap();
    let after: Vec<_> = b.records().iter().map(|r| r.chain).collect();
    assert_eq!(chain, after);
    assert_eq!(before.ok(), b.verify().ok());
    assert!(b.verify().ok());
    let marks: Vec<u64> = c.bookmarks(id).unwrap().iter().map(|n| n.entry).collect();
    assert_eq!(marks, vec![4], "kept across reopening");
    // Read-only: nothing can be written.
    drop(b);
    let mut c = c;
    assert!(matches!(
        c.set_bookmark(id, 1, true),
        Err(SaveError::ReadOnly)
    ));
}
