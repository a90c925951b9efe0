//! Advanced Invasion Earth (rule text 001): the modules of fire and sight:
//! "Suppression Fire", "Observers" and "Sighting a Target" (with
//! "Perception").
//!
//! The text's strike roll is one die per model against the score it needs;
//! Alien Invasion totals a group's dice against a kill score. Each "one
//! above" or "one below" the score needed becomes **one point a die rolled**
//! (assumed: a die that needs one more is worth one less), so a section
//! rolling 8D6 suppresses a target it would kill on 24 with 16 or more
//! (24 - 8) and strikes it directly only with 32 or more (24 + 8), the kills
//! counted from the total less 8. Modifiers "on the dice roll" (-2 for a
//! suppressed shooter, -1 with no line of sight, +1 with information
//! relayed, +1 for an L.M.G.) are so much a die the same way. Every
//! adaptation is listed in `RULES.md`.

use serde::{Deserialize, Serialize};

use super::actions::{Aim, aim};
use super::advanced::{Module, Weapon};
use super::model::{Cover, INCH, Point};
use super::rules::{Declared, group_name, kill_score};
use super::state::{GroupId, InvasionEvent as E, InvasionState, Model, Place};
use super::table;
use crate::game::RuleError;
use crate::rng::Randomness;

/// Radius of the text's MEDIUM BLAST TEMPLATE (assumed: 3" across).
pub const MEDIUM_TEMPLATE: i32 = 3 * INCH / 2;
/// Alien Invasion's one 'Blast' area, "a six inch diameter circle": its
/// radius (the default for both of Suppression Fire's templates).
pub const BLAST_TEMPLATE: i32 = 3 * INCH;
/// Radius of the GIANT BLAST TEMPLATE (assumed: 5" across).
pub const GIANT_TEMPLATE: i32 = 5 * INCH / 2;
/// "Radio operators are able to relay information (by word of mouth) to any
/// models within 5"."
pub const RELAY_RANGE: i32 = 5 * INCH;
/// "a leader model, who is in turn in Line of Sight and within 10" of the
/// active model".
pub const LEADER_RANGE: i32 = 10 * INCH;

fn illegal(clause: &str, msg: impl Into<String>) -> RuleError {
    RuleError::illegal(clause, msg)
}

/// What a suppressing shot did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SuppressResult {
    /// Below "1 below": nothing.
    Missed,
    /// "1 below" or "the same" (and, against cover, "1 above"; and "2
    /// above" against full cover).
    Suppressed,
    /// "1 above" against the target itself; "2 above" against partial
    /// cover; "3 above" against full cover.
    Strike,
}

fn weapon(s: &InvasionState, seat: u8, m: &Model) -> Option<Weapon> {
    s.model_type(seat, &m.kind).and_then(|t| t.profile.weapon)
}

/// A group fires indirectly: the Observers module is on and every living
/// figure of it that shoots carries a weapon that needs no line of sight.
pub fn indirect(s: &InvasionState, g: GroupId) -> bool {
    let group = s.group(g);
    let mut shooting = group
        .alive()
        .filter(|m| {
            s.model_type(group.seat, &m.kind)
                .is_some_and(|t| t.shoot > 0)
        })
        .peekable();
    s.advanced.on(Module::Observers)
        && shooting.peek().is_some()
        && shooting.all(|m| weapon(s, group.seat, m) == Some(Weapon::Indirect))
}

/// Unstoppable Force: the module is on and a living figure of the group
/// has the profile (the group moves as one, at its slowest: assumed, one
/// unstoppable figure opens the way for the rest).
pub fn unstoppable(s: &InvasionState, g: GroupId) -> bool {
    let group = s.group(g);
    s.advanced.on(Module::Unstoppable)
        && group.alive().any(|m| {
            s.model_type(group.seat, &m.kind)
                .is_some_and(|t| t.profile.unstoppable)
        })
}

/// "Buildings and LOS": a group whose every figure is inside a building
/// and which is not at the windows and doors (it has not fired since it
/// last moved, or let its faction's last card pass without firing, and it
/// is not laying in wait: "it is the only way it would be able to fire out
/// during his turn (or when LAYING IN WAIT)", A14; to assault as well, A20).
pub fn hidden_in_building(s: &InvasionState, g: GroupId) -> bool {
    s.advanced.on(Module::Buildings)
        && !s.real_table
        && s.groups.get(g as usize).is_some_and(|x| x.placed())
        && !s.advanced.at_windows.contains(&g)
        && super::wait::waiting(s, g).is_none()
        && super::rules::cover_of(s, g, None).0 == Cover::Building
}

/// Whether a figure at one of `from` stands in a building feature that also
/// holds a figure of `target`.
fn inside_with(s: &InvasionState, from: &[Point], target: GroupId) -> bool {
    let theirs: Vec<usize> = s
        .group(target)
        .points()
        .iter()
        .filter_map(|p| table::feature_at(&s.scenario, *p))
        .filter(|&i| s.scenario.terrain[i].cover == Cover::Building)
        .collect();
    !theirs.is_empty()
        && from
            .iter()
            .any(|p| table::feature_at(&s.scenario, *p).is_some_and(|i| theirs.contains(&i)))
}

/// "Buildings and LOS" for figures at `from`: `target` is inside a building
/// away from its windows and none of those figures stands in that building
/// with it (assumption A18: the walls hide a group from those outside, not
/// from its neighbours inside).
pub fn hidden_from(s: &InvasionState, from: &[Point], target: GroupId) -> bool {
    hidden_in_building(s, target) && !inside_with(s, from, target)
}

