//! The `club` group's take-backs and shared campaign (step S7 of
//! server/DESIGN.md, sections 9 and 10): `club takeback`, `club answer`,
//! `club campaign-log`, `club campaign-edit`, `club buy-skill` and
//! `club grant-roster`. Kept apart from `club.rs`, which names them with one
//! flattened variant.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::{Value, json};
use xenolog_server::client::Client;

use super::remote::{self, fail, made_maybe};
use super::{Fail, Out, json_line, line};

/// Where the club server is and which token to use.
#[derive(Args, Debug)]
pub(super) struct Server {
    /// The club server: ws://HOST:PORT (as `xenolog serve` printed it).
    #[arg(long, value_name = "URL")]
    server: String,
    /// The file holding your token (default: the one `club redeem` wrote in
    /// the club folder, or the XENOLOG_TOKEN variable).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
}

impl Server {
    fn connect(&self) -> Out<Client> {
        remote::connect(&self.server, self.token_file.as_deref())
    }

    /// One request on a connection of its own, closed after the reply: its
    /// body. `made` names what a request that changes the club makes: such a
    /// request is sent once (never resent after a lost connection), and a
    /// lost answer says it may have been made; a read (`None`) is resent.
    fn ask(&self, kind: &str, body: Value, made: Option<&str>) -> Out<Value> {
        let mut c = self.connect()?;
        let reply = match made {
            Some(what) => c
                .request_no_retry(kind, body)
                .map_err(|e| made_maybe(e, what))?,
            None => c.request(kind, body).map_err(fail)?,
        };
        c.close();
        Ok(reply)
    }
}

