//! Advanced Invasion Earth (rule text 001): "Laying in Wait", the text's
//! out-of-turn play. A group declared laying in wait at the start of its
//! faction's card may only sneak on its own cards; in another faction's
//! card, when an enemy group ends a move in its sight (and, to assault,
//! within its move), the game stops and asks the waiting player: fire at it
//! (at -1 a die, "he has not pre-sighted or aimed at his target") or charge
//! it, or let it pass. The reaction is that player's command in the middle
//! of another's card, recorded like any other.
//!
//! At a real table the game measures nothing: the waiting player springs
//! the ambush whenever the table shows an enemy in sight, with the sight
//! (or the contact) declared.

use super::advanced::Module;
use super::model::Point;
use super::rules::{Declared, InvasionCommand, group_name};
use super::state::{GroupId, InvasionEvent as E, InvasionState, Pending, apply};
use super::table;
use crate::game::{Actor, RuleError};
use crate::rng::Randomness;

fn illegal(msg: impl Into<String>) -> RuleError {
    RuleError::illegal("Laying in Wait", msg)
}

/// The group lays in wait (and whether to assault rather than fire).
pub fn waiting(s: &InvasionState, g: GroupId) -> Option<bool> {
    s.advanced
        .waiting
        .iter()
        .find(|(x, _)| *x == g)
        .map(|(_, a)| *a)
}

/// A waiting group on its own faction's card: only TURN or SNEAK.
pub fn on_own_card(s: &InvasionState, g: GroupId) -> bool {
    waiting(s, g).is_some()
        && s.card()
            .and_then(|c| c.seat)
            .is_some_and(|seat| s.group(g).seat == seat)
}

/// "At the beginning of his own turn a player must declare which of his
/// models are laying in wait": before the card's first action, free.
pub fn lay_in_wait(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    assault: bool,
) -> Result<Vec<E>, RuleError> {
    if !s.advanced.on(Module::LayingInWait) {
        return Err(illegal("Laying in Wait is not a module of this battle"));
    }
    let Some(group) = s.groups.get(g as usize) else {
        return Err(illegal(format!("there is no group {g}")));
    };
    if group.seat != seat || !group.on_table() || group.alive_count() == 0 {
        return Err(illegal(format!(
            "{} is not one of your groups on the table",
            group_name(s, g)
        )));
    }
    if !s.spent.is_empty() {
        return Err(illegal(
            "models are declared laying in wait \"at the beginning of his own turn\", before any action of the card",
        ));
    }
    if group.locked.is_some() {
        return Err(illegal(format!(
            "{} is locked in hand-to-hand combat",
            group_name(s, g)
        )));
    }
    if s.advanced.on(Module::Impetuous) && super::advanced::impetuous(s, g) {
        return Err(illegal(format!(
            "{} is impetuous: \"Impetuous models cannot use 'lay in wait'\"",
            group_name(s, g)
        )));
    }
    if waiting(s, g).is_some() {
        return Err(illegal(format!(
            "{} is laying in wait already (it may go on doing so)",
            group_name(s, g)
        )));
    }
    // "Any model armed with a missile weapon (gun etc.) may use 'laying in
    // wait'" to FIRE: a group with no shooting dice has none.
    if !assault && shooting_dice(s, g) == 0 {
        return Err(illegal(format!(
            "{} has no missile weapon (no shooting dice): \"Any model armed with a missile weapon (gun etc.) may use 'laying in wait'\" to fire; {}",
            group_name(s, g),
            if super::rules::melee_dice(s, g) > 0 {
                "it may lay in wait to assault"
            } else {
                "it has no dice to assault with either"
            }
        )));
    }
    Ok(vec![E::LaidInWait { group: g, assault }])
}

/// The shooting dice of a group's living figures (its missile weapons).
pub(super) fn shooting_dice(s: &InvasionState, g: GroupId) -> u32 {
    let group = s.group(g);
    group
        .alive()
        .filter_map(|m| s.model_type(group.seat, &m.kind))
        .map(|t| u32::from(t.shoot))
        .sum()
}

