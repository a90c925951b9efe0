//! Write a compatibility fixture (see `xenolog_tests::compat`) with this build:
//!
//! ```sh
//! cargo run -p xenolog-tests --example make_compat_fixture -- tests/fixtures/compat/<date>
//! ```
//!
//! The folder must not exist. It gets a campaign with a battle of every game
//! that is built, finished and in progress, with branches and entered dice,
//! the export file of two of them, and the manifest. Everything is played by
//! seeded bots, so the same build writes the same battles.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use xenolog_engine::games::{self, GameInfo};
use xenolog_engine::{Battle, PlayError, Randomness, RuleErrorKind};
use xenolog_saves::{BattleId, Campaign, DiceMode, SaveError};
use xenolog_schema::SCHEMA_VERSION;
use xenolog_schema::battle_file::BATTLE_FILE_FORMAT;
use xenolog_schema::codec::{ENTRY_FORMAT, SNAPSHOT_FORMAT};
use xenolog_tests::compat::{
    CAMPAIGN_FILE, ExportManifest, MANIFEST_FILE, Manifest, describe_battles, describe_campaign,
};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Play one random legal command; with entered dice, the bot "rolls" real
/// dice one at a time until the command has all it needs.
fn step(
    c: &mut Campaign,
    id: BattleId,
    b: &mut dyn Battle,
    bot: &mut Randomness,
    entered: bool,
) -> Res<bool> {
    let legal = b.legal();
    if legal.is_empty() || b.outcome().is_some() {
        return Ok(false);
    }
    let pick = legal[bot.pick(legal.len())].clone();
    if !entered {
        c.play(id, b, pick.actor, &pick.command, None)?;
        return Ok(true);
    }
    let mut dice: Vec<u8> = Vec::new();
    loop {
        match c.play(id, b, pick.actor, &pick.command, Some(dice.clone())) {
            Ok(_) => return Ok(true),
            Err(SaveError::Play(PlayError::Rule(e))) if e.kind == RuleErrorKind::MoreDice => {
                dice.push(1 + bot.below(6) as u8);
            }
            Err(e) => return Err(e.into()),
        }
    }
}

fn play(
    c: &mut Campaign,
    id: BattleId,
    b: &mut dyn Battle,
    bot: &mut Randomness,
    entered: bool,
    steps: usize,
) -> Res<()> {
    for _ in 0..steps {
        if !step(c, id, b, bot, entered)? {
            break;
        }
    }
    Ok(())
}

/// How a fixture battle is played.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A main line, a branch from 5 entries before its head (renamed), and
    /// the main line current again.
    Branched,
    /// A strict battle: one line, nothing taken back.
    Strict,
}

/// A battle played by a seeded bot; to the end if `finish`.
#[allow(clippy::too_many_arguments)]
fn battle(
    c: &mut Campaign,
    game: &str,
    seed: u64,
    config: Value,
    title: &str,
    dice: DiceMode,
    steps: usize,
    finish: bool,
    kind: Kind,
) -> Res<BattleId> {
    let id = c.new_battle_with(game, seed, &config, title, dice, kind == Kind::Strict)?;
    let mut b = c.load_battle(id)?;
    let mut bot = Randomness::new(seed ^ 0x5eed, 0, None);
    let entered = dice == DiceMode::Entered;
    play(c, id, &mut *b, &mut bot, entered, steps)?;
    if kind == Kind::Branched {
        b.undo(5);
        play(c, id, &mut *b, &mut bot, entered, 6)?;
        let last = b.branches().len() as u32 - 1;
        if last > 0 {
            b.rename_branch(last, "Another try")?;
        }
        b.switch_branch(0)?;
        c.save_position(id, &*b)?;
    }
    if finish {
        play(c, id, &mut *b, &mut bot, entered, 5000)?;
        if b.outcome().is_none() {
            return Err(format!("{title}: not over after 5000 commands").into());
        }
    }
    Ok(id)
}

