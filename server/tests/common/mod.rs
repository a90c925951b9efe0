//! The in-process server and the WebSocket test client every server test
//! shares (protocol, hardening, take-backs, the shared campaign): a server
//! on 127.0.0.1:0 in a temporary folder, and a client that sends requests
//! with ids, keeps the events that arrive meanwhile, and shows a close frame
//! as `{"closed": code, "reason": words}` (the end of the stream as
//! `{"ended": true}`, a read error as `{"error": words}`).

#![allow(dead_code)]

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use xenolog_server::{Config, Running, Tuning, start_tuned};

pub struct Server {
    pub running: Running,
    pub organiser_code: String,
    /// The club's folder.
    pub data: std::path::PathBuf,
    /// On PostgreSQL: the test's own database (dropped after).
    pub pg: Option<std::sync::Arc<PgDb>>,
    /// Kept for as long as the server: the folder goes with it.
    pub _dir: tempfile::TempDir,
}

/// The backends a suite runs on: SQLite always, PostgreSQL too when
/// `XENOLOG_TEST_PG` names a cluster (`XENOLOG_REQUIRE_PG`: a missing one
/// fails). Issue 31, one suite, two backends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub use xenolog_saves::db::pg::test_cluster as test_pg;

/// A database of the test's own on the test cluster, dropped (with every
/// connection to it) when the last holder lets it go.
pub struct PgDb {
    admin: String,
    pub name: String,
    /// Its connection string.
    pub url: String,
}

impl PgDb {
    pub fn new(admin: &str) -> PgDb {
        use xenolog_saves::db::Db;
        let name = random_name("t_");
        let a = admin.to_owned();
        let n = name.clone();
        off_runtime(move || {
            let pg = xenolog_saves::db::pg::Postgres::connect(&a).unwrap();
            pg.execute_batch(&format!("CREATE DATABASE {n} TEMPLATE template0"))
                .unwrap();
        });
        let url = with_dbname(admin, &name);
        PgDb {
            admin: admin.to_owned(),
            name,
            url,
        }
    }
}

impl Drop for PgDb {
    fn drop(&mut self) {
        use xenolog_saves::db::Db;
        let (a, n) = (self.admin.clone(), self.name.clone());
        off_runtime(move || {
            if let Ok(pg) = xenolog_saves::db::pg::Postgres::connect(&a) {
                let _ = pg.execute_batch(&format!("DROP DATABASE IF EXISTS {n} WITH (FORCE)"));
            }
        });
    }
}

/// `prefix` and 12 random hex digits: a database, schema or channel name
/// no other test uses.
pub fn random_name(prefix: &str) -> String {
    let mut r = [0u8; 6];
    getrandom::fill(&mut r).expect("random bytes");
    let hex: String = r.iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}{hex}")
}

/// A schema of its own for one test on the test database `url`, dropped
/// (with everything in it) at the end, however the test ends.
pub struct Schema {
    pub url: String,
    pub name: String,
}

impl Schema {
    pub fn new(url: &str) -> Schema {
        Schema {
            url: url.to_owned(),
            name: random_name("club_t_"),
        }
    }

    /// A connection of the test's own to the database.
    pub fn admin(&self) -> xenolog_saves::db::pg::Postgres {
        xenolog_saves::db::pg::Postgres::connect(&self.url).expect("the test database")
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        use xenolog_saves::db::Db;
        if let Ok(pg) = xenolog_saves::db::pg::Postgres::connect(&self.url) {
            let _ = pg.execute_batch(&format!("DROP SCHEMA IF EXISTS \"{}\" CASCADE", self.name));
        }
    }
}

/// The PostgreSQL backend serving the club database `db`'s connection.
pub fn backend_pid(db: &xenolog_server::store::club_db::ClubDb) -> i32 {
    use xenolog_saves::db::DbExt;
    db.lock()
        .unwrap()
        .one("SELECT pg_backend_pid()", &[])
        .unwrap()
}

/// End PostgreSQL backend `pid` as a lost connection ends
/// (`pg_terminate_backend`, through `admin`) and wait until it is gone
/// (30 s at the most); whether it was ended.
pub fn end_backend(admin: &dyn xenolog_saves::db::Db, pid: i32) -> bool {
    use xenolog_saves::db::DbExt;
    let ended: bool = admin
        .one("SELECT pg_terminate_backend(?1)", &[&pid])
        .unwrap();
    for _ in 0..1500 {
        let left: i64 = admin
            .one(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = ?1",
                &[&pid],
            )
            .unwrap();
        if left == 0 {
            return ended;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("backend {pid} is still there 30 s after it was ended");
}

pub use xenolog_saves::db::pg::with_dbname;

/// Run `f` on a thread of its own (a PostgreSQL client blocks on a
/// runtime of its own, and must not be made or dropped on a runtime's).
pub fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| s.spawn(f).join().unwrap())
}

