//! Questions about a state that several rules ask: who is where, who is
//! Active, what is adjacent. Also the decide context every rule writes into.

use crate::game::RuleError;
use crate::rng::Randomness;

use super::map::{Cell, Hex, Map};
use super::state::{DimxEvent, DimxState, PlaceWhy, apply};
use super::units::{Alien, AlienKind, Condition, Marine, MarineKind};

/// The map a state is played on.
pub fn map_of(s: &DimxState) -> &Map {
    &s.map
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

/// Whether no unit but `ignore` stands in hex `h`.
pub fn free(s: &DimxState, h: Hex, ignore: &str) -> bool {
    !s.marines
        .iter()
        .any(|m| m.id != ignore && m.on_map() == Some(h))
        && !s
            .aliens
            .iter()
            .any(|a| a.id != ignore && a.on_map() == Some(h))
}

/// The free numbered hexes nearest to any of `around` (not counting those
/// cells themselves), highest-numbered first: the tie among which the
/// "highest-numbered eligible adjacent hex" rule picks (C.2, D.6). `ignore`
/// is a unit that is leaving and does not count. Should every adjacent hex
/// be full, the next ring out is tried (assumed; the text is silent).
pub fn nearest_free(s: &DimxState, map: &Map, around: &[Cell], ignore: &str) -> Vec<Hex> {
    let dist = |c: Cell| around.iter().map(|&a| map.distance(a, c)).min();
    let max = map.cols + map.rows;
    for ring in 1..=max {
        let mut tied: Vec<Hex> = map
            .numbered()
            .filter(|&(h, c)| dist(c) == Some(ring) && free(s, h, ignore))
            .map(|(h, _)| h)
            .collect();
        if !tied.is_empty() {
            tied.sort_unstable_by(|a, b| b.cmp(a));
            return tied;
        }
    }
    Vec::new()
}

/// How a tie of hexes came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The hex: the only one, or the highest-numbered in solitaire.
    At(Hex),
    /// The Kay'otz player chooses (variant); play waits for `place_unit`.
    Asked,
    /// No hex is free anywhere.
    NoRoom,
}

/// Break a tie of equally eligible hexes (`ties` highest-numbered first):
/// the highest-numbered hex in solitaire; in the two-player variant the
/// Kay'otz player chooses ("ignore the 'highest-numbered' hex rule"), so a
/// [`DimxEvent::TieToBreak`] is logged and play waits.
pub fn pick_hex(ctx: &mut Ctx, unit: &str, ties: Vec<Hex>, why: PlaceWhy) -> Pick {
    match ties.as_slice() {
        [] => Pick::NoRoom,
        [h] => Pick::At(*h),
        [h, ..] if !ctx.s.two_player => Pick::At(*h),
        _ => {
            let name = title_of(&ctx.s, unit);
            ctx.emit(DimxEvent::TieToBreak {
                unit: unit.to_owned(),
                name,
                hexes: ties,
                why,
            });
            Pick::Asked
        }
    }
}

/// Put a unit on the tied hex its rule picks, or wait for the Kay'otz
/// player's choice (variant), or log that no hex is free. Whether it waits.
pub fn put_down(ctx: &mut Ctx, unit: &str, ties: Vec<Hex>, why: PlaceWhy) -> bool {
    match pick_hex(ctx, unit, ties, why) {
        Pick::At(at) => settle(ctx, unit, at, why),
        Pick::Asked => return true,
        Pick::NoRoom => no_room(ctx, unit),
    }
    false
}

/// A unit's name in the log: "Scout SC1", "Kay'otz #10".
pub fn title_of(s: &DimxState, unit: &str) -> String {
    s.marine(unit)
        .map(|m| m.title())
        .or_else(|| s.alien(unit).map(|a| a.title()))
        .unwrap_or_else(|| unit.to_owned())
}

/// Put a unit down on the hex a tie came to (see [`PlaceWhy`]).
pub fn settle(ctx: &mut Ctx, unit: &str, at: Hex, why: PlaceWhy) {
    use super::state::{AlienMove, Landing};
    let name = title_of(&ctx.s, unit);
    let from = ctx.s.alien(unit).and_then(|a| a.on_map());
    let e = match why {
        PlaceWhy::Scattered => DimxEvent::Landed {
            kind: ctx.kind_of(unit),
            unit: unit.to_owned(),
            at,
            how: Landing::Scattered,
        },
        PlaceWhy::Malfunction => DimxEvent::Landed {
            kind: ctx.kind_of(unit),
            unit: unit.to_owned(),
            at,
            how: Landing::MalfunctionAside,
        },
        PlaceWhy::Beamed | PlaceWhy::Warped | PlaceWhy::Summoned { .. } => DimxEvent::AlienMoved {
            unit: unit.to_owned(),
            name,
            from,
            to: at,
            how: match why {
                PlaceWhy::Beamed => AlienMove::Beamed,
                PlaceWhy::Warped => AlienMove::SteppedAside,
                _ => AlienMove::Summoned,
            },
        },
    };
    ctx.emit(e);
}

