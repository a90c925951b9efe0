//! The real `xenolog serve` process: started on a free port, its address and
//! organiser invitation read from its standard output, the invitation redeemed
//! over a real WebSocket, `tokens` checked, SIGTERM answered with a clean exit
//! 0, and no token or code anywhere in what it wrote to standard error.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::Message;

struct Served {
    child: Child,
    url: String,
    code: String,
    stdout: BufReader<std::process::ChildStdout>,
}

fn serve(data: &std::path::Path) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(["serve", "--data"])
        .arg(data)
        .args(["--listen", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xenolog serve starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (mut url, mut code) = (None, None);
    let mut seen = String::new();
    while code.is_none() {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            panic!("serve ended before printing its invitation: {seen}");
        }
        seen += &line;
        if let Some(u) = line.trim().strip_prefix("listening on ") {
            url = Some(u.to_owned());
        }
        if let Some(c) = line
            .trim()
            .strip_prefix("organiser invitation (shown once, valid 7 days): ")
        {
            code = Some(c.to_owned());
        }
    }
    let url = url.expect("the address comes before the invitation");
    assert!(
        url.starts_with("ws://127.0.0.1:") && url.ends_with("/v1/ws"),
        "{url}"
    );
    Served {
        child,
        url,
        code: code.unwrap(),
        stdout,
    }
}

fn request(
    ws: &mut tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>,
    id: u64,
    kind: &str,
    mut fields: Value,
) -> Value {
    fields["v"] = json!(1);
    fields["id"] = json!(id);
    fields["type"] = json!(kind);
    ws.send(Message::text(fields.to_string())).unwrap();
    loop {
        match ws.read().unwrap() {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
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

    let status = Command::new("kill")
        .args(["-TERM", &served.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // Every socket is told and closed with 1001.
    let mut notice = None;
    loop {
        match ws.read() {
            Ok(Message::Text(t)) => notice = Some(t.to_string()),
            Ok(Message::Close(f)) => {
                assert_eq!(f.map(|f| u16::from(f.code)), Some(1001));
                break;
            }
            Ok(_) => {}
            Err(e) => panic!("closed without a close frame: {e}"),
        }
    }
    assert!(notice.unwrap().contains("\"stopping\""));

    let start = Instant::now();
    let exit = loop {
        if let Some(status) = served.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "serve did not stop within 20 s of SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut rest = String::new();
    served.stdout.read_to_string(&mut rest).unwrap();
    let mut stderr = String::new();
    served
        .child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
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
