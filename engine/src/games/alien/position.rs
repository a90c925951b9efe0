//! Position files: a battle that starts from a given moment instead of the
//! landing field (config `scenario_text`, `--scenario-file` on the command
//! line). The file lists only what differs from the shipped setup (the
//! landing field, every character on its start tile with its card's items,
//! no aliens, the APC without fuel, turn 1, phase 1), so a small change is
//! a small file. Statements, one a line, `#` comments:
//!
//! ```text
//! turn N                          # the turn number (default 1)
//! phase expedition|hatching|moving|metamorphosis|attacks
//! hatching roll N [placing S ...] # phase 2: the die rolled; new aliens still to place
//! ended SEAT ...                  # expedition seats that ended phase 1
//! acted                           # a character has acted: the APC moves no more
//! points N                        # points on the task track
//! queen alive|dead|dead_hatching  # dead_hatching: killed on an equal roll
//! character WHO at TILE|apc|outside N|dead [strength N] [ap N] [shot]
//!     [shot_at ALIEN ...] [stopped] [left_apc] [kills N] [items ITEM ...]
//! alien STRENGTH at TILE [id N] [moved] [attacked]
//! apc TILE [fuel N] [driven N]    # fuel: phases left; driven: tiles this phase
//! collapsed TILE ...
//! floor ITEM TILE                 # an item lying on a tile
//! open N ...                      # task cards drawn and not done
//! done N ...                      # task cards done (they count no points
//!                                 # by themselves: give `points`)
//! ```
//!
//! Names are the players': a tile is its column letter and row number
//! (`K6`, `A1` top left; its number in the grid works too), a character its
//! id or card name (`hicks`, `Hicks`; its card number from 0 works too), a
//! seat its number (1 is the first expedition seat). A character not named
//! stays on its start tile with its card's items; `items` with no item after
//! it empties the pockets. Items: a weapon id, `ammo` (full) or `ammoN` (N
//! charges), suit, fuel, disk, spare, explosive, medkit, grenade. A
//! character with fewer than six action points, or who shot or left the
//! APC, has acted (as `acted`). Aliens are numbered from 1 in the order
//! given unless `id` says otherwise. `shot_at` names the aliens the
//! character shot this phase by those numbers (as the log names them,
//! "alien 2"; `alien2` reads too), anywhere in the file: each must be an
//! alien of the file, and the character may not shoot it again this phase
//! (clause 6, one die an alien a phase). It implies `shot`. A character
//! whose `shot_at` names N aliens has at most 6 - N action points left
//! ("Shooting a single shot" costs one): give `ap`.

use super::data::{DataError, Item, Terrain, Tile};
use super::state::{
    ACTION_POINTS, ALIEN_MAX, APC_TILES, AlienPiece, AlienState, FUEL_PHASES, POCKETS, Phase, Pos,
    Queen,
};
use crate::games::words::words;

fn err(line: usize, message: impl Into<String>) -> DataError {
    DataError {
        file: "position",
        line,
        message: message.into(),
    }
}

/// An alien's number as a position file writes it: `2`, or `alien2` as
/// one word.
fn alien_number(word: &str) -> Option<u16> {
    let digits = word
        .strip_prefix("alien")
        .or_else(|| word.strip_prefix("Alien"))
        .unwrap_or(word);
    digits.parse().ok().filter(|&n| n > 0)
}

