//! The `mixed` mode: every kind of write a campaign sees, at random, each
//! announced before it starts and acknowledged only after it returned `Ok`.
//!
//! The kill test (`saves/tests/store/crash/mixed.rs`) reads the lines:
//!
//! - `begin <kind> [battle]`: an operation starts (the line is flushed
//!   before it reads or writes anything, so a kill after it lands
//!   mid-operation). Kinds: `play`, `takeback`, `pos`, `export`, `import`,
//!   `new`, `camp`, `note`. A later `begin` with no `ok` between means the
//!   earlier one chose to write nothing (e.g. an export that became a new
//!   battle).
//! - `skip`: the operation found nothing to do and wrote nothing.
//! - `ok play|takeback|new|import <battle> <cursor> <branch> <entry>:<chain>...`:
//!   the battle's saved position now, and each entry the operation added
//!   with its chain hash (hex). A redo adds none.
//! - `ok pos <battle> <cursor> <branch>`: a saved position (switch, seek,
//!   undo, redo).
//! - `ok export <battle> <entries>`: the export file holds this battle.
//! - `ok camp <log entry> <event JSON>`: a campaign log entry.
//! - `ok note <battle> <entry> none` or `ok note <battle> <entry> <0|1> <text>`:
//!   the annotation on that entry now.
//! - `refused <kind> <why>`: the rules refused it; nothing was written.
//!
//! A cursor at the setup is written `-`. Any other error ends the writer with
//! a message and exit code 1, which the test reports as a failure.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::json;
use xenolog_engine::Battle;
use xenolog_engine::campaign::{CampaignEvent, Status};
use xenolog_saves::{BattleId, Campaign, CampaignFail, DiceMode, SaveError, SeatPick, skill_table};

use crate::hex;

/// The export file the import operations go through, beside the campaign.
pub const EXPORT_NAME: &str = "mixed-export.xenolog-battle";

/// Bounds that keep a long soak's file (and the test's checks) small.
const MAX_ROSTERS: usize = 3;
const MAX_MODELS: usize = 24;
const MAX_ROSTER_BATTLES: usize = 6;
/// Battles longer than this are not exported for an import (a new battle
/// is started instead), so the campaign grows by small battles only.
const MAX_IMPORT_ENTRIES: usize = 60;

/// xorshift64*: the writer's own choices, reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn cursor_word(c: Option<u64>) -> String {
    c.map_or_else(|| "-".to_owned(), |c| c.to_string())
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

struct Mixed<'a> {
    c: Campaign,
    export: PathBuf,
    battles: Vec<BattleId>,
    loaded: HashMap<BattleId, Box<dyn Battle>>,
    rng: Rng,
    out: std::io::StdoutLock<'a>,
    n: u64,
}

/// Whether the test is still listening.
type Listening = bool;