impl Server {
    /// Run `f` on campaign `n` as the server stored it (its file, or its
    /// PostgreSQL schema), off the runtime.
    pub fn with_campaign<T: Send>(
        &self,
        n: i64,
        f: impl FnOnce(&xenolog_saves::Campaign) -> T + Send,
    ) -> T {
        with_campaign(&self.data, self.pg.as_deref(), n, f)
    }
}

/// [`Server::with_campaign`] once the server is stopped.
pub fn with_campaign<T: Send>(
    data: &std::path::Path,
    pg: Option<&PgDb>,
    n: i64,
    f: impl FnOnce(&xenolog_saves::Campaign) -> T + Send,
) -> T {
    {
        let data = data.to_owned();
        let url = pg.map(|p| p.url.clone());
        off_runtime(move || {
            let c = match url {
                Some(url) => {
                    xenolog_saves::Campaign::open_postgres(&url, &format!("campaign_{n}")).unwrap()
                }
                None => xenolog_saves::Campaign::open_read_only(
                    &data.join(format!("campaigns/{n}.xenolog")),
                )
                .unwrap(),
            };
            f(&c)
        })
    }
}

/// A server on `backend` (`None`: PostgreSQL asked for and no cluster).
pub async fn server_on(backend: Backend) -> Option<Server> {
    match backend {
        Backend::Sqlite => Some(server().await),
        Backend::Postgres => {
            let admin = test_pg()?;
            let db = std::sync::Arc::new(PgDb::new(&admin));
            Some(server_on_db(db, Tuning::default()).await)
        }
    }
}

/// A server on the PostgreSQL database `db` (several may share one).
pub async fn server_on_db(db: std::sync::Arc<PgDb>, tuning: Tuning) -> Server {
    start_in(None, tuning, Some(db)).await
}

/// A server in a new temporary folder, on PostgreSQL database `pg` if one
/// is given; its organiser's invitation if this start made one (a second
/// server on one database finds the club and makes none).
async fn start_in(
    public: Option<&str>,
    tuning: Tuning,
    pg: Option<std::sync::Arc<PgDb>>,
) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let tuning = match &pg {
        Some(db) => Tuning {
            database: Some(db.url.clone()),
            ..tuning
        },
        None => tuning,
    };
    let config = Config {
        public: public.map(str::to_owned),
        ..local_config(dir.path().join("club"))
    };
    let mut running = start_tuned(config, tuning).await.unwrap();
    let organiser_code = running
        .take_invitation()
        .map(|i| i.code.expose())
        .unwrap_or_default();
    Server {
        running,
        organiser_code,
        data: dir.path().join("club"),
        pg,
        _dir: dir,
    }
}

/// A club in `data` on a free local port: no new organiser invitation
/// asked for, its links naming the listen address.
pub fn local_config(data: std::path::PathBuf) -> Config {
    Config {
        data,
        listen: "127.0.0.1:0".parse().unwrap(),
        invite_organiser: false,
        public: None,
    }
}

pub async fn server() -> Server {
    server_with(None, Tuning::default()).await
}

/// A server whose invitation links name `public` (`--public-url`).
pub async fn server_at(public: Option<&str>) -> Server {
    server_with(public, Tuning::default()).await
}

/// A server with its limits, pages and store layer as `tuning` says.
pub async fn server_tuned(tuning: Tuning) -> Server {
    server_with(None, tuning).await
}

async fn server_with(public: Option<&str>, tuning: Tuning) -> Server {
    let s = start_in(public, tuning, None).await;
    assert!(
        !s.organiser_code.is_empty(),
        "a first start makes an organiser invitation"
    );
    s
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next: u64,
    /// Events that arrived while a reply was awaited.
    pub events: std::collections::VecDeque<Value>,
}

