//! The sample campaign the app opens on its first start: a battle in
//! mid-game with a few branches, so every view has something to show, and a
//! small Alien Invasion campaign (two rosters, three battles fought with
//! them, models with experience and skills) for the Campaign view.

use std::path::Path;

use serde_json::json;
use xenolog_engine::{Battle, Randomness};

use crate::campaign::{place, side};
use crate::file::temp_beside;
use crate::{BattleId, Campaign, DiceMode, SaveError};

/// Seed of the sample battle: fixed, so the sample is the same everywhere.
pub const SAMPLE_SEED: u64 = 20_240_607;

/// Create the sample campaign at `path` (an error if the path exists): an
/// Invaders From Dimension X! battle in mid-game with a few branches, a
/// small Dice Race, a four-faction Alien Invasion battle in its third round,
/// and an Alien battle some turns in.
///
/// The app makes it on its first start, so it must be quick: it is built
/// beside `path` without a sync per command (about a hundred of them), synced
/// once, and only then linked into place, so a crash never leaves half a
/// sample.
pub fn create_sample(path: &Path) -> Result<(), SaveError> {
    if path.symlink_metadata().is_ok() {
        return Err(SaveError::Exists {
            path: path.to_owned(),
        });
    }
    let tmp = temp_beside(path, "sample");
    let built = build(&tmp).and_then(|()| place(&tmp, path));
    for suffix in ["", "-wal", "-shm", ".lock"] {
        let _ = std::fs::remove_file(side(&tmp, suffix));
    }
    built
}

fn build(tmp: &Path) -> Result<(), SaveError> {
    let mut c = Campaign::create(tmp, "Sample campaign")?;
    c.unsynced()?;
    let first = dimx_sample(&mut c)?;
    race_sample(&mut c)?;
    invasion_sample(&mut c)?;
    advanced_sample(&mut c)?;
    campaign_sample(&mut c)?;
    alien_sample(&mut c)?;
    saucers_sample(&mut c)?;
    // The app opens the battle played last: the Dimension X one, whose
    // board shows the most at a glance.
    let b = c.load_battle(first)?;
    c.save_position(first, &*b)?;
    c.close_synced()
}

/// How much the sample's Marine player likes each kind of command: fire when
/// there is a target, rally and recon, move on foot, rarely jump.
fn liking(kind: &str) -> u32 {
    match kind {
        "full_fire" => 40,
        "recon" | "rally" | "re_supply" | "request_reinforcements" => 12,
        "full_move" => 10,
        "shoot_and_scoot_fire" => 6,
        "build_strongpoint" => 4,
        "shoot_and_scoot_move" => 2,
        "end_action_phase" => 2,
        "jump" => 1,
        "shoot_and_scoot_jump" => 0,
        _ => 10,
    }
}

fn kind_of(command: &serde_json::Value) -> &str {
    match command {
        serde_json::Value::String(s) => s,
        serde_json::Value::Object(m) => m.keys().next().map_or("", String::as_str),
        _ => "",
    }
}

/// Play one command chosen by a seeded bot that weighs commands by kind.
fn play_liked(
    c: &mut Campaign,
    id: BattleId,
    b: &mut dyn Battle,
    bot: &mut Randomness,
) -> Result<bool, SaveError> {
    play_weighted(c, id, b, bot, liking)
}

/// Play one command chosen by a seeded bot, weighing the kinds by `liking`.
fn play_weighted(
    c: &mut Campaign,
    id: BattleId,
    b: &mut dyn Battle,
    bot: &mut Randomness,
    liking: fn(&str) -> u32,
) -> Result<bool, SaveError> {
    let legal = b.legal();
    if legal.is_empty() || b.outcome().is_some() {
        return Ok(false);
    }
    let mut kinds: Vec<(&str, u32)> = Vec::new();
    for l in &legal {
        let k = kind_of(&l.command);
        if !kinds.iter().any(|(x, _)| *x == k) {
            kinds.push((k, liking(k)));
        }
    }
    let total: u32 = kinds.iter().map(|(_, w)| w).sum();
    let kind = if total == 0 {
        kinds[0].0
    } else {
        let mut roll = bot.below(total);
        kinds
            .iter()
            .find(|(_, w)| {
                if roll < *w {
                    true
                } else {
                    roll -= w;
                    false
                }
            })
            .map_or(kinds[0].0, |(k, _)| *k)
    };
    let of_kind: Vec<_> = legal
        .iter()
        .filter(|l| kind_of(&l.command) == kind)
        .collect();
    let pick = of_kind[bot.pick(of_kind.len())];
    c.play(id, b, pick.actor, &pick.command.clone(), None)?;
    Ok(true)
}

fn branch_error(id: BattleId) -> impl Fn(String) -> SaveError {
    move |why| SaveError::Corrupt { battle: id, why }
}

