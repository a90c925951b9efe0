//! The battle state, the events that change it, and `apply` (a pure fold).

use serde::{Deserialize, Serialize};

use super::chits::{Chit, Step};
use super::map::{Hex, Spot};
use super::units::{Alien, AlienPlace, Condition, Goal, Marine, MarineKind, Place, Weapon};

/// A side of the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Marines,
    Kayotz,
}

impl Side {
    /// The side in words.
    pub fn name(self) -> &'static str {
        match self {
            Side::Marines => "Marines",
            Side::Kayotz => "Kay'otz",
        }
    }

    /// The side as an adjective: "Marine victory".
    pub fn adjective(self) -> &'static str {
        match self {
            Side::Marines => "Marine",
            Side::Kayotz => "Kay'otz",
        }
    }
}

/// A condition of a scenario's victory rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cond {
    /// At least this many Kay'otz units eliminated.
    Eliminated(u8),
    /// Every Overlord that has been in play is eliminated (and one was).
    OverlordEliminated,
    /// The Monolith is on the map and shut down.
    MonolithShutDown,
    /// At least this many Marine units left the map through exit hexes.
    Exited(u8),
    /// An Active Marine unit stands in one of these hexes.
    MarineIn(Vec<Hex>),
    /// No Active Marine unit is on the map (and none waits to enter).
    NoActiveMarines,
    /// At most this many Kay'otz units are on the map (the Monolith not counted).
    AliensAtMost(u8),
}

/// "The Marines (or Kay'otz) win when all of these hold."
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Victory {
    pub side: Side,
    pub all: Vec<Cond>,
    /// The scenario's words for it, e.g. "the Overlord is dead and Skylar is held".
    pub text: String,
}

/// What the scenario says beyond the setup (B, G.1, G.4).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioRules {
    /// Hexes through which Marine units enter the map.
    pub entry: Vec<Hex>,
    /// Hexes from which Marine units may leave the map (C.4).
    pub exit: Vec<Hex>,
    /// Checked in every End Phase (G.1).
    pub instant: Vec<Victory>,
    /// Checked at the end when the Mission Goal was not achieved (G.4).
    pub end: Vec<Victory>,
    /// The result when no end condition holds; `None` is a draw.
    pub otherwise: Option<Side>,
}

/// A Marine action (B.1); a Recon assist is the HQ's Special Action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    FullMove,
    FullFire,
    ShootAndScoot,
    Recon,
    ReconAssist,
    BuildStrongpoint,
    Rally,
    ReSupply,
    RequestReinforcements,
}

impl Action {
    /// The action as the rules name it.
    pub fn name(self) -> &'static str {
        match self {
            Action::FullMove => "Full Move",
            Action::FullFire => "Full Fire",
            Action::ShootAndScoot => "Shoot and Scoot",
            Action::Recon => "Recon",
            Action::ReconAssist => "Recon assist",
            Action::BuildStrongpoint => "Build Strongpoint",
            Action::Rally => "Rally",
            Action::ReSupply => "Re-Supply",
            Action::RequestReinforcements => "Request Reinforcements",
        }
    }
}

/// A unit in the middle of its action (B.1: each action is resolved completely
/// before the next unit acts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Partial {
    /// Shoot and Scoot: the move and the fire, in either order (C.1 b).
    ShootAndScoot {
        unit: String,
        moved: bool,
        fired: bool,
    },
    /// A successful Request Reinforcements: choose the unit from the pool (E.6).
    Reinforcement { hq: String },
}

/// Why a unit must be put on one of several equally eligible hexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaceWhy {
    /// A Marine unit's jump scattered: a hex next to its destination (C.2 2-3).
    Scattered,
    /// A Marine unit's jump malfunctioned onto a unit: a hex next to it (C.2 1).
    Malfunction,
    /// A Kay'otz unit beamed onto a Paralyzed Marine or an alien: a hex next to
    /// it (D.6 3).
    Beamed,
    /// A warping Kay'otz unit landed on a unit: a hex next to it (chit step).
    Warped,
    /// A Kay'otz unit drawn from the cup by a summon step: where it comes out
    /// (a Wormhole, or a hex next to the unit it landed on); `left` more
    /// units are summoned after it.
    Summoned {
        left: u8,
        at: super::chits::SummonAt,
    },
}

