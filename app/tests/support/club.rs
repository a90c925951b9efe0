//! A real `xenolog serve` on a free port for the end-to-end club tests
//! (server/DESIGN.md section 12), and `xenolog` command-line clients run as
//! a person whose club folder is given.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

// Also loaded by pg_procs.rs (club_pg_procs.rs loads both): the same small
// file twice in that test crate, on purpose.
#[allow(clippy::duplicate_mod)]
#[path = "serve_log.rs"]
mod serve_log;
pub use serve_log::ServeLog;

/// A running `xenolog serve`, stopped when dropped (its standard error
/// shown then if the test is failing).
pub struct Served {
    pub child: Child,
    /// `ws://127.0.0.1:PORT/v1/ws`, as it printed it.
    pub url: String,
    /// The organiser's one-time invitation.
    pub code: String,
    /// Its link, as `serve` printed it.
    pub link: String,
    /// What it wrote to its standard error.
    pub log: ServeLog,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.log
            .show_if_failing(&format!("xenolog serve at {}", self.url));
    }
}

impl Served {
    /// `HOST:PORT`
    pub fn host(&self) -> String {
        self.url
            .trim_start_matches("wss://")
            .trim_start_matches("ws://")
            .trim_end_matches("/v1/ws")
            .to_owned()
    }
}

/// Start `xenolog serve --data DATA --listen 127.0.0.1:0` and read the
/// address and the organiser's invitation from its standard output.
pub fn serve(data: &Path) -> Served {
    start(data, "127.0.0.1:0", true, &[])
}

/// A self-signed certificate for 127.0.0.1 and localhost (not a CA,
/// valid until 2126), made once with openssl for the TLS tests: a player
/// gives it as `--ca-file`. Its key is a test's only.
pub const TEST_CERT: &str = r"-----BEGIN CERTIFICATE-----
MIIBmDCCAT6gAwIBAgIUCWe9zNqAoKOsqLhjq2iZ1WGtmrYwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNzE1NDkxOFoYDzIxMjYxMTAz
MTU0OTE4WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATcTelzKLa/ezVRux37W9HmhvNLfWcM7RpCl5v+NH3iIZgsmWNwiLxP
f5KHfYoAUMjhG0bdzYN3CvGmlOcXgFsPo2wwajAdBgNVHQ4EFgQUec9mtac38Nkd
x4dDjJQb3OrSM6MwHwYDVR0jBBgwFoAUec9mtac38Nkdx4dDjJQb3OrSM6MwGgYD
VR0RBBMwEYcEfwAAAYIJbG9jYWxob3N0MAwGA1UdEwEB/wQCMAAwCgYIKoZIzj0E
AwIDSAAwRQIhAN47oub++zLMGRazwO4lPwBBT1Kx4+FRN0Tex4t1QlFeAiA4kHqq
I8MJnqMpWGwranptRT9wbBJrWR3L9n0ZJpNgpQ==
-----END CERTIFICATE-----
";
pub const TEST_KEY: &str = r"-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgeIMI+F4Bj3UvxNvs
ChQ0P7w66ln3X3k4ucBhiKh5MzKhRANCAATcTelzKLa/ezVRux37W9HmhvNLfWcM
7RpCl5v+NH3iIZgsmWNwiLxPf5KHfYoAUMjhG0bdzYN3CvGmlOcXgFsP
-----END PRIVATE KEY-----
";

/// Start `xenolog serve` over TLS (`--tls-cert`, `--tls-key`) with
/// [`TEST_CERT`], written into `data`; and the CA file a player gives.
pub fn serve_tls(data: &Path) -> (Served, std::path::PathBuf) {
    std::fs::create_dir_all(data).unwrap();
    let (cert, key) = (data.join("cert.pem"), data.join("key.pem"));
    std::fs::write(&cert, TEST_CERT).unwrap();
    std::fs::write(&key, TEST_KEY).unwrap();
    let served = start(
        data,
        "127.0.0.1:0",
        true,
        &[
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    (served, cert)
}

/// Start `xenolog serve` again on a club folder that has its organiser,
/// listening on `listen` (the same port as before: clients reconnect).
/// The port was let go a moment ago (a server stopped or killed): while it
/// is still in use ("cannot listen on"), the start is tried again, 60 s
/// at the most.
pub fn serve_again(data: &Path, listen: &str) -> Served {
    start(data, listen, false, &[])
}

/// Start `xenolog serve` and read where it listens and, on a first start,
/// the organiser's invitation.
fn start(data: &Path, listen: &str, first: bool, more: &[&str]) -> Served {
    let deadline = Instant::now() + Duration::from_secs(60);
    let (s, log) = loop {
        let (log, stderr) = ServeLog::new();
        let started = try_spawn_serve(data, listen, more, stderr, |s| {
            s.url.is_some() && (!first || (s.code.is_some() && s.link.is_some()))
        });
        match started {
            Ok(s) => break (s, log),
            Err(seen) => {
                let said = log.text();
                let port_given = !listen.ends_with(":0");
                if port_given && said.contains("cannot listen on") && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(250));
                    continue;
                }
                panic!(
                    "serve ended before saying all it should: {seen}\nits standard error:\n{said}"
                );
            }
        }
    };
    let Starting {
        child,
        stdout,
        url,
        code,
        link,
        ..
    } = s;
    // Keep reading its standard output so that it never blocks on a full pipe.
    std::thread::spawn(move || for _ in stdout.lines().map_while(Result::ok) {});
    Served {
        child,
        url: url.unwrap_or_default(),
        code: code.unwrap_or_default(),
        link: link.unwrap_or_default(),
        log,
    }
}

