//! The table: measuring moves, lines of sight and contact with the `geo` crate.
//!
//! Pure functions over a [`Scenario`] (terrain polygons, linear barriers, the
//! table's size) and figure positions. Positions stay integers (hundredths of
//! an inch); the geometry is done in `f64` with `geo` (segment against polygon
//! edges with [`line_intersection`], inside tests with [`Contains`] and
//! [`Intersects`], distances with [`Euclidean`], group areas with
//! [`ConvexHull`]) and every point handed back is rounded to the nearest
//! hundredth (`f64::round`). Only `+ - * /` and `sqrt` (correctly rounded in
//! IEEE 754) and geo's robust predicates are used on the way to a game state,
//! so the results are the same on every machine; only [`reach_outline`], a
//! drawing aid, uses `sin`/`cos`.
//!
//! Assumptions, where the text leaves it to "common sense":
//! - figures stand on 1" round bases ([`BASE`]); two figures are in base
//!   contact when their centres are at most [`BASE`] + [`CONTACT_TOLERANCE`]
//!   (1.1") apart;
//! - a move that enters a terrain feature stops [`STOP_INSIDE`] (0.25") inside
//!   its edge, one that crosses a linear barrier [`STOP_PAST`] (0.5") past it;
//! - a point on the edge of a feature is in the feature; where features
//!   overlap, [`feature_at`] names the first in the scenario's list.

use std::cell::OnceCell;

use geo::line_intersection::{LineIntersection, line_intersection};
use geo::{
    BoundingRect, Contains, ConvexHull, Coord, Distance, Euclidean, Geometry, Intersects, Line,
    LineString, MultiPoint, Polygon, Rect,
};

use super::model::{Cover, INCH, Mobility, Point, Scenario, Terrain};

/// The diameter of a figure's base: 1" (25 mm bases for 28 mm figures).
pub const BASE: i32 = INCH;
/// Slack on base-to-base contact: centres up to 1.1" apart touch.
pub const CONTACT_TOLERANCE: i32 = 10;
/// How far inside a terrain feature a move that enters it ends: 0.25".
pub const STOP_INSIDE: i32 = 25;
/// How far past a linear barrier a move that crosses it ends: 0.5".
pub const STOP_PAST: i32 = 50;
/// A jump clears soft going less than this across: 8".
pub const JUMP: i32 = 8 * INCH;
/// The spacing of the figures [`place_next_to`] sets out: 1.1" centre to
/// centre (bases 0.1" apart).
pub const SPACING: i32 = 110;
/// How many rays [`reach_outline`] casts (one every 5 degrees).
pub const RAYS: usize = 72;

/// Rings of positions [`place_next_to`] tries around the lead (10 rings: 330
/// positions, out to 11").
const RINGS: i32 = 10;
/// Lengths (hundredths) below this are taken as zero.
const EPS: f64 = 1e-6;

// ---------------------------------------------------------------- helpers

fn coord(p: Point) -> Coord<f64> {
    Coord {
        x: f64::from(p.x),
        y: f64::from(p.y),
    }
}

fn geo_point(p: Point) -> geo::Point<f64> {
    geo::Point(coord(p))
}

/// Rounds to the nearest hundredth (halves away from zero).
fn round_point(c: Coord<f64>) -> Point {
    Point::new(c.x.round() as i32, c.y.round() as i32)
}

fn length(a: Coord<f64>, b: Coord<f64>) -> f64 {
    let d = b - a;
    (d.x * d.x + d.y * d.y).sqrt()
}

/// A terrain feature's outline as a geo polygon (`None` for fewer than three points).
fn polygon(t: &Terrain) -> Option<Polygon<f64>> {
    (t.outline.len() >= 3).then(|| {
        Polygon::new(
            LineString::from(t.outline.iter().map(|&p| coord(p)).collect::<Vec<_>>()),
            vec![],
        )
    })
}

/// Whether two boxes are more than `gap` apart along an axis: then nothing
/// in one is within `gap` of anything in the other (a quick test before
/// geo's exact one).
fn apart(a: Rect<f64>, b: Rect<f64>, gap: f64) -> bool {
    a.max().x + gap < b.min().x
        || b.max().x + gap < a.min().x
        || a.max().y + gap < b.min().y
        || b.max().y + gap < a.min().y
}

/// In inches for messages: `950` is `9.5"`, `825` is `8.25"`.
pub fn inches(h: i32) -> String {
    let sign = if h < 0 { "-" } else { "" };
    let (whole, frac) = (h.unsigned_abs() / 100, h.unsigned_abs() % 100);
    if frac == 0 {
        format!("{sign}{whole}\"")
    } else if frac % 10 == 0 {
        format!("{sign}{whole}.{}\"", frac / 10)
    } else {
        format!("{sign}{whole}.{frac:02}\"")
    }
}

/// A straight segment `a`→`b` measured from `a`: its length and unit direction.
#[derive(Clone, Copy)]
struct Ray {
    a: Coord<f64>,
    b: Coord<f64>,
    len: f64,
    dir: Coord<f64>,
}

impl Ray {
    fn new(a: Coord<f64>, b: Coord<f64>) -> Self {
        let len = length(a, b);
        let dir = if len > EPS {
            (b - a) / len
        } else {
            Coord { x: 0.0, y: 0.0 }
        };
        Self { a, b, len, dir }
    }

    fn line(&self) -> Line<f64> {
        Line::new(self.a, self.b)
    }

    /// How far along the ray the point `c` (on it) is.
    fn along(&self, c: Coord<f64>) -> f64 {
        let d = c - self.a;
        (d.x * self.dir.x + d.y * self.dir.y).clamp(0.0, self.len)
    }

    fn at(&self, t: f64) -> Coord<f64> {
        self.a + self.dir * t
    }

    /// The point `t` along, rounded; the exact end when `t` reaches it.
    fn point(&self, t: f64, end: Point) -> Point {
        if t >= self.len - EPS {
            end
        } else {
            round_point(self.at(t.max(0.0)))
        }
    }

    /// The stretches of the ray inside the polygon's interior, as distances
    /// from `a`, in order: the ray is cut where geo's `line_intersection`
    /// meets an edge and each piece is tested at its middle with `Contains`
    /// (so running along an edge or touching a corner is not inside).
    fn inside(&self, poly: &Polygon<f64>) -> Vec<(f64, f64)> {
        if self.len <= EPS {
            return Vec::new();
        }
        let mut cuts = vec![0.0, self.len];
        self.cut(poly, &mut cuts);
        cuts.sort_by(f64::total_cmp);
        cuts.dedup_by(|x, y| (*x - *y).abs() < EPS);
        let mut out: Vec<(f64, f64)> = Vec::new();
        for w in cuts.windows(2) {
            let (t0, t1) = (w[0], w[1]);
            if t1 - t0 < EPS || !poly.contains(&self.at((t0 + t1) / 2.0)) {
                continue;
            }
            match out.last_mut() {
                Some(last) if (last.1 - t0).abs() < EPS => last.1 = t1,
                _ => out.push((t0, t1)),
            }
        }
        out
    }
}

impl Ray {
    /// Where the ray meets the polygon's edges (geo's `line_intersection`),
    /// as distances from `a`, added to `cuts` (unsorted).
    fn cut(&self, poly: &Polygon<f64>, cuts: &mut Vec<f64>) {
        let line = self.line();
        let rings = std::iter::once(poly.exterior()).chain(poly.interiors());
        for edge in rings.flat_map(|r| r.lines()) {
            match line_intersection(line, edge) {
                Some(LineIntersection::SinglePoint { intersection, .. }) => {
                    cuts.push(self.along(intersection));
                }
                Some(LineIntersection::Collinear { intersection }) => {
                    cuts.push(self.along(intersection.start));
                    cuts.push(self.along(intersection.end));
                }
                None => {}
            }
        }
    }

    /// Where the ray squeezes between two touching blocking features (rules
    /// version 8, review6 N2: touching features are one obstacle): the
    /// first point along it, not at its ends, that lies on the edges of two
    /// of `polys` with one of them on either side of the ray there (running
    /// along their shared edge, or through a corner they share). A line
    /// along the wall of one feature alone, or touching one corner, is
    /// still clear. Its distance from `a` and the first such feature.
    fn squeeze(&self, polys: &[(usize, &Polygon<f64>)]) -> Option<(f64, usize)> {
        if polys.len() < 2 || self.len <= EPS {
            return None;
        }
        let mut cuts = Vec::new();
        for (_, poly) in polys {
            self.cut(poly, &mut cuts);
        }
        cuts.retain(|&t| t > EPS && t < self.len - EPS);
        cuts.sort_by(f64::total_cmp);
        cuts.dedup_by(|x, y| (*x - *y).abs() < EPS);
        // The cut points and the middles of the stretches between them.
        let mut at: Vec<f64> = cuts.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
        at.extend(&cuts);
        at.sort_by(f64::total_cmp);
        // A side step of a hundredth of a hundredth of an inch: the
        // features' corners are whole hundredths, so a point that close to
        // the ray on either side is in a feature only if the ray runs along
        // or through its edge there.
        let (near, step) = (1e-3, 1e-2);
        let normal = Coord {
            x: -self.dir.y,
            y: self.dir.x,
        };
        let covers =
            |c: Coord<f64>, poly: &Polygon<f64>| Euclidean.distance(&geo::Point(c), poly) < near;
        at.into_iter().find_map(|t| {
            let c = self.at(t);
            let touching: Vec<usize> = polys
                .iter()
                .filter(|(_, poly)| covers(c, poly))
                .map(|(i, _)| *i)
                .collect();
            let side = |sign: f64| {
                let d = c + normal * (sign * step);
                polys.iter().any(|(_, poly)| covers(d, poly))
            };
            (touching.len() >= 2 && side(1.0) && side(-1.0)).then(|| (t, touching[0]))
        })
    }
}

// ---------------------------------------------------------------- where things are

/// The terrain feature containing `p` (its edge included), as an index into
/// `s.terrain`; the first one listed where features overlap. "Terrain other
/// than Open terrain should be placed so that it occupies a discreet area."
pub fn feature_at(s: &Scenario, p: Point) -> Option<usize> {
    let gp = geo_point(p);
    s.terrain
        .iter()
        .position(|t| may_hold(t, p) && polygon(t).is_some_and(|poly| poly.intersects(&gp)))
}

