//! Alien on the command line: the contract of every game. A battle with the
//! Queen option and seats, `legal --json` whose lines `play` takes, entered
//! dice, `state --json` (one seat's view hides the task cards), a position
//! file to start from, `log`, `verify` and `autoplay`.

#[path = "support/cli.rs"]
mod support;
use support::*;

#[test]
fn alien_with_the_queen_option_and_seats_legal_play_entered_dice_state_and_verify() {
    let c = Camp::new();
    let id = c.start_battle(&[
        "--game",
        "alien",
        "--option",
        "players=3",
        "--option",
        "queen=2",
        "--option",
        "tasks=2",
        "--seed",
        "14",
    ]);
    let state: serde_json::Value =
        serde_json::from_str(&c.on_battle("state", &id, &["--json"])).unwrap();
    assert_eq!(state["players"], 3);
    assert_eq!(state["option"], serde_json::json!({"tasks": 2}));
    assert_eq!(
        state["characters"][1]["seat"], 2,
        "Hudson is the second expedition seat's"
    );
    // Every line of legal --json is taken by play as it is.
    let legal = c.on_battle("legal", &id, &["--json"]);
    let moves: Vec<&str> = legal.lines().filter(|l| l.contains("\"move\"")).collect();
    assert!(
        !moves.is_empty() && legal.contains("\"end_phase\""),
        "{legal}"
    );
    ok(&c.play(&id, moves[0]));
    // Both expedition seats end the phase; the game rolls for hatching.
    ok(&c.play(&id, r#"{"actor":1,"command":"end_phase"}"#));
    ok(&c.play(&id, r#"{"actor":2,"command":"end_phase"}"#));
    let log = c.on_battle("log", &id, &[]);
    assert_says_all(&log, &["The game", "the hatching roll is"]);
    let state: serde_json::Value =
        serde_json::from_str(&c.on_battle("state", &id, &["--json"])).unwrap();
    let roll = state["hatch_roll"].as_u64().unwrap() as usize;
    // The Alien player splits the roll into aliens of one; a wrong split is refused with the clause.
    let o = c.play(
        &id,
        &format!(
            r#"{{"actor":0,"command":{{"hatch":{{"parts":[{}]}}}}}}"#,
            roll + 1
        ),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_says(&o, "rule 9.1");
    let ones = vec!["1"; roll].join(",");
    ok(&c.play(
        &id,
        &format!(r#"{{"actor":0,"command":{{"hatch":{{"parts":[{ones}]}}}}}}"#),
    ));
    // Each alien on a hatching place of its own (no two aliens share a tile).
    for h in 0..roll {
        ok(&c.play(
            &id,
            &format!(
                r#"{{"actor":0,"command":{{"place":{{"hatch":{}}}}}}}"#,
                h + 1
            ),
        ));
    }
    ok(&c.play(&id, r#"{"actor":0,"command":"end_moves"}"#));
    let state: serde_json::Value =
        serde_json::from_str(&c.on_battle("state", &id, &["--json"])).unwrap();
    assert_eq!(state["turn"], 2);
    assert_eq!(state["aliens"].as_array().unwrap().len(), roll);
    assert!(c.verify(&id).contains("replay exactly"));
}

#[test]
fn alien_from_a_position_file_with_entered_dice_and_hidden_task_cards() {
    let c = Camp::new();
    let pos = c.write_beside(
        "hicks.txt",
        "# Hicks in the duct example, and a floppy disk at computer 1\n\
         character hicks at N6\nalien 4 at P6\ncharacter bishop at C2 items disk\n",
    );
    let p = pos.to_str().unwrap();
    let id = c.start_battle(&[
        "--game",
        "alien",
        "--scenario-file",
        p,
        "--entered-dice",
        "--seed",
        "3",
    ]);
    // Hicks shoots twice at the alien in the duct with an entered 5.
    ok(&c.play(
        &id,
        r#"{"actor":1,"command":{"shoot":{"ch":0,"weapon":0,"alien":1,"charges":2}},"dice":[5]}"#,
    ));
    let log = c.on_battle("log", &id, &[]);
    assert_says_all(&log, &["attack force +3, rolled 5"]);
    assert_says_all(&log, &["alien 1 withdrew to Q6"]);
    assert_says_all(&log, &["entered]"]);
    // Bishop reads the disk: the card is the expedition's, not the Alien player's.
    ok(&c.play(&id, r#"{"actor":1,"command":{"read":{"ch":4,"pocket":0}}}"#));
    let theirs = c.on_battle("log", &id, &["--as", "1"]);
    assert_says_all(&theirs, &["drew a task card (hidden)"]);
    let ours = c.on_battle("log", &id, &["--as", "2"]);
    assert_says_all(&ours, &["the expedition drew task "]);
    let st = c.on_battle("state", &id, &["--json", "--as", "1"]);
    assert_says_all(&st, &["\"open\":[0]"]);
    assert!(c.verify(&id).contains("replay exactly"));
    // A bad position file names its line, and no battle is made.
    std::fs::write(&pos, "character hicks at N6\nalien 9 at P6\n").unwrap();
    let o = c.try_battle(&["--game", "alien", "--scenario-file", pos.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0));
    assert_stderr_says(&o, "line 2");
}

#[test]
fn alien_autoplay_plays_to_the_end_and_verifies() {
    let c = Camp::new();
    let pos = c.write_beside(
        "late.txt",
        "queen dead\ncharacter hicks at K9 strength 2\ncharacter hudson at G12\n\
         character vasquez at dead\ncharacter gorman at dead\ncharacter bishop at dead\n\
         character apone at dead\nalien 4 at M8\nalien 3 at G4\n",
    );
    let p = pos.to_str().unwrap();
    let id = c.start_battle(&["--game", "alien", "--scenario-file", p, "--seed", "8"]);
    let out = c.autoplay(&id, "20000");
    assert_says_all(&out, &["the battle is over"]);
    assert!(c.verify(&id).contains("replay exactly"));
}

/// Issue 27 (3): commands take the names players use: a character by its
/// card's name, a tile by its column letter and row (`K6`), as `play`
/// reads them, the same command as in numbers.
#[test]
fn play_takes_characters_and_tiles_by_the_names_players_use() {
    let c = Camp::new();
    let id = c.start_battle(&["--game", "alien", "--seed", "3"]);
    let legal = c.on_battle("legal", &id, &["--json"]);
    let hicks_moves: Vec<serde_json::Value> = legal
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|l| l["command"]["move"]["ch"] == 0)
        .collect();
    let first = hicks_moves.first().expect("Hicks may move at the start");
    let to = first["command"]["move"]["to"].as_u64().unwrap() as u32;
    // Row-major from A1 on the 24-column shipped base (RULES.md).
    let tile = format!("{}{}", char::from(b'A' + (to % 24) as u8), to / 24 + 1);
    let named = serde_json::json!({
        "actor": first["actor"],
        "command": {"move": {"ch": "hicks", "to": tile}}
    });
    ok(&c.play(&id, &named.to_string()));
    let state: serde_json::Value =
        serde_json::from_str(&c.on_battle("state", &id, &["--json"])).unwrap();
    assert_eq!(
        state["characters"][0]["pos"]["tile"], to,
        "Hicks stands on {tile}"
    );
    let o = c.play(
        &id,
        r#"{"actor":1,"command":{"move":{"ch":"ripley","to":"Z99"}}}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_says(&o, "there is no character 'ripley'");
}
