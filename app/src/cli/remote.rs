//! `--server URL` on the existing commands (server/DESIGN.md section 11):
//! `legal`, `play --script`, `state`, `log` and `autoplay` on a battle of a
//! club server print exactly what they print on a file, showing the seat of
//! the token only (principle 14). FILE is the campaign's number or name on
//! the server, `--battle` the battle's number there.
//!
//! Exit codes as on a file: a refusal by the server (a rule, a stale head,
//! another seat) is 1, a connection failure is 2 with the reason in words.
//! The token comes from `XENOLOG_TOKEN`, `--token-file`, or the file
//! `club redeem` wrote in the club folder; never from an argument.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use xenolog_engine::{EntryId, EntryText, FlowMark, Randomness};
use xenolog_server::client::{Client, ClientError, ServerAddr, new_cmd_id};
use xenolog_server::proto::ErrCode;
use xenolog_server::secret::Token;

use super::{BattleRef, Fail, Out, ViewArg, entry_line, json_line, line, open_script, script_line};

/// The environment variable that may hold the token.
pub(super) const TOKEN_ENV: &str = "XENOLOG_TOKEN";
/// The environment variable that may name the club folder.
pub(super) const CLUB_DIR_ENV: &str = "XENOLOG_CLUB_DIR";

/// A client failure as the command line says it: refusals exit 1,
/// connection failures 2.
/// A request that makes something (a campaign, a battle, an invitation) is
/// sent once: after a lost answer it may or may not have been made, and
/// sending it again could make two. Say so.
pub(super) fn made_maybe(e: ClientError, what: &str) -> Fail {
    if matches!(e, ClientError::Lost { .. }) {
        Fail::usage(format!(
            "{e}; {what} may have been made before the answer was lost: see `xenolog club campaigns` before asking again"
        ))
    } else {
        fail(e)
    }
}

pub(super) fn fail(e: ClientError) -> Fail {
    if e.is_connection() {
        Fail::usage(e.to_string())
    } else {
        Fail::rule(e.to_string())
    }
}

/// The club folder: where the token, the nonces and the seat logs are kept
/// (`XENOLOG_CLUB_DIR`, else the app's data folder), made readable by its
/// owner only: it holds tokens, nonces and seat logs with this seat's hand.
pub(super) fn club_dir(given: Option<&Path>) -> Out<PathBuf> {
    if let Some(d) = given {
        return Ok(d.to_owned());
    }
    if let Some(d) = std::env::var_os(CLUB_DIR_ENV).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    directories::ProjectDirs::from("org", "Xenolog", "Xenolog")
        .map(|d| d.data_dir().join("club"))
        .ok_or_else(|| {
            Fail::usage(format!(
                "no home folder to keep club files in: set {CLUB_DIR_ENV} to a folder"
            ))
        })
}

/// Where `club redeem` keeps the token of a server.
pub(super) fn default_token_file(dir: &Path, addr: &ServerAddr) -> PathBuf {
    dir.join(format!("token-{}", addr.file_part()))
}

/// Make a folder (and its parents) for the club files, private to its
/// owner when this makes it (`crate::private`).
pub(super) fn private_dir(dir: &Path) -> Out {
    crate::private::private_dir(dir).map_err(Fail::usage)
}

/// Write a secret file readable by its owner only, atomically
/// (`crate::private`).
pub(super) fn write_secret(path: &Path, text: &str) -> Out {
    crate::private::write_private(path, text).map_err(Fail::usage)
}

