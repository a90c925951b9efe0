//! Advanced Invasion Earth (rule text 001, `../shared/seeds/001_b97d8ce573227941.txt`):
//! the optional modules of an Alien Invasion battle, chosen when it is set up.
//!
//! The text was written for the model-by-model Invasion Earth rules (TURN,
//! FIRE, HIDE, SNEAK, a strike roll per model); Alien Invasion activates
//! groups with Action cards and totals dice against kill scores. Each module
//! is adapted, and every adaptation is listed in `RULES.md` ("Advanced
//! Invasion Earth"). The two that run through all of them:
//!
//! * a **detachment** is a group, and a model's **turn** is its faction's
//!   Action card: the checks the text makes "at the beginning of each of his
//!   turns" are made when the faction's card comes up, before its first
//!   action, as a step of the game;
//! * a group acts as one: what the text makes a model do, its group does on
//!   that card (a stricken model takes its group with it).
//!
//! The random tables are data (`engine/data/invasion/advanced.txt`), their
//! rolls in the log in words.

use serde::{Deserialize, Serialize};

use super::state::GroupId;

/// A module of the text, chosen per battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Module {
    Stupidity,
    Fear,
    Suppression,
    Observers,
    Sighting,
    LayingInWait,
    Grapple,
    Impetuous,
    Primitive,
    Buildings,
    Unstoppable,
    Fly,
    AdvancedAssault,
}

impl Module {
    /// The modules Xenolog plays, in the text's order. (The others are
    /// listed in `RULES.md` as not built yet; a battle cannot choose them.)
    pub const ALL: [Module; 13] = [
        Module::Suppression,
        Module::Observers,
        Module::LayingInWait,
        Module::Sighting,
        Module::Buildings,
        Module::AdvancedAssault,
        Module::Grapple,
        Module::Stupidity,
        Module::Fear,
        Module::Impetuous,
        Module::Unstoppable,
        Module::Primitive,
        Module::Fly,
    ];

    /// Its key in the battle's config.
    pub fn key(self) -> &'static str {
        match self {
            Module::Stupidity => "stupidity",
            Module::Fear => "fear",
            Module::Suppression => "suppression",
            Module::Observers => "observers",
            Module::Sighting => "sighting",
            Module::LayingInWait => "laying_in_wait",
            Module::Grapple => "grapple",
            Module::Impetuous => "impetuous",
            Module::Primitive => "primitive_weapons",
            Module::Buildings => "buildings",
            Module::Unstoppable => "unstoppable",
            Module::Fly => "fly",
            Module::AdvancedAssault => "advanced_assault",
        }
    }

    /// Its name, as the text heads it.
    pub fn name(self) -> &'static str {
        match self {
            Module::Stupidity => "Stupidity",
            Module::Fear => "Fear",
            Module::Suppression => "Suppression Fire",
            Module::Observers => "Observers",
            Module::Sighting => "Sighting a Target",
            Module::LayingInWait => "Laying in Wait",
            Module::Grapple => "Grapple",
            Module::Impetuous => "Impetuous",
            Module::Primitive => "Primitive Weapons",
            Module::Buildings => "Buildings and LOS",
            Module::Unstoppable => "Unstoppable Force",
            Module::Fly => "Lift Off, Land and Fly",
            Module::AdvancedAssault => "Advanced Assault",
        }
    }

    /// One line on what it does.
    pub fn help(self) -> &'static str {
        match self {
            Module::Stupidity => {
                "Groups with stupid models test at the start of their faction's card; a failure \
                 rolls on the stupidity table (contagious, kill everybody, charge, AWOL, hide, \
                 war), and a stricken model must recover on 4-6."
            }
            Module::Fear => {
                "A group facing a model that causes fear in it tests at the start of its \
                 faction's card: brave (no more tests), freeze, run away or insane with fear."
            }
            Module::Suppression => {
                "A group may fire to suppress instead of to kill (or at the cover a target \
                 hides behind): easier to pin down, harder to hit; a suppressed group shoots \
                 at -2 a die, may only sneak (half a move) and may not assault on its next card."
            }
            Module::Observers => {
                "Radio operators (in pairs) and Comm. Links relay where the enemy is; weapons \
                 that need no line of sight fire unseen at -1 a die, +1 a die with information \
                 relayed this card. Observers may not move or fire on the card they relay."
            }
            Module::Buildings => {
                "A group inside a building can be seen and shot at only while at its windows \
                 and doors: from the card it fires (or lays in wait) until it moves or lets \
                 its next card pass without firing."
            }
            Module::AdvancedAssault => {
                "A melee with a winner does not break: on its card the winner may break off \
                 or fight on; on its card the loser stays and fights, or runs away if it moves \
                 faster. A draw breaks as in the basic rules."
            }
            Module::Fly => {
                "Models with a fly move lift off 2\"-10\" (nothing more that card), fly at \
                 their rate over terrain between 2\" and 30\" up, land from 10\" or lower; \
                 shooting at a flyer is at -1 a die. Heights are in the log."
            }
            Module::Unstoppable => {
                "Models with unstoppable force move through walls, fences and hedges as if \
                 they were not there."
            }
            Module::Grapple => {
                "A grappler's side that wins a melee on its own card holds its victims until \
                 its next one; a held group does nothing unless it escapes on the grapple score \
                 at the start of its card."
            }
            Module::Impetuous => {
                "Impetuous groups make their full move at the nearest enemy they can see at the \
                 start of their card, assault it if they get there or fire at it if not, and may \
                 not lay in wait."
            }
            Module::Primitive => {
                "Primitive weapons (spears and the like) cannot harm armoured models: their \
                 dice are not rolled at them."
            }
            Module::LayingInWait => {
                "A group declared at the start of its card lays in wait (it may only sneak): \
                 in the other side's card it fires at -1 a die at an enemy that comes into \
                 its sight, or charges one within its move, out of turn."
            }
            Module::Sighting => {
                "A group must sight its target before it shoots at or assaults it: seen, seen \
                 by a leader within 10\", relayed by an observer, or perceived on a 6 within 8\" \
                 (leaders +1, campaign models +1 a battle survived)."
            }
        }
    }
}

