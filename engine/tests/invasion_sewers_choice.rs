//! Rule text 000, "Additional Rules", "Humans (and others) in the sewers",
//! the clauses Xenolog left over until rules version 6 (issue 27, "Sewer
//! leftovers"): "After the melee, losers surface at a point of their
//! choosing" (a pending choice their player answers, `choose_point`), and
//! "underground groups meet in a sudden melee" with the Spugs a Burrower
//! carries below the table.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::state::{GroupId, InvasionEvent as E, Pending, Place};
use xenolog_engine::games::invasion::{Invasion, InvasionState};
use xenolog_engine::{Actor, Game};

/// Every casualty asked for, chosen (the first figure it may be).
fn choose_casualties(s: &mut InvasionState) {
    while let Some(Pending::Casualties {
        seat, group, among, ..
    }) = s.pending.first().cloned()
    {
        let f = among
            .first()
            .cloned()
            .unwrap_or_else(|| figures(s, group)[0].clone());
        play(s, seat, &casualties(&[&f]), &[]);
    }
}

/// The melee below resolved: the Spugs kill one man, U.N.I.T. none.
fn unit_lose(s: &mut InvasionState, sec: GroupId) {
    step(s, &[]);
    step(s, &[]);
    play(s, 1, r#"{"strike":{}}"#, &[1; 9]);
    let rifleman = figures(s, sec)[0].clone();
    play(s, 0, &casualties(&[&rifleman]), &[]);
    play(s, 0, r#"{"strike":{}}"#, &[1; 7]);
    let p = step(s, &[]);
    p.assert_says("lost the melee below: they surface at a point of their choosing");
}

#[test]
fn sewers_after_the_melee_losers_surface_at_a_point_of_their_choosing() {
    let (mut s, sec, sq) = given_a_meeting_below(false);
    unit_lose(&mut s, sec);
    // The losers' player is asked; the game takes no step meanwhile.
    assert!(matches!(
        s.pending.first(),
        Some(Pending::Point { seat: 0, group, .. }) if *group == sec
    ));
    assert_eq!(Invasion::automatic(&s), None);
    let asked = Invasion::asked(&s);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].seat, Actor(0));
    assert!(
        asked[0].what.contains("choose the point where"),
        "{asked:?}"
    );
    assert!(s.melees.is_empty(), "the melee is over");
    assert_eq!(s.group(sec).place, Place::Below);
    // Offered: where they are below (the old choice), the manholes.
    assert!(is_legal(&s, &choose_point(4000, 2000)));
    assert!(is_legal(&s, &choose_point(4000, 2800)));
    assert_legal_accepted(&s);
    // Any point of their choosing: here the middle of the open table.
    let p = play(&mut s, 0, &choose_point(1800, 1500), &[]);
    p.assert_says("came up at (18\", 15\")");
    assert_eq!(s.group(sec).place, Place::Table);
    assert_eq!(lead_at(&s, sec), pt(18.0, 15.0));
    assert_eq!(s.group(sec).alive_count(), 3);
    assert!(s.group(sec).placed());
    assert_eq!(s.group(sq).place, Place::Below, "the winners stay below");
    assert!(s.pending.is_empty());
    // The game goes on with the next card.
    assert!(
        Invasion::asked(&s)
            .iter()
            .any(|a| a.what.contains("Single"))
    );
}

