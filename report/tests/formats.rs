//! The report of a fixed-seed Dimension X battle in each format, compared
//! with committed files (`UPDATE_GOLDEN=1 cargo test -p xenolog-report`
//! rewrites them after a deliberate change); the Markdown parses to the
//! expected headings and images, the BBCode's tags balance and the HTML is
//! well-formed. The committed HTML is kept as `dimx-42.html.txt`: it is the
//! expected text (pictures as digests, the style sheet as a mark), not a
//! page to open.

mod common;

use std::path::PathBuf;

use xenolog_report::{Format, Options, render};

/// Each inline SVG picture as one line naming its size and a hash: the
/// committed HTML pins the page's words and structure exactly and each
/// picture by its digest, without megabytes of board pictures in the repo
/// (the Markdown's SVG files are the same scenes).
fn pictures_digested(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<svg") {
        out.push_str(&rest[..i]);
        let end = rest[i..]
            .find("</svg>")
            .map_or(rest.len(), |j| i + j + "</svg>".len());
        let svg = &rest[i..end];
        // FNV-1a, 64 bits.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in svg.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        out.push_str(&format!("<svg …{} bytes, fnv {h:016x}…>", svg.len()));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The report's style sheet (`report/templates/style.html`, shared by the
/// battle and campaign pages) taken out of a page, checked here once: the
/// page holds it whole, once, and the committed HTML holds a one-line mark
/// in its place instead of the sheet again.
fn style_taken_out(html: &str) -> String {
    let sheet = include_str!("../templates/style.html").trim_end();
    assert_eq!(
        html.matches(sheet).count(),
        1,
        "the style sheet, whole, once"
    );
    html.replacen(sheet, "<style>/* report/templates/style.html */</style>", 1)
}

fn golden(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if want != text {
        let line = want
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(text.lines().count()));
        panic!(
            "{name} differs from the committed file at line {}:\n  want: {:?}\n  got:  {:?}\n(UPDATE_GOLDEN=1 rewrites it after a deliberate change)",
            line + 1,
            want.lines().nth(line),
            text.lines().nth(line)
        );
    }
}

fn options() -> Options {
    Options {
        stem: "dimx-42".into(),
        png: false,
    }
}

#[test]
fn the_battle_is_a_whole_one_with_moments_to_tell() {
    let s = common::story();
    assert!(
        s.result != "In progress",
        "the bot plays to the end: {}",
        s.result
    );
    assert!(s.verified_ok, "{}", s.verified);
    assert!(s.told().count() > 3);
    assert!(s.told().any(|t| t.bookmark && t.entry == 12));
    assert!(
        s.told()
            .any(|t| t.note.as_deref() == Some("we argued about line of sight here"))
    );
    // The start, the end of every turn but the last, each bookmark, the end.
    let turns = s.turns.len();
    assert_eq!(s.pictures.len(), 1 + (turns - 1) + 2 + 1, "{turns} turns");
}

#[test]
fn markdown_matches_the_committed_file_and_parses_to_its_headings_and_images() {
    use pulldown_cmark::{Event, HeadingLevel, Options as MdOptions, Parser, Tag, TagEnd};
    let s = common::story();
    let r = render(&s, Format::Markdown, &options());
    golden("dimx-42.md", &r.text);

    let mut headings: Vec<(HeadingLevel, String)> = Vec::new();
    let mut images: Vec<String> = Vec::new();
    let mut in_heading: Option<(HeadingLevel, String)> = None;
    for ev in Parser::new_ext(&r.text, MdOptions::ENABLE_TABLES) {
        match ev {
            Event::Start(Tag::Heading { level, .. }) => in_heading = Some((level, String::new())),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, h)) = in_heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => headings.extend(in_heading.take()),
            Event::Start(Tag::Image { dest_url, .. }) => images.push(dest_url.to_string()),
            _ => {}
        }
    }
    assert_eq!(
        headings[0],
        (HeadingLevel::H1, "Breakout at Skylar".to_owned())
    );
    let h2: Vec<&str> = headings
        .iter()
        .filter(|(l, _)| *l == HeadingLevel::H2)
        .map(|(_, t)| t.as_str())
        .collect();
    assert_eq!(h2.first(), Some(&"The start"));
    assert_eq!(&h2[h2.len() - 2..], &["The end", "Luck"]);
    let turns: Vec<String> = s.turns.iter().map(|t| format!("Turn {}", t.turn)).collect();
    assert_eq!(
        &h2[1..h2.len() - 2],
        turns.iter().map(String::as_str).collect::<Vec<_>>()
    );
    // Every board picture is an image, and each names a file written beside it.
    let files: Vec<&str> = r.files.iter().map(|(n, _)| n.as_str()).collect();
    for p in &s.pictures {
        let want = format!("dimx-42-{}.svg", p.name);
        assert!(images.contains(&want), "{want} not among {images:?}");
    }
    for i in &images {
        assert!(
            files.contains(&i.as_str()),
            "{i} is not written beside the report"
        );
    }
    assert!(
        images.iter().any(|i| i.contains("luck-faces-marines")),
        "{images:?}"
    );
}

