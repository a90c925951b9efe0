//! The table seen from above: its edges in inches with a faint grid, terrain
//! by cover class, barriers, manholes and Spug holes, every group as tokens
//! of its living figures in its faction's colour (a ground vehicle with a
//! line for its facing; a craft in the air lighter, its outline dashed) with
//! its name placed where it overlaps no other name, a marker on groups
//! locked in hand-to-hand, the round's cards in a row below, and under them
//! the groups below the table or carried, in words.
//!
//! Scene units are tenths of an inch ([`S`] per hundredth).

use crate::scene::{Item, ItemKind, Rgba, Scene, Shape};

use super::describe::card_name;
use super::model::{Cover, INCH, Point};
use super::state::{CardKind, GroupId, InvasionState, Place};

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
        name: None,
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
    // A faint grid every 6", labelled in feet along the edges. Drawn as
    // terrain, which a click never selects (issue 28: as a marker, a click
    // on a grid line selected the line and dropped the group selected).
    let step = 6 * INCH;
    let mut x = step;
    while x < s.scenario.width {
        let sx = x as f32 * S;
        items.push(item(
            format!("grid:x{x}"),
            ItemKind::Terrain,
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
            ItemKind::Terrain,
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
        it.name = Some(t.name.clone());
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
    // Names are placed after every group is drawn, so that none overlaps
    // another (see `place_names`).
    let mut names: Vec<NameToPlace> = Vec::new();
    let mut tokens: Vec<Rect> = Vec::new();
    for (gi, g) in s.groups.iter().enumerate() {
        let air = g.place == Place::Air;
        if !(g.place == Place::Table || air) || g.alive_count() == 0 {
            continue;
        }
        let [r, gr, b] = s.faction(g.seat).colour;
        // A craft in the air is drawn lighter, its outline dashed.
        let colour = if air {
            Rgba(r, gr, b, 120)
        } else {
            Rgba::rgb(r, gr, b)
        };
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
            Rgba(r, gr, b, if air { 20 } else { 40 }),
            if g.locked.is_some() {
                (3.0, Rgba::rgb(200, 30, 30))
            } else if air {
                (0.0, INK)
            } else {
                (1.0, Rgba(r, gr, b, 160))
            },
        );
        area.name = Some(format!("{} {}", s.faction(g.seat).name, g.name));
        area.tooltip = Some(format!(
            "{} {}: {} figure{}{}",
            s.faction(g.seat).name,
            g.name,
            g.alive_count(),
            if g.alive_count() == 1 { "" } else { "s" },
            if g.locked.is_some() {
                ", locked in hand-to-hand"
            } else if air {
                " (in the air)"
            } else {
                ""
            }
        ));
        items.push(area);
        if air {
            items.extend(dashed_circle(
                &format!("air:{gi}"),
                to_scene(centre),
                reach,
                Rgba(r, gr, b, 200),
            ));
        }
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
                if air {
                    (1.0, Rgba(255, 255, 255, 200))
                } else {
                    (1.0, INK)
                },
            );
            let mut tip = match g.facing {
                Some(f) => format!("{}, facing {}", m.name, super::describe::facing_words(f)),
                None => String::from(&m.name),
            };
            if air {
                tip.push_str(" (in the air)");
            }
            it.tooltip = Some(tip);
            it.name = Some(String::from(&m.name));
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
            let [cx, cy] = to_scene(p);
            tokens.push(Rect::around([cx, cy], 10.0, 10.0));
        }
        let scene_pts: Vec<[f32; 2]> = pts.iter().map(|p| to_scene(*p)).collect();
        let min_x = scene_pts.iter().map(|p| p[0]).fold(f32::MAX, f32::min) - 5.0;
        let max_x = scene_pts.iter().map(|p| p[0]).fold(f32::MIN, f32::max) + 5.0;
        let min_y = scene_pts.iter().map(|p| p[1]).fold(f32::MAX, f32::min) - 5.0;
        let max_y = scene_pts.iter().map(|p| p[1]).fold(f32::MIN, f32::max) + 5.0;
        let bounds = Rect {
            min: [min_x, min_y],
            max: [max_x, max_y],
        };
        names.push(NameToPlace {
            id: format!("group-name:{gi}"),
            text: g.name.clone(),
            short: short_name(&g.name),
            size: 11.0,
            fill: if air { Rgba(40, 36, 30, 170) } else { INK },
            around: bounds,
        });
        // Advanced Invasion Earth: a group pinned down, or out of its
        // player's hands, says so on the table.
        let status = if s.advanced.suppressed.contains(&(gi as GroupId)) {
            Some(("suppressed", "pinned"))
        } else if s
            .advanced
            .orders
            .iter()
            .any(|(x, o, _)| *x == gi as GroupId && *o != super::advanced::Order::Nothing)
        {
            Some(("out of hand", "wild"))
        } else if s.advanced.waiting.iter().any(|(x, _)| *x == gi as GroupId) {
            Some(("laying in wait", "waiting"))
        } else {
            None
        };
        if let Some(h) = super::fly::height(s, gi as GroupId) {
            names.push(NameToPlace {
                id: format!("height:{gi}"),
                text: format!("{} up", super::inches(h)),
                short: super::inches(h),
                size: 10.0,
                fill: Rgba::rgb(30, 90, 160),
                around: bounds,
            });
        }
        if let Some((text, short)) = status {
            names.push(NameToPlace {
                id: format!("status:{gi}"),
                text: text.into(),
                short: short.into(),
                size: 10.0,
                fill: Rgba::rgb(150, 80, 0),
                around: bounds,
            });
        }
        if g.locked.is_some() {
            names.push(NameToPlace {
                id: format!("locked:{gi}"),
                text: "hand-to-hand".into(),
                short: "melee".into(),
                size: 10.0,
                fill: Rgba::rgb(190, 20, 20),
                around: bounds,
            });
        }
    }
    let terrain_names: Vec<Rect> = items
        .iter()
        .filter(|i| i.id.starts_with("terrain-name:"))
        .filter_map(|i| match &i.shape {
            Shape::Text { pos, text, size } => Some(text_rect(*pos, text, *size)),
            _ => None,
        })
        .collect();
    items.extend(place_names(&names, &tokens, &terrain_names, [w, h]));
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
    // Groups not on the table are not drawn: a line of words under the cards.
    let unseen = unseen_words(s);
    let extra = if unseen.is_empty() {
        0.0
    } else {
        items.push(label(
            "below".into(),
            [w / 2.0, h + CARDS + 6.0],
            unseen,
            11.0,
            INK,
        ));
        20.0
    };
    Scene {
        width: w.max(10.0 + s.drawn.len() as f32 * 130.0),
        height: h + CARDS + extra,
        background: Some(Rgba::rgb(236, 232, 220)),
        items,
    }
}

