//! Marine movement (C.1), jump packs (C.2) and leaving the map (C.4).
//!
//! Costs are counted in half-MP so that road moves (1/2 MP) stay whole numbers.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::game::RuleError;

use super::map::{Cell, Hex, Map, Terrain};
use super::rules::{Ctx, alien_active, cell, nearest_free, put_down, worse};
use super::state::{DimxEvent, DimxState, Landing, PlaceWhy};
use super::units::{Condition, Marine, Place};

/// Half-MP to enter `to` from `from` (`None`: from off the map through an
/// entry hex), or `None` when the hex may not be entered this way (C.1).
pub fn step_cost(map: &Map, from: Option<Cell>, to: Cell) -> Option<u8> {
    let along_road = match from {
        Some(f) => map.road_connected(f, to),
        // assumed: a road hex at the map edge is entered along its road
        None => map.is_road(to),
    };
    // C.1: never into Lava unless moving along a road *through* it (a
    // bridge): onto the bridge along its road, and off it along its road
    // too, never onto a bank hex the road does not run to (rules version 5)
    let off_bridge = from.is_some_and(|f| map.terrain(f) == Terrain::Lava);
    if map.terrain(to) == Terrain::Lava || off_bridge {
        return (along_road && from.is_some()).then_some(1);
    }
    if along_road {
        return Some(1);
    }
    match map.terrain(to) {
        Terrain::Forest | Terrain::Rough => Some(4),
        _ => Some(2),
    }
}

/// The half-MP a unit may spend: printed MP, -1 if Stunned, none if
/// Paralyzed; Shoot and Scoot halves that, rounded down, after the other
/// changes (C.1 b).
pub fn allowance(m: &Marine, scoot: bool) -> u8 {
    let mp = match m.condition {
        Condition::Paralyzed => 0,
        Condition::Stunned => m.mp.saturating_sub(1),
        Condition::Fine => m.mp,
    };
    let mp = if scoot { mp / 2 } else { mp };
    mp * 2
}

/// The cost of a given route (the hexes entered, in order), if it is legal
/// terrain-wise. Used to check the printed examples.
pub fn path_cost(map: &Map, from: Option<Cell>, path: &[Cell]) -> Option<u8> {
    let mut at = from;
    let mut total = 0u8;
    for &c in path {
        if let Some(a) = at
            && !map.adjacent(a, c)
        {
            return None;
        }
        total = total.checked_add(step_cost(map, at, c)?)?;
        at = Some(c);
    }
    Some(total)
}

/// Cheapest routes from a unit's hex (or from off the map) within an allowance.
pub struct Reach {
    /// Half-MP spent to reach each cell; `u8::MAX` when out of reach.
    pub cost: Vec<u8>,
    prev: Vec<Option<Cell>>,
    start: Option<Cell>,
}

impl Reach {
    /// The hexes entered to reach `to`, in order.
    pub fn path(&self, to: Cell) -> Vec<Cell> {
        let mut out = vec![to];
        let mut c = to;
        while let Some(p) = self.prev[usize::from(c)] {
            if Some(p) == self.start {
                break;
            }
            out.push(p);
            c = p;
        }
        out.reverse();
        out
    }
}

/// Dijkstra over the map: a Marine may pass through Marine units but never
/// enters a hex with a Kay'otz unit (C.1).
pub fn reach(s: &DimxState, map: &Map, start: Option<Cell>, entry: &[Hex], budget: u8) -> Reach {
    reach_until(s, map, start, entry, budget, None)
}

