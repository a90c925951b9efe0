//! Fuzz harnesses: every decoder that reads data from outside Xenolog, one
//! function per kind of input, each taking arbitrary bytes.
//!
//! The coverage-guided fuzzer (`fuzz/`, cargo-fuzz with libFuzzer) calls these
//! functions from one-line targets, and the plain test
//! `tests/tests/fuzz_corpus.rs` runs every committed corpus and regression
//! file through the same functions, so what the fuzzer found stays found in
//! `cargo test`.
//!
//! Each harness asserts the invariants of DESIGN.md principle 8 ("bad input
//! gets a clear error and changes nothing"): no panic (the fuzzer reports a
//! panic as a crash), an `Err` that says something in words, and where a
//! value was read, writing it back and reading it again gives the same value.
//!
//! Where a format is sealed by a checksum (the battle file), the harness seals
//! the fuzzed payload itself, so the fuzzer explores the decoder behind the
//! checksum instead of the checksum alone.

use std::cell::RefCell;

use serde::Deserialize;
use serde_json::{Value, json};
use xenolog_engine::campaign::{self, CampaignEntry, CampaignEvent, skills};
use xenolog_engine::games::{self, alien, dimx, invasion, saucers};
use xenolog_engine::{Actor, Battle, EntryId, Game, Outcome};
use xenolog_schema::battle_file::{self, MAGIC};
use xenolog_schema::codec;

/// The longest text input a harness passes on: the fuzzer's `-max_len` is
/// below it, this only keeps a corpus file someone drops in from taking
/// minutes in `cargo test`.
const MAX_TEXT: usize = 256 * 1024;

fn said<E: std::fmt::Display>(e: &E, what: &str) {
    let words = e.to_string();
    assert!(
        !words.trim().is_empty(),
        "{what}: an error without words ({})",
        std::any::type_name::<E>()
    );
}

fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(&data[..data.len().min(MAX_TEXT)]).into_owned()
}

/// A file harness's input: byte 0 picks the file, the rest is its text.
fn pick_and_text(data: &[u8]) -> Option<(u8, String)> {
    let (pick, rest) = data.split_first()?;
    Some((*pick, text_of(rest)))
}

/// `decode_entry`: byte 0 is the battle's rules version, byte 1 the entry's
/// sequence number, the rest the stored bytes. A record that decodes is
/// written back and must read as itself.
pub fn entry_record(data: &[u8]) {
    let [rules, seq, bytes @ ..] = data else {
        return;
    };
    let seq = EntryId::from(*seq);
    match codec::decode_entry(seq, bytes, u32::from(*rules)) {
        Ok(rec) => {
            let again = codec::encode_entry(seq, &rec)
                .unwrap_or_else(|e| panic!("a decoded entry cannot be written back: {e}"));
            let back = codec::decode_entry(seq, &again, u32::from(*rules))
                .unwrap_or_else(|e| panic!("a written entry does not read back: {e}"));
            assert_eq!(back, rec, "an entry changed when written back");
        }
        Err(e) => said(&e, "decode_entry"),
    }
}

/// `decode_snapshot`, then the game state inside it as every game reads a
/// snapshot (`upcast::exact`); a state that decodes is written back and must
/// read as itself.
pub fn snapshot_record(data: &[u8]) {
    match codec::decode_snapshot(data) {
        Ok((rules, state)) => {
            if let Some(r) = rules {
                let again = codec::encode_snapshot(r, state);
                assert_eq!(
                    codec::decode_snapshot(&again).ok(),
                    Some((Some(r), state)),
                    "a snapshot changed when written back"
                );
            }
            snapshot_state::<dimx::DimX>(state);
            snapshot_state::<saucers::Saucers>(state);
            snapshot_state::<alien::Alien>(state);
            snapshot_state::<invasion::Invasion>(state);
            snapshot_state::<games::race::Race>(state);
            snapshot_state::<games::highcard::HighCard>(state);
        }
        Err(e) => said(&e, "decode_snapshot"),
    }
}

fn snapshot_state<G: Game>(bytes: &[u8]) {
    match xenolog_engine::upcast::exact::<G::State>(bytes) {
        Ok(state) => {
            let again = postcard::to_allocvec(&state)
                .unwrap_or_else(|e| panic!("a decoded {} state cannot be written: {e}", G::ID));
            let back = xenolog_engine::upcast::exact::<G::State>(&again)
                .unwrap_or_else(|e| panic!("a written {} state does not read back: {e}", G::ID));
            assert_eq!(back, state, "a {} state changed when written back", G::ID);
        }
        Err(e) => said(&e, "a snapshot's state"),
    }
}

