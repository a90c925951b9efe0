//! Session 20 (review9's S1 and S2): where a grenade thrown into a room may
//! strike, and that `legal` offers every area the rules accept. Named after
//! clause 5 (RULES.md numbers the clauses).

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::AlienCommand as C;
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

/// Assumption 6: a blast from a room reaches any tile that is not a wall, a
/// duct as well as a corridor ("three arbitrary adjacent tiles" are not
/// bound to the room): on the shipped base the room tile B4 touches the duct
/// B5, next to B6, hatching place 1, where the alien dies.
#[test]
fn clause_5_a_grenade_in_a_room_reaches_a_duct_next_to_it_not_only_a_corridor() {
    let mut s = at("character hicks at B2 items grenade\nalien 4 at B6\n");
    let h = ch(&s, "hicks");
    let ev = act(
        &mut s,
        EXPEDITION,
        throw(h, 0, t("B4"), vec![t("B4"), t("B5"), t("B6")]),
        &[],
    );
    assert!(
        ev.iter().any(|e| matches!(e, E::AlienKilled { .. })),
        "{ev:?}"
    );
    assert!(s.aliens.is_empty(), "the alien in the duct at B6 dies");
}

#[test]
fn clause_5_a_grenade_in_a_room_every_area_the_text_allows_is_offered() {
    // Three touching tiles in any shape, an L as well as a line: the L K8,
    // K9, L9 (K9 one tile from J9) kills both aliens, and `legal` (what the
    // app and the bot offer) lists it.
    let s = at("character hicks at I9 items grenade\nalien 4 at K8\nalien 4 at L9\n");
    let h = ch(&s, "hicks");
    let mut l = vec![t("K8"), t("K9"), t("L9")];
    l.sort_unstable();
    let offered: Vec<C> = legal_throws(&s, h);
    let cmd = offered
        .iter()
        .find(|c| matches!(c, C::Throw { area, .. } if *area == l))
        .unwrap_or_else(|| {
            panic!(
                "the L K8 K9 L9 is not offered among {} throws",
                offered.len()
            )
        })
        .clone();
    let mut s2 = s.clone();
    act(&mut s2, EXPEDITION, cmd, &[]);
    assert!(s2.aliens.is_empty(), "both aliens die");
    // Every landing tile within two is still a target with its own areas
    // (in a corridor, such as G9 beyond H9, the room tile at the room's
    // opening, the tile and two next to it; in a room the lines through
    // it); any other area (an L, three tiles beside the
    // landing tile) is offered once; every offered throw is accepted.
    let base = &s.content.base;
    let mut others: Vec<Vec<_>> = Vec::new();
    for c in &offered {
        let C::Throw { at, area, .. } = c else {
            unreachable!()
        };
        let (x, y) = base.xy(*at);
        let room = base.terrain(*at) == xenolog_engine::games::alien::data::Terrain::Room;
        let line = !room
            || area.contains(at)
                && (area.iter().all(|&t| base.xy(t).0 == x)
                    || area.iter().all(|&t| base.xy(t).1 == y));
        if !line {
            others.push(area.clone());
        }
    }
    let n = others.len();
    others.sort();
    others.dedup();
    assert_eq!(others.len(), n, "an L offered twice");
    for target in ["J9", "K9", "I10", "J10", "I8", "J8"] {
        assert!(
            offered
                .iter()
                .any(|c| matches!(c, C::Throw { at, .. } if *at == t(target))),
            "no throw lands on {target}"
        );
    }
    for c in &offered {
        let mut probe = s.clone();
        try_act(&mut probe, EXPEDITION, c.clone(), &[])
            .unwrap_or_else(|e| panic!("{c:?} offered but refused: {e}"));
    }
    // And the other way: every area `decide` accepts at some landing tile is
    // offered at some landing tile (`legal` lists one throw per blast).
    // Every connected three non-wall tiles within 6 of I9 (a throw of up to
    // two, a reach of two, a neighbour) is tried at every tile within 3.
    use std::collections::BTreeSet;
    use xenolog_engine::Game;
    use xenolog_engine::games::alien::{Alien, data::Terrain};
    use xenolog_engine::rng::Randomness;
    let from = t("I9");
    let pocket = match &offered[0] {
        C::Throw { pocket, .. } => *pocket,
        _ => unreachable!(),
    };
    let areas: BTreeSet<Vec<_>> = offered
        .iter()
        .map(|c| match c {
            C::Throw { area, .. } => area.clone(),
            _ => unreachable!(),
        })
        .collect();
    let tiles = u16::from(base.width) * u16::from(base.height);
    let near: Vec<_> = (0..tiles)
        .map(|i| i as _)
        .filter(|&x| base.terrain(x) != Terrain::Wall && base.distance(from, x) <= 6)
        .collect();
    let mut triples = BTreeSet::new();
    for &a in &near {
        for b in base.neighbours_iter(a) {
            for c in base.neighbours_iter(a).chain(base.neighbours_iter(b)) {
                let mut area = vec![a, b, c];
                area.sort_unstable();
                area.dedup();
                if area.len() == 3 {
                    triples.insert(area);
                }
            }
        }
    }
    let landings: Vec<_> = near
        .iter()
        .copied()
        .filter(|&x| base.distance(from, x) <= 3)
        .collect();
    let mut accepted = 0;
    for area in &triples {
        let throw = |at| C::Throw {
            ch: h,
            pocket,
            at,
            area: area.clone(),
        };
        let mut rng = Randomness::new(7, 0, None);
        if let Some(at) = landings
            .iter()
            .copied()
            .find(|&at| Alien::decide(&s, EXPEDITION, &throw(at), &mut rng).is_ok())
        {
            accepted += 1;
            assert!(
                areas.contains(area),
                "{:?} is accepted landing at {at} but never offered",
                throw(at)
            );
        }
    }
    assert_eq!(accepted, areas.len(), "every offered area is accepted");
}