impl Client {
    pub async fn connect(s: &Server) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(s.running.ws_url())
            .await
            .unwrap();
        Client::over(ws)
    }

    /// A client over a WebSocket made by the caller.
    pub fn over(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client {
            ws,
            next: 1,
            events: Default::default(),
        }
    }

    pub async fn send_text(&mut self, text: impl Into<String>) {
        self.send_message(Message::text(text.into())).await;
    }

    /// Send any frame (a binary one, say).
    pub async fn send_message(&mut self, m: Message) {
        self.ws.send(m).await.unwrap();
    }

    /// The next frame: a text frame as JSON, or the close frame's code as
    /// `{"closed": code}`.
    pub async fn recv(&mut self) -> Value {
        let msg = tokio::time::timeout(Duration::from_secs(30), self.ws.next())
            .await
            .expect(
                "an answer within 30 s (a loaded machine is slow; none is waited for on purpose)",
            );
        match msg {
            Some(Ok(Message::Text(t))) => serde_json::from_str(t.as_str()).unwrap(),
            Some(Ok(Message::Close(f))) => {
                json!({"closed": f.as_ref().map(|f| u16::from(f.code)), "reason": f.as_ref().map(|f| f.reason.to_string())})
            }
            Some(Ok(other)) => panic!("unexpected frame {other:?}"),
            Some(Err(e)) => json!({"error": e.to_string()}),
            None => json!({"ended": true}),
        }
    }

    /// A request of `kind` with `fields`, numbered next: its id and text.
    fn message(&mut self, kind: &str, fields: Value) -> (u64, String) {
        let id = self.next;
        self.next += 1;
        let mut m = json!({"v": 1, "id": id, "type": kind});
        if let Value::Object(f) = fields {
            m.as_object_mut().unwrap().extend(f);
        }
        (id, m.to_string())
    }

    /// Send a request and return its reply (checked to answer it); events
    /// on the way are kept for later.
    pub async fn request(&mut self, kind: &str, fields: Value) -> Value {
        let (id, m) = self.message(kind, fields);
        self.send_text(m).await;
        let reply = loop {
            let v = self.recv().await;
            if v.get("re").is_some() || v.get("type").is_none() {
                break v;
            }
            self.events.push_back(v);
        };
        assert_eq!(reply["re"], json!(id), "{reply}");
        assert_eq!(reply["v"], json!(1), "{reply}");
        reply
    }

    /// [`Client::request`], but a close (or the end of the stream) is
    /// returned as it is (`{"closed": ...}`), not a failure.
    pub async fn request_or_closed(&mut self, kind: &str, fields: Value) -> Value {
        let (id, m) = self.message(kind, fields);
        if self.ws.send(Message::text(m)).await.is_err() {
            return json!({"ended": true});
        }
        loop {
            let v = self.recv().await;
            if v.get("closed").is_some() || v.get("ended").is_some() || v.get("error").is_some() {
                return v;
            }
            if v.get("re").is_some() || v.get("type").is_none() {
                assert_eq!(v["re"], json!(id), "{v}");
                return v;
            }
            self.events.push_back(v);
        }
    }

    /// Join seat `seat` of `battle` with the nonce [`nonce`]`(byte)`; the
    /// reply.
    pub async fn join(&mut self, battle: i64, seat: u8, byte: u8) -> Value {
        self.ok(
            "join",
            json!({"battle": battle, "seat": seat, "nonce": nonce(byte)}),
        )
        .await
    }

    pub async fn ok(&mut self, kind: &str, fields: Value) -> Value {
        let reply = self.request(kind, fields).await;
        assert!(reply.get("err").is_none(), "{kind} refused: {reply}");
        reply["ok"].clone()
    }

    /// A request refused with `code`; its words.
    pub async fn refused(&mut self, kind: &str, fields: Value, code: &str) -> String {
        let reply = self.request(kind, fields).await;
        assert_eq!(reply["err"]["code"], json!(code), "{reply}");
        let words = reply["err"]["words"].as_str().unwrap().to_owned();
        assert!(words.len() > 10, "refused in words: {reply}");
        words
    }

    /// The next event (buffered first).
    pub async fn event(&mut self) -> Value {
        match self.events.pop_front() {
            Some(v) => v,
            None => self.recv().await,
        }
    }

    /// The next event of `kind` (buffered first, then from the socket),
    /// skipping others.
    pub async fn event_of(&mut self, kind: &str) -> Value {
        loop {
            let v = self.event().await;
            if v["type"] == kind {
                return v;
            }
        }
    }

    /// Wait until the server has sent everything it will for now: a ping
    /// answered means every earlier event reached `events`.
    pub async fn settle(&mut self) {
        self.ok("ping", json!({})).await;
    }

    /// Every buffered event of `kind`, taken out.
    pub fn take(&mut self, kind: &str) -> Vec<Value> {
        let (hit, rest): (Vec<Value>, Vec<Value>) =
            self.events.drain(..).partition(|v| v["type"] == kind);
        self.events = rest.into();
        hit
    }

    /// Read frames until the close frame; the frames before it, and its
    /// code (`None`: the stream ended without one).
    pub async fn closed_with(&mut self) -> (Vec<Value>, Option<u16>) {
        let mut before = Vec::new();
        loop {
            let v = self.recv().await;
            if v.get("closed").is_some() {
                return (before, v["closed"].as_u64().map(|c| c as u16));
            }
            if v.get("ended").is_some() || v.get("error").is_some() {
                return (before, None);
            }
            before.push(v);
        }
    }

    /// The entry ids received until `live` (checked in order, none twice,
    /// each with its receipt).
    pub async fn backfill(&mut self) -> Vec<u64> {
        let mut ids: Vec<u64> = Vec::new();
        loop {
            let v = self.event().await;
            match v["type"].as_str() {
                Some("entry") => {
                    let id = v["entry"]["id"].as_u64().unwrap();
                    assert!(
                        ids.last().is_none_or(|l| id > *l),
                        "entry {id} after {ids:?}"
                    );
                    assert_eq!(v["entry"]["receipt"].as_str().unwrap().len(), 64);
                    ids.push(id);
                }
                Some("live") => return ids,
                _ => panic!("unexpected frame {v}"),
            }
        }
    }
}

