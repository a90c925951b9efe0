//! Where the club lives: persistence only, behind a trait (DESIGN.md section 7),
//! so that the PostgreSQL store of issue 31 fits beside the SQLite folder.
//!
//! The methods are blocking; the server calls them on tokio's blocking pool
//! (`spawn_blocking`), so a slow disk never stalls a socket. A PostgreSQL
//! store can implement them with a blocking client, or the trait's methods
//! become futures when a second backend needs them. One is half-way there
//! already: [`LiveStore::play_begin`] decides on the blocking pool and hands
//! back the durable write as a future ([`Playing`]), so that a command
//! waiting for its fsync holds no thread.

use serde::{Deserialize, Serialize};
use xenolog_engine::Actor;
use xenolog_engine::fair::Bytes32;

use crate::secret::{Code, Role, Token};

pub mod club;
pub mod club_db;
pub mod club_tokens;
pub mod notify;
pub mod table;
mod writer;

/// A token's id in the club (shown by `tokens`, named by `revoke`).
pub type TokenId = i64;

/// A campaign hosted by the server.
pub type CampaignId = i64;
/// A battle created on the server (its number in the club, not in the campaign file).
pub type ServerBattleId = i64;

/// One thing a token opens: a campaign, or a seat of one of its battles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grant {
    pub campaign: CampaignId,
    pub battle: Option<ServerBattleId>,
    pub seat: Option<u8>,
}

/// A seat an invitation opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatInvite {
    pub campaign: CampaignId,
    pub battle: ServerBattleId,
    pub seat: u8,
}

/// A campaign as the server lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CampaignInfo {
    pub id: CampaignId,
    pub name: String,
    /// The campaign file, relative to the data folder.
    pub file: String,
}

/// A battle the organiser asks for.
#[derive(Clone, Debug)]
pub struct NewBattle {
    pub campaign: CampaignId,
    pub game: String,
    pub config: serde_json::Value,
    pub title: String,
    pub strict: bool,
    /// The players enter the dice they roll by hand (no fairness claim).
    pub entered_dice: bool,
    /// The models each seat fields from a roster of the campaign (an Alien
    /// Invasion battle over rosters; empty: no rosters). Its result and
    /// experience enter the campaign when it ends.
    pub rosters: Vec<RosterPick>,
}

/// The models one seat fields from a roster of the shared campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterPick {
    /// The seat, counted from 0 as every JSON seat.
    pub seat: u8,
    pub roster: xenolog_engine::campaign::RosterId,
    pub models: Vec<xenolog_engine::campaign::ModelId>,
}

impl RosterPick {
    fn seat_pick(&self) -> xenolog_saves::SeatPick {
        xenolog_saves::SeatPick {
            seat: self.seat,
            roster: self.roster,
            models: self.models.clone(),
        }
    }
}

/// The saves' picks for a battle's rosters.
pub(crate) fn seat_picks(picks: &[RosterPick]) -> Vec<xenolog_saves::SeatPick> {
    picks.iter().map(RosterPick::seat_pick).collect()
}

/// A battle created on the server, as the organiser's list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BattleInfo {
    pub id: ServerBattleId,
    pub game: String,
    pub title: String,
    pub seats: usize,
    /// Every seat has joined and the battle is in its campaign file.
    pub started: bool,
    /// Dice entered by hand: the server's seed rolls nothing, so no
    /// fairness claim is made.
    pub entered_dice: bool,
    /// A strict battle: no take-back past dice that were seen.
    pub strict: bool,
}

/// A battle created, waiting for its seats' nonces.
#[derive(Clone, Debug)]
pub struct CreatedBattle {
    pub id: ServerBattleId,
    pub seats: Vec<(Actor, String)>,
    /// Published now; the secret behind it is revealed at the end.
    pub commitment: Bytes32,
}

/// Where a battle stands after a seat joined.
#[derive(Clone, Debug)]
pub struct Joined {
    pub commitment: Bytes32,
    /// The seats that have given their nonce.
    pub joined: Vec<u8>,
    pub seats: usize,
    /// The battle's id in its campaign file, once every seat has joined.
    pub started: Option<i64>,
}

/// Who is at the other end of an authenticated socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Principal {
    pub token: TokenId,
    pub role: Role,
    pub label: String,
}

