//! Position files (RULES.md "Position files"): any moment of a battle, from
//! a small file that lists only what differs from the shipped setup, in the
//! names players use (tiles like `K6`, characters like `hicks`), the
//! numbers working too.

#[path = "position_files/mod.rs"]
mod position_files;
#[path = "support/alien.rs"]
mod support;

use position_files::then_each_refused;
use support::*;
use xenolog_engine::games::alien::state::{Phase, Pos};
use xenolog_engine::games::alien::{Alien, AlienCommand as C, AlienConfig, start};
use xenolog_engine::{Actor, Game};

fn refused_file(text: &str) -> String {
    start(&AlienConfig {
        scenario_text: Some(text.into()),
        ..AlienConfig::default()
    })
    .map(|_| ())
    .expect_err(text)
    .0
}

#[test]
fn position_an_empty_file_is_the_shipped_setup_and_one_line_changes_one_thing() {
    let setup = start(&AlienConfig::default()).unwrap();
    assert_eq!(at(""), setup);
    assert_eq!(at("# nothing but a comment\n\n"), setup);
    let s = at("character hicks at K6\n");
    let mut expect = setup.clone();
    expect.characters[0].pos = Pos::Tile(t("K6"));
    assert_eq!(s, expect, "one line, one change");
}

#[test]
fn position_sets_the_phase_and_the_hatching_roll() {
    let s = at("turn 4\nphase hatching\nhatching roll 5 placing 4 1\n");
    assert_eq!((s.turn, s.phase), (4, Phase::Hatching));
    assert_eq!(s.hatch_roll, Some(5));
    assert_eq!(s.to_place, vec![4, 1]);
    assert_eq!(Alien::automatic(&s), None, "the die is rolled already");
    assert!(Alien::legal(&s).contains(&(ALIEN, C::Place { hatch: 2 })));
    // Rolled but not split yet: the Alien player splits it.
    let s = at("phase hatching\nhatching roll 3\n");
    assert!(Alien::legal(&s).contains(&(ALIEN, C::Hatch { parts: vec![2, 1] })));
    // Not rolled yet: the game rolls.
    let s = at("phase hatching\n");
    assert_eq!(Alien::automatic(&s), Some(C::RollHatch));
    for (phase, want) in [
        ("moving", Phase::Moving),
        ("metamorphosis", Phase::Metamorphosis),
        ("attacks", Phase::Attacks),
        ("expedition", Phase::Expedition),
    ] {
        assert_eq!(at(&format!("phase {phase}\n")).phase, want);
    }
    then_each_refused(
        refused_file,
        &[
            ("hatching roll 4\n", "phase 2"),
            ("phase hatching\nhatching roll 7\n", "1 to 6"),
            ("phase hatching\nhatching roll 2 placing 2 1\n", "roll of 2"),
            ("phase lunch\n", "phase expedition"),
        ],
    );
}

#[test]
fn position_sets_every_alien_with_its_number_and_flags() {
    let s = at("phase attacks\nalien 3 at M8 id 7 moved attacked\nalien 2 at G4\nalien 4 at 130\n");
    let ids: Vec<u16> = s.aliens.iter().map(|a| a.id).collect();
    assert_eq!(ids, vec![7, 8, 9]);
    assert_eq!(s.next_alien, 10);
    assert!(s.aliens[0].moved && s.aliens[0].attacked);
    assert!(!s.aliens[1].moved && !s.aliens[1].attacked);
    assert_eq!(name(&s, s.aliens[0].at), "M8");
    assert_eq!(
        name(&s, s.aliens[2].at),
        "K6",
        "a tile by its number: 5 x 24 + 10"
    );
    // An alien that has moved may not move again; one that attacked, not attack.
    let s = at("phase moving\nalien 3 at M8 moved\nalien 2 at G4\n");
    assert!(!offers(&s, |c| matches!(c, C::MoveAlien { alien: 1, .. })));
    assert!(offers(&s, |c| matches!(c, C::MoveAlien { alien: 2, .. })));
    then_each_refused(
        refused_file,
        &[
            ("alien 3 at M8 id 2\nalien 1 at G4 id 2\n", "two aliens"),
            ("alien 3 at M8 moved\n", "phase 2"),
            ("alien 5 at M8\n", "1 to 4"),
        ],
    );
}

