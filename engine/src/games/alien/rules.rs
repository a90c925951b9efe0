//! Commands, `decide`, `legal`, the game's own steps and who is asked.
//! Clause numbers (e.g. `4.1`) are those of `RULES.md`.

use serde::{Deserialize, Serialize};

use crate::game::{Actor, Ask, RuleError, RuleErrorKind};
use crate::rng::Randomness;

use super::data::Condition;
use super::data::{Item, Kind, Terrain, Tile};
use super::state::{
    ALIEN_MAX, ALIEN_MOVE, APC_TILES, AlienEvent as E, AlienState, OPEN_TASKS, POCKETS, Phase, Pos,
    QueenOption, Result as End, apply,
};

/// What a player (or the game) does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlienCommand {
    // The expedition (phase 1).
    /// The APC one tile (it moves before the characters act).
    Drive {
        to: Tile,
    },
    /// A character one tile (onto the APC's tile: boarding it).
    Move {
        ch: u8,
        to: Tile,
    },
    /// Leave the APC onto a tile next to it.
    Leave {
        ch: u8,
        to: Tile,
    },
    /// Take an item lying on the tile, or from the storage there.
    Take {
        ch: u8,
        item: Item,
    },
    /// Drop an item: leave it on the tile, or set it aside.
    Drop {
        ch: u8,
        pocket: u8,
        leave: bool,
    },
    /// Hand an item to a neighbour.
    Give {
        ch: u8,
        pocket: u8,
        to: u8,
    },
    /// Shoot an alien with the weapon in `weapon` (a pocket), using `charges`.
    Shoot {
        ch: u8,
        weapon: u8,
        alien: u16,
        charges: u8,
    },
    /// Throw the grenade in `pocket` at a tile; `area`: the three tiles struck.
    Throw {
        ch: u8,
        pocket: u8,
        at: Tile,
        area: Vec<Tile>,
    },
    /// Blow up a neighbouring corridor tile with the charge in `pocket`.
    Blow {
        ch: u8,
        pocket: u8,
        at: Tile,
    },
    /// Bishop heals a neighbour with the medical kit in `pocket`.
    Heal {
        ch: u8,
        pocket: u8,
        patient: u8,
    },
    /// Read the floppy disk in `pocket` at the computer here.
    Read {
        ch: u8,
        pocket: u8,
    },
    /// Repair the device here with the spare parts in `pocket`.
    Repair {
        ch: u8,
        pocket: u8,
    },
    /// Deliver the fuel container in `pocket` to the APC.
    Fuel {
        ch: u8,
        pocket: u8,
    },
    /// Go outside from an airlock (with a vacuum suit).
    GoOut {
        ch: u8,
    },
    /// Come back in from the track's exit box by an airlock.
    ComeIn {
        ch: u8,
        airlock: u8,
    },
    /// Option 1: attack the Queen (the Alien player's die against the points).
    AttackQueen,
    /// This seat's characters have finished the phase.
    EndPhase,
    // The Alien player (phase 2).
    /// How the hatching roll is split into new aliens (strengths, at most 4 each).
    Hatch {
        parts: Vec<u8>,
    },
    /// Place the next new alien on a hatching place.
    Place {
        hatch: u8,
    },
    /// Move an alien up to four tiles.
    MoveAlien {
        alien: u16,
        to: Tile,
    },
    /// The aliens' movement is over.
    EndMoves,
    /// The aliens next to a character attack it together.
    Attack {
        ch: u8,
    },
    // The game's own steps.
    RollHatch,
    Metamorphose,
    EndTurn,
}

pub type Res = std::result::Result<Vec<E>, RuleError>;

fn illegal(clause: &str, msg: impl Into<String>) -> RuleError {
    RuleError::illegal(clause, msg)
}

/// Alien-passable: corridors, rooms, ducts (9.2), not collapsed.
pub fn alien_ground(s: &AlienState, t: Tile) -> bool {
    matches!(
        s.content.base.terrain(t),
        Terrain::Corridor | Terrain::Room | Terrain::Duct
    ) && !s.collapsed.contains(&t)
}

/// Tiles a character may stand on (4.1): not walls, collapsed tiles or the
/// landing field (until the Queen is dead).
pub fn character_ground(s: &AlienState, t: Tile) -> bool {
    match s.content.base.terrain(t) {
        Terrain::Wall => false,
        Terrain::Landing => s.queen_dead(),
        _ => !s.collapsed.contains(&t),
    }
}

/// Where a character leaving the APC may stand (4.1, 4.2): the ground of
/// [`character_ground`], and the landing field too while the APC stands on
/// it (a passenger there is on the landing field already, having entered it
/// to start the APC).
pub fn ground_from_apc(s: &AlienState, t: Tile) -> bool {
    let base = &s.content.base;
    character_ground(s, t)
        || (base.terrain(t) == Terrain::Landing && base.terrain(s.apc.at) == Terrain::Landing)
}

/// Steps from `t` to the APC over the landing field (4.1: the landing field
/// may be entered "to start the APC"); `u8::MAX` when `t` is not on the
/// landing field or the APC does not stand on it.
pub fn landing_steps_to_apc(s: &AlienState, t: Tile) -> u8 {
    let base = &s.content.base;
    if base.terrain(t) != Terrain::Landing || base.terrain(s.apc.at) != Terrain::Landing {
        return u8::MAX;
    }
    reach(
        s,
        s.apc.at,
        u8::MAX,
        |n| base.terrain(n) == Terrain::Landing,
        |_| true,
    )
    .into_iter()
    .find(|x| x.0 == t)
    .map_or(u8::MAX, |x| x.1)
}

/// Whether the move of `ch` from `at` onto the landing-field tile `to` is
/// the text's one exception (4.1): "characters may not enter the landing
/// field, the only exception being to start the APC (see 4.2)". A character
/// may step onto the landing field, each step nearer the APC standing on
/// it, while it carries a fuel container for the APC that has none (to
/// deliver it, 4.2) or while the APC has fuel (to board it: "to enter the
/// vehicle a character has to stand on a tile on which the APC stands").
pub fn starts_the_apc(s: &AlienState, ch: u8, at: Tile, to: Tile) -> bool {
    let c = &s.characters[usize::from(ch)];
    let purpose = s.apc.fuel > 0 || c.has(Kind::Fuel);
    purpose && landing_steps_to_apc(s, to) < landing_steps_to_apc(s, at)
}

/// Whether the APC may drive onto `t` (4.2): corridors and rooms (the
/// landing field too, assumed), no ducts, airlocks or storages.
pub fn apc_ground(s: &AlienState, t: Tile) -> bool {
    let b = &s.content.base;
    matches!(
        b.terrain(t),
        Terrain::Corridor | Terrain::Room | Terrain::Landing
    ) && b.store_at(t).is_none()
        && !s.collapsed.contains(&t)
        && s.character_at(t).is_none()
}

/// The tiles the line from the centre of `a` to the centre of `b` passes
/// through, ends excluded; a line along a corner between two tiles passes
/// through both (6).
pub fn line(s: &AlienState, a: Tile, b: Tile) -> Vec<Tile> {
    let base = &s.content.base;
    let (x0, y0) = base.xy(a);
    let (x1, y1) = base.xy(b);
    let (dx, dy) = (i64::from(x1 - x0), i64::from(y1 - y0));
    let n = 8 * (dx.abs() + dy.abs()).max(1);
    let mut out: Vec<Tile> = Vec::new();
    for k in 0..=n {
        // Coordinates in units of 1/(2n) tile: centre of a is (2x0+1)n.
        let px = (2 * i64::from(x0) + 1) * n + 2 * k * dx;
        let py = (2 * i64::from(y0) + 1) * n + 2 * k * dy;
        let cells = |p: i64| -> Vec<i64> {
            let q = p.div_euclid(2 * n);
            if p.rem_euclid(2 * n) == 0 {
                vec![q - 1, q]
            } else {
                vec![q]
            }
        };
        for cx in cells(px) {
            for cy in cells(py) {
                if let Some(t) = base.at(cx as i32, cy as i32)
                    && t != a
                    && t != b
                    && !out.contains(&t)
                {
                    out.push(t);
                }
            }
        }
    }
    out
}

/// Whether a character on `from` may shoot at the alien `target` on `to` (6).
pub fn clear_line(s: &AlienState, from: Tile, to: Tile, target: u16) -> bool {
    line(s, from, to).into_iter().all(|t| {
        s.content.base.terrain(t) != Terrain::Wall
            && s.character_at(t).is_none()
            && !s.aliens.iter().any(|a| a.at == t && a.id != target)
    })
}

