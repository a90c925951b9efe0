//! Position files: a battle of Alien Invasion that starts from a given
//! moment (a battle begun at a real table and continued in Xenolog, a
//! moment to study, a test) instead of the scenario's deployment. Given on
//! the command line with `battle --game invasion --scenario-file FILE` (the
//! config's `scenario_text`): a file whose first statement is `position` is
//! a position file, any other a scenario file ([`super::data`]).
//!
//! The file names a shipped scenario and its forces and then only what
//! differs from their deployment, so a small change is a small file. One
//! statement a line, words split as in the data files (`"double quotes"`
//! hold spaces), `#` starts a comment, points in inches from the top left
//! corner (up to two decimals):
//!
//! ```text
//! position SCENARIO               # required, first: a shipped scenario by id or name
//! factions FACTION ...            # the seats' factions by id or name (default: the
//!                                 # battle's, or the scenario's)
//! round N                         # rounds drawn so far (default 0: before the first draw)
//! cards CARD ...                  # this round's cards in the order drawn
//! playing N                       # the card being played, 1 = the first (default 1)
//! deck CARD ...                   # the Action deck, top card first (default: every card
//!                                 # not elsewhere, shuffled from the seed at the next draw)
//! discard CARD ...                # the discard pile (default: every card not elsewhere,
//!                                 # when the deck is given; else this round's played cards)
//! group GROUP [at X Y | table] [below [X Y]] [climbing] [reserve] [carried GROUP] [dead N]
//!       [facing DEG] [kills N] [suppressed] [waiting [assault]] [fearless] [height H]
//! figure FIGURE [at X Y] [dead] [kills N]
//! melee GROUP GROUP ... [defends GROUP open|cover|building] [below]
//! kills FACTION N                 # enemy figures the faction has killed
//! killed SPECIES ...              # alien species killed so far (the MiB may study them)
//! studied SPECIES ...             # species the MiB have studied with success
//! achieved FACTION SPECIAL        # a scenario's special action achieved
//! holes X Y X Y ...               # the Spug holes on the table (instead of the deployed ones)
//! holes_left FACTION N            # Spug holes a faction may still dig
//! ```
//!
//! Names are the players': a faction by its id (`unit`), its name
//! (`U.N.I.T.`) or its seat (1 first); a group by its name (`"Dalek Patrol
//! Alpha"`), its faction and file id (`daleks-d1`) or its number in the
//! commands (`4`); a figure by its id (`daleks-d1-2`) or its name when no
//! other figure has it. A card is `FACTION:single`, `FACTION:double`,
//! `FACTION:triple` (`unit:double`, `"U.N.I.T.:double"`, `1:double`) or
//! `special`. A group's `at` puts its first living figure there and the
//! others next to it, as a move does (a `figure ... at` line places one
//! figure exactly); at a real table figures have no points and `table`
//! puts a group on the table; `below` puts it below the table (in the sewers or
//! tunnelling), at the point given; `climbing`: it has spent one of the two
//! actions to climb out; `carried GROUP`: aboard that Burrower or vehicle;
//! `dead N`: its last N living figures are casualties. `suppressed`,
//! `waiting`, `fearless` and `height` need their Advanced Invasion Earth
//! module. The cards of the deck, the discard pile and this round must make
//! up the battle's deck exactly (each faction's Single, Double and Triple
//! cards and the Special Event cards); a file that says otherwise is
//! refused. Every line is checked; a bad one is refused naming its line and
//! what is wrong, and nothing of it is played.

use super::InvasionConfig;
use super::advanced::Module;
use super::data;
use super::model::{Cover, INCH, Point};
use super::rules::make_deck;
use super::state::{Card, CardKind, GroupId, InvasionState, Melee, Place};
use super::table;
use crate::game::SetupError;
use crate::games::words::words;

const REAL_TABLE: &str = "this battle is played at a real table, where figures have no points: say 'table' for a group on it";

/// The first statement of a position file.
pub const KEYWORD: &str = "position";

