//! Commands: what a player may do now (`legal`) and deciding one (`decide`).
//! The checks run in a fixed order: the battle is not over, it is this
//! player's decision, the command fits the pending decision, then its rules.

use serde::{Deserialize, Serialize};

use crate::game::{Actor, RuleError, RuleErrorKind};
use crate::rng::Randomness;

use super::combat::{bump, bump_check, fire, marine_fire};
use super::kayotz::{self, Choice};
use super::map::Hex;
use super::movement::{do_jump, do_move, jump_targets, move_targets};
use super::rules::{Ctx, map_of};
use super::special;
use super::state::{Action, DimxEvent, DimxState, Partial, Phase, Side};
use super::units::{AlienKind, Condition, Marine, Place, Weapon};

/// A player's command, as `legal` lists it and `play` takes it (JSON:
/// `{"full_move": {"unit": "SC1", "to": 415}}`, `"end_action_phase"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DimxCommand {
    /// Full Move to a hex (C.1 a); a waiting unit enters through an entry hex.
    FullMove {
        unit: String,
        to: Hex,
    },
    /// Full Move by jump pack (C.2).
    Jump {
        unit: String,
        to: Hex,
    },
    /// Full Fire at a Kay'otz unit (D.3), with the BUMP gun for Special Ops
    /// (D.6). `dice` rolls fewer dice than the CF allows (D.4).
    FullFire {
        unit: String,
        target: String,
        #[serde(default)]
        dice: Option<u8>,
    },
    /// The move half of a Shoot and Scoot (C.1 b), before or after its fire.
    ShootAndScootMove {
        unit: String,
        to: Hex,
    },
    /// The move half of a Shoot and Scoot by jump pack (C.2: -1).
    ShootAndScootJump {
        unit: String,
        to: Hex,
    },
    /// The fire half of a Shoot and Scoot (D.3 a: -1 CF).
    ShootAndScootFire {
        unit: String,
        target: String,
        #[serde(default)]
        dice: Option<u8>,
    },
    /// End a Shoot and Scoot after one half, or decline a reinforcement.
    FinishAction {
        unit: String,
    },
    /// Leave the map from an exit hex the scenario allows (C.4), as a Full Move.
    LeaveMap {
        unit: String,
    },
    /// Recon by a Scout, with an assisting HQ if any (E.2).
    Recon {
        unit: String,
        #[serde(default)]
        hq: Option<String>,
    },
    BuildStrongpoint {
        unit: String,
    },
    Rally {
        unit: String,
    },
    ReSupply {
        unit: String,
        target: String,
    },
    RequestReinforcements {
        unit: String,
    },
    /// After a successful request: the unit taken from the pool (E.6).
    TakeReinforcement {
        unit: String,
    },
    /// The Marine Action Phase is over; the Kay'otz act (B.2).
    EndActionPhase,
    /// Pick the chit to enact from the two drawn (B.2, variant).
    ChooseChit {
        chit: String,
    },
    /// Two-player variant: the Kay'otz player activates this unit next,
    /// breaking ties of target and hex when there are any.
    Activate {
        unit: String,
        #[serde(default)]
        target: Option<String>,
        #[serde(default)]
        hex: Option<Hex>,
    },
    /// Two-player variant: the Kay'otz player puts a unit that cannot stay
    /// where it landed on one of the equally eligible hexes (a scattered or
    /// malfunctioning jump, a beamed, warped or summoned alien).
    PlaceUnit {
        unit: String,
        hex: Hex,
    },
    /// Two-player variant: the Kay'otz player rolls the dice of a chit step
    /// that acts on the map as a whole (a Summon to random hexes), "The
    /// Kay'otz player makes all the necessary die rolls for the alien units".
    RollForAliens,
}

impl DimxCommand {
    /// The unit a command is about, if any.
    pub fn unit(&self) -> Option<&str> {
        use DimxCommand as C;
        match self {
            C::FullMove { unit, .. }
            | C::Jump { unit, .. }
            | C::FullFire { unit, .. }
            | C::ShootAndScootMove { unit, .. }
            | C::ShootAndScootJump { unit, .. }
            | C::ShootAndScootFire { unit, .. }
            | C::FinishAction { unit }
            | C::LeaveMap { unit }
            | C::Recon { unit, .. }
            | C::BuildStrongpoint { unit }
            | C::Rally { unit }
            | C::ReSupply { unit, .. }
            | C::RequestReinforcements { unit }
            | C::TakeReinforcement { unit }
            | C::Activate { unit, .. }
            | C::PlaceUnit { unit, .. } => Some(unit),
            C::EndActionPhase | C::ChooseChit { .. } | C::RollForAliens => None,
        }
    }
}

