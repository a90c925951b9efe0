//! The state of a game of Night of the Saucers, its events and the one fold
//! ([`apply`]). Events are facts that carry their outcomes (the deck's order
//! after a shuffle, the dice, the alien card drawn); `apply` never rolls.

use serde::{Deserialize, Serialize};

use super::data::{AlienKind, Content, Dir, Pos, Tokens};

/// A card, mission or deck entry another seat may not see.
pub const HIDDEN: u16 = u16::MAX;

/// The three ways to play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// The co-operative game of the text.
    #[default]
    Coop,
    /// Semi Co-Op: Great Grey Hunter, scores tallied at the end.
    Hunter,
    /// Non Co-Op: Gang Warfare.
    GangWarfare,
}

/// One tile of the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    /// Its building (an index into [`Content::tiles`]).
    pub def: u16,
    pub searched: bool,
    pub destroyed: bool,
}

/// One player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Its gang (an index into [`Content::gangs`]).
    pub gang: u16,
    /// Cards in hand (indices into [`Content::cards`]).
    pub hand: Vec<u16>,
    pub tokens: Tokens,
    /// Aliens defeated since the seat last collected (traded for alien tokens).
    pub kills_pending: u16,
    /// Every alien the seat defeated (the Great Grey Hunter's tally).
    pub kills: u32,
    /// Missions completed, in order.
    pub missions_done: Vec<u16>,
    /// A mission dealt and not yet given to a student.
    pub unassigned: Option<u16>,
}

/// One student.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Human {
    /// Its I.D. card (an index into [`Content::humans`]).
    pub def: u16,
    pub seat: u8,
    pub at: Pos,
    pub alive: bool,
    /// Actions left this turn.
    pub actions: u8,
    pub mission: Option<u16>,
    /// Moved this turn (the `collect_after_moving` option).
    #[serde(default)]
    pub moved: bool,
}

/// One alien on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alien {
    pub id: u32,
    pub kind: AlienKind,
    pub at: Pos,
    /// Hits taken this turn (they heal at its end).
    pub damage: u8,
    /// A Scout's direction on its card.
    pub dir: Option<Dir>,
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before the opening shuffle and deal.
    Deal,
    /// Each player gives their mission to one of their students.
    Assign,
    /// 1. Draw (a step of the game).
    Draw,
    /// 2. Actions.
    Actions,
    /// 3. Defeat.
    Defeat,
    /// 5. Upkeep and discard.
    Upkeep,
    /// 6. The Alien turn (a step of the game).
    Alien,
    Over,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct End {
    pub winners: Vec<u8>,
    /// The humans beat the aliens (co-operative and Great Grey Hunter);
    /// never in Gang Warfare, whose gangs play against each other.
    pub humans_won: bool,
    pub summary: String,
}

/// A target of an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Alien(u32),
    /// Another gang's hand (Gang Warfare).
    Gang(u8),
}

/// The state of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaucersState {
    pub content: crate::shared::Shared<Content>,
    pub variant: Variant,
    pub hidden_hands: bool,
    /// Battle options (`SaucersConfig`).
    #[serde(default)]
    pub instants_in_turn_steps: bool,
    #[serde(default)]
    pub collect_after_moving: bool,
    #[serde(default)]
    pub saucers_strike_at_once: bool,
    #[serde(default)]
    pub hunter_named_in_defeat: bool,
    /// Option (rules version 6, review17 S1): a Saucer in the crosshairs
    /// holds students on its tile as every alien does (Turn.Move.Alien).
    #[serde(default)]
    pub saucers_hold_students: bool,
    /// Assumption 14 (rules version 6, review18 S2): a gang whose last
    /// student dies in its own turn is passed over to the Alien turn that
    /// ends it, whatever the step. Off (the default) for a battle started
    /// under an older version, whose gang then finished the steps of that
    /// turn with nobody on the board (`Saucers::setup_recorded`).
    #[serde(default)]
    pub pass_over_lost_gangs: bool,
    pub difficulty: u8,
    pub missions_to_win: u8,
    /// The youngest player, who starts.
    pub first: u8,
    /// Row by row from A1 (empty before the deal).
    pub board: Vec<Tile>,
    pub seats: Vec<Seat>,
    pub humans: Vec<Human>,
    pub aliens: Vec<Alien>,
    pub next_alien: u32,
    /// The Human deck, top last.
    pub deck: Vec<u16>,
    pub discard: Vec<u16>,
    /// The Alien deck (indices into [`Content::aliens`]), top last.
    pub alien_deck: Vec<u16>,
    pub alien_drawn: Vec<u16>,
    /// The Task Force missions left, top last.
    pub mission_pile: Vec<u16>,
    pub turn: u32,
    pub current: u8,
    pub phase: Phase,
    /// Students lost to the Defeat step this turn, per tile.
    pub losses: Vec<(Pos, u8)>,
    /// Cards a seat must discard now (seat, how many): hits of another gang,
    /// or a hand over its size after Rat Nest.
    pub owed: Vec<(u8, u8)>,
    pub over: Option<End>,
    /// A position file laid over the deal, if the game started from one.
    #[serde(default)]
    pub preset: Option<super::position::Preset>,
    /// A swap that takes from another seat, waiting for its answer (rules
    /// version 4, assumption 18: hands hidden or Gang Warfare).
    #[serde(default)]
    pub offer: Option<Offer>,
}

