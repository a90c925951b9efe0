//! The actions a card gives ("When an Action Card for a faction comes up the
//! controlling player may carry out the number of actions on the card"):
//! moving, shooting, special actions, and the factions' own.

use super::model::{Cover, GroupRole, Mobility, Point};
use super::rules::{
    Declared, InvasionCommand, MITE_BLAST, MITE_DICE, NEAR, all_points, cover_of, group_move,
    group_name, kill_score, melee_seats,
};
use super::state::{CardKind, GroupId, InvasionEvent as E, InvasionState, Place};
use super::table;
use crate::game::RuleError;
use crate::rng::Randomness;

fn illegal(clause: &str, msg: impl Into<String>) -> RuleError {
    RuleError::illegal(clause, msg)
}

/// Actions used on the card if these groups each spent one more.
fn used_with(s: &InvasionState, extra: &[GroupId]) -> u8 {
    let mut line = 0u8;
    let mut clean_up: Vec<(GroupId, u8)> = Vec::new();
    let mut spent = s.spent.clone();
    for &g in extra {
        match spent.iter_mut().find(|(o, _)| *o == g) {
            Some(e) => e.1 += 1,
            None => spent.push((g, 1)),
        }
    }
    for (g, n) in spent {
        if s.group(g).role == GroupRole::CleanUp {
            clean_up.push((g, n));
        } else {
            line += n;
        }
    }
    line + clean_up.iter().map(|(_, n)| *n).max().unwrap_or(0)
}

/// The group is the player's and may spend `n` more actions on this card.
fn check_group(s: &InvasionState, seat: u8, g: GroupId) -> Result<(), RuleError> {
    let Some(group) = s.groups.get(g as usize) else {
        return Err(illegal("Actions", format!("there is no group {g}")));
    };
    if group.seat != seat {
        return Err(illegal(
            "Actions",
            format!("{} is not one of your groups", group_name(s, g)),
        ));
    }
    if group.alive_count() == 0 {
        return Err(illegal("Actions", format!("{} is gone", group_name(s, g))));
    }
    if group.place == Place::Reserve {
        return Err(illegal(
            "MiB",
            format!("{} has not arrived yet", group_name(s, g)),
        ));
    }
    Ok(())
}

fn check_actions(s: &InvasionState, spenders: &[GroupId]) -> Result<(), RuleError> {
    let card = s.card().map_or(0, |c| c.kind.actions());
    // Lightening Action: one action more than the card gives, once per card,
    // for a group with such a figure.
    let extra = u8::from(spenders.len() == 1 && s.extra_action(spenders[0]));
    if used_with(s, spenders) > card + extra {
        let kind = s.card().map_or(CardKind::Single, |c| c.kind);
        return Err(illegal(
            "Action cards",
            format!(
                "the {} card gives {card} action{}, and {} {} left",
                kind.word(),
                if card == 1 { "" } else { "s" },
                s.actions_left(),
                if s.actions_left() == 1 { "is" } else { "are" }
            ),
        ));
    }
    Ok(())
}

fn on_table(s: &InvasionState, g: GroupId, what: &str) -> Result<(), RuleError> {
    if s.group(g).place != Place::Table {
        return Err(illegal(
            "Actions",
            format!("{} is not on the table and cannot {what}", group_name(s, g)),
        ));
    }
    Ok(())
}

fn not_locked(s: &InvasionState, g: GroupId) -> Result<(), RuleError> {
    if s.group(g).locked.is_some() {
        return Err(illegal(
            "Hand-to-hand combat",
            format!(
                "{} is locked in hand-to-hand combat and cannot move until it is resolved",
                group_name(s, g)
            ),
        ));
    }
    Ok(())
}

/// One action of the card's player.
pub fn action(
    s: &InvasionState,
    seat: u8,
    command: &InvasionCommand,
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    use InvasionCommand as C;
    // "Each time a Triple Action card is drawn for the Spugs, one action MUST
    // be used to move uncontrolled Mites if there are any."
    // Assumed: only Mites that can move (on the table, not locked in
    // hand-to-hand, with an enemy on the table to charge) must.
    let must_move_mites = s.card().is_some_and(|c| c.kind == CardKind::Triple)
        && s.mites_uncontrolled(seat)
        && !s.mites_moved
        && mites_can_charge(s, seat);
    let moves_mites = matches!(command, C::Move { group, .. } if s.groups.get(*group as usize).is_some() && s.is_mites(*group));
    if must_move_mites && !moves_mites {
        let last = s.actions_left() <= 1;
        if last || matches!(command, C::EndCard) {
            return Err(illegal(
                "Spugs",
                "one action of a Spug Triple card must move the uncontrolled Mites",
            ));
        }
    }
    match command {
        C::EndCard => Ok(vec![E::CardDone]).map(|mut v| {
            if matches!(
                s.card().map(|c| c.kind),
                Some(CardKind::Double | CardKind::Triple)
            ) {
                let melees: Vec<u16> = s.melees.iter().filter(|m| !m.below).map(|m| m.id).collect();
                if !melees.is_empty() {
                    v.push(E::MeleesDue { melees });
                }
            }
            v
        }),
        C::Move {
            group,
            to,
            lead,
            face,
            declare,
        } => move_group(s, seat, *group, *to, lead.as_deref(), *face, declare),
        C::Shoot {
            shooters,
            target,
            declare,
        } => shoot(s, seat, shooters, *target, declare, rng),
        C::Suppress {
            shooters,
            target,
            at_cover,
            area,
            declare,
        } => super::fire::suppress(s, seat, shooters, *target, *at_cover, area, declare, rng),
        C::Relay {
            observer,
            via,
            to,
            target,
        } => super::fire::relay(s, seat, *observer, *via, *to, *target),
        C::Perceive { group, target } => super::fire::perceive(s, seat, *group, *target, rng),
        C::LayInWait { group, assault } => super::wait::lay_in_wait(s, seat, *group, *assault),
        C::StandDown { group } => super::wait::stand_down(s, seat, *group),
        C::Special { group, action } => special(s, seat, *group, action, rng),
        C::Study { group } => study(s, seat, *group, rng),
        C::Burrow { group, carry } => burrow(s, seat, *group, carry),
        C::Tunnel { group, to } => {
            worm(s, seat, *group)?;
            if s.group(*group).place != Place::Below {
                return Err(illegal("Spugs", "the Burrower must tunnel down first"));
            }
            if let Some(p) = to
                && !table::on_table(&s.scenario, *p)
            {
                return Err(illegal("Spugs", "that point is off the table"));
            }
            if to.is_none() && !s.real_table {
                return Err(illegal(
                    "Spugs",
                    "give the point the Burrower tunnels to (or play the battle at a real table)",
                ));
            }
            check_actions(s, &[*group])?;
            Ok(vec![
                E::Spent { group: *group },
                E::MovedBelow {
                    group: *group,
                    to: *to,
                },
            ])
        }
        C::Surface {
            group,
            to,
            hole,
            declare,
        } => surface(s, seat, *group, *to, *hole, declare),
        C::Deploy { group, declare } => deploy(s, seat, *group, declare),
        C::CloseHole { group, hole } => close_hole(s, seat, *group, *hole),
        C::Detonate {
            group,
            mite,
            caught,
        } => detonate(s, seat, *group, mite, caught, rng),
        C::TakeOff { group } => take_off(s, seat, *group),
        C::Fly { group, to } => fly(s, seat, *group, *to),
        C::Land { group, .. }
            if s.groups.get(*group as usize).is_some()
                && super::fly::height(s, *group).is_some() =>
        {
            super::fly::land(s, seat, *group)
        }
        C::Land { group, declare } => land(s, seat, *group, declare),
        C::BreakOff { group } => super::assault::break_off(s, seat, *group),
        C::RunAway { group } => super::assault::run_away(s, seat, *group),
        C::LiftOff { group, height } => super::fly::lift_off(s, seat, *group, *height),
        C::Soar {
            group,
            to,
            height,
            declare,
        } => super::fly::soar(s, seat, *group, *to, *height, declare),
        C::Descend { group } => descend(s, seat, *group),
        C::Sewer { group, manhole } => {
            sewer_group(s, seat, *group)?;
            if s.group(*group).place != Place::Below {
                return Err(illegal("Sewers", "the group must descend first"));
            }
            let to = match manhole {
                Some(i) => Some(
                    *sewer_points(s)
                        .get(*i as usize)
                        .ok_or_else(|| illegal("Sewers", format!("there is no manhole {i}")))?,
                ),
                None if !s.real_table => {
                    return Err(illegal(
                        "Sewers",
                        "name the manhole or Spug hole the group moves to below the table",
                    ));
                }
                None => None,
            };
            check_actions(s, &[*group])?;
            Ok(vec![
                E::Spent { group: *group },
                E::MovedBelow { group: *group, to },
            ])
        }
        C::Climb { group } => {
            sewer_group(s, seat, *group)?;
            if s.group(*group).place != Place::Below {
                return Err(illegal("Sewers", "the group is not in the sewers"));
            }
            check_actions(s, &[*group])?;
            let mut out = vec![E::Spent { group: *group }, E::Climbed { group: *group }];
            // "surfacing (2 Actions)"
            if s.group(*group).climbing + 1 >= 2 {
                let at = s.group(*group).below_at;
                let n = s.group(*group).alive_count();
                let to = match at {
                    Some(at) if !s.real_table => {
                        let mut pts = vec![Some(at)];
                        pts.extend(
                            table::place_next_to(&s.scenario, at, n - 1, &all_points(s, None))
                                .into_iter()
                                .map(Some),
                        );
                        pts
                    }
                    _ => vec![None; n],
                };
                out.push(E::Surfaced { group: *group, to });
            }
            Ok(out)
        }
        C::Board {
            group,
            vehicle,
            declare,
        } => board(s, seat, *group, *vehicle, declare),
        C::Try { group, what } => try_odd(s, seat, *group, what, rng),
        C::Continue
        | C::Casualties { .. }
        | C::Strike { .. }
        | C::Occupy { .. }
        | C::Spring { .. }
        | C::LetPass
        | C::ChoosePoint { .. } => {
            unreachable!("decided in rules")
        }
    }
}