/// Every tag opened was closed (what a checker's stack holds at the end).
fn all_closed(stack: &[String]) -> Result<(), String> {
    if stack.is_empty() {
        Ok(())
    } else {
        Err(format!("never closed: {stack:?}"))
    }
}

/// The BBCode tags a forum takes, each opened and closed in order.
fn bbcode_balance(text: &str) -> Result<(), String> {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('[') {
        rest = &rest[i + 1..];
        let Some(j) = rest.find(']') else {
            return Err("a [ is never closed".into());
        };
        let tag = &rest[..j];
        rest = &rest[j + 1..];
        if tag == "*" {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name => {}
                other => return Err(format!("[/{name}] closes {other:?}")),
            }
        } else {
            let name = tag.split('=').next().unwrap_or_default();
            if !["b", "i", "size", "color", "list", "img"].contains(&name) {
                return Err(format!("[{tag}] is not a tag forums take"));
            }
            stack.push(name.to_owned());
        }
    }
    all_closed(&stack)
}

#[test]
fn bbcode_matches_the_committed_file_and_its_tags_balance() {
    let s = common::story();
    let r = render(&s, Format::BbCode, &options());
    golden("dimx-42.bbcode.txt", &r.text);
    bbcode_balance(&r.text).unwrap();
    assert!(r.text.contains("Upload the picture files"));
    assert!(r.text.contains("[img]dimx-42-board-00-start.svg[/img]"));
    // The checker itself finds what it must.
    assert!(bbcode_balance("[b]x[/i]").is_err());
    assert!(bbcode_balance("[b]x").is_err());
    assert!(bbcode_balance("[script]").is_err());
}

/// HTML elements that have no end tag.
const VOID: [&str; 6] = ["meta", "br", "img", "hr", "link", "input"];

/// Well-formed: every element closed in order (void elements aside, SVG's
/// self-closed ones allowed), attributes quoted, no stray `<` or `&`.
fn html_well_formed(html: &str) -> Result<(), String> {
    let mut stack: Vec<String> = Vec::new();
    let bytes = html.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'<' => {
                let end = html[i..].find('>').ok_or("a < is never closed")? + i;
                let tag = &html[i + 1..end];
                if tag.starts_with('!') || tag.starts_with('?') {
                    // doctype, comment or XML declaration
                } else if let Some(name) = tag.strip_prefix('/') {
                    match stack.pop() {
                        Some(open) if open == name.trim() => {}
                        other => {
                            return Err(format!("</{name}> closes {other:?} at byte {i}"));
                        }
                    }
                } else {
                    let name: String = tag
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == ':')
                        .collect();
                    if name.is_empty() {
                        return Err(format!("a stray < at byte {i}"));
                    }
                    if !tag.matches('"').count().is_multiple_of(2) {
                        return Err(format!("an unquoted attribute in <{tag}>"));
                    }
                    if !tag.ends_with('/') && !VOID.contains(&name.as_str()) {
                        stack.push(name);
                    }
                }
                // The text of <style> is CSS.
                if tag == "style" {
                    let close = html[end..].find("</style>").ok_or("unclosed style")? + end;
                    i = close;
                    continue;
                }
                i = end + 1;
            }
            b'&' => {
                let semi = html[i..].find(';').ok_or("a stray &")? + i;
                let name = &html[i + 1..semi];
                if name.is_empty()
                    || name.len() > 8
                    || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '#')
                {
                    return Err(format!("a stray & at byte {i}"));
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    all_closed(&stack)
}

