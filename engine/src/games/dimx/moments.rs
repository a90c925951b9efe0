//! What Dimension X's events and dice meant: which moments matter to a
//! reader (kills, eliminations, the victory, failed rolls) and what each
//! die needed, by the rule that set it.

use super::describe::dice_purposes;
use super::state::{DimxEvent, DimxState, Side};
use super::units::Condition;
use crate::game::Actor;
use crate::moments::{Counts, DieMeaning, Moment, MomentKind, Need};

const MARINES: Actor = Actor(0);
const KAYOTZ: Actor = Actor(1);

fn seat(side: Side) -> Actor {
    match side {
        Side::Marines => MARINES,
        Side::Kayotz => KAYOTZ,
    }
}

/// The side a shooter fights for.
fn shooter_seat(s: &DimxState, shooter: &str) -> Actor {
    if s.marines.iter().any(|m| m.id == shooter) {
        MARINES
    } else {
        KAYOTZ
    }
}

/// The success a roll with modifiers needed, as a face of the die: the
/// rule's target on the modified roll, less the modifiers.
fn at_least(target: i8, die: u8, net: i8) -> Need {
    let shift = net - die as i8;
    Need::AtLeast((target - shift).clamp(1, 7) as u8)
}

/// How much an event matters and to whom.
pub fn moment(s: &DimxState, e: &DimxEvent) -> Moment {
    use DimxEvent as E;
    let both = vec![MARINES, KAYOTZ];
    match e {
        E::AlienEliminated { .. } => Moment::key(MomentKind::Kill, both),
        E::MarineEliminated { .. } => Moment::key(MomentKind::Elimination, both),
        E::GameOver { winner, .. } => Moment::key(
            MomentKind::Victory,
            winner.map(|w| vec![seat(w)]).unwrap_or(both),
        ),
        E::InstantVictory { side, .. } => Moment::key(MomentKind::Victory, vec![seat(*side)]),
        E::GoalDrawn { achieved: true, .. } => Moment::key(MomentKind::Turn, vec![MARINES]),
        E::ExitedMap { .. } => Moment::notable(MomentKind::Turn, vec![MARINES]),
        E::ConditionChanged {
            to: Condition::Paralyzed,
            ..
        } => Moment::notable(MomentKind::Turn, both),
        E::Fired {
            shooter,
            dice,
            hits,
            ..
        } => {
            let by = shooter_seat(s, shooter);
            if dice.len() >= 2 && usize::from(*hits) == dice.len() {
                Moment::notable(MomentKind::CriticalRoll, vec![by])
            } else if dice.len() >= 3 && *hits == 0 {
                Moment::notable(MomentKind::FailedRoll, vec![by])
            } else {
                Moment::routine()
            }
        }
        E::ReconRolled { success: false, .. }
        | E::StrongpointRolled { success: false, .. }
        | E::RallyRolled { success: false, .. }
        | E::ReinforcementsRolled { success: false, .. } => {
            Moment::notable(MomentKind::FailedRoll, vec![MARINES])
        }
        E::ReinforcementsRolled { success: true, .. } | E::ReconRolled { success: true, .. } => {
            Moment::notable(MomentKind::Turn, vec![MARINES])
        }
        _ => Moment::routine(),
    }
}