/// No hex is free anywhere: the unit stays where it is (logged).
pub fn no_room(ctx: &mut Ctx, unit: &str) {
    let name = title_of(&ctx.s, unit);
    let at = ctx
        .s
        .marine(unit)
        .and_then(|m| m.on_map())
        .or_else(|| ctx.s.alien(unit).and_then(|a| a.on_map()));
    ctx.emit(DimxEvent::NoRoom {
        unit: unit.to_owned(),
        name,
        at,
    });
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
    pub map: &'r Map,
    pub rng: &'r mut Randomness,
    pub events: Vec<DimxEvent>,
}

impl<'r> Ctx<'r> {
    /// A context deciding a command against a copy of `s`.
    pub fn new(s: &'r DimxState, rng: &'r mut Randomness) -> Self {
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
        // Most scenarios have no Monolith: then there is nothing to compare
        // (an empty list before zips with nothing), so no lists are made.
        if !self.s.aliens.iter().any(|a| a.kind == AlienKind::Monolith) {
            apply(&mut self.s, &e);
            self.events.push(e);
            return;
        }
        let before = self.monoliths();
        apply(&mut self.s, &e);
        self.events.push(e);
        let after = self.monoliths();
        for ((id, was), (_, now)) in before.into_iter().zip(after) {
            if was != now {
                self.events.push(DimxEvent::MonolithSwitched {
                    unit: id.into(),
                    active: now,
                });
            }
        }
    }

    fn monoliths(&self) -> Vec<(crate::Ident, bool)> {
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

    /// A Marine unit's type, for the events that name it. Events are made
    /// for units of the working state; the fallback is never used.
    pub fn kind_of(&self, id: &str) -> super::units::MarineKind {
        self.s
            .marine(id)
            .map_or(super::units::MarineKind::Squad, |m| m.kind)
    }

    /// The Marine unit `unit` chose `action` for its activation.
    pub fn chose(&mut self, unit: &str, action: super::state::Action) {
        let kind = self.kind_of(unit);
        self.emit(DimxEvent::ActionChosen {
            kind,
            unit: unit.to_owned(),
            action,
        });
    }

    /// A Kay'otz unit of the working state, by id.
    pub fn alien(&self, id: &str) -> Option<Alien> {
        self.s.alien(id).cloned()
    }

    /// The Marine unit `id`, or a refusal under `clause` when there is none.
    pub fn marine_for(&self, clause: &str, id: &str) -> Result<Marine, RuleError> {
        self.marine(id)
            .ok_or_else(|| RuleError::illegal(clause, format!("there is no Marine unit {id}")))
    }

    /// The Kay'otz unit `id`, or a refusal under `clause` when there is none.
    pub fn alien_for(&self, clause: &str, id: &str) -> Result<Alien, RuleError> {
        self.alien(id)
            .ok_or_else(|| RuleError::illegal(clause, format!("there is no Kay'otz unit {id}")))
    }

    /// Roll `n` six-sided dice, one `d6` call each, in order. Every roll of
    /// the game goes through `Randomness::d6` in an order fixed by the state
    /// and the command alone, so dice typed in one at a time (the app asks
    /// for one more on `RuleErrorKind::MoreDice` and decides the command
    /// again) meet exactly the rolls that dice typed in all at once meet.
    pub fn roll_d6(&mut self, n: usize) -> Result<Vec<u8>, crate::game::RuleError> {
        (0..n).map(|_| self.rng.d6()).collect()
    }

    /// Roll three dice read as a hex number (A.3) and log it. Both printed
    /// maps number every hex 111 to 666; a player's own map may lack some
    /// numbers, and a roll that names no hex of it is rolled again (assumed).
    /// Each roll is three `d6` calls in order, so dice entered one at a time
    /// meet the same rolls.
    pub fn random_hex(&mut self) -> Result<Hex, crate::game::RuleError> {
        loop {
            let d = [self.rng.d6()?, self.rng.d6()?, self.rng.d6()?];
            let hex = 100 * u16::from(d[0]) + 10 * u16::from(d[1]) + u16::from(d[2]);
            let on_map = self
                .map
                .cell(hex)
                .is_some_and(|c| self.map.number(c).is_some());
            self.emit(DimxEvent::RandomHex {
                dice: d,
                hex,
                on_map,
            });
            if on_map {
                return Ok(hex);
            }
        }
    }
}
