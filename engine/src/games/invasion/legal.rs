//! Who is asked, and the commands a player may give: every command without a
//! point, and for moves a few sensible destinations (towards the nearest
//! enemy, towards each special action's place, towards the middle of the
//! table). The app's board gives a move any point by a click or a drag.

use super::advanced::Module;
use super::model::{INCH, Point};
use super::rules::{Declared, InvasionCommand, automatic, melee_seats, open_casualties};
use super::state::{GroupId, InvasionState, Pending, Place};
use super::{actions, table};
use crate::game::{Actor, Anchors, Ask};
use crate::rng::Randomness;

/// The seats asked now and what for.
pub fn asked(s: &InvasionState) -> Vec<Ask> {
    if s.over.is_some() || automatic(s).is_some() {
        return Vec::new();
    }
    let open = open_casualties(s);
    if !open.is_empty() {
        return open
            .into_iter()
            .map(|(seat, g, count, _)| Ask {
                seat: Actor(seat),
                what: format!(
                    "choose {count} casualt{} of {}",
                    if count == 1 { "y" } else { "ies" },
                    super::rules::group_name(s, g)
                ),
            })
            .collect();
    }
    if let Some(Pending::Strike { seat, dice, .. }) = s.pending.first() {
        return vec![Ask {
            seat: Actor(*seat),
            what: format!("strike in the melee with {dice}D6"),
        }];
    }
    if let Some(Pending::Point { seat, group, why }) = s.pending.first() {
        return vec![Ask {
            seat: Actor(*seat),
            what: super::choose::asked_words(s, *group, *why),
        }];
    }
    if let Some(Pending::Occupy { seat, .. }) = s.pending.first() {
        return vec![Ask {
            seat: Actor(*seat),
            what: "take the ground you won, or stay".into(),
        }];
    }
    if let Some(Pending::Ambush {
        seat,
        group,
        target,
    }) = s.pending.first()
    {
        return vec![Ask {
            seat: Actor(*seat),
            what: format!(
                "{} comes into the sight of {}: spring the ambush, or let it pass",
                super::rules::group_name(s, *target),
                super::rules::group_name(s, *group)
            ),
        }];
    }
    match s.card().and_then(|c| c.seat.map(|seat| (seat, c))) {
        Some((seat, card)) => vec![Ask {
            seat: Actor(seat),
            what: format!(
                "play the {} card: {} action{} left",
                card.kind.word(),
                s.actions_left(),
                if s.actions_left() == 1 { "" } else { "s" }
            ),
        }],
        None => Vec::new(),
    }
}

fn ok(s: &InvasionState, seat: u8, c: &InvasionCommand) -> bool {
    // Decided against a throwaway stream: only whether it is refused matters.
    let mut rng = Randomness::new(0, 0, None);
    super::rules::decide(s, Actor(seat), c, &mut rng).is_ok()
}