/// A new invitation, its code shown once.
#[derive(Debug)]
pub struct Invitation {
    pub code: Code,
    pub role: Role,
    pub label: String,
    /// Unix seconds.
    pub expires: i64,
}

/// What `redeem` made.
#[derive(Debug)]
pub struct Redeemed {
    /// The new token, shown once; `None` when the invitation's grants were
    /// added to the token the socket already said hello with.
    pub token: Option<Token>,
    pub principal: Principal,
}

/// A token as `tokens` lists it: never the token itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TokenInfo {
    pub id: TokenId,
    pub role: Role,
    pub label: String,
    /// Unix seconds.
    pub created: i64,
    pub last_used: Option<i64>,
    pub revoked: Option<i64>,
}

/// Why the club refused, in words (each maps to a protocol error code).
#[derive(Debug, thiserror::Error)]
pub enum ClubError {
    #[error("this token is not known to this club")]
    UnknownToken,
    #[error("this token was revoked by the organiser")]
    RevokedToken,
    #[error("there is no such invitation: check the code, or ask the organiser for a new one")]
    UnknownCode,
    #[error("this invitation was already used; each invitation is used once")]
    SpentCode,
    #[error("this invitation expired {0}; ask the organiser for a new one")]
    ExpiredCode(String),
    #[error(
        "this invitation is for {wanted}, and this connection said hello as {have}: redeem it on a new connection without hello"
    )]
    OtherRole {
        wanted: &'static str,
        have: &'static str,
    },
    #[error("there is no token {0} in this club (see `tokens`)")]
    NoSuchToken(TokenId),
    #[error("an invitation is valid for 1 to 30 days, not {0}")]
    BadDays(u32),
    #[error("there is no campaign {0} on this server")]
    NoSuchCampaign(CampaignId),
    #[error("there is no battle {0} on this server")]
    NoSuchBattle(ServerBattleId),
    #[error(
        "battle {battle} has {seats} seats, numbered 1 to {seats}; there is no {}",
        crate::proto::seat_word(*seat)
    )]
    NoSuchSeat {
        battle: ServerBattleId,
        seat: u8,
        seats: usize,
    },
    #[error("the battle cannot be made: {0}")]
    Battle(String),
    #[error(
        "{} of battle {battle} already gave its nonce (each seat gives one)",
        crate::proto::seat_word(*seat)
    )]
    AlreadyJoined { battle: ServerBattleId, seat: u8 },
    #[error("battle {0} has not started: every seat gives its nonce first (join)")]
    NotStarted(ServerBattleId),
    #[error(
        "the battle moved on before your command arrived: {0}. Your copy is brought up to date by watch; {advice}",
        advice = stale_advice(.0)
    )]
    Stale(String),
    /// A command id the seat gave before, for another command (found by
    /// the campaign file's key as the command is written).
    #[error(
        "this cmd_id was used for another command: give each command its own (16 random bytes in hex, say); nothing changed"
    )]
    ReusedCmdId,
    #[error("{0}")]
    Rule(String),
    #[error("battle {0} is over")]
    Over(ServerBattleId),
    #[error(
        "battle {battle}'s dice are rolled by the server from its fair seed, so {what}: the number of dice a command rolls can depend on what the first ones show, and saying it ahead would tell your seat its coming dice. Give the command and the server rolls (dice entered by hand are for battles created with entered dice)"
    )]
    RolledDice {
        battle: ServerBattleId,
        what: &'static str,
    },
    /// `file` is for the server's log only: where the server keeps its
    /// files is not a player's business, so the words say "the campaign's
    /// file".
    #[error("the campaign's file: {why}")]
    Campaign { file: String, why: String },
    #[error("the club file {path}: {why}")]
    File { path: String, why: String },
    /// A second server on one data folder would hold its tokens in memory
    /// apart from the first's (a token revoked on one would still open the
    /// other): the club file is held by one server at a time.
    #[error(
        "another xenolog serve holds this club folder {folder} ({holder}): stop it first, or serve another folder"
    )]
    Held { folder: String, holder: String },
    #[error("the operating system's random generator failed: {0}")]
    Random(String),
    /// The club's database (PostgreSQL) could not be reached: nothing was
    /// changed, and the server connects again on the next request
    /// (`server/POSTGRES.md` §3). A client may send the same request again.
    #[error("the database is not reachable; retrying: nothing was changed, try again in a moment")]
    Unavailable,
    /// PostgreSQL: the battle is held by another connection to the
    /// database (a lock waited for longer than the committer waits:
    /// `server/POSTGRES.md` §3, issue 31 review5 S1). Nothing was written;
    /// the same request may be sent again in a moment.
    #[error(
        "the battle's campaign is busy: another connection to the club's database holds one of its battles or its battles table; nothing was written: try again in a moment"
    )]
    Busy,
}