/// Whether some uncontrolled Mites of `seat` can charge now: free on the
/// table, with a move that brings them nearer the nearest enemy (if none
/// can, the Spug Triple card's duty to move them lapses).
pub fn mites_can_charge(s: &InvasionState, seat: u8) -> bool {
    let enemies = enemy_groups(s, seat);
    (0..s.groups.len() as GroupId).any(|g| {
        let group = s.group(g);
        if group.seat != seat || !group.on_table() || group.locked.is_some() || !s.is_mites(g) {
            return false;
        }
        if !group.placed() {
            return true;
        }
        let Some(from) = group.points().first().copied() else {
            return false;
        };
        let Some(goal) = enemies
            .iter()
            .flat_map(|&e| s.group(e).points())
            .min_by_key(|p| (p.distance(from), p.x, p.y))
        else {
            return false;
        };
        let d = from.distance(goal).max(1);
        // The charges `legal` offers: a full, a half and a 2" move towards
        // the nearest enemy figure, stopping in base contact.
        [
            group_move(s, g),
            group_move(s, g) / 2,
            2 * super::model::INCH,
        ]
        .into_iter()
        .any(|reach| {
            let step = reach.min((d - 105).max(0));
            let to = Point::new(
                from.x + ((i64::from(goal.x - from.x) * i64::from(step)) / i64::from(d)) as i32,
                from.y + ((i64::from(goal.y - from.y) * i64::from(step)) / i64::from(d)) as i32,
            );
            step > 0 && move_group(s, seat, g, Some(to), None, None, &Declared::default()).is_ok()
        })
    })
}

