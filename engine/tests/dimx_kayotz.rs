//! Rule text 003, sections F (Kay'otz activation), G (End Phase) and the
//! two-player variant: one test per clause.

#[path = "support/dimx.rs"]
mod support;

use support::*;
use xenolog_engine::games::dimx::endphase::achieved;
use xenolog_engine::games::dimx::map::builtin;
use xenolog_engine::games::dimx::state::{AlienMove, DimxEvent, ModWhy, Partial, Phase, Side};
use xenolog_engine::games::dimx::units::{Condition, Goal, Place};
use xenolog_engine::games::dimx::{DimX, DimxCommand, DimxConfig};
use xenolog_engine::{Actor, Game, RuleErrorKind};

fn drawn(ev: &[DimxEvent]) -> Vec<(Vec<String>, Option<Side>)> {
    ev.iter()
        .filter_map(|e| match e {
            DimxEvent::ChitsDrawn { names, by, .. } => Some((names.clone(), *by)),
            _ => None,
        })
        .collect()
}

fn rushed_to(ev: &[DimxEvent], unit: &str) -> Option<u16> {
    ev.iter().find_map(|e| match e {
        DimxEvent::AlienMoved {
            unit: u,
            to,
            how: AlienMove::Rush,
            ..
        } if u == unit => Some(*to),
        _ => None,
    })
}

/// How a battle set out as `text` ends after its first End Phase.
fn ended(text: &str) -> xenolog_engine::Outcome {
    let mut b = battle(text);
    play(&mut b, END_PHASE, &[]);
    DimX::outcome(state(&b)).expect("the battle is over")
}

fn fired_at(ev: &[DimxEvent]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            DimxEvent::Fired { target, .. } => Some(target.clone()),
            _ => None,
        })
        .collect()
}

// ---- F. Kay'otz activation ---------------------------------------------------------

#[test]
fn f1_normally_one_chit_is_drawn() {
    let mut b = battle(&alpha("marine MS1 at 225\ncup lull awakening"));
    let ev = play(&mut b, END_PHASE, &[]);
    let d = drawn(&ev);
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].0.len(), d[0].1), (1, None));
}

#[test]
fn f1_after_a_successful_recon_two_are_drawn_the_marines_pick_one_and_the_other_goes_back() {
    let mut b = battle(&alpha("marine SC1 at 225\ncup lull awakening rush_1_4"));
    play(&mut b, &order("recon", "SC1"), &[5]);
    let ev = play(&mut b, END_PHASE, &[]);
    let d = drawn(&ev);
    assert_eq!((d[0].0.len(), d[0].1), (2, Some(Side::Marines)));
    assert_eq!(
        DimX::to_move(state(&b)),
        Some(Actor(0)),
        "a pending choice for the Marine player"
    );
    let Phase::ChooseChit { options, .. } = state(&b).phase.clone() else {
        panic!("no choice")
    };
    let keys: Vec<String> = options
        .iter()
        .map(|&o| state(&b).chits()[usize::from(o)].key.clone())
        .collect();
    assert_eq!(
        DimX::legal(state(&b)).len(),
        2,
        "only the two chits may be chosen"
    );
    let e = try_play(&mut b, 0, END_PHASE, &[]).unwrap_err();
    assert!(e.message.contains("choose"), "{e}");
    let ev = play(
        &mut b,
        &format!(r#"{{"choose_chit":{{"chit":"{}"}}}}"#, keys[0]),
        &[],
    );
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::ChitChosen { .. })));
    let s = state(&b);
    assert!(
        s.cup
            .iter()
            .any(|&c| s.chits()[usize::from(c)].key == keys[1]),
        "the other chit is back in the cup"
    );
    assert_eq!(s.turn, 2);
    assert!(!s.recon, "the marker is used up");
}

#[test]
fn f2_the_units_a_chit_names_act_in_order_lower_numbered_first() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K12 at 111\nkayotz K8 at 666\nkayotz K10 at 112\ncup rush_8_12",
    ));
    let ev = play(&mut b, END_PHASE, &[]);
    let order: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            DimxEvent::StepBegan { units, .. } => {
                Some(units.iter().map(String::as_str).collect::<Vec<_>>())
            }
            _ => None,
        })
        .next()
        .unwrap();
    assert_eq!(order, vec!["K8", "K10", "K12"]);
}

#[test]
fn f_standard_procedure_nearest_eligible_hex_ties_to_the_highest_numbered() {
    // From 131, hexes 165 and 166 next to the Marine in 225 are both 2 away
    let mut b = battle(&alpha("marine MS1 at 225\nkayotz K8 at 131\ncup rush_8_12"));
    let ev = play(&mut b, END_PHASE, &[1, 1, 1, 1, 1]);
    assert_eq!(rushed_to(&ev, "K8"), Some(166));
    // Two Marines equally near: the one in the highest-numbered hex is the target
    let mut b = battle(&alpha(
        "marine MS1 at 165\nmarine MS2 at 226\nkayotz K8 at 225\ncup rush_8_12",
    ));
    let ev = play(&mut b, END_PHASE, &[1, 1, 1, 1, 1]);
    assert_eq!(fired_at(&ev), vec!["MS2"]);
    assert_eq!(
        rushed_to(&ev, "K8"),
        None,
        "already next to its target: it stays"
    );
}

#[test]
fn f3_the_enacted_chit_is_set_aside() {
    let mut b = battle(&alpha("marine MS1 at 225\ncup lull awakening"));
    play(&mut b, END_PHASE, &[]);
    let s = state(&b);
    assert_eq!(s.used.len(), 1);
    assert_eq!(s.cup.len(), 1);
    assert!(!s.cup.contains(&s.used[0]));
}

#[test]
fn f4_the_overlords_command_and_the_terror_from_beyond_draw_another_chit_at_once() {
    for key in ["overlords_command", "terror"] {
        let mut b = battle(&alpha(&format!(
            "marine SC1 at 225\ncup {key} awakening\nrecon yes"
        )));
        play(&mut b, END_PHASE, &[]);
        let ev = play(
            &mut b,
            &format!(r#"{{"choose_chit":{{"chit":"{key}"}}}}"#),
            &[],
        );
        let d = drawn(&ev);
        assert_eq!(d.len(), 1, "{key}: a second draw in the same phase");
        assert_eq!(d[0].0, vec!["The Awakening".to_owned()]);
        assert_eq!(state(&b).used.len(), 2);
        assert!(
            DimX::outcome(state(&b)).is_some(),
            "the cup is empty: the game ends this turn"
        );
    }
}

/// F.4 in solitaire: after a successful Recon the Marine player picks the
/// phase's chit from two; the chit a draw-again chit then draws is one chit
/// drawn at random (the Recon doubles only the phase's draw, B.2; assumed).
#[test]
fn f4_in_solitaire_the_follow_up_chit_is_drawn_singly_even_after_a_successful_recon() {
    let text = alpha("marine SC1 at 225\ncup overlords_command lull awakening\nrecon yes");
    let mut b = seed_offering("overlords_command", |seed| {
        battle_seeded(&text, seed, false)
    });
    assert_eq!(state(&b).cup.len(), 1, "two drawn from three");
    let ev = play(&mut b, &choose_chit("overlords_command"), &[]);
    let d = drawn(&ev);
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].0.len(), d[0].1), (1, None), "one chit, no choice");
}

