//! The content of Alien as data: the base, the items, the expedition, the
//! FIGHT RESULT table and the twenty task cards, each a line-based file in
//! `engine/data/alien/` (formats at the top of each file), parsed here with
//! errors that name the file and the line. A player may replace any of them
//! (config `base_text`, `items_text`, `characters_text`, `table_text`,
//! `tasks_text`).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::games::words::words;

pub const BASE: &str = include_str!("../../../data/alien/base.txt");
pub const ITEMS: &str = include_str!("../../../data/alien/items.txt");
pub const CHARACTERS: &str = include_str!("../../../data/alien/characters.txt");
pub const TABLE: &str = include_str!("../../../data/alien/fight.txt");
pub const TASKS: &str = include_str!("../../../data/alien/tasks.txt");

/// A tile of the base: its index, `y * width + x`.
pub type Tile = u16;

/// A problem in one of the data files.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{file}, line {line}: {message}")]
pub struct DataError {
    pub file: &'static str,
    /// 1-based; 0 when the problem is the whole file.
    pub line: usize,
    pub message: String,
}

fn err(file: &'static str, line: usize, message: impl Into<String>) -> DataError {
    DataError {
        file,
        line,
        message: message.into(),
    }
}

/// The statements of a file: (line number, words), comments and blank lines dropped.
fn statements(file: &'static str, text: &str) -> Result<Vec<(usize, Vec<String>)>, DataError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let w = words(raw).map_err(|m| err(file, i + 1, m))?;
        if !w.is_empty() {
            out.push((i + 1, w));
        }
    }
    Ok(out)
}

fn number<T: std::str::FromStr>(
    file: &'static str,
    line: usize,
    word: Option<&String>,
    what: &str,
) -> Result<T, DataError> {
    let w = word.ok_or_else(|| err(file, line, format!("{what} is missing")))?;
    w.parse()
        .map_err(|_| err(file, line, format!("{what} '{w}' is not a number in range")))
}

/// What a tile of the base is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Wall,
    Corridor,
    Room,
    Duct,
    Landing,
    Airlock(u8),
}

/// The kinds of storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Store {
    Suits,
    Fuel,
    Warehouse,
    Magazine,
    Medical,
    Armoury,
}

impl Store {
    pub const ALL: [Store; 6] = [
        Store::Suits,
        Store::Fuel,
        Store::Warehouse,
        Store::Magazine,
        Store::Medical,
        Store::Armoury,
    ];
    pub fn id(self) -> &'static str {
        match self {
            Store::Suits => "suits",
            Store::Fuel => "fuel",
            Store::Warehouse => "warehouse",
            Store::Magazine => "magazine",
            Store::Medical => "medical",
            Store::Armoury => "armoury",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Store::Suits => "suit storage",
            Store::Fuel => "fuel storage",
            Store::Warehouse => "component warehouse",
            Store::Magazine => "explosive magazine",
            Store::Medical => "medical supplies",
            Store::Armoury => "armoury",
        }
    }
    fn parse(w: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.id() == w)
    }
}

/// A named place of the base.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub id: String,
    pub name: String,
    pub tile: Tile,
}

/// The base: tiles on a square grid and what stands where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Base {
    pub width: u8,
    pub height: u8,
    pub terrain: Vec<Terrain>,
    pub apc: Tile,
    pub start: Vec<Tile>,
    /// Hatching place N is `hatches[N - 1]`.
    pub hatches: Vec<Tile>,
    /// Computer N is `computers[N - 1]`.
    pub computers: Vec<Tile>,
    pub stores: Vec<(Store, Tile)>,
    pub places: Vec<Place>,
    /// Spaces of the track outside (entry box 0 to exit box `track - 1`).
    pub track: u8,
}