/// Whether `p` is within the bounding box of `t`'s outline (edges included):
/// a quick test that a point outside cannot be in the feature, so that
/// [`feature_at`] builds the polygon only for the features near `p`.
fn may_hold(t: &Terrain, p: Point) -> bool {
    let mut inside_x = (false, false);
    let mut inside_y = (false, false);
    for q in &t.outline {
        inside_x = (inside_x.0 || q.x <= p.x, inside_x.1 || q.x >= p.x);
        inside_y = (inside_y.0 || q.y <= p.y, inside_y.1 || q.y >= p.y);
    }
    inside_x == (true, true) && inside_y == (true, true)
}

/// The cover class at `p` ("Cover is given three definitions"): the class of
/// the feature it is in, Open outside every feature.
pub fn cover_at(s: &Scenario, p: Point) -> Cover {
    feature_at(s, p).map_or(Cover::Open, |i| s.terrain[i].cover)
}

/// Whether `p` is on the table (its edges included): "Playing area".
pub fn on_table(s: &Scenario, p: Point) -> bool {
    (0..=s.width).contains(&p.x) && (0..=s.height).contains(&p.y)
}

/// The integer mean of the points, rounded half up; `(0, 0)` for none.
pub fn centre(points: &[Point]) -> Point {
    if points.is_empty() {
        return Point::default();
    }
    let n = points.len() as i64;
    let mean = |sum: i64| (2 * sum + n).div_euclid(2 * n) as i32;
    Point::new(
        mean(points.iter().map(|p| i64::from(p.x)).sum()),
        mean(points.iter().map(|p| i64::from(p.y)).sum()),
    )
}

fn distance2(a: Point, b: Point) -> i64 {
    let dx = i64::from(a.x - b.x);
    let dy = i64::from(a.y - b.y);
    dx * dx + dy * dy
}

/// The indices of the points within `radius` of `center` (on the circle
/// included): the figures caught by a blast ("a 'Blast' area which is a six
/// inch diameter circle"; Mites: "a 6 inch radius blast effect"). Exact in
/// integers.
pub fn within(center: Point, radius: i32, points: &[Point]) -> Vec<usize> {
    let r2 = i64::from(radius) * i64::from(radius);
    (0..points.len())
        .filter(|&i| distance2(center, points[i]) <= r2)
        .collect()
}

/// The key of the candidate group nearest to any of `from`, by the smallest
/// figure-to-figure distance, ties to the lower key; `None` when there is no
/// figure on either side. "If the controller is killed the mites can do
/// nothing except charge towards the nearest enemy (regardless of LOS)."
pub fn nearest(from: &[Point], candidates: &[(usize, Vec<Point>)]) -> Option<usize> {
    candidates
        .iter()
        .filter_map(|(key, pts)| {
            let d = from
                .iter()
                .flat_map(|&a| pts.iter().map(move |&b| distance2(a, b)))
                .min()?;
            Some((d, *key))
        })
        .min()
        .map(|(_, key)| key)
}

/// Whether the two groups are in base-to-base contact: some figure of `a`
/// within [`BASE`] + [`CONTACT_TOLERANCE`] of some figure of `b`.
/// "Hand-to-hand combat": "It is enough for a single figure to be able to get
/// into base-to-base contact with a single figure from the opposing group."
pub fn in_contact(a: &[Point], b: &[Point]) -> bool {
    a.iter()
        .any(|&p| b.iter().any(|&q| p.distance(q) <= BASE + CONTACT_TOLERANCE))
}

// ---------------------------------------------------------------- moving

/// Why a move ended before its end point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StopReason {
    /// It entered this terrain feature (an index into `s.terrain`).
    Entered(usize),
    /// It crossed this linear barrier (an index into `s.barriers`).
    Crossed(usize),
}

/// A move that ended early, why in words and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    pub reason: StopReason,
    /// "entered Copse (cover)", "crossed Stone wall".
    pub words: String,
}

impl Stop {
    fn new(s: &Scenario, reason: StopReason) -> Self {
        let words = match reason {
            StopReason::Entered(i) => {
                let t = &s.terrain[i];
                format!("entered {} ({})", t.name, t.cover.word())
            }
            StopReason::Crossed(j) => format!("crossed {}", s.barriers[j].name),
        };
        Self { reason, words }
    }
}

/// Where a move ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePlan {
    pub end: Point,
    /// Hundredths of an inch counted against the move allowance.
    pub measured: i32,
    /// Why it ended before the point asked for, if it did.
    pub stopped: Option<Stop>,
}

/// A move the rules do not allow, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(
        "that is {} away{}; this group moves {}",
        inches(*distance),
        from_edge.as_ref().map(|f| format!(" from the edge of {f}")).unwrap_or_default(),
        inches(*allowance)
    )]
    TooFar {
        distance: i32,
        allowance: i32,
        /// The feature it starts in, when measured from that feature's edge.
        from_edge: Option<String>,
    },
    #[error("({}, {}) is off the table ({} x {})", inches(point.x), inches(point.y), inches(*width), inches(*height))]
    OffTable {
        point: Point,
        width: i32,
        height: i32,
    },
    #[error("burrowers cannot move on the surface; they tunnel instead (a special action)")]
    Burrow,
    #[error("{who} cannot enter {feature} ({why})")]
    NoEntry {
        who: &'static str,
        feature: String,
        why: &'static str,
    },
    #[error("this group cannot cross {feature}: it is soft going and they cannot jump")]
    SoftGoing { feature: String },
    #[error("{feature} is {} across here; a jump clears less than {}", inches(*across), inches(JUMP))]
    TooWide { feature: String, across: i32 },
}

/// A ground move (on foot or a vehicle) traced along a ray.
struct GroundWalk {
    /// Where the ray leaves the feature(s) it starts in; 0 when it starts in none.
    exit: f64,
    /// The feature it starts in and leaves, for messages.
    left: Option<usize>,
    /// Where the move ends, at most the ray's length.
    end: f64,
    /// Where the event that ended it is, and what it is.
    stop: Option<(f64, StopReason)>,
}

/// "A group's movement ends when it enters a terrain feature (including a
/// vehicle). A group's move also ends once they cross a linear barrier such
/// as a wall or fence. If a group moves out of a terrain feature its move is
/// measured from any edge of the feature."
///
/// The stretch inside the feature the ray starts in is skipped (it is left at
/// `exit`); the first other stretch inside a feature (or a later one inside
/// the same feature) ends the move [`STOP_INSIDE`] past the edge (or half way
/// across a feature thinner than twice that); a crossing of a barrier ends
/// it [`STOP_PAST`] past the barrier. Where both happen, the nearer end wins.
fn walk_ground(s: &Scenario, ray: &Ray) -> GroundWalk {
    let mut walk = GroundWalk {
        exit: 0.0,
        left: None,
        end: ray.len,
        stop: None,
    };
    if ray.len <= EPS {
        return walk;
    }
    // (end, event at, reason): the smallest wins, deterministically.
    let mut ends: Vec<(f64, f64, StopReason)> = Vec::new();
    for (i, t) in s.terrain.iter().enumerate() {
        let Some(poly) = polygon(t) else { continue };
        for (t0, t1) in ray.inside(&poly) {
            if t0 <= EPS {
                if t1 > walk.exit {
                    walk.exit = t1;
                    walk.left = Some(i);
                }
                continue;
            }
            // Half way across a feature thinner than twice STOP_INSIDE
            // (one the ray passes right through).
            let thin = if t1 < ray.len - EPS {
                (t0 + t1) / 2.0
            } else {
                ray.len
            };
            let end = (t0 + f64::from(STOP_INSIDE)).min(thin).min(ray.len);
            ends.push((end, t0, StopReason::Entered(i)));
        }
    }
    let line = ray.line();
    for (j, b) in s.barriers.iter().enumerate() {
        for w in b.path.windows(2) {
            let seg = Line::new(coord(w[0]), coord(w[1]));
            if let Some(LineIntersection::SinglePoint { intersection, .. }) =
                line_intersection(line, seg)
            {
                // A figure standing on the barrier line is not crossing it.
                let at = ray.along(intersection);
                if at > 0.5 {
                    let end = (at + f64::from(STOP_PAST)).min(ray.len);
                    ends.push((end, at, StopReason::Crossed(j)));
                }
            }
        }
    }
    if let Some(&(end, at, reason)) = ends.iter().min_by(|x, y| {
        x.0.total_cmp(&y.0)
            .then(x.1.total_cmp(&y.1))
            .then(x.2.cmp(&y.2))
    }) {
        walk.end = end;
        walk.stop = Some((at, reason));
    }
    if walk.exit >= walk.end {
        walk.left = None;
    }
    walk
}

/// "Vehicles can only enter terrain suitable to them. A road vehicle can
/// only travel in open terrain, an off-road vehicle could cross rubble and
/// scrub as well": a road vehicle enters only Open-class features, an
/// off-road one Open or Cover; neither enters a building or soft going.
fn vehicle_may_enter(t: &Terrain, off_road: bool) -> Result<(), MoveError> {
    let who = if off_road {
        "an off-road vehicle"
    } else {
        "a road vehicle"
    };
    let why = if t.soft {
        Some("soft going")
    } else {
        match (t.cover, off_road) {
            (Cover::Open, _) | (Cover::Cover, true) => None,
            (Cover::Cover, false) => Some("cover; a road vehicle keeps to open terrain"),
            (Cover::Building, _) => Some("a building"),
        }
    };
    match why {
        None => Ok(()),
        Some(why) => Err(MoveError::NoEntry {
            who,
            feature: t.name.clone(),
            why,
        }),
    }
}

/// The stretches of the ray across soft going, not counting one it starts in:
/// (from, to, feature).
fn soft_crossings(s: &Scenario, ray: &Ray) -> Vec<(f64, f64, usize)> {
    let mut out = Vec::new();
    for (i, t) in s.terrain.iter().enumerate() {
        if !t.soft {
            continue;
        }
        let Some(poly) = polygon(t) else { continue };
        for (t0, t1) in ray.inside(&poly) {
            if t0 > EPS {
                out.push((t0, t1, i));
            }
        }
    }
    out.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.2.cmp(&y.2)));
    out
}

/// "Spugs and Mites are unaffected by terrain except soft going like water
/// or marsh which they can't cross at all unless the Spugs can jump it, ie
/// it is less than 8 inches across": the first soft going on the way that
/// stops the move, if any. Ending in soft going is refused too.
fn soft_problem(s: &Scenario, ray: &Ray, jump: bool) -> Option<(f64, MoveError)> {
    soft_crossings(s, ray).into_iter().find_map(|(t0, t1, i)| {
        let feature = s.terrain[i].name.clone();
        if t1 >= ray.len - EPS {
            Some((
                t0,
                MoveError::NoEntry {
                    who: "this group",
                    feature,
                    why: "soft going",
                },
            ))
        } else if !jump {
            Some((t0, MoveError::SoftGoing { feature }))
        } else if t1 - t0 >= f64::from(JUMP) {
            Some((
                t0,
                MoveError::TooWide {
                    feature,
                    across: (t1 - t0).round() as i32,
                },
            ))
        } else {
            None
        }
    })
}

