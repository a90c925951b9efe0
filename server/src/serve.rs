//! The server: one WebSocket per client at `GET /v1/ws`, `GET /v1/health`,
//! started by [`start`] (in-process, tests) or [`run_blocking`] (`xenolog
//! serve`, which stops on SIGINT or SIGTERM).
//!
//! Each socket is one task. It must say `hello` with its token (or `redeem`
//! an invitation) within 5 seconds; every request is answered once, in order.
//! The club file is read and written on tokio's blocking pool. A revoked
//! token's sockets are closed at once; on stopping, every socket is told so
//! in a `notice` and closed with code 1001 before the process exits.
//!
//! Nothing secret is ever logged: requests are logged by type and outcome only,
//! and token and code types print redacted (`crate::secret`).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use crate::lens;

mod campaign;
mod download;
mod takeback;
use crate::proto::{self, ErrCode, Refusal, Request};
use crate::secret::{Code, Role};
use crate::store::club::ClubStore;
use crate::store::{
    BattleStore, ClubError, Grant, Invitation, LiveStore, NewBattle, Played, Playing, Principal,
    SeatInvite, ServerBattleId, Store, TokenId, TokenStore,
};
use xenolog_engine::{Actor, fair};

/// How long a new socket has to say `hello` (or `redeem`).
pub const HELLO_WITHIN: Duration = Duration::from_secs(5);
/// How long a stopping server waits for its sockets to close.
pub const STOP_WITHIN: Duration = Duration::from_secs(10);
/// Messages above this are cut off by the WebSocket layer itself; between
/// [`proto::MAX_MESSAGE`] and this they are refused in words first.
const HARD_LIMIT: usize = 1024 * 1024;
/// Open sockets one address may hold.
pub const SOCKETS_PER_ADDRESS: usize = 32;
/// Wrong codes or tokens one address may give in [`GUESS_WINDOW`].
pub const GUESSES_PER_ADDRESS: usize = 5;
/// The window of [`GUESSES_PER_ADDRESS`].
pub const GUESS_WINDOW: Duration = Duration::from_secs(60);
/// Frames waiting for one socket, at most (DESIGN.md section 7, fan-out). A
/// socket whose queue is full is closed in words, never skipped: its client
/// resumes from the last entry it holds and the gap is filled from the store.
pub const SOCKET_QUEUE: usize = 256;
/// How long one frame may take to go out before its socket is given up.
pub const SEND_WITHIN: Duration = Duration::from_secs(10);
/// What a slow socket is told as it is closed.
pub const TOO_SLOW: &str = "too slow; reconnect to resume";
/// What a watcher is told as it is closed when a battle's new entries could
/// not be made for it: its client resumes after the last entry it holds,
/// and the gap is filled from the store.
pub const MISSED: &str = "an entry of a battle you watch could not be sent; reconnect to resume";
/// Entries of a watch's backfill made and sent at a time: a long backfill
/// goes out page by page, never held whole in memory.
pub const WATCH_PAGE: usize = 32;
/// A battle idle this long is evicted from memory ([`Tuning::idle_after`]).
pub const IDLE_AFTER: Duration = Duration::from_secs(10 * 60);
/// How often idle battles are looked for ([`Tuning::evict_every`]).
pub const EVICT_EVERY: Duration = Duration::from_secs(60);
/// Threads of tokio's blocking pool in `xenolog serve` ([`Tuning::blocking_threads`]).
pub const BLOCKING_THREADS: usize = 64;
/// Days an invitation is valid unless the organiser says otherwise.
const INVITATION_DAYS: u32 = 7;

/// WebSocket close codes used.
mod close {
    pub const AWAY: u16 = 1001;
    pub const POLICY: u16 = 1008;
    pub const TOO_BIG: u16 = 1009;
}

/// How to start a server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The data folder: the club file and the campaigns.
    pub data: PathBuf,
    /// Where to listen (port 0: any free port).
    pub listen: SocketAddr,
    /// Print a new organiser invitation even though the club has an organiser.
    pub invite_organiser: bool,
    /// Where players reach the server, as invitation links name it
    /// (`club.example.org:8470`): behind a router or a reverse proxy, or
    /// listening on 0.0.0.0, the listen address is not it. Default: the
    /// address the server listens on.
    pub public: Option<String>,
}

/// Knobs with defaults, apart from [`Config`] so that its users are unchanged.
#[derive(Clone, Debug)]
pub struct Tuning {
    /// Frames one socket may have waiting ([`SOCKET_QUEUE`]).
    pub socket_queue: usize,
    /// The kernel's send buffer of each socket, in bytes (`SO_SNDBUF`, set
    /// on the listener and inherited); `None`: the system's, autotuned.
    pub send_buffer: Option<u32>,
    /// Entries of a watch's backfill per page ([`WATCH_PAGE`]).
    pub watch_page: usize,
    /// A battle not read or played for this long is evicted from memory
    /// (loaded again from its file on its next use; DESIGN.md section 8).
    pub idle_after: Duration,
    /// How often idle battles are looked for.
    pub evict_every: Duration,
    /// A store put in front of the data folder's (tests put faults there).
    pub store_layer: Option<StoreLayer>,
    /// The most threads of tokio's blocking pool (decides, loads, the club
    /// file) in a runtime [`run_blocking_tuned`] makes ([`BLOCKING_THREADS`];
    /// tokio's own default is 512). No blocking task waits for another to
    /// start (the slots' holders are running tasks or tasks awaiting a
    /// writer thread, which is not in the pool), so a bound only queues
    /// work: when the cores are short, queued decides wait in the pool's
    /// queue rather than as hundreds of threads the scheduler must switch
    /// between (session 16: 535 threads at 3,000 commands/s offered).
    pub blocking_threads: usize,
    /// Take TLS with this certificate and key: `wss://` and `https://`
    /// (`xenolog serve --tls-cert F --tls-key F`). Without it the server
    /// speaks plain `ws://`, as behind a reverse proxy that takes TLS.
    pub tls: Option<TlsFiles>,
    /// Keep the club on this PostgreSQL database instead of the data
    /// folder (`xenolog serve --database postgres://...`, issue 31): the
    /// club's tables in the schema `club`, each campaign a schema; several
    /// servers may serve one database (a listener brings each one's
    /// battles up to date with the others' entries).
    pub database: Option<String>,
}

/// A certificate chain and its private key, PEM files.
#[derive(Clone, Debug)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// The TLS settings of `files`: rustls with ring, HTTP/1.1.
fn tls_acceptor(files: &TlsFiles) -> Result<tokio_rustls::TlsAcceptor, ServeError> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&files.cert)
        .and_then(|i| i.collect::<Result<_, _>>())
        .map_err(|e| {
            ServeError::Tls(format!(
                "the certificate file {}: {e}",
                files.cert.display()
            ))
        })?;
    if certs.is_empty() {
        return Err(ServeError::Tls(format!(
            "the certificate file {} holds no certificate (PEM, -----BEGIN CERTIFICATE-----)",
            files.cert.display()
        )));
    }
    let key = PrivateKeyDer::from_pem_file(&files.key)
        .map_err(|e| ServeError::Tls(format!("the key file {}: {e}", files.key.display())))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| ServeError::Tls(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| {
            ServeError::Tls(format!(
                "the certificate {} and the key {} do not make a TLS identity: {e}",
                files.cert.display(),
                files.key.display()
            ))
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(tokio_rustls::TlsAcceptor::from(Arc::new(config)))
}

/// A TLS connection and its peer.
type TlsConn = (
    tokio_rustls::server::TlsStream<tokio::net::TcpStream>,
    SocketAddr,
);

/// TLS connections, each handshake made on its own task (a slow or silent
/// client holds no other; one that does not speak TLS, or takes more than
/// [`HELLO_WITHIN`], is dropped).
struct TlsListener {
    incoming: mpsc::Receiver<TlsConn>,
    local: SocketAddr,
}

impl TlsListener {
    fn new(
        tcp: tokio::net::TcpListener,
        acceptor: tokio_rustls::TlsAcceptor,
    ) -> std::io::Result<TlsListener> {
        let local = tcp.local_addr()?;
        let (tx, incoming) = mpsc::channel::<TlsConn>(64);
        tokio::spawn(async move {
            loop {
                let (stream, peer) = tokio::select! {
                    r = tcp.accept() => match r {
                        Ok(x) => x,
                        Err(_) => {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                            continue;
                        }
                    },
                    _ = tx.closed() => return,
                };
                let _ = stream.set_nodelay(true);
                let (acceptor, tx) = (acceptor.clone(), tx.clone());
                tokio::spawn(async move {
                    if let Ok(Ok(tls)) =
                        tokio::time::timeout(HELLO_WITHIN, acceptor.accept(stream)).await
                    {
                        let _ = tx.send((tls, peer)).await;
                    }
                });
            }
        });
        Ok(TlsListener { incoming, local })
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<tokio::net::TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.incoming.recv().await {
            Some(c) => c,
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.local)
    }
}

/// Makes a store of the data folder's ([`StoreLayer`]).
pub type Layer = dyn Fn(Arc<dyn Store>) -> Arc<dyn Store> + Send + Sync;

/// Wraps the data folder's store in another ([`Tuning::store_layer`]).
#[derive(Clone)]
pub struct StoreLayer(pub Arc<Layer>);

impl std::fmt::Debug for StoreLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StoreLayer")
    }
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            socket_queue: SOCKET_QUEUE,
            send_buffer: None,
            watch_page: WATCH_PAGE,
            store_layer: None,
            idle_after: IDLE_AFTER,
            evict_every: EVICT_EVERY,
            blocking_threads: BLOCKING_THREADS,
            tls: None,
            database: None,
        }
    }
}

/// Why the server could not start or run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Club(#[from] ClubError),
    #[error("cannot listen on {addr}: {why}")]
    Listen { addr: SocketAddr, why: String },
    #[error("the server stopped: {0}")]
    Stopped(String),
    #[error("cannot wait for stop signals: {0}")]
    Signals(String),
    #[error("cannot take TLS: {0}")]
    Tls(String),
    /// `--public-url` is not one ([`parse_public`]'s words).
    #[error("{0}")]
    Public(String),
}