/// What each die of an entry meant, in roll order.
pub fn dice_meanings(s: &DimxState, events: &[DimxEvent]) -> Vec<DieMeaning> {
    use DimxEvent as E;
    let words = dice_purposes(events);
    let mut out: Vec<DieMeaning> = Vec::new();
    let mut roll: u16 = 0;
    let purpose = |n: usize| words.get(n).cloned().unwrap_or_default();
    for e in events {
        let start = out.len();
        match e {
            // 003 D.4: each die greater than the target's DN is a Hit.
            E::Fired {
                shooter, dice, dn, ..
            } => {
                let by = shooter_seat(s, shooter);
                for &d in dice {
                    out.push(DieMeaning::needing(
                        purpose(out.len()),
                        Need::Above(*dn),
                        Counts::Hits,
                        d,
                        Some(by),
                        roll,
                    ));
                }
            }
            E::RandomHex { .. } => {
                for _ in 0..3 {
                    out.push(DieMeaning::plain(purpose(out.len()), None, roll));
                }
            }
            E::JumpRolled { .. } | E::BumpFired { .. } => {
                out.push(DieMeaning::plain(purpose(out.len()), Some(MARINES), roll));
            }
            // E.2 Recon and E.3 Strongpoint: 4 or more; E.4 Rally: 5 or
            // more; E.6 Reinforcements: 3 or more (modified rolls).
            E::ReconRolled { die, net, .. }
            | E::StrongpointRolled { die, net, .. }
            | E::RallyRolled { die, net, .. }
            | E::ReinforcementsRolled { die, net, .. } => {
                let needed = match e {
                    E::RallyRolled { .. } => 5,
                    E::ReinforcementsRolled { .. } => 3,
                    _ => 4,
                };
                out.push(DieMeaning::needing(
                    purpose(out.len()),
                    at_least(needed, *die, *net),
                    Counts::Successes,
                    *die,
                    Some(MARINES),
                    roll,
                ))
            }
            _ => {}
        }
        if out.len() > start {
            roll += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moments::DieMark;

    fn state() -> DimxState {
        <super::super::DimX as crate::Game>::setup(&Default::default()).unwrap()
    }

    #[test]
    fn fire_dice_above_the_dn_are_hits_d4() {
        let s = state();
        let shooter = String::from(&s.marines[0].id);
        let e = DimxEvent::Fired {
            shooter: shooter.clone(),
            shooter_name: format!("Marine Squad {shooter}"),
            target: "K3".into(),
            target_name: "Kay'otz K3".into(),
            at: 101,
            base: 4,
            mods: Vec::new(),
            dice: vec![1, 3, 4, 6],
            dn: 3,
            hits: 2,
        };
        let m = dice_meanings(&s, std::slice::from_ref(&e));
        let marks: Vec<DieMark> = m.iter().map(|d| d.mark).collect();
        assert_eq!(
            marks,
            vec![DieMark::Miss, DieMark::Miss, DieMark::Hit, DieMark::Hit]
        );
        assert!(m.iter().all(|d| d.need == Need::Above(3)
            && d.counts == Counts::Hits
            && d.seat == Some(MARINES)
            && d.roll == 0));
        assert!(m[0].purpose.contains("hits Kay'otz K3"), "{}", m[0].purpose);
    }

    #[test]
    fn a_rally_needs_five_less_its_modifiers_e4() {
        let s = state();
        let unit = String::from(&s.marines[0].id);
        let kind = s.marines[0].kind;
        let rally = |die: u8, net: i8, success: bool| DimxEvent::RallyRolled {
            unit: unit.clone(),
            kind,
            die,
            mods: Vec::new(),
            net,
            success,
        };
        // +1 from a modifier: a 4 is enough.
        let m = dice_meanings(&s, &[rally(4, 5, true)]);
        assert_eq!(m[0].need, Need::AtLeast(4));
        assert_eq!(m[0].mark, DieMark::Pass);
        let m = dice_meanings(&s, &[rally(4, 4, false)]);
        assert_eq!((m[0].need, m[0].mark), (Need::AtLeast(5), DieMark::Fail));
        assert_eq!(moment(&s, &rally(4, 4, false)).kind, MomentKind::FailedRoll);
    }

    #[test]
    fn an_eliminated_kayotz_unit_is_a_key_moment() {
        let s = state();
        let e = DimxEvent::AlienEliminated {
            unit: "K1".into(),
            name: "Kay'otz #1".into(),
            adm_back: None,
        };
        let m = moment(&s, &e);
        assert_eq!(m.importance, crate::Importance::Key);
        assert_eq!(m.kind, MomentKind::Kill);
    }
}
