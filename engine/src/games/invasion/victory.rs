//! The end of a battle: each faction's victory conditions ("Each player will
//! control a competing faction with personal victory conditions to achieve
//! based on the scenario chosen. Not all victory conditions are mutually
//! exclusive").

use super::model::VictoryKind;
use super::state::{InvasionEvent, InvasionState, Place};
use super::table;

/// Whether `seat` has met `kind` now.
pub fn met(s: &InvasionState, seat: u8, kind: &VictoryKind) -> bool {
    match kind {
        VictoryKind::Achieve(id) => s.achieved.iter().any(|(x, a)| *x == seat && a == id),
        VictoryKind::Hold(id) => {
            let Some(i) = s.scenario.terrain.iter().position(|t| &t.id == id) else {
                return false;
            };
            let inside = |who: &dyn Fn(u8) -> bool| {
                s.groups.iter().any(|g| {
                    who(g.seat)
                        && g.place == Place::Table
                        && g.points()
                            .iter()
                            .any(|p| table::feature_at(&s.scenario, *p) == Some(i))
                })
            };
            inside(&|x| x == seat) && !inside(&|x| x != seat)
        }
        VictoryKind::Kills(n) => s.kills.get(seat as usize).is_some_and(|k| k >= n),
        VictoryKind::LastStanding => {
            s.in_battle(seat) && (0..s.factions.len() as u8).all(|o| o == seat || !s.in_battle(o))
        }
        VictoryKind::StudyAll => {
            let present = alien_species(s, seat);
            !present.is_empty() && present.iter().all(|sp| s.studied.iter().any(|k| k == sp))
        }
    }
}

/// Every alien species fighting against `seat` (not human), in faction order.
pub fn alien_species(s: &InvasionState, seat: u8) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for g in &s.groups {
        if g.seat == seat {
            continue;
        }
        for m in &g.models {
            if let Some(t) = s.model_type(g.seat, &m.kind)
                && t.species != "human"
                && !out.contains(&t.species)
            {
                out.push(t.species.clone());
            }
        }
    }
    out
}

/// The event that ends the battle, with every seat that met a condition.
pub fn ending(s: &InvasionState) -> InvasionEvent {
    let mut winners = Vec::new();
    let mut why = Vec::new();
    for seat in 0..s.factions.len() as u8 {
        for v in &s.scenario.victories {
            if v.seat.is_some_and(|x| x != seat) || !met(s, seat, &v.kind) {
                continue;
            }
            if !winners.contains(&seat) {
                winners.push(seat);
            }
            why.push(format!("{}: {}", s.faction(seat).name, v.text));
        }
        // "In addition to any scenario specific victory conditions, the MIB
        // can claim a victory once they have made a success roll for every
        // alien species present": a faction rule, whatever the scenario lists.
        let listed = s
            .scenario
            .victories
            .iter()
            .any(|v| v.kind == VictoryKind::StudyAll && v.seat.is_none_or(|x| x == seat));
        if s.faction(seat).rules.study && !listed && met(s, seat, &VictoryKind::StudyAll) {
            if !winners.contains(&seat) {
                winners.push(seat);
            }
            why.push(format!(
                "{}: they studied every alien species present",
                s.faction(seat).name
            ));
        }
    }
    let summary = if winners.is_empty() {
        "no faction met its victory conditions".to_owned()
    } else {
        let names: Vec<&str> = winners
            .iter()
            .map(|&w| s.faction(w).name.as_str())
            .collect();
        // Factions are named as bodies of troops: "the Daleks win",
        // "U.N.I.T. win".
        format!("{} win ({})", names.join(" and "), why.join("; "))
    };
    InvasionEvent::Ended { winners, summary }
}
