//! Combat (D): Marine fire, the BUMP gun, Kay'otz fire, ADM markers, Out of
//! Ammo, and the Overlord's Mission Goal chit.

use crate::game::RuleError;

use super::map::{Cell, Cells, Hex, Map, Terrain};
use super::rules::{
    Ctx, active_adjacent, alien_active, cell, nearest_free, put_down, settle, unit_cells, worse,
};
use super::state::{BumpResult, Cause, DimxEvent, DimxState, GoalWhy, Mod, ModWhy, PlaceWhy};
use super::units::{Alien, AlienKind, Condition, Marine, MarineKind, Weapon};

/// A Marine unit's fire worked out before the dice (D.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirePlan {
    pub base: u8,
    pub mods: Vec<Mod>,
    /// Dice to roll: CF after every modifier.
    pub net: i8,
}

/// The modifiers a Marine unit's own roll takes whatever it rolls for (its
/// fire, the BUMP gun, a jump): -1 with Shoot and Scoot, -1 if Stunned.
pub fn own_mods(m: &Marine, scoot: bool) -> Vec<Mod> {
    let mut mods = Vec::new();
    if scoot {
        mods.push(Mod {
            value: -1,
            why: ModWhy::ShootAndScoot,
        });
    }
    if m.condition == Condition::Stunned {
        mods.push(Mod {
            value: -1,
            why: ModWhy::Stunned,
        });
    }
    mods
}

/// Why a Marine may not fire at a target, or its fire before the dice.
pub fn marine_fire(
    s: &DimxState,
    map: &Map,
    m: &Marine,
    a: &Alien,
    scoot: bool,
) -> Result<FirePlan, RuleError> {
    let (mh, ah) = check_shot(m, a)?;
    let (mc, ac) = (cell(map, mh), cell(map, ah));
    let adjacent = map.adjacent(mc, ac);
    let base = match m.weapon() {
        Weapon::Guns(cf) => {
            // D.2: Forest, Buildings, Lava, or any unit on the line blocks it
            let between = map.between(mc, ac);
            let units = unit_cells(s, map);
            if between.meets(&map.blocks_marines) || between.meets(&units) {
                return Err(RuleError::illegal(
                    "D.2",
                    format!(
                        "{}'s line of fire to {ah} {}",
                        m.title(),
                        blocked_by(s, map, mc, ac, &units)
                    ),
                ));
            }
            cf
        }
        Weapon::Pistol(cf) => {
            if !adjacent {
                return Err(RuleError::illegal(
                    "D.8",
                    format!(
                        "{} fires pistols, which reach only an adjacent alien unit",
                        m.title()
                    ),
                ));
            }
            cf
        }
        Weapon::Bump => {
            return Err(RuleError::illegal(
                "D.6",
                format!("{} fires the BUMP gun (command bump_fire)", m.title()),
            ));
        }
        Weapon::Unarmed => {
            return Err(RuleError::illegal(
                "D.8",
                format!(
                    "{} is out of ammo and has no pistols: it may not fire at all",
                    m.title()
                ),
            ));
        }
    };
    let mut mods = own_mods(m, scoot);
    if matches!(
        map.terrain(ac),
        Terrain::Forest | Terrain::Rough | Terrain::Buildings
    ) {
        mods.push(Mod {
            value: -1,
            why: ModWhy::TargetTerrain,
        });
    }
    if active_adjacent(s, map, mh, MarineKind::Hq, &m.id) {
        mods.push(Mod {
            value: 1,
            why: ModWhy::HqAdjacent,
        });
    }
    if a.dormant {
        mods.push(Mod {
            value: 1,
            why: ModWhy::TargetDormant,
        });
    }
    if adjacent {
        mods.push(Mod {
            value: 1,
            why: ModWhy::Adjacent,
        });
    }
    let net = base as i8 + mods.iter().map(|x| x.value).sum::<i8>();
    if net < 1 {
        return Err(RuleError::illegal(
            "D.3",
            format!(
                "{}'s CF against {ah} comes to {net}: no combat can be conducted",
                m.title()
            ),
        ));
    }
    Ok(FirePlan { base, mods, net })
}

