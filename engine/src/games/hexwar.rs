//! Hex War: the game of the boardgame.io anchor benchmark
//! (`../shared/anchors/boardgameio/game.js`), ported so that the same
//! 100,000-action plan can be played by both engines and compared side by
//! side (`saves/examples/anchor.rs`, `tests/anchor/side_by_side.sh`). A test
//! game, not one of the four: it is registered test-only.
//!
//! The rules are game.js's, clause for clause:
//!
//! - 40 units on 600 hexes (a 30 × 20 map), unit `i` starting on hex
//!   `i * 13 % 600` with 10 hp, 6 ammo, not stunned; two players take turns.
//! - `move(unit, hex)`: the unit goes to the hex (any hex: game.js has no
//!   movement limit) and is no longer stunned.
//! - `fire(attacker, target)`: four D6, each above 3 a hit. The attacker
//!   spends one ammo; with none left it reloads to 6 instead (the
//!   "auto-reload" that keeps every fire valid). The target loses one hp a
//!   hit and is stunned by two hits or more; at 0 hp or less it respawns on
//!   the hex of its own id with 10 hp, not stunned.
//! - `endTurn`: the other player's turn (boardgame.io's built-in event).
//! - Every move and fire counts in `log_counter` (`G.logCounter`).
//!
//! Either player may move or fire any unit, as in game.js. The battle never
//! ends. The dice come from the battle's stream (`Randomness::roll`), so
//! they differ from boardgame.io's (its PRNG is seeded with
//! `'anchor-seed-42'`); the plan of commands ([`plan`], mulberry32 with seed
//! 12345) is ported bit for bit, so both engines play the same 100,000
//! commands: 49,845 moves, 40,214 fires and 9,941 ends of turn.
//!
//! One departure, in words: game.js would let a unit fire at itself (the
//! plan never asks it); here that is refused, as is a unit or hex that does
//! not exist.
//!
//! [`Game::legal`] offers a sample, not every command: each turn 25,561
//! commands are legal (every unit to every hex, every unit at every other),
//! too many for the app's list or a bot's choice. It offers each unit's moves
//! to the hexes next to it and its fire at units within [`NEAR`] hexes, and
//! the end of the turn; `decide` accepts every other move and fire as well.

use serde::{Deserialize, Serialize};

use crate::game::{
    Actor, Anchors, Ask, FlowMark, Game, Outcome, RuleError, RuleErrorKind, SetupError,
};
use crate::rng::Randomness;
use crate::scene::{Item, ItemKind, Rgba, Scene, Shape};

pub struct HexWar;

/// Units on the map (`NUM_UNITS`).
pub const NUM_UNITS: u8 = 40;
/// Columns of the map; hex `h` is at column `h % COLS`, row `h / COLS`.
pub const COLS: u16 = 30;
/// Rows of the map.
pub const ROWS: u16 = 20;
/// Hexes on the map, ids `0..NUM_HEXES` (`NUM_HEXES`).
pub const NUM_HEXES: u16 = COLS * ROWS;
/// A unit's hit points at the start and after a respawn (`MAX_HP`).
pub const MAX_HP: u8 = 10;
/// A unit's ammunition at the start and after a reload (`MAX_AMMO`).
pub const MAX_AMMO: u8 = 6;
/// Dice rolled by a fire.
pub const FIRE_DICE: usize = 4;
/// A die showing more than this is a hit (`random.D6() > 3`).
pub const HIT_ABOVE: u8 = 3;
/// Hits that stun the target (`hits >= 2`).
pub const STUN_HITS: u8 = 2;
/// How far (in hexes) `legal` looks for targets.
pub const NEAR: u16 = 3;

/// No options: every battle is game.js's setup.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexWarConfig {}

