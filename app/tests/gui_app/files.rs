//! Files: the first start, opening, creating, importing and exporting, drag
//! and drop, and the notices when a file cannot be used.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use eframe::egui;
use egui_kittest::kittest::Queryable;

use super::support::{app_answering, app_with, click, legal, menu, no_notices, position};
use crate::gui::files::Answer;

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
    assert!(
        app.messages.notices().is_empty(),
        "{:?}",
        app.messages.notices()
    );
    h.get_by_label("Sample campaign");
    // A new user is told what the sample is and where their own begins.
    h.get_by_label(crate::gui::browser::SAMPLE_WORDS);
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
    assert!(h.state().messages.notices().is_empty());
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
    no_notices(&h);
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
    // The words on the sample are the sample's alone.
    assert!(
        h.query_by_label(crate::gui::browser::SAMPLE_WORDS)
            .is_none()
    );
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

/// The desktop's dialog cannot be shown (no XDG desktop portal): Xenolog's
/// own opens in the window, says why in the status bar, and works.
#[test]
fn a_file_dialog_that_cannot_be_shown_falls_back_to_xenologs_own() {
    let dir = sample_dir();
    let club = dir.path().join("club.xenolog");
    drop(xenolog_saves::Campaign::create(&club, "Club").unwrap());
    let no_portal = || Answer::Unavailable("no XDG desktop portal".into());
    let mut h = app_answering(
        None,
        Some(dir.path().to_owned()),
        vec![no_portal(), no_portal()],
        // egui_file's two text fields (folder, file name) carry no
        // accessible name, and the crate does not let us give them one.
        false,
    );

    menu(&mut h, "File", "Export board picture…");
    h.get_by_label_contains("Export board picture (SVG picture file)");
    click(&mut h, "Cancel");
    assert!(h.state().messages.in_app_dialog().is_none());
    menu(&mut h, "File", "Open campaign…");
    h.get_by_label_contains("Open campaign (Xenolog campaign file)");
    assert!(
        h.state().messages.status.contains("no XDG desktop portal"),
        "the failure is told, not swallowed: {}",
        h.state().messages.status
    );
    // It starts beside the open campaign and lists campaign files only.
    click(&mut h, "🗋 club.xenolog");
    click(&mut h, "Open");
    assert!(h.state().messages.in_app_dialog().is_none());
    assert_eq!(
        h.state().campaign.as_ref().unwrap().path(),
        Some(club.as_path())
    );
}

/// `xenolog open FILE` with a broken FILE while the last campaign is open
/// in another Xenolog: the notice about FILE comes first.
#[test]
fn a_broken_file_asked_for_is_told_before_the_last_campaign() {
    use crate::gui::app::{App, Startup};
    use crate::gui::files::ScriptedDialogs;
    use crate::gui::prefs::{Prefs, ThemeChoice};
    let dir = sample_dir();
    let broken = dir.path().join("broken.xenolog");
    std::fs::write(&broken, b"not a campaign").unwrap();
    let last = dir.path().join("club.xenolog");
    let held = xenolog_saves::Campaign::create(&last, "Club").unwrap();
    let data = dir.path().to_owned();
    let asked = broken.clone();
    let mut prefs = Prefs {
        theme: ThemeChoice::Light,
        ..Prefs::default()
    };
    prefs.opened(&last);
    let mut h = super::support::build(
        egui_kittest::Harness::builder().with_size(super::support::SIZE),
        prefs,
        Startup {
            restore_last: true,
            ..super::support::startup(Some(asked), Some(data), ScriptedDialogs::default())
        },
    );
    h.run();
    let shown = |h: &egui_kittest::Harness<'_, App>, file: &str| {
        h.query_all_by_label_contains(file).next().is_some()
    };
    h.get_by_label("The campaign could not be opened");
    assert!(shown(&h, "broken.xenolog") && !shown(&h, "club.xenolog"));
    click(&mut h, "OK");
    h.get_by_label("Your last campaign could not be opened instead");
    assert!(shown(&h, "club.xenolog") && !shown(&h, "broken.xenolog"));
    drop(held);
}

