//! The command line, driven as a user would: real processes, real files.

#[path = "support/cli.rs"]
mod support;
use support::{Camp, assert_says_all, assert_stderr_says, ok, stderr, xenolog, xenolog_stdin};

use std::path::Path;
use std::process::{Command, Output};

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited")
}

impl Camp {
    fn race(&self, seed: &str) -> String {
        self.battle("race", seed)
    }
    /// Start a battle of `game`; its id.
    fn battle(&self, game: &str, seed: &str) -> String {
        self.start_battle(&["--game", game, "--seed", seed])
    }
}

/// Given a campaign with a Dice Race battle (`seed`) in which these command
/// `lines` were played.
fn given_a_race_played(seed: &str, lines: &str) -> (Camp, String) {
    let c = Camp::new();
    let id = c.race(seed);
    ok(&c.play(&id, lines));
    (c, id)
}

#[test]
fn a_command_printed_by_legal_is_accepted_by_play_as_it_is() {
    let c = Camp::new();
    let id = c.race("42");
    let legal = c.on_battle("legal", &id, &["--json"]);
    let first = legal.lines().next().expect("a legal command");
    let played = ok(&c.play(&id, first));
    assert_says_all(&played, &["Player 1 rolls 1 die"]);
    let log = c.on_battle("log", &id, &[]);
    assert_says_all(&log, &["#0"]);
    let v = xenolog(&["verify", c.f()]);
    assert!(
        ok(&v).contains("ok: 1 entry replays exactly"),
        "one entry, not \"1 entries\""
    );
}

#[test]
fn a_refused_command_exits_1_with_the_reason_and_changes_nothing() {
    let c = Camp::new();
    let id = c.race("1");
    // Player 2 may not act first.
    let o = c.play(&id, r#"{"actor":1,"command":"hold"}"#);
    assert_eq!(code(&o), 1);
    assert_stderr_says(&o, "it is Player 1's turn");
    let log = c.on_battle("log", &id, &["--json"]);
    assert!(log.trim().is_empty(), "nothing was recorded: {log}");
}

#[test]
fn a_malformed_script_line_is_a_usage_error_naming_the_line() {
    let c = Camp::new();
    let id = c.race("1");
    let o = c.play(
        &id,
        "{\"actor\":0,\"command\":\"hold\"}\nthis is not json\n",
    );
    assert_eq!(code(&o), 2);
    assert_stderr_says(&o, "script line 2");
    assert!(stderr(&o).contains("1 commands before it were applied"));
}

#[test]
fn entered_dice_are_used_and_marked_in_the_log() {
    let c = Camp::new();
    let id = c.race("5");
    ok(&c.play(
        &id,
        r#"{"actor":0,"command":{"roll":{"dice":2}},"dice":[6,5]}"#,
    ));
    let log = c.on_battle("log", &id, &[]);
    assert_says_all(&log, &["[dice 6 5, entered]"]);
    let o = c.play(
        &id,
        r#"{"actor":0,"command":{"roll":{"dice":2}},"dice":[6,9]}"#,
    );
    assert_eq!(code(&o), 1);
    assert_stderr_says(&o, "shows 1 to 6");
}

#[test]
fn undo_then_a_new_command_starts_a_branch_and_keeps_the_old_line() {
    let (c, id) = given_a_race_played(
        "9",
        "{\"actor\":0,\"command\":{\"roll\":{\"dice\":1}}}\n{\"actor\":0,\"command\":\"hold\"}\n",
    );
    let u = c.on_battle("undo", &id, &[]);
    assert_says_all(&u, &["moved 1 entry back; cursor at entry 0"]);
    let o = c.on_battle("redo", &id, &[]);
    assert_says_all(&o, &["cursor at entry 1"]);
    c.on_battle("undo", &id, &["--steps", "2"]);
    ok(&c.play(&id, "{\"actor\":0,\"command\":{\"roll\":{\"dice\":3}}}\n"));
    let br = c.on_battle("branches", &id, &["--json"]);
    assert_eq!(br.lines().count(), 2, "{br}");
    ok(&xenolog(&[
        "rename-branch",
        c.f(),
        "--battle",
        &id,
        "--branch",
        "1",
        "--name",
        "what if",
    ]));
    let sw = c.on_battle("switch", &id, &["--branch", "0"]);
    assert_says_all(&sw, &["cursor at entry 1"]);
    let tree = c.on_battle("branches", &id, &[]);
    assert_says_all(&tree, &["what if"]);
    c.verify(&id);
}

/// Counts agree in number: "1 entry", "1 branch", never "1 entries".
#[test]
fn counts_say_one_entry_and_one_branch() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("c.xenolog");
    let f = f.to_str().unwrap();
    ok(&xenolog(&["new", f]));
    let id = ok(&xenolog(&["battle", f, "--game", "race", "--seed", "1"]));
    let id = id.trim().rsplit(' ').next().unwrap().to_owned();
    ok(&xenolog_stdin(
        &["play", f, "--battle", &id, "--script", "-"],
        "{\"actor\":0,\"command\":\"hold\"}\n",
    ));
    let list = ok(&xenolog(&["battles", f]));
    assert_says_all(&list, &[" 1 entry ", " 1 branch "]);
    let tree = ok(&xenolog(&["branches", f, "--battle", &id]));
    assert_says_all(&tree, &["1 entry to head"]);
    let u = ok(&xenolog(&["undo", f, "--battle", &id]));
    assert_says_all(&u, &["moved 1 entry back"]);
}

