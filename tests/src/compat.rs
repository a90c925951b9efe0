//! Compatibility fixtures: what a campaign file looked like to the build that
//! wrote it, so every later build can be checked against it (DESIGN.md
//! principle 12, "old files always open").
//!
//! A fixture is a folder under `tests/fixtures/compat/` holding a campaign file
//! written by a released build, the single-battle export files it made, and a
//! `manifest.json` that the same build wrote with [`describe`]: the formats and
//! rules versions it wrote, and for every battle its shape (entries, branches,
//! cursor, status) and a hash of the state after every entry.
//!
//! The fixtures test opens each fixture with today's build and describes it
//! again. Where a game's rules version is still the one the fixture recorded,
//! every state hash must come out the same (a difference is a layout or rule
//! change that was not given a new rules version). Where the game has a newer
//! rules version, the battle must still open, fold to a state at every entry,
//! draw its board and read in words, and `verify` may only report
//! "recorded under rules version X, now Y".
//!
//! Adding a fixture is one step: `cargo run -p xenolog-tests --example
//! make_compat_fixture -- tests/fixtures/compat/<date>` with the build being
//! released, then commit the folder. A fixture is never removed or rewritten.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use xenolog_engine::{Battle, EntryId};
use xenolog_saves::{BattleId, Campaign, SaveError};

/// The file name of the campaign inside a fixture folder.
pub const CAMPAIGN_FILE: &str = "campaign.xenolog";
/// The file name of the manifest inside a fixture folder.
pub const MANIFEST_FILE: &str = "manifest.json";

/// What the build that wrote a fixture saw in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Which build wrote the fixture, in words (version and date).
    pub written_by: String,
    /// The campaign database's schema version (`user_version`).
    pub schema_version: u32,
    /// The entry record format the build wrote.
    pub entry_format: u32,
    /// The snapshot envelope format the build wrote.
    pub snapshot_format: u32,
    /// The battle file format the build wrote.
    pub battle_file_format: u32,
    /// Each available game's rules version in that build.
    pub rules_versions: BTreeMap<String, u32>,
    /// The campaign's battles, in id order.
    pub battles: Vec<BattleManifest>,
    /// The single-battle export files: file name and the battle exported.
    pub exports: Vec<ExportManifest>,
    /// The campaign layer (schema 5 on) as [`describe_campaign`] words it:
    /// rosters, models, experience, skills, battles fought and flags.
    /// Empty in fixtures written before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub campaign: Vec<String>,
}

/// One battle of a fixture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleManifest {
    pub id: BattleId,
    pub game: String,
    pub title: String,
    /// The rules version the battle was started under.
    pub rules_version: u32,
    pub dice_mode: String,
    /// Entries on all branches.
    pub entries: u64,
    /// Branch names, in id order.
    pub branches: Vec<String>,
    pub cursor: Option<EntryId>,
    pub branch: u32,
    /// The result at the cursor, in words, when the battle is over there.
    pub result: Option<String>,
    /// How many entries were recorded with entered dice.
    pub entered_entries: u64,
    /// A strict battle (fixtures from before strict battles: false).
    #[serde(default)]
    pub strict: bool,
    /// Entries played by the game itself (fixtures from before: 0).
    #[serde(default)]
    pub system_entries: u64,
    /// [`state_hash`] of the setup.
    pub setup: String,
    /// [`state_hash`] after every entry, by entry id.
    pub states: Vec<String>,
}

/// A single-battle export file of a fixture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportManifest {
    /// The file name inside the fixture folder.
    pub file: String,
    /// The campaign battle it was exported from.
    pub battle: BattleId,
}

/// A hash of the state after an entry (`None`: the setup), from its JSON form
/// (BLAKE3 of `serde_json::to_vec`, hex). Independent of the stored bytes, so
/// a decoder bug that reads old bytes wrongly changes it.
pub fn state_hash(battle: &dyn Battle, at: Option<EntryId>) -> String {
    let json = serde_json::to_vec(&battle.state_json(at)).unwrap_or_default();
    blake3::hash(&json).to_hex()[..32].to_owned()
}

/// Describe one loaded battle.
pub fn describe_battle(
    id: BattleId,
    title: &str,
    dice_mode: &str,
    b: &dyn Battle,
) -> BattleManifest {
    let n = b.records().len() as EntryId;
    BattleManifest {
        id,
        game: b.game_id().to_owned(),
        title: title.to_owned(),
        rules_version: b.meta().rules_version,
        dice_mode: dice_mode.to_owned(),
        entries: n,
        branches: b.branches().iter().map(|br| br.name.clone()).collect(),
        cursor: b.cursor(),
        branch: b.current_branch(),
        result: b.outcome().map(|o| o.summary),
        entered_entries: b.records().iter().filter(|r| r.entered).count() as u64,
        strict: b.meta().strict,
        system_entries: b
            .records()
            .iter()
            .filter(|r| r.actor == xenolog_engine::Actor::SYSTEM)
            .count() as u64,
        setup: state_hash(b, None),
        states: (0..n).map(|id| state_hash(b, Some(id))).collect(),
    }
}

/// Describe every battle of an open campaign, in id order.
pub fn describe_battles(c: &Campaign) -> Result<Vec<BattleManifest>, SaveError> {
    let mut out = Vec::new();
    for s in c.battles()? {
        let b = c.load_battle(s.id)?;
        out.push(describe_battle(s.id, &s.title, s.dice_mode.as_str(), &*b));
    }
    Ok(out)
}

/// Read a fixture's manifest.
pub fn read_manifest(dir: &Path) -> Result<Manifest, String> {
    let path = dir.join(MANIFEST_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The campaign layer in lines of words, for comparing a fixture's rosters
/// and experience with what a later build folds from the same file.
pub fn describe_campaign(c: &Campaign) -> Result<Vec<String>, SaveError> {
    let s = c.campaign_state()?;
    let mut out = Vec::new();
    if s.last == 0 {
        return Ok(out);
    }
    out.push(format!(
        "{} log entries, casualties {:?}, undone {:?}",
        s.last, s.casualties, s.undone
    ));
    for r in &s.rosters {
        out.push(format!("roster {} {:?} ({})", r.id, r.name, r.faction));
        for m in r.models.iter().filter_map(|id| s.model(*id)) {
            out.push(format!(
                "  model {} {:?} ({}) {:?}: earned {}, spent {}, perception +{}, skills {:?}, {} battles, {} kills",
                m.id,
                m.name,
                m.kind,
                m.status,
                m.earned,
                m.spent,
                m.perception,
                m.skills,
                m.battles.len(),
                m.kills
            ));
        }
    }
    for b in &s.battles {
        out.push(format!(
            "battle {:?} at entry {}: {} fighters, result {:?}",
            b.battle,
            b.entry,
            b.fighters.len(),
            b.result
        ));
    }
    for f in &s.flags {
        out.push(format!(
            "flag at entry {} on model {}: {}",
            f.entry, f.model, f.words
        ));
    }
    Ok(out)
}
