//! Who is asked to act, and every command they may give.

use super::data::{Ability, CardKind, Kind, TILES, Tokens};
use super::rules::{
    SaucersCommand as C, attack_profile, attack_tiles, automatic, defeat_needs, instant_plays,
    phase_name, reachable, targetable,
};
use super::state::{Phase, SaucersState, Target, Variant};
use crate::game::{Actor, Anchors, Ask};

/// The seats asked to act now.
/// Whether the game waits for `seat`, one of those [`asked`]: while a swap
/// offer waits for its answer the offering seat, asked because it may
/// withdraw (assumption 18), holds nothing up (a discard owed comes first
/// and is waited for).
pub fn waits_for(st: &SaucersState, seat: Actor) -> bool {
    match &st.offer {
        Some(o) if st.owed.is_empty() => seat.0 != o.from,
        _ => true,
    }
}

pub fn asked(st: &SaucersState) -> Vec<Ask> {
    if st.over.is_some() {
        return Vec::new();
    }
    if let Some(&(seat, n)) = st.owed.first() {
        return vec![Ask {
            seat: Actor(seat),
            what: format!(
                "discard {n} card{} of your choice",
                if n == 1 { "" } else { "s" }
            ),
        }];
    }
    if let Some(o) = &st.offer {
        // The answering seat first (the one the game waits for, and the
        // hot-seat curtain's); the offering seat may withdraw (rules
        // version 5, assumption 18).
        return vec![
            Ask {
                seat: Actor(o.to),
                what: format!(
                    "answer the swap offered by {}: accept or decline",
                    super::rules::seat_label(st, o.from)
                ),
            },
            Ask {
                seat: Actor(o.from),
                what: format!(
                    "may withdraw the swap offered to {} while it waits for an answer",
                    super::rules::seat_label(st, o.to)
                ),
            },
        ];
    }
    if automatic(st).is_some() {
        return Vec::new();
    }
    if st.phase == Phase::Assign {
        return (0..st.seats.len() as u8)
            .filter_map(|s| {
                let what = if st.seats[s as usize].unassigned.is_some() {
                    "give your Task Force mission to one of your students"
                } else if !instant_plays(st, s).is_empty() {
                    "may play an Instant card"
                } else {
                    return None;
                };
                Some(Ask {
                    seat: Actor(s),
                    what: what.into(),
                })
            })
            .collect();
    }
    let cur = st.current;
    let what = match st.phase {
        Phase::Actions => "two actions with each student, then end the actions",
        Phase::Defeat => "choose the students lost to the aliens on their tiles",
        Phase::Upkeep => "discard any cards, then feed your students one Food",
        _ => phase_name(st.phase),
    };
    let mut out = vec![Ask {
        seat: Actor(cur),
        what: what.into(),
    }];
    for s in 0..st.seats.len() as u8 {
        if s != cur && !instant_plays(st, s).is_empty() {
            out.push(Ask {
                seat: Actor(s),
                what: "may play an Instant card".into(),
            });
        }
    }
    out
}

