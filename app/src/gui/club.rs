//! A club server's battles as the app's open campaign (server/DESIGN.md
//! section 11, "App: File > Connect to a club"): [`ClubCampaign`]
//! implements [`CampaignStore`] over a connection to `xenolog serve`.
//!
//! The battles listed are the ones the token holds seats in, with whose turn
//! it is; a battle opens as the seat's [`SeatBattle`] (its views only,
//! `xenolog_engine::seat`). A command is sent on a network thread with a
//! `cmd_id`, so no frame waits for the network; what the server sends (this
//! seat's entries, another seat's moves, refusals, the list) comes back on a
//! channel, read by [`CampaignStore::poll`] each frame, and the thread asks
//! egui to repaint when something arrives. A lost connection is made again
//! by the client (`xenolog_server::client`), which resumes every watched
//! battle after its last entry; meanwhile the app says "reconnecting".
//!
//! The token is kept in a file readable by its owner only (mode 0600) in the
//! club folder, the one `xenolog club redeem` writes, never in the
//! preferences or a log; the nonces too, under the names the command line
//! gives them, so `xenolog verify --nonce` finds them after the end. Notes
//! and bookmarks on a club battle are the player's own, kept in a small
//! file in the club folder.
//!
//! [`SeatBattle`]: xenolog_engine::seat::SeatBattle

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use eframe::egui;
use serde_json::{Value, json};
use xenolog_engine::seat::{
    SEED_HELD, SeatEntry, SeatLog, game_of_state, seat_battle, seat_copy, seat_copy_ref,
};
use xenolog_engine::{Actor, Battle, EntryId, LegalCommand, VerifyReport};
use xenolog_server::client::{
    Client, ClientError, ServerAddr, invitation_code, is_invitation_link, new_cmd_id, new_nonce,
};
use xenolog_server::secret::Token;

use super::store::{BattleId, BattleSummary, CampaignStore, DiceMode, Note};

/// Something that came from the club server, for the app to show.
#[derive(Clone, Debug, PartialEq)]
pub enum Arrival {
    /// A battle's copy changed (an entry, its commands, its end).
    Battle(BattleId),
    /// The list of battles changed (a battle started, whose turn).
    Listing,
    /// The server refused something, or the connection failed: a notice.
    Notice { title: String, words: String },
    /// A line for the status bar.
    Status(String),
}

/// What the app asks the network thread to do.
enum ToNet {
    /// The seat's view at the setup, then every entry and the live ones.
    Watch {
        battle: BattleId,
        seat: u8,
    },
    Command {
        battle: BattleId,
        seat: u8,
        /// The head the command was chosen at (the copy's live head): the
        /// server decides it there or says the battle moved on, never at a
        /// newer head the app has not shown.
        at: Option<EntryId>,
        command: Value,
        cmd_id: String,
        text: String,
    },
    Join {
        battle: BattleId,
        seat: u8,
        nonce: String,
    },
    /// Ask to take the battle's live line back to `to` (section 9).
    Takeback {
        battle: BattleId,
        seat: u8,
        to: Option<EntryId>,
    },
    /// Answer take-back `request`.
    Answer {
        battle: BattleId,
        seat: u8,
        request: u64,
        accept: bool,
    },
    /// The campaigns and battles again.
    List,
    Stop,
}

/// What the network thread tells the app.
enum FromNet {
    Event(Value),
    Setup {
        battle: BattleId,
        state: Value,
        /// The game the server names (`None`: a server before session 15).
        game: Option<String>,
    },
    Legal {
        battle: BattleId,
        head: Option<EntryId>,
        legal: Vec<LegalCommand>,
    },
    Listing(Value),
    Sent {
        text: String,
    },
    /// A line for the status bar (a take-back asked or answered).
    Said(String),
    Joined {
        battle: BattleId,
        started: bool,
    },
    Refused {
        title: String,
        words: String,
    },
}

/// A battle of the club the token holds a seat in.
#[derive(Clone, Debug)]
struct ClubBattle {
    campaign: i64,
    campaign_name: String,
    seat: u8,
    /// The server's status line (`lens::status`, or waiting).
    status: Value,
    /// The game, as the server names it (the list, the `state` reply);
    /// from an older server that does not, found from the setup's shape.
    game: Option<String>,
    /// The take-back asked in this battle, while it waits for answers.
    takeback: Option<TakebackAsked>,
    log: Option<SeatLog>,
    over: Option<Value>,
    /// Whose turn it is, in words (worked out when something arrives).
    words: String,
    /// Its watch was asked for (once it has started).
    watching: bool,
}

/// A take-back asked in a club battle (the `takeback_asked` event,
/// server/DESIGN.md section 9), as the app shows it until it is answered,
/// lapses or moves the battle.
#[derive(Clone, Debug, PartialEq)]
pub struct TakebackAsked {
    /// Its number: an accept names it.
    pub request: u64,
    /// The seat that asked (an index from 0).
    pub by: u8,
    /// The entry asked to go back to (`None`: the setup).
    pub to: Option<EntryId>,
    /// The first entry after `to` whose dice were seen: the new line rolls
    /// them again, so every seat knows them already.
    pub dice_seen: Option<EntryId>,
    /// The server's words.
    pub words: String,
    /// Whether this seat is asked to answer it and has not yet.
    pub to_answer: bool,
}

/// An invitation spent, or a kept token: what connecting needs.
pub enum Credentials {
    /// An invitation code or link, spent on connecting; its token is kept.
    Invitation(String),
    /// The token kept for this server by an earlier connection.
    Kept,
}

/// The club folder's list of clubs connected to (addresses only, no tokens).
const CLUBS_FILE: &str = "clubs.json";

/// A club server's battles, behind [`CampaignStore`].
pub struct ClubCampaign {
    addr: ServerAddr,
    dir: PathBuf,
    role: String,
    battles: BTreeMap<BattleId, ClubBattle>,
    to_net: Sender<ToNet>,
    from_net: Receiver<FromNet>,
    /// When the network thread's current wait began (ms since `epoch`), 0
    /// when it is not waiting on the network: a wait much longer than its
    /// 250 ms is the client reconnecting.
    busy_since: Arc<AtomicU64>,
    reconnects: Arc<AtomicU32>,
    epoch: Instant,
    notes: BTreeMap<BattleId, Vec<Note>>,
    /// When the list was last asked for: while a battle waits for other
    /// seats to join, it is asked for again every few seconds (no event
    /// says that a battle this token does not watch has started).
    listed_at: Instant,
    /// Each battle's copy as built so far, kept up to date entry by entry
    /// (whose turn it is is read from it without parsing every state).
    copies: BTreeMap<BattleId, Box<dyn Battle>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for ClubCampaign {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClubCampaign")
            .field("server", &self.addr.host)
            .finish()
    }
}

fn words(e: ClientError) -> String {
    e.to_string()
}

/// The file the token of a server is kept in (the name `xenolog club
/// redeem` gives it).
pub fn token_file(dir: &Path, addr: &ServerAddr) -> PathBuf {
    dir.join(format!("token-{}", addr.file_part()))
}

pub use crate::private::write_private;

/// A club as the saved list keeps it: its address, and for a club with its
/// own certificate the CA file it is checked against.
#[derive(Clone, Debug, PartialEq)]
struct SavedClub {
    server: String,
    ca_file: Option<PathBuf>,
}

/// The saved list as written: an address, or (since a club's CA file is
/// kept with it) `{"server": ..., "ca_file": ...}`; older lists of
/// addresses read as before.
fn read_saved(dir: &Path) -> Vec<SavedClub> {
    let text = std::fs::read_to_string(dir.join(CLUBS_FILE)).unwrap_or_default();
    let list: Vec<Value> = serde_json::from_str(&text).unwrap_or_default();
    list.into_iter()
        .filter_map(|v| match v {
            Value::String(server) => Some(SavedClub {
                server,
                ca_file: None,
            }),
            Value::Object(o) => Some(SavedClub {
                server: o.get("server")?.as_str()?.to_owned(),
                ca_file: o.get("ca_file").and_then(Value::as_str).map(PathBuf::from),
            }),
            _ => None,
        })
        .filter(|c| ServerAddr::parse(&c.server).is_ok_and(|s| token_file(dir, &s).exists()))
        .collect()
}

