//! The campaign layer on the command line: rosters, models, skills, the
//! campaign log and the campaign state (`xenolog roster|model|skill|campaign`).
//!
//! Every change is decided against the campaign first; a refusal is exit
//! code 1 with the rule in words, and writes nothing.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde_json::{Value, json};
use xenolog_engine::campaign::{
    CampaignEvent, CampaignState, Casualties, ModelId, ModelSheet, RosterId, Status, why_not_buy,
};
use xenolog_saves::{Campaign, CampaignFail, DiceMode, SeatPick, SetAside, describe, faction_name};

use super::{Fail, Out, json_line, line, open_ro, open_rw};

/// `xenolog campaign copy` (issue 31).
#[path = "campaign_copy.rs"]
mod copy;

impl From<CampaignFail> for Fail {
    fn from(e: CampaignFail) -> Self {
        match e {
            CampaignFail::Refused(r) => Fail::rule(r.message),
            CampaignFail::Setup(s) => Fail::usage(s),
            CampaignFail::Save(s) => s.into(),
        }
    }
}

#[derive(Args, Debug)]
pub(super) struct FileArg {
    /// The campaign file.
    pub file: PathBuf,
    #[arg(long)]
    pub json: bool,
}

/// `xenolog roster ...`
#[derive(Subcommand, Debug)]
pub(super) enum RosterCmd {
    /// Raise a roster for a faction (ids: unit, daleks, mib, spugs).
    Add {
        #[command(flatten)]
        at: FileArg,
        #[arg(long)]
        name: String,
        #[arg(long)]
        faction: String,
    },
    /// The rosters and their models.
    List {
        #[command(flatten)]
        at: FileArg,
    },
    /// One roster's models (a roster sheet), by id or name.
    Show {
        #[command(flatten)]
        at: FileArg,
        roster: String,
        /// Write the printable roster sheet (HTML) to this file.
        #[arg(long)]
        html: Option<PathBuf>,
    },
    /// Rename a roster.
    Rename {
        #[command(flatten)]
        at: FileArg,
        roster: String,
        #[arg(long)]
        name: String,
    },
    /// Retire every fighting-fit model of a roster (their history stays).
    Retire {
        #[command(flatten)]
        at: FileArg,
        roster: String,
    },
}

/// `xenolog model ...`
#[derive(Subcommand, Debug)]
pub(super) enum ModelCmd {
    /// Recruit a model with no experience; prints its id.
    Add {
        #[command(flatten)]
        at: FileArg,
        /// The roster, by id or name.
        #[arg(long)]
        roster: String,
        #[arg(long)]
        name: String,
        /// Its model type id in the faction file (e.g. soldier).
        #[arg(long)]
        kind: String,
    },
    /// A model's sheet with its history, by id or name.
    Show {
        #[command(flatten)]
        at: FileArg,
        model: String,
    },
    Rename {
        #[command(flatten)]
        at: FileArg,
        model: String,
        #[arg(long)]
        name: String,
    },
    /// Retire a model: it fights no more, its history stays.
    Retire {
        #[command(flatten)]
        at: FileArg,
        model: String,
    },
    /// Remove a model recruited by mistake (only one that never fought).
    Remove {
        #[command(flatten)]
        at: FileArg,
        model: String,
    },
}

/// `xenolog skill ...`
#[derive(Subcommand, Debug)]
pub(super) enum SkillCmd {
    /// The skills with their costs and caps; with a model, what it can buy
    /// and why not.
    List {
        #[command(flatten)]
        at: FileArg,
        model: Option<String>,
    },
    /// Spend a model's experience on a skill (before a battle).
    Buy {
        #[command(flatten)]
        at: FileArg,
        model: String,
        /// The skill id or name (e.g. crack_shot, "Crack Shot").
        skill: String,
    },
}