/// A running server.
pub struct Running {
    addr: SocketAddr,
    tls: bool,
    /// `HOST:PORT` as invitation links name it.
    public: String,
    /// Whether invitation links say TLS.
    links_tls: bool,
    club_file: PathBuf,
    invitation: Option<Invitation>,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<Result<(), ServeError>>,
    /// The data folder's store: gone once every task let it go, its club
    /// file closed and its lock let go ([`Running::stop`]).
    store: std::sync::Weak<dyn Store>,
    /// On PostgreSQL, this process's listener (stopped when dropped).
    _listener: Option<crate::store::notify::Listener>,
}

impl Running {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `ws://ADDR/v1/ws` (`wss://` with TLS)
    pub fn ws_url(&self) -> String {
        let scheme = if self.tls { "wss" } else { "ws" };
        format!("{scheme}://{}/v1/ws", self.addr)
    }

    /// `HOST:PORT` as invitation links name it (`--public-url`'s host, or
    /// the listen address).
    pub fn public(&self) -> &str {
        &self.public
    }

    /// Whether invitation links say TLS (`xenolog+tls://`): the server
    /// takes TLS itself, or `--public-url` is `wss://` (a reverse proxy
    /// takes it).
    pub fn links_tls(&self) -> bool {
        self.links_tls
    }

    /// How battles were brought up to date after another server process
    /// wrote them (issue 31 P5): (read after the head held, read whole).
    pub fn refresh_reads(&self) -> (u64, u64) {
        self.store
            .upgrade()
            .map_or((0, 0), |s| s.live().refresh_reads())
    }

    /// How many times a battle was brought up to date from the part its
    /// notification carried, reading nothing (issue 31 P5, session 20).
    pub fn carried_refreshes(&self) -> u64 {
        self.store
            .upgrade()
            .map_or(0, |s| s.live().carried_refreshes())
    }

    /// The club file.
    pub fn club_file(&self) -> &std::path::Path {
        &self.club_file
    }

    /// The organiser invitation made at this start (first start, or
    /// `invite_organiser`); given out once.
    pub fn take_invitation(&mut self) -> Option<Invitation> {
        self.invitation.take()
    }

    /// Stop: tell every socket, close them, wait for them (at most
    /// [`STOP_WITHIN`]), close the club file.
    pub async fn stop(self) -> Result<(), ServeError> {
        let _ = self.stop.send(true);
        let served = self
            .task
            .await
            .map_err(|e| ServeError::Stopped(e.to_string()))?;
        // Stopped means the club file is closed and its lock let go (a
        // server started next on the folder takes it): the tasks that still
        // hold the store (the idle sweep, a request's blocking call) end
        // within moments of the stop.
        let by = tokio::time::Instant::now() + STOP_WITHIN;
        while self.store.strong_count() > 0 {
            if tokio::time::Instant::now() >= by {
                eprintln!(
                    "serve: the club file is still held by a task {} s after the stop",
                    STOP_WITHIN.as_secs()
                );
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        served
    }
}

/// The invitation link of a code at `host` (`HOST:PORT`): the code after
/// `#`, which browsers and proxies never send anywhere. A server that
/// serves TLS (`tls`) says so in the scheme, `xenolog+tls://`, so a pasted
/// link reaches it over `wss://`: a scheme rather than a `?tls` marker,
/// because a client that does not know the marker would drop it and send
/// the code over plain `ws://`, while one that does not know the scheme
/// refuses the link and sends nothing.
pub fn invitation_link(host: &str, tls: bool, code: &Code) -> String {
    let scheme = if tls {
        crate::client::TLS_LINK
    } else {
        "xenolog://"
    };
    format!("{scheme}{host}/join#{}", code.expose())
}

/// Where players reach the server, as `--public-url` gives it: `HOST:PORT`
/// (links say TLS when this server takes it), or `wss://HOST:PORT` (links
/// say TLS: behind a reverse proxy that takes TLS, the server itself speaks
/// plain `ws://` to the proxy), or `ws://HOST:PORT` (links say plain).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl {
    /// `HOST:PORT`.
    pub host: String,
    /// What the scheme said: `Some(true)` for `wss://`, `Some(false)` for
    /// `ws://`, `None` when no scheme was given.
    pub tls: Option<bool>,
}

impl PublicUrl {
    /// Whether invitation links say TLS, for a server that takes TLS
    /// itself (`serves_tls`) or not.
    pub fn links_tls(&self, serves_tls: bool) -> bool {
        self.tls.unwrap_or(serves_tls)
    }
}

/// Read `--public-url`, or why not, in words.
pub fn parse_public(text: &str) -> Result<PublicUrl, String> {
    let (tls, host) = if let Some(h) = text.strip_prefix("wss://") {
        (Some(true), h)
    } else if let Some(h) = text.strip_prefix("ws://") {
        (Some(false), h)
    } else {
        (None, text)
    };
    // A trailing slash is forgiven; a path is not (links add their own).
    let host = host.strip_suffix('/').unwrap_or(host);
    let bad = host.is_empty()
        || host
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '/' | '#' | '?' | '@'));
    if bad || host.contains("://") {
        return Err(format!(
            "--public-url '{text}': give the host and port players reach the server at, e.g. club.example.org:8470, or wss://club.example.org:443 behind a reverse proxy that takes TLS (no other scheme, no path or spaces)"
        ));
    }
    Ok(PublicUrl {
        host: host.to_owned(),
        tls,
    })
}

/// A public address as invitation links take it, or why not, in words
/// ([`parse_public`]).
pub fn check_public(host: &str) -> Result<(), String> {
    parse_public(host).map(|_| ())
}

/// State shared by every socket.
struct Shared {
    store: Arc<dyn Store>,
    /// `HOST:PORT` as invitation links name it ([`Config::public`]).
    public: String,
    /// Whether its invitation links say TLS: it serves TLS, or a reverse
    /// proxy in front takes it (`--public-url wss://...`).
    tls: bool,
    stop: watch::Receiver<bool>,
    /// Held by every socket task; the stopping server waits until every
    /// clone is gone.
    alive: mpsc::Sender<()>,
    sockets: Mutex<Sockets>,
    /// The tokens revoked while this server runs, added and read only
    /// while `sockets` is held ([`register`]): a hello that found its token
    /// before a revoke cannot register its socket after the revoke closed
    /// the token's sockets (review of session 16).
    revoked: Mutex<std::collections::HashSet<TokenId>>,
    /// Tokens a `revoke` made here is revoking now: their sockets are
    /// closed (and counted) by that request, not by the listener hearing
    /// its own notification first.
    revoking: Mutex<std::collections::HashSet<TokenId>>,
    next_socket: AtomicU64,
    /// Who watches each battle.
    watchers: Mutex<HashMap<ServerBattleId, Vec<Watcher>>>,
    /// Frames one socket may have waiting.
    socket_queue: usize,
    /// Entries of a backfill per page.
    watch_page: usize,
    /// One command or watch at a time per battle, so a watch's backfill and
    /// the live entries after it have no gap and no duplicate.
    order: Mutex<HashMap<ServerBattleId, Arc<tokio::sync::Mutex<()>>>>,
    /// Open sockets per address.
    per_address: Mutex<HashMap<std::net::IpAddr, usize>>,
    /// Take-backs asked and not yet answered (step S7).
    takebacks: takeback::Takebacks,
    /// When each address last gave a wrong code or token.
    guesses: Mutex<HashMap<std::net::IpAddr, Vec<std::time::Instant>>>,
}

