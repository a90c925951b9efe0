//! "Choose a point": a pending choice a player answers with a point on the
//! table (`choose_point`), where the text gives the choice to the player
//! rather than to the rules.
//!
//! Rules version 6 (issue 27, "Sewer leftovers"): "Humans (and others) in
//! the sewers": "After the melee, losers surface at a point of their
//! choosing." Until version 5 the game surfaced them where they were below
//! the table. Now each losing group below the table is asked in turn
//! ([`PointFor::Surface`]); a Burrower's carried Spug squads ride up with it
//! (they deploy with an action, as ever). "Resolving hand-to-hand combat":
//! a group that falls back after a melee on the table goes the way its
//! player chooses ([`PointFor::FallBack`]), a full move, out of contact;
//! the battle option `game_chooses_retreats` keeps Xenolog's own choice
//! (straight away from the enemy). The choice is one shared pending kind
//! ([`super::state::Pending::Point`]).

use serde::{Deserialize, Serialize};

use super::model::Point;
use super::rules::{InvasionCommand, all_points, group_name};
use super::state::{GroupId, InvasionEvent as E, InvasionState, Pending, Place};
use super::table;
use crate::game::{Actor, RuleError};

/// What a point is chosen for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PointFor {
    /// The losers of a melee below the table surface at a point of their
    /// choosing ("Humans (and others) in the sewers").
    Surface,
    /// After a melee on the table a group falls back a full move, its
    /// player choosing the way ("Resolving hand-to-hand combat": "any
    /// attackers move back a full move ensuring that they don't stay in
    /// contact themselves ... all factions will move a full move apart,
    /// usually back the way they came"): the point is the way it goes;
    /// `away` is the centre of what it falls back from (the way Xenolog
    /// chose for it until rules version 5, the default offered first).
    FallBack { away: Point },
}

const RESOLVING: &str = "Resolving hand-to-hand combat";

const SEWERS: &str = "Humans (and others) in the sewers";

fn illegal(msg: impl Into<String>) -> RuleError {
    RuleError::illegal(SEWERS, msg)
}

/// The losers' groups of a melee below the table that surface: each is
/// asked where (carried squads ride with their Burrower).
pub fn ask_surface(s: &InvasionState, losers: &[GroupId], out: &mut Vec<E>) {
    for &g in losers {
        let group = s.group(g);
        if group.place == Place::Below && group.alive_count() > 0 {
            out.push(E::PointAsked {
                seat: group.seat,
                group: g,
                why: PointFor::Surface,
            });
        }
    }
}

/// The groups that fall back after a melee, each with what it falls back
/// from, and the groups its reinforcements re-formed into (they stood in
/// the fight too): each is asked which way it goes.
pub fn ask_fall_back(s: &InvasionState, retreats: &[(GroupId, Point)], out: &mut Vec<E>) {
    let mut asked: Vec<GroupId> = Vec::new();
    for &(g, away) in retreats {
        let mut these = vec![g];
        for m in s.group(g).alive() {
            if let Some(o) = m.origin
                && o != g
                && !these.contains(&o)
            {
                these.push(o);
            }
        }
        for x in these {
            if !asked.contains(&x) {
                asked.push(x);
                out.push(E::PointAsked {
                    seat: s.group(x).seat,
                    group: x,
                    why: PointFor::FallBack { away },
                });
            }
        }
    }
}

/// The way straight back from `away` (as `table::fall_back` takes it), as
/// a point 8" from the group's centre that way: the default choice.
pub fn straight_back(s: &InvasionState, g: GroupId, away: Point) -> Option<Point> {
    let pts = s.group(g).points();
    if pts.is_empty() {
        return None;
    }
    let c = table::centre(&pts);
    let middle = Point::new(s.scenario.width / 2, s.scenario.height / 2);
    let (dx, dy) = if c != away {
        (c.x - away.x, c.y - away.y)
    } else if c != middle {
        (c.x - middle.x, c.y - middle.y)
    } else {
        (0, -1)
    };
    let len = f64::from(dx).hypot(f64::from(dy));
    let k = f64::from(8 * super::model::INCH) / len;
    Some(Point::new(
        c.x + (f64::from(dx) * k).round() as i32,
        c.y + (f64::from(dy) * k).round() as i32,
    ))
    .filter(|&p| p != c)
}

