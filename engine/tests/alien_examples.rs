//! Every worked example of the rule text, as printed.

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::AlienCommand as C;
use xenolog_engine::games::alien::data::{Cell, Hit, Item};
use xenolog_engine::games::alien::rules::splits;
use xenolog_engine::games::alien::state::{AlienEvent as E, Phase};

/// "VASQUEZ moves three squares (3 action points). While standing on a tile
/// labelled explosive magazine she takes an explosive device (1 action
/// point) ... She then moves one space (1 action point) and shoots an alien
/// once (1 action point). In this way VASQUEZ has used his 6 action points."
#[test]
fn example_vasquez_six_action_points() {
    let mut s = at("character vasquez at G12 items smartgun ammo\nalien 2 at L13\n");
    let v = ch(&s, "vasquez");
    for (step, to) in ["H12", "I12", "I13"].iter().enumerate() {
        let to = tile(&s, to);
        act(&mut s, EXPEDITION, C::Move { ch: v, to }, &[]);
        assert_eq!(s.characters[v as usize].ap, 6 - 1 - step as u8);
    }
    assert_eq!(
        s.content.base.store_at(tile(&s, "I13")).map(|x| x.id()),
        Some("magazine"),
        "she stands on an explosive magazine"
    );
    act(&mut s, EXPEDITION, take(v, Item::Explosive), &[]);
    assert_eq!(s.characters[v as usize].ap, 2);
    assert!(s.characters[v as usize].items.contains(&Item::Explosive));
    let to = tile(&s, "J13");
    act(&mut s, EXPEDITION, C::Move { ch: v, to }, &[]);
    assert_eq!(s.characters[v as usize].ap, 1);
    let alien = s.aliens[0].id;
    act(
        &mut s,
        EXPEDITION,
        C::Shoot {
            ch: v,
            weapon: 0,
            alien,
            charges: 1,
        },
        &[3],
    );
    assert_eq!(s.characters[v as usize].ap, 0, "six action points used");
    assert_eq!(
        s.characters[v as usize].items[1],
        Item::Ammo(3),
        "one charge spent"
    );
}

/// "Hicks shoots a force 4 ALIEN standing in an air duct ... 5 + (3*2) = 11
/// ... subtract the ALIEN's strength of 8 ... +3 ... rolls a 5 ... the ALIEN
/// loses 1 strength point and must retreat one space."
#[test]
fn example_hicks_shoots_an_alien_in_a_duct() {
    let mut s = at("character hicks at N6\nalien 4 at P6\n");
    let h = ch(&s, "hicks");
    let alien = s.aliens[0].id;
    let events = act(
        &mut s,
        EXPEDITION,
        C::Shoot {
            ch: h,
            weapon: 0,
            alien,
            charges: 2,
        },
        &[5],
    );
    let E::Shot {
        force,
        roll,
        result,
        adjacent,
        ..
    } = &events[0]
    else {
        panic!("{events:?}")
    };
    assert_eq!((*force, *roll, *adjacent), (3, 5, false));
    assert_eq!(
        *result,
        Cell {
            attacker: Hit::default(),
            defender: Hit {
                lost: 1,
                withdraw: 1
            }
        }
    );
    assert_eq!(events[1], E::AlienHit { alien, lost: 1 });
    assert_eq!(
        events[2],
        E::AlienWithdrew {
            alien,
            to: tile(&s, "Q6")
        }
    );
    assert_eq!(s.aliens[0].strength, 3);
    assert_eq!(
        s.characters[h as usize].ap, 4,
        "two shots, two action points"
    );
    assert_eq!(
        words(&at("character hicks at N6\nalien 4 at P6\n"), &events)[0],
        "Hicks shot alien 1 with 2 charges: attack force +3, rolled 5: attacker nothing, defender loses 1 and withdraws 1 (the shooter is not next to it: no unfavourable result)"
    );
}