/// Invaders From Dimension X!, Battle 1 in mid-game: a main line, a branch
/// that tried other orders two turns back, and one from the opening.
fn dimx_sample(c: &mut Campaign) -> Result<BattleId, SaveError> {
    let id = c.new_battle(
        "dimx",
        SAMPLE_SEED,
        &json!({ "scenario": "alpha" }),
        "Dimension X: Relief of Outpost Skylar (sample)",
        DiceMode::Rolled,
    )?;
    let mut b = c.load_battle(id)?;
    let mut bot = Randomness::new(SAMPLE_SEED, 0, None);
    for _ in 0..60 {
        if !play_liked(c, id, &mut *b, &mut bot)? {
            break;
        }
    }
    let main_head = b.cursor();
    b.undo(10);
    for _ in 0..8 {
        if !play_liked(c, id, &mut *b, &mut bot)? {
            break;
        }
    }
    if let Some(last) = b.branches().len().checked_sub(1).filter(|&n| n > 0) {
        b.rename_branch(last as u32, "Other orders")
            .map_err(branch_error(id))?;
    }
    b.seek(b.path_to(main_head).get(3).copied());
    for _ in 0..4 {
        if !play_liked(c, id, &mut *b, &mut bot)? {
            break;
        }
    }
    if let Some(last) = b.branches().len().checked_sub(1).filter(|&n| n > 1) {
        b.rename_branch(last as u32, "A bolder opening")
            .map_err(branch_error(id))?;
    }
    b.switch_branch(0).map_err(branch_error(id))?;
    c.save_position(id, &*b)?;
    Ok(id)
}

/// How much the sample's Alien Invasion players like each kind of command:
/// shoot when they can, move, now and then try the scenario's special
/// actions, rarely give up a card's actions.
fn invasion_liking(kind: &str) -> u32 {
    match kind {
        "shoot" => 40,
        "move" => 25,
        "special" | "study" => 8,
        "casualties" | "strike" => 10,
        "end_card" => 1,
        _ => 3,
    }
}

/// Alien Invasion, the four-faction Crash Site in mid-game (the third round),
/// with a branch where the second round went otherwise.
fn invasion_sample(c: &mut Campaign) -> Result<BattleId, SaveError> {
    let id = c.new_battle(
        "invasion",
        SAMPLE_SEED,
        &json!({ "scenario": "crash_site" }),
        "Alien Invasion: Crash Site (sample)",
        DiceMode::Rolled,
    )?;
    let mut b = c.load_battle(id)?;
    let mut bot = Randomness::new(SAMPLE_SEED + 1, 0, None);
    let mut played = 0;
    while played < 40 && b.flow_at(b.cursor()).turn < 3 {
        if !play_weighted(c, id, &mut *b, &mut bot, invasion_liking)? {
            break;
        }
        played += 1;
    }
    let main_head = b.cursor();
    b.undo(8);
    for _ in 0..5 {
        if !play_weighted(c, id, &mut *b, &mut bot, invasion_liking)? {
            break;
        }
    }
    if let Some(last) = b.branches().len().checked_sub(1).filter(|&n| n > 0) {
        b.rename_branch(last as u32, "Another way")
            .map_err(branch_error(id))?;
    }
    b.switch_branch(0).map_err(branch_error(id))?;
    b.seek(main_head);
    c.save_position(id, &*b)?;
    Ok(id)
}

/// How much the players of the sample's advanced skirmish like each kind
/// of command: the modules' own commands come up often.
fn advanced_liking(kind: &str) -> u32 {
    match kind {
        "suppress" => 25,
        "shoot" => 25,
        "move" => 25,
        "lay_in_wait" | "relay" | "perceive" => 8,
        "casualties" | "strike" | "spring" => 10,
        "end_card" => 1,
        _ => 3,
    }
}

/// Alien Invasion with the Advanced Invasion Earth modules (suppression,
/// observers, laying in wait, sighting, buildings, stupidity, fear): U.N.I.T.
/// against the Daleks on the Farmyard Skirmish table, some cards in.
fn advanced_sample(c: &mut Campaign) -> Result<BattleId, SaveError> {
    let id = c.new_battle(
        "invasion",
        SAMPLE_SEED + 7,
        &json!({
            "scenario": "skirmish",
            "suppression": true,
            "observers": true,
            "laying_in_wait": true,
            "sighting": true,
            "buildings": true,
            "stupidity": true,
            "fear": true,
        }),
        "Alien Invasion: Advanced Invasion Earth (sample)",
        DiceMode::Rolled,
    )?;
    let mut b = c.load_battle(id)?;
    let mut bot = Randomness::new(SAMPLE_SEED + 8, 0, None);
    for _ in 0..30 {
        if !play_weighted(c, id, &mut *b, &mut bot, advanced_liking)? {
            break;
        }
    }
    c.save_position(id, &*b)?;
    Ok(id)
}

