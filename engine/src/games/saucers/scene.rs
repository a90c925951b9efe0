//! The board as shapes: the 6x6 grid with coordinates and compass edges,
//! tiles by building, supply colour or crater, students in gang colours,
//! aliens with hit points, and a side panel with the decks and each
//! player's hand, tokens and missions.

use super::data::{
    AlienKind, CardKind, Dir, EventEffect, InstantEffect, Kind, SIDE, TILES, col_row, coord,
    kind_name,
};
use super::rules::{phase_name, seat_label};
use super::state::{HIDDEN, Phase, SaucersState};
pub use crate::scene::wrap;
use crate::scene::{Item, ItemKind, Rgba, Scene, Shape};

/// Tile size and board origin, in board units.
pub const CELL: f32 = 100.0;
pub const ORIGIN: f32 = 40.0;
const PANEL_X: f32 = ORIGIN + CELL * SIDE as f32 + 40.0;

fn text(id: String, pos: [f32; 2], t: impl Into<String>, size: f32, fill: Rgba) -> Item {
    Item {
        id,
        kind: ItemKind::Label,
        shape: Shape::Text {
            pos,
            text: t.into(),
            size,
        },
        fill,
        stroke: (0.0, Rgba::BLACK),
        tooltip: None,
        name: None,
    }
}

/// A student's name under its disc (a tile of three or fewer): its first
/// letters, and their size in board units.
pub const NAME_LETTERS: usize = 5;
pub const NAME_SIZE: f32 = 10.0;

/// The top-left corner of a tile.
pub fn tile_min(p: u8) -> [f32; 2] {
    let (c, r) = col_row(p);
    [ORIGIN + CELL * f32::from(c), ORIGIN + CELL * f32::from(r)]
}

fn token_colour(st: &SaucersState, k: Kind) -> Rgba {
    st.content
        .tokens
        .iter()
        .find(|t| t.kind == k)
        .map_or(Rgba::rgb(128, 128, 128), |t| {
            Rgba::rgb(t.colour[0], t.colour[1], t.colour[2])
        })
}

fn lighten(c: Rgba) -> Rgba {
    Rgba::rgb(
        ((u16::from(c.0) + 2 * 255) / 3) as u8,
        ((u16::from(c.1) + 2 * 255) / 3) as u8,
        ((u16::from(c.2) + 2 * 255) / 3) as u8,
    )
}

