//! Night of the Saucers: contested readings as battle options (RULES.md
//! "Options"), the text's reading the default where it is explicit.

#[path = "support/saucers.rs"]
mod support;

use support::*;
use xenolog_engine::games::saucers::data::{AlienKind, Kind};
use xenolog_engine::games::saucers::rules::{self, InstantOn};
use xenolog_engine::games::saucers::{
    Phase, Saucers, SaucersCommand as C, SaucersConfig, SaucersEvent as E, Variant,
};
use xenolog_engine::{Actor, Game, Session};

/// Cards.Instant: "Can be used at anytime, even during another players
/// turn": by default at every moment the game waits for a player, the
/// setup's mission-giving included; the option keeps them to a turn's
/// Actions, Defeat and Upkeep steps.
#[test]
fn cards_instant_can_be_used_at_anytime_even_while_missions_are_given_out() {
    for narrow in [false, true] {
        let mut config = gangs(&["nine_lives", "fly_boyz"]);
        config.instants_in_turn_steps = narrow;
        config.scenario_text = Some("hand 2 stash bat\n".into());
        let mut s = Session::<Saucers>::new(6, config).unwrap();
        s.play_due().unwrap();
        assert_eq!(s.state().phase, Phase::Assign);
        let stash = s.state().seats[1].hand[0];
        let cmd = C::Instant {
            card: stash,
            on: InstantOn::Nothing,
        };
        let offered = Saucers::legal(s.state()).contains(&(Actor(1), cmd.clone()));
        let asked = Saucers::asked(s.state()).iter().any(|a| a.seat == Actor(1));
        let played = s.play(Actor(1), &cmd, None);
        if narrow {
            let e = played.unwrap_err();
            assert_eq!(e.clause.as_deref(), Some("Cards.Instant"), "{e}");
            assert!(!offered);
        } else {
            played.unwrap();
            assert!(offered && asked);
            assert_eq!(s.state().seats[1].tokens.get(Kind::Food), 4, "2 + 2");
        }
    }
}

/// Collect: "If any of your humans have ended their movement on a searched
/// building tile ... take one supply token of that color" (one a tile). By
/// default a searched supply tile any student stands on yields; the option
/// counts only students that moved this turn and ended there.
#[test]
fn collect_option_only_students_that_ended_their_movement_on_the_tile() {
    for after_moving in [false, true] {
        let mut st = quiet(&["nine_lives"], "C3");
        st.collect_after_moving = after_moving;
        building(&mut st, "C3", "diner");
        st.board[at("C3") as usize].searched = true;
        building(&mut st, "C1", "gas_station");
        st.board[at("C1") as usize].searched = true;
        let tabby = human(&st, "tabby");
        put(&mut st, "tabby", "C2");
        ok(&mut st, 0, move_to(tabby, "C1"), None);
        let food = st.seats[0].tokens.get(Kind::Food);
        let fuel = st.seats[0].tokens.get(Kind::Fuel);
        ok(&mut st, 0, C::EndActions, None);
        step(&mut st, C::Collect);
        let got_food = st.seats[0].tokens.get(Kind::Food) - food;
        let got_fuel = st.seats[0].tokens.get(Kind::Fuel) - fuel;
        assert_eq!(
            got_food,
            if after_moving { 0 } else { 1 },
            "two students stayed on the Diner: one Food, none with the option"
        );
        assert_eq!(
            got_fuel, 1,
            "Tabby moved onto the Gas Station and ended there"
        );
    }
}

/// Aliens.Saucer, assumption 8 as an option: by default a Saucer drawn is
/// put in the crosshairs and strikes at the next Alien turn; with the option
/// it strikes the moment it is placed.
#[test]
fn aliens_saucer_option_the_strike_lands_the_moment_the_card_is_placed() {
    for at_once in [false, true] {
        let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
        st.saucers_strike_at_once = at_once;
        top_alien(&mut st, AlienKind::Saucer, "C3", None);
        st.phase = Phase::Alien;
        let ev = step(&mut st, C::AlienTurn);
        let struck = ev.iter().any(|e| matches!(e, E::SaucerStruck { .. }));
        assert_eq!(struck, at_once);
        assert_eq!(st.board[at("C3") as usize].destroyed, at_once);
        if at_once {
            let out = Saucers::outcome(&st).expect("every student was on C3");
            assert!(out.summary.contains("Alien Domination"));
        }
    }
}

