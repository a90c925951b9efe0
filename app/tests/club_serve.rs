//! The real `xenolog serve` process: started on a free port, its address and
//! organiser invitation read from its standard output, the invitation redeemed
//! over a real WebSocket, `tokens` checked, SIGTERM answered with a clean exit
//! 0, and no token or code anywhere in what it wrote to standard error.

use std::io::{BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::Message;

#[path = "support/club.rs"]
mod support;

struct Served {
    child: Child,
    url: String,
    code: String,
    stdout: BufReader<std::process::ChildStdout>,
}

fn serve(data: &std::path::Path) -> Served {
    let s = support::spawn_serve(data, "127.0.0.1:0", &[], Stdio::piped(), |s| {
        s.code.is_some()
    });
    let url = s.url.expect("the address comes before the invitation");
    assert!(
        url.starts_with("ws://127.0.0.1:") && url.ends_with("/v1/ws"),
        "{url}"
    );
    Served {
        child: s.child,
        url,
        code: s.code.unwrap(),
        stdout: s.stdout,
    }
}

impl Drop for Served {
    /// A test that fails on the way leaves no server running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

type Ws = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

/// Read a socket until the server closes it: the last text frame before
/// the close (its notice) and the close frame's code.
fn closed(ws: &mut Ws) -> (Option<String>, Option<u16>) {
    let mut notice = None;
    loop {
        match ws.read() {
            Ok(Message::Text(t)) => notice = Some(t.to_string()),
            Ok(Message::Close(f)) => return (notice, f.map(|f| u16::from(f.code))),
            Ok(_) => {}
            Err(e) => panic!("closed without a close frame: {e}"),
        }
    }
}

fn request(ws: &mut Ws, id: u64, kind: &str, fields: Value) -> Value {
    request_events(ws, id, kind, fields, &mut Vec::new())
}

/// Send a request; events that come before its reply go to `events`.
fn request_events(
    ws: &mut Ws,
    id: u64,
    kind: &str,
    mut fields: Value,
    events: &mut Vec<Value>,
) -> Value {
    fields["v"] = json!(1);
    fields["id"] = json!(id);
    fields["type"] = json!(kind);
    ws.send(Message::text(fields.to_string())).unwrap();
    loop {
        match ws.read().unwrap() {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v.get("re").is_none() {
                    events.push(v);
                    continue;
                }
                assert_eq!(v["re"], json!(id), "{v}");
                return v;
            }
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("unexpected frame {other:?}"),
        }
    }
}

#[test]
fn serve_prints_an_invitation_that_redeems_and_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = serve(&dir.path().join("club"));
    let mut secrets = vec![served.code.clone(), served.code[5..].replace('-', "")];

    let (mut ws, _) = tungstenite::connect(served.url.as_str()).expect("the server answers");
    let r = request(
        &mut ws,
        1,
        "redeem",
        json!({"code": served.code, "label": "Ola"}),
    );
    let token = r["ok"]["token"].as_str().expect("a token").to_owned();
    assert!(token.starts_with("xnl_o_"), "{r}");
    secrets.push(token.clone());
    secrets.push(token[6..].to_owned());

    let inv = request(
        &mut ws,
        2,
        "invite",
        json!({"role": "player", "label": "Anna"}),
    );
    let anna_code = inv["ok"]["code"].as_str().unwrap().to_owned();
    secrets.push(anna_code[5..].replace('-', ""));
    let (mut anna, _) = tungstenite::connect(served.url.as_str()).unwrap();
    let r = request(&mut anna, 1, "redeem", json!({"code": anna_code}));
    let anna_token = r["ok"]["token"].as_str().unwrap().to_owned();
    secrets.push(anna_token[6..].to_owned());

    // A second socket says hello with the organiser's token and lists tokens.
    let (mut again, _) = tungstenite::connect(served.url.as_str()).unwrap();
    let r = request(&mut again, 1, "hello", json!({"token": token}));
    assert_eq!(r["ok"]["role"], "organiser", "{r}");
    let r = request(&mut again, 2, "tokens", json!({}));
    let labels: Vec<&str> = r["ok"]["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Ola", "Anna"]);
    // A refusal goes to the log by its code only.
    let r = request(&mut again, 3, "hello", json!({"token": anna_token}));
    assert_eq!(r["err"]["code"], "already_hello");

    term(&served.child);
    // Every socket is told and closed with 1001.
    let (notice, code) = closed(&mut ws);
    assert_eq!(code, Some(1001));
    assert!(notice.unwrap().contains("\"stopping\""));

    let exit = stopped(&mut served.child);
    let mut rest = String::new();
    served.stdout.read_to_string(&mut rest).unwrap();
    let stderr = stderr_of(&mut served.child);
    assert!(exit.success(), "exit {exit:?}; stderr:\n{stderr}");
    assert!(
        stderr.contains("redeem ok"),
        "the log says what happened: {stderr}"
    );
    assert!(
        stderr.contains("hello refused (\"already_hello\")"),
        "{stderr}"
    );
    for secret in &secrets {
        assert!(
            !stderr.contains(secret.as_str()),
            "a secret in the log:\n{stderr}"
        );
    }
    // Standard output showed the organiser's invitation (and its link) and
    // nothing given out later.
    assert!(rest.contains(&format!("/join#{}", served.code)), "{rest}");
    for secret in &secrets[2..] {
        assert!(!rest.contains(secret.as_str()), "{rest}");
    }
    assert!(dir.path().join("club/club.xenolog-club").exists());
}

