//! The club file's own statements, counted (issue 31, session 17): what
//! moving `Club`'s SQL from `rusqlite` to `saves::db::Db` costs. A
//! measuring tool, not a test: run under callgrind for an instruction count
//! of the token and registry calls a club makes (the per-command path
//! touches no club statement: a battle's file and campaign are cached).
//! Until session 18 it was the ignored test `server/tests/club_count.rs`;
//! the calls counted are the same, in a debug build as before.
//!
//! ```text
//! cargo build -p xenolog-server --example club_count
//! valgrind --tool=callgrind --toggle-collect='*club_calls*' \
//!     --callgrind-out-file=club.out target/debug/examples/club_count
//! callgrind_annotate club.out | grep TOTALS
//! ```

use xenolog_server::secret::Role;
use xenolog_server::store::club::{CLUB_FILE, Club};
use xenolog_server::store::{BattleStore, NewBattle, TokenStore};

/// 200 invitations redeemed, 200 hellos from memory and 200 grants read,
/// 20 battles created and listed, the tokens listed, 50 revoked.
#[inline(never)]
fn club_calls(club: &Club) -> usize {
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

fn main() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let club = Club::open(&dir.path().join(CLUB_FILE)).expect("a new club file");
    let n = club_calls(&club);
    assert!(n > 400, "the calls returned {n} items");
    println!("club calls done ({n} items returned)");
}
