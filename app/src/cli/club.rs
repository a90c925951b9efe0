//! `xenolog serve`: the club server in the foreground (`xenolog_server`),
//! and the `club` group: what a club server has with no local equivalent
//! (redeem an invitation, invite, create campaigns and battles, join with a
//! nonce, list, watch, download).
//!
//! It prints the address and, on the first start, the organiser's one-time
//! invitation to standard output (never to the log on standard error), and
//! stops cleanly on SIGINT or SIGTERM with exit code 0.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde_json::{Value, json};
use xenolog_server::client::{Client, ServerAddr, invitation_code, is_invitation_link, new_nonce};
use xenolog_server::serve::{
    Config, TlsFiles, Tuning, check_public, invitation_link, run_blocking_tuned,
};

use super::remote::{self, club_dir, default_token_file, fail, made_maybe, write_secret};
use super::{Fail, Out, json_line, line};

#[derive(Args, Debug)]
pub(super) struct ServeArgs {
    /// The data folder: the club file and the campaigns (made if missing).
    /// Not with --database.
    #[arg(
        long,
        required_unless_present = "database",
        conflicts_with = "database"
    )]
    data: Option<PathBuf>,
    /// Keep the club on a PostgreSQL database instead of a data folder:
    /// postgres://USER@HOST:PORT/DB (or a libpq string). Its tables go in
    /// the schema `club`, each campaign in a schema of its own; several
    /// `xenolog serve` processes may serve one database (players list them
    /// all: --server ws://A:P,ws://B:Q).
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// The address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: SocketAddr,
    /// Print a new organiser invitation even though the club has an
    /// organiser (a lost token: revoke it afterwards).
    #[arg(long)]
    invite_organiser: bool,
    /// Where players reach the server, as invitation links name it
    /// (HOST:PORT, e.g. club.example.org:8470): behind a router or a
    /// reverse proxy, or listening on 0.0.0.0. Default: the listen address.
    /// Behind a reverse proxy that takes TLS, wss://HOST:PORT: the links
    /// then say TLS (xenolog+tls://) though this server speaks ws://.
    #[arg(long, value_name = "[wss://]HOST:PORT")]
    public_url: Option<String>,
    /// Take TLS (wss:// and https://) with this certificate chain (PEM);
    /// with --tls-key. Without them the server speaks ws://, as behind a
    /// reverse proxy that takes TLS.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The certificate's private key (PEM); with --tls-cert.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
}

