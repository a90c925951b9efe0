//! The Kay'otz Activation Phase (B.2, F): drawing chits, and the standard
//! procedure that runs the aliens: lower-numbered units first, the nearest
//! eligible hex, the highest-numbered hex on ties, straight-line moves that
//! Lava blocks. In the two-player variant the Kay'otz player picks the order
//! and breaks the ties (each unit's activation is then their command).

use crate::game::RuleError;

use super::chits::{Select, Step, SummonAt};
use super::combat::{alien_fire, alien_fires};
use super::endphase::end_phase;
use super::map::{Cell, Hex, Map, Terrain};
use super::rules::{Ctx, alien_active, cell, free, nearest_free, no_room, put_down, settle};
use super::state::{AlienMove, Cause, DimxEvent, DimxState, Hold, Phase, PlaceWhy, Side};
use super::units::{AlienKind, AlienPlace, Condition, Marine, Place};

/// The Kay'otz player's choices for one unit when there is a tie (variant).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choice {
    pub target: Option<String>,
    pub hex: Option<Hex>,
}

/// The Kay'otz units a selector picks, lower-numbered first (F.2). The
/// Monolith never acts: it never moves and never fires (A.2 b).
pub fn select(s: &DimxState, map: &Map, sel: Select) -> Vec<String> {
    let near = |c: Cell, kind: AlienKind, n: u8| {
        s.aliens.iter().any(|o| {
            o.kind == kind
                && (kind != AlienKind::Monolith || alien_active(s, map, o))
                && o.on_map()
                    .is_some_and(|h| map.distance(c, cell(map, h)) <= u16::from(n))
        })
    };
    let mut units: Vec<(u8, &str)> = s
        .aliens
        .iter()
        .filter(|a| a.kind != AlienKind::Monolith)
        .filter_map(|a| a.on_map().map(|h| (a, cell(map, h))))
        .filter(|(a, c)| match sel {
            Select::Numbers(lo, hi) => (lo..=hi).contains(&a.number),
            Select::Odd => a.number % 2 == 1,
            Select::Even => a.number % 2 == 0,
            Select::All => true,
            Select::NearOverlord(n) => near(*c, AlienKind::Overlord, n),
            Select::NearMonolith(n) => near(*c, AlienKind::Monolith, n),
            Select::NextToMarines => s
                .marines
                .iter()
                .any(|m| m.on_map().is_some_and(|h| map.adjacent(*c, cell(map, h)))),
        })
        .map(|(a, _)| (a.number, a.id.as_str()))
        .collect();
    units.sort();
    units.into_iter().map(|(_, id)| id.to_owned()).collect()
}

/// Among `cells`, those nearest to `from` (the tie set), in descending number
/// order, so the first is the rule's pick (highest-numbered hex).
fn nearest(map: &Map, from: Cell, cells: impl Iterator<Item = (Hex, Cell)>) -> Vec<Hex> {
    let all: Vec<(u16, Hex)> = cells.map(|(h, c)| (map.distance(from, c), h)).collect();
    let Some(d) = all.iter().map(|x| x.0).min() else {
        return Vec::new();
    };
    let mut tied: Vec<Hex> = all.into_iter().filter(|x| x.0 == d).map(|x| x.1).collect();
    tied.sort_unstable_by(|a, b| b.cmp(a));
    tied
}

/// The nearest Active Marine units to an alien (ties, highest hex first).
/// `can_fire` keeps only those its fire can reach (Lava, D.9).
fn target_ties(s: &DimxState, map: &Map, alien: &str, can_fire: bool) -> Vec<String> {
    let Some(a) = s.alien(alien) else {
        return Vec::new();
    };
    let Some(ah) = a.on_map() else {
        return Vec::new();
    };
    let ok = |m: &Marine| m.active() && (!can_fire || alien_fire(s, map, a, m, false).is_some());
    let hexes = nearest(
        map,
        cell(map, ah),
        s.marines
            .iter()
            .filter(|m| ok(m))
            .filter_map(|m| m.on_map().map(|h| (h, cell(map, h)))),
    );
    hexes
        .iter()
        .filter_map(|&h| s.marine_at(h).map(|m| String::from(&m.id)))
        .collect()
}