pub fn scene(st: &SaucersState) -> Scene {
    let mut items = Vec::new();
    let side = CELL * SIDE as f32;
    // Compass edges and coordinates.
    for (t, pos) in [
        ("N", [ORIGIN + side / 2.0, 10.0]),
        ("S", [ORIGIN + side / 2.0, ORIGIN + side + 30.0]),
        ("W", [10.0, ORIGIN + side / 2.0]),
        ("E", [ORIGIN + side + 28.0, ORIGIN + side / 2.0]),
    ] {
        items.push(text(
            format!("edge:{t}"),
            pos,
            t,
            16.0,
            Rgba::rgb(200, 40, 40),
        ));
    }
    for i in 0..SIDE {
        let x = ORIGIN + CELL * (f32::from(i) + 0.5);
        items.push(text(
            format!("col:{i}"),
            [x, 28.0],
            ((b'A' + i) as char).to_string(),
            13.0,
            Rgba::BLACK,
        ));
        items.push(text(
            format!("row:{i}"),
            [28.0, x],
            (i + 1).to_string(),
            13.0,
            Rgba::BLACK,
        ));
    }
    // Tiles.
    for p in 0..TILES as u8 {
        let min = tile_min(p);
        let max = [min[0] + CELL, min[1] + CELL];
        let (fill, what, def) = match st.board.get(p as usize) {
            None => (Rgba::rgb(180, 180, 180), "face down".to_owned(), None),
            Some(t) => {
                let d = &st.content.tiles[t.def as usize];
                if t.destroyed {
                    (
                        Rgba::rgb(70, 55, 50),
                        format!("{}: a crater (destroyed)", d.name),
                        Some(d),
                    )
                } else if t.searched {
                    let (c, w) = match (d.ambush, d.supply) {
                        (Some(k), _) => (
                            Rgba::rgb(230, 200, 220),
                            format!("{} ambush, searched", k.name()),
                        ),
                        (None, Some(k)) => (
                            lighten(token_colour(st, k)),
                            format!("searched: {}", kind_name(k)),
                        ),
                        (None, None) => (Rgba::rgb(230, 230, 230), "searched".into()),
                    };
                    (c, format!("{}: {w}", d.name), Some(d))
                } else {
                    (
                        Rgba::rgb(214, 200, 170),
                        format!("{}: not searched yet", d.name),
                        Some(d),
                    )
                }
            }
        };
        items.push(Item {
            id: format!("tile:{}", coord(p)),
            kind: ItemKind::Hex,
            shape: Shape::Rect {
                min,
                max,
                rounding: 2.0,
            },
            fill,
            stroke: (1.5, Rgba::rgb(60, 60, 60)),
            tooltip: Some(format!("{} {what}", coord(p))),
            name: None,
        });
        items.push(text(
            format!("tilecoord:{}", coord(p)),
            [min[0] + 11.0, min[1] + 9.0],
            coord(p),
            11.0,
            Rgba::rgb(90, 90, 90),
        ));
        if let Some(d) = def {
            let ink = if st.board[p as usize].destroyed {
                Rgba::rgb(230, 200, 180)
            } else {
                Rgba::BLACK
            };
            // The building's name on one or two lines beside the coordinate.
            let name = wrap(&d.name, 10, 2);
            let n = name.len();
            for (k, l) in name.into_iter().enumerate() {
                let id = if k == 0 {
                    format!("tilename:{}", coord(p))
                } else {
                    format!("tilename:{}:{k}", coord(p))
                };
                let y = if n == 1 { 20.0 } else { 14.0 + 14.0 * k as f32 };
                items.push(text(
                    id,
                    [min[0] + CELL / 2.0 + 6.0, min[1] + y],
                    l,
                    13.0,
                    ink,
                ));
            }
            if d.school && !st.board[p as usize].destroyed {
                // The high school's red cross, stroke by stroke (from, to).
                let red = Rgba::rgb(220, 0, 0);
                let school = "the high school: the students start here";
                for (id, a, b, tooltip) in [
                    ("school", [80.0, 4.0], [96.0, 20.0], Some(school)),
                    ("school2", [96.0, 4.0], [80.0, 20.0], None),
                ] {
                    items.push(Item {
                        id: format!("{id}:{}", coord(p)),
                        kind: ItemKind::Marker,
                        shape: Shape::Line(vec![
                            [min[0] + a[0], min[1] + a[1]],
                            [min[0] + b[0], min[1] + b[1]],
                        ]),
                        fill: red,
                        stroke: (3.0, red),
                        tooltip: tooltip.map(Into::into),
                        name: None,
                    });
                }
            }
            if st.board[p as usize].searched && d.ambush.is_some() {
                items.push(text(
                    format!("ambush:{}", coord(p)),
                    [min[0] + 88.0, min[1] + 12.0],
                    "!",
                    14.0,
                    Rgba::rgb(200, 0, 120),
                ));
            }
            if st.board[p as usize].destroyed {
                items.push(text(
                    format!("crater:{}", coord(p)),
                    [min[0] + CELL / 2.0, min[1] + 50.0],
                    "crater",
                    11.0,
                    Rgba::rgb(240, 160, 120),
                ));
            }
        }
    }
    // Aliens: top half of their tile.
    for p in 0..TILES as u8 {
        let here: Vec<_> = st.aliens.iter().filter(|a| a.at == p).collect();
        let min = tile_min(p);
        for (i, a) in here.iter().enumerate() {
            let cx = min[0] + 14.0 + 18.0 * (i % 5) as f32;
            let cy = min[1] + 40.0 + 18.0 * (i / 5) as f32;
            let life = st.content.life(a.kind);
            let (shape, fill) = match a.kind {
                AlienKind::Scout => (
                    Shape::Polygon(vec![
                        [cx, cy - 8.0],
                        [cx + 8.0, cy + 7.0],
                        [cx - 8.0, cy + 7.0],
                    ]),
                    Rgba::rgb(90, 200, 90),
                ),
                AlienKind::Probe => (
                    Shape::Rect {
                        min: [cx - 7.0, cy - 7.0],
                        max: [cx + 7.0, cy + 7.0],
                        rounding: 1.0,
                    },
                    Rgba::rgb(150, 150, 220),
                ),
                AlienKind::Commander => (
                    Shape::Polygon(vec![
                        [cx, cy - 9.0],
                        [cx + 8.0, cy],
                        [cx, cy + 9.0],
                        [cx - 8.0, cy],
                    ]),
                    Rgba::rgb(240, 140, 30),
                ),
                AlienKind::Saucer => (
                    Shape::Circle {
                        center: [cx, cy],
                        radius: 8.0,
                    },
                    Rgba(200, 0, 0, 90),
                ),
            };
            let hp = if a.damage > 0 {
                format!(
                    "{}/{life} hp, {} hit{} this turn",
                    life.saturating_sub(a.damage),
                    a.damage,
                    if a.damage == 1 { "" } else { "s" }
                )
            } else {
                format!("{life} hp")
            };
            items.push(Item {
                id: format!("alien:{}", a.id),
                kind: ItemKind::Counter,
                shape,
                fill,
                stroke: (1.0, Rgba::BLACK),
                tooltip: Some(format!(
                    "{} on {} ({hp}){}",
                    a.kind.name(),
                    coord(a.at),
                    match (a.kind, a.dir) {
                        (AlienKind::Saucer, _) =>
                            ": in the crosshairs, strikes at the next Alien turn".to_owned(),
                        (_, Some(d)) => format!(", its card pointed {}", d.name()),
                        _ => String::new(),
                    }
                )),
                name: None,
            });
            // A Scout's card points where it goes at the Alien turn.
            if let (AlienKind::Scout, Some(d)) = (a.kind, a.dir) {
                let (dx, dy) = match d {
                    Dir::N => (0.0, -1.0),
                    Dir::E => (1.0, 0.0),
                    Dir::S => (0.0, 1.0),
                    Dir::W => (-1.0, 0.0),
                };
                let tip = [cx + 13.0 * dx, cy + 13.0 * dy];
                items.push(Item {
                    id: format!("scoutdir:{}", a.id),
                    kind: ItemKind::Label,
                    shape: Shape::Polygon(vec![
                        tip,
                        [cx + 9.0 * dx - 4.0 * dy, cy + 9.0 * dy + 4.0 * dx],
                        [cx + 9.0 * dx + 4.0 * dy, cy + 9.0 * dy - 4.0 * dx],
                    ]),
                    fill: Rgba::rgb(20, 110, 20),
                    stroke: (0.0, Rgba::BLACK),
                    tooltip: None,
                    name: None,
                });
            }
            let label = if a.damage > 0 {
                format!("{}-{}", life, a.damage)
            } else {
                life.to_string()
            };
            items.push(text(
                format!("alienhp:{}", a.id),
                [cx, cy + 1.0],
                label,
                10.0,
                Rgba::BLACK,
            ));
        }
    }
    // Students: bottom half of their tile.
    for p in 0..TILES as u8 {
        let here: Vec<_> = st.humans.iter().filter(|h| h.alive && h.at == p).collect();
        let min = tile_min(p);
        for (i, h) in here.iter().enumerate() {
            // Three a row, their names under them; more than three on a
            // tile, two rows and the names' first letters inside the discs;
            // a crowded tile (the high school at the start, up to twelve)
            // four a row, touching, letters inside too.
            let crowded = here.len() > 6;
            let (cx, cy, radius) = if crowded {
                (
                    min[0] + 14.0 + 24.0 * (i % 4) as f32,
                    min[1] + 54.0 + 15.0 * (i / 4) as f32,
                    7.5,
                )
            } else if here.len() > 3 {
                (
                    min[0] + 18.0 + 32.0 * (i % 3) as f32,
                    min[1] + 62.0 + 24.0 * (i / 3) as f32,
                    10.0,
                )
            } else {
                (min[0] + 17.0 + 33.0 * i as f32, min[1] + 64.0, 10.0)
            };
            let g = st.gang_of(h.seat);
            let def = &st.content.humans[h.def as usize];
            let mission = match h.mission {
                Some(HIDDEN) => ", carrying a secret mission".to_owned(),
                Some(m) => format!(", mission '{}'", st.content.missions[m as usize].name),
                None => String::new(),
            };
            items.push(Item {
                id: format!("human:{}", def.id),
                kind: ItemKind::Counter,
                shape: Shape::Circle {
                    center: [cx, cy],
                    radius,
                },
                fill: Rgba::rgb(g.colour[0], g.colour[1], g.colour[2]),
                stroke: (
                    if h.actions > 0 { 2.5 } else { 1.0 },
                    if h.mission.is_some() {
                        Rgba::rgb(255, 215, 0)
                    } else {
                        Rgba::BLACK
                    },
                ),
                tooltip: Some(format!(
                    "{} ({}): Move {}, Attack {}, Hand {}; {} action{} left{mission}",
                    def.name,
                    g.name,
                    def.moves,
                    def.attack,
                    def.hand,
                    h.actions,
                    if h.actions == 1 { "" } else { "s" }
                )),
                name: None,
            });
            // The name's first letters on the disc, in an ink that reads
            // on the gang's colour.
            let [r, gr, b] = g.colour;
            let light = u32::from(r) * 299 + u32::from(gr) * 587 + u32::from(b) * 114 > 140_000;
            let initials: String = def.name.chars().take(2).collect();
            items.push(text(
                format!("humanname:{}", def.id),
                [cx, cy],
                initials,
                if crowded { 9.0 } else { 11.0 },
                if light { Rgba::BLACK } else { Rgba::WHITE },
            ));
            if here.len() <= 3 {
                // Five letters at most, so that three names fit apart.
                let short: String = def.name.chars().take(NAME_LETTERS).collect();
                items.push(text(
                    format!("humanlabel:{}", def.id),
                    [cx, cy + radius + 8.0],
                    short,
                    NAME_SIZE,
                    Rgba::BLACK,
                ));
            }
        }
    }
    let bottom = panel(st, &mut items);
    Scene {
        width: PANEL_X + PANEL_W + 20.0,
        height: (ORIGIN * 2.0 + side + 20.0).max(bottom + 10.0),
        background: Some(Rgba::rgb(245, 240, 228)),
        items,
    }
}

