//! Helpers shared by the Alien Invasion integration tests (included with
//! `#[path]`): a proving-ground table, a state set up and then adjusted
//! (cards, positions), commands given as JSON through `rules::decide` and
//! `state::apply`, the log in words.
#![allow(dead_code)]

#[path = "game.rs"]
mod game;

use xenolog_engine::games::invasion::model::{INCH, Point};
use xenolog_engine::games::invasion::state::{Card, CardKind, GroupId, Pending, Place};
use xenolog_engine::games::invasion::{
    Invasion, InvasionCommand, InvasionConfig, InvasionEvent, InvasionState, rules, start,
};
use xenolog_engine::rng::Randomness;
use xenolog_engine::{Actor, Game, RuleError};

/// The proving ground: a 48" x 48" table with one of each kind of terrain.
///
/// - `house`: a building that blocks sight, (30,30)-(36,36);
/// - `wood`: cover that blocks sight, (4,30)-(10,36);
/// - `field`: cover that does not block sight, (40,4)-(46,10);
/// - `marsh`: soft going, open, (20,40)-(30,44) (4" deep, 10" wide);
/// - `wall`: a linear barrier from (2,24) to (14,24);
/// - manholes at (40,20) and (40,28).
pub const GROUND: &str = r#"
scenario "Proving ground"
table 48 48
terrain house "House" building blocks at 30 30  36 30  36 36  30 36
terrain wood  "Wood"  cover blocks    at 4 30  10 30  10 36  4 36
terrain field "Cornfield" cover       at 40 4  46 4  46 10  40 10
terrain marsh "Marsh" open soft       at 20 40  30 40  30 44  20 44
barrier wall "Wall" at 2 24  14 24
manhole 40 20
manhole 40 28
zone 0 0 48 3
zone 0 45 48 48
zone 0 3 3 45
zone 45 3 48 45
special dig "Dig up the relic" at 24 24 reach 2
victory all last_standing "Be the last faction on the table"
"#;

/// A battle on the proving ground between these factions (by id), seat 0
/// first, every group parked in a row along its seat's edge of the table.
pub fn given(factions: &[&str]) -> InvasionState {
    given_with(factions, false, false)
}

pub fn given_with(factions: &[&str], sewers: bool, real_table: bool) -> InvasionState {
    let config = InvasionConfig {
        scenario: String::new(),
        scenario_text: Some(GROUND.to_owned()),
        factions: factions.iter().map(|f| (*f).to_owned()).collect(),
        faction_texts: Vec::new(),
        real_table,
        sewers,
        rosters: Vec::new(),
        ..InvasionConfig::default()
    };
    let mut s = start(&config).unwrap_or_else(|e| panic!("setup: {e}"));
    if !real_table {
        park(&mut s);
    }
    s
}

/// A battle on the proving ground between these factions (by id, seat 0
/// first), with these faction texts beside the shipped ones and these
/// options on, each by its config key (`"fear"`, `"laying_in_wait"` ...; a
/// key the config does not have is refused).
pub fn ground_config(factions: &[&str], texts: &[&str], on: &[&str]) -> InvasionConfig {
    let keys: serde_json::Map<String, serde_json::Value> =
        on.iter().map(|k| ((*k).to_owned(), true.into())).collect();
    let options: InvasionConfig =
        serde_json::from_value(keys.into()).unwrap_or_else(|e| panic!("options {on:?}: {e}"));
    InvasionConfig {
        scenario_text: Some(GROUND.to_owned()),
        factions: factions.iter().map(|f| (*f).to_owned()).collect(),
        faction_texts: texts.iter().map(|t| (*t).to_owned()).collect(),
        ..options
    }
}

/// Given: that battle (as `ground_config`) set up, every group parked in a
/// row along its seat's edge (as `given`).
pub fn given_on_ground(factions: &[&str], texts: &[&str], on: &[&str]) -> InvasionState {
    let mut s = start(&ground_config(factions, texts, on)).unwrap_or_else(|e| panic!("setup: {e}"));
    park(&mut s);
    s
}

