//! Rule text 000, "Vehicle movement": helicopters and other VTOL craft
//! ("use an action to take off, another action to travel anywhere and a
//! third action to land"). Ground vehicles' facing is not built (RULES.md).

#[path = "invasion_support.rs"]
mod support;

use support::*;
use xenolog_engine::Game;
use xenolog_engine::games::invasion::state::{CardKind, GroupId, InvasionEvent as E, Place};
use xenolog_engine::games::invasion::{InvasionConfig, InvasionState, start};

const AIR: &str = r#"
faction air "Air Cavalry"
link yes
model heli "Gunship" species human shoot 4 move 8 kill 12 15 18 vtol
model trooper "Trooper" species human shoot 1 kill 6 9 12
group h1 "Gunship One" heli
group t1 "Troopers" trooper trooper
"#;

/// The Air Cavalry (seat 0) against the Daleks on the proving ground; the
/// gunship at (10,20), Dalek Patrol Alpha at (10,12).
fn air() -> (InvasionState, GroupId, GroupId) {
    let mut s = start(&InvasionConfig {
        scenario: String::new(),
        scenario_text: Some(GROUND.to_owned()),
        factions: vec!["air".into(), "daleks".into()],
        faction_texts: vec![AIR.to_owned()],
        real_table: false,
        sewers: true,
    })
    .expect("setup");
    park(&mut s);
    let (h, dal) = (gid(&s, "h1"), gid(&s, "d1"));
    place(&mut s, h, 10.0, 20.0);
    place(&mut s, dal, 10.0, 12.0);
    (s, h, dal)
}

fn fly(g: GroupId, x: f64, y: f64) -> String {
    let p = pt(x, y);
    format!(
        r#"{{"fly":{{"group":{g},"to":{{"x":{},"y":{}}}}}}}"#,
        p.x, p.y
    )
}

