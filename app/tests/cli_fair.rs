//! `xenolog verify` of a club battle (issue 30, principle 13): the battle
//! file carries the commitment, every seat's nonce and, after the end, the
//! server's secret; verify says in words whether the secret matches the
//! commitment, every nonce went in (and the one the player kept is the one
//! recorded), the seed is their hash, and every roll re-derives.
//!
//! The club battle is made in-process through the store (as the server will
//! make it); everything asserted goes through the real `xenolog` binary.

#[path = "support/club_race.rs"]
mod club_race;
// Only its race_on: the rest is the saves tests'.
#[allow(dead_code)]
#[path = "../../saves/tests/support/race.rs"]
mod race;
#[path = "support/cli.rs"]
mod support;
use support::{ok, xenolog};

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use xenolog_engine::fair::{Bytes32, hex};
use xenolog_saves::Campaign;
use xenolog_schema::battle_file::{read_battle_file, write_battle_file};

const SECRET: Bytes32 = [0x5e; 32];

use club_race::nonce;

struct Club {
    dir: tempfile::TempDir,
    campaign: PathBuf,
}

/// A campaign holding one finished club race, its secret revealed or not.
fn club(revealed: bool) -> (Club, i64) {
    let dir = tempfile::tempdir().unwrap();
    let campaign = dir.path().join("club.xenolog");
    let mut c = Campaign::create(&campaign, "Club").unwrap();
    let id = club_race::club_race(&mut c, &SECRET, 15, &[1]);
    race::race_on(&mut c, id, None);
    if revealed {
        c.reveal_held_secret(id).unwrap();
    }
    (Club { dir, campaign }, id)
}

impl Club {
    fn export(&self, id: i64) -> PathBuf {
        let file = self.dir.path().join("race.xenolog-battle");
        ok(&xenolog(&[
            "export",
            self.campaign.to_str().unwrap(),
            "--battle",
            &id.to_string(),
            "--out",
            file.to_str().unwrap(),
        ]));
        file
    }
}

fn verify(file: &Path, more: &[&str]) -> Output {
    let mut args = vec!["verify", file.to_str().unwrap()];
    args.extend_from_slice(more);
    xenolog(&args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn verify_of_a_finished_club_battle_file_checks_commitment_nonces_seed_and_replay() {
    let (club, id) = club(true);
    let file = club.export(id);
    let kept = format!("1={}", hex(&nonce(0)));
    let o = verify(&file, &["--nonce", &kept]);
    let text = ok(&o);
    assert!(
        text.contains(
            "ok: the server's secret matches the commitment it published when the battle was created"
        ),
        "{text}"
    );
    assert!(text.contains(", the one you kept"), "{text}");
    assert!(
        text.contains("never joined; the server drew that seat's nonce itself"),
        "seat 2 was absent: {text}"
    );
    assert!(
        text.contains("ok: the seed is the hash of the secret and every seat's nonce"),
        "{text}"
    );
    // JSON for programs: the same checks as fields.
    let o = verify(&file, &["--json"]);
    let v: Value = serde_json::from_str(ok(&o).lines().next().unwrap()).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["report"]["fairness"]["commitment_ok"], true);
    assert_eq!(v["report"]["fairness"]["seed_ok"], true);
    // The campaign it came from says the same.
    let text = ok(&xenolog(&[
        "verify",
        club.campaign.to_str().unwrap(),
        "--battle",
        &id.to_string(),
    ]));
    assert!(text.contains("ok: the seed is the hash"), "{text}");
}

#[test]
fn verify_fails_in_words_for_a_changed_nonce_a_changed_secret_or_another_kept_nonce() {
    let (club, id) = club(true);
    let file = club.export(id);
    let original = std::fs::read(&file).unwrap();

    // A recorded nonce changed (and the file's checksum made good again):
    // the chain no longer matches, and the seed is not the hash any more.
    let mut f = read_battle_file(&original).unwrap();
    f.meta.fair.as_mut().unwrap().nonces[0].nonce[3] ^= 1;
    std::fs::write(&file, write_battle_file(&f).unwrap()).unwrap();
    let o = verify(&file, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("FAILED: the battle's seed is not the hash"),
        "{}",
        stdout(&o)
    );

    // Another secret than the one committed to.
    let mut f = read_battle_file(&original).unwrap();
    f.secret.as_mut().unwrap()[0] ^= 1;
    std::fs::write(&file, write_battle_file(&f).unwrap()).unwrap();
    let o = verify(&file, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("FAILED: the revealed secret does not match the commitment"),
        "{}",
        stdout(&o)
    );

    // The honest file, but the player kept another nonce than the recorded one.
    std::fs::write(&file, &original).unwrap();
    let o = verify(&file, &["--nonce", &format!("1={}", hex(&[7; 32]))]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("is not the one you kept"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn before_the_reveal_verify_says_not_yet_and_bad_nonce_arguments_are_usage_errors() {
    let (club, id) = club(false);
    let file = club.export(id);
    let text = ok(&verify(&file, &[]));
    assert!(
        text.contains("not yet: the server reveals its secret when the battle ends"),
        "{text}"
    );
    for (arg, words) in [
        ("3", "expected SEAT=HEX"),
        ("0=00", "seats are numbered from 1"),
        ("1=abc", "64 hex digits"),
    ] {
        let o = verify(&file, &["--nonce", arg]);
        assert_eq!(o.status.code(), Some(2), "{arg}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(words), "{arg}: {err}");
    }
    // A plain battle has no fair seed: --nonce says so.
    let plain = club.dir.path().join("plain.xenolog");
    ok(&xenolog(&["new", plain.to_str().unwrap()]));
    ok(&xenolog(&[
        "battle",
        plain.to_str().unwrap(),
        "--game",
        "race",
        "--seed",
        "3",
    ]));
    let o = xenolog(&[
        "verify",
        plain.to_str().unwrap(),
        "--nonce",
        &format!("1={}", hex(&[1; 32])),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no battle verified has a fair seed"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