/// `xenolog campaign ...`
#[derive(Subcommand, Debug)]
pub(super) enum CampaignCmd {
    /// The campaign log, in words.
    Log {
        #[command(flatten)]
        at: FileArg,
    },
    /// Rosters, models, experience and skills, folded from the log and the
    /// battles; what a taken-back battle changed since last read; flags.
    State {
        #[command(flatten)]
        at: FileArg,
        /// As it stood then: YYYY-MM-DD (end of that day, UTC),
        /// YYYY-MM-DDTHH:MM[:SS] (UTC), or @UNIX-SECONDS.
        #[arg(long = "at", value_name = "DATE")]
        date: Option<String>,
    },
    /// Merge another copy of this campaign into this one (issue 30 item 9):
    /// the other copy's battles are checked and copied over, the entries of
    /// both logs land in time order, and an entry that no longer validates
    /// there is a conflict, listed and set aside (kept, not applied). The
    /// other copy is only read. Either copy may be a file or a campaign on
    /// PostgreSQL, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE#SCHEMA
    /// (as `campaign copy` takes it).
    Merge {
        /// This copy (the one written): a file or postgres://...#SCHEMA.
        file: String,
        /// The other copy of the same campaign: a file or
        /// postgres://...#SCHEMA.
        theirs: String,
        /// The other file is a copy of this campaign although its uid
        /// differs (both copied from one file before copies kept one uid,
        /// and upgraded apart): merged only if their entries from before
        /// the upgrade agree, entry by entry.
        #[arg(long)]
        same_campaign: bool,
        #[arg(long)]
        json: bool,
    },
    /// Copy a campaign whole to a new place, every row as it is, then
    /// verify every battle there: a campaign file into a PostgreSQL
    /// database, back, or file to file (issue 31). FROM and TO are each a
    /// file path or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE#SCHEMA
    /// (the campaign's schema after #; lower-case letters, digits, _). TO
    /// must not exist yet; if anything fails nothing is left there.
    Copy {
        /// The campaign copied (only read).
        from: String,
        /// Where the copy goes: a new file, or a new schema.
        to: String,
        #[arg(long)]
        json: bool,
    },
    /// Take back the last campaign entry (nothing is deleted).
    Undo {
        #[command(flatten)]
        at: FileArg,
    },
    /// Put back the entry undone last.
    Redo {
        #[command(flatten)]
        at: FileArg,
    },
    /// What happens to a model killed in a battle: dead (dead and gone, the
    /// default) or return (back for the next battle, without the EP).
    Setting {
        #[command(flatten)]
        at: FileArg,
        #[arg(long)]
        casualties: String,
    },
}

fn roster_of(state: &CampaignState, text: &str) -> Out<RosterId> {
    let t = text.trim();
    if let Ok(n) = t.parse::<RosterId>()
        && state.roster(n).is_some()
    {
        return Ok(n);
    }
    let found: Vec<RosterId> = state
        .rosters
        .iter()
        .filter(|r| r.name.eq_ignore_ascii_case(t))
        .map(|r| r.id)
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => {
            let known: Vec<String> = state
                .rosters
                .iter()
                .map(|r| format!("{} ({})", r.id, r.name))
                .collect();
            Err(Fail::usage(format!(
                "there is no roster '{t}' (there are: {})",
                if known.is_empty() {
                    "none yet; add one with `xenolog roster add`".to_owned()
                } else {
                    known.join(", ")
                }
            )))
        }
        _ => Err(Fail::usage(format!(
            "more than one roster is called '{t}': use its id"
        ))),
    }
}

fn model_of(state: &CampaignState, text: &str) -> Out<ModelId> {
    let t = text.trim();
    if let Ok(n) = t.parse::<ModelId>()
        && state.model(n).is_some()
    {
        return Ok(n);
    }
    let found: Vec<&ModelSheet> = state
        .models
        .iter()
        .filter(|m| m.name.eq_ignore_ascii_case(t))
        .collect();
    match found.as_slice() {
        [one] => Ok(one.id),
        [] => Err(Fail::usage(format!(
            "there is no model '{t}' in the campaign (see `xenolog roster list`)"
        ))),
        many => {
            let ids: Vec<String> = many.iter().map(|m| m.id.to_string()).collect();
            Err(Fail::usage(format!(
                "more than one model is called '{t}' (ids {}): use its id",
                ids.join(", ")
            )))
        }
    }
}

