//! Faction and scenario files: parsing with errors that name the line.
//!
//! Both formats are line based, in the house style of the other games' data
//! files: one statement per line, words separated by spaces, a `"double
//! quoted"` word may hold spaces, `#` starts a comment (outside quotes).
//! Numbers of inches may have up to two decimals (`7.5`) and are stored in
//! hundredths of an inch ([`INCH`]); counts, dice and kill scores are whole.
//! Every statement is checked: a bad file gives a [`DataError`] naming its
//! line, never a panic, and absurd sizes are refused (see the `MAX_*`
//! constants) so that a stranger's file cannot make us allocate without bound.
//!
//! # Faction files (`engine/data/invasion/factions/*.txt`)
//!
//! ```text
//! faction ID "Name"          # once, required
//! colour R G B               # 0-255 each (default 128 128 128)
//! link yes|no                # linked fire (default no)
//! cards S D T                # Single, Double, Triple Action cards (default 5 3 1)
//! rule NAME                  # mib_dice, study, fight_to_death, underground, holes N
//! model ID "Name" species S shoot N [melee N] [move X] kill O C B [flags]
//!     # move in inches (default 8, the text's standard Move); kill scores for
//!     # open, cover, building; flags: foot (default), unhindered, jump
//!     # (unhindered and may jump), burrow, vehicle road|offroad, vtol,
//!     # controller, mite, heavy, carry N (a vehicle's room for N figures)
//!     # Advanced Invasion Earth (rule text 001) profile flags: leader,
//!     # stupid N (stupidity score 1-6), fear SPECIES[,SPECIES]|all [los]
//!     # (causes fear in those species; all: every species but its own;
//!     # los: line of sight required), weapon lmg|smg|bazooka|primitive|indirect
//!     # (the weapon type a module names), comm_link (Special Rule - Comm.
//!     # Link), radio (a radio operator), grapple N (a victim escapes on N+),
//!     # impetuous, armoured (primitive weapons cannot harm it), unstoppable
//!     # (moves through walls, fences and hedges), fly N (its fly move, inches),
//!     # no_sneak (cannot SNEAK: "No sneaking Daleks etc.")
//! assumed TYPE FLAGS        # Xenolog's assumed profile flags for a model type
//!     # given above (profile flags only): added to it only when a battle
//!     # chooses the option "Xenolog's assumed profiles" (`assumed_profiles`)
//! group ID "Name" TYPE TYPE ...            # one model type id per figure
//! reserve ID "Name" [cleanup] TYPE ...     # arrives later; cleanup: a Clean Up section
//! ```
//!
//! `species`, `shoot` and `kill` are required on a model line. A group's
//! figures must share kill scores (so that kills = total / kill score; an
//! assumption, the text never mixes them; a group that merges with
//! reinforcements in hand-to-hand may come to mix them, and then each
//! casualty is paid at its own kill score). A faction needs at least one group
//! (reserves alone are not enough); at most 60 figures a group.
//!
//! # Scenario files (`engine/data/invasion/scenarios/*.txt`)
//!
//! ```text
//! scenario "Name"                         # once, required
//! description "One paragraph."            # repeated lines are joined
//! table W H                               # inches, required, 6 to 240 each
//! rounds N                                # 0 (default) = until one faction is left
//! terrain ID "Name" open|cover|building [blocks] [soft] at X Y X Y X Y ...
//! barrier ID "Name" at X Y X Y ...        # a polyline of 2 or more points
//! manhole X Y
//! zone X1 Y1 X2 Y2                        # one per seat, in seat order
//! faction ID                              # the suggested faction, per seat, in order
//! special ID "Name" at X Y reach R
//! victory seat N|all achieve SPECIAL|hold TERRAIN|kills N|last_standing|study_all "Text"
//! ```
//!
//! Seats are numbered from 1 in files and stored from 0; a scenario has 2 to 6
//! zones, and no more `faction` lines than zones. Terrain outlines are
//! simple polygons of 3 or more points on the table; terrain pieces may not
//! overlap ("Terrain other than Open terrain should be placed so that it
//! occupies a discreet area"), though they may touch.

use geo::{Coord, LineString, Polygon, Relate, Validation};
use thiserror::Error;

use super::model::{
    Barrier, CardMix, Cover, Faction, FactionRules, GroupRole, GroupTemplate, INCH, KillScores,
    Mobility, ModelType, Point, Scenario, SpecialAction, Terrain, Victory, VictoryKind, Zone,
};

/// A problem in a faction or scenario file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct DataError {
    /// 1-based; 0 when the problem is not about one line (an empty file, a
    /// missing statement).
    pub line: usize,
    pub message: String,
}

impl DataError {
    fn file(message: impl Into<String>) -> Self {
        Self {
            line: 0,
            message: message.into(),
        }
    }
}

/// Largest file read.
pub const MAX_FILE_BYTES: usize = 256 * 1024;
/// Longest line read, in characters.
pub const MAX_LINE_CHARS: usize = 4000;
/// Longest id (`[a-z0-9_]`).
pub const MAX_ID_CHARS: usize = 32;
/// Longest name or victory text.
pub const MAX_NAME_CHARS: usize = 120;
/// Longest scenario description.
pub const MAX_DESCRIPTION_CHARS: usize = 4000;
/// Smallest and largest table side, in inches (20 feet).
pub const MIN_TABLE_INCHES: i32 = 6;
pub const MAX_TABLE_INCHES: i32 = 240;
pub const MAX_TERRAIN: usize = 100;
pub const MAX_BARRIERS: usize = 100;
pub const MAX_MANHOLES: usize = 50;
/// Most points in a terrain outline or a barrier.
pub const MAX_POINTS: usize = 64;
/// Most seats (the game is for 2 to 6 players).
pub const MAX_SEATS: usize = 6;
pub const MAX_SPECIALS: usize = 30;
pub const MAX_VICTORIES: usize = 60;
pub const MAX_ROUNDS: i64 = 99;
pub const MAX_MODEL_TYPES: usize = 40;
/// Most groups and reserves of a faction, together.
pub const MAX_GROUPS: usize = 40;
pub const MAX_GROUP_FIGURES: usize = 60;
/// Most figures of a faction, groups and reserves together.
pub const MAX_FACTION_FIGURES: usize = 300;
/// Most dice of one figure, shooting or in close combat.
pub const MAX_DICE: i64 = 36;
/// Most passengers of one vehicle.
pub const MAX_CARRY: i64 = 60;
pub const MAX_KILL: i64 = 999;
pub const MAX_MOVE_INCHES: i32 = 240;
pub const MAX_CARDS: i64 = 20;
pub const MAX_HOLES: i64 = 20;
pub const MAX_KILLS_TO_WIN: i64 = 999;

/// The shipped factions: id and file text.
pub const FACTIONS: &[(&str, &str)] = &[
    (
        "unit",
        include_str!("../../../data/invasion/factions/unit.txt"),
    ),
    (
        "daleks",
        include_str!("../../../data/invasion/factions/daleks.txt"),
    ),
    (
        "mib",
        include_str!("../../../data/invasion/factions/mib.txt"),
    ),
    (
        "spugs",
        include_str!("../../../data/invasion/factions/spugs.txt"),
    ),
];

/// The shipped scenarios: id and file text. The first is the default.
pub const SCENARIOS: &[(&str, &str)] = &[
    (
        "crash_site",
        include_str!("../../../data/invasion/scenarios/crash_site.txt"),
    ),
    (
        "skirmish",
        include_str!("../../../data/invasion/scenarios/skirmish.txt"),
    ),
];

/// A shipped faction, parsed (the tests check every shipped file parses).
///
/// Each shipped file is parsed once per process and the parsed value cloned
/// (setting up a battle parsed them every time: most of what starting a
/// battle cost). Parsing is deterministic, so the value is the same.
pub fn faction(id: &str) -> Option<Faction> {
    static PARSED: std::sync::LazyLock<Vec<Option<Faction>>> = std::sync::LazyLock::new(|| {
        FACTIONS
            .iter()
            .map(|(_, text)| parse_faction(text).ok())
            .collect()
    });
    let i = FACTIONS.iter().position(|(k, _)| *k == id)?;
    PARSED[i].clone()
}

/// A shipped scenario, parsed (the tests check every shipped file parses).
///
/// Parsed once per process, as [`faction`].
pub fn scenario(id: &str) -> Option<Scenario> {
    static PARSED: std::sync::LazyLock<Vec<Option<Scenario>>> = std::sync::LazyLock::new(|| {
        SCENARIOS
            .iter()
            .map(|(k, text)| parse_scenario(k, text).ok())
            .collect()
    });
    let i = SCENARIOS.iter().position(|(k, _)| *k == id)?;
    PARSED[i].clone()
}

// ---------------------------------------------------------------------------
// Lines and words

/// One statement: its line number and its words.
struct Line {
    no: usize,
    words: Vec<String>,
}

impl Line {
    fn err(&self, message: impl Into<String>) -> DataError {
        DataError {
            line: self.no,
            message: message.into(),
        }
    }

    fn key(&self) -> &str {
        // Invariant: `split` never makes a line without words.
        self.words.first().map(String::as_str).unwrap_or("")
    }

    fn word(&self, i: usize, what: &str) -> Result<&str, DataError> {
        self.words
            .get(i)
            .map(String::as_str)
            .ok_or_else(|| self.err(format!("'{}' needs {what}", self.key())))
    }

    /// Refuse words from position `n` on.
    fn end(&self, n: usize) -> Result<(), DataError> {
        match self.words.get(n) {
            Some(extra) => Err(self.err(format!(
                "unexpected '{}' after '{}'",
                clip(extra),
                clip(&self.words[..n].join(" "))
            ))),
            None => Ok(()),
        }
    }

    /// A whole number in `lo..=hi`.
    fn whole(&self, i: usize, what: &str, lo: i64, hi: i64) -> Result<i64, DataError> {
        let w = self.word(i, what)?;
        let n = whole_number(w).ok_or_else(|| {
            self.err(format!(
                "'{}' is not a valid {what} (a whole number from {lo} to {hi})",
                clip(w)
            ))
        })?;
        if !(lo..=hi).contains(&n) {
            return Err(self.err(format!(
                "{what} {n} is out of range (a whole number from {lo} to {hi})"
            )));
        }
        Ok(n)
    }

