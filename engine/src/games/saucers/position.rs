//! A position file: a game started from a moment of one's own (a scenario
//! of a club, a position to study, a test), laid over the opening deal.
//! Given on the command line with `battle --game saucers --scenario-file
//! FILE` (the config's `scenario_text`). One statement a line, words split
//! as in the data files (`"double quotes"` hold spaces), `#` starts a
//! comment. Every statement is optional: a small change is a small file
//! (one tile, one hand); whatever the file does not name stays as dealt.
//! Names are the ones players use: tiles by their coordinates (`C4`),
//! buildings, students, cards and missions by id or by name (any case),
//! seats by number (1 to 4) or gang; card numbers (`12`, an index into the
//! cards file's cards counting every copy, from 0) keep working.
//!
//! ```text
//! board TILE TILE ...        # the 36 buildings row by row from A1 to F6 (instead of the shuffle)
//! tile COORD TILE [searched] [destroyed]  # one building put on a tile (swapped with where it was)
//! searched C3 D4 ...         # tiles already searched
//! destroyed E5 ...           # craters
//! alien KIND COORD [DIR] [damage N]  # scout, probe, commander (alone) or saucer; a Scout's direction; hits taken this turn
//! student ID COORD [dead] [actions N] [mission MISSION|none]
//! hand SEAT CARD ...         # the seat's hand is these cards (its old cards go under the Human deck)
//! deck CARD ...              # these cards on top of the Human deck, the first named on top
//! discard CARD ...           # these cards in the discard pile
//! alien_deck CARD ...        # these Alien cards on top of the Alien deck, first named on top;
//!                            # an Alien card is KIND COORD [DIR], e.g. `alien_deck saucer C3 scout A2 n`
//! alien_left N               # the Alien deck cut to its top N cards (the rest set aside)
//! tokens SEAT KIND N ...     # a seat's supplies: food, ammo, fuel, scrap, alien
//! kills SEAT N               # aliens a seat has defeated this turn, not yet traded (and tallied)
//! turn SEAT [STEP]           # whose turn and its step: draw (the default), actions, defeat, upkeep, alien
//! ```
//!
//! With `turn`, the setup's mission-giving is skipped: each seat's dealt
//! mission goes to its first living student without one (a `student ...
//! mission` line gives one of one's own choosing). Every line is checked; a
//! bad one is refused naming its line, and so is a position that would
//! stall on a seat whose students are all dead (its turn, or without `turn`
//! the setup's mission-giving; rules version 6).

use serde::{Deserialize, Serialize};

use super::data::{AlienKind, Content, Dir, Kind, MAX_FILE, Pos, TILES, parse_coord};
use super::state::Phase;
use crate::games::words::words;

/// A student as the position file sets it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudentSet {
    /// Its I.D. (an index into the content's humans).
    pub def: u16,
    pub at: Pos,
    pub dead: bool,
    pub actions: Option<u8>,
    /// `Some(None)`: no mission; `Some(Some(m))`: this one.
    pub mission: Option<Option<u16>>,
}

/// What a position file lays over the deal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preset {
    /// Tile definitions row by row from A1.
    pub board: Option<Vec<u16>>,
    /// Single buildings put on tiles: (tile, building).
    pub tiles: Vec<(Pos, u16)>,
    pub searched: Vec<Pos>,
    pub destroyed: Vec<Pos>,
    /// Aliens placed: kind, tile, a Scout's direction, hits taken.
    pub aliens: Vec<(AlienKind, Pos, Option<Dir>, u8)>,
    /// Students set (tile, alive, actions, mission).
    pub students: Vec<StudentSet>,
    /// Hands by seat (cards by index into the content's cards).
    pub hands: Vec<(u8, Vec<u16>)>,
    /// Cards on top of the Human deck, the first on top.
    pub deck_top: Vec<u16>,
    pub discard: Vec<u16>,
    /// Alien cards on top of the Alien deck, the first on top.
    pub alien_top: Vec<u16>,
    pub alien_left: Option<u16>,
    pub tokens: Vec<(u8, Kind, u16)>,
    pub kills: Vec<(u8, u16)>,
    /// Whose turn and its step.
    pub turn: Option<(u8, Phase)>,
}