/// Whether collapsing the corridor tile `t` would cut the base in two: its
/// open neighbours would no longer connect to one another (assumed, 5: a
/// character sealed off by collapsed corridors could never be reached by
/// the aliens nor reach the landing field, and the battle could not end).
pub fn cuts_the_base(s: &AlienState, t: Tile) -> bool {
    let base = &s.content.base;
    let open = |n: Tile| n != t && !s.collapsed.contains(&n);
    let ends: Vec<Tile> = base.neighbours_iter(t).filter(|&n| open(n)).collect();
    let Some(&first) = ends.first() else {
        return false;
    };
    let reached = reach(s, first, u8::MAX, open, |_| true);
    ends.iter().any(|e| !reached.iter().any(|r| r.0 == *e))
}

/// Breadth-first distances from `from` over `ok` tiles, expanding only
/// from tiles where `expand` holds, up to `max` steps.
fn reach(
    s: &AlienState,
    from: Tile,
    max: u8,
    ok: impl Fn(Tile) -> bool,
    expand: impl Fn(Tile) -> bool,
) -> Vec<(Tile, u8)> {
    let base = &s.content.base;
    let mut seen_at = vec![false; base.terrain.len()];
    seen_at[usize::from(from)] = true;
    let mut seen = vec![(from, 0u8)];
    let mut i = 0;
    while i < seen.len() {
        let (t, d) = seen[i];
        i += 1;
        if d >= max || (t != from && !expand(t)) {
            continue;
        }
        for n in base.neighbours_iter(t) {
            if !seen_at[usize::from(n)] && ok(n) {
                seen_at[usize::from(n)] = true;
                seen.push((n, d + 1));
            }
        }
    }
    seen
}

/// Who stands where, counted once for many questions.
pub struct Occupancy {
    aliens: Vec<u8>,
    character: Vec<bool>,
    near_character: Vec<bool>,
}

impl Occupancy {
    pub fn new(s: &AlienState) -> Self {
        let n = s.content.base.terrain.len();
        let mut o = Self {
            aliens: vec![0; n],
            character: vec![false; n],
            near_character: vec![false; n],
        };
        for a in &s.aliens {
            o.aliens[usize::from(a.at)] += 1;
        }
        for t in s.characters.iter().filter_map(|c| c.tile()) {
            o.character[usize::from(t)] = true;
            for nb in s.content.base.neighbours(t) {
                o.near_character[usize::from(nb)] = true;
            }
        }
        o
    }
}

/// Where an alien may end its move (9.2): up to four tiles through
/// corridors, ducts and rooms, never through another alien, stopping next
/// to a character; onto another alien only in a duct (metamorphosis), and
/// not next to a character there.
pub fn alien_moves(s: &AlienState, id: u16) -> Vec<Tile> {
    alien_moves_with(s, id, &Occupancy::new(s))
}

pub fn alien_moves_with(s: &AlienState, id: u16, occ: &Occupancy) -> Vec<Tile> {
    let Some(a) = s.alien(id) else {
        return Vec::new();
    };
    let others = |t: Tile| occ.aliens[usize::from(t)] > u8::from(t == a.at);
    let near = |t: Tile| occ.near_character[usize::from(t)];
    let base = &s.content.base;
    let dist = reach(
        s,
        a.at,
        ALIEN_MOVE,
        |t| alien_ground(s, t) && !occ.character[usize::from(t)],
        |t| !others(t) && !near(t),
    );
    dist.into_iter()
        .map(|x| x.0)
        .filter(|&t| t != a.at)
        .filter(|&t| !others(t) || (base.terrain(t) == Terrain::Duct && !near(t)))
        .collect()
}

/// Where a withdrawing alien ends (6, 10): `n` tiles away, never next to a
/// character nor onto another alien; `None`: it cannot, and dies. Of the
/// tiles it may reach, the one farthest from the characters, then the
/// first in reading order (assumed: the game withdraws it).
pub fn alien_withdrawal(s: &AlienState, id: u16, n: u8) -> Option<Tile> {
    let a = s.alien(id)?;
    let ok = |t: Tile| {
        alien_ground(s, t)
            && s.character_at(t).is_none()
            && !s.aliens.iter().any(|o| o.id != id && o.at == t)
            && !s.next_to_character(t)
    };
    let dist = reach(s, a.at, n, ok, |_| true);
    farthest(s, dist.into_iter().filter(|x| x.1 == n).map(|x| x.0), true)
}

/// Where a withdrawing character ends (10): as far as it can up to `n`
/// tiles, never next to an alien nor onto another character; the tiles it
/// cannot withdraw it pays in strength. (tile, tiles withdrawn).
pub fn character_withdrawal(s: &AlienState, ch: u8, n: u8) -> (Option<Tile>, u8) {
    let Some(from) = s.characters[usize::from(ch)].tile() else {
        return (None, 0);
    };
    let ok = |t: Tile| {
        character_ground(s, t)
            && s.character_at(t).is_none()
            && !s.alien_at(t)
            && t != s.apc.at
            && !s.next_to_alien(t)
    };
    let dist = reach(s, from, n, ok, |_| true);
    let best = dist.iter().filter(|x| x.0 != from).map(|x| x.1).max();
    match best {
        None => (None, 0),
        Some(k) => (
            farthest(s, dist.iter().filter(|x| x.1 == k).map(|x| x.0), false),
            k,
        ),
    }
}

fn farthest(
    s: &AlienState,
    tiles: impl Iterator<Item = Tile>,
    from_characters: bool,
) -> Option<Tile> {
    let base = &s.content.base;
    let gap = |t: Tile| -> i32 {
        let others: Vec<Tile> = if from_characters {
            s.characters.iter().filter_map(|c| c.tile()).collect()
        } else {
            s.aliens.iter().map(|a| a.at).collect()
        };
        others
            .iter()
            .map(|&o| base.distance(o, t))
            .min()
            .unwrap_or(99)
    };
    tiles.max_by_key(|&t| (gap(t), std::cmp::Reverse(t)))
}

