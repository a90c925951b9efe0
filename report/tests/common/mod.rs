//! A fixed-seed Dimension X battle, played by a bot choosing from `legal`
//! by a fixed pattern, with notes and bookmarks: the battle every report
//! test tells.

#![allow(dead_code)]

use serde_json::json;
use xenolog_engine::Battle;
use xenolog_report::{Header, Story};
use xenolog_saves::Note;

/// Play `steps` commands of a battle chosen by a fixed pattern (the game's
/// own steps between them).
pub fn play(b: &mut dyn Battle, steps: usize) {
    for i in 0..steps {
        b.play_due().unwrap();
        let legal = b.legal();
        if legal.is_empty() {
            break;
        }
        let c = &legal[(i * 7 + 3) % legal.len()];
        let p = b.prepare_json(c.actor, &c.command, None).unwrap();
        b.commit(p).unwrap();
    }
    b.play_due().unwrap();
}

/// Dimension X, scenario alpha, seed 42, played to its end.
pub fn dimx_battle() -> Box<dyn Battle> {
    let mut b = xenolog_engine::games::new_battle("dimx", 42, &json!({})).unwrap();
    play(&mut *b, 400);
    b
}

pub fn note(entry: u64, bookmark: bool, text: &str) -> Note {
    Note {
        entry,
        bookmark,
        text: text.into(),
        created: 0,
        updated: 0,
    }
}

/// Its header: fixed title, date and notes.
pub fn header() -> Header {
    Header {
        title: "Breakout at Skylar".into(),
        battle_id: 1,
        campaign_file: "club.xenolog".into(),
        date: "2026-11-23".into(),
        notes: vec![
            note(12, true, "the turning point"),
            note(30, false, "we argued about line of sight here"),
            note(55, true, ""),
        ],
        branch: None,
        bookmark_pictures_only: false,
    }
}

pub fn story() -> Story {
    let b = dimx_battle();
    Story::build(&*b, &header())
}