/// One address's hold on a socket; dropped (the count goes down) when the
/// socket ends or its upgrade fails.
struct AddressSlot {
    shared: Arc<Shared>,
    ip: std::net::IpAddr,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut m = self
            .shared
            .per_address
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(n) = m.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

/// A socket watching a battle as a seat.
struct Watcher {
    socket: u64,
    seat: Actor,
    /// The socket's bounded queue.
    events: mpsc::Sender<String>,
    /// Told to close the socket when its queue is full.
    control: mpsc::UnboundedSender<Control>,
}

/// The open sockets of each token (socket id, its control channel).
type Sockets = HashMap<TokenId, Vec<(u64, mpsc::UnboundedSender<Control>)>>;

/// What the server tells a socket task from outside.
#[derive(Debug)]
enum Control {
    Revoked,
    /// Its queue was full: close it in words; the client resumes.
    TooSlow,
    /// A battle's entries could not be made for it: close it in words; the
    /// client resumes and the gap is filled from the store.
    Missed,
}

/// Start a server on the data folder of `config`: open (or make) the club
/// file, listen, and serve until [`Running::stop`].
pub async fn start(config: Config) -> Result<Running, ServeError> {
    start_tuned(config, Tuning::default()).await
}

/// [`start`] with other [`Tuning`] (tests: a small socket queue).
pub async fn start_tuned(config: Config, tuning: Tuning) -> Result<Running, ServeError> {
    // Read before anything is made (a first start's organiser invitation
    // is shown once).
    let public = config
        .public
        .as_deref()
        .map(parse_public)
        .transpose()
        .map_err(ServeError::Public)?;
    let data = config.data.clone();
    let force = config.invite_organiser;
    let database = tuning.database.clone();
    let (hints_tx, hints) = mpsc::unbounded_channel();
    let (store, invitation, hint_listener) = tokio::task::spawn_blocking(move || {
        let store = match &database {
            Some(url) => ClubStore::open_postgres(url)?,
            None => ClubStore::open(&data)?,
        };
        // Listening before anything is served: no entry committed by
        // another process after this start is missed.
        let listener = store.listen(move |hint| {
            let _ = hints_tx.send(hint);
        })?;
        let inv = store.tokens().organiser_invitation(force)?;
        Ok::<_, ClubError>((store, inv, listener))
    })
    .await
    .map_err(|e| ServeError::Stopped(e.to_string()))??;
    let club_file = store.club_path().to_owned();
    let acceptor = tuning.tls.as_ref().map(tls_acceptor).transpose()?;
    let listener = listen(config.listen, tuning.send_buffer)
        .await
        .map_err(|e| ServeError::Listen {
            addr: config.listen,
            why: e.to_string(),
        })?;
    let addr = listener.local_addr().map_err(|e| ServeError::Listen {
        addr: config.listen,
        why: e.to_string(),
    })?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let (alive_tx, mut alive_rx) = mpsc::channel::<()>(1);
    let store: Arc<dyn Store> = Arc::new(store);
    let closed = Arc::downgrade(&store);
    let store = match &tuning.store_layer {
        Some(layer) => (layer.0)(store),
        None => store,
    };
    let shared = Arc::new(Shared {
        store,
        public: public
            .as_ref()
            .map_or_else(|| addr.to_string(), |p| p.host.clone()),
        // Behind a reverse proxy that takes TLS (`--public-url wss://...`),
        // links say TLS though this server speaks plain ws to the proxy
        // (review of session 15, item 9).
        tls: public
            .as_ref()
            .map_or(acceptor.is_some(), |p| p.links_tls(acceptor.is_some())),
        stop: stop_rx.clone(),
        alive: alive_tx,
        sockets: Mutex::new(HashMap::new()),
        revoked: Mutex::default(),
        revoking: Mutex::default(),
        next_socket: AtomicU64::new(1),
        watchers: Mutex::new(HashMap::new()),
        socket_queue: tuning.socket_queue.max(1),
        watch_page: tuning.watch_page.max(1),
        order: Mutex::new(HashMap::new()),
        per_address: Mutex::new(HashMap::new()),
        takebacks: Default::default(),
        guesses: Mutex::new(HashMap::new()),
    });
    let (link_host, links_tls) = (shared.public.clone(), shared.tls);
    let app = Router::new()
        .route("/v1/ws", get(upgrade))
        .route("/v1/health", get(health))
        .route(
            "/v1/campaigns/{c}/battles/{b}/file",
            get(download::battle_file),
        )
        .with_state(shared.clone());
    tokio::spawn(evict_idle(
        shared.clone(),
        tuning.idle_after,
        tuning.evict_every,
    ));
    if hint_listener.is_some() {
        tokio::spawn(follow(Arc::downgrade(&shared), hints, stop_rx.clone()));
    }
    let mut stopping = stop_rx;
    let tls = acceptor.is_some();
    let task = tokio::spawn(async move {
        let shutdown = async move {
            let _ = stopping.wait_for(|s| *s).await;
        };
        let app = app.into_make_service_with_connect_info::<SocketAddr>();
        let served = match acceptor {
            None => {
                // TCP_NODELAY: an entry event and the reply after it are two
                // small writes; with Nagle's algorithm the second waits for
                // the client's delayed ACK (40 ms on Linux) on every command.
                let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
                    let _ = tcp.set_nodelay(true);
                });
                axum::serve(listener, app)
                    .with_graceful_shutdown(shutdown)
                    .await
            }
            Some(acceptor) => {
                // (TCP_NODELAY is set before the handshake.)
                let listener = TlsListener::new(listener, acceptor)
                    .map_err(|e| ServeError::Stopped(e.to_string()))?;
                let listener = axum::serve::ListenerExt::tap_io(listener, |_| {});
                axum::serve(listener, app)
                    .with_graceful_shutdown(shutdown)
                    .await
            }
        };
        // The router and its state are gone; wait for the socket tasks.
        let closed = tokio::time::timeout(STOP_WITHIN, alive_rx.recv()).await;
        if closed.is_err() {
            eprintln!(
                "serve: some connections did not close within {} s; stopping anyway",
                STOP_WITHIN.as_secs()
            );
        }
        served.map_err(|e| ServeError::Stopped(e.to_string()))
    });
    eprintln!(
        "serve: listening on {addr}{}",
        if tls { " (TLS)" } else { "" }
    );
    Ok(Running {
        addr,
        tls,
        public: link_host,
        links_tls,
        club_file,
        invitation,
        stop: stop_tx,
        task,
        store: closed,
        _listener: hint_listener,
    })
}

/// Follow the other processes' writes (issue 31, `server/POSTGRES.md` §2):
/// each notification of an entry of a battle loaded here brings it up to
/// date from the database and hands the new entries' frames to its
/// watchers, as if decided here; after the listener reconnects (a catch-up)
/// every battle loaded here is read again. Until the server stops.
async fn follow(
    shared: std::sync::Weak<Shared>,
    mut hints: mpsc::UnboundedReceiver<crate::store::notify::Hint>,
    mut stop: watch::Receiver<bool>,
) {
    use crate::store::notify::Hint;
    loop {
        let hint = tokio::select! {
            h = hints.recv() => match h {
                Some(h) => h,
                None => return,
            },
            _ = stop.wait_for(|s| *s) => return,
        };
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let catching_up = hint == Hint::CatchUp;
        // Each battle to bring up to date, from the entry said, with the
        // part the notification carried (if it did).
        let battles: Vec<(ServerBattleId, Option<u64>, Option<String>)> = match hint {
            Hint::Entry {
                campaign,
                battle,
                seq,
            } => shared
                .store
                .live()
                .loaded_as(campaign, battle)
                .map(|b| (b, Some(seq), None))
                .into_iter()
                .collect(),
            Hint::Carried {
                campaign,
                battle,
                seq,
                body,
            } => shared
                .store
                .live()
                .loaded_as(campaign, battle)
                .map(|b| (b, Some(seq), Some(body)))
                .into_iter()
                .collect(),
            Hint::Moved {
                campaign, battle, ..
            } => shared
                .store
                .live()
                .loaded_as(campaign, battle)
                .map(|b| (b, None, None))
                .into_iter()
                .collect(),
            Hint::CatchUp => shared
                .store
                .live()
                .loaded_battles()
                .into_iter()
                .map(|b| (b, None, None))
                .collect(),
            Hint::Revoked(token) => {
                // Revoked by another process: its sockets here close too,
                // in the same words as a revoke made here (review3
                // SHOULD 9; before, only its next hello was refused). A
                // revoke made here closes its own (and counts them).
                let here = shared
                    .revoking
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .contains(&token);
                let open = if here {
                    0
                } else {
                    close_revoked(&shared, token)
                };
                if open > 0 {
                    eprintln!(
                        "serve: token {token} revoked by another server; {open} open connection(s) closed"
                    );
                }
                Vec::new()
            }
            Hint::Other(_) => Vec::new(),
        };
        if catching_up {
            // Revocations made while the listener was away were not heard:
            // the tokens with sockets open here are looked up again.
            tokio::spawn(revoked_meanwhile(shared.clone()));
        }
        for (battle, seq, carried) in battles {
            // Its own part (or one read already): nothing to bring, and
            // no turn taken for it.
            if seq.is_some_and(|s| shared.store.live().holds_entry(battle, s)) {
                continue;
            }
            tokio::spawn(catch_up(shared.clone(), battle, seq, carried));
        }
    }
}

/// After the listener connected again: close the open sockets of every
/// token revoked while it was away (their revocations' notifications were
/// missed), as if each had been heard.
async fn revoked_meanwhile(shared: Arc<Shared>) {
    let open = open_tokens(&shared);
    if open.is_empty() {
        return;
    }
    let listed = blocking(&shared, |t| t.tokens()).await;
    match listed {
        Ok(tokens) => {
            for t in tokens {
                if t.revoked.is_some() && open.contains(&t.id) {
                    let n = close_revoked(&shared, t.id);
                    eprintln!(
                        "serve: token {} was revoked while this server was not listening; {n} open connection(s) closed",
                        t.id
                    );
                }
            }
        }
        Err(r) => eprintln!(
            "serve: the tokens could not be read again after the listener came back: {}",
            r.words
        ),
    }
}

/// Bring `battle` up to date after another process wrote it, in its turn
/// (no command or watch of it meanwhile, so its watchers get every entry
/// once, in order).
/// `carried`: the part the notification carried (the battle is extended
/// from it when it fits, nothing read).
async fn catch_up(
    shared: Arc<Shared>,
    battle: ServerBattleId,
    seq: Option<u64>,
    carried: Option<String>,
) {
    let order = order_of(&shared, battle);
    let _turn = order.lock().await;
    // Asked again in its turn: the hint of a part this process wrote
    // arrives while the command that wrote it still holds the battle
    // (`follow` cannot tell then), and is known here without the
    // blocking pool (session 21: two threads woken fewer).
    if seq.is_some_and(|s| shared.store.live().holds_entry(battle, s)) {
        return;
    }
    // A carried part that fits the battle held is added here, on the task,
    // and its frames made and handed on: no blocking-pool thread woken
    // (session 21). Anything else (a part that does not fit, a battle not
    // in memory) goes to the blocking pool and may read.
    if let (Some(seq), Some(body)) = (seq, carried.as_deref()) {
        let seats = watching_seats(&shared, battle);
        let mut frames = HashMap::new();
        let now = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            shared
                .store
                .live()
                .refresh_carried_now(battle, seq, body, &mut |b, key, r| {
                    frames = refreshed_frames(b, key, battle, &seats, r);
                })
        }));
        match now {
            Ok(None) => {}
            Ok(Some(Ok(()))) => {
                deliver(&shared, battle, &frames);
                return;
            }
            Ok(Some(Err(e))) => {
                eprintln!(
                    "serve: battle {battle}: another server's entries could not be added: {}; its watchers are closed to resume",
                    refusal(e).words
                );
                close_watchers(&shared, battle);
                return;
            }
            Err(panic) => {
                // The held battle was emptied as it unwound: read again
                // on its next use; its watchers resume.
                eprintln!(
                    "serve: battle {battle}: adding another server's entries failed: {}; its watchers are closed to resume",
                    panic_words(panic.as_ref())
                );
                close_watchers(&shared, battle);
                return;
            }
        }
    }
    catch_up_held(&shared, battle, seq, None, carried).await;
}

