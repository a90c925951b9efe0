//! Advanced Invasion Earth (rule text 001): "ADVANCED ASSAULT". Under the
//! basic rules both sides "brake from combat" after a melee (Alien
//! Invasion's attackers fall back a full move). With this module a melee
//! with a winner (more kills made than taken in its resolution: A11 in
//! `RULES.md`) does not break: the winner, on its faction's card, may
//! "choose any action" (it breaks off, or fights on); the loser, on its
//! card, may "stay and fight or run away", running only when its move is
//! greater than the winner's. A draw breaks as in the basic rules.

use super::advanced::Module;
use super::rules::group_name;
use super::state::{GroupId, InvasionEvent as E, InvasionState};
use super::table;
use crate::game::RuleError;

fn illegal(msg: impl Into<String>) -> RuleError {
    RuleError::illegal("Advanced Assault", msg)
}

/// At a melee's aftermath: with two factions standing and one making more
/// kills than it took, the melee goes on (`AssaultWon`).
pub fn assault_won(s: &InvasionState, melee: u16, seats: &[u8]) -> Option<E> {
    if !s.advanced.on(Module::AdvancedAssault) || seats.len() != 2 {
        return None;
    }
    let kills = |seat: u8| {
        s.advanced
            .melee_kills
            .iter()
            .filter(|(m, x, _)| *m == melee && *x == seat)
            .map(|(_, _, k)| *k)
            .sum::<u32>()
    };
    let (a, b) = (kills(seats[0]), kills(seats[1]));
    if a == b {
        return None;
    }
    let (winner, won, lost) = if a > b {
        (seats[0], a, b)
    } else {
        (seats[1], b, a)
    };
    Some(E::AssaultWon {
        melee,
        winner,
        kills: (won, lost),
    })
}

/// The melee a group fights in after an assault won, and its winner.
pub fn after_assault(s: &InvasionState, g: GroupId) -> Option<(u16, u8)> {
    let m = s.groups.get(g as usize)?.locked?;
    s.advanced
        .assaults
        .iter()
        .find(|(x, _)| *x == m)
        .map(|(x, w)| (*x, *w))
}

fn mine(s: &InvasionState, seat: u8, g: GroupId) -> Result<(u16, u8), RuleError> {
    let Some(group) = s.groups.get(g as usize) else {
        return Err(illegal(format!("there is no group {g}")));
    };
    if group.seat != seat {
        return Err(illegal(format!(
            "{} is not one of your groups",
            group_name(s, g)
        )));
    }
    after_assault(s, g).ok_or_else(|| {
        illegal(format!(
            "{} is not in a melee won or lost under the advanced assault rules",
            group_name(s, g)
        ))
    })
}

/// "The combat winners turn: Choose any action": the winner breaks off
/// (free; its actions follow as usual).
pub fn break_off(s: &InvasionState, seat: u8, g: GroupId) -> Result<Vec<E>, RuleError> {
    let (melee, winner) = mine(s, seat, g)?;
    if winner != seat {
        return Err(illegal(format!(
            "{} lost the assault: it may stay and fight or run away",
            group_name(s, g)
        )));
    }
    Ok(vec![E::BrokeOff { group: g }, E::Unlocked { melee }])
}

/// "Running Away": "If the defeated model has a MOVE FAST score greater
/// than that of its opponent ... moved its maximum move rate directly away
/// from the model who defeated it" (an action).
pub fn run_away(s: &InvasionState, seat: u8, g: GroupId) -> Result<Vec<E>, RuleError> {
    let (melee, winner) = mine(s, seat, g)?;
    if winner == seat {
        return Err(illegal(format!(
            "{} won the assault: it breaks off (break_off) rather than runs",
            group_name(s, g)
        )));
    }
    let foes: Vec<GroupId> = s
        .melee(melee)
        .map(|m| {
            m.groups
                .iter()
                .copied()
                .filter(|&o| s.group(o).seat == winner && s.group(o).alive_count() > 0)
                .collect()
        })
        .unwrap_or_default();
    let mine_move = super::rules::full_move(s, g);
    let theirs = foes
        .iter()
        .map(|&o| super::rules::full_move(s, o))
        .max()
        .unwrap_or(0);
    if mine_move <= theirs {
        return Err(illegal(format!(
            "{} moves {} and its victors {}: \"If its MOVE FAST rate is not enough to 'out run' its opponent the model may not attempt to run away, and must stay and fight\"",
            group_name(s, g),
            super::inches(mine_move),
            super::inches(theirs)
        )));
    }
    let mut out = vec![E::Spent { group: g }];
    let pts = s.group(g).points();
    if !s.real_table && !pts.is_empty() {
        let away: Vec<_> = foes.iter().flat_map(|&o| s.group(o).points()).collect();
        let to = table::fall_back(&s.scenario, &pts, table::centre(&away), mine_move);
        out.push(E::Moved {
            group: g,
            to: to.into_iter().map(Some).collect(),
            lead: 0,
            stopped: Some("runs away".into()),
            declared_cover: None,
            face: None,
        });
    } else {
        out.push(E::Moved {
            group: g,
            to: vec![None; s.group(g).alive_count()],
            lead: 0,
            stopped: Some("runs away (at the table)".into()),
            declared_cover: None,
            face: None,
        });
    }
    out.push(E::Unlocked { melee });
    Ok(out)
}
