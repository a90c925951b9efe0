//! The components of Night of the Saucers as data: six line-based files in
//! `engine/data/saucers/`, compiled in and replaceable by a player's own
//! (the config's `files`, keyed by file name). The formats are written at
//! the top of each file; the words are split by [`crate::games::words`].
//! A bad file gives a [`DataError`] naming the file and the line, never a
//! panic.
//!
//! - `tiles.txt`: the 36 building tiles (supply colour, ambush, the school).
//! - `humans.txt`: the four gangs and their Human I.D. cards.
//! - `cards.txt`: the Human deck (Event, Instant, Attack and Move cards).
//! - `aliens.txt`: the Alien deck, the aliens' hit points and the decks by
//!   difficulty.
//! - `missions.txt`: the Task Force missions.
//! - `tokens.txt`: the supply tokens and the die.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::games::words::words;

/// The board is 6 by 6.
pub const SIDE: u8 = 6;
/// Tiles on the board.
pub const TILES: usize = 36;

/// The shipped files: name and text.
pub const FILES: &[(&str, &str)] = &[
    ("tiles", include_str!("../../../data/saucers/tiles.txt")),
    ("humans", include_str!("../../../data/saucers/humans.txt")),
    ("cards", include_str!("../../../data/saucers/cards.txt")),
    ("aliens", include_str!("../../../data/saucers/aliens.txt")),
    (
        "missions",
        include_str!("../../../data/saucers/missions.txt"),
    ),
    ("tokens", include_str!("../../../data/saucers/tokens.txt")),
];

/// A problem in one of the data files.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{file}.txt line {line}: {message}")]
pub struct DataError {
    pub file: String,
    /// 1-based; 0 when the problem is the file as a whole.
    pub line: usize,
    pub message: String,
}

/// A token kind: the four supplies and the wild alien kill token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Food,
    Ammo,
    Fuel,
    Scrap,
    Alien,
}

impl Kind {
    pub const ALL: [Kind; 5] = [Kind::Food, Kind::Ammo, Kind::Fuel, Kind::Scrap, Kind::Alien];
    pub const SUPPLIES: [Kind; 4] = [Kind::Food, Kind::Ammo, Kind::Fuel, Kind::Scrap];

    pub fn word(self) -> &'static str {
        match self {
            Kind::Food => "food",
            Kind::Ammo => "ammo",
            Kind::Fuel => "fuel",
            Kind::Scrap => "scrap",
            Kind::Alien => "alien",
        }
    }

    pub fn from_word(w: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.word() == w)
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// Tokens of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    pub food: u16,
    pub ammo: u16,
    pub fuel: u16,
    pub scrap: u16,
    pub alien: u16,
}

impl Tokens {
    pub fn get(&self, k: Kind) -> u16 {
        match k {
            Kind::Food => self.food,
            Kind::Ammo => self.ammo,
            Kind::Fuel => self.fuel,
            Kind::Scrap => self.scrap,
            Kind::Alien => self.alien,
        }
    }

    pub fn get_mut(&mut self, k: Kind) -> &mut u16 {
        match k {
            Kind::Food => &mut self.food,
            Kind::Ammo => &mut self.ammo,
            Kind::Fuel => &mut self.fuel,
            Kind::Scrap => &mut self.scrap,
            Kind::Alien => &mut self.alien,
        }
    }

    pub fn one(k: Kind, n: u16) -> Self {
        let mut t = Self::default();
        *t.get_mut(k) = n;
        t
    }

    pub fn total(&self) -> u32 {
        Kind::ALL.iter().map(|&k| u32::from(self.get(k))).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    pub fn add(&mut self, o: &Tokens) {
        for k in Kind::ALL {
            *self.get_mut(k) = self.get(k).saturating_add(o.get(k));
        }
    }

    /// Take `o` away (saturating).
    pub fn sub(&mut self, o: &Tokens) {
        for k in Kind::ALL {
            *self.get_mut(k) = self.get(k).saturating_sub(o.get(k));
        }
    }

    /// Whether every count of `o` is held.
    pub fn covers(&self, o: &Tokens) -> bool {
        Kind::ALL.iter().all(|&k| self.get(k) >= o.get(k))
    }

    /// What paying `cost` out of `self` takes: each supply of its own kind
    /// first, the shortfall in wild alien tokens; `None` if it cannot be paid.
    pub fn payment(&self, cost: &Tokens) -> Option<Tokens> {
        let mut paid = Tokens::default();
        let mut wild_needed = cost.alien;
        for k in Kind::SUPPLIES {
            let own = self.get(k).min(cost.get(k));
            *paid.get_mut(k) = own;
            wild_needed += cost.get(k) - own;
        }
        (self.alien >= wild_needed).then(|| {
            paid.alien = wild_needed;
            paid
        })
    }

    /// In words: "2 Food, 1 Ammo", or "nothing".
    pub fn words(&self) -> String {
        let parts: Vec<String> = Kind::ALL
            .iter()
            .filter(|&&k| self.get(k) > 0)
            .map(|&k| format!("{} {}", self.get(k), kind_name(k)))
            .collect();
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }
}

/// A token kind's name in the log.
pub fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Food => "Food",
        Kind::Ammo => "Ammo",
        Kind::Fuel => "Fuel",
        Kind::Scrap => "Scrap",
        Kind::Alien => "alien token",
    }
}