#[test]
fn sewers_losers_choose_where_to_surface_refusals_name_the_rule_and_change_nothing() {
    let (mut s, sec, _) = given_a_meeting_below(false);
    unit_lose(&mut s, sec);
    let [_] = placed(&mut s, "sq1 at 10,10");
    for (who, json, says) in [
        (
            1,
            r#"{"choose_point":{"to":{"x":1800,"y":1500}}}"#,
            "U.N.I.T. are asked to choose the point",
        ),
        (
            0,
            r#"{"choose_point":{"to":{"x":6000,"y":1500}}}"#,
            "off the table",
        ),
        (
            0,
            r#"{"choose_point":{"to":{"x":2500,"y":4200}}}"#,
            "soft going",
        ),
        (
            0,
            r#"{"choose_point":{"to":{"x":1000,"y":1000}}}"#,
            "bases cannot overlap",
        ),
        (
            0,
            r#"{"choose_point":{"to":{"x":1100,"y":900}}}"#,
            "in base contact with",
        ),
        (0, r#"{"choose_point":{}}"#, "name the point"),
        (
            0,
            r#"{"move":{"group":0,"to":{"x":100,"y":100}}}"#,
            "must first choose the point where",
        ),
    ] {
        let e = refused(&mut s, who, json, &[]);
        assert!(refusal(&e).contains(says), "{json}: {}", refusal(&e));
    }
    // The other choices the rule names.
    let e = refused(&mut s, 0, &choose_point(6000, 1500), &[]);
    assert_eq!(
        e.clause.as_deref(),
        Some("Humans (and others) in the sewers")
    );
}

#[test]
fn sewers_at_a_real_table_the_losers_player_places_them_and_says_so() {
    let (mut s, sec, _) = given_a_meeting_below(true);
    unit_lose(&mut s, sec);
    assert!(is_legal(&s, r#"{"choose_point":{}}"#));
    let e = refused(&mut s, 0, &choose_point(1800, 1500), &[]);
    assert!(refusal(&e).contains("give no point"));
    play(&mut s, 0, r#"{"choose_point":{}}"#, &[]);
    assert_eq!(s.group(sec).place, Place::Table);
}

#[test]
fn sewers_every_losing_group_below_is_asked_in_turn() {
    let (mut s, sec, sq) = given_a_meeting_below(false);
    let sec2 = below_at(&mut s, "s2", 40.0, 20.0);
    step(&mut s, &[]);
    step(&mut s, &[]);
    // Spugs first: nine 3s = 27, four men at 6 each.
    play(&mut s, 1, r#"{"strike":{}}"#, &[3; 9]);
    choose_casualties(&mut s);
    // U.N.I.T. strike with what is left ("Unlike in a normal melee,
    // underground dwelling factions like Spugs will attack first and
    // resolve their damage before any other factions get to roll their
    // attacks"), all 1s: at most 8, no Spug (9) dies.
    let struck = (1..=16)
        .rev()
        .find(|&n| try_play(&mut s, 0, r#"{"strike":{}}"#, &vec![1; n]).is_ok());
    assert!(struck.is_some_and(|n| n < 9), "{struck:?}");
    step(&mut s, &[]);
    let living: Vec<GroupId> = [sec, sec2]
        .into_iter()
        .filter(|&g| s.group(g).alive_count() > 0)
        .collect();
    assert!(!living.is_empty());
    assert_eq!(
        asked_points(&s),
        living,
        "each losing group below, in group order"
    );
    for (i, g) in living.iter().enumerate() {
        let x = 1500 + 500 * i as i32;
        play(
            &mut s,
            0,
            &format!(r#"{{"choose_point":{{"to":{{"x":{x},"y":1500}}}}}}"#),
            &[],
        );
        assert_eq!(s.group(*g).place, Place::Table);
    }
    assert!(s.pending.is_empty());
    assert_eq!(s.group(sq).place, Place::Below);
}

#[test]
fn sewers_a_sudden_melee_below_includes_the_spugs_a_burrower_carries() {
    let (mut s, sec, sq) = given_a_meeting_below(false);
    let worm = below_at(&mut s, "w1", 30.0, 20.0);
    s.groups[sq as usize].place = Place::Carried(worm);
    s.groups[sq as usize].below_at = None;
    // Three more U.N.I.T. sections below: sixteen men.
    for id in ["s2", "s3", "s4"] {
        let g = gid(&s, id);
        below(&mut s, g, 40.0, 20.0);
    }
    let p = step(&mut s, &[]);
    let locked = p.events.iter().find_map(|e| match e {
        E::Locked {
            groups,
            below: true,
            ..
        } => Some(groups.clone()),
        _ => None,
    });
    let locked = locked.expect("a melee below");
    assert!(locked.contains(&sq) && locked.contains(&worm) && locked.contains(&sec));
    // The Burrower's 6D6 and the squad's 9D6.
    let p = step(&mut s, &[]);
    p.assert_says("Spugs 15D6");
    // The Spugs strike first: fifteen 1s, two men. U.N.I.T. answer.
    play(&mut s, 1, r#"{"strike":{}}"#, &[1; 15]);
    choose_casualties(&mut s);
    let p = play(&mut s, 0, r#"{"strike":{}}"#, &[]);
    assert!(!p.events.is_empty());
    choose_casualties(&mut s);
    step(&mut s, &[]);
    // Fourteen men against seven Spugs at most: the Spugs lose. The
    // Burrower is asked where it surfaces; its squad rides up with it.
    assert_eq!(
        asked_points(&s),
        vec![worm],
        "the carried squad is not asked"
    );
    play(&mut s, 1, &choose_point(2000, 1000), &[]);
    assert_eq!(s.group(worm).place, Place::Table);
    if s.group(sq).alive_count() > 0 {
        assert_eq!(s.group(sq).place, Place::Carried(worm));
        assert!(s.group(sq).locked.is_none());
    }
    assert!(s.pending.is_empty());
}
