//! Commands and `decide`: the rules of the text, clause by clause. Each
//! function names the section of the rule text it implements.

use serde::{Deserialize, Serialize};

use super::model::{Cover, GroupRole, INCH, Mobility, Point};
use super::state::{Card, CardKind, GroupId, InvasionEvent as E, InvasionState, Pending, Place};
use super::table;
use crate::game::{Actor, RuleError};
use crate::rng::Randomness;

/// Facts the players declare from a real table, replacing the app's
/// geometry for one command (the log marks them as declared).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Declared {
    /// Shooting: the table shows a line of sight.
    pub sight: Option<bool>,
    /// Shooting: the target's cover class; moving: the cover the group ends in.
    pub cover: Option<Cover>,
    /// Moving: the group reached base contact with this enemy group.
    pub contact: Option<GroupId>,
    /// Moving into contact: the contacted group defends a terrain feature
    /// giving this cover.
    pub defends: Option<Cover>,
}

impl Declared {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// What a player (or the game itself) may do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvasionCommand {
    /// The game's own step: shuffle and draw, a Special Event card, the end
    /// of a card, a melee's resolution and aftermath, the end of the battle.
    Continue,
    /// The card's player gives up the actions left ("A player is never
    /// required to use all the actions available to him").
    EndCard,
    /// "1. Move": the lead figure moves to `to` in a straight line; the
    /// rest are placed next to it. `to: null` at a real table.
    Move {
        group: GroupId,
        #[serde(default)]
        to: Option<Point>,
        /// The figure measured (any of the group; the first by default).
        #[serde(default)]
        lead: Option<String>,
        /// A ground vehicle's turn at the end of its move ("end their move
        /// with a turn to face any direction"): its new facing in degrees
        /// clockwise from +x; `None` keeps its facing.
        #[serde(default)]
        face: Option<i32>,
        #[serde(default)]
        declare: Declared,
    },
    /// "2. Shoot": one group at one group; several shooters (or one group
    /// twice) from one card are linked fire and total their dice.
    Shoot {
        shooters: Vec<GroupId>,
        target: GroupId,
        #[serde(default)]
        declare: Declared,
    },
    /// "3. Special Actions": a scenario's special action, a D6 per figure.
    Special { group: GroupId, action: String },
    /// The MiB study the aliens they have killed.
    Study { group: GroupId },
    /// The target's player removes casualties.
    Casualties { models: Vec<String> },
    /// A faction strikes in a melee; `target` is the target faction's seat
    /// when more than two factions fight.
    Strike {
        #[serde(default)]
        target: Option<u8>,
    },
    /// A Burrower tunnels down, carrying these Spug squads.
    Burrow {
        group: GroupId,
        #[serde(default)]
        carry: Vec<GroupId>,
    },
    /// A Burrower tunnels anywhere on the table.
    Tunnel {
        group: GroupId,
        #[serde(default)]
        to: Option<Point>,
    },
    /// A Burrower surfaces: at a Spug hole (`hole`, free) or a new point.
    Surface {
        group: GroupId,
        #[serde(default)]
        to: Option<Point>,
        #[serde(default)]
        hole: Option<u8>,
        #[serde(default)]
        declare: Declared,
    },
    /// A carried Spug squad deploys next to its Burrower.
    Deploy {
        group: GroupId,
        #[serde(default)]
        declare: Declared,
    },
    /// An opponent of the Spugs closes a hole with a whole group.
    CloseHole { group: GroupId, hole: u8 },
    /// A Spug Controller detonates a Mite.
    Detonate {
        group: GroupId,
        mite: String,
        /// At a real table: the groups the blast catches.
        #[serde(default)]
        caught: Vec<GroupId>,
    },
    /// "Vehicle movement": a VTOL craft takes off (1 action).
    TakeOff { group: GroupId },
    /// A VTOL craft in the air travels anywhere (1 action): its lead figure
    /// to `to`, the rest next to it. `to: null` at a real table.
    Fly {
        group: GroupId,
        #[serde(default)]
        to: Option<Point>,
    },
    /// A VTOL craft in the air lands where it is (1 action).
    Land {
        group: GroupId,
        #[serde(default)]
        declare: Declared,
    },
    /// Sewers: go down a manhole (1 action).
    Descend { group: GroupId },
    /// Sewers: move below the table to a manhole (1 action).
    Sewer {
        group: GroupId,
        #[serde(default)]
        manhole: Option<u8>,
    },
    /// Sewers: climb out (2 actions: each is one command).
    Climb { group: GroupId },
    // Rules version 2 (new variants go at the end: postcard numbers them).
    /// The winners of a melee take the ground their beaten enemy held
    /// (`take: true`) or stay where they are.
    Occupy { take: bool },
    /// A group boards a vehicle of its faction: a move into it ("A group's
    /// movement ends when it enters a terrain feature (including a
    /// vehicle)"); it gets out with a move measured from the vehicle.
    Board {
        group: GroupId,
        vehicle: GroupId,
        #[serde(default)]
        declare: Declared,
    },
    /// "Something new or odd" the players have agreed to allow: a Special
    /// action with an Action roll (a D6 per figure, any 6 succeeds).
    Try { group: GroupId, what: String },
    // Rules version 3: Advanced Invasion Earth (rule text 001).
    /// "Suppression Fire": shooters fire to pin the target down (or, with
    /// `at_cover`, at the cover it hides behind). `area`: at a real table,
    /// the other groups under the template.
    Suppress {
        shooters: Vec<GroupId>,
        target: GroupId,
        #[serde(default)]
        at_cover: bool,
        #[serde(default)]
        area: Vec<GroupId>,
        #[serde(default)]
        declare: Declared,
    },
    /// "Observers": an observer group that sees `target` relays its
    /// position to `to` (through the radio operator of `via`, found on
    /// screen when not named).
    Relay {
        observer: GroupId,
        #[serde(default)]
        via: Option<GroupId>,
        to: GroupId,
        target: GroupId,
    },
    /// "Perception": a group tests to perceive a target it has not sighted.
    Perceive { group: GroupId, target: GroupId },
    /// "Laying in Wait", declared at the start of the group's card: to
    /// fire at (or, `assault`, to charge) an enemy that comes into sight.
    LayInWait {
        group: GroupId,
        #[serde(default)]
        assault: bool,
    },
    /// A group stops laying in wait.
    StandDown { group: GroupId },
    /// Out of turn: the waiting group fires at (or charges) the target.
    Spring {
        group: GroupId,
        target: GroupId,
        #[serde(default)]
        declare: Declared,
    },
    /// Out of turn: the waiting group lets the target pass.
    LetPass,
    /// "Advanced Assault": the winner of a melee breaks off from it.
    BreakOff { group: GroupId },
    /// "Advanced Assault": the loser of a melee runs away (if faster).
    RunAway { group: GroupId },
    /// "LIFT OFF": a flying model's group rises 2"-10" (`height`, hundredths).
    LiftOff { group: GroupId, height: i32 },
    /// "FLY+": a flying group moves (to `to`, or stays) and climbs or dives
    /// to `height` (hundredths, 2"-30").
    Soar {
        group: GroupId,
        #[serde(default)]
        to: Option<Point>,
        height: i32,
        #[serde(default)]
        declare: Declared,
    },
    // Rules version 6.
    /// The point asked for (`Pending::Point`): where the losers of a melee
    /// below the table surface. `to: null` at a real table.
    ChoosePoint {
        #[serde(default)]
        to: Option<Point>,
    },
}