fn too_far(measured: i32, allowance: i32, from_edge: Option<String>) -> MoveError {
    MoveError::TooFar {
        distance: measured,
        allowance,
        from_edge,
    }
}

/// A move in a straight line from `from` toward `to` ("1. Move": "A move
/// must be in a straight line but may be in any direction. A player never
/// has to move a group the full move distance"), with `allowance` the
/// group's move in hundredths ("The standard Move distance in the game is
/// eight inches").
///
/// - [`Mobility::Foot`]: ends [`STOP_INSIDE`] inside the first terrain
///   feature it enters, or [`STOP_PAST`] past the first linear barrier it
///   crosses ("A group's movement ends when it enters a terrain feature ...
///   ends once they cross a linear barrier"); a move aimed further ends
///   there. From inside a feature the stretch inside it is not counted ("If
///   a group moves out of a terrain feature its move is measured from any
///   edge of the feature": here the edge where the line leaves it), so a
///   move within the feature counts nothing. The counted length must be at
///   most `allowance`.
/// - [`Mobility::Vehicle`]: the same, and the feature it would enter must
///   suit it ("Vehicles can only enter terrain suitable to them"): see
///   `vehicle_may_enter`. Facing and the turn at the end are the rules'
///   business, not the table's.
/// - [`Mobility::Unhindered`]: terrain and barriers do not matter, except
///   soft going, which it may not end in and may cross only with `jump` where
///   the stretch across is less than [`JUMP`]; the whole line counts.
/// - [`Mobility::Burrow`]: refused ("Burrowers cannot move on the surface").
/// - [`Mobility::Vtol`]: no terrain effects (taking off and landing are
///   actions of their own, for the rules).
///
/// Leaving the table is refused, and so is starting off it.
pub fn plan_move(
    s: &Scenario,
    from: Point,
    to: Point,
    allowance: i32,
    mobility: Mobility,
) -> Result<MovePlan, MoveError> {
    for p in [from, to] {
        if !on_table(s, p) {
            return Err(MoveError::OffTable {
                point: p,
                width: s.width,
                height: s.height,
            });
        }
    }
    let ray = Ray::new(coord(from), coord(to));
    let straight = |ray: &Ray| {
        let measured = ray.len.round() as i32;
        if measured > allowance {
            return Err(too_far(measured, allowance, None));
        }
        Ok(MovePlan {
            end: to,
            measured,
            stopped: None,
        })
    };
    match mobility {
        Mobility::Burrow => Err(MoveError::Burrow),
        Mobility::Vtol => straight(&ray),
        Mobility::Unhindered { jump } => match soft_problem(s, &ray, jump) {
            Some((_, e)) => Err(e),
            None => straight(&ray),
        },
        Mobility::Foot | Mobility::Vehicle { .. } => {
            let walk = walk_ground(s, &ray);
            if let (Mobility::Vehicle { off_road }, Some((_, StopReason::Entered(i)))) =
                (mobility, walk.stop)
            {
                vehicle_may_enter(&s.terrain[i], off_road)?;
            }
            let measured = (walk.end - walk.exit).max(0.0).round() as i32;
            if measured > allowance {
                let edge = walk.left.map(|i| s.terrain[i].name.clone());
                return Err(too_far(measured, allowance, edge));
            }
            Ok(MovePlan {
                end: settle(s, &ray, walk.end, to, walk.stop.map(|(_, r)| r)),
                measured,
                stopped: walk.stop.map(|(_, r)| Stop::new(s, r)),
            })
        }
    }
}

/// The point `t` along the ray, rounded to the nearest hundredth that is
/// still on the right side of what stopped the move: in the feature it
/// entered, past the barrier it crossed (rounding where the line meets a
/// slanting edge at a shallow angle could otherwise leave it outside).
/// Neighbours are tried nearest first, ties by coordinates.
fn settle(s: &Scenario, ray: &Ray, t: f64, to: Point, stop: Option<StopReason>) -> Point {
    let p = ray.point(t, to);
    let Some(reason) = stop else { return p };
    let good = |q: Point| match reason {
        StopReason::Entered(i) => {
            polygon(&s.terrain[i]).is_some_and(|poly| poly.intersects(&geo_point(q)))
        }
        StopReason::Crossed(j) => {
            let path = LineString::from(
                s.barriers[j]
                    .path
                    .iter()
                    .map(|&p| coord(p))
                    .collect::<Vec<_>>(),
            );
            Line::new(ray.a, coord(q)).intersects(&path) && !path.intersects(&geo_point(q))
        }
    };
    if good(p) {
        return p;
    }
    let exact = ray.at(t.clamp(0.0, ray.len));
    let mut near: Vec<Point> = (-1..=1)
        .flat_map(|dx| (-1..=1).map(move |dy| Point::new(p.x + dx, p.y + dy)))
        .filter(|&q| q != p && on_table(s, q))
        .collect();
    near.sort_by(|a, b| {
        length(coord(*a), exact)
            .total_cmp(&length(coord(*b), exact))
            .then(a.cmp(b))
    });
    near.into_iter().find(|&q| good(q)).unwrap_or(p)
}

/// How far along `ray` a move may end, by [`plan_move`]'s rules.
fn reach_along(s: &Scenario, ray: &Ray, allowance: i32, mobility: Mobility) -> f64 {
    let allow = f64::from(allowance.max(0));
    match mobility {
        Mobility::Burrow => 0.0,
        Mobility::Vtol => ray.len.min(allow),
        Mobility::Unhindered { jump } => {
            let mut limit = ray.len.min(allow);
            for (t0, t1, _) in soft_crossings(s, ray) {
                if t0 >= limit {
                    break;
                }
                // It cannot cross this one, or would end in it: stop short.
                if !jump || t1 - t0 >= f64::from(JUMP) || t1 >= limit {
                    limit = (t0 - 1.0).max(0.0);
                    break;
                }
            }
            limit
        }
        Mobility::Foot | Mobility::Vehicle { .. } => {
            let walk = walk_ground(s, ray);
            let mut reach = walk.end.min(walk.exit + allow);
            if let (Mobility::Vehicle { off_road }, Some((at, StopReason::Entered(i)))) =
                (mobility, walk.stop)
                && reach > at
                && vehicle_may_enter(&s.terrain[i], off_road).is_err()
            {
                reach = (at - 1.0).max(0.0);
            }
            reach
        }
    }
}

/// An outline of where a move from `from` can end: [`RAYS`] rays (every 5
/// degrees, clockwise on screen from the right), each cut where
/// [`plan_move`]'s rules end it (terrain, barriers, the allowance, the
/// table's edge), for the app to draw the move range ("1. Move"). Empty for
/// burrowers or a start off the table. A drawing aid: the directions use
/// `sin`/`cos`.
pub fn reach_outline(s: &Scenario, from: Point, allowance: i32, mobility: Mobility) -> Vec<Point> {
    if mobility == Mobility::Burrow || !on_table(s, from) {
        return Vec::new();
    }
    let a = coord(from);
    let (w, h) = (f64::from(s.width), f64::from(s.height));
    (0..RAYS)
        .map(|k| {
            let angle = std::f64::consts::TAU * k as f64 / RAYS as f64;
            let (dx, dy) = (angle.cos(), angle.sin());
            // How far the ray runs before it leaves the table.
            let run = |d: f64, p: f64, size: f64| {
                if d > EPS {
                    (size - p) / d
                } else if d < -EPS {
                    -p / d
                } else {
                    f64::INFINITY
                }
            };
            let t = run(dx, a.x, w).min(run(dy, a.y, h));
            let far = round_point(a + Coord { x: dx, y: dy } * t);
            let far = Point::new(far.x.clamp(0, s.width), far.y.clamp(0, s.height));
            let ray = Ray::new(a, coord(far));
            ray.point(reach_along(s, &ray, allowance, mobility), far)
        })
        .collect()
}

// ---------------------------------------------------------------- placing

/// Whether the segment from `a` to `b` crosses a linear barrier.
fn crosses_barrier(s: &Scenario, a: Point, b: Point) -> bool {
    let line = Line::new(coord(a), coord(b));
    s.barriers.iter().any(|bar| {
        bar.path
            .windows(2)
            .any(|w| line.intersects(&Line::new(coord(w[0]), coord(w[1]))))
    })
}

/// Positions on a hexagonal lattice of [`SPACING`] around the origin, ring by
/// ring, nearest first (ties in the order of walking each ring).
fn lattice() -> &'static [(i64, Point)] {
    static LATTICE: std::sync::LazyLock<Vec<(i64, Point)>> = std::sync::LazyLock::new(rings);
    &LATTICE
}

/// How far the furthest position of [`lattice`] lies from the origin along
/// either axis.
fn lattice_span() -> i64 {
    static SPAN: std::sync::LazyLock<i64> = std::sync::LazyLock::new(|| {
        lattice()
            .iter()
            .map(|&(_, o)| i64::from(o.x.abs().max(o.y.abs())))
            .max()
            .unwrap_or(0)
    });
    *SPAN
}

/// A feature's outline's box, edges included: the same test as [`may_hold`]
/// in four comparisons.
#[derive(Clone, Copy)]
struct Bounds {
    min: Point,
    max: Point,
}

impl Bounds {
    fn of(t: &Terrain) -> Option<Bounds> {
        let first = *t.outline.first()?;
        Some(t.outline.iter().fold(
            Bounds {
                min: first,
                max: first,
            },
            |b, q| Bounds {
                min: Point::new(b.min.x.min(q.x), b.min.y.min(q.y)),
                max: Point::new(b.max.x.max(q.x), b.max.y.max(q.y)),
            },
        ))
    }

    fn holds(&self, p: Point) -> bool {
        (self.min.x..=self.max.x).contains(&p.x) && (self.min.y..=self.max.y).contains(&p.y)
    }
}