#[test]
fn serve_on_an_address_in_use_says_so_and_exits_2() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(["serve", "--data"])
        .arg(dir.path())
        .args(["--listen", &addr])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("cannot listen on {addr}")),
        "{stderr}"
    );
}

#[test]
fn serve_with_a_public_url_that_is_no_host_and_port_says_so_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(["serve", "--data"])
        .arg(dir.path())
        .args(["--public-url", "https://club.example.org/join"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("give the host and port"), "{stderr}");
    assert!(
        !dir.path().join("club.xenolog-club").exists(),
        "nothing is made before the arguments are good"
    );
}

/// Review of session 15, item 9: behind a reverse proxy that takes TLS,
/// `--public-url wss://HOST:PORT` makes the printed link say TLS though the
/// server itself listens on plain ws.
#[test]
fn serve_behind_a_tls_proxy_prints_a_link_that_says_tls() {
    let dir = tempfile::tempdir().unwrap();
    let support::Starting {
        mut child, seen, ..
    } = support::spawn_serve(
        dir.path(),
        "127.0.0.1:0",
        &["--public-url", "wss://club.example.org:443"],
        Stdio::piped(),
        |s| s.seen.contains("stop with Ctrl-C"),
    );
    let status = sigterm(&mut child);
    assert!(status.success(), "{seen}");
    assert!(seen.contains("listening on ws://127.0.0.1:"), "{seen}");
    assert!(
        seen.contains("  link: xenolog+tls://club.example.org:443/join#"),
        "{seen}"
    );
    assert!(
        seen.contains("--server wss://club.example.org:443 "),
        "{seen}"
    );
}

