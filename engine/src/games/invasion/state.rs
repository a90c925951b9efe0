//! The state of an Alien Invasion battle, its events and `apply`.
//!
//! Groups and models live in vectors indexed by their number (never hash
//! maps: the state is hashed). Positions are optional: a battle played at a
//! real table records what the players declare instead (principle: declared
//! facts, marked as such in the log).

use serde::{Deserialize, Serialize};

use super::model::{Cover, Faction, GroupRole, ModelType, Point, Scenario};

/// A group's number in the battle (its index in [`InvasionState::groups`]).
pub type GroupId = u16;

/// The kinds of Action card ("Action cards").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    Single,
    Double,
    Triple,
    /// A Special Event card (a Joker in a deck of playing cards).
    Special,
}

impl CardKind {
    /// The actions the card gives its faction.
    pub fn actions(self) -> u8 {
        match self {
            CardKind::Single => 1,
            CardKind::Double => 2,
            CardKind::Triple => 3,
            CardKind::Special => 0,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            CardKind::Single => "Single",
            CardKind::Double => "Double",
            CardKind::Triple => "Triple",
            CardKind::Special => "Special Event",
        }
    }
}

/// One Action card: a faction's (its seat) or a Special Event card (no seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Card {
    pub seat: Option<u8>,
    pub kind: CardKind,
}

/// Where a group is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// On the table.
    Table,
    /// Not arrived yet (Clean Up teams before a Special Event card).
    Reserve,
    /// Below the table: a tunnelling Burrower, or a group in the sewers. The
    /// point is where it went down or last moved to (when positions are kept).
    Below,
    /// Carried by a Burrower (a Spug squad), this group.
    Carried(GroupId),
    /// A helicopter or other VTOL craft in the air ("Vehicle movement": "use
    /// an action to take off, another action to travel anywhere and a third
    /// action to land"); its positions are kept. Assumed: out of the fight
    /// while in the air (it neither shoots nor is shot, blocks no line of
    /// sight and cannot be contacted).
    Air,
    /// Every figure is dead.
    Gone,
}

/// One figure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Model {
    /// Stable id, e.g. `unit-s1-3` (an [`crate::Ident`]: a state's clone
    /// copies a pointer, not a string; it encodes as the `String` did).
    pub id: crate::Ident,
    /// Its name in the log ("Sgt Benton" when the campaign names it).
    pub name: crate::Ident,
    /// Its model type id in the faction file.
    pub kind: crate::Ident,
    pub at: Option<Point>,
    pub alive: bool,
    /// The group it was deployed in, while it fights in another one of its
    /// faction (reinforcements merged in hand-to-hand); it re-forms there
    /// when the fight is over.
    pub origin: Option<GroupId>,
    /// What its campaign skills add (none for a figure with no roster).
    pub bonus: crate::campaign::skills::Bonuses,
    /// Enemy figures credited to it (rules version 5): each kill goes to
    /// the figures whose dice made it ([`super::rules::split_credit`]).
    #[serde(default)]
    pub kills: u32,
}

/// A group of figures that acts together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub seat: u8,
    pub name: String,
    pub role: GroupRole,
    pub models: Vec<Model>,
    pub place: Place,
    /// Where it is below the table (tunnel or sewer), when positions are kept.
    pub below_at: Option<Point>,
    /// Actions spent climbing out of the sewers (two surface it).
    pub climbing: u8,
    /// The melee it is locked in.
    pub locked: Option<u16>,
    /// The cover class the players declared for it (a battle at a real table).
    pub declared_cover: Option<Cover>,
    /// Study successes when a Clean Up section arrived: its dice per man are
    /// this + 1 for the rest of the battle.
    pub arrival_successes: u8,
    /// Enemy figures it has killed.
    pub kills: u32,
    /// A ground vehicle's facing ("Vehicle movement"), in whole degrees
    /// clockwise on the board from the +x direction (0 faces the right-hand
    /// edge, 90 the bottom edge, as `y` grows down the table); `None` for
    /// every group that is not a ground vehicle.
    #[serde(default)]
    pub facing: Option<i32>,
}

impl Group {
    pub fn alive(&self) -> impl Iterator<Item = &Model> {
        self.models.iter().filter(|m| m.alive)
    }

    pub fn alive_count(&self) -> usize {
        self.alive().count()
    }

    /// The positions of its living figures (those that have one).
    pub fn points(&self) -> Vec<Point> {
        self.alive().filter_map(|m| m.at).collect()
    }

    /// Every living figure has a position.
    pub fn placed(&self) -> bool {
        self.alive().all(|m| m.at.is_some())
    }

    pub fn on_table(&self) -> bool {
        self.place == Place::Table && self.alive_count() > 0
    }
}

/// A hand-to-hand fight ("Hand-to-hand combat").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Melee {
    pub id: u16,
    /// The groups locked in it (one per faction once reinforcements merge).
    pub groups: Vec<GroupId>,
    /// A group defending a terrain feature, with the cover it gives.
    pub defender: Option<(GroupId, Cover)>,
    /// Below the table (the sewers' sudden melee).
    pub below: bool,
}

/// Something the rules wait for before the card goes on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pending {
    /// The target's player chooses `count` casualties of `group`.
    Casualties {
        seat: u8,
        group: GroupId,
        count: u32,
        /// The figures it must choose among (caught in a blast); empty: any.
        among: Vec<String>,
        /// A group whose figures have different kill scores: what is left
        /// of the total to pay for casualties, each at its own kill score
        /// (then `count` is the most it can still pay for).
        budget: Option<Budget>,
    },
    /// A faction in a melee rolls its close-combat dice (`dice`, counted
    /// before anyone was removed: "Casualties that have not had a chance to
    /// make their own attack rolls should be placed nearby").
    Strike {
        melee: u16,
        seat: u8,
        dice: u32,
        /// What the faction's figures' campaign skills add to its total,
        /// counted with the dice.
        bonus: u32,
    },
    /// These melees are resolved in turn (the end of a Double or Triple
    /// card, or a Special Event card below the table).
    ResolveMelees { left: Vec<u16> },
    /// A melee whose strikes are done: re-form, take the ground, fall back.
    Aftermath { melee: u16 },
    /// The winners of a melee may occupy the ground their beaten enemy was
    /// defending (`ground`: where its figures stood; `cover`: what it gave).
    Occupy {
        melee: u16,
        seat: u8,
        group: GroupId,
        ground: Vec<Point>,
        cover: Cover,
    },
    /// Laying in Wait: `seat`'s waiting `group` may spring its ambush on
    /// `target`, out of turn.
    Ambush {
        seat: u8,
        group: GroupId,
        target: GroupId,
    },
    /// Rules version 6: `seat` chooses a point for `group` (`choose_point`),
    /// what for in `why` (the losers of a melee below the table surface at
    /// a point of their choosing).
    Point {
        seat: u8,
        group: GroupId,
        why: super::choose::PointFor,
    },
}

