//! Commands and events in words. Hidden cards and missions ([`HIDDEN`])
//! read as "a card" and "a mission".

use super::data::{Tokens, coord, kind_name};
use super::rules::{InstantOn, SaucersCommand as C, phase_name, seat_label};
use super::state::{HIDDEN, Phase, SaucersEvent as E, SaucersState, Target};
use crate::game::Actor;

fn card(st: &SaucersState, c: u16) -> String {
    if c == HIDDEN {
        return "a card".into();
    }
    st.content
        .cards
        .get(c as usize)
        .map_or_else(|| format!("card {c}"), |d| d.name.clone())
}

fn mission(st: &SaucersState, m: u16) -> String {
    if m == HIDDEN {
        return "a secret mission".into();
    }
    st.content
        .missions
        .get(m as usize)
        .map_or_else(|| format!("mission {m}"), |d| format!("'{}'", d.name))
}

fn human(st: &SaucersState, h: u16) -> String {
    st.humans.get(h as usize).map_or_else(
        || format!("student {h}"),
        |x| st.content.humans[x.def as usize].name.clone(),
    )
}

fn alien(st: &SaucersState, id: u32) -> String {
    st.alien(id).map_or_else(
        || format!("alien {id}"),
        |a| format!("the {} on {}", a.kind.name(), coord(a.at)),
    )
}

fn target(st: &SaucersState, t: &Target) -> String {
    match t {
        Target::Alien(id) => alien(st, *id),
        Target::Gang(s) => format!("the {}", seat_label(st, *s)),
    }
}

