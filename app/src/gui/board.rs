//! The board: a game's [`Scene`] painted with egui, with zoom and pan, hover
//! tooltips, the selected unit's legal moves and targets highlighted, and
//! clicks turned into commands.
//!
//! Every counter and every highlighted target is also an accessible button
//! named after what clicking it does, so screen readers (and the UI tests)
//! can play from the board too.

use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Pos2, Rect, Response, Role, Sense, Stroke,
    StrokeKind, Vec2, WidgetInfo, pos2, vec2,
};
use xenolog_engine::scene::{Item, ItemKind, Rgba, Shape};
use xenolog_engine::{LegalCommand, Scene};

use super::boards::Mark;
use super::command::{AppCommand, Intent, PlayRequest};

/// Smallest and largest zoom, relative to the opening view.
pub const ZOOM_RANGE: (f32, f32) = (0.2, 8.0);
/// Text smaller than this on screen is not drawn (it would be unreadable),
/// except a counter's own label, which is drawn at least this size.
const MIN_TEXT_PX: f32 = 5.0;
/// The opening view shows hexes at least this wide, so counters and their
/// numbers can be read; a window too small for the whole map then shows part
/// of it (drag to pan, `0` to come back).
const READABLE_HEX_PX: f32 = 56.0;
/// A board of square tiles opens no smaller than this many points a board
/// unit, so its pieces and their writing can be read. The games draw a
/// piece's writing 9 to 19 units high for one point a unit; at 0.8:
/// - Night of the Saucers' buildings (100 units, each holding its name,
///   students, aliens and supplies) are 80 px (issue 28: at 1024x700 the
///   whole scene made them about 6 px, then 58);
/// - Alien's base tiles (40 units) are 32 px, a character's token 24 px and
///   an alien's 19 px, larger than a line of the app's text (17 px), and
///   their names and strengths 10 px (issue 28: at 1024x700 the whole scene
///   made the tiles about 24 px, the tokens no larger than a line of text
///   and their writing 7-8 px). In a window of 1360x860 or more the whole
///   Alien board fits larger than this and opens whole.
const SQUARE_TILE_SCALE: f32 = 0.8;
/// Square tiles narrower than this are not a board's squares.
const SMALLEST_TILE: f32 = 20.0;

/// How far down the view the camera buttons reach (their row's top margin
/// and height, and a gap).
const CAMERA_BUTTONS_PX: f32 = 40.0;

/// The narrowest a board tooltip gets (it moves away from the window's edge
/// rather than wrap each word).
pub const TOOLTIP_MIN_WIDTH: f32 = 240.0;

const SELECTED: Color32 = Color32::from_rgb(255, 200, 0);
const TARGET: Color32 = Color32::from_rgb(0, 190, 255);
const FOCUS: Color32 = Color32::from_rgb(230, 0, 200);
/// Targets only a command marked apart reaches (a jump, not a walk).
pub const APART: Color32 = Color32::from_rgb(150, 70, 255);

/// The moves of the entry at the cursor.
const TRAIL: Color32 = Color32::from_rgb(255, 120, 0);

/// What the marks the board draws over a scene mean, for the legend.
pub const MARKS: &[(Color32, &str)] = &[
    (
        TRAIL,
        "Orange arrow: a move made by the entry at the cursor (its path).",
    ),
    (SELECTED, "Yellow ring: the unit selected."),
    (
        TARGET,
        "Blue: where the selected unit may go or fire (dashed: its lines of fire).",
    ),
    (APART, "Violet: a hex only a jump gets to."),
    (
        FOCUS,
        "Magenta: what the step shown at the cursor is about.",
    ),
];

/// Where the board is looked at from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// 1.0 is the opening view: the map filling the view, its hexes at
    /// least [`READABLE_HEX_PX`] wide.
    pub zoom: f32,
    /// Offset of the map's centre from the view's centre, in points.
    pub pan: Vec2,
    /// Bring the units that can act into view on the next frame (a battle
    /// just opened).
    pub recentre: bool,
    /// Where the board was last drawn (to bring an item into view between
    /// frames); nothing before the first.
    pub last_view: Rect,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            zoom: 1.0,
            pan: Vec2::ZERO,
            recentre: false,
            last_view: Rect::NOTHING,
        }
    }
}

impl Camera {
    /// Zoom by `factor`, keeping the board point under `anchor` in place.
    pub fn zoom_at(&mut self, view: Rect, anchor: Pos2, factor: f32) {
        let old = self.zoom;
        let new = (old * factor).clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        let from_centre = anchor - view.center();
        self.pan = from_centre - (from_centre - self.pan) * (new / old);
        self.zoom = new;
    }

    /// Back to the whole board, centred.
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

/// Board units to screen points and back.
#[derive(Clone, Copy, Debug)]
pub struct Xform {
    origin: Pos2,
    scale: f32,
}

impl Xform {
    /// Board units as points, at the origin.
    const UNIT: Xform = Xform {
        origin: Pos2::ZERO,
        scale: 1.0,
    };

    /// The transform that shows `scene` in `view` as `camera` looks at it.
    pub fn new(scene: &Scene, view: Rect, camera: &Camera) -> Self {
        let (centre, base) = opening_view(scene, view);
        let scale = base * camera.zoom;
        let origin = view.center() + camera.pan - centre * scale;
        Self { origin, scale }
    }

    /// A board point on screen.
    pub fn to_screen(self, [x, y]: [f32; 2]) -> Pos2 {
        self.origin + vec2(x, y) * self.scale
    }

    /// A screen point on the board.
    pub fn to_board(self, p: Pos2) -> [f32; 2] {
        let v = (p - self.origin) / self.scale;
        [v.x, v.y]
    }

    /// Screen points per board unit.
    pub fn scale(self) -> f32 {
        self.scale
    }
}

/// The opening view of a scene in `view`: the board point at its centre and
/// the scale. The whole scene when it fits with hexes at least
/// [`READABLE_HEX_PX`] wide; else the map (its hexes) fills the view, the
/// hexes no smaller than that, and the scenario card and the off-map boxes
/// beside it are a drag or a zoom out away. A scene without hexes fits whole.
fn opening_view(scene: &Scene, view: Rect) -> (Vec2, f32) {
    let fit = |w: f32, h: f32| (view.width() / w.max(1.0)).min(view.height() / h.max(1.0));
    let Some((lo, hi, hex_w)) = map_extent(scene) else {
        // The camera buttons sit over the view's top edge: the scene opens
        // below them, so they hide none of it (issue 28: they covered a
        // group's name at the table's corner).
        let (w, h) = (scene.width, scene.height);
        let top = CAMERA_BUTTONS_PX.min(view.height() * 0.1);
        let scale = (view.width() / w.max(1.0))
            .min((view.height() - top) / h.max(1.0))
            .max(1e-3);
        // Square tiles too small whole: the tiles (and their edge letters)
        // fill the view, no smaller than readable, and what lies beside
        // them (Saucers' hands, Alien's track outside and task cards) is a
        // drag or a zoom out away, as Dimension X's scenario card is.
        if let Some((lo, hi, tile_w)) = square_tiles(scene)
            && scale < SQUARE_TILE_SCALE
        {
            let margin = tile_w * 0.35;
            let (tw, th) = (hi[0] - lo[0] + 2.0 * margin, hi[1] - lo[1] + 2.0 * margin);
            let s = (view.width() / tw)
                .min((view.height() - top) / th)
                .max(SQUARE_TILE_SCALE)
                .max(1e-3);
            // The map at the view's left edge, so as much as there is room
            // for of what lies to its right (the hands) shows beside it.
            let left = lo[0] - margin;
            // Taller than the view at the readable scale: its top edge kept
            // below the camera buttons and its bottom rows a drag away
            // (session 22: centred, it lost row 1 above the view and put
            // Saucers' "Missions completed" line under the buttons at
            // 1024x700).
            let y = if th * s > view.height() - top {
                lo[1] - margin - top / s + view.height() / 2.0 / s
            } else {
                (lo[1] + hi[1]) / 2.0 - top / 2.0 / s
            };
            return (vec2(left + view.width() / 2.0 / s, y), s);
        }
        return (vec2(w, h - top / scale) / 2.0, scale);
    };
    // The whole scene (the card and the boxes beside the map too) when it
    // fits with readable hexes.
    let whole = fit(scene.width, scene.height);
    if whole * hex_w >= READABLE_HEX_PX {
        return (vec2(scene.width, scene.height) / 2.0, whole);
    }
    let (w, h) = (hi[0] - lo[0], hi[1] - lo[1]);
    let scale = fit(w, h).max(READABLE_HEX_PX / hex_w).max(1e-3);
    (vec2(lo[0] + w / 2.0, lo[1] + h / 2.0), scale)
}

/// The corners of a board of square tiles (hex items drawn as squares,
/// nine or more, the narrowest at least [`SMALLEST_TILE`] board units wide)
/// and that width. The board's walls (terrain squares as wide, where
/// Alien writes its column letters and row numbers) count as the board.
pub(crate) fn square_tiles(scene: &Scene) -> Option<([f32; 2], [f32; 2], f32)> {
    let square = |i: &Item| match &i.shape {
        Shape::Rect { min, max, .. } if ((max[0] - min[0]) - (max[1] - min[1])).abs() < 0.5 => {
            Some((*min, *max))
        }
        _ => None,
    };
    let mut narrowest = f32::INFINITY;
    let mut n = 0;
    for item in scene.items.iter().filter(|i| i.kind == ItemKind::Hex) {
        if let Some((min, max)) = square(item) {
            narrowest = narrowest.min(max[0] - min[0]);
            n += 1;
        }
    }
    if n < 9 || narrowest < SMALLEST_TILE {
        return None;
    }
    let mut lo = [f32::INFINITY; 2];
    let mut hi = [f32::NEG_INFINITY; 2];
    for item in scene
        .items
        .iter()
        .filter(|i| matches!(i.kind, ItemKind::Hex | ItemKind::Terrain))
    {
        if let Some((min, max)) = square(item)
            && (item.kind == ItemKind::Hex || (max[0] - min[0] - narrowest).abs() < 0.5)
        {
            lo = [lo[0].min(min[0]), lo[1].min(min[1])];
            hi = [hi[0].max(max[0]), hi[1].max(max[1])];
        }
    }
    Some((lo, hi, narrowest))
}

/// The map's corners in board units and the widest hex, from the hexes.
fn map_extent(scene: &Scene) -> Option<([f32; 2], [f32; 2], f32)> {
    let mut lo = [f32::INFINITY; 2];
    let mut hi = [f32::NEG_INFINITY; 2];
    let mut hex_w = 0.0f32;
    for item in scene.items.iter().filter(|i| i.kind == ItemKind::Hex) {
        if let Shape::Polygon(ps) = &item.shape {
            let (mut a, mut b) = (f32::INFINITY, f32::NEG_INFINITY);
            for p in ps {
                lo = [lo[0].min(p[0]), lo[1].min(p[1])];
                hi = [hi[0].max(p[0]), hi[1].max(p[1])];
                a = a.min(p[0]);
                b = b.max(p[0]);
            }
            hex_w = hex_w.max(b - a);
        }
    }
    (hex_w > 0.0).then_some((lo, hi, hex_w))
}

/// A scene colour as egui's.
pub fn color(c: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied(c.0, c.1, c.2, c.3)
}

/// The item's bounding box on screen.
pub fn screen_rect(item: &Item, x: &Xform) -> Rect {
    // Board-space box first (no allocation: this runs for every item, every frame).
    let (min, max) = match &item.shape {
        Shape::Polygon(ps) | Shape::Line(ps) => ps.iter().fold(
            ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]),
            |(lo, hi), p| {
                (
                    [lo[0].min(p[0]), lo[1].min(p[1])],
                    [hi[0].max(p[0]), hi[1].max(p[1])],
                )
            },
        ),
        Shape::Rect { min, max, .. } => (*min, *max),
        Shape::Circle { center, radius } => (
            [center[0] - radius, center[1] - radius],
            [center[0] + radius, center[1] + radius],
        ),
        Shape::Text { pos, size, text } => {
            let half = size * text.chars().count() as f32 * 0.3;
            (
                [pos[0] - half, pos[1] - size / 2.0],
                [pos[0] + half, pos[1] + size / 2.0],
            )
        }
    };
    if min[0] > max[0] {
        return Rect::NOTHING;
    }
    Rect::from_two_pos(x.to_screen(min), x.to_screen(max))
}