#[test]
fn html_matches_the_committed_file_is_well_formed_and_self_contained() {
    let s = common::story();
    let r = render(&s, Format::Html, &options());
    golden(
        "dimx-42.html.txt",
        &style_taken_out(&pictures_digested(&r.text)),
    );
    html_well_formed(&r.text).unwrap();
    assert!(r.files.is_empty(), "one file");
    for banned in [
        "<script", "http://", "https://", "<img", "<link", "@import", "url(",
    ] {
        // The SVG namespace is a name, not an address fetched.
        let hits = r.text.matches(banned).count()
            - r.text
                .matches(&format!("xmlns=\"{banned}www.w3.org"))
                .count();
        assert_eq!(hits, 0, "{banned} in a self-contained page");
    }
    assert!(
        r.text.matches("<figure>").count() > s.pictures.len(),
        "the plots too"
    );
    assert!(html_well_formed("<p><b>x</p></b>").is_err());
    assert!(html_well_formed("<p>a < b</p>").is_err());
    assert!(html_well_formed("<p>AT&T</p>").is_err());
}

/// A fold's entries say the same in every format: "1 routine (entry 13)"
/// for a fold of one (the BBCode said "entries 13-13"), "entries 0-4" for
/// more.
fn folds_say_their_entries_alike(format: Format) {
    let s = common::story();
    let text = render(&s, format, &options()).text;
    let folds: Vec<(xenolog_engine::EntryId, xenolog_engine::EntryId)> = s
        .turns
        .iter()
        .flat_map(|t| &t.phases)
        .flat_map(|p| &p.pieces)
        .filter_map(|p| match p {
            xenolog_report::Piece::Folded { from, to, .. } => Some((*from, *to)),
            xenolog_report::Piece::Told(_) => None,
        })
        .collect();
    assert!(text.contains("1 routine (entry 13): "), "{format:?}");
    assert!(text.contains("5 routine (entries 0-4): "), "{format:?}");
    let ones = folds.iter().filter(|(from, to)| from == to).count();
    assert!(ones > 1, "the battle has folds of one entry");
    for (from, to) in folds {
        let words = if from == to {
            format!("routine (entry {from})")
        } else {
            format!("routine (entries {from}-{to})")
        };
        assert!(text.contains(&words), "{format:?} lacks {words}");
        assert!(
            !text.contains(&format!("entries {from}-{from})")),
            "{format:?}"
        );
    }
}

#[test]
fn a_fold_of_one_entry_says_entry_n_in_markdown() {
    folds_say_their_entries_alike(Format::Markdown);
}

#[test]
fn a_fold_of_one_entry_says_entry_n_in_html() {
    folds_say_their_entries_alike(Format::Html);
}

#[test]
fn a_fold_of_one_entry_says_entry_n_in_bbcode() {
    folds_say_their_entries_alike(Format::BbCode);
}

#[test]
fn csv_has_one_row_per_die_and_matches_the_committed_file() {
    let s = common::story();
    let r = render(&s, Format::Csv, &options());
    golden("dimx-42.csv", &r.text);
    let mut rd = csv::Reader::from_reader(r.text.as_bytes());
    let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), s.dice.len());
    let hits = rows.iter().filter(|r| &r[9] == "hit").count();
    assert!(hits > 0);
    assert!(rows.iter().all(|r| &r[8] == "rolled"));
}

/// The options a battle was set up with are in its report, in words: a
/// flag by its label, a module with its group, a choice by its name; the
/// defaults are not listed.
#[test]
fn a_battles_options_are_in_its_report_in_words() {
    use serde_json::json;
    let b = xenolog_engine::games::new_battle(
        "invasion",
        5,
        &json!({"real_table": true, "stupidity": true, "fear": false, "sewers": false}),
    )
    .unwrap();
    let story = xenolog_report::Story::build(&*b, &common::header());
    assert_eq!(
        story.options,
        [
            "Played at a real table",
            "Stupidity (Advanced Invasion Earth)"
        ]
    );
    let md = render(&story, Format::Markdown, &options()).text;
    assert!(
        md.contains("| Options | Played at a real table; Stupidity (Advanced Invasion Earth) |"),
        "{md}"
    );
    let html = render(&story, Format::Html, &options()).text;
    assert!(html.contains("<dt>Options</dt>"), "the HTML lists them");
    let b = xenolog_engine::games::new_battle("saucers", 5, &json!({"variant": 2})).unwrap();
    let story = xenolog_report::Story::build(&*b, &common::header());
    assert_eq!(story.options, ["Variant: Gang Warfare"]);
    // A battle at its defaults lists none, and the Markdown has no row.
    let story = common::story();
    assert!(story.options.is_empty());
    assert!(
        !render(&story, Format::Markdown, &options())
            .text
            .contains("| Options |")
    );
}