/// What blocks a Marine unit's line of fire from `from` to `to`, in words:
/// the first blocking hex or unit the line meets, and whether it crosses that
/// hex or only touches its edge (D.2 "crosses inside or on the hexside").
fn blocked_by(s: &DimxState, map: &Map, from: Cell, to: Cell, units: &Cells) -> String {
    for c in map.between_in_order(from, to) {
        let how = if map.crosses_inside(from, to, c) {
            "crosses"
        } else {
            "touches the edge of"
        };
        if units.contains(c) {
            let h = map.number(c).unwrap_or_default();
            let who = s
                .marine_at(h)
                .map(|m| m.title())
                .or_else(|| s.alien_at(h).map(|a| a.title()))
                .unwrap_or_else(|| "a unit".into());
            return format!("{how} hex {h}, where {who} blocks it");
        }
        if map.blocks_marines.contains(c) {
            return format!(
                "{how} the {} hex {}, which blocks it",
                map.terrain(c).name(),
                map.label(c)
            );
        }
    }
    "is blocked".into()
}

/// The checks every Marine shot shares: on the map, not Paralyzed, a target on the map that may be targeted.
fn check_shot(m: &Marine, a: &Alien) -> Result<(Hex, Hex), RuleError> {
    let mh = m
        .on_map()
        .ok_or_else(|| RuleError::illegal("D.2", format!("{} is not on the map", m.title())))?;
    if m.condition == Condition::Paralyzed {
        return Err(RuleError::illegal(
            "D.2",
            format!("{} is Paralyzed and may not fire at all", m.title()),
        ));
    }
    let ah = a
        .on_map()
        .ok_or_else(|| RuleError::illegal("D.2", format!("{} is not on the map", a.title())))?;
    if a.kind == AlienKind::Monolith {
        return Err(RuleError::illegal(
            "D.2",
            "the Monolith can never be targeted",
        ));
    }
    Ok((mh, ah))
}

/// Resolve a Marine unit's fire (D.3-D.5, D.7, D.8). `dice` lets the player
/// roll fewer dice than the net CF (D.4).
pub fn fire(
    ctx: &mut Ctx,
    unit: &str,
    target: &str,
    scoot: bool,
    dice: Option<u8>,
) -> Result<(), RuleError> {
    let m = ctx.marine_for("D.3", unit)?;
    let a = ctx.alien_for("D.3", target)?;
    let plan = marine_fire(&ctx.s, ctx.map, &m, &a, scoot)?;
    let n = match dice {
        Some(0) => return Err(RuleError::illegal("D.4", "roll at least one die")),
        Some(d) if i16::from(d) > i16::from(plan.net) => {
            return Err(RuleError::illegal(
                "D.4",
                format!(
                    "the player may only reduce the dice: {} has CF {}",
                    m.title(),
                    plan.net
                ),
            ));
        }
        Some(d) => d,
        None => plan.net as u8,
    };
    let rolled = ctx.roll_d6(usize::from(n))?;
    let dn = a.defense();
    let hits = rolled.iter().filter(|&&d| d > dn).count() as u8;
    ctx.emit(DimxEvent::Fired {
        shooter: String::from(&m.id),
        shooter_name: m.title(),
        target: String::from(&a.id),
        target_name: a.title(),
        at: a.on_map().unwrap_or(0),
        base: plan.base,
        mods: plan.mods,
        dice: rolled.clone(),
        dn,
        hits,
    });
    if hits >= 3 {
        eliminate(ctx, &a);
    } else if hits >= 1 && a.adm.is_none() {
        draw_adm(ctx, &a);
    }
    // D.8: two or more 1s flip the unit to Out of Ammo (once)
    if rolled.iter().filter(|&&d| d == 1).count() >= 2 && !m.out_of_ammo {
        ctx.emit(DimxEvent::OutOfAmmo {
            unit: String::from(&m.id),
            kind: m.kind,
            back: m.back,
        });
    }
    Ok(())
}

/// D.5: a random ADM marker from the pile becomes the unit's DN; an empty
/// pile means no change.
fn draw_adm(ctx: &mut Ctx, a: &Alien) {
    if ctx.s.adm_pile.is_empty() {
        ctx.emit(DimxEvent::NoAdmLeft {
            unit: String::from(&a.id),
            name: a.title(),
        });
        return;
    }
    let i = ctx.rng.pick(ctx.s.adm_pile.len());
    // Invariant: pick(len) is below len, and the pile is not empty here.
    let Some(&value) = ctx.s.adm_pile.get(i) else {
        return;
    };
    ctx.emit(DimxEvent::AdmPlaced {
        unit: String::from(&a.id),
        name: a.title(),
        index: i as u8,
        value,
    });
}

