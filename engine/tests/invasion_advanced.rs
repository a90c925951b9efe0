//! Advanced Invasion Earth (rule text 001) on Alien Invasion: the modules
//! chosen per battle, the random tables as data, and each clause of the
//! modules built so far (Stupidity, Fear), named after the clause. The
//! checks are steps of the game at the start of a faction's card; dice are
//! entered so every result of every table is reached.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::advanced::{FearEffect, Module, Order, StupidEffect, tables};
use xenolog_engine::games::invasion::state::{CardKind, GroupId, Place};
use xenolog_engine::games::invasion::{
    Invasion, InvasionConfig, InvasionEvent as E, InvasionState, describe, start,
};
use xenolog_engine::{Actor, Game, OptionKind};

/// A detachment of three stupid Ogrons (stupidity score 4) and a second one
/// of two: Xenolog's own illustration of a failed check ("Stupidity check
/// for the Ogron detachment: needs 4, rolls 2: Private Grunt is stricken: 3
/// CHARGE"). The text gives no worked example of stupidity: the Ogrons and
/// Private Grunt are not in it.
const OGRONS: &str = r#"
faction ogrons "Ogrons"
model ogron "Ogron" species ogron shoot 2 kill 9 12 15 stupid 4
model grunt "Private Grunt" species ogron shoot 2 kill 9 12 15 stupid 4
group o1 "Ogron detachment" grunt ogron ogron
group o2 "Ogron rearguard" ogron ogron
"#;

/// Ogrons (seat 0) against U.N.I.T. (seat 1), or U.N.I.T. (seat 0) against
/// the Daleks, on the proving ground, with these modules.
fn battle(factions: &[&str], stupidity: bool, fear: bool, real_table: bool) -> InvasionState {
    let config = InvasionConfig {
        scenario_text: Some(GROUND.to_owned()),
        factions: factions.iter().map(|f| (*f).to_owned()).collect(),
        faction_texts: vec![OGRONS.to_owned()],
        real_table,
        stupidity,
        fear,
        // the shipped Daleks' fear is Xenolog's assumed profile
        assumed_profiles: true,
        ..InvasionConfig::default()
    };
    let mut s = start(&config).unwrap_or_else(|e| panic!("setup: {e}"));
    if !real_table {
        park(&mut s);
    }
    s
}

fn ogrons() -> InvasionState {
    battle(&["ogrons", "unit"], true, false, false)
}

/// Given: the Ogron detachment o1 alone (o2 gone) at `(x, y)` inches, the
/// Ogrons' Single card turned: its Stupidity check comes next.
fn lone_detachment(x: f64, y: f64) -> (InvasionState, GroupId) {
    let mut s = ogrons();
    let o1 = gid(&s, "o1");
    let o2 = gid(&s, "o2");
    gone(&mut s, o2);
    place(&mut s, o1, x, y);
    card(&mut s, 0, CardKind::Single);
    (s, o1)
}

/// A card of `seat` comes up (a new one: its checks are due again).
fn next_card(s: &mut InvasionState, seat: u8, kind: CardKind) {
    s.round += 1;
    card(s, seat, kind);
}

/// The target of the shot among what was played.
fn shot_target(p: &Played) -> GroupId {
    p.events
        .iter()
        .find_map(|e| match e {
            E::Shot { target, .. } => Some(*target),
            _ => None,
        })
        .unwrap_or_else(|| panic!("a shot: {:#?}", p.words))
}

/// Remove a group from the table (killed outright).
fn gone(s: &mut InvasionState, g: GroupId) {
    let n = s.groups[g as usize].models.len();
    kill(s, g, n);
}

fn order(s: &InvasionState, g: GroupId) -> Option<Order> {
    s.advanced.order(g)
}

// --- the modules as options of a battle ----------------------------------

#[test]
fn advanced_each_module_is_an_option_of_the_battle_with_one_line_on_what_it_does() {
    let options = Invasion::options();
    for m in Module::ALL {
        let o = options
            .iter()
            .find(|o| o.key == m.key())
            .unwrap_or_else(|| panic!("no option {}", m.key()));
        assert_eq!(o.group, "Advanced Invasion Earth");
        assert_eq!(o.label, m.name());
        assert!(o.help.len() > 40, "{}", o.help);
        assert_eq!(o.kind, OptionKind::Flag { default: false });
    }
    let s = battle(&["ogrons", "unit"], true, true, false);
    assert_eq!(s.advanced.modules, [Module::Stupidity, Module::Fear]);
    let s = battle(&["ogrons", "unit"], false, false, false);
    assert!(s.advanced.modules.is_empty());
    // Without the module, stupid models take no check.
    let mut s = s;
    card(&mut s, 0, CardKind::Single);
    let words = steps(&mut s);
    assert!(!words.iter().any(|w| w.contains("Stupidity")), "{words:?}");
}

#[test]
fn advanced_tables_are_data_as_the_text_prints_them() {
    let t = tables();
    let stupid: Vec<(StupidEffect, &str)> = (1..=6).map(|r| t.stupid(r)).collect();
    assert_eq!(
        stupid,
        [
            (StupidEffect::Contagious, "STUPIDITY IS CONTAGIOUS"),
            (StupidEffect::KillEverybody, "KILL...EVERYBODY"),
            (StupidEffect::Charge, "CHARGE"),
            (StupidEffect::Awol, "AWOL"),
            (StupidEffect::Hide, "HIDE"),
            (StupidEffect::War, "WAR, WHAT IS IT GOOD FOR"),
        ]
    );
    let fear: Vec<FearEffect> = (1..=6).map(|r| t.fear(r).0).collect();
    assert_eq!(
        fear,
        [
            FearEffect::Brave,
            FearEffect::Brave,
            FearEffect::Brave,
            FearEffect::Freeze,
            FearEffect::RunAway,
            FearEffect::Insane
        ]
    );
    assert_eq!(t.fear(2).1, "BRAVE HEART, BRAVE MIND");
    assert_eq!(t.recover, 4);
    assert_eq!((t.perception, t.perception_leader), (6, 1));
}

#[test]
fn advanced_a_table_file_with_a_roll_missing_or_a_bad_effect_is_refused_in_words() {
    use xenolog_engine::games::invasion::advanced::TABLES_TEXT;
    use xenolog_engine::games::invasion::data::parse_tables;
    let e = parse_tables(&TABLES_TEXT.replace("stupidity 4 awol \"AWOL\"", "")).unwrap_err();
    assert!(e.to_string().contains("has no roll 4"), "{e}");
    let e = parse_tables(&TABLES_TEXT.replace("fear 4 freeze", "fear 4 faint")).unwrap_err();
    assert!(
        e.to_string().contains("'faint' is not a fear effect"),
        "{e}"
    );
}

// --- Stupidity -------------------------------------------------------------

#[test]
fn stupidity_a_check_at_the_start_of_the_card_passed_on_the_score_leaves_the_detachment_in_hand() {
    let (mut s, o1) = lone_detachment(10.0, 10.0);
    // The card's player is not asked before the check is made.
    assert!(Invasion::automatic(&s).is_some());
    let p = step(&mut s, &[4]);
    p.assert_says("Stupidity check for Ogrons Ogron detachment: needs 4, rolls 4: passed");
    assert_eq!(order(&s, o1), None);
    assert!(
        Invasion::automatic(&s).is_none(),
        "the player plays the card"
    );
    assert!(s.may_act(o1));
    // One check a card: none is due again.
    assert!(!p.says("is stricken"));
}

