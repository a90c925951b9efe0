//! The Kay'otz Activation Chit sheet (B.2, F): each chit is a list of steps in a
//! small language, so a player can write their copy's sheet as data.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::text::{Line, TextError, lines};

/// Which Kay'otz units on the map a step acts on. A unit is chosen at most
/// once per step even when it qualifies twice (e.g. near two Overlords).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Select {
    /// Units whose printed ID is in this range, e.g. #8 through #12.
    Numbers(u8, u8),
    Odd,
    Even,
    All,
    /// Units within this many hexes of an Overlord (the Overlord included).
    NearOverlord(u8),
    /// Units within this many hexes of an Active Monolith.
    NearMonolith(u8),
    /// Units adjacent to a Marine unit.
    NextToMarines,
}

/// Where summoned units appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SummonAt {
    /// A random hex (three dice, A.3).
    Random,
    /// A free Wormhole hex: the highest-numbered one (F.2 note), or the
    /// Kay'otz player's choice in the two-player variant.
    Wormhole,
}

/// One instruction of a chit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Each unit moves straight to the nearest eligible hex next to the
    /// nearest Active Marine unit, then fires at it (activation example).
    Rush(Select),
    /// Each unit fires at the nearest Active Marine unit it can fire at.
    Fire(Select),
    /// Each unit moves up to N hexes in a straight line towards the nearest
    /// Active Marine unit, then fires at that Marine unit; if Lava blocks
    /// that shot it holds (it does not pick another target).
    Advance(Select, u8),
    /// Each unit vanishes and reappears in a random hex.
    Warp(Select),
    /// Draw this many units from the Kay'otz unit cup onto the map, Active.
    Summon(u8, SummonAt),
    /// Dormant units flip to their Active side.
    Wake(Select),
    /// Active units flip to their Dormant side.
    ShutDown(Select),
    /// Paralyzed Marine units next to an Active Kay'otz unit are carried off.
    Capture,
    /// Draw another chit at once (F.4).
    DrawAnother,
    /// Nothing happens.
    Nothing,
}

impl Step {
    /// Steps resolved one unit at a time, in an order (F, two-player variant).
    pub fn per_unit(&self) -> Option<Select> {
        match *self {
            Step::Rush(s) | Step::Fire(s) | Step::Advance(s, _) | Step::Warp(s) => Some(s),
            _ => None,
        }
    }
}

/// One Kay'otz Activation Chit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chit {
    /// Short key used in commands and scenario files, e.g. `rush_8_12`.
    pub key: String,
    /// As printed, e.g. "Alien Rush: Units #8 through #12".
    pub name: String,
    pub steps: Vec<Step>,
}

impl Chit {
    /// Whether this chit draws another at once (F.4).
    pub fn draws_another(&self) -> bool {
        self.steps.contains(&Step::DrawAnother)
    }
}

fn select(l: &Line, i: usize) -> Result<(Select, usize), TextError> {
    let w = l.word(i, "which units (units A-B, odd, even, all, near_overlord N, near_monolith N, next_to_marines)")?;
    Ok(match w {
        "odd" => (Select::Odd, i + 1),
        "even" => (Select::Even, i + 1),
        "all" => (Select::All, i + 1),
        "next_to_marines" => (Select::NextToMarines, i + 1),
        "near_overlord" => (
            Select::NearOverlord(l.number(i + 1, "number of hexes", 0, 30)? as u8),
            i + 2,
        ),
        "near_monolith" => (
            Select::NearMonolith(l.number(i + 1, "number of hexes", 0, 30)? as u8),
            i + 2,
        ),
        "units" => {
            let r = l.word(i + 1, "unit numbers like 8-12")?;
            let (a, b) = match r.split_once('-') {
                Some((a, b)) => (a.parse::<u8>().ok(), b.parse::<u8>().ok()),
                None => (r.parse::<u8>().ok(), r.parse::<u8>().ok()),
            };
            match (a, b) {
                (Some(a), Some(b)) if a <= b => (Select::Numbers(a, b), i + 2),
                _ => return Err(l.err(format!("'{r}' is not a range of unit numbers like 8-12"))),
            }
        }
        other => {
            return Err(l.err(format!(
                "'{other}' does not say which units (units A-B, odd, even, all, near_overlord N, near_monolith N, next_to_marines)"
            )));
        }
    })
}