/// The contested reading of F.4 as a battle option: with
/// `recon_doubles_follow_up` the chit a draw-again chit draws "as if it was
/// just normally drawn" is drawn the way this phase draws after a successful
/// Recon: two chits, and the Marine player picks one (the other goes back).
#[test]
fn f4_option_recon_doubles_follow_up_draws_two_for_the_marines_to_pick() {
    let text = alpha("marine SC1 at 225\ncup overlords_command lull awakening\nrecon yes");
    let options = DimxConfig {
        recon_doubles_follow_up: true,
        ..DimxConfig::default()
    };
    let mut b = seed_offering("overlords_command", |seed| {
        battle_with(&text, seed, options.clone())
    });
    let ev = play(&mut b, &choose_chit("overlords_command"), &[]);
    let d = drawn(&ev);
    assert_eq!(d.len(), 1);
    assert_eq!(
        (d[0].0.len(), d[0].1),
        (2, Some(Side::Marines)),
        "two chits, the Marine player picks"
    );
    assert!(is_legal(&b, &choose_chit("lull")));
    assert!(is_legal(&b, &choose_chit("awakening")));
    play(&mut b, &choose_chit("lull"), &[]);
    assert_eq!(
        state(&b).cup.len(),
        1,
        "the other chit went back to the cup"
    );
    // without a successful Recon the option changes nothing: one chit
    let text = alpha("marine SC1 at 225\ncup overlords_command lull awakening");
    let ev = (1..50)
        .map(|seed| battle_with(&text, seed, options.clone()))
        .find_map(|mut b| {
            let ev = play(&mut b, END_PHASE, &[]);
            (drawn(&ev).first().map(|d| d.0.clone())
                == Some(vec!["The Overlord's Command".to_owned()]))
            .then_some(ev)
        })
        .expect("a seed draws it first within 50");
    let d = drawn(&ev);
    assert_eq!(d.len(), 2, "the chit and its follow-up");
    assert_eq!((d[1].0.len(), d[1].1), (1, None), "one chit, no choice");
}

// ---- G. End Phase ------------------------------------------------------------------------

#[test]
fn g1_instant_victory_is_checked_in_the_end_phase() {
    let text = alpha(
        "marine MS1 at 224\nkayotz K1 at 251\ncup lull awakening\ninstant marines \"one pod down\" eliminated 1",
    );
    let mut b = battle(&text);
    play(&mut b, &fire("MS1", "K1"), &[6, 6, 6, 6]);
    assert!(
        DimX::outcome(state(&b)).is_none(),
        "not before the End Phase"
    );
    let ev = play(&mut b, END_PHASE, &[]);
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::InstantVictory {
            side: Side::Marines,
            ..
        }
    )));
    let out = DimX::outcome(state(&b)).unwrap();
    assert_eq!(out.winners, vec![Actor(0)]);
    assert_eq!(out.summary, "Instant victory: Marines (one pod down)");
    // The outcome is typed: every unit's fate, by seat, for reports and the
    // campaign layer; none is read out of words.
    let st = state(&b);
    assert_eq!(out.pieces.len(), st.marines.len() + st.aliens.len());
    for m in &st.marines {
        let p = out.pieces.iter().find(|p| p.id == m.id).unwrap();
        assert_eq!(p.seat, Actor(0));
        let on_map = matches!(m.place, xenolog_engine::games::dimx::units::Place::Map(_));
        assert_eq!(p.fate == xenolog_engine::Fate::Survived, on_map, "{}", m.id);
    }
    let killed = out
        .pieces
        .iter()
        .filter(|p| p.seat == Actor(1) && p.fate == xenolog_engine::Fate::Killed)
        .count();
    let eliminated = st
        .aliens
        .iter()
        .filter(|a| a.place == xenolog_engine::games::dimx::units::AlienPlace::Eliminated)
        .count();
    assert_eq!(killed, eliminated);
    assert!(killed >= 1, "one pod down");
}

#[test]
fn g1_with_chits_left_in_the_cup_the_next_turn_begins() {
    let mut b = battle(&alpha("marine MS1 at 225\ncup lull awakening"));
    play(&mut b, &full_move("MS1", 224), &[]);
    assert!(state(&b).marine("MS1").unwrap().acted);
    let ev = play(&mut b, END_PHASE, &[]);
    assert_event!(ev, DimxEvent::TurnBegan { turn: 2, .. });
    assert!(DimX::outcome(state(&b)).is_none());
    assert_eq!(state(&b).turn, 2);
    // "he straightens-out all his activated Marine units": MS1 acts again
    assert!(!state(&b).marine("MS1").unwrap().acted);
    play(&mut b, &full_move("MS1", 225), &[]);
}

#[test]
fn g2_with_the_cup_empty_a_mission_goal_chit_is_drawn_and_looked_at() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\ngoals enslave\nvictory marines \"held\" eliminated 0",
    ));
    let ev = play(&mut b, END_PHASE, &[]);
    assert!(ev.iter().any(|e| matches!(
        e,
        DimxEvent::GoalDrawn {
            goal: Goal::Enslave,
            achieved: false,
            ..
        }
    )));
}

fn goal(text: &str, g: Goal) -> bool {
    let b = battle(&alpha(text));
    achieved(state(&b), builtin("alpha").unwrap(), g)
}

#[test]
fn g3a_portal_at_the_monolith_else_the_overlord_in_the_highest_hex() {
    assert!(goal("marine MS1 at 111\nmonolith MON at 421", Goal::Portal));
    assert!(
        !goal("marine MS1 at 424\nmonolith MON at 421", Goal::Portal),
        "an Active Marine within three hexes"
    );
    assert!(
        goal(
            "marine MS1 at 424 paralyzed\nmonolith MON at 421",
            Goal::Portal
        ),
        "a Paralyzed one does not count"
    );
    assert!(goal("marine MS1 at 111\nkayotz K7 at 421", Goal::Portal));
    assert!(
        !goal("marine MS1 at 111", Goal::Portal),
        "no Monolith or Overlord: no win"
    );
}

#[test]
fn g3b_enslave_half_or_more_of_the_marines_stunned_or_paralyzed() {
    assert!(goal(
        "marine MS1 at 111 stunned\nmarine MS2 at 112 paralyzed\nmarine MS3 at 113\nmarine MS4 at 114",
        Goal::Enslave
    ));
    assert!(!goal(
        "marine MS1 at 111 stunned\nmarine MS2 at 112\nmarine MS3 at 113\nmarine MS4 at 114",
        Goal::Enslave
    ));
}

#[test]
fn g3c_decapitate_no_active_hq_on_the_map() {
    assert!(goal(
        "marine HQ1 at 111 paralyzed\nmarine MS1 at 112",
        Goal::Decapitate
    ));
    assert!(!goal("marine HQ1 at 111 stunned", Goal::Decapitate));
}

#[test]
fn g3d_pillage_no_active_logistics_on_the_map() {
    assert!(goal("marine LG1 at 111 paralyzed", Goal::Pillage));
    assert!(!goal("marine LG1 at 111", Goal::Pillage));
}

#[test]
fn g3e_possess_an_active_alien_next_to_a_stunned_or_paralyzed_marine() {
    assert!(goal(
        "marine MS1 at 225 stunned\nkayotz K1 at 226",
        Goal::Possess
    ));
    assert!(!goal(
        "marine MS1 at 225 stunned\nkayotz K1 at 226 dormant",
        Goal::Possess
    ));
    assert!(!goal("marine MS1 at 225\nkayotz K1 at 226", Goal::Possess));
}

#[test]
fn g3f_summoning_eight_active_kayotz_units_on_the_map() {
    let eight = "kayotz K1 at 111\nkayotz K2 at 112\nkayotz K3 at 113\nkayotz K4 at 114\nkayotz K5 at 115\nkayotz K6 at 116\nkayotz K8 at 121\nkayotz K9 at 122";
    assert!(goal(eight, Goal::Summoning));
    assert!(!goal(
        &eight.replace("K9 at 122", "K9 at 122 dormant"),
        Goal::Summoning
    ));
}

/// A numbered hex of Mapzone Alpha at exactly `d` hexes from `from`.
fn hex_at(from: u16, d: u16) -> u16 {
    let m = builtin("alpha").unwrap();
    let f = m.cell(from).unwrap();
    m.numbered()
        .find(|&(_, c)| m.distance(f, c) == d)
        .map(|(h, _)| h)
        .unwrap()
}