/// A tie of equally eligible hexes the Kay'otz player breaks in the
/// two-player variant ("the Kay'otz player makes the choice (ignore the
/// 'highest-numbered' hex rule)"). Solitaire takes the highest-numbered hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// The unit to put down (a Marine or a Kay'otz unit).
    pub unit: String,
    /// The tied hexes, highest-numbered first.
    pub hexes: Vec<Hex>,
    pub why: PlaceWhy,
}

/// Where the turn is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The Marine player acts (B.1).
    MarineAction { partial: Option<Partial> },
    /// Two chits were drawn; `by` picks the one to enact (B.2, F.1, variant).
    ChooseChit { options: Vec<u8>, by: Side },
    /// A chit is being enacted. `todo` lists the units still to act in the
    /// current step (the Kay'otz player picks the next one in the variant).
    Kayotz {
        chit: u8,
        step: u8,
        todo: Option<Vec<crate::Ident>>,
    },
    /// Between chits and the End Phase (never waits for a command).
    Activated,
    Over {
        winner: Option<Side>,
        summary: String,
    },
}

/// The whole battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DimxState {
    /// The scenario's id (an [`Ident`](crate::Ident): cloned with the state
    /// without allocating; stored as the string).
    pub scenario: crate::Ident,
    /// The map (one per scenario, A.1), written as its key: `alpha`, `beta`,
    /// or a player's own map's name and digest.
    pub map: super::map::MapRef,
    pub two_player: bool,
    pub turn: u8,
    pub phase: Phase,
    pub marines: Vec<Marine>,
    pub aliens: Vec<Alien>,
    /// A chit sheet of the scenario file's own; `None`: the printed sheet
    /// compiled in (kept out of the state so the state stays small).
    /// Shared by every state of the battle (stored as the plain list).
    pub own_chits: Option<crate::Shared<Vec<Chit>>>,
    /// Chits in the cup.
    pub cup: Vec<u8>,
    /// Chits drawn and enacted, in order (F.3).
    pub used: Vec<u8>,
    /// The face-down ADM pile (D.5).
    pub adm_pile: Vec<u8>,
    /// The face-down Mission Goal pile (B, G.2).
    pub goals: Vec<Goal>,
    /// Mission Goal chits looked at and removed (E.2, D.7).
    pub goals_out: Vec<Goal>,
    pub strongpoints: Vec<Hex>,
    /// The Successful Recon marker is by the cup (E.2).
    pub recon: bool,
    /// Kay'otz units a chit flipped from Dormant to Active this turn: they do
    /// nothing else for that turn (C.3), even when a draw-again chit (F.4)
    /// then draws a chit that names them. Emptied when the next turn begins.
    pub woke: Vec<crate::Ident>,
    /// A tie the Kay'otz player must break before play goes on (variant).
    pub placing: Option<Placement>,
    /// Never changes during play: shared by every state of the battle
    /// (stored as the plain value, see [`crate::Shared`]).
    pub rules: crate::Shared<ScenarioRules>,
    /// Battle option (rules version 4): G.3 f Summoning counts only the
    /// numbered Kay'otz units, not an Active Monolith (the reading of rules
    /// version 3). Left out of the stored state when off, so states without
    /// it read and hash as before.
    #[serde(default, skip_serializing_if = "is_false")]
    pub summoning_ignores_monolith: bool,
    /// Battle option (rules version 4): the Successful Recon marker also
    /// doubles the draw of a draw-again chit's follow-up (F.4 "as if it was
    /// just normally drawn" read as drawn the way this phase draws).
    #[serde(default, skip_serializing_if = "is_false")]
    pub recon_doubles_follow_up: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A die roll modifier and its reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mod {
    pub value: i8,
    pub why: ModWhy,
}