/// "1. Move".
pub(super) fn move_group(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    to: Option<Point>,
    lead: Option<&str>,
    face: Option<i32>,
    declare: &Declared,
) -> Result<Vec<E>, RuleError> {
    check_group(s, seat, g)?;
    super::fire::check_relaying(s, g, "move")?;
    if s.group(g).place == Place::Air {
        return Err(illegal(
            "Vehicle movement",
            format!(
                "{} is in the air: it travels (fly) or lands (land)",
                group_name(s, g)
            ),
        ));
    }
    // Passengers get out of a vehicle by a move measured from it ("If
    // exiting a building or vehicle measure from a suitable point, probably
    // a door"; assumed: from the vehicle's figure, and a wrecked vehicle's
    // passengers get out of the wreck the same way).
    let carrier = match s.group(g).place {
        Place::Carried(v) if is_vehicle(s, v) => Some(v),
        _ => None,
    };
    if carrier.is_none() {
        on_table(s, g, "move")?;
    }
    not_locked(s, g)?;
    check_actions(s, &[g])?;
    let group = s.group(g);
    let door = carrier.and_then(|v| s.group(v).models.iter().find_map(|m| m.at));
    let mobility = super::rules::group_mobility(s, g);
    if mobility == Mobility::Vtol {
        return Err(illegal(
            "Vehicle movement",
            "a VTOL craft uses an action to take off, another to travel anywhere and a third to land",
        ));
    }
    if mobility == Mobility::Burrow {
        return Err(illegal(
            "Spugs",
            "Burrowers cannot move on the surface: tunnel down, tunnel and surface instead",
        ));
    }
    let vehicle = matches!(mobility, Mobility::Vehicle { .. });
    if face.is_some() && !vehicle {
        return Err(illegal(
            "Vehicle movement",
            format!(
                "only ground vehicles turn at the end of their move; {} moves in any direction",
                group_name(s, g)
            ),
        ));
    }
    let face = face.map(|f| f.rem_euclid(360));
    let mut out = vec![E::Spent { group: g }];
    let n = group.alive_count();
    let mut lead_at = 0;
    let (points, stopped) = match to {
        None => {
            if !s.real_table && (group.placed() && carrier.is_none() || door.is_some()) {
                return Err(illegal(
                    "Move",
                    "give the point the lead figure moves to (or play the battle at a real table)",
                ));
            }
            (vec![None; n], None)
        }
        Some(to) => {
            if carrier.is_some() && door.is_none() {
                return Err(illegal(
                    "Move",
                    format!(
                        "{} has no position on the table: get out at the table and declare the result (no point)",
                        group_name(s, carrier.unwrap_or(g))
                    ),
                ));
            }
            if carrier.is_none() && !group.placed() {
                return Err(illegal(
                    "Move",
                    format!(
                        "{} has no positions on the table: move it at the table and declare the result (no point)",
                        group_name(s, g)
                    ),
                ));
            }
            let lead_model = match lead {
                Some(id) => group.alive().find(|m| m.id == id).ok_or_else(|| {
                    illegal("Move", format!("{id} is not a living figure of the group"))
                })?,
                None => group.alive().next().expect("a living figure"),
            };
            let from = door.or(lead_model.at).expect("placed");
            // "Ground vehicles may move in a straight line in the direction
            // they are facing": a move at an angle is refused (a move of no
            // length is a turn on the spot).
            if vehicle
                && to != from
                && let Some(facing) = group.facing
            {
                let off =
                    super::rules::angle_between(super::rules::bearing(from, to), f64::from(facing));
                if off > super::rules::FACING_TOLERANCE {
                    return Err(illegal(
                        "Vehicle movement",
                        format!(
                            "{} faces {facing}°: a ground vehicle moves only straight ahead in the direction it faces (this move points {:.0}° off it), then turns to face any direction",
                            group_name(s, g),
                            off
                        ),
                    ));
                }
            }
            // Super Sneak: more inches for a move into cover or a building.
            let sneak = if table::cover_at(&s.scenario, to) != Cover::Open {
                super::rules::sneak_bonus(s, g)
            } else {
                0
            };
            // Unstoppable Force: "moving through obstacles (hedges, brick/
            // wooden walls etc.) as if they weren't there".
            let through = super::fire::unstoppable(s, g).then(|| {
                let mut open = s.scenario.clone();
                open.barriers.clear();
                open
            });
            let ground = through.as_ref().unwrap_or(&s.scenario);
            // Flying: at its fly rate, over terrain and barriers.
            let (allowance, mobility) =
                match super::fly::height(s, g).and(super::fly::fly_move(s, g)) {
                    Some(rate) => (rate, Mobility::Vtol),
                    None => (group_move(s, g) + sneak, mobility),
                };
            let plan = table::plan_move(ground, from, to, allowance, mobility)
                .map_err(|e| illegal("Move", e.to_string()))?;
            if s.is_mites(g) && s.mites_uncontrolled(seat) {
                // "If the controller is killed the mites can do nothing except
                // charge towards the nearest enemy (regardless of LOS)."
                let enemies = enemy_groups(s, seat);
                let before = nearest_distance(s, &[from], &enemies);
                let after = nearest_distance(s, &[plan.end], &enemies);
                if after >= before {
                    return Err(illegal(
                        "Spugs",
                        "uncontrolled Mites can only charge towards the nearest enemy",
                    ));
                }
            }
            let mut avoid = all_points(s, Some(g));
            standing_room(s, &avoid, plan.end, "Move")?;
            avoid.push(plan.end);
            // The figure measured stands where it moved; the rest are placed
            // next to it ("He then places the rest of the group next to the
            // original figure").
            let mut pts: Vec<Option<Point>> =
                table::place_next_to(&s.scenario, plan.end, n - 1, &avoid)
                    .into_iter()
                    .map(Some)
                    .collect();
            let at = group
                .alive()
                .position(|m| m.id == lead_model.id)
                .unwrap_or(0)
                .min(pts.len());
            pts.insert(at, Some(plan.end));
            lead_at = at;
            (pts, plan.stopped.map(|x| x.words))
        }
    };
    out.push(E::Moved {
        group: g,
        to: points.clone(),
        lead: lead_at,
        stopped,
        declared_cover: if to.is_none() { declare.cover } else { None },
        face,
    });
    // Base contact: declared, or measured.
    let contacts: Vec<GroupId> = match declare.contact {
        Some(c) => vec![declared_contact(s, seat, c)?],
        None => {
            let mine: Vec<Point> = points.iter().flatten().copied().collect();
            enemy_groups(s, seat)
                .into_iter()
                .filter(|&o| table::in_contact(&mine, &s.group(o).points()))
                .collect()
        }
    };
    super::fire::check_assault(s, g, &contacts, declare.contact.is_some())?;
    lock(s, g, &contacts, declare.defends, &mut out);
    Ok(out)
}

/// A figure's base cannot overlap another's (assumed: bases are 1" across,
/// so a figure ends at least 1" from every other figure on the table).
fn standing_room(
    s: &InvasionState,
    others: &[Point],
    at: Point,
    clause: &str,
) -> Result<(), RuleError> {
    if let Some(q) = others.iter().find(|q| q.distance(at) < table::BASE) {
        let _ = s;
        return Err(illegal(
            clause,
            format!(
                "a figure already stands there (at ({}, {})): bases cannot overlap",
                super::inches(q.x),
                super::inches(q.y)
            ),
        ));
    }
    Ok(())
}

/// Enemy groups of `seat` on the table.
pub fn enemy_groups(s: &InvasionState, seat: u8) -> Vec<GroupId> {
    (0..s.groups.len() as GroupId)
        .filter(|&g| s.group(g).seat != seat && s.group(g).on_table())
        .collect()
}

fn nearest_distance(s: &InvasionState, from: &[Point], groups: &[GroupId]) -> i32 {
    groups
        .iter()
        .flat_map(|&g| s.group(g).points())
        .flat_map(|p| from.iter().map(move |f| f.distance(p)))
        .min()
        .unwrap_or(i32::MAX)
}

/// "Hand-to-hand combat": a group that reaches an enemy group locks both;
/// reinforcements of a faction already in the fight join its group. A
/// contacted group in a terrain feature defends it.
/// A group the players declare in base contact (principle 9): it must be an
/// enemy group on the table.
fn declared_contact(s: &InvasionState, seat: u8, c: GroupId) -> Result<GroupId, RuleError> {
    let Some(other) = s.groups.get(c as usize) else {
        return Err(illegal(
            "Hand-to-hand combat",
            format!("there is no group {c}"),
        ));
    };
    if other.seat == seat || !other.on_table() {
        return Err(illegal(
            "Hand-to-hand combat",
            format!("{} is not an enemy group on the table", group_name(s, c)),
        ));
    }
    Ok(c)
}