/// One unit (game.js's `{id, hex, hp, ammo, stunned}`; its id is its index).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub hex: u16,
    pub hp: u8,
    pub ammo: u8,
    pub stunned: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexWarState {
    pub units: Vec<Unit>,
    /// Moves and fires so far (`G.logCounter`).
    pub log_counter: u32,
    /// The turn, from 1 (`ctx.turn`).
    pub turn: u32,
    /// The player whose turn it is, 0 or 1 (`ctx.currentPlayer`).
    pub current: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HexWarCommand {
    Move { unit: u8, hex: u16 },
    Fire { attacker: u8, target: u8 },
    EndTurn,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HexWarEvent {
    Moved {
        unit: u8,
        hex: u16,
    },
    /// The four dice as rolled; each above 3 is a hit. The reload, stun and
    /// respawn follow from them and the state (see [`HexWar::apply`]).
    Fired {
        attacker: u8,
        target: u8,
        dice: [u8; FIRE_DICE],
    },
    TurnEnded,
}

/// mulberry32, exactly as bench.js writes it (`a |= 0; a = (a + 0x6d2b79f5) | 0; ...`):
/// the plan's own generator, independent of the battle's stream.
#[derive(Clone, Debug)]
pub struct Mulberry32(u32);

impl Mulberry32 {
    pub fn new(seed: u32) -> Self {
        Mulberry32(seed)
    }

    /// The next raw 32-bit output (before bench.js divides it by 2^32).
    pub fn next_u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x6d2b_79f5);
        let a = self.0;
        let mut t = (a ^ (a >> 15)).wrapping_mul(1 | a);
        t = t.wrapping_add((t ^ (t >> 7)).wrapping_mul(61 | t)) ^ t;
        t ^ (t >> 14)
    }

    /// The next number in [0, 1), as bench.js's `r()`.
    pub fn next_f64(&mut self) -> f64 {
        f64::from(self.next_u32()) / 4_294_967_296.0
    }

    /// `Math.floor(r() * n)`: the product is exact in f64, so this is bench.js's.
    fn below(&mut self, n: u16) -> u16 {
        (self.next_f64() * f64::from(n)).floor() as u16
    }
}

/// The seed of bench.js's plan (`makePlan(n, seed = 12345)`).
pub const PLAN_SEED: u32 = 12345;

/// The first `n` commands of bench.js's `makePlan(n, seed)`: half moves, two
/// fifths fires, a tenth ends of turn, drawn exactly as it draws them.
pub fn plan(n: usize, seed: u32) -> Vec<HexWarCommand> {
    let mut r = Mulberry32::new(seed);
    (0..n)
        .map(|_| {
            let x = r.next_f64();
            if x < 0.5 {
                let unit = r.below(u16::from(NUM_UNITS)) as u8;
                let hex = r.below(NUM_HEXES);
                HexWarCommand::Move { unit, hex }
            } else if x < 0.9 {
                let attacker = r.below(u16::from(NUM_UNITS)) as u8;
                let mut target = r.below(u16::from(NUM_UNITS) - 1) as u8;
                if target >= attacker {
                    target += 1;
                }
                HexWarCommand::Fire { attacker, target }
            } else {
                HexWarCommand::EndTurn
            }
        })
        .collect()
}

/// Hits of a fire's dice: each die above 3.
pub fn hits(dice: &[u8]) -> u8 {
    dice.iter().filter(|&&d| d > HIT_ABOVE).count() as u8
}

/// Cube coordinates of a hex of the odd-row-shifted 30 × 20 map.
fn cube(hex: u16) -> (i32, i32, i32) {
    let (col, row) = (i32::from(hex % COLS), i32::from(hex / COLS));
    let x = col - (row - (row & 1)) / 2;
    (x, row, -x - row)
}

/// Distance in hexes between two hexes of the map.
pub fn distance(a: u16, b: u16) -> u16 {
    let ((ax, ay, az), (bx, by, bz)) = (cube(a), cube(b));
    ((ax - bx).abs().max((ay - by).abs()).max((az - bz).abs())) as u16
}

/// The hexes next to `hex` on the map (up to six).
pub fn neighbours(hex: u16) -> Vec<u16> {
    let (col, row) = (i32::from(hex % COLS), i32::from(hex / COLS));
    let shift = row & 1;
    [
        (-1, 0),
        (1, 0),
        (shift - 1, -1),
        (shift, -1),
        (shift - 1, 1),
        (shift, 1),
    ]
    .into_iter()
    .map(|(dc, dr)| (col + dc, row + dr))
    .filter(|&(c, r)| (0..i32::from(COLS)).contains(&c) && (0..i32::from(ROWS)).contains(&r))
    .map(|(c, r)| (r * i32::from(COLS) + c) as u16)
    .collect()
}

fn no_unit(u: u8) -> RuleError {
    RuleError::new(
        RuleErrorKind::Illegal,
        format!("there is no unit {u} (units are 0 to {})", NUM_UNITS - 1),
    )
}

impl Game for HexWar {
    game_parts! {
        scenario: "anchor", "The anchor benchmark",
            "40 units on a 30 × 20 map, as boardgame.io's benchmark game.js.";
        types: HexWarConfig, HexWarState, HexWarCommand, HexWarEvent;
    }
    const ID: &'static str = "hexwar";
    const NAME: &'static str = "Hex War (test game, the boardgame.io anchor)";
    const RULES_VERSION: u32 = 1;

    fn setup(_config: &HexWarConfig) -> Result<HexWarState, SetupError> {
        Ok(HexWarState {
            units: (0..u16::from(NUM_UNITS))
                .map(|i| Unit {
                    hex: i * 13 % NUM_HEXES,
                    hp: MAX_HP,
                    ammo: MAX_AMMO,
                    stunned: false,
                })
                .collect(),
            log_counter: 0,
            turn: 1,
            current: 0,
        })
    }