/// Who decides now.
pub fn to_move(s: &DimxState) -> Option<Actor> {
    if s.placing.is_some() && !s.is_over() {
        return Some(Actor(1));
    }
    match &s.phase {
        Phase::MarineAction { .. } => Some(Actor(0)),
        Phase::ChooseChit { by, .. } => Some(side_actor(*by)),
        Phase::Kayotz { .. } => Some(Actor(1)),
        Phase::Activated | Phase::Over { .. } => None,
    }
}

/// Who is asked to act now and what for (one seat at a time in this game).
pub fn asked(s: &DimxState) -> Vec<crate::game::Ask> {
    let Some(seat) = to_move(s) else {
        return Vec::new();
    };
    // the unit waiting to be put down may be a Marine unit (a jump that
    // scattered or malfunctioned): it is named, never called a Kay'otz unit
    let what = if let Some(p) = &s.placing {
        format!(
            "break a tie: choose where {} goes",
            super::rules::title_of(s, &p.unit)
        )
    } else {
        match &s.phase {
            Phase::MarineAction { .. } => "activate a unit, or end the Marine Action Phase",
            Phase::ChooseChit { .. } => "choose the Activation Chit to enact",
            Phase::Kayotz { .. } if kayotz::waiting_roll(s, map_of(s)).is_some() => {
                "roll the dice of the chit's step: units summoned to random hexes"
            }
            Phase::Kayotz { .. } => "activate the Kay'otz units the chit names",
            Phase::Activated | Phase::Over { .. } => "",
        }
        .to_owned()
    };
    vec![crate::game::Ask { seat, what }]
}

/// The seat that plays a side.
pub fn side_actor(s: Side) -> Actor {
    match s {
        Side::Marines => Actor(0),
        Side::Kayotz => Actor(1),
    }
}

/// Decide a command.
pub fn decide(
    s: &DimxState,
    actor: Actor,
    cmd: &DimxCommand,
    rng: &mut Randomness,
) -> Result<Vec<DimxEvent>, RuleError> {
    decide_and_apply(s, actor, cmd, rng).map(|(events, _)| events)
}

/// Decide a command into its events and the state after them (the copy
/// [`Ctx::emit`] applied every event to as it was made; a Monolith's
/// switch, logged after it, changes nothing when applied).
pub fn decide_and_apply(
    s: &DimxState,
    actor: Actor,
    cmd: &DimxCommand,
    rng: &mut Randomness,
) -> Result<(Vec<DimxEvent>, DimxState), RuleError> {
    if s.is_over() {
        return Err(RuleError::game_over());
    }
    let who = to_move(s).ok_or_else(RuleError::game_over)?;
    if who != actor {
        return Err(RuleError::not_your_turn(format!(
            "it is the {} player's decision now",
            if who == Actor(0) { "Marine" } else { "Kay'otz" }
        )));
    }
    s.check().map_err(|why| {
        RuleError::new(
            RuleErrorKind::Illegal,
            format!("this battle does not fit the rules content of this build: {why}"),
        )
    })?;
    let mut ctx = Ctx::new(s, rng);
    if s.placing.is_some() {
        let DimxCommand::PlaceUnit { unit, hex } = cmd else {
            return Err(wrong(
                "the Kay'otz player first chooses where the waiting unit goes (place_unit)",
            ));
        };
        kayotz::place(&mut ctx, unit, *hex)?;
        return Ok((ctx.events, ctx.s));
    }
    match s.phase.clone() {
        Phase::MarineAction { partial } => marine_phase(&mut ctx, partial, cmd)?,
        Phase::ChooseChit { options, .. } => {
            let DimxCommand::ChooseChit { chit } = cmd else {
                return Err(wrong(
                    "choose which of the two drawn chits to enact (choose_chit)",
                ));
            };
            let Some(&c) = options.iter().find(|&&o| {
                s.chits()
                    .get(usize::from(o))
                    .is_some_and(|x| x.key == *chit)
            }) else {
                let names: Vec<_> = options
                    .iter()
                    .map(|&o| {
                        s.chits()
                            .get(usize::from(o))
                            .map(|c| c.key.clone())
                            .unwrap_or_default()
                    })
                    .collect();
                return Err(RuleError::illegal(
                    "B.2",
                    format!(
                        "'{chit}' is not one of the drawn chits ({})",
                        names.join(", ")
                    ),
                ));
            };
            let returned = options.iter().copied().filter(|&o| o != c).collect();
            ctx.emit(DimxEvent::ChitChosen {
                chit: c,
                name: s.chit_name(c),
                returned,
            });
            kayotz::run(&mut ctx)?;
        }
        Phase::Kayotz { .. } if kayotz::waiting_roll(s, ctx.map).is_some() => {
            if *cmd != DimxCommand::RollForAliens {
                return Err(wrong(
                    "the Kay'otz player first rolls the dice of the chit's step (roll_for_aliens)",
                ));
            }
            kayotz::roll_for_aliens(&mut ctx)?;
        }
        Phase::Kayotz { todo, .. } => {
            let DimxCommand::Activate { unit, target, hex } = cmd else {
                return Err(wrong(
                    "activate one of the Kay'otz units the chit names (activate)",
                ));
            };
            if !todo.as_ref().is_some_and(|t| t.iter().any(|u| u == unit)) {
                return Err(RuleError::illegal(
                    "F.2",
                    format!("{unit} is not one of the units still to act for this chit"),
                ));
            }
            kayotz::act(
                &mut ctx,
                unit,
                &Choice {
                    target: target.clone(),
                    hex: *hex,
                },
            )?;
            kayotz::run(&mut ctx)?;
        }
        Phase::Activated | Phase::Over { .. } => return Err(RuleError::game_over()),
    }
    Ok((ctx.events, ctx.s))
}