    /// A distance or coordinate in inches (up to two decimals), as hundredths
    /// of an inch in `lo..=hi` (given in hundredths).
    fn inches(&self, i: usize, what: &str, lo: i32, hi: i32) -> Result<i32, DataError> {
        let w = self.word(i, what)?;
        let n = hundredths(w).ok_or_else(|| {
            self.err(format!(
                "'{}' is not a valid {what} (inches, with up to two decimals, like 7.5)",
                clip(w)
            ))
        })?;
        if n < i64::from(lo) || n > i64::from(hi) {
            return Err(self.err(format!(
                "{what} {} is out of range ({} to {} inches)",
                show_inches(n),
                show_inches(i64::from(lo)),
                show_inches(i64::from(hi))
            )));
        }
        Ok(n as i32)
    }

    fn id(&self, i: usize, what: &str) -> Result<String, DataError> {
        let w = self.word(i, what)?;
        if w.is_empty()
            || w.chars().count() > MAX_ID_CHARS
            || !w
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            return Err(self.err(format!(
                "'{}' is not a valid {what}: an id is 1 to {MAX_ID_CHARS} of a-z, 0-9 and _",
                clip(w)
            )));
        }
        Ok(w.to_owned())
    }

    fn name(&self, i: usize, what: &str) -> Result<String, DataError> {
        self.text(i, what, MAX_NAME_CHARS)
    }

    /// A word of free text of at most `max` characters.
    fn text(&self, i: usize, what: &str, max: usize) -> Result<String, DataError> {
        let w = self.word(i, what)?;
        let noun = what.trim_end_matches(", in quotes");
        if w.trim().is_empty() {
            return Err(self.err(format!("{noun} is empty")));
        }
        if w.chars().count() > max {
            return Err(self.err(format!("{noun} is longer than {max} characters")));
        }
        if w.chars().any(char::is_control) {
            return Err(self.err(format!("{noun} holds a control character")));
        }
        Ok(w.to_owned())
    }

    fn yes_no(&self, i: usize, what: &str) -> Result<bool, DataError> {
        match self.word(i, what)? {
            "yes" => Ok(true),
            "no" => Ok(false),
            other => Err(self.err(format!("'{}' is not yes or no ({what})", clip(other)))),
        }
    }
}

/// At most 40 characters of a word, for messages.
fn clip(w: &str) -> String {
    if w.chars().count() <= 40 {
        w.to_owned()
    } else {
        let mut s: String = w.chars().take(40).collect();
        s.push('…');
        s
    }
}

fn show_inches(h: i64) -> String {
    let sign = if h < 0 { "-" } else { "" };
    let a = h.unsigned_abs();
    let (i, f) = (a / 100, a % 100);
    match f {
        0 => format!("{sign}{i}"),
        f if f % 10 == 0 => format!("{sign}{i}.{}", f / 10),
        f => format!("{sign}{i}.{f:02}"),
    }
}

fn whole_number(w: &str) -> Option<i64> {
    if w.is_empty() || w.len() > 9 || !w.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    w.parse().ok()
}

/// `7.5` → 750; at most six digits before the point and two after it.
fn hundredths(w: &str) -> Option<i64> {
    let (neg, body) = match w.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, w),
    };
    let (int, frac) = match body.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (body, None),
    };
    if int.is_empty() || int.len() > 6 || !int.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut v = int.parse::<i64>().ok()? * 100;
    if let Some(f) = frac {
        if f.is_empty() || f.len() > 2 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let fv = f.parse::<i64>().ok()?;
        v += if f.len() == 1 { fv * 10 } else { fv };
    }
    Some(if neg { -v } else { v })
}

/// Split a file into statements, refusing oversized files and lines and
/// unclosed quotes.
fn split(text: &str) -> Result<Vec<Line>, DataError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(DataError::file(format!(
            "the file is larger than {} KiB",
            MAX_FILE_BYTES / 1024
        )));
    }
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        if raw.chars().count() > MAX_LINE_CHARS {
            return Err(DataError {
                line: no,
                message: format!("the line is longer than {MAX_LINE_CHARS} characters"),
            });
        }
        let words = crate::games::words::words(raw).map_err(|m| DataError {
            line: no,
            message: m.into(),
        })?;
        if !words.is_empty() {
            out.push(Line { no, words });
        }
    }
    if out.is_empty() {
        return Err(DataError::file(
            "the file is empty (no statements, only blank lines and comments)",
        ));
    }
    Ok(out)
}

/// Refuse a second statement that may be given once.
fn once(first: &mut Option<usize>, l: &Line) -> Result<(), DataError> {
    if let Some(n) = *first {
        return Err(l.err(format!("'{}' is given twice (first on line {n})", l.key())));
    }
    *first = Some(l.no);
    Ok(())
}

/// Refuse an id already used (`seen` holds ids and their lines).
fn fresh(seen: &mut Vec<(String, usize)>, id: &str, what: &str, l: &Line) -> Result<(), DataError> {
    if let Some((_, n)) = seen.iter().find(|(k, _)| k == id) {
        return Err(l.err(format!("{what} id '{id}' is already used on line {n}")));
    }
    seen.push((id.to_owned(), l.no));
    Ok(())
}

// ---------------------------------------------------------------------------
// Factions

/// Read a faction file (format in the module documentation).
pub fn parse_faction(text: &str) -> Result<Faction, DataError> {
    let lines = split(text)?;
    let mut header: Option<(String, String)> = None;
    let mut header_line = None;
    let mut colour = [128, 128, 128];
    let mut colour_line = None;
    let mut link_fire = false;
    let mut link_line = None;
    let mut cards = CardMix::default();
    let mut cards_line = None;
    let mut rules = FactionRules::default();
    let mut rule_lines: Vec<(String, usize)> = Vec::new();
    let mut models: Vec<ModelType> = Vec::new();
    let mut model_ids: Vec<(String, usize)> = Vec::new();
    let mut assumed: Vec<(String, super::advanced::Profile)> = Vec::new();
    // (line, template, is a reserve) in file order, checked once every model is known
    let mut groups: Vec<(usize, GroupTemplate, bool)> = Vec::new();
    let mut group_ids: Vec<(String, usize)> = Vec::new();

    for l in &lines {
        match l.key() {
            "faction" => {
                once(&mut header_line, l)?;
                let id = l.id(1, "faction id")?;
                let name = l.name(2, "the faction's name, in quotes")?;
                l.end(3)?;
                header = Some((id, name));
            }
            "colour" => {
                once(&mut colour_line, l)?;
                for (k, c) in colour.iter_mut().enumerate() {
                    *c = l.whole(k + 1, "colour value (red green blue)", 0, 255)? as u8;
                }
                l.end(4)?;
            }
            "link" => {
                once(&mut link_line, l)?;
                link_fire = l.yes_no(1, "linked fire")?;
                l.end(2)?;
            }
            "cards" => {
                once(&mut cards_line, l)?;
                cards = CardMix {
                    single: l.whole(1, "number of Single Action cards", 0, MAX_CARDS)? as u8,
                    double: l.whole(2, "number of Double Action cards", 0, MAX_CARDS)? as u8,
                    triple: l.whole(3, "number of Triple Action cards", 0, MAX_CARDS)? as u8,
                };
                l.end(4)?;
                if cards.single == 0 && cards.double == 0 && cards.triple == 0 {
                    return Err(l.err("a faction needs at least one Action card"));
                }
            }
            "rule" => {
                let r = l.word(
                    1,
                    "a rule (mib_dice, study, fight_to_death, underground, holes N)",
                )?;
                if let Some((_, n)) = rule_lines.iter().find(|(k, _)| k == r) {
                    return Err(l.err(format!(
                        "rule '{}' is given twice (first on line {n})",
                        clip(r)
                    )));
                }
                rule_lines.push((r.to_owned(), l.no));
                match r {
                    "mib_dice" => rules.mib_dice = true,
                    "study" => rules.study = true,
                    "fight_to_death" => rules.fight_to_death = true,
                    "underground" => rules.underground = true,
                    "holes" => {
                        rules.holes = l.whole(2, "number of holes per squad", 0, MAX_HOLES)? as u8;
                        l.end(3)?;
                        continue;
                    }
                    other => {
                        return Err(l.err(format!(
                            "unknown rule '{}' (mib_dice, study, fight_to_death, underground, holes N)",
                            clip(other)
                        )));
                    }
                }
                l.end(2)?;
            }
            "model" => {
                if models.len() >= MAX_MODEL_TYPES {
                    return Err(l.err(format!(
                        "a faction may have at most {MAX_MODEL_TYPES} model types"
                    )));
                }
                let m = parse_model(l)?;
                fresh(&mut model_ids, &m.id, "model", l)?;
                models.push(m);
            }
            "assumed" => {
                // Xenolog's assumed profile flags for a model type given
                // above: read as a model line's profile flags.
                let id = l.id(1, "model id")?;
                if !models.iter().any(|m| m.id == id) {
                    return Err(l.err(format!(
                        "'assumed' names model '{}', which is not given above it",
                        clip(&id)
                    )));
                }
                if assumed.iter().any(|(m, _)| *m == id) {
                    return Err(l.err(format!("model '{}' has two 'assumed' lines", clip(&id))));
                }
                if l.words.len() < 3 {
                    return Err(l.err("'assumed' needs profile flags after the model id"));
                }
                let words: Vec<String> = ["model", &id, "assumed", "species", "assumed"]
                    .into_iter()
                    .map(str::to_owned)
                    .chain(["shoot", "0", "kill", "1", "1", "1"].map(str::to_owned))
                    .chain(l.words[2..].iter().cloned())
                    .collect();
                let m = parse_model(&Line { no: l.no, words })?;
                if m.melee.is_some()
                    || m.moves != 8 * INCH
                    || m.mobility != Mobility::Foot
                    || m.controller
                    || m.mite
                    || m.heavy
                    || m.carry != 0
                {
                    return Err(l.err(
                        "an 'assumed' line gives only Advanced Invasion Earth profile flags (leader, stupid, fear, weapon, comm_link, radio, grapple, impetuous, armoured, unstoppable, fly)",
                    ));
                }
                assumed.push((id, m.profile));
            }
            "group" | "reserve" => {
                if groups.len() >= MAX_GROUPS {
                    return Err(l.err(format!(
                        "a faction may have at most {MAX_GROUPS} groups and reserves"
                    )));
                }
                let reserve = l.key() == "reserve";
                let id = l.id(1, "group id")?;
                fresh(&mut group_ids, &id, "group", l)?;
                let name = l.name(2, "the group's name, in quotes")?;
                let mut from = 3;
                let mut role = GroupRole::Line;
                if reserve && l.words.get(3).map(String::as_str) == Some("cleanup") {
                    role = GroupRole::CleanUp;
                    from = 4;
                }
                let figures = &l.words[from.min(l.words.len())..];
                if figures.is_empty() {
                    return Err(l.err(format!(
                        "group '{id}' has no figures: list a model type id per figure"
                    )));
                }
                if figures.len() > MAX_GROUP_FIGURES {
                    return Err(l.err(format!(
                        "group '{id}' has {} figures: at most {MAX_GROUP_FIGURES}",
                        figures.len()
                    )));
                }
                groups.push((
                    l.no,
                    GroupTemplate {
                        id,
                        name,
                        models: figures.to_vec(),
                        role,
                    },
                    reserve,
                ));
            }
            other => {
                return Err(l.err(format!(
                    "unknown statement '{}' (faction, colour, link, cards, rule, model, group, reserve)",
                    clip(other)
                )));
            }
        }
    }

    let (id, name) =
        header.ok_or_else(|| DataError::file("the file has no 'faction ID \"Name\"' line"))?;
    if groups.iter().all(|(_, _, reserve)| *reserve) {
        return Err(DataError::file(
            "the faction has no groups: add a 'group ID \"Name\" TYPE ...' line",
        ));
    }
    let mut total = 0usize;
    let mut on_table = Vec::new();
    let mut reserves = Vec::new();
    for (no, g, reserve) in groups {
        let at = |message: String| DataError { line: no, message };
        let mut first: Option<&ModelType> = None;
        for t in &g.models {
            if t == "cleanup" {
                return Err(at(
                    "'cleanup' goes right after the name, and only on a reserve line".into(),
                ));
            }
            let m = models.iter().find(|m| &m.id == t).ok_or_else(|| {
                at(format!(
                    "group '{}' names an unknown model type '{}' (declare it with a 'model' line)",
                    g.id,
                    clip(t)
                ))
            })?;
            match first {
                None => first = Some(m),
                Some(f) if f.kill != m.kill => {
                    return Err(at(format!(
                        "group '{}' mixes kill scores: '{}' dies on {}/{}/{} but '{}' on {}/{}/{} (a group's figures must share kill scores)",
                        g.id,
                        f.id,
                        f.kill.open,
                        f.kill.cover,
                        f.kill.building,
                        m.id,
                        m.kill.open,
                        m.kill.cover,
                        m.kill.building
                    )));
                }
                Some(_) => {}
            }
        }
        total += g.models.len();
        if total > MAX_FACTION_FIGURES {
            return Err(at(format!(
                "the faction has more than {MAX_FACTION_FIGURES} figures"
            )));
        }
        if reserve {
            reserves.push(g);
        } else {
            on_table.push(g);
        }
    }
    Ok(Faction {
        id,
        name,
        colour,
        link_fire,
        cards,
        rules,
        models,
        groups: on_table,
        reserves,
        assumed,
    })
}

