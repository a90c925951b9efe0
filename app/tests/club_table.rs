//! Take-backs and the shared campaign from the command line (issue 30 items
//! 6 and 7, server/DESIGN.md sections 9 and 10), through a real `xenolog
//! serve` and real `xenolog club` processes, each person with its own club
//! folder: `club takeback`, `club answer`, `club campaign-edit`, `club
//! buy-skill`, `club grant-roster`, `club campaign-log`.

use std::path::Path;

#[path = "support/club.rs"]
mod support;
use support::{Organiser, ok, run, serve};

/// `club VERB --server URL --campaign CAMP MORE...`
fn in_campaign<'a>(verb: &'a str, url: &'a str, camp: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["club", verb, "--server", url, "--campaign", camp];
    args.extend_from_slice(more);
    args
}

fn refused(who: &Path, args: &[&str]) -> String {
    let o = run(who, args);
    assert!(!o.status.success(), "xenolog {args:?} should be refused");
    String::from_utf8(o.stderr).unwrap()
}

#[test]
fn a_takeback_asked_and_answered_and_campaign_edits_from_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let served = serve(&tmp.path().join("club"));
    let url = served.url.clone();
    let org = tmp.path().join("organiser");
    let anna = tmp.path().join("anna");
    let ben = tmp.path().join("ben");
    let organiser = Organiser::redeem(&org, &served);
    let camp = organiser.campaign("Club");
    let battle = organiser.battle(&camp, "race", r#"{"target": 1000}"#);
    let mut tokens = Vec::new();
    for (who, seat) in [(&anna, 0), (&ben, 1)] {
        let (redeemed, _) = organiser.seat(&camp, &battle, seat, who);
        tokens.push(redeemed["token_id"].to_string());
    }
    // Anna holds; Ben asks to take it back to the setup; Anna accepts.
    let script = tmp.path().join("hold.jsonl");
    std::fs::write(&script, "{\"actor\":0,\"command\":\"hold\"}\n").unwrap();
    ok(
        &anna,
        &[
            "play",
            &camp,
            "--battle",
            &battle,
            "--server",
            &url,
            "--script",
            script.to_str().unwrap(),
        ],
    );
    let asked = ok(
        &ben,
        &[
            "club", "takeback", "--server", &url, "--battle", &battle, "--to", "setup",
        ],
    );
    assert_eq!(
        asked.trim(),
        format!(
            "take-back 1 asked: battle {battle} back to the setup; waiting for seat 1 \
             (club answer --request 1)"
        )
    );
    // Accepting names the request: without --request, refused in words
    // before anything is sent (exit 2), and the battle stays.
    let o = run(
        &anna,
        &[
            "club", "answer", "--server", &url, "--battle", &battle, "--accept",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let words = String::from_utf8(o.stderr).unwrap();
    assert!(words.contains("--accept needs --request N"), "{words}");
    let answered = ok(
        &anna,
        &[
            "club",
            "answer",
            "--server",
            &url,
            "--battle",
            &battle,
            "--accept",
            "--request",
            "1",
        ],
    );
    assert_eq!(
        answered.trim(),
        format!("accepted: battle {battle} taken back to the setup")
    );
    // Ben cannot answer for Anna's seat, nor ask with a seat not his.
    let words = refused(
        &ben,
        &[
            "club", "takeback", "--server", &url, "--battle", &battle, "--to", "0", "--as", "1",
        ],
    );
    assert!(words.contains("not seat 1"), "{words}");

    // The shared campaign: the organiser raises a roster and grants it to Anna.
    let raised = ok(
        &org,
        &in_campaign(
            "campaign-edit",
            &url,
            &camp,
            &[
                "--event",
                r#"{"roster_created": {"roster": 0, "name": "Wyvern Platoon", "faction": "unit"}}"#,
            ],
        ),
    );
    assert_eq!(raised.trim(), "1. roster Wyvern Platoon raised (U.N.I.T.)");
    ok(
        &org,
        &in_campaign(
            "grant-roster",
            &url,
            &camp,
            &["--roster", "1", "--token", &tokens[0]],
        ),
    );
    let recruit =
        r#"{"model_recruited": {"roster": 1, "model": 0, "name": "Yates", "kind": "rifleman"}}"#;
    let landed = ok(
        &anna,
        &in_campaign(
            "campaign-edit",
            &url,
            &camp,
            &["--after", "1", "--event", recruit],
        ),
    );
    assert_eq!(
        landed.trim(),
        "2. Yates (rifleman) recruited into Wyvern Platoon"
    );
    let words = refused(
        &ben,
        &in_campaign("campaign-edit", &url, &camp, &["--event", recruit]),
    );
    assert!(
        words.contains("roster 1 (Wyvern Platoon) is not yours to edit"),
        "{words}"
    );
    let words = refused(
        &anna,
        &in_campaign(
            "buy-skill",
            &url,
            &camp,
            &["--model", "1", "--skill", "crack_shot"],
        ),
    );
    assert!(words.contains("Crack Shot costs 2 EP"), "{words}");
    let shown = ok(&ben, &in_campaign("campaign-log", &url, &camp, &[]));
    assert!(
        shown.contains("2. Yates (rifleman) recruited into Wyvern Platoon"),
        "{shown}"
    );
    assert!(shown.contains("roster 1 Wyvern Platoon (unit)"), "{shown}");
    assert!(shown.contains("Yates (rifleman)"), "{shown}");

    // A battle over the campaign's rosters (server/DESIGN.md section 10):
    // `club new-battle --rosters SEAT:ROSTER:MODEL,...`, seats from 1. A
    // pick that is not one is refused in words before anything is sent
    // (exit 2); one the campaign does not allow, by the server in words.
    let config = serde_json::json!({"scenario_text": support::short_skirmish()}).to_string();
    let new_battle = |pick: &str| {
        run(
            &org,
            &in_campaign(
                "new-battle",
                &url,
                &camp,
                &["--game", "invasion", "--config", &config, "--rosters", pick],
            ),
        )
    };
    let o = new_battle("1:one:1");
    assert_eq!(o.status.code(), Some(2));
    let words = String::from_utf8(o.stderr).unwrap();
    assert!(
        words.contains("--rosters '1:one:1': the roster 'one' is not a number"),
        "{words}"
    );
    let o = new_battle("2:1:1");
    assert!(!o.status.success());
    let words = String::from_utf8(o.stderr).unwrap();
    assert!(
        words.contains("Wyvern Platoon is a U.N.I.T. roster, and seat 2 plays"),
        "{words}"
    );
    let o = new_battle("1:1:1");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let made: i64 = String::from_utf8(o.stdout).unwrap().trim().parse().unwrap();
    let listed = ok(&org, &["club", "battles", "--server", &url, "--json"]);
    assert!(listed.contains(&format!("\"battle\":{made}")), "{listed}");
}
