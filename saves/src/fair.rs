//! The fair seeds of club battles (migration 6): the commitment and every
//! seat's nonce, stored beside the battle, and the server's secret once the
//! battle is over and it is revealed (`xenolog_engine::fair`).

use xenolog_engine::fair::{self, Bytes32, FairSeed, SeatNonce};
use xenolog_engine::{Actor, games};

use crate::db::{Db, DbError, DbExt};
use crate::{BattleId, Campaign, SaveError};

/// Store a battle's fair seed, with the secret if this copy holds it
/// (`revealed`: whether it may be shown).
pub(crate) fn insert_fair(
    tx: &dyn Db,
    battle: BattleId,
    seed: &FairSeed,
    secret: Option<&Bytes32>,
    revealed: bool,
) -> Result<(), SaveError> {
    tx.execute(
        "INSERT INTO fair_seeds (battle, scheme, commitment, secret, revealed)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        &[
            &battle,
            &seed.scheme,
            &&seed.commitment[..],
            &secret.map(|s| &s[..]),
            &(revealed && secret.is_some()),
        ],
    )?;
    for n in &seed.nonces {
        tx.execute(
            "INSERT INTO seat_nonces (battle, seat, nonce, absent) VALUES (?1, ?2, ?3, ?4)",
            &[&battle, &n.seat.0, &&n.nonce[..], &n.absent],
        )?;
    }
    Ok(())
}

fn bytes32(battle: BattleId, what: &str, v: Vec<u8>) -> Result<Bytes32, SaveError> {
    v.try_into().map_err(|v: Vec<u8>| SaveError::Corrupt {
        battle,
        why: format!("its fair seed's {what} has {} bytes, not 32", v.len()),
    })
}

/// A battle's fair seed as stored, if it has one.
pub(crate) fn read_fair(conn: &dyn Db, battle: BattleId) -> Result<Option<FairSeed>, SaveError> {
    let head: Option<(u8, Vec<u8>)> = conn.row(
        "SELECT scheme, commitment FROM fair_seeds WHERE battle = ?1",
        &[&battle],
        |r| Ok::<_, DbError>((r.get(0)?, r.get(1)?)),
    )?;
    let Some((scheme, commitment)) = head else {
        return Ok(None);
    };
    let mut nonces = Vec::new();
    conn.each(
        "SELECT seat, nonce, absent FROM seat_nonces WHERE battle = ?1 ORDER BY seat",
        &[&battle],
        |r| {
            nonces.push(SeatNonce {
                seat: Actor(r.get(0)?),
                nonce: bytes32(battle, "nonce", r.get(1)?)?,
                absent: r.get(2)?,
            });
            Ok::<(), SaveError>(())
        },
    )?;
    Ok(Some(FairSeed {
        scheme,
        commitment: bytes32(battle, "commitment", commitment)?,
        nonces,
    }))
}

impl Campaign {
    /// The revealed secret of a club battle: `None` for a battle without a
    /// fair seed and for one whose secret is not revealed yet (a server's
    /// copy holds it unrevealed: it is never returned here).
    pub fn fair_secret(&self, battle: BattleId) -> Result<Option<Bytes32>, SaveError> {
        let secret: Option<Option<Vec<u8>>> = self.conn.row(
            "SELECT secret FROM fair_seeds WHERE battle = ?1 AND revealed = 1",
            &[&battle],
            |r| r.get(0),
        )?;
        secret
            .flatten()
            .map(|s| bytes32(battle, "secret", s))
            .transpose()
    }

    /// Record a club battle's revealed secret. Refused in words, changing
    /// nothing, when the battle has no fair seed, when the secret is not the
    /// one committed to, or when another secret is already recorded.
    pub fn reveal_secret(&mut self, battle: BattleId, secret: &Bytes32) -> Result<(), SaveError> {
        self.writable()?;
        let refused = |why: &str| SaveError::Refused(format!("battle {battle}: {why}"));
        let Some(seed) = read_fair(&self.conn, battle)? else {
            return Err(refused(
                "it has no fair seed, so there is no secret to reveal",
            ));
        };
        if fair::commitment(secret) != seed.commitment {
            return Err(refused(
                "that secret is not the one the server committed to when the battle was created",
            ));
        }
        if self.fair_secret(battle)?.is_some() {
            return Ok(());
        }
        self.conn.execute(
            "UPDATE fair_seeds SET secret = ?2, revealed = 1 WHERE battle = ?1",
            &[&battle, &&secret[..]],
        )?;
        Ok(())
    }

