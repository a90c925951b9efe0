//! The printable roster sheet of the Alien Invasion campaign (the text's
//! "INVASION EARTH Roster Sheet"): one HTML page per roster, written by the
//! app's File > Export roster sheets and by `xenolog campaign sheet`.

use xenolog_engine::campaign::{CampaignState, ModelSheet, RosterId};
use xenolog_saves::{faction_name, kind_name};

/// A model's skills in words: "Crack Shot x2, Super Fast" ("none" without).
pub fn skills_words(m: &ModelSheet) -> String {
    if m.skills.is_empty() {
        return "none".into();
    }
    m.skills
        .iter()
        .map(|(id, n)| {
            let name =
                xenolog_engine::campaign::skills::skill(id).map_or_else(|| id.clone(), |s| s.name);
            if *n == 1 {
                name
            } else {
                format!("{name} x{n}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A model's type in words, in its roster's faction ("Rifleman").
pub fn model_kind(state: &CampaignState, m: &ModelSheet) -> String {
    let faction = state.roster(m.roster).map_or("", |r| r.faction.as_str());
    kind_name(faction, &m.kind)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A printable roster sheet (the text's "INVASION EARTH Roster Sheet"): one
/// HTML page, a table of the roster's models with their experience, skills
/// and history, and room for notes.
pub fn roster_sheet_html(state: &CampaignState, roster: RosterId, campaign: &str) -> String {
    let Some(r) = state.roster(roster) else {
        return format!("<!DOCTYPE html><p>There is no roster {roster}.</p>");
    };
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    h.push_str(&format!("<title>{} roster sheet</title>\n", esc(&r.name)));
    h.push_str(
        "<style>body{font-family:sans-serif;margin:1.5cm}table{border-collapse:collapse;width:100%}\
th,td{border:1px solid #444;padding:4px 6px;text-align:left;vertical-align:top}\
th{background:#ddd}td.n{text-align:right}.dead{color:#888;text-decoration:line-through}\
.hist{font-size:85%;color:#333}@media print{body{margin:0}}</style></head><body>\n",
    );
    h.push_str(&format!(
        "<h1>{} &mdash; roster sheet</h1>\n<p>Faction: <b>{}</b>. Campaign: {}. Casualties: {}.</p>\n",
        esc(&r.name),
        esc(&faction_name(&r.faction)),
        esc(campaign),
        match state.casualties {
            xenolog_engine::campaign::Casualties::Dead => "dead and gone",
            xenolog_engine::campaign::Casualties::Return => "back for the next battle",
        }
    ));
    h.push_str("<table><tr><th>Name / ID code</th><th>Type</th><th>Status</th><th>EP unspent</th><th>EP earned</th><th>Perception</th><th>Skills</th><th>Battles</th><th>Kills</th></tr>\n");
    for id in &r.models {
        let Some(m) = state.model(*id) else { continue };
        let class = if m.status == xenolog_engine::campaign::Status::Fit {
            ""
        } else {
            " class=\"dead\""
        };
        h.push_str(&format!(
            "<tr><td{class}>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">+{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
            esc(&m.name),
            esc(&kind_name(&r.faction, &m.kind)),
            m.status.word(),
            m.unspent(),
            m.earned,
            m.perception,
            esc(&skills_words(m)),
            m.battles.len(),
            m.kills
        ));
        let lines: Vec<String> = m
            .history
            .iter()
            .map(|l| {
                format!(
                    "{} (EP {} &rarr; {})",
                    esc(&l.what),
                    l.unspent_before,
                    l.unspent_after
                )
            })
            .collect();
        h.push_str(&format!(
            "<tr><td></td><td colspan=\"8\" class=\"hist\">{}</td></tr>\n",
            lines.join("; ")
        ));
    }
    h.push_str("</table>\n");
    let flags: Vec<&str> = state
        .flags
        .iter()
        .filter(|f| r.models.contains(&f.model))
        .map(|f| f.words.as_str())
        .collect();
    if !flags.is_empty() {
        h.push_str("<h2>To resolve</h2><ul>\n");
        for f in flags {
            h.push_str(&format!("<li>{}</li>\n", esc(f)));
        }
        h.push_str("</ul>\n");
    }
    h.push_str(
        "<h2>Notes</h2><div style=\"border:1px solid #444;height:4cm\"></div>\n</body></html>\n",
    );
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use xenolog_saves::Campaign;

    #[test]
    fn a_roster_sheet_lists_the_models_with_their_type_and_escapes_names() {
        let mut c = Campaign::create_in_memory("Club <North>").unwrap();
        let hawks = c.add_roster("Hawks & Co", "unit").unwrap();
        c.add_model(hawks, "Sgt Benton", "rifleman").unwrap();
        let state = c.campaign_state().unwrap();
        let page = roster_sheet_html(&state, hawks, "Club <North>");
        assert!(
            page.contains("<title>Hawks &amp; Co roster sheet</title>"),
            "{page}"
        );
        assert!(page.contains("Campaign: Club &lt;North&gt;"), "{page}");
        assert!(page.contains("<td>Sgt Benton</td>"), "{page}");
        assert!(page.contains("<td>none</td>"), "no skills yet: {page}");
        assert!(roster_sheet_html(&state, 99, "Club").contains("There is no roster 99"));
    }
}