impl Base {
    pub fn xy(&self, t: Tile) -> (i32, i32) {
        (
            i32::from(t) % i32::from(self.width),
            i32::from(t) / i32::from(self.width),
        )
    }
    pub fn at(&self, x: i32, y: i32) -> Option<Tile> {
        (x >= 0 && y >= 0 && x < i32::from(self.width) && y < i32::from(self.height))
            .then(|| (y * i32::from(self.width) + x) as Tile)
    }
    pub fn terrain(&self, t: Tile) -> Terrain {
        self.terrain
            .get(usize::from(t))
            .copied()
            .unwrap_or(Terrain::Wall)
    }
    /// The tiles sharing a side with `t` that are not walls.
    pub fn neighbours(&self, t: Tile) -> Vec<Tile> {
        self.neighbours_iter(t).collect()
    }
    /// As [`Base::neighbours`], without allocating.
    pub fn neighbours_iter(&self, t: Tile) -> impl Iterator<Item = Tile> + '_ {
        let (x, y) = self.xy(t);
        [(0, -1), (-1, 0), (1, 0), (0, 1)]
            .into_iter()
            .filter_map(move |(dx, dy)| self.at(x + dx, y + dy))
            .filter(|&n| self.terrain(n) != Terrain::Wall)
    }
    pub fn adjacent(&self, a: Tile, b: Tile) -> bool {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        (ax - bx).abs() + (ay - by).abs() == 1
    }
    /// Distance in tiles, counted along rows and columns.
    pub fn distance(&self, a: Tile, b: Tile) -> i32 {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        (ax - bx).abs() + (ay - by).abs()
    }
    /// A tile's name: column letter and row number, `A1` top left.
    pub fn name(&self, t: Tile) -> String {
        let (x, y) = self.xy(t);
        let col = if x < 26 {
            char::from(b'A' + x as u8).to_string()
        } else {
            format!("A{}", char::from(b'A' + (x - 26) as u8))
        };
        format!("{col}{}", y + 1)
    }
    /// A tile by its name.
    pub fn tile(&self, name: &str) -> Option<Tile> {
        let name = name.trim();
        let split = name.find(|c: char| c.is_ascii_digit())?;
        let (col, row) = name.split_at(split);
        let col = col.to_ascii_uppercase();
        let x = match col.as_bytes() {
            [c] if c.is_ascii_uppercase() => i32::from(c - b'A'),
            [b'A', c] if c.is_ascii_uppercase() => 26 + i32::from(c - b'A'),
            _ => return None,
        };
        let y: i32 = row.parse().ok()?;
        self.at(x, y - 1)
    }
    pub fn store_at(&self, t: Tile) -> Option<Store> {
        self.stores.iter().find(|s| s.1 == t).map(|s| s.0)
    }
    pub fn computer_at(&self, t: Tile) -> Option<u8> {
        self.computers
            .iter()
            .position(|&c| c == t)
            .map(|i| i as u8 + 1)
    }
    pub fn hatch_at(&self, t: Tile) -> Option<u8> {
        self.hatches
            .iter()
            .position(|&c| c == t)
            .map(|i| i as u8 + 1)
    }
    pub fn airlock_tile(&self, n: u8) -> Option<Tile> {
        (0..self.terrain.len() as Tile).find(|&t| self.terrain(t) == Terrain::Airlock(n))
    }
    /// A place word of a task card: a place id, `computerN`, `hatchN`,
    /// `airlockN`, or a tile name.
    pub fn place(&self, word: &str) -> Option<Tile> {
        if let Some(p) = self.places.iter().find(|p| p.id == word) {
            return Some(p.tile);
        }
        let numbered = |prefix: &str| -> Option<u8> { word.strip_prefix(prefix)?.parse().ok() };
        if let Some(n) = numbered("computer") {
            return self.computers.get(usize::from(n).checked_sub(1)?).copied();
        }
        if let Some(n) = numbered("hatch") {
            return self.hatches.get(usize::from(n).checked_sub(1)?).copied();
        }
        if let Some(n) = numbered("airlock") {
            return self.airlock_tile(n);
        }
        self.tile(word)
    }
    /// What a tile is called in words: its place, computer, storage, or name.
    pub fn describe(&self, t: Tile) -> String {
        let mut s = self.name(t);
        if let Some(p) = self.places.iter().find(|p| p.tile == t) {
            s.push_str(&format!(" ({})", p.name));
        } else if let Some(c) = self.computer_at(t) {
            s.push_str(&format!(" (computer {c})"));
        } else if let Some(st) = self.store_at(t) {
            s.push_str(&format!(" ({})", st.name()));
        } else if let Some(h) = self.hatch_at(t) {
            s.push_str(&format!(" (hatching place {h})"));
        } else if let Terrain::Airlock(n) = self.terrain(t) {
            s.push_str(&format!(" (airlock {n})"));
        }
        s
    }
}

