//! The command line, driven as a user would: real processes, real files.

#[path = "support/cli.rs"]
mod support;
use support::{ok, xenolog, xenolog_stdin};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

struct Camp {
    _dir: tempfile::TempDir,
    file: PathBuf,
}

impl Camp {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("club.xenolog");
        ok(&xenolog(&["new", file.to_str().unwrap()]));
        Self { _dir: dir, file }
    }
    fn f(&self) -> &str {
        self.file.to_str().unwrap()
    }
    fn race(&self, seed: &str) -> String {
        self.battle("race", seed)
    }
    /// Start a battle of `game`; its id.
    fn battle(&self, game: &str, seed: &str) -> String {
        ok(&xenolog(&[
            "battle",
            self.f(),
            "--game",
            game,
            "--seed",
            seed,
        ]))
        .trim()
        .to_owned()
    }
    fn dir(&self) -> &Path {
        self._dir.path()
    }
}

#[test]
fn a_command_printed_by_legal_is_accepted_by_play_as_it_is() {
    let c = Camp::new();
    let id = c.race("42");
    let legal = ok(&xenolog(&["legal", c.f(), "--battle", &id, "--json"]));
    let first = legal.lines().next().expect("a legal command");
    let played = ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        first,
    ));
    assert!(played.contains("Player 1 rolls 1 die"), "{played}");
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
    assert!(log.contains("#0"), "{log}");
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
    let o = xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        r#"{"actor":1,"command":"hold"}"#,
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("it is Player 1's turn"),
        "{}",
        stderr(&o)
    );
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id, "--json"]));
    assert!(log.trim().is_empty(), "nothing was recorded: {log}");
}

#[test]
fn a_malformed_script_line_is_a_usage_error_naming_the_line() {
    let c = Camp::new();
    let id = c.race("1");
    let o = xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        "{\"actor\":0,\"command\":\"hold\"}\nthis is not json\n",
    );
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("script line 2"), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 commands before it were applied"));
}

#[test]
fn entered_dice_are_used_and_marked_in_the_log() {
    let c = Camp::new();
    let id = c.race("5");
    ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        r#"{"actor":0,"command":{"roll":{"dice":2}},"dice":[6,5]}"#,
    ));
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
    assert!(log.contains("[dice 6 5, entered]"), "{log}");
    let o = xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        r#"{"actor":0,"command":{"roll":{"dice":2}},"dice":[6,9]}"#,
    );
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("shows 1 to 6"), "{}", stderr(&o));
}

#[test]
fn undo_then_a_new_command_starts_a_branch_and_keeps_the_old_line() {
    let c = Camp::new();
    let id = c.race("9");
    ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        "{\"actor\":0,\"command\":{\"roll\":{\"dice\":1}}}\n{\"actor\":0,\"command\":\"hold\"}\n",
    ));
    let u = ok(&xenolog(&["undo", c.f(), "--battle", &id]));
    assert!(u.contains("moved 1 entry back; cursor at entry 0"), "{u}");
    let o = ok(&xenolog(&["redo", c.f(), "--battle", &id]));
    assert!(o.contains("cursor at entry 1"), "{o}");
    ok(&xenolog(&["undo", c.f(), "--battle", &id, "--steps", "2"]));
    ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        "{\"actor\":0,\"command\":{\"roll\":{\"dice\":3}}}\n",
    ));
    let br = ok(&xenolog(&["branches", c.f(), "--battle", &id, "--json"]));
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
    let sw = ok(&xenolog(&[
        "switch",
        c.f(),
        "--battle",
        &id,
        "--branch",
        "0",
    ]));
    assert!(sw.contains("cursor at entry 1"), "{sw}");
    let tree = ok(&xenolog(&["branches", c.f(), "--battle", &id]));
    assert!(tree.contains("what if"), "{tree}");
    ok(&xenolog(&["verify", c.f(), "--battle", &id]));
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
    assert!(
        list.contains(" 1 entry ") && list.contains(" 1 branch "),
        "{list}"
    );
    let tree = ok(&xenolog(&["branches", f, "--battle", &id]));
    assert!(tree.contains("1 entry to head"), "{tree}");
    let u = ok(&xenolog(&["undo", f, "--battle", &id]));
    assert!(u.contains("moved 1 entry back"), "{u}");
}