/// Width of the side panel, in board units.
const PANEL_W: f32 = 600.0;
/// A card of a hand on the panel, in board units.
const CARD_W: f32 = 92.0;
const CARD_H: f32 = 104.0;
const CARDS_A_ROW: usize = 6;

/// The side panel: the turn, the decks, and a box per player with its
/// students, tokens, missions and hand. Returns the bottom of the panel.
fn panel(st: &SaucersState, items: &mut Vec<Item>) -> f32 {
    let x = PANEL_X;
    let mid = x + PANEL_W / 2.0;
    let mut y = 24.0;
    let [status, decks, missions] = status_lines(st);
    items.push(text("status".into(), [mid, y], status, 22.0, Rgba::BLACK));
    y += 30.0;
    items.push(text("decks".into(), [mid, y], decks, 17.0, Rgba::BLACK));
    y += 24.0;
    items.push(text(
        "missions".into(),
        [mid, y],
        missions,
        17.0,
        Rgba::BLACK,
    ));
    y += 24.0;
    for (s, seat) in st.seats.iter().enumerate() {
        let g = &st.content.gangs[seat.gang as usize];
        let colour = Rgba::rgb(g.colour[0], g.colour[1], g.colour[2]);
        let missions: Vec<String> = st
            .humans
            .iter()
            .filter(|h| h.seat as usize == s && h.alive)
            .filter_map(|h| {
                h.mission.map(|m| {
                    let name = &st.content.humans[h.def as usize].name;
                    if m == HIDDEN {
                        format!("{name}: a secret mission")
                    } else {
                        let md = &st.content.missions[m as usize];
                        format!(
                            "{name}: {} at the {} ({})",
                            md.name,
                            st.content.tiles[md.tile].name,
                            md.cost.words()
                        )
                    }
                })
            })
            .collect();
        let mission_lines = missions.len().max(1);
        let card_rows = seat.hand.len().div_ceil(CARDS_A_ROW).max(1);
        let height = 84.0 + 20.0 * mission_lines as f32 + (CARD_H + 6.0) * card_rows as f32;
        items.push(Item {
            id: format!("seat:{s}"),
            kind: ItemKind::Marker,
            shape: Shape::rect([x, y], [PANEL_W, height], 6.0),
            fill: Rgba(colour.0, colour.1, colour.2, 40),
            stroke: (if s as u8 == st.current { 3.0 } else { 1.0 }, colour),
            tooltip: Some(format!("{}: {}", g.name, g.ability.name())),
            name: Some(g.name.clone()),
        });
        items.push(text(
            format!("seatname:{s}"),
            [mid, y + 18.0],
            format!("Player {}: {} ({})", s + 1, g.name, g.ability.name()),
            19.0,
            Rgba::BLACK,
        ));
        let students: Vec<String> = st
            .humans
            .iter()
            .filter(|h| h.seat as usize == s)
            .map(|h| {
                let d = &st.content.humans[h.def as usize];
                if h.alive {
                    d.name.clone()
                } else {
                    format!("{} (dead)", d.name)
                }
            })
            .collect();
        items.push(text(
            format!("students:{s}"),
            [mid, y + 40.0],
            students.join(", "),
            16.0,
            Rgba::BLACK,
        ));
        let tokens: Vec<String> = Kind::ALL
            .iter()
            .map(|&k| format!("{} {}", seat.tokens.get(k), kind_name(k)))
            .collect();
        items.push(text(
            format!("tokens:{s}"),
            [mid, y + 60.0],
            format!(
                "{}; kills {}; hand {} of {}",
                tokens.join(", "),
                seat.kills,
                seat.hand.len(),
                st.hand_size(s as u8)
            ),
            15.0,
            Rgba::BLACK,
        ));
        let shown = if missions.is_empty() {
            vec!["no mission".to_owned()]
        } else {
            missions
        };
        for (k, m) in shown.into_iter().enumerate() {
            items.push(text(
                format!("seatmissions:{s}:{k}"),
                [mid, y + 80.0 + 20.0 * k as f32],
                m,
                14.0,
                Rgba::rgb(90, 60, 0),
            ));
        }
        let top = y + 76.0 + 20.0 * mission_lines as f32;
        for (i, &c) in seat.hand.iter().enumerate() {
            let cx = x + 12.0 + (CARD_W + 6.0) * (i % CARDS_A_ROW) as f32;
            let cy = top + (CARD_H + 6.0) * (i / CARDS_A_ROW) as f32;
            card(st, items, s, i, c, [cx, cy]);
        }
        y += height + 10.0;
    }
    y
}

