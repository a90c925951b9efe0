//! The battle-file route `GET /v1/campaigns/{c}/battles/{b}/file` (DESIGN.md
//! section 3) and the `campaigns` request (the battle list with whose turn).
//!
//! The route takes the token in `Authorization: Bearer <token>` (never in
//! the URL: proxies log URLs). After the end it answers with the whole
//! battle as a battle file (format 5, the revealed secret in it), which
//! `xenolog verify FILE --nonce SEAT=HEX` checks. Before the end it refuses
//! in words: the whole battle is no seat's to see while it is played
//! (principle 14), and the seat's own view is what `watch` gives.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::{
    After, Answer, Conn, Shared, blocking, blocking_battles, blocking_live, guesses_left,
    note_guess, stay,
};
use crate::lens;
use crate::proto::{ErrCode, Refusal};
use crate::secret::{Role, Token};
use crate::store::{CampaignId, ClubError, ServerBattleId};

/// A refusal of the route: its status and words (a plain text body).
fn refused(status: StatusCode, words: impl Into<String>) -> Response {
    let mut words = words.into();
    words.push('\n');
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        words,
    )
        .into_response()
}

fn status_of(r: &Refusal) -> StatusCode {
    match r.code {
        ErrCode::BadToken => StatusCode::UNAUTHORIZED,
        ErrCode::Forbidden => StatusCode::FORBIDDEN,
        ErrCode::NotFound => StatusCode::NOT_FOUND,
        ErrCode::NotStarted | ErrCode::Over | ErrCode::Stale => StatusCode::CONFLICT,
        ErrCode::Rate => StatusCode::TOO_MANY_REQUESTS,
        ErrCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    }
}

/// `GET /v1/campaigns/{c}/battles/{b}/file`
pub(super) async fn battle_file(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path((campaign, battle)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let (Ok(campaign), Ok(battle)) = (
        campaign.parse::<CampaignId>(),
        battle.parse::<ServerBattleId>(),
    ) else {
        return refused(
            StatusCode::NOT_FOUND,
            "the address names a campaign and a battle by number: /v1/campaigns/1/battles/2/file",
        );
    };
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let Some(token) = token else {
        return refused(
            StatusCode::UNAUTHORIZED,
            "give your token in the header 'Authorization: Bearer <token>' (never in the address)",
        );
    };
    if let Err(r) = guesses_left(&shared, peer.ip()) {
        return refused(status_of(&r), r.words);
    }
    let token = Token::from_text(token);
    let principal = match blocking(&shared, move |t| t.authenticate(&token)).await {
        Ok(p) => p,
        Err(r) => {
            note_guess(&shared, peer.ip(), &r);
            return refused(status_of(&r), r.words);
        }
    };
    // Who may download: an organiser, or a token with a grant in this battle.
    let id = principal.token;
    let grants = match blocking(&shared, move |t| t.grants(id)).await {
        Ok(g) => g,
        Err(r) => return refused(status_of(&r), r.words),
    };
    let campaigns = match blocking_battles(&shared, |b| b.campaigns()).await {
        Ok(c) => c,
        Err(r) => return refused(status_of(&r), r.words),
    };
    if !campaigns.iter().any(|c| c.id == campaign) {
        return refused(
            StatusCode::NOT_FOUND,
            format!("there is no campaign {campaign} on this server"),
        );
    }
    let granted = grants
        .iter()
        .any(|g| g.campaign == campaign && g.battle == Some(battle));
    if principal.role != Role::Organiser && !granted {
        return refused(
            StatusCode::FORBIDDEN,
            format!("your token opens no seat of battle {battle} in campaign {campaign}"),
        );
    }
    let made = blocking_live(&shared, move |l| {
        let Some(secret) = l.revealed(battle)? else {
            return Err(ClubError::Rule(format!(
                "battle {battle} is still being played: its file is whole only after the end, \
                 when the server reveals its secret; until then watch it to see your seat's view"
            )));
        };
        let mut out = Err(String::new());
        l.read(battle, &mut |b| {
            out = lens::battle_file(b, &format!("club battle {battle}"), &secret);
        })?;
        out.map_err(|why| ClubError::Rule(format!("battle {battle}'s file: {why}")))
    })
    .await;
    match made {
        Ok(bytes) => {
            eprintln!("serve: {peer}: battle {battle} downloaded");
            (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, "application/octet-stream".to_owned()),
                    (
                        header::CONTENT_DISPOSITION,
                        format!("attachment; filename=\"battle-{battle}.xenolog-battle\""),
                    ),
                ],
                bytes,
            )
                .into_response()
        }
        Err(r) if r.code == ErrCode::Refused => refused(StatusCode::CONFLICT, r.words),
        Err(r) => refused(status_of(&r), r.words),
    }
}

/// `campaigns`: the campaigns this token opens (an organiser: every one),
/// each with the battles the token has seats in (an organiser: every
/// battle, with its game, title, dice (`rolled` or `entered`) and whether
/// it is strict), whose turn it is there (or
/// the result), and which seats are the token's.
pub(super) async fn campaigns(shared: &Arc<Shared>, conn: &Conn) -> Answer {
    let p = conn
        .principal
        .clone()
        .ok_or_else(|| stay(super::hello_first()))?;
    let id = p.token;
    let grants = blocking(shared, move |t| t.grants(id))
        .await
        .map_err(stay)?;
    let all = blocking_battles(shared, |b| b.campaigns())
        .await
        .map_err(stay)?;
    let mut out = Vec::new();
    for c in all {
        let mine: Vec<_> = grants.iter().filter(|g| g.campaign == c.id).collect();
        if p.role != Role::Organiser && mine.is_empty() {
            continue;
        }
        // An organiser sees every battle of the campaign; a player the
        // battles it holds seats in.
        let cid = c.id;
        let made = blocking_battles(shared, move |b| b.battles_of(cid))
            .await
            .map_err(stay)?;
        let mut battles: Vec<ServerBattleId> = mine.iter().filter_map(|g| g.battle).collect();
        if p.role == Role::Organiser {
            battles.extend(made.iter().map(|b| b.id));
        }
        battles.sort();
        battles.dedup();
        let mut listed = Vec::new();
        for battle in battles {
            let info = made.iter().find(|b| b.id == battle);
            let seats: Vec<u8> = mine
                .iter()
                .filter(|g| g.battle == Some(battle))
                .filter_map(|g| g.seat)
                .collect();
            let own = seats.clone();
            let status = blocking_live(shared, move |l| {
                let mut out = Value::Null;
                l.read(battle, &mut |b| out = lens::status_for(b, &own))?;
                Ok(out)
            })
            .await;
            let mut entry = match status {
                Ok(v) => v,
                Err(r) if r.code == ErrCode::NotStarted => {
                    json!({"status": "waiting", "words": "waiting for every seat's nonce (join)"})
                }
                Err(r) => return Err((r, After::Stay)),
            };
            entry["battle"] = json!(battle);
            entry["my_seats"] = json!(seats);
            if let Some(info) = info {
                entry["game"] = json!(info.game);
                entry["title"] = json!(info.title);
                entry["dice"] = json!(super::dice_word(info.entered_dice));
                // What the battle is, waiting or started (issue 30: the
                // app's summary said `strict: false` of every club battle).
                entry["strict"] = json!(info.strict);
            }
            listed.push(entry);
        }
        out.push(json!({"campaign": c.id, "name": c.name, "battles": listed}));
    }
    Ok(json!({"campaigns": out, "role": p.role}))
}