/// Blast radius of a Mite ("a 6 inch radius blast effect of 4D6").
pub const MITE_BLAST: i32 = 6 * INCH;
/// Dice of a Mite's blast.
pub const MITE_DICE: usize = 4;
/// How near a group must be to use a manhole, a hole or a special action's
/// place when the scenario gives no reach (assumed: 1.5", base contact and a little).
pub const NEAR: i32 = INCH + INCH / 2;

fn illegal(clause: &str, msg: impl Into<String>) -> RuleError {
    RuleError::illegal(clause, msg)
}

/// The name of a group with its faction, as the log reads it.
pub fn group_name(s: &InvasionState, g: GroupId) -> String {
    let group = s.group(g);
    format!("{} {}", s.faction(group.seat).name, group.name)
}

/// Kill score of a group in a cover class (its figures share kill scores).
pub fn kill_score(s: &InvasionState, g: GroupId, cover: Cover) -> u32 {
    let group = s.group(g);
    group
        .alive()
        .next()
        .or(group.models.first())
        .and_then(|m| s.model_type(group.seat, &m.kind))
        .map_or(6, |t| t.kill.against(cover))
        .max(1)
}

/// The cover a group is in, as shooting sees it: declared, or the least
/// cover of its figures (assumed: the shooter picks the exposed ones), or
/// the cover last declared for it, or the open.
pub fn cover_of(s: &InvasionState, g: GroupId, declared: Option<Cover>) -> (Cover, bool) {
    if let Some(c) = declared {
        return (c, true);
    }
    let group = s.group(g);
    let points = group.points();
    if !points.is_empty() && group.placed() {
        let c = points
            .iter()
            .map(|p| table::cover_at(&s.scenario, *p))
            .min()
            .unwrap_or(Cover::Open);
        return (c, false);
    }
    (
        group.declared_cover.unwrap_or(Cover::Open),
        group.declared_cover.is_some(),
    )
}

/// A group's shooting dice for one shot, rolling the MiB's "how many" D6.
pub fn shooting_dice(
    s: &InvasionState,
    g: GroupId,
    rng: &mut Randomness,
    how_many: &mut Vec<u8>,
) -> Result<usize, RuleError> {
    shooting_dice_and_bonus(s, g, rng, how_many).map(|(n, _)| n)
}

/// A group's shooting dice for one shot and what its figures' campaign
/// skills add to the total: Crack Shot +1 to each of the model's dice,
/// Super Agility +1 to each when its group moved earlier on this card.
pub fn shooting_dice_and_bonus(
    s: &InvasionState,
    g: GroupId,
    rng: &mut Randomness,
    how_many: &mut Vec<u8>,
) -> Result<(usize, u32), RuleError> {
    // Super Agility's +1 is Xenolog's assumed reading (option
    // `assumed_profiles`): the text says "It suffers penalty (-1) for
    // MOVEing and FIREing", and Alien Invasion has no such penalty to lessen.
    let moved = s.assumed_profiles && s.moved.contains(&g);
    let per_die = |m: &super::state::Model| -> u32 {
        u32::from(m.bonus.shoot_die) + u32::from(m.bonus.agility && moved)
    };
    let mut bonus = 0u32;
    let n = shooting_dice_per_model(s, g, rng, how_many, &mut |m, dice| {
        bonus += per_die(m) * dice as u32;
    })?;
    Ok((n, bonus))
}

pub(super) fn shooting_dice_per_model(
    s: &InvasionState,
    g: GroupId,
    rng: &mut Randomness,
    how_many: &mut Vec<u8>,
    each: &mut dyn FnMut(&super::state::Model, usize),
) -> Result<usize, RuleError> {
    let group = s.group(g);
    let faction = s.faction(group.seat);
    let successes = s.studied.len();
    if group.role == GroupRole::CleanUp {
        // "Each man rolls D6 equal to the current successes +1 ... The heavy
        // weapons in each squad get an additional D6."
        return Ok(group
            .alive()
            .map(|m| {
                let heavy = s.model_type(group.seat, &m.kind).is_some_and(|t| t.heavy);
                let n = usize::from(group.arrival_successes) + 1 + usize::from(heavy);
                each(m, n);
                n
            })
            .sum());
    }
    if faction.rules.mib_dice {
        // "Each time a group shoots it rolls a D6 to see how many actual D6
        // to roll ... for each operative"; each study success "adds 1D6 to
        // each initial shooting roll".
        let roll = rng.roll(1 + successes, 6)?;
        let per = roll.iter().map(|&d| usize::from(d)).sum::<usize>();
        how_many.extend(roll);
        for m in group.alive() {
            each(m, per);
        }
        return Ok(per * group.alive_count());
    }
    Ok(group
        .alive()
        .map(|m| {
            let n = s
                .model_type(group.seat, &m.kind)
                .map_or(0, |t| usize::from(t.shoot));
            each(m, n);
            n
        })
        .sum())
}

/// What a group's figures' campaign skills add to its close-combat total
/// (Hand to Hand Expert: +1 to each of the model's close-combat dice).
pub fn melee_bonus(s: &InvasionState, g: GroupId) -> u32 {
    let mut bonus = 0;
    melee_dice_per_model(s, g, &mut |m, dice| {
        bonus += u32::from(m.bonus.melee_die) * dice;
    });
    bonus
}

/// A group's close-combat dice.
pub fn melee_dice(s: &InvasionState, g: GroupId) -> u32 {
    melee_dice_per_model(s, g, &mut |_, _| {})
}

/// Whether a group rolls its close-combat dice as the MiB shoot: a D6 for
/// how many each operative rolls ("Resolving hand-to-hand combat": close
/// combat dice "are the same as for shooting unless there is a note in the
/// faction background that says otherwise").
pub fn melee_rolls_how_many(s: &InvasionState, g: GroupId) -> bool {
    let group = s.group(g);
    s.faction(group.seat).rules.mib_dice
        && group.alive().any(|m| {
            model_role(s, g, m) != GroupRole::CleanUp
                && s.model_type(group.seat, &m.kind)
                    .is_some_and(|t| t.melee.is_none())
        })
}

/// The role of the group a figure was deployed in (a reinforcement merged
/// in a melee keeps its own).
fn model_role(s: &InvasionState, g: GroupId, m: &super::state::Model) -> GroupRole {
    s.group(m.origin.unwrap_or(g)).role
}

/// Each living figure's close-combat dice, "the same as for shooting unless
/// there is a note in the faction background that says otherwise" (a model
/// type's `melee N`): a line figure its `shoot`; a Clean Up man the current
/// successes at his section's arrival + 1, the heavy weapon one more; a MiB
/// operative the dice his group's "how many" roll for this melee gave
/// ([`InvasionState::melee_how_many`]; none before it is rolled).
pub(super) fn melee_dice_per_model(
    s: &InvasionState,
    g: GroupId,
    each: &mut dyn FnMut(&super::state::Model, u32),
) -> u32 {
    let mut sum = 0;
    for m in s.group(g).alive() {
        let n = melee_dice_of(s, g, m);
        each(m, n);
        sum += n;
    }
    sum
}