fn model_row(state: &CampaignState, m: &ModelSheet) -> String {
    format!(
        "  {:>3}  {:<22} {:<16} {:<13} EP {}/{}  perception +{}  battles {}  kills {}  skills: {}",
        m.id,
        m.name,
        xenolog_report::model_kind(state, m),
        m.status.word(),
        m.unspent(),
        m.earned,
        m.perception,
        m.battles.len(),
        m.kills,
        xenolog_report::skills_words(m)
    )
}

fn model_json(state: &CampaignState, m: &ModelSheet) -> Value {
    let mut v = serde_json::to_value(m).unwrap_or(Value::Null);
    if let Value::Object(o) = &mut v {
        o.insert("unspent".into(), json!(m.unspent()));
        o.insert(
            "kind_name".into(),
            json!(xenolog_report::model_kind(state, m)),
        );
    }
    v
}

fn state_json(state: &CampaignState, changes: &[String]) -> Value {
    let mut v = serde_json::to_value(state).unwrap_or(Value::Null);
    if let Value::Object(o) = &mut v {
        o.insert(
            "models".into(),
            Value::Array(state.models.iter().map(|m| model_json(state, m)).collect()),
        );
        o.insert("changes".into(), json!(changes));
    }
    v
}

fn print_rosters(out: &mut dyn Write, state: &CampaignState, only: Option<RosterId>) -> Out {
    if state.rosters.is_empty() {
        return line(out, "no rosters yet (add one with `xenolog roster add`)");
    }
    for r in state
        .rosters
        .iter()
        .filter(|r| only.is_none_or(|o| o == r.id))
    {
        line(
            out,
            format!(
                "roster {}: {} ({}), {} models",
                r.id,
                r.name,
                faction_name(&r.faction),
                r.models.len()
            ),
        )?;
        for id in &r.models {
            if let Some(m) = state.model(*id) {
                line(out, model_row(state, m))?;
            }
        }
    }
    Ok(())
}

fn print_flags(out: &mut dyn Write, state: &CampaignState) -> Out {
    for f in &state.flags {
        line(out, format!("to resolve (entry {}): {}", f.entry, f.words))?;
    }
    Ok(())
}

fn done(out: &mut dyn Write, json: bool, entry: u32, words: String, extra: Value) -> Out {
    if json {
        let mut v = json!({"entry": entry, "done": words});
        if let (Value::Object(o), Value::Object(x)) = (&mut v, extra) {
            o.extend(x);
        }
        json_line(out, &v)
    } else {
        line(out, format!("entry {entry}: {words}"))
    }
}

fn record(c: &mut Campaign, event: CampaignEvent, out: &mut dyn Write, json: bool) -> Out {
    let state = c.campaign_state()?;
    let words = describe(&event, &state, &c.battle_names()?);
    let entry = c.record(event)?;
    done(out, json, entry, words, json!({}))
}