/// Who a model causes fear in (`fear SPECIES[,SPECIES]|all [los]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fear {
    /// The species that fear it; empty: every species but its own.
    pub species: Vec<String>,
    /// "line of sight required".
    pub sight: bool,
}

/// What the modules read of a model type, as the text's profiles carry it
/// (the faction file's model flags; see `data.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// A leader (`leader`).
    pub leader: bool,
    /// Suffers from stupidity: the score a check must attain (`stupid N`).
    pub stupidity: Option<u8>,
    /// Causes fear (`fear ...`).
    pub fear: Option<Fear>,
    /// A weapon a module names (`weapon lmg|smg|bazooka|primitive|indirect`).
    pub weapon: Option<Weapon>,
    /// "Special Rule - Comm. Link": an observer linked to every other.
    pub comm_link: bool,
    /// A radio operator (`radio`).
    pub radio: bool,
    /// Grapples: the score a victim must roll to escape (`grapple N`).
    pub grapple: Option<u8>,
    /// Impetuous (`impetuous`).
    pub impetuous: bool,
    /// Proof against primitive weapons (`armoured`).
    pub armoured: bool,
    /// Moves through thin obstacles (`unstoppable`).
    pub unstoppable: bool,
    /// Flies: its fly move, hundredths of an inch (`fly N`).
    pub fly: Option<i32>,
    /// Cannot SNEAK (`no_sneak`): "No sneaking Daleks etc." (Suppression
    /// Fire); a group with such a model does not move when only a sneak is
    /// allowed (suppressed, or laying in wait on its own card). Rules
    /// version 5; absent from older profiles.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_sneak: bool,
}

impl Profile {
    /// This profile with the flags `extra` gives added (a flag or value
    /// `extra` sets wins): Xenolog's assumed profiles (`assumed` lines).
    pub fn with(&self, extra: &Profile) -> Profile {
        Profile {
            leader: self.leader || extra.leader,
            stupidity: extra.stupidity.or(self.stupidity),
            fear: extra.fear.clone().or_else(|| self.fear.clone()),
            weapon: extra.weapon.or(self.weapon),
            comm_link: self.comm_link || extra.comm_link,
            radio: self.radio || extra.radio,
            grapple: extra.grapple.or(self.grapple),
            impetuous: self.impetuous || extra.impetuous,
            armoured: self.armoured || extra.armoured,
            unstoppable: self.unstoppable || extra.unstoppable,
            fly: extra.fly.or(self.fly),
            no_sneak: self.no_sneak || extra.no_sneak,
        }
    }
}

/// The weapon types the modules name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    /// "L.M.G: + 1 on all suppressing fire dice rolls."
    Lmg,
    /// "S.M.G: + 1 on all suppressing fire dice rolls at MEDIUM RANGE and below."
    Smg,
    /// "BAZOOKA: Cannot use suppressive fire."
    Bazooka,
    /// "PRIMITIVE WEAPONS: Cannot use suppressive fire."
    Primitive,
    /// A weapon that does not need a line of sight (the text's "UNIT
    /// mortars"): it may be directed by observers.
    Indirect,
}

impl Weapon {
    pub fn key(self) -> &'static str {
        match self {
            Weapon::Lmg => "lmg",
            Weapon::Smg => "smg",
            Weapon::Bazooka => "bazooka",
            Weapon::Primitive => "primitive",
            Weapon::Indirect => "indirect",
        }
    }

    pub fn parse(w: &str) -> Option<Weapon> {
        [
            Weapon::Lmg,
            Weapon::Smg,
            Weapon::Bazooka,
            Weapon::Primitive,
            Weapon::Indirect,
        ]
        .into_iter()
        .find(|x| x.key() == w)
    }

    /// Its name as the text writes it.
    pub fn name(self) -> &'static str {
        match self {
            Weapon::Lmg => "L.M.G.",
            Weapon::Smg => "S.M.G.",
            Weapon::Bazooka => "bazooka",
            Weapon::Primitive => "primitive weapon",
            Weapon::Indirect => "indirect-fire weapon",
        }
    }
}