/// Two Xenologs on one campaign: the second opens it read-only (offered on
/// the notice), refuses to play, and follows the writer's new entries when
/// asked to refresh.
#[test]
fn a_second_xenolog_opens_read_only_and_follows_the_writer_on_refresh() {
    let dir = sample_dir();
    let club = dir.path().join("club.xenolog");
    let mut writer = xenolog_saves::Campaign::create(&club, "Club").unwrap();
    let id = writer
        .new_battle(
            "race",
            7,
            &serde_json::json!({ "target": 1_000_000 }),
            "Race",
            xenolog_saves::DiceMode::Rolled,
        )
        .unwrap();
    let mut b = writer.load_battle(id).unwrap();
    let play = |w: &mut xenolog_saves::Campaign, b: &mut dyn xenolog_engine::Battle, n| {
        for _ in 0..n {
            let l = b.legal()[0].clone();
            w.play(id, b, l.actor, &l.command, None).unwrap();
        }
        w.save_position(id, b).unwrap();
    };
    play(&mut writer, &mut *b, 4);
    let mut h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    h.input_mut()
        .dropped_files
        .push(Arc::new(Dropped(club.clone())));
    h.run();
    click(&mut h, "Open read-only");
    assert_eq!(
        h.state().campaign.as_ref().unwrap().path(),
        Some(club.as_path())
    );
    h.get_by_label("Read-only");
    click(&mut h, "Race");
    let entries = |h: &egui_kittest::Harness<'_, crate::gui::app::App>| {
        h.state().open.as_ref().unwrap().battle.records().len()
    };
    assert_eq!(entries(&h), 4);
    // The writer plays on; the reader sees it when it asks.
    play(&mut writer, &mut *b, 3);
    assert_eq!(entries(&h), 4);
    click(&mut h, "Refresh");
    assert_eq!(entries(&h), 7);
    assert_eq!(h.state().messages.status, "Refreshed: 3 new entries");
    click(&mut h, "Refresh");
    assert_eq!(h.state().messages.status, "Refreshed: nothing new");
    // Nothing is played from the reader.
    let c = legal(&h)[0].clone();
    h.state_mut().push(crate::gui::command::AppCommand::Give(
        crate::gui::command::PlayRequest::new(crate::gui::command::Intent {
            actor: c.actor,
            command: c.command,
            text: c.text,
            label: None,
        }),
    ));
    h.run();
    h.get_by_label_contains("This campaign is open read-only");
    assert_eq!(entries(&h), 7);
    drop(writer);
}

#[test]
fn edit_check_this_battle_replays_it_from_its_seed_and_says_so() {
    let dir = sample_dir();
    let mut h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    let title = h.state().open.as_ref().unwrap().summary.title.clone();
    let entries = h.state().open.as_ref().unwrap().battle.records().len();
    menu(&mut h, "Edit", "Check this battle");
    let notices = &h.state().messages.notices();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].title, format!("{title} checks out"));
    assert_eq!(
        notices[0].text,
        format!("ok: {entries} entries replay exactly"),
        "every branch's entries, replayed and hashed"
    );
    // On screen, in words.
    assert!(
        h.get_all_by_label_contains("replay exactly")
            .next()
            .is_some(),
        "the result is shown"
    );
}

/// Session 21's list, item 9: no page for getting started. On the first
/// start the sample's panel has a "Getting started…" button, and Help has
/// "Getting started": each opens the page of app/GETTING_STARTED.md (the
/// one `xenolog help getting-started` prints), its sections in words.
#[test]
fn getting_started_opens_from_the_first_screen_and_from_help() {
    let dir = sample_dir();
    let mut h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    for open in [true, false] {
        if open {
            super::support::click(&mut h, "Getting started…");
        } else {
            super::support::menu(&mut h, "Help", "Getting started");
        }
        h.get_by_label("Getting started with Xenolog");
        // Every heading of the page is shown, in its words ("Play" is a
        // word of the timeline's too).
        let heads: Vec<&str> = crate::gui::getting_started::TEXT
            .lines()
            .filter_map(|l| l.strip_prefix("## "))
            .collect();
        for section in [
            "The four games",
            "Start a battle",
            "Play",
            "Take back",
            "Review",
            "Reports",
            "The campaign",
            "A club server",
        ] {
            assert!(
                heads.contains(&section),
                "{section} is a heading: {heads:?}"
            );
        }
        for head in heads {
            assert!(
                h.query_all_by_label(head).next().is_some(),
                "{head} is shown"
            );
        }
        h.get_by_label_contains("Night of the Saucers: one to four gangs");
        super::support::shot(&mut h, "getting_started");
        super::support::click(&mut h, "Close");
        assert!(h.query_by_label("Getting started with Xenolog").is_none());
    }
}
