//! Commands and events in the words a player would use in a battle report.

use crate::game::Actor;

use super::actions::DimxCommand;
use super::chits::{Select, Step, SummonAt};
use super::combat::{bump_check, marine_fire};
use super::map::spot_label;
use super::movement::{half, move_targets};
use super::rules::map_of;
use super::state::{
    Action, AlienMove, BumpResult, Cause, DimxEvent, DimxState, GoalWhy, Hold, Landing, Mod,
    PlaceWhy,
};
use super::units::{Condition, MarineKind, Weapon};

/// "(3, -1 Shoot and Scoot, +1 adjacent)": a base value and its modifiers.
pub fn with_mods(base: i16, mods: &[Mod]) -> String {
    let mut parts = vec![base.to_string()];
    parts.extend(
        mods.iter()
            .map(|m| format!("{:+} {}", m.value, m.why.words())),
    );
    format!("({})", parts.join(", "))
}

fn mods_only(mods: &[Mod]) -> String {
    if mods.is_empty() {
        String::new()
    } else {
        format!(
            " {}",
            mods.iter()
                .map(|m| format!("{:+} {}", m.value, m.why.words()))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

fn dice(d: &[u8]) -> String {
    d.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

fn unit_title(s: &DimxState, id: &str) -> String {
    s.marine(id)
        .map(|m| m.title())
        .or_else(|| s.alien(id).map(|a| a.title()))
        .unwrap_or_else(|| id.to_owned())
}

fn target_words(s: &DimxState, id: &str) -> String {
    match s.alien(id) {
        Some(a) => match a.on_map() {
            Some(h) => format!("{} in {h}", a.title()),
            None => a.title(),
        },
        None => id.to_owned(),
    }
}

fn move_words(s: &DimxState, unit: &str, to: u16, scoot: bool) -> String {
    let Some(m) = s.marine(unit) else {
        return format!("to {to}");
    };
    let (_, targets) = move_targets(s, map_of(s), m, scoot);
    let from = m
        .on_map()
        .map(|h| format!("from {h} "))
        .unwrap_or_else(|| "onto the map ".into());
    match targets.iter().find(|(h, _)| *h == to) {
        Some((_, k)) => format!(
            "{from}to {to} ({} of {} MP)",
            half(*k),
            half(super::movement::allowance(m, scoot))
        ),
        None => format!("{from}to {to}"),
    }
}

fn fire_words(s: &DimxState, unit: &str, target: &str, scoot: bool, n: Option<u8>) -> String {
    let (Some(m), Some(a)) = (s.marine(unit), s.alien(target)) else {
        return format!("fires at {}", target_words(s, target));
    };
    let map = map_of(s);
    if m.weapon() == Weapon::Bump {
        return match bump_check(map, m, a, scoot) {
            Ok(mods) => format!(
                "fires the BUMP gun at {} (one die{})",
                target_words(s, target),
                mods_only(&mods)
            ),
            Err(_) => format!("fires the BUMP gun at {}", target_words(s, target)),
        };
    }
    match marine_fire(s, map, m, a, scoot) {
        Ok(p) => {
            let fewer = n
                .filter(|&d| i16::from(d) < i16::from(p.net))
                .map(|d| format!(", rolling only {d} dice"))
                .unwrap_or_default();
            let pistol = if matches!(m.weapon(), Weapon::Pistol(_)) {
                " with pistols"
            } else {
                ""
            };
            format!(
                "fires at {}{pistol} with CF {} {}{fewer}",
                target_words(s, target),
                p.net,
                with_mods(i16::from(p.base), &p.mods)
            )
        }
        Err(_) => format!("fires at {}", target_words(s, target)),
    }
}

/// A command in words, as seen before it is decided.
pub fn command(s: &DimxState, actor: Actor, c: &DimxCommand) -> String {
    use DimxCommand as C;
    let t = |id: &str| unit_title(s, id);
    match c {
        C::FullMove { unit, to } => {
            format!("{}: Full Move {}", t(unit), move_words(s, unit, *to, false))
        }
        C::Jump { unit, to } => format!("{}: Full Move by jump pack to {to}", t(unit)),
        C::FullFire { unit, target, dice } => format!(
            "{}: Full Fire, {}",
            t(unit),
            fire_words(s, unit, target, false, *dice)
        ),
        C::ShootAndScootMove { unit, to } => format!(
            "{}: Shoot and Scoot, moves {}",
            t(unit),
            move_words(s, unit, *to, true)
        ),
        C::ShootAndScootJump { unit, to } => format!(
            "{}: Shoot and Scoot, jumps to {to} (-1 to the jump roll)",
            t(unit)
        ),
        C::ShootAndScootFire { unit, target, dice } => format!(
            "{}: Shoot and Scoot, {}",
            t(unit),
            fire_words(s, unit, target, true, *dice)
        ),
        C::FinishAction { unit } => format!("{} finishes its action", t(unit)),
        C::LeaveMap { unit } => format!("{} leaves the map", t(unit)),
        C::Recon { unit, hq } => match hq {
            Some(h) => format!("{}: Recon, assisted by {}", t(unit), t(h)),
            None => format!("{}: Recon", t(unit)),
        },
        C::BuildStrongpoint { unit } => format!("{}: Build Strongpoint", t(unit)),
        C::Rally { unit } => format!("{}: Rally", t(unit)),
        C::ReSupply { unit, target } => format!("{}: Re-Supply {}", t(unit), t(target)),
        C::RequestReinforcements { unit } => format!("{}: Request Reinforcements", t(unit)),
        C::TakeReinforcement { unit } => {
            format!("takes {} from the pool as a reinforcement", t(unit))
        }
        C::EndActionPhase => "ends the Marine Action Phase; the Kay'otz activate".into(),
        C::ChooseChit { chit } => {
            let name = s
                .chits()
                .iter()
                .find(|x| x.key == *chit)
                .map(|x| x.name.clone())
                .unwrap_or_else(|| chit.clone());
            format!(
                "{} choose the chit \"{name}\"",
                if actor == Actor(0) {
                    "the Marines"
                } else {
                    "the Kay'otz"
                }
            )
        }
        C::PlaceUnit { unit, hex } => format!("puts {} in {hex}", t(unit)),
        C::RollForAliens => "rolls the dice for the Kay'otz units' step".into(),
        C::Activate { unit, target, hex } => {
            let mut out = format!("activates {}", t(unit));
            if let Some(tg) = target {
                out.push_str(&format!(", against {}", t(tg)));
            }
            if let Some(h) = hex {
                out.push_str(&format!(", to hex {h}"));
            }
            out
        }
    }
}

fn select_words(sel: Select) -> String {
    match sel {
        Select::Numbers(a, b) if a == b => format!("unit #{a}"),
        Select::Numbers(a, b) => format!("units #{a} through #{b}"),
        Select::Odd => "odd-numbered units".into(),
        Select::Even => "even-numbered units".into(),
        Select::All => "all units".into(),
        Select::NearOverlord(n) => format!("units within {n} hexes of an Overlord"),
        Select::NearMonolith(n) => format!("units within {n} hexes of an Active Monolith"),
        Select::NextToMarines => "units next to a Marine unit".into(),
    }
}

/// A chit's step in words, as the log announces it.
pub fn step_words(st: &Step) -> String {
    match *st {
        Step::Rush(sel) => format!(
            "{} rush next to the nearest Active Marine unit and fire at it",
            select_words(sel)
        ),
        Step::Fire(sel) => format!(
            "{} fire at the nearest Active Marine unit",
            select_words(sel)
        ),
        Step::Advance(sel, n) => format!(
            "{} advance up to {n} hexes towards the nearest Active Marine unit and fire at it",
            select_words(sel)
        ),
        Step::Warp(sel) => format!("{} warp to random hexes", select_words(sel)),
        // the cup may hold fewer: as many come out as it holds
        Step::Summon(n, at) => format!(
            "{} from the Kay'otz unit cup {} out {}",
            if n == 1 {
                "one unit".to_owned()
            } else {
                format!("{n} units")
            },
            if n == 1 {
                "(if it holds one) comes"
            } else {
                "(as many as it holds) come"
            },
            match at {
                SummonAt::Random if n == 1 => "in a random hex",
                SummonAt::Random => "in random hexes",
                SummonAt::Wormhole => "at a Wormhole",
            }
        ),
        Step::Wake(sel) => format!(
            "Dormant {} flip to their Active side",
            select_words(sel).replace("all units", "units")
        ),
        Step::ShutDown(sel) => format!(
            "Active {} flip to their Dormant side",
            select_words(sel).replace("all units", "units")
        ),
        Step::Capture => {
            "Paralyzed Marine units next to an Active alien unit are carried off".into()
        }
        Step::DrawAnother => "another chit is drawn at once (F.4)".into(),
        Step::Nothing => "nothing happens".into(),
    }
}

fn cond(c: Condition) -> &'static str {
    match c {
        Condition::Fine => "no marker",
        Condition::Stunned => "Stunned",
        Condition::Paralyzed => "Paralyzed",
    }
}

fn roll_words(die: u8, mods: &[Mod], net: i8) -> String {
    if mods.is_empty() {
        format!("rolls {die}")
    } else {
        format!("rolls {die}{}: {net}", mods_only(mods))
    }
}

/// What each die of a command's roll decides, in roll order, from the events
/// the command made (for asking players for real dice before they roll).
pub fn dice_purposes(events: &[DimxEvent]) -> Vec<String> {
    use DimxEvent as E;
    let mn = |kind: &MarineKind, id: &str| format!("{} {id}", kind.name());
    let mut out = Vec::new();
    for e in events {
        match e {
            E::Fired {
                shooter_name,
                target_name,
                dice,
                ..
            } => out.extend(
                dice.iter()
                    .map(|_| format!("whether {shooter_name} hits {target_name} (D.4)")),
            ),
            E::RandomHex { .. } => out.extend(
                ["hundreds", "tens", "units"].map(|d| format!("a random hex: its {d} digit (A.3)")),
            ),
            E::JumpRolled { unit, kind, to, .. } => {
                out.push(format!("how {}'s jump to {to} lands (C.2)", mn(kind, unit)));
            }
            E::BumpFired {
                unit,
                kind,
                target_name,
                ..
            } => out.push(format!(
                "what {}'s BUMP gun does to {target_name} (D.6)",
                mn(kind, unit)
            )),
            E::ReconRolled { scout, .. } => {
                out.push(format!("whether {scout}'s Recon succeeds (E.2)"))
            }
            E::StrongpointRolled {
                unit, kind, hex, ..
            } => out.push(format!(
                "whether {} builds a Strongpoint in {hex} (E.3)",
                mn(kind, unit)
            )),
            E::RallyRolled { unit, kind, .. } => {
                out.push(format!("whether {} rallies (E.4)", mn(kind, unit)));
            }
            E::ReinforcementsRolled { hq, .. } => {
                out.push(format!(
                    "whether {hq}'s request for reinforcements is granted (E.6)"
                ));
            }
            _ => {}
        }
    }
    out
}

/// [`dice_purposes`] of a recorded entry's events (postcard, as the session
/// stores them); empty when they do not decode.
pub fn dice_purposes_of(events: &[u8]) -> Vec<String> {
    postcard::from_bytes::<Vec<DimxEvent>>(events)
        .map(|ev| dice_purposes(&ev))
        .unwrap_or_default()
}

/// An event in words.
pub fn event(e: &DimxEvent) -> String {
    use DimxEvent as E;
    // every Marine unit is named by type and id ("Scout SC1"), every Kay'otz
    // unit by its title ("Kay'otz #10", "Overlord #7", "the Monolith")
    let mn = |kind: &MarineKind, id: &str| format!("{} {id}", kind.name());
    match e {
        E::ActionChosen { unit, kind, action } => match action {
            Action::ReconAssist => {
                format!("{} assists the Recon (its Special Action)", mn(kind, unit))
            }
            a => format!("{} takes a {} action", mn(kind, unit), a.name()),
        },
        E::Moved {
            unit,
            kind,
            from,
            path,
            half_mp,
            allowance,
        } => {
            let route = path
                .iter()
                .map(|&p| spot_label(p))
                .collect::<Vec<_>>()
                .join(" -> ");
            let start = from
                .map(|f| format!("{f} -> "))
                .unwrap_or_else(|| "in from the map edge: ".into());
            format!(
                "{} moves {start}{route} ({} of {} MP)",
                mn(kind, unit),
                half(*half_mp),
                half(*allowance)
            )
        }
        E::JumpRolled {
            unit,
            kind,
            to,
            die,
            mods,
            net,
        } => {
            let what = match net {
                4.. => "Safe Landing!",
                2..=3 => "Scattered!",
                _ => "Malfunction!",
            };
            format!(
                "{} jumps for {to}: {}, {what}",
                mn(kind, unit),
                roll_words(*die, mods, *net)
            )
        }
        E::RandomHex {
            dice: d,
            hex,
            on_map,
        } => {
            if *on_map {
                format!("random hex: {} {} {} = {hex}", d[0], d[1], d[2])
            } else {
                format!(
                    "random hex: {} {} {} = {hex}, which this map does not have: roll again",
                    d[0], d[1], d[2]
                )
            }
        }
        E::Landed {
            unit,
            kind,
            at,
            how,
        } => match how {
            Landing::Safe => format!("{} lands in {at}", mn(kind, unit)),
            Landing::Scattered => {
                format!("{} lands next to its destination, in {at}", mn(kind, unit))
            }
            Landing::Malfunction => format!("{} comes down in {at}", mn(kind, unit)),
            Landing::MalfunctionAside => format!(
                "{} finds its random hex occupied and comes down beside it, in {at}",
                mn(kind, unit)
            ),
        },
        E::MarineEliminated { unit, kind, why } => match why {
            Cause::LandedOnActiveAlien => format!(
                "{} lands on an Active alien unit and is eliminated",
                mn(kind, unit)
            ),
            Cause::Captured => format!(
                "{} is carried off to the Kay'otz enclaves (eliminated)",
                mn(kind, unit)
            ),
            _ => format!("{} is eliminated", mn(kind, unit)),
        },
        E::ConditionChanged {
            unit,
            kind,
            from,
            to,
            why,
        } => {
            let u = mn(kind, unit);
            match (why, to) {
                (Cause::Rally, Condition::Fine) => {
                    format!("{u} rallies: the Stunned marker is removed")
                }
                (Cause::Rally, _) => format!("{u} rallies: Paralyzed becomes Stunned"),
                (Cause::JumpMalfunction, _) => format!(
                    "{u} gets a Stunned marker from the malfunction: now {}",
                    cond(*to)
                ),
                (Cause::EnergyRecoil, _) => format!(
                    "Energy Recoil! {u} gets a Stunned marker: now {}",
                    cond(*to)
                ),
                _ if *from == Condition::Fine => {
                    format!("{u} is hit: it gets a {} marker", cond(*to))
                }
                _ => format!("{u} is hit: {} becomes {}", cond(*from), cond(*to)),
            }
        }
        E::Fired {
            shooter_name,
            target_name,
            at,
            base,
            mods,
            dice: d,
            dn,
            hits,
            ..
        } => {
            let net = i16::from(*base) + mods.iter().map(|m| i16::from(m.value)).sum::<i16>();
            format!(
                "{shooter_name} fires at {target_name} in {at} with CF {net} {}: rolls {} against DN {dn}, {hits} hit{}",
                with_mods(i16::from(*base), mods),
                dice(d),
                if *hits == 1 { "" } else { "s" }
            )
        }
        E::NoFire {
            shooter_name,
            target_name,
            base,
            mods,
            ..
        } => {
            let net = i16::from(*base) + mods.iter().map(|m| i16::from(m.value)).sum::<i16>();
            format!(
                "{shooter_name}'s net CF against {target_name} is {net} {}: no fire",
                with_mods(i16::from(*base), mods)
            )
        }
        E::AlienEliminated { name, adm_back, .. } => match adm_back {
            Some(v) => format!("{name} is eliminated; its ADM {v} marker goes back to the pile"),
            None => format!("{name} is eliminated"),
        },
        E::AdmPlaced { name, value, .. } => format!(
            "the player draws an ADM {value} marker and places it under {name}: its DN is now {value}"
        ),
        E::NoAdmLeft { name, .. } => {
            format!("no ADM markers are left: {name}'s DN stays as it was")
        }
        E::OutOfAmmo { unit, kind, back } => match back {
            Weapon::Unarmed => format!(
                "{} is out of ammo: flipped to its back side, it may not fire at all",
                mn(kind, unit)
            ),
            Weapon::Pistol(n) => format!(
                "{} is out of ammo: flipped to its back side, it fires {n}A pistols at adjacent aliens only",
                mn(kind, unit)
            ),
            w => format!(
                "{} is out of ammo: flipped to its back side (CF {})",
                mn(kind, unit),
                w.label()
            ),
        },
        E::BumpFired {
            unit,
            kind,
            target_name,
            at,
            die,
            mods,
            net,
            result,
            ..
        } => {
            let r = match result {
                BumpResult::Misfire => "Misfire!",
                BumpResult::EnergyRecoil => "Energy Recoil!",
                BumpResult::Beamed => "Beamed!",
                BumpResult::Vaporized => "Vaporized!",
            };
            format!(
                "{} fires the BUMP gun at {target_name} in {at}: {}, {r}",
                mn(kind, unit),
                roll_words(*die, mods, *net)
            )
        }
        E::AlienMoved {
            name,
            from,
            to,
            how,
            ..
        } => {
            let from = from.map(|f| format!("from {f} ")).unwrap_or_default();
            match how {
                AlienMove::Rush => format!("{name} rushes {from}to {to}"),
                AlienMove::Advance => format!("{name} advances {from}to {to}"),
                AlienMove::Warp => format!("{name} warps {from}to {to}"),
                AlienMove::Beamed => format!("{name} is beamed {from}to {to}"),
                AlienMove::Summoned => format!("{name} comes out of the cup into {to}"),
                AlienMove::SteppedAside => format!("{name} steps aside {from}to {to}"),
            }
        }
        E::GoalRemoved { goal, why, .. } => format!(
            "{}: the player draws a Mission Goal chit, looks at it and removes it: {}",
            match why {
                GoalWhy::Recon => "Recon roll of 7",
                GoalWhy::Overlord => "the Overlord is dead",
            },
            goal.name()
        ),
        E::GoalKept { .. } => "only one Mission Goal chit is left: it stays".into(),
        E::ReconRolled {
            scout,
            die,
            mods,
            net,
            success,
            ..
        } => {
            format!(
                "{} Recon: {}, {}",
                mn(&MarineKind::Scout, scout),
                roll_words(*die, mods, *net),
                if *success {
                    "success: two chits will be drawn"
                } else {
                    "no luck"
                }
            )
        }
        E::StrongpointRolled {
            unit,
            kind,
            hex,
            die,
            mods,
            net,
            success,
        } => {
            format!(
                "{} builds a Strongpoint in {hex}: {}, {}",
                mn(kind, unit),
                roll_words(*die, mods, *net),
                if *success { "built" } else { "not built" }
            )
        }
        E::RallyRolled {
            unit,
            kind,
            die,
            mods,
            net,
            success,
        } => {
            format!(
                "{} Rally: {}, {}",
                mn(kind, unit),
                roll_words(*die, mods, *net),
                if *success { "success" } else { "failed" }
            )
        }
        E::Resupplied {
            logistics,
            unit,
            kind,
        } => {
            format!(
                "{} re-supplies {}: back on its full-ammo side",
                mn(&MarineKind::Logistics, logistics),
                mn(kind, unit)
            )
        }
        E::ReinforcementsRolled {
            hq,
            die,
            mods,
            net,
            success,
        } => format!(
            "{} requests reinforcements: {}, {}",
            mn(&MarineKind::Hq, hq),
            roll_words(*die, mods, *net),
            if *success { "granted" } else { "refused" }
        ),
        E::ReinforcementTaken { unit, kind } => {
            format!(
                "{} comes from the pool to the map edge and may act at once",
                mn(kind, unit)
            )
        }
        E::ActionFinished { unit, kind } => {
            format!("{} has finished its action", mn(kind, unit))
        }
        E::ExitedMap { unit, kind, from } => {
            format!("{} leaves the map from {from}", mn(kind, unit))
        }
        E::MonolithSwitched { active, .. } => {
            if *active {
                "the Monolith is Active again".into()
            } else {
                "the Monolith shuts down (Inactive)".into()
            }
        }
        E::ActionPhaseEnded { turn } => format!("turn {turn}: the Marine Action Phase ends"),
        E::ChitsDrawn { names, by, .. } => match (names.len(), by) {
            (2, Some(side)) => format!(
                "Kay'otz Activation Phase: drew \"{}\" and \"{}\"; the {} choose",
                names[0],
                names[1],
                side.name()
            ),
            _ => format!(
                "Kay'otz Activation Phase: drew \"{}\"",
                names.first().cloned().unwrap_or_default()
            ),
        },
        E::ChitChosen { name, .. } => {
            format!("\"{name}\" is enacted; the other chit goes back into the cup")
        }
        E::StepBegan { step, names, .. } => match step.per_unit() {
            Some(_) if names.is_empty() => {
                format!("{}: no such unit is on the map", step_words(step))
            }
            Some(_) => format!("{}: {}", step_words(step), names.join(", ")),
            None => step_words(step),
        },
        E::TieToBreak {
            name, hexes, why, ..
        } => format!(
            "{name} {}: the Kay'otz player chooses where it goes: {}",
            match why {
                PlaceWhy::Scattered => "scattered on its jump",
                PlaceWhy::Malfunction => "came down on a unit when its jump malfunctioned",
                PlaceWhy::Beamed => "was beamed onto a unit",
                PlaceWhy::Warped => "warped onto a unit",
                PlaceWhy::Summoned { .. } => "comes out of the cup",
            },
            hexes
                .iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        E::AlienStays { name, at, .. } => {
            format!("{name} comes down in its own hex, {at}, and stays there")
        }
        E::NoRoom { name, at, .. } => match at {
            Some(h) => format!("no eligible hex is free anywhere: {name} stays in {h}"),
            None => format!("no eligible hex is free anywhere: {name} stays off the map"),
        },
        E::AlienTurn { name, .. } => format!("{name} activates"),
        E::AlienFlipped { name, dormant, .. } => {
            if *dormant {
                format!("{name} flips to its Dormant side")
            } else {
                format!("{name} flips to its Active side")
            }
        }
        E::AlienHolds { name, why, .. } => match why {
            Hold::NoActiveMarine => {
                format!("{name} does nothing: no Active Marine unit on the map")
            }
            Hold::NoEligibleHex => {
                format!("{name} does nothing: no eligible hex next to its target")
            }
            Hold::LavaInTheWay(h) => {
                format!("{name} does nothing: the straight line to {h} crosses a Lava Flow")
            }
            // also after an Advance step moved the unit: it does not fire
            Hold::NoTarget => format!("{name} does not fire: no Active Marine unit it can fire at"),
            Hold::NotOnMap => format!("{name} is not on the map"),
            Hold::WokeThisTurn => format!(
                "{name} does nothing else this turn: a chit flipped it to its Active side this turn"
            ),
        },
        E::ChitFinished { name, .. } => format!("\"{name}\" is used and set aside"),
        E::InstantVictory { side, text } => {
            format!("End Phase: Instant Victory for the {}: {text}", side.name())
        }
        E::GoalDrawn { goal, achieved, .. } => format!(
            "End Phase: the cup is empty; the Mission Goal chit drawn is {}: {}",
            goal.name(),
            if *achieved {
                "achieved"
            } else {
                "not achieved"
            }
        ),
        E::GameOver { summary, .. } => format!("Game over: {summary}"),
        E::TurnBegan { turn, names, .. } => {
            if names.is_empty() {
                format!("turn {turn} begins")
            } else {
                format!(
                    "turn {turn} begins; arriving at the map edge: {}",
                    names.join(", ")
                )
            }
        }
    }
}
