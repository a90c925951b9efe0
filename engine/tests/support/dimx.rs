//! Helpers shared by the dimx integration tests (included with `#[path]`):
//! start a battle from scenario text, give JSON commands, read the events.
#![allow(dead_code)]

use xenolog_engine::games::dimx::{DimX, DimxCommand, DimxConfig, DimxEvent, DimxState};
use xenolog_engine::{Actor, Game, RuleError, Session};

/// A battle from a scenario file's text (seed 1 unless given).
pub fn battle(text: &str) -> Session<DimX> {
    battle_seeded(text, 1, false)
}

pub fn battle_seeded(text: &str, seed: u64, two_player: bool) -> Session<DimX> {
    battle_with(
        text,
        seed,
        DimxConfig {
            two_player,
            ..DimxConfig::default()
        },
    )
}

/// A battle from a scenario file's text with these battle options (the
/// config's `scenario_text` is set to `text`).
pub fn battle_with(text: &str, seed: u64, options: DimxConfig) -> Session<DimX> {
    let config = DimxConfig {
        scenario_text: Some(text.to_owned()),
        ..options
    };
    match Session::<DimX>::new(seed, config) {
        Ok(s) => s,
        Err(e) => panic!("scenario does not set up: {e}"),
    }
}

/// A command from its JSON form, e.g. `{"full_move":{"unit":"SC1","to":415}}`.
pub fn cmd(json: &str) -> DimxCommand {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("bad command {json}: {e}"))
}

/// Give a command; the events it produced, or the rule that refused it.
pub fn try_play(
    s: &mut Session<DimX>,
    actor: u8,
    json: &str,
    dice: &[u8],
) -> Result<Vec<DimxEvent>, RuleError> {
    let entered = (!dice.is_empty()).then(|| dice.to_vec());
    let id = s.play(Actor(actor), &cmd(json), entered)?;
    Ok(s.events(id))
}

/// Give a Marine command that must be accepted.
pub fn play(s: &mut Session<DimX>, json: &str, dice: &[u8]) -> Vec<DimxEvent> {
    try_play(s, 0, json, dice).unwrap_or_else(|e| panic!("{json} refused: {e}"))
}

/// Give a Marine command that must be refused; the refusal in words.
pub fn refused(s: &mut Session<DimX>, json: &str, dice: &[u8]) -> String {
    let before = s.records().len();
    match try_play(s, 0, json, dice) {
        Ok(ev) => panic!("{json} was accepted: {ev:?}"),
        Err(e) => {
            assert_eq!(
                s.records().len(),
                before,
                "a refused command changes nothing"
            );
            e.to_string()
        }
    }
}

/// Every event in words.
pub fn words(events: &[DimxEvent]) -> Vec<String> {
    events
        .iter()
        .map(xenolog_engine::games::dimx::describe::event)
        .collect()
}

pub fn state(s: &Session<DimX>) -> &DimxState {
    s.state()
}

/// Whether a command is among those `legal` lists now.
pub fn is_legal(s: &Session<DimX>, json: &str) -> bool {
    let c = cmd(json);
    DimX::legal(s.state()).iter().any(|(_, x)| *x == c)
}

/// A minimal scenario on Mapzone Alpha with these extra lines; no Kay'otz
/// unit is on the map unless the lines place one, and the cup holds one blank chit.
pub fn alpha(lines: &str) -> String {
    format!(
        "scenario \"test\"\nmap alpha\nother_kayotz aside\ncup lull\nentry 111 112 113\n{lines}\n"
    )
}

pub fn beta(lines: &str) -> String {
    format!(
        "scenario \"test\"\nmap beta\nother_kayotz aside\ncup lull\nentry 111 112 113\n{lines}\n"
    )
}

// ---- given / when / then -------------------------------------------------------------
//
// A clause test reads: given a position (`battle(&alpha(..))`), when a command
// (the constructors below, in their JSON form) with its dice (`play`,
// `try_play`), then the events and the state, or `refused` and its words.