/// One figure's close-combat dice (see [`melee_dice_per_model`]).
fn melee_dice_of(s: &InvasionState, g: GroupId, m: &super::state::Model) -> u32 {
    let group = s.group(g);
    let Some(t) = s.model_type(group.seat, &m.kind) else {
        return 0;
    };
    if let Some(n) = t.melee {
        u32::from(n)
    } else if model_role(s, g, m) == GroupRole::CleanUp {
        let from = s.group(m.origin.unwrap_or(g));
        u32::from(from.arrival_successes) + 1 + u32::from(t.heavy)
    } else if s.faction(group.seat).rules.mib_dice {
        s.melee_how_many
            .iter()
            .find(|(_, x, _)| *x == g)
            .map_or(0, |(_, _, n)| *n)
    } else {
        u32::from(t.shoot)
    }
}

/// Kills from a total against a group: one per kill score reached, "the
/// extra points do nothing", never more than its figures.
pub fn kills(total: u32, kill_score: u32, figures: usize) -> u32 {
    (total / kill_score.max(1)).min(figures as u32)
}

/// What a total does to a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The kill score (the least, when the figures' kill scores differ).
    pub kill_score: u32,
    /// Kills: one per kill score reached; for `mixed`, the most the total
    /// could pay for.
    pub kills: u32,
    /// The figures it may kill die on different kill scores: the target's
    /// player pays for each casualty at its own ([`inflict`]).
    pub mixed: bool,
}

/// Assess a total against `g` (its figures among `among`; empty: all).
/// Figures of one kill score: one kill per kill score reached. Figures of
/// several (reinforcements of another kind merged in hand-to-hand): each
/// casualty is paid for at its own kill score, chosen by the target's
/// player (assumed: the text never mixes kill scores in one group).
pub fn assess(s: &InvasionState, g: GroupId, total: u32, cover: Cover, among: &[String]) -> Damage {
    let group = s.group(g);
    let scores: Vec<u32> = group
        .alive()
        .filter(|m| among.is_empty() || among.iter().any(|a| *a == m.id))
        .map(|m| model_cost(s, group.seat, m, cover))
        .collect();
    let (Some(&least), Some(&most)) = (scores.iter().min(), scores.iter().max()) else {
        return Damage {
            kill_score: kill_score(s, g, cover),
            kills: 0,
            mixed: false,
        };
    };
    if least == most {
        return Damage {
            kill_score: least,
            kills: kills(total, least, scores.len()),
            mixed: false,
        };
    }
    let can = super::state::affordable(s, g, total, cover, among);
    let everyone = u64::from(total) >= scores.iter().map(|&x| u64::from(x)).sum::<u64>();
    Damage {
        kill_score: least,
        kills: can,
        mixed: can > 0 && !everyone,
    }
}

/// Remove what `damage` kills: casualties chosen by count, or paid for out
/// of `total` figure by figure (credited to `by` as they are chosen).
#[allow(clippy::too_many_arguments)]
pub fn inflict(
    s: &InvasionState,
    g: GroupId,
    damage: Damage,
    total: u32,
    cover: Cover,
    among: Vec<String>,
    by: (u8, Option<GroupId>),
    out: &mut Vec<E>,
) {
    if damage.mixed {
        out.push(E::MustPay {
            seat: s.group(g).seat,
            group: g,
            total,
            cover,
            among,
            by: by.0,
            by_group: by.1,
        });
    } else {
        casualties(s, g, damage.kills, among, out);
    }
}

/// Casualties of `group`: removed at once when every figure dies, else the
/// target's player chooses ("the player controlling the target group
/// decides which figures to remove").
pub fn casualties(s: &InvasionState, g: GroupId, count: u32, among: Vec<String>, out: &mut Vec<E>) {
    if count == 0 {
        return;
    }
    let group = s.group(g);
    let candidates: Vec<String> = group
        .alive()
        .filter(|m| among.is_empty() || among.iter().any(|a| *a == m.id))
        .map(|m| String::from(&m.id))
        .collect();
    if count as usize >= candidates.len() {
        for m in candidates {
            killed(s, g, &m, out);
        }
    } else {
        out.push(E::MustRemove {
            seat: group.seat,
            group: g,
            count,
            among,
        });
    }
}

fn killed(s: &InvasionState, g: GroupId, model: &str, out: &mut Vec<E>) {
    out.push(E::Killed {
        group: g,
        model: model.to_owned(),
    });
    let group = s.group(g);
    if let Some(species) = group
        .models
        .iter()
        .find(|m| m.id == model)
        .and_then(|m| s.model_type(group.seat, &m.kind))
        .map(|t| t.species.clone())
        && species != "human"
        && !s.killed_species.iter().any(|k| *k == species)
        && !out
            .iter()
            .any(|e| matches!(e, E::SpeciesKilled { species: k } if *k == species))
    {
        out.push(E::SpeciesKilled { species });
    }
}

/// Odd dice "allocated as evenly as possible amongst any other participating
/// factions": dealt high to low, one die at a time, in seat order.
pub fn share_odd(odd: &[u8], seats: usize) -> Vec<Vec<u8>> {
    let mut sorted = odd.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut out = vec![Vec::new(); seats];
    if seats == 0 {
        return out;
    }
    for (i, d) in sorted.into_iter().enumerate() {
        out[i % seats].push(d);
    }
    out
}

/// Dice against the groups of a melee from someone with no figures in it, or
/// a strike when more than two factions fight: the even dice to the target
/// faction, the odd dice shared among the others.
pub fn split_dice(dice: &[u8], target: GroupId, others: &[GroupId]) -> Vec<(GroupId, Vec<u8>)> {
    let even: Vec<u8> = dice.iter().copied().filter(|d| d % 2 == 0).collect();
    let odd: Vec<u8> = dice.iter().copied().filter(|d| d % 2 == 1).collect();
    let mut out = vec![(target, even)];
    for (g, share) in others.iter().zip(share_odd(&odd, others.len())) {
        out.push((*g, share));
    }
    out
}

/// Damage dealt to groups: totals, kills and casualties.
/// `bonus` (campaign skills) is added to the first share's total, the
/// target's.
pub fn deal(
    s: &InvasionState,
    seat: u8,
    credit: &[GroupId],
    shares: &[(GroupId, Vec<u8>)],
    bonus: u32,
    cover: &dyn Fn(GroupId) -> Cover,
    out: &mut Vec<E>,
) {
    let mut made = 0;
    for (i, (g, dice)) in shares.iter().enumerate() {
        let total: u32 =
            dice.iter().map(|&d| u32::from(d)).sum::<u32>() + if i == 0 { bonus } else { 0 };
        let c = cover(*g);
        let d = assess(s, *g, total, c, &[]);
        out.push(E::Shared {
            group: *g,
            dice: dice.clone(),
            total,
            kill_score: d.kill_score,
            kills: d.kills,
        });
        inflict(
            s,
            *g,
            d,
            total,
            c,
            Vec::new(),
            (seat, credit.first().copied()),
            out,
        );
        if !d.mixed {
            made += d.kills;
        }
    }
    if made > 0 {
        credit_kills(s, seat, credit, made, out);
    }
}