/// The clubs connected to before, newest first (their addresses).
pub fn saved_clubs(dir: &Path) -> Vec<String> {
    read_saved(dir).into_iter().map(|c| c.server).collect()
}

/// The CA file kept with a saved club at `addr`'s host, if any.
pub fn saved_ca_file(dir: &Path, addr: &ServerAddr) -> Option<PathBuf> {
    read_saved(dir)
        .into_iter()
        .find(|c| ServerAddr::parse(&c.server).is_ok_and(|s| s.host == addr.host))
        .and_then(|c| c.ca_file)
}

/// A club as the saved list keeps it: with `wss://` when it speaks TLS, so
/// coming back to it never sends its token over a plain connection.
fn saved_name(addr: &ServerAddr) -> String {
    if addr.tls {
        format!("wss://{}", addr.host)
    } else {
        addr.host.clone()
    }
}

/// Put the club first in the saved list, with its scheme and (over TLS)
/// the CA file it was reached with, so coming back to it checks its
/// certificate as this time.
fn remember_club(dir: &Path, addr: &ServerAddr) -> Result<(), String> {
    let mut list = read_saved(dir);
    list.retain(|c| ServerAddr::parse(&c.server).map_or(true, |s| s.host != addr.host));
    list.insert(
        0,
        SavedClub {
            server: saved_name(addr),
            ca_file: addr.ca_file.clone().filter(|_| addr.tls),
        },
    );
    let list: Vec<Value> = list
        .into_iter()
        .map(|c| match c.ca_file {
            Some(ca) => json!({"server": c.server, "ca_file": ca.display().to_string()}),
            None => Value::String(c.server),
        })
        .collect();
    write_private(
        &dir.join(CLUBS_FILE),
        &serde_json::to_string_pretty(&list).unwrap_or_default(),
    )
}

/// The CA file a `wss://` club is checked against: the one given now
/// (`XENOLOG_CA`, made absolute so it still names the file from another
/// folder), else the one kept with the saved club.
fn with_ca(addr: ServerAddr, dir: &Path) -> ServerAddr {
    if !addr.tls || addr.ca_file.is_some() {
        return addr;
    }
    let given = std::env::var_os("XENOLOG_CA")
        .map(PathBuf::from)
        .filter(|p| !p.as_os_str().is_empty())
        .map(|p| std::path::absolute(&p).unwrap_or(p));
    match given.or_else(|| saved_ca_file(dir, &addr)) {
        Some(ca) => addr.with_ca_file(ca),
        None => addr,
    }
}

/// An entry in words, or the setup.
fn at_words(at: Option<EntryId>) -> String {
    at.map_or_else(|| "the setup".to_owned(), |e| format!("entry {e}"))
}

/// An entry number of a frame (`null`: the setup).
fn entry_of(v: &Value) -> Option<EntryId> {
    v.as_u64()
}

fn ms_since(epoch: Instant) -> u64 {
    epoch.elapsed().as_millis() as u64 + 1
}

impl ClubCampaign {
    /// A club campaign of `addr` as `role`, its network thread's channels
    /// given; nothing listed yet, no thread.
    fn new(
        addr: ServerAddr,
        dir: &Path,
        role: String,
        to_net: Sender<ToNet>,
        from_net: Receiver<FromNet>,
    ) -> Self {
        ClubCampaign {
            addr,
            dir: dir.to_owned(),
            role,
            battles: BTreeMap::new(),
            to_net,
            from_net,
            busy_since: Arc::new(AtomicU64::new(0)),
            reconnects: Arc::new(AtomicU32::new(0)),
            epoch: Instant::now(),
            notes: BTreeMap::new(),
            listed_at: Instant::now(),
            copies: BTreeMap::new(),
            thread: None,
        }
    }

    /// Connect to a club server: spend an invitation (its token kept in the
    /// club folder `dir`, 0600) or use the token kept there, say hello,
    /// list the battles and take in every started one of this token's
    /// seats; then the network thread carries on. `ctx` is repainted
    /// whenever something arrives.
    pub fn connect(
        server: &str,
        credentials: Credentials,
        dir: &Path,
        ctx: &egui::Context,
    ) -> Result<ClubCampaign, String> {
        Self::connect_with_ca(server, credentials, None, dir, ctx)
    }

    /// [`connect`](Self::connect), a club over TLS checked against the CA
    /// file `ca_file` (the Connect window's field) when given, else the
    /// one `XENOLOG_CA` names or the one kept with the saved club; it is
    /// kept with the club for the next time.
    pub fn connect_with_ca(
        server: &str,
        credentials: Credentials,
        ca_file: Option<&Path>,
        dir: &Path,
        ctx: &egui::Context,
    ) -> Result<ClubCampaign, String> {
        let given = server.trim();
        let addr = match (&credentials, given.is_empty()) {
            (Credentials::Invitation(code), true) if is_invitation_link(code) => {
                ServerAddr::parse(code)?
            }
            (_, true) => {
                return Err(
                    "give the club server's address (HOST:PORT, as its organiser gave it), \
                     or paste the whole invitation link"
                        .to_owned(),
                );
            }
            (_, false) => ServerAddr::parse(given)?,
        };
        let addr = match ca_file {
            None => with_ca(addr, dir),
            Some(_) if !addr.tls => {
                return Err(format!(
                    "a CA file is for a club reached over TLS (wss://{} or a xenolog+tls:// \
                     link); leave it empty for a plain club",
                    addr.host
                ));
            }
            Some(ca) if !ca.is_file() => {
                return Err(format!("the CA file {} cannot be read", ca.display()));
            }
            Some(ca) => addr.with_ca_file(std::path::absolute(ca).unwrap_or_else(|_| ca.into())),
        };
        let path = token_file(dir, &addr);
        let token = match credentials {
            Credentials::Invitation(code) => {
                let code = invitation_code(&code);
                if code.is_empty() {
                    return Err("give the invitation code or link the organiser sent you".into());
                }
                // Not in plain text to another machine: refused before
                // anything is sent.
                addr.secrets_may_go("invitation code").map_err(words)?;
                let mut c = Client::connect(addr.clone(), None).map_err(words)?;
                let body = c
                    .request_no_retry("redeem", json!({"code": code, "label": "Xenolog app"}))
                    .map_err(words)?;
                c.close();
                let t = body["token"]
                    .as_str()
                    .ok_or("the server gave no token for this invitation")?
                    .to_owned();
                write_private(&path, &format!("{t}\n"))?;
                Token::from_text(&t)
            }
            Credentials::Kept => match std::fs::read_to_string(&path) {
                Ok(t) if !t.trim().is_empty() => Token::from_text(&t),
                _ => {
                    return Err(format!(
                        "no token kept for {}: connect with an invitation code first",
                        addr.host
                    ));
                }
            },
        };
        let mut client = Client::connect(addr.clone(), Some(token)).map_err(words)?;
        remember_club(dir, &addr)?;
        let role = client.hello()["role"].as_str().unwrap_or("").to_owned();
        let listing = client.request("campaigns", json!({})).map_err(words)?;
        let (to_net, net_in) = channel();
        let (net_out, from_net) = channel();
        let mut club = ClubCampaign::new(addr, dir, role, to_net, from_net);
        club.notes = club.read_notes();
        club.take_listing(&listing);
        club.reword(&[Arrival::Listing]);
        // Every started battle, whole, before the first frame shows it.
        let started: Vec<(BattleId, u8)> = club
            .battles
            .iter()
            .filter(|(_, b)| b.status["status"] != "waiting")
            .map(|(id, b)| (*id, b.seat))
            .collect();
        for (battle, seat) in started {
            if let Some(b) = club.battles.get_mut(&battle) {
                b.watching = true;
            }
            let mut net = Net {
                client: &mut client,
                out: &net_out,
                dirty: HashSet::new(),
            };
            net.watch(battle, seat);
            net.backfill(battle, Duration::from_secs(30));
            net.legal_all();
        }
        while let Ok(m) = club.from_net.try_recv() {
            let arrivals = club.take(m);
            club.reword(&arrivals);
        }
        let busy = club.busy_since.clone();
        let reconnects = club.reconnects.clone();
        let epoch = club.epoch;
        let ctx = ctx.clone();
        club.thread = Some(
            std::thread::Builder::new()
                .name("club network".into())
                .spawn(move || net_loop(client, net_in, net_out, busy, reconnects, epoch, ctx))
                .map_err(|e| format!("cannot start the network thread: {e}"))?,
        );
        Ok(club)
    }