/// The fields of a `command` request: `seat` gives `command` against the
/// head `at`, with the id `cmd_id`.
pub fn command_fields(
    battle: i64,
    seat: usize,
    at: Option<u64>,
    command: Value,
    cmd_id: String,
) -> Value {
    json!({"battle": battle, "seat": seat, "at": at, "command": command, "cmd_id": cmd_id})
}

/// The last entry a `command` answer (its `ok`) names.
pub fn last_entry(ok: &Value) -> Option<u64> {
    ok["entries"].as_array().unwrap().last().unwrap().as_u64()
}

/// A race seat's next command as the tests play it: hold at a turn total
/// of 6 or more, else roll two dice.
pub fn race_move(state: &Value) -> Value {
    if state["turn_total"].as_u64().unwrap() >= 6 {
        json!("hold")
    } else {
        json!({"roll": {"dice": 2}})
    }
}

/// An organiser's socket, hello said; and its token.
pub async fn organiser_token(s: &Server) -> (Client, String) {
    let mut c = Client::connect(s).await;
    let r = c
        .ok("redeem", json!({"code": s.organiser_code, "label": "Ola"}))
        .await;
    assert_eq!(r["role"], "organiser");
    let token = r["token"].as_str().unwrap().to_owned();
    assert!(token.starts_with("xnl_o_"), "{token}");
    (c, token)
}

/// An organiser's socket, hello said.
pub async fn organiser(s: &Server) -> Client {
    organiser_token(s).await.0
}

/// A player's socket (no seat): the client, its token and the token's id.
pub async fn player(s: &Server, org: &mut Client, name: &str) -> (Client, String, i64) {
    let inv = org
        .ok("invite", json!({"role": "player", "label": name}))
        .await;
    let mut c = Client::connect(s).await;
    let r = c.ok("redeem", json!({"code": inv["code"]})).await;
    assert_eq!(r["label"], json!(name));
    (
        c,
        r["token"].as_str().unwrap().to_owned(),
        r["token_id"].as_i64().unwrap(),
    )
}

/// A player's socket holding a redeemed seat invitation, and its token.
pub async fn seat_player_token(
    s: &Server,
    org: &mut Client,
    campaign: i64,
    battle: i64,
    seat: u8,
) -> (Client, String) {
    let inv = org
        .ok(
            "invite",
            json!({"role": "player", "label": format!("seat {seat}"), "campaign": campaign, "battle": battle, "seat": seat}),
        )
        .await;
    assert_eq!(inv["seat"]["seat"], seat);
    let mut c = Client::connect(s).await;
    let r = c.ok("redeem", json!({"code": inv["code"]})).await;
    (c, r["token"].as_str().unwrap().to_owned())
}

/// A player's socket holding a redeemed seat invitation.
pub async fn seat_player(
    s: &Server,
    org: &mut Client,
    campaign: i64,
    battle: i64,
    seat: u8,
) -> Client {
    seat_player_token(s, org, campaign, battle, seat).await.0
}

