//! A position file: a game started from a board of one's own (a scenario
//! of a club, a position to study, a test), laid over the opening deal.
//! Given on the command line with `battle --game saucers --scenario-file
//! FILE` (the config's `scenario_text`). One statement a line, words split
//! as in the data files, `#` starts a comment:
//!
//! ```text
//! board TILE TILE ...        # the 36 tile ids row by row from A1 to F6 (instead of the shuffle)
//! searched C3 D4 ...         # tiles already searched
//! destroyed E5 ...           # craters
//! alien KIND COORD [DIR]     # scout, probe, commander (alone) or saucer; a Scout's direction
//! student ID COORD           # a student of the game placed on a tile
//! ```
//!
//! Every line is checked; a bad one is refused naming its line.

use serde::{Deserialize, Serialize};

use super::data::{AlienKind, Content, Dir, MAX_FILE, Pos, TILES, parse_coord};
use crate::games::words::words;

/// What a position file lays over the deal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preset {
    /// Tile definitions row by row from A1.
    pub board: Option<Vec<u16>>,
    pub searched: Vec<Pos>,
    pub destroyed: Vec<Pos>,
    pub aliens: Vec<(AlienKind, Pos, Option<Dir>)>,
    /// Student I.D.s (indices into the content's humans) and their tiles.
    pub students: Vec<(u16, Pos)>,
}

/// Read a position file against the game's content.
pub fn parse(text: &str, content: &Content) -> Result<Preset, String> {
    // As the data files: every word becomes a string, so megabytes of them
    // would cost many times the file (found by the hostile-file tests).
    if text.len() > MAX_FILE {
        return Err(format!("the position file is larger than {MAX_FILE} bytes"));
    }
    let mut p = Preset::default();
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let err = |m: String| format!("position line {no}: {m}");
        let ws = words(raw).map_err(|m| err(m.into()))?;
        let Some(key) = ws.first() else { continue };
        let coord = |w: &str| {
            parse_coord(w).ok_or_else(|| err(format!("'{w}' is not a tile from A1 to F6")))
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
                    let d = content
                        .tiles
                        .iter()
                        .position(|t| t.id == *w)
                        .ok_or_else(|| err(format!("there is no tile '{w}'")))?
                        as u16;
                    if b.contains(&d) {
                        return Err(err(format!("the tile '{w}' is named twice")));
                    }
                    b.push(d);
                }
                p.board = Some(b);
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
                let dir = match ws.get(3) {
                    Some(d) if kind == AlienKind::Scout => Some(
                        Dir::from_word(d)
                            .ok_or_else(|| err(format!("'{d}' is not a direction")))?,
                    ),
                    Some(d) => {
                        return Err(err(format!(
                            "unexpected '{d}': only a Scout has a direction"
                        )));
                    }
                    None => None,
                };
                p.aliens.push((kind, at, dir));
            }
            "student" => {
                let id = ws
                    .get(1)
                    .ok_or_else(|| err("'student' needs an I.D. and a tile".into()))?;
                let h = content
                    .humans
                    .iter()
                    .position(|x| x.id == *id)
                    .ok_or_else(|| err(format!("there is no student '{id}'")))?
                    as u16;
                let at = coord(
                    ws.get(2)
                        .ok_or_else(|| err("'student' needs a tile".into()))?,
                )?;
                if ws.len() > 3 {
                    return Err(err(format!("unexpected '{}'", ws[3])));
                }
                p.students.push((h, at));
            }
            k => {
                return Err(err(format!(
                    "'{k}' is not a statement (board, searched, destroyed, alien, student)"
                )));
            }
        }
        if p.aliens.len() > 200 {
            return Err(err("more than 200 aliens".into()));
        }
    }
    Ok(p)
}