/// [`reach`], stopping once the cheapest route to `stop` is known: its cost
/// and its path are then final (every hex on it costs less and was settled
/// before it), the other hexes' costs may not be.
fn reach_until(
    s: &DimxState,
    map: &Map,
    start: Option<Cell>,
    entry: &[Hex],
    budget: u8,
    stop: Option<Cell>,
) -> Reach {
    let n = map.hexes.len();
    let mut cost = vec![u8::MAX; n];
    let mut prev = vec![None; n];
    let mut alien = vec![false; n];
    for a in &s.aliens {
        if let Some(h) = a.on_map() {
            alien[usize::from(cell(map, h))] = true;
        }
    }
    let mut heap = BinaryHeap::new();
    match start {
        Some(c) => {
            cost[usize::from(c)] = 0;
            heap.push(Reverse((0u8, c)));
        }
        None => {
            for &h in entry {
                let Some(c) = map.cell(h) else { continue };
                if alien[usize::from(c)] {
                    continue;
                }
                if let Some(k) = step_cost(map, None, c)
                    && k <= budget
                    && k < cost[usize::from(c)]
                {
                    cost[usize::from(c)] = k;
                    heap.push(Reverse((k, c)));
                }
            }
        }
    }
    while let Some(Reverse((k, c))) = heap.pop() {
        if k > cost[usize::from(c)] {
            continue;
        }
        if Some(c) == stop {
            break;
        }
        let h = map.hex(c);
        for (d, nb) in h.neighbours.iter().enumerate() {
            let Some(nb) = *nb else { continue };
            if alien[usize::from(nb)] {
                continue;
            }
            // C.1: along a connected road 1/2 MP; into Lava, and out of it
            // (off a bridge), only that way
            let road = h.road & (1 << d) != 0;
            let step = match map.terrain(nb) {
                _ if road => 1,
                _ if h.terrain == Terrain::Lava => continue,
                Terrain::Lava => continue,
                Terrain::Forest | Terrain::Rough => 4,
                _ => 2,
            };
            let total = k + step;
            if total <= budget && total < cost[usize::from(nb)] {
                cost[usize::from(nb)] = total;
                prev[usize::from(nb)] = Some(c);
                heap.push(Reverse((total, nb)));
            }
        }
    }
    Reach { cost, prev, start }
}

/// Every legal end hex of a move with its half-MP cost: reachable,
/// numbered (a unit only passes through a Lava bridge, assumed), and no other
/// Marine unit there (C.1).
pub fn move_targets(s: &DimxState, map: &Map, m: &Marine, scoot: bool) -> (Reach, Vec<(Hex, u8)>) {
    let budget = allowance(m, scoot);
    let start = m.on_map().map(|h| cell(map, h));
    let r = reach(s, map, start, &s.rules.entry, budget);
    let mut out = Vec::new();
    if budget > 0 && (start.is_some() || m.place == Place::Waiting) {
        let mut marine = vec![false; map.hexes.len()];
        for o in &s.marines {
            if let Some(h) = o.on_map() {
                marine[usize::from(cell(map, h))] = true;
            }
        }
        for (h, c) in map.numbered() {
            let k = r.cost[usize::from(c)];
            if k == u8::MAX || Some(c) == start || marine[usize::from(c)] {
                continue;
            }
            out.push((h, k));
        }
    }
    (r, out)
}

/// Whether `to` is one of [`move_targets`]' end hexes, with its cost and
/// the routes found: the same test for the one hex, the search stopped once
/// its route is known.
fn move_target(s: &DimxState, map: &Map, m: &Marine, scoot: bool, to: Hex) -> Option<(Reach, u8)> {
    let budget = allowance(m, scoot);
    let start = m.on_map().map(|h| cell(map, h));
    if budget == 0 || (start.is_none() && m.place != Place::Waiting) {
        return None;
    }
    // The numbered hexes, one cell each (the map refuses a number twice).
    let c = map.cell(to)?;
    let r = reach_until(s, map, start, &s.rules.entry, budget, Some(c));
    let k = r.cost[usize::from(c)];
    let marine = s
        .marines
        .iter()
        .any(|o| o.on_map().is_some_and(|h| cell(map, h) == c));
    (k != u8::MAX && Some(c) != start && !marine).then_some((r, k))
}