impl Mixed<'_> {
    fn say(&mut self, line: &str) -> Listening {
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .is_ok()
    }

    fn battle(&mut self, id: BattleId) -> Result<&mut Box<dyn Battle>, String> {
        if !self.loaded.contains_key(&id) {
            let b = self.c.load_battle(id).map_err(err)?;
            self.loaded.insert(id, b);
        }
        Ok(self.loaded.get_mut(&id).expect("inserted just above"))
    }

    /// `ok <kind> <battle> <cursor> <branch>` and the entries from `from` on.
    fn ack_entries(&mut self, kind: &str, id: BattleId, from: usize) -> Result<Listening, String> {
        let b = self.battle(id)?;
        let mut line = format!(
            "ok {kind} {id} {} {}",
            cursor_word(b.cursor()),
            b.current_branch()
        );
        for (e, r) in b.records().iter().enumerate().skip(from) {
            line.push_str(&format!(" {e}:{}", hex(&r.chain)));
        }
        Ok(self.say(&line))
    }

    fn ack_position(&mut self, id: BattleId) -> Result<Listening, String> {
        let b = self.battle(id)?;
        let line = format!(
            "ok pos {id} {} {}",
            cursor_word(b.cursor()),
            b.current_branch()
        );
        Ok(self.say(&line))
    }

    fn step(&mut self) -> Result<Listening, String> {
        let id = self.battles[self.rng.below(self.battles.len())];
        match self.rng.below(100) {
            0..40 => self.play(id, 0),
            40..50 => {
                let k = 1 + self.rng.below(4);
                self.play(id, k)
            }
            50..58 => self.switch(id),
            58..66 => self.seek(id),
            66..69 => self.import(),
            69..88 => self.camp(),
            _ => self.note(id),
        }
    }

    /// Play a legal command at the cursor, after taking back `back` entries
    /// (a command from an earlier cursor starts a new branch).
    fn play(&mut self, id: BattleId, back: usize) -> Result<Listening, String> {
        let kind = if back > 0 { "takeback" } else { "play" };
        if !self.say(&format!("begin {kind} {id}")) {
            return Ok(false);
        }
        let pick = self.rng.next();
        let b = self.battle(id)?;
        let mut back = back;
        if b.outcome().is_some() || b.legal().is_empty() {
            back = back.max(1);
        }
        if back > 0 {
            b.undo(back);
        }
        let legal = b.legal();
        if legal.is_empty() {
            return Ok(self.say("skip"));
        }
        // In an Alien Invasion battle, end the card half the time, so
        // battles reach their end and award experience.
        let cmd = match legal.iter().find(|l| l.text.contains("end the card")) {
            Some(end) if pick.is_multiple_of(2) => end.clone(),
            _ => legal[(pick >> 1) as usize % legal.len()].clone(),
        };
        let before = b.records().len();
        let kind = if back > 0 { "takeback" } else { "play" };
        let b = self.loaded.get_mut(&id).expect("loaded above");
        match self.c.play(id, &mut **b, cmd.actor, &cmd.command, None) {
            Ok(_) => self.ack_entries(kind, id, before),
            Err(SaveError::Play(e)) => Ok(self.say(&format!("refused {kind} {e}"))),
            Err(e) => Err(err(e)),
        }
    }

    fn switch(&mut self, id: BattleId) -> Result<Listening, String> {
        if !self.say(&format!("begin pos {id}")) {
            return Ok(false);
        }
        let pick = self.rng.below(usize::MAX);
        let b = self.battle(id)?;
        let ids: Vec<u32> = b.branches().iter().map(|x| x.id).collect();
        b.switch_branch(ids[pick % ids.len()]).map_err(err)?;
        self.save_position(id)
    }

    fn seek(&mut self, id: BattleId) -> Result<Listening, String> {
        if !self.say(&format!("begin pos {id}")) {
            return Ok(false);
        }
        let how = self.rng.below(4);
        let k = 1 + self.rng.below(6);
        let pick = self.rng.below(usize::MAX);
        let b = self.battle(id)?;
        match how {
            0 => {
                b.undo(k);
            }
            1 => {
                b.redo(k);
            }
            2 => {
                let n = b.records().len();
                b.seek((n > 0).then(|| (pick % n) as u64));
            }
            _ => {
                let head = b.head(b.current_branch());
                b.seek(head);
            }
        }
        self.save_position(id)
    }

    fn save_position(&mut self, id: BattleId) -> Result<Listening, String> {
        let b = self.loaded.get(&id).expect("loaded by the caller");
        self.c.save_position(id, &**b).map_err(err)?;
        self.ack_position(id)
    }

    /// Export a small battle and import it as a new one; with no small
    /// battle to copy, start a new one.
    fn import(&mut self) -> Result<Listening, String> {
        if !self.say("begin export") {
            return Ok(false);
        }
        let mut small = Vec::new();
        for s in self.c.battles().map_err(err)? {
            if s.entries as usize <= MAX_IMPORT_ENTRIES {
                small.push(s.id);
            }
        }
        if small.is_empty() {
            if !self.say("begin new") {
                return Ok(false);
            }
            let seed = self.rng.next() >> 1;
            let id = self
                .c
                .new_battle(
                    "race",
                    seed,
                    &json!({ "target": 1_000_000_000u32 }),
                    "race",
                    DiceMode::Rolled,
                )
                .map_err(err)?;
            self.battles.push(id);
            return self.ack_entries("new", id, 0);
        }
        let from = small[self.rng.below(small.len())];
        self.c.export_battle(from, &self.export).map_err(err)?;
        let entries = self.c.summary(from).map_err(err)?.entries;
        if !self.say(&format!("ok export {from} {entries}")) {
            return Ok(false);
        }
        if !self.say("begin import") {
            return Ok(false);
        }
        let id = self.c.import_battle(&self.export).map_err(err)?;
        self.battles.push(id);
        self.ack_entries("import", id, 0)
    }

    /// One campaign edit: a roster, a recruit, a rename, a retirement, a
    /// skill bought, a campaign undo or redo, or a battle from a roster.
    fn camp(&mut self) -> Result<Listening, String> {
        if !self.say("begin camp") {
            return Ok(false);
        }
        self.n += 1;
        let state = self.c.campaign_state().map_err(err)?;
        let log = self.c.campaign_log().map_err(err)?;
        let fit: Vec<u32> = state
            .models
            .iter()
            .filter(|m| m.status == Status::Fit)
            .map(|m| m.id)
            .collect();
        let any_model = |r: &mut Rng| state.models.get(r.below(state.models.len())).map(|m| m.id);
        let event = match self.rng.below(10) {
            0 if state.rosters.len() < MAX_ROSTERS => CampaignEvent::RosterCreated {
                roster: state.next_roster(),
                name: format!("Roster {}", self.n),
                faction: "unit".into(),
            },
            0 | 1 if state.models.len() < MAX_MODELS && !state.rosters.is_empty() => {
                let r = &state.rosters[self.rng.below(state.rosters.len())];
                CampaignEvent::ModelRecruited {
                    roster: r.id,
                    model: state.next_model(&log),
                    name: format!("Trooper {}", self.n),
                    kind: "rifleman".into(),
                }
            }
            2 => match any_model(&mut self.rng) {
                Some(model) => CampaignEvent::ModelRenamed {
                    model,
                    name: format!("Renamed {}", self.n),
                },
                None => return Ok(self.say("skip")),
            },
            3 if fit.len() > 6 => CampaignEvent::ModelRetired {
                model: fit[self.rng.below(fit.len())],
            },
            4 | 5 => {
                let table = skill_table();
                match any_model(&mut self.rng) {
                    Some(model) => CampaignEvent::SkillBought {
                        model,
                        skill: table[self.rng.below(table.len())].id.clone(),
                    },
                    None => return Ok(self.say("skip")),
                }
            }
            6 => return self.camp_undo(false),
            7 => return self.camp_undo(true),
            _ => return self.roster_battle(&fit),
        };
        match self.c.record(event.clone()) {
            Ok(entry) => {
                let text = serde_json::to_string(&event).map_err(err)?;
                Ok(self.say(&format!("ok camp {entry} {text}")))
            }
            Err(CampaignFail::Refused(e)) => Ok(self.say(&format!("refused camp {e}"))),
            Err(e) => Err(err(e)),
        }
    }

    fn camp_undo(&mut self, redo: bool) -> Result<Listening, String> {
        let done = if redo {
            self.c.campaign_redo()
        } else {
            self.c.campaign_undo()
        };
        match done {
            Ok((entry, of)) => {
                let event = if redo {
                    CampaignEvent::Redone { entry: of }
                } else {
                    CampaignEvent::Undone { entry: of }
                };
                let text = serde_json::to_string(&event).map_err(err)?;
                Ok(self.say(&format!("ok camp {entry} {text}")))
            }
            Err(CampaignFail::Refused(e)) => Ok(self.say(&format!("refused camp {e}"))),
            Err(e) => Err(err(e)),
        }
    }

    fn roster_battle(&mut self, fit: &[u32]) -> Result<Listening, String> {
        let state = self.c.campaign_state().map_err(err)?;
        if state.battles.len() >= MAX_ROSTER_BATTLES {
            return Ok(self.say("skip"));
        }
        let Some(roster) = state.rosters.first() else {
            return Ok(self.say("skip"));
        };
        let models: Vec<u32> = fit
            .iter()
            .copied()
            .filter(|m| state.model(*m).is_some_and(|s| s.roster == roster.id))
            .take(4)
            .collect();
        if models.is_empty() {
            return Ok(self.say("skip"));
        }
        if !self.say("begin new") {
            return Ok(false);
        }
        let seed = self.rng.next() >> 1;
        let made = self.c.new_roster_battle(
            seed,
            &json!({ "scenario": "skirmish" }),
            &[SeatPick {
                seat: 0,
                roster: roster.id,
                models,
            }],
            "",
            DiceMode::Rolled,
            false,
        );
        match made {
            Ok(id) => {
                self.battles.push(id);
                self.ack_entries("new", id, 0)
            }
            Err(CampaignFail::Refused(e)) => Ok(self.say(&format!("refused new {e}"))),
            Err(e) => Err(err(e)),
        }
    }

    /// Write, change or remove a note or a bookmark on one entry.
    fn note(&mut self, id: BattleId) -> Result<Listening, String> {
        if !self.say(&format!("begin note {id}")) {
            return Ok(false);
        }
        self.n += 1;
        let how = self.rng.below(5);
        let pick = self.rng.below(usize::MAX);
        let n = self.battle(id)?.records().len();
        if n == 0 {
            return Ok(self.say("skip"));
        }
        let entry = (pick % n) as u64;
        match how {
            0 | 1 => self
                .c
                .set_note(id, entry, &format!("note {} on entry {entry}", self.n)),
            2 => self.c.set_bookmark(id, entry, true),
            3 => self.c.set_bookmark(id, entry, false),
            _ => self.c.remove_note(id, entry).map(|_| ()),
        }
        .map_err(err)?;
        let line = match self.c.annotation(id, entry).map_err(err)? {
            None => format!("ok note {id} {entry} none"),
            Some(a) => format!("ok note {id} {entry} {} {}", u8::from(a.bookmark), a.text),
        };
        Ok(self.say(&line))
    }
}

/// Open the campaign (it must exist) and write at random, `max` operations
/// or until killed.
pub fn run(path: &Path, seed: u64, max: u64) -> Result<(), String> {
    let c = Campaign::open(path).map_err(err)?;
    let battles: Vec<BattleId> = c.battles().map_err(err)?.iter().map(|b| b.id).collect();
    if battles.is_empty() {
        return Err("the campaign has no battle to write into".into());
    }
    let export = path
        .parent()
        .unwrap_or_else(|| Path::new("."))
        .join(EXPORT_NAME);
    let stdout = std::io::stdout();
    let mut m = Mixed {
        c,
        export,
        battles,
        loaded: HashMap::new(),
        rng: Rng(seed | 1),
        out: stdout.lock(),
        n: seed % 1_000_000,
    };
    for _ in 0..max {
        // A closed pipe means the test has gone: stop.
        if !m.step()? {
            return Ok(());
        }
    }
    Ok(())
}