/// The frames of a battle brought up to date ([`crate::store::Refreshed`])
/// for `seats`: `moved` first if its live line left their head, then the
/// new entries (and the `over` event with the secret when one ended it).
fn refreshed_frames(
    b: &dyn xenolog_engine::Battle,
    key: &[u8; 32],
    battle: ServerBattleId,
    seats: &[Actor],
    r: &crate::store::Refreshed,
) -> HashMap<Actor, Vec<String>> {
    let mut frames: HashMap<Actor, Vec<String>> = HashMap::new();
    if let Some(to) = r.moved {
        for s in seats {
            frames
                .entry(*s)
                .or_default()
                .push(takeback::moved_elsewhere_frame(b, battle, *s, to));
        }
    }
    if !r.entries.is_empty() {
        for (seat, mut f) in frames_of(b, key, battle, seats, &r.entries, r.revealed) {
            frames.entry(seat).or_default().append(&mut f);
        }
    }
    frames
}

/// [`catch_up`] holding the battle's turn already: read it again (after
/// `held`, the head its watchers hold, when known: see
/// [`LiveStore::refresh_from`]) and hand its watchers what is new: `moved`
/// first if the live line left their head (a take-back elsewhere, issue 31
/// P4, as a take-back made here is told), then the entries. Whether
/// anything was new (entries or a move). Not in memory here, or not
/// readable: its watchers are closed in words and resume from the store.
async fn catch_up_held(
    shared: &Arc<Shared>,
    battle: ServerBattleId,
    seq: Option<u64>,
    held: Option<Option<xenolog_engine::EntryId>>,
    carried: Option<String>,
) -> bool {
    let seats = watching_seats(shared, battle);
    let watched = !seats.is_empty();
    let made = blocking_live(shared, move |l| {
        let refreshed = match (held, seq, carried) {
            (Some(h), _, _) => l.refresh_from(battle, h)?,
            (None, Some(seq), Some(body)) => l.refresh_carried(battle, seq, &body)?,
            (None, seq, _) => l.refresh(battle, seq)?,
        };
        let Some(r) = refreshed else {
            return Ok(None);
        };
        let mut frames: HashMap<Actor, Vec<String>> = HashMap::new();
        let new = r.moved.is_some() || !r.entries.is_empty();
        if new {
            l.read_keyed(battle, &mut |b, key| {
                frames = refreshed_frames(b, key, battle, &seats, &r);
            })?;
        }
        Ok(Some((frames, new)))
    })
    .await;
    match made {
        Ok(Some((frames, new))) => {
            deliver(shared, battle, &frames);
            new
        }
        // Not in memory here (its watchers would miss what the next load
        // reads): the watchers resume from the store.
        Ok(None) => {
            if watched {
                close_watchers(shared, battle);
            }
            true
        }
        Err(r) => {
            eprintln!(
                "serve: battle {battle}: another server's entries could not be read: {}; its watchers are closed to resume",
                r.words
            );
            close_watchers(shared, battle);
            true
        }
    }
}

/// Every `every`, drop from memory the battles idle for `idle`, and the
/// per-battle locks and watcher lists nobody holds; until the server stops.
async fn evict_idle(shared: Arc<Shared>, idle: Duration, every: Duration) {
    let mut stop = shared.stop.clone();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = stop.wait_for(|s| *s) => return,
        }
        let s = shared.clone();
        let evicted = tokio::task::spawn_blocking(move || s.store.live().evict_idle(idle))
            .await
            .unwrap_or(0);
        shared
            .order
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|_, turn| Arc::strong_count(turn) > 1);
        shared
            .watchers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|_, list| !list.is_empty());
        if evicted > 0 {
            eprintln!("serve: {evicted} idle battle(s) evicted from memory");
        }
    }
}

/// The listener, with the sockets' send buffer set if asked.
async fn listen(
    addr: SocketAddr,
    send_buffer: Option<u32>,
) -> std::io::Result<tokio::net::TcpListener> {
    let Some(size) = send_buffer else {
        return tokio::net::TcpListener::bind(addr).await;
    };
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.set_send_buffer_size(size)?;
    socket.bind(addr)?;
    socket.listen(1024)
}

/// What `xenolog serve` shows once it listens.
pub struct Ready {
    pub ws_url: String,
    pub addr: SocketAddr,
    /// `HOST:PORT` as invitation links name it.
    pub public: String,
    /// Whether invitation links say TLS ([`Running::links_tls`]).
    pub links_tls: bool,
    pub club_file: PathBuf,
    pub invitation: Option<Invitation>,
}

/// Run a server in the foreground until SIGINT or SIGTERM: start it, hand
/// `on_ready` the address and the organiser invitation (to print), wait for
/// a signal, stop cleanly.
pub fn run_blocking(
    config: Config,
    on_ready: impl FnOnce(Ready) -> Result<(), String>,
) -> Result<(), ServeError> {
    run_blocking_tuned(config, Tuning::default(), on_ready)
}