fn lock(
    s: &InvasionState,
    g: GroupId,
    contacts: &[GroupId],
    declared_defence: Option<Cover>,
    out: &mut Vec<E>,
) {
    if contacts.is_empty() {
        return;
    }
    let seat = s.group(g).seat;
    // An existing melee of a contacted group is joined.
    let existing = contacts.iter().find_map(|&c| s.group(c).locked);
    let melee = existing.unwrap_or(s.next_melee);
    let mut joining = g;
    if let Some(m) = existing.and_then(|m| s.melee(m))
        && let Some(&mine) = m
            .groups
            .iter()
            .find(|&&o| s.group(o).seat == seat && s.group(o).alive_count() > 0)
    {
        out.push(E::Merged {
            from: g,
            into: mine,
        });
        joining = mine;
    }
    let defender = if existing.is_some() {
        None
    } else {
        contacts.iter().find_map(|&c| {
            let cover = declared_defence.or_else(|| {
                let pts = s.group(c).points();
                (!pts.is_empty()).then(|| {
                    pts.iter()
                        .map(|p| table::cover_at(&s.scenario, *p))
                        .max()
                        .unwrap_or(Cover::Open)
                })
            })?;
            (cover != Cover::Open).then_some((c, cover))
        })
    };
    let mut groups = vec![joining];
    // "they will join with figures from their faction to form a single,
    // bigger group": a contacted group of a faction that already has a
    // group in the fight (or among the groups reached by this move) joins
    // it, so a faction is struck as one group (each faction "rolls damage
    // as if they were shooting"; "the player controlling the target faction
    // decides which figures to remove"). Rules version 6.
    let in_fight: Vec<GroupId> = existing
        .and_then(|m| s.melee(m))
        .map(|m| {
            m.groups
                .iter()
                .copied()
                .filter(|&o| s.group(o).alive_count() > 0)
                .collect()
        })
        .unwrap_or_default();
    let mut defender = defender;
    for &c in contacts {
        if c == joining || groups.contains(&c) {
            continue;
        }
        let free = s.group(c).locked.is_none();
        let keeper = in_fight
            .iter()
            .chain(groups.iter())
            .copied()
            .find(|&o| o != c && s.group(o).seat == s.group(c).seat);
        match keeper {
            Some(k) if free => {
                out.push(E::Merged { from: c, into: k });
                if let Some((d, cover)) = defender
                    && d == c
                {
                    defender = Some((k, cover));
                }
            }
            _ => groups.push(c),
        }
    }
    out.push(E::Locked {
        melee,
        groups,
        defender,
        below: false,
    });
}

/// What a shot's checks found: who shoots, from where, at what cover.
pub(super) struct Aim {
    pub target_melee: Option<u16>,
    pub declared: Vec<String>,
    pub cover: Cover,
    /// Shooters firing without a line of sight (indirect fire, Observers).
    pub unseen: Vec<GroupId>,
}

/// The checks of "2. Shoot" before any die is rolled: the groups may shoot
/// (linked fire, melees), see the target (or fire indirectly), and have the
/// actions; the target's cover.
pub(super) fn aim(
    s: &InvasionState,
    seat: u8,
    shooters: &[GroupId],
    target: GroupId,
    declare: &Declared,
) -> Result<Aim, RuleError> {
    if shooters.is_empty() {
        return Err(illegal("Shoot", "name the group that shoots"));
    }
    for &g in shooters {
        check_group(s, seat, g)?;
        on_table(s, g, "shoot")?;
    }
    let faction = s.faction(seat);
    let mut distinct = shooters.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    // "Clean Up sections can link fire" though the MiB cannot.
    let all_clean_up = distinct
        .iter()
        .all(|&g| s.group(g).role == GroupRole::CleanUp);
    if shooters.len() > 1 && !faction.link_fire && !all_clean_up {
        return Err(illegal(
            "Linked fire",
            format!("{} cannot link fire", faction.name),
        ));
    }
    if shooters.len() > 1
        && distinct
            .iter()
            .any(|&g| s.group(g).role == GroupRole::CleanUp)
        && distinct
            .iter()
            .any(|&g| s.group(g).role != GroupRole::CleanUp)
    {
        return Err(illegal(
            "MiB",
            "Clean Up sections link fire with each other only",
        ));
    }
    check_actions(s, shooters)?;
    for &g in &distinct {
        super::fire::check_relaying(s, g, "fire")?;
    }
    let Some(t) = s.groups.get(target as usize) else {
        return Err(illegal("Shoot", format!("there is no group {target}")));
    };
    for &g in &distinct {
        super::fire::check_windows(s, &s.group(g).points(), target)?;
    }
    // "KILL...EVERBODY: The model immediately fires at another model
    // closest to him, regardless of whether it is friend or foe."
    let stupid = shooters.len() == 1
        && s.advanced.order(shooters[0]) == Some(super::advanced::Order::KillEverybody);
    if t.seat == seat && !stupid {
        return Err(illegal("Shoot", "a group shoots at an opposing group"));
    }
    if !t.on_table() {
        return Err(illegal(
            "Shoot",
            format!("{} is not on the table", group_name(s, target)),
        ));
    }
    // Shooting into a melee.
    let target_melee = t.locked;
    for &g in &distinct {
        let mine = s.group(g).locked;
        match (mine, target_melee) {
            (Some(m), Some(tm)) if m == tm => {}
            (Some(_), _) => {
                return Err(illegal(
                    "Hand-to-hand combat",
                    format!(
                        "{} is locked in hand-to-hand and may only shoot into its own fight",
                        group_name(s, g)
                    ),
                ));
            }
            (None, Some(tm)) if melee_seats(s, tm).contains(&seat) => {
                return Err(illegal(
                    "Hand-to-hand combat",
                    "groups not involved in the close combat may not shoot into it if they have members of their faction involved",
                ));
            }
            _ => {}
        }
    }
    // Line of sight: declared, or traced on the table.
    let mut declared = Vec::new();
    let mut unseen = Vec::new();
    let indirect = |g: GroupId| super::fire::indirect(s, g);
    if declare.sight == Some(false) {
        if !distinct.iter().all(|&g| indirect(g)) {
            return Err(illegal(
                "Shoot",
                "no line of sight is declared: a group may shoot only at a group it can see",
            ));
        }
        declared.push("no line of sight".to_owned());
        unseen = distinct.clone();
    } else if declare.sight == Some(true) {
        declared.push("line of sight".to_owned());
    } else {
        for &g in &distinct {
            let from = s.group(g);
            if !from.placed() || !t.placed() {
                return Err(illegal(
                    "Shoot",
                    "the table has no positions for these groups: declare the line of sight",
                ));
            }
            let others = blockers(s, g, target);
            let sight = table::line_of_sight(&s.scenario, &from.points(), &t.points(), &others);
            if sight.clear.is_none() && indirect(g) {
                // "Observers can only be used to direct fire from weapons
                // that do not require LOS".
                unseen.push(g);
            } else if sight.clear.is_none() {
                let by = sight
                    .blocked
                    .first()
                    .map(|b| blocker_name(s, b.by))
                    .unwrap_or_else(|| "the table".into());
                return Err(illegal(
                    "Shoot",
                    format!(
                        "{} cannot see {}: the line of sight is blocked by {by}",
                        group_name(s, g),
                        group_name(s, target)
                    ),
                ));
            }
        }
    }
    let (cover, cover_declared) = cover_of(s, target, declare.cover);
    if cover_declared && declare.cover.is_some() {
        declared.push(format!("target {}", super::describe::in_cover(cover)));
    }
    super::fire::check_sighted(s, &distinct, &unseen, target, declare)?;
    Ok(Aim {
        target_melee,
        declared,
        cover,
        unseen,
    })
}

