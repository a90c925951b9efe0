//! TLS (`--tls-cert`/`--tls-key`): the server takes a certificate made here
//! (rcgen, self-signed) and serves `wss://` and `https://`; the blocking
//! client, given that certificate as its CA file, plays a race to the end
//! and downloads the battle file over TLS. A `ws://` client at the TLS
//! server, and a client that trusts another certificate, fail in words.

use std::path::Path;

use serde_json::{Value, json};
use xenolog_server::client::{Client, ServerAddr};
use xenolog_server::secret::Token;
use xenolog_server::{Config, TlsFiles, Tuning, start_tuned};

/// A club in `DIR/club` on a free port serving TLS with `files`.
async fn start_tls(
    dir: &Path,
    files: TlsFiles,
) -> Result<xenolog_server::Running, xenolog_server::ServeError> {
    start_tuned(
        Config {
            data: dir.join("club"),
            listen: "127.0.0.1:0".parse().unwrap(),
            invite_organiser: false,
            public: None,
        },
        Tuning {
            tls: Some(files),
            ..Tuning::default()
        },
    )
    .await
}

/// A self-signed certificate for localhost and 127.0.0.1, written as
/// `NAME.pem` and `NAME.key` in `dir`.
fn certificate(dir: &Path, name: &str) -> TlsFiles {
    let made =
        rcgen::generate_simple_self_signed(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
            .unwrap();
    let files = TlsFiles {
        cert: dir.join(format!("{name}.pem")),
        key: dir.join(format!("{name}.key")),
    };
    std::fs::write(&files.cert, made.cert.pem()).unwrap();
    std::fs::write(&files.key, made.signing_key.serialize_pem()).unwrap();
    files
}

fn ok(c: &mut Client, kind: &str, fields: Value) -> Value {
    c.request_no_retry(kind, fields)
        .unwrap_or_else(|e| panic!("{kind}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_race_is_played_and_downloaded_over_tls_and_a_plain_client_is_told_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let files = certificate(dir.path(), "club");
    let other = certificate(dir.path(), "other");
    let mut running = start_tls(dir.path(), files.clone()).await.unwrap();
    let url = running.ws_url();
    assert!(url.starts_with("wss://127.0.0.1:"), "{url}");
    let code = running.take_invitation().unwrap().code.expose();
    let port = running.addr().port();
    let ca = files.cert.clone();
    let other_ca = other.cert.clone();
    tokio::task::spawn_blocking(move || {
        let addr = ServerAddr::parse(&url).unwrap().with_ca_file(&ca);
        let mut org = Client::connect(addr.clone(), None).unwrap();
        let r = ok(&mut org, "redeem", json!({"code": code}));
        let org_token = r["token"].as_str().unwrap().to_owned();
        let campaign = ok(&mut org, "create_campaign", json!({"name": "Club"}))["campaign"]
            .as_i64()
            .unwrap();
        let battle = ok(
            &mut org,
            "create_battle",
            json!({"campaign": campaign, "game": "race", "config": {"target": 4}}),
        )["battle"]
            .as_i64()
            .unwrap();
        let mut p = Client::connect(addr.clone(), None).unwrap();
        for seat in 0..2u8 {
            let inv = ok(
                &mut org,
                "invite",
                json!({"role": "player", "campaign": campaign, "battle": battle, "seat": seat}),
            );
            ok(&mut p, "redeem", json!({"code": inv["code"]}));
        }
        for seat in 0..2u8 {
            let nonce = xenolog_engine::fair::hex(&[seat + 5; 32]);
            ok(
                &mut p,
                "join",
                json!({"battle": battle, "seat": seat, "nonce": nonce}),
            );
        }
        // Roll one die, hold once something is banked, until the race ends.
        let mut over = false;
        for _ in 0..400 {
            let st = ok(&mut p, "state", json!({"battle": battle, "seat": 0}));
            let (state, head) = (&st["state"], st["head"].clone());
            let seat = state["to_move"].as_u64().unwrap();
            let command = if state["turn_total"].as_u64().unwrap() > 0 {
                json!("hold")
            } else {
                json!({"roll": {"dice": 1}})
            };
            let r = ok(
                &mut p,
                "command",
                json!({"battle": battle, "seat": seat, "at": head, "command": command}),
            );
            if r["over"] == true {
                over = true;
                break;
            }
        }
        assert!(over, "the race ends");
        // The file route over https.
        let c = Client::connect(addr.clone(), Some(Token::from_text(&org_token))).unwrap();
        let bytes = c.download(campaign, battle).unwrap();
        assert!(bytes.len() > 100, "a battle file: {} bytes", bytes.len());

        // ws:// at the TLS server: refused in words that name wss://.
        let plain = ServerAddr::parse(&format!("ws://127.0.0.1:{port}")).unwrap();
        let e = Client::connect(plain, None).unwrap_err().to_string();
        assert!(e.contains("wss://"), "{e}");
        // A client that trusts another certificate will not talk to it.
        let wrong = ServerAddr::parse(&url_of(port))
            .unwrap()
            .with_ca_file(&other_ca);
        let e = Client::connect(wrong, None).unwrap_err().to_string();
        assert!(e.contains("certificate"), "{e}");
    })
    .await
    .unwrap();
    running.stop().await.unwrap();
}

fn url_of(port: u16) -> String {
    format!("wss://127.0.0.1:{port}")
}

#[tokio::test]
async fn a_key_that_is_no_key_is_refused_in_words_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let files = certificate(dir.path(), "club");
    std::fs::write(&files.key, "not a key\n").unwrap();
    let e = start_tls(dir.path(), files).await.err().expect("refused");
    let words = e.to_string();
    assert!(
        words.starts_with("cannot take TLS: the key file"),
        "{words}"
    );
}
