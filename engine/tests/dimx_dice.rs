//! Physical dice (DESIGN principle 4): a player rolling real dice for the
//! Marine player's `end_action_phase` enters the dice of the whole Kay'otz
//! Activation Phase. The app may ask for them one at a time: it decides the
//! command with the dice entered so far, and on `RuleErrorKind::MoreDice`
//! asks for one more die and decides again. That must end exactly where
//! entering all the dice at once ends.

#[path = "support/dimx.rs"]
mod support;

use support::*;
use xenolog_engine::games::dimx::DimX;
use xenolog_engine::{Actor, Game, RuleErrorKind, Session};

/// A fixed sequence of die faces standing in for a player's real dice.
struct Hand(u64);

impl Hand {
    fn die(&mut self) -> u8 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % 6 + 1) as u8
    }
}

/// Give `end_action_phase`, entering one die at a time: the dice it took.
fn one_at_a_time(b: &mut Session<DimX>, hand: &mut impl FnMut() -> u8) -> Vec<u8> {
    let c = cmd(END_PHASE);
    let mut dice = Vec::new();
    loop {
        let before = b.records().len();
        match b.play(Actor(0), &c, Some(dice.clone())) {
            Ok(_) => return dice,
            Err(e) => {
                assert_eq!(e.kind, RuleErrorKind::MoreDice, "{e}");
                assert_eq!(
                    b.records().len(),
                    before,
                    "a refused command changes nothing"
                );
                dice.push(hand());
                assert!(dice.len() < 1000, "the phase never stops asking");
            }
        }
    }
}

/// A battle with many Kay'otz units, Marines on the map and all twenty chits
/// (so draw-again chits, rushes, barrages, warps and summons all come up).
fn busy() -> String {
    "scenario \"dice\"\nmap alpha\nother_kayotz cup\n\
     marine MS1 at 314\nmarine MS2 at 225\nmarine HQ1 at 331\nmarine SC1 at 263\nmarine LG1 at 244\n\
     kayotz K7 at 516\nkayotz K8 at 321\nkayotz K10 at 421\nkayotz K12 at 416\nkayotz K1 at 354 dormant\n\
     kayotz K3 at 455\nkayotz K5 at 534\nkayotz K4 at 612\n"
        .into()
}

#[test]
fn a_whole_kayotz_phase_entered_one_die_at_a_time_ends_as_entered_all_at_once() {
    for seed in 1..=4u64 {
        let mut one = battle_seeded(&busy(), seed, false);
        let mut all = battle_seeded(&busy(), seed, false);
        let mut hand = Hand(seed);
        let mut phases = 0;
        let mut most = 0;
        while DimX::outcome(state(&one)).is_none() {
            let dice = one_at_a_time(&mut one, &mut || hand.die());
            most = most.max(dice.len());
            let id = all
                .play(Actor(0), &cmd(END_PHASE), Some(dice.clone()))
                .unwrap_or_else(|e| panic!("seed {seed}: all at once refused: {e}"));
            let a = one.records().last().unwrap();
            assert_eq!(
                a.events(),
                all.records()[id as usize].events(),
                "seed {seed}"
            );
            assert!(a.entered);
            assert_eq!(
                a.dice().iter().map(|d| d.value).collect::<Vec<_>>(),
                dice,
                "every die entered was used, in order"
            );
            assert!(a.dice().iter().all(|d| d.sides == 6), "every roll is a d6");
            assert_eq!(state(&one), state(&all), "seed {seed}");
            phases += 1;
            assert!(phases < 40);
        }
        assert!(phases >= 10, "seed {seed}: a full battle of Kay'otz phases");
        assert!(most >= 5, "seed {seed}: some phase rolled several dice");
        assert!(one.verify().ok() && all.verify().ok());
    }
}

/// Entering the dice one at a time does not bend the result towards the
/// player: the rolls they answer are the same rolls, in the same order, so
/// a die entered early cannot be taken back by waiting for a later question.
#[test]
fn entered_dice_are_asked_for_in_the_order_the_rolls_happen() {
    // #10 and #12 each fire five dice at MS1 (activation example): the first
    // five dice are #10's shot, the next five #12's.
    let text = alpha(
        "marine MS1 at 314\nmarine HQ1 at 111 paralyzed\nmarine SC1 at 666 paralyzed\n\
         kayotz K8 at 321\nkayotz K10 at 421\nkayotz K12 at 416\ncup rush_8_12",
    );
    let mut b = battle(&text);
    // low dice: no hit, so MS1 stays Active and #12 fires too
    let mut faces = [1u8, 2, 3].into_iter().cycle();
    let dice = one_at_a_time(&mut b, &mut || faces.next().unwrap_or(1));
    assert_eq!(dice.len(), 10, "{dice:?}");
    let shots: Vec<Vec<u8>> = b
        .events(b.records().len() as u64 - 1)
        .iter()
        .filter_map(|e| match e {
            xenolog_engine::games::dimx::DimxEvent::Fired { dice, .. } => Some(dice.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(shots, vec![dice[..5].to_vec(), dice[5..].to_vec()]);
}
