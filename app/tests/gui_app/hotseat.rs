//! Hot-seat with hidden information (issue 9): one screen passed between
//! players, each seeing only their own hand. The test game High Card deals
//! hands that the other seat may not see.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::json;
use xenolog_engine::{Actor, Viewer};

use super::support::{BOARD, app_on, click, legal, shot, spec};
use crate::gui::app::App;
use crate::gui::command::{AppCommand, Intent, PlayRequest};
use crate::gui::store::DiceMode;

fn high_card() -> Harness<'static, App> {
    app_on(spec("highcard", 5, json!({}), "Hands", DiceMode::Rolled))
}

/// The tooltips of the cards on the board as the app shows it now.
fn cards_shown(h: &Harness<'_, App>) -> Vec<String> {
    super::support::scene_items(h)
        .filter(|i| i.id.starts_with("card:"))
        .filter_map(|i| i.tooltip.clone())
        .collect()
}

/// Player 1 lays the first card offered.
fn player_1_lays_a_card(h: &mut Harness<'_, App>) {
    let cmd = legal(h)[0].command.clone();
    h.state_mut()
        .push(AppCommand::Give(PlayRequest::new(Intent {
            actor: Actor(0),
            command: cmd,
            text: "lay".into(),
            label: None,
        })));
    h.run();
}

/// Every card of `player` shown is one the viewer may not see.
fn all_hidden(cards: &[String], player: &str) -> bool {
    cards
        .iter()
        .filter(|c| c.starts_with(player))
        .all(|c| c.ends_with("a card you may not see"))
}

#[test]
fn the_curtain_hides_the_hands_until_the_seat_asked_takes_the_screen() {
    let mut h = high_card();
    // The deal was the game's own step; Player 1 is asked to lay a card.
    h.get_by_label("Pass the screen to Player 1");
    assert!(
        h.query_by_label(BOARD).is_none(),
        "nothing of the battle is drawn behind the curtain"
    );
    shot(&mut h, "hotseat_curtain");
    click(&mut h, "I am Player 1: show my view");
    h.get_by_label(BOARD);
    assert_eq!(
        h.state().open.as_ref().unwrap().view.viewer,
        Viewer::Seat(Actor(0))
    );
    let cards = cards_shown(&h);
    assert!(
        cards
            .iter()
            .any(|c| c.starts_with("Player 1: ") && !c.contains("may not see"))
    );
    assert!(all_hidden(&cards, "Player 2"), "{cards:?}");
    // Only Player 1's commands are offered.
    assert!(legal(&h).iter().all(|c| c.actor == Actor(0)));
    // Player 1 lays a card: the screen goes to Player 2 behind the curtain.
    player_1_lays_a_card(&mut h);
    h.get_by_label("Pass the screen to Player 2");
    click(&mut h, "I am Player 2: show my view");
    let cards = cards_shown(&h);
    assert!(
        all_hidden(&cards, "Player 1"),
        "Player 1's hand and face-down card are hidden from Player 2: {cards:?}"
    );
}

#[test]
fn view_show_every_seats_hidden_cards_turns_the_curtain_off() {
    let mut h = high_card();
    h.get_by_label("Pass the screen to Player 1");
    h.state_mut().push(AppCommand::RevealHidden(true));
    h.run();
    h.get_by_label(BOARD);
    assert_eq!(h.state().open.as_ref().unwrap().view.viewer, Viewer::All);
    assert!(cards_shown(&h).iter().all(|c| !c.contains("may not see")));
}

#[test]
fn a_command_for_another_seat_than_the_one_looking_is_refused_and_changes_nothing() {
    let mut h = high_card();
    click(&mut h, "I am Player 1: show my view");
    let (mut intent, entries) = {
        let ob = h.state().open.as_ref().unwrap();
        let l = ob.view.legal.first().expect("Player 1 may act").clone();
        (Intent::from(&l), ob.battle.records().len())
    };
    // As a click on Player 2's face-down card would give it.
    intent.actor = Actor(1);
    h.state_mut()
        .push(AppCommand::Give(PlayRequest::new(intent)));
    h.run();
    let notices = &h.state().messages.notices();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].title, "Not this seat's screen");
    assert!(
        notices[0].text.contains("The screen is with Player 1"),
        "{notices:?}"
    );
    let ob = h.state().open.as_ref().unwrap();
    assert_eq!(ob.battle.records().len(), entries, "nothing was played");
}

/// Session 22's closing note: the curtain asked the engine who is asked
/// every frame. It asks once for each position; a move still passes the
/// screen on.
#[test]
fn the_curtain_asks_who_is_asked_once_a_position_and_a_move_still_passes_the_screen() {
    let mut h = high_card();
    h.get_by_label("Pass the screen to Player 1");
    let builds = |h: &Harness<'_, App>| h.state().open.as_ref().unwrap().curtain_builds;
    let before = builds(&h);
    assert!(before >= 1, "the curtain was drawn");
    for _ in 0..5 {
        h.run();
    }
    assert_eq!(
        builds(&h),
        before,
        "frames with nothing changed ask nothing"
    );
    click(&mut h, "I am Player 1: show my view");
    assert_eq!(builds(&h), before, "taking the screen asks nothing new");
    player_1_lays_a_card(&mut h);
    h.get_by_label("Pass the screen to Player 2");
    assert!(builds(&h) > before, "the new position was asked about");
}