impl Preset {
    /// Whether the file sets more than the board, tiles, aliens and students'
    /// tiles (what a position file of rules version 1 could say): those
    /// parts are laid as one more event, `Overlaid`.
    pub fn overlays(&self) -> bool {
        !self.tiles.is_empty()
            || self
                .students
                .iter()
                .any(|s| s.dead || s.actions.is_some() || s.mission.is_some())
            || !self.hands.is_empty()
            || !self.deck_top.is_empty()
            || !self.discard.is_empty()
            || !self.alien_top.is_empty()
            || self.alien_left.is_some()
            || !self.tokens.is_empty()
            || !self.kills.is_empty()
            || self.turn.is_some()
    }
}

fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// A card by id, name or number (an index into the cards file's cards,
/// counting every copy, from 0).
pub fn card_named(content: &Content, w: &str) -> Option<u16> {
    if let Ok(i) = w.parse::<usize>() {
        return (i < content.cards.len()).then_some(i as u16);
    }
    content
        .cards
        .iter()
        .position(|c| same(&c.id, w) || same(&c.name, w))
        .map(|i| i as u16)
}

/// A student I.D. by id or name.
pub fn student_named(content: &Content, w: &str) -> Option<u16> {
    content
        .humans
        .iter()
        .position(|h| same(&h.id, w) || same(&h.name, w))
        .map(|i| i as u16)
}

/// A building by id or name.
pub fn building_named(content: &Content, w: &str) -> Option<u16> {
    content
        .tiles
        .iter()
        .position(|t| same(&t.id, w) || same(&t.name, w))
        .map(|i| i as u16)
}

/// A mission by id or name.
pub fn mission_named(content: &Content, w: &str) -> Option<u16> {
    content
        .missions
        .iter()
        .position(|m| same(&m.id, w) || same(&m.name, w))
        .map(|i| i as u16)
}

fn step_named(w: &str) -> Option<Phase> {
    Some(match w.to_ascii_lowercase().as_str() {
        "draw" => Phase::Draw,
        "actions" | "action" => Phase::Actions,
        "defeat" => Phase::Defeat,
        "upkeep" | "discard" => Phase::Upkeep,
        "alien" | "alien_turn" => Phase::Alien,
        _ => return None,
    })
}

