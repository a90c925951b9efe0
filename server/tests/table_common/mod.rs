//! The in-process server and WebSocket client the step S7 tests share
//! (take-backs, the shared campaign): as in `protocol.rs`.

#![allow(dead_code)]

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use xenolog_server::{Config, Running, start};

pub struct Server {
    pub running: Running,
    pub organiser_code: String,
    pub data: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

pub async fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let mut running = start(Config {
        data: dir.path().join("club"),
        listen: "127.0.0.1:0".parse().unwrap(),
        invite_organiser: false,
        public: None,
    })
    .await
    .unwrap();
    let organiser_code = running
        .take_invitation()
        .expect("a first start makes an organiser invitation")
        .code
        .expose();
    Server {
        running,
        organiser_code,
        data: dir.path().join("club"),
        _dir: dir,
    }
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
        Client {
            ws,
            next: 1,
            events: Default::default(),
        }
    }

    async fn recv(&mut self) -> Value {
        let msg = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
            .await
            .expect("an answer within 10 s");
        match msg {
            Some(Ok(Message::Text(t))) => serde_json::from_str(t.as_str()).unwrap(),
            other => panic!("unexpected frame {other:?}"),
        }
    }

    /// Send a request and return its reply; events before it are kept.
    pub async fn request(&mut self, kind: &str, fields: Value) -> Value {
        let id = self.next;
        self.next += 1;
        let mut m = json!({"v": 1, "id": id, "type": kind});
        if let Value::Object(f) = fields {
            m.as_object_mut().unwrap().extend(f);
        }
        self.ws.send(Message::text(m.to_string())).await.unwrap();
        let reply = loop {
            let v = self.recv().await;
            if v.get("re").is_some() {
                break v;
            }
            self.events.push_back(v);
        };
        assert_eq!(reply["re"], json!(id), "{reply}");
        reply
    }

    pub async fn ok(&mut self, kind: &str, fields: Value) -> Value {
        let reply = self.request(kind, fields).await;
        assert!(reply.get("err").is_none(), "{kind} refused: {reply}");
        reply["ok"].clone()
    }

    pub async fn refused(&mut self, kind: &str, fields: Value, code: &str) -> String {
        let reply = self.request(kind, fields).await;
        assert_eq!(reply["err"]["code"], json!(code), "{reply}");
        let words = reply["err"]["words"].as_str().unwrap().to_owned();
        assert!(words.len() > 10, "refused in words: {reply}");
        words
    }

    /// The next event of `kind` (buffered first, then from the socket),
    /// skipping others.
    pub async fn event_of(&mut self, kind: &str) -> Value {
        loop {
            let v = match self.events.pop_front() {
                Some(v) => v,
                None => self.recv().await,
            };
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
}

/// An organiser's socket, hello said.
pub async fn organiser(s: &Server) -> Client {
    let mut c = Client::connect(s).await;
    let r = c
        .ok("redeem", json!({"code": s.organiser_code, "label": "Ola"}))
        .await;
    assert_eq!(r["role"], "organiser");
    c
}

/// A player's socket holding a redeemed seat invitation, and its token id.
pub async fn seat_player(
    s: &Server,
    org: &mut Client,
    campaign: i64,
    battle: i64,
    seat: u8,
) -> (Client, i64) {
    let inv = org
        .ok(
            "invite",
            json!({"role": "player", "label": format!("seat {seat}"), "campaign": campaign, "battle": battle, "seat": seat}),
        )
        .await;
    let mut c = Client::connect(s).await;
    let r = c.ok("redeem", json!({"code": inv["code"]})).await;
    (c, r["token_id"].as_i64().unwrap())
}

pub fn nonce(byte: u8) -> String {
    xenolog_engine::fair::hex(&[byte; 32])
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
    let campaign = org.ok("create_campaign", json!({"name": "Club"})).await["campaign"]
        .as_i64()
        .unwrap();
    let mut fields = json!({"campaign": campaign, "game": game, "config": config});
    if let Value::Object(o) = options {
        fields.as_object_mut().unwrap().extend(o);
    }
    let battle = org.ok("create_battle", fields).await["battle"]
        .as_i64()
        .unwrap();
    let (mut zero, _) = seat_player(s, org, campaign, battle, 0).await;
    let (mut one, _) = seat_player(s, org, campaign, battle, 1).await;
    zero.ok(
        "join",
        json!({"battle": battle, "seat": 0, "nonce": nonce(1)}),
    )
    .await;
    one.ok(
        "join",
        json!({"battle": battle, "seat": 1, "nonce": nonce(2)}),
    )
    .await;
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