/// A stranger's battle (imported from a file) carries its own title, branch
/// names and notes: markup in any of them is text in every report, never
/// markup, and the HTML page stays well-formed and script-free.
#[test]
fn markup_in_a_strangers_names_is_escaped_in_every_format() {
    const SCRIPT: &str = "<script>alert('pwned')</script>";
    let mut b = common::dimx_battle();
    b.rename_branch(0, &format!("{SCRIPT}<img src=x onerror=alert(1)>"))
        .unwrap();
    let mut header = common::header();
    header.title = format!("{SCRIPT} & </h1><h1>Fake");
    header.campaign_file = "club\"><script>x</script>.xenolog".into();
    header.notes = vec![
        common::note(12, true, &format!("</p>{SCRIPT}")),
        common::note(
            30,
            false,
            "[url=https://evil.example]click[/url] <b>bold</b>",
        ),
    ];
    let s = xenolog_report::Story::build(&*b, &header);
    let html = render(&s, Format::Html, &options()).text;
    html_well_formed(&html).unwrap();
    for banned in ["<script", "<img", "onerror=alert(1)>", "</h1><h1>"] {
        assert!(!html.contains(banned), "{banned} reached the HTML page");
    }
    // askama writes `<` as `&#60;`, the hand-made figure captions as `&lt;`.
    assert!(
        html.contains("&#60;script&#62;alert") || html.contains("&lt;script&gt;alert"),
        "the title is shown as text"
    );
    let md = render(&s, Format::Markdown, &options()).text;
    for (i, line) in md.lines().enumerate() {
        assert!(
            !line.contains("<script") && !line.contains("<img") && !line.contains("</h1>"),
            "markup reached the Markdown, line {}: {line}",
            i + 1
        );
    }
    let bb = render(&s, Format::BbCode, &options()).text;
    bbcode_balance(&bb).unwrap();
    assert!(
        !bb.contains("[url=https://evil"),
        "a stranger's BBCode tag passed"
    );
}

/// Issue 28: the "check it yourself" command names the campaign file so a
/// shell reads it back whole, whatever it is called: a space, a quote.
#[test]
fn the_verify_command_quotes_a_campaign_file_for_a_shell() {
    let b = common::dimx_battle();
    let mut header = common::header();
    header.campaign_file = "Sample campaign.xenolog".into();
    let s = xenolog_report::Story::build(&*b, &header);
    assert_eq!(
        s.verify_command,
        "xenolog verify 'Sample campaign.xenolog' --battle 1"
    );
    header.campaign_file = "Bob's club.xenolog".into();
    let s = xenolog_report::Story::build(&*b, &header);
    assert_eq!(
        s.verify_command,
        r"xenolog verify 'Bob'\''s club.xenolog' --battle 1"
    );
    // What a POSIX shell makes of it: the one file name, back.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf '%s\\n' {}",
            s.verify_command
                .trim_start_matches("xenolog verify ")
                .trim_end_matches(" --battle 1")
        ))
        .output()
        .expect("sh runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Bob's club.xenolog\n");
    // A plain name stays as it is.
    header.campaign_file = "club.xenolog".into();
    let s = xenolog_report::Story::build(&*b, &header);
    assert_eq!(s.verify_command, "xenolog verify club.xenolog --battle 1");
    for (word, quoted) in [
        ("a b", "'a b'"),
        ("", "''"),
        ("$HOME", "'$HOME'"),
        ("it's", r"'it'\''s'"),
        ("x/y-1.z", "x/y-1.z"),
    ] {
        assert_eq!(xenolog_report::shell_quote(word), quoted);
    }
}