/// A compass direction on the board's edges (north is row 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    N,
    E,
    S,
    W,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    pub fn from_word(w: &str) -> Option<Dir> {
        match w.to_ascii_lowercase().as_str() {
            "n" | "north" => Some(Dir::N),
            "e" | "east" => Some(Dir::E),
            "s" | "south" => Some(Dir::S),
            "w" | "west" => Some(Dir::W),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "north",
            Dir::E => "east",
            Dir::S => "south",
            Dir::W => "west",
        }
    }

    /// Column and row steps.
    pub fn delta(self) -> (i8, i8) {
        match self {
            Dir::N => (0, -1),
            Dir::E => (1, 0),
            Dir::S => (0, 1),
            Dir::W => (-1, 0),
        }
    }
}

/// A tile's index on the board (row * 6 + column).
pub type Pos = u8;

pub fn pos(col: u8, row: u8) -> Pos {
    row * SIDE + col
}

pub fn col_row(p: Pos) -> (u8, u8) {
    (p % SIDE, p / SIDE)
}

/// "C6" for column C, row 6.
pub fn coord(p: Pos) -> String {
    let (c, r) = col_row(p);
    format!("{}{}", (b'A' + c) as char, r + 1)
}

/// "C6" (or "c6") to a position.
pub fn parse_coord(w: &str) -> Option<Pos> {
    let mut ch = w.chars();
    let c = ch.next()?.to_ascii_uppercase();
    let r: u8 = ch.as_str().parse().ok()?;
    let col = (c as u32).checked_sub('A' as u32)? as u8;
    (col < SIDE && (1..=SIDE).contains(&r)).then(|| pos(col, r - 1))
}

/// A tile in a command: its number, or in JSON (and any human-readable
/// form) also its coordinates as the text names tiles (`"C4"`). Stored
/// entries (postcard) keep the number, so the layout does not change.
pub fn pos_de<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Pos, D::Error> {
    use serde::Deserialize;
    if !d.is_human_readable() {
        return Pos::deserialize(d);
    }
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumberOrName {
        Number(Pos),
        Name(String),
    }
    match NumberOrName::deserialize(d)? {
        NumberOrName::Number(n) if (n as usize) < TILES => Ok(n),
        NumberOrName::Number(n) => Err(serde::de::Error::custom(format!(
            "tile {n} is off the board (0 to {}, or A1 to F6)",
            TILES - 1
        ))),
        NumberOrName::Name(w) => parse_coord(&w)
            .ok_or_else(|| serde::de::Error::custom(format!("'{w}' is not a tile from A1 to F6"))),
    }
}

/// The tile `steps` from `p`, if on the board (the board does not wrap).
pub fn step(p: Pos, dc: i8, dr: i8) -> Option<Pos> {
    let (c, r) = col_row(p);
    let (c, r) = (c as i8 + dc, r as i8 + dr);
    let side = SIDE as i8;
    ((0..side).contains(&c) && (0..side).contains(&r)).then(|| pos(c as u8, r as u8))
}

/// The kinds of alien.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlienKind {
    Scout,
    Probe,
    Commander,
    Saucer,
}

impl AlienKind {
    pub const ALL: [AlienKind; 4] = [
        AlienKind::Scout,
        AlienKind::Probe,
        AlienKind::Commander,
        AlienKind::Saucer,
    ];

