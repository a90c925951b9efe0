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

/// The dice of an entry's rolls, read in order: each die's word from
/// [`dice_purposes`], each roll numbered.
struct Rolls {
    words: Vec<String>,
    out: Vec<DieMeaning>,
    roll: u16,
}

impl Rolls {
    fn word(&self) -> String {
        self.words.get(self.out.len()).cloned().unwrap_or_default()
    }

    /// One roll whose dice each needed `need` and counted as `counts`.
    fn needing(&mut self, need: Need, counts: Counts, dice: &[u8], by: Option<Actor>) {
        for &d in dice {
            let m = DieMeaning::needing(self.word(), need, counts, d, by, self.roll);
            self.out.push(m);
        }
        self.roll += 1;
    }

    /// One roll of `n` dice that needed nothing (a table, a count).
    fn plain(&mut self, n: usize, by: Option<Actor>) {
        for _ in 0..n {
            let m = DieMeaning::plain(self.word(), by, self.roll);
            self.out.push(m);
        }
        self.roll += 1;
    }

    /// The roll for how many dice a shot throws, if it had one.
    fn how_many(&mut self, how_many: &[u8], by: Option<Actor>) {
        if !how_many.is_empty() {
            self.plain(how_many.len(), by);
        }
    }

    /// A one-die check that passes on `needs` or more.
    fn check(&mut self, needs: u8, d: u8, by: Option<Actor>) {
        self.needing(Need::AtLeast(needs), Counts::Successes, &[d], by);
    }
}

/// Dice against a total count kills; dice of no need count nothing.
fn counts_for(need: Need) -> Counts {
    if need == Need::Nothing {
        Counts::Nothing
    } else {
        Counts::Kills
    }
}

/// What each die of an entry meant, in roll order (as
/// [`dice_purposes`] words them).
pub fn dice_meanings(s: &InvasionState, actor: Actor, events: &[E]) -> Vec<DieMeaning> {
    let mut r = Rolls {
        words: dice_purposes(events),
        out: Vec::new(),
        roll: 0,
    };
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
                r.how_many(how_many, by);
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
                r.needing(need, counts_for(need), dice, by);
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
                r.needing(need, counts_for(need), dice, Some(Actor(*seat)));
            }
            // "A 6 is a success."
            E::Studied { dice, .. } => {
                r.needing(Need::AtLeast(6), Counts::Successes, dice, mine);
            }
            E::Attempted { group, dice, .. } | E::Tried { group, dice, .. } => {
                let by = seat_of(s, *group).or(mine);
                r.needing(Need::AtLeast(6), Counts::Successes, dice, by);
            }
            E::Detonated { group, dice, .. } => r.plain(dice.len(), seat_of(s, *group)),
            // Advanced Invasion Earth: a check passes on its score or more;
            // table rolls only choose a result.
            E::StupidityCheck {
                group,
                needs,
                roll: d,
            } => r.check(*needs, *d, seat_of(s, *group)),
            E::Recovery { group, roll: d, .. } => {
                let needs = super::advanced::tables().recover;
                r.check(needs, *d, seat_of(s, *group));
            }
            E::Suppression {
                shooters,
                dice,
                how_many,
                ..
            } => {
                let by = shooters.first().and_then(|g| seat_of(s, *g)).or(mine);
                r.how_many(how_many, by);
                r.plain(dice.len(), by);
            }
            E::GrappleEscape {
                group,
                roll: d,
                needs,
                ..
            } => r.check(*needs, *d, seat_of(s, *group)),
            E::Perception {
                group,
                roll: d,
                bonus,
                needs,
                ..
            } => r.check(needs.saturating_sub(*bonus).max(1), *d, seat_of(s, *group)),
            E::Stricken { group, .. } | E::Contagion { group, .. } | E::FearTest { group, .. } => {
                r.plain(1, seat_of(s, *group));
            }
            _ => {}
        }
    }
    r.out
}
