//! Commands and events in words, as the log, the report and the app read them.

use super::inches;
use super::model::Point;
use super::rules::{InvasionCommand, group_name};
use super::state::{Card, CardKind, GroupId, InvasionEvent as E, InvasionState};
use crate::game::Actor;

/// A card as the table announces it: "U.N.I.T. Double".
pub fn card_name(s: &InvasionState, card: Card) -> String {
    match card.seat {
        Some(seat) if (seat as usize) < s.factions.len() => {
            format!("{} {}", s.faction(seat).name, card.kind.word())
        }
        _ => "Special Event".to_owned(),
    }
}

fn group(s: &InvasionState, g: GroupId) -> String {
    if (g as usize) < s.groups.len() {
        group_name(s, g)
    } else {
        format!("group {g}")
    }
}

fn point(p: Point) -> String {
    format!("({}, {})", inches(p.x), inches(p.y))
}

/// "in the open", "in cover", "in a building".
pub fn in_cover(c: super::model::Cover) -> String {
    match c {
        super::model::Cover::Open => "in the open".into(),
        _ => format!("in {}", c.word()),
    }
}

fn dice(d: &[u8]) -> String {
    d.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

fn model_name(s: &InvasionState, g: GroupId, id: &str) -> String {
    s.groups
        .get(g as usize)
        .and_then(|x| x.models.iter().find(|m| m.id == id))
        .map_or_else(|| id.to_owned(), |m| String::from(&m.name))
}

fn declared_words(s: &InvasionState, d: &super::rules::Declared) -> String {
    let mut v = Vec::new();
    if d.sight == Some(true) {
        v.push("line of sight".to_owned());
    }
    if let Some(c) = d.cover {
        v.push(in_cover(c));
    }
    if let Some(g) = d.contact {
        v.push(format!("base contact with {}", group(s, g)));
    }
    if let Some(c) = d.defends {
        v.push(format!("defending {}", c.word()));
    }
    if v.is_empty() {
        String::new()
    } else {
        format!(" (declared: {})", v.join(", "))
    }
}

/// A command in words (the log puts the player's name before it, so the
/// player's own groups go by their own names).
pub fn command(s: &InvasionState, actor: Actor, c: &InvasionCommand) -> String {
    use InvasionCommand as C;
    let group = |s: &InvasionState, g: GroupId| match s.groups.get(g as usize) {
        Some(x) if Actor(x.seat) == actor => x.name.clone(),
        _ => group(s, g),
    };
    match c {
        C::Continue => match s.pending.first() {
            Some(super::state::Pending::ResolveMelees { .. }) => "resolves a melee".into(),
            Some(super::state::Pending::Aftermath { .. }) => "ends a melee".into(),
            Some(super::state::Pending::Occupy { .. }) => "waits for the winners".into(),
            _ if super::advanced::checks_due(s) => match s.card() {
                Some(card) => format!("tests at the start of the {} card", card_name(s, card)),
                None => "tests at the start of the card".into(),
            },
            _ if super::advanced::order_due(s).is_some() => {
                let g = super::advanced::order_due(s).unwrap_or_default();
                format!("makes {} do what it must", group(s, g))
            }
            _ => match s.card() {
                None if s.scenario.rounds > 0 && s.round >= s.scenario.rounds => {
                    "ends the battle".into()
                }
                None => format!("draws the cards of round {}", s.round + 1),
                Some(card) if card.kind == CardKind::Special => {
                    "plays the Special Event card".into()
                }
                Some(card) => format!("finishes the {} card", card_name(s, card)),
            },
        },
        C::EndCard => "end the card".into(),
        C::Move {
            group: g,
            to,
            face,
            declare,
            ..
        } => {
            let mut text = match to {
                Some(p) => format!("move {} to {}", group(s, *g), point(*p)),
                None => format!(
                    "move {} at the table{}",
                    group(s, *g),
                    declared_words(s, declare)
                ),
            };
            if let Some(f) = face {
                text.push_str(&format!(" and turn to face {}", facing_words(*f)));
            }
            text
        }
        C::Shoot {
            shooters,
            target,
            declare,
        } => {
            let names: Vec<String> = shooters.iter().map(|g| group(s, *g)).collect();
            let linked = if shooters.len() > 1 {
                " (linked fire)"
            } else {
                ""
            };
            format!(
                "{} shoot{linked} at {}{}",
                names.join(" and "),
                group(s, *target),
                declared_words(s, declare)
            )
        }
        C::Special { group: g, action } => {
            let name = s
                .scenario
                .specials
                .iter()
                .find(|x| &x.id == action)
                .map_or(action.clone(), |x| x.name.clone());
            format!("{}: {name}", group(s, *g))
        }
        C::Study { group: g } => format!("{} study the aliens", group(s, *g)),
        C::Casualties { models } => {
            let names: Vec<String> = models
                .iter()
                .map(|m| {
                    s.groups
                        .iter()
                        .flat_map(|x| &x.models)
                        .find(|x| x.id == *m)
                        .map_or(m.clone(), |x| String::from(&x.name))
                })
                .collect();
            format!("remove {}", names.join(", "))
        }
        C::Strike { target } => match target {
            Some(t) if (*t as usize) < s.factions.len() => {
                format!("strike at {}", s.faction(*t).name)
            }
            _ => "strike".into(),
        },
        C::Burrow { group: g, .. } => format!("{} tunnels down", group(s, *g)),
        C::Tunnel { group: g, to } => match to {
            Some(p) => format!("{} tunnels to {}", group(s, *g), point(*p)),
            None => format!("{} tunnels", group(s, *g)),
        },
        C::Surface {
            group: g, hole, to, ..
        } => match (hole, to) {
            (Some(h), _) => format!("{} surfaces at Spug hole {h}", group(s, *g)),
            (None, Some(p)) => format!("{} surfaces at {}", group(s, *g), point(*p)),
            _ => format!("{} surfaces", group(s, *g)),
        },
        C::Deploy { group: g, .. } => format!("{} deploy from their Burrower", group(s, *g)),
        C::CloseHole { group: g, hole } => format!("{} close Spug hole {hole}", group(s, *g)),
        C::Detonate { group: g, mite, .. } => {
            format!("{} detonate a Mite ({mite})", group(s, *g))
        }
        C::TakeOff { group: g } => format!("{} take off", group(s, *g)),
        C::Fly { group: g, to } => match to {
            Some(p) => format!("{} fly to {}", group(s, *g), point(*p)),
            None => format!("{} fly at the table", group(s, *g)),
        },
        C::Land { group: g, declare } => {
            format!("{} land{}", group(s, *g), declared_words(s, declare))
        }
        C::Descend { group: g } => format!("{} go down into the sewers", group(s, *g)),
        C::Sewer { group: g, manhole } => match manhole {
            Some(m) => format!("{} move through the sewers to manhole {m}", group(s, *g)),
            None => format!("{} move through the sewers", group(s, *g)),
        },
        C::Climb { group: g } => format!("{} climb towards the surface", group(s, *g)),
        C::ChoosePoint { to } => {
            let (who, back) = match s.pending.first() {
                Some(super::state::Pending::Point { group: g, why, .. }) => (
                    group(s, *g),
                    matches!(why, super::choose::PointFor::FallBack { .. }),
                ),
                _ => ("they".into(), false),
            };
            match (to, back) {
                (Some(p), true) => format!("{who} fall back towards {}", point(*p)),
                (Some(p), false) => format!("{who} surface at {}", point(*p)),
                (None, _) => format!("{who} are placed by the players"),
            }
        }
        C::Occupy { take } => {
            if *take {
                "take the ground they won".into()
            } else {
                "stay where they fought".into()
            }
        }
        C::Board {
            group: g,
            vehicle,
            declare,
        } => format!(
            "{} board {}{}",
            group(s, *g),
            group(s, *vehicle),
            declared_words(s, declare)
        ),
        C::Try { group: g, what } => format!("{} attempt something new: {what}", group(s, *g)),
        C::Suppress {
            shooters,
            target,
            at_cover,
            area,
            declare,
        } => {
            let names: Vec<String> = shooters.iter().map(|g| group(s, *g)).collect();
            let mut text = format!(
                "{} lay down suppressing fire at {}{}",
                names.join(" and "),
                if *at_cover { "the cover of " } else { "" },
                group(s, *target)
            );
            if !area.is_empty() {
                let also: Vec<String> = area.iter().map(|g| group(s, *g)).collect();
                text.push_str(&format!(
                    " (declared under the template: {})",
                    also.join(", ")
                ));
            }
            text.push_str(&declared_words(s, declare));
            text
        }
        C::Relay {
            observer,
            via,
            to,
            target,
        } => match via {
            Some(v) => format!(
                "{} radio where {} is to {}, who pass it to {}",
                group(s, *observer),
                group(s, *target),
                group(s, *v),
                group(s, *to)
            ),
            None => format!(
                "{} relay where {} is to {}",
                group(s, *observer),
                group(s, *target),
                group(s, *to)
            ),
        },
        C::LayInWait { group: g, assault } => format!(
            "{} lay in wait to {}",
            group(s, *g),
            if *assault { "assault" } else { "fire" }
        ),
        C::StandDown { group: g } => format!("{} stop laying in wait", group(s, *g)),
        C::Spring {
            group: g,
            target,
            declare,
        } => format!(
            "{} spring their ambush on {}{}",
            group(s, *g),
            group(s, *target),
            declared_words(s, declare)
        ),
        C::LetPass => "let it pass".into(),
        C::BreakOff { group: g } => format!("{} break off from the fight", group(s, *g)),
        C::RunAway { group: g } => format!("{} run away", group(s, *g)),
        C::LiftOff { group: g, height } => {
            format!("{} lift off to {}", group(s, *g), super::inches(*height))
        }
        C::Soar {
            group: g,
            to,
            height,
            ..
        } => match to {
            Some(p) => format!(
                "{} fly to {} at {}",
                group(s, *g),
                point(*p),
                super::inches(*height)
            ),
            None => format!("{} fly to {} up", group(s, *g), super::inches(*height)),
        },
        C::Perceive { group: g, target } => {
            format!("{} try to perceive {}", group(s, *g), group(s, *target))
        }
    }
}

/// An event in words; `s` is the state before it.
pub fn event(s: &InvasionState, e: &E) -> String {
    match e {
        E::Shuffled { deck } => format!("shuffled the Action deck ({} cards)", deck.len()),
        E::Drew { round, cards } => {
            let names: Vec<String> = cards.iter().map(|c| card_name(s, *c)).collect();
            format!("round {round}: drew {}", names.join(", "))
        }
        E::CardDone => match s.card() {
            Some(c) => format!("the {} card is done", card_name(s, c)),
            None => "the card is done".into(),
        },
        E::Spent { group: g } => format!("{} used an action", group(s, *g)),
        E::Moved {
            group: g,
            to,
            lead,
            stopped,
            declared_cover,
            face,
        } => {
            let at = to.get(*lead).or(to.first()).copied().flatten();
            let mut text = match at {
                Some(p) => format!("{} moved to {}", group(s, *g), point(p)),
                None => format!("{} moved at the table", group(s, *g)),
            };
            if let Some(why) = stopped {
                text.push_str(&format!(": {why}"));
            }
            if let Some(c) = declared_cover {
                text.push_str(&format!(" (declared: {})", in_cover(*c)));
            }
            if let Some(f) = face {
                let was = s.group(*g).facing;
                if was == Some(*f) {
                    text.push_str(&format!(", still facing {}", facing_words(*f)));
                } else {
                    text.push_str(&format!(" and turned to face {}", facing_words(*f)));
                }
            }
            text
        }
        E::Shot {
            shooters,
            target,
            dice: d,
            how_many,
            total,
            cover,
            kill_score,
            kills,
            declared,
        } => {
            let n = d.len();
            let mib = if how_many.is_empty() {
                String::new()
            } else {
                format!(" (rolled {} for dice per operative)", dice(how_many))
            };
            let linked = if shooters.len() > 1 { "linked " } else { "" };
            let decl = if declared.is_empty() {
                String::new()
            } else {
                format!(" (declared: {})", declared.join(", "))
            };
            let result = if *kills > 0 || s.group(*target).locked.is_none() {
                let left = total - kills * kill_score;
                format!(
                    ": {kills} kill{} at {kill_score} each {}{}",
                    if *kills == 1 { "" } else { "s" },
                    in_cover(*cover),
                    if left > 0 && *kills < s.group(*target).alive_count() as u32 {
                        format!(", the extra {left} points do nothing")
                    } else {
                        String::new()
                    }
                )
            } else {
                ": into the melee".into()
            };
            format!(
                "{linked}{n}D6 at {}{mib}{decl}: {}{} = {total}{result}",
                group(s, *target),
                dice(d),
                skills_added(d, *total),
            )
        }
        E::Shared {
            group: g,
            dice: d,
            total,
            kill_score,
            kills,
        } => format!(
            "{} take {}{} = {total}: {kills} kill{} at {kill_score} each",
            group(s, *g),
            if d.is_empty() {
                "no dice".into()
            } else {
                dice(d)
            },
            skills_added(d, *total),
            if *kills == 1 { "" } else { "s" }
        ),
        E::MustRemove {
            seat,
            group: g,
            count,
            ..
        } => format!(
            "{} choose {count} casualt{} of {}",
            s.faction(*seat).name,
            if *count == 1 { "y" } else { "ies" },
            group(s, *g)
        ),
        E::Killed { group: g, model } => {
            format!("{} of {} is killed", model_name(s, *g, model), group(s, *g))
        }
        E::Credited { seat, kills, .. } => format!(
            "{} {} {kills} kill{}",
            s.faction(*seat).name,
            "made",
            if *kills == 1 { "" } else { "s" }
        ),
        E::SpeciesKilled { species } => {
            format!("the first {species} is killed: the MiB may study it")
        }
        E::Locked {
            groups,
            defender,
            below,
            ..
        } => {
            let names: Vec<String> = groups.iter().map(|g| group(s, *g)).collect();
            let mut t = format!(
                "{} locked in hand-to-hand{}",
                names.join(" and "),
                if *below { " below the table" } else { "" }
            );
            if let Some((d, c)) = defender {
                t.push_str(&format!("; {} defend {}", group(s, *d), c.word()));
            }
            t
        }
        E::Merged { from, into } => format!("{} join {}", group(s, *from), group(s, *into)),
        E::Resolving { strikes, .. } => {
            let parts: Vec<String> = strikes
                .iter()
                .map(|(seat, n)| format!("{} {n}D6", s.faction(*seat).name))
                .collect();
            if parts.is_empty() {
                "the melee is over".into()
            } else {
                format!("the melee is resolved: {}", parts.join(", "))
            }
        }
        E::MeleesDue { melees } => format!(
            "{} melee{} to resolve",
            melees.len(),
            if melees.len() == 1 { "" } else { "s" }
        ),
        E::Struck {
            seat,
            target,
            dice: d,
            ..
        } => {
            let total: u32 = d.iter().map(|&x| u32::from(x)).sum();
            if seat == target {
                format!("{} strike: {} = {total}", s.faction(*seat).name, dice(d))
            } else {
                format!(
                    "{} strike at {}: {} = {total}",
                    s.faction(*seat).name,
                    s.faction(*target).name,
                    dice(d)
                )
            }
        }
        E::Unlocked { .. } => "the hand-to-hand combat is over".into(),
        E::FightsOn { .. } => {
            "the Spugs fight to the death: the melee goes on to the next card".into()
        }
        E::Attempted {
            group: g,
            action,
            dice: d,
            success,
        } => format!(
            "{} try {}: {} ({})",
            group(s, *g),
            s.scenario
                .specials
                .iter()
                .find(|x| &x.id == action)
                .map_or(action.as_str(), |x| x.name.as_str()),
            dice(d),
            if *success {
                "a 6: success"
            } else {
                "no 6: it fails"
            }
        ),
        E::Studied { dice: d, species } => {
            if species.is_empty() {
                format!("study: {} (no 6)", dice(d))
            } else {
                format!(
                    "study: {}: the {} studied (+1D6 to each MiB shooting roll)",
                    dice(d),
                    species.join(", ")
                )
            }
        }
        E::WentBelow { group: g, .. } => format!("{} went below the table", group(s, *g)),
        E::MovedBelow { group: g, to } => match to {
            Some(p) => format!("{} moved below the table to {}", group(s, *g), point(*p)),
            None => format!("{} moved below the table", group(s, *g)),
        },
        E::Climbed { group: g } => format!("{} climbed towards the surface", group(s, *g)),
        E::Surfaced { group: g, to } => match to.first().copied().flatten() {
            Some(p) => format!("{} came up at {}", group(s, *g), point(p)),
            None => format!("{} came up", group(s, *g)),
        },
        E::TookOff { group: g } => format!("{} took off", group(s, *g)),
        E::Landed { group: g } => format!("{} landed", group(s, *g)),
        E::Boarded { group: g, worm } => {
            if super::actions::is_vehicle(s, *worm) {
                let (room, aboard) = super::actions::room(s, *worm);
                format!(
                    "{} boarded {} ({} of {room} places taken): their move ends",
                    group(s, *g),
                    group(s, *worm),
                    aboard + s.group(*g).alive_count()
                )
            } else {
                format!("{} are carried by {}", group(s, *g), group(s, *worm))
            }
        }
        E::HoleDug { at, .. } => format!("a Spug hole at {}", point(*at)),
        E::HoleClosed { at } => format!("the Spug hole at {} is closed", point(*at)),
        E::Detonated {
            group: g,
            model,
            dice: d,
        } => format!("{} blows up: {}", model_name(s, *g, model), dice(d)),
        E::Arrived {
            group: g,
            successes,
            ..
        } => format!("{} arrive ({}D6 per man)", group(s, *g), successes + 1),
        E::Nothing => "nothing happens".into(),
        E::Ended { summary, .. } => format!("the battle is over: {summary}"),
        E::MustPay {
            seat,
            group: g,
            total,
            cover,
            ..
        } => {
            let x = s.group(*g);
            let mut kinds: Vec<String> = Vec::new();
            for m in x.alive() {
                if let Some(t) = s.model_type(x.seat, &m.kind) {
                    let k = format!("{} {}", t.name, t.kill.against(*cover));
                    if !kinds.contains(&k) {
                        kinds.push(k);
                    }
                }
            }
            format!(
                "{} choose casualties of {} worth up to {total}, each at its own kill score {} ({})",
                s.faction(*seat).name,
                group(s, *g),
                in_cover(*cover),
                kinds.join(", ")
            )
        }
        E::Reformed { group: g } => {
            let x = s.group(*g);
            let mut back: Vec<String> = Vec::new();
            for m in x.alive() {
                if let Some(o) = m.origin.filter(|o| o != g) {
                    let name = s.group(o).name.clone();
                    if !back.contains(&name) {
                        back.push(name);
                    }
                }
            }
            format!(
                "{} re-form by their organisation: {} back in their own group{}",
                s.faction(x.seat).name,
                back.join(", "),
                if back.len() == 1 { "" } else { "s" }
            )
        }
        E::PointAsked {
            group: g,
            why: super::choose::PointFor::FallBack { .. },
            ..
        } => format!(
            "{} must fall back a full move: their player chooses the way",
            group(s, *g)
        ),
        E::PointAsked { group: g, .. } => format!(
            "{} lost the melee below: they surface at a point of their choosing",
            group(s, *g)
        ),
        E::GroundOffered {
            group: g, cover, ..
        } => format!(
            "{} beat the defenders: they may take the ground they held ({})",
            group(s, *g),
            cover.word()
        ),
        E::Tried {
            group: g,
            what,
            dice: d,
            success,
        } => format!(
            "{} try something new ({what}): {} ({})",
            group(s, *g),
            dice(d),
            if *success {
                "a 6: success"
            } else {
                "no 6: it fails"
            }
        ),
        E::StupidityCheck {
            group: g,
            needs,
            roll,
        } => format!(
            "Stupidity check for {}: needs {needs}, rolls {roll}: {}",
            group(s, *g),
            if roll >= needs { "passed" } else { "failed" }
        ),
        E::Stricken {
            group: g,
            model,
            roll,
            ..
        } => format!(
            "{} is stricken: {roll} {}",
            figure(s, *g, *model),
            super::advanced::tables().stupid(*roll).1
        ),
        E::Contagion {
            group: g,
            roll,
            models,
        } => {
            let names: Vec<String> = models.iter().map(|m| figure(s, *g, *m)).collect();
            format!(
                "stupidity is contagious: rolls {roll}, {}",
                if names.is_empty() {
                    "and no other model is left to catch it".to_owned()
                } else {
                    format!(
                        "{} now suffer{}",
                        names.join(", "),
                        if names.len() == 1 { "s" } else { "" }
                    )
                }
            )
        }
        E::Recovery {
            group: g,
            model,
            roll,
            recovered,
        } => format!(
            "{} tries to recover its senses: rolls {roll}: {}",
            figure(s, *g, *model),
            if *recovered {
                "recovered"
            } else {
                "still stupid"
            }
        ),
        E::FearTest {
            group: g, of, roll, ..
        } => format!(
            "Fear test for {} facing {}: rolls {roll}: {}",
            group(s, *g),
            group(s, *of),
            super::advanced::tables().fear(*roll).1
        ),
        E::Ordered {
            group: g, order, ..
        } => format!(
            "{} {}",
            group(s, *g),
            super::advanced::order_words(s, *order)
        ),
        E::OrderCarried { group: g, note } => match note {
            None => format!("{} has done what it was made to do", group(s, *g)),
            Some(why) => format!("{} cannot do it: {why}", group(s, *g)),
        },
        E::ChecksMade => "the checks at the start of the card are made".into(),
        E::Fled { group: g } => format!(
            "{} runs off the table, never to be seen again",
            group(s, *g)
        ),
        E::LaidInWait { group: g, assault } => format!(
            "{} lays in wait to {}: it may only turn or sneak on its own cards",
            group(s, *g),
            if *assault {
                "assault an enemy that comes within its move"
            } else {
                "fire at an enemy that comes into sight"
            }
        ),
        E::StoodDown { group: g } => format!("{} stops laying in wait", group(s, *g)),
        E::AmbushDue {
            group: g, target, ..
        } => format!(
            "{} comes into the sight of {}, laying in wait",
            group(s, *target),
            group(s, *g)
        ),
        E::Sprung {
            group: g,
            target,
            sprung,
            declared,
        } => {
            if *sprung {
                format!(
                    "{} springs its ambush on {}, out of turn{}",
                    group(s, *g),
                    group(s, *target),
                    if *declared { " (declared)" } else { "" }
                )
            } else {
                format!(
                    "{} lets {} pass and goes on waiting",
                    group(s, *g),
                    group(s, *target)
                )
            }
        }
        E::Grappled {
            by, score, kills, ..
        } => format!(
            "{} wins the melee on its own card ({} kills to {}) and holds its victims in its grapple: they do nothing unless they escape on {score} or more",
            group(s, *by),
            kills.0,
            kills.1
        ),
        E::AssaultWon { winner, kills, .. } => format!(
            "{} win the assault ({} kills to {}): the fight does not break; on their card the winners may break off, the losers stay and fight or run away if they are faster",
            s.faction(*winner).name,
            kills.0,
            kills.1
        ),
        E::BrokeOff { group: g } => format!("{} breaks off from the fight", group(s, *g)),
        E::Height {
            group: g, height, ..
        } => match height {
            Some(_) => format!(
                "{} is now {}",
                group(s, *g),
                super::fly::height_words(*height)
            ),
            None => format!("{} lands", group(s, *g)),
        },
        E::GrappleEscape {
            group: g,
            roll,
            needs,
            escaped,
            ..
        } => format!(
            "{} tries to escape the grapple: needs {needs}, rolls {roll}: {}",
            group(s, *g),
            if *escaped {
                "escapes and may act"
            } else {
                "still held, it does nothing on this card"
            }
        ),
        E::Modified { mods } => {
            let words: Vec<String> = mods
                .iter()
                .map(|(n, why)| {
                    if *n == 0 {
                        why.clone()
                    } else {
                        format!("{n:+} ({why})")
                    }
                })
                .collect();
            format!("Modifiers: {}", words.join("; "))
        }
        E::Suppression {
            target,
            at_cover,
            cover,
            dice: d,
            how_many,
            total,
            kill_score,
            step,
            result,
            groups,
            kills,
            declared,
            ..
        } => {
            use super::fire::SuppressResult as R;
            let mib = if how_many.is_empty() {
                String::new()
            } else {
                format!(" (rolled {} for dice per operative)", dice(how_many))
            };
            let decl = if declared.is_empty() {
                String::new()
            } else {
                format!(" (declared: {})", declared.join(", "))
            };
            let strike = super::fire::strike_above(*at_cover, *cover) * step;
            let outcome = match result {
                R::Missed => "no effect".to_owned(),
                R::Suppressed => "suppressed".to_owned(),
                R::Strike => format!(
                    "a direct strike, {kills} kill{}",
                    if *kills == 1 { "" } else { "s" }
                ),
            };
            let pinned: Vec<String> = groups.iter().map(|g| group(s, *g)).collect();
            let pinned = if pinned.is_empty() {
                String::new()
            } else {
                format!("; pinned down: {}", pinned.join(", "))
            };
            format!(
                "Suppressing fire, {}D6 at {}{} {}{mib}{decl}: {}{} = {total} against {kill_score} (suppresses from {}, strikes from {}): {outcome}{pinned}",
                d.len(),
                if *at_cover { "the cover of " } else { "" },
                group(s, *target),
                in_cover(*cover),
                dice(d),
                skills_added(d, *total).replace("(skills)", "(modifiers)"),
                kill_score.saturating_sub(*step),
                kill_score + strike,
            )
        }
        E::Relayed {
            observers,
            to,
            target,
            declared,
        } => {
            let names: Vec<String> = observers.iter().map(|g| group(s, *g)).collect();
            format!(
                "{} relay{} where {} is to {}{}: they may not move or fire this card",
                names.join(" and "),
                if observers.len() == 1 { "s" } else { "" },
                group(s, *target),
                group(s, *to),
                if *declared { " (declared)" } else { "" }
            )
        }
        E::ModelsCredited { kills } => {
            let names: Vec<String> = kills
                .iter()
                .map(|(id, k)| {
                    let name = s
                        .groups
                        .iter()
                        .flat_map(|g| g.models.iter())
                        .find(|m| m.id == *id)
                        .map_or_else(|| id.clone(), |m| String::from(&m.name));
                    format!("{name} ({k})")
                })
                .collect();
            format!(
                "the kills go to the figures whose dice made them: {}",
                names.join(", ")
            )
        }
        E::MeleeHowMany {
            group: g, dice: d, ..
        } => {
            let per: u32 = d.iter().map(|&x| u32::from(x)).sum();
            format!(
                "{} rolled {} for their close-combat dice: {per}D6 an operative, the same as for shooting",
                group(s, *g),
                dice(d)
            )
        }
        E::Perception {
            group: g,
            target,
            roll,
            leader,
            bonus,
            needs,
            perceived,
        } => {
            let extra = if *bonus > 0 {
                format!(
                    " +{bonus} ({})",
                    if *leader && *bonus > super::advanced::tables().perception_leader {
                        "leader, campaign"
                    } else if *leader {
                        "leader"
                    } else {
                        "campaign"
                    }
                )
            } else {
                String::new()
            };
            format!(
                "Perception test for {} against {}: needs {needs}, rolls {roll}{extra}: {}",
                group(s, *g),
                group(s, *target),
                if *perceived {
                    "perceived: the target is sighted"
                } else {
                    "not perceived"
                }
            )
        }
    }
}

/// A figure of a group by its index, in words.
fn figure(s: &InvasionState, g: GroupId, model: u16) -> String {
    s.groups
        .get(g as usize)
        .and_then(|x| x.models.get(model as usize))
        .map_or_else(|| format!("model {model}"), |m| String::from(&m.name))
}

/// " +3 (skills)" when campaign skills added to a total beyond its dice.
fn skills_added(d: &[u8], total: u32) -> String {
    let sum: u32 = d.iter().map(|&x| u32::from(x)).sum();
    if total > sum {
        format!(" +{} (skills)", total - sum)
    } else if total < sum {
        format!(" -{} (modifiers)", sum - total)
    } else {
        String::new()
    }
}

/// A vehicle's facing in words: `90° (towards the bottom edge)`.
pub fn facing_words(degrees: i32) -> String {
    let d = degrees.rem_euclid(360);
    const EDGES: [&str; 8] = [
        "towards the right-hand edge",
        "towards the bottom right corner",
        "towards the bottom edge",
        "towards the bottom left corner",
        "towards the left-hand edge",
        "towards the top left corner",
        "towards the top edge",
        "towards the top right corner",
    ];
    let sector = (((d + 22) % 360) / 45) as usize;
    format!("{d}° ({})", EDGES[sector])
}

/// What each die of a command's roll decided, in the order they were rolled
/// (for the app's dialog where players type in the dice they threw): the
/// MiB's "how many dice" roll before a shot's dice, each shooting die,
/// study, special action, strike and Mite blast dice. Shared dice (a shot
/// into a melee, a strike dealt out) are the same dice again, not new rolls.
pub fn dice_purposes(events: &[super::state::InvasionEvent]) -> Vec<String> {
    // One die: "strike die"; several: "strike dice", each die worded by
    // its roll's name alone (the app reads a run of one name as one roll,
    // and numbers the dice itself).
    fn numbered(out: &mut Vec<String>, n: usize, one: &str, many: &str) {
        let name = if n == 1 { one } else { many };
        out.extend(std::iter::repeat_n(name.to_owned(), n));
    }
    let mut out = Vec::new();
    for e in events {
        match e {
            E::Shot { dice, how_many, .. } => {
                numbered(
                    &mut out,
                    how_many.len(),
                    "MiB: how many dice",
                    "MiB: how many dice",
                );
                numbered(&mut out, dice.len(), "shooting die", "shooting dice");
            }
            E::Studied { dice, .. } => numbered(&mut out, dice.len(), "study die", "study dice"),
            E::Attempted { dice, .. } => numbered(
                &mut out,
                dice.len(),
                "special action die",
                "special action dice",
            ),
            E::Struck { dice, .. } => numbered(&mut out, dice.len(), "strike die", "strike dice"),
            E::Tried { dice, .. } => {
                numbered(&mut out, dice.len(), "Action roll die", "Action roll dice")
            }
            E::Detonated { model, dice, .. } => numbered(
                &mut out,
                dice.len(),
                &format!("Mite blast die ({model})"),
                &format!("Mite blast dice ({model})"),
            ),
            E::Recovery { .. } => out.push("stupidity: recovery roll".into()),
            E::StupidityCheck { .. } => out.push("stupidity check".into()),
            E::Stricken { .. } => out.push("the stupidity table".into()),
            E::Contagion { .. } => out.push("stupidity is contagious: how many".into()),
            E::FearTest { .. } => out.push("fear test".into()),
            E::Suppression { dice, how_many, .. } => {
                numbered(
                    &mut out,
                    how_many.len(),
                    "MiB: how many dice",
                    "MiB: how many dice",
                );
                numbered(&mut out, dice.len(), "suppressing die", "suppressing dice");
            }
            E::Perception { .. } => out.push("perception test".into()),
            E::MeleeHowMany { dice, .. } => numbered(
                &mut out,
                dice.len(),
                "MiB: how many close-combat dice",
                "MiB: how many close-combat dice",
            ),
            E::GrappleEscape { .. } => out.push("escaping a grapple".into()),
            _ => {}
        }
    }
    out
}

/// [`dice_purposes`] of a recorded entry's events (postcard, as the session
/// stores them); empty when they do not decode.
pub fn dice_purposes_of(events: &[u8]) -> Vec<String> {
    postcard::from_bytes::<Vec<super::state::InvasionEvent>>(events)
        .map(|ev| dice_purposes(&ev))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::invasion::model::Cover;

    #[test]
    fn dice_purposes_follow_the_roll_order_and_decode_stored_events() {
        let events = vec![
            E::Spent { group: 6 },
            E::Shot {
                shooters: vec![6],
                target: 0,
                dice: vec![3, 4, 5],
                how_many: vec![2],
                total: 12,
                cover: Cover::Open,
                kill_score: 6,
                kills: 2,
                declared: Vec::new(),
            },
            E::Shared {
                group: 1,
                dice: vec![3],
                total: 3,
                kill_score: 6,
                kills: 0,
            },
            E::Studied {
                dice: vec![6],
                species: Vec::new(),
            },
            E::Attempted {
                group: 0,
                action: "dig".into(),
                dice: vec![1, 2],
                success: false,
            },
            E::Struck {
                melee: 0,
                seat: 0,
                target: 1,
                dice: vec![4],
            },
            E::Detonated {
                group: 13,
                model: "spugs-m1-1".into(),
                dice: vec![1, 2, 3, 4],
            },
        ];
        let words = dice_purposes(&events);
        assert_eq!(
            words,
            [
                "MiB: how many dice",
                "shooting dice",
                "shooting dice",
                "shooting dice",
                "study die",
                "special action dice",
                "special action dice",
                "strike die",
                "Mite blast dice (spugs-m1-1)",
                "Mite blast dice (spugs-m1-1)",
                "Mite blast dice (spugs-m1-1)",
                "Mite blast dice (spugs-m1-1)",
            ]
        );
        let stored = postcard::to_allocvec(&events).expect("encodes");
        assert_eq!(dice_purposes_of(&stored), words);
        assert!(dice_purposes_of(&[0xff, 0xff]).is_empty());
        // Two "how many" dice once the MiB have studied a species.
        let two = [E::Shot {
            shooters: vec![6],
            target: 0,
            dice: vec![1],
            how_many: vec![1, 1],
            total: 1,
            cover: Cover::Open,
            kill_score: 6,
            kills: 0,
            declared: Vec::new(),
        }];
        assert_eq!(
            dice_purposes(&two),
            ["MiB: how many dice", "MiB: how many dice", "shooting die"]
        );
    }
}
