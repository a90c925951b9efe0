//! What a new user meets first on the command line: a campaign file given as
//! the only argument, no display to open the app on, an empty campaign.
//! Real processes, real files.

#[path = "support/cli.rs"]
mod support;
use support::{Camp, assert_says_all, stderr, xenolog};

use std::process::{Command, Output};

/// `xenolog` with these arguments where there is no display at all (a
/// server, a shell over ssh), its home a scratch folder.
fn without_a_display(args: &[&str], home: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xenolog"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XENOLOG_TRUST_BOOK", support::trust_book())
        .output()
        .expect("the xenolog binary runs")
}

#[test]
fn a_campaign_file_as_the_only_argument_opens_the_app_on_it() {
    let c = Camp::new();
    let o = without_a_display(&[c.f()], c.dir());
    let err = stderr(&o);
    // It tried to open the window on the file, as `xenolog open FILE` does,
    // rather than call the file an unknown subcommand.
    assert!(!err.contains("unrecognized subcommand"), "{err}");
    assert!(
        err.contains("the Xenolog window could not be opened"),
        "{err}"
    );
    assert_eq!(o.status.code(), Some(2), "{err}");
    let open = without_a_display(&["open", c.f()], c.dir());
    assert_eq!(stderr(&open), err, "`xenolog FILE` is `xenolog open FILE`");
}

#[test]
fn a_file_that_does_not_exist_is_refused_in_words_with_the_way_forward() {
    let c = Camp::new();
    let missing = c.dir().join("nosuch.xenolog");
    let o = without_a_display(&[missing.to_str().unwrap()], c.dir());
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    // Not clap's "unrecognized subcommand ... a similar subcommand exists:
    // 'club'", which sends a new user the wrong way.
    assert!(!err.contains("similar subcommand"), "{err}");
    assert_says_all(
        &err,
        &[
            "there is no file",
            "nosuch.xenolog",
            "`xenolog new FILE` makes a campaign",
            "`xenolog --help`",
        ],
    );
    assert!(!missing.exists(), "nothing was made");
    // A word that is no file and no subcommand is still clap's to answer.
    let o = without_a_display(&["stat"], c.dir());
    assert!(stderr(&o).contains("'state'"), "{}", stderr(&o));
}

#[test]
fn without_a_display_the_app_says_why_and_points_to_the_command_line() {
    let c = Camp::new();
    let o = without_a_display(&["open", c.f()], c.dir());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_says_all(
        &err,
        &[
            "there is no display to open it on",
            "neither DISPLAY nor WAYLAND_DISPLAY is set",
            "`xenolog --help`",
        ],
    );
}