/// How much the sample's Alien players like each kind of command: the
/// characters walk and shoot, the aliens move and attack; ending a phase
/// early is rare.
fn alien_liking(kind: &str) -> u32 {
    match kind {
        "move" | "move_alien" => 30,
        "shoot" | "attack" => 20,
        "take" | "hatch" | "place" => 8,
        "end_phase" | "end_moves" => 2,
        _ => 3,
    }
}

/// Alien (Górski), two players, in its fourth turn: the expedition walking
/// into the base, the first aliens hatched and hunting it.
fn alien_sample(c: &mut Campaign) -> Result<BattleId, SaveError> {
    let id = c.new_battle(
        "alien",
        SAMPLE_SEED,
        &json!({ "scenario": "standard" }),
        "Alien: the expedition lands (sample)",
        DiceMode::Rolled,
    )?;
    let mut b = c.load_battle(id)?;
    let mut bot = Randomness::new(SAMPLE_SEED + 2, 0, None);
    let mut played = 0;
    while played < 400 && b.flow_at(b.cursor()).turn < 4 {
        if !play_weighted(c, id, &mut *b, &mut bot, alien_liking)? {
            break;
        }
        played += 1;
    }
    c.save_position(id, &*b)?;
    Ok(id)
}

/// Play the first legal command whose text matches `pick`, else the first one.
fn play_pick(
    c: &mut Campaign,
    id: BattleId,
    b: &mut dyn Battle,
    pick: usize,
) -> Result<bool, SaveError> {
    let legal = b.legal();
    if legal.is_empty() {
        return Ok(false);
    }
    let cmd = &legal[pick % legal.len()];
    c.play(id, b, cmd.actor, &cmd.command.clone(), None)?;
    Ok(true)
}

/// A Dice Race in mid-game: a main line, a branch that tried something
/// else from an earlier turn, and a second branch from the setup.
fn race_sample(c: &mut Campaign) -> Result<BattleId, SaveError> {
    let id = c.new_battle(
        "race",
        SAMPLE_SEED,
        &json!({ "target": 100 }),
        "Dice Race: a sample battle",
        DiceMode::Rolled,
    )?;
    let mut b = c.load_battle(id)?;
    // Roll, roll, hold: a steady pattern that moves both scores along.
    let pattern = [1, 1, 3, 0, 2, 3];
    for i in 0..30 {
        play_pick(c, id, &mut *b, pattern[i % pattern.len()])?;
    }
    b.undo(6);
    c.save_position(id, &*b)?;
    for i in 0..8 {
        play_pick(c, id, &mut *b, 2 - (i % 3))?;
    }
    b.rename_branch(1, "Bolder rolls")
        .map_err(branch_error(id))?;
    b.seek(None);
    for _ in 0..3 {
        play_pick(c, id, &mut *b, 3)?;
    }
    b.switch_branch(0).map_err(branch_error(id))?;
    c.save_position(id, &*b)?;
    Ok(id)
}

/// How the campaign's players like each kind of command: careful, they
/// move and end cards more than they shoot, so most of a roster lives to
/// gain experience.
fn campaign_liking(kind: &str) -> u32 {
    match kind {
        "shoot" => 3,
        "move" => 8,
        "end_card" => 30,
        "casualties" | "strike" => 10,
        _ => 3,
    }
}

/// Play a battle to its end (at most `limit` commands).
fn play_to_end(
    c: &mut Campaign,
    id: BattleId,
    bot: &mut Randomness,
    limit: usize,
) -> Result<(), SaveError> {
    let mut b = c.load_battle(id)?;
    for _ in 0..limit {
        if !play_weighted(c, id, &mut *b, bot, campaign_liking)? {
            break;
        }
    }
    Ok(())
}

fn refused(e: crate::CampaignFail) -> SaveError {
    match e {
        crate::CampaignFail::Save(e) => e,
        other => SaveError::Sql(format!("the sample campaign: {other}")),
    }
}

