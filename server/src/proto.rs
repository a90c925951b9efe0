//! The wire protocol, version 1 (DESIGN.md section 3): one JSON object per
//! WebSocket text frame. No I/O here: decoding a frame into a [`Request`] and
//! encoding replies and events.
//!
//! Request `{"v":1,"id":17,"type":"ping"}` (`id` chosen by the client, echoed);
//! reply `{"v":1,"re":17,"ok":{..}}` or
//! `{"v":1,"re":17,"err":{"code":"bad_json","words":".."}}`; event
//! `{"v":1,"type":"notice",..}` (no `re`). Unknown fields are ignored, an
//! unknown `type` is refused; every refusal has a stable [`ErrCode`] for
//! programs and words for people, and changes nothing.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::secret::{Role, SecretText, Token};
use crate::store::{CampaignId, ServerBattleId, TokenId};
use xenolog_engine::EntryId;

/// A seat in words: counted from 1, as the command line and the app count
/// them (a JSON `seat` or `actor` is an index from 0).
pub fn seat_word(seat: u8) -> String {
    format!("seat {}", u16::from(seat) + 1)
}

/// The protocol version this build speaks.
pub const VERSION: u64 = 1;
/// The largest message a client may send (commands are small).
pub const MAX_MESSAGE: usize = 64 * 1024;

/// Every request type, in the order `unknown_type` lists them.
pub const REQUEST_TYPES: &[&str] = &[
    "hello",
    "redeem",
    "invite",
    "tokens",
    "revoke",
    "ping",
    "create_campaign",
    "create_battle",
    "join",
    "watch",
    "command",
    "dice_needed",
    "legal",
    "state",
    "campaigns",
    "takeback",
    "takeback_answer",
    "campaign_log",
    "campaign_edit",
    "grant_roster",
];

/// A stable error code: programs match on it, people read the words beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrCode {
    /// The frame is not a JSON object.
    BadJson,
    /// Another protocol version.
    Version,
    /// A `type` this server does not know.
    UnknownType,
    /// A known type with missing or ill-typed fields.
    BadRequest,
    /// Anything but `hello` or `redeem` before `hello`.
    HelloFirst,
    /// More than [`MAX_MESSAGE`] bytes; the socket is closed (1009).
    TooBig,
    /// A binary frame.
    Binary,
    /// `hello` with a token the club does not know or has revoked; the
    /// socket is closed.
    BadToken,
    /// `redeem` with a code that is unknown, spent or expired.
    BadCode,
    /// The token may not do this.
    Forbidden,
    /// The thing named does not exist.
    NotFound,
    /// A second `hello` on one socket.
    AlreadyHello,
    /// A seat that already gave another nonce.
    Joined,
    /// The battle waits for its seats' nonces.
    NotStarted,
    /// The command was given against an entry that is no longer the head.
    Stale,
    /// The rules refuse the command.
    Refused,
    /// The battle is over.
    Over,
    /// Too many of something from one address; wait.
    Rate,
    /// The server could not do it (its store failed); nothing changed.
    Internal,
    /// The server's database (PostgreSQL) is not reachable: "the database
    /// is not reachable; retrying". Nothing changed; the server connects
    /// again by itself, and the same request may be sent again in a moment
    /// (a command with its `cmd_id`). Issue 31, `server/POSTGRES.md` §3.
    Unavailable,
    /// A code this build does not know (a newer server's): read, not
    /// refused, so an older client still shows the words beside it
    /// (review3 NIT). A server never sends it.
    #[serde(other)]
    Unknown,
}

impl ErrCode {
    /// Whether the same request may simply be sent again a moment later
    /// (the server said nothing changed and it is coming back).
    pub fn is_retryable(self) -> bool {
        matches!(self, ErrCode::Unavailable)
    }
}

/// A refusal in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    pub code: ErrCode,
    pub words: String,
}

impl Refusal {
    pub fn new(code: ErrCode, words: impl Into<String>) -> Refusal {
        Refusal {
            code,
            words: words.into(),
        }
    }
}