/// Where a group's figures end falling back a full move towards `to` (its
/// centre's way), and whether they end in base contact with an enemy.
fn fall_back_towards(s: &InvasionState, g: GroupId, away: Point, to: Point) -> (Vec<Point>, bool) {
    let pts = s.group(g).points();
    let full = super::rules::group_move(s, g);
    let c = table::centre(&pts);
    // The default keeps the old measure exactly.
    let from = if straight_back(s, g, away) == Some(to) {
        away
    } else {
        Point::new(2 * c.x - to.x, 2 * c.y - to.y)
    };
    let moved = table::fall_back(&s.scenario, &pts, from, full);
    let seat = s.group(g).seat;
    let contact = s.groups.iter().enumerate().any(|(i, o)| {
        i as GroupId != g
            && o.seat != seat
            && o.place == Place::Table
            && table::in_contact(&moved, &o.points())
    });
    (moved, contact)
}

/// The player answers the choice at the head of the queue.
pub fn choose_point(
    s: &InvasionState,
    actor: Actor,
    to: Option<Point>,
) -> Result<Vec<E>, RuleError> {
    let Some(Pending::Point { seat, group, why }) = s.pending.first() else {
        return Err(illegal("no one is asked to choose a point now"));
    };
    if actor != Actor(*seat) {
        return Err(RuleError::not_your_turn(format!(
            "{} are asked to {}",
            s.faction(*seat).name,
            asked_words(s, *group, *why)
        )));
    }
    let g = *group;
    let n = s.group(g).alive_count();
    if let PointFor::FallBack { away } = *why {
        let Some(to) = to else {
            return Err(RuleError::illegal(
                RESOLVING,
                "name the point the group falls back towards",
            ));
        };
        let pts = s.group(g).points();
        if pts.is_empty() {
            return Err(RuleError::illegal(
                RESOLVING,
                "the group has no place on the table",
            ));
        }
        if table::centre(&pts) == to {
            return Err(RuleError::illegal(
                RESOLVING,
                "name a point away from the group: it moves a full move towards it",
            ));
        }
        let (moved, contact) = fall_back_towards(s, g, away, to);
        // "ensuring that they don't stay in contact themselves": refused
        // when the way straight back would leave contact.
        if contact && straight_back(s, g, away).is_some_and(|d| !fall_back_towards(s, g, away, d).1)
        {
            return Err(RuleError::illegal(
                RESOLVING,
                "falling back that way the group stays in base contact with the enemy: the text has them move back \"ensuring that they don't stay in contact themselves\"",
            ));
        }
        return Ok(vec![E::Moved {
            group: g,
            to: moved.into_iter().map(Some).collect(),
            lead: 0,
            stopped: Some("falls back a full move".into()),
            declared_cover: None,
            face: None,
        }]);
    }
    match why {
        PointFor::FallBack { .. } => unreachable!("answered above"),
        PointFor::Surface => {
            let points = match (to, s.real_table) {
                (None, true) => vec![None; n],
                (Some(_), true) => {
                    return Err(illegal(
                        "at a real table the players place the figures: give no point",
                    ));
                }
                (None, false) => {
                    return Err(illegal(
                        "the losers surface at a point of their choosing: name the point",
                    ));
                }
                (Some(at), false) => {
                    check_surface_point(s, g, at)?;
                    let mut pts = vec![Some(at)];
                    let rest = table::place_next_to(
                        &s.scenario,
                        at,
                        n.saturating_sub(1),
                        &all_points(s, Some(g)),
                    );
                    if rest.len() + 1 < n {
                        return Err(illegal(
                            "there is no room around that point for the whole group",
                        ));
                    }
                    pts.extend(rest.into_iter().map(Some));
                    pts
                }
            };
            Ok(vec![E::Surfaced {
                group: g,
                to: points,
            }])
        }
    }
}