/// G.3 a "within three or fewer hexes": an Active Marine 3 hexes away keeps
/// the Portal shut; 4 hexes away it does not.
#[test]
fn g3a_portal_three_or_fewer_hexes_is_the_boundary() {
    let three = hex_at(421, 3);
    let four = hex_at(421, 4);
    assert!(!goal(
        &format!("marine MS1 at {three}\nmonolith MON at 421"),
        Goal::Portal
    ));
    assert!(goal(
        &format!("marine MS1 at {four}\nmonolith MON at 421"),
        Goal::Portal
    ));
}

/// G.3 a "the hex with the Overlord unit in the highest-numbered hex": with
/// two Overlords (a scenario file may add one) the Portal is at the one in
/// the higher-numbered hex.
#[test]
fn g3a_portal_with_two_overlords_is_at_the_highest_numbered_one() {
    let near_high = hex_at(611, 2);
    let near_low = hex_at(121, 2);
    let two = "kayotz K7 at 121\nkayotz K20 at 611 number 7 overlord";
    assert!(
        !goal(&format!("marine MS1 at {near_high}\n{two}"), Goal::Portal),
        "a Marine near the Overlord in 611 keeps the Portal shut"
    );
    assert!(
        goal(&format!("marine MS1 at {near_low}\n{two}"), Goal::Portal),
        "a Marine near the one in 121 does not"
    );
}

/// G.3 b "they are captured": Enslave needs at least one Marine unit on the
/// map (Xenolog's reading); units waiting at the edge or gone do not count.
#[test]
fn g3b_enslave_needs_a_marine_unit_on_the_map_and_counts_only_those() {
    assert!(
        !goal("marine MS1 waiting", Goal::Enslave),
        "no Marine on the map: none to capture"
    );
    assert!(!goal(
        "marine MS1 exited\nmarine MS2 eliminated",
        Goal::Enslave
    ));
    assert!(
        goal(
            "marine MS1 at 111 stunned\nmarine MS2 waiting\nmarine MS3 exited",
            Goal::Enslave
        ),
        "one of the one on the map"
    );
}

