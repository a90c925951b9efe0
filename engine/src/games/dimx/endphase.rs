//! The End Phase (B.3, G): instant victory, the next turn, or the Mission Goal
//! chit and the scenario's result.

use crate::game::RuleError;

use super::kayotz::marines_to_come;
use super::map::Map;
use super::rules::{Ctx, alien_active, cell, shut_down};
use super::state::{Cond, DimxEvent, DimxState, Side};
use super::units::{AlienKind, AlienPlace, Condition, Goal, MarineKind, Place};

/// Whether a scenario condition holds.
pub fn holds(s: &DimxState, map: &Map, c: &Cond) -> bool {
    match c {
        Cond::Eliminated(n) => s.eliminated() >= usize::from(*n),
        Cond::OverlordEliminated => {
            let lords: Vec<_> = s
                .aliens
                .iter()
                .filter(|a| a.kind == AlienKind::Overlord && a.place != AlienPlace::Aside)
                .collect();
            !lords.is_empty() && lords.iter().all(|a| a.place == AlienPlace::Eliminated)
        }
        Cond::MonolithShutDown => s
            .aliens
            .iter()
            .any(|a| a.kind == AlienKind::Monolith && a.on_map().is_some() && shut_down(s, map, a)),
        Cond::Exited(n) => {
            s.marines
                .iter()
                .filter(|m| m.place == Place::Exited)
                .count()
                >= usize::from(*n)
        }
        Cond::MarineIn(hexes) => s
            .marines
            .iter()
            .any(|m| m.active() && m.on_map().is_some_and(|h| hexes.contains(&h))),
        Cond::NoActiveMarines => !s.marines.iter().any(|m| m.active()) && !marines_to_come(s),
        Cond::AliensAtMost(n) => {
            s.aliens
                .iter()
                .filter(|a| a.kind != AlienKind::Monolith && a.on_map().is_some())
                .count()
                <= usize::from(*n)
        }
    }
}

/// Whether the Kay'otz achieved a Mission Goal (G.3).
pub fn achieved(s: &DimxState, map: &Map, g: Goal) -> bool {
    let on_map = || s.marines.iter().filter(|m| m.on_map().is_some());
    match g {
        Goal::Portal => {
            // a) in the Monolith's hex, else the Overlord in the highest-numbered hex
            let portal = s
                .aliens
                .iter()
                .filter(|a| a.kind == AlienKind::Monolith)
                .filter_map(|a| a.on_map())
                .max()
                .or_else(|| {
                    s.aliens
                        .iter()
                        .filter(|a| a.kind == AlienKind::Overlord)
                        .filter_map(|a| a.on_map())
                        .max()
                });
            let Some(p) = portal else { return false };
            let pc = cell(map, p);
            !s.marines.iter().any(|m| {
                m.active()
                    && m.on_map()
                        .is_some_and(|h| map.distance(pc, cell(map, h)) <= 3)
            })
        }
        Goal::Enslave => {
            // b) half or more of the Marine units on the map Stunned or
            // Paralyzed "are captured": there must be at least one to capture
            let n = on_map().count();
            let k = on_map().filter(|m| m.condition != Condition::Fine).count();
            n > 0 && 2 * k >= n
        }
        Goal::Decapitate => !s
            .marines
            .iter()
            .any(|m| m.kind == MarineKind::Hq && m.active()),
        Goal::Pillage => !s
            .marines
            .iter()
            .any(|m| m.kind == MarineKind::Logistics && m.active()),
        Goal::Possess => s.aliens.iter().any(|a| {
            alien_active(s, map, a)
                && a.on_map().is_some_and(|ah| {
                    on_map().any(|m| {
                        m.condition != Condition::Fine
                            && m.on_map()
                                .is_some_and(|mh| map.adjacent(cell(map, ah), cell(map, mh)))
                    })
                })
        }),
        // f) "at least eight Active Kay'otz units on the map". A.2 b:
        // "Kay'otz units (also called 'alien' units in these rules)", and the
        // Monolith is "the alien Monolith unit" with an Active side, so an
        // Active (not shut down) Monolith counts, as it does for E.4 and
        // G.3 e (rules version 4). The option `summoning_ignores_monolith`
        // keeps version 3's reading: only the numbered pods count.
        Goal::Summoning => {
            s.aliens
                .iter()
                .filter(|a| !(s.summoning_ignores_monolith && a.kind == AlienKind::Monolith))
                .filter(|a| alien_active(s, map, a))
                .count()
                >= 8
        }
        Goal::FaceDown => false,
    }
}

/// Run the End Phase.
pub fn end_phase(ctx: &mut Ctx) -> Result<(), RuleError> {
    // G.1: Instant Victory (the rules are shared: a handle, not a copy)
    let rules = ctx.s.rules.clone();
    for v in &rules.instant {
        if v.all.iter().all(|c| holds(&ctx.s, ctx.map, c)) {
            ctx.emit(DimxEvent::InstantVictory {
                side: v.side,
                text: v.text.clone(),
            });
            ctx.emit(DimxEvent::GameOver {
                winner: Some(v.side),
                summary: format!("Instant victory: {} ({})", v.side.name(), v.text),
            });
            return Ok(());
        }
    }
    if !ctx.s.cup.is_empty() {
        // a scenario file may start late with a long chit sheet of its own
        let turn = ctx.s.turn.saturating_add(1);
        let (arrivals, names) = ctx
            .s
            .marines
            .iter()
            .filter(|m| matches!(m.place, Place::Arrives(t) if t <= turn))
            .map(|m| (String::from(&m.id), m.title()))
            .unzip();
        ctx.emit(DimxEvent::TurnBegan {
            turn,
            arrivals,
            names,
        });
        return Ok(());
    }
    // G.2: the cup is empty: draw a Mission Goal chit and look at it
    if !ctx.s.goals.is_empty() {
        let i = ctx.rng.pick(ctx.s.goals.len());
        // Invariant: pick(len) is below len, and the pile is not empty here.
        let goal = ctx.s.goals.get(i).copied().unwrap_or(Goal::FaceDown);
        let hit = achieved(&ctx.s, ctx.map, goal);
        ctx.emit(DimxEvent::GoalDrawn {
            index: i as u8,
            goal,
            achieved: hit,
        });
        if hit {
            ctx.emit(DimxEvent::GameOver {
                winner: Some(Side::Kayotz),
                summary: format!("Kay'otz Major Victory ({})", goal.name()),
            });
            return Ok(());
        }
    }
    // G.4: the scenario decides how the game ends
    for v in &rules.end {
        if v.all.iter().all(|c| holds(&ctx.s, ctx.map, c)) {
            ctx.emit(DimxEvent::GameOver {
                winner: Some(v.side),
                summary: format!("{} victory: {} per scenario", v.side.adjective(), v.text),
            });
            return Ok(());
        }
    }
    let why = "the Mission Goal was not achieved and no victory condition of the scenario was met";
    let summary = match ctx.s.rules.otherwise {
        Some(side) => format!("{} victory (scenario default): {why}", side.adjective()),
        None => format!("Draw (scenario default): {why}"),
    };
    ctx.emit(DimxEvent::GameOver {
        winner: ctx.s.rules.otherwise,
        summary,
    });
    Ok(())
}