/// Whether the text is a position file (its first statement is `position`).
pub fn is_position(text: &str) -> bool {
    text.lines()
        .filter_map(|l| words(l).ok())
        .find(|w| !w.is_empty())
        .is_some_and(|w| w[0].eq_ignore_ascii_case(KEYWORD))
}

fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

fn fail(line: usize, message: impl std::fmt::Display) -> SetupError {
    if line == 0 {
        SetupError(format!("the position file is not valid: {message}"))
    } else {
        SetupError(format!(
            "the position file is not valid: line {line}: {message}"
        ))
    }
}

/// The lines of the file with their words, blank lines left out.
fn statements(text: &str) -> Result<Vec<(usize, Vec<String>)>, SetupError> {
    if text.len() > data::MAX_FILE_BYTES {
        return Err(fail(
            0,
            format!("it is longer than {} bytes", data::MAX_FILE_BYTES),
        ));
    }
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.chars().count() > data::MAX_LINE_CHARS {
            return Err(fail(i + 1, "the line is too long"));
        }
        let w = words(raw).map_err(|m| fail(i + 1, m))?;
        if !w.is_empty() {
            out.push((i + 1, w));
        }
    }
    Ok(out)
}

/// The config a position file's battle is set up from: the battle's own,
/// with the file's scenario and factions.
pub fn config(base: &InvasionConfig, text: &str) -> Result<InvasionConfig, SetupError> {
    let lines = statements(text)?;
    let Some((line, first)) = lines.first() else {
        return Err(fail(0, "it is empty"));
    };
    if !same(&first[0], KEYWORD) {
        return Err(fail(
            *line,
            "a position file begins with 'position SCENARIO'",
        ));
    }
    let Some(name) = first.get(1) else {
        return Err(fail(
            *line,
            "the scenario is missing after 'position' (a shipped scenario's id or name)",
        ));
    };
    let scenario = data::SCENARIOS
        .iter()
        .filter_map(|(id, _)| data::scenario(id))
        .find(|s| same(&s.id, name) || same(&s.name, name))
        .ok_or_else(|| {
            let known: Vec<&str> = data::SCENARIOS.iter().map(|s| s.0).collect();
            fail(
                *line,
                format!(
                    "there is no scenario '{name}' (shipped: {})",
                    known.join(", ")
                ),
            )
        })?;
    if first.len() > 2 {
        return Err(fail(*line, "'position' takes one scenario"));
    }
    let mut config = InvasionConfig {
        scenario: scenario.id.clone(),
        scenario_text: None,
        ..base.clone()
    };
    let own: Vec<_> = base
        .faction_texts
        .iter()
        .filter_map(|t| data::parse_faction(t).ok())
        .collect();
    let mut seen = false;
    for (line, w) in &lines[1..] {
        if !same(&w[0], "factions") {
            continue;
        }
        if seen {
            return Err(fail(*line, "'factions' is given twice"));
        }
        seen = true;
        if w.len() < 3 {
            return Err(fail(
                *line,
                "'factions' names two factions or more, a seat each",
            ));
        }
        let mut ids = Vec::new();
        for name in &w[1..] {
            let id = own
                .iter()
                .chain(data::FACTIONS.iter().filter_map(|(id, _)| data::faction(id)).collect::<Vec<_>>().iter())
                .find(|f| same(&f.id, name) || same(&f.name, name))
                .map(|f| f.id.clone())
                .ok_or_else(|| {
                    let known: Vec<&str> = data::FACTIONS.iter().map(|f| f.0).collect();
                    fail(
                        *line,
                        format!(
                            "there is no faction '{name}' (shipped: {}; or give your own faction file)",
                            known.join(", ")
                        ),
                    )
                })?;
            ids.push(id);
        }
        config.factions = ids;
    }
    Ok(config)
}