#[test]
fn an_empty_campaign_lists_no_battles_and_says_how_to_start_one() {
    let c = Camp::new();
    let o = xenolog(&["battles", c.f()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty(), "standard output stays empty");
    let err = stderr(&o);
    assert_says_all(
        &err,
        &[
            "no battles in",
            "yet: start one with `xenolog battle",
            "xenolog games",
        ],
    );
    // With a battle, the hint is gone; with --json, never said.
    c.start_battle(&["--game", "race", "--seed", "1"]);
    let o = xenolog(&["battles", c.f()]);
    assert!(!stderr(&o).contains("no battles"), "{}", stderr(&o));
    let empty = Camp::new();
    let o = xenolog(&["battles", empty.f(), "--json"]);
    assert!(o.stdout.is_empty() && !stderr(&o).contains("no battles"));
}

#[test]
fn a_battle_or_branch_that_does_not_exist_is_refused_with_where_to_look() {
    let c = Camp::new();
    let id = c.start_battle(&["--game", "race", "--seed", "1"]);
    let o = xenolog(&["legal", c.f(), "--battle", "5"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_says_all(
        &err,
        &[
            "this campaign has no battle 5",
            "`xenolog battles FILE` lists",
        ],
    );
    let o = xenolog(&["switch", c.f(), "--battle", &id, "--branch", "9"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_says_all(
        &err,
        &[
            "there is no branch 9",
            "`xenolog branches ",
            &format!("--battle {id}` lists"),
        ],
    );
}

/// A solo player at the command line: `legal` numbers the commands, and
/// `play --pick N` gives the one numbered N (before, only a JSON line could
/// be given, copied from `legal --json`). A number `legal` does not list is
/// refused in words and records nothing.
#[test]
fn play_pick_gives_the_command_legal_numbers() {
    let c = Camp::new();
    let id = c.start_battle(&["--game", "dimx", "--seed", "42"]);
    let listed = support::on_battle(c.f(), "legal", &id, &[]);
    let third = listed.lines().nth(2).expect("three commands or more");
    assert!(third.trim_start().starts_with("3  "), "{third}");
    let o = xenolog(&["play", c.f(), "--battle", &id, "--pick", "3"]);
    let played = support::ok(&o);
    // The words `legal` gave command 3 ("Marines: HQ HQ1: Full Move ...").
    let words = third.trim_start()[3..].trim_start();
    let words = words.split_once(": ").map_or(words, |(_, rest)| rest);
    assert!(played.contains(words), "{words:?} not in:\n{played}");
    let log = support::on_battle(c.f(), "log", &id, &["--json"]);
    assert_eq!(log.lines().count(), 1, "one entry: {log}");
    // A number beyond the list: refused in words, nothing recorded.
    let o = xenolog(&["play", c.f(), "--battle", &id, "--pick", "9999"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_says_all(
        &err,
        &[
            "there is no command 9999 here",
            "`xenolog legal ",
            "(numbered from 1)",
        ],
    );
    let log = support::on_battle(c.f(), "log", &id, &["--json"]);
    assert_eq!(log.lines().count(), 1, "still one entry: {log}");
    // --pick and --script together are a usage error.
    let o = xenolog(&[
        "play",
        c.f(),
        "--battle",
        &id,
        "--pick",
        "1",
        "--script",
        "-",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// Session 21's list, item 7: `legal --as SEAT` numbered one seat's commands
/// afresh from 1, while `play --pick N` takes the number of the whole list,
/// so `--pick` gave another seat's command. A command has one number: with
/// `--as` each line keeps the number the whole list gives it, and `--pick`
/// with that number plays it. (A Saucers setup with three gangs: the second
/// gang's commands are not first in the list.)
#[test]
fn legal_as_a_seat_numbers_its_commands_as_play_pick_takes_them() {
    let c = Camp::new();
    let id = c.start_battle(&["--game", "saucers", "--seed", "3", "--option", "players=3"]);
    let all = support::on_battle(c.f(), "legal", &id, &[]);
    let number = |l: &str| -> usize {
        l.split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a numbered line: {l:?}"))
    };
    let mine = support::on_battle(c.f(), "legal", &id, &["--as", "2"]);
    let mine: Vec<&str> = mine.lines().collect();
    assert!(!mine.is_empty());
    for l in &mine {
        // The same line, number and words, as in the whole list.
        assert!(
            all.lines().any(|a| a == *l),
            "{l:?} is not a line of the whole list:\n{all}"
        );
        assert!(l.contains("Dirty Birds: "), "{l:?} is seat 2's");
    }
    let first = mine[0];
    let n = number(first);
    assert!(
        n > 1,
        "seat 2's first command is not the list's first: {first:?}"
    );
    let o = xenolog(&["play", c.f(), "--battle", &id, "--pick", &n.to_string()]);
    let played = support::ok(&o);
    let words = first.trim_start()[n.to_string().len()..].trim_start();
    let words = words.split_once(": ").map_or(words, |(_, rest)| rest);
    assert!(played.contains(words), "{words:?} not in:\n{played}");
    assert!(played.contains("Dirty Birds"), "{played}");
}

/// Session 21's list, item 8: `log` of a battle with no entries printed
/// nothing at all. It says on stderr that there are none yet and how to play
/// one (standard output stays empty for scripts; `--json` says nothing).
#[test]
fn log_of_a_battle_with_no_entries_says_so_and_how_to_play_one() {
    let c = Camp::new();
    let id = c.start_battle(&["--game", "dimx", "--seed", "3"]);
    let o = xenolog(&["log", c.f(), "--battle", &id]);
    assert_eq!(support::ok(&o), "", "standard output stays empty");
    assert_says_all(
        &stderr(&o),
        &[
            &format!("battle {id} has no entries yet"),
            &format!("--battle {id}` lists the commands"),
            "`xenolog play ",
            "--pick N` plays number N",
        ],
    );
    let o = xenolog(&["log", c.f(), "--battle", &id, "--json"]);
    assert_eq!(support::ok(&o), "");
    assert!(!stderr(&o).contains("no entries"), "{}", stderr(&o));
    // With an entry the log lists it and the hint is gone.
    support::ok(&xenolog(&["play", c.f(), "--battle", &id, "--pick", "1"]));
    let o = xenolog(&["log", c.f(), "--battle", &id]);
    let log = support::ok(&o);
    assert!(log.starts_with("> #0 "), "{log}");
    assert!(!stderr(&o).contains("no entries"), "{}", stderr(&o));
}

/// Session 21's list, item 9: `xenolog help getting-started` prints the page
/// the app shows at Help > Getting started (one text, app/GETTING_STARTED.md);
/// `--help` points a new user to it.
#[test]
fn help_getting_started_prints_the_page_the_app_shows() {
    let o = xenolog(&["help", "getting-started"]);
    let page = support::ok(&o);
    let file = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("GETTING_STARTED.md"),
    )
    .unwrap();
    assert_eq!(page, file);
    assert_says_all(
        &page,
        &[
            "The four games",
            "Invaders From Dimension X!",
            "Night of the Saucers",
            "Alien Invasion",
            "Start a battle",
            "Take back",
            "A club server",
        ],
    );
    let help = support::ok(&xenolog(&["--help"]));
    assert_says_all(&help, &["`xenolog help getting-started`"]);
}

/// Session 22's new user, noticed and left: `log` and `legal` of a solo
/// Dimension X battle printed "hidden information included" every time,
/// though no seat holds anything the other may not read (its face-down
/// chits are hidden from both alike). Said only where another seat could
/// read it: a Night of the Saucers gang warfare, whose hands are each gang's
/// own (the co-operative game plays with open hands).
#[test]
fn log_and_legal_of_solo_dimension_x_say_nothing_of_hidden_information_saucers_do() {
    let c = Camp::new();
    let dimx = c.start_battle(&["--game", "dimx", "--seed", "3"]);
    support::ok(&xenolog(&["play", c.f(), "--battle", &dimx, "--pick", "1"]));
    let saucers = c.start_battle(&[
        "--game",
        "saucers",
        "--seed",
        "3",
        "--option",
        "variant=gang_warfare",
    ]);
    // The deal: each gang holds a hand from here.
    support::ok(&xenolog(&[
        "play",
        c.f(),
        "--battle",
        &saucers,
        "--pick",
        "1",
    ]));
    for verb in ["log", "legal"] {
        let o = xenolog(&[verb, c.f(), "--battle", &dimx]);
        assert!(!support::ok(&o).is_empty(), "{verb} printed its lines");
        assert!(
            !stderr(&o).contains("hidden information"),
            "{verb} of a solo Dimension X battle: {}",
            stderr(&o)
        );
        let o = xenolog(&[verb, c.f(), "--battle", &saucers]);
        support::assert_stderr_says(&o, "hidden information included");
    }
    // The whole state shows the face-down chits: said there.
    let o = xenolog(&["state", c.f(), "--battle", &dimx]);
    support::assert_stderr_says(&o, "hidden information included");
}