/// Move a Marine unit to `to` (a Full Move or the move of a Shoot and Scoot).
pub fn do_move(ctx: &mut Ctx, unit: &str, to: Hex, scoot: bool) -> Result<(), RuleError> {
    let m = ctx.marine_for("C.1", unit)?;
    if m.condition == Condition::Paralyzed {
        return Err(RuleError::illegal(
            "C.1",
            format!("{} is Paralyzed and may not move at all", m.title()),
        ));
    }
    let Some((r, k)) = move_target(&ctx.s, ctx.map, &m, scoot, to) else {
        return Err(why_not_move(&ctx.s, ctx.map, &m, to, scoot));
    };
    let c = cell(ctx.map, to);
    let path = r.path(c).into_iter().map(|c| ctx.map.spot(c)).collect();
    ctx.emit(DimxEvent::Moved {
        kind: ctx.kind_of(unit),
        unit: unit.to_owned(),
        from: m.on_map(),
        path,
        half_mp: k,
        allowance: allowance(&m, scoot),
    });
    Ok(())
}

fn why_not_move(s: &DimxState, map: &Map, m: &Marine, to: Hex, scoot: bool) -> RuleError {
    let Some(c) = map.cell(to) else {
        return RuleError::illegal("A.1", format!("{to} is not a hex of {}", map.name));
    };
    if s.aliens.iter().any(|a| a.on_map() == Some(to)) {
        return RuleError::illegal(
            "C.1",
            format!("a Marine unit may never enter a hex with an alien unit ({to})"),
        );
    }
    if s.marines
        .iter()
        .any(|o| o.id != m.id && o.on_map() == Some(to))
    {
        return RuleError::illegal(
            "C.1",
            format!("Marine units may not end a move stacked together ({to} is taken)"),
        );
    }
    if m.on_map() == Some(to) {
        return RuleError::illegal("C.1", format!("{} is already in {to}", m.title()));
    }
    if m.on_map().is_none() && m.place != Place::Waiting {
        return RuleError::illegal(
            "C.1",
            format!("{} is not on the map and not waiting to enter", m.title()),
        );
    }
    let budget = allowance(m, scoot);
    let full = reach(
        s,
        map,
        m.on_map().map(|h| cell(map, h)),
        &s.rules.entry,
        u8::MAX - 20,
    );
    let need = full.cost[usize::from(c)];
    if need == u8::MAX {
        return RuleError::illegal(
            "C.1",
            format!(
                "{} cannot reach {to} at all (Lava, alien units or the map edge are in the way)",
                m.title()
            ),
        );
    }
    RuleError::illegal(
        "C.1",
        format!(
            "{to} costs {} MP to reach but {} has only {} MP{}",
            half(need),
            m.title(),
            half(budget),
            if scoot {
                " (half MP for Shoot and Scoot)"
            } else {
                ""
            }
        ),
    )
}

/// Half-MP in words: "2", "1/2", "2 1/2".
pub fn half(h: u8) -> String {
    match (h / 2, h % 2) {
        (0, 1) => "1/2".into(),
        (w, 0) => w.to_string(),
        (w, _) => format!("{w} 1/2"),
    }
}

/// Hexes a jump pack may aim for: any hex not otherwise prohibited (C.2): a
/// numbered hex with no unit in it (no stacking, never into an alien's hex).
pub fn jump_targets(s: &DimxState, map: &Map, m: &Marine) -> Vec<Hex> {
    if !m.jump_pack
        || m.condition == Condition::Paralyzed
        || !matches!(m.place, Place::Map(_) | Place::Waiting)
    {
        return Vec::new();
    }
    let units = super::rules::unit_cells(s, map);
    map.numbered()
        .filter(|&(_, c)| !units.contains(c))
        .map(|(h, _)| h)
        .collect()
}