/// A battle file as `Campaign::import_battle` reads it, without SQLite:
/// `read_battle_file`, the engine's rebuild, `verify`.
///
/// Input that starts with the magic is taken as a whole file (its checksum
/// decides); any other input is a payload that the harness seals with a
/// header and a correct checksum: byte 0 picks the format ([`format_of`]).
pub fn battle_file(data: &[u8]) {
    if data.starts_with(MAGIC) {
        battle_file_bytes(data);
        return;
    }
    let [pick, payload @ ..] = data else {
        return;
    };
    battle_file_bytes(&seal_battle_file(format_of(*pick), payload));
}

/// The battle file format a harness input's first byte picks: 3 (club
/// battles with a fair seed) for the byte 3, else format 1 for an odd byte
/// and 2 for an even one, as before format 3 existed, so the committed
/// corpus keeps meaning what it meant.
pub fn format_of(pick: u8) -> u32 {
    match pick {
        3 => 3,
        p if p & 1 == 1 => 1,
        _ => 2,
    }
}

/// A battle file around `payload`: magic, format version, checksum.
pub fn seal_battle_file(version: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(payload);
    let sum = blake3::hash(&out);
    out.extend_from_slice(sum.as_bytes());
    out
}

fn battle_file_bytes(bytes: &[u8]) {
    let f = match battle_file::read_battle_file(bytes) {
        Ok(f) => f,
        Err(e) => return said(&e, "read_battle_file"),
    };
    let again = battle_file::write_battle_file(&f)
        .unwrap_or_else(|e| panic!("a battle file that reads cannot be written back: {e}"));
    let back = battle_file::read_battle_file(&again)
        .unwrap_or_else(|e| panic!("a written battle file does not read back: {e}"));
    assert_eq!(back, f, "a battle file changed when written back");
    let battle = games::load_battle(f.into_stored());
    match battle {
        Ok(b) => {
            let report = b.verify();
            if !report.ok() {
                said(&report, "verify");
            }
            // What the import writes next: the snapshots and the outcome.
            let _ = b.outcome();
            for id in 0..b.records().len() as EntryId {
                let _ = b.snapshot_bytes(id);
            }
        }
        Err(e) => said(&e, "load_battle"),
    }
}

/// A battle as the app opens one from a campaign file, where nothing runs
/// `verify` first: the same input as [`battle_file`] (its snapshots left to
/// the rebuild), loaded, then shown at its cursor as the app shows it (legal
/// commands, the game's own step, who is asked, the board, the state as
/// JSON, the log in words and facts, the flow), and at the setup and the
/// first entry, where review goes. Whatever the recorded events made of the
/// state, showing it gives words, never a panic.
pub fn open_battle(data: &[u8]) {
    let bytes = if data.starts_with(MAGIC) {
        data.to_vec()
    } else {
        let [pick, payload @ ..] = data else {
            return;
        };
        seal_battle_file(format_of(*pick), payload)
    };
    let f = match battle_file::read_battle_file(&bytes) {
        Ok(f) => f,
        Err(e) => return said(&e, "read_battle_file"),
    };
    let b = match games::load_battle(f.into_stored()) {
        Ok(b) => b,
        Err(e) => return said(&e, "load_battle"),
    };
    let line = b.path_to(b.cursor());
    for at in [b.cursor(), None, line.first().copied()] {
        let _ = b.scene_at(at);
        let _ = b.state_json(at);
        let _ = b.flow_at(at);
    }
    let _ = b.legal();
    let _ = b.due_step();
    let _ = b.asked();
    let _ = b.outcome();
    let _ = b.entry_texts(&line);
    let _ = b.entry_facts(&line);
    for (actor, _) in b.seats() {
        let _ = b.actor_name(actor);
    }
}

/// Start a battle of `game` with this config; a started battle is shown as
/// the app would first show it. Returns whether it started.
fn start_with(game: &str, config: Value) -> bool {
    match games::new_battle(game, 1, &config) {
        Ok(mut b) => {
            let _ = b.legal();
            let _ = b.scene_at(None);
            let _ = b.state_json(None);
            let _ = b.play_due();
            let _ = b.legal();
            true
        }
        Err(e) => {
            said(&e, "new_battle");
            false
        }
    }
}

/// Invaders From Dimension X! files: byte 0 picks the file (a scenario,
/// one- or two-player; a map; the counter sheet; a chit sheet), the rest is
/// its text, read by its decoder.
pub fn data_dimx(data: &[u8]) {
    dimx_files(data, false);
}