    /// The server, `HOST:PORT`.
    pub fn host(&self) -> &str {
        &self.addr.host
    }

    /// The token's role: player, spectator or organiser.
    pub fn role(&self) -> &str {
        &self.role
    }

    /// Whether the connection is being made again now.
    pub fn reconnecting(&self) -> bool {
        let since = self.busy_since.load(Ordering::Relaxed);
        since != 0 && ms_since(self.epoch).saturating_sub(since) > 1500
    }

    /// How often the connection was made again.
    pub fn reconnects(&self) -> u32 {
        self.reconnects.load(Ordering::Relaxed)
    }

    /// The campaigns and their battles as listed: (campaign name, battle,
    /// seat, whose turn in words, whether it waits for this seat to join).
    pub fn listing(&self) -> Vec<ClubRow> {
        self.battles
            .iter()
            .map(|(id, b)| ClubRow {
                campaign: b.campaign_name.clone(),
                battle: *id,
                seat: b.seat,
                status: b.words.clone(),
                waiting: b.status["status"] == "waiting",
                joined: b.status["status"] == "waiting" && self.nonce_file(*id, b.seat).exists(),
                ready: b.log.is_some() && b.game.is_some(),
            })
            .collect()
    }

    /// Work out again whose turn it is in the battles that changed.
    fn reword(&mut self, arrivals: &[Arrival]) {
        let all = arrivals.contains(&Arrival::Listing);
        let ids: Vec<BattleId> = self
            .battles
            .keys()
            .copied()
            .filter(|id| all || arrivals.contains(&Arrival::Battle(*id)))
            .collect();
        for id in ids {
            let w = self.status_words(id);
            if let Some(b) = self.battles.get_mut(&id) {
                b.words = w;
            }
        }
    }

    fn status_words(&self, id: BattleId) -> String {
        let Some(b) = self.battles.get(&id) else {
            return String::new();
        };
        if let Some(o) = &b.over {
            return format!("over: {}", o["summary"].as_str().unwrap_or(""));
        }
        // Whose turn, from the seat's own copy when it has one (it is
        // newer than the list), else from the server's list.
        if let Some(battle) = self.copies.get(&id) {
            if let Some(o) = battle.outcome() {
                return format!("over: {}", o.summary);
            }
            return turn_words(battle.as_ref(), Actor(b.seat));
        }
        match b.status["status"].as_str() {
            Some("over") => format!("over: {}", b.status["result"].as_str().unwrap_or("")),
            Some("playing") => {
                let asked: Vec<&str> = b.status["asked"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                let yours = b.status["asked_seats"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|s| s.as_u64() == Some(u64::from(b.seat)));
                format!(
                    "{}'s turn{}",
                    asked.join(" and "),
                    if yours { " (yours)" } else { "" }
                )
            }
            _ => "waiting for every seat to join".to_owned(),
        }
    }

    /// Join a battle as this token's seat: a new nonce (32 random bytes)
    /// kept first in the club folder, then given to the server.
    pub fn join(&mut self, battle: BattleId) -> Result<(), String> {
        let b = self
            .battles
            .get(&battle)
            .ok_or_else(|| format!("your token opens no seat of battle {battle}"))?;
        let seat = b.seat;
        let path = self.nonce_file(battle, seat);
        let nonce = match std::fs::read_to_string(&path) {
            Ok(t) => t.trim().to_owned(),
            Err(_) => {
                let n = xenolog_engine::fair::hex(&new_nonce()?);
                write_private(&path, &format!("{n}\n"))?;
                n
            }
        };
        self.send(ToNet::Join {
            battle,
            seat,
            nonce,
        })
    }

    /// Ask for the campaigns and battles again.
    pub fn refresh(&mut self) -> Result<(), String> {
        self.send(ToNet::List)
    }

    /// This token's seat in a battle (an index from 0).
    pub fn seat(&self, battle: BattleId) -> Option<u8> {
        self.battles.get(&battle).map(|b| b.seat)
    }

    /// The take-back asked in a battle, while it waits for answers.
    pub fn takeback(&self, battle: BattleId) -> Option<&TakebackAsked> {
        self.battles.get(&battle).and_then(|b| b.takeback.as_ref())
    }

    /// Ask the other seats to take the battle's live line back to `to`
    /// (an entry of it, or the setup): the server asks them, or in a
    /// battle with friendly take-backs moves at once (section 9). Its
    /// reply comes back as a status line, a refusal as a notice.
    pub fn ask_takeback(&mut self, battle: BattleId, to: Option<EntryId>) -> Result<(), String> {
        let b = self
            .battles
            .get(&battle)
            .ok_or_else(|| format!("your token opens no seat of battle {battle}"))?;
        if let Some(t) = &b.takeback {
            return Err(format!(
                "take-back {} (back to {}) is asked in battle {battle}: it is answered first",
                t.request,
                at_words(t.to)
            ));
        }
        let seat = b.seat;
        self.send(ToNet::Takeback { battle, seat, to })
    }

    /// Answer the take-back asked in a battle, naming its request (an
    /// accept meant for it never moves the battle for a later one).
    pub fn answer_takeback(&mut self, battle: BattleId, accept: bool) -> Result<(), String> {
        let b = self
            .battles
            .get_mut(&battle)
            .ok_or_else(|| format!("your token opens no seat of battle {battle}"))?;
        let Some(t) = b.takeback.as_mut().filter(|t| t.to_answer) else {
            return Err(format!(
                "no take-back waits for your answer in battle {battle}"
            ));
        };
        // Answered: the buttons go; the server's answer follows.
        t.to_answer = false;
        let (seat, request) = (b.seat, t.request);
        self.send(ToNet::Answer {
            battle,
            seat,
            request,
            accept,
        })
    }

    fn send(&self, m: ToNet) -> Result<(), String> {
        self.to_net
            .send(m)
            .map_err(|_| "the connection to the club server is closed".to_owned())
    }

    /// Where a seat's nonce is kept (the name `xenolog club join` gives it).
    fn nonce_file(&self, battle: BattleId, seat: u8) -> PathBuf {
        self.dir
            .join(format!("nonce-{}-b{battle}-s{seat}", self.addr.file_part()))
    }

    fn notes_file(&self) -> PathBuf {
        self.dir
            .join(format!("notes-{}.json", self.addr.file_part()))
    }

    fn read_notes(&self) -> BTreeMap<BattleId, Vec<Note>> {
        let Ok(text) = std::fs::read_to_string(self.notes_file()) else {
            return BTreeMap::new();
        };
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        let mut out = BTreeMap::new();
        for (k, list) in v.as_object().into_iter().flatten() {
            let Ok(id) = k.parse::<BattleId>() else {
                continue;
            };
            let notes = list
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|n| {
                    Some(Note {
                        entry: n["entry"].as_u64()?,
                        bookmark: n["bookmark"].as_bool().unwrap_or(false),
                        text: n["text"].as_str().unwrap_or("").to_owned(),
                        created: n["created"].as_i64().unwrap_or(0),
                        updated: n["updated"].as_i64().unwrap_or(0),
                    })
                })
                .collect();
            out.insert(id, notes);
        }
        out
    }