/// The receipt of each entry `ids` names, recomputed from the revealed
/// `secret` and the stored chain of every entry (DESIGN.md section 5.4).
pub fn receipts(
    secret: &xenolog_engine::fair::Bytes32,
    chains: &[xenolog_engine::hash::Hash16],
    ids: &[u64],
) -> Vec<String> {
    use xenolog_engine::fair;
    ids.iter()
        .map(|&id| fair::hex(&fair::receipt(secret, &chains[id as usize])))
        .collect()
}

pub fn nonce(byte: u8) -> String {
    xenolog_engine::fair::hex(&[byte; 32])
}

/// A campaign ("Club") and a battle of `game` in it with `options`
/// (`strict`, `friendly_takebacks`, `entered_dice`), made by the organiser:
/// the campaign, the battle, and the `create_battle` reply.
pub async fn new_battle(
    org: &mut Client,
    game: &str,
    config: Value,
    options: Value,
) -> (i64, i64, Value) {
    let campaign = org.ok("create_campaign", json!({"name": "Club"})).await["campaign"]
        .as_i64()
        .unwrap();
    let mut fields = json!({"campaign": campaign, "game": game, "config": config});
    if let Value::Object(o) = options {
        fields.as_object_mut().unwrap().extend(o);
    }
    let made = org.ok("create_battle", fields).await;
    (campaign, made["battle"].as_i64().unwrap(), made)
}

/// A campaign and a started battle of `game` with two seated players, each
/// watching its seat from the start (backfill drained).
pub async fn two_seats(
    s: &Server,
    org: &mut Client,
    game: &str,
    config: Value,
    options: Value,
) -> (i64, i64, Client, Client) {
    let (campaign, battle, _) = new_battle(org, game, config, options).await;
    let mut zero = seat_player(s, org, campaign, battle, 0).await;
    let mut one = seat_player(s, org, campaign, battle, 1).await;
    for (c, seat) in [(&mut zero, 0u8), (&mut one, 1u8)] {
        c.join(battle, seat, seat + 1).await;
    }
    for (c, seat) in [(&mut zero, 0), (&mut one, 1)] {
        c.ok(
            "watch",
            json!({"battle": battle, "seat": seat, "after": null}),
        )
        .await;
        c.events.clear();
    }
    (campaign, battle, zero, one)
}

/// What one seat's client holds of a live battle: exactly the entries it
/// was sent, each checked as it comes.
pub struct SeatCopy {
    pub c: Client,
    pub token: String,
    pub seat: u8,
    pub ids: Vec<u64>,
    /// The receipt of each entry held, as it came (DESIGN.md section 5.4).
    pub receipts: Vec<String>,
    pub state: Value,
    pub over: Option<Value>,
}

impl SeatCopy {
    /// A copy that holds nothing yet.
    pub fn new(c: Client, token: String, seat: u8) -> SeatCopy {
        SeatCopy {
            c,
            token,
            seat,
            ids: Vec::new(),
            receipts: Vec::new(),
            state: Value::Null,
            over: None,
        }
    }

    pub fn head(&self) -> Option<u64> {
        self.ids.last().copied()
    }

    /// Take events until the copy holds entry `until` (or, with `None`,
    /// until `live`); a frame of any other kind is a failure.
    pub async fn absorb(&mut self, until: Option<u64>) {
        if let Err(v) = self.absorb_or_other(until).await {
            panic!("unexpected frame {v}");
        }
    }

    /// [`SeatCopy::absorb`], but a frame of any other kind ends the wait
    /// and is handed back as the error. Each entry is this seat's, after
    /// the last one held, with its receipt; a live frame names the game and
    /// the head held.
    pub async fn absorb_or_other(&mut self, until: Option<u64>) -> Result<(), Value> {
        loop {
            if until.is_some() && self.head() >= until {
                return Ok(());
            }
            let v = self.c.event().await;
            match v["type"].as_str() {
                Some("entry") => {
                    assert_eq!(v["seat"], self.seat, "{v}");
                    let id = v["entry"]["id"].as_u64().unwrap();
                    assert!(
                        self.head().is_none_or(|h| id > h),
                        "seat {}: entry {id} after {:?}: a duplicate or out of order",
                        self.seat,
                        self.head()
                    );
                    self.ids.push(id);
                    let receipt = v["entry"]["receipt"].as_str().unwrap_or_default();
                    assert_eq!(receipt.len(), 64, "every entry carries its receipt: {v}");
                    self.receipts.push(receipt.to_owned());
                    self.state = v["state"].clone();
                }
                Some("over") => self.over = Some(v),
                Some("live") => {
                    assert_eq!(v["head"].as_u64(), self.head(), "{v}");
                    assert!(v["game"].is_string(), "the live frame names its game: {v}");
                    self.state = v["state"].clone();
                    if until.is_none() {
                        return Ok(());
                    }
                }
                _ => return Err(v),
            }
        }
    }
}