#[test]
fn autoplay_plays_to_the_end_and_verify_passes() {
    let c = Camp::new();
    let id = c.race("3");
    let o = c.autoplay_seeded(&id, "2000", "7");
    assert_says_all(&o, &["the battle is over"]);
    let legal = c.on_battle("legal", &id, &[]);
    assert_says_all(&legal, &["the battle is over"]);
    ok(&xenolog(&["verify", c.f()]));
}

#[test]
fn export_then_import_into_another_campaign_round_trips() {
    let c = Camp::new();
    let id = c.race("11");
    c.autoplay(&id, "20");
    let out = c.dir().join("b.xbattle");
    c.on_battle("export", &id, &["--out", out.to_str().unwrap()]);
    let other = c.dir().join("other.xenolog");
    ok(&xenolog(&["new", other.to_str().unwrap()]));
    let imp = ok(&xenolog(&[
        "import",
        other.to_str().unwrap(),
        out.to_str().unwrap(),
    ]));
    let new_id = imp.trim().rsplit(' ').next().unwrap().to_owned();
    let a = c.on_battle("log", &id, &["--json"]);
    let b = ok(&xenolog(&[
        "log",
        other.to_str().unwrap(),
        "--battle",
        &new_id,
        "--json",
    ]));
    assert_eq!(a, b);
    ok(&xenolog(&["verify", other.to_str().unwrap()]));
}