/// Whether a board point lies inside a polygon (even-odd rule).
pub fn in_polygon(ps: &[[f32; 2]], [px, py]: [f32; 2]) -> bool {
    let mut inside = false;
    let n = ps.len();
    for i in 0..n {
        let [xi, yi] = ps[i];
        let [xj, yj] = ps[(i + n - 1) % n];
        if (yi > py) != (yj > py) && px < (xj - xi) * (py - yi) / (yj - yi) + xi {
            inside = !inside;
        }
    }
    inside
}

/// Whether a board point lies on an item (lines: within `slack` board units).
pub fn contains(item: &Item, [px, py]: [f32; 2], slack: f32) -> bool {
    match &item.shape {
        Shape::Polygon(ps) => in_polygon(ps, [px, py]),
        Shape::Rect { min, max, .. } => {
            px >= min[0] && px <= max[0] && py >= min[1] && py <= max[1]
        }
        Shape::Circle { center, radius } => {
            (px - center[0]).powi(2) + (py - center[1]).powi(2) <= radius * radius
        }
        Shape::Line(ps) => ps.windows(2).any(|w| {
            let a = Vec2::new(w[0][0], w[0][1]);
            let b = Vec2::new(w[1][0], w[1][1]);
            let p = Vec2::new(px, py);
            let ab = b - a;
            let t = ((p - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
            (a + ab * t - p).length() <= slack
        }),
        Shape::Text { .. } => false,
    }
}

/// Items a click can land on, topmost first.
fn hits(scene: &Scene, at: [f32; 2], slack: f32) -> impl Iterator<Item = &Item> {
    scene
        .items
        .iter()
        .rev()
        .filter(|i| !matches!(i.kind, ItemKind::Label | ItemKind::Highlight))
        .filter(move |i| contains(i, at, slack))
}

/// The commands that go with the selection: those of the selected subject,
/// and those with no subject at all.
pub fn active<'c>(
    legal: &'c [LegalCommand],
    selected: Option<&'c str>,
) -> impl Iterator<Item = &'c LegalCommand> {
    legal.iter().filter(move |c| {
        c.subject.is_none() || (c.subject.as_deref() == selected && selected.is_some())
    })
}

/// The smallest area a click on a piece lands in, on the screen (points):
/// 24 by 24, WCAG 2.2's minimum target size (success criterion 2.5.8,
/// "Target Size (Minimum)", 24 by 24 CSS pixels). The touch sizes of Apple
/// (44) and Material (48) would cover a piece's neighbours on every board at
/// 1024x700 (Alien Invasion figures in a group stand 8 px apart, Night of the
/// Saucers' students in a crowded tile 15 px). Issue 28 measured the smallest
/// pieces at 1024x700: an Alien Invasion figure 8 px, a Saucers student 14 px,
/// an Alien token 19 px; each now takes a click within 12 px of its centre.
pub const MIN_TARGET_PX: f32 = 24.0;

/// Whether an item is a piece a click acts on: a counter (selected, or
/// aimed at), or any item that is a target of the selection's commands.
/// Markers (a manhole, an item on the floor, a seat's panel) keep the area
/// they are drawn with.
fn actable(item: &Item, targets: &[&str]) -> bool {
    !matches!(item.shape, Shape::Line(_) | Shape::Text { .. })
        && (item.kind == ItemKind::Counter || targets.contains(&item.id.as_str()))
}

/// How far screen point `p` is from the centre of `item`, when it lies in the
/// item's hit area grown to [`MIN_TARGET_PX`] (a disc for a round piece, a
/// box for the rest; an item already that large keeps its own shape's box).
pub fn near_piece(item: &Item, x: &Xform, p: Pos2) -> Option<f32> {
    let r = screen_rect(item, x);
    if !r.is_finite() || r.is_negative() {
        return None;
    }
    let c = r.center();
    let d = c.distance(p);
    let half = MIN_TARGET_PX / 2.0;
    let inside = match &item.shape {
        Shape::Circle { radius, .. } => d <= (radius * x.scale()).max(half),
        _ => r
            .expand2(vec2(
                (half - r.width() / 2.0).max(0.0),
                (half - r.height() / 2.0).max(0.0),
            ))
            .contains(p),
    };
    inside.then_some(d)
}

/// The piece a click at screen point `p` lands on by its grown hit area (see
/// [`MIN_TARGET_PX`]): of the actable pieces whose area holds the point, the
/// one whose centre is nearest (the topmost of equals).
pub fn nearest_piece<'s>(
    scene: &'s Scene,
    targets: &[&str],
    x: &Xform,
    p: Pos2,
) -> Option<&'s Item> {
    scene
        .items
        .iter()
        .rev()
        .filter(|i| actable(i, targets))
        .filter_map(|i| near_piece(i, x, p).map(|d| (d, i)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, i)| i)
}

/// Whether a command a click made acts (plays, or asks which of several to
/// play), as against selecting or explaining.
fn acts(cmd: &AppCommand) -> bool {
    matches!(cmd, AppCommand::Give(_) | AppCommand::Choose(_))
}

/// What clicking at a board point does.
pub fn click_at(
    scene: &Scene,
    legal: &[LegalCommand],
    selected: Option<&str>,
    at: [f32; 2],
    slack: f32,
) -> Option<AppCommand> {
    let items: Vec<&Item> = hits(scene, at, slack).collect();
    click_on(&items, legal, selected)
}

/// What a click on these items (topmost first) does.
fn click_on(items: &[&Item], legal: &[LegalCommand], selected: Option<&str>) -> Option<AppCommand> {
    // A highlighted target under the pointer wins: that is the move or shot.
    for item in items {
        let cmds: Vec<&LegalCommand> = active(legal, selected)
            .filter(|c| c.target.as_deref() == Some(item.id.as_str()))
            .collect();
        match cmds.as_slice() {
            [] => {}
            [one] => return Some(AppCommand::Give(PlayRequest::new(Intent::from(*one)))),
            many => {
                return Some(AppCommand::Choose(
                    many.iter().map(|c| Intent::from(*c)).collect(),
                ));
            }
        }
    }
    if let Some(item) = items
        .iter()
        .find(|i| matches!(i.kind, ItemKind::Counter | ItemKind::Marker))
    {
        return Some(AppCommand::Select(Some(item.id.clone())));
    }
    if let Some(item) = items.iter().find(|i| i.kind == ItemKind::Hex) {
        return Some(AppCommand::Select(Some(item.id.clone())));
    }
    Some(AppCommand::Select(None))
}

