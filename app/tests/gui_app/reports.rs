//! Notes, bookmarks, the Luck panel and the battle report export, clicked
//! through as a player would.

use egui_kittest::kittest::Queryable;

use super::support::{
    RACE, app_with, click, go_to, menu, new_battle, no_notices, play_many, position, type_into,
};

#[test]
fn bookmark_and_note_an_entry_see_them_open_the_luck_panel_and_export_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("race.md");
    let mut h = app_with(None, None, vec![Some(out.clone())]);
    new_battle(&mut h, RACE, 3, false);
    play_many(&mut h, 20);
    assert_eq!(position(&h), (20, 20));

    // Bookmark entry 4 (position 5) and write a note on it.
    go_to(&mut h, 5);
    click(&mut h, "Bookmark this entry");
    h.get_by_label("Bookmark at entry 4");
    h.get_by_label("Remove the bookmark");
    click(&mut h, "Write a note on this entry");
    type_into(&mut h, "Note:", "the turning point");
    click(&mut h, "Save note");
    assert!(
        h.state()
            .messages
            .status
            .contains("Saved the note on entry 4"),
        "{}",
        h.state().messages.status
    );
    // In the entries table, and beside the bookmark buttons.
    h.get_by_label("★ the turning point");
    h.get_by_label("Note: the turning point");
    let notes = &h.state().timeline.notes;
    assert_eq!((notes[0].entry, notes[0].bookmark), (4, true));

    // The timeline jumps to it: from further on, and by its mark.
    go_to(&mut h, 15);
    click(&mut h, "Previous bookmark");
    assert_eq!(position(&h).0, 5);
    go_to(&mut h, 12);
    click(&mut h, "Bookmark at entry 4");
    assert_eq!(position(&h).0, 5);

    // The Luck panel: every die needed a 2+ in the race.
    menu(&mut h, "View", "Luck panel");
    assert!(
        h.get_all_by_label("Luck").next().is_some(),
        "the Luck window"
    );
    h.get_by_label("Running luck over the battle");
    assert!(h.get_all_by_label_contains("of possible battles").count() >= 2);
    h.get_all_by_label_contains("mean ")
        .next()
        .expect("the mean of each side");

    // Export the report, with a preview first, through the file dialog.
    // The View menu stays open after a tick: close it.
    h.key_press(egui::Key::Escape);
    h.run();
    super::support::shot(&mut h, "reports-luck");
    menu(&mut h, "File", "Export battle report…");
    click(&mut h, "Markdown");
    h.get_by_label("Preview");
    click(&mut h, "Export…");
    no_notices(&h);
    let md = std::fs::read_to_string(&out).expect("the report is written");
    assert!(md.contains("the turning point"), "{md}");
    assert!(md.contains("## Luck"));
    assert!(dir.path().join("race-board-00-start.svg").exists());
    assert!(
        h.state().messages.status.contains("report saved to"),
        "{}",
        h.state().messages.status
    );

    // The note deleted: gone from the table.
    go_to(&mut h, 5);
    click(&mut h, "Write a note on this entry");
    click(&mut h, "Delete note");
    assert!(h.query_by_label("★ the turning point").is_none());
    assert!(
        h.state().timeline.notes[0].text.is_empty(),
        "the bookmark stays"
    );
}