/// What is left of a total against a group whose figures die on different
/// kill scores, and whom the kills are credited to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    pub total: u32,
    pub cover: Cover,
    pub by: u8,
    pub by_group: Option<GroupId>,
}

/// The whole state of a battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InvasionState {
    pub scenario: crate::shared::Shared<Scenario>,
    /// One faction per seat.
    pub factions: crate::shared::Shared<Vec<Faction>>,
    /// Played at a real table: positions optional, facts declared.
    pub real_table: bool,
    /// The sewers rule ("Humans (and others) in the sewers").
    pub sewers: bool,
    /// Each group shared between the states of a battle until a command
    /// changes it (copy on write): a command clones and re-encodes only the
    /// groups it touches. Encodes exactly as a plain `Group`.
    pub groups: Vec<crate::shared::Shared<Group>>,
    /// The Action deck, face down (top last); empty before the first draw.
    pub deck: Vec<Card>,
    pub discard: Vec<Card>,
    /// Whether the deck has been made up and shuffled.
    pub shuffled: bool,
    /// This round's cards, in the order drawn.
    pub drawn: Vec<Card>,
    /// The card being played (an index into `drawn`).
    pub current: usize,
    /// Actions spent on the current card, per group.
    pub spent: Vec<(GroupId, u8)>,
    /// Uncontrolled Mites moved on this card (a Spug Triple card must).
    pub mites_moved: bool,
    /// Groups that moved on the current card (Super Agility).
    pub moved: Vec<GroupId>,
    pub round: u32,
    pub melees: Vec<Melee>,
    pub next_melee: u16,
    pub pending: Vec<Pending>,
    /// Figures killed, per seat (kills made).
    pub kills: Vec<u32>,
    /// Alien species killed at least once (the MiB may study them), in order.
    pub killed_species: Vec<crate::Ident>,
    /// Species the MiB have studied with success ("once per different alien").
    pub studied: Vec<crate::Ident>,
    /// Special actions achieved: (seat, id).
    pub achieved: Vec<(u8, String)>,
    /// Spug holes on the table.
    pub holes: Vec<Point>,
    /// Spug holes a faction may still dig: (seat, count).
    pub holes_left: Vec<(u8, u8)>,
    pub over: Option<Ending>,
    /// The Advanced Invasion Earth modules of the battle and their state.
    pub advanced: super::advanced::Advanced,
    /// Rules version 5: the MiB's "how many dice" rolled for a melee being
    /// resolved, per group: (melee, group, dice per operative). Their close
    /// combat dice "are the same as for shooting".
    #[serde(default)]
    pub melee_how_many: Vec<(u16, GroupId, u32)>,
    /// Rules version 5: the figures alive when the melee being resolved
    /// began its resolution (they all strike, and share its kills).
    #[serde(default)]
    pub fighters: Vec<crate::Ident>,
    /// Rules version 5, "Sighting a Target": where each figure that moved on
    /// the current card stood when the card began ("certain criteria must
    /// be met at the beginning of the active player's turn"); cleared when
    /// the card is done. Since rules version 9 also each figure of a group
    /// on the table that lost a figure on the card, so a figure killed on
    /// the card still stands where it blocked a line then.
    #[serde(default)]
    pub card_start: Vec<(crate::Ident, Point)>,
    /// A battle option (`InvasionConfig::graded_templates`): Suppression
    /// Fire's templates 3" and 5" across instead of the one 6" Blast.
    #[serde(default)]
    pub graded_templates: bool,
    /// A battle option (`InvasionConfig::assumed_profiles`): Xenolog's
    /// assumed profiles; here it is read for Super Agility's bonus (the
    /// assumed profile flags are already on the model types).
    #[serde(default)]
    pub assumed_profiles: bool,
    /// A battle option (`InvasionConfig::everyone_sneaks`): a group whose
    /// models cannot sneak (`no_sneak`, the Daleks) still moves half when
    /// only a sneak is allowed.
    #[serde(default)]
    pub everyone_sneaks: bool,
    /// A battle option (`InvasionConfig::cover_at_cover_score`):
    /// suppressing cover is measured from the models' kill score in their
    /// cover, not the open score of the item of cover.
    #[serde(default)]
    pub cover_at_cover_score: bool,
    /// A battle option (`InvasionConfig::mite_blast_template`, rules
    /// version 6): a Mite's blast is the game's 'Blast' area, a six inch
    /// diameter circle, instead of the Mites' own "6 inch radius".
    #[serde(default)]
    pub mite_blast_template: bool,
    /// A battle option (`InvasionConfig::game_chooses_retreats`, rules
    /// version 6): groups fall back after a melee straight away from the
    /// enemy, as Xenolog chose for them until version 5, instead of the
    /// way their player chooses.
    #[serde(default)]
    pub game_chooses_retreats: bool,
    /// Rules version 8, "Sighting a Target": the figures that were off the
    /// table when the current card began (below it, in reserve, carried by
    /// a group that was off it) and came onto it on the card: they stood
    /// nowhere then, so they had sighted nothing and blocked no line;
    /// cleared when the card is done.
    #[serde(default)]
    pub card_absent: Vec<crate::Ident>,
}

/// How the battle ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub winners: Vec<u8>,
    pub summary: String,
}

