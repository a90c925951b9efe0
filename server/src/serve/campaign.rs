//! The shared campaign (DESIGN.md section 10, issue 30 item 7).
//!
//! `campaign_log {campaign, after}`: the log entries after `after`, in words,
//! with the standings (the campaign folded, as `xenolog campaign show` has
//! it) and who owns which roster; every token the campaign is open to sees
//! them (a campaign's rosters and results are no secret at the table).
//!
//! `campaign_edit {campaign, after, event}`: one campaign event. A player
//! buys skills, recruits, renames and retires only for the rosters granted
//! to its token (`grant_roster`, by the organiser); the organiser records
//! anything (battles, results, settings, undo). The edit is checked and
//! decided against the campaign's **current** head, not the client's
//! `after`: still valid, it lands even if the log moved ("both land", and
//! the reply names the entries that landed first); no longer valid, it is
//! refused in words naming what came first. The campaign's own rules decide
//! (`Campaign::record`, the engine's campaign `decide` and `fold`); nothing
//! is re-implemented here. Nothing refused is written, and nothing written
//! is ever lost: the log is append-only.
//!
//! A roster raised or a model recruited is numbered by the server (the next
//! free id at the head), so two recruits made at once both land.

use serde_json::{Value, json};
use xenolog_engine::campaign::CampaignEvent;

use super::takeback::blocking_table;
use super::{Answer, Conn, Shared, blocking, organiser, stay};
use crate::proto::{ErrCode, Refusal};
use crate::secret::Role;
use crate::store::CampaignId;
use crate::store::table::{EditRefused, Editor};

/// Refused unless the token opens `campaign`: the organiser, a seat of one
/// of its battles, or a roster of it.
async fn campaign_open(
    shared: &std::sync::Arc<Shared>,
    conn: &Conn,
    campaign: CampaignId,
) -> Result<(), (Refusal, super::After)> {
    let p = conn
        .principal
        .clone()
        .ok_or_else(|| stay(super::hello_first()))?;
    if p.role == Role::Organiser {
        // The campaign must exist: its log says so in words if not.
        return Ok(());
    }
    let token = p.token;
    let grants = blocking(shared, move |t| t.grants(token))
        .await
        .map_err(stay)?;
    if grants.iter().any(|g| g.campaign == campaign) {
        return Ok(());
    }
    let rosters = blocking_table(shared, move |t| t.rosters_of(campaign, token))
        .await
        .map_err(stay)?;
    if !rosters.is_empty() {
        return Ok(());
    }
    Err(stay(Refusal::new(
        ErrCode::Forbidden,
        format!("your token opens nothing of campaign {campaign}"),
    )))
}

/// `campaign_log {campaign, after}`.
pub(super) async fn log(
    shared: &std::sync::Arc<Shared>,
    conn: &Conn,
    campaign: CampaignId,
    after: Option<u32>,
) -> Answer {
    campaign_open(shared, conn, campaign).await?;
    let after = after.unwrap_or(0);
    let log = blocking_table(shared, move |t| t.campaign_log(campaign, after))
        .await
        .map_err(stay)?;
    Ok(json!({
        "campaign": campaign,
        "after": after,
        "head": log.head,
        "entries": log.entries,
        "standings": log.standings,
        "owners": log.owners.iter().map(|(r, t)| json!({"roster": r, "token_id": t})).collect::<Vec<_>>(),
    }))
}

/// `campaign_edit {campaign, after, event}`.
pub(super) async fn edit(
    shared: &std::sync::Arc<Shared>,
    conn: &Conn,
    campaign: CampaignId,
    after: Option<u32>,
    event: Value,
) -> Answer {
    let p = conn
        .principal
        .clone()
        .ok_or_else(|| stay(super::hello_first()))?;
    let editor = match p.role {
        Role::Organiser => Editor::Organiser,
        Role::Player => Editor::Player(p.token),
        Role::Spectator => {
            return Err(stay(Refusal::new(
                ErrCode::Forbidden,
                "a spectator watches; only players and the organiser edit a campaign",
            )));
        }
    };
    let event: CampaignEvent = serde_json::from_value(event).map_err(|e| {
        stay(Refusal::new(
            ErrCode::BadRequest,
            format!(
                "the event is not a campaign event ({e}); for example {{\"skill_bought\": {{\"model\": 3, \"skill\": \"crack_shot\"}}}}"
            ),
        ))
    })?;
    campaign_open(shared, conn, campaign).await?;
    let after = after.unwrap_or(0);
    let done = blocking_table(shared, move |t| {
        t.campaign_edit(campaign, after, event, editor)
    })
    .await
    .map_err(stay)?;
    match done {
        Ok(edited) => Ok(json!({
            "campaign": campaign,
            "entry": edited.entry,
            "head": edited.entry.id,
            "landed_first": edited.before_it,
        })),
        Err(EditRefused::Forbidden(words)) => Err(stay(Refusal::new(ErrCode::Forbidden, words))),
        Err(EditRefused::Rule(words)) => Err(stay(Refusal::new(ErrCode::Refused, words))),
    }
}

/// `grant_roster {campaign, roster, token}`: organiser only.
pub(super) async fn grant(
    shared: &std::sync::Arc<Shared>,
    conn: &Conn,
    campaign: CampaignId,
    roster: u32,
    token: crate::store::TokenId,
) -> Answer {
    organiser(conn, "grant a roster")?;
    blocking_table(shared, move |t| t.grant_roster(campaign, roster, token))
        .await
        .map_err(stay)?;
    Ok(json!({"campaign": campaign, "roster": roster, "token_id": token}))
}