/// A swap offered to another seat (Turn.Swap, assumption 18): `from`'s
/// student `human` gives `give` and `give_cards` for `take` and
/// `take_cards`, if `to` agrees. The cards taken are named by number and
/// not checked against the hidden hand: only `to` knows whether it holds
/// them, and its answer (a decline) says nothing of why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    pub from: u8,
    pub to: u8,
    pub human: u16,
    pub give: Tokens,
    pub give_cards: Vec<u16>,
    pub take: Tokens,
    pub take_cards: Vec<u16>,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaucersEvent {
    /// The opening: the tiles laid out, the Human deck dealt (events set
    /// aside and shuffled back), the Alien deck built and shuffled, a
    /// mission dealt to each player, the starting tile of each player.
    Dealt {
        board: Vec<u16>,
        hands: Vec<Vec<u16>>,
        deck: Vec<u16>,
        alien_deck: Vec<u16>,
        missions: Vec<u16>,
        mission_pile: Vec<u16>,
        starts: Vec<Pos>,
        /// Hands open to every seat (the co-operative default).
        open: bool,
        /// Missions kept secret (Gang Warfare).
        secret: bool,
    },
    /// A position file laid over the deal: tiles searched and destroyed,
    /// aliens placed, students moved.
    Positioned {
        searched: Vec<Pos>,
        destroyed: Vec<Pos>,
        aliens: Vec<Alien>,
        students: Vec<(u16, Pos)>,
    },
    /// A mission given to a student.
    MissionAssigned {
        seat: u8,
        human: u16,
        mission: u16,
        secret: bool,
    },
    /// A seat's turn begins.
    TurnBegan {
        seat: u8,
    },
    /// The discard pile shuffled into a new Human deck.
    Reshuffled {
        deck: Vec<u16>,
    },
    /// A card drawn into a hand.
    Drew {
        seat: u8,
        card: u16,
        open: bool,
    },
    /// An Event card drawn, resolved at once.
    EventDrawn {
        seat: u8,
        card: u16,
    },
    PhaseChanged {
        phase: Phase,
    },
    /// A student used an action.
    ActionUsed {
        human: u16,
    },
    /// A card played from a hand, paid for.
    CardPlayed {
        seat: u8,
        card: u16,
        paid: Tokens,
    },
    /// A card discarded from a hand.
    Discarded {
        seat: u8,
        card: u16,
    },
    Moved {
        human: u16,
        path: Vec<Pos>,
    },
    /// Dice rolled (for an attack or CPR) and the hits they score.
    Rolled {
        dice: Vec<u8>,
        hits: u8,
    },
    Damaged {
        alien: u32,
        hits: u8,
    },
    /// An alien defeated, credited to a seat.
    AlienKilled {
        alien: u32,
        by: Option<u8>,
    },
    /// A gang hit in Gang Warfare: it loses this many cards (its choice).
    HandHit {
        seat: u8,
        cards: u8,
    },
    Searched {
        at: Pos,
    },
    AlienCardDrawn {
        card: u16,
    },
    AlienPlaced {
        alien: Alien,
    },
    /// Scouts and Commanders that moved.
    AliensMoved {
        dir: Dir,
        moves: Vec<(u32, Pos)>,
    },
    /// A Saucer Strike: the tile and everything on it destroyed.
    SaucerStruck {
        alien: u32,
        at: Pos,
    },
    HumanKilled {
        human: u16,
    },
    /// A Nine Lives student saved by CPR.
    Revived {
        human: u16,
    },
    /// One student of the Defeat step counted on a tile.
    LossCounted {
        at: Pos,
    },
    Swapped {
        from: u8,
        to: u8,
        give: Tokens,
        give_cards: Vec<u16>,
        take: Tokens,
        take_cards: Vec<u16>,
        open: bool,
    },
    /// Tokens gained and lost by a seat.
    Tokens {
        seat: u8,
        gained: Tokens,
        lost: Tokens,
    },
    /// Kills traded for alien tokens.
    KillsTraded {
        seat: u8,
        kills: u16,
    },
    /// A mission forgotten (a Commander), lost with its student, or made
    /// impossible (its building destroyed): back under the pile.
    MissionLost {
        human: u16,
        mission: u16,
        secret: bool,
    },
    MissionCompleted {
        seat: u8,
        human: u16,
        mission: u16,
    },
    /// Every alien's hit points return.
    Healed,
    Ended(End),
    /// The rest of a position file laid over the deal (rules version 2):
    /// the parts it sets, as they stand after it.
    Overlaid(Box<Overlay>),
    /// A swap offered to another seat, waiting for its answer (rules
    /// version 4).
    Offered(Offer),
    /// The seat offered a swap answered (an accepted one is `Swapped` next).
    Answered {
        from: u8,
        to: u8,
        accept: bool,
    },
    /// The seat that offered a swap withdrew it before its answer (rules
    /// version 5): nothing moves; the seats only, never what was offered.
    Withdrawn {
        from: u8,
        to: u8,
    },
}

