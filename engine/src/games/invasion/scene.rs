//! The table seen from above: its edges in inches with a faint grid, terrain
//! by cover class, barriers, manholes and Spug holes, every group as tokens
//! of its living figures in its faction's colour with its name, a marker on
//! groups locked in hand-to-hand, and the round's cards in a row below.
//!
//! Scene units are tenths of an inch ([`S`] per hundredth).

use crate::scene::{Item, ItemKind, Rgba, Scene, Shape};

use super::describe::card_name;
use super::model::{Cover, INCH, Point};
use super::state::{CardKind, InvasionState, Place};

/// Scene units per hundredth of an inch.
pub const S: f32 = 0.1;
/// Height of the card row below the table, in scene units.
const CARDS: f32 = 90.0;
const INK: Rgba = Rgba::rgb(40, 36, 30);

/// Scene coordinates of a table point.
pub fn to_scene(p: Point) -> [f32; 2] {
    [p.x as f32 * S, p.y as f32 * S]
}

/// The table point of scene coordinates (rounded to hundredths).
pub fn from_scene(pos: [f32; 2]) -> Point {
    Point::new((pos[0] / S).round() as i32, (pos[1] / S).round() as i32)
}

/// How a cover class is drawn.
pub fn cover_fill(c: Cover, soft: bool) -> Rgba {
    match (c, soft) {
        (_, true) => Rgba::rgb(120, 170, 210),
        (Cover::Open, _) => Rgba::rgb(200, 196, 150),
        (Cover::Cover, _) => Rgba::rgb(104, 150, 88),
        (Cover::Building, _) => Rgba::rgb(160, 150, 140),
    }
}

fn item(id: String, kind: ItemKind, shape: Shape, fill: Rgba, stroke: (f32, Rgba)) -> Item {
    Item {
        id,
        kind,
        shape,
        fill,
        stroke,
        tooltip: None,
    }
}

fn label(id: String, pos: [f32; 2], text: String, size: f32, fill: Rgba) -> Item {
    item(
        id,
        ItemKind::Label,
        Shape::Text { pos, text, size },
        fill,
        (0.0, INK),
    )
}