pub(super) fn roster(cmd: RosterCmd, out: &mut dyn Write) -> Out {
    match cmd {
        RosterCmd::Add { at, name, faction } => {
            let mut c = open_rw(&at.file)?;
            let id = c.add_roster(&name, &faction)?;
            let words = format!("roster {} raised ({})", name.trim(), faction_name(&faction));
            if at.json {
                json_line(out, &json!({"roster": id, "done": words}))
            } else {
                line(out, format!("{id}"))?;
                eprintln!("{words}");
                Ok(())
            }
        }
        RosterCmd::List { at } => {
            let c = open_ro(&at.file)?;
            let s = c.campaign_state()?;
            if at.json {
                json_line(out, &state_json(&s, &[]))
            } else {
                print_rosters(out, &s, None)?;
                print_flags(out, &s)
            }
        }
        RosterCmd::Show { at, roster, html } => {
            let c = open_ro(&at.file)?;
            let s = c.campaign_state()?;
            let id = roster_of(&s, &roster)?;
            if let Some(path) = html {
                let page = xenolog_report::roster_sheet_html(&s, id, &c.name()?);
                xenolog_saves::write_atomically(&path, page.as_bytes())
                    .map_err(|e| Fail::usage(e.to_string()))?;
                eprintln!("wrote the roster sheet to {}", path.display());
            }
            if at.json {
                let r = s.roster(id).cloned();
                let models: Vec<Value> = s
                    .models
                    .iter()
                    .filter(|m| m.roster == id)
                    .map(|m| model_json(&s, m))
                    .collect();
                json_line(out, &json!({"roster": r, "models": models}))
            } else {
                print_rosters(out, &s, Some(id))
            }
        }
        RosterCmd::Rename { at, roster, name } => {
            let mut c = open_rw(&at.file)?;
            let roster = roster_of(&c.campaign_state()?, &roster)?;
            record(
                &mut c,
                CampaignEvent::RosterRenamed { roster, name },
                out,
                at.json,
            )
        }
        RosterCmd::Retire { at, roster } => {
            let mut c = open_rw(&at.file)?;
            let s = c.campaign_state()?;
            let id = roster_of(&s, &roster)?;
            let events: Vec<CampaignEvent> = s
                .models
                .iter()
                .filter(|m| m.roster == id && m.status == Status::Fit)
                .map(|m| CampaignEvent::ModelRetired { model: m.id })
                .collect();
            if events.is_empty() {
                return Err(Fail::rule(format!(
                    "{} has no fighting-fit model to retire",
                    s.roster(id).map_or("the roster", |r| r.name.as_str())
                )));
            }
            let ids = c.record_all(&events)?;
            for (e, ev) in ids.iter().zip(&events) {
                done(
                    out,
                    at.json,
                    *e,
                    describe(ev, &s, &c.battle_names()?),
                    json!({}),
                )?;
            }
            Ok(())
        }
    }
}

pub(super) fn model(cmd: ModelCmd, out: &mut dyn Write) -> Out {
    match cmd {
        ModelCmd::Add {
            at,
            roster,
            name,
            kind,
        } => {
            let mut c = open_rw(&at.file)?;
            let s = c.campaign_state()?;
            let roster = roster_of(&s, &roster)?;
            let id = c.add_model(roster, &name, &kind)?;
            if at.json {
                json_line(out, &json!({"model": id}))
            } else {
                line(out, format!("{id}"))?;
                eprintln!("{} recruited with no experience", name.trim());
                Ok(())
            }
        }
        ModelCmd::Show { at, model } => {
            let c = open_ro(&at.file)?;
            let s = c.campaign_state()?;
            let id = model_of(&s, &model)?;
            let Some(m) = s.model(id) else {
                return Err(Fail::usage(format!("there is no model {id}")));
            };
            if at.json {
                return json_line(out, &model_json(&s, m));
            }
            line(out, model_row(&s, m).trim())?;
            for h in &m.history {
                line(
                    out,
                    format!(
                        "  entry {:>3}: {} (EP {} -> {}){}",
                        h.entry,
                        h.what,
                        h.unspent_before,
                        h.unspent_after,
                        h.piece
                            .as_ref()
                            .map(|p| format!(" [piece {p}]"))
                            .unwrap_or_default()
                    ),
                )?;
            }
            for f in s.flags.iter().filter(|f| f.model == id) {
                line(out, format!("  to resolve: {}", f.words))?;
            }
            Ok(())
        }
        ModelCmd::Rename { at, model, name } => {
            let mut c = open_rw(&at.file)?;
            let model = model_of(&c.campaign_state()?, &model)?;
            record(
                &mut c,
                CampaignEvent::ModelRenamed { model, name },
                out,
                at.json,
            )
        }
        ModelCmd::Retire { at, model } => {
            let mut c = open_rw(&at.file)?;
            let model = model_of(&c.campaign_state()?, &model)?;
            record(&mut c, CampaignEvent::ModelRetired { model }, out, at.json)
        }
        ModelCmd::Remove { at, model } => {
            let mut c = open_rw(&at.file)?;
            let model = model_of(&c.campaign_state()?, &model)?;
            record(&mut c, CampaignEvent::ModelRemoved { model }, out, at.json)
        }
    }
}