/// The files of [`data_dimx`]; with `start`, a scenario that reads is
/// started as a battle ([`start_from_files`]).
fn dimx_files(data: &[u8], start: bool) {
    let Some((pick, text)) = pick_and_text(data) else {
        return;
    };
    match pick % 5 {
        0 | 1 => {
            let two_player = pick % 5 == 1;
            match dimx::scenario::parse(&text, "own", two_player) {
                Ok(_) if !start => {}
                Ok(_) => {
                    start_with(
                        "dimx",
                        json!({"scenario_text": text, "two_player": two_player}),
                    );
                }
                Err(e) => said(&e, "dimx scenario"),
            }
        }
        2 => {
            if let Err(e) = dimx::map::Map::parse(&text) {
                said(&e, "dimx map");
            }
        }
        3 => {
            if let Err(e) = dimx::units::CounterSheet::parse(&text) {
                said(&e, "dimx counters");
            }
        }
        _ => match dimx::text::lines(&text) {
            Ok(lines) => {
                if let Err(e) = dimx::chits::parse_sheet(&lines) {
                    said(&e, "dimx chits");
                }
            }
            Err(e) => said(&e, "dimx chit lines"),
        },
    }
}

/// Alien Invasion files: byte 0 picks the file (a scenario, a faction, the
/// Advanced tables), the rest is its text, read by its decoder.
pub fn data_invasion(data: &[u8]) {
    invasion_files(data, false);
}

/// The files of [`data_invasion`]; with `start`, a scenario or faction that
/// reads is started as a battle ([`start_from_files`]).
fn invasion_files(data: &[u8], start: bool) {
    let Some((pick, text)) = pick_and_text(data) else {
        return;
    };
    match pick % 3 {
        0 => match invasion::data::parse_scenario("own", &text) {
            Ok(_) if !start => {}
            Ok(_) => {
                start_with("invasion", json!({"scenario_text": text}));
            }
            Err(e) => said(&e, "invasion scenario"),
        },
        1 => match invasion::data::parse_faction(&text) {
            Ok(_) if !start => {}
            Ok(f) => {
                start_with(
                    "invasion",
                    json!({"faction_texts": [text], "factions": [f.id, "mib"]}),
                );
            }
            Err(e) => said(&e, "invasion faction"),
        },
        _ => {
            if let Err(e) = invasion::data::parse_tables(&text) {
                said(&e, "invasion advanced tables");
            }
        }
    }
}

/// Any game's files as [`data_dimx`], [`data_invasion`], [`data_alien`]
/// and [`data_saucers`] read them (byte 0 picks the game, the rest is that
/// harness's input), and then every file that reads started as a battle: a
/// player's own file given to a new battle, shown as the app first shows it
/// (legal commands, scene, state, automatic steps). Slower than the
/// decoders alone (a battle per input), so a target of its own.
pub fn start_from_files(data: &[u8]) {
    let [pick, rest @ ..] = data else {
        return;
    };
    match pick % 4 {
        0 => dimx_files(rest, true),
        1 => invasion_files(rest, true),
        2 => alien_files(rest, true),
        _ => saucers_files(rest, true),
    }
}

/// The campaign's skills table (`engine/data/invasion/skills.txt` or a
/// player's own).
pub fn skills_table(data: &[u8]) {
    let text = text_of(data);
    match skills::parse_skills(&text) {
        Ok(table) => {
            for s in &table {
                assert!(!s.id.is_empty(), "a skill without an id");
            }
        }
        Err(e) => said(&e, "skills table"),
    }
}

const ALIEN_FILES: [&str; 6] = [
    "base_text",
    "items_text",
    "characters_text",
    "table_text",
    "tasks_text",
    "scenario_text",
];

/// Alien files: byte 0 picks the file (base, items, characters, FIGHT RESULT
/// table, task cards, a position), the rest is its text, read by its
/// decoder (a position is read by starting a battle from it).
pub fn data_alien(data: &[u8]) {
    alien_files(data, false);
}

