//! Night of the Saucers' hidden hands and the club server (review7 S1,
//! principle 14): the battle list (`lens::status`, sent to every player of a
//! campaign) names the seats asked, and in Night of the Saucers a seat is
//! asked during another's turn exactly when it holds an Instant card it may
//! play. When hands are hidden the list names only the seats the public view
//! asks, so it tells no seat what another's hand holds.

use serde_json::Value;
use xenolog_engine::games::saucers::{Saucers, SaucersConfig};
use xenolog_engine::{Battle, Session};
use xenolog_server::lens;

/// Nine Lives (seat 1) in its actions, Fly Boyz (seat 2) holding a Hidden
/// Stash; the hands hidden when `hidden`.
fn battle(hidden: bool) -> Session<Saucers> {
    let config: SaucersConfig = serde_json::from_value(serde_json::json!({
        "players": 2,
        "gangs": ["nine_lives", "fly_boyz"],
        "hidden_hands": hidden,
        "scenario_text": "hand 2 stash\nturn 1 actions\n",
    }))
    .unwrap();
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
