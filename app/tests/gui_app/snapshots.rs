//! Snapshot tests: parts of the app rendered at a fixed seed and size,
//! compared with the reference PNGs in `app/tests/snapshots/` (wgpu on
//! EGL/llvmpipe; no GPU needed). After a deliberate change, look at the new
//! pictures and update them with
//! `UPDATE_SNAPSHOTS=true cargo test -p xenolog --test gui_app snapshots`.

use eframe::egui;
use egui_kittest::Harness;
use serde_json::json;
use xenolog_engine::Battle;

use crate::gui::app::install_fonts;
use crate::gui::board::{BoardInput, Camera, board_ui};
use crate::gui::command::{AppCommand, Intent, PlayRequest};
use crate::gui::dialogs::{Dialog, DiceForm, NewBattleForm, Notice, dialog_ui, notice_ui};
use crate::gui::timeline::{TimelineState, controls_ui, entries_table_ui, strip_ui};
use crate::gui::view::BattleView;

fn harness<S>(
    size: egui::Vec2,
    state: S,
    ui: impl FnMut(&mut egui::Ui, &mut S) + 'static,
) -> Harness<'static, S> {
    Harness::builder()
        .with_size(size)
        .with_pixels_per_point(1.0)
        .with_theme(egui::Theme::Light)
        .with_context_setup(install_fonts)
        .renderer(super::support::KeptRenderer::default())
        .build_ui_state(ui, state)
}

/// A race at a fixed seed: 40 entries on the main line, a branch from entry
/// 12, the cursor back at entry 25 of the main line.
fn race() -> Box<dyn Battle> {
    let mut b = xenolog_engine::games::new_battle("race", 2024, &json!({"target": 500})).unwrap();
    let play = |b: &mut Box<dyn Battle>, k: usize| {
        let legal = b.legal();
        let c = &legal[k % legal.len()];
        let p = b.prepare_json(c.actor, &c.command, None).unwrap();
        b.commit(p).expect("decided just now");
    };
    for k in 0..40 {
        play(&mut b, [2, 1, 3, 0, 3][k % 5]);
    }
    b.undo(28);
    play(&mut b, 3);
    b.switch_branch(0).unwrap();
    b.undo(15);
    b
}

#[test]
fn timeline_and_entry_table() {
    struct S {
        battle: Box<dyn Battle>,
        view: BattleView,
        timeline: TimelineState,
        speed: f32,
    }
    let state = S {
        battle: race(),
        view: BattleView::new(),
        timeline: TimelineState {
            goto_turn: 3,
            ..Default::default()
        },
        speed: 4.0,
    };
    let mut h = harness(egui::vec2(1000.0, 300.0), state, |ui, s| {
        s.view.refresh(s.battle.as_ref());
        let mut commands = Vec::new();
        controls_ui(ui, &s.view, &mut s.timeline, &mut s.speed, &mut commands);
        strip_ui(ui, &s.view, &mut commands);
        entries_table_ui(
            ui,
            s.battle.as_ref(),
            &mut s.view,
            &mut s.timeline,
            &crate::gui::boards::GenericBoard,
            &mut crate::gui::side::SideState::default(),
            &mut commands,
        );
    });
    h.run();
    assert_eq!(h.state().view.pos, 25);
    super::support::snapshot(&mut h, "timeline");
}

fn dialog_snapshot(name: &str, dialog: Dialog) {
    dialog_snapshot_sized(name, dialog, egui::vec2(640.0, 420.0));
}

fn dialog_snapshot_sized(name: &str, dialog: Dialog, size: egui::Vec2) {
    let mut h = harness(size, Some(dialog), |ui, d| {
        let mut commands = Vec::new();
        dialog_ui(ui.ctx(), d, false, &mut commands);
    });
    h.run();
    super::support::snapshot(&mut h, name);
}

fn intent(text: &str) -> Intent {
    Intent {
        actor: xenolog_engine::Actor(0),
        command: json!("hold"),
        text: text.into(),
        label: None,
    }
}

#[test]
fn dice_dialog() {
    dialog_snapshot(
        "dialog_dice",
        Dialog::EnterDice(DiceForm {
            request: PlayRequest::new(intent("Player 1 rolls 3 dice")),
            sides: vec![6, 6, 6],
            purposes: vec![
                "a random hex: its hundreds digit (A.3)".into(),
                "a random hex: its tens digit (A.3)".into(),
                "a random hex: its units digit (A.3)".into(),
            ],
            text: "3 5".into(),
            error: Some(
                "this command needs more dice than were entered: 2 entered, at least 3 needed"
                    .into(),
            ),
        }),
    );
}

#[test]
fn branch_dialog() {
    dialog_snapshot(
        "dialog_branch",
        Dialog::ConfirmBranch {
            request: PlayRequest::new(intent("Player 2 holds")),
            why: "You are at entry 12 and Main goes on for 28 more entries. Playing here starts a new \
                  branch from this point; the 28 later entries of Main stay as they are and you can \
                  switch back to them at any time."
                .into(),
        },
    );
}