impl Profile {
    pub fn is_plain(&self) -> bool {
        *self == Profile::default()
    }
}

/// What a stupidity result makes a model (and its group) do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StupidEffect {
    Contagious,
    KillEverybody,
    Charge,
    Awol,
    Hide,
    War,
}

/// What a fear result makes a group do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FearEffect {
    Brave,
    Freeze,
    RunAway,
    Insane,
}

/// The random tables and numbers of the text, as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tables {
    /// The stupidity table, rolls 1-6.
    pub stupidity: Vec<(StupidEffect, String)>,
    /// A stricken model recovers on this or more.
    pub recover: u8,
    /// The fear table, rolls 1-6.
    pub fear: Vec<(FearEffect, String)>,
    pub perception: u8,
    pub perception_leader: u8,
    /// Hundredths of an inch.
    pub perception_range: i32,
}

impl Tables {
    /// The result of a roll on the stupidity table.
    pub fn stupid(&self, roll: u8) -> (StupidEffect, &str) {
        let (e, w) = &self.stupidity[usize::from(roll.clamp(1, 6)) - 1];
        (*e, w)
    }

    /// The result of a roll on the fear table.
    pub fn fear(&self, roll: u8) -> (FearEffect, &str) {
        let (e, w) = &self.fear[usize::from(roll.clamp(1, 6)) - 1];
        (*e, w)
    }
}

/// The shipped tables (`engine/data/invasion/advanced.txt`).
pub const TABLES_TEXT: &str = include_str!("../../../data/invasion/advanced.txt");

/// The shipped tables, parsed (once).
pub fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    // The shipped file is checked by a test; it always parses.
    TABLES.get_or_init(|| {
        super::data::parse_tables(TABLES_TEXT).expect("the shipped advanced tables parse")
    })
}

/// A model stricken by stupidity, until it recovers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stricken {
    pub group: GroupId,
    /// Its index in the group's models.
    pub model: u16,
}

/// What a group must do on the current card, by a stupidity or fear result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// Nothing on this card (war, what is it good for; freeze; hiding).
    Nothing,
    /// Shoot at the nearest group, friend or foe, and nothing else.
    KillEverybody,
    /// Move its full move towards this group, assaulting it if it gets there.
    Charge(GroupId),
    /// Move its full move towards the nearest table edge, and off it.
    Awol,
    /// Move its full move directly away from this group.
    RunFrom(GroupId),
    /// Impetuous with a missile weapon: move its full move towards this
    /// group, assaulting it if it gets there and firing at it if not. (Last
    /// of the enum: orders are stored in the logs' events.)
    ChargeOrFire(GroupId),
}

/// The modules' part of a battle's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Advanced {
    /// The modules chosen for the battle.
    pub modules: Vec<Module>,
    /// Models stricken by stupidity.
    pub stricken: Vec<Stricken>,
    /// Groups that have passed a fear test with a 1-3: "no further fear
    /// tests are taken this game".
    pub fearless: Vec<GroupId>,
    /// What groups must do on the current card, and the module that says so.
    pub orders: Vec<(GroupId, Order, Module)>,
    /// The round and card whose checks have been made.
    pub checked: Option<(u32, usize)>,
    /// Groups suppressed until the end of their faction's next card.
    pub suppressed: Vec<GroupId>,
    /// Groups whose observers relay on this card: they may not move or fire.
    pub relaying: Vec<GroupId>,
    /// `(group, target)`: the group has had the target's position relayed
    /// to it on this card.
    pub informed: Vec<(GroupId, GroupId)>,
    /// `(group, target)`: the group perceived the target on this card.
    pub perceived: Vec<(GroupId, GroupId)>,
    /// `(group, target)`: the group failed to perceive the target on this card.
    pub unperceived: Vec<(GroupId, GroupId)>,
    /// Groups laying in wait, and whether to assault (rather than fire).
    pub waiting: Vec<(GroupId, bool)>,
    /// Melees held by a grappler: `(melee, grappler's group, score to escape)`.
    pub grapples: Vec<(u16, GroupId, u8)>,
    /// Kills made in a melee's current resolution: `(melee, seat, kills)`.
    pub melee_kills: Vec<(u16, u8, u32)>,
    /// Groups in buildings standing at the windows and doors (they fired).
    pub at_windows: Vec<GroupId>,
    /// Groups that fired on the current card.
    pub fired: Vec<GroupId>,
    /// Flying groups and their heights above the table (hundredths).
    pub heights: Vec<(GroupId, i32)>,
    /// Groups that lifted off or landed on this card: nothing more for them.
    pub grounded: Vec<GroupId>,
    /// Melees won under Advanced Assault: `(melee, the winner's seat)`.
    pub assaults: Vec<(u16, u8)>,
}

