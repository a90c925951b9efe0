//! Load generator for the club server, the server in a process of its own
//! (server/DESIGN.md sections 8 and 12; figures in BENCHMARKS.md). Not a test.
//!
//! `cargo build --release -p xenolog-server --example load`, then
//! `target/release/examples/load MODE BATTLES CAMPAIGNS [ARGS]`:
//!
//! - `closed B C SECONDS`: every battle plays `hold` as fast as it can (one
//!   command in flight per battle): durable commands/s in total.
//! - `open B C SECONDS RATE`: an open loop at RATE commands/s spread evenly
//!   over the battles (each battle its own fixed interval, the phases spread
//!   evenly over it);
//!   latency is measured from the moment a command was due, so a command
//!   sent late because the one before it was slow counts its wait.
//! - `idle B C [SECONDS]`: the server's RSS with every battle and socket
//!   idle, per battle; after SECONDS more (the server evicts battles idle
//!   for 1 s in this mode), again.
//! - `storm B C`: every seat watching; the server is SIGKILLed and started
//!   again on the same port and data folder; each client backs off as
//!   `xenolog_server::client` does (250 ms plus up to 255 ms of jitter,
//!   doubling to 4 s), connects, says `hello` with its token and resumes its
//!   watch after the last entry it holds. Printed: the time from the restart
//!   (and from the kill) until every seat has its watch's reply.
//!
//! The driver runs this same executable as `load serve DATA ADDR
//! [IDLE_SECS]` for the server: `xenolog_server::run_blocking_tuned`, the
//! code `xenolog serve` runs (2 worker threads), its log to `serve.log` in
//! the temporary folder. The server's RSS and CPU time are read from
//! `/proc/PID`; the clients' CPU from `/proc/self`. Both processes still
//! share this machine's cores: the CPU split is printed so the server's
//! share can be read. One WebSocket per seat, each from its own loopback
//! address (127.x.y.1; the server allows 32 sockets per address), 4 KiB
//! read buffers and no write buffer as the server's. Games: two-seat Dice
//! Races with a target no one reaches (`hold` scores nothing).
//!
//! With `XENOLOG_LOAD_CMD_IDS=1` in the environment every command carries a
//! `cmd_id`, as the app's and the command line's do.
//!
//! **Several processes on PostgreSQL** (issue 31, `server/POSTGRES.md` §6;
//! session 18): `closed` and `open` take `--database URL [--processes N]
//! [--pg-data DIR]`. The driver makes a new database on that cluster
//! (`xenolog_load_PID`, dropped at the end), starts N server processes on
//! it (default 2; `load serve-db URL ADDR`, what `xenolog serve --database`
//! runs), the organiser on the first, and puts the two seats of each battle
//! on two different processes (battle b: seat 0 on process b mod N, seat 1
//! on the next), so every latency printed runs from a command sent to one
//! process to the entry received by a seat connected to the OTHER one (the
//! `pg_notify` hop and that process's read). CPU and RSS are summed over
//! the server processes; with `--pg-data` (the cluster's data folder) the
//! PostgreSQL processes' CPU too (the postmaster and its children, from
//! `postmaster.pid`); `XENOLOG_LOAD_KEEP=1` keeps the servers' log. After the play: the bytes the campaign schemas grew
//! by per entry written (`pg_total_relation_size` over each schema's
//! tables) and what one idle campaign takes (its schema's tables, and the
//! database's growth, catalog included, for one more campaign made).
//!
//! Session 16 (D8): this was `load_split`; the first generator, `load`
//! (sessions 13-14: the server on a runtime of its own in the load
//! generator's process), copied its connection and percentile code and is
//! gone. Its closed loop is `closed` here, its `evict` is `idle B C SECONDS`;
//! its figures mixed the clients' memory and CPU with the server's, which a
//! process of its own keeps apart.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

const USAGE: &str = "usage: load closed|open|idle|storm BATTLES CAMPAIGNS [SECONDS] [RATE] [--database URL [--processes N] [--pg-data DIR]]";

