//! Commands and events in words.

use crate::game::Actor;

use super::data::{Cell, Hit};
use super::rules::AlienCommand as C;
use super::state::{AlienEvent as E, AlienState, Phase, Result as End};

fn hit(h: Hit) -> String {
    match (h.lost, h.withdraw) {
        (0, 0) => "nothing".into(),
        (l, 0) => format!("loses {l}"),
        (0, w) => format!("withdraws {w}"),
        (l, w) => format!("loses {l} and withdraws {w}"),
    }
}

/// A FIGHT RESULT cell in words.
pub fn cell(c: Cell) -> String {
    format!("attacker {}, defender {}", hit(c.attacker), hit(c.defender))
}

fn signed(n: i32) -> String {
    if n >= 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

fn item_in(s: &AlienState, ch: u8, pocket: u8) -> String {
    s.characters
        .get(usize::from(ch))
        .and_then(|c| c.items.get(usize::from(pocket)))
        .map_or_else(
            || format!("pocket {}", pocket + 1),
            |&i| s.content.items.name(i),
        )
}

pub fn command(s: &AlienState, _actor: Actor, c: &C) -> String {
    let b = &s.content.base;
    let n = |ch: &u8| s.name(*ch);
    match c {
        C::Drive { to } => format!("the APC drives to {}", b.describe(*to)),
        C::Move { ch, to } if *to == s.apc.at => format!("{} boards the APC", n(ch)),
        C::Move { ch, to } => format!("{} moves to {}", n(ch), b.describe(*to)),
        C::Leave { ch, to } => format!("{} leaves the APC to {}", n(ch), b.name(*to)),
        C::Take { ch, item } => format!("{} takes {}", n(ch), s.content.items.name(*item)),
        C::Drop { ch, pocket, leave } => format!(
            "{} {} {}",
            n(ch),
            if *leave { "leaves" } else { "discards" },
            item_in(s, *ch, *pocket)
        ),
        C::Give { ch, pocket, to } => {
            format!("{} hands {} to {}", n(ch), item_in(s, *ch, *pocket), n(to))
        }
        C::Shoot {
            ch,
            weapon,
            alien,
            charges,
        } => format!(
            "{} shoots alien {alien} with {} ({} charge{})",
            n(ch),
            item_in(s, *ch, *weapon),
            charges,
            if *charges == 1 { "" } else { "s" }
        ),
        C::Throw { ch, at, area, .. } => format!(
            "{} throws a grenade at {} (striking {})",
            n(ch),
            b.name(*at),
            area.iter()
                .map(|t| b.name(*t))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        C::Blow { ch, at, .. } => format!("{} blows up the corridor at {}", n(ch), b.name(*at)),
        C::Heal { ch, patient, .. } => format!("{} treats {}", n(ch), n(patient)),
        C::Read { ch, .. } => format!("{} reads a floppy disk at the computer", n(ch)),
        C::Repair { ch, .. } => format!("{} repairs the device with spare parts", n(ch)),
        C::Fuel { ch, .. } => format!("{} delivers fuel to the APC", n(ch)),
        C::GoOut { ch } => format!("{} goes outside", n(ch)),
        C::ComeIn { ch, airlock } => format!("{} comes in by airlock {airlock}", n(ch)),
        C::AttackQueen => "the expedition attacks the Alien Queen".into(),
        C::EndPhase => "ends the expedition's phase".into(),
        C::Hatch { parts } => format!(
            "splits the hatching roll into aliens of {}",
            parts
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" + ")
        ),
        C::Place { hatch } => format!(
            "places a new alien of {} on hatching place {hatch}",
            s.to_place.first().copied().unwrap_or(0)
        ),
        C::MoveAlien { alien, to } => format!("alien {alien} moves to {}", b.name(*to)),
        C::EndMoves => "ends the aliens' movement".into(),
        C::Attack { ch } => format!("the aliens next to {} attack", n(ch)),
        C::RollHatch => "rolls for hatching".into(),
        C::Metamorphose => "metamorphosis in the ducts".into(),
        C::EndTurn => "ends the turn".into(),
    }
}

pub fn event(s: &AlienState, e: &E) -> String {
    let b = &s.content.base;
    let n = |ch: &u8| s.name(*ch);
    let task = |card: &u8| {
        s.content.tasks.iter().find(|t| t.n == *card).map_or_else(
            || "a task card".into(),
            |t| format!("task {}: {}", t.n, t.text),
        )
    };
    match e {
        E::ApcDrove { to, fuel_used } => format!(
            "the APC drove to {}{}",
            b.name(*to),
            if *fuel_used {
                " (a phase of fuel used)"
            } else {
                ""
            }
        ),
        E::Moved { ch, to, stopped } => format!(
            "{} moved to {}{}",
            n(ch),
            b.describe(*to),
            if *stopped {
                ", next to an alien: stops"
            } else {
                ""
            }
        ),
        E::Boarded { ch } => format!("{} boarded the APC", n(ch)),
        E::LeftApc { ch, to, .. } => format!("{} left the APC to {}", n(ch), b.name(*to)),
        E::Disembarked { ch, to } => {
            format!(
                "the APC's fuel is gone: {} got out at {}",
                n(ch),
                b.name(*to)
            )
        }
        E::Took {
            ch,
            item,
            from_floor,
        } => format!(
            "{} took {}{}",
            n(ch),
            s.content.items.name(*item),
            if *from_floor { " from the floor" } else { "" }
        ),
        E::Dropped { ch, pocket, leave } => format!(
            "{} {} {}",
            n(ch),
            if *leave { "left" } else { "set aside" },
            item_in(s, *ch, *pocket)
        ),
        E::Gave { ch, pocket, to } => {
            format!("{} handed {} to {}", n(ch), item_in(s, *ch, *pocket), n(to))
        }
        E::Shot {
            ch,
            alien,
            charges,
            force,
            roll,
            result,
            adjacent,
        } => format!(
            "{} shot alien {alien} with {charges} charge{}: attack force {}, rolled {roll}: {}{}",
            n(ch),
            if *charges == 1 { "" } else { "s" },
            signed(*force),
            cell(*result),
            if *adjacent {
                ""
            } else {
                " (the shooter is not next to it: no unfavourable result)"
            }
        ),
        E::AlienHit { alien, lost } => format!("alien {alien} lost {lost}"),
        E::AlienWithdrew { alien, to } => format!("alien {alien} withdrew to {}", b.name(*to)),
        E::AlienKilled { alien, .. } => format!("alien {alien} was killed"),
        E::CharacterHit { ch, lost } => format!("{} lost {lost} strength", n(ch)),
        E::CharacterWithdrew { ch, to } => format!("{} withdrew to {}", n(ch), b.name(*to)),
        E::CharacterKilled { ch } => format!("{} was killed; the items are lost", n(ch)),
        E::Thrown { ch, at, .. } => format!("{} threw a grenade at {}", n(ch), b.name(*at)),
        E::Blown { ch, at, .. } => {
            format!(
                "{} blew up the corridor at {}: collapsed for good",
                n(ch),
                b.name(*at)
            )
        }
        E::Healed { ch, patient, .. } => format!("{} healed {} by one point", n(ch), n(patient)),
        E::DiskRead { ch, computer, .. } => format!(
            "{} read a floppy disk at computer {computer}; the disk goes back to the warehouse",
            n(ch)
        ),
        E::TaskDrawn { card: 0 } => "the expedition drew a task card (hidden)".into(),
        E::TaskDrawn { card } => format!("the expedition drew {}", task(card)),
        E::TaskDone { card } => format!(
            "{} is done, checked by the Alien player: one point",
            task(card)
        ),
        E::Repaired { ch, .. } => format!("{} repaired the device", n(ch)),
        E::Fueled { ch, .. } => format!("{} fuelled the APC for three phases", n(ch)),
        E::WentOut { ch } => format!("{} went outside, onto the track's entry box", n(ch)),
        E::CameIn { ch, at } => format!(
            "{} came in at {}{}",
            n(ch),
            b.describe(*at),
            if s.next_to_alien(*at) {
                ", next to an alien: stops"
            } else {
                ""
            }
        ),
        E::QueenRolled { roll, points } => {
            format!("the Queen's strength is {roll} against {points} points")
        }
        E::QueenDied { hatching: false } => {
            "the Alien Queen is killed: no more aliens hatch".into()
        }
        E::QueenDied { hatching: true } => {
            "the Alien Queen is killed, but aliens go on hatching".into()
        }
        E::PointsLost => "the Queen is stronger: the expedition loses all its points".into(),
        E::SeatDone { seat } => format!("Expedition {seat} ends the phase"),
        E::PhaseBegun { phase } => match phase {
            Phase::Expedition => "phase 1: the expedition".into(),
            Phase::Hatching => "phase 2: the aliens; hatching".into(),
            Phase::Moving => "the aliens move".into(),
            Phase::Metamorphosis => "metamorphosis".into(),
            Phase::Attacks => "the aliens attack".into(),
        },
        E::HatchRolled { roll } => format!("the hatching roll is {roll}"),
        E::Split { parts } => format!(
            "new aliens of {}",
            parts
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" + ")
        ),
        E::Hatched {
            alien,
            strength,
            at,
        } => format!(
            "alien {alien} of strength {strength} hatched at {}",
            b.describe(*at)
        ),
        E::AlienMoved { alien, to } => format!("alien {alien} moved to {}", b.name(*to)),
        E::Merged {
            into,
            from,
            strength,
            lost,
        } => format!(
            "metamorphosis: aliens {into} and {from} became one alien of {strength}{}",
            if *lost > 0 {
                format!(" ({lost} lost)")
            } else {
                String::new()
            }
        ),
        E::Attacked {
            ch,
            aliens,
            force,
            roll,
            result,
        } => format!(
            "{} alien{} attacked {}: attack force {}, rolled {roll}: {}",
            aliens.len(),
            if aliens.len() == 1 { "" } else { "s" },
            n(ch),
            signed(*force),
            cell(*result)
        ),
        E::TurnBegun { turn } => format!("turn {turn} begins"),
        E::Ended { result } => match result {
            End::Expedition => "a character reached the landing field: the expedition wins".into(),
            End::Draw => "every character is dead after the Queen: a draw".into(),
            End::Aliens => "every character is dead: the Aliens win".into(),
        },
    }
}