fn skill_id(text: &str) -> Out<String> {
    let t = text.trim();
    let table = xenolog_saves::skill_table();
    table
        .iter()
        .find(|s| s.id.eq_ignore_ascii_case(t) || s.name.eq_ignore_ascii_case(t))
        .map(|s| s.id.clone())
        .ok_or_else(|| {
            let known: Vec<String> = table
                .iter()
                .map(|s| format!("{} ({})", s.id, s.name))
                .collect();
            Fail::usage(format!(
                "there is no skill '{t}' (there are: {})",
                known.join(", ")
            ))
        })
}

pub(super) fn skill(cmd: SkillCmd, out: &mut dyn Write) -> Out {
    match cmd {
        SkillCmd::List { at, model } => {
            let table = xenolog_saves::skill_table();
            let (s, m) = match &model {
                Some(name) => {
                    let c = open_ro(&at.file)?;
                    let s = c.campaign_state()?;
                    let id = model_of(&s, name)?;
                    (Some(s.clone()), s.model(id).cloned())
                }
                None => (None, None),
            };
            let _ = s;
            for k in &table {
                let why = m.as_ref().and_then(|m| why_not_buy(m, k));
                let has = m.as_ref().map_or(0, |m| m.times(&k.id));
                if at.json {
                    json_line(
                        out,
                        &json!({"id": k.id, "name": k.name, "cost": k.cost, "max": k.max,
                            "has": has, "can_buy": m.is_some() && why.is_none(), "why_not": why}),
                    )?;
                } else {
                    let cap = if k.max == 1 {
                        "once".to_owned()
                    } else {
                        format!("max {}", k.max)
                    };
                    let tail = match (&m, &why) {
                        (None, _) => String::new(),
                        (Some(_), None) => format!("  has {has}: can buy"),
                        (Some(_), Some(w)) => format!("  has {has}: no, {w}"),
                    };
                    line(
                        out,
                        format!("{:<14} {:<24} {} EP  {cap}{tail}", k.id, k.name, k.cost),
                    )?;
                }
            }
            Ok(())
        }
        SkillCmd::Buy { at, model, skill } => {
            let mut c = open_rw(&at.file)?;
            let s = c.campaign_state()?;
            let model = model_of(&s, &model)?;
            let skill = skill_id(&skill)?;
            let event = CampaignEvent::SkillBought { model, skill };
            let words = describe(&event, &s, &c.battle_names()?);
            let entry = c.record(event)?;
            let after = c.campaign_state()?;
            let m = after.model(model);
            done(
                out,
                at.json,
                entry,
                format!("{words}; {} EP unspent", m.map_or(0, ModelSheet::unspent)),
                json!({"unspent": m.map(ModelSheet::unspent)}),
            )
        }
    }
}

/// Unix seconds from `YYYY-MM-DD` (end of that day), `YYYY-MM-DDTHH:MM[:SS]`
/// or `@SECONDS`, all UTC.
pub(super) fn parse_date(text: &str) -> Out<i64> {
    let t = text.trim();
    let bad = || {
        Fail::usage(format!(
            "'{t}' is not a date: write YYYY-MM-DD, YYYY-MM-DDTHH:MM or @UNIX-SECONDS"
        ))
    };
    if let Some(n) = t.strip_prefix('@') {
        return n.parse().map_err(|_| bad());
    }
    let (day, time) = match t.split_once(['T', ' ']) {
        Some((d, h)) => (d, Some(h)),
        None => (t, None),
    };
    let d: Vec<&str> = day.split('-').collect();
    let [y, m, dd] = d.as_slice() else {
        return Err(bad());
    };
    let (y, m, dd): (i64, i64, i64) = (
        y.parse().map_err(|_| bad())?,
        m.parse().map_err(|_| bad())?,
        dd.parse().map_err(|_| bad())?,
    );
    if !(1..=12).contains(&m) || !(1..=31).contains(&dd) {
        return Err(bad());
    }
    let days = days_from_civil(y, m, dd);
    let secs = match time {
        None => 86_399,
        Some(h) => {
            let p: Vec<&str> = h.split(':').collect();
            let n =
                |i: usize| -> Out<i64> { p.get(i).map_or(Ok(0), |x| x.parse().map_err(|_| bad())) };
            if p.len() < 2 || p.len() > 3 {
                return Err(bad());
            }
            n(0)? * 3600 + n(1)? * 60 + n(2)?
        }
    };
    Ok(days * 86_400 + secs)
}