/// Why a roll or a CF changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModWhy {
    ShootAndScoot,
    Stunned,
    TargetTerrain,
    HqAdjacent,
    TargetDormant,
    Adjacent,
    Cover,
    Strongpoint,
    HqAssist,
    LogisticsAdjacent,
    AlienAdjacent,
}

impl ModWhy {
    /// The reason in words.
    pub fn words(self) -> &'static str {
        match self {
            ModWhy::ShootAndScoot => "Shoot and Scoot",
            ModWhy::Stunned => "Stunned",
            ModWhy::TargetTerrain => "target in Forest, Rough or Buildings",
            ModWhy::HqAdjacent => "HQ adjacent",
            ModWhy::TargetDormant => "target Dormant",
            ModWhy::Adjacent => "adjacent",
            ModWhy::Cover => "Forest, Rough or Buildings in the line of fire",
            ModWhy::Strongpoint => "Strongpoint",
            ModWhy::HqAssist => "HQ assist",
            ModWhy::LogisticsAdjacent => "Logistics adjacent",
            ModWhy::AlienAdjacent => "Active alien adjacent",
        }
    }
}

/// How a jumping unit came down (C.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Landing {
    Safe,
    Scattered,
    /// Down on its random hex.
    Malfunction,
    /// Its random hex was occupied: down in the nearest free hex beside it
    /// (rules version 3; before, logged as `Malfunction`).
    MalfunctionAside,
}

/// What a BUMP gun shot did (D.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BumpResult {
    Misfire,
    EnergyRecoil,
    Beamed,
    Vaporized,
}

/// How a Kay'otz unit came to a hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlienMove {
    Rush,
    Advance,
    Warp,
    Beamed,
    Summoned,
    /// Put on the highest-numbered eligible adjacent hex after landing on a unit.
    SteppedAside,
}

/// Why something happened to a unit's markers or place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    Fire,
    JumpMalfunction,
    EnergyRecoil,
    Rally,
    LandedOnActiveAlien,
    Captured,
}

/// Why a Kay'otz unit did nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hold {
    NoActiveMarine,
    NoEligibleHex,
    /// The straight line to this hex crosses Lava (activation example).
    LavaInTheWay(Hex),
    NoTarget,
    NotOnMap,
    /// A chit flipped it from Dormant to Active earlier this turn (C.3).
    WokeThisTurn,
}

/// Why a Mission Goal chit was looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoalWhy {
    Recon,
    Overlord,
}

