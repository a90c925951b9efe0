//! Rule text 000, "Vehicle movement": ground vehicles ("may move in a
//! straight line in the direction they are facing as far as they are able
//! and end their move with a turn to face any direction ... Vehicles can
//! only enter terrain suitable to them") and helicopters and other VTOL craft
//! ("use an action to take off, another action to travel anywhere and a
//! third action to land").

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
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
/// gunship at (10,20), Dalek Patrol Alpha at (10,12); a card of `kind` of
/// the Air Cavalry being played.
fn air(kind: CardKind) -> (InvasionState, GroupId, GroupId) {
    let mut s = given_on_ground(&["air", "daleks"], &[AIR], &["sewers"]);
    let [h, dal] = placed(&mut s, "h1 at 10,20; d1 at 10,12");
    card(&mut s, 0, kind);
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
    let (mut s, h, _) = air(CardKind::Triple);
    let p = play(&mut s, 0, &group_order("take_off", h), &[]);
    p.assert_says("Air Cavalry Gunship One took off");
    assert_eq!(s.group(h).place, Place::Air);
    // Anywhere: 30" away, over the house.
    let p = play(&mut s, 0, &fly(h, 40.0, 40.0), &[]);
    p.assert_says("Air Cavalry Gunship One moved to (40\", 40\")");
    assert_eq!(lead_at(&s, h), pt(40.0, 40.0));
    let p = play(&mut s, 0, &group_order("land", h), &[]);
    p.assert_says("Air Cavalry Gunship One landed");
    assert_place(&s, h, Place::Table, 3);
}

#[test]
fn vehicle_movement_a_vtol_craft_on_the_ground_does_not_move_it_takes_off() {
    let (mut s, h, _) = air(CardKind::Single);
    when_seat(&mut s, 0, &mv(h, 10.0, 25.0))
        .refused("[Vehicle movement] a VTOL craft uses an action to take off, another to travel anywhere and a third to land");
    when_seat(&mut s, 0, &fly(h, 30.0, 30.0))
        .refused("[Vehicle movement] Air Cavalry Gunship One must take off first");
    let e = refused(&mut s, 0, &group_order("land", h), &[]);
    assert!(e.message.ends_with("must take off first"), "{e}");
}

#[test]
fn vehicle_movement_in_the_air_it_flies_or_lands_and_cannot_take_off_again() {
    let (mut s, h, _) = air(CardKind::Triple);
    play(&mut s, 0, &group_order("take_off", h), &[]);
    let e = refused(&mut s, 0, &group_order("take_off", h), &[]);
    assert!(e.message.ends_with("is already in the air"), "{e}");
    let e = refused(&mut s, 0, &mv(h, 10.0, 25.0), &[]);
    assert!(
        e.message.ends_with("it travels (fly) or lands (land)"),
        "{e}"
    );
    let e = refused(&mut s, 0, &fly(h, 50.0, 30.0), &[]);
    assert!(e.message.contains("off the table"), "{e}");
}

#[test]
fn vehicle_movement_only_vtol_craft_take_off() {
    let (mut s, _, _) = air(CardKind::Single);
    let t = gid(&s, "t1");
    when_seat(&mut s, 0, &group_order("take_off", t))
        .refused("[Vehicle movement] Air Cavalry Troopers is not a helicopter or VTOL craft");
}

#[test]
fn vehicle_movement_a_craft_in_the_air_neither_shoots_nor_is_shot() {
    let (mut s, h, dal) = air(CardKind::Double);
    play(&mut s, 0, &group_order("take_off", h), &[]);
    let e = refused(&mut s, 0, &shoot(&[h], dal), &[]);
    assert!(
        e.message.contains("is not on the table and cannot shoot"),
        "{e}"
    );
    card(&mut s, 1, CardKind::Single);
    let e = refused(&mut s, 1, &shoot(&[dal], h), &[]);
    assert!(e.message.ends_with("is not on the table"), "{e}");
    // On the ground it shoots like any group: 4D6.
    let mut s2 = air(CardKind::Single).0;
    let p = play(&mut s2, 0, &shoot(&[h], dal), &[1; 4]);
    assert!(p.any(|e| matches!(e, E::Shot { dice, .. } if dice.len() == 4)));
}