#[test]
fn autoplay_plays_to_the_end_and_verify_passes() {
    let c = Camp::new();
    let id = c.race("3");
    let o = ok(&xenolog(&[
        "autoplay",
        c.f(),
        "--battle",
        &id,
        "--steps",
        "2000",
        "--seed",
        "7",
    ]));
    assert!(o.contains("the battle is over"), "{o}");
    let legal = ok(&xenolog(&["legal", c.f(), "--battle", &id]));
    assert!(legal.contains("the battle is over"), "{legal}");
    ok(&xenolog(&["verify", c.f()]));
}

#[test]
fn export_then_import_into_another_campaign_round_trips() {
    let c = Camp::new();
    let id = c.race("11");
    ok(&xenolog(&[
        "autoplay",
        c.f(),
        "--battle",
        &id,
        "--steps",
        "20",
    ]));
    let out = c.dir().join("b.xbattle");
    ok(&xenolog(&[
        "export",
        c.f(),
        "--battle",
        &id,
        "--out",
        out.to_str().unwrap(),
    ]));
    let other = c.dir().join("other.xenolog");
    ok(&xenolog(&["new", other.to_str().unwrap()]));
    let imp = ok(&xenolog(&[
        "import",
        other.to_str().unwrap(),
        out.to_str().unwrap(),
    ]));
    let new_id = imp.trim().rsplit(' ').next().unwrap().to_owned();
    let a = ok(&xenolog(&["log", c.f(), "--battle", &id, "--json"]));
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
    let o = xenolog(&["battle", c.f(), "--game", "chess"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("no game called 'chess'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn state_and_picture_show_any_entry() {
    let c = Camp::new();
    let id = c.race("2");
    ok(&xenolog(&[
        "autoplay",
        c.f(),
        "--battle",
        &id,
        "--steps",
        "5",
    ]));
    let s = ok(&xenolog(&[
        "state",
        c.f(),
        "--battle",
        &id,
        "--at-entry",
        "start",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_str(s.trim()).unwrap();
    assert_eq!(v["scores"], serde_json::json!([0, 0]));
    let svg = c.dir().join("board.svg");
    ok(&xenolog(&[
        "picture",
        c.f(),
        "--battle",
        &id,
        "--out",
        svg.to_str().unwrap(),
    ]));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let o = xenolog(&["state", c.f(), "--battle", &id, "--at-entry", "999"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("there is no entry 999"),
        "{}",
        stderr(&o)
    );
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
    assert!(
        list.contains("dimx") && list.contains("in progress"),
        "{list}"
    );
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
    ok(&xenolog(&[
        "autoplay",
        c.f(),
        "--battle",
        &id,
        "--steps",
        "300",
    ]));
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
    let c = Camp::new();
    let id = c.race("8");
    ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        "{\"actor\":0,\"command\":\"hold\"}\n{\"actor\":1,\"command\":\"hold\"}\n",
    ));
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
    let heads: Vec<&str> = log.lines().filter(|l| l.contains('#')).collect();
    assert!(heads[0].contains("turn  1 Player 1"), "{log}");
    assert!(heads[1].contains("turn  2 Player 2"), "{log}");
}

#[test]
fn a_battle_is_titled_with_its_scenarios_name() {
    let c = Camp::new();
    ok(&xenolog(&[
        "battle",
        c.f(),
        "--game",
        "dimx",
        "--scenario",
        "beta",
        "--seed",
        "1",
    ]));
    let list = ok(&xenolog(&["battles", c.f()]));
    assert!(list.contains("Battle 2: The Monolith"), "{list}");
}

#[test]
fn a_strict_battle_refuses_another_command_where_dice_were_seen_and_a_casual_log_counts_takebacks()
{
    let c = Camp::new();
    let id = ok(&xenolog(&[
        "battle",
        c.f(),
        "--game",
        "race",
        "--seed",
        "3",
        "--strict",
    ]))
    .trim()
    .to_owned();
    let roll = |n: u8| format!("{{\"actor\":0,\"command\":{{\"roll\":{{\"dice\":{n}}}}}}}\n");
    ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        &roll(2),
    ));
    ok(&xenolog(&["undo", c.f(), "--battle", &id]));
    let o = xenolog_stdin(&["play", c.f(), "--battle", &id, "--script", "-"], &roll(3));
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("strict battle"), "{}", stderr(&o));
    assert!(ok(&xenolog(&["log", c.f(), "--battle", &id])).contains("A strict battle"));

    // The same take-back in a casual battle is allowed, and the log says so.
    let casual = c.race("3");
    ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &casual, "--script", "-"],
        &roll(2),
    ));
    ok(&xenolog(&["undo", c.f(), "--battle", &casual]));
    ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &casual, "--script", "-"],
        &roll(3),
    ));
    let log = ok(&xenolog(&["log", c.f(), "--battle", &casual]));
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
    let id = ok(&xenolog(&[
        "battle",
        c.f(),
        "--game",
        "race",
        "--config",
        r#"{"target":30}"#,
        "--option",
        "target=20",
    ]))
    .trim()
    .to_owned();
    let state = ok(&xenolog(&["state", c.f(), "--battle", &id, "--json"]));
    assert!(state.contains("\"target\":20"), "{state}");
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
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
    assert!(
        log.contains("The game") && log.contains("shuffles and deals"),
        "{log}"
    );
    let legal = ok(&xenolog(&["legal", c.f(), "--battle", &id, "--json"]));
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
    assert!(stderr(&o).contains("xenolog upgrade"), "{}", stderr(&o));
    let up = ok(&xenolog(&["upgrade", f]));
    assert!(up.contains("old.backup-v2.xenolog"), "{up}");
    assert!(dir.path().join("old.backup-v2.xenolog").exists());
    assert!(ok(&xenolog(&["upgrade", f])).contains("already in this build's format"));
    let out = ok(&xenolog(&["verify", f]));
    assert!(
        out.contains("recorded under an older rules version"),
        "{out}"
    );
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn as_seat_shows_one_seats_view_and_without_it_a_warning_says_everything_is_shown() {
    let c = Camp::new();
    let id = c.battle("highcard", "5");
    let all = xenolog(&["log", c.f(), "--battle", &id]);
    assert!(stderr(&all).contains("use --as SEAT"), "{}", stderr(&all));
    let mine = ok(&xenolog(&["log", c.f(), "--battle", &id, "--as", "0"]));
    let theirs = ok(&xenolog(&[
        "log",
        c.f(),
        "--battle",
        &id,
        "--as",
        "player 2",
    ]));
    assert!(
        mine.contains("to Player 2") && mine.contains("3 cards to Player 2"),
        "{mine}"
    );
    assert!(theirs.contains("3 cards to Player 1"), "{theirs}");
    let state = ok(&xenolog(&[
        "state",
        c.f(),
        "--battle",
        &id,
        "--json",
        "--as",
        "1",
    ]));
    assert!(state.contains("\"hands\":[[0,0,0],"), "{state}");
    let legal = ok(&xenolog(&["legal", c.f(), "--battle", &id, "--as", "1"]));
    assert!(
        legal.contains("Player 2 is not asked to act now (Player 1 is)"),
        "player 2 may not lay first: {legal}"
    );
    let o = xenolog(&["state", c.f(), "--battle", &id, "--as", "referee"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("no seat 'referee': try 0 (Player 1), 1 (Player 2) or all"),
        "{}",
        stderr(&o)
    );
    let svg = c.dir().join("p2.svg");
    ok(&xenolog(&[
        "picture",
        c.f(),
        "--battle",
        &id,
        "--as",
        "1",
        "--out",
        svg.to_str().unwrap(),
    ]));
    assert!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .contains("a card you may not see")
    );
}