/// A shot's damage removed from `target` and its kills credited to
/// `seat`'s `shooters`; damage of mixed figures is paid for figure by
/// figure instead, credited as they are chosen.
#[allow(clippy::too_many_arguments)]
pub fn inflict_shot(
    s: &InvasionState,
    target: GroupId,
    damage: Damage,
    total: u32,
    cover: Cover,
    seat: u8,
    shooters: &[GroupId],
    out: &mut Vec<E>,
) {
    let k = if damage.mixed { 0 } else { damage.kills };
    let by = (seat, shooters.first().copied());
    inflict(s, target, damage, total, cover, Vec::new(), by, out);
    if k > 0 {
        credit_kills(s, seat, shooters, k, out);
    }
}

/// Kills credited to `seat` (and the first of `by`, its group), and figure
/// by figure to the figures of `by` whose dice made them
/// ([`split_credit`]; a group named twice, a linked double shot, counts its
/// dice twice).
pub fn credit_kills(s: &InvasionState, seat: u8, by: &[GroupId], kills: u32, out: &mut Vec<E>) {
    out.push(E::Credited {
        seat,
        group: by.first().copied(),
        kills,
    });
    let mut weights: Vec<(String, u32)> = Vec::new();
    for &g in by {
        for (id, w) in dice_weights(s, g) {
            match weights.iter_mut().find(|(x, _)| *x == id) {
                Some(e) => e.1 += w,
                None => weights.push((id, w)),
            }
        }
    }
    let split = split_credit(kills, &weights);
    if !split.is_empty() {
        out.push(E::ModelsCredited { kills: split });
    }
}

/// How many of a group's dice each figure rolls, for crediting kills: in a
/// melee being resolved, the close-combat dice of every figure that was
/// alive when its resolution began (casualties strike too); otherwise each
/// living figure's shooting dice (a MiB operative one share each: they all
/// roll the same number). Figures with no dice share equally when none has
/// any (a Burrower's melee is its own; a blast's Mites are weighed by
/// [`split_credit`]'s caller).
fn dice_weights(s: &InvasionState, g: GroupId) -> Vec<(String, u32)> {
    let group = s.group(g);
    let resolving = group.locked.is_some_and(|m| {
        s.pending.iter().any(|p| {
            matches!(p, Pending::Strike { melee, .. } | Pending::Aftermath { melee } if *melee == m)
        })
    });
    let mut w: Vec<(String, u32)> = if resolving {
        group
            .models
            .iter()
            .filter(|m| s.fighters.contains(&m.id))
            .map(|m| (String::from(&m.id), melee_dice_of(s, g, m)))
            .collect()
    } else {
        group
            .alive()
            .map(|m| (String::from(&m.id), shooting_dice_of(s, g, m)))
            .collect()
    };
    if w.iter().all(|(_, n)| *n == 0) {
        for x in &mut w {
            x.1 = 1;
        }
    }
    w
}

/// A figure's shooting dice, for crediting kills (no dice rolled: a MiB
/// operative counts one, as every operative of a group rolls the same).
fn shooting_dice_of(s: &InvasionState, g: GroupId, m: &super::state::Model) -> u32 {
    let group = s.group(g);
    let Some(t) = s.model_type(group.seat, &m.kind) else {
        return 0;
    };
    if model_role(s, g, m) == GroupRole::CleanUp {
        let from = s.group(m.origin.unwrap_or(g));
        u32::from(from.arrival_successes) + 1 + u32::from(t.heavy)
    } else if s.faction(group.seat).rules.mib_dice {
        1
    } else {
        u32::from(t.shoot)
    }
}

/// Kills split among the figures whose dice made them, in proportion to
/// the dice each rolled (a total has no single die that made a kill):
/// each gets the whole part of its share, and the kills left over go to
/// the largest remainders, the earlier figure first on a tie. Worked: the
/// text's U.N.I.T. section (rifles 1D6 and 1D6, the Light Support Weapon
/// 2D6, the LAWS 4D6) kills one Dalek: the LAWS is credited with it.
pub fn split_credit(kills: u32, weights: &[(String, u32)]) -> Vec<(String, u32)> {
    let total: u64 = weights.iter().map(|(_, w)| u64::from(*w)).sum();
    if total == 0 || kills == 0 {
        return Vec::new();
    }
    let k = u64::from(kills);
    let mut parts: Vec<(String, u32, u64)> = weights
        .iter()
        .map(|(id, w)| {
            let x = k * u64::from(*w);
            (id.clone(), (x / total) as u32, x % total)
        })
        .collect();
    let given: u32 = parts.iter().map(|p| p.1).sum();
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by(|&a, &b| parts[b].2.cmp(&parts[a].2).then(a.cmp(&b)));
    for i in order.into_iter().take(kills.saturating_sub(given) as usize) {
        parts[i].1 += 1;
    }
    parts
        .into_iter()
        .filter(|p| p.1 > 0)
        .map(|(id, n, _)| (id, n))
        .collect()
}

/// The seats (sorted) with living groups in a melee.
pub fn melee_seats(s: &InvasionState, melee: u16) -> Vec<u8> {
    let mut seats: Vec<u8> = s
        .melee(melee)
        .map(|m| {
            m.groups
                .iter()
                .filter(|&&g| s.group(g).alive_count() > 0)
                .map(|&g| s.group(g).seat)
                .collect()
        })
        .unwrap_or_default();
    seats.sort_unstable();
    seats.dedup();
    seats
}

fn melee_group_of(s: &InvasionState, melee: u16, seat: u8) -> Option<GroupId> {
    s.melee(melee)?
        .groups
        .iter()
        .copied()
        .find(|&g| s.group(g).seat == seat && s.group(g).alive_count() > 0)
}

/// The contiguous casualty choices at the front of the queue: every seat
/// among them is asked at once.
pub fn open_casualties(s: &InvasionState) -> Vec<(u8, GroupId, u32, Vec<String>)> {
    s.pending
        .iter()
        .map_while(|p| match p {
            Pending::Casualties {
                seat,
                group,
                count,
                among,
                ..
            } => Some((*seat, *group, *count, among.clone())),
            _ => None,
        })
        .collect()
}

/// The step the game takes on its own now, if one is due.
pub fn automatic(s: &InvasionState) -> Option<InvasionCommand> {
    if s.over.is_some() {
        return None;
    }
    match s.pending.first() {
        Some(
            Pending::Casualties { .. }
            | Pending::Strike { .. }
            | Pending::Occupy { .. }
            | Pending::Ambush { .. }
            | Pending::Point { .. },
        ) => {
            return None;
        }
        Some(Pending::ResolveMelees { .. } | Pending::Aftermath { .. }) => {
            return Some(InvasionCommand::Continue);
        }
        None => {}
    }
    let seats_left = (0..s.factions.len() as u8)
        .filter(|&seat| s.in_battle(seat))
        .count();
    if seats_left <= 1 {
        return Some(InvasionCommand::Continue);
    }
    if super::advanced::checks_due(s) || super::advanced::order_due(s).is_some() {
        return Some(InvasionCommand::Continue);
    }
    match s.card() {
        None => Some(InvasionCommand::Continue),
        Some(Card {
            kind: CardKind::Special,
            ..
        }) => Some(InvasionCommand::Continue),
        Some(Card {
            seat: Some(seat), ..
        }) => {
            let can_act = s
                .groups
                .iter()
                .enumerate()
                .any(|(i, g)| g.seat == seat && g.alive_count() > 0 && s.may_act(i as GroupId));
            (!s.in_battle(seat) || !can_act).then_some(InvasionCommand::Continue)
        }
        Some(_) => Some(InvasionCommand::Continue),
    }
}

