//! The base as shapes: tiles, storages, computers, hatching places,
//! airlocks, the APC and its passengers, the track outside, the task track,
//! characters and aliens.

use crate::game::Anchors;
use crate::scene::{Item, ItemKind, Rgba, Scene, Shape};

use super::data::{Item as Token, Store, Terrain, Tile};
use super::rules::AlienCommand as C;
use super::state::{AlienState, Phase, Pos};

pub const TILE: f32 = 40.0;

fn rect(
    id: String,
    kind: ItemKind,
    min: [f32; 2],
    max: [f32; 2],
    fill: Rgba,
    tip: Option<String>,
) -> Item {
    Item {
        id,
        kind,
        shape: Shape::Rect {
            min,
            max,
            rounding: 2.0,
        },
        fill,
        stroke: (1.0, Rgba::rgb(40, 40, 40)),
        tooltip: tip,
        name: None,
    }
}

fn text(id: String, pos: [f32; 2], t: String, size: f32, fill: Rgba) -> Item {
    Item {
        id,
        kind: ItemKind::Label,
        shape: Shape::Text { pos, text: t, size },
        fill,
        stroke: (0.0, Rgba::BLACK),
        tooltip: None,
        name: None,
    }
}

/// A name cut into lines at its spaces, each of at most `width` letters
/// where its words allow (a longer word keeps a line of its own).
fn name_lines(name: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in name.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

fn token_letter(t: Token) -> &'static str {
    match t {
        Token::Suit => "S",
        Token::Fuel => "F",
        Token::Disk => "D",
        Token::Spare => "P",
        Token::Explosive => "X",
        Token::Medkit => "+",
        Token::Grenade => "G",
        Token::Ammo(_) => "A",
        Token::Weapon(_) => "W",
    }
}

/// How a kind of tile is filled on the board (and in the legend).
pub fn terrain_fill(t: Terrain) -> Rgba {
    match t {
        Terrain::Wall => Rgba::rgb(45, 45, 50),
        Terrain::Corridor => Rgba::rgb(170, 170, 165),
        Terrain::Room => Rgba::rgb(215, 205, 180),
        Terrain::Duct => Rgba::rgb(110, 120, 140),
        Terrain::Landing => Rgba::rgb(120, 170, 110),
        Terrain::Airlock(_) => Rgba::rgb(230, 200, 60),
    }
}

/// The turn and its phase, then who is asked to act (two short lines, so
/// they fit the panel beside the base).
fn status_lines(s: &AlienState) -> (String, Option<String>) {
    use crate::game::Game;
    if let Some(end) = super::Alien::outcome(s) {
        return match end.summary.split_once(": ") {
            Some((what, why)) => (format!("{what}:"), Some(why.to_owned())),
            None => (end.summary, None),
        };
    }
    let phase = match s.phase {
        Phase::Expedition => "the expedition's phase",
        Phase::Hatching => "hatching",
        Phase::Moving => "the aliens move",
        Phase::Metamorphosis => "metamorphosis",
        Phase::Attacks => "the aliens attack",
    };
    let mut who: Vec<String> = Vec::new();
    for ask in super::Alien::asked(s) {
        let name = super::Alien::seat_name(s, ask.seat);
        if !who.contains(&name) {
            who.push(name);
        }
    }
    let when = format!("Turn {}: {phase}", s.turn.max(1));
    if who.is_empty() {
        (when, None)
    } else {
        (when, Some(format!("{} to act", who.join(", "))))
    }
}