/// Days since 1970-01-01 (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

pub(super) fn campaign(cmd: CampaignCmd, out: &mut dyn Write) -> Out {
    match cmd {
        CampaignCmd::Log { at } => {
            let c = open_ro(&at.file)?;
            let log = c.campaign_log()?;
            let s = c.campaign_state()?;
            let names = c.battle_names()?;
            for e in &log {
                let counts = !s.undone.contains(&e.id);
                if at.json {
                    json_line(
                        out,
                        &json!({"entry": e.id, "at": e.at, "event": e.event,
                            "words": describe(&e.event, &s, &names), "counts": counts}),
                    )?;
                } else {
                    line(
                        out,
                        format!(
                            "{:>4}  {}{}",
                            e.id,
                            describe(&e.event, &s, &names),
                            if counts { "" } else { "  (undone)" }
                        ),
                    )?;
                }
            }
            // What a merge set aside: kept, not applied (a log entry, or a
            // battle's ending the campaign does not count).
            for x in c.campaign_conflicts()? {
                if at.json {
                    let words = x.what.words(&s, &names);
                    let why = names.words(&x.why);
                    let line = match &x.what {
                        SetAside::Entry(e) => json!({"set_aside": x.id, "at": x.at,
                            "event": e, "words": words, "why": why}),
                        SetAside::Ending(t) => json!({"set_aside": x.id, "at": x.at,
                            "endings": t, "words": words, "why": why}),
                    };
                    json_line(out, &line)?;
                } else {
                    line(out, format!("   -  {}", x.words(&s, &names)))?;
                }
            }
            Ok(())
        }
        CampaignCmd::State { at, date } => state(&at.file, date.as_deref(), at.json, out),
        CampaignCmd::Copy { from, to, json } => copy::copy(&from, &to, json, out),
        CampaignCmd::Merge {
            file,
            theirs,
            same_campaign,
            json,
        } => {
            let (file, theirs) = (copy::Side::parse(&file)?, copy::Side::parse(&theirs)?);
            if file == theirs {
                return Err(Fail::usage(
                    "merge a campaign with another copy of it, not with itself",
                ));
            }
            // The other copy first: one that cannot be opened (a bad URL, no
            // such schema or file) is refused before this copy is opened
            // for writing, so nothing is written.
            let other = theirs.open_theirs()?;
            let mut c = file.open_ours()?;
            let m = c.merge_with(&other, xenolog_saves::MergeOptions { same_campaign })?;
            if json {
                return json_line(
                    out,
                    &json!({"added": m.added, "grafted": m.grafted, "copied": m.copied,
                        "conflicts": m.conflicts, "notices": m.notices, "notes": m.notes}),
                );
            }
            line(
                out,
                format!(
                    "merged {} into {}: {} entr{} landed, {} battle entr{} in battles played on in both copies, {} battle{} copied, {} conflict{} set aside",
                    theirs.words(),
                    file.words(),
                    m.added,
                    if m.added == 1 { "y" } else { "ies" },
                    m.grafted,
                    if m.grafted == 1 { "y" } else { "ies" },
                    m.copied.len(),
                    if m.copied.len() == 1 { "" } else { "s" },
                    m.conflicts.len(),
                    if m.conflicts.len() == 1 { "" } else { "s" },
                ),
            )?;
            for b in &m.copied {
                line(out, format!("copied: {b}"))?;
            }
            if m.notes > 0 {
                line(
                    out,
                    format!(
                        "notes: {} of {} landed on their entries here",
                        if m.notes == 1 {
                            "the notes and bookmarks of 1 entry".to_owned()
                        } else {
                            format!("the notes and bookmarks of {} entries", m.notes)
                        },
                        theirs.words()
                    ),
                )?;
            }
            for w in &m.conflicts {
                line(out, format!("conflict: {w}"))?;
            }
            for n in &m.notices {
                line(out, format!("notice: {n}"))?;
            }
            Ok(())
        }
        CampaignCmd::Undo { at } => {
            let mut c = open_rw(&at.file)?;
            let s = c.campaign_state()?;
            let names = c.battle_names()?;
            let log = c.campaign_log()?;
            let (entry, taken) = c.campaign_undo()?;
            let what = log
                .iter()
                .find(|e| e.id == taken)
                .map_or_else(String::new, |e| describe(&e.event, &s, &names));
            done(
                out,
                at.json,
                entry,
                format!("took back entry {taken} ({what})"),
                json!({"undone": taken}),
            )
        }
        CampaignCmd::Redo { at } => {
            let mut c = open_rw(&at.file)?;
            let s = c.campaign_state()?;
            let names = c.battle_names()?;
            let log = c.campaign_log()?;
            let (entry, back) = c.campaign_redo()?;
            let what = log
                .iter()
                .find(|e| e.id == back)
                .map_or_else(String::new, |e| describe(&e.event, &s, &names));
            done(
                out,
                at.json,
                entry,
                format!("put back entry {back} ({what})"),
                json!({"redone": back}),
            )
        }
        CampaignCmd::Setting { at, casualties } => {
            let casualties = match casualties.trim() {
                "dead" => Casualties::Dead,
                "return" => Casualties::Return,
                other => {
                    return Err(Fail::usage(format!(
                        "--casualties is dead or return, not '{other}'"
                    )));
                }
            };
            let mut c = open_rw(&at.file)?;
            record(
                &mut c,
                CampaignEvent::SettingChanged { casualties },
                out,
                at.json,
            )
        }
    }
}