/// The game's own step (see [`InvasionCommand::Continue`]).
fn step(s: &InvasionState, rng: &mut Randomness) -> Result<Vec<E>, RuleError> {
    let mut out = Vec::new();
    match s.pending.first() {
        Some(Pending::ResolveMelees { left }) => {
            if let Some(&melee) = left.first() {
                resolve_melee(s, melee, rng, &mut out)?;
            }
            return Ok(out);
        }
        Some(Pending::Aftermath { melee }) => {
            aftermath(s, *melee, &mut out);
            return Ok(out);
        }
        Some(_) => {
            return Err(RuleError::not_your_turn(
                "the players have a choice to make first",
            ));
        }
        None => {}
    }
    let seats_left = (0..s.factions.len() as u8)
        .filter(|&seat| s.in_battle(seat))
        .count();
    if seats_left <= 1 {
        out.push(super::victory::ending(s));
        return Ok(out);
    }
    // Advanced Invasion Earth: the checks at the start of a card, then the
    // orders they gave, each a step of its own.
    if super::advanced::checks_due(s) {
        super::advanced::checks(s, rng, &mut out)?;
        return Ok(out);
    }
    if let Some(g) = super::advanced::order_due(s) {
        super::advanced::carry_order(s, g, rng, &mut out)?;
        // The charges and runs the modules order are moves like any other:
        // a waiting enemy may be owed an ambush.
        let due = super::wait::ambushes_after(s, &out);
        out.extend(due);
        return Ok(out);
    }
    match s.card() {
        None => draw(s, rng, &mut out),
        Some(Card {
            kind: CardKind::Special,
            ..
        }) => {
            special_event(s, &mut out);
            out.push(E::CardDone);
        }
        Some(card) => card_done(s, card, &mut out),
    }
    Ok(out)
}

/// "Mechanics of Play": draw as many cards as factions, at least four; when
/// the deck is exhausted the discard pile is shuffled. The end of the last
/// round ends the battle.
fn draw(s: &InvasionState, rng: &mut Randomness, out: &mut Vec<E>) {
    if s.scenario.rounds > 0 && s.round >= s.scenario.rounds {
        out.push(super::victory::ending(s));
        return;
    }
    let n = s.factions.len().max(4);
    let mut deck = s.deck.clone();
    if !s.shuffled {
        // A position file may give the cards left in the deck unshuffled
        // (`position`): they are shuffled now; otherwise the whole deck.
        if s.deck.is_empty() {
            deck = make_deck(s);
        }
        rng.shuffle(&mut deck);
        out.push(E::Shuffled { deck: deck.clone() });
    } else if deck.len() < n {
        let mut pile = s.discard.clone();
        rng.shuffle(&mut pile);
        pile.extend(deck);
        deck = pile;
        out.push(E::Shuffled { deck: deck.clone() });
    }
    let take = n.min(deck.len());
    let cards: Vec<Card> = deck[deck.len() - take..].iter().rev().copied().collect();
    out.push(E::Drew {
        round: s.round + 1,
        cards,
    });
}

/// "Action cards": per faction its Single, Double and Triple cards, and one
/// Special Event card per faction up to four.
pub fn make_deck(s: &InvasionState) -> Vec<Card> {
    let mut deck = Vec::new();
    for (seat, f) in s.factions.iter().enumerate() {
        let seat = Some(seat as u8);
        for (kind, n) in [
            (CardKind::Single, f.cards.single),
            (CardKind::Double, f.cards.double),
            (CardKind::Triple, f.cards.triple),
        ] {
            deck.extend((0..n).map(|_| Card { seat, kind }));
        }
    }
    for _ in 0..s.factions.len().min(4) {
        deck.push(Card {
            seat: None,
            kind: CardKind::Special,
        });
    }
    deck
}

/// A card's actions are over. "Hand-to-hand combat is resolved when either
/// a Double or Triple action card is drawn but after the actions on the
/// card have been completed."
fn card_done(s: &InvasionState, card: Card, out: &mut Vec<E>) {
    out.push(E::CardDone);
    if matches!(card.kind, CardKind::Double | CardKind::Triple) {
        let melees: Vec<u16> = s.melees.iter().filter(|m| !m.below).map(|m| m.id).collect();
        if !melees.is_empty() {
            out.push(E::MeleesDue { melees });
        }
    }
}

/// A Special Event card: the MiB's Clean Up teams arrive; with the sewers
/// rule, groups below the table meet in a sudden melee. (Assumed: nothing
/// else happens on a Special Event card.)
fn special_event(s: &InvasionState, out: &mut Vec<E>) {
    let before = out.len();
    for (i, g) in s.groups.iter().enumerate() {
        if g.role == GroupRole::CleanUp && g.place == Place::Reserve && s.in_battle(g.seat) {
            let to = arrival_points(s, i as GroupId);
            out.push(E::Arrived {
                group: i as GroupId,
                to,
                successes: s.studied.len() as u8,
            });
        }
    }
    if s.sewers {
        // Rules version 6: the Spug squads a Burrower carries below the
        // table are underground with it and fight in the sudden melee.
        let below: Vec<GroupId> = (0..s.groups.len() as GroupId)
            .filter(|&g| {
                let group = s.group(g);
                let under = match group.place {
                    Place::Below => true,
                    Place::Carried(by) => s.group(by).place == Place::Below,
                    _ => false,
                };
                under && group.alive_count() > 0
            })
            .collect();
        let mut seats: Vec<u8> = below.iter().map(|&g| s.group(g).seat).collect();
        seats.sort_unstable();
        seats.dedup();
        if seats.len() >= 2 {
            let melee = s.next_melee;
            out.push(E::Locked {
                melee,
                groups: below,
                defender: None,
                below: true,
            });
            out.push(E::MeleesDue {
                melees: vec![melee],
            });
        }
    }
    if out.len() == before {
        out.push(E::Nothing);
    }
}

/// Where a Clean Up section arrives: next to the middle of its faction's
/// deployment zone (assumed), or nowhere at a real table.
fn arrival_points(s: &InvasionState, g: GroupId) -> Vec<Option<Point>> {
    let group = s.group(g);
    let n = group.alive_count();
    if s.real_table {
        return vec![None; n];
    }
    let zone = &s.scenario.zones[group.seat as usize % s.scenario.zones.len().max(1)];
    let lead = Point::new(
        (zone.min.x + zone.max.x) / 2 + i32::from(g % 3) * 3 * INCH,
        (zone.min.y + zone.max.y) / 2,
    );
    let mut pts = vec![Some(lead)];
    pts.extend(
        table::place_next_to(&s.scenario, lead, n.saturating_sub(1), &all_points(s, None))
            .into_iter()
            .map(Some),
    );
    pts
}

/// Every figure's position on the table, except those of `except`.
pub fn all_points(s: &InvasionState, except: Option<GroupId>) -> Vec<Point> {
    s.groups
        .iter()
        .enumerate()
        .filter(|(i, g)| Some(*i as GroupId) != except && g.place == Place::Table)
        .flat_map(|(_, g)| g.points())
        .collect()
}

