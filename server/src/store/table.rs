//! Step S7 (DESIGN.md sections 9 and 10): what the store keeps for
//! take-backs and the shared campaign, behind its own trait so that the
//! PostgreSQL store of issue 31 implements it beside the others.
//!
//! Take-backs: the battle option `friendly_takebacks`, and the move of a
//! started battle's live cursor (persisted with `Campaign::save_position`,
//! checked against the head the take-back was asked at). The shared
//! campaign: who owns which roster (`roster_owners`, set by the organiser),
//! the campaign log with the standings, and one edit decided against the
//! **current** head by the campaign's own rules (`Campaign::record`).

use serde::Serialize;
use xenolog_engine::EntryId;
use xenolog_engine::campaign::{CampaignEvent, CampaignState, RosterId};

use super::{CampaignId, ClubError, ServerBattleId, TokenId};

/// One entry of a campaign log as the server sends it: the event and the
/// same words `xenolog campaign log` shows.
#[derive(Clone, Debug, Serialize)]
pub struct LogLine {
    pub id: u32,
    /// Unix seconds.
    pub at: i64,
    pub event: CampaignEvent,
    pub words: String,
}

/// A campaign's log after an entry, its standings and its roster owners.
#[derive(Clone, Debug, Serialize)]
pub struct CampaignLog {
    pub entries: Vec<LogLine>,
    /// The last entry of the log (0 when it is empty).
    pub head: u32,
    /// The campaign as it stands: rosters, models with experience and
    /// skills, battles with their results (everyone sees them).
    pub standings: CampaignState,
    /// `(roster, token)`: which player's token may edit which roster.
    pub owners: Vec<(RosterId, TokenId)>,
}

/// A battle's options for take-backs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakebackRules {
    /// A strict battle: no take-back past dice that were seen.
    pub strict: bool,
    /// Friendly play: take-backs move at once, without asking.
    pub friendly: bool,
}

/// Who makes a campaign edit.
#[derive(Clone, Debug)]
pub enum Editor {
    /// The organiser: every kind of entry.
    Organiser,
    /// A player: only for the rosters granted to this token.
    Player(TokenId),
}

/// Why a campaign edit did not land (nothing was written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditRefused {
    /// The token may not make this edit (another's roster, an organiser's
    /// entry), in words.
    Forbidden(String),
    /// The campaign's rules refuse it at the current head, in words that
    /// name what came first when the log moved since the client's `after`.
    Rule(String),
}

/// An edit that landed.
#[derive(Clone, Debug, Serialize)]
pub struct Edited {
    /// The new entry.
    pub entry: LogLine,
    /// Entries that came after the client's `after` and before this one
    /// (both landed).
    pub before_it: Vec<LogLine>,
}

/// Take-backs and the shared campaign, in the store.
pub trait TableStore: Send + Sync + 'static {
    /// What a battle's take-backs follow: strict (never back past seen
    /// dice) and friendly (accepted without asking), as it was created.
    fn takeback_rules(&self, battle: ServerBattleId) -> Result<TakebackRules, ClubError>;
    /// Set the friendly-play option of a battle (the organiser, at creation).
    fn set_friendly_takebacks(&self, battle: ServerBattleId, on: bool) -> Result<(), ClubError>;
    /// Move a started battle's live cursor back to `to` (`None`: the setup),
    /// durably, if its head is still `expect` ([`ClubError::Stale`]
    /// otherwise). Nothing is lost: the entries after `to` stay in the file
    /// and the next command there starts a new branch.
    fn move_cursor(
        &self,
        battle: ServerBattleId,
        expect: Option<EntryId>,
        to: Option<EntryId>,
    ) -> Result<(), ClubError>;
    /// Grant a roster of a campaign to a player's token.
    fn grant_roster(
        &self,
        campaign: CampaignId,
        roster: RosterId,
        token: TokenId,
    ) -> Result<(), ClubError>;
    /// The rosters a token owns in a campaign.
    fn rosters_of(&self, campaign: CampaignId, token: TokenId) -> Result<Vec<RosterId>, ClubError>;
    /// The log after entry `after` (`0`: all), the standings and the owners.
    fn campaign_log(&self, campaign: CampaignId, after: u32) -> Result<CampaignLog, ClubError>;
    /// Record one event, decided against the campaign's current head; the
    /// editor's grant is checked against that head too (a model's roster
    /// as it stands). `after` is the last entry the client had seen.
    fn campaign_edit(
        &self,
        campaign: CampaignId,
        after: u32,
        event: CampaignEvent,
        editor: Editor,
    ) -> Result<Result<Edited, EditRefused>, ClubError>;
}

/// A store that keeps no take-backs and no shared campaign: every call is
/// refused in words (the default of [`super::Store::table`], for a store
/// layer that does not pass them on).
pub struct NoTable;

fn none<T>() -> Result<T, ClubError> {
    Err(ClubError::Rule(
        "this server's store keeps no take-backs and no shared campaigns".to_owned(),
    ))
}

impl TableStore for NoTable {
    fn takeback_rules(&self, _: ServerBattleId) -> Result<TakebackRules, ClubError> {
        none()
    }
    fn set_friendly_takebacks(&self, _: ServerBattleId, _: bool) -> Result<(), ClubError> {
        none()
    }
    fn move_cursor(
        &self,
        _: ServerBattleId,
        _: Option<EntryId>,
        _: Option<EntryId>,
    ) -> Result<(), ClubError> {
        none()
    }
    fn grant_roster(&self, _: CampaignId, _: RosterId, _: TokenId) -> Result<(), ClubError> {
        none()
    }
    fn rosters_of(&self, _: CampaignId, _: TokenId) -> Result<Vec<RosterId>, ClubError> {
        none()
    }
    fn campaign_log(&self, _: CampaignId, _: u32) -> Result<CampaignLog, ClubError> {
        none()
    }
    fn campaign_edit(
        &self,
        _: CampaignId,
        _: u32,
        _: CampaignEvent,
        _: Editor,
    ) -> Result<Result<Edited, EditRefused>, ClubError> {
        none()
    }
}
