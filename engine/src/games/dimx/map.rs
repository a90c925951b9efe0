//! The maps (A.1): hex geometry, terrain, roads, and lines of fire.
//!
//! Hexes are flat-topped and stand in columns; odd columns (the 2nd, 4th, ...
//! counting from 1) sit half a hex lower. Geometry is done in exact integers in
//! an affine copy of the board: a hex centre is `(3*col, 2*row + col%2)` and its
//! corners are the centre plus `(+-2, 0)` and `(+-1, +-1)`. Whether a segment
//! touches a hex is unchanged by an affine map, so these integers answer the
//! rule's question ("does the line cross inside or on the hexside of that hex?",
//! D.2) exactly, with no floating-point edge cases at corners and hexsides.
//!
//! The map never goes into the battle's recorded state: a state holds a
//! [`MapRef`], written as the map's key. A compiled-in map is parsed once per
//! process; a player's own map is parsed from the scenario file when the
//! battle is set up ([`register`]) and lives as long as a state holds it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use super::text::{Line, TextError, lines};

/// A printed hex number, 111 to 666 (three digits 1-6).
pub type Hex = u16;
/// A hex's index in its map: `col * rows + row`.
pub type Cell = u16;

/// Where a unit or path step is, as events carry it: a hex number, or for an
/// unnumbered Lava Flow hex `10000 + col*100 + row` (both counted from 1).
pub type Spot = u16;

/// Say a [`Spot`] in words: `263`, or `L7-5` for a lava hex.
pub fn spot_label(s: Spot) -> String {
    if s >= 10000 {
        format!("L{}-{}", (s - 10000) / 100, (s - 10000) % 100)
    } else {
        s.to_string()
    }
}

/// Whether a number is a hex number a map can carry (digits 1-6).
pub fn is_hex_number(n: u16) -> bool {
    (111..=666).contains(&n)
        && [n / 100, n / 10 % 10, n % 10]
            .iter()
            .all(|d| (1..=6).contains(d))
}

/// The terrain of a hex (A.1, C.1, D.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Terrain {
    Clear,
    Rough,
    Forest,
    Buildings,
    Wormhole,
    Lava,
}

impl Terrain {
    /// The terrain as the rules name it.
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Clear => "Clear",
            Terrain::Rough => "Rough",
            Terrain::Forest => "Forest",
            Terrain::Buildings => "Buildings",
            Terrain::Wormhole => "Wormhole",
            Terrain::Lava => "Lava Flow",
        }
    }
}

/// A set of cells (maps have at most 256 hexes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cells(pub [u64; 4]);

impl Cells {
    /// Add a cell.
    pub fn insert(&mut self, c: Cell) {
        self.0[usize::from(c) / 64] |= 1 << (c % 64);
    }
    /// Whether a cell is in the set.
    pub fn contains(&self, c: Cell) -> bool {
        self.0[usize::from(c) / 64] & (1 << (c % 64)) != 0
    }
    /// Whether the two sets share a cell.
    pub fn meets(&self, other: &Cells) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }
    /// The cells in the set, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..256u16).filter(|&c| self.contains(c))
    }
}

/// Most hexes a map may have (the size of [`Cells`]).
pub const MAX_CELLS: usize = 256;

/// One hex of a map.
#[derive(Clone, Debug)]
pub struct HexInfo {
    pub col: u16,
    pub row: u16,
    pub number: Option<Hex>,
    pub terrain: Terrain,
    /// Bit `d` set: a road connects this hex with `neighbours[d]` (C.1).
    pub road: u8,
    /// The six neighbours in a fixed direction order; `None` off the map.
    pub neighbours: [Option<Cell>; 6],
    /// Cube coordinates (q, r) for distances.
    q: i32,
    r: i32,
}

/// A map: Mapzone Alpha or Beta, or a player's own.
#[derive(Debug)]
pub struct Map {
    pub key: String,
    pub name: String,
    pub cols: u16,
    pub rows: u16,
    pub hexes: Vec<HexInfo>,
    by_number: Vec<Option<Cell>>,
    /// Every numbered hex with its cell, in number order.
    numbered: Vec<(Hex, Cell)>,
    /// Per source cell, the cells strictly between it and every other cell.
    between: Vec<OnceLock<Vec<Cells>>>,
    /// Forest, Buildings and Lava: block a Marine's line of fire (D.2).
    pub blocks_marines: Cells,
    /// Lava: blocks Kay'otz fire and straight-line moves (D.9, F example).
    pub lava: Cells,
    /// Forest, Rough, Buildings: -1 to Kay'otz fire through or into (D.9 a).
    pub cover: Cells,
}