/// "Resolving hand-to-hand combat": each faction's dice are counted before
/// anyone is removed. Below the table, underground factions strike first
/// and resolve their damage before the others roll.
fn resolve_melee(
    s: &InvasionState,
    melee: u16,
    rng: &mut Randomness,
    out: &mut Vec<E>,
) -> Result<(), RuleError> {
    let seats = melee_seats(s, melee);
    if seats.len() < 2 {
        out.push(E::Resolving {
            melee,
            strikes: Vec::new(),
        });
        out.push(E::Unlocked { melee });
        return Ok(());
    }
    let below = s.melee(melee).is_some_and(|m| m.below);
    let mut order = seats.clone();
    if below {
        order.sort_by_key(|&seat| !s.faction(seat).rules.underground);
    }
    // The MiB's close-combat dice are "the same as for shooting": each
    // group rolls how many dice an operative rolls (a D6, one more a study
    // success), in the order the groups are locked.
    let groups = s.melee(melee).map(|m| m.groups.clone()).unwrap_or_default();
    let mut after = s.clone();
    for &g in &groups {
        if s.group(g).alive_count() > 0 && melee_rolls_how_many(s, g) {
            let dice = rng.roll(1 + s.studied.len(), 6)?;
            let e = E::MeleeHowMany {
                melee,
                group: g,
                dice,
            };
            super::state::apply(&mut after, &e);
            out.push(e);
        }
    }
    let strikes = order
        .iter()
        .map(|&seat| {
            let dice = groups
                .iter()
                .filter(|&&g| after.group(g).seat == seat)
                .map(|&g| melee_dice(&after, g))
                .sum();
            (seat, dice)
        })
        .collect();
    out.push(E::Resolving { melee, strikes });
    Ok(())
}

/// After a melee: a lone faction re-forms (and holds the ground it won);
/// defenders stay and attackers fall back a full move; with no position
/// held, all move a full move apart. Spugs fight to the death: the fight
/// goes on to the next appropriate card.
fn aftermath(s: &InvasionState, melee: u16, out: &mut Vec<E>) {
    let seats = melee_seats(s, melee);
    let Some(m) = s.melee(melee) else {
        out.push(E::Unlocked { melee });
        return;
    };
    // Below the table the melee is "resolved there and then" and the losers
    // surface (assumed: fighting to the death is for melees on the table).
    if seats.len() >= 2
        && !m.below
        && seats
            .iter()
            .any(|&seat| s.faction(seat).rules.fight_to_death)
    {
        out.push(E::FightsOn { melee });
        return;
    }
    let groups: Vec<GroupId> = m
        .groups
        .iter()
        .copied()
        .filter(|&g| s.group(g).alive_count() > 0)
        .collect();
    // The groups whose player chooses which way they fall back, and what
    // they fall back from (rules version 6).
    let mut retreats: Vec<(GroupId, Point)> = Vec::new();
    // "GRAPPLE: ... If the grappling model wins the assault then its victim
    // has been grappled": only in the grappler's own turn (its faction's
    // card), winning meaning more kills than it took in this resolution
    // (assumed).
    if let Some(e) = super::advanced::grapple_holds(s, melee, &seats, &groups) {
        out.push(e);
        return;
    }
    // "ADVANCED ASSAULT": a melee with a winner does not break.
    if !m.below
        && let Some(e) = super::assault::assault_won(s, melee, &seats)
    {
        out.push(e);
        return;
    }
    if seats.len() == 1
        && !m.below
        && let Some((d, cover)) = m.defender
        && s.group(d).seat != seats[0]
        && let Some(&winner) = groups.first()
    {
        // "may move to occupy any ground that their opponent was holding.
        // This allows a successful attack on a barricade to carry the
        // attackers over it or if a building was stormed the attackers will
        // get inside": the winners' player chooses (`occupy`).
        out.push(E::GroundOffered {
            melee,
            group: winner,
            ground: s.group(d).models.iter().filter_map(|x| x.at).collect(),
            cover,
        });
        return;
    }
    if seats.len() >= 2 {
        if m.below {
            // "After the melee, losers surface at a point of their choosing."
            // Assumed: every faction but the one with most figures left in the
            // melee is a loser (on a tie, every faction) and surfaces where it
            // is below the table (the manhole or hole it went down or moved to).
            let figures = |seat: u8| -> usize {
                groups
                    .iter()
                    .filter(|&&g| s.group(g).seat == seat)
                    .map(|&g| s.group(g).alive_count())
                    .sum()
            };
            let most = seats.iter().map(|&x| figures(x)).max().unwrap_or(0);
            let top: Vec<u8> = seats
                .iter()
                .copied()
                .filter(|&x| figures(x) == most)
                .collect();
            let winner = (top.len() == 1).then(|| top[0]);
            // Rules version 6: each losing group is asked where it
            // surfaces (`choose`), a Burrower's carried squads with it.
            let losers: Vec<GroupId> = groups
                .iter()
                .copied()
                .filter(|&g| Some(s.group(g).seat) != winner)
                .collect();
            super::choose::ask_surface(s, &losers, out);
        } else {
            // "move back a full move": falling back is no action, so a
            // module that limits a group's moves for its actions
            // (suppression, laying in wait: only a SNEAK) does not shorten
            // it (rules version 6).
            let full = |g: GroupId| full_move(s, g);
            let defender = m.defender.map(|(g, _)| g).filter(|g| groups.contains(g));
            for &g in &groups {
                if Some(g) == defender {
                    continue;
                }
                let pts = s.group(g).points();
                if pts.is_empty() || !s.group(g).placed() {
                    continue;
                }
                let others: Vec<Point> = match defender {
                    Some(d) => s.group(d).points(),
                    None => groups
                        .iter()
                        .filter(|&&o| o != g)
                        .flat_map(|&o| s.group(o).points())
                        .collect(),
                };
                if others.is_empty() {
                    continue;
                }
                let away = table::centre(&others);
                if !s.game_chooses_retreats {
                    // Rules version 6: the group's player chooses which
                    // way it falls back (`choose`), asked after re-forming.
                    retreats.push((g, away));
                    continue;
                }
                let to = table::fall_back(&s.scenario, &pts, away, full(g));
                out.push(E::Moved {
                    group: g,
                    to: to.into_iter().map(Some).collect(),
                    lead: 0,
                    stopped: Some("falls back a full move".into()),
                    declared_cover: None,
                    face: None,
                });
            }
        }
    }
    for &g in &groups {
        reform(s, g, out);
    }
    super::choose::ask_fall_back(s, &retreats, out);
    out.push(E::Unlocked { melee });
}

/// "they will form suitable groups based on their organisation, Daleks
/// would form up into threes for instance": reinforcements merged into a
/// group in the fight go back to the groups they were deployed in (assumed:
/// a faction's organisation is the groups of its file).
fn reform(s: &InvasionState, g: GroupId, out: &mut Vec<E>) {
    if s.group(g).alive().any(|m| m.origin.is_some_and(|o| o != g)) {
        out.push(E::Reformed { group: g });
    }
}