/// What happened, one fact at a time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvasionEvent {
    /// The deck was made up and shuffled (or the discard pile shuffled into it).
    Shuffled { deck: Vec<Card> },
    /// A round's cards were drawn and announced.
    Drew { round: u32, cards: Vec<Card> },
    /// The card's actions are over (used or given up).
    CardDone,
    /// A group spent an action.
    Spent { group: GroupId },
    /// A group moved; its figures now stand here (`None`: at a real table).
    Moved {
        group: GroupId,
        to: Vec<Option<Point>>,
        /// The figure measured, an index into `to` (the rest were placed
        /// next to it).
        #[serde(default)]
        lead: usize,
        /// Why the move stopped short, in words.
        stopped: Option<String>,
        /// The cover class declared for it at a real table.
        declared_cover: Option<Cover>,
        /// A ground vehicle's turn at the end of its move: its new facing
        /// in degrees (0-359), `None` when it keeps its facing.
        #[serde(default)]
        face: Option<i32>,
    },
    /// A shooting action or a linked volley was rolled.
    Shot {
        shooters: Vec<GroupId>,
        target: GroupId,
        dice: Vec<u8>,
        /// Dice rolled for the MiB's "how many dice" roll, if any.
        how_many: Vec<u8>,
        total: u32,
        cover: Cover,
        kill_score: u32,
        kills: u32,
        /// Facts the players declared instead of the table's geometry.
        declared: Vec<String>,
    },
    /// Dice of a shot into a melee or a strike shared among its factions.
    Shared {
        group: GroupId,
        dice: Vec<u8>,
        total: u32,
        kill_score: u32,
        kills: u32,
    },
    /// The target's player must choose this many casualties.
    MustRemove {
        seat: u8,
        group: GroupId,
        count: u32,
        among: Vec<String>,
    },
    /// A figure was removed as a casualty.
    Killed { group: GroupId, model: String },
    /// Kills credited to a seat and its group.
    Credited {
        seat: u8,
        group: Option<GroupId>,
        kills: u32,
    },
    /// An alien species was killed for the first time.
    SpeciesKilled { species: String },
    /// Groups locked in hand-to-hand.
    Locked {
        melee: u16,
        groups: Vec<GroupId>,
        defender: Option<(GroupId, Cover)>,
        below: bool,
    },
    /// Reinforcements joined a group of their own faction in a melee.
    Merged { from: GroupId, into: GroupId },
    /// A melee's resolution begins: strikes in this order.
    Resolving { melee: u16, strikes: Vec<(u8, u32)> },
    /// These melees are to be resolved now, in this order.
    MeleesDue { melees: Vec<u16> },
    /// A faction struck in a melee.
    Struck {
        melee: u16,
        seat: u8,
        target: u8,
        dice: Vec<u8>,
    },
    /// A melee is over; these groups are free again.
    Unlocked { melee: u16 },
    /// A melee goes on (Spugs fight to the death).
    FightsOn { melee: u16 },
    /// A special action's roll.
    Attempted {
        group: GroupId,
        action: String,
        dice: Vec<u8>,
        success: bool,
    },
    /// The MiB studied: dice rolled, species now studied.
    Studied { dice: Vec<u8>, species: Vec<String> },
    /// A group went below the table (tunnel down, into the sewers).
    WentBelow { group: GroupId, at: Option<Point> },
    /// A group moved below the table.
    MovedBelow { group: GroupId, to: Option<Point> },
    /// A group climbed one step of the two it takes to leave the sewers.
    Climbed { group: GroupId },
    /// A group came up onto the table.
    Surfaced {
        group: GroupId,
        to: Vec<Option<Point>>,
    },
    /// A VTOL craft took off.
    TookOff { group: GroupId },
    /// A VTOL craft landed where it is.
    Landed { group: GroupId },
    /// A Spug squad was carried by a Burrower.
    Boarded { group: GroupId, worm: GroupId },
    /// A Spug hole was dug (one fewer left to build).
    HoleDug { seat: u8, at: Point },
    /// A Spug hole was closed.
    HoleClosed { at: Point },
    /// A Mite blew up.
    Detonated {
        group: GroupId,
        model: String,
        dice: Vec<u8>,
    },
    /// Clean Up teams arrived.
    Arrived {
        group: GroupId,
        to: Vec<Option<Point>>,
        successes: u8,
    },
    /// A Special Event card with nothing to set off.
    Nothing,
    /// The battle is over.
    Ended { winners: Vec<u8>, summary: String },
    // Rules version 2 (new variants go at the end: postcard numbers them).
    /// The target's player must choose casualties of a group whose figures
    /// die on different kill scores, paying for each at its own out of
    /// `total`; the kills are credited to `by` as they are chosen.
    MustPay {
        seat: u8,
        group: GroupId,
        total: u32,
        cover: Cover,
        among: Vec<String>,
        by: u8,
        by_group: Option<GroupId>,
    },
    /// Reinforcements merged in a melee went back to the groups they came
    /// from ("they will form suitable groups based on their organisation").
    Reformed { group: GroupId },
    /// The winners of a melee may occupy the ground their beaten enemy held.
    GroundOffered {
        melee: u16,
        group: GroupId,
        ground: Vec<Point>,
        cover: Cover,
    },
    /// Something new or odd that the players agreed to allow, with its
    /// Action roll (a D6 per figure, any 6 succeeds).
    Tried {
        group: GroupId,
        what: String,
        dice: Vec<u8>,
        success: bool,
    },
    // Rules version 3: Advanced Invasion Earth (rule text 001).
    /// A detachment's stupidity check: one die, `needs` or more passes.
    StupidityCheck { group: GroupId, needs: u8, roll: u8 },
    /// A model stricken by stupidity rolls on the stupidity table.
    Stricken {
        group: GroupId,
        model: u16,
        roll: u8,
        effect: super::advanced::StupidEffect,
    },
    /// "Stupidity is contagious": the roll, and the other models now stricken.
    Contagion {
        group: GroupId,
        roll: u8,
        models: Vec<u16>,
    },
    /// A stricken model tests whether it has recovered its senses.
    Recovery {
        group: GroupId,
        model: u16,
        roll: u8,
        recovered: bool,
    },
    /// A group facing a model that causes fear in it tests.
    FearTest {
        group: GroupId,
        of: GroupId,
        roll: u8,
        effect: super::advanced::FearEffect,
    },
    /// What a group must do on this card.
    Ordered {
        group: GroupId,
        order: super::advanced::Order,
        by: super::advanced::Module,
    },
    /// The group has done what it was made to do, or could not (why).
    OrderCarried {
        group: GroupId,
        note: Option<String>,
    },
    /// The checks at the start of the card are made.
    ChecksMade,
    /// A group ran off the table (AWOL), never to be seen again.
    Fled { group: GroupId },
    /// The modules' modifiers to the shot that follows, so much a die, in words.
    Modified { mods: Vec<(i32, String)> },
    /// "Suppression Fire": the roll against the score needed, and the
    /// groups pinned down (a strike's casualties follow as for a shot).
    Suppression {
        shooters: Vec<GroupId>,
        target: GroupId,
        at_cover: bool,
        cover: Cover,
        dice: Vec<u8>,
        how_many: Vec<u8>,
        total: u32,
        kill_score: u32,
        /// One "above" or "below": a point a die.
        step: u32,
        result: super::fire::SuppressResult,
        groups: Vec<GroupId>,
        kills: u32,
        declared: Vec<String>,
    },
    /// Observers relay a target's position to a group.
    Relayed {
        observers: Vec<GroupId>,
        to: GroupId,
        target: GroupId,
        declared: bool,
    },
    /// A group lays in wait (to fire, or to assault).
    LaidInWait { group: GroupId, assault: bool },
    /// A group stops laying in wait.
    StoodDown { group: GroupId },
    /// An enemy came into a waiting group's sight: its player is asked.
    AmbushDue {
        seat: u8,
        group: GroupId,
        target: GroupId,
    },
    /// The waiting group springs its ambush (its shot or charge follows),
    /// or lets the target pass (`sprung: false`).
    Sprung {
        group: GroupId,
        target: GroupId,
        sprung: bool,
        declared: bool,
    },
    /// "GRAPPLE": the grappler's side won the melee on its own card; the
    /// melee goes on, its victims held until the grappler's next card.
    Grappled {
        melee: u16,
        by: GroupId,
        score: u8,
        /// Kills made in this resolution: the grappler's side, the other.
        kills: (u32, u32),
    },
    /// A held group tries to escape the grapple at the start of its card.
    GrappleEscape {
        group: GroupId,
        melee: u16,
        roll: u8,
        needs: u8,
        escaped: bool,
    },
    /// A flying group's height changes (`None`: it has landed); `rest`: it
    /// lifted off or landed, and does nothing more on this card.
    Height {
        group: GroupId,
        height: Option<i32>,
        rest: bool,
    },
    /// "ADVANCED ASSAULT": the melee has a winner and does not break.
    AssaultWon {
        melee: u16,
        winner: u8,
        kills: (u32, u32),
    },
    /// The winner of an assault breaks off from the fight.
    BrokeOff { group: GroupId },
    /// A perception test.
    Perception {
        group: GroupId,
        target: GroupId,
        roll: u8,
        leader: bool,
        bonus: u8,
        needs: u8,
        perceived: bool,
    },
    // Rules version 5.
    /// "Resolving hand-to-hand combat": a MiB group's close-combat dice "are
    /// the same as for shooting": the D6 (one more a study success) rolled
    /// for how many dice each operative rolls in this melee.
    MeleeHowMany {
        melee: u16,
        group: GroupId,
        dice: Vec<u8>,
    },
    /// The kills just credited to a seat, figure by figure: (figure id,
    /// kills), split among the figures whose dice made them.
    ModelsCredited { kills: Vec<(String, u32)> },
    // Rules version 6.
    /// `seat` is asked to choose a point for `group` (`why`): the losers of
    /// a melee below the table surface at a point of their choosing.
    PointAsked {
        seat: u8,
        group: GroupId,
        why: super::choose::PointFor,
    },
}

