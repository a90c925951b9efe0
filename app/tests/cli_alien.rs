//! Alien on the command line: the contract of every game. A battle with the
//! Queen option and seats, `legal --json` whose lines `play` takes, entered
//! dice, `state --json` (one seat's view hides the task cards), a position
//! file to start from, `log`, `verify` and `autoplay`.

#[path = "support/cli.rs"]
mod support;
use support::*;

use std::process::Output;

fn play(c: &Camp, id: &str, line: &str) -> Output {
    xenolog_stdin(&["play", c.f(), "--battle", id, "--script", "-"], line)
}

#[test]
fn alien_with_the_queen_option_and_seats_legal_play_entered_dice_state_and_verify() {
    let c = Camp::new();
    let id = ok(&xenolog(&[
        "battle",
        c.f(),
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
    ]))
    .trim()
    .to_owned();
    let state: serde_json::Value =
        serde_json::from_str(&ok(&xenolog(&["state", c.f(), "--battle", &id, "--json"]))).unwrap();
    assert_eq!(state["players"], 3);
    assert_eq!(state["option"], serde_json::json!({"tasks": 2}));
    assert_eq!(
        state["characters"][1]["seat"], 2,
        "Hudson is the second expedition seat's"
    );
    // Every line of legal --json is taken by play as it is.
    let legal = ok(&xenolog(&["legal", c.f(), "--battle", &id, "--json"]));
    let moves: Vec<&str> = legal.lines().filter(|l| l.contains("\"move\"")).collect();
    assert!(
        !moves.is_empty() && legal.contains("\"end_phase\""),
        "{legal}"
    );
    ok(&play(&c, &id, moves[0]));
    // Both expedition seats end the phase; the game rolls for hatching.
    ok(&play(&c, &id, r#"{"actor":1,"command":"end_phase"}"#));
    ok(&play(&c, &id, r#"{"actor":2,"command":"end_phase"}"#));
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
    assert!(
        log.contains("The game") && log.contains("the hatching roll is"),
        "{log}"
    );
    let state: serde_json::Value =
        serde_json::from_str(&ok(&xenolog(&["state", c.f(), "--battle", &id, "--json"]))).unwrap();
    let roll = state["hatch_roll"].as_u64().unwrap() as usize;
    // The Alien player splits the roll into aliens of one; a wrong split is refused with the clause.
    let o = play(
        &c,
        &id,
        &format!(
            r#"{{"actor":0,"command":{{"hatch":{{"parts":[{}]}}}}}}"#,
            roll + 1
        ),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("rule 9.1"), "{}", stderr(&o));
    let ones = vec!["1"; roll].join(",");
    ok(&play(
        &c,
        &id,
        &format!(r#"{{"actor":0,"command":{{"hatch":{{"parts":[{ones}]}}}}}}"#),
    ));
    // Each alien on a hatching place of its own (no two aliens share a tile).
    for h in 0..roll {
        ok(&play(
            &c,
            &id,
            &format!(
                r#"{{"actor":0,"command":{{"place":{{"hatch":{}}}}}}}"#,
                h + 1
            ),
        ));
    }
    ok(&play(&c, &id, r#"{"actor":0,"command":"end_moves"}"#));
    let state: serde_json::Value =
        serde_json::from_str(&ok(&xenolog(&["state", c.f(), "--battle", &id, "--json"]))).unwrap();
    assert_eq!(state["turn"], 2);
    assert_eq!(state["aliens"].as_array().unwrap().len(), roll);
    assert!(ok(&xenolog(&["verify", c.f(), "--battle", &id])).contains("replay exactly"));
}

#[test]
fn alien_from_a_position_file_with_entered_dice_and_hidden_task_cards() {
    let c = Camp::new();
    let pos = c.dir.path().join("hicks.txt");
    std::fs::write(
        &pos,
        "# Hicks in the duct example, and a floppy disk at computer 1\n\
         character hicks at N6\nalien 4 at P6\ncharacter bishop at C2 items disk\n",
    )
    .unwrap();
    let id = ok(&xenolog(&[
        "battle",
        c.f(),
        "--game",
        "alien",
        "--scenario-file",
        pos.to_str().unwrap(),
        "--entered-dice",
        "--seed",
        "3",
    ]))
    .trim()
    .to_owned();
    // Hicks shoots twice at the alien in the duct with an entered 5.
    ok(&play(
        &c,
        &id,
        r#"{"actor":1,"command":{"shoot":{"ch":0,"weapon":0,"alien":1,"charges":2}},"dice":[5]}"#,
    ));
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
    assert!(log.contains("attack force +3, rolled 5"), "{log}");
    assert!(log.contains("alien 1 withdrew to Q6"), "{log}");
    assert!(log.contains("entered]"), "{log}");
    // Bishop reads the disk: the card is the expedition's, not the Alien player's.
    ok(&play(
        &c,
        &id,
        r#"{"actor":1,"command":{"read":{"ch":4,"pocket":0}}}"#,
    ));
    let theirs = ok(&xenolog(&["log", c.f(), "--battle", &id, "--as", "0"]));
    assert!(theirs.contains("drew a task card (hidden)"), "{theirs}");
    let ours = ok(&xenolog(&["log", c.f(), "--battle", &id, "--as", "1"]));
    assert!(ours.contains("the expedition drew task "), "{ours}");
    let st = ok(&xenolog(&[
        "state",
        c.f(),
        "--battle",
        &id,
        "--json",
        "--as",
        "0",
    ]));
    assert!(st.contains("\"open\":[0]"), "{st}");
    assert!(ok(&xenolog(&["verify", c.f(), "--battle", &id])).contains("replay exactly"));
    // A bad position file names its line, and no battle is made.
    std::fs::write(&pos, "character hicks at N6\nalien 9 at P6\n").unwrap();
    let o = xenolog(&[
        "battle",
        c.f(),
        "--game",
        "alien",
        "--scenario-file",
        pos.to_str().unwrap(),
    ]);
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("line 2"), "{}", stderr(&o));
}

#[test]
fn alien_autoplay_plays_to_the_end_and_verifies() {
    let c = Camp::new();
    let pos = c.dir.path().join("late.txt");
    std::fs::write(
        &pos,
        "queen dead\ncharacter hicks at K9 strength 2\ncharacter hudson at G12\n\
         character vasquez at dead\ncharacter gorman at dead\ncharacter bishop at dead\n\
         character apone at dead\nalien 4 at M8\nalien 3 at G4\n",
    )
    .unwrap();
    let id = ok(&xenolog(&[
        "battle",
        c.f(),
        "--game",
        "alien",
        "--scenario-file",
        pos.to_str().unwrap(),
        "--seed",
        "8",
    ]))
    .trim()
    .to_owned();
    let out = ok(&xenolog(&[
        "autoplay",
        c.f(),
        "--battle",
        &id,
        "--steps",
        "20000",
    ]));
    assert!(out.contains("the battle is over"), "{out}");
    assert!(ok(&xenolog(&["verify", c.f(), "--battle", &id])).contains("replay exactly"));
}

/// Issue 27 (3): commands take the names players use: a character by its
/// card's name, a tile by its column letter and row (`K6`), as `play`
/// reads them, the same command as in numbers.
#[test]
fn play_takes_characters_and_tiles_by_the_names_players_use() {
    let c = Camp::new();
    let id = ok(&xenolog(&[
        "battle",
        c.f(),
        "--game",
        "alien",
        "--seed",
        "3",
    ]))
    .trim()
    .to_owned();
    let legal = ok(&xenolog(&["legal", c.f(), "--battle", &id, "--json"]));
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
    ok(&play(&c, &id, &named.to_string()));
    let state: serde_json::Value =
        serde_json::from_str(&ok(&xenolog(&["state", c.f(), "--battle", &id, "--json"]))).unwrap();
    assert_eq!(
        state["characters"][0]["pos"]["tile"], to,
        "Hicks stands on {tile}"
    );
    let o = play(
        &c,
        &id,
        r#"{"actor":1,"command":{"move":{"ch":"ripley","to":"Z99"}}}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("there is no character 'ripley'"),
        "{}",
        stderr(&o)
    );
}
