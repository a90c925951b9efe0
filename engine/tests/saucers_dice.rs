//! Night of the Saucers: entered dice. Every die the game rolls (an
//! attack's dice, Fight Dirty's extra die, the CPR roll) goes through
//! `Randomness::d`, so a command given with entered dice takes its dice from
//! them only: too few are refused (`RuleErrorKind::MoreDice`) and change
//! nothing, never made up from the stream; shuffles and draws stay on the
//! stream.

#[path = "support/saucers.rs"]
mod support;

use support::*;
use xenolog_engine::games::saucers::data::AlienKind;
use xenolog_engine::games::saucers::{
    Phase, Saucers, SaucersCommand as C, SaucersEvent as E, SaucersState, Target, rules,
};
use xenolog_engine::rng::Randomness;
use xenolog_engine::{Actor, RuleErrorKind, Session};

/// Decide with these entered dice; the stream must not move.
fn decide_entered(
    st: &SaucersState,
    actor: u8,
    cmd: &C,
    dice: Vec<u8>,
) -> Result<Vec<E>, RuleErrorKind> {
    let mut rng = Randomness::new(5, 0, Some(dice));
    let events = rules::decide(st, Actor(actor), cmd, &mut rng).map_err(|e| e.kind)?;
    let used = rng.finish().map_err(|e| e.kind)?;
    assert!(used.entered);
    assert_eq!(used.draws, 0, "no die was made up from the stream: {cmd:?}");
    Ok(events)
}

fn attack(human: u16, card: Option<u16>, at_: &str, alien: u32) -> C {
    C::Attack {
        human,
        card,
        at: at(at_),
        targets: vec![Target::Alien(alien)],
    }
}

#[test]
fn dice_entered_the_standard_attack_takes_its_dice_from_the_entered_ones_or_is_refused() {
    let mut st = quiet(&["nine_lives"], "C3");
    let scout = alien(&mut st, AlienKind::Scout, "C3");
    let patch = human(&st, "patch"); // attack 2
    let before = st.clone();
    assert_eq!(
        decide_entered(&st, 0, &attack(patch, None, "C3", scout), vec![]),
        Err(RuleErrorKind::MoreDice)
    );
    assert_eq!(
        decide_entered(&st, 0, &attack(patch, None, "C3", scout), vec![6]),
        Err(RuleErrorKind::MoreDice),
        "two dice, one entered"
    );
    let r = run(&mut st, 0, attack(patch, None, "C3", scout), Some(vec![6]));
    assert_eq!(r.unwrap_err().kind, RuleErrorKind::MoreDice);
    assert_eq!(st, before, "a refused command changes nothing");
    let ev = decide_entered(&st, 0, &attack(patch, None, "C3", scout), vec![6, 1]).unwrap();
    assert!(ev.contains(&E::Rolled {
        dice: vec![6, 1],
        hits: 2
    }));
}

#[test]
fn dice_entered_an_attack_card_and_fight_dirty_roll_only_entered_dice() {
    let mut st = quiet(&["dirty_birds"], "C3");
    let scout = alien(&mut st, AlienKind::Scout, "C3");
    let crow = human(&st, "crow");
    let bat = give(&mut st, 0, "bat"); // melee, 2 dice; Fight Dirty: 3
    let cmd = attack(crow, Some(bat), "C3", scout);
    assert_eq!(
        decide_entered(&st, 0, &cmd, vec![1, 1]),
        Err(RuleErrorKind::MoreDice),
        "Fight Dirty's extra die is entered too"
    );
    let ev = decide_entered(&st, 0, &cmd, vec![1, 1, 3]).unwrap();
    assert!(ev.contains(&E::Rolled {
        dice: vec![1, 1, 3],
        hits: 1
    }));
}

#[test]
fn dice_entered_the_cpr_roll_is_entered_or_refused() {
    let mut st = quiet(&["nine_lives"], "C3");
    alien(&mut st, AlienKind::Probe, "C3");
    ok(&mut st, 0, C::EndActions, None);
    assert_eq!(st.phase, Phase::Defeat);
    let tabby = human(&st, "tabby");
    assert_eq!(
        decide_entered(&st, 0, &C::Lose { human: tabby }, vec![]),
        Err(RuleErrorKind::MoreDice),
        "CPR rolls one die"
    );
    let ev = decide_entered(&st, 0, &C::Lose { human: tabby }, vec![6]).unwrap();
    assert!(ev.contains(&E::Revived { human: tabby }));
}

/// Through a whole battle: a command given with no dice where the game
/// rolls is refused in a battle played with entered dice, and nothing is
/// recorded; the same command with its dice is accepted and recorded as
/// entered.
#[test]
fn dice_entered_a_session_refuses_a_roll_with_no_dice_entered_and_records_nothing() {
    // A Probe on every tile: the students start on one.
    let mut text = String::new();
    for c in 'A'..='F' {
        for r in 1..=6 {
            text.push_str(&format!("alien probe {c}{r}\n"));
        }
    }
    let mut config = gangs(&["nine_lives"]);
    config.scenario_text = Some(text);
    let mut s = Session::<Saucers>::new(9, config).unwrap();
    s.play_due().unwrap();
    let tabby = human(s.state(), "tabby");
    s.play(Actor(0), &C::Assign { human: tabby }, None).unwrap();
    s.play_due().unwrap();
    let here = s.state().humans[tabby as usize].at;
    let probe = s.state().aliens.iter().find(|a| a.at == here).unwrap().id;
    let cmd = C::Attack {
        human: tabby,
        card: None,
        at: here,
        targets: vec![Target::Alien(probe)],
    };
    let before = s.state().clone();
    let entries = s.cursor();
    let err = s.play(Actor(0), &cmd, Some(vec![])).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::MoreDice, "{err}");
    assert_eq!(s.state(), &before);
    assert_eq!(s.cursor(), entries, "nothing recorded");
    s.play(Actor(0), &cmd, Some(vec![4])).unwrap();
    assert!(s.state().alien(probe).is_none(), "the entered 4 is one hit");
}
