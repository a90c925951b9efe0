//! Review: the timeline, the keyboard, the entry table, playback.

use eframe::egui;
use egui_kittest::kittest::{NodeT, Queryable};

use super::support::{self, RACE, app, click, new_battle, no_notices, position};
use crate::gui::app::App;
use crate::gui::command::AppCommand;

/// Play `n` commands quickly through the app's own command path; nothing
/// went wrong.
fn play_many(h: &mut egui_kittest::Harness<'_, App>, n: usize) {
    support::play_many(h, n);
    no_notices(h);
}

#[test]
fn scrubbing_the_timeline_moves_the_cursor_and_the_table_follows() {
    let mut h = app();
    new_battle(&mut h, RACE, 3, false);
    play_many(&mut h, 40);
    assert_eq!(position(&h), (40, 40));

    let strip = h.get_by_label("Timeline").rect();
    // Press at the left end and drag to the middle.
    let start = strip.left_center() + egui::vec2(2.0, 0.0);
    h.hover_at(start);
    h.drag_at(start);
    h.run();
    h.hover_at(start + egui::vec2(20.0, 0.0));
    h.run();
    assert_eq!(position(&h).0, 0, "dragging from the start shows the start");
    h.hover_at(strip.center());
    h.run();
    let (pos, _) = position(&h);
    assert!((18..=22).contains(&pos), "dragged to the middle: {pos}");
    h.drop_at(strip.center());
    h.run();
    // The table row of the cursor is shown, numbered by its entry id (the
    // line of a battle without branches holds entries 0, 1, 2...).
    h.get_by_label(&format!("#{}", pos - 1));

    // Clicking a table row jumps there.
    click(&mut h, &format!("#{}", pos - 3));
    assert_eq!(position(&h).0, pos - 2);
}

#[test]
fn arrow_keys_home_and_end_step_through_the_battle() {
    let mut h = app();
    new_battle(&mut h, RACE, 4, false);
    play_many(&mut h, 10);
    h.key_press(egui::Key::Home);
    h.run();
    assert_eq!(position(&h).0, 0);
    h.key_press(egui::Key::ArrowRight);
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!(position(&h).0, 2);
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_eq!(position(&h).0, 1);
    h.key_press(egui::Key::End);
    h.run();
    assert_eq!(position(&h).0, 10);
    click(&mut h, "Jump to start");
    assert_eq!(position(&h).0, 0);
    click(&mut h, "Step forward");
    assert_eq!(position(&h).0, 1);
}

#[test]
fn playback_steps_forward_by_itself_and_stops_at_the_end() {
    let mut h = app();
    new_battle(&mut h, RACE, 4, false);
    play_many(&mut h, 5);
    click(&mut h, "Jump to start");
    h.state_mut().prefs.playback_speed = 30.0;
    h.get_by_label("Play back").click();
    for _ in 0..120 {
        h.step();
    }
    h.run();
    assert_eq!(position(&h), (5, 5));
    assert!(!h.state().timeline.playing);
}

#[test]
fn scrubbing_does_not_rebuild_the_line() {
    let mut h = app();
    new_battle(&mut h, RACE, 4, false);
    play_many(&mut h, 30);
    let before = h.state().open.as_ref().unwrap().view.line.ids.clone();
    for pos in [0, 29, 3, 17] {
        h.state_mut().push(AppCommand::SeekLine(pos));
        h.run();
        assert_eq!(position(&h).0, pos);
    }
    assert_eq!(h.state().open.as_ref().unwrap().view.line.ids, before);
}

/// Edit > Branches… shows the Branches panel; it never hides it.
#[test]
fn edit_branches_shows_the_panel_and_never_hides_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = super::support::app_with(None, Some(dir.path().to_owned()), Vec::new());
    h.get_by_label("Branches");
    for _ in 0..2 {
        super::support::menu(&mut h, "Edit", "Branches…");
        assert!(h.state().look.show_branches);
        h.get_by_label("Branches");
    }
    h.state_mut().push(AppCommand::ShowBranches(false));
    h.run();
    super::support::menu(&mut h, "Edit", "Branches…");
    assert!(h.state().look.show_branches, "shown again");
}

/// The Turn field beside Go shows the cursor's turn as the cursor moves.
#[test]
fn the_turn_field_follows_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = super::support::app_with(None, Some(dir.path().to_owned()), Vec::new());
    let turn_at = |h: &egui_kittest::Harness<'_, App>| {
        let ob = h.state().open.as_ref().unwrap();
        ob.view.line.flow_at_pos(ob.view.pos).unwrap().turn
    };
    let shown = |h: &egui_kittest::Harness<'_, App>| {
        h.get_all_by_label("Turn")
            .find_map(|n| n.accesskit_node().numeric_value())
            .map(|v| v as u32)
    };
    assert!(turn_at(&h) > 1, "the sample is in mid-game");
    assert_eq!(shown(&h), Some(turn_at(&h)));
    h.key_press(egui::Key::Home);
    h.run();
    assert_eq!(shown(&h), Some(1));
    h.key_press(egui::Key::End);
    h.run();
    assert_eq!(shown(&h), Some(turn_at(&h)));
    assert!(turn_at(&h) > 1);
}

/// The Dice Race of the sample campaign is listed only while test games are
/// offered; the battle list says what its counts count.
#[test]
fn test_game_battles_are_listed_only_when_test_games_are_offered() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = super::support::app_with(None, Some(dir.path().to_owned()), Vec::new());
    let race = h
        .state()
        .battles
        .iter()
        .find(|b| b.game == "race")
        .map(|b| b.title.clone())
        .expect("the sample campaign has a Dice Race");
    h.get_by_label(&race);
    h.state_mut().prefs.show_test_games = false;
    h.run();
    assert!(h.query_by_label(&race).is_none(), "{race} still listed");
    // In words a new user understands: what a test game is, and where.
    h.get_by_label_contains(", of a game for testing the app, not one of the four to play");
    assert!(
        h.query_all_by_label_contains("branches together")
            .next()
            .is_some(),
        "the list says its counts are of every branch together"
    );
}

/// The entry that ends the Marine Action Phase holds the whole Kay'otz
/// Activation Phase, and the Phase column says so.
#[test]
fn the_entry_holding_the_kayotz_phase_is_listed_under_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = super::support::app_with(None, Some(dir.path().to_owned()), Vec::new());
    let pos = {
        let ob = h.state().open.as_ref().unwrap();
        let b = ob.battle.as_ref();
        let ids = ob.view.line.ids.clone();
        let texts = b.entry_texts(&ids);
        texts
            .iter()
            .position(|t| t.command.contains("ends the Marine Action Phase"))
            .expect("the sample ends a Marine Action Phase")
            + 1
    };
    h.state_mut().push(AppCommand::SeekLine(pos));
    h.run();
    h.get_by_label("Kay'otz Activation Phase");
}