#[test]
fn a_file_that_is_not_a_campaign_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("notes.xenolog");
    std::fs::write(&f, b"just some text, not a campaign").unwrap();
    let o = xenolog(&["battles", f.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(!stderr(&o).is_empty());
    assert_eq!(
        std::fs::read(&f).unwrap(),
        b"just some text, not a campaign"
    );
    let o = xenolog(&["battle", f.to_str().unwrap(), "--game", "race"]);
    assert_eq!(code(&o), 2);
    assert_eq!(
        std::fs::read(&f).unwrap(),
        b"just some text, not a campaign"
    );
}

#[test]
fn an_unknown_game_is_a_usage_error_that_lists_the_games() {
    let c = Camp::new();
    let o = c.try_battle(&["--game", "chess"]);
    assert_eq!(code(&o), 2);
    assert_stderr_says(&o, "no game called 'chess'");
}

#[test]
fn state_and_picture_show_any_entry() {
    let c = Camp::new();
    let id = c.race("2");
    c.autoplay(&id, "5");
    let s = c.on_battle("state", &id, &["--at-entry", "start", "--json"]);
    let v: serde_json::Value = serde_json::from_str(s.trim()).unwrap();
    assert_eq!(v["scores"], serde_json::json!([0, 0]));
    let svg = c.dir().join("board.svg");
    c.picture(&id, &svg);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let o = xenolog(&["state", c.f(), "--battle", &id, "--at-entry", "999"]);
    assert_eq!(code(&o), 2);
    assert_stderr_says(&o, "there is no entry 999");
}

#[test]
fn help_lists_every_subcommand_and_the_exit_codes() {
    let h = ok(&xenolog(&["--help"]));
    for sub in [
        "new", "battle", "legal", "play", "autoplay", "undo", "redo", "branches", "log", "state",
        "verify", "export", "import",
    ] {
        assert!(h.contains(sub), "--help lacks {sub}");
    }
    assert!(h.contains("Exit codes"));
}

#[test]
fn the_sample_campaign_holds_a_dimension_x_battle_in_mid_game_that_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("sample.xenolog");
    ok(&xenolog(&["sample", f.to_str().unwrap()]));
    let list = ok(&xenolog(&["battles", f.to_str().unwrap()]));
    assert_says_all(&list, &["dimx", "in progress"]);
    let br = ok(&xenolog(&[
        "branches",
        f.to_str().unwrap(),
        "--battle",
        "1",
        "--json",
    ]));
    assert!(br.lines().count() >= 3, "{br}");
    assert!(ok(&xenolog(&["verify", f.to_str().unwrap()])).contains("ok"));
    // A second `sample` never replaces the file.
    let o = xenolog(&["sample", f.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let c = Camp::new();
    let id = c.race("4");
    c.autoplay(&id, "300");
    let mut child = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(["log", c.f(), "--battle", &id])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{:?}", o.status);
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
}

#[test]
fn the_log_heads_each_entry_with_the_turn_and_player_it_was_given_in() {
    let (c, id) = given_a_race_played(
        "8",
        "{\"actor\":0,\"command\":\"hold\"}\n{\"actor\":1,\"command\":\"hold\"}\n",
    );
    let log = c.on_battle("log", &id, &[]);
    let heads: Vec<&str> = log.lines().filter(|l| l.contains('#')).collect();
    assert!(heads[0].contains("turn  1 Player 1"), "{log}");
    assert!(heads[1].contains("turn  2 Player 2"), "{log}");
}

#[test]
fn a_battle_is_titled_with_its_scenarios_name() {
    let c = Camp::new();
    ok(&c.try_battle(&["--game", "dimx", "--scenario", "beta", "--seed", "1"]));
    let list = ok(&xenolog(&["battles", c.f()]));
    assert_says_all(&list, &["Battle 2: The Monolith"]);
}

#[test]
fn a_strict_battle_refuses_another_command_where_dice_were_seen_and_a_casual_log_counts_takebacks()
{
    let c = Camp::new();
    let id = c.start_battle(&["--game", "race", "--seed", "3", "--strict"]);
    let roll = |n: u8| format!("{{\"actor\":0,\"command\":{{\"roll\":{{\"dice\":{n}}}}}}}\n");
    ok(&c.play(&id, &roll(2)));
    c.on_battle("undo", &id, &[]);
    let o = c.play(&id, &roll(3));
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_stderr_says(&o, "strict battle");
    assert!(c.on_battle("log", &id, &[]).contains("A strict battle"));

    // The same take-back in a casual battle is allowed, and the log says so.
    let casual = c.race("3");
    ok(&c.play(&casual, &roll(2)));
    c.on_battle("undo", &casual, &[]);
    ok(&c.play(&casual, &roll(3)));
    let log = c.on_battle("log", &casual, &[]);
    assert!(
        log.contains(
            "Taken back past a roll once: the dice had been seen when branch 'Branch 1' started"
        ),
        "{log}"
    );
}

#[test]
fn any_games_options_are_given_with_config_and_option() {
    let c = Camp::new();
    let id = c.start_battle(&[
        "--game",
        "race",
        "--config",
        r#"{"target":30}"#,
        "--option",
        "target=20",
    ]);
    let state = c.on_battle("state", &id, &["--json"]);
    assert_says_all(&state, &["\"target\":20"]);
    for (args, why) in [
        (vec!["--config", "[1]"], "must be a JSON object"),
        (vec!["--config", "{nope"], "not valid JSON"),
        (vec!["--option", "target"], "KEY=VALUE"),
        (vec!["--option", "colour=red"], "unknown field"),
    ] {
        let mut all = vec!["battle", c.f(), "--game", "race"];
        all.extend(args);
        let o = xenolog(&all);
        assert_eq!(code(&o), 2, "{all:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(why), "{all:?}: {}", stderr(&o));
    }
    assert_eq!(
        ok(&xenolog(&["battles", c.f()]))
            .lines()
            .filter(|l| l.contains("Dice Race"))
            .count(),
        1,
        "a refused battle adds nothing"
    );
}

#[test]
fn a_game_that_deals_at_the_start_shows_its_own_step_in_the_log() {
    let c = Camp::new();
    let id = c.battle("highcard", "5");
    let log = c.on_battle("log", &id, &[]);
    assert_says_all(&log, &["The game", "shuffles and deals"]);
    let legal = c.on_battle("legal", &id, &["--json"]);
    assert!(
        legal.lines().count() == 3 && legal.contains("\"lay\""),
        "{legal}"
    );
}

#[test]
fn verify_of_an_old_campaign_passes_and_says_what_was_recorded_under_older_rules() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/compat/2026-11-23/campaign.xenolog");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("old.xenolog");
    std::fs::copy(&fixture, &file).unwrap();
    let f = file.to_str().unwrap();
    // Read-only commands do not upgrade; they say how.
    let o = xenolog(&["verify", f]);
    assert_eq!(code(&o), 2);
    assert_stderr_says(&o, "xenolog upgrade");
    let up = ok(&xenolog(&["upgrade", f]));
    assert_says_all(&up, &["old.backup-v2.xenolog"]);
    assert!(dir.path().join("old.backup-v2.xenolog").exists());
    assert!(ok(&xenolog(&["upgrade", f])).contains("already in this build's format"));
    let out = ok(&xenolog(&["verify", f]));
    assert_says_all(&out, &["recorded under an older rules version"]);
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn as_seat_shows_one_seats_view_and_without_it_a_warning_says_everything_is_shown() {
    let c = Camp::new();
    let id = c.battle("highcard", "5");
    let all = xenolog(&["log", c.f(), "--battle", &id]);
    assert_stderr_says(&all, "use --as SEAT");
    let mine = c.on_battle("log", &id, &["--as", "1"]);
    let theirs = c.on_battle("log", &id, &["--as", "player 2"]);
    assert_says_all(&mine, &["to Player 2", "3 cards to Player 2"]);
    assert_says_all(&theirs, &["3 cards to Player 1"]);
    let state = c.on_battle("state", &id, &["--json", "--as", "2"]);
    assert_says_all(&state, &["\"hands\":[[0,0,0],"]);
    let legal = c.on_battle("legal", &id, &["--as", "2"]);
    assert!(
        legal.contains("Player 2 is not asked to act now (Player 1 is)"),
        "player 2 may not lay first: {legal}"
    );
    let o = xenolog(&["state", c.f(), "--battle", &id, "--as", "referee"]);
    assert_eq!(code(&o), 2);
    assert_stderr_says(
        &o,
        "no seat 'referee': try 1 (Player 1), 2 (Player 2) or all",
    );
    let svg = c.dir().join("p2.svg");
    c.on_battle(
        "picture",
        &id,
        &["--as", "2", "--out", svg.to_str().unwrap()],
    );
    assert!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .contains("a card you may not see")
    );
}

/// Issue 28, one number for every seat: a seat a person types is numbered
/// from 1 everywhere (`--as`, `--roster SEAT=`, `--nonce SEAT=`, `club
/// invite --seat`), as the app and the reports number them; the old 0 is
/// refused in words (exit 2), never taken as another seat, and changes
/// nothing. The JSON lines' `actor` stays the index from 0.
#[test]
fn a_seat_typed_on_the_command_line_is_numbered_from_1_and_0_is_refused_in_words() {
    let c = Camp::new();
    let id = c.battle("highcard", "5");
    // Seat 1 is Player 1, actor 0 of `legal --json`.
    let legal = c.on_battle("legal", &id, &["--as", "1", "--json"]);
    assert!(legal.lines().count() > 0, "seat 1 lays first: {legal}");
    assert!(legal.lines().all(|l| l.contains("\"actor\":0")), "{legal}");
    assert_says_all(
        &c.on_battle("legal", &id, &["--as", "2"]),
        &["Player 2 is not asked to act now"],
    );
    let before = c.on_battle("log", &id, &[]);
    for (verb, more) in [
        ("state", vec!["--as", "0"]),
        ("legal", vec!["--as", "0"]),
        ("verify", vec!["--nonce", "0=00"]),
    ] {
        let mut args = vec![verb, c.f(), "--battle", &id];
        args.extend(more);
        let o = xenolog(&args);
        assert_eq!(code(&o), 2, "{verb}: {}", stderr(&o));
        assert_stderr_says(&o, "seats are numbered from 1");
    }
    let o = xenolog(&["state", c.f(), "--battle", &id, "--as", "3"]);
    assert_eq!(code(&o), 2);
    assert_stderr_says(&o, "no seat '3': try 1 (Player 1), 2 (Player 2) or all");
    let o = xenolog(&[
        "battle",
        c.f(),
        "--game",
        "invasion",
        "--roster",
        "0=Hawks:1",
    ]);
    assert_eq!(code(&o), 2);
    assert_stderr_says(
        &o,
        "--roster 0=Hawks:1: '0' is not a seat: seats are numbered from 1",
    );
    // clap reads the organiser's --seat before any connection is made.
    let o = xenolog(&[
        "club",
        "invite",
        "--server",
        "ws://127.0.0.1:9",
        "--campaign",
        "1",
        "--battle",
        "1",
        "--seat",
        "0",
    ]);
    assert_eq!(code(&o), 2);
    assert_stderr_says(&o, "seats are numbered from 1");
    assert_eq!(c.on_battle("log", &id, &[]), before, "nothing changed");
    assert_eq!(
        ok(&xenolog(&["battles", c.f()])).lines().count(),
        1,
        "no battle started"
    );
}

/// Alien Invasion offers the command-line contract of every game: a battle
/// from a scenario or a scenario file of one's own, `legal --json` whose
/// lines `play` takes, entered dice and declared facts, `state --json`,
/// `log`, `picture`, `verify` and `autoplay`.
#[test]
fn alien_invasion_at_a_real_table_takes_entered_dice_and_declared_facts() {
    let c = Camp::new();
    let id = c.start_battle(&[
        "--game",
        "invasion",
        "--scenario",
        "skirmish",
        "--faction",
        "unit",
        "--faction",
        "daleks",
        "--option",
        "real_table=true",
        "--seed",
        "11",
    ]);
    // The game shuffles and draws the first round on its own.
    let log = c.on_battle("log", &id, &[]);
    assert_says_all(&log, &["The game", "round 1: drew"]);
    // A shot from legal --json, as printed, declares the line of sight.
    let legal = c.on_battle("legal", &id, &["--json"]);
    let v: serde_json::Value = legal
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| {
            v["command"]["shoot"]["shooters"]
                .as_array()
                .is_some_and(|s| s.len() == 1)
        })
        .expect("a shot of one group is offered");
    let shot = v.to_string();
    assert_eq!(v["command"]["shoot"]["declare"]["sight"], true, "{shot}");
    // Declare the target in a building and enter the dice: every figure
    // that shoots has its dice, and the total meets the kill score.
    let mut cmd = v.clone();
    cmd["command"]["shoot"]["declare"]["cover"] = serde_json::json!("building");
    let count = 24; // more than any group of the two factions rolls
    cmd["dice"] = serde_json::json!(vec![6; count]);
    let o = xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        &cmd.to_string(),
    );
    assert_eq!(code(&o), 1, "too many dice are refused");
    assert_stderr_says(&o, "dice");
    let state: serde_json::Value =
        serde_json::from_str(&c.on_battle("state", &id, &["--json"])).unwrap();
    let shooter = v["command"]["shoot"]["shooters"][0].as_u64().unwrap() as usize;
    let seat = state["groups"][shooter]["seat"].as_u64().unwrap() as usize;
    let faction = &state["factions"][seat];
    let dice: u64 = state["groups"][shooter]["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let kind = m["kind"].as_str().unwrap();
            faction["models"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["id"] == kind)
                .unwrap()["shoot"]
                .as_u64()
                .unwrap()
        })
        .sum();
    cmd["dice"] = serde_json::json!(vec![6; dice as usize]);
    ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        &cmd.to_string(),
    ));
    let log = c.on_battle("log", &id, &[]);
    assert_says_all(&log, &["declared: line of sight, target in a building"]);
    assert_says_all(&log, &["entered]"]);
    assert_says_all(&log, &["kill"]);
    let pic = c.dir().join("table.svg");
    c.picture(&id, &pic);
    let svg = std::fs::read_to_string(&pic).unwrap();
    assert!(
        svg.contains("terrain:farmhouse") && svg.contains("card:0"),
        "the table and the cards"
    );
    assert!(c.verify(&id).contains("replay exactly"));
}