/// The name of an item for people: the name its game gives it ("HQ
/// HQ1"), else its tooltip's first line up to a colon, or its id.
pub fn item_name(item: &Item) -> String {
    if let Some(name) = item.name.as_deref().filter(|n| !n.is_empty()) {
        return name.to_owned();
    }
    item.tooltip
        .as_deref()
        .and_then(|t| t.lines().next())
        .map(|l| l.split_once(": ").map_or(l, |(name, _)| name).trim())
        .filter(|l| !l.is_empty())
        .map_or_else(|| item.id.clone(), str::to_owned)
}

/// Scene text with every character our fonts cannot draw replaced by a
/// look-alike (a game may use any symbol; egui bundles few fonts).
fn drawable<'t>(
    painter: &egui::Painter,
    font: &FontId,
    text: &'t str,
) -> std::borrow::Cow<'t, str> {
    if painter.fonts_mut(|f| f.has_glyphs(font, text)) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if painter.fonts_mut(|f| f.has_glyph(font, c)) {
                return c;
            }
            match c {
                '✓' | '✔' | '☑' => '√',
                '✗' | '✘' | '✖' | '☒' => '×',
                _ => '□',
            }
        })
        .collect::<String>()
        .into()
}

fn paint_item(painter: &egui::Painter, item: &Item, x: &Xform) {
    let fill = color(item.fill);
    let (sw, sc) = item.stroke;
    let stroke = if sw > 0.0 {
        Stroke::new((sw * x.scale()).max(0.5), color(sc))
    } else {
        Stroke::NONE
    };
    match &item.shape {
        Shape::Polygon(ps) => {
            let pts = ps.iter().map(|&p| x.to_screen(p)).collect();
            painter.add(egui::Shape::convex_polygon(pts, fill, stroke));
        }
        Shape::Rect { min, max, rounding } => {
            let r = Rect::from_two_pos(x.to_screen(*min), x.to_screen(*max));
            let radius = CornerRadius::same((rounding * x.scale()).clamp(0.0, 255.0) as u8);
            painter.rect(r, radius, fill, stroke, StrokeKind::Inside);
        }
        Shape::Circle { center, radius } => {
            painter.circle(x.to_screen(*center), radius * x.scale(), fill, stroke);
        }
        Shape::Line(ps) => {
            let line = if sw > 0.0 {
                stroke
            } else {
                Stroke::new(x.scale().max(1.0), fill)
            };
            let pts: Vec<Pos2> = ps.iter().map(|&p| x.to_screen(p)).collect();
            if item.kind == ItemKind::LineOfFire && pts.len() >= 2 {
                let (a, b) = (pts[pts.len() - 2], pts[pts.len() - 1]);
                let dir = (b - a).normalized();
                let head = (line.width * 4.0).max(6.0);
                let side = vec2(-dir.y, dir.x) * head * 0.5;
                painter.add(egui::Shape::convex_polygon(
                    vec![b, b - dir * head + side, b - dir * head - side],
                    line.color,
                    Stroke::NONE,
                ));
            }
            painter.add(egui::Shape::line(pts, line));
        }
        Shape::Text { pos, text, size } => {
            let mut px = (size * x.scale()).round();
            // A counter's label is never dropped.
            if matches!(item.kind, ItemKind::Counter | ItemKind::Marker) {
                px = px.max(MIN_TEXT_PX);
            }
            if px >= MIN_TEXT_PX {
                let font = FontId::proportional(px);
                painter.text(
                    x.to_screen(*pos),
                    Align2::CENTER_CENTER,
                    drawable(painter, &font, text),
                    font,
                    fill,
                );
            }
        }
    }
}

/// The scene's free-standing names (a text label whose id no other item
/// has: an Alien Invasion group's name, a Saucers student's), by index; not
/// the writing on a counter, a card or a tile, which shares its piece's id.
fn free_names(scene: &Scene) -> Vec<usize> {
    let mut ids: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for i in &scene.items {
        *ids.entry(i.id.as_str()).or_default() += 1;
    }
    scene
        .items
        .iter()
        .enumerate()
        .filter(|(_, i)| {
            i.kind == ItemKind::Label
                && matches!(i.shape, Shape::Text { .. })
                && ids.get(i.id.as_str()) == Some(&1)
        })
        .map(|(n, _)| n)
        .collect()
}

/// Where a name of screen rectangle `want` is drawn: there if it covers no
/// figure (`figures`) and no name drawn before it (`placed`), else at the
/// nearest spot a little above, below or beside it that covers none, inside
/// `bounds`; there after all if there is none. The scene places its names
/// by an estimate of their width; on the screen, in the app's font, at a
/// small scale, a name ran across figures and markers (session 21: Alien
/// Invasion's "Mite Swarm Two" across the sewer holes, "Agents L and M"
/// across the tokens of the group beside).
pub fn clear_spot(want: Rect, figures: &[Rect], placed: &[Rect], bounds: Rect) -> Rect {
    let clear = |r: &Rect| {
        bounds.contains_rect(*r)
            && !figures.iter().any(|f| f.shrink(1.0).intersects(*r))
            && !placed.iter().any(|p| p.intersects(*r))
    };
    let (w, h) = (want.width(), want.height());
    let mut tries = vec![vec2(0.0, 0.0)];
    for k in 1..=5 {
        let k = k as f32;
        tries.extend([
            vec2(0.0, -0.6 * k * h),
            vec2(0.0, 0.6 * k * h),
            vec2(-0.35 * k * w, 0.0),
            vec2(0.35 * k * w, 0.0),
            vec2(-0.35 * k * w, -0.6 * k * h),
            vec2(0.35 * k * w, 0.6 * k * h),
            vec2(0.35 * k * w, -0.6 * k * h),
            vec2(-0.35 * k * w, 0.6 * k * h),
        ]);
    }
    tries
        .into_iter()
        .map(|d| want.translate(d))
        .find(clear)
        .unwrap_or(want)
}

/// The free-standing names (`free`, indices into the scene), drawn over
/// everything else at a clear spot ([`clear_spot`]) measured in the font
/// they are drawn in; where each went is kept for the tests
/// ([`drawn_names`]).
fn names_ui(
    ui: &egui::Ui,
    painter: &egui::Painter,
    scene: &Scene,
    free: &[usize],
    x: &Xform,
    view: Rect,
) {
    // What a name must not cover: the figures and markers, no larger than
    // a few lines of text (a group's outline, a card or a tile is not one).
    let pieces: Vec<Rect> = scene
        .items
        .iter()
        .filter(|i| matches!(i.kind, ItemKind::Counter | ItemKind::Marker))
        .map(|i| screen_rect(i, x))
        .filter(|r| view.intersects(*r))
        .collect();
    let figures: Vec<Rect> = pieces
        .iter()
        .copied()
        .filter(|r| r.width().max(r.height()) <= NAME_AVOIDS_PX)
        .collect();
    let bounds = Rect::from_two_pos(
        x.to_screen([0.0, 0.0]),
        x.to_screen([scene.width, scene.height]),
    );
    let mut placed: Vec<Rect> = Vec::new();
    let mut drawn: Vec<(String, Rect)> = Vec::new();
    for &n in free {
        let item = &scene.items[n];
        let Shape::Text { pos, text, size } = &item.shape else {
            continue;
        };
        let px = (size * x.scale()).round();
        if px < MIN_TEXT_PX {
            continue;
        }
        let font = FontId::proportional(px);
        let galley = painter.layout_no_wrap(
            drawable(painter, &font, text).into_owned(),
            font,
            color(item.fill),
        );
        let want = Rect::from_center_size(x.to_screen(*pos), galley.size());
        if !view.intersects(want) {
            continue;
        }
        // Writing that lies wholly on a piece is the piece's (a Saucers
        // student's letters on its disc): it stays there.
        let on_a_piece = pieces.iter().any(|p| p.expand(1.0).contains_rect(want));
        let at = if on_a_piece {
            want
        } else {
            clear_spot(want, &figures, &placed, bounds)
        };
        placed.push(at);
        painter.galley(at.min, galley, color(item.fill));
        drawn.push((item.id.clone(), at));
    }
    ui.data_mut(|d| d.insert_temp(egui::Id::unique(DRAWN_NAMES), drawn));
}

/// The largest figure or marker (on the screen, its longer side) a name is
/// kept off.
const NAME_AVOIDS_PX: f32 = 40.0;
const DRAWN_NAMES: &str = "xenolog-board-drawn-names";

/// The free-standing names the board drew last, each with the rectangle it
/// took on the screen.
pub fn drawn_names(ctx: &egui::Context) -> Vec<(String, Rect)> {
    ctx.data(|d| d.get_temp(egui::Id::unique(DRAWN_NAMES)))
        .unwrap_or_default()
}

/// Whether a board point is within `slack` of the segment from `a` to `b`.
fn contains_line(a: [f32; 2], b: [f32; 2], p: [f32; 2], slack: f32) -> bool {
    let (a, b, p) = (Vec2::from(a), Vec2::from(b), Vec2::from(p));
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
    (a + ab * t - p).length() <= slack
}