/// Neighbour offsets (dcol, drow) for even and odd columns, same direction order.
const EVEN: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)];
const ODD: [(i32, i32); 6] = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)];

fn centre(col: u16, row: u16) -> (i64, i64) {
    (3 * i64::from(col), 2 * i64::from(row) + i64::from(col & 1))
}

/// The six corners of the hex at (col,row), in the units of [`centre`].
fn corners(col: u16, row: u16) -> [(i64, i64); 6] {
    let (x, y) = centre(col, row);
    [
        (x + 2, y),
        (x + 1, y + 1),
        (x - 1, y + 1),
        (x - 2, y),
        (x - 1, y - 1),
        (x + 1, y - 1),
    ]
}

fn orient(a: (i64, i64), b: (i64, i64), p: (i64, i64)) -> i64 {
    ((b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)).signum()
}

fn on_segment(a: (i64, i64), b: (i64, i64), p: (i64, i64)) -> bool {
    a.0.min(b.0) <= p.0 && p.0 <= a.0.max(b.0) && a.1.min(b.1) <= p.1 && p.1 <= a.1.max(b.1)
}

fn segments_meet(a: (i64, i64), b: (i64, i64), c: (i64, i64), d: (i64, i64)) -> bool {
    let (o1, o2, o3, o4) = (
        orient(a, b, c),
        orient(a, b, d),
        orient(c, d, a),
        orient(c, d, b),
    );
    (o1 != o2 && o3 != o4)
        || (o1 == 0 && on_segment(a, b, c))
        || (o2 == 0 && on_segment(a, b, d))
        || (o3 == 0 && on_segment(c, d, a))
        || (o4 == 0 && on_segment(c, d, b))
}

/// Whether the closed hex at (col,row) touches the segment a-b.
fn hex_touches(col: u16, row: u16, a: (i64, i64), b: (i64, i64)) -> bool {
    let k = corners(col, row);
    // Quick reject: every corner strictly on one side of the line.
    let (mut pos, mut neg) = (false, false);
    for &p in &k {
        match orient(a, b, p) {
            1 => pos = true,
            -1 => neg = true,
            _ => {
                pos = true;
                neg = true;
            }
        }
    }
    if !(pos && neg) {
        return false;
    }
    let inside = |p: (i64, i64)| {
        let (mut pos, mut neg) = (false, false);
        for i in 0..6 {
            match orient(k[i], k[(i + 1) % 6], p) {
                1 => pos = true,
                -1 => neg = true,
                _ => {}
            }
        }
        !(pos && neg)
    };
    if inside(a) || inside(b) {
        return true;
    }
    for i in 0..6 {
        if segments_meet(a, b, k[i], k[(i + 1) % 6]) {
            return true;
        }
    }
    false
}

impl Map {
    /// The cell holding hex number `n`.
    pub fn cell(&self, n: Hex) -> Option<Cell> {
        self.by_number.get(usize::from(n)).copied().flatten()
    }

    /// A hex by its cell.
    pub fn hex(&self, c: Cell) -> &HexInfo {
        &self.hexes[usize::from(c)]
    }

    /// The printed number of a cell (`None` for lava).
    pub fn number(&self, c: Cell) -> Option<Hex> {
        self.hex(c).number
    }

    /// The terrain of a hex.
    pub fn terrain(&self, c: Cell) -> Terrain {
        self.hex(c).terrain
    }

    /// A cell as events carry it.
    pub fn spot(&self, c: Cell) -> Spot {
        let h = self.hex(c);
        h.number.unwrap_or(10000 + (h.col + 1) * 100 + (h.row + 1))
    }

