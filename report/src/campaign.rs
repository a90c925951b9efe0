//! The campaign report: the campaign battle by battle (each battle's result
//! and the moments that mattered), the rosters' progress (experience,
//! skills, the fallen), and the campaign's luck, every die of every battle
//! counted together by side. Markdown, or one self-contained HTML page.

use askama::Template;
use xenolog_engine::Importance;
use xenolog_saves::{Campaign, SaveError};

use crate::luck::{DieRecord, Luck, luck};
use crate::{Story, dice_sentences, header_of, luck_rows};

/// How many moments of one battle the campaign report tells at most.
const MOMENTS: usize = 6;

/// A battle of the campaign, in brief.
#[derive(Clone, Debug, PartialEq)]
pub struct BattleBrief {
    pub id: i64,
    /// Its one name, as the app and the command line call it
    /// (`xenolog_saves::BattleNames`).
    pub name: String,
    pub title: String,
    pub game: String,
    pub date: String,
    pub result: String,
    pub entries: usize,
    /// The moments that mattered (key moments and bookmarks with notes),
    /// at most [`MOMENTS`], in order.
    pub moments: Vec<String>,
    /// The command that re-derives it.
    pub verify: String,
}

/// A roster's models as the campaign stands.
#[derive(Clone, Debug, PartialEq)]
pub struct RosterBrief {
    pub name: String,
    pub faction: String,
    /// Name, type, status, EP unspent/earned, perception, skills, battles, kills.
    pub models: Vec<[String; 8]>,
}

/// The campaign's story, whatever the format.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignStory {
    pub name: String,
    pub file: String,
    /// "2026-11-20 to 2026-11-23".
    pub dates: String,
    pub battles: Vec<BattleBrief>,
    pub rosters: Vec<RosterBrief>,
    /// Campaign log entries that need a player's decision.
    pub flags: Vec<String>,
    pub luck: Luck,
}

/// Read the whole campaign: every battle's story (its current branch), the
/// rosters folded from the campaign log, and every die.
pub fn build(c: &Campaign) -> Result<CampaignStory, SaveError> {
    let file = c
        .path()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut battles = Vec::new();
    let mut dice: Vec<DieRecord> = Vec::new();
    let mut dates: Vec<String> = Vec::new();
    let names = c.battle_names()?;
    for summary in c.battles()? {
        let b = c.load_battle(summary.id)?;
        let mut header = header_of(c, summary.id, None)?;
        header.bookmark_pictures_only = true;
        let story = Story::build(&*b, &header);
        let moments = story
            .told()
            .filter(|t| t.importance == Importance::Key || t.note.is_some())
            .take(MOMENTS)
            .map(|t| {
                let what: Vec<&str> = t
                    .lines
                    .iter()
                    .filter(|l| l.importance == Importance::Key)
                    .map(|l| l.text.as_str())
                    .collect();
                let what = if what.is_empty() {
                    t.command.clone()
                } else {
                    what.join("; ")
                };
                match &t.note {
                    Some(n) => format!("#{} {}: {what} (note: {n})", t.entry, t.actor),
                    None => format!("#{} {}: {what}", t.entry, t.actor),
                }
            })
            .collect();
        dates.push(story.date.clone());
        dice.extend(story.dice.iter().cloned());
        battles.push(BattleBrief {
            id: summary.id,
            name: names.name(summary.id),
            title: story.title.clone(),
            game: story.game.clone(),
            date: story.date.clone(),
            result: story.result.clone(),
            entries: story.entries,
            moments,
            verify: story.verify_command.clone(),
        });
    }
    let state = c.campaign_state()?;
    let rosters = state
        .rosters
        .iter()
        .map(|r| RosterBrief {
            name: r.name.clone(),
            faction: xenolog_saves::faction_name(&r.faction),
            models: r
                .models
                .iter()
                .filter_map(|id| state.model(*id))
                .map(|m| {
                    [
                        m.name.clone(),
                        xenolog_saves::kind_name(&r.faction, &m.kind),
                        m.status.word().to_owned(),
                        format!("{}/{}", m.unspent(), m.earned),
                        format!("+{}", m.perception),
                        if m.skills.is_empty() {
                            "-".to_owned()
                        } else {
                            crate::skills_words(m)
                        },
                        m.battles.len().to_string(),
                        m.kills.to_string(),
                    ]
                })
                .collect(),
        })
        .collect();
    let flags = state.flags.iter().map(|f| f.words.clone()).collect();
    dates.sort();
    let dates = match (dates.first(), dates.last()) {
        (Some(a), Some(b)) if a != b => format!("{a} to {b}"),
        (Some(a), _) => a.clone(),
        _ => "no battles yet".to_owned(),
    };
    Ok(CampaignStory {
        name: c.name()?,
        file,
        dates,
        battles,
        rosters,
        flags,
        luck: luck(&dice),
    })
}

