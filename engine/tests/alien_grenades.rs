//! Session 20 (review9's S1): where a grenade thrown into a room may
//! strike. Named after
//! clause 5 (RULES.md numbers the clauses).

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::state::AlienEvent as E;

#[test]
fn clause_5_a_grenade_in_a_room_strikes_no_tile_behind_a_wall() {
    // "When thrown inside a room it works on three arbitrary adjacent tiles,
    // of which at least one is located no more than two tiles away of the
    // one were the grenade landed": two tiles over the base (assumption 1:
    // walls are tiles, distances count tiles), never through the wall D5.
    // D4 (room) to D6 (corridor behind D5) is ten tiles on foot.
    let position = "character hicks at B4 items grenade\ncharacter hudson at E6\nalien 4 at F6\n";
    let s = at(position);
    let h = ch(&s, "hicks");
    let e = refused(
        &s,
        EXPEDITION,
        throw(h, 0, t("D4"), vec![t("D6"), t("E6"), t("F6")]),
    );
    assert_eq!(e.clause.as_deref(), Some("5"), "{e}");
    assert!(e.message.contains("two tiles"), "{e}");
    // Refused, it changed nothing: Hudson and the alien stand, the grenade
    // is in the pocket.
    assert!(s.characters[ch(&s, "hudson") as usize].alive());
    assert_eq!(s.aliens.len(), 1);
    // The same landing tile strikes three touching tiles of the room, one
    // of them within two tiles of D4.
    let mut s = at("character hicks at D2 items grenade\nalien 4 at C4\n");
    let ev = act(
        &mut s,
        EXPEDITION,
        throw(h, 0, t("D4"), vec![t("B4"), t("C4"), t("C3")]),
        &[],
    );
    assert!(ev.iter().any(|e| matches!(e, E::AlienKilled { .. })));
    // The room's door: F3 and G3 are corridor tiles past its E3; F3 is two
    // tiles from D3 through the door, so the blast reaches G3 too.
    let mut s = at("character hicks at B3 items grenade\nalien 4 at G3\n");
    act(
        &mut s,
        EXPEDITION,
        throw(h, 0, t("D3"), vec![t("E3"), t("F3"), t("G3")]),
        &[],
    );
    assert!(
        s.aliens.is_empty(),
        "F3 is two tiles from D3 through the door"
    );
}
