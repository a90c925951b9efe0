//! Special Actions (E): Recon, Build Strongpoint, Rally, Re-Supply and
//! Request Reinforcements.

use crate::game::RuleError;

use super::combat::remove_goal;
use super::map::Map;
use super::rules::{Ctx, active_adjacent, active_alien_adjacent, cell};
use super::state::{Action, Cause, DimxEvent, DimxState, GoalWhy, Mod, ModWhy};
use super::units::{Condition, Marine, MarineKind, Place};

/// Most Strongpoints in the game at one time (E.3).
pub const MAX_STRONGPOINTS: usize = 3;

fn active_on_map(m: &Marine, clause: &str) -> Result<(), RuleError> {
    if m.on_map().is_none() {
        return Err(RuleError::illegal(
            clause,
            format!("{} is not on the map", m.title()),
        ));
    }
    if !m.active() {
        return Err(RuleError::illegal(
            "E",
            format!(
                "{} is not Active (Paralyzed): no Special Actions",
                m.title()
            ),
        ));
    }
    Ok(())
}

fn roll(ctx: &mut Ctx, mods: &[Mod]) -> Result<(u8, i8), RuleError> {
    let die = ctx.rng.d6()?;
    Ok((die, die as i8 + mods.iter().map(|m| m.value).sum::<i8>()))
}

fn stunned(m: &Marine, mods: &mut Vec<Mod>) {
    if m.condition == Condition::Stunned {
        mods.push(Mod {
            value: -1,
            why: ModWhy::Stunned,
        });
    }
}

/// Whether Recon is allowed, with the assisting HQ if any (E.2).
pub fn recon_check(s: &DimxState, scout: &Marine, hq: Option<&Marine>) -> Result<(), RuleError> {
    if scout.kind != MarineKind::Scout {
        return Err(RuleError::illegal(
            "E.2",
            format!("only a Scout unit may conduct Recon, not {}", scout.title()),
        ));
    }
    active_on_map(scout, "E.2")?;
    if let Some(h) = hq {
        if h.kind != MarineKind::Hq {
            return Err(RuleError::illegal(
                "E.2",
                format!("only an HQ unit may assist a Recon, not {}", h.title()),
            ));
        }
        active_on_map(h, "E.2")?;
        if h.acted {
            return Err(RuleError::illegal(
                "B.1",
                format!("{} has already acted this phase", h.title()),
            ));
        }
    }
    let _ = s;
    Ok(())
}

/// Recon (E.2): one die, +1 with an assisting Active HQ, -1 if the Scout is
/// Stunned; 4 or more succeeds; a 7 also removes a Mission Goal chit unless it
/// is the last one.
pub fn recon(ctx: &mut Ctx, scout: &str, hq: Option<&str>) -> Result<(), RuleError> {
    let sc = ctx.marine_for("E.2", scout)?;
    let h = match hq {
        Some(id) => Some(ctx.marine_for("E.2", id)?),
        None => None,
    };
    recon_check(&ctx.s, &sc, h.as_ref())?;
    ctx.chose(scout, Action::Recon);
    let mut mods = Vec::new();
    if let Some(h) = &h {
        ctx.chose(&h.id, Action::ReconAssist);
        mods.push(Mod {
            value: 1,
            why: ModWhy::HqAssist,
        });
    }
    stunned(&sc, &mut mods);
    let (die, net) = roll(ctx, &mods)?;
    ctx.emit(DimxEvent::ReconRolled {
        scout: scout.to_owned(),
        hq: hq.map(str::to_owned),
        die,
        mods,
        net,
        success: net >= 4,
    });
    if net == 7 {
        remove_goal(ctx, GoalWhy::Recon);
    }
    Ok(())
}

/// Whether a unit may try to build a Strongpoint (E.3).
pub fn strongpoint_check(s: &DimxState, m: &Marine) -> Result<(), RuleError> {
    if !matches!(
        m.kind,
        MarineKind::Squad | MarineKind::SpecialOps | MarineKind::HeavyWeapons
    ) {
        return Err(RuleError::illegal(
            "E.3",
            format!(
                "only Squad, Special Ops and Heavy Weapons units build Strongpoints, not {}",
                m.title()
            ),
        ));
    }
    active_on_map(m, "E.3")?;
    if s.strongpoints.len() >= MAX_STRONGPOINTS {
        return Err(RuleError::illegal(
            "E.3",
            "three Strongpoints are already in the game",
        ));
    }
    if m.on_map().is_some_and(|h| s.strongpoints.contains(&h)) {
        return Err(RuleError::illegal(
            "E.3",
            "this hex already has a Strongpoint",
        ));
    }
    Ok(())
}

/// Build Strongpoint (E.3): 4 or more, +1 next to an Active HQ, -1 if Stunned.
pub fn strongpoint(ctx: &mut Ctx, unit: &str) -> Result<(), RuleError> {
    let m = ctx.marine_for("E.3", unit)?;
    strongpoint_check(&ctx.s, &m)?;
    let hex = m.on_map().unwrap_or(0);
    ctx.chose(unit, Action::BuildStrongpoint);
    let mut mods = Vec::new();
    if active_adjacent(&ctx.s, ctx.map, hex, MarineKind::Hq, unit) {
        mods.push(Mod {
            value: 1,
            why: ModWhy::HqAdjacent,
        });
    }
    stunned(&m, &mut mods);
    let (die, net) = roll(ctx, &mods)?;
    ctx.emit(DimxEvent::StrongpointRolled {
        kind: ctx.kind_of(unit),
        unit: unit.to_owned(),
        hex,
        die,
        mods,
        net,
        success: net >= 4,
    });
    Ok(())
}