/// Set up `state` as the position file says.
pub fn apply_position(state: &mut AlienState, text: &str) -> Result<(), DataError> {
    let mut acted = false;
    let mut ids: Vec<u16> = Vec::new();
    // `shot_at` targets, checked once every alien of the file is read:
    // (line, character, the alien's number as written).
    let mut targets: Vec<(usize, usize, String)> = Vec::new();
    // The characters that name the aliens they shot this phase, each with
    // its statement's line: their action points are checked once the file
    // is read.
    let mut shooters: Vec<(usize, usize)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let w = words(raw).map_err(|m| err(line, m))?;
        if w.is_empty() {
            continue;
        }
        let num = |k: usize, what: &str| -> Result<u32, DataError> {
            let word = w
                .get(k)
                .ok_or_else(|| err(line, format!("{what} is missing")))?;
            word.parse()
                .map_err(|_| err(line, format!("{what} '{word}' is not a number")))
        };
        let tile = |k: usize| -> Result<Tile, DataError> {
            let word = w.get(k).ok_or_else(|| err(line, "a tile is missing"))?;
            let base = &state.content.base;
            let by_number = word
                .parse::<Tile>()
                .ok()
                .filter(|&t| usize::from(t) < base.terrain.len());
            let t = by_number.or_else(|| base.tile(word)).ok_or_else(|| {
                err(
                    line,
                    format!("'{word}' is not a tile of the base (a tile is named like K6)"),
                )
            })?;
            if state.content.base.terrain(t) == Terrain::Wall {
                return Err(err(line, format!("{word} is a wall")));
            }
            Ok(t)
        };
        let item = |word: &str| -> Result<Item, DataError> {
            if let Some(n) = word.strip_prefix("ammo").filter(|n| !n.is_empty()) {
                let n: u8 = n
                    .parse()
                    .map_err(|_| err(line, format!("'{word}': ammoN, N 1 to 4")))?;
                if !(1..=4).contains(&n) {
                    return Err(err(line, "a cartridge holds 1 to 4 charges"));
                }
                return Ok(Item::Ammo(n));
            }
            state
                .content
                .items
                .item(word)
                .ok_or_else(|| err(line, format!("'{word}' is not an item")))
        };
        match w[0].as_str() {
            "turn" => state.turn = num(1, "the turn")?.max(1),
            "phase" => {
                state.phase = match w.get(1).map(String::as_str) {
                    Some("expedition") => Phase::Expedition,
                    Some("hatching") => Phase::Hatching,
                    Some("moving") => Phase::Moving,
                    Some("metamorphosis") => Phase::Metamorphosis,
                    Some("attacks") => Phase::Attacks,
                    _ => {
                        return Err(err(
                            line,
                            "phase expedition, hatching, moving, metamorphosis or attacks",
                        ));
                    }
                }
            }
            "hatching" => {
                if w.get(1).map(String::as_str) != Some("roll") {
                    return Err(err(line, "hatching roll N [placing S ...]"));
                }
                let roll = num(2, "the hatching roll")?;
                if !(1..=6).contains(&roll) {
                    return Err(err(line, "the hatching roll is a die: 1 to 6"));
                }
                state.hatch_roll = Some(roll as u8);
                state.to_place.clear();
                if w.len() > 3 {
                    if w[3] != "placing" {
                        return Err(err(line, format!("unknown word '{}'", w[3])));
                    }
                    for k in 4..w.len() {
                        let p = num(k, "a new alien's strength")?;
                        if !(1..=u32::from(ALIEN_MAX)).contains(&p) {
                            return Err(err(line, "a new alien's strength is 1 to 4"));
                        }
                        state.to_place.push(p as u8);
                    }
                    let sum: u32 = state.to_place.iter().map(|&p| u32::from(p)).sum();
                    if sum > roll {
                        return Err(err(
                            line,
                            format!("new aliens of {sum} strength in all from a roll of {roll}"),
                        ));
                    }
                    state.to_place.sort_unstable_by(|a, b| b.cmp(a));
                }
            }
            "ended" => {
                for k in 1..w.len() {
                    let seat = num(k, "a seat")?;
                    if seat == 0 || seat >= u32::from(state.players) {
                        return Err(err(
                            line,
                            format!(
                                "the expedition's seats are 1 to {}",
                                state.players.saturating_sub(1)
                            ),
                        ));
                    }
                    if !state.seats_done.contains(&(seat as u8)) {
                        state.seats_done.push(seat as u8);
                    }
                }
            }
            "acted" => acted = true,
            "points" => state.points = num(1, "the points")?.min(60) as u8,
            "queen" => {
                state.queen = match w.get(1).map(String::as_str) {
                    Some("alive") => Queen::Alive,
                    Some("dead") => Queen::Dead { hatching: false },
                    Some("dead_hatching") => Queen::Dead { hatching: true },
                    _ => return Err(err(line, "queen alive, dead or dead_hatching")),
                }
            }
            "character" => {
                let id = w.get(1).ok_or_else(|| err(line, "which character?"))?;
                let idx = state
                    .characters
                    .iter()
                    .position(|c| {
                        let card = &state.content.characters[usize::from(c.card)];
                        card.id.eq_ignore_ascii_case(id) || card.name.eq_ignore_ascii_case(id)
                    })
                    .or_else(|| {
                        id.parse::<usize>()
                            .ok()
                            .filter(|&n| n < state.characters.len())
                    })
                    .ok_or_else(|| {
                        err(
                            line,
                            format!(
                                "there is no character '{id}' (the characters: {})",
                                state
                                    .content
                                    .characters
                                    .iter()
                                    .map(|c| c.id.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        )
                    })?;
                let mut k = 2;
                while k < w.len() {
                    match w[k].as_str() {
                        "at" => {
                            let pos = match w.get(k + 1).map(String::as_str) {
                                Some("apc") => {
                                    k += 2;
                                    Pos::Apc
                                }
                                Some("dead") => {
                                    k += 2;
                                    Pos::Dead
                                }
                                Some("outside") => {
                                    let n = num(k + 2, "the track space")?;
                                    if n >= u32::from(state.content.base.track) {
                                        return Err(err(line, "the track is not that long"));
                                    }
                                    k += 3;
                                    Pos::Outside(n as u8)
                                }
                                _ => {
                                    let t = tile(k + 1)?;
                                    k += 2;
                                    Pos::Tile(t)
                                }
                            };
                            state.characters[idx].pos = pos;
                        }
                        "strength" => {
                            let s = num(k + 1, "the strength")?;
                            let card =
                                &state.content.characters[usize::from(state.characters[idx].card)];
                            if s == 0 || s > u32::from(card.strength) {
                                return Err(err(
                                    line,
                                    format!("{}'s strength is 1 to {}", card.name, card.strength),
                                ));
                            }
                            state.characters[idx].strength = s as u8;
                            k += 2;
                        }
                        "ap" => {
                            let ap = num(k + 1, "the action points")?;
                            if ap > u32::from(ACTION_POINTS) {
                                return Err(err(line, "a character has 0 to 6 action points"));
                            }
                            state.characters[idx].ap = ap as u8;
                            k += 2;
                        }
                        "shot" => {
                            state.characters[idx].shot = true;
                            k += 1;
                        }
                        "shot_at" => {
                            // The aliens' numbers up to the next keyword.
                            let start = k + 1;
                            k = start;
                            while k < w.len() && alien_number(&w[k]).is_some() {
                                targets.push((line, idx, w[k].clone()));
                                k += 1;
                            }
                            if k == start {
                                return Err(err(
                                    line,
                                    match w.get(k) {
                                        Some(word) => format!(
                                            "shot_at: '{word}' is not an alien's number \
                                             (shot_at 1 2: the aliens shot this phase)"
                                        ),
                                        None => "shot_at names the aliens shot this phase by \
                                                 their numbers (shot_at 1 2)"
                                            .to_owned(),
                                    },
                                ));
                            }
                            state.characters[idx].shot = true;
                            shooters.push((line, idx));
                        }
                        "stopped" => {
                            state.characters[idx].stopped = true;
                            k += 1;
                        }
                        "left_apc" => {
                            state.characters[idx].left_apc = true;
                            k += 1;
                        }
                        "kills" => {
                            state.characters[idx].kills = num(k + 1, "the kills")?;
                            k += 2;
                        }
                        "items" => {
                            let mut items = Vec::new();
                            for word in &w[k + 1..] {
                                items.push(item(word)?);
                            }
                            if items.len() > POCKETS {
                                return Err(err(line, "a character has three pockets"));
                            }
                            state.characters[idx].items = items;
                            k = w.len();
                        }
                        other => return Err(err(line, format!("unknown word '{other}'"))),
                    }
                }
                if state.characters[idx].pos == Pos::Dead {
                    state.characters[idx].strength = 0;
                    state.characters[idx].items.clear();
                }
            }
            "alien" => {
                let s = num(1, "the strength")?;
                if !(1..=4).contains(&s) {
                    return Err(err(line, "an alien's strength is 1 to 4"));
                }
                if w.get(2).map(String::as_str) != Some("at") {
                    return Err(err(line, "alien STRENGTH at TILE"));
                }
                let at = tile(3)?;
                let mut piece = AlienPiece {
                    id: state.next_alien,
                    strength: s as u8,
                    at,
                    moved: false,
                    attacked: false,
                };
                let mut k = 4;
                while k < w.len() {
                    match w[k].as_str() {
                        "id" => {
                            let id = num(k + 1, "the alien's number")?;
                            if id == 0 || id > 60_000 {
                                return Err(err(line, "an alien's number is 1 to 60000"));
                            }
                            piece.id = id as u16;
                            k += 2;
                        }
                        "moved" => {
                            piece.moved = true;
                            k += 1;
                        }
                        "attacked" => {
                            piece.attacked = true;
                            k += 1;
                        }
                        other => return Err(err(line, format!("unknown word '{other}'"))),
                    }
                }
                if ids.contains(&piece.id) {
                    return Err(err(line, format!("two aliens numbered {}", piece.id)));
                }
                ids.push(piece.id);
                state.next_alien = state.next_alien.max(piece.id + 1);
                state.aliens.push(piece);
            }
            "apc" => {
                state.apc.at = tile(1)?;
                let mut k = 2;
                while k < w.len() {
                    match w[k].as_str() {
                        "fuel" => {
                            let fuel = num(k + 1, "the fuel")?;
                            if fuel > u32::from(FUEL_PHASES) {
                                return Err(err(line, "a fuel container lasts three phases"));
                            }
                            state.apc.fuel = fuel as u8;
                        }
                        "driven" => {
                            let d = num(k + 1, "the tiles driven")?;
                            if d > u32::from(APC_TILES) {
                                return Err(err(line, "the APC drives at most ten tiles a phase"));
                            }
                            state.apc.driven = d as u8;
                        }
                        other => return Err(err(line, format!("unknown word '{other}'"))),
                    }
                    k += 2;
                }
            }
            "collapsed" => {
                if w.len() < 2 {
                    return Err(err(line, "a tile is missing"));
                }
                for k in 1..w.len() {
                    let t = tile(k)?;
                    if state.content.base.terrain(t) != Terrain::Corridor {
                        return Err(err(line, "only corridor tiles collapse"));
                    }
                    if !state.collapsed.contains(&t) {
                        state.collapsed.push(t);
                    }
                }
            }
            "floor" => {
                let it = item(w.get(1).ok_or_else(|| err(line, "which item?"))?)?;
                let t = tile(2)?;
                state.floor.push((t, it));
            }
            "open" | "done" => {
                for k in 1..w.len() {
                    let n = num(k, "a card number")? as u8;
                    if !state.deck.contains(&n) {
                        return Err(err(line, format!("card {n} is not in the pile")));
                    }
                    state.deck.retain(|&c| c != n);
                    if w[0] == "open" {
                        state.open.push(n);
                    } else {
                        state.done.push(n);
                    }
                }
                if state.open.len() > 3 {
                    return Err(err(line, "at most three undone tasks"));
                }
            }
            other => return Err(err(line, format!("unknown statement '{other}'"))),
        }
    }
    // The aliens each character shot this phase (clause 6): aliens of the
    // file, each named once.
    for (line, idx, word) in targets {
        let id = alien_number(&word).unwrap_or_default();
        if !state.aliens.iter().any(|a| a.id == id) {
            let mut known: Vec<u16> = state.aliens.iter().map(|a| a.id).collect();
            known.sort_unstable();
            let known: Vec<String> = known.iter().map(u16::to_string).collect();
            return Err(err(
                line,
                format!(
                    "shot_at: there is no alien {id} in this position ({})",
                    if known.is_empty() {
                        "it has no aliens".to_owned()
                    } else {
                        format!("the aliens: {}", known.join(", "))
                    }
                ),
            ));
        }
        let c = &mut state.characters[idx];
        if c.pos == Pos::Dead {
            return Err(err(line, "a dead character shoots no more: drop shot_at"));
        }
        if c.shot_at.contains(&id) {
            return Err(err(
                line,
                format!("shot_at names alien {id} twice: one die an alien a phase"),
            ));
        }
        c.shot_at.push(id);
    }
    // "Shooting a single shot" costs an action point, and "the figure can
    // never use more than 6 action points in one movement phase": a
    // character that shot N aliens this phase has at most 6 - N left. (Not
    // checked for `shot` alone: files of earlier versions gave it with six
    // points, and a battle set up from one must still open.)
    for (line, idx) in shooters {
        let c = &state.characters[idx];
        let shots = c.shot_at.len();
        let most = usize::from(ACTION_POINTS).saturating_sub(shots);
        if c.pos != Pos::Dead && usize::from(c.ap) > most {
            let name = &state.content.characters[usize::from(c.card)].name;
            return Err(err(
                line,
                format!(
                    "{name} shot {shots} alien{} this phase: at most {most} action points \
                     left (a single shot costs one; give ap {most} or fewer)",
                    if shots == 1 { "" } else { "s" }
                ),
            ));
        }
    }
    // Two characters on one tile, a character on an alien: refused.
    let tiles: Vec<Tile> = state.characters.iter().filter_map(|c| c.tile()).collect();
    for (i, t) in tiles.iter().enumerate() {
        if tiles[i + 1..].contains(t) {
            return Err(err(
                0,
                format!("two characters on {}", state.content.base.name(*t)),
            ));
        }
        if state.aliens.iter().any(|a| a.at == *t) {
            return Err(err(
                0,
                format!(
                    "a character and an alien on {}",
                    state.content.base.name(*t)
                ),
            ));
        }
    }
    if state.characters.iter().any(|c| c.pos == Pos::Apc) && state.apc.fuel == 0 {
        return Err(err(0, "a character is in the APC, which has no fuel"));
    }
    if let Some(c) = state.characters.iter().find(|c| {
        c.tile()
            .is_some_and(|t| state.collapsed.contains(&t) || t == state.apc.at)
    }) {
        return Err(err(
            0,
            format!(
                "{} stands on a collapsed tile or on the APC's (aboard it: `at apc`)",
                state.content.characters[usize::from(c.card)].name
            ),
        ));
    }
    if state.aliens.iter().any(|a| state.collapsed.contains(&a.at)) {
        return Err(err(0, "an alien stands on a collapsed tile"));
    }
    // The flags of the turn: what each phase allows.
    let phase2 = state.phase != Phase::Expedition;
    if !phase2 && (state.hatch_roll.is_some() || !state.to_place.is_empty()) {
        return Err(err(
            0,
            "a hatching roll belongs to phase 2 (give `phase hatching`)",
        ));
    }
    if state.phase != Phase::Hatching && !state.to_place.is_empty() {
        return Err(err(
            0,
            "new aliens are placed in the hatching (give `phase hatching`)",
        ));
    }
    if phase2 && !state.seats_done.is_empty() {
        return Err(err(
            0,
            "`ended` names the seats that ended phase 1; in phase 2 every seat has",
        ));
    }
    if phase2 {
        state.seats_done = state.expedition_seats();
    } else if !state.seats_done.is_empty()
        && state
            .expedition_seats()
            .into_iter()
            .all(|seat| state.seats_done.contains(&seat) || !state.seat_alive(seat))
    {
        return Err(err(
            0,
            "every expedition seat has ended phase 1: give `phase hatching` instead",
        ));
    }
    if state.phase == Phase::Expedition && state.aliens.iter().any(|a| a.moved || a.attacked) {
        return Err(err(0, "aliens move and attack in phase 2"));
    }
    acted |= state
        .characters
        .iter()
        .any(|c| c.alive() && (c.ap < ACTION_POINTS || c.shot || c.left_apc || c.stopped));
    state.acted = acted;
    // Tokens out of their storages: counted from the position.
    let mut taken = vec![0u8; state.taken.len()];
    let mut weapons = vec![0u8; state.weapons_taken.len()];
    let all = state
        .characters
        .iter()
        .flat_map(|c| c.items.iter().copied())
        .chain(state.floor.iter().map(|f| f.1));
    for it in all {
        match it {
            Item::Weapon(w) => weapons[usize::from(w)] = weapons[usize::from(w)].saturating_add(1),
            other => taken[other.kind().index()] = taken[other.kind().index()].saturating_add(1),
        }
    }
    for (k, t) in taken.iter_mut().enumerate() {
        *t = (*t).max(state.taken[k]);
    }
    state.taken = taken;
    state.weapons_taken = weapons;
    if state.points > 0 && !state.done.is_empty() {
        state.may_declare = true;
    }
    Ok(())
}