fn state(file: &Path, date: Option<&str>, json: bool, out: &mut dyn Write) -> Out {
    // Open for writing when possible, so reading marks the campaign read;
    // a file another Xenolog is writing is read as it stands.
    let c = match Campaign::open(file) {
        Ok(c) => c,
        Err(xenolog_saves::SaveError::Locked { .. }) => open_ro(file)?,
        Err(e) => return Err(e.into()),
    };
    let (s, changes) = match date {
        Some(d) => (c.campaign_state_at(parse_date(d)?)?, Vec::new()),
        None => {
            let r = c.campaign_recompute()?;
            (r.state, r.changes)
        }
    };
    if json {
        return json_line(out, &state_json(&s, &changes));
    }
    for ch in &changes {
        line(out, format!("changed: {ch}"))?;
    }
    line(
        out,
        format!(
            "casualties: {}",
            match s.casualties {
                Casualties::Dead => "dead and gone",
                Casualties::Return => "back for the next battle without the EP",
            }
        ),
    )?;
    print_rosters(out, &s, None)?;
    let names = c.battle_names()?;
    for b in &s.battles {
        line(
            out,
            format!(
                "{}: {} models, {}",
                names.name(b.battle),
                b.fighters.len(),
                b.result.as_deref().unwrap_or("not over yet")
            ),
        )?;
    }
    print_flags(out, &s)
}

