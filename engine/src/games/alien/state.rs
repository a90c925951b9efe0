//! The state of a battle of Alien, its events, and the one fold (`apply`).

use serde::{Deserialize, Serialize};

use super::data::{Cell, Content, Item, Kind, Terrain, Tile};

/// Action points of a character in each of its movement phases (3).
pub const ACTION_POINTS: u8 = 6;
/// Pockets of a character (3).
pub const POCKETS: usize = 3;
/// Tiles an alien moves at most (9.2).
pub const ALIEN_MOVE: u8 = 4;
/// Tiles the APC drives at most in a phase, and phases a fuel container lasts (4.2).
pub const APC_TILES: u8 = 10;
pub const FUEL_PHASES: u8 = 3;
/// Strength an alien never exceeds (9.1, 9.3).
pub const ALIEN_MAX: u8 = 4;
/// Undone task cards the expedition may hold (7).
pub const OPEN_TASKS: usize = 3;

/// How the Queen is killed (8), chosen before the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueenOption {
    /// Option 1: declare an attack after a task; the Alien player's die against the points.
    Declare,
    /// Option 2: the Queen dies when this many tasks are done.
    Tasks(u8),
}

/// The Queen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Queen {
    Alive,
    /// Killed; `hatching`: aliens still hatch (Option 1, an equal roll).
    Dead {
        hatching: bool,
    },
}

/// Where a character is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pos {
    Tile(Tile),
    /// Aboard the APC.
    Apc,
    /// On the track outside, at this space (0 is the entry box).
    Outside(u8),
    Dead,
}

/// A member of the expedition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    /// Index of its card in [`Content::characters`].
    pub card: u8,
    /// The seat that controls it.
    pub seat: u8,
    pub strength: u8,
    pub pos: Pos,
    pub items: Vec<Item>,
    /// Action points left in this phase.
    pub ap: u8,
    /// Has shot (or thrown a grenade) this phase: only more shots now.
    pub shot: bool,
    /// The aliens it shot this phase (6: the charges against each target
    /// are chosen once, so one die an alien a phase; rules version 5).
    /// Defaults to none: a seat's copy may be built from the JSON of an
    /// older server's state, which has no such field (review14 S4).
    #[serde(default)]
    pub shot_at: Vec<u16>,
    /// Came next to an alien this phase: no more moving.
    pub stopped: bool,
    /// Left the APC this phase: may not board it again until the next.
    pub left_apc: bool,
    /// Aliens it killed.
    pub kills: u32,
}

impl Character {
    pub fn tile(&self) -> Option<Tile> {
        match self.pos {
            Pos::Tile(t) => Some(t),
            _ => None,
        }
    }
    pub fn alive(&self) -> bool {
        self.pos != Pos::Dead
    }
    /// Charges in all its cartridges.
    pub fn charges(&self) -> u8 {
        self.items
            .iter()
            .map(|i| if let Item::Ammo(n) = i { *n } else { 0 })
            .sum()
    }
    pub fn has(&self, k: Kind) -> bool {
        self.items.iter().any(|i| i.kind() == k)
    }
    pub fn pocket_of(&self, k: Kind) -> Option<u8> {
        self.items
            .iter()
            .position(|i| i.kind() == k)
            .map(|p| p as u8)
    }
}

/// An alien on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlienPiece {
    pub id: u16,
    pub strength: u8,
    pub at: Tile,
    pub moved: bool,
    pub attacked: bool,
}

/// The armoured personnel carrier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Apc {
    pub at: Tile,
    /// Phases of fuel left (a container gives three).
    pub fuel: u8,
    /// Tiles driven in this phase.
    pub driven: u8,
}

