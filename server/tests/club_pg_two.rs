//! Several server processes, one database (issue 31, `server/POSTGRES.md`
//! §2): two servers on one PostgreSQL database, each with its own store,
//! writers, listener and sockets (what two `xenolog serve --database`
//! processes hold), seats split between them.
//!
//! - A whole game with seat 0 on server A and seat 1 on server B: each seat
//!   hears every entry of the other (through `pg_notify` and the other
//!   server's listener), once and in order, with its receipt; the stored
//!   battle verifies.
//! - Two commands raced at one head, one through each server: exactly one
//!   lands, the other is told `stale` in words; nothing is written twice.
//!
//! Runs when `XENOLOG_TEST_PG` names a cluster (`XENOLOG_REQUIRE_PG`: a
//! missing one fails); a database of its own, dropped after.

mod common;

use std::sync::Arc;

use common::{Client, PgDb, Server, new_battle, organiser_token, seat_player_token, server_on_db};
use serde_json::{Value, json};
use xenolog_server::Tuning;

/// One seat's copy of the battle, from its events.
struct Seat {
    c: Client,
    seat: u8,
    battle: i64,
    /// Its token and its server, to resume after a close.
    token: String,
    url: String,
    /// Times it resumed.
    resumed: usize,
    ids: Vec<u64>,
    receipts: Vec<String>,
    state: Value,
    over: Option<Value>,
}

impl Seat {
    /// Connect again and watch after the last entry held (its backfill
    /// then comes as entry events).
    /// (A request answered `unavailable` is given again, as the client
    /// does.)
    async fn resume(&mut self) {
        for _ in 0..40 {
            let (ws, _) = tokio_tungstenite::connect_async(&self.url).await.unwrap();
            self.c = Client::over(ws);
            // Right after the database came back a hello may be answered
            // `unavailable` too (the token is read from the club's table
            // when the listener has not caught up): given again on a new
            // socket, as the real client does.
            let hello = self.c.request("hello", json!({"token": self.token})).await;
            if hello.get("err").is_some() {
                assert_eq!(hello["err"]["code"], "unavailable", "{hello}");
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                continue;
            }
            let r = self
                .c
                .request(
                    "watch",
                    json!({"battle": self.battle, "seat": self.seat, "after": self.head()}),
                )
                .await;
            if r.get("ok").is_some() {
                self.resumed += 1;
                return;
            }
            assert_eq!(r["err"]["code"], "unavailable", "{r}");
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
        panic!("the watch is served again");
    }

    /// A command, given again (same cmd_id) after resuming if the socket
    /// was closed meanwhile.
    async fn command(&mut self, sent: Value) -> Value {
        loop {
            let r = self.c.request_or_closed("command", sent.clone()).await;
            if r.get("re").is_some() {
                return r;
            }
            self.resume().await;
        }
    }

    fn head(&self) -> Option<u64> {
        self.ids.last().copied()
    }

    /// Take events until entry `until` is held (or, with `None`, until
    /// the `live` frame of a watch).
    async fn absorb(&mut self, until: Option<u64>) {
        loop {
            if until.is_some() && self.head() >= until {
                return;
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
                    self.state = v["state"].clone();
                    if until.is_none() {
                        return;
                    }
                }
                // Closed (its server found another server wrote the
                // battle first, and resumes it from the store): the
                // client resumes after the last entry it holds, as a real
                // client does.
                _ if v.get("closed").is_some() || v.get("ended").is_some() => {
                    self.resume().await;
                }
                _ => {}
            }
        }
    }
}

/// Two servers on one new database: A (which made the club and printed
/// the organiser's invitation, redeemed) and B; the organiser's socket on A.
async fn two_servers() -> Option<(Arc<PgDb>, Server, Server, Client)> {
    let admin = common::test_pg()?;
    let db = Arc::new(PgDb::new(&admin));
    let a = server_on_db(db.clone(), Tuning::default()).await;
    assert!(!a.organiser_code.is_empty(), "the first start invites");
    let (org, _) = organiser_token(&a).await;
    let b = server_on_db(db.clone(), Tuning::default()).await;
    assert!(
        b.organiser_code.is_empty(),
        "the second server finds the club and its organiser: no new invitation"
    );
    Some((db, a, b, org))
}