/// Read a base file.
pub fn parse_base(text: &str) -> Result<Base, DataError> {
    const F: &str = "base";
    let st = statements(F, text)?;
    let mut size: Option<(u8, u8)> = None;
    let mut rows: Vec<(usize, String)> = Vec::new();
    for (line, w) in &st {
        match w[0].as_str() {
            "grid" => {
                let width: u8 = number(F, *line, w.get(1), "the width")?;
                let height: u8 = number(F, *line, w.get(2), "the height")?;
                if !(8..=60).contains(&width) || !(8..=60).contains(&height) {
                    return Err(err(F, *line, "a base is 8 to 60 tiles each way"));
                }
                size = Some((width, height));
            }
            "row" => rows.push((
                *line,
                w.get(1)
                    .cloned()
                    .ok_or_else(|| err(F, *line, "a row needs its tiles in quotes"))?,
            )),
            _ => {}
        }
    }
    let (width, height) = size.ok_or_else(|| err(F, 0, "no `grid W H` line"))?;
    if rows.len() != usize::from(height) {
        return Err(err(
            F,
            rows.last().map_or(0, |r| r.0),
            format!(
                "the grid is {height} rows high but {} rows are given",
                rows.len()
            ),
        ));
    }
    let mut terrain = Vec::new();
    for (line, row) in &rows {
        if row.chars().count() != usize::from(width) {
            return Err(err(
                F,
                *line,
                format!("this row has {} tiles, not {width}", row.chars().count()),
            ));
        }
        for c in row.chars() {
            terrain.push(match c {
                '#' => Terrain::Wall,
                '.' => Terrain::Corridor,
                'o' => Terrain::Room,
                '=' => Terrain::Duct,
                'L' => Terrain::Landing,
                '1'..='5' => Terrain::Airlock(c as u8 - b'0'),
                _ => {
                    return Err(err(
                        F,
                        *line,
                        format!("'{c}' is not a tile (# . o = L 1-5)"),
                    ));
                }
            });
        }
    }
    let mut base = Base {
        width,
        height,
        terrain,
        apc: 0,
        start: Vec::new(),
        hatches: Vec::new(),
        computers: Vec::new(),
        stores: Vec::new(),
        places: Vec::new(),
        track: 4,
    };
    let mut apc = None;
    let mut hatches: Vec<(u8, Tile)> = Vec::new();
    let mut computers: Vec<(u8, Tile)> = Vec::new();
    let grid = base.clone();
    for (line, w) in &st {
        let line = *line;
        let tile = |word: Option<&String>| -> Result<Tile, DataError> {
            let word = word.ok_or_else(|| err(F, line, "a tile is missing"))?;
            let t = grid
                .tile(word)
                .ok_or_else(|| err(F, line, format!("'{word}' is not a tile of the grid")))?;
            if grid.terrain(t) == Terrain::Wall {
                return Err(err(F, line, format!("{word} is a wall")));
            }
            Ok(t)
        };
        let inside = |t: Tile, what: &str| -> Result<(), DataError> {
            match grid.terrain(t) {
                Terrain::Corridor | Terrain::Room | Terrain::Duct => Ok(()),
                _ => Err(err(
                    F,
                    line,
                    format!("{what} must be inside the base (a corridor, room or duct)"),
                )),
            }
        };
        match w[0].as_str() {
            "grid" | "row" => {}
            "apc" => {
                let t = tile(w.get(1))?;
                if grid.terrain(t) != Terrain::Landing {
                    return Err(err(F, line, "the APC starts on the landing field"));
                }
                apc = Some(t);
            }
            "start" => {
                for word in &w[1..] {
                    let t = tile(Some(word))?;
                    if grid.terrain(t) != Terrain::Landing {
                        return Err(err(F, line, format!("{word} is not on the landing field")));
                    }
                    base.start.push(t);
                }
            }
            "hatch" | "computer" => {
                let n: u8 = number(F, line, w.get(1), "the number")?;
                let t = tile(w.get(2))?;
                inside(t, "a hatching place or computer")?;
                if w[0] == "hatch" {
                    hatches.push((n, t));
                } else {
                    computers.push((n, t));
                }
            }
            "store" => {
                let kind = w.get(1).and_then(|k| Store::parse(k)).ok_or_else(|| {
                    err(
                        F,
                        line,
                        "a storage is suits, fuel, warehouse, magazine, medical or armoury",
                    )
                })?;
                let t = tile(w.get(2))?;
                inside(t, "a storage")?;
                base.stores.push((kind, t));
            }
            "place" => {
                let id = w
                    .get(1)
                    .cloned()
                    .ok_or_else(|| err(F, line, "a place needs an id"))?;
                let t = tile(w.get(2))?;
                let name = w.get(3).cloned().unwrap_or_else(|| id.clone());
                base.places.push(Place { id, name, tile: t });
            }
            "track" => {
                base.track = number(F, line, w.get(1), "the track's length")?;
                if !(1..=20).contains(&base.track) {
                    return Err(err(F, line, "the track is 1 to 20 spaces"));
                }
            }
            other => return Err(err(F, line, format!("unknown statement '{other}'"))),
        }
    }
    base.apc = apc.ok_or_else(|| err(F, 0, "no `apc TILE` line"))?;
    let numbered = |mut v: Vec<(u8, Tile)>, what: &str, n: usize| -> Result<Vec<Tile>, DataError> {
        v.sort_unstable();
        if v.len() != n
            || v.iter()
                .enumerate()
                .any(|(i, (k, _))| usize::from(*k) != i + 1)
        {
            return Err(err(
                F,
                0,
                format!("the base needs {what} numbered 1 to {n}"),
            ));
        }
        Ok(v.into_iter().map(|(_, t)| t).collect())
    };
    base.hatches = numbered(hatches, "five hatching places", 5)?;
    base.computers = numbered(computers, "three computers", 3)?;
    for n in 1..=5 {
        if base
            .terrain
            .iter()
            .filter(|&&t| t == Terrain::Airlock(n))
            .count()
            != 1
        {
            return Err(err(F, 0, format!("the base needs exactly one airlock {n}")));
        }
    }
    for s in Store::ALL {
        if !base.stores.iter().any(|x| x.0 == s) {
            return Err(err(F, 0, format!("the base has no {}", s.name())));
        }
    }
    if base.start.len() < 6 || base.start.contains(&base.apc) {
        return Err(err(
            F,
            0,
            "the base needs six start tiles on the landing field, not the APC's",
        ));
    }
    Ok(base)
}

