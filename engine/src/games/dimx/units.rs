//! Counters (A.2): Marine units, Kay'otz units, ADM markers and Mission Goal
//! chits, with the counter sheet that gives their printed values.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::map::Hex;
use super::text::{TextError, lines};

/// The six Marine unit types printed on the counters (A.2 a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarineKind {
    Squad,
    Scout,
    SpecialOps,
    HeavyWeapons,
    Hq,
    Logistics,
}

impl MarineKind {
    /// Every Marine unit type.
    pub const ALL: [MarineKind; 6] = [
        MarineKind::Squad,
        MarineKind::Scout,
        MarineKind::SpecialOps,
        MarineKind::HeavyWeapons,
        MarineKind::Hq,
        MarineKind::Logistics,
    ];

    /// The key used in data and scenario files.
    pub fn key(self) -> &'static str {
        match self {
            MarineKind::Squad => "squad",
            MarineKind::Scout => "scout",
            MarineKind::SpecialOps => "special_ops",
            MarineKind::HeavyWeapons => "heavy_weapons",
            MarineKind::Hq => "hq",
            MarineKind::Logistics => "logistics",
        }
    }

    /// The type as printed on the counter.
    pub fn name(self) -> &'static str {
        match self {
            MarineKind::Squad => "Marine Squad",
            MarineKind::Scout => "Scout",
            MarineKind::SpecialOps => "Special Ops",
            MarineKind::HeavyWeapons => "Heavy Weapons",
            MarineKind::Hq => "HQ",
            MarineKind::Logistics => "Logistics",
        }
    }

    /// The type with this key.
    pub fn from_key(k: &str) -> Option<MarineKind> {
        MarineKind::ALL.into_iter().find(|m| m.key() == k)
    }
}

/// What a side of a Marine counter fires with (A.2 a, D.6, D.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    /// Plasma guns: CF dice at any range the unit can see.
    Guns(u8),
    /// Pistols ("3A"): CF dice at an adjacent alien only.
    Pistol(u8),
    /// The Special Ops BUMP gun.
    Bump,
    /// Cannot fire (a Logistics unit out of ammo).
    Unarmed,
}

impl Weapon {
    /// As printed: `4`, `3A`, `BUMP`, `-`.
    pub fn label(self) -> String {
        match self {
            Weapon::Guns(n) => n.to_string(),
            Weapon::Pistol(n) => format!("{n}A"),
            Weapon::Bump => "BUMP".into(),
            Weapon::Unarmed => "-".into(),
        }
    }

    /// Read a printed weapon: `4`, `3A`, `BUMP`, `-`.
    pub fn parse(w: &str) -> Option<Weapon> {
        match w {
            "BUMP" | "bump" => Some(Weapon::Bump),
            "-" => Some(Weapon::Unarmed),
            _ => {
                if let Some(n) = w.strip_suffix('A') {
                    n.parse().ok().filter(|&n: &u8| n <= 20).map(Weapon::Pistol)
                } else {
                    w.parse().ok().filter(|&n: &u8| n <= 20).map(Weapon::Guns)
                }
            }
        }
    }
}

/// A Marine unit's markers (D.10): a unit without a Paralyzed marker is Active.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    Fine,
    Stunned,
    Paralyzed,
}

/// Where a Marine unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// On the map in this hex.
    Map(Hex),
    /// At the map edge: may enter the map through an entry hex this turn.
    Waiting,
    /// Arrives at the map edge at the start of this turn (scenario).
    Arrives(u8),
    /// In the pool an HQ may request reinforcements from (E.6).
    Pool,
    /// Left the map through an exit hex the scenario allows (C.4).
    Exited,
    /// Removed from the game (not back in the pool, E.6).
    Eliminated,
}

/// A Marine unit and its state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marine {
    /// Counter id, e.g. `SC1`.
    pub id: crate::Ident,
    pub kind: MarineKind,
    pub mp: u8,
    pub dn: u8,
    /// Full-ammo side and Out of Ammo side weapons.
    pub front: Weapon,
    pub back: Weapon,
    pub jump_pack: bool,
    pub place: Place,
    pub out_of_ammo: bool,
    pub condition: Condition,
    /// Turned 45 degrees: has acted this Marine Action Phase (B.1).
    pub acted: bool,
}