/// A decoded request.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// The first message: who this is.
    Hello {
        token: Token,
        /// The client's name and version, for the organiser's eyes.
        #[serde(default)]
        client: Option<String>,
    },
    /// Spend an invitation: a new token, shown once.
    Redeem {
        code: SecretText,
        /// A name for the new token (defaults to the invitation's).
        #[serde(default)]
        label: Option<String>,
    },
    /// Organiser: a new invitation.
    Invite {
        role: Role,
        #[serde(default)]
        label: Option<String>,
        /// Days until it expires (1 to 30; 7 unless given).
        #[serde(default)]
        days: Option<u32>,
        /// A seat invitation names all three.
        #[serde(default)]
        campaign: Option<CampaignId>,
        #[serde(default)]
        battle: Option<ServerBattleId>,
        #[serde(default)]
        seat: Option<u8>,
    },
    /// Organiser: every token of the club (never the token itself).
    Tokens,
    /// Organiser: revoke a token; its open sockets are closed.
    Revoke { token: TokenId },
    /// The server's time.
    Ping,
    /// Organiser: a new campaign.
    CreateCampaign { name: String },
    /// Organiser: a new battle; the reply carries the commitment to the
    /// server's secret.
    CreateBattle {
        campaign: CampaignId,
        /// The players roll real dice and enter them (no fairness claim:
        /// the server's seed rolls nothing); otherwise the server rolls.
        #[serde(default)]
        entered_dice: bool,
        game: String,
        #[serde(default)]
        config: Option<Value>,
        #[serde(default)]
        title: Option<String>,
        #[serde(default)]
        strict: bool,
        /// Friendly play: take-backs move at once, without asking the
        /// other seats (DESIGN.md section 9).
        #[serde(default)]
        friendly_takebacks: bool,
        /// An Alien Invasion battle over the campaign's rosters: each
        /// seat's roster and models (DESIGN.md section 10).
        #[serde(default)]
        rosters: Vec<crate::store::RosterPick>,
    },
    /// A seat gives its nonce (64 hex digits); the last one starts the battle.
    Join {
        battle: ServerBattleId,
        seat: u8,
        nonce: String,
    },
    /// The seat's view of every entry after `after`, then each new one live.
    Watch {
        battle: ServerBattleId,
        seat: u8,
        #[serde(default)]
        after: Option<EntryId>,
    },
    /// A seat's command, decided against the head `at` (the last entry the
    /// client holds; `null` at the start).
    Command {
        battle: ServerBattleId,
        seat: u8,
        #[serde(default)]
        at: Option<EntryId>,
        command: Value,
        /// The dice a player rolled by hand, in a battle created with
        /// entered dice (refused in a battle whose dice the server rolls).
        #[serde(default)]
        dice: Option<Vec<u8>>,
        /// The client's id for this command (1 to 64 letters, digits, `-`
        /// or `_`; 16 random bytes in hex by convention): the same id again
        /// decides nothing and is answered as the first time, marked `again`.
        #[serde(default)]
        cmd_id: Option<String>,
    },
    /// The commands the seat may give now, described on its own view (as
    /// `xenolog legal --json` prints them).
    Legal { battle: ServerBattleId, seat: u8 },
    /// The sides of the dice `command` needs entered, in a battle created
    /// with entered dice; refused where the server rolls them.
    DiceNeeded {
        battle: ServerBattleId,
        seat: u8,
        command: Value,
    },
    /// The seat's view of the state after entry `at` of the live line
    /// (`null`: the setup; absent: the head), as `xenolog state --json`.
    State {
        battle: ServerBattleId,
        seat: u8,
        #[serde(default, deserialize_with = "present")]
        at: Option<Option<EntryId>>,
    },
    /// The campaigns and battles this token opens, each battle with whose
    /// turn it is (or its result) and the token's seats in it.
    Campaigns,
    /// A seat asks to take the battle's live cursor back to entry `to`
    /// (`null`: the setup); the other seats answer (DESIGN.md section 9).
    Takeback {
        battle: ServerBattleId,
        seat: u8,
        #[serde(default, deserialize_with = "present")]
        to: Option<Option<EntryId>>,
    },
    /// A seat's answer to the take-back asked in a battle.
    TakebackAnswer {
        battle: ServerBattleId,
        seat: u8,
        accept: bool,
        /// The request answered (its number in `takeback_asked`):
        /// required when accepting; when given, an answer to a request no
        /// longer asked is refused.
        #[serde(default)]
        request: Option<u64>,
    },
    /// A campaign's log after entry `after` (0 or absent: all of it), its
    /// standings and its roster owners (DESIGN.md section 10).
    CampaignLog {
        campaign: CampaignId,
        #[serde(default)]
        after: Option<u32>,
    },
    /// One campaign event, decided against the campaign's current head;
    /// `after` is the last log entry the client saw.
    CampaignEdit {
        campaign: CampaignId,
        #[serde(default)]
        after: Option<u32>,
        event: Value,
    },
    /// Organiser: a player's token may edit a roster of a campaign.
    GrantRoster {
        campaign: CampaignId,
        roster: u32,
        token: TokenId,
    },
}