/// One card of a hand: its name, kind, dice, cost and, for an Attack card,
/// its range grid (the student in the middle, the tiles it reaches red).
fn card(st: &SaucersState, items: &mut Vec<Item>, s: usize, i: usize, c: u16, at: [f32; 2]) {
    let [cx, cy] = at;
    let mid = cx + CARD_W / 2.0;
    let mut lines: Vec<(String, f32)> = Vec::new();
    let mut range: Option<&[(i8, i8)]> = None;
    let fill = if c == HIDDEN {
        lines.push(("?".into(), 30.0));
        Rgba::rgb(60, 60, 90)
    } else {
        let d = &st.content.cards[c as usize];
        for l in wrap(&d.name, 11, 2) {
            lines.push((l, 13.0));
        }
        let (fill, kind, cost) = match &d.kind {
            CardKind::Event(_) => (Rgba::rgb(250, 220, 120), "Event".to_owned(), None),
            CardKind::Instant { cost, .. } => {
                (Rgba::rgb(200, 230, 250), "Instant".to_owned(), Some(cost))
            }
            CardKind::Attack {
                ty,
                dice,
                cost,
                range: r,
                air,
            } => {
                range = Some(r);
                (
                    Rgba::rgb(250, 200, 200),
                    format!("{} {dice}d", if *air { "Air" } else { ty.name() }),
                    Some(cost),
                )
            }
            CardKind::Move {
                tiles,
                cost,
                escape,
            } => (
                Rgba::rgb(210, 240, 210),
                format!("Move {tiles}{}", if *escape { " esc." } else { "" }),
                Some(cost),
            ),
        };
        lines.push((kind, 12.0));
        if let Some(cost) = cost {
            let w = cost.words();
            lines.push((if w == "nothing" { "free".into() } else { w }, 11.0));
        }
        fill
    };
    let tip = card_words(st, c);
    items.push(Item {
        id: format!("card:{s}:{i}"),
        kind: ItemKind::Counter,
        shape: Shape::rect([cx, cy], [CARD_W, CARD_H], 4.0),
        fill,
        stroke: (1.0, Rgba::BLACK),
        tooltip: Some(tip),
        name: None,
    });
    let mut ty = cy + 12.0;
    for (k, (l, size)) in lines.into_iter().enumerate() {
        let ink = if c == HIDDEN {
            Rgba::rgb(230, 230, 250)
        } else {
            Rgba::BLACK
        };
        let y = if c == HIDDEN { cy + CARD_H / 2.0 } else { ty };
        items.push(text(
            format!("cardname:{s}:{i}:{k}"),
            [mid, y],
            l,
            size,
            ink,
        ));
        ty += size + 3.0;
    }
    if let Some(r) = range {
        // The 5x5 grid, 7 units a square, at the foot of the card.
        let sq = 7.0;
        let gx = mid - 2.5 * sq;
        let gy = cy + CARD_H - 5.0 * sq - 4.0;
        items.push(Item {
            id: format!("cardgrid:{s}:{i}"),
            kind: ItemKind::Label,
            shape: Shape::rect([gx, gy], [5.0 * sq, 5.0 * sq], 0.0),
            fill: Rgba::rgb(255, 255, 255),
            stroke: (0.5, Rgba::rgb(90, 90, 90)),
            tooltip: None,
            name: None,
        });
        for row in -2i8..=2 {
            for col in -2i8..=2 {
                // Red where it reaches; the student's own square grey when
                // the card does not reach it.
                let (fill, what) = if r.contains(&(col, row)) {
                    (Rgba::rgb(210, 30, 30), "cardrange")
                } else if (col, row) == (0, 0) {
                    (Rgba::rgb(150, 150, 150), "cardself")
                } else {
                    continue;
                };
                let min = [gx + sq * f32::from(col + 2), gy + sq * f32::from(row + 2)];
                items.push(Item {
                    id: format!("{what}:{s}:{i}:{col}:{row}"),
                    kind: ItemKind::Label,
                    shape: Shape::rect(min, [sq, sq], 0.0),
                    fill,
                    stroke: (0.0, Rgba::BLACK),
                    tooltip: None,
                    name: None,
                });
            }
        }
    }
}