/// The winners of a melee take the ground their beaten enemy held, or stay.
fn occupy(s: &InvasionState, actor: Actor, take: bool) -> Result<Vec<E>, RuleError> {
    let Some(Pending::Occupy {
        melee,
        seat,
        group,
        ground,
        cover,
    }) = s.pending.first()
    else {
        return Err(illegal(
            "Resolving hand-to-hand combat",
            "there is no ground won in a melee to take",
        ));
    };
    if actor != Actor(*seat) {
        return Err(RuleError::not_your_turn(format!(
            "{} decide whether to take the ground they won",
            s.faction(*seat).name
        )));
    }
    let mut out = Vec::new();
    if take {
        let g = s.group(*group);
        let n = g.alive_count();
        let mut avoid = all_points(s, Some(*group));
        let free: Vec<Point> = ground
            .iter()
            .copied()
            .filter(|p| avoid.iter().all(|q| q.distance(*p) >= table::BASE))
            .take(n)
            .collect();
        let to: Vec<Option<Point>> = match free.first() {
            Some(&first) if !s.real_table && g.placed() => {
                avoid.extend(&free);
                let mut pts = free.clone();
                pts.extend(table::place_next_to(
                    &s.scenario,
                    first,
                    n - free.len(),
                    &avoid,
                ));
                pts.into_iter().map(Some).collect()
            }
            _ => vec![None; n],
        };
        let declared_cover = to.iter().any(Option::is_none).then_some(*cover);
        out.push(E::Moved {
            group: *group,
            to,
            lead: 0,
            stopped: Some("takes the ground its enemy held".into()),
            declared_cover,
            face: None,
        });
    }
    reform(s, *group, &mut out);
    out.push(E::Unlocked { melee: *melee });
    Ok(out)
}

/// A group's move distance: the least of its figures'. A suppressed group
/// may only SNEAK (assumed: half its move; "TURN, FIRE, HIDE, SNEAK" are the
/// text's list, MOVE FAST is not in it), and so may a group laying in wait
/// on its own card ("TURN or SNEAK").
pub fn group_move(s: &InvasionState, g: GroupId) -> i32 {
    let full = full_move(s, g);
    if super::fire::suppressed(s, g) || super::wait::on_own_card(s, g) {
        // Only a sneak is allowed. "Models can't use actions under
        // suppression which they wouldn't normally be able to use (No
        // sneaking Daleks etc.)"; laying in wait: "TURN or SNEAK (if
        // normally available)". A group with a model that cannot sneak
        // (`no_sneak`) does not move, unless the battle reads otherwise
        // (option `everyone_sneaks`).
        let group = s.group(g);
        let cannot = !s.everyone_sneaks
            && group.alive().any(|m| {
                s.model_type(group.seat, &m.kind)
                    .is_some_and(|t| t.profile.no_sneak)
            });
        if cannot { 0 } else { full / 2 }
    } else {
        full
    }
}

/// A group's whole move, before any module halves it.
pub fn full_move(s: &InvasionState, g: GroupId) -> i32 {
    let group = s.group(g);
    group
        .alive()
        .filter_map(|m| s.model_type(group.seat, &m.kind).map(|t| (t, m)))
        // Super Fast: +1" a time bought; a group moves at its slowest.
        .map(|(t, m)| {
            if t.moves > 0 {
                t.moves + m.bonus.moves
            } else {
                0
            }
        })
        .min()
        .unwrap_or(8 * INCH)
}

/// What Super Sneak adds to a move of the group that ends in cover or a
/// building: the least of its figures' (a group moves together).
pub fn sneak_bonus(s: &InvasionState, g: GroupId) -> i32 {
    s.group(g).alive().map(|m| m.bonus.sneak).min().unwrap_or(0)
}

/// A figure's price in a total against it: its kill score in `cover` (at
/// least cover with Camouflage; You Make Your Own Luck adds to it), once
/// more for each Tough as Nails.
pub fn model_cost(s: &InvasionState, seat: u8, m: &super::state::Model, cover: Cover) -> u32 {
    let cover = if m.bonus.camouflage {
        cover.max(Cover::Cover)
    } else {
        cover
    };
    let ks = s
        .model_type(seat, &m.kind)
        .map_or(u32::MAX / 4, |t| t.kill.against(cover).max(1))
        .saturating_add(m.bonus.kill_score);
    ks.saturating_mul(1 + m.bonus.extra_kills)
}

/// How far off its facing a ground vehicle's move may point (assumed: 2
/// degrees, for a line drawn by hand or rounded to hundredths of an inch).
pub const FACING_TOLERANCE: f64 = 2.0;

/// The direction from `from` to `to` in degrees clockwise on the board from
/// +x (0-359.99), as a vehicle's facing is measured.
pub fn bearing(from: Point, to: Point) -> f64 {
    let d = f64::from(to.y - from.y)
        .atan2(f64::from(to.x - from.x))
        .to_degrees();
    d.rem_euclid(360.0)
}

/// The bearing rounded to a whole facing.
pub fn facing_towards(from: Point, to: Point) -> i32 {
    (bearing(from, to).round() as i32).rem_euclid(360)
}