/// Resolve a jump (C.2): one die, -1 with Shoot and Scoot, -1 if Stunned.
pub fn do_jump(ctx: &mut Ctx, unit: &str, to: Hex, scoot: bool) -> Result<(), RuleError> {
    let m = ctx.marine_for("C.2", unit)?;
    if !m.jump_pack {
        return Err(RuleError::illegal(
            "C.2",
            format!(
                "{} has no jump pack (Scout and Special Ops only)",
                m.title()
            ),
        ));
    }
    if m.condition == Condition::Paralyzed {
        return Err(RuleError::illegal(
            "C.1",
            format!("{} is Paralyzed and may not move at all", m.title()),
        ));
    }
    if !jump_targets(&ctx.s, ctx.map, &m).contains(&to) {
        return Err(RuleError::illegal(
            "C.2",
            format!(
                "{to} is not a hex {} may jump to (it must be an empty hex on the map)",
                m.title()
            ),
        ));
    }
    let die = ctx.rng.d6()?;
    let mods = super::combat::own_mods(&m, scoot);
    let net = die as i8 + mods.iter().map(|m| m.value).sum::<i8>();
    ctx.emit(DimxEvent::JumpRolled {
        kind: ctx.kind_of(unit),
        unit: unit.to_owned(),
        to,
        die,
        mods,
        net,
    });
    match net {
        4.. => ctx.emit(DimxEvent::Landed {
            kind: ctx.kind_of(unit),
            unit: unit.to_owned(),
            at: to,
            how: Landing::Safe,
        }),
        2..=3 => {
            // Scattered: the highest-numbered eligible hex next to the destination
            let ties = nearest_free(&ctx.s, ctx.map, &[cell(ctx.map, to)], unit);
            put_down(ctx, unit, ties, PlaceWhy::Scattered);
        }
        // the table starts at 1; a net roll of 0 or less (Stunned and Shoot
        // and Scoot on a 1) is read as the worst result, a Malfunction
        _ => malfunction(ctx, &m)?,
    }
    Ok(())
}