/// The battle's state at the moment the position file gives.
pub fn start(base: &InvasionConfig, text: &str) -> Result<InvasionState, SetupError> {
    let config = config(base, text)?;
    let mut s = super::start(&config)?;
    let lines = statements(text)?;
    let mut p = Setter::default();
    for (line, w) in &lines[1..] {
        p.statement(&mut s, *line, w).map_err(|m| fail(*line, m))?;
    }
    p.finish(&mut s)?;
    Ok(s)
}

#[derive(Default)]
struct Setter {
    round: Option<(usize, u32)>,
    cards: Option<(usize, Vec<Card>)>,
    playing: Option<(usize, usize)>,
    deck: Option<(usize, Vec<Card>)>,
    discard: Option<(usize, Vec<Card>)>,
    holes: bool,
}

type Said<T> = Result<T, String>;

/// Inches with up to two decimals, as hundredths.
fn inches(w: &str) -> Option<i32> {
    let (neg, body) = match w.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, w),
    };
    let (whole, frac) = body.split_once('.').unwrap_or((body, ""));
    if whole.is_empty()
        || whole.len() > 5
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || (body.contains('.') && (frac.is_empty() || frac.len() > 2))
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let mut n: i32 = whole.parse::<i32>().ok()? * INCH;
    if !frac.is_empty() {
        let f: i32 = frac.parse().ok()?;
        n += if frac.len() == 1 { f * 10 } else { f };
    }
    Some(if neg { -n } else { n })
}

fn number(w: &[String], i: usize, what: &str) -> Said<u32> {
    let word = w.get(i).ok_or_else(|| format!("{what} is missing"))?;
    word.parse::<u32>()
        .ok()
        .filter(|n| *n <= 100_000)
        .ok_or_else(|| format!("{what} '{word}' is not a whole number"))
}

fn point(s: &InvasionState, w: &[String], i: usize, what: &str) -> Said<Point> {
    let (Some(x), Some(y)) = (w.get(i), w.get(i + 1)) else {
        return Err(format!("{what} needs two numbers, X and Y in inches"));
    };
    let (Some(px), Some(py)) = (inches(x), inches(y)) else {
        return Err(format!(
            "{what} '{x} {y}' is not a point (X and Y in inches, up to two decimals, like 12.5 30)"
        ));
    };
    if px < 0 || py < 0 || px > s.scenario.width || py > s.scenario.height {
        return Err(format!(
            "{what} {x} {y} is off the table ({} by {} inches)",
            s.scenario.width / INCH,
            s.scenario.height / INCH
        ));
    }
    Ok(Point::new(px, py))
}

/// A faction's seat by id, name or seat number (1 first).
fn seat_named(s: &InvasionState, w: &str) -> Said<u8> {
    if let Ok(n) = w.parse::<usize>() {
        return (1..=s.factions.len())
            .contains(&n)
            .then(|| (n - 1) as u8)
            .ok_or_else(|| format!("there is no seat {n} (1 to {})", s.factions.len()));
    }
    let found: Vec<u8> = (0..s.factions.len() as u8)
        .filter(|&i| same(&s.faction(i).id, w) || same(&s.faction(i).name, w))
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "no faction in this battle is called '{w}' (it has {})",
            s.factions
                .iter()
                .map(|f| f.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => Err(format!(
            "two seats have the faction '{w}': name the seat by its number"
        )),
    }
}

/// A group by its name, its `faction-id` key or its number.
pub fn group_named(s: &InvasionState, w: &str) -> Said<GroupId> {
    if let Ok(n) = w.parse::<usize>() {
        return (n < s.groups.len())
            .then_some(n as GroupId)
            .ok_or_else(|| format!("there is no group {n} (0 to {})", s.groups.len() - 1));
    }
    let key = format!("{w}-1");
    let found: Vec<GroupId> = (0..s.groups.len() as GroupId)
        .filter(|&g| {
            let group = s.group(g);
            same(&group.name, w) || group.models.first().is_some_and(|m| same(&m.id, &key))
        })
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "there is no group '{w}' (a group is named like \"Dalek Patrol Alpha\" or daleks-d1)"
        )),
        _ => Err(format!(
            "'{w}' names more than one group: use its key, like daleks-d1"
        )),
    }
}