impl ClubError {
    /// The words a client is sent. Where the server keeps its files is not
    /// a player's business (review of session 15, item 11): a failure of
    /// the campaign's file or the club file whose words name a path (a
    /// `SaveError` of a file that cannot be opened, read or written names
    /// it) is told in words that name none; the server's log holds the
    /// whole of it ([`ClubError`]'s own words).
    pub fn client_words(&self) -> String {
        match self {
            ClubError::Campaign { file, why } => {
                format!("the campaign's file: {}", without_path(why, file))
            }
            ClubError::File { path, why } => {
                format!("the club file: {}", without_path(why, path))
            }
            other => other.to_string(),
        }
    }
}

/// `why`, or general words if it names `file`, its name or a folder it is
/// in (the data folder, its campaigns folder).
fn without_path(why: &str, file: &str) -> String {
    let path = std::path::Path::new(file);
    let names_it = !file.is_empty() && why.contains(file)
        || path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| !n.is_empty() && why.contains(n))
        || path.ancestors().skip(1).any(|d| {
            let d = d.to_string_lossy();
            // Not the root nor an empty (relative) parent: those are in any
            // words.
            d.chars().filter(|c| c.is_alphanumeric()).count() > 0 && why.contains(d.as_ref())
        });
    if names_it {
        "it could not be opened, read or written on this request (the server's log says why): \
         try again in a moment, or tell the club's organiser"
            .to_owned()
    } else {
        why.to_owned()
    }
}

/// The tokens and invitations of a club: the club file by default.
pub trait TokenStore: Send + Sync + 'static {
    /// A fresh organiser invitation when the club has no organiser (first
    /// start) or when `force` is given; unspent organiser invitations made
    /// before are voided, so only the one printed now opens the club.
    fn organiser_invitation(&self, force: bool) -> Result<Option<Invitation>, ClubError>;
    /// The principal of a token (`hello`); marks it used.
    fn authenticate(&self, token: &Token) -> Result<Principal, ClubError>;
    /// Spend an invitation: a new token, or (with `into`) the invitation's
    /// grants added to a token the socket already holds.
    fn redeem(
        &self,
        code: &Code,
        label: Option<&str>,
        into: Option<&Principal>,
    ) -> Result<Redeemed, ClubError>;
    /// A new invitation made by an organiser (`invite`), for a seat or not.
    fn invite(
        &self,
        by: &Principal,
        role: Role,
        label: &str,
        days: u32,
        seat: Option<SeatInvite>,
    ) -> Result<Invitation, ClubError>;
    /// What a token opens.
    fn grants(&self, token: TokenId) -> Result<Vec<Grant>, ClubError>;
    /// Every token of the club (`tokens`).
    fn tokens(&self) -> Result<Vec<TokenInfo>, ClubError>;
    /// Revoke a token (`revoke`); revoking one already revoked is no change.
    fn revoke(&self, id: TokenId) -> Result<TokenInfo, ClubError>;
}

/// The campaigns and the battles created on the server.
pub trait BattleStore: Send + Sync + 'static {
    /// A new campaign (its own campaign file).
    fn create_campaign(&self, name: &str) -> Result<CampaignInfo, ClubError>;
    /// Every campaign.
    fn campaigns(&self) -> Result<Vec<CampaignInfo>, ClubError>;
    /// A new battle: the server's secret is drawn and stored with its
    /// commitment, durably, before this returns.
    fn create_battle(&self, battle: NewBattle) -> Result<CreatedBattle, ClubError>;
    /// A seat's nonce, stored durably; when it is the last one, the battle
    /// starts in its campaign file with the seed of the secret and every nonce.
    fn join(&self, battle: ServerBattleId, seat: u8, nonce: Bytes32) -> Result<Joined, ClubError>;
    /// Every battle created in a campaign (the organiser's list).
    fn battles_of(&self, campaign: CampaignId) -> Result<Vec<BattleInfo>, ClubError>;
}