// Two servers on one database, a seat on each (club_pg_read.rs,
// club_pg_notify.rs).

/// A seat's socket and what it heard: every entry id in order, the state
/// of the last frame.
pub struct Heard {
    pub c: Client,
    pub seat: u8,
    pub ids: Vec<u64>,
    pub state: Value,
}

impl Heard {
    /// Events until entry `until` is held: each entry new and after the
    /// last (none twice, none out of order); `moved` moves the head back
    /// to its `to`; a close fails (the server read the battle whole and
    /// closed its watchers to resume: not what this suite allows).
    pub async fn until(&mut self, until: u64) {
        while self.ids.last() != Some(&until) {
            let v = self.c.event().await;
            assert!(
                v.get("closed").is_none() && v.get("ended").is_none(),
                "seat {}: never closed to resume: {v}",
                self.seat
            );
            match v["type"].as_str() {
                Some("entry") => {
                    let id = v["entry"]["id"].as_u64().unwrap();
                    assert!(
                        self.ids.last().is_none_or(|h| id > *h),
                        "seat {}: entry {id} after {:?}: twice or out of order",
                        self.seat,
                        self.ids
                    );
                    self.ids.push(id);
                    self.state = v["state"].clone();
                }
                Some("moved") => {
                    let to = v["to"].as_u64();
                    while self.ids.last().copied() > to {
                        self.ids.pop();
                    }
                    self.state = v["state"].clone();
                }
                _ => {}
            }
        }
    }
}

/// Two servers on one new database, a race (`options`) with seat 0 on A
/// and seat 1 on B, each watching from the start.
pub async fn race_on_two(
    options: Value,
) -> Option<(
    std::sync::Arc<PgDb>,
    Server,
    Server,
    Client,
    i64,
    [Heard; 2],
)> {
    let admin = test_pg()?;
    let db = std::sync::Arc::new(PgDb::new(&admin));
    let a = server_on_db(db.clone(), Tuning::default()).await;
    let (mut org, _) = organiser_token(&a).await;
    let b = server_on_db(db.clone(), Tuning::default()).await;
    let (campaign, battle, _) =
        new_battle(&mut org, "race", json!({"target": 1000}), options).await;
    let (mut zero, _) = seat_player_token(&a, &mut org, campaign, battle, 0).await;
    let (mut one, _) = seat_player_token(&b, &mut org, campaign, battle, 1).await;
    zero.join(battle, 0, 7).await;
    one.join(battle, 1, 8).await;
    let mut seats = [(zero, 0u8), (one, 1u8)].map(|(c, seat)| Heard {
        c,
        seat,
        ids: Vec::new(),
        state: Value::Null,
    });
    for s in seats.iter_mut() {
        s.c.ok(
            "watch",
            json!({"battle": battle, "seat": s.seat, "after": null}),
        )
        .await;
        s.state = s.c.event_of("live").await["state"].clone();
    }
    Some((db, a, b, org, battle, seats))
}

/// The seat to move gives `command` at the head through its own server;
/// both seats hear the entry. The entry's id.
pub async fn play(battle: i64, seats: &mut [Heard; 2], command: Value, n: usize) -> u64 {
    let mover = seats[0].state["to_move"].as_u64().unwrap() as usize;
    let at = seats[mover].ids.last().copied();
    let r = seats[mover]
        .c
        .ok(
            "command",
            json!({"battle": battle, "seat": mover, "at": at, "command": command,
                   "cmd_id": format!("c{n}")}),
        )
        .await;
    let last = r["entries"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .as_u64()
        .unwrap();
    for s in seats.iter_mut() {
        s.until(last).await;
    }
    last
}

/// `n` commands at the head, each by the seat to move through its own
/// server (every third a hold, the others a roll of one die), both seats
/// hearing each; how many each seat gave.
pub async fn alternate(battle: i64, seats: &mut [Heard; 2], n: usize) -> [u64; 2] {
    let mut by = [0u64; 2];
    for k in 0..n {
        let mover = seats[0].state["to_move"].as_u64().unwrap() as usize;
        let command = if k % 3 == 2 {
            json!("hold")
        } else {
            json!({"roll": {"dice": 1}})
        };
        play(battle, seats, command, k).await;
        by[mover] += 1;
    }
    by
}