/// A point a loser may surface at: on the table, not in soft going, with
/// room to stand, and (assumed: losers flee the fight, they do not start
/// another) not in base contact with an enemy figure.
fn check_surface_point(s: &InvasionState, g: GroupId, at: Point) -> Result<(), RuleError> {
    if !table::on_table(&s.scenario, at) {
        return Err(illegal("that point is off the table"));
    }
    if table::feature_at(&s.scenario, at).is_some_and(|i| s.scenario.terrain[i].soft) {
        return Err(illegal(
            "that point is in soft going (water or marsh): no one can stand there",
        ));
    }
    let seat = s.group(g).seat;
    for (i, other) in s.groups.iter().enumerate() {
        if i as GroupId == g || other.place != Place::Table {
            continue;
        }
        for p in other.points() {
            let d = p.distance(at);
            if d < table::BASE {
                return Err(illegal(
                    "a figure already stands there: bases cannot overlap",
                ));
            }
            if other.seat != seat && d <= table::BASE + table::CONTACT_TOLERANCE {
                return Err(illegal(format!(
                    "that point is in base contact with {}: the losers surface away from the fight",
                    other.name
                )));
            }
        }
    }
    Ok(())
}

/// The points `legal` offers: where the group is below the table (where
/// Xenolog surfaced it until rules version 5), every manhole and Spug
/// hole; at a real table the players' own placing.
pub fn offers(s: &InvasionState) -> Vec<(Actor, InvasionCommand)> {
    let Some(Pending::Point { seat, group, .. }) = s.pending.first() else {
        return Vec::new();
    };
    let why = match s.pending.first() {
        Some(Pending::Point { why, .. }) => *why,
        _ => return Vec::new(),
    };
    if let PointFor::FallBack { away } = why {
        // Straight back first (the way Xenolog chose until rules version
        // 5), then back the other ways a quarter and an eighth round.
        let Some(back) = straight_back(s, *group, away) else {
            return Vec::new();
        };
        let c = table::centre(&s.group(*group).points());
        let (dx, dy) = (f64::from(back.x - c.x), f64::from(back.y - c.y));
        let mut out = vec![(
            Actor(*seat),
            InvasionCommand::ChoosePoint { to: Some(back) },
        )];
        for deg in [45.0f64, -45.0, 90.0, -90.0] {
            let (sn, cs) = deg.to_radians().sin_cos();
            let p = Point::new(
                c.x + (dx * cs - dy * sn).round() as i32,
                c.y + (dx * sn + dy * cs).round() as i32,
            );
            let cmd = InvasionCommand::ChoosePoint { to: Some(p) };
            if !out.iter().any(|(_, x)| *x == cmd) && choose_point(s, Actor(*seat), Some(p)).is_ok()
            {
                out.push((Actor(*seat), cmd));
            }
        }
        return out;
    }
    if s.real_table {
        return vec![(Actor(*seat), InvasionCommand::ChoosePoint { to: None })];
    }
    let mut points: Vec<Point> = s.group(*group).below_at.into_iter().collect();
    points.extend(s.scenario.manholes.iter().copied());
    points.extend(s.holes.iter().copied());
    let mut out = Vec::new();
    for p in points {
        let c = InvasionCommand::ChoosePoint { to: Some(p) };
        if !out.iter().any(|(_, x)| *x == c) && choose_point(s, Actor(*seat), Some(p)).is_ok() {
            out.push((Actor(*seat), c));
        }
    }
    if out.is_empty() {
        // Every offered point is taken: any free point next to the group's
        // own (the player may name any other).
        let anchor = s
            .group(*group)
            .below_at
            .unwrap_or(Point::new(s.scenario.width / 2, s.scenario.height / 2));
        for p in table::place_next_to(&s.scenario, anchor, 12, &all_points(s, None)) {
            let c = InvasionCommand::ChoosePoint { to: Some(p) };
            if choose_point(s, Actor(*seat), Some(p)).is_ok() {
                out.push((Actor(*seat), c));
                break;
            }
        }
    }
    out
}

/// What the player is asked, in words.
pub fn asked_words(s: &InvasionState, group: GroupId, why: PointFor) -> String {
    match why {
        PointFor::Surface => format!(
            "choose the point where {} surfaces after losing the melee below",
            group_name(s, group)
        ),
        PointFor::FallBack { .. } => format!(
            "choose the way {} falls back a full move after the melee (a point it moves towards)",
            group_name(s, group)
        ),
    }
}