/// The table as shapes.
pub fn scene(s: &InvasionState) -> Scene {
    let w = s.scenario.width as f32 * S;
    let h = s.scenario.height as f32 * S;
    let mut items = Vec::new();
    items.push(item(
        "table".into(),
        ItemKind::Terrain,
        Shape::Rect {
            min: [0.0, 0.0],
            max: [w, h],
            rounding: 0.0,
        },
        Rgba::rgb(186, 196, 150),
        (1.5, INK),
    ));
    // A faint grid every 6", labelled in feet along the edges.
    let step = 6 * INCH;
    let mut x = step;
    while x < s.scenario.width {
        let sx = x as f32 * S;
        items.push(item(
            format!("grid:x{x}"),
            ItemKind::Marker,
            Shape::Line(vec![[sx, 0.0], [sx, h]]),
            Rgba(60, 60, 40, 40),
            (0.5, Rgba(60, 60, 40, 40)),
        ));
        x += step;
    }
    let mut y = step;
    while y < s.scenario.height {
        let sy = y as f32 * S;
        items.push(item(
            format!("grid:y{y}"),
            ItemKind::Marker,
            Shape::Line(vec![[0.0, sy], [w, sy]]),
            Rgba(60, 60, 40, 40),
            (0.5, Rgba(60, 60, 40, 40)),
        ));
        y += step;
    }
    for t in &s.scenario.terrain {
        let pts: Vec<[f32; 2]> = t.outline.iter().map(|p| to_scene(*p)).collect();
        let mut it = item(
            format!("terrain:{}", t.id),
            ItemKind::Terrain,
            Shape::Polygon(pts.clone()),
            cover_fill(t.cover, t.soft),
            (if t.blocks { 2.0 } else { 1.0 }, INK),
        );
        it.tooltip = Some(format!(
            "{}: {}{}{}",
            t.name,
            match t.cover {
                Cover::Open => "open",
                Cover::Cover => "cover",
                Cover::Building => "building",
            },
            if t.blocks { ", blocks sight" } else { "" },
            if t.soft { ", soft going" } else { "" }
        ));
        items.push(it);
        let centre = super::table::centre(&t.outline);
        items.push(label(
            format!("terrain-name:{}", t.id),
            to_scene(centre),
            t.name.clone(),
            11.0,
            Rgba(30, 30, 20, 170),
        ));
    }
    for b in &s.scenario.barriers {
        let mut it = item(
            format!("barrier:{}", b.id),
            ItemKind::Terrain,
            Shape::Line(b.path.iter().map(|p| to_scene(*p)).collect()),
            Rgba::rgb(90, 70, 50),
            (3.0, Rgba::rgb(90, 70, 50)),
        );
        it.tooltip = Some(format!(
            "{}: a linear barrier (a move ends once it crosses)",
            b.name
        ));
        items.push(it);
    }
    for (i, m) in s.scenario.manholes.iter().enumerate() {
        let mut it = item(
            format!("manhole:{i}"),
            ItemKind::Marker,
            Shape::Circle {
                center: to_scene(*m),
                radius: 7.0,
            },
            Rgba::rgb(70, 70, 80),
            (1.5, Rgba::rgb(200, 200, 210)),
        );
        it.tooltip = Some(format!("Manhole {i}"));
        items.push(it);
    }
    for (i, hole) in s.holes.iter().enumerate() {
        let mut it = item(
            format!("hole:{i}"),
            ItemKind::Marker,
            Shape::Circle {
                center: to_scene(*hole),
                radius: 8.0,
            },
            Rgba::rgb(70, 45, 25),
            (1.5, Rgba::rgb(140, 100, 60)),
        );
        it.tooltip = Some(format!("Spug hole {i}"));
        items.push(it);
    }
    for (gi, g) in s.groups.iter().enumerate() {
        if g.place != Place::Table || g.alive_count() == 0 {
            continue;
        }
        let [r, gr, b] = s.faction(g.seat).colour;
        let colour = Rgba::rgb(r, gr, b);
        let pts = g.points();
        if pts.is_empty() {
            continue;
        }
        // The group: its figures' outline, so a click anywhere on it selects it.
        let centre = super::table::centre(&pts);
        let reach = pts.iter().map(|p| p.distance(centre)).max().unwrap_or(0) as f32 * S + 8.0;
        let mut area = item(
            format!("group:{gi}"),
            ItemKind::Counter,
            Shape::Circle {
                center: to_scene(centre),
                radius: reach,
            },
            Rgba(r, gr, b, 40),
            if g.locked.is_some() {
                (3.0, Rgba::rgb(200, 30, 30))
            } else {
                (1.0, Rgba(r, gr, b, 160))
            },
        );
        area.tooltip = Some(format!(
            "{} {}: {} figure{}{}",
            s.faction(g.seat).name,
            g.name,
            g.alive_count(),
            if g.alive_count() == 1 { "" } else { "s" },
            if g.locked.is_some() {
                ", locked in hand-to-hand"
            } else {
                ""
            }
        ));
        items.push(area);
        for m in g.alive() {
            let Some(p) = m.at else { continue };
            let mut it = item(
                format!("model:{}", m.id),
                ItemKind::Counter,
                Shape::Circle {
                    center: to_scene(p),
                    radius: 5.0,
                },
                colour,
                (1.0, INK),
            );
            it.tooltip = Some(match g.facing {
                Some(f) => format!("{}, facing {}", m.name, super::describe::facing_words(f)),
                None => m.name.clone(),
            });
            items.push(it);
            // A ground vehicle's facing: a short line out of its token (a
            // label, so clicks go through to the figure).
            if let Some(f) = g.facing {
                let (sin, cos) = (f as f32).to_radians().sin_cos();
                let [cx, cy] = to_scene(p);
                items.push(item(
                    format!("facing:{}", m.id),
                    ItemKind::Label,
                    Shape::Line(vec![[cx, cy], [cx + 10.0 * cos, cy + 10.0 * sin]]),
                    INK,
                    (2.0, INK),
                ));
            }
        }
        let top = pts.iter().map(|p| p.y).min().unwrap_or(0);
        items.push(label(
            format!("group-name:{gi}"),
            [centre.x as f32 * S, top as f32 * S - 12.0],
            g.name.clone(),
            11.0,
            INK,
        ));
        if g.locked.is_some() {
            items.push(label(
                format!("locked:{gi}"),
                [centre.x as f32 * S, top as f32 * S - 24.0],
                "⚔ hand-to-hand".into(),
                10.0,
                Rgba::rgb(190, 20, 20),
            ));
        }
    }
    // The round's cards in a row below the table.
    let card_w = 120.0;
    let y0 = h + 15.0;
    for (i, card) in s.drawn.iter().enumerate() {
        let x0 = 10.0 + i as f32 * (card_w + 10.0);
        let done = i < s.current;
        let now = i == s.current && s.over.is_none();
        let fill = match card.seat {
            Some(seat) if (seat as usize) < s.factions.len() => {
                let [r, g, b] = s.faction(seat).colour;
                Rgba(r, g, b, if done { 70 } else { 220 })
            }
            _ => Rgba(90, 40, 120, if done { 70 } else { 220 }),
        };
        let mut it = item(
            format!("card:{i}"),
            ItemKind::Marker,
            Shape::Rect {
                min: [x0, y0],
                max: [x0 + card_w, y0 + 60.0],
                rounding: 6.0,
            },
            fill,
            if now {
                (4.0, Rgba::rgb(250, 200, 30))
            } else {
                (1.0, INK)
            },
        );
        it.tooltip = Some(card_name(s, *card));
        items.push(it);
        let words = match card.kind {
            CardKind::Special => "Special Event".to_owned(),
            k => k.word().to_owned(),
        };
        items.push(label(
            format!("card-name:{i}"),
            [x0 + card_w / 2.0, y0 + 20.0],
            card.seat
                .filter(|&x| (x as usize) < s.factions.len())
                .map_or("Joker".to_owned(), |x| s.faction(x).name.clone()),
            12.0,
            Rgba::WHITE,
        ));
        items.push(label(
            format!("card-kind:{i}"),
            [x0 + card_w / 2.0, y0 + 40.0],
            if now && card.kind != CardKind::Special {
                format!("{words}: {} left", s.actions_left())
            } else {
                words
            },
            11.0,
            Rgba::WHITE,
        ));
    }
    if s.drawn.is_empty() {
        items.push(label(
            "cards".into(),
            [w / 2.0, y0 + 30.0],
            "The first round's cards are drawn when the battle begins".into(),
            12.0,
            INK,
        ));
    }
    Scene {
        width: w.max(10.0 + s.drawn.len() as f32 * 130.0),
        height: h + CARDS,
        background: Some(Rgba::rgb(236, 232, 220)),
        items,
    }
}