#[test]
fn g3b_enslave_half_or_more_with_an_odd_count() {
    let five = |k: usize| {
        (0..5)
            .map(|i| {
                format!(
                    "marine MS{} at {}{}",
                    i + 1,
                    111 + i,
                    if i < k { " stunned" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(!goal(&five(2), Goal::Enslave), "2 of 5 is less than half");
    assert!(goal(&five(3), Goal::Enslave), "3 of 5");
}

/// G.3 c, d: a unit waiting at the map edge or gone is not "on the map".
#[test]
fn g3c_g3d_units_off_the_map_do_not_count() {
    assert!(goal(
        "marine HQ1 waiting\nmarine MS1 at 111",
        Goal::Decapitate
    ));
    assert!(goal("marine LG1 exited\nmarine MS1 at 111", Goal::Pillage));
}

/// G.3 e "at least one Active alien unit": the Monolith is an alien unit
/// with an Active side, so an Active Monolith next to a Stunned Marine
/// counts; a shut-down one (Inactive) does not.
#[test]
fn g3e_possess_counts_an_active_monolith_but_not_a_shut_down_one() {
    assert!(goal(
        "marine MS1 at 225 stunned\nmonolith MON at 226",
        Goal::Possess
    ));
    assert!(
        !goal(
            "marine HQ1 at 225 stunned\nmonolith MON at 226",
            Goal::Possess
        ),
        "a Stunned HQ is Active and shuts the Monolith down"
    );
}

/// G.3 f "at least eight Active Kay'otz units on the map": A.2 b names
/// "Kay'otz units (also called 'alien' units in these rules)", and the
/// Monolith is "the alien Monolith unit" with an Active and an Inactive side,
/// so an Active Monolith is the eighth; a shut-down (Inactive) one is not.
/// Rules version 4 (independent review): version 3 never counted it, which
/// the option `summoning_ignores_monolith` keeps.
#[test]
fn g3f_summoning_counts_an_active_monolith_as_a_kayotz_unit() {
    let seven = "kayotz K1 at 111\nkayotz K2 at 112\nkayotz K3 at 113\nkayotz K4 at 114\nkayotz K5 at 115\nkayotz K6 at 116\nkayotz K8 at 121";
    assert!(
        !goal(seven, Goal::Summoning),
        "seven Active units are not enough"
    );
    assert!(
        goal(&format!("{seven}\nmonolith MON at 421"), Goal::Summoning),
        "an Active Monolith is the eighth Active Kay'otz unit"
    );
    assert!(
        !goal(
            &format!("{seven}\nmonolith MON at 226\nmarine SO1 at 225"),
            Goal::Summoning
        ),
        "a Monolith shut down by an adjacent Special Ops unit is Inactive and does not count"
    );
    assert!(
        !goal(&format!("{seven}\nmonolith MON aside"), Goal::Summoning),
        "a Monolith not on the map does not count"
    );
}

/// The contested reading as a battle option: with `summoning_ignores_monolith`
/// only the numbered pods count (rules version 3's reading), so seven pods and
/// the Monolith fall short and eight pods are enough.
#[test]
fn g3f_option_summoning_ignores_monolith_counts_only_the_numbered_units() {
    let seven = "kayotz K1 at 111\nkayotz K2 at 112\nkayotz K3 at 113\nkayotz K4 at 114\nkayotz K5 at 115\nkayotz K6 at 116\nkayotz K8 at 121";
    let with_option = |text: &str| {
        let b = battle_with(
            &alpha(text),
            1,
            DimxConfig {
                summoning_ignores_monolith: true,
                ..DimxConfig::default()
            },
        );
        assert!(
            state(&b).summoning_ignores_monolith,
            "the option reaches the state"
        );
        achieved(state(&b), builtin("alpha").unwrap(), Goal::Summoning)
    };
    assert!(!with_option(&format!("{seven}\nmonolith MON at 421")));
    assert!(with_option(&format!(
        "{seven}\nkayotz K9 at 122\nmonolith MON at 421"
    )));
    // and it decides the game at the End Phase: the last chit, Summoning drawn
    let text = alpha(&format!(
        "marine MS1 at 666\n{seven}\nmonolith MON at 421\ngoals summoning"
    ));
    let mut b = battle(&text);
    play(&mut b, END_PHASE, &[]);
    assert_eq!(
        DimX::outcome(state(&b)).map(|o| o.summary),
        Some("Kay'otz Major Victory (Summoning)".to_owned())
    );
    let mut b = battle_with(
        &text,
        1,
        DimxConfig {
            summoning_ignores_monolith: true,
            ..DimxConfig::default()
        },
    );
    play(&mut b, END_PHASE, &[]);
    assert_ne!(
        DimX::outcome(state(&b)).map(|o| o.summary),
        Some("Kay'otz Major Victory (Summoning)".to_owned())
    );
}

#[test]
fn g4_an_achieved_mission_goal_is_a_kayotz_major_victory() {
    let out = ended(&alpha(
        "marine MS1 at 225 stunned\nmarine MS2 at 224\ngoals enslave",
    ));
    assert_eq!(
        (out.winners.first().copied(), out.summary.as_str()),
        (Some(Actor(1)), "Kay'otz Major Victory (Enslave)")
    );
}

#[test]
fn g4_otherwise_the_scenario_decides_how_the_game_ends() {
    let out = ended(&alpha(
        "marine MS1 at 225\ngoals enslave\nvictory marines \"Skylar held\" eliminated 0",
    ));
    assert_eq!(
        (out.winners.first().copied(), out.summary.as_str()),
        (Some(Actor(0)), "Marine victory: Skylar held per scenario")
    );
    let out = ended(&alpha("marine MS1 at 225\ngoals enslave\notherwise draw"));
    assert!(out.winners.is_empty());
    assert_eq!(
        out.summary,
        "Draw (scenario default): the Mission Goal was not achieved and no victory condition of the scenario was met"
    );
}

// ---- Two-player variant ---------------------------------------------------------------

#[test]
fn variant_the_kayotz_player_draws_two_chits_and_picks_one() {
    let mut b = battle_seeded(
        &alpha("marine MS1 at 225\ncup lull awakening rush_1_4"),
        1,
        true,
    );
    let ev = play(&mut b, END_PHASE, &[]);
    assert_eq!(drawn(&ev)[0].1, Some(Side::Kayotz));
    assert_eq!(DimX::to_move(state(&b)), Some(Actor(1)));
    let key = DimX::legal(state(&b))[0].1.clone();
    assert_eq!(
        try_play(&mut b, 0, &serde_json::to_string(&key).unwrap(), &[])
            .unwrap_err()
            .kind,
        RuleErrorKind::NotYourTurn
    );
    b.play(Actor(1), &key, None).unwrap();
}

#[test]
fn variant_after_a_successful_recon_the_marine_player_picks() {
    let mut b = battle_seeded(
        &alpha("marine SC1 at 225\ncup lull awakening rush_1_4\nrecon yes"),
        1,
        true,
    );
    let ev = play(&mut b, END_PHASE, &[]);
    assert_eq!(drawn(&ev)[0].1, Some(Side::Marines));
    assert_eq!(DimX::to_move(state(&b)), Some(Actor(0)));
}

#[test]
fn variant_the_kayotz_player_chooses_the_activation_order_and_rolls_the_dice() {
    let text = alpha("marine MS1 at 225\nkayotz K8 at 226\nkayotz K12 at 224\ncup rush_8_12");
    let mut b = battle_seeded(&text, 1, true);
    play(&mut b, END_PHASE, &[]);
    assert_eq!(DimX::to_move(state(&b)), Some(Actor(1)));
    let ev = try_play(&mut b, 1, &order("activate", "K12"), &[1, 2, 3, 4, 5]).unwrap();
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::Fired { shooter, dice, .. } if shooter == "K12" && dice == &vec![1, 2, 3, 4, 5])));
    assert!(
        matches!(&state(&b).phase, Phase::Kayotz { todo: Some(t), .. } if t == &vec!["K8".to_owned()])
    );
    try_play(&mut b, 1, &order("activate", "K8"), &[]).unwrap();
    assert!(DimX::outcome(state(&b)).is_some());
}

#[test]
fn variant_the_kayotz_player_breaks_ties_of_hex_and_target() {
    let mut b = battle_seeded(
        &alpha("marine MS1 at 225\nkayotz K8 at 131\ncup rush_8_12"),
        1,
        true,
    );
    play(&mut b, END_PHASE, &[]);
    assert!(is_legal(
        &b,
        r#"{"activate":{"unit":"K8","target":null,"hex":165}}"#
    ));
    assert!(is_legal(
        &b,
        r#"{"activate":{"unit":"K8","target":null,"hex":166}}"#
    ));
    let e = try_play(&mut b, 1, r#"{"activate":{"unit":"K8","hex":224}}"#, &[]).unwrap_err();
    assert!(e.message.contains("not one of the tied"), "{e}");
    let ev = try_play(
        &mut b,
        1,
        r#"{"activate":{"unit":"K8","hex":165}}"#,
        &[1, 1, 1, 1, 1],
    )
    .unwrap();
    assert_eq!(
        rushed_to(&ev, "K8"),
        Some(165),
        "ignoring the highest-numbered rule"
    );
    let mut b = battle_seeded(
        &alpha("marine MS1 at 165\nmarine MS2 at 226\nkayotz K8 at 225\ncup rush_8_12"),
        1,
        true,
    );
    play(&mut b, END_PHASE, &[]);
    let ev = try_play(
        &mut b,
        1,
        r#"{"activate":{"unit":"K8","target":"MS1"}}"#,
        &[1, 1, 1, 1, 1],
    )
    .unwrap();
    assert_eq!(fired_at(&ev), vec!["MS1"]);
}

/// Variant (review16 NOTE 3): an `activate`'s `target` and `hex` only break
/// the ties of the step the unit acts in. One the unit's step or state does
/// not use is refused in words that name what was given and why it does not
/// apply, and nothing is recorded (before rules version 6 it was accepted,
/// ignored, and worded in the log). `legal` offers none of them: the bare
/// `activate` is the only command it lists for the unit, and it is taken.
#[test]
fn variant_activate_refuses_a_target_or_hex_its_step_does_not_use() {
    let cases = [
        (
            "kayotz K1 at 231\ncup barrage_odd",
            r#"{"activate":{"unit":"K1","hex":999}}"#,
            "hex 999 given for Kay'otz #1, which takes no hex: it fires where it stands",
        ),
        (
            "kayotz K1 at 231\ncup barrage_odd",
            r#"{"activate":{"unit":"K1","target":"MS1","hex":224}}"#,
            "hex 224 given for Kay'otz #1, which takes no hex",
        ),
        (
            "kayotz K1 at 231 dormant\ncup rush_1_4",
            r#"{"activate":{"unit":"K1","target":"NOBODY","hex":5}}"#,
            "target NOBODY and hex 5 given for Kay'otz #1, which takes no target or hex: \
             it is Dormant",
        ),
        (
            "kayotz K1 at 231\ncup warp_1_8",
            r#"{"activate":{"unit":"K1","hex":231}}"#,
            "hex 231 given for Kay'otz #1, which takes no target or hex: it warps to a random hex",
        ),
        (
            "kayotz K1 at 231\nmarine MS2 at 111 paralyzed\ncup rush_1_4",
            r#"{"activate":{"unit":"K1","hex":224}}"#,
            "hex 224 given for Kay'otz #1, which takes no target or hex: there is no Active \
             Marine unit",
        ),
    ];
    for (lines, given, words) in cases {
        // MS1 stands on the map unless the case paralyzes every Marine
        let lines = if lines.contains("paralyzed") {
            lines.replace("MS2", "MS1")
        } else {
            format!("marine MS1 at 225\n{lines}")
        };
        let mut b = battle_seeded(&alpha(&lines), 1, true);
        play(&mut b, END_PHASE, &[]);
        let (before, at) = (b.records().len(), state(&b).clone());
        let e = try_play(&mut b, 1, given, &[]).unwrap_err();
        assert_eq!(e.kind, RuleErrorKind::Illegal, "{given}: {e}");
        assert!(e.message.contains(words), "{given}: {e}");
        assert_eq!(b.records().len(), before, "{given}: nothing recorded");
        assert!(*state(&b) == at, "{given}: the state is as it was");
        let offered: Vec<DimxCommand> = DimX::legal(state(&b))
            .into_iter()
            .filter(|(a, _)| *a == Actor(1))
            .map(|(_, c)| c)
            .collect();
        assert_eq!(offered, vec![cmd(&order("activate", "K1"))], "{lines}");
        try_play(&mut b, 1, &order("activate", "K1"), &[]).unwrap();
    }
}

/// The hexes next to `h` on Mapzone Alpha that hold no unit in `b`.
fn free_around(b: &xenolog_engine::Session<DimX>, h: u16) -> Vec<u16> {
    let m = builtin("alpha").unwrap();
    let mut out: Vec<u16> = m
        .neighbours(m.cell(h).unwrap())
        .filter_map(|c| m.number(c))
        .filter(|&x| !state(b).occupied(x))
        .collect();
    out.sort_unstable_by(|a, b| b.cmp(a));
    out
}

fn places(b: &xenolog_engine::Session<DimX>) -> Vec<(String, u16)> {
    DimX::legal(state(b))
        .into_iter()
        .filter_map(|(a, c)| match c {
            DimxCommand::PlaceUnit { unit, hex } if a == Actor(1) => Some((unit, hex)),
            _ => None,
        })
        .collect()
}

/// Variant: "When any decision is needed as far as eligible hexes that are
/// equidistant or equally eligible ..., the Kay'otz player makes the choice
/// (ignore the 'highest-numbered' hex rule)": a Marine jump that scatters
/// (C.2 2-3) lands where the Kay'otz player says, among the hexes next to
/// its destination.
#[test]
fn variant_the_kayotz_player_chooses_where_a_scattered_jump_lands() {
    let text = alpha("marine SC1 at 111\nmarine MS1 at 244");
    let mut b = battle_seeded(&text, 1, true);
    let ev = play(&mut b, &jump("SC1", 225), &[2]);
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::TieToBreak { .. })));
    let ties = free_around(&b, 225);
    assert!(ties.len() > 1);
    assert_eq!(
        places(&b),
        ties.iter()
            .map(|&h| ("SC1".to_owned(), h))
            .collect::<Vec<_>>(),
        "one choice per eligible hex next to 225"
    );
    assert_eq!(DimX::to_move(state(&b)), Some(Actor(1)));
    let e = try_play(&mut b, 0, END_PHASE, &[]).unwrap_err();
    assert_eq!(e.kind, RuleErrorKind::NotYourTurn);
    let e = try_play(&mut b, 1, &place_unit("SC1", 225), &[]).unwrap_err();
    assert!(
        e.message.contains("not one of the equally eligible hexes"),
        "{e}"
    );
    let lowest = *ties.last().unwrap();
    try_play(&mut b, 1, &place_unit("SC1", lowest), &[]).unwrap();
    assert_eq!(state(&b).marine("SC1").unwrap().on_map(), Some(lowest));
    assert_eq!(
        DimX::to_move(state(&b)),
        Some(Actor(0)),
        "back to the Marines"
    );
    // solitaire: the highest-numbered one, no question asked
    let mut b = battle(&text);
    play(&mut b, &jump("SC1", 225), &[2]);
    assert_eq!(state(&b).marine("SC1").unwrap().on_map(), Some(ties[0]));
}