impl InvasionState {
    pub fn faction(&self, seat: u8) -> &Faction {
        &self.factions[seat as usize]
    }

    pub fn group(&self, g: GroupId) -> &Group {
        &self.groups[g as usize]
    }

    pub fn model_type(&self, seat: u8, kind: &str) -> Option<&ModelType> {
        self.faction(seat).model(kind)
    }

    /// Where a figure stood when the current card began ("Sighting a
    /// Target": "at the beginning of the active player's turn"): where it
    /// was noted before it first moved on the card, nowhere if it came onto
    /// the table on the card, else where it stands.
    pub fn card_start_of(&self, m: &Model) -> Option<Point> {
        if self.card_absent.contains(&m.id) {
            return None;
        }
        self.card_start
            .iter()
            .find(|(id, _)| *id == m.id)
            .map(|(_, p)| *p)
            .or(m.at)
    }

    /// The card being played, if a round is under way.
    pub fn card(&self) -> Option<Card> {
        self.drawn.get(self.current).copied()
    }

    /// Actions the current card has left, counting Clean Up sections as one
    /// ("both sections get an action per action drawn").
    pub fn actions_left(&self) -> u8 {
        let Some(card) = self.card() else { return 0 };
        card.kind.actions().saturating_sub(self.actions_used())
    }

    /// Actions used on the current card.
    pub fn actions_used(&self) -> u8 {
        let mut line = 0u8;
        let mut clean_up = 0u8;
        for &(g, n) in &self.spent {
            if self.group(g).role == GroupRole::CleanUp {
                clean_up = clean_up.max(n);
            } else {
                line = line.saturating_add(n);
            }
        }
        line.saturating_add(clean_up)
    }

    /// Whether `group` may take one more action on the current card.
    pub fn may_act(&self, g: GroupId) -> bool {
        let group = self.group(g);
        let Some(card) = self.card() else {
            return false;
        };
        if card.seat != Some(group.seat) {
            return false;
        }
        // A group under a stupidity or fear order is out of its player's
        // hands (at a real table the players make its order's move or shot).
        match self.advanced.order(g) {
            Some(super::advanced::Order::Nothing) => return false,
            Some(_) if !self.real_table => return false,
            _ => {}
        }
        if group.role == GroupRole::CleanUp {
            // A Clean Up section may match the other section's actions for free.
            let mine = self.spent_by(g);
            let most = self
                .spent
                .iter()
                .filter(|(o, _)| self.group(*o).role == GroupRole::CleanUp)
                .map(|(_, n)| *n)
                .max()
                .unwrap_or(0);
            return mine < most || self.actions_left() > 0;
        }
        self.actions_left() > 0 || self.extra_action(g)
    }

    /// Lightening Action (a campaign skill): once per card, a group with
    /// such a figure may take one action more than the card gives.
    pub fn extra_action(&self, g: GroupId) -> bool {
        let Some(card) = self.card() else {
            return false;
        };
        self.group(g).alive().any(|m| m.bonus.extra_action)
            && self.actions_used() == card.kind.actions()
    }

    pub fn spent_by(&self, g: GroupId) -> u8 {
        self.spent
            .iter()
            .find(|(o, _)| *o == g)
            .map_or(0, |(_, n)| *n)
    }

    /// Whether the faction of `seat` still has figures in the battle (on the
    /// table, below it, carried, or to arrive).
    pub fn in_battle(&self, seat: u8) -> bool {
        self.groups
            .iter()
            .any(|g| g.seat == seat && g.alive_count() > 0 && g.place != Place::Reserve)
    }

    /// The living figures of `seat` on the table or below it.
    pub fn figures(&self, seat: u8) -> usize {
        self.groups
            .iter()
            .filter(|g| g.seat == seat && g.place != Place::Reserve)
            .map(|g| g.alive_count())
            .sum()
    }

    pub fn melee(&self, id: u16) -> Option<&Melee> {
        self.melees.iter().find(|m| m.id == id)
    }

    /// The Spug Mites of `seat` are uncontrolled: no Controller lives.
    pub fn mites_uncontrolled(&self, seat: u8) -> bool {
        let faction = self.faction(seat);
        let has_mites = self.groups.iter().any(|g| {
            g.seat == seat
                && g.alive()
                    .any(|m| faction.model(&m.kind).is_some_and(|t| t.mite))
        });
        let controller = self.groups.iter().any(|g| {
            g.seat == seat
                && g.place != Place::Gone
                && g.alive()
                    .any(|m| faction.model(&m.kind).is_some_and(|t| t.controller))
        });
        has_mites && !controller
    }

    /// Whether a group is made of Mites.
    pub fn is_mites(&self, g: GroupId) -> bool {
        let group = self.group(g);
        group.alive().next().is_some()
            && group
                .alive()
                .all(|m| self.model_type(group.seat, &m.kind).is_some_and(|t| t.mite))
    }