/// A fact of the battle, in the past tense, with its outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DimxEvent {
    /// A Marine unit took its action for the phase (turned 45 degrees).
    ActionChosen {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        action: Action,
    },
    /// A Marine unit moved along `path` (the hexes entered), spending half-MP.
    Moved {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        from: Option<Hex>,
        path: Vec<Spot>,
        half_mp: u8,
        allowance: u8,
    },
    JumpRolled {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        to: Hex,
        die: u8,
        mods: Vec<Mod>,
        net: i8,
    },
    /// Three dice read as a hex number (A.3); `on_map` false: the map in
    /// play has no such hex and the dice are rolled again.
    RandomHex {
        dice: [u8; 3],
        hex: Hex,
        on_map: bool,
    },
    Landed {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        at: Hex,
        how: Landing,
    },
    MarineEliminated {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        why: Cause,
    },
    ConditionChanged {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        from: Condition,
        to: Condition,
        why: Cause,
    },
    /// Marine or Kay'otz fire (D.3-D.4, D.9-D.10).
    Fired {
        shooter: String,
        shooter_name: String,
        target: String,
        target_name: String,
        at: Hex,
        base: u8,
        mods: Vec<Mod>,
        dice: Vec<u8>,
        dn: u8,
        hits: u8,
    },
    /// A Kay'otz unit's net CF came to 0: no fire (D.9).
    NoFire {
        shooter: String,
        shooter_name: String,
        target: String,
        target_name: String,
        base: u8,
        mods: Vec<Mod>,
    },
    AlienEliminated {
        unit: String,
        name: String,
        adm_back: Option<u8>,
    },
    AdmPlaced {
        unit: String,
        name: String,
        index: u8,
        value: u8,
    },
    NoAdmLeft {
        unit: String,
        name: String,
    },
    OutOfAmmo {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        /// What its Out of Ammo side fires with (D.8).
        back: Weapon,
    },
    BumpFired {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        target: String,
        target_name: String,
        at: Hex,
        die: u8,
        mods: Vec<Mod>,
        net: i8,
        result: BumpResult,
    },
    AlienMoved {
        unit: String,
        name: String,
        from: Option<Hex>,
        to: Hex,
        how: AlienMove,
    },
    GoalRemoved {
        index: u8,
        goal: Goal,
        why: GoalWhy,
    },
    GoalKept {
        why: GoalWhy,
    },
    ReconRolled {
        scout: String,
        hq: Option<String>,
        die: u8,
        mods: Vec<Mod>,
        net: i8,
        success: bool,
    },
    StrongpointRolled {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        hex: Hex,
        die: u8,
        mods: Vec<Mod>,
        net: i8,
        success: bool,
    },
    RallyRolled {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        die: u8,
        mods: Vec<Mod>,
        net: i8,
        success: bool,
    },
    Resupplied {
        logistics: String,
        unit: String,
        /// The re-supplied unit's type, for the log.
        kind: MarineKind,
    },
    ReinforcementsRolled {
        hq: String,
        die: u8,
        mods: Vec<Mod>,
        net: i8,
        success: bool,
    },
    ReinforcementTaken {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
    },
    ActionFinished {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
    },
    ExitedMap {
        unit: String,
        /// The unit's type, so the log can name it ("Scout SC1").
        kind: MarineKind,
        from: Hex,
    },
    /// The Monolith shut down or came back (A.2 note); derived, for the log.
    MonolithSwitched {
        unit: String,
        active: bool,
    },
    ActionPhaseEnded {
        turn: u8,
    },
    ChitsDrawn {
        chits: Vec<u8>,
        names: Vec<String>,
        by: Option<Side>,
    },
    ChitChosen {
        chit: u8,
        name: String,
        returned: Vec<u8>,
    },
    /// Step `index` of the chit being enacted begins; `units` are the Kay'otz
    /// units it names, in the order they act (none for a step that acts on
    /// the map as a whole).
    StepBegan {
        index: u8,
        step: Step,
        units: Vec<String>,
        names: Vec<String>,
    },
    AlienTurn {
        unit: String,
        name: String,
    },
    AlienFlipped {
        unit: String,
        name: String,
        dormant: bool,
    },
    AlienHolds {
        unit: String,
        name: String,
        why: Hold,
    },
    /// The Kay'otz player must put `unit` on one of `hexes` (variant).
    TieToBreak {
        unit: String,
        name: String,
        hexes: Vec<Hex>,
        why: PlaceWhy,
    },
    /// A beamed or warped Kay'otz unit came down in its own hex: it stays.
    AlienStays {
        unit: String,
        name: String,
        at: Hex,
    },
    /// No eligible hex was free anywhere: the unit stays where it was (`at`;
    /// `None`: off the map, at its edge or in the cup).
    NoRoom {
        unit: String,
        name: String,
        at: Option<Hex>,
    },
    ChitFinished {
        chit: u8,
        name: String,
    },
    InstantVictory {
        side: Side,
        text: String,
    },
    GoalDrawn {
        index: u8,
        goal: Goal,
        achieved: bool,
    },
    GameOver {
        winner: Option<Side>,
        summary: String,
    },
    TurnBegan {
        turn: u8,
        arrivals: Vec<String>,
        /// The arriving units' names, for the log.
        names: Vec<String>,
    },
}

fn marine_mut<'a>(s: &'a mut DimxState, id: &str) -> Option<&'a mut Marine> {
    s.marines.iter_mut().find(|m| m.id == id)
}

fn alien_mut<'a>(s: &'a mut DimxState, id: &str) -> Option<&'a mut Alien> {
    s.aliens.iter_mut().find(|a| a.id == id)
}

