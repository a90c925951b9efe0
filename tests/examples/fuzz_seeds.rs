//! Write the seed corpora of the fuzz targets (`fuzz/`) from real files:
//!
//! ```sh
//! cargo run -p xenolog-tests --example fuzz_seeds -- fuzz/seeds
//! ```
//!
//! Each target gets a folder of inputs in the form its harness takes
//! (`xenolog_tests::fuzzing`): entry records and snapshots pulled from the
//! compatibility fixtures' campaign files, the exported battle files (whole,
//! and as the payload the harness seals itself), every shipped data file,
//! the campaign log and results of the fixtures, and the commands `legal
//! --json` lists at the harness's battle positions as `play` script lines.
//! `fuzz/run.sh seeds` minimises them into `fuzz/corpus/` with `cargo fuzz cmin`.

use std::path::{Path, PathBuf};

use serde_json::json;
use xenolog_tests::fuzzing;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

const COMPAT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/compat");
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/data");

struct Seeds {
    root: PathBuf,
    n: usize,
}

impl Seeds {
    fn put(&mut self, target: &str, bytes: &[u8]) -> Res<()> {
        let dir = self.root.join(target);
        std::fs::create_dir_all(&dir)?;
        let name = blake3::hash(bytes).to_hex();
        std::fs::write(dir.join(&name.as_str()[..16]), bytes)?;
        self.n += 1;
        Ok(())
    }

    fn put_picked(&mut self, target: &str, pick: u8, body: &[u8]) -> Res<()> {
        let mut v = vec![pick];
        v.extend_from_slice(body);
        self.put(target, &v)
    }
}

fn fixtures() -> Res<Vec<PathBuf>> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(COMPAT)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    dirs.sort();
    Ok(dirs)
}

fn from_campaigns(s: &mut Seeds) -> Res<()> {
    for dir in fixtures()? {
        let db = rusqlite::Connection::open_with_flags(
            dir.join("campaign.xenolog"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )?;
        // A sample of entries of every battle: the first ones, and every 7th.
        let mut q = db.prepare(
            "SELECT b.rules_version, e.seq, e.record FROM entries e
             JOIN battles b ON b.id = e.battle WHERE e.seq < 6 OR e.seq % 7 = 0",
        )?;
        let rows = q.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, Vec<u8>>(2)?,
            ))
        })?;
        for row in rows {
            let (rules, seq, rec) = row?;
            let mut v = vec![rules as u8, seq as u8];
            v.extend_from_slice(&rec);
            s.put("entry_record", &v)?;
        }
        let mut q = db.prepare("SELECT state FROM snapshots WHERE length(state) < 60000")?;
        let rows = q.query_map([], |r| r.get::<_, Vec<u8>>(0))?;
        for row in rows {
            s.put("snapshot_record", &row?)?;
        }
        let has = |t: &str| -> Res<bool> {
            Ok(db.query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = ?1",
                [t],
                |r| r.get::<_, i64>(0),
            )? > 0)
        };
        if has("campaign_log")? {
            let mut q = db.prepare("SELECT event FROM campaign_log ORDER BY id")?;
            let events: Vec<String> = q
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<Result<_, _>>()?;
            let mut q =
                db.prepare("SELECT outcome FROM campaign_results WHERE outcome IS NOT NULL")?;
            let outcomes: Vec<String> = q
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<Result<_, _>>()?;
            for o in outcomes.iter().chain(std::iter::once(&"null".to_owned())) {
                let text = std::iter::once(o.as_str())
                    .chain(events.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join("\n");
                s.put("campaign_record", text.as_bytes())?;
            }
        }
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "xbattle") {
                let bytes = std::fs::read(&path)?;
                // The payload, for the harness to seal: pick 1 is format 1.
                let header = xenolog_schema::battle_file::MAGIC.len() + 4;
                let version = u32::from_le_bytes(bytes[header - 4..header].try_into()?);
                let payload = &bytes[header..bytes.len() - 32];
                // open_battle reads the same input as battle_file.
                for target in ["battle_file", "open_battle"] {
                    s.put(target, &bytes)?;
                    s.put_picked(target, u8::from(version == 1), payload)?;
                }
            }
        }
    }
    Ok(())
}

fn text(path: &str) -> Res<Vec<u8>> {
    Ok(std::fs::read(Path::new(DATA).join(path))?)
}

