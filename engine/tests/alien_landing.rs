//! The landing field and the APC (4.1, 4.2, 12): the text's one exception
//! to "characters may not enter the landing field", to start the APC, played
//! from the shipped setup through legal commands only.

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::data::Item;
use xenolog_engine::games::alien::state::{AlienEvent as E, Pos};
use xenolog_engine::games::alien::{Alien, AlienCommand as C, AlienConfig};
use xenolog_engine::{Actor, Game, Session};

/// Play `cmd` in `session` only if `Game::legal` lists it (every step a
/// player could be offered); the game's own steps are played as they come.
fn legal(session: &mut Session<Alien>, actor: Actor, cmd: C) -> Vec<E> {
    let offered = Alien::legal(session.state());
    assert!(
        offered.contains(&(actor, cmd.clone())),
        "{cmd:?} by {actor:?} is not among the legal commands at turn {} ({:?})",
        session.state().turn,
        session.state().phase
    );
    let before = session.state().clone();
    let id = session
        .play(actor, &cmd, None)
        .unwrap_or_else(|e| panic!("{cmd:?} refused: {e}"));
    let events = session.events(id);
    assert_ne!(*session.state(), before);
    session.play_due().expect("the game's own steps");
    events
}

/// A character's walk, one legal move a tile.
fn walk(session: &mut Session<Alien>, who: u8, tiles: &[&str]) {
    for name in tiles {
        legal(
            session,
            EXPEDITION,
            C::Move {
                ch: who,
                to: t(name),
            },
        );
        assert_eq!(
            session.state().characters[usize::from(who)].pos,
            Pos::Tile(t(name))
        );
    }
}

/// The expedition ends its phase; the Alien player hatches everything on
/// hatching place 1 (far from the landing field) and moves nothing.
fn next_turn(session: &mut Session<Alien>) {
    let turn = session.state().turn;
    legal(session, EXPEDITION, C::EndPhase);
    let split = Alien::legal(session.state())
        .into_iter()
        .find(|(_, c)| matches!(c, C::Hatch { .. }))
        .expect("a split of the hatching roll is offered");
    legal(session, split.0, split.1);
    while !session.state().to_place.is_empty() {
        legal(session, ALIEN, C::Place { hatch: 1 });
    }
    legal(session, ALIEN, C::EndMoves);
    assert_eq!(session.state().turn, turn + 1, "no alien reached anyone");
}

#[test]
fn clause_4_2_from_the_shipped_setup_a_character_fetches_fuel_boards_and_the_apc_drives() {
    let mut session = Session::<Alien>::new(11, AlienConfig::default()).unwrap();
    let s = session.state();
    assert_eq!(
        name(s, s.apc.at),
        "B15",
        "the APC on the landing field (12)"
    );
    assert_eq!(s.apc.fuel, 0, "without fuel (12)");
    let (hicks, vasquez) = (ch(s, "hicks"), ch(s, "vasquez"));
    assert_eq!(
        name(s, s.characters[usize::from(hicks)].tile().unwrap()),
        "E12"
    );
    // Turn 1: Hicks heads for the fuel storage on K15; Vasquez clears E13.
    walk(
        &mut session,
        hicks,
        &["F12", "G12", "H12", "I12", "J12", "K12"],
    );
    walk(&mut session, vasquez, &["E12", "F12", "G12", "G11", "G10"]);
    next_turn(&mut session);
    // Turn 2: the fuel container.
    walk(&mut session, hicks, &["K13", "K14", "K15"]);
    legal(&mut session, EXPEDITION, take(hicks, Item::Fuel));
    walk(&mut session, hicks, &["K14", "K13"]);
    next_turn(&mut session);
    // Turn 3: back to the mouth of the landing field.
    walk(
        &mut session,
        hicks,
        &["K12", "J12", "I12", "H12", "G12", "F12"],
    );
    // Vasquez, without fuel, may not step back onto the landing field.
    let no = Alien::legal(session.state());
    assert!(
        !no.iter()
            .any(|(_, c)| matches!(c, C::Move { ch, to } if *ch == vasquez
            && session.state().content.base.terrain(*to)
                == xenolog_engine::games::alien::data::Terrain::Landing)),
        "only to start the APC"
    );
    next_turn(&mut session);
    // Turn 4: onto the landing field with the fuel, each step nearer the APC.
    walk(
        &mut session,
        hicks,
        &["E12", "E13", "E14", "E15", "D15", "C15"],
    );
    next_turn(&mut session);
    // Turn 5: the fuel delivered, Hicks boards.
    let pocket = session.state().characters[usize::from(hicks)]
        .pocket_of(xenolog_engine::games::alien::data::Kind::Fuel)
        .unwrap();
    let ev = legal(&mut session, EXPEDITION, C::Fuel { ch: hicks, pocket });
    assert_eq!(ev[0], E::Fueled { ch: hicks, pocket });
    assert_eq!(session.state().apc.fuel, 3, "three phases of fuel");
    let ev = legal(&mut session, EXPEDITION, move_to(hicks, "B15"));
    assert_eq!(ev[0], E::Boarded { ch: hicks });
    next_turn(&mut session);
    // Turn 6: the APC drives out of the landing field into the base.
    let route = ["C15", "D15", "E15", "E14", "E13", "E12", "F12", "G12"];
    for (i, tile) in route.iter().enumerate() {
        let ev = legal(&mut session, EXPEDITION, C::Drive { to: t(tile) });
        assert_eq!(
            ev[0],
            E::ApcDrove {
                to: t(tile),
                fuel_used: i == 0
            }
        );
    }
    let s = session.state();
    assert_eq!(name(s, s.apc.at), "G12");
    assert_eq!(s.apc.fuel, 2, "the first of its three phases used");
    assert_eq!(
        s.characters[usize::from(hicks)].pos,
        Pos::Apc,
        "Hicks rides it"
    );
    assert!(session.verify().ok(), "the battle replays exactly");
}