    /// Every numbered hex, in number order.
    pub fn numbered(&self) -> impl Iterator<Item = (Hex, Cell)> + '_ {
        self.numbered.iter().copied()
    }

    /// The hexes adjacent to a hex (fewer at the map edge).
    pub fn neighbours(&self, c: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.hex(c).neighbours.iter().flatten().copied()
    }

    /// Whether two hexes share a hexside.
    pub fn adjacent(&self, a: Cell, b: Cell) -> bool {
        self.hex(a).neighbours.contains(&Some(b))
    }

    /// Hexes between two hexes, counting the second but not the first.
    pub fn distance(&self, a: Cell, b: Cell) -> u16 {
        let (x, y) = (self.hex(a), self.hex(b));
        let dq = x.q - y.q;
        let dr = x.r - y.r;
        (dq.abs().max(dr.abs()).max((dq + dr).abs())) as u16
    }

    /// Whether a road runs directly from `a` into its neighbour `b` (C.1).
    pub fn road_connected(&self, a: Cell, b: Cell) -> bool {
        let h = self.hex(a);
        h.neighbours
            .iter()
            .position(|&n| n == Some(b))
            .is_some_and(|d| h.road & (1 << d) != 0)
    }

    /// Whether any road runs through a hex (Buildings and bridges count, C.1).
    pub fn is_road(&self, c: Cell) -> bool {
        self.hex(c).road != 0 || self.terrain(c) == Terrain::Buildings
    }

    /// The hexes a straight line between the centres of `a` and `b` crosses
    /// inside or touches on a hexside or corner, not counting `a` and `b`.
    pub fn between(&self, a: Cell, b: Cell) -> Cells {
        let row = self.between[usize::from(a)].get_or_init(|| self.between_row(a));
        row[usize::from(b)]
    }

    /// The cells of [`Map::between`], in the order the line from `a` meets
    /// them (by how far along the line each centre lies).
    pub fn between_in_order(&self, a: Cell, b: Cell) -> Vec<Cell> {
        let (ha, hb) = (self.hex(a), self.hex(b));
        let (pa, pb) = (centre(ha.col, ha.row), centre(hb.col, hb.row));
        let along = |c: Cell| {
            let h = self.hex(c);
            let p = centre(h.col, h.row);
            (p.0 - pa.0) * (pb.0 - pa.0) + (p.1 - pa.1) * (pb.1 - pa.1)
        };
        let mut out: Vec<Cell> = self.between(a, b).iter().collect();
        out.sort_by_key(|&c| (along(c), c));
        out
    }

    /// Whether the line between the centres of `a` and `b` passes through
    /// the inside of hex `c` that it meets, rather than only along one of its
    /// hexsides or through a corner: the line has corners of `c` strictly on
    /// both sides.
    pub fn crosses_inside(&self, a: Cell, b: Cell, c: Cell) -> bool {
        let (ha, hb, hc) = (self.hex(a), self.hex(b), self.hex(c));
        let (pa, pb) = (centre(ha.col, ha.row), centre(hb.col, hb.row));
        let k = corners(hc.col, hc.row);
        let sides: Vec<i64> = k.iter().map(|&p| orient(pa, pb, p)).collect();
        sides.contains(&1) && sides.contains(&-1)
    }

    fn between_row(&self, a: Cell) -> Vec<Cells> {
        let ha = self.hex(a);
        let pa = centre(ha.col, ha.row);
        (0..self.hexes.len())
            .map(|b| {
                let mut out = Cells::default();
                let hb = &self.hexes[b];
                let pb = centre(hb.col, hb.row);
                let (x0, x1) = (pa.0.min(pb.0) - 2, pa.0.max(pb.0) + 2);
                let (y0, y1) = (pa.1.min(pb.1) - 1, pa.1.max(pb.1) + 1);
                for (i, h) in self.hexes.iter().enumerate() {
                    if i == usize::from(a) || i == b {
                        continue;
                    }
                    let (x, y) = centre(h.col, h.row);
                    if x < x0 || x > x1 || y < y0 || y > y1 {
                        continue;
                    }
                    if hex_touches(h.col, h.row, pa, pb) {
                        out.insert(i as Cell);
                    }
                }
                out
            })
            .collect()
    }

    /// Centre of a hex in board units for a hex of radius `size`.
    pub fn centre_f(&self, c: Cell, size: f32) -> [f32; 2] {
        let h = self.hex(c);
        let w = size * 1.5;
        let hh = size * 3f32.sqrt();
        [
            size + w * f32::from(h.col),
            hh / 2.0 + hh * (f32::from(h.row) + 0.5 * f32::from(h.col & 1)),
        ]
    }

    /// Parse a map file (format in RULES.md, "Map files").
    pub fn parse(text: &str) -> Result<Map, TextError> {
        Map::parse_lines(&lines(text)?, None)
    }

    /// Parse map statements already split into lines (a scenario file may
    /// carry its own map); `key` names the map when no `map` line does.
    pub fn parse_lines(ls: &[Line], key: Option<String>) -> Result<Map, TextError> {
        let mut key = key;
        let mut name = None;
        let mut grid: Option<(u16, u16)> = None;
        let mut rows_seen: Vec<Option<Vec<HexToken>>> = Vec::new();
        let mut roads: Vec<&Line> = Vec::new();
        for l in ls {
            match l.words[0].as_str() {
                "map" => {
                    key = Some(l.word(1, "a map key")?.to_owned());
                    l.at_most(2)?;
                }
                "name" | "map_name" => {
                    name = Some(l.words[1..].join(" "));
                }
                "grid" => {
                    let c = l.number(1, "number of columns", 1, 99)? as u16;
                    let r = l.number(2, "number of rows", 1, 99)? as u16;
                    l.at_most(3)?;
                    if usize::from(c) * usize::from(r) > MAX_CELLS {
                        return Err(l.err(format!(
                            "a map may have at most {MAX_CELLS} hexes, {c} x {r} is {}",
                            c * r
                        )));
                    }
                    grid = Some((c, r));
                    rows_seen = vec![None; usize::from(r)];
                }
                "row" => {
                    let (cols, nrows) =
                        grid.ok_or_else(|| l.err("'grid' must come before the rows"))?;
                    let r = l.number(1, "row number", 1, i64::from(nrows))? as usize;
                    if rows_seen[r - 1].is_some() {
                        return Err(l.err(format!("row {r} is given twice")));
                    }
                    let toks = &l.words[2..];
                    if toks.len() != usize::from(cols) {
                        return Err(l.err(format!(
                            "row {r} has {} hexes but the grid has {cols} columns",
                            toks.len()
                        )));
                    }
                    let mut row = Vec::new();
                    for t in toks {
                        row.push(parse_hex_token(t).map_err(|m| l.err(m))?);
                    }
                    rows_seen[r - 1] = Some(row);
                }
                "road" => roads.push(l),
                other => return Err(l.err(format!("unknown map statement '{other}'"))),
            }
        }
        let key = key.ok_or(TextError {
            line: 0,
            message: "the map file has no 'map' line naming it".into(),
        })?;
        let (cols, nrows) = grid.ok_or(TextError {
            line: 0,
            message: "the map file has no 'grid' line".into(),
        })?;
        let mut hexes = Vec::new();
        let mut by_number = vec![None; 667];
        for col in 0..cols {
            for row in 0..nrows {
                let Some(r) = &rows_seen[usize::from(row)] else {
                    return Err(TextError {
                        line: 0,
                        message: format!("row {} is missing", row + 1),
                    });
                };
                let (number, terrain) = r[usize::from(col)];
                let cell = hexes.len() as Cell;
                if let Some(n) = number {
                    if by_number[usize::from(n)].is_some() {
                        return Err(TextError {
                            line: 0,
                            message: format!("hex {n} appears twice on the map"),
                        });
                    }
                    by_number[usize::from(n)] = Some(cell);
                }
                let offs = if col & 1 == 0 { EVEN } else { ODD };
                let mut neighbours = [None; 6];
                for (d, (dc, dr)) in offs.iter().enumerate() {
                    let (nc, nr) = (i32::from(col) + dc, i32::from(row) + dr);
                    if nc >= 0 && nr >= 0 && nc < i32::from(cols) && nr < i32::from(nrows) {
                        neighbours[d] = Some((nc as u16) * nrows + nr as u16);
                    }
                }
                let q = i32::from(col);
                let r = i32::from(row) - (q - (q & 1)) / 2;
                hexes.push(HexInfo {
                    col,
                    row,
                    number,
                    terrain,
                    road: 0,
                    neighbours,
                    q,
                    r,
                });
            }
        }
        let mut map = Map {
            key,
            name: name.unwrap_or_default(),
            cols,
            rows: nrows,
            between: (0..hexes.len()).map(|_| OnceLock::new()).collect(),
            hexes,
            numbered: by_number
                .iter()
                .enumerate()
                .filter_map(|(n, c)| c.map(|c| (n as Hex, c)))
                .collect(),
            by_number,
            blocks_marines: Cells::default(),
            lava: Cells::default(),
            cover: Cells::default(),
        };
        for l in roads {
            let mut prev: Option<Cell> = None;
            for w in &l.words[1..] {
                let c = map.parse_ref(w).map_err(|m| l.err(m))?;
                if let Some(p) = prev {
                    let d = map
                        .hex(p)
                        .neighbours
                        .iter()
                        .position(|&n| n == Some(c))
                        .ok_or_else(|| {
                            l.err(format!(
                                "road step from {} to {w} is not between adjacent hexes",
                                map.label(p)
                            ))
                        })?;
                    let back = map
                        .hex(c)
                        .neighbours
                        .iter()
                        .position(|&n| n == Some(p))
                        .unwrap_or(0);
                    map.hexes[usize::from(p)].road |= 1 << d;
                    map.hexes[usize::from(c)].road |= 1 << back;
                }
                prev = Some(c);
            }
        }
        for (i, h) in map.hexes.iter().enumerate() {
            let c = i as Cell;
            match h.terrain {
                Terrain::Forest => {
                    map.blocks_marines.insert(c);
                    map.cover.insert(c);
                }
                Terrain::Buildings => {
                    map.blocks_marines.insert(c);
                    map.cover.insert(c);
                }
                Terrain::Lava => {
                    map.blocks_marines.insert(c);
                    map.lava.insert(c);
                }
                Terrain::Rough => map.cover.insert(c),
                Terrain::Clear | Terrain::Wormhole => {}
            }
        }
        Ok(map)
    }

    /// A hex named in a file: its number, or `L<col>-<row>` for lava.
    pub fn parse_ref(&self, w: &str) -> Result<Cell, String> {
        if let Some(rest) = w.strip_prefix('L') {
            let (c, r) = rest
                .split_once('-')
                .and_then(|(c, r)| Some((c.parse::<u16>().ok()?, r.parse::<u16>().ok()?)))
                .ok_or_else(|| {
                    format!("'{w}' is not a hex (lava hexes are written L<column>-<row>)")
                })?;
            if c == 0 || r == 0 || c > self.cols || r > self.rows {
                return Err(format!("'{w}' is off the map"));
            }
            return Ok((c - 1) * self.rows + (r - 1));
        }
        let n: u16 = w
            .parse()
            .map_err(|_| format!("'{w}' is not a hex number"))?;
        self.cell(n).ok_or_else(|| {
            if is_hex_number(n) {
                format!("hex {n} is not on {}", self.name)
            } else {
                format!("{n} is not a hex number (hexes are 111 to 666, each digit 1 to 6)")
            }
        })
    }

    /// A cell in words: its number or `L<col>-<row>`.
    pub fn label(&self, c: Cell) -> String {
        spot_label(self.spot(c))
    }
}