/// "2. Shoot".
pub(super) fn shoot(
    s: &InvasionState,
    seat: u8,
    shooters: &[GroupId],
    target: GroupId,
    declare: &Declared,
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    let Aim {
        target_melee,
        declared,
        cover,
        unseen,
    } = aim(s, seat, shooters, target, declare)?;
    let t = s.group(target);
    // Roll every shooter's dice and total them ("linked fire allows any
    // shoot actions that are carried out from the same Action card to be
    // combined").
    let mut count = 0;
    let mut bonus = 0;
    let mut how_many = Vec::new();
    let mut per_group = Vec::new();
    let mut harmless = Vec::new();
    for &g in shooters {
        let (n, b) = super::rules::shooting_dice_and_bonus(s, g, rng, &mut how_many)?;
        bonus += b;
        // Primitive Weapons: "incapable of causing any damage against" an
        // armoured target; their dice are not rolled.
        let spared = super::fire::primitive_dice(s, g, target);
        if spared > 0 {
            harmless.push((
                0,
                format!(
                    "the primitive weapons of {} cannot harm {} ({spared} dice not rolled)",
                    group_name(s, g),
                    group_name(s, target)
                ),
            ));
        }
        let n = n.saturating_sub(spared);
        if n == 0 && spared > 0 {
            return Err(illegal(
                "Primitive Weapons",
                format!(
                    "the primitive weapons of {} cannot harm {}",
                    group_name(s, g),
                    group_name(s, target)
                ),
            ));
        }
        per_group.push((g, n));
        if n == 0 {
            return Err(illegal(
                "Shoot",
                format!("{} has no shooting dice", group_name(s, g)),
            ));
        }
        count += n;
    }
    let dice = rng.roll(count, 6)?;
    // The modules' modifiers: a suppressed shooter, indirect fire unseen,
    // information relayed (each so much a die).
    let mut mods = super::fire::shot_modifiers(s, &per_group, &unseen, target);
    mods.extend(harmless);
    let change: i64 = mods.iter().map(|(n, _)| i64::from(*n)).sum();
    // Campaign skills (Crack Shot, Super Agility) add to the total.
    let sum: u32 = dice.iter().map(|&d| u32::from(d)).sum();
    let total: u32 = (i64::from(sum) + i64::from(bonus) + change).max(0) as u32;
    let bonus = (i64::from(bonus) + change).max(0) as u32;
    let mut out: Vec<E> = shooters.iter().map(|&g| E::Spent { group: g }).collect();
    if !mods.is_empty() {
        out.push(E::Modified { mods });
    }
    let ks = kill_score(s, target, cover);
    let outsider = target_melee.is_some_and(|m| !melee_seats(s, m).contains(&seat));
    if let (true, Some(m)) = (outsider, target_melee) {
        // "All even numbered damage dice results will be allocated to the
        // target faction and all odd numbered ... amongst any other
        // participating factions."
        out.push(E::Shot {
            shooters: shooters.to_vec(),
            target,
            dice: dice.clone(),
            how_many,
            total,
            cover,
            kill_score: ks,
            kills: 0,
            declared,
        });
        let others: Vec<GroupId> = melee_seats(s, m)
            .into_iter()
            .filter(|&x| x != t.seat)
            .filter_map(|x| {
                s.melee(m)?
                    .groups
                    .iter()
                    .copied()
                    .find(|&g| s.group(g).seat == x && s.group(g).alive_count() > 0)
            })
            .collect();
        let shares = super::rules::split_dice(&dice, target, &others);
        super::rules::deal(
            s,
            seat,
            shooters,
            &shares,
            bonus,
            // "roll damage as normal": the target at its cover (declared
            // at a real table), the others at theirs (rules version 6).
            &|g| {
                if g == target {
                    cover
                } else {
                    cover_of(s, g, None).0
                }
            },
            &mut out,
        );
        return Ok(out);
    }
    let d = super::rules::assess(s, target, total, cover, &[]);
    out.push(E::Shot {
        shooters: shooters.to_vec(),
        target,
        dice,
        how_many,
        total,
        cover,
        kill_score: d.kill_score,
        kills: d.kills,
        declared,
    });
    super::rules::inflict_shot(s, target, d, total, cover, seat, shooters, &mut out);
    Ok(out)
}

/// The groups that may block a line of sight between `from` and `target`:
/// every other group on the table but those fighting the target.
pub fn blockers(s: &InvasionState, from: GroupId, target: GroupId) -> Vec<(usize, Vec<Point>)> {
    let fight = s.group(target).locked;
    (0..s.groups.len() as GroupId)
        .filter(|&o| o != from && o != target)
        .filter(|&o| s.group(o).on_table())
        .filter(|&o| fight.is_none() || s.group(o).locked != fight)
        .map(|o| (o as usize, s.group(o).points()))
        .filter(|(_, p)| !p.is_empty())
        .collect()
}

pub fn blocker_name(s: &InvasionState, b: table::Blocker) -> String {
    match b {
        table::Blocker::Terrain(i) => s
            .scenario
            .terrain
            .get(i)
            .map_or("terrain".into(), |t| t.name.clone()),
        table::Blocker::Group(g) => group_name(s, g as GroupId),
    }
}

/// "3. Special Actions": a D6 for every figure helping; one or more 6s succeed.
fn special(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    action: &str,
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    check_group(s, seat, g)?;
    on_table(s, g, "act")?;
    not_locked(s, g)?;
    let Some(sp) = s.scenario.specials.iter().find(|x| x.id == action) else {
        let known: Vec<&str> = s.scenario.specials.iter().map(|x| x.id.as_str()).collect();
        return Err(illegal(
            "Special Actions",
            format!(
                "this scenario has no special action '{action}' (it has: {})",
                if known.is_empty() {
                    "none".into()
                } else {
                    known.join(", ")
                }
            ),
        ));
    };
    let group = s.group(g);
    if group.placed() {
        let reach = sp.reach.max(NEAR);
        if !group.points().iter().any(|p| p.distance(sp.at) <= reach) {
            return Err(illegal(
                "Special Actions",
                format!(
                    "{} is not at {} (within {}\")",
                    group_name(s, g),
                    sp.name,
                    reach / 100
                ),
            ));
        }
    }
    check_actions(s, &[g])?;
    let dice = rng.roll(group.alive_count(), 6)?;
    let success = dice.contains(&6);
    Ok(vec![
        E::Spent { group: g },
        E::Attempted {
            group: g,
            action: action.to_owned(),
            dice,
            success,
        },
    ])
}

/// Longest words for "something new or odd".
pub const MAX_TRY_WORDS: usize = 120;

/// "If a player wants to attempt something new or odd then common sense and
/// a quick discussion between players should decide whether to allow it.
/// Many actions require an Action roll": the players have agreed; the group
/// spends an action and rolls a D6 per figure, any 6 succeeding. What it
/// achieves is for the table to apply (assumed: the log records it; the
/// game changes nothing else).
fn try_odd(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    what: &str,
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    check_group(s, seat, g)?;
    on_table(s, g, "act")?;
    not_locked(s, g)?;
    let what = what.trim();
    if what.is_empty() {
        return Err(illegal(
            "Special Actions",
            "say what the group attempts (the players agree to allow it first)",
        ));
    }
    if what.chars().count() > MAX_TRY_WORDS || what.chars().any(char::is_control) {
        return Err(illegal(
            "Special Actions",
            format!(
                "say what the group attempts in one line of at most {MAX_TRY_WORDS} characters"
            ),
        ));
    }
    check_actions(s, &[g])?;
    let dice = rng.roll(s.group(g).alive_count(), 6)?;
    let success = dice.contains(&6);
    Ok(vec![
        E::Spent { group: g },
        E::Tried {
            group: g,
            what: what.to_owned(),
            dice,
            success,
        },
    ])
}

