//! Night of the Saucers' board as a scene: the grid with coordinates and
//! compass edges, tiles by building, supply colour or crater, students in
//! gang colours with names, aliens with hit points and hits this turn, the
//! decks, and each player's hand, tokens and missions. Set
//! `SAUCERS_SVG=path` to write the board of the test game as a picture.

#[path = "saucers_support.rs"]
mod support;

use support::*;
use xenolog_engine::games::saucers::data::AlienKind;
use xenolog_engine::games::saucers::{Saucers, SaucersCommand as C, Target};
use xenolog_engine::{Actor, Game};

#[test]
fn the_board_shows_tiles_students_aliens_decks_and_hands() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    building(&mut st, "C3", "gas_station");
    st.board[at("C3") as usize].searched = true;
    st.board[at("D4") as usize].destroyed = true;
    building(&mut st, "E5", "mall");
    st.board[at("E5") as usize].searched = true;
    let scout = alien(&mut st, AlienKind::Scout, "C3");
    alien(&mut st, AlienKind::Saucer, "B2");
    give(&mut st, 0, "shotgun");
    give(&mut st, 1, "sewer");
    let tabby = human(&st, "tabby");
    ok(
        &mut st,
        0,
        C::Attack {
            human: tabby,
            card: None,
            at: at("C3"),
            targets: vec![Target::Alien(scout)],
        },
        Some(vec![3]),
    );
    let scene = Saucers::scene(&st);
    let tip = |id: &str| {
        scene
            .find(id)
            .and_then(|i| i.tooltip.clone())
            .unwrap_or_else(|| panic!("no {id}"))
    };
    assert!(
        tip("tile:C3").contains("Gas Station: searched: Fuel"),
        "{}",
        tip("tile:C3")
    );
    assert!(tip("tile:D4").contains("crater"));
    assert!(tip("tile:E5").contains("Scout ambush"));
    assert!(scene.find("edge:N").is_some() && scene.find("edge:W").is_some());
    assert!(tip(&format!("alien:{scout}")).contains("1/2 hp, 1 hit this turn"));
    assert!(
        tip("human:tabby").contains("Tabby (Nine Lives): Move 2, Attack 1, Hand 2; 1 action left")
    );
    assert!(scene.find("humanname:tabby").is_some());
    assert!(tip("card:0:0").contains(
        "Shotgun: Attack (Short Range), 3 dice, cost 1 Ammo, range ...../..X../.XXX./..X../....."
    ));
    assert!(tip("card:1:0").contains("Sewer System"));
    let texts: Vec<String> = scene
        .items
        .iter()
        .filter_map(|i| match &i.shape {
            xenolog_engine::scene::Shape::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(
        texts.iter().any(|t| t.starts_with("Alien deck: ")),
        "{texts:?}"
    );
    // A seat's view shows another's hidden hand as backs.
    st.hidden_hands = true;
    let seen = Saucers::scene(&Saucers::view(&st, Actor(1)));
    assert_eq!(
        seen.find("card:0:0")
            .and_then(|i| i.tooltip.clone())
            .as_deref(),
        Some("a card you may not see")
    );
    if let Ok(path) = std::env::var("SAUCERS_SVG") {
        std::fs::write(path, scene.to_svg()).unwrap();
    }
}