/// Where the servers keep the club: a data folder each run, or one
/// PostgreSQL database shared by several processes.
#[derive(Clone, Debug, Default)]
struct Backend {
    /// The cluster's connection string (`--database`); `None`: SQLite.
    database: Option<String>,
    processes: usize,
    /// The cluster's data folder, to count its processes' CPU.
    pg_data: Option<std::path::PathBuf>,
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("serve") {
        serve(&args[1..]);
        return;
    }
    if args.first().map(String::as_str) == Some("serve-db") {
        serve_db(&args[1..]);
        return;
    }
    let mut backend = Backend {
        processes: 1,
        ..Backend::default()
    };
    let flag = |args: &mut Vec<String>, name: &str| -> Option<String> {
        let i = args.iter().position(|a| a == name)?;
        let v = args
            .get(i + 1)
            .cloned()
            .unwrap_or_else(|| panic!("{USAGE}"));
        args.drain(i..=i + 1);
        Some(v)
    };
    if let Some(url) = flag(&mut args, "--database") {
        backend.database = Some(url);
        backend.processes = 2;
    }
    if let Some(n) = flag(&mut args, "--processes") {
        backend.processes = n.parse().unwrap_or_else(|_| panic!("{USAGE}"));
        assert!(
            backend.database.is_some() || backend.processes == 1,
            "--processes needs --database: two SQLite servers cannot share a club"
        );
    }
    backend.pg_data = flag(&mut args, "--pg-data").map(Into::into);
    let mode = args.first().cloned().unwrap_or_default();
    let num = |i: usize, default: u64| -> u64 {
        args.get(i)
            .map(|a| a.parse().unwrap_or_else(|_| panic!("{USAGE}")))
            .unwrap_or(default)
    };
    let (battles, campaigns) = (num(1, 20) as u32, num(2, 4).max(1) as u32);
    let plan = match mode.as_str() {
        "closed" => Plan::Closed {
            seconds: num(3, 10),
        },
        "open" => Plan::Open {
            seconds: num(3, 10),
            rate: num(4, 1000) as f64,
        },
        "idle" => Plan::Idle { seconds: num(3, 0) },
        "storm" => Plan::Storm,
        _ => panic!("{USAGE}"),
    };
    assert!(
        backend.database.is_none() || matches!(plan, Plan::Closed { .. } | Plan::Open { .. }),
        "--database is for closed and open"
    );
    drive(battles, campaigns, plan, &backend);
}

#[derive(Clone, Copy, Debug)]
enum Plan {
    Closed { seconds: u64 },
    Open { seconds: u64, rate: f64 },
    Idle { seconds: u64 },
    Storm,
}

/// `serve DATA ADDR [IDLE_SECS]`: the server alone, until killed.
fn serve(args: &[String]) {
    let data = args.first().expect("serve DATA ADDR").into();
    let listen: SocketAddr = args.get(1).expect("serve DATA ADDR").parse().unwrap();
    let mut tuning = xenolog_server::Tuning::default();
    if let Some(idle) = args.get(2) {
        tuning.idle_after = Duration::from_secs(idle.parse().unwrap());
        tuning.evict_every = Duration::from_millis(500);
    }
    serve_until_killed(data, listen, tuning);
}

/// `serve-db URL ADDR`: a server on a PostgreSQL database, until killed
/// (what `xenolog serve --database URL` runs).
fn serve_db(args: &[String]) {
    let url = args.first().expect("serve-db URL ADDR").clone();
    let listen: SocketAddr = args.get(1).expect("serve-db URL ADDR").parse().unwrap();
    let tuning = xenolog_server::Tuning {
        database: Some(url),
        ..xenolog_server::Tuning::default()
    };
    serve_until_killed(Default::default(), listen, tuning);
}

/// Serve on `listen` until killed, its club in `data` (or on the
/// database `tuning` names), writing `ready ADDR CODE` once it listens.
fn serve_until_killed(
    data: std::path::PathBuf,
    listen: SocketAddr,
    tuning: xenolog_server::Tuning,
) {
    xenolog_server::serve::run_blocking_tuned(
        xenolog_server::Config {
            data,
            listen,
            invite_organiser: false,
            public: None,
        },
        tuning,
        |ready| {
            let code = ready
                .invitation
                .map_or_else(|| "-".to_owned(), |i| i.code.expose().to_owned());
            println!("ready {} {code}", ready.addr);
            Ok(())
        },
    )
    .unwrap();
}

/// The server process.
struct Server {
    child: Child,
    addr: SocketAddr,
    code: String,
}

impl Server {
    fn start(dir: &Path, listen: SocketAddr, idle: Option<u64>) -> Server {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.arg("serve")
            .arg(dir.join("club"))
            .arg(listen.to_string());
        if let Some(idle) = idle {
            cmd.arg(idle.to_string());
        }
        Server::spawn(dir, cmd)
    }

    /// A server process on the PostgreSQL database `url`.
    fn start_db(dir: &Path, url: &str) -> Server {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.arg("serve-db").arg(url).arg("127.0.0.1:0");
        Server::spawn(dir, cmd)
    }

    fn spawn(dir: &Path, mut cmd: Command) -> Server {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("serve.log"))
            .unwrap();
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let mut words = line.split_whitespace().skip(1);
        let addr = words
            .next()
            .expect("the server said where")
            .parse()
            .unwrap();
        let code = words.next().unwrap_or("-").to_owned();
        Server { child, addr, code }
    }

    fn rss_kib(&self) -> u64 {
        rss_kib(&format!("/proc/{}/status", self.child.id()))
    }

    fn cpu_split(&self) -> (f64, f64) {
        cpu_split(&format!("/proc/{}/stat", self.child.id()))
    }

    /// The server's threads now (tokio's blocking pool included).
    fn threads(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.id())).map_or(0, |d| d.count())
    }

    fn run_wait_s(&self) -> f64 {
        run_wait_s(self.child.id())
    }

    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    /// A run that panics leaves no server behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server processes of a run (one, or several on one database), read
/// as one: RSS, CPU, threads and waits summed.
struct Servers(Vec<Server>);