/// Where the battle is in its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Phase 1: the APC, then the characters.
    Expedition,
    /// Phase 2: hatching (the game rolls, the Alien player splits and places).
    Hatching,
    /// Phase 2: the Alien player moves aliens.
    Moving,
    /// Phase 2: metamorphosis in the ducts (the game's own step).
    Metamorphosis,
    /// Phase 2: the aliens' attacks.
    Attacks,
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Result {
    /// A character reached the landing field after the Queen died.
    Expedition,
    /// Every character killed after the Queen died.
    Draw,
    /// Every character killed while the Queen lived.
    Aliens,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlienState {
    pub content: crate::shared::Shared<Content>,
    pub option: QueenOption,
    /// Players, the Alien player (seat 0) included.
    pub players: u8,
    pub turn: u32,
    pub phase: Phase,
    pub characters: Vec<Character>,
    pub aliens: Vec<AlienPiece>,
    pub next_alien: u16,
    pub apc: Apc,
    /// Items left lying on tiles.
    pub floor: Vec<(Tile, Item)>,
    /// Corridor tiles collapsed by explosive charges.
    pub collapsed: Vec<Tile>,
    /// Tokens of each kind out of their storages, in `Kind::ALL` order.
    pub taken: Vec<u8>,
    /// Tokens of each weapon out of the armouries.
    pub weapons_taken: Vec<u8>,
    /// Task cards not drawn yet (hidden from the Alien player).
    pub deck: Vec<u8>,
    /// Cards drawn and not done (hidden from the Alien player).
    pub open: Vec<u8>,
    /// Cards done, checked by the Alien player.
    pub done: Vec<u8>,
    /// Points on the track.
    pub points: u8,
    /// Option 1: a task was done since the last declaration.
    pub may_declare: bool,
    pub queen: Queen,
    /// A character has acted this phase: the APC's movement is over.
    pub acted: bool,
    /// Expedition seats that ended this phase.
    pub seats_done: Vec<u8>,
    pub hatch_roll: Option<u8>,
    /// New aliens still to be placed, by strength.
    pub to_place: Vec<u8>,
    pub over: Option<Result>,
    /// Battle option (assumption 18): an explosive charge may not cut the
    /// base in two (config `keep_base_whole`; always on in battles of rules
    /// version 2).
    pub keep_base_whole: bool,
}

impl AlienState {
    pub fn alien(&self, id: u16) -> Option<&AlienPiece> {
        self.aliens.iter().find(|a| a.id == id)
    }
    pub fn character_at(&self, t: Tile) -> Option<usize> {
        self.characters.iter().position(|c| c.pos == Pos::Tile(t))
    }
    pub fn alien_at(&self, t: Tile) -> bool {
        self.aliens.iter().any(|a| a.at == t)
    }
    /// An alien's strength where it stands: doubled in a duct (9.2).
    pub fn alien_force(&self, a: &AlienPiece) -> i32 {
        let s = i32::from(a.strength);
        if self.content.base.terrain(a.at) == Terrain::Duct {
            2 * s
        } else {
            s
        }
    }
    pub fn next_to_alien(&self, t: Tile) -> bool {
        self.aliens
            .iter()
            .any(|a| self.content.base.adjacent(a.at, t))
    }
    pub fn next_to_character(&self, t: Tile) -> bool {
        self.characters
            .iter()
            .filter_map(Character::tile)
            .any(|c| self.content.base.adjacent(c, t))
    }
    pub fn hatching_goes_on(&self) -> bool {
        !matches!(self.queen, Queen::Dead { hatching: false })
    }
    pub fn queen_dead(&self) -> bool {
        matches!(self.queen, Queen::Dead { .. })
    }
    pub fn name(&self, ch: u8) -> String {
        self.characters
            .get(usize::from(ch))
            .and_then(|c| self.content.characters.get(usize::from(c.card)))
            .map_or_else(|| format!("character {ch}"), |c| c.name.clone())
    }
    /// The expedition seats, 1 to players - 1.
    pub fn expedition_seats(&self) -> Vec<u8> {
        (1..self.players).collect()
    }
    pub fn seat_alive(&self, seat: u8) -> bool {
        self.characters.iter().any(|c| c.seat == seat && c.alive())
    }
}

/// What happened: facts, with their dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlienEvent {
    ApcDrove {
        to: Tile,
        fuel_used: bool,
    },
    Moved {
        ch: u8,
        to: Tile,
        stopped: bool,
    },
    Boarded {
        ch: u8,
    },
    LeftApc {
        ch: u8,
        to: Tile,
        stopped: bool,
    },
    Disembarked {
        ch: u8,
        to: Tile,
    },
    Took {
        ch: u8,
        item: Item,
        from_floor: bool,
    },
    Dropped {
        ch: u8,
        pocket: u8,
        leave: bool,
    },
    Gave {
        ch: u8,
        pocket: u8,
        to: u8,
    },
    /// A shot: force, die, and the table's result.
    Shot {
        ch: u8,
        alien: u16,
        charges: u8,
        force: i32,
        roll: u8,
        result: Cell,
        adjacent: bool,
    },
    AlienHit {
        alien: u16,
        lost: u8,
    },
    AlienWithdrew {
        alien: u16,
        to: Tile,
    },
    AlienKilled {
        alien: u16,
        by: Option<u8>,
    },
    CharacterHit {
        ch: u8,
        lost: u8,
    },
    CharacterWithdrew {
        ch: u8,
        to: Tile,
    },
    CharacterKilled {
        ch: u8,
    },
    Thrown {
        ch: u8,
        pocket: u8,
        at: Tile,
        area: Vec<Tile>,
    },
    Blown {
        ch: u8,
        pocket: u8,
        at: Tile,
    },
    Healed {
        ch: u8,
        pocket: u8,
        patient: u8,
    },
    DiskRead {
        ch: u8,
        pocket: u8,
        computer: u8,
    },
    /// A task card drawn: hidden from the Alien player (0 in its view).
    TaskDrawn {
        card: u8,
    },
    TaskDone {
        card: u8,
    },
    Repaired {
        ch: u8,
        pocket: u8,
    },
    Fueled {
        ch: u8,
        pocket: u8,
    },
    WentOut {
        ch: u8,
    },
    CameIn {
        ch: u8,
        at: Tile,
    },
    QueenRolled {
        roll: u8,
        points: u8,
    },
    QueenDied {
        hatching: bool,
    },
    PointsLost,
    SeatDone {
        seat: u8,
    },
    PhaseBegun {
        phase: Phase,
    },
    HatchRolled {
        roll: u8,
    },
    Split {
        parts: Vec<u8>,
    },
    Hatched {
        alien: u16,
        strength: u8,
        at: Tile,
    },
    AlienMoved {
        alien: u16,
        to: Tile,
    },
    Merged {
        into: u16,
        from: u16,
        strength: u8,
        lost: u8,
    },
    Attacked {
        ch: u8,
        aliens: Vec<u16>,
        force: i32,
        roll: u8,
        result: Cell,
    },
    TurnBegun {
        turn: u32,
    },
    Ended {
        result: Result,
    },
}