/// Every command some player may give now.
pub fn legal(s: &InvasionState) -> Vec<(Actor, InvasionCommand)> {
    if s.over.is_some() || automatic(s).is_some() {
        return Vec::new();
    }
    let open = open_casualties(s);
    if !open.is_empty() {
        let mut out = Vec::new();
        for (seat, g, _, among) in open {
            for m in s.group(g).alive() {
                let c = InvasionCommand::Casualties {
                    models: vec![String::from(&m.id)],
                };
                // A figure dearer than what is left of a mixed group's
                // total is not offered.
                if (among.is_empty() || among.iter().any(|a| *a == m.id)) && ok(s, seat, &c) {
                    out.push((Actor(seat), c));
                }
            }
        }
        return out;
    }
    if let Some(Pending::Strike { melee, seat, .. }) = s.pending.first() {
        let enemies: Vec<u8> = melee_seats(s, *melee)
            .into_iter()
            .filter(|x| x != seat)
            .collect();
        return if enemies.len() <= 1 {
            vec![(Actor(*seat), InvasionCommand::Strike { target: None })]
        } else {
            enemies
                .into_iter()
                .map(|t| (Actor(*seat), InvasionCommand::Strike { target: Some(t) }))
                .collect()
        };
    }
    if let Some(Pending::Point { .. }) = s.pending.first() {
        return super::choose::offers(s);
    }
    if let Some(Pending::Occupy { seat, .. }) = s.pending.first() {
        return [true, false]
            .into_iter()
            .map(|take| (Actor(*seat), InvasionCommand::Occupy { take }))
            .collect();
    }
    if let Some(Pending::Ambush {
        seat,
        group,
        target,
    }) = s.pending.first()
    {
        return [
            InvasionCommand::Spring {
                group: *group,
                target: *target,
                declare: Declared::default(),
            },
            InvasionCommand::LetPass,
        ]
        .into_iter()
        .filter(|c| ok(s, *seat, c))
        .map(|c| (Actor(*seat), c))
        .collect();
    }
    let Some(seat) = s.card().and_then(|c| c.seat) else {
        return Vec::new();
    };
    let mut candidates = vec![InvasionCommand::EndCard];
    let mine: Vec<GroupId> = (0..s.groups.len() as GroupId)
        .filter(|&g| s.group(g).seat == seat && s.group(g).alive_count() > 0 && s.may_act(g))
        .collect();
    let enemies = actions::enemy_groups(s, seat);
    for &g in &mine {
        let group = s.group(g);
        match group.place {
            Place::Table => {
                candidates.extend(moves(s, g, &enemies));
                for &t in &enemies {
                    let declare = if s.real_table || !group.placed() || !s.group(t).placed() {
                        Declared {
                            sight: Some(true),
                            ..Declared::default()
                        }
                    } else {
                        Declared::default()
                    };
                    candidates.push(InvasionCommand::Shoot {
                        shooters: vec![g],
                        target: t,
                        declare: declare.clone(),
                    });
                    if s.advanced.on(Module::Suppression) {
                        for at_cover in [false, true] {
                            candidates.push(InvasionCommand::Suppress {
                                shooters: vec![g],
                                target: t,
                                at_cover,
                                area: Vec::new(),
                                declare: declare.clone(),
                            });
                        }
                    }
                    if s.advanced.on(Module::Sighting) {
                        candidates.push(InvasionCommand::Perceive {
                            group: g,
                            target: t,
                        });
                    }
                    if s.advanced.on(Module::Observers) && super::fire::has_observer(s, g) {
                        for &o in &mine {
                            if o != g && s.group(o).on_table() {
                                candidates.push(InvasionCommand::Relay {
                                    observer: g,
                                    via: None,
                                    to: o,
                                    target: t,
                                });
                            }
                        }
                    }
                    if s.faction(seat).link_fire && s.actions_left() >= 2 {
                        candidates.push(InvasionCommand::Shoot {
                            shooters: vec![g, g],
                            target: t,
                            declare,
                        });
                    }
                }
                if super::assault::after_assault(s, g).is_some() {
                    candidates.push(InvasionCommand::BreakOff { group: g });
                    candidates.push(InvasionCommand::RunAway { group: g });
                }
                if super::fly::fly_move(s, g).is_some() {
                    match super::fly::height(s, g) {
                        None => candidates.push(InvasionCommand::LiftOff {
                            group: g,
                            height: 6 * INCH,
                        }),
                        Some(h) => {
                            candidates.push(InvasionCommand::Land {
                                group: g,
                                declare: Declared::default(),
                            });
                            for to in [2 * INCH, 20 * INCH] {
                                if to != h {
                                    candidates.push(InvasionCommand::Soar {
                                        group: g,
                                        to: None,
                                        height: to,
                                        declare: Declared::default(),
                                    });
                                }
                            }
                        }
                    }
                }
                if s.advanced.on(Module::LayingInWait) {
                    for assault in [false, true] {
                        candidates.push(InvasionCommand::LayInWait { group: g, assault });
                    }
                    candidates.push(InvasionCommand::StandDown { group: g });
                }
                for sp in &s.scenario.specials {
                    candidates.push(InvasionCommand::Special {
                        group: g,
                        action: sp.id.clone(),
                    });
                }
                candidates.push(InvasionCommand::Study { group: g });
                candidates.push(InvasionCommand::Burrow {
                    group: g,
                    carry: carried_with(s, g),
                });
                for i in 0..s.holes.len().min(255) {
                    candidates.push(InvasionCommand::CloseHole {
                        group: g,
                        hole: i as u8,
                    });
                }
                for m in s.groups.iter().filter(|x| x.seat == seat && x.on_table()) {
                    for mite in m.alive() {
                        if s.model_type(seat, &mite.kind).is_some_and(|t| t.mite) {
                            candidates.push(InvasionCommand::Detonate {
                                group: g,
                                mite: String::from(&mite.id),
                                caught: if s.real_table {
                                    enemies.clone()
                                } else {
                                    Vec::new()
                                },
                            });
                        }
                    }
                }
                candidates.push(InvasionCommand::Descend { group: g });
                candidates.push(InvasionCommand::TakeOff { group: g });
                for &v in &mine {
                    if v != g && actions::is_vehicle(s, v) && actions::room(s, v).0 > 0 {
                        candidates.push(InvasionCommand::Board {
                            group: g,
                            vehicle: v,
                            declare: Declared::default(),
                        });
                    }
                }
            }
            Place::Air => {
                candidates.push(InvasionCommand::Land {
                    group: g,
                    declare: Declared::default(),
                });
                if s.real_table || !group.placed() {
                    candidates.push(InvasionCommand::Fly { group: g, to: None });
                } else {
                    // "travel anywhere": next to the nearest enemy, to each
                    // special action's place, to the middle of the table.
                    let from = group.points().first().copied();
                    let mut goals: Vec<Point> = Vec::new();
                    if let Some(from) = from
                        && let Some(p) = enemies
                            .iter()
                            .flat_map(|&e| s.group(e).points())
                            .min_by_key(|p| (p.distance(from), p.x, p.y))
                    {
                        goals.push(Point::new(
                            p.x,
                            (p.y + 3 * INCH).min(s.scenario.height - 50),
                        ));
                    }
                    goals.extend(s.scenario.specials.iter().map(|sp| sp.at));
                    goals.push(Point::new(s.scenario.width / 2, s.scenario.height / 2));
                    for to in goals {
                        candidates.push(InvasionCommand::Fly {
                            group: g,
                            to: Some(to),
                        });
                    }
                }
            }
            Place::Below => {
                if s.is_worm(g) {
                    for i in 0..s.holes.len().min(255) {
                        candidates.push(InvasionCommand::Surface {
                            group: g,
                            to: None,
                            hole: Some(i as u8),
                            declare: Declared::default(),
                        });
                    }
                    if let Some(&t) = enemies.first() {
                        let to = s
                            .group(t)
                            .points()
                            .first()
                            .map(|p| Point::new(p.x, p.y + 3 * INCH));
                        candidates.push(InvasionCommand::Tunnel { group: g, to });
                        if let Some(to) = to {
                            candidates.push(InvasionCommand::Surface {
                                group: g,
                                to: Some(to),
                                hole: None,
                                declare: Declared::default(),
                            });
                        }
                    }
                } else {
                    candidates.push(InvasionCommand::Climb { group: g });
                    for i in 0..actions::sewer_points(s).len().min(255) {
                        candidates.push(InvasionCommand::Sewer {
                            group: g,
                            manhole: Some(i as u8),
                        });
                    }
                }
            }
            Place::Carried(v) if actions::is_vehicle(s, v) => {
                // Out of the vehicle: a move towards the nearest enemy.
                let door = s.group(v).models.iter().find_map(|m| m.at);
                let goal = door.and_then(|d| {
                    enemies
                        .iter()
                        .flat_map(|&e| s.group(e).points())
                        .min_by_key(|p| (p.distance(d), p.x, p.y))
                        .map(|p| (d, p))
                });
                let to = match goal {
                    Some((d, p)) => {
                        let dist = d.distance(p).max(1);
                        let step = super::rules::group_move(s, g).min(dist);
                        Some(Point::new(
                            d.x + ((i64::from(p.x - d.x) * i64::from(step)) / i64::from(dist))
                                as i32,
                            d.y + ((i64::from(p.y - d.y) * i64::from(step)) / i64::from(dist))
                                as i32,
                        ))
                    }
                    None => None,
                };
                candidates.push(InvasionCommand::Move {
                    group: g,
                    to,
                    lead: None,
                    face: None,
                    declare: Declared::default(),
                });
            }
            Place::Carried(_) => candidates.push(InvasionCommand::Deploy {
                group: g,
                declare: Declared::default(),
            }),
            Place::Reserve | Place::Gone => {}
        }
    }
    // Two goals can give the same move (a special action's place on the
    // way to the middle): each command once, in the order found.
    let mut seen: Vec<InvasionCommand> = Vec::with_capacity(candidates.len());
    for c in candidates {
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    let mut out: Vec<(Actor, InvasionCommand)> = seen
        .into_iter()
        .filter(|c| ok(s, seat, c))
        .map(|c| (Actor(seat), c))
        .collect();
    // At a real table a group laying in wait springs its ambush unasked,
    // out of turn, whenever the table shows an enemy in its sight.
    if s.real_table && s.advanced.on(Module::LayingInWait) {
        let theirs: Vec<GroupId> = (0..s.groups.len() as GroupId)
            .filter(|&t| s.group(t).seat == seat && s.group(t).on_table())
            .collect();
        for &(w, assault) in &s.advanced.waiting {
            let ws = s.group(w).seat;
            if ws == seat {
                continue;
            }
            for &t in &theirs {
                let c = InvasionCommand::Spring {
                    group: w,
                    target: t,
                    declare: if assault {
                        Declared {
                            contact: Some(t),
                            ..Declared::default()
                        }
                    } else {
                        Declared {
                            sight: Some(true),
                            ..Declared::default()
                        }
                    },
                };
                if ok(s, ws, &c) {
                    out.push((Actor(ws), c));
                }
            }
        }
    }
    out
}

/// Spug squads next to a Burrower, carried when it tunnels down.
fn carried_with(s: &InvasionState, worm: GroupId) -> Vec<GroupId> {
    let w = s.group(worm);
    if !s.is_worm(worm) {
        return Vec::new();
    }
    (0..s.groups.len() as GroupId)
        .filter(|&o| o != worm)
        .filter(|&o| {
            let g = s.group(o);
            g.seat == w.seat
                && g.on_table()
                && g.locked.is_none()
                && !s.is_mites(o)
                && !s.is_worm(o)
                && table::in_contact(&w.points(), &g.points())
        })
        .collect()
}

/// A few destinations for a group's move.
fn moves(s: &InvasionState, g: GroupId, enemies: &[GroupId]) -> Vec<InvasionCommand> {
    let group = s.group(g);
    if s.real_table || !group.placed() {
        return vec![InvasionCommand::Move {
            group: g,
            to: None,
            lead: None,
            face: None,
            declare: Declared::default(),
        }];
    }
    let Some(from) = group.points().first().copied() else {
        return Vec::new();
    };
    let reach = super::rules::group_move(s, g);
    if let (super::model::Mobility::Vehicle { .. }, Some(facing)) =
        (super::rules::group_mobility(s, g), group.facing)
    {
        return vehicle_moves(s, g, from, facing, reach, enemies);
    }
    let mut goals: Vec<Point> = Vec::new();
    let near = enemies
        .iter()
        .flat_map(|&e| s.group(e).points())
        .min_by_key(|p| (p.distance(from), p.x, p.y));
    goals.extend(near);
    goals.extend(s.scenario.specials.iter().map(|sp| sp.at));
    goals.push(Point::new(s.scenario.width / 2, s.scenario.height / 2));
    // Mites charging the nearest enemy may need a shorter move.
    let steps: &[i32] = if s.is_mites(g) {
        &[reach, reach / 2, 2 * INCH]
    } else {
        &[reach]
    };
    let mut out_goals = Vec::new();
    for (i, goal) in goals.into_iter().enumerate() {
        for &st in steps {
            if i == 0 || st == reach {
                out_goals.push((goal, st));
            }
        }
    }
    out_goals
        .into_iter()
        .filter(|&(goal, _)| goal != from)
        .filter_map(|(goal, reach)| {
            // As far as the move allows along the line to the goal; an
            // enemy figure is charged into base contact, not stood on.
            let d = from.distance(goal).max(1);
            let short = if Some(goal) == near { 105 } else { 0 };
            let step = reach.min((d - short).max(0));
            let to = Point::new(
                from.x + ((i64::from(goal.x - from.x) * i64::from(step)) / i64::from(d)) as i32,
                from.y + ((i64::from(goal.y - from.y) * i64::from(step)) / i64::from(d)) as i32,
            );
            // A move that ends where it began (no move left, or already in
            // base contact) is not offered as a move.
            (to != from).then_some(InvasionCommand::Move {
                group: g,
                to: Some(to),
                lead: None,
                face: None,
                declare: Declared::default(),
            })
        })
        .collect()
}

/// A ground vehicle's moves ("Vehicle movement"): straight ahead in its
/// facing, a full and a half move, and a turn on the spot; each ends with
/// a turn towards the nearest enemy figure.
fn vehicle_moves(
    s: &InvasionState,
    g: GroupId,
    from: Point,
    facing: i32,
    reach: i32,
    enemies: &[GroupId],
) -> Vec<InvasionCommand> {
    let (sin, cos) = f64::from(facing).to_radians().sin_cos();
    let mut out = Vec::new();
    for step in [reach, reach / 2, 0] {
        let to = Point::new(
            from.x + (cos * f64::from(step)).round() as i32,
            from.y + (sin * f64::from(step)).round() as i32,
        );
        let face = enemies
            .iter()
            .flat_map(|&e| s.group(e).points())
            .min_by_key(|p| (p.distance(to), p.x, p.y))
            .filter(|&p| p != to)
            .map(|p| super::rules::facing_towards(to, p));
        if step == 0 && face.is_none_or(|f| f == facing) {
            continue;
        }
        out.push(InvasionCommand::Move {
            group: g,
            to: Some(to),
            lead: None,
            face,
            declare: Declared::default(),
        });
    }
    out
}

/// Where a command sits on the board: the group that acts, the group aimed at.
pub fn anchors(_s: &InvasionState, command: &InvasionCommand) -> Anchors {
    use InvasionCommand as C;
    let group = |g: &GroupId| Some(format!("group:{g}"));
    match command {
        C::Shoot {
            shooters, target, ..
        } => Anchors {
            subject: shooters.first().and_then(group),
            target: group(target),
        },
        C::Move { group: g, .. }
        | C::Special { group: g, .. }
        | C::Study { group: g }
        | C::Burrow { group: g, .. }
        | C::Tunnel { group: g, .. }
        | C::Surface { group: g, .. }
        | C::Deploy { group: g, .. }
        | C::CloseHole { group: g, .. }
        | C::Detonate { group: g, .. }
        | C::TakeOff { group: g }
        | C::Fly { group: g, .. }
        | C::Land { group: g, .. }
        | C::Descend { group: g }
        | C::Sewer { group: g, .. }
        | C::Climb { group: g }
        | C::Try { group: g, .. } => Anchors {
            subject: group(g),
            target: None,
        },
        // Given from the side panel only: a click on an enemy group is a
        // shot (no target anchor, so no "click the board" hint for them).
        C::Suppress { shooters, .. } => Anchors {
            subject: shooters.first().and_then(group),
            target: None,
        },
        C::Spring {
            group: g, target, ..
        } => Anchors {
            subject: group(g),
            target: group(target),
        },
        C::LetPass => Anchors::default(),
        C::BreakOff { group: g } | C::RunAway { group: g } => Anchors {
            subject: group(g),
            target: None,
        },
        C::LiftOff { group: g, .. } | C::Soar { group: g, .. } => Anchors {
            subject: group(g),
            target: None,
        },
        C::LayInWait { group: g, .. } | C::StandDown { group: g } => Anchors {
            subject: group(g),
            target: None,
        },
        C::Relay { observer: g, .. } | C::Perceive { group: g, .. } => Anchors {
            subject: group(g),
            target: None,
        },
        C::Board {
            group: g, vehicle, ..
        } => Anchors {
            subject: group(g),
            target: group(vehicle),
        },
        C::Casualties { models } => Anchors {
            subject: models.first().map(|m| format!("model:{m}")),
            target: None,
        },
        C::ChoosePoint { .. } => Anchors {
            subject: match _s.pending.first() {
                Some(Pending::Point { group: g, .. }) => group(g),
                _ => None,
            },
            target: None,
        },
        C::Continue | C::EndCard | C::Strike { .. } | C::Occupy { .. } => Anchors::default(),
    }
}