/// Paint a game's mark: an area as a fan from its centre (it need not be
/// convex), a line solid or dashed.
fn paint_mark(painter: &egui::Painter, mark: &Mark, x: &Xform) {
    match mark {
        Mark::Area {
            centre,
            outline,
            fill,
            stroke,
            ..
        } => {
            if outline.len() < 3 {
                return;
            }
            let c = x.to_screen(*centre);
            let pts: Vec<Pos2> = outline.iter().map(|&p| x.to_screen(p)).collect();
            let mut mesh = egui::Mesh::default();
            let fill = color(*fill);
            mesh.colored_vertex(c, fill);
            for p in &pts {
                mesh.colored_vertex(*p, fill);
            }
            let n = pts.len() as u32;
            for i in 0..n {
                mesh.add_triangle(0, 1 + i, 1 + (i + 1) % n);
            }
            painter.add(egui::Shape::mesh(mesh));
            painter.add(egui::Shape::closed_line(
                pts,
                Stroke::new(2.0, color(*stroke)),
            ));
        }
        Mark::Line {
            from,
            to,
            colour,
            dashed,
            ..
        } => {
            let (a, b) = (x.to_screen(*from), x.to_screen(*to));
            let stroke = Stroke::new(2.5, color(*colour));
            if *dashed {
                let thin = Stroke::new(1.5, color(*colour));
                painter.extend(egui::Shape::dashed_line(&[a, b], thin, 7.0, 5.0));
            } else {
                painter.line_segment([a, b], Stroke::new(4.5, Color32::from_black_alpha(90)));
                painter.line_segment([a, b], stroke);
            }
        }
    }
}

/// Outline an item (selection, target, hover).
fn ring(painter: &egui::Painter, item: &Item, x: &Xform, stroke: Stroke, fill: Color32) {
    match &item.shape {
        Shape::Polygon(ps) => {
            let pts = ps.iter().map(|&p| x.to_screen(p)).collect();
            painter.add(egui::Shape::convex_polygon(pts, fill, stroke));
        }
        Shape::Circle { center, radius } => {
            painter.circle(x.to_screen(*center), radius * x.scale(), fill, stroke);
        }
        _ => {
            let r = screen_rect(item, x).expand(2.0);
            painter.rect(r, CornerRadius::same(3), fill, stroke, StrokeKind::Outside);
        }
    }
}

/// What the board shows: the scene at the cursor, the legal commands, the
/// selection, the items of the step shown, and why the selected unit cannot
/// use an item (`why_not`, asked of the game's board UI).
pub struct BoardInput<'a> {
    pub scene: &'a Scene,
    pub legal: &'a [LegalCommand],
    pub selected: Option<&'a str>,
    pub focus: &'a [String],
    pub why_not: &'a dyn Fn(&str) -> Option<String>,
    /// Whether a command's target is marked apart (a jump-only hex).
    pub marked_apart: &'a dyn Fn(&LegalCommand) -> bool,
    /// The game's name for a target that takes several commands (see
    /// `BoardUi::target_label`; `None`: [`target_words`]' generic words).
    pub target_label: &'a dyn Fn(&[&LegalCommand]) -> Option<String>,
    /// The moves the entry at the cursor made: scene ids along each path.
    pub trails: &'a [Vec<String>],
    /// The line-of-sight tool, when it is on.
    pub los: Option<&'a LosState>,
    /// The game's marks for the selection (a move range, lines of sight).
    pub marks: &'a [Mark],
    /// The game's own reading of a click: the ids under the pointer
    /// (topmost first) and the board point (see `BoardUi::click`).
    pub click: &'a BoardClick<'a>,
    /// Whether dragging the selected item moves it (see `BoardUi::drags`).
    pub drags: bool,
}

/// A game's reading of a click on the board: the ids under the pointer
/// (topmost first) and the board point.
pub type BoardClick<'a> = dyn Fn(&[&str], [f32; 2]) -> Option<AppCommand> + 'a;

/// Board input with nothing of a game's own: no marks, clicks read by the
/// generic board, no dragging.
pub const NO_MARKS: &[Mark] = &[];

/// The generic reading of every click.
pub fn no_click(_: &[&str], _: [f32; 2]) -> Option<AppCommand> {
    None
}

/// The line-of-sight tool: two hexes picked on the board, the line between
/// their centres and the hexes it crosses.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LosState {
    pub from: Option<String>,
    pub to: Option<String>,
    /// What the line crosses (scene ids) and what that means, in words.
    pub crossed: Vec<String>,
    pub words: Vec<String>,
}

const LOS: Color32 = Color32::from_rgb(255, 255, 255);

/// Pan so the units that can act now are in view (their middle near the
/// view's centre), when the opening view does not show them all.
fn recentre(scene: &Scene, legal: &[LegalCommand], view: Rect, camera: &mut Camera) {
    let x = Xform::new(scene, view, camera);
    // The units that can act, in the order of their first command (the
    // game lists the side asked first), each once.
    let mut acting: Vec<Rect> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for c in legal {
        let Some(id) = c.subject.as_deref() else {
            continue;
        };
        if !seen.insert(id) {
            continue;
        }
        if let Some(i) = scene
            .items
            .iter()
            .find(|i| i.id == id && matches!(i.kind, ItemKind::Counter))
        {
            acting.push(screen_rect(i, &x));
        }
    }
    let Some(first) = acting.first() else { return };
    // As many of them as the view holds, from the first: all of them when
    // they fit, else those nearest the first (a new Dimension X battle's
    // Marines waiting at the map edge, not the middle of the map between
    // them and the Kay'otz).
    let mut all = *first;
    for r in &acting[1..] {
        let with = all.union(*r);
        if with.width() <= view.width() - 16.0 && with.height() <= view.height() - 16.0 {
            all = with;
        }
    }
    if view.shrink(8.0).contains_rect(all) {
        return;
    }
    camera.pan += view.center() - all.center();
    let all = all.translate(view.center() - all.center());
    // No empty band beside a map larger than the view: its edge stays at
    // the view's edge, as far as the units that can act stay in view (issue
    // 28: the clamp pushed a new battle's Marines, waiting in the box beyond
    // the map's edge, back out of sight).
    let keep = view.shrink(8.0);
    let within = |shift: f32, lo: f32, hi: f32| {
        if lo <= hi { shift.clamp(lo, hi) } else { 0.0 }
    };
    // (a board of square tiles: with the margin its opening view gives it)
    let extent = map_extent(scene).or_else(|| {
        square_tiles(scene).map(|(lo, hi, tile_w)| {
            let m = tile_w * 0.35;
            ([lo[0] - m, lo[1] - m], [hi[0] + m, hi[1] + m], tile_w)
        })
    });
    // A map that fits the view in a direction is brought wholly into view
    // in it, by the least shift (a new Dimension X battle at 1360x860 opened
    // with a band of 150 px above the map and its bottom rows cut off).
    let edge = |v_lo: f32, v_hi: f32, m_lo: f32, m_hi: f32| {
        if m_hi - m_lo > v_hi - v_lo {
            (v_lo - m_lo).min(0.0).max(v_hi - m_hi)
        } else {
            0.0f32.clamp(v_lo - m_lo, v_hi - m_hi)
        }
    };
    if let Some((lo, hi, _)) = extent {
        let x = Xform::new(scene, view, camera);
        let map = Rect::from_two_pos(x.to_screen(lo), x.to_screen(hi));
        let shift = edge(view.left(), view.right(), map.left(), map.right());
        camera.pan.x += within(shift, keep.left() - all.left(), keep.right() - all.right());
        let shift = edge(view.top(), view.bottom(), map.top(), map.bottom());
        camera.pan.y += within(shift, keep.top() - all.top(), keep.bottom() - all.bottom());
    }
}

/// Pan the board, as last drawn, so the item `id` is in view (a unit chosen
/// from a list); nothing when it is in view already or not drawn.
pub fn bring_into_view(scene: &Scene, id: &str, camera: &mut Camera) {
    show_item(scene, id, camera, false);
}

/// Pan the board so the item `id` is at its centre (the C key).
pub fn centre_on(scene: &Scene, id: &str, camera: &mut Camera) {
    show_item(scene, id, camera, true);
}

fn show_item(scene: &Scene, id: &str, camera: &mut Camera, centre: bool) {
    let view = camera.last_view;
    if !view.is_positive() {
        return;
    }
    let x = Xform::new(scene, view, camera);
    let Some(item) = scene
        .items
        .iter()
        .find(|i| i.id == id && matches!(i.kind, ItemKind::Counter | ItemKind::Marker))
    else {
        return;
    };
    let r = screen_rect(item, &x);
    if !centre && view.shrink(8.0).contains_rect(r) {
        return;
    }
    camera.pan += view.center() - r.center();
}

/// The accessible name of a board target: its one command's words, else the
/// game's name for the lot (`label`), else the first command's words and how
/// many there are.
pub fn target_words(
    cmds: &[&LegalCommand],
    label: &dyn Fn(&[&LegalCommand]) -> Option<String>,
) -> String {
    match cmds {
        [one] => one.text.clone(),
        many => label(many).unwrap_or_else(|| format!("{} ({} choices)", many[0].text, many.len())),
    }
}