impl Servers {
    fn rss_kib(&self) -> u64 {
        self.0.iter().map(Server::rss_kib).sum()
    }

    fn cpu_split(&self) -> (f64, f64) {
        self.0
            .iter()
            .map(Server::cpu_split)
            .fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1))
    }

    fn threads(&self) -> usize {
        self.0.iter().map(Server::threads).sum()
    }

    fn run_wait_s(&self) -> f64 {
        self.0.iter().map(Server::run_wait_s).sum()
    }

    fn pids(&self) -> Vec<u32> {
        self.0.iter().map(|s| s.child.id()).collect()
    }
}

/// The postmaster of the cluster whose data folder `--pg-data` named.
static PG_PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

/// CPU seconds of the PostgreSQL cluster's processes: the postmaster and
/// its children (backends, WAL writer, checkpointer...), those alive now.
fn pg_cpu_s() -> Option<f64> {
    let pm = *PG_PID.get()?;
    let mut total = cpu_s(&format!("/proc/{pm}/stat"));
    for p in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = p.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let path = format!("/proc/{pid}/stat");
        let stat = std::fs::read_to_string(&path).unwrap_or_default();
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, r)| r.split_whitespace().nth(1)?.parse::<u32>().ok());
        if ppid == Some(pm) {
            total += cpu_s(&path);
        }
    }
    Some(total)
}

/// The database of a run on PostgreSQL: made new on the cluster, dropped
/// with every connection to it at the end.
struct LoadDb {
    admin: String,
    name: String,
    url: String,
}