/// Read a position file against the game's content and its seats' gangs
/// (indices into the content's gangs, in seat order). With `goes_on`
/// (rules version 6 on, review18 N1) a position the game cannot go on
/// from is refused: the turn of a seat whose students are all dead, or,
/// without a `turn` line, a seat with no living student to be given its
/// mission at the setup.
pub fn parse(
    text: &str,
    content: &Content,
    gangs: &[usize],
    goes_on: bool,
) -> Result<Preset, String> {
    // As the data files: every word becomes a string, so megabytes of them
    // would cost many times the file (found by the hostile-file tests).
    if text.len() > MAX_FILE {
        return Err(format!("the position file is larger than {MAX_FILE} bytes"));
    }
    let mut p = Preset::default();
    // Copies of each card named so far (no more than the deck holds).
    let mut named = vec![0usize; content.cards.len()];
    let mut alien_named = vec![false; content.aliens.len()];
    // The line of each `student` statement (as `p.students`) and of `turn`.
    let mut student_lines = Vec::new();
    let mut turn_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let err = |m: String| format!("position line {no}: {m}");
        let ws = words(raw).map_err(|m| err(m.into()))?;
        let Some(key) = ws.first() else { continue };
        let coord = |w: &str| {
            parse_coord(w).ok_or_else(|| err(format!("'{w}' is not a tile from A1 to F6")))
        };
        let seat = |w: Option<&String>| -> Result<u8, String> {
            let w = w.ok_or_else(|| {
                err(format!(
                    "'{key}' needs a seat (1 to {}, or a gang)",
                    gangs.len()
                ))
            })?;
            if let Ok(n) = w.parse::<usize>() {
                if (1..=gangs.len()).contains(&n) {
                    return Ok((n - 1) as u8);
                }
                return Err(err(format!(
                    "there is no seat {n} in a game of {} players",
                    gangs.len()
                )));
            }
            gangs
                .iter()
                .position(|&g| same(&content.gangs[g].id, w) || same(&content.gangs[g].name, w))
                .map(|s| s as u8)
                .ok_or_else(|| err(format!("no seat plays the gang '{w}'")))
        };
        let mut cards = |ws: &[String]| -> Result<Vec<u16>, String> {
            let mut out = Vec::new();
            for w in ws {
                let c =
                    card_named(content, w).ok_or_else(|| err(format!("there is no card '{w}'")))?;
                let id = &content.cards[c as usize].id;
                let copies: Vec<usize> = (0..content.cards.len())
                    .filter(|&k| content.cards[k].id == *id)
                    .collect();
                // The next copy of that card not named yet.
                let Some(&k) = copies.iter().find(|&&k| named[k] == 0) else {
                    return Err(err(format!(
                        "the deck holds only {} {} card{}",
                        copies.len(),
                        content.cards[c as usize].name,
                        if copies.len() == 1 { "" } else { "s" }
                    )));
                };
                named[k] += 1;
                out.push(k as u16);
            }
            Ok(out)
        };
        match key.as_str() {
            "board" => {
                if ws.len() != TILES + 1 {
                    return Err(err(format!(
                        "a board names all {TILES} tiles, row by row from A1; this one names {}",
                        ws.len() - 1
                    )));
                }
                let mut b = Vec::new();
                for w in &ws[1..] {
                    let d = building_named(content, w)
                        .ok_or_else(|| err(format!("there is no tile '{w}'")))?;
                    if b.contains(&d) {
                        return Err(err(format!("the tile '{w}' is named twice")));
                    }
                    b.push(d);
                }
                p.board = Some(b);
            }
            "tile" => {
                let at = coord(
                    ws.get(1)
                        .ok_or_else(|| err("'tile' needs a tile and a building".into()))?,
                )?;
                let w = ws
                    .get(2)
                    .ok_or_else(|| err("'tile' needs a building".into()))?;
                let d = building_named(content, w)
                    .ok_or_else(|| err(format!("there is no building '{w}'")))?;
                if p.tiles.iter().any(|&(q, e)| q == at || e == d) {
                    return Err(err(format!("{w} or {} is set twice", ws[1])));
                }
                p.tiles.push((at, d));
                for w in &ws[3..] {
                    match w.to_ascii_lowercase().as_str() {
                        "searched" => p.searched.push(at),
                        "destroyed" => p.destroyed.push(at),
                        _ => return Err(err(format!("unexpected '{w}' (searched, destroyed)"))),
                    }
                }
            }
            "searched" | "destroyed" => {
                for w in &ws[1..] {
                    let at = coord(w)?;
                    if key == "searched" {
                        p.searched.push(at)
                    } else {
                        p.destroyed.push(at)
                    }
                }
            }
            "alien" => {
                let k = ws
                    .get(1)
                    .ok_or_else(|| err("'alien' needs a kind and a tile".into()))?;
                let kind = AlienKind::from_word(k)
                    .ok_or_else(|| err(format!("'{k}' is not an alien kind")))?;
                let at = coord(
                    ws.get(2)
                        .ok_or_else(|| err("'alien' needs a tile".into()))?,
                )?;
                let mut dir = None;
                let mut damage = 0u8;
                let mut rest = ws[3..].iter();
                while let Some(w) = rest.next() {
                    if w == "damage" {
                        let n = rest
                            .next()
                            .and_then(|n| n.parse::<u8>().ok())
                            .ok_or_else(|| err("'damage' needs a number of hits".into()))?;
                        if n >= content.life(kind) {
                            return Err(err(format!(
                                "{n} hits would have defeated it (life {})",
                                content.life(kind)
                            )));
                        }
                        damage = n;
                    } else if kind == AlienKind::Scout && dir.is_none() {
                        dir = Some(
                            Dir::from_word(w)
                                .ok_or_else(|| err(format!("'{w}' is not a direction")))?,
                        );
                    } else {
                        return Err(err(format!(
                            "unexpected '{w}': only a Scout has a direction; 'damage N' gives hits"
                        )));
                    }
                }
                p.aliens.push((kind, at, dir, damage));
            }
            "student" => {
                let id = ws
                    .get(1)
                    .ok_or_else(|| err("'student' needs an I.D. and a tile".into()))?;
                let def = student_named(content, id)
                    .ok_or_else(|| err(format!("there is no student '{id}'")))?;
                let at = coord(
                    ws.get(2)
                        .ok_or_else(|| err("'student' needs a tile".into()))?,
                )?;
                let mut set = StudentSet {
                    def,
                    at,
                    ..StudentSet::default()
                };
                let mut rest = ws[3..].iter();
                while let Some(w) = rest.next() {
                    match w.as_str() {
                        "dead" => set.dead = true,
                        "actions" => {
                            let n = rest
                                .next()
                                .and_then(|n| n.parse::<u8>().ok())
                                .filter(|n| *n <= 2)
                                .ok_or_else(|| err("'actions' needs 0, 1 or 2".into()))?;
                            set.actions = Some(n);
                        }
                        "mission" => {
                            let m = rest
                                .next()
                                .ok_or_else(|| err("'mission' needs a mission or none".into()))?;
                            set.mission = Some(if same(m, "none") {
                                None
                            } else {
                                let m = mission_named(content, m)
                                    .ok_or_else(|| err(format!("there is no mission '{m}'")))?;
                                if p.students.iter().any(|s| s.mission == Some(Some(m))) {
                                    return Err(err("that mission is given twice".into()));
                                }
                                Some(m)
                            });
                        }
                        w => {
                            return Err(err(format!(
                                "unexpected '{w}' (dead, actions N, mission M)"
                            )));
                        }
                    }
                }
                if p.students.iter().any(|s| s.def == def) {
                    return Err(err(format!("{id} is placed twice")));
                }
                p.students.push(set);
                student_lines.push(no);
            }
            "hand" => {
                let s = seat(ws.get(1))?;
                if p.hands.iter().any(|(t, _)| *t == s) {
                    return Err(err("that seat's hand is given twice".into()));
                }
                let hand = cards(&ws[2..])?;
                if let Some(&e) = hand.iter().find(|&&c| content.cards[c as usize].is_event()) {
                    return Err(err(format!(
                        "{} is an Event card: it is resolved when drawn, never held",
                        content.cards[e as usize].name
                    )));
                }
                p.hands.push((s, hand));
            }
            "deck" => {
                let c = cards(&ws[1..])?;
                p.deck_top.extend(c);
            }
            "discard" => {
                let c = cards(&ws[1..])?;
                p.discard.extend(c);
            }
            "alien_deck" => {
                let mut rest = ws[1..].iter().peekable();
                while let Some(k) = rest.next() {
                    let kind = AlienKind::from_word(k)
                        .ok_or_else(|| err(format!("'{k}' is not an alien kind")))?;
                    let w = rest
                        .next()
                        .ok_or_else(|| err(format!("the {k} card needs its tile")))?;
                    let at = coord(w)?;
                    let dir = if kind == AlienKind::Scout {
                        let d = rest
                            .next()
                            .ok_or_else(|| err("a Scout card needs its direction".into()))?;
                        Some(
                            Dir::from_word(d)
                                .ok_or_else(|| err(format!("'{d}' is not a direction")))?,
                        )
                    } else {
                        None
                    };
                    let found = (0..content.aliens.len()).find(|&i| {
                        let c = &content.aliens[i];
                        !alien_named[i] && c.kind == kind && c.at == at && c.dir == dir
                    });
                    let Some(i) = found else {
                        return Err(err(format!(
                            "the Alien cards hold no (more) {k} {w}{} card",
                            dir.map_or(String::new(), |d| format!(" {}", d.name()))
                        )));
                    };
                    alien_named[i] = true;
                    p.alien_top.push(i as u16);
                }
            }
            "alien_left" => {
                let n = ws
                    .get(1)
                    .and_then(|n| n.parse::<u16>().ok())
                    .ok_or_else(|| err("'alien_left' needs a number of cards".into()))?;
                p.alien_left = Some(n);
            }
            "tokens" => {
                let s = seat(ws.get(1))?;
                let rest = &ws[2..];
                if rest.is_empty() || rest.len() % 2 != 0 {
                    return Err(err("'tokens' needs KIND N pairs (food 2 ammo 1 ...)".into()));
                }
                for pair in rest.chunks(2) {
                    let k = Kind::from_word(&pair[0].to_ascii_lowercase()).ok_or_else(|| {
                        err(format!(
                            "'{}' is not a supply (food, ammo, fuel, scrap, alien)",
                            pair[0]
                        ))
                    })?;
                    let n = pair[1]
                        .parse::<u16>()
                        .map_err(|_| err(format!("'{}' is not a number", pair[1])))?;
                    p.tokens.push((s, k, n));
                }
            }
            "kills" => {
                let s = seat(ws.get(1))?;
                let n = ws
                    .get(2)
                    .and_then(|n| n.parse::<u16>().ok())
                    .ok_or_else(|| err("'kills' needs a number".into()))?;
                p.kills.push((s, n));
            }
            "turn" => {
                let s = seat(ws.get(1))?;
                let step = match ws.get(2) {
                    None => Phase::Draw,
                    Some(w) => step_named(w).ok_or_else(|| {
                        err(format!(
                            "'{w}' is not a step (draw, actions, defeat, upkeep, alien)"
                        ))
                    })?,
                };
                if ws.len() > 3 {
                    return Err(err(format!("unexpected '{}'", ws[3])));
                }
                p.turn = Some((s, step));
                turn_line = no;
            }
            k => {
                return Err(err(format!(
                    "'{k}' is not a statement (board, tile, searched, destroyed, alien, student, hand, deck, discard, alien_deck, alien_left, tokens, kills, turn)"
                )));
            }
        }
        if p.aliens.len() > 200 {
            return Err(err("more than 200 aliens".into()));
        }
    }
    if goes_on {
        goes_on_from(&p, content, gangs, &student_lines, turn_line)?;
    }
    Ok(p)
}

