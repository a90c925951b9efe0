//! "Choose a point": a pending choice a player answers with a point on the
//! table (`choose_point`), where the text gives the choice to the player
//! rather than to the rules.
//!
//! Rules version 6 (issue 27, "Sewer leftovers"): "Humans (and others) in
//! the sewers": "After the melee, losers surface at a point of their
//! choosing." Until version 5 the game surfaced them where they were below
//! the table. Now each losing group below the table is asked in turn
//! ([`PointFor::Surface`]); a Burrower's carried Spug squads ride up with it
//! (they deploy with an action, as ever). The choice is one shared pending
//! kind ([`super::state::Pending::Point`]) so that other points the text
//! leaves to a player can use it.

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
}

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
            "{} choose where {} surfaces",
            s.faction(*seat).name,
            group_name(s, *group)
        )));
    }
    let g = *group;
    let n = s.group(g).alive_count();
    match why {
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
    }
}
