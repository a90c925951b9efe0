//! Scenarios: the three shipped with Xenolog (assumed: the text names them but
//! does not give them) and players' own scenario files, in one line format
//! (RULES.md, "Scenario files"). A scenario file can describe any moment of a
//! battle: units on hexes with their sides and markers, the chits left in the
//! cup, the turn, the pools, and even a chit sheet of the player's own.

use std::sync::OnceLock;

use super::chits::{self, Chit};
use super::map::{self, Hex, Map};
use super::state::{Cond, DimxState, Phase, Side, Victory};
use super::text::{Line, TextError, lines};
use super::units::{self, AlienKind, AlienPlace, Condition, Goal, MarineKind, Place, Weapon};

/// A scenario ready to play.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub description: String,
    pub state: DimxState,
}

/// The scenarios compiled in: id and file text. The first is the default.
pub const BUILTIN: [(&str, &str); 3] = [
    (
        "alpha",
        include_str!("../../../data/dimx/scenario_alpha.txt"),
    ),
    ("beta", include_str!("../../../data/dimx/scenario_beta.txt")),
    (
        "campaign",
        include_str!("../../../data/dimx/scenario_campaign.txt"),
    ),
];

/// The built-in scenarios, parsed once.
pub fn builtin() -> &'static [Scenario] {
    static ALL: OnceLock<Vec<Scenario>> = OnceLock::new();
    // Invariant: the compiled-in scenario files are checked by the tests below.
    ALL.get_or_init(|| {
        BUILTIN
            .iter()
            .map(|(id, text)| {
                parse(text, id, false).unwrap_or_else(|e| panic!("scenario {id}: {e}"))
            })
            .collect()
    })
}

/// Most ADM markers, and most Mission Goal chits, a scenario may have.
pub const MAX_PILE: usize = 200;

/// Statements of a map of the player's own inside a scenario file.
const MAP_WORDS: [&str; 4] = ["map_name", "grid", "row", "road"];

const STEP_WORDS: [&str; 10] = [
    "rush",
    "fire",
    "advance",
    "warp",
    "summon",
    "wake",
    "shut_down",
    "capture",
    "draw_another",
    "nothing",
];

fn side(l: &Line, i: usize) -> Result<Side, TextError> {
    match l.word(i, "a side (marines or kayotz)")? {
        "marines" => Ok(Side::Marines),
        "kayotz" => Ok(Side::Kayotz),
        other => Err(l.err(format!("'{other}' is not a side (marines or kayotz)"))),
    }
}

fn hex(l: &Line, i: usize, m: &Map) -> Result<Hex, TextError> {
    let w = l.word(i, "a hex number")?;
    let c = m.parse_ref(w).map_err(|e| l.err(e))?;
    m.number(c)
        .ok_or_else(|| l.err(format!("{w} is a Lava Flow hex: no unit may stand there")))
}

fn conds(l: &Line, from: usize, m: &Map) -> Result<Vec<Cond>, TextError> {
    let mut out = Vec::new();
    let mut i = from;
    while i < l.words.len() {
        let w = l.words[i].as_str();
        let (c, used) = match w {
            "eliminated" => (
                Cond::Eliminated(l.number(i + 1, "number of Kay'otz units", 0, 99)? as u8),
                2,
            ),
            "overlord_eliminated" => (Cond::OverlordEliminated, 1),
            "monolith_shut_down" => (Cond::MonolithShutDown, 1),
            "exited" => (
                Cond::Exited(l.number(i + 1, "number of Marine units", 0, 99)? as u8),
                2,
            ),
            "no_active_marines" => (Cond::NoActiveMarines, 1),
            "aliens_at_most" => (
                Cond::AliensAtMost(l.number(i + 1, "number of Kay'otz units", 0, 99)? as u8),
                2,
            ),
            "marine_in" => {
                let list = l.word(i + 1, "hexes separated by commas")?;
                let mut hs = Vec::new();
                for h in list.split(',') {
                    let c = m.parse_ref(h).map_err(|e| l.err(e))?;
                    hs.push(
                        m.number(c)
                            .ok_or_else(|| l.err(format!("{h} is a Lava Flow hex")))?,
                    );
                }
                (Cond::MarineIn(hs), 2)
            }
            other => {
                return Err(l.err(format!(
                    "unknown condition '{other}' (eliminated N, overlord_eliminated, monolith_shut_down, exited N, marine_in H,H, no_active_marines, aliens_at_most N)"
                )));
            }
        };
        out.push(c);
        i += used;
    }
    if out.is_empty() {
        return Err(l.err("a victory needs at least one condition"));
    }
    Ok(out)
}

