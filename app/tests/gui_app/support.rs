//! Starting the app in a harness, and small helpers to drive it.

use std::path::PathBuf;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::gui::app::{App, Startup};
use crate::gui::files::{Answer, ScriptedDialogs};
use crate::gui::prefs::{Prefs, ThemeChoice};

/// The window size every test and snapshot uses.
pub const SIZE: egui::Vec2 = egui::vec2(1360.0, 860.0);

/// The app on a campaign kept in memory (no files), light theme.
pub fn app_with(
    campaign: Option<PathBuf>,
    data_dir: Option<PathBuf>,
    answers: Vec<Option<PathBuf>>,
) -> Harness<'static, App> {
    app_answering(
        campaign,
        data_dir,
        answers.into_iter().map(Answer::from).collect(),
        true,
    )
}

/// The app whose file dialogs give these answers in turn (a dialog that
/// cannot be shown, too).
pub fn app_answering(
    campaign: Option<PathBuf>,
    data_dir: Option<PathBuf>,
    answers: Vec<Answer>,
    accessibility_check: bool,
) -> Harness<'static, App> {
    let prefs = Prefs {
        theme: ThemeChoice::Light,
        // The small test game keeps the generic tests short.
        show_test_games: true,
        ..Prefs::default()
    };
    let builder = Harness::builder()
        .with_size(SIZE)
        .with_pixels_per_point(1.0)
        .with_theme(egui::Theme::Light)
        // A jump of the cursor scrolls the entry table to it over a few
        // frames, and the row at the cursor may show its step buttons only
        // once it is on screen; it settles within six.
        .with_max_steps(8)
        .with_accessibility_check(accessibility_check);
    build(
        builder,
        prefs,
        startup(campaign, data_dir, ScriptedDialogs::answering(answers)),
    )
}

/// What the app starts with under test: this campaign and data folder,
/// these dialogs; no screenshot, no last campaign reopened.
pub fn startup(
    campaign: Option<PathBuf>,
    data_dir: Option<PathBuf>,
    dialogs: ScriptedDialogs,
) -> Startup {
    Startup {
        campaign,
        data_dir,
        dialogs: Box::new(dialogs),
        screenshot: None,
        restore_last: false,
        started: std::time::Instant::now(),
        sample: None,
    }
}

/// The app in the harness `builder` makes, every campaign check (issue 30
/// item 9) run to its end before the frame that started it goes on: a
/// snapshot or a status line never catches the check's words half-way,
/// however loaded the machine (every test that opens a file goes here).
pub fn build(
    builder: egui_kittest::HarnessBuilder<App>,
    prefs: Prefs,
    startup: Startup,
) -> Harness<'static, App> {
    builder
        .renderer(KeptRenderer::default())
        .build_eframe(move |cc| {
            let mut app = App::with_prefs(&cc.egui_ctx, prefs, startup);
            app.check_in_the_foreground();
            app
        })
}

/// The app on a campaign kept in memory.
pub fn app() -> Harness<'static, App> {
    app_with(None, None, Vec::new())
}

/// Click the node with this exact label (scrolled into view first) and let
/// the app settle.
pub fn click(h: &mut Harness<'_, App>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
}

/// Open a menu of the menu bar and click one of its items (the item's
/// label may carry its shortcut; a panel button with the same words comes
/// after it).
///
/// On a loaded machine the click on the menu's name may not have opened it
/// when the app settles (a club campaign's frames keep coming), so the
/// menu is clicked again until a node more than the panels' shows its item,
/// for at most 60 s.
pub fn menu(h: &mut Harness<'_, App>, menu: &str, item: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let closed = h.query_all_by_label_contains(item).count();
    loop {
        click(h, menu);
        // The open menu is drawn with the menu bar, before the panels.
        let clicked = match h.query_all_by_label_contains(item).next() {
            Some(node) if h.query_all_by_label_contains(item).count() > closed => {
                node.click();
                true
            }
            _ => false,
        };
        if clicked {
            h.run();
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no menu item {item} under {menu} after 60 s"
        );
        h.run();
    }
}