/// A `xenolog serve` just started: its process, the rest of its standard
/// output, and what it said first.
pub struct Starting {
    pub child: Child,
    pub stdout: BufReader<ChildStdout>,
    /// Every line read so far.
    pub seen: String,
    /// "listening on URL"
    pub url: Option<String>,
    /// "organiser invitation (shown once, valid 7 days): CODE"
    pub code: Option<String>,
    /// "link: LINK"
    pub link: Option<String>,
}

/// Start `xenolog serve --data DATA --listen LISTEN MORE…`, its standard
/// error to `stderr`, and read its standard output line by line until
/// `enough` holds of what it said; fails if it ends before.
pub fn spawn_serve(
    data: &Path,
    listen: &str,
    more: &[&str],
    stderr: Stdio,
    enough: impl Fn(&Starting) -> bool,
) -> Starting {
    try_spawn_serve(data, listen, more, stderr, enough)
        .unwrap_or_else(|seen| panic!("serve ended before saying all it should: {seen}"))
}

/// [`spawn_serve`], or, if it ends before saying enough, what it said.
pub fn try_spawn_serve(
    data: &Path,
    listen: &str,
    more: &[&str],
    stderr: Stdio,
    enough: impl Fn(&Starting) -> bool,
) -> Result<Starting, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(["serve", "--data"])
        .arg(data)
        .args(["--listen", listen])
        .args(more)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("xenolog serve starts");
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut s = Starting {
        child,
        stdout,
        seen: String::new(),
        url: None,
        code: None,
        link: None,
    };
    while !enough(&s) {
        let mut line = String::new();
        if s.stdout.read_line(&mut line).unwrap() == 0 {
            let _ = s.child.kill();
            let _ = s.child.wait();
            return Err(s.seen);
        }
        s.seen += &line;
        let said = |prefix: &str| line.trim().strip_prefix(prefix).map(str::to_owned);
        s.url = s.url.take().or_else(|| said("listening on "));
        s.code = s
            .code
            .take()
            .or_else(|| said("organiser invitation (shown once, valid 7 days): "));
        s.link = s.link.take().or_else(|| said("link: "));
    }
    Ok(s)
}

/// A `xenolog` command run as the person whose club folder is `who`.
pub fn cmd(who: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_xenolog"));
    c.args(args)
        .env("XENOLOG_CLUB_DIR", who)
        .env_remove("XENOLOG_TOKEN")
        .stdin(Stdio::null());
    c
}

pub fn run(who: &Path, args: &[&str]) -> Output {
    cmd(who, args).output().unwrap()
}

