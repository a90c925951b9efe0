//! What Alien Invasion's events and dice meant: which moments matter to a
//! reader (kills, a group wiped out, a species killed or studied, the
//! victory) and what each die needed (a total against the target's kill
//! score, a 6 to succeed).

use super::describe::dice_purposes;
use super::state::{GroupId, InvasionEvent as E, InvasionState};
use crate::game::Actor;
use crate::moments::{Counts, DieMeaning, Moment, MomentKind, Need};

fn seat_of(s: &InvasionState, g: GroupId) -> Option<Actor> {
    s.groups.get(g as usize).map(|x| Actor(x.seat))
}

fn alive(s: &InvasionState, g: GroupId) -> u32 {
    s.groups
        .get(g as usize)
        .map_or(0, |x| x.alive_count() as u32)
}

/// How much an event matters and to whom.
pub fn moment(s: &InvasionState, e: &E) -> Moment {
    let seats = |gs: &[Option<Actor>]| gs.iter().flatten().copied().collect::<Vec<_>>();
    match e {
        E::Killed { group, .. } => {
            let whose = seats(&[seat_of(s, *group)]);
            if alive(s, *group) <= 1 {
                Moment::key(MomentKind::Elimination, whose)
            } else {
                Moment::notable(MomentKind::Kill, whose)
            }
        }
        E::Shot {
            shooters,
            target,
            dice,
            kills,
            kill_score,
            ..
        } => {
            let by = shooters.first().and_then(|g| seat_of(s, *g));
            let who = seats(&[by, seat_of(s, *target)]);
            if *kills > 0 {
                Moment::notable(MomentKind::Kill, who)
            } else if dice.len() >= 3 && *kill_score > 0 {
                Moment::notable(MomentKind::FailedRoll, who)
            } else {
                Moment::routine()
            }
        }
        E::SpeciesKilled { .. } => Moment::key(MomentKind::Kill, Vec::new()),
        E::Studied { species, .. } if !species.is_empty() => {
            Moment::key(MomentKind::CriticalRoll, Vec::new())
        }
        E::Attempted { group, success, .. } | E::Tried { group, success, .. } => {
            let who = seats(&[seat_of(s, *group)]);
            if *success {
                Moment::key(MomentKind::CriticalRoll, who)
            } else {
                Moment::notable(MomentKind::FailedRoll, who)
            }
        }
        E::Detonated { group, .. } => {
            Moment::notable(MomentKind::Turn, seats(&[seat_of(s, *group)]))
        }
        E::Arrived { group, .. } => Moment::notable(MomentKind::Turn, seats(&[seat_of(s, *group)])),
        E::Ended { winners, .. } => Moment::key(
            MomentKind::Victory,
            winners.iter().map(|&w| Actor(w)).collect(),
        ),
        _ => Moment::routine(),
    }
}