/// Variant, C.2 1: a malfunction onto a Marine unit; the Stunned marker
/// is logged at once, then the Kay'otz player puts the unit next to the
/// random hex (`movement.rs` `malfunction` says so).
#[test]
fn variant_the_kayotz_player_chooses_where_a_malfunctioning_jump_comes_down() {
    let mut b = battle_seeded(&alpha("marine SC1 at 111\nmarine MS1 at 231"), 1, true);
    let ev = play(&mut b, &jump("SC1", 225), &[1, 2, 3, 1]);
    assert_eq!(
        state(&b).marine("SC1").unwrap().condition,
        Condition::Stunned
    );
    // the order of the log: the tie, then the marker; the landing comes
    // with the Kay'otz player's place_unit
    let tie = ev
        .iter()
        .position(|e| matches!(e, DimxEvent::TieToBreak { .. }));
    let marker = ev
        .iter()
        .position(|e| matches!(e, DimxEvent::ConditionChanged { unit, .. } if unit == "SC1"));
    assert!(tie.is_some() && marker > tie, "{ev:?}");
    assert!(!ev.iter().any(|e| matches!(e, DimxEvent::Landed { .. })));
    let ties = free_around(&b, 231);
    assert_eq!(places(&b).len(), ties.len());
    let pick = ties[1];
    let ev = try_play(&mut b, 1, &place_unit("SC1", pick), &[]).unwrap();
    assert_event!(ev, DimxEvent::Landed { at, .. } if *at == pick);
    assert_eq!(state(&b).marine("SC1").unwrap().on_map(), Some(pick));
}

/// The `shoot_and_scoot_jump` of a unit waiting at the map edge (E.6, C.2
/// "Reinforcement units may jump in from off-map"): the position review16
/// tried. The Marine Squad at 225 and the Kay'otz unit at 251 stand beside
/// the hexes it may come down in.
fn scoot_jump_in(unit: &str, to: u16) -> String {
    format!(r#"{{"shoot_and_scoot_jump":{{"unit":"{unit}","to":{to}}}}}"#)
}
const OFF_MAP: &str = "marine SC1 waiting\nmarine MS1 at 225\nkayotz K1 at 251";

/// Then: the Shoot and Scoot of `unit` is still open with its move done and
/// its fire to come.
fn scoot_open_to_fire(b: &xenolog_engine::Session<DimX>, unit: &str) -> bool {
    matches!(
        &state(b).phase,
        Phase::MarineAction {
            partial: Some(Partial::ShootAndScoot { unit: u, moved: true, fired: false })
        } if u == unit
    )
}

/// Variant with C.1 b and C.2: "The unit may conduct all its movement first
/// and then perform Combat". A Shoot and Scoot jump in from off the map that
/// scatters (a 3, -1 Shoot and Scoot: 2) onto hexes the Kay'otz player must
/// choose among is in the air, not gone: its action stays open while it is
/// put down, and then it fires with the -1 (rules version 6; before, its
/// action ended before it landed and the fire was refused as "has already
/// acted"). In solitaire the same jump lands at once and fires too.
#[test]
fn variant_a_shoot_and_scoot_jump_in_from_off_the_map_that_scatters_may_still_fire() {
    let mut b = battle_seeded(&alpha(OFF_MAP), 1, true);
    let ev = play(&mut b, &scoot_jump_in("SC1", 244), &[3]);
    assert_event!(ev, DimxEvent::TieToBreak { unit, .. } if unit == "SC1");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, DimxEvent::ActionFinished { .. })),
        "the action is not over while the unit is in the air: {ev:?}"
    );
    assert!(scoot_open_to_fire(&b, "SC1"));
    assert_eq!(state(&b).marine("SC1").unwrap().place, Place::Waiting);
    // the Kay'otz player is asked about the Marine unit, by its name
    let asked = DimX::asked(state(&b));
    assert_eq!(asked.len(), 1);
    assert_eq!(
        (asked[0].seat, asked[0].what.as_str()),
        (Actor(1), "break a tie: choose where Scout SC1 goes")
    );
    let ties: Vec<u16> = places(&b).into_iter().map(|(_, h)| h).collect();
    assert_eq!(ties, free_around(&b, 244));
    // the Kay'otz player puts it beside K1, not where solitaire would (the
    // highest-numbered hex)
    assert!(
        ties.len() > 1 && ties[0] != 226 && ties.contains(&226),
        "{ties:?}"
    );
    try_play(&mut b, 1, &place_unit("SC1", 226), &[]).unwrap();
    assert_eq!(state(&b).marine("SC1").unwrap().on_map(), Some(226));
    assert!(scoot_open_to_fire(&b, "SC1"), "still open once it is down");
    assert_eq!(DimX::to_move(state(&b)), Some(Actor(0)));
    assert!(is_legal(&b, &scoot_fire("SC1", "K1")));
    let ev = play(&mut b, &scoot_fire("SC1", "K1"), &[6, 6, 6]);
    assert_event!(
        ev,
        DimxEvent::Fired { shooter, mods, dice, .. }
            if shooter == "SC1"
                && mods.iter().any(|m| m.why == ModWhy::ShootAndScoot && m.value == -1)
                && dice.len() == 3,
        "CF 3, -1 Shoot and Scoot, +1 adjacent: {ev:?}"
    );
    assert_event!(ev, DimxEvent::ActionFinished { unit, .. } if unit == "SC1");
    assert!(state(&b).marine("SC1").unwrap().acted);
    // solitaire: no question, the highest-numbered hex, and the fire follows
    let mut b = battle(&alpha(OFF_MAP));
    play(&mut b, &scoot_jump_in("SC1", 244), &[3]);
    assert_eq!(state(&b).marine("SC1").unwrap().on_map(), Some(ties[0]));
    assert!(scoot_open_to_fire(&b, "SC1"));
    assert!(is_legal(&b, &scoot_fire("SC1", "K1")));
}