/// Run and expect success; its standard output.
pub fn ok(who: &Path, args: &[&str]) -> String {
    let o = run(who, args);
    assert!(
        o.status.success(),
        "xenolog {args:?} failed ({:?}): {}{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// JSON lines.
pub fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The organiser of a club: redeems the server's invitation, makes a
/// campaign and battles, invites seats.
pub struct Organiser<'a> {
    pub dir: &'a Path,
    pub url: String,
}

impl<'a> Organiser<'a> {
    pub fn redeem(dir: &'a Path, served: &Served) -> Self {
        ok(
            dir,
            &["club", "redeem", &served.code, "--server", &served.url],
        );
        Organiser {
            dir,
            url: served.url.clone(),
        }
    }

    /// A new campaign's number.
    pub fn campaign(&self, name: &str) -> String {
        ok(
            self.dir,
            &["club", "new-campaign", "--server", &self.url, name],
        )
        .trim()
        .to_owned()
    }

    /// A new battle's number.
    pub fn battle(&self, campaign: &str, game: &str, config: &str) -> String {
        self.new_battle(campaign, game, config, &[])
    }

    /// A new battle's number, made with `club new-battle` and these more
    /// flags (`--friendly-takebacks`, `--strict`, ...).
    pub fn new_battle(&self, campaign: &str, game: &str, config: &str, more: &[&str]) -> String {
        let mut args = vec![
            "club",
            "new-battle",
            "--server",
            &self.url,
            "--campaign",
            campaign,
            "--game",
            game,
            "--config",
            config,
        ];
        args.extend_from_slice(more);
        ok(self.dir, &args).trim().to_owned()
    }

    /// Seat `seat` (from 0) of `battle` taken by the person whose club
    /// folder is `who`: invited, the invitation's link redeemed there (its
    /// server is in it) and the battle joined with a nonce kept there. The
    /// redeem's JSON reply (`token_id`, `role`, ...) and the join's words.
    pub fn seat(&self, campaign: &str, battle: &str, seat: u8, who: &Path) -> (Value, String) {
        let (_, link) = self.invite(campaign, battle, seat);
        let redeemed = lines(&ok(who, &["club", "redeem", &link, "--json"])).remove(0);
        let joined = ok(
            who,
            &["club", "join", "--server", &self.url, "--battle", battle],
        );
        (redeemed, joined)
    }

    /// A seat's invitation (the seat's index from 0; the command line
    /// numbers seats from 1): its code and its link.
    pub fn invite(&self, campaign: &str, battle: &str, seat: u8) -> (String, String) {
        let inv = lines(&ok(
            self.dir,
            &[
                "club",
                "invite",
                "--server",
                &self.url,
                "--campaign",
                campaign,
                "--battle",
                battle,
                "--seat",
                &(seat + 1).to_string(),
                "--json",
            ],
        ))
        .remove(0);
        (
            inv["code"].as_str().unwrap_or_default().to_owned(),
            inv["link"].as_str().unwrap().to_owned(),
        )
    }
}

/// A fresh club with one battle whose two seats are taken (see
/// [`Organiser::seat`]): seat 0 by the folder `ROOT/seat0`, seat 1 by
/// `ROOT/app data/club` (where the app keeps its club files).
pub struct Table {
    /// The server's folder, `ROOT/server`.
    pub data: PathBuf,
    pub served: Served,
    pub camp: String,
    pub battle: String,
    pub seat0: PathBuf,
    pub app_club: PathBuf,
}

impl Table {
    /// Serve, redeem the organiser, make the campaign `name` and a battle
    /// of `game` (`more`: flags for `club new-battle`), seat both seats.
    pub fn new(root: &Path, name: &str, game: &str, config: &str, more: &[&str]) -> Self {
        let data = root.join("server");
        let served = serve(&data);
        let org_dir = root.join("organiser");
        let org = Organiser::redeem(&org_dir, &served);
        let camp = org.campaign(name);
        let battle = org.new_battle(&camp, game, config, more);
        let seat0 = root.join("seat0");
        let app_club = root.join("app data").join("club");
        for (seat, who) in [(0, &seat0), (1, &app_club)] {
            org.seat(&camp, &battle, seat, who);
        }
        Table {
            data,
            served,
            camp,
            battle,
            seat0,
            app_club,
        }
    }

    /// One command played by the person whose club folder is `who`, as a
    /// JSON line of `play --server --script`.
    pub fn play(&self, who: &Path, line: &str) {
        let script = who.join("one.jsonl");
        std::fs::write(&script, format!("{line}\n")).unwrap();
        ok(
            who,
            &[
                "play",
                &self.camp,
                "--battle",
                &self.battle,
                "--server",
                &self.served.url,
                "--script",
                script.to_str().unwrap(),
            ],
        );
    }

    /// The server's own campaign file, opened read-only beside it.
    pub fn campaign_file(&self) -> PathBuf {
        self.data.join(format!("campaigns/{}.xenolog", self.camp))
    }
}

/// A second organiser's invitation to a TLS club (`club invite --role
/// organiser --json` over `wss://` with the club's CA file), made by the
/// organiser whose club folder is `who`: its JSON (`code`, `link`, ...).
pub fn organiser_invitation_over_tls(who: &Path, url: &str, ca: &str) -> Value {
    lines(&ok(
        who,
        &[
            "club",
            "invite",
            "--server",
            url,
            "--ca-file",
            ca,
            "--role",
            "organiser",
            "--json",
        ],
    ))
    .remove(0)
}

/// Alien Invasion's two-player skirmish cut to two rounds, so the battle
/// ends in a debug build within a test's budget.
pub fn short_skirmish() -> String {
    let text = include_str!("../../../engine/data/invasion/scenarios/skirmish.txt");
    text.lines()
        .map(|l| {
            if l.starts_with("rounds ") {
                "rounds 2"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A client's answer, or a panic naming `what` was asked.
pub fn answer(v: Result<Value, xenolog_server::client::ClientError>, what: &str) -> Value {
    v.unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Every entry once, in order, from the first: nothing missed across a
/// reconnect, nothing twice.
pub fn whole(ids: &[u64]) -> bool {
    ids.iter().enumerate().all(|(i, &id)| id == i as u64)
}

/// A seat of a club battle, through a client of its own: every entry id
/// and receipt it was shown, in order, its state, and the `over` event.
pub struct Seat {
    pub seat: u8,
    pub client: xenolog_server::client::Client,
    pub ids: Vec<u64>,
    pub receipts: Vec<String>,
    pub state: Value,
    pub over: Option<Value>,
}

impl Seat {
    pub fn absorb(&mut self, e: &Value) {
        match e["type"].as_str() {
            Some("entry") => {
                let id = e["entry"]["id"].as_u64().unwrap();
                self.ids.push(id);
                self.receipts.push(
                    e["entry"]["receipt"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                );
                self.state = e["state"].clone();
            }
            Some("live") => self.state = e["state"].clone(),
            Some("over") => self.over = Some(e.clone()),
            _ => {}
        }
    }

    /// Events until entry `until` is held (`None`: the watch's `live`),
    /// then whatever else came already; 60 s at the most.
    pub fn catch_up(&mut self, until: Option<u64>) {
        let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let there = match until {
                None => !self.state.is_null(),
                Some(u) => self.ids.last().is_some_and(|&l| l >= u),
            };
            if there {
                while let Some(e) = self.next_event(1) {
                    self.absorb(&e);
                }
                return;
            }
            assert!(
                std::time::Instant::now() < end,
                "seat {}: entry {until:?} never came",
                self.seat + 1
            );
            if let Some(e) = self.next_event(200) {
                self.absorb(&e);
            }
        }
    }

    fn next_event(&mut self, ms: u64) -> Option<Value> {
        let wait = std::time::Duration::from_millis(ms);
        self.client.next_event(wait).unwrap()
    }
}

/// The seat to move gives `command` at the head its client holds, with a
/// command id of its own: the answer.
pub fn command(seats: &mut [Seat], battle: i64, command: Value) -> Value {
    let mover = seats[0].state["to_move"].as_u64().expect("to_move") as usize;
    let at = seats[mover].client.last_entry(battle);
    let cmd_id = xenolog_server::client::new_cmd_id().unwrap();
    answer(
        seats[mover].client.request(
            "command",
            serde_json::json!({"battle": battle, "seat": mover, "at": at,
                               "command": command, "cmd_id": cmd_id}),
        ),
        "command",
    )
}

/// Through the organiser's client a campaign `name` and a race to
/// `target`; seat 1's client on the list `lists[0]` and seat 2's on
/// `lists[1]`, each invited, redeemed, joined and watching from the start,
/// caught up to live.
pub fn race_table(
    org: &mut xenolog_server::client::Client,
    name: &str,
    lists: [&str; 2],
    target: u32,
) -> (i64, i64, [Seat; 2]) {
    use serde_json::json;
    use xenolog_server::client::{Client, ServerAddr};
    let campaign = answer(
        org.request("create_campaign", json!({"name": name})),
        "campaign",
    )["campaign"]
        .as_i64()
        .unwrap();
    let battle = answer(
        org.request(
            "create_battle",
            json!({"campaign": campaign, "game": "race", "config": {"target": target}}),
        ),
        "battle",
    )["battle"]
        .as_i64()
        .unwrap();
    let mut seats = [0u8, 1].map(|seat| {
        let inv = answer(
            org.request(
                "invite",
                json!({"role": "player", "label": format!("seat {}", seat + 1),
                       "campaign": campaign, "battle": battle, "seat": seat}),
            ),
            "invite",
        );
        let addr = ServerAddr::parse(lists[seat as usize]).unwrap();
        let mut c = Client::connect(addr.clone(), None).unwrap();
        let r = answer(
            c.request_no_retry("redeem", json!({"code": inv["code"]})),
            "seat redeem",
        );
        c.close();
        let token = xenolog_server::secret::Token::from_text(r["token"].as_str().unwrap());
        let mut client = Client::connect(addr, Some(token)).unwrap();
        answer(
            client.request(
                "join",
                json!({"battle": battle, "seat": seat,
                       "nonce": xenolog_engine::fair::hex(&[seat + 7; 32])}),
            ),
            "join",
        );
        Seat {
            seat,
            client,
            ids: Vec::new(),
            receipts: Vec::new(),
            state: Value::Null,
            over: None,
        }
    });
    for s in seats.iter_mut() {
        answer(s.client.watch(battle, s.seat, None), "watch");
        s.catch_up(None);
    }
    (campaign, battle, seats)
}
