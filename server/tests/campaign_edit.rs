//! The shared campaign (server/DESIGN.md section 10, issue 30 item 7):
//! players edit their own rosters from their own machines, the organiser
//! records the rest, every edit is decided against the campaign's current
//! head; against an in-process server with real WebSocket clients.

mod common;

use common::{Client, Server, organiser, player, seat_player, server};
use serde_json::{Value, json};

async fn edit(c: &mut Client, campaign: i64, after: Value, event: Value) -> Value {
    c.ok(
        "campaign_edit",
        json!({"campaign": campaign, "after": after, "event": event}),
    )
    .await
}

/// A campaign with two rosters, U.N.I.T.'s (1, Anna's) and the Daleks' (2,
/// Ben's), each with one model: Kowalski (1) and Dalek Sec (2).
async fn club_campaign(s: &Server) -> (i64, Client, Client, Client) {
    let mut org = organiser(s).await;
    let campaign = org
        .ok("create_campaign", json!({"name": "Hollow Farm"}))
        .await["campaign"]
        .as_i64()
        .unwrap();
    let (anna, _, anna_id) = player(s, &mut org, "Anna").await;
    let (ben, _, ben_id) = player(s, &mut org, "Ben").await;
    for (name, faction) in [("Wyvern Platoon", "unit"), ("Skaro Vanguard", "daleks")] {
        edit(
            &mut org,
            campaign,
            json!(null),
            json!({"roster_created": {"roster": 0, "name": name, "faction": faction}}),
        )
        .await;
    }
    for (roster, token) in [(1, anna_id), (2, ben_id)] {
        org.ok(
            "grant_roster",
            json!({"campaign": campaign, "roster": roster, "token": token}),
        )
        .await;
    }
    for (roster, name, kind) in [(1, "Kowalski", "rifleman"), (2, "Dalek Sec", "dalek")] {
        edit(
            &mut org,
            campaign,
            json!(null),
            json!({"model_recruited": {"roster": roster, "model": 0, "name": name, "kind": kind}}),
        )
        .await;
    }
    (campaign, org, anna, ben)
}

async fn log(c: &mut Client, campaign: i64) -> Value {
    c.ok("campaign_log", json!({"campaign": campaign})).await
}

#[tokio::test]
async fn two_players_edits_made_at_once_both_land() {
    edits_at_once_both_land(common::Backend::Sqlite).await;
}

/// The same on PostgreSQL (issue 31: one suite, two backends).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p4_on_postgres_two_players_edits_made_at_once_both_land() {
    edits_at_once_both_land(common::Backend::Postgres).await;
}