/// An item's kind, for storages, limits and task cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Suit,
    Fuel,
    Disk,
    Spare,
    Explosive,
    Medkit,
    Ammo,
    Grenade,
    Weapon,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::Suit,
        Kind::Fuel,
        Kind::Disk,
        Kind::Spare,
        Kind::Explosive,
        Kind::Medkit,
        Kind::Ammo,
        Kind::Grenade,
        Kind::Weapon,
    ];
    pub fn id(self) -> &'static str {
        match self {
            Kind::Suit => "suit",
            Kind::Fuel => "fuel",
            Kind::Disk => "disk",
            Kind::Spare => "spare",
            Kind::Explosive => "explosive",
            Kind::Medkit => "medkit",
            Kind::Ammo => "ammo",
            Kind::Grenade => "grenade",
            Kind::Weapon => "weapon",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Kind::Suit => "a vacuum suit",
            Kind::Fuel => "a fuel container",
            Kind::Disk => "a floppy disk",
            Kind::Spare => "spare parts",
            Kind::Explosive => "an explosive charge",
            Kind::Medkit => "a medical kit",
            Kind::Ammo => "an ammunition cartridge",
            Kind::Grenade => "a grenade",
            Kind::Weapon => "a weapon",
        }
    }
    pub fn parse(w: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.id() == w)
    }
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|&k| k == self).unwrap_or(0)
    }
}