fn parse_model(l: &Line) -> Result<ModelType, DataError> {
    let id = l.id(1, "model id")?;
    if id == "cleanup" {
        return Err(l.err("'cleanup' is a word of reserve lines, not a model id"));
    }
    let name = l.name(2, "the model's name, in quotes")?;
    let mut species = None;
    let mut shoot = None;
    let mut melee = None;
    let mut moves = None;
    let mut kill = None;
    let mut mobility: Option<(&str, Mobility)> = None;
    let (mut controller, mut mite, mut heavy) = (false, false, false);
    let mut carry = None;
    let mut profile = super::advanced::Profile::default();
    let mut seen: Vec<&str> = Vec::new();
    let mut i = 3;
    while i < l.words.len() {
        let w = l.words[i].as_str();
        if seen.contains(&w) {
            return Err(l.err(format!("'{}' is given twice", clip(w))));
        }
        let mut used = 1;
        let mut go: Option<Mobility> = None;
        match w {
            "species" => {
                species = Some(l.id(i + 1, "species")?);
                used = 2;
            }
            "shoot" => {
                shoot = Some(l.whole(i + 1, "number of shooting dice", 0, MAX_DICE)? as u8);
                used = 2;
            }
            "melee" => {
                melee = Some(l.whole(i + 1, "number of close combat dice", 0, MAX_DICE)? as u8);
                used = 2;
            }
            "move" => {
                moves = Some(l.inches(i + 1, "move", 0, MAX_MOVE_INCHES * INCH)?);
                used = 2;
            }
            "kill" => {
                kill = Some(KillScores {
                    open: l.whole(i + 1, "kill score in the open", 1, MAX_KILL)? as u32,
                    cover: l.whole(i + 2, "kill score in cover", 1, MAX_KILL)? as u32,
                    building: l.whole(i + 3, "kill score in a building", 1, MAX_KILL)? as u32,
                });
                used = 4;
            }
            "foot" => go = Some(Mobility::Foot),
            "unhindered" => go = Some(Mobility::Unhindered { jump: false }),
            "jump" => go = Some(Mobility::Unhindered { jump: true }),
            "burrow" => go = Some(Mobility::Burrow),
            "vtol" => go = Some(Mobility::Vtol),
            "vehicle" => {
                let off_road = match l.word(i + 1, "road or offroad")? {
                    "road" => false,
                    "offroad" => true,
                    other => {
                        return Err(l.err(format!(
                            "'{}' is not a kind of vehicle (road or offroad)",
                            clip(other)
                        )));
                    }
                };
                go = Some(Mobility::Vehicle { off_road });
                used = 2;
            }
            "controller" => controller = true,
            "mite" => mite = true,
            "heavy" => heavy = true,
            "carry" => {
                carry = Some(l.whole(i + 1, "number of passengers", 1, MAX_CARRY)? as u8);
                used = 2;
            }
            // The Advanced Invasion Earth profile (rule text 001).
            "leader" => profile.leader = true,
            "stupid" => {
                profile.stupidity = Some(l.whole(i + 1, "stupidity score", 1, 6)? as u8);
                used = 2;
            }
            "fear" => {
                let who = l.word(
                    i + 1,
                    "who it causes fear in (species, comma-separated, or all)",
                )?;
                let species = if who == "all" {
                    Vec::new()
                } else {
                    let mut v = Vec::new();
                    for sp in who.split(',') {
                        if sp.is_empty()
                            || sp.len() > MAX_ID_CHARS
                            || !sp
                                .bytes()
                                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                        {
                            return Err(l.err(format!(
                                "'{}' is not a species list for 'fear' (ids separated by commas, or all)",
                                clip(who)
                            )));
                        }
                        v.push(sp.to_owned());
                    }
                    v
                };
                let sight = l.words.get(i + 2).is_some_and(|w| w == "los");
                profile.fear = Some(super::advanced::Fear { species, sight });
                used = if sight { 3 } else { 2 };
            }
            "weapon" => {
                let w = l.word(
                    i + 1,
                    "weapon type (lmg, smg, bazooka, primitive, indirect)",
                )?;
                profile.weapon = Some(super::advanced::Weapon::parse(w).ok_or_else(|| {
                    l.err(format!(
                        "'{}' is not a weapon type (lmg, smg, bazooka, primitive, indirect)",
                        clip(w)
                    ))
                })?);
                used = 2;
            }
            "comm_link" => profile.comm_link = true,
            "grapple" => {
                profile.grapple = Some(l.whole(i + 1, "grapple score", 1, 6)? as u8);
                used = 2;
            }
            "impetuous" => profile.impetuous = true,
            "armoured" => profile.armoured = true,
            "unstoppable" => profile.unstoppable = true,
            "fly" => {
                profile.fly = Some(l.inches(i + 1, "fly move", INCH, MAX_MOVE_INCHES * INCH)?);
                used = 2;
            }
            "radio" => profile.radio = true,
            "no_sneak" => profile.no_sneak = true,
            other => {
                return Err(l.err(format!(
                    "unknown model keyword '{}' (species, shoot, melee, move, kill, foot, unhindered, jump, burrow, vehicle, vtol, controller, mite, heavy, carry, leader, stupid, fear, weapon, comm_link, radio, grapple, impetuous, armoured, unstoppable, fly, no_sneak)",
                    clip(other)
                )));
            }
        }
        if let Some(g) = go {
            mobility = Some(match mobility {
                None => (w, g),
                // `unhindered jump` (either order) is one way of moving
                Some((_, Mobility::Unhindered { .. }))
                    if matches!(g, Mobility::Unhindered { .. }) =>
                {
                    (w, Mobility::Unhindered { jump: true })
                }
                Some((before, _)) => {
                    return Err(l.err(format!(
                        "a model moves one way: '{before}' and '{w}' are both given"
                    )));
                }
            });
        }
        seen.push(w);
        i += used;
    }
    let need = |what: &str| l.err(format!("model '{id}' needs {what}"));
    let species = species.ok_or_else(|| need("'species NAME'"))?;
    let shoot = shoot.ok_or_else(|| need("'shoot N' (0 for a model that cannot shoot)"))?;
    let kill = kill.ok_or_else(|| need("'kill OPEN COVER BUILDING'"))?;
    let mobility = mobility.map(|(_, m)| m).unwrap_or(Mobility::Foot);
    if carry.is_some() && !matches!(mobility, Mobility::Vehicle { .. } | Mobility::Vtol) {
        return Err(l.err(format!(
            "model '{id}' carries passengers but is not a vehicle ('carry' needs 'vehicle road|offroad' or 'vtol')"
        )));
    }
    Ok(ModelType {
        species,
        shoot,
        kill,
        melee,
        // "The standard Move distance in the game is eight inches"
        moves: moves.unwrap_or(8 * INCH),
        mobility,
        controller,
        mite,
        heavy,
        carry: carry.unwrap_or(0),
        id,
        name,
        profile,
    })
}

