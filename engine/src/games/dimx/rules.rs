//! Questions about a state that several rules ask: who is where, who is
//! Active, what is adjacent. Also the decide context every rule writes into.

use crate::rng::Randomness;

use super::map::{Cell, Hex, Map};
use super::state::{DimxEvent, DimxState, apply};
use super::units::{Alien, AlienKind, Condition, Marine, MarineKind};

/// The map a state is played on.
pub fn map_of(s: &DimxState) -> &'static Map {
    super::scenario::map_for(&s.map)
}

/// The cell of a hex a unit stands in (units only ever stand in numbered hexes).
pub fn cell(map: &Map, h: Hex) -> Cell {
    // Invariant: every hex in a state was checked against its map when the
    // scenario was read or the move decided; 0 is a harmless fallback.
    map.cell(h).unwrap_or(0)
}

/// Whether a Monolith is shut down: an Active HQ, Logistics or Special Ops
/// unit is adjacent to it (A.2 b note).
pub fn shut_down(s: &DimxState, map: &Map, a: &Alien) -> bool {
    let Some(h) = a.on_map() else { return false };
    let c = cell(map, h);
    s.marines.iter().any(|m| {
        m.active()
            && matches!(
                m.kind,
                MarineKind::Hq | MarineKind::Logistics | MarineKind::SpecialOps
            )
            && m.on_map().is_some_and(|mh| map.adjacent(c, cell(map, mh)))
    })
}

/// An alien on the map on its Active side (a Monolith: not shut down).
pub fn alien_active(s: &DimxState, map: &Map, a: &Alien) -> bool {
    a.on_map().is_some()
        && match a.kind {
            AlienKind::Monolith => !shut_down(s, map, a),
            _ => !a.dormant,
        }
}

/// Whether an Active Marine of `kind` other than `except` is next to hex `h`.
pub fn active_adjacent(s: &DimxState, map: &Map, h: Hex, kind: MarineKind, except: &str) -> bool {
    let c = cell(map, h);
    s.marines.iter().any(|m| {
        m.kind == kind
            && m.id != except
            && m.active()
            && m.on_map().is_some_and(|mh| map.adjacent(c, cell(map, mh)))
    })
}

/// Whether an Active Kay'otz unit is next to hex `h`.
pub fn active_alien_adjacent(s: &DimxState, map: &Map, h: Hex) -> bool {
    let c = cell(map, h);
    s.aliens.iter().any(|a| {
        alien_active(s, map, a) && a.on_map().is_some_and(|ah| map.adjacent(c, cell(map, ah)))
    })
}

/// The cells holding any unit.
pub fn unit_cells(s: &DimxState, map: &Map) -> super::map::Cells {
    let mut out = super::map::Cells::default();
    for m in &s.marines {
        if let Some(h) = m.on_map() {
            out.insert(cell(map, h));
        }
    }
    for a in &s.aliens {
        if let Some(h) = a.on_map() {
            out.insert(cell(map, h));
        }
    }
    out
}

/// The hex a unit is put on when it cannot stay where it landed: the
/// highest-numbered eligible (numbered, empty) hex adjacent to `around` (C.2,
/// D.6). `ignore` is a unit that is leaving and does not count. Should every
/// adjacent hex be full, the next ring out is tried (assumed; the text is silent).
pub fn aside(s: &DimxState, map: &Map, around: Cell, ignore: &str) -> Option<Hex> {
    let free = |h: Hex| {
        !s.marines
            .iter()
            .any(|m| m.id != ignore && m.on_map() == Some(h))
            && !s
                .aliens
                .iter()
                .any(|a| a.id != ignore && a.on_map() == Some(h))
    };
    let max = map.cols + map.rows;
    for ring in 1..=max {
        let best = map
            .numbered()
            .filter(|&(h, c)| map.distance(around, c) == ring && free(h))
            .map(|(h, _)| h)
            .max();
        if best.is_some() {
            return best;
        }
    }
    None
}

/// The next condition after a Stunned result: Stunned, or Paralyzed if already
/// Stunned (D.10). Paralyzed stays Paralyzed.
pub fn worse(c: Condition) -> Condition {
    match c {
        Condition::Fine => Condition::Stunned,
        _ => Condition::Paralyzed,
    }
}

/// A command being decided: a working copy of the state that each event is
/// applied to as it is made, so later steps see earlier results.
pub struct Ctx<'r> {
    pub s: DimxState,
    pub map: &'static Map,
    pub rng: &'r mut Randomness,
    pub events: Vec<DimxEvent>,
}

impl<'r> Ctx<'r> {
    /// A context deciding a command against a copy of `s`.
    pub fn new(s: &DimxState, rng: &'r mut Randomness) -> Self {
        Ctx {
            s: s.clone(),
            map: map_of(s),
            rng,
            events: Vec::new(),
        }
    }

    /// Record an event and apply it. A Monolith that shuts down or comes
    /// back because of it is logged right after (A.2 b: "immediately").
    pub fn emit(&mut self, e: DimxEvent) {
        let before = self.monoliths();
        apply(&mut self.s, &e);
        self.events.push(e);
        let after = self.monoliths();
        for ((id, was), (_, now)) in before.into_iter().zip(after) {
            if was != now {
                self.events.push(DimxEvent::MonolithSwitched {
                    unit: id,
                    active: now,
                });
            }
        }
    }

    fn monoliths(&self) -> Vec<(String, bool)> {
        self.s
            .aliens
            .iter()
            .filter(|a| a.kind == AlienKind::Monolith)
            .map(|a| (a.id.clone(), alien_active(&self.s, self.map, a)))
            .collect()
    }

    /// A Marine unit of the working state, by id.
    pub fn marine(&self, id: &str) -> Option<Marine> {
        self.s.marine(id).cloned()
    }

    /// A Kay'otz unit of the working state, by id.
    pub fn alien(&self, id: &str) -> Option<Alien> {
        self.s.alien(id).cloned()
    }

    /// Roll three dice read as a hex number (A.3) and log it.
    pub fn random_hex(&mut self) -> Result<Hex, crate::game::RuleError> {
        let d = [self.rng.d6()?, self.rng.d6()?, self.rng.d6()?];
        let hex = 100 * u16::from(d[0]) + 10 * u16::from(d[1]) + u16::from(d[2]);
        self.emit(DimxEvent::RandomHex { dice: d, hex });
        Ok(hex)
    }
}