fn wrong(what: &str) -> RuleError {
    RuleError::new(RuleErrorKind::Illegal, format!("not now: {what}"))
}

/// A unit that may start an action: it exists, has not acted, is on the map
/// or waiting at its edge (B.1).
fn ready(ctx: &Ctx, unit: &str) -> Result<Marine, RuleError> {
    let m = ctx.marine_for("B.1", unit)?;
    if m.acted {
        return Err(RuleError::illegal(
            "B.1",
            format!("{} has already acted this phase", m.title()),
        ));
    }
    match m.place {
        Place::Map(_) | Place::Waiting => Ok(m),
        _ => Err(RuleError::illegal(
            "B.1",
            format!("{} is not on the map", m.title()),
        )),
    }
}

fn shoot(
    ctx: &mut Ctx,
    unit: &str,
    target: &str,
    scoot: bool,
    dice: Option<u8>,
) -> Result<(), RuleError> {
    let m = ctx.marine_for("D.3", unit)?;
    if m.weapon() == Weapon::Bump {
        if dice.is_some() {
            return Err(RuleError::illegal(
                "D.6",
                "the BUMP gun rolls one die on its table: no dice count to choose",
            ));
        }
        bump(ctx, unit, target, scoot)
    } else {
        fire(ctx, unit, target, scoot, dice)
    }
}

fn marine_phase(
    ctx: &mut Ctx,
    partial: Option<Partial>,
    cmd: &DimxCommand,
) -> Result<(), RuleError> {
    marine_command(ctx, partial, cmd)?;
    end_action_of_a_unit_gone(ctx);
    Ok(())
}

/// The action of a unit that left the map half-way through it (eliminated
/// by its own malfunctioning jump, say) ends with it, so it blocks no other
/// unit (rules version 3; before, a `finish_action` for the unit no longer
/// on the map was needed). A unit jumping in from off the map whose landing
/// the Kay'otz player is still to choose (variant, `placing`) is not gone:
/// it is in the air, and once put down it may still fire (C.1 b; rules
/// version 6, before which its action ended before it landed).
fn end_action_of_a_unit_gone(ctx: &mut Ctx) {
    let Phase::MarineAction {
        partial: Some(Partial::ShootAndScoot { unit, .. }),
    } = &ctx.s.phase
    else {
        return;
    };
    let being_placed = ctx.s.placing.as_ref().is_some_and(|p| p.unit == *unit);
    if being_placed || ctx.marine(unit).is_some_and(|m| m.on_map().is_some()) {
        return;
    }
    let unit = unit.clone();
    ctx.emit(DimxEvent::ActionFinished {
        kind: ctx.kind_of(&unit),
        unit,
    });
}

