//! Entered dice (issue 27): every die Alien Invasion rolls goes through
//! `Randomness::d` (and so `d6`/`roll`), so that a command decided with the
//! dice the players typed in decides exactly as with the stream's, and a
//! command that needs dice and has none entered is refused. Random battles
//! with every Advanced Invasion Earth module on: at each entry, the
//! command is decided with the stream; if it rolled dice, it is decided
//! again with those dice entered (same events) and with none (refused:
//! `MoreDice`). A roll that bypassed `d` would differ or go through.

#[path = "support/invasion.rs"]
mod support;

use support::with_every_module;
use xenolog_engine::games::invasion::{Invasion, InvasionConfig, InvasionState, rules, start};
use xenolog_engine::rng::Randomness;
use xenolog_engine::{Actor, Game, RuleErrorKind};

fn config(n: u64) -> InvasionConfig {
    let factions = [["mib", "spugs"], ["unit", "daleks"], ["spugs", "unit"]][n as usize % 3];
    with_every_module(InvasionConfig {
        scenario: "skirmish".into(),
        factions: factions.iter().map(|f| (*f).to_owned()).collect(),
        sewers: true,
        ..InvasionConfig::default()
    })
}

#[test]
fn entered_dice_every_roll_goes_through_the_entered_dice_and_none_entered_is_refused() {
    let mut checked = 0;
    for n in 0..6u64 {
        let mut s: InvasionState = start(&config(n)).expect("setup");
        let mut draws = 0u64;
        for step in 0..400u64 {
            if s.over.is_some() {
                break;
            }
            let (actor, c) = match Invasion::automatic(&s) {
                Some(c) => (Actor::SYSTEM, c),
                None => {
                    let legal = Invasion::legal(&s);
                    if legal.is_empty() {
                        break;
                    }
                    let i = (n * 7919 + step * 104_729) as usize % legal.len();
                    legal[i].clone()
                }
            };
            let seed = 11 + n;
            let mut rng = Randomness::new(seed, draws, None);
            let events = rules::decide(&s, actor, &c, &mut rng).expect("legal is accepted");
            let used = rng.finish().expect("stream");
            if !used.dice.is_empty() {
                checked += 1;
                let dice: Vec<u8> = used.dice.iter().map(|d| d.value).collect();
                let mut typed = Randomness::new(seed, draws, Some(dice.clone()));
                let again = rules::decide(&s, actor, &c, &mut typed).expect("with its own dice");
                typed.finish().expect("every entered die used");
                assert_eq!(
                    again, events,
                    "{c:?} decides the same with its dice entered"
                );
                let mut none = Randomness::new(seed, draws, Some(Vec::new()));
                let e = rules::decide(&s, actor, &c, &mut none)
                    .expect_err("a command that rolls dice, none entered");
                assert_eq!(e.kind, RuleErrorKind::MoreDice, "{c:?}: {e}");
            }
            draws = used.draws;
            for e in &events {
                Invasion::apply(&mut s, e);
            }
        }
    }
    assert!(checked > 20, "only {checked} commands rolled dice");
}