/// The positions of [`lattice`], computed once.
fn rings() -> Vec<(i64, Point)> {
    const DIRS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
    let row = f64::from(SPACING) * 3f64.sqrt() / 2.0;
    let mut out = Vec::new();
    for k in 1..=RINGS {
        let (mut q, mut r) = (-k, k);
        for &(dq, dr) in &DIRS {
            for _ in 0..k {
                let x = f64::from(SPACING) * (f64::from(q) + f64::from(r) / 2.0);
                let y = row * f64::from(r);
                let (qi, ri) = (i64::from(q), i64::from(r));
                out.push((
                    qi * qi + qi * ri + ri * ri,
                    Point::new(x.round() as i32, y.round() as i32),
                ));
                q += dq;
                r += dr;
            }
        }
    }
    out.sort_by_key(|&(d, _)| d);
    out
}

/// Positions for the other `count` figures of a group whose lead figure has
/// just moved to `lead`: "He then places the rest of the group next to the
/// original figure as he sees fit."
///
/// A compact cluster on a hexagonal lattice around the lead, bases 0.1"
/// apart ([`SPACING`]): each position is next to the lead or to one already
/// placed, on the table, not in base contact with any figure in `avoid`
/// (more than [`BASE`] + [`CONTACT_TOLERANCE`] away, so placing never starts
/// a fight by itself), and never inside blocking terrain the lead is not in.
/// Positions in the same feature as the lead (or in the open when the lead
/// is in the open) and not across a barrier from it come first. Deterministic.
/// Fewer than `count` only when the table around the lead is full (then the
/// rule that each touches the cluster is dropped before giving up).
pub fn place_next_to(s: &Scenario, lead: Point, count: usize, avoid: &[Point]) -> Vec<Point> {
    let lead_feature = feature_at(s, lead);
    let around = Around::new(s, lead, avoid);
    let lattice = lattice();
    let at = |i: usize| {
        let o = lattice[i].1;
        Point::new(lead.x + o.x, lead.y + o.y)
    };
    // The candidates are the positions of the lattice, in its order, that
    // are on the table, not in base contact with a figure to avoid and not
    // in blocking terrain the lead is not in. Each is checked only when the
    // picking below comes to it (most never are: a group takes the few
    // nearest), and the picking takes the first candidate in lattice order
    // that it would take from the list of them all.
    let mut candidate: Vec<Option<bool>> = vec![None; lattice.len()];
    let mut is_candidate = |i: usize| *candidate[i].get_or_insert_with(|| around.free(at(i)));
    // Whether a candidate is in the lead's feature and not across a barrier
    // from it, worked out only for the candidates the picking asks about.
    let mut preferred: Vec<Option<bool>> = vec![None; lattice.len()];
    let mut is_preferred = |i: usize| {
        *preferred[i].get_or_insert_with(|| {
            let p = at(i);
            feature_at(s, p) == lead_feature && !crosses_barrier(s, lead, p)
        })
    };
    let mut used = vec![false; lattice.len()];
    // Whether a position is next to the lead or to a figure placed so far:
    // placed figures are lattice positions, and whether two positions are
    // next to each other depends only on their offsets, so the lattice's
    // own table says which positions each one touches.
    let (next_to_lead, next_to) = lattice_neighbours();
    let mut touching = vec![false; lattice.len()];
    // No position past this index touches the lead or a placed figure.
    let mut touch_end = 0;
    for &j in next_to_lead {
        touching[usize::from(j)] = true;
        touch_end = touch_end.max(usize::from(j) + 1);
    }
    let mut placed: Vec<Point> = Vec::with_capacity(count);
    while placed.len() < count {
        let pick = (0..3).find_map(|pass| {
            let end = if pass < 2 { touch_end } else { lattice.len() };
            (0..end).find(|&i| {
                !used[i]
                    && match pass {
                        0 => touching[i] && is_candidate(i) && is_preferred(i),
                        1 => touching[i] && is_candidate(i),
                        _ => is_candidate(i),
                    }
            })
        });
        match pick {
            Some(i) => {
                used[i] = true;
                placed.push(at(i));
                for &j in &next_to[i] {
                    touching[usize::from(j)] = true;
                    touch_end = touch_end.max(usize::from(j) + 1);
                }
            }
            None => break,
        }
    }
    placed
}

/// Whether `q` and `p` are more than `by` apart along either axis (then
/// they are more than `by` apart: the distance is at least that much).
fn far(q: Point, p: Point, by: i64) -> bool {
    (i64::from(q.x) - i64::from(p.x)).abs() > by || (i64::from(q.y) - i64::from(p.y)).abs() > by
}

/// The table around a lead figure as [`place_next_to`] sees it: the
/// blocking features the lead is not in and the figures to avoid, only
/// those that can refuse a position of the lattice around it.
struct Around<'a> {
    s: &'a Scenario,
    blocked: Vec<(Bounds, Polygon<f64>)>,
    avoid: Vec<Point>,
}

impl<'a> Around<'a> {
    fn new(s: &'a Scenario, lead: Point, avoid: &[Point]) -> Self {
        let lead_gp = geo_point(lead);
        // Every candidate lies within `span` of the lead along each axis, so
        // only the blocking features whose box reaches that square can
        // refuse one (the others were tested against every candidate and
        // refused none).
        let span = lattice_span();
        let blocked = s
            .terrain
            .iter()
            .filter(|t| t.blocks)
            .filter_map(|t| {
                let b = Bounds::of(t)?;
                let reach = i64::from(b.min.x) <= i64::from(lead.x) + span
                    && i64::from(b.max.x) >= i64::from(lead.x) - span
                    && i64::from(b.min.y) <= i64::from(lead.y) + span
                    && i64::from(b.max.y) >= i64::from(lead.y) - span;
                reach.then(|| polygon(t).map(|poly| (b, poly)))?
            })
            .filter(|(_, poly)| !poly.intersects(&lead_gp))
            .collect();
        let apart = BASE + CONTACT_TOLERANCE;
        let avoid = avoid
            .iter()
            .copied()
            .filter(|&q| !far(q, lead, span + i64::from(apart)))
            .collect();
        Around { s, blocked, avoid }
    }

    /// Whether a figure may stand at `p`: on the table, not in base contact
    /// with a figure to avoid, not in blocking terrain the lead is not in.
    fn free(&self, p: Point) -> bool {
        let apart = BASE + CONTACT_TOLERANCE;
        on_table(self.s, p)
            && self
                .avoid
                .iter()
                .all(|&q| far(q, p, i64::from(apart)) || q.distance(p) > apart)
            && !self
                .blocked
                .iter()
                .any(|(b, poly)| b.holds(p) && poly.intersects(&geo_point(p)))
    }
}

/// Which positions of [`lattice`] are next to the origin (the lead) and
/// next to each position, by the test [`place_next_to`] places by: centres
/// at most [`SPACING`] + 2 apart. Computed once on the offsets (the test
/// depends only on the difference of two points, which the lead's position
/// does not change).
#[allow(clippy::type_complexity)]
fn lattice_neighbours() -> (&'static [u16], &'static [Vec<u16>]) {
    static TABLE: std::sync::LazyLock<(Vec<u16>, Vec<Vec<u16>>)> = std::sync::LazyLock::new(|| {
        let lattice = lattice();
        let close = |a: Point, b: Point| {
            let by = i64::from(SPACING + 2);
            (i64::from(a.x) - i64::from(b.x)).abs() <= by
                && (i64::from(a.y) - i64::from(b.y)).abs() <= by
                && a.distance(b) <= SPACING + 2
        };
        let of = |p: Point| -> Vec<u16> {
            (0..lattice.len())
                .filter(|&j| lattice[j].1 != p && close(p, lattice[j].1))
                .map(|j| j as u16)
                .collect()
        };
        let origin = of(Point::new(0, 0));
        let each = lattice.iter().map(|&(_, p)| of(p)).collect();
        (origin, each)
    });
    (&TABLE.0, &TABLE.1)
}

/// Every figure of `group` moved `distance` straight away from `away_from`
/// (the direction from `away_from` to the group's [`centre`]), kept on the
/// table by clamping; terrain and barriers do not stop it. "Resolving
/// hand-to-hand combat": "any attackers move back a full move ensuring that
/// they don't stay in contact themselves ... all factions will move a full
/// move apart, usually back the way they came". When the centre is
/// `away_from` itself, away from the table's middle, or else toward the top
/// edge. Deterministic (`sqrt` and rounding only).
pub fn fall_back(s: &Scenario, group: &[Point], away_from: Point, distance: i32) -> Vec<Point> {
    let c = centre(group);
    let middle = Point::new(s.width / 2, s.height / 2);
    let (dx, dy) = if c != away_from {
        (c.x - away_from.x, c.y - away_from.y)
    } else if c != middle {
        (c.x - middle.x, c.y - middle.y)
    } else {
        (0, -1)
    };
    let dir = Ray::new(Coord { x: 0.0, y: 0.0 }, coord(Point::new(dx, dy))).dir;
    let shift = dir * f64::from(distance);
    group
        .iter()
        .map(|&p| {
            let q = round_point(coord(p) + shift);
            Point::new(q.x.clamp(0, s.width), q.y.clamp(0, s.height))
        })
        .collect()
}

// ---------------------------------------------------------------- line of sight

/// What blocks a line of sight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Blocker {
    /// Blocking terrain (an index into `s.terrain`).
    Terrain(usize),
    /// An intervening group (its key as given).
    Group(usize),
}

/// A line from a shooter to a target figure, and what blocks it (the blocker
/// nearest the shooter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocked {
    pub from: Point,
    pub to: Point,
    pub by: Blocker,
}

/// The lines of sight between a shooting group and a target group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sight {
    /// The first unblocked (shooter, target) pair, shooters in order, then
    /// targets: the group may shoot when there is one.
    pub clear: Option<(Point, Point)>,
    /// The blocked pairs before it, in the same order (every pair when
    /// none is clear): the pairs after the first clear one are not traced.
    pub blocked: Vec<Blocked>,
}

/// The area an intervening group blocks: its figures' convex hull (geo's
/// `ConvexHull`; a point or a segment for one or two figures); a line
/// blocked by it passes within [`BASE`] / 2 of it.
fn group_area(points: &[Point]) -> Geometry<f64> {
    match points {
        [p] => Geometry::Point(geo_point(*p)),
        [p, q] => Geometry::Line(Line::new(coord(*p), coord(*q))),
        _ => Geometry::Polygon(
            MultiPoint::from(points.iter().map(|&p| geo_point(p)).collect::<Vec<_>>())
                .convex_hull(),
        ),
    }
}

/// The blocking features of a table as polygons, each with its index, its
/// bounding box and whether it touches (or overlaps) another of them (only
/// those can make a line squeeze between two: `Ray::squeeze`).
type BlockingPolygons = Vec<(usize, Polygon<f64>, Option<Rect<f64>>, bool)>;