/// "the player may decide to take his model out of laying in wait, in which
/// case he can perform any action this turn" (free).
pub fn stand_down(s: &InvasionState, seat: u8, g: GroupId) -> Result<Vec<E>, RuleError> {
    match s.groups.get(g as usize) {
        Some(x) if x.seat == seat && waiting(s, g).is_some() => Ok(vec![E::StoodDown { group: g }]),
        Some(_) => Err(illegal(format!(
            "{} is not one of your groups laying in wait",
            group_name(s, g)
        ))),
        None => Err(illegal(format!("there is no group {g}"))),
    }
}

/// A waiting group's command on its own card: "these models may perform
/// only one of two actions (if normally available) TURN or SNEAK" (a move
/// of half its move; see `rules::group_move`).
pub fn check_command(s: &InvasionState, command: &InvasionCommand) -> Result<(), RuleError> {
    use InvasionCommand as C;
    let groups: Vec<GroupId> = match command {
        C::Move { .. } | C::StandDown { .. } | C::LayInWait { .. } => Vec::new(),
        C::Shoot { shooters, .. } | C::Suppress { shooters, .. } => shooters.clone(),
        C::Special { group, .. }
        | C::Study { group }
        | C::Burrow { group, .. }
        | C::Descend { group }
        | C::Board { group, .. }
        | C::Try { group, .. }
        | C::Detonate { group, .. }
        | C::TakeOff { group } => vec![*group],
        _ => Vec::new(),
    };
    for g in groups {
        if s.groups.get(g as usize).is_some() && on_own_card(s, g) {
            return Err(illegal(format!(
                "{} is laying in wait: it may only turn or sneak (half a move) on its own card; stand it down first",
                group_name(s, g)
            )));
        }
    }
    Ok(())
}

/// Whether `w` sees `x` on the table.
fn sees(s: &InvasionState, w: GroupId, x: GroupId) -> bool {
    let (a, b) = (s.group(w).points(), s.group(x).points());
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let others = super::actions::blockers(s, w, x);
    table::line_of_sight(&s.scenario, &a, &b, &others)
        .clear
        .is_some()
}

fn distance(a: &[Point], b: &[Point]) -> i32 {
    a.iter()
        .flat_map(|p| b.iter().map(move |q| p.distance(*q)))
        .min()
        .unwrap_or(i32::MAX)
}

/// A group that came onto the table or moved, with the paths of its
/// measured figure.
type Arrival = (GroupId, Vec<(Point, Point)>);

/// Where each group that came onto the table or moved on it in `events`
/// went: (group, the path of its measured figure, if it moved), in the
/// order they came. A move's path is its measured figure's straight line.
fn arrivals(s: &InvasionState, events: &[E]) -> (InvasionState, Vec<Arrival>) {
    let mut cur = s.clone();
    let mut came: Vec<Arrival> = Vec::new();
    for e in events {
        let entry = match e {
            E::Moved {
                group, to, lead, ..
            } => {
                let from = cur.group(*group).alive().nth(*lead).and_then(|m| m.at);
                let end = to.get(*lead).copied().flatten();
                Some((*group, from.zip(end)))
            }
            E::Surfaced { group, .. } | E::Landed { group } | E::Arrived { group, .. } => {
                Some((*group, None))
            }
            _ => None,
        };
        if let Some((g, path)) = entry {
            match came.iter_mut().find(|(x, _)| *x == g) {
                Some((_, paths)) => paths.extend(path),
                None => came.push((g, path.into_iter().collect())),
            }
        }
        apply(&mut cur, e);
    }
    (cur, came)
}

