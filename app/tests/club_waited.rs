//! Whom a club battle waits for, through a real `xenolog serve` and real
//! command-line clients (session 23, lenswire; polish3's left-over): while
//! a Night of the Saucers swap offer waits for its answer, both seats are
//! asked (the offerer may withdraw), but the game waits for the answering
//! seat only. `club battles` says "(yours)" to that seat alone, and the
//! offerer's bot (`autoplay --server`) waits on the server's `waited_for`
//! instead of reading the command's name.

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use xenolog_engine::Session;
use xenolog_engine::games::saucers::{Saucers, SaucersConfig};

#[path = "support/club.rs"]
mod support;
use support::{Table, cmd, ok};

/// Hidden hands (a swap is offered, then answered): Nine Lives (seat 1) in
/// its actions holding a Baseball Bat, Fly Boyz (seat 2) a Shotgun.
fn config() -> Value {
    json!({
        "players": 2,
        "gangs": ["nine_lives", "fly_boyz"],
        "hidden_hands": true,
        "scenario_text": "hand 1 bat\nhand 2 shotgun\nturn 1 actions\n",
    })
}

/// Nine Lives' offer: the Bat for the Fly Boyz' Shotgun (its card number
/// from the engine: seat 1's view does not show it).
fn offer() -> String {
    let c: SaucersConfig = serde_json::from_value(config()).unwrap();
    let mut s = Session::<Saucers>::new(4, c).unwrap_or_else(|e| panic!("{e}"));
    xenolog_engine::Battle::play_due(&mut s).unwrap();
    let shotgun = s.state().seats[1].hand[0];
    let none = json!({"food": 0, "ammo": 0, "fuel": 0, "scrap": 0, "alien": 0});
    json!({"actor": 0, "command": {"swap": {"human": "tabby", "with": 1, "give": none,
        "give_cards": ["bat"], "take": none, "take_cards": [shotgun]}}})
    .to_string()
}

/// The battle's line of `club battles` (the club's one battle) as the club
/// folder `who` reads it.
fn listed(t: &Table, who: &std::path::Path) -> String {
    let all = ok(who, &["club", "battles", "--server", &t.served.url]);
    all.lines()
        .find(|l| l.contains("your seats"))
        .unwrap_or_else(|| panic!("battle {} listed: {all}", t.battle))
        .to_owned()
}

/// The battle as the server stores it (read-only beside it).
fn stored(t: &Table) -> Box<dyn xenolog_engine::Battle> {
    let c = xenolog_saves::Campaign::open_read_only(&t.campaign_file()).unwrap();
    let id = c.battles().unwrap()[0].id;
    c.load_battle(id).unwrap()
}

#[test]
fn club_battles_says_yours_only_to_the_seat_a_swap_offer_waits_for() {
    let tmp = tempfile::tempdir().unwrap();
    let t = Table::new(tmp.path(), "Offers", "saucers", &config().to_string(), &[]);
    let mine = listed(&t, &t.seat0);
    assert!(mine.contains("Nine Lives's turn (yours)"), "{mine}");
    t.play(&t.seat0, &offer());
    let offerer = listed(&t, &t.seat0);
    assert!(offerer.contains("Fly Boyz's turn"), "{offerer}");
    assert!(!offerer.contains("(yours)"), "the offer waits: {offerer}");
    assert!(!offerer.contains("Nine Lives"), "{offerer}");
    let answerer = listed(&t, &t.app_club);
    assert!(answerer.contains("Fly Boyz's turn (yours)"), "{answerer}");
}

/// The offerer's bot, with a long `--wait`, does not withdraw: it waits for
/// the answer (the server says the game waits for the Fly Boyz only), then
/// plays its one step once its own turn is back.
#[test]
fn the_offerers_bot_waits_for_the_answer_instead_of_withdrawing() {
    let tmp = tempfile::tempdir().unwrap();
    let t = Table::new(tmp.path(), "Offers", "saucers", &config().to_string(), &[]);
    t.play(&t.seat0, &offer());
    let offered = stored(&t).cursor();
    // One step, a long wait: half of it is far longer than the test.
    let mut args = vec!["autoplay", &t.camp, "--battle", &t.battle];
    args.extend(["--server", &t.served.url]);
    args.extend("--steps 1 --seed 1 --wait 600".split(' '));
    let mut bot = cmd(&t.seat0, &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The Fly Boyz decline; the bot's turn is back and it plays one step.
    t.play(
        &t.app_club,
        r#"{"actor":1,"command":{"answer":{"accept":false}}}"#,
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = bot.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the bot played within 120 s");
        std::thread::sleep(Duration::from_millis(100));
    };
    let o = bot.wait_with_output().unwrap();
    assert!(status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let b = stored(&t);
    let line = b.path_to(b.cursor());
    let after: Vec<u64> = line
        .into_iter()
        .filter(|id| offered.is_none_or(|o| *id > o))
        .collect();
    let texts = b.entry_texts(&after);
    assert!(
        texts.len() >= 2,
        "the answer, then the bot's step: {texts:?}"
    );
    assert_eq!(texts[0].actor, "Fly Boyz", "{texts:?}");
    assert!(
        texts.iter().all(|t| !t.command.contains("withdraw")),
        "the bot did not withdraw: {texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.actor == "Nine Lives"),
        "the bot played its step: {texts:?}"
    );
}