/// A figure by its id, or its name when no other figure has it.
fn figure_named(s: &InvasionState, w: &str) -> Said<(GroupId, usize)> {
    let mut found = Vec::new();
    for (g, group) in s.groups.iter().enumerate() {
        for (i, m) in group.models.iter().enumerate() {
            if same(&m.id, w) {
                return Ok((g as GroupId, i));
            }
            if same(&m.name, w) {
                found.push((g as GroupId, i));
            }
        }
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "there is no figure '{w}' (a figure is named by its id, like daleks-d1-2)"
        )),
        _ => Err(format!(
            "'{w}' names more than one figure: use its id, like daleks-d1-2"
        )),
    }
}

fn card_named(s: &InvasionState, w: &str) -> Said<Card> {
    if same(w, "special") || same(w, "joker") {
        return Ok(Card {
            seat: None,
            kind: CardKind::Special,
        });
    }
    let Some((who, kind)) = w.rsplit_once(':') else {
        return Err(format!(
            "'{w}' is not a card (a card is FACTION:single, FACTION:double, FACTION:triple or special)"
        ));
    };
    let kind = match kind.to_ascii_lowercase().as_str() {
        "single" => CardKind::Single,
        "double" => CardKind::Double,
        "triple" => CardKind::Triple,
        _ => {
            return Err(format!(
                "'{w}': a faction's card is single, double or triple"
            ));
        }
    };
    Ok(Card {
        seat: Some(seat_named(s, who)?),
        kind,
    })
}

fn card_words(s: &InvasionState, c: Card) -> String {
    match c.seat {
        Some(seat) => format!("{} {}", s.faction(seat).name, c.kind.word()),
        None => "Special Event".into(),
    }
}

fn module(s: &InvasionState, m: Module, what: &str) -> Said<()> {
    if s.advanced.on(m) {
        Ok(())
    } else {
        Err(format!(
            "'{what}' needs the Advanced Invasion Earth module {} (the battle option {})",
            m.name(),
            m.key()
        ))
    }
}