/// A box in scene units.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    min: [f32; 2],
    max: [f32; 2],
}

impl Rect {
    fn around(c: [f32; 2], w: f32, h: f32) -> Rect {
        Rect {
            min: [c[0] - w / 2.0, c[1] - h / 2.0],
            max: [c[0] + w / 2.0, c[1] + h / 2.0],
        }
    }

    fn overlaps(&self, o: &Rect) -> bool {
        self.min[0] < o.max[0]
            && o.min[0] < self.max[0]
            && self.min[1] < o.max[1]
            && o.min[1] < self.max[1]
    }

    fn inside(&self, w: f32, h: f32) -> bool {
        self.min[0] >= 0.0 && self.min[1] >= 0.0 && self.max[0] <= w && self.max[1] <= h
    }
}

/// The box a centred label takes (an estimate: a proportional font's
/// letters are about 0.6 of its size wide).
fn text_rect(pos: [f32; 2], text: &str, size: f32) -> Rect {
    let w = text.chars().count() as f32 * size * 0.6 + 2.0;
    Rect::around(pos, w, size * 1.3)
}

/// A group's name (or its hand-to-hand marker) to be placed near its figures.
struct NameToPlace {
    id: String,
    text: String,
    short: String,
    size: f32,
    fill: Rgba,
    /// The box around the group's figures.
    around: Rect,
}

/// Where a label `tw` by `th` may go around a group's box, nearest first:
/// ring 0 touches the box (above, below, left, right, then the corners),
/// each further ring one label height (or half a label width) further out.
fn spots(around: &Rect, tw: f32, th: f32, rings: usize) -> Vec<[f32; 2]> {
    let cx = (around.min[0] + around.max[0]) / 2.0;
    let cy = (around.min[1] + around.max[1]) / 2.0;
    let mut out = Vec::new();
    for r in 0..rings {
        let d = r as f32 * th;
        let above = around.min[1] - th / 2.0 - 1.0 - d;
        let below = around.max[1] + th / 2.0 + 1.0 + d;
        let left = around.min[0] - tw / 2.0 - 2.0 - r as f32 * tw / 2.0;
        let right = around.max[0] + tw / 2.0 + 2.0 + r as f32 * tw / 2.0;
        out.extend([
            [cx, above],
            [cx, below],
            [left, cy],
            [right, cy],
            [left, above],
            [right, above],
            [left, below],
            [right, below],
            [left, cy - th - d],
            [right, cy - th - d],
            [left, cy + th + d],
            [right, cy + th + d],
        ]);
    }
    out
}