async fn edits_at_once_both_land(backend: common::Backend) {
    let Some(s) = common::server_on(backend).await else {
        return;
    };
    let (campaign, mut org, mut anna, mut ben) = club_campaign(&s).await;
    let seen = log(&mut anna, campaign).await["head"].clone();
    assert_eq!(seen, 4);
    // Both recruit at once, each having seen the same head.
    let (a, b) = tokio::join!(
        edit(
            &mut anna,
            campaign,
            seen.clone(),
            json!({"model_recruited": {"roster": 1, "model": 0, "name": "Yates", "kind": "rifleman"}}),
        ),
        edit(
            &mut ben,
            campaign,
            seen.clone(),
            json!({"model_recruited": {"roster": 2, "model": 0, "name": "Dalek Thay", "kind": "dalek"}}),
        ),
    );
    let mut ids = [a["head"].as_u64().unwrap(), b["head"].as_u64().unwrap()];
    ids.sort_unstable();
    assert_eq!(ids, [5, 6], "both landed, one after the other: {a} {b}");
    // The later one names the one that landed first.
    let later = if a["head"] == 6 { &a } else { &b };
    assert_eq!(
        later["landed_first"].as_array().unwrap().len(),
        1,
        "{later}"
    );
    // Each got its own model id from the server.
    let models: Vec<u64> = [&a, &b]
        .iter()
        .map(|r| {
            r["entry"]["event"]["model_recruited"]["model"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_ne!(models[0], models[1]);
    // Everyone sees the standings: both recruits, in their own rosters.
    let all = log(&mut org, campaign).await;
    assert_eq!(all["head"], 6);
    assert_eq!(all["entries"].as_array().unwrap().len(), 6);
    let rosters = all["standings"]["rosters"].as_array().unwrap();
    assert_eq!(rosters[0]["models"].as_array().unwrap().len(), 2, "{all}");
    assert_eq!(rosters[1]["models"].as_array().unwrap().len(), 2, "{all}");
    let words: Vec<&str> = all["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["words"].as_str().unwrap())
        .collect();
    assert!(
        words.contains(&"Yates (rifleman) recruited into Wyvern Platoon"),
        "{words:?}"
    );
    // After an entry: only the newer ones.
    let newer = anna
        .ok("campaign_log", json!({"campaign": campaign, "after": 5}))
        .await;
    assert_eq!(newer["entries"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn the_later_of_two_conflicting_edits_is_refused_in_words_and_nothing_is_lost() {
    let s = server().await;
    let (campaign, mut org, mut anna, _ben) = club_campaign(&s).await;
    let seen = log(&mut anna, campaign).await["head"].clone();
    // The organiser retires Kowalski a moment before Anna does the same
    // from her machine, both having seen entry 4.
    edit(
        &mut org,
        campaign,
        seen.clone(),
        json!({"model_retired": {"model": 1}}),
    )
    .await;
    let words = anna
        .refused(
            "campaign_edit",
            json!({"campaign": campaign, "after": seen, "event": {"model_retired": {"model": 1}}}),
            "refused",
        )
        .await;
    assert_eq!(
        words,
        "Kowalski is retired already. Since entry 4, the last you saw, entry 5 (Kowalski retired) came first"
    );
    // A purchase the rules refuse says why in their words.
    let words = anna
        .refused(
            "campaign_edit",
            json!({"campaign": campaign, "after": 5, "event": {"skill_bought": {"model": 1, "skill": "crack_shot"}}}),
            "refused",
        )
        .await;
    assert!(words.starts_with("Kowalski is retired"), "{words}");
    // Nothing lost, nothing refused written.
    let all = log(&mut anna, campaign).await;
    assert_eq!(all["head"], 5);
    let kinds: Vec<String> = all["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            e["event"]
                .as_object()
                .unwrap()
                .keys()
                .next()
                .unwrap()
                .clone()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "roster_created",
            "roster_created",
            "model_recruited",
            "model_recruited",
            "model_retired"
        ]
    );
    s.running.stop().await.unwrap();
    // The campaign file holds exactly that log.
    let copy =
        xenolog_saves::Campaign::open_read_only(&s.data.join("campaigns/1.xenolog")).unwrap();
    assert_eq!(copy.campaign_log().unwrap().len(), 5);
}

#[tokio::test]
async fn a_player_cannot_edit_another_players_roster() {
    let s = server().await;
    let (campaign, mut org, mut anna, mut ben) = club_campaign(&s).await;
    let words = anna
        .refused(
            "campaign_edit",
            json!({"campaign": campaign, "after": 4, "event": {"model_recruited": {"roster": 2, "model": 0, "name": "Dalek Kaan", "kind": "dalek"}}}),
            "forbidden",
        )
        .await;
    assert_eq!(
        words,
        "roster 2 (Skaro Vanguard) is not yours to edit: your token may edit roster 1"
    );
    let words = anna
        .refused(
            "campaign_edit",
            json!({"campaign": campaign, "after": 4, "event": {"model_renamed": {"model": 2, "name": "Dalek Mud"}}}),
            "forbidden",
        )
        .await;
    assert!(
        words.starts_with("roster 2 (Skaro Vanguard) is not yours"),
        "{words}"
    );
    // Settings, battles and undo are the organiser's.
    let words = ben
        .refused(
            "campaign_edit",
            json!({"campaign": campaign, "after": 4, "event": {"setting_changed": {"casualties": "return"}}}),
            "forbidden",
        )
        .await;
    assert!(words.starts_with("only the organiser"), "{words}");
    // ...which the organiser records.
    let set = edit(
        &mut org,
        campaign,
        json!(4),
        json!({"setting_changed": {"casualties": "return"}}),
    )
    .await;
    assert_eq!(
        set["entry"]["words"],
        "casualties: back for the next battle"
    );
    ben.refused(
        "grant_roster",
        json!({"campaign": campaign, "roster": 1, "token": 3}),
        "forbidden",
    )
    .await;
    // A player with no roster and no seat sees nothing of the campaign.
    let (mut carl, _, _) = player(&s, &mut org, "Carl").await;
    let words = carl
        .refused("campaign_log", json!({"campaign": campaign}), "forbidden")
        .await;
    assert_eq!(
        words,
        format!("your token opens nothing of campaign {campaign}")
    );
    // Not a campaign event: refused in words.
    anna.refused(
        "campaign_edit",
        json!({"campaign": campaign, "event": {"fly": {}}}),
        "bad_request",
    )
    .await;
    // Her own roster is hers: the edit lands; nothing else was written.
    edit(
        &mut anna,
        campaign,
        json!(4),
        json!({"model_renamed": {"model": 1, "name": "Cpl Kowalski"}}),
    )
    .await;
    let all = log(&mut ben, campaign).await;
    assert_eq!(all["head"], 6);
    assert_eq!(
        all["owners"],
        json!([{"roster": 1, "token_id": 2}, {"roster": 2, "token_id": 3}])
    );
}

/// Alien Invasion's two-player skirmish cut to one round, so a battle over
/// rosters ends in a few commands.
fn one_round_skirmish() -> String {
    include_str!("../../engine/data/invasion/scenarios/skirmish.txt")
        .lines()
        .map(|l| {
            if l.starts_with("rounds ") {
                "rounds 1"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Issue 30, the campaign shared: a club battle made over two rosters (as
/// a local roster battle) records "battle fought with these models" in the
/// campaign log when it starts, and its result and the models' experience
/// come into the standings when it ends (the campaign is a fold,
/// principle 11). Picks the campaign does not allow are refused in words
/// when the battle is created.
#[tokio::test]
async fn a_battle_over_two_rosters_feeds_its_result_and_experience_into_the_campaign() {
    let s = server().await;
    let (campaign, mut org, _anna, _ben) = club_campaign(&s).await;
    let config = json!({"scenario_text": one_round_skirmish()});
    // The Daleks' roster cannot field U.N.I.T.'s seat.
    let words = org
        .refused(
            "create_battle",
            json!({"campaign": campaign, "game": "invasion", "config": config,
                   "rosters": [{"seat": 0, "roster": 2, "models": [2]}]}),
            "bad_request",
        )
        .await;
    assert!(words.contains("seat 1 plays"), "{words}");
    let words = org
        .refused(
            "create_battle",
            json!({"campaign": campaign, "game": "race",
                   "rosters": [{"seat": 0, "roster": 1, "models": [1]}]}),
            "bad_request",
        )
        .await;
    assert!(words.contains("Alien Invasion"), "{words}");
    let made = org
        .ok(
            "create_battle",
            json!({"campaign": campaign, "game": "invasion", "config": config,
                   "rosters": [{"seat": 0, "roster": 1, "models": [1]},
                               {"seat": 1, "roster": 2, "models": [2]}]}),
        )
        .await;
    let battle = made["battle"].as_i64().unwrap();
    let mut seats = Vec::new();
    for seat in 0..2u8 {
        let mut c = seat_player(&s, &mut org, campaign, battle, seat).await;
        c.join(battle, seat, seat + 5).await;
        seats.push(c);
    }
    // Started: the campaign log says which models fight it.
    let started = log(&mut org, campaign).await;
    let fought: Vec<&Value> = started["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"].get("battle_fought").is_some())
        .collect();
    assert_eq!(fought.len(), 1, "{started}");
    let line = &started["standings"]["battles"][0];
    assert_eq!(line["result"], Value::Null, "not over yet: {line}");
    // Each seat plays its first legal command when asked, to the end.
    let mut over = false;
    'play: for _ in 0..400 {
        for (seat, c) in seats.iter_mut().enumerate() {
            let legal = c.ok("legal", json!({"battle": battle, "seat": seat})).await;
            let Some(first) = legal["legal"].as_array().unwrap().first().cloned() else {
                continue;
            };
            let at = c.ok("state", json!({"battle": battle, "seat": seat})).await["head"].clone();
            let r = c
                .ok(
                    "command",
                    json!({"battle": battle, "seat": seat, "at": at, "command": first["command"]}),
                )
                .await;
            if r["over"] == true {
                over = true;
                break 'play;
            }
        }
    }
    assert!(over, "the battle ended");
    let ended = log(&mut org, campaign).await;
    let line = &ended["standings"]["battles"][0];
    assert!(line["result"].is_string(), "its result is in: {line}");
    // Every model that fought either survived (1 experience) or did not.
    for m in ended["standings"]["models"].as_array().unwrap() {
        let survived = m["earned"] == 1;
        let fell = m["status"] != "fit";
        assert!(survived != fell, "{m}");
    }
    assert!(
        ended["standings"]["models"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["earned"] == 1),
        "experience came in: {ended}"
    );
}
