//! A club battle made in-process through the store, as a club server makes
//! one (`cli_fair.rs`, `cli_log_json.rs`): a Dice Race with a fair seed.
#![allow(dead_code)]

use serde_json::json;
use xenolog_engine::Actor;
use xenolog_engine::fair::{Bytes32, SeatNonce};
use xenolog_saves::{Campaign, DiceMode};

/// The nonce seat `seat` (from 0) gave.
pub fn nonce(seat: u8) -> Bytes32 {
    [0xa0 + seat; 32]
}

/// Start a two-seat club race to `target` in `c` with the server's
/// `secret` and each seat's [`nonce`] (the seats in `absent` never joined:
/// the server drew theirs); its id. Its secret is held, not revealed.
pub fn club_race(c: &mut Campaign, secret: &Bytes32, target: u32, absent: &[u8]) -> i64 {
    let nonces = (0..2)
        .map(|s| SeatNonce {
            seat: Actor(s),
            nonce: nonce(s),
            absent: absent.contains(&s),
        })
        .collect();
    c.new_club_battle(
        "race",
        &json!({ "target": target }),
        "Club race",
        DiceMode::Rolled,
        false,
        secret,
        nonces,
    )
    .unwrap()
}