pub fn scene(s: &AlienState) -> Scene {
    let b = &s.content.base;
    let (w, h) = (f32::from(b.width), f32::from(b.height));
    let side = 6.0 * TILE;
    let mut items = Vec::new();
    let centre = |t: Tile| {
        let (x, y) = b.xy(t);
        [(x as f32 + 0.5) * TILE, (y as f32 + 0.5) * TILE]
    };
    for t in 0..b.terrain.len() as Tile {
        let (x, y) = b.xy(t);
        let min = [x as f32 * TILE, y as f32 * TILE];
        let max = [min[0] + TILE, min[1] + TILE];
        let terr = b.terrain(t);
        let fill = terrain_fill(terr);
        let what = match terr {
            Terrain::Wall => "wall".to_owned(),
            Terrain::Corridor => "corridor".into(),
            Terrain::Room => "room".into(),
            Terrain::Duct => "air duct (aliens count double)".into(),
            Terrain::Landing => "landing field".into(),
            Terrain::Airlock(n) => format!("airlock {n}"),
        };
        items.push(rect(
            format!("tile:{}", b.name(t)),
            if terr == Terrain::Wall {
                ItemKind::Terrain
            } else {
                ItemKind::Hex
            },
            min,
            max,
            fill,
            Some(format!("{}: {what}", b.describe(t))),
        ));
        if terr == Terrain::Duct {
            items.push(Item {
                id: format!("hatching:{}", b.name(t)),
                kind: ItemKind::Terrain,
                shape: Shape::Line(vec![
                    [min[0] + 4.0, max[1] - 4.0],
                    [max[0] - 4.0, min[1] + 4.0],
                ]),
                fill: Rgba::rgb(70, 80, 95),
                stroke: (2.0, Rgba::rgb(70, 80, 95)),
                tooltip: None,
                name: None,
            });
        }
        if let Terrain::Airlock(n) = terr {
            items.push(text(
                format!("airlock:{n}"),
                centre(t),
                n.to_string(),
                18.0,
                Rgba::BLACK,
            ));
        }
    }
    // Coordinates (issue 28: commands name tiles like K6): the column's
    // letter in the top row and the row's number in the left column, where
    // those edge tiles are wall, in a grey that reads on wall and stays off
    // the corridors.
    let edge = Rgba::rgb(150, 150, 160);
    for x in 0..i32::from(b.width) {
        if let Some(t) = b.at(x, 0)
            && b.terrain(t) == Terrain::Wall
        {
            let name = b.name(t);
            items.push(text(
                format!("coord:col:{x}"),
                centre(t),
                name.trim_end_matches(|c: char| c.is_ascii_digit())
                    .to_owned(),
                13.0,
                edge,
            ));
        }
    }
    for y in 1..i32::from(b.height) {
        if let Some(t) = b.at(0, y)
            && b.terrain(t) == Terrain::Wall
        {
            items.push(text(
                format!("coord:row:{y}"),
                centre(t),
                (y + 1).to_string(),
                13.0,
                edge,
            ));
        }
    }
    for (st, t) in &b.stores {
        let c = centre(*t);
        let letter = match st {
            Store::Suits => "SUIT",
            Store::Fuel => "FUEL",
            Store::Warehouse => "COMP",
            Store::Magazine => "MAG",
            Store::Medical => "MED",
            Store::Armoury => "ARM",
        };
        items.push(text(
            format!("store:{}", b.name(*t)),
            [c[0], c[1] - 13.0],
            letter.into(),
            9.0,
            Rgba::rgb(90, 30, 30),
        ));
    }
    for (i, t) in b.computers.iter().enumerate() {
        let c = centre(*t);
        items.push(text(
            format!("computer:{}", i + 1),
            [c[0], c[1] - 13.0],
            format!("PC{}", i + 1),
            10.0,
            Rgba::rgb(20, 40, 140),
        ));
    }
    for (i, t) in b.hatches.iter().enumerate() {
        let c = centre(*t);
        items.push(text(
            format!("hatch:{}", i + 1),
            [c[0], c[1] + 14.0],
            format!("H{}", i + 1),
            10.0,
            Rgba::rgb(140, 20, 20),
        ));
    }
    // A place's whole name (issue 28: "Radio r", "Sick ba" were cut to
    // seven letters), a word a line where two do not fit the tile, the last line at the tile's
    // foot where the other marks leave room.
    for p in &b.places {
        let c = centre(p.tile);
        let lines = name_lines(&p.name, 8);
        let n = lines.len();
        for (k, line) in lines.into_iter().enumerate() {
            let id = if k == 0 {
                format!("place:{}", p.id)
            } else {
                format!("place:{}:{}", p.id, k + 1)
            };
            let up = (n - 1 - k) as f32 * 8.5;
            items.push(text(
                id,
                [c[0], c[1] + 14.0 - up],
                line,
                8.0,
                Rgba::rgb(60, 60, 60),
            ));
        }
    }
    for t in &s.collapsed {
        let (x, y) = b.xy(*t);
        let min = [x as f32 * TILE + 3.0, y as f32 * TILE + 3.0];
        items.push(rect(
            format!("collapsed:{}", b.name(*t)),
            ItemKind::Marker,
            min,
            [min[0] + TILE - 6.0, min[1] + TILE - 6.0],
            Rgba::rgb(60, 30, 20),
            Some("collapsed corridor".into()),
        ));
    }
    for (i, (t, it)) in s.floor.iter().enumerate() {
        let c = centre(*t);
        items.push(rect(
            format!("floor:{i}"),
            ItemKind::Marker,
            [c[0] + 6.0, c[1] + 6.0],
            [c[0] + 18.0, c[1] + 18.0],
            Rgba::rgb(250, 250, 250),
            Some(s.content.items.name(*it)),
        ));
    }
    // The APC.
    let passengers: Vec<String> = s
        .characters
        .iter()
        .enumerate()
        .filter(|(_, c)| c.pos == Pos::Apc)
        .map(|(i, _)| s.name(i as u8))
        .collect();
    let a = centre(s.apc.at);
    items.push(rect(
        "apc".into(),
        ItemKind::Counter,
        [a[0] - 17.0, a[1] - 12.0],
        [a[0] + 17.0, a[1] + 12.0],
        Rgba::rgb(60, 90, 60),
        Some(format!(
            "APC: fuel for {} phase(s); aboard: {}",
            s.apc.fuel,
            if passengers.is_empty() {
                "no one".into()
            } else {
                passengers.join(", ")
            }
        )),
    ));
    items.push(text(
        "apc:label".into(),
        a,
        format!(
            "APC{}",
            if s.apc.fuel > 0 {
                format!(" {}", s.apc.fuel)
            } else {
                String::new()
            }
        ),
        10.0,
        Rgba::WHITE,
    ));
    // Side panel: APC passengers, the track outside, the task track.
    let sx = w * TILE + 10.0;
    items.push(text(
        "panel:apc".into(),
        [sx + side / 2.0, 14.0],
        format!(
            "APC: {}",
            if passengers.is_empty() {
                "empty".into()
            } else {
                passengers.join(", ")
            }
        ),
        11.0,
        Rgba::WHITE,
    ));
    // The track outside (4.3, "track crossings"): the text names its entry
    // box "we" and its exit box "you"; the board says what they are for
    // (issue 28: the boxes were unexplained).
    items.push(text(
        "track:heading".into(),
        [sx + TILE * 1.5, 30.0],
        "Outside the base".into(),
        9.0,
        Rgba::rgb(200, 200, 200),
    ));
    for k in 0..b.track {
        let y = 40.0 + f32::from(k) * TILE;
        let last = k + 1 == b.track;
        let label = if k == 0 {
            "we · step out here".to_owned()
        } else if last {
            "you · step in from here".into()
        } else {
            format!("{}", k + 1)
        };
        let tip = if k == 0 {
            "the entry box (\"we\"): a character in a vacuum suit steps out of an airlock onto it, \
             then moves one space a phase"
                .to_owned()
        } else if last {
            "the exit box (\"you\"): from here the character enters the base by any airlock \
             (or waits here)"
                .to_owned()
        } else {
            "one space a phase towards the exit box".to_owned()
        };
        items.push(rect(
            format!("track:{k}"),
            ItemKind::Hex,
            [sx, y],
            [sx + TILE * 3.0, y + TILE - 4.0],
            Rgba::rgb(20, 20, 40),
            Some(format!(
                "Outside the base (track crossings), space {} of {}: {tip}",
                k + 1,
                b.track
            )),
        ));
        items.push(text(
            format!("track:{k}:label"),
            [sx + TILE * 1.5, y + 18.0],
            label,
            9.0,
            Rgba::rgb(200, 200, 200),
        ));
    }
    let ty = 60.0 + f32::from(b.track) * TILE;
    // Whose turn, on the board itself (issue 28: readable from across the
    // table, as the other games' boards head their panels with it).
    let (when, who) = status_lines(s);
    items.push(text(
        "status".into(),
        [sx + side / 2.0, ty],
        when,
        13.0,
        Rgba::rgb(255, 220, 120),
    ));
    let ty = if let Some(who) = who {
        items.push(text(
            "status:who".into(),
            [sx + side / 2.0, ty + 18.0],
            who,
            13.0,
            Rgba::rgb(255, 220, 120),
        ));
        ty + 40.0
    } else {
        ty + 22.0
    };
    items.push(text(
        "tasks:points".into(),
        [sx + side / 2.0, ty],
        format!(
            "Task points: {}   Queen: {}",
            s.points,
            if s.queen_dead() { "dead" } else { "alive" }
        ),
        11.0,
        Rgba::WHITE,
    ));
    for (i, card) in s.open.iter().enumerate() {
        let t = if *card == 0 {
            "a task card you may not see".to_owned()
        } else {
            s.content
                .tasks
                .iter()
                .find(|t| t.n == *card)
                .map_or_else(String::new, |t| format!("{}: {}", t.n, t.text))
        };
        items.push(text(
            format!("task:{i}"),
            [sx + side / 2.0, ty + 18.0 * (i as f32 + 1.0)],
            t,
            9.0,
            Rgba::rgb(230, 230, 150),
        ));
    }
    // Characters.
    for (i, c) in s.characters.iter().enumerate() {
        let card = &s.content.characters[usize::from(c.card)];
        let pockets: Vec<String> = c.items.iter().map(|it| s.content.items.name(*it)).collect();
        let tip = format!(
            "{}: strength {}/{}, {} action points left; pockets: {}",
            card.name,
            c.strength,
            card.strength,
            c.ap,
            if pockets.is_empty() {
                "empty".into()
            } else {
                pockets.join(", ")
            }
        );
        let at = match c.pos {
            Pos::Tile(t) => centre(t),
            Pos::Outside(k) => [
                sx + 60.0 + 14.0 * (i as f32 % 4.0),
                40.0 + f32::from(k) * TILE + 18.0,
            ],
            Pos::Apc | Pos::Dead => continue,
        };
        items.push(Item {
            id: format!("char:{}", card.id),
            kind: ItemKind::Counter,
            shape: Shape::Circle {
                center: at,
                radius: 15.0,
            },
            fill: if card.android {
                Rgba::rgb(200, 220, 255)
            } else {
                Rgba::rgb(60, 110, 200)
            },
            stroke: (2.0, Rgba::WHITE),
            tooltip: Some(tip),
            name: Some(card.name.clone()),
        });
        let pocket_marks: String = c.items.iter().map(|it| token_letter(*it)).collect();
        // The android's light token takes dark writing.
        let (ink, pockets_ink) = if card.android {
            (Rgba::rgb(20, 30, 60), Rgba::rgb(120, 60, 0))
        } else {
            (Rgba::WHITE, Rgba::rgb(255, 240, 120))
        };
        items.push(text(
            format!("char:{}:label", card.id),
            [at[0], at[1] - 5.0],
            // Two characters, not two bytes: a player's characters file may
            // name a character in any script.
            format!(
                "{}{}",
                card.name.chars().take(2).collect::<String>(),
                c.strength
            ),
            12.0,
            ink,
        ));
        items.push(text(
            format!("char:{}:pockets", card.id),
            [at[0], at[1] + 8.0],
            pocket_marks,
            10.0,
            pockets_ink,
        ));
    }
    // Aliens (a stack on a hatching place drawn side by side).
    for (k, al) in s.aliens.iter().enumerate() {
        let mut c = centre(al.at);
        let below = s.aliens[..k].iter().filter(|o| o.at == al.at).count() as f32;
        c[0] += below * 8.0;
        let duct = b.terrain(al.at) == Terrain::Duct;
        items.push(rect(
            format!("alien:{}", al.id),
            ItemKind::Counter,
            [c[0] - 12.0, c[1] - 12.0],
            [c[0] + 12.0, c[1] + 12.0],
            Rgba::rgb(170, 20, 20),
            Some(format!(
                "alien {}: strength {}{}",
                al.id,
                al.strength,
                if duct {
                    format!(", {} in this duct", 2 * al.strength)
                } else {
                    String::new()
                }
            )),
        ));
        // Its number, as commands name it ("alien 3"), small on top; its
        // strength large below (issue 28: the token showed only the strength,
        // so "alien 3" was hard to find on a board of 4s and 3s).
        items.push(text(
            format!("alien:{}:number", al.id),
            [c[0], c[1] - 6.0],
            format!("#{}", al.id),
            9.0,
            Rgba::rgb(255, 210, 210),
        ));
        items.push(text(
            format!("alien:{}:label", al.id),
            [c[0], c[1] + 5.0],
            if duct {
                format!("{}x2", al.strength)
            } else {
                al.strength.to_string()
            },
            13.0,
            Rgba::WHITE,
        ));
    }
    Scene {
        width: w * TILE + side + 20.0,
        height: h.max(10.0) * TILE,
        background: Some(Rgba::rgb(25, 25, 30)),
        items,
    }
}