    fn write_notes(&self) -> Result<(), String> {
        let mut v = serde_json::Map::new();
        for (id, list) in &self.notes {
            let list: Vec<Value> = list
                .iter()
                .map(|n| {
                    json!({"entry": n.entry, "bookmark": n.bookmark, "text": n.text,
                           "created": n.created, "updated": n.updated})
                })
                .collect();
            v.insert(id.to_string(), Value::Array(list));
        }
        // The notes may name this seat's own hidden cards: the owner's only.
        write_private(
            &self.notes_file(),
            &serde_json::to_string_pretty(&Value::Object(v)).unwrap_or_default(),
        )
    }

    fn edit_note(
        &mut self,
        id: BattleId,
        entry: EntryId,
        f: impl FnOnce(&mut Note),
    ) -> Result<(), String> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        let list = self.notes.entry(id).or_default();
        let i = match list.iter().position(|n| n.entry == entry) {
            Some(i) => i,
            None => {
                list.push(Note {
                    entry,
                    bookmark: false,
                    text: String::new(),
                    created: now,
                    updated: now,
                });
                list.len() - 1
            }
        };
        f(&mut list[i]);
        list[i].updated = now;
        list.retain(|n| n.bookmark || !n.text.is_empty());
        list.sort_by_key(|n| n.entry);
        self.write_notes()
    }

    fn take_listing(&mut self, body: &Value) {
        for camp in body["campaigns"].as_array().into_iter().flatten() {
            let campaign = camp["campaign"].as_i64().unwrap_or(0);
            let name = camp["name"].as_str().unwrap_or("").to_owned();
            for b in camp["battles"].as_array().into_iter().flatten() {
                let (Some(id), Some(seat)) = (
                    b["battle"].as_i64(),
                    b["my_seats"]
                        .as_array()
                        .and_then(|s| s.first())
                        .and_then(Value::as_u64),
                ) else {
                    continue;
                };
                let entry = self.battles.entry(id).or_insert_with(|| ClubBattle {
                    campaign,
                    campaign_name: name.clone(),
                    seat: seat as u8,
                    status: Value::Null,
                    game: None,
                    takeback: None,
                    log: None,
                    over: None,
                    words: String::new(),
                    watching: false,
                });
                // The battle's game, as the server names it (section 3).
                if let Some(g) = b["game"].as_str() {
                    entry.game = Some(g.to_owned());
                }
                entry.status = b.clone();
            }
        }
    }

    /// Take in one message of the network thread; what the app should show.
    fn take(&mut self, m: FromNet) -> Vec<Arrival> {
        match m {
            FromNet::Setup {
                battle,
                state,
                game,
            } => {
                let Some(b) = self.battles.get_mut(&battle) else {
                    return Vec::new();
                };
                // The game the frame names; only a server that does not
                // name it (before session 15) leaves it to the setup's shape.
                b.game = game
                    .or_else(|| b.game.take())
                    .or_else(|| game_of_state(&state).map(str::to_owned));
                b.log = Some(SeatLog::new(Actor(b.seat), state));
                self.copies.remove(&battle);
                self.keep_copy(battle);
                vec![Arrival::Battle(battle), Arrival::Listing]
            }
            FromNet::Legal {
                battle,
                head,
                legal,
            } => {
                let Some(log) = self.battles.get_mut(&battle).and_then(|b| b.log.as_mut()) else {
                    return Vec::new();
                };
                // Commands at another head than the copy's: newer entries
                // (or a take-back) are on their way, and their own `legal`
                // follows them.
                if log.head != head {
                    return Vec::new();
                }
                log.legal = legal;
                self.keep_copy(battle);
                vec![Arrival::Battle(battle), Arrival::Listing]
            }
            FromNet::Event(ev) => self.take_event(&ev),
            FromNet::Listing(body) => {
                self.take_listing(&body);
                // A battle that started since (the last seat joined): its
                // copy is asked for now.
                let started: Vec<(BattleId, u8)> = self
                    .battles
                    .iter_mut()
                    .filter(|(_, b)| !b.watching && b.status["status"] != "waiting")
                    .map(|(id, b)| {
                        b.watching = true;
                        (*id, b.seat)
                    })
                    .collect();
                for (battle, seat) in started {
                    let _ = self.send(ToNet::Watch { battle, seat });
                }
                vec![Arrival::Listing]
            }
            FromNet::Sent { text } => vec![Arrival::Status(format!("Played: {text}"))],
            FromNet::Said(words) => vec![Arrival::Status(words)],
            FromNet::Joined { battle, started } => {
                if started && let Some(b) = self.battles.get_mut(&battle) {
                    b.watching = true;
                    let seat = b.seat;
                    let _ = self.send(ToNet::Watch { battle, seat });
                }
                let _ = self.send(ToNet::List);
                vec![
                    Arrival::Status(if started {
                        format!("Joined battle {battle}: every seat is in, the battle has started")
                    } else {
                        format!("Joined battle {battle}: waiting for the other seats to join")
                    }),
                    Arrival::Listing,
                ]
            }
            FromNet::Refused { title, words } => vec![Arrival::Notice { title, words }],
        }
    }

    /// Bring the battle's kept copy up to its log: only new entries are
    /// parsed; a copy that cannot take them is built again.
    fn keep_copy(&mut self, battle: BattleId) {
        let Some(b) = self.battles.get(&battle) else {
            return;
        };
        let (Some(log), Some(game)) = (&b.log, b.game.as_deref()) else {
            return;
        };
        let caught = self
            .copies
            .get_mut(&battle)
            .and_then(|c| seat_copy(c.as_mut()))
            .is_some_and(|c| c.catch_up(log).is_ok());
        if !caught {
            match seat_battle(game, log) {
                Ok(c) => {
                    self.copies.insert(battle, c);
                }
                Err(_) => {
                    self.copies.remove(&battle);
                }
            }
        }
    }

    fn take_event(&mut self, ev: &Value) -> Vec<Arrival> {
        let Some(battle) = ev["battle"].as_i64() else {
            if ev["type"] == "notice" {
                return vec![Arrival::Status(format!(
                    "The club server says: {}",
                    ev["words"].as_str().unwrap_or("")
                ))];
            }
            return Vec::new();
        };
        let Some(b) = self.battles.get_mut(&battle) else {
            return Vec::new();
        };
        match ev["type"].as_str() {
            Some("entry") => {
                let Some(log) = b.log.as_mut() else {
                    return Vec::new();
                };
                match SeatEntry::from_event(ev, log.head).and_then(|e| log.push(e)) {
                    Ok(true) => {
                        // The commands held were for the head before.
                        log.legal.clear();
                        // A command played before the last answer: the
                        // take-back asked lapsed (section 9).
                        b.takeback = None;
                        self.keep_copy(battle);
                        vec![Arrival::Battle(battle), Arrival::Listing]
                    }
                    Ok(false) => Vec::new(),
                    Err(words) => vec![Arrival::Notice {
                        title: format!("Battle {battle} could not be followed"),
                        words,
                    }],
                }
            }
            Some("over") => {
                b.over = Some(ev["outcome"].clone());
                vec![Arrival::Battle(battle), Arrival::Listing]
            }
            // A take-back asked (section 9): kept until it is answered, so
            // the Take-back window shows the server's words, and Accept and
            // Refuse when this seat is asked.
            Some("takeback_asked") => {
                let (Some(request), Some(by)) = (ev["request"].as_u64(), ev["by"].as_u64()) else {
                    return Vec::new();
                };
                let to_answer = ev["waiting"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|s| s.as_u64() == Some(u64::from(b.seat)));
                let asked = TakebackAsked {
                    request,
                    by: by as u8,
                    to: entry_of(&ev["to"]),
                    dice_seen: entry_of(&ev["dice_seen"]),
                    words: ev["words"].as_str().unwrap_or("").to_owned(),
                    to_answer,
                };
                let said = if to_answer {
                    format!(
                        "Battle {battle}: seat {} asks to take back to {}: answer in the \
                         Take-back window",
                        u16::from(asked.by) + 1,
                        at_words(asked.to)
                    )
                } else {
                    format!("Battle {battle}: {}", asked.words)
                };
                b.takeback = Some(asked);
                vec![Arrival::Battle(battle), Arrival::Status(said)]
            }
            // An answer: a refusal ends the request; an accept takes this
            // seat's turn to answer (the `moved` that follows the last one
            // ends it).
            Some("takeback_answered") => {
                let request = ev["request"].as_u64();
                let held = b.takeback.as_ref().map(|t| t.request);
                if ev["accept"] == false {
                    if held == request {
                        b.takeback = None;
                    }
                } else if let Some(t) = b.takeback.as_mut()
                    && Some(t.request) == request
                    && ev["seat"].as_u64() == Some(u64::from(b.seat))
                {
                    t.to_answer = false;
                }
                let said = match ev["words"].as_str() {
                    Some(w) => format!("Battle {battle}: {w}"),
                    None => format!(
                        "Battle {battle}: seat {} accepted the take-back",
                        ev["seat"].as_u64().map_or(0, |s| s + 1)
                    ),
                };
                vec![Arrival::Battle(battle), Arrival::Status(said)]
            }
            // A take-back: the live line now ends at `to`; the entries after
            // it stay in the copy on their branch, and the next entry starts
            // a new one (the timeline shows the live line).
            Some("moved") => {
                b.takeback = None;
                let Some(log) = b.log.as_mut() else {
                    return Vec::new();
                };
                match log.moved_event(ev) {
                    Ok(moved) => {
                        if moved {
                            self.keep_copy(battle);
                        }
                        let said = ev["words"].as_str().unwrap_or("the battle was taken back");
                        vec![
                            Arrival::Battle(battle),
                            Arrival::Listing,
                            Arrival::Status(format!("Battle {battle}: {said}")),
                        ]
                    }
                    Err(words) => vec![Arrival::Notice {
                        title: format!("Battle {battle} could not be followed"),
                        words,
                    }],
                }
            }
            _ => Vec::new(),
        }
    }
}