impl Setter {
    fn statement(&mut self, s: &mut InvasionState, line: usize, w: &[String]) -> Said<()> {
        let once = |slot: bool, what: &str| -> Said<()> {
            if slot {
                Err(format!("'{what}' is given twice"))
            } else {
                Ok(())
            }
        };
        match w[0].to_ascii_lowercase().as_str() {
            "position" => Err("'position' is given twice".into()),
            "factions" => Ok(()),
            "round" => {
                once(self.round.is_some(), "round")?;
                let n = number(w, 1, "the round")?;
                if s.scenario.rounds > 0 && n > s.scenario.rounds {
                    return Err(format!(
                        "round {n} is past the scenario's last round ({})",
                        s.scenario.rounds
                    ));
                }
                self.round = Some((line, n));
                Ok(())
            }
            "cards" | "deck" | "discard" => {
                let list = w[1..]
                    .iter()
                    .map(|c| card_named(s, c))
                    .collect::<Said<Vec<Card>>>()?;
                let slot = match w[0].to_ascii_lowercase().as_str() {
                    "cards" => &mut self.cards,
                    "deck" => &mut self.deck,
                    _ => &mut self.discard,
                };
                once(slot.is_some(), &w[0])?;
                *slot = Some((line, list));
                Ok(())
            }
            "playing" => {
                once(self.playing.is_some(), "playing")?;
                let n = number(w, 1, "the card being played")?;
                if n == 0 {
                    return Err("the first card is 1".into());
                }
                self.playing = Some((line, n as usize));
                Ok(())
            }
            "group" => self.group(s, w),
            "figure" => figure(s, w),
            "melee" => melee(s, w),
            "kills" => {
                let seat = seat_named(s, w.get(1).ok_or("the faction is missing")?)?;
                s.kills[seat as usize] = number(w, 2, "the kills")?;
                Ok(())
            }
            "killed" | "studied" => {
                let list: Vec<String> = w[1..].iter().map(|x| x.to_ascii_lowercase()).collect();
                for sp in &list {
                    let known = s
                        .factions
                        .iter()
                        .flat_map(|f| f.models.iter())
                        .any(|m| same(&m.species, sp));
                    if !known {
                        return Err(format!("no figure in this battle is of the species '{sp}'"));
                    }
                }
                let list = list.into_iter().map(crate::Ident::from).collect();
                if w[0].eq_ignore_ascii_case("killed") {
                    s.killed_species = list;
                } else {
                    s.studied = list;
                }
                Ok(())
            }
            "achieved" => {
                let seat = seat_named(s, w.get(1).ok_or("the faction is missing")?)?;
                let id = w.get(2).ok_or("the special action is missing")?;
                let sp = s
                    .scenario
                    .specials
                    .iter()
                    .find(|x| same(&x.id, id) || same(&x.name, id))
                    .ok_or_else(|| format!("the scenario has no special action '{id}'"))?;
                let id = sp.id.clone();
                if !s.achieved.iter().any(|(x, a)| *x == seat && *a == id) {
                    s.achieved.push((seat, id));
                }
                Ok(())
            }
            "holes" => {
                once(self.holes, "holes")?;
                self.holes = true;
                if w.len().is_multiple_of(2) {
                    return Err("'holes' takes points, X and Y in inches each".into());
                }
                let mut holes = Vec::new();
                for i in (1..w.len()).step_by(2) {
                    holes.push(point(s, w, i, "a hole")?);
                }
                s.holes = holes;
                Ok(())
            }
            "holes_left" => {
                let seat = seat_named(s, w.get(1).ok_or("the faction is missing")?)?;
                let n = number(w, 2, "the holes left")?.min(255) as u8;
                match s.holes_left.iter_mut().find(|(x, _)| *x == seat) {
                    Some(e) => e.1 = n,
                    None => return Err(format!("{} dig no holes", s.faction(seat).name)),
                }
                Ok(())
            }
            other => Err(format!(
                "unknown statement '{other}' (position, factions, round, cards, playing, deck, discard, group, figure, melee, kills, killed, studied, achieved, holes, holes_left)"
            )),
        }
    }

