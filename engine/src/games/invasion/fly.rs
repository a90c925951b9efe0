//! Advanced Invasion Earth (rule text 001): "LIFT OFF or LAND" and "FLY+",
//! for models whose profile gives a fly move (`fly N`). Alien Invasion's
//! VTOL craft keep their own rules ("Vehicle movement"); this module is for
//! winged and hovering models that stay on the table at a height.
//!
//! A flying group keeps its place on the table and a height in hundredths
//! of an inch, announced in the log whenever it changes ("The player
//! controlling the flying model must announce, and make notes, on any
//! changes in the vehicles elevation to all players"). It moves at its fly
//! rate over terrain and barriers; anything shooting at it is at -1 a die.

use super::advanced::Module;
use super::model::{INCH, Point};
use super::rules::group_name;
use super::state::{GroupId, InvasionEvent as E, InvasionState};
use crate::game::RuleError;

/// "When lifting off the model is ... between 2" and 10" above the tabletop".
pub const LIFT_MIN: i32 = 2 * INCH;
pub const LIFT_MAX: i32 = 10 * INCH;
/// "It may reach a maximum height of 30" and descend no lower than a minimum
/// of 2" above the tabletop."
pub const CEILING: i32 = 30 * INCH;
/// "Models may only land if they are within 10" of the tabletop".
pub const LAND_FROM: i32 = 10 * INCH;

fn illegal(msg: impl Into<String>) -> RuleError {
    RuleError::illegal("Lift Off, Land and Fly", msg)
}

/// The group's height above the table, when it flies.
pub fn height(s: &InvasionState, g: GroupId) -> Option<i32> {
    s.advanced
        .heights
        .iter()
        .find(|(x, _)| *x == g)
        .map(|(_, h)| *h)
}

/// The group's fly move: the least of its living figures' (`fly N`); none
/// when a figure cannot fly or the module is off.
pub fn fly_move(s: &InvasionState, g: GroupId) -> Option<i32> {
    if !s.advanced.on(Module::Fly) {
        return None;
    }
    let group = s.group(g);
    let mut least: Option<i32> = None;
    for m in group.alive() {
        let rate = s.model_type(group.seat, &m.kind)?.profile.fly?;
        least = Some(least.map_or(rate, |l: i32| l.min(rate)));
    }
    least
}

fn own_flyer(s: &InvasionState, seat: u8, g: GroupId) -> Result<(), RuleError> {
    let Some(group) = s.groups.get(g as usize) else {
        return Err(illegal(format!("there is no group {g}")));
    };
    if !s.advanced.on(Module::Fly) {
        return Err(illegal(
            "Lift Off, Land and Fly is not a module of this battle",
        ));
    }
    if group.seat != seat || !group.on_table() || group.alive_count() == 0 {
        return Err(illegal(format!(
            "{} is not one of your groups on the table",
            group_name(s, g)
        )));
    }
    if fly_move(s, g).is_none() {
        return Err(illegal(format!(
            "{} cannot fly (every figure needs a fly move on its profile)",
            group_name(s, g)
        )));
    }
    if group.locked.is_some() {
        return Err(illegal(format!(
            "{} is locked in hand-to-hand combat",
            group_name(s, g)
        )));
    }
    Ok(())
}

/// "LIFT OFF": 2"-10" up; "it may do nothing further that turn".
pub fn lift_off(s: &InvasionState, seat: u8, g: GroupId, to: i32) -> Result<Vec<E>, RuleError> {
    own_flyer(s, seat, g)?;
    if height(s, g).is_some() {
        return Err(illegal(format!("{} is flying already", group_name(s, g))));
    }
    if !(LIFT_MIN..=LIFT_MAX).contains(&to) {
        return Err(illegal(format!(
            "lifting off, a model rises between 2\" and 10\" (not {})",
            super::inches(to)
        )));
    }
    Ok(vec![
        E::Spent { group: g },
        E::Height {
            group: g,
            height: Some(to),
            rest: true,
        },
    ])
}

/// "LAND": only within 10" of the tabletop; no other action that turn.
pub fn land(s: &InvasionState, seat: u8, g: GroupId) -> Result<Vec<E>, RuleError> {
    own_flyer(s, seat, g)?;
    let Some(h) = height(s, g) else {
        return Err(illegal(format!("{} is on the ground", group_name(s, g))));
    };
    if h > LAND_FROM {
        return Err(illegal(format!(
            "{} is {} up: \"Models may only land if they are within 10\" of the tabletop\"; fly lower first",
            group_name(s, g),
            super::inches(h)
        )));
    }
    Ok(vec![
        E::Spent { group: g },
        E::Height {
            group: g,
            height: None,
            rest: true,
        },
    ])
}

/// "FLY & MOVE" with a change of height: "the model may ascend and descend
/// without difficulty or restriction as it moves ... maximum height of 30"
/// ... no lower than ... 2"". `to` is where the group flies (none: it only
/// climbs or dives where it is); it costs the move's action.
pub fn soar(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    to: Option<Point>,
    new_height: i32,
    declare: &super::rules::Declared,
) -> Result<Vec<E>, RuleError> {
    own_flyer(s, seat, g)?;
    if height(s, g).is_none() {
        return Err(illegal(format!("{} must lift off first", group_name(s, g))));
    }
    if !(LIFT_MIN..=CEILING).contains(&new_height) {
        return Err(illegal(format!(
            "a flying model stays between 2\" and 30\" above the tabletop (not {})",
            super::inches(new_height)
        )));
    }
    let mut out = match to {
        Some(_) => super::actions::move_group(s, seat, g, to, None, None, declare)?,
        None => {
            if !s.real_table && !s.group(g).placed() {
                return Err(illegal("the group has no position on the table"));
            }
            vec![E::Spent { group: g }]
        }
    };
    out.push(E::Height {
        group: g,
        height: Some(new_height),
        rest: false,
    });
    Ok(out)
}

/// Groups that lifted off or landed on this card "may do nothing further
/// that turn".
pub fn check_command(
    s: &InvasionState,
    command: &super::rules::InvasionCommand,
) -> Result<(), RuleError> {
    use super::rules::InvasionCommand as C;
    let groups: Vec<GroupId> = match command {
        C::Move { group, .. }
        | C::Special { group, .. }
        | C::Study { group }
        | C::Land { group, .. }
        | C::LiftOff { group, .. }
        | C::Soar { group, .. }
        | C::Try { group, .. }
        | C::Board { group, .. }
        | C::LayInWait { group, .. } => vec![*group],
        C::Shoot { shooters, .. } | C::Suppress { shooters, .. } => shooters.clone(),
        _ => Vec::new(),
    };
    for g in groups {
        if s.advanced.grounded.contains(&g) {
            return Err(illegal(format!(
                "{} lifted off or landed on this card: it may do nothing further",
                group_name(s, g)
            )));
        }
    }
    Ok(())
}

/// "Any model FIREing at a flying target suffers a -1 on their dice roll/s".
pub fn at_flyer(s: &InvasionState, target: GroupId) -> bool {
    s.advanced.on(Module::Fly) && height(s, target).is_some()
}

/// The height in words, as the log announces it.
pub fn height_words(h: Option<i32>) -> String {
    match h {
        Some(h) => format!("{} above the tabletop", super::inches(h)),
        None => "on the ground".into(),
    }
}