impl LoadDb {
    fn new(admin: &str) -> LoadDb {
        use xenolog_saves::db::Db;
        let name = format!("xenolog_load_{}", std::process::id());
        let pg = xenolog_saves::db::pg::Postgres::connect(admin).unwrap();
        pg.execute_batch(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .unwrap();
        pg.execute_batch(&format!("CREATE DATABASE {name} TEMPLATE template0"))
            .unwrap();
        LoadDb {
            admin: admin.to_owned(),
            url: xenolog_saves::db::pg::with_dbname(admin, &name),
            name,
        }
    }

    fn one(&self, sql: &str) -> i64 {
        use xenolog_saves::db::DbExt;
        let pg = xenolog_saves::db::pg::Postgres::connect(&self.url).unwrap();
        pg.one::<Option<i64>>(sql, &[]).unwrap().unwrap_or(0)
    }

    /// Bytes of the tables of a schema, their indexes and TOAST included.
    fn schema_bytes(&self, schema: &str) -> i64 {
        self.one(&format!(
            "SELECT sum(pg_total_relation_size(c.oid))::BIGINT FROM pg_class c \
             JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = '{schema}' AND c.relkind = 'r'"
        ))
    }

    fn campaigns_bytes(&self, campaigns: u32) -> i64 {
        (1..=campaigns)
            .map(|i| self.schema_bytes(&format!("campaign_{i}")))
            .sum()
    }

    fn entries(&self, campaigns: u32) -> i64 {
        (1..=campaigns)
            .map(|i| self.one(&format!("SELECT count(*) FROM campaign_{i}.entries")))
            .sum()
    }

    /// What one idle campaign takes: its schema's tables, and the
    /// database's growth (the catalog's rows included), each the mean of
    /// `n` campaigns made as the club server makes them.
    fn idle_campaign_bytes(&self, n: u32) -> (f64, f64) {
        let before = self.one("SELECT pg_database_size(current_database())");
        let mut tables = 0;
        for i in 0..n {
            let schema = format!("idle_probe_{i}");
            let c = xenolog_saves::Campaign::create_postgres(&self.url, &schema, "idle").unwrap();
            c.make_command_ids_table().unwrap();
            drop(c);
            tables += self.schema_bytes(&schema);
        }
        let after = self.one("SELECT pg_database_size(current_database())");
        (
            tables as f64 / f64::from(n),
            (after - before) as f64 / f64::from(n),
        )
    }
}

impl Drop for LoadDb {
    fn drop(&mut self) {
        use xenolog_saves::db::Db;
        if let Ok(pg) = xenolog_saves::db::pg::Postgres::connect(&self.admin) {
            let _ = pg.execute_batch(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

fn rss_kib(path: &str) -> u64 {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// User plus system CPU seconds of a process (all its threads).
fn cpu_s(path: &str) -> f64 {
    let (user, system) = cpu_split(path);
    user + system
}

/// User and system CPU seconds of a process (all its threads).
fn cpu_split(path: &str) -> (f64, f64) {
    let s = std::fs::read_to_string(path).unwrap_or_default();
    // Fields after the command's closing parenthesis; utime and stime are
    // the 14th and 15th of the line, the 12th and 13th after it.
    let rest = s.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    let tick = |i: usize| f.get(i).copied().unwrap_or(0) as f64 / 100.0;
    (tick(0), tick(1))
}

/// Seconds the threads of a process have waited, runnable, for a CPU
/// (`/proc/PID/task/*/schedstat`, the second field; threads that ended
/// are not counted).
fn run_wait_s(pid: u32) -> f64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0.0;
    };
    tasks
        .flatten()
        .filter_map(|t| {
            std::fs::read_to_string(t.path().join("schedstat"))
                .ok()?
                .split_whitespace()
                .nth(1)?
                .parse::<u64>()
                .ok()
        })
        .sum::<u64>() as f64
        / 1e9
}

/// One thread of a server process: what [`ThreadTable`] reads of it.
#[derive(Clone, Copy, Default)]
struct ThreadCount {
    voluntary: u64,
    involuntary: u64,
    /// Time on a CPU (`schedstat`'s first field).
    run_ns: u64,
}

/// Every thread of the server processes now, by (process, thread): its
/// group's name and counts. A thread is put in a group by its name (the
/// campaigns' writers together); tokio names its workers and its blocking
/// pool's threads alike, so the two oldest of a process are taken for its
/// two workers (they are started with the runtime, before any blocking
/// call).
struct ThreadTable(std::collections::HashMap<(u32, u32), (String, ThreadCount)>);

impl ThreadTable {
    fn read(pids: &[u32]) -> ThreadTable {
        let mut out = std::collections::HashMap::new();
        for &pid in pids {
            let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
                continue;
            };
            let mut tids: Vec<u32> = tasks
                .flatten()
                .filter_map(|t| t.file_name().to_str()?.parse().ok())
                .collect();
            tids.sort_unstable();
            let mut workers = 0;
            for tid in tids {
                let dir = format!("/proc/{pid}/task/{tid}");
                let comm = std::fs::read_to_string(format!("{dir}/comm")).unwrap_or_default();
                let comm = comm.trim();
                let group = if tid == pid {
                    "main".to_owned()
                } else if comm.starts_with("tokio-r") {
                    workers += 1;
                    if workers <= 2 {
                        "tokio workers".to_owned()
                    } else {
                        "blocking pool".to_owned()
                    }
                } else if comm.starts_with("campaign-") {
                    "campaign writers".to_owned()
                } else {
                    comm.to_owned()
                };
                let status = std::fs::read_to_string(format!("{dir}/status")).unwrap_or_default();
                let field = |name: &str| {
                    status
                        .lines()
                        .find(|l| l.starts_with(name))
                        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
                        .unwrap_or(0)
                };
                let run_ns = std::fs::read_to_string(format!("{dir}/schedstat"))
                    .ok()
                    .and_then(|s| s.split_whitespace().next()?.parse().ok())
                    .unwrap_or(0);
                let count = ThreadCount {
                    voluntary: field("voluntary_ctxt_switches:"),
                    involuntary: field("nonvoluntary_ctxt_switches:"),
                    run_ns,
                };
                out.insert((pid, tid), (group, count));
            }
        }
        ThreadTable(out)
    }

    /// Switches from `before` to this table of the threads alive now
    /// (a thread started meanwhile counted from 0): unlike the difference
    /// of two sums over the threads alive at each end, a thread that
    /// ended meanwhile (an idle blocking-pool thread let go) takes nothing
    /// off.
    fn switches_since(&self, before: &ThreadTable) -> u64 {
        self.0
            .iter()
            .map(|(key, (_, now))| {
                let was = before.0.get(key).map(|(_, c)| *c).unwrap_or_default();
                (now.voluntary + now.involuntary).saturating_sub(was.voluntary + was.involuntary)
            })
            .sum()
    }

    /// What each group did from `before` to this table, per command (`n`
    /// commands), the busiest first: threads that ended meanwhile are not
    /// counted.
    fn since(&self, before: &ThreadTable, n: usize) -> String {
        let mut groups: std::collections::BTreeMap<&str, (ThreadCount, usize)> =
            std::collections::BTreeMap::new();
        for (key, (group, now)) in &self.0 {
            let was = before.0.get(key).map(|(_, c)| *c).unwrap_or_default();
            let g = groups.entry(group.as_str()).or_default();
            g.0.voluntary += now.voluntary.saturating_sub(was.voluntary);
            g.0.involuntary += now.involuntary.saturating_sub(was.involuntary);
            g.0.run_ns += now.run_ns.saturating_sub(was.run_ns);
            g.1 += 1;
        }
        let mut rows: Vec<_> = groups.into_iter().collect();
        rows.sort_by_key(|(_, (c, _))| std::cmp::Reverse(c.voluntary + c.involuntary));
        let n = n.max(1) as f64;
        rows.iter()
            .filter(|(_, (c, _))| c.voluntary + c.involuntary > 0)
            .map(|(name, (c, threads))| {
                format!(
                    "{name} ({threads}): {:.2} switches ({:.2} voluntary), {:.0} µs",
                    (c.voluntary + c.involuntary) as f64 / n,
                    c.voluntary as f64 / n,
                    c.run_ns as f64 / 1e3 / n
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

fn uptime() -> String {
    std::fs::read_to_string("/proc/loadavg").unwrap_or_default()
}

struct Conn {
    ws: Ws,
    next: u64,
    /// The last entry this socket heard of (from entry events and watch
    /// replies).
    last: Option<u64>,
}

fn local_addr(n: u32) -> std::net::Ipv4Addr {
    std::net::Ipv4Addr::new(127, 1 + (n / 250) as u8, (n % 250) as u8 + 1, 1)
}

impl Conn {
    async fn open(addr: SocketAddr, n: u32) -> std::io::Result<Conn> {
        let sock = tokio::net::TcpSocket::new_v4()?;
        sock.bind((local_addr(n), 0).into())?;
        let stream = sock.connect(addr).await?;
        stream.set_nodelay(true)?;
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(4096)
            .write_buffer_size(0);
        let url = format!("ws://{addr}/v1/ws");
        let (ws, _) = tokio_tungstenite::client_async_with_config(
            url,
            MaybeTlsStream::Plain(stream),
            Some(config),
        )
        .await
        .map_err(std::io::Error::other)?;
        Ok(Conn {
            ws,
            next: 0,
            last: None,
        })
    }

    async fn send(&mut self, kind: &str, mut fields: Value) -> Result<u64, String> {
        self.next += 1;
        fields["v"] = json!(1);
        fields["id"] = json!(self.next);
        fields["type"] = json!(kind);
        self.ws
            .send(Message::text(fields.to_string()))
            .await
            .map_err(|e| e.to_string())?;
        Ok(self.next)
    }

    async fn frame(&mut self) -> Result<Value, String> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).map_err(|e| e.to_string())?;
                    if v["type"] == "entry"
                        && let Some(id) = v["entry"]["id"].as_u64()
                    {
                        self.last = Some(self.last.map_or(id, |l| l.max(id)));
                    }
                    return Ok(v);
                }
                Some(Ok(_)) => {}
                other => return Err(format!("the server went away: {other:?}")),
            }
        }
    }

    /// Send and wait for the reply, keeping only the last entry id of the
    /// events that come first.
    async fn ok(&mut self, kind: &str, fields: Value) -> Result<Value, String> {
        let id = self.send(kind, fields).await?;
        loop {
            let v = self.frame().await?;
            if v["re"] == json!(id) {
                if let Some(e) = v.get("err") {
                    return Err(format!("{kind}: {e}"));
                }
                return Ok(v["ok"].clone());
            }
        }
    }
}

/// One seat: its socket, token and battle.
struct Seat {
    conn: Conn,
    n: u32,
    token: String,
    battle: i64,
    seat: u8,
}

fn drive(battles: u32, campaigns: u32, plan: Plan, backend: &Backend) {
    let dir = tempfile::tempdir().unwrap();
    let idle = matches!(plan, Plan::Idle { seconds } if seconds > 0).then_some(1);
    let load_before = uptime();
    if let Some(data) = &backend.pg_data {
        let pid = std::fs::read_to_string(data.join("postmaster.pid"))
            .ok()
            .and_then(|t| t.lines().next()?.trim().parse().ok())
            .expect("--pg-data names a running cluster's data folder");
        let _ = PG_PID.set(pid);
    }
    let db = backend.database.as_deref().map(LoadDb::new);
    let mut server = Servers(vec![match &db {
        None => Server::start(dir.path(), "127.0.0.1:0".parse().unwrap(), idle),
        Some(db) => Server::start_db(dir.path(), &db.url),
    }]);
    let (addr, code) = (server.0[0].addr, server.0[0].code.clone());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // The organiser first: a process started on a club with no organiser
    // yet makes a new invitation (and the first one's is void).
    let mut org = rt.block_on(async {
        let mut org = Conn::open(addr, 0).await.unwrap();
        org.ok("redeem", json!({"code": code})).await.unwrap();
        org
    });
    if let Some(db) = &db {
        for _ in 1..backend.processes.max(1) {
            server.0.push(Server::start_db(dir.path(), &db.url));
        }
    }
    let addrs: Vec<SocketAddr> = server.0.iter().map(|s| s.addr).collect();
    let rss_empty = server.rss_kib();
    let t0 = Instant::now();
    let (seats, rss_campaigns) = rt.block_on(async {
        let mut cs = Vec::new();
        for i in 0..campaigns {
            let c = org
                .ok("create_campaign", json!({"name": format!("C{i}")}))
                .await
                .unwrap();
            cs.push(c["campaign"].as_i64().unwrap());
        }
        let rss_campaigns = server.rss_kib();
        let mut seats = Vec::new();
        let mut n = 1;
        for b in 0..battles {
            let campaign = cs[(b % campaigns) as usize];
            let battle = org
                .ok(
                    "create_battle",
                    json!({"campaign": campaign, "game": "race", "config": {"target": 1_000_000}}),
                )
                .await
                .unwrap()["battle"]
                .as_i64()
                .unwrap();
            let mut pair = Vec::new();
            for seat in 0..2u8 {
                let inv = org
                    .ok(
                        "invite",
                        json!({"role": "player", "label": "p", "campaign": campaign, "battle": battle, "seat": seat}),
                    )
                    .await
                    .unwrap();
                // Each seat of a battle on another process (with several).
                let on = addrs[(b as usize + seat as usize) % addrs.len()];
                let mut conn = Conn::open(on, n).await.unwrap();
                let r = conn
                    .ok("redeem", json!({"code": inv["code"]}))
                    .await
                    .unwrap();
                let nonce = xenolog_engine::fair::hex(&[seat + 1; 32]);
                conn.ok(
                    "join",
                    json!({"battle": battle, "seat": seat, "nonce": nonce}),
                )
                .await
                .unwrap();
                pair.push(Seat {
                    conn,
                    n,
                    token: r["token"].as_str().unwrap().to_owned(),
                    battle,
                    seat,
                });
                n += 1;
            }
            for s in &mut pair {
                let w = s
                    .conn
                    .ok(
                        "watch",
                        json!({"battle": battle, "seat": s.seat, "after": null}),
                    )
                    .await
                    .unwrap();
                s.conn.last = w["head"].as_u64().or(s.conn.last);
            }
            seats.push(pair);
        }
        drop(org);
        (seats, rss_campaigns)
    });
    eprintln!(
        "{battles} battles, {} seats ready in {:.1} s",
        battles * 2,
        t0.elapsed().as_secs_f64()
    );
    std::thread::sleep(Duration::from_secs(1));
    let rss_idle = server.rss_kib();
    println!(
        "server pid {:?}{}",
        server.pids(),
        if addrs.len() > 1 {
            format!(
                " ({} processes on one PostgreSQL database; each battle's seats on two of them)",
                addrs.len()
            )
        } else {
            String::new()
        }
    );
    let bytes_before = db.as_ref().map(|d| d.campaigns_bytes(campaigns));
    println!(
        "load before: {}server RSS: {rss_empty} KiB empty, {rss_campaigns} KiB with {campaigns} campaigns, {rss_idle} KiB with {battles} battles and {} sockets idle: {:.1} KiB per idle battle (2 sockets each)",
        load_before.trim_end().to_owned() + "; ",
        battles * 2,
        rss_idle.saturating_sub(rss_campaigns) as f64 / f64::from(battles.max(1))
    );
    match plan {
        Plan::Closed { seconds } => {
            rt.block_on(play(&server, seats, seconds, None));
        }
        Plan::Open { seconds, rate } => {
            rt.block_on(play(&server, seats, seconds, Some(rate)));
        }
        Plan::Idle { seconds } => {
            if seconds > 0 {
                std::thread::sleep(Duration::from_secs(seconds));
                let rss = server.rss_kib();
                println!(
                    "server RSS after {seconds} s more (battles idle 1 s evicted): {rss} KiB: {:.1} KiB per battle",
                    rss.saturating_sub(rss_campaigns) as f64 / f64::from(battles.max(1))
                );
            }
            drop(seats);
        }
        Plan::Storm => {
            storm(&rt, &mut server, dir.path(), seats);
        }
    }
    println!("load after: {}", uptime().trim_end());
    for s in &mut server.0 {
        s.kill();
    }
    // `XENOLOG_LOAD_KEEP=1`: the servers' log (serve.log) is kept.
    if std::env::var_os("XENOLOG_LOAD_KEEP").is_some_and(|v| v == "1") {
        println!(
            "the servers' log: {}",
            dir.keep().join("serve.log").display()
        );
    }
    if let (Some(db), Some(before)) = (&db, bytes_before) {
        let (after, entries) = (db.campaigns_bytes(campaigns), db.entries(campaigns));
        let (tables, database) = db.idle_campaign_bytes(10);
        println!(
            "PostgreSQL sizes: the {campaigns} campaign schemas grew {before} -> {after} bytes with {entries} entries: {:.0} bytes an entry (indexes included); an idle campaign: {tables:.0} bytes of tables, {database:.0} bytes of database growth with its catalog rows (mean of 10 made): {:.0} idle campaigns per GB",
            (after - before) as f64 / entries.max(1) as f64,
            1e9 / database.max(tables).max(1.0)
        );
    }
}

/// Play every battle for `seconds`: as fast as it goes (`rate` None) or at
/// `rate` commands/s in total. Returns the seats for more.
async fn play(
    server: &Servers,
    seats: Vec<Vec<Seat>>,
    seconds: u64,
    rate: Option<f64>,
) -> Vec<Vec<Seat>> {
    let battles = seats.len();
    // `XENOLOG_LOAD_CMD_IDS=1`: every command carries a `cmd_id`, as the
    // app's and the command line's do (the server then looks it up in the
    // campaign file before deciding: a resent command is answered again).
    let with_ids = std::env::var_os("XENOLOG_LOAD_CMD_IDS").is_some_and(|v| v == "1");
    let interval = rate.map(|r| Duration::from_secs_f64(battles as f64 / r));
    let cpu0 = (server.cpu_split(), cpu_s("/proc/self/stat"));
    let wait0 = server.run_wait_s();
    let threads0 = ThreadTable::read(&server.pids());
    let pg0 = pg_cpu_s();
    // The server's thread count, sampled every 100 ms while it plays.
    let threads = Arc::new(AtomicUsize::new(server.threads()));
    let sampling = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let (threads, sampling) = (threads.clone(), sampling.clone());
        let pids = server.pids();
        std::thread::spawn(move || {
            while sampling.load(Ordering::Relaxed) {
                let n = pids
                    .iter()
                    .map(|pid| {
                        std::fs::read_dir(format!("/proc/{pid}/task")).map_or(0, |d| d.count())
                    })
                    .sum();
                threads.fetch_max(n, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    let start = Instant::now();
    let end = start + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for (i, mut pair) in seats.into_iter().enumerate() {
        // Each battle's phase: spread evenly over one interval.
        let phase = interval.map_or(Duration::ZERO, |iv| iv.mul_f64(i as f64 / battles as f64));
        tasks.push(tokio::spawn(async move {
            let battle = pair[0].battle;
            let mut head = pair[0].conn.last.max(pair[1].conn.last);
            let (mut lat_sent, mut lat_due) = (Vec::new(), Vec::new());
            let mut due = start + phase;
            let mut k = 0usize;
            let mut failed = None;
            loop {
                if interval.is_some() {
                    tokio::time::sleep_until(due.into()).await;
                }
                let sent = Instant::now();
                if sent >= end {
                    break;
                }
                let intended = if interval.is_some() { due } else { sent };
                let (m, o) = (k % 2, 1 - k % 2);
                let r: Result<(), String> = async {
                    let id = pair[m]
                        .conn
                        .send(
                            "command",
                            if with_ids {
                                // As the app and the command line send
                                // them: the server looks each one up.
                                json!({"battle": battle, "seat": m, "at": head, "command": "hold",
                                       "cmd_id": format!("b{battle}-k{k}")})
                            } else {
                                json!({"battle": battle, "seat": m, "at": head, "command": "hold"})
                            },
                        )
                        .await?;
                    // The other seat's entry event (a newer entry than the head).
                    loop {
                        let v = pair[o].conn.frame().await?;
                        if v["type"] == "entry" && v["entry"]["id"].as_u64() > head {
                            lat_sent.push(sent.elapsed().as_micros() as u64);
                            lat_due.push(intended.elapsed().as_micros() as u64);
                            head = v["entry"]["id"].as_u64();
                            break;
                        }
                    }
                    loop {
                        let v = pair[m].conn.frame().await?;
                        if v["re"] == json!(id) {
                            if let Some(e) = v.get("err") {
                                return Err(format!("command refused: {e}"));
                            }
                            return Ok(());
                        }
                    }
                }
                .await;
                if let Err(e) = r {
                    failed = Some(e);
                    break;
                }
                k += 1;
                due += interval.unwrap_or_default();
            }
            (pair, lat_sent, lat_due, failed)
        }));
    }
    let (mut sent, mut due, mut failures, mut out) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for t in tasks {
        let (pair, s, d, f) = t.await.unwrap();
        sent.extend(s);
        due.extend(d);
        failures.extend(f);
        out.push(pair);
    }
    let elapsed = start.elapsed().as_secs_f64();
    sampling.store(false, Ordering::Relaxed);
    let _ = sampler.join();
    let cpu1 = (server.cpu_split(), cpu_s("/proc/self/stat"));
    let waited = server.run_wait_s() - wait0;
    let threads1 = ThreadTable::read(&server.pids());
    let pg_cpu = pg_cpu_s().zip(pg0).map(|(b, a)| b - a);
    let n = sent.len();
    println!(
        "{} for {seconds} s, {battles} battles, {} sockets: {n} durable commands, {:.0}/s{}",
        match rate {
            Some(r) => format!("open loop at {r:.0} commands/s offered"),
            None => "closed loop".to_owned(),
        },
        battles * 2,
        n as f64 / elapsed,
        if failures.is_empty() {
            String::new()
        } else {
            format!(
                "; {} battles failed, first: {}",
                failures.len(),
                failures[0]
            )
        }
    );
    let pct = |lat: &mut Vec<u64>| {
        lat.sort_unstable();
        let at = |p: f64| {
            lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1)))
                .map_or(f64::NAN, |&x| x as f64 / 1000.0)
        };
        format!(
            "p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
            at(0.5),
            at(0.99),
            at(0.999),
            at(1.0)
        )
    };
    println!(
        "latency from the send to the other seat's entry: {}",
        pct(&mut sent)
    );
    if rate.is_some() {
        println!("latency from when it was due: {}", pct(&mut due));
    }
    let (user, system) = (cpu1.0.0 - cpu0.0.0, cpu1.0.1 - cpu0.0.1);
    let (server_cpu, client_cpu) = (user + system, cpu1.1 - cpu0.1);
    let per = |x: f64| 1e6 * x / n.max(1) as f64;
    println!(
        "CPU over {elapsed:.1} s: server {server_cpu:.2} s ({:.0}% of one core; {:.0} µs a command: {:.0} user, {:.0} system; {:.1} thread switches a command), load generator {client_cpu:.2} s",
        100.0 * server_cpu / elapsed,
        per(server_cpu),
        per(user),
        per(system),
        threads1.switches_since(&threads0) as f64 / n.max(1) as f64
    );
    println!(
        "the servers' threads a command (switches, CPU): {}",
        threads1.since(&threads0, n)
    );
    if let Some(pg) = pg_cpu {
        println!(
            "PostgreSQL's processes: {pg:.2} s of CPU ({:.0}% of one core; {:.0} µs a command): {:.0} commands/s per core of the database",
            100.0 * pg / elapsed,
            per(pg),
            n as f64 / pg.max(1e-9)
        );
    }
    println!(
        "server RSS after the play: {} KiB; server threads: {} at most while playing",
        server.rss_kib(),
        threads.load(Ordering::Relaxed)
    );
    println!(
        "the server's threads waited {waited:.2} s in all for a CPU while runnable ({:.0} µs a command, summed over its threads, the blocking pool's included: other processes and the load generator held the cores)",
        per(waited)
    );
    out
}

/// A small xorshift for the clients' jitter.
fn jitter(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state % 256
}

/// The storm: kill the server, start it again on the same port and data,
/// every seat reconnects with backoff and resumes its watch.
fn storm(rt: &tokio::runtime::Runtime, servers: &mut Servers, dir: &Path, seats: Vec<Vec<Seat>>) {
    let server = &mut servers.0[0];
    let addr = server.addr;
    let count = seats.len() * 2;
    let gone = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for pair in seats {
        for mut s in pair {
            let gone = gone.clone();
            tasks.push(rt.spawn(async move {
                // Wait for the server to go.
                while s.conn.frame().await.is_ok() {}
                gone.fetch_add(1, Ordering::Relaxed);
                let lost = Instant::now();
                let mut wait = Duration::from_millis(250);
                let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ (u64::from(s.n) << 20 | 1);
                let mut tries = 0u32;
                loop {
                    tokio::time::sleep(wait + Duration::from_millis(jitter(&mut rng))).await;
                    tries += 1;
                    let r: Result<Conn, String> = async {
                        let mut c = Conn::open(addr, s.n).await.map_err(|e| e.to_string())?;
                        c.ok("hello", json!({"token": s.token, "client": "load"}))
                            .await?;
                        let w = c
                            .ok(
                                "watch",
                                json!({"battle": s.battle, "seat": s.seat, "after": s.conn.last}),
                            )
                            .await?;
                        c.last = w["head"].as_u64().or(s.conn.last);
                        Ok(c)
                    }
                    .await;
                    match r {
                        Ok(c) => {
                            s.conn = c;
                            return Ok((s, Instant::now(), tries));
                        }
                        Err(e) if lost.elapsed() > Duration::from_secs(60) => {
                            return Err(format!("not back within 60 s: {e}"));
                        }
                        Err(_) => wait = (wait * 2).min(Duration::from_secs(4)),
                    }
                }
            }));
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    let killed = Instant::now();
    server.kill();
    let dead = killed.elapsed();
    *server = Server::start(dir, addr, None);
    let ready = Instant::now();
    println!(
        "storm: server SIGKILLed ({:.0} ms until it was reaped), started again on {addr} and ready {:.0} ms after the kill",
        dead.as_secs_f64() * 1000.0,
        (ready - killed).as_secs_f64() * 1000.0
    );
    let results: Vec<_> = rt.block_on(async {
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    });
    let mut back = Vec::new();
    let mut tries = Vec::new();
    let mut failures = Vec::new();
    let mut seats = Vec::new();
    for r in results {
        match r {
            Ok((s, at, n)) => {
                back.push(at.saturating_duration_since(ready).as_secs_f64() * 1000.0);
                tries.push(n);
                seats.push(s);
            }
            Err(e) => failures.push(e),
        }
    }
    back.sort_by(f64::total_cmp);
    tries.sort_unstable();
    let last = back.last().copied().unwrap_or(f64::NAN);
    println!(
        "storm: {} of {count} seats resumed their watch ({} saw the close); the last {last:.0} ms after the restart was ready ({:.0} ms after the kill); median {:.0} ms; connection tries per seat: median {}, max {}{}",
        back.len(),
        gone.load(Ordering::Relaxed),
        last + (ready - killed).as_secs_f64() * 1000.0,
        back.get(back.len() / 2).copied().unwrap_or(f64::NAN),
        tries.get(tries.len() / 2).copied().unwrap_or(0),
        tries.last().copied().unwrap_or(0),
        if failures.is_empty() {
            String::new()
        } else {
            format!("; {} failed, first: {}", failures.len(), failures[0])
        }
    );
    // The battles go on: two seconds of play after the storm.
    if failures.is_empty() {
        let mut pairs: Vec<Vec<Seat>> = Vec::new();
        let mut it = seats.into_iter();
        while let (Some(a), Some(b)) = (it.next(), it.next()) {
            pairs.push(vec![a, b]);
        }
        rt.block_on(play(servers, pairs, 2, None));
    }
}