    fn group(&mut self, s: &mut InvasionState, w: &[String]) -> Said<()> {
        let g = group_named(s, w.get(1).ok_or("the group is missing")?)?;
        let gi = g as usize;
        let mut i = 2;
        while i < w.len() {
            let word = w[i].to_ascii_lowercase();
            i += 1;
            match word.as_str() {
                "at" => {
                    if s.real_table {
                        return Err(REAL_TABLE.into());
                    }
                    let to = point(s, w, i, "'at'")?;
                    i += 2;
                    let avoid: Vec<Point> = s
                        .groups
                        .iter()
                        .enumerate()
                        .filter(|(o, x)| *o != gi && x.place == Place::Table)
                        .flat_map(|(_, x)| x.points())
                        .collect();
                    let n = s.groups[gi].alive_count();
                    let rest = table::place_next_to(&s.scenario, to, n.saturating_sub(1), &avoid);
                    if rest.len() + 1 < n {
                        return Err(format!(
                            "there is no room for the group's {n} figures around {} {}",
                            w[i - 2],
                            w[i - 1]
                        ));
                    }
                    let mut pts = std::iter::once(to).chain(rest);
                    let group = &mut s.groups[gi];
                    for m in group.models.iter_mut().filter(|m| m.alive) {
                        m.at = pts.next();
                    }
                    group.place = Place::Table;
                    group.below_at = None;
                    group.climbing = 0;
                }
                "table" => {
                    if !s.real_table {
                        return Err(
                            "on screen a group on the table needs its point: 'at X Y'".into()
                        );
                    }
                    let group = &mut s.groups[gi];
                    group.place = Place::Table;
                    group.below_at = None;
                    group.climbing = 0;
                    for m in &mut group.models {
                        m.at = None;
                    }
                }
                "below" => {
                    let at = if w.get(i).is_some_and(|x| inches(x).is_some()) {
                        let p = point(s, w, i, "'below'")?;
                        i += 2;
                        Some(p)
                    } else {
                        None
                    };
                    if at.is_none() && !s.real_table {
                        return Err("'below' needs the point it is under (X Y) on screen".into());
                    }
                    let group = &mut s.groups[gi];
                    group.place = Place::Below;
                    group.below_at = at;
                    for m in &mut group.models {
                        m.at = None;
                    }
                }
                "climbing" => {
                    if s.groups[gi].place != Place::Below {
                        return Err(
                            "'climbing' is for a group below the table (say 'below' first)".into(),
                        );
                    }
                    s.groups[gi].climbing = 1;
                }
                "reserve" => {
                    s.groups[gi].place = Place::Reserve;
                    for m in &mut s.groups[gi].models {
                        m.at = None;
                    }
                }
                "carried" => {
                    let by =
                        group_named(s, w.get(i).ok_or("'carried' needs the group carrying it")?)?;
                    i += 1;
                    if by == g || s.group(by).seat != s.group(g).seat {
                        return Err("a group is carried by another group of its own faction".into());
                    }
                    s.groups[gi].place = Place::Carried(by);
                    for m in &mut s.groups[gi].models {
                        m.at = None;
                    }
                }
                "dead" => {
                    let n = number(w, i, "'dead'")? as usize;
                    i += 1;
                    let alive = s.groups[gi].alive_count();
                    if n > alive {
                        return Err(format!("'dead {n}': the group has {alive} figures alive"));
                    }
                    let group = &mut s.groups[gi];
                    for m in group.models.iter_mut().filter(|m| m.alive).skip(alive - n) {
                        m.alive = false;
                    }
                }
                "facing" => {
                    let d = w
                        .get(i)
                        .and_then(|x| x.parse::<i32>().ok())
                        .ok_or("'facing' needs whole degrees")?;
                    i += 1;
                    if s.groups[gi].facing.is_none() {
                        return Err("only a ground vehicle has a facing".into());
                    }
                    s.groups[gi].facing = Some(d.rem_euclid(360));
                }
                "kills" => {
                    s.groups[gi].kills = number(w, i, "'kills'")?;
                    i += 1;
                }
                "suppressed" => {
                    module(s, Module::Suppression, "suppressed")?;
                    if !s.advanced.suppressed.contains(&g) {
                        s.advanced.suppressed.push(g);
                    }
                }
                "waiting" => {
                    module(s, Module::LayingInWait, "waiting")?;
                    let assault = w.get(i).is_some_and(|x| same(x, "assault"));
                    if assault {
                        i += 1;
                    }
                    s.advanced.waiting.retain(|(x, _)| *x != g);
                    s.advanced.waiting.push((g, assault));
                }
                "fearless" => {
                    module(s, Module::Fear, "fearless")?;
                    if !s.advanced.fearless.contains(&g) {
                        s.advanced.fearless.push(g);
                    }
                }
                "height" => {
                    module(s, Module::Fly, "height")?;
                    let h = w
                        .get(i)
                        .and_then(|x| inches(x))
                        .ok_or("'height' needs inches")?;
                    i += 1;
                    if !(2 * INCH..=30 * INCH).contains(&h) {
                        return Err("a flying group is 2 to 30 inches above the table".into());
                    }
                    s.advanced.heights.retain(|(x, _)| *x != g);
                    s.advanced.heights.push((g, h));
                }
                other => {
                    return Err(format!(
                        "'{other}' is not something a group line says (at, table, below, climbing, reserve, carried, dead, facing, kills, suppressed, waiting, fearless, height)"
                    ));
                }
            }
        }
        let group = &mut s.groups[gi];
        if group.alive_count() == 0 {
            group.place = Place::Gone;
            group.locked = None;
        } else if group.place == Place::Gone {
            group.place = Place::Table;
        }
        Ok(())
    }