    fn decide(
        state: &HexWarState,
        actor: Actor,
        command: &HexWarCommand,
        rng: &mut Randomness,
    ) -> Result<Vec<HexWarEvent>, RuleError> {
        if actor.0 != state.current {
            return Err(RuleError::not_your_turn(format!(
                "it is {}'s turn",
                Self::actor_name(Actor(state.current))
            )));
        }
        match *command {
            HexWarCommand::Move { unit, hex } => {
                if unit >= NUM_UNITS {
                    return Err(no_unit(unit));
                }
                if hex >= NUM_HEXES {
                    return Err(RuleError::new(
                        RuleErrorKind::Illegal,
                        format!("there is no hex {hex} (hexes are 0 to {})", NUM_HEXES - 1),
                    ));
                }
                Ok(vec![HexWarEvent::Moved { unit, hex }])
            }
            HexWarCommand::Fire { attacker, target } => {
                for u in [attacker, target] {
                    if u >= NUM_UNITS {
                        return Err(no_unit(u));
                    }
                }
                if attacker == target {
                    return Err(RuleError::new(
                        RuleErrorKind::Illegal,
                        format!("unit {attacker} cannot fire at itself"),
                    ));
                }
                // game.js: four `random.D6()`, each above 3 a hit.
                let mut dice = [0; FIRE_DICE];
                for d in &mut dice {
                    *d = rng.d6()?;
                }
                Ok(vec![HexWarEvent::Fired {
                    attacker,
                    target,
                    dice,
                }])
            }
            HexWarCommand::EndTurn => Ok(vec![HexWarEvent::TurnEnded]),
        }
    }

    fn apply(state: &mut HexWarState, event: &HexWarEvent) {
        match *event {
            HexWarEvent::Moved { unit, hex } => {
                let u = &mut state.units[usize::from(unit)];
                u.hex = hex;
                u.stunned = false;
                state.log_counter += 1;
            }
            HexWarEvent::Fired {
                attacker,
                target,
                ref dice,
            } => {
                let hits = hits(dice);
                let a = &mut state.units[usize::from(attacker)];
                // game.js: `a.ammo > 0 ? a.ammo - 1 : MAX_AMMO` (auto-reload).
                a.ammo = if a.ammo > 0 { a.ammo - 1 } else { MAX_AMMO };
                let t = &mut state.units[usize::from(target)];
                t.hp = t.hp.saturating_sub(hits);
                t.stunned = hits >= STUN_HITS;
                if t.hp == 0 {
                    // game.js: respawn on the hex of its own id.
                    t.hp = MAX_HP;
                    t.hex = u16::from(target);
                    t.stunned = false;
                }
                state.log_counter += 1;
            }
            HexWarEvent::TurnEnded => {
                state.current = 1 - state.current;
                state.turn += 1;
            }
        }
    }

    fn legal(state: &HexWarState) -> Vec<(Actor, HexWarCommand)> {
        let a = Actor(state.current);
        let mut out = Vec::new();
        for (i, u) in state.units.iter().enumerate() {
            let unit = i as u8;
            out.extend(
                neighbours(u.hex)
                    .into_iter()
                    .map(|hex| (a, HexWarCommand::Move { unit, hex })),
            );
            out.extend(
                state
                    .units
                    .iter()
                    .enumerate()
                    .filter(|&(j, t)| j != i && distance(u.hex, t.hex) <= NEAR)
                    .map(|(j, _)| {
                        (
                            a,
                            HexWarCommand::Fire {
                                attacker: unit,
                                target: j as u8,
                            },
                        )
                    }),
            );
        }
        out.push((a, HexWarCommand::EndTurn));
        out
    }

    fn asked(state: &HexWarState) -> Vec<Ask> {
        vec![Ask {
            seat: Actor(state.current),
            what: "move a unit, fire, or end the turn".into(),
        }]
    }

    fn outcome(_state: &HexWarState) -> Option<Outcome> {
        None
    }

    fn view(state: &HexWarState, _viewer: Actor) -> HexWarState {
        state.clone()
    }

    /// boardgame.io's player ids, "0" and "1".
    fn actor_name(actor: Actor) -> String {
        format!("Player {}", actor.0)
    }

    fn describe_command(_state: &HexWarState, actor: Actor, command: &HexWarCommand) -> String {
        let who = Self::actor_name(actor);
        match command {
            HexWarCommand::Move { unit, hex } => format!("{who} moves unit {unit} to hex {hex}"),
            HexWarCommand::Fire { attacker, target } => {
                format!("{who} fires unit {attacker} at unit {target}")
            }
            HexWarCommand::EndTurn => format!("{who} ends the turn"),
        }
    }