/// Hexes next to the target a rushing alien may end in: numbered and empty,
/// or its own hex (activation example: "the nearest eligible adjacent hex").
fn rush_ties(s: &DimxState, map: &Map, alien: &str, target: &str) -> Vec<Hex> {
    let (Some(a), Some(m)) = (s.alien(alien), s.marine(target)) else {
        return Vec::new();
    };
    let (Some(ah), Some(mh)) = (a.on_map(), m.on_map()) else {
        return Vec::new();
    };
    let ac = cell(map, ah);
    nearest(
        map,
        ac,
        map.neighbours(cell(map, mh))
            .filter_map(|c| map.number(c).map(|h| (h, c)))
            .filter(|&(h, _)| h == ah || !s.occupied(h)),
    )
}

/// Hexes an advancing alien may end in: within `n` hexes along a Lava-free
/// straight line, empty, nearest to the target; its own hex if none is nearer.
fn advance_ties(s: &DimxState, map: &Map, alien: &str, target: &str, n: u8) -> Vec<Hex> {
    let (Some(a), Some(m)) = (s.alien(alien), s.marine(target)) else {
        return Vec::new();
    };
    let (Some(ah), Some(mh)) = (a.on_map(), m.on_map()) else {
        return Vec::new();
    };
    let (ac, mc) = (cell(map, ah), cell(map, mh));
    let ties = nearest(
        map,
        mc,
        map.numbered().filter(|&(h, c)| {
            h == ah
                || (map.distance(ac, c) <= u16::from(n)
                    && !s.occupied(h)
                    && !map.between(ac, c).meets(&map.lava))
        }),
    );
    if ties.contains(&ah) { vec![ah] } else { ties }
}

/// The choices a Kay'otz player has for a unit in the current step: one
/// entry per combination of tied target and tied hex (variant).
pub fn choices(s: &DimxState, map: &Map, alien: &str) -> Vec<Choice> {
    let Phase::Kayotz { chit, step, .. } = &s.phase else {
        return Vec::new();
    };
    let Some(st) = s
        .chits()
        .get(usize::from(*chit))
        .and_then(|c| c.steps.get(usize::from(*step)))
        .copied()
    else {
        return Vec::new();
    };
    let Some(a) = s.alien(alien) else {
        return Vec::new();
    };
    if a.dormant || a.on_map().is_none() || s.woke.contains(&a.id) {
        return vec![Choice::default()];
    }
    let mut out = Vec::new();
    let hexes = |t: &str| match st {
        Step::Rush(_) => rush_ties(s, map, alien, t),
        Step::Advance(_, n) => advance_ties(s, map, alien, t, n),
        _ => Vec::new(),
    };
    let targets = match st {
        Step::Rush(_) | Step::Advance(..) => target_ties(s, map, alien, false),
        Step::Fire(_) => target_ties(s, map, alien, true),
        _ => return vec![Choice::default()],
    };
    if targets.is_empty() {
        return vec![Choice::default()];
    }
    for t in &targets {
        let target = (targets.len() > 1).then(|| t.clone());
        let hs = hexes(t);
        if hs.len() > 1 {
            for h in hs {
                out.push(Choice {
                    target: target.clone(),
                    hex: Some(h),
                });
            }
        } else {
            out.push(Choice { target, hex: None });
        }
    }
    out
}

