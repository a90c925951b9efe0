//! Playing: starting a battle, giving commands, undo, branches, real dice,
//! refused commands.

use egui_kittest::kittest::Queryable;
use serde_json::json;
use xenolog_engine::Actor;

use super::support::{RACE, app, click, new_battle, position, type_into};
use crate::gui::command::{AppCommand, Intent, PlayRequest};

#[test]
fn create_a_battle_and_play_with_the_action_buttons() {
    let mut h = app();
    new_battle(&mut h, RACE, 42, false);
    {
        let app = h.state();
        let ob = app.open.as_ref().expect("the new battle is open");
        assert_eq!(ob.battle.meta().seed, 42);
        assert_eq!(app.battles.len(), 1);
    }
    assert_eq!(position(&h), (0, 0));
    click(&mut h, "Player 1 rolls 2 dice");
    assert_eq!(position(&h), (1, 1));
    h.get_by_label_contains("Rolled by Xenolog");
    assert!(h.query_by_label("Die 1: ").is_none());
    assert_eq!(
        h.state().open.as_ref().unwrap().battle.records()[0]
            .dice()
            .len(),
        2
    );
}

#[test]
fn undo_then_play_asks_for_a_branch_and_keeps_the_old_line() {
    let mut h = app();
    new_battle(&mut h, RACE, 7, false);
    click(&mut h, "Player 1 holds");
    click(&mut h, "Player 2 holds");
    assert_eq!(position(&h), (2, 2));

    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::Z);
    h.run();
    assert_eq!(position(&h), (1, 2), "undo moves the cursor back");
    h.get_by_label_contains("Reviewing entry #0 (1 later on this branch)");
    // Redo and undo again: the cursor moves, nothing is lost.
    h.key_press_modifiers(
        eframe::egui::Modifiers::COMMAND | eframe::egui::Modifiers::SHIFT,
        eframe::egui::Key::Z,
    );
    h.run();
    assert_eq!(position(&h), (2, 2), "redo moves the cursor forward");
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::Z);
    h.run();
    assert_eq!(position(&h), (1, 2));

    click(&mut h, "Player 2 rolls 1 die");
    h.get_by_label("Start a new branch?");
    click(&mut h, "Start new branch");
    let b = &h.state().open.as_ref().unwrap().battle;
    assert_eq!(b.branches().len(), 2);
    assert_eq!(b.current_branch(), 1);
    assert_eq!(b.records().len(), 3, "the old entry is still there");
    assert_eq!(position(&h), (2, 2));

    // Switch back to the main line: its second entry is still its head.
    click(&mut h, "Switch to Main");
    let b = &h.state().open.as_ref().unwrap().battle;
    assert_eq!(b.current_branch(), 0);
    assert_eq!(b.cursor(), Some(1));

    click(&mut h, "Rename Branch 1");
    type_into(&mut h, "New name:", "Bolder");
    click(&mut h, "Save name");
    assert_eq!(
        h.state().open.as_ref().unwrap().battle.branches()[1].name,
        "Bolder"
    );
    h.get_by_label("Switch to Bolder");
}

#[test]
fn redo_after_undo_gives_the_same_dice() {
    let mut h = app();
    new_battle(&mut h, RACE, 9, false);
    click(&mut h, "Player 1 rolls 3 dice");
    let before = h.state().open.as_ref().unwrap().battle.records()[0]
        .dice()
        .to_vec();
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::Z);
    h.run();
    // Giving the same command again from the same point is a redo, not a reroll.
    click(&mut h, "Player 1 rolls 3 dice");
    let b = &h.state().open.as_ref().unwrap().battle;
    assert_eq!(b.records().len(), 1);
    assert_eq!(b.records()[0].dice(), before);
    assert!(h.query_by_label("Start a new branch?").is_none());
}

#[test]
fn physical_dice_are_typed_in_and_marked_entered() {
    let mut h = app();
    new_battle(&mut h, RACE, 5, true);
    click(&mut h, "Player 1 rolls 3 dice");
    h.get_by_label("Enter your dice");
    // Too few dice: the rules say so, the dialog asks again with what was
    // typed, and nothing changed.
    type_into(&mut h, "Dice rolled:", "3 5");
    click(&mut h, "Play with these dice");
    h.get_by_label("Enter your dice");
    h.get_by_label_contains("2 entered, at least 3 needed");
    assert_eq!(position(&h), (0, 0));
    // The face buttons add dice too.
    click(&mut h, "Add a die showing 6");
    click(&mut h, "Play with these dice");
    let b = &h.state().open.as_ref().unwrap().battle;
    let rec = &b.records()[0];
    assert!(rec.entered);
    assert_eq!(
        rec.dice().iter().map(|d| d.value).collect::<Vec<_>>(),
        vec![3, 5, 6]
    );
    h.get_by_label_contains("Entered by the players");
    h.get_by_label_contains("Die 3: 6,");
}

#[test]
fn a_refused_command_says_which_rule_and_changes_nothing() {
    let mut h = app();
    new_battle(&mut h, RACE, 5, false);
    h.state_mut()
        .push(AppCommand::Give(PlayRequest::new(Intent {
            actor: Actor(0),
            command: json!({"roll": {"dice": 5}}),
            text: "Player 1 rolls 5 dice".into(),
            label: None,
        })));
    h.run();
    h.get_by_label("Not allowed");
    h.get_by_label_contains("roll 1 to 3 dice, not 5");
    assert_eq!(position(&h), (0, 0));
    click(&mut h, "OK");
    assert!(h.query_by_label("Not allowed").is_none());
    // Out of turn.
    h.state_mut()
        .push(AppCommand::Give(PlayRequest::new(Intent {
            actor: Actor(1),
            command: json!("hold"),
            text: "Player 2 holds".into(),
            label: None,
        })));
    h.run();
    h.get_by_label_contains("it is Player 1's turn");
    assert_eq!(h.state().open.as_ref().unwrap().battle.records().len(), 0);
}

#[test]
fn a_strict_battle_refuses_another_command_once_the_dice_are_seen() {
    let mut h = app();
    click(&mut h, "New battle…");
    click(&mut h, RACE);
    type_into(&mut h, "Seed:", "4");
    click(
        &mut h,
        "Strict: no taking back a command once its dice are seen",
    );
    click(&mut h, "Start battle");
    assert!(h.state().open.as_ref().unwrap().battle.meta().strict);
    click(&mut h, "Player 1 rolls 2 dice");
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::Z);
    h.run();
    click(&mut h, "Player 1 rolls 3 dice");
    // Refused at once, in words, with no question about a branch.
    assert!(h.query_by_label("Start a new branch?").is_none());
    h.get_by_label_contains("strict battle");
    let b = &h.state().open.as_ref().unwrap().battle;
    assert_eq!(b.records().len(), 1, "nothing was recorded");
    assert_eq!(b.branches().len(), 1);
}

#[test]
fn the_new_battle_dialog_lays_out_the_options_a_game_declares() {
    let mut h = app();
    click(&mut h, "New battle…");
    click(&mut h, RACE);
    // Dice Race declares "Points to win": a number field, not a game-specific widget.
    h.get_by_label("Race:");
    h.get_by_label_contains("The first player to bank this many points wins.");
    type_into(&mut h, "Points to win:", "20");
    click(&mut h, "Start battle");
    let b = &h.state().open.as_ref().expect("started").battle;
    assert_eq!(b.state_json(None)["target"], 20);
}