fn ch_mut(state: &mut AlienState, ch: u8) -> &mut Character {
    &mut state.characters[usize::from(ch)]
}

fn set_aside(state: &mut AlienState, item: Item) {
    // Disks and spare parts go back to the warehouse; everything else is set
    // aside for the rest of the game (it stays counted as taken).
    match item {
        Item::Disk | Item::Spare => {
            let k = item.kind().index();
            state.taken[k] = state.taken[k].saturating_sub(1);
        }
        _ => {}
    }
}

/// Apply one event. Never fails.
pub fn apply(state: &mut AlienState, event: &AlienEvent) {
    use AlienEvent as E;
    match event {
        E::ApcDrove { to, fuel_used } => {
            state.apc.at = *to;
            state.apc.driven += 1;
            if *fuel_used {
                state.apc.fuel = state.apc.fuel.saturating_sub(1);
            }
        }
        E::Moved { ch, to, stopped } => {
            let c = ch_mut(state, *ch);
            c.pos = Pos::Tile(*to);
            c.ap = c.ap.saturating_sub(1);
            c.stopped |= *stopped;
            state.acted = true;
        }
        E::Boarded { ch } => {
            let c = ch_mut(state, *ch);
            c.pos = Pos::Apc;
            c.ap = c.ap.saturating_sub(1);
            state.acted = true;
        }
        E::LeftApc { ch, to, stopped } => {
            let c = ch_mut(state, *ch);
            c.pos = Pos::Tile(*to);
            c.ap = c.ap.saturating_sub(1);
            c.left_apc = true;
            c.stopped |= *stopped;
            state.acted = true;
        }
        E::Disembarked { ch, to } => {
            let c = ch_mut(state, *ch);
            c.pos = Pos::Tile(*to);
            c.left_apc = true;
        }
        E::Took {
            ch,
            item,
            from_floor,
        } => {
            let c = ch_mut(state, *ch);
            c.items.push(*item);
            c.ap = c.ap.saturating_sub(1);
            let at = c.tile();
            state.acted = true;
            if *from_floor {
                if let Some(i) = state
                    .floor
                    .iter()
                    .position(|f| Some(f.0) == at && f.1 == *item)
                {
                    state.floor.remove(i);
                }
            } else if let Item::Weapon(w) = item {
                if let Some(n) = state.weapons_taken.get_mut(usize::from(*w)) {
                    *n = n.saturating_add(1);
                }
            } else {
                let k = item.kind().index();
                state.taken[k] = state.taken[k].saturating_add(1);
            }
        }
        E::Dropped { ch, pocket, leave } => {
            // The rules only record a pocket the character has; an event of
            // a damaged or hostile battle file may name another: it drops
            // nothing (verify reports the entry) instead of panicking.
            let Some(c) = state
                .characters
                .get_mut(usize::from(*ch))
                .filter(|c| usize::from(*pocket) < c.items.len())
            else {
                return;
            };
            let at = c.tile();
            let item = c.items.remove(usize::from(*pocket));
            c.ap = c.ap.saturating_sub(1);
            state.acted = true;
            match (leave, at) {
                (true, Some(t)) => state.floor.push((t, item)),
                _ => set_aside(state, item),
            }
        }
        E::Gave { ch, pocket, to } => {
            let c = ch_mut(state, *ch);
            let item = c.items.remove(usize::from(*pocket));
            c.ap = c.ap.saturating_sub(1);
            ch_mut(state, *to).items.push(item);
            state.acted = true;
        }
        E::Shot {
            ch, alien, charges, ..
        } => {
            let c = ch_mut(state, *ch);
            c.ap = c.ap.saturating_sub(*charges);
            c.shot = true;
            c.shot_at.push(*alien);
            // Charges come from the emptiest cartridge first; an empty
            // cartridge is set aside (assumed).
            let mut left = *charges;
            while left > 0 {
                let Some(i) = c
                    .items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, it)| match it {
                        Item::Ammo(n) if *n > 0 => Some((*n, i)),
                        _ => None,
                    })
                    .min()
                    .map(|x| x.1)
                else {
                    break;
                };
                if let Item::Ammo(n) = &mut c.items[i] {
                    let used = left.min(*n);
                    *n -= used;
                    left -= used;
                }
            }
            c.items.retain(|i| *i != Item::Ammo(0));
            state.acted = true;
        }
        E::AlienHit { alien, lost } => {
            if let Some(a) = state.aliens.iter_mut().find(|a| a.id == *alien) {
                a.strength = a.strength.saturating_sub(*lost);
            }
        }
        E::AlienWithdrew { alien, to } => {
            if let Some(a) = state.aliens.iter_mut().find(|a| a.id == *alien) {
                a.at = *to;
            }
        }
        E::AlienKilled { alien, by } => {
            state.aliens.retain(|a| a.id != *alien);
            if let Some(by) = by {
                ch_mut(state, *by).kills += 1;
            }
        }
        E::CharacterHit { ch, lost } => {
            let c = ch_mut(state, *ch);
            c.strength = c.strength.saturating_sub(*lost);
        }
        E::CharacterWithdrew { ch, to } => ch_mut(state, *ch).pos = Pos::Tile(*to),
        E::CharacterKilled { ch } => {
            let c = ch_mut(state, *ch);
            c.pos = Pos::Dead;
            c.strength = 0;
            let items = std::mem::take(&mut c.items);
            for it in items {
                set_aside(state, it);
            }
        }
        E::Thrown { ch, pocket, .. } => {
            let c = ch_mut(state, *ch);
            c.items.remove(usize::from(*pocket));
            c.ap = c.ap.saturating_sub(1);
            c.shot = true;
            state.acted = true;
        }
        E::Blown { ch, pocket, at } => {
            let c = ch_mut(state, *ch);
            c.items.remove(usize::from(*pocket));
            c.ap = c.ap.saturating_sub(1);
            state.collapsed.push(*at);
            state.floor.retain(|f| f.0 != *at);
            state.acted = true;
        }
        E::Healed {
            ch,
            pocket,
            patient,
        } => {
            let c = ch_mut(state, *ch);
            c.items.remove(usize::from(*pocket));
            c.ap = c.ap.saturating_sub(1);
            let p = ch_mut(state, *patient);
            p.strength += 1;
            state.acted = true;
        }
        E::DiskRead { ch, pocket, .. } => {
            let c = ch_mut(state, *ch);
            let item = c.items.remove(usize::from(*pocket));
            c.ap = c.ap.saturating_sub(1);
            set_aside(state, item);
            state.acted = true;
        }
        E::TaskDrawn { card } => {
            state.deck.retain(|c| c != card);
            state.open.push(*card);
        }
        E::TaskDone { card } => {
            state.open.retain(|c| c != card);
            state.done.push(*card);
            state.points += 1;
            state.may_declare = true;
        }
        E::Repaired { ch, pocket } => {
            let c = ch_mut(state, *ch);
            let item = c.items.remove(usize::from(*pocket));
            c.ap = c.ap.saturating_sub(1);
            set_aside(state, item);
            state.acted = true;
        }
        E::Fueled { ch, pocket } => {
            let c = ch_mut(state, *ch);
            c.items.remove(usize::from(*pocket));
            c.ap = c.ap.saturating_sub(1);
            state.apc.fuel = FUEL_PHASES;
            state.acted = true;
        }
        E::WentOut { ch } => {
            let c = ch_mut(state, *ch);
            c.pos = Pos::Outside(0);
            c.ap = c.ap.saturating_sub(1);
            state.acted = true;
        }
        E::CameIn { ch, at } => {
            // Coming in is a move onto the airlock's tile: next to an
            // alien, the character stops there (4.1).
            let stopped = state.next_to_alien(*at);
            let c = ch_mut(state, *ch);
            c.pos = Pos::Tile(*at);
            c.stopped |= stopped;
            c.ap = c.ap.saturating_sub(1);
            state.acted = true;
        }
        E::QueenRolled { .. } => state.may_declare = false,
        E::QueenDied { hatching } => {
            state.queen = Queen::Dead {
                hatching: *hatching,
            }
        }
        E::PointsLost => state.points = 0,
        E::SeatDone { seat } => state.seats_done.push(*seat),
        E::PhaseBegun { phase } => state.phase = *phase,
        E::HatchRolled { roll } => state.hatch_roll = Some(*roll),
        E::Split { parts } => state.to_place = parts.clone(),
        E::Hatched {
            alien,
            strength,
            at,
        } => {
            if !state.to_place.is_empty() {
                state.to_place.remove(0);
            }
            state.aliens.push(AlienPiece {
                id: *alien,
                strength: *strength,
                at: *at,
                moved: false,
                attacked: false,
            });
            state.next_alien = state.next_alien.max(alien + 1);
        }
        E::AlienMoved { alien, to } => {
            if let Some(a) = state.aliens.iter_mut().find(|a| a.id == *alien) {
                a.at = *to;
                a.moved = true;
            }
        }
        E::Merged {
            into,
            from,
            strength,
            ..
        } => {
            state.aliens.retain(|a| a.id != *from);
            if let Some(a) = state.aliens.iter_mut().find(|a| a.id == *into) {
                a.strength = *strength;
            }
        }
        E::Attacked { aliens, .. } => {
            for a in state.aliens.iter_mut().filter(|a| aliens.contains(&a.id)) {
                a.attacked = true;
            }
        }
        E::TurnBegun { turn } => {
            state.turn = *turn;
            state.phase = Phase::Expedition;
            state.acted = false;
            state.seats_done.clear();
            state.hatch_roll = None;
            state.to_place.clear();
            state.apc.driven = 0;
            let last = state.content.base.track.saturating_sub(1);
            for c in &mut state.characters {
                c.ap = ACTION_POINTS;
                c.shot = false;
                c.shot_at.clear();
                c.stopped = false;
                c.left_apc = false;
                if let Pos::Outside(n) = c.pos {
                    c.pos = Pos::Outside((n + 1).min(last));
                }
            }
            for a in &mut state.aliens {
                a.moved = false;
                a.attacked = false;
            }
        }
        E::Ended { result } => state.over = Some(*result),
    }
}

#[cfg(test)]
mod dropped_tests {
    use super::*;
    use crate::games::alien::{AlienConfig, start};

    #[test]
    fn a_recorded_drop_from_an_empty_pocket_or_an_unknown_character_changes_nothing() {
        // Found by the fuzzer (fuzz/regressions/battle_file): a battle file's
        // Dropped event naming a pocket the character does not have panicked
        // while the battle was rebuilt on import.
        let mut s = start(&AlienConfig::default()).unwrap();
        s.characters[0].items.clear();
        let before = s.clone();
        for (ch, pocket) in [(0, 0), (0, 9), (200, 0)] {
            apply(
                &mut s,
                &AlienEvent::Dropped {
                    ch,
                    pocket,
                    leave: true,
                },
            );
            assert_eq!(s, before, "Dropped {{ ch: {ch}, pocket: {pocket} }}");
        }
    }
}