#[test]
fn stupidity_a_failed_check_strikes_a_model_who_rolls_on_the_table_illustrated_needs_4_rolls_2_then_3_charge()
 {
    let (mut s, o1) = lone_detachment(10.0, 10.0);
    let [s1] = placed(&mut s, "s1 at 10,20");
    assert_eq!(
        describe::command(&s, Actor::SYSTEM, &Invasion::automatic(&s).unwrap()),
        "tests at the start of the Ogrons Single card"
    );
    let p = step(&mut s, &[2, 3]);
    assert_eq!(
        describe::command(&s, Actor::SYSTEM, &Invasion::automatic(&s).unwrap()),
        "makes Ogrons Ogron detachment do what it must"
    );
    assert_eq!(
        p.words[..3],
        [
            "Stupidity check for Ogrons Ogron detachment: needs 4, rolls 2: failed",
            "Private Grunt 1 is stricken: 3 CHARGE",
            "Ogrons Ogron detachment moves its full move at U.N.I.T. 1st Squad, Section A and assaults it if it gets there",
        ]
    );
    assert_eq!(order(&s, o1), Some(Order::Charge(s1)));
    // The charge is the game's: the player may not give the group orders.
    assert!(!s.may_act(o1));
    let e = refused(
        &mut s,
        0,
        r#"{"move":{"group":0,"to":{"x":1000,"y":500}}}"#,
        &[],
    );
    assert_refusal_says(&e, "step of its own");
    let before = lead_at(&s, o1);
    let p = step(&mut s, &[]);
    p.assert_says("has done what it was made to do");
    let after = lead_at(&s, o1);
    assert_eq!(after.x, before.x);
    assert_eq!(after.y - before.y, 800, "its full 8\" towards the enemy");
}

#[test]
fn stupidity_charge_a_model_that_reaches_the_enemy_assaults_it() {
    let (mut s, o1) = lone_detachment(10.0, 10.0);
    let [s1] = placed(&mut s, "s1 at 10,16");
    step(&mut s, &[1, 3]);
    step(&mut s, &[]);
    assert!(s.group(o1).locked.is_some(), "locked in hand-to-hand");
    assert_eq!(s.group(o1).locked, s.group(s1).locked);
}

#[test]
fn stupidity_kill_everybody_fires_at_the_nearest_group_friend_or_foe() {
    let mut s = ogrons();
    let [o1, o2, _] = placed(&mut s, "o1 at 10,10; o2 at 10,14; s1 at 10,20");
    card(&mut s, 0, CardKind::Single);
    // o1 fails (2) and rolls 2; o2 passes (5).
    let p = step(&mut s, &[2, 2, 5]);
    p.assert_says("Private Grunt 1 is stricken: 2 KILL...EVERYBODY");
    assert_eq!(order(&s, o1), Some(Order::KillEverybody));
    // Three Ogrons at 2D6 each: all ones, no kill.
    let p = step(&mut s, &[1, 1, 1, 1, 1, 1]);
    assert_eq!(
        shot_target(&p),
        o2,
        "its own rearguard, the nearest: {:#?}",
        p.words
    );
    // It costs none of the card's actions: the rearguard may still act.
    assert_eq!(s.actions_left(), 1);
    assert!(s.may_act(o2) && !s.may_act(o1));
}

#[test]
fn stupidity_awol_runs_for_the_nearest_table_edge_and_off_it() {
    let (mut s, o1) = lone_detachment(24.0, 5.0);
    step(&mut s, &[1, 4]);
    assert_eq!(order(&s, o1), Some(Order::Awol));
    let p = step(&mut s, &[]);
    p.assert_says("runs off the table, never to be seen again");
    assert_eq!(s.group(o1).place, Place::Gone);

    // Far from every edge, it moves its full move towards the nearest.
    let (mut s, o1) = lone_detachment(20.0, 24.0);
    step(&mut s, &[1, 4]);
    step(&mut s, &[]);
    assert_eq!(lead_at(&s, o1), pt(12.0, 24.0), "8\" towards the left edge");
    assert_eq!(s.group(o1).place, Place::Table);
}