#[derive(Subcommand, Debug)]
pub(super) enum TableCmd {
    /// Ask to take a live battle back to an entry (`--to setup`: its
    /// start). The other seats answer with `club answer`; when all accept,
    /// the battle moves there (a battle made with --friendly-takebacks
    /// moves at once). Nothing is lost: the next command starts a branch.
    Takeback {
        #[command(flatten)]
        server: Server,
        #[arg(long)]
        battle: i64,
        /// The entry to go back to, or `setup`.
        #[arg(long, value_name = "ENTRY")]
        to: String,
        /// Your seat (default: your token's only seat of the battle).
        #[arg(long = "as", value_name = "SEAT")]
        seat: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Answer the take-back asked in a battle: --accept --request N (the
    /// number `club takeback` printed and the request's event names), or
    /// --refuse.
    Answer {
        #[command(flatten)]
        server: Server,
        #[arg(long)]
        battle: i64,
        #[arg(long, conflicts_with = "refuse", required_unless_present = "refuse")]
        accept: bool,
        #[arg(long)]
        refuse: bool,
        /// The request answered (as `takeback_asked` numbered it):
        /// required with --accept.
        #[arg(long, value_name = "N")]
        request: Option<u64>,
        #[arg(long = "as", value_name = "SEAT")]
        seat: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// A shared campaign's log (after an entry), its standings and who owns
    /// which roster.
    CampaignLog {
        #[command(flatten)]
        server: Server,
        #[arg(long)]
        campaign: i64,
        /// Only the entries after this one.
        #[arg(long)]
        after: Option<u32>,
        #[arg(long)]
        json: bool,
    },
    /// Record one campaign event (JSON), decided against the campaign as it
    /// stands on the server: e.g. buying a skill is
    /// '{"skill_bought": {"model": 3, "skill": "crack_shot"}}', recruiting
    /// '{"model_recruited": {"roster": 1, "model": 0, "name": "Yates",
    /// "kind": "rifleman"}}' (the server numbers the model). A player edits
    /// only the rosters granted to them; the organiser anything.
    CampaignEdit {
        #[command(flatten)]
        server: Server,
        #[arg(long)]
        campaign: i64,
        /// The last log entry you saw (named in a refusal when the log
        /// moved since).
        #[arg(long)]
        after: Option<u32>,
        #[arg(long, value_name = "JSON")]
        event: String,
        #[arg(long)]
        json: bool,
    },
    /// Buy a skill for a model of your roster (a campaign-edit of
    /// `skill_bought`).
    BuySkill {
        #[command(flatten)]
        server: Server,
        #[arg(long)]
        campaign: i64,
        #[arg(long)]
        model: u32,
        /// The skill's id (e.g. crack_shot).
        #[arg(long)]
        skill: String,
        #[arg(long)]
        after: Option<u32>,
        #[arg(long)]
        json: bool,
    },
    /// Organiser: a player's token (its id, see `club tokens`) may edit a
    /// roster of a campaign.
    GrantRoster {
        #[command(flatten)]
        server: Server,
        #[arg(long)]
        campaign: i64,
        #[arg(long)]
        roster: u32,
        #[arg(long, value_name = "TOKEN_ID")]
        token: i64,
        #[arg(long)]
        json: bool,
    },
}

fn at_words(v: &Value) -> String {
    v.as_u64()
        .map_or_else(|| "the setup".to_owned(), |e| format!("entry {e}"))
}

/// Seats (counted from 0 in JSON) in words, counted from 1: "seat 1 and
/// seat 3".
fn seats_words(v: &Value) -> String {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .map(|s| format!("seat {}", s + 1))
        .collect::<Vec<_>>()
        .join(" and ")
}

/// `club watch`: a take-back event (`takeback_asked`, `takeback_answered`,
/// `moved`) carries its `words` like the other events carry theirs (an
/// entry its text): where the server sent none (a take-back accepted), the
/// line is given them here, in the server's manner. Other events, and
/// events with words, are left as they came.
pub(super) fn takeback_words(ev: &mut Value) {
    let kind = ev["type"].as_str().unwrap_or("");
    if !matches!(kind, "takeback_asked" | "takeback_answered" | "moved")
        || ev["words"].as_str().is_some_and(|w| !w.is_empty())
    {
        return;
    }
    let battle = &ev["battle"];
    let request = &ev["request"];
    let words = match kind {
        "takeback_asked" => format!(
            "{} asks to take battle {battle} back to {}: take-back {request}, for {} to answer",
            seats_words(&json!([ev["by"]])),
            at_words(&ev["to"]),
            seats_words(&ev["waiting"])
        ),
        "takeback_answered" if ev["accept"] == false => format!(
            "{} refused take-back {request} of battle {battle}; the battle goes on where it was",
            seats_words(&json!([ev["seat"]]))
        ),
        "takeback_answered" => {
            let who = seats_words(&json!([ev["seat"]]));
            match ev["waiting"].as_array() {
                Some(w) if !w.is_empty() => format!(
                    "{who} accepted take-back {request} of battle {battle}; it waits for {}",
                    seats_words(&ev["waiting"])
                ),
                _ => format!(
                    "{who} accepted take-back {request} of battle {battle}: every seat asked has, \
                     and the battle is taken back"
                ),
            }
        }
        _ => format!(
            "battle {battle} was taken back to {}; the entries after it stay on their branch",
            at_words(&ev["to"])
        ),
    };
    ev["words"] = json!(words);
}

pub(super) fn run(cmd: TableCmd, out: &mut dyn Write) -> Out {
    match cmd {
        TableCmd::Takeback {
            server,
            battle,
            to,
            seat,
            json,
        } => {
            let to: Value = match to.trim() {
                "setup" => Value::Null,
                t => json!(t.parse::<u64>().map_err(|_| Fail::usage(format!(
                    "--to '{t}': give an entry number, or `setup` for the battle's start"
                )))?),
            };
            let mut c = server.connect()?;
            let seat = remote::seat_of(&c, battle, seat.as_deref())?;
            let body = c
                .request_no_retry(
                    "takeback",
                    json!({"battle": battle, "seat": seat, "to": to}),
                )
                .map_err(|e| made_maybe(e, "the take-back"))?;
            c.close();
            if json {
                return json_line(out, &body);
            }
            if body["moved"] == true {
                line(
                    out,
                    format!("battle {battle} taken back to {}", at_words(&body["to"])),
                )
            } else {
                line(
                    out,
                    format!(
                        "take-back {} asked: battle {battle} back to {}; waiting for seat {} \
                         (club answer --request {})",
                        body["request"],
                        at_words(&body["to"]),
                        body["waiting"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_u64)
                            .map(|s| (s + 1).to_string())
                            .collect::<Vec<_>>()
                            .join(" and "),
                        body["request"],
                    ),
                )
            }
        }
        TableCmd::Answer {
            server,
            battle,
            accept,
            refuse,
            request,
            seat,
            json,
        } => {
            let accept = accept && !refuse;
            // Accepting names the request (server/DESIGN.md section 9): an
            // accept typed for one request never moves the battle for a
            // later one. Said before anything is sent.
            if accept && request.is_none() {
                return Err(Fail::usage(format!(
                    "--accept needs --request N: the number of the take-back you accept \
                     (`club takeback` printed it; `club watch --battle {battle}` shows it as \
                     the request of takeback_asked)"
                )));
            }
            let mut c = server.connect()?;
            let seat = remote::seat_of(&c, battle, seat.as_deref())?;
            let body = c
                .request_no_retry(
                    "takeback_answer",
                    json!({"battle": battle, "seat": seat, "accept": accept, "request": request}),
                )
                .map_err(|e| made_maybe(e, "the answer"))?;
            c.close();
            if json {
                return json_line(out, &body);
            }
            let words = if body["moved"] == true {
                format!(
                    "accepted: battle {battle} taken back to {}",
                    at_words(&body["to"])
                )
            } else if body["refused"] == true {
                format!("refused: battle {battle} goes on where it was")
            } else {
                format!(
                    "accepted; the take-back waits for seat {}",
                    body["waiting"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_u64)
                        .map(|s| (s + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(" and ")
                )
            };
            line(out, words)
        }
        TableCmd::CampaignLog {
            server,
            campaign,
            after,
            json,
        } => {
            let body = server.ask(
                "campaign_log",
                json!({"campaign": campaign, "after": after}),
                None,
            )?;
            if json {
                return json_line(out, &body);
            }
            show_log(&body, out)
        }
        TableCmd::CampaignEdit {
            server,
            campaign,
            after,
            event,
            json,
        } => {
            let event: Value = serde_json::from_str(&event)
                .map_err(|e| Fail::usage(format!("--event is not valid JSON: {e}")))?;
            edit(&server, campaign, after, event, json, out)
        }
        TableCmd::BuySkill {
            server,
            campaign,
            model,
            skill,
            after,
            json,
        } => edit(
            &server,
            campaign,
            after,
            json!({"skill_bought": {"model": model, "skill": skill}}),
            json,
            out,
        ),
        TableCmd::GrantRoster {
            server,
            campaign,
            roster,
            token,
            json,
        } => {
            let body = server.ask(
                "grant_roster",
                json!({"campaign": campaign, "roster": roster, "token": token}),
                None,
            )?;
            if json {
                return json_line(out, &body);
            }
            line(
                out,
                format!("token {token} may edit roster {roster} of campaign {campaign}"),
            )
        }
    }
}

fn edit(
    server: &Server,
    campaign: i64,
    after: Option<u32>,
    event: Value,
    json: bool,
    out: &mut dyn Write,
) -> Out {
    let body = server.ask(
        "campaign_edit",
        json!({"campaign": campaign, "after": after, "event": event}),
        Some("the campaign edit"),
    )?;
    if json {
        return json_line(out, &body);
    }
    for first in body["landed_first"].as_array().into_iter().flatten() {
        line(
            out,
            format!(
                "  {}. {} (landed first)",
                first["id"],
                first["words"].as_str().unwrap_or("")
            ),
        )?;
    }
    line(
        out,
        format!(
            "{}. {}",
            body["entry"]["id"],
            body["entry"]["words"].as_str().unwrap_or("")
        ),
    )
}

/// The log in words, then the standings roster by roster.
fn show_log(body: &Value, out: &mut dyn Write) -> Out {
    for e in body["entries"].as_array().into_iter().flatten() {
        line(
            out,
            format!("{}. {}", e["id"], e["words"].as_str().unwrap_or("")),
        )?;
    }
    let st = &body["standings"];
    let models: Vec<&Value> = st["models"].as_array().into_iter().flatten().collect();
    for r in st["rosters"].as_array().into_iter().flatten() {
        let owners: Vec<String> = body["owners"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|o| o["roster"] == r["id"])
            .map(|o| format!("token {}", o["token_id"]))
            .collect();
        line(
            out,
            format!(
                "roster {} {} ({}){}",
                r["id"],
                r["name"].as_str().unwrap_or(""),
                r["faction"].as_str().unwrap_or(""),
                if owners.is_empty() {
                    String::new()
                } else {
                    format!(", edited by {}", owners.join(", "))
                }
            ),
        )?;
        for id in r["models"].as_array().into_iter().flatten() {
            let Some(m) = models.iter().find(|m| m["id"] == *id) else {
                continue;
            };
            let earned = m["earned"].as_i64().unwrap_or(0);
            let spent = m["spent"].as_i64().unwrap_or(0);
            let skills: Vec<String> = m["skills"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| format!("{} x{}", s[0].as_str().unwrap_or(""), s[1]))
                .collect();
            line(
                out,
                format!(
                    "  {} {} ({}): {}, {} EP unspent{}",
                    m["id"],
                    m["name"].as_str().unwrap_or(""),
                    m["kind"].as_str().unwrap_or(""),
                    m["status"].as_str().unwrap_or(""),
                    earned - spent,
                    if skills.is_empty() {
                        String::new()
                    } else {
                        format!("; {}", skills.join(", "))
                    }
                ),
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(mut ev: Value) -> String {
        takeback_words(&mut ev);
        ev["words"].as_str().unwrap_or("").to_owned()
    }

    /// `club watch` gives every take-back event words, seats counted from
    /// 1: an accept the server sent without words gets them; words the
    /// server sent are kept; other events are left as they came.
    #[test]
    fn club_watch_gives_take_back_events_words() {
        assert_eq!(
            said(
                json!({"type": "takeback_answered", "battle": 4, "request": 2, "seat": 1,
                "accept": true, "waiting": [0, 2]})
            ),
            "seat 2 accepted take-back 2 of battle 4; it waits for seat 1 and seat 3"
        );
        assert_eq!(
            said(
                json!({"type": "takeback_answered", "battle": 4, "request": 2, "seat": 0,
                "accept": true})
            ),
            "seat 1 accepted take-back 2 of battle 4: every seat asked has, and the battle is \
             taken back"
        );
        assert_eq!(
            said(
                json!({"type": "takeback_answered", "battle": 4, "request": 2, "seat": 0,
                "accept": false})
            ),
            "seat 1 refused take-back 2 of battle 4; the battle goes on where it was"
        );
        assert_eq!(
            said(
                json!({"type": "takeback_asked", "battle": 4, "request": 3, "by": 1, "to": 17,
                "waiting": [0]})
            ),
            "seat 2 asks to take battle 4 back to entry 17: take-back 3, for seat 1 to answer"
        );
        assert_eq!(
            said(json!({"type": "moved", "battle": 4, "to": null, "words": "the server's"})),
            "the server's"
        );
        assert_eq!(
            said(json!({"type": "moved", "battle": 4, "to": null})),
            "battle 4 was taken back to the setup; the entries after it stay on their branch"
        );
        let mut entry = json!({"type": "entry", "battle": 4});
        takeback_words(&mut entry);
        assert_eq!(entry, json!({"type": "entry", "battle": 4}));
    }
}