/// "models that are inside buildings can only be targeted if they are
/// standing at windows, or in doorways": refused for figures at `from`
/// outside the target's building (A18).
pub fn check_windows(s: &InvasionState, from: &[Point], target: GroupId) -> Result<(), RuleError> {
    if hidden_from(s, from, target) {
        return Err(illegal(
            "Buildings and LOS",
            format!(
                "{} is inside a building, away from its windows and doors: it cannot be seen or sighted",
                group_name(s, target)
            ),
        ));
    }
    Ok(())
}

/// Whether group `g`, its figures at `from`, sees `target` where it stands:
/// a clear line past every other group in between, and the target not
/// inside a building away from its windows ("Buildings and LOS": "At any
/// other time models in buildings will be outside LOS"), unless `g` stands
/// in that building with it (A18). `g`'s own place does not count: a group
/// that fires comes to its windows to do so (KILL...EVERYBODY).
pub fn sees_from(s: &InvasionState, g: GroupId, from: &[Point], target: GroupId) -> bool {
    let others = super::actions::blockers(s, g, target);
    !hidden_from(s, from, target)
        && table::line_of_sight(&s.scenario, from, &s.group(target).points(), &others)
            .clear
            .is_some()
}

/// [`sees_from`] for a group that is not firing (Fear's "line of sight
/// required", Impetuous's "nearest enemy model they can see"): line of sight
/// runs both ways, so a group inside a building away from its windows does
/// not see out either ("the only way it would be able to fire out"), only
/// its neighbours in the same building (A18).
pub fn sees_out_from(s: &InvasionState, g: GroupId, from: &[Point], target: GroupId) -> bool {
    sees_from(s, g, from, target) && !hidden_from(s, &s.group(target).points(), g)
}

/// Primitive Weapons: the shooting dice of `g`'s living figures with
/// primitive weapons, when the module is on and `target` has a living
/// armoured figure (the text's list of whom they cannot harm is lost: the
/// profile flag `armoured` says it, assumed).
pub fn primitive_dice(s: &InvasionState, g: GroupId, target: GroupId) -> usize {
    if !s.advanced.on(Module::Primitive) {
        return 0;
    }
    let Some(t) = s.groups.get(target as usize) else {
        return 0;
    };
    let armoured = t.alive().any(|m| {
        s.model_type(t.seat, &m.kind)
            .is_some_and(|x| x.profile.armoured)
    });
    if !armoured {
        return 0;
    }
    let group = s.group(g);
    group
        .alive()
        .filter_map(|m| s.model_type(group.seat, &m.kind))
        .filter(|x| x.profile.weapon == Some(Weapon::Primitive))
        .map(|x| usize::from(x.shoot))
        .sum()
}

/// The group is suppressed (until the end of its faction's next card).
pub fn suppressed(s: &InvasionState, g: GroupId) -> bool {
    s.advanced.suppressed.contains(&g)
}