/// Variant: an `activate`'s `target` and `hex` only break the ties of the
/// step the unit acts in. One the unit's state or step does not use is
/// refused in words, naming what was given and why it does not apply
/// (`choices`, and so `legal`, never offers one), so nothing unused is
/// recorded with the command.
fn refuse_unused(
    s: &DimxState,
    map: &Map,
    a: &super::units::Alien,
    st: Step,
    choice: &Choice,
) -> Result<(), RuleError> {
    if choice.target.is_none() && choice.hex.is_none() {
        return Ok(());
    }
    // (the target unused, the hex unused, why)
    let (no_target, no_hex, why) = if a.on_map().is_none() {
        (true, true, "it is not on the map, so it does nothing")
    } else if s.woke.contains(&a.id) {
        (
            true,
            true,
            "a chit flipped it to Active this turn and it does nothing else that turn (C.3)",
        )
    } else if a.dormant {
        (
            true,
            true,
            "it is Dormant, and a chit that activates it only flips it back to Active (C.3)",
        )
    } else {
        match st {
            Step::Warp(_) => (
                true,
                true,
                "it warps to a random hex: the dice decide, there is no choice to make",
            ),
            Step::Rush(_) | Step::Advance(..) if target_ties(s, map, &a.id, false).is_empty() => (
                true,
                true,
                "there is no Active Marine unit for it to go for, so it neither moves nor fires",
            ),
            Step::Fire(_) if target_ties(s, map, &a.id, true).is_empty() => {
                (true, true, "there is no Active Marine unit it can fire at")
            }
            Step::Fire(_) => (
                false,
                true,
                "it fires where it stands: a Fire step moves no unit",
            ),
            _ => (false, false, ""),
        }
    };
    let given: Vec<String> = [
        choice
            .target
            .as_ref()
            .filter(|_| no_target)
            .map(|t| format!("target {t}")),
        choice.hex.filter(|_| no_hex).map(|h| format!("hex {h}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if given.is_empty() {
        return Ok(());
    }
    Err(RuleError::illegal(
        "two-player variant",
        format!(
            "{} given for {}, which takes no {}: {why}",
            given.join(" and "),
            a.title(),
            if no_target { "target or hex" } else { "hex" }
        ),
    ))
}

fn pick_tie<T: Clone + PartialEq + std::fmt::Display>(
    ties: &[T],
    chosen: &Option<T>,
    what: &str,
) -> Result<Option<T>, RuleError> {
    match chosen {
        None => Ok(ties.first().cloned()),
        Some(c) if ties.contains(c) => Ok(Some(c.clone())),
        Some(c) => Err(RuleError::illegal(
            "two-player variant",
            format!(
                "{c} is not one of the tied {what} ({})",
                ties.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// Draw the phase's chit(s) (B.2, F.1, F.4, variant) and enact them, or go
/// on to the End Phase when the cup is empty. `initial` is the phase's first
/// draw, which a successful Recon doubles.
pub fn draw_and_run(ctx: &mut Ctx, initial: bool) -> Result<(), RuleError> {
    if ctx.s.cup.is_empty() {
        // never at a phase's start (a turn begins only with chits in the cup)
        return end_phase(ctx);
    }
    draw(ctx, initial);
    run(ctx)
}

/// Draw the phase's chit(s) from a cup that is not empty.
fn draw(ctx: &mut Ctx, initial: bool) {
    // B.2, F.1: a successful Recon doubles the phase's draw; F.4's follow-up
    // is "drawn ... as if it was just normally drawn", one chit, unless the
    // battle option reads "normally" as "the way this phase draws"
    // E.2 "the player may draw two": assumed (assumption 28) always two, as
    // B.2 and F.1 say; picking either one leaves the player every choice a
    // single draw would have given
    let recon = (initial || ctx.s.recon_doubles_follow_up) && ctx.s.recon;
    let want = if recon || ctx.s.two_player { 2 } else { 1 };
    let n = want.min(ctx.s.cup.len());
    let mut pool = ctx.s.cup.clone();
    let mut chits = Vec::new();
    for _ in 0..n {
        let i = ctx.rng.pick(pool.len());
        chits.push(pool.remove(i));
    }
    let by = (n == 2).then_some(if recon { Side::Marines } else { Side::Kayotz });
    let names = chits.iter().map(|&c| ctx.s.chit_name(c)).collect();
    ctx.emit(DimxEvent::ChitsDrawn { chits, names, by });
}

/// Enact the chit(s) until the phase ends or a player must decide.
///
/// `Phase::Kayotz { step, todo }`: with `todo` still `None` the chit's first
/// step has not begun; `Some(units)` lists the units still to act in step
/// `step`, and once it is empty (a step that acts on the map as a whole
/// leaves it empty at once) the next step begins. No event is spent on
/// "step over": the next `StepBegan` (or `ChitFinished`) says it.
pub fn run(ctx: &mut Ctx) -> Result<(), RuleError> {
    loop {
        if ctx.s.placing.is_some() {
            // a tie for the Kay'otz player to break first (variant)
            return Ok(());
        }
        // The first unit still to act, not a copy of the whole list.
        let Phase::Kayotz {
            chit,
            step,
            ref todo,
        } = ctx.s.phase
        else {
            return Ok(());
        };
        let todo = todo.as_ref().map(|t| t.first().cloned());
        let Some(c) = ctx.s.chits().get(usize::from(chit)).cloned() else {
            return Err(RuleError::illegal(
                "F.2",
                format!("chit number {chit} is not on the chit sheet in force"),
            ));
        };
        let next = match todo {
            None => Some(step),
            Some(None) => step.checked_add(1),
            Some(Some(first)) => {
                if ctx.s.two_player {
                    // the Kay'otz player picks the next unit (activate)
                    return Ok(());
                }
                act(ctx, &first, &Choice::default())?;
                continue;
            }
        };
        let Some((index, &st)) = next.and_then(|i| c.steps.get(usize::from(i)).map(|s| (i, s)))
        else {
            ctx.emit(DimxEvent::ChitFinished {
                chit,
                name: c.name.clone(),
            });
            if c.draws_another() {
                // F.4: "drawn immediately and acted upon as if it was just
                // normally drawn"; with the cup empty the End Phase follows
                return draw_and_run(ctx, false);
            }
            return end_phase(ctx);
        };
        if ctx.s.two_player && rolls_dice(&ctx.s, ctx.map, st) {
            // variant: "The Kay'otz player makes all the necessary die
            // rolls for the alien units": the step waits for their command
            // (roll_for_aliens), whoever's command brought the chit here
            return Ok(());
        }
        begin_step(ctx, index, st)?;
    }
}

/// Whether a step that acts on the map as a whole rolls dice for the aliens:
/// a Summon to random hexes (three dice a unit, A.3) with a unit in the
/// unit cup to summon. A Summon at the Wormholes rolls only on a map
/// without any.
fn rolls_dice(s: &DimxState, map: &Map, st: Step) -> bool {
    let Step::Summon(n, at) = st else {
        return false;
    };
    let random = at == SummonAt::Random
        || !map
            .numbered()
            .any(|(_, c)| map.terrain(c) == Terrain::Wormhole);
    n > 0 && random && s.aliens.iter().any(|a| a.place == AlienPlace::Cup)
}

/// Two-player variant: the step of the chit in force that waits for the
/// Kay'otz player to roll its dice (its index and the step), if one does.
pub fn waiting_roll(s: &DimxState, map: &Map) -> Option<(u8, Step)> {
    if !s.two_player || s.placing.is_some() {
        return None;
    }
    let Phase::Kayotz {
        chit,
        step,
        ref todo,
    } = s.phase
    else {
        return None;
    };
    let index = match todo {
        None => step,
        Some(t) if t.is_empty() => step.checked_add(1)?,
        Some(_) => return None,
    };
    let st = *s
        .chits()
        .get(usize::from(chit))?
        .steps
        .get(usize::from(index))?;
    rolls_dice(s, map, st).then_some((index, st))
}

/// The Kay'otz player rolls the dice of the step that waits for them
/// (variant), and the chit goes on.
pub fn roll_for_aliens(ctx: &mut Ctx) -> Result<(), RuleError> {
    let Some((index, st)) = waiting_roll(&ctx.s, ctx.map) else {
        return Err(RuleError::illegal(
            "two-player variant",
            "no step of the chit is waiting for the Kay'otz player's dice",
        ));
    };
    begin_step(ctx, index, st)?;
    run(ctx)
}

/// Begin step `index` of the chit: name its units (F.2: lower-numbered
/// first), or do what it does to the map as a whole.
fn begin_step(ctx: &mut Ctx, index: u8, st: Step) -> Result<(), RuleError> {
    let units = st
        .per_unit()
        .map(|sel| select(&ctx.s, ctx.map, sel))
        .unwrap_or_default();
    let names = units
        .iter()
        .filter_map(|u| ctx.s.alien(u).map(|a| a.title()))
        .collect();
    ctx.emit(DimxEvent::StepBegan {
        index,
        step: st,
        units,
        names,
    });
    if st.per_unit().is_none() {
        global(ctx, st)?;
    }
    Ok(())
}

/// One Kay'otz unit acts in the current step.
pub fn act(ctx: &mut Ctx, alien: &str, choice: &Choice) -> Result<(), RuleError> {
    let Phase::Kayotz { chit, step, .. } = ctx.s.phase else {
        return Err(RuleError::illegal(
            "F",
            "no Kay'otz Activation Chit is being enacted",
        ));
    };
    let Some(&st) = ctx
        .s
        .chits()
        .get(usize::from(chit))
        .and_then(|c| c.steps.get(usize::from(step)))
    else {
        return Err(RuleError::illegal(
            "F",
            "no step of a chit is waiting for a unit",
        ));
    };
    let a = ctx.alien_for("F", alien)?;
    let (id, name) = (String::from(&a.id), a.title());
    refuse_unused(&ctx.s, ctx.map, &a, st, choice)?;
    ctx.emit(DimxEvent::AlienTurn {
        unit: id.clone(),
        name: name.clone(),
    });
    let Some(ah) = a.on_map() else {
        ctx.emit(DimxEvent::AlienHolds {
            unit: id,
            name,
            why: Hold::NotOnMap,
        });
        return Ok(());
    };
    // C.3: a unit a chit flipped to Active this turn "does nothing else for
    // that turn", also when a draw-again chit (F.4) names it again
    if ctx.s.woke.iter().any(|w| *w == id) {
        ctx.emit(DimxEvent::AlienHolds {
            unit: id,
            name,
            why: Hold::WokeThisTurn,
        });
        return Ok(());
    }
    // C.3: a Dormant unit a chit activates only flips back to Active
    if a.dormant {
        ctx.emit(DimxEvent::AlienFlipped {
            unit: id,
            name,
            dormant: false,
        });
        return Ok(());
    }
    let ac = cell(ctx.map, ah);
    let hold = |ctx: &mut Ctx, why| {
        ctx.emit(DimxEvent::AlienHolds {
            unit: String::from(&a.id),
            name: a.title(),
            why,
        })
    };
    match st {
        Step::Rush(_) => {
            let ties = target_ties(&ctx.s, ctx.map, &id, false);
            let Some(target) = pick_tie(&ties, &choice.target, "nearest Marine units")? else {
                hold(ctx, Hold::NoActiveMarine);
                return Ok(());
            };
            let hexes = rush_ties(&ctx.s, ctx.map, &id, &target);
            let Some(to) = pick_tie(&hexes, &choice.hex, "nearest hexes")? else {
                hold(ctx, Hold::NoEligibleHex);
                return Ok(());
            };
            if to != ah {
                if ctx.map.between(ac, cell(ctx.map, to)).meets(&ctx.map.lava) {
                    hold(ctx, Hold::LavaInTheWay(to));
                    return Ok(());
                }
                ctx.emit(DimxEvent::AlienMoved {
                    unit: id.clone(),
                    name: name.clone(),
                    from: Some(ah),
                    to,
                    how: AlienMove::Rush,
                });
            }
            alien_fires(ctx, &id, &target, false)
        }
        Step::Fire(_) => {
            let ties = target_ties(&ctx.s, ctx.map, &id, true);
            let Some(target) = pick_tie(&ties, &choice.target, "nearest Marine units")? else {
                hold(ctx, Hold::NoTarget);
                return Ok(());
            };
            alien_fires(ctx, &id, &target, false)
        }
        Step::Advance(_, n) => {
            let ties = target_ties(&ctx.s, ctx.map, &id, false);
            let Some(target) = pick_tie(&ties, &choice.target, "nearest Marine units")? else {
                hold(ctx, Hold::NoActiveMarine);
                return Ok(());
            };
            let hexes = advance_ties(&ctx.s, ctx.map, &id, &target, n);
            if let Some(to) = pick_tie(&hexes, &choice.hex, "nearest hexes")?
                && to != ah
            {
                ctx.emit(DimxEvent::AlienMoved {
                    unit: id.clone(),
                    name: name.clone(),
                    from: Some(ah),
                    to,
                    how: AlienMove::Advance,
                });
            }
            let can = match (ctx.s.alien(&id), ctx.s.marine(&target)) {
                (Some(a), Some(m)) => alien_fire(&ctx.s, ctx.map, a, m, false).is_some(),
                _ => false,
            };
            if can {
                alien_fires(ctx, &id, &target, false)
            } else {
                hold(ctx, Hold::NoTarget);
                Ok(())
            }
        }
        Step::Warp(_) => warp(ctx, &id),
        _ => Ok(()),
    }
}

/// Warp: a random hex. Landing on a Marine unit, the alien fires at it point
/// blank and then steps aside; landing on another alien, it steps aside
/// (assumed chit text, following D.6 "Beamed" and C.3). Landing in its own
/// hex, it stays.
fn warp(ctx: &mut Ctx, id: &str) -> Result<(), RuleError> {
    let Some(a) = ctx.alien(id) else {
        return Ok(());
    };
    let Some(hex) = super::combat::landing_hex(ctx, &a)? else {
        return Ok(());
    };
    let marine = ctx.s.marine_at(hex).map(|m| String::from(&m.id));
    let landed_on_unit = marine.is_some() || !free(&ctx.s, hex, id);
    // where it steps aside to, worked out before it moves: the hexes next to
    // the landing hex, its old hex counting as free
    let ties = nearest_free(&ctx.s, ctx.map, &[cell(ctx.map, hex)], id);
    if landed_on_unit && ties.is_empty() {
        no_room(ctx, id);
        return Ok(());
    }
    ctx.emit(DimxEvent::AlienMoved {
        unit: String::from(&a.id),
        name: a.title(),
        from: a.on_map(),
        to: hex,
        how: AlienMove::Warp,
    });
    if let Some(m) = &marine {
        // C.3: an alien may end on a Marine only when a chit makes it attack
        alien_fires(ctx, id, m, true)?;
    }
    if landed_on_unit {
        put_down(ctx, id, ties, PlaceWhy::Warped);
    }
    Ok(())
}

/// Summon: draw `n` units from the Kay'otz unit cup, one at a time, onto the
/// map Active (assumed chit text). `Random`: a random hex (three dice), or
/// the highest-numbered eligible hex next to it when it holds a unit.
/// `Wormhole`: the highest-numbered free Wormhole hex, or with none free the
/// highest-numbered free hex nearest to one (a random hex on a map without
/// Wormholes). In the variant the Kay'otz player breaks those ties, and the
/// units still to come wait for the choice.
pub fn summon(ctx: &mut Ctx, n: u8, at: SummonAt) -> Result<(), RuleError> {
    for k in (0..n).rev() {
        let cup: Vec<String> = ctx
            .s
            .aliens
            .iter()
            .filter(|a| a.place == AlienPlace::Cup)
            .map(|a| String::from(&a.id))
            .collect();
        if cup.is_empty() {
            break;
        }
        // a draw from the cup, not a choice
        let Some(id) = cup.get(ctx.rng.pick(cup.len())).cloned() else {
            break;
        };
        let wormholes: Vec<Cell> = ctx
            .map
            .numbered()
            .filter(|&(_, c)| ctx.map.terrain(c) == Terrain::Wormhole)
            .map(|(_, c)| c)
            .collect();
        let ties = if at == SummonAt::Wormhole && !wormholes.is_empty() {
            let mut open: Vec<Hex> = wormholes
                .iter()
                .filter_map(|&c| ctx.map.number(c))
                .filter(|&h| free(&ctx.s, h, &id))
                .collect();
            open.sort_unstable_by(|a, b| b.cmp(a));
            if open.is_empty() {
                nearest_free(&ctx.s, ctx.map, &wormholes, &id)
            } else {
                open
            }
        } else {
            let hex = ctx.random_hex()?;
            if free(&ctx.s, hex, &id) {
                vec![hex]
            } else {
                nearest_free(&ctx.s, ctx.map, &[cell(ctx.map, hex)], &id)
            }
        };
        if put_down(ctx, &id, ties, PlaceWhy::Summoned { left: k, at }) {
            return Ok(());
        }
    }
    Ok(())
}

/// The Kay'otz player puts the unit of a pending tie on one of its hexes
/// (variant), and play goes on where it stopped.
pub fn place(ctx: &mut Ctx, unit: &str, hex: Hex) -> Result<(), RuleError> {
    let Some(p) = ctx.s.placing.clone() else {
        return Err(RuleError::illegal(
            "two-player variant",
            "no unit is waiting to be put down",
        ));
    };
    if p.unit != unit {
        return Err(RuleError::illegal(
            "two-player variant",
            format!(
                "{} is waiting to be put down, not {unit}",
                super::rules::title_of(&ctx.s, &p.unit)
            ),
        ));
    }
    if !p.hexes.contains(&hex) {
        return Err(RuleError::illegal(
            "two-player variant",
            format!(
                "{hex} is not one of the equally eligible hexes ({})",
                p.hexes
                    .iter()
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    settle(ctx, unit, hex, p.why);
    if let PlaceWhy::Summoned { left, at } = p.why {
        summon(ctx, left, at)?;
    }
    run(ctx)
}

/// Steps that act on the map as a whole.
fn global(ctx: &mut Ctx, st: Step) -> Result<(), RuleError> {
    match st {
        Step::Summon(n, at) => summon(ctx, n, at)?,
        Step::Wake(sel) => {
            for id in select(&ctx.s, ctx.map, sel) {
                if let Some(a) = ctx.alien(&id)
                    && a.dormant
                {
                    ctx.emit(DimxEvent::AlienFlipped {
                        unit: id,
                        name: a.title(),
                        dormant: false,
                    });
                }
            }
        }
        Step::ShutDown(sel) => {
            for id in select(&ctx.s, ctx.map, sel) {
                if let Some(a) = ctx.alien(&id)
                    && !a.dormant
                {
                    ctx.emit(DimxEvent::AlienFlipped {
                        unit: id,
                        name: a.title(),
                        dormant: true,
                    });
                }
            }
        }
        Step::Capture => {
            let taken: Vec<String> = ctx
                .s
                .marines
                .iter()
                .filter(|m| m.condition == Condition::Paralyzed)
                .filter(|m| {
                    m.on_map()
                        .is_some_and(|h| super::rules::active_alien_adjacent(&ctx.s, ctx.map, h))
                })
                .map(|m| String::from(&m.id))
                .collect();
            for unit in taken {
                ctx.emit(DimxEvent::MarineEliminated {
                    kind: ctx.kind_of(&unit),
                    unit,
                    why: Cause::Captured,
                });
            }
        }
        Step::DrawAnother
        | Step::Nothing
        | Step::Rush(_)
        | Step::Fire(_)
        | Step::Advance(..)
        | Step::Warp(_) => {}
    }
    Ok(())
}

/// Whether any Marine unit could still come onto the map.
pub fn marines_to_come(s: &DimxState) -> bool {
    s.marines
        .iter()
        .any(|m| matches!(m.place, Place::Waiting | Place::Arrives(_)))
}
