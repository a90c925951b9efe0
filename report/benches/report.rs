//! Report benchmarks. Run with `cargo bench -p xenolog-report --bench report`.
//!
//! - `report/<format>`: the report of a 1,000-entry battle (Dice Race, the
//!   target out of reach, played by a fixed bot) with 18 bookmarks and notes,
//!   so 20 board pictures (start, bookmarks, end): building the story (the
//!   fold, the words, the moments, verify, the pictures) and writing it,
//!   PNGs of the pictures included for Markdown and BBCode. Floor 1 s.
//! - `report_dimx/<format>`: the same for a whole Dimension X battle (seed
//!   42, a picture at the end of every turn): its scenes are the big ones.
//! - `luck/campaign_50`: the luck statistics over a 50-battle campaign
//!   (Dimension X, seeds 1-50, played to their end): every die's meaning
//!   gathered from the logs, then each side's exact distributions. Floor
//!   200 ms.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use xenolog_engine::Battle;
use xenolog_report::{Format, Header, Options, Story, luck, render};
use xenolog_saves::Note;

fn play(b: &mut dyn Battle, steps: usize, pick: impl Fn(usize, usize) -> usize) {
    for i in 0..steps {
        b.play_due().unwrap();
        let legal = b.legal();
        if legal.is_empty() {
            break;
        }
        let c = &legal[pick(i, legal.len())];
        let p = b.prepare_json(c.actor, &c.command, None).unwrap();
        b.commit(p).unwrap();
    }
}

fn header(notes: Vec<Note>, only_bookmarks: bool) -> Header {
    Header {
        title: "Benchmark".into(),
        battle_id: 1,
        campaign_file: "club.xenolog".into(),
        date: "2026-11-23".into(),
        notes,
        branch: None,
        bookmark_pictures_only: only_bookmarks,
    }
}

fn formats(c: &mut Criterion, group: &str, b: &dyn Battle, h: &Header) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1));
    let story = Story::build(b, h);
    eprintln!(
        "{group}: {} entries, {} pictures, {} dice",
        story.entries,
        story.pictures.len(),
        story.dice.len()
    );
    for f in Format::ALL {
        g.bench_function(f.extension(), |bench| {
            bench.iter(|| {
                let story = Story::build(b, h);
                let r = render(&story, f, &Options::default());
                black_box((r.text.len(), r.files.len()))
            })
        });
    }
    g.finish();
}

fn reports(c: &mut Criterion) {
    let mut race =
        xenolog_engine::games::new_battle("race", 7, &json!({"target": 1_000_000})).unwrap();
    // Roll one die, or hold: 1,000 entries.
    play(&mut *race, 1_000, |i, n| (i * 5 + 1) % n);
    assert_eq!(race.records().len(), 1_000);
    let notes = (0..18)
        .map(|k| Note {
            entry: 25 + k * 53,
            bookmark: true,
            text: format!("note {k}"),
            created: 0,
            updated: 0,
        })
        .collect();
    formats(c, "report", &*race, &header(notes, true));

    let mut dimx = xenolog_engine::games::new_battle("dimx", 42, &json!({})).unwrap();
    play(&mut *dimx, 400, |i, n| (i * 7 + 3) % n);
    formats(c, "report_dimx", &*dimx, &header(Vec::new(), false));
}

fn campaign_luck(c: &mut Criterion) {
    let battles: Vec<Box<dyn Battle>> = (1..=50)
        .map(|seed| {
            let mut b = xenolog_engine::games::new_battle("dimx", seed, &json!({})).unwrap();
            play(&mut *b, 400, |i, n| (i * 7 + seed as usize) % n);
            b
        })
        .collect();
    let mut g = c.benchmark_group("luck");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function("campaign_50", |bench| {
        bench.iter(|| {
            let mut dice = Vec::new();
            for (k, b) in battles.iter().enumerate() {
                let line = b.path_to(b.head(b.current_branch()));
                dice.extend(luck::dice_of(&**b, &line, k));
            }
            black_box(luck::luck(&dice))
        })
    });
    let dice: Vec<_> = battles
        .iter()
        .enumerate()
        .flat_map(|(k, b)| luck::dice_of(&**b, &b.path_to(b.head(b.current_branch())), k))
        .collect();
    eprintln!("luck/campaign_50: {} dice", dice.len());
    g.bench_function("campaign_50_statistics_only", |bench| {
        bench.iter(|| black_box(luck::luck(&dice)))
    });
    g.finish();
}

criterion_group!(benches, reports, campaign_luck);
criterion_main!(benches);