/// Apply one event. Events name units that exist: `decide` made them from
/// this state, so a missing unit only means a no-op.
pub fn apply(s: &mut DimxState, e: &DimxEvent) {
    use DimxEvent as E;
    match e {
        E::ActionChosen { unit, action, .. } => {
            if let Some(m) = marine_mut(s, unit) {
                m.acted = true;
            }
            if *action == Action::ShootAndScoot {
                s.phase = Phase::MarineAction {
                    partial: Some(Partial::ShootAndScoot {
                        unit: unit.clone(),
                        moved: false,
                        fired: false,
                    }),
                };
            }
        }
        E::Moved { unit, path, .. } => {
            if let (Some(m), Some(&to)) = (marine_mut(s, unit), path.last()) {
                m.place = Place::Map(to);
            }
            mark_partial(s, unit, true, false);
        }
        E::JumpRolled { unit, .. } => mark_partial(s, unit, true, false),
        E::Landed { unit, at, .. } => {
            if let Some(m) = marine_mut(s, unit) {
                m.place = Place::Map(*at);
            }
            settled(s, unit);
        }
        E::MarineEliminated { unit, .. } => {
            if let Some(m) = marine_mut(s, unit) {
                m.place = Place::Eliminated;
            }
        }
        E::ConditionChanged { unit, to, .. } => {
            if let Some(m) = marine_mut(s, unit) {
                m.condition = *to;
            }
        }
        E::Fired { shooter, .. }
        | E::BumpFired { unit: shooter, .. }
        | E::NoFire { shooter, .. } => {
            mark_partial(s, shooter, false, true);
        }
        E::AlienEliminated { unit, adm_back, .. } => {
            if let Some(a) = alien_mut(s, unit) {
                a.place = AlienPlace::Eliminated;
                a.adm = None;
            }
            if let Some(v) = adm_back {
                s.adm_pile.push(*v);
            }
        }
        E::AdmPlaced {
            unit, index, value, ..
        } => {
            if usize::from(*index) < s.adm_pile.len() {
                s.adm_pile.remove(usize::from(*index));
            }
            if let Some(a) = alien_mut(s, unit) {
                a.adm = Some(*value);
            }
        }
        E::OutOfAmmo { unit, .. } => {
            if let Some(m) = marine_mut(s, unit) {
                m.out_of_ammo = true;
            }
        }
        E::AlienMoved { unit, to, how, .. } => {
            if let Some(a) = alien_mut(s, unit) {
                a.place = AlienPlace::Map(*to);
                // units drawn from the cup come onto the map Active
                if *how == AlienMove::Summoned {
                    a.dormant = false;
                }
            }
            settled(s, unit);
        }
        E::TieToBreak {
            unit, hexes, why, ..
        } => {
            s.placing = Some(Placement {
                unit: unit.clone(),
                hexes: hexes.clone(),
                why: *why,
            });
        }
        E::NoRoom { unit, .. } => settled(s, unit),
        E::GoalRemoved { index, goal, .. } => {
            if usize::from(*index) < s.goals.len() {
                s.goals.remove(usize::from(*index));
            }
            s.goals_out.push(*goal);
        }
        E::ReconRolled { success, .. } => {
            if *success {
                s.recon = true;
            }
        }
        E::StrongpointRolled { hex, success, .. } => {
            if *success && !s.strongpoints.contains(hex) {
                s.strongpoints.push(*hex);
            }
        }
        E::Resupplied { unit, .. } => {
            if let Some(m) = marine_mut(s, unit) {
                m.out_of_ammo = false;
            }
        }
        E::ReinforcementsRolled { hq, success, .. } => {
            if *success {
                s.phase = Phase::MarineAction {
                    partial: Some(Partial::Reinforcement { hq: hq.clone() }),
                };
            }
        }
        E::ReinforcementTaken { unit, .. } => {
            if let Some(m) = marine_mut(s, unit) {
                m.place = Place::Waiting;
                m.acted = false;
            }
            s.phase = Phase::MarineAction { partial: None };
        }
        E::ActionFinished { .. } => s.phase = Phase::MarineAction { partial: None },
        E::ExitedMap { unit, .. } => {
            if let Some(m) = marine_mut(s, unit) {
                m.place = Place::Exited;
            }
        }
        E::ActionPhaseEnded { .. } => s.phase = Phase::Activated,
        E::ChitsDrawn { chits, by, .. } => {
            for c in chits {
                if let Some(i) = s.cup.iter().position(|x| x == c) {
                    s.cup.remove(i);
                }
            }
            s.phase = match by {
                Some(side) => Phase::ChooseChit {
                    options: chits.clone(),
                    by: *side,
                },
                None => Phase::Kayotz {
                    chit: chits.first().copied().unwrap_or(0),
                    step: 0,
                    todo: None,
                },
            };
        }
        E::ChitChosen { chit, returned, .. } => {
            s.cup.extend(returned.iter().copied());
            s.phase = Phase::Kayotz {
                chit: *chit,
                step: 0,
                todo: None,
            };
        }
        E::StepBegan { index, units, .. } => {
            if let Phase::Kayotz { step, todo, .. } = &mut s.phase {
                *step = *index;
                *todo = Some(units.iter().map(crate::Ident::from).collect());
            }
        }
        E::AlienTurn { unit, .. } => {
            if let Phase::Kayotz { todo: Some(t), .. } = &mut s.phase {
                t.retain(|u| u != unit);
            }
        }
        E::AlienFlipped { unit, dormant, .. } => {
            if let Some(a) = alien_mut(s, unit) {
                a.dormant = *dormant;
            }
            // C.3: only a chit flips a unit to Active, and that is all the
            // unit does this turn
            if !*dormant && !s.woke.iter().any(|w| w == unit) {
                s.woke.push(crate::Ident::from(unit));
            }
        }
        E::ChitFinished { chit, .. } => {
            s.used.push(*chit);
            s.phase = Phase::Activated;
        }
        E::GameOver { winner, summary } => {
            s.phase = Phase::Over {
                winner: *winner,
                summary: summary.clone(),
            };
        }
        E::TurnBegan { turn, arrivals, .. } => {
            s.turn = *turn;
            s.recon = false;
            s.woke.clear();
            for m in &mut s.marines {
                m.acted = false;
                if arrivals.iter().any(|n| m.id == *n) {
                    m.place = Place::Waiting;
                }
            }
            s.phase = Phase::MarineAction { partial: None };
        }
        E::RandomHex { .. }
        | E::NoAdmLeft { .. }
        | E::GoalKept { .. }
        | E::RallyRolled { .. }
        | E::MonolithSwitched { .. }
        | E::AlienHolds { .. }
        | E::AlienStays { .. }
        | E::InstantVictory { .. }
        | E::GoalDrawn { .. } => {}
    }
}

