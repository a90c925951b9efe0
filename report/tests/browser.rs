//! The HTML report in a real browser: Debian's Chromium renders it
//! headless at a phone's width (390 px) to a screenshot and to PDF.
//! Headless Chromium's window is never narrower than 500 px, so the page is
//! shown in a frame 390 px wide inside a wrapper page: the page lays out at
//! 390 px exactly as on a phone, measures itself and posts what it found to
//! the wrapper, and the screenshot is cropped to the frame. The test
//! fails if the page is blank, an image or inline picture does not show, or
//! anything is wider than the page. The screenshots are kept in the target
//! directory (`report-browser/`) to be looked at.
//!
//! Without Chromium the test says so and passes, unless
//! `XENOLOG_REQUIRE_CHROMIUM` is set (CI sets it; `.ci/run` installs it).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use xenolog_report::{Format, Options, render};

const PHONE: u32 = 390;

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|p| p.join(name))
                    .find(|p| p.is_file())
            })
        })
}

fn run(browser: &Path, profile: &Path, args: &[String]) -> String {
    let out = Command::new("timeout")
        .arg("120")
        .arg(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-extensions",
            "--allow-file-access-from-files",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Measures the page once laid out, into an attribute `--dump-dom` prints.
const PROBE: &str = r#"<script>
window.addEventListener('load', () => {
  const w = document.documentElement.clientWidth;
  let wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > w + 0.5 || el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible' && el.clientWidth > 0) {
      wide.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right) + ' ' + (el.textContent || '').slice(0, 40));
    }
  }
  const pictures = [...document.querySelectorAll('figure svg')];
  const empty = pictures.filter(s => { const r = s.getBoundingClientRect(); return r.width < 50 || r.height < 30; }).length;
  const broken = [...document.images].filter(i => !i.complete || i.naturalWidth === 0).length;
  parent.postMessage(JSON.stringify({
    width: w, scroll: document.documentElement.scrollWidth, wide: wide.slice(0, 5), pictures: pictures.length,
    empty: empty, broken: broken, text: document.body.innerText.length }), '*');
});
</script>"#;

/// A page showing `inner` in a frame of a phone's width and `height`,
/// keeping what the frame posts.
fn wrapper(inner: &str, height: u32) -> String {
    format!(
        r#"<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#fff">
<iframe src="{inner}" style="border:0;display:block;width:{PHONE}px;height:{height}px"></iframe>
<script>addEventListener('message', e => document.body.setAttribute('data-probe', e.data));</script>
</body></html>"#
    )
}

#[test]
fn the_html_report_renders_in_chromium_at_a_phones_width_and_prints() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("XENOLOG_REQUIRE_CHROMIUM").is_none(),
            "Chromium is required here (XENOLOG_REQUIRE_CHROMIUM) but not installed: apt-get install chromium"
        );
        eprintln!("skipped: no chromium (apt-get install chromium)");
        return;
    };
    let story = common::story();
    let html = render(&story, Format::Html, &Options::default()).text;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-browser");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("report.html");
    std::fs::write(&page, &html).unwrap();
    std::fs::write(
        dir.join("probe.html"),
        html.replace("</body>", &format!("{PROBE}</body>")),
    )
    .unwrap();
    let probe = dir.join("probe-at-390.html");
    std::fs::write(&probe, wrapper("probe.html", 900)).unwrap();
    let profile = tempfile::tempdir().unwrap();
    let url = |p: &Path| format!("file://{}", p.display());

    // Laid out at 390 px: nothing wider than the page, every picture shown.
    let dom = run(
        &browser,
        profile.path(),
        &[
            "--window-size=600,900".into(),
            "--virtual-time-budget=10000".into(),
            "--dump-dom".into(),
            url(&probe),
        ],
    );
    let json = dom
        .split("data-probe=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("the probe ran")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let m: serde_json::Value = serde_json::from_str(&json).unwrap();
    eprintln!("at {PHONE} px: {m}");
    assert_eq!(m["width"].as_u64(), Some(u64::from(PHONE)), "{m}");
    assert!(
        m["scroll"].as_u64().unwrap() <= u64::from(PHONE),
        "the page is wider than a phone: {m}"
    );
    assert!(
        m["wide"].as_array().unwrap().is_empty(),
        "wider than the page: {m}"
    );
    assert!(
        m["pictures"].as_u64().unwrap() >= story.pictures.len() as u64,
        "{m}"
    );
    assert_eq!(m["empty"].as_u64(), Some(0), "a picture does not show: {m}");
    assert_eq!(m["broken"].as_u64(), Some(0), "an image does not load: {m}");
    assert!(m["text"].as_u64().unwrap() > 2000, "little text: {m}");

    // A screenshot of the top of the page at a phone's width, not blank.
    for (name, height) in [("phone-top.png", 1600u32), ("phone-long.png", 6000)] {
        let shot = dir.join(name);
        let frame = dir.join(format!("{name}.html"));
        std::fs::write(&frame, wrapper("report.html", height)).unwrap();
        run(
            &browser,
            profile.path(),
            &[
                format!("--window-size=600,{height}"),
                "--virtual-time-budget=5000".into(),
                format!("--screenshot={}", shot.display()),
                url(&frame),
            ],
        );
        let img = image::open(&shot).expect("a PNG screenshot").to_rgb8();
        // Only the frame: the phone's width.
        let img = image::imageops::crop_imm(&img, 0, 0, PHONE, height.min(img.height())).to_image();
        img.save(&shot).unwrap();
        assert_eq!(img.width(), PHONE);
        let inked = img
            .pixels()
            .filter(|p| p.0.iter().any(|&c| c < 200))
            .count();
        let share = inked as f64 / f64::from(img.width() * img.height());
        assert!(
            share > 0.02,
            "{name} is blank ({:.3}% inked)",
            share * 100.0
        );
        let colours: std::collections::BTreeSet<[u8; 3]> =
            img.pixels().map(|p| p.0.map(|c| c / 32)).collect();
        assert!(
            colours.len() > 8,
            "{name} has no pictures in it: {} colours",
            colours.len()
        );
    }

    // Printed to PDF.
    let pdf = dir.join("report.pdf");
    run(
        &browser,
        profile.path(),
        &[
            "--no-pdf-header-footer".into(),
            format!("--print-to-pdf={}", pdf.display()),
            url(&page),
        ],
    );
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF"), "not a PDF");
    assert!(
        bytes.len() > 20_000,
        "a PDF of {} bytes is too small to hold the report",
        bytes.len()
    );
    let pages = bytes
        .windows(10)
        .filter(|w| w == b"/Type /Pag" || w == b"/Type/Page")
        .count();
    assert!(pages >= 2, "the report prints on {pages} pages");
}