/// One battle of the club as the Connect window lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClubRow {
    pub campaign: String,
    pub battle: BattleId,
    pub seat: u8,
    pub status: String,
    /// Not started: some seat has not given its nonce yet.
    pub waiting: bool,
    /// This seat has given its nonce (kept in the club folder).
    pub joined: bool,
    /// Its copy is here: it can be opened.
    pub ready: bool,
}

impl Drop for ClubCampaign {
    fn drop(&mut self) {
        let _ = self.to_net.send(ToNet::Stop);
        // The thread ends within one wait (250 ms); it is not waited for.
        drop(self.thread.take());
    }
}

impl CampaignStore for ClubCampaign {
    fn path(&self) -> Option<&Path> {
        None
    }
    fn name(&self) -> String {
        format!("Club at {}", self.addr.host)
    }
    fn is_read_only(&self) -> bool {
        false
    }
    fn battles(&self) -> Result<Vec<BattleSummary>, String> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        Ok(self
            .battles
            .iter()
            .map(|(id, b)| {
                let entries = b.log.as_ref().map_or(0, |l| l.entries.len() as u64);
                let branches = b.log.as_ref().map_or(1, |l| {
                    l.entries.iter().map(|e| e.text.branch).max().unwrap_or(0) + 1
                });
                let over = b.over.is_some();
                BattleSummary {
                    id: *id,
                    game: b.game.clone().unwrap_or_default(),
                    title: format!(
                        "{}: battle {id}, your seat {}",
                        b.campaign_name,
                        u16::from(b.seat) + 1
                    ),
                    seed: 0,
                    rules_version: 0,
                    dice_mode: DiceMode::Rolled,
                    created: 0,
                    updated: now,
                    entries,
                    branches,
                    status: b.words.clone(),
                    result: over.then(|| {
                        b.over.as_ref().map_or(String::new(), |o| {
                            o["summary"].as_str().unwrap_or("").to_owned()
                        })
                    }),
                    origin: Some(format!(
                        "club {}, campaign {}, battle {id}",
                        self.addr.host, b.campaign
                    )),
                    // Whether the battle is strict, as the server's `campaigns`
                    // reply says of each battle (an older server says nothing: not strict).
                    strict: b.status["strict"].as_bool().unwrap_or(false),
                }
            })
            .collect())
    }
    fn load_battle(&self, id: BattleId) -> Result<Box<dyn Battle>, String> {
        let b = self
            .battles
            .get(&id)
            .ok_or_else(|| format!("your token opens no seat of battle {id}"))?;
        let log = b.log.as_ref().ok_or_else(|| {
            if b.status["status"] == "waiting" {
                format!(
                    "battle {id} has not started: every seat must join first (File > Connect \
                     to a club, Join)"
                )
            } else {
                format!("battle {id} is still arriving from the club server; it opens in a moment")
            }
        })?;
        let game = b.game.as_deref().ok_or_else(|| {
            format!("battle {id} is of a game this build of Xenolog does not know")
        })?;
        seat_battle(game, log)
    }
    fn new_battle(
        &mut self,
        _game: &str,
        _seed: u64,
        _config: &Value,
        _title: &str,
        _dice_mode: DiceMode,
        _strict: bool,
    ) -> Result<BattleId, String> {
        Err(
            "on a club server the organiser starts battles (xenolog club new-battle); \
             the seed is made from every seat's nonce"
                .to_owned(),
        )
    }
    fn play(
        &mut self,
        id: BattleId,
        battle: &mut dyn Battle,
        actor: Actor,
        command: &Value,
        _dice: Option<Vec<u8>>,
    ) -> Result<EntryId, String> {
        let b = self
            .battles
            .get(&id)
            .ok_or_else(|| format!("your token opens no seat of battle {id}"))?;
        if actor.0 != b.seat {
            return Err(format!(
                "your token opens seat {} of battle {id}, not {}",
                u16::from(b.seat) + 1,
                battle.actor_name(actor)
            ));
        }
        // Commands are given at the live line's head (after a take-back,
        // the entry taken back to), not on a branch left behind.
        let live = seat_copy_ref(battle)
            .map_or_else(|| battle.head(battle.current_branch()), |c| c.live_head());
        if battle.cursor() != live {
            return Err(
                "a club battle is played at the newest entry of its live line: go there first"
                    .into(),
            );
        }
        let text = battle
            .legal()
            .into_iter()
            .find(|c| c.actor == actor && &c.command == command)
            .map_or_else(String::new, |c| c.text);
        let cmd_id = new_cmd_id()?;
        self.send(ToNet::Command {
            battle: id,
            seat: b.seat,
            at: live,
            command: command.clone(),
            cmd_id,
            text,
        })?;
        // Sent: the entry comes back as an event, usually within 50 ms, as
        // the newest entry of the battle.
        Ok(battle.records().len() as EntryId)
    }
    fn save_position(&mut self, _id: BattleId, _battle: &dyn Battle) -> Result<(), String> {
        Ok(())
    }
    /// After the end, the whole battle downloaded from the server (the file
    /// route, with the revealed secret), so `xenolog verify --nonce` checks
    /// every roll; before the end a seat holds only its view.
    fn export_battle(&self, id: BattleId, out: &Path) -> Result<(), String> {
        let b = self
            .battles
            .get(&id)
            .ok_or_else(|| format!("your token opens no seat of battle {id}"))?;
        // Over: the server said so, or the seat's copy shows the ending
        // entry (the `over` event with the secret may be a moment behind).
        let ended = b.over.is_some()
            || b.status["status"] == "over"
            || self.copies.get(&id).is_some_and(|c| c.outcome().is_some());
        if !ended {
            return Err(format!(
                "battle {id} can be exported once it is over: then the whole battle is \
                 downloaded and every roll can be checked"
            ));
        }
        let token = std::fs::read_to_string(token_file(&self.dir, &self.addr))
            .map_err(|e| format!("the token kept for {} cannot be read: {e}", self.addr.host))?;
        // One request on its own connection (the network thread keeps
        // serving the battles meanwhile).
        let c =
            Client::connect(self.addr.clone(), Some(Token::from_text(&token))).map_err(words)?;
        let bytes = c.download(b.campaign, id).map_err(words)?;
        c.close();
        xenolog_saves::write_atomically(out, &bytes)
            .map_err(|e| format!("cannot write {}: {e}", out.display()))
    }
    fn import_battle(&mut self, _file: &Path) -> Result<BattleId, String> {
        Err("a club's battles are the server's; import into a campaign file instead".into())
    }
    fn verify_battle(&self, _id: BattleId) -> Result<VerifyReport, String> {
        Err(SEED_HELD.to_owned())
    }
    fn notes(&self, id: BattleId) -> Result<Vec<Note>, String> {
        Ok(self.notes.get(&id).cloned().unwrap_or_default())
    }
    fn set_note(&mut self, id: BattleId, entry: EntryId, text: &str) -> Result<(), String> {
        let text = text.to_owned();
        self.edit_note(id, entry, |n| n.text = text)
    }
    fn set_bookmark(&mut self, id: BattleId, entry: EntryId, on: bool) -> Result<(), String> {
        self.edit_note(id, entry, |n| n.bookmark = on)
    }
    fn remote(&self) -> bool {
        true
    }
    fn catch_up(&self, id: BattleId, battle: &mut dyn Battle) -> Result<bool, String> {
        let Some(log) = self.battles.get(&id).and_then(|b| b.log.as_ref()) else {
            return Ok(false);
        };
        match seat_copy(battle) {
            Some(c) => c.catch_up(log).map(|_| true),
            None => Ok(false),
        }
    }
    fn poll(&mut self) -> Vec<Arrival> {
        let waiting = self
            .battles
            .values()
            .any(|b| b.status["status"] == "waiting");
        if waiting && self.listed_at.elapsed() > Duration::from_secs(2) {
            self.listed_at = Instant::now();
            let _ = self.send(ToNet::List);
        }
        let mut out = Vec::new();
        while let Ok(m) = self.from_net.try_recv() {
            let arrivals = self.take(m);
            self.reword(&arrivals);
            for a in arrivals {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
        }
        out
    }
    fn club(&self) -> Option<&ClubCampaign> {
        Some(self)
    }
    fn club_mut(&mut self) -> Option<&mut ClubCampaign> {
        Some(self)
    }
}