impl Marine {
    /// The weapon on the side now face up.
    pub fn weapon(&self) -> Weapon {
        if self.out_of_ammo {
            self.back
        } else {
            self.front
        }
    }

    /// Active: no Paralyzed marker (A.2 c). Only units on the map count.
    pub fn active(&self) -> bool {
        self.on_map().is_some() && self.condition != Condition::Paralyzed
    }

    /// The hex it stands in, if on the map.
    pub fn on_map(&self) -> Option<Hex> {
        match self.place {
            Place::Map(h) => Some(h),
            _ => None,
        }
    }

    /// e.g. "Scout SC1".
    pub fn title(&self) -> String {
        format!("{} {}", self.kind.name(), self.id)
    }
}

/// What a Kay'otz counter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlienKind {
    Warrior,
    /// A #7 unit (D.7, G.3 a).
    Overlord,
    /// Never moves, never fires, cannot be targeted (A.2 b note).
    Monolith,
}

/// Where a Kay'otz unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlienPlace {
    Map(Hex),
    /// In the Kay'otz unit cup (B).
    Cup,
    /// Not in this battle.
    Aside,
    /// Eliminated: never back in the cup (D.4).
    Eliminated,
}

/// A Kay'otz unit and its state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alien {
    /// Counter id, e.g. `K10`.
    pub id: crate::Ident,
    /// The printed ID number (0 for the Monolith).
    pub number: u8,
    pub kind: AlienKind,
    pub cf: u8,
    /// Printed DN, 3 or 4 (A.2 b).
    pub dn: u8,
    pub place: AlienPlace,
    /// On its Dormant side (the Monolith's Inactive side is worked out from
    /// the Marines next to it, not stored).
    pub dormant: bool,
    /// The ADM marker under it, which is its DN from now on (D.5).
    pub adm: Option<u8>,
}

impl Alien {
    /// The hex it stands in, if on the map.
    pub fn on_map(&self) -> Option<Hex> {
        match self.place {
            AlienPlace::Map(h) => Some(h),
            _ => None,
        }
    }

    /// The DN hits must beat: the ADM marker's if it has one (D.4, D.5).
    pub fn defense(&self) -> u8 {
        self.adm.unwrap_or(self.dn)
    }

    /// e.g. "Kay'otz #10", "Overlord #7", "the Monolith".
    pub fn title(&self) -> String {
        match self.kind {
            AlienKind::Warrior => format!("Kay'otz #{}", self.number),
            AlienKind::Overlord => format!("Overlord #{}", self.number),
            AlienKind::Monolith => "the Monolith".into(),
        }
    }
}

/// The six Kay'otz Mission Goal chits (G.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    Portal,
    Enslave,
    Decapitate,
    Pillage,
    Possess,
    Summoning,
    /// A chit not yet looked at, as a player's view shows it.
    FaceDown,
}

impl Goal {
    /// The six Mission Goals.
    pub const ALL: [Goal; 6] = [
        Goal::Portal,
        Goal::Enslave,
        Goal::Decapitate,
        Goal::Pillage,
        Goal::Possess,
        Goal::Summoning,
    ];

    /// The key used in scenario and data files.
    pub fn key(self) -> &'static str {
        match self {
            Goal::Portal => "portal",
            Goal::Enslave => "enslave",
            Goal::Decapitate => "decapitate",
            Goal::Pillage => "pillage",
            Goal::Possess => "possess",
            Goal::Summoning => "summoning",
            Goal::FaceDown => "face_down",
        }
    }

    /// The chit's name as printed.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Portal => "Inter-Dimensional Portal",
            Goal::Enslave => "Enslave",
            Goal::Decapitate => "Decapitate Command Control",
            Goal::Pillage => "Pillage",
            Goal::Possess => "Possess Sleeper-Agent",
            Goal::Summoning => "Summoning",
            Goal::FaceDown => "a face-down Mission Goal chit",
        }
    }

    /// The goal with this key.
    pub fn from_key(k: &str) -> Option<Goal> {
        Goal::ALL.into_iter().find(|g| g.key() == k)
    }
}