    /// Start a club battle whose seed is derived from the server's `secret`
    /// and every seat's nonce, and store it with its fair seed; this copy
    /// holds the secret unrevealed until [`Campaign::reveal_held_secret`].
    /// The game's first steps (a shuffle and deal) are played only now,
    /// after every nonce is in.
    #[allow(clippy::too_many_arguments)]
    pub fn new_club_battle(
        &mut self,
        game: &str,
        config: &serde_json::Value,
        title: &str,
        dice_mode: xenolog_schema::DiceMode,
        strict: bool,
        secret: &Bytes32,
        nonces: Vec<SeatNonce>,
    ) -> Result<BattleId, SaveError> {
        self.writable()?;
        let battle = sealed_battle(game, config, strict, secret, nonces)?;
        self.store_new(&*battle, title, dice_mode, Some(secret))
    }

    /// The club battle this copy started with the server's `secret` (held,
    /// so only the server's own copy matches), if any, its first steps
    /// played. A server that started a battle here and stopped before its
    /// club file recorded it finds it again instead of starting a second
    /// one (and, over rosters, a second "battle fought" entry).
    pub fn club_battle_of_secret(
        &mut self,
        secret: &Bytes32,
    ) -> Result<Option<BattleId>, SaveError> {
        let found: Option<BattleId> = self.conn.one(
            "SELECT MIN(battle) FROM fair_seeds WHERE commitment = ?1 AND secret = ?2",
            &[&&fair::commitment(secret)[..], &&secret[..]],
        )?;
        if let Some(id) = found {
            // Stopped between the battle's write and its first steps.
            let mut b = self.load_battle(id)?;
            if b.due_step().is_some() {
                self.writable()?;
                self.play_due(id, &mut *b)?;
            }
        }
        Ok(found)
    }

    /// Reveal the secret this copy holds for a club battle, once the battle
    /// is over (refused in words before: the seed stays on the server until
    /// the end). Returns the secret, now part of every export.
    pub fn reveal_held_secret(&mut self, battle: BattleId) -> Result<Bytes32, SaveError> {
        self.writable()?;
        let held: Option<Option<Vec<u8>>> = self.conn.row(
            "SELECT secret FROM fair_seeds WHERE battle = ?1",
            &[&battle],
            |r| r.get(0),
        )?;
        let Some(Some(secret)) = held else {
            return Err(SaveError::Refused(format!(
                "battle {battle}: this copy holds no secret for it"
            )));
        };
        let secret = bytes32(battle, "secret", secret)?;
        if self.summary(battle)?.status != "over" {
            return Err(SaveError::Refused(format!(
                "battle {battle} is not over: its secret is revealed at the end"
            )));
        }
        self.conn.execute(
            "UPDATE fair_seeds SET revealed = 1 WHERE battle = ?1",
            &[&battle],
        )?;
        Ok(secret)
    }
}

/// A club battle of `game` set up with the seed derived from the server's
/// `secret` and every seat's nonce and sealed with its fair seed (every
/// seat gave one, no other seat did), not yet stored.
pub(crate) fn sealed_battle(
    game: &str,
    config: &serde_json::Value,
    strict: bool,
    secret: &Bytes32,
    nonces: Vec<SeatNonce>,
) -> Result<Box<dyn xenolog_engine::Battle>, SaveError> {
    let (fair_seed, seed) = FairSeed::new(secret, nonces)
        .map_err(|e| SaveError::Refused(format!("the seed cannot be made: {e}")))?;
    let mut battle = games::new_battle_with(game, seed, config, strict)?;
    let seats: Vec<Actor> = battle.seats().into_iter().map(|(a, _)| a).collect();
    let missing: Vec<String> = seats
        .iter()
        .filter(|s| !fair_seed.nonces.iter().any(|n| n.seat == **s))
        .map(|s| battle.actor_name(*s))
        .collect();
    if !missing.is_empty() {
        return Err(SaveError::Refused(format!(
            "every seat gives a nonce before a club battle starts: {} has not",
            missing.join(", ")
        )));
    }
    if let Some(n) = fair_seed.nonces.iter().find(|n| !seats.contains(&n.seat)) {
        return Err(SaveError::Refused(format!(
            "seat {} gave a nonce, but this battle has {} seats",
            n.seat.0 as u32 + 1,
            seats.len()
        )));
    }
    battle.seal_fair(fair_seed).map_err(SaveError::Refused)?;
    Ok(battle)
}