    fn describe_event(state: &HexWarState, event: &HexWarEvent) -> String {
        match *event {
            HexWarEvent::Moved { unit, hex } => format!("unit {unit} moved to hex {hex}"),
            HexWarEvent::Fired {
                attacker,
                target,
                ref dice,
            } => {
                let hits = hits(dice);
                let mut s =
                    format!("unit {attacker} fired at unit {target}: {dice:?}, {hits} hit(s)");
                if state.units[usize::from(attacker)].ammo == 0 {
                    s.push_str(&format!(", unit {attacker} reloaded"));
                }
                let t = &state.units[usize::from(target)];
                if hits >= t.hp {
                    s.push_str(&format!(
                        ", unit {target} destroyed and respawned on hex {target}"
                    ));
                } else if hits >= STUN_HITS {
                    s.push_str(&format!(", unit {target} stunned"));
                }
                s
            }
            HexWarEvent::TurnEnded => format!(
                "turn {} ended: {}'s turn",
                state.turn,
                Self::actor_name(Actor(1 - state.current))
            ),
        }
    }

    fn flow(state: &HexWarState) -> FlowMark {
        FlowMark {
            turn: state.turn,
            phase: Self::actor_name(Actor(state.current)),
        }
    }

    fn anchors(_state: &HexWarState, command: &HexWarCommand) -> Anchors {
        match *command {
            HexWarCommand::Move { unit, .. } => Anchors {
                subject: Some(format!("unit:{unit}")),
                target: None,
            },
            HexWarCommand::Fire { attacker, target } => Anchors {
                subject: Some(format!("unit:{attacker}")),
                target: Some(format!("unit:{target}")),
            },
            HexWarCommand::EndTurn => Anchors::default(),
        }
    }

    /// A fire that destroys its target (and respawns it) is notable.
    fn moment(state: &HexWarState, event: &HexWarEvent) -> crate::Moment {
        match *event {
            HexWarEvent::Fired {
                target, ref dice, ..
            } if hits(dice) >= state.units[usize::from(target)].hp => {
                crate::Moment::notable(crate::MomentKind::Kill, Vec::new())
            }
            _ => crate::Moment::routine(),
        }
    }

    fn dice_meanings(
        _state: &HexWarState,
        actor: Actor,
        events: &[HexWarEvent],
    ) -> Vec<crate::DieMeaning> {
        let mut out = Vec::new();
        for (roll, e) in events.iter().enumerate() {
            if let HexWarEvent::Fired { dice, .. } = e {
                out.extend(dice.iter().map(|&d| {
                    crate::DieMeaning::needing(
                        "a hit (more than 3)",
                        crate::Need::Above(HIT_ABOVE),
                        crate::Counts::Hits,
                        d,
                        Some(actor),
                        roll as u16,
                    )
                }));
            }
        }
        out
    }

    fn scene(state: &HexWarState) -> Scene {
        const R: f32 = 10.0;
        let w = R * 3f32.sqrt();
        let centre = |hex: u16| {
            let (col, row) = (f32::from(hex % COLS), f32::from(hex / COLS));
            let shift = if (hex / COLS) % 2 == 1 { w / 2.0 } else { 0.0 };
            [w * (col + 0.5) + shift, R * (1.0 + 1.5 * row)]
        };
        let mut items = vec![Item {
            id: "map".into(),
            kind: ItemKind::Terrain,
            shape: Shape::Rect {
                min: [0.0, 0.0],
                max: [
                    w * (f32::from(COLS) + 0.5),
                    R * (1.5 * f32::from(ROWS) + 0.5),
                ],
                rounding: 0.0,
            },
            fill: Rgba::rgb(225, 215, 180),
            stroke: (1.0, Rgba::BLACK),
            tooltip: Some(format!("{COLS} × {ROWS} hexes")),
            name: None,
        }];
        for (i, u) in state.units.iter().enumerate() {
            items.push(Item {
                id: format!("unit:{i}"),
                kind: ItemKind::Counter,
                shape: Shape::Circle {
                    center: centre(u.hex),
                    radius: R * 0.7,
                },
                fill: if u.stunned {
                    Rgba::rgb(150, 150, 150)
                } else {
                    Rgba::rgb(60, 120, 220)
                },
                stroke: (1.0, Rgba::BLACK),
                tooltip: Some(format!(
                    "Unit {i}: hex {}, {} hp, {} ammo{}",
                    u.hex,
                    u.hp,
                    u.ammo,
                    if u.stunned { ", stunned" } else { "" }
                )),
                name: None,
            });
        }
        Scene {
            width: w * (f32::from(COLS) + 0.5),
            height: R * (1.5 * f32::from(ROWS) + 0.5),
            background: Some(Rgba::WHITE),
            items,
        }
    }
}
