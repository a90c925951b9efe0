//! The board as shapes: the map in play with its terrain, roads and hex
//! numbers, every counter with its values and markers, and a side panel with
//! the cups, piles and units off the map. The app paints exactly this and
//! exports it as SVG.

use crate::scene::{Item, ItemKind, Rgba, Scene, Shape};

use super::map::{Cell, Map, Terrain};
use super::rules::{alien_active, map_of, shut_down};
use super::state::{DimxState, Phase};
use super::units::{Alien, AlienKind, AlienPlace, Condition, Marine, MarineKind, Place, Weapon};

/// Hex radius in board units.
const R: f32 = 34.0;
const PANEL: f32 = 270.0;
const MARGIN: f32 = 10.0;

const INK: Rgba = Rgba::rgb(40, 36, 30);

/// The colour a terrain is drawn in (the app's legend shows the same).
pub fn terrain_fill(t: Terrain) -> Rgba {
    match t {
        Terrain::Clear => Rgba::rgb(214, 204, 160),
        Terrain::Rough => Rgba::rgb(176, 150, 112),
        Terrain::Forest => Rgba::rgb(96, 140, 78),
        Terrain::Buildings => Rgba::rgb(170, 170, 176),
        Terrain::Wormhole => Rgba::rgb(150, 120, 190),
        Terrain::Lava => Rgba::rgb(222, 88, 34),
    }
}

fn item(
    id: &str,
    kind: ItemKind,
    shape: Shape,
    fill: Rgba,
    stroke: (f32, Rgba),
    tooltip: Option<String>,
) -> Item {
    Item {
        id: id.to_owned(),
        kind,
        shape,
        fill,
        stroke,
        tooltip,
        name: None,
    }
}

fn text(id: &str, pos: [f32; 2], t: impl Into<String>, size: f32, fill: Rgba) -> Item {
    item(
        id,
        ItemKind::Label,
        Shape::Text {
            pos,
            text: t.into(),
            size,
        },
        fill,
        (0.0, INK),
        None,
    )
}

/// How a rectangle is painted: corner rounding, fill, stroke.
struct Paint(f32, Rgba, (f32, Rgba));

fn rect(
    id: &str,
    kind: ItemKind,
    c: [f32; 2],
    [w, h]: [f32; 2],
    Paint(round, fill, stroke): Paint,
    tip: Option<String>,
) -> Item {
    item(
        id,
        kind,
        Shape::Rect {
            min: [c[0] - w / 2.0, c[1] - h / 2.0],
            max: [c[0] + w / 2.0, c[1] + h / 2.0],
            rounding: round,
        },
        fill,
        stroke,
        tip,
    )
}

/// Round terrain marks (trees, stones) of `radius` at `offsets` from `p`.
fn dots(
    items: &mut Vec<Item>,
    id: &str,
    p: [f32; 2],
    offsets: &[(f32, f32)],
    radius: f32,
    fill: Rgba,
) {
    for (dx, dy) in offsets {
        items.push(item(
            id,
            ItemKind::Terrain,
            Shape::Circle {
                center: [p[0] + dx, p[1] + dy],
                radius,
            },
            fill,
            (0.0, INK),
            None,
        ));
    }
}

fn at(map: &Map, c: Cell) -> [f32; 2] {
    let p = map.centre_f(c, R);
    [p[0] + MARGIN, p[1] + MARGIN]
}

/// The scene id of a hex: `hex:263`, or `lava:7-5` for an unnumbered one.
pub fn hex_id(map: &Map, c: Cell) -> String {
    let h = map.hex(c);
    match h.number {
        Some(n) => format!("hex:{n}"),
        None => format!("lava:{}-{}", h.col + 1, h.row + 1),
    }
}