/// `base` with every Advanced Invasion Earth module switched on.
pub fn with_every_module(base: InvasionConfig) -> InvasionConfig {
    InvasionConfig {
        stupidity: true,
        fear: true,
        assumed_profiles: true,
        suppression: true,
        observers: true,
        sighting: true,
        laying_in_wait: true,
        grapple: true,
        impetuous: true,
        primitive_weapons: true,
        buildings: true,
        unstoppable: true,
        fly: true,
        advanced_assault: true,
        ..base
    }
}

/// The groups asked to choose a point, in the queue's order.
pub fn asked_points(s: &InvasionState) -> Vec<GroupId> {
    s.pending
        .iter()
        .filter_map(|p| match p {
            Pending::Point { group, .. } => Some(*group),
            _ => None,
        })
        .collect()
}

/// A group below the table (in the sewers) under `(x, y)` inches.
pub fn below(s: &mut InvasionState, g: GroupId, x: f64, y: f64) {
    let group = &mut s.groups[g as usize];
    group.place = Place::Below;
    group.below_at = Some(pt(x, y));
    for m in &mut group.models {
        m.at = None;
    }
}

/// The group of this id below the table under `(x, y)` inches; its number.
pub fn below_at(s: &mut InvasionState, id: &str, x: f64, y: f64) -> GroupId {
    let g = gid(s, id);
    below(s, g, x, y);
    g
}

/// U.N.I.T. section A below the manhole at (40,20) and Spug squad two
/// below at (40,28); a Special Event card is next.
pub fn given_a_meeting_below(real_table: bool) -> (InvasionState, GroupId, GroupId) {
    let mut s = given_with(&["unit", "spugs"], true, real_table);
    let (sec, sq) = (gid(&s, "s1"), gid(&s, "sq2"));
    below(&mut s, sec, 40.0, 20.0);
    below(&mut s, sq, 40.0, 28.0);
    cards(
        &mut s,
        &[(None, CardKind::Special), (Some(0), CardKind::Single)],
    );
    (s, sec, sq)
}

/// Every group on the table in a row along its seat's edge, out of the way.
pub fn park(s: &mut InvasionState) {
    let mut along = [3 * INCH; 4];
    for g in 0..s.groups.len() {
        let seat = s.groups[g].seat as usize;
        if s.groups[g].place != Place::Table {
            continue;
        }
        for m in s.groups[g].models.iter_mut() {
            let t = along[seat];
            m.at = Some(match seat {
                0 => Point::new(t, 50),
                1 => Point::new(t, 48 * INCH - 50),
                2 => Point::new(50, t),
                _ => Point::new(48 * INCH - 50, t),
            });
            along[seat] += 110;
        }
        along[seat] += 100;
    }
}

/// The group of this name's id (`s1`, `d1`, `sq1` ...): its number.
pub fn gid(s: &InvasionState, id: &str) -> GroupId {
    s.groups
        .iter()
        .position(|g| {
            g.models
                .first()
                .is_some_and(|m| m.id.split('-').nth(1) == Some(id))
        })
        .unwrap_or_else(|| panic!("no group {id}")) as GroupId
}

/// Put a group's living figures in a row to the right of `(x, y)` (inches),
/// 1.1" apart: a compact group.
pub fn place(s: &mut InvasionState, g: GroupId, x: f64, y: f64) {
    let x0 = (x * f64::from(INCH)).round() as i32;
    let y0 = (y * f64::from(INCH)).round() as i32;
    let group = &mut s.groups[g as usize];
    group.place = Place::Table;
    for (i, m) in group.models.iter_mut().filter(|m| m.alive).enumerate() {
        m.at = Some(Point::new(x0 + 110 * i as i32, y0));
    }
}

/// Given: the groups of a position, written `"s1 at 20,20; d1 at 20,26.5; s2"`:
/// each group by its id (as `gid`), placed as `place` places it (its lead at
/// `(x, y)` inches, the rest in a row to its right) or, without `at`, only
/// named; their numbers in the order written. A clause test then states its
/// position in one line.
pub fn placed<const N: usize>(s: &mut InvasionState, position: &str) -> [GroupId; N] {
    let entries: Vec<&str> = position.split(';').map(str::trim).collect();
    assert_eq!(
        entries.len(),
        N,
        "{position:?} names {} groups, not {N}",
        entries.len()
    );
    std::array::from_fn(|i| {
        let (id, at) = match entries[i].split_once(" at ") {
            Some((id, at)) => (id.trim(), Some(at)),
            None => (entries[i], None),
        };
        let g = gid(s, id);
        if let Some(at) = at {
            let (x, y) = at
                .split_once(',')
                .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)))
                .unwrap_or_else(|| panic!("{position:?}: {id} at {at:?} is not x,y"));
            place(s, g, x, y);
        }
        g
    })
}