/// Every command some seat may give now.
pub fn legal(st: &SaucersState) -> Vec<(Actor, C)> {
    let mut out = Vec::new();
    if st.over.is_some() {
        return out;
    }
    if let Some(&(seat, _)) = st.owed.first() {
        for card in distinct(st, &st.seats[seat as usize].hand) {
            out.push((Actor(seat), C::Discard { card }));
        }
        return out;
    }
    if let Some(o) = &st.offer {
        // Accepting is offered only where the seat holds what is taken (on
        // its own view, or the whole state); declining always.
        // The same check as the Answer's rule (`rules::holds_all`).
        let mine = &st.seats[o.to as usize];
        if mine.tokens.covers(&o.take) && super::rules::holds_all(&mine.hand, &o.take_cards) {
            out.push((Actor(o.to), C::Answer { accept: true }));
        }
        out.push((Actor(o.to), C::Answer { accept: false }));
        out.push((Actor(o.from), C::Withdraw));
        return out;
    }
    if automatic(st).is_some() {
        return out;
    }
    let cur = st.current;
    let a = Actor(cur);
    match st.phase {
        Phase::Assign => {
            for s in 0..st.seats.len() as u8 {
                if st.seats[s as usize].unassigned.is_some() {
                    for (h, _) in st.living(s) {
                        out.push((Actor(s), C::Assign { human: h as u16 }));
                    }
                }
            }
        }
        Phase::Actions => actions(st, &mut out),
        Phase::Defeat => {
            let needs = defeat_needs(st);
            for (h, hu) in st.living(cur) {
                if needs.iter().any(|(p, _)| *p == hu.at) {
                    out.push((a, C::Lose { human: h as u16 }));
                }
            }
        }
        Phase::Upkeep => {
            for card in distinct(st, &st.seats[cur as usize].hand) {
                out.push((a, C::Discard { card }));
            }
            let fed = st.living(cur).next().is_none()
                || st.seats[cur as usize]
                    .tokens
                    .payment(&Tokens::one(Kind::Food, 1))
                    .is_some();
            if fed {
                out.push((a, C::Upkeep));
            } else {
                for (h, _) in st.living(cur) {
                    out.push((a, C::Starve { human: h as u16 }));
                }
            }
            rat_nest(st, &mut out);
        }
        _ => {}
    }
    for s in 0..st.seats.len() as u8 {
        for c in instant_plays(st, s) {
            out.push((Actor(s), c));
        }
    }
    out
}

/// One card of each kind in a hand (the same card twice is one choice).
fn distinct(st: &SaucersState, hand: &[u16]) -> Vec<u16> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for &c in hand {
        let id = st.content.cards[c as usize].id.as_str();
        if !seen.contains(&id) {
            seen.push(id);
            out.push(c);
        }
    }
    out
}

fn rat_nest(st: &SaucersState, out: &mut Vec<(Actor, C)>) {
    let cur = st.current;
    if st.gang_of(cur).ability == Ability::RatNest && st.seats[cur as usize].tokens.alien > 0 {
        for k in Kind::SUPPLIES {
            out.push((Actor(cur), C::RatNest { take: Some(k) }));
        }
        out.push((Actor(cur), C::RatNest { take: None }));
    }
}

