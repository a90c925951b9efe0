//! The independent clause-by-clause review of Alien Invasion (rule text
//! 000) and the Advanced Invasion Earth modules (rule text 001) of
//! 2026-11-27: a test for each misread fixed and for each clause found
//! built but untested (RULES.md, "Review of 2026-11-27 (independent read)").

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::InvasionState;
use xenolog_engine::games::invasion::model::Point;
use xenolog_engine::games::invasion::state::{CardKind, GroupId, InvasionEvent as E, Pending};
use xenolog_engine::games::invasion::table;

fn centre(s: &InvasionState, g: GroupId) -> Point {
    table::centre(&s.group(g).points())
}

fn choose(s: &mut InvasionState, seat: u8, models: &[String]) {
    play(
        s,
        seat,
        &format!(
            r#"{{"casualties":{{"models":{}}}}}"#,
            serde_json::to_string(models).unwrap()
        ),
        &[],
    );
}

/// The figures alive of a seat, in every group.
fn seat_alive(s: &InvasionState, seat: u8) -> usize {
    s.groups
        .iter()
        .filter(|g| g.seat == seat)
        .map(|g| g.alive_count())
        .sum()
}

// ---- "Hand-to-hand combat" ------------------------------------------------------

/// "When a group reaches an enemy group both become locked ... If the new
/// arrivals are reinforcements for a faction already involved they will
/// join with figures from their faction to form a single, bigger group";
/// "Each faction totals its close combat dice ... rolls damage as if they
/// were shooting ... the player controlling the target faction decides
/// which figures to remove". A move that reaches two groups of one faction
/// at once fights that faction as one group: a strike against it kills
/// among all its figures in the fight (until this review only the first
/// contacted group could be struck, the kills beyond its size lost).
#[test]
fn hand_to_hand_a_group_reaching_two_groups_of_one_faction_fights_them_as_one_group() {
    let mut s = given(&["unit", "daleks"]);
    let (sec, d1, d2) = (gid(&s, "s1"), gid(&s, "d1"), gid(&s, "d2"));
    kill(&mut s, d1, 2);
    place(&mut s, d1, 20.0, 26.0);
    place(&mut s, d2, 21.1, 26.0);
    place(&mut s, sec, 20.0, 18.0);
    card(&mut s, 0, CardKind::Double);
    let p = play(&mut s, 0, &mv(sec, 20.55, 25.1), &[]);
    assert!(p.any(|e| matches!(e, E::Locked { .. })), "{:#?}", p.words);
    assert!(s.group(d1).locked.is_some() || s.group(d2).locked.is_some());
    play(&mut s, 0, r#""end_card""#, &[]);
    let p = step(&mut s, &[]);
    p.assert_says("U.N.I.T. 8D6, Daleks 24D6");
    // U.N.I.T. strikes first: 48 at 24 a Dalek in the open is two kills.
    play(&mut s, 0, r#"{"strike":{}}"#, &[6; 8]);
    assert!(
        matches!(
            s.pending.first(),
            Some(Pending::Casualties {
                seat: 1,
                count: 2,
                ..
            })
        ),
        "the Daleks choose two casualties among all four: {:?}",
        s.pending.first()
    );
    let all: Vec<String> = s
        .groups
        .iter()
        .filter(|g| g.seat == 1)
        .flat_map(|g| g.alive().map(|m| String::from(&m.id)).collect::<Vec<_>>())
        .collect();
    assert_eq!(all.len(), 4);
    let pick: Vec<String> = all.iter().take(2).cloned().collect();
    choose(&mut s, 1, &pick);
    assert_eq!(seat_alive(&s, 1), 2, "two Daleks fall, not one");
}

// ---- "Resolving hand-to-hand combat" ----------------------------------------------

/// "If no position was being held ... then all factions will move a full
/// move apart": a full move, whatever a module says of the group's own
/// moves (falling back is not an action: a suppressed group, which may
/// only SNEAK as an action, and a group with a model that cannot sneak,
/// still fall back their whole move). Until this review the fall back was
/// the group's move for an action: half a move suppressed, none for the
/// Daleks.
#[test]
fn resolving_all_factions_move_a_full_move_apart_even_a_suppressed_group() {
    let mut s = given(&["unit", "daleks"]);
    // The way straight back, chosen by the game (the option of rules
    // version 6; the player's own choice is a full move as well:
    // `invasion_retreats.rs`).
    s.game_chooses_retreats = true;
    let [sec, dal] = placed(&mut s, "s1 at 20,20; d1 at 20,26");
    card(&mut s, 1, CardKind::Double);
    play(&mut s, 1, &mv(dal, 20.0, 21.05), &[]);
    // Both groups pinned by suppressing fire earlier (Advanced Invasion Earth).
    s.advanced.suppressed.push(sec);
    s.advanced.suppressed.push(dal);
    end_card_then_step(&mut s, 1);
    play(&mut s, 0, r#"{"strike":{}}"#, &[1; 8]);
    play(&mut s, 1, r#"{"strike":{}}"#, &[1; 18]);
    let three: Vec<String> = figures(&s, sec).into_iter().take(3).collect();
    choose(&mut s, 0, &three);
    let (a, b) = (centre(&s, sec), centre(&s, dal));
    step(&mut s, &[]);
    assert!(
        centre(&s, sec).distance(a) >= 795,
        "the suppressed section falls back a full move: {}",
        centre(&s, sec).distance(a)
    );
    assert!(
        centre(&s, dal).distance(b) >= 795,
        "the suppressed Daleks (who cannot sneak) fall back a full move: {}",
        centre(&s, dal).distance(b)
    );
}

// ---- "Sample Forces": Mites ------------------------------------------------------

/// The Mites "may be exploded by their Controller as an action for a 6
/// inch radius blast effect of 4D6" while "There are only two measurements
/// in the game; ... a 'Blast' area which is a six inch diameter circle":
/// contested. The default is the Mites' own clause (6" round the Mite); the
/// battle option `mite_blast_template` reads the Blast area (3" round it).
fn mite_blast(template: bool) -> (InvasionState, usize, usize, usize, Vec<E>) {
    let mut s = given(&["spugs", "unit"]);
    s.mite_blast_template = template;
    let [ctl, m, sec, s2] = placed(&mut s, "sq1 at 20,5; m1; s1; s2");
    // A second Mite 4" away: caught by a 6" radius, not by a 3" one.
    put(&mut s, m, 0, 20.0, 20.0);
    put(&mut s, m, 1, 24.0, 20.0);
    put(&mut s, m, 2, 40.0, 40.0);
    // Section A within 3" of the first Mite, Section B 4.5-5.5" from it.
    place(&mut s, sec, 20.0, 22.0);
    put(&mut s, sec, 0, 18.9, 22.0);
    put(&mut s, sec, 1, 20.0, 22.0);
    put(&mut s, sec, 2, 21.1, 22.0);
    put(&mut s, sec, 3, 20.0, 22.9);
    place(&mut s, s2, 17.0, 15.5);
    card(&mut s, 0, CardKind::Single);
    let detonate = detonate_first(&s, ctl, m);
    let p = play(
        &mut s,
        0,
        &detonate,
        if template { &[6; 4] } else { &[6; 8] },
    );
    let blown = p.count(|e| matches!(e, E::Detonated { .. }));
    (s.clone(), blown, alive(&s, sec), alive(&s, s2), p.events)
}

#[test]
fn spugs_mites_blast_is_6_inches_round_the_mite_by_default_the_6_inch_circle_an_option() {
    // Default: 6" radius. The second Mite blows up too (8D6 = 48), both
    // sections are caught and wiped out (6 a man in the open).
    let (_, blown, a, b, events) = mite_blast(false);
    assert_eq!(blown, 2, "the Mite 4\" away is caught in a 6\" radius");
    assert_eq!((a, b), (0, 0));
    // "Kills per model" (assumed): a blast's kills go to the Mites that blew
    // up, a share each: eight kills, four to each Mite.
    let credited = events
        .iter()
        .find_map(|e| match e {
            E::ModelsCredited { kills } => Some(kills.clone()),
            _ => None,
        })
        .expect("the kills are credited");
    assert_eq!(
        credited
            .iter()
            .map(|(id, n)| (id.split('-').nth(1).unwrap().to_owned(), *n))
            .collect::<Vec<_>>(),
        vec![("m1".to_owned(), 4), ("m1".to_owned(), 4)]
    );
    // The option: the Blast area, 3" round the Mite. The second Mite is
    // not caught; 4D6 = 24 kill Section A (within 3"), Section B is
    // untouched.
    let (s, blown, a, b, _) = mite_blast(true);
    assert_eq!(blown, 1, "the Mite 4\" away is outside a 6\" circle");
    assert_eq!((a, b), (0, 4));
    assert!(s.mite_blast_template);
}

#[test]
fn spugs_mite_blast_option_is_offered_and_an_older_config_reads_without_it() {
    use xenolog_engine::Game;
    use xenolog_engine::games::invasion::{Invasion, InvasionConfig};
    let o = Invasion::options();
    assert!(o.iter().any(|x| x.key == "mite_blast_template"));
    let c: InvasionConfig =
        serde_json::from_str(r#"{"scenario":"skirmish","factions":["unit","daleks"]}"#).unwrap();
    assert!(!c.mite_blast_template);
    let c: InvasionConfig = serde_json::from_str(
        r#"{"scenario":"skirmish","factions":["unit","spugs"],"mite_blast_template":true}"#,
    )
    .unwrap();
    assert!(
        xenolog_engine::games::invasion::start(&c)
            .unwrap()
            .mite_blast_template
    );
}

// ---- "Game requirements" ---------------------------------------------------------

/// "If you need to balance things ... make sure every side has roughly the
/// same amount of shooting dice": the shipped factions' line groups muster
/// 27-36D6 (the MiB by the average of their "how many" D6, 3.5 an
/// operative), as RULES.md's assumptions say.
#[test]
fn game_requirements_every_shipped_side_has_roughly_the_same_shooting_dice() {
    use xenolog_engine::games::invasion::model::GroupRole;
    let s = given(&["unit", "daleks", "mib", "spugs"]);
    for seat in 0..4u8 {
        let mut tenths = 0u32;
        for g in s.groups.iter().filter(|g| g.seat == seat) {
            if g.role != GroupRole::Line
                || g.place == xenolog_engine::games::invasion::state::Place::Reserve
            {
                continue;
            }
            for m in g.alive() {
                let t = s.model_type(seat, &m.kind).unwrap();
                tenths += if s.faction(seat).rules.mib_dice {
                    35
                } else {
                    u32::from(t.shoot) * 10
                };
            }
        }
        assert!(
            (270..=360).contains(&tenths),
            "{}: {}D6",
            s.faction(seat).name,
            f64::from(tenths) / 10.0
        );
    }
}

// ---- "Sample Forces": the MiB -------------------------------------------------------

/// "The first time an alien species is killed the MiB player gets the
/// miniature to study. The MiB player doesn't need to get an operative next
/// to the dead alien or anything, getting the miniature is automatic":
/// killed by anyone, not only by the MiB; a human killed is no alien.
#[test]
fn mib_the_first_alien_killed_by_any_faction_gives_the_miniature_a_human_does_not() {
    let (mut s, [sec, dal]) = given_at(&["mib", "unit", "daleks"], "s1 at 10,20; d1 at 10,12");
    // U.N.I.T. kill a Dalek (24 from 8D6 of threes).
    card(&mut s, 1, CardKind::Single);
    play(&mut s, 1, &shoot(&[sec], dal), &[3; 8]);
    let p = remove_first(&mut s, 2, dal, 1);
    p.assert_says("the first dalek is killed: the MiB may study it");
    assert_eq!(s.killed_species, vec!["dalek".to_owned()]);
    // The Daleks kill a man: nothing to study.
    card(&mut s, 2, CardKind::Single);
    play(&mut s, 2, &shoot(&[dal], sec), &[1; 12]);
    let p = remove_first(&mut s, 1, sec, 1);
    assert!(!p.any(|e| matches!(e, E::SpeciesKilled { .. })));
    assert_eq!(s.killed_species, vec!["dalek".to_owned()]);
}

/// "MiB Clean Up teams arrive with heavy weapons when a Special Event card
/// is drawn": both sections at the first; a later Special Event card brings
/// no more (there are two sections).
#[test]
fn mib_clean_up_teams_arrive_once_a_later_special_event_card_brings_no_more() {
    let mut s = given(&["mib", "daleks"]);
    cards(
        &mut s,
        &[
            (None, CardKind::Special),
            (None, CardKind::Special),
            (Some(1), CardKind::Single),
        ],
    );
    let p = step(&mut s, &[]);
    assert_eq!(p.count(|e| matches!(e, E::Arrived { .. })), 2);
    let p = step(&mut s, &[]);
    assert_eq!(p.events, vec![E::Nothing, E::CardDone]);
}

// ---- "Sample Forces": the Spugs -----------------------------------------------------

/// "Burrowing down always requires an action", even at an existing Spug
/// hole (surfacing there is free for the Worm).
#[test]
fn spugs_burrowing_down_always_requires_an_action_even_at_a_hole() {
    let mut s = given(&["spugs", "unit"]);
    let w = gid(&s, "w1");
    let hole = s.holes[0];
    s.groups[w as usize].models[0].at = Some(hole);
    card(&mut s, 0, CardKind::Single);
    let p = play(
        &mut s,
        0,
        &format!(r#"{{"burrow":{{"group":{w},"carry":[]}}}}"#),
        &[],
    );
    assert!(p.any(|e| matches!(e, E::Spent { .. })));
    assert_eq!(s.actions_left(), 0);
}

/// "Separate factions than those involved may shoot into a continuing
/// close combat. They must choose a target faction and roll damage as
/// normal": as normal, the target at its cover. At a real table the cover
/// the shooter declares for the target is the one its even dice are counted
/// against (until this review the declared cover was logged but the even
/// dice were counted at the group's last cover, the open).
#[test]
fn hand_to_hand_outsiders_shooting_in_at_a_real_table_count_the_even_dice_at_the_declared_cover() {
    let mut s = given_with(&["unit", "daleks", "spugs"], false, true);
    let (sec, dal, sq) = (gid(&s, "s1"), gid(&s, "d1"), gid(&s, "sq2"));
    card(&mut s, 1, CardKind::Single);
    play(
        &mut s,
        1,
        &format!(r#"{{"move":{{"group":{dal},"declare":{{"contact":{sec}}}}}}}"#),
        &[],
    );
    assert!(s.group(sec).locked.is_some());
    card(&mut s, 2, CardKind::Single);
    // 9D6: four 6s (24, even) to U.N.I.T. in a building (12 a man): two
    // kills; five 1s (odd, 5) to the Daleks: none.
    let p = play(
        &mut s,
        2,
        &format!(
            r#"{{"shoot":{{"shooters":[{sq}],"target":{sec},"declare":{{"sight":true,"cover":"building"}}}}}}"#
        ),
        &[6, 6, 6, 6, 1, 1, 1, 1, 1],
    );
    let shared: Vec<(GroupId, u32, u32)> = p
        .events
        .iter()
        .filter_map(|e| match e {
            E::Shared {
                group,
                kill_score,
                kills,
                ..
            } => Some((*group, *kill_score, *kills)),
            _ => None,
        })
        .collect();
    assert_eq!(shared[0], (sec, 12, 2), "{:#?}", p.words);
}

// ---- "Kills per model" (assumed: RULES.md) ------------------------------------------

/// A merged group of mixed kill scores pays casualty by casualty; each
/// kill, as it is chosen, goes to the striking figures by their dice: the
/// U.N.I.T. section's LAWS (4 of its 8 dice) takes both.
#[test]
fn kills_per_model_mixed_kill_scores_paid_one_at_a_time_are_credited_as_chosen() {
    let (mut s, sec, brood, _) = given_spugs_and_mites_struck_for_20();
    for kind in ["mite", "spug"] {
        let id: String = first_of_kind(&s, brood, kind);
        choose(&mut s, 1, &[id]);
    }
    let kills: Vec<(String, u32)> = s
        .group(sec)
        .models
        .iter()
        .filter(|m| m.kills > 0)
        .map(|m| (String::from(&m.kind), m.kills))
        .collect();
    assert_eq!(kills, vec![("laws".to_owned(), 2)], "{kills:?}");
}
