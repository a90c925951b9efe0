//! Benchmarks of the desktop app (a `cargo bench` target without a harness):
//!
//! ```sh
//! cargo bench -p xenolog --bench gui            # all of them
//! cargo bench -p xenolog --bench gui -- scrub   # those whose name contains "scrub"
//! ```
//!
//! - CPU time per frame with a full board: the app's UI pass plus egui's
//!   tessellation, the pointer moving over the board, nothing else changing.
//! - Scrubbing a 100,000-entry battle: per step, the seek and the full
//!   redraw of the next frame (scene, legal commands, table rows, ticks).
//!
//! The time to the first frame is measured on the real binary by
//! `gui_screenshot` (it prints it).

use xenolog::gui;

use std::time::{Duration, Instant};

use eframe::egui;
use serde_json::json;
use xenolog_engine::{Battle, LegalCommand};

use gui::app::{App, Startup};
use gui::command::AppCommand;
use gui::files::ScriptedDialogs;
use gui::prefs::Prefs;
use gui::store::DiceMode;

const SIZE: egui::Vec2 = egui::vec2(1360.0, 860.0);

fn app_on(battle: &dyn Battle, title: &str) -> (egui::Context, App) {
    let ctx = egui::Context::default();
    let mut app = App::with_prefs(
        &ctx,
        Prefs::default(),
        Startup {
            campaign: None,
            data_dir: None,
            dialogs: Box::new(ScriptedDialogs::default()),
            screenshot: None,
            restore_last: false,
            started: Instant::now(),
            sample: None,
        },
    );
    let mut store = xenolog_saves::Campaign::create_in_memory("Bench").unwrap();
    store
        .insert_played(battle, title, DiceMode::Rolled)
        .unwrap();
    app.use_campaign(gui::store::local(store));
    (ctx, app)
}

/// One frame: the UI pass and tessellation.
fn frame(ctx: &egui::Context, app: &mut App, t: f64, pointer: Option<egui::Pos2>) -> Duration {
    let mut input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, SIZE)),
        time: Some(t),
        ..Default::default()
    };
    if let Some(p) = pointer {
        input.events.push(egui::Event::PointerMoved(p));
    }
    let start = Instant::now();
    let mut out = ctx.run_ui(input, |ui| app.frame_ui(ui));
    let ui_done = start.elapsed();
    let prims = ctx.tessellate(out.shapes, out.pixels_per_point);
    let took = start.elapsed();
    if std::env::var_os("XENOLOG_BENCH_SPLIT").is_some() {
        eprintln!(
            "ui {:.2} ms, tessellate {:.2} ms",
            ui_done.as_secs_f64() * 1e3,
            (took - ui_done).as_secs_f64() * 1e3
        );
    }
    // No renderer here: the font atlas updates are dropped on purpose.
    out.textures_delta.clear();
    std::hint::black_box(prims);
    took
}

fn stats(name: &str, mut v: Vec<Duration>) -> (f64, f64, f64) {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let med = ms(v[v.len() / 2]);
    let p95 = ms(v[v.len() * 95 / 100]);
    let max = ms(v[v.len() - 1]);
    println!(
        "{name}: median {med:.2} ms, p95 {p95:.2} ms, max {max:.2} ms over {} samples",
        v.len()
    );
    (med, p95, max)
}

/// The biggest board there is: Dimension X in mid-game when it is built,
/// else the test game.
fn full_board() -> (Box<dyn Battle>, &'static str) {
    let dimx = xenolog_engine::games::games()
        .into_iter()
        .any(|g| g.id == "dimx" && g.available);
    let mut b = if dimx {
        xenolog_engine::games::new_battle("dimx", 11, &json!({})).unwrap()
    } else {
        xenolog_engine::games::new_battle("race", 11, &json!({"target": 1000})).unwrap()
    };
    // Play into mid-game: the first legal command each time, 60 times.
    for _ in 0..60 {
        let legal = b.legal();
        let Some(c) = legal.first() else { break };
        let p = b.prepare_json(c.actor, &c.command, None).unwrap();
        b.commit(p).expect("decided just now");
    }
    (b, if dimx { "dimx" } else { "race" })
}