#[test]
fn vehicle_movement_vtol_takes_off_travels_anywhere_and_lands_as_three_actions() {
    let (mut s, h, _) = air();
    card(&mut s, 0, CardKind::Triple);
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"take_off":{{"group":{h}}}}}"#),
        &[],
    );
    p.assert_says("Air Cavalry Gunship One took off");
    assert_eq!(s.group(h).place, Place::Air);
    // Anywhere: 30" away, over the house.
    let p = play(&mut s, 0, &fly(h, 40.0, 40.0), &[]);
    p.assert_says("Air Cavalry Gunship One moved to (40\", 40\")");
    assert_eq!(lead_at(&s, h), pt(40.0, 40.0));
    let p = play(&mut s, 0, &format!(r#"{{"land":{{"group":{h}}}}}"#), &[]);
    p.assert_says("Air Cavalry Gunship One landed");
    assert_eq!(s.group(h).place, Place::Table);
    assert_eq!(s.spent_by(h), 3);
}

#[test]
fn vehicle_movement_a_vtol_craft_on_the_ground_does_not_move_it_takes_off() {
    let (mut s, h, _) = air();
    card(&mut s, 0, CardKind::Single);
    let p = pt(10.0, 25.0);
    let e = refused(
        &mut s,
        0,
        &format!(
            r#"{{"move":{{"group":{h},"to":{{"x":{},"y":{}}}}}}}"#,
            p.x, p.y
        ),
        &[],
    );
    assert_eq!(
        refusal(&e),
        "[Vehicle movement] a VTOL craft uses an action to take off, another to travel anywhere and a third to land"
    );
    let e = refused(&mut s, 0, &fly(h, 30.0, 30.0), &[]);
    assert_eq!(
        refusal(&e),
        "[Vehicle movement] Air Cavalry Gunship One must take off first"
    );
    let e = refused(&mut s, 0, &format!(r#"{{"land":{{"group":{h}}}}}"#), &[]);
    assert!(e.message.ends_with("must take off first"), "{e}");
}

#[test]
fn vehicle_movement_in_the_air_it_flies_or_lands_and_cannot_take_off_again() {
    let (mut s, h, _) = air();
    card(&mut s, 0, CardKind::Triple);
    play(
        &mut s,
        0,
        &format!(r#"{{"take_off":{{"group":{h}}}}}"#),
        &[],
    );
    let e = refused(
        &mut s,
        0,
        &format!(r#"{{"take_off":{{"group":{h}}}}}"#),
        &[],
    );
    assert!(e.message.ends_with("is already in the air"), "{e}");
    let p = pt(10.0, 25.0);
    let e = refused(
        &mut s,
        0,
        &format!(
            r#"{{"move":{{"group":{h},"to":{{"x":{},"y":{}}}}}}}"#,
            p.x, p.y
        ),
        &[],
    );
    assert!(
        e.message.ends_with("it travels (fly) or lands (land)"),
        "{e}"
    );
    let e = refused(&mut s, 0, &fly(h, 50.0, 30.0), &[]);
    assert!(e.message.contains("off the table"), "{e}");
}

#[test]
fn vehicle_movement_only_vtol_craft_take_off() {
    let (mut s, _, _) = air();
    let t = gid(&s, "t1");
    card(&mut s, 0, CardKind::Single);
    let e = refused(
        &mut s,
        0,
        &format!(r#"{{"take_off":{{"group":{t}}}}}"#),
        &[],
    );
    assert_eq!(
        refusal(&e),
        "[Vehicle movement] Air Cavalry Troopers is not a helicopter or VTOL craft"
    );
}

#[test]
fn vehicle_movement_a_craft_in_the_air_neither_shoots_nor_is_shot() {
    let (mut s, h, dal) = air();
    card(&mut s, 0, CardKind::Double);
    play(
        &mut s,
        0,
        &format!(r#"{{"take_off":{{"group":{h}}}}}"#),
        &[],
    );
    let e = refused(
        &mut s,
        0,
        &format!(r#"{{"shoot":{{"shooters":[{h}],"target":{dal}}}}}"#),
        &[],
    );
    assert!(
        e.message.contains("is not on the table and cannot shoot"),
        "{e}"
    );
    card(&mut s, 1, CardKind::Single);
    let e = refused(
        &mut s,
        1,
        &format!(r#"{{"shoot":{{"shooters":[{dal}],"target":{h}}}}}"#),
        &[],
    );
    assert!(e.message.ends_with("is not on the table"), "{e}");
    // On the ground it shoots like any group: 4D6.
    let mut s2 = air().0;
    card(&mut s2, 0, CardKind::Single);
    let p = play(
        &mut s2,
        0,
        &format!(r#"{{"shoot":{{"shooters":[{h}],"target":{dal}}}}}"#),
        &[1; 4],
    );
    assert!(
        p.events
            .iter()
            .any(|e| matches!(e, E::Shot { dice, .. } if dice.len() == 4))
    );
}

#[test]
fn vehicle_movement_landing_in_base_contact_locks_in_hand_to_hand() {
    let (mut s, h, dal) = air();
    card(&mut s, 0, CardKind::Triple);
    play(
        &mut s,
        0,
        &format!(r#"{{"take_off":{{"group":{h}}}}}"#),
        &[],
    );
    play(&mut s, 0, &fly(h, 10.0, 13.05), &[]);
    let p = play(&mut s, 0, &format!(r#"{{"land":{{"group":{h}}}}}"#), &[]);
    assert!(
        p.events.iter().any(|e| matches!(e, E::Locked { .. })),
        "{:#?}",
        p.words
    );
    assert_eq!(s.group(h).locked, s.group(dal).locked);
}

#[test]
fn vehicle_movement_vehicles_do_not_go_down_manholes() {
    let (mut s, h, _) = air();
    place(&mut s, h, 40.5, 20.5);
    card(&mut s, 0, CardKind::Single);
    let e = refused(&mut s, 0, &format!(r#"{{"descend":{{"group":{h}}}}}"#), &[]);
    assert_eq!(refusal(&e), "[Sewers] vehicles do not go down manholes");
}

#[test]
fn vehicle_movement_legal_lists_take_off_fly_and_land_and_decide_accepts_them() {
    let (mut s, h, _) = air();
    card(&mut s, 0, CardKind::Triple);
    assert!(is_legal(&s, &format!(r#"{{"take_off":{{"group":{h}}}}}"#)));
    assert_legal_accepted(&s);
    play(
        &mut s,
        0,
        &format!(r#"{{"take_off":{{"group":{h}}}}}"#),
        &[],
    );
    assert!(is_legal(&s, &format!(r#"{{"land":{{"group":{h}}}}}"#)));
    assert!(
        xenolog_engine::games::invasion::Invasion::legal(&s)
            .iter()
            .any(|(_, c)| matches!(
                c,
                xenolog_engine::games::invasion::InvasionCommand::Fly { .. }
            ))
    );
    assert_legal_accepted(&s);
}