/// [`run_blocking`] with other [`Tuning`] (TLS).
pub fn run_blocking_tuned(
    config: Config,
    tuning: Tuning,
    on_ready: impl FnOnce(Ready) -> Result<(), String>,
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(tuning.blocking_threads.max(1))
        .enable_all()
        .build()
        .map_err(|e| ServeError::Stopped(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async move {
        let signal = stop_signal()?;
        let mut running = start_tuned(config, tuning).await?;
        let ready = Ready {
            ws_url: running.ws_url(),
            addr: running.addr(),
            public: running.public().to_owned(),
            links_tls: running.links_tls(),
            club_file: running.club_file().to_owned(),
            invitation: running.take_invitation(),
        };
        if let Err(why) = on_ready(ready) {
            running.stop().await?;
            return Err(ServeError::Stopped(why));
        }
        signal.await;
        eprintln!("serve: stopping");
        running.stop().await?;
        eprintln!("serve: stopped");
        Ok(())
    })
}

/// A future that completes on SIGINT or (on Unix) SIGTERM. Made before the
/// server starts, so a signal that comes at once is not missed.
fn stop_signal() -> Result<impl std::future::Future<Output = ()>, ServeError> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term =
            signal(SignalKind::terminate()).map_err(|e| ServeError::Signals(e.to_string()))?;
        let mut int =
            signal(SignalKind::interrupt()).map_err(|e| ServeError::Signals(e.to_string()))?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

async fn health() -> String {
    format!("ok: xenolog club server, protocol {}", proto::VERSION)
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> axum::response::Response {
    {
        let mut m = shared.per_address.lock().unwrap_or_else(|p| p.into_inner());
        let n = m.entry(peer.ip()).or_default();
        if *n >= SOCKETS_PER_ADDRESS {
            return (
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many connections from your address: at most {SOCKETS_PER_ADDRESS} at once"
                ),
            )
                .into_response();
        }
        *n += 1;
    }
    let slot = AddressSlot {
        shared: shared.clone(),
        ip: peer.ip(),
    };
    ws.read_buffer_size(4096)
        .write_buffer_size(WRITE_GATHER)
        .max_write_buffer_size(2 * 1024 * 1024)
        .max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .on_upgrade(move |socket| async move {
            connection(shared, socket, peer).await;
            drop(slot);
        })
}

/// One socket's state.
struct Conn {
    id: u64,
    peer: SocketAddr,
    principal: Option<Principal>,
    control: mpsc::UnboundedSender<Control>,
    /// Events for this socket (entries of watched battles), bounded.
    events: mpsc::Sender<String>,
    /// A watch's backfill, to go out with the reply being made, before it
    /// and before anything queued, page by page.
    backfill: Option<Backfill>,
    /// Seats this socket's token was found to hold ([`seat_granted`]).
    seats: Mutex<std::collections::HashSet<(ServerBattleId, u8)>>,
}

/// The entries a watch sends before it goes live: made a page at a time
/// as they go out, so a long battle's backfill is never whole in memory.
struct Backfill {
    battle: ServerBattleId,
    seat: Actor,
    /// Before the entries: `moved`, when the client's last entry was taken
    /// back while it was away.
    lead: Option<String>,
    /// The live line's entries after the client's, at the watch.
    ids: Vec<xenolog_engine::EntryId>,
    /// After them: the `over` event (if the battle has ended) and `live`.
    tail: Vec<String>,
}

/// What to do after answering a message.
enum After {
    Stay,
    Close(u16, &'static str),
}

async fn connection(shared: Arc<Shared>, mut ws: WebSocket, peer: SocketAddr) {
    let _alive = shared.alive.clone();
    let (control, mut controls) = mpsc::unbounded_channel();
    let (events, mut events_rx) = mpsc::channel::<String>(shared.socket_queue);
    let mut conn = Conn {
        id: shared.next_socket.fetch_add(1, Ordering::Relaxed),
        peer,
        principal: None,
        control,
        events,
        backfill: None,
        seats: Mutex::default(),
    };
    let mut stop = shared.stop.clone();
    let hello_by = tokio::time::sleep(HELLO_WITHIN);
    tokio::pin!(hello_by);
    let closing = loop {
        tokio::select! {
            _ = &mut hello_by, if conn.principal.is_none() => {
                let r = Refusal::new(
                    ErrCode::HelloFirst,
                    format!("no hello within {} seconds: say hello with your token first", HELLO_WITHIN.as_secs()),
                );
                let _ = ws.send(text(proto::err(&Value::Null, &r))).await;
                break Some((close::POLICY, "no hello in time"));
            }
            _ = async { let _ = stop.wait_for(|s| *s).await; } => {
                let words = "the server is stopping; your client reconnects by itself";
                let _ = ws.send(text(proto::notice("stopping", words))).await;
                break Some((close::AWAY, "the server is stopping"));
            }
            Some(frame) = events_rx.recv() => {
                // Every frame queued by now goes out in one write with
                // the last (session 23: a system call a frame before).
                let mut last = frame;
                let mut sent = true;
                while let Ok(next) = events_rx.try_recv() {
                    sent = sent && feed_within(&mut ws, std::mem::replace(&mut last, next)).await;
                }
                if !sent || !send_within(&mut ws, last).await {
                    break None;
                }
            }
            Some(c) = controls.recv() => match c {
                Control::Revoked => {
                    let words = "this token was revoked by the organiser";
                    let _ = ws.send(text(proto::notice("revoked", words))).await;
                    break Some((close::POLICY, words));
                }
                Control::TooSlow => {
                    eprintln!("serve: {} #{}: too slow, closed", conn.peer, conn.id);
                    let _ = send_within(&mut ws, proto::notice("too_slow", TOO_SLOW)).await;
                    break Some((close::POLICY, TOO_SLOW));
                }
                Control::Missed => {
                    let _ = send_within(&mut ws, proto::notice("missed", MISSED)).await;
                    break Some((close::POLICY, MISSED));
                }
            },
            msg = ws.recv() => match msg {
                None | Some(Err(_)) => break None,
                Some(Ok(Message::Text(t))) => {
                    let (reply, after) = answer(&shared, &mut conn, t.as_str()).await;
                    // Events a request caused (a watch's backfill, then a
                    // command's entries) reach the client before its reply.
                    let mut failed = false;
                    if let Some(backfill) = conn.backfill.take() {
                        match send_backfill(&shared, &mut ws, backfill).await {
                            Ok(sent) => failed = !sent,
                            Err(r) => {
                                let _ = send_within(&mut ws, proto::notice("missed", &r.words)).await;
                                break Some((close::POLICY, MISSED));
                            }
                        }
                    }
                    // In one write with the reply (session 23).
                    while let Ok(frame) = events_rx.try_recv() {
                        failed = failed || !feed_within(&mut ws, frame).await;
                    }
                    if failed || !send_within(&mut ws, reply).await {
                        break None;
                    }
                    if let After::Close(code, why) = after {
                        break Some((code, why));
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    let r = Refusal::new(ErrCode::Binary, "send JSON in text frames, not binary ones");
                    if ws.send(text(proto::err(&Value::Null, &r))).await.is_err() {
                        break None;
                    }
                }
                Some(Ok(Message::Close(_))) => break None,
                // The WebSocket layer answers pings by itself.
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            },
        }
    };
    if let Some((code, why)) = closing {
        let frame = CloseFrame {
            code,
            reason: why.into(),
        };
        let sent = tokio::time::timeout(SEND_WITHIN, ws.send(Message::Close(Some(frame)))).await;
        if matches!(sent, Ok(Ok(()))) {
            // Let the client's closing handshake arrive (briefly).
            let _ = tokio::time::timeout(Duration::from_secs(1), async {
                while let Some(Ok(_)) = ws.recv().await {}
            })
            .await;
        }
    }
    for list in shared
        .watchers
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .values_mut()
    {
        list.retain(|w| w.socket != conn.id);
    }
    if let Some(p) = &conn.principal {
        let mut sockets = shared.sockets.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(list) = sockets.get_mut(&p.token) {
            list.retain(|(id, _)| *id != conn.id);
            if list.is_empty() {
                sockets.remove(&p.token);
            }
        }
    }
}

fn text(s: String) -> Message {
    Message::Text(s.into())
}

/// Send a frame, giving up after [`SEND_WITHIN`]; whether it went.
async fn send_within(ws: &mut WebSocket, frame: String) -> bool {
    matches!(
        tokio::time::timeout(SEND_WITHIN, ws.send(text(frame))).await,
        Ok(Ok(()))
    )
}

/// Queue a frame to go out with the next one sent ([`send_within`], which
/// writes what is queued, then flushes): up to the socket's write buffer
/// ([`WRITE_GATHER`]) it waits in memory, beyond it goes out at once.
/// Giving up after [`SEND_WITHIN`]; whether it was taken.
async fn feed_within(ws: &mut WebSocket, frame: String) -> bool {
    use futures_util::SinkExt;
    matches!(
        tokio::time::timeout(SEND_WITHIN, ws.feed(text(frame))).await,
        Ok(Ok(()))
    )
}

/// A socket's frames queued with [`feed_within`] wait in memory up to this
/// many bytes before they are written; every send flushes them. A frame
/// sent alone goes out at once, as with no buffer (DESIGN.md section 3).
const WRITE_GATHER: usize = 16 * 1024;

/// The refusal a club error is on the wire.
fn refusal(e: ClubError) -> Refusal {
    let code = match &e {
        ClubError::UnknownToken | ClubError::RevokedToken => ErrCode::BadToken,
        ClubError::UnknownCode | ClubError::SpentCode | ClubError::ExpiredCode(_) => {
            ErrCode::BadCode
        }
        ClubError::OtherRole { .. } => ErrCode::Forbidden,
        ClubError::NoSuchToken(_)
        | ClubError::NoSuchCampaign(_)
        | ClubError::NoSuchBattle(_)
        | ClubError::NoSuchSeat { .. } => ErrCode::NotFound,
        ClubError::BadDays(_) | ClubError::Battle(_) | ClubError::ReusedCmdId => {
            ErrCode::BadRequest
        }
        ClubError::AlreadyJoined { .. } => ErrCode::Joined,
        ClubError::NotStarted(_) => ErrCode::NotStarted,
        ClubError::Stale(_) => ErrCode::Stale,
        ClubError::Rule(_) => ErrCode::Refused,
        ClubError::Over(_) => ErrCode::Over,
        ClubError::RolledDice { .. } => ErrCode::Refused,
        ClubError::Campaign { file, why } => {
            eprintln!("serve: the store failed: the campaign file {file}: {why}");
            ErrCode::Internal
        }
        ClubError::File { .. } | ClubError::Held { .. } | ClubError::Random(_) => {
            eprintln!("serve: the store failed: {e}");
            ErrCode::Internal
        }
        // The database went away: nothing was changed, the store connects
        // again on the next call (POSTGRES.md §3).
        ClubError::Unavailable => ErrCode::Unavailable,
        // Held by another connection for longer than the committer waits:
        // nothing was written, and the same request may come again.
        ClubError::Busy => ErrCode::Unavailable,
    };
    // The log has the whole (above); the client, words naming no path.
    Refusal::new(code, e.client_words())
}

/// The words for a store call whose blocking task failed (a panic, or the
/// runtime shutting down). A panic's message may come from game code run on
/// the whole state (principle 14): it goes to the server's log only, and the
/// seat hears that the request failed and nothing more.
pub(super) fn join_failed(e: tokio::task::JoinError) -> Refusal {
    eprintln!("serve: a request's task failed: {e}");
    request_failed()
}

/// What a seat hears of a request that failed in the server ([`join_failed`]).
fn request_failed() -> Refusal {
    Refusal::new(
        ErrCode::Internal,
        "the server failed while answering this request (its log says why); ask again: a command sent again with its cmd_id is never decided twice",
    )
}

/// A caught panic's message, for the server's log.
fn panic_words(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// Run a live store call on the blocking pool.
async fn blocking_live<T: Send + 'static>(
    shared: &Arc<Shared>,
    f: impl FnOnce(&dyn LiveStore) -> Result<T, ClubError> + Send + 'static,
) -> Result<T, Refusal> {
    let s = shared.clone();
    match tokio::task::spawn_blocking(move || f(s.store.live())).await {
        Ok(r) => r.map_err(refusal),
        Err(e) => Err(join_failed(e)),
    }
}

/// The battle's turn: one command or watch at a time.
fn order_of(shared: &Shared, battle: ServerBattleId) -> Arc<tokio::sync::Mutex<()>> {
    shared
        .order
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(battle)
        .or_default()
        .clone()
}

/// Decide a seat's command on the blocking pool and make its watchers'
/// frames there ([`LiveStore::play_begin`]): the write still to be awaited,
/// and the frames to release once it is durable (`None`: none to send).
#[allow(clippy::too_many_arguments)]
async fn begin_command(
    shared: &Arc<Shared>,
    battle: ServerBattleId,
    seat: u8,
    at: Option<xenolog_engine::EntryId>,
    command: Value,
    dice: Option<Vec<u8>>,
    cmd_id: Option<String>,
) -> Result<(Playing, Frames), Refusal> {
    // The command is decided on the blocking pool; its write is then
    // awaited by the caller's task, not by a blocking-pool thread (session
    // 16: a thread per command in flight made 516 threads at 1,000
    // battles). Its frames are made in the same call as the decide (one
    // hop fewer a command: session 15), holding the battle with its new
    // entries, and released only once the write is durable.
    let seats = watching_seats(shared, battle);
    // Session 21: decided here, on the task, when the store can without
    // a wait or a read (the battle in memory and free, at its head): no
    // blocking-pool thread woken, none to wake this task again. Game code
    // runs here then; a panic in it is the request's failure, as a
    // blocking task's is (the held battle, emptied as it unwinds, is read
    // again from the store).
    let mut made = None;
    let now = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        shared.store.live().play_begin_now(
            battle,
            Actor(seat),
            at,
            &command,
            dice.clone(),
            cmd_id.as_deref(),
            &mut |b, key, played| made = Some(made_frames(b, key, battle, &seats, played)),
        )
    }));
    match now {
        Ok(None) => {}
        Ok(Some(playing)) => {
            let playing = playing.map_err(refusal)?;
            // Answered at once (nothing decided here): its frames, if it
            // made entries, on the blocking pool.
            let made_before = match (&playing, &made) {
                (Playing::Done(played), None) if !played.again => {
                    Some((played.entries.clone(), played.revealed))
                }
                _ => None,
            };
            let frames = match (made, made_before) {
                (Some(made), _) => Some(made),
                (None, Some((entries, revealed))) => Some(
                    blocking_live(shared, move |l| {
                        Ok(frames_for(l, battle, &seats, &entries, revealed))
                    })
                    .await?,
                ),
                (None, None) => None,
            };
            return Ok((playing, frames));
        }
        Err(panic) => {
            eprintln!(
                "serve: a command's decide failed: {}",
                panic_words(panic.as_ref())
            );
            return Err(request_failed());
        }
    }
    blocking_live(shared, move |l| {
        let mut made = None;
        let playing = l.play_begin(
            battle,
            Actor(seat),
            at,
            &command,
            dice,
            cmd_id.as_deref(),
            &mut |b, key, played| made = Some(made_frames(b, key, battle, &seats, played)),
        )?;
        let frames = match (&playing, made) {
            (_, Some(made)) => Some(made),
            // Decided and written in one (a walk, or a store that writes
            // as it decides): the frames are made now.
            (Playing::Done(played), None) => (!played.again)
                .then(|| frames_for(l, battle, &seats, &played.entries, played.revealed)),
            (Playing::Writing(_), None) => None,
        };
        Ok((playing, frames))
    })
    .await
}