fn legal_throws(s: &xenolog_engine::games::alien::state::AlienState, who: u8) -> Vec<C> {
    use xenolog_engine::Game;
    xenolog_engine::games::alien::Alien::legal(s)
        .into_iter()
        .filter_map(|(_, c)| match c {
            C::Throw { ch, .. } if ch == who => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn clause_5_a_grenade_area_is_listed_under_the_landing_tile_nearest_its_centre() {
    // `legal` lists an area that is not its landing tile's own (an L, three
    // tiles beside the tile) once, under the accepting landing tile nearest
    // the centre of its three tiles: the L K8 K9 L9 thrown from I9 (Hicks,
    // aliens on K8 and L9) is listed under K9, next to K8, and under no
    // other tile; and no offered area has an accepting tile nearer its
    // centre than the one it is listed under (ties to the list's order).
    use xenolog_engine::Game;
    use xenolog_engine::games::alien::{Alien, data::Terrain};
    use xenolog_engine::rng::Randomness;
    let s = at("character hicks at I9 items grenade\nalien 4 at K8\nalien 4 at L9\n");
    let h = ch(&s, "hicks");
    let base = &s.content.base;
    let offered = legal_throws(&s, h);
    let mut l = vec![t("K8"), t("K9"), t("L9")];
    l.sort_unstable();
    let under: Vec<String> = offered
        .iter()
        .filter_map(|c| match c {
            C::Throw { at, area, .. } if *area == l => Some(base.name(*at)),
            _ => None,
        })
        .collect();
    assert_eq!(under, ["K9"], "the L K8 K9 L9 is listed under {under:?}");
    // Three times the squared distance to the centre, in whole numbers.
    let far = |at: u16, area: &[u16]| {
        let (x, y) = base.xy(at);
        let (sx, sy) = area.iter().fold((0, 0), |(sx, sy), &t| {
            let (tx, ty) = base.xy(t);
            (sx + tx, sy + ty)
        });
        (3 * x - sx).pow(2) + (3 * y - sy).pow(2)
    };
    let tiles = u16::from(base.width) * u16::from(base.height);
    let landings: Vec<u16> = (0..tiles)
        .filter(|&x| base.terrain(x) != Terrain::Wall && base.distance(t("I9"), x) <= 3)
        .collect();
    let mut checked = 0;
    for c in &offered {
        let C::Throw {
            pocket, at, area, ..
        } = c
        else {
            unreachable!()
        };
        let (x, y) = base.xy(*at);
        let own = area.contains(at)
            && (area.iter().all(|&t| base.xy(t).0 == x) || area.iter().all(|&t| base.xy(t).1 == y));
        if own {
            continue;
        }
        let mine = far(*at, area);
        for &other in &landings {
            let throw = C::Throw {
                ch: h,
                pocket: *pocket,
                at: other,
                area: area.clone(),
            };
            let mut rng = Randomness::new(7, 0, None);
            if far(other, area) < mine && Alien::decide(&s, EXPEDITION, &throw, &mut rng).is_ok() {
                panic!(
                    "{} listed under {} but {} is nearer its centre and accepts it",
                    area.iter()
                        .map(|&t| base.name(t))
                        .collect::<Vec<_>>()
                        .join(" "),
                    base.name(*at),
                    base.name(other)
                );
            }
        }
        checked += 1;
    }
    assert!(
        checked > 50,
        "only {checked} areas beside their tiles were offered"
    );
}