/// A hex as a map file writes it: its number (none for lava) and terrain.
type HexToken = (Option<Hex>, Terrain);

fn parse_hex_token(t: &str) -> Result<HexToken, String> {
    if t == "~" {
        return Ok((None, Terrain::Lava));
    }
    // The number is the first three characters; a token of a player's file
    // may hold any character, so cut at a character, not at byte 3.
    let cut = t.char_indices().nth(3).map_or(t.len(), |(i, _)| i);
    let (num, code) = t.split_at(cut);
    let n: u16 = num.parse().map_err(|_| {
        format!("'{t}' is not a hex: write a number and a terrain code, e.g. 263F, or ~ for lava")
    })?;
    if !is_hex_number(n) {
        return Err(format!(
            "{n} is not a hex number (hexes are 111 to 666, each digit 1 to 6)"
        ));
    }
    let terrain = match code {
        "." | "" => Terrain::Clear,
        "F" => Terrain::Forest,
        "R" => Terrain::Rough,
        "B" => Terrain::Buildings,
        "W" => Terrain::Wormhole,
        other => {
            return Err(format!(
                "unknown terrain code '{other}' in '{t}' (use . F R B W, or ~ for lava)"
            ));
        }
    };
    Ok((Some(n), terrain))
}

/// The map with this key among those compiled in (`alpha`, `beta`).
pub fn builtin(key: &str) -> Option<&'static Map> {
    static ALPHA: OnceLock<Map> = OnceLock::new();
    static BETA: OnceLock<Map> = OnceLock::new();
    // Invariant: the compiled-in map files are checked by the tests in this
    // module; a broken file is a build defect, not a user error.
    match key {
        "alpha" => Some(ALPHA.get_or_init(|| {
            Map::parse(include_str!("../../../data/dimx/map_alpha.txt"))
                .expect("map_alpha.txt parses")
        })),
        "beta" => Some(BETA.get_or_init(|| {
            Map::parse(include_str!("../../../data/dimx/map_beta.txt"))
                .expect("map_beta.txt parses")
        })),
        _ => None,
    }
}