/// How far apart two directions are, in degrees (0-180).
pub fn angle_between(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

pub fn group_mobility(s: &InvasionState, g: GroupId) -> Mobility {
    let group = s.group(g);
    group
        .alive()
        .filter_map(|m| s.model_type(group.seat, &m.kind))
        .map(|t| t.mobility)
        .next()
        .unwrap_or(Mobility::Foot)
}

/// Decide a command.
pub fn decide(
    s: &InvasionState,
    actor: Actor,
    command: &InvasionCommand,
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    if s.over.is_some() {
        return Err(RuleError::game_over());
    }
    use InvasionCommand as C;
    match command {
        C::Continue => {
            if actor != Actor::SYSTEM {
                return Err(RuleError::not_your_turn(
                    "only the game itself takes its own steps",
                ));
            }
            if automatic(s).is_none() {
                return Err(RuleError::not_your_turn(
                    "no step of the game's own is due: a player is asked",
                ));
            }
            step(s, rng)
        }
        C::Casualties { models } => choose_casualties(s, actor, models),
        C::Strike { target } => strike(s, actor, *target, rng),
        C::Occupy { take } => occupy(s, actor, *take),
        C::ChoosePoint { to } => super::choose::choose_point(s, actor, *to),
        C::Spring {
            group,
            target,
            declare,
        } => super::wait::spring(s, actor, *group, *target, declare, rng),
        C::LetPass => super::wait::let_pass(s, actor),
        _ => {
            if actor == Actor::SYSTEM {
                return Err(RuleError::not_your_turn("the game itself gives no orders"));
            }
            if let Some(p) = s.pending.first() {
                return Err(RuleError::not_your_turn(waiting_for(s, p)));
            }
            if automatic(s).is_some() {
                return Err(RuleError::not_your_turn(
                    "the game takes a step of its own first",
                ));
            }
            let Some(card) = s.card() else {
                return Err(RuleError::not_your_turn("no card is being played"));
            };
            if card.seat != Some(actor.0) {
                return Err(RuleError::not_your_turn(match card.seat {
                    Some(seat) => format!(
                        "the card in play is a {} Action card for {}",
                        card.kind.word(),
                        s.faction(seat).name
                    ),
                    None => "the card in play is a Special Event card".to_owned(),
                }));
            }
            super::advanced::check_command(s, command)?;
            super::wait::check_command(s, command)?;
            super::fly::check_command(s, command)?;
            let mut events = super::actions::action(s, actor.0, command, rng)?;
            // Laying in Wait: an enemy that comes into a waiting group's
            // sight, even passing through, is ambushed out of turn (its
            // player is asked).
            let due = super::wait::ambushes_after(s, &events);
            events.extend(due);
            // At a real table, the order's move or shot made by the player.
            if s.real_table {
                for (g, order, _) in &s.advanced.orders {
                    let mine = match command {
                        InvasionCommand::Move { group, .. } => group == g,
                        InvasionCommand::Shoot { shooters, .. } => shooters.contains(g),
                        _ => false,
                    };
                    if mine && *order != super::advanced::Order::Nothing {
                        events.push(E::OrderCarried {
                            group: *g,
                            note: None,
                        });
                    }
                }
            }
            Ok(events)
        }
    }
}

/// What the queue waits for, in words.
pub fn waiting_for(s: &InvasionState, p: &Pending) -> String {
    match p {
        Pending::Casualties {
            seat, group, count, ..
        } => format!(
            "{} must first choose {count} casualt{} of {}",
            s.faction(*seat).name,
            if *count == 1 { "y" } else { "ies" },
            group_name(s, *group)
        ),
        Pending::Strike { seat, .. } => {
            format!("{} must first strike in the melee", s.faction(*seat).name)
        }
        Pending::ResolveMelees { .. } | Pending::Aftermath { .. } => {
            "the melees are being resolved".into()
        }
        Pending::Occupy { seat, .. } => format!(
            "{} must first say whether they take the ground they won",
            s.faction(*seat).name
        ),
        Pending::Ambush {
            seat,
            group,
            target,
        } => format!(
            "{} must first say whether {} springs its ambush on {}",
            s.faction(*seat).name,
            group_name(s, *group),
            group_name(s, *target)
        ),
        Pending::Point { seat, group, why } => format!(
            "{} must first {}",
            s.faction(*seat).name,
            super::choose::asked_words(s, *group, *why)
        ),
    }
}

fn choose_casualties(
    s: &InvasionState,
    actor: Actor,
    models: &[String],
) -> Result<Vec<E>, RuleError> {
    let open = open_casualties(s);
    // A player asked for casualties in several groups at once (a blast, a
    // shot into a melee) answers for the group of the first figure named.
    let mine = |(seat, g, ..): &&(u8, GroupId, u32, Vec<String>)| {
        Actor(*seat) == actor
            && models
                .first()
                .is_some_and(|m| s.group(*g).alive().any(|x| x.id == *m))
    };
    let Some((_, g, count, among)) = open
        .iter()
        .find(mine)
        .or_else(|| open.iter().find(|(seat, ..)| Actor(*seat) == actor))
        .cloned()
    else {
        return Err(match open.first() {
            Some((seat, ..)) => RuleError::not_your_turn(format!(
                "{} chooses the casualties now",
                s.faction(*seat).name
            )),
            None => illegal("Shoot", "there are no casualties to choose"),
        });
    };
    if models.is_empty() || models.len() > count as usize {
        return Err(illegal(
            "Shoot",
            if count == 1 {
                format!("choose 1 casualty of {}", group_name(s, g))
            } else {
                format!(
                    "choose between 1 and {count} casualties of {}",
                    group_name(s, g)
                )
            },
        ));
    }
    let group = s.group(g);
    let mut out = Vec::new();
    for (i, m) in models.iter().enumerate() {
        if models[..i].contains(m) {
            return Err(illegal("Shoot", format!("{m} is chosen twice")));
        }
        let Some(model) = group.models.iter().find(|x| x.id == *m && x.alive) else {
            return Err(illegal(
                "Shoot",
                format!("{m} is not a living figure of {}", group_name(s, g)),
            ));
        };
        if !among.is_empty() && !among.iter().any(|a| *a == model.id) {
            return Err(illegal(
                "Mites",
                format!("{} was not caught in the blast", model.name),
            ));
        }
        killed(s, g, m, &mut out);
    }
    // A group of mixed kill scores: each casualty is paid at its own.
    let budget = s.pending.iter().find_map(|p| match p {
        Pending::Casualties {
            group,
            budget: Some(b),
            ..
        } if *group == g => Some(b.clone()),
        _ => None,
    });
    if let Some(b) = budget {
        let mut cost = 0u64;
        for m in models {
            let x = group.models.iter().find(|x| x.id == *m);
            cost += u64::from(x.map_or(u32::MAX, |x| model_cost(s, group.seat, x, b.cover)));
        }
        if cost > u64::from(b.total) {
            return Err(illegal(
                "Shoot",
                format!(
                    "each casualty is paid for at its own kill score: these cost {cost} and {} of the total is left",
                    b.total
                ),
            ));
        }
        if b.by != group.seat {
            let by: Vec<GroupId> = b.by_group.into_iter().collect();
            credit_kills(s, b.by, &by, models.len() as u32, &mut out);
        }
    }
    Ok(out)
}

fn strike(
    s: &InvasionState,
    actor: Actor,
    target: Option<u8>,
    rng: &mut Randomness,
) -> Result<Vec<E>, RuleError> {
    let Some(&Pending::Strike {
        melee,
        seat,
        dice,
        bonus,
    }) = s.pending.first()
    else {
        return Err(match s.pending.first() {
            Some(p) => RuleError::not_your_turn(waiting_for(s, p)),
            None => illegal(
                "Resolving hand-to-hand combat",
                "no melee is being resolved",
            ),
        });
    };
    if actor != Actor(seat) {
        return Err(RuleError::not_your_turn(format!(
            "{} strikes now",
            s.faction(seat).name
        )));
    }
    let seats = melee_seats(s, melee);
    let enemies: Vec<u8> = seats.iter().copied().filter(|&x| x != seat).collect();
    let below = s.melee(melee).is_some_and(|m| m.below);
    // Below the table the underground faction's damage is resolved before
    // the others roll, so theirs are counted now.
    let dice = if below && !s.faction(seat).rules.underground {
        melee_group_of(s, melee, seat).map_or(0, |g| melee_dice(s, g))
    } else {
        dice
    };
    let target = match (target, enemies.as_slice()) {
        (_, []) => None,
        (None, [only]) => Some(*only),
        (Some(t), _) if enemies.contains(&t) => Some(t),
        (Some(t), _) => {
            return Err(illegal(
                "Resolving hand-to-hand combat",
                format!("seat {} has no figures in this melee", t + 1),
            ));
        }
        (None, _) => {
            return Err(illegal(
                "Resolving hand-to-hand combat",
                "more than two factions fight: choose a target faction",
            ));
        }
    };
    let rolled = rng.roll(dice as usize, 6)?;
    let mut out = vec![E::Struck {
        melee,
        seat,
        target: target.unwrap_or(seat),
        dice: rolled.clone(),
    }];
    let Some(target) = target else {
        return Ok(out);
    };
    let Some(tg) = melee_group_of(s, melee, target) else {
        return Ok(out);
    };
    let defender = s.melee(melee).and_then(|m| m.defender);
    let cover = |g: GroupId| match defender {
        Some((d, c)) if d == g => c,
        _ => Cover::Open,
    };
    let shares = if enemies.len() > 1 {
        let others: Vec<GroupId> = enemies
            .iter()
            .filter(|&&x| x != target)
            .filter_map(|&x| melee_group_of(s, melee, x))
            .collect();
        split_dice(&rolled, tg, &others)
    } else {
        vec![(tg, rolled)]
    };
    let credit: Vec<GroupId> = melee_group_of(s, melee, seat).into_iter().collect();
    deal(s, seat, &credit, &shares, bonus, &cover, &mut out);
    Ok(out)
}