    pub fn word(self) -> &'static str {
        match self {
            AlienKind::Scout => "scout",
            AlienKind::Probe => "probe",
            AlienKind::Commander => "commander",
            AlienKind::Saucer => "saucer",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AlienKind::Scout => "Scout",
            AlienKind::Probe => "Probe",
            AlienKind::Commander => "Commander",
            AlienKind::Saucer => "Saucer Strike",
        }
    }

    pub fn from_word(w: &str) -> Option<AlienKind> {
        AlienKind::ALL.into_iter().find(|k| k.word() == w)
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileDef {
    pub id: String,
    pub name: String,
    /// The supply colour of the searched side.
    pub supply: Option<Kind>,
    pub ambush: Option<AlienKind>,
    /// The high school with the red X, where the students start.
    pub school: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Fly Boyz: also move diagonally.
    ShortCut,
    /// Dirty Birds: one more die with melee weapons.
    FightDirty,
    /// Sewer Rats: an alien kill for 1 supply or 1 card.
    RatNest,
    /// Nine Lives: a student killed in combat lives on a dead alien face.
    Cpr,
}

impl Ability {
    pub fn name(self) -> &'static str {
        match self {
            Ability::ShortCut => "Short Cut",
            Ability::FightDirty => "Fight Dirty",
            Ability::RatNest => "Rat Nest",
            Ability::Cpr => "CPR",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GangDef {
    pub id: String,
    pub name: String,
    pub ability: Ability,
    pub colour: [u8; 3],
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HumanDef {
    pub id: String,
    pub name: String,
    pub gang: usize,
    pub moves: u8,
    pub attack: u8,
    pub hand: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackType {
    Melee,
    Short,
    Long,
    Explosive,
}

impl AttackType {
    pub fn name(self) -> &'static str {
        match self {
            AttackType::Melee => "Melee",
            AttackType::Short => "Short Range",
            AttackType::Long => "Long Range",
            AttackType::Explosive => "Explosive",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventEffect {
    /// An alien card is drawn and placed now.
    Alien,
    /// Every Scout and Commander moves one tile.
    Scouts(Dir),
    /// The drawing player loses one token of a kind.
    Lose(Kind),
    /// The drawing player gains tokens.
    Gain(Kind, u16),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InstantEffect {
    /// One student of any player moves up to N tiles, even off a tile
    /// holding an alien.
    Escape(u8),
    /// N hits on one alien (not a Saucer) on a tile with a student.
    Hit(u8),
    /// The player gains tokens.
    Gain(Kind, u16),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    Event(EventEffect),
    Instant {
        cost: Tokens,
        effect: InstantEffect,
    },
    Attack {
        ty: AttackType,
        dice: u8,
        cost: Tokens,
        /// Column and row offsets from the student that may be attacked.
        range: Vec<(i8, i8)>,
        air: bool,
    },
    Move {
        tiles: u8,
        cost: Tokens,
        escape: bool,
    },
}

/// One physical card of the Human deck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub kind: CardKind,
}

impl CardDef {
    pub fn cost(&self) -> Tokens {
        match &self.kind {
            CardKind::Event(_) => Tokens::default(),
            CardKind::Instant { cost, .. }
            | CardKind::Attack { cost, .. }
            | CardKind::Move { cost, .. } => *cost,
        }
    }

    pub fn is_event(&self) -> bool {
        matches!(self.kind, CardKind::Event(_))
    }

    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            CardKind::Event(_) => "Event",
            CardKind::Instant { .. } => "Instant",
            CardKind::Attack { .. } => "Attack",
            CardKind::Move { .. } => "Move",
        }
    }
}

/// One card of the Alien deck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlienCard {
    pub kind: AlienKind,
    pub at: Pos,
    pub dir: Option<Dir>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difficulty {
    pub level: u8,
    pub name: String,
    /// Cards of each alien kind, in [`AlienKind`] order.
    pub counts: [u8; 4],
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissionDef {
    pub id: String,
    pub name: String,
    /// The drop-off building (a tile definition index).
    pub tile: usize,
    pub cost: Tokens,
    pub reward_cards: u8,
    pub reward: Tokens,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenDef {
    pub kind: Kind,
    pub name: String,
    pub colour: [u8; 3],
    pub start: u16,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Face {
    pub hits: u8,
    pub name: String,
    pub dead: bool,
}

/// Every component of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Content {
    pub tiles: Vec<TileDef>,
    pub gangs: Vec<GangDef>,
    pub humans: Vec<HumanDef>,
    pub cards: Vec<CardDef>,
    pub aliens: Vec<AlienCard>,
    /// Hit points of each alien kind, in [`AlienKind`] order.
    pub life: [u8; 4],
    pub difficulties: Vec<Difficulty>,
    pub missions: Vec<MissionDef>,
    /// In [`Kind`] order.
    pub tokens: Vec<TokenDef>,
    /// Face 1 first.
    pub faces: Vec<Face>,
}

impl Content {
    /// The tile a player sees where `def` lies unsearched: its building side
    /// only (Setup.2, "building side face up"; review7 N8). Tiles whose
    /// buildings share a name show as the first of them, so the searched
    /// side (its supply or its ambush) is not told by which tile it is
    /// until the search turns it over.
    pub fn front(&self, def: u16) -> u16 {
        let Some(t) = self.tiles.get(def as usize) else {
            return def;
        };
        self.tiles
            .iter()
            .position(|o| o.name == t.name)
            .map_or(def, |i| i as u16)
    }

    /// Whether tile `def` is a building of mission tile `building`'s name:
    /// a Task Force mission is delivered at its building, which a player
    /// knows by its building side, so at any tile showing that side
    /// (review14 S3; assumption 3). Deciding by the tile itself would tell
    /// a student standing on one of two same-named fronts which it is.
    pub fn is_building(&self, def: u16, building: usize) -> bool {
        self.front(def) == self.front(building as u16)
    }

    /// The die's number of faces.
    pub fn sides(&self) -> u8 {
        self.faces.len() as u8
    }

    /// The face of a rolled number (1-based).
    pub fn face(&self, n: u8) -> &Face {
        &self.faces[(n.max(1) as usize - 1).min(self.faces.len() - 1)]
    }

    pub fn life(&self, k: AlienKind) -> u8 {
        self.life[k.index()]
    }

    pub fn start_tokens(&self) -> Tokens {
        let mut t = Tokens::default();
        for d in &self.tokens {
            *t.get_mut(d.kind) = d.start;
        }
        t
    }

    pub fn gang(&self, id: &str) -> Option<usize> {
        self.gangs.iter().position(|g| g.id == id)
    }

    /// The students of a gang, in file order.
    pub fn gang_humans(&self, gang: usize) -> Vec<usize> {
        (0..self.humans.len())
            .filter(|&h| self.humans[h].gang == gang)
            .collect()
    }
}

/// The shipped content (the tests check it parses).
pub fn shipped() -> Content {
    // Invariant: the shipped files parse (tested).
    parse(&[]).expect("the shipped data files parse")
}

/// The content from the shipped files, each replaced by `own` where given
/// (file name without `.txt`, text).
pub fn parse(own: &[(String, String)]) -> Result<Content, DataError> {
    for (name, _) in own {
        if !FILES.iter().any(|(n, _)| n == name) {
            return Err(DataError {
                file: name.clone(),
                line: 0,
                message: format!(
                    "there is no data file '{name}' (the files are: {})",
                    FILES.iter().map(|f| f.0).collect::<Vec<_>>().join(", ")
                ),
            });
        }
    }
    let own_text = |name: &str| own.iter().find(|(n, _)| n == name).map(|(_, t)| t.as_str());
    let shipped_text = |name: &str| FILES.iter().find(|(n, _)| *n == name).map_or("", |f| f.1);
    // The shipped files are read once; a player's own file replaces one of
    // them (and the missions are read again against a player's own tiles).
    let mut c = shipped_once()?.clone();
    if let Some(t) = own_text("tiles") {
        c.tiles = parse_tiles(t)?;
    }
    if let Some(t) = own_text("humans") {
        (c.gangs, c.humans) = parse_humans(t)?;
    }
    if let Some(t) = own_text("cards") {
        c.cards = parse_cards(t)?;
    }
    if let Some(t) = own_text("aliens") {
        (c.aliens, c.life, c.difficulties) = parse_aliens(t)?;
    }
    if own_text("missions").is_some() || own_text("tiles").is_some() {
        let text = own_text("missions").unwrap_or_else(|| shipped_text("missions"));
        c.missions = parse_missions(text, &c.tiles)?;
    }
    if let Some(t) = own_text("tokens") {
        (c.tokens, c.faces) = parse_tokens(t)?;
    }
    Ok(c)
}

/// The shipped files, read once.
fn shipped_once() -> Result<&'static Content, DataError> {
    static SHIPPED: std::sync::LazyLock<Result<Content, DataError>> =
        std::sync::LazyLock::new(|| {
            let text = |name: &str| FILES.iter().find(|(n, _)| *n == name).map_or("", |f| f.1);
            let tiles = parse_tiles(text("tiles"))?;
            let (gangs, humans) = parse_humans(text("humans"))?;
            let cards = parse_cards(text("cards"))?;
            let (aliens, life, difficulties) = parse_aliens(text("aliens"))?;
            let missions = parse_missions(text("missions"), &tiles)?;
            let (tokens, faces) = parse_tokens(text("tokens"))?;
            Ok(Content {
                tiles,
                gangs,
                humans,
                cards,
                aliens,
                life,
                difficulties,
                missions,
                tokens,
                faces,
            })
        });
    SHIPPED.as_ref().map_err(Clone::clone)
}

/// One statement: its line number and its words.
struct Line<'a> {
    file: &'a str,
    no: usize,
    words: Vec<String>,
}

impl Line<'_> {
    fn err(&self, message: impl Into<String>) -> DataError {
        DataError {
            file: self.file.to_owned(),
            line: self.no,
            message: message.into(),
        }
    }

    fn key(&self) -> &str {
        self.words.first().map(String::as_str).unwrap_or("")
    }

    fn word(&self, i: usize, what: &str) -> Result<&str, DataError> {
        self.words
            .get(i)
            .map(String::as_str)
            .ok_or_else(|| self.err(format!("'{}' needs {what}", self.key())))
    }

    fn number(&self, i: usize, what: &str, max: u32) -> Result<u32, DataError> {
        let w = self.word(i, what)?;
        let n: u32 = w
            .parse()
            .map_err(|_| self.err(format!("{what} must be a whole number, not '{w}'")))?;
        if n > max {
            return Err(self.err(format!("{what} is {n}, more than {max}")));
        }
        Ok(n)
    }

    fn id(&self, i: usize) -> Result<String, DataError> {
        let w = self.word(i, "an id")?;
        if w.is_empty()
            || w.len() > 32
            || !w
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            return Err(self.err(format!("'{w}' is not an id (up to 32 of a-z, 0-9 and _)")));
        }
        Ok(w.to_owned())
    }

    fn name(&self, i: usize) -> Result<String, DataError> {
        let w = self.word(i, "a name in quotes")?;
        if w.trim().is_empty() || w.chars().count() > 60 {
            return Err(self.err("a name must have 1 to 60 characters"));
        }
        Ok(w.to_owned())
    }

    fn end(&self, n: usize) -> Result<(), DataError> {
        match self.words.get(n) {
            Some(extra) => Err(self.err(format!("unexpected '{extra}' at the end of the line"))),
            None => Ok(()),
        }
    }

    fn kind(&self, i: usize) -> Result<Kind, DataError> {
        let w = self.word(i, "a token kind")?;
        Kind::from_word(w).ok_or_else(|| {
            self.err(format!(
                "'{w}' is not a token kind (food, ammo, fuel, scrap, alien)"
            ))
        })
    }
}

/// The largest data or position file read: a stranger's file of megabytes of
/// words must not cost many times its size in memory.
pub(crate) const MAX_FILE: usize = 256 * 1024;

fn lines<'a>(file: &'a str, text: &str) -> Result<Vec<Line<'a>>, DataError> {
    if text.len() > MAX_FILE {
        return Err(DataError {
            file: file.into(),
            line: 0,
            message: format!("the file is larger than {MAX_FILE} bytes"),
        });
    }
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let ws = words(raw).map_err(|m| DataError {
            file: file.into(),
            line: i + 1,
            message: m.into(),
        })?;
        if !ws.is_empty() {
            out.push(Line {
                file,
                no: i + 1,
                words: ws,
            });
        }
    }
    Ok(out)
}