/// "AWOL ... If it reaches the table edge it will keep on running, and
/// never be seen again" with Sighting a Target ("Line of sight will be
/// blocked by intervening groups", judged as the card began; review15
/// MUST 2): the Ogron detachment stands across the line from U.N.I.T.'s
/// section A to the Ogron rearguard, goes AWOL and runs off the table. On
/// U.N.I.T.'s next card section B moves (the table no longer stands as the
/// card began), then section A fires at the rearguard: the detachment is
/// gone and blocked nothing when the card began, so the shot is made
/// (until this mend its living figures, never seen again, still stood
/// where they ran from, and the shot was refused as not sighted).
#[test]
fn stupidity_awol_a_detachment_that_ran_off_the_table_blocks_no_line_afterwards() {
    let mut s = battle(&["ogrons", "unit"], true, false, false);
    s.advanced.modules.push(Module::Sighting);
    let [o1, o2, a, b] = placed(&mut s, "o1 at 41,20; o2 at 42,28; s1 at 42,11; s2 at 20,10");
    put(&mut s, o2, 1, 42.0, 29.1);
    for (i, y) in [11.0, 12.1, 13.2, 14.3].into_iter().enumerate() {
        put(&mut s, a, i, 42.0, y);
    }
    seat_cards(
        &mut s,
        &[
            (1, CardKind::Single),
            (0, CardKind::Single),
            (1, CardKind::Double),
        ],
    );
    let fire = shoot(&[a], o2);
    assert_refusal_says(
        &refused(&mut s, 1, &fire, &[1; 8]),
        "line of sight is blocked",
    );
    play(&mut s, 1, r#""end_card""#, &[]);
    // The detachment fails (1) and rolls 4, AWOL; the rearguard passes (5).
    step(&mut s, &[1, 4, 5]);
    assert_eq!(order(&s, o1), Some(Order::Awol));
    let p = step(&mut s, &[]);
    p.assert_says("runs off the table, never to be seen again");
    assert_eq!(s.group(o1).place, Place::Gone);
    assert_eq!(alive(&s, o1), 3);
    play(&mut s, 0, r#""end_card""#, &[]);
    assert_eq!(s.card().map(|c| c.seat), Some(Some(1)));
    play(&mut s, 1, &mv(b, 20.0, 12.0), &[]);
    play(&mut s, 1, &fire, &[1; 8]);
}

#[test]
fn stupidity_hide_in_cover_the_model_hides_with_nothing_to_hide_behind_it_goes_awol() {
    // In the wood: it hides (does nothing on this card).
    let (mut s, o1) = lone_detachment(5.0, 32.0);
    step(&mut s, &[1, 5]);
    assert_eq!(order(&s, o1), Some(Order::Nothing));
    // In the open: AWOL.
    let (mut s, o1) = lone_detachment(20.0, 20.0);
    step(&mut s, &[1, 5]);
    assert_eq!(order(&s, o1), Some(Order::Awol));
}

#[test]
fn stupidity_war_what_is_it_good_for_the_detachment_does_nothing_this_card() {
    let mut s = ogrons();
    let [o1, o2] = placed(&mut s, "o1 at 10,10; o2 at 30,10");
    card(&mut s, 0, CardKind::Double);
    let p = step(&mut s, &[3, 6, 4]);
    p.assert_says("Private Grunt 1 is stricken: 6 WAR, WHAT IS IT GOOD FOR");
    p.assert_says("Ogrons Ogron detachment does nothing on this card");
    let e = refused(&mut s, 0, &move_to(o1, 1000, 1500), &[]);
    assert_refusal_says(
        &e,
        "Ogrons Ogron detachment is out of its player's hands on this card",
    );
    // The rearguard passed (4): it moves.
    play(&mut s, 0, &move_to(o2, 3000, 1500), &[]);
    // Ending the card lifts the order.
    play(&mut s, 0, r#""end_card""#, &[]);
    assert!(s.advanced.orders.is_empty());
}

#[test]
fn stupidity_is_contagious_chaining_twice() {
    let (mut s, o1) = lone_detachment(10.0, 10.0);
    // Check 1 (fails); Grunt rolls 1 (contagious), 1 other; Ogron 2 rolls 1
    // (contagious again), 1 other; Ogron 3 rolls 6 (war).
    let p = step(&mut s, &[1, 1, 1, 1, 1, 6]);
    let stricken: Vec<(u16, u8)> = p
        .events
        .iter()
        .filter_map(|e| match e {
            E::Stricken { model, roll, .. } => Some((*model, *roll)),
            _ => None,
        })
        .collect();
    assert_eq!(stricken, [(0, 1), (1, 1), (2, 6)]);
    p.assert_says("stupidity is contagious: rolls 1, Ogron 2 now suffers");
    p.assert_says("stupidity is contagious: rolls 1, Ogron 3 now suffers");
    assert_eq!(s.advanced.stricken.len(), 3);
    assert_eq!(order(&s, o1), Some(Order::Nothing));
}

#[test]
fn stupidity_contagion_runs_out_of_models_to_strike() {
    let (mut s, _) = lone_detachment(10.0, 10.0);
    // Contagious with 6 others: only two are left; both roll WAR.
    let p = step(&mut s, &[1, 1, 6, 6, 6]);
    p.assert_says("stupidity is contagious: rolls 6, Ogron 2, Ogron 3 now suffer");
    assert_eq!(s.advanced.stricken.len(), 3);
}

#[test]
fn stupidity_recovery_a_stricken_model_tests_next_card_1_to_3_still_stupid_4_to_6_recovered() {
    let (mut s, o1) = lone_detachment(10.0, 10.0);
    step(&mut s, &[1, 6]);
    // Its only group doing nothing, the card ends by itself.
    let p = step(&mut s, &[]);
    assert!(p.events.contains(&E::CardDone));
    // The next card: Private Grunt rolls 3, still stupid, and rolls on the
    // table again (war); no detachment check while one is stupid.
    next_card(&mut s, 0, CardKind::Single);
    let p = step(&mut s, &[3, 6]);
    p.assert_says("Private Grunt 1 tries to recover its senses: rolls 3: still stupid");
    p.assert_says("Private Grunt 1 is stricken: 6 WAR");
    assert!(!p.says("Stupidity check"));
    step(&mut s, &[]);
    // Then a 4: recovered, and the detachment takes its check as usual.
    next_card(&mut s, 0, CardKind::Single);
    let p = step(&mut s, &[4, 5]);
    p.assert_says("Private Grunt 1 tries to recover its senses: rolls 4: recovered");
    p.assert_says("Stupidity check for Ogrons Ogron detachment: needs 4, rolls 5: passed");
    assert!(s.advanced.stricken.is_empty());
    assert_eq!(order(&s, o1), None);
}

#[test]
fn stupidity_one_die_for_each_detachment() {
    let mut s = ogrons();
    let [_, _] = placed(&mut s, "o1 at 10,10; o2 at 30,10");
    card(&mut s, 0, CardKind::Single);
    let p = step(&mut s, &[4, 5]);
    let checks = p.count(|e| matches!(e, E::StupidityCheck { .. }));
    assert_eq!(checks, 2, "one roll per detachment, not per model");
    // Too few dice typed in: the step asks for more, and nothing changes.
    let mut s2 = ogrons();
    let [_, _] = placed(&mut s2, "o1 at 10,10; o2 at 30,10");
    card(&mut s2, 0, CardKind::Single);
    let before = s2.clone();
    let c = Invasion::automatic(&s2).unwrap();
    assert!(try_play_cmd(&mut s2, 255, &c, &[4]).is_err());
    assert_eq!(s2, before);
}

#[test]
fn stupidity_at_a_real_table_the_players_make_the_charge_and_nothing_else() {
    let mut s = battle(&["ogrons", "unit"], true, false, true);
    let o1 = gid(&s, "o1");
    let o2 = gid(&s, "o2");
    gone(&mut s, o2);
    card(&mut s, 0, CardKind::Single);
    step(&mut s, &[2, 3]);
    assert!(matches!(order(&s, o1), Some(Order::Charge(_))));
    // The game does not move miniatures: the player does, and only that.
    assert!(Invasion::automatic(&s).is_none());
    when_seat(&mut s, 0, &group_order("study", o1)).refused_starting("[Stupidity]");
    let p = play(&mut s, 0, &group_order("move", o1), &[]);
    p.assert_says("has done what it was made to do");
    assert_eq!(order(&s, o1), Some(Order::Nothing));
}

// --- Fear ------------------------------------------------------------------

/// U.N.I.T.'s 1st Squad, Section A at (10,10) facing the Dalek Patrol Alpha
/// at (10,20); every other group off the table.
fn facing_daleks() -> (InvasionState, GroupId, GroupId) {
    let mut s = battle(&["unit", "daleks"], false, true, false);
    let (s1, d1) = (gid(&s, "s1"), gid(&s, "d1"));
    for g in 0..s.groups.len() as GroupId {
        if g != s1 && g != d1 {
            gone(&mut s, g);
        }
    }
    place(&mut s, s1, 10.0, 10.0);
    place(&mut s, d1, 10.0, 20.0);
    card(&mut s, 0, CardKind::Single);
    (s, s1, d1)
}

#[test]
fn fear_a_1_to_3_brave_heart_brave_mind_and_no_further_fear_tests_this_game() {
    let (mut s, s1, _) = facing_daleks();
    let p = step(&mut s, &[2]);
    p.assert_says(
        "Fear test for U.N.I.T. 1st Squad, Section A facing Daleks Dalek Patrol Alpha: rolls 2: BRAVE HEART, BRAVE MIND",
    );
    assert_eq!(order(&s, s1), None);
    assert!(s.may_act(s1));
    play(&mut s, 0, r#""end_card""#, &[]);
    next_card(&mut s, 0, CardKind::Single);
    assert!(
        Invasion::automatic(&s).is_none(),
        "no further fear tests this game"
    );
}

#[test]
fn fear_a_4_freeze_the_group_misses_its_turn() {
    let (mut s, s1, _) = facing_daleks();
    // A second section beside it tests too, and keeps its nerve.
    let s2 = gid(&s, "s2");
    s.groups[s2 as usize]
        .models
        .iter_mut()
        .for_each(|m| m.alive = true);
    place(&mut s, s2, 16.0, 10.0);
    let p = step(&mut s, &[4, 1]);
    p.assert_says("rolls 4: FREEZE");
    assert_eq!(order(&s, s1), Some(Order::Nothing));
    assert_eq!(order(&s, s2), None);
    let e = refused(&mut s, 0, &move_to(s1, 1000, 500), &[]);
    assert!(refusal(&e).starts_with("[Fear]"), "{}", refusal(&e));
    assert!(!is_legal(&s, &group_order("study", s1)));
    play(&mut s, 0, r#""end_card""#, &[]);
    // Not a 1-3: it tests again on its next card; the brave one does not.
    next_card(&mut s, 0, CardKind::Single);
    let p = step(&mut s, &[3]);
    assert_eq!(p.count(|e| matches!(e, E::FearTest { .. })), 1);
    assert!(s.advanced.fearless.contains(&s1) && s.advanced.fearless.contains(&s2));
}

#[test]
fn fear_a_5_run_away_moves_fast_in_the_opposite_direction() {
    let (mut s, s1, d1) = facing_daleks();
    step(&mut s, &[5]);
    assert_eq!(order(&s, s1), Some(Order::RunFrom(d1)));
    let before = lead_at(&s, s1);
    step(&mut s, &[]);
    let after = lead_at(&s, s1);
    assert!(
        after.y < before.y,
        "away from the Daleks: {before:?} -> {after:?}"
    );
    assert!(after.y >= 50, "it stops at the table's edge");
}

/// A jeep crewed by men (a ground vehicle: it has a facing).
const MOTOR: &str = r#"
faction motor "Motor Pool"
model jeep "Jeep" species human shoot 2 move 12 kill 9 12 15 vehicle road
group j1 "Jeep" jeep
"#;

/// Text 001, line 397: "If the afflicted model/s has to turn first, then
/// this is all it/ they can do."
#[test]
fn fear_a_5_run_away_a_model_that_has_to_turn_first_turns_and_that_is_all() {
    let mut s = given_on_ground(
        &["motor", "daleks"],
        &[MOTOR],
        &["fear", "assumed_profiles"],
    );
    let (j1, d1) = (gid(&s, "j1"), gid(&s, "d1"));
    for g in 0..s.groups.len() as GroupId {
        if g != j1 && g != d1 {
            gone(&mut s, g);
        }
    }
    // Straight above the middle of the Dalek patrol (10, 11.1, 12.2).
    place(&mut s, j1, 11.1, 10.0);
    place(&mut s, d1, 10.0, 20.0);
    // Facing the Daleks (90: towards the bottom edge).
    s.groups[j1 as usize].facing = Some(90);
    card(&mut s, 0, CardKind::Single);
    step(&mut s, &[5]);
    assert_eq!(order(&s, j1), Some(Order::RunFrom(d1)));
    let p = step(&mut s, &[]);
    assert_eq!(lead_at(&s, j1), pt(11.1, 10.0), "{:#?}", p.words);
    assert_eq!(s.group(j1).facing, Some(270), "{:#?}", p.words);
    p.assert_says("Motor Pool Jeep has done what it was made to do");
    // Its next card, facing away already: it runs (to the table's edge).
    // (The card ends by itself: nothing of the faction may act on it.)
    step(&mut s, &[]);
    next_card(&mut s, 0, CardKind::Single);
    step(&mut s, &[5]);
    step(&mut s, &[]);
    assert_eq!(lead_at(&s, j1), pt(11.1, 0.5));
    assert_eq!(s.group(j1).facing, Some(270));
}

#[test]
fn fear_a_6_insane_with_fear_assaults_the_model_that_caused_it() {
    let (mut s, s1, d1) = facing_daleks();
    place(&mut s, d1, 10.0, 16.0);
    step(&mut s, &[6]);
    assert_eq!(order(&s, s1), Some(Order::Charge(d1)));
    step(&mut s, &[]);
    assert!(s.group(s1).locked.is_some() && s.group(s1).locked == s.group(d1).locked);
}

/// A stupid detachment facing a frightening enemy: when the stupidity
/// check gives it an order, it takes no fear test on that card (assumed:
/// it is already out of its player's hands); when it passes, the fear test
/// follows.
#[test]
fn fear_a_group_under_a_stupidity_result_takes_no_fear_test_on_that_card() {
    let mut s = battle(&["ogrons", "daleks"], true, true, false);
    // These Daleks frighten Ogrons too.
    for t in &mut s.factions[1].models {
        if let Some(f) = &mut t.profile.fear {
            f.species.push("ogron".into());
        }
    }
    let (o1, d1) = (gid(&s, "o1"), gid(&s, "d1"));
    for g in 0..s.groups.len() as GroupId {
        if g != o1 && g != d1 {
            gone(&mut s, g);
        }
    }
    place(&mut s, o1, 10.0, 10.0);
    place(&mut s, d1, 10.0, 20.0);
    card(&mut s, 0, CardKind::Single);
    // Stupidity: needs 4, rolls 2, stricken: 6 WAR, WHAT IS IT GOOD FOR.
    let p = step(&mut s, &[2, 6]);
    p.assert_says("Private Grunt 1 is stricken: 6 WAR, WHAT IS IT GOOD FOR");
    assert!(
        !p.any(|e| matches!(e, E::FearTest { .. })),
        "{:#?}",
        p.words
    );
    assert_eq!(order(&s, o1), Some(Order::Nothing));
    assert!(!s.advanced.fearless.contains(&o1));
    // The card ends by itself: nothing of the faction may act on it.
    step(&mut s, &[]);
    // Next card: the grunt recovers (4), the detachment passes (5), and
    // then the fear test (2: brave).
    next_card(&mut s, 0, CardKind::Single);
    let p = step(&mut s, &[4, 5, 2]);
    let kinds: Vec<&str> = p
        .events
        .iter()
        .filter_map(|e| match e {
            E::Recovery { .. } => Some("recovery"),
            E::StupidityCheck { .. } => Some("stupidity"),
            E::FearTest { .. } => Some("fear"),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, ["recovery", "stupidity", "fear"], "{:#?}", p.words);
    p.assert_says("BRAVE HEART, BRAVE MIND");
    assert!(s.advanced.fearless.contains(&o1));
}

#[test]
fn fear_line_of_sight_required_no_test_behind_the_house() {
    let (mut s, s1, d1) = facing_daleks();
    // The house (30-36, 30-36) blocks sight between them.
    place(&mut s, s1, 25.0, 33.0);
    place(&mut s, d1, 40.0, 33.0);
    assert!(
        Invasion::automatic(&s).is_none(),
        "no fear test out of sight"
    );
    // In sight: the test.
    place(&mut s, d1, 25.0, 40.0);
    assert!(Invasion::automatic(&s).is_some());
}

#[test]
fn fear_only_in_whom_the_profile_says() {
    // Daleks cause fear in humans: a Dalek patrol facing another takes none.
    let mut s = battle(&["daleks", "daleks"], false, true, false);
    let groups: Vec<GroupId> = (0..s.groups.len() as GroupId).collect();
    place(&mut s, groups[0], 10.0, 10.0);
    card(&mut s, 0, CardKind::Single);
    assert!(Invasion::automatic(&s).is_none());
}

#[test]
fn advanced_every_check_and_order_replays_from_the_seed_and_legal_commands_are_accepted() {
    use xenolog_engine::Session;
    let config = ground_config(&["ogrons", "unit"], &[OGRONS], &["stupidity", "fear"]);
    let mut saw_check = false;
    for seed in 0..6 {
        let mut b = Session::<Invasion>::new(seed, config.clone()).unwrap();
        let mut bot = xenolog_engine::rng::Randomness::new(seed, 0, None);
        for _ in 0..300 {
            b.play_due().unwrap();
            if Invasion::outcome(b.state()).is_some() {
                break;
            }
            assert_legal_accepted(b.state());
            let legal = Invasion::legal(b.state());
            let (actor, c) = legal[bot.pick(legal.len())].clone();
            b.play(actor, &c, None).unwrap();
        }
        let line = <Session<Invasion> as xenolog_engine::Battle>::path_to(&b, b.cursor());
        saw_check |= <Session<Invasion> as xenolog_engine::Battle>::entry_texts(&b, &line)
            .iter()
            .any(|t| {
                t.events
                    .iter()
                    .any(|e| e.starts_with("Stupidity check for "))
            });
        assert!(b.verify().ok(), "seed {seed}: {:?}", b.verify());
    }
    assert!(saw_check, "the bot's battles took stupidity checks");
}

// --- Grapple, Impetuous, Primitive Weapons -----------------------------------

/// Beasts that grapple (a victim escapes on 5+), savages who are impetuous
/// and carry spears (primitive weapons), with one rifle among them.
const BEASTS: &str = r#"
faction beasts "Beasts"
model beast  "Beast"   species beast shoot 0 melee 4 kill 9 12 15 grapple 5
model savage "Savage"  species human shoot 1 kill 6 9 12 impetuous weapon primitive
model hunter "Hunter"  species human shoot 1 kill 6 9 12
group b1 "Beast pair" beast beast
group v1 "Savage band" savage savage savage hunter
group v2 "Spear line" savage savage
model golem  "Golem"   species golem shoot 2 kill 12 15 18 unstoppable
group g1 "Golem" golem
model wing "Winged Horror" species horror shoot 2 kill 9 12 15 fly 12
group w1 "Winged Horror" wing
"#;

fn beasts(factions: &[&str], grapple: bool, impetuous: bool, primitive: bool) -> InvasionState {
    beasts_with(
        factions,
        InvasionConfig {
            grapple,
            impetuous,
            primitive_weapons: primitive,
            ..InvasionConfig::default()
        },
    )
}

fn beasts_with(factions: &[&str], modules: InvasionConfig) -> InvasionState {
    let config = InvasionConfig {
        scenario_text: Some(GROUND.to_owned()),
        factions: factions.iter().map(|f| (*f).to_owned()).collect(),
        faction_texts: vec![BEASTS.to_owned()],
        laying_in_wait: true,
        ..modules
    };
    let mut s = start(&config).unwrap_or_else(|e| panic!("setup: {e}"));
    park(&mut s);
    s
}

/// The Beast pair charges U.N.I.T.'s section on a Double card and, in the
/// melee at its end, makes 2 kills to none.
fn grappled() -> (InvasionState, GroupId, GroupId) {
    charged(true, 0)
}

/// The charger (seat 0: the Beast pair; seat 1: U.N.I.T.'s section) charges
/// the other on its Double card; in the melee at the card's end the Beasts
/// make 2 kills to none. With or without the Grapple module.
fn charged(grapple: bool, seat: u8) -> (InvasionState, GroupId, GroupId) {
    let mut s = beasts(&["beasts", "unit"], grapple, false, false);
    let (b1, s1) = (gid(&s, "b1"), gid(&s, "s1"));
    let (charger, target) = if seat == 0 { (b1, s1) } else { (s1, b1) };
    place(&mut s, target, 20.0, 11.1);
    place(&mut s, charger, 20.0, 6.0);
    card(&mut s, seat, CardKind::Double);
    play(&mut s, seat, &move_to(charger, 2000, 1000), &[]);
    assert!(s.group(charger).locked.is_some());
    play(&mut s, seat, r#""end_card""#, &[]);
    step(&mut s, &[]);
    // 14 against 6: two men fall; U.N.I.T.'s 8 against 9: no Beast.
    play(&mut s, 0, r#"{"strike":{}}"#, &[2, 2, 2, 2, 2, 2, 1, 1]);
    let two: Vec<String> = figures(&s, s1)[..2].to_vec();
    play(&mut s, 1, &casualties(&two), &[]);
    play(&mut s, 1, r#"{"strike":{}}"#, &[1; 8]);
    (s, b1, s1)
}

#[test]
fn grapple_a_grappler_that_wins_the_assault_in_its_own_turn_holds_its_victim() {
    let (mut s, b1, s1) = grappled();
    let p = step(&mut s, &[]);
    p.assert_says(
        "Beasts Beast pair wins the melee on its own card (2 kills to 0) and holds its victims in its grapple: they do nothing unless they escape on 5 or more",
    );
    // Held: no falling back, the melee goes on.
    assert!(!p.any(|e| matches!(e, E::Moved { .. })));
    assert!(s.group(s1).locked.is_some() && s.group(b1).locked.is_some());
    assert_eq!(s.advanced.grapples.len(), 1);
}

#[test]
fn grapple_a_victim_that_does_not_escape_does_nothing_and_one_that_does_may_act() {
    let (mut s, _, s1) = grappled();
    step(&mut s, &[]);
    // "This roll is made during the victims own turn": U.N.I.T.'s card.
    next_card(&mut s, 1, CardKind::Single);
    let p = step(&mut s, &[4]);
    p.assert_says(
        "U.N.I.T. 1st Squad, Section A tries to escape the grapple: needs 5, rolls 4: still held, it does nothing on this card",
    );
    assert!(!s.may_act(s1));
    when_seat(
        &mut s,
        1,
        &format!(r#"{{"shoot":{{"shooters":[{s1}],"target":0}}}}"#),
    )
    .dice(&[1; 8])
    .refused_starting("[Grapple]");
    play(&mut s, 1, r#""end_card""#, &[]);
    // Next card of theirs: a 5 escapes, and the group may act at once.
    next_card(&mut s, 1, CardKind::Single);
    let p = step(&mut s, &[5]);
    p.assert_says("needs 5, rolls 5: escapes and may act");
    assert!(s.group(s1).locked.is_none());
    assert!(s.melees.is_empty());
    assert!(s.may_act(s1));
}

#[test]
fn grapple_only_in_the_grapplers_own_turn_and_only_with_the_module() {
    // Without the module the melee ends as Alien Invasion's do.
    let (mut s, _, _) = charged(false, 0);
    let p = step(&mut s, &[]);
    assert!(!p.says("grapple"), "{:#?}", p.words);
    assert!(s.melees.is_empty());
    // "A model is only able to perform a grapple during it's own turn (i.e.
    // not if it is the target of an assault)": U.N.I.T. charges the Beasts.
    let (mut s, _, _) = charged(true, 1);
    let p = step(&mut s, &[]);
    assert!(!p.says("grapple"), "{:#?}", p.words);
    assert!(s.advanced.grapples.is_empty());
}

#[test]
fn impetuous_models_move_their_maximum_towards_the_nearest_enemy_they_can_see() {
    let mut s = beasts(&["beasts", "unit"], false, true, false);
    let (v1, s1) = (gid(&s, "v1"), gid(&s, "s1"));
    for g in 0..s.groups.len() as GroupId {
        if g != v1 && g != s1 {
            gone(&mut s, g);
        }
    }
    place(&mut s, v1, 20.0, 6.0);
    place(&mut s, s1, 20.0, 20.0);
    card(&mut s, 0, CardKind::Single);
    let p = step(&mut s, &[]);
    p.assert_says(
        "Beasts Savage band moves its full move at U.N.I.T. 1st Squad, Section A and assaults it if it gets there, or fires at it if not",
    );
    assert_eq!(order(&s, v1), Some(Order::ChargeOrFire(s1)));
    let before = lead_at(&s, v1);
    step(&mut s, &[1, 1, 1, 1]);
    let after = lead_at(&s, v1);
    assert_eq!(before.distance(after), 800, "its maximum move");
    // "Impetuous models cannot use 'lay in wait'" (the band out of sight
    // of any enemy, behind the house: no charge is due).
    let mut s = beasts(&["beasts", "unit"], false, true, false);
    for g in 0..s.groups.len() as GroupId {
        if g != v1 && g != s1 {
            gone(&mut s, g);
        }
    }
    place(&mut s, v1, 31.0, 27.0);
    place(&mut s, s1, 31.0, 40.0);
    card(&mut s, 0, CardKind::Single);
    assert!(Invasion::automatic(&s).is_none());
    let e = refused(&mut s, 0, &group_order("lay_in_wait", v1), &[]);
    assert_refusal_says(&e, "is impetuous");
}

/// The review's finding: the text's "assault or fire at" was built as a
/// charge only. An impetuous group with missile weapons moves its maximum
/// at the nearest enemy it sees and, if it does not get there, fires at it;
/// one that gets there assaults; one with no shooting dice only charges.
#[test]
fn impetuous_models_will_assault_or_fire_at_their_target_at_the_earliest_opportunity() {
    let alone = |s: &mut InvasionState, keep: &[GroupId]| {
        for g in 0..s.groups.len() as GroupId {
            if !keep.contains(&g) {
                gone(s, g);
            }
        }
    };
    // Out of reach (14" away, an 8" move): it moves 8" and fires its four
    // dice (three spears and a rifle) at the section, a free shot.
    let mut s = beasts(&["beasts", "unit"], false, true, false);
    let (v1, s1, b1) = (gid(&s, "v1"), gid(&s, "s1"), gid(&s, "b1"));
    alone(&mut s, &[v1, s1]);
    place(&mut s, v1, 20.0, 6.0);
    place(&mut s, s1, 20.0, 20.0);
    card(&mut s, 0, CardKind::Single);
    step(&mut s, &[]);
    assert_eq!(order(&s, v1), Some(Order::ChargeOrFire(s1)));
    let p = step(&mut s, &[6, 6, 1, 1]);
    assert_eq!(
        lead_at(&s, v1).distance(pt(20.0, 14.0)),
        0,
        "{:#?}",
        p.words
    );
    assert!(s.group(v1).locked.is_none());
    p.assert_says("4D6 at U.N.I.T. 1st Squad, Section A");
    assert!(p.any(|e| matches!(e, E::Shot { .. })), "{:#?}", p.words);
    p.assert_says("Beasts Savage band has done what it was made to do");
    // 14 against 6 in the open: two kills, chosen by U.N.I.T.'s player; the
    // card's single action is still the player's.
    assert!(!s.pending.is_empty());
    assert_eq!(s.actions_left(), 1);
    assert_eq!(order(&s, v1), Some(Order::Nothing));

    // Within reach (6" away): it runs into contact and assaults; no shot.
    let mut s = beasts(&["beasts", "unit"], false, true, false);
    alone(&mut s, &[v1, s1]);
    place(&mut s, v1, 20.0, 6.0);
    place(&mut s, s1, 20.0, 12.0);
    card(&mut s, 0, CardKind::Single);
    step(&mut s, &[]);
    let p = step(&mut s, &[]);
    assert!(s.group(v1).locked.is_some(), "{:#?}", p.words);
    assert!(!p.any(|e| matches!(e, E::Shot { .. })), "{:#?}", p.words);

    // No shooting dice (the Beast pair made impetuous): a charge alone.
    let mut s = beasts(&["beasts", "unit"], false, true, false);
    alone(&mut s, &[b1, s1]);
    for t in &mut s.factions[0].models {
        if t.id == "beast" {
            t.profile.impetuous = true;
        }
    }
    place(&mut s, b1, 20.0, 6.0);
    place(&mut s, s1, 20.0, 20.0);
    card(&mut s, 0, CardKind::Single);
    step(&mut s, &[]);
    assert_eq!(order(&s, b1), Some(Order::Charge(s1)));
    let p = step(&mut s, &[]);
    assert!(!p.any(|e| matches!(e, E::Shot { .. })), "{:#?}", p.words);
    assert_eq!(lead_at(&s, b1).distance(pt(20.0, 14.0)), 0);
}

#[test]
fn primitive_weapons_are_incapable_of_causing_any_damage_against_armoured_models() {
    let mut s = beasts(&["beasts", "daleks"], false, false, true);
    let [v1, v2, d1] = placed(&mut s, "v1 at 20,6; v2 at 30,6; d1 at 20,20");
    card(&mut s, 0, CardKind::Double);
    // Three spears and a rifle: the rifle's die alone is rolled.
    let p = play(&mut s, 0, &shoot(&[v1], d1), &[6]);
    p.assert_says(
        "the primitive weapons of Beasts Savage band cannot harm Daleks Dalek Patrol Alpha (3 dice not rolled)",
    );
    p.assert_says("1D6 at Daleks Dalek Patrol Alpha");
    // Spears alone cannot shoot at a Dalek at all.
    when_seat(&mut s, 0, &shoot(&[v2], d1))
        .dice(&[6, 6])
        .refused("[Primitive Weapons] the primitive weapons of Beasts Spear line cannot harm Daleks Dalek Patrol Alpha");
    // "although it can still be deadly against humans".
    let mut s = beasts(&["beasts", "unit"], false, false, true);
    let s1 = gid(&s, "s1");
    place(&mut s, v2, 30.0, 6.0);
    place(&mut s, s1, 30.0, 20.0);
    card(&mut s, 0, CardKind::Single);
    play(&mut s, 0, &shoot(&[v2], s1), &[3, 3]).assert_says("2D6 at U.N.I.T. 1st Squad, Section A");
}

// --- Buildings and LOS, Unstoppable Force -------------------------------------

#[test]
fn buildings_and_los_models_inside_can_only_be_targeted_at_windows_or_doorways() {
    let modules = InvasionConfig {
        buildings: true,
        ..InvasionConfig::default()
    };
    let mut s = beasts_with(&["unit", "daleks"], modules);
    let [s1, d1] = placed(&mut s, "s1 at 31,31; d1 at 31,20");
    let at_s1 = shoot(&[d1], s1);
    card(&mut s, 1, CardKind::Single);
    when_seat(&mut s, 1, &at_s1)
        .dice(&[1; 18])
        .refused("[Buildings and LOS] U.N.I.T. 1st Squad, Section A is inside a building, away from its windows and doors: it cannot be seen or sighted");
    // "Why would a model be standing at a window or doorway? Because it is
    // the only way it would be able to fire out".
    card(&mut s, 0, CardKind::Single);
    play(&mut s, 0, &shoot(&[s1], d1), &[1; 8]);
    steps(&mut s);
    card(&mut s, 1, CardKind::Single);
    // "Even when they are located at windows and doors, target models will
    // doubtless be behind full cover": the building's kill score.
    play(&mut s, 1, &at_s1, &[1; 18]).assert_says("1 kill at 12 each in a building");
    remove_first(&mut s, 0, s1, 1);
    steps(&mut s);
    // Its next card passes without a shot: it has left the windows.
    card(&mut s, 0, CardKind::Single);
    play(&mut s, 0, r#""end_card""#, &[]);
    card(&mut s, 1, CardKind::Single);
    refused(&mut s, 1, &at_s1, &[1; 18]);
    // Without the module the basic rules hold: seen in the building.
    let mut s = beasts_with(&["unit", "daleks"], InvasionConfig::default());
    place(&mut s, s1, 31.0, 31.0);
    place(&mut s, d1, 31.0, 20.0);
    card(&mut s, 1, CardKind::Single);
    play(&mut s, 1, &at_s1, &[1; 18]);
}

/// Only `keep` of the battle's groups left on the table.
fn only(s: &mut InvasionState, keep: &[GroupId]) {
    for g in 0..s.groups.len() as GroupId {
        if !keep.contains(&g) {
            gone(s, g);
        }
    }
}

/// Fear across the house's walls: the U.N.I.T. section (seat 0) and the
/// Dalek patrol placed as `position`, Fear on ("Causes Fear in Humans, line
/// of sight required"), Buildings and LOS on and off. With the module no
/// fear test is due while the group inside is away from its windows; once
/// `at_windows` (the group inside) stands at them (it has fired) the test
/// is taken. Without the module the basic rules hold: a test is due.
fn fear_across_the_walls(position: &str, at_windows: &str) {
    for buildings in [true, false] {
        let mut s = beasts_with(
            &["unit", "daleks"],
            InvasionConfig {
                buildings,
                fear: true,
                assumed_profiles: true,
                ..InvasionConfig::default()
            },
        );
        let [s1, d1] = placed(&mut s, position);
        only(&mut s, &[s1, d1]);
        card(&mut s, 0, CardKind::Single);
        assert_eq!(
            Invasion::automatic(&s).is_some(),
            !buildings,
            "{position}: a fear test is due only in sight (buildings {buildings})"
        );
        if buildings {
            let g = gid(&s, at_windows);
            s.advanced.at_windows.push(g);
            let p = step(&mut s, &[2]);
            p.assert_says(
                "Fear test for U.N.I.T. 1st Squad, Section A facing Daleks Dalek Patrol Alpha",
            );
        }
    }
}

/// "BUILDINGS AND LOS ... At any other time models in buildings will be
/// outside LOS, and cannot be sighted", with Fear's "line of sight
/// required": a Dalek patrol inside the house, away from its windows and
/// doors, causes no fear in the section outside; at the windows it does.
#[test]
fn buildings_and_los_a_dalek_inside_away_from_the_windows_causes_no_fear_that_needs_line_of_sight()
{
    fear_across_the_walls("s1 at 31,40; d1 at 31,33", "d1");
}

/// "BUILDINGS AND LOS ... models in buildings will be outside LOS ... the
/// only way it would be able to fire out": line of sight runs both ways, so
/// a U.N.I.T. section inside the house, away from its windows, does not see
/// the Dalek patrol outside and takes no fear test that needs line of sight;
/// at its windows it does (A18).
#[test]
fn buildings_and_los_a_fearful_group_inside_away_from_its_windows_does_not_see_a_dalek_outside() {
    fear_across_the_walls("s1 at 31,33; d1 at 31,40", "s1");
}

/// Impetuous across the house's walls: the savage band (seat 0) and the
/// U.N.I.T. section placed as `position` ("Impetuous models always move
/// their maximum move rate ... towards the nearest enemy model they can
/// see"), Buildings and LOS on and off. With the module the band gets no
/// order while the group inside is away from its windows; once `at_windows`
/// stands at them, or without the module, it charges.
fn impetuous_across_the_walls(position: &str, at_windows: &str) {
    for buildings in [true, false] {
        let mut s = beasts_with(
            &["beasts", "unit"],
            InvasionConfig {
                impetuous: true,
                buildings,
                ..InvasionConfig::default()
            },
        );
        let [v1, s1] = placed(&mut s, position);
        only(&mut s, &[v1, s1]);
        card(&mut s, 0, CardKind::Single);
        assert_eq!(
            Invasion::automatic(&s).is_some(),
            !buildings,
            "{position}: an order only in sight (buildings {buildings})"
        );
        if buildings {
            let g = gid(&s, at_windows);
            s.advanced.at_windows.push(g);
        }
        step(&mut s, &[]);
        assert_eq!(order(&s, v1), Some(Order::ChargeOrFire(s1)));
    }
}

/// "Impetuous models always move ... towards the nearest enemy model they
/// can see", with "Buildings and LOS": the only enemy inside the house,
/// away from its windows, is not seen, so the savage band gets no order.
#[test]
fn buildings_and_los_an_impetuous_group_does_not_see_an_enemy_inside_away_from_the_windows() {
    impetuous_across_the_walls("v1 at 31,40; s1 at 31,33", "s1");
}

/// The same both ways: the savage band inside the house, away from its
/// windows, does not see the section outside and gets no order (A18).
#[test]
fn buildings_and_los_an_impetuous_group_inside_away_from_its_windows_does_not_see_out() {
    impetuous_across_the_walls("v1 at 31,33; s1 at 31,40", "v1");
}

/// "KILL...EVERBODY: The model immediately fires at another model closest
/// to him", with "Buildings and LOS": the Ogron rearguard, nearest but
/// inside the house away from its windows, cannot be targeted, so the
/// stricken detachment fires at the next closest group it can see, the
/// U.N.I.T. section.
#[test]
fn buildings_and_los_kill_everybody_fires_at_the_closest_group_it_can_see_not_one_hidden_inside() {
    let mut s = ogrons();
    s.advanced.modules.push(Module::Buildings);
    let [o1, o2, s1] = placed(&mut s, "o1 at 31,38; o2 at 31,34; s1 at 31,44");
    only(&mut s, &[o1, o2, s1]);
    card(&mut s, 0, CardKind::Single);
    // o1 fails (2) and rolls 2; o2 passes (5).
    let p = step(&mut s, &[2, 2, 5]);
    p.assert_says("KILL...EVERYBODY");
    let p = step(&mut s, &[1, 1, 1, 1, 1, 1]);
    assert_eq!(shot_target(&p), s1, "{:#?}", p.words);
}

#[test]
fn unstoppable_force_moves_straight_through_walls_fences_and_hedges() {
    let modules = InvasionConfig {
        unstoppable: true,
        ..InvasionConfig::default()
    };
    let mut s = beasts_with(&["beasts", "unit"], modules);
    let [g1] = placed(&mut s, "g1 at 8,21");
    card(&mut s, 0, CardKind::Single);
    let go = move_to(g1, 800, 2700);
    let p = play(&mut s, 0, &go, &[]);
    assert!(!p.says("stop"), "{:#?}", p.words);
    assert_eq!(lead_at(&s, g1), pt(8.0, 27.0));
    // Without the module the wall ends its move half an inch past it.
    let mut s = beasts_with(&["beasts", "unit"], InvasionConfig::default());
    place(&mut s, g1, 8.0, 21.0);
    card(&mut s, 0, CardKind::Single);
    play(&mut s, 0, &go, &[]);
    assert_eq!(lead_at(&s, g1), pt(8.0, 24.5));
}

// --- Lift Off, Land and Fly ------------------------------------------------------

fn flyers() -> (InvasionState, GroupId, GroupId) {
    let modules = InvasionConfig {
        fly: true,
        ..InvasionConfig::default()
    };
    let mut s = beasts_with(&["beasts", "unit"], modules);
    let [w1, s1] = placed(&mut s, "w1 at 8,20; s1 at 30,10");
    card(&mut s, 0, CardKind::Double);
    (s, w1, s1)
}

#[test]
fn lift_off_between_2_and_10_inches_and_nothing_further_that_turn() {
    let (mut s, w1, _) = flyers();
    for bad in [100, 1100] {
        let e = refused(
            &mut s,
            0,
            &format!(r#"{{"lift_off":{{"group":{w1},"height":{bad}}}}}"#),
            &[],
        );
        assert_refusal_says(&e, "between 2\" and 10\"");
    }
    let p = play(&mut s, 0, &lift_off(w1, 600), &[]);
    // "The player controlling the flying model must announce ... any
    // changes in the vehicles elevation": the log says it.
    p.assert_says("Beasts Winged Horror is now 6\" above the tabletop");
    let e = refused(&mut s, 0, &move_to(w1, 800, 1500), &[]);
    assert_refusal_says(&e, "may do nothing further");
    // Only models that fly.
    let [g1] = placed(&mut s, "g1 at 20,20");
    let e = refused(&mut s, 0, &lift_off(g1, 600), &[]);
    assert_refusal_says(&e, "cannot fly");
}

#[test]
fn fly_at_the_fly_rate_over_terrain_between_2_and_30_inches_and_land_from_10() {
    let (mut s, w1, _) = flyers();
    play(&mut s, 0, &lift_off(w1, 600), &[]);
    play(&mut s, 0, r#""end_card""#, &[]);
    next_card(&mut s, 0, CardKind::Triple);
    // 11" across the wall and into the wood: at its fly rate of 12", not
    // stopped by either.
    let p = play(&mut s, 0, &move_to(w1, 800, 3100), &[]);
    assert!(!p.says("stop"), "{:#?}", p.words);
    assert_eq!(lead_at(&s, w1), pt(8.0, 31.0));
    let e = refused(&mut s, 0, &soar(w1, 3100), &[]);
    assert_refusal_says(&e, "between 2\" and 30\"");
    play(&mut s, 0, &soar(w1, 2500), &[])
        .assert_says("Beasts Winged Horror is now 25\" above the tabletop");
    // "Models may only land if they are within 10" of the tabletop".
    let e = refused(&mut s, 0, &group_order("land", w1), &[]);
    assert_refusal_says(&e, "within 10");
    play(&mut s, 0, &soar(w1, 800), &[]);
    steps(&mut s);
    next_card(&mut s, 0, CardKind::Single);
    play(&mut s, 0, &group_order("land", w1), &[]).assert_says("Beasts Winged Horror lands");
    assert!(s.advanced.heights.is_empty());
}

#[test]
fn fly_any_model_firing_at_a_flying_target_suffers_minus_1() {
    let (mut s, w1, s1) = flyers();
    play(&mut s, 0, &lift_off(w1, 600), &[]);
    card(&mut s, 1, CardKind::Single);
    play(&mut s, 1, &shoot(&[s1], w1), &[3; 8])
        .assert_says("-8 (-1 a die: Beasts Winged Horror is flying)");
}

// --- Advanced Assault ------------------------------------------------------------

fn centre(s: &InvasionState, g: GroupId) -> xenolog_engine::games::invasion::model::Point {
    xenolog_engine::games::invasion::table::centre(&s.group(g).points())
}

/// Hares: quick men (a 12" move) and slow ones (6").
const HARES: &str = r#"
faction hares "Hares"
model hare  "Hare"  species human shoot 1 move 12 kill 6 9 12
model mule  "Mule"  species human shoot 1 move 6 kill 6 9 12
group h1 "Quick section" hare hare hare hare
group h2 "Slow section" mule mule mule mule
"#;

/// The Beast pair (8" move) charges `target` of the Hares on a Double card
/// and wins the melee 2 kills to none (`win`) or draws 0-0.
fn assaulted(target: &str, win: bool) -> (InvasionState, GroupId, GroupId) {
    assaulted_with(target, win, &["advanced_assault"])
}

/// `assaulted` with these modules on.
fn assaulted_with(target: &str, win: bool, on: &[&str]) -> (InvasionState, GroupId, GroupId) {
    let mut s = given_on_ground(&["beasts", "hares"], &[BEASTS, HARES], on);
    let (b1, h) = (gid(&s, "b1"), gid(&s, target));
    place(&mut s, h, 20.0, 11.1);
    place(&mut s, b1, 20.0, 6.0);
    card(&mut s, 0, CardKind::Double);
    play(&mut s, 0, &move_to(b1, 2000, 1000), &[]);
    end_card_then_step(&mut s, 0);
    if win {
        play(&mut s, 0, r#"{"strike":{}}"#, &[2, 2, 2, 2, 2, 2, 1, 1]);
        let two: Vec<String> = figures(&s, h)[..2].to_vec();
        play(&mut s, 1, &casualties(&two), &[]);
        play(&mut s, 1, r#"{"strike":{}}"#, &[1; 4]);
    } else {
        // A kill each: 8 against 6, 12 against 9.
        play(&mut s, 0, r#"{"strike":{}}"#, &[1; 8]);
        remove_first(&mut s, 1, h, 1);
        play(&mut s, 1, r#"{"strike":{}}"#, &[3; 4]);
        remove_first(&mut s, 0, b1, 1);
    }
    (s, b1, h)
}

#[test]
fn advanced_assault_the_winner_and_loser_stay_in_the_fight() {
    let (mut s, b1, h1) = assaulted("h1", true);
    let p = step(&mut s, &[]);
    p.assert_says("Beasts win the assault (2 kills to 0): the fight does not break");
    assert!(!p.any(|e| matches!(e, E::Moved { .. })));
    assert!(s.group(b1).locked.is_some() && s.group(h1).locked.is_some());
}

#[test]
fn advanced_assault_running_away_the_loser_faster_than_the_winner_runs_its_full_move() {
    let (mut s, b1, h1) = assaulted("h1", true);
    step(&mut s, &[]);
    next_card(&mut s, 1, CardKind::Single);
    let before = centre(&s, h1);
    let p = play(&mut s, 1, &group_order("run_away", h1), &[]);
    p.assert_says("runs away");
    assert!(s.group(h1).locked.is_none() && s.group(b1).locked.is_none());
    let d = before.distance(centre(&s, h1));
    assert!((1190..=1210).contains(&d), "its maximum move, 12\": {d}");
}

#[test]
fn advanced_assault_a_loser_too_slow_to_out_run_its_opponent_must_stay_and_fight() {
    let (mut s, _, h2) = assaulted("h2", true);
    step(&mut s, &[]);
    next_card(&mut s, 1, CardKind::Single);
    let e = refused(&mut s, 1, &group_order("run_away", h2), &[]);
    assert_refusal_says(&e, "must stay and fight");
    // Nor may the loser break off: that is the winner's.
    let e = refused(&mut s, 1, &group_order("break_off", h2), &[]);
    assert_refusal_says(&e, "stay and fight or run away");
}

#[test]
fn advanced_assault_the_combat_winners_turn_choose_any_action() {
    let (mut s, b1, _) = assaulted("h2", true);
    step(&mut s, &[]);
    next_card(&mut s, 0, CardKind::Double);
    play(&mut s, 0, &group_order("break_off", b1), &[])
        .assert_says("Beasts Beast pair breaks off from the fight");
    assert!(s.melees.is_empty());
    // Free: the card's two actions are left for anything.
    assert_eq!(s.actions_left(), 2);
    play(&mut s, 0, &move_to(b1, 2000, 400), &[]);
}

/// "Line of sight will be blocked by intervening groups" (those fighting
/// the target block nothing), Sighting a Target's "criteria must be met at
/// the beginning of the active player's turn" and "The combat winners turn:
/// Choose any action" (rules version 10, review19 MUST 1 and SHOULD 2): the
/// Beast pair won its assault on the Slow section, and when the Beasts'
/// Triple card begins it stands in base contact with the section, between
/// it and the Spear line. The pair breaks off and walks aside, then (or
/// not) charges the section again from the side; the Spear line charges the
/// section past where the pair stood. The pair was fighting the section as
/// the card began, so it blocked no line to it then, and the charge is
/// made, the pair back in the fight or not. Until this mend a group that
/// moved on the card (or was free now) was taken as free when the card
/// began, and the charge was refused as not sighted. A Savage standing
/// there instead, fighting no one, blocks the line: refused.
#[test]
fn line_of_sight_a_group_fighting_the_target_as_the_card_began_blocks_nothing_whatever_it_did_on_the_card()
 {
    for (fighting, recharge) in [(true, true), (true, false), (false, false)] {
        let (mut s, b1, h2) = assaulted_with("h2", true, &["advanced_assault", "sighting"]);
        step(&mut s, &[]);
        assert!(s.group(b1).locked.is_some() && s.group(b1).locked == s.group(h2).locked);
        let (v1, v2) = (gid(&s, "v1"), gid(&s, "v2"));
        // Between the cards, the survivors in a column on x = 20: the Spear
        // line's last man, the pair (or a Savage), the section.
        kill(&mut s, v2, 1);
        put(&mut s, v2, 1, 20.0, 4.0);
        s.groups[v2 as usize].place = Place::Table;
        for (i, m) in [2, 3].into_iter().enumerate() {
            put(&mut s, h2, m, 20.0, 11.1 + 1.1 * i as f64);
        }
        let screen = if fighting {
            put(&mut s, b1, 0, 20.0, 10.0);
            put(&mut s, b1, 1, 20.0, 8.9);
            b1
        } else {
            put(&mut s, b1, 0, 21.1, 11.1);
            put(&mut s, b1, 1, 22.2, 11.1);
            kill(&mut s, v1, 3);
            put(&mut s, v1, 3, 20.0, 9.5);
            s.groups[v1 as usize].place = Place::Table;
            v1
        };
        next_card(&mut s, 0, CardKind::Triple);
        if fighting {
            play(&mut s, 0, &group_order("break_off", b1), &[])
                .assert_says("breaks off from the fight");
        }
        play(&mut s, 0, &move_to(screen, 2500, 900), &[]);
        if recharge {
            let p = play(&mut s, 0, &move_to(b1, 2110, 1110), &[]);
            assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
            assert_eq!(s.group(b1).locked, s.group(h2).locked);
        }
        let charge = move_to(v2, 1890, 1110);
        if fighting {
            // Into the section's fight (merged into the pair when it is
            // back in it).
            let p = play(&mut s, 0, &charge, &[]);
            assert!(
                p.any(|e| matches!(e, E::Locked { .. } | E::Merged { .. })),
                "{:#?}",
                p.words
            );
            assert!(s.group(h2).locked.is_some());
        } else {
            let e = refused(&mut s, 0, &charge, &[]);
            assert_refusal_says(&e, "has not sighted");
        }
    }
}

#[test]
fn advanced_assault_if_the_combat_was_a_draw_the_fight_breaks_as_in_the_basic_rules() {
    let (mut s, b1, _) = assaulted("h1", false);
    let p = step(&mut s, &[]);
    assert!(!p.says("win the assault"), "{:#?}", p.words);
    // Rules version 6: each side falls back the way its player chooses.
    p.assert_says("must fall back a full move");
    assert!(s.group(b1).locked.is_none());
}

// --- Xenolog's assumed profiles (a battle option) --------------------------

/// Issue 27: the texts give no Spug a stupidity score and no Dalek fear
/// (text 001 prints "Causes Fear in Humans, line of sight required" as an
/// example profile line only). A default battle plays only what the texts
/// give; the option `assumed_profiles` adds Xenolog's assumed profiles.
#[test]
fn assumed_profiles_the_texts_give_no_spug_stupidity_or_dalek_fear_only_the_option_adds_them() {
    let with = |assumed_profiles: bool| {
        let config = InvasionConfig {
            scenario: "skirmish".into(),
            factions: vec!["spugs".into(), "daleks".into()],
            stupidity: true,
            fear: true,
            assumed_profiles,
            ..InvasionConfig::default()
        };
        start(&config).unwrap_or_else(|e| panic!("setup: {e}"))
    };
    let profile = |s: &InvasionState, seat: u8, kind: &str| {
        s.faction(seat).model(kind).expect(kind).profile.clone()
    };
    let plain = with(false);
    assert_eq!(profile(&plain, 0, "spug").stupidity, None);
    assert!(profile(&plain, 1, "dalek").fear.is_none());
    assert!(!plain.assumed_profiles);
    // what the texts give stays: "All Daleks ... have the Special Rule - Comm. Link"
    assert!(profile(&plain, 1, "dalek").comm_link);
    assert!(profile(&plain, 0, "controller").leader);
    assert!(plain.factions.iter().all(|f| f.assumed.is_empty()));
    let assumed = with(true);
    assert_eq!(profile(&assumed, 0, "spug").stupidity, Some(3));
    let fear = profile(&assumed, 1, "dalek").fear.expect("fear");
    assert_eq!(fear.species, vec!["human".to_owned()]);
    assert!(fear.sight);
    assert!(profile(&assumed, 1, "dalek").comm_link);
    assert!(assumed.assumed_profiles);
    assert!(
        Invasion::options()
            .iter()
            .any(|o| o.key == "assumed_profiles")
    );
    // an older config (no such field) reads as the default
    let old: InvasionConfig =
        serde_json::from_str(r#"{"scenario":"skirmish","stupidity":true}"#).expect("old config");
    assert!(!old.assumed_profiles);
}

#[test]
fn assumed_profiles_an_assumed_line_gives_profile_flags_of_a_model_above_it_or_is_refused_in_words()
{
    use xenolog_engine::games::invasion::data::parse_faction;
    let base = "faction f \"F\"\nmodel a \"A\" species x shoot 1 kill 6 9 12\n";
    let ok = parse_faction(&format!(
        "{base}assumed a stupid 4 leader\ngroup g \"G\" a\n"
    ))
    .expect("parses");
    assert_eq!(ok.assumed.len(), 1);
    assert_eq!(ok.assumed[0].1.stupidity, Some(4));
    assert!(ok.assumed[0].1.leader);
    assert_eq!(ok.model("a").unwrap().profile.stupidity, None);
    for (line, words) in [
        ("assumed b stupid 4", "not given above"),
        (
            "assumed a move 4",
            "only Advanced Invasion Earth profile flags",
        ),
        ("assumed a", "needs profile flags"),
        ("assumed a stupid 9", "stupidity score"),
    ] {
        let e = parse_faction(&format!("{base}{line}\ngroup g \"G\" a\n"))
            .expect_err(line)
            .to_string();
        assert!(e.contains("line 3") && e.contains(words), "{line}: {e}");
    }
}