/// A battle read again after another process wrote it
/// ([`LiveStore::refresh`]).
#[derive(Clone, Debug, Default)]
pub struct Refreshed {
    /// The entries new to this process, in order.
    pub entries: Vec<xenolog_engine::EntryId>,
    /// The secret, when one of them ended the battle.
    pub revealed: Option<Bytes32>,
    /// Its live line left the entry this process held as its head (a
    /// take-back or a walk along a recorded line elsewhere): the line now
    /// goes through `Some(to)` (`Some(None)`: the setup), the last entry
    /// the two lines share; `entries` are the live line's after it. Its
    /// watchers hear `moved` to `to` first, then those entries.
    pub moved: Option<Option<xenolog_engine::EntryId>>,
}

/// What a command made.
#[derive(Clone, Debug)]
pub struct Played {
    /// The command's entry, then the steps the game took on its own.
    pub entries: Vec<xenolog_engine::EntryId>,
    /// The secret, revealed in the same step when the battle ended.
    pub revealed: Option<Bytes32>,
    /// The command id was seen before: nothing was decided now, `entries`
    /// are the ones the first command made.
    pub again: bool,
    /// The command was the one recorded next after a take-back: the live
    /// cursor walked the recorded line (`entries`, the command's and the
    /// game's own steps after it), nothing new was decided or written but
    /// the position (DESIGN.md section 9, a real redo).
    pub walked: bool,
}

/// The frames a command's entries make for its watchers, made on the
/// battle as it stands with them, with the server's secret (the key of the
/// receipts) and what the command made ([`LiveStore::play_begin`]). It
/// runs on the caller's thread, holding the battle: it must not block on
/// the runtime (no `blocking_recv`, no `blocking_lock`, no `block_on`),
/// and a panic in it is caught by the SQLite store, which waits for the
/// write to settle before the panic goes on.
pub type MakeFrames<'a> = dyn FnMut(&dyn xenolog_engine::Battle, &Bytes32, &Played) + 'a;

/// What a battle brought up to date from a task says to its watchers
/// ([`LiveStore::refresh_carried_now`]): the battle held, its secret, and
/// what is new.
pub type RefreshFrames<'a> = dyn FnMut(&dyn xenolog_engine::Battle, &Bytes32, &Refreshed) + 'a;

/// A command decided by [`LiveStore::play_begin`]: answered already, or
/// waiting for its write to be durable.
pub enum Playing {
    /// Nothing to wait for (a command seen before, a walk along the
    /// recorded line, or a store that writes as it decides). Its frames,
    /// if any, are still to be made.
    Done(Played),
    /// Decided, its frames made, its write queued: the battle stays held
    /// (no one reads the entries before they are durable) until the
    /// future ends; then it is [`Played`], or refused in words and the
    /// battle is read again from its file. Dropped before it ends, the
    /// battle is also read again from its file.
    Writing(std::pin::Pin<Box<dyn std::future::Future<Output = Result<Played, ClubError>> + Send>>),
}

impl Playing {
    /// What the command made, once it is durable.
    pub async fn settled(self) -> Result<Played, ClubError> {
        match self {
            Playing::Done(p) => Ok(p),
            Playing::Writing(f) => f.await,
        }
    }
}