fn marine_command(
    ctx: &mut Ctx,
    partial: Option<Partial>,
    cmd: &DimxCommand,
) -> Result<(), RuleError> {
    use DimxCommand as C;
    if let C::EndActionPhase = cmd {
        match partial {
            Some(Partial::ShootAndScoot { unit, .. }) => ctx.emit(DimxEvent::ActionFinished {
                kind: ctx.kind_of(&unit),
                unit,
            }),
            Some(Partial::Reinforcement { hq }) => ctx.emit(DimxEvent::ActionFinished {
                kind: ctx.kind_of(&hq),
                unit: hq,
            }),
            None => {}
        }
        ctx.emit(DimxEvent::ActionPhaseEnded { turn: ctx.s.turn });
        return kayotz::draw_and_run(ctx, true);
    }
    match partial {
        Some(Partial::ShootAndScoot { unit, moved, fired }) => {
            match cmd {
                C::ShootAndScootMove { unit: u, to } if *u == unit && !moved => {
                    do_move(ctx, u, *to, true)?
                }
                C::ShootAndScootJump { unit: u, to } if *u == unit && !moved => {
                    do_jump(ctx, u, *to, true)?
                }
                C::ShootAndScootFire {
                    unit: u,
                    target,
                    dice,
                } if *u == unit && !fired => shoot(ctx, u, target, true, *dice)?,
                C::FinishAction { unit: u } if *u == unit => {
                    ctx.emit(DimxEvent::ActionFinished {
                        kind: ctx.kind_of(&unit),
                        unit,
                    });
                    return Ok(());
                }
                _ => {
                    return Err(RuleError::illegal(
                        "B.1",
                        format!(
                            "finish {unit}'s Shoot and Scoot first (its {} or finish_action)",
                            if moved {
                                "fire"
                            } else if fired {
                                "move"
                            } else {
                                "move or fire"
                            }
                        ),
                    ));
                }
            }
            if let Phase::MarineAction {
                partial:
                    Some(Partial::ShootAndScoot {
                        moved: true,
                        fired: true,
                        ..
                    }),
            } = ctx.s.phase
            {
                ctx.emit(DimxEvent::ActionFinished {
                    kind: ctx.kind_of(&unit),
                    unit,
                });
            }
            return Ok(());
        }
        Some(Partial::Reinforcement { hq }) => {
            return match cmd {
                C::TakeReinforcement { unit } => {
                    let m = ctx.marine_for("E.6", unit)?;
                    if m.place != Place::Pool {
                        return Err(RuleError::illegal(
                            "E.6",
                            format!("{} is not in the pool of available units", m.title()),
                        ));
                    }
                    ctx.emit(DimxEvent::ReinforcementTaken {
                        unit: unit.clone(),
                        kind: m.kind,
                    });
                    Ok(())
                }
                C::FinishAction { unit } if *unit == hq => {
                    ctx.emit(DimxEvent::ActionFinished {
                        kind: ctx.kind_of(&hq),
                        unit: hq,
                    });
                    Ok(())
                }
                _ => Err(RuleError::illegal(
                    "E.6",
                    "choose the unit to take from the pool (take_reinforcement), or finish_action to take none",
                )),
            };
        }
        None => {}
    }
    match cmd {
        C::FullMove { unit, to } => {
            ready(ctx, unit)?;
            ctx.chose(unit, Action::FullMove);
            do_move(ctx, unit, *to, false)
        }
        C::Jump { unit, to } => {
            ready(ctx, unit)?;
            ctx.chose(unit, Action::FullMove);
            do_jump(ctx, unit, *to, false)
        }
        C::FullFire { unit, target, dice } => {
            ready(ctx, unit)?;
            ctx.chose(unit, Action::FullFire);
            shoot(ctx, unit, target, false, *dice)
        }
        C::ShootAndScootMove { unit, to } => {
            ready(ctx, unit)?;
            ctx.chose(unit, Action::ShootAndScoot);
            do_move(ctx, unit, *to, true)
        }
        C::ShootAndScootJump { unit, to } => {
            ready(ctx, unit)?;
            ctx.chose(unit, Action::ShootAndScoot);
            do_jump(ctx, unit, *to, true)
        }
        C::ShootAndScootFire { unit, target, dice } => {
            ready(ctx, unit)?;
            ctx.chose(unit, Action::ShootAndScoot);
            shoot(ctx, unit, target, true, *dice)
        }
        C::LeaveMap { unit } => {
            let m = ready(ctx, unit)?;
            let Some(h) = m.on_map() else {
                return Err(RuleError::illegal(
                    "C.4",
                    format!("{} is not on the map", m.title()),
                ));
            };
            if !ctx.s.rules.exit.contains(&h) {
                return Err(RuleError::illegal(
                    "C.4",
                    format!(
                        "no unit may leave the map unless the scenario allows it: {h} is not an exit hex"
                    ),
                ));
            }
            if m.condition == Condition::Paralyzed {
                return Err(RuleError::illegal(
                    "C.1",
                    format!("{} is Paralyzed and may not move at all", m.title()),
                ));
            }
            ctx.chose(unit, Action::FullMove);
            ctx.emit(DimxEvent::ExitedMap {
                kind: ctx.kind_of(unit),
                unit: unit.clone(),
                from: h,
            });
            Ok(())
        }
        C::Recon { unit, hq } => {
            ready(ctx, unit)?;
            special::recon(ctx, unit, hq.as_deref())
        }
        C::BuildStrongpoint { unit } => {
            ready(ctx, unit)?;
            special::strongpoint(ctx, unit)
        }
        C::Rally { unit } => {
            ready(ctx, unit)?;
            special::rally(ctx, unit)
        }
        C::ReSupply { unit, target } => {
            ready(ctx, unit)?;
            special::resupply(ctx, unit, target)
        }
        C::RequestReinforcements { unit } => {
            ready(ctx, unit)?;
            special::request(ctx, unit)
        }
        C::FinishAction { unit } => Err(RuleError::illegal(
            "B.1",
            format!("{unit} is not in the middle of an action"),
        )),
        C::TakeReinforcement { .. } => Err(RuleError::illegal(
            "E.6",
            "take a reinforcement only after a successful Request Reinforcements",
        )),
        C::EndActionPhase => Ok(()),
        C::ChooseChit { .. } => Err(wrong("it is the Marine Action Phase; no chits are drawn")),
        C::Activate { .. } => Err(wrong(
            "it is the Marine Action Phase; the Kay'otz act after it",
        )),
        C::PlaceUnit { .. } => Err(wrong("no unit is waiting to be put down")),
        C::RollForAliens => Err(wrong(
            "it is the Marine Action Phase; the Kay'otz roll in their phase",
        )),
    }
}