/// A started race with seat 0 on `a` and seat 1 on `b`, each watching.
async fn race_on_two(a: &Server, b: &Server, org: &mut Client, target: u32) -> (i64, [Seat; 2]) {
    let (campaign, battle, _) = new_battle(org, "race", json!({"target": target}), json!({})).await;
    let (mut zero, t0) = seat_player_token(a, org, campaign, battle, 0).await;
    let (mut one, t1) = seat_player_token(b, org, campaign, battle, 1).await;
    zero.join(battle, 0, 3).await;
    let joined = one.join(battle, 1, 4).await;
    assert_eq!(joined["started"], true, "{joined}");
    let seat = |c, seat, token, url| Seat {
        c,
        seat,
        battle,
        token,
        url,
        resumed: 0,
        ids: Vec::new(),
        receipts: Vec::new(),
        state: Value::Null,
        over: None,
    };
    let mut seats = [
        seat(zero, 0, t0, a.running.ws_url()),
        seat(one, 1, t1, b.running.ws_url()),
    ];
    for s in seats.iter_mut() {
        s.c.ok(
            "watch",
            json!({"battle": battle, "seat": s.seat, "after": null}),
        )
        .await;
        s.absorb(None).await;
    }
    (battle, seats)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p4_two_servers_one_database_each_seat_hears_every_entry_of_the_other_and_it_verifies() {
    let Some((db, a, b, mut org)) = two_servers().await else {
        return;
    };
    let (battle, mut seats) = race_on_two(&a, &b, &mut org, 15).await;
    let mut commands = 0;
    while seats[0].over.is_none() {
        assert!(commands < 400, "the race ends");
        let mover = seats[0].state["to_move"].as_u64().unwrap() as usize;
        let head = seats[0].head();
        assert_eq!(head, seats[1].head(), "both seats at one head");
        let command = if seats[mover].state["turn_total"].as_u64().unwrap() >= 6 {
            json!("hold")
        } else {
            json!({"roll": {"dice": 2}})
        };
        let r = seats[mover]
            .c
            .ok(
                "command",
                json!({"battle": battle, "seat": mover, "at": head, "command": command,
                       "cmd_id": format!("c{commands}")}),
            )
            .await;
        let last = r["entries"].as_array().unwrap().last().unwrap().as_u64();
        // Each seat hears it: the mover from its own server, the other
        // from the other server, which read it after the notification.
        for s in seats.iter_mut() {
            s.absorb(last).await;
        }
        if r["over"] == true {
            for s in seats.iter_mut() {
                while s.over.is_none() {
                    let v = s.c.event().await;
                    if v["type"] == "over" {
                        s.over = Some(v);
                    }
                }
            }
        }
        commands += 1;
    }
    assert!(commands > 4, "a whole game: {commands} commands");
    assert_eq!(seats[0].ids, seats[1].ids, "both seats hold the same line");
    assert_eq!(
        seats[0].receipts, seats[1].receipts,
        "and the same receipts"
    );
    let secret =
        xenolog_engine::fair::from_hex(seats[1].over.as_ref().unwrap()["secret"].as_str().unwrap())
            .unwrap();
    let ids = seats[0].ids.clone();
    let receipts = seats[0].receipts.clone();
    drop(org);
    a.running.stop().await.unwrap();
    b.running.stop().await.unwrap();
    let (verified, fair, stored, chains) = common::with_campaign(&a.data, Some(&db), 1, |c| {
        let id = c.battles().unwrap()[0].id;
        let loaded = c.load_battle(id).unwrap();
        let chains: Vec<_> = loaded.records().iter().map(|r| r.chain).collect();
        (
            c.verify_battle(id).unwrap().problem.is_none(),
            c.fair_secret(id).unwrap(),
            loaded.path_to(loaded.cursor()),
            chains,
        )
    });
    assert!(verified, "the stored battle verifies");
    assert_eq!(fair, Some(secret));
    assert_eq!(
        stored, ids,
        "every entry stored, once, as the seats hold it"
    );
    let recomputed: Vec<String> = ids
        .iter()
        .map(|id| {
            xenolog_engine::fair::hex(&xenolog_engine::fair::receipt(
                &secret,
                &chains[*id as usize],
            ))
        })
        .collect();
    assert_eq!(
        receipts, recomputed,
        "each receipt re-derives from the secret"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p4_two_commands_raced_at_one_head_through_two_servers_one_lands_the_other_is_told_stale() {
    let Some((db, a, b, mut org)) = two_servers().await else {
        return;
    };
    let (battle, mut seats) = race_on_two(&a, &b, &mut org, 1000).await;
    // Seat 0's token on server B too: the same seat, through each server.
    let inv = org
        .ok(
            "invite",
            json!({"role": "player", "label": "seat 0 again", "campaign": 1, "battle": battle, "seat": 0}),
        )
        .await;
    let mut zero_b = Client::connect(&b).await;
    zero_b.ok("redeem", json!({"code": inv["code"]})).await;
    // And seat 1's on server A.
    let inv = org
        .ok(
            "invite",
            json!({"role": "player", "label": "seat 1 again", "campaign": 1, "battle": battle, "seat": 1}),
        )
        .await;
    let mut one_a = Client::connect(&a).await;
    one_a.ok("redeem", json!({"code": inv["code"]})).await;
    let mut landed = 0;
    for round in 0..6 {
        let mover = seats[0].state["to_move"].as_u64().unwrap() as usize;
        let head = seats[0].head();
        let (on_a, on_b) = if mover == 0 {
            (&mut seats[0].c, &mut zero_b)
        } else {
            (&mut one_a, &mut seats[1].c)
        };
        let cmd = |tag: &str| {
            json!({"battle": battle, "seat": mover, "at": head,
                   "command": {"roll": {"dice": 2}}, "cmd_id": format!("r{round}{tag}")})
        };
        let (ra, rb) = tokio::join!(
            on_a.request("command", cmd("a")),
            on_b.request("command", cmd("b"))
        );
        let oks = [&ra, &rb].iter().filter(|r| r.get("ok").is_some()).count();
        assert_eq!(oks, 1, "exactly one lands:\n{ra}\n{rb}");
        let lost = if ra.get("ok").is_some() { &rb } else { &ra };
        assert_eq!(lost["err"]["code"], "stale", "the other is told: {lost}");
        assert!(
            lost["err"]["words"]
                .as_str()
                .unwrap()
                .starts_with("the battle moved on"),
            "{lost}"
        );
        landed += 1;
        let won = if ra.get("ok").is_some() { &ra } else { &rb };
        let last = won["ok"]["entries"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .as_u64();
        for s in seats.iter_mut() {
            s.absorb(last).await;
        }
    }
    assert_eq!(landed, 6);
    assert_eq!(seats[0].ids, seats[1].ids);
    let ids = seats[0].ids.clone();
    drop(org);
    a.running.stop().await.unwrap();
    b.running.stop().await.unwrap();
    let (verified, stored) = common::with_campaign(&a.data, Some(&db), 1, |c| {
        let id = c.battles().unwrap()[0].id;
        let loaded = c.load_battle(id).unwrap();
        (
            c.verify_battle(id).unwrap().problem.is_none(),
            loaded.path_to(loaded.cursor()),
        )
    });
    assert!(verified);
    assert_eq!(stored, ids, "the winners' entries only, each once");
}

/// `pg_ctl` on the cluster this test may restart, as its owner.
fn pg_ctl(state: &str, args: &[&str]) {
    let dir = std::fs::read_to_string(state).unwrap().trim().to_owned();
    let bin = std::fs::read_dir("/usr/lib/postgresql")
        .ok()
        .and_then(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path().join("bin/pg_ctl"))
                .find(|p| p.exists())
        })
        .unwrap_or_else(|| "pg_ctl".into());
    let data = format!("{dir}/data");
    let mut all: Vec<String> = vec![bin.display().to_string(), "-D".into(), data, "-w".into()];
    all.extend(args.iter().map(|a| a.replace("{dir}", &dir)));
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    let mut cmd = if root {
        let mut c = std::process::Command::new("runuser");
        c.args(["-u", "pgtest", "--"]).args(&all);
        c
    } else {
        let mut c = std::process::Command::new(&all[0]);
        c.args(&all[1..]);
        c
    };
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "pg_ctl {args:?}: {out:?}");
}

/// PostgreSQL stopped and started again under two running servers:
/// commands meanwhile are answered `unavailable` in words and change
/// nothing; once it is back, both servers serve again without a restart
/// (the writer connects again, the listeners catch up) and the game goes
/// on to its end, each seat hearing the other's entries.
///
/// It restarts the cluster, so it runs only on one of its own:
/// `PG_STATE=/tmp/pgwire-pg.state PG_PORT=55433 tests/pg/cluster.sh start`,
/// then `XENOLOG_TEST_PG_RESTARTABLE` (its connection string),
/// `XENOLOG_TEST_PG_STATE` (its state file) and `XENOLOG_TEST_PG_PORT`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p4_postgres_restarted_under_two_servers_commands_are_unavailable_then_served_again() {
    let (Ok(url), Ok(state), Ok(port)) = (
        std::env::var("XENOLOG_TEST_PG_RESTARTABLE"),
        std::env::var("XENOLOG_TEST_PG_STATE"),
        std::env::var("XENOLOG_TEST_PG_PORT"),
    ) else {
        // CI (`.ci/run`) starts that cluster and sets XENOLOG_REQUIRE_PG:
        // there the test may not pass by skipping.
        assert!(
            std::env::var_os("XENOLOG_REQUIRE_PG").is_none(),
            "XENOLOG_REQUIRE_PG is set but XENOLOG_TEST_PG_RESTARTABLE/_STATE/_PORT are not: \
             the restart test needs a cluster of its own (see .ci/run)"
        );
        eprintln!("XENOLOG_TEST_PG_RESTARTABLE/_STATE/_PORT not set: skipped");
        return;
    };
    let db = Arc::new(PgDb::new(&url));
    let a = server_on_db(db.clone(), Tuning::default()).await;
    let (mut org, _) = organiser_token(&a).await;
    let b = server_on_db(db.clone(), Tuning::default()).await;
    let (battle, mut seats) = race_on_two(&a, &b, &mut org, 1000).await;
    let mut commands = 0;
    let play = async |seats: &mut [Seat; 2], commands: &mut u32| -> Value {
        let mover = seats[0].state["to_move"].as_u64().unwrap() as usize;
        let head = seats[0].head();
        let command = if seats[mover].state["turn_total"].as_u64().unwrap() >= 6 {
            json!("hold")
        } else {
            json!({"roll": {"dice": 2}})
        };
        let sent = json!({"battle": battle, "seat": mover, "at": head, "command": command,
                          "cmd_id": format!("c{commands}")});
        let r = seats[mover].command(sent).await;
        if r.get("ok").is_some() {
            *commands += 1;
            let last = r["ok"]["entries"]
                .as_array()
                .unwrap()
                .last()
                .unwrap()
                .as_u64();
            for s in seats.iter_mut() {
                s.absorb(last).await;
            }
        }
        r
    };
    for _ in 0..3 {
        let r = play(&mut seats, &mut commands).await;
        assert!(r.get("ok").is_some(), "{r}");
    }
    let before = seats[0].ids.clone();
    pg_ctl(&state, &["-m", "fast", "stop"]);
    for _ in 0..2 {
        let r = play(&mut seats, &mut commands).await;
        assert_eq!(r["err"]["code"], "unavailable", "{r}");
        let words = r["err"]["words"].as_str().unwrap();
        assert!(
            words.starts_with("the database is not reachable; retrying"),
            "{words}"
        );
    }
    let options = format!("-p {port} -k {{dir}} -c listen_addresses=localhost -c fsync=off");
    pg_ctl(&state, &["-l", "{dir}/server.log", "-o", &options, "start"]);
    // Served again, without a restart: the same command (its cmd_id)
    // given again until it lands.
    let mut tries = 0;
    loop {
        let r = play(&mut seats, &mut commands).await;
        if r.get("ok").is_some() {
            break;
        }
        assert_eq!(r["err"]["code"], "unavailable", "{r}");
        tries += 1;
        assert!(tries < 40, "served again within 20 s");
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    assert_eq!(&seats[0].ids[..before.len()], &before[..], "nothing lost");
    // Each of the servers' other connections finds out on its first use
    // that its database went away: that command is answered
    // `unavailable` too, and given again (as the client does by itself).
    let mut again = 0;
    for _ in 0..4 {
        loop {
            let r = play(&mut seats, &mut commands).await;
            if r.get("ok").is_some() {
                break;
            }
            assert_eq!(r["err"]["code"], "unavailable", "{r}");
            again += 1;
            assert!(again < 20, "served again");
        }
    }
    assert_eq!(seats[0].ids, seats[1].ids, "each seat heard the other's");
    let ids = seats[0].ids.clone();
    drop(org);
    a.running.stop().await.unwrap();
    b.running.stop().await.unwrap();
    let (verified, stored) = common::with_campaign(&a.data, Some(&db), 1, |c| {
        let id = c.battles().unwrap()[0].id;
        let loaded = c.load_battle(id).unwrap();
        (
            c.verify_battle(id).unwrap().problem.is_none(),
            loaded.path_to(loaded.cursor()),
        )
    });
    assert!(verified);
    assert_eq!(stored, ids);
}
