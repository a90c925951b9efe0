//! Advanced Invasion Earth (rule text 001) on Alien Invasion: "Suppression
//! Fire" (with "Suppressing Fire and Cover" and the weapons table),
//! "Observers" (the radio-observer example) and "Sighting a Target" (with
//! "Perception"), each test named after its clause. Dice are entered so every
//! result is reached.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::advanced::Module;
use xenolog_engine::games::invasion::fire::SuppressResult;
use xenolog_engine::games::invasion::state::{CardKind, GroupId, Place};
use xenolog_engine::games::invasion::{
    Invasion, InvasionCommand, InvasionConfig, InvasionEvent as E, InvasionState, describe, start,
};
use xenolog_engine::{Actor, Game};

/// U.N.I.T.'s support company: mortar teams, radio operators, a fire
/// section with the text's weapons, a sergeant.
const SUPPORT: &str = r#"
faction support "U.N.I.T. Support"
link yes
model rifleman "Rifleman"       species human shoot 1 kill 6 9 12
model radio    "Radio Operator" species human shoot 1 kill 6 9 12 radio
model mortar   "Mortar"         species human shoot 3 kill 6 9 12 weapon indirect
model lmg      "L.M.G. Gunner"  species human shoot 2 kill 6 9 12 weapon lmg
model smg      "S.M.G. Gunner"  species human shoot 1 kill 6 9 12 weapon smg
model bazooka  "Bazooka"        species human shoot 4 kill 6 9 12 weapon bazooka
model spear    "Spearman"       species human shoot 1 kill 6 9 12 weapon primitive
model sergeant "Sergeant"       species human shoot 1 kill 6 9 12 leader
group m1 "1st Mortar Team" mortar mortar
group m2 "2nd Mortar Team" mortar mortar
group r1 "Advanced Team" radio rifleman rifleman
group r2 "Mortar Observer" radio
group f1 "Fire Section" rifleman lmg smg bazooka
group f2 "Pair" rifleman rifleman
group f3 "Sniper" rifleman
group b1 "Bazooka Team" bazooka spear
group sg "Command" sergeant
"#;

/// The Autons: hard to kill (20 in the open, 24 in cover, 28 in a building).
const AUTONS: &str = r#"
faction autons "Autons"
model auton "Auton" species auton shoot 1 kill 20 24 28
group a1 "Auton Squad" auton auton auton
group a2 "Auton Pair" auton auton
group a3 "Auton Patrol" auton auton
"#;

/// The support company (seat 0) against the Autons (seat 1) on the proving
/// ground, with the modules set in `modules` (its scenario and factions are
/// replaced); the groups where the scenario puts them.
fn on_ground(modules: InvasionConfig) -> InvasionState {
    let config = InvasionConfig {
        scenario_text: Some(GROUND.to_owned()),
        factions: vec!["support".into(), "autons".into()],
        faction_texts: vec![SUPPORT.to_owned(), AUTONS.to_owned()],
        ..modules
    };
    start(&config).unwrap_or_else(|e| panic!("setup: {e}"))
}

/// The support company (seat 0) against the Autons (seat 1) on the proving
/// ground, with these modules; every group off the table until placed.
fn battle(suppression: bool, observers: bool, sighting: bool) -> InvasionState {
    let mut s = on_ground(InvasionConfig {
        suppression,
        observers,
        sighting,
        ..InvasionConfig::default()
    });
    // Every group parked along its side's edge, out of the way.
    park(&mut s);
    card(&mut s, 0, CardKind::Triple);
    s
}