/// Every command some player may give now.
pub fn legal(s: &DimxState) -> Vec<(Actor, DimxCommand)> {
    use DimxCommand as C;
    let mut out = Vec::new();
    // a state that names content this build lacks takes no command (decide
    // says why)
    if s.check().is_err() {
        return out;
    }
    let map = map_of(s);
    if let Some(p) = &s.placing {
        if !s.is_over() {
            for &hex in &p.hexes {
                out.push((
                    Actor(1),
                    C::PlaceUnit {
                        unit: p.unit.clone(),
                        hex,
                    },
                ));
            }
        }
        return out;
    }
    match &s.phase {
        Phase::MarineAction { partial } => {
            let a = Actor(0);
            match partial {
                Some(Partial::ShootAndScoot { unit, moved, fired }) => {
                    if let Some(m) = s.marine(unit) {
                        if !moved {
                            scoot_moves(s, m, &mut out);
                        }
                        if !fired {
                            fires(s, m, true, &mut out);
                        }
                    }
                    out.push((a, C::FinishAction { unit: unit.clone() }));
                }
                Some(Partial::Reinforcement { hq }) => {
                    for m in s.marines.iter().filter(|m| m.place == Place::Pool) {
                        out.push((
                            a,
                            C::TakeReinforcement {
                                unit: String::from(&m.id),
                            },
                        ));
                    }
                    out.push((a, C::FinishAction { unit: hq.clone() }));
                }
                None => {
                    for m in s.marines_to_act() {
                        let u = || String::from(&m.id);
                        let (_, moves) = move_targets(s, map, m, false);
                        out.extend(
                            moves
                                .into_iter()
                                .map(|(h, _)| (a, C::FullMove { unit: u(), to: h })),
                        );
                        out.extend(
                            jump_targets(s, map, m)
                                .into_iter()
                                .map(|h| (a, C::Jump { unit: u(), to: h })),
                        );
                        fires(s, m, false, &mut out);
                        scoot_moves(s, m, &mut out);
                        fires(s, m, true, &mut out);
                        if m.condition != Condition::Paralyzed
                            && m.on_map().is_some_and(|h| s.rules.exit.contains(&h))
                        {
                            out.push((a, C::LeaveMap { unit: u() }));
                        }
                        if special::recon_check(s, m, None).is_ok() {
                            out.push((
                                a,
                                C::Recon {
                                    unit: u(),
                                    hq: None,
                                },
                            ));
                            for h in s
                                .marines
                                .iter()
                                .filter(|h| special::recon_check(s, m, Some(h)).is_ok())
                            {
                                out.push((
                                    a,
                                    C::Recon {
                                        unit: u(),
                                        hq: Some(String::from(&h.id)),
                                    },
                                ));
                            }
                        }
                        if special::strongpoint_check(s, m).is_ok() {
                            out.push((a, C::BuildStrongpoint { unit: u() }));
                        }
                        if special::rally_check(m).is_ok() {
                            out.push((a, C::Rally { unit: u() }));
                        }
                        for t in s
                            .marines
                            .iter()
                            .filter(|t| special::resupply_check(s, map, m, t).is_ok())
                        {
                            out.push((
                                a,
                                C::ReSupply {
                                    unit: u(),
                                    target: String::from(&t.id),
                                },
                            ));
                        }
                        if special::reinforcements_check(s, m).is_ok() {
                            out.push((a, C::RequestReinforcements { unit: u() }));
                        }
                    }
                }
            }
            out.push((a, C::EndActionPhase));
        }
        Phase::ChooseChit { options, by } => {
            for &o in options {
                out.push((
                    side_actor(*by),
                    C::ChooseChit {
                        chit: s
                            .chits()
                            .get(usize::from(o))
                            .map(|c| c.key.clone())
                            .unwrap_or_default(),
                    },
                ));
            }
        }
        Phase::Kayotz { .. } if kayotz::waiting_roll(s, map).is_some() => {
            out.push((Actor(1), C::RollForAliens));
        }
        Phase::Kayotz { todo: Some(t), .. } => {
            for u in t {
                for ch in kayotz::choices(s, map, u) {
                    out.push((
                        Actor(1),
                        C::Activate {
                            unit: u.to_string(),
                            target: ch.target,
                            hex: ch.hex,
                        },
                    ));
                }
            }
        }
        Phase::Kayotz { .. } | Phase::Activated | Phase::Over { .. } => {}
    }
    out
}

