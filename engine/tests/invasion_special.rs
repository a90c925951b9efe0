//! Rule text 000, "3. Special Actions", declared facts at a real table,
//! refusals, and `legal` against `decide`.

#[path = "support/bot.rs"]
mod bot;
#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use bot::random_battle;
use support::*;
use when::*;
use xenolog_engine::RuleErrorKind;
use xenolog_engine::games::invasion::model::Cover;
use xenolog_engine::games::invasion::state::{CardKind, InvasionEvent as E};
use xenolog_engine::games::invasion::{Invasion, InvasionConfig};

// ---- "3. Special Actions" -----------------------------------------------------------

#[test]
fn special_actions_roll_a_d6_per_figure_and_any_6_succeeds() {
    // The relic is dug up at (24,24), reach 2".
    let (mut s, [sec]) = given_at(&["unit", "daleks"], "s1 at 23,23");
    card(&mut s, 0, CardKind::Double);
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"special":{{"group":{sec},"action":"dig"}}}}"#),
        &[1, 2, 3, 5],
    );
    p.assert_says("U.N.I.T. 1st Squad, Section A try Dig up the relic: 1,2,3,5 (no 6: it fails)");
    assert!(s.achieved.is_empty());
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"special":{{"group":{sec},"action":"dig"}}}}"#),
        &[1, 6, 3, 6],
    );
    p.assert_says("(a 6: success)");
    assert_eq!(s.achieved, vec![(0, "dig".to_owned())]);
}

#[test]
fn special_actions_one_die_for_every_figure_helping() {
    let mut s = given(&["unit", "daleks"]);
    let sec = gid(&s, "s1");
    kill(&mut s, sec, 2);
    place(&mut s, sec, 23.0, 23.0);
    card(&mut s, 0, CardKind::Single);
    let e = refused(
        &mut s,
        0,
        &format!(r#"{{"special":{{"group":{sec},"action":"dig"}}}}"#),
        &[1, 1, 1],
    );
    assert_eq!(e.kind, RuleErrorKind::Dice, "two men roll two dice: {e}");
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"special":{{"group":{sec},"action":"dig"}}}}"#),
        &[1, 1],
    );
    assert!(p.any(|e| matches!(e, E::Attempted { dice, .. } if dice.len() == 2)));
}