/// The per-die modifiers of an aimed shot, in words: "FIRE - At -2 to
/// strike" for a suppressed group; -1 for firing with "NO LINE OF SIGHT";
/// +1 for "information relayed to them".
pub fn shot_modifiers(
    s: &InvasionState,
    per_group: &[(GroupId, usize)],
    unseen: &[GroupId],
    target: GroupId,
) -> Vec<(i32, String)> {
    let mut out = Vec::new();
    for &(g, n) in per_group {
        let n = n as i32;
        if suppressed(s, g) {
            out.push((
                -2 * n,
                format!("-2 a die: {} is suppressed", group_name(s, g)),
            ));
        }
        // "the laying in wait model does however suffer a -1 dice modifier,
        // due to the fact he has not pre-sighted or aimed at his target".
        if super::wait::waiting(s, g).is_some()
            && s.card()
                .and_then(|c| c.seat)
                .is_some_and(|seat| seat != s.group(g).seat)
        {
            out.push((
                -n,
                format!(
                    "-1 a die: {} fires from laying in wait, not aimed",
                    group_name(s, g)
                ),
            ));
        }
        if super::fly::at_flyer(s, target) {
            out.push((-n, format!("-1 a die: {} is flying", group_name(s, target))));
        }
        if unseen.contains(&g) {
            out.push((
                -n,
                format!("-1 a die: {} has no line of sight", group_name(s, g)),
            ));
        }
        // "Any firing models, which have information relayed to them (via
        // comm. link or radio operator), receive a strike modifier of +1":
        // relayed fire, seen or unseen; "Observers can only be used to
        // direct fire from weapons that do not require LOS", so only such
        // weapons gain it.
        if s.advanced.informed.contains(&(g, target)) && indirect(s, g) {
            out.push((
                n,
                format!(
                    "+1 a die: observers relayed where {} is",
                    group_name(s, target)
                ),
            ));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Sighting a Target

/// A leader of the group's faction (in any of its groups) sees the target,
/// and sees and is within 10" of the group.
fn leader_sees(s: &InvasionState, g: GroupId, target: GroupId) -> Option<GroupId> {
    let seat = s.group(g).seat;
    let mine = start_points(s, g);
    let theirs = start_points(s, target);
    (0..s.groups.len() as GroupId).find(|&l| {
        let group = s.group(l);
        if group.seat != seat {
            return false;
        }
        // A leader killed on the card stood where he saw the target and his
        // troops when it began, the criteria's moment (rules version 10).
        // The blockers are the same for every leader of the group: traced
        // once, when a leader is met (review21 NOTE 2).
        let mut blockers = None;
        group
            .models
            .iter()
            .filter(|m| stood_at_start(s, l, m))
            .any(|m| {
                let leader = s
                    .model_type(seat, &m.kind)
                    .is_some_and(|t| t.profile.leader);
                let Some(at) = start_of(s, m).filter(|_| leader) else {
                    return false;
                };
                let near = mine.iter().any(|p| p.distance(at) <= LEADER_RANGE);
                let others = blockers.get_or_insert_with(|| blockers_at_start(s, l, target));
                let sees_target = !hidden_from(s, &[at], target)
                    && table::line_of_sight(&s.scenario, &[at], &theirs, others)
                        .clear
                        .is_some();
                let sees_group = l == g
                    || table::line_of_sight(&s.scenario, &[at], &mine, &[])
                        .clear
                        .is_some();
                near && sees_target && sees_group
            })
    })
}

/// "A Controller can direct the mites to a target he can see without having
/// to see their path to it so the mites can be sent on flanking moves": a
/// Mites group's target is sighted when a living Controller of its faction
/// (in any of its groups, at any range) saw it when the card began.
fn controller_sees(s: &InvasionState, g: GroupId, target: GroupId) -> Option<GroupId> {
    if !s.is_mites(g) {
        return None;
    }
    let seat = s.group(g).seat;
    let theirs = start_points(s, target);
    (0..s.groups.len() as GroupId).find(|&l| {
        let group = s.group(l);
        group.seat == seat
            && group.on_table()
            && group.alive().any(|m| {
                let controller = s.model_type(seat, &m.kind).is_some_and(|t| t.controller);
                start_of(s, m).filter(|_| controller).is_some_and(|at| {
                    let others = blockers_at_start(s, l, target);
                    !hidden_from(s, &[at], target)
                        && table::line_of_sight(&s.scenario, &[at], &theirs, &others)
                            .clear
                            .is_some()
                })
            })
    })
}

/// Where a figure stood when the current card began ("certain criteria
/// must be met at the beginning of the active player's turn"): nowhere for
/// a figure that came onto the table on the card.
fn start_of(s: &InvasionState, m: &super::state::Model) -> Option<Point> {
    s.card_start_of(m)
}

/// A figure has moved, left the table, come onto it or been killed on it
/// (rules version 9) on the current card: the table no longer stands as the
/// card began.
fn table_changed(s: &InvasionState) -> bool {
    !s.card_start.is_empty() || !s.card_absent.is_empty()
}

/// Where a group's figures stood when the current card began: the living
/// ones and those killed on the card. "In order for a model to 'sight a
/// target' certain criteria must be met at the beginning of the active
/// player's turn": a target group in sight then through a figure killed
/// later on the card was sighted, and a group whose figure that saw the
/// target then has fallen had sighted it (rules version 10; until then only
/// the living looked and were looked at).
pub fn start_points(s: &InvasionState, g: GroupId) -> Vec<Point> {
    s.group(g)
        .models
        .iter()
        .filter(|m| m.alive || killed_on_card(s, m))
        .filter_map(|m| start_of(s, m))
        .collect()
}

/// A figure of group `g` stood on the table when the card began: alive on
/// it now, killed on it on the card, or alive and gone off it on the card
/// (below it, aboard a Burrower), its place then noted when it left (rules
/// version 10, review19 SHOULD 1: as the dead, they stood where they stood).
/// Not a figure whose group left the table for good (Stupidity's AWOL), nor
/// one of a VTOL that took off (its place is not noted when it lifts off).
fn stood_at_start(s: &InvasionState, g: GroupId, m: &Model) -> bool {
    let group = s.group(g);
    (m.alive && group.on_table())
        || killed_on_card(s, m)
        || (m.alive
            && matches!(group.place, Place::Below | Place::Carried(_))
            && noted_on_card(s, m))
}

/// The group a figure charged in from, when it charged on the current card
/// and merged into its faction's group in a fight (`Merged` keeps it as
/// the figure's `origin`; `moved` holds the charger's id): such figures are
/// their own unit as the card began, as they fought no one then (rules
/// version 10, review21 MUST 1).
fn charged_in(s: &InvasionState, m: &Model) -> Option<GroupId> {
    m.origin.filter(|o| s.moved.contains(o))
}

/// Where each unit's figures that stood on the table when the card began
/// stood then, indexed by the unit's id: a group's figures, less those that
/// charged in from another group on the card (`charged_in`), which stand
/// under their origin's id with that group's dead. The groups in `whole`
/// (the target, the looking group) are taken whole.
fn units_at_start(s: &InvasionState, whole: &[GroupId]) -> Vec<Vec<Point>> {
    let mut at = vec![Vec::new(); s.groups.len()];
    for (g, group) in s.groups.iter().enumerate() {
        let g = g as GroupId;
        for m in group.models.iter().filter(|m| stood_at_start(s, g, m)) {
            let unit = match charged_in(s, m) {
                Some(o) if !whole.contains(&g) => o,
                _ => g,
            };
            if let Some(p) = start_of(s, m) {
                at[unit as usize].push(p);
            }
        }
    }
    at
}

/// The units (`units_at_start`) fighting in `target`'s melee when the
/// current card began ("Hand-to-hand: locked on base contact"), `target`
/// first: every unit in base contact, where its figures stood then (the
/// dead of the card included), with an enemy already counted, from the
/// target outwards. The locks as they are now do not say it: a group
/// fighting the target then may have left the fight on the card (broken
/// off, run away, escaped a grapple), and charged it again; one fighting
/// elsewhere may have been pulled in, and the target pushed into another
/// fight (review19 MUST 1, SHOULD 2); a charger merged into a group
/// already in the fight is its own unit (review21 MUST 1). When no group
/// of the target's fight now moved on the card, holds a figure that
/// charged in (`charged_in`) or one that came onto the table on it (a
/// deploy, a surfacing, a landing: review21 SHOULD 1), its lock now is
/// its lock then ("cannot move until it is resolved"), and its groups are
/// counted too, those whose figures in contact were killed since included.
fn fight_at_start(s: &InvasionState, target: GroupId, at: &[Vec<Point>]) -> Vec<GroupId> {
    let all = 0..s.groups.len() as GroupId;
    let mut fight = vec![target];
    let mut next = 0;
    while let Some(&f) = fight.get(next) {
        let touching: Vec<GroupId> = all
            .clone()
            .filter(|&o| !fight.contains(&o) && s.group(o).seat != s.group(f).seat)
            .filter(|&o| table::in_contact(&at[o as usize], &at[f as usize]))
            .collect();
        fight.extend(touching);
        next += 1;
    }
    if let Some(melee) = s.group(target).locked {
        let now: Vec<GroupId> = all
            .filter(|&o| s.group(o).on_table() && s.group(o).locked == Some(melee))
            .collect();
        let joined = |o: &GroupId| {
            s.moved.contains(o)
                || s.group(*o)
                    .models
                    .iter()
                    .any(|m| charged_in(s, m).is_some() || s.card_absent.contains(&m.id))
        };
        if !now.iter().any(joined) {
            fight.extend(
                now.into_iter()
                    .filter(|o| !fight.contains(o))
                    .collect::<Vec<_>>(),
            );
        }
    }
    fight
}

/// The units (`units_at_start`) that may block a line of sight to
/// `target`, each where its figures stood when the current card began
/// (`stood_at_start`): the living ones on the table, those killed on the
/// card and those gone below or aboard on it ("Line of sight will be
/// blocked by intervening groups", the table as it stood "at the beginning
/// of the active player's turn"; rules version 9), so a group wiped out on
/// the card still blocks the line traced as the card began. Not a group
/// that left the table alive for good (Stupidity's AWOL: "it will keep on
/// running, and never be seen again"), and not one fighting the target when
/// the card began (`fight_at_start`), as those fighting it block nothing,
/// whatever it did on the card (rules version 10; until then the lock as it
/// is now decided); a charger merged on the card into a group fighting the
/// target blocks where it stood (review21 MUST 1).
fn blockers_at_start(
    s: &InvasionState,
    from: GroupId,
    target: GroupId,
) -> Vec<(usize, Vec<Point>)> {
    let at = units_at_start(s, &[from, target]);
    let fight = fight_at_start(s, target, &at);
    at.into_iter()
        .enumerate()
        .filter(|(o, points)| {
            *o != from as usize && !fight.contains(&(*o as GroupId)) && !points.is_empty()
        })
        .collect()
}

/// A figure killed on the current card on the table: its place then was
/// noted when it fell (`state::note_card_start_of_the_killed`).
fn killed_on_card(s: &InvasionState, m: &Model) -> bool {
    !m.alive && noted_on_card(s, m)
}

/// The figure's place when the card began was noted on the card (it moved,
/// left the table or was killed on it).
fn noted_on_card(s: &InvasionState, m: &Model) -> bool {
    s.card_start.iter().any(|(id, _)| *id == m.id)
}

/// The group saw `target` when the card began: its figures, the target's
/// and every group that may stand between them where they stood then (a
/// friend that moves out of the way on the card reveals nothing).
fn seen_at_start(s: &InvasionState, g: GroupId, target: GroupId) -> bool {
    let others = blockers_at_start(s, g, target);
    table::line_of_sight(
        &s.scenario,
        &start_points(s, g),
        &start_points(s, target),
        &others,
    )
    .clear
    .is_some()
}

/// How a group has sighted a target, in words, or `None`.
pub fn sighted_by(s: &InvasionState, g: GroupId, target: GroupId, seen: bool) -> Option<String> {
    if seen {
        return Some("in sight".into());
    }
    if s.advanced.informed.contains(&(g, target)) {
        return Some("relayed by observers".into());
    }
    if s.advanced.perceived.contains(&(g, target)) {
        return Some("perceived".into());
    }
    if !s.real_table
        && let Some(l) = leader_sees(s, g, target)
    {
        return Some(format!("pointed out by the leader of {}", group_name(s, l)));
    }
    if !s.real_table
        && let Some(l) = controller_sees(s, g, target)
    {
        return Some(format!(
            "directed by the Controller in {}",
            group_name(s, l)
        ));
    }
    None
}

/// "a model must first establish the location of his target ... before
/// making an offensive (ASSAULT, FIRE or MOVE and FIRE) move against them":
/// a group firing with no line of sight needs another way to have sighted
/// its target (a leader, observers, perception).
pub fn check_sighted(
    s: &InvasionState,
    shooters: &[GroupId],
    unseen: &[GroupId],
    target: GroupId,
    declare: &Declared,
) -> Result<(), RuleError> {
    if !s.advanced.on(Module::Sighting) {
        return Ok(());
    }
    for &g in shooters {
        let mut seen = !unseen.contains(&g) && (declare.sight != Some(false));
        // "In order for a model to 'sight a target' certain criteria must
        // be met at the beginning of the active player's turn": once a
        // figure has moved or been killed on the table on this card (rules
        // version 9) ("models making a MOVE round the
        // side of a house before FIREing at a target which they could not
        // have known was there", or a friend stepping out of the way), a
        // group sights only what it saw as the table stood when the card
        // began.
        if seen && !s.real_table && declare.sight.is_none() && table_changed(s) {
            seen = seen_at_start(s, g, target);
        }
        if sighted_by(s, g, target, seen).is_none() {
            return Err(not_sighted(s, g, target));
        }
    }
    Ok(())
}

fn not_sighted(s: &InvasionState, g: GroupId, target: GroupId) -> RuleError {
    illegal(
        "Sighting a Target",
        format!(
            "{} has not sighted {}: it needs it in sight, a leader within 10\" who sees it, \
             {}an observer's relayed information, or a perception test (perceive)",
            group_name(s, g),
            group_name(s, target),
            if s.is_mites(g) {
                "its Controller seeing it, "
            } else {
                ""
            }
        ),
    )
}

/// An assault (a move ending in contact) needs its target sighted from where
/// the group stood; a suppressed group may not assault ("TURN, FIRE, HIDE,
/// SNEAK" are all it may do).
pub fn check_assault(
    s: &InvasionState,
    g: GroupId,
    contacts: &[GroupId],
    declared: bool,
) -> Result<(), RuleError> {
    if contacts.is_empty() {
        return Ok(());
    }
    if super::wait::on_own_card(s, g) {
        return Err(illegal(
            "Laying in Wait",
            format!(
                "{} is laying in wait: it may only turn or sneak, not assault, on its own card",
                group_name(s, g)
            ),
        ));
    }
    if suppressed(s, g) {
        return Err(illegal(
            "Suppression Fire",
            format!(
                "{} is suppressed: it may turn, fire (at -2), hide or sneak, but not assault",
                group_name(s, g)
            ),
        ));
    }
    if !s.advanced.on(Module::Sighting) || declared || s.real_table {
        return Ok(());
    }
    // "If the controller is killed the mites can do nothing except charge
    // towards the nearest enemy (regardless of LOS) and attempt to melee
    // them": no sighting is asked of uncontrolled Mites.
    if s.is_mites(g) && s.mites_uncontrolled(s.group(g).seat) {
        return Ok(());
    }
    // Sighted from where the group stood when the card began ("models
    // rushing round walls to ASSAULT targets they could not see"). A group
    // inside a building away from its windows is out of sight of everyone
    // outside it, but a perception test may find it ("an enemy model has
    // moved; behind a wall, or into a house etc.": A18), and its neighbours
    // inside see it.
    for &c in contacts {
        let hidden = hidden_from(s, &start_points(s, g), c);
        let seen = !hidden && seen_at_start(s, g, c);
        if sighted_by(s, g, c, seen).is_none() {
            if hidden {
                return Err(illegal(
                    "Buildings and LOS",
                    format!(
                        "{} is inside a building, away from its windows and doors: it cannot be \
                         seen from outside, only perceived (perceive)",
                        group_name(s, c)
                    ),
                ));
            }
            return Err(not_sighted(s, g, c));
        }
    }
    Ok(())
}

/// "PERCEPTION (Your last chance to spot him)": a target within 8" is
/// perceived on a 6; leaders +1, and each campaign model's free +1 a battle
/// survived (the group's best). One test a target a card; it costs no action.
pub fn perceive(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    target: GroupId,
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    if !s.advanced.on(Module::Sighting) {
        return Err(illegal(
            "Sighting a Target",
            "Sighting a Target is not a module of this battle",
        ));
    }
    own_group(s, seat, g)?;
    enemy(s, seat, target)?;
    let a = &s.advanced;
    if a.perceived.contains(&(g, target)) || a.unperceived.contains(&(g, target)) {
        return Err(illegal(
            "Sighting a Target",
            format!(
                "{} has already tested to perceive {} on this card",
                group_name(s, g),
                group_name(s, target)
            ),
        ));
    }
    // No check of the windows: Perception finds "an enemy model [that] has
    // moved; behind a wall, or into a house etc." (A18).
    let tables = super::advanced::tables();
    if !s.real_table {
        // "it must first be within 8"", measured where the groups stood as
        // the card began, the criteria's moment ("models making a MOVE round
        // the side of a house before FIREing at a target which they could
        // not have known was there"). A group that came onto the table on
        // the card stood nowhere then, and perceives nothing.
        let mine = start_points(s, g);
        if mine.is_empty() {
            return Err(illegal(
                "Sighting a Target",
                format!(
                    "{} came onto the table on this card: as the card began it stood nowhere, \
                     so no target was within {} to be perceived",
                    group_name(s, g),
                    super::inches(tables.perception_range)
                ),
            ));
        }
        let theirs = start_points(s, target);
        let near = mine
            .iter()
            .flat_map(|p| theirs.iter().map(move |q| p.distance(*q)))
            .min()
            .unwrap_or(i32::MAX);
        if near > tables.perception_range {
            return Err(illegal(
                "Sighting a Target",
                format!(
                    "{} was {} away as the card began: a target must be within {} to be \
                     perceived",
                    group_name(s, target),
                    super::inches(near),
                    super::inches(tables.perception_range)
                ),
            ));
        }
        // "Your last chance to spot him": refused only for a target the
        // group has in sight by the criteria's own moment, "the beginning
        // of the active player's turn" (as an assault or a shot is judged),
        // so a group that walked into a house on the card may still
        // perceive the enemy it now stands beside (A18).
        if !hidden_from(s, &start_points(s, g), target) && seen_at_start(s, g, target) {
            return Err(illegal(
                "Sighting a Target",
                format!(
                    "{} was in sight of {} when the card began: it needs no perception test",
                    group_name(s, target),
                    group_name(s, g)
                ),
            ));
        }
    }
    let group = s.group(g);
    let leader = group.alive().any(|m| {
        s.model_type(seat, &m.kind)
            .is_some_and(|t| t.profile.leader)
    });
    let campaign = group.alive().map(|m| m.bonus.perception).max().unwrap_or(0);
    let bonus = if leader { tables.perception_leader } else { 0 }.saturating_add(campaign);
    let roll = rng.d6()?;
    Ok(vec![E::Perception {
        group: g,
        target,
        roll,
        leader,
        bonus,
        needs: tables.perception,
        perceived: roll.saturating_add(bonus) >= tables.perception,
    }])
}

fn own_group(s: &InvasionState, seat: u8, g: GroupId) -> Result<(), RuleError> {
    match s.groups.get(g as usize) {
        Some(x) if x.seat == seat && x.on_table() && x.alive_count() > 0 => Ok(()),
        Some(_) => Err(illegal(
            "Actions",
            format!(
                "{} is not one of your groups on the table",
                group_name(s, g)
            ),
        )),
        None => Err(illegal("Actions", format!("there is no group {g}"))),
    }
}

fn enemy(s: &InvasionState, seat: u8, g: GroupId) -> Result<(), RuleError> {
    match s.groups.get(g as usize) {
        Some(x) if x.seat != seat && x.on_table() && x.alive_count() > 0 => Ok(()),
        Some(_) => Err(illegal(
            "Actions",
            format!("{} is not an enemy group on the table", group_name(s, g)),
        )),
        None => Err(illegal("Actions", format!("there is no group {g}"))),
    }
}

// ---------------------------------------------------------------------------
// Observers

/// The observer figures of a group: (figure index, comm. link, radio).
fn observers(s: &InvasionState, g: GroupId) -> Vec<(usize, Point, bool, bool)> {
    let group = s.group(g);
    group
        .models
        .iter()
        .enumerate()
        .filter(|(_, m)| m.alive)
        .filter_map(|(i, m)| {
            let t = s.model_type(group.seat, &m.kind)?;
            (t.profile.comm_link || t.profile.radio).then(|| {
                (
                    i,
                    m.at.unwrap_or_default(),
                    t.profile.comm_link,
                    t.profile.radio,
                )
            })
        })
        .collect()
}

/// The group has a living radio operator or Comm. Link.
pub fn has_observer(s: &InvasionState, g: GroupId) -> bool {
    !observers(s, g).is_empty()
}

fn busy(s: &InvasionState, g: GroupId) -> Result<(), RuleError> {
    if s.spent.iter().any(|(x, n)| *x == g && *n > 0) {
        return Err(illegal(
            "Observers",
            format!(
                "{} has already acted on this card: observers relaying \"may not MOVE FAST or FIRE\" in the turn they relay",
                group_name(s, g)
            ),
        ));
    }
    Ok(())
}

/// "RELAYING INFORMATION": an observer group that sees the target passes
/// its position to the group `to`: directly (comm. links on both ends, or a
/// radio operator within 5" of `to`, by word of mouth) or through a second
/// radio operator within 5" of `to` (`via`, found on screen when not named).
/// The observers' groups may not move or fire for the rest of the card. It
/// costs no action (assumed).
pub fn relay(
    s: &InvasionState,
    seat: u8,
    observer: GroupId,
    via: Option<GroupId>,
    to: GroupId,
    target: GroupId,
) -> Result<Vec<E>, RuleError> {
    if !s.advanced.on(Module::Observers) {
        return Err(illegal(
            "Observers",
            "Observers is not a module of this battle",
        ));
    }
    own_group(s, seat, observer)?;
    own_group(s, seat, to)?;
    enemy(s, seat, target)?;
    check_windows(s, &s.group(observer).points(), target)?;
    if observer == to || via == Some(to) {
        return Err(illegal(
            "Observers",
            "the observers relay to another group (observers may not fire in the turn they relay)",
        ));
    }
    let eyes = observers(s, observer);
    if eyes.is_empty() {
        return Err(illegal(
            "Observers",
            format!(
                "{} has no observer (a radio operator or a Comm. Link)",
                group_name(s, observer)
            ),
        ));
    }
    busy(s, observer)?;
    if s.advanced.informed.contains(&(to, target)) {
        return Err(illegal(
            "Observers",
            format!(
                "{} already knows where {} is on this card",
                group_name(s, to),
                group_name(s, target)
            ),
        ));
    }
    let declared = s.real_table;
    let mut used = vec![observer];
    // "Models that use comm. links have no need to relay information": a
    // Comm. Link observer tells a Comm. Link group directly.
    let linked = eyes.iter().any(|o| o.2) && observers(s, to).iter().any(|o| o.2);
    if s.real_table {
        // The table shows the sight and the distances: the players declare
        // them by naming the observers.
        if let Some(v) = via {
            own_group(s, seat, v)?;
            busy(s, v)?;
            let radios = observers(s, v).iter().filter(|o| o.3).count();
            if radios == 0 || (v == observer && radios < 2) {
                return Err(illegal(
                    "Observers",
                    format!(
                        "{} has no {}radio operator",
                        group_name(s, v),
                        if v == observer { "second " } else { "" }
                    ),
                ));
            }
            if v != observer {
                used.push(v);
            }
        } else if !linked {
            return Err(illegal(
                "Observers",
                "\"One radio operator is pretty useless by himself\": name the second radio operator (`via`) who received the position and relays it within 5\"",
            ));
        }
    } else {
        let theirs = s.group(target).points();
        let others = super::actions::blockers(s, observer, target);
        let mut seeing: Vec<&(usize, Point, bool, bool)> = eyes
            .iter()
            .filter(|(_, at, _, _)| {
                table::line_of_sight(&s.scenario, &[*at], &theirs, &others)
                    .clear
                    .is_some()
            })
            .collect();
        // "as long as the enemy model/s concerned are: In line of sight of
        // the observer, or Can be 'sighted' (see below) by the observer":
        // with Sighting a Target, an observer group that has sighted the
        // target (perceived, pointed out by a leader, relayed) reports it
        // from where its observers stand.
        let sighting = s.advanced.on(Module::Sighting);
        if seeing.is_empty() && sighting && sighted_by(s, observer, target, false).is_some() {
            seeing = eyes.iter().collect();
        }
        if seeing.is_empty() {
            return Err(illegal(
                "Observers",
                format!(
                    "no observer of {} sees {}{}: \"observers must be in LOS of any enemy models they wish to relay position information about\"",
                    group_name(s, observer),
                    group_name(s, target),
                    if sighting { " or has sighted it" } else { "" }
                ),
            ));
        }
        let dest = s.group(to).points();
        let within = |at: Point| dest.iter().any(|p| p.distance(at) <= RELAY_RANGE);
        let to_linked = observers(s, to).iter().any(|o| o.2);
        let direct = seeing.iter().any(|(_, _, link, _)| *link && to_linked);
        if !direct {
            // "One radio operator is pretty useless by himself ... in order
            // to communicate messages at least one other radio operator must
            // be purchased": the operator who sees the enemy radios a second
            // one, who relays it by word of mouth to models within 5" of him
            // ("within 5" of an observer ... who has just received
            // information from another observer").
            let radios: Vec<(usize, GroupId, Point)> = seeing
                .iter()
                .filter(|o| o.3)
                .map(|o| (o.0, observer, o.1))
                .collect();
            if radios.is_empty() {
                return Err(illegal(
                    "Observers",
                    format!(
                        "{} is not within 5\" and shares no Comm. Link with {}; a radio operator must pass the position to another",
                        group_name(s, observer),
                        group_name(s, to)
                    ),
                ));
            }
            let candidates: Vec<GroupId> = match via {
                Some(v) => vec![v],
                None => (0..s.groups.len() as GroupId)
                    .filter(|&x| x != to && s.group(x).seat == seat && s.group(x).on_table())
                    .collect(),
            };
            let found = candidates.into_iter().find(|&v| {
                busy(s, v).is_ok()
                    && observers(s, v).iter().any(|(i, at, _, radio)| {
                        *radio
                            && within(*at)
                            && radios.iter().any(|(ri, rg, _)| !(*rg == v && ri == i))
                    })
            });
            let Some(v) = found else {
                return Err(illegal(
                    "Observers",
                    format!(
                        "no second radio operator, free to relay, stands within 5\" of {}",
                        group_name(s, to)
                    ),
                ));
            };
            if v != observer {
                used.push(v);
            }
        }
    }
    Ok(vec![E::Relayed {
        observers: used,
        to,
        target,
        declared,
    }])
}

/// Observer groups relaying on this card "may not MOVE FAST or FIRE".
pub fn check_relaying(s: &InvasionState, g: GroupId, what: &str) -> Result<(), RuleError> {
    if s.advanced.relaying.contains(&g) {
        return Err(illegal(
            "Observers",
            format!(
                "{} relays on this card: observers may not {what} in the turn they relay",
                group_name(s, g)
            ),
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Suppression Fire

/// The groups a suppressing shot pins down: the target alone for one
/// firing figure; for two, every enemy group with a figure under a medium
/// blast template centred on the target; for more, a giant one. At a real
/// table the players name the other groups under the template.
fn template(
    s: &InvasionState,
    seat: u8,
    firers: usize,
    target: GroupId,
    area: &[GroupId],
) -> Result<Vec<GroupId>, RuleError> {
    let mut out = vec![target];
    if firers < 2 {
        if !area.is_empty() {
            return Err(illegal(
                "Suppression Fire",
                "\"If only one model is FIREing then suppression fire can be used against only one target\"",
            ));
        }
        return Ok(out);
    }
    if s.real_table {
        for &g in area {
            enemy(s, seat, g)?;
            if !out.contains(&g) {
                out.push(g);
            }
        }
        return Ok(out);
    }
    if !area.is_empty() {
        return Err(illegal(
            "Suppression Fire",
            "on screen the template finds the groups under it: name none",
        ));
    }
    // "There are only two measurements in the game; a 'Move' ... and a
    // 'Blast' area which is a six inch diameter circle" (text 000): both of
    // text 001's templates are that circle, unless the battle's option
    // grades them.
    let radius = match (s.graded_templates, firers == 2) {
        (false, _) => BLAST_TEMPLATE,
        (true, true) => MEDIUM_TEMPLATE,
        (true, false) => GIANT_TEMPLATE,
    };
    let centre = table::centre(&s.group(target).points());
    for g in super::actions::enemy_groups(s, seat) {
        if g != target
            && s.group(g)
                .points()
                .iter()
                .any(|p| p.distance(centre) <= radius + table::BASE / 2)
        {
            out.push(g);
        }
    }
    Ok(out)
}

/// "Suppression Fire" (and "Suppressing Fire and Cover" with `at_cover`).
#[allow(clippy::too_many_arguments)]
pub fn suppress(
    s: &InvasionState,
    seat: u8,
    shooters: &[GroupId],
    target: GroupId,
    at_cover: bool,
    area: &[GroupId],
    declare: &Declared,
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    if !s.advanced.on(Module::Suppression) {
        return Err(illegal(
            "Suppression Fire",
            "Suppression Fire is not a module of this battle",
        ));
    }
    for &g in shooters {
        if s.groups.get(g as usize).is_some() && suppressed(s, g) {
            return Err(illegal(
                "Suppression Fire",
                format!(
                    "{} is suppressed: \"suppressed models may not return suppressing FIRE\"",
                    group_name(s, g)
                ),
            ));
        }
    }
    let Aim {
        target_melee,
        mut declared,
        cover,
        unseen,
    } = aim(s, seat, shooters, target, declare)?;
    if target_melee.is_some() {
        return Err(illegal(
            "Suppression Fire",
            "a melee is not pinned down by fire: shoot into it instead",
        ));
    }
    if at_cover && cover == Cover::Open {
        return Err(illegal(
            "Suppression Fire",
            format!(
                "{} is in the open: there is no cover to suppress (suppress the group itself)",
                group_name(s, target)
            ),
        ));
    }
    // The dice: every figure that shoots but those whose weapon "Cannot use
    // suppressive fire"; an L.M.G. +1 a die, an S.M.G. +1 a die ("at MEDIUM
    // RANGE and below": assumed always, Alien Invasion has no ranges).
    let mut how_many = Vec::new();
    let mut count = 0usize;
    let mut firers = 0usize;
    let mut bonus = 0i64;
    let mut mods: Vec<(i32, String)> = Vec::new();
    let mut per_group = Vec::new();
    let mut barred: Vec<&'static str> = Vec::new();
    for &g in shooters {
        let group = s.group(g);
        // Super Agility: Xenolog's assumed reading only (`assumed_profiles`).
        let moved = s.assumed_profiles && s.moved.contains(&g);
        let mut mine = 0usize;
        let mut weapon_bonus = 0i64;
        let mut lmg = false;
        let mut smg = false;
        super::rules::shooting_dice_per_model(s, g, rng, &mut how_many, &mut |m, n| {
            if n == 0 {
                return;
            }
            match weapon(s, group.seat, m) {
                Some(w @ (Weapon::Bazooka | Weapon::Primitive)) => {
                    if !barred.contains(&w.name()) {
                        barred.push(w.name());
                    }
                }
                w => {
                    mine += n;
                    firers += 1;
                    let skill = u32::from(m.bonus.shoot_die) + u32::from(m.bonus.agility && moved);
                    bonus += i64::from(skill) * n as i64;
                    if w == Some(Weapon::Lmg) {
                        weapon_bonus += n as i64;
                        lmg = true;
                    }
                    if w == Some(Weapon::Smg) {
                        weapon_bonus += n as i64;
                        smg = true;
                    }
                }
            }
        })?;
        if weapon_bonus > 0 {
            let names = match (lmg, smg) {
                (true, true) => "L.M.G. and S.M.G.",
                (true, false) => "L.M.G.",
                _ => "S.M.G.",
            };
            mods.push((
                weapon_bonus as i32,
                format!("+1 a die of the {names} of {}", group_name(s, g)),
            ));
        }
        per_group.push((g, mine));
        count += mine;
    }
    if count == 0 {
        return Err(illegal(
            "Suppression Fire",
            if barred.is_empty() {
                "the group has no shooting dice".to_owned()
            } else {
                format!("a {} cannot use suppressive fire", barred.join(" or a "))
            },
        ));
    }
    if !barred.is_empty() {
        declared.push(format!(
            "the {} do not fire (they cannot suppress)",
            barred.join(" and ")
        ));
    }
    let areas = template(s, seat, firers, target, area)?;
    let dice = rng.roll(count, 6)?;
    mods.extend(shot_modifiers(s, &per_group, &unseen, target));
    let change: i64 = bonus + mods.iter().map(|(n, _)| i64::from(*n)).sum::<i64>();
    let sum: i64 = dice.iter().map(|&d| i64::from(d)).sum();
    let total = (sum + change).max(0) as u32;
    let ks = kill_score(s, target, cover);
    // "Suppressing Cover": "REMEMBER: The 'target' on this occasion is the
    // item of cover being fired at, not the model/s behind it." The score
    // needed to strike the item of cover directly is the target's score in
    // the open (nothing shields the cover itself); the kills of a strike
    // "against the model behind the cover" are counted at its score in
    // cover. The battle option `cover_at_cover_score` reads it as Xenolog
    // did until rules version 5: the score of the models in their cover.
    let base = if at_cover && !s.cover_at_cover_score {
        kill_score(s, target, Cover::Open)
    } else {
        ks
    };
    let step = count as u32;
    // "Based on the score you would have needed to strike the target
    // directly": 1 below or the same suppresses; 1 above strikes (the
    // target); against cover 1 above still only suppresses, 2 above strikes
    // a model in partial cover and suppresses one in full cover, and "If you
    // have scored 3 above, then a strike has been scored against the model
    // behind the cover" (full cover too).
    let above = strike_above(at_cover, cover);
    let (result, strike_at) = if total + step < base {
        (SuppressResult::Missed, 0)
    } else if total >= base + above * step {
        (SuppressResult::Strike, total - above * step)
    } else {
        (SuppressResult::Suppressed, 0)
    };
    let mut out: Vec<E> = shooters.iter().map(|&g| E::Spent { group: g }).collect();
    if !mods.is_empty() {
        out.push(E::Modified { mods });
    }
    // Assumed: a direct strike pins down the survivors too.
    let pinned = if result == SuppressResult::Missed {
        Vec::new()
    } else {
        areas
    };
    let damage = (result == SuppressResult::Strike)
        .then(|| super::rules::assess(s, target, strike_at, cover, &[]));
    out.push(E::Suppression {
        shooters: shooters.to_vec(),
        target,
        at_cover,
        cover,
        dice,
        how_many,
        total,
        kill_score: base,
        step,
        result,
        groups: pinned,
        kills: damage.as_ref().map_or(0, |d| d.kills),
        declared,
    });
    if let Some(d) = damage {
        super::rules::inflict_shot(s, target, d, strike_at, cover, seat, shooters, &mut out);
    }
    Ok(out)
}

/// How many "above" the score needed a suppressing shot must score to
/// strike: "1 above" at the target itself; at its cover, "2 above" for a
/// model in PARTIAL COVER (Alien Invasion's cover) and "3 above" for one in
/// FULL COVER (a building), "Suppressing Fire and Cover".
pub fn strike_above(at_cover: bool, cover: Cover) -> u32 {
    match (at_cover, cover) {
        (false, _) => 1,
        (true, Cover::Building) => 3,
        (true, _) => 2,
    }
}

/// The groups whose suppression ends with this card: its faction's.
pub fn suppression_ends(s: &InvasionState) -> Vec<GroupId> {
    let Some(seat) = s.card().and_then(|c| c.seat) else {
        return Vec::new();
    };
    s.advanced
        .suppressed
        .iter()
        .copied()
        .filter(|&g| s.groups.get(g as usize).is_some_and(|x| x.seat == seat))
        .collect()
}

/// Whether `g` is still a group on the table (for the modules' lists).
pub fn on_table(s: &InvasionState, g: GroupId) -> bool {
    s.groups
        .get(g as usize)
        .is_some_and(|x| x.place == Place::Table)
}