impl Advanced {
    pub fn on(&self, m: Module) -> bool {
        self.modules.contains(&m)
    }

    pub fn order(&self, g: GroupId) -> Option<Order> {
        self.orders
            .iter()
            .find(|(o, _, _)| *o == g)
            .map(|(_, o, _)| *o)
    }
}

// ---------------------------------------------------------------------------
// The checks at the start of a card

use super::model::{Cover, Point};
use super::rules::{InvasionCommand, group_name};
use super::state::{InvasionEvent as E, InvasionState};
use super::table::BASE;
use crate::game::RuleError;
use crate::rng::Randomness;

fn illegal(clause: &str, msg: impl Into<String>) -> RuleError {
    RuleError::illegal(clause, msg)
}

/// The living models of a group that suffer from stupidity, with their score.
fn stupid_models(s: &InvasionState, g: GroupId) -> Vec<(u16, u8)> {
    let group = s.group(g);
    group
        .models
        .iter()
        .enumerate()
        .filter(|(_, m)| m.alive)
        .filter_map(|(i, m)| {
            let t = s.model_type(group.seat, &m.kind)?;
            t.profile.stupidity.map(|n| (i as u16, n))
        })
        .collect()
}

/// The enemy group on the table that causes fear in `g` now, the nearest
/// first: one of its living models causes fear in a species of `g`'s living
/// models, and (when the profile says so) the two groups see each other.
/// At a real table the sight is not checked (assumed: the players test when
/// the table shows it; see `RULES.md`).
pub fn fear_source(s: &InvasionState, g: GroupId) -> Option<GroupId> {
    let group = s.group(g);
    let species: Vec<&str> = group
        .alive()
        .filter_map(|m| s.model_type(group.seat, &m.kind))
        .map(|t| t.species.as_str())
        .collect();
    let mine = group.points();
    let mut found: Vec<(i32, GroupId)> = Vec::new();
    for (o, other) in s.groups.iter().enumerate() {
        let o = o as GroupId;
        if other.seat == group.seat || !other.on_table() {
            continue;
        }
        let fear = other.alive().find_map(|m| {
            let t = s.model_type(other.seat, &m.kind)?;
            let f = t.profile.fear.as_ref()?;
            let hits = species.iter().any(|sp| {
                if f.species.is_empty() {
                    *sp != t.species
                } else {
                    f.species.iter().any(|x| x == sp)
                }
            });
            hits.then_some(f.sight)
        });
        let Some(sight) = fear else { continue };
        if sight && !s.real_table && !super::fire::sees_out_from(s, g, &mine, o) {
            continue;
        }
        found.push((distance(&mine, &other.points()), o));
    }
    found.sort_unstable();
    found.first().map(|(_, o)| *o)
}

/// The least distance between two groups' figures (`i32::MAX` without positions).
fn distance(a: &[Point], b: &[Point]) -> i32 {
    a.iter()
        .flat_map(|p| b.iter().map(move |q| p.distance(*q)))
        .min()
        .unwrap_or(i32::MAX)
}

/// The groups `g` could be made to act against, nearest first: enemies
/// only, or every other group ("friend or foe").
fn nearest(s: &InvasionState, g: GroupId, friend_or_foe: bool) -> Option<GroupId> {
    let group = s.group(g);
    let mine = group.points();
    (0..s.groups.len() as GroupId)
        .filter(|&o| o != g && s.group(o).on_table())
        .filter(|&o| friend_or_foe || s.group(o).seat != group.seat)
        .min_by_key(|&o| (distance(&mine, &s.group(o).points()), o))
}

/// The groups whose checks are due at the start of the current card.
fn to_check(s: &InvasionState) -> Vec<GroupId> {
    let a = &s.advanced;
    let Some(seat) = s.card().and_then(|c| c.seat) else {
        return Vec::new();
    };
    (0..s.groups.len() as GroupId)
        .filter(|&g| s.group(g).seat == seat && s.group(g).on_table())
        .filter(|&g| {
            (a.on(Module::Stupidity) && !stupid_models(s, g).is_empty())
                || (a.on(Module::Fear) && !a.fearless.contains(&g) && fear_source(s, g).is_some())
                || (a.on(Module::Grapple) && held(s, g).is_some())
                || (a.on(Module::Impetuous)
                    && !s.real_table
                    && s.group(g).locked.is_none()
                    && impetuous(s, g)
                    && nearest_seen_enemy(s, g).is_some())
        })
        .collect()
}

/// Whether the checks are due: the card of a faction has come up, none of
/// its actions is spent, and one of its groups must test.
pub fn checks_due(s: &InvasionState) -> bool {
    let a = &s.advanced;
    a.modules.iter().any(|m| {
        matches!(
            m,
            Module::Stupidity | Module::Fear | Module::Grapple | Module::Impetuous
        )
    }) && s.spent.is_empty()
        && a.checked != Some((s.round, s.current))
        && s.card()
            .and_then(|c| c.seat)
            .is_some_and(|seat| s.in_battle(seat))
        && !to_check(s).is_empty()
}