    /// The cards, the deck and the discard pile, checked against the
    /// battle's deck; the other checks of the whole file.
    fn finish(&self, s: &mut InvasionState) -> Result<(), SetupError> {
        let round = self.round.map(|(_, r)| r);
        if let Some((line, cards)) = &self.cards {
            let n = s.factions.len().max(4);
            if cards.is_empty() || cards.len() > n {
                return Err(fail(
                    *line,
                    format!("a round draws {n} cards, and 'cards' names {}", cards.len()),
                ));
            }
            if round == Some(0) {
                return Err(fail(*line, "round 0 has no cards: give 'round 1' or later"));
            }
            s.round = round.unwrap_or(1);
            s.drawn = cards.clone();
            s.current = match self.playing {
                Some((pl, k)) if k > cards.len() => {
                    return Err(fail(
                        pl,
                        format!("'playing {k}': the round has {} cards", cards.len()),
                    ));
                }
                Some((_, k)) => k - 1,
                None => 0,
            };
        } else {
            if let Some((pl, _)) = self.playing {
                return Err(fail(pl, "'playing' needs this round's 'cards'"));
            }
            s.round = round.unwrap_or(0);
        }
        // The battle's cards, and where each is now.
        let all = make_deck(s);
        let played: Vec<Card> = s.drawn[..s.current].to_vec();
        let to_play: Vec<Card> = s.drawn[s.current..].to_vec();
        let less = |from: &[Card], take: &[Card]| -> Vec<Card> {
            let mut left = from.to_vec();
            for c in take {
                if let Some(i) = left.iter().position(|x| x == c) {
                    left.remove(i);
                }
            }
            left
        };
        let (deck, discard, shuffled) = match (&self.deck, &self.discard) {
            (Some((_, d)), Some((_, p))) => (d.iter().rev().copied().collect(), p.clone(), true),
            (Some((_, d)), None) => {
                let rest = less(&less(&all, d), &to_play);
                (d.iter().rev().copied().collect::<Vec<_>>(), rest, true)
            }
            (None, p) => {
                let pile = p.as_ref().map_or(played.clone(), |(_, p)| p.clone());
                let mut rest = less(&less(&all, &pile), &to_play);
                rest.sort_unstable();
                if rest.len() == all.len() {
                    // Every card in the deck: the deck is made up and
                    // shuffled at the first draw, as the setup leaves it.
                    rest.clear();
                }
                // Shuffled from the seed at the next draw (an empty deck:
                // the discard pile is shuffled then, as the rules do).
                let shuffled = rest.is_empty() && (s.round > 0 || !pile.is_empty());
                (rest, pile, shuffled)
            }
        };
        if self.deck.is_some() || self.discard.is_some() || self.cards.is_some() {
            let line = [&self.deck, &self.discard, &self.cards]
                .iter()
                .filter_map(|x| x.as_ref().map(|(l, _)| *l))
                .max()
                .unwrap_or(0);
            let mut have: Vec<Card> = deck
                .iter()
                .chain(&discard)
                .chain(&to_play)
                .copied()
                .collect();
            have.sort_unstable();
            let mut want = all.clone();
            want.sort_unstable();
            if have != want {
                let mut kinds = want.clone();
                kinds.extend(have.iter().copied());
                kinds.sort_unstable();
                kinds.dedup();
                let count = |v: &[Card], c: Card| v.iter().filter(|x| **x == c).count();
                let c = kinds
                    .into_iter()
                    .find(|&c| count(&have, c) != count(&want, c))
                    .unwrap_or(Card {
                        seat: None,
                        kind: CardKind::Special,
                    });
                return Err(fail(
                    line,
                    format!(
                        "the deck, the discard pile and this round's cards still to play hold {} {} cards; the battle's deck has {} (the cards already played this round are in the discard pile)",
                        count(&have, c),
                        card_words(s, c),
                        count(&want, c)
                    ),
                ));
            }
        }
        s.deck = deck;
        s.discard = discard;
        s.shuffled = shuffled;
        // Groups below the table need the sewers (or a Burrower's tunnel).
        for (g, group) in s.groups.iter().enumerate() {
            if group.place == Place::Below && !s.sewers && !s.is_worm(g as GroupId) {
                return Err(fail(
                    0,
                    format!(
                        "{} is below the table, and the battle is not played with the sewers (the battle option sewers)",
                        group.name
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn figure(s: &mut InvasionState, w: &[String]) -> Said<()> {
    let (g, i) = figure_named(s, w.get(1).ok_or("the figure is missing")?)?;
    let mut k = 2;
    while k < w.len() {
        let word = w[k].to_ascii_lowercase();
        k += 1;
        match word.as_str() {
            "at" => {
                if s.real_table {
                    return Err(REAL_TABLE.into());
                }
                let to = point(s, w, k, "'at'")?;
                k += 2;
                if s.group(g).place != Place::Table {
                    return Err(format!(
                        "{} is not on the table (its group's line says where it is)",
                        s.group(g).models[i].name
                    ));
                }
                s.groups[g as usize].models[i].at = Some(to);
            }
            "dead" => {
                let group = &mut s.groups[g as usize];
                group.models[i].alive = false;
                if group.alive_count() == 0 {
                    group.place = Place::Gone;
                    group.locked = None;
                }
            }
            "kills" => {
                s.groups[g as usize].models[i].kills = number(w, k, "'kills'")?;
                k += 1;
            }
            other => {
                return Err(format!(
                    "'{other}' is not something a figure line says (at, dead, kills)"
                ));
            }
        }
    }
    Ok(())
}

fn melee(s: &mut InvasionState, w: &[String]) -> Said<()> {
    let mut groups: Vec<GroupId> = Vec::new();
    let mut defender = None;
    let mut below = false;
    let mut k = 1;
    while k < w.len() {
        let word = &w[k];
        k += 1;
        if same(word, "below") {
            below = true;
        } else if same(word, "defends") {
            let d = group_named(s, w.get(k).ok_or("'defends' needs a group and its cover")?)?;
            let cover = match w.get(k + 1).map(|x| x.to_ascii_lowercase()).as_deref() {
                Some("open") => Cover::Open,
                Some("cover") => Cover::Cover,
                Some("building") => Cover::Building,
                _ => return Err("'defends GROUP' is followed by open, cover or building".into()),
            };
            k += 2;
            defender = Some((d, cover));
        } else {
            let g = group_named(s, word)?;
            if groups.contains(&g) {
                return Err(format!("{} is named twice", s.group(g).name));
            }
            groups.push(g);
        }
    }
    if let Some((d, _)) = defender
        && !groups.contains(&d)
    {
        groups.push(d);
    }
    let mut seats: Vec<u8> = groups.iter().map(|&g| s.group(g).seat).collect();
    seats.sort_unstable();
    seats.dedup();
    if seats.len() < 2 {
        return Err("a melee is between groups of two factions or more".into());
    }
    for &g in &groups {
        let group = s.group(g);
        let at = if below { Place::Below } else { Place::Table };
        if group.alive_count() == 0 || group.place != at {
            return Err(format!(
                "{} is not {} (a group line before says where it is)",
                group.name,
                if below {
                    "below the table"
                } else {
                    "on the table"
                }
            ));
        }
        if group.locked.is_some() {
            return Err(format!("{} is already in a melee", group.name));
        }
    }
    let id = s.next_melee;
    for &g in &groups {
        s.groups[g as usize].locked = Some(id);
    }
    s.melees.push(Melee {
        id,
        groups,
        defender,
        below,
    });
    s.next_melee += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::inches;

    #[test]
    fn inches_take_up_to_two_decimals() {
        assert_eq!(inches("7.5"), Some(750));
        assert_eq!(inches("7.25"), Some(725));
        assert_eq!(inches("12"), Some(1200));
        for bad in ["7.", ".5", "7.255", "x", "", "1e3"] {
            assert_eq!(inches(bad), None, "{bad}");
        }
    }
}