/// The figures a vehicle group has room for, and the figures aboard.
pub fn room(s: &InvasionState, v: GroupId) -> (usize, usize) {
    let vehicle = s.group(v);
    let room = vehicle
        .alive()
        .filter_map(|m| s.model_type(vehicle.seat, &m.kind))
        .map(|t| usize::from(t.carry))
        .sum();
    let aboard = s
        .groups
        .iter()
        .filter(|o| o.place == Place::Carried(v))
        .map(|o| o.alive_count())
        .sum();
    (room, aboard)
}

/// Whether `v` is a ground vehicle or VTOL craft (a group carried by one
/// gets out by moving; one carried by a Burrower deploys).
pub fn is_vehicle(s: &InvasionState, v: GroupId) -> bool {
    matches!(
        super::rules::group_mobility(s, v),
        Mobility::Vehicle { .. } | Mobility::Vtol
    )
}

/// "A group's movement ends when it enters a terrain feature (including a
/// vehicle)": a group boards a vehicle of its own faction with room for it
/// (assumed: a friendly vehicle only; it must be on the ground), with a
/// move that reaches it.
fn board(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    v: GroupId,
    declare: &Declared,
) -> Result<Vec<E>, RuleError> {
    check_group(s, seat, g)?;
    on_table(s, g, "board a vehicle")?;
    not_locked(s, g)?;
    let clause = "Movement";
    let Some(vehicle) = s.groups.get(v as usize) else {
        return Err(illegal(clause, format!("there is no group {v}")));
    };
    if v == g || vehicle.seat != seat || !is_vehicle(s, v) {
        return Err(illegal(
            clause,
            format!("{} is not a vehicle of yours", group_name(s, v)),
        ));
    }
    if !vehicle.on_table() {
        return Err(illegal(
            clause,
            format!("{} is not on the ground", group_name(s, v)),
        ));
    }
    if is_vehicle(s, g) || super::rules::group_mobility(s, g) == Mobility::Burrow {
        return Err(illegal(
            clause,
            format!("{} cannot ride in a vehicle", group_name(s, g)),
        ));
    }
    let (room, aboard) = room(s, v);
    let n = s.group(g).alive_count();
    if aboard + n > room {
        return Err(illegal(
            clause,
            format!(
                "{} has room for {room} figure{} and {aboard} {} aboard: {} ({n}) do not fit",
                group_name(s, v),
                if room == 1 { "" } else { "s" },
                if aboard == 1 { "is" } else { "are" },
                group_name(s, g)
            ),
        ));
    }
    let group = s.group(g);
    let measured = !s.real_table && declare.is_empty() && group.placed() && vehicle.placed();
    if measured {
        // The nearest figure moves to the vehicle; the move must reach it.
        let targets = vehicle.points();
        let Some((from, to)) = group
            .points()
            .into_iter()
            .flat_map(|p| targets.iter().map(move |q| (p, *q)))
            .min_by_key(|(p, q)| (p.distance(*q), p.x, p.y))
        else {
            return Err(illegal(clause, "the group has no figure on the table"));
        };
        let moves = group_move(s, g);
        if from.distance(to) - table::BASE > moves {
            return Err(illegal(
                clause,
                format!(
                    "{} cannot reach {} this move: it is {} away and they move {}",
                    group_name(s, g),
                    group_name(s, v),
                    super::inches(from.distance(to)),
                    super::inches(moves)
                ),
            ));
        }
        let reach = moves + table::BASE;
        let plan = table::plan_move(
            &s.scenario,
            from,
            to,
            reach,
            super::rules::group_mobility(s, g),
        )
        .map_err(|e| illegal(clause, e.to_string()))?;
        if plan.end.distance(to) > NEAR {
            return Err(illegal(
                clause,
                format!(
                    "{} cannot reach {} this move: {}",
                    group_name(s, g),
                    group_name(s, v),
                    plan.stopped
                        .map_or_else(|| "it is too far".to_owned(), |x| x.words)
                ),
            ));
        }
    }
    check_actions(s, &[g])?;
    Ok(vec![
        E::Spent { group: g },
        E::Boarded { group: g, worm: v },
    ])
}

/// The MiB study ("Each action spent studying lets the MiB player roll 1D6
/// for each group on the table. A 6 is a success ... only available once
/// per different alien").
fn study(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    check_group(s, seat, g)?;
    if !s.faction(seat).rules.study {
        return Err(illegal(
            "MiB",
            format!("{} do not study aliens", s.faction(seat).name),
        ));
    }
    if s.group(g).role == GroupRole::CleanUp {
        return Err(illegal(
            "MiB",
            "deployed Clean Up teams do not add to study rolls",
        ));
    }
    let waiting: Vec<String> = s
        .killed_species
        .iter()
        .filter(|sp| !s.studied.contains(sp))
        .map(String::from)
        .collect();
    if waiting.is_empty() {
        return Err(illegal(
            "MiB",
            "there is nothing to study: no alien species not yet studied has been killed",
        ));
    }
    check_actions(s, &[g])?;
    let groups = s
        .groups
        .iter()
        .filter(|x| x.seat == seat && x.role == GroupRole::Line && x.on_table())
        .count();
    let dice = rng.roll(groups.max(1), 6)?;
    let sixes = dice.iter().filter(|&&d| d == 6).count();
    let species = waiting.into_iter().take(sixes).collect();
    Ok(vec![E::Spent { group: g }, E::Studied { dice, species }])
}

fn worm(s: &InvasionState, seat: u8, g: GroupId) -> Result<(), RuleError> {
    check_group(s, seat, g)?;
    if !s.is_worm(g) {
        return Err(illegal(
            "Spugs",
            format!("{} is not a Burrower", group_name(s, g)),
        ));
    }
    Ok(())
}

/// "Burrowers spend 1 action to tunnel down ... Accompanying Spug squads are
/// carried down and along for free ... Place a Spug hole at burrow points."
fn burrow(s: &InvasionState, seat: u8, g: GroupId, carry: &[GroupId]) -> Result<Vec<E>, RuleError> {
    worm(s, seat, g)?;
    on_table(s, g, "tunnel down")?;
    not_locked(s, g)?;
    check_actions(s, &[g])?;
    let at = s.group(g).points().first().copied();
    let mut out = vec![E::Spent { group: g }, E::WentBelow { group: g, at }];
    for &c in carry {
        check_group(s, seat, c)?;
        on_table(s, c, "be carried")?;
        not_locked(s, c)?;
        if s.is_worm(c) || s.is_mites(c) {
            return Err(illegal("Spugs", "a Burrower carries Spug squads"));
        }
        let (a, b) = (s.group(g).points(), s.group(c).points());
        if !a.is_empty() && !b.is_empty() && !table::in_contact(&a, &b) {
            return Err(illegal(
                "Spugs",
                format!("{} is not next to the Burrower", group_name(s, c)),
            ));
        }
        out.push(E::Boarded { group: c, worm: g });
    }
    if let Some(at) = at
        && !s.holes.iter().any(|h| h.distance(at) <= NEAR)
        && holes_left(s, seat) > 0
    {
        out.push(E::HoleDug { seat, at });
    }
    Ok(out)
}

fn holes_left(s: &InvasionState, seat: u8) -> u8 {
    s.holes_left
        .iter()
        .find(|(x, _)| *x == seat)
        .map_or(0, |(_, n)| *n)
}

