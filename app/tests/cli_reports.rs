//! `xenolog note`, `xenolog bookmarks` and `xenolog report`, driven as a
//! user would: real processes, real files.

#[path = "support/cli.rs"]
mod support;
use support::{assert_says_all, ok, xenolog};

use std::path::PathBuf;

/// A campaign with a Dimension X battle a bot has played 40 commands of.
fn played() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.xenolog");
    let f = file.to_str().unwrap();
    ok(&xenolog(&["new", f]));
    ok(&xenolog(&["battle", f, "--game", "dimx", "--seed", "42"]));
    ok(&xenolog(&[
        "autoplay", f, "--battle", "1", "--steps", "40", "--seed", "3",
    ]));
    (dir, file)
}

/// When a note saying `text` is added at `entry` of battle 1 (with `more`,
/// such as `--bookmark`): the output.
fn add_note(f: &str, entry: &str, text: &str, more: &[&str]) -> String {
    let mut args = vec![
        "note", "add", f, "--battle", "1", "--entry", entry, "--text", text,
    ];
    args.extend_from_slice(more);
    ok(&xenolog(&args))
}

#[test]
fn notes_and_bookmarks_are_added_listed_and_removed_and_verify_ignores_them() {
    let (_dir, file) = played();
    let f = file.to_str().unwrap();
    let out = add_note(f, "3", "the turning point", &["--bookmark"]);
    assert_says_all(&out, &["noted entry 3", "bookmarked"]);
    add_note(f, "5", "we argued about line of sight here", &[]);
    ok(&xenolog(&["bookmarks", f, "--battle", "1", "--add", "9"]));
    let list = ok(&xenolog(&["note", "list", f, "--battle", "1"]));
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 3, "{list}");
    assert!(lines[0].starts_with("* entry 3 (turn "), "{list}");
    assert!(lines[0].ends_with("-- note: the turning point"), "{list}");
    assert!(lines[1].starts_with("  entry 5 "), "{list}");
    let marks = ok(&xenolog(&["bookmarks", f, "--battle", "1", "--json"]));
    let entries: Vec<u64> = marks
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["entry"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(entries, vec![3, 9]);
    // Annotations are not game facts: verify passes and says nothing of them.
    let v = ok(&xenolog(&["verify", f]));
    assert!(!v.contains("note"), "{v}");
    // Removed, and an entry that does not exist is refused (exit 2).
    ok(&xenolog(&[
        "note", "remove", f, "--battle", "1", "--entry", "5",
    ]));
    ok(&xenolog(&[
        "bookmarks",
        f,
        "--battle",
        "1",
        "--remove",
        "9",
    ]));
    let marks = ok(&xenolog(&["bookmarks", f, "--battle", "1"]));
    assert_eq!(marks.lines().count(), 1, "{marks}");
    let bad = xenolog(&[
        "note", "add", f, "--battle", "1", "--entry", "9999", "--text", "x",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("has no entry 9999"));
}

#[test]
fn a_report_is_written_in_every_format_with_its_pictures_beside_it() {
    let (dir, file) = played();
    let f = file.to_str().unwrap();
    add_note(f, "4", "here it turned", &["--bookmark"]);
    for (format, name) in [
        ("md", "r.md"),
        ("html", "r.html"),
        ("bbcode", "r.bbcode.txt"),
        ("csv", "r.csv"),
    ] {
        let out = dir.path().join(format).join(name);
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        let said = ok(&xenolog(&[
            "report",
            f,
            "--battle",
            "1",
            "--format",
            format,
            "--out",
            out.to_str().unwrap(),
        ]));
        assert!(said.starts_with("wrote the "), "{said}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.contains("here it turned") || format == "csv",
            "{format}"
        );
        let beside: Vec<String> = std::fs::read_dir(out.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        match format {
            "md" | "bbcode" => {
                assert!(
                    beside.iter().any(|n| n == "r-board-00-start.svg"),
                    "{beside:?}"
                );
                assert!(
                    beside.iter().any(|n| n == "r-board-00-start.png"),
                    "{beside:?}"
                );
                assert!(text.contains("r-board-00-start.png"), "{format}");
            }
            "html" => {
                assert_eq!(beside.len(), 1, "one self-contained file: {beside:?}");
                assert!(text.contains("<svg"));
            }
            _ => {
                assert!(
                    text.starts_with("entry,turn,phase,side,for,needed,face,sides,source,result")
                );
                assert!(text.lines().count() > 2, "{text}");
            }
        }
    }
    // To standard output, and a format that does not exist.
    let md = ok(&xenolog(&["report", f, "--battle", "1", "--format", "md"]));
    assert!(md.starts_with("# "), "{md}");
    let bad = xenolog(&["report", f, "--battle", "1", "--format", "pdf"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("md, html, bbcode or csv"));
}

#[test]
fn the_campaign_report_tells_every_battle_the_rosters_and_the_luck_and_refuses_bbcode() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sample.xenolog");
    let f = file.to_str().unwrap();
    ok(&xenolog(&["sample", f]));
    let battles = ok(&xenolog(&["battles", f]));
    let count = battles
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .count();
    assert!(count >= 4, "{battles}");
    // Markdown to standard output: a heading per battle, the rosters, the luck.
    let md = ok(&xenolog(&["report", f, "--campaign", "--format", "md"]));
    assert!(md.starts_with("# Sample campaign: campaign report"), "{md}");
    // Each battle headed by its name, as the app and `campaign show` name it.
    let (_, after) = md.split_once("\n## Battles\n").expect("a Battles section");
    let section = after.split("\n## ").next().unwrap_or(after);
    assert_eq!(section.matches("\n### ").count(), count, "{md}");
    assert_says_all(
        section,
        &["\n### Hollow Farm, battle 1 (campaign sample)\n"],
    );
    assert_says_all(&md, &["## Rosters", "### Wyvern Platoon (U.N.I.T.)"]);
    assert_says_all(&md, &["| Model | Type | Status | EP unspent/earned |"]);
    assert_says_all(&md, &["## Luck over the campaign", "rolled by Xenolog"]);
    assert_says_all(&md, &["Re-derive it: `xenolog verify"]);
    // HTML to a file, one page.
    let out = dir.path().join("campaign.html");
    let said = ok(&xenolog(&[
        "report",
        f,
        "--campaign",
        "--format",
        "html",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert_says_all(&said, &["campaign report", "2 rosters"]);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(html.contains("<h2>Rosters</h2>") && html.contains("Wyvern Platoon"));
    // BBCode is for one battle: refused in words, nothing written.
    let bad = dir.path().join("campaign.txt");
    let o = xenolog(&[
        "report",
        f,
        "--campaign",
        "--format",
        "bbcode",
        "--out",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("written as md or html"));
    assert!(!bad.exists());
    // One battle or the campaign, not both.
    let o = xenolog(&["report", f, "--campaign", "--battle", "1"]);
    assert_eq!(o.status.code(), Some(2));
}