/// Escape Markdown's inline marks and table bars.
fn md(text: &str) -> String {
    crate::markdown::escape(text).replace('|', "\\|")
}

/// The campaign report in Markdown.
pub fn markdown(s: &CampaignStory) -> String {
    let mut out = String::new();
    let mut w = |line: String| {
        out.push_str(&line);
        out.push('\n');
    };
    w(format!("# {}: campaign report", md(&s.name)));
    w(String::new());
    w(format!(
        "*{}* · {} · {} battle{}",
        md(&s.file),
        s.dates,
        s.battles.len(),
        if s.battles.len() == 1 { "" } else { "s" }
    ));
    w(String::new());
    w("## Battles".into());
    for b in &s.battles {
        w(String::new());
        w(format!("### {}", md(&b.name)));
        w(String::new());
        w(format!(
            "{}, {}, {} entries. **{}**",
            md(&b.game),
            b.date,
            b.entries,
            md(&b.result)
        ));
        if !b.moments.is_empty() {
            w(String::new());
            for m in &b.moments {
                w(format!("- {}", md(m)));
            }
        }
        w(String::new());
        w(format!("Re-derive it: `{}`", b.verify));
    }
    if !s.rosters.is_empty() {
        w(String::new());
        w("## Rosters".into());
        for r in &s.rosters {
            w(String::new());
            w(format!("### {} ({})", md(&r.name), md(&r.faction)));
            w(String::new());
            w("| Model | Type | Status | EP unspent/earned | Perception | Skills | Battles | Kills |".into());
            w("|---|---|---|---|---|---|---|---|".into());
            for m in &r.models {
                w(format!(
                    "| {} |",
                    m.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | ")
                ));
            }
        }
    }
    if !s.flags.is_empty() {
        w(String::new());
        w("## To resolve".into());
        w(String::new());
        for f in &s.flags {
            w(format!("- {}", md(f)));
        }
    }
    w(String::new());
    w("## Luck over the campaign".into());
    w(String::new());
    for line in dice_sentences(&s.luck) {
        w(format!("- {}", md(&line)));
    }
    let rows = luck_rows(&s.luck);
    if !rows.is_empty() {
        w(String::new());
        w("| Side | What | Made | Expected | Chance of at least this | Luckier than |".into());
        w("|---|---|---|---|---|---|".into());
        for r in rows {
            w(format!(
                "| {} |",
                r.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | ")
            ));
        }
    }
    out
}

#[derive(Template)]
#[template(path = "campaign.html")]
struct Page<'a> {
    s: &'a CampaignStory,
    dice_lines: Vec<String>,
    luck_rows: Vec<[String; 6]>,
}

/// The campaign report as one self-contained HTML page.
pub fn html(s: &CampaignStory) -> String {
    Page {
        s,
        dice_lines: dice_sentences(&s.luck),
        luck_rows: luck_rows(&s.luck),
    }
    .render()
    .unwrap_or_else(|e| format!("<!DOCTYPE html><p>The report could not be written: {e}</p>"))
}