/// One item token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    Suit,
    Fuel,
    Disk,
    Spare,
    Explosive,
    Medkit,
    Grenade,
    /// A cartridge with this many charges left.
    Ammo(u8),
    /// A weapon, by its index in [`Items::weapons`].
    Weapon(u8),
}

impl Item {
    pub fn kind(self) -> Kind {
        match self {
            Item::Suit => Kind::Suit,
            Item::Fuel => Kind::Fuel,
            Item::Disk => Kind::Disk,
            Item::Spare => Kind::Spare,
            Item::Explosive => Kind::Explosive,
            Item::Medkit => Kind::Medkit,
            Item::Grenade => Kind::Grenade,
            Item::Ammo(_) => Kind::Ammo,
            Item::Weapon(_) => Kind::Weapon,
        }
    }
}

/// A weapon token: range and shot strength.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub id: String,
    pub name: String,
    pub range: u8,
    pub power: u8,
    /// Tokens in the game (0: unlimited).
    pub supply: u8,
}

/// The items of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Items {
    pub weapons: Vec<Weapon>,
    /// Tokens of each [`Kind`] in the game, in `Kind::ALL` order (0: unlimited).
    pub limits: Vec<u8>,
    /// What each storage gives.
    pub stock: Vec<(Store, Vec<Kind>)>,
}

impl Items {
    pub fn limit(&self, k: Kind) -> u8 {
        self.limits.get(k.index()).copied().unwrap_or(0)
    }
    pub fn stocked(&self, s: Store) -> Vec<Kind> {
        self.stock
            .iter()
            .find(|x| x.0 == s)
            .map(|x| x.1.clone())
            .unwrap_or_default()
    }
    /// An item word of a data file: a kind, `ammo` (a full cartridge) or a weapon id.
    pub fn item(&self, w: &str) -> Option<Item> {
        if let Some(i) = self.weapons.iter().position(|x| x.id == w) {
            return Some(Item::Weapon(i as u8));
        }
        Some(match Kind::parse(w)? {
            Kind::Suit => Item::Suit,
            Kind::Fuel => Item::Fuel,
            Kind::Disk => Item::Disk,
            Kind::Spare => Item::Spare,
            Kind::Explosive => Item::Explosive,
            Kind::Medkit => Item::Medkit,
            Kind::Grenade => Item::Grenade,
            Kind::Ammo => Item::Ammo(4),
            Kind::Weapon => return None,
        })
    }
    /// An item in words.
    pub fn name(&self, item: Item) -> String {
        match item {
            Item::Ammo(n) => format!("a cartridge ({n} charges)"),
            Item::Weapon(w) => self.weapons.get(usize::from(w)).map_or_else(
                || "a weapon".into(),
                |w| format!("a {}", w.name.to_lowercase()),
            ),
            other => other.kind().name().to_owned(),
        }
    }
}