fn suppression_of(p: &Played) -> (u32, SuppressResult, Vec<GroupId>, u32) {
    p.events
        .iter()
        .find_map(|e| match e {
            E::Suppression {
                total,
                result,
                groups,
                kills,
                ..
            } => Some((*total, *result, groups.clone(), *kills)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no suppression: {:#?}", p.words))
}

fn suppress(s: &mut InvasionState, shooters: &[GroupId], target: GroupId, dice: &[u8]) -> Played {
    play(s, 0, &suppress_at(shooters, target), dice)
}

fn suppress_cover(s: &mut InvasionState, g: GroupId, target: GroupId, dice: &[u8]) -> Played {
    play(s, 0, &suppress_at_cover(g, target), dice)
}

/// The Fire Section at (10,10) and the Auton Squad in the open at (10,20):
/// 4 dice suppress (the bazooka does not fire), +3 for the L.M.G. (2 dice)
/// and the S.M.G.; against 20 it suppresses from 16 and strikes from 24.
fn section_and_squad() -> (InvasionState, GroupId, GroupId) {
    let mut s = battle(true, false, false);
    let [f1, a1] = placed(&mut s, "f1 at 10,10; a1 at 10,20");
    (s, f1, a1)
}

/// A suppressing shot taken: the battle after it, the target, what was
/// played and the suppression it made.
struct Shot {
    s: InvasionState,
    target: GroupId,
    p: Played,
    total: u32,
    result: SuppressResult,
    groups: Vec<GroupId>,
    kills: u32,
}

impl Shot {
    /// Then: the shot's total, what it did and the kills it made.
    fn came_to(&self, total: u32, result: SuppressResult, kills: u32) {
        assert_eq!(
            (self.total, self.result, self.kills),
            (total, result, kills),
            "{:#?}",
            self.p.words
        );
    }

    fn taken(s: InvasionState, target: GroupId, p: Played) -> Shot {
        let (total, result, groups, kills) = suppression_of(&p);
        Shot {
            s,
            target,
            p,
            total,
            result,
            groups,
            kills,
        }
    }
}

/// Given `section_and_squad`, when the Fire Section suppresses the Auton
/// Squad with these dice.
fn section_suppresses(dice: &[u8]) -> Shot {
    let (mut s, f1, a1) = section_and_squad();
    let p = suppress(&mut s, &[f1], a1, dice);
    Shot::taken(s, a1, p)
}

// --- Suppression Fire --------------------------------------------------------

#[test]
fn suppression_fire_is_declared_before_the_roll_and_refused_when_the_module_is_off() {
    let mut s = battle(false, false, false);
    let [f1, a1] = placed(&mut s, "f1 at 10,10; a1 at 10,20");
    let e = refused(&mut s, 0, &suppress_at(&[f1], a1), &[3, 3, 3, 3]);
    assert!(
        refusal(&e).starts_with("[Suppression Fire]") && refusal(&e).contains("not a module"),
        "{}",
        refusal(&e)
    );
}

#[test]
fn suppression_fire_short_of_1_below_the_score_needed_does_nothing() {
    // 12 + 3 = 15: short of 16 (one below 20 on each of 4 dice).
    let x = section_suppresses(&[3, 3, 3, 3]);
    assert_eq!((x.total, x.result), (15, SuppressResult::Missed));
    assert!(x.groups.is_empty());
    assert!(x.s.advanced.suppressed.is_empty());
    // The shot spent its action.
    assert_eq!(x.s.actions_left(), 2);
}

#[test]
fn suppression_fire_1_below_the_score_needed_suppresses_the_target() {
    let x = section_suppresses(&[3, 3, 3, 4]);
    x.came_to(16, SuppressResult::Suppressed, 0);
    assert_eq!(x.groups, [x.target]);
    assert!(x.s.advanced.suppressed.contains(&x.target));
    let p = x.p;
    p.assert_says(
        "Suppressing fire, 4D6 at Autons Auton Squad in the open (declared: the bazooka do not fire (they cannot suppress)): 3,3,3,4 +3 (modifiers) = 16 against 20 (suppresses from 16, strikes from 24): suppressed; pinned down: Autons Auton Squad",
    );
    p.assert_says(
        "Modifiers: +3 (+1 a die of the L.M.G. and S.M.G. of U.N.I.T. Support Fire Section)",
    );
}

#[test]
fn suppression_fire_the_same_as_the_score_needed_suppresses_the_target() {
    // 17 + 3 = 20: exactly the kill score, which an aimed shot would kill
    // with; suppressing, it only pins down.
    let x = section_suppresses(&[5, 4, 4, 4]);
    x.came_to(20, SuppressResult::Suppressed, 0);
    assert_eq!(alive(&x.s, x.target), 3);
}

#[test]
fn suppression_fire_1_above_the_score_needed_is_a_direct_strike_dealt_in_the_normal_way() {
    // 21 + 3 = 24: one above on each die; the strike counts 24 - 4 = 20:
    // one Auton.
    let x = section_suppresses(&[6, 5, 5, 5]);
    x.came_to(24, SuppressResult::Strike, 1);
    // The Autons choose the casualty, as for any shot.
    assert!(
        matches!(
            x.s.pending.first(),
            Some(xenolog_engine::games::invasion::state::Pending::Casualties { count: 1, .. })
        ),
        "{:#?}",
        x.s.pending
    );
    // Assumed: the survivors are pinned down too.
    assert_eq!(x.groups, [x.target]);
    x.p.assert_says("a direct strike, 1 kill");
}

/// Eight riflemen (8D6, no weapon bonus) and armoured walkers that are
/// killed on 24 in the open, 27 in cover, 30 in a building.
const SECTION: &str = r#"
faction section "Rifle Section"
model rifleman "Rifleman" species human shoot 1 kill 6 9 12
group r8 "Eight Riflemen" rifleman rifleman rifleman rifleman rifleman rifleman rifleman rifleman
"#;
const WALKERS: &str = r#"
faction walkers "Walkers"
model walker "Walker" species walker shoot 1 kill 24 27 30
group w1 "Walker pair" walker walker
"#;

/// A5, worked: "1 below" the score needed is the kill score less a point a
/// die rolled, "1 above" the kill score plus it, and a strike made "N above"
/// counts its kills from the total less N points a die. Eight dice against
/// 24 (fire.rs's doc example): suppressed from 16, struck from 32, the kills
/// counted from the total less 8; at the cover of a walker in cover (27),
/// suppressed from 19 and struck from 27 + 16 = 43, the kills counted from
/// the total less 16; in a building (30) struck only from 30 + 24 = 54,
/// beyond 8D6.
#[test]
fn suppression_fire_a5_one_above_or_below_is_a_point_a_die_worked_example_8d6_against_24() {
    let shot = |at: (f64, f64), at_cover: bool, dice: &[u8]| {
        worked_example_shot(at, at_cover, dice, false)
    };
    let open = (20.0, 10.0);
    let field = (41.0, 6.0);
    let house = (31.0, 33.0);
    use SuppressResult::{Missed, Strike, Suppressed};
    // The target itself, in the open (24): 1 below is 24 - 8 = 16.
    let (t, r, k, p) = shot(open, false, &[1, 1, 1, 2, 2, 2, 3, 3]);
    assert_eq!((t, r, k), (15, Missed, 0));
    p.assert_says("against 24 (suppresses from 16, strikes from 32)");
    assert_eq!(shot(open, false, &[1, 1, 2, 2, 2, 2, 3, 3]).1, Suppressed);
    assert_eq!(shot(open, false, &[3, 3, 4, 4, 4, 4, 4, 5]).1, Suppressed);
    // 1 above is 24 + 8 = 32: a direct strike, its kills from 32 - 8 = 24.
    let (t, r, k, _) = shot(open, false, &[4; 8]);
    assert_eq!((t, r, k), (32, Strike, 1));
    // 48 less 8 is 40: still one kill of 24 ("the extra points do nothing").
    let (t, r, k, _) = shot(open, false, &[6; 8]);
    assert_eq!((t, r, k), (48, Strike, 1));
    // At the cover of a walker in the cornfield: "The 'target' on this
    // occasion is the item of cover", struck directly at the walker's open
    // score (24): suppressed from 16, 2 above is 24 + 16 = 40; the kills
    // from the total less 16, at the walker's score in cover (27).
    let (t, r, k, p) = shot(field, true, &[2, 2, 2, 2, 2, 3, 3, 3]);
    assert_eq!((t, r, k), (19, Suppressed, 0));
    p.assert_says("against 24 (suppresses from 16, strikes from 40)");
    assert_eq!(shot(field, true, &[2, 2, 2, 2, 2, 2, 2, 2]).1, Suppressed);
    // 1 above (32) at the cover only suppresses, where at the walker itself
    // it would be a direct strike.
    assert_eq!(shot(field, true, &[4; 8]).1, Suppressed);
    assert_eq!(shot(field, true, &[5, 5, 5, 5, 5, 5, 5, 4]).1, Suppressed);
    let (t, r, k, _) = shot(field, true, &[6; 8]);
    assert_eq!((t, r, k), (48, Strike, 1));
    // In the house: 3 above is 24 + 24 = 48.
    let (t, r, k, p) = shot(house, true, &[6, 6, 6, 6, 6, 6, 6, 5]);
    assert_eq!((t, r, k), (47, Suppressed, 0));
    p.assert_says("(suppresses from 16, strikes from 48)");
}

/// The same worked example under the battle option `cover_at_cover_score`
/// (the reading Xenolog shipped until rules version 5): fire at the cover
/// is measured from the walker's score in its cover.
#[test]
fn suppressing_cover_the_target_is_the_item_of_cover_at_cover_score_option() {
    let shot = |at: (f64, f64), dice: &[u8]| worked_example_shot(at, true, dice, true);
    let field = (41.0, 6.0);
    let house = (31.0, 33.0);
    use SuppressResult::{Missed, Strike, Suppressed};
    assert!(
        Invasion::options()
            .iter()
            .any(|o| o.key == "cover_at_cover_score")
    );
    // At the cover of a walker in the cornfield (27): suppressed from 19,
    // 2 above is 27 + 16 = 43, the kills from the total less 16.
    let (t, r, k, p) = shot(field, &[2, 2, 2, 2, 2, 3, 3, 3]);
    assert_eq!((t, r, k), (19, Suppressed, 0));
    p.assert_says("(suppresses from 19, strikes from 43)");
    assert_eq!(shot(field, &[2, 2, 2, 2, 2, 2, 2, 2]).1, Missed);
    assert_eq!(shot(field, &[5, 5, 5, 5, 5, 6, 6, 5]).1, Suppressed);
    let (t, r, k, _) = shot(field, &[5, 5, 5, 5, 5, 6, 6, 6]);
    assert_eq!((t, r, k), (43, Strike, 1));
    // In the house (30): 3 above is 30 + 24 = 54, more than eight dice
    // make, so the best they do is suppress.
    let (t, r, k, p) = shot(house, &[6; 8]);
    assert_eq!((t, r, k), (48, Suppressed, 0));
    p.assert_says("(suppresses from 22, strikes from 54)");
}

/// The A5 worked example's shot: the eight rifles at the walker at `at`.
fn worked_example_shot(
    at: (f64, f64),
    at_cover: bool,
    dice: &[u8],
    cover_at_cover_score: bool,
) -> (u32, SuppressResult, u32, Played) {
    {
        let config = InvasionConfig {
            scenario_text: Some(GROUND.to_owned()),
            factions: vec!["section".into(), "walkers".into()],
            faction_texts: vec![SECTION.to_owned(), WALKERS.to_owned()],
            suppression: true,
            cover_at_cover_score,
            ..InvasionConfig::default()
        };
        let mut s = start(&config).unwrap_or_else(|e| panic!("setup: {e}"));
        park(&mut s);
        card(&mut s, 0, CardKind::Triple);
        let (r8, w1) = (gid(&s, "r8"), gid(&s, "w1"));
        place(&mut s, w1, at.0, at.1);
        place(&mut s, r8, 34.0, 20.0);
        let p = play(
            &mut s,
            0,
            &format!(r#"{{"suppress":{{"shooters":[{r8}],"target":{w1},"at_cover":{at_cover}}}}}"#),
            dice,
        );
        let (total, result, _, kills) = suppression_of(&p);
        (total, result, kills, p)
    }
}

#[test]
fn suppression_fire_one_model_firing_suppresses_only_one_target() {
    let mut s = battle(true, false, false);
    let [f3, a1, a2] = placed(&mut s, "f3 at 10,10; a1 at 10,20; a2 at 10,21.2");
    // One die: suppresses from 19, strikes from 21.
    let p = suppress(&mut s, &[f3], a1, &[6]);
    let (_, result, groups, _) = suppression_of(&p);
    assert_eq!(result, SuppressResult::Missed);
    assert!(groups.is_empty());
    // Against a softer target: the Auton Pair right beside it stays free.
    let mut s = battle(true, false, false);
    place(&mut s, f3, 10.0, 10.0);
    place(&mut s, a1, 10.0, 20.0);
    place(&mut s, a2, 10.0, 21.2);
    let e = refused(
        &mut s,
        0,
        &format!(r#"{{"suppress":{{"shooters":[{f3}],"target":{a1},"area":[{a2}]}}}}"#),
        &[6],
    );
    assert_refusal_says(&e, "only one target");
}

/// Text 000: "There are only two measurements in the game; a 'Move' ...
/// and a 'Blast' area which is a six inch diameter circle": by default both
/// of text 001's templates are that circle. Two firers catch the patrol
/// 2.6" from the Auton Squad's centre, which a 3" medium template misses.
#[test]
fn suppression_fire_the_blast_templates_are_alien_invasions_one_six_inch_circle_by_default() {
    for graded in [false, true] {
        let mut s = battle(true, false, false);
        s.graded_templates = graded;
        let [f2, a1, a2, a3] = placed(
            &mut s,
            "f2 at 10,10; a1 at 10,20; a2 at 10,21.2; a3 at 11.1,22.6",
        );
        s.factions[1].models[0].kill.open = 13;
        let p = suppress(&mut s, &[f2], a1, &[6, 6]);
        let (_, result, groups, _) = suppression_of(&p);
        assert_eq!(result, SuppressResult::Suppressed);
        if graded {
            assert_eq!(groups, [a1, a2]);
        } else {
            assert_eq!(groups, [a1, a2, a3]);
        }
    }
    let options = xenolog_engine::games::invasion::Invasion::options();
    assert!(options.iter().any(|o| o.key == "graded_templates"));
}

#[test]
fn suppression_fire_two_models_firing_suppress_a_medium_template_more_a_giant_one_graded_option() {
    // The battle option `graded_templates` (a reading): 3" and 5" across.
    // Two riflemen: a medium template (3" across) on the Auton Squad's
    // centre catches the pair 1.2" behind it, not the patrol 3.5" away.
    let mut s = battle(true, false, false);
    s.graded_templates = true;
    let [f2, a1, a2, a3] = placed(
        &mut s,
        "f2 at 10,10; a1 at 10,20; a2 at 10,21.2; a3 at 11.1,22.6",
    );
    // Two dice against 20: suppress from 18.
    let p = suppress(&mut s, &[f2], a1, &[6, 6]);
    let (total, result, groups, _) = suppression_of(&p);
    assert_eq!((total, result), (12, SuppressResult::Missed));
    assert!(groups.is_empty());
    // Linked with a third rifleman (the sniper): three models firing, a
    // giant template (5" across) reaches the patrol too.
    let mut s = battle(true, false, false);
    s.graded_templates = true;
    let f3 = gid(&s, "f3");
    place(&mut s, f2, 10.0, 10.0);
    place(&mut s, f3, 14.0, 10.0);
    place(&mut s, a1, 10.0, 20.0);
    place(&mut s, a2, 10.0, 21.2);
    place(&mut s, a3, 11.1, 22.6);
    let p = suppress(&mut s, &[f2, f3], a1, &[6, 6, 6]);
    let (total, result, groups, _) = suppression_of(&p);
    assert_eq!((total, result), (18, SuppressResult::Suppressed));
    assert_eq!(groups, [a1, a2, a3]);
    // NOTE: "only one suppression roll needs to be successful for all the
    // models in the template area to be suppressed".
    for g in [a1, a2, a3] {
        assert!(s.advanced.suppressed.contains(&g));
    }
    // Two firers (the pair alone) with a medium template on the same spot:
    let mut s = battle(true, false, false);
    s.graded_templates = true;
    place(&mut s, f2, 10.0, 10.0);
    place(&mut s, a1, 10.0, 20.0);
    place(&mut s, a2, 10.0, 21.2);
    place(&mut s, a3, 11.1, 22.6);
    // Give the pair enough: 2 dice of 6 against a softer kill score.
    s.factions[1].models[0].kill.open = 13;
    let p = suppress(&mut s, &[f2], a1, &[6, 6]);
    let (_, result, groups, _) = suppression_of(&p);
    assert_eq!(result, SuppressResult::Suppressed);
    assert_eq!(
        groups,
        [a1, a2],
        "the patrol is outside the medium template"
    );
}

/// Given: the Fire Section at `f` and the Auton Squad at `a` (inches), each
/// Fire Section die `crack` better (skills), the suppression ladder measured
/// from the Autons' score in their cover (the option `cover_at_cover_score`;
/// the default is in the A5 example).
fn at_autons_cover(f: (f64, f64), a: (f64, f64), crack: u8) -> (InvasionState, GroupId, GroupId) {
    let mut s = battle(true, false, false);
    let (f1, a1) = (gid(&s, "f1"), gid(&s, "a1"));
    s.cover_at_cover_score = true;
    place(&mut s, f1, f.0, f.1);
    place(&mut s, a1, a.0, a.1);
    for m in &mut s.groups[f1 as usize].models {
        m.bonus.shoot_die = crack;
    }
    (s, f1, a1)
}

/// Given `at_autons_cover`, when the Fire Section fires at the Autons' cover
/// with these dice.
fn cover_shot(f: (f64, f64), a: (f64, f64), crack: u8, dice: &[u8]) -> Shot {
    let (mut s, f1, a1) = at_autons_cover(f, a, crack);
    let p = suppress_cover(&mut s, f1, a1, dice);
    Shot::taken(s, a1, p)
}

/// The Auton Squad in the house (full cover, 28), the Fire Section at
/// (31,24) with each die `crack` better.
fn house_shot(crack: u8, dice: &[u8]) -> Shot {
    cover_shot((31.0, 24.0), (31.0, 31.0), crack, dice)
}

#[test]
fn suppressing_fire_and_cover_1_below_the_same_or_1_above_suppress_the_model_behind() {
    // The Auton Squad in the wood (partial cover, 24): 4 dice suppress the
    // cover from 20 (1 below), 24 is the same, 28 is 1 above: each only
    // suppresses (a Crack Shot section reaches 31).
    for (dice, crack, total) in [
        ([3u8, 4, 5, 5], 0u8, 20u32),
        ([6, 6, 6, 5], 0, 26),
        ([6, 6, 6, 6], 1, 31),
    ] {
        let x = cover_shot((5.0, 20.0), (5.0, 31.0), crack, &dice);
        assert_eq!(x.total, total, "{:#?}", x.p.words);
        let t = x.total;
        assert_eq!((x.result, x.kills), (SuppressResult::Suppressed, 0), "{t}");
        assert_eq!(x.groups, [x.target]);
        x.p.assert_says("at the cover of Autons Auton Squad in cover");
    }
}

#[test]
fn suppressing_fire_and_cover_2_above_strikes_a_model_in_partial_cover() {
    // The L.M.G. gunner and S.M.G. gunner are Crack Shots: +6 more.
    // 24 + 3 + 8 = 35: 2 above 24 on each die is 32: the strike counts
    // 35 - 8 = 27: one Auton at 24.
    let x = cover_shot((5.0, 20.0), (5.0, 31.0), 2, &[6, 6, 6, 6]);
    x.came_to(35, SuppressResult::Strike, 1);
}

#[test]
fn suppressing_fire_and_cover_2_above_only_suppresses_a_model_in_full_cover() {
    // 24 + 3 + 12 = 39 against 28 in the house: 2 above (36) and more, but
    // "If the model behind the cover is in FULL COVER then the model is
    // suppressed".
    let x = house_shot(3, &[6, 6, 6, 6]);
    x.came_to(39, SuppressResult::Suppressed, 0);
    assert_eq!(x.groups, [x.target]);
    // 3 above is 28 + 12 = 40: one short.
    x.p.assert_says("suppresses from 24, strikes from 40");
}

/// The review's finding: a model in full cover was never struck through its
/// cover, though "If you have scored 3 above, then a strike has been scored
/// against the model behind the cover" (text 001, line 68).
#[test]
fn suppressing_fire_and_cover_3_above_strikes_a_model_in_full_cover() {
    // The Fire Section, each die +4 (skills), at the cover of the Auton
    // Squad in the house (28): 3 above is 28 + 3 x 4 = 40.
    // 24 + 3 + 16 = 43: a strike, its kills counted from 43 less three
    // points a die (A5): 31, one Auton at 28.
    let x = house_shot(4, &[6, 6, 6, 6]);
    x.came_to(43, SuppressResult::Strike, 1);
    assert_eq!(x.groups, [x.target]);
    x.p.assert_says("suppresses from 24, strikes from 40");
    x.p.assert_says("a direct strike, 1 kill");
    assert!(
        x.s.pending.iter().any(|x| matches!(
            x,
            xenolog_engine::games::invasion::state::Pending::Casualties { .. }
        )),
        "the target's player chooses the casualty"
    );
    // Exactly 3 above (40) strikes: 28 left, one kill.
    let x = house_shot(4, &[6, 6, 6, 3]);
    assert_eq!((x.result, x.kills), (SuppressResult::Strike, 1));
    // One short of 3 above (39) only suppresses.
    let x = house_shot(4, &[6, 6, 6, 2]);
    x.came_to(39, SuppressResult::Suppressed, 0);
}

#[test]
fn suppressing_fire_and_cover_needs_cover_to_fire_at() {
    let (mut s, f1, a1) = section_and_squad();
    let e = refused(&mut s, 0, &suppress_at_cover(f1, a1), &[3, 3, 3, 3]);
    assert_refusal_says(&e, "in the open");
}

#[test]
fn suppressing_fire_and_specific_weapons_bazookas_and_primitive_weapons_cannot_suppress() {
    let mut s = battle(true, false, false);
    let [b1, a1] = placed(&mut s, "b1 at 10,10; a1 at 10,20");
    when_seat(&mut s, 0, &suppress_at(&[b1], a1))
        .dice(&[3, 3, 3, 3, 3])
        .refused("[Suppression Fire] a bazooka or a primitive weapon cannot use suppressive fire");
    // They still shoot to kill.
    play(&mut s, 0, &shoot(&[b1], a1), &[3, 3, 3, 3, 3]);
}

#[test]
fn suppression_restrictions_fire_at_minus_2_no_suppressing_back_sneak_only_no_assault() {
    let (mut s, f1, a1) = section_and_squad();
    suppress(&mut s, &[f1], a1, &[3, 3, 3, 4]);
    assert!(s.advanced.suppressed.contains(&a1));
    // The Autons' card: "FIRE - At -2 to strike".
    card(&mut s, 1, CardKind::Triple);
    let p = play(&mut s, 1, &shoot(&[a1], f1), &[6, 6, 6]);
    p.assert_says("-6 (-2 a die: Autons Auton Squad is suppressed)");
    p.assert_says("6,6,6 -6 (modifiers) = 12");
    let dead: Vec<String> = figures(&s, f1)[..2].to_vec();
    play(&mut s, 0, &casualties(&dead), &[]);
    // "(suppressed models may not return suppressing FIRE)".
    let e = refused(&mut s, 1, &suppress_at(&[a1], f1), &[6, 6, 6]);
    assert_refusal_says(&e, "may not return suppressing FIRE");
    // SNEAK, not MOVE FAST: half of 8".
    let e = refused(&mut s, 1, &move_to(a1, 1000, 1450), &[]);
    assert_refusal_says(&e, "[Move]");
    play(&mut s, 1, &move_to(a1, 1000, 1650), &[]);
    // No ASSAULT: a move into contact is refused.
    place(&mut s, a1, 12.2, 13.0);
    let e = refused(&mut s, 1, &move_to(a1, 1220, 1110), &[]);
    assert_refusal_says(&e, "not assault");
    // The restrictions last "during their following turn": the end of the
    // Autons' card lifts them.
    play(&mut s, 1, r#""end_card""#, &[]);
    assert!(!s.advanced.suppressed.contains(&a1));
}

/// Text 001, line 56: "NOTE: Models can't use actions under suppression
/// which they wouldn't normally be able to use (No sneaking Daleks etc.)".
#[test]
fn suppression_restrictions_no_actions_under_suppression_they_could_not_normally_use() {
    let (mut s, f1, a1) = section_and_squad();
    // These Autons are emplacements: they do not move and carry no guns.
    for t in &mut s.factions[1].models {
        t.moves = 0;
        t.shoot = 0;
    }
    suppress(&mut s, &[f1], a1, &[3, 3, 3, 4]);
    assert!(s.advanced.suppressed.contains(&a1));
    card(&mut s, 1, CardKind::Triple);
    // No sneak (half a move) for a group that cannot move at all.
    refused(&mut s, 1, &move_to(a1, 1000, 2050), &[]);
    // No fire (at -2) for a group with nothing to fire.
    refused(&mut s, 1, &shoot(&[a1], f1), &[]);
    // `legal` offers it no shot and no move of any length (standing where
    // it is, "TURN - As normal", is all).
    let here = lead_at(&s, a1);
    let offered = Invasion::legal(&s);
    assert!(
        !offered.iter().any(|(_, c)| match c {
            InvasionCommand::Move { group, to, .. } => *group == a1 && *to != Some(here),
            InvasionCommand::Shoot { shooters, .. } => shooters.contains(&a1),
            _ => false,
        }),
        "{offered:?}"
    );
}

#[test]
fn suppression_lasts_until_the_end_of_the_suppressed_sides_next_card_not_the_shooters() {
    let (mut s, f1, a1) = section_and_squad();
    s.drawn = vec![
        xenolog_engine::games::invasion::state::Card {
            seat: Some(0),
            kind: CardKind::Single,
        },
        xenolog_engine::games::invasion::state::Card {
            seat: Some(0),
            kind: CardKind::Single,
        },
    ];
    suppress(&mut s, &[f1], a1, &[3, 3, 3, 4]);
    // The shooters' own card ends (and the next of theirs): still suppressed.
    steps(&mut s);
    assert!(s.advanced.suppressed.contains(&a1));
}

// --- Observers -----------------------------------------------------------------

/// The text's example: the Advanced Team sees the Autons (behind the house
/// from the mortars); the Mortar Observer stands within 5" of both mortar
/// teams, which cannot see them.
fn radio_observers() -> (InvasionState, [GroupId; 5]) {
    let mut s = battle(false, true, false);
    let ids = ["m1", "m2", "r1", "r2", "a1"].map(|x| gid(&s, x));
    let [m1, m2, r1, r2, a1] = ids;
    place(&mut s, a1, 31.0, 26.0);
    place(&mut s, r1, 20.0, 24.0);
    place(&mut s, m1, 31.0, 40.0);
    place(&mut s, m2, 31.0, 42.0);
    place(&mut s, r2, 34.0, 43.0);
    card(&mut s, 0, CardKind::Double);
    (s, ids)
}

#[test]
fn observers_the_radio_observer_example_minus_1_for_no_line_of_sight_cancelled_by_plus_1() {
    let (mut s, [m1, m2, r1, r2, a1]) = radio_observers();
    // "he hides behind a wall and radios to his colleague, giving the
    // location of the advancing Autons".
    let p = play(&mut s, 0, &relay(r1, m1, a1), &[]);
    assert_eq!(
        p.words,
        [
            "U.N.I.T. Support Advanced Team and U.N.I.T. Support Mortar Observer relay where Autons Auton Squad is to U.N.I.T. Support 1st Mortar Team: they may not move or fire this card"
        ]
    );
    // "the second observer relays the information to the two mortar team,
    // checking that both are within 5"".
    play(
        &mut s,
        0,
        &format!(r#"{{"relay":{{"observer":{r1},"via":{r2},"to":{m2},"target":{a1}}}}}"#),
        &[],
    );
    // Relaying costs no action: both mortar teams fire, linked, on the
    // Double card.
    assert_eq!(s.actions_left(), 2);
    let p = play(
        &mut s,
        0,
        &shoot(&[m1, m2], a1),
        &[4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
    );
    // "Both strikes from the mortar teams would normally suffer a -1 to
    // hit, due to the fact they have NO LINE OF SIGHT ... however, this dice
    // modifier is negated by the +1 they gain from using observation."
    p.assert_says("-6 (-1 a die: U.N.I.T. Support 1st Mortar Team has no line of sight)");
    p.assert_says("+6 (+1 a die: observers relayed where Autons Auton Squad is)");
    p.assert_says("-6 (-1 a die: U.N.I.T. Support 2nd Mortar Team has no line of sight)");
    let total = p
        .events
        .iter()
        .find_map(|e| match e {
            E::Shot { total, .. } => Some(*total),
            _ => None,
        })
        .unwrap();
    assert_eq!(total, 48, "12 dice of 4, the -1 and +1 cancelled");
    let dead: Vec<String> = figures(&s, a1)[..2].to_vec();
    play(&mut s, 1, &casualties(&dead), &[]);
    // "during this turn the operators may not MOVE FAST or FIRE".
    card(&mut s, 0, CardKind::Triple);
    s.advanced.relaying = vec![r1, r2];
    when_seat(&mut s, 0, &move_to(r1, 2000, 2000)).refused_starting("[Observers]");
    let e = refused(&mut s, 0, &shoot(&[r1], a1), &[1, 1, 1]);
    assert_refusal_says(&e, "relays on this card");
}

/// "Any firing models, which have information relayed to them ... receive
/// a strike modifier of +1, on their dice roll for this turn": relayed fire
/// from a weapon that needs no line of sight gains it even when it sees the
/// target; "Observers can only be used to direct fire from weapons that do
/// not require LOS": a direct-fire group told the same gains nothing.
#[test]
fn observers_any_firing_models_with_information_relayed_receive_plus_1_seen_or_unseen() {
    let (mut s, [m1, _, r1, r2, a1]) = radio_observers();
    // The mortars in the open west of the Autons, in sight of them; the
    // Mortar Observer beside them, the Fire Section too.
    place(&mut s, m1, 20.0, 27.0);
    place(&mut s, r2, 21.0, 29.0);
    let [f1] = placed(&mut s, "f1 at 18,29");
    for to in [m1, f1] {
        play(&mut s, 0, &relay(r1, to, a1), &[]);
    }
    // The Fire Section, told, fires without the +1 (8 at 20: no kill).
    let p = play(&mut s, 0, &shoot(&[f1], a1), &[1; 8]);
    assert!(!p.says("observers relayed"), "{:#?}", p.words);
    // The mortars, told and in sight: +1 a die, and no -1.
    let p = play(&mut s, 0, &shoot(&[m1], a1), &[4; 6]);
    p.assert_says("+1 a die: observers relayed where");
    assert!(!p.says("has no line of sight"), "{:#?}", p.words);
    // (The total line calls the +6 "skills": it cannot tell them apart.)
    p.assert_says("4,4,4,4,4,4 +6 (skills) = 30");
}

#[test]
fn observers_without_information_relayed_indirect_fire_is_at_minus_1_a_die() {
    let (mut s, [m1, _, _, _, a1]) = radio_observers();
    let p = play(&mut s, 0, &shoot(&[m1], a1), &[4, 4, 4, 4, 4, 4]);
    assert!(!p.says("observers relayed"));
    p.assert_says("4,4,4,4,4,4 -6 (modifiers) = 18");
    // "Information must be relayed each turn": the next card has none.
    play(&mut s, 0, r#""end_card""#, &[]);
    assert!(s.advanced.informed.is_empty());
}

#[test]
fn observers_only_weapons_that_do_not_require_line_of_sight_fire_unseen() {
    let (mut s, [_, _, r1, _, a1]) = radio_observers();
    let [f1] = placed(&mut s, "f1 at 34,40");
    let e = refused(&mut s, 0, &shoot(&[f1], a1), &[4, 4, 4, 4, 4, 4, 4, 4]);
    assert_refusal_says(&e, "line of sight is blocked");
    // And only with the Observers module: without it, mortars need sight.
    let mut s2 = battle(false, false, false);
    let [m1, a] = placed(&mut s2, "m1 at 31,40; a1 at 31,26");
    let e = refused(&mut s2, 0, &shoot(&[m1], a), &[4; 6]);
    assert_refusal_says(&e, "line of sight is blocked");
    // The mortars themselves fire unseen, at -1 a die.
    let (mut s, [m1, _, _, _, a1]) = radio_observers();
    play(&mut s, 0, &shoot(&[m1], a1), &[4; 6])
        .assert_says("-1 a die: U.N.I.T. Support 1st Mortar Team has no line of sight");
    let _ = r1;
}

#[test]
fn observers_must_be_in_line_of_sight_of_the_enemy_they_report() {
    let (mut s, [m1, _, r1, _, a1]) = radio_observers();
    // The Advanced Team behind the house too: it cannot see the Autons.
    place(&mut s, r1, 33.0, 38.0);
    let e = refused(&mut s, 0, &relay(r1, m1, a1), &[]);
    assert_refusal_says(&e, "must be in LOS");
}

/// Text 001, line 106: radio operators may pass on the position of enemy
/// models that are "In line of sight of the observer, or Can be 'sighted'
/// (see below) by the observer".
#[test]
fn observers_relay_enemies_in_line_of_sight_or_that_can_be_sighted_by_the_observer() {
    let mut s = battle(false, true, true);
    let [m1, r1, a1] = ["m1", "r1", "a1"].map(|x| gid(&s, x));
    // The Autons just north of the house, the Advanced Team just south of
    // it (8" apart, the house between), the mortars within 5" behind it.
    place(&mut s, a1, 33.0, 29.0);
    place(&mut s, r1, 33.0, 37.0);
    place(&mut s, m1, 31.0, 40.0);
    // The Mortar Observer, the second radio operator, beside the mortars.
    let [_] = placed(&mut s, "r2 at 34,43");
    card(&mut s, 0, CardKind::Double);
    let relay = relay(r1, m1, a1);
    let e = refused(&mut s, 0, &relay, &[]);
    assert_refusal_says(&e, "sees Autons Auton Squad or has sighted it");
    // A perception test sights them: now the observer may report them.
    let p = play(&mut s, 0, &perceive(r1, a1), &[6]);
    p.assert_says("perceived: the target is sighted");
    let p = play(&mut s, 0, &relay, &[]);
    p.assert_says(
        "U.N.I.T. Support Advanced Team and U.N.I.T. Support Mortar Observer relay where Autons Auton Squad is to U.N.I.T. Support 1st Mortar Team",
    );
    assert!(s.advanced.informed.contains(&(m1, a1)));
    // Without Sighting a Target, line of sight alone.
    let mut s = battle(false, true, false);
    place(&mut s, a1, 33.0, 29.0);
    place(&mut s, r1, 33.0, 37.0);
    place(&mut s, m1, 31.0, 40.0);
    let e = refused(&mut s, 0, &relay, &[]);
    assert_refusal_says(&e, "must be in LOS");
}

#[test]
fn observers_one_radio_operator_is_useless_by_himself_relaying_needs_a_second_within_5_inches() {
    let (mut s, [m1, _, r1, r2, a1]) = radio_observers();
    // The Mortar Observer wanders off: no second operator within 5".
    place(&mut s, r2, 44.0, 20.0);
    let e = refused(&mut s, 0, &relay(r1, m1, a1), &[]);
    assert_refusal_says(&e, "no second radio operator");
    // "One radio operator is pretty useless by himself": even within 5" of
    // the troops, the operator who sees the enemy does not relay alone.
    place(&mut s, m1, 20.0, 27.0);
    let e = refused(&mut s, 0, &relay(r1, m1, a1), &[]);
    assert_refusal_says(&e, "no second radio operator");
    // With the second operator back within 5" of the troops, he receives
    // the position and relays it by word of mouth.
    place(&mut s, r2, 21.0, 29.0);
    let p = play(&mut s, 0, &relay(r1, m1, a1), &[]);
    p.assert_says("Advanced Team and U.N.I.T. Support Mortar Observer relay where");
}

/// At a real table a radio operator's relay names the second operator who
/// received it (`via`); alone it is refused.
#[test]
fn observers_one_radio_operator_is_useless_by_himself_at_a_real_table_too() {
    let mut s = on_ground(InvasionConfig {
        observers: true,
        real_table: true,
        ..InvasionConfig::default()
    });
    let [m1, r1, r2, a1] = ["m1", "r1", "r2", "a1"].map(|x| gid(&s, x));
    card(&mut s, 0, CardKind::Double);
    let e = refused(&mut s, 0, &relay(r1, m1, a1), &[]);
    assert_refusal_says(&e, "One radio operator is pretty useless by himself");
    play(
        &mut s,
        0,
        &format!(r#"{{"relay":{{"observer":{r1},"via":{r2},"to":{m1},"target":{a1}}}}}"#),
        &[],
    );
}

#[test]
fn observers_comm_links_relay_directly_to_each_other() {
    let mut s = given_on_ground(&["daleks", "autons"], &[AUTONS], &["observers", "sighting"]);
    let [d1, d2, a1] = placed(&mut s, "d1 at 20,24; d2 at 31,42; a1 at 31,26");
    card(&mut s, 0, CardKind::Single);
    let p = play(&mut s, 0, &relay(d1, d2, a1), &[]);
    assert!(
        p.words[0].starts_with("Daleks Dalek Patrol Alpha relays where"),
        "{:?}",
        p.words
    );
    assert!(s.advanced.informed.contains(&(d2, a1)));
}

// --- Sighting a Target ---------------------------------------------------------

/// Then: refused by Sighting a Target, the target not sighted.
fn assert_not_sighted(e: &xenolog_engine::RuleError) {
    assert!(
        refusal(e).starts_with("[Sighting a Target]") && refusal(e).contains("has not sighted"),
        "{}",
        refusal(e)
    );
}

/// The Pair at (10,10), a Sniper between it and the Auton Squad at
/// (10.5,16): the Pair cannot see the Autons.
fn screened(sighting: bool) -> (InvasionState, GroupId, GroupId) {
    let mut s = battle(false, false, sighting);
    let [f2, _, a1] = placed(&mut s, "f2 at 10,10; f3 at 10,13; a1 at 10.5,16");
    // The Bazooka Team stands beside the sniper: a screen 2.2" wide.
    let [_] = placed(&mut s, "b1 at 11.1,13");
    (s, f2, a1)
}

#[test]
fn sighting_a_target_models_may_not_rush_round_to_assault_targets_they_could_not_see() {
    let (mut s, f2, a1) = screened(true);
    assert_not_sighted(&refused(&mut s, 0, &move_to(f2, 1050, 1500), &[]));
    // Without the module the same assault is made.
    let (mut s, f2, _) = screened(false);
    let p = play(&mut s, 0, &move_to(f2, 1050, 1500), &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })));
    let _ = a1;
}

/// "certain criteria must be met at the beginning of the active player's
/// turn ... you can avoid such unrealistic events as ... models making a
/// MOVE round the side of a house before FIREing at a target which they
/// could not have known was there": on a Double card the Pair moves out
/// from behind the house to where it sees the Autons, then may not fire at
/// them; without the module it may.
#[test]
fn sighting_a_target_criteria_must_be_met_at_the_beginning_of_the_turn_no_move_round_a_house_then_fire()
 {
    for sighting in [true, false] {
        let mut s = battle(false, false, sighting);
        let [f2, a1] = placed(&mut s, "f2 at 33,38; a1 at 38,29");
        card(&mut s, 0, CardKind::Double);
        let shoot = shoot(&[f2], a1);
        let e = refused(&mut s, 0, &shoot, &[1, 1]);
        assert_refusal_says(&e, "line of sight is blocked");
        play(&mut s, 0, &mv(f2, 39.0, 38.0), &[]);
        if sighting {
            assert_not_sighted(&refused(&mut s, 0, &shoot, &[1, 1]));
            // The next card of the faction finds it in sight: it may fire.
            play(&mut s, 0, r#""end_card""#, &[]);
            card(&mut s, 0, CardKind::Single);
            play(&mut s, 0, &shoot, &[1, 1]);
        } else {
            play(&mut s, 0, &shoot, &[1, 1]);
        }
    }
}

/// "In order for a model to 'sight a target' certain criteria must be met
/// at the beginning of the active player's turn ... Its target must be in
/// Line of Sight": a group that was not on the table when its card began
/// (below it, in the sewers) saw nothing then. U.N.I.T.'s section climbs out
/// of the manhole at (40,20) on a Triple card, in plain sight of a Spug
/// squad: with the module its shot on the same card is refused as not
/// sighted (it may still perceive the squad, within 8"), without it the
/// shot is made; on the faction's next card the section began on the table
/// and fires. Nor did a group that came up on the card stand anywhere (to
/// block a line) as the card began, even after it moves on.
#[test]
fn sighting_a_target_criteria_must_be_met_at_the_beginning_of_the_turn_a_group_that_came_up_on_the_card_saw_nothing()
 {
    for sighting in [true, false] {
        let on: &[&str] = if sighting {
            &["sewers", "sighting"]
        } else {
            &["sewers"]
        };
        let mut s = given_on_ground(&["unit", "spugs"], &[], on);
        let [sec, sq] = placed(&mut s, "s1; sq2 at 40,26");
        below(&mut s, sec, 40.0, 20.0);
        card(&mut s, 0, CardKind::Triple);
        play(&mut s, 0, &group_order("climb", sec), &[]);
        play(&mut s, 0, &group_order("climb", sec), &[]);
        assert_eq!(s.group(sec).place, Place::Table);
        let fire = shoot(&[sec], sq);
        if sighting {
            assert_not_sighted(&refused(&mut s, 0, &fire, &[1; 8]));
            // Nor may it perceive: "it must first be within 8"" as the card
            // began, and it stood nowhere then.
            let e = refused(&mut s, 0, &perceive(sec, sq), &[6]);
            assert_refusal_says(&e, "came onto the table on this card");
            assert_not_sighted(&refused(&mut s, 0, &fire, &[1; 8]));
            // The next card of the faction finds it on the table.
            play(&mut s, 0, r#""end_card""#, &[]);
            card(&mut s, 0, CardKind::Single);
            play(&mut s, 0, &fire, &[1; 8]);
        } else {
            play(&mut s, 0, &fire, &[1; 8]);
        }
    }
    // Nor did it block a line then: section B comes up at the manhole
    // (40,28), between section A and the Spug squad, and moves on; as the
    // card began it stood nowhere, so A, which saw the squad then, fires.
    let mut s = given_on_ground(&["unit", "spugs"], &[], &["sewers", "sighting"]);
    let [a, b, sq] = placed(&mut s, "s1 at 40,22; s2; sq2 at 40,34");
    below(&mut s, b, 40.0, 28.0);
    // One climb made on an earlier card: one left, then the move and the shot.
    s.groups[b as usize].climbing = 1;
    card(&mut s, 0, CardKind::Triple);
    play(&mut s, 0, &group_order("climb", b), &[]);
    assert_eq!(s.group(b).place, Place::Table);
    play(&mut s, 0, &mv(b, 46.0, 28.0), &[]);
    play(&mut s, 0, &shoot(&[a], sq), &[1; 8]);
}

/// The Sniper at (10,10); the Advanced Team (three figures, 9"-11.2") at
/// y 20 stands between it and the Auton Patrol at (10,40); the card is a
/// Triple.
fn friend_in_the_way() -> (InvasionState, GroupId, GroupId, GroupId) {
    let mut s = battle(false, false, true);
    let [f3, r1, a3] = placed(&mut s, "f3 at 10,10; r1 at 9,20; a3 at 10,40");
    (s, f3, r1, a3)
}

/// "In order for a model to 'sight a target' certain criteria must be met
/// at the beginning of the active player's turn ... Its target must be in
/// Line of Sight": the line is traced as the table stood when the card
/// began, so a friend that moves out of the way on the card reveals nothing
/// to a group it screened, whether that group moved first or not. The next
/// card finds the line clear, and the shot is taken.
#[test]
fn sighting_a_target_criteria_must_be_met_at_the_beginning_of_the_turn_a_friend_moving_out_of_the_way_reveals_nothing()
 {
    for sniper_moves_first in [true, false] {
        let (mut s, f3, r1, a3) = friend_in_the_way();
        let e = refused(&mut s, 0, &shoot(&[f3], a3), &[1]);
        assert_refusal_says(&e, "line of sight is blocked");
        if sniper_moves_first {
            play(&mut s, 0, &mv(f3, 11.0, 10.0), &[]);
        }
        play(&mut s, 0, &mv(r1, 17.0, 20.0), &[]);
        assert_not_sighted(&refused(&mut s, 0, &shoot(&[f3], a3), &[1]));
        // The next card of the faction finds the line clear.
        play(&mut s, 0, r#""end_card""#, &[]);
        card(&mut s, 0, CardKind::Single);
        play(&mut s, 0, &shoot(&[f3], a3), &[1]);
    }
}

/// "In order for a model to 'sight a target' certain criteria must be met
/// at the beginning of the active player's turn ... Its target must be in
/// Line of Sight" with "Line of sight will be blocked by intervening
/// groups" and "casualties are removed immediately" (session 22, left open
/// by review11 NIT 4): the criteria are judged as the table stood when the
/// card began, and then the Auton Pair stood between the Sniper and the
/// Auton Patrol. The Fire Section wipes the Pair out on the card: the line
/// is clear now, but the Sniper had not sighted the Patrol when the card
/// began, so it may not fire at it on this card, whether or not a figure
/// moved first (until rules version 8 a figure killed on the card no
/// longer blocked). On the faction's next card the line is clear from the
/// start and the shot is taken.
#[test]
fn sighting_a_target_criteria_must_be_met_at_the_beginning_of_the_turn_a_group_killed_on_the_card_still_blocked_then()
 {
    for sniper_moves_first in [false, true] {
        let mut s = battle(false, false, true);
        let [f3, a2, a3, f1] = placed(&mut s, "f3 at 10,10; a2 at 9,20; a3 at 10,40; f1 at 30,20");
        let e = refused(&mut s, 0, &shoot(&[f3], a3), &[1]);
        assert_refusal_says(&e, "line of sight is blocked");
        if sniper_moves_first {
            play(&mut s, 0, &mv(f3, 11.0, 10.0), &[]);
        }
        let p = play(&mut s, 0, &shoot(&[f1], a2), &[6; 8]);
        assert!(
            p.any(|e| matches!(e, E::Killed { group, .. } if *group == a2)),
            "{:#?}",
            p.words
        );
        assert_eq!(s.group(a2).place, Place::Gone, "{:#?}", p.words);
        assert_not_sighted(&refused(&mut s, 0, &shoot(&[f3], a3), &[1]));
        // The next card of the faction finds the line clear from its start.
        play(&mut s, 0, r#""end_card""#, &[]);
        card(&mut s, 0, CardKind::Single);
        play(&mut s, 0, &shoot(&[f3], a3), &[1]);
    }
    // Without Sighting a Target nothing reads the card's start: a kill
    // notes nothing, and the state stays as rules version 8 left it.
    let mut s = battle(false, false, false);
    let [a2, f1] = placed(&mut s, "a2 at 9,20; f1 at 30,20");
    play(&mut s, 0, &shoot(&[f1], a2), &[6; 8]);
    assert_eq!(s.group(a2).place, Place::Gone);
    assert!(s.card_start.is_empty(), "{:?}", s.card_start);
}

/// Then: the charge is made, and `g` is locked in `target`'s fight.
fn assert_charge_locks(s: &mut InvasionState, charge: &str, g: GroupId, target: GroupId) {
    let p = play(s, 0, charge, &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
    assert_eq!(s.group(g).locked, s.group(target).locked);
}

/// Given: the Autons' group `a1` declared laying in wait (to fire) on their
/// Single card; then seat 0's Triple card is being played.
fn autons_lay_in_wait(s: &mut InvasionState, a1: GroupId) {
    card(s, 1, CardKind::Single);
    play(
        s,
        1,
        &format!(r#"{{"lay_in_wait":{{"group":{a1},"assault":false}}}}"#),
        &[],
    );
    card(s, 0, CardKind::Triple);
}

/// When: seat 0's group `g` walks to `to` (inches), into the sight of the
/// Autons' group `a1` laying in wait, which springs its ambush with three
/// sixes; then `g` is wiped out.
fn shot_dead_walking_into_the_ambush(
    s: &mut InvasionState,
    g: GroupId,
    to: (f64, f64),
    a1: GroupId,
) {
    let p = play(s, 0, &mv(g, to.0, to.1), &[]);
    p.assert_says("comes into the sight of Autons Auton Squad");
    play(s, 1, &spring(a1, g), &[6, 6, 6]);
    assert_eq!(s.group(g).place, Place::Gone);
}

/// Given: U.N.I.T., the Daleks and the Spugs on the proving ground with
/// Sighting a Target on, in this position (as `placed`).
fn sighting_three(position: &str) -> (InvasionState, [GroupId; 4]) {
    let mut s = given_on_ground(&["unit", "daleks", "spugs"], &[], &["sighting"]);
    let groups = placed(&mut s, position);
    (s, groups)
}

/// Put group `g` on the table, its last figures, in order, at these points
/// (inches), the others killed before the battle's cards.
fn figures_at(s: &mut InvasionState, g: GroupId, at: &[(f64, f64)]) {
    s.groups[g as usize].place = Place::Table;
    let n = s.group(g).models.len();
    kill(s, g, n - at.len());
    let alive: Vec<usize> = (0..n).filter(|&i| s.group(g).models[i].alive).collect();
    for (&i, &(x, y)) in alive.iter().zip(at) {
        put(s, g, i, x, y);
    }
}

/// "Hand-to-hand combat is resolved when either a Double or Triple action
/// card is drawn but after the actions on the card have been completed ...
/// Once all casualties have been removed the hand-to-hand combat is over"
/// with Sighting a Target's "criteria must be met at the beginning of the
/// active player's turn" (review15 MUST 1): the melee is resolved after its
/// card has ended, so the next card begins with the table as the resolution
/// left it. U.N.I.T.'s section A stands across the line from Dalek Patrol
/// Beta to section B; Dalek Patrol Alpha charges it from the side on a
/// Dalek Double card. Wiped out in the melee (or, losing three men, falling
/// back out of the line), section A no longer stands there when the Daleks'
/// Single card begins: Beta, which has not moved, fires at section B. Until
/// this mend the melee's dead and its falls back were noted as done on the
/// next card, and the shot was refused as not sighted.
#[test]
fn sighting_a_target_criteria_must_be_met_at_the_beginning_of_the_turn_a_melee_resolved_before_the_card_began_blocks_nothing()
 {
    for wiped_out in [true, false] {
        let (mut s, [a, alpha, beta, b]) =
            sighting_three("s1 at 18.5,25; d1 at 30,25; d2 at 20,10; s2 at 20,34");
        figures_at(&mut s, beta, &[(20.0, 10.0), (20.0, 11.1), (20.0, 12.2)]);
        figures_at(
            &mut s,
            b,
            &[(20.0, 34.0), (20.0, 35.1), (20.0, 36.2), (20.0, 37.3)],
        );
        seat_cards(&mut s, &[(1, CardKind::Double), (1, CardKind::Single)]);
        let fire = shoot(&[beta], b);
        let e = refused(&mut s, 1, &fire, &[1; 18]);
        assert_refusal_says(&e, "line of sight is blocked");
        let p = play(&mut s, 1, &mv(alpha, 22.85, 25.0), &[]);
        assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
        end_card_then_step(&mut s, 1);
        play(&mut s, 0, r#"{"strike":{}}"#, &[1; 8]);
        if wiped_out {
            // 108 at 6: every man falls.
            play(&mut s, 1, r#"{"strike":{}}"#, &[6; 18]);
            assert_eq!(alive(&s, a), 0);
            step(&mut s, &[]);
        } else {
            // 18 at 6: three men fall; both fall back, each the way its
            // player chooses, section A's last man to the west.
            play(&mut s, 1, r#"{"strike":{}}"#, &[1; 18]);
            remove_first(&mut s, 0, a, 3);
            step(&mut s, &[]);
            while let Some(&g) = asked_points(&s).first() {
                let to = if g == a { (1380, 2500) } else { (3195, 2500) };
                let seat = s.group(g).seat;
                play(&mut s, seat, &choose_point(to.0, to.1), &[]);
            }
            assert_eq!(alive(&s, a), 1);
            assert!(s.group(a).points().iter().all(|p| p.x < 15 * 100));
        }
        assert!(
            s.melees.is_empty() && s.pending.is_empty(),
            "{:?}",
            s.pending
        );
        assert_eq!(
            s.card().map(|c| (c.seat, c.kind)),
            Some((Some(1), CardKind::Single))
        );
        play(&mut s, 1, &fire, &[1; 18]);
    }
}

/// "Line of sight will be blocked by intervening groups" (every other group
/// on the table but those fighting the target) with Sighting a Target's
/// "criteria must be met at the beginning of the active player's turn" and
/// "Separate factions than those involved may shoot into a continuing close
/// combat" (review15 SHOULD 1): U.N.I.T.'s last man of section A is locked
/// in base contact with the last Dalek of Patrol Alpha. On the Spugs' Double
/// card Brood Two shoots into the fight and kills him; then Brood Three,
/// behind where he stood, fires at the Dalek. When the card began he was
/// fighting the Dalek, so he blocked no line to it then, and the shot is
/// made (until this mend his death ended the lock, and he was counted as
/// blocking). A group wiped out on the card that was not fighting the
/// target still blocks (the test above with the Auton Pair).
#[test]
fn line_of_sight_those_fighting_the_target_block_nothing_even_when_wiped_out_on_the_card() {
    let (mut s, [a, alpha, two, three]) = sighting_three("s1; d1; sq2 at 8,20; sq3");
    figures_at(&mut s, a, &[(21.0, 20.0)]);
    figures_at(&mut s, alpha, &[(21.0, 26.0)]);
    figures_at(
        &mut s,
        three,
        &[
            (21.0, 8.0),
            (21.0, 9.1),
            (21.0, 10.2),
            (21.0, 11.3),
            (21.0, 12.4),
            (21.0, 13.5),
        ],
    );
    seat_cards(&mut s, &[(1, CardKind::Single), (2, CardKind::Double)]);
    let p = play(&mut s, 1, &mv(alpha, 21.0, 21.05), &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
    // The Single card's one action is spent: it ends (no melee after it).
    step(&mut s, &[]);
    assert_eq!(s.card().map(|c| c.seat), Some(Some(2)));
    assert!(s.group(a).locked.is_some());
    // Every die even: all of them go to the target.
    play(&mut s, 2, &shoot(&[two], a), &[6; 9]);
    assert_eq!(s.group(a).place, Place::Gone);
    assert!(
        s.card_start
            .iter()
            .any(|(id, _)| s.group(a).models.iter().any(|m| m.id == *id))
    );
    play(&mut s, 2, &shoot(&[three], alpha), &[1; 9]);
}

/// "In order for a model to 'sight a target' certain criteria must be met
/// at the beginning of the active player's turn ... Its target must be in
/// Line of Sight" (rules version 10): the criteria are a fact of the table
/// as the card began, the figures killed since included. The Sniper at
/// (10,10) saw one Auton of the Patrol then (at (16,30)); the other, at
/// (10,30), stood behind the Auton Pair. The Fire Section kills the one in
/// sight, and the Sniper steps round the Pair to where it sees the other
/// now: the Patrol was sighted as the card began, so the Sniper fires.
/// Until rules version 9 the figures looked at were only the living ones,
/// and the shot was refused as not sighted. Without a kill (the Patrol's
/// figure in sight moves away on an earlier card, so the card begins with
/// only the hidden one) the Patrol was never sighted, and the shot stays
/// refused.
#[test]
fn sighting_a_target_criteria_must_be_met_at_the_beginning_of_the_turn_a_target_in_sight_then_stays_sighted_when_that_figure_is_killed()
 {
    for killed_on_the_card in [true, false] {
        let mut s = battle(false, false, true);
        let [f3, a2, a3, f1] = placed(
            &mut s,
            "f3 at 10,10; a2 at 9.5,20; a3 at 10,30; f1 at 24,36",
        );
        let _ = a2;
        put(&mut s, a3, 0, 16.0, 30.0);
        put(&mut s, a3, 1, 10.0, 30.0);
        if !killed_on_the_card {
            // Only the hidden Auton when the card began (its friend was
            // killed on an earlier card).
            kill(&mut s, a3, 1);
        }
        let visible = figures(&s, a3)[..1].to_vec();
        if killed_on_the_card {
            // 24 against 20 a kill: one Auton of the Patrol, the Autons'
            // player choosing the one in the Sniper's sight.
            play(&mut s, 0, &shoot(&[f1], a3), &[3; 8]);
            play(&mut s, 1, &casualties(&visible), &[]);
            assert_eq!(s.group(a3).alive_count(), 1);
            assert_eq!(
                s.group(a3).alive().next().map(|m| m.at),
                Some(Some(pt(10.0, 30.0)))
            );
        }
        // From where it stood the Pair hides the living Auton.
        steps_round_the_pair_then_fires(&mut s, f3, (16.0, 10.0), a3, killed_on_the_card);
    }
}

/// When: the Sniper `f3`, its shot at `a3` blocked by the Auton Pair where
/// it stands, steps to `to` (inches), from where it sees `a3`; then its shot
/// is made if `a3` was `sighted`, else refused as not sighted.
fn steps_round_the_pair_then_fires(
    s: &mut InvasionState,
    f3: GroupId,
    to: (f64, f64),
    a3: GroupId,
    sighted: bool,
) {
    let e = refused(s, 0, &shoot(&[f3], a3), &[1]);
    assert_refusal_says(&e, "line of sight is blocked");
    play(s, 0, &mv(f3, to.0, to.1), &[]);
    if sighted {
        let p = play(s, 0, &shoot(&[f3], a3), &[1]);
        assert!(p.any(|e| matches!(e, E::Shot { .. })), "{:#?}", p.words);
    } else {
        assert_not_sighted(&refused(s, 0, &shoot(&[f3], a3), &[1]));
    }
}

/// "Its target must be in LOS of a leader model, who is in turn in Line of
/// Sight and within 10" of the active model. This case allows for a leader
/// model to communicate instructions to their troops, as to the location of
/// the enemy", a criterion "met at the beginning of the active player's
/// turn" (rules version 10): the Command's sergeant at (28,27) sees the
/// Auton Patrol and the Sniper, 8.5" away, when U.N.I.T.'s card begins; the
/// Sniper's own view of the Patrol is blocked by the Auton Pair. The
/// sergeant walks into the sight of the Auton Squad laying in wait beyond
/// the house and is shot dead out of turn; the Sniper steps round the Pair
/// and fires at the Patrol, pointed out by the sergeant as the card began.
/// Until rules version 9 a leader killed on the card pointed out nothing,
/// and the shot was refused as not sighted. With the sergeant alive but
/// more than 10" away when the card began, nothing pointed the Patrol out.
#[test]
fn sighting_a_target_a_leader_killed_on_the_card_pointed_out_what_he_saw_as_it_began() {
    for sergeant_near in [true, false] {
        let mut s = on_ground(InvasionConfig {
            laying_in_wait: true,
            sighting: true,
            ..InvasionConfig::default()
        });
        park(&mut s);
        let sergeant = if sergeant_near {
            "sg at 28,27"
        } else {
            "sg at 31,24"
        };
        let [f3, a2, a3, sg, a1] = placed(
            &mut s,
            &format!("f3 at 20,30; a2 at 19.5,20; a3 at 20,10; {sergeant}; a1 at 40,40"),
        );
        let _ = a2;
        autons_lay_in_wait(&mut s, a1);
        // 6,6,6 less 3 (laying in wait, not aimed): 15, a man at 6.
        shot_dead_walking_into_the_ambush(&mut s, sg, (35.5, 26.0), a1);
        steps_round_the_pair_then_fires(&mut s, f3, (26.0, 30.0), a3, sergeant_near);
    }
}

/// The same criterion, the looking group's side (rules version 10, review19
/// SHOULD 3): a group one of whose figures saw the target as the card began
/// had sighted it, though that figure is killed later on the card. The
/// Pair's first rifleman, at (28,27), sees the Auton Patrol when U.N.I.T.'s
/// card begins; its second, at (20,30), does not (the Auton Pair stands in
/// the way). The Pair walks east into the sight of the Auton Squad laying
/// in wait, and the first rifleman is shot dead; the second steps back to
/// (28,28) and fires at the Patrol: sighted as the card began, the shot is
/// made. Until rules version 9 only the living looked, and it was refused
/// as not sighted. With the first rifleman killed on an earlier card, the
/// Pair never saw the Patrol, and the second rifleman's shot from (26,30)
/// stays refused.
#[test]
fn sighting_a_target_criteria_must_be_met_at_the_beginning_of_the_turn_a_group_whose_figure_in_sight_is_killed_had_sighted_it()
 {
    for killed_on_the_card in [true, false] {
        let mut s = on_ground(InvasionConfig {
            laying_in_wait: true,
            sighting: true,
            ..InvasionConfig::default()
        });
        park(&mut s);
        let [f2, a2, a3, a1] = placed(
            &mut s,
            "f2 at 20,30; a2 at 19.5,20; a3 at 20,10; a1 at 40,40",
        );
        let _ = a2;
        put(&mut s, f2, 0, 28.0, 27.0);
        put(&mut s, f2, 1, 20.0, 30.0);
        let seer = figures(&s, f2)[0].clone();
        if killed_on_the_card {
            autons_lay_in_wait(&mut s, a1);
            let p = play(&mut s, 0, &mv(f2, 35.5, 26.0), &[]);
            p.assert_says("comes into the sight of Autons Auton Squad");
            // 3,3,3 less 3 (laying in wait, not aimed): 6, a man.
            play(&mut s, 1, &spring(a1, f2), &[3, 3, 3]);
            if s.group(f2).alive_count() == 2 {
                play(&mut s, 0, &casualties(&[seer.as_str()]), &[]);
            }
            assert_eq!(figures(&s, f2).len(), 1);
            assert!(!figures(&s, f2).contains(&seer));
        } else {
            kill(&mut s, f2, 1);
            card(&mut s, 0, CardKind::Triple);
        }
        // Where it sees the Patrol now (the sergeant's spot of the leader
        // test, a step from either start).
        let to = if killed_on_the_card {
            (28.0, 28.0)
        } else {
            (26.0, 30.0)
        };
        play(&mut s, 0, &mv(f2, to.0, to.1), &[]);
        if killed_on_the_card {
            let p = play(&mut s, 0, &shoot(&[f2], a3), &[1]);
            assert!(p.any(|e| matches!(e, E::Shot { .. })), "{:#?}", p.words);
        } else {
            assert_not_sighted(&refused(&mut s, 0, &shoot(&[f2], a3), &[1]));
        }
    }
}

/// The same criterion with the sewers rule (rules version 10, review19
/// SHOULD 1): a leader who left the table alive on the card stood on it as
/// the card began, as one killed on it did. The Command's sergeant at
/// (28,27), 8.5" from the Sniper, sees the Auton Patrol and the Sniper when
/// U.N.I.T.'s card begins; he climbs down the manhole he stands at, and the
/// Sniper steps round the Pair and fires at the Patrol, pointed out by the
/// sergeant as the card began. Until this mend only a leader on the table
/// or killed on the card pointed out, and the shot was refused as not
/// sighted. With the sergeant more than 10" away, nothing pointed the
/// Patrol out.
#[test]
fn sighting_a_target_a_leader_gone_below_on_the_card_pointed_out_what_he_saw_as_it_began() {
    for sergeant_near in [true, false] {
        let mut s = on_ground(InvasionConfig {
            sighting: true,
            sewers: true,
            ..InvasionConfig::default()
        });
        park(&mut s);
        let at = if sergeant_near {
            (28.0, 27.0)
        } else {
            (31.0, 24.0)
        };
        let [f3, a2, a3, sg] = placed(
            &mut s,
            &format!(
                "f3 at 20,30; a2 at 19.5,20; a3 at 20,10; sg at {},{}",
                at.0, at.1
            ),
        );
        let _ = a2;
        s.scenario.manholes.push(pt(at.0, at.1));
        card(&mut s, 0, CardKind::Triple);
        play(&mut s, 0, &group_order("descend", sg), &[]);
        assert_eq!(s.group(sg).place, Place::Below);
        steps_round_the_pair_then_fires(&mut s, f3, (26.0, 30.0), a3, sergeant_near);
    }
}

/// "Line of sight will be blocked by intervening groups" with "certain
/// criteria must be met at the beginning of the active player's turn" and
/// the sewers rule (rules version 10, review19 SHOULD 1, review21 SHOULD
/// 3): a friend that climbed down a manhole on the card stood on the table
/// as it began, and blocks the line it stood in. The Command's sergeant
/// stands at a manhole between the Sniper and the Auton Patrol, more than
/// 10" from the Sniper (so he points nothing out); he climbs down, and the
/// Sniper's shot at the Patrol is refused as not sighted. When he went
/// down on the card before, the card began with him below, and the shot is
/// made.
#[test]
fn sighting_a_target_a_friend_gone_below_on_the_card_still_blocked_the_line_it_stood_in() {
    for this_card in [true, false] {
        let mut s = on_ground(InvasionConfig {
            sighting: true,
            sewers: true,
            ..InvasionConfig::default()
        });
        park(&mut s);
        let [f3, a3, sg] = placed(&mut s, "f3 at 20,30.6; a3 at 20,10; sg at 20,20.5");
        // One Auton of the Patrol left, straight behind the sergeant.
        kill(&mut s, a3, 1);
        put(&mut s, a3, 1, 20.0, 10.0);
        s.scenario.manholes.push(pt(20.0, 20.5));
        card(&mut s, 0, CardKind::Triple);
        play(&mut s, 0, &group_order("descend", sg), &[]);
        assert_eq!(s.group(sg).place, Place::Below);
        if !this_card {
            play(&mut s, 0, r#""end_card""#, &[]);
            card(&mut s, 0, CardKind::Triple);
        }
        if this_card {
            assert_not_sighted(&refused(&mut s, 0, &shoot(&[f3], a3), &[1]));
        } else {
            let p = play(&mut s, 0, &shoot(&[f3], a3), &[1]);
            assert!(p.any(|e| matches!(e, E::Shot { .. })), "{:#?}", p.words);
        }
    }
}

/// A hive of two broods, each with a Controller, and a swarm of Mites.
const HIVE: &str = r#"
faction hive "Hive"
model controller "Controller" species spug shoot 1 kill 9 12 15 controller
model mite "Mite" species mite shoot 0 melee 2 move 24 kill 6 9 12 unhindered mite
group c1 "First Brood" controller
group c2 "Second Brood" controller
group m1 "Swarm" mite mite mite
"#;

/// "A Controller can direct the mites to a target he can see without having
/// to see their path to it" and "If the controller is killed the mites can
/// do nothing except charge towards the nearest enemy" beside "criteria
/// must be met at the beginning of the active player's turn" (rules version
/// 10 keeps this reading): directing is done by a living Controller, and
/// the text gives a Controller's death its own rule, so a Controller killed
/// on the card directs his Mites to nothing, even to what he saw as the
/// card began (unlike a leader, who pointed it out then). The First Brood's
/// Controller sees the Auton Patrol beyond the house when the Hive's card
/// begins; the Swarm behind the house does not, nor does the Second Brood's
/// Controller. Alive, the first Controller directs the Swarm's charge
/// round the house; walked into the sight of the Auton Squad laying in wait
/// and shot dead, he directs nothing, and the charge is refused as not
/// sighted (the Second Controller lives: the Mites are not uncontrolled).
#[test]
fn spugs_a_controller_killed_on_the_card_directs_his_mites_to_nothing_he_saw() {
    for killed in [false, true] {
        let config = InvasionConfig {
            scenario_text: Some(GROUND.to_owned()),
            factions: vec!["hive".into(), "autons".into()],
            faction_texts: vec![HIVE.to_owned(), AUTONS.to_owned()],
            laying_in_wait: true,
            sighting: true,
            ..InvasionConfig::default()
        };
        let mut s = start(&config).unwrap_or_else(|e| panic!("setup: {e}"));
        park(&mut s);
        let [c1, c2, m1, a3, a1] = placed(
            &mut s,
            "c1 at 4,38; c2 at 31,20; m1 at 31,27; a3 at 31,38; a1 at 14,20",
        );
        let _ = c2;
        autons_lay_in_wait(&mut s, a1);
        if killed {
            // 6,6,6 less 3 (laying in wait, not aimed): 15, a Controller at 9.
            shot_dead_walking_into_the_ambush(&mut s, c1, (12.0, 38.0), a1);
            assert!(!s.mites_uncontrolled(0));
        }
        let charge = mv(m1, 31.0, 37.0);
        if killed {
            let e = refused(&mut s, 0, &charge, &[]);
            assert_not_sighted(&e);
            assert_refusal_says(&e, "its Controller seeing it");
        } else {
            assert_charge_locks(&mut s, &charge, m1, a3);
        }
    }
}

/// "Line of sight will be blocked by intervening groups" with "certain
/// criteria must be met at the beginning of the active player's turn"
/// (rules version 10): those fighting the target block nothing, but a group
/// that charged into the target's fight on the card was fighting no one as
/// the card began ("locked groups ... cannot move until it is resolved"),
/// and stood where it stood then. The Pair stands between the Sniper and
/// the Auton Patrol; it charges the Patrol, and the Sniper then charges it
/// too, to join the fight: the Pair screened the Patrol as the card began,
/// so the Sniper's assault is refused as not sighted, as when a friend
/// steps out of the way (rules version 7). Until rules version 9 the Pair's
/// lock as it is now left it out of the line, and the assault was made.
/// Without Sighting a Target the assault is made.
#[test]
fn line_of_sight_a_group_that_charged_into_the_targets_fight_on_the_card_blocked_the_line_it_stood_in()
 {
    for sighting in [true, false] {
        let mut s = battle(false, false, sighting);
        let [f3, f2, a3] = placed(&mut s, "f3 at 20.5,19.5; f2 at 20,16; a3 at 20,12");
        let p = play(&mut s, 0, &mv(f2, 20.0, 13.1), &[]);
        assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
        assert_eq!(s.group(f2).locked, s.group(a3).locked);
        refused_unsighted_else_joins(&mut s, sighting, &mv(f3, 22.2, 12.0));
    }
}

/// Then: seat 0's `charge` into a fight is refused as not sighted with
/// Sighting a Target on (`sighting`), else made, joining the fight.
fn refused_unsighted_else_joins(s: &mut InvasionState, sighting: bool, charge: &str) {
    if sighting {
        assert_not_sighted(&refused(s, 0, charge, &[]));
    } else {
        let p = play(s, 0, charge, &[]);
        assert!(
            p.any(|e| matches!(e, E::Locked { .. } | E::Merged { .. })),
            "{:#?}",
            p.words
        );
    }
}

/// "Line of sight will be blocked by intervening groups" with "certain
/// criteria must be met at the beginning of the active player's turn"
/// (rules version 10, review21 MUST 1): Dalek Patrol Alpha charges
/// U.N.I.T.'s section A on a Single card (no melee after it), so they are
/// still locked as U.N.I.T.'s Double card begins. Section R stands between
/// section S and the Dalek; it charges the Dalek and, U.N.I.T. having a
/// group in that fight already, merges into A. Then S charges the Dalek to
/// join the fight: R screened it as the card began (it was fighting no
/// one then), so the assault is refused as not sighted, though R's figure
/// is now one of A's, which fought the Dalek then (until this mend it was
/// counted with A, blocked nothing, and the assault was made). Without
/// Sighting a Target the assault is made.
#[test]
fn line_of_sight_a_charger_merged_into_a_group_fighting_the_target_blocked_the_line_it_stood_in() {
    for sighting in [true, false] {
        let on: &[&str] = if sighting { &["sighting"] } else { &[] };
        let mut s = given_on_ground(&["unit", "daleks", "spugs"], &[], on);
        let [a, r, sec, alpha] = placed(&mut s, "s1; s2; s3; d1");
        figures_at(&mut s, a, &[(19.95, 21.05)]);
        figures_at(&mut s, alpha, &[(21.0, 26.0)]);
        figures_at(&mut s, r, &[(24.0, 21.05)]);
        figures_at(&mut s, sec, &[(26.5, 21.05)]);
        seat_cards(&mut s, &[(1, CardKind::Single), (0, CardKind::Double)]);
        let p = play(&mut s, 1, &mv(alpha, 21.0, 21.05), &[]);
        assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
        step(&mut s, &[]);
        assert_eq!(s.card().map(|c| c.seat), Some(Some(0)));
        assert!(s.group(a).locked.is_some());
        let p = play(&mut s, 0, &mv(r, 21.75, 21.85), &[]);
        assert!(
            p.any(|e| matches!(e, E::Merged { from, into } if *from == r && *into == a)),
            "{:#?}",
            p.words
        );
        refused_unsighted_else_joins(&mut s, sighting, &mv(sec, 21.0, 20.0));
    }
}

/// "Line of sight will be blocked by intervening groups" (every group but
/// those fighting the target) with "certain criteria must be met at the
/// beginning of the active player's turn" and "locked groups ... cannot
/// move until it is resolved" (rules version 10, review21 SHOULD 3: the
/// lock-now branch): Dalek Patrol Alpha charges section A's first man on a
/// Single card; A's second man stands three inches off, between Spugs
/// Brood Two and the Dalek. Before the Spugs' Double card the man in
/// contact is dead, so as the card began no figure of A touched the Dalek;
/// Brood Three moves far off first, so sight is taken as the card began;
/// but nothing of the fight moved on the card, so its lock now is its lock
/// then, A was fighting the Dalek, blocks nothing, and Brood Two's shot at
/// the Dalek is made. When A's first man stood far off, the charge locked
/// no one, and the second man blocks the line: the shot is refused.
#[test]
fn line_of_sight_a_group_locked_with_the_target_as_the_card_began_blocks_nothing_though_none_of_it_touched_it()
 {
    for locked in [true, false] {
        let (mut s, [a, alpha, two, three]) = sighting_three("s1; d1; sq2; sq3");
        let first = if locked { (21.0, 20.0) } else { (8.0, 8.0) };
        figures_at(&mut s, a, &[first, (24.0, 21.05)]);
        figures_at(&mut s, alpha, &[(21.0, 26.0)]);
        figures_at(&mut s, two, &[(30.0, 21.05)]);
        figures_at(&mut s, three, &[(40.0, 40.0)]);
        seat_cards(&mut s, &[(1, CardKind::Single), (2, CardKind::Double)]);
        let p = play(&mut s, 1, &mv(alpha, 21.0, 21.05), &[]);
        assert_eq!(
            p.any(|e| matches!(e, E::Locked { .. })),
            locked,
            "{:#?}",
            p.words
        );
        step(&mut s, &[]);
        assert_eq!(s.card().map(|c| c.seat), Some(Some(2)));
        // The man in contact fell before the card (he is not noted on it).
        kill(&mut s, a, 1);
        assert_eq!(s.group(a).alive_count(), 1);
        assert_eq!(s.group(a).locked.is_some(), locked);
        // Brood Three moves far off: the table no longer stands as the card
        // began, so sight is taken as it stood then.
        play(&mut s, 2, &mv(three, 40.0, 38.0), &[]);
        let fire = shoot(&[two], alpha);
        if locked {
            let p = play(&mut s, 2, &fire, &[1; 4]);
            assert!(p.any(|e| matches!(e, E::Shot { .. })), "{:#?}", p.words);
        } else {
            let e = refused(&mut s, 2, &fire, &[1; 4]);
            assert_refusal_says(
                &e,
                "the line of sight is blocked by U.N.I.T. 1st Squad, Section A",
            );
        }
    }
}

/// "BUILDINGS AND LOS ... At any other time models in buildings will be
/// outside LOS, and cannot be sighted" with Sighting a Target ("hiding
/// targets need to be sighted before any offensive action"): the Pair,
/// which sees the house from the south, may not assault the Auton Squad
/// inside it by its wall, away from its windows; without the Buildings
/// module the squad is seen in the house and the assault is made.
#[test]
fn buildings_and_los_a_group_inside_away_from_the_windows_cannot_be_sighted_for_an_assault() {
    for buildings in [true, false] {
        let mut s = battle(false, false, true);
        if buildings {
            s.advanced.modules.push(Module::Buildings);
        }
        let [f2, a1] = placed(&mut s, "f2 at 31,22; a1 at 31,30.6");
        let charge = mv(f2, 31.0, 29.6);
        if buildings {
            let e = refused(&mut s, 0, &charge, &[]);
            assert_refusal_says(&e, "cannot be seen from outside, only perceived");
        } else {
            assert_charge_locks(&mut s, &charge, f2, a1);
        }
    }
}

/// "PERCEPTION ... hazard a good guess that an enemy model has moved; behind
/// a wall, or into a house etc. ... The target model now counts as being
/// 'sighted'" beside "BUILDINGS AND LOS ... cannot be sighted" (A18): the
/// Pair outside the house may test to perceive the Auton Squad inside it,
/// away from its windows; a 6 sights it and the Pair may storm the house, a
/// 5 leaves the assault refused. Either way the squad "can only be targeted
/// if ... standing at windows": the Pair may not fire at it.
#[test]
fn perception_may_find_an_enemy_that_has_moved_into_a_house_then_an_assault_on_it_is_sighted() {
    for roll in [6, 5] {
        let mut s = battle(false, false, true);
        s.advanced.modules.push(Module::Buildings);
        let [f2, a1] = placed(&mut s, "f2 at 31,23; a1 at 31,30.6");
        let p = play(&mut s, 0, &perceive(f2, a1), &[roll]);
        let e = refused(&mut s, 0, &shoot(&[f2], a1), &[1, 1]);
        assert_refusal_says(&e, "cannot be seen or sighted");
        let charge = mv(f2, 31.0, 29.6);
        if roll == 6 {
            p.assert_says("perceived: the target is sighted");
            assert_charge_locks(&mut s, &charge, f2, a1);
        } else {
            p.assert_says("not perceived");
            let e = refused(&mut s, 0, &charge, &[]);
            assert_refusal_says(&e, "cannot be seen from outside, only perceived");
        }
    }
}

/// "SIGHTING A TARGET ... criteria must be met at the beginning of the
/// active player's turn" with "BUILDINGS AND LOS ... cannot be sighted" and
/// "PERCEPTION ... an enemy model has moved; behind a wall, or into a house
/// etc." (A18): the Pair walks into the house on its card, then tries to
/// assault the Auton Squad inside it, away from its windows. It stood
/// outside when the card began, so the squad is not sighted: the assault is
/// refused unless a perception test finds it (a 6). On the faction's next
/// card the Pair began inside with the squad and sees it: the assault is
/// made with no test.
#[test]
fn sighting_a_target_a_group_that_walks_into_a_house_on_the_card_must_perceive_the_enemy_inside_to_assault_it()
 {
    for (roll, next_card) in [
        (Some(6), false),
        (Some(5), false),
        (None, false),
        (None, true),
    ] {
        let mut s = battle(false, false, true);
        s.advanced.modules.push(Module::Buildings);
        let [f2, a1] = placed(&mut s, "f2 at 35,26; a1 at 31,30.6");
        let p = play(&mut s, 0, &mv(f2, 35.0, 33.5), &[]);
        assert!(!p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
        assert!(
            s.group(f2)
                .points()
                .iter()
                .all(|p| p.x > 30 * 100 && p.y > 30 * 100)
        );
        let charge = mv(f2, 33.2, 31.6);
        if next_card {
            play(&mut s, 0, r#""end_card""#, &[]);
            card(&mut s, 0, CardKind::Single);
        }
        if let Some(roll) = roll {
            play(&mut s, 0, &perceive(f2, a1), &[roll]);
        }
        if roll == Some(6) || next_card {
            assert_charge_locks(&mut s, &charge, f2, a1);
        } else {
            let e = refused(&mut s, 0, &charge, &[]);
            assert_refusal_says(&e, "cannot be seen from outside, only perceived");
        }
    }
}

/// "BUILDINGS AND LOS ... models in buildings will be outside LOS" hides a
/// group from those outside the building, not from its neighbours inside it
/// (A18): the Pair, inside the house with the Auton Squad (both away from
/// the windows), may fire at it or assault it; the Sniper outside may not
/// fire at it.
#[test]
fn buildings_and_los_a_group_inside_is_not_hidden_from_a_group_inside_the_same_building() {
    let mut s = battle(false, false, true);
    s.advanced.modules.push(Module::Buildings);
    let [f2, a1, f3] = placed(&mut s, "f2 at 31,33.5; a1 at 31,30.6; f3 at 40,31");
    let e = refused(&mut s, 0, &shoot(&[f3], a1), &[1]);
    assert_refusal_says(&e, "cannot be seen or sighted");
    let mut fire = s.clone();
    let p = play(&mut fire, 0, &shoot(&[f2], a1), &[1, 1]);
    p.assert_says("2D6 at Autons Auton Squad");
    let p = play(&mut s, 0, &mv(f2, 31.0, 31.6), &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
    assert_eq!(s.group(f2).locked, s.group(a1).locked);
}

#[test]
fn sighting_a_target_a_leader_within_10_inches_who_sees_it_points_it_out() {
    let (mut s, f2, _) = screened(true);
    let [_] = placed(&mut s, "sg at 16,13");
    let p = play(&mut s, 0, &move_to(f2, 1050, 1500), &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
}

#[test]
fn perception_a_6_perceives_the_target_within_8_inches_and_it_counts_as_sighted() {
    let (mut s, f2, a1) = screened(true);
    let p = play(&mut s, 0, &perceive(f2, a1), &[6]);
    assert_eq!(
        p.words,
        [
            "Perception test for U.N.I.T. Support Pair against Autons Auton Squad: needs 6, rolls 6: perceived: the target is sighted"
        ]
    );
    // It costs no action; the assault may now be made.
    assert_eq!(s.actions_left(), 3);
    let p = play(&mut s, 0, &move_to(f2, 1050, 1500), &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })));
}

#[test]
fn perception_a_5_fails_without_a_leader_and_one_test_a_card() {
    let (mut s, f2, a1) = screened(true);
    let p = play(&mut s, 0, &perceive(f2, a1), &[5]);
    p.assert_says("needs 6, rolls 5: not perceived");
    let e = refused(&mut s, 0, &perceive(f2, a1), &[6]);
    assert_refusal_says(&e, "already tested");
    let e = refused(&mut s, 0, &move_to(f2, 1050, 1500), &[]);
    assert_refusal_says(&e, "has not sighted");
}

#[test]
fn perception_leader_models_receive_plus_1_a_5_with_a_leader_perceives() {
    let (mut s, _, a1) = screened(true);
    let sg = gid(&s, "sg");
    // The sergeant behind the screen, within 8" of the Autons.
    place(&mut s, sg, 12.0, 10.0);
    let p = play(&mut s, 0, &perceive(sg, a1), &[5]);
    p.assert_says("needs 6, rolls 5 +1 (leader): perceived: the target is sighted");
}

#[test]
fn perception_plus_1_for_every_battle_survived_in_a_campaign() {
    let (mut s, f2, a1) = screened(true);
    s.groups[f2 as usize].models[1].bonus.perception = 2;
    let p = play(&mut s, 0, &perceive(f2, a1), &[4]);
    p.assert_says("rolls 4 +2 (campaign): perceived");
}

#[test]
fn perception_the_target_must_first_be_within_8_inches_and_out_of_sight() {
    let (mut s, f2, a1) = screened(true);
    place(&mut s, a1, 10.5, 25.0);
    let e = refused(&mut s, 0, &perceive(f2, a1), &[6]);
    assert_refusal_says(&e, "must be within 8\"");
    let [a2] = placed(&mut s, "a2 at 18,10");
    let e = refused(&mut s, 0, &perceive(f2, a2), &[6]);
    assert_refusal_says(&e, "needs no perception test");
}

/// "Your last chance to spot him" with "criteria must be met at the
/// beginning of the active player's turn" (rules version 10, review19
/// SHOULD 4): a target in sight as the card began needs no perception
/// test, the figures killed since among those looked at. The Sniper at
/// (10,21) sees one Auton of the Patrol (at (15,27)) when U.N.I.T.'s card
/// begins; the other, at (10,28), stands behind the Auton Pair, both within
/// 8". The Fire Section kills the one in sight; the Sniper's test for the
/// Patrol is refused as needless. Until rules version 9 the living only
/// were looked at, and the test was made. With the Auton in sight killed on
/// an earlier card, the Patrol was out of sight as the card began, and the
/// test is made.
#[test]
fn perception_a_target_in_sight_as_the_card_began_through_a_figure_killed_since_needs_no_test() {
    for killed_on_the_card in [true, false] {
        let mut s = battle(false, false, true);
        let [f3, a2, a3, f1] = placed(&mut s, "f3 at 10,21; a2 at 10,24; a3 at 10,28; f1 at 24,36");
        let _ = a2;
        put(&mut s, a3, 0, 15.0, 27.0);
        put(&mut s, a3, 1, 10.0, 28.0);
        if !killed_on_the_card {
            kill(&mut s, a3, 1);
        } else {
            let visible = figures(&s, a3)[..1].to_vec();
            // 24 against 20 a kill: the Autons' player takes the one in sight.
            play(&mut s, 0, &shoot(&[f1], a3), &[3; 8]);
            play(&mut s, 1, &casualties(&visible), &[]);
            assert_eq!(
                s.group(a3).alive().next().map(|m| m.at),
                Some(Some(pt(10.0, 28.0)))
            );
        }
        if killed_on_the_card {
            let e = refused(&mut s, 0, &perceive(f3, a3), &[6]);
            assert_refusal_says(&e, "needs no perception test");
        } else {
            let p = play(&mut s, 0, &perceive(f3, a3), &[6]);
            assert!(
                p.any(|e| matches!(
                    e,
                    E::Perception {
                        perceived: true,
                        ..
                    }
                )),
                "{:#?}",
                p.words
            );
        }
    }
}

#[test]
fn sighting_indirect_fire_needs_the_target_sighted_observers_relaying_sight_it() {
    let mut s = on_ground(InvasionConfig {
        observers: true,
        sighting: true,
        ..InvasionConfig::default()
    });
    park(&mut s);
    let [m1, r1, r2, a1] = ["m1", "r1", "r2", "a1"].map(|x| gid(&s, x));
    place(&mut s, a1, 31.0, 26.0);
    place(&mut s, r1, 20.0, 24.0);
    place(&mut s, m1, 31.0, 40.0);
    place(&mut s, r2, 34.0, 43.0);
    card(&mut s, 0, CardKind::Double);
    let e = refused(&mut s, 0, &shoot(&[m1], a1), &[4; 6]);
    assert_refusal_says(&e, "has not sighted");
    play(&mut s, 0, &relay(r1, m1, a1), &[]);
    play(&mut s, 0, &shoot(&[m1], a1), &[4; 6]);
}

#[test]
fn fire_modules_legal_lists_only_commands_decide_accepts() {
    let (s, _) = radio_observers();
    assert_legal_accepted(&s);
    let mut s = battle(true, true, true);
    let [f1, a1, _] = placed(&mut s, "f1 at 10,10; a1 at 10,20; r1 at 14,10");
    assert_legal_accepted(&s);
    assert!(is_legal(&s, &suppress_at(&[f1], a1)));
    let words = describe::command(&s, Actor(0), &cmd(&suppress_at_cover(f1, a1)));
    assert_eq!(
        words,
        "Fire Section lay down suppressing fire at the cover of Autons Auton Squad"
    );
    assert!(Invasion::legal(&s).len() > 10);
}

// --- Laying in Wait ------------------------------------------------------------

fn waiting_battle(real_table: bool) -> InvasionState {
    let mut s = on_ground(InvasionConfig {
        laying_in_wait: true,
        suppression: true,
        real_table,
        ..InvasionConfig::default()
    });
    if !real_table {
        park(&mut s);
    }
    card(&mut s, 0, CardKind::Triple);
    s
}

fn lay(s: &mut InvasionState, g: GroupId, assault: bool) -> Played {
    play(
        s,
        0,
        &format!(r#"{{"lay_in_wait":{{"group":{g},"assault":{assault}}}}}"#),
        &[],
    )
}

/// The waiting group `g` springs its ambush on `target`.
fn spring(g: GroupId, target: GroupId) -> String {
    format!(r#"{{"spring":{{"group":{g},"target":{target}}}}}"#)
}

/// A group's move event, its measured figure ending at `to`.
fn moved_to(group: GroupId, to: xenolog_engine::games::invasion::model::Point) -> E {
    E::Moved {
        group,
        to: vec![Some(to)],
        lead: 0,
        stopped: None,
        declared_cover: None,
        face: None,
    }
}

/// Given `who` (a group of seat 0) laying in wait at (10,10), when the
/// Auton Squad walks from (26,40) into its sight on the Autons' card: the
/// ambush is owed.
fn ambush_owed(who: &str) -> (InvasionState, GroupId, GroupId, Played) {
    let mut s = waiting_battle(false);
    let [g, a1] = placed(&mut s, &format!("{who} at 10,10; a1 at 26,40"));
    lay(&mut s, g, false);
    card(&mut s, 1, CardKind::Triple);
    let p = play(&mut s, 1, &move_to(a1, 2600, 3400), &[]);
    (s, g, a1, p)
}

#[test]
fn laying_in_wait_is_declared_at_the_beginning_of_the_players_own_turn() {
    let mut s = waiting_battle(false);
    let (f2, f3) = (gid(&s, "f2"), gid(&s, "f3"));
    let p = lay(&mut s, f3, false);
    assert_eq!(
        p.words,
        [
            "U.N.I.T. Support Sniper lays in wait to fire at an enemy that comes into sight: it may only turn or sneak on its own cards"
        ]
    );
    // Free: no action of the card spent.
    assert_eq!(s.actions_left(), 3);
    place(&mut s, f2, 10.0, 10.0);
    play(&mut s, 0, &move_to(f2, 1000, 1200), &[]);
    let e = refused(&mut s, 0, &group_order("lay_in_wait", f2), &[]);
    assert_refusal_says(&e, "at the beginning of his own turn");
    // Only with the module.
    let mut s = battle(true, true, true);
    let e = refused(&mut s, 0, &group_order("lay_in_wait", f3), &[]);
    assert_refusal_says(&e, "not a module");
}

/// A crew with one group of guns, one of bare hands and one with no dice
/// at all, against the Autons.
const CREW: &str = r#"
faction crew "Crew"
model rifleman "Rifleman" species human shoot 1 kill 6 9 12
model brawler  "Brawler"  species human shoot 0 melee 2 kill 6 9 12
model medic    "Medic"    species human shoot 0 kill 6 9 12
group g1 "Riflemen" rifleman rifleman
group g2 "Brawlers" brawler brawler
group g3 "Medics" medic medic
"#;

/// The review's finding: a group with no dice to shoot (neither a missile
/// weapon nor close-combat dice) was let lay in wait to fire.
#[test]
fn laying_in_wait_fire_any_model_armed_with_a_missile_weapon_and_no_other() {
    let mut s = given_on_ground(&["crew", "autons"], &[CREW, AUTONS], &["laying_in_wait"]);
    card(&mut s, 0, CardKind::Triple);
    let (g1, g2, g3) = (gid(&s, "g1"), gid(&s, "g2"), gid(&s, "g3"));
    when_seat(&mut s, 0, &group_order("lay_in_wait", g3))
        .refused("[Laying in Wait] Crew Medics has no missile weapon (no shooting dice): \"Any model armed with a missile weapon (gun etc.) may use 'laying in wait'\" to fire; it has no dice to assault with either");
    let e = refused(&mut s, 0, &group_order("lay_in_wait", g2), &[]);
    assert!(
        refusal(&e).ends_with("to fire; it may lay in wait to assault"),
        "{}",
        refusal(&e)
    );
    assert!(!is_legal(&s, &group_order("lay_in_wait", g3)));
    // Armed with a missile weapon: it lays in wait to fire; bare hands wait
    // to assault.
    let p = lay(&mut s, g1, false);
    p.assert_says("Crew Riflemen lays in wait to fire");
    lay(&mut s, g2, true);
    assert_eq!(s.advanced.waiting, [(g1, false), (g2, true)]);
}

#[test]
fn laying_in_wait_the_models_may_perform_only_turn_or_sneak_during_their_own_turn() {
    let mut s = waiting_battle(false);
    let [f3, a1] = placed(&mut s, "f3 at 10,10; a1 at 26,40");
    lay(&mut s, f3, false);
    let shoot = shoot(&[f3], a1);
    let e = refused(&mut s, 0, &shoot, &[6]);
    assert_refusal_says(&e, "may only turn or sneak");
    // "Models 'laying in wait' cannot use suppressing fire."
    when_seat(&mut s, 0, &suppress_at(&[f3], a1))
        .dice(&[6])
        .refused_starting("[Laying in Wait]");
    // SNEAK: half of 8".
    let e = refused(&mut s, 0, &move_to(f3, 1000, 1600), &[]);
    assert_refusal_says(&e, "moves 4\"");
    play(&mut s, 0, &move_to(f3, 1000, 1350), &[]);
    // Taken out of laying in wait, it "can perform any action this turn".
    play(&mut s, 0, &group_order("stand_down", f3), &[])
        .assert_says("U.N.I.T. Support Sniper stops laying in wait");
    play(&mut s, 0, &shoot, &[6]);
}

/// "any enemy model, which enters into the lying in wait models LOS ...
/// (even if they are passing through) becomes a target": the path of a move
/// is measured, not only its end. The Fire Section waits at (20,22); an
/// Auton's measured figure goes from behind the house, across the open gap,
/// to behind the wood: hidden at both ends, seen on the way.
#[test]
fn laying_in_wait_even_if_they_are_passing_through_the_path_of_a_move_is_measured() {
    use xenolog_engine::games::invasion::wait::ambushes_after;
    let mut s = waiting_battle(false);
    let [f1, a1] = placed(&mut s, "f1 at 20,22; a1");
    lay(&mut s, f1, false);
    card(&mut s, 1, CardKind::Triple);
    kill(&mut s, a1, 2);
    put(&mut s, a1, 2, 33.0, 40.0);
    // Hidden where it starts (behind the house) and where it ends (behind
    // the wood).
    let to = pt(6.0, 40.0);
    let moved = moved_to(a1, to);
    let due = ambushes_after(&s, std::slice::from_ref(&moved));
    assert!(
        matches!(due.as_slice(), [E::AmbushDue { group, target, .. }] if *group == f1 && *target == a1),
        "{due:?}"
    );
    // Only the end measured would owe nothing: a move of no length there.
    let mut there = s.clone();
    put(&mut there, a1, 2, 6.0, 40.0);
    let stay = moved_to(a1, to);
    assert!(ambushes_after(&there, &[stay]).is_empty());
    let stay_at_start = moved_to(a1, pt(33.0, 40.0));
    assert!(ambushes_after(&s, std::slice::from_ref(&stay_at_start)).is_empty());
    // Sprung, the shot is taken as the Autons passed (out of sight now).
    xenolog_engine::games::invasion::state::apply(&mut s, &moved);
    for e in &due {
        xenolog_engine::games::invasion::state::apply(&mut s, e);
    }
    let p = play(&mut s, 0, &spring(f1, a1), &[6; 8]);
    p.assert_says("springs its ambush on Autons Auton Squad");
    assert_eq!(
        alive(&s, a1),
        0,
        "48 less 8 at 20: the last Auton is killed"
    );
}

/// The Fire Section laying in wait at (40,14) (with Sighting a Target if
/// `sighting`) when the Auton Squad, below the table at the manhole at
/// (40,20) with one climb made, climbs out on the Autons' card.
fn surfacing_into_sight(sighting: bool) -> (InvasionState, GroupId, GroupId, Played) {
    let mut s = on_ground(InvasionConfig {
        laying_in_wait: true,
        sewers: true,
        sighting,
        ..InvasionConfig::default()
    });
    park(&mut s);
    let [f1, a1] = placed(&mut s, "f1 at 40,14; a1");
    card(&mut s, 0, CardKind::Single);
    lay(&mut s, f1, false);
    let g = &mut s.groups[a1 as usize];
    g.place = Place::Below;
    g.below_at = Some(pt(40.0, 20.0));
    g.climbing = 1;
    for m in &mut g.models {
        m.at = None;
    }
    card(&mut s, 1, CardKind::Single);
    let p = play(&mut s, 1, &group_order("climb", a1), &[]);
    (s, f1, a1, p)
}

/// The same clause: coming up out of the sewers into the waiting group's
/// sight is entering it ("any enemy model, which enters into ... LOS").
#[test]
fn laying_in_wait_an_enemy_surfacing_into_its_sight_is_a_target() {
    let (_, f1, _, p) = surfacing_into_sight(false);
    assert!(
        p.any(|e| matches!(e, E::AmbushDue { group, .. } if *group == f1)),
        "{:#?}",
        p.words
    );
}

#[test]
fn laying_in_wait_fires_out_of_turn_at_an_enemy_entering_its_sight_at_minus_1() {
    // The Autons' card: their squad moves into the section's sight.
    let (mut s, f1, a1, p) = ambush_owed("f1");
    p.assert_says(
        "Autons Auton Squad comes into the sight of U.N.I.T. Support Fire Section, laying in wait",
    );
    // The game stops and asks the waiting player, in the Autons' card.
    let asked = Invasion::asked(&s);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].seat, Actor(0));
    assert!(
        asked[0].what.contains("spring the ambush, or let it pass"),
        "{}",
        asked[0].what
    );
    let legal = Invasion::legal(&s);
    assert!(legal.iter().all(|(a, _)| *a == Actor(0)), "{legal:?}");
    assert_eq!(legal.len(), 2, "{legal:?}");
    let e = refused(&mut s, 1, r#""end_card""#, &[]);
    assert_refusal_says(&e, "springs its ambush");
    // "rolls a dice to strike immediately (yes, out of his turn) ... the
    // laying in wait model does however suffer a -1 dice modifier".
    let p = play(&mut s, 0, &spring(f1, a1), &[6, 6, 6, 6, 6, 6, 6, 6]);
    p.assert_says(
        "U.N.I.T. Support Fire Section springs its ambush on Autons Auton Squad, out of turn",
    );
    p.assert_says(
        "-8 (-1 a die: U.N.I.T. Support Fire Section fires from laying in wait, not aimed)",
    );
    p.assert_says("6,6,6,6,6,6,6,6 -8 (modifiers) = 40: 2 kills at 20 each");
    // The Autons' card is theirs again, none of its actions spent by the ambush.
    assert_eq!(s.actions_left(), 2);
    assert!(s.advanced.waiting.is_empty(), "the wait is spent");
    assert!(!p.any(|e| matches!(e, E::Spent { .. })));
}

/// Text 001, line 165: "NOTE: Models 'laying in wait' cannot perform any
/// actions, other than FIRE, in their opponents turn."
#[test]
fn laying_in_wait_no_actions_other_than_fire_in_the_opponents_turn() {
    let (mut s, f1, a1, _) = ambush_owed("f1");
    // Asked in the Autons' card: a move, a plain shot, suppressing fire or
    // a special action of the waiting group are all refused.
    for json in [
        move_to(f1, 1000, 1200),
        shoot(&[f1], a1),
        suppress_at(&[f1], a1),
        format!(r#"{{"try":{{"group":{f1},"what":"dig in"}}}}"#),
    ] {
        refused(&mut s, 0, &json, &[6, 6, 6, 6, 6, 6, 6, 6]);
    }
    // Let pass, it still may not act in the Autons' card.
    play(&mut s, 0, r#""let_pass""#, &[]);
    refused(&mut s, 0, &move_to(f1, 1000, 1200), &[]);
    assert_eq!(s.advanced.waiting, [(f1, false)]);
}

#[test]
fn laying_in_wait_a_target_let_pass_leaves_the_group_waiting() {
    let (mut s, f3, a1, _) = ambush_owed("f3");
    play(&mut s, 0, r#""let_pass""#, &[])
        .assert_says("U.N.I.T. Support Sniper lets Autons Auton Squad pass and goes on waiting");
    assert_eq!(s.advanced.waiting, [(f3, false)]);
    assert!(s.pending.is_empty());
    // Without a move into sight, no ambush is owed: it cannot be sprung.
    let e = refused(&mut s, 0, &spring(f3, a1), &[6]);
    assert_refusal_says(&e, "the game asks you then");
}

#[test]
fn laying_in_wait_and_assault_charges_an_enemy_entering_its_move_distance() {
    let mut s = waiting_battle(false);
    let [f2, a1, a2] = placed(&mut s, "f2 at 10,10; a1 at 26,40; a2 at 22,12");
    lay(&mut s, f2, true)
        .assert_says("lays in wait to assault an enemy that comes within its move");
    card(&mut s, 1, CardKind::Triple);
    // In sight but beyond 8": no ambush.
    let p = play(&mut s, 1, &move_to(a1, 2600, 3300), &[]);
    assert!(!p.says("comes into the sight"), "{:#?}", p.words);
    // Within its move ("even if they are passing through": where it ends).
    let p = play(&mut s, 1, &move_to(a2, 1600, 1200), &[]);
    p.assert_says("comes into the sight of U.N.I.T. Support Pair");
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"spring":{{"group":{f2},"target":{a2}}}}}"#),
        &[],
    );
    // "charges forth from their hiding place and ASSAULTS the target".
    assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
    assert!(s.groups[f2 as usize].locked.is_some());
}

/// "BUILDINGS AND LOS ... Why would a model be standing at a window or
/// doorway? Because it is the only way it would be able to fire out during
/// his turn (or when LAYING IN WAIT)": a group laying in wait inside a
/// building stands at its windows for as long as it waits, not only on the
/// card it declared the wait (A14). The Sniper lays in wait inside the
/// house, and its faction's next card passes without a shot: it still
/// waits, the Auton Squad outside may fire at it (in a building's cover),
/// and an Auton group walking into its sight is ambushed out of the house.
/// Once it stands down and a card of its passes without a shot, it has
/// left the windows: the Autons may not fire at it.
#[test]
fn buildings_and_los_a_group_laying_in_wait_inside_stands_at_its_windows_for_as_long_as_it_waits() {
    let mut s = waiting_battle(false);
    s.advanced.modules.push(Module::Buildings);
    let [f3, a1, a2] = placed(&mut s, "f3 at 31,31; a1 at 31,20; a2 at 20,14");
    lay(&mut s, f3, false);
    play(&mut s, 0, r#""end_card""#, &[]);
    card(&mut s, 0, CardKind::Single);
    play(&mut s, 0, r#""end_card""#, &[]);
    assert_eq!(s.advanced.waiting, [(f3, false)]);
    card(&mut s, 1, CardKind::Triple);
    let p = play(&mut s, 1, &shoot(&[a1], f3), &[1, 1, 1]);
    p.assert_says("0 kills at 12 each in a building");
    let p = play(&mut s, 1, &move_to(a2, 2200, 2000), &[]);
    p.assert_says(
        "Autons Auton Pair comes into the sight of U.N.I.T. Support Sniper, laying in wait",
    );
    play(&mut s, 0, r#""let_pass""#, &[]);
    // Stood down, a card of its passes without a shot: away from the windows.
    card(&mut s, 0, CardKind::Single);
    play(&mut s, 0, &group_order("stand_down", f3), &[]);
    play(&mut s, 0, r#""end_card""#, &[]);
    card(&mut s, 1, CardKind::Single);
    let e = refused(&mut s, 1, &shoot(&[a1], f3), &[1, 1, 1]);
    assert_refusal_says(&e, "cannot be seen or sighted");
}

#[test]
fn laying_in_wait_at_a_real_table_the_waiting_player_springs_out_of_turn_unasked() {
    let mut s = waiting_battle(true);
    let (f3, a1) = (gid(&s, "f3"), gid(&s, "a1"));
    lay(&mut s, f3, false);
    card(&mut s, 1, CardKind::Triple);
    // Offered to the waiting player beside the Autons' own commands.
    let legal = Invasion::legal(&s);
    assert!(legal.iter().any(|(a, c)| *a == Actor(0)
        && matches!(
            c,
            xenolog_engine::games::invasion::InvasionCommand::Spring { .. }
        )));
    assert!(legal.iter().any(|(a, _)| *a == Actor(1)));
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"spring":{{"group":{f3},"target":{a1},"declare":{{"sight":true}}}}}}"#),
        &[6],
    );
    p.assert_says("springs its ambush on Autons Auton Squad, out of turn (declared)");
    p.assert_says("6 -1 (modifiers) = 5");
    // Not in its own faction's card.
    let mut s = waiting_battle(true);
    lay(&mut s, f3, false);
    let e = refused(
        &mut s,
        0,
        &format!(r#"{{"spring":{{"group":{f3},"target":{a1},"declare":{{"sight":true}}}}}}"#),
        &[6],
    );
    assert_refusal_says(&e, "in another faction's card");
}

#[test]
fn laying_in_wait_legal_lists_only_commands_decide_accepts() {
    let mut s = waiting_battle(false);
    let [f3, a1] = placed(&mut s, "f3 at 10,10; a1 at 26,40");
    assert_legal_accepted(&s);
    assert!(is_legal(
        &s,
        &format!(r#"{{"lay_in_wait":{{"group":{f3},"assault":false}}}}"#)
    ));
    lay(&mut s, f3, false);
    assert_legal_accepted(&s);
    card(&mut s, 1, CardKind::Triple);
    play(&mut s, 1, &move_to(a1, 2600, 3400), &[]);
    assert_legal_accepted(&s);
}

/// Text 001, "Suppression Restrictions": "NOTE: Models can't use actions
/// under suppression which they wouldn't normally be able to use (No
/// sneaking Daleks etc.)". A group with a model that cannot sneak
/// (`no_sneak`, every shipped Dalek) does not move while suppressed; the
/// battle option `everyone_sneaks` reads it the old way (half a move).
#[test]
fn suppression_restrictions_no_sneaking_daleks_a_no_sneak_group_does_not_move_while_suppressed() {
    use xenolog_engine::games::invasion::rules::group_move;
    let shipped = xenolog_engine::games::invasion::data::faction("daleks").expect("daleks");
    assert!(shipped.model("dalek").expect("dalek").profile.no_sneak);
    assert!(
        Invasion::options()
            .iter()
            .any(|o| o.key == "everyone_sneaks")
    );
    let (mut s, f1, a1) = section_and_squad();
    // These Autons are Dalek-like: they cannot sneak.
    for t in &mut s.factions[1].models {
        t.profile.no_sneak = true;
    }
    assert_eq!(group_move(&s, a1), 800, "not suppressed: the whole move");
    suppress(&mut s, &[f1], a1, &[3, 3, 3, 4]);
    assert!(s.advanced.suppressed.contains(&a1));
    card(&mut s, 1, CardKind::Triple);
    assert_eq!(group_move(&s, a1), 0);
    let two_inches = move_to(a1, 1000, 2200);
    refused(&mut s, 1, &two_inches, &[]);
    // The reading `everyone_sneaks`: half a move, as any other group.
    let mut read = s.clone();
    read.everyone_sneaks = true;
    assert_eq!(group_move(&read, a1), 400);
    play(&mut read, 1, &two_inches, &[]);
    // A group without such a model sneaks (half a move) by default.
    for t in &mut s.factions[1].models {
        t.profile.no_sneak = false;
    }
    assert_eq!(group_move(&s, a1), 400);
}

/// "LAYING IN WAIT ... During his opponent's turn, any enemy model, which
/// enters into the lying in wait models LOS ... becomes a target ... rolls a
/// dice to strike immediately (yes, out of his turn)" with Sighting a Target,
/// whose criteria are the *active* model's ("met at the beginning of the
/// active player's turn"): a spring is not the active model's offensive
/// action, so an enemy that came into the waiting group's sight on the
/// enemy's card is its target, though it was out of sight (below the table,
/// or behind the house) as that card began. Fire and assault.
#[test]
fn laying_in_wait_with_sighting_an_enemy_coming_into_its_sight_on_the_enemy_card_is_a_target() {
    // Surfacing: the Autons climb out of the manhole at (40,20).
    let (mut s, f1, a1, _) = surfacing_into_sight(true);
    let p = play(&mut s, 0, &spring(f1, a1), &[6; 8]);
    p.assert_says("springs its ambush on Autons Auton Squad, out of turn");
    // Walking into sight from behind the house (fire and assault).
    for assault in [false, true] {
        let mut s = waiting_battle(false);
        s.advanced.modules.push(Module::Sighting);
        let [g, a1] = placed(&mut s, "f2 at 33,38; a1 at 38,29");
        lay(&mut s, g, assault);
        card(&mut s, 1, CardKind::Triple);
        let p = play(&mut s, 1, &mv(a1, 37.0, 35.0), &[]);
        p.assert_says("comes into the sight of U.N.I.T. Support Pair");
        let dice: &[u8] = if assault { &[] } else { &[6, 6] };
        let p = play(&mut s, 0, &spring(g, a1), dice);
        p.assert_says("springs its ambush on Autons Auton Squad");
        if assault {
            assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
        }
    }
}

/// "PERCEPTION ... In order to perceive a target model, it must first be
/// within 8"" with "certain criteria must be met at the beginning of the
/// active player's turn ... models making a MOVE round the side of a house
/// before FIREing at a target which they could not have known was there":
/// the 8" is measured where the group stood as the card began. The Pair,
/// 10.3" from the Auton Squad behind the house, moves round its corner to
/// 7.6" and may not test (a 6 is entered, and refused); neither may a group
/// that came onto the table on the card (it stood nowhere).
#[test]
fn sighting_a_target_perception_within_8_inches_as_the_card_began_no_move_round_a_house_then_perceive()
 {
    let mut s = battle(false, false, true);
    let [f2, a1] = placed(&mut s, "f2 at 33,38; a1 at 38,29");
    card(&mut s, 0, CardKind::Double);
    play(&mut s, 0, &mv(f2, 39.0, 36.5), &[]);
    let e = refused(&mut s, 0, &perceive(f2, a1), &[6]);
    assert_refusal_says(&e, "as the card began");
    assert_refusal_says(&e, "within 8");
    assert_not_sighted(&refused(&mut s, 0, &shoot(&[f2], a1), &[1, 1]));
    // The faction's next card began with the squad in sight: the test is
    // needless, and the shot is made.
    play(&mut s, 0, r#""end_card""#, &[]);
    card(&mut s, 0, CardKind::Single);
    let e = refused(&mut s, 0, &perceive(f2, a1), &[6]);
    assert_refusal_says(&e, "needs no perception test");
    play(&mut s, 0, &shoot(&[f2], a1), &[1, 1]);
}