/// The files of [`data_alien`]; with `start`, every file that reads is
/// given as a player's own file to a battle started with it
/// ([`start_from_files`]).
fn alien_files(data: &[u8], start: bool) {
    let Some((pick, text)) = pick_and_text(data) else {
        return;
    };
    let field = ALIEN_FILES[usize::from(pick) % ALIEN_FILES.len()];
    let parsed = match field {
        "base_text" => alien::data::parse_base(&text).map(drop),
        "items_text" => alien::data::parse_items(&text).map(drop),
        "table_text" => alien::data::parse_table(&text).map(drop),
        "characters_text" => alien::data::content(None, None, Some(&text), None, None).map(drop),
        "tasks_text" => alien::data::content(None, None, None, None, Some(&text)).map(drop),
        _ => Ok(()),
    };
    let mut config = json!({"players": 2 + pick / 6 % 6});
    match parsed {
        Ok(()) if start => {
            config[field] = Value::String(text);
            start_with("alien", config);
        }
        // A position is read onto the board it is set out on.
        Ok(()) if field == "scenario_text" => {
            config[field] = Value::String(text);
            let config: alien::AlienConfig =
                serde_json::from_value(config).expect("the harness's config reads");
            if let Err(e) = alien::start(&config) {
                said(&e, "alien position");
            }
        }
        Ok(()) => {}
        Err(e) => said(&e, "alien data file"),
    }
}

const SAUCERS_FILES: [&str; 7] = [
    "tiles", "humans", "cards", "aliens", "missions", "tokens", "position",
];

/// Night of the Saucers files: byte 0 picks the file (tiles, humans, cards,
/// aliens, missions, tokens, a position), the rest is its text, read by its
/// decoder (a position is read by starting a battle from it).
pub fn data_saucers(data: &[u8]) {
    saucers_files(data, false);
}

/// The files of [`data_saucers`]; with `start`, every file that reads is
/// given as a player's own file to a battle started with it
/// ([`start_from_files`]).
fn saucers_files(data: &[u8], start: bool) {
    let Some((pick, text)) = pick_and_text(data) else {
        return;
    };
    let file = SAUCERS_FILES[usize::from(pick) % SAUCERS_FILES.len()];
    let players = 1 + pick / 7 % 4;
    if file == "position" {
        let config = json!({"players": players, "scenario_text": text});
        if start {
            start_with("saucers", config);
        } else {
            // A position is read onto the board it is set out on.
            let config: saucers::SaucersConfig =
                serde_json::from_value(config).expect("the harness's config reads");
            if let Err(e) = saucers::start(&config) {
                said(&e, "saucers position");
            }
        }
        return;
    }
    match saucers::data::parse(&[(file.to_owned(), text.clone())]) {
        Ok(_) if !start => {}
        Ok(_) => {
            start_with(
                "saucers",
                json!({"players": players, "files": {file: text}}),
            );
        }
        Err(e) => said(&e, "saucers data file"),
    }
}

/// One line of a `play` script, as the command line reads it.
#[derive(Deserialize)]
struct ScriptLine {
    actor: Actor,
    command: Value,
    #[serde(default)]
    dice: Option<Vec<u8>>,
}

/// How many moves into a battle each position of [`play_json`] is.
const POSITIONS: [usize; 3] = [0, 3, 12];