/// Remove a Kay'otz unit from the game; its ADM marker goes back to the pile
/// (D.5); an Overlord takes a Mission Goal chit with it (D.7).
pub fn eliminate(ctx: &mut Ctx, a: &Alien) {
    ctx.emit(DimxEvent::AlienEliminated {
        unit: String::from(&a.id),
        name: a.title(),
        adm_back: a.adm,
    });
    if a.kind == AlienKind::Overlord {
        remove_goal(ctx, GoalWhy::Overlord);
    }
}

/// Draw a face-down Mission Goal chit, look at it and remove it, unless it is
/// the last one (D.7, E.2).
pub fn remove_goal(ctx: &mut Ctx, why: GoalWhy) {
    if ctx.s.goals.len() <= 1 {
        ctx.emit(DimxEvent::GoalKept { why });
        return;
    }
    let i = ctx.rng.pick(ctx.s.goals.len());
    // Invariant: pick(len) is below len, and the pile has two or more here.
    let Some(&goal) = ctx.s.goals.get(i) else {
        return;
    };
    ctx.emit(DimxEvent::GoalRemoved {
        index: i as u8,
        goal,
        why,
    });
}

/// The BUMP gun's modifiers, or why it may not fire (D.6: six hexes, never blocked).
pub fn bump_check(map: &Map, m: &Marine, a: &Alien, scoot: bool) -> Result<Vec<Mod>, RuleError> {
    let (mh, ah) = check_shot(m, a)?;
    if m.weapon() != Weapon::Bump {
        return Err(RuleError::illegal(
            "D.6",
            format!("{} has no BUMP gun ready", m.title()),
        ));
    }
    let d = map.distance(cell(map, mh), cell(map, ah));
    if d > 6 {
        return Err(RuleError::illegal(
            "D.6",
            format!("the BUMP gun reaches six hexes; {ah} is {d} away"),
        ));
    }
    Ok(own_mods(m, scoot))
}

/// Fire the BUMP gun (D.6).
pub fn bump(ctx: &mut Ctx, unit: &str, target: &str, scoot: bool) -> Result<(), RuleError> {
    let m = ctx.marine_for("D.6", unit)?;
    let a = ctx.alien_for("D.6", target)?;
    let mods = bump_check(ctx.map, &m, &a, scoot)?;
    let die = ctx.rng.d6()?;
    let net = die as i8 + mods.iter().map(|x| x.value).sum::<i8>();
    let result = match net {
        ..=1 => BumpResult::Misfire,
        2 => BumpResult::EnergyRecoil,
        3 => BumpResult::Beamed,
        _ => BumpResult::Vaporized,
    };
    let at = a.on_map().unwrap_or(0);
    ctx.emit(DimxEvent::BumpFired {
        kind: ctx.kind_of(&m.id),
        unit: String::from(&m.id),
        target: String::from(&a.id),
        target_name: a.title(),
        at,
        die,
        mods,
        net,
        result,
    });
    match result {
        BumpResult::Misfire => {
            if !m.out_of_ammo {
                ctx.emit(DimxEvent::OutOfAmmo {
                    unit: String::from(&m.id),
                    kind: m.kind,
                    back: m.back,
                });
            }
        }
        BumpResult::EnergyRecoil => {
            // assumed: a second Stunned marker makes the unit Paralyzed, as in D.10
            ctx.emit(DimxEvent::ConditionChanged {
                kind: ctx.kind_of(&m.id),
                unit: String::from(&m.id),
                from: m.condition,
                to: worse(m.condition),
                why: Cause::EnergyRecoil,
            });
        }
        BumpResult::Beamed => beamed(ctx, &a)?,
        BumpResult::Vaporized => eliminate(ctx, &a),
    }
    Ok(())
}

/// The random hex an alien lands on when it is beamed or warps, or `None`
/// when that is its own hex: it stays, and the log says so.
pub fn landing_hex(ctx: &mut Ctx, a: &Alien) -> Result<Option<Hex>, RuleError> {
    let hex = ctx.random_hex()?;
    if a.on_map() == Some(hex) {
        ctx.emit(DimxEvent::AlienStays {
            unit: String::from(&a.id),
            name: a.title(),
            at: hex,
        });
        return Ok(None);
    }
    Ok(Some(hex))
}