fn whole(file: &str, message: impl Into<String>) -> DataError {
    DataError {
        file: file.into(),
        line: 0,
        message: message.into(),
    }
}

fn unique(l: &Line, ids: &[&str], id: &str) -> Result<(), DataError> {
    if ids.contains(&id) {
        return Err(l.err(format!("the id '{id}' is used twice")));
    }
    Ok(())
}

fn parse_tiles(text: &str) -> Result<Vec<TileDef>, DataError> {
    let mut tiles: Vec<TileDef> = Vec::new();
    for l in lines("tiles", text)? {
        if l.key() != "tile" {
            return Err(l.err(format!("'{}' is not a statement here (tile)", l.key())));
        }
        let id = l.id(1)?;
        unique(
            &l,
            &tiles.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
            &id,
        )?;
        let name = l.name(2)?;
        let supply = match l.word(3, "a supply colour (food, ammo, fuel, scrap or none)")? {
            "none" => None,
            w => Some(
                Kind::from_word(w)
                    .filter(|k| *k != Kind::Alien)
                    .ok_or_else(|| {
                        l.err(format!(
                            "'{w}' is not a supply colour (food, ammo, fuel, scrap or none)"
                        ))
                    })?,
            ),
        };
        let mut i = 4;
        let mut ambush = None;
        let mut school = false;
        while let Some(w) = l.words.get(i) {
            match w.as_str() {
                "ambush" => {
                    let k = l.word(i + 1, "the alien of the ambush (scout or probe)")?;
                    ambush = Some(
                        AlienKind::from_word(k)
                            .filter(|k| matches!(k, AlienKind::Scout | AlienKind::Probe))
                            .ok_or_else(|| {
                                l.err(format!(
                                    "an ambush tile hides a scout or a probe, not '{k}'"
                                ))
                            })?,
                    );
                    i += 2;
                }
                "school" => {
                    school = true;
                    i += 1;
                }
                w => return Err(l.err(format!("unexpected '{w}' (ambush KIND or school)"))),
            }
        }
        tiles.push(TileDef {
            id,
            name,
            supply,
            ambush,
            school,
        });
    }
    if tiles.len() != TILES {
        return Err(whole(
            "tiles",
            format!(
                "the board takes exactly {TILES} tiles, the file has {}",
                tiles.len()
            ),
        ));
    }
    if tiles.iter().filter(|t| t.school).count() != 1 {
        return Err(whole(
            "tiles",
            "exactly one tile must be the school (the red X)",
        ));
    }
    Ok(tiles)
}