/// The checks at the start of the card, in group order: for each group,
/// Stupidity (recovery of its stricken models, then the detachment's check)
/// and then Fear (unless stupidity already gave it an order).
pub fn checks(s: &InvasionState, rng: &mut Randomness, out: &mut Vec<E>) -> Result<(), RuleError> {
    let tables = tables();
    let mut work = crate::game::Work::<super::Invasion>::new(s);
    for g in to_check(s) {
        // "The 'victim's' player rolls a dice to see if the model can escape
        // the grapple. This roll is made during the victims own turn."
        if work.st.advanced.on(Module::Grapple)
            && let Some((melee, needs)) = held(&work.st, g)
        {
            let roll = rng.d6()?;
            let escaped = roll >= needs;
            work.emit(E::GrappleEscape {
                group: g,
                melee,
                roll,
                needs,
                escaped,
            });
            if escaped {
                // "Victims, which escape a grapple, may perform any
                // available action on the turn of their escape."
                work.emit(E::Unlocked { melee });
            } else {
                // "Victims which do not escape a grapple can do nothing
                // during their turn".
                work.emit(E::Ordered {
                    group: g,
                    order: Order::Nothing,
                    by: Module::Grapple,
                });
                continue;
            }
        }
        if work.st.advanced.on(Module::Stupidity) && !stupid_models(&work.st, g).is_empty() {
            let mut queue: Vec<u16> = Vec::new();
            let stricken: Vec<u16> = work
                .st
                .advanced
                .stricken
                .iter()
                .filter(|x| x.group == g)
                .map(|x| x.model)
                .filter(|&m| {
                    work.st
                        .group(g)
                        .models
                        .get(m as usize)
                        .is_some_and(|x| x.alive)
                })
                .collect();
            for m in &stricken {
                let roll = rng.d6()?;
                let recovered = roll >= tables.recover;
                work.emit(E::Recovery {
                    group: g,
                    model: *m,
                    roll,
                    recovered,
                });
                if !recovered {
                    queue.push(*m);
                }
            }
            // The detachment's check, once no model of it is still stupid
            // (assumed: a model still stupid keeps its group from the check).
            if queue.is_empty() {
                let models = stupid_models(&work.st, g);
                let needs = models.iter().map(|(_, n)| *n).max().unwrap_or(1);
                let roll = rng.d6()?;
                work.emit(E::StupidityCheck {
                    group: g,
                    needs,
                    roll,
                });
                if roll < needs {
                    // "one of the models in your detachment has been stricken
                    // by stupidity (you choose)": assumed, the first.
                    queue.push(models[0].0);
                }
            }
            let mut first = None;
            let mut k = 0;
            while k < queue.len() {
                let m = queue[k];
                k += 1;
                let roll = rng.d6()?;
                let (effect, _) = tables.stupid(roll);
                work.emit(E::Stricken {
                    group: g,
                    model: m,
                    roll,
                    effect,
                });
                if effect == StupidEffect::Contagious {
                    let count = rng.d6()?;
                    let others: Vec<u16> = work
                        .st
                        .group(g)
                        .models
                        .iter()
                        .enumerate()
                        .filter(|(i, x)| {
                            x.alive
                                && !queue.contains(&(*i as u16))
                                && !work
                                    .st
                                    .advanced
                                    .stricken
                                    .iter()
                                    .any(|y| y.group == g && y.model == *i as u16)
                        })
                        .map(|(i, _)| i as u16)
                        .take(usize::from(count))
                        .collect();
                    work.emit(E::Contagion {
                        group: g,
                        roll: count,
                        models: others.clone(),
                    });
                    queue.extend(others);
                } else if first.is_none() {
                    first = Some(effect);
                }
            }
            if !queue.is_empty() {
                let order = match first {
                    Some(StupidEffect::KillEverybody) => match nearest(&work.st, g, true) {
                        Some(_) => Order::KillEverybody,
                        None => Order::Nothing,
                    },
                    Some(StupidEffect::Charge) => match nearest(&work.st, g, false) {
                        Some(t) => Order::Charge(t),
                        None => Order::Nothing,
                    },
                    Some(StupidEffect::Awol) => Order::Awol,
                    // "If there is nothing to hide behind, the model will
                    // panic and go AWOL": hiding is staying in cover.
                    Some(StupidEffect::Hide) => {
                        if super::rules::cover_of(&work.st, g, None).0 == Cover::Open {
                            Order::Awol
                        } else {
                            Order::Nothing
                        }
                    }
                    // War, what is it good for; and a chain of contagion
                    // that ran out of models (assumed: nothing).
                    Some(StupidEffect::War | StupidEffect::Contagious) | None => Order::Nothing,
                };
                work.emit(E::Ordered {
                    group: g,
                    order,
                    by: Module::Stupidity,
                });
            }
        }
        if work.st.advanced.on(Module::Fear)
            && !work.st.advanced.fearless.contains(&g)
            && work.st.advanced.order(g).is_none()
            && let Some(of) = fear_source(&work.st, g)
        {
            let roll = rng.d6()?;
            let (effect, _) = tables.fear(roll);
            work.emit(E::FearTest {
                group: g,
                of,
                roll,
                effect,
            });
            let order = match effect {
                FearEffect::Brave => None,
                FearEffect::Freeze => Some(Order::Nothing),
                FearEffect::RunAway => Some(Order::RunFrom(of)),
                FearEffect::Insane => Some(Order::Charge(of)),
            };
            if let Some(order) = order {
                work.emit(E::Ordered {
                    group: g,
                    order,
                    by: Module::Fear,
                });
            }
        }
        // "Impetuous models always move their maximum move rate ... towards
        // the nearest enemy model they can see. At the earliest opportunity
        // impetuous models will assault or fire at their target": a group
        // with shooting dice fires at it if its move does not reach it (A13).
        if work.st.advanced.on(Module::Impetuous)
            && !work.st.real_table
            && work.st.advanced.order(g).is_none()
            && work.st.group(g).locked.is_none()
            && impetuous(&work.st, g)
            && let Some(t) = nearest_seen_enemy(&work.st, g)
        {
            let order = if super::wait::shooting_dice(&work.st, g) > 0 {
                Order::ChargeOrFire(t)
            } else {
                Order::Charge(t)
            };
            work.emit(E::Ordered {
                group: g,
                order,
                by: Module::Impetuous,
            });
        }
    }
    work.emit(E::ChecksMade);
    out.extend(work.into_events());
    Ok(())
}