/// 1 = Malfunction: a random hex, a Stunned marker; onto an Active alien the
/// unit is eliminated; onto a Marine or Dormant alien it steps aside (C.2).
fn malfunction(ctx: &mut Ctx, m: &Marine) -> Result<(), RuleError> {
    let hex = ctx.random_hex()?;
    let c = cell(ctx.map, hex);
    let alien = ctx
        .s
        .aliens
        .iter()
        .find(|a| a.on_map() == Some(hex))
        .cloned();
    // A.2 b: the Monolith is Active again "as soon as there is no Active
    // eligible Marine unit adjacent": the jumper has left its hex, so a
    // Special Ops unit no longer shuts down the Monolith it lands on
    let mut left = ctx.s.clone();
    if let Some(j) = left.marines.iter_mut().find(|o| o.id == m.id) {
        j.place = Place::Waiting;
    }
    if let Some(a) = &alien
        && alien_active(&left, ctx.map, a)
    {
        ctx.emit(DimxEvent::MarineEliminated {
            kind: ctx.kind_of(&m.id),
            unit: String::from(&m.id),
            why: super::state::Cause::LandedOnActiveAlien,
        });
        return Ok(());
    }
    let other_marine = ctx
        .s
        .marines
        .iter()
        .any(|o| o.id != m.id && o.on_map() == Some(hex));
    if alien.is_some() || other_marine {
        // onto a Marine or a Dormant alien (or a shut-down, Inactive
        // Monolith: not Active, assumption 27): the highest-numbered eligible
        // adjacent hex (the log says it comes down beside the random hex)
        let ties = nearest_free(&ctx.s, ctx.map, &[c], &m.id);
        put_down(ctx, &m.id, ties, PlaceWhy::Malfunction);
    } else {
        ctx.emit(DimxEvent::Landed {
            kind: ctx.kind_of(&m.id),
            unit: String::from(&m.id),
            at: hex,
            how: Landing::Malfunction,
        });
    }
    // "place the jumping unit into that hex and give it a Stunned marker":
    // logged after the landing when the unit comes down at once (rules
    // version 3; before, the marker came first in the log). When the
    // Kay'otz player is to choose where it comes down (variant), the marker
    // is logged here, before the `place_unit` that puts it down; the unit
    // carries it either way. Assumed: a Stunned unit given another Stunned
    // marker becomes Paralyzed, as in D.10
    ctx.emit(DimxEvent::ConditionChanged {
        kind: ctx.kind_of(&m.id),
        unit: String::from(&m.id),
        from: m.condition,
        to: worse(m.condition),
        why: super::state::Cause::JumpMalfunction,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dimx::map::builtin;

    fn c(n: Hex) -> Cell {
        builtin("alpha").unwrap().cell(n).unwrap()
    }

    /// Issue 29 (session 17): a move's end hex is checked alone, the search
    /// stopped once its route is known; along bot-played battles of every
    /// scenario, for every Marine unit and every hex, it agrees with the
    /// list of every end hex (whether it is one, its cost, and the path the
    /// `Moved` event records).
    #[test]
    fn c1_one_end_hex_checked_alone_agrees_with_the_list_of_every_end_hex() {
        use crate::games::dimx::{DimX, DimxConfig, scenario};
        use crate::{Game, Session};
        let mut checked = 0;
        for sc in scenario::builtin() {
            let config = DimxConfig {
                scenario: sc.id.clone(),
                ..Default::default()
            };
            let mut session = Session::<DimX>::new(3, config).expect("sets up");
            let mut rng = crate::rng::SplitMix64(3);
            for step in 0..60 {
                let s = session.state();
                let map = super::super::rules::map_of(s);
                if step % 6 == 0 {
                    for m in &s.marines {
                        for scoot in [false, true] {
                            let (all_r, all) = move_targets(s, map, m, scoot);
                            for (h, _) in map.numbered() {
                                let listed = all.iter().find(|(t, _)| *t == h).map(|&(_, k)| k);
                                let alone = move_target(s, map, m, scoot, h);
                                assert_eq!(
                                    alone.as_ref().map(|(_, k)| *k),
                                    listed,
                                    "{} to {h}",
                                    m.id
                                );
                                if let Some((r, _)) = alone {
                                    let c = map.cell(h).unwrap();
                                    assert_eq!(r.path(c), all_r.path(c), "{} to {h}", m.id);
                                }
                                checked += 1;
                            }
                        }
                    }
                }
                let (actor, command) = match session.due() {
                    Some(step) => (crate::Actor::SYSTEM, step),
                    None => {
                        let mut legal = DimX::legal(session.state());
                        if legal.is_empty() {
                            break;
                        }
                        legal.swap_remove(rng.below(legal.len()))
                    }
                };
                session.play(actor, &command, None).expect("legal");
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn example_movement_full_move_costs_4_mp() {
        let map = builtin("alpha").unwrap();
        // 263 -> 326 (1/2), -> 352 (1, not along a connected road), -> 353 (1/2), -> 415 (2)
        let steps = [(263, 326, 1), (326, 352, 2), (352, 353, 1), (353, 415, 4)];
        for (a, b, k) in steps {
            assert_eq!(step_cost(map, Some(c(a)), c(b)), Some(k), "{a} to {b}");
        }
        assert_eq!(
            path_cost(map, Some(c(263)), &[c(326), c(352), c(353), c(415)]),
            Some(8),
            "4 MP in all"
        );
    }

    #[test]
    fn example_movement_shoot_and_scoot_route_through_325_costs_2_mp() {
        let map = builtin("alpha").unwrap();
        assert_eq!(
            path_cost(map, Some(c(263)), &[c(326), c(325), c(352), c(353)]),
            Some(4),
            "2 MP: four road steps of 1/2"
        );
    }
}