#[test]
fn vehicle_movement_landing_in_base_contact_locks_in_hand_to_hand() {
    let (mut s, h, dal) = air(CardKind::Triple);
    play(&mut s, 0, &group_order("take_off", h), &[]);
    play(&mut s, 0, &fly(h, 10.0, 13.05), &[]);
    let p = play(&mut s, 0, &group_order("land", h), &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
    assert_eq!(s.group(h).locked, s.group(dal).locked);
}

#[test]
fn vehicle_movement_vehicles_do_not_go_down_manholes() {
    let (mut s, h, _) = air(CardKind::Single);
    place(&mut s, h, 40.5, 20.5);
    when_seat(&mut s, 0, &group_order("descend", h))
        .refused("[Sewers] vehicles do not go down manholes");
}

#[test]
fn vehicle_movement_legal_lists_take_off_fly_and_land_and_decide_accepts_them() {
    let (mut s, h, _) = air(CardKind::Triple);
    assert!(is_legal(&s, &group_order("take_off", h)));
    assert_legal_accepted(&s);
    play(&mut s, 0, &group_order("take_off", h), &[]);
    assert!(is_legal(&s, &group_order("land", h)));
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

const MOTOR_POOL: &str = r#"
faction motor "Motor Pool"
model jeep "Land Rover" species human shoot 2 move 12 kill 9 12 15 vehicle offroad carry 4
model car "Staff Car" species human shoot 1 move 12 kill 9 12 15 vehicle road
model trooper "Trooper" species human shoot 1 kill 6 9 12
group j1 "Recce" jeep
group c1 "Transport" car
group t1 "Escort" trooper trooper
"#;

fn motor_config() -> InvasionConfig {
    ground_config(&["motor", "daleks"], &[MOTOR_POOL], &[])
}

/// The Motor Pool (seat 0) against the Daleks on the proving ground: the
/// Land Rover (off-road) at (20,20) and the Staff Car (road) at (20,14),
/// both facing 0 degrees (towards +x, the right-hand edge); Dalek Patrol
/// Alpha at (20,40); a card of `kind` of the Motor Pool being played.
fn motor(kind: CardKind) -> (InvasionState, GroupId, GroupId, GroupId) {
    let mut s = start(&motor_config()).expect("setup");
    park(&mut s);
    card(&mut s, 0, kind);
    let [j, c, dal] = placed(&mut s, "j1 at 20,20; c1 at 20,14; d1 at 20,40");
    s.groups[j as usize].facing = Some(0);
    s.groups[c as usize].facing = Some(0);
    (s, j, c, dal)
}

fn drive(g: GroupId, x: f64, y: f64, face: Option<i32>) -> String {
    let p = pt(x, y);
    match face {
        Some(f) => format!(
            r#"{{"move":{{"group":{g},"to":{{"x":{},"y":{}}},"face":{f}}}}}"#,
            p.x, p.y
        ),
        None => format!(
            r#"{{"move":{{"group":{g},"to":{{"x":{},"y":{}}}}}}}"#,
            p.x, p.y
        ),
    }
}

#[test]
fn vehicle_movement_ground_vehicles_are_deployed_facing_the_middle_of_the_table() {
    let s = start(&motor_config()).expect("setup");
    let (j, t) = (gid(&s, "j1"), gid(&s, "t1"));
    let from = lead_at(&s, j);
    let middle = pt(24.0, 24.0);
    assert_eq!(
        s.group(j).facing,
        Some(xenolog_engine::games::invasion::rules::facing_towards(
            from, middle
        ))
    );
    // Seat 0 deploys along the top edge: the middle is below it.
    let f = s.group(j).facing.unwrap();
    assert!((45..=135).contains(&f), "{f}");
    assert_eq!(s.group(t).facing, None, "only vehicles have a facing");
}

#[test]
fn vehicle_movement_ground_vehicles_move_in_a_straight_line_in_the_direction_they_face() {
    let (mut s, j, _, _) = motor(CardKind::Double);
    let p = play(&mut s, 0, &drive(j, 32.0, 20.0, None), &[]);
    p.assert_says("Motor Pool Recce moved to (32\", 20\")");
    assert_eq!(lead_at(&s, j), pt(32.0, 20.0));
    assert_eq!(s.group(j).facing, Some(0), "no turn: it keeps its facing");
    // Not further than its move (12").
    let e = refused(&mut s, 0, &drive(j, 46.0, 20.0, None), &[]);
    assert!(e.message.contains("12"), "{e}");
    // Within the tolerance of 2 degrees: 0.17" off over 10" is about 1 degree.
    let p = play(&mut s, 0, &drive(j, 42.0, 20.17, None), &[]);
    p.assert_says("Motor Pool Recce moved to");
}

#[test]
fn vehicle_movement_a_move_at_an_angle_to_its_facing_is_refused_in_words() {
    let (mut s, j, _, _) = motor(CardKind::Single);
    when_seat(&mut s, 0, &drive(j, 28.0, 26.0, None))
        .refused("[Vehicle movement] Motor Pool Recce faces 0°: a ground vehicle moves only straight ahead in the direction it faces (this move points 37° off it), then turns to face any direction");
    // Backwards is at an angle too.
    let e = refused(&mut s, 0, &drive(j, 14.0, 20.0, None), &[]);
    assert!(e.message.contains("180° off"), "{e}");
}

#[test]
fn vehicle_movement_ends_its_move_with_a_turn_to_face_any_direction() {
    let (mut s, j, _, _) = motor(CardKind::Double);
    let p = play(&mut s, 0, &drive(j, 30.0, 20.0, Some(270)), &[]);
    p.assert_says(
        "Motor Pool Recce moved to (30\", 20\") and turned to face 270° (towards the top edge)",
    );
    assert_eq!(s.group(j).facing, Some(270));
    assert!(p.any(|e| matches!(
        e,
        E::Moved {
            face: Some(270),
            ..
        }
    )));
    // Now straight ahead is up the table; a turn given as -45 is 315.
    let p = play(&mut s, 0, &drive(j, 30.0, 10.0, Some(-45)), &[]);
    p.assert_says("and turned to face 315° (towards the top right corner)");
    assert_eq!(s.group(j).facing, Some(315));
}

#[test]
fn vehicle_movement_a_move_of_no_length_is_a_turn_on_the_spot() {
    let (mut s, j, _, _) = motor(CardKind::Single);
    let p = play(&mut s, 0, &drive(j, 20.0, 20.0, Some(90)), &[]);
    p.assert_says("turned to face 90° (towards the bottom edge)");
    assert_eq!(lead_at(&s, j), pt(20.0, 20.0));
    assert_eq!(s.group(j).facing, Some(90));
    // Standing in a feature too.
    place(&mut s, j, 43.0, 7.0);
    card(&mut s, 0, CardKind::Single);
    play(&mut s, 0, &drive(j, 43.0, 7.0, Some(180)), &[]);
    assert_eq!(lead_at(&s, j), pt(43.0, 7.0));
    assert_eq!(s.group(j).facing, Some(180));
}

#[test]
fn vehicle_movement_vehicles_end_their_move_entering_a_terrain_feature_but_may_still_turn() {
    let (mut s, j, _, _) = motor(CardKind::Single);
    // Facing the Cornfield (cover, (40,4)-(46,10)) from 6" away.
    place(&mut s, j, 34.0, 7.0);
    let p = play(&mut s, 0, &drive(j, 46.0, 7.0, Some(180)), &[]);
    assert!(
        p.words.iter().any(|w| w.contains("Cornfield")
            && w.ends_with("and turned to face 180° (towards the left-hand edge)")),
        "{:#?}",
        p.words
    );
    let at = lead_at(&s, j);
    assert!(at.x < pt(41.0, 0.0).x && at.x >= pt(40.0, 0.0).x, "{at:?}");
    assert_eq!(s.group(j).facing, Some(180));
}

#[test]
fn vehicle_movement_a_road_vehicle_can_only_travel_in_open_terrain() {
    let (mut s, _, c, _) = motor(CardKind::Single);
    place(&mut s, c, 34.0, 7.0);
    let e = refused(&mut s, 0, &drive(c, 44.0, 7.0, None), &[]);
    assert!(e.message.contains("Cornfield"), "{e}");
    assert!(
        e.message.contains("a road vehicle keeps to open terrain"),
        "{e}"
    );
    // Short of the field, in the open, it may go.
    play(&mut s, 0, &drive(c, 39.0, 7.0, None), &[]);
    assert_eq!(lead_at(&s, c), pt(39.0, 7.0));
}

#[test]
fn vehicle_movement_an_off_road_vehicle_may_cross_rubble_and_scrub() {
    let (mut s, j, _, _) = motor(CardKind::Double);
    place(&mut s, j, 34.0, 7.0);
    play(&mut s, 0, &drive(j, 44.0, 7.0, None), &[]);
    let at = lead_at(&s, j);
    assert!(at.x >= pt(40.0, 0.0).x, "in the Cornfield: {at:?}");
    // And on through it, straight ahead.
    play(&mut s, 0, &drive(j, 45.5, 7.0, None), &[]);
    assert_eq!(lead_at(&s, j), pt(45.5, 7.0));
    // Never into a building.
    let (mut s, j, _, _) = motor(CardKind::Single);
    place(&mut s, j, 24.0, 33.0);
    let e = refused(&mut s, 0, &drive(j, 34.0, 33.0, None), &[]);
    assert!(e.message.contains("a building"), "{e}");
}

#[test]
fn vehicle_movement_only_ground_vehicles_turn_at_the_end_of_their_move() {
    let (mut s, _, _, _) = motor(CardKind::Single);
    let [t] = placed(&mut s, "t1 at 10,10");
    when_seat(&mut s, 0, &drive(t, 10.0, 15.0, Some(90)))
        .refused("[Vehicle movement] only ground vehicles turn at the end of their move; Motor Pool Escort moves in any direction");
    // On foot it moves in any direction.
    play(&mut s, 0, &drive(t, 10.0, 15.0, None), &[]);
}

#[test]
fn vehicle_movement_legal_offers_straight_ahead_with_a_turn_towards_the_nearest_enemy() {
    let (s, j, _, _) = motor(CardKind::Single);
    let moves: Vec<_> = xenolog_engine::games::invasion::Invasion::legal(&s)
        .into_iter()
        .filter_map(|(_, c)| match c {
            xenolog_engine::games::invasion::InvasionCommand::Move {
                group, to, face, ..
            } if group == j => Some((to.unwrap(), face)),
            _ => None,
        })
        .collect();
    // A full and a half move ahead, and a turn on the spot, each turning
    // towards the nearest Dalek below (they stand at (20,40), (21.1,40),
    // (22.2,40)).
    assert!(moves.contains(&(pt(32.0, 20.0), Some(116))), "{moves:?}");
    assert!(moves.contains(&(pt(26.0, 20.0), Some(101))), "{moves:?}");
    assert!(moves.contains(&(pt(20.0, 20.0), Some(90))), "{moves:?}");
    assert_eq!(moves.len(), 3, "{moves:?}");
    assert_legal_accepted(&s);
}

#[test]
fn vehicle_movement_at_a_real_table_the_players_move_the_vehicle_and_the_turn_is_recorded() {
    let mut s = start(&InvasionConfig {
        real_table: true,
        ..motor_config()
    })
    .expect("setup");
    let j = gid(&s, "j1");
    card(&mut s, 0, CardKind::Single);
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"move":{{"group":{j},"face":180}}}}"#),
        &[],
    );
    p.assert_says(
        "Motor Pool Recce moved at the table and turned to face 180° (towards the left-hand edge)",
    );
    assert_eq!(s.group(j).facing, Some(180));
}

