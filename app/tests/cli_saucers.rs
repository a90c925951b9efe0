//! Night of the Saucers' command-line contract, driven from outside as the
//! other games' (`cli.rs`): a battle with players, difficulty, missions and
//! variant; `legal --json` lines played as printed; `play --script` with
//! entered dice (die by die when more are needed); `state --json`, `log`,
//! `picture`, `verify`; one seat's view; autoplay to the end; a bad data
//! file refused naming its line.

#[path = "support/cli.rs"]
mod support;
use support::*;

use serde_json::Value;

impl Camp {
    /// A battle of Night of the Saucers with these `--option`s; its id.
    fn saucers(&self, seed: &str, options: &[&str]) -> String {
        let mut args = vec!["battle", self.f(), "--game", "saucers", "--seed", seed];
        for o in options {
            args.push("--option");
            args.push(o);
        }
        ok(&xenolog(&args)).trim().to_owned()
    }
    fn legal(&self, id: &str) -> Vec<Value> {
        self.on_battle("legal", id, &["--json"])
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
    fn state(&self, id: &str) -> Value {
        serde_json::from_str(self.on_battle("state", id, &["--json"]).trim()).unwrap()
    }
}

/// Give every seat's mission to its first student, as `legal` offers.
fn assign_missions(c: &Camp, id: &str) {
    loop {
        let legal = c.legal(id);
        let Some(l) = legal.iter().find(|l| l["command"].get("assign").is_some()) else {
            break;
        };
        ok(&c.play(id, &l.to_string()));
    }
}

#[test]
fn a_battle_with_players_difficulty_missions_and_variant_deals_and_asks_for_missions() {
    let c = Camp::new();
    let id = c.saucers(
        "21",
        &["players=3", "difficulty=2", "missions=3", "variant=hunter"],
    );
    let st = c.state(&id);
    assert_eq!(st["variant"], "hunter");
    assert_eq!(st["missions_to_win"], 3);
    assert_eq!(
        st["board"].as_array().unwrap().len(),
        36,
        "the game dealt on its own"
    );
    assert_eq!(
        st["alien_deck"].as_array().unwrap().len(),
        40,
        "Normal: 40 alien cards"
    );
    // Instants "can be used at anytime" (rules version 2): a seat holding
    // one may play it while missions are given out; every other line gives
    // out a mission.
    let legal: Vec<Value> = c
        .legal(&id)
        .into_iter()
        .filter(|l| l["command"].get("instant").is_none())
        .collect();
    let seats: std::collections::BTreeSet<u64> =
        legal.iter().map(|l| l["actor"].as_u64().unwrap()).collect();
    assert_eq!(seats.len(), 3, "every seat gives out its mission at once");
    assert!(legal.iter().all(|l| {
        l["text"]
            .as_str()
            .unwrap()
            .contains("takes the Task Force mission")
    }));
    assign_missions(&c, &id);
    let st = c.state(&id);
    assert_eq!(st["phase"], "actions", "the draw was the game's own step");
    let log = c.on_battle("log", &id, &[]);
    assert_says_all(&log, &["The game: lays out the tiles"]);
    assert_says_all(&log, &["draw up to their hand size"]);
}

#[test]
fn play_takes_the_lines_legal_prints_and_entered_dice_die_by_die() {
    let c = Camp::new();
    // A players' own tiles file: the high school hides a Probe, so the
    // first search brings an alien to attack.
    let tiles = include_str!("../../engine/data/saucers/tiles.txt").replace(
        "tile high_school \"High School\" food school",
        "tile high_school \"High School\" none ambush probe school",
    );
    let config = serde_json::json!({"files": {"tiles": tiles}, "players": 1}).to_string();
    let id = ok(&c.try_battle(&["--game", "saucers", "--seed", "5", "--config", &config]));
    let id = id.trim();
    assign_missions(&c, id);
    let legal = c.legal(id);
    let search = legal
        .iter()
        .find(|l| l["command"].get("search").is_some())
        .expect("a search");
    let played = ok(&c.play(id, &search.to_string()));
    assert_says_all(&played, &["an ambush! a Probe was hiding inside"]);
    let legal = c.legal(id);
    let attack = legal
        .iter()
        .find(|l| l["command"]["attack"]["card"].is_null() && l["command"].get("attack").is_some())
        .expect("the standard attack on the Probe");
    // Dice rolled at the table, entered one more at a time until enough.
    let mut dice = vec![3u8];
    loop {
        let line = serde_json::json!({"actor": attack["actor"], "command": attack["command"], "dice": dice});
        let o = c.play(id, &line.to_string());
        if o.status.success() {
            break;
        }
        assert_eq!(o.status.code(), Some(1));
        assert_stderr_says(&o, "needs more dice");
        dice.push(3);
    }
    let log = c.on_battle("log", id, &[]);
    let entered = format!("[dice {}, entered]", vec!["3"; dice.len()].join(" "));
    assert!(log.contains(&entered), "{log}");
    assert!(log.contains("3: one hit"), "the faces in words: {log}");
    assert_says_all(&log, &["the Probe on", "is defeated by the Fly Boyz"]);
    // A face the die does not have is refused.
    let legal = c.legal(id);
    if let Some(a) = legal.iter().find(|l| l["command"].get("attack").is_some()) {
        let line = serde_json::json!({"actor": a["actor"], "command": a["command"], "dice": [7, 7, 7, 7, 7]});
        let o = c.play(id, &line.to_string());
        assert_eq!(o.status.code(), Some(1));
        assert_stderr_says(&o, "shows 1 to 6");
    }
    let v = ok(&xenolog(&["verify", c.f()]));
    assert_says_all(&v, &["replay exactly"]);
}

#[test]
fn a_refused_command_names_its_rule_and_a_bad_die_is_refused() {
    let c = Camp::new();
    let id = c.saucers("8", &["players=2"]);
    assign_missions(&c, &id);
    // Seat 2 may not act in seat 1's turn (it holds no instant to play).
    let o = c.play(&id, r#"{"actor":1,"command":"end_actions"}"#);
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_says(&o, "turn");
    // A move off the board is refused as it is read (tiles are 0 to 35 or
    // named A1 to F6), in words.
    let o = c.play(&id, r#"{"actor":0,"command":{"move":{"human":0,"to":99}}}"#);
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_says(&o, "tile 99 is off the board (0 to 35, or A1 to F6)");
}

#[test]
fn state_log_and_picture_show_the_board_and_verify_passes() {
    let c = Camp::new();
    let id = c.saucers("3", &["players=2", "missions=2"]);
    assign_missions(&c, &id);
    c.autoplay_seeded(&id, "60", "4");
    let st = c.state(&id);
    assert_eq!(st["seats"].as_array().unwrap().len(), 2);
    let svg = c.dir.path().join("board.svg");
    c.picture(&id, &svg);
    let pic = std::fs::read_to_string(&svg).unwrap();
    assert!(pic.starts_with("<svg"));
    for id in ["tile:A1", "tile:F6", "edge:N", "seat:0", "seat:1"] {
        assert!(pic.contains(&format!("id=\"{id}\"")), "{id} missing");
    }
    let log = c.on_battle("log", &id, &[]);
    assert_says_all(&log, &["turn"]);
    let v = ok(&xenolog(&["verify", c.f()]));
    assert_says_all(&v, &["replay exactly"]);
}

#[test]
fn gang_warfare_shows_one_seat_only_its_own_hand_and_mission() {
    let c = Camp::new();
    let id = c.saucers("12", &["players=2", "variant=gang_warfare"]);
    let seen =
        serde_json::from_str::<Value>(c.on_battle("state", &id, &["--as", "1", "--json"]).trim())
            .unwrap();
    let hidden = Value::from(65535);
    assert!(
        seen["seats"][1]["hand"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| *c == hidden)
    );
    assert_eq!(seen["seats"][1]["unassigned"], hidden, "a secret mission");
    assert!(
        seen["seats"][0]["hand"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| *c != hidden)
    );
    let legal = c.on_battle("legal", &id, &["--as", "2", "--json"]);
    assert!(legal.lines().all(|l| l.contains("\"actor\":1")), "{legal}");
    let log = c.on_battle("log", &id, &["--as", "2"]);
    assert!(
        log.contains("Fly Boyz: 6 cards"),
        "another seat's hand is counted, not shown: {log}"
    );
    let o = xenolog(&["state", c.f(), "--battle", &id]);
    assert_stderr_says(&o, "hidden information included");
}

#[test]
fn autoplay_plays_a_game_to_a_result_and_verify_passes() {
    let c = Camp::new();
    for (seed, opts) in [
        ("1", vec!["players=1"]),
        ("2", vec!["players=4", "variant=2"]),
    ] {
        let id = c.saucers(seed, &opts);
        let o = c.autoplay_seeded(&id, "30000", "9");
        assert_says_all(&o, &["the battle is over"]);
    }
    let v = ok(&xenolog(&["verify", c.f()]));
    assert_eq!(v.matches("replay exactly").count(), 2, "{v}");
}

#[test]
fn a_players_own_data_file_is_used_and_a_bad_one_is_refused_naming_its_line() {
    let c = Camp::new();
    let cards = "move skate \"Skate\" x2 tiles 3\nattack bat \"Bat\" x1 melee dice lots range ...../...../..X../...../.....\n";
    let config = serde_json::json!({"files": {"cards": cards}}).to_string();
    let o = c.try_battle(&["--game", "saucers", "--seed", "1", "--config", &config]);
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_says(&o, "cards.txt line 2");
    let tokens = include_str!("../../engine/data/saucers/tokens.txt").replace("start 2", "start 4");
    let config = serde_json::json!({"files": {"tokens": tokens}, "players": 1}).to_string();
    let id = ok(&c.try_battle(&["--game", "saucers", "--seed", "1", "--config", &config]));
    let st = c.state(id.trim());
    assert_eq!(st["seats"][0]["tokens"]["fuel"], 4);
}

#[test]
fn a_position_file_is_a_scenario_file_to_start_from() {
    let c = Camp::new();
    let file = c.write_beside(
        "opening.txt",
        "searched A1\nalien probe A1\nstudent ace A1\n",
    );
    let id = ok(&c.try_battle(&[
        "--game",
        "saucers",
        "--seed",
        "4",
        "--option",
        "players=1",
        "--scenario-file",
        file.to_str().unwrap(),
    ]));
    let st = c.state(id.trim());
    assert_eq!(st["aliens"][0]["kind"], "probe");
    assert_eq!(st["board"][0]["searched"], true);
    std::fs::write(&file, "student nobody A1\n").unwrap();
    let o = c.try_battle(&[
        "--game",
        "saucers",
        "--seed",
        "4",
        "--scenario-file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_says(&o, "position line 1");
}

/// Session 22's closing note: the local bot (`autoplay`, the soaks) took
/// every seat's commands alike, so while a swap offer waited for its
/// answer it could withdraw the offer at once, which no player waiting for
/// an answer does. It plays the seat the game waits for (the first asked):
/// every offer of a gang-warfare soak is answered, none withdrawn, and the
/// battles end.
#[test]
fn autoplay_answers_every_swap_offer_and_withdraws_none() {
    let c = Camp::new();
    let mut offers = 0;
    for seed in ["4", "6"] {
        let id = c.saucers(seed, &["players=4", "variant=gang_warfare"]);
        let o = c.autoplay_seeded(&id, "5000", seed);
        assert_says_all(&o, &["the battle is over"]);
        let log = c.on_battle("log", &id, &[]);
        let offered = log.matches(" a swap: ").count();
        let answered = log
            .lines()
            .filter(|l| l.contains("the swap offered by") && l.trim_start().starts_with("- "))
            .count();
        assert_eq!(offered, answered, "every offer answered:\n{log}");
        assert!(!log.contains("withdraw the swap"), "none withdrawn:\n{log}");
        offers += offered;
    }
    assert!(offers >= 2, "the soaks made offers: {offers}");
    let v = ok(&xenolog(&["verify", c.f()]));
    assert_eq!(v.matches("replay exactly").count(), 2, "{v}");
}