fn parse_humans(text: &str) -> Result<(Vec<GangDef>, Vec<HumanDef>), DataError> {
    let mut gangs: Vec<GangDef> = Vec::new();
    let mut humans: Vec<HumanDef> = Vec::new();
    for l in lines("humans", text)? {
        match l.key() {
            "gang" => {
                let id = l.id(1)?;
                unique(
                    &l,
                    &gangs.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(),
                    &id,
                )?;
                let name = l.name(2)?;
                let ability = match l.word(3, "a class ability")? {
                    "short_cut" => Ability::ShortCut,
                    "fight_dirty" => Ability::FightDirty,
                    "rat_nest" => Ability::RatNest,
                    "cpr" => Ability::Cpr,
                    w => {
                        return Err(l.err(format!(
                            "'{w}' is not a class ability (short_cut, fight_dirty, rat_nest, cpr)"
                        )));
                    }
                };
                let colour = [
                    l.number(4, "red", 255)? as u8,
                    l.number(5, "green", 255)? as u8,
                    l.number(6, "blue", 255)? as u8,
                ];
                l.end(7)?;
                gangs.push(GangDef {
                    id,
                    name,
                    ability,
                    colour,
                });
            }
            "human" => {
                let id = l.id(1)?;
                unique(
                    &l,
                    &humans.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(),
                    &id,
                )?;
                let name = l.name(2)?;
                let g = l.word(3, "a gang id")?;
                let gang = gangs
                    .iter()
                    .position(|x| x.id == g)
                    .ok_or_else(|| l.err(format!("there is no gang '{g}' above this line")))?;
                let mut vals = [None; 3];
                let mut i = 4;
                while let Some(w) = l.words.get(i) {
                    let (slot, max) = match w.as_str() {
                        "move" => (0, 6),
                        "attack" => (1, 9),
                        "hand" => (2, 9),
                        w => return Err(l.err(format!("unexpected '{w}' (move, attack, hand)"))),
                    };
                    vals[slot] = Some(l.number(i + 1, w, max)? as u8);
                    i += 2;
                }
                let [Some(moves), Some(attack), Some(hand)] = vals else {
                    return Err(l.err("a student needs move N attack N hand N"));
                };
                humans.push(HumanDef {
                    id,
                    name,
                    gang,
                    moves,
                    attack,
                    hand,
                });
            }
            k => return Err(l.err(format!("'{k}' is not a statement here (gang, human)"))),
        }
    }
    if gangs.is_empty() {
        return Err(whole("humans", "there is no gang"));
    }
    for (g, gd) in gangs.iter().enumerate() {
        let n = humans.iter().filter(|h| h.gang == g).count();
        if n != 3 {
            return Err(whole(
                "humans",
                format!("the gang '{}' has {n} students; each player runs 3", gd.id),
            ));
        }
    }
    Ok((gangs, humans))
}