    /// Whether a group is a Burrower.
    pub fn is_worm(&self, g: GroupId) -> bool {
        let group = self.group(g);
        group.alive().next().is_some()
            && group.alive().all(|m| {
                self.model_type(group.seat, &m.kind)
                    .is_some_and(|t| t.mobility == super::model::Mobility::Burrow)
            })
    }
}

/// Apply one event. Never fails, never rolls.
pub fn apply(state: &mut InvasionState, event: &InvasionEvent) {
    use InvasionEvent as E;
    match event {
        E::Shuffled { deck } => {
            state.deck = deck.clone();
            state.discard.clear();
            state.shuffled = true;
        }
        E::Drew { round, cards } => {
            state.round = *round;
            // The drawn cards leave the deck from its top (its end). Each is
            // taken by what it is, so a deck a seat sees sorted (`hidden`)
            // folds to the same make-up as the deck in draw order.
            for card in cards {
                if let Some(i) = state.deck.iter().rposition(|c| c == card) {
                    state.deck.remove(i);
                }
            }
            state.drawn = cards.clone();
            state.current = 0;
            state.spent.clear();
            state.mites_moved = false;
            state.moved.clear();
            state.card_start.clear();
            state.card_absent.clear();
        }
        E::CardDone => {
            // Buildings and LOS: a group that let its own card pass without
            // firing has left the windows.
            if let Some(seat) = state.card().and_then(|c| c.seat) {
                let groups = &state.groups;
                let fired = &state.advanced.fired;
                state
                    .advanced
                    .at_windows
                    .retain(|g| groups[*g as usize].seat != seat || fired.contains(g));
            }
            state.advanced.fired.clear();
            state.advanced.grounded.clear();
            // "Targets which have been successful suppressed suffer ...
            // during their following turn": it ends with their card.
            let ends = super::fire::suppression_ends(state);
            let a = &mut state.advanced;
            a.suppressed.retain(|g| !ends.contains(g));
            a.relaying.clear();
            a.informed.clear();
            a.perceived.clear();
            a.unperceived.clear();
            if let Some(card) = state.card() {
                state.discard.push(card);
            }
            state.current += 1;
            state.spent.clear();
            state.mites_moved = false;
            state.advanced.orders.clear();
            // Rules version 5: "moved on the current card" (Super Agility)
            // and where the card began (Sighting a Target) end with it.
            state.moved.clear();
            state.card_start.clear();
            state.card_absent.clear();
        }
        E::Spent { group } => {
            if let Some(entry) = state.spent.iter_mut().find(|(g, _)| g == group) {
                entry.1 = entry.1.saturating_add(1);
            } else {
                state.spent.push((*group, 1));
            }
        }
        E::Moved {
            group,
            to,
            declared_cover,
            face,
            ..
        } => {
            note_card_start(state, *group);
            let g = &mut state.groups[*group as usize];
            let mut points = to.iter();
            for m in g.models.iter_mut().filter(|m| m.alive) {
                m.at = points.next().copied().flatten();
            }
            if !state.moved.contains(group) {
                state.moved.push(*group);
            }
            // Passengers getting out of a vehicle move out of it.
            if matches!(g.place, Place::Carried(_)) {
                g.place = Place::Table;
            }
            g.declared_cover = *declared_cover;
            if face.is_some() {
                g.facing = *face;
            }
            // Rules version 6: a fall back answers the group's choice of a way.
            state
                .pending
                .retain(|p| !matches!(p, Pending::Point { group: g, .. } if g == group));
            if state.is_mites(*group) && state.mites_uncontrolled(state.group(*group).seat) {
                state.mites_moved = true;
            }
            state.advanced.at_windows.retain(|g| g != group);
        }
        E::Shot { shooters, .. } => at_the_windows(state, shooters),
        E::Shared { .. } | E::Nothing => {}
        E::Attempted {
            group,
            action,
            success,
            ..
        } => {
            let seat = state.groups[*group as usize].seat;
            if *success
                && !state
                    .achieved
                    .iter()
                    .any(|(x, a)| *x == seat && a == action)
            {
                state.achieved.push((seat, action.clone()));
            }
        }
        E::MustRemove {
            seat,
            group,
            count,
            among,
        } => {
            state.pending.insert(
                0,
                Pending::Casualties {
                    seat: *seat,
                    group: *group,
                    count: *count,
                    among: among.clone(),
                    budget: None,
                },
            );
        }
        E::Killed { group, model } => {
            note_card_start_of_the_killed(state, *group);
            let dead = state.groups[*group as usize]
                .models
                .iter()
                .find(|m| m.id == *model)
                .cloned();
            let g = &mut state.groups[*group as usize];
            if let Some(m) = g.models.iter_mut().find(|m| m.id == *model) {
                m.alive = false;
            }
            if g.alive_count() == 0 {
                g.place = Place::Gone;
                g.locked = None;
            }
            // A choice among named figures (a blast) ends with the last of them.
            let mut among_spent = false;
            if let Some(Pending::Casualties { among, .. }) = state
                .pending
                .iter_mut()
                .find(|p| matches!(p, Pending::Casualties { group: pg, .. } if pg == group))
                && !among.is_empty()
            {
                among.retain(|m| m != model);
                among_spent = among.is_empty();
            }
            // One fewer casualty to choose.
            if let Some(i) = state
                .pending
                .iter()
                .position(|p| matches!(p, Pending::Casualties { group: pg, .. } if pg == group))
            {
                let seat = state.groups[*group as usize].seat;
                let paid = match &state.pending[i] {
                    Pending::Casualties {
                        budget: Some(budget),
                        among,
                        ..
                    } => {
                        // Paid at its own kill score; the choice goes on
                        // while what is left pays for another figure.
                        let cost = dead.as_ref().map_or(u32::MAX, |m| {
                            super::rules::model_cost(state, seat, m, budget.cover)
                        });
                        let total = budget.total.saturating_sub(cost);
                        let next = if among_spent {
                            0
                        } else {
                            affordable(state, *group, total, budget.cover, among)
                        };
                        Some((total, next))
                    }
                    _ => None,
                };
                let done = match &mut state.pending[i] {
                    Pending::Casualties {
                        count,
                        budget: Some(budget),
                        ..
                    } => {
                        let (total, next) = paid.unwrap_or((0, 0));
                        budget.total = total;
                        *count = next;
                        next == 0
                    }
                    Pending::Casualties { count, .. } => {
                        *count = count.saturating_sub(1);
                        *count == 0
                    }
                    _ => false,
                };
                if done || state.groups[*group as usize].alive_count() == 0 {
                    state.pending.remove(i);
                }
            }
            // A melee with one faction left is no longer a fight, unless its
            // resolution is under way (its aftermath re-forms the winners).
            for melee in &mut state.melees {
                melee
                    .groups
                    .retain(|&g| state.groups[g as usize].alive_count() > 0);
            }
            let resolving = |id: u16, pending: &[Pending]| {
                pending
                    .iter()
                    .any(|p| matches!(p, Pending::Aftermath { melee } if *melee == id))
            };
            let over: Vec<u16> = state
                .melees
                .iter()
                .filter(|m| {
                    let mut seats: Vec<u8> = m
                        .groups
                        .iter()
                        .map(|&g| state.groups[g as usize].seat)
                        .collect();
                    seats.sort_unstable();
                    seats.dedup();
                    seats.len() < 2 && !resolving(m.id, &state.pending)
                })
                .map(|m| m.id)
                .collect();
            for id in over {
                for g in &mut state.groups {
                    if g.locked == Some(id) {
                        g.locked = None;
                    }
                }
                state.melees.retain(|m| m.id != id);
                for p in &mut state.pending {
                    if let Pending::ResolveMelees { left } = p {
                        left.retain(|m| *m != id);
                    }
                }
            }
            finish_resolving(state);
        }
        E::Credited { seat, group, kills } => {
            state.kills[*seat as usize] += kills;
            if let Some(g) = group {
                state.groups[*g as usize].kills += kills;
                // Grapple: who is winning the melee being resolved.
                if let Some(m) = state.groups[*g as usize].locked
                    && (state.advanced.on(super::advanced::Module::Grapple)
                        || state.advanced.on(super::advanced::Module::AdvancedAssault))
                {
                    let mk = &mut state.advanced.melee_kills;
                    match mk.iter_mut().find(|(x, s, _)| *x == m && s == seat) {
                        Some(e) => e.2 += kills,
                        None => mk.push((m, *seat, *kills)),
                    }
                }
            }
        }
        E::SpeciesKilled { species } => {
            if !state.killed_species.iter().any(|k| k == species) {
                state
                    .killed_species
                    .push(crate::Ident::from(species.as_str()));
            }
        }
        E::Locked {
            melee,
            groups,
            defender,
            below,
        } => {
            if let Some(m) = state.melees.iter_mut().find(|m| m.id == *melee) {
                for g in groups {
                    if !m.groups.contains(g) {
                        m.groups.push(*g);
                    }
                }
                if m.defender.is_none() {
                    m.defender = *defender;
                }
            } else {
                state.melees.push(Melee {
                    id: *melee,
                    groups: groups.clone(),
                    defender: *defender,
                    below: *below,
                });
                state.next_melee = state.next_melee.max(melee + 1);
            }
            for g in groups {
                state.groups[*g as usize].locked = Some(*melee);
            }
        }
        E::Merged { from, into } => {
            let moved: Vec<Model> = state.groups[*from as usize]
                .models
                .iter()
                .filter(|m| m.alive)
                .map(|m| Model {
                    origin: m.origin.or(Some(*from)),
                    ..m.clone()
                })
                .collect();
            let src = &mut state.groups[*from as usize];
            src.models.retain(|m| !m.alive);
            src.place = Place::Gone;
            src.locked = None;
            state.groups[*into as usize].models.extend(moved);
            for m in &mut state.melees {
                m.groups.retain(|g| g != from);
            }
        }
        E::MeleesDue { melees } => state.pending.push(Pending::ResolveMelees {
            left: melees.clone(),
        }),
        E::Resolving { melee, strikes } => {
            state.fighters = state
                .melee(*melee)
                .map(|m| {
                    m.groups
                        .iter()
                        .flat_map(|&g| {
                            state
                                .group(g)
                                .alive()
                                .map(|x| crate::Ident::from(x.id.as_str()))
                        })
                        .collect()
                })
                .unwrap_or_default();
            state.advanced.melee_kills.retain(|(m, _, _)| m != melee);
            if let Some(i) = state
                .pending
                .iter()
                .position(|p| matches!(p, Pending::ResolveMelees { .. }))
            {
                if let Pending::ResolveMelees { left } = &mut state.pending[i] {
                    left.retain(|m| m != melee);
                }
                // Strikes of this melee come before the next melee's.
                let mut at = i;
                for &(seat, dice) in strikes {
                    // Campaign skills of the faction's figures in the fight,
                    // counted with its dice.
                    let bonus = state
                        .melee(*melee)
                        .map(|m| {
                            m.groups
                                .iter()
                                .filter(|&&g| state.group(g).seat == seat)
                                .map(|&g| super::rules::melee_bonus(state, g))
                                .sum()
                        })
                        .unwrap_or(0);
                    state.pending.insert(
                        at,
                        Pending::Strike {
                            melee: *melee,
                            seat,
                            dice,
                            bonus,
                        },
                    );
                    at += 1;
                }
                state
                    .pending
                    .insert(at, Pending::Aftermath { melee: *melee });
            }
        }
        E::Struck { melee, seat, .. } => {
            if let Some(i) = state.pending.iter().position(|p| {
                matches!(p, Pending::Strike { melee: m, seat: s, .. } if m == melee && s == seat)
            }) {
                state.pending.remove(i);
            }
        }
        E::ModelsCredited { kills } => {
            for (id, k) in kills {
                if let Some(m) = state
                    .groups
                    .iter_mut()
                    .flat_map(|g| g.models.iter_mut())
                    .find(|m| m.id == *id)
                {
                    m.kills += k;
                }
            }
        }
        E::PointAsked { seat, group, why } => {
            // Asked in turn, before anything else the queue waits for.
            let at = state
                .pending
                .iter()
                .take_while(|p| matches!(p, Pending::Point { .. }))
                .count();
            state.pending.insert(
                at,
                Pending::Point {
                    seat: *seat,
                    group: *group,
                    why: *why,
                },
            );
        }
        E::MeleeHowMany { melee, group, dice } => {
            let per = dice.iter().map(|&d| u32::from(d)).sum();
            state.melee_how_many.retain(|(_, g, _)| g != group);
            state.melee_how_many.push((*melee, *group, per));
        }
        E::Unlocked { melee } => {
            state.melee_how_many.retain(|(m, _, _)| m != melee);
            state.advanced.grapples.retain(|(m, _, _)| m != melee);
            state.advanced.assaults.retain(|(m, _)| m != melee);
            state.advanced.melee_kills.retain(|(m, _, _)| m != melee);
            for g in &mut state.groups {
                if g.locked == Some(*melee) {
                    g.locked = None;
                }
            }
            state.melees.retain(|m| m.id != *melee);
            state.pending.retain(|p| {
                *p != Pending::Aftermath { melee: *melee }
                    && !matches!(p, Pending::Occupy { melee: m, .. } if m == melee)
            });
            finish_resolving(state);
        }
        E::FightsOn { melee } => {
            state
                .pending
                .retain(|p| *p != Pending::Aftermath { melee: *melee });
            finish_resolving(state);
        }
        E::Studied { species, .. } => {
            for s in species {
                if !state.studied.iter().any(|k| k == s) {
                    state.studied.push(crate::Ident::from(s.as_str()));
                }
            }
        }
        E::WentBelow { group, at } => {
            note_card_start(state, *group);
            let g = &mut state.groups[*group as usize];
            g.place = Place::Below;
            g.below_at = *at;
            g.climbing = 0;
            for m in &mut g.models {
                m.at = None;
            }
        }
        E::MovedBelow { group, to } => {
            state.groups[*group as usize].below_at = *to;
        }
        E::Climbed { group } => state.groups[*group as usize].climbing += 1,
        E::Surfaced { group, to } | E::Arrived { group, to, .. } => {
            if let E::Arrived { successes, .. } = event {
                state.groups[*group as usize].arrival_successes = *successes;
            }
            // Rules version 6: a surfacing answers the group's choice of a point.
            state
                .pending
                .retain(|p| !matches!(p, Pending::Point { group: g, .. } if g == group));
            note_card_start(state, *group);
            let g = &mut state.groups[*group as usize];
            g.place = Place::Table;
            g.climbing = 0;
            g.below_at = None;
            let mut points = to.iter();
            for m in g.models.iter_mut().filter(|m| m.alive) {
                m.at = points.next().copied().flatten();
            }
        }
        E::TookOff { group } => state.groups[*group as usize].place = Place::Air,
        E::Landed { group } => state.groups[*group as usize].place = Place::Table,
        E::Boarded { group, worm } => {
            note_card_start(state, *group);
            let g = &mut state.groups[*group as usize];
            g.place = Place::Carried(*worm);
            for m in &mut g.models {
                m.at = None;
            }
        }
        E::HoleDug { seat, at } => {
            state.holes.push(*at);
            if let Some(e) = state.holes_left.iter_mut().find(|(s, _)| s == seat) {
                e.1 = e.1.saturating_sub(1);
            }
        }
        E::HoleClosed { at } => state.holes.retain(|h| h != at),
        E::Detonated { group, model, .. } => {
            note_card_start_of_the_killed(state, *group);
            let g = &mut state.groups[*group as usize];
            if let Some(m) = g.models.iter_mut().find(|m| m.id == *model) {
                m.alive = false;
            }
            if g.alive_count() == 0 {
                g.place = Place::Gone;
            }
        }
        E::Ended { winners, summary } => {
            state.over = Some(Ending {
                winners: winners.clone(),
                summary: summary.clone(),
            });
        }
        E::MustPay {
            seat,
            group,
            total,
            cover,
            among,
            by,
            by_group,
        } => {
            let count = affordable(state, *group, *total, *cover, among);
            state.pending.insert(
                0,
                Pending::Casualties {
                    seat: *seat,
                    group: *group,
                    count,
                    among: among.clone(),
                    budget: Some(Budget {
                        total: *total,
                        cover: *cover,
                        by: *by,
                        by_group: *by_group,
                    }),
                },
            );
        }
        E::Reformed { group } => {
            let back: Vec<Model> = state.groups[*group as usize]
                .models
                .iter()
                .filter(|m| m.alive && m.origin.is_some_and(|o| o != *group))
                .cloned()
                .collect();
            let place = state.groups[*group as usize].place;
            state.groups[*group as usize]
                .models
                .retain(|m| !(m.alive && m.origin.is_some_and(|o| o != *group)));
            for m in &mut state.groups[*group as usize].models {
                m.origin = None;
            }
            for m in back {
                let o = m.origin.expect("filtered") as usize;
                let to = &mut state.groups[o];
                to.place = place;
                to.locked = None;
                to.models.push(Model { origin: None, ..m });
            }
            let g = &mut state.groups[*group as usize];
            if g.alive_count() == 0 {
                g.place = Place::Gone;
                g.locked = None;
            }
        }
        E::GroundOffered {
            melee,
            group,
            ground,
            cover,
        } => {
            let seat = state.groups[*group as usize].seat;
            if let Some(p) = state
                .pending
                .iter_mut()
                .find(|p| **p == Pending::Aftermath { melee: *melee })
            {
                *p = Pending::Occupy {
                    melee: *melee,
                    seat,
                    group: *group,
                    ground: ground.clone(),
                    cover: *cover,
                };
            }
        }
        E::Tried { .. } => {}
        E::StupidityCheck { .. } | E::Contagion { .. } => {}
        E::Stricken { group, model, .. } => {
            let a = &mut state.advanced;
            if !a
                .stricken
                .iter()
                .any(|x| x.group == *group && x.model == *model)
            {
                a.stricken.push(super::advanced::Stricken {
                    group: *group,
                    model: *model,
                });
            }
        }
        E::Recovery {
            group,
            model,
            recovered,
            ..
        } => {
            if *recovered {
                state
                    .advanced
                    .stricken
                    .retain(|x| !(x.group == *group && x.model == *model));
            }
        }
        E::FearTest { group, effect, .. } => {
            // "If a model score 1,2 or 3 then no further fear tests are
            // taken this game."
            if *effect == super::advanced::FearEffect::Brave
                && !state.advanced.fearless.contains(group)
            {
                state.advanced.fearless.push(*group);
            }
        }
        E::Ordered { group, order, by } => {
            let a = &mut state.advanced;
            a.orders.retain(|(g, _, _)| g != group);
            a.orders.push((*group, *order, *by));
        }
        E::OrderCarried { group, .. } => {
            if let Some(o) = state
                .advanced
                .orders
                .iter_mut()
                .find(|(g, _, _)| g == group)
            {
                o.1 = super::advanced::Order::Nothing;
            }
        }
        E::ChecksMade => {
            state.advanced.checked = Some((state.round, state.current));
        }
        E::Fled { group } => {
            state.groups[*group as usize].place = Place::Gone;
        }
        E::Modified { .. } => {}
        E::Grappled {
            melee, by, score, ..
        } => {
            state
                .pending
                .retain(|p| *p != Pending::Aftermath { melee: *melee });
            finish_resolving(state);
            let a = &mut state.advanced;
            a.grapples.retain(|(m, _, _)| m != melee);
            a.grapples.push((*melee, *by, *score));
        }
        E::GrappleEscape { .. } | E::BrokeOff { .. } => {}
        E::AssaultWon { melee, winner, .. } => {
            state
                .pending
                .retain(|p| *p != Pending::Aftermath { melee: *melee });
            finish_resolving(state);
            let a = &mut state.advanced;
            a.assaults.retain(|(m, _)| m != melee);
            a.assaults.push((*melee, *winner));
        }
        E::Height {
            group,
            height,
            rest,
        } => {
            let a = &mut state.advanced;
            a.heights.retain(|(g, _)| g != group);
            if let Some(h) = height {
                a.heights.push((*group, *h));
            }
            if *rest && !a.grounded.contains(group) {
                a.grounded.push(*group);
            }
        }
        E::LaidInWait { group, assault } => {
            at_the_windows(state, &[*group]);
            state.advanced.waiting.retain(|(g, _)| g != group);
            state.advanced.waiting.push((*group, *assault));
        }
        E::StoodDown { group } => {
            state.advanced.waiting.retain(|(g, _)| g != group);
        }
        E::AmbushDue {
            seat,
            group,
            target,
        } => {
            state.pending.push(Pending::Ambush {
                seat: *seat,
                group: *group,
                target: *target,
            });
        }
        E::Sprung { group, sprung, .. } => {
            if let Some(i) = state
                .pending
                .iter()
                .position(|p| matches!(p, Pending::Ambush { group: g, .. } if g == group))
            {
                state.pending.remove(i);
            }
            if *sprung {
                // Assumed: the wait is spent; its player may declare it
                // again at the start of its next card.
                state.advanced.waiting.retain(|(g, _)| g != group);
            }
        }
        E::Suppression {
            groups, shooters, ..
        } => {
            at_the_windows(state, shooters);
            for g in groups {
                if !state.advanced.suppressed.contains(g) {
                    state.advanced.suppressed.push(*g);
                }
            }
        }
        E::Relayed {
            observers,
            to,
            target,
            ..
        } => {
            let a = &mut state.advanced;
            for g in observers {
                if !a.relaying.contains(g) {
                    a.relaying.push(*g);
                }
            }
            a.informed.push((*to, *target));
        }
        E::Perception {
            group,
            target,
            perceived,
            ..
        } => {
            let a = &mut state.advanced;
            if *perceived {
                a.perceived.push((*group, *target));
            } else {
                a.unperceived.push((*group, *target));
            }
        }
    }
}