fn hex_tip(s: &DimxState, map: &Map, c: Cell) -> String {
    let h = map.hex(c);
    let mut t = match h.number {
        Some(n) => format!("{n}: {}", h.terrain.name()),
        None => format!(
            "Lava Flow (unnumbered, column {} row {})",
            h.col + 1,
            h.row + 1
        ),
    };
    if h.road != 0 {
        t.push_str(if h.terrain == Terrain::Lava {
            ", bridge"
        } else {
            ", road"
        });
    }
    t.push_str(match h.terrain {
        Terrain::Forest | Terrain::Rough => " (2 MP)",
        Terrain::Lava => " (only along a road)",
        _ => "",
    });
    if let Some(n) = h.number {
        if s.strongpoints.contains(&n) {
            t.push_str("; Strongpoint");
        }
        if s.rules.entry.contains(&n) {
            t.push_str("; Marine entry hex");
        }
        if s.rules.exit.contains(&n) {
            t.push_str("; Marine exit hex");
        }
    }
    t
}

fn map_items(s: &DimxState, map: &Map, items: &mut Vec<Item>) {
    let k = 3f32.sqrt() / 2.0;
    for (i, h) in map.hexes.iter().enumerate() {
        let c = i as Cell;
        let p = at(map, c);
        let corners = (0..6)
            .map(|j| {
                let a = std::f32::consts::PI / 3.0 * j as f32;
                [p[0] + R * a.cos(), p[1] + R * a.sin()]
            })
            .collect();
        let id = hex_id(map, c);
        items.push(item(
            &id,
            ItemKind::Hex,
            Shape::Polygon(corners),
            terrain_fill(h.terrain),
            (1.0, Rgba(60, 50, 40, 160)),
            Some(hex_tip(s, map, c)),
        ));
        match h.terrain {
            Terrain::Forest => {
                let trees = [(-10.0, 4.0), (9.0, 6.0), (0.0, -6.0)];
                dots(items, &id, p, &trees, 8.0, Rgba::rgb(58, 104, 52));
            }
            Terrain::Rough => {
                let stones = [(-12.0, 6.0), (-3.0, -5.0), (8.0, 8.0), (12.0, -3.0)];
                dots(items, &id, p, &stones, 3.0, Rgba::rgb(120, 96, 66));
            }
            Terrain::Buildings => {
                items.push(rect(
                    &id,
                    ItemKind::Terrain,
                    [p[0] - 7.0, p[1] + 4.0],
                    [14.0, 12.0],
                    Paint(1.0, Rgba::rgb(112, 112, 120), (1.0, INK)),
                    None,
                ));
                items.push(rect(
                    &id,
                    ItemKind::Terrain,
                    [p[0] + 9.0, p[1] - 2.0],
                    [11.0, 16.0],
                    Paint(1.0, Rgba::rgb(130, 128, 136), (1.0, INK)),
                    None,
                ));
            }
            Terrain::Wormhole => {
                for (r, col) in [
                    (20.0, Rgba::rgb(90, 50, 150)),
                    (13.0, Rgba::rgb(170, 130, 230)),
                    (6.0, Rgba::rgb(40, 10, 80)),
                ] {
                    items.push(item(
                        &id,
                        ItemKind::Terrain,
                        Shape::Circle {
                            center: p,
                            radius: r,
                        },
                        col,
                        (0.0, INK),
                        None,
                    ));
                }
            }
            Terrain::Lava => {
                items.push(item(
                    &id,
                    ItemKind::Terrain,
                    Shape::Line(vec![
                        [p[0] - 14.0, p[1] - 6.0],
                        [p[0] - 2.0, p[1] + 4.0],
                        [p[0] + 6.0, p[1] - 4.0],
                        [p[0] + 16.0, p[1] + 6.0],
                    ]),
                    Rgba::rgb(255, 200, 60),
                    (3.0, Rgba::rgb(255, 200, 60)),
                    None,
                ));
            }
            Terrain::Clear => {}
        }
        let _ = k;
    }
    // roads: a line from each hex centre to the midpoint of each connected hexside
    for (i, h) in map.hexes.iter().enumerate() {
        let c = i as Cell;
        let p = at(map, c);
        for (d, nb) in h.neighbours.iter().enumerate() {
            let Some(nb) = *nb else { continue };
            if h.road & (1 << d) == 0 || nb < c {
                continue;
            }
            let q = at(map, nb);
            let bridge = h.terrain == Terrain::Lava || map.terrain(nb) == Terrain::Lava;
            let col = if bridge {
                Rgba::rgb(70, 60, 60)
            } else {
                Rgba::rgb(120, 100, 80)
            };
            let id = format!("road:{}-{}", map.label(c), map.label(nb));
            items.push(item(
                &id,
                ItemKind::Terrain,
                Shape::Line(vec![p, q]),
                col,
                (6.0, col),
                Some(if bridge {
                    "bridge".into()
                } else {
                    "road".into()
                }),
            ));
        }
    }
    for (i, h) in map.hexes.iter().enumerate() {
        if let Some(n) = h.number {
            let p = at(map, i as Cell);
            items.push(text(
                &format!("hex:{n}"),
                [p[0], p[1] - R * 0.7],
                n.to_string(),
                9.0,
                Rgba(30, 25, 20, 220),
            ));
        }
    }
    for &sp in &s.strongpoints {
        if let Some(c) = map.cell(sp) {
            let p = at(map, c);
            let id = format!("hex:{sp}");
            items.push(item(
                &id,
                ItemKind::Marker,
                Shape::Circle {
                    center: p,
                    radius: R * 0.78,
                },
                Rgba(0, 0, 0, 0),
                (3.0, Rgba::rgb(90, 60, 20)),
                Some(format!("Strongpoint in {sp}: -1 to Kay'otz fire")),
            ));
        }
    }
    for &e in s.rules.entry.iter().chain(s.rules.exit.iter()) {
        if let Some(c) = map.cell(e) {
            let p = at(map, c);
            items.push(item(
                &format!("hex:{e}"),
                ItemKind::Highlight,
                Shape::Circle {
                    center: [p[0] - R * 0.55, p[1]],
                    radius: 4.0,
                },
                Rgba::rgb(30, 90, 200),
                (0.0, INK),
                None,
            ));
        }
    }
}