/// [`BlockingPolygons`] of `s`, built once per thread for each table: a shot
/// asks for lines of sight figure by figure, and every call built every
/// feature's polygon again. The cache is checked against the terrain itself
/// (not its address), so it never answers for another table.
fn blocking_polygons(s: &Scenario) -> std::rc::Rc<BlockingPolygons> {
    type Cached = Option<(Vec<Terrain>, std::rc::Rc<BlockingPolygons>)>;
    thread_local! {
        static LAST: std::cell::RefCell<Cached> = const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        if let Some((terrain, polys)) = &*last.borrow()
            && *terrain == s.terrain
        {
            return polys.clone();
        }
        let found: Vec<(usize, Polygon<f64>, Option<Rect<f64>>)> = s
            .terrain
            .iter()
            .enumerate()
            .filter(|(_, t)| t.blocks)
            .filter_map(|(i, t)| polygon(t).map(|p| (i, p.bounding_rect(), p)))
            .map(|(i, b, p)| (i, p, b))
            .collect();
        let touches = |i: usize| {
            let (_, p, b) = &found[i];
            found.iter().enumerate().any(|(j, (_, q, c))| {
                j != i
                    && !matches!((b, c), (Some(b), Some(c)) if apart(*b, *c, 0.0))
                    && p.intersects(q)
            })
        };
        let polys: BlockingPolygons = (0..found.len())
            .map(|i| (found[i].0, found[i].1.clone(), found[i].2, touches(i)))
            .collect();
        let polys = std::rc::Rc::new(polys);
        *last.borrow_mut() = Some((s.terrain.clone(), polys.clone()));
        polys
    })
}

/// "2. Shoot": "A single group may shoot at a single opposing group as long
/// as one of the figures can trace an unblocked line of sight to any figure
/// in the target group. Line of sight will be blocked by intervening groups,
/// and blocking terrain ... it is an intervening group that blocks line of
/// sight, not just the individual figures in that group. You cannot shoot
/// between figures in an intervening group."
///
/// Every shooter is tried against every target figure, in order, until the
/// first clear pair: that pair is the answer, and `Sight::blocked` holds
/// only the pairs tried before it (all of them when none is clear). A line
/// is blocked by:
/// - blocking terrain whose interior it passes through, except a feature the
///   shooter or the target stands in (assumption: figures in a building or a
///   wood can see out and be seen, at the cover's kill score), and two
///   touching blocking features it squeezes between, along their shared edge
///   or through a shared corner (they are one obstacle: `Ray::squeeze`);
/// - an intervening group of `others` (key, figures) when it passes within
///   half a base ([`BASE`] / 2) of the group's convex hull: the hull
///   buffered by the figures' bases, so the gaps between its figures block
///   too. The line is measured between the shooter's and the target's base
///   edges, so a figure in base contact with another group can still see
///   past it. `others` should not hold the shooting or the target group.
///
/// Linear barriers do not block sight.
pub fn line_of_sight(
    s: &Scenario,
    shooters: &[Point],
    targets: &[Point],
    others: &[(usize, Vec<Point>)],
) -> Sight {
    trace(s, shooters, targets, others, false)
}

/// [`line_of_sight`], or with `every_pair` every pair traced (the blocked
/// ones after the first clear pair listed too).
fn trace(
    s: &Scenario,
    shooters: &[Point],
    targets: &[Point],
    others: &[(usize, Vec<Point>)],
    every_pair: bool,
) -> Sight {
    // Each with its bounding box: a line whose box is clear of a feature's
    // (or more than half a base clear of a group's) cannot be blocked by it.
    // A group's box is its figures' (the hull's corners are figures), and
    // its hull is made only for a line that comes near that box.
    let terrain = blocking_polygons(s);
    let terrain = terrain.as_slice();
    let areas: Vec<Near<'_>> = others
        .iter()
        .filter_map(|(k, pts)| Some((*k, pts.as_slice(), points_box(pts)?, OnceCell::new())))
        .collect();
    let radius = f64::from(BASE) / 2.0;
    let mut sight = Sight {
        clear: None,
        blocked: Vec::new(),
    };
    for &a in shooters {
        for &b in targets {
            let ray = Ray::new(coord(a), coord(b));
            let (ga, gb) = (geo_point(a), geo_point(b));
            // (how far from the shooter, blocker)
            let mut found: Vec<(f64, Blocker)> = Vec::new();
            let reach = ray.line().bounding_rect();
            let mut near: Vec<(usize, &Polygon<f64>)> = Vec::new();
            for (i, poly, bounds, touches) in terrain {
                if bounds.is_some_and(|r| apart(r, reach, 0.0)) {
                    continue;
                }
                if poly.intersects(&ga) || poly.intersects(&gb) {
                    continue;
                }
                if let Some(&(t0, _)) = ray.inside(poly).first() {
                    found.push((t0, Blocker::Terrain(*i)));
                }
                if *touches {
                    near.push((*i, poly));
                }
            }
            if let Some((t, i)) = ray.squeeze(&near) {
                found.push((t, Blocker::Terrain(i)));
            }
            if ray.len > 2.0 * radius {
                let between = Line::new(ray.at(radius), ray.at(ray.len - radius));
                for (k, pts, bounds, area) in &areas {
                    if apart(*bounds, between.bounding_rect(), radius) {
                        continue;
                    }
                    let area = area.get_or_init(|| group_area(pts));
                    if Euclidean.distance(&between, area) < radius - EPS {
                        let near = (Euclidean.distance(&ga, area) - radius).max(0.0);
                        found.push((near, Blocker::Group(*k)));
                    }
                }
            }
            match found
                .into_iter()
                .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)))
            {
                Some((_, by)) => sight.blocked.push(Blocked { from: a, to: b, by }),
                None => {
                    // The first clear pair is the answer: the pairs after
                    // it are not traced.
                    sight.clear.get_or_insert((a, b));
                    if !every_pair {
                        return sight;
                    }
                }
            }
        }
    }
    sight
}

/// A group that may block a line of sight: its number, figures, their box
/// and its hull, made the first time a line comes near the box.
type Near<'a> = (usize, &'a [Point], Rect<f64>, OnceCell<Geometry<f64>>);

/// The box of a group's figures (of its hull), none for no figure.
fn points_box(points: &[Point]) -> Option<Rect<f64>> {
    let first = coord(*points.first()?);
    let (min, max) = points.iter().fold((first, first), |(lo, hi), &p| {
        let c = coord(p);
        (
            Coord {
                x: lo.x.min(c.x),
                y: lo.y.min(c.y),
            },
            Coord {
                x: hi.x.max(c.x),
                y: hi.y.max(c.y),
            },
        )
    });
    Some(Rect::new(min, max))
}

#[cfg(test)]
mod tests {
    use super::super::model::Barrier;
    use super::*;

    const FOOT: Mobility = Mobility::Foot;

    fn at(x: f64, y: f64) -> Point {
        Point::new((x * 100.0).round() as i32, (y * 100.0).round() as i32)
    }

    /// A rectangular feature from (x0, y0) to (x1, y1), in inches.
    fn rect(name: &str, cover: Cover, blocks: bool, soft: bool, c: [i32; 4]) -> Terrain {
        let [x0, y0, x1, y1] = c;
        Terrain {
            id: name.to_lowercase(),
            name: name.into(),
            cover,
            blocks,
            soft,
            outline: vec![
                Point::inches(x0, y0),
                Point::inches(x1, y0),
                Point::inches(x1, y1),
                Point::inches(x0, y1),
            ],
        }
    }

    fn wall(name: &str, path: Vec<Point>) -> Barrier {
        Barrier {
            id: name.to_lowercase(),
            name: name.into(),
            path,
        }
    }

    /// A 6' x 4' table.
    fn table(terrain: Vec<Terrain>, barriers: Vec<Barrier>) -> Scenario {
        Scenario {
            id: "test".into(),
            name: "Test".into(),
            description: String::new(),
            width: 7200,
            height: 4800,
            rounds: 0,
            terrain,
            barriers,
            manholes: vec![],
            zones: vec![],
            factions: vec![],
            specials: vec![],
            victories: vec![],
        }
    }

    fn wood() -> Terrain {
        rect("Copse", Cover::Cover, false, false, [10, 0, 14, 48])
    }

    #[test]
    fn move_ends_when_it_enters_a_terrain_feature() {
        let s = table(vec![wood()], vec![]);
        let plan = plan_move(&s, Point::inches(5, 10), Point::inches(13, 10), 800, FOOT).unwrap();
        assert_eq!(plan.end, at(10.25, 10.0));
        assert_eq!(plan.measured, 525);
        let stop = plan.stopped.unwrap();
        assert_eq!(stop.reason, StopReason::Entered(0));
        assert_eq!(stop.words, "entered Copse (cover)");
        // Aimed right through the wood (15" away): it still ends at the edge.
        let through = plan_move(&s, Point::inches(5, 10), Point::inches(20, 10), 800, FOOT);
        assert_eq!(through.unwrap().end, at(10.25, 10.0));
        // Short of the wood: no stop.
        let short = plan_move(&s, Point::inches(5, 10), Point::inches(9, 10), 800, FOOT).unwrap();
        assert_eq!(
            (short.end, short.measured, short.stopped),
            (Point::inches(9, 10), 400, None)
        );
    }

    #[test]
    fn move_out_of_a_feature_is_measured_from_its_edge() {
        let s = table(vec![wood()], vec![]);
        // From the near edge of a 4"-deep wood, 8" beyond the far edge: 12" in all.
        let plan = plan_move(&s, Point::inches(10, 10), Point::inches(22, 10), 800, FOOT).unwrap();
        assert_eq!(
            (plan.end, plan.measured, plan.stopped),
            (Point::inches(22, 10), 800, None)
        );
        // From inside it.
        let plan = plan_move(&s, Point::inches(11, 10), Point::inches(22, 10), 800, FOOT).unwrap();
        assert_eq!(plan.measured, 800);
        let err = plan_move(&s, Point::inches(11, 10), Point::inches(23, 10), 800, FOOT);
        assert_eq!(
            err.unwrap_err().to_string(),
            "that is 9\" away from the edge of Copse; this group moves 8\""
        );
        // Within the feature nothing is counted.
        let inside = plan_move(&s, Point::inches(11, 1), Point::inches(13, 40), 800, FOOT);
        assert_eq!(inside.unwrap().measured, 0);
    }

