//! Load generator for the club server (server/DESIGN.md section 12; figures in
//! BENCHMARKS.md). Not a test.
//!
//! `cargo run --release -p xenolog-server --example load -- BATTLES CAMPAIGNS SECONDS`
//! (defaults 20 4 10) starts a server in this process on its own runtime (2
//! worker threads, as `xenolog serve`), makes BATTLES two-seat Dice Races
//! spread over CAMPAIGNS campaigns, and connects one WebSocket per seat, each
//! from its own loopback address (127.0.x.y: the server allows 32 sockets per
//! address). Every battle then plays as fast as it can for SECONDS: the seat
//! to move sends `hold` (nobody scores, so the race never ends) and waits for
//! its reply; the time from the send to the *other* seat's `entry` event is
//! the latency. Printed: durable commands per second (counted `ok`s), latency
//! percentiles, and the process's resident memory (server and clients
//! together: an upper bound for the server's). The clients' sockets have
//! small buffers (4 KiB read, no write buffer, as the server's), so the
//! figure is mostly the server's: with tungstenite's defaults each client
//! socket alone holds a 128 KiB read buffer.
//!
//! With a fourth argument `evict`, idle battles are evicted after 1 s and
//! the memory is printed again once they are (DESIGN.md section 8).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

struct Conn {
    ws: Ws,
    next: u64,
}

impl Conn {
    async fn open(addr: std::net::SocketAddr, url: &str, n: u32) -> Conn {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        let local = std::net::Ipv4Addr::new(127, 1 + (n / 250) as u8, (n % 250) as u8 + 1, 1);
        sock.bind((local, 0).into()).unwrap();
        let stream = sock.connect(addr).await.unwrap();
        stream.set_nodelay(true).unwrap();
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(4096)
            .write_buffer_size(0);
        let (ws, _) = tokio_tungstenite::client_async_with_config(
            url,
            MaybeTlsStream::Plain(stream),
            Some(config),
        )
        .await
        .unwrap();
        Conn { ws, next: 0 }
    }

    async fn send(&mut self, kind: &str, mut fields: Value) -> u64 {
        self.next += 1;
        fields["v"] = json!(1);
        fields["id"] = json!(self.next);
        fields["type"] = json!(kind);
        self.ws
            .send(Message::text(fields.to_string()))
            .await
            .unwrap();
        self.next
    }