/// Type into the text field labelled `label`, replacing what it holds.
pub fn type_into(h: &mut Harness<'_, App>, label: &str, text: &str) {
    h.get_by_label(label).click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Start a battle through the New battle dialog.
pub fn new_battle(h: &mut Harness<'_, App>, game_label: &str, seed: u64, real_dice: bool) {
    click(h, "New battle…");
    click(h, game_label);
    type_into(h, "Seed:", &seed.to_string());
    if real_dice {
        click(h, "We roll real dice and type them in");
    }
    click(h, "Start battle");
}

/// The open battle's cursor position on its line and the line's length.
pub fn position(h: &Harness<'_, App>) -> (usize, usize) {
    let ob = h.state().open.as_ref().expect("a battle is open");
    (ob.view.pos, ob.view.line.positions() - 1)
}

/// The test game's two-player race, as File > New battle lists it.
pub const RACE: &str = "Dice Race (test game) (2 players)";

/// Give this offered command through the app's own command path (as a
/// click on it does), and let the app run.
#[allow(dead_code)]
pub fn give(h: &mut Harness<'_, App>, c: &xenolog_engine::LegalCommand) {
    h.state_mut().push(crate::gui::command::AppCommand::Give(
        crate::gui::command::PlayRequest::new(crate::gui::command::Intent::from(c)),
    ));
    h.run();
}

/// Play `n` commands quickly through the app's own command path: each the
/// first offered that rolls 1.
pub fn play_many(h: &mut Harness<'_, App>, n: usize) {
    for _ in 0..n {
        let cmd = {
            let ob = h.state().open.as_ref().unwrap();
            ob.battle
                .legal()
                .into_iter()
                .find(|c| c.text.contains("rolls 1"))
                .unwrap()
        };
        h.state_mut().push(crate::gui::command::AppCommand::Give(
            crate::gui::command::PlayRequest::new(crate::gui::command::Intent::from(&cmd)),
        ));
        h.step();
    }
    h.run();
}

/// No notice is shown (nothing went wrong, or was said to).
pub fn no_notices(h: &Harness<'_, App>) {
    assert!(
        h.state().messages.notices().is_empty(),
        "{:?}",
        h.state().messages.notices()
    );
}

/// What File > New battle asks for a battle of `game` (no named scenario,
/// not strict).
#[allow(dead_code)]
pub fn spec(
    game: &str,
    seed: u64,
    config: serde_json::Value,
    title: &str,
    dice_mode: crate::gui::store::DiceMode,
) -> crate::gui::command::NewBattleSpec {
    crate::gui::command::NewBattleSpec {
        game: game.into(),
        scenario: String::new(),
        seed,
        config,
        title: title.into(),
        dice_mode,
        strict: false,
    }
}

/// The app (as [`app`]) with this battle started; nothing went wrong.
#[allow(dead_code)]
pub fn app_on(spec: crate::gui::command::NewBattleSpec) -> Harness<'static, App> {
    let mut h = app();
    start_battle(&mut h, spec);
    h
}

/// Start a battle as File > New battle does it; nothing went wrong.
pub fn start_battle(h: &mut Harness<'_, App>, spec: crate::gui::command::NewBattleSpec) {
    h.state_mut()
        .push(crate::gui::command::AppCommand::NewBattle(spec));
    h.run();
    no_notices(h);
}

/// The open battle's state, a copy, as game `G` holds it.
pub fn game_state<G: xenolog_engine::Game + 'static>(h: &Harness<'_, App>) -> G::State {
    h.state()
        .open
        .as_ref()
        .expect("a battle is open")
        .battle
        .as_any()
        .downcast_ref::<xenolog_engine::Session<G>>()
        .expect("a battle of this game")
        .state()
        .clone()
}

/// The commands the open battle offers (the app's view of them).
pub fn legal<'a>(h: &'a Harness<'_, App>) -> &'a [xenolog_engine::LegalCommand] {
    &h.state()
        .open
        .as_ref()
        .expect("a battle is open")
        .view
        .legal
}

/// Click the node with this label that lies on the board (a panel may have
/// a button with the same words).
pub fn click_on_board(h: &mut Harness<'_, App>, label: &str) {
    let board = h.get_by_label(BOARD).rect();
    let node = h
        .get_all_by_label(label)
        .find(|n| board.contains(n.rect().center()))
        .unwrap_or_else(|| panic!("nothing labelled {label:?} on the board"));
    node.click();
    h.run();
}

/// The accessible name of the board.
pub const BOARD: &str = "Board (drag to pan, scroll to zoom)";

/// Move the cursor with the keyboard: Home, then Right `pos` times.
pub fn go_to(h: &mut Harness<'_, App>, pos: usize) {
    h.key_press(egui::Key::Home);
    h.run();
    for _ in 0..pos {
        h.key_press(egui::Key::ArrowRight);
    }
    h.run();
    assert_eq!(position(h).0, pos);
}