/// Parse one chit step line (`rush units 8-12`, `summon 2 random`, ...).
pub fn parse_step(l: &Line, first: usize) -> Result<Step, TextError> {
    let w = l.words[first].as_str();
    let (step, used) = match w {
        "rush" => select(l, first + 1).map(|(s, u)| (Step::Rush(s), u))?,
        "fire" => select(l, first + 1).map(|(s, u)| (Step::Fire(s), u))?,
        "warp" => select(l, first + 1).map(|(s, u)| (Step::Warp(s), u))?,
        "wake" => select(l, first + 1).map(|(s, u)| (Step::Wake(s), u))?,
        "shut_down" => select(l, first + 1).map(|(s, u)| (Step::ShutDown(s), u))?,
        "advance" => {
            let (s, u) = select(l, first + 1)?;
            (
                Step::Advance(s, l.number(u, "number of hexes", 1, 30)? as u8),
                u + 1,
            )
        }
        "summon" => {
            let n = l.number(first + 1, "number of units", 1, 20)? as u8;
            let at = match l.word(first + 2, "where (random or wormhole)")? {
                "random" => SummonAt::Random,
                "wormhole" => SummonAt::Wormhole,
                other => {
                    return Err(l.err(format!(
                        "'{other}' is not where to summon (random or wormhole)"
                    )));
                }
            };
            (Step::Summon(n, at), first + 3)
        }
        "capture" => (Step::Capture, first + 1),
        "draw_another" => (Step::DrawAnother, first + 1),
        "nothing" => (Step::Nothing, first + 1),
        other => {
            return Err(l.err(format!(
                "unknown chit step '{other}' (rush, fire, advance, warp, summon, wake, shut_down, capture, draw_another, nothing)"
            )));
        }
    };
    l.at_most(used)?;
    Ok(step)
}

/// Most steps one chit may have (the step being enacted is counted in a `u8`).
pub const MAX_STEPS: usize = 100;

/// Parse chit definitions: `chit KEY "NAME"` followed by its step lines.
pub fn parse_sheet(ls: &[Line]) -> Result<Vec<Chit>, TextError> {
    let mut out: Vec<Chit> = Vec::new();
    for l in ls {
        if l.words[0] == "chit" {
            let key = l.word(1, "a chit key")?.to_owned();
            let name = l.word(2, "a chit name in quotes")?.to_owned();
            l.at_most(3)?;
            if out.iter().any(|c| c.key == key) {
                return Err(l.err(format!("chit '{key}' is defined twice")));
            }
            out.push(Chit {
                key,
                name,
                steps: Vec::new(),
            });
        } else {
            let Some(chit) = out.last_mut() else {
                return Err(l.err("a chit step must follow a 'chit' line"));
            };
            if chit.steps.len() >= MAX_STEPS {
                return Err(l.err(format!(
                    "chit '{}' has more than {MAX_STEPS} steps",
                    chit.key
                )));
            }
            chit.steps.push(parse_step(l, 0)?);
        }
    }
    for c in &out {
        if c.steps.is_empty() {
            return Err(TextError {
                line: 0,
                message: format!(
                    "chit '{}' has no steps (write 'nothing' for a blank chit)",
                    c.key
                ),
            });
        }
    }
    Ok(out)
}

/// The chit sheet compiled in from `data/dimx/chits.txt`.
pub fn sheet() -> &'static [Chit] {
    static SHEET: OnceLock<Vec<Chit>> = OnceLock::new();
    // Invariant: the compiled-in file is checked by the tests below.
    SHEET.get_or_init(|| {
        let ls = lines(include_str!("../../../data/dimx/chits.txt")).expect("chits.txt splits");
        parse_sheet(&ls).expect("chits.txt parses")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b2_twenty_chits_two_of_which_draw_another() {
        let s = sheet();
        assert_eq!(s.len(), 20, "B: all twenty Kay'otz Activation Chits");
        let again: Vec<_> = s
            .iter()
            .filter(|c| c.draws_another())
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(
            again,
            vec!["The Overlord's Command", "The Terror From Beyond"],
            "F.4"
        );
        let rush = s
            .iter()
            .find(|c| c.name == "Alien Rush: Units #8 through #12")
            .expect("named in F");
        assert_eq!(rush.steps, vec![Step::Rush(Select::Numbers(8, 12))]);
    }

    #[test]
    fn bad_steps_name_the_line() {
        let ls = lines("chit a \"A\"\n  rush units 12-8\n").unwrap();
        let e = parse_sheet(&ls).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("not a range"), "{e}");
        let ls = lines("chit a \"A\"\n  dance all\n").unwrap();
        assert!(
            parse_sheet(&ls)
                .unwrap_err()
                .message
                .contains("unknown chit step 'dance'")
        );
    }
}