    #[test]
    fn a_move_that_enters_a_feature_ends_in_it_even_at_a_shallow_angle() {
        // A feature with a slanting edge, approached almost along it.
        let scree = Terrain {
            id: "scree".into(),
            name: "Scree".into(),
            cover: Cover::Cover,
            blocks: false,
            soft: false,
            outline: vec![
                Point::new(1000, 1000),
                Point::new(3000, 1700),
                Point::new(1000, 1700),
            ],
        };
        let s = table(vec![scree], vec![]);
        let mut stops = 0;
        for k in 0..200 {
            // Just above the edge (slope 0.35), closing on it at 0.3 to 0.5 degrees.
            let edge = 1035 + (k % 50) * 35 / 100;
            let from = Point::new(1100 + k % 50, edge - 3 - k % 4);
            let to = Point::new(from.x + 2000, from.y + 710 + k % 10);
            if let Ok(plan) = plan_move(&s, from, to, 4000, FOOT)
                && let Some(stop) = &plan.stopped
                && stop.reason == StopReason::Entered(0)
            {
                stops += 1;
                assert_eq!(
                    feature_at(&s, plan.end),
                    Some(0),
                    "{from:?} to {to:?}: {plan:?}"
                );
            }
        }
        assert!(stops > 100, "{stops}");
    }

    #[test]
    fn move_ends_once_it_crosses_a_linear_barrier() {
        let s = table(
            vec![],
            vec![wall(
                "Stone wall",
                vec![Point::inches(20, 0), Point::inches(20, 48)],
            )],
        );
        let plan = plan_move(&s, Point::inches(15, 10), Point::inches(23, 10), 800, FOOT).unwrap();
        assert_eq!(plan.end, at(20.5, 10.0));
        assert_eq!(plan.measured, 550);
        let stop = plan.stopped.unwrap();
        assert_eq!(stop.reason, StopReason::Crossed(0));
        assert_eq!(stop.words, "crossed Stone wall");
        // Moving on from just past it is not stopped by it again.
        let on = plan_move(&s, plan.end, Point::inches(26, 10), 800, FOOT).unwrap();
        assert_eq!((on.end, on.stopped), (Point::inches(26, 10), None));
    }

    #[test]
    fn move_further_than_the_move_distance_is_refused_in_words() {
        let s = table(vec![], vec![]);
        let err = plan_move(&s, Point::inches(5, 10), at(14.5, 10.0), 800, FOOT).unwrap_err();
        assert_eq!(err.to_string(), "that is 9.5\" away; this group moves 8\"");
        assert_eq!(
            err,
            MoveError::TooFar {
                distance: 950,
                allowance: 800,
                from_edge: None
            }
        );
        let ok = plan_move(&s, Point::inches(5, 10), Point::inches(13, 10), 800, FOOT);
        assert_eq!(ok.unwrap().measured, 800);
    }

    #[test]
    fn move_off_the_table_is_refused() {
        let s = table(vec![], vec![]);
        let err = plan_move(&s, Point::inches(2, 10), Point::inches(-1, 10), 800, FOOT);
        assert!(matches!(err, Err(MoveError::OffTable { .. })), "{err:?}");
        assert_eq!(
            err.unwrap_err().to_string(),
            "(-1\", 10\") is off the table (72\" x 48\")"
        );
        let vtol = plan_move(
            &s,
            Point::inches(70, 10),
            Point::inches(73, 10),
            5000,
            Mobility::Vtol,
        );
        assert!(vtol.is_err());
    }

    fn pond(across: i32) -> Terrain {
        rect("Pond", Cover::Open, false, true, [30, 0, 30 + across, 20])
    }

    #[test]
    fn spugs_jump_soft_going_less_than_eight_inches_across() {
        let spug = Mobility::Unhindered { jump: true };
        let s = table(vec![pond(6)], vec![]);
        let plan = plan_move(&s, Point::inches(25, 10), Point::inches(40, 10), 1600, spug).unwrap();
        assert_eq!(
            (plan.end, plan.measured, plan.stopped),
            (Point::inches(40, 10), 1500, None)
        );
        let s = table(vec![pond(10)], vec![]);
        let err = plan_move(&s, Point::inches(25, 10), Point::inches(41, 10), 1600, spug);
        assert_eq!(
            err.unwrap_err().to_string(),
            "Pond is 10\" across here; a jump clears less than 8\""
        );
        // Other terrain does not stop them.
        let s = table(vec![wood()], vec![]);
        let plan = plan_move(&s, Point::inches(5, 10), Point::inches(20, 10), 1600, spug).unwrap();
        assert_eq!((plan.end, plan.stopped), (Point::inches(20, 10), None));
    }

    #[test]
    fn reach_outline_of_spugs_stops_short_of_soft_going_too_wide_to_jump() {
        let spug = Mobility::Unhindered { jump: true };
        let from = Point::inches(25, 10);
        let s = table(vec![pond(10)], vec![]);
        let outline = reach_outline(&s, from, 1600, spug);
        assert_eq!(outline[0], Point::new(2999, 1000));
        let s = table(vec![pond(6)], vec![]);
        let outline = reach_outline(&s, from, 1600, spug);
        assert_eq!(outline[0], Point::inches(41, 10));
        // Mites stop short of the narrow one as well.
        let mite = Mobility::Unhindered { jump: false };
        let outline = reach_outline(&s, from, 2400, mite);
        assert_eq!(outline[0], Point::new(2999, 1000));
    }

    #[test]
    fn mites_cannot_cross_soft_going_at_all() {
        let mite = Mobility::Unhindered { jump: false };
        let s = table(vec![pond(6)], vec![]);
        let cross = plan_move(&s, Point::inches(25, 10), Point::inches(40, 10), 2400, mite);
        assert_eq!(
            cross.unwrap_err(),
            MoveError::SoftGoing {
                feature: "Pond".into()
            }
        );
        let into = plan_move(&s, Point::inches(25, 10), Point::inches(32, 10), 2400, mite);
        assert_eq!(
            into.unwrap_err().to_string(),
            "this group cannot enter Pond (soft going)"
        );
        // Beside the pond is fine.
        let beside = plan_move(&s, Point::inches(25, 30), Point::inches(40, 30), 2400, mite);
        assert!(beside.is_ok());
    }

    #[test]
    fn burrowers_cannot_move_on_the_surface() {
        let s = table(vec![], vec![]);
        let err = plan_move(
            &s,
            Point::inches(5, 5),
            Point::inches(6, 5),
            800,
            Mobility::Burrow,
        );
        assert_eq!(err, Err(MoveError::Burrow));
        assert!(reach_outline(&s, Point::inches(5, 5), 800, Mobility::Burrow).is_empty());
    }

    #[test]
    fn vehicles_enter_only_terrain_suitable_to_them() {
        let house = rect("Farmhouse", Cover::Building, true, false, [30, 20, 34, 24]);
        let s = table(vec![wood(), house], vec![]);
        let road = Mobility::Vehicle { off_road: false };
        let err = plan_move(&s, Point::inches(5, 10), Point::inches(12, 10), 1200, road);
        assert_eq!(
            err.unwrap_err().to_string(),
            "a road vehicle cannot enter Copse (cover; a road vehicle keeps to open terrain)"
        );
        let off_road = Mobility::Vehicle { off_road: true };
        let plan = plan_move(
            &s,
            Point::inches(5, 10),
            Point::inches(12, 10),
            1200,
            off_road,
        );
        assert_eq!(plan.unwrap().end, at(10.25, 10.0));
        let err = plan_move(
            &s,
            Point::inches(25, 22),
            Point::inches(32, 22),
            1200,
            off_road,
        );
        assert!(
            err.unwrap_err()
                .to_string()
                .contains("Farmhouse (a building)")
        );
        // The outline of a road vehicle stops short of the wood.
        let outline = reach_outline(&s, Point::inches(5, 10), 1200, road);
        assert_eq!(outline[0], Point::new(999, 1000));
    }

    /// A line of sight that stops at the first clear pair finds the same
    /// clear pair as tracing every pair, and the same blocked pairs before
    /// it (all of them, each with the same blocker, when none is clear);
    /// the box it checks a group against before making its hull is the
    /// hull's: random shooters, targets and groups in between, on an open
    /// table and on two with blocking features.
    #[test]
    fn line_of_sight_stops_at_the_first_clear_pair_and_agrees_with_every_pair_traced() {
        let layouts = [
            table(vec![], vec![]),
            table(
                vec![
                    rect("Farmhouse", Cover::Building, true, false, [12, 0, 20, 20]),
                    rect("Pond", Cover::Open, true, true, [30, 30, 33, 34]),
                    rect("Barn", Cover::Building, true, false, [24, 10, 27, 16]),
                    wood(),
                ],
                vec![],
            ),
            table(
                vec![
                    rect("Barn", Cover::Building, true, false, [2, 2, 4, 6]),
                    rect("Shed", Cover::Building, true, false, [5, 2, 6, 3]),
                    rect("Silo", Cover::Building, true, false, [20, 20, 22, 22]),
                ],
                vec![],
            ),
        ];
        let mut rng = crate::rng::SplitMix64(1085);
        let (mut clear, mut blocked, mut partly) = (0, 0, 0);
        for s in &layouts {
            let (w, h) = (s.width as u64, s.height as u64);
            for _ in 0..400 {
                let cluster = |n: usize, rng: &mut crate::rng::SplitMix64| {
                    let c = Point::new((rng.next_u64() % w) as i32, (rng.next_u64() % h) as i32);
                    (0..n)
                        .map(|_| {
                            let dx = (rng.next_u64() % 600) as i32 - 300;
                            let dy = (rng.next_u64() % 600) as i32 - 300;
                            Point::new(c.x + dx, c.y + dy)
                        })
                        .collect::<Vec<_>>()
                };
                let shooters = cluster(1 + rng.below(6), &mut rng);
                let targets = cluster(1 + rng.below(6), &mut rng);
                let others: Vec<(usize, Vec<Point>)> = (0..rng.below(6))
                    .map(|k| (k, cluster(rng.below(9), &mut rng)))
                    .collect();
                for (_, pts) in &others {
                    let hull = (!pts.is_empty()).then(|| group_area(pts).bounding_rect());
                    assert_eq!(points_box(pts), hull.flatten(), "{pts:?}");
                }
                let fast = line_of_sight(s, &shooters, &targets, &others);
                let all = trace(s, &shooters, &targets, &others, true);
                let case = format!("{shooters:?} -> {targets:?} past {others:?}");
                assert_eq!(fast.clear, all.clear, "{case}");
                if fast.clear.is_none() {
                    assert_eq!(fast.blocked, all.blocked, "{case}");
                    blocked += 1;
                } else {
                    assert_eq!(fast.blocked, all.blocked[..fast.blocked.len()], "{case}");
                    clear += 1;
                    partly += usize::from(!fast.blocked.is_empty());
                }
            }
        }
        // Each kind of case was met: clear at once, clear after blocked
        // pairs, every pair blocked.
        assert!(
            clear > 500 && blocked > 50 && partly > 50,
            "{clear} {blocked} {partly}"
        );
    }