/// Assumption 8 at the deck's last card (review7 N1): by default a Saucer
/// drawn last never strikes, the deck is out and the humans have won; with
/// the option it strikes as it is placed, before the deck's end is looked
/// at, so a strike on the last students is Alien Domination.
#[test]
fn aliens_saucer_option_a_saucer_drawn_last_strikes_before_the_deck_is_out() {
    for at_once in [false, true] {
        let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
        st.saucers_strike_at_once = at_once;
        st.alien_deck.clear();
        top_alien(&mut st, AlienKind::Saucer, "C3", None);
        st.phase = Phase::Alien;
        step(&mut st, C::AlienTurn);
        assert!(st.alien_deck.is_empty());
        let end = st.over.clone().expect("the last card ends the game");
        assert_eq!(end.humans_won, !at_once, "{}", end.summary);
        assert_eq!(
            end.summary.contains("Alien Domination"),
            at_once,
            "{}",
            end.summary
        );
    }
}

/// A game of these gangs from a position file, option
/// `saucers_strike_at_once` as given, its due steps played.
fn from_position(ids: &[&str], at_once: bool, text: &str) -> Session<Saucers> {
    let mut config = gangs(ids);
    config.saucers_strike_at_once = at_once;
    config.scenario_text = Some(text.into());
    let mut s = Session::<Saucers>::new(4, config).unwrap_or_else(|e| panic!("{e}"));
    s.play_due().unwrap();
    s
}