/// The head of the scene's panel, as the side panel repeats it: the turn
/// (or how the game ended), the decks, the missions.
pub fn status_lines(st: &SaucersState) -> [String; 3] {
    let status = match &st.over {
        Some(end) => end.summary.clone(),
        None if st.phase == Phase::Deal => "Setting up".into(),
        None => format!(
            "Turn {}: the {}, {}",
            st.turn.max(1),
            seat_label(st, st.current),
            phase_name(st.phase)
        ),
    };
    let decks = format!(
        "Alien deck: {} cards   Human deck: {} (discard {})",
        st.alien_deck.len(),
        st.deck.len(),
        st.discard.len()
    );
    let missions = format!(
        "Missions completed: {} of {}   left in the pile: {}",
        st.missions_completed(),
        st.missions_to_win,
        st.mission_pile.len()
    );
    [status, decks, missions]
}

/// A card of a hand in words, as its tooltip on the board and the side
/// panel's list of a hand say it: its name, kind, dice, cost, range, and
/// what an Event or Instant does; a card the viewer may not see is only that.
pub fn card_words(st: &SaucersState, c: u16) -> String {
    card_text(st, c, true)
}

/// [`card_words`] without an Attack card's range, for a reader that draws
/// the range as a grid beside the words (the app's side panel).
pub fn card_words_but_range(st: &SaucersState, c: u16) -> String {
    card_text(st, c, false)
}