/// "Sighting a Target" judges sight "at the beginning of the active
/// player's turn": before a group's figures move, leave the table or come
/// onto it, note where each stood when the card began, once a card. A
/// figure on the table stood where it is. One off it stood where its
/// carrier stood if that was on the table (passengers see from their
/// vehicle, assumption A19), else nowhere (`card_absent`: below the table,
/// in reserve).
fn note_card_start(state: &mut InvasionState, group: GroupId) {
    if state.real_table || between_cards(state) {
        return;
    }
    let g = &state.groups[group as usize];
    let noted = |id: &crate::Ident| {
        state.card_start.iter().any(|(x, _)| x == id) || state.card_absent.contains(id)
    };
    let carrier = match g.place {
        Place::Carried(v) => state.groups[v as usize]
            .alive()
            .find_map(|m| state.card_start_of(m)),
        _ => None,
    };
    let off = g.place != Place::Table;
    let mut start = Vec::new();
    let mut absent = Vec::new();
    for m in g.models.iter().filter(|m| m.alive && !noted(&m.id)) {
        match m.at.or(carrier) {
            Some(at) => start.push((m.id.clone(), at)),
            None if off => absent.push(m.id.clone()),
            None => {}
        }
    }
    state.card_start.extend(start);
    state.card_absent.extend(absent);
}

