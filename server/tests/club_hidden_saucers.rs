//! Night of the Saucers' hidden hands and the club server (review7 S1,
//! principle 14): the battle list (`lens::status`, sent to every player of a
//! campaign) names the seats asked, and in Night of the Saucers a seat is
//! asked during another's turn exactly when it holds an Instant card it may
//! play. When hands are hidden the list names only the seats the public view
//! asks, so it tells no seat what another's hand holds. And a command
//! refused by a real server (review7 M1) answers the seat in words that list
//! no card of another seat's hidden hand.

mod common;

use common::{organiser, server, two_seats};
use serde_json::{Value, json};
use xenolog_engine::games::saucers::{Saucers, SaucersConfig};
use xenolog_engine::{Battle, Session};
use xenolog_server::lens;

/// Nine Lives (seat 1) in its actions, Fly Boyz (seat 2) holding the card
/// `card`; the hands hidden when `hidden`.
fn config(hidden: bool, card: &str) -> Value {
    json!({
        "players": 2,
        "gangs": ["nine_lives", "fly_boyz"],
        "hidden_hands": hidden,
        "scenario_text": format!("hand 2 {card}\nturn 1 actions\n"),
    })
}

/// [`config`]'s battle, Fly Boyz holding a Hidden Stash.
fn battle(hidden: bool) -> Session<Saucers> {
    let config: SaucersConfig = serde_json::from_value(config(hidden, "stash")).unwrap();
    let mut s = Session::<Saucers>::new(4, config).unwrap_or_else(|e| panic!("{e}"));
    s.play_due().unwrap();
    s
}

fn asked_seats(status: &Value) -> Vec<u64> {
    status["asked_seats"]
        .as_array()
        .unwrap_or_else(|| panic!("no asked_seats in {status}"))
        .iter()
        .filter_map(Value::as_u64)
        .collect()
}

#[test]
fn club_battle_list_does_not_tell_whether_a_hidden_hand_holds_an_instant() {
    let hidden = battle(true);
    // The rules do ask Fly Boyz (they may play the Stash now) ...
    assert!(hidden.asked().iter().any(|a| a.seat.0 == 1));
    // ... but the list every player receives names only Nine Lives.
    let status = lens::status(&hidden);
    assert_eq!(asked_seats(&status), vec![0], "{status}");
    assert_eq!(
        status["asked"],
        serde_json::json!(["Nine Lives"]),
        "{status}"
    );
    // Open hands hide nothing: the list names both, as before.
    let status = lens::status(&battle(false));
    assert_eq!(asked_seats(&status), vec![0, 1], "{status}");
}

/// Review7 M1 through a real server (in this test process, on a real
/// port): seat 1 (Nine Lives) names a card to take from Fly Boyz' hidden
/// hand, once a name the hand does not hold and once one it holds (the file deals it a Shotgun). Both are refused in the
/// same words, which name no card of the game at all.
#[tokio::test]
async fn club_a_swap_naming_a_card_of_a_hidden_hand_is_refused_without_showing_it() {
    let s = server().await;
    let mut org = organiser(&s).await;
    let config = config(true, "shotgun");
    let (_, battle, mut zero, _one) = two_seats(&s, &mut org, "saucers", config, json!({})).await;
    let st = zero.ok("state", json!({"battle": battle, "seat": 0})).await;
    let names: Vec<String> = st["state"]["content"]["cards"]
        .as_array()
        .unwrap_or_else(|| panic!("the content's cards in the seat's view: {st}"))
        .iter()
        .filter_map(|c| c["name"].as_str().map(str::to_owned))
        .collect();
    assert!(names.iter().any(|n| n == "Shotgun"), "{names:?}");
    let none = json!({"food": 0, "ammo": 0, "fuel": 0, "scrap": 0, "alien": 0});
    let mut words = Vec::new();
    for name in ["zzz", "shotgun"] {
        let command = json!({"swap": {"human": "tabby", "with": 1, "give": none, "give_cards": [],
                                      "take": none, "take_cards": [name]}});
        let reply = zero
            .request(
                "command",
                json!({"battle": battle, "seat": 0, "at": st["at"], "command": command}),
            )
            .await;
        let said = reply["err"]["words"]
            .as_str()
            .unwrap_or_else(|| panic!("refused in words: {reply}"))
            .to_owned();
        for card in &names {
            assert!(!said.contains(card.as_str()), "'{card}' in: {said}");
        }
        words.push(said);
    }
    assert!(words[0].contains("hidden"), "{}", words[0]);
    assert_eq!(words[0], words[1], "held and not held read alike");
}

/// Review12 NIT 3: the seat asking may see its own. Fly Boyz (seat 2) hold a
/// Hidden Stash in a hidden hand during Nine Lives' actions: their own list
/// names them (the battle is "(yours)"), Nine Lives' list does not.
#[test]
fn club_battle_list_names_a_seat_its_own_optional_instant_and_no_other() {
    let hidden = battle(true);
    let mine = lens::status_for(&hidden, &[1]);
    assert_eq!(asked_seats(&mine), vec![0, 1], "{mine}");
    assert_eq!(
        mine["asked"],
        serde_json::json!(["Nine Lives", "Fly Boyz"]),
        "{mine}"
    );
    let theirs = lens::status_for(&hidden, &[0]);
    assert_eq!(asked_seats(&theirs), vec![0], "{theirs}");
    assert_eq!(lens::status(&hidden), lens::status_for(&hidden, &[]));
}

/// The same through a real server's `campaigns` list (a server in this test
/// process, on a real port), one list a seated player.
#[tokio::test]
async fn club_campaigns_list_marks_a_hidden_optional_instant_only_for_its_seat() {
    let s = server().await;
    let mut org = organiser(&s).await;
    let config = config(true, "stash");
    let (_, battle, mut zero, mut one) =
        two_seats(&s, &mut org, "saucers", config, json!({})).await;
    for (c, seat, asked) in [(&mut zero, 0u64, vec![0u64]), (&mut one, 1, vec![0, 1])] {
        let list = c.ok("campaigns", json!({})).await;
        let entry = list["campaigns"][0]["battles"]
            .as_array()
            .unwrap_or_else(|| panic!("battles in {list}"))
            .iter()
            .find(|b| b["battle"] == json!(battle))
            .unwrap_or_else(|| panic!("battle {battle} in {list}"))
            .clone();
        assert_eq!(entry["my_seats"], json!([seat]), "{entry}");
        assert_eq!(asked_seats(&entry), asked, "seat {seat}: {entry}");
    }
}