fn card_text(st: &SaucersState, c: u16, with_range: bool) -> String {
    if c == HIDDEN {
        return "a card you may not see".into();
    }
    let d = &st.content.cards[c as usize];
    let detail = match &d.kind {
        CardKind::Event(e) => format!(
            "Event, happens when drawn: {}",
            match e {
                EventEffect::Alien => "an alien card is drawn and placed".to_owned(),
                EventEffect::Scouts(dir) => {
                    format!("every Scout and Commander moves one tile {}", dir.name())
                }
                EventEffect::Lose(k) => format!("the drawing player loses 1 {}", kind_name(*k)),
                EventEffect::Gain(k, n) =>
                    format!("the drawing player gains {n} {}", kind_name(*k)),
            }
        ),
        CardKind::Instant { cost, effect } => format!(
            "Instant, cost {}: {}",
            cost.words(),
            match effect {
                InstantEffect::Escape(n) => format!(
                    "one student of any player moves up to {n} tile{}, even off a tile \
                     holding an alien",
                    if *n == 1 { "" } else { "s" }
                ),
                InstantEffect::Hit(n) => format!(
                    "{n} hit{} on one alien (not a Saucer) on a tile with a student",
                    if *n == 1 { "" } else { "s" }
                ),
                InstantEffect::Gain(k, n) => format!("gain {n} {}", kind_name(*k)),
            }
        ),
        CardKind::Attack {
            ty,
            dice,
            cost,
            range,
            air,
        } => format!(
            "Attack ({}{}), {dice} dice, cost {}{}",
            ty.name(),
            if *air { ", Surface to Air" } else { "" },
            cost.words(),
            if with_range {
                format!(", range {}", grid(range))
            } else {
                String::new()
            }
        ),
        CardKind::Move {
            tiles,
            cost,
            escape,
        } => format!(
            "Move {tiles}{}, cost {}",
            if *escape { " (escape)" } else { "" },
            cost.words()
        ),
    };
    format!("{}: {detail}", d.name)
}

/// An attack range grid in words: rows of X and dots.
pub fn grid(range: &[(i8, i8)]) -> String {
    (-2..=2)
        .map(|r| {
            (-2..=2)
                .map(|c| if range.contains(&(c, r)) { 'X' } else { '.' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}