    async fn frame(&mut self) -> Value {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(t))) => return serde_json::from_str(t.as_str()).unwrap(),
                Some(Ok(_)) => {}
                other => panic!("the server went away: {other:?}"),
            }
        }
    }

    /// Send and wait for the reply, dropping events.
    async fn ok(&mut self, kind: &str, fields: Value) -> Value {
        let id = self.send(kind, fields).await;
        loop {
            let v = self.frame().await;
            if v["re"] == json!(id) {
                assert!(v.get("err").is_none(), "{kind}: {v}");
                return v["ok"].clone();
            }
        }
    }
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let evict = std::env::args().nth(4).is_some_and(|a| a == "evict");
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .take(3)
        .map(|a| {
            a.parse()
                .expect("numbers: BATTLES CAMPAIGNS SECONDS [evict]")
        })
        .collect();
    let battles = *args.first().unwrap_or(&20);
    let campaigns = (*args.get(1).unwrap_or(&4)).max(1);
    let seconds = *args.get(2).unwrap_or(&10);

    let dir = tempfile::tempdir().unwrap();
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut tuning = xenolog_server::Tuning::default();
    if evict {
        tuning.idle_after = Duration::from_secs(1);
        tuning.evict_every = Duration::from_millis(500);
    }
    let mut running = server_rt
        .block_on(xenolog_server::start_tuned(
            xenolog_server::Config {
                data: dir.path().join("club"),
                listen: "127.0.0.1:0".parse().unwrap(),
                invite_organiser: false,
                public: None,
            },
            tuning,
        ))
        .unwrap();
    let code = running.take_invitation().unwrap().code.expose();
    let (addr, url) = (running.addr(), running.ws_url());
    let rss_empty = rss_kib();

    let client_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    client_rt.block_on(async move {
        let mut org = Conn::open(addr, &url, 0).await;
        org.ok("redeem", json!({"code": code})).await;
        let mut cs = Vec::new();
        for i in 0..campaigns {
            let c = org.ok("create_campaign", json!({"name": format!("C{i}")})).await;
            cs.push(c["campaign"].as_i64().unwrap());
        }
        let t0 = Instant::now();
        let mut seats = Vec::new();
        let mut n = 1;
        for b in 0..battles {
            let campaign = cs[(b % campaigns) as usize];
            let battle = org
                .ok(
                    "create_battle",
                    json!({"campaign": campaign, "game": "race", "config": {"target": 1_000_000}}),
                )
                .await["battle"]
                .as_i64()
                .unwrap();
            let mut pair = Vec::new();
            for seat in 0..2u8 {
                let inv = org
                    .ok(
                        "invite",
                        json!({"role": "player", "label": "p", "campaign": campaign, "battle": battle, "seat": seat}),
                    )
                    .await;
                let mut c = Conn::open(addr, &url, n).await;
                n += 1;
                c.ok("redeem", json!({"code": inv["code"]})).await;
                let nonce = xenolog_engine::fair::hex(&[seat + 1; 32]);
                c.ok("join", json!({"battle": battle, "seat": seat, "nonce": nonce}))
                    .await;
                pair.push(c);
            }
            for (seat, c) in pair.iter_mut().enumerate() {
                // The `live` event comes before the reply (and is dropped).
                c.ok("watch", json!({"battle": battle, "seat": seat, "after": null}))
                    .await;
            }
            seats.push((battle, pair));
        }
        eprintln!(
            "{battles} battles, {} sockets ready in {:.1} s",
            battles * 2,
            t0.elapsed().as_secs_f64()
        );
        let rss_idle = rss_kib();
        let stop = Arc::new(AtomicBool::new(false));
        let start = Instant::now();
        let mut tasks = Vec::new();
        for (battle, mut pair) in seats {
            let stop = stop.clone();
            tasks.push(tokio::spawn(async move {
                let mut lat = Vec::new();
                let mut head: Option<u64> = None;
                let mut k = 0usize;
                while !stop.load(Ordering::Relaxed) {
                    let (m, o) = (k % 2, 1 - k % 2);
                    let sent = Instant::now();
                    let id = pair[m]
                        .send(
                            "command",
                            json!({"battle": battle, "seat": m, "at": head, "command": "hold"}),
                        )
                        .await;
                    // The other seat's entry event.
                    loop {
                        let v = pair[o].frame().await;
                        if v["type"] == "entry" {
                            lat.push(sent.elapsed().as_micros() as u64);
                            head = v["entry"]["id"].as_u64();
                            break;
                        }
                    }
                    loop {
                        let v = pair[m].frame().await;
                        if v["re"] == json!(id) {
                            assert!(v.get("err").is_none(), "{v}");
                            break;
                        }
                    }
                    k += 1;
                }
                lat
            }));
        }
        tokio::time::sleep(Duration::from_secs(u64::from(seconds))).await;
        stop.store(true, Ordering::Relaxed);
        let mut lat = Vec::new();
        for t in tasks {
            lat.extend(t.await.unwrap());
        }
        let elapsed = start.elapsed().as_secs_f64();
        lat.sort_unstable();
        let pct = |p: f64| lat[((lat.len() as f64 * p) as usize).min(lat.len() - 1)] as f64 / 1000.0;
        println!(
            "{battles} battles in {campaigns} campaigns, {} sockets, {seconds} s: {} durable commands, {:.0}/s",
            battles * 2,
            lat.len(),
            lat.len() as f64 / elapsed
        );
        println!(
            "latency send -> other seat's entry: p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
            pct(0.5),
            pct(0.99),
            pct(0.999),
            pct(1.0)
        );
        println!(
            "memory (server and clients in one process): {} KiB empty, {} KiB with every battle and socket idle: {:.1} KiB per battle",
            rss_empty,
            rss_idle,
            (rss_idle.saturating_sub(rss_empty)) as f64 / f64::from(battles.max(1))
        );
        if evict {
            let rss_played = rss_kib();
            println!(
                "memory after play: {} KiB: {:.1} KiB per battle",
                rss_played,
                (rss_played.saturating_sub(rss_empty)) as f64 / f64::from(battles.max(1))
            );
            // Every battle idle past `idle_after`, evicted by the next sweep.
            tokio::time::sleep(Duration::from_secs(3)).await;
            let rss_evicted = rss_kib();
            println!(
                "memory after the idle battles were evicted: {} KiB: {:.1} KiB per battle (freed memory the allocator keeps is still counted)",
                rss_evicted,
                (rss_evicted.saturating_sub(rss_empty)) as f64 / f64::from(battles.max(1))
            );
        }
    });
    server_rt.block_on(running.stop()).unwrap();
}