#[test]
fn notice_dialog() {
    let notices = vec![
        Notice::new(
            "The campaign could not be opened",
            "/home/player/club.xenolog is open in another Xenolog: close it there first (it can still be opened read-only)",
        )
        .with_action("Open read-only", AppCommand::DismissNotice),
    ];
    let mut h = harness(egui::vec2(640.0, 300.0), notices, |ui, n| {
        let mut commands = Vec::new();
        notice_ui(ui.ctx(), n, &mut commands);
    });
    h.run();
    super::support::snapshot(&mut h, "dialog_notice");
}

/// The Dimension X battle of the sample campaign.
fn dimx_sample() -> (tempfile::TempDir, Box<dyn Battle>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sample.xenolog");
    xenolog_saves::sample::create_sample(&path).unwrap();
    let c = xenolog_saves::Campaign::open(&path).unwrap();
    let b = c
        .battles()
        .unwrap()
        .into_iter()
        .find(|b| b.game == "dimx")
        .unwrap();
    let battle = c.load_battle(b.id).unwrap();
    (dir, battle)
}

#[test]
fn dimx_board_with_a_unit_selected() {
    struct S {
        battle: Box<dyn Battle>,
        view: BattleView,
        camera: Camera,
        _dir: tempfile::TempDir,
    }
    let (dir, mut battle) = dimx_sample();
    let mut view = BattleView::new();
    view.refresh(battle.as_ref());
    // Before entry 7: Marine Squad MS2 may fire at two Kay'otz units.
    battle.seek(view.line.entry_at(6));
    let state = S {
        battle,
        view,
        camera: Camera::default(),
        _dir: dir,
    };
    let mut h = harness(egui::vec2(960.0, 680.0), state, |ui, s| {
        s.view.refresh(s.battle.as_ref());
        let mut commands = Vec::new();
        let input = BoardInput {
            scene: &s.view.scene,
            legal: &s.view.legal,
            selected: Some("unit:MS2"),
            focus: &[],
            why_not: &|_| None,
            marked_apart: &|_| false,
            target_label: &|_| None,
            trails: &[],
            los: None,
            marks: crate::gui::board::NO_MARKS,
            click: &crate::gui::board::no_click,
            drags: false,
        };
        board_ui(ui, &input, &mut s.camera, &mut commands);
    });
    h.run();
    super::support::snapshot(&mut h, "board_dimx");
}

#[test]
fn new_battle_dialog_of_alien_invasion() {
    let mut form = NewBattleForm::new(false);
    form.pick_game(&crate::gui::dialogs::offered_games(false), "invasion");
    form.seed_text = "20240607".into();
    dialog_snapshot_sized(
        "dialog_new_battle_invasion",
        Dialog::NewBattle(form),
        egui::vec2(640.0, 820.0),
    );
}

#[test]
fn new_battle_dialog() {
    let mut form = NewBattleForm::new(false);
    form.seed_text = "20240607".into();
    dialog_snapshot_sized(
        "dialog_new_battle",
        Dialog::NewBattle(form),
        egui::vec2(640.0, 560.0),
    );
}

/// A renderer whose first render runs out of time, as the software
/// renderer's first frame did at load 15 (session 21), and renders after.
#[derive(Default)]
struct LateFirst {
    renders: u32,
}

impl egui_kittest::TestRenderer for LateFirst {
    fn handle_delta(&mut self, delta: &mut egui::TexturesDelta) {
        delta.clear();
    }

    fn render(
        &mut self,
        _: &egui::Context,
        _: &egui::FullOutput,
    ) -> Result<image::RgbaImage, String> {
        self.renders += 1;
        if self.renders == 1 {
            return Err("PollError: the wait timed out".into());
        }
        Ok(image::RgbaImage::new(1, 1))
    }
}

/// A render that timed out is waited for again on the same renderer, even
/// the first one ([`super::support::KeptRenderer`]): with kittest's own
/// lazy renderer the first render's renderer is gone after it timed out,
/// and the snapshot failed with "No default renderer available" (session
/// 21: two layout snapshots under load).
#[test]
fn a_first_render_that_timed_out_is_waited_for_again_on_the_same_renderer() {
    use egui_kittest::TestRenderer;
    let ctx = egui::Context::default();
    let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
        ui.label("a frame");
    });
    output.textures_delta.clear();
    let mut lazy = egui_kittest::LazyRenderer::new(LateFirst::default);
    assert!(
        lazy.render(&ctx, &output)
            .unwrap_err()
            .contains("timed out")
    );
    let again = lazy.render(&ctx, &output).unwrap_err();
    assert!(again.contains("No default renderer"), "{again}");
    let mut kept = super::support::KeptRenderer::making(|| Box::new(LateFirst::default()));
    assert!(
        kept.render(&ctx, &output)
            .unwrap_err()
            .contains("timed out")
    );
    assert!(
        kept.render(&ctx, &output).is_ok(),
        "the renderer that timed out renders the frame when waited for again"
    );
}