/// The same for a malfunction (C.2 1: a net 0 is read as 1, assumption 22)
/// whose random hex 225 holds a Marine unit: the jumper gets its Stunned
/// marker, the Kay'otz player puts it beside 225, and it fires with -1 for
/// Shoot and Scoot and -1 for Stunned (D.3 a, b).
#[test]
fn variant_a_shoot_and_scoot_jump_in_from_off_the_map_that_malfunctions_onto_a_unit_may_still_fire()
{
    let mut b = battle_seeded(&alpha(OFF_MAP), 1, true);
    let ev = play(&mut b, &scoot_jump_in("SC1", 244), &[1, 2, 2, 5]);
    assert_event!(ev, DimxEvent::RandomHex { hex: 225, .. });
    assert_event!(ev, DimxEvent::TieToBreak { unit, .. } if unit == "SC1");
    assert!(scoot_open_to_fire(&b, "SC1"), "{ev:?}");
    let ties: Vec<u16> = places(&b).into_iter().map(|(_, h)| h).collect();
    assert_eq!(ties, free_around(&b, 225));
    assert!(ties.contains(&226), "{ties:?}");
    try_play(&mut b, 1, &place_unit("SC1", 226), &[]).unwrap();
    let m = state(&b).marine("SC1").unwrap();
    assert_eq!((m.on_map(), m.condition), (Some(226), Condition::Stunned));
    let ev = play(&mut b, &scoot_fire("SC1", "K1"), &[6, 6]);
    assert_event!(
        ev,
        DimxEvent::Fired { shooter, mods, dice, .. }
            if shooter == "SC1"
                && mods.iter().any(|m| m.why == ModWhy::ShootAndScoot)
                && mods.iter().any(|m| m.why == ModWhy::Stunned)
                && dice.len() == 2,
        "CF 3, -1 Shoot and Scoot, -1 Stunned, +1 adjacent: {ev:?}"
    );
    assert_event!(ev, DimxEvent::ActionFinished { unit, .. } if unit == "SC1");
}

/// C.1 b (rules version 3) still holds in the variant: a Shoot and Scoot
/// jump in from off the map whose malfunction lands on an Active alien
/// ends with the unit, with no tie to break and nothing left to fire.
#[test]
fn variant_a_shoot_and_scoot_jump_in_eliminated_on_landing_ends_its_action() {
    let mut b = battle_seeded(&alpha(OFF_MAP), 1, true);
    let ev = play(&mut b, &scoot_jump_in("SC1", 244), &[1, 2, 5, 1]);
    assert_event!(ev, DimxEvent::MarineEliminated { unit, .. } if unit == "SC1");
    assert!(state(&b).placing.is_none());
    assert_event!(ev, DimxEvent::ActionFinished { unit, .. } if unit == "SC1");
    assert!(matches!(
        state(&b).phase,
        Phase::MarineAction { partial: None }
    ));
    assert_eq!(DimX::to_move(state(&b)), Some(Actor(0)));
}

/// Variant, D.6 3: a Kay'otz unit beamed onto another alien goes where the
/// Kay'otz player says among the hexes next to it.
#[test]
fn variant_the_kayotz_player_chooses_where_a_beamed_alien_goes() {
    let text = alpha("marine SO1 at 225\nkayotz K1 at 226\nkayotz K2 at 231");
    let mut b = battle_seeded(&text, 1, true);
    play(&mut b, &fire("SO1", "K1"), &[3, 2, 3, 1]);
    // K1 is leaving 226, so its own hex next to 231 counts as free
    let mut ties = free_around(&b, 231);
    ties.push(226);
    ties.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(
        places(&b).iter().map(|p| p.1).collect::<Vec<_>>(),
        ties,
        "the hexes next to 231"
    );
    let pick = *ties.last().unwrap();
    try_play(&mut b, 1, &place_unit("K1", pick), &[]).unwrap();
    assert_eq!(state(&b).alien("K1").unwrap().on_map(), Some(pick));
    assert_eq!(DimX::to_move(state(&b)), Some(Actor(0)));
}

/// Variant, an assumed warp step: the warping unit lands on a Marine, fires
/// point blank, and the Kay'otz player chooses where it steps aside; then the
/// chit goes on.
#[test]
fn variant_the_kayotz_player_chooses_where_a_warped_alien_steps_aside() {
    let text = alpha("marine MS1 at 231\nkayotz K1 at 111\nkayotz K2 at 666\ncup warp_1_8");
    let mut b = battle_seeded(&text, 1, true);
    play(&mut b, END_PHASE, &[]);
    let ev = try_play(&mut b, 1, &order("activate", "K1"), &[2, 3, 1, 1, 1, 1]).unwrap();
    assert_event!(ev, DimxEvent::Fired { shooter, .. } if shooter == "K1");
    let ties = free_around(&b, 231);
    assert_eq!(places(&b).len(), ties.len());
    let pick = *ties.last().unwrap();
    try_play(&mut b, 1, &place_unit("K1", pick), &[]).unwrap();
    assert_eq!(state(&b).alien("K1").unwrap().on_map(), Some(pick));
    assert!(
        matches!(&state(&b).phase, Phase::Kayotz { todo: Some(t), .. } if t == &vec!["K2".to_owned()]),
        "the chit goes on with K2"
    );
}