/// `cost KIND N KIND N ...` from word `i`: the cost and the next word.
fn cost_at(l: &Line, mut i: usize) -> Result<(Tokens, usize), DataError> {
    let mut cost = Tokens::default();
    if l.words.get(i).map(String::as_str) != Some("cost") {
        return Ok((cost, i));
    }
    i += 1;
    while let Some(w) = l.words.get(i) {
        let Some(k) = Kind::from_word(w) else { break };
        *cost.get_mut(k) += l.number(i + 1, "a cost", 9)? as u16;
        i += 2;
    }
    Ok((cost, i))
}

fn count_at(l: &Line, i: usize) -> Result<usize, DataError> {
    let w = l.word(i, "a count (x1, x2, ...)")?;
    w.strip_prefix('x')
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| (1..=20).contains(n))
        .ok_or_else(|| l.err(format!("'{w}' is not a count of cards (x1 to x20)")))
}

fn parse_grid(l: &Line, w: &str) -> Result<Vec<(i8, i8)>, DataError> {
    let rows: Vec<&str> = w.split('/').collect();
    if rows.len() != 5 || rows.iter().any(|r| r.chars().count() != 5) {
        return Err(l.err(format!(
            "'{w}' is not an attack range: five rows of five (X or .) separated by /"
        )));
    }
    let mut out = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            match ch {
                'X' | 'x' => out.push((c as i8 - 2, r as i8 - 2)),
                '.' => {}
                _ => return Err(l.err(format!("'{ch}' in an attack range: use X or ."))),
            }
        }
    }
    if out.is_empty() {
        return Err(l.err("an attack range needs at least one X"));
    }
    Ok(out)
}

fn parse_cards(text: &str) -> Result<Vec<CardDef>, DataError> {
    let mut cards: Vec<CardDef> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for l in lines("cards", text)? {
        let id = l.id(1)?;
        unique(&l, &ids.iter().map(String::as_str).collect::<Vec<_>>(), &id)?;
        ids.push(id.clone());
        let name = l.name(2)?;
        let count = count_at(&l, 3)?;
        let kind = match l.key() {
            "event" => {
                let e = match l.word(4, "an effect")? {
                    "alien" => {
                        l.end(5)?;
                        EventEffect::Alien
                    }
                    "scouts" => {
                        let w = l.word(5, "a direction")?;
                        l.end(6)?;
                        EventEffect::Scouts(Dir::from_word(w).ok_or_else(|| {
                            l.err(format!("'{w}' is not a direction (n, e, s, w)"))
                        })?)
                    }
                    "lose" => {
                        l.end(6)?;
                        EventEffect::Lose(l.kind(5)?)
                    }
                    "gain" => {
                        l.end(7)?;
                        EventEffect::Gain(l.kind(5)?, l.number(6, "a number of tokens", 9)? as u16)
                    }
                    w => {
                        return Err(l.err(format!(
                            "'{w}' is not an event effect (alien, scouts DIR, lose KIND, gain KIND N)"
                        )));
                    }
                };
                CardKind::Event(e)
            }
            "instant" => {
                let (cost, i) = cost_at(&l, 4)?;
                let effect = match l.word(i, "an effect")? {
                    "escape" => {
                        l.end(i + 2)?;
                        InstantEffect::Escape(l.number(i + 1, "tiles", 6)? as u8)
                    }
                    "hit" => {
                        l.end(i + 2)?;
                        InstantEffect::Hit(l.number(i + 1, "hits", 9)? as u8)
                    }
                    "gain" => {
                        l.end(i + 3)?;
                        InstantEffect::Gain(l.kind(i + 1)?, l.number(i + 2, "tokens", 9)? as u16)
                    }
                    w => {
                        return Err(l.err(format!(
                            "'{w}' is not an instant effect (escape N, hit N, gain KIND N)"
                        )));
                    }
                };
                CardKind::Instant { cost, effect }
            }
            "attack" => {
                let ty = match l.word(4, "an attack type")? {
                    "melee" => AttackType::Melee,
                    "short" => AttackType::Short,
                    "long" => AttackType::Long,
                    "explosive" => AttackType::Explosive,
                    w => {
                        return Err(l.err(format!(
                            "'{w}' is not an attack type (melee, short, long, explosive)"
                        )));
                    }
                };
                if l.word(5, "dice N")? != "dice" {
                    return Err(l.err("an attack card needs dice N after its type"));
                }
                let dice = l.number(6, "dice", 9)? as u8;
                let (cost, i) = cost_at(&l, 7)?;
                if l.word(i, "range GRID")? != "range" {
                    return Err(l.err(format!("expected range GRID, not '{}'", l.words[i])));
                }
                let range = parse_grid(&l, l.word(i + 1, "a range grid")?)?;
                let air = match l.words.get(i + 2).map(String::as_str) {
                    Some("air") => {
                        l.end(i + 3)?;
                        true
                    }
                    _ => {
                        l.end(i + 2)?;
                        false
                    }
                };
                CardKind::Attack {
                    ty,
                    dice,
                    cost,
                    range,
                    air,
                }
            }
            "move" => {
                if l.word(4, "tiles N")? != "tiles" {
                    return Err(l.err("a move card needs tiles N"));
                }
                let tiles = l.number(5, "tiles", 10)? as u8;
                let (cost, i) = cost_at(&l, 6)?;
                let escape = match l.words.get(i).map(String::as_str) {
                    Some("escape") => {
                        l.end(i + 1)?;
                        true
                    }
                    _ => {
                        l.end(i)?;
                        false
                    }
                };
                CardKind::Move {
                    tiles,
                    cost,
                    escape,
                }
            }
            k => {
                return Err(l.err(format!(
                    "'{k}' is not a card kind (event, instant, attack, move)"
                )));
            }
        };
        for _ in 0..count {
            cards.push(CardDef {
                id: id.clone(),
                name: name.clone(),
                kind: kind.clone(),
            });
        }
    }
    if cards.iter().filter(|c| !c.is_event()).count() < 12 {
        return Err(whole(
            "cards",
            "the Human deck needs at least 12 cards that are not events",
        ));
    }
    if cards.len() > 400 {
        return Err(whole("cards", "the Human deck has more than 400 cards"));
    }
    Ok(cards)
}