fn from_data_files(s: &mut Seeds) -> Res<()> {
    for (pick, f) in [
        (0, "dimx/scenario_alpha.txt"),
        (1, "dimx/scenario_beta.txt"),
        (0, "dimx/scenario_campaign.txt"),
        (2, "dimx/map_alpha.txt"),
        (2, "dimx/map_beta.txt"),
        (3, "dimx/counters.txt"),
        (4, "dimx/chits.txt"),
    ] {
        s.put_picked("data_dimx", pick, &text(f)?)?;
    }
    for (pick, f) in [
        (0, "invasion/scenarios/crash_site.txt"),
        (0, "invasion/scenarios/skirmish.txt"),
        (1, "invasion/factions/daleks.txt"),
        (1, "invasion/factions/mib.txt"),
        (1, "invasion/factions/spugs.txt"),
        (1, "invasion/factions/unit.txt"),
        (2, "invasion/advanced.txt"),
    ] {
        s.put_picked("data_invasion", pick, &text(f)?)?;
    }
    s.put("skills_table", &text("invasion/skills.txt")?)?;
    for (pick, f) in [
        (0, "alien/base.txt"),
        (1, "alien/items.txt"),
        (2, "alien/characters.txt"),
        (3, "alien/fight.txt"),
        (4, "alien/tasks.txt"),
    ] {
        s.put_picked("data_alien", pick, &text(f)?)?;
    }
    for (pick, f) in ["tiles", "humans", "cards", "aliens", "missions", "tokens"]
        .iter()
        .enumerate()
    {
        s.put_picked(
            "data_saucers",
            pick as u8,
            &text(&format!("saucers/{f}.txt"))?,
        )?;
    }
    Ok(())
}

/// Position files: the examples of the games' RULES.md and `position.rs`.
fn positions(s: &mut Seeds) -> Res<()> {
    let alien = "turn 3\npoints 1\ndone 6\nopen 11 17\nqueen alive\n\
        character hicks at K9 strength 4 items rifle ammo3 grenade\n\
        character bishop at apc\ncharacter gorman at outside 2\ncharacter apone at dead\n\
        alien 3 at M8\napc G12 fuel 2\ncollapsed G10\nfloor medkit B10\n";
    s.put_picked("data_alien", 5, alien.as_bytes())?;
    let saucers = "searched C3 D4\ndestroyed E5\nalien scout B2 north\n\
        alien probe D3\nalien saucer F6\n# a comment\n";
    s.put_picked("data_saucers", 6, saucers.as_bytes())?;
    Ok(())
}

fn play_lines(s: &mut Seeds) -> Res<()> {
    for (target, game) in [
        ("play_json_dimx", "dimx"),
        ("play_json_saucers", "saucers"),
        ("play_json_alien", "alien"),
        ("play_json_invasion", "invasion"),
    ] {
        let game_no = fuzzing::PLAY_GAMES
            .iter()
            .position(|g| *g == game)
            .ok_or("a game of the harness")? as u8;
        for (pos, b) in fuzzing::positions(game).iter().enumerate() {
            // Every legal command, and a die-entered form of the first.
            let mut lines: Vec<serde_json::Value> = b
                .legal()
                .iter()
                .take(40)
                .map(|c| json!({"actor": c.actor, "command": c.command}))
                .collect();
            if let Some(first) = lines.first().cloned() {
                let mut entered = first;
                entered["dice"] = json!([1, 6, 3]);
                lines.push(entered);
            }
            for line in lines {
                let bytes = serde_json::to_vec(&line)?;
                s.put_picked(target, pos as u8, &bytes)?;
                s.put_picked("play_json_any", pos as u8 * 6 + game_no, &bytes)?;
            }
        }
    }
    Ok(())
}

fn main() -> Res<()> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: fuzz_seeds <folder>")?,
    );
    let mut s = Seeds { root, n: 0 };
    from_campaigns(&mut s)?;
    from_data_files(&mut s)?;
    positions(&mut s)?;
    play_lines(&mut s)?;
    for (t, _) in fuzzing::TARGETS {
        std::fs::create_dir_all(s.root.join(t))?;
    }
    println!("{} seed files written under {}", s.n, s.root.display());
    Ok(())
}