/// Give a command by clicking its target on the board, choosing it in the
/// "Which command?" dialog when the target takes several.
pub fn give_on_board(h: &mut Harness<'_, App>, cmd: &xenolog_engine::LegalCommand) {
    // The board's and the dialog's words, as the game's board UI makes them
    // (a grenade's landing tile by its count of areas, an area by its tiles).
    let (target, words) = {
        let open = h.state().open.as_ref().expect("a battle is open");
        let battle = open.battle.as_ref();
        let ways: Vec<&xenolog_engine::LegalCommand> = open
            .view
            .legal
            .iter()
            .filter(|c| c.subject == cmd.subject && c.target == cmd.target)
            .collect();
        let target =
            crate::gui::board::target_words(&ways, &|cmds| open.board.target_label(battle, cmds));
        let words = open
            .board
            .choice_label(battle, cmd)
            .map_or_else(|| cmd.text.clone(), |(words, _)| words);
        (target, (ways.len() > 1).then_some(words))
    };
    click_on_board(h, &target);
    let Some(words) = words else {
        return;
    };
    h.get_by_label("Which command?");
    let choice = h
        .get_all_by_label(&words)
        .last()
        .expect("the dialog offers the command");
    choice.click();
    h.run();
}

/// Save what the app shows now as `NAME.png` in the folder named by the
/// environment variable `XENOLOG_TEST_SHOTS`, to look at by eye (nothing is
/// compared; without the variable nothing is rendered).
pub fn shot(h: &mut Harness<'_, App>, name: &str) {
    let Some(dir) = std::env::var_os("XENOLOG_TEST_SHOTS") else {
        return;
    };
    let path = PathBuf::from(dir).join(format!("{name}.png"));
    let image = render(h);
    image.save(&path).expect("the picture is saved");
}

/// Hide the campaign panel before a reference picture: it shows the
/// battles' dates, which are today's (the scratch campaign is the store,
/// with its clock).
pub fn hide_campaign_panel(h: &mut Harness<'_, App>) {
    show_panels(h, false, true);
}

/// Show or hide the campaign panel (`browser`) and the side panel, as the
/// View menu does.
pub fn show_panels(h: &mut Harness<'_, App>, browser: bool, side: bool) {
    h.state_mut().look.panels = Some(crate::gui::menu::PanelsShown { browser, side });
    h.run();
}

/// The middle of scene item `id` on the screen.
pub fn on_screen(h: &Harness<'_, App>, id: &str) -> egui::Pos2 {
    let view = h.get_by_label(BOARD).rect();
    let ob = h.state().open.as_ref().unwrap();
    let item = ob.view.scene.find(id).expect("the item is drawn");
    let c = match &item.shape {
        xenolog_engine::scene::Shape::Polygon(ps) => {
            let n = ps.len() as f32;
            [
                ps.iter().map(|p| p[0]).sum::<f32>() / n,
                ps.iter().map(|p| p[1]).sum::<f32>() / n,
            ]
        }
        xenolog_engine::scene::Shape::Rect { min, max, .. } => {
            [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0]
        }
        xenolog_engine::scene::Shape::Circle { center, .. } => *center,
        other => panic!("{id} is drawn as {other:?}"),
    };
    crate::gui::board::Xform::new(&ob.view.scene, view, &h.state().look.camera).to_screen(c)
}

/// The items of the open battle's scene, in the order they are drawn.
pub fn scene_items<'a>(
    h: &'a Harness<'_, App>,
) -> std::slice::Iter<'a, xenolog_engine::scene::Item> {
    let ob = h.state().open.as_ref().expect("a battle is open");
    ob.view.scene.items.iter()
}

/// The scene ids of the units that can act at the cursor (the subjects of
/// the legal commands that are drawn), in the order the game lists them.
pub fn acting_units(h: &Harness<'_, App>) -> Vec<String> {
    let ob = h.state().open.as_ref().expect("a battle is open");
    let mut v: Vec<String> = Vec::new();
    for s in ob.view.legal.iter().filter_map(|c| c.subject.clone()) {
        if !v.contains(&s) && ob.view.scene.find(&s).is_some() {
            v.push(s);
        }
    }
    v
}