/// Everyone off the landing field but `extra`'s lines.
fn off_field(extra: &str) -> String {
    format!(
        "character hicks at H12\ncharacter hudson at I12\ncharacter vasquez at J12\n\
         character gorman at K12\ncharacter bishop at L12\ncharacter apone at M12\n{extra}"
    )
}

#[test]
fn clause_4_1_characters_may_enter_the_landing_field_only_to_start_the_apc() {
    // Without fuel for an APC that has none: the landing field is closed.
    let s = at(&off_field("character hudson at F12\n"));
    let hudson = ch(&s, "hudson");
    let e = refused(&s, EXPEDITION, move_to(hudson, "E12"));
    assert_eq!(e.clause.as_deref(), Some("4.1"));
    assert!(e.message.contains("start the APC"), "{e}");
    // Carrying fuel to it: in, each step nearer the APC on B15.
    let mut s = at(&off_field("character hicks at F12 items fuel\n"));
    let hicks = ch(&s, "hicks");
    act(&mut s, EXPEDITION, move_to(hicks, "E12"), &[]);
    act(&mut s, EXPEDITION, move_to(hicks, "D12"), &[]);
    // Deeper in (away from the exit) only to start the APC: Hudson,
    // without fuel, on the landing field may not follow.
    let mut u = s.clone();
    u.characters[usize::from(hudson)].pos =
        xenolog_engine::games::alien::state::Pos::Tile(t("E12"));
    let e = refused(&u, EXPEDITION, move_to(hudson, "E13"));
    assert!(e.message.contains("nearer the APC"), "{e}");
    // It may still make its way out (nearer the exit).
    let mut out = s.clone();
    act(&mut out, EXPEDITION, move_to(hicks, "E12"), &[]);
    act(&mut out, EXPEDITION, move_to(hicks, "F12"), &[]);
    // Next to the APC it delivers the fuel and boards.
    for tile in ["D13", "C13", "C14", "B14"] {
        act(
            &mut s,
            EXPEDITION,
            C::Move {
                ch: hicks,
                to: t(tile),
            },
            &[],
        );
    }
    s.characters[usize::from(hicks)].ap = 6; // the next phase
    act(
        &mut s,
        EXPEDITION,
        C::Fuel {
            ch: hicks,
            pocket: 0,
        },
        &[],
    );
    act(&mut s, EXPEDITION, move_to(hicks, "B15"), &[]);
    assert_eq!(s.characters[usize::from(hicks)].pos, Pos::Apc);
    // A fuelled APC on the landing field: anyone may come to board it.
    let mut s = at(&off_field("character hudson at F12\napc B15 fuel 3\n"));
    act(&mut s, EXPEDITION, move_to(hudson, "E12"), &[]);
    // Not once the APC has left the landing field.
    let s = at(&off_field("character hudson at F12 items fuel\napc G13\n"));
    let e = refused(&s, EXPEDITION, move_to(hudson, "E12"));
    assert!(e.message.contains("landing field"), "{e}");
}

#[test]
fn clause_4_2_passengers_leave_an_apc_on_the_landing_field_onto_it() {
    // Leaving for a point onto a tile next to the APC: on the landing field.
    let mut s = at(&off_field("character hicks at apc\napc B15 fuel 2\n"));
    let hicks = ch(&s, "hicks");
    act(
        &mut s,
        EXPEDITION,
        C::Leave {
            ch: hicks,
            to: t("B14"),
        },
        &[],
    );
    assert_eq!(s.characters[usize::from(hicks)].pos, Pos::Tile(t("B14")));
    // The last fuel used on the landing field: out onto it, not killed.
    let mut s = at(&off_field("character hicks at apc\napc C15 fuel 1\n"));
    act(&mut s, EXPEDITION, drive("B15"), &[]);
    let ev = act(&mut s, EXPEDITION, C::EndPhase, &[]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, E::Disembarked { ch, .. } if *ch == hicks)),
        "{ev:?}"
    );
    assert!(s.characters[usize::from(hicks)].alive());
}