/// Variant, an assumed summon step at the Wormholes: with two free
/// Wormholes the Kay'otz player picks one; the next unit then has only one.
/// Solitaire: the highest-numbered free Wormhole first (F.2 note).
#[test]
fn variant_the_kayotz_player_chooses_the_wormhole_a_summoned_unit_comes_through() {
    let text = alpha("marine MS1 at 225\nkayotz K1 cup\nkayotz K2 cup\ncup rift");
    let mut b = battle_seeded(&text, 1, true);
    play(&mut b, END_PHASE, &[]);
    let choices = places(&b);
    assert_eq!(
        choices.iter().map(|p| p.1).collect::<Vec<_>>(),
        vec![631, 354],
        "both Wormholes of Mapzone Alpha"
    );
    let first = choices[0].0.clone();
    try_play(
        &mut b,
        1,
        &format!(r#"{{"place_unit":{{"unit":"{first}","hex":354}}}}"#),
        &[],
    )
    .unwrap();
    let s = state(&b);
    assert_eq!(s.alien(&first).unwrap().on_map(), Some(354));
    let other = if first == "K1" { "K2" } else { "K1" };
    assert_eq!(s.alien(other).unwrap().on_map(), Some(631), "the one left");
    assert!(DimX::outcome(s).is_some(), "the phase went on to its end");

    let mut b = battle(&text);
    let ev = play(&mut b, END_PHASE, &[]);
    let to: Vec<u16> = ev
        .iter()
        .filter_map(|e| match e {
            DimxEvent::AlienMoved {
                to,
                how: AlienMove::Summoned,
                ..
            } => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(to, vec![631, 354], "highest-numbered free Wormhole first");
}

/// Variant and F.4: the chit a draw-again chit draws is drawn "as if it was
/// just normally drawn", so in the variant it is two chits and the Kay'otz
/// player picks (assumed reading); after a successful Recon the Marine
/// player picked the first chit, and the follow-up is the Kay'otz player's.
#[test]
fn variant_the_follow_up_draw_of_a_draw_again_chit_is_two_and_pick() {
    let text = alpha("marine MS1 at 225\ncup overlords_command lull awakening");
    // find a seed whose first pair holds The Overlord's Command
    let mut b = seed_offering("overlords_command", |seed| battle_seeded(&text, seed, true));
    let ev = try_play(&mut b, 1, &choose_chit("overlords_command"), &[]).unwrap();
    let d = drawn(&ev);
    assert_eq!(d.len(), 1);
    assert_eq!(
        (d[0].0.len(), d[0].1),
        (2, Some(Side::Kayotz)),
        "two drawn, the Kay'otz player picks"
    );
    assert_eq!(DimX::to_move(state(&b)), Some(Actor(1)));
}

/// Variant: "The Kay'otz player makes all the necessary die rolls for the
/// alien units." A chit step that rolls dice for the aliens as a whole (The
/// Terror From Beyond: two units summoned to random hexes, three dice each)
/// waits for the Kay'otz player's `roll_for_aliens`, so those dice are the
/// Kay'otz player's to enter, even when the Marine player's command brought
/// the chit into play (the pick after a successful Recon, or the last chit
/// drawn at the end of the Marine Action Phase). Solitaire rolls at once.
#[test]
fn variant_the_kayotz_player_rolls_the_dice_of_every_alien_step() {
    let random_hexes = |ev: &[DimxEvent]| -> Vec<[u8; 3]> {
        ev.iter()
            .filter_map(|e| match e {
                DimxEvent::RandomHex { dice, .. } => Some(*dice),
                _ => None,
            })
            .collect()
    };
    let roll = r#""roll_for_aliens""#;
    let text = alpha("marine SC1 at 225\nkayotz K1 cup\nkayotz K2 cup\ncup terror lull\nrecon yes");
    let mut b = battle_seeded(&text, 1, true);
    let ev = play(&mut b, END_PHASE, &[]);
    assert_eq!(drawn(&ev)[0].1, Some(Side::Marines), "the Recon's pick");
    let ev = play(&mut b, &choose_chit("terror"), &[]);
    assert!(
        random_hexes(&ev).is_empty(),
        "no alien die in the Marine's command"
    );
    assert_eq!(DimX::to_move(state(&b)), Some(Actor(1)));
    assert_eq!(DimX::legal(state(&b)), vec![(Actor(1), cmd(roll))]);
    assert_eq!(
        try_play(&mut b, 0, roll, &[]).unwrap_err().kind,
        RuleErrorKind::NotYourTurn
    );
    let e = try_play(&mut b, 1, &order("activate", "K1"), &[]).unwrap_err();
    assert!(e.message.contains("roll_for_aliens"), "{e}");
    let ev = try_play(&mut b, 1, roll, &[2, 3, 1, 4, 5, 6]).unwrap();
    assert_eq!(
        random_hexes(&ev),
        vec![[2, 3, 1], [4, 5, 6]],
        "the Kay'otz player's dice"
    );
    let s = state(&b);
    let mut at: Vec<_> = ["K1", "K2"]
        .iter()
        .map(|u| s.alien(u).unwrap().on_map())
        .collect();
    at.sort();
    assert_eq!(at, vec![Some(231), Some(456)]);
    let e = try_play(&mut b, 1, roll, &[]);
    assert!(e.is_err(), "nothing waits for dice any more");

    // the last chit in the cup, drawn in the Marine player's end of phase
    let mut b = battle_seeded(
        &alpha("marine MS1 at 225\nkayotz K1 cup\ncup pod_drop"),
        1,
        true,
    );
    let ev = play(&mut b, END_PHASE, &[]);
    assert!(random_hexes(&ev).is_empty());
    assert_eq!(DimX::legal(state(&b)), vec![(Actor(1), cmd(roll))]);
    let ev = try_play(&mut b, 1, roll, &[6, 6, 6]).unwrap();
    assert_eq!(random_hexes(&ev), vec![[6, 6, 6]]);
    assert_eq!(state(&b).alien("K1").unwrap().on_map(), Some(666));

    // solitaire: the same chit rolls at once, in the command that enacts it
    let mut b = battle(&alpha("marine MS1 at 225\nkayotz K1 cup\ncup pod_drop"));
    let ev = play(&mut b, END_PHASE, &[6, 6, 6]);
    assert_eq!(random_hexes(&ev), vec![[6, 6, 6]]);
}

/// Variant: a summon step with nothing to roll (the unit cup empty, or
/// Wormholes to come through) does not wait for the Kay'otz player.
#[test]
fn variant_a_step_that_rolls_no_dice_does_not_wait_for_the_kayotz_player() {
    let mut b = battle_seeded(&alpha("marine MS1 at 225\ncup pod_drop"), 1, true);
    play(&mut b, END_PHASE, &[]);
    assert!(
        DimX::outcome(state(&b)).is_some(),
        "the empty unit cup: on to the end"
    );
}

// ---- A.2 b The Monolith ---------------------------------------------------------------

fn monolith_active(b: &xenolog_engine::Session<DimX>) -> bool {
    let s = state(b);
    xenolog_engine::games::dimx::rules::alien_active(
        s,
        builtin("alpha").unwrap(),
        s.alien("MON").unwrap(),
    )
}

#[test]
fn a2_the_monolith_shuts_down_next_to_an_active_hq_logistics_or_special_ops_unit() {
    for unit in ["HQ1", "LG1", "SO1", "HQ2"] {
        let text = alpha(&format!(
            "marine {unit} at 146\nmarine MS1 at 166\nmonolith MON at 225"
        ));
        let mut b = battle(&text);
        assert!(
            monolith_active(&b),
            "a Marine Squad next to it does not shut it down"
        );
        let ev = play(
            &mut b,
            &format!(r#"{{"full_move":{{"unit":"{unit}","to":165}}}}"#),
            &[],
        );
        assert_event!(
            ev,
            DimxEvent::MonolithSwitched { active: false, .. },
            "{unit}"
        );
        assert!(!monolith_active(&b));
    }
}

#[test]
fn a2_the_monolith_comes_back_as_soon_as_no_such_active_unit_is_adjacent() {
    // the HQ next to it is Paralyzed by Kay'otz fire: the Monolith flips back at once
    let text =
        alpha("marine HQ1 at 165 stunned\nmonolith MON at 225\nkayotz K1 at 146\ncup barrage_odd");
    let mut b = battle(&text);
    assert!(!monolith_active(&b), "a Stunned HQ is still Active");
    let ev = play(&mut b, END_PHASE, &[6, 6, 6, 6]);
    let i = ev
        .iter()
        .position(|e| matches!(e, DimxEvent::ConditionChanged { unit, .. } if unit == "HQ1"))
        .unwrap();
    assert!(
        matches!(ev[i + 1], DimxEvent::MonolithSwitched { active: true, .. }),
        "immediately after"
    );
}

#[test]
fn a2_the_monolith_never_moves_nor_fires() {
    let text = "scenario \"t\"\nmap alpha\nother_kayotz aside\nmarine MS1 at 225\nmonolith MON at 111\n\
                chit all \"Everyone\"\n  rush all\n  warp all\n  fire all\ncup all\n";
    let mut b = battle(text);
    let ev = play(&mut b, END_PHASE, &[]);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, DimxEvent::AlienTurn { unit, .. } if unit == "MON"))
    );
    assert_eq!(state(&b).alien("MON").unwrap().on_map(), Some(111));
}

// ---- The assumed chit sheet's other steps (F.2: "follow the indicated procedures") ----

#[test]
fn chit_summon_draws_units_from_the_unit_cup_onto_a_random_hex() {
    let mut b = battle(&alpha("marine MS1 at 225\nkayotz K1 cup\ncup pod_drop"));
    let ev = play(&mut b, END_PHASE, &[2, 3, 1]);
    assert!(ev.iter().any(|e| matches!(e, DimxEvent::AlienMoved { unit, to: 231, how: AlienMove::Summoned, .. } if unit == "K1")));
    let k1 = state(&b).alien("K1").unwrap();
    assert!(!k1.dormant, "it comes out Active");
    // onto a unit: it steps to the highest-numbered eligible adjacent hex
    let mut b = battle(&alpha("marine MS1 at 231\nkayotz K1 cup\ncup pod_drop"));
    play(&mut b, END_PHASE, &[2, 3, 1]);
    assert_eq!(state(&b).alien("K1").unwrap().on_map(), Some(252));
}

/// The assumed Summon step with fewer units in the unit cup than it names
/// (the pool runs out): as many come out as the cup holds, the dice are
/// rolled for those only, and the step's words say so beforehand.
#[test]
fn chit_summon_with_too_few_units_in_the_unit_cup_summons_what_is_there() {
    let mut b = battle(&alpha("marine MS1 at 225\nkayotz K1 cup\ncup terror lull"));
    let ev = play(&mut b, END_PHASE, &[2, 3, 1]);
    let summoned: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            DimxEvent::AlienMoved {
                unit,
                to,
                how: AlienMove::Summoned,
                ..
            } => Some((unit.as_str(), *to)),
            _ => None,
        })
        .collect();
    assert_eq!(summoned, vec![("K1", 231)], "the one unit the cup held");
    let rolls = ev
        .iter()
        .filter(|e| matches!(e, DimxEvent::RandomHex { .. }))
        .count();
    assert_eq!(rolls, 1, "no dice for a unit that is not there");
    assert!(
        words(&ev).contains(
            &"2 units from the Kay'otz unit cup (as many as it holds) come out in random hexes"
                .to_owned()
        ),
        "{:?}",
        words(&ev)
    );
    // an empty unit cup: nothing comes out, nothing is rolled
    let mut b = battle(&alpha("marine MS1 at 225\ncup pod_drop"));
    let ev = play(&mut b, END_PHASE, &[]);
    assert!(!ev.iter().any(|e| matches!(
        e,
        DimxEvent::RandomHex { .. }
            | DimxEvent::AlienMoved {
                how: AlienMove::Summoned,
                ..
            }
    )));
}