/// Laying in Wait: "During his opponent's turn, any enemy model, which
/// enters into the lying in wait models LOS ... (even if they are passing
/// through) becomes a target", and to assault, "LOS and ASSAULT range, i.e.
/// MOVE distance". After `events` (any command of the card's player or a
/// step of the game that moves a group: a move, surfacing, deploying,
/// leaving the sewers, landing, arriving, the charges and runs the modules
/// order): every waiting group of another faction that sees such a group
/// where it ends, or its measured figure anywhere along its path (sampled
/// every half inch), and to assault has it within its move there, is owed
/// an ambush (its player is asked, `Pending::Ambush`).
pub fn ambushes_after(s: &InvasionState, events: &[E]) -> Vec<E> {
    if !s.advanced.on(Module::LayingInWait) || s.real_table || s.advanced.waiting.is_empty() {
        return Vec::new();
    }
    let (after, came) = arrivals(s, events);
    let mut out = Vec::new();
    for (moved, paths) in came {
        let x = after.group(moved);
        if !x.on_table() || x.alive_count() == 0 || x.locked.is_some() {
            continue;
        }
        let mover = x.seat;
        for &(w, assault) in &after.advanced.waiting {
            let group = after.group(w);
            if group.seat == mover
                || !group.on_table()
                || group.alive_count() == 0
                || group.locked.is_some()
                || super::fire::hidden_from(&after, &group.points(), moved)
                || out
                    .iter()
                    .any(|e| matches!(e, E::AmbushDue { group: g, .. } if *g == w))
            {
                continue;
            }
            let reach = super::rules::full_move(&after, w) + table::BASE;
            let mine = group.points();
            let at_end = sees(&after, w, moved)
                && (!assault || distance(&mine, &after.group(moved).points()) <= reach);
            let passing = || {
                let others = super::actions::blockers(&after, w, moved);
                paths.iter().any(|&(a, b)| {
                    let len = a.distance(b);
                    let n = (len / 50).max(1);
                    (0..=n).any(|i| {
                        let p = super::advanced::towards(a, b, len * i / n);
                        (!assault || distance(&mine, &[p]) <= reach)
                            && table::line_of_sight(&after.scenario, &mine, &[p], &others)
                                .clear
                                .is_some()
                    })
                })
            };
            if at_end || passing() {
                out.push(E::AmbushDue {
                    seat: group.seat,
                    group: w,
                    target: moved,
                });
            }
        }
    }
    out
}

