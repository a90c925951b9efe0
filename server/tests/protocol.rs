//! Protocol v1 against an in-process server on 127.0.0.1:0, with a real
//! WebSocket client: every request, and every refusal by its code.

mod common;

use common::{
    Backend, Client, SeatCopy, Server, local_config, new_battle, nonce,
    organiser_token as organiser, player, seat_player, seat_player_token, server, server_at,
    server_on, server_tuned,
};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::MaybeTlsStream;
use tokio_tungstenite::tungstenite::Message;
use xenolog_server::Tuning;
use xenolog_server::{Config, start};

/// The link of the invitation `org` makes for a player called `label`.
async fn player_link(org: &mut Client, label: &str) -> String {
    let inv = org
        .ok("invite", json!({"role": "player", "label": label}))
        .await;
    inv["link"].as_str().unwrap().to_owned()
}

/// The server's first reply to `request` on a bare WebSocket of its own to
/// `url` (a server started here, with no `Server` around it).
async fn bare_reply(url: String, request: Value) -> Value {
    let (mut c, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    c.send(Message::text(request.to_string())).await.unwrap();
    match c.next().await.unwrap().unwrap() {
        Message::Text(t) => serde_json::from_str(t.as_str()).unwrap(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn hello_with_a_redeemed_token_opens_the_club() {
    let s = server().await;
    let (_org, token) = organiser(&s).await;
    let mut c = Client::connect(&s).await;
    let r = c
        .ok("hello", json!({"token": token, "client": "test 1"}))
        .await;
    assert_eq!(r["role"], "organiser");
    assert_eq!(r["label"], "Ola");
    assert_eq!(r["protocol"], 1);
    assert_eq!(r["limits"]["max_message"], 65536);
    c.refused("hello", json!({"token": token}), "already_hello")
        .await;
    s.running.stop().await.unwrap();
}

/// Behind a router or a proxy, or listening on 0.0.0.0, the listen address
/// is not where players reach the club: links name the public address.
#[tokio::test]
async fn invitation_links_name_the_public_address_when_one_is_given() {
    let s = server_at(Some("club.example.org:8470")).await;
    let (mut org, _) = organiser(&s).await;
    let link = player_link(&mut org, "Anna").await;
    assert!(
        link.starts_with("xenolog://club.example.org:8470/join#XNLG-"),
        "{link}"
    );
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let link = player_link(&mut org, "Bo").await;
    assert!(
        link.starts_with(&format!("xenolog://{}/join#", s.running.addr())),
        "by default the listen address: {link}"
    );
    for bad in [
        "",
        "https://club.example.org",
        "club.example.org/join",
        "a b:1",
    ] {
        let why = xenolog_server::serve::check_public(bad).unwrap_err();
        assert!(why.contains("give the host and port"), "{bad}: {why}");
    }
    assert!(xenolog_server::serve::check_public("192.168.1.20:8470").is_ok());
}

/// Review of session 15, item 9: behind a reverse proxy that takes TLS the
/// server speaks plain ws, and its links must still say TLS, or clients
/// refuse to send the code. `--public-url wss://HOST:PORT` says so;
/// `ws://HOST:PORT` says plain; a bad one is refused before anything is
/// made.
#[tokio::test]
async fn behind_a_tls_proxy_a_wss_public_url_makes_links_that_say_tls() {
    let s = server_at(Some("wss://club.example.org:443")).await;
    assert_eq!(s.running.public(), "club.example.org:443");
    assert!(s.running.links_tls());
    assert!(
        s.running.ws_url().starts_with("ws://"),
        "the server speaks ws"
    );
    let (mut org, _) = organiser(&s).await;
    let link = player_link(&mut org, "Anna").await;
    assert!(
        link.starts_with("xenolog+tls://club.example.org:443/join#XNLG-"),
        "{link}"
    );
    assert!(xenolog_server::client::is_invitation_link(&link));
    let s = server_at(Some("ws://club.example.org:8470/")).await;
    assert!(!s.running.links_tls());
    let (mut org, _) = organiser(&s).await;
    let link = player_link(&mut org, "Bo").await;
    assert!(
        link.starts_with("xenolog://club.example.org:8470/join#XNLG-"),
        "{link}"
    );
    use xenolog_server::serve::{PublicUrl, parse_public};
    assert_eq!(
        parse_public("wss://club.example.org:443"),
        Ok(PublicUrl {
            host: "club.example.org:443".into(),
            tls: Some(true)
        })
    );
    for bad in ["wss://", "wss://club.example.org/ws", "http://club:1"] {
        let why = parse_public(bad).unwrap_err();
        assert!(why.contains("give the host and port"), "{bad}: {why}");
    }
    let dir = tempfile::tempdir().unwrap();
    let started = xenolog_server::start(Config {
        public: Some("https://club.example.org".into()),
        ..local_config(dir.path().join("club"))
    })
    .await;
    let Err(e) = started else {
        panic!("a bad public url is refused")
    };
    assert!(e.to_string().contains("give the host and port"), "{e}");
    assert!(!dir.path().join("club").exists(), "nothing was made");
}

#[tokio::test]
async fn ping_answers_pong_with_the_server_time() {
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let r = org.ok("ping", json!({})).await;
    assert!(r["pong"].as_u64().unwrap() > 1_700_000_000_000, "{r}");
}

#[tokio::test]
async fn anything_before_hello_is_refused_hello_first() {
    let s = server().await;
    let mut c = Client::connect(&s).await;
    for kind in ["ping", "tokens", "invite", "revoke"] {
        c.refused(kind, json!({"role": "player", "token": 1}), "hello_first")
            .await;
    }
    // The socket stays open: hello now works.
    let (_org, token) = organiser(&s).await;
    c.ok("hello", json!({"token": token})).await;
}

#[tokio::test]
async fn a_socket_that_never_says_hello_is_closed() {
    let s = server().await;
    let mut c = Client::connect(&s).await;
    let (before, code) = c.closed_with().await;
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(before[0]["err"]["code"], "hello_first");
    assert_eq!(code, Some(1008));
}

#[tokio::test]
async fn bad_json_is_refused_in_words() {
    let s = server().await;
    let mut c = Client::connect(&s).await;
    c.send_text("{\"v\":1,\"id\":1,").await;
    let r = c.recv().await;
    assert_eq!(r["err"]["code"], "bad_json", "{r}");
    assert!(
        r["err"]["words"]
            .as_str()
            .unwrap()
            .starts_with("the message is not JSON")
    );
    c.send_text("[1]").await;
    assert_eq!(c.recv().await["err"]["code"], "bad_json");
    // Still open.
    c.refused("ping", json!({}), "hello_first").await;
}

#[tokio::test]
async fn another_protocol_version_is_refused_in_words() {
    let s = server().await;
    let mut c = Client::connect(&s).await;
    c.send_text(r#"{"v":2,"id":9,"type":"ping"}"#).await;
    let r = c.recv().await;
    assert_eq!(r["re"], 9);
    assert_eq!(r["err"]["code"], "version");
    assert_eq!(
        r["err"]["words"],
        "this server speaks protocol 1, your Xenolog speaks 2: update one of them"
    );
}

#[tokio::test]
async fn an_unknown_type_is_refused_naming_the_known_ones() {
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let words = org
        .refused("launch_saucers", json!({}), "unknown_type")
        .await;
    assert!(
        words.contains("launch_saucers") && words.contains("hello"),
        "{words}"
    );
}

#[tokio::test]
async fn a_request_with_missing_fields_is_a_bad_request() {
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let words = org.refused("revoke", json!({}), "bad_request").await;
    assert!(words.contains("token"), "{words}");
    org.refused("invite", json!({"role": "emperor"}), "bad_request")
        .await;
}

#[tokio::test]
async fn an_oversized_message_is_refused_and_the_socket_closed_1009() {
    let s = server().await;
    let mut c = Client::connect(&s).await;
    let big = format!(
        r#"{{"v":1,"id":1,"type":"ping","pad":"{}"}}"#,
        "x".repeat(70 * 1024)
    );
    c.send_text(big).await;
    let (before, code) = c.closed_with().await;
    assert_eq!(before[0]["err"]["code"], "too_big", "{before:?}");
    assert_eq!(before[0]["err"]["words"], "a message may be at most 64 KiB");
    assert_eq!(code, Some(1009));
}

#[tokio::test]
async fn a_binary_frame_is_refused() {
    let s = server().await;
    let mut c = Client::connect(&s).await;
    c.send_message(Message::binary(vec![1u8, 2, 3])).await;
    let r = c.recv().await;
    assert_eq!(r["err"]["code"], "binary", "{r}");
}

#[tokio::test]
async fn an_unknown_token_is_refused_and_the_socket_closed() {
    let s = server().await;
    let mut c = Client::connect(&s).await;
    c.refused("hello", json!({"token": "xnl_p_guess"}), "bad_token")
        .await;
    let (_, code) = c.closed_with().await;
    assert_eq!(code, Some(1008));
}

#[tokio::test]
async fn an_invitation_is_redeemed_once() {
    let s = server().await;
    let (_org, _) = organiser(&s).await;
    let mut c = Client::connect(&s).await;
    let words = c
        .refused("redeem", json!({"code": s.organiser_code}), "bad_code")
        .await;
    assert!(words.contains("already used"), "{words}");
    let words = c
        .refused("redeem", json!({"code": "hello"}), "bad_code")
        .await;
    assert!(words.contains("XNLG-XXXX"), "{words}");
    c.refused(
        "redeem",
        json!({"code": "XNLG-AAAA-AAAA-AAAA-AAAA-AAAA"}),
        "bad_code",
    )
    .await;
}

#[tokio::test]
async fn the_organiser_invites_a_player_who_may_not_organise() {
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let inv = org
        .ok(
            "invite",
            json!({"role": "player", "label": "Anna", "days": 3}),
        )
        .await;
    let code = inv["code"].as_str().unwrap();
    assert!(code.starts_with("XNLG-") && code.len() == 29, "{inv}");
    assert_eq!(
        inv["link"],
        json!(format!("xenolog://{}/join#{code}", s.running.addr()))
    );
    org.refused(
        "invite",
        json!({"role": "player", "days": 90}),
        "bad_request",
    )
    .await;
    org.refused(
        "invite",
        json!({"role": "player", "campaign": 1, "battle": 1, "seat": 0}),
        "not_found",
    )
    .await;
    let mut anna = Client::connect(&s).await;
    let r = anna.ok("redeem", json!({"code": code})).await;
    assert_eq!(r["role"], "player");
    assert!(r["token"].as_str().unwrap().starts_with("xnl_p_"));
    for (kind, fields) in [
        ("invite", json!({"role": "organiser"})),
        ("tokens", json!({})),
        ("revoke", json!({"token": 1})),
    ] {
        let words = anna.refused(kind, fields, "forbidden").await;
        assert!(words.contains("only an organiser"), "{words}");
    }
    anna.ok("ping", json!({})).await;
}

#[tokio::test]
async fn tokens_lists_every_token_but_never_the_token() {
    let s = server().await;
    let (mut org, org_token) = organiser(&s).await;
    let (_anna, anna_token, anna_id) = player(&s, &mut org, "Anna").await;
    let r = org.ok("tokens", json!({})).await;
    let list = r["tokens"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[1]["id"], anna_id);
    assert_eq!(list[1]["label"], "Anna");
    assert_eq!(list[1]["role"], "player");
    assert!(list[1]["revoked"].is_null());
    let text = r.to_string();
    assert!(!text.contains(&org_token) && !text.contains(&anna_token[6..]));
}

#[tokio::test]
async fn revoke_closes_the_tokens_sockets_and_it_opens_nothing_after() {
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let (mut anna, anna_token, anna_id) = player(&s, &mut org, "Anna").await;
    let mut anna2 = Client::connect(&s).await;
    anna2.ok("hello", json!({"token": anna_token})).await;
    let r = org.ok("revoke", json!({"token": anna_id})).await;
    assert_eq!(r["closed"], 2);
    assert!(r["token"]["revoked"].is_i64());
    for c in [&mut anna, &mut anna2] {
        let (before, code) = c.closed_with().await;
        assert_eq!(before[0]["type"], "notice", "{before:?}");
        assert_eq!(before[0]["code"], "revoked");
        assert_eq!(
            before[0]["words"],
            "this token was revoked by the organiser"
        );
        assert_eq!(code, Some(1008));
    }
    let mut again = Client::connect(&s).await;
    let words = again
        .refused("hello", json!({"token": anna_token}), "bad_token")
        .await;
    assert!(words.contains("revoked"), "{words}");
    org.refused("revoke", json!({"token": 99}), "not_found")
        .await;
    // The organiser's own socket is untouched.
    org.ok("ping", json!({})).await;
}

#[tokio::test]
async fn stopping_tells_every_socket_and_closes_it_1001() {
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let mut waiting = Client::connect(&s).await;
    let url = s.running.ws_url();
    let stopped = tokio::spawn(s.running.stop());
    for c in [&mut org, &mut waiting] {
        let (before, code) = c.closed_with().await;
        assert_eq!(before[0]["type"], "notice", "{before:?}");
        assert_eq!(before[0]["code"], "stopping");
        assert_eq!(code, Some(1001));
    }
    stopped.await.unwrap().unwrap();
    assert!(
        tokio_tungstenite::connect_async(url).await.is_err(),
        "a stopped server accepts no connection"
    );
}

#[tokio::test]
async fn a_restarted_server_keeps_its_tokens_and_prints_no_new_invitation() {
    let dir = tempfile::tempdir().unwrap();
    let config = local_config(dir.path().to_owned());
    let mut first = start(config.clone()).await.unwrap();
    let code = first.take_invitation().unwrap().code.expose();
    let redeem = json!({"v":1,"id":1,"type":"redeem","code":code});
    let reply = bare_reply(first.ws_url(), redeem).await;
    let token = reply["ok"]["token"].as_str().unwrap().to_owned();
    first.stop().await.unwrap();

    let mut second = start(config.clone()).await.unwrap();
    assert!(
        second.take_invitation().is_none(),
        "the club has its organiser"
    );
    let hello = json!({"v":1,"id":1,"type":"hello","token":token});
    let reply = bare_reply(second.ws_url(), hello).await;
    assert_eq!(reply["ok"]["role"], "organiser", "{reply}");
    second.stop().await.unwrap();

    let mut third = start(Config {
        invite_organiser: true,
        ..config
    })
    .await
    .unwrap();
    assert!(third.take_invitation().is_some(), "--invite-organiser");
    third.stop().await.unwrap();
}

/// Review of session 16: a second `xenolog serve` on the same club folder
/// would hold the tokens apart from the first (a token revoked on one
/// would still open the other). It is refused in words naming the folder;
/// once the first has stopped, the folder serves again at once.
#[tokio::test]
async fn a_second_server_on_the_same_club_folder_is_refused_while_the_first_runs() {
    let dir = tempfile::tempdir().unwrap();
    let config = local_config(dir.path().to_owned());
    let first = start(config.clone()).await.unwrap();
    let words = match start(config.clone()).await {
        Ok(_) => panic!("two servers on one club folder"),
        Err(e) => e.to_string(),
    };
    assert!(
        words.contains("another xenolog serve holds this club folder"),
        "{words}"
    );
    assert!(words.contains(&dir.path().display().to_string()), "{words}");
    // The first still serves.
    let reply = bare_reply(first.ws_url(), json!({"v":1,"id":1,"type":"ping"})).await;
    assert_eq!(reply["re"], 1, "{reply}");
    first.stop().await.unwrap();
    let second = start(config)
        .await
        .expect("the folder is free once stopped");
    second.stop().await.unwrap();
}

#[tokio::test]
async fn health_says_ok_and_the_protocol() {
    let s = server().await;
    let mut tcp = TcpStream::connect(s.running.addr()).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    tcp.write_all(b"GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut text = String::new();
    tcp.read_to_string(&mut text).await.unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(
        text.ends_with("ok: xenolog club server, protocol 1"),
        "{text}"
    );
}

#[tokio::test]
async fn two_seats_join_with_nonces_and_the_battle_starts_with_their_fair_seed() {
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let c = org
        .ok("create_campaign", json!({"name": "Club nights"}))
        .await;
    let campaign = c["campaign"].as_i64().unwrap();
    let b = org
        .ok(
            "create_battle",
            json!({"campaign": campaign, "game": "race", "config": {"target": 20}, "title": "Race night"}),
        )
        .await;
    let battle = b["battle"].as_i64().unwrap();
    assert_eq!(b["seats"].as_array().unwrap().len(), 2, "{b}");
    let commitment = b["commitment"].as_str().unwrap().to_owned();
    assert_eq!(commitment.len(), 64);

    let mut anna = seat_player(&s, &mut org, campaign, battle, 0).await;
    let mut ben = seat_player(&s, &mut org, campaign, battle, 1).await;
    let words = anna
        .refused(
            "join",
            json!({"battle": battle, "seat": 1, "nonce": nonce(1)}),
            "forbidden",
        )
        .await;
    assert_eq!(
        words,
        format!("your invitation opens seat 1 of battle {battle}, not seat 2")
    );
    org.refused(
        "join",
        json!({"battle": battle, "seat": 0, "nonce": nonce(1)}),
        "forbidden",
    )
    .await;
    anna.refused(
        "join",
        json!({"battle": battle, "seat": 0, "nonce": "abc"}),
        "bad_request",
    )
    .await;

    let j = anna.join(battle, 0, 7).await;
    assert_eq!(j["commitment"], json!(commitment));
    assert_eq!(j["joined"], json!([0]));
    assert_eq!(j["started"], false);
    // The same nonce again is answered as the first time; another is refused.
    anna.join(battle, 0, 7).await;
    let words = anna
        .refused(
            "join",
            json!({"battle": battle, "seat": 0, "nonce": nonce(8)}),
            "joined",
        )
        .await;
    assert!(words.contains("already gave its nonce"), "{words}");

    let j = ben.join(battle, 1, 9).await;
    assert_eq!(j["joined"], json!([0, 1]));
    assert_eq!(j["started"], true);
    s.running.stop().await.unwrap();

    // The campaign file holds the started battle with its fair seed: the
    // commitment published at creation and both nonces; the secret is held
    // by the server's copy, not revealed.
    let file = s.data.join("campaigns/1.xenolog");
    let copy = xenolog_saves::Campaign::open_read_only(&file).unwrap();
    let battles = copy.battles().unwrap();
    assert_eq!(battles.len(), 1);
    assert_eq!(battles[0].title, "Race night");
    let loaded = copy.load_battle(battles[0].id).unwrap();
    let fair = loaded.meta().fair.clone().expect("a fair seed");
    assert_eq!(xenolog_engine::fair::hex(&fair.commitment), commitment);
    let nonces: Vec<(u8, u8)> = fair.nonces.iter().map(|n| (n.seat.0, n.nonce[0])).collect();
    assert_eq!(nonces, [(0, 7), (1, 9)]);
    assert_eq!(copy.fair_secret(battles[0].id).unwrap(), None);
}

#[tokio::test]
async fn creating_campaigns_and_battles_is_the_organisers_and_checked() {
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let (mut anna, _, _) = player(&s, &mut org, "Anna").await;
    anna.refused("create_campaign", json!({"name": "Mine"}), "forbidden")
        .await;
    anna.refused(
        "create_battle",
        json!({"campaign": 1, "game": "race"}),
        "forbidden",
    )
    .await;
    org.refused("create_campaign", json!({"name": " "}), "bad_request")
        .await;
    org.refused(
        "create_battle",
        json!({"campaign": 1, "game": "race"}),
        "not_found",
    )
    .await;
    let c = org.ok("create_campaign", json!({"name": "Club"})).await;
    let campaign = c["campaign"].as_i64().unwrap();
    let words = org
        .refused(
            "create_battle",
            json!({"campaign": campaign, "game": "chess"}),
            "bad_request",
        )
        .await;
    assert!(words.contains("chess"), "{words}");
    let b = org
        .ok(
            "create_battle",
            json!({"campaign": campaign, "game": "race"}),
        )
        .await;
    let battle = b["battle"].as_i64().unwrap();
    org.refused(
        "invite",
        json!({"role": "player", "campaign": campaign, "battle": battle, "seat": 2}),
        "not_found",
    )
    .await;
    org.refused(
        "invite",
        json!({"role": "player", "campaign": campaign, "battle": battle}),
        "bad_request",
    )
    .await;
    org.refused(
        "join",
        json!({"battle": battle + 5, "seat": 0, "nonce": nonce(1)}),
        "forbidden",
    )
    .await;
}

#[tokio::test]
async fn a_race_is_played_to_the_end_through_the_server_and_its_dice_verify() {
    race_to_the_end_verified(Backend::Sqlite).await;
}

/// The same on PostgreSQL (issue 31: one suite, two backends).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p4_a_race_is_played_to_the_end_through_the_server_on_postgres_and_its_dice_verify() {
    race_to_the_end_verified(Backend::Postgres).await;
}

async fn race_to_the_end_verified(backend: Backend) {
    let Some(s) = server_on(backend).await else {
        return;
    };
    let (mut org, _) = organiser(&s).await;
    let (campaign, battle, b) =
        new_battle(&mut org, "race", json!({"target": 15}), json!({})).await;
    // Every battle frame names its game.
    assert_eq!(b["game"], "race", "{b}");
    let commitment = b["commitment"].as_str().unwrap().to_owned();
    let mut seats = Vec::new();
    for seat in 0..2u8 {
        let (mut c, token) = seat_player_token(&s, &mut org, campaign, battle, seat).await;
        c.refused(
            "watch",
            json!({"battle": battle, "seat": seat, "after": null}),
            "not_started",
        )
        .await;
        seats.push(SeatCopy::new(c, token, seat));
    }
    for (seat, copy) in seats.iter_mut().enumerate() {
        copy.c.join(battle, seat as u8, 3 + seat as u8).await;
    }
    for copy in seats.iter_mut() {
        let w = copy
            .c
            .ok(
                "watch",
                json!({"battle": battle, "seat": copy.seat, "after": null}),
            )
            .await;
        assert_eq!(w["battle"], battle);
        assert_eq!(w["game"], "race", "{w}");
        copy.absorb(None).await;
        let st = copy
            .c
            .ok("state", json!({"battle": battle, "seat": copy.seat}))
            .await;
        assert_eq!(st["game"], "race", "{st}");
    }
    let list = org.ok("campaigns", json!({})).await;
    let listed = &list["campaigns"][0]["battles"][0];
    assert_eq!(listed["game"], "race", "{list}");
    // Only your own seat, only at the head, only by the rules.
    seats[0]
        .c
        .refused(
            "command",
            json!({"battle": battle, "seat": 1, "at": null, "command": "hold"}),
            "forbidden",
        )
        .await;

    let mut commands = 0;
    while seats[0].over.is_none() {
        assert!(commands < 400, "the race ends");
        let mover = seats[0].state["to_move"].as_u64().unwrap() as usize;
        let other = 1 - mover;
        let head = seats[mover].head();
        let command = common::race_move(&seats[mover].state);
        if commands == 0 {
            // `legal`: the mover's commands as `xenolog legal --json` prints
            // them; the other seat is offered nothing while it waits.
            let l = seats[mover]
                .c
                .ok("legal", json!({"battle": battle, "seat": mover}))
                .await;
            let legal = l["legal"].as_array().unwrap();
            assert!(legal.len() >= 2, "{l}");
            assert!(legal.iter().all(|c| c["actor"] == mover as u64), "{l}");
            assert!(legal.iter().any(|c| c["command"] == json!("hold")), "{l}");
            assert!(
                legal
                    .iter()
                    .all(|c| !c["text"].as_str().unwrap().is_empty())
            );
            let l = seats[other]
                .c
                .ok("legal", json!({"battle": battle, "seat": other}))
                .await;
            assert_eq!(l["legal"], json!([]), "{l}");
        }
        if commands == 4 {
            // `state`: the seat's view at the head (as `xenolog state --json`),
            // at the setup, and a refusal in words for an entry not there.
            let st = seats[other]
                .c
                .ok("state", json!({"battle": battle, "seat": other}))
                .await;
            assert_eq!(st["at"], json!(head), "{st}");
            assert_eq!(st["state"], seats[other].state, "{st}");
            let setup = seats[other]
                .c
                .ok(
                    "state",
                    json!({"battle": battle, "seat": other, "at": null}),
                )
                .await;
            assert_eq!(setup["at"], Value::Null, "{setup}");
            let words = seats[other]
                .c
                .refused(
                    "state",
                    json!({"battle": battle, "seat": other, "at": 9999}),
                    "not_found",
                )
                .await;
            assert!(words.contains("no entry 9999"), "{words}");
            assert_ne!(setup["state"], st["state"], "the setup is not the head");
        }
        if commands == 1 {
            let words = seats[other]
                .c
                .refused(
                    "command",
                    json!({"battle": battle, "seat": other, "at": head, "command": "hold"}),
                    "refused",
                )
                .await;
            assert!(words.contains("turn") || words.contains("not"), "{words}");
        }
        let sent = common::command_fields(battle, mover, head, command, format!("c{commands}"));
        let r = seats[mover].c.ok("command", sent.clone()).await;
        let last = common::last_entry(&r);
        if commands == 3 {
            // The same command id again (a reply lost, the command resent):
            // nothing is decided, the first entries are the answer.
            let again = seats[mover].c.ok("command", sent.clone()).await;
            assert_eq!(again["entries"], r["entries"], "{again}");
            assert!(
                again["again"]
                    .as_str()
                    .unwrap()
                    .starts_with("already done: entry"),
                "{again}"
            );
            let mut bad = sent.clone();
            bad["cmd_id"] = json!("not an id!");
            seats[mover].c.refused("command", bad, "bad_request").await;
        }
        // The sender holds its entries before the reply.
        assert_eq!(
            seats[mover]
                .c
                .events
                .iter()
                .filter(|e| e["type"] == "entry")
                .count(),
            r["entries"].as_array().unwrap().len(),
            "{r}"
        );
        seats[mover].absorb(last).await;
        // (Unless that command ended the race: the dice come from a fresh
        // secret each run, and 2+3 then 6+6 held at the third command wins;
        // an ended battle refuses as `over` before it looks at the head.)
        if commands == 2 && r["over"] != true {
            // A command against an entry that is no longer the head.
            let words = seats[mover]
                .c
                .refused(
                    "command",
                    json!({"battle": battle, "seat": mover, "at": head, "command": "hold"}),
                    "stale",
                )
                .await;
            assert!(words.starts_with("the battle moved on"), "{words}");
        }
        if commands == 5 {
            // The other seat drops its connection and resumes from the last
            // entry it holds: no gap, no duplicate.
            let held = seats[other].head();
            let token = seats[other].token.clone();
            let mut c = Client::connect(&s).await;
            c.ok("hello", json!({"token": token})).await;
            let old = std::mem::replace(&mut seats[other].c, c);
            drop(old);
            let seat = seats[other].seat;
            seats[other]
                .c
                .ok(
                    "watch",
                    json!({"battle": battle, "seat": seat, "after": held}),
                )
                .await;
            seats[other].absorb(None).await;
        } else {
            seats[other].absorb(last).await;
        }
        if r["over"] == true {
            for copy in seats.iter_mut() {
                if copy.over.is_none() {
                    let v = copy.c.event().await;
                    assert_eq!(
                        v["type"], "over",
                        "seat {}: the over event follows the last entry: {v}",
                        copy.seat
                    );
                    copy.over = Some(v);
                }
            }
        }
        commands += 1;
    }
    assert_eq!(seats[0].ids, seats[1].ids, "both seats hold the same line");
    let over = seats[1].over.clone().unwrap();
    let secret = xenolog_engine::fair::from_hex(over["secret"].as_str().unwrap()).unwrap();
    assert_eq!(
        xenolog_engine::fair::hex(&xenolog_engine::fair::commitment(&secret)),
        commitment,
        "the revealed secret is the one committed to"
    );
    assert!(!over["outcome"]["winners"].as_array().unwrap().is_empty());
    let end = seats[0].head();
    seats[0]
        .c
        .refused(
            "command",
            json!({"battle": battle, "seat": 0, "at": end, "command": "hold"}),
            "over",
        )
        .await;
    let Server {
        running, pg, data, ..
    } = s;
    running.stop().await.unwrap();

    // The campaign's battle replays from the revealed seed, and its
    // export carries the secret.
    let (verified, fair, ids, chains) = common::with_campaign(&data, pg.as_deref(), 1, |copy| {
        let id = copy.battles().unwrap()[0].id;
        let loaded = copy.load_battle(id).unwrap();
        let ids: Vec<u64> = loaded.path_to(loaded.cursor());
        let chains: Vec<_> = loaded.records().iter().map(|r| r.chain).collect();
        (
            copy.verify_battle(id).unwrap().problem.is_none(),
            copy.fair_secret(id).unwrap(),
            ids,
            chains,
        )
    });
    assert!(verified);
    assert_eq!(fair, Some(secret));
    assert_eq!(ids, seats[0].ids, "the clients hold every entry, once");
    // Receipts: what each seat kept is what the revealed secret recomputes
    // from the battle as stored (section 5.4).
    let recomputed = common::receipts(&secret, &chains, &ids);
    for copy in &seats {
        assert_eq!(
            copy.receipts, recomputed,
            "seat {}: its kept receipts re-derive from the revealed secret",
            copy.seat
        );
    }
    assert_ne!(recomputed[0], recomputed[1], "one receipt per entry");
}

#[tokio::test]
async fn another_seats_hand_never_reaches_a_seat_by_any_request() {
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let (campaign, battle, _) = new_battle(&mut org, "highcard", json!({}), json!({})).await;
    let mut zero = seat_player(&s, &mut org, campaign, battle, 0).await;
    let mut one = seat_player(&s, &mut org, campaign, battle, 1).await;
    zero.join(battle, 0, 1).await;
    one.join(battle, 1, 2).await;
    // The deal was played when the battle started: seat 0 holds three cards.
    zero.ok("watch", json!({"battle": battle, "seat": 0, "after": null}))
        .await;
    let mut hand = Vec::new();
    while let Some(v) = zero.events.pop_front() {
        if v["type"] == "live" {
            hand = v["state"]["hands"][0].as_array().unwrap().clone();
        }
    }
    assert_eq!(hand.len(), 3);
    assert!(hand.iter().all(|c| c.as_u64().unwrap() > 0), "{hand:?}");

    // Seat 1 asks for seat 0 by every request that takes a seat.
    let mut received = Vec::new();
    for (kind, fields) in [
        ("watch", json!({"battle": battle, "seat": 0, "after": null})),
        (
            "command",
            json!({"battle": battle, "seat": 0, "at": null, "command": {"lay": {"card": 1}}}),
        ),
        (
            "join",
            json!({"battle": battle, "seat": 0, "nonce": nonce(1)}),
        ),
        ("legal", json!({"battle": battle, "seat": 0})),
        ("state", json!({"battle": battle, "seat": 0})),
    ] {
        let r = one.request(kind, fields).await;
        assert_eq!(r["err"]["code"], "forbidden", "{kind}: {r}");
        received.push(r);
    }
    // Its own seat's legal commands name its own cards only.
    let mine = one.ok("legal", json!({"battle": battle, "seat": 1})).await;
    assert!(
        mine["legal"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["actor"] == 1),
        "{mine}"
    );
    received.push(mine);
    // Its own seat's watch: every state shows seat 0's hand hidden.
    one.ok("watch", json!({"battle": battle, "seat": 1, "after": null}))
        .await;
    let frames: Vec<Value> = one.events.drain(..).collect();
    assert!(
        frames.iter().any(|f| f["type"] == "entry"),
        "the deal is sent"
    );
    for f in &frames {
        if f["type"] == "entry" || f["type"] == "live" {
            let theirs = f["state"]["hands"][0].as_array().unwrap();
            assert!(
                theirs.iter().all(|c| c == 0),
                "seat 0's hand reached seat 1: {f}"
            );
        }
        if f["type"] == "entry" {
            for e in f["entry"]["events"].as_array().unwrap() {
                let words = e.as_str().unwrap();
                assert!(!words.contains(&format!("{hand:?}")), "{words}");
            }
        }
    }
    received.extend(frames);
    let all = serde_json::to_string(&received).unwrap();
    let shown = serde_json::to_string(&hand).unwrap();
    assert!(
        !all.contains(&shown),
        "seat 0's hand {shown} in what seat 1 received"
    );
}

#[tokio::test]
async fn an_address_may_guess_five_codes_a_minute() {
    let s = server().await;
    let mut c = Client::connect(&s).await;
    for _ in 0..5 {
        c.refused(
            "redeem",
            json!({"code": "XNLG-AAAA-AAAA-AAAA-AAAA-AAAA"}),
            "bad_code",
        )
        .await;
    }
    let words = c
        .refused("redeem", json!({"code": s.organiser_code}), "rate")
        .await;
    assert!(words.contains("at most 5 a minute"), "{words}");
    // The limit is the address's, not the socket's.
    let mut other = Client::connect(&s).await;
    other
        .refused("hello", json!({"token": "xnl_o_guess"}), "rate")
        .await;
}

#[tokio::test]
async fn the_33rd_socket_from_one_address_is_refused_in_words() {
    let s = server().await;
    let mut open = Vec::new();
    for _ in 0..32 {
        open.push(Client::connect(&s).await);
    }
    let refused = tokio_tungstenite::connect_async(s.running.ws_url()).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            assert_eq!(r.status(), 429);
            let body =
                String::from_utf8_lossy(r.body().as_deref().unwrap_or_default()).into_owned();
            assert!(body.contains("at most 32"), "{body}");
        }
        other => panic!("the 33rd socket was not refused: {other:?}"),
    }
    // One closes: another may open, once the server has seen it close (on
    // its own time: asked again while refused, 30 s at the most).
    drop(open.pop());
    let until = std::time::Instant::now() + Duration::from_secs(30);
    let ws = loop {
        match tokio_tungstenite::connect_async(s.running.ws_url()).await {
            Ok((ws, _)) => break ws,
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) if r.status() == 429 => {
                assert!(
                    std::time::Instant::now() < until,
                    "a socket may open again after one of the 32 closed"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("the socket after one closed: {e}"),
        }
    };
    let mut again = Client::over(ws);
    again.refused("ping", json!({}), "hello_first").await;
}

/// A client whose socket takes in little: its kernel receive buffer is
/// as small as the system allows, so a server writing to it fills up soon.
async fn small_client(s: &Server) -> Client {
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(2048).unwrap();
    let stream = sock.connect(s.running.addr()).await.unwrap();
    let (ws, _) =
        tokio_tungstenite::client_async(s.running.ws_url(), MaybeTlsStream::Plain(stream))
            .await
            .unwrap();
    Client::over(ws)
}

#[tokio::test]
async fn a_socket_that_stops_reading_is_closed_in_words_and_resumes_without_a_gap() {
    let s = server_tuned(Tuning {
        socket_queue: 8,
        send_buffer: Some(4096),
        ..Default::default()
    })
    .await;
    let (mut org, _) = organiser(&s).await;
    let (campaign, battle, _) =
        new_battle(&mut org, "race", json!({"target": 1000}), json!({})).await;
    // One player holds both seats; a second token watches seat 1 and stops reading.
    let mut fast = seat_player(&s, &mut org, campaign, battle, 0).await;
    let inv = org
        .ok(
            "invite",
            json!({"role": "player", "label": "both", "campaign": campaign, "battle": battle, "seat": 1}),
        )
        .await;
    fast.ok("redeem", json!({"code": inv["code"]})).await;
    let (_, slow_token) = seat_player_token(&s, &mut org, campaign, battle, 1).await;
    for seat in 0..2u8 {
        fast.join(battle, seat, 20 + seat).await;
    }
    let mut slow = small_client(&s).await;
    slow.ok("hello", json!({"token": slow_token})).await;
    slow.ok("watch", json!({"battle": battle, "seat": 1, "after": null}))
        .await;
    assert_eq!(slow.event().await["type"], "live");

    // Every command holds (the race never ends); the slow seat reads nothing.
    let mut head: Option<u64> = None;
    let commands = 300u64;
    for n in 0..commands {
        let r = fast
            .ok(
                "command",
                json!({"battle": battle, "seat": n % 2, "at": head, "command": "hold"}),
            )
            .await;
        head = common::last_entry(&r);
    }
    let head = head.unwrap();

    // It reads now: a run of entries with no gap, then the words, then the close.
    let mut got: Vec<u64> = Vec::new();
    let (frames, code) = slow.closed_with().await;
    let mut told = None;
    for f in &frames {
        match f["type"].as_str() {
            Some("entry") => got.push(f["entry"]["id"].as_u64().unwrap()),
            Some("notice") => told = Some(f.clone()),
            _ => panic!("unexpected frame {f}"),
        }
    }
    let told = told.expect("the slow socket is told why before it is closed");
    assert_eq!(told["words"], xenolog_server::TOO_SLOW, "{told}");
    assert_eq!(code, Some(1008));
    assert!(
        (got.len() as u64) < commands,
        "the slow socket was closed before the end: it held {} of {commands}",
        got.len()
    );
    assert_eq!(got, (0..got.len() as u64).collect::<Vec<_>>(), "no gap");
    eprintln!(
        "the slow socket took {} entries before it was closed",
        got.len()
    );

    // It resumes from the last entry it holds: exactly the rest, once.
    let mut back = Client::connect(&s).await;
    back.ok("hello", json!({"token": slow_token})).await;
    let last = got.last().copied();
    back.ok("watch", json!({"battle": battle, "seat": 1, "after": last}))
        .await;
    loop {
        let v = back.event().await;
        match v["type"].as_str() {
            Some("entry") => got.push(v["entry"]["id"].as_u64().unwrap()),
            Some("live") => {
                assert_eq!(v["head"].as_u64(), Some(head));
                break;
            }
            _ => panic!("unexpected frame {v}"),
        }
    }
    assert_eq!(got, (0..=head).collect::<Vec<_>>(), "no gap, no duplicate");
    s.running.stop().await.unwrap();
}

/// Issue 30 leftover: every battle in the `campaigns` reply says whether it
/// is strict (waiting for its seats or started, to the organiser and to a
/// seat), so the app's club summary shows what the battle is; before,
/// nothing said it and the app wrote `strict: false` of every club battle.
#[tokio::test]
async fn the_campaigns_reply_says_of_each_battle_whether_it_is_strict() {
    let s = server().await;
    let (mut org, _) = organiser(&s).await;
    let campaign = org.ok("create_campaign", json!({"name": "Club"})).await["campaign"]
        .as_i64()
        .unwrap();
    let mut made = Vec::new();
    for strict in [true, false] {
        let b = org
            .ok(
                "create_battle",
                json!({"campaign": campaign, "game": "race", "config": {"target": 20},
                       "strict": strict}),
            )
            .await;
        made.push((b["battle"].as_i64().unwrap(), strict));
    }
    let strict_of = |list: &Value, battle: i64| -> Value {
        list["campaigns"][0]["battles"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["battle"] == battle)
            .unwrap_or_else(|| panic!("battle {battle} listed: {list}"))["strict"]
            .clone()
    };
    let waiting = org.ok("campaigns", json!({})).await;
    for (battle, strict) in &made {
        assert_eq!(strict_of(&waiting, *battle), json!(strict), "{waiting}");
    }
    let (strict_battle, _) = made[0];
    let mut zero = seat_player(&s, &mut org, campaign, strict_battle, 0).await;
    let mut one = seat_player(&s, &mut org, campaign, strict_battle, 1).await;
    zero.join(strict_battle, 0, 1).await;
    let joined = one.join(strict_battle, 1, 2).await;
    assert_eq!(joined["started"], true);
    let started = org.ok("campaigns", json!({})).await;
    assert_eq!(strict_of(&started, strict_battle), json!(true), "{started}");
    assert_eq!(strict_of(&started, made[1].0), json!(false), "{started}");
    let mine = zero.ok("campaigns", json!({})).await;
    assert_eq!(strict_of(&mine, strict_battle), json!(true), "{mine}");
    assert_eq!(
        mine["campaigns"][0]["battles"].as_array().unwrap().len(),
        1,
        "a seat lists its own battles: {mine}"
    );
}