/// When: a Marine unit's Full Fire at an alien (`{"full_fire":..}`).
pub fn fire(unit: &str, target: &str) -> String {
    format!(r#"{{"full_fire":{{"unit":"{unit}","target":"{target}"}}}}"#)
}

/// When: a unit's Full Move to a hex (`{"full_move":..}`).
pub fn full_move(unit: &str, to: u16) -> String {
    format!(r#"{{"full_move":{{"unit":"{unit}","to":{to}}}}}"#)
}

/// When: a Jump Trooper's jump to a hex (`{"jump":..}`).
pub fn jump(unit: &str, to: u16) -> String {
    format!(r#"{{"jump":{{"unit":"{unit}","to":{to}}}}}"#)
}

/// When: a unit's Shoot and Scoot move to a hex.
pub fn scoot_move(unit: &str, to: u16) -> String {
    format!(r#"{{"shoot_and_scoot_move":{{"unit":"{unit}","to":{to}}}}}"#)
}

/// When: a unit's Shoot and Scoot fire at an alien.
pub fn scoot_fire(unit: &str, target: &str) -> String {
    format!(r#"{{"shoot_and_scoot_fire":{{"unit":"{unit}","target":"{target}"}}}}"#)
}

/// When: a one-unit order with no other field, e.g. `order("rally", "MS1")`
/// for `{"rally":{"unit":"MS1"}}`.
pub fn order(verb: &str, unit: &str) -> String {
    format!(r#"{{"{verb}":{{"unit":"{unit}"}}}}"#)
}

/// When: the Kay'otz player's placing of a unit on one of the tied hexes.
pub fn place_unit(unit: &str, hex: u16) -> String {
    format!(r#"{{"place_unit":{{"unit":"{unit}","hex":{hex}}}}}"#)
}

/// When: the Marine player ends the Action Phase (the Kay'otz phase follows).
pub const END_PHASE: &str = r#""end_action_phase""#;

/// When: a player picks this chit of the two drawn.
pub fn choose_chit(chit: &str) -> String {
    format!(r#"{{"choose_chit":{{"chit":"{chit}"}}}}"#)
}

/// Given: the first battle (seeds 1 to 49, made by `make`) whose first
/// Kay'otz phase offers this chit to choose, the phase ended.
pub fn seed_offering(chit: &str, make: impl Fn(u64) -> Session<DimX>) -> Session<DimX> {
    (1..50)
        .map(make)
        .find_map(|mut b| {
            play(&mut b, END_PHASE, &[]);
            is_legal(&b, &choose_chit(chit)).then_some(b)
        })
        .expect("a seed draws it within 50")
}

/// Then: the first Marine move among the events: the half-MP it spent, its
/// allowance in half-MP, and the hexes it crossed.
pub fn moved(ev: &[DimxEvent]) -> Option<(u8, u8, Vec<u16>)> {
    ev.iter().find_map(|e| match e {
        DimxEvent::Moved {
            half_mp,
            allowance,
            path,
            ..
        } => Some((*half_mp, *allowance, path.clone())),
        _ => None,
    })
}

/// Then: the refusal of a scenario text at set-up, in words.
pub fn setup_refused(text: String) -> String {
    Session::<DimX>::new(
        1,
        DimxConfig {
            scenario_text: Some(text),
            ..DimxConfig::default()
        },
    )
    .err()
    .expect("refused")
    .to_string()
}

/// Then: some event of `events` matches this pattern (and guard), with the
/// test's own message or one naming the pattern and the events:
/// `assert_event!(ev, DimxEvent::RandomHex { hex: 666, .. })`.
#[allow(unused_macros)]
macro_rules! assert_event {
    ($events:expr, $p:pat $(if $guard:expr)?, $($msg:tt)+) => {
        assert!($events.iter().any(|e| matches!(e, $p $(if $guard)?)), $($msg)+)
    };
    ($events:expr, $p:pat $(if $guard:expr)? $(,)?) => {
        assert!(
            $events.iter().any(|e| matches!(e, $p $(if $guard)?)),
            "no {} among {:#?}",
            stringify!($p),
            $events
        )
    };
}
#[allow(unused_imports)]
pub(crate) use assert_event;