/// Printed values of one Marine unit type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarineType {
    pub kind: MarineKind,
    pub mp: u8,
    pub dn: u8,
    pub front: Weapon,
    pub back: Weapon,
    pub jump_pack: bool,
}

/// The counter sheet: unit types, the counters, ADM markers, Mission Goals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterSheet {
    pub types: Vec<MarineType>,
    /// Marine counters: id and type.
    pub marines: Vec<(String, MarineKind)>,
    /// Kay'otz counters (all start in the cup).
    pub aliens: Vec<Alien>,
    pub adm: Vec<u8>,
    pub goals: Vec<Goal>,
}

impl CounterSheet {
    /// The printed values of a unit type.
    pub fn marine_type(&self, kind: MarineKind) -> Option<&MarineType> {
        self.types.iter().find(|t| t.kind == kind)
    }

    /// A fresh Marine counter of this type with this id.
    pub fn new_marine(&self, id: &str, kind: MarineKind) -> Option<Marine> {
        let t = self.marine_type(kind)?;
        Some(Marine {
            id: id.into(),
            kind,
            mp: t.mp,
            dn: t.dn,
            front: t.front,
            back: t.back,
            jump_pack: t.jump_pack,
            place: Place::Pool,
            out_of_ammo: false,
            condition: Condition::Fine,
            acted: false,
        })
    }

    /// Parse `counters.txt` (format in RULES.md, "Counter sheet").
    pub fn parse(text: &str) -> Result<CounterSheet, TextError> {
        let mut sheet = CounterSheet {
            types: Vec::new(),
            marines: Vec::new(),
            aliens: Vec::new(),
            adm: Vec::new(),
            goals: Vec::new(),
        };
        for l in lines(text)? {
            match l.words[0].as_str() {
                "type" => {
                    let k = l.word(1, "a unit type")?;
                    let kind = MarineKind::from_key(k).ok_or_else(|| {
                        l.err(format!("unknown Marine unit type '{k}' (one of squad, scout, special_ops, heavy_weapons, hq, logistics)"))
                    })?;
                    let mut t = MarineType {
                        kind,
                        mp: 0,
                        dn: 0,
                        front: Weapon::Unarmed,
                        back: Weapon::Unarmed,
                        jump_pack: false,
                    };
                    let mut i = 2;
                    while i < l.words.len() {
                        match l.words[i].as_str() {
                            "mp" => t.mp = l.number(i + 1, "MP", 0, 20)? as u8,
                            "dn" => t.dn = l.number(i + 1, "DN", 0, 6)? as u8,
                            "cf" | "back" => {
                                let w = l.word(
                                    i + 1,
                                    "a weapon (a CF like 4, pistols like 3A, BUMP, or -)",
                                )?;
                                let wp = Weapon::parse(w).ok_or_else(|| l.err(format!("'{w}' is not a weapon (a CF like 4, pistols like 3A, BUMP, or -)")))?;
                                if l.words[i] == "cf" {
                                    t.front = wp
                                } else {
                                    t.back = wp
                                }
                            }
                            "jp" => {
                                t.jump_pack = true;
                                i += 1;
                                continue;
                            }
                            other => {
                                return Err(l.err(format!(
                                    "unknown unit value '{other}' (mp, cf, dn, back, jp)"
                                )));
                            }
                        }
                        i += 2;
                    }
                    sheet.types.retain(|x| x.kind != kind);
                    sheet.types.push(t);
                }
                "marine" => {
                    let id = l.word(1, "a counter id")?;
                    let k = l.word(2, "a unit type")?;
                    let kind = MarineKind::from_key(k)
                        .ok_or_else(|| l.err(format!("unknown Marine unit type '{k}'")))?;
                    l.at_most(3)?;
                    sheet.marines.push((id.to_owned(), kind));
                }
                "kayotz" | "monolith" => {
                    let id = l.word(1, "a counter id")?.to_owned();
                    let mut a = Alien {
                        id: id.into(),
                        number: 0,
                        kind: AlienKind::Warrior,
                        cf: 0,
                        dn: 3,
                        place: AlienPlace::Cup,
                        dormant: false,
                        adm: None,
                    };
                    let mut i = 2;
                    if l.words[0] == "monolith" {
                        a.kind = AlienKind::Monolith;
                        a.dn = 0;
                    } else {
                        a.number = l.number(2, "ID number", 1, 99)? as u8;
                        i = 3;
                    }
                    while i < l.words.len() {
                        match l.words[i].as_str() {
                            "overlord" => {
                                a.kind = AlienKind::Overlord;
                                i += 1;
                                continue;
                            }
                            "cf" => a.cf = l.number(i + 1, "CF", 0, 20)? as u8,
                            "dn" => a.dn = l.number(i + 1, "DN", 1, 6)? as u8,
                            other => {
                                return Err(l.err(format!(
                                    "unknown Kay'otz value '{other}' (cf, dn, overlord)"
                                )));
                            }
                        }
                        i += 2;
                    }
                    sheet.aliens.push(a);
                }
                "adm" => {
                    for i in 1..l.words.len() {
                        sheet.adm.push(l.number(i, "ADM value", 1, 6)? as u8);
                    }
                }
                "goals" => {
                    for w in &l.words[1..] {
                        sheet.goals.push(Goal::from_key(w).ok_or_else(|| l.err(format!("unknown Mission Goal '{w}' (portal, enslave, decapitate, pillage, possess, summoning)")))?);
                    }
                }
                other => return Err(l.err(format!("unknown counter sheet statement '{other}'"))),
            }
        }
        Ok(sheet)
    }
}

