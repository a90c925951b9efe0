//! Test support for `xenolog-saves`, not a tool for players.
//!
//! The crash test (`saves/tests/store/crash.rs`) runs this program and kills it
//! with SIGKILL at random moments; it is a separate process so the kill is a
//! real one, with SQLite's files left exactly as the OS had them.
//!
//! - `xenolog-crash-writer write <campaign> [max]`: create the campaign if
//!   needed, then play Dice Race commands into its battle titled "crash" for
//!   ever (or `max` commands), printing `<entry id> <chain hash hex>` on its own
//!   line after each `play` returns, that is after the entry is acknowledged as
//!   durable. Every 40 commands it undoes a few and saves the position, so the
//!   log grows branches and redos too.
//! - `xenolog-crash-writer mixed <campaign> <seed> [max]`: open the campaign
//!   (it must exist, with a battle) and write at random for ever (or `max`
//!   operations): plays, commands from an earlier cursor (new branches),
//!   branch switches and cursor moves, exports and imports, campaign edits
//!   (rosters, models, skills, campaign undo and redo, battles from rosters),
//!   notes and bookmarks. Each operation is announced by a `begin` line and
//!   acknowledged by an `ok` line only after it returned `Ok` ([`mixed`]).
//! - `xenolog-crash-writer batch <campaign> [max]`: like `write`, with three
//!   battles titled "batch 0" to "batch 2" whose commands are decided in
//!   memory and written together by `Campaign::append_batch` (group commit),
//!   printing `<battle> <entry id> <chain hash hex>` for each entry after the
//!   batch returned.
//! - `xenolog-crash-writer hold <campaign>`: open the campaign for writing,
//!   print `locked`, and wait to be killed (the lock test).

mod mixed;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde_json::json;
use xenolog_saves::{Campaign, DiceMode, SaveError};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn open_or_create(path: &Path) -> Result<Campaign, SaveError> {
    if path.exists() {
        Campaign::open(path)
    } else {
        Campaign::create(path, "Crash test")
    }
}

fn write(path: &Path, max: u64) -> Result<(), String> {
    let mut c = open_or_create(path).map_err(|e| e.to_string())?;
    let id = match c
        .battles()
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|b| b.title == "crash")
    {
        Some(b) => b.id,
        None => c
            .new_battle(
                "race",
                99,
                &json!({ "target": 1_000_000_000u32 }),
                "crash",
                DiceMode::Rolled,
            )
            .map_err(|e| e.to_string())?,
    };
    let mut battle = c.load_battle(id).map_err(|e| e.to_string())?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for n in 0..max {
        if n % 40 == 39 {
            battle.undo(3);
            c.save_position(id, &*battle).map_err(|e| e.to_string())?;
        }
        let legal = battle.legal();
        let Some(cmd) = legal.get((n as usize * 7 / 3) % legal.len().max(1)) else {
            return Err("the battle is over".into());
        };
        let entry = c
            .play(id, &mut *battle, cmd.actor, &cmd.command.clone(), None)
            .map_err(|e| e.to_string())?;
        let chain = hex(&battle.records()[entry as usize].chain);
        // A closed pipe means the test has gone: stop.
        if writeln!(out, "{entry} {chain}")
            .and_then(|()| out.flush())
            .is_err()
        {
            return Ok(());
        }
    }
    Ok(())
}

fn batch(path: &Path, max: u64) -> Result<(), String> {
    let mut c = open_or_create(path).map_err(|e| e.to_string())?;
    let mut battles = Vec::new();
    for i in 0..3u64 {
        let title = format!("batch {i}");
        let found = c
            .battles()
            .map_err(|e| e.to_string())?
            .into_iter()
            .find(|b| b.title == title);
        let id = match found {
            Some(b) => b.id,
            None => c
                .new_battle(
                    "race",
                    50 + i,
                    &json!({ "target": 1_000_000_000u32 }),
                    &title,
                    DiceMode::Rolled,
                )
                .map_err(|e| e.to_string())?,
        };
        battles.push((id, c.load_battle(id).map_err(|e| e.to_string())?));
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for n in 0..max {
        let mut parts = Vec::new();
        // One, two or three battles in a batch, by turns.
        for (id, b) in battles.iter_mut().take(1 + (n % 3) as usize) {
            // Unique in the battle across restarts: its entry count.
            let cmd_id = format!("at{}", b.records().len());
            let legal = b.legal();
            let Some(cmd) = legal.get((n as usize * 7 / 3) % legal.len().max(1)) else {
                return Err("the battle is over".into());
            };
            let d = xenolog_saves::decide(
                *id,
                &mut **b,
                cmd.actor,
                &cmd.command,
                None,
                DiceMode::Rolled,
            )
            .map_err(|e| e.to_string())?;
            parts.push(d.command_id(cmd.actor, &cmd_id));
        }
        let results = c.append_batch(&parts).map_err(|e| e.to_string())?;
        for (part, r) in parts.iter().zip(results) {
            r.map_err(|e| e.to_string())?;
            let (_, b) = battles.iter().find(|(id, _)| *id == part.battle()).unwrap();
            for e in part.entries() {
                let chain = hex(&b.records()[e as usize].chain);
                if writeln!(out, "{} {e} {chain}", part.battle()).is_err() {
                    return Ok(());
                }
            }
        }
        if out.flush().is_err() {
            return Ok(());
        }
    }
    Ok(())
}

fn hold(path: &Path) -> Result<(), String> {
    let _c = Campaign::open(path).map_err(|e| e.to_string())?;
    println!("locked");
    loop {
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let result = match args.get(1..) {
        Some([mode, path]) if mode == "write" => write(Path::new(path), u64::MAX),
        Some([mode, path, max]) if mode == "write" => match max.parse() {
            Ok(max) => write(Path::new(path), max),
            Err(_) => Err(format!("'{max}' is not a number of commands")),
        },
        Some([mode, path, seed, rest @ ..]) if mode == "mixed" && rest.len() <= 1 => {
            match (seed.parse(), rest.first().map_or(Ok(u64::MAX), |m| m.parse())) {
                (Ok(seed), Ok(max)) => mixed::run(Path::new(path), seed, max),
                _ => Err(format!(
                    "'{seed}' (the seed) and the operation count must be numbers"
                )),
            }
        }
        Some([mode, path]) if mode == "hold" => hold(Path::new(path)),
        Some([mode, path]) if mode == "batch" => batch(Path::new(path), u64::MAX),
        _ => Err(
            "usage: xenolog-crash-writer write <campaign> [max] | batch <campaign> | mixed <campaign> <seed> [max] | hold <campaign>"
                .into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xenolog-crash-writer: {e}");
            ExitCode::FAILURE
        }
    }
}