/// A position file's hands, decks, supplies, students and turn, laid over
/// the deal ([`SaucersEvent::Overlaid`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Overlay {
    pub board: Vec<Tile>,
    pub hands: Vec<Vec<u16>>,
    pub tokens: Vec<Tokens>,
    /// Per seat: kills not yet traded, kills in all.
    pub kills: Vec<(u16, u32)>,
    pub deck: Vec<u16>,
    pub discard: Vec<u16>,
    pub alien_deck: Vec<u16>,
    pub mission_pile: Vec<u16>,
    pub unassigned: Vec<Option<u16>>,
    /// Per student: its seat, alive, actions left, mission.
    pub humans: Vec<(u8, bool, u8, Option<u16>)>,
    /// Whose turn and its step (the setup's mission-giving skipped).
    pub turn: Option<(u8, Phase)>,
    /// Hands open to every seat, missions secret (what a viewer may see).
    pub open: bool,
    pub secret: bool,
}

impl SaucersState {
    /// The living students of a seat.
    pub fn living(&self, seat: u8) -> impl Iterator<Item = (usize, &Human)> {
        self.humans
            .iter()
            .enumerate()
            .filter(move |(_, h)| h.alive && h.seat == seat)
    }

    pub fn any_alive(&self) -> bool {
        self.humans.iter().any(|h| h.alive)
    }

    /// The seat's maximum hand size: the hand sizes of its living students.
    pub fn hand_size(&self, seat: u8) -> usize {
        self.living(seat)
            .map(|(_, h)| usize::from(self.content.humans[h.def as usize].hand))
            .sum()
    }

    pub fn alien(&self, id: u32) -> Option<&Alien> {
        self.aliens.iter().find(|a| a.id == id)
    }

    /// Aliens on a tile that count in the Defeat step: every alien but a
    /// Saucer Strike, which is in the air (assumption 8).
    pub fn ground_aliens(&self, at: Pos) -> impl Iterator<Item = &Alien> {
        self.aliens
            .iter()
            .filter(move |a| a.at == at && a.kind != AlienKind::Saucer)
    }

    /// Whether an alien on the tile holds students there (Turn.Move.Alien:
    /// none leaves it, none passes through it): a ground alien, and with
    /// option `saucers_hold_students` a Saucer as well (assumption 8).
    pub fn holds(&self, at: Pos) -> bool {
        self.aliens
            .iter()
            .any(|a| a.at == at && (a.kind != AlienKind::Saucer || self.saucers_hold_students))
    }

    pub fn gang_of(&self, seat: u8) -> &super::data::GangDef {
        &self.content.gangs[self.seats[seat as usize].gang as usize]
    }

    pub fn human_name(&self, h: usize) -> &str {
        &self.content.humans[self.humans[h].def as usize].name
    }

    pub fn missions_completed(&self) -> usize {
        self.seats.iter().map(|s| s.missions_done.len()).sum()
    }
}