/// What each die of an entry meant, in roll order (as
/// [`dice_purposes`] words them).
pub fn dice_meanings(s: &InvasionState, actor: Actor, events: &[E]) -> Vec<DieMeaning> {
    let words = dice_purposes(events);
    let mut out: Vec<DieMeaning> = Vec::new();
    let mut roll: u16 = 0;
    let word = |n: usize| words.get(n).cloned().unwrap_or_default();
    let mine = (actor != Actor::SYSTEM).then_some(actor);
    for (i, e) in events.iter().enumerate() {
        match e {
            E::Shot {
                shooters,
                target,
                dice,
                how_many,
                kill_score,
                ..
            } => {
                let by = shooters.first().and_then(|g| seat_of(s, *g)).or(mine);
                if !how_many.is_empty() {
                    for _ in how_many {
                        out.push(DieMeaning::plain(word(out.len()), by, roll));
                    }
                    roll += 1;
                }
                // A shot from outside a melee is dealt out among its
                // factions (the Shared events after it): no one total.
                let dealt = matches!(events.get(i + 1), Some(E::Shared { .. }));
                let need = if dealt || *kill_score == 0 {
                    Need::Nothing
                } else {
                    Need::Total {
                        score: *kill_score,
                        most: alive(s, *target),
                    }
                };
                let counts = if need == Need::Nothing {
                    Counts::Nothing
                } else {
                    Counts::Kills
                };
                for &d in dice {
                    out.push(DieMeaning::needing(
                        word(out.len()),
                        need,
                        counts,
                        d,
                        by,
                        roll,
                    ));
                }
                roll += 1;
            }
            E::Struck { seat, dice, .. } => {
                // One faction against one: the strike is one total against
                // the struck group's kill score.
                let need = match events.get(i + 1) {
                    Some(E::Shared {
                        group,
                        dice: shared,
                        kill_score,
                        ..
                    }) if shared == dice
                        && !matches!(events.get(i + 2), Some(E::Shared { .. })) =>
                    {
                        Need::Total {
                            score: *kill_score,
                            most: alive(s, *group),
                        }
                    }
                    _ => Need::Nothing,
                };
                let counts = if need == Need::Nothing {
                    Counts::Nothing
                } else {
                    Counts::Kills
                };
                for &d in dice {
                    out.push(DieMeaning::needing(
                        word(out.len()),
                        need,
                        counts,
                        d,
                        Some(Actor(*seat)),
                        roll,
                    ));
                }
                roll += 1;
            }
            // "A 6 is a success."
            E::Studied { dice, .. } => {
                for &d in dice {
                    out.push(DieMeaning::needing(
                        word(out.len()),
                        Need::AtLeast(6),
                        Counts::Successes,
                        d,
                        mine,
                        roll,
                    ));
                }
                roll += 1;
            }
            E::Attempted { group, dice, .. } | E::Tried { group, dice, .. } => {
                for &d in dice {
                    out.push(DieMeaning::needing(
                        word(out.len()),
                        Need::AtLeast(6),
                        Counts::Successes,
                        d,
                        seat_of(s, *group).or(mine),
                        roll,
                    ));
                }
                roll += 1;
            }
            E::Detonated { group, dice, .. } => {
                for _ in dice {
                    out.push(DieMeaning::plain(word(out.len()), seat_of(s, *group), roll));
                }
                roll += 1;
            }
            // Advanced Invasion Earth: a check passes on its score or more;
            // table rolls only choose a result.
            E::StupidityCheck {
                group,
                needs,
                roll: d,
            } => {
                out.push(DieMeaning::needing(
                    word(out.len()),
                    Need::AtLeast(*needs),
                    Counts::Successes,
                    *d,
                    seat_of(s, *group),
                    roll,
                ));
                roll += 1;
            }
            E::Recovery { group, roll: d, .. } => {
                out.push(DieMeaning::needing(
                    word(out.len()),
                    Need::AtLeast(super::advanced::tables().recover),
                    Counts::Successes,
                    *d,
                    seat_of(s, *group),
                    roll,
                ));
                roll += 1;
            }
            E::Suppression {
                shooters,
                dice,
                how_many,
                ..
            } => {
                let by = shooters.first().and_then(|g| seat_of(s, *g)).or(mine);
                if !how_many.is_empty() {
                    for _ in how_many {
                        out.push(DieMeaning::plain(word(out.len()), by, roll));
                    }
                    roll += 1;
                }
                for _ in dice {
                    out.push(DieMeaning::plain(word(out.len()), by, roll));
                }
                roll += 1;
            }
            E::GrappleEscape {
                group,
                roll: d,
                needs,
                ..
            } => {
                out.push(DieMeaning::needing(
                    word(out.len()),
                    Need::AtLeast(*needs),
                    Counts::Successes,
                    *d,
                    seat_of(s, *group),
                    roll,
                ));
                roll += 1;
            }
            E::Perception {
                group,
                roll: d,
                bonus,
                needs,
                ..
            } => {
                out.push(DieMeaning::needing(
                    word(out.len()),
                    Need::AtLeast(needs.saturating_sub(*bonus).max(1)),
                    Counts::Successes,
                    *d,
                    seat_of(s, *group),
                    roll,
                ));
                roll += 1;
            }
            E::Stricken { group, .. } | E::Contagion { group, .. } | E::FearTest { group, .. } => {
                out.push(DieMeaning::plain(word(out.len()), seat_of(s, *group), roll));
                roll += 1;
            }
            _ => {}
        }
    }
    out
}
