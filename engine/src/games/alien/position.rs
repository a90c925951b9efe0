//! Position files: a battle that starts from a given moment instead of the
//! landing field (config `scenario_text`, `--scenario-file` on the command
//! line). Statements, one a line, `#` comments:
//!
//! ```text
//! turn N                          # the turn number (default 1)
//! points N                        # points on the task track
//! queen alive|dead|dead_hatching  # dead_hatching: killed on an equal roll
//! character ID at TILE|apc|outside N|dead [strength N] [ap N] [items ITEM ...]
//! alien STRENGTH at TILE
//! apc TILE [fuel N]               # fuel: phases left
//! collapsed TILE
//! floor ITEM TILE                 # an item lying on a tile
//! open N ...                      # task cards drawn and not done
//! done N ...                      # task cards done (they count no points
//!                                 # by themselves: give `points`)
//! ```
//!
//! A character not named stays on its start tile with its card's items;
//! `items` with no item after it empties the pockets. Items: a weapon id,
//! `ammo` (full) or `ammoN` (N charges), suit, fuel, disk, spare, explosive,
//! medkit, grenade.

use super::data::{DataError, Item, Terrain, Tile};
use super::state::{AlienPiece, AlienState, POCKETS, Pos, Queen};
use crate::games::words::words;

fn err(line: usize, message: impl Into<String>) -> DataError {
    DataError {
        file: "position",
        line,
        message: message.into(),
    }
}

/// Set up `state` as the position file says.
pub fn apply_position(state: &mut AlienState, text: &str) -> Result<(), DataError> {
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
            let t = state
                .content
                .base
                .tile(word)
                .ok_or_else(|| err(line, format!("'{word}' is not a tile of the base")))?;
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
                    .position(|c| state.content.characters[usize::from(c.card)].id == *id)
                    .ok_or_else(|| err(line, format!("there is no character '{id}'")))?;
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
                            state.characters[idx].ap = ap.min(6) as u8;
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
                let id = state.next_alien;
                state.next_alien += 1;
                state.aliens.push(AlienPiece {
                    id,
                    strength: s as u8,
                    at,
                    moved: false,
                    attacked: false,
                });
            }
            "apc" => {
                state.apc.at = tile(1)?;
                if w.get(2).map(String::as_str) == Some("fuel") {
                    state.apc.fuel = num(3, "the fuel")?.min(3) as u8;
                }
            }
            "collapsed" => {
                let t = tile(1)?;
                if state.content.base.terrain(t) != Terrain::Corridor {
                    return Err(err(line, "only corridor tiles collapse"));
                }
                state.collapsed.push(t);
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