/// Whether a unit may Rally: it is Stunned or Paralyzed (E.4). Rally is the
/// one action a Paralyzed unit may take.
pub fn rally_check(m: &Marine) -> Result<(), RuleError> {
    if m.on_map().is_none() {
        return Err(RuleError::illegal(
            "E.4",
            format!("{} is not on the map", m.title()),
        ));
    }
    if m.condition == Condition::Fine {
        return Err(RuleError::illegal(
            "E.4",
            format!(
                "{} has no Stunned or Paralyzed marker to rally from",
                m.title()
            ),
        ));
    }
    Ok(())
}

/// The Rally modifiers: +2 Active Logistics adjacent, +1 Active HQ adjacent,
/// -1 next to an Active alien; each once, whatever the number of units (E.4).
pub fn rally_mods(s: &DimxState, map: &Map, m: &Marine) -> Vec<Mod> {
    let mut mods = Vec::new();
    let Some(h) = m.on_map() else { return mods };
    if active_adjacent(s, map, h, MarineKind::Logistics, &m.id) {
        mods.push(Mod {
            value: 2,
            why: ModWhy::LogisticsAdjacent,
        });
    }
    if active_adjacent(s, map, h, MarineKind::Hq, &m.id) {
        mods.push(Mod {
            value: 1,
            why: ModWhy::HqAdjacent,
        });
    }
    if active_alien_adjacent(s, map, h) {
        mods.push(Mod {
            value: -1,
            why: ModWhy::AlienAdjacent,
        });
    }
    mods
}

/// Rally (E.4): 5 or more removes a Stunned marker or turns Paralyzed to Stunned.
pub fn rally(ctx: &mut Ctx, unit: &str) -> Result<(), RuleError> {
    let m = ctx.marine_for("E.4", unit)?;
    rally_check(&m)?;
    ctx.chose(unit, Action::Rally);
    let mods = rally_mods(&ctx.s, ctx.map, &m);
    let (die, net) = roll(ctx, &mods)?;
    let success = net >= 5;
    ctx.emit(DimxEvent::RallyRolled {
        kind: ctx.kind_of(unit),
        unit: unit.to_owned(),
        die,
        mods,
        net,
        success,
    });
    if success {
        let to = if m.condition == Condition::Paralyzed {
            Condition::Stunned
        } else {
            Condition::Fine
        };
        ctx.emit(DimxEvent::ConditionChanged {
            kind: ctx.kind_of(unit),
            unit: unit.to_owned(),
            from: m.condition,
            to,
            why: Cause::Rally,
        });
    }
    Ok(())
}

/// Whether a Logistics unit may re-supply `target` (E.5).
pub fn resupply_check(
    s: &DimxState,
    map: &Map,
    lg: &Marine,
    target: &Marine,
) -> Result<(), RuleError> {
    if lg.kind != MarineKind::Logistics {
        return Err(RuleError::illegal(
            "E.5",
            format!("only a Logistics unit may Re-Supply, not {}", lg.title()),
        ));
    }
    active_on_map(lg, "E.5")?;
    let (Some(a), Some(b)) = (lg.on_map(), target.on_map()) else {
        return Err(RuleError::illegal(
            "E.5",
            format!("{} is not on the map", target.title()),
        ));
    };
    if !map.adjacent(cell(map, a), cell(map, b)) {
        return Err(RuleError::illegal(
            "E.5",
            format!("{} is not adjacent to {}", target.title(), lg.title()),
        ));
    }
    if !target.out_of_ammo {
        return Err(RuleError::illegal(
            "E.5",
            format!("{} is not on its Out of Ammo side", target.title()),
        ));
    }
    let _ = s;
    Ok(())
}

/// Re-Supply (E.5): flip one adjacent Out of Ammo unit back; markers stay.
pub fn resupply(ctx: &mut Ctx, unit: &str, target: &str) -> Result<(), RuleError> {
    let lg = ctx.marine_for("E.5", unit)?;
    let t = ctx.marine_for("E.5", target)?;
    resupply_check(&ctx.s, ctx.map, &lg, &t)?;
    ctx.chose(unit, Action::ReSupply);
    ctx.emit(DimxEvent::Resupplied {
        logistics: unit.to_owned(),
        unit: target.to_owned(),
        kind: t.kind,
    });
    Ok(())
}

/// Whether an HQ may request reinforcements: Active, and the pool has a unit (E.6).
pub fn reinforcements_check(s: &DimxState, hq: &Marine) -> Result<(), RuleError> {
    if hq.kind != MarineKind::Hq {
        return Err(RuleError::illegal(
            "E.6",
            format!(
                "only an HQ unit may Request Reinforcements, not {}",
                hq.title()
            ),
        ));
    }
    active_on_map(hq, "E.6")?;
    // assumed (assumption 26): with no unit in the pool there is nothing the
    // request could bring, so it is not offered (the text is silent)
    if !s.marines.iter().any(|m| m.place == Place::Pool) {
        return Err(RuleError::illegal(
            "E.6",
            "the pool of available units is empty",
        ));
    }
    Ok(())
}

/// Request Reinforcements (E.6): 3 or more (-1 if Stunned) lets the player
/// take one unit from the pool; it enters per the scenario and may act at once.
pub fn request(ctx: &mut Ctx, unit: &str) -> Result<(), RuleError> {
    let hq = ctx.marine_for("E.6", unit)?;
    reinforcements_check(&ctx.s, &hq)?;
    ctx.chose(unit, Action::RequestReinforcements);
    let mut mods = Vec::new();
    stunned(&hq, &mut mods);
    let (die, net) = roll(ctx, &mods)?;
    ctx.emit(DimxEvent::ReinforcementsRolled {
        hq: unit.to_owned(),
        die,
        mods,
        net,
        success: net >= 3,
    });
    Ok(())
}
