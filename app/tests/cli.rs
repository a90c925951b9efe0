//! The command line, driven as a user would: real processes, real files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn xenolog(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(args)
        .output()
        .expect("the xenolog binary runs")
}

fn xenolog_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "expected success, got {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

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
        ok(&xenolog(&[
            "battle",
            self.f(),
            "--game",
            "race",
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
    assert!(played.contains("Player 1 rolls 1 dice"), "{played}");
    let log = ok(&xenolog(&["log", c.f(), "--battle", &id]));
    assert!(log.contains("#0"), "{log}");
    let v = xenolog(&["verify", c.f()]);
    assert!(ok(&v).contains("ok: 1 entries"));
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