pub fn parse_items(text: &str) -> Result<Items, DataError> {
    const F: &str = "items";
    let mut items = Items {
        weapons: Vec::new(),
        limits: vec![0; Kind::ALL.len()],
        stock: Vec::new(),
    };
    for (line, w) in statements(F, text)? {
        let word = |i: usize| w.get(i).map(String::as_str).unwrap_or("");
        match word(0) {
            "weapon" => {
                if w.len() != 9 || word(3) != "range" || word(5) != "power" || word(7) != "supply" {
                    return Err(err(
                        F,
                        line,
                        "write: weapon ID \"Name\" range R power P supply N",
                    ));
                }
                let range: u8 = number(F, line, w.get(4), "the range")?;
                if !(1..=30).contains(&range) {
                    return Err(err(F, line, "a range is 1 to 30 tiles"));
                }
                items.weapons.push(Weapon {
                    id: word(1).to_owned(),
                    name: word(2).to_owned(),
                    range,
                    power: number(F, line, w.get(6), "the power")?,
                    supply: number(F, line, w.get(8), "the supply")?,
                });
            }
            "limit" => {
                let k = Kind::parse(word(1))
                    .ok_or_else(|| err(F, line, format!("'{}' is not an item kind", word(1))))?;
                items.limits[k.index()] = number(F, line, w.get(2), "the limit")?;
            }
            "stock" => {
                let s = Store::parse(word(1))
                    .ok_or_else(|| err(F, line, format!("'{}' is not a storage", word(1))))?;
                let mut kinds = Vec::new();
                for k in &w[2..] {
                    kinds.push(
                        Kind::parse(k)
                            .ok_or_else(|| err(F, line, format!("'{k}' is not an item kind")))?,
                    );
                }
                items.stock.push((s, kinds));
            }
            other => return Err(err(F, line, format!("unknown statement '{other}'"))),
        }
    }
    if items.weapons.is_empty() {
        return Err(err(F, 0, "the game needs at least one weapon"));
    }
    Ok(items)
}

/// A character card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterCard {
    pub id: String,
    pub name: String,
    pub strength: u8,
    pub items: Vec<Item>,
    /// May use medical kits.
    pub medic: bool,
    /// May not shoot or throw grenades.
    pub unarmed: bool,
    pub android: bool,
}

pub fn parse_characters(text: &str, items: &Items) -> Result<Vec<CharacterCard>, DataError> {
    const F: &str = "characters";
    let mut out: Vec<CharacterCard> = Vec::new();
    for (line, w) in statements(F, text)? {
        if w[0] != "character" {
            return Err(err(F, line, format!("unknown statement '{}'", w[0])));
        }
        if w.len() < 5 || w[3] != "strength" {
            return Err(err(
                F,
                line,
                "write: character ID \"Name\" strength N [items ...] [medic] [unarmed] [android]",
            ));
        }
        let strength: u8 = number(F, line, w.get(4), "the strength")?;
        if !(1..=9).contains(&strength) {
            return Err(err(F, line, "a strength is 1 to 9"));
        }
        let mut c = CharacterCard {
            id: w[1].clone(),
            name: w[2].clone(),
            strength,
            items: Vec::new(),
            medic: false,
            unarmed: false,
            android: false,
        };
        let mut in_items = false;
        for word in &w[5..] {
            match word.as_str() {
                "items" => in_items = true,
                "medic" => c.medic = true,
                "unarmed" => c.unarmed = true,
                "android" => c.android = true,
                it if in_items => c.items.push(
                    items
                        .item(it)
                        .ok_or_else(|| err(F, line, format!("'{it}' is not an item")))?,
                ),
                other => return Err(err(F, line, format!("unknown word '{other}'"))),
            }
        }
        if c.items.len() > 3 {
            return Err(err(F, line, "a character has three pockets"));
        }
        if out.iter().any(|o| o.id == c.id) {
            return Err(err(F, line, format!("character '{}' is given twice", c.id)));
        }
        out.push(c);
    }
    if out.len() != 6 {
        return Err(err(F, 0, "the expedition has six characters"));
    }
    Ok(out)
}