#[test]
fn special_actions_at_the_place_of_the_action_only() {
    let (mut s, [sec]) = given_at(&["unit", "daleks"], "s1 at 10,10");
    card(&mut s, 0, CardKind::Single);
    when_seat(
        &mut s,
        0,
        &format!(r#"{{"special":{{"group":{sec},"action":"dig"}}}}"#),
    )
    .refused(
        "[Special Actions] U.N.I.T. 1st Squad, Section A is not at Dig up the relic (within 2\")",
    );
    when_seat(
        &mut s,
        0,
        &format!(r#"{{"special":{{"group":{sec},"action":"fly"}}}}"#),
    )
    .refused("[Special Actions] this scenario has no special action 'fly' (it has: dig)");
}

// ---- declared facts at a real table ------------------------------------------------------

#[test]
fn special_actions_something_new_or_odd_agreed_by_the_players_is_an_action_roll() {
    let mut s = given(&["unit", "daleks"]);
    let sec = gid(&s, "s1");
    card(&mut s, 0, CardKind::Double);
    let try_it = |what: &str| {
        format!(
            r#"{{"try":{{"group":{sec},"what":{}}}}}"#,
            serde_json::to_string(what).unwrap()
        )
    };
    // "common sense and a quick discussion between players should decide
    // whether to allow it. ... roll a D6 for every figure helping".
    let p = play(&mut s, 0, &try_it("hot-wire the milk float"), &[1, 2, 3, 4]);
    p.assert_says("U.N.I.T. 1st Squad, Section A try something new (hot-wire the milk float): 1,2,3,4 (no 6: it fails)");
    assert_eq!(s.actions_left(), 1, "it is an action");
    let p = play(
        &mut s,
        0,
        &try_it("  climb the water tower "),
        &[5, 6, 1, 1],
    );
    p.assert_says("(climb the water tower): 5,6,1,1 (a 6: success)");
    assert!(p.any(|e| matches!(e, E::Tried { success: true, .. })));
    // Words are needed, on one line, not too long.
    card(&mut s, 0, CardKind::Single);
    let e = refused(&mut s, 0, &try_it("   "), &[]);
    assert!(e.message.contains("say what the group attempts"), "{e}");
    let e = refused(&mut s, 0, &try_it("one\ntwo"), &[]);
    assert!(e.message.contains("one line"), "{e}");
    let e = refused(&mut s, 0, &try_it(&"x".repeat(121)), &[]);
    assert!(e.message.contains("at most 120 characters"), "{e}");
}

#[test]
fn real_table_base_contact_and_a_defended_position_are_declared_and_marked() {
    let (mut s, sec, dal) = daleks_at_a_real_table(CardKind::Double);
    let c = cmd(&format!(
        r#"{{"move":{{"group":{dal},"declare":{{"contact":{sec},"defends":"building"}}}}}}"#
    ));
    let words =
        xenolog_engine::games::invasion::describe::command(&s, xenolog_engine::Actor(1), &c);
    assert_eq!(
        words,
        "move Dalek Patrol Alpha at the table (declared: base contact with U.N.I.T. 1st Squad, Section A, defending a building)"
    );
    let p = try_play_cmd(&mut s, 1, &c, &[]).unwrap();
    p.assert_says("Daleks Dalek Patrol Alpha and U.N.I.T. 1st Squad, Section A locked in hand-to-hand; U.N.I.T. 1st Squad, Section A defend a building");
    assert_eq!(s.melees[0].defender, Some((sec, Cover::Building)));
}

#[test]
fn real_table_contact_with_a_friendly_group_is_refused() {
    let mut s = given_with(&["unit", "daleks"], false, true);
    let (d1, d2) = (gid(&s, "d1"), gid(&s, "d2"));
    card(&mut s, 1, CardKind::Single);
    when_seat(
        &mut s,
        1,
        &format!(r#"{{"move":{{"group":{d1},"declare":{{"contact":{d2}}}}}}}"#),
    )
    .refused_starting("[Hand-to-hand combat]");
}

// ---- refusals ---------------------------------------------------------------------------

#[test]
fn refusals_name_the_rule_and_change_nothing() {
    let (mut s, [sec, dal, _]) = given_at(
        &["unit", "daleks", "spugs"],
        "s1 at 10,20; d1 at 10,12; sq2 at 30,20",
    );
    card(&mut s, 0, CardKind::Single);
    let cases = [
        (move_to(dal, 1000, 1300), "[Actions]"),
        (
            r#"{"move":{"group":99,"to":{"x":1000,"y":1300}}}"#.to_string(),
            "[Actions]",
        ),
        (
            format!(r#"{{"shoot":{{"shooters":[],"target":{dal}}}}}"#),
            "[Shoot]",
        ),
        (group_order("study", sec), "[MiB]"),
        (group_order("burrow", sec), "[Spugs]"),
        (close_hole(sec, 99), "[Spugs]"),
        (
            format!(r#"{{"detonate":{{"group":{sec},"mite":"x"}}}}"#),
            "[Spugs]",
        ),
        (group_order("descend", sec), "[Sewers]"),
        (group_order("deploy", sec), "[Spugs]"),
        (
            r#"{"strike":{}}"#.to_owned(),
            "[Resolving hand-to-hand combat]",
        ),
        (r#"{"casualties":{"models":["x"]}}"#.to_owned(), "[Shoot]"),
    ];
    for (json, clause) in cases {
        let e = refused(&mut s, 0, &json, &[]);
        assert!(refusal(&e).starts_with(clause), "{json}: {}", refusal(&e));
        assert!(!e.message.is_empty());
    }
}

#[test]
fn refusals_after_the_battle_is_over() {
    let mut s = given(&["unit", "daleks"]);
    for g in 0..s.groups.len() {
        if s.groups[g].seat == 1 {
            kill(&mut s, g as u16, 10);
            s.groups[g].place = xenolog_engine::games::invasion::state::Place::Gone;
        }
    }
    let p = step(&mut s, &[]);
    p.assert_says("the battle is over: U.N.I.T. win (U.N.I.T.: Be the last faction on the table)");
    let e = refused(&mut s, 0, r#""end_card""#, &[]);
    assert_eq!(e.kind, RuleErrorKind::GameOver);
}

// ---- legal against decide ---------------------------------------------------------------

/// A battle played by picking among `legal` at random, checking at every
/// step that each listed command is accepted by `decide`.
fn walk(config: InvasionConfig, seed: u64, steps: usize) {
    let look = |st: &_, _: &_| assert_legal_accepted(st);
    random_battle::<Invasion>(seed, config, 0xbeef, steps, |_, _| true, look);
}

#[test]
fn legal_never_lists_a_command_decide_refuses_skirmish() {
    for seed in 0..3 {
        walk(
            InvasionConfig {
                scenario: "skirmish".into(),
                ..InvasionConfig::default()
            },
            seed,
            150,
        );
    }
}

#[test]
fn legal_never_lists_a_command_decide_refuses_crash_site_with_sewers() {
    walk(
        InvasionConfig {
            scenario: "crash_site".into(),
            sewers: true,
            rosters: Vec::new(),
            ..InvasionConfig::default()
        },
        5,
        150,
    );
}

#[test]
fn legal_never_lists_a_command_decide_refuses_at_a_real_table() {
    walk(
        InvasionConfig {
            scenario: "crash_site".into(),
            real_table: true,
            sewers: true,
            rosters: Vec::new(),
            ..InvasionConfig::default()
        },
        9,
        150,
    );
}