/// The counter sheet compiled in from `data/dimx/counters.txt`.
pub fn sheet() -> &'static CounterSheet {
    static SHEET: OnceLock<CounterSheet> = OnceLock::new();
    // Invariant: the compiled-in file is checked by the tests below.
    SHEET.get_or_init(|| {
        CounterSheet::parse(include_str!("../../../data/dimx/counters.txt"))
            .expect("counters.txt parses")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a2_counter_sheet_has_every_type_ten_adm_and_six_goals() {
        let s = sheet();
        for k in MarineKind::ALL {
            assert!(s.marine_type(k).is_some(), "{k:?}");
        }
        assert_eq!(s.adm.len(), 10, "B: ten ADM markers");
        assert_eq!(s.goals.len(), 6, "B: six Mission Goal chits");
        let scout = s.marine_type(MarineKind::Scout).unwrap();
        assert_eq!(
            (scout.mp, scout.front),
            (4, Weapon::Guns(3)),
            "movement and combat examples"
        );
        assert!(scout.jump_pack && s.marine_type(MarineKind::SpecialOps).unwrap().jump_pack);
        assert_eq!(
            s.marine_type(MarineKind::Logistics).unwrap().front,
            Weapon::Pistol(3),
            "D.8: pistols on the front"
        );
        assert_eq!(
            s.marine_type(MarineKind::Logistics).unwrap().back,
            Weapon::Unarmed
        );
        for t in &s.types {
            if t.kind != MarineKind::Logistics {
                assert_eq!(t.back, Weapon::Pistol(3), "D.8: 3A pistols on the back");
            }
        }
        for a in &s.aliens {
            if a.kind != AlienKind::Monolith {
                assert!(a.dn == 3 || a.dn == 4, "A.2 b: DN 3 or 4");
            }
            if a.number == 7 {
                assert_eq!(a.kind, AlienKind::Overlord, "D.7: the Overlord is #7");
            }
        }
        assert!(s.aliens.iter().any(|a| a.kind == AlienKind::Monolith));
    }

    #[test]
    fn sheet_errors_name_the_line() {
        let e = CounterSheet::parse("adm 1 2\ntype robot mp 4\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("unknown Marine unit type 'robot'"));
    }
}