/// A field that may be absent (`None`), `null` (`Some(None)`) or a value.
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

impl Request {
    /// The request's type as on the wire (never its secret fields).
    pub fn kind(&self) -> &'static str {
        match self {
            Request::Hello { .. } => "hello",
            Request::Redeem { .. } => "redeem",
            Request::Invite { .. } => "invite",
            Request::Tokens => "tokens",
            Request::Revoke { .. } => "revoke",
            Request::Ping => "ping",
            Request::CreateCampaign { .. } => "create_campaign",
            Request::CreateBattle { .. } => "create_battle",
            Request::Join { .. } => "join",
            Request::Watch { .. } => "watch",
            Request::Command { .. } => "command",
            Request::Legal { .. } => "legal",
            Request::DiceNeeded { .. } => "dice_needed",
            Request::State { .. } => "state",
            Request::Campaigns => "campaigns",
            Request::Takeback { .. } => "takeback",
            Request::TakebackAnswer { .. } => "takeback_answer",
            Request::CampaignLog { .. } => "campaign_log",
            Request::CampaignEdit { .. } => "campaign_edit",
            Request::GrantRoster { .. } => "grant_roster",
        }
    }
}

/// A frame decoded as far as it goes: the `id` to answer is known even when
/// the rest is refused.
#[derive(Debug)]
pub struct Decoded {
    pub id: Value,
    pub request: Result<Request, Refusal>,
}

/// Decode one text frame. Never panics; every failure is a [`Refusal`].
pub fn decode(text: &str) -> Decoded {
    let refused = |id: Value, r: Refusal| Decoded {
        id,
        request: Err(r),
    };
    if text.len() > MAX_MESSAGE {
        return refused(Value::Null, too_big());
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return refused(
                Value::Null,
                Refusal::new(ErrCode::BadJson, format!("the message is not JSON: {e}")),
            );
        }
    };
    let Value::Object(map) = value else {
        return refused(
            Value::Null,
            Refusal::new(
                ErrCode::BadJson,
                "a message is one JSON object, e.g. {\"v\":1,\"id\":1,\"type\":\"ping\"}",
            ),
        );
    };
    let id = map.get("id").cloned().unwrap_or(Value::Null);
    match map.get("v") {
        Some(v) if v.as_u64() == Some(VERSION) => {}
        Some(v) => {
            return refused(
                id,
                Refusal::new(
                    ErrCode::Version,
                    format!(
                        "this server speaks protocol {VERSION}, your Xenolog speaks {v}: update one of them"
                    ),
                ),
            );
        }
        None => {
            return refused(
                id,
                Refusal::new(
                    ErrCode::Version,
                    format!(
                        "the message has no protocol version \"v\"; this server speaks protocol {VERSION}"
                    ),
                ),
            );
        }
    }
    let kind = match map.get("type") {
        Some(Value::String(k)) => k.clone(),
        _ => {
            return refused(
                id,
                Refusal::new(
                    ErrCode::BadRequest,
                    "the message has no \"type\" (a word such as \"hello\")",
                ),
            );
        }
    };
    if !REQUEST_TYPES.contains(&kind.as_str()) {
        return refused(
            id,
            Refusal::new(
                ErrCode::UnknownType,
                format!(
                    "this server does not know the request type '{}': it knows {}",
                    printable(&kind),
                    REQUEST_TYPES.join(", ")
                ),
            ),
        );
    }
    let request = serde_json::from_value::<Request>(Value::Object(map)).map_err(|e| {
        Refusal::new(
            ErrCode::BadRequest,
            format!("the {kind} request is not as it should be: {e}"),
        )
    });
    Decoded { id, request }
}

/// A name from outside, cut short and without control characters, for words.
fn printable(text: &str) -> String {
    let mut s: String = text.chars().filter(|c| !c.is_control()).take(40).collect();
    if text.chars().count() > 40 {
        s.push('…');
    }
    s
}