/// Read a scenario file. `two_player` comes from the battle's options.
pub fn parse(text: &str, id: &str, two_player: bool) -> Result<Scenario, TextError> {
    parse_as(text, id, two_player, false)
}

/// [`parse`], or with `before_v3` as rules versions 1 and 2 read a file: a
/// Strongpoint given twice and a unit both Stunned and Paralyzed were taken
/// (the later marker standing), which version 3 refuses.
pub fn parse_as(
    text: &str,
    id: &str,
    two_player: bool,
    before_v3: bool,
) -> Result<Scenario, TextError> {
    let all = lines(text)?;
    let sheet = units::sheet();
    // Chit definitions (a sheet of the player's own) are pulled out first.
    let mut chit_lines = Vec::new();
    let mut map_lines = Vec::new();
    let mut rest = Vec::new();
    let mut in_chit = false;
    for l in all {
        if MAP_WORDS.contains(&l.words[0].as_str()) {
            in_chit = false;
            map_lines.push(l);
        } else if l.words[0] == "chit" {
            in_chit = true;
            chit_lines.push(l);
        } else if in_chit && STEP_WORDS.contains(&l.words[0].as_str()) {
            chit_lines.push(l);
        } else {
            in_chit = false;
            rest.push(l);
        }
    }
    let chit_sheet: Vec<Chit> = if chit_lines.is_empty() {
        chits::sheet().to_vec()
    } else {
        chits::parse_sheet(&chit_lines)?
    };
    if chit_sheet.len() > usize::from(u8::MAX) {
        return Err(TextError {
            line: 0,
            message: "a chit sheet may have at most 255 chits".into(),
        });
    }

    let mut name = None;
    let mut description = String::new();
    let mut the_map: Option<map::MapRef> = None;
    for l in &rest {
        match l.words[0].as_str() {
            "scenario" => {
                name = Some(l.word(1, "a name in quotes")?.to_owned());
                l.at_most(2)?;
            }
            "description" => description = l.words[1..].join(" "),
            "map" => {
                let k = l.word(1, "a map (alpha or beta, or own with grid and row lines)")?;
                l.at_most(2)?;
                if map_lines.is_empty() {
                    the_map = Some(map::builtin(k).map(map::MapRef::Builtin).ok_or_else(|| {
                        l.err(format!("unknown map '{k}' (alpha or beta, or give your own with grid, row and road lines)"))
                    })?);
                } else {
                    // the key carries a digest of the map, so a changed map is another map
                    let mut h = blake3::Hasher::new();
                    for ml in &map_lines {
                        h.update(ml.words.join(" ").as_bytes());
                        h.update(b"\n");
                    }
                    let digest = h.finalize().to_hex();
                    let key = format!("{k}-{}", &digest.as_str()[..16]);
                    let mut own = Map::parse_lines(&map_lines, Some(key))?;
                    if own.name.is_empty() {
                        own.name = k.to_owned();
                    }
                    if own.numbered().count() == 0 {
                        return Err(l.err("the scenario's own map has no numbered hexes"));
                    }
                    the_map = Some(map::register(own));
                }
            }

            _ => {}
        }
    }
    let name = name.ok_or(TextError {
        line: 0,
        message: "the scenario has no 'scenario \"NAME\"' line".into(),
    })?;
    let the_map = the_map.ok_or(TextError {
        line: 0,
        message: "the scenario has no 'map' line (map alpha or map beta)".into(),
    })?;
    let m: &Map = &the_map;

    let mut s = DimxState {
        scenario: name.as_str().into(),
        map: the_map.clone(),
        two_player,
        turn: 1,
        phase: Phase::MarineAction { partial: None },
        marines: Vec::new(),
        aliens: sheet.aliens.clone(),
        own_chits: (!chit_lines.is_empty()).then(|| chit_sheet.clone().into()),
        cup: Vec::new(),
        used: Vec::new(),
        adm_pile: Vec::new(),
        goals: Vec::new(),
        goals_out: Vec::new(),
        strongpoints: Vec::new(),
        recon: false,
        woke: Vec::new(),
        placing: None,
        rules: Default::default(),
        summoning_ignores_monolith: false,
        recon_doubles_follow_up: false,
    };
    let mut named_aliens: Vec<String> = Vec::new();
    let mut others = AlienPlace::Cup;
    let mut cup: Option<Vec<u8>> = None;
    let mut adm: Option<Vec<u8>> = None;
    let mut goals: Option<Vec<Goal>> = None;
    let mut hex_line: Vec<(Hex, usize)> = Vec::new();
    let mut taken = |h: Hex, l: &Line| -> Result<(), TextError> {
        if let Some((_, other)) = hex_line.iter().find(|(x, _)| *x == h) {
            return Err(l.err(format!(
                "hex {h} already holds the unit placed on line {other}: units may not start stacked"
            )));
        }
        hex_line.push((h, l.no));
        Ok(())
    };
    let chit_key = |l: &Line, w: &str, sheet: &[Chit]| -> Result<u8, TextError> {
        sheet
            .iter()
            .position(|c| c.key == w)
            .map(|i| i as u8)
            .ok_or_else(|| l.err(format!("there is no chit '{w}' on the chit sheet")))
    };

    for l in &rest {
        match l.words[0].as_str() {
            "scenario" | "description" | "map" => {}
            "turn" => {
                s.turn = l.number(1, "turn", 1, 99)? as u8;
                l.at_most(2)?;
            }
            "marine" => {
                let id = l.word(1, "a counter id")?.to_owned();
                if s.marines.iter().any(|x| x.id == id) {
                    return Err(l.err(format!("Marine unit {id} is listed twice")));
                }
                let mut i = 2;
                let kind = match l.words.get(2).and_then(|w| MarineKind::from_key(w)) {
                    Some(k) => {
                        i = 3;
                        k
                    }
                    None => sheet.marines.iter().find(|(x, _)| *x == id).map(|(_, k)| *k).ok_or_else(|| {
                        l.err(format!("{id} is not on the counter sheet: give its type (squad, scout, special_ops, heavy_weapons, hq, logistics)"))
                    })?,
                };
                // Invariant: every kind has a type on the sheet (tested in units.rs).
                let mut mu = sheet
                    .new_marine(&id, kind)
                    .ok_or_else(|| l.err("the counter sheet lacks this unit type"))?;
                let place = l.word(
                    i,
                    "where it is (at HEX, waiting, arrives TURN, pool, exited or eliminated)",
                )?;
                mu.place = match place {
                    "at" => {
                        let h = hex(l, i + 1, m)?;
                        taken(h, l)?;
                        i += 1;
                        Place::Map(h)
                    }
                    "waiting" => Place::Waiting,
                    "arrives" => {
                        i += 1;
                        Place::Arrives(l.number(i, "turn", 1, 99)? as u8)
                    }
                    "pool" => Place::Pool,
                    "exited" => Place::Exited,
                    "eliminated" => Place::Eliminated,
                    other => return Err(l.err(format!("'{other}' is not a place (at HEX, waiting, arrives TURN, pool, exited or eliminated)"))),
                };
                i += 1;
                // One condition marker per unit (D.10: a second Stunned
                // marker makes it Paralyzed, never both).
                let mut condition: Option<&str> = None;
                while i < l.words.len() {
                    let word = l.words[i].as_str();
                    if matches!(word, "stunned" | "paralyzed") {
                        if let Some(first) = condition.filter(|_| !before_v3) {
                            return Err(l.err(format!(
                                "{} is given both '{first}' and '{word}': a unit is Stunned or Paralyzed, not both",
                                mu.id
                            )));
                        }
                        condition = Some(word);
                    }
                    match word {
                        "stunned" => mu.condition = Condition::Stunned,
                        "paralyzed" => mu.condition = Condition::Paralyzed,
                        "out_of_ammo" => mu.out_of_ammo = true,
                        "acted" => mu.acted = true,
                        "jp" => mu.jump_pack = true,
                        "mp" => mu.mp = l.value_after(&mut i, "MP", 0, 20)?,
                        "dn" => mu.dn = l.value_after(&mut i, "DN", 0, 6)?,
                        "cf" | "back" => {
                            let w = l.word(i + 1, "a weapon")?;
                            let wp = Weapon::parse(w).ok_or_else(|| l.err(format!("'{w}' is not a weapon (a CF like 4, pistols like 3A, BUMP, or -)")))?;
                            if l.words[i] == "cf" {
                                mu.front = wp
                            } else {
                                mu.back = wp
                            }
                            i += 1;
                        }
                        other => {
                            return Err(l.err(format!(
                                "unknown Marine marker or value '{other}' (stunned, paralyzed, out_of_ammo, acted, jp, mp N, dn N, cf W, back W)"
                            )));
                        }
                    }
                    i += 1;
                }
                s.marines.push(mu);
            }
            "kayotz" | "monolith" => {
                let id = l.word(1, "a counter id")?.to_owned();
                if named_aliens.contains(&id) {
                    return Err(l.err(format!("Kay'otz unit {id} is listed twice")));
                }
                let pos = match s.aliens.iter().position(|a| a.id == id) {
                    Some(p) => p,
                    None => {
                        s.aliens.push(units::Alien {
                            id: id.as_str().into(),
                            number: 0,
                            kind: AlienKind::Warrior,
                            cf: 3,
                            dn: 3,
                            place: AlienPlace::Cup,
                            dormant: false,
                            adm: None,
                        });
                        s.aliens.len() - 1
                    }
                };
                if l.words[0] == "monolith" {
                    s.aliens[pos].kind = AlienKind::Monolith;
                }
                named_aliens.push(id.clone());
                let place = l.word(2, "where it is (at HEX, cup, aside or eliminated)")?;
                let mut i = 3;
                s.aliens[pos].place = match place {
                    "at" => {
                        let h = hex(l, 3, m)?;
                        taken(h, l)?;
                        i = 4;
                        AlienPlace::Map(h)
                    }
                    "cup" => AlienPlace::Cup,
                    "aside" => AlienPlace::Aside,
                    "eliminated" => AlienPlace::Eliminated,
                    other => {
                        return Err(l.err(format!(
                            "'{other}' is not a place (at HEX, cup, aside or eliminated)"
                        )));
                    }
                };
                while i < l.words.len() {
                    let a = &mut s.aliens[pos];
                    match l.words[i].as_str() {
                        "dormant" => a.dormant = true,
                        "overlord" => a.kind = AlienKind::Overlord,
                        "adm" => a.adm = Some(l.value_after(&mut i, "ADM value", 1, 6)?),
                        "cf" => a.cf = l.value_after(&mut i, "CF", 0, 20)?,
                        "dn" => a.dn = l.value_after(&mut i, "DN", 1, 6)?,
                        "number" => a.number = l.value_after(&mut i, "ID number", 1, 99)?,
                        other => return Err(l.err(format!("unknown Kay'otz marker or value '{other}' (dormant, adm N, cf N, dn N, number N, overlord)"))),
                    }
                    i += 1;
                }
                let a = &s.aliens[pos];
                if a.kind != AlienKind::Monolith && a.number == 0 {
                    return Err(l.err(format!(
                        "{id} is not on the counter sheet: give its ID with 'number N'"
                    )));
                }
                if a.kind == AlienKind::Monolith && (a.dormant || a.adm.is_some()) {
                    return Err(l.err("the Monolith has no Dormant side and takes no ADM marker (it cannot be targeted)"));
                }
            }
            "other_kayotz" => {
                others = match l.word(1, "cup or aside")? {
                    "cup" => AlienPlace::Cup,
                    "aside" => AlienPlace::Aside,
                    w => {
                        return Err(l.err(format!(
                            "'{w}' is not where the other Kay'otz units go (cup or aside)"
                        )));
                    }
                };
                l.at_most(2)?;
            }
            "strongpoint" => {
                for i in 1..l.words.len() {
                    let h = hex(l, i, m)?;
                    if s.strongpoints.contains(&h) && !before_v3 {
                        return Err(l.err(format!(
                            "hex {h} is given a Strongpoint twice: a hex holds one Strongpoint"
                        )));
                    }
                    s.strongpoints.push(h);
                }
                if s.strongpoints.len() > super::special::MAX_STRONGPOINTS {
                    return Err(
                        l.err("at most three Strongpoints can be in the game at one time (E.3)")
                    );
                }
            }
            "recon" => {
                s.recon = match l.word(1, "yes or no")? {
                    "yes" => true,
                    "no" => false,
                    w => return Err(l.err(format!("'{w}' is not yes or no"))),
                };
            }
            "cup" => {
                let mut v = Vec::new();
                if l.words.get(1).map(String::as_str) == Some("all") {
                    l.at_most(2)?;
                    v = (0..chit_sheet.len() as u8).collect();
                } else {
                    for w in &l.words[1..] {
                        let k = chit_key(l, w, &chit_sheet)?;
                        if v.contains(&k) {
                            return Err(l.err(format!("chit '{w}' is in the cup twice")));
                        }
                        v.push(k);
                    }
                }
                cup = Some(v);
            }
            "used" => {
                for w in &l.words[1..] {
                    let k = chit_key(l, w, &chit_sheet)?;
                    s.used.push(k);
                }
            }
            "adm" => {
                let mut v = Vec::new();
                for i in 1..l.words.len() {
                    v.push(l.number(i, "ADM value", 1, 6)? as u8);
                }
                adm = Some(v);
            }
            "goals" | "goals_out" => {
                let mut v = Vec::new();
                if l.words[0] == "goals" && l.words.get(1).map(String::as_str) == Some("all") {
                    v = Goal::ALL.to_vec();
                } else {
                    for w in &l.words[1..] {
                        v.push(Goal::from_key(w).ok_or_else(|| {
                            l.err(format!("unknown Mission Goal '{w}' (portal, enslave, decapitate, pillage, possess, summoning)"))
                        })?);
                    }
                }
                if l.words[0] == "goals" {
                    goals = Some(v)
                } else {
                    s.goals_out = v
                }
            }
            "entry" | "exit" => {
                let mut v = Vec::new();
                for i in 1..l.words.len() {
                    v.push(hex(l, i, m)?);
                }
                if l.words[0] == "entry" {
                    s.rules.entry = v
                } else {
                    s.rules.exit = v
                }
            }
            "instant" | "victory" => {
                let sd = side(l, 1)?;
                let text = l.word(2, "the victory in words, in quotes")?.to_owned();
                let v = Victory {
                    side: sd,
                    all: conds(l, 3, m)?,
                    text,
                };
                if l.words[0] == "instant" {
                    s.rules.instant.push(v)
                } else {
                    s.rules.end.push(v)
                }
            }
            "otherwise" => {
                s.rules.otherwise = match l.word(1, "marines, kayotz or draw")? {
                    "marines" => Some(Side::Marines),
                    "kayotz" => Some(Side::Kayotz),
                    "draw" => None,
                    w => {
                        return Err(
                            l.err(format!("'{w}' is not a result (marines, kayotz or draw)"))
                        );
                    }
                };
            }
            other => {
                return Err(l.err(format!(
                    "unknown scenario statement '{other}' (see RULES.md, \"Scenario files\")"
                )));
            }
        }
    }
    // units due on or before the starting turn wait at the map edge already
    for mu in &mut s.marines {
        if let Place::Arrives(t) = mu.place
            && t <= s.turn
        {
            mu.place = Place::Waiting;
        }
    }
    for a in &mut s.aliens {
        if !named_aliens.iter().any(|n| a.id == *n) {
            a.place = others;
        }
    }
    if let Some(m) = s
        .marines
        .iter()
        .find(|m| s.aliens.iter().any(|a| a.id == m.id))
    {
        return Err(TextError {
            line: 0,
            message: format!(
                "{} names both a Marine and a Kay'otz unit: give them different ids",
                m.id
            ),
        });
    }
    s.cup = cup.unwrap_or_else(|| {
        (0..chit_sheet.len() as u8)
            .filter(|c| !s.used.contains(c))
            .collect()
    });
    if s.cup.is_empty() {
        return Err(TextError {
            line: 0,
            message: "the chit cup is empty: a battle needs at least one chit to draw".into(),
        });
    }
    s.goals = goals.unwrap_or_else(|| {
        Goal::ALL
            .iter()
            .copied()
            .filter(|g| !s.goals_out.contains(g))
            .collect()
    });
    if s.goals.is_empty() {
        return Err(TextError {
            line: 0,
            message: "there must always be at least one Mission Goal chit (G.2)".into(),
        });
    }
    s.adm_pile = match adm {
        Some(v) => v,
        None => {
            let mut pile = sheet.adm.clone();
            for a in &s.aliens {
                if let Some(v) = a.adm
                    && let Some(i) = pile.iter().position(|&x| x == v)
                {
                    pile.remove(i);
                }
            }
            pile
        }
    };
    // events count the ADM pile and the Mission Goal pile with a `u8` index
    let adm_total = s.adm_pile.len() + s.aliens.iter().filter(|a| a.adm.is_some()).count();
    if adm_total > MAX_PILE {
        return Err(TextError {
            line: 0,
            message: format!(
                "the scenario has {adm_total} ADM markers; at most {MAX_PILE} are allowed"
            ),
        });
    }
    if s.goals.len() > MAX_PILE {
        return Err(TextError {
            line: 0,
            message: format!(
                "the Mission Goal pile has {} chits; at most {MAX_PILE} are allowed",
                s.goals.len()
            ),
        });
    }
    let needs_entry = s
        .marines
        .iter()
        .any(|x| matches!(x.place, Place::Waiting | Place::Arrives(_) | Place::Pool));
    if needs_entry && s.rules.entry.is_empty() {
        return Err(TextError { line: 0, message: "Marine units wait, arrive or sit in the pool, but the scenario gives no 'entry' hexes".into() });
    }
    Ok(Scenario {
        id: id.to_owned(),
        name,
        description,
        state: s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_scenarios_parse_and_start_on_turn_one() {
        let all = builtin();
        assert_eq!(
            all.len(),
            3,
            "two Battle scenarios and a small Campaign scenario (B)"
        );
        for sc in all {
            assert_eq!(sc.state.turn, 1);
            assert_eq!(
                sc.state.cup.len(),
                20,
                "{}: all twenty chits in the cup (B)",
                sc.id
            );
            assert_eq!(
                sc.state.adm_pile.len(),
                10,
                "{}: ten ADM markers (B)",
                sc.id
            );
            assert_eq!(
                sc.state.goals.len(),
                6,
                "{}: six Mission Goal chits (B)",
                sc.id
            );
            assert!(
                !sc.state.rules.instant.is_empty(),
                "{}: instant victory",
                sc.id
            );
        }
    }

    #[test]
    fn scenario_errors_name_the_line_and_the_problem() {
        let cases = [
            (
                "scenario \"x\"\nmap alpha\nmarine SC1 at 777\n",
                3,
                "777 is not a hex number",
            ),
            (
                "scenario \"x\"\nmap alpha\nmarine SC1 at 263\nmarine HQ1 at 263\n",
                4,
                "hex 263 already holds the unit placed on line 3",
            ),
            (
                "scenario \"x\"\nmap alpha\nkayotz K10 at 421 sleepy\n",
                3,
                "unknown Kay'otz marker or value 'sleepy'",
            ),
            ("scenario \"x\"\nmap gamma\n", 2, "unknown map 'gamma'"),
            (
                "scenario \"x\"\nmap alpha\ncup rush_8_12 nonsense\n",
                3,
                "there is no chit 'nonsense'",
            ),
            (
                "scenario \"x\"\nmap alpha\nmarine ZZ9 at 111\n",
                3,
                "ZZ9 is not on the counter sheet",
            ),
            (
                "scenario \"x\"\nmap alpha\nvictory marines \"win\" eliminated lots\n",
                3,
                "'lots' is not a valid number",
            ),
            (
                "scenario \"x\"\nmap alpha\nchit a \"A\"\n  rush units 9-8\n",
                4,
                "not a range",
            ),
            (
                "scenario \"x\"\nmap alpha\nturn 0\n",
                3,
                "'0' is not a valid turn",
            ),
        ];
        for (text, line, msg) in cases {
            let e = parse(text, "t", false).unwrap_err();
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.message.contains(msg), "{text}: {e}");
        }
        let e = parse("map alpha\n", "t", false).unwrap_err();
        assert!(e.to_string().contains("no 'scenario"), "{e}");
    }
}