/// A battle of `game` played by a bot from its start until turn `turn`, or
/// its end, or `steps` commands: the game's own steps as they fall due,
/// and each command the one `pick` chooses among those offered.
fn played_until(
    game: &str,
    seed: u64,
    config: serde_json::Value,
    turn: u32,
    steps: usize,
    mut pick: impl FnMut(&[LegalCommand]) -> Option<&LegalCommand>,
) -> Box<dyn Battle> {
    let mut b = xenolog_engine::games::new_battle(game, seed, &config).unwrap();
    for _ in 0..steps {
        b.play_due().expect("the game's own steps");
        if b.flow_at(b.cursor()).turn >= turn || b.outcome().is_some() {
            break;
        }
        let legal = b.legal();
        let Some(c) = pick(&legal) else { break };
        let p = b.prepare_json(c.actor, &c.command, None).unwrap();
        b.commit(p).expect("decided just now");
    }
    b
}

/// The bot that prefers commands of these kinds, in this order (the first
/// offered of the first kind there is), else the first offered.
fn preferring(kinds: &[&str]) -> impl FnMut(&[LegalCommand]) -> Option<&LegalCommand> {
    move |legal| {
        kinds
            .iter()
            .find_map(|k| legal.iter().find(|c| c.command.get(k).is_some()))
            .or(legal.first())
    }
}

/// A four-faction Alien Invasion battle on the Crash Site table in its
/// third round: the bot prefers shots, then moves.
fn full_table() -> Box<dyn Battle> {
    let crash_site = json!({"scenario": "crash_site"});
    played_until(
        "invasion",
        11,
        crash_site,
        3,
        200,
        preferring(&["shoot", "move"]),
    )
}

/// A two-player battle of Alien some turns in: aliens hatched and on the
/// move, characters spread through the base (the bot gives a random legal
/// command from a fixed seed).
fn alien_base() -> Box<dyn Battle> {
    let mut pick: u64 = 11;
    played_until("alien", 11, json!({}), 6, 400, |legal| {
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        legal.get((pick >> 33) as usize % legal.len().max(1))
    })
}

fn bench_cpu_per_frame_with_the_alien_base() {
    cpu_per_frame(alien_base(), "alien");
}

/// A two-player Night of the Saucers game some turns in (seed 1984, three
/// missions): the bot attacks, then searches, then moves, and never ends
/// the actions before every student has spent them.
fn saucers_board() -> Box<dyn Battle> {
    let config = json!({"players": 2, "missions": 3});
    let bot = preferring(&["attack", "search", "move"]);
    played_until("saucers", 1984, config, 4, 300, bot)
}

fn bench_cpu_per_frame_with_the_board_of_night_of_the_saucers() {
    cpu_per_frame(saucers_board(), "saucers");
}

fn bench_cpu_per_frame_with_the_full_board() {
    let (battle, game) = full_board();
    cpu_per_frame(battle, game);
}

fn bench_cpu_per_frame_with_the_full_table_of_alien_invasion() {
    cpu_per_frame(full_table(), "invasion");
}

fn cpu_per_frame(battle: Box<dyn Battle>, game: &str) {
    // Select the unit with the most commands: its moves and targets are
    // highlighted and its lines of fire drawn, the heaviest board there is.
    let busiest = {
        let legal = battle.legal();
        let mut subjects: Vec<&str> = legal.iter().filter_map(|c| c.subject.as_deref()).collect();
        subjects.sort_unstable();
        subjects.dedup();
        subjects
            .into_iter()
            .max_by_key(|s| {
                legal
                    .iter()
                    .filter(|c| c.subject.as_deref() == Some(*s))
                    .count()
            })
            .map(str::to_owned)
    };
    let (ctx, mut app) = app_on(battle.as_ref(), "Full board");
    app.push(AppCommand::Select(busiest.clone()));
    let mut t = 0.0;
    for _ in 0..10 {
        t += 1.0 / 60.0;
        frame(&ctx, &mut app, t, None);
    }
    let mut times = Vec::new();
    for i in 0..600 {
        t += 1.0 / 60.0;
        // Sweep the pointer over the board (hit tests and tooltips).
        let x = 420.0 + (i % 200) as f32 * 2.5;
        let y = 150.0 + (i % 70) as f32 * 5.0;
        times.push(frame(&ctx, &mut app, t, Some(egui::pos2(x, y))));
    }
    let ob = app.open.as_ref().unwrap();
    println!(
        "game: {game}, scene items: {}, legal commands: {}, selected: {busiest:?}",
        ob.view.scene.items.len(),
        ob.view.legal.len()
    );
    let (med, _, _) = stats(&format!("CPU per frame, full board ({game})"), times);
    assert!(
        med < 8.0 * 4.0,
        "far above the 8 ms floor even for a debug build"
    );
}