#[test]
fn alien_invasion_from_a_scenario_file_and_autoplay_to_the_end() {
    let c = Camp::new();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/data/invasion/scenarios/skirmish.txt"
    ))
    .unwrap()
    .replace("\"Farmyard Skirmish\"", "\"Our own farmyard\"");
    let file = c.write_beside("ours.txt", &text);
    let id = c.start_battle(&[
        "--game",
        "invasion",
        "--scenario-file",
        file.to_str().unwrap(),
        "--seed",
        "4",
    ]);
    let state = c.on_battle("state", &id, &["--json"]);
    assert!(
        state.contains("Our own farmyard"),
        "the battle is of the file's scenario"
    );
    let out = c.autoplay(&id, "5000");
    assert_says_all(&out, &["the battle is over"]);
    assert!(c.verify(&id).contains("replay exactly"));
    // A bad scenario file is refused with its line named, and no battle is made.
    std::fs::write(&file, text.replace("table 48 48", "table 48 banana")).unwrap();
    let o = c.try_battle(&[
        "--game",
        "invasion",
        "--scenario-file",
        file.to_str().unwrap(),
    ]);
    assert_ne!(code(&o), 0);
    assert_stderr_says(&o, "line ");
    let list = ok(&xenolog(&["battles", c.f()]));
    assert_eq!(list.matches("Alien Invasion").count(), 1, "{list}");
}