/// The ways to split a hatching roll into aliens of at most four (9.1):
/// strengths in falling order that add up to the roll exactly.
pub fn splits(roll: u8) -> Vec<Vec<u8>> {
    fn go(left: u8, max: u8, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if left == 0 {
            out.push(cur.clone());
            return;
        }
        for p in (1..=max.min(left)).rev() {
            cur.push(p);
            go(left - p, p, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(roll, ALIEN_MAX, &mut Vec::new(), &mut out);
    out
}

/// The game's own step due now, if any.
pub fn automatic(s: &AlienState) -> Option<AlienCommand> {
    if s.over.is_some() {
        return None;
    }
    match s.phase {
        Phase::Hatching if s.hatch_roll.is_none() => Some(AlienCommand::RollHatch),
        Phase::Metamorphosis => Some(AlienCommand::Metamorphose),
        Phase::Attacks if attack_targets(s).is_empty() => Some(AlienCommand::EndTurn),
        _ => None,
    }
}

/// Characters next to an alien that has not attacked yet (10).
pub fn attack_targets(s: &AlienState) -> Vec<u8> {
    (0..s.characters.len() as u8)
        .filter(|&c| {
            s.characters[usize::from(c)].tile().is_some_and(|t| {
                s.aliens
                    .iter()
                    .any(|a| !a.attacked && s.content.base.adjacent(a.at, t))
            })
        })
        .collect()
}

/// The seats asked to act now.
pub fn asked(s: &AlienState) -> Vec<Ask> {
    if s.over.is_some() || automatic(s).is_some() {
        return Vec::new();
    }
    match s.phase {
        Phase::Expedition => s
            .expedition_seats()
            .into_iter()
            .filter(|seat| !s.seats_done.contains(seat) && s.seat_alive(*seat))
            .map(|seat| Ask {
                seat: Actor(seat),
                what: "move your characters and act with their action points, then end the phase"
                    .into(),
            })
            .collect(),
        Phase::Hatching => vec![Ask {
            seat: Actor(0),
            what: if s.to_place.is_empty() {
                "split the hatching roll into new aliens".into()
            } else {
                "place the next new alien on a hatching place".into()
            },
        }],
        Phase::Moving => vec![Ask {
            seat: Actor(0),
            what: "move the aliens, then end their movement".into(),
        }],
        Phase::Attacks => vec![Ask {
            seat: Actor(0),
            what: "attack with the aliens next to characters".into(),
        }],
        Phase::Metamorphosis => Vec::new(),
    }
}

fn seat_of(s: &AlienState, ch: u8) -> Option<u8> {
    s.characters.get(usize::from(ch)).map(|c| c.seat)
}

/// The commands a player may give now: every one `decide` accepts, except
/// that a grenade's area that is not its landing tile's own is listed once,
/// at the landing tile nearest its centre that accepts it (the same blast
/// from another landing tile is accepted but not listed: `Game::legal`).
pub fn legal(s: &AlienState) -> Vec<(Actor, AlienCommand)> {
    let mut out = Vec::new();
    if s.over.is_some() || automatic(s).is_some() {
        return out;
    }
    let push = |actor: u8, c: AlienCommand, out: &mut Vec<(Actor, AlienCommand)>| {
        let ok = check(s, Actor(actor), &c).is_ok();
        if ok {
            out.push((Actor(actor), c));
        }
        ok
    };
    match s.phase {
        Phase::Expedition => {
            let seats: Vec<u8> = asked(s).iter().map(|a| a.seat.0).collect();
            // The APC and the declaration are the expedition's, whichever
            // of its players gives them (4.2, 8): offered to every seat
            // still in the phase.
            for &seat in &seats {
                for t in s.content.base.neighbours(s.apc.at) {
                    push(seat, AlienCommand::Drive { to: t }, &mut out);
                }
                push(seat, AlienCommand::AttackQueen, &mut out);
            }
            for (i, c) in s.characters.iter().enumerate() {
                let ch = i as u8;
                if !seats.contains(&c.seat) || !c.alive() || c.ap == 0 {
                    continue;
                }
                // A grenade's own areas (the tile and two next to it in a
                // corridor or duct, a line through it in a room) are offered
                // at every landing tile, so each is a target on the board;
                // any other area of a room (an L, or three tiles beside the
                // landing tile) once, at the landing tile nearest its centre
                // that accepts it: the same three tiles struck from another
                // landing tile are the same blast (5), and a room has some
                // 150 areas a tile ([`nearest_landings`]).
                let cmds = character_commands(s, ch);
                let chosen = nearest_landings(s, &cmds, |cmd| check(s, Actor(c.seat), cmd).is_ok());
                for (i, cmd) in cmds.into_iter().enumerate() {
                    if let AlienCommand::Throw { at, area, .. } = &cmd
                        && !own_grenade_area(s, *at, area)
                    {
                        if chosen.contains(&i) {
                            out.push((Actor(c.seat), cmd));
                        }
                        continue;
                    }
                    push(c.seat, cmd, &mut out);
                }
            }
            for seat in seats {
                out.push((Actor(seat), AlienCommand::EndPhase));
            }
        }
        Phase::Hatching => {
            if s.to_place.is_empty() {
                for parts in splits(s.hatch_roll.unwrap_or(0)) {
                    push(0, AlienCommand::Hatch { parts }, &mut out);
                }
            } else {
                for h in 1..=s.content.base.hatches.len() as u8 {
                    push(0, AlienCommand::Place { hatch: h }, &mut out);
                }
            }
        }
        Phase::Moving => {
            let occ = Occupancy::new(s);
            for a in s.aliens.iter().filter(|a| !a.moved) {
                for to in alien_moves_with(s, a.id, &occ) {
                    out.push((Actor(0), AlienCommand::MoveAlien { alien: a.id, to }));
                }
            }
            out.push((Actor(0), AlienCommand::EndMoves));
        }
        Phase::Attacks => {
            for ch in attack_targets(s) {
                out.push((Actor(0), AlienCommand::Attack { ch }));
            }
        }
        Phase::Metamorphosis => {}
    }
    out
}

/// The commands one character might give (each still checked).
fn character_commands(s: &AlienState, ch: u8) -> Vec<AlienCommand> {
    use AlienCommand as C;
    let c = &s.characters[usize::from(ch)];
    let base = &s.content.base;
    let mut v = Vec::new();
    match c.pos {
        Pos::Apc => {
            for t in base.neighbours(s.apc.at) {
                v.push(C::Leave { ch, to: t });
            }
            for (p, it) in c.items.iter().enumerate() {
                if *it == Item::Fuel {
                    v.push(C::Fuel {
                        ch,
                        pocket: p as u8,
                    });
                }
            }
        }
        Pos::Outside(_) => {
            for n in 1..=5 {
                v.push(C::ComeIn { ch, airlock: n });
            }
        }
        Pos::Dead => {}
        Pos::Tile(at) => {
            for t in base.neighbours(at) {
                v.push(C::Move { ch, to: t });
            }
            let mut kinds: Vec<Item> = s.floor.iter().filter(|f| f.0 == at).map(|f| f.1).collect();
            if let Some(store) = base.store_at(at) {
                for k in s.content.items.stocked(store) {
                    if k == Kind::Weapon {
                        for w in 0..s.content.items.weapons.len() {
                            kinds.push(Item::Weapon(w as u8));
                        }
                    } else if let Some(it) = s.content.items.item(k.id()) {
                        kinds.push(it);
                    }
                }
            }
            kinds.sort();
            kinds.dedup();
            for item in kinds {
                v.push(C::Take { ch, item });
            }
            for (p, it) in c.items.iter().enumerate() {
                let pocket = p as u8;
                v.push(C::Drop {
                    ch,
                    pocket,
                    leave: true,
                });
                v.push(C::Drop {
                    ch,
                    pocket,
                    leave: false,
                });
                for (o, other) in s.characters.iter().enumerate() {
                    if other.tile().is_some_and(|t| base.adjacent(t, at)) {
                        v.push(C::Give {
                            ch,
                            pocket,
                            to: o as u8,
                        });
                        if *it == Item::Medkit {
                            v.push(C::Heal {
                                ch,
                                pocket,
                                patient: o as u8,
                            });
                        }
                    }
                }
                match it {
                    Item::Weapon(w) => {
                        let range = s.content.items.weapons[usize::from(*w)].range;
                        for a in s.aliens.iter().filter(|a| {
                            !c.shot_at.contains(&a.id)
                                && base.distance(at, a.at) <= i32::from(range)
                                && clear_line(s, at, a.at, a.id)
                        }) {
                            for charges in 1..=c.charges().min(c.ap) {
                                v.push(C::Shoot {
                                    ch,
                                    weapon: pocket,
                                    alien: a.id,
                                    charges,
                                });
                            }
                        }
                    }
                    Item::Grenade => {
                        let (x, y) = base.xy(at);
                        let near = (-2..=2)
                            .flat_map(|dy| (-2..=2).map(move |dx| (x + dx, y + dy)))
                            .filter_map(|(x, y)| base.at(x, y));
                        for t in near {
                            if base.distance(at, t) <= 2 && base.terrain(t) != Terrain::Wall {
                                for area in grenade_areas(s, t) {
                                    v.push(C::Throw {
                                        ch,
                                        pocket,
                                        at: t,
                                        area,
                                    });
                                }
                            }
                        }
                    }
                    Item::Explosive => {
                        for t in base.neighbours(at) {
                            v.push(C::Blow { ch, pocket, at: t });
                        }
                    }
                    Item::Disk => v.push(C::Read { ch, pocket }),
                    Item::Spare => v.push(C::Repair { ch, pocket }),
                    Item::Fuel => v.push(C::Fuel { ch, pocket }),
                    _ => {}
                }
            }
            v.push(C::GoOut { ch });
        }
    }
    v
}

/// Of `cmds` (one character's commands, in their order), for each blast
/// (pocket and area) the index of the throw under which it is listed: the
/// landing tile `accepts` nearest the centre of the three tiles
/// (straight-line distance on the grid), a tie going to the earlier throw in
/// `cmds`. So an L beside K8 is listed under a tile next to K8, not under
/// whichever tile the list reaches first. A blast whose nearest tile has it
/// as its own area is listed there only as that (every own area is listed).
fn nearest_landings(
    s: &AlienState,
    cmds: &[AlienCommand],
    accepts: impl Fn(&AlienCommand) -> bool,
) -> std::collections::BTreeSet<usize> {
    let base = &s.content.base;
    // Three times the squared distance from the tile to the area's centre,
    // kept in whole numbers: (3x - Σx)² + (3y - Σy)².
    let far = |at: Tile, area: &[Tile]| {
        let (x, y) = base.xy(at);
        let (sx, sy) = area.iter().fold((0, 0), |(sx, sy), &t| {
            let (tx, ty) = base.xy(t);
            (sx + tx, sy + ty)
        });
        let n = area.len() as i32;
        (n * x - sx).pow(2) + (n * y - sy).pow(2)
    };
    // Per blast (pocket, area): each throw's distance and index.
    type Candidates<'a> = std::collections::BTreeMap<(u8, &'a [Tile]), Vec<(i32, usize)>>;
    let mut candidates = Candidates::new();
    for (i, cmd) in cmds.iter().enumerate() {
        if let AlienCommand::Throw {
            pocket, at, area, ..
        } = cmd
        {
            candidates
                .entry((*pocket, area.as_slice()))
                .or_default()
                .push((far(*at, area), i));
        }
    }
    candidates
        .into_values()
        .filter_map(|mut by| {
            by.sort_unstable();
            by.into_iter().map(|(_, i)| i).find(|&i| accepts(&cmds[i]))
        })
        .collect()
}

/// Every area a grenade landing on `at` may strike (5), each sorted, in a
/// fixed order: in a corridor or duct the tile and two next to it; in a
/// room every three touching tiles (a line or an L), one of them no more
/// than two tiles from `at` (not through a wall, [`blast_reach`]).
pub fn grenade_areas(s: &AlienState, at: Tile) -> Vec<Vec<Tile>> {
    let base = &s.content.base;
    let mut out = Vec::new();
    if base.terrain(at) == Terrain::Room {
        // Three tiles touch when one of them touches the other two (the
        // middle of a line or the corner of an L), or when they run in a
        // path: either way, a tile `r`, a neighbour `n`, and a neighbour of
        // either.
        for r in blast_reach(s, at) {
            for n in base.neighbours_iter(r) {
                for m in base.neighbours_iter(r).chain(base.neighbours_iter(n)) {
                    if m != r && m != n {
                        let mut area = vec![r, n, m];
                        area.sort_unstable();
                        out.push(area);
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
    } else {
        let n = base.neighbours(at);
        if n.len() <= 2 {
            let mut area = vec![at];
            area.extend(n);
            area.sort_unstable();
            out.push(area);
        } else {
            for i in 0..n.len() {
                for j in i + 1..n.len() {
                    let mut area = vec![at, n[i], n[j]];
                    area.sort_unstable();
                    out.push(area);
                }
            }
        }
    }
    out
}

/// Whether `area` is one a grenade landing on `at` strikes around the tile
/// itself: any area outside a room (the tile and two next to it), in a room
/// three tiles in a row through it.
fn own_grenade_area(s: &AlienState, at: Tile, area: &[Tile]) -> bool {
    let base = &s.content.base;
    if base.terrain(at) != Terrain::Room {
        return true;
    }
    let (x, y) = base.xy(at);
    area.contains(&at)
        && (area.iter().all(|&t| base.xy(t).0 == x) || area.iter().all(|&t| base.xy(t).1 == y))
}

/// The tiles "no more than two tiles away" of a grenade landing in a room
/// (5): two steps over tiles that are not walls, so a blast never reaches
/// behind a wall the grenade itself could not be thrown through; through a
/// door it may reach the corridor (assumption 6).
fn blast_reach(s: &AlienState, at: Tile) -> Vec<Tile> {
    let base = &s.content.base;
    reach(s, at, 2, |n| base.terrain(n) != Terrain::Wall, |_| true)
        .into_iter()
        .map(|x| x.0)
        .collect()
}

/// Whether a grenade area is allowed for a grenade landing on `at` (5).
fn grenade_area_ok(s: &AlienState, at: Tile, area: &[Tile]) -> bool {
    let base = &s.content.base;
    let mut sorted = area.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != area.len() || area.iter().any(|&t| base.terrain(t) == Terrain::Wall) {
        return false;
    }
    if base.terrain(at) == Terrain::Room {
        if area.len() != 3 {
            return false;
        }
        let touching = |t: Tile| area.iter().filter(|&&o| base.adjacent(o, t)).count();
        let connected =
            area.iter().all(|&t| touching(t) >= 1) && area.iter().any(|&t| touching(t) == 2);
        let near = blast_reach(s, at);
        connected && area.iter().any(|t| near.contains(t))
    } else {
        let n = base.neighbours(at);
        let want = 1 + n.len().min(2);
        area.len() == want && area.contains(&at) && area.iter().all(|&t| t == at || n.contains(&t))
    }
}

/// Check a command without rolling: the events of commands that roll are
/// made by [`decide`].
fn check(s: &AlienState, actor: Actor, cmd: &AlienCommand) -> std::result::Result<(), RuleError> {
    let mut probe = Randomness::new(0, 0, Some(vec![1; 16]));
    decide_inner(s, actor, cmd, &mut probe, true).map(|_| ())
}

/// Decide a command into events.
pub fn decide(s: &AlienState, actor: Actor, cmd: &AlienCommand, rng: &mut Randomness) -> Res {
    decide_and_apply(s, actor, cmd, rng).map(|(events, _)| events)
}

/// Decide a command into its events and the state after them (the copy the
/// checks after a command apply every event to).
pub fn decide_and_apply(
    s: &AlienState,
    actor: Actor,
    cmd: &AlienCommand,
    rng: &mut Randomness,
) -> std::result::Result<(Vec<E>, AlienState), RuleError> {
    let mut events = decide_inner(s, actor, cmd, rng, false)?;
    // After a command of the expedition: tasks done, the Queen of Option 2,
    // and the end of the battle.
    let mut after = s.clone();
    for e in &events {
        apply(&mut after, e);
    }
    let mut more = Vec::new();
    if after.phase == Phase::Expedition {
        for &card in &after.open {
            let Some(task) = after.content.tasks.iter().find(|t| t.n == card) else {
                continue;
            };
            let met = match task.condition {
                Condition::Reach(t) => after.character_at(t).is_some(),
                Condition::Carry(k, t) => after
                    .character_at(t)
                    .is_some_and(|c| after.characters[c].has(k)),
                _ => false,
            };
            if met {
                more.push(E::TaskDone { card });
            }
        }
    }
    for e in &more {
        apply(&mut after, e);
    }
    events.extend(more);
    let done_now = events.iter().any(|e| matches!(e, E::TaskDone { .. }));
    if done_now
        && !after.queen_dead()
        && let QueenOption::Tasks(n) = after.option
        && after.points >= n
    {
        let e = E::QueenDied { hatching: false };
        apply(&mut after, &e);
        events.push(e);
    }
    if after.over.is_none() {
        let end = if !after.characters.iter().any(|c| c.alive()) {
            Some(if after.queen_dead() {
                End::Draw
            } else {
                End::Aliens
            })
        } else if after.queen_dead() && on_landing_field(&after) {
            Some(End::Expedition)
        } else {
            None
        };
        if let Some(result) = end {
            let e = E::Ended { result };
            apply(&mut after, &e);
            events.push(e);
        } else if after.phase == Phase::Expedition
            && after
                .expedition_seats()
                .into_iter()
                .all(|seat| after.seats_done.contains(&seat) || !after.seat_alive(seat))
        {
            events.extend(end_of_phase(&mut after));
        }
    }
    Ok((events, after))
}

/// The end of the expedition's phase: when the APC's fuel is gone everyone
/// aboard gets out, onto the nearest free tiles (assumed); then phase 2.
fn end_of_phase(after: &mut AlienState) -> Vec<E> {
    let mut events = Vec::new();
    if after.apc.fuel == 0 {
        for i in 0..after.characters.len() {
            if after.characters[i].pos != Pos::Apc {
                continue;
            }
            let ok = |t: Tile| {
                ground_from_apc(after, t)
                    && after.character_at(t).is_none()
                    && !after.alien_at(t)
                    && t != after.apc.at
            };
            let near = reach(after, after.apc.at, 30, ok, |_| true);
            let e = match near.iter().find(|x| x.0 != after.apc.at) {
                Some(&(to, _)) => E::Disembarked { ch: i as u8, to },
                None => E::CharacterKilled { ch: i as u8 },
            };
            apply(after, &e);
            events.push(e);
        }
    }
    let e = E::PhaseBegun {
        phase: Phase::Hatching,
    };
    apply(after, &e);
    events.push(e);
    events
}

/// Steps from a landing-field tile to the base, over the landing field.
pub fn landing_exit_steps(s: &AlienState, from: Tile) -> u8 {
    let base = &s.content.base;
    reach(
        s,
        from,
        40,
        |t| base.terrain(t) != Terrain::Wall,
        |t| base.terrain(t) == Terrain::Landing,
    )
    .into_iter()
    .filter(|x| base.terrain(x.0) != Terrain::Landing)
    .map(|x| x.1)
    .min()
    .unwrap_or(u8::MAX)
}

/// A character on the landing field, or aboard the APC standing there.
fn on_landing_field(s: &AlienState) -> bool {
    let base = &s.content.base;
    s.characters.iter().any(|c| match c.pos {
        Pos::Tile(t) => base.terrain(t) == Terrain::Landing,
        Pos::Apc => base.terrain(s.apc.at) == Terrain::Landing,
        _ => false,
    })
}

fn expedition_turn(s: &AlienState, actor: Actor) -> std::result::Result<(), RuleError> {
    if s.phase != Phase::Expedition {
        return Err(RuleError::not_your_turn(
            "it is the Alien phase (2): the expedition acts in phase 1",
        ));
    }
    if actor.0 == 0 || actor.0 >= s.players {
        return Err(RuleError::not_your_turn(
            "only the expedition's players act in phase 1",
        ));
    }
    if s.seats_done.contains(&actor.0) {
        return Err(RuleError::not_your_turn(
            "this seat has ended the phase already",
        ));
    }
    Ok(())
}

/// The acting character, checked: the actor's, alive, with points left.
fn actor_character(
    s: &AlienState,
    actor: Actor,
    ch: u8,
    ap: u8,
) -> std::result::Result<&super::state::Character, RuleError> {
    expedition_turn(s, actor)?;
    let c = s
        .characters
        .get(usize::from(ch))
        .ok_or_else(|| RuleError::new(RuleErrorKind::Unknown, format!("no character {ch}")))?;
    if seat_of(s, ch) != Some(actor.0) {
        return Err(RuleError::not_your_turn(format!(
            "{} is another player's character",
            s.name(ch)
        )));
    }
    if !c.alive() {
        return Err(illegal("3", format!("{} is dead", s.name(ch))));
    }
    if c.ap < ap {
        return Err(illegal(
            "4",
            format!(
                "{} has {} action points left, this needs {ap}",
                s.name(ch),
                c.ap
            ),
        ));
    }
    Ok(c)
}

fn not_after_shooting(s: &AlienState, ch: u8) -> std::result::Result<(), RuleError> {
    if s.characters[usize::from(ch)].shot {
        return Err(illegal(
            "4",
            format!(
                "{} has shot this phase: no more moving or other actions",
                s.name(ch)
            ),
        ));
    }
    Ok(())
}

fn on_tile(s: &AlienState, ch: u8) -> std::result::Result<Tile, RuleError> {
    s.characters[usize::from(ch)].tile().ok_or_else(|| {
        illegal(
            "4",
            format!("{} is not standing on a tile of the base", s.name(ch)),
        )
    })
}

fn pocket(
    s: &AlienState,
    ch: u8,
    p: u8,
    want: Option<Kind>,
) -> std::result::Result<Item, RuleError> {
    let it = s.characters[usize::from(ch)]
        .items
        .get(usize::from(p))
        .copied()
        .ok_or_else(|| {
            illegal(
                "3",
                format!("{} has nothing in pocket {}", s.name(ch), p + 1),
            )
        })?;
    if let Some(k) = want
        && it.kind() != k
    {
        return Err(illegal(
            "5",
            format!("pocket {} of {} holds no {}", p + 1, s.name(ch), k.id()),
        ));
    }
    Ok(it)
}

fn free_pocket(s: &AlienState, ch: u8) -> std::result::Result<(), RuleError> {
    if s.characters[usize::from(ch)].items.len() >= POCKETS {
        return Err(illegal(
            "3",
            format!(
                "{}'s three pockets are full: drop an item first",
                s.name(ch)
            ),
        ));
    }
    Ok(())
}

fn decide_inner(
    s: &AlienState,
    actor: Actor,
    cmd: &AlienCommand,
    rng: &mut Randomness,
    dry: bool,
) -> Res {
    use AlienCommand as C;
    if s.over.is_some() {
        return Err(RuleError::game_over());
    }
    let base = &s.content.base;
    let system = matches!(cmd, C::RollHatch | C::Metamorphose | C::EndTurn);
    if system != (actor == Actor::SYSTEM) {
        return Err(RuleError::not_your_turn(if system {
            "this is a step the game takes on its own"
        } else {
            "the game itself gives no player's command"
        }));
    }
    match cmd {
        C::Drive { to } => {
            expedition_turn(s, actor)?;
            if s.acted {
                return Err(illegal(
                    "4.2",
                    "the APC moves before the characters act in the phase",
                ));
            }
            if s.apc.fuel == 0 && s.apc.driven == 0 {
                return Err(illegal("4.2", "the APC has no fuel"));
            }
            if s.apc.driven >= APC_TILES {
                return Err(illegal(
                    "4.2",
                    "the APC has driven its ten tiles this phase",
                ));
            }
            if !base.adjacent(s.apc.at, *to) || !apc_ground(s, *to) {
                return Err(illegal(
                    "4.2",
                    format!(
                        "the APC drives through corridors and rooms onto a free tile, not into ducts, airlocks or storages ({})",
                        base.name(*to)
                    ),
                ));
            }
            Ok(vec![E::ApcDrove {
                to: *to,
                fuel_used: s.apc.driven == 0,
            }])
        }
        C::Move { ch, to } => {
            actor_character(s, actor, *ch, 1)?;
            not_after_shooting(s, *ch)?;
            let at = on_tile(s, *ch)?;
            let c = &s.characters[usize::from(*ch)];
            if c.stopped {
                return Err(illegal(
                    "4.1",
                    format!("{} came next to an alien and must stop there", s.name(*ch)),
                ));
            }
            if !base.adjacent(at, *to) {
                return Err(illegal("4.1", "a character moves one tile at a time"));
            }
            if *to == s.apc.at {
                if s.apc.fuel == 0 {
                    return Err(illegal(
                        "4.2",
                        "no one may be inside the APC until fuel is delivered",
                    ));
                }
                if c.left_apc {
                    return Err(illegal(
                        "4.2",
                        format!(
                            "{} left the APC this phase and may board it only in the next",
                            s.name(*ch)
                        ),
                    ));
                }
                return Ok(vec![E::Boarded { ch: *ch }]);
            }
            // Still on the landing field, a character may only make its way
            // out: onto a landing tile nearer the base (assumed); or it
            // enters the landing field to start the APC (4.1's exception).
            let landing_ok = base.terrain(*to) == Terrain::Landing
                && ((base.terrain(at) == Terrain::Landing
                    && landing_exit_steps(s, *to) < landing_exit_steps(s, at))
                    || starts_the_apc(s, *ch, at, *to));
            if !character_ground(s, *to) && !landing_ok {
                return Err(illegal(
                    "4.1",
                    format!(
                        "{} is not a tile a character may enter{}",
                        base.name(*to),
                        if base.terrain(*to) == Terrain::Landing {
                            " (the landing field, until the Queen is dead, except to start the APC: \
                             each step nearer the APC, carrying fuel to it or to board it fuelled)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            if s.character_at(*to).is_some() {
                return Err(illegal(
                    "4.1",
                    "a character may not stand on or pass through another character",
                ));
            }
            if s.alien_at(*to) {
                return Err(illegal("4.1", "an alien stands there"));
            }
            Ok(vec![E::Moved {
                ch: *ch,
                to: *to,
                stopped: s.next_to_alien(*to),
            }])
        }
        C::Leave { ch, to } => {
            actor_character(s, actor, *ch, 1)?;
            if s.characters[usize::from(*ch)].pos != Pos::Apc {
                return Err(illegal("4.2", format!("{} is not in the APC", s.name(*ch))));
            }
            if !base.adjacent(s.apc.at, *to)
                || !ground_from_apc(s, *to)
                || s.character_at(*to).is_some()
                || s.alien_at(*to)
            {
                return Err(illegal(
                    "4.2",
                    "a character leaves the APC onto a free tile next to it",
                ));
            }
            Ok(vec![E::LeftApc {
                ch: *ch,
                to: *to,
                stopped: s.next_to_alien(*to),
            }])
        }
        C::Take { ch, item } => {
            actor_character(s, actor, *ch, 1)?;
            not_after_shooting(s, *ch)?;
            let at = on_tile(s, *ch)?;
            free_pocket(s, *ch)?;
            if s.floor.iter().any(|f| f.0 == at && f.1 == *item) {
                return Ok(vec![E::Took {
                    ch: *ch,
                    item: *item,
                    from_floor: true,
                }]);
            }
            let store = base.store_at(at).ok_or_else(|| {
                illegal(
                    "5",
                    format!(
                        "{} is no storage and nothing like that lies there",
                        base.name(at)
                    ),
                )
            })?;
            let items = &s.content.items;
            if !items.stocked(store).contains(&item.kind()) {
                return Err(illegal(
                    "5",
                    format!("the {} has no {}", store.name(), item.kind().id()),
                ));
            }
            match *item {
                Item::Weapon(w) => {
                    let weapon = items
                        .weapons
                        .get(usize::from(w))
                        .ok_or_else(|| illegal("5", "no such weapon"))?;
                    if weapon.supply > 0
                        && s.weapons_taken.get(usize::from(w)).copied().unwrap_or(0)
                            >= weapon.supply
                    {
                        return Err(illegal(
                            "5",
                            format!("all {} {} tokens are taken", weapon.supply, weapon.name),
                        ));
                    }
                }
                Item::Ammo(n) if n != 4 => {
                    return Err(illegal(
                        "5",
                        "a cartridge from a storage is full (4 charges)",
                    ));
                }
                _ => {
                    let limit = items.limit(item.kind());
                    if limit > 0 && s.taken[item.kind().index()] >= limit {
                        return Err(illegal(
                            "5",
                            format!(
                                "the game has only {limit} of {} and none is left",
                                item.kind().id()
                            ),
                        ));
                    }
                }
            }
            Ok(vec![E::Took {
                ch: *ch,
                item: *item,
                from_floor: false,
            }])
        }
        C::Drop {
            ch,
            pocket: p,
            leave,
        } => {
            actor_character(s, actor, *ch, 1)?;
            not_after_shooting(s, *ch)?;
            on_tile(s, *ch)?;
            pocket(s, *ch, *p, None)?;
            Ok(vec![E::Dropped {
                ch: *ch,
                pocket: *p,
                leave: *leave,
            }])
        }
        C::Give { ch, pocket: p, to } => {
            actor_character(s, actor, *ch, 1)?;
            not_after_shooting(s, *ch)?;
            let at = on_tile(s, *ch)?;
            pocket(s, *ch, *p, None)?;
            let other = s
                .characters
                .get(usize::from(*to))
                .and_then(|o| o.tile())
                .ok_or_else(|| illegal("5", "no such character on the board"))?;
            if !base.adjacent(at, other) {
                return Err(illegal("5", "items are exchanged with a neighbour only"));
            }
            free_pocket(s, *to)?;
            Ok(vec![E::Gave {
                ch: *ch,
                pocket: *p,
                to: *to,
            }])
        }
        C::Shoot {
            ch,
            weapon,
            alien,
            charges,
        } => {
            let c = actor_character(s, actor, *ch, *charges)?;
            let at = on_tile(s, *ch)?;
            if s.content.characters[usize::from(c.card)].unarmed {
                return Err(illegal("3", format!("{} may not shoot", s.name(*ch))));
            }
            let Item::Weapon(w) = pocket(s, *ch, *weapon, Some(Kind::Weapon))? else {
                unreachable!("checked kind");
            };
            let wp = &s.content.items.weapons[usize::from(w)];
            if *charges == 0 || c.charges() < *charges {
                return Err(illegal(
                    "5",
                    format!(
                        "{} has {} charges of ammunition, not {charges}",
                        s.name(*ch),
                        c.charges()
                    ),
                ));
            }
            let a = s
                .alien(*alien)
                .ok_or_else(|| illegal("6", format!("there is no alien {alien}")))?;
            if c.shot_at.contains(alien) {
                return Err(illegal(
                    "6",
                    format!(
                        "{} has shot alien {alien} this phase: the charges against a target are \
                         chosen once, one die an alien a phase",
                        s.name(*ch)
                    ),
                ));
            }
            if base.distance(at, a.at) > i32::from(wp.range) {
                return Err(illegal(
                    "5",
                    format!(
                        "the alien is out of the {}'s range of {}",
                        wp.name, wp.range
                    ),
                ));
            }
            if !clear_line(s, at, a.at, *alien) {
                return Err(illegal(
                    "5",
                    "the line of fire passes through a wall, a character or another alien",
                ));
            }
            if dry {
                return Ok(Vec::new());
            }
            let force = i32::from(c.strength) + i32::from(wp.power) * i32::from(*charges)
                - s.alien_force(a);
            let roll = rng.d6()?;
            let result = s.content.table.result(force, roll);
            let adjacent = base.adjacent(at, a.at);
            let mut events = vec![E::Shot {
                ch: *ch,
                alien: *alien,
                charges: *charges,
                force,
                roll,
                result,
                adjacent,
            }];
            let mut after = s.clone();
            for e in &events {
                apply(&mut after, e);
            }
            hit_alien(&mut after, &mut events, *alien, result.defender, Some(*ch));
            if adjacent {
                hit_character(&mut after, &mut events, *ch, result.attacker);
            }
            Ok(events)
        }
        C::Throw {
            ch,
            pocket: p,
            at: target,
            area,
        } => {
            let c = actor_character(s, actor, *ch, 1)?;
            let at = on_tile(s, *ch)?;
            if s.content.characters[usize::from(c.card)].unarmed {
                return Err(illegal(
                    "3",
                    format!("{} may not throw grenades", s.name(*ch)),
                ));
            }
            pocket(s, *ch, *p, Some(Kind::Grenade))?;
            if base.distance(at, *target) > 2 || base.terrain(*target) == Terrain::Wall {
                return Err(illegal("5", "a grenade is thrown up to two tiles"));
            }
            if line(s, at, *target)
                .into_iter()
                .any(|t| base.terrain(t) == Terrain::Wall)
            {
                return Err(illegal("5", "a grenade is not thrown through walls"));
            }
            if !grenade_area_ok(s, *target, area) {
                return Err(illegal(
                    "5",
                    "a grenade strikes the tile and the two next to it in a corridor or duct; in a room three touching tiles, one of them no more than two tiles (not through a wall) from where it landed",
                ));
            }
            let mut events = vec![E::Thrown {
                ch: *ch,
                pocket: *p,
                at: *target,
                area: area.clone(),
            }];
            for a in s.aliens.iter().filter(|a| area.contains(&a.at)) {
                events.push(E::AlienKilled {
                    alien: a.id,
                    by: Some(*ch),
                });
            }
            for (i, o) in s.characters.iter().enumerate() {
                if o.tile().is_some_and(|t| area.contains(&t)) {
                    events.push(E::CharacterKilled { ch: i as u8 });
                }
            }
            Ok(events)
        }
        C::Blow { ch, pocket: p, at } => {
            actor_character(s, actor, *ch, 1)?;
            not_after_shooting(s, *ch)?;
            let here = on_tile(s, *ch)?;
            pocket(s, *ch, *p, Some(Kind::Explosive))?;
            if !base.adjacent(here, *at)
                || base.terrain(*at) != Terrain::Corridor
                || s.collapsed.contains(at)
            {
                return Err(illegal(
                    "5",
                    "a charge collapses a corridor tile next to the character (not a duct or room)",
                ));
            }
            if s.character_at(*at).is_some() || s.alien_at(*at) || s.apc.at == *at {
                return Err(illegal(
                    "5",
                    "the corridor tile must be empty to blow it up",
                ));
            }
            if s.keep_base_whole && cuts_the_base(s, *at) {
                return Err(illegal(
                    "5",
                    format!(
                        "collapsing {} would cut the base in two (battle option: a part sealed off could never be reached by the aliens nor lead back to the landing field)",
                        base.name(*at)
                    ),
                ));
            }
            Ok(vec![E::Blown {
                ch: *ch,
                pocket: *p,
                at: *at,
            }])
        }
        C::Heal {
            ch,
            pocket: p,
            patient,
        } => {
            let c = actor_character(s, actor, *ch, 1)?;
            not_after_shooting(s, *ch)?;
            let at = on_tile(s, *ch)?;
            if !s.content.characters[usize::from(c.card)].medic {
                return Err(illegal("5", "medical kits can only be used by Bishop"));
            }
            pocket(s, *ch, *p, Some(Kind::Medkit))?;
            let pt = s
                .characters
                .get(usize::from(*patient))
                .ok_or_else(|| illegal("5", "no such character"))?;
            if !pt.tile().is_some_and(|t| base.adjacent(t, at)) {
                return Err(illegal(
                    "5",
                    "the treated character must stand next to Bishop",
                ));
            }
            if pt.strength >= s.content.characters[usize::from(pt.card)].strength {
                return Err(illegal(
                    "3",
                    "a character's strength cannot be higher than its initial value",
                ));
            }
            Ok(vec![E::Healed {
                ch: *ch,
                pocket: *p,
                patient: *patient,
            }])
        }
        C::Read { ch, pocket: p } => {
            actor_character(s, actor, *ch, 1)?;
            not_after_shooting(s, *ch)?;
            let at = on_tile(s, *ch)?;
            pocket(s, *ch, *p, Some(Kind::Disk))?;
            let computer = base
                .computer_at(at)
                .ok_or_else(|| illegal("7", "a floppy disk is read at a computer"))?;
            let mut events = vec![E::DiskRead {
                ch: *ch,
                pocket: *p,
                computer,
            }];
            let read_task = s.open.iter().copied().find(|n| {
                s.content
                    .tasks
                    .iter()
                    .any(|t| t.n == *n && t.condition == Condition::Read(computer))
            });
            if let Some(card) = read_task {
                events.push(E::TaskDone { card });
            } else {
                if s.open.len() >= OPEN_TASKS {
                    return Err(illegal(
                        "7",
                        "the expedition holds three undone tasks already",
                    ));
                }
                if s.deck.is_empty() {
                    return Err(illegal("7", "the task pile is empty"));
                }
                let card = s.deck[rng.pick(s.deck.len())];
                events.push(E::TaskDrawn { card });
            }
            Ok(events)
        }
        C::Repair { ch, pocket: p } => {
            actor_character(s, actor, *ch, 1)?;
            not_after_shooting(s, *ch)?;
            let at = on_tile(s, *ch)?;
            pocket(s, *ch, *p, Some(Kind::Spare))?;
            let card = s
                .open
                .iter()
                .copied()
                .find(|n| {
                    s.content
                        .tasks
                        .iter()
                        .any(|t| t.n == *n && t.condition == Condition::Repair(at))
                })
                .ok_or_else(|| illegal("7", "no task of the expedition asks for a repair here"))?;
            Ok(vec![
                E::Repaired {
                    ch: *ch,
                    pocket: *p,
                },
                E::TaskDone { card },
            ])
        }
        C::Fuel { ch, pocket: p } => {
            actor_character(s, actor, *ch, 1)?;
            not_after_shooting(s, *ch)?;
            pocket(s, *ch, *p, Some(Kind::Fuel))?;
            let c = &s.characters[usize::from(*ch)];
            let next = match c.pos {
                Pos::Apc => true,
                Pos::Tile(t) => base.adjacent(t, s.apc.at),
                _ => false,
            };
            if !next {
                return Err(illegal(
                    "4.2",
                    "fuel is delivered to the APC from next to it",
                ));
            }
            if s.apc.fuel > 0 {
                return Err(illegal(
                    "4.2",
                    "the APC has fuel still (assumed: one container at a time)",
                ));
            }
            Ok(vec![E::Fueled {
                ch: *ch,
                pocket: *p,
            }])
        }
        C::GoOut { ch } => {
            actor_character(s, actor, *ch, 1)?;
            not_after_shooting(s, *ch)?;
            let at = on_tile(s, *ch)?;
            if !matches!(base.terrain(at), Terrain::Airlock(_)) {
                return Err(illegal("4.3", "a character goes outside from an airlock"));
            }
            if !s.characters[usize::from(*ch)].has(Kind::Suit) {
                return Err(illegal("4.3", "going outside needs a vacuum suit"));
            }
            // Going out moves the character off its tile onto the track
            // (4.3): one who came next to an alien must stop there (4.1).
            if s.characters[usize::from(*ch)].stopped {
                return Err(illegal(
                    "4.1",
                    format!(
                        "{} came next to an alien and must stop there: no going out this phase",
                        s.name(*ch)
                    ),
                ));
            }
            Ok(vec![E::WentOut { ch: *ch }])
        }
        C::ComeIn { ch, airlock } => {
            actor_character(s, actor, *ch, 1)?;
            let last = base.track.saturating_sub(1);
            if s.characters[usize::from(*ch)].pos != Pos::Outside(last) {
                return Err(illegal(
                    "4.3",
                    "a character comes in after passing the end of the track",
                ));
            }
            let t = base
                .airlock_tile(*airlock)
                .ok_or_else(|| illegal("4.3", "no such airlock"))?;
            if s.character_at(t).is_some() {
                return Err(illegal("4.3", "another character stands in that airlock"));
            }
            Ok(vec![E::CameIn { ch: *ch, at: t }])
        }
        C::AttackQueen => {
            expedition_turn(s, actor)?;
            if s.option != QueenOption::Declare {
                return Err(illegal(
                    "8",
                    "Option 2 is played: the Queen dies by tasks done",
                ));
            }
            if s.queen_dead() {
                return Err(illegal("8", "the Queen is dead already"));
            }
            if !s.may_declare || s.points == 0 {
                return Err(illegal(
                    "8",
                    "an attack on the Queen is declared after a task is done",
                ));
            }
            let roll = rng.d6()?;
            let mut events = vec![E::QueenRolled {
                roll,
                points: s.points,
            }];
            events.push(match roll.cmp(&s.points) {
                std::cmp::Ordering::Less => E::QueenDied { hatching: false },
                std::cmp::Ordering::Equal => E::QueenDied { hatching: true },
                std::cmp::Ordering::Greater => E::PointsLost,
            });
            Ok(events)
        }
        C::EndPhase => {
            expedition_turn(s, actor)?;
            Ok(vec![E::SeatDone { seat: actor.0 }])
        }
        C::Hatch { parts } => {
            alien_phase(s, actor, Phase::Hatching)?;
            let roll = s
                .hatch_roll
                .ok_or_else(|| illegal("9.1", "the hatching die is not rolled yet"))?;
            if !s.to_place.is_empty() {
                return Err(illegal("9.1", "place the new aliens first"));
            }
            if parts.iter().any(|&p| p == 0 || p > ALIEN_MAX)
                || parts.iter().map(|&p| u32::from(p)).sum::<u32>() != u32::from(roll)
            {
                return Err(illegal(
                    "9.1",
                    format!(
                        "new aliens of strength 1 to 4 whose strengths add up to the roll exactly ({roll})"
                    ),
                ));
            }
            let mut parts = parts.clone();
            parts.sort_unstable_by(|a, b| b.cmp(a));
            Ok(vec![E::Split { parts }])
        }
        C::Place { hatch } => {
            alien_phase(s, actor, Phase::Hatching)?;
            let strength = *s
                .to_place
                .first()
                .ok_or_else(|| illegal("9.1", "no new alien waits to be placed"))?;
            let t = base
                .hatches
                .get(usize::from(*hatch).wrapping_sub(1))
                .copied()
                .ok_or_else(|| illegal("9.1", format!("there is no hatching place {hatch}")))?;
            if s.character_at(t).is_some() {
                return Err(illegal("9.1", "a character stands on that hatching place"));
            }
            let mut events = vec![E::Hatched {
                alien: s.next_alien,
                strength,
                at: t,
            }];
            if s.to_place.len() == 1 {
                events.push(E::PhaseBegun {
                    phase: Phase::Moving,
                });
            }
            Ok(events)
        }
        C::MoveAlien { alien, to } => {
            alien_phase(s, actor, Phase::Moving)?;
            let a = s
                .alien(*alien)
                .ok_or_else(|| illegal("9.2", format!("there is no alien {alien}")))?;
            if a.moved {
                return Err(illegal("9.2", "this alien has moved this phase"));
            }
            if !alien_moves(s, *alien).contains(to) {
                return Err(illegal(
                    "9.2",
                    format!(
                        "an alien moves up to four tiles through corridors, ducts and rooms, never into airlocks or the landing field, never through another alien, and stops next to a character ({} is out of reach)",
                        base.name(*to)
                    ),
                ));
            }
            Ok(vec![E::AlienMoved {
                alien: *alien,
                to: *to,
            }])
        }
        C::EndMoves => {
            alien_phase(s, actor, Phase::Moving)?;
            Ok(vec![E::PhaseBegun {
                phase: Phase::Metamorphosis,
            }])
        }
        C::Attack { ch } => {
            alien_phase(s, actor, Phase::Attacks)?;
            let t = s
                .characters
                .get(usize::from(*ch))
                .and_then(|c| c.tile())
                .ok_or_else(|| illegal("10", "no such character on the board"))?;
            let attackers: Vec<u16> = s
                .aliens
                .iter()
                .filter(|a| !a.attacked && base.adjacent(a.at, t))
                .map(|a| a.id)
                .collect();
            if attackers.is_empty() {
                return Err(illegal(
                    "10",
                    "no alien that has not attacked stands next to that character",
                ));
            }
            let sum: i32 = attackers
                .iter()
                .filter_map(|&id| s.alien(id))
                .map(|a| s.alien_force(a))
                .sum();
            if dry {
                return Ok(Vec::new());
            }
            let force = sum - i32::from(s.characters[usize::from(*ch)].strength);
            let roll = rng.d6()?;
            let result = s.content.table.result(force, roll);
            let mut events = vec![E::Attacked {
                ch: *ch,
                aliens: attackers.clone(),
                force,
                roll,
                result,
            }];
            let mut after = s.clone();
            apply(&mut after, &events[0]);
            hit_character(&mut after, &mut events, *ch, result.defender);
            for id in attackers {
                hit_alien(&mut after, &mut events, id, result.attacker, None);
            }
            Ok(events)
        }
        C::RollHatch => {
            if s.phase != Phase::Hatching || s.hatch_roll.is_some() {
                return Err(illegal("9.1", "not the time to hatch"));
            }
            if !s.hatching_goes_on() {
                return Ok(vec![E::PhaseBegun {
                    phase: Phase::Moving,
                }]);
            }
            let roll = rng.d6()?;
            let mut events = vec![E::HatchRolled { roll }];
            if base.hatches.iter().all(|&h| s.character_at(h).is_some()) {
                // No hatching place is free: nothing hatches (assumed).
                events.push(E::PhaseBegun {
                    phase: Phase::Moving,
                });
            }
            Ok(events)
        }
        C::Metamorphose => {
            if s.phase != Phase::Metamorphosis {
                return Err(illegal("9.3", "not the time for metamorphosis"));
            }
            let mut events = Vec::new();
            let mut aliens = s.aliens.clone();
            aliens.sort_by_key(|a| a.id);
            let mut gone: Vec<u16> = Vec::new();
            for a in &aliens {
                if gone.contains(&a.id)
                    || base.terrain(a.at) != Terrain::Duct
                    || s.next_to_character(a.at)
                {
                    continue;
                }
                let mut strength = a.strength;
                for o in aliens.iter().filter(|o| o.id > a.id && o.at == a.at) {
                    if gone.contains(&o.id) {
                        continue;
                    }
                    let sum = strength + o.strength;
                    let now = sum.min(ALIEN_MAX);
                    events.push(E::Merged {
                        into: a.id,
                        from: o.id,
                        strength: now,
                        lost: sum - now,
                    });
                    strength = now;
                    gone.push(o.id);
                }
            }
            events.push(E::PhaseBegun {
                phase: Phase::Attacks,
            });
            Ok(events)
        }
        C::EndTurn => {
            if s.phase != Phase::Attacks || !attack_targets(s).is_empty() {
                return Err(illegal("10", "the aliens' attacks are not over"));
            }
            Ok(vec![E::TurnBegun { turn: s.turn + 1 }])
        }
    }
}

fn alien_phase(s: &AlienState, actor: Actor, phase: Phase) -> std::result::Result<(), RuleError> {
    if actor != Actor(0) {
        return Err(RuleError::not_your_turn(
            "only the Alien player directs the aliens",
        ));
    }
    if s.phase != phase {
        return Err(RuleError::not_your_turn(format!(
            "this is done in another step of the turn (now: {:?})",
            s.phase
        )));
    }
    Ok(())
}

/// An alien's part of a fight result: strength lost, then a withdrawal
/// (or death when it cannot withdraw).
fn hit_alien(
    after: &mut AlienState,
    events: &mut Vec<E>,
    id: u16,
    hit: super::data::Hit,
    by: Option<u8>,
) {
    let Some(a) = after.alien(id).cloned() else {
        return;
    };
    let mut push = |after: &mut AlienState, e: E| {
        apply(after, &e);
        events.push(e);
    };
    if hit.lost > 0 {
        push(
            after,
            E::AlienHit {
                alien: id,
                lost: hit.lost,
            },
        );
        if a.strength <= hit.lost {
            push(after, E::AlienKilled { alien: id, by });
            return;
        }
    }
    if hit.withdraw > 0 {
        match alien_withdrawal(after, id, hit.withdraw) {
            Some(to) => push(after, E::AlienWithdrew { alien: id, to }),
            None => push(after, E::AlienKilled { alien: id, by }),
        }
    }
}

/// A character's part of a fight result: strength lost, a withdrawal, a
/// strength point for each tile it cannot withdraw, death at zero.
fn hit_character(after: &mut AlienState, events: &mut Vec<E>, ch: u8, hit: super::data::Hit) {
    let mut push = |after: &mut AlienState, e: E| {
        apply(after, &e);
        events.push(e);
    };
    let c = &after.characters[usize::from(ch)];
    if !c.alive() || c.tile().is_none() {
        return;
    }
    let mut lost = hit.lost;
    let mut to = None;
    if hit.withdraw > 0 && c.strength > hit.lost {
        let (t, k) = character_withdrawal(after, ch, hit.withdraw);
        to = t;
        lost += hit.withdraw - k;
    }
    if lost > 0 {
        let strength = after.characters[usize::from(ch)].strength;
        push(
            after,
            E::CharacterHit {
                ch,
                lost: lost.min(strength),
            },
        );
        if strength <= lost {
            push(after, E::CharacterKilled { ch });
            return;
        }
    }
    if let Some(t) = to {
        push(after, E::CharacterWithdrew { ch, to: t });
    }
}

/// A command from its JSON as players write it: characters by id or card
/// name (`"hicks"`, `"Hicks"`) and tiles by name (`"K6"`) as well as by
/// number; aliens, pockets, airlocks and hatching places by number. The
/// names are read against this battle's own cards and base, so a command
/// needs the state to be read (see RULES.md, "Position files"). Numbers
/// pass through unchanged.
pub fn command_from_json(
    s: &AlienState,
    value: &serde_json::Value,
) -> std::result::Result<AlienCommand, String> {
    use serde_json::Value;
    let mut value = value.clone();
    if let Value::Object(map) = &mut value {
        for (variant, body) in map.iter_mut() {
            let Value::Object(fields) = body else {
                continue;
            };
            for (key, field) in fields.iter_mut() {
                let character =
                    matches!(key.as_str(), "ch" | "patient") || (variant == "give" && key == "to");
                let tile = !character && matches!(key.as_str(), "to" | "at");
                if character {
                    *field = character_number(s, field)?;
                } else if tile {
                    *field = tile_number(s, field)?;
                } else if key == "area"
                    && let Value::Array(tiles) = field
                {
                    for t in tiles.iter_mut() {
                        *t = tile_number(s, t)?;
                    }
                }
            }
        }
    }
    serde_json::from_value(value).map_err(|e| e.to_string())
}

fn character_number(
    s: &AlienState,
    v: &serde_json::Value,
) -> std::result::Result<serde_json::Value, String> {
    let Some(name) = v.as_str() else {
        return Ok(v.clone());
    };
    s.characters
        .iter()
        .position(|c| {
            let card = &s.content.characters[usize::from(c.card)];
            card.id.eq_ignore_ascii_case(name) || card.name.eq_ignore_ascii_case(name)
        })
        .map(serde_json::Value::from)
        .ok_or_else(|| {
            format!(
                "there is no character '{name}' (the characters: {})",
                s.content
                    .characters
                    .iter()
                    .map(|c| c.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

fn tile_number(
    s: &AlienState,
    v: &serde_json::Value,
) -> std::result::Result<serde_json::Value, String> {
    let Some(name) = v.as_str() else {
        return Ok(v.clone());
    };
    s.content
        .base
        .tile(name)
        .map(serde_json::Value::from)
        .ok_or_else(|| format!("'{name}' is not a tile of the base (a tile is named like K6)"))
}