/// Draw the board and turn clicks into commands.
pub fn board_ui(
    ui: &mut egui::Ui,
    input: &BoardInput<'_>,
    camera: &mut Camera,
    commands: &mut Vec<AppCommand>,
) -> Response {
    let BoardInput {
        scene,
        legal,
        selected,
        focus,
        why_not,
        marked_apart,
        target_label,
        trails,
        los,
        marks,
        click,
        drags,
    } = *input;
    let (view, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    camera.last_view = view;
    response.widget_info(|| {
        WidgetInfo::labeled(Role::Image, true, "Board (drag to pan, scroll to zoom)")
    });
    let painter = ui.painter_at(view);
    let bg = scene
        .background
        .map(color)
        .unwrap_or(ui.visuals().extreme_bg_color);
    painter.rect_filled(view, CornerRadius::ZERO, ui.visuals().extreme_bg_color);

    // Dragging the selected item (when the game moves it so) is a move to
    // where it is dropped; any other drag pans.
    let drag_id = ui.scope_id().with("board-drag-selected");
    let x0 = Xform::new(scene, view, camera);
    if response.drag_started()
        && drags
        && let (Some(sel), Some(p)) = (
            selected,
            ui.input(|i| i.pointer.press_origin())
                .or(response.interact_pointer_pos()),
        )
    {
        let at = x0.to_board(p);
        // On it: on its drawn shape, or in its hit area grown to
        // `MIN_TARGET_PX` (a one-figure group is 8 px at 1024x700).
        let on_it = scene
            .items
            .iter()
            .filter(|i| i.id == sel)
            .any(|i| contains(i, at, 3.0 / x0.scale()) || near_piece(i, &x0, p).is_some());
        ui.data_mut(|d| d.insert_temp(drag_id, on_it));
    }
    let moving = ui.data(|d| d.get_temp::<bool>(drag_id)).unwrap_or(false);
    let mut dropped_at: Option<Pos2> = None;
    if moving {
        if response.drag_stopped() {
            ui.data_mut(|d| d.remove::<bool>(drag_id));
            dropped_at = response
                .interact_pointer_pos()
                .or_else(|| ui.input(|i| i.pointer.latest_pos()));
        }
    } else if response.dragged() {
        camera.pan += response.drag_delta();
    }
    if let Some(hover) = response.hover_pos() {
        let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = pinch * (scroll * 0.0015).exp();
        if (factor - 1.0).abs() > 1e-4 {
            camera.zoom_at(view, hover, factor);
        }
    }
    if camera.recentre {
        camera.recentre = false;
        recentre(scene, legal, view, camera);
    }
    let x = Xform::new(scene, view, camera);
    painter.rect_filled(
        Rect::from_two_pos(
            x.to_screen([0.0, 0.0]),
            x.to_screen([scene.width, scene.height]),
        ),
        CornerRadius::ZERO,
        bg,
    );
    let free = free_names(scene);
    for (i, item) in scene.items.iter().enumerate() {
        if !free.contains(&i) && view.intersects(screen_rect(item, &x)) {
            paint_item(&painter, item, &x);
        }
    }
    names_ui(ui, &painter, scene, &free, &x, view);

    // The game's marks for the selection: move ranges, lines of sight.
    for m in marks {
        paint_mark(&painter, m, &x);
    }
    if moving
        && let (Some(sel), Some(p)) = (selected, response.hover_pos())
        && let Some(item) = scene.find(sel)
    {
        {
            let from = screen_rect(item, &x).center();
            painter.extend(egui::Shape::dashed_line(
                &[from, p],
                Stroke::new(2.5, SELECTED),
                8.0,
                5.0,
            ));
            painter.circle_stroke(p, 6.0, Stroke::new(2.5, SELECTED));
        }
    }

    // Highlights: the selection, and where its commands can go.
    let targets: Vec<(&str, &LegalCommand)> = active(legal, selected)
        .filter_map(|c| c.target.as_deref().map(|t| (t, c)))
        .collect();
    let target_fill = TARGET.linear_multiply(0.18);
    let apart_fill = APART.linear_multiply(0.14);
    let mut ringed = std::collections::HashSet::new();
    for (target, _) in &targets {
        if !ringed.insert(*target) {
            continue;
        }
        if let Some(item) = scene.find(target) {
            // A hex only a jump reaches looks apart from one a walk reaches.
            let apart = targets
                .iter()
                .filter(|(t, _)| t == target)
                .all(|(_, c)| marked_apart(c));
            if apart {
                ring(&painter, item, &x, Stroke::new(2.0, APART), apart_fill);
            } else {
                ring(&painter, item, &x, Stroke::new(3.0, TARGET), target_fill);
            }
        }
    }
    if let Some(item) = selected.and_then(|s| scene.find(s)) {
        ring(
            &painter,
            item,
            &x,
            Stroke::new(3.0, SELECTED),
            Color32::TRANSPARENT,
        );
        // Lines of fire from the selected unit to every unit it may target.
        let from = screen_rect(item, &x).center();
        for (target, _) in &targets {
            if let Some(t) = scene.find(target)
                && matches!(t.kind, ItemKind::Counter | ItemKind::Marker)
            {
                let to = screen_rect(t, &x).center();
                painter.extend(egui::Shape::dashed_line(
                    &[from, to],
                    Stroke::new(2.0, TARGET),
                    8.0,
                    5.0,
                ));
            }
        }
    }

    // The moves of the entry at the cursor, as arrows along their paths.
    for trail in trails {
        let pts: Vec<Pos2> = trail
            .iter()
            .filter_map(|id| scene.find(id))
            .map(|i| screen_rect(i, &x).center())
            .collect();
        if let [.., a, b] = pts.as_slice() {
            let stroke = Stroke::new(4.0, TRAIL);
            painter.add(egui::Shape::line(pts.clone(), stroke));
            for p in &pts[..pts.len() - 1] {
                painter.circle_filled(*p, 4.0, TRAIL);
            }
            let dir = (*b - *a).normalized();
            let side = vec2(-dir.y, dir.x) * 7.0;
            let tip = *b - dir * 6.0;
            painter.add(egui::Shape::convex_polygon(
                vec![
                    tip + dir * 6.0,
                    tip - dir * 10.0 + side,
                    tip - dir * 10.0 - side,
                ],
                TRAIL,
                Stroke::NONE,
            ));
        }
    }

    // The line of sight being measured.
    if let Some(l) = los {
        let centre = |id: &Option<String>| {
            id.as_deref()
                .and_then(|i| scene.find(i))
                .map(|i| screen_rect(i, &x).center())
        };
        for id in &l.crossed {
            if let Some(item) = scene.find(id) {
                ring(
                    &painter,
                    item,
                    &x,
                    Stroke::new(2.5, TRAIL),
                    Color32::TRANSPARENT,
                );
            }
        }
        for end in [&l.from, &l.to] {
            if let Some(item) = end.as_deref().and_then(|i| scene.find(i)) {
                ring(
                    &painter,
                    item,
                    &x,
                    Stroke::new(3.0, LOS),
                    Color32::TRANSPARENT,
                );
            }
        }
        if let (Some(a), Some(b)) = (centre(&l.from), centre(&l.to)) {
            painter.line_segment([a, b], Stroke::new(5.0, Color32::BLACK));
            painter.line_segment([a, b], Stroke::new(2.5, LOS));
        }
    }

    // What the step shown in the side panel is about.
    for id in focus {
        if let Some(item) = scene.find(id) {
            ring(
                &painter,
                item,
                &x,
                Stroke::new(3.5, FOCUS),
                FOCUS.linear_multiply(0.15),
            );
        }
    }

    // A click acts where the button went down, not where the pointer is at
    // the end of the frame: a press, a release and a move can arrive in one
    // frame (a slow frame, a quick hand), and the pointer's latest position
    // is then somewhere else on the board.
    let press_at = press_position(ui);
    // Accessible buttons for counters and targets; a click resolves by place.
    let slack = 3.0 / x.scale();
    let mut clicked_at: Option<Pos2> = None;
    // Several items draw one counter (its body, its numbers, its markers)
    // under one id: one button per id, on its first (main) item.
    let mut seen = std::collections::HashSet::new();
    for item in &scene.items {
        if !seen.insert(item.id.as_str()) {
            continue;
        }
        let target_cmds: Vec<&LegalCommand> = targets
            .iter()
            .filter(|(t, _)| *t == item.id)
            .map(|(_, c)| *c)
            .collect();
        let is_counter = matches!(item.kind, ItemKind::Counter | ItemKind::Marker);
        if target_cmds.is_empty() && !is_counter {
            continue;
        }
        let rect = screen_rect(item, &x).intersect(view);
        if rect.width() < 2.0 || rect.height() < 2.0 {
            continue;
        }
        let label = if target_cmds.is_empty() {
            item_name(item)
        } else {
            target_words(&target_cmds, target_label)
        };
        let r = ui.interact(
            rect,
            ui.scope_id().with(("board-item", &item.id)),
            Sense::click(),
        );
        let is_selected = selected == Some(item.id.as_str());
        r.widget_info(|| WidgetInfo::selected(Role::Button, true, is_selected, &label));
        if r.clicked() {
            clicked_at = Some(
                press_at
                    .or(r.interact_pointer_pos())
                    .unwrap_or(rect.center()),
            );
        }
        if r.hovered() {
            ring(
                &painter,
                item,
                &x,
                Stroke::new(1.5, ui.visuals().strong_text_color()),
                Color32::TRANSPARENT,
            );
        }
    }
    if response.clicked() {
        clicked_at = press_at.or(response.interact_pointer_pos());
    }
    // Why the selected unit cannot use what is under the pointer (a unit or
    // a hex that is not lit up), in the rule's words.
    let refused_on = |under: &[&Item]| -> Option<String> {
        let sel = selected?;
        if under
            .iter()
            .any(|i| targets.iter().any(|(t, _)| *t == i.id))
        {
            return None;
        }
        let item = under
            .iter()
            .find(|i| matches!(i.kind, ItemKind::Counter | ItemKind::Marker) && i.id != sel)
            .or_else(|| under.iter().find(|i| i.kind == ItemKind::Hex))?;
        why_not(&item.id).map(|why| format!("{}: {why}", item_name(item)))
    };
    let refused_at = |p: Pos2| -> Option<String> {
        let under: Vec<&Item> = hits(scene, x.to_board(p), slack).collect();
        refused_on(&under)
    };
    // What a click at screen point `p` does, `first` taken as the topmost
    // piece there: the game's own reading, else the generic board's (a
    // target of the selection, else selecting), with why the selection
    // cannot use what was clicked.
    let resolve = |p: Pos2, first: Option<&Item>| -> Vec<AppCommand> {
        let at = x.to_board(p);
        let mut under: Vec<&Item> = first.into_iter().collect();
        under.extend(hits(scene, at, slack).filter(|i| first.is_none_or(|f| !std::ptr::eq(*i, f))));
        let ids: Vec<&str> = under.iter().map(|i| i.id.as_str()).collect();
        if let Some(cmd) = click(&ids, at) {
            return vec![cmd];
        }
        let mut out = Vec::new();
        if let Some(cmd) = click_on(&under, legal, selected) {
            if let Some(why) = refused_on(&under) {
                out.push(AppCommand::Explain(format!("Not possible: {why}")));
            }
            out.push(cmd);
        }
        out
    };
    let target_ids: Vec<&str> = targets.iter().map(|(t, _)| *t).collect();
    if let Some(p) = clicked_at
        && los.is_some()
    {
        // The tool picks hexes; nothing is played.
        if let Some(hex) = hits(scene, x.to_board(p), slack).find(|i| i.kind == ItemKind::Hex) {
            commands.push(AppCommand::LosPick(hex.id.clone()));
        }
    } else if let Some(p) = clicked_at {
        // Issue 28, click targets a finger-and-mouse user can hit: a click
        // decides in this order (see `MIN_TARGET_PX`):
        // 1. what it does where it was pressed, when that acts: the
        //    selection's move, charge or shot to that point (a legal end
        //    point next to an enemy figure moves into contact), a target
        //    clicked;
        // 2. as today on a piece's own drawn shape (a click on a student
        //    selects it, though its tile is lit);
        // 3. else the piece nearest the point whose grown hit area holds it,
        //    as if clicked at its centre;
        // 4. else what it does where it was pressed (selecting the hex,
        //    clearing the selection, why the move cannot go there).
        let here = resolve(p, None);
        let on_piece = hits(scene, x.to_board(p), slack).any(|i| actable(i, &target_ids));
        let chosen = if here.iter().any(acts) || on_piece {
            here
        } else if let Some(piece) = nearest_piece(scene, &target_ids, &x, p) {
            resolve(screen_rect(piece, &x).center(), Some(piece))
        } else {
            here
        };
        commands.extend(chosen);
    } else if let Some(p) = dropped_at {
        // A drop is a move to where it was dropped, nothing else.
        let at = x.to_board(p);
        let under: Vec<&str> = hits(scene, at, slack).map(|i| i.id.as_str()).collect();
        if let Some(cmd) = click(&under, at) {
            commands.push(cmd);
        }
    }

    // Tooltip of whatever is under the pointer.
    let hover = ui
        .input(|i| i.pointer.hover_pos())
        .filter(|p| view.contains(*p));
    if let Some(p) = hover
        && !ui.ctx().is_being_dragged(response.id)
    {
        let mut under: Vec<&Item> = hits(scene, x.to_board(p), slack).collect();
        // Nothing selected and the pointer in a small piece's grown hit
        // area, on no piece: a click selects that piece (see
        // `MIN_TARGET_PX`), so its hit area is ringed and its tooltip shown. (With a
        // selection the click may move there instead: nothing is ringed.)
        if selected.is_none()
            && !under.iter().any(|i| actable(i, &target_ids))
            && let Some(piece) = nearest_piece(scene, &target_ids, &x, p)
        {
            let r = screen_rect(piece, &x);
            painter.circle_stroke(
                r.center(),
                (r.width().max(r.height()) / 2.0).max(MIN_TARGET_PX / 2.0),
                Stroke::new(1.5, ui.visuals().strong_text_color()),
            );
            under.insert(0, piece);
        }
        let orders: Vec<&str> = under
            .iter()
            .flat_map(|i| targets.iter().filter(move |(t, _)| *t == i.id))
            .map(|(_, c)| c.text.as_str())
            .collect();
        let at = x.to_board(p);
        let mark_tip = marks.iter().rev().find_map(|m| match m {
            Mark::Line { from, to, tip, .. }
                if contains_line(*from, *to, at, 4.0 / x.scale()) && !tip.is_empty() =>
            {
                Some(tip.clone())
            }
            _ => None,
        });
        let tip = mark_tip.or_else(|| under.iter().find_map(|i| i.tooltip.clone()));
        let refused = refused_at(p);
        if tip.is_some() || !orders.is_empty() || refused.is_some() {
            response.clone().on_hover_ui_at_pointer(|ui| {
                // The tooltip's area keeps the size of the last one shown
                // (egui issue 5167): a long text after a short one wrapped
                // a word a line. It may take the style's tooltip width and
                // takes at least a sensible one.
                ui.set_max_width(ui.spacing().tooltip_width);
                ui.set_min_width(TOOLTIP_MIN_WIDTH);
                for o in &orders {
                    ui.strong(format!("Click: {o}"));
                }
                if let Some(why) = &refused {
                    ui.colored_label(ui.visuals().warn_fg_color, format!("Not possible: {why}"));
                }
                if let Some(t) = &tip {
                    ui.label(t);
                }
                // The counter or card under the pointer, large enough to
                // read when it is small on the board.
                if let Some(item) = under
                    .iter()
                    .find(|i| matches!(i.kind, ItemKind::Counter | ItemKind::Marker))
                {
                    magnified_ui(ui, scene, &item.id, Some(x.scale()));
                }
            });
        }
    }

    let row = camera_buttons_row(scene, view);
    camera_buttons_ui(ui, view, row, camera);
    // The line-of-sight tool, left of the zoom buttons.
    let r = Rect::from_min_size(
        pos2(view.right() - 8.0 - 4.0 * 28.0 - 12.0 - 8.0, row),
        vec2(28.0, 28.0),
    );
    let label = if los.is_some() {
        "Close the line-of-sight tool"
    } else {
        "Line of sight: pick two hexes"
    };
    let b = ui
        .put(r, egui::Button::selectable(los.is_some(), "📏"))
        .on_hover_text(label);
    b.widget_info(|| WidgetInfo::labeled(Role::Button, true, label));
    if b.clicked() {
        commands.push(AppCommand::LineOfSight(los.is_none()));
    }
    response
}

/// The drawn size of a magnified counter or card (its longer side), and the
/// size on the board under which it is magnified on hover.
const MAGNIFIED_PX: f32 = 150.0;
const MAGNIFY_UNDER_PX: f32 = 90.0;

/// The mouse-over viewer (VASSAL's habit, issue 28): every item drawn under
/// `id` (a counter's body, its numbers, its marks: the items of that id, those
/// whose id is `id:` and more, as Alien draws a token's writing, and the
/// labels drawn on it right after it), painted large in a tooltip. On the board (`on_board`: its scale there)
/// only when it is small there; from the log, always.
pub fn magnified_ui(ui: &mut egui::Ui, scene: &Scene, id: &str, on_board: Option<f32>) {
    let unit = Xform::UNIT;
    let part_of = |i: &Item| {
        i.id == id
            || i.id
                .strip_prefix(id)
                .is_some_and(|rest| rest.starts_with(':'))
    };
    let mut parts: Vec<&Item> = scene.items.iter().filter(|i| part_of(i)).collect();
    let Some(bounds) = parts
        .iter()
        .filter(|i| matches!(i.kind, ItemKind::Counter | ItemKind::Marker))
        .map(|i| screen_rect(i, &unit))
        .reduce(Rect::union)
    else {
        return;
    };
    // And the writing drawn on it under ids of its own (a Saucers card's
    // name lines and range grid): the labels drawn right after it, up to the
    // next piece, that lie on it.
    if let Some(first) = scene.items.iter().position(|i| i.id == id) {
        for i in scene.items[first + 1..]
            .iter()
            .take_while(|i| i.kind == ItemKind::Label || part_of(i))
        {
            if !part_of(i) && bounds.contains(screen_rect(i, &unit).center()) {
                parts.push(i);
            }
        }
        parts.sort_by_key(|p| {
            scene
                .items
                .iter()
                .position(|i| std::ptr::eq(i, *p))
                .unwrap_or(usize::MAX)
        });
    }
    let longer = bounds.width().max(bounds.height());
    if longer <= 0.0 || on_board.is_some_and(|scale| longer * scale >= MAGNIFY_UNDER_PX) {
        return;
    }
    ui.add_space(4.0);
    paint_parts(ui, &parts, bounds, id, MAGNIFIED_PX, Sense::hover());
}

/// The parts of a piece (as [`magnified_ui`] gathers them, `bounds` their
/// extent in board units) painted with their longer side `px` wide, named
/// "NAME, large" for a screen reader and the tests; the response senses
/// `sense`.
fn paint_parts(
    ui: &mut egui::Ui,
    parts: &[&Item],
    bounds: Rect,
    id: &str,
    px: f32,
    sense: Sense,
) -> Response {
    let k = px / bounds.width().max(bounds.height()).max(1e-3);
    let (rect, response) = ui.allocate_exact_size(bounds.size() * k, sense);
    let name = parts
        .iter()
        .find(|i| i.id == id)
        .map_or_else(|| id.to_owned(), |i| item_name(i));
    response.widget_info(|| WidgetInfo::labeled(Role::Image, true, format!("{name}, large")));
    let zoomed = Xform {
        origin: rect.min - bounds.min.to_vec2() * k,
        scale: k,
    };
    let painter = ui.painter_at(rect.expand(4.0));
    for part in parts {
        paint_item(&painter, part, &zoomed);
    }
    response
}

/// A counter of the scene (the items of id `id`) drawn in a panel with its
/// longer side `px` wide, to click: a piece drawn small on the board (a
/// Dimension X Marine waiting in the scenario card) read at a glance.
/// `None` when the scene draws no such counter.
pub fn counter_ui(ui: &mut egui::Ui, scene: &Scene, id: &str, px: f32) -> Option<Response> {
    let parts: Vec<&Item> = scene.items.iter().filter(|i| i.id == id).collect();
    let bounds = parts
        .iter()
        .filter(|i| matches!(i.kind, ItemKind::Counter | ItemKind::Marker))
        .map(|i| screen_rect(i, &Xform::UNIT))
        .reduce(Rect::union)?;
    Some(paint_parts(ui, &parts, bounds, id, px, Sense::click()))
}

/// The counters and cards on the board that an entry's words name (its
/// command first, then what happened), each once, in the order they are
/// first named: by their names on the board ([`item_name`]), whole words,
/// in any case ("alien 3" in an event names the token "alien 3", "Alien 3"
/// in a command too); of names that overlap the longer wins ("Alien 12" is
/// not "Alien 1").
pub fn items_named_in<'s>(scene: &'s Scene, words: &[&str]) -> Vec<&'s Item> {
    // Each name once (pieces of one name look alike: two Slingshot cards),
    // with its short form too: "Ace (Fly Boyz)" is "Ace" in the log.
    let mut named: Vec<(String, &Item)> = Vec::new();
    for item in scene
        .items
        .iter()
        .filter(|i| matches!(i.kind, ItemKind::Counter | ItemKind::Marker))
    {
        let name = item_name(item).to_lowercase();
        if name.is_empty() || name == item.id.to_lowercase() {
            continue;
        }
        let short = name
            .strip_suffix(')')
            .and_then(|n| n.rsplit_once(" ("))
            .map(|(n, _)| n.to_owned());
        for n in std::iter::once(name).chain(short) {
            if !named.iter().any(|(m, _)| *m == n) {
                named.push((n, item));
            }
        }
    }
    named.sort_by_key(|(n, _)| std::cmp::Reverse(n.len()));
    let mut found: Vec<&Item> = Vec::new();
    for text in words {
        let text = text.to_lowercase();
        // Where in the text each piece is named; a name inside a longer
        // one already found there does not count.
        let mut hits: Vec<(usize, &Item)> = Vec::new();
        let mut taken: Vec<std::ops::Range<usize>> = Vec::new();
        for (name, item) in &named {
            for (at, _) in text.match_indices(name.as_str()) {
                let end = at + name.len();
                let whole = !text[..at]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric)
                    && !text[end..]
                        .chars()
                        .next()
                        .is_some_and(char::is_alphanumeric);
                if whole && !taken.iter().any(|r| r.start < end && at < r.end) {
                    taken.push(at..end);
                    hits.push((at, item));
                }
            }
        }
        hits.sort_by_key(|(at, _)| *at);
        for (_, item) in hits {
            if !found.iter().any(|f| f.id == item.id) {
                found.push(item);
            }
        }
    }
    found
}