/// The map a state is played on: compiled in, or a player's own. Written
/// (JSON, postcard) as the map's key, so a state's bytes and hash are those
/// of its key; read back only while that map is loaded (its battle's scenario
/// read first, as loading a battle does).
#[derive(Clone)]
pub enum MapRef {
    Builtin(&'static Map),
    Own(Arc<Map>),
}

impl MapRef {
    /// The map's key: `alpha`, `beta`, or a player's map's name and digest.
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl std::ops::Deref for MapRef {
    type Target = Map;
    fn deref(&self) -> &Map {
        match self {
            MapRef::Builtin(m) => m,
            MapRef::Own(m) => m,
        }
    }
}

impl PartialEq for MapRef {
    /// The same key is the same map: a player's map's key carries a digest
    /// of its text.
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for MapRef {}

impl std::fmt::Debug for MapRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.key, f)
    }
}

impl serde::Serialize for MapRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.key)
    }
}

impl<'de> serde::Deserialize<'de> for MapRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let key = String::deserialize(d)?;
        find(&key).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "this battle is played on the map '{key}', which is not loaded"
            ))
        })
    }
}

/// Players' maps by key, held weakly: a map lives while a state or a
/// scenario holds it, and the same map (the same key) is shared meanwhile.
struct Registry {
    maps: HashMap<String, Weak<Map>>,
    /// Forget dead entries when the table grows to this size.
    sweep_at: usize,
}