fn actions(st: &SaucersState, out: &mut Vec<(Actor, C)>) {
    let cur = st.current;
    let a = Actor(cur);
    let seat = &st.seats[cur as usize];
    let hand = distinct(st, &seat.hand);
    for (h, hu) in st.living(cur) {
        let hid = h as u16;
        if let Some(m) = hu.mission {
            let mdef = &st.content.missions[m as usize];
            let tile = &st.board[hu.at as usize];
            if st.content.is_building(tile.def, mdef.tile)
                && !tile.destroyed
                && seat.tokens.payment(&mdef.cost).is_some()
            {
                out.push((a, C::Complete { human: hid }));
            }
        }
        if hu.actions == 0 {
            continue;
        }
        let def = &st.content.humans[hu.def as usize];
        for to in reachable(st, h, def.moves, false, false) {
            out.push((a, C::Move { human: hid, to }));
        }
        for &card in &hand {
            if let CardKind::Move {
                tiles,
                cost,
                escape,
            } = &st.content.cards[card as usize].kind
                && seat.tokens.payment(cost).is_some()
            {
                for to in reachable(st, h, *tiles, *escape, false) {
                    out.push((
                        a,
                        C::MoveCard {
                            human: hid,
                            card,
                            to,
                        },
                    ));
                }
            }
        }
        let attacks = std::iter::once(None).chain(hand.iter().copied().filter_map(|c| {
            matches!(st.content.cards[c as usize].kind, CardKind::Attack { .. }).then_some(Some(c))
        }));
        for card in attacks {
            let Some((_, range, air, cost)) = attack_profile(st, h, card) else {
                continue;
            };
            if card.is_some() && seat.tokens.payment(&cost).is_none() {
                continue;
            }
            for at in attack_tiles(st, h, &range) {
                let mut targets: Vec<Target> = st
                    .aliens
                    .iter()
                    .filter(|x| x.at == at)
                    .map(|x| Target::Alien(x.id))
                    .filter(|t| targetable(st, cur, at, *t, air))
                    .collect();
                if st.variant == Variant::GangWarfare {
                    for s in 0..st.seats.len() as u8 {
                        if targetable(st, cur, at, Target::Gang(s), air) {
                            targets.push(Target::Gang(s));
                        }
                    }
                }
                // Each target first, the others after it (the F.A.Q.'s split).
                for i in 0..targets.len() {
                    let mut order = vec![targets[i]];
                    order.extend(
                        targets
                            .iter()
                            .enumerate()
                            .filter(|(j, _)| *j != i)
                            .map(|(_, t)| *t),
                    );
                    out.push((
                        a,
                        C::Attack {
                            human: hid,
                            card,
                            at,
                            targets: order,
                        },
                    ));
                }
            }
        }
        if !st.board[hu.at as usize].searched {
            out.push((a, C::Search { human: hid }));
        }
        for with in 0..st.seats.len() as u8 {
            if with == cur || !st.living(with).any(|(_, o)| o.at == hu.at) {
                continue;
            }
            let theirs = &st.seats[with as usize];
            let mut swap =
                |give: Tokens, give_cards: Vec<u16>, take: Tokens, take_cards: Vec<u16>| {
                    out.push((
                        a,
                        C::Swap {
                            human: hid,
                            with,
                            give,
                            give_cards,
                            take,
                            take_cards,
                        },
                    ));
                };
            for k in Kind::ALL {
                if seat.tokens.get(k) > 0 {
                    swap(Tokens::one(k, 1), vec![], Tokens::default(), vec![]);
                }
                if theirs.tokens.get(k) > 0 {
                    swap(Tokens::default(), vec![], Tokens::one(k, 1), vec![]);
                }
            }
            for &c in &hand {
                swap(Tokens::default(), vec![c], Tokens::default(), vec![]);
            }
            if !st.hidden_hands && st.variant != Variant::GangWarfare {
                for c in distinct(st, &theirs.hand) {
                    swap(Tokens::default(), vec![], Tokens::default(), vec![c]);
                }
            }
        }
    }
    rat_nest(st, out);
    out.push((a, C::EndActions));
}

/// Where a command sits on the board: the student that acts, the tile or
/// alien it is given on.
pub fn anchors(st: &SaucersState, c: &C) -> Anchors {
    let human = |h: u16| {
        st.humans
            .get(h as usize)
            .map(|x| format!("human:{}", st.content.humans[x.def as usize].id))
    };
    let tile = |p: u8| ((p as usize) < TILES).then(|| format!("tile:{}", super::data::coord(p)));
    match c {
        C::Move { human: h, to } | C::MoveCard { human: h, to, .. } => Anchors {
            subject: human(*h),
            target: tile(*to),
        },
        C::Attack { human: h, at, .. } => Anchors {
            subject: human(*h),
            target: tile(*at),
        },
        C::Search { human: h } | C::Complete { human: h } | C::Swap { human: h, .. } => Anchors {
            subject: human(*h),
            target: st.humans.get(*h as usize).and_then(|x| tile(x.at)),
        },
        C::Lose { human: h } | C::Starve { human: h } | C::Assign { human: h } => Anchors {
            subject: human(*h),
            target: None,
        },
        C::Instant { on, .. } => match on {
            super::rules::InstantOn::Escape { human: h, to } => Anchors {
                subject: human(*h),
                target: tile(*to),
            },
            super::rules::InstantOn::Alien { alien } => Anchors {
                subject: None,
                target: Some(format!("alien:{alien}")),
            },
            super::rules::InstantOn::Nothing => Anchors::default(),
        },
        _ => Anchors::default(),
    }
}