/// "1 to surface ... Surfacing at an existing Spug hole does not require an
/// action for the Worm"; "Burrowers can attack in melee if they appear next
/// to a group of enemies."
fn surface(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    to: Option<Point>,
    hole: Option<u8>,
    declare: &Declared,
) -> Result<Vec<E>, RuleError> {
    worm(s, seat, g)?;
    if s.group(g).place != Place::Below {
        return Err(illegal("Spugs", "the Burrower is not below the table"));
    }
    let mut out = Vec::new();
    let at = match (hole, to) {
        (Some(i), _) => Some(
            *s.holes
                .get(i as usize)
                .ok_or_else(|| illegal("Spugs", format!("there is no Spug hole {i}")))?,
        ),
        (None, Some(p)) => {
            if !table::on_table(&s.scenario, p) {
                return Err(illegal("Spugs", "that point is off the table"));
            }
            check_actions(s, &[g])?;
            out.push(E::Spent { group: g });
            if !s.holes.iter().any(|h| h.distance(p) <= NEAR) {
                if holes_left(s, seat) == 0 {
                    return Err(illegal(
                        "Spugs",
                        "the Spugs have no holes left to build: surface at an existing hole",
                    ));
                }
                out.push(E::HoleDug { seat, at: p });
            }
            Some(p)
        }
        (None, None) => {
            if !s.real_table {
                return Err(illegal("Spugs", "give the hole or the point to surface at"));
            }
            check_actions(s, &[g])?;
            out.push(E::Spent { group: g });
            None
        }
    };
    let n = s.group(g).alive_count();
    out.push(E::Surfaced {
        group: g,
        to: vec![at; n.min(1)]
            .into_iter()
            .chain(std::iter::repeat_n(None, n.saturating_sub(1)))
            .collect(),
    });
    let contacts: Vec<GroupId> = match (declare.contact, at) {
        (Some(c), _) => vec![declared_contact(s, seat, c)?],
        (None, Some(p)) => enemy_groups(s, seat)
            .into_iter()
            .filter(|&o| table::in_contact(&[p], &s.group(o).points()))
            .collect(),
        _ => Vec::new(),
    };
    lock(s, g, &contacts, declare.defends, &mut out);
    Ok(out)
}

/// "... but require an action to deploy on the surface."
fn deploy(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    declare: &Declared,
) -> Result<Vec<E>, RuleError> {
    check_group(s, seat, g)?;
    let Place::Carried(w) = s.group(g).place else {
        return Err(illegal(
            "Spugs",
            format!("{} is not carried by a Burrower", group_name(s, g)),
        ));
    };
    if s.group(w).place != Place::Table {
        return Err(illegal("Spugs", "its Burrower has not surfaced"));
    }
    check_actions(s, &[g])?;
    let n = s.group(g).alive_count();
    let at = s.group(w).points().first().copied();
    let to: Vec<Option<Point>> = match at {
        Some(at) if !s.real_table => {
            let mut avoid = all_points(s, None);
            avoid.push(at);
            table::place_next_to(&s.scenario, at, n, &avoid)
                .into_iter()
                .map(Some)
                .collect()
        }
        _ => vec![None; n],
    };
    let mine: Vec<Point> = to.iter().flatten().copied().collect();
    let mut out = vec![E::Spent { group: g }, E::Surfaced { group: g, to }];
    let contacts: Vec<GroupId> = match declare.contact {
        Some(c) => vec![declared_contact(s, seat, c)?],
        None => enemy_groups(s, seat)
            .into_iter()
            .filter(|&o| table::in_contact(&mine, &s.group(o).points()))
            .collect(),
    };
    lock(s, g, &contacts, declare.defends, &mut out);
    Ok(out)
}

/// "An opponent of the Spugs may take an action with a whole group to close a hole."
fn close_hole(s: &InvasionState, seat: u8, g: GroupId, hole: u8) -> Result<Vec<E>, RuleError> {
    check_group(s, seat, g)?;
    on_table(s, g, "close a hole")?;
    not_locked(s, g)?;
    let Some(&at) = s.holes.get(hole as usize) else {
        return Err(illegal("Spugs", format!("there is no Spug hole {hole}")));
    };
    if s.faction(seat).rules.holes > 0 {
        return Err(illegal(
            "Spugs",
            "only an opponent of the Spugs closes their holes",
        ));
    }
    let group = s.group(g);
    if group.placed() && !group.points().iter().any(|p| p.distance(at) <= NEAR) {
        return Err(illegal(
            "Spugs",
            "the group must be at the hole to close it",
        ));
    }
    check_actions(s, &[g])?;
    Ok(vec![E::Spent { group: g }, E::HoleClosed { at }])
}

/// "Mites ... may be exploded by their Controller as an action for a 6 inch
/// radius blast effect of 4D6, any other mites caught in an explosion will
/// blow up also and this damage will be linked to the previous damage."
fn detonate(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    mite: &str,
    caught: &[GroupId],
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    check_group(s, seat, g)?;
    on_table(s, g, "detonate Mites")?;
    let group = s.group(g);
    let faction = s.faction(seat);
    if !group
        .alive()
        .any(|m| faction.model(&m.kind).is_some_and(|t| t.controller))
    {
        return Err(illegal(
            "Spugs",
            format!("{} has no Controller", group_name(s, g)),
        ));
    }
    let Some((mg, first)) = s.groups.iter().enumerate().find_map(|(i, x)| {
        (x.seat == seat && x.on_table())
            .then(|| {
                x.alive()
                    .find(|m| m.id == mite && faction.model(&m.kind).is_some_and(|t| t.mite))
            })
            .flatten()
            .map(|m| (i as GroupId, m.clone()))
    }) else {
        return Err(illegal(
            "Spugs",
            format!("{mite} is not a living Mite on the table"),
        ));
    };
    check_actions(s, &[g])?;
    let mut out = vec![E::Spent { group: g }];
    // "a 6 inch radius blast effect"; the battle option
    // `mite_blast_template` reads it as the game's 'Blast' area, "a six inch
    // diameter circle" (contested: the two clauses disagree).
    let blast = if s.mite_blast_template {
        MITE_BLAST / 2
    } else {
        MITE_BLAST
    };
    // The chain: every Mite within the blast of an exploding one explodes.
    let mut exploded: Vec<(GroupId, String, Option<Point>)> =
        vec![(mg, String::from(&first.id), first.at)];
    let mut i = 0;
    while i < exploded.len() {
        if let Some(at) = exploded[i].2 {
            for (j, x) in s.groups.iter().enumerate() {
                if !x.on_table() {
                    continue;
                }
                for m in x.alive() {
                    let is_mite = s.model_type(x.seat, &m.kind).is_some_and(|t| t.mite);
                    if is_mite
                        && m.at.is_some_and(|p| p.distance(at) <= blast)
                        && !exploded.iter().any(|(_, id, _)| *id == m.id)
                    {
                        exploded.push((j as GroupId, String::from(&m.id), m.at));
                    }
                }
            }
        }
        i += 1;
    }
    let mut all = Vec::new();
    for (eg, id, _) in &exploded {
        let dice = rng.roll(MITE_DICE, 6)?;
        all.extend(dice.iter().copied());
        out.push(E::Detonated {
            group: *eg,
            model: id.clone(),
            dice,
        });
    }
    let total: u32 = all.iter().map(|&d| u32::from(d)).sum();
    let centres: Vec<Point> = exploded.iter().filter_map(|(_, _, p)| *p).collect();
    let mut made = 0;
    for (j, x) in s.groups.iter().enumerate() {
        let j = j as GroupId;
        if !x.on_table() {
            continue;
        }
        let inside: Vec<String> = if centres.is_empty() || !x.placed() {
            if caught.contains(&j) {
                x.alive()
                    .filter(|m| !exploded.iter().any(|(_, id, _)| *id == m.id))
                    .map(|m| String::from(&m.id))
                    .collect()
            } else {
                Vec::new()
            }
        } else {
            x.alive()
                .filter(|m| !exploded.iter().any(|(_, id, _)| *id == m.id))
                .filter(|m| {
                    m.at.is_some_and(|p| centres.iter().any(|c| c.distance(p) <= blast))
                })
                .map(|m| String::from(&m.id))
                .collect()
        };
        if inside.is_empty() {
            continue;
        }
        let cover = cover_of(s, j, None).0;
        let d = super::rules::assess(s, j, total, cover, &inside);
        out.push(E::Shared {
            group: j,
            dice: all.clone(),
            total,
            kill_score: d.kill_score,
            kills: d.kills,
        });
        if d.kills > 0 && x.seat != seat && !d.mixed {
            made += d.kills;
        }
        super::rules::inflict(s, j, d, total, cover, inside, (seat, Some(g)), &mut out);
    }
    if made > 0 {
        // The kills are the Mites' that blew up, a share each (4D6 each).
        out.push(E::Credited {
            seat,
            group: Some(g),
            kills: made,
        });
        let mites: Vec<(String, u32)> = exploded.iter().map(|(_, id, _)| (id.clone(), 1)).collect();
        let split = super::rules::split_credit(made, &mites);
        if !split.is_empty() {
            out.push(E::ModelsCredited { kills: split });
        }
    }
    Ok(out)
}