/// The waiting player's answer: spring the ambush (fire, or charge), or let
/// the target pass. At a real table the player springs it unasked.
pub fn spring(
    s: &InvasionState,
    actor: Actor,
    g: GroupId,
    target: GroupId,
    declare: &Declared,
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    if !s.advanced.on(Module::LayingInWait) {
        return Err(illegal("Laying in Wait is not a module of this battle"));
    }
    let due = match s.pending.first() {
        Some(Pending::Ambush {
            seat,
            group,
            target: t,
        }) => {
            if actor != Actor(*seat) {
                return Err(RuleError::not_your_turn(format!(
                    "{} decide first whether to spring their ambush",
                    s.faction(*seat).name
                )));
            }
            if *group != g || *t != target {
                return Err(illegal(format!(
                    "the ambush owed is {} at {}",
                    group_name(s, *group),
                    group_name(s, *t)
                )));
            }
            true
        }
        Some(_) => {
            return Err(RuleError::not_your_turn(super::rules::waiting_for(
                s,
                &s.pending[0],
            )));
        }
        None => false,
    };
    let Some(group) = s.groups.get(g as usize) else {
        return Err(illegal(format!("there is no group {g}")));
    };
    if group.seat != actor.0 {
        return Err(illegal(format!(
            "{} is not one of your groups",
            group_name(s, g)
        )));
    }
    let Some(assault) = waiting(s, g) else {
        return Err(illegal(format!(
            "{} is not laying in wait",
            group_name(s, g)
        )));
    };
    if !due {
        if !s.real_table {
            return Err(illegal(
                "an ambush is sprung when an enemy comes into sight: the game asks you then",
            ));
        }
        match s.card().and_then(|c| c.seat) {
            Some(seat) if seat != actor.0 => {}
            _ => {
                return Err(illegal(
                    "models laying in wait act out of turn, in another faction's card",
                ));
            }
        }
        if s.groups
            .get(target as usize)
            .is_none_or(|t| Some(t.seat) != s.card().and_then(|c| c.seat) || !t.on_table())
        {
            return Err(illegal(
                "the target is a group of the faction whose card is being played",
            ));
        }
    }
    // The ambush is out of turn: none of the card's actions is spent.
    let mut free = s.clone();
    free.spent.clear();
    free.moved.clear();
    // Nor is it the active model's offensive action: Sighting a Target's
    // criteria are "met at the beginning of the active player's turn", by
    // the active model. The waiting group's target is "any enemy model,
    // which enters into the lying in wait models LOS" on the enemy's card,
    // so the spring is judged by the table as it stands now, not as it
    // stood when that card began (a target that came up out of the sewers
    // or walked round a house into its sight stood out of it then).
    free.card_start.clear();
    free.card_absent.clear();
    let events = if assault {
        // "now charges forth from their hiding place and ASSAULTS the target".
        let to = if s.real_table {
            if declare.contact != Some(target) {
                return Err(illegal(
                    "declare the contact the charge makes with the target (contact)",
                ));
            }
            None
        } else {
            let from = group.points();
            let theirs = s.group(target).points();
            let Some((&a, &b)) = from
                .iter()
                .flat_map(|p| theirs.iter().map(move |q| (p, q)))
                .min_by_key(|(p, q)| p.distance(**q))
            else {
                return Err(illegal("the groups have no positions on the table"));
            };
            let step = (a.distance(b) - table::BASE).max(0);
            if step > super::rules::full_move(s, g) {
                return Err(illegal(format!(
                    "{} cannot reach {} with its move",
                    group_name(s, g),
                    group_name(s, target)
                )));
            }
            Some(super::advanced::towards(a, b, step))
        };
        let mut ev = super::actions::move_group(&free, actor.0, g, to, None, None, declare)?;
        if !ev.iter().any(|e| matches!(e, E::Locked { .. })) {
            return Err(illegal(format!(
                "{} does not reach {}",
                group_name(s, g),
                group_name(s, target)
            )));
        }
        ev.retain(|e| !matches!(e, E::Spent { .. }));
        ev
    } else {
        // "The laying in wait model may choose any time during this round
        // (as long as the model is in LOS ...) to shot at his target": a
        // target seen passing through is shot at as it passed (its line of
        // sight is the one the ambush was owed on; the log marks it).
        let passed;
        let declare = if due && !s.real_table && declare.sight.is_none() && !sees(s, g, target) {
            passed = Declared {
                sight: Some(true),
                ..declare.clone()
            };
            &passed
        } else {
            declare
        };
        let mut ev = super::actions::shoot(&free, actor.0, &[g], target, declare, rng)?;
        ev.retain(|e| !matches!(e, E::Spent { .. }));
        ev
    };
    let mut out = vec![E::Sprung {
        group: g,
        target,
        sprung: true,
        declared: s.real_table,
    }];
    out.extend(events);
    Ok(out)
}

/// "Let it pass": the waiting group goes on waiting.
pub fn let_pass(s: &InvasionState, actor: Actor) -> Result<Vec<E>, RuleError> {
    match s.pending.first() {
        Some(Pending::Ambush {
            seat,
            group,
            target,
        }) if actor == Actor(*seat) => Ok(vec![E::Sprung {
            group: *group,
            target: *target,
            sprung: false,
            declared: false,
        }]),
        Some(Pending::Ambush { seat, .. }) => Err(RuleError::not_your_turn(format!(
            "{} decide whether to spring their ambush",
            s.faction(*seat).name
        ))),
        _ => Err(illegal("no ambush is waiting to be sprung")),
    }
}