#[test]
fn chit_summon_at_a_wormhole() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K1 cup\nkayotz K2 cup\ncup rift",
    ));
    play(&mut b, END_PHASE, &[]);
    let m = builtin("alpha").unwrap();
    for id in ["K1", "K2"] {
        let h = state(&b).alien(id).unwrap().on_map().expect("on the map");
        let c = m.cell(h).unwrap();
        let near = [354u16, 631]
            .iter()
            .any(|&w| m.distance(c, m.cell(w).unwrap()) <= 1);
        assert!(near, "{id} in {h}: at or next to a Wormhole");
    }
}

#[test]
fn chit_wake_and_shut_down_flip_units() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K1 at 111 dormant\nkayotz K2 at 666 dormant\ncup awakening",
    ));
    play(&mut b, END_PHASE, &[]);
    assert!(!state(&b).alien("K1").unwrap().dormant && !state(&b).alien("K2").unwrap().dormant);
    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K1 at 111\nkayotz K2 at 666\ncup shut_down_even",
    ));
    play(&mut b, END_PHASE, &[]);
    assert!(!state(&b).alien("K1").unwrap().dormant, "odd: stays Active");
    assert!(state(&b).alien("K2").unwrap().dormant);
}

#[test]
fn chit_capture_carries_off_paralyzed_marines_next_to_active_aliens() {
    let text = alpha(
        "marine MS1 at 225 paralyzed\nmarine MS2 at 111 paralyzed\nmarine MS3 at 244 stunned\nkayotz K1 at 226\nkayotz K2 at 112 dormant\ncup enclave",
    );
    let mut b = battle(&text);
    play(&mut b, END_PHASE, &[]);
    let s = state(&b);
    assert_eq!(
        s.marine("MS1").unwrap().place,
        xenolog_engine::games::dimx::units::Place::Eliminated
    );
    assert!(
        s.marine("MS2").unwrap().on_map().is_some(),
        "next to a Dormant alien only"
    );
    assert!(
        s.marine("MS3").unwrap().on_map().is_some(),
        "Stunned, not Paralyzed"
    );
}

#[test]
fn chit_advance_moves_up_to_n_hexes_straight_towards_the_nearest_marine_then_fires() {
    let mut b = battle(&alpha("marine MS1 at 225\nkayotz K1 at 111\ncup advance"));
    let ev = play(&mut b, END_PHASE, &[1, 1, 1]);
    let m = builtin("alpha").unwrap();
    let to = state(&b).alien("K1").unwrap().on_map().unwrap();
    assert_eq!(
        m.distance(m.cell(111).unwrap(), m.cell(to).unwrap()),
        2,
        "two hexes"
    );
    assert_eq!(
        m.distance(m.cell(to).unwrap(), m.cell(225).unwrap()),
        2,
        "as near to MS1 as two hexes get"
    );
    assert_eq!(fired_at(&ev), vec!["MS1"]);
}

/// An assumed warp step whose three dice name the unit's own hex: it stays.
#[test]
fn chit_warp_into_its_own_hex_the_alien_stays() {
    let mut b = battle(&alpha("marine MS1 at 225\nkayotz K1 at 231\ncup warp_1_8"));
    let ev = play(&mut b, END_PHASE, &[2, 3, 1]);
    assert_event!(ev, DimxEvent::AlienStays { at: 231, .. });
    assert_eq!(state(&b).alien("K1").unwrap().on_map(), Some(231));
}

/// An assumed summon step when no hex of the map is free: the unit stays in
/// the cup, and the log says so.
#[test]
fn chit_summon_with_no_free_hex_anywhere_leaves_the_unit_in_the_cup() {
    let text = "scenario \"tiny\"\nmap tiny\nmap_name \"Tiny\"\ngrid 3 1\nrow 1 111. 112. 113.\n\
                other_kayotz aside\nmarine MS1 at 111\nmarine MS2 at 113\nkayotz K2 at 112 dormant\n\
                kayotz K1 cup\ncup pod_drop\n";
    let mut b = battle(text);
    let ev = play(&mut b, END_PHASE, &[1, 1, 2]);
    assert_event!(
        ev,
        DimxEvent::NoRoom { unit, at: None, .. } if unit == "K1",
        "{:?}",
        words(&ev)
    );
    assert_eq!(
        state(&b).alien("K1").unwrap().place,
        xenolog_engine::games::dimx::units::AlienPlace::Cup
    );
}

#[test]
fn chit_lull_does_nothing() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K1 at 226\ncup lull awakening",
    ));
    let before = state(&b).clone();
    play(&mut b, END_PHASE, &[]);
    assert_eq!(state(&b).aliens, before.aliens);
    assert_eq!(state(&b).marines, before.marines);
}

/// Variant (review20 S1), C.3 "…is instead simply flipped back over to its
/// Active side (only) and does nothing else for that turn": a unit a chit
/// woke this turn and a later chit names again takes no target or hex, and
/// one given is refused in words naming C.3, nothing recorded; the bare
/// `activate` is what `legal` offers and it is taken.
#[test]
fn variant_c3_a_unit_woken_this_turn_refuses_a_target_given_when_named_again() {
    let mut b = battle_seeded(
        &alpha(
            "marine MS1 at 225\nkayotz K7 at 226 dormant\ncup overlords_command rush_4_8\nrecon yes",
        ),
        1,
        true,
    );
    play(&mut b, END_PHASE, &[]);
    play(&mut b, &choose_chit("overlords_command"), &[]);
    // The Overlord's Command names K7, Dormant: activating it flips it.
    let ev = try_play(&mut b, 1, &order("activate", "K7"), &[]).unwrap();
    assert!(
        ev.iter().any(
            |e| matches!(e, DimxEvent::AlienFlipped { unit, dormant: false, .. } if unit == "K7")
        ),
        "{ev:?}"
    );
    // Drawn again by the follow-up chit, it is asked once more.
    let (before, at) = (b.records().len(), state(&b).clone());
    let e = try_play(
        &mut b,
        1,
        r#"{"activate":{"unit":"K7","target":"MS1"}}"#,
        &[],
    )
    .unwrap_err();
    assert_eq!(e.kind, RuleErrorKind::Illegal, "{e}");
    assert!(
        e.message.contains("target MS1")
            && e.message.contains("a chit flipped it to Active this turn"),
        "{e}"
    );
    assert_eq!(b.records().len(), before, "nothing recorded");
    assert!(*state(&b) == at, "the state is as it was");
    let offered: Vec<DimxCommand> = DimX::legal(state(&b))
        .into_iter()
        .filter(|(a, _)| *a == Actor(1))
        .map(|(_, c)| c)
        .collect();
    assert_eq!(offered, vec![cmd(&order("activate", "K7"))]);
    try_play(&mut b, 1, &order("activate", "K7"), &[]).unwrap();
    assert_eq!(
        state(&b).marine("MS1").unwrap().condition,
        Condition::Fine,
        "no fire at the Marine next to it"
    );
}