fn scoot_moves(s: &DimxState, m: &Marine, out: &mut Vec<(Actor, DimxCommand)>) {
    let map = map_of(s);
    let (_, moves) = move_targets(s, map, m, true);
    out.extend(moves.into_iter().map(|(h, _)| {
        (
            Actor(0),
            DimxCommand::ShootAndScootMove {
                unit: String::from(&m.id),
                to: h,
            },
        )
    }));
    out.extend(jump_targets(s, map, m).into_iter().map(|h| {
        (
            Actor(0),
            DimxCommand::ShootAndScootJump {
                unit: String::from(&m.id),
                to: h,
            },
        )
    }));
}

fn fires(s: &DimxState, m: &Marine, scoot: bool, out: &mut Vec<(Actor, DimxCommand)>) {
    let map = map_of(s);
    if m.on_map().is_none() || m.condition == Condition::Paralyzed {
        return;
    }
    for a in s
        .aliens
        .iter()
        .filter(|a| a.on_map().is_some() && a.kind != AlienKind::Monolith)
    {
        let ok = if m.weapon() == Weapon::Bump {
            bump_check(map, m, a, scoot).is_ok()
        } else {
            marine_fire(s, map, m, a, scoot).is_ok()
        };
        if ok {
            let (unit, target) = (String::from(&m.id), String::from(&a.id));
            out.push((
                Actor(0),
                if scoot {
                    DimxCommand::ShootAndScootFire {
                        unit,
                        target,
                        dice: None,
                    }
                } else {
                    DimxCommand::FullFire {
                        unit,
                        target,
                        dice: None,
                    }
                },
            ));
        }
    }
}