/// A melee is being resolved: after the card's actions ("Hand-to-hand
/// combat is resolved ... after the actions on the card have been
/// completed"), its strikes, casualties, ground taken, falls back and
/// surfacings are made between the card that ended (its notes cleared) and
/// the next one, which begins with the table as the resolution left it
/// ("Once all casualties have been removed the hand-to-hand combat is
/// over"): nothing done then is noted as done on a card (rules version 9,
/// review15 MUST 1; until then the next card judged sight from where
/// groups stood before the resolution).
fn between_cards(state: &InvasionState) -> bool {
    state.pending.iter().any(|p| {
        matches!(
            p,
            Pending::ResolveMelees { .. }
                | Pending::Strike { .. }
                | Pending::Aftermath { .. }
                | Pending::Occupy { .. }
                | Pending::Point { .. }
        )
    })
}

/// A figure killed on the table stood where it stood when the card began
/// ("Sighting a Target" judges sight then; "casualties are removed
/// immediately" from the table as it is now): its group's places are noted
/// as a move notes them, so `fire` still finds it in a line traced as the
/// card began (rules version 9; until then a figure killed on the card no
/// longer blocked). A figure killed off the table (below it, carried, in
/// the air) blocked no line then. Only with Sighting a Target on, the one
/// rule that reads the card's start for the dead: a battle without it keeps
/// the state it had under version 8.
fn note_card_start_of_the_killed(state: &mut InvasionState, group: GroupId) {
    if state.groups[group as usize].place == Place::Table
        && state.advanced.on(super::advanced::Module::Sighting)
    {
        note_card_start(state, group);
    }
}