fn vtol(s: &InvasionState, seat: u8, g: GroupId) -> Result<(), RuleError> {
    check_group(s, seat, g)?;
    if super::rules::group_mobility(s, g) != Mobility::Vtol {
        return Err(illegal(
            "Vehicle movement",
            format!("{} is not a helicopter or VTOL craft", group_name(s, g)),
        ));
    }
    Ok(())
}

/// "Helicopters and other VTOL craft use an action to take off".
fn take_off(s: &InvasionState, seat: u8, g: GroupId) -> Result<Vec<E>, RuleError> {
    vtol(s, seat, g)?;
    if s.group(g).place == Place::Air {
        return Err(illegal(
            "Vehicle movement",
            format!("{} is already in the air", group_name(s, g)),
        ));
    }
    on_table(s, g, "take off")?;
    not_locked(s, g)?;
    check_actions(s, &[g])?;
    Ok(vec![E::Spent { group: g }, E::TookOff { group: g }])
}

fn in_the_air(s: &InvasionState, g: GroupId) -> Result<(), RuleError> {
    if s.group(g).place != Place::Air {
        return Err(illegal(
            "Vehicle movement",
            format!("{} must take off first", group_name(s, g)),
        ));
    }
    Ok(())
}

/// "... another action to travel anywhere".
fn fly(s: &InvasionState, seat: u8, g: GroupId, to: Option<Point>) -> Result<Vec<E>, RuleError> {
    vtol(s, seat, g)?;
    in_the_air(s, g)?;
    let group = s.group(g);
    let n = group.alive_count();
    let points = match to {
        Some(p) => {
            if !group.placed() {
                return Err(illegal(
                    "Vehicle movement",
                    format!(
                        "{} has no positions on the table: fly it at the table (no point)",
                        group_name(s, g)
                    ),
                ));
            }
            if !table::on_table(&s.scenario, p) {
                return Err(illegal("Vehicle movement", "that point is off the table"));
            }
            let mut avoid = all_points(s, Some(g));
            standing_room(s, &avoid, p, "Vehicle movement")?;
            avoid.push(p);
            let mut pts = vec![Some(p)];
            pts.extend(
                table::place_next_to(&s.scenario, p, n - 1, &avoid)
                    .into_iter()
                    .map(Some),
            );
            pts
        }
        None => {
            if !s.real_table && group.placed() {
                return Err(illegal(
                    "Vehicle movement",
                    "give the point the craft travels to (or play the battle at a real table)",
                ));
            }
            vec![None; n]
        }
    };
    check_actions(s, &[g])?;
    Ok(vec![
        E::Spent { group: g },
        E::Moved {
            group: g,
            to: points,
            lead: 0,
            stopped: None,
            declared_cover: None,
            face: None,
        },
    ])
}

/// "... and a third action to land". Landing in base contact with an enemy
/// group locks them in hand-to-hand, as a move would.
fn land(s: &InvasionState, seat: u8, g: GroupId, declare: &Declared) -> Result<Vec<E>, RuleError> {
    vtol(s, seat, g)?;
    in_the_air(s, g)?;
    check_actions(s, &[g])?;
    let mut out = vec![E::Spent { group: g }, E::Landed { group: g }];
    let contacts: Vec<GroupId> = match declare.contact {
        Some(c) => vec![declared_contact(s, seat, c)?],
        None => enemy_groups(s, seat)
            .into_iter()
            .filter(|&o| table::in_contact(&s.group(g).points(), &s.group(o).points()))
            .collect(),
    };
    lock(s, g, &contacts, declare.defends, &mut out);
    Ok(out)
}

/// Manholes and Spug holes: the ways into the sewers.
pub fn sewer_points(s: &InvasionState) -> Vec<Point> {
    let mut v = s.scenario.manholes.clone();
    v.extend(s.holes.iter().copied());
    v
}

fn sewer_group(s: &InvasionState, seat: u8, g: GroupId) -> Result<(), RuleError> {
    if !s.sewers {
        return Err(illegal(
            "Sewers",
            "this battle is not played with the sewers rule",
        ));
    }
    check_group(s, seat, g)?;
    if s.is_worm(g) {
        return Err(illegal("Sewers", "a Burrower tunnels instead"));
    }
    if matches!(
        super::rules::group_mobility(s, g),
        Mobility::Vehicle { .. } | Mobility::Vtol
    ) {
        return Err(illegal("Sewers", "vehicles do not go down manholes"));
    }
    Ok(())
}

/// "descending (1 Action)".
fn descend(s: &InvasionState, seat: u8, g: GroupId) -> Result<Vec<E>, RuleError> {
    sewer_group(s, seat, g)?;
    on_table(s, g, "descend")?;
    not_locked(s, g)?;
    let group = s.group(g);
    let ways = sewer_points(s);
    let at = if group.placed() {
        let near = ways
            .iter()
            .copied()
            .find(|w| group.points().iter().any(|p| p.distance(*w) <= NEAR));
        if near.is_none() {
            return Err(illegal(
                "Sewers",
                "the group must be at a manhole or a Spug hole",
            ));
        }
        near
    } else {
        None
    };
    check_actions(s, &[g])?;
    Ok(vec![E::Spent { group: g }, E::WentBelow { group: g, at }])
}