type Aliens = (Vec<AlienCard>, [u8; 4], Vec<Difficulty>);

fn parse_aliens(text: &str) -> Result<Aliens, DataError> {
    let mut cards = Vec::new();
    let mut life = [0u8; 4];
    let mut diffs: Vec<Difficulty> = Vec::new();
    let mut diff_lines = Vec::new();
    for l in lines("aliens", text)? {
        match l.key() {
            "life" => {
                let w = l.word(1, "an alien kind")?;
                let k = AlienKind::from_word(w)
                    .ok_or_else(|| l.err(format!("'{w}' is not an alien kind")))?;
                life[k.index()] = l.number(2, "hit points", 9)? as u8;
                if life[k.index()] == 0 {
                    return Err(l.err("an alien has at least 1 hit point"));
                }
                l.end(3)?;
            }
            "difficulty" => {
                let level = l.number(1, "a level", 9)? as u8;
                let name = l.name(2)?;
                let mut counts = [0u8; 4];
                let mut i = 3;
                while let Some(w) = l.words.get(i) {
                    let k = AlienKind::from_word(w)
                        .ok_or_else(|| l.err(format!("'{w}' is not an alien kind")))?;
                    counts[k.index()] = l.number(i + 1, "a number of cards", 99)? as u8;
                    i += 2;
                }
                if counts.iter().all(|&c| c == 0) {
                    return Err(l.err("a difficulty needs some aliens"));
                }
                if diffs.iter().any(|d| d.level == level) {
                    return Err(l.err(format!("difficulty {level} is given twice")));
                }
                diff_lines.push(l.no);
                diffs.push(Difficulty {
                    level,
                    name,
                    counts,
                });
            }
            k => {
                let kind = AlienKind::from_word(k).ok_or_else(|| {
                    l.err(format!(
                        "'{k}' is not a statement here (life, difficulty, scout, probe, commander, saucer)"
                    ))
                })?;
                let w = l.word(1, "coordinates like C6")?;
                let at = parse_coord(w)
                    .ok_or_else(|| l.err(format!("'{w}' is not a tile from A1 to F6")))?;
                let dir =
                    if kind == AlienKind::Scout {
                        let d = l.word(2, "a direction (n, e, s, w)")?;
                        l.end(3)?;
                        Some(Dir::from_word(d).ok_or_else(|| {
                            l.err(format!("'{d}' is not a direction (n, e, s, w)"))
                        })?)
                    } else {
                        l.end(2)?;
                        None
                    };
                cards.push(AlienCard { kind, at, dir });
            }
        }
    }
    for k in AlienKind::ALL {
        if life[k.index()] == 0 {
            return Err(whole("aliens", format!("no 'life {}' line", k.word())));
        }
    }
    if diffs.is_empty() {
        return Err(whole("aliens", "no difficulty line"));
    }
    for (d, no) in diffs.iter().zip(diff_lines) {
        for k in AlienKind::ALL {
            let have = cards.iter().filter(|c| c.kind == k).count();
            if usize::from(d.counts[k.index()]) > have {
                return Err(DataError {
                    file: "aliens".into(),
                    line: no,
                    message: format!(
                        "difficulty {} takes {} {} cards but the file has {have}",
                        d.level,
                        d.counts[k.index()],
                        k.word()
                    ),
                });
            }
        }
    }
    diffs.sort_by_key(|d| d.level);
    Ok((cards, life, diffs))
}