/// Alien Invasion offers the command-line contract of every game: a battle
/// from a scenario or a scenario file of one's own, `legal --json` whose
/// lines `play` takes, entered dice and declared facts, `state --json`,
/// `log`, `picture`, `verify` and `autoplay`.
#[test]
fn alien_invasion_at_a_real_table_takes_entered_dice_and_declared_facts() {
    let c = Camp::new();
    let id = ok(&xenolog(&[
        "battle",
        c.f(),
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
    ]))
    .trim()
    .to_owned();
    // The game shuffles and draws the first round on its own.
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
    assert!(
        log.contains("The game") && log.contains("round 1: drew"),
        "{log}"
    );
    // A shot from legal --json, as printed, declares the line of sight.
    let legal = ok(&xenolog(&["legal", c.f(), "--battle", &id, "--json"]));
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
    assert!(stderr(&o).contains("dice"), "{}", stderr(&o));
    let state: serde_json::Value =
        serde_json::from_str(&ok(&xenolog(&["state", c.f(), "--battle", &id, "--json"]))).unwrap();
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
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
    assert!(
        log.contains("declared: line of sight, target in a building"),
        "{log}"
    );
    assert!(log.contains("entered]"), "{log}");
    assert!(log.contains("kill"), "{log}");
    let pic = c.dir().join("table.svg");
    ok(&xenolog(&[
        "picture",
        c.f(),
        "--battle",
        &id,
        "--out",
        pic.to_str().unwrap(),
    ]));
    let svg = std::fs::read_to_string(&pic).unwrap();
    assert!(
        svg.contains("terrain:farmhouse") && svg.contains("card:0"),
        "the table and the cards"
    );
    assert!(ok(&xenolog(&["verify", c.f(), "--battle", &id])).contains("replay exactly"));
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
    let file = c.dir().join("ours.txt");
    std::fs::write(&file, &text).unwrap();
    let id = ok(&xenolog(&[
        "battle",
        c.f(),
        "--game",
        "invasion",
        "--scenario-file",
        file.to_str().unwrap(),
        "--seed",
        "4",
    ]))
    .trim()
    .to_owned();
    let state = ok(&xenolog(&["state", c.f(), "--battle", &id, "--json"]));
    assert!(
        state.contains("Our own farmyard"),
        "the battle is of the file's scenario"
    );
    let out = ok(&xenolog(&[
        "autoplay",
        c.f(),
        "--battle",
        &id,
        "--steps",
        "5000",
    ]));
    assert!(out.contains("the battle is over"), "{out}");
    assert!(ok(&xenolog(&["verify", c.f(), "--battle", &id])).contains("replay exactly"));
    // A bad scenario file is refused with its line named, and no battle is made.
    std::fs::write(&file, text.replace("table 48 48", "table 48 banana")).unwrap();
    let o = xenolog(&[
        "battle",
        c.f(),
        "--game",
        "invasion",
        "--scenario-file",
        file.to_str().unwrap(),
    ]);
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("line "), "{}", stderr(&o));
    let list = ok(&xenolog(&["battles", c.f()]));
    assert_eq!(list.matches("Alien Invasion").count(), 1, "{list}");
}