/// A command's frames for its watchers, by seat (or why they could not be
/// made), when it made any.
type Frames = Option<Result<HashMap<Actor, Vec<String>>, ClubError>>;

/// A command's frames for `seats`, made holding the battle with its new
/// entries. Game code runs here (the lens's texts and states). A panic
/// must not unwind through the store's held battle while its write is
/// queued (review of session 16): it is caught, the command goes on to its
/// write, and its watchers are closed in words to resume once it is
/// durable.
fn made_frames(
    b: &dyn xenolog_engine::Battle,
    key: &[u8; 32],
    battle: ServerBattleId,
    seats: &[Actor],
    played: &Played,
) -> Result<HashMap<Actor, Vec<String>>, ClubError> {
    let frames = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        frames_of(b, key, battle, seats, &played.entries, played.revealed)
    }));
    frames.map_err(|panic| {
        // The words may come from game code run on the whole state
        // (principle 14): the log only.
        ClubError::Rule(format!(
            "making its frames panicked: {}",
            panic_words(panic.as_ref())
        ))
    })
}

/// Refused unless the socket's token opens `seat` of `battle`.
async fn seat_granted(
    shared: &Arc<Shared>,
    conn: &Conn,
    battle: ServerBattleId,
    seat: u8,
) -> Result<(), (Refusal, After)> {
    let p = conn.principal.clone().ok_or_else(|| stay(hello_first()))?;
    let known = |c: &Conn| {
        c.seats
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&(battle, seat))
    };
    if known(conn) {
        return Ok(());
    }
    let grants = blocking(shared, move |t| t.grants(p.token))
        .await
        .map_err(stay)?;
    let mine = seats_of(&grants, battle);
    if mine.contains(&seat) {
        // A seat once granted stays granted (grants are never deleted;
        // revoking the token closes its sockets): this socket asks the club
        // file once, not at every command (BENCHMARKS.md, session 15).
        conn.seats
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert((battle, seat));
        return Ok(());
    }
    let words = match mine.as_slice() {
        [] => format!("your token opens no seat of battle {battle}"),
        seats => format!(
            "your invitation opens {} of battle {battle}, not {}",
            seats
                .iter()
                .map(|s| proto::seat_word(*s))
                .collect::<Vec<_>>()
                .join(" and "),
            proto::seat_word(seat)
        ),
    };
    Err(stay(Refusal::new(ErrCode::Forbidden, words)))
}

/// The seats `battle`'s watchers watch as (taken holding the battle's turn,
/// so no watch comes or goes before the entries are sent).
fn watching_seats(shared: &Shared, battle: ServerBattleId) -> Vec<Actor> {
    let w = shared.watchers.lock().unwrap_or_else(|p| p.into_inner());
    let mut seats: Vec<Actor> = w
        .get(&battle)
        .map(|l| l.iter().map(|w| w.seat).collect())
        .unwrap_or_default();
    seats.sort();
    seats.dedup();
    seats
}

/// Each seat's own view of `entries` (and the `over` event with the secret
/// when it ended), made on the blocking pool.
fn frames_for(
    l: &dyn LiveStore,
    battle: ServerBattleId,
    seats: &[Actor],
    entries: &[xenolog_engine::EntryId],
    revealed: Option<[u8; 32]>,
) -> Result<HashMap<Actor, Vec<String>>, ClubError> {
    let mut out = HashMap::new();
    l.read_keyed(battle, &mut |b, key| {
        out = frames_of(b, key, battle, seats, entries, revealed);
    })?;
    Ok(out)
}

/// [`frames_for`] on the battle at hand.
fn frames_of(
    b: &dyn xenolog_engine::Battle,
    key: &[u8; 32],
    battle: ServerBattleId,
    seats: &[Actor],
    entries: &[xenolog_engine::EntryId],
    revealed: Option<[u8; 32]>,
) -> HashMap<Actor, Vec<String>> {
    let mut out: HashMap<Actor, Vec<String>> = HashMap::new();
    for seat in seats {
        let mut f = lens::entry_frames(b, battle, *seat, entries, key);
        if let Some(secret) = &revealed {
            f.push(lens::over_frame(b, battle, secret));
        }
        out.insert(*seat, f);
    }
    out
}

/// The seats of `battle` that `grants` open.
fn seats_of(grants: &[Grant], battle: ServerBattleId) -> Vec<u8> {
    grants
        .iter()
        .filter(|g| g.battle == Some(battle))
        .filter_map(|g| g.seat)
        .collect()
}

/// Queue each watcher of `battle` the frames made for its seat; a watcher
/// whose queue is full is closed in words.
fn deliver(shared: &Shared, battle: ServerBattleId, frames: &HashMap<Actor, Vec<String>>) {
    let mut w = shared.watchers.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(list) = w.get_mut(&battle) {
        list.retain(|watcher| {
            for f in frames.get(&watcher.seat).into_iter().flatten() {
                match watcher.events.try_send(f.clone()) {
                    Ok(()) => {}
                    // Never skipped: the socket is closed, and its client
                    // resumes from the last entry it holds.
                    Err(mpsc::error::TrySendError::Full(_)) => {
                        let _ = watcher.control.send(Control::TooSlow);
                        return false;
                    }
                    Err(mpsc::error::TrySendError::Closed(_)) => return false,
                }
            }
            true
        });
    }
}

/// What a battle's dice are, on the wire: `rolled` (by the server, from the
/// fair seed) or `entered` (by hand).
pub(crate) fn dice_word(entered: bool) -> &'static str {
    if entered { "entered" } else { "rolled" }
}

/// What is said of a battle whose dice are entered by hand.
pub const ENTERED_WORDS: &str = "the players roll real dice and enter them: the server's seed rolls nothing, so no fairness claim is made for this battle's dice";

/// Close every watcher of `battle` in words ([`MISSED`]): entries they did
/// not receive are a gap no later event fills, so their clients resume
/// after the last entry they hold.
fn close_watchers(shared: &Shared, battle: ServerBattleId) {
    let gone = shared
        .watchers
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .remove(&battle)
        .unwrap_or_default();
    for w in gone {
        let _ = w.control.send(Control::Missed);
    }
}

/// Send a watch's backfill a page at a time, then its tail; whether every
/// frame went out. A page that cannot be made is an error (its words).
async fn send_backfill(
    shared: &Arc<Shared>,
    ws: &mut WebSocket,
    backfill: Backfill,
) -> Result<bool, Refusal> {
    let Backfill {
        battle,
        seat,
        lead,
        ids,
        tail,
    } = backfill;
    if let Some(frame) = lead
        && !send_within(ws, frame).await
    {
        return Ok(false);
    }
    for page in ids.chunks(shared.watch_page) {
        let page = page.to_vec();
        let frames = blocking_live(shared, move |l| {
            let mut out = Vec::new();
            l.read_keyed(battle, &mut |b, key| {
                out = lens::entry_frames(b, battle, seat, &page, key);
            })?;
            Ok(out)
        })
        .await?;
        for frame in frames {
            if !send_within(ws, frame).await {
                return Ok(false);
            }
        }
    }
    for frame in tail {
        if !send_within(ws, frame).await {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Run a battle store call on the blocking pool.
async fn blocking_battles<T: Send + 'static>(
    shared: &Arc<Shared>,
    f: impl FnOnce(&dyn BattleStore) -> Result<T, ClubError> + Send + 'static,
) -> Result<T, Refusal> {
    let s = shared.clone();
    match tokio::task::spawn_blocking(move || f(s.store.battles())).await {
        Ok(r) => r.map_err(refusal),
        Err(e) => Err(join_failed(e)),
    }
}

/// Run a store call on the blocking pool.
async fn blocking<T: Send + 'static>(
    shared: &Arc<Shared>,
    f: impl FnOnce(&dyn TokenStore) -> Result<T, ClubError> + Send + 'static,
) -> Result<T, Refusal> {
    let s = shared.clone();
    match tokio::task::spawn_blocking(move || f(s.store.tokens())).await {
        Ok(r) => r.map_err(refusal),
        Err(e) => Err(join_failed(e)),
    }
}

fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0)
}

/// Answer one text frame: the reply to send and what to do then.
async fn answer(shared: &Arc<Shared>, conn: &mut Conn, frame: &str) -> (String, After) {
    let decoded = proto::decode(frame);
    let id = decoded.id;
    let request = match decoded.request {
        Ok(r) => r,
        Err(r) => {
            let after = if r.code == ErrCode::TooBig {
                After::Close(close::TOO_BIG, "a message may be at most 64 KiB")
            } else {
                After::Stay
            };
            return (proto::err(&id, &r), after);
        }
    };
    let kind = request.kind();
    let result = respond(shared, conn, request).await;
    // Type and outcome only: never a field of the request. The requests of
    // play itself (a command, a look at the state or the legal commands, a
    // watch) are not logged when they succeed: at thousands a second the
    // log would cost more than the work (BENCHMARKS.md, the club server).
    match &result {
        Ok(_) if matches!(kind, "command" | "state" | "legal" | "watch") => {}
        Ok(_) => eprintln!("serve: {} #{}: {kind} ok", conn.peer, conn.id),
        Err((r, _)) => eprintln!(
            "serve: {} #{}: {kind} refused ({})",
            conn.peer,
            conn.id,
            serde_json::to_value(r.code).unwrap_or_default()
        ),
    }
    match result {
        Ok(body) => (proto::ok(&id, body), After::Stay),
        Err((r, after)) => (proto::err(&id, &r), after),
    }
}

type Answer = Result<Value, (Refusal, After)>;