// ---------------------------------------------------------------------------
// Orders

/// On screen, the group whose order the game carries out now: a shot or a
/// move it must make (at a real table the players make it).
pub fn order_due(s: &InvasionState) -> Option<GroupId> {
    if s.real_table || !s.pending.is_empty() {
        return None;
    }
    s.advanced
        .orders
        .iter()
        .find(|(g, o, _)| *o != Order::Nothing && s.group(*g).on_table())
        .map(|(g, _, _)| *g)
}

/// A point `step` hundredths of an inch from `from` towards `to`.
pub(super) fn towards(from: Point, to: Point, step: i32) -> Point {
    let (dx, dy) = (f64::from(to.x - from.x), f64::from(to.y - from.y));
    let d = (dx * dx + dy * dy).sqrt();
    if d < 1.0 {
        return from;
    }
    let k = f64::from(step) / d;
    Point::new(
        from.x + (dx * k).round() as i32,
        from.y + (dy * k).round() as i32,
    )
}

/// Carry out `g`'s order on screen: the shot at the nearest group it sees,
/// or the move, made as the group's own (it costs none of the card's
/// actions: the group is out of its player's hands). What it cannot do is
/// said in the log.
pub fn carry_order(
    s: &InvasionState,
    g: GroupId,
    rng: &mut Randomness,
    out: &mut Vec<E>,
) -> Result<(), RuleError> {
    let Some(order) = s.advanced.order(g) else {
        return Ok(());
    };
    let seat = s.group(g).seat;
    // The order's action is free: decided as if nothing were spent.
    let mut free = s.clone();
    free.spent.clear();
    let group = s.group(g);
    let mine = group.points();
    let lead = mine.first().copied();
    let moves = super::rules::group_move(s, g);
    // A shot after the move that could not be made: said in the log, the
    // move stands.
    let mut unfired: Option<String> = None;
    let result: Result<Vec<E>, RuleError> = match (order, lead) {
        (Order::Nothing, _) => Ok(Vec::new()),
        (_, None) => Err(illegal("Advanced", "it has no position on the table")),
        (Order::KillEverybody, Some(_)) => {
            // "fires at another model closest to him, regardless of whether
            // it is friend or foe": the nearest group it can see.
            let mut seen: Vec<(i32, GroupId)> = (0..s.groups.len() as GroupId)
                .filter(|&o| o != g && s.group(o).on_table() && s.group(o).placed())
                .filter(|&o| super::fire::sees_from(s, g, &mine, o))
                .map(|o| (distance(&mine, &s.group(o).points()), o))
                .collect();
            seen.sort_unstable();
            match seen.first() {
                Some(&(_, t)) => super::actions::shoot(
                    &free,
                    seat,
                    &[g],
                    t,
                    &super::rules::Declared::default(),
                    rng,
                ),
                None => Err(illegal("Advanced", "it sees no group to fire at")),
            }
        }
        (Order::Charge(t), Some(from)) => charge(&free, seat, g, t, from, moves),
        (Order::ChargeOrFire(t), Some(from)) => match charge(&free, seat, g, t, from, moves) {
            Err(e) => Err(e),
            Ok(moved) => {
                // Where the move ends: in contact it assaults (the melee is
                // resolved as any other); if not, it fires at its target
                // from there, a free shot as the move was.
                let mut after = free.clone();
                for e in &moved {
                    super::state::apply(&mut after, e);
                }
                after.spent.clear();
                let mut events = moved;
                if after.group(g).locked.is_none() {
                    if !after.pending.is_empty() {
                        unfired = Some(format!(
                            "it moved, but does not fire at {}: the rules wait for another answer first",
                            group_name(s, t)
                        ));
                    } else {
                        match super::actions::shoot(
                            &after,
                            seat,
                            &[g],
                            t,
                            &super::rules::Declared::default(),
                            rng,
                        ) {
                            Ok(shot) => events.extend(shot),
                            Err(e) if matches!(e.kind, crate::game::RuleErrorKind::MoreDice) => {
                                return Err(e);
                            }
                            Err(e) => {
                                unfired = Some(format!(
                                    "it moved, but cannot fire at {}: {}",
                                    group_name(s, t),
                                    e.message
                                ))
                            }
                        }
                    }
                }
                Ok(events)
            }
        },
        (Order::RunFrom(t), Some(from)) => {
            let centre = super::table::centre(&s.group(t).points());
            let away = Point::new(2 * from.x - centre.x, 2 * from.y - centre.y);
            let mut to = towards(from, away, moves);
            // It stops at the table's edge (assumed).
            let half = BASE / 2;
            to.x = to.x.clamp(half, s.scenario.width - half);
            to.y = to.y.clamp(half, s.scenario.height - half);
            // "If the afflicted model/s has to turn first, then this is all
            // it/ they can do": only a ground vehicle has a facing; one not
            // facing away turns on the spot to face away, and that is all.
            let away = super::rules::bearing(from, to);
            match group.facing {
                Some(f)
                    if to != from
                        && super::rules::angle_between(f64::from(f), away)
                            > super::rules::FACING_TOLERANCE =>
                {
                    super::actions::move_group(
                        &free,
                        seat,
                        g,
                        Some(from),
                        None,
                        Some(super::rules::facing_towards(from, to)),
                        &super::rules::Declared::default(),
                    )
                }
                _ => free_move(&free, seat, g, to),
            }
        }
        (Order::Awol, Some(from)) => {
            let (w, h) = (s.scenario.width, s.scenario.height);
            let edges = [
                (from.x, Point::new(0, from.y)),
                (w - from.x, Point::new(w, from.y)),
                (from.y, Point::new(from.x, 0)),
                (h - from.y, Point::new(from.x, h)),
            ];
            let (d, edge) = edges
                .into_iter()
                .min_by_key(|(d, _)| *d)
                .expect("four edges");
            if d <= moves {
                // "If it reaches the table edge it will keep on running, and
                // never be seen again."
                Ok(vec![E::Fled { group: g }])
            } else {
                free_move(&free, seat, g, towards(from, edge, moves))
            }
        }
    };
    match result {
        Ok(events) => {
            out.extend(events.into_iter().filter(|e| !matches!(e, E::Spent { .. })));
            out.push(E::OrderCarried {
                group: g,
                note: unfired,
            });
        }
        // Dice typed in that ran out are the players' to give, not a reason.
        Err(e) if matches!(e.kind, crate::game::RuleErrorKind::MoreDice) => return Err(e),
        Err(e) => out.push(E::OrderCarried {
            group: g,
            note: Some(e.message),
        }),
    }
    Ok(())
}