#[test]
fn games_lists_the_seats_of_each_game_in_words_and_as_a_structure() {
    let text = ok(&xenolog(&["games"]));
    assert_says_all(&text, &["Alien Invasion [2 to 6 players, a faction each]"]);
    let json = ok(&xenolog(&["games", "--json"]));
    let invasion: serde_json::Value = json
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|g| g["id"] == "invasion")
        .expect("invasion listed");
    assert_eq!(invasion["players"], "2-6");
    assert_eq!(
        invasion["seats"],
        serde_json::json!({"min": 2, "max": 6, "each": "faction"})
    );
}

/// Issue 27 (3): in a battle whose dice the players enter, a command that
/// rolls and comes without its dice is refused in words, naming how many it
/// rolls, and nothing is played; `legal --json` says which commands need
/// dice and how many (`dice_needed`, the sides of each die).
#[test]
fn entered_dice_a_rolling_command_without_its_dice_is_refused_and_legal_says_how_many() {
    let c = Camp::new();
    let id = c.start_battle(&["--game", "race", "--seed", "3", "--entered-dice"]);
    let legal = c.on_battle("legal", &id, &["--json"]);
    let lines: Vec<serde_json::Value> = legal
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let need = |cmd: serde_json::Value| {
        lines
            .iter()
            .find(|l| l["command"] == cmd)
            .unwrap_or_else(|| panic!("{cmd} is legal: {legal}"))
            .get("dice_needed")
            .cloned()
    };
    assert_eq!(
        need(serde_json::json!({"roll": {"dice": 2}})),
        Some(serde_json::json!([6, 6]))
    );
    assert_eq!(
        need(serde_json::json!("hold")),
        None,
        "holding rolls nothing"
    );
    let words = c.on_battle("legal", &id, &[]);
    assert_says_all(&words, &["[enter 3 dice: d6 d6 d6]"]);

    let o = c.play(&id, r#"{"actor":0,"command":{"roll":{"dice":2}}}"#);
    assert_eq!(code(&o), 1);
    assert_stderr_says(&o, "this command rolls 2 dice (d6 d6): enter them");
    let state = ok(&xenolog(&["battles", c.f(), "--json"]));
    assert!(
        state.contains("\"entries\":0"),
        "nothing was played: {state}"
    );
    // With its dice it is played, and the dice are marked entered.
    ok(&c.play(
        &id,
        r#"{"actor":0,"command":{"roll":{"dice":2}},"dice":[4,3]}"#,
    ));
    let log = c.on_battle("log", &id, &[]);
    assert_says_all(&log, &["[dice 4 3, entered]"]);
    // The bot enters its own dice rather than rolling the players' behind
    // their backs.
    c.autoplay(&id, "5");
    let log = c.on_battle("log", &id, &[]);
    assert!(
        log.lines()
            .filter(|l| l.contains("[dice"))
            .all(|l| l.contains(", entered]")),
        "{log}"
    );
}

/// Issue 27 (3): `play` prints the steps the game then takes on its own
/// (High Card reveals the trick itself), not only the commands typed.
#[test]
fn play_prints_the_steps_the_game_takes_on_its_own_after_a_command() {
    let c = Camp::new();
    let id = c.battle("highcard", "5");
    let legal = c.on_battle("legal", &id, &["--json"]);
    let first = legal.lines().next().unwrap().to_owned();
    ok(&c.play(&id, &first));
    let legal = c.on_battle("legal", &id, &["--json"]);
    let second = legal.lines().next().unwrap().to_owned();
    let out = ok(&c.play(&id, &second));
    let entries: Vec<&str> = out.lines().filter(|l| l.starts_with('#')).collect();
    assert!(entries.len() >= 2, "the lay and the game's own step: {out}");
    assert!(entries[1..].iter().any(|l| l.contains("The game")), "{out}");
}

/// Issue 29, arrows that run the wrong way: the command line imports nothing
/// from the GUI (the binary hands it `gui::run`), so a headless build of the
/// commands can never reach eframe. A new `gui::` path in `src/cli` fails here.
#[test]
fn the_command_line_names_nothing_of_the_gui() {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let files = xenolog_saves::db::source::rust_files(&cli).unwrap();
    assert!(files.len() >= 3, "the command line's sources are found");
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("gui::") || code.contains("crate::gui") {
                found.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the command line names the GUI:\n{}",
        found.join("\n")
    );
}
