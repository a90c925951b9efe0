//! The vocabulary of Alien Invasion that the data files, the table geometry
//! and the rules share: points in hundredths of an inch, cover classes, kill
//! scores, model types, factions and scenarios.
//!
//! Everything here is integers (a state is hashed and compared; no floats, no
//! hash maps): a distance of 8" is `800`.

use serde::{Deserialize, Serialize};

/// Hundredths of an inch per inch.
pub const INCH: i32 = 100;

/// A point on the table, in hundredths of an inch; `(0, 0)` is the top left
/// corner seen from above, `x` to the right, `y` down.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// In whole inches, for tests and data: `Point::inches(6, 4)`.
    pub const fn inches(x: i32, y: i32) -> Self {
        Self {
            x: x * INCH,
            y: y * INCH,
        }
    }

    /// The distance to `other` in hundredths of an inch, rounded down.
    pub fn distance(self, other: Point) -> i32 {
        let dx = i64::from(self.x - other.x);
        let dy = i64::from(self.y - other.y);
        isqrt(dx * dx + dy * dy) as i32
    }
}

/// Integer square root (floor), so that distances are the same on every machine.
pub fn isqrt(n: i64) -> i64 {
    if n <= 0 {
        return 0;
    }
    let mut x = (n as f64).sqrt() as i64;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

/// The three cover classes of the text ("Cover is given three definitions").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    /// Open terrain that offers no protection.
    Open,
    /// Terrain that offers some protection or hinders an enemy seeing you.
    Cover,
    /// Hardened terrain that offers substantial protection.
    Building,
}

impl Cover {
    pub fn word(self) -> &'static str {
        match self {
            Cover::Open => "open",
            Cover::Cover => "cover",
            Cover::Building => "a building",
        }
    }
}

/// The total of shooting dice that kills one figure, per cover class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KillScores {
    pub open: u32,
    pub cover: u32,
    pub building: u32,
}

impl KillScores {
    pub fn against(self, cover: Cover) -> u32 {
        match cover {
            Cover::Open => self.open,
            Cover::Cover => self.cover,
            Cover::Building => self.building,
        }
    }
}

/// How a model type moves on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mobility {
    /// On foot: the move ends on entering a terrain feature or crossing a
    /// linear barrier ("Move").
    Foot,
    /// Unaffected by terrain except soft going, which it cannot cross unless
    /// it can jump it (less than 8" across): Spugs (`jump: true`) and Mites.
    Unhindered { jump: bool },
    /// Cannot move on the surface (Burrowers): tunnels instead.
    Burrow,
    /// A ground vehicle: straight ahead in its facing, turns at the end; an
    /// off-road vehicle may enter rough terrain (cover), a road vehicle only open.
    Vehicle { off_road: bool },
    /// A helicopter or other VTOL craft: take off, travel anywhere, land.
    Vtol,
}

/// A kind of figure in a faction file: `model ID "Name" ...`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelType {
    pub id: String,
    pub name: String,
    /// The species, for the MiB's study ("once per different alien").
    pub species: String,
    /// Shooting dice (D6); 0 for a model that cannot shoot (Mites).
    pub shoot: u8,
    /// Close-combat dice when they differ from the shooting dice.
    pub melee: Option<u8>,
    /// The move distance in hundredths of an inch (800 for 8").
    pub moves: i32,
    pub kill: KillScores,
    pub mobility: Mobility,
    /// Spug Controller: directs and detonates Mites.
    pub controller: bool,
    /// A Mite: detonated by a Controller for a blast of 4D6.
    pub mite: bool,
    /// A heavy weapon of a Clean Up team: one more die than the others.
    pub heavy: bool,
    /// A vehicle's room for passengers, in figures (`carry N`; 0: none).
    /// A group boards it by moving into it ("A group's movement ends when it
    /// enters a terrain feature (including a vehicle)").
    pub carry: u8,
    /// What the Advanced Invasion Earth modules read of it (rule text 001).
    #[serde(default)]
    pub profile: super::advanced::Profile,
}

impl ModelType {
    /// The dice it rolls in hand-to-hand ("the same as for shooting unless
    /// there is a note in the faction background").
    pub fn melee_dice(&self) -> u8 {
        self.melee.unwrap_or(self.shoot)
    }
}

/// What a group is, beyond its figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupRole {
    /// An ordinary group, on the table from the start.
    #[default]
    Line,
    /// An MiB Clean Up section: arrives on a Special Event card, rolls the
    /// study successes + 1 per man, both sections act per action.
    CleanUp,
}

/// A group of a faction's organisation: `group ID "Name" TYPE TYPE ...`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupTemplate {
    pub id: String,
    pub name: String,
    /// Model type ids, one per figure.
    pub models: Vec<String>,
    pub role: GroupRole,
}