/// A charge: the full move straight at the nearest figure of `t`, stopping
/// in base contact (which locks the two in hand-to-hand).
fn charge(
    s: &InvasionState,
    seat: u8,
    g: GroupId,
    t: GroupId,
    from: Point,
    moves: i32,
) -> Result<Vec<E>, RuleError> {
    let target = s.group(t).points();
    match target.iter().min_by_key(|q| from.distance(**q)) {
        None => Err(illegal(
            "Advanced",
            format!("{} is no longer on the table", group_name(s, t)),
        )),
        Some(&q) => {
            let step = moves.min((from.distance(q) - BASE).max(0));
            free_move(s, seat, g, towards(from, q, step))
        }
    }
}

fn free_move(s: &InvasionState, seat: u8, g: GroupId, to: Point) -> Result<Vec<E>, RuleError> {
    super::actions::move_group(
        s,
        seat,
        g,
        Some(to),
        None,
        None,
        &super::rules::Declared::default(),
    )
}

/// What an order makes a group do, in words.
pub fn order_words(s: &InvasionState, o: Order) -> String {
    let name = |g: GroupId| {
        if (g as usize) < s.groups.len() {
            group_name(s, g)
        } else {
            format!("group {g}")
        }
    };
    match o {
        Order::Nothing => "does nothing on this card".into(),
        Order::KillEverybody => "fires at the nearest group it sees, friend or foe".into(),
        Order::Charge(t) => format!(
            "moves its full move at {} and assaults it if it gets there",
            name(t)
        ),
        Order::Awol => "runs for the nearest table edge and off it".into(),
        Order::RunFrom(t) => format!("runs its full move away from {}", name(t)),
        Order::ChargeOrFire(t) => format!(
            "moves its full move at {} and assaults it if it gets there, or fires at it if not",
            name(t)
        ),
    }
}