/// A unit waiting to be put down has been (or cannot be): the tie is over.
fn settled(s: &mut DimxState, unit: &str) {
    if s.placing.as_ref().is_some_and(|p| p.unit == unit) {
        s.placing = None;
    }
}

/// Record the move or fire half of a Shoot and Scoot.
fn mark_partial(s: &mut DimxState, unit: &str, moved_now: bool, fired_now: bool) {
    if let Phase::MarineAction {
        partial:
            Some(Partial::ShootAndScoot {
                unit: u,
                moved,
                fired,
            }),
    } = &mut s.phase
        && u == unit
    {
        *moved |= moved_now;
        *fired |= fired_now;
    }
}

impl DimxState {
    /// Whether everything the state names exists in the content in force:
    /// every unit stands on a numbered hex of its map (a state naming a map
    /// that is not loaded does not decode), and every chit
    /// number (cup, used, drawn, being enacted) is on the chit sheet. A state
    /// made by this build always passes; one decoded from elsewhere (a battle
    /// recorded with other compiled-in content) may not, and is then refused
    /// in words instead of being played with the wrong map or chits.
    pub fn check(&self) -> Result<(), String> {
        let map = &self.map;
        // `who` names the piece only when it is out of place: this runs
        // before every command, and naming every unit each time was a
        // seventh of what a command cost.
        let on_map = |h: Hex, who: &dyn Fn() -> String| match map.cell(h) {
            Some(c) if map.number(c).is_some() => Ok(()),
            _ => Err(format!(
                "{} stands in {h}, which is not a hex of {}",
                who(),
                map.name
            )),
        };
        for m in &self.marines {
            if let Some(h) = m.on_map() {
                on_map(h, &|| m.title())?;
            }
        }
        for a in &self.aliens {
            if let Some(h) = a.on_map() {
                on_map(h, &|| a.title())?;
            }
        }
        for &h in &self.strongpoints {
            on_map(h, &|| "a Strongpoint".to_owned())?;
        }
        let sheet = self.chits();
        let chit = |c: u8| {
            sheet.get(usize::from(c)).ok_or_else(|| {
                format!(
                    "this battle names chit number {c}, but the chit sheet in force has only {} chits",
                    sheet.len()
                )
            })
        };
        for &c in self.cup.iter().chain(&self.used) {
            chit(c)?;
        }
        match &self.phase {
            Phase::ChooseChit { options, .. } => {
                for &c in options {
                    chit(c)?;
                }
            }
            Phase::Kayotz { chit: c, step, .. } => {
                if usize::from(*step) > chit(*c)?.steps.len() {
                    return Err(format!(
                        "this battle is at step {} of \"{}\", which has only {} steps",
                        u16::from(*step) + 1,
                        chit(*c)?.name,
                        chit(*c)?.steps.len()
                    ));
                }
            }
            Phase::MarineAction { .. } | Phase::Activated | Phase::Over { .. } => {}
        }
        if let Some(p) = &self.placing {
            if self.marine(&p.unit).is_none() && self.alien(&p.unit).is_none() {
                return Err(format!("there is no unit {} to put down", p.unit));
            }
            for &h in &p.hexes {
                on_map(h, &|| p.unit.clone())?;
            }
        }
        Ok(())
    }