fn cards(st: &SaucersState, cs: &[u16]) -> String {
    cs.iter()
        .map(|&c| card(st, c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A command in words.
pub fn command(st: &SaucersState, _actor: Actor, c: &C) -> String {
    match c {
        C::Deal => {
            "lays out the tiles, deals the hands, builds the Alien deck and deals the missions"
                .into()
        }
        C::Draw => format!("{} draw up to their hand size", seat_label(st, st.current)),
        C::Assign { human: h } => format!("{} takes the Task Force mission", human(st, *h)),
        C::Move { human: h, to } => format!("{} moves to {}", human(st, *h), coord(*to)),
        C::MoveCard {
            human: h,
            card: c,
            to,
        } => {
            format!(
                "{} moves to {} with {}",
                human(st, *h),
                coord(*to),
                card(st, *c)
            )
        }
        C::Attack {
            human: h,
            card: c,
            at,
            targets,
        } => format!(
            "{} attacks {} with {}, at {}",
            human(st, *h),
            coord(*at),
            c.map_or("the standard attack".into(), |c| card(st, c)),
            targets
                .iter()
                .map(|t| target(st, t))
                .collect::<Vec<_>>()
                .join(", then ")
        ),
        C::Search { human: h } => format!(
            "{} searches {}",
            human(st, *h),
            st.humans
                .get(*h as usize)
                .map_or(String::new(), |x| coord(x.at))
        ),
        C::Swap {
            human: h,
            with,
            give,
            give_cards,
            take,
            take_cards,
        } => {
            let mut parts = Vec::new();
            if !give.is_empty() || !give_cards.is_empty() {
                parts.push(format!("gives {}", goods(st, give, give_cards)));
            }
            if !take.is_empty() || !take_cards.is_empty() {
                parts.push(format!("takes {}", goods(st, take, take_cards)));
            }
            format!(
                "{} swaps with the {}: {}",
                human(st, *h),
                seat_label(st, *with),
                parts.join(" and ")
            )
        }
        C::Complete { human: h } => format!(
            "{} completes {}",
            human(st, *h),
            st.humans
                .get(*h as usize)
                .and_then(|x| x.mission)
                .map_or("a mission".into(), |m| mission(st, m))
        ),
        C::RatNest { take } => format!(
            "Rat Nest, an alien kill for {}",
            take.map_or("a card".into(), |k| format!("1 {}", kind_name(k)))
        ),
        C::Instant { card: c, on } => format!(
            "play {}{}",
            card(st, *c),
            match on {
                InstantOn::Escape { human: h, to } =>
                    format!(": {} escapes to {}", human(st, *h), coord(*to)),
                InstantOn::Alien { alien: a } => format!(" on {}", alien(st, *a)),
                InstantOn::Nothing => String::new(),
            }
        ),
        C::EndActions => "end the actions".into(),
        C::Lose { human: h } => format!("lose {} to the aliens", human(st, *h)),
        C::Discard { card: c } => format!("discard {}", card(st, *c)),
        C::Upkeep => "feed the students one Food".into(),
        C::Starve { human: h } => format!("no Food: {} starves", human(st, *h)),
        C::Collect => format!(
            "{} collect supplies and alien tokens",
            seat_label(st, st.current)
        ),
        C::AlienTurn => "the Alien turn".into(),
        C::Answer { accept } => format!(
            "the {} {} the swap offered by the {}",
            st.offer
                .as_ref()
                .map_or_else(|| "player".into(), |o| seat_label(st, o.to)),
            if *accept { "accept" } else { "decline" },
            st.offer
                .as_ref()
                .map_or_else(|| "other player".into(), |o| seat_label(st, o.from)),
        ),
        C::Withdraw => format!(
            "withdraw the swap offered to the {}",
            st.offer
                .as_ref()
                .map_or_else(|| "other player".into(), |o| seat_label(st, o.to)),
        ),
    }
}

/// Goods in words, or "nothing".
fn goods_or_nothing(st: &SaucersState, t: &Tokens, cs: &[u16]) -> String {
    if t.is_empty() && cs.is_empty() {
        "nothing".into()
    } else {
        goods(st, t, cs)
    }
}

fn goods(st: &SaucersState, t: &Tokens, cs: &[u16]) -> String {
    let mut parts = Vec::new();
    if !t.is_empty() {
        parts.push(t.words());
    }
    if !cs.is_empty() {
        parts.push(cards(st, cs));
    }
    parts.join(" and ")
}

/// An event in words; `st` is the state before it.
pub fn event(st: &SaucersState, e: &E) -> String {
    match e {
        E::Dealt { hands, starts, .. } => {
            let sizes: Vec<String> = hands
                .iter()
                .enumerate()
                .map(|(s, h)| {
                    let shown = if h.contains(&HIDDEN) {
                        format!("{} cards", h.len())
                    } else {
                        cards(st, h)
                    };
                    format!("{}: {shown}", seat_label(st, s as u8))
                })
                .collect();
            format!(
                "tiles laid out, hands dealt ({}); students start on {}",
                sizes.join("; "),
                starts
                    .iter()
                    .map(|&p| coord(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        E::Positioned {
            searched,
            destroyed,
            aliens,
            students,
        } => format!(
            "the position file: {} searched, {} destroyed, {} aliens placed, {} students placed",
            searched.len(),
            destroyed.len(),
            aliens.len(),
            students.len()
        ),
        E::Overlaid(o) => {
            let mut parts = vec![format!(
                "the position file sets the hands ({} cards), the supplies, the Human deck ({} cards) and the Alien deck ({} cards)",
                o.hands.iter().map(Vec::len).sum::<usize>(),
                o.deck.len(),
                o.alien_deck.len()
            )];
            if let Some((seat, phase)) = o.turn {
                parts.push(format!(
                    "{}'s turn, {} step",
                    seat_label(st, seat),
                    super::rules::phase_name(phase)
                ));
            }
            parts.join("; ")
        }
        E::MissionAssigned {
            seat,
            human: h,
            mission: m,
            ..
        } => format!(
            "{} take {} for {}",
            seat_label(st, *seat),
            mission(st, *m),
            human(st, *h)
        ),
        E::TurnBegan { seat } => format!("turn {}: the {}", st.turn + 1, seat_label(st, *seat)),
        E::Reshuffled { deck } => format!(
            "the discard pile is shuffled into a new Human deck of {}",
            deck.len()
        ),
        E::Drew { seat, card: c, .. } => format!("{} draw {}", seat_label(st, *seat), card(st, *c)),
        E::EventDrawn { seat, card: c } => format!(
            "{} draw the Event {}: it happens at once",
            seat_label(st, *seat),
            card(st, *c)
        ),
        // Assumption 14: say why a gang's turn goes straight to its end.
        E::PhaseChanged {
            phase: Phase::Alien,
        } if st.over.is_none()
            && st.seats.len() > usize::from(st.current)
            && st.living(st.current).next().is_none() =>
        {
            format!(
                "{} have no students left: on to the Alien turn",
                seat_label(st, st.current)
            )
        }
        E::PhaseChanged { phase } => format!("on to {}", phase_name(*phase)),
        E::ActionUsed { human: h } => format!(
            "{} uses an action ({} left)",
            human(st, *h),
            st.humans
                .get(*h as usize)
                .map_or(0, |x| x.actions.saturating_sub(1))
        ),
        E::CardPlayed {
            seat,
            card: c,
            paid,
        } => format!(
            "{} play {}{}",
            seat_label(st, *seat),
            card(st, *c),
            if paid.is_empty() {
                String::new()
            } else {
                format!(", paying {}", paid.words())
            }
        ),
        E::Discarded { seat, card: c } => {
            format!("{} discard {}", seat_label(st, *seat), card(st, *c))
        }
        E::Moved { human: h, path } => {
            // The path leaves out the start: say where the move began.
            let from = st.humans.get(*h as usize).map(|x| coord(x.at));
            let steps: Vec<String> = path.iter().map(|&p| coord(p)).collect();
            match (from, steps.split_last()) {
                (Some(from), Some((to, []))) => {
                    format!("{} moves from {from} to {to}", human(st, *h))
                }
                (Some(from), Some((to, by))) => format!(
                    "{} moves from {from} by {} to {to}",
                    human(st, *h),
                    by.join(", ")
                ),
                _ => format!("{} moves {}", human(st, *h), steps.join(" to ")),
            }
        }
        E::Rolled { dice, hits } => format!(
            "rolled {} ({})",
            dice.iter()
                .map(|&d| format!("{d}: {}", st.content.face(d).name))
                .collect::<Vec<_>>()
                .join(", "),
            match hits {
                1 => "1 hit".to_owned(),
                n => format!("{n} hits"),
            }
        ),
        E::Damaged { alien: a, hits } => format!(
            "{} takes {hits} hit{}",
            alien(st, *a),
            if *hits == 1 { "" } else { "s" }
        ),
        E::AlienKilled { alien: a, by } => format!(
            "{} is defeated{}",
            alien(st, *a),
            by.map_or(String::new(), |s| format!(" by the {}", seat_label(st, s)))
        ),
        E::HandHit { seat, cards: n } => format!(
            "the {} must lose {n} card{} of their choice",
            seat_label(st, *seat),
            if *n == 1 { "" } else { "s" }
        ),
        E::Searched { at } => {
            let t = &st.content.tiles[st.board[*at as usize].def as usize];
            // A building whose name another tile repeats hides its back
            // until searched (N8): a seat's view before the search shows
            // the first of them, so the words name no back here (the
            // ambush's alien is the next event, the supply side is on the
            // board after it).
            if st.content.tiles.iter().filter(|o| o.name == t.name).count() > 1 {
                return format!("the {} on {} is searched", t.name, coord(*at));
            }
            format!(
                "the {} on {} is searched: {}",
                t.name,
                coord(*at),
                match (t.ambush, t.supply) {
                    (Some(k), _) => format!("an ambush! a {} was hiding inside", k.name()),
                    (None, Some(k)) => format!("{} supplies", kind_name(k)),
                    (None, None) => "nothing".into(),
                }
            )
        }
        E::AlienCardDrawn { card: c } => {
            let a = &st.content.aliens[*c as usize];
            format!(
                "Alien card: {} at {}{}",
                a.kind.name(),
                coord(a.at),
                a.dir
                    .map_or(String::new(), |d| format!(", Scouts move {}", d.name()))
            )
        }
        E::AlienPlaced { alien: a } => format!("a {} lands on {}", a.kind.name(), coord(a.at)),
        E::AliensMoved { dir, moves } => {
            if moves.is_empty() {
                format!("no Scout can move {}", dir.name())
            } else {
                format!(
                    "Scouts move {}: {}",
                    dir.name(),
                    moves
                        .iter()
                        .map(|(id, to)| format!("{} to {}", alien(st, *id), coord(*to)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        }
        E::SaucerStruck { at, .. } => format!(
            "SAUCER STRIKE on {}: the {} and everything on it destroyed",
            coord(*at),
            st.content.tiles[st.board[*at as usize].def as usize].name
        ),
        E::HumanKilled { human: h } => format!("{} is killed", human(st, *h)),
        E::Revived { human: h } => format!("CPR! {} lives (dead alien)", human(st, *h)),
        E::LossCounted { at } => format!("one student lost to an alien on {}", coord(*at)),
        E::Swapped {
            from,
            to,
            give,
            give_cards,
            take,
            take_cards,
            ..
        } => format!(
            "the {} give {} to the {} and take {}",
            seat_label(st, *from),
            goods_or_nothing(st, give, give_cards),
            seat_label(st, *to),
            goods_or_nothing(st, take, take_cards)
        ),
        E::Offered(o) => format!(
            "the {} offer the {} a swap: {} for {} (the {} answer)",
            seat_label(st, o.from),
            seat_label(st, o.to),
            goods_or_nothing(st, &o.give, &o.give_cards),
            goods_or_nothing(st, &o.take, &o.take_cards),
            seat_label(st, o.to)
        ),
        E::Answered { from, to, accept } => format!(
            "the {} {} the swap offered by the {}",
            seat_label(st, *to),
            if *accept { "accept" } else { "decline" },
            seat_label(st, *from)
        ),
        E::Withdrawn { from, to } => format!(
            "the {} withdraw the swap offered to the {}: nothing changes hands",
            seat_label(st, *from),
            seat_label(st, *to)
        ),
        E::Tokens { seat, gained, lost } => {
            let mut parts = Vec::new();
            if !gained.is_empty() {
                parts.push(format!("gain {}", gained.words()));
            }
            if !lost.is_empty() {
                parts.push(format!("spend {}", lost.words()));
            }
            format!("{} {}", seat_label(st, *seat), parts.join(" and "))
        }
        E::KillsTraded { seat, kills } => format!(
            "{} trade {kills} defeated alien{} for alien tokens",
            seat_label(st, *seat),
            if *kills == 1 { "" } else { "s" }
        ),
        // Only a Commander makes a student forget (Aliens.Commander); a
        // mission is otherwise lost with its student, or with its building
        // (review17 N2).
        E::MissionLost {
            human: h,
            mission: m,
            ..
        } => {
            let student = &st.humans[*h as usize];
            if !student.alive {
                format!("{} is lost with {}", mission(st, *m), human(st, *h))
            } else if *m == HIDDEN {
                // Which of the two it was would tell the mission's building.
                format!("{} loses {}", human(st, *h), mission(st, *m))
            } else if st
                .content
                .missions
                .get(*m as usize)
                .is_some_and(|d| !super::rules::building_stands(st, d.tile))
            {
                format!(
                    "{} is lost: its building is destroyed ({} carried it)",
                    mission(st, *m),
                    human(st, *h)
                )
            } else {
                format!("{} forgets {}", human(st, *h), mission(st, *m))
            }
        }
        E::MissionCompleted {
            seat,
            human: h,
            mission: m,
        } => format!(
            "MISSION COMPLETE: {} of the {} deliver {}",
            human(st, *h),
            seat_label(st, *seat),
            mission(st, *m)
        ),
        E::Healed => "the aliens' hit points return".into(),
        E::Ended(end) => end.summary.clone(),
    }
}