fn build(dir: &Path) -> Res<Manifest> {
    let mut c = Campaign::create(&dir.join(CAMPAIGN_FILE), "Compatibility fixture")?;
    let dimx_done = battle(
        &mut c,
        "dimx",
        1,
        json!({ "scenario": "alpha" }),
        "Dimension X, solitaire, played to the end",
        DiceMode::Rolled,
        90,
        true,
        Kind::Branched,
    )?;
    let dimx_two = battle(
        &mut c,
        "dimx",
        2,
        json!({ "scenario": "beta", "two_player": true }),
        "Dimension X, two players, real dice, in progress",
        DiceMode::Entered,
        80,
        false,
        Kind::Branched,
    )?;
    battle(
        &mut c,
        "race",
        3,
        json!({ "target": 60 }),
        "Dice Race, played to the end",
        DiceMode::Rolled,
        30,
        true,
        Kind::Branched,
    )?;
    let race_entered = battle(
        &mut c,
        "race",
        4,
        json!({ "target": 200 }),
        "Dice Race, real dice, in progress",
        DiceMode::Entered,
        90,
        false,
        Kind::Branched,
    )?;
    let race_strict = battle(
        &mut c,
        "race",
        5,
        json!({ "target": 100 }),
        "Dice Race, strict, in progress",
        DiceMode::Rolled,
        40,
        false,
        Kind::Strict,
    )?;
    battle(
        &mut c,
        "highcard",
        6,
        json!({ "rounds": 2 }),
        "High Card, played to the end",
        DiceMode::Rolled,
        10,
        true,
        Kind::Branched,
    )?;
    let cards = battle(
        &mut c,
        "highcard",
        7,
        json!({}),
        "High Card, in progress",
        DiceMode::Rolled,
        14,
        false,
        Kind::Branched,
    )?;
    battle(
        &mut c,
        "invasion",
        8,
        json!({ "scenario": "crash_site" }),
        "Alien Invasion, four factions, played to the end",
        DiceMode::Rolled,
        40,
        true,
        Kind::Branched,
    )?;
    let table = battle(
        &mut c,
        "invasion",
        9,
        json!({ "scenario": "skirmish", "real_table": true, "sewers": true }),
        "Alien Invasion at a real table, real dice, in progress",
        DiceMode::Entered,
        14,
        false,
        Kind::Branched,
    )?;
    // Alien Invasion rules version 3: the Advanced Invasion Earth modules.
    battle(
        &mut c,
        "invasion",
        12,
        json!({
            "scenario": "skirmish",
            "suppression": true, "observers": true, "laying_in_wait": true,
            "sighting": true, "buildings": true, "advanced_assault": true,
            "grapple": true, "stupidity": true, "fear": true, "impetuous": true,
            "unstoppable": true, "primitive_weapons": true, "fly": true
        }),
        "Alien Invasion with every Advanced Invasion Earth module, in progress",
        DiceMode::Rolled,
        40,
        false,
        Kind::Branched,
    )?;
    let saucers = battle(
        &mut c,
        "saucers",
        10,
        json!({ "players": 2 }),
        "Night of the Saucers, two players, in progress",
        DiceMode::Rolled,
        40,
        false,
        Kind::Branched,
    )?;
    let alien = battle(
        &mut c,
        "alien",
        11,
        json!({ "players": 3, "queen": 1 }),
        "Alien, three players, in progress",
        DiceMode::Rolled,
        40,
        false,
        Kind::Branched,
    )?;
    // Schema 4: a note and a bookmark beside the log (never game facts).
    c.set_note(alien, 0, "the first entry: where the expedition lands")?;
    c.set_bookmark(alien, 0, true)?;
    // Schema 5: the campaign layer. Two rosters, a battle fought with their
    // models to its end, experience spent, a model renamed and one retired,
    // and an entry taken back.
    let campaign_battle = rosters(&mut c)?;
    // Schema 6 and battle file format 3: club battles with fair seeds, one
    // played to its end with the server's secret revealed, one in progress
    // with the secret held unrevealed (never exported).
    let club_done = club(
        &mut c,
        "race",
        json!({ "target": 20 }),
        "Club race, fair dice, finished",
        true,
    )?;
    club(
        &mut c,
        "saucers",
        json!({ "players": 2 }),
        "Night of the Saucers at the club, fair dice, in progress",
        false,
    )?;
    let mut exports = Vec::new();
    for (battle, file) in [
        (campaign_battle, "invasion-rosters.xbattle"),
        (saucers, "saucers.xbattle"),
        (alien, "alien.xbattle"),
        (table, "invasion-real-table.xbattle"),
        (dimx_two, "dimx-two-player.xbattle"),
        (race_entered, "race-entered.xbattle"),
        (dimx_done, "dimx-finished.xbattle"),
        (race_strict, "race-strict.xbattle"),
        (cards, "highcard.xbattle"),
        (club_done, "club-race.xbattle"),
    ] {
        c.export_battle(battle, &dir.join(file))?;
        exports.push(ExportManifest {
            file: file.to_owned(),
            battle,
        });
    }
    let battles = describe_battles(&c)?;
    let campaign = describe_campaign(&c)?;
    let rules_versions: BTreeMap<String, u32> = games::games()
        .iter()
        .filter(|g: &&GameInfo| g.available)
        .map(|g| (g.id.to_owned(), g.rules_version))
        .collect();
    Ok(Manifest {
        written_by: format!(
            "xenolog {} on {}",
            env!("CARGO_PKG_VERSION"),
            std::env::var("FIXTURE_DATE").unwrap_or_else(|_| "an unrecorded date".into())
        ),
        schema_version: SCHEMA_VERSION,
        entry_format: ENTRY_FORMAT,
        snapshot_format: SNAPSHOT_FORMAT,
        battle_file_format: BATTLE_FILE_FORMAT,
        rules_versions,
        battles,
        exports,
        campaign,
    })
}