/// The refusal of an oversized message.
pub fn too_big() -> Refusal {
    Refusal::new(
        ErrCode::TooBig,
        format!("a message may be at most {} KiB", MAX_MESSAGE / 1024),
    )
}

/// `{"v":1,"re":id,"ok":body}`
pub fn ok(re: &Value, body: Value) -> String {
    json!({"v": VERSION, "re": re, "ok": body}).to_string()
}

/// `{"v":1,"re":id,"err":{"code":..,"words":..}}`
pub fn err(re: &Value, refusal: &Refusal) -> String {
    json!({"v": VERSION, "re": re, "err": refusal}).to_string()
}

/// An event: `{"v":1,"type":kind,..fields}`.
pub fn event(kind: &str, fields: Map<String, Value>) -> String {
    let mut m = Map::new();
    m.insert("v".into(), json!(VERSION));
    m.insert("type".into(), json!(kind));
    m.extend(fields);
    Value::Object(m).to_string()
}

/// A `notice` event: words the server says to a client unasked.
pub fn notice(code: &str, words: &str) -> String {
    let mut m = Map::new();
    m.insert("code".into(), json!(code));
    m.insert("words".into(), json!(words));
    event("notice", m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(text: &str) -> ErrCode {
        decode(text).request.expect_err("refused").code
    }

    #[test]
    fn every_malformed_frame_is_refused_in_words() {
        assert_eq!(code_of("{not json"), ErrCode::BadJson);
        assert_eq!(code_of("[1,2]"), ErrCode::BadJson);
        assert_eq!(code_of(r#"{"id":1,"type":"ping"}"#), ErrCode::Version);
        assert_eq!(code_of(r#"{"v":2,"id":1,"type":"ping"}"#), ErrCode::Version);
        assert_eq!(code_of(r#"{"v":1,"id":1}"#), ErrCode::BadRequest);
        assert_eq!(
            code_of(r#"{"v":1,"id":1,"type":"fly"}"#),
            ErrCode::UnknownType
        );
        assert_eq!(
            code_of(r#"{"v":1,"id":1,"type":"revoke"}"#),
            ErrCode::BadRequest
        );
        assert_eq!(
            code_of(r#"{"v":1,"id":1,"type":"revoke","token":"x"}"#),
            ErrCode::BadRequest
        );
        assert_eq!(code_of(&" ".repeat(MAX_MESSAGE + 1)), ErrCode::TooBig);
    }

    #[test]
    fn the_version_refusal_names_both_versions() {
        let r = decode(r#"{"v":2,"id":1,"type":"ping"}"#)
            .request
            .unwrap_err();
        assert_eq!(
            r.words,
            "this server speaks protocol 1, your Xenolog speaks 2: update one of them"
        );
    }

    #[test]
    fn unknown_fields_are_ignored_and_the_id_is_kept() {
        let d = decode(r#"{"v":1,"id":"a7","type":"ping","extra":[1]}"#);
        assert_eq!(d.id, json!("a7"));
        assert!(matches!(d.request, Ok(Request::Ping)));
        let d = decode(r#"{"v":1,"id":3,"type":"revoke","token":4}"#);
        assert!(matches!(d.request, Ok(Request::Revoke { token: 4 })));
    }

    #[test]
    fn a_decoded_hello_or_redeem_never_shows_its_secret() {
        let d = decode(r#"{"v":1,"id":1,"type":"hello","token":"xnl_p_SECRETSECRET"}"#);
        let shown = format!("{d:?}");
        assert!(!shown.contains("SECRETSECRET"), "{shown}");
        let d = decode(r#"{"v":1,"id":1,"type":"redeem","code":"XNLG-SECR-ETSE"}"#);
        let shown = format!("{d:?}");
        assert!(!shown.contains("SECR-ETSE"), "{shown}");
    }

    #[test]
    fn replies_have_the_envelope() {
        let v: Value = serde_json::from_str(&ok(&json!(5), json!({}))).unwrap();
        assert_eq!(v, json!({"v": 1, "re": 5, "ok": {}}));
        let e = err(&json!(5), &Refusal::new(ErrCode::HelloFirst, "say hello"));
        let v: Value = serde_json::from_str(&e).unwrap();
        assert_eq!(v["err"]["code"], "hello_first");
        assert_eq!(v["re"], 5);
    }
}