/// The token to say hello with: `XENOLOG_TOKEN`, else `--token-file`, else
/// the file `club redeem` wrote for this server.
pub(super) fn token(addr: &ServerAddr, token_file: Option<&Path>) -> Out<Token> {
    if let Ok(t) = std::env::var(TOKEN_ENV)
        && !t.trim().is_empty()
    {
        return Ok(Token::from_text(&t));
    }
    let path = match token_file {
        Some(p) => p.to_owned(),
        None => default_token_file(&club_dir(None)?, addr),
    };
    match std::fs::read_to_string(&path) {
        Ok(t) if !t.trim().is_empty() => Ok(Token::from_text(&t)),
        Ok(_) => Err(Fail::usage(format!(
            "the token file {} is empty",
            path.display()
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Fail::usage(format!(
            "no token for {}: redeem an invitation first (xenolog club redeem CODE --server {}), \
             or give --token-file FILE or {TOKEN_ENV}",
            addr.host,
            addr.ws_url()
        ))),
        Err(e) => Err(Fail::usage(format!(
            "cannot read the token file {}: {e}",
            path.display()
        ))),
    }
}

/// Connect to a server with the token and say hello.
pub(super) fn connect(server: &str, token_file: Option<&Path>) -> Out<Client> {
    connect_ca(server, token_file, None)
}

/// [`connect`] checking a `wss://` server's certificate against `ca_file`.
pub(super) fn connect_ca(
    server: &str,
    token_file: Option<&Path>,
    ca_file: Option<&Path>,
) -> Out<Client> {
    let mut addr = ServerAddr::parse(server).map_err(Fail::usage)?;
    if let Some(ca) = ca_file {
        addr = addr.with_ca_file(ca);
    }
    let t = token(&addr, token_file)?;
    Client::connect(addr, Some(t)).map_err(fail)
}

/// The seats of a battle the token opens (from `hello`'s grants).
pub(super) fn my_seats(c: &Client, battle: i64) -> Vec<(i64, u8)> {
    c.hello()["grants"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|g| g["battle"].as_i64() == Some(battle))
        .filter_map(|g| Some((g["campaign"].as_i64()?, g["seat"].as_u64()? as u8)))
        .collect()
}

/// The seat to act or look as: `--as` (a seat number from 1 the token
/// opens, see [`super::parse_seat`]), or the token's only seat of the
/// battle. The answer is the seat's index from 0, as the server takes it.
pub(super) fn seat_of(c: &Client, battle: i64, asked: Option<&str>) -> Out<u8> {
    let mine = my_seats(c, battle);
    let list = || {
        mine.iter()
            .map(|(_, s)| super::seat_number(xenolog_engine::Actor(*s)).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match asked.map(str::trim) {
        Some(a) => {
            let seat = super::parse_seat(a)
                .map_err(|e| {
                    Fail::usage(format!(
                        "--as {e}; on a club server name the seat by its number (your token opens {})",
                        if mine.is_empty() { "none".to_owned() } else { list() }
                    ))
                })?
                .0;
            if mine.iter().any(|(_, s)| *s == seat) {
                Ok(seat)
            } else if mine.is_empty() {
                Err(Fail::rule(format!(
                    "your token opens no seat of battle {battle}"
                )))
            } else {
                Err(Fail::rule(format!(
                    "your token opens seat {} of battle {battle}, not seat {a}",
                    list()
                )))
            }
        }
        None => match mine.as_slice() {
            [(_, s)] => Ok(*s),
            [] => Err(Fail::rule(format!(
                "your token opens no seat of battle {battle}: ask the organiser for a seat invitation"
            ))),
            _ => Err(Fail::usage(format!(
                "your token opens seats {} of battle {battle}: say which with --as SEAT",
                list()
            ))),
        },
    }
}

/// Check that FILE (the campaign's number or name) is the battle's campaign.
pub(super) fn check_campaign(c: &mut Client, given: &Path, battle: i64) -> Out<i64> {
    let text = given.to_string_lossy().trim().to_owned();
    let of_battle = my_seats(c, battle).first().map(|(camp, _)| *camp);
    let id = match text.parse::<i64>() {
        Ok(id) => id,
        Err(_) => {
            let list = c.request("campaigns", json!({})).map_err(fail)?;
            list["campaigns"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|x| x["name"].as_str() == Some(text.as_str()))
                .and_then(|x| x["campaign"].as_i64())
                .ok_or_else(|| {
                    Fail::usage(format!(
                        "the server has no campaign '{text}' that your token opens (see xenolog club campaigns)"
                    ))
                })?
        }
    };
    match of_battle {
        Some(camp) if camp != id => Err(Fail::usage(format!(
            "battle {battle} is in campaign {camp}, not in campaign {id}"
        ))),
        _ => Ok(id),
    }
}

/// The battle's server and token (`--server`, `--token-file`).
fn open(at: &BattleRef, view: Option<&ViewArg>) -> Out<(Client, u8)> {
    let server = at.server.as_deref().unwrap_or_default();
    let mut c = connect(server, at.token_file.as_deref())?;
    let seat = seat_of(&c, at.battle, view.and_then(|v| v.seat.as_deref()))?;
    check_campaign(&mut c, &at.file, at.battle)?;
    Ok((c, seat))
}

/// `legal --server`
pub(super) fn legal(at: &BattleRef, view: &ViewArg, json: bool, out: &mut dyn Write) -> Out {
    let (mut c, seat) = open(at, Some(view))?;
    let body = c
        .request("legal", json!({"battle": at.battle, "seat": seat}))
        .map_err(fail)?;
    let legal = body["legal"].as_array().cloned().unwrap_or_default();
    if legal.is_empty() && !json {
        let state = c.request("campaigns", json!({})).map_err(fail)?;
        let status = state["campaigns"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|x| x["battles"].as_array().cloned().unwrap_or_default())
            .find(|b| b["battle"].as_i64() == Some(at.battle))
            .unwrap_or(Value::Null);
        let why = match status["status"].as_str() {
            Some("over") => format!(
                "the battle is over: {}",
                status["result"].as_str().unwrap_or("")
            ),
            _ => format!(
                "seat {} is not asked to act now ({} {})",
                seat + 1,
                names(&status["asked"]),
                if status["asked"].as_array().map_or(0, Vec::len) == 1 {
                    "is"
                } else {
                    "are"
                }
            ),
        };
        return line(out, why);
    }
    for (i, l) in legal.iter().enumerate() {
        if json {
            json_line(out, l)?;
        } else {
            line(
                out,
                format!("{:>4}  {}", i + 1, l["text"].as_str().unwrap_or_default()),
            )?;
        }
    }
    Ok(())
}

fn names(v: &Value) -> String {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect::<Vec<_>>()
        .join(" and ")
}

/// `state --server`
pub(super) fn state(
    at: &BattleRef,
    at_entry: Option<&str>,
    view: &ViewArg,
    json: bool,
    out: &mut dyn Write,
) -> Out {
    let mut fields = json!({"battle": at.battle});
    match at_entry.map(str::trim) {
        None | Some("end" | "head") => {}
        Some("start" | "setup") => fields["at"] = Value::Null,
        Some(n) => {
            let id: EntryId = n.parse().map_err(|_| {
                Fail::usage(format!("'{n}' is not an entry number, 'start' or 'end'"))
            })?;
            fields["at"] = json!(id);
        }
    }
    let (mut c, seat) = open(at, Some(view))?;
    fields["seat"] = json!(seat);
    let body = c.request("state", fields).map_err(fail)?;
    if json {
        json_line(out, &body["state"])
    } else {
        line(
            out,
            format!(
                "club battle {} {}, as seat {}\n{}",
                at.battle,
                body["at"]
                    .as_u64()
                    .map_or("at the setup".to_owned(), |i| format!("after entry {i}")),
                seat + 1,
                serde_json::to_string_pretty(&body["state"]).unwrap_or_default()
            ),
        )
    }
}

/// Watch from the start and collect the backfill until `live`: the entries
/// and, for a battle that is over, its outcome.
fn backfill(c: &mut Client, battle: i64, seat: u8) -> Out<(Vec<Value>, Option<Value>)> {
    c.watch(battle, seat, None).map_err(fail)?;
    let mut entries = Vec::new();
    let mut over = None;
    loop {
        let Some(ev) = c.next_event(Duration::from_secs(60)).map_err(fail)? else {
            return Err(Fail::usage(
                "the club server sent no end of the backfill within 60 s",
            ));
        };
        if ev["battle"].as_i64() != Some(battle) {
            continue;
        }
        match ev["type"].as_str() {
            Some("entry") => entries.push(ev),
            Some("over") => over = Some(ev["outcome"].clone()),
            Some("live") => return Ok((entries, over)),
            _ => {}
        }
    }
}

/// `log --server`: the line as the seat sees it.
pub(super) fn log(at: &BattleRef, view: &ViewArg, json: bool, out: &mut dyn Write) -> Out {
    let (mut c, seat) = open(at, Some(view))?;
    let (entries, over) = backfill(&mut c, at.battle, seat)?;
    let mut during: Option<FlowMark> = None;
    let last = entries.last().and_then(|e| e["entry"]["id"].as_u64());
    for ev in &entries {
        if json {
            json_line(out, &ev["entry"])?;
            continue;
        }
        let t: EntryText = serde_json::from_value(ev["entry"].clone()).map_err(|e| {
            Fail::usage(format!(
                "the club server sent an entry this build cannot read: {e}"
            ))
        })?;
        let d = during.clone().unwrap_or_else(|| t.flow.clone());
        let mark = if Some(t.id) == last { "> " } else { "  " };
        line(out, format!("{mark}{}", entry_line(&t, &d)))?;
        during = Some(t.flow);
    }
    if !json && let Some(o) = over {
        line(
            out,
            format!("Result: {}", o["summary"].as_str().unwrap_or_default()),
        )?;
    }
    Ok(())
}

/// Entries the client has heard of, by id, and the battle's end.
#[derive(Default)]
struct Heard {
    entries: std::collections::HashMap<u64, Value>,
    over: Option<Value>,
    /// Seat-log file: every entry event as it came, one JSON line each.
    log: Option<std::fs::File>,
}

impl Heard {
    fn take(&mut self, battle: i64, ev: &Value) {
        if ev["battle"].as_i64() != Some(battle) {
            return;
        }
        match ev["type"].as_str() {
            Some("entry") => {
                if let Some(id) = ev["entry"]["id"].as_u64() {
                    if let Some(f) = self.log.as_mut() {
                        // One write per line: a client killed mid-write
                        // leaves at most a torn last line, cut on resume.
                        let _ = f.write_all(format!("{ev}\n").as_bytes());
                    }
                    self.entries.insert(id, ev.clone());
                }
            }
            Some("over") => self.over = Some(ev["outcome"].clone()),
            // A take-back: the seat log keeps it, so a client started again
            // resumes after `to`, the head now (last_in_log).
            Some("moved") => {
                if let Some(f) = self.log.as_mut() {
                    let _ = f.write_all(format!("{ev}\n").as_bytes());
                }
            }
            _ => {}
        }
    }
}

/// Drain the events already received.
fn drain(c: &mut Client, battle: i64, heard: &mut Heard, wait: Duration) -> Out<bool> {
    let mut any = false;
    while let Some(ev) = c.next_event(wait).map_err(fail)? {
        heard.take(battle, &ev);
        any = true;
        if wait > Duration::ZERO {
            break;
        }
    }
    Ok(any)
}

/// The seat log of a battle: the entry events this seat received, kept so
/// that a client started again resumes after the last one.
fn seat_log_path(c: &Client, battle: i64, seat: u8) -> Out<PathBuf> {
    Ok(club_dir(None)?.join(format!(
        "seat-{}-b{battle}-s{seat}.jsonl",
        c.addr().file_part()
    )))
}

/// The head a seat log holds: the last entry id in it, or the `to` of a
/// take-back (`moved`) written after it; `None` at the setup. A torn last
/// line (the client was killed while writing it) is cut off first.
fn last_in_log(path: &Path) -> Option<EntryId> {
    let mut text = std::fs::read_to_string(path).ok()?;
    if !text.is_empty() && !text.ends_with('\n') {
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        text.truncate(keep);
        if let Ok(f) = std::fs::OpenOptions::new().write(true).open(path) {
            let _ = f.set_len(keep as u64);
        }
    }
    let mut head = None;
    for v in text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        if v["type"] == "moved" {
            head = v["to"].as_u64().map(|i| i as EntryId);
        } else if let Some(id) = v["entry"]["id"].as_u64() {
            head = Some(id as EntryId);
        }
    }
    head
}

fn print_entry(ev: &Value, json: bool, out: &mut dyn Write) -> Out {
    if json {
        return json_line(out, &ev["entry"]);
    }
    match serde_json::from_value::<EntryText>(ev["entry"].clone()) {
        Ok(t) => {
            let d = t.flow.clone();
            line(out, entry_line(&t, &d))
        }
        Err(_) => json_line(out, &ev["entry"]),
    }
}

/// Send one command and wait for its `ok`: the entries it made, as events.
fn send_command(
    c: &mut Client,
    battle: i64,
    seat: u8,
    command: &Value,
    heard: &mut Heard,
) -> Result<Vec<u64>, ClientError> {
    let cmd_id = new_cmd_id().map_err(|w| ClientError::Connect {
        url: String::new(),
        why: w,
    })?;
    let at = c.last_entry(battle);
    let body = c.request(
        "command",
        json!({"battle": battle, "seat": seat, "at": at, "command": command, "cmd_id": cmd_id}),
    )?;
    // The entries reach the client before the reply.
    while let Ok(Some(ev)) = c.next_event(Duration::ZERO) {
        heard.take(battle, &ev);
    }
    Ok(body["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect())
}

/// `play --script --server`: one line at a time, each sent and its `ok`
/// awaited before the next is read.
pub(super) fn play(at: &BattleRef, script: &Path, json: bool, out: &mut dyn Write) -> Out {
    let reader = open_script(script)?;
    let server = at.server.as_deref().unwrap_or_default();
    let mut c = connect(server, at.token_file.as_deref())?;
    check_campaign(&mut c, &at.file, at.battle)?;
    let mine = my_seats(&c, at.battle);
    let first = mine
        .first()
        .map(|(_, s)| *s)
        .ok_or_else(|| Fail::rule(format!("your token opens no seat of battle {}", at.battle)))?;
    let mut heard = Heard::default();
    let (entries, _) = backfill(&mut c, at.battle, first)?;
    for e in &entries {
        heard.take(at.battle, e);
    }
    let mut played = 0u64;
    for (n, text) in reader.lines().enumerate() {
        let n = n + 1;
        let Some(cmd) = script_line(n, text, played, r#"{"actor":0,"command":{...}}"#)? else {
            continue;
        };
        if cmd.dice.is_some() {
            return Err(Fail::usage(format!(
                "script line {n}: a club battle's dice are rolled by its server (dice typed in are not taken yet); {played} commands before it were applied"
            )));
        }
        if !mine.iter().any(|(_, s)| *s == cmd.actor.0) {
            return Err(Fail::rule(format!(
                "script line {n} refused: your token opens seat {} of battle {}, not seat {}; {played} commands before it were applied",
                mine.iter()
                    .map(|(_, s)| (s + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(" and "),
                at.battle,
                cmd.actor.0 + 1
            )));
        }
        let ids = send_command(&mut c, at.battle, cmd.actor.0, &cmd.command, &mut heard).map_err(
            |e| {
                let f = fail(e);
                Fail {
                    code: f.code,
                    message: format!(
                        "script line {n} refused: {}; {played} commands before it were applied",
                        f.message
                    ),
                }
            },
        )?;
        played += 1;
        for id in ids {
            if let Some(ev) = heard.entries.get(&id) {
                print_entry(ev, json, out)?;
            }
        }
    }
    if !json {
        eprintln!(
            "applied {played} commands; the battle's head is {}",
            c.last_entry(at.battle)
                .map_or("the setup".to_owned(), |h| format!("entry {h}"))
        );
    }
    c.close();
    Ok(())
}

/// `autoplay --server`: a seeded bot plays the token's seat, waiting for
/// the other seats' moves, until the end, `--steps` commands, or `--wait`
/// seconds with nothing to do. Every entry received is kept in the seat log
/// of the club folder, so a client started again resumes after the last one.
pub(super) fn autoplay(
    at: &BattleRef,
    view: Option<&str>,
    steps: u64,
    seed: u64,
    wait: u64,
    json: bool,
    out: &mut dyn Write,
) -> Out {
    let server = at.server.as_deref().unwrap_or_default();
    let mut c = connect(server, at.token_file.as_deref())?;
    let seat = seat_of(&c, at.battle, view)?;
    check_campaign(&mut c, &at.file, at.battle)?;
    let log_path = seat_log_path(&c, at.battle, seat)?;
    let after = last_in_log(&log_path);
    if let Some(parent) = log_path.parent() {
        private_dir(parent)?;
    }
    // The seat log holds what this seat sees, its hand included: its
    // owner's only (0600), like the token and the nonces.
    let mut open = std::fs::OpenOptions::new();
    open.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.mode(0o600);
    }
    let log = open
        .open(&log_path)
        .map_err(|e| Fail::usage(format!("cannot write {}: {e}", log_path.display())))?;
    if let Some(a) = after {
        eprintln!(
            "resuming battle {} after entry {a} (the last one in {})",
            at.battle,
            log_path.display()
        );
    }
    let mut heard = Heard {
        log: Some(log),
        ..Heard::default()
    };
    c.watch(at.battle, seat, after).map_err(fail)?;
    // The backfill, up to `live`.
    loop {
        let Some(ev) = c.next_event(Duration::from_secs(60)).map_err(fail)? else {
            return Err(Fail::usage(
                "the club server sent no end of the backfill within 60 s",
            ));
        };
        let live = ev["type"] == "live" && ev["battle"].as_i64() == Some(at.battle);
        heard.take(at.battle, &ev);
        if live {
            break;
        }
    }
    let mut bot = Randomness::new(seed, 0, None);
    let mut played = 0u64;
    let mut idle_since = Instant::now();
    while played < steps && heard.over.is_none() {
        let asked_at = c.last_entry(at.battle);
        let body = c
            .request("legal", json!({"battle": at.battle, "seat": seat}))
            .map_err(fail)?;
        drain(&mut c, at.battle, &mut heard, Duration::ZERO)?;
        // The commands are those of the head the server read. An entry
        // heard meanwhile may be after it: a command chosen there is never
        // given at the new head (where the rules may refuse it), it is
        // chosen again. (Read at a head not heard yet, it is given at the
        // one heard and refused as stale: caught up and chosen again.)
        if c.last_entry(at.battle) != asked_at {
            idle_since = Instant::now();
            continue;
        }
        let legal = body["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            if heard.over.is_some() {
                break;
            }
            // Another seat's turn: wait for its move.
            if drain(&mut c, at.battle, &mut heard, Duration::from_millis(500))? {
                idle_since = Instant::now();
            } else if idle_since.elapsed() > Duration::from_secs(wait) {
                eprintln!("nothing to do for {wait} s; stopping (the battle goes on)");
                break;
            }
            continue;
        }
        // Asked but not waited for (the server's `waited_for`): its own
        // offer waits for another seat's answer (Saucers, assumption 18)
        // and taking it back is all it may do. It waits for the answer, and
        // plays (withdraws) only after half of `--wait` with nothing heard.
        // A server older than the key waits for every seat asked.
        let waited = body["waited_for"]
            .as_array()
            .is_none_or(|w| w.iter().any(|s| s.as_u64() == Some(u64::from(seat))));
        if !waited && idle_since.elapsed() < Duration::from_secs(wait) / 2 {
            if drain(&mut c, at.battle, &mut heard, Duration::from_millis(500))? {
                idle_since = Instant::now();
            }
            continue;
        }
        idle_since = Instant::now();
        let pick = &legal[bot.pick(legal.len())];
        match send_command(&mut c, at.battle, seat, &pick["command"], &mut heard) {
            Ok(ids) => {
                played += 1;
                if json {
                    for id in ids.iter().take(1) {
                        if let Some(ev) = heard.entries.get(id) {
                            json_line(out, &ev["entry"])?;
                        }
                    }
                }
            }
            // Another seat came first: catch up and choose again.
            Err(ClientError::Refused(r)) if r.code == ErrCode::Stale => {
                drain(&mut c, at.battle, &mut heard, Duration::from_millis(100))?;
            }
            Err(e) => return Err(fail(e)),
        }
    }
    drain(&mut c, at.battle, &mut heard, Duration::ZERO)?;
    let result = heard
        .over
        .as_ref()
        .and_then(|o| o["summary"].as_str().map(str::to_owned));
    c.close();
    super::autoplayed(played, result, json, out)
}