/// Refuse a position with a seat whose students are all dead where the
/// game would stall: its turn (nobody to act), or the setup's mission-giving
/// (nobody to give the mission to), naming the line that does it.
fn goes_on_from(
    p: &Preset,
    content: &Content,
    gangs: &[usize],
    student_lines: &[usize],
    turn_line: usize,
) -> Result<(), String> {
    for (seat, &g) in gangs.iter().enumerate() {
        // The line of each of the gang's students set dead, if all are.
        let dead: Option<Vec<usize>> = content
            .gang_humans(g)
            .into_iter()
            .map(|d| {
                p.students
                    .iter()
                    .position(|s| usize::from(s.def) == d && s.dead)
                    .map(|i| student_lines[i])
            })
            .collect();
        let Some(last) = dead.and_then(|lines| lines.into_iter().max()) else {
            continue;
        };
        let who = format!("seat {} ({})", seat + 1, content.gangs[g].name);
        match p.turn {
            Some((t, _)) if usize::from(t) == seat => {
                return Err(format!(
                    "position line {turn_line}: the turn of {who}, whose students are all dead: a gang with no living student takes no turn; name a seat with one"
                ));
            }
            Some(_) => {}
            None => {
                return Err(format!(
                    "position line {last}: {who} has no living student left to be given its mission at the setup; add a 'turn' line naming a seat with a living student"
                ));
            }
        }
    }
    Ok(())
}