/// Where the primary button last went down: a press this frame (the last
/// one, should several arrive in one frame), else the press still held, else
/// the one remembered from an earlier frame (a click released now was
/// pressed then). Kept in the context's memory between frames.
/// A click (a release) comes in the frame it ends, so `None` in a frame
/// without a release: a click made otherwise (by a screen reader) is at the
/// widget.
fn press_position(ui: &egui::Ui) -> Option<Pos2> {
    let key = egui::Id::unique("xenolog-board-press");
    let (this_frame, held, released) = ui.input(|i| {
        let mut pressed = None;
        let mut released = false;
        for e in &i.events {
            if let egui::Event::PointerButton {
                pos,
                button: egui::PointerButton::Primary,
                pressed: down,
                ..
            } = e
            {
                if *down {
                    pressed = Some(*pos);
                } else {
                    released = true;
                }
            }
        }
        (pressed, i.pointer.press_origin(), released)
    });
    let at = this_frame.or_else(|| ui.data(|d| d.get_temp::<Pos2>(key)));
    match held {
        Some(p) => {
            ui.data_mut(|d| d.insert_temp(key, p));
        }
        None => ui.data_mut(|d| d.remove::<Pos2>(key)),
    }
    if released { at } else { None }
}

/// The top of the row of camera buttons in `view`: in its top right corner
/// (a row stays in the margin the opening view leaves above a board of
/// tiles, where a column would cover its edge); on a map of hexes, in its
/// bottom right corner: the map fills the view to its top edge, and the
/// Dimension X scenario card's title beside it was under the buttons
/// (session 21), where its foot is empty.
fn camera_buttons_row(scene: &Scene, view: Rect) -> f32 {
    if map_extent(scene).is_some() {
        view.bottom() - 8.0 - 28.0
    } else {
        view.top() + 8.0
    }
}