/// Given: a battle of these factions (as `given`) in this position (as
/// `placed`): the state and the groups' numbers.
pub fn given_at<const N: usize>(
    factions: &[&str],
    position: &str,
) -> (InvasionState, [GroupId; N]) {
    let mut s = given(factions);
    let groups = placed(&mut s, position);
    (s, groups)
}

/// Put one figure at `(x, y)` inches.
pub fn put(s: &mut InvasionState, g: GroupId, model: usize, x: f64, y: f64) {
    s.groups[g as usize].models[model].at = Some(pt(x, y));
}

pub fn pt(x: f64, y: f64) -> Point {
    Point::new(
        (x * f64::from(INCH)).round() as i32,
        (y * f64::from(INCH)).round() as i32,
    )
}

/// Kill figures outright (to set up a weakened group).
pub fn kill(s: &mut InvasionState, g: GroupId, count: usize) {
    for m in s.groups[g as usize]
        .models
        .iter_mut()
        .filter(|m| m.alive)
        .take(count)
    {
        m.alive = false;
    }
}

/// Then group `g` is `place` (on the table, in the air, below) and has
/// spent `actions` actions of the card being played.
pub fn assert_place(s: &InvasionState, g: GroupId, place: Place, actions: u8) {
    assert_eq!((s.group(g).place, s.spent_by(g)), (place, actions));
}

/// Given U.N.I.T. and the Daleks at a real table (every group parked), a
/// card of `kind` of the Daleks (seat 1) being played: section A and Dalek
/// Patrol Alpha.
pub fn daleks_at_a_real_table(kind: CardKind) -> (InvasionState, GroupId, GroupId) {
    let mut s = given_with(&["unit", "daleks"], false, true);
    let [sec, dal] = placed(&mut s, "s1; d1");
    card(&mut s, 1, kind);
    (s, sec, dal)
}

/// The round's cards are these, the first being played now.
pub fn cards(s: &mut InvasionState, list: &[(Option<u8>, CardKind)]) {
    s.drawn = list
        .iter()
        .map(|&(seat, kind)| Card { seat, kind })
        .collect();
    s.current = 0;
    s.spent.clear();
    s.mites_moved = false;
    s.moved.clear();
}

/// The round's cards are these seats' (none a Special Event), the first
/// being played now: `seat_cards(&mut s, &[(1, CardKind::Double), (0, CardKind::Single)])`.
pub fn seat_cards(s: &mut InvasionState, list: &[(u8, CardKind)]) {
    let list: Vec<(Option<u8>, CardKind)> = list
        .iter()
        .map(|&(seat, kind)| (Some(seat), kind))
        .collect();
    cards(s, &list);
}

/// One card of `seat` being played now.
pub fn card(s: &mut InvasionState, seat: u8, kind: CardKind) {
    cards(s, &[(Some(seat), kind)]);
}

pub fn cmd(json: &str) -> InvasionCommand {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("bad command {json}: {e}"))
}

/// Every event in words, each against the state before it.
pub fn words_from(before: &InvasionState, events: &[InvasionEvent]) -> Vec<String> {
    game::words_of::<Invasion>(before, events)
}

/// A played command: its events and their words.
pub struct Played {
    pub events: Vec<InvasionEvent>,
    pub words: Vec<String>,
}

impl Played {
    pub fn says(&self, text: &str) -> bool {
        self.words.iter().any(|w| w.contains(text))
    }

    pub fn assert_says(&self, text: &str) {
        assert!(self.says(text), "no line says {text:?}: {:#?}", self.words);
    }

    /// Whether any event is one `is` picks out.
    pub fn any(&self, is: impl Fn(&InvasionEvent) -> bool) -> bool {
        self.events.iter().any(is)
    }