fn remove_one(v: &mut Vec<u16>, card: u16) {
    if let Some(i) = v.iter().position(|&c| c == card) {
        v.remove(i);
    } else if let Some(i) = v.iter().position(|&c| c == HIDDEN) {
        v.remove(i);
    }
}

/// Apply one event.
pub fn apply(st: &mut SaucersState, e: &SaucersEvent) {
    use SaucersEvent as E;
    match e {
        E::Dealt {
            board,
            hands,
            deck,
            alien_deck,
            missions,
            mission_pile,
            starts,
            ..
        } => {
            st.board = board
                .iter()
                .map(|&def| Tile {
                    def,
                    searched: false,
                    destroyed: false,
                })
                .collect();
            for (i, s) in st.seats.iter_mut().enumerate() {
                s.hand = hands.get(i).cloned().unwrap_or_default();
                s.unassigned = missions.get(i).copied();
            }
            for h in &mut st.humans {
                h.at = starts.get(h.seat as usize).copied().unwrap_or(0);
            }
            st.deck = deck.clone();
            st.alien_deck = alien_deck.clone();
            st.mission_pile = mission_pile.clone();
            st.phase = Phase::Assign;
        }
        E::Positioned {
            searched,
            destroyed,
            aliens,
            students,
        } => {
            for &p in searched {
                st.board[p as usize].searched = true;
            }
            for &p in destroyed {
                st.board[p as usize].destroyed = true;
            }
            for a in aliens {
                st.next_alien = st.next_alien.max(a.id + 1);
                st.aliens.push(a.clone());
            }
            for &(h, p) in students {
                st.humans[h as usize].at = p;
            }
        }
        E::MissionAssigned {
            seat,
            human,
            mission,
            ..
        } => {
            let s = &mut st.seats[*seat as usize];
            if s.unassigned.is_some() {
                s.unassigned = None;
            } else if let Some(i) = st.mission_pile.iter().rposition(|&m| m == *mission) {
                st.mission_pile.remove(i);
            } else {
                st.mission_pile.pop();
            }
            if let Some(h) = st.humans.get_mut(*human as usize) {
                h.mission = Some(*mission);
            }
        }
        E::TurnBegan { seat } => {
            st.current = *seat;
            st.turn += 1;
            st.phase = Phase::Draw;
            st.losses.clear();
            for h in &mut st.humans {
                h.actions = if h.seat == *seat && h.alive { 2 } else { 0 };
                h.moved = false;
            }
        }
        E::Reshuffled { deck } => {
            st.deck = deck.clone();
            st.discard.clear();
        }
        E::Drew { seat, card, .. } => {
            st.deck.pop();
            st.seats[*seat as usize].hand.push(*card);
        }
        E::EventDrawn { card, .. } => {
            st.deck.pop();
            st.discard.push(*card);
        }
        E::PhaseChanged { phase } => {
            st.phase = *phase;
            if *phase == Phase::Defeat {
                st.losses.clear();
            }
        }
        E::ActionUsed { human } => {
            let h = &mut st.humans[*human as usize];
            h.actions = h.actions.saturating_sub(1);
        }
        E::CardPlayed { seat, card, paid } => {
            let s = &mut st.seats[*seat as usize];
            remove_one(&mut s.hand, *card);
            s.tokens.sub(paid);
            st.discard.push(*card);
        }
        E::Discarded { seat, card } => {
            remove_one(&mut st.seats[*seat as usize].hand, *card);
            st.discard.push(*card);
            if let Some(i) = st.owed.iter().position(|(s, _)| s == seat) {
                st.owed[i].1 = st.owed[i].1.saturating_sub(1);
                if st.owed[i].1 == 0 || st.seats[*seat as usize].hand.is_empty() {
                    st.owed.remove(i);
                }
            }
        }
        E::Moved { human, path } => {
            if let Some(&last) = path.last() {
                st.humans[*human as usize].at = last;
                st.humans[*human as usize].moved = true;
            }
        }
        E::Rolled { .. } | E::Revived { .. } => {}
        E::Damaged { alien, hits } => {
            if let Some(a) = st.aliens.iter_mut().find(|a| a.id == *alien) {
                a.damage = a.damage.saturating_add(*hits);
            }
        }
        E::AlienKilled { alien, by } => {
            st.aliens.retain(|a| a.id != *alien);
            if let Some(s) = by {
                let s = &mut st.seats[*s as usize];
                s.kills += 1;
                s.kills_pending += 1;
            }
        }
        E::HandHit { seat, cards } => {
            if *cards > 0 {
                st.owed.push((*seat, *cards));
            }
        }
        E::Searched { at } => st.board[*at as usize].searched = true,
        E::AlienCardDrawn { card } => {
            if let Some(i) = st.alien_deck.iter().rposition(|&c| c == *card) {
                st.alien_deck.remove(i);
            } else {
                st.alien_deck.pop();
            }
            st.alien_drawn.push(*card);
        }
        E::AlienPlaced { alien } => {
            st.next_alien = st.next_alien.max(alien.id + 1);
            st.aliens.push(alien.clone());
        }
        E::AliensMoved { moves, .. } => {
            for (id, to) in moves {
                if let Some(a) = st.aliens.iter_mut().find(|a| a.id == *id) {
                    a.at = *to;
                }
            }
        }
        E::SaucerStruck { at, .. } => {
            st.board[*at as usize].destroyed = true;
            st.aliens.retain(|a| a.at != *at);
            for h in &mut st.humans {
                if h.alive && h.at == *at {
                    h.alive = false;
                    h.actions = 0;
                }
            }
        }
        E::HumanKilled { human } => {
            let h = &mut st.humans[*human as usize];
            h.alive = false;
            h.actions = 0;
        }
        E::LossCounted { at } => match st.losses.iter_mut().find(|(p, _)| p == at) {
            Some(l) => l.1 += 1,
            None => st.losses.push((*at, 1)),
        },
        E::Swapped {
            from,
            to,
            give,
            give_cards,
            take,
            take_cards,
            ..
        } => {
            let (f, t) = (*from as usize, *to as usize);
            st.seats[f].tokens.sub(give);
            st.seats[t].tokens.add(give);
            st.seats[t].tokens.sub(take);
            st.seats[f].tokens.add(take);
            for &c in give_cards {
                remove_one(&mut st.seats[f].hand, c);
                st.seats[t].hand.push(c);
            }
            for &c in take_cards {
                remove_one(&mut st.seats[t].hand, c);
                st.seats[f].hand.push(c);
            }
        }
        E::Tokens { seat, gained, lost } => {
            let s = &mut st.seats[*seat as usize];
            s.tokens.add(gained);
            s.tokens.sub(lost);
        }
        E::KillsTraded { seat, kills } => {
            let s = &mut st.seats[*seat as usize];
            s.kills_pending = s.kills_pending.saturating_sub(*kills);
            s.tokens.alien = s.tokens.alien.saturating_add(*kills);
        }
        E::MissionLost { human, mission, .. } => {
            st.humans[*human as usize].mission = None;
            st.mission_pile.insert(0, *mission);
        }
        E::MissionCompleted {
            seat,
            human,
            mission,
        } => {
            st.humans[*human as usize].mission = None;
            st.seats[*seat as usize].missions_done.push(*mission);
        }
        E::Healed => {
            for a in &mut st.aliens {
                a.damage = 0;
            }
        }
        E::Offered(o) => st.offer = Some(o.clone()),
        E::Answered { .. } | E::Withdrawn { .. } => st.offer = None,
        E::Ended(end) => {
            st.over = Some(end.clone());
            st.phase = Phase::Over;
        }
        E::Overlaid(o) => {
            st.board = o.board.clone();
            for (i, s) in st.seats.iter_mut().enumerate() {
                if let Some(h) = o.hands.get(i) {
                    s.hand = h.clone();
                }
                if let Some(t) = o.tokens.get(i) {
                    s.tokens = *t;
                }
                if let Some(&(pending, all)) = o.kills.get(i) {
                    s.kills_pending = pending;
                    s.kills = all;
                }
                if let Some(&u) = o.unassigned.get(i) {
                    s.unassigned = u;
                }
            }
            st.deck = o.deck.clone();
            st.discard = o.discard.clone();
            st.alien_deck = o.alien_deck.clone();
            st.mission_pile = o.mission_pile.clone();
            for (h, &(_, alive, actions, mission)) in st.humans.iter_mut().zip(&o.humans) {
                h.alive = alive;
                h.actions = actions;
                h.mission = mission;
            }
            if let Some((seat, phase)) = o.turn {
                st.current = seat;
                st.phase = phase;
                st.turn += 1;
                st.losses.clear();
            }
        }
    }
}