// ---------------------------------------------------------------------------
// The advanced tables

/// Read the tables of Advanced Invasion Earth (`engine/data/invasion/advanced.txt`).
pub fn parse_tables(text: &str) -> Result<super::advanced::Tables, DataError> {
    use super::advanced::{FearEffect, StupidEffect, Tables};
    let lines = split(text)?;
    let mut stupidity: [Option<(StupidEffect, String)>; 6] = Default::default();
    let mut fear: [Option<(FearEffect, String)>; 6] = Default::default();
    let (mut recover, mut perception, mut leader, mut range) = (None, None, None, None);
    for l in &lines {
        match l.key() {
            "stupidity" => {
                let roll = l.whole(1, "roll (1-6)", 1, 6)? as usize;
                let effect = match l.word(2, "effect")? {
                    "contagious" => StupidEffect::Contagious,
                    "kill_everybody" => StupidEffect::KillEverybody,
                    "charge" => StupidEffect::Charge,
                    "awol" => StupidEffect::Awol,
                    "hide" => StupidEffect::Hide,
                    "war" => StupidEffect::War,
                    other => {
                        return Err(l.err(format!(
                            "'{}' is not a stupidity effect (contagious, kill_everybody, charge, awol, hide, war)",
                            clip(other)
                        )));
                    }
                };
                let words = l.name(3, "the result's words, in quotes")?;
                l.end(4)?;
                if stupidity[roll - 1].is_some() {
                    return Err(l.err(format!("stupidity roll {roll} is given twice")));
                }
                stupidity[roll - 1] = Some((effect, words));
            }
            "fear" => {
                let roll = l.whole(1, "roll (1-6)", 1, 6)? as usize;
                let effect = match l.word(2, "effect")? {
                    "brave" => FearEffect::Brave,
                    "freeze" => FearEffect::Freeze,
                    "run_away" => FearEffect::RunAway,
                    "insane" => FearEffect::Insane,
                    other => {
                        return Err(l.err(format!(
                            "'{}' is not a fear effect (brave, freeze, run_away, insane)",
                            clip(other)
                        )));
                    }
                };
                let words = l.name(3, "the result's words, in quotes")?;
                l.end(4)?;
                if fear[roll - 1].is_some() {
                    return Err(l.err(format!("fear roll {roll} is given twice")));
                }
                fear[roll - 1] = Some((effect, words));
            }
            "recover" => {
                once(&mut recover.map(|(_, n)| n), l)?;
                recover = Some((
                    l.whole(1, "the lowest roll that recovers", 1, 7)? as u8,
                    l.no,
                ));
                l.end(2)?;
            }
            "perception" => {
                once(&mut perception.map(|(_, n)| n), l)?;
                perception = Some((l.whole(1, "the perception roll needed", 1, 7)? as u8, l.no));
                l.end(2)?;
            }
            "perception_leader" => {
                once(&mut leader.map(|(_, n)| n), l)?;
                leader = Some((l.whole(1, "the leaders' bonus", 0, 6)? as u8, l.no));
                l.end(2)?;
            }
            "perception_range" => {
                once(&mut range.map(|(_, n)| n), l)?;
                range = Some((l.inches(1, "perception range", 0, 100 * INCH)?, l.no));
                l.end(2)?;
            }
            other => {
                return Err(l.err(format!(
                    "unknown keyword '{}' (stupidity, recover, fear, perception, perception_leader, perception_range)",
                    clip(other)
                )));
            }
        }
    }
    let full = |what: &str, missing: Option<usize>| match missing {
        Some(i) => Err(DataError::file(format!(
            "the {what} table has no roll {}",
            i + 1
        ))),
        None => Ok(()),
    };
    full("stupidity", stupidity.iter().position(Option::is_none))?;
    full("fear", fear.iter().position(Option::is_none))?;
    let need = |what: &str| DataError::file(format!("the file needs a '{what}' line"));
    Ok(Tables {
        stupidity: stupidity.into_iter().flatten().collect(),
        fear: fear.into_iter().flatten().collect(),
        recover: recover.ok_or_else(|| need("recover"))?.0,
        perception: perception.ok_or_else(|| need("perception"))?.0,
        perception_leader: leader.ok_or_else(|| need("perception_leader"))?.0,
        perception_range: range.ok_or_else(|| need("perception_range"))?.0,
    })
}

// ---------------------------------------------------------------------------
// Scenarios