/// The next event of a socket.
fn event(ws: &mut Ws) -> Value {
    loop {
        if let Message::Text(t) = ws.read().unwrap() {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// SIGTERM to the server.
fn term(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// How the server exited (within 60 s: a loaded machine is slow).
fn stopped(child: &mut Child) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "serve did not stop within 60 s of SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn sigterm(child: &mut Child) -> std::process::ExitStatus {
    term(child);
    stopped(child)
}

/// All the server wrote to its standard error (piped), once it has exited.
fn stderr_of(child: &mut Child) -> String {
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    stderr
}

#[test]
fn a_race_played_through_xenolog_serve_exports_and_verifies_with_the_nonces_kept() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("club");
    let mut served = serve(&data);
    let (mut org, _) = tungstenite::connect(served.url.as_str()).unwrap();
    request(&mut org, 1, "redeem", json!({"code": served.code}));
    let r = request(&mut org, 2, "create_campaign", json!({"name": "Club"}));
    let campaign = r["ok"]["campaign"].as_i64().unwrap();
    let r = request(
        &mut org,
        3,
        "create_battle",
        json!({"campaign": campaign, "game": "race", "config": {"target": 15}}),
    );
    let battle = r["ok"]["battle"].as_i64().unwrap();

    // Each seat's client draws its nonce and keeps it.
    let kept: Vec<String> = (0..2u8)
        .map(|s| xenolog_engine::fair::hex(&[0x40 + s; 32]))
        .collect();
    let mut seats: Vec<Ws> = Vec::new();
    for seat in 0..2u8 {
        let inv = request(
            &mut org,
            10 + u64::from(seat),
            "invite",
            json!({"role": "player", "campaign": campaign, "battle": battle, "seat": seat}),
        );
        let (mut ws, _) = tungstenite::connect(served.url.as_str()).unwrap();
        request(&mut ws, 1, "redeem", json!({"code": inv["ok"]["code"]}));
        let r = request(
            &mut ws,
            2,
            "join",
            json!({"battle": battle, "seat": seat, "nonce": kept[seat as usize]}),
        );
        assert!(r.get("ok").is_some(), "{r}");
        seats.push(ws);
    }
    // Seat 0 watches; its events tell whose turn it is.
    let mut events = Vec::new();
    request_events(
        &mut seats[0],
        3,
        "watch",
        json!({"battle": battle, "seat": 0, "after": null}),
        &mut events,
    );
    let mut state = loop {
        let v = match events.pop() {
            Some(v) => v,
            None => event(&mut seats[0]),
        };
        if v["type"] == "live" {
            break v["state"].clone();
        }
    };
    let mut head: Option<u64> = None;
    let mut over = None;
    for id in 4.. {
        assert!(id < 400, "the race ends");
        let mover = state["to_move"].as_u64().unwrap() as usize;
        let command = if state["turn_total"].as_u64().unwrap() >= 6 {
            json!("hold")
        } else {
            json!({"roll": {"dice": 2}})
        };
        let mut sent = Vec::new();
        let r = request_events(
            &mut seats[mover],
            id,
            "command",
            json!({"battle": battle, "seat": mover, "at": head, "command": command}),
            &mut sent,
        );
        assert!(r.get("ok").is_some(), "{r}");
        let last = r["ok"]["entries"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .as_u64();
        // Seat 0's watch brings the entries (and, at the end, the reveal).
        let mut pending: std::collections::VecDeque<Value> = if mover == 0 {
            sent.into()
        } else {
            Default::default()
        };
        loop {
            let v = match pending.pop_front() {
                Some(v) => v,
                None => event(&mut seats[0]),
            };
            match v["type"].as_str() {
                Some("entry") => {
                    head = v["entry"]["id"].as_u64();
                    state = v["state"].clone();
                }
                Some("over") => over = Some(v),
                _ => {}
            }
            if head >= last && (r["ok"]["over"] == false || over.is_some()) {
                break;
            }
        }
        if over.is_some() {
            break;
        }
    }
    let over = over.unwrap();
    let secret = over["secret"].as_str().unwrap().to_owned();
    let exit = sigterm(&mut served.child);
    assert!(exit.success());
    let stderr = stderr_of(&mut served.child);
    assert!(!stderr.contains(&secret), "the secret is not logged");
    // The organiser's and the seats' steps are logged; the commands of play
    // are not (one line each would cost more than the work at load).
    assert!(stderr.contains("join ok"), "{stderr}");
    assert!(!stderr.contains("command ok"), "{stderr}");

    // The battle, exported from the server's campaign file, verifies with the
    // nonces each seat kept.
    let file = dir.path().join("race.xenolog-battle");
    let out = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .arg("export")
        .arg(data.join("campaigns/1.xenolog"))
        .args(["--battle", "1", "--out"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .arg("verify")
        .arg(&file)
        .args(["--nonce", &format!("1={}", kept[0])])
        .args(["--nonce", &format!("2={}", kept[1])])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("ok: the seed is the hash of the secret and every seat's nonce"),
        "{text}"
    );
    assert_eq!(text.matches(", the one you kept").count(), 2, "{text}");
    // Another nonce than the one kept fails in words.
    let out = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .arg("verify")
        .arg(&file)
        .args(["--nonce", &format!("1={}", kept[1])])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn club_tokens_lists_the_tokens_without_secrets_and_club_revoke_closes_a_socket_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = serve(&dir.path().join("club"));
    let org = dir.path().join("ola");
    std::fs::create_dir_all(&org).unwrap();
    let url = served.url.clone();
    let org_token = org.join("token");
    let org_token_s = org_token.to_str().unwrap().to_owned();
    support::ok(
        &org,
        &[
            "club",
            "redeem",
            &served.code,
            "--server",
            &url,
            "--token-file",
            &org_token_s,
            "--label",
            "Ola",
        ],
    );
    let t = [
        "--server",
        url.as_str(),
        "--token-file",
        org_token_s.as_str(),
    ];
    let campaign = support::ok(
        &org,
        &[&["club", "new-campaign"][..], &t, &["Club"]].concat(),
    );
    let campaign = campaign.trim().to_owned();
    let battle = support::ok(
        &org,
        &[
            &["club", "new-battle"][..],
            &t,
            &["--campaign", &campaign, "--game", "race"],
        ]
        .concat(),
    );
    let battle = battle.trim().to_owned();
    // Anna holds seat 1 of the battle.
    let inv = support::ok(
        &org,
        &[
            &["club", "invite"][..],
            &t,
            &[
                "--label",
                "Anna",
                "--campaign",
                &campaign,
                "--battle",
                &battle,
                "--seat",
                "1",
                "--json",
            ],
        ]
        .concat(),
    );
    let inv: Value = serde_json::from_str(inv.trim()).unwrap();
    let (mut anna, _) = tungstenite::connect(served.url.as_str()).unwrap();
    let r = request(&mut anna, 1, "redeem", json!({"code": inv["code"]}));
    let anna_token = r["ok"]["token"].as_str().unwrap().to_owned();
    let anna_id = r["ok"]["token_id"].as_i64().unwrap();

    let listed = support::ok(&org, &[&["club", "tokens"][..], &t].concat());
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 2, "{listed}");
    assert!(
        lines[0].contains("organiser") && lines[0].contains("'Ola'"),
        "{listed}"
    );
    assert!(
        lines[1].contains("player") && lines[1].contains("'Anna'"),
        "{listed}"
    );
    assert!(
        lines[1].contains(&format!("battle {battle} seat 1")),
        "{listed}"
    );
    assert!(lines[1].contains("made 20"), "{listed}");
    let json_list = support::ok(&org, &[&["club", "tokens"][..], &t, &["--json"]].concat());
    let org_secret = std::fs::read_to_string(&org_token).unwrap();
    for secret in [anna_token.as_str(), org_secret.trim()] {
        assert!(
            !listed.contains(secret) && !json_list.contains(secret),
            "{listed}"
        );
        assert!(
            !listed.contains(&secret[6..]),
            "no part of a token: {listed}"
        );
    }
    let anna_line: Value = serde_json::from_str(json_list.lines().nth(1).unwrap()).unwrap();
    assert_eq!(anna_line["id"], anna_id, "{anna_line}");
    // Typed and printed seats count from 1 (`--seat 1`, "seat 1"); the
    // JSON lines give the seat's index from 0.
    assert_eq!(anna_line["seats"][0]["seat"], 0, "{anna_line}");

    // Revoked: Anna's open socket is told in words and closed.
    let said = support::ok(
        &org,
        &[&["club", "revoke"][..], &t, &[anna_id.to_string().as_str()]].concat(),
    );
    assert!(
        said.contains(&format!(
            "token {anna_id} ('Anna') revoked; 1 open connection(s) closed"
        )),
        "{said}"
    );
    let (notice, code) = closed(&mut anna);
    assert_eq!(code, Some(1008));
    let notice = notice.expect("a notice before the close");
    assert!(notice.contains("revoked by the organiser"), "{notice}");
    let listed = support::ok(&org, &[&["club", "tokens"][..], &t].concat());
    assert!(
        listed.lines().nth(1).unwrap().contains("REVOKED"),
        "{listed}"
    );
    // A revoked token opens nothing; an unknown id is refused in words.
    let (mut again, _) = tungstenite::connect(served.url.as_str()).unwrap();
    let r = request(&mut again, 1, "hello", json!({"token": anna_token}));
    assert_eq!(r["err"]["code"], "bad_token", "{r}");
    let o = support::run(&org, &[&["club", "revoke"][..], &t, &["999"]].concat());
    assert!(!o.status.success());
    let words = String::from_utf8_lossy(&o.stderr);
    assert!(words.contains("no token 999"), "{words}");
    let _ = served.child.kill();
    let _ = served.child.wait();
    let _ = served.stdout.read_to_string(&mut String::new());
}

/// Session 22: what every `xenolog serve` a test starts writes to its
/// standard error is kept, in a file of its own under the system's
/// temporary folder while it runs (a stalled test's server can be read as
/// it hangs), and shown with the test's output when the test fails (the
/// `Served` of the club tests, and `ServeDb` of the PostgreSQL ones, show
/// it as they drop while a failure unwinds). Before, it went nowhere.
#[test]
fn a_test_servers_standard_error_is_kept_and_shown_when_the_test_fails() {
    use support::ServeLog;
    let dir = tempfile::tempdir().unwrap();
    let served = support::serve(&dir.path().join("club"));
    let path = served.log.path.clone();
    let folder = path.parent().unwrap();
    assert!(
        folder.starts_with(std::env::temp_dir())
            && folder
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("xenolog-serve-stderr-"),
        "{}",
        path.display()
    );
    let org = dir.path().join("ola");
    support::ok(
        &org,
        &["club", "redeem", &served.code, "--server", &served.url],
    );
    // The server writes its own log line; the file holds it while it runs.
    let start = Instant::now();
    while !served.log.text().contains("redeem ok") {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the log holds the redeem: {:?}",
            served.log.text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Dropped while a failure unwinds, the log is shown; otherwise not.
    struct Failing<'a>(&'a ServeLog, std::sync::mpsc::Sender<Option<String>>);
    impl Drop for Failing<'_> {
        fn drop(&mut self) {
            let _ = self.1.send(self.0.failing_words("the test's server"));
        }
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|s| {
        let failed = s.spawn(|| {
            let _kept = Failing(&served.log, tx.clone());
            panic!("a test failing while its server runs (expected here)");
        });
        assert!(failed.join().is_err());
        s.spawn(|| drop(Failing(&served.log, tx.clone())))
            .join()
            .unwrap();
    });
    let shown = rx.recv().unwrap().expect("shown while failing");
    assert!(
        shown.contains("redeem ok") && shown.contains(&path.display().to_string()),
        "{shown}"
    );
    assert_eq!(rx.recv().unwrap(), None, "not shown when nothing fails");
    drop(served);
    assert!(!folder.exists(), "the log goes with its server");
}

/// Session 22: a server started again on the port it had (the club tests
/// restart a killed server where its clients reconnect) is tried again
/// while the port is still held ("cannot listen on"), 60 s at the most:
/// here another socket holds the port and lets it go a moment later.
/// Before, the first refusal failed the test.
#[test]
fn a_server_started_again_on_a_port_still_held_waits_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("club");
    let first = support::serve(&data);
    let host = first.host();
    drop(first);
    let holder = std::net::TcpListener::bind(&host).expect("the port, let go by the server");
    let (tx, rx) = std::sync::mpsc::channel();
    let again = std::thread::scope(|s| {
        let starting = s.spawn(|| {
            let served = support::serve_again(&data, &host);
            let _ = tx.send(());
            served
        });
        // Refused at least once while held (in its own words, in one of
        // the standard-error logs of the tries), then let go.
        let refused = format!("cannot listen on {host}");
        let start = Instant::now();
        while !refused_in_a_log(&refused) {
            assert!(rx.try_recv().is_err(), "started while the port was held");
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "a try was refused"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        drop(holder);
        starting.join().unwrap()
    });
    assert_eq!(again.host(), host, "started again on its port");
    let (mut ws, _) = tungstenite::connect(again.url.as_str()).expect("it answers");
    let r = request(&mut ws, 1, "ping", json!({}));
    assert_eq!(r["err"]["code"], "hello_first", "{r}");
}

/// Whether a server's standard-error log (`ServeLog`) under the system's
/// temporary folder holds `words`.
fn refused_in_a_log(words: &str) -> bool {
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("xenolog-serve-stderr-")
        })
        .any(|e| {
            std::fs::read_to_string(e.path().join("stderr.log")).is_ok_and(|t| t.contains(words))
        })
}