/// Seat 1 completes the mission this student carries.
fn deliver(s: &mut Session<Saucers>, human: u16) {
    s.play(Actor(0), &C::Complete { human }, None)
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Turn.Draw, "continuing until your max hand size is met. Drawn Event
/// cards count towards your hand size", with option `saucers_strike_at_once`
/// (rules version 6, review17 M1): the Nine Lives draw Reinforcements, whose
/// Saucer strikes Tabby at once. The hand size is measured before each card,
/// so they draw to 4 (two living students, the Event one of them), not to
/// the 6 the draw began with; without the option nobody dies and they draw
/// to 6.
#[test]
fn aliens_saucer_option_a_strike_in_the_draw_step_shrinks_the_hand_size_it_draws_to() {
    let text = "student tabby D3\nstudent whiskers C3\nstudent patch C3\nhand 1\n\
        deck reinforcements bat bat bat shotgun shotgun shotgun slingshot\n\
        alien_deck saucer D3\nturn 1 draw\n";
    for at_once in [false, true] {
        let s = from_position(&["nine_lives"], at_once, text);
        let st = s.state();
        assert_eq!(st.phase, Phase::Actions);
        assert_eq!(st.humans[human(st, "tabby") as usize].alive, !at_once);
        assert_eq!(st.hand_size(0), if at_once { 4 } else { 6 });
        assert_eq!(
            st.seats[0].hand.len() + 1,
            st.hand_size(0),
            "the cards drawn and the Event fill the hand size as it is now"
        );
    }
}

/// Assumption 14 ("a player with no student left is passed over") inside
/// a draw, option `saucers_strike_at_once` (rules version 6, review17 M1):
/// the Nine Lives draw Reinforcements and its Saucer strikes all three of
/// them. They draw nothing more (a hand size of 0), are asked for no
/// action, no Upkeep; the Alien turn ending their turn comes, and the Fly
/// Boyz play.
#[test]
fn aliens_saucer_option_a_gang_struck_down_in_its_draw_is_passed_over() {
    let text = "student tabby D3\nstudent whiskers D3\nstudent patch D3\n\
        student ace F6\nstudent jet F6\nstudent wingnut F6\nhand 1\nhand 2\n\
        deck reinforcements bat bat bat shotgun shotgun shotgun slingshot\n\
        alien_deck saucer D3 probe A6\nturn 1 draw\n";
    let s = from_position(&["nine_lives", "fly_boyz"], true, text);
    let st = s.state();
    assert!(st.over.is_none(), "the Fly Boyz live");
    assert!(st.living(0).next().is_none(), "the strike took all three");
    assert!(st.seats[0].hand.is_empty(), "nothing drawn past the Event");
    assert!(
        st.aliens
            .iter()
            .any(|a| a.kind == AlienKind::Probe && a.at == at("A6")),
        "the Alien turn of the Nine Lives' turn was played"
    );
    assert_eq!((st.current, st.phase), (1, Phase::Actions));
    assert!(Saucers::asked(st).iter().all(|a| a.seat != Actor(0)));
}

/// Assumption 14 in the Actions step, option `saucers_strike_at_once`
/// (rules version 6, review18 S2): Tabby, the Nine Lives' last student,
/// delivers Stock the Shelter and her reward draw's Reinforcements strike
/// her. The gang is passed over: no end of actions, Defeat or Upkeep asked
/// of it; its Alien turn comes and the Fly Boyz play. Without the option
/// Tabby lives and acts on.
#[test]
fn aliens_saucer_option_a_gang_struck_down_in_its_actions_is_passed_over() {
    let text = "tile D3 church\nstudent tabby D3 mission shelter\nstudent whiskers A1 dead\nstudent patch A1 dead\n\
        student ace F6\nstudent jet F6\nstudent wingnut F6\ntokens 1 food 2\n\
        deck reinforcements bat bat\nalien_deck saucer D3 probe A6\nturn 1 actions\n";
    for at_once in [false, true] {
        let mut s = from_position(&["nine_lives", "fly_boyz"], at_once, text);
        let tabby = human(s.state(), "tabby");
        deliver(&mut s, tabby);
        s.play_due().unwrap();
        let st = s.state();
        assert!(st.over.is_none(), "the Fly Boyz live");
        assert_eq!(st.humans[tabby as usize].alive, !at_once);
        if at_once {
            assert!(
                st.aliens
                    .iter()
                    .any(|a| a.kind == AlienKind::Probe && a.at == at("A6")),
                "the Alien turn of the Nine Lives' turn was played"
            );
            assert_eq!((st.current, st.phase), (1, Phase::Actions));
        } else {
            assert_eq!((st.current, st.phase), (0, Phase::Actions));
        }
    }
}

/// Missions (assumption 5: the player "takes the next from the pile onto
/// the same student"), option `saucers_strike_at_once` (rules version 6,
/// review17 M1): Tabby delivers Stock the Shelter; its reward draw turns up
/// Reinforcements, whose Saucer strikes the Church and Tabby. A dead
/// student carries nothing: the next mission goes to the seat's first
/// living student without one (Patch; Whiskers keeps the one dealt), as a
/// lost mission does. Without the option Tabby lives and takes it.
#[test]
fn aliens_saucer_option_a_deliverer_struck_by_its_reward_draw_takes_no_new_mission() {
    let text = "tile D3 church\nstudent tabby D3 mission shelter\n\
        student whiskers A1\nstudent patch A1\ntokens 1 food 2\n\
        deck reinforcements bat bat\nalien_deck saucer D3\nturn 1 actions\n";
    for at_once in [false, true] {
        let mut s = from_position(&["nine_lives"], at_once, text);
        let (tabby, whiskers, patch) = {
            let st = s.state();
            (
                human(st, "tabby") as usize,
                human(st, "whiskers") as usize,
                human(st, "patch") as usize,
            )
        };
        let dealt = s.state().humans[whiskers].mission;
        assert!(dealt.is_some() && s.state().humans[patch].mission.is_none());
        deliver(&mut s, tabby as u16);
        let st = s.state();
        assert_eq!(st.seats[0].missions_done.len(), 1);
        assert_eq!(st.humans[whiskers].mission, dealt);
        let t = &st.humans[tabby];
        assert_eq!(t.alive, !at_once);
        assert_eq!(
            t.mission.is_some(),
            !at_once,
            "a dead student carries nothing"
        );
        assert_eq!(st.humans[patch].mission.is_some(), at_once);
    }
}

/// Missions (assumption 5), option `saucers_strike_at_once` (rules version
/// 6, review18 S1): Tabby delivers Stock the Shelter; the reward draw turns
/// up Reinforcements, whose Saucer strikes E6 and Whiskers, who carried the
/// militia mission. Whiskers' lost mission goes under the pile and the
/// seat's first living student without one, Tabby (just delivered), draws
/// the next. Tabby already carries one then, so the delivery's next mission
/// goes to nobody (Patch carries the one dealt): no mission card leaves the
/// game. Every mission is counted either way: the pile, those carried, those
/// done and the seat's unassigned one make the missions of the game.
#[test]
fn aliens_saucer_option_a_deliverer_handed_a_struck_comrades_mission_during_its_reward_keeps_it() {
    let text = "tile D3 church\ntile E6 diner\nstudent tabby D3 mission shelter\n\
        student whiskers E6 mission militia\nstudent patch A1\ntokens 1 food 2\n\
        deck reinforcements bat bat\nalien_deck saucer E6\nturn 1 actions\n";
    for at_once in [false, true] {
        let mut s = from_position(&["nine_lives"], at_once, text);
        let id = |st: &xenolog_engine::games::saucers::SaucersState, w: &str| human(st, w) as usize;
        let (tabby, whiskers, patch) = {
            let st = s.state();
            (id(st, "tabby"), id(st, "whiskers"), id(st, "patch"))
        };
        let dealt = s.state().humans[patch].mission;
        let militia = s.state().humans[whiskers].mission;
        let next = s.state().mission_pile.last().copied();
        assert!(dealt.is_some() && militia.is_some() && next.is_some());
        deliver(&mut s, tabby as u16);
        let st = s.state();
        assert_eq!(st.humans[whiskers].alive, !at_once);
        assert_eq!(st.humans[patch].mission, dealt, "Patch keeps his");
        assert_eq!(
            st.humans[tabby].mission, next,
            "Tabby carries the next mission of the pile"
        );
        if at_once {
            assert_eq!(st.humans[whiskers].mission, None);
            assert_eq!(
                st.mission_pile.first().copied(),
                militia,
                "the lost mission goes under the pile"
            );
        } else {
            assert_eq!(st.humans[whiskers].mission, militia);
        }
        let carried = st.humans.iter().filter(|h| h.mission.is_some()).count();
        let done: usize = st.seats.iter().map(|x| x.missions_done.len()).sum();
        let unassigned = st.seats.iter().filter(|x| x.unassigned.is_some()).count();
        assert_eq!(
            st.mission_pile.len() + carried + done + unassigned,
            st.content.missions.len(),
            "every mission card is in the game"
        );
    }
}

/// Turn.Move.Alien ("You may not move your human from a tile containing an
/// Alien until after you have defeated it with an attack or used a instant
/// or move card that allows your human to escape"), read with Aliens ("a
/// few different aliens ..., Probes, Scouts and Saucer Strikes") and the
/// Saucer's advice (keep a Sewer System "so you can escape"): option
/// `saucers_hold_students` (review17 S1). By default a Saucer is in the air
/// (assumption 8): Tabby walks out from under it and Whiskers passes
/// through its tile. With the option it holds them as any alien does, and
/// the Sewer System's escape still takes Tabby off. Neither way does it
/// count in the Defeat step (the question RULES.md lists).
#[test]
fn turn_move_alien_option_a_saucer_holds_students_on_its_tile_as_every_alien_does() {
    for hold in [false, true] {
        let mut st = quiet(&["nine_lives"], "D3");
        st.saucers_hold_students = hold;
        alien(&mut st, AlienKind::Saucer, "D3");
        let tabby = human(&st, "tabby");
        let whiskers = put(&mut st, "whiskers", "C3");
        let walk = run(&mut st.clone(), 0, move_to(tabby, "D4"), None);
        let through = run(&mut st.clone(), 0, move_to(whiskers, "E3"), None);
        let offered = legal(&st)
            .iter()
            .any(|(_, c)| matches!(c, C::Move { human, .. } if *human == tabby));
        assert_eq!(offered, !hold);
        if hold {
            let why = is_illegal(walk, "Turn.Move.Alien");
            assert!(why.contains("Tabby may not leave D3"), "{why}");
            is_illegal(through, "Turn.Move");
            let sewer = give(&mut st, 0, "sewer");
            ok(
                &mut st,
                0,
                C::Instant {
                    card: sewer,
                    on: InstantOn::Escape {
                        human: tabby,
                        to: at("D4"),
                    },
                },
                None,
            );
            assert_eq!(st.humans[tabby as usize].at, at("D4"));
            // The text's third way out, "a ... move card that allows your
            // human to escape" (review18 N4): Patch, held, may not ride the
            // Skateboard off; the Smoke Bomb takes him.
            let patch = human(&st, "patch");
            let board = give(&mut st, 0, "skateboard");
            refused(
                &mut st,
                0,
                move_card(patch, board, "D5"),
                None,
                "Turn.Move.Alien",
            );
            let smoke = give(&mut st, 0, "smoke");
            st.seats[0].tokens.scrap = 1;
            ok(&mut st, 0, move_card(patch, smoke, "D5"), None);
            assert_eq!(st.humans[patch as usize].at, at("D5"));
        } else {
            walk.unwrap();
            through.unwrap();
        }
        ok(&mut st, 0, C::EndActions, None);
        assert_eq!(st.phase, Phase::Defeat);
        assert!(
            rules::defeat_needs(&st).is_empty(),
            "a Saucer takes nobody in Defeat"
        );
    }
}

/// Old configs (written before the options existed) read as before: every
/// option off, the text's reading.
#[test]
fn options_old_configs_read_the_same_and_every_option_is_declared() {
    let old: SaucersConfig =
        serde_json::from_str(r#"{"players":2,"difficulty":1,"missions":2,"variant":0}"#).unwrap();
    assert!(
        !old.instants_in_turn_steps
            && !old.collect_after_moving
            && !old.saucers_strike_at_once
            && !old.hunter_named_in_defeat
            && !old.saucers_hold_students
    );
    assert_eq!(old, SaucersConfig::default());
    assert_options_include(&[
        "instants_in_turn_steps",
        "collect_after_moving",
        "saucers_strike_at_once",
        "hunter_named_in_defeat",
        "saucers_hold_students",
    ]);
}

/// Variant.Hunter, contested C4 of the review of 2026-11-27: "At the end of
/// the game, tally up your individual alien kills and completed missions to
/// see who is the Great Grey Hunter". By default a lost game has no winner
/// (assumption 15); with the option the highest tally is named even then.
#[test]
fn variant_hunter_option_the_hunter_is_named_even_when_every_student_is_eliminated() {
    for named in [false, true] {
        let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
        st.variant = Variant::Hunter;
        st.hunter_named_in_defeat = named;
        st.seats[1].kills = 3;
        alien(&mut st, AlienKind::Saucer, "C3");
        top_alien(&mut st, AlienKind::Probe, "A1", None);
        st.phase = Phase::Alien;
        step(&mut st, C::AlienTurn);
        let end = st
            .over
            .clone()
            .expect("every student struck: the game is over");
        assert!(!end.humans_won, "Alien Domination either way");
        if named {
            assert_eq!(end.winners, vec![1], "the Fly Boyz tallied 3 kills");
            assert!(end.summary.contains("Great Grey Hunter"), "{}", end.summary);
        } else {
            assert!(end.winners.is_empty());
        }
    }
}

/// Setup.7 and the missions to win (review7 N3): the range the option
/// declares is the range a game starts with, the shipped missions file's
/// count at the top; 1 (a config older battles were made with) still starts.
#[test]
fn options_missions_to_win_declared_range_is_the_range_a_game_starts_with() {
    let option = Saucers::options()
        .into_iter()
        .find(|o| o.key == "missions")
        .expect("missions is an option");
    let xenolog_engine::OptionKind::Number { min, max, default } = option.kind else {
        panic!("missions is a number: {:?}", option.kind);
    };
    assert_eq!((min, max, default), (1, 10, 2));
    let start = |missions: i64| {
        let mut config = SaucersConfig {
            players: 1,
            ..SaucersConfig::default()
        };
        config.missions = missions as u8;
        Session::<Saucers>::new(4, config).map(|_| ())
    };
    for n in [min, default, max] {
        start(n).unwrap_or_else(|e| panic!("{n} missions: {e}"));
    }
    for n in [min - 1, max + 1] {
        let err = start(n)
            .expect_err("outside the declared range")
            .to_string();
        assert!(
            err.contains("the missions to win must be 1 to 10"),
            "{n}: {err}"
        );
    }
}