/// Read a scenario file (format in the module documentation); `id` becomes
/// the scenario's id.
pub fn parse_scenario(id: &str, text: &str) -> Result<Scenario, DataError> {
    let lines = split(text)?;
    // The table first: every point is checked against it.
    let mut table_line = None;
    let (mut width, mut height) = (0, 0);
    for l in lines.iter().filter(|l| l.key() == "table") {
        once(&mut table_line, l)?;
        let (lo, hi) = (MIN_TABLE_INCHES * INCH, MAX_TABLE_INCHES * INCH);
        width = l.inches(1, "table width", lo, hi)?;
        height = l.inches(2, "table depth", lo, hi)?;
        l.end(3)?;
    }
    if table_line.is_none() {
        return Err(DataError::file(
            "the scenario has no 'table WIDTH DEPTH' line (inches)",
        ));
    }

    let mut name = None;
    let mut name_line = None;
    let mut description = String::new();
    let mut rounds = 0;
    let mut rounds_line = None;
    let mut terrain: Vec<Terrain> = Vec::new();
    let mut polygons: Vec<(Polygon<f64>, usize)> = Vec::new();
    let mut barriers = Vec::new();
    let mut manholes = Vec::new();
    let mut zones: Vec<Zone> = Vec::new();
    let mut factions: Vec<(String, usize)> = Vec::new();
    let mut specials: Vec<SpecialAction> = Vec::new();
    // victories with the seat as written (1-based) and their line
    let mut victories: Vec<(Victory, Option<i64>, usize)> = Vec::new();
    let mut ids: Vec<(String, usize)> = Vec::new();
    let x_of = |l: &Line, i: usize, what: &str| l.inches(i, what, 0, width);
    let y_of = |l: &Line, i: usize, what: &str| l.inches(i, what, 0, height);
    let point = |l: &Line, i: usize, what: &str| -> Result<Point, DataError> {
        Ok(Point::new(
            x_of(l, i, &format!("{what} x"))?,
            y_of(l, i + 1, &format!("{what} y"))?,
        ))
    };
    let points = |l: &Line, from: usize, what: &str| -> Result<Vec<Point>, DataError> {
        let rest = l.words.len().saturating_sub(from);
        if rest % 2 == 1 {
            return Err(l.err(format!(
                "the {what} has an x without its y: give X Y pairs in inches"
            )));
        }
        if rest / 2 > MAX_POINTS {
            return Err(l.err(format!("the {what} has more than {MAX_POINTS} points")));
        }
        (0..rest / 2)
            .map(|k| point(l, from + 2 * k, &format!("{what} point {}", k + 1)))
            .collect()
    };

    for l in &lines {
        match l.key() {
            "table" => {}
            "scenario" => {
                once(&mut name_line, l)?;
                name = Some(l.name(1, "the scenario's name, in quotes")?);
                l.end(2)?;
            }
            "description" => {
                let d = l.text(1, "the description, in quotes", MAX_DESCRIPTION_CHARS)?;
                l.end(2)?;
                if !description.is_empty() {
                    description.push(' ');
                }
                description.push_str(&d);
                if description.chars().count() > MAX_DESCRIPTION_CHARS {
                    return Err(l.err(format!(
                        "the description is longer than {MAX_DESCRIPTION_CHARS} characters"
                    )));
                }
            }
            "rounds" => {
                once(&mut rounds_line, l)?;
                rounds = l.whole(
                    1,
                    "number of rounds (0 = until one faction is left)",
                    0,
                    MAX_ROUNDS,
                )? as u32;
                l.end(2)?;
            }
            "terrain" => {
                if terrain.len() >= MAX_TERRAIN {
                    return Err(l.err(format!(
                        "a scenario may have at most {MAX_TERRAIN} terrain pieces"
                    )));
                }
                let tid = l.id(1, "terrain id")?;
                fresh(&mut ids, &tid, "terrain", l)?;
                let tname = l.name(2, "the terrain's name, in quotes")?;
                let cover = match l.word(3, "a cover class (open, cover or building)")? {
                    "open" => Cover::Open,
                    "cover" => Cover::Cover,
                    "building" => Cover::Building,
                    other => {
                        return Err(l.err(format!(
                            "'{}' is not a cover class (open, cover or building)",
                            clip(other)
                        )));
                    }
                };
                let (mut blocks, mut soft) = (false, false);
                let mut i = 4;
                loop {
                    match l.word(i, "'at' and the outline's points")? {
                        "blocks" if !blocks => blocks = true,
                        "soft" if !soft => soft = true,
                        "at" => break,
                        other => {
                            return Err(l.err(format!(
                                "unexpected '{}' in a terrain line (blocks, soft, then 'at' and the points)",
                                clip(other)
                            )));
                        }
                    }
                    i += 1;
                }
                let outline = points(l, i + 1, "outline")?;
                if outline.len() < 3 {
                    return Err(l.err(format!(
                        "the outline of '{tid}' has {} point(s): a terrain piece needs at least 3",
                        outline.len()
                    )));
                }
                let poly = polygon(&outline);
                if twice_area(&outline) == 0 || !poly.is_valid() {
                    return Err(l.err(format!(
                        "the outline of '{tid}' crosses itself or encloses no area"
                    )));
                }
                if let Some((_, n)) = polygons.iter().find(|(p, _)| {
                    let m = p.relate(&poly);
                    m.is_intersects() && !m.is_touches()
                }) {
                    let other = terrain
                        .iter()
                        .zip(&polygons)
                        .find(|(_, (_, k))| k == n)
                        .map(|(t, _)| t.id.as_str())
                        .unwrap_or("?");
                    return Err(l.err(format!(
                        "terrain '{tid}' overlaps '{other}' (line {n}): terrain pieces are discrete areas and may only touch"
                    )));
                }
                polygons.push((poly, l.no));
                terrain.push(Terrain {
                    id: tid,
                    name: tname,
                    cover,
                    blocks,
                    soft,
                    outline,
                });
            }
            "barrier" => {
                if barriers.len() >= MAX_BARRIERS {
                    return Err(l.err(format!(
                        "a scenario may have at most {MAX_BARRIERS} barriers"
                    )));
                }
                let bid = l.id(1, "barrier id")?;
                fresh(&mut ids, &bid, "barrier", l)?;
                let bname = l.name(2, "the barrier's name, in quotes")?;
                if l.word(3, "'at' and the barrier's points")? != "at" {
                    return Err(l.err(format!(
                        "expected 'at' before the barrier's points, not '{}'",
                        clip(&l.words[3])
                    )));
                }
                let path = points(l, 4, "barrier")?;
                if path.len() < 2 {
                    return Err(l.err(format!(
                        "barrier '{bid}' has {} point(s): a barrier needs at least 2",
                        path.len()
                    )));
                }
                if path.windows(2).any(|w| w[0] == w[1]) {
                    return Err(l.err(format!(
                        "barrier '{bid}' repeats a point: each stretch must have a length"
                    )));
                }
                barriers.push(Barrier {
                    id: bid,
                    name: bname,
                    path,
                });
            }
            "manhole" => {
                if manholes.len() >= MAX_MANHOLES {
                    return Err(l.err(format!(
                        "a scenario may have at most {MAX_MANHOLES} manholes"
                    )));
                }
                manholes.push(point(l, 1, "manhole")?);
                l.end(3)?;
            }
            "zone" => {
                if zones.len() >= MAX_SEATS {
                    return Err(l.err(format!(
                        "a scenario may have at most {MAX_SEATS} deployment zones (one per seat)"
                    )));
                }
                let min = point(l, 1, "zone corner")?;
                let max = point(l, 3, "zone corner")?;
                l.end(5)?;
                if min.x >= max.x || min.y >= max.y {
                    return Err(l.err(
                        "a zone is MIN_X MIN_Y MAX_X MAX_Y with the minimum below the maximum on both axes",
                    ));
                }
                zones.push(Zone { min, max });
            }
            "faction" => {
                if factions.len() >= MAX_SEATS {
                    return Err(l.err(format!(
                        "a scenario may suggest at most {MAX_SEATS} factions (one per seat)"
                    )));
                }
                let f = l.id(1, "faction id")?;
                l.end(2)?;
                factions.push((f, l.no));
            }
            "special" => {
                if specials.len() >= MAX_SPECIALS {
                    return Err(l.err(format!(
                        "a scenario may have at most {MAX_SPECIALS} special actions"
                    )));
                }
                let sid = l.id(1, "special action id")?;
                fresh(&mut ids, &sid, "special action", l)?;
                let sname = l.name(2, "the special action's name, in quotes")?;
                if l.word(3, "'at X Y reach R'")? != "at" {
                    return Err(l.err(format!(
                        "expected 'at X Y reach R', not '{}'",
                        clip(&l.words[3])
                    )));
                }
                let at = point(l, 4, "special action")?;
                if l.word(6, "'reach R' (inches)")? != "reach" {
                    return Err(l.err(format!(
                        "expected 'reach R' after the point, not '{}'",
                        clip(&l.words[6])
                    )));
                }
                let reach = l.inches(7, "reach", 0, width.max(height))?;
                l.end(8)?;
                specials.push(SpecialAction {
                    id: sid,
                    name: sname,
                    at,
                    reach,
                });
            }
            "victory" => {
                if victories.len() >= MAX_VICTORIES {
                    return Err(l.err(format!(
                        "a scenario may have at most {MAX_VICTORIES} victory conditions"
                    )));
                }
                let (seat, i) = match l.word(1, "'seat N' or 'all'")? {
                    "all" => (None, 2),
                    "seat" => (Some(l.whole(2, "seat", 0, 999)?), 3),
                    other => {
                        return Err(l.err(format!(
                            "expected 'seat N' or 'all' after 'victory', not '{}'",
                            clip(other)
                        )));
                    }
                };
                let kinds = "achieve SPECIAL, hold TERRAIN, kills N, last_standing or study_all";
                let (kind, next) = match l.word(i, kinds)? {
                    "achieve" => (
                        VictoryKind::Achieve(l.id(i + 1, "special action id")?),
                        i + 2,
                    ),
                    "hold" => (VictoryKind::Hold(l.id(i + 1, "terrain id")?), i + 2),
                    "kills" => (
                        VictoryKind::Kills(
                            l.whole(i + 1, "number of kills", 1, MAX_KILLS_TO_WIN)? as u32
                        ),
                        i + 2,
                    ),
                    "last_standing" => (VictoryKind::LastStanding, i + 1),
                    "study_all" => (VictoryKind::StudyAll, i + 1),
                    other => {
                        return Err(l.err(format!("unknown victory '{}' ({kinds})", clip(other))));
                    }
                };
                let text = l.name(next, "the victory in words, in quotes")?;
                l.end(next + 1)?;
                victories.push((
                    Victory {
                        seat: None,
                        kind,
                        text,
                    },
                    seat,
                    l.no,
                ));
            }
            other => {
                return Err(l.err(format!(
                    "unknown statement '{}' (scenario, description, table, rounds, terrain, barrier, manhole, zone, faction, special, victory)",
                    clip(other)
                )));
            }
        }
    }

    let name = name.ok_or_else(|| DataError::file("the file has no 'scenario \"Name\"' line"))?;
    if zones.len() < 2 {
        return Err(DataError::file(format!(
            "the scenario has {} deployment zone(s): give a 'zone' line per seat, at least 2",
            zones.len()
        )));
    }
    if let Some((f, no)) = factions.get(zones.len()) {
        return Err(DataError {
            line: *no,
            message: format!(
                "faction '{f}' is for seat {} but there are only {} deployment zones",
                zones.len() + 1,
                zones.len()
            ),
        });
    }
    let mut out_victories = Vec::with_capacity(victories.len());
    for (mut v, seat, no) in victories {
        let at = |message: String| DataError { line: no, message };
        if let Some(s) = seat {
            if s < 1 || s as usize > zones.len() {
                return Err(at(format!(
                    "seat {s} is out of range: seats are numbered 1 to {} (one per deployment zone)",
                    zones.len()
                )));
            }
            v.seat = Some((s - 1) as u8);
        }
        match &v.kind {
            VictoryKind::Achieve(s) if !specials.iter().any(|x| &x.id == s) => {
                return Err(at(format!(
                    "the victory names an unknown special action '{s}' (declare it with a 'special' line)"
                )));
            }
            VictoryKind::Hold(t) if !terrain.iter().any(|x| &x.id == t) => {
                return Err(at(format!(
                    "the victory names an unknown terrain '{t}' (declare it with a 'terrain' line)"
                )));
            }
            _ => {}
        }
        out_victories.push(v);
    }
    Ok(Scenario {
        id: id.to_owned(),
        name,
        description,
        width,
        height,
        rounds,
        terrain,
        barriers,
        manholes,
        zones,
        factions: factions.into_iter().map(|(f, _)| f).collect(),
        specials,
        victories: out_victories,
    })
}

/// Twice the signed area of an outline (shoelace), exact in integers.
fn twice_area(outline: &[Point]) -> i64 {
    let n = outline.len();
    (0..n)
        .map(|k| {
            let (a, b) = (outline[k], outline[(k + 1) % n]);
            i64::from(a.x) * i64::from(b.y) - i64::from(b.x) * i64::from(a.y)
        })
        .sum()
}

