//! A board as shapes in board coordinates: what the app paints and what an SVG
//! picture or a battle report shows. A game turns a state into a [`Scene`]; the
//! scene knows nothing of egui, so both faces draw the same board.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

/// An sRGB colour with alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self(r, g, b, 255)
    }
    pub const BLACK: Self = Self::rgb(0, 0, 0);
    pub const WHITE: Self = Self::rgb(255, 255, 255);
    pub const TRANSPARENT: Self = Self(0, 0, 0, 0);

    /// `attr="rgb(..)" attr-opacity=".."` for an SVG paint attribute.
    fn svg(self, attr: &str) -> String {
        format!(
            r#"{attr}="rgb({},{},{})" {attr}-opacity="{:.3}""#,
            self.0,
            self.1,
            self.2,
            f32::from(self.3) / 255.0
        )
    }
}

/// The geometry of one item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// A closed polygon (hexes).
    Polygon(Vec<[f32; 2]>),
    /// An axis-aligned rectangle with rounded corners (counters, markers).
    Rect {
        min: [f32; 2],
        max: [f32; 2],
        rounding: f32,
    },
    Circle {
        center: [f32; 2],
        radius: f32,
    },
    /// An open polyline (roads, lines of fire).
    Line(Vec<[f32; 2]>),
    /// Text centred on `pos`.
    Text {
        pos: [f32; 2],
        text: String,
        size: f32,
    },
}

impl Shape {
    /// A rectangle from its top-left corner and its size.
    pub fn rect(min: [f32; 2], size: [f32; 2], rounding: f32) -> Self {
        Shape::Rect {
            min,
            max: [min[0] + size[0], min[1] + size[1]],
            rounding,
        }
    }
}

/// Which kind of thing an item shows, so the app can hit-test and highlight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemKind {
    Terrain,
    Hex,
    Counter,
    Marker,
    Label,
    Highlight,
    LineOfFire,
}

/// One drawn thing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// A stable id the app can select by, e.g. `hex:A263` or `unit:M2`.
    pub id: String,
    pub kind: ItemKind,
    pub shape: Shape,
    pub fill: Rgba,
    /// Stroke width in board units and its colour; width 0 for none.
    pub stroke: (f32, Rgba),
    /// Shown on hover in the app and as `<title>` in SVG.
    pub tooltip: Option<String>,
    /// What the thing is called, for people ("Marine Squad MS1"): the app
    /// names a selection, a target or a search hit by it. `None`: the game
    /// gives no name (the app falls back to the id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Item {
    /// The item called `name` for people.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
}

/// A board at one moment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    pub width: f32,
    pub height: f32,
    pub background: Option<Rgba>,
    /// Drawn in order: later items on top.
    pub items: Vec<Item>,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn points(ps: &[[f32; 2]]) -> String {
    ps.iter()
        .map(|[x, y]| format!("{x:.1},{y:.1}"))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Scene {
    /// The first item (topmost last) whose id is `id`.
    pub fn find(&self, id: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.id == id)
    }

    /// The scene as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#,
            w = self.width,
            h = self.height
        );
        if let Some(bg) = self.background {
            let _ = writeln!(
                out,
                r#"<rect width="100%" height="100%" {}/>"#,
                bg.svg("fill")
            );
        }
        for item in &self.items {
            let fill = item.fill.svg("fill");
            let (sw, sc) = item.stroke;
            let stroke = if sw > 0.0 {
                format!(r#" {} stroke-width="{sw}""#, sc.svg("stroke"))
            } else {
                String::new()
            };
            let title = item
                .tooltip
                .as_ref()
                .map(|t| format!("<title>{}</title>", escape(t)))
                .unwrap_or_default();
            let body = match &item.shape {
                Shape::Polygon(ps) => {
                    format!(
                        r#"<polygon points="{}" {fill}{stroke}>{title}</polygon>"#,
                        points(ps)
                    )
                }
                Shape::Rect { min, max, rounding } => format!(
                    r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="{rounding}" {fill}{stroke}>{title}</rect>"#,
                    min[0],
                    min[1],
                    max[0] - min[0],
                    max[1] - min[1]
                ),
                Shape::Circle { center, radius } => format!(
                    r#"<circle cx="{:.1}" cy="{:.1}" r="{radius}" {fill}{stroke}>{title}</circle>"#,
                    center[0], center[1]
                ),
                Shape::Line(ps) => format!(
                    r#"<polyline points="{}" fill="none"{}>{title}</polyline>"#,
                    points(ps),
                    if sw > 0.0 {
                        stroke.clone()
                    } else {
                        format!(" {}", item.fill.svg("stroke"))
                    }
                ),
                Shape::Text { pos, text, size } => format!(
                    r#"<text x="{:.1}" y="{:.1}" font-size="{size}" text-anchor="middle" dominant-baseline="central" {fill}>{}</text>"#,
                    pos[0],
                    pos[1],
                    escape(text)
                ),
            };
            let _ = writeln!(out, r#"<g id="{}">{body}</g>"#, escape(&item.id));
        }
        out.push_str("</svg>\n");
        out
    }
}

/// Words broken into lines of at most `width` characters (a longer word
/// stands alone on its line), at most `lines` lines, the last cut with ".".
pub fn wrap(t: &str, width: usize, lines: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in t.split_whitespace() {
        match out.last_mut() {
            Some(l) if l.chars().count() + 1 + w.chars().count() <= width => {
                l.push(' ');
                l.push_str(w);
            }
            _ => out.push(w.to_owned()),
        }
    }
    if out.len() > lines {
        out.truncate(lines);
        if let Some(l) = out.last_mut() {
            l.push('.');
        }
    }
    for l in &mut out {
        if l.chars().count() > width + 1 {
            *l = l.chars().take(width).collect::<String>() + ".";
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_has_every_item_and_escapes_text() {
        let scene = Scene {
            width: 100.0,
            height: 50.0,
            background: Some(Rgba::WHITE),
            items: vec![
                Item {
                    id: "hex:A111".into(),
                    kind: ItemKind::Hex,
                    shape: Shape::Polygon(vec![[0.0, 0.0], [10.0, 0.0], [5.0, 8.0]]),
                    fill: Rgba::rgb(10, 200, 10),
                    stroke: (1.0, Rgba::BLACK),
                    tooltip: Some("Forest <2 MP>".into()),
                    name: None,
                },
                Item {
                    id: "label".into(),
                    kind: ItemKind::Label,
                    shape: Shape::Text {
                        pos: [5.0, 5.0],
                        text: "Kay'otz & co".into(),
                        size: 4.0,
                    },
                    fill: Rgba::BLACK,
                    stroke: (0.0, Rgba::BLACK),
                    tooltip: None,
                    name: None,
                },
            ],
        };
        let svg = scene.to_svg();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains(r#"id="hex:A111""#));
        assert!(svg.contains("Forest &lt;2 MP&gt;"));
        assert!(svg.contains("Kay'otz &amp; co"));
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}
