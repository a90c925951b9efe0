//! Files: the first start, opening, creating, importing and exporting, drag
//! and drop, and the notices when a file cannot be used.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use eframe::egui;
use egui_kittest::kittest::Queryable;

use super::support::{app_with, click, menu, position};

/// A file dropped on the window.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn sample_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn the_first_start_makes_the_sample_campaign_and_opens_its_battle() {
    let dir = sample_dir();
    let h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    let sample = dir.path().join("Sample campaign.xenolog");
    assert!(
        sample.exists(),
        "the sample campaign is made in the data directory"
    );
    let app = h.state();
    assert_eq!(
        app.campaign.as_ref().unwrap().path(),
        Some(sample.as_path())
    );
    let ob = app.open.as_ref().expect("its battle is open");
    assert!(
        ob.battle.branches().len() >= 3,
        "the sample has a few branches"
    );
    assert!(ob.view.pos > 0, "and is in mid-game");
    assert!(app.notices.is_empty(), "{:?}", app.notices);
    h.get_by_label("Sample campaign");
}

#[test]
fn a_later_start_reopens_the_sample_without_making_it_again() {
    let dir = sample_dir();
    drop(app_with(None, Some(dir.path().to_owned()), Vec::new()));
    let sample = dir.path().join("Sample campaign.xenolog");
    let made = std::fs::metadata(&sample).unwrap().len();
    let h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    assert!(h.state().open.is_some());
    assert_eq!(std::fs::metadata(&sample).unwrap().len(), made);
}

#[test]
fn opening_a_broken_file_shows_a_notice_and_changes_nothing() {
    let dir = sample_dir();
    let broken = dir.path().join("broken.xenolog");
    std::fs::write(&broken, b"this is not a campaign at all, just some bytes").unwrap();
    let mut h = app_with(
        None,
        Some(dir.path().to_owned()),
        vec![Some(broken.clone())],
    );
    let before = position(&h);
    menu(&mut h, "File", "Open campaign…");
    h.get_by_label("The campaign could not be opened");
    h.get_by_label_contains("is not a Xenolog campaign");
    // Still on the sample, at the same place; the broken file is untouched.
    let app = h.state();
    assert!(
        app.campaign
            .as_ref()
            .unwrap()
            .path()
            .unwrap()
            .ends_with("Sample campaign.xenolog")
    );
    assert_eq!(position(&h), before);
    assert_eq!(
        std::fs::read(&broken).unwrap(),
        b"this is not a campaign at all, just some bytes"
    );
    click(&mut h, "OK");
    assert!(h.state().notices.is_empty());
}

#[test]
fn a_campaign_open_in_another_xenolog_is_refused_with_a_notice() {
    let dir = sample_dir();
    let other = dir.path().join("club.xenolog");
    let held = xenolog_saves::Campaign::create(&other, "Club").unwrap();
    let mut h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    h.input_mut()
        .dropped_files
        .push(Arc::new(Dropped(other.clone())));
    h.run();
    h.get_by_label_contains("is open in another Xenolog");
    assert!(
        h.state()
            .campaign
            .as_ref()
            .unwrap()
            .path()
            .unwrap()
            .ends_with("Sample campaign.xenolog")
    );
    drop(held);
}

#[test]
fn dropping_a_campaign_file_opens_it() {
    let dir = sample_dir();
    let other = dir.path().join("club.xenolog");
    drop(xenolog_saves::Campaign::create(&other, "Club").unwrap());
    let mut h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    h.input_mut()
        .dropped_files
        .push(Arc::new(Dropped(other.clone())));
    h.run();
    assert_eq!(
        h.state().campaign.as_ref().unwrap().path(),
        Some(other.as_path())
    );
    assert_eq!(h.state().campaign.as_ref().unwrap().name(), "Club");
    assert!(h.state().prefs.recent.contains(&other));
}

#[test]
fn export_then_import_a_battle_and_export_the_board_picture() {
    let dir = sample_dir();
    let battle_file = dir.path().join("sample.xenolog-battle");
    let picture = dir.path().join("board.svg");
    let mut h = app_with(
        None,
        Some(dir.path().to_owned()),
        vec![
            Some(battle_file.clone()),
            Some(battle_file.clone()),
            Some(picture.clone()),
        ],
    );
    let battles = h.state().battles.len();
    menu(&mut h, "File", "Export battle…");
    assert!(battle_file.exists());
    menu(&mut h, "File", "Import battle…");
    assert!(h.state().notices.is_empty(), "{:?}", h.state().notices);
    assert_eq!(h.state().battles.len(), battles + 1);
    menu(&mut h, "File", "Export board picture…");
    let svg = std::fs::read_to_string(&picture).unwrap();
    assert!(svg.starts_with("<svg"));
}

#[test]
fn a_new_campaign_starts_empty_and_is_remembered() {
    let dir = sample_dir();
    let new = dir.path().join("fresh.xenolog");
    let mut h = app_with(None, Some(dir.path().to_owned()), vec![Some(new.clone())]);
    menu(&mut h, "File", "New campaign…");
    assert!(new.exists());
    assert!(h.state().battles.is_empty());
    assert!(h.state().open.is_none());
    assert_eq!(
        h.state().prefs.last_campaign.as_deref(),
        Some(new.as_path())
    );
    h.get_by_label_contains("No battles yet");
}

#[test]
fn moving_the_cursor_is_saved_after_a_pause() {
    let dir = sample_dir();
    let mut h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    let (pos, _) = position(&h);
    h.key_press(egui::Key::Home);
    h.run();
    assert_eq!(position(&h).0, 0);
    // Half a second of quiet, then the position is written.
    for _ in 0..60 {
        h.step();
    }
    let id = h.state().open.as_ref().unwrap().id;
    let path = h
        .state()
        .campaign
        .as_ref()
        .unwrap()
        .path()
        .unwrap()
        .to_owned();
    let reader = xenolog_saves::Campaign::open_read_only(&path).unwrap();
    let saved = reader.load_battle(id).unwrap();
    assert_eq!(saved.cursor(), None, "moved from {pos} to the setup");
}