/// One side's part of a fight result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    pub lost: u8,
    pub withdraw: u8,
}

/// A cell of the FIGHT RESULT table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    pub attacker: Hit,
    pub defender: Hit,
}

/// The FIGHT RESULT table: attack force column by die roll row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FightTable {
    pub columns: Vec<i8>,
    /// `rows[roll - 1][column]`.
    pub rows: Vec<Vec<Cell>>,
}

impl FightTable {
    /// The result at this attack force and roll (a force off the table
    /// reads its first or last column).
    pub fn result(&self, force: i32, roll: u8) -> Cell {
        let col = self
            .columns
            .iter()
            .rposition(|&c| i32::from(c) <= force)
            .unwrap_or(0);
        self.rows[usize::from(roll.clamp(1, 6)) - 1][col]
    }
}

pub fn parse_table(text: &str) -> Result<FightTable, DataError> {
    const F: &str = "fight table";
    let mut columns: Vec<i8> = Vec::new();
    let mut rows: Vec<Option<Vec<Cell>>> = vec![None; 6];
    for (line, w) in statements(F, text)? {
        match w[0].as_str() {
            "columns" => {
                for c in &w[1..] {
                    columns.push(number(F, line, Some(c), "a column's force")?);
                }
                if columns.is_empty() || columns.windows(2).any(|p| p[0] >= p[1]) {
                    return Err(err(F, line, "the columns must rise from left to right"));
                }
            }
            "roll" => {
                let r: usize = number(F, line, w.get(1), "the roll")?;
                if !(1..=6).contains(&r) {
                    return Err(err(F, line, "a roll is 1 to 6"));
                }
                if columns.is_empty() {
                    return Err(err(F, line, "the `columns` line comes first"));
                }
                if w.len() - 2 != columns.len() {
                    return Err(err(
                        F,
                        line,
                        format!("{} cells for {} columns", w.len() - 2, columns.len()),
                    ));
                }
                let mut cells = Vec::new();
                for c in &w[2..] {
                    cells.push(parse_cell(c).ok_or_else(|| {
                        err(
                            F,
                            line,
                            format!("'{c}' is not a result (-, A2/2, D1/1, A1/0+D1/0)"),
                        )
                    })?);
                }
                rows[r - 1] = Some(cells);
            }
            other => return Err(err(F, line, format!("unknown statement '{other}'"))),
        }
    }
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.ok_or_else(|| err(F, 0, format!("the row of roll {} is missing", i + 1))))
        .collect::<Result<_, _>>()?;
    Ok(FightTable { columns, rows })
}

fn parse_cell(c: &str) -> Option<Cell> {
    let mut cell = Cell::default();
    if c == "-" {
        return Some(cell);
    }
    for part in c.split('+') {
        let (side, rest) = part.split_at_checked(1)?;
        let (lost, withdraw) = rest.split_once('/')?;
        let hit = Hit {
            lost: lost.parse().ok()?,
            withdraw: withdraw.parse().ok()?,
        };
        match side {
            "A" => cell.attacker = hit,
            "D" => cell.defender = hit,
            _ => return None,
        }
    }
    Some(cell)
}

/// What a task card asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    Reach(Tile),
    Carry(Kind, Tile),
    Repair(Tile),
    /// Read a floppy disk at computer N.
    Read(u8),
}

/// A task card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskCard {
    pub n: u8,
    pub text: String,
    pub condition: Condition,
}