fn abbrev(k: MarineKind) -> &'static str {
    match k {
        MarineKind::Squad => "SQD",
        MarineKind::Scout => "SCT",
        MarineKind::SpecialOps => "SPOPS",
        MarineKind::HeavyWeapons => "HW",
        MarineKind::Hq => "HQ",
        MarineKind::Logistics => "LOG",
    }
}

fn marine_tip(m: &Marine) -> String {
    let mut t = format!(
        "{}: MP {}, CF {}, DN {}",
        m.title(),
        m.mp,
        m.weapon().label(),
        m.dn
    );
    if m.jump_pack {
        t.push_str(", jump pack");
    }
    if m.out_of_ammo {
        t.push_str("; Out of Ammo");
    }
    match m.condition {
        Condition::Stunned => t.push_str("; Stunned (-1 MP, -1 CF)"),
        Condition::Paralyzed => t.push_str("; Paralyzed (may only Rally)"),
        Condition::Fine => {}
    }
    if m.acted {
        t.push_str("; has acted this phase");
    }
    t
}

/// One Marine counter centred on `p`, `w` wide.
fn marine_counter(m: &Marine, p: [f32; 2], w: f32, items: &mut Vec<Item>) {
    let id = format!("unit:{}", m.id);
    let fill = if m.acted {
        Rgba::rgb(120, 136, 104)
    } else {
        Rgba::rgb(86, 120, 66)
    };
    items.push(
        rect(
            &id,
            ItemKind::Counter,
            p,
            [w, w],
            Paint(
                5.0,
                fill,
                (if m.acted { 1.0 } else { 2.0 }, Rgba::rgb(20, 30, 16)),
            ),
            Some(marine_tip(m)),
        )
        .named(m.title()),
    );
    let s = w / 44.0;
    let white = Rgba::WHITE;
    items.push(text(
        &id,
        [p[0], p[1] - 15.0 * s],
        abbrev(m.kind),
        8.0 * s,
        white,
    ));
    items.push(text(
        &id,
        [p[0] - 8.0 * s, p[1] - 3.0 * s],
        String::from(&m.id),
        8.0 * s,
        Rgba::rgb(230, 240, 210),
    ));
    items.push(text(
        &id,
        [p[0] + 14.0 * s, p[1] - 3.0 * s],
        format!("{}{}", m.mp, if m.jump_pack { "J" } else { "" }),
        9.0 * s,
        Rgba::rgb(150, 255, 150),
    ));
    let cf = m.weapon().label();
    let cf_fill = if m.out_of_ammo {
        Rgba::rgb(200, 40, 30)
    } else {
        Rgba::WHITE
    };
    let cf_ink = if m.out_of_ammo { Rgba::WHITE } else { INK };
    items.push(item(
        &id,
        ItemKind::Label,
        Shape::Circle {
            center: [p[0] - 11.0 * s, p[1] + 12.0 * s],
            radius: 8.0 * s,
        },
        cf_fill,
        (0.0, INK),
        None,
    ));
    let cf_size = if matches!(m.weapon(), Weapon::Bump) {
        5.5
    } else {
        9.0
    };
    items.push(text(
        &id,
        [p[0] - 11.0 * s, p[1] + 12.0 * s],
        cf,
        cf_size * s,
        cf_ink,
    ));
    items.push(rect(
        &id,
        ItemKind::Label,
        [p[0] + 11.0 * s, p[1] + 12.0 * s],
        [13.0 * s, 14.0 * s],
        Paint(3.0, Rgba::rgb(240, 210, 60), (0.0, INK)),
        None,
    ));
    items.push(text(
        &id,
        [p[0] + 11.0 * s, p[1] + 12.0 * s],
        m.dn.to_string(),
        9.0 * s,
        INK,
    ));
    let marker = match m.condition {
        Condition::Stunned => Some(("STUN", Rgba::rgb(245, 200, 40))),
        Condition::Paralyzed => Some(("PARA", Rgba::rgb(220, 40, 40))),
        Condition::Fine => None,
    };
    if let Some((t, col)) = marker {
        let c = [p[0], p[1] - w / 2.0 - 4.0 * s];
        items.push(rect(
            &id,
            ItemKind::Marker,
            c,
            [26.0 * s, 10.0 * s],
            Paint(2.0, col, (1.0, INK)),
            None,
        ));
        items.push(text(&id, c, t, 7.0 * s, INK));
    }
    if m.acted {
        let c = [p[0] + w / 2.0 - 2.0 * s, p[1] - w / 2.0 + 2.0 * s];
        items.push(item(
            &id,
            ItemKind::Marker,
            Shape::Circle {
                center: c,
                radius: 5.0 * s,
            },
            Rgba::rgb(60, 60, 60),
            (0.0, INK),
            None,
        ));
        items.push(text(&id, c, "✓", 7.0 * s, Rgba::WHITE));
    }
}