/// A small Alien Invasion campaign: U.N.I.T.'s Wyvern Platoon against the
/// Daleks' Skaro Vanguard over three skirmishes at Hollow Farm, with skills
/// bought between battles and a recruit replacing the fallen.
fn campaign_sample(c: &mut Campaign) -> Result<(), SaveError> {
    use xenolog_engine::campaign::{CampaignEvent, Status};
    let unit = c.add_roster("Wyvern Platoon", "unit").map_err(refused)?;
    let daleks = c.add_roster("Skaro Vanguard", "daleks").map_err(refused)?;
    for (name, kind) in [
        ("Sgt Benton", "rifleman"),
        ("Pte Yates", "rifleman"),
        ("Pte Harris", "rifleman"),
        ("Pte Osgood", "rifleman"),
        ("Cpl Bell", "lsw"),
        ("L/Cpl Ross", "lsw"),
        ("Pte Munro", "laws"),
        ("Pte Carter", "laws"),
    ] {
        c.add_model(unit, name, kind).map_err(refused)?;
    }
    for name in ["Dalek Kaan", "Dalek Sec", "Dalek Thay", "Dalek Jast"] {
        c.add_model(daleks, name, "dalek").map_err(refused)?;
    }
    let mut bot = Randomness::new(SAMPLE_SEED + 7, 0, None);
    for n in 0..3u64 {
        let state = c.campaign_state()?;
        // Before the battle: spend experience (the cheapest skill each
        // survivor can afford), and recruit a replacement for the dead.
        let table = crate::skill_table();
        for m in state.models.iter().filter(|m| m.status == Status::Fit) {
            let wanted = if m.kind == "dalek" {
                ["h2h_expert", "own_luck", "super_fast"]
            } else {
                ["crack_shot", "super_fast", "super_sneak"]
            };
            if let Some(s) = wanted.iter().find_map(|w| {
                table
                    .iter()
                    .find(|s| s.id == *w)
                    .filter(|s| xenolog_engine::campaign::why_not_buy(m, s).is_none())
            }) {
                c.record(CampaignEvent::SkillBought {
                    model: m.id,
                    skill: s.id.clone(),
                })
                .map_err(refused)?;
            }
        }
        let state = c.campaign_state()?;
        let dead = state
            .models
            .iter()
            .filter(|m| m.roster == unit && m.status == Status::Dead)
            .count();
        // One recruit (a rifleman) for each of the fallen, at most two.
        for k in 0..dead.min(2) {
            let name = [
                "Pte Grant",
                "Pte Walsh",
                "Pte Doyle",
                "Pte Price",
                "Pte Lane",
                "Pte Hale",
            ][(2 * n as usize + k) % 6];
            c.add_model(unit, name, "rifleman").map_err(refused)?;
        }
        let state = c.campaign_state()?;
        // Not every model fights every battle: a few rest, in turn.
        let fit = |roster: u32, max: usize| -> Vec<u32> {
            let all: Vec<u32> = state
                .models
                .iter()
                .filter(|m| m.roster == roster && m.status == Status::Fit)
                .map(|m| m.id)
                .collect();
            let skip = (3 * n as usize) % all.len().max(1);
            let mut out: Vec<u32> = all
                .iter()
                .cycle()
                .skip(skip)
                .take(max.min(all.len()))
                .copied()
                .collect();
            out.sort_unstable();
            out
        };
        let picks = [
            crate::SeatPick {
                seat: 0,
                roster: unit,
                models: fit(unit, 5),
            },
            crate::SeatPick {
                seat: 1,
                roster: daleks,
                models: fit(daleks, 3),
            },
        ];
        let picks: Vec<crate::SeatPick> =
            picks.into_iter().filter(|p| !p.models.is_empty()).collect();
        let id = c
            .new_roster_battle(
                SAMPLE_SEED + 100 + n,
                &json!({ "scenario": "skirmish" }),
                &picks,
                &format!("Hollow Farm, battle {} (campaign sample)", n + 1),
                DiceMode::Rolled,
                false,
            )
            .map_err(refused)?;
        play_to_end(c, id, &mut bot, 400)?;
    }
    // Read once, so the campaign as last read is the campaign now.
    c.campaign_recompute()?;
    Ok(())
}

fn saucers_liking(kind: &str) -> u32 {
    match kind {
        "attack" => 40,
        "complete" => 40,
        "search" => 20,
        "move" | "move_card" => 15,
        "assign" | "upkeep" | "lose" | "starve" => 10,
        "instant" => 4,
        "discard" => 2,
        "swap" | "rat_nest" => 1,
        "end_actions" => 3,
        _ => 5,
    }
}

/// Night of the Saucers, two gangs after some turns of the co-operative
/// game (Normal: three missions to win).
fn saucers_sample(c: &mut Campaign) -> Result<BattleId, SaveError> {
    let id = c.new_battle(
        "saucers",
        1984,
        &json!({ "players": 2, "missions": 3 }),
        "Night of the Saucers (sample)",
        DiceMode::Rolled,
    )?;
    let mut b = c.load_battle(id)?;
    let mut bot = Randomness::new(1985, 0, None);
    let mut played = 0;
    while played < 60 && b.flow_at(b.cursor()).turn < 4 {
        if !play_weighted(c, id, &mut *b, &mut bot, saucers_liking)? {
            break;
        }
        played += 1;
    }
    c.save_position(id, &*b)?;
    Ok(id)
}