fn polygon(outline: &[Point]) -> Polygon<f64> {
    let ring: Vec<Coord<f64>> = outline
        .iter()
        .map(|p| Coord {
            x: f64::from(p.x),
            y: f64::from(p.y),
        })
        .collect();
    Polygon::new(LineString::new(ring), Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn shipped_faction(id: &str) -> Faction {
        let text = FACTIONS.iter().find(|(k, _)| *k == id).unwrap().1;
        parse_faction(text).unwrap_or_else(|e| panic!("{id}: {e}"))
    }

    fn shipped_scenario(id: &str) -> Scenario {
        let text = SCENARIOS.iter().find(|(k, _)| *k == id).unwrap().1;
        parse_scenario(id, text).unwrap_or_else(|e| panic!("{id}: {e}"))
    }

    fn dice(f: &Faction, g: &GroupTemplate) -> u32 {
        g.models
            .iter()
            .map(|m| u32::from(f.model(m).unwrap().shoot))
            .sum()
    }

    fn faction_err(text: &str) -> DataError {
        parse_faction(text).expect_err("the faction file should be refused")
    }

    fn scenario_err(text: &str) -> DataError {
        parse_scenario("t", text).expect_err("the scenario file should be refused")
    }

    /// A small good faction; tests append or change one line.
    const FACTION: &str = "faction f \"F\"\n\
        model a \"A\" species human shoot 1 kill 6 9 12\n\
        group g1 \"G\" a a\n";

    /// A small good scenario (8 lines); tests append one line.
    const SCENARIO: &str = "scenario \"S\"\n\
        table 48 48\n\
        terrain house \"House\" building blocks at 20 20 28 20 28 26 20 26\n\
        special radio \"Radio\" at 24 23 reach 4\n\
        zone 0 0 48 8\n\
        zone 0 40 48 48\n\
        faction unit\n\
        faction daleks\n";

    // --- shipped files ---------------------------------------------------

    #[test]
    fn every_shipped_faction_parses_under_its_own_id() {
        for (id, text) in FACTIONS {
            let f = parse_faction(text).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(f.id, *id);
            assert_eq!(faction(id), Some(f));
        }
        assert_eq!(faction("zygons"), None);
    }

    #[test]
    fn every_shipped_scenario_parses_and_names_shipped_factions() {
        for (id, text) in SCENARIOS {
            let s = parse_scenario(id, text).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(s.id, *id);
            assert_eq!(s.factions.len(), s.zones.len(), "{id}");
            for f in &s.factions {
                assert!(faction(f).is_some(), "{id} names faction {f}");
            }
            assert_eq!(scenario(id), Some(s));
        }
        assert_eq!(scenario("nowhere"), None);
    }

    #[test]
    fn shipped_deployment_zones_hold_no_blocking_terrain() {
        for (id, _) in SCENARIOS {
            let s = shipped_scenario(id);
            for (k, z) in s.zones.iter().enumerate() {
                let rect = polygon(&[
                    z.min,
                    Point::new(z.max.x, z.min.y),
                    z.max,
                    Point::new(z.min.x, z.max.y),
                ]);
                for t in s.terrain.iter().filter(|t| t.blocks) {
                    let m = rect.relate(&polygon(&t.outline));
                    assert!(
                        !m.is_intersects() || m.is_touches(),
                        "{id}: zone {} holds {}",
                        k + 1,
                        t.id
                    );
                }
            }
        }
    }

    #[test]
    fn shipped_barriers_and_manholes_stay_outside_terrain() {
        for (id, _) in SCENARIOS {
            let s = shipped_scenario(id);
            for t in &s.terrain {
                let area = polygon(&t.outline);
                for b in &s.barriers {
                    let path: LineString<f64> = b
                        .path
                        .iter()
                        .map(|p| Coord {
                            x: f64::from(p.x),
                            y: f64::from(p.y),
                        })
                        .collect();
                    let m = path.relate(&area);
                    assert!(
                        !m.is_intersects() || m.is_touches(),
                        "{id}: {} crosses {}",
                        b.id,
                        t.id
                    );
                }
                for p in &s.manholes {
                    let c = geo::Point::new(f64::from(p.x), f64::from(p.y));
                    assert!(
                        !c.relate(&area).is_intersects(),
                        "{id}: a manhole in {}",
                        t.id
                    );
                }
            }
        }
    }

    #[test]
    fn crash_site_is_four_players_on_six_by_four_feet_for_eight_rounds() {
        let s = shipped_scenario("crash_site");
        assert_eq!((s.width, s.height), (72 * INCH, 48 * INCH));
        assert_eq!(s.rounds, 8);
        assert_eq!(s.zones.len(), 4);
        assert_eq!(s.factions, ["unit", "daleks", "mib", "spugs"]);
        assert_eq!(s.manholes.len(), 4);
        assert!(s.terrain.iter().any(|t| t.cover == Cover::Building));
        assert!(s.terrain.iter().any(|t| t.cover == Cover::Cover));
        assert!(s.terrain.iter().any(|t| t.soft));
        assert!(s.barriers.len() >= 2);
        assert!(s.specials.len() >= 2);
        let mib = s
            .victories
            .iter()
            .find(|v| v.kind == VictoryKind::StudyAll)
            .unwrap();
        assert_eq!(mib.seat, Some(2), "the MiB sit in seat 3");
        for seat in 0..4 {
            assert!(s.victories.iter().any(|v| v.seat == Some(seat)));
        }
    }

    #[test]
    fn skirmish_is_unit_against_daleks_on_four_by_four_feet_for_six_rounds() {
        let s = shipped_scenario("skirmish");
        assert_eq!((s.width, s.height), (48 * INCH, 48 * INCH));
        assert_eq!(s.rounds, 6);
        assert_eq!(s.factions, ["unit", "daleks"]);
        assert!(!s.terrain.is_empty());
    }

    // --- the numbers the text states --------------------------------------

    #[test]
    fn every_shipped_faction_has_the_default_card_mix() {
        // "5 x Single Action cards, 3 x Double Actions cards and 1 x Triple"
        for (id, _) in FACTIONS {
            let f = shipped_faction(id);
            assert_eq!(
                (f.cards.single, f.cards.double, f.cards.triple),
                (5, 3, 1),
                "{id}"
            );
        }
        let f = parse_faction(FACTION).unwrap();
        assert_eq!(f.cards, CardMix::default());
    }

    #[test]
    fn a_unit_section_is_four_men_rolling_8d6_killed_on_6_9_12() {
        let f = shipped_faction("unit");
        assert!(f.link_fire);
        assert!(!f.groups.is_empty());
        for g in &f.groups {
            assert_eq!(g.models.len(), 4, "sections of four");
            assert_eq!(dice(&f, g), 8, "two rifles, a LSW and a LAWS");
        }
        assert_eq!(f.groups.len() % 2, 0, "squads of eight are two sections");
        for m in &f.models {
            assert_eq!(m.kill.against(Cover::Open), 6);
            assert_eq!(m.kill.against(Cover::Building), 12);
            assert_eq!(m.kill.cover, 9);
            assert_eq!(m.moves, 8 * INCH);
            assert_eq!(m.mobility, Mobility::Foot);
        }
    }

    #[test]
    fn daleks_are_threes_of_6d6_killed_on_24_in_the_open() {
        let f = shipped_faction("daleks");
        let d = f.model("dalek").unwrap();
        assert_eq!(d.shoot, 6);
        assert_eq!(d.kill.open, 24);
        for g in &f.groups {
            assert_eq!(g.models.len(), 3);
        }
    }

    #[test]
    fn the_worked_shooting_example_comes_out_as_printed() {
        // A U.N.I.T. section rolls 29 at three Daleks: one explodes.
        let unit = shipped_faction("unit");
        let daleks = shipped_faction("daleks");
        let dalek = daleks.model("dalek").unwrap();
        assert_eq!(29 / dalek.kill.against(Cover::Open), 1);
        // Two Daleks roll 12D6 for 47: a section of four in the open dies.
        assert_eq!(2 * u32::from(dalek.shoot), 12);
        let man = unit.model("rifleman").unwrap();
        assert!(47 / man.kill.against(Cover::Open) >= 4);
        // In a building 36 of the 47 kill three; the last 11 do not.
        assert_eq!(47 / man.kill.against(Cover::Building), 3);
    }

    #[test]
    fn mib_pairs_move_8_without_linked_fire_killed_on_9_12_15() {
        let f = shipped_faction("mib");
        assert!(!f.link_fire);
        assert!(f.rules.mib_dice && f.rules.study);
        for g in &f.groups {
            assert_eq!(g.models.len(), 2, "pairs");
        }
        for m in &f.models {
            assert_eq!(m.moves, 8 * INCH);
            assert_eq!((m.kill.open, m.kill.cover, m.kill.building), (9, 12, 15));
        }
        assert_eq!(f.reserves.len(), 2, "two Clean Up sections");
        for r in &f.reserves {
            assert_eq!(r.role, GroupRole::CleanUp);
            assert_eq!(r.models.len(), 5, "sections of five");
            let heavy: Vec<_> = r
                .models
                .iter()
                .filter(|m| f.model(m).unwrap().heavy)
                .collect();
            assert_eq!(heavy.len(), 1, "one light support weapon");
            assert_eq!(r.models[0], "leader");
        }
    }

    #[test]
    fn spugs_move_16_and_jump_killed_on_9_12_15_with_a_4d6_heavy_weapon() {
        let f = shipped_faction("spugs");
        assert!(f.link_fire);
        assert!(f.rules.fight_to_death && f.rules.underground);
        assert_eq!(f.rules.holes, 3);
        for m in f.models.iter().filter(|m| m.species == "spug") {
            assert_eq!(m.moves, 16 * INCH);
            assert_eq!(m.mobility, Mobility::Unhindered { jump: true });
            assert_eq!((m.kill.open, m.kill.cover, m.kill.building), (9, 12, 15));
        }
        assert_eq!(f.model("spug").unwrap().shoot, 1);
        assert_eq!(f.model("gunner").unwrap().shoot, 4);
        assert_eq!(f.models.iter().filter(|m| m.controller).count(), 1);
        let controllers: usize = f
            .groups
            .iter()
            .flat_map(|g| &g.models)
            .filter(|m| f.model(m).unwrap().controller)
            .count();
        assert_eq!(controllers, 1, "a Controller in a squad");
    }

    #[test]
    fn mites_roll_2d6_in_melee_only_move_24_and_die_as_humans() {
        let f = shipped_faction("spugs");
        let m = f.model("mite").unwrap();
        assert!(m.mite);
        assert_eq!((m.shoot, m.melee_dice()), (0, 2));
        assert_eq!(m.moves, 24 * INCH);
        assert_eq!(m.mobility, Mobility::Unhindered { jump: false });
        assert_eq!((m.kill.open, m.kill.cover, m.kill.building), (6, 9, 12));
        let g = f.groups.iter().find(|g| g.models[0] == "mite").unwrap();
        assert!(
            g.models.iter().all(|x| x == "mite"),
            "Mites in groups of their own"
        );
    }

    #[test]
    fn burrowers_need_30_everywhere_roll_6d6_in_melee_and_burrow() {
        let f = shipped_faction("spugs");
        let w = f.model("worm").unwrap();
        assert_eq!((w.kill.open, w.kill.cover, w.kill.building), (30, 30, 30));
        assert_eq!(w.melee_dice(), 6);
        assert_eq!(w.mobility, Mobility::Burrow);
        assert_eq!(w.species, "burrower");
        assert!(f.groups.iter().any(|g| g.models == ["worm"]));
    }

    #[test]
    fn shipped_factions_have_roughly_the_same_shooting_dice() {
        // "make sure every side has roughly the same amount of shooting dice"
        // (the MiB's D6 per operative counted at its average, 3.5).
        let total = |id: &str| -> f64 {
            let f = shipped_faction(id);
            let d: u32 = f.groups.iter().map(|g| dice(&f, g)).sum();
            if f.rules.mib_dice {
                f64::from(d) * 3.5
            } else {
                f64::from(d)
            }
        };
        let all: Vec<f64> = FACTIONS.iter().map(|(id, _)| total(id)).collect();
        let (lo, hi) = all
            .iter()
            .fold((f64::MAX, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
        assert!(hi / lo < 1.4, "{all:?}");
    }

    // --- format details ---------------------------------------------------

    #[test]
    fn inches_take_up_to_two_decimals_and_are_stored_in_hundredths() {
        assert_eq!(hundredths("7.5"), Some(750));
        assert_eq!(hundredths("7.25"), Some(725));
        assert_eq!(hundredths("8"), Some(800));
        assert_eq!(hundredths("0.05"), Some(5));
        assert_eq!(hundredths("-3"), Some(-300));
        for bad in [
            "7.255", "7.", ".5", "1e3", "+3", "", "-", "1234567", "7,5", "x",
        ] {
            assert_eq!(hundredths(bad), None, "{bad}");
        }
        let f = parse_faction(&FACTION.replace("shoot 1", "shoot 1 move 7.5")).unwrap();
        assert_eq!(f.models[0].moves, 750);
    }

    #[test]
    fn a_reserve_with_cleanup_is_a_clean_up_section_and_flags_read_as_written() {
        let f = parse_faction(&format!(
            "{FACTION}model v \"Land Rover\" species human shoot 2 kill 6 9 12 vehicle offroad\n\
             model h \"Chopper\" species human shoot 2 kill 6 9 12 vtol heavy\n\
             reserve r \"R\" cleanup a a\nreserve q \"Q\" v h\n"
        ))
        .unwrap();
        assert_eq!(f.reserves[0].role, GroupRole::CleanUp);
        assert_eq!(f.reserves[1].role, GroupRole::Line);
        assert_eq!(
            f.model("v").unwrap().mobility,
            Mobility::Vehicle { off_road: true }
        );
        assert_eq!(f.model("h").unwrap().mobility, Mobility::Vtol);
        assert!(f.model("h").unwrap().heavy);
        assert_eq!(f.groups.len(), 1);
        assert_eq!(f.colour, [128, 128, 128]);
    }

    #[test]
    fn victory_seats_are_one_based_in_files_and_zero_based_stored() {
        let s = parse_scenario(
            "t",
            &format!(
                "{SCENARIO}victory seat 2 kills 6 \"Six\"\nvictory all last_standing \"Last\"\n"
            ),
        )
        .unwrap();
        assert_eq!(s.victories[0].seat, Some(1));
        assert_eq!(s.victories[0].kind, VictoryKind::Kills(6));
        assert_eq!(s.victories[1].seat, None);
        assert_eq!(s.rounds, 0, "no rounds line: until one faction is left");
    }

    #[test]
    fn the_error_reads_line_n_colon_message() {
        let e = DataError {
            line: 3,
            message: "bad".into(),
        };
        assert_eq!(e.to_string(), "line 3: bad");
    }

    // --- bad faction files ------------------------------------------------

    #[test]
    fn an_empty_file_is_refused() {
        for text in ["", "\n\n", "# only a comment\n   \n"] {
            let e = faction_err(text);
            assert_eq!(e.line, 0);
            assert!(e.message.contains("empty"), "{e}");
            assert_eq!(scenario_err(text).line, 0);
        }
    }

    #[test]
    fn a_faction_without_groups_is_refused() {
        let e = faction_err("faction f \"F\"\nmodel a \"A\" species h shoot 1 kill 6 9 12\n");
        assert_eq!(e.line, 0);
        assert!(e.message.contains("no groups"), "{e}");
        // reserves alone are not enough
        let e = faction_err(
            "faction f \"F\"\nmodel a \"A\" species h shoot 1 kill 6 9 12\nreserve r \"R\" a\n",
        );
        assert!(e.message.contains("no groups"), "{e}");
    }

    #[test]
    fn a_faction_without_its_faction_line_is_refused() {
        let e = faction_err("model a \"A\" species h shoot 1 kill 6 9 12\ngroup g \"G\" a\n");
        assert_eq!(e.line, 0);
        assert!(e.message.contains("'faction"), "{e}");
    }

    #[test]
    fn an_unknown_keyword_is_refused_naming_its_line() {
        let e = faction_err(&format!("{FACTION}\nspeed 12\n"));
        assert_eq!(e.line, 5);
        assert!(e.message.contains("unknown statement 'speed'"), "{e}");
        let e = faction_err(&FACTION.replace("shoot 1", "shoot 1 armour 3"));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("unknown model keyword 'armour'"), "{e}");
        let e = faction_err(&format!("{FACTION}rule teleport\n"));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("unknown rule"), "{e}");
        let e = scenario_err(&format!("{SCENARIO}weather rain\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("unknown statement 'weather'"), "{e}");
    }

    #[test]
    fn a_missing_value_is_refused_naming_its_line() {
        let e = faction_err(&FACTION.replace("kill 6 9 12", "kill 6 9"));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("needs"), "{e}");
        let e = faction_err(&FACTION.replace("shoot 1 ", ""));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("needs 'shoot"), "{e}");
        let e = faction_err(&format!("{FACTION}colour 1 2\n"));
        assert_eq!(e.line, 4);
        let e = scenario_err(&format!("{SCENARIO}manhole 3\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("needs"), "{e}");
        let e = scenario_err(&format!("{SCENARIO}special s \"S\" at 1 1\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("reach"), "{e}");
    }

    #[test]
    fn a_bad_number_is_refused_naming_its_line() {
        let e = faction_err(&FACTION.replace("shoot 1", "shoot one"));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("'one' is not a valid"), "{e}");
        let e = faction_err(&FACTION.replace("shoot 1", "shoot 1 move 7.555"));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("two decimals"), "{e}");
        let e = faction_err(&FACTION.replace("kill 6 9 12", "kill 0 9 12"));
        assert_eq!(e.line, 2, "a kill score of 0 would divide by zero");
        let e = faction_err(&format!("{FACTION}colour 1 2 256\n"));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("out of range"), "{e}");
        let e = scenario_err(&format!("{SCENARIO}rounds -1\n"));
        assert_eq!(e.line, 9);
    }

    #[test]
    fn a_huge_number_is_refused_not_overflowed() {
        let huge = "9".repeat(400);
        let e = faction_err(&FACTION.replace("shoot 1", &format!("shoot {huge}")));
        assert_eq!(e.line, 2);
        let e = faction_err(&FACTION.replace("shoot 1", "shoot 1 move 99999999999999999999.99"));
        assert_eq!(e.line, 2);
        let e = scenario_err(&SCENARIO.replace("table 48 48", "table 4294967296 48"));
        assert_eq!(e.line, 2);
    }

    #[test]
    fn a_duplicate_id_is_refused_naming_its_line() {
        let e = faction_err(&format!(
            "{FACTION}model a \"Again\" species h shoot 1 kill 6 9 12\n"
        ));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("already used on line 2"), "{e}");
        let e = faction_err(&format!("{FACTION}reserve g1 \"Again\" a\n"));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("already used on line 3"), "{e}");
        let e = scenario_err(&format!(
            "{SCENARIO}terrain house \"Again\" cover at 1 10 5 10 5 14\n"
        ));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("already used on line 3"), "{e}");
        let e = faction_err(&format!("{FACTION}faction g \"G\"\n"));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("given twice (first on line 1)"), "{e}");
        let e = faction_err(&format!("{FACTION}rule study\nrule study\n"));
        assert_eq!(e.line, 5);
        assert!(e.message.contains("given twice (first on line 4)"), "{e}");
    }

    #[test]
    fn a_group_naming_an_unknown_model_type_is_refused_naming_its_line() {
        let e = faction_err(&format!("{FACTION}group g2 \"G2\" a zygon\n"));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("unknown model type 'zygon'"), "{e}");
    }

    #[test]
    fn a_group_of_mixed_kill_scores_is_refused_naming_its_line() {
        let e = faction_err(&format!(
            "{FACTION}model b \"B\" species alien shoot 1 kill 9 12 15\ngroup g2 \"G2\" a b\n"
        ));
        assert_eq!(e.line, 5);
        assert!(e.message.contains("mixes kill scores"), "{e}");
    }

    #[test]
    fn a_group_without_figures_or_over_60_is_refused_naming_its_line() {
        let e = faction_err(&format!("{FACTION}group g2 \"G2\"\n"));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("no figures"), "{e}");
        let e = faction_err(&format!("{FACTION}group g2 \"G2\"{}\n", " a".repeat(61)));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("at most 60"), "{e}");
    }

    #[test]
    fn a_model_moving_two_ways_is_refused_naming_its_line() {
        let e = faction_err(&FACTION.replace("kill 6 9 12", "kill 6 9 12 burrow vtol"));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("moves one way"), "{e}");
        let f =
            parse_faction(&FACTION.replace("kill 6 9 12", "kill 6 9 12 jump unhindered")).unwrap();
        assert_eq!(f.models[0].mobility, Mobility::Unhindered { jump: true });
    }

    #[test]
    fn cleanup_on_a_group_line_is_refused_naming_its_line() {
        let e = faction_err(&format!("{FACTION}group g2 \"G2\" cleanup a\n"));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("reserve"), "{e}");
    }

    #[test]
    fn an_unclosed_quote_is_refused_naming_its_line() {
        let e = faction_err("faction f \"F\nmodel a");
        assert_eq!(e.line, 1);
        assert!(e.message.contains("not closed"), "{e}");
    }

    #[test]
    fn a_very_long_line_or_file_is_refused() {
        let e = faction_err(&format!("{FACTION}# {}\n", "x".repeat(MAX_LINE_CHARS + 1)));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("longer than"), "{e}");
        let e = faction_err(&"\n".repeat(MAX_FILE_BYTES + 1));
        assert_eq!(e.line, 0);
        assert!(e.message.contains("larger than"), "{e}");
    }

    #[test]
    fn a_bad_id_is_refused_naming_its_line() {
        let e = faction_err(&FACTION.replace("model a ", "model A-1 "));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("not a valid model id"), "{e}");
    }

    // --- bad scenario files -----------------------------------------------

    #[test]
    fn a_scenario_without_a_table_or_name_or_zones_is_refused() {
        let e = scenario_err(&SCENARIO.replace("table 48 48\n", ""));
        assert_eq!(e.line, 0);
        assert!(e.message.contains("'table"), "{e}");
        let e = scenario_err(&SCENARIO.replace("scenario \"S\"\n", ""));
        assert_eq!(e.line, 0);
        assert!(e.message.contains("'scenario"), "{e}");
        let e = scenario_err(
            &SCENARIO
                .replace("zone 0 40 48 48\n", "")
                .replace("faction daleks\n", ""),
        );
        assert_eq!(e.line, 0);
        assert!(e.message.contains("zone"), "{e}");
    }

    #[test]
    fn a_table_over_240_inches_is_refused_naming_its_line() {
        let e = scenario_err(&SCENARIO.replace("table 48 48", "table 241 48"));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("out of range"), "{e}");
        let e = scenario_err(&SCENARIO.replace("table 48 48", "table 48 2"));
        assert_eq!(e.line, 2);
    }

    #[test]
    fn more_than_100_terrain_pieces_are_refused_naming_the_101st() {
        let mut text = SCENARIO.replace("table 48 48", "table 240 240");
        for k in 0..101 {
            let (x, y) = (k % 10 * 20, 30 + k / 10 * 20);
            text.push_str(&format!(
                "terrain t{k} \"T\" cover at {x} {y} {} {y} {} {}\n",
                x + 5,
                x + 5,
                y + 5
            ));
        }
        let e = scenario_err(&text);
        // the house of line 3 is the first piece: t99 (line 108) is the 101st
        assert_eq!(e.line, 9 + 99);
        assert!(e.message.contains("at most 100 terrain"), "{e}");
    }

    #[test]
    fn a_polygon_with_fewer_than_3_points_is_refused_naming_its_line() {
        let e = scenario_err(&format!("{SCENARIO}terrain t \"T\" cover at 1 10 5 10\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("at least 3"), "{e}");
        let e = scenario_err(&format!("{SCENARIO}terrain t \"T\" cover at 1 10 5 10 5\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("without its y"), "{e}");
        let e = scenario_err(&format!("{SCENARIO}barrier b \"B\" at 1 10\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("at least 2"), "{e}");
    }

    #[test]
    fn a_flat_or_self_crossing_outline_is_refused_naming_its_line() {
        let e = scenario_err(&format!(
            "{SCENARIO}terrain t \"T\" cover at 1 10 5 10 9 10\n"
        ));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("no area"), "{e}");
        // a bow tie
        let e = scenario_err(&format!(
            "{SCENARIO}terrain t \"T\" cover at 1 10 5 14 5 10 1 14\n"
        ));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("crosses itself"), "{e}");
    }

    #[test]
    fn overlapping_terrain_is_refused_naming_the_later_line() {
        let e = scenario_err(&format!(
            "{SCENARIO}terrain yard \"Yard\" open at 26 24 32 24 32 30 26 30\n"
        ));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("overlaps 'house' (line 3)"), "{e}");
        // the same square twice, and one inside another
        let e = scenario_err(&format!(
            "{SCENARIO}terrain yard \"Yard\" open at 20 20 28 20 28 26 20 26\n"
        ));
        assert_eq!(e.line, 9);
        let e = scenario_err(&format!(
            "{SCENARIO}terrain yard \"Yard\" open at 21 21 22 21 22 22\n"
        ));
        assert_eq!(e.line, 9);
        // touching is fine
        parse_scenario(
            "t",
            &format!("{SCENARIO}terrain yard \"Yard\" open at 28 20 32 20 32 26 28 26\n"),
        )
        .unwrap();
    }

    #[test]
    fn a_point_off_the_table_is_refused_naming_its_line() {
        let e = scenario_err(&format!(
            "{SCENARIO}terrain t \"T\" cover at 1 10 49 10 5 14\n"
        ));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("out of range (0 to 48 inches)"), "{e}");
        let e = scenario_err(&format!("{SCENARIO}manhole 10 -1\n"));
        assert_eq!(e.line, 9);
        let e = scenario_err(&format!("{SCENARIO}barrier b \"B\" at 1 10 1 48.01\n"));
        assert_eq!(e.line, 9);
        let e = scenario_err(&format!("{SCENARIO}special s \"S\" at 50 1 reach 2\n"));
        assert_eq!(e.line, 9);
    }

    #[test]
    fn a_zone_off_the_table_is_refused_naming_its_line() {
        let e = scenario_err(&SCENARIO.replace("zone 0 40 48 48", "zone 0 40 48 49"));
        assert_eq!(e.line, 6);
        assert!(e.message.contains("out of range"), "{e}");
        let e = scenario_err(&SCENARIO.replace("zone 0 40 48 48", "zone 0 48 48 40"));
        assert_eq!(e.line, 6);
        assert!(e.message.contains("minimum below the maximum"), "{e}");
    }

    #[test]
    fn a_victory_naming_an_unknown_special_action_is_refused_naming_its_line() {
        let e = scenario_err(&format!("{SCENARIO}victory seat 1 achieve dig \"Dig\"\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("unknown special action 'dig'"), "{e}");
    }

    #[test]
    fn a_victory_naming_an_unknown_terrain_is_refused_naming_its_line() {
        let e = scenario_err(&format!(
            "{SCENARIO}victory seat 1 hold castle \"Castle\"\n"
        ));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("unknown terrain 'castle'"), "{e}");
    }

    #[test]
    fn a_victory_may_name_a_special_action_declared_after_it() {
        let s = parse_scenario(
            "t",
            &format!(
                "{SCENARIO}victory all achieve dig \"Dig\"\nspecial dig \"Dig\" at 1 1 reach 1\n"
            ),
        )
        .unwrap();
        assert_eq!(s.victories[0].kind, VictoryKind::Achieve("dig".into()));
    }

    #[test]
    fn a_seat_out_of_range_is_refused_naming_its_line() {
        let e = scenario_err(&format!("{SCENARIO}victory seat 3 kills 6 \"Six\"\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("seat 3 is out of range"), "{e}");
        // seats in files count from 1
        let e = scenario_err(&format!("{SCENARIO}victory seat 0 kills 6 \"Six\"\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("numbered 1 to 2"), "{e}");
        // more suggested factions than seats
        let e = scenario_err(&format!("{SCENARIO}faction mib\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("seat 3"), "{e}");
    }

    #[test]
    fn a_victory_without_its_text_is_refused_naming_its_line() {
        let e = scenario_err(&format!("{SCENARIO}victory all last_standing\n"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("in words"), "{e}");
    }

    // --- garbage never panics ---------------------------------------------

    const WORDS: &[&str] = &[
        "faction",
        "model",
        "group",
        "reserve",
        "cleanup",
        "rule",
        "holes",
        "cards",
        "link",
        "colour",
        "species",
        "shoot",
        "melee",
        "move",
        "kill",
        "jump",
        "unhindered",
        "burrow",
        "vehicle",
        "road",
        "vtol",
        "carry",
        "scenario",
        "table",
        "terrain",
        "cover",
        "open",
        "building",
        "blocks",
        "soft",
        "at",
        "barrier",
        "manhole",
        "zone",
        "special",
        "reach",
        "victory",
        "seat",
        "all",
        "achieve",
        "hold",
        "kills",
        "study_all",
        "a",
        "g",
        "t",
        "\"",
        "#",
        "0",
        "1",
        "3",
        "7.5",
        "48",
        "-1",
        "240",
        "99999999999",
        "\"N\"",
    ];

    fn statement() -> impl Strategy<Value = String> {
        proptest::collection::vec(proptest::sample::select(WORDS), 0..14)
            .prop_map(|ws| ws.join(" "))
    }

    proptest! {
        #[test]
        fn random_text_never_panics(text in "\\PC{0,400}") {
            let _ = parse_faction(&text);
            let _ = parse_scenario("x", &text);
        }

        #[test]
        fn random_statements_never_panic(lines in proptest::collection::vec(statement(), 0..30)) {
            let text = lines.join("\n");
            let _ = parse_faction(&text);
            let _ = parse_scenario("x", &text);
        }

        #[test]
        fn random_terrain_outlines_never_panic(
            outlines in proptest::collection::vec(
                proptest::collection::vec((0u8..=20, 0u8..=20), 0..8), 1..6)
        ) {
            let mut text = String::from("scenario \"S\"\ntable 20 20\nzone 0 0 1 1\nzone 19 19 20 20\n");
            for (k, o) in outlines.iter().enumerate() {
                let pts: Vec<String> = o.iter().map(|(x, y)| format!("{x} {y}")).collect();
                text.push_str(&format!("terrain t{k} \"T\" cover at {}\n", pts.join(" ")));
            }
            if let Ok(s) = parse_scenario("x", &text) {
                prop_assert!(s.terrain.iter().all(|t| t.outline.len() >= 3));
            }
        }

        #[test]
        fn rectangles_are_refused_exactly_when_their_insides_overlap(
            rects in proptest::collection::vec((0i32..16, 0i32..16, 1i32..6, 1i32..6), 1..6)
        ) {
            let mut text = String::from("scenario \"S\"\ntable 24 24\nzone 0 0 1 1\nzone 23 23 24 24\n");
            for (k, (x, y, w, h)) in rects.iter().enumerate() {
                let (x2, y2) = (x + w, y + h);
                text.push_str(&format!("terrain t{k} \"T\" cover at {x} {y} {x2} {y} {x2} {y2} {x} {y2}\n"));
            }
            let overlap = |a: &(i32, i32, i32, i32), b: &(i32, i32, i32, i32)| {
                a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
            };
            let any = (0..rects.len()).any(|i| (0..i).any(|j| overlap(&rects[i], &rects[j])));
            prop_assert_eq!(parse_scenario("x", &text).is_err(), any);
        }

        #[test]
        fn shipped_files_with_a_line_dropped_never_panic(drop in 0usize..120, which in 0usize..6) {
            let all: Vec<&str> = FACTIONS.iter().chain(SCENARIOS).map(|(_, t)| *t).collect();
            let text = all[which % all.len()];
            let cut: Vec<&str> = text.lines().enumerate().filter(|(i, _)| *i != drop).map(|(_, l)| l).collect();
            let cut = cut.join("\n");
            let _ = parse_faction(&cut);
            let _ = parse_scenario("x", &cut);
        }
    }
}