pub(super) fn serve(args: ServeArgs, out: &mut dyn Write) -> Out {
    if let Some(p) = &args.public_url {
        check_public(p).map_err(Fail::usage)?;
    }
    let on_database = args.database.is_some();
    let config = Config {
        data: args.data.unwrap_or_default(),
        listen: args.listen,
        invite_organiser: args.invite_organiser,
        public: args.public_url,
    };
    let tuning = Tuning {
        tls: match (args.tls_cert, args.tls_key) {
            (Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
            _ => None,
        },
        database: args.database,
        ..Tuning::default()
    };
    run_blocking_tuned(config, tuning, |ready| {
        // Whether the links say TLS: this server takes it, or a reverse
        // proxy in front does (--public-url wss://...).
        let tls = ready.links_tls;
        let mut text = format!("listening on {}\n", ready.ws_url);
        if on_database {
            text += &format!("club database: {}\n", ready.club_file.display());
        } else {
            text += &format!("club file {}\n", ready.club_file.display());
        }
        match &ready.invitation {
            Some(inv) => {
                text += &format!(
                    "organiser invitation (shown once, valid 7 days): {}\n",
                    inv.code.expose()
                );
                text += &format!(
                    "  link: {}\n",
                    invitation_link(&ready.public, tls, &inv.code)
                );
            }
            None => {
                // None: the club has an organiser, or (several processes
                // on one database) another start's invitation is waiting
                // to be redeemed; the store does not say which.
                text += "no organiser invitation printed: the club has an organiser, or an invitation printed by another start is still waiting to be redeemed; --invite-organiser prints a new one (and voids a waiting one)\n"
            }
        }
        if tls {
            text += &format!(
                "players paste the xenolog+tls:// link, or give --server wss://{} with their code (and --ca-file CERT.pem or XENOLOG_CA=CERT.pem when the certificate is the club's own)\n",
                ready.public
            );
        }
        text += "stop with Ctrl-C (or SIGTERM)\n";
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write to standard output: {e}"))
    })
    .map_err(|e| Fail::usage(e.to_string()))
}

/// Where the club server is and which token to use.
#[derive(Args, Debug)]
pub(super) struct ServerArg {
    /// The club server: ws://HOST:PORT, or wss://HOST:PORT over TLS (as
    /// `xenolog serve` printed it). Several processes of one club as a
    /// list, ws://A:P,ws://B:Q: a lost connection goes on at the next one.
    #[arg(long, value_name = "URL")]
    server: String,
    /// The file holding your token (default: the one `club redeem` wrote in
    /// the club folder, or the XENOLOG_TOKEN variable).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// With wss://: the CA certificate (PEM) the server's is checked
    /// against (default: the XENOLOG_CA variable, or the public roots).
    #[arg(long, value_name = "FILE")]
    ca_file: Option<PathBuf>,
}

impl ServerArg {
    fn connect(&self) -> Out<Client> {
        remote::connect_ca(
            &self.server,
            self.token_file.as_deref(),
            self.ca_file.as_deref(),
        )
    }
}

#[derive(Subcommand, Debug)]
pub(super) enum ClubCmd {
    /// Spend an invitation (a code, or a link xenolog://HOST:PORT/join#CODE,
    /// xenolog+tls://... for a club that serves TLS): the token it gives is
    /// kept in a file readable by you only. A code or token is never sent
    /// over plain ws:// to another machine (XENOLOG_ALLOW_PLAIN=1 if the
    /// network between is yours alone).
    Redeem {
        /// The invitation code or link.
        code: String,
        /// The club server (not needed with a link).
        #[arg(long, value_name = "URL")]
        server: Option<String>,
        /// The CA certificate (PEM) a wss:// club's certificate is checked
        /// against (default: XENOLOG_CA, else the public roots).
        #[arg(long, value_name = "FILE")]
        ca_file: Option<PathBuf>,
        /// Where to keep the token (default: the club folder).
        #[arg(long, value_name = "FILE")]
        token_file: Option<PathBuf>,
        /// A name for the token (default: the invitation's).
        #[arg(long)]
        label: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Organiser: a new invitation, for a seat of a battle (--campaign,
    /// --battle, --seat), a player, a spectator or another organiser.
    Invite {
        #[command(flatten)]
        server: ServerArg,
        /// player, spectator or organiser.
        #[arg(long, default_value = "player")]
        role: String,
        #[arg(long)]
        label: Option<String>,
        #[arg(long)]
        campaign: Option<i64>,
        #[arg(long)]
        battle: Option<i64>,
        /// The seat, numbered from 1 (seat 1 is actor 0 of `legal --json`).
        #[arg(long, value_parser = super::seat_index)]
        seat: Option<u8>,
        /// Days until it expires (1 to 30).
        #[arg(long)]
        days: Option<u32>,
        #[arg(long)]
        json: bool,
    },
    /// Organiser: a new campaign on the server.
    NewCampaign {
        #[command(flatten)]
        server: ServerArg,
        name: String,
        #[arg(long)]
        json: bool,
    },
    /// Organiser: a new battle (the server commits to its secret now; the
    /// battle starts when every seat has joined).
    NewBattle {
        #[command(flatten)]
        server: ServerArg,
        #[arg(long)]
        campaign: i64,
        /// The game id (see `xenolog games`).
        #[arg(long)]
        game: String,
        /// The game's config as a JSON object.
        #[arg(long, value_name = "JSON")]
        config: Option<String>,
        #[arg(long)]
        title: Option<String>,
        #[arg(long)]
        strict: bool,
        /// The players roll real dice and enter them (no fairness claim:
        /// the server's seed rolls nothing).
        #[arg(long)]
        entered_dice: bool,
        /// Friendly play: take-backs move at once, without asking the other seats.
        #[arg(long)]
        friendly_takebacks: bool,
        /// An Alien Invasion battle over the shared campaign's rosters: a
        /// seat (from 1), the roster it fields and its models, e.g.
        /// `--rosters 1:1:1,2 --rosters 2:2:3` (see `club campaign-log`).
        #[arg(long = "rosters", value_name = "SEAT:ROSTER:MODEL,MODEL...")]
        rosters: Vec<String>,
        #[arg(long)]
        json: bool,
    },
    /// Organiser: the club's tokens (id, role, name, the seats each opens,
    /// when made, last used, revoked); never a token itself.
    Tokens {
        #[command(flatten)]
        server: ServerArg,
        #[arg(long)]
        json: bool,
    },
    /// Organiser: revoke a token by its id (see `club tokens`); its open
    /// connections are closed in words at once.
    Revoke {
        #[command(flatten)]
        server: ServerArg,
        /// The token's id.
        id: i64,
        #[arg(long)]
        json: bool,
    },
    /// Join a battle as your seat: a nonce of 32 random bytes is made here,
    /// sent, and kept in the club folder, so that after the end you can
    /// check with `verify --nonce` that it went into the dice's seed.
    Join {
        #[command(flatten)]
        server: ServerArg,
        #[arg(long)]
        battle: i64,
        /// The seat, numbered from 1 (default: your token's only seat of
        /// the battle).
        #[arg(long, value_name = "SEAT")]
        seat: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// The campaigns your token opens, with their battles and whose turn it is.
    Campaigns {
        #[command(flatten)]
        server: ServerArg,
        #[arg(long)]
        json: bool,
    },
    /// The battles your token has seats in, with whose turn it is.
    Battles {
        #[command(flatten)]
        server: ServerArg,
        #[arg(long)]
        json: bool,
    },
    /// A battle's events as JSON lines, as your seat sees them: the entries
    /// so far, then each new one, until the battle is over. Each entry and
    /// each take-back event carries its words.
    Watch {
        #[command(flatten)]
        server: ServerArg,
        #[arg(long)]
        battle: i64,
        /// The seat (default: your token's only seat of the battle).
        #[arg(long = "as", value_name = "SEAT")]
        seat: Option<String>,
        /// Only the entries after this one.
        #[arg(long)]
        after: Option<u64>,
        /// Stop once the entries so far are sent (at `live`).
        #[arg(long)]
        until_live: bool,
    },
    /// Take-backs and the shared campaign (`club_s7.rs`).
    #[command(flatten)]
    Table(super::club_s7::TableCmd),
    /// Check a club kept on PostgreSQL (a restored backup first of all):
    /// every battle of every campaign re-decided and its hashes checked, a
    /// finished club battle's dice against the revealed secret and the
    /// nonces the club recorded. A summary line per campaign; exit 1 if
    /// anything fails. Read-only. One campaign: xenolog verify
    /// postgres://...#SCHEMA.
    Verify {
        /// The club's database, as `xenolog serve --database` was given it.
        #[arg(long, value_name = "URL")]
        database: String,
        #[arg(long)]
        json: bool,
    },
    /// Download a battle's file (after its end: the whole battle, to verify).
    Download {
        #[command(flatten)]
        server: ServerArg,
        #[arg(long)]
        campaign: i64,
        #[arg(long)]
        battle: i64,
        #[arg(long)]
        out: PathBuf,
    },
}

pub(super) fn club(cmd: ClubCmd, out: &mut dyn Write) -> Out {
    match cmd {
        ClubCmd::Redeem {
            code,
            server,
            ca_file,
            token_file,
            label,
            json,
        } => {
            let ca = ca_file.as_deref();
            redeem(&code, server.as_deref(), ca, token_file, label, json, out)
        }
        ClubCmd::Invite {
            server,
            role,
            label,
            campaign,
            battle,
            seat,
            days,
            json,
        } => {
            let role = match role.trim() {
                r @ ("player" | "spectator" | "organiser") => r.to_owned(),
                other => {
                    return Err(Fail::usage(format!(
                        "--role '{other}': an invitation is for a player, a spectator or an organiser"
                    )));
                }
            };
            let mut c = server.connect()?;
            let body = c
                .request_no_retry(
                    "invite",
                    json!({"role": role, "label": label, "campaign": campaign,
                           "battle": battle, "seat": seat, "days": days}),
                )
                .map_err(|e| made_maybe(e, "the invitation"))?;
            if json {
                return json_line(out, &body);
            }
            line(
                out,
                format!(
                    "invitation for {} '{}' (shown once): {}\n  link: {}",
                    body["role"].as_str().unwrap_or(""),
                    body["label"].as_str().unwrap_or(""),
                    body["code"].as_str().unwrap_or(""),
                    body["link"].as_str().unwrap_or("")
                ),
            )
        }
        ClubCmd::NewCampaign { server, name, json } => {
            let mut c = server.connect()?;
            let body = c
                .request_no_retry("create_campaign", json!({"name": name}))
                .map_err(|e| made_maybe(e, "the campaign"))?;
            if json {
                return json_line(out, &body);
            }
            line(out, body["campaign"].to_string())
        }
        ClubCmd::NewBattle {
            server,
            campaign,
            game,
            config,
            title,
            strict,
            entered_dice,
            friendly_takebacks,
            rosters,
            json,
        } => {
            let rosters = rosters
                .iter()
                .map(|r| roster_pick(r))
                .collect::<Result<Vec<Value>, Fail>>()?;
            let config = match config.as_deref() {
                None => json!({}),
                Some(t) => match serde_json::from_str::<Value>(t) {
                    Ok(v @ Value::Object(_)) => v,
                    Ok(_) => return Err(Fail::usage("--config must be a JSON object")),
                    Err(e) => return Err(Fail::usage(format!("--config is not valid JSON: {e}"))),
                },
            };
            let mut c = server.connect()?;
            let body = c
                .request_no_retry(
                    "create_battle",
                    json!({"campaign": campaign, "game": game, "config": config,
                           "title": title, "strict": strict, "entered_dice": entered_dice,
                           "friendly_takebacks": friendly_takebacks, "rosters": rosters}),
                )
                .map_err(|e| made_maybe(e, "the battle"))?;
            if json {
                return json_line(out, &body);
            }
            line(out, body["battle"].to_string())?;
            eprintln!(
                "battle {} created; the server's commitment to its secret: {}",
                body["battle"],
                body["commitment"].as_str().unwrap_or("")
            );
            Ok(())
        }
        ClubCmd::Join {
            server,
            battle,
            seat,
            json,
        } => join(&server, battle, seat, json, out),
        ClubCmd::Tokens { server, json } => tokens(&server, json, out),
        ClubCmd::Revoke { server, id, json } => {
            let mut c = server.connect()?;
            let body = c.request("revoke", json!({"token": id})).map_err(fail)?;
            c.close();
            if json {
                return json_line(out, &body);
            }
            line(
                out,
                format!(
                    "token {id} ('{}') revoked; {} open connection(s) closed",
                    body["token"]["label"].as_str().unwrap_or(""),
                    body["closed"]
                ),
            )
        }
        ClubCmd::Campaigns { server, json } => list(&server, json, false, out),
        ClubCmd::Battles { server, json } => list(&server, json, true, out),
        ClubCmd::Watch {
            server,
            battle,
            seat,
            after,
            until_live,
        } => {
            let mut c = server.connect()?;
            let seat = remote::seat_of(&c, battle, seat.as_deref())?;
            c.watch(battle, seat, after).map_err(fail)?;
            loop {
                let Some(mut ev) = c
                    .next_event(std::time::Duration::from_secs(3600))
                    .map_err(fail)?
                else {
                    continue;
                };
                // Take-back events in words too, as entries are.
                super::club_s7::takeback_words(&mut ev);
                json_line(out, &ev)?;
                out.flush()
                    .map_err(|e| Fail::usage(format!("cannot write output: {e}")))?;
                let kind = ev["type"].as_str().unwrap_or("");
                if ev["battle"].as_i64() == Some(battle)
                    && (kind == "over" || (until_live && kind == "live"))
                {
                    c.close();
                    return Ok(());
                }
            }
        }
        ClubCmd::Table(cmd) => super::club_s7::run(cmd, out),
        ClubCmd::Verify { database, json } => super::club_verify::verify_club(&database, json, out),
        ClubCmd::Download {
            server,
            campaign,
            battle,
            out: dest,
        } => {
            let c = server.connect()?;
            let bytes = c.download(campaign, battle).map_err(fail)?;
            xenolog_saves::write_atomically(&dest, &bytes)?;
            line(
                out,
                format!(
                    "wrote battle {battle} to {} ({} bytes); check it with: xenolog verify {} --nonce SEAT=HEX",
                    dest.display(),
                    bytes.len(),
                    dest.display()
                ),
            )
        }
    }
}

/// One `--rosters SEAT:ROSTER:MODEL,MODEL...` (the seat from 1) as the
/// protocol's pick `{seat, roster, models}` (the seat from 0); a pick that
/// is not one refused in words.
fn roster_pick(text: &str) -> Result<Value, Fail> {
    let bad = |why: &str| {
        Fail::usage(format!(
            "--rosters '{text}': {why} (give SEAT:ROSTER:MODEL,MODEL..., e.g. 1:1:1,2 for seat \
             1 fielding models 1 and 2 of roster 1)"
        ))
    };
    let parts: Vec<&str> = text.trim().split(':').collect();
    let [seat, roster, models] = parts[..] else {
        return Err(bad("give three parts separated by ':'"));
    };
    let seat: u16 = seat
        .trim()
        .parse()
        .map_err(|_| bad(&format!("the seat '{seat}' is not a number")))?;
    if seat == 0 || seat > 255 {
        return Err(bad("seats are numbered from 1"));
    }
    let roster: u32 = roster
        .trim()
        .parse()
        .map_err(|_| bad(&format!("the roster '{roster}' is not a number")))?;
    let models = models
        .split(',')
        .map(|m| {
            m.trim()
                .parse::<u32>()
                .map_err(|_| bad(&format!("the model '{m}' is not a number")))
        })
        .collect::<Result<Vec<u32>, Fail>>()?;
    Ok(json!({"seat": seat - 1, "roster": roster, "models": models}))
}

fn redeem(
    code: &str,
    server: Option<&str>,
    ca_file: Option<&Path>,
    token_file: Option<PathBuf>,
    label: Option<String>,
    json: bool,
    out: &mut dyn Write,
) -> Out {
    let link = is_invitation_link(code);
    let addr = match (server, link) {
        (Some(s), _) => ServerAddr::parse(s).map_err(Fail::usage)?,
        (None, true) => ServerAddr::parse(code).map_err(Fail::usage)?,
        (None, false) => {
            return Err(Fail::usage(
                "give the club server with --server ws://HOST:PORT, or the whole invitation link",
            ));
        }
    };
    let addr = match ca_file {
        Some(ca) => addr.with_ca_file(ca),
        None => addr,
    };
    // Refused before any connection: the code is not sent in plain text
    // to another machine.
    addr.secrets_may_go("invitation code").map_err(fail)?;
    let path = match token_file {
        Some(p) => p,
        None => default_token_file(&club_dir(None)?, &addr),
    };
    let mut c = Client::connect(addr, None).map_err(fail)?;
    let body = c
        .request_no_retry(
            "redeem",
            json!({"code": invitation_code(code), "label": label}),
        )
        .map_err(fail)?;
    let Some(token) = body["token"].as_str() else {
        return Err(Fail::usage(
            "the server gave no new token for this invitation",
        ));
    };
    write_secret(&path, &format!("{token}\n"))?;
    c.close();
    if json {
        return json_line(
            out,
            &json!({"token_file": path.display().to_string(), "role": body["role"],
                    "label": body["label"], "token_id": body["token_id"]}),
        );
    }
    line(
        out,
        format!(
            "redeemed: {} token for '{}', kept in {} (readable by you only; keep it secret)",
            match body["role"].as_str().unwrap_or("") {
                r @ ("organiser" | "admin") => format!("an {r}"),
                r => format!("a {r}"),
            },
            body["label"].as_str().unwrap_or(""),
            path.display()
        ),
    )
}

fn join(
    server: &ServerArg,
    battle: i64,
    seat: Option<String>,
    json: bool,
    out: &mut dyn Write,
) -> Out {
    let mut c = server.connect()?;
    let seat = remote::seat_of(&c, battle, seat.as_deref())?;
    let path = club_dir(None)?.join(format!("nonce-{}-b{battle}-s{seat}", c.addr().file_part()));
    // A nonce kept from an earlier join is given again (a resent join is
    // answered as the first); otherwise a new one is drawn and kept first.
    let nonce = match std::fs::read_to_string(&path) {
        Ok(t) => xenolog_engine::fair::from_hex(t.trim()).map_err(|e| {
            Fail::usage(format!(
                "the kept nonce in {} is damaged: {e}",
                path.display()
            ))
        })?,
        Err(_) => {
            let n = new_nonce().map_err(Fail::usage)?;
            write_secret(&path, &format!("{}\n", xenolog_engine::fair::hex(&n)))?;
            n
        }
    };
    let hex = xenolog_engine::fair::hex(&nonce);
    let body = c
        .request(
            "join",
            json!({"battle": battle, "seat": seat, "nonce": hex}),
        )
        .map_err(fail)?;
    c.close();
    if json {
        let mut b = body.clone();
        b["nonce_file"] = json!(path.display().to_string());
        return json_line(out, &b);
    }
    line(
        out,
        format!(
            "joined seat {} of battle {battle}; {}\nyour nonce is kept in {}; after the end: \
             xenolog verify FILE --nonce {}=$(cat {})\nthe server's commitment: {}",
            u16::from(seat) + 1,
            if body["started"] == json!(true) {
                "every seat is in: the battle has started".to_owned()
            } else {
                format!(
                    "{} of {} seats have joined",
                    body["joined"].as_array().map_or(0, Vec::len),
                    body["seats"]
                )
            },
            path.display(),
            u16::from(seat) + 1,
            path.display(),
            body["commitment"].as_str().unwrap_or("")
        ),
    )
}

/// `club tokens`: one line per token, never the token itself.
fn tokens(server: &ServerArg, json: bool, out: &mut dyn Write) -> Out {
    let mut c = server.connect()?;
    let body = c.request("tokens", json!({})).map_err(fail)?;
    c.close();
    let when = |v: &Value| v.as_i64().map(xenolog_report::date);
    for t in body["tokens"].as_array().into_iter().flatten() {
        if json {
            json_line(out, t)?;
            continue;
        }
        let seats: Vec<String> = t["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| {
                format!(
                    "battle {} seat {}",
                    s["battle"],
                    s["seat"].as_u64().map_or(0, |n| n + 1)
                )
            })
            .collect();
        let mut text = format!(
            "token {:>3}  {:<10} '{}'  made {}",
            t["id"],
            t["role"].as_str().unwrap_or(""),
            t["label"].as_str().unwrap_or(""),
            when(&t["created"]).unwrap_or_default()
        );
        if let Some(d) = when(&t["last_used"]) {
            text += &format!("  last used {d}");
        }
        if !seats.is_empty() {
            text += &format!("  seats: {}", seats.join(", "));
        }
        if let Some(d) = when(&t["revoked"]) {
            text += &format!("  REVOKED {d}");
        }
        line(out, text)?;
    }
    Ok(())
}

fn list(server: &ServerArg, json: bool, battles_only: bool, out: &mut dyn Write) -> Out {
    let mut c = server.connect()?;
    let body = c.request("campaigns", json!({})).map_err(fail)?;
    c.close();
    for camp in body["campaigns"].as_array().into_iter().flatten() {
        if !battles_only {
            if json {
                json_line(out, camp)?;
                continue;
            }
            line(
                out,
                format!(
                    "campaign {}  {}",
                    camp["campaign"],
                    camp["name"].as_str().unwrap_or("")
                ),
            )?;
        }
        for b in camp["battles"].as_array().into_iter().flatten() {
            if battles_only && json {
                let mut b = b.clone();
                b["campaign"] = camp["campaign"].clone();
                json_line(out, &b)?;
                continue;
            }
            if json {
                continue;
            }
            let status = match b["status"].as_str() {
                Some("over") => format!("over: {}", b["result"].as_str().unwrap_or("")),
                Some("playing") => {
                    let asked: Vec<&str> = b["asked"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .collect();
                    let mine = b["my_seats"].as_array().cloned().unwrap_or_default();
                    let yours = b["asked_seats"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|s| mine.contains(s));
                    format!(
                        "{}'s turn{}",
                        asked.join(" and "),
                        if yours { " (yours)" } else { "" }
                    )
                }
                _ => b["words"].as_str().unwrap_or("waiting").to_owned(),
            };
            let status = if b["dice"] == "entered" {
                format!("{status}  (dice entered by hand: no fairness claim)")
            } else {
                status
            };
            line(
                out,
                format!(
                    "{}battle {:>4}  campaign {}  your seats {}  {status}",
                    if battles_only { "" } else { "  " },
                    b["battle"],
                    camp["campaign"],
                    b["my_seats"]
                        .as_array()
                        .map(|seats| seats
                            .iter()
                            .filter_map(Value::as_u64)
                            .map(|s| (s + 1).to_string())
                            .collect::<Vec<_>>()
                            .join(", "))
                        .unwrap_or_default()
                ),
            )?;
        }
    }
    Ok(())
}