/// The network side: the client, and what goes back to the app.
struct Net<'a> {
    client: &'a mut Client,
    out: &'a Sender<FromNet>,
    /// Battles with entries since their commands were last asked for.
    dirty: HashSet<BattleId>,
}

impl Net<'_> {
    fn refused(&self, title: &str, e: ClientError) {
        let _ = self.out.send(FromNet::Refused {
            title: title.to_owned(),
            words: e.to_string(),
        });
    }

    fn watch(&mut self, battle: BattleId, seat: u8) {
        match self.client.request(
            "state",
            json!({"battle": battle, "seat": seat, "at": Value::Null}),
        ) {
            Ok(body) => {
                let _ = self.out.send(FromNet::Setup {
                    battle,
                    state: body["state"].clone(),
                    game: body["game"].as_str().map(str::to_owned),
                });
            }
            Err(e) => return self.refused(&format!("Battle {battle} could not be opened"), e),
        }
        match self.client.watch(battle, seat, None) {
            Ok(_) => {
                self.dirty.insert(battle);
            }
            Err(e) => self.refused(&format!("Battle {battle} could not be followed"), e),
        }
    }

    /// Read events until the battle's `live` (its backfill is whole).
    fn backfill(&mut self, battle: BattleId, within: Duration) {
        let until = Instant::now() + within;
        while Instant::now() < until {
            match self.client.next_event(Duration::from_millis(250)) {
                Ok(Some(ev)) => {
                    let live = ev["type"] == "live" && ev["battle"].as_i64() == Some(battle);
                    self.event(ev);
                    if live {
                        return;
                    }
                }
                Ok(None) => {}
                Err(e) => return self.refused("The club server cannot be reached", e),
            }
        }
    }

    fn event(&mut self, ev: Value) {
        // After an entry or a take-back, the seat's commands are asked for.
        if (ev["type"] == "entry" || ev["type"] == "moved")
            && let Some(b) = ev["battle"].as_i64()
        {
            self.dirty.insert(b);
        }
        let _ = self.out.send(FromNet::Event(ev));
    }

    /// The seat's commands at the head of every battle that moved.
    fn legal_all(&mut self) {
        let mut dirty: Vec<BattleId> = self.dirty.drain().collect();
        dirty.sort();
        for battle in dirty {
            // The seat is the one watched; the client knows it by battle.
            let Some(seat) = self.seat_of(battle) else {
                continue;
            };
            match self
                .client
                .request("legal", json!({"battle": battle, "seat": seat}))
            {
                Ok(body) => {
                    let legal = serde_json::from_value(body["legal"].clone()).unwrap_or_default();
                    let head = self.client.last_entry(battle);
                    let _ = self.out.send(FromNet::Legal {
                        battle,
                        head,
                        legal,
                    });
                }
                Err(e) => self.refused(
                    &format!("The commands of battle {battle} could not be read"),
                    e,
                ),
            }
        }
    }

    fn seat_of(&self, battle: BattleId) -> Option<u8> {
        self.client.hello()["grants"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|g| g["battle"].as_i64() == Some(battle))
            .and_then(|g| g["seat"].as_u64())
            .map(|s| s as u8)
    }

    fn handle(&mut self, m: ToNet) -> bool {
        match m {
            ToNet::Stop => return false,
            ToNet::Watch { battle, seat } => self.watch(battle, seat),
            ToNet::List => match self.client.request("campaigns", json!({})) {
                Ok(body) => {
                    let _ = self.out.send(FromNet::Listing(body));
                }
                Err(e) => self.refused("The club's battles could not be listed", e),
            },
            ToNet::Join {
                battle,
                seat,
                nonce,
            } => match self.client.request(
                "join",
                json!({"battle": battle, "seat": seat, "nonce": nonce}),
            ) {
                Ok(body) => {
                    let _ = self.out.send(FromNet::Joined {
                        battle,
                        started: body["started"] == json!(true),
                    });
                }
                Err(e) => self.refused(&format!("Battle {battle} could not be joined"), e),
            },
            ToNet::Takeback { battle, seat, to } => match self.client.request_no_retry(
                "takeback",
                json!({"battle": battle, "seat": seat, "to": to}),
            ) {
                Ok(body) => {
                    let said = if body["moved"] == true {
                        format!("Battle {battle} taken back to {}", at_words(to))
                    } else {
                        let waiting: Vec<String> = body["waiting"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_u64)
                            .map(|s| format!("seat {}", s + 1))
                            .collect();
                        format!(
                            "Battle {battle}: take-back {} asked, back to {}{}; waiting for {} \
                             to answer",
                            body["request"],
                            at_words(to),
                            entry_of(&body["dice_seen"]).map_or_else(String::new, |e| format!(
                                " (the dice from entry {e} on were seen: the new line rolls \
                                 them again)"
                            )),
                            waiting.join(" and ")
                        )
                    };
                    let _ = self.out.send(FromNet::Said(said));
                }
                Err(e) => self.refused("The take-back was not asked", e),
            },
            ToNet::Answer {
                battle,
                seat,
                request,
                accept,
            } => match self.client.request_no_retry(
                "takeback_answer",
                json!({"battle": battle, "seat": seat, "request": request, "accept": accept}),
            ) {
                Ok(body) => {
                    let said = if body["moved"] == true {
                        format!(
                            "Battle {battle}: you accepted; taken back to {}",
                            at_words(entry_of(&body["to"]))
                        )
                    } else if body["refused"] == true {
                        format!("Battle {battle}: you refused the take-back; the battle goes on")
                    } else {
                        format!("Battle {battle}: you accepted; the take-back waits for the others")
                    };
                    let _ = self.out.send(FromNet::Said(said));
                }
                Err(e) => self.refused("The take-back answer was not taken", e),
            },
            ToNet::Command {
                battle,
                seat,
                at,
                command,
                cmd_id,
                text,
            } => {
                match self.client.request(
                    "command",
                    json!({"battle": battle, "seat": seat, "at": at, "command": command,
                           "cmd_id": cmd_id}),
                ) {
                    Ok(_) => {
                        let _ = self.out.send(FromNet::Sent { text });
                    }
                    Err(e) => self.refused("The club server did not play the command", e),
                }
                self.dirty.insert(battle);
            }
        }
        true
    }
}