fn stay(r: Refusal) -> (Refusal, After) {
    (r, After::Stay)
}

fn organiser(conn: &Conn, what: &str) -> Result<Principal, (Refusal, After)> {
    match &conn.principal {
        Some(p) if p.role == Role::Organiser => Ok(p.clone()),
        Some(p) => Err(stay(Refusal::new(
            ErrCode::Forbidden,
            format!(
                "only an organiser may {what}; this connection said hello as a {}",
                p.role.word()
            ),
        ))),
        None => Err(stay(hello_first())),
    }
}

fn hello_first() -> Refusal {
    Refusal::new(
        ErrCode::HelloFirst,
        "say hello with your token first (or redeem an invitation)",
    )
}

/// Count the socket among its token's, so a revoke closes it. A token
/// revoked since it was found (a revoke racing the hello: its store call
/// and its closing of the token's sockets ran between the two) is refused
/// here, in words, and the socket is closed: the check and the revoke's
/// closing both run under the sockets' lock, so one of them sees the other.
fn register(shared: &Shared, conn: &mut Conn, p: Principal) -> Result<(), (Refusal, After)> {
    let mut sockets = shared.sockets.lock().unwrap_or_else(|p| p.into_inner());
    if shared
        .revoked
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .contains(&p.token)
    {
        return Err((
            refusal(ClubError::RevokedToken),
            After::Close(close::POLICY, "bad token"),
        ));
    }
    sockets
        .entry(p.token)
        .or_default()
        .push((conn.id, conn.control.clone()));
    conn.principal = Some(p);
    Ok(())
}

/// Close every open socket of a revoked token in words ("this token was
/// revoked by the organiser"), and refuse its sockets from now on
/// ([`register`]); how many were open. Called by the `revoke` made here,
/// and by a revocation another process made (issue 31, review3 SHOULD 9:
/// heard through the listener, [`follow`]).
fn close_revoked(shared: &Shared, token: TokenId) -> usize {
    let open = {
        let mut sockets = shared.sockets.lock().unwrap_or_else(|p| p.into_inner());
        // Under the sockets' lock: a hello between its token found and its
        // socket counted is refused ([`register`]).
        shared
            .revoked
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(token);
        sockets.remove(&token).unwrap_or_default()
    };
    for (_, socket) in &open {
        let _ = socket.send(Control::Revoked);
    }
    open.len()
}

/// The tokens with sockets open here.
fn open_tokens(shared: &Shared) -> Vec<TokenId> {
    shared
        .sockets
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .keys()
        .copied()
        .collect()
}

fn principal_json(p: &Principal) -> Value {
    json!({"token_id": p.token, "role": p.role, "label": p.label})
}

/// Refused while the socket's address gave too many wrong codes or tokens lately.
fn guessing(shared: &Shared, conn: &Conn) -> Result<(), (Refusal, After)> {
    guesses_left(shared, conn.peer.ip()).map_err(stay)
}

/// Refused while `ip` gave too many wrong codes or tokens lately.
fn guesses_left(shared: &Shared, ip: std::net::IpAddr) -> Result<(), Refusal> {
    let mut m = shared.guesses.lock().unwrap_or_else(|p| p.into_inner());
    let now = std::time::Instant::now();
    let recent = m.entry(ip).or_default();
    recent.retain(|t| now.duration_since(*t) < GUESS_WINDOW);
    if recent.len() >= GUESSES_PER_ADDRESS {
        return Err(Refusal::new(
            ErrCode::Rate,
            format!(
                "too many wrong codes or tokens from your address: at most {GUESSES_PER_ADDRESS} a minute; wait a minute"
            ),
        ));
    }
    Ok(())
}

fn guessed_wrong(shared: &Shared, conn: &Conn, r: &Refusal) {
    note_guess(shared, conn.peer.ip(), r);
}

/// Count a wrong code or token from `ip`.
fn note_guess(shared: &Shared, ip: std::net::IpAddr, r: &Refusal) {
    if matches!(r.code, ErrCode::BadCode | ErrCode::BadToken) {
        shared
            .guesses
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(ip)
            .or_default()
            .push(std::time::Instant::now());
    }
}

async fn respond(shared: &Arc<Shared>, conn: &mut Conn, request: Request) -> Answer {
    let secret = matches!(request, Request::Hello { .. } | Request::Redeem { .. });
    if conn.principal.is_none() && !secret {
        return Err(stay(hello_first()));
    }
    if secret {
        guessing(shared, conn)?;
        let answer = respond_to(shared, conn, request).await;
        if let Err((r, _)) = &answer {
            guessed_wrong(shared, conn, r);
        }
        return answer;
    }
    respond_to(shared, conn, request).await
}