/// `--roster SEAT=ROSTER:MODEL,MODEL...` of `xenolog battle`.
pub(super) fn parse_pick(c: &Campaign, text: &str) -> Out<SeatPick> {
    let bad = || {
        Fail::usage(format!(
            "--roster {text}: write it as SEAT=ROSTER:MODEL,MODEL... (seat number from 1, roster id or name, model ids or names)"
        ))
    };
    let (seat, rest) = text.split_once('=').ok_or_else(bad)?;
    let (roster, models) = rest.split_once(':').ok_or_else(bad)?;
    let seat = super::parse_seat(seat)
        .map_err(|e| Fail::usage(format!("--roster {text}: {e}")))?
        .0;
    let s = c.campaign_state()?;
    let roster = roster_of(&s, roster)?;
    let mut ids = Vec::new();
    for m in models.split(',').filter(|m| !m.trim().is_empty()) {
        ids.push(model_of(&s, m)?);
    }
    Ok(SeatPick {
        seat,
        roster,
        models: ids,
    })
}

/// Start a battle with roster models (from `xenolog battle --roster`).
pub(super) fn roster_battle(
    file: &Path,
    seed: u64,
    config: &Value,
    picks: &[String],
    title: &str,
    dice: DiceMode,
    strict: bool,
) -> Out<i64> {
    let mut c = open_rw(file)?;
    let mut parsed = Vec::new();
    for p in picks {
        parsed.push(parse_pick(&c, p)?);
    }
    Ok(c.new_roster_battle(seed, config, &parsed, title, dice, strict)?)
}

/// What `xenolog import` says: the battle's id, whether it counts for the
/// campaign's rosters (a roster battle from a copy of this campaign), and
/// why not when it arrived bare (issue 30 item 9).
pub(super) fn imported(got: &xenolog_saves::Imported, out: &mut dyn Write) -> Out {
    line(out, format!("imported as battle {}", got.id))?;
    if got.counted {
        line(
            out,
            "it counts for its rosters (a battle of a copy of this campaign): experience and casualties as if played here",
        )?;
    }
    if let Some(why) = &got.notice {
        line(out, format!("notice: {why}"))?;
    }
    Ok(())
}

/// This machine's trust book (issue 30 item 9): `XENOLOG_TRUST_BOOK`, else
/// `trusted.json` in the app's data folder (the app keeps the same one).
pub fn trust_book() -> Option<PathBuf> {
    std::env::var_os("XENOLOG_TRUST_BOOK")
        .map(PathBuf::from)
        .or_else(|| {
            directories::ProjectDirs::from("org", "Xenolog", "Xenolog")
                .map(|d| d.data_dir().join("trusted.json"))
        })
}

/// Verified before trusted (issue 30 item 9): the battles of `file` not yet
/// verified on this machine as they stand (all of a campaign opened here
/// for the first time) are replayed in full; the first entry that does not
/// replay is named on stderr. Quiet when all is well, or when the check
/// cannot run (the command's own reading says why).
pub(super) fn check_trust(file: &Path) {
    let book = trust_book();
    if let Ok(c) = xenolog_saves::trust::check_now(file, book.as_deref(), &mut |_, _| {})
        && let Some(why) = c.problem
    {
        eprintln!(
            "notice: {why} (this campaign came from elsewhere or changed since it was last verified here; `xenolog verify` gives the whole report)"
        );
    }
}

/// The campaign part of `xenolog verify`; whether it passed.
pub(super) fn verify_campaign(c: &Campaign, json: bool, out: &mut dyn Write) -> Out<bool> {
    let r = c.verify_campaign()?;
    if json {
        json_line(
            out,
            &json!({"campaign": {"ok": r.ok(), "entries": r.entries, "battles": r.battles,
                "models": r.models, "problems": r.problems, "flags": r.flags}}),
        )?;
    } else if r.entries > 0 || !r.ok() {
        line(
            out,
            format!(
                "campaign: {} ({} log entries, {} battles, {} models)",
                if r.ok() { "ok" } else { "FAILED" },
                r.entries,
                r.battles,
                r.models
            ),
        )?;
        for p in &r.problems {
            line(out, format!("  problem: {p}"))?;
        }
        for f in &r.flags {
            line(out, format!("  to resolve: {f}"))?;
        }
    }
    Ok(r.ok())
}