#[test]
fn games_lists_the_seats_of_each_game_in_words_and_as_a_structure() {
    let text = ok(&xenolog(&["games"]));
    assert!(
        text.contains("Alien Invasion [2 to 6 players, a faction each]"),
        "{text}"
    );
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
    let id = ok(&xenolog(&[
        "battle",
        c.f(),
        "--game",
        "race",
        "--seed",
        "3",
        "--entered-dice",
    ]))
    .trim()
    .to_owned();
    let legal = ok(&xenolog(&["legal", c.f(), "--battle", &id, "--json"]));
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
    let words = ok(&xenolog(&["legal", c.f(), "--battle", &id]));
    assert!(words.contains("[enter 3 dice: d6 d6 d6]"), "{words}");

    let o = xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        r#"{"actor":0,"command":{"roll":{"dice":2}}}"#,
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("this command rolls 2 dice (d6 d6): enter them"),
        "{}",
        stderr(&o)
    );
    let state = ok(&xenolog(&["battles", c.f(), "--json"]));
    assert!(
        state.contains("\"entries\":0"),
        "nothing was played: {state}"
    );
    // With its dice it is played, and the dice are marked entered.
    ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        r#"{"actor":0,"command":{"roll":{"dice":2}},"dice":[4,3]}"#,
    ));
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
    assert!(log.contains("[dice 4 3, entered]"), "{log}");
    // The bot enters its own dice rather than rolling the players' behind
    // their backs.
    ok(&xenolog(&[
        "autoplay",
        c.f(),
        "--battle",
        &id,
        "--steps",
        "5",
    ]));
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
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
    let legal = ok(&xenolog(&["legal", c.f(), "--battle", &id, "--json"]));
    let first = legal.lines().next().unwrap().to_owned();
    ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        &first,
    ));
    let legal = ok(&xenolog(&["legal", c.f(), "--battle", &id, "--json"]));
    let second = legal.lines().next().unwrap().to_owned();
    let out = ok(&xenolog_stdin(
        &["play", c.f(), "--battle", &id, "--script", "-"],
        &second,
    ));
    let entries: Vec<&str> = out.lines().filter(|l| l.starts_with('#')).collect();
    assert!(entries.len() >= 2, "the lay and the game's own step: {out}");
    assert!(entries[1..].iter().any(|l| l.contains("The game")), "{out}");
}

/// Issue 29, arrows that run the wrong way: the command line imports nothing
/// from the GUI (the binary hands it `gui::run`), so a headless build of the
/// commands can never reach eframe. A new `gui::` path in `src/cli` fails here.
#[test]
fn the_command_line_names_nothing_of_the_gui() {
    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                sources(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut files = Vec::new();
    sources(&cli, &mut files);
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