/// An alien's name for people, as its tooltip begins.
fn alien_name(a: &Alien) -> String {
    match a.kind {
        AlienKind::Monolith => "the Monolith".to_owned(),
        _ => format!("{} ({})", a.title(), a.id),
    }
}

fn alien_tip(s: &DimxState, map: &Map, a: &Alien) -> String {
    match a.kind {
        AlienKind::Monolith => {
            let off = a.on_map().is_some() && shut_down(s, map, a);
            format!(
                "{}: never moves, never fires, cannot be targeted{}",
                alien_name(a),
                if off {
                    "; Inactive (shut down)"
                } else {
                    "; Active"
                }
            )
        }
        _ => {
            let mut t = format!("{}: CF {}, DN {}", alien_name(a), a.cf, a.dn);
            if let Some(v) = a.adm {
                t.push_str(&format!("; ADM {v}: DN is now {v}"));
            }
            t.push_str(if a.dormant { "; Dormant" } else { "; Active" });
            t
        }
    }
}

fn alien_counter(s: &DimxState, map: &Map, a: &Alien, p: [f32; 2], w: f32, items: &mut Vec<Item>) {
    let id = format!("unit:{}", a.id);
    let sc = w / 44.0;
    let active = a.on_map().is_none() || alien_active(s, map, a);
    if a.kind == AlienKind::Monolith {
        let fill = if active {
            Rgba::rgb(20, 20, 28)
        } else {
            Rgba::rgb(110, 110, 116)
        };
        items.push(
            rect(
                &id,
                ItemKind::Counter,
                p,
                [w * 0.7, w],
                Paint(3.0, fill, (2.0, Rgba::rgb(160, 80, 220))),
                Some(alien_tip(s, map, a)),
            )
            .named(alien_name(a)),
        );
        items.push(text(
            &id,
            [p[0], p[1] - 6.0 * sc],
            "MONO",
            7.5 * sc,
            Rgba::rgb(200, 160, 255),
        ));
        items.push(text(
            &id,
            [p[0], p[1] + 8.0 * sc],
            if active { "ACTIVE" } else { "INACTIVE" },
            5.5 * sc,
            Rgba::WHITE,
        ));
        return;
    }
    let fill = match (a.dormant, a.kind) {
        (true, _) => Rgba::rgb(128, 112, 140),
        (false, AlienKind::Overlord) => Rgba::rgb(150, 30, 110),
        _ => Rgba::rgb(112, 44, 150),
    };
    items.push(
        rect(
            &id,
            ItemKind::Counter,
            p,
            [w, w],
            Paint(5.0, fill, (2.0, Rgba::rgb(40, 10, 50))),
            Some(alien_tip(s, map, a)),
        )
        .named(alien_name(a)),
    );
    items.push(text(
        &id,
        [p[0] + 10.0 * sc, p[1] - 13.0 * sc],
        format!("#{}", a.number),
        10.0 * sc,
        Rgba::rgb(255, 230, 120),
    ));
    if a.kind == AlienKind::Overlord {
        items.push(text(
            &id,
            [p[0] - 10.0 * sc, p[1] - 13.0 * sc],
            "OVL",
            7.0 * sc,
            Rgba::WHITE,
        ));
    }
    if a.dormant {
        items.push(text(
            &id,
            [p[0], p[1] - 1.0 * sc],
            "DORMANT",
            6.5 * sc,
            Rgba::rgb(240, 240, 240),
        ));
    }
    items.push(item(
        &id,
        ItemKind::Label,
        Shape::Circle {
            center: [p[0] - 11.0 * sc, p[1] + 12.0 * sc],
            radius: 8.0 * sc,
        },
        Rgba::WHITE,
        (0.0, INK),
        None,
    ));
    items.push(text(
        &id,
        [p[0] - 11.0 * sc, p[1] + 12.0 * sc],
        a.cf.to_string(),
        9.0 * sc,
        INK,
    ));
    let (dn, col) = match a.adm {
        Some(v) => (format!("{v}"), Rgba::rgb(120, 220, 255)),
        None => (a.dn.to_string(), Rgba::rgb(240, 210, 60)),
    };
    items.push(rect(
        &id,
        ItemKind::Label,
        [p[0] + 11.0 * sc, p[1] + 12.0 * sc],
        [13.0 * sc, 14.0 * sc],
        Paint(3.0, col, (0.0, INK)),
        None,
    ));
    items.push(text(
        &id,
        [p[0] + 11.0 * sc, p[1] + 12.0 * sc],
        dn,
        9.0 * sc,
        INK,
    ));
    if let Some(v) = a.adm {
        let c = [p[0], p[1] + w / 2.0 + 4.0 * sc];
        items.push(rect(
            &id,
            ItemKind::Marker,
            c,
            [28.0 * sc, 10.0 * sc],
            Paint(2.0, Rgba::rgb(120, 220, 255), (1.0, INK)),
            Some(format!("ADM {v} marker")),
        ));
        items.push(text(&id, c, format!("ADM {v}"), 7.0 * sc, INK));
    }
}

