//! Kills per model (issue 27): every kill is credited to the figures whose
//! dice made it, in proportion to the dice each rolled (the text totals a
//! group's dice, so no single die makes a kill; RULES.md "Kills per
//! model"), and the battle's `Outcome` carries each figure's tally in
//! `PieceResult::kills` for the campaign's roster.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::Invasion;
use xenolog_engine::games::invasion::InvasionState;
use xenolog_engine::games::invasion::rules::split_credit;
use xenolog_engine::games::invasion::state::{CardKind, Ending, InvasionEvent as E};
use xenolog_engine::{Fate, Game};

fn kills_of(s: &InvasionState, id: &str) -> u32 {
    s.groups
        .iter()
        .flat_map(|g| g.models.iter())
        .find(|m| m.id == id)
        .map_or_else(|| panic!("no figure {id}"), |m| m.kills)
}

/// The text's first worked example: "a section of 4 U.N.I.T. troops fires
/// on a group of 3 Daleks ... two rifles at 1D6 each, one Light Support
/// Weapon at 2D6 and one LAWS rocket at 4D6 ... one of the metal encased
/// monstrosities explodes". Half the dice are the LAWS's: the kill is its.
#[test]
fn kills_per_model_the_worked_example_credits_the_dalek_to_the_laws_gunner() {
    let (mut s, [sec, dal]) = given_at(&["unit", "daleks"], "s1 at 10,20; d1 at 10,12");
    card(&mut s, 0, CardKind::Single);
    let p = play(&mut s, 0, &shoot(&[sec], dal), &[2, 2, 2, 3, 3, 5, 6, 6]);
    p.assert_says("the kills go to the figures whose dice made them: LAWS Gunner 4 (1)");
    let ids = figures(&s, sec);
    assert_eq!(
        ids.iter().map(|id| kills_of(&s, id)).collect::<Vec<_>>(),
        [0, 0, 0, 1]
    );
    // The battle's outcome carries every figure's tally.
    s.over = Some(Ending {
        winners: vec![0],
        summary: "test".into(),
    });
    let out = Invasion::outcome(&s).expect("an outcome");
    let laws = out.pieces.iter().find(|p| p.id == ids[3]).unwrap();
    assert_eq!((laws.kills, laws.fate), (Some(1), Fate::Survived));
    let rifle = out.pieces.iter().find(|p| p.id == ids[0]).unwrap();
    assert_eq!(rifle.kills, Some(0));
}

/// "Linked fire also allows two different groups to shoot at the same
/// target and total their dice": the kills are shared among both groups'
/// figures by their dice.
#[test]
fn kills_per_model_linked_fire_of_two_groups_is_split_by_the_dice_each_figure_rolled() {
    let (mut s, [a, b, dal]) =
        given_at(&["unit", "daleks"], "s1 at 8,20; s2 at 14,20; d1 at 10,12");
    card(&mut s, 0, CardKind::Double);
    play(&mut s, 0, &shoot(&[a, b], dal), &[6; 16]);
    // 96 at 24: three kills (every Dalek). 16 dice: each LAWS 4, each Light
    // Support Weapon 2, each rifle 1; 3 kills: the two LAWS, then the first
    // Light Support Weapon (largest remainders, the earlier on a tie).
    let (fa, fb) = (figures(&s, a), figures(&s, b));
    assert_eq!(
        fa.iter().map(|id| kills_of(&s, id)).collect::<Vec<_>>(),
        [0, 0, 1, 1]
    );
    assert_eq!(
        fb.iter().map(|id| kills_of(&s, id)).collect::<Vec<_>>(),
        [0, 0, 0, 1]
    );
    assert_eq!(s.kills[0], 3);
}

/// In hand-to-hand every figure alive when the resolution began strikes
/// ("Casualties that have not had a chance to make their own attack rolls
/// should be placed nearby"), so the dead share the kills they made.
#[test]
fn kills_per_model_in_a_melee_casualties_that_strike_share_the_kills() {
    let (mut s, [sec, dal]) = given_at(&["unit", "daleks"], "s1 at 20,20; d1 at 20,26");
    seat_cards(&mut s, &[(1, CardKind::Double), (0, CardKind::Single)]);
    charge_and_end_card(&mut s, 1, &mv(dal, 20.0, 21.05));
    // U.N.I.T. kills two Daleks (48 at 24): the LAWS and the Light Support
    // Weapon (4 and 2 of the 8 dice).
    play(&mut s, 0, r#"{"strike":{}}"#, &[6; 8]);
    let two: Vec<String> = figures(&s, dal).into_iter().take(2).collect();
    play(&mut s, 1, &casualties(&two), &[]);
    let fs = figures(&s, sec);
    assert_eq!(
        fs.iter().map(|id| kills_of(&s, id)).collect::<Vec<_>>(),
        [0, 0, 1, 1]
    );
    // All three Daleks' 18D6 strike back: 18 at 6, three men; each Dalek
    // rolled 6 of the dice, the two dead ones included.
    let p = play(&mut s, 1, r#"{"strike":{}}"#, &[1; 18]);
    assert!(
        p.any(|e| matches!(e, E::ModelsCredited { kills } if kills.len() == 3)),
        "{:#?}",
        p.words
    );
    let daleks: Vec<String> = s
        .group(dal)
        .models
        .iter()
        .map(|m| String::from(&m.id))
        .collect();
    assert_eq!(
        daleks.iter().map(|id| kills_of(&s, id)).collect::<Vec<_>>(),
        [1, 1, 1]
    );
}

#[test]
fn kills_per_model_split_by_dice_largest_remainder_earlier_figure_on_a_tie() {
    let w = |v: &[(&str, u32)]| -> Vec<(String, u32)> {
        v.iter().map(|(a, b)| ((*a).to_owned(), *b)).collect()
    };
    assert_eq!(
        split_credit(1, &w(&[("r1", 1), ("r2", 1), ("lsw", 2), ("laws", 4)])),
        w(&[("laws", 1)])
    );
    assert_eq!(
        split_credit(2, &w(&[("a", 6), ("b", 6), ("c", 6)])),
        w(&[("a", 1), ("b", 1)])
    );
    assert_eq!(
        split_credit(5, &w(&[("a", 3), ("b", 1)])),
        w(&[("a", 4), ("b", 1)])
    );
    assert!(split_credit(0, &w(&[("a", 3)])).is_empty());
    assert!(split_credit(2, &[]).is_empty());
}
