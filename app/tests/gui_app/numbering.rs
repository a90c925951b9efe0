//! One numbering of entries everywhere: the app's entries table numbers each
//! row with the engine's entry id, exactly as `xenolog log` does, on a branch
//! that is not the first (where a position on the line and the entry id part).

use std::process::Command;

use egui_kittest::kittest::Queryable;

use super::support::{app_with, position};
use crate::gui::command::AppCommand;

fn xenolog(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(args)
        .output()
        .expect("the xenolog binary runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_entries_table_numbers_entries_as_xenolog_log_does() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sample.xenolog");
    let f = file.to_str().unwrap();
    xenolog(&["sample", f]);
    let battle = {
        let c = xenolog_saves::Campaign::open_read_only(&file).unwrap();
        let list = c.battles().unwrap();
        list.iter()
            .find(|b| b.game == "dimx")
            .expect("the sample has a Dimension X battle")
            .id
    };
    let b = battle.to_string();
    xenolog(&["switch", f, "--battle", &b, "--branch", "1"]);
    // `#N ...` at the head of each entry's line; `> ` marks the cursor.
    let log = xenolog(&["log", f, "--battle", &b]);
    let rows: Vec<(bool, String)> = log
        .lines()
        .filter_map(|l| {
            let cursor = l.starts_with("> ");
            let id = l.get(2..)?.strip_prefix('#')?.split_whitespace().next()?;
            Some((cursor, format!("#{id}")))
        })
        .collect();
    assert!(rows.len() > 10, "{log}");

    let mut h = app_with(Some(file.clone()), None, Vec::new());
    let ob = h.state().open.as_ref().unwrap();
    assert_eq!(ob.id, battle);
    assert_eq!(ob.battle.current_branch(), 1);
    // The app opens at the cursor the log marks.
    let cursor = rows.iter().position(|(c, _)| *c).map_or(0, |i| i + 1);
    assert_eq!(position(&h).0, cursor);
    // Row by row, the number at the cursor is the log's number there; the
    // setup is not numbered.
    let last = position(&h).1;
    assert_eq!(last, rows.len());
    let fork = ob.battle.path_to(ob.battle.branches()[1].fork).len();
    assert!(fork < last, "the branch has entries of its own");
    for pos in [1, fork, fork + 1, last] {
        h.state_mut().push(AppCommand::SeekLine(pos));
        h.run();
        assert_eq!(position(&h).0, pos);
        let label = &rows[pos - 1].1;
        // Where the numbers jump (the branch's entries after the main
        // line's), the row is marked "↪" and says which branch on hover.
        assert!(
            h.query_all_by_label(label).next().is_some()
                || h.query_all_by_label(&format!("{label} ↪")).next().is_some(),
            "no row {label} at position {pos}"
        );
        h.get_by_label_contains(&format!("Entry {label}"));
    }
    h.state_mut().push(AppCommand::SeekLine(0));
    h.run();
    h.get_by_label("Setup");
}