    #[test]
    fn line_of_sight_is_blocked_by_blocking_terrain() {
        let house = rect("Farmhouse", Cover::Building, true, false, [28, 5, 32, 15]);
        let s = table(vec![wood(), house], vec![]);
        let sight = line_of_sight(&s, &[Point::inches(20, 10)], &[Point::inches(40, 10)], &[]);
        assert_eq!(sight.clear, None);
        assert_eq!(
            sight.blocked,
            vec![Blocked {
                from: Point::inches(20, 10),
                to: Point::inches(40, 10),
                by: Blocker::Terrain(1)
            }]
        );
    }

    #[test]
    fn line_of_sight_is_not_blocked_by_non_blocking_terrain() {
        let hedge = rect("Hedge", Cover::Cover, false, false, [29, 0, 30, 48]);
        let s = table(vec![hedge], vec![]);
        let sight = line_of_sight(&s, &[Point::inches(20, 10)], &[Point::inches(40, 10)], &[]);
        assert_eq!(
            sight.clear,
            Some((Point::inches(20, 10), Point::inches(40, 10)))
        );
        assert!(sight.blocked.is_empty());
    }

    #[test]
    fn line_of_sight_is_blocked_by_an_intervening_group_even_between_its_figures() {
        let s = table(vec![], vec![]);
        let shooter = [Point::inches(20, 10)];
        let target = [Point::inches(40, 10)];
        // Two figures 4" apart, the line passing through the gap between them.
        let pair = vec![(7, vec![Point::inches(30, 8), Point::inches(30, 12)])];
        let sight = line_of_sight(&s, &shooter, &target, &pair);
        assert_eq!(sight.clear, None);
        assert_eq!(sight.blocked[0].by, Blocker::Group(7));
        // A triangle of three: the hull between them blocks too.
        let three = vec![(
            3,
            vec![
                Point::inches(29, 6),
                Point::inches(31, 6),
                Point::inches(30, 14),
            ],
        )];
        let sight = line_of_sight(&s, &shooter, &target, &three);
        assert_eq!(sight.blocked[0].by, Blocker::Group(3));
        // Three in a row (a flat hull): the gap between two of them blocks.
        let row = vec![(
            5,
            vec![
                Point::inches(30, 7),
                Point::inches(30, 13),
                Point::inches(30, 16),
            ],
        )];
        let sight = line_of_sight(&s, &shooter, &target, &row);
        assert_eq!(sight.blocked[0].by, Blocker::Group(5));
        // Beyond the end of the row, the line is clear.
        let sight = line_of_sight(&s, &shooter, &[Point::inches(40, 26)], &row);
        assert!(sight.blocked.is_empty(), "{sight:?}");
        // A single figure blocks only the line through its base.
        let one = vec![(1, vec![at(30.0, 10.6)])];
        let sight = line_of_sight(&s, &shooter, &target, &one);
        assert!(sight.clear.is_some());
        let one = vec![(1, vec![at(30.0, 10.4)])];
        let sight = line_of_sight(&s, &shooter, &target, &one);
        assert!(sight.clear.is_none());
    }

    #[test]
    fn line_of_sight_is_clear_when_one_shooter_can_see_round_the_obstacle() {
        let house = rect("Farmhouse", Cover::Building, true, false, [28, 5, 32, 13]);
        let s = table(vec![house], vec![]);
        let shooters = [Point::inches(20, 10), Point::inches(20, 20)];
        let sight = line_of_sight(&s, &shooters, &[Point::inches(40, 10)], &[]);
        assert_eq!(
            sight.clear,
            Some((Point::inches(20, 20), Point::inches(40, 10)))
        );
        assert_eq!(sight.blocked.len(), 1);
        assert_eq!(sight.blocked[0].from, Point::inches(20, 10));
    }

    #[test]
    fn line_of_sight_from_inside_a_building_sees_out() {
        let house = rect("Farmhouse", Cover::Building, true, false, [18, 5, 22, 15]);
        let s = table(vec![house], vec![]);
        let sight = line_of_sight(&s, &[Point::inches(20, 10)], &[Point::inches(40, 10)], &[]);
        assert!(sight.clear.is_some());
        // And it can be seen in there.
        let sight = line_of_sight(&s, &[Point::inches(40, 10)], &[Point::inches(20, 10)], &[]);
        assert!(sight.clear.is_some());
        // But not through it from outside.
        let sight = line_of_sight(&s, &[Point::inches(10, 10)], &[Point::inches(40, 10)], &[]);
        assert!(sight.clear.is_none());
    }

    /// The shortcut's boundaries (review6 S4), each against the answer
    /// worked out by hand: a group blocks a line that passes within half a
    /// base (0.5") of its hull, measured between base edges; its box is
    /// skipped only when more than that from the line's.
    #[test]
    fn line_of_sight_group_boundaries_half_a_base_collinear_and_coincident_figures() {
        let s = table(vec![], vec![]);
        let shooter = [Point::inches(20, 10)];
        let target = [Point::inches(40, 10)];
        let blocks = |figures: Vec<Point>| {
            let sight = line_of_sight(&s, &shooter, &target, &[(4, figures.clone())]);
            let every = trace(&s, &shooter, &target, &[(4, figures)], true);
            assert_eq!(sight.clear, every.clear);
            sight.clear.is_none()
        };
        // Exactly half a base from the line: its box is not apart, the exact
        // distance is traced, and the line is clear (it only touches).
        assert!(!blocks(vec![at(30.0, 10.5)]), "0.5\" is clear");
        assert!(!blocks(vec![at(30.0, 9.5)]), "0.5\" the other side");
        // Nearer than half a base: blocked; further: its box is skipped.
        assert!(blocks(vec![at(30.0, 10.49)]), "0.49\" blocks");
        assert!(!blocks(vec![at(30.0, 10.51)]), "0.51\" is clear");
        // Three figures on a diagonal (a flat hull, the middle one removed
        // by the hull): the line through the middle blocks, and the hull's
        // ends are where its figures are.
        let diagonal = vec![at(29.0, 9.0), at(30.0, 10.0), at(31.0, 11.0)];
        assert!(blocks(diagonal.clone()));
        let beyond = [at(40.0, 11.6)];
        let past_the_end = line_of_sight(&s, &[at(20.0, 11.6)], &beyond, &[(4, diagonal.clone())]);
        assert!(past_the_end.clear.is_some(), "0.6\" beyond the last figure");
        let at_the_end = line_of_sight(&s, &[at(20.0, 11.4)], &[at(40.0, 11.4)], &[(4, diagonal)]);
        assert!(at_the_end.clear.is_none(), "0.4\" from the last figure");
        // Three figures on one point block as one figure does.
        assert!(blocks(vec![at(30.0, 10.4); 3]));
        assert!(!blocks(vec![at(30.0, 10.6); 3]));
        // Their boxes are the figures' own (the hull's corners are figures).
        for pts in [
            vec![at(30.0, 10.4); 3],
            vec![at(29.0, 9.0), at(30.0, 10.0), at(31.0, 11.0)],
        ] {
            let hull = group_area(&pts).bounding_rect();
            assert_eq!(points_box(&pts), hull);
        }
    }

    /// Review6 N2, rules version 8: two blocking features that touch are one
    /// obstacle. A line along their shared edge, or through a corner they
    /// share, squeezes through no gap and is blocked (by the first of them),
    /// as it is when the scenario draws them as one feature. A line along
    /// the wall of one building alone, or touching one corner of it, is
    /// still clear.
    #[test]
    fn line_of_sight_two_touching_buildings_are_one_obstacle_along_their_joint_and_through_their_corner()
     {
        let building = |name: &str, c: [i32; 4]| rect(name, Cover::Building, true, false, c);
        let sight = |s: &Scenario, a: Point, b: Point| line_of_sight(s, &[a], &[b], &[]);
        let (a, b) = (Point::inches(20, 5), Point::inches(20, 25));
        let side_by_side = table(
            vec![
                building("Barn", [10, 10, 20, 20]),
                building("Shed", [20, 10, 30, 20]),
            ],
            vec![],
        );
        let along = sight(&side_by_side, a, b);
        assert_eq!(along.clear, None);
        assert_eq!(
            along.blocked,
            [Blocked {
                from: a,
                to: b,
                by: Blocker::Terrain(0)
            }]
        );
        let one = table(vec![building("Barn and shed", [10, 10, 30, 20])], vec![]);
        assert_eq!(sight(&one, a, b).clear, None);
        // Off the joint by a hundredth of an inch, the line is in the barn.
        let off = Point::new(1999, 500);
        assert_eq!(
            sight(&side_by_side, off, Point::new(1999, 2500)).clear,
            None
        );
        // Along the barn's outer wall, with nothing on its other side: clear.
        let (w, v) = (Point::inches(10, 5), Point::inches(10, 25));
        assert_eq!(sight(&side_by_side, w, v).clear, Some((w, v)));
        let corner_to_corner = table(
            vec![
                building("Barn", [10, 10, 20, 20]),
                building("Shed", [20, 20, 30, 30]),
            ],
            vec![],
        );
        let (c, d) = (Point::inches(15, 25), Point::inches(25, 15));
        assert_eq!(sight(&corner_to_corner, c, d).clear, None);
        // Past the corner of one building alone it is clear.
        let lone = table(vec![building("Barn", [10, 10, 20, 20])], vec![]);
        assert_eq!(sight(&lone, c, d).clear, Some((c, d)));
    }

    #[test]
    fn base_to_base_contact_at_one_inch_not_at_one_and_a_half() {
        let a = [Point::inches(10, 10), Point::inches(5, 5)];
        assert!(in_contact(&a, &[Point::inches(11, 10)]));
        assert!(!in_contact(&a, &[at(11.5, 10.0)]));
        assert!(!in_contact(&a, &[]));
    }