/// Frames until the app's background trust check has ended (at most a
/// minute); fails if it has not.
#[allow(dead_code)]
pub fn until_checked(h: &mut Harness<'_, App>) {
    until_ended(h, App::trust_running, "the check did not end");
}

/// Frames until the app's merge of a copy has ended (at most a minute);
/// fails if it has not.
#[allow(dead_code)]
pub fn until_merged(h: &mut Harness<'_, App>) {
    until_ended(h, App::merging, "the merge did not end");
}

/// Frames until `running` is no longer so (at most a minute); fails with
/// `words` if it still is.
fn until_ended(h: &mut Harness<'_, App>, running: fn(&App) -> bool, words: &str) {
    let start = std::time::Instant::now();
    while running(h.state()) && start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.run();
    }
    h.run();
    assert!(!running(h.state()), "{words}");
}

/// A real click: the pointer moves there, the button goes down and up.
pub fn click_at(h: &mut Harness<'_, App>, p: egui::Pos2) {
    h.hover_at(p);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: p,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    h.run();
}

/// A folder for a test's files, with the app's data folder in it.
#[allow(dead_code)]
pub fn folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    (dir, data)
}

/// The software renderer's wait is kittest's 10 s; on a loaded machine
/// (six builds on two cores, load 15) a 1600x1000 frame took longer than
/// three such waits. A render that timed out is waited for again (the
/// frame already submitted goes on meanwhile), this many times more; a
/// picture that differs from its reference never is.
const RENDER_RETRIES: usize = 8;

/// The software renderer, made at the first render and kept even when
/// that render timed out, so that [`render`] and [`snapshot`] can wait for
/// it again. (kittest's own lazy renderer drops it then, and every render
/// after fails with "No default renderer available": session 21, two
/// layout snapshots at load 15.) Textures handed over before it exists
/// wait for it.
pub struct KeptRenderer {
    make: fn() -> Box<dyn egui_kittest::TestRenderer>,
    made: Option<Box<dyn egui_kittest::TestRenderer>>,
    waiting: egui::TexturesDelta,
}

impl Default for KeptRenderer {
    fn default() -> Self {
        KeptRenderer::making(|| Box::new(egui_kittest::wgpu::WgpuTestRenderer::new()))
    }
}

impl KeptRenderer {
    /// The renderer `make` makes, made at the first render.
    pub fn making(make: fn() -> Box<dyn egui_kittest::TestRenderer>) -> Self {
        KeptRenderer {
            make,
            made: None,
            waiting: egui::TexturesDelta::default(),
        }
    }
}

impl egui_kittest::TestRenderer for KeptRenderer {
    fn handle_delta(&mut self, delta: &mut egui::TexturesDelta) {
        match &mut self.made {
            Some(r) => r.handle_delta(delta),
            None => self.waiting.append(std::mem::take(delta)),
        }
    }

    fn render(
        &mut self,
        ctx: &egui::Context,
        output: &egui::FullOutput,
    ) -> Result<image::RgbaImage, String> {
        let Self {
            make,
            made,
            waiting,
        } = self;
        let r = made.get_or_insert_with(|| {
            let mut r = make();
            r.handle_delta(waiting);
            r
        });
        r.render(ctx, output)
    }
}

impl Drop for KeptRenderer {
    fn drop(&mut self) {
        // Textures never handed to a renderer (nothing was rendered).
        self.waiting.clear();
    }
}

/// Whether a render failed only by running out of time.
fn timed_out(err: &str) -> bool {
    err.contains("timed out")
}

/// The frame as a picture (a render that timed out tried again).
pub fn render<S>(h: &mut Harness<'_, S>) -> image::RgbaImage {
    let mut retries = 0;
    loop {
        match h.render() {
            Ok(image) => return image,
            Err(e) if timed_out(&e) && retries < RENDER_RETRIES => retries += 1,
            Err(e) => panic!("the frame does not render: {e}"),
        }
    }
}

/// Compare the frame with the reference picture `name`, as
/// `Harness::snapshot` does, but a render that timed out is tried again.
pub fn snapshot<S>(h: &mut Harness<'_, S>, name: impl Into<String>) {
    let name = name.into();
    let mut retries = 0;
    loop {
        match h.try_snapshot(name.as_str()) {
            Ok(()) => return,
            Err(egui_kittest::SnapshotError::RenderError { err })
                if timed_out(&err) && retries < RENDER_RETRIES =>
            {
                retries += 1;
            }
            Err(e) => panic!("{name}: {e}"),
        }
    }
}