/// Where a command sits on the board.
pub fn anchors(s: &AlienState, c: &C) -> Anchors {
    let b = &s.content.base;
    let tile = |t: &Tile| Some(format!("tile:{}", b.name(*t)));
    let ch = |ch: &u8| {
        s.characters
            .get(usize::from(*ch))
            .map(|c| format!("char:{}", s.content.characters[usize::from(c.card)].id))
    };
    let (subject, target) = match c {
        C::Drive { to } => (Some("apc".into()), tile(to)),
        C::Move { ch: c, to } | C::Leave { ch: c, to } => (ch(c), tile(to)),
        C::Shoot { ch: c, alien, .. } => (ch(c), Some(format!("alien:{alien}"))),
        C::Throw { ch: c, at, .. } | C::Blow { ch: c, at, .. } => (ch(c), tile(at)),
        C::Heal { ch: c, patient, .. } => (ch(c), ch(patient)),
        C::Give { ch: c, to, .. } => (ch(c), ch(to)),
        C::Take { ch: c, .. }
        | C::Drop { ch: c, .. }
        | C::Read { ch: c, .. }
        | C::Repair { ch: c, .. }
        | C::Fuel { ch: c, .. }
        | C::GoOut { ch: c }
        | C::ComeIn { ch: c, .. } => (ch(c), None),
        C::Place { hatch } => (
            None,
            b.hatches
                .get(usize::from(*hatch).wrapping_sub(1))
                .and_then(&tile),
        ),
        C::MoveAlien { alien, to } => (Some(format!("alien:{alien}")), tile(to)),
        C::Attack { ch: c } => (None, ch(c)),
        _ => (None, None),
    };
    Anchors { subject, target }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::alien::{AlienConfig, data, start};
    use crate::scene::Shape;

    #[test]
    fn a_character_named_with_a_multibyte_first_letter_is_drawn_without_panicking() {
        // Found by the fuzzer (fuzz/regressions/data_alien): the token label
        // took the name's first two bytes and panicked inside a character of
        // a player's characters file.
        let config = AlienConfig {
            characters_text: Some(data::CHARACTERS.replace("\"Hicks\"", "\"L\u{e9}on\"")),
            ..AlienConfig::default()
        };
        let s = start(&config).unwrap();
        let labels: Vec<String> = scene(&s)
            .items
            .into_iter()
            .filter_map(|i| match i.shape {
                Shape::Text { text, .. } if i.id == "char:hicks:label" => Some(text),
                _ => None,
            })
            .collect();
        assert_eq!(labels.len(), 1, "{labels:?}");
        assert!(labels[0].starts_with("L\u{e9}"), "{labels:?}");
    }

    /// Issue 28: a place's name is drawn whole, a word or two a line ("Radio
    /// r" and "Sick ba" were cut), and the track outside says what its boxes
    /// are: a heading, and the entry ("we") and exit ("you") boxes in words.
    #[test]
    fn place_names_are_whole_and_the_track_outside_says_what_its_boxes_are() {
        let s = start(&AlienConfig::default()).unwrap();
        let texts: Vec<(String, String)> = scene(&s)
            .items
            .into_iter()
            .filter_map(|i| match i.shape {
                Shape::Text { text, .. } => Some((i.id, text)),
                _ => None,
            })
            .collect();
        for p in &s.content.base.places {
            let words: Vec<&str> = texts
                .iter()
                .filter(|(id, _)| {
                    *id == format!("place:{}", p.id) || id.starts_with(&format!("place:{}:", p.id))
                })
                .map(|(_, t)| t.as_str())
                .collect();
            assert_eq!(words.join(" "), p.name, "{}", p.id);
            assert!(
                words
                    .iter()
                    .all(|w| w.chars().count() <= 8 || !w.contains(' ')),
                "{words:?}"
            );
        }
        let said = |id: &str| texts.iter().find(|(i, _)| i == id).map(|(_, t)| t.clone());
        assert_eq!(said("track:heading").as_deref(), Some("Outside the base"));
        assert_eq!(said("track:0:label").as_deref(), Some("we · step out here"));
        let last = s.content.base.track - 1;
        assert_eq!(
            said(&format!("track:{last}:label")).as_deref(),
            Some("you · step in from here")
        );
        assert_eq!(name_lines("Atmosphere pumps", 8), ["Atmosphere", "pumps"]);
        assert_eq!(name_lines("Radio room", 8), ["Radio", "room"]);
        assert_eq!(name_lines("Sick bay", 8), ["Sick bay"]);
    }

    /// Issue 28, "the side whose turn it is marked on the board itself": the
    /// Alien board heads its task panel with the turn, the phase and the
    /// seats asked to act, and with the result once the game is over.
    #[test]
    fn the_board_says_whose_turn_it_is_and_how_the_game_ended() {
        use crate::game::Game;
        let s = start(&AlienConfig::default()).unwrap();
        let status = |s: &AlienState| {
            scene(s)
                .items
                .into_iter()
                .filter_map(|i| match i.shape {
                    Shape::Text { text, .. } if i.id.starts_with("status") => Some(text),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let line = status(&s);
        let asked = crate::games::alien::Alien::asked(&s);
        assert!(!asked.is_empty());
        for a in &asked {
            let name = crate::games::alien::Alien::seat_name(&s, a.seat);
            assert!(line.contains(&name), "{line} names {name}");
        }
        assert!(line.starts_with("Turn 1: "), "{line}");
        let mut over = s.clone();
        over.over = Some(crate::games::alien::state::Result::Aliens);
        let end = crate::games::alien::Alien::outcome(&over).unwrap().summary;
        assert_eq!(status(&over).replace(": / ", ": "), end);
    }

    /// Commands name tiles like K6 (issue 28): the board says which column
    /// and row is which, on the wall tiles of its top row and left column.
    #[test]
    fn the_board_shows_its_column_letters_and_row_numbers_on_the_edge_walls() {
        let s = start(&AlienConfig::default()).unwrap();
        let b = &s.content.base;
        let labels: Vec<(String, String, [f32; 2])> = scene(&s)
            .items
            .into_iter()
            .filter_map(|i| match i.shape {
                Shape::Text { text, pos, .. } if i.id.starts_with("coord:") => {
                    Some((i.id, text, pos))
                }
                _ => None,
            })
            .collect();
        let cols = labels
            .iter()
            .filter(|l| l.0.starts_with("coord:col"))
            .count();
        let rows = labels
            .iter()
            .filter(|l| l.0.starts_with("coord:row"))
            .count();
        assert!(
            cols * 4 >= b.width as usize * 3,
            "{cols} of {} columns",
            b.width
        );
        assert!(
            rows * 4 >= b.height as usize * 3,
            "{rows} of {} rows",
            b.height
        );
        for (id, text, pos) in &labels {
            let (x, y) = ((pos[0] / TILE) as i32, (pos[1] / TILE) as i32);
            let t = b.at(x, y).unwrap();
            assert_eq!(b.terrain(t), Terrain::Wall, "{id} sits on a wall");
            let name = b.name(t);
            if id.starts_with("coord:col") {
                assert_eq!(format!("{text}1"), name, "{id}");
            } else {
                assert_eq!(format!("A{text}"), name, "{id}");
            }
        }
        assert!(labels.iter().any(|l| l.1 == "K"), "column K is named");
    }

    /// Commands name an alien by its number ("alien 3"): its token shows
    /// that number as well as its strength (issue 28).
    #[test]
    fn an_alien_token_shows_its_number_and_its_strength() {
        let mut s = start(&AlienConfig::default()).unwrap();
        let at = s.content.base.tile("K6").unwrap();
        s.aliens.push(crate::games::alien::state::AlienPiece {
            id: 3,
            strength: 4,
            at,
            moved: false,
            attacked: false,
        });
        let texts: Vec<(String, String)> = scene(&s)
            .items
            .into_iter()
            .filter_map(|i| match i.shape {
                Shape::Text { text, .. } if i.id.starts_with("alien:3:") => Some((i.id, text)),
                _ => None,
            })
            .collect();
        assert!(
            texts.contains(&("alien:3:number".into(), "#3".into())),
            "{texts:?}"
        );
        assert!(
            texts.contains(&("alien:3:label".into(), "4".into())),
            "{texts:?}"
        );
    }
}