/// A command of the card's player for a group under an order is refused;
/// at a real table the order's own action is the group's only one (the
/// players move the miniatures as the log says).
pub fn check_command(s: &InvasionState, command: &InvasionCommand) -> Result<(), RuleError> {
    use InvasionCommand as C;
    let groups: Vec<GroupId> = match command {
        C::Move { group, .. }
        | C::Special { group, .. }
        | C::Study { group }
        | C::Burrow { group, .. }
        | C::Tunnel { group, .. }
        | C::Surface { group, .. }
        | C::Deploy { group, .. }
        | C::CloseHole { group, .. }
        | C::Detonate { group, .. }
        | C::TakeOff { group }
        | C::Fly { group, .. }
        | C::Land { group, .. }
        | C::Descend { group }
        | C::Sewer { group, .. }
        | C::Climb { group }
        | C::Board { group, .. }
        | C::Try { group, .. } => vec![*group],
        C::Shoot { shooters, .. } => shooters.clone(),
        _ => Vec::new(),
    };
    for g in groups {
        let Some((_, order, by)) = s.advanced.orders.iter().find(|(o, _, _)| *o == g) else {
            continue;
        };
        let allowed = s.real_table
            && match order {
                Order::Nothing => false,
                Order::KillEverybody => {
                    matches!(command, C::Shoot { shooters, .. } if shooters.len() == 1)
                }
                Order::Charge(_) | Order::Awol | Order::RunFrom(_) => {
                    matches!(command, C::Move { .. })
                }
                Order::ChargeOrFire(_) => {
                    matches!(command, C::Move { .. })
                        || matches!(command, C::Shoot { shooters, .. } if shooters.len() == 1)
                }
            };
        if !allowed {
            return Err(illegal(
                by.name(),
                format!(
                    "{} is out of its player's hands on this card: it {}",
                    group_name(s, g),
                    order_words(s, *order)
                ),
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Grapple and Impetuous

/// The best grapple score of a group's living models.
fn grapple_score(s: &InvasionState, g: GroupId) -> Option<u8> {
    let group = s.group(g);
    group
        .alive()
        .filter_map(|m| s.model_type(group.seat, &m.kind)?.profile.grapple)
        .max()
}

/// At a melee's aftermath: the grappler's side holds its victims when the
/// card is its own and it made more kills than it took.
pub fn grapple_holds(s: &InvasionState, melee: u16, seats: &[u8], groups: &[GroupId]) -> Option<E> {
    if !s.advanced.on(Module::Grapple) || seats.len() != 2 {
        return None;
    }
    // Melees are resolved when the card that ended is done: its faction's
    // turn is the card last played.
    let card_seat = s.discard.last().and_then(|c| c.seat)?;
    let &by = groups
        .iter()
        .find(|&&g| s.group(g).seat == card_seat && grapple_score(s, g).is_some())?;
    let score = grapple_score(s, by)?;
    let other = seats.iter().copied().find(|&x| x != card_seat)?;
    let kills = |seat: u8| {
        s.advanced
            .melee_kills
            .iter()
            .filter(|(m, x, _)| *m == melee && *x == seat)
            .map(|(_, _, k)| *k)
            .sum::<u32>()
    };
    let (mine, theirs) = (kills(card_seat), kills(other));
    let victims_left = groups.iter().any(|&g| s.group(g).seat == other);
    (mine > theirs && victims_left).then_some(E::Grappled {
        melee,
        by,
        score,
        kills: (mine, theirs),
    })
}

/// A group held by a grappler: the melee and the score to escape.
pub fn held(s: &InvasionState, g: GroupId) -> Option<(u16, u8)> {
    let m = s.group(g).locked?;
    s.advanced
        .grapples
        .iter()
        .find(|(x, by, _)| *x == m && s.group(*by).seat != s.group(g).seat)
        .map(|(x, _, score)| (*x, *score))
}

/// An impetuous group: a living impetuous model in it.
pub fn impetuous(s: &InvasionState, g: GroupId) -> bool {
    let group = s.group(g);
    group.alive().any(|m| {
        s.model_type(group.seat, &m.kind)
            .is_some_and(|t| t.profile.impetuous)
    })
}

/// The nearest enemy group an impetuous group sees.
fn nearest_seen_enemy(s: &InvasionState, g: GroupId) -> Option<GroupId> {
    let group = s.group(g);
    let mine = group.points();
    if mine.is_empty() {
        return None;
    }
    (0..s.groups.len() as GroupId)
        .filter(|&o| s.group(o).seat != group.seat && s.group(o).on_table() && s.group(o).placed())
        .filter(|&o| super::fire::sees_out_from(s, g, &mine, o))
        .min_by_key(|&o| (distance(&mine, &s.group(o).points()), o))
}
