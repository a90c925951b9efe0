//! Night of the Saucers' board as a scene: the grid with coordinates and
//! compass edges, tiles by building, supply colour or crater, students in
//! gang colours with names, aliens with hit points and hits this turn, the
//! decks, and each player's hand, tokens and missions. Set
//! `SAUCERS_SVG=path` to write the board of the test game as a picture.

#[path = "scene_words/mod.rs"]
mod scene_words;
#[path = "support/saucers.rs"]
mod support;

use scene_words::texts;
use support::*;
use xenolog_engine::games::saucers::Saucers;
use xenolog_engine::games::saucers::data::AlienKind;
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
    ok(&mut st, 0, attack_alien(tabby, "C3", scout), dice(&[3]));
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
    let texts = texts(&scene);
    assert!(
        texts.iter().any(|t| t.starts_with("Alien deck: ")),
        "{texts:?}"
    );
    // A card's face: its name, its kind and dice, its cost, and for an
    // Attack card its range grid, the student in the middle and the red
    // squares it reaches (the Shotgun: the four orthogonal neighbours).
    let face: Vec<String> = (0..4)
        .filter_map(
            |k| match scene.find(&format!("cardname:0:0:{k}")).map(|i| &i.shape) {
                Some(xenolog_engine::scene::Shape::Text { text, .. }) => Some(text.clone()),
                _ => None,
            },
        )
        .collect();
    assert_eq!(face, ["Shotgun", "Short Range 3d", "1 Ammo"], "{face:?}");
    let reach: Vec<(i8, i8)> = (-2i8..=2)
        .flat_map(|r| (-2i8..=2).map(move |c| (c, r)))
        .filter(|(c, r)| scene.find(&format!("cardrange:0:0:{c}:{r}")).is_some())
        .collect();
    assert_eq!(reach, [(0, -1), (-1, 0), (0, 0), (1, 0), (0, 1)]);
    // Text a person can read: the tile names and the panel no smaller
    // than the coordinates' size, relative to a 100-unit tile.
    for i in &scene.items {
        if let xenolog_engine::scene::Shape::Text { size, .. } = i.shape
            && (i.id.starts_with("tilename:") || i.id.starts_with("seat") || i.id == "status")
        {
            assert!(size >= 13.0, "{} is drawn at {size}", i.id);
        }
    }
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

#[test]
fn a_long_name_is_wrapped_onto_two_lines_and_cut_after_them() {
    use xenolog_engine::games::saucers::scene::wrap;
    assert_eq!(wrap("Electronics Store", 10, 2), ["Electronics", "Store"]);
    assert_eq!(wrap("Gas Station", 11, 2), ["Gas Station"]);
    assert_eq!(
        wrap("Surface to Air Rocket Launcher", 10, 2),
        ["Surface to", "Air Rocket."]
    );
}