fn bench_scrub_across_a_100000_entry_battle() {
    let mut b =
        xenolog_engine::games::new_battle("race", 5, &json!({"target": 4_000_000_000u32})).unwrap();
    let built = Instant::now();
    for _ in 0..100_000 {
        let to = b.to_move().unwrap();
        let p = b
            .prepare_json(to, &json!({"roll": {"dice": 1}}), None)
            .unwrap();
        b.commit(p).expect("decided just now");
    }
    println!(
        "built 100,000 entries in {} ms",
        built.elapsed().as_millis()
    );
    let (ctx, mut app) = app_on(b.as_ref(), "Long battle");
    let opened = Instant::now();
    let mut t = 0.0;
    t += 1.0 / 60.0;
    let first = frame(&ctx, &mut app, t, None);
    println!(
        "first frame of the 100,000-entry battle: {:.1} ms (opened in {} ms)",
        first.as_secs_f64() * 1000.0,
        opened.elapsed().as_millis()
    );
    for _ in 0..5 {
        t += 1.0 / 60.0;
        frame(&ctx, &mut app, t, None);
    }
    // A drag from the start to the end in 400 steps. Each frame of a drag
    // shows the position the last frame sought to, and seeks to the next.
    let mut times = Vec::new();
    for step in 1..=400usize {
        let pos = step * 100_000 / 400;
        t += 1.0 / 60.0;
        app.push(AppCommand::SeekLine(pos));
        times.push(frame(&ctx, &mut app, t, None));
    }
    t += 1.0 / 60.0;
    frame(&ctx, &mut app, t, None);
    assert_eq!(app.open.as_ref().unwrap().view.pos, 100_000);
    let (med, _, _) = stats("scrub step (seek + redraw), 100,000 entries", times);
    assert!(
        med < 16.0 * 4.0,
        "far above the 16 ms floor even for a debug build"
    );
}

fn bench_scrub_across_a_long_dimension_x_battle() {
    let mut b = xenolog_engine::games::new_battle("dimx", 3, &json!({})).unwrap();
    // A seeded walk through the legal commands until the battle ends.
    let mut k: usize = 0;
    while b.outcome().is_none() && b.records().len() < 5_000 {
        let legal = b.legal();
        if legal.is_empty() {
            break;
        }
        k = k
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let c = &legal[(k >> 33) % legal.len()];
        let p = b.prepare_json(c.actor, &c.command, None).unwrap();
        b.commit(p).expect("decided just now");
    }
    let n = b.records().len();
    let (ctx, mut app) = app_on(b.as_ref(), "Long Dimension X battle");
    let mut t = 0.0;
    for _ in 0..5 {
        t += 1.0 / 60.0;
        frame(&ctx, &mut app, t, None);
    }
    let mut times = Vec::new();
    for step in 1..=400usize {
        let pos = step * n / 400;
        t += 1.0 / 60.0;
        app.push(AppCommand::SeekLine(pos));
        times.push(frame(&ctx, &mut app, t, None));
    }
    println!("Dimension X battle of {n} entries");
    let (med, _, _) = stats("scrub step (seek + redraw), Dimension X", times);
    assert!(med < 16.0 * 4.0);
}

/// Run the benchmarks whose names contain the first non-flag argument (all
/// when there is none); `cargo bench` passes `--bench`, which is ignored.
fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let benches: [(&str, fn()); 6] = [
        (
            "bench_cpu_per_frame_with_the_full_board",
            bench_cpu_per_frame_with_the_full_board,
        ),
        (
            "bench_cpu_per_frame_with_the_full_table_of_alien_invasion",
            bench_cpu_per_frame_with_the_full_table_of_alien_invasion,
        ),
        (
            "bench_cpu_per_frame_with_the_alien_base",
            bench_cpu_per_frame_with_the_alien_base,
        ),
        (
            "bench_cpu_per_frame_with_the_board_of_night_of_the_saucers",
            bench_cpu_per_frame_with_the_board_of_night_of_the_saucers,
        ),
        (
            "bench_scrub_across_a_100000_entry_battle",
            bench_scrub_across_a_100000_entry_battle,
        ),
        (
            "bench_scrub_across_a_long_dimension_x_battle",
            bench_scrub_across_a_long_dimension_x_battle,
        ),
    ];
    for (name, run) in benches {
        if filter.as_deref().is_none_or(|f| name.contains(f)) {
            println!("== {name}");
            run();
        }
    }
}