pub fn parse_tasks(text: &str, base: &Base) -> Result<Vec<TaskCard>, DataError> {
    const F: &str = "tasks";
    let mut out: Vec<TaskCard> = Vec::new();
    for (line, w) in statements(F, text)? {
        if w[0] != "task" || w.len() < 5 {
            return Err(err(
                F,
                line,
                "write: task N \"Text\" reach|carry|repair|read ...",
            ));
        }
        let n: u8 = number(F, line, w.get(1), "the card's number")?;
        if n == 0 || out.iter().any(|t| t.n == n) {
            return Err(err(F, line, format!("card number {n} is 0 or given twice")));
        }
        let place = |word: &String| {
            base.place(word)
                .ok_or_else(|| err(F, line, format!("'{word}' is not a place of the base")))
        };
        let condition = match w[3].as_str() {
            "reach" => Condition::Reach(place(&w[4])?),
            "repair" => Condition::Repair(place(&w[4])?),
            "carry" => {
                let k = Kind::parse(&w[4])
                    .ok_or_else(|| err(F, line, format!("'{}' is not an item kind", w[4])))?;
                let p = w
                    .get(5)
                    .ok_or_else(|| err(F, line, "carry ITEM PLACE: the place is missing"))?;
                Condition::Carry(k, place(p)?)
            }
            "read" => {
                let t = place(&w[4])?;
                Condition::Read(
                    base.computer_at(t)
                        .ok_or_else(|| err(F, line, format!("'{}' is not a computer", w[4])))?,
                )
            }
            other => return Err(err(F, line, format!("unknown task kind '{other}'"))),
        };
        out.push(TaskCard {
            n,
            text: w[2].clone(),
            condition,
        });
    }
    if out.is_empty() || out.len() > 60 {
        return Err(err(F, 0, "the task pile has 1 to 60 cards"));
    }
    Ok(out)
}

/// Everything the game reads from data, kept in the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Content {
    pub base: Base,
    pub items: Items,
    pub characters: Vec<CharacterCard>,
    pub table: FightTable,
    pub tasks: Vec<TaskCard>,
}

/// The content from texts (the shipped files where `None`).
pub fn content(
    base: Option<&str>,
    items: Option<&str>,
    characters: Option<&str>,
    table: Option<&str>,
    tasks: Option<&str>,
) -> Result<Content, DataError> {
    // The shipped files are read once; a player's own file replaces one of
    // them (and the characters or tasks are read again against a player's
    // own items or base).
    let mut c = shipped()?.clone();
    if let Some(t) = base {
        c.base = parse_base(t)?;
    }
    if let Some(t) = items {
        c.items = parse_items(t)?;
    }
    if characters.is_some() || items.is_some() {
        c.characters = parse_characters(characters.unwrap_or(CHARACTERS), &c.items)?;
    }
    if let Some(t) = table {
        c.table = parse_table(t)?;
    }
    if tasks.is_some() || base.is_some() {
        c.tasks = parse_tasks(tasks.unwrap_or(TASKS), &c.base)?;
    }
    Ok(c)
}

/// The shipped files, read once.
fn shipped() -> Result<&'static Content, DataError> {
    static SHIPPED: std::sync::LazyLock<Result<Content, DataError>> =
        std::sync::LazyLock::new(|| {
            let base = parse_base(BASE)?;
            let items = parse_items(ITEMS)?;
            let characters = parse_characters(CHARACTERS, &items)?;
            let table = parse_table(TABLE)?;
            let tasks = parse_tasks(TASKS, &base)?;
            Ok(Content {
                base,
                items,
                characters,
                table,
                tasks,
            })
        });
    SHIPPED.as_ref().map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_files_parse() {
        let c = content(None, None, None, None, None).unwrap();
        assert_eq!(c.tasks.len(), 20);
        assert_eq!(c.characters.len(), 6);
        assert_eq!(c.base.hatches.len(), 5);
        assert_eq!(c.table.rows.len(), 6);
    }

    #[test]
    fn errors_name_the_line() {
        let bad = BASE.replace("hatch 3 W9", "hatch 3 A1");
        let e = parse_base(&bad).unwrap_err();
        assert!(e.to_string().contains("line "), "{e}");
        assert!(e.to_string().contains("wall"), "{e}");
        let e = parse_table(&TABLE.replace("D4/3      D4/3\n", "D4/3      X9\n")).unwrap_err();
        assert!(e.line > 0 && e.message.contains("X9"), "{e}");
    }
}