#[test]
fn position_sets_the_characters_turn_flags_and_the_apc() {
    let s = at(
        "character Hicks at K9 ap 2 shot kills 3\ncharacter hudson at G9 stopped\n\
         character 3 at G13 left_apc\napc G12 fuel 2 driven 4\n",
    );
    let (hicks, hudson, gorman) = (ch(&s, "hicks"), ch(&s, "hudson"), ch(&s, "gorman"));
    let c = &s.characters[usize::from(hicks)];
    assert_eq!((c.ap, c.shot, c.kills), (2, true, 3));
    assert!(s.characters[usize::from(hudson)].stopped);
    assert!(
        s.characters[usize::from(gorman)].left_apc,
        "character 3 is Gorman"
    );
    assert_eq!((s.apc.fuel, s.apc.driven), (2, 4));
    assert!(s.acted, "a character who spent points has acted");
    // What the flags forbid.
    let s2 = s.clone();
    let e = refused(&s2, EXPEDITION, move_to(hicks, "K10"));
    assert!(e.message.contains("shot"), "{e}");
    let e = refused(&s2, EXPEDITION, move_to(hudson, "G10"));
    assert!(e.message.contains("stop"), "{e}");
    let e = refused(&s2, EXPEDITION, move_to(gorman, "G12"));
    assert!(e.message.contains("next"), "{e}");
    let e = refused(&s2, EXPEDITION, drive("H12"));
    assert!(e.message.contains("before"), "{e}");
    // `acted` by itself: the APC's movement is over.
    assert!(at("acted\n").acted);
    assert!(!at("").acted);
    then_each_refused(
        refused_file,
        &[
            ("ended 2\n", "1 to 1"),
            // Every seat ended: phase 2.
            ("ended 1\n", "phase hatching"),
            ("character hicks at K9 ap 7\n", "0 to 6"),
            ("character nobody at K9\n", "hicks"),
            ("character hicks at Z99\n", "K6"),
            ("apc G12 fuel 4\n", "three phases"),
            ("character hicks at G12\napc G12 fuel 1\n", "APC"),
        ],
    );
}

#[test]
fn position_collapsed_tiles_on_one_line_and_seats_of_a_bigger_battle() {
    let s = at("collapsed G10 G11\n");
    assert_eq!(s.collapsed, vec![t("G10"), t("G11")]);
    let s = with(AlienConfig {
        players: 4,
        scenario_text: Some("ended 1 3\n".into()),
        ..AlienConfig::default()
    });
    assert_eq!(s.seats_done, vec![1, 3]);
    let asked: Vec<Actor> = Alien::asked(&s).into_iter().map(|a| a.seat).collect();
    assert_eq!(asked, vec![Actor(2)]);
    let e = refused(&s, EXPEDITION, C::EndPhase);
    assert!(e.message.contains("ended"), "{e}");
}