/// How much of `r` lies under the boxes `under` (area, summed).
fn covered(r: &Rect, under: &[Rect]) -> f32 {
    under
        .iter()
        .map(|o| {
            let w = (r.max[0].min(o.max[0]) - r.min[0].max(o.min[0])).max(0.0);
            let h = (r.max[1].min(o.max[1]) - r.min[1].max(o.min[1])).max(0.0);
            w * h
        })
        .sum()
}

/// Places every name so that no two overlap and none hides a figure
/// (deterministic, in group order; issue 28: labels overlapped on a crowded
/// table). It takes the first of these that fits: the name on a spot next
/// to its group clear of names, figures and terrain names, or a ring or two
/// further out; its short form so; the same clear of names and figures only;
/// clear of names only; and last, on the table, the short form where it
/// covers the least of names and figures.
fn place_names(
    names: &[NameToPlace],
    tokens: &[Rect],
    terrain: &[Rect],
    table: [f32; 2],
) -> Vec<Item> {
    /// What a spot must keep clear of.
    #[derive(Clone, Copy)]
    enum Clear {
        All,
        NamesAndFigures,
        Names,
    }
    let mut placed: Vec<Rect> = Vec::new();
    let mut out = Vec::new();
    for n in names {
        let fits = |text: &str, rings: usize, clear: Clear, placed: &[Rect]| {
            let probe = text_rect([0.0, 0.0], text, n.size);
            let (tw, th) = (probe.max[0] - probe.min[0], probe.max[1] - probe.min[1]);
            spots(&n.around, tw, th, rings).into_iter().find(|&pos| {
                let r = text_rect(pos, text, n.size);
                let figures = || tokens.iter().any(|t| t.overlaps(&r));
                let terrain = || terrain.iter().any(|t| t.overlaps(&r));
                r.inside(table[0], table[1])
                    && !placed.iter().any(|p| p.overlaps(&r))
                    && match clear {
                        Clear::All => !figures() && !terrain(),
                        Clear::NamesAndFigures => !figures(),
                        Clear::Names => true,
                    }
            })
        };
        let mut tries: Vec<(&str, usize, Clear)> = Vec::new();
        for clear in [Clear::All, Clear::NamesAndFigures, Clear::Names] {
            for text in [&n.text, &n.short] {
                for rings in [1, 3] {
                    tries.push((text, rings, clear));
                }
            }
        }
        let found = tries.iter().find_map(|&(text, rings, clear)| {
            fits(text, rings, clear, &placed).map(|p| (p, text.to_owned()))
        });
        let (pos, text) = found.unwrap_or_else(|| {
            // Nowhere clear: the short form where it hides the least.
            let probe = text_rect([0.0, 0.0], &n.short, n.size);
            let (tw, th) = (probe.max[0] - probe.min[0], probe.max[1] - probe.min[1]);
            let mut under = placed.clone();
            under.extend_from_slice(tokens);
            let spots = spots(&n.around, tw, th, 3);
            let best = spots
                .iter()
                .copied()
                .filter(|&p| text_rect(p, &n.short, n.size).inside(table[0], table[1]))
                .min_by(|a, b| {
                    covered(&text_rect(*a, &n.short, n.size), &under)
                        .total_cmp(&covered(&text_rect(*b, &n.short, n.size), &under))
                })
                .unwrap_or(spots[0]);
            (best, n.short.clone())
        });
        placed.push(text_rect(pos, &text, n.size));
        out.push(label(n.id.clone(), pos, text, n.size, n.fill));
    }
    out
}