fn registry() -> &'static Mutex<Registry> {
    static OWN: OnceLock<Mutex<Registry>> = OnceLock::new();
    OWN.get_or_init(|| {
        Mutex::new(Registry {
            maps: HashMap::new(),
            sweep_at: 64,
        })
    })
}

/// A player's map, shared with any state already holding a map of the same
/// key (the same text).
pub fn register(map: Map) -> MapRef {
    let mut r = registry()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(m) = r.maps.get(&map.key).and_then(Weak::upgrade) {
        return MapRef::Own(m);
    }
    if r.maps.len() >= r.sweep_at {
        r.maps.retain(|_, m| m.strong_count() > 0);
        r.sweep_at = (2 * r.maps.len()).max(64);
    }
    let m = Arc::new(map);
    r.maps.insert(m.key.clone(), Arc::downgrade(&m));
    MapRef::Own(m)
}

/// How many players' maps are held by some state or scenario now.
pub fn own_maps_loaded() -> usize {
    let r = registry()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    r.maps.values().filter(|m| m.strong_count() > 0).count()
}

/// A compiled-in map, or a player's map some state or scenario holds.
pub fn find(key: &str) -> Option<MapRef> {
    builtin(key).map(MapRef::Builtin).or_else(|| {
        let r = registry()
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        r.maps.get(key).and_then(Weak::upgrade).map(MapRef::Own)
    })
}

/// The keys of the maps compiled in.
pub const BUILTIN_MAPS: [&str; 2] = ["alpha", "beta"];

#[cfg(test)]
mod tests {
    use super::*;