/// Started battles, decided here: the server is the only master.
pub trait LiveStore: Send + Sync + 'static {
    /// Decide a seat's command against the battle's head `at` (the last
    /// entry the client holds, `None` at the start), write it and the
    /// game's own steps durably, and reveal the secret if it ended the
    /// battle. A head that moved on is [`ClubError::Stale`]; nothing changes
    /// on any refusal. A `cmd_id` given before by the same seat decides
    /// nothing and returns the first command's entries (`again`).
    fn play(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<xenolog_engine::EntryId>,
        command: &serde_json::Value,
        cmd_id: Option<&str>,
    ) -> Result<Played, ClubError>;
    /// [`LiveStore::play`] with the dice a player entered by hand: only in
    /// a battle created with entered dice ([`ClubError::RolledDice`] where
    /// the server rolls).
    #[allow(clippy::too_many_arguments)]
    fn play_with_dice(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<xenolog_engine::EntryId>,
        command: &serde_json::Value,
        dice: Option<Vec<u8>>,
        cmd_id: Option<&str>,
    ) -> Result<Played, ClubError>;
    /// [`LiveStore::play_with_dice`] in two halves: decided here (on the
    /// blocking pool), the write awaited by the caller ([`Playing`]). When
    /// the command decided something new, `frames` is called once, holding
    /// the battle, after the decide and before the write is awaited: the
    /// caller makes its watchers' frames then and releases them only once
    /// the future says the entries are durable. A store that writes as it
    /// decides keeps this default: [`Playing::Done`], `frames` not called.
    ///
    /// A blocking call: call it on the blocking pool (`spawn_blocking`) or
    /// a thread of one's own, never on a runtime worker. The SQLite store
    /// waits for the battle's lock with `blocking_lock_owned`, and, should
    /// `frames` panic, for the write with `blocking_recv`: both panic on a
    /// runtime worker (and would stall it). Only the returned future is
    /// awaited by a task.
    #[allow(clippy::too_many_arguments)]
    fn play_begin(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<xenolog_engine::EntryId>,
        command: &serde_json::Value,
        dice: Option<Vec<u8>>,
        cmd_id: Option<&str>,
        frames: &mut MakeFrames<'_>,
    ) -> Result<Playing, ClubError> {
        let _ = frames;
        self.play_with_dice(battle, seat, at, command, dice, cmd_id)
            .map(Playing::Done)
    }
    /// [`LiveStore::play_begin`] from a task, when it needs no wait and no
    /// read (the battle in memory and free, the command at its head with
    /// nothing recorded after it, its campaign's writer running): `None`
    /// otherwise, nothing done, and the caller goes to the blocking pool.
    /// Session 21: a command a blocking-pool thread fewer (two thread
    /// switches). The default: never.
    #[allow(clippy::too_many_arguments)]
    fn play_begin_now(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        at: Option<xenolog_engine::EntryId>,
        command: &serde_json::Value,
        dice: Option<Vec<u8>>,
        cmd_id: Option<&str>,
        frames: &mut MakeFrames<'_>,
    ) -> Option<Result<Playing, ClubError>> {
        let _ = (battle, seat, at, command, dice, cmd_id, frames);
        None
    }
    /// The sides of the dice `command` needs entered, in a battle created
    /// with entered dice; [`ClubError::RolledDice`] where the server rolls
    /// (the count can depend on the first dice: it would tell the seat its
    /// coming dice).
    fn dice_needed(
        &self,
        battle: ServerBattleId,
        seat: Actor,
        command: &serde_json::Value,
    ) -> Result<Vec<u8>, ClubError>;
    /// Read a started battle (the lens builds a seat's frames from it).
    fn read(
        &self,
        battle: ServerBattleId,
        f: &mut dyn FnMut(&dyn xenolog_engine::Battle),
    ) -> Result<(), ClubError>;
    /// Read a started battle with the server's secret, the key of the
    /// receipts (section 5.4): only the lens may take it, and only to key
    /// receipts with it.
    fn read_keyed(
        &self,
        battle: ServerBattleId,
        f: &mut dyn FnMut(&dyn xenolog_engine::Battle, &Bytes32),
    ) -> Result<(), ClubError>;
    /// The revealed secret of a battle that is over.
    fn revealed(&self, battle: ServerBattleId) -> Result<Option<Bytes32>, ClubError>;
    /// Drop from memory the battles not used for `idle` (loaded again on
    /// their next use); how many. A store that keeps nothing evicts nothing.
    fn evict_idle(&self, idle: std::time::Duration) -> usize {
        let _ = idle;
        0
    }
    /// The server battle that is battle `id` of campaign `campaign`, if
    /// this process has loaded it (a notification names it so). A store
    /// that no other process writes knows of none.
    fn loaded_as(&self, campaign: CampaignId, id: i64) -> Option<ServerBattleId> {
        let _ = (campaign, id);
        None
    }
    /// Every battle this process has loaded (a catch-up reads them all).
    fn loaded_battles(&self) -> Vec<ServerBattleId> {
        Vec::new()
    }
    /// Read a loaded battle again after another process wrote it
    /// (issue 31): its entry `seq`, or everything (`None`, a catch-up).
    /// `Ok(None)`: not in memory here.
    fn refresh(
        &self,
        battle: ServerBattleId,
        seq: Option<u64>,
    ) -> Result<Option<Refreshed>, ClubError> {
        let _ = (battle, seq);
        Ok(None)
    }
    /// [`LiveStore::refresh`] for watchers that hold the live line to
    /// `held` (`None`: the setup), the battle loaded again if this process
    /// dropped it: after this process's write of a command decided at
    /// `held` lost the race to another process's (issue 31), the entries
    /// that came first, for its watchers, before the command is decided
    /// again or told `stale`.
    fn refresh_from(
        &self,
        battle: ServerBattleId,
        held: Option<xenolog_engine::EntryId>,
    ) -> Result<Option<Refreshed>, ClubError> {
        let _ = (battle, held);
        Ok(None)
    }
    /// [`LiveStore::refresh`] for a part another process wrote whose
    /// notification carried it (`body`, [`notify::Hint::Carried`]): the
    /// battle extended from it, nothing read, when it fits the head held;
    /// otherwise read as [`LiveStore::refresh`] reads (`seq`: the part's
    /// last entry).
    fn refresh_carried(
        &self,
        battle: ServerBattleId,
        seq: u64,
        body: &str,
    ) -> Result<Option<Refreshed>, ClubError> {
        let _ = body;
        self.refresh(battle, Some(seq))
    }
    /// [`LiveStore::refresh_carried`] from a task, when it needs no wait
    /// and no read (the battle in memory and free, holding the entry `seq`
    /// already or the part fitting its head): `frames` is called holding
    /// the battle with what is new ([`Refreshed`]; not called when nothing
    /// is). `None` otherwise, nothing done: the caller goes to the
    /// blocking pool. The default: never.
    fn refresh_carried_now(
        &self,
        battle: ServerBattleId,
        seq: u64,
        body: &str,
        frames: &mut RefreshFrames<'_>,
    ) -> Option<Result<(), ClubError>> {
        let _ = (battle, seq, body, frames);
        None
    }
    /// How many times a battle was brought up to date from the part its
    /// notification carried, reading nothing (issue 31 P5, session 20).
    fn carried_refreshes(&self) -> u64 {
        0
    }
    /// Whether `battle` is in memory here with entry `seq` already (known
    /// without waiting): a notification of it brings nothing, and is not
    /// handed to the blocking pool (a process hears its own parts too).
    fn holds_entry(&self, battle: ServerBattleId, seq: u64) -> bool {
        let _ = (battle, seq);
        false
    }
    /// How many times a battle was brought up to date after another
    /// process wrote it by reading only what is stored after its head, and
    /// how many by reading it whole: (after, whole). Issue 31 P5.
    fn refresh_reads(&self) -> (u64, u64) {
        (0, 0)
    }
    /// Whether other processes may write this store's battles (several
    /// servers on one PostgreSQL database): a command found stale here is
    /// then read again from the store before it is refused, since this
    /// process may be the one behind.
    fn shared_writers(&self) -> bool {
        false
    }
}

/// Everything the server stores: the club's tokens, and the campaigns and
/// battles (section 7's remaining methods join them with live play).
pub trait Store: Send + Sync + 'static {
    fn tokens(&self) -> &dyn TokenStore;
    fn battles(&self) -> &dyn BattleStore;
    fn live(&self) -> &dyn LiveStore;
    /// Take-backs and the shared campaign (step S7). A store that keeps
    /// none (a layer that does not pass them on) refuses them in words.
    fn table(&self) -> &dyn table::TableStore {
        &table::NoTable
    }
}

/// What a `Stale` refusal's words end with when the command named an entry
/// before the battle's last one and the battle has ended.
pub(crate) const STALE_AT_END: &str = ", where the battle ended";

/// The advice of a `Stale` refusal: a command for an ended battle can never
/// be given again (final read, finalsrv S2: it said "give the command again").
fn stale_advice(words: &str) -> &'static str {
    if words.ends_with(STALE_AT_END) {
        "nothing more can be played in it"
    } else {
        "give the command again if it still applies"
    }
}