/// The network thread: requests from the app in turn, and between them the
/// server's events, waiting at most 250 ms so a request never waits long.
fn net_loop(
    mut client: Client,
    from_app: Receiver<ToNet>,
    out: Sender<FromNet>,
    busy: Arc<AtomicU64>,
    reconnects: Arc<AtomicU32>,
    epoch: Instant,
    ctx: egui::Context,
) {
    let mut net = Net {
        client: &mut client,
        out: &out,
        dirty: HashSet::new(),
    };
    loop {
        let mut any = false;
        loop {
            match from_app.try_recv() {
                Ok(m) => {
                    busy.store(ms_since(epoch), Ordering::Relaxed);
                    let go_on = net.handle(m);
                    busy.store(0, Ordering::Relaxed);
                    any = true;
                    if !go_on {
                        return;
                    }
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
                // The app let the campaign go.
                Err(std::sync::mpsc::TryRecvError::Disconnected) => return,
            }
        }
        let wait = if net.dirty.is_empty() {
            Duration::from_millis(250)
        } else {
            Duration::ZERO
        };
        busy.store(ms_since(epoch), Ordering::Relaxed);
        let got = net.client.next_event(wait);
        busy.store(0, Ordering::Relaxed);
        reconnects.store(net.client.reconnects(), Ordering::Relaxed);
        match got {
            Ok(Some(ev)) => {
                net.event(ev);
                any = true;
            }
            Ok(None) => {
                if !net.dirty.is_empty() {
                    net.legal_all();
                    any = true;
                }
            }
            Err(e) => {
                net.refused("The connection to the club server was lost", e);
                any = true;
                std::thread::sleep(Duration::from_secs(1));
            }
        }
        if any {
            ctx.request_repaint();
        }
    }
}

/// Whose turn it is in a seat's copy of a club battle, for the club list:
/// the seats the game waits for, "(yours)" when `me` is one of them. A seat
/// asked only to take back what it set waiting (a Saucers swap offer it
/// may withdraw) is told what it may do meanwhile instead (session 22: the
/// list read "(yours)" for the offerer too, though the game waits for the
/// answer).
pub fn turn_words(battle: &dyn Battle, me: Actor) -> String {
    let waited = battle.waited_for();
    let mut names: Vec<String> = Vec::new();
    for a in &waited {
        let n = battle.actor_name(*a);
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let mine = if waited.contains(&me) {
        " (yours)".to_owned()
    } else {
        battle
            .asked()
            .into_iter()
            .find(|a| a.seat == me)
            .map_or_else(String::new, |a| format!(" (you meanwhile: {})", a.what))
    };
    format!("{}'s turn{mine}", names.join(" and "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Session 22's closing note: while a Saucers swap offer waited for its
    /// answer the club list read "…'s turn (yours)" for the offering seat
    /// too. It names the seat the game waits for, "(yours)" for that seat
    /// alone; the offering seat reads what it may do meanwhile.
    #[test]
    fn the_list_names_the_seat_a_swap_offer_waits_for_and_tells_the_offerer_what_it_may_do() {
        // `autoplay --seed 4` of a four-gang warfare makes offers.
        let config = json!({"players": 4, "variant": "gang_warfare"});
        let mut b = xenolog_engine::games::new_battle("saucers", 4, &config).unwrap();
        let mut bot = xenolog_engine::Randomness::new(4, 0, None);
        b.play_due().unwrap();
        let mut offered = None;
        for _ in 0..2000 {
            let waited = b.waited_for();
            let legal: Vec<LegalCommand> = b
                .legal()
                .into_iter()
                .filter(|l| waited.contains(&l.actor))
                .collect();
            assert!(!legal.is_empty(), "the battle goes on");
            let pick = legal[bot.pick(legal.len())].clone();
            let p = b.prepare_json(pick.actor, &pick.command, None).unwrap();
            b.commit(p).unwrap();
            b.play_due().unwrap();
            if b.asked().len() == 2 && b.asked()[1].what.contains("withdraw") {
                offered = Some((b.asked()[1].seat, b.asked()[0].seat));
                break;
            }
        }
        let (from, to) = offered.expect("a swap offered within 2000 commands");
        let (offerer, answerer) = (b.actor_name(from), b.actor_name(to));
        assert_eq!(
            turn_words(b.as_ref(), to),
            format!("{answerer}'s turn (yours)")
        );
        let theirs = turn_words(b.as_ref(), from);
        assert!(
            theirs.starts_with(&format!("{answerer}'s turn (you meanwhile: ")),
            "{theirs}"
        );
        assert!(theirs.contains("withdraw"), "{theirs}");
        assert!(!theirs.contains(&offerer), "{theirs}");
        assert!(!theirs.contains("(yours)"), "{theirs}");
    }

    /// A club campaign with no server behind it: what the network thread
    /// would deliver is given to `take` by hand.
    fn offline(dir: &Path) -> ClubCampaign {
        let (to_net, _) = channel();
        let (_, from_net) = channel();
        ClubCampaign::new(
            ServerAddr::parse("127.0.0.1:9").unwrap(),
            dir,
            "player".into(),
            to_net,
            from_net,
        )
    }

    fn race_setup() -> Value {
        let b = xenolog_engine::games::new_battle("race", 1, &json!({})).unwrap();
        b.state_json_as(None, xenolog_engine::Viewer::Seat(Actor(1)))
    }

    /// Session 15, issue 30 (the app follows what the server says): a
    /// battle's game is the one the server names (the list, the `state`
    /// reply), not a guess from the setup's shape; only a server that does
    /// not name it (before session 15) leaves the app to guess.
    #[test]
    fn a_battles_game_is_the_one_the_server_names_and_guessed_only_from_an_older_server() {
        let dir = tempfile::tempdir().unwrap();
        let mut club = offline(dir.path());
        club.take_listing(
            &json!({"campaigns": [{"campaign": 1, "name": "Club", "battles": [
                {"battle": 7, "my_seats": [1], "status": "playing", "game": "chess"},
                {"battle": 8, "my_seats": [1], "status": "playing"},
                {"battle": 9, "my_seats": [1], "status": "playing", "game": "race"},
            ]}]}),
        );
        // Battle 7's setup looks like Dice Race's, but the server says it
        // is a game this build does not know: not opened as Dice Race.
        for (battle, game) in [(7, None), (8, None), (9, Some("race".to_owned()))] {
            club.take(FromNet::Setup {
                battle,
                state: race_setup(),
                game,
            });
        }
        let e = club
            .load_battle(7)
            .err()
            .expect("not opened as another game");
        assert_eq!(
            e,
            "this battle is of game 'chess', which this build of Xenolog does not know"
        );
        let listed = club.battles().unwrap();
        assert_eq!(listed[0].game, "chess");
        // Battle 8: an older server's frames name no game; the setup's
        // shape says Dice Race.
        assert_eq!(club.load_battle(8).unwrap().game_id(), "race");
        assert_eq!(club.load_battle(9).unwrap().game_id(), "race");
        // A `state` reply that names the game wins over the list's.
        club.take(FromNet::Setup {
            battle: 7,
            state: race_setup(),
            game: Some("race".into()),
        });
        assert_eq!(club.load_battle(7).unwrap().game_id(), "race");
    }

    /// Server/DESIGN.md section 9: a take-back asked is kept until it is
    /// answered, lapses or moves the battle; this seat answers only when it
    /// is asked, once, and the accept names the request.
    #[test]
    fn a_takeback_asked_is_kept_until_answered_and_answered_once_naming_its_request() {
        let dir = tempfile::tempdir().unwrap();
        let mut club = offline(dir.path());
        let (to_net, net_in) = channel();
        club.to_net = to_net;
        club.take_listing(
            &json!({"campaigns": [{"campaign": 1, "name": "Club", "battles": [
                {"battle": 7, "my_seats": [1], "status": "playing", "game": "race"},
            ]}]}),
        );
        club.take(FromNet::Setup {
            battle: 7,
            state: race_setup(),
            game: None,
        });
        assert!(club.answer_takeback(7, true).is_err(), "nothing is asked");
        let words = "seat 1 asks to take battle 7 back to the setup; the dice from entry 0 on \
                     were seen: take-back 4, for seat 2 to answer";
        let arrivals = club.take(FromNet::Event(
            json!({"type": "takeback_asked", "battle": 7,
            "request": 4, "by": 0, "to": null, "head": 0, "waiting": [1], "dice_seen": 0,
            "words": words}),
        ));
        assert!(arrivals.contains(&Arrival::Battle(7)));
        let t = club.takeback(7).unwrap().clone();
        assert_eq!(
            t,
            TakebackAsked {
                request: 4,
                by: 0,
                to: None,
                dice_seen: Some(0),
                words: words.into(),
                to_answer: true,
            }
        );
        // Another take-back is not asked while this one waits.
        let e = club.ask_takeback(7, None).unwrap_err();
        assert!(e.contains("take-back 4"), "{e}");
        club.answer_takeback(7, true).unwrap();
        match net_in.try_recv() {
            Ok(ToNet::Answer {
                battle: 7,
                seat: 1,
                request: 4,
                accept: true,
            }) => {}
            _ => panic!("the accept names request 4"),
        }
        assert!(
            club.answer_takeback(7, true).is_err(),
            "answered once: the buttons go"
        );
        // The battle moves: the request is over.
        club.take(FromNet::Event(
            json!({"type": "moved", "battle": 7, "to": null}),
        ));
        assert_eq!(club.takeback(7), None);
        // A refusal ends a request (a `moved` too, whoever asked it).
        for end in [
            json!({"type": "takeback_answered", "battle": 7, "request": 5, "seat": 1,
                   "accept": false, "words": "seat 2 refused the take-back"}),
            json!({"type": "moved", "battle": 7, "to": null}),
        ] {
            club.take(FromNet::Event(
                json!({"type": "takeback_asked", "battle": 7,
                "request": 5, "by": 0, "to": null, "waiting": [1], "words": "asked"}),
            ));
            assert!(club.takeback(7).is_some());
            club.take(FromNet::Event(end));
            assert_eq!(club.takeback(7), None);
        }
    }

    /// Review of session 14: a club reached over TLS is saved with its
    /// scheme, so "Connect to ..." goes back over wss:// (the token is
    /// never sent over a plain connection); one entry per host.
    #[test]
    fn a_tls_club_is_saved_with_its_scheme_and_once() {
        let dir = tempfile::tempdir().unwrap();
        let tls = ServerAddr::parse("wss://club.example:8443").unwrap();
        std::fs::write(token_file(dir.path(), &tls), "t").unwrap();
        remember_club(dir.path(), &tls).unwrap();
        remember_club(dir.path(), &tls).unwrap();
        let saved = saved_clubs(dir.path());
        assert_eq!(saved, vec!["wss://club.example:8443".to_owned()]);
        let back = ServerAddr::parse(&saved[0]).unwrap();
        assert!(back.tls);
        assert_eq!(back.host, "club.example:8443");
        let plain = ServerAddr::parse("127.0.0.1:9000").unwrap();
        std::fs::write(token_file(dir.path(), &plain), "t").unwrap();
        remember_club(dir.path(), &plain).unwrap();
        assert_eq!(
            saved_clubs(dir.path()),
            vec![
                "127.0.0.1:9000".to_owned(),
                "wss://club.example:8443".to_owned()
            ]
        );
    }

    /// Review of session 14, MUST 2: a TLS club is saved with the CA file
    /// it was reached with, so a reconnect checks its certificate the same
    /// way (the list of bare addresses written before still reads).
    #[test]
    fn a_tls_club_is_saved_with_its_ca_file_and_a_reconnect_uses_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CLUBS_FILE),
            r#"["127.0.0.1:9000", "wss://old.example:1"]"#,
        )
        .unwrap();
        for a in [
            "127.0.0.1:9000",
            "wss://old.example:1",
            "wss://club.example:8443",
        ] {
            std::fs::write(token_file(dir.path(), &ServerAddr::parse(a).unwrap()), "t").unwrap();
        }
        assert_eq!(
            saved_clubs(dir.path()),
            vec![
                "127.0.0.1:9000".to_owned(),
                "wss://old.example:1".to_owned()
            ]
        );
        let ca = dir.path().join("club-ca.pem");
        let tls = ServerAddr::parse("wss://club.example:8443")
            .unwrap()
            .with_ca_file(&ca);
        remember_club(dir.path(), &tls).unwrap();
        assert_eq!(saved_clubs(dir.path())[0], "wss://club.example:8443");
        let back = ServerAddr::parse("wss://club.example:8443").unwrap();
        assert_eq!(saved_ca_file(dir.path(), &back), Some(ca.clone()));
        // Connect to the saved club: its address as the list gives it, and
        // the CA file found again.
        let again = with_ca(back, dir.path());
        assert_eq!(again.ca_file, Some(ca));
        assert_eq!(
            saved_ca_file(dir.path(), &ServerAddr::parse("127.0.0.1:9000").unwrap()),
            None
        );
    }

    /// The app does not send an invitation code or a kept token over plain
    /// ws:// to another machine: refused in words before anything is sent,
    /// nothing kept.
    #[test]
    fn the_app_refuses_to_send_a_code_or_token_over_plain_ws_to_another_machine() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = egui::Context::default();
        let code = "XNLG-AAAA-BBBB-CCCC-DDDD-EEEE";
        for (server, given) in [
            ("ws://192.0.2.1:8470", code.to_owned()),
            ("", format!("xenolog://192.0.2.1:8470/join#{code}")),
        ] {
            let e = ClubCampaign::connect(server, Credentials::Invitation(given), dir.path(), &ctx)
                .unwrap_err();
            assert!(e.starts_with("this club is not reached over TLS"), "{e}");
            assert!(e.contains("invitation code"), "{e}");
        }
        let plain = ServerAddr::parse("192.0.2.1:8470").unwrap();
        write_private(&token_file(dir.path(), &plain), "xnl_p_kept\n").unwrap();
        let e = ClubCampaign::connect("192.0.2.1:8470", Credentials::Kept, dir.path(), &ctx)
            .unwrap_err();
        assert!(
            e.contains("not reached over TLS") && e.contains("token"),
            "{e}"
        );
        assert!(saved_clubs(dir.path()).is_empty(), "nothing was saved");
    }
}