/// A club battle: its seed from a fixed secret and every seat's nonce, played
/// by the bot, to its end (and the secret revealed) if `finish`.
fn club(c: &mut Campaign, game: &str, config: Value, title: &str, finish: bool) -> Res<BattleId> {
    use xenolog_engine::fair::SeatNonce;
    let secret = [0x2a; 32];
    let seats = games::new_battle(game, 0, &config)?.seats().len() as u8;
    let nonces = (0..seats)
        .map(|s| SeatNonce {
            seat: xenolog_engine::Actor(s),
            nonce: [0x60 + s; 32],
            absent: false,
        })
        .collect();
    let id = c.new_club_battle(
        game,
        &config,
        title,
        DiceMode::Rolled,
        false,
        &secret,
        nonces,
    )?;
    let mut b = c.load_battle(id)?;
    let mut bot = Randomness::new(0xc1b, 0, None);
    play(
        c,
        id,
        &mut *b,
        &mut bot,
        false,
        if finish { 5000 } else { 30 },
    )?;
    if finish {
        if b.outcome().is_none() {
            return Err(format!("{title}: not over after 5000 commands").into());
        }
        c.reveal_held_secret(id)?;
    }
    Ok(id)
}

/// The campaign layer: rosters, a roster battle, experience and skills.
fn rosters(c: &mut Campaign) -> Res<BattleId> {
    use xenolog_engine::campaign::{CampaignEvent, Status};
    let unit = c.add_roster("Hawks", "unit")?;
    let daleks = c.add_roster("Exterminators", "daleks")?;
    for (name, kind) in [
        ("Sgt Benton", "rifleman"),
        ("Pte Yates", "rifleman"),
        ("Cpl Bell", "lsw"),
        ("Pte Munro", "laws"),
    ] {
        c.add_model(unit, name, kind)?;
    }
    for name in ["Dalek Kaan", "Dalek Sec"] {
        c.add_model(daleks, name, "dalek")?;
    }
    // The fallen come back (the setting), and three battles, so that
    // survivors have the 2 EP a skill costs.
    c.record(CampaignEvent::SettingChanged {
        casualties: xenolog_engine::campaign::Casualties::Return,
    })?;
    let mut last = 0;
    for n in 0..3u64 {
        let state = c.campaign_state()?;
        let fit = |roster: u32| -> Vec<u32> {
            state
                .models
                .iter()
                .filter(|m| m.roster == roster && m.status == Status::Fit)
                .map(|m| m.id)
                .collect()
        };
        let picks: Vec<xenolog_saves::SeatPick> = [(0, unit), (1, daleks)]
            .into_iter()
            .map(|(seat, roster)| xenolog_saves::SeatPick {
                seat,
                roster,
                models: fit(roster),
            })
            .filter(|p| !p.models.is_empty())
            .collect();
        let id = c.new_roster_battle(
            12 + n,
            &json!({ "scenario": "skirmish" }),
            &picks,
            &format!("Hollow Farm with the rosters, battle {}, finished", n + 1),
            DiceMode::Rolled,
            false,
        )?;
        let mut b = c.load_battle(id)?;
        let mut bot = Randomness::new((12 + n) ^ 0x5eed, 0, None);
        play(c, id, &mut *b, &mut bot, false, 5000)?;
        if b.outcome().is_none() {
            return Err("a roster battle is not over after 5000 commands".into());
        }
        last = id;
    }
    let state = c.campaign_state()?;
    let Some(first) = state
        .models
        .iter()
        .find(|m| m.status == Status::Fit && m.unspent() >= 2)
    else {
        return Err("no model lived through two of the roster battles".into());
    };
    let (first, veteran) = (first.id, format!("{}, veteran", first.name));
    c.record(CampaignEvent::ModelRenamed {
        model: first,
        name: veteran,
    })?;
    // A skill bought and taken back, then another bought (two entries of
    // the log that cancel out, and one that stands).
    c.record(CampaignEvent::SkillBought {
        model: first,
        skill: "super_fast".into(),
    })?;
    c.campaign_undo()?;
    c.record(CampaignEvent::SkillBought {
        model: first,
        skill: "crack_shot".into(),
    })?;
    if let Some(m) = state
        .models
        .iter()
        .rev()
        .find(|m| m.status == Status::Fit && m.id != first)
    {
        c.record(CampaignEvent::ModelRetired { model: m.id })?;
    }
    c.campaign_recompute()?;
    Ok(last)
}

fn main() -> Res<()> {
    let dir: PathBuf = std::env::args_os()
        .nth(1)
        .ok_or("usage: make_compat_fixture OUT_DIR (a folder that does not exist yet)")?
        .into();
    if dir.exists() {
        return Err(format!("{} exists; a fixture is never rewritten", dir.display()).into());
    }
    std::fs::create_dir_all(&dir)?;
    let manifest = build(&dir)?;
    let text = serde_json::to_string_pretty(&manifest)? + "\n";
    std::fs::write(dir.join(MANIFEST_FILE), text)?;
    for b in &manifest.battles {
        println!(
            "battle {}: {} ({} entries, {} branches, {})",
            b.id,
            b.title,
            b.entries,
            b.branches.len(),
            b.result.as_deref().unwrap_or("in progress")
        );
    }
    println!("wrote {}", dir.display());
    Ok(())
}