/// Zoom buttons in a row at the right of the board, their top at `row`.
fn camera_buttons_ui(ui: &mut egui::Ui, view: Rect, row: f32, camera: &mut Camera) {
    let size = vec2(28.0, 28.0);
    let mut at = pos2(view.right() - 8.0 - 3.0 * size.x - 8.0, row);
    for (label, icon, factor) in [
        ("Zoom in", "+", Some(1.25)),
        ("Zoom out", "−", Some(0.8)),
        ("Back to the opening view", "⊡", None),
    ] {
        let r = Rect::from_min_size(at, size);
        let b = ui.put(r, egui::Button::new(icon)).on_hover_text(label);
        b.widget_info(|| WidgetInfo::labeled(Role::Button, true, label));
        if b.clicked() {
            match factor {
                Some(f) => camera.zoom_at(view, view.center(), f),
                None => camera.reset(),
            }
        }
        at.x += size.x + 4.0;
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use xenolog_engine::Actor;

    use super::*;

    fn item(id: &str, kind: ItemKind, shape: Shape) -> Item {
        Item {
            id: id.into(),
            kind,
            shape,
            fill: Rgba::WHITE,
            stroke: (0.0, Rgba::BLACK),
            tooltip: Some(format!("{id} tip")),
            name: None,
        }
    }

    fn hex(id: &str, cx: f32) -> Item {
        let pts = (0..6)
            .map(|k| {
                let a = std::f32::consts::FRAC_PI_3 * k as f32;
                [cx + 10.0 * a.cos(), 10.0 + 10.0 * a.sin()]
            })
            .collect();
        item(id, ItemKind::Hex, Shape::Polygon(pts))
    }

    fn scene() -> Scene {
        Scene {
            width: 60.0,
            height: 20.0,
            background: None,
            items: vec![
                hex("hex:1", 10.0),
                hex("hex:2", 30.0),
                hex("hex:3", 50.0),
                item(
                    "unit:A",
                    ItemKind::Counter,
                    Shape::Rect {
                        min: [5.0, 5.0],
                        max: [15.0, 15.0],
                        rounding: 1.0,
                    },
                ),
                item(
                    "unit:B",
                    ItemKind::Counter,
                    Shape::Rect {
                        min: [45.0, 5.0],
                        max: [55.0, 15.0],
                        rounding: 1.0,
                    },
                ),
            ],
        }
    }

    fn cmd(text: &str, subject: Option<&str>, target: Option<&str>) -> LegalCommand {
        LegalCommand {
            actor: Actor(0),
            command: json!(text),
            text: text.into(),
            subject: subject.map(Into::into),
            target: target.map(Into::into),
        }
    }

    fn named(id: &str, tip: &str) -> Item {
        Item {
            tooltip: Some(tip.into()),
            ..item(
                id,
                ItemKind::Counter,
                Shape::Circle {
                    center: [0.0, 0.0],
                    radius: 5.0,
                },
            )
        }
    }

    /// Issue 28, hover a log entry: the pieces an entry names are found by
    /// their names on the board, whole words in any case, the longer name
    /// first ("alien 12" is not "alien 1"), a name's short form without
    /// its bracket, each piece once, in the order named.
    #[test]
    fn an_entry_names_the_pieces_whose_names_it_says() {
        let s = Scene {
            width: 10.0,
            height: 10.0,
            background: None,
            items: vec![
                named("alien:1", "alien 1: strength 4"),
                named("alien:12", "alien 12: strength 2"),
                named("char:ace", "Ace (Fly Boyz): 3 hits"),
                named("char:hicks", "Hicks: strength 5/5"),
                named("card:0", "Slingshot"),
                named("card:1", "Slingshot"),
            ],
        };
        let ids = |words: &[&str]| -> Vec<String> {
            items_named_in(&s, words)
                .into_iter()
                .map(|i| i.id.clone())
                .collect()
        };
        assert_eq!(ids(&["Alien 12 moves to L13"]), ["alien:12"]);
        assert_eq!(
            ids(&["Hicks fires at alien 1", "alien 1 is hit; Hicks waits"]),
            ["char:hicks", "alien:1"]
        );
        assert_eq!(ids(&["Ace plays a Slingshot"]), ["char:ace", "card:0"]);
        assert_eq!(ids(&["Ace (Fly Boyz) rests"]), ["char:ace"]);
        // Whole words only: "Hicksville", "alien 10" name no piece.
        assert!(ids(&["Hicksville", "alien 10 hatches"]).is_empty());
    }

    /// Issue 28: a board of square tiles opens readable: Alien's base
    /// (40-unit tiles, walls around) at least 32 px a tile, Saucers' (100
    /// units) at least 80 px; whole when that is larger.
    #[test]
    fn a_board_of_square_tiles_opens_readable() {
        let board = |tile: f32, n: usize, wall: bool| -> Scene {
            let mut items = Vec::new();
            for y in 0..n {
                for x in 0..n {
                    let min = [x as f32 * tile, y as f32 * tile];
                    let edge = x == 0 || y == 0;
                    let kind = if wall && edge {
                        ItemKind::Terrain
                    } else {
                        ItemKind::Hex
                    };
                    items.push(item(
                        &format!("t{x}-{y}"),
                        kind,
                        Shape::Rect {
                            min,
                            max: [min[0] + tile, min[1] + tile],
                            rounding: 0.0,
                        },
                    ));
                }
            }
            // A long box beside the board (Alien's track outside).
            let side = n as f32 * tile;
            items.push(item(
                "track",
                ItemKind::Hex,
                Shape::Rect {
                    min: [side + 10.0, 0.0],
                    max: [side + 130.0, 36.0],
                    rounding: 0.0,
                },
            ));
            Scene {
                width: side + 150.0,
                height: side,
                background: None,
                items,
            }
        };
        let alien = board(40.0, 16, true);
        let (lo, hi, w) = square_tiles(&alien).expect("square tiles");
        assert_eq!(
            (lo, hi, w),
            ([0.0, 0.0], [640.0, 640.0], 40.0),
            "walls count"
        );
        let view = Rect::from_min_size(Pos2::ZERO, vec2(760.0, 490.0));
        let (_, scale) = opening_view(&alien, view);
        assert!(
            scale * 40.0 >= 32.0 - 1e-3,
            "an Alien tile opens {} px",
            scale * 40.0
        );
        let big = Rect::from_min_size(Pos2::ZERO, vec2(2000.0, 1400.0));
        let (_, scale) = opening_view(&alien, big);
        assert!(scale > 1.5, "whole and larger in a big view: {scale}");
        let saucers = board(100.0, 5, false);
        let (_, scale) = opening_view(&saucers, view);
        assert!(
            scale * 100.0 >= 80.0 - 1e-3,
            "a Saucers tile opens {} px",
            scale * 100.0
        );
        // Small squares are no board's tiles (they open whole).
        assert!(square_tiles(&board(10.0, 16, false)).is_none());
    }

    #[test]
    fn clicking_a_unit_selects_it_and_an_empty_hex_selects_the_hex() {
        let s = scene();
        assert_eq!(
            click_at(&s, &[], None, [10.0, 10.0], 0.1),
            Some(AppCommand::Select(Some("unit:A".into())))
        );
        assert_eq!(
            click_at(&s, &[], None, [30.0, 10.0], 0.1),
            Some(AppCommand::Select(Some("hex:2".into())))
        );
        assert_eq!(
            click_at(&s, &[], None, [30.0, 19.9], 0.1),
            Some(AppCommand::Select(None))
        );
    }

    #[test]
    fn a_target_of_the_selected_unit_wins_over_selecting() {
        let s = scene();
        let legal = vec![
            cmd("move A to 2", Some("unit:A"), Some("hex:2")),
            cmd("fire A at B", Some("unit:A"), Some("unit:B")),
            cmd("move B to 2", Some("unit:B"), Some("hex:2")),
        ];
        let give = |t: &str| {
            let c = legal.iter().find(|c| c.text == t).unwrap();
            Some(AppCommand::Give(PlayRequest::new(Intent::from(c))))
        };
        assert_eq!(
            click_at(&s, &legal, Some("unit:A"), [30.0, 10.0], 0.1),
            give("move A to 2")
        );
        assert_eq!(
            click_at(&s, &legal, Some("unit:A"), [50.0, 10.0], 0.1),
            give("fire A at B")
        );
        // With B selected, clicking A selects A (A is not B's target).
        assert_eq!(
            click_at(&s, &legal, Some("unit:B"), [10.0, 10.0], 0.1),
            Some(AppCommand::Select(Some("unit:A".into())))
        );
    }

    #[test]
    fn two_commands_on_one_target_ask_which() {
        let s = scene();
        let legal = vec![
            cmd("fire A at B", Some("unit:A"), Some("unit:B")),
            cmd("assault B", Some("unit:A"), Some("unit:B")),
        ];
        match click_at(&s, &legal, Some("unit:A"), [50.0, 10.0], 0.1) {
            Some(AppCommand::Choose(options)) => assert_eq!(options.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    /// Issue 28, click targets: a piece smaller than `MIN_TARGET_PX` on the
    /// screen takes clicks within 12 px of its centre; a larger one keeps its
    /// own area; where grown areas overlap, the nearest centre wins.
    #[test]
    fn a_small_piece_takes_clicks_within_12_px_of_its_centre_and_the_nearest_centre_wins() {
        let disc = |id: &str, cx: f32| {
            item(
                id,
                ItemKind::Counter,
                Shape::Circle {
                    center: [cx, 10.0],
                    radius: 5.0,
                },
            )
        };
        let s = Scene {
            width: 100.0,
            height: 20.0,
            background: None,
            items: vec![
                hex("hex:1", 10.0),
                disc("model:a", 20.0),
                disc("model:b", 35.0),
                // A marker keeps the area it is drawn with.
                item(
                    "manhole:0",
                    ItemKind::Marker,
                    Shape::Circle {
                        center: [80.0, 10.0],
                        radius: 5.0,
                    },
                ),
            ],
        };
        // One board unit is 0.8 px: each disc is 8 px across, as an Alien
        // Invasion figure at 1024x700.
        let x = Xform {
            origin: pos2(0.0, 0.0),
            scale: 0.8,
        };
        let at = |bx: f32, dx: f32| x.to_screen([bx, 10.0]) + vec2(dx, 0.0);
        let near = |p| nearest_piece(&s, &[], &x, p).map(|i| i.id.as_str());
        // 4 px off is on the disc; 8 and 11 px off only in its grown area.
        for dx in [4.0, -8.0, -11.0] {
            assert_eq!(near(at(20.0, dx)), Some("model:a"), "{dx} px off");
        }
        for dy in [8.0, 11.5] {
            assert_eq!(near(at(20.0, 0.0) + vec2(0.0, dy)), Some("model:a"));
        }
        assert_eq!(near(at(20.0, -12.5)), None, "12.5 px off is outside");
        // The discs' centres are 12 px apart: between them the nearer wins.
        assert_eq!(near(at(20.0, 5.0)), Some("model:a"));
        assert_eq!(near(at(20.0, 7.0)), Some("model:b"));
        assert_eq!(near(at(80.0, 8.0)), None, "a marker is not grown");
        // A target of the selection is grown, whatever its kind.
        assert_eq!(
            nearest_piece(&s, &["manhole:0"], &x, at(80.0, 8.0)).map(|i| i.id.as_str()),
            Some("manhole:0")
        );
        // Large enough on the screen: only its own area.
        let big = Xform {
            origin: pos2(0.0, 0.0),
            scale: 4.0,
        };
        let p = big.to_screen([20.0, 10.0]) + vec2(21.0, 0.0);
        assert_eq!(near_piece(&s.items[1], &big, p), None, "40 px across");
        let p = big.to_screen([20.0, 10.0]) + vec2(19.0, 0.0);
        assert!(near_piece(&s.items[1], &big, p).is_some());
    }

    #[test]
    fn zooming_keeps_the_point_under_the_pointer() {
        let s = scene();
        let view = Rect::from_min_size(pos2(0.0, 0.0), vec2(600.0, 200.0));
        let mut cam = Camera::default();
        let anchor = pos2(123.0, 77.0);
        let before = Xform::new(&s, view, &cam).to_board(anchor);
        cam.zoom_at(view, anchor, 2.0);
        let after = Xform::new(&s, view, &cam).to_board(anchor);
        assert!((before[0] - after[0]).abs() < 1e-3 && (before[1] - after[1]).abs() < 1e-3);
        cam.zoom_at(view, anchor, 1000.0);
        assert_eq!(cam.zoom, ZOOM_RANGE.1);
    }

    #[test]
    fn points_on_lines_of_fire_are_hit_within_the_slack() {
        let l = item(
            "lof",
            ItemKind::LineOfFire,
            Shape::Line(vec![[0.0, 0.0], [10.0, 0.0]]),
        );
        assert!(contains(&l, [5.0, 0.5], 1.0));
        assert!(!contains(&l, [5.0, 2.0], 1.0));
    }
}