/// A shorter name for a crowded table: "1st Squad, Section A" reads
/// "1st Squ. Sec. A" (words longer than three letters cut to three and a
/// stop; words with a digit kept).
pub fn short_name(name: &str) -> String {
    name.split_whitespace()
        .map(|w| {
            let w = w.trim_end_matches(',');
            if w.chars().count() <= 3 || w.chars().any(|c| c.is_ascii_digit()) {
                w.to_owned()
            } else {
                format!("{}.", w.chars().take(3).collect::<String>())
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A dashed circle: short strokes around it (labels, so clicks go through).
fn dashed_circle(id: &str, c: [f32; 2], r: f32, colour: Rgba) -> Vec<Item> {
    let n = 16;
    (0..n)
        .map(|i| {
            let a0 = i as f32 / n as f32 * std::f32::consts::TAU;
            let a1 = a0 + std::f32::consts::TAU / n as f32 * 0.55;
            item(
                format!("{id}:{i}"),
                ItemKind::Label,
                Shape::Line(vec![
                    [c[0] + r * a0.cos(), c[1] + r * a0.sin()],
                    [c[0] + r * a1.cos(), c[1] + r * a1.sin()],
                ]),
                colour,
                (1.5, colour),
            )
        })
        .collect()
}

/// The groups below the table or carried, in words ("Below the table: Spugs
/// Burrower Worm (carrying Brood One); in the sewers: ..."); empty if none.
pub fn unseen_words(s: &InvasionState) -> String {
    let mut tunnels = Vec::new();
    let mut sewers = Vec::new();
    for (gi, g) in s.groups.iter().enumerate() {
        if g.place != Place::Below || g.alive_count() == 0 {
            continue;
        }
        let gid = gi as super::state::GroupId;
        let mut text = super::rules::group_name(s, gid);
        let carried: Vec<&str> = s
            .groups
            .iter()
            .filter(|o| o.place == Place::Carried(gid) && o.alive_count() > 0)
            .map(|o| o.name.as_str())
            .collect();
        if !carried.is_empty() {
            text.push_str(&format!(" (carrying {})", carried.join(", ")));
        }
        if s.is_worm(gid) {
            tunnels.push(text);
        } else {
            sewers.push(text);
        }
    }
    let mut parts = Vec::new();
    if !tunnels.is_empty() {
        parts.push(format!("below the table: {}", tunnels.join(", ")));
    }
    if !sewers.is_empty() {
        parts.push(format!("in the sewers: {}", sewers.join(", ")));
    }
    // Squads a Burrower has brought up and not deployed yet.
    for (wi, w) in s.groups.iter().enumerate() {
        let wid = wi as super::state::GroupId;
        if w.place == Place::Below {
            continue;
        }
        let carried: Vec<&str> = s
            .groups
            .iter()
            .filter(|o| o.place == Place::Carried(wid) && o.alive_count() > 0)
            .map(|o| o.name.as_str())
            .collect();
        if !carried.is_empty() {
            parts.push(format!(
                "carried by {}: {}",
                super::rules::group_name(s, wid),
                carried.join(", ")
            ));
        }
    }
    let mut text = parts.join("; ");
    if let Some(first) = text.get(..1) {
        text = first.to_uppercase() + &text[1..];
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::invasion::{InvasionConfig, start};

    fn crash_site() -> InvasionState {
        start(&InvasionConfig {
            scenario: "crash_site".into(),
            sewers: true,
            rosters: Vec::new(),
            ..InvasionConfig::default()
        })
        .expect("setup")
    }

    fn by_name(s: &InvasionState, name: &str) -> usize {
        s.groups.iter().position(|g| g.name == name).expect(name)
    }

    fn names(scene: &Scene) -> Vec<Rect> {
        scene
            .items
            .iter()
            .filter(|i| i.id.starts_with("group-name:") || i.id.starts_with("locked:"))
            .filter_map(|i| match &i.shape {
                Shape::Text { pos, text, size } => Some(text_rect(*pos, text, *size)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn names_of_groups_standing_close_together_do_not_overlap() {
        let mut s = crash_site();
        // Squeeze U.N.I.T.'s four sections into a corner, 2" apart.
        for (i, name) in [
            "1st Squad, Section A",
            "1st Squad, Section B",
            "2nd Squad, Section A",
            "2nd Squad, Section B",
        ]
        .iter()
        .enumerate()
        {
            let g = by_name(&s, name);
            for (k, m) in s.groups[g].models.iter_mut().enumerate() {
                m.at = Some(Point::new(
                    300 + 200 * i as i32 + 110 * (k as i32 % 2),
                    300 + 110 * (k as i32 / 2),
                ));
            }
        }
        let scene = scene(&s);
        let rects = names(&scene);
        let on_table = s.groups.iter().filter(|g| g.on_table()).count();
        assert_eq!(rects.len(), on_table);
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
            }
        }
        // Placing is deterministic.
        assert_eq!(super::scene(&s), scene);
    }

    /// Issue 28: on the sample's crowded corner (the Spugs' six groups
    /// against the table's bottom edge) names covered figures and each
    /// other. Every name now keeps clear of every other name and of every
    /// figure.
    #[test]
    fn names_in_a_crowded_corner_hide_no_figure_and_no_other_name() {
        let mut s = crash_site();
        let (w, h) = (s.scenario.width, s.scenario.height);
        let spugs: Vec<String> = s
            .groups
            .iter()
            .filter(|g| s.factions[g.seat as usize].id == "spugs" && g.on_table())
            .map(|g| g.name.clone())
            .collect();
        assert!(spugs.len() >= 4, "{spugs:?}");
        for (i, name) in spugs.iter().enumerate() {
            let g = by_name(&s, name);
            for (k, m) in s.groups[g].models.iter_mut().enumerate() {
                m.at = Some(Point::new(
                    w - 1500 + 200 * i as i32 + 110 * (k as i32 % 2),
                    h - 250 + 110 * (k as i32 / 2).min(1),
                ));
            }
        }
        let scene = scene(&s);
        let rects = names(&scene);
        let tokens: Vec<Rect> = scene
            .items
            .iter()
            .filter(|i| i.id.starts_with("model:"))
            .filter_map(|i| match &i.shape {
                Shape::Circle { center, radius } => {
                    Some(Rect::around(*center, 2.0 * radius, 2.0 * radius))
                }
                _ => None,
            })
            .collect();
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
            }
            for t in &tokens {
                assert!(!a.overlaps(t), "{a:?} covers a figure at {t:?}");
            }
        }
    }

    #[test]
    fn short_names_keep_numbers_and_cut_long_words() {
        assert_eq!(short_name("1st Squad, Section A"), "1st Squ. Sec. A");
        assert_eq!(short_name("Brood One"), "Bro. One");
    }

    #[test]
    fn a_craft_in_the_air_is_drawn_light_and_dashed_and_says_so() {
        let mut s = crash_site();
        let g = by_name(&s, "1st Squad, Section A");
        s.groups[g].place = Place::Air;
        let scene = scene(&s);
        let id = &s.groups[g].models[0].id;
        let token = scene
            .items
            .iter()
            .find(|i| i.id == format!("model:{id}"))
            .expect("drawn");
        assert!(token.tooltip.as_deref().unwrap().ends_with("(in the air)"));
        assert!(token.fill.3 < 255);
        assert!(scene.items.iter().any(|i| i.id == format!("air:{g}:0")));
        let area = scene.items.iter().find(|i| i.id == format!("group:{g}"));
        assert!(
            area.unwrap()
                .tooltip
                .as_deref()
                .unwrap()
                .ends_with("(in the air)")
        );
    }

    #[test]
    fn groups_below_the_table_or_carried_are_listed_under_the_cards() {
        let mut s = crash_site();
        assert_eq!(unseen_words(&s), "");
        assert!(!scene(&s).items.iter().any(|i| i.id == "below"));
        let worm = by_name(&s, "Burrower Worm");
        let brood = by_name(&s, "Brood One");
        let unit = by_name(&s, "1st Squad, Section A");
        s.groups[worm].place = Place::Below;
        s.groups[brood].place = Place::Carried(worm as u16);
        s.groups[unit].place = Place::Below;
        assert_eq!(
            unseen_words(&s),
            "Below the table: Spugs Burrower Worm (carrying Brood One); in the sewers: U.N.I.T. 1st Squad, Section A"
        );
        let scene = scene(&s);
        assert!(scene.items.iter().any(|i| i.id == "below"));
        assert!(
            !scene
                .items
                .iter()
                .any(|i| i.id == format!("group:{worm}") || i.id == format!("group:{brood}"))
        );
        // Brought up and not deployed yet.
        s.groups[worm].place = Place::Table;
        s.groups[unit].place = Place::Table;
        assert_eq!(
            unseen_words(&s),
            "Carried by Spugs Burrower Worm: Brood One"
        );
    }

    #[test]
    fn a_ground_vehicle_shows_its_facing() {
        let mut s = crash_site();
        let g = by_name(&s, "1st Squad, Section A");
        s.groups[g].facing = Some(90);
        let scene = scene(&s);
        let id = &s.groups[g].models[0].id;
        let line = scene
            .items
            .iter()
            .find(|i| i.id == format!("facing:{id}"))
            .expect("a facing line");
        let Shape::Line(pts) = &line.shape else {
            panic!("a line")
        };
        assert!(pts[1][1] > pts[0][1], "90 degrees points down the table");
        assert_eq!(line.kind, ItemKind::Label, "clicks go through it");
    }
}