fn phase_words(s: &DimxState) -> String {
    match &s.phase {
        Phase::MarineAction { .. } => "Marine Action Phase".into(),
        Phase::ChooseChit { by, .. } => {
            format!("Kay'otz Activation: the {} choose a chit", by.name())
        }
        Phase::Kayotz { chit, .. } => format!("Kay'otz Activation: {}", s.chit_name(*chit)),
        Phase::Activated => "End Phase".into(),
        Phase::Over { summary, .. } => summary.clone(),
    }
}

/// A heading of the side panel and the Marine units listed under it.
type Group = (&'static str, fn(&Marine) -> bool);

fn panel(s: &DimxState, map: &Map, x0: f32, items: &mut Vec<Item>) {
    let x = x0 + PANEL / 2.0;
    let mut y = MARGIN + 16.0;
    // A long line (a battle's result in words) is broken to the panel's
    // width, a character taken as 0.55 of the type's size, at most 4 lines.
    let line = |items: &mut Vec<Item>, y: &mut f32, t: String, size: f32| {
        let width = ((PANEL - 16.0) / (size * 0.55)) as usize;
        let mut lines = crate::scene::wrap(&t, width, 4);
        if lines.is_empty() {
            lines.push(t);
        }
        for l in lines {
            items.push(text("panel", [x, *y], l, size, INK));
            *y += size + 7.0;
        }
    };
    line(items, &mut y, String::from(&s.scenario), 13.0);
    line(
        items,
        &mut y,
        format!("{}, turn {}", map.name, s.turn),
        11.0,
    );
    line(items, &mut y, phase_words(s), 10.0);
    y += 4.0;
    line(
        items,
        &mut y,
        format!("Activation Chits in the cup: {}", s.cup.len()),
        10.0,
    );
    line(
        items,
        &mut y,
        format!("ADM markers in the pile: {}", s.adm_pile.len()),
        10.0,
    );
    line(
        items,
        &mut y,
        format!("Mission Goal chits face down: {}", s.goals.len()),
        10.0,
    );
    if !s.goals_out.is_empty() {
        line(
            items,
            &mut y,
            format!(
                "removed: {}",
                s.goals_out
                    .iter()
                    .map(|g| g.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            8.0,
        );
    }
    line(
        items,
        &mut y,
        format!("Strongpoints: {} of 3", s.strongpoints.len()),
        10.0,
    );
    if s.recon {
        items.push(rect(
            "panel:recon",
            ItemKind::Marker,
            [x, y + 4.0],
            [150.0, 16.0],
            Paint(3.0, Rgba::rgb(60, 160, 220), (1.0, INK)),
            Some("Successful Recon: two chits will be drawn".into()),
        ));
        items.push(text(
            "panel:recon",
            [x, y + 4.0],
            "SUCCESSFUL RECON",
            9.0,
            Rgba::WHITE,
        ));
        y += 24.0;
    }
    let groups: [Group; 5] = [
        ("Waiting at the map edge", |m| m.place == Place::Waiting),
        ("Arriving later", |m| matches!(m.place, Place::Arrives(_))),
        ("Reinforcement pool", |m| m.place == Place::Pool),
        ("Left the map", |m| m.place == Place::Exited),
        ("Marines eliminated", |m| m.place == Place::Eliminated),
    ];
    let w = 30.0;
    for (title, f) in groups {
        let ms: Vec<&Marine> = s.marines.iter().filter(|m| f(m)).collect();
        if ms.is_empty() {
            continue;
        }
        y += 4.0;
        line(items, &mut y, title.into(), 10.0);
        for (i, m) in ms.iter().enumerate() {
            let cx = x0 + 32.0 + (i % 7) as f32 * (w + 5.0);
            let cy = y + 12.0 + (i / 7) as f32 * (w + 12.0);
            marine_counter(m, [cx, cy], w, items);
            // Its id under it, readable where the counter's own print is
            // too small.
            let under = match m.place {
                Place::Arrives(t) => format!("{} t{t}", m.id),
                _ => String::from(&m.id),
            };
            items.push(text(
                &format!("unit:{}", m.id),
                [cx, cy + w / 2.0 + 6.0],
                under,
                7.0,
                INK,
            ));
        }
        y += ms.len().div_ceil(7) as f32 * (w + 12.0) + 4.0;
    }
    for (title, place) in [
        ("Kay'otz unit cup", AlienPlace::Cup),
        ("Kay'otz eliminated", AlienPlace::Eliminated),
    ] {
        let aa: Vec<&Alien> = s.aliens.iter().filter(|a| a.place == place).collect();
        if aa.is_empty() {
            continue;
        }
        y += 4.0;
        line(items, &mut y, format!("{title}: {}", aa.len()), 10.0);
        for (i, a) in aa.iter().enumerate() {
            let cx = x0 + 32.0 + (i % 7) as f32 * (w + 5.0);
            let cy = y + 12.0 + (i / 7) as f32 * (w + 12.0);
            alien_counter(s, map, a, [cx, cy], w, items);
            // "#5", as the counters are numbered ("Kay'otz #5")
            let title = a.title();
            let short = title.rsplit(' ').next().unwrap_or(&title).to_owned();
            items.push(text(
                &format!("unit:{}", a.id),
                [cx, cy + w / 2.0 + 6.0],
                short,
                7.0,
                INK,
            ));
        }
        y += aa.len().div_ceil(7) as f32 * (w + 12.0) + 4.0;
    }
}

/// Where a counter on a hex is drawn, and its size: a little below the
/// centre and a little smaller than the hex's inner height, so the hex
/// number printed at the top of the hex stays readable.
fn counter_on_hex(p: [f32; 2]) -> ([f32; 2], f32) {
    ([p[0], p[1] + 3.5], 42.0)
}

/// Draw a state.
pub fn scene(s: &DimxState) -> Scene {
    let map = map_of(s);
    let mut items = Vec::new();
    map_items(s, map, &mut items);
    for m in &s.marines {
        if let Some(h) = m.on_map() {
            let c = super::rules::cell(map, h);
            let (p, w) = counter_on_hex(at(map, c));
            marine_counter(m, p, w, &mut items);
        }
    }
    for a in &s.aliens {
        if let Some(h) = a.on_map() {
            let c = super::rules::cell(map, h);
            let (p, w) = counter_on_hex(at(map, c));
            alien_counter(s, map, a, p, w, &mut items);
        }
    }
    let width = MARGIN * 2.0 + R * (1.5 * f32::from(map.cols - 1) + 2.0);
    let height = MARGIN * 2.0 + R * 3f32.sqrt() * (f32::from(map.rows) + 0.5);
    items.push(rect(
        "panel",
        ItemKind::Label,
        [width + PANEL / 2.0, height / 2.0],
        [PANEL - 10.0, height - 2.0 * MARGIN],
        Paint(6.0, Rgba::rgb(236, 230, 214), (1.0, INK)),
        None,
    ));
    // the panel background must sit under its contents
    let bg = items.pop();
    let start = items.len();
    panel(s, map, width, &mut items);
    if let Some(bg) = bg {
        items.insert(start, bg);
    }
    Scene {
        width: width + PANEL,
        height: height.max(620.0),
        background: Some(Rgba::rgb(48, 44, 40)),
        items,
    }
}