// ---- "A group's movement ends when it enters a terrain feature (including a vehicle)"

fn board(g: GroupId, v: GroupId) -> String {
    format!(r#"{{"board":{{"group":{g},"vehicle":{v}}}}}"#)
}

#[test]
fn movement_a_group_boards_a_vehicle_and_its_move_ends() {
    let (mut s, j, _, _) = motor(CardKind::Triple);
    let [t] = placed(&mut s, "t1 at 20,26");
    assert!(is_legal(&s, &board(t, j)));
    let p = play(&mut s, 0, &board(t, j), &[]);
    p.assert_says(
        "Motor Pool Escort boarded Motor Pool Recce (2 of 4 places taken): their move ends",
    );
    assert_eq!(s.group(t).place, Place::Carried(j));
    assert!(s.group(t).points().is_empty(), "aboard, not on the table");
    // Aboard, the group is not on the table: it cannot shoot or be shot.
    let dal = gid(&s, "d1");
    let e = refused(&mut s, 0, &shoot(&[t], dal), &[]);
    assert!(e.message.contains("not on the table"), "{e}");
    assert_legal_accepted(&s);
}

#[test]
fn movement_boarding_needs_a_move_that_reaches_the_vehicle_and_room_aboard() {
    let (mut s, j, c, dal) = motor(CardKind::Triple);
    let t = gid(&s, "t1");
    // 15" away: an 8" move (and a base) does not reach it.
    place(&mut s, t, 20.0, 35.0);
    when_seat(&mut s, 0, &board(t, j))
        .refused("[Movement] Motor Pool Escort cannot reach Motor Pool Recce this move: it is 15\" away and they move 8\"");
    place(&mut s, t, 26.0, 14.0);
    // The Staff Car has no room (no 'carry' in its profile).
    let e = refused(&mut s, 0, &board(t, c), &[]);
    assert_refusal_says(
        &e,
        "Motor Pool Transport has room for 0 figures and 0 are aboard",
    );
    // Not an enemy's vehicle, and not a group that is no vehicle.
    let e = refused(&mut s, 0, &board(t, dal), &[]);
    assert!(e.message.contains("is not a vehicle of yours"), "{e}");
    // A vehicle does not board a vehicle.
    let e = refused(&mut s, 0, &board(c, j), &[]);
    assert!(e.message.contains("cannot ride in a vehicle"), "{e}");
}

#[test]
fn movement_passengers_ride_with_the_vehicle_and_get_out_measured_from_it() {
    let (mut s, j, _, _) = motor(CardKind::Triple);
    let [t] = placed(&mut s, "t1 at 20,26");
    play(&mut s, 0, &board(t, j), &[]);
    play(&mut s, 0, &drive(j, 32.0, 20.0, None), &[]);
    // "If exiting a building or vehicle measure from a suitable point":
    // 9.5" from the Land Rover is beyond an 8" move.
    let out = |y: f64| {
        let p = pt(32.0, y);
        format!(
            r#"{{"move":{{"group":{t},"to":{{"x":{},"y":{}}}}}}}"#,
            p.x, p.y
        )
    };
    let e = refused(&mut s, 0, &out(29.5), &[]);
    assert!(e.message.contains('8'), "{e}");
    let p = play(&mut s, 0, &out(27.0), &[]);
    p.assert_says("Motor Pool Escort moved to (32\", 27\")");
    assert_eq!(s.group(t).place, Place::Table);
    assert_eq!(lead_at(&s, t), pt(32.0, 27.0));
    assert_eq!(s.group(t).points().len(), 2);
}

#[test]
fn movement_a_vehicles_room_is_data_and_only_vehicles_carry() {
    let bad = MOTOR_POOL.replace(
        "model trooper \"Trooper\" species human shoot 1 kill 6 9 12",
        "model trooper \"Trooper\" species human shoot 1 kill 6 9 12 carry 2",
    );
    let e = xenolog_engine::games::invasion::data::parse_faction(&bad).unwrap_err();
    assert!(
        e.to_string()
            .contains("carries passengers but is not a vehicle"),
        "{e}"
    );
    let f = xenolog_engine::games::invasion::data::parse_faction(MOTOR_POOL).unwrap();
    assert_eq!(f.model("jeep").unwrap().carry, 4);
    assert_eq!(f.model("car").unwrap().carry, 0);
}

/// "Sighting a Target": "certain criteria must be met at the beginning of
/// the active player's turn ... models making a MOVE round the side of a
/// house before FIREing at a target which they could not have known was
/// there". The Escort rides in the Land Rover north of the house when the
/// card begins; Dalek Patrol Alpha stands south of it. Passengers see from
/// their vehicle (A19): when the Land Rover stays, they get out and fire at
/// a patrol it saw; when it drives round the corner and they get out where
/// they see the patrol, it was behind the house as the card began, so their
/// shot is refused as not sighted (without the module it is made).
#[test]
fn sighting_a_target_passengers_who_get_out_sight_from_where_their_vehicle_stood_as_the_card_began()
{
    for (sighting, round_the_corner) in [(true, false), (true, true), (false, true)] {
        let on: &[&str] = if sighting { &["sighting"] } else { &[] };
        let mut s = start(&ground_config(&["motor", "daleks"], &[MOTOR_POOL], on)).expect("setup");
        park(&mut s);
        card(&mut s, 0, CardKind::Single);
        let dal_at = if round_the_corner {
            "d1 at 33,40"
        } else {
            "d1 at 45,27"
        };
        let [j, t, dal] = placed(&mut s, &format!("j1 at 33,27; t1 at 33,24.5; {dal_at}"));
        s.groups[j as usize].facing = Some(0);
        play(&mut s, 0, &board(t, j), &[]);
        step(&mut s, &[]);
        card(&mut s, 0, CardKind::Triple);
        let out = if round_the_corner {
            play(&mut s, 0, &drive(j, 39.0, 27.0, None), &[]);
            drive(t, 40.0, 33.0, None)
        } else {
            drive(t, 36.0, 24.0, None)
        };
        play(&mut s, 0, &out, &[]);
        let fire = format!(r#"{{"shoot":{{"shooters":[{t}],"target":{dal}}}}}"#);
        if sighting && round_the_corner {
            let e = refused(&mut s, 0, &fire, &[1, 1]);
            assert!(e.to_string().contains("has not sighted"), "{e}");
        } else {
            play(&mut s, 0, &fire, &[1, 1]);
        }
    }
}
