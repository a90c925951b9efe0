//! Entered dice: every die Alien rolls (a shot, an attack, the hatching
//! roll, the Queen's die) goes through `Randomness::d`, so a command that
//! needs a die with none entered is refused (`MoreDice`) and an entered die
//! is the one used; drawing a task card is a draw, not a die: it stays on
//! the battle's stream.

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::rules;
use xenolog_engine::games::alien::state::{AlienEvent as E, AlienState, Phase};
use xenolog_engine::games::alien::{AlienCommand as C, AlienConfig};
use xenolog_engine::rng::Randomness;
use xenolog_engine::{Actor, RuleErrorKind};

/// Decide with these entered dice (an empty list: a battle of entered
/// dice where none was typed for this command).
fn decide(s: &AlienState, actor: Actor, cmd: &C, dice: Vec<u8>) -> Result<Vec<E>, String> {
    let mut rng = Randomness::new(5, 0, Some(dice));
    let events =
        rules::decide(s, actor, cmd, &mut rng).map_err(|e| format!("{:?}: {e}", e.kind))?;
    let used = rng.finish().map_err(|e| format!("{:?}: {e}", e.kind))?;
    assert_eq!(used.draws, 0, "entered dice never touch the stream");
    Ok(events)
}

fn needs_a_die(s: &AlienState, actor: Actor, cmd: C) -> Vec<E> {
    let mut rng = Randomness::new(5, 0, Some(Vec::new()));
    let e = rules::decide(s, actor, &cmd, &mut rng).unwrap_err();
    assert_eq!(e.kind, RuleErrorKind::MoreDice, "{cmd:?}: {e}");
    decide(s, actor, &cmd, vec![4]).unwrap_or_else(|e| panic!("{cmd:?} with a 4: {e}"))
}

#[test]
fn every_roll_of_alien_takes_the_entered_dice_and_asks_for_more_when_none_is_entered() {
    // A shot.
    let s = at("character hicks at G9\nalien 2 at G7\n");
    let hicks = ch(&s, "hicks");
    let alien = s.aliens[0].id;
    let ev = needs_a_die(
        &s,
        EXPEDITION,
        C::Shoot {
            ch: hicks,
            weapon: 0,
            alien,
            charges: 1,
        },
    );
    assert!(matches!(ev[0], E::Shot { roll: 4, .. }), "{ev:?}");
    // An attack.
    let s = at_phase("character hicks at G9\nalien 2 at G8\n", Phase::Attacks);
    let ev = needs_a_die(&s, ALIEN, C::Attack { ch: hicks });
    assert!(matches!(ev[0], E::Attacked { roll: 4, .. }), "{ev:?}");
    // The hatching roll (the game's own step).
    let s = at_phase("", Phase::Hatching);
    let ev = needs_a_die(&s, Actor::SYSTEM, C::RollHatch);
    assert_eq!(ev[0], E::HatchRolled { roll: 4 });
    // The Queen's die (option 1).
    let s = at("points 2\ndone 1\n");
    let ev = needs_a_die(&s, EXPEDITION, C::AttackQueen);
    assert_eq!(ev[0], E::QueenRolled { roll: 4, points: 2 });
}

#[test]
fn a_task_card_is_drawn_from_the_stream_not_from_the_entered_dice() {
    let s = with(AlienConfig {
        scenario_text: Some("character hicks at C2 items disk\n".into()),
        ..AlienConfig::default()
    });
    let read = C::Read { ch: 0, pocket: 0 };
    let mut rng = Randomness::new(5, 0, Some(Vec::new()));
    let ev = rules::decide(&s, EXPEDITION, &read, &mut rng).expect("no die needed");
    assert!(matches!(ev[1], E::TaskDrawn { .. }), "{ev:?}");
    let used = rng.finish().unwrap();
    assert!(
        used.dice.is_empty() && used.draws > 0,
        "a draw from the stream"
    );
    let e = decide(&s, EXPEDITION, &read, vec![3]).unwrap_err();
    assert!(e.contains("rolls no dice"), "{e}");
}