/// 3 = Beamed: to a random hex; onto an Active Marine it is eliminated; onto a
/// Paralyzed Marine or another alien it steps to the highest-numbered eligible
/// adjacent hex (D.6).
fn beamed(ctx: &mut Ctx, a: &Alien) -> Result<(), RuleError> {
    let Some(hex) = landing_hex(ctx, a)? else {
        return Ok(());
    };
    if let Some(m) = ctx.s.marine_at(hex) {
        if m.condition != Condition::Paralyzed {
            eliminate(ctx, a);
            return Ok(());
        }
    } else if ctx.s.alien_at(hex).is_none() {
        settle(ctx, &a.id, hex, PlaceWhy::Beamed);
        return Ok(());
    }
    // onto a Paralyzed Marine or another alien: the highest-numbered
    // eligible adjacent hex (the Kay'otz player's choice in the variant)
    let ties = nearest_free(&ctx.s, ctx.map, &[cell(ctx.map, hex)], &a.id);
    put_down(ctx, &a.id, ties, PlaceWhy::Beamed);
    Ok(())
}

/// A Kay'otz unit's fire worked out before the dice (D.9): `None` when Lava is
/// on the line of fire. `point_blank` is fire from the Marine's own hex.
pub fn alien_fire(
    s: &DimxState,
    map: &Map,
    a: &Alien,
    m: &Marine,
    point_blank: bool,
) -> Option<FirePlan> {
    let (ah, mh) = (a.on_map()?, m.on_map()?);
    if !alien_active(s, map, a) || a.kind == AlienKind::Monolith {
        return None;
    }
    let (ac, mc) = (cell(map, ah), cell(map, mh));
    let between = if point_blank {
        Cells::default()
    } else {
        map.between(ac, mc)
    };
    if between.meets(&map.lava) {
        return None;
    }
    let mut mods = Vec::new();
    // D.9 a: target in, or line through, Forest, Rough or Buildings (once);
    // the log names which (rules version 3)
    if map.cover.contains(mc) || between.meets(&map.cover) {
        mods.push(Mod {
            value: -1,
            why: if map.cover.contains(mc) {
                ModWhy::TargetTerrain
            } else {
                ModWhy::Cover
            },
        });
    }
    // D.9 b and E.3: a Strongpoint in the target's hex or on the line (once more)
    if s.strongpoints
        .iter()
        .any(|&h| h == mh || map.cell(h).is_some_and(|c| between.contains(c)))
    {
        mods.push(Mod {
            value: -1,
            why: ModWhy::Strongpoint,
        });
    }
    if point_blank || map.adjacent(ac, mc) {
        mods.push(Mod {
            value: 1,
            why: ModWhy::Adjacent,
        });
    }
    let net = a.cf as i8 + mods.iter().map(|x| x.value).sum::<i8>();
    Some(FirePlan {
        base: a.cf,
        mods,
        net,
    })
}

/// Resolve a Kay'otz unit's fire at a Marine unit (D.9, D.10).
pub fn alien_fires(
    ctx: &mut Ctx,
    alien: &str,
    marine: &str,
    point_blank: bool,
) -> Result<(), RuleError> {
    let (Some(a), Some(m)) = (ctx.alien(alien), ctx.marine(marine)) else {
        return Ok(());
    };
    let Some(plan) = alien_fire(&ctx.s, ctx.map, &a, &m, point_blank) else {
        return Ok(());
    };
    if plan.net <= 0 {
        ctx.emit(DimxEvent::NoFire {
            shooter: String::from(&a.id),
            shooter_name: a.title(),
            target: String::from(&m.id),
            target_name: m.title(),
            base: plan.base,
            mods: plan.mods,
        });
        return Ok(());
    }
    let rolled = ctx.roll_d6(plan.net as usize)?;
    let hits = rolled.iter().filter(|&&d| d > m.dn).count() as u8;
    ctx.emit(DimxEvent::Fired {
        shooter: String::from(&a.id),
        shooter_name: a.title(),
        target: String::from(&m.id),
        target_name: m.title(),
        at: m.on_map().unwrap_or(0),
        base: plan.base,
        mods: plan.mods,
        dice: rolled,
        dn: m.dn,
        hits,
    });
    let to = match hits {
        0 => m.condition,
        1 | 2 => worse(m.condition),
        _ => Condition::Paralyzed,
    };
    if to != m.condition {
        ctx.emit(DimxEvent::ConditionChanged {
            kind: ctx.kind_of(&m.id),
            unit: String::from(&m.id),
            from: m.condition,
            to,
            why: Cause::Fire,
        });
    }
    Ok(())
}