/// How many Action cards of each kind a faction has in the deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardMix {
    pub single: u8,
    pub double: u8,
    pub triple: u8,
}

impl Default for CardMix {
    /// "each faction will get 5 x Single Action cards, 3 x Double Actions
    /// cards and 1 x Triple Actions card".
    fn default() -> Self {
        Self {
            single: 5,
            double: 3,
            triple: 1,
        }
    }
}

/// The special rules a faction file can switch on (`rule NAME`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactionRules {
    /// `rule mib_dice`: each shot rolls a D6 for how many dice each operative rolls.
    pub mib_dice: bool,
    /// `rule study`: studies each alien species killed; a 6 adds 1D6 per operative.
    pub study: bool,
    /// `rule fight_to_death`: never falls back after hand-to-hand (Spugs).
    pub fight_to_death: bool,
    /// `rule underground`: strikes first in an underground melee (Spugs).
    pub underground: bool,
    /// `rule holes N`: Spug holes per squad, of which two are deployed at the start.
    pub holes: u8,
}

/// A faction file: `engine/data/invasion/factions/*.txt`, or the player's own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faction {
    pub id: String,
    pub name: String,
    /// Its colour on the table, sRGB.
    pub colour: [u8; 3],
    /// "Some factions have the ability of linked fire."
    pub link_fire: bool,
    pub cards: CardMix,
    pub rules: FactionRules,
    pub models: Vec<ModelType>,
    /// The groups on the table from the start.
    pub groups: Vec<GroupTemplate>,
    /// Groups that arrive later (Clean Up teams).
    pub reserves: Vec<GroupTemplate>,
    /// Xenolog's assumed profiles (`assumed TYPE FLAGS`): profile flags the
    /// rule texts do not give a model type, added to it only when a battle
    /// chooses the option `assumed_profiles` (and emptied at setup, so a
    /// battle's state holds the profiles it plays with).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<(String, super::advanced::Profile)>,
}

impl Faction {
    pub fn model(&self, id: &str) -> Option<&ModelType> {
        self.models.iter().find(|m| m.id == id)
    }
}

/// A terrain feature: a discrete area of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terrain {
    pub id: String,
    pub name: String,
    pub cover: Cover,
    /// Blocking terrain blocks lines of sight through it.
    pub blocks: bool,
    /// Soft going (water, marsh): Spugs and Mites cannot cross it.
    pub soft: bool,
    /// Its outline, a closed polygon (the first point is not repeated).
    pub outline: Vec<Point>,
}

/// A linear barrier (wall, fence): a move ends once it crosses one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Barrier {
    pub id: String,
    pub name: String,
    pub path: Vec<Point>,
}

/// Where a seat's faction deploys: a rectangle its groups are placed in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    pub min: Point,
    pub max: Point,
}

/// A scenario's special action (searching a building, operating machinery):
/// a group within `reach` of `at` rolls a D6 per figure; any 6 succeeds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecialAction {
    pub id: String,
    pub name: String,
    pub at: Point,
    /// Hundredths of an inch.
    pub reach: i32,
}

/// A victory condition of a scenario, for one faction (or for every one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VictoryKind {
    /// Succeed at this special action.
    Achieve(String),
    /// Have figures in this terrain feature (and no enemy there) at the end.
    Hold(String),
    /// Kill at least this many enemy figures.
    Kills(u32),
    /// Be the last faction with figures on the table.
    LastStanding,
    /// The MiB's own: a study success for every alien species present.
    StudyAll,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Victory {
    /// The seat (0-based) it belongs to; `None` for every seat.
    pub seat: Option<u8>,
    pub kind: VictoryKind,
    /// In words, as the scenario states it.
    pub text: String,
}

/// A scenario file: `engine/data/invasion/scenarios/*.txt`, or the player's own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub description: String,
    /// The table, in hundredths of an inch (7200 x 4800 for 6' x 4').
    pub width: i32,
    pub height: i32,
    /// Rounds of cards before the battle ends (0: until one faction is left).
    pub rounds: u32,
    pub terrain: Vec<Terrain>,
    pub barriers: Vec<Barrier>,
    /// Manhole covers (sewer entrances), for the sewers option.
    pub manholes: Vec<Point>,
    /// One deployment zone per seat, in seat order; its length is the most
    /// factions the scenario takes.
    pub zones: Vec<Zone>,
    /// The factions the scenario suggests, per seat (ids of faction files).
    pub factions: Vec<String>,
    pub specials: Vec<SpecialAction>,
    pub victories: Vec<Victory>,
}