fn parse_missions(text: &str, tiles: &[TileDef]) -> Result<Vec<MissionDef>, DataError> {
    let mut out: Vec<MissionDef> = Vec::new();
    for l in lines("missions", text)? {
        if l.key() != "mission" {
            return Err(l.err(format!("'{}' is not a statement here (mission)", l.key())));
        }
        let id = l.id(1)?;
        unique(
            &l,
            &out.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(),
            &id,
        )?;
        let name = l.name(2)?;
        if l.word(3, "at TILE")? != "at" {
            return Err(l.err("a mission needs at TILE after its name"));
        }
        let t = l.word(4, "a tile id")?;
        let tile = tiles
            .iter()
            .position(|x| x.id == t)
            .ok_or_else(|| l.err(format!("there is no tile '{t}' in tiles.txt")))?;
        let (cost, i) = cost_at(&l, 5)?;
        if cost.is_empty() {
            return Err(l.err("a mission needs a cost (cost KIND N ...)"));
        }
        if l.word(i, "reward")? != "reward" {
            return Err(l.err(format!("expected reward, not '{}'", l.words[i])));
        }
        let mut reward = Tokens::default();
        let mut reward_cards = 0;
        match l.word(i + 1, "a reward (cards N or KIND N)")? {
            "cards" => reward_cards = l.number(i + 2, "cards", 9)? as u8,
            _ => *reward.get_mut(l.kind(i + 1)?) = l.number(i + 2, "tokens", 9)? as u16,
        }
        l.end(i + 3)?;
        out.push(MissionDef {
            id,
            name,
            tile,
            cost,
            reward_cards,
            reward,
        });
    }
    if out.len() < 4 {
        return Err(whole(
            "missions",
            "at least 4 missions are needed (one per player)",
        ));
    }
    Ok(out)
}

fn parse_tokens(text: &str) -> Result<(Vec<TokenDef>, Vec<Face>), DataError> {
    let mut tokens: Vec<TokenDef> = Vec::new();
    let mut sides = 0u8;
    let mut faces: Vec<Option<Face>> = Vec::new();
    for l in lines("tokens", text)? {
        match l.key() {
            "token" => {
                let kind = l.kind(1)?;
                if tokens.iter().any(|t| t.kind == kind) {
                    return Err(l.err(format!("the token '{}' is given twice", kind.word())));
                }
                let name = l.name(2)?;
                let colour = [
                    l.number(3, "red", 255)? as u8,
                    l.number(4, "green", 255)? as u8,
                    l.number(5, "blue", 255)? as u8,
                ];
                if l.word(6, "start N")? != "start" {
                    return Err(l.err("a token needs start N"));
                }
                let start = l.number(7, "a start count", 20)? as u16;
                l.end(8)?;
                tokens.push(TokenDef {
                    kind,
                    name,
                    colour,
                    start,
                });
            }
            "die" => {
                sides = l.number(1, "sides", 20)? as u8;
                if sides < 2 {
                    return Err(l.err("a die has at least 2 faces"));
                }
                l.end(2)?;
                faces = vec![None; sides as usize];
            }
            "face" => {
                if sides == 0 {
                    return Err(l.err("'die N' must come before the faces"));
                }
                let n = l.number(1, "a face number", u32::from(sides))? as usize;
                if n == 0 {
                    return Err(l.err("faces are numbered from 1"));
                }
                let hits = l.number(2, "hits", 9)? as u8;
                let name = l.name(3)?;
                let dead = match l.words.get(4).map(String::as_str) {
                    Some("dead") => {
                        l.end(5)?;
                        true
                    }
                    _ => {
                        l.end(4)?;
                        false
                    }
                };
                if faces[n - 1].is_some() {
                    return Err(l.err(format!("face {n} is given twice")));
                }
                faces[n - 1] = Some(Face { hits, name, dead });
            }
            k => return Err(l.err(format!("'{k}' is not a statement here (token, die, face)"))),
        }
    }
    tokens.sort_by_key(|t| t.kind);
    if tokens.len() != Kind::ALL.len() {
        return Err(whole(
            "tokens",
            "every token kind needs a line: food, ammo, fuel, scrap, alien",
        ));
    }
    if sides == 0 {
        return Err(whole("tokens", "no 'die N' line"));
    }
    let faces: Vec<Face> = faces
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            f.ok_or_else(|| whole("tokens", format!("face {} of the die is missing", i + 1)))
        })
        .collect::<Result<_, _>>()?;
    if !faces.iter().any(|f| f.dead) {
        return Err(whole("tokens", "one face must be the dead alien (dead)"));
    }
    Ok((tokens, faces))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_files_parse() {
        let c = shipped();
        assert_eq!(c.tiles.len(), 36);
        assert_eq!(c.humans.len(), 12);
        assert_eq!(c.gangs.len(), 4);
        assert_eq!(c.life, [2, 1, 1, 3]);
        assert_eq!(c.difficulties[0].counts, [9, 9, 2, 10]);
        assert_eq!(c.faces.len(), 6);
    }

    #[test]
    fn a_bad_line_is_named() {
        let own = vec![(
            "cards".to_owned(),
            "move skate \"Skate\" x2 tiles 3\nattack bat \"Bat\" x1 melee dice two range ...../...../..X../...../.....\n"
                .to_owned(),
        )];
        let e = parse(&own).unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("cards", 2), "{e}");
        assert!(e.to_string().starts_with("cards.txt line 2:"), "{e}");
        let own = vec![("tiles".to_owned(), "tile a \"A\" food\n".to_owned())];
        let e = parse(&own).unwrap_err();
        assert!(e.message.contains("exactly 36"), "{e}");
        let own = vec![("nope".to_owned(), String::new())];
        assert!(parse(&own).is_err());
    }

    #[test]
    fn coordinates_read_and_write() {
        assert_eq!(parse_coord("A6"), Some(pos(0, 5)));
        assert_eq!(coord(pos(2, 5)), "C6");
        assert_eq!(parse_coord("G1"), None);
        assert_eq!(parse_coord("A7"), None);
        assert_eq!(step(pos(0, 5), 0, 1), None, "the board does not wrap");
    }
}