/// A game's id and its battles at [`POSITIONS`].
type GameBattles = (&'static str, Vec<Box<dyn Battle>>);

thread_local! {
    /// Per game, the battles at [`POSITIONS`], built once per thread.
    static BATTLES: RefCell<Vec<GameBattles>> =
        const { RefCell::new(Vec::new()) };
}

/// A battle of `game` after `moves` commands (each the first legal one, or
/// a step the game takes on its own).
fn battle_at(game: &str, config: &Value, moves: usize) -> Box<dyn Battle> {
    let mut b = games::new_battle(game, 7, config)
        .unwrap_or_else(|e| panic!("a default {game} battle starts: {e}"));
    for _ in 0..moves {
        let _ = b.play_due();
        let legal = b.legal();
        let Some(c) = legal.get(legal.len() / 2) else {
            break;
        };
        let Ok(p) = b.prepare_json(c.actor, &c.command, None) else {
            break;
        };
        if b.commit(p).is_err() {
            break;
        }
    }
    let _ = b.play_due();
    b
}

/// The battles of `game` the `play_json` harnesses give commands to, at
/// [`POSITIONS`].
pub fn positions(game: &str) -> Vec<Box<dyn Battle>> {
    let config = default_config(game);
    POSITIONS
        .iter()
        .map(|&n| battle_at(game, &config, n))
        .collect()
}

fn default_config(game: &str) -> Value {
    match game {
        "alien" => json!({"players": 3}),
        "saucers" => json!({"players": 2}),
        _ => json!({}),
    }
}

/// A `play` script line (`{"actor":0,"command":{..},"dice":[..]}`) given to
/// a battle of `game`: byte 0 picks the position (see [`POSITIONS`]), the
/// rest is the line. The engine decides it (`prepare_json`), which either
/// refuses it in words or yields an entry.
pub fn play_json(game: &'static str, data: &[u8]) {
    let [pick, line @ ..] = data else {
        return;
    };
    let Ok(line) = serde_json::from_slice::<ScriptLine>(line) else {
        return;
    };
    BATTLES.with(|cell| {
        let mut all = cell.borrow_mut();
        let at = match all.iter().position(|(g, _)| *g == game) {
            Some(i) => i,
            None => {
                all.push((game, positions(game)));
                all.len() - 1
            }
        };
        let battles = &all[at].1;
        let b = &battles[usize::from(*pick) % battles.len()];
        match b.prepare_json(line.actor, &line.command, line.dice) {
            Ok(p) => {
                let _ = p.outcome;
            }
            Err(e) => said(&e, "prepare_json"),
        }
    });
}

pub fn play_json_dimx(data: &[u8]) {
    play_json("dimx", data);
}
pub fn play_json_saucers(data: &[u8]) {
    play_json("saucers", data);
}
pub fn play_json_alien(data: &[u8]) {
    play_json("alien", data);
}
pub fn play_json_invasion(data: &[u8]) {
    play_json("invasion", data);
}
pub fn play_json_race(data: &[u8]) {
    play_json("race", data);
}
pub fn play_json_highcard(data: &[u8]) {
    play_json("highcard", data);
}

/// The games of [`play_json_any`], by byte 0 modulo their number: every
/// built game of the registry.
pub const PLAY_GAMES: [&str; 6] = ["dimx", "saucers", "alien", "invasion", "race", "highcard"];

/// A `play` script line for any game of the registry: byte 0 picks the game
/// (and, with its upper bits, the position), the rest is the line.
pub fn play_json_any(data: &[u8]) {
    let [pick, rest @ ..] = data else {
        return;
    };
    let n = PLAY_GAMES.len() as u8;
    let game = PLAY_GAMES[usize::from(pick % n)];
    let mut input = Vec::with_capacity(data.len());
    input.push(pick / n);
    input.extend_from_slice(rest);
    play_json(game, &input);
}

/// The campaign's own records as the store reads them from its rows: the
/// first line is a battle outcome (`campaign_results.outcome`), each other
/// line a campaign log entry (`campaign_log.event`), JSON. The entries that
/// read are folded with the shipped skills table, every battle having the
/// outcome, as `Campaign::state` does.
pub fn campaign_record(data: &[u8]) {
    let text = text_of(data);
    let mut lines = text.lines();
    let outcome = lines
        .next()
        .and_then(|l| serde_json::from_str::<Outcome>(l).ok());
    if let Some(o) = &outcome {
        let again = serde_json::to_string(o).expect("an outcome is written as JSON");
        let back: Outcome = serde_json::from_str(&again)
            .unwrap_or_else(|e| panic!("a written outcome does not read back: {e}"));
        assert_eq!(&back, o, "an outcome changed when written back");
    }
    let mut log = Vec::new();
    for (i, l) in lines.enumerate() {
        match serde_json::from_str::<CampaignEvent>(l) {
            Ok(event) => {
                let again = serde_json::to_string(&event).expect("an event is written as JSON");
                let back: CampaignEvent = serde_json::from_str(&again)
                    .unwrap_or_else(|e| panic!("a written campaign event does not read back: {e}"));
                assert_eq!(back, event, "a campaign event changed when written back");
                log.push(CampaignEntry {
                    id: i as u32 + 1,
                    at: i as i64,
                    event,
                });
            }
            Err(e) => said(&e, "campaign event"),
        }
    }
    let table = skills::shipped();
    let results = |_| outcome.clone();
    let before = campaign::fold(&log[..log.len() / 2], &results, &table, None);
    let after = campaign::fold(&log, &results, &table, None);
    let _ = campaign::changes(&before, &after);
    let _ = campaign::last_undoable(&after, &log);
}

/// A harness: arbitrary bytes in, a panic on a broken invariant.
pub type Harness = fn(&[u8]);

/// Every harness by the name of its fuzz target and corpus folder.
pub const TARGETS: &[(&str, Harness)] = &[
    ("entry_record", entry_record),
    ("snapshot_record", snapshot_record),
    ("battle_file", battle_file),
    ("open_battle", open_battle),
    ("data_dimx", data_dimx),
    ("data_invasion", data_invasion),
    ("data_alien", data_alien),
    ("data_saucers", data_saucers),
    ("start_from_files", start_from_files),
    ("skills_table", skills_table),
    ("campaign_record", campaign_record),
    ("play_json_dimx", play_json_dimx),
    ("play_json_saucers", play_json_saucers),
    ("play_json_alien", play_json_alien),
    ("play_json_invasion", play_json_invasion),
    ("play_json_any", play_json_any),
];