    /// How many events are ones `is` picks out.
    pub fn count(&self, is: impl Fn(&InvasionEvent) -> bool) -> usize {
        self.events.iter().filter(|e| is(e)).count()
    }
}

/// Give a command (seat `actor`, or `255` for the game itself) with entered
/// dice (none: the seed's stream); apply its events.
pub fn try_play(
    s: &mut InvasionState,
    actor: u8,
    json: &str,
    dice: &[u8],
) -> Result<Played, RuleError> {
    try_play_cmd(s, actor, &cmd(json), dice)
}

pub fn try_play_cmd(
    s: &mut InvasionState,
    actor: u8,
    c: &InvasionCommand,
    dice: &[u8],
) -> Result<Played, RuleError> {
    let entered = (!dice.is_empty()).then(|| dice.to_vec());
    let before = s.clone();
    let events = game::decide_and_apply::<Invasion>(s, Actor(actor), c, 7, entered)?;
    let words = words_from(&before, &events);
    Ok(Played { events, words })
}

/// A command that must be accepted.
pub fn play(s: &mut InvasionState, actor: u8, json: &str, dice: &[u8]) -> Played {
    try_play(s, actor, json, dice).unwrap_or_else(|e| panic!("{json} refused: {e}"))
}

/// A command that must be refused; the refusal (it changes nothing).
pub fn refused(s: &mut InvasionState, actor: u8, json: &str, dice: &[u8]) -> RuleError {
    let before = s.clone();
    match try_play(s, actor, json, dice) {
        Ok(p) => panic!("{json} was accepted: {:#?}", p.words),
        Err(e) => {
            assert_eq!(*s, before, "a refused command changes nothing");
            e
        }
    }
}

/// The refusal's words, clause first: "[Shoot] ...".
pub fn refusal(e: &RuleError) -> String {
    format!("[{}] {}", e.clause.clone().unwrap_or_default(), e.message)
}

/// The game's own step, with entered dice if any.
pub fn step(s: &mut InvasionState, dice: &[u8]) -> Played {
    let c = Invasion::automatic(s).expect("a step of the game is due");
    try_play_cmd(s, Actor::SYSTEM.0, &c, dice).unwrap_or_else(|e| panic!("step refused: {e}"))
}

/// Every step of the game's own that is due (random dice), in words.
pub fn steps(s: &mut InvasionState) -> Vec<String> {
    let mut out = Vec::new();
    let mut n = 0;
    while let Some(c) = Invasion::automatic(s) {
        let p = try_play_cmd(s, Actor::SYSTEM.0, &c, &[]).expect("step");
        out.extend(p.words);
        n += 1;
        assert!(n < 100, "steps do not stop");
    }
    out
}

/// Whether `legal` lists this command now.
pub fn is_legal(s: &InvasionState, json: &str) -> bool {
    let c = cmd(json);
    Invasion::legal(s).iter().any(|(_, x)| *x == c)
}

/// Every command `legal` lists is accepted by `decide` (random dice).
pub fn assert_legal_accepted(s: &InvasionState) {
    for (actor, c) in Invasion::legal(s) {
        let mut rng = Randomness::new(3, 0, None);
        if let Err(e) = rules::decide(s, actor, &c, &mut rng) {
            panic!("legal lists {c:?} but decide refuses it: {e}");
        }
    }
}

pub fn alive(s: &InvasionState, g: GroupId) -> usize {
    s.groups[g as usize].alive_count()
}

/// The living figure ids of a group.
pub fn figures(s: &InvasionState, g: GroupId) -> Vec<String> {
    s.groups[g as usize]
        .alive()
        .map(|m| String::from(&m.id))
        .collect()
}

pub fn lead_at(s: &InvasionState, g: GroupId) -> Point {
    s.groups[g as usize].alive().next().unwrap().at.unwrap()
}

/// The moves offered to this group, as JSON.
pub fn offered_moves(s: &InvasionState, g: GroupId) -> Vec<String> {
    Invasion::legal(s)
        .into_iter()
        .map(|(_, c)| serde_json::to_string(&c).unwrap())
        .filter(|j| j.contains("\"move\"") && j.contains(&format!("\"group\":{g},")))
        .collect()
}