async fn respond_to(shared: &Arc<Shared>, conn: &mut Conn, request: Request) -> Answer {
    match request {
        Request::Hello { token, client: _ } => {
            if conn.principal.is_some() {
                return Err(stay(Refusal::new(
                    ErrCode::AlreadyHello,
                    "this connection has already said hello",
                )));
            }
            // The token and its grants in one call to the blocking pool.
            let (p, grants) = blocking(shared, move |t| {
                let p = t.authenticate(&token)?;
                let grants = t.grants(p.token);
                Ok((p, grants))
            })
            .await
            .map_err(|r| (r, After::Close(close::POLICY, "bad token")))?;
            let grants = grants.map_err(|e| stay(refusal(e)))?;
            let mut body = principal_json(&p);
            register(shared, conn, p)?;
            body["server"] = json!(format!("xenolog {}", env!("CARGO_PKG_VERSION")));
            body["protocol"] = json!(proto::VERSION);
            body["limits"] = json!({"max_message": proto::MAX_MESSAGE});
            // The seats the hello found are known to this socket at once:
            // its first command or watch asks the club file nothing more
            // ([`seat_granted`]; a seat granted later is looked up then).
            conn.seats
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .extend(grants.iter().filter_map(|g| Some((g.battle?, g.seat?))));
            body["grants"] = json!(grants);
            Ok(body)
        }
        Request::Redeem { code, label } => {
            let Some(code) = Code::parse(code.expose()) else {
                return Err(stay(Refusal::new(
                    ErrCode::BadCode,
                    "that is not an invitation code: a code looks like XNLG-XXXX-XXXX-XXXX-XXXX-XXXX",
                )));
            };
            let into = conn.principal.clone();
            let r = blocking(shared, move |t| {
                t.redeem(&code, label.as_deref(), into.as_ref())
            })
            .await
            .map_err(stay)?;
            let mut body = principal_json(&r.principal);
            match &r.token {
                Some(token) => {
                    body["token"] = json!(token.expose());
                    body["words"] = json!(
                        "keep this token secret and safe: it is shown only now, and it opens your seats"
                    );
                }
                None => {
                    body["token"] = Value::Null;
                    body["words"] = json!("the invitation was added to this connection's token");
                }
            }
            if conn.principal.is_none() {
                register(shared, conn, r.principal)?;
            }
            Ok(body)
        }
        Request::Invite {
            role,
            label,
            days,
            campaign,
            battle,
            seat,
        } => {
            let by = organiser(conn, "invite")?;
            let seat = match (campaign, battle, seat) {
                (None, None, None) => None,
                (Some(campaign), Some(battle), Some(seat)) if role == Role::Player => {
                    Some(SeatInvite {
                        campaign,
                        battle,
                        seat,
                    })
                }
                (Some(_), Some(_), Some(_)) => {
                    return Err(stay(Refusal::new(
                        ErrCode::BadRequest,
                        "a seat invitation is for a player",
                    )));
                }
                _ => {
                    return Err(stay(Refusal::new(
                        ErrCode::BadRequest,
                        "a seat invitation names the campaign, the battle and the seat",
                    )));
                }
            };
            let label = label
                .map(|l| l.trim().to_owned())
                .filter(|l| !l.is_empty())
                .unwrap_or_else(|| role.word().to_owned());
            let days = days.unwrap_or(INVITATION_DAYS);
            let inv = blocking(shared, move |t| t.invite(&by, role, &label, days, seat))
                .await
                .map_err(stay)?;
            Ok(json!({
                "code": inv.code.expose(),
                "link": invitation_link(&shared.public, shared.tls, &inv.code),
                "role": inv.role,
                "label": inv.label,
                "expires": inv.expires,
                "seat": seat.map(|s| json!({"campaign": s.campaign, "battle": s.battle, "seat": s.seat})),
            }))
        }
        Request::Tokens => {
            organiser(conn, "list the tokens")?;
            // Each with the seats it opens; never the token itself (only
            // its hash is stored).
            let list = blocking(shared, |t| {
                let mut out = Vec::new();
                for info in t.tokens()? {
                    let seats: Vec<Value> = t
                        .grants(info.id)?
                        .iter()
                        .filter_map(|g| {
                            Some(json!({"campaign": g.campaign, "battle": g.battle?, "seat": g.seat?}))
                        })
                        .collect();
                    let mut v = json!(info);
                    v["seats"] = json!(seats);
                    out.push(v);
                }
                Ok(out)
            })
            .await
            .map_err(stay)?;
            Ok(json!({ "tokens": list }))
        }
        Request::Revoke { token } => {
            organiser(conn, "revoke a token")?;
            shared
                .revoking
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(token);
            let revoked = blocking(shared, move |t| t.revoke(token)).await;
            let open = match &revoked {
                Ok(_) => close_revoked(shared, token),
                Err(_) => 0,
            };
            shared
                .revoking
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&token);
            let info = revoked.map_err(stay)?;
            eprintln!("serve: token {token} revoked; {open} open connection(s) closed");
            Ok(json!({ "token": info, "closed": open }))
        }
        Request::Ping => Ok(json!({ "pong": now_ms() })),
        Request::CreateCampaign { name } => {
            organiser(conn, "create a campaign")?;
            if name.trim().is_empty() {
                return Err(stay(Refusal::new(
                    ErrCode::BadRequest,
                    "a campaign needs a name",
                )));
            }
            let c = blocking_battles(shared, move |b| b.create_campaign(&name))
                .await
                .map_err(stay)?;
            Ok(json!({"campaign": c.id, "name": c.name}))
        }
        Request::CreateBattle {
            campaign,
            entered_dice,
            game,
            config,
            title,
            strict,
            friendly_takebacks,
            rosters,
        } => {
            organiser(conn, "create a battle")?;
            let game_id = game.clone();
            let new = NewBattle {
                campaign,
                game,
                config: config.unwrap_or_else(|| json!({})),
                title: title.unwrap_or_default(),
                strict,
                entered_dice,
                rosters,
            };
            let b = blocking_battles(shared, move |s| s.create_battle(new))
                .await
                .map_err(stay)?;
            if friendly_takebacks {
                let id = b.id;
                takeback::blocking_table(shared, move |t| t.set_friendly_takebacks(id, true))
                    .await
                    .map_err(stay)?;
            }
            let seats: Vec<Value> = b
                .seats
                .iter()
                .map(|(a, name)| json!({"seat": a.0, "name": name}))
                .collect();
            let mut reply = json!({
                "battle": b.id,
                "game": game_id,
                "seats": seats,
                "commitment": fair::hex(&b.commitment),
                "dice": dice_word(entered_dice),
            });
            if entered_dice {
                reply["words"] = json!(ENTERED_WORDS);
            }
            Ok(reply)
        }
        Request::Join {
            battle,
            seat,
            nonce,
        } => {
            let nonce = fair::from_hex(&nonce).map_err(|why| {
                stay(Refusal::new(
                    ErrCode::BadRequest,
                    format!("the nonce is 32 random bytes as 64 hex digits: {why}"),
                ))
            })?;
            seat_granted(shared, conn, battle, seat).await?;
            let j = blocking_battles(shared, move |b| b.join(battle, seat, nonce))
                .await
                .map_err(stay)?;
            Ok(json!({
                "battle": battle,
                "seat": seat,
                "commitment": fair::hex(&j.commitment),
                "joined": j.joined,
                "seats": j.seats,
                "started": j.started.is_some(),
            }))
        }
        Request::Watch {
            battle,
            seat,
            after,
        } => {
            seat_granted(shared, conn, battle, seat).await?;
            let order = order_of(shared, battle);
            let _turn = order.lock().await;
            let who = Actor(seat);
            // The line and the tail are taken at the watch, holding the
            // battle's turn; the entries themselves are made as they go out.
            let (ids, tail, head, lead, game) = blocking_live(shared, move |l| {
                let revealed = l.revealed(battle)?;
                let mut out = (Vec::new(), Vec::new(), None, None, "");
                l.read(battle, &mut |b| {
                    out.0 = lens::line_after(b, after);
                    // A take-back while the client was away: `moved` goes
                    // first, before the entries of the live line.
                    out.3 = takeback::resume_moved(b, battle, who, after);
                    if let Some(secret) = &revealed {
                        out.1.push(lens::over_frame(b, battle, secret));
                    }
                    out.1.push(lens::live_frame(b, battle, who));
                    out.2 = b.cursor();
                    out.4 = b.game_id();
                })?;
                Ok(out)
            })
            .await
            .map_err(stay)?;
            let sent = ids.len();
            conn.backfill = Some(Backfill {
                battle,
                seat: who,
                lead,
                ids,
                tail,
            });
            shared
                .watchers
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(battle)
                .or_default()
                .push(Watcher {
                    socket: conn.id,
                    seat: who,
                    events: conn.events.clone(),
                    control: conn.control.clone(),
                });
            Ok(json!({"battle": battle, "seat": seat, "game": game, "sent": sent, "head": head}))
        }
        Request::Command {
            battle,
            seat,
            at,
            command,
            dice,
            cmd_id,
        } => {
            seat_granted(shared, conn, battle, seat).await?;
            if let Some(cid) = &cmd_id
                && (cid.is_empty()
                    || cid.len() > 64
                    || !cid
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'))
            {
                return Err(stay(Refusal::new(
                    ErrCode::BadRequest,
                    "cmd_id is 1 to 64 letters, digits, '-' or '_' (16 random bytes in hex, say)",
                )));
            }
            let order = order_of(shared, battle);
            let _turn = order.lock().await;
            // Several servers on one database (issue 31, POSTGRES.md §2):
            // a command found stale here, or whose write found the stored
            // head moved (another process wrote first), is not refused at
            // once. The battle is read again from the store and what came
            // first is handed to this battle's watchers (so a client
            // watching here holds the winner's entries before it hears
            // why), then the command is decided again against the new
            // head: it lands if the client's `at` is that head (this
            // process was the one behind), is answered `again` if the
            // same command id landed through the other process, and is
            // `stale` otherwise, naming the entry that came first.
            let several = shared.store.live().shared_writers();
            let mut catch_ups = 0;
            let mut just_caught_up = false;
            let (played, made) = loop {
                let (settled, at_write) = match begin_command(
                    shared,
                    battle,
                    seat,
                    at,
                    command.clone(),
                    dice.clone(),
                    cmd_id.clone(),
                )
                .await
                {
                    Ok((playing, made)) => {
                        just_caught_up = false;
                        let settled = playing.settled().await.map_err(refusal);
                        (settled.map(|p| (p, made)), true)
                    }
                    Err(r) => (Err(r), false),
                };
                let r = match settled {
                    Ok(done) => break done,
                    Err(r) => r,
                };
                if r.code != ErrCode::Stale {
                    return Err(stay(r));
                }
                if !several {
                    if at_write {
                        // The campaign's file held more than this server
                        // decided on: what it loads next may hold entries
                        // its watchers were not sent; they resume.
                        close_watchers(shared, battle);
                    }
                    return Err(stay(r));
                }
                // Refused at once right after a catch-up: the client is
                // behind, and its watchers have what came first.
                if (!at_write && just_caught_up) || catch_ups >= 3 {
                    return Err(stay(r));
                }
                catch_ups += 1;
                // Decided at `at` (the head then), the battle dropped from
                // memory when its write lost: its watchers hold `at`.
                let new = catch_up_held(shared, battle, None, at_write.then_some(at), None).await;
                if !new {
                    return Err(stay(r));
                }
                just_caught_up = true;
            };
            if played.again {
                let last = played.entries.first().copied();
                return Ok(json!({
                    "entries": played.entries,
                    "over": played.revealed.is_some(),
                    "again": format!(
                        "already done: entry {}",
                        last.map_or_else(|| "none".to_owned(), |e| e.to_string())
                    ),
                }));
            }
            // Durable now: only then does anyone hear of it. A walk along
            // the recorded line (a redo after a take-back) sends its
            // entries as a new command's: every seat's line takes them.
            match made {
                Some(Ok(frames)) => deliver(shared, battle, &frames),
                Some(Err(e)) => {
                    eprintln!(
                        "serve: battle {battle}: the entries could not be sent: {}; its watchers are closed to resume",
                        refusal(e).words
                    );
                    close_watchers(shared, battle);
                }
                None => {}
            }
            let over = played.revealed.is_some();
            if played.walked {
                let last = played.entries.last().copied().unwrap_or_default();
                return Ok(json!({
                    "entries": played.entries, "over": over, "walked": true,
                    "words": format!(
                        "the command recorded next: the battle walks its recorded line again to entry {last}, with the same dice and cards (a take-back is no reroll)"
                    ),
                }));
            }
            Ok(json!({"entries": played.entries, "over": over}))
        }
        Request::Legal { battle, seat } => {
            seat_granted(shared, conn, battle, seat).await?;
            let who = Actor(seat);
            let (legal, waited) = blocking_live(shared, move |l| {
                let mut out = (Value::Null, Value::Null);
                l.read(battle, &mut |b| {
                    out = (lens::legal(b, who), lens::waited_for(b, who));
                })?;
                Ok(out)
            })
            .await
            .map_err(stay)?;
            Ok(json!({"battle": battle, "seat": seat, "legal": legal, "waited_for": waited}))
        }
        Request::DiceNeeded {
            battle,
            seat,
            command,
        } => {
            seat_granted(shared, conn, battle, seat).await?;
            let sides = blocking_live(shared, move |l| {
                l.dice_needed(battle, Actor(seat), &command)
            })
            .await
            .map_err(stay)?;
            Ok(json!({"battle": battle, "seat": seat, "sides": sides}))
        }
        Request::Campaigns => download::campaigns(shared, conn).await,
        Request::Takeback { battle, seat, to } => {
            takeback::ask(shared, conn, battle, seat, to).await
        }
        Request::TakebackAnswer {
            battle,
            seat,
            accept,
            request,
        } => takeback::answer(shared, conn, battle, seat, accept, request).await,
        Request::CampaignLog { campaign, after } => {
            campaign::log(shared, conn, campaign, after).await
        }
        Request::CampaignEdit {
            campaign,
            after,
            event,
        } => campaign::edit(shared, conn, campaign, after, event).await,
        Request::GrantRoster {
            campaign,
            roster,
            token,
        } => campaign::grant(shared, conn, campaign, roster, token).await,
        Request::State { battle, seat, at } => {
            seat_granted(shared, conn, battle, seat).await?;
            let who = Actor(seat);
            let (state, head, game) = blocking_live(shared, move |l| {
                let mut out = (None, None, "");
                l.read(battle, &mut |b| {
                    let at = at.unwrap_or(b.cursor());
                    out = (
                        lens::state_at(b, who, at).map(|s| (at, s)),
                        b.cursor(),
                        b.game_id(),
                    );
                })?;
                Ok(out)
            })
            .await
            .map_err(stay)?;
            match state {
                Some((at, state)) => Ok(json!({
                    "battle": battle, "seat": seat, "game": game, "at": at, "head": head,
                    "state": state
                })),
                None => Err(stay(Refusal::new(
                    ErrCode::NotFound,
                    format!(
                        "battle {battle} has no entry {} on its live line (its head is {})",
                        at.flatten()
                            .map_or_else(|| "-".to_owned(), |e| e.to_string()),
                        head.map_or_else(|| "the setup".to_owned(), |h| format!("entry {h}"))
                    ),
                ))),
            }
        }
    }
}