#[test]
fn position_the_example_of_rules_md_reads_as_it_says() {
    let doc = include_str!("../src/games/alien/RULES.md");
    let from = doc
        .find("A moment of the Alien phase")
        .expect("the example");
    let block = &doc[from..];
    let open = block.find("```text\n").unwrap() + "```text\n".len();
    let text = &block[open..open + block[open..].find("```").unwrap()];
    let s = at(text);
    assert_eq!(
        (s.turn, s.phase, s.hatch_roll),
        (3, Phase::Hatching, Some(5))
    );
    assert_eq!(s.to_place, vec![1]);
    let hicks = &s.characters[usize::from(ch(&s, "hicks"))];
    assert!(hicks.shot && hicks.stopped && hicks.ap == 0);
    assert_eq!(
        s.aliens.iter().map(|a| (a.id, a.moved)).collect::<Vec<_>>(),
        vec![(4, false), (6, true)]
    );
    assert_eq!((s.apc.fuel, s.apc.driven), (2, 3));
    assert_eq!(s.characters[usize::from(ch(&s, "bishop"))].pos, Pos::Apc);
    assert!(Alien::legal(&s).contains(&(ALIEN, C::Place { hatch: 1 })));
}

/// Clause 6 in a position file (RULES.md item 27, left open in session 21:
/// "the `shot` flag sets no targets"): `shot_at` names the aliens a
/// character shot this phase, so a moment mid-phase is set up whole: the
/// character may not shoot those aliens again (one die an alien a phase),
/// may shoot others, and may do nothing but shoot. A number that is no
/// alien of the file is refused in words naming the line and the aliens.
#[test]
fn clause_6_a_position_file_names_the_aliens_shot_this_phase_one_die_an_alien() {
    // The targets may come before the aliens they name.
    let s = at("character hicks at N6 ap 4 shot_at 2 kills 1\n\
                alien 4 at P6\nalien 1 at L6 id 2\nalien 3 at N9\n");
    let h = ch(&s, "hicks");
    let c = &s.characters[usize::from(h)];
    assert_eq!(c.shot_at, vec![2]);
    assert!(c.shot, "shot_at implies shot");
    assert!(s.acted);
    let e = refused(&s, EXPEDITION, shoot(h, 2, 1));
    assert_eq!(e.clause.as_deref(), Some("6"), "{e}");
    assert!(e.to_string().contains("chosen once"), "{e}");
    assert!(!offers(&s, |c| matches!(c, C::Shoot { alien: 2, .. })));
    assert!(offers(&s, |c| matches!(c, C::Shoot { alien: 1, .. })));
    let e = refused(&s, EXPEDITION, move_to(h, "N5"));
    assert!(e.message.contains("shot"), "{e}");
    // `alien2` reads as 2; several targets on one line.
    let s = at(
        "alien 4 at P6\nalien 1 at L6\ncharacter hicks at N6 ap 4 shot_at alien1 alien2 stopped\n",
    );
    let c = &s.characters[usize::from(ch(&s, "hicks"))];
    assert_eq!((c.shot_at.clone(), c.stopped), (vec![1, 2], true));
    // Without `shot_at`, `shot` still names no target.
    assert!(
        at("character hicks at N6 shot\nalien 4 at P6\n").characters[usize::from(h)]
            .shot_at
            .is_empty()
    );
    then_each_refused(
        refused_file,
        &[
            (
                "alien 4 at P6\ncharacter hicks at N6 shot_at 3\n",
                "line 2: shot_at: there is no alien 3 in this position (the aliens: 1)",
            ),
            (
                "character hicks at N6 shot_at 1\n",
                "there is no alien 1 in this position (it has no aliens)",
            ),
            (
                "alien 4 at P6\ncharacter hicks at N6 shot_at hudson\n",
                "'hudson' is not an alien's number",
            ),
            (
                "alien 4 at P6\ncharacter hicks at N6 shot_at\n",
                "by their numbers",
            ),
            (
                "alien 4 at P6\ncharacter hicks at N6 shot_at 1 1\n",
                "twice",
            ),
            (
                "alien 4 at P6\ncharacter hicks at dead shot_at 1\n",
                "dead character",
            ),
            // "Shooting a single shot" costs a point of the six.
            (
                "alien 4 at P6\nalien 1 at L6\ncharacter hicks at N6 ap 5 shot_at 1 2\n",
                "line 3: Hicks shot 2 aliens this phase: at most 4 action points left",
            ),
        ],
    );
}
