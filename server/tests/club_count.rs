//! The club file's own statements, counted (issue 31, session 17): what
//! moving `ClubFile`'s SQL from `rusqlite` to `saves::db::Db` costs. Not a
//! test of behaviour: `#[ignore]`d, run under callgrind for an instruction
//! count of the token and registry calls a club makes (the per-command path
//! touches no club statement: a battle's file and campaign are cached).
//!
//! ```text
//! cargo test -p xenolog-server --test club_count --no-run
//! valgrind --tool=callgrind --toggle-collect='*club_calls*' \
//!     --callgrind-out-file=club.out target/debug/deps/club_count-HASH --ignored
//! callgrind_annotate club.out | grep TOTALS
//! ```

use xenolog_server::secret::Role;
use xenolog_server::store::sqlite::{CLUB_FILE, ClubFile};
use xenolog_server::store::{BattleStore, NewBattle, TokenStore};

/// 200 invitations redeemed, 200 hellos from memory and 200 grants read,
/// 20 battles created and listed, the tokens listed, 50 revoked.
#[inline(never)]
fn club_calls(club: &ClubFile) -> usize {
    let now = 1_800_000_000;
    let c = club.create_campaign("Count").unwrap();
    let mut n = 0;
    for _ in 0..20 {
        club.create_battle(NewBattle {
            campaign: c.id,
            game: "race".into(),
            config: serde_json::json!({}),
            title: String::new(),
            strict: false,
            entered_dice: false,
            rosters: Vec::new(),
        })
        .unwrap();
    }
    n += club.battles_of(c.id).unwrap().len();
    let mut ids = Vec::new();
    for i in 0..200 {
        let inv = club
            .invite_at(Role::Player, &format!("p{i}"), 7, now, None)
            .unwrap();
        let r = club.redeem_at(&inv.code, None, None, now).unwrap();
        let t = r.token.unwrap();
        n += club.authenticate(&t).unwrap().label.len();
        n += club.grants(r.principal.token).unwrap().len();
        ids.push(r.principal.token);
    }
    n += club.tokens().unwrap().len();
    for id in ids.iter().take(50) {
        club.revoke(*id).unwrap();
    }
    n
}

#[test]
#[ignore = "an instruction count under callgrind, not a test"]
fn club_count() {
    let dir = tempfile::tempdir().unwrap();
    let club = ClubFile::open(&dir.path().join(CLUB_FILE)).unwrap();
    assert!(club_calls(&club) > 400);
}