/// "One alien with a strength of 3 attacks Hicks, whose strength is 5 ...
/// 3 - 5 = -2 ... A 5 is rolled so ... the alien loses 2 strength points, and
/// it is forced to withdraw two tiles."
#[test]
fn example_1_an_alien_of_3_attacks_hicks() {
    let mut s = at_phase("character hicks at G9\nalien 3 at G8\n", Phase::Attacks);
    let h = ch(&s, "hicks");
    let alien = s.aliens[0].id;
    let events = act(&mut s, ALIEN, C::Attack { ch: h }, &[5]);
    let E::Attacked {
        force,
        roll,
        result,
        ..
    } = &events[0]
    else {
        panic!()
    };
    assert_eq!((*force, *roll), (-2, 5));
    assert_eq!(
        result.attacker,
        Hit {
            lost: 2,
            withdraw: 2
        }
    );
    assert_eq!(result.defender, Hit::default());
    assert_eq!(s.aliens[0].strength, 1);
    assert_eq!(
        name(&s, s.aliens[0].at),
        "G6",
        "two tiles away, not next to Hicks"
    );
    assert_eq!(s.characters[h as usize].strength, 5);
    assert!(events.contains(&E::AlienWithdrew {
        alien,
        to: tile(&s, "G6")
    }));
}

/// "Three ALIENS, one strength 4, the second ... 2, and the third ... 3
/// attack Hudson, who ... had lost 1 strength point so its current strength
/// is 4. (4 + 2 + 3) - 4 = 5 ... A 4 is rolled so HUDSON loses 2 points of
/// strength (leaving him with just 2 points) and he retreats two tiles."
#[test]
fn example_2_three_aliens_attack_hudson() {
    let mut s =
        at("character hudson at K9 strength 4\nalien 4 at J9\nalien 2 at K8\nalien 3 at L9\n");
    s.phase = Phase::Attacks;
    let h = ch(&s, "hudson");
    let events = act(&mut s, ALIEN, C::Attack { ch: h }, &[4]);
    let E::Attacked {
        force,
        roll,
        result,
        aliens,
        ..
    } = &events[0]
    else {
        panic!()
    };
    assert_eq!((*force, *roll, aliens.len()), (5, 4, 3));
    assert_eq!(
        result.defender,
        Hit {
            lost: 2,
            withdraw: 2
        }
    );
    assert_eq!(s.characters[h as usize].strength, 2);
    let to = s.characters[h as usize].tile().unwrap();
    assert_eq!(
        s.content.base.distance(tile(&s, "K9"), to),
        2,
        "two tiles back"
    );
    assert!(!s.next_to_alien(to));
    assert!(
        s.aliens.iter().all(|a| a.attacked),
        "each alien attacks once"
    );
}

/// "two ALIENS with strength 3 and strength 2 produce one ALIEN with
/// strength 4. The remaining strength point ... is lost."
#[test]
fn example_metamorphosis_of_3_and_2() {
    let mut s = at_phase("alien 3 at R6\nalien 2 at R6\n", Phase::Metamorphosis);
    let events = steps(&mut s);
    assert_eq!(
        events[0],
        E::Merged {
            into: 1,
            from: 2,
            strength: 4,
            lost: 1
        }
    );
    assert_eq!(s.aliens.len(), 1);
    assert_eq!(s.aliens[0].strength, 4);
}

/// "When disposing of a die roll of 6 it could be possible to bring into
/// play: 4 and 2; 4, 1 and 1; 3, 2 and 1 ... the sum of the ALIENS'
/// strengths equal to the number rolled (6)", never above four each.
#[test]
fn example_hatching_roll_of_6() {
    let all = splits(6);
    for printed in [vec![4, 2], vec![4, 1, 1], vec![3, 2, 1]] {
        assert!(all.contains(&printed), "{printed:?}");
    }
    assert!(
        all.iter()
            .all(|p| p.iter().sum::<u8>() == 6 && p.iter().all(|&x| (1..=4).contains(&x)))
    );
    assert!(!all.contains(&vec![5, 1]) && !all.contains(&vec![6]));
    let mut s = at_phase("", Phase::Hatching);
    s.hatch_roll = Some(6);
    for bad in [vec![5, 1], vec![3, 2], vec![4, 3]] {
        let e = refused(&s, ALIEN, C::Hatch { parts: bad });
        assert_eq!(e.clause.as_deref(), Some("9.1"));
    }
    act(&mut s, ALIEN, C::Hatch { parts: vec![2, 4] }, &[]);
    assert_eq!(s.to_place, vec![4, 2]);
}