    /// `place_next_to` as it was before issue 29 (session 17): every
    /// candidate of the lattice checked and listed first, `touching` brought
    /// up to date over all of them after each figure. The reference the
    /// lazy one must agree with.
    fn place_next_to_by_every_candidate(
        s: &Scenario,
        lead: Point,
        count: usize,
        avoid: &[Point],
    ) -> Vec<Point> {
        let lead_feature = feature_at(s, lead);
        let around = Around::new(s, lead, avoid);
        let candidates: Vec<Point> = lattice()
            .iter()
            .map(|&(_, o)| Point::new(lead.x + o.x, lead.y + o.y))
            .filter(|&p| around.free(p))
            .collect();
        // Whether a candidate is in the lead's feature and not across a barrier
        // from it, worked out only for the candidates the picking asks about.
        let mut preferred: Vec<Option<bool>> = vec![None; candidates.len()];
        let mut is_preferred = |i: usize| {
            *preferred[i].get_or_insert_with(|| {
                feature_at(s, candidates[i]) == lead_feature
                    && !crosses_barrier(s, lead, candidates[i])
            })
        };
        let mut used = vec![false; candidates.len()];
        // Whether a candidate is next to the lead or to a figure placed so far,
        // brought up to date as each figure is placed.
        let next_to =
            |q: Point, p: Point| !far(q, p, i64::from(SPACING + 2)) && q.distance(p) <= SPACING + 2;
        let mut touching: Vec<bool> = candidates.iter().map(|&p| next_to(lead, p)).collect();
        let mut placed: Vec<Point> = Vec::with_capacity(count);
        while placed.len() < count {
            let pick = (0..3).find_map(|pass| {
                (0..candidates.len()).find(|&i| {
                    !used[i]
                        && match pass {
                            0 => touching[i] && is_preferred(i),
                            1 => touching[i],
                            _ => true,
                        }
                })
            });
            match pick {
                Some(i) => {
                    used[i] = true;
                    let at = candidates[i];
                    placed.push(at);
                    for (t, &p) in touching.iter_mut().zip(&candidates) {
                        *t = *t || next_to(at, p);
                    }
                }
                None => break,
            }
        }
        placed
    }

    /// Issue 29 (session 17): `place_next_to` checks only the positions its
    /// picking comes to, and knows which positions touch from the lattice's
    /// own table; it places exactly as the version that checked every
    /// candidate first, whatever the terrain (blocking, soft, a barrier),
    /// the figures to avoid, the table's edges and the group's size.
    #[test]
    fn placing_the_rest_of_a_group_checks_few_candidates_and_places_as_checking_all() {
        let layouts = [
            table(vec![], vec![]),
            table(
                vec![
                    rect("Farmhouse", Cover::Building, true, false, [12, 0, 20, 20]),
                    rect("Pond", Cover::Open, true, true, [30, 30, 33, 34]),
                    wood(),
                ],
                vec![wall(
                    "Wall",
                    vec![
                        Point::inches(5, 5),
                        Point::inches(25, 25),
                        Point::inches(40, 25),
                    ],
                )],
            ),
            table(
                vec![
                    rect("Barn", Cover::Building, true, false, [2, 2, 4, 6]),
                    rect("Shed", Cover::Building, true, false, [5, 2, 6, 3]),
                ],
                vec![wall(
                    "Hedge",
                    vec![Point::inches(0, 4), Point::inches(10, 4)],
                )],
            ),
        ];
        let mut rng = crate::rng::SplitMix64(2917);
        let mut checked = 0;
        for s in &layouts {
            for _ in 0..150 {
                // Leads all over the table, a third of them near an edge or
                // a corner, some inside the features.
                let (w, h) = (s.width as u64, s.height as u64);
                let lead = match rng.below(3) {
                    0 => Point::new(
                        (rng.next_u64() % (w / 6)) as i32,
                        (rng.next_u64() % h) as i32,
                    ),
                    _ => Point::new((rng.next_u64() % w) as i32, (rng.next_u64() % h) as i32),
                };
                let avoid: Vec<Point> = (0..rng.below(12))
                    .map(|_| {
                        let dx = (rng.next_u64() % 1200) as i32 - 600;
                        let dy = (rng.next_u64() % 1200) as i32 - 600;
                        Point::new(lead.x + dx, lead.y + dy)
                    })
                    .collect();
                let count = rng.below(16);
                assert_eq!(
                    place_next_to(s, lead, count, &avoid),
                    place_next_to_by_every_candidate(s, lead, count, &avoid),
                    "lead {lead:?}, {count} figures, avoiding {avoid:?}"
                );
                checked += 1;
            }
        }
        // A lead hemmed in by figures to avoid: the touching rule is dropped
        // before giving up, as before.
        let s = &layouts[0];
        let lead = Point::inches(36, 24);
        let ring: Vec<Point> = (0..24)
            .map(|k| {
                let a = f64::from(k) * std::f64::consts::TAU / 24.0;
                Point::new(
                    lead.x + (260.0 * a.cos()) as i32,
                    lead.y + (260.0 * a.sin()) as i32,
                )
            })
            .collect();
        for count in [3, 12, 40] {
            assert_eq!(
                place_next_to(s, lead, count, &ring),
                place_next_to_by_every_candidate(s, lead, count, &ring)
            );
        }
        assert_eq!(checked, 450);
    }

    #[test]
    fn the_rest_of_the_group_is_placed_next_to_the_original_figure() {
        let house = rect("Farmhouse", Cover::Building, true, false, [12, 0, 20, 20]);
        let s = table(vec![house], vec![]);
        for lead in [
            Point::inches(10, 10),
            Point::inches(0, 0),
            Point::inches(72, 48),
        ] {
            let avoid = [Point::new(lead.x + 100, lead.y + 150)];
            let rest = place_next_to(&s, lead, 7, &avoid);
            assert_eq!(rest.len(), 7);
            let mut all = rest.clone();
            all.push(lead);
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 8, "distinct: {rest:?}");
            for &p in &rest {
                assert!(on_table(&s, p), "{p:?}");
                assert!(p.distance(lead) <= 3 * SPACING, "{p:?} near {lead:?}");
                assert!(
                    avoid
                        .iter()
                        .all(|&q| q.distance(p) > BASE + CONTACT_TOLERANCE)
                );
                assert_eq!(feature_at(&s, p), None, "not in the farmhouse: {p:?}");
                let others = rest.iter().chain([&lead]).filter(|&&q| q != p);
                assert!(others.clone().all(|&q| q.distance(p) >= BASE));
                assert!(others.clone().any(|&q| q.distance(p) <= SPACING + 2));
            }
        }
        // A lead inside the farmhouse has its group placed inside it.
        let lead = Point::inches(16, 10);
        let rest = place_next_to(&s, lead, 5, &[]);
        assert!(
            rest.iter().all(|&p| feature_at(&s, p) == Some(0)),
            "{rest:?}"
        );
    }

    #[test]
    fn falling_back_moves_a_full_move_away_and_stays_on_the_table() {
        let s = table(vec![], vec![]);
        let group = [Point::inches(2, 20), Point::inches(3, 21)];
        let back = fall_back(&s, &group, Point::inches(6, 20), 800);
        assert_eq!(back.len(), 2);
        assert!(back.iter().all(|&p| on_table(&s, p)));
        assert!(back.iter().all(|p| p.x == 0), "{back:?}");
        let group = [Point::inches(30, 20)];
        let back = fall_back(&s, &group, Point::inches(30, 25), 800);
        assert_eq!(back, vec![Point::inches(30, 12)]);
    }

    #[test]
    fn blasts_nearest_and_centre() {
        let pts = [
            Point::inches(0, 0),
            Point::inches(6, 0),
            Point::inches(5, 4),
        ];
        assert_eq!(within(Point::inches(0, 0), 600, &pts), vec![0, 1]);
        let enemies = vec![
            (4, vec![Point::inches(10, 0)]),
            (2, vec![Point::inches(0, 10)]),
            (9, vec![Point::inches(20, 20), Point::inches(3, 3)]),
        ];
        assert_eq!(nearest(&[Point::inches(0, 0)], &enemies), Some(9));
        assert_eq!(nearest(&[Point::inches(0, 0)], &enemies[..2]), Some(2));
        assert_eq!(nearest(&[], &enemies), None);
        assert_eq!(
            centre(&[Point::new(0, 0), Point::new(3, 1)]),
            Point::new(2, 1)
        );
    }

    #[test]
    fn feature_and_cover_at_a_point() {
        let s = table(vec![wood()], vec![]);
        assert_eq!(feature_at(&s, Point::inches(12, 3)), Some(0));
        assert_eq!(feature_at(&s, Point::inches(10, 3)), Some(0));
        assert_eq!(cover_at(&s, Point::inches(12, 3)), Cover::Cover);
        assert_eq!(cover_at(&s, Point::inches(9, 3)), Cover::Open);
        assert!(on_table(&s, Point::inches(72, 48)));
        assert!(!on_table(&s, Point::new(7201, 0)));
    }

    #[test]
    fn reach_outline_ends_where_moves_end() {
        let s = table(vec![wood()], vec![]);
        let from = Point::inches(5, 24);
        let outline = reach_outline(&s, from, 800, FOOT);
        assert_eq!(outline.len(), RAYS);
        // Right, into the wood: 0.25" inside it.
        assert_eq!(outline[0], at(10.25, 24.0));
        // Left: the table's edge; down: 8".
        assert_eq!(outline[36], Point::inches(0, 24));
        assert_eq!(outline[18], Point::inches(5, 32));
        for p in &outline {
            let plan = plan_move(&s, from, *p, 800, FOOT).unwrap();
            assert_eq!(plan.end, *p);
        }
    }

    #[test]
    fn results_are_identical_on_repeated_calls() {
        let house = rect("Farmhouse", Cover::Building, true, false, [28, 5, 32, 13]);
        let s = table(
            vec![wood(), house, pond(6)],
            vec![wall(
                "Wall",
                vec![Point::inches(20, 0), Point::inches(22, 48)],
            )],
        );
        let from = Point::inches(15, 30);
        for m in [
            FOOT,
            Mobility::Unhindered { jump: true },
            Mobility::Vehicle { off_road: true },
        ] {
            assert_eq!(
                reach_outline(&s, from, 1600, m),
                reach_outline(&s, from, 1600, m)
            );
            let to = Point::inches(35, 10);
            assert_eq!(
                plan_move(&s, from, to, 4000, m),
                plan_move(&s, from, to, 4000, m)
            );
        }
        let others = vec![(1, vec![Point::inches(25, 20), Point::inches(26, 21)])];
        let shooters = [Point::inches(15, 30), Point::inches(16, 30)];
        let targets = [Point::inches(40, 10), Point::inches(41, 11)];
        assert_eq!(
            line_of_sight(&s, &shooters, &targets, &others),
            line_of_sight(&s, &shooters, &targets, &others)
        );
        assert_eq!(
            place_next_to(&s, from, 11, &targets),
            place_next_to(&s, from, 11, &targets)
        );
    }
}