/// Buildings and LOS: groups inside a building that fire (or lay in wait)
/// stand at its windows and doors ("it is the only way it would be able to
/// fire out").
fn at_the_windows(state: &mut InvasionState, groups: &[GroupId]) {
    if !state.advanced.on(super::advanced::Module::Buildings) {
        return;
    }
    for &g in groups {
        if (g as usize) < state.groups.len()
            && super::rules::cover_of(state, g, None).0 == Cover::Building
        {
            if !state.advanced.fired.contains(&g) {
                state.advanced.fired.push(g);
            }
            if !state.advanced.at_windows.contains(&g) {
                state.advanced.at_windows.push(g);
            }
        }
    }
}

/// How many more figures of `group` (among `among`, empty: any) `total` can
/// pay for at their own kill scores in `cover`, the cheapest first.
pub fn affordable(
    state: &InvasionState,
    group: GroupId,
    total: u32,
    cover: Cover,
    among: &[String],
) -> u32 {
    let g = &state.groups[group as usize];
    let mut costs: Vec<u32> = g
        .alive()
        .filter(|m| among.is_empty() || among.iter().any(|a| *a == m.id))
        .map(|m| super::rules::model_cost(state, g.seat, m, cover))
        .collect();
    costs.sort_unstable();
    let mut left = total;
    let mut n = 0;
    for c in costs {
        if c > left {
            break;
        }
        left -= c;
        n += 1;
    }
    n
}

/// When no strike or aftermath is left and no melee waits, the resolution is over.
fn finish_resolving(state: &mut InvasionState) {
    let busy = state
        .pending
        .iter()
        .any(|p| matches!(p, Pending::Strike { .. } | Pending::Aftermath { .. }));
    if !busy {
        state
            .pending
            .retain(|p| !matches!(p, Pending::ResolveMelees { left } if left.is_empty()));
    }
}