    /// The chit sheet in play; chit numbers index it.
    pub fn chits(&self) -> &[Chit] {
        match &self.own_chits {
            Some(c) => c,
            None => super::chits::sheet(),
        }
    }

    /// A Marine unit by id.
    pub fn marine(&self, id: &str) -> Option<&Marine> {
        self.marines.iter().find(|m| m.id == id)
    }

    /// A Kay'otz unit by id.
    pub fn alien(&self, id: &str) -> Option<&Alien> {
        self.aliens.iter().find(|a| a.id == id)
    }

    /// The Marine unit in a hex.
    pub fn marine_at(&self, h: Hex) -> Option<&Marine> {
        self.marines.iter().find(|m| m.place == Place::Map(h))
    }

    /// The Kay'otz unit in a hex.
    pub fn alien_at(&self, h: Hex) -> Option<&Alien> {
        self.aliens.iter().find(|a| a.place == AlienPlace::Map(h))
    }

    /// Whether any unit is in a hex.
    pub fn occupied(&self, h: Hex) -> bool {
        self.marine_at(h).is_some() || self.alien_at(h).is_some()
    }

    /// Whether the battle has a result.
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over { .. })
    }

    /// The name of a chit of the sheet in play.
    pub fn chit_name(&self, i: u8) -> String {
        self.chits()
            .get(usize::from(i))
            .map(|c| c.name.clone())
            .unwrap_or_default()
    }

    /// Marine units that may still act this phase (on the map or waiting at the edge).
    pub fn marines_to_act(&self) -> impl Iterator<Item = &Marine> {
        self.marines
            .iter()
            .filter(|m| !m.acted && matches!(m.place, Place::Map(_) | Place::Waiting))
    }

    /// How many Kay'otz units have been eliminated.
    pub fn eliminated(&self) -> usize {
        self.aliens
            .iter()
            .filter(|a| a.place == AlienPlace::Eliminated)
            .count()
    }
}