    fn a() -> &'static Map {
        builtin("alpha").unwrap()
    }

    fn c(n: Hex) -> Cell {
        a().cell(n).unwrap()
    }

    #[test]
    fn a_hex_token_with_a_multibyte_character_in_its_first_three_bytes_is_refused_without_panicking()
     {
        // Found by the fuzzer (fuzz/regressions/data_dimx): `split_at(3)` cut
        // inside the character and panicked on a player's map or scenario file.
        for t in ["2\u{e9}3F", "26\u{fffd}", "\u{1f47d}", "263\u{e9}"] {
            let e = parse_hex_token(t).unwrap_err();
            assert!(e.contains(t), "{e}");
        }
        let text =
            include_str!("../../../data/dimx/map_alpha.txt").replacen("132F", "1\u{e9}2F", 1);
        let e = Map::parse(&text).unwrap_err();
        assert!(e.to_string().contains("is not a hex"), "{e}");
    }

    #[test]
    fn a1_both_maps_number_216_hexes_111_to_666_and_the_rest_is_lava() {
        for key in BUILTIN_MAPS {
            let m = builtin(key).unwrap();
            assert_eq!(m.numbered().count(), 216, "{key}");
            for d1 in 1..=6u16 {
                for d2 in 1..=6u16 {
                    for d3 in 1..=6u16 {
                        assert!(
                            m.cell(d1 * 100 + d2 * 10 + d3).is_some(),
                            "{key} lacks a hex"
                        );
                    }
                }
            }
            for h in &m.hexes {
                assert_eq!(h.number.is_none(), h.terrain == Terrain::Lava, "{key}");
            }
        }
    }

    #[test]
    fn example_hexes_are_adjacent_as_the_examples_need() {
        let m = a();
        for (x, y) in [
            (263, 326),
            (326, 325),
            (325, 352),
            (326, 352),
            (352, 353),
            (353, 415),
            (353, 421),
            (353, 331),
            (314, 313),
            (314, 245),
            (314, 246),
        ] {
            assert!(m.adjacent(c(x), c(y)), "{x} next to {y}");
        }
        assert_eq!(m.distance(c(263), c(415)), 4);
    }

    #[test]
    fn lines_of_fire_touching_a_hexside_count_that_hex() {
        let m = a();
        // 263 to 421 runs along hexsides: it touches hexes on both sides.
        let b = m.between(c(263), c(421));
        let forest: Vec<_> = b
            .iter()
            .filter(|&x| m.terrain(x) == Terrain::Forest)
            .collect();
        assert!(
            forest.len() >= 2,
            "the Forest hexes of the movement example"
        );
        assert!(b.contains(c(331)) && b.contains(c(326)) && b.contains(c(353)));
        // adjacent hexes have nothing between them
        assert_eq!(m.between(c(353), c(421)), Cells::default());
    }

    #[test]
    fn bad_map_files_name_the_line() {
        let e = Map::parse("map x\ngrid 2 1\nrow 1 111. 112Q\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("unknown terrain code 'Q'"), "{e}");
        let e = Map::parse("map x\ngrid 2 1\nrow 1 111. 777.\n").unwrap_err();
        assert!(e.message.contains("777 is not a hex number"), "{e}");
        let e = Map::parse("map x\ngrid 3 1\nrow 1 111. 112. 113.\nroad 111 113\n").unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("not between adjacent hexes"), "{e}");
    }

    #[test]
    fn roads_connect_only_along_their_line() {
        let m = a();
        assert!(m.road_connected(c(263), c(326)));
        assert!(m.road_connected(c(326), c(263)));
        assert!(!m.road_connected(c(326), c(352)));
        assert!(m.is_road(c(352)));
    }

    #[test]
    fn a_players_map_is_shared_while_held_and_forgotten_once_no_state_holds_it() {
        let own = |n: usize| {
            Map::parse(&format!("map own-test-{n}\ngrid 2 1\nrow 1 111. 112.\n")).unwrap()
        };
        let first = register(own(0));
        let second = register(own(0));
        let (MapRef::Own(a), MapRef::Own(b)) = (&first, &second) else {
            panic!("a player's map is not compiled in");
        };
        assert!(Arc::ptr_eq(a, b), "the same map twice is kept once");
        assert_eq!(
            find("own-test-0").map(|m| m.key().to_owned()),
            Some("own-test-0".into())
        );
        drop((first, second));
        assert!(
            find("own-test-0").is_none(),
            "no state holds it: it is gone"
        );
        // Thousands of maps loaded and let go leave a table of bounded size
        // (other tests may hold a few maps of their own meanwhile).
        for n in 1..=5_000 {
            drop(register(own(n)));
        }
        let held = registry().lock().unwrap().maps.len();
        assert!(held < 1_000, "{held} entries kept for maps no state holds");
    }
}
