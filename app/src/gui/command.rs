//! What the UI asks the app to do. UI functions never change the battle, the
//! campaign or the files themselves: they push an [`AppCommand`] and the app
//! applies them all after the frame is drawn (see `App::apply`).

use std::path::PathBuf;

use serde_json::Value;
use xenolog_engine::{Actor, BranchId, EntryId, LegalCommand};

use super::store::{BattleId, DiceMode};

/// A command a player wants to give, before dice and branch questions.
#[derive(Clone, Debug, PartialEq)]
pub struct Intent {
    pub actor: Actor,
    pub command: Value,
    /// The command in words, for dialogs and notices.
    pub text: String,
    /// Shorter words for its button in "Which command?" (a grenade's area
    /// as its tiles and victims); `text` is then the button's hover.
    pub label: Option<String>,
}

impl From<&LegalCommand> for Intent {
    fn from(c: &LegalCommand) -> Self {
        Self {
            actor: c.actor,
            command: c.command.clone(),
            text: c.text.clone(),
            label: None,
        }
    }
}

/// A request to play, carried through the dice and branch questions.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayRequest {
    pub intent: Intent,
    /// Dice the players typed in (`None`: Xenolog rolls, or not asked yet).
    pub dice: Option<Vec<u8>>,
    /// The player agreed to start a new branch if the command needs one.
    pub branch_ok: bool,
    /// The player agreed to give up what the rules granted (an unused
    /// reinforcement) if the command forfeits it.
    pub forfeit_ok: bool,
    /// The head the command was chosen at (`Some(None)`: the setup), when
    /// it was queued from outside the frame ([`super::app::App::push`]):
    /// a club battle may move on between the choice and the frame that
    /// gives it, and a command chosen for one position is never given at
    /// another. `None`: chosen in the frame that gives it.
    pub at: Option<Option<xenolog_engine::EntryId>>,
}

impl PlayRequest {
    /// A request not yet asked about dice or branches.
    pub fn new(intent: Intent) -> Self {
        Self {
            intent,
            dice: None,
            branch_ok: false,
            forfeit_ok: false,
            at: None,
        }
    }
}

/// What to start a new battle with (from the New battle dialog).
#[derive(Clone, Debug, PartialEq)]
pub struct NewBattleSpec {
    pub game: String,
    pub scenario: String,
    pub seed: u64,
    pub config: Value,
    pub title: String,
    pub dice_mode: DiceMode,
    /// A strict battle: no taking back a command whose dice were seen.
    pub strict: bool,
}

/// Which file to ask the player for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileRequest {
    NewCampaign,
    OpenCampaign,
    ImportBattle,
    /// File > Merge a copy…: another copy of the open campaign.
    MergeCopy,
    ExportBattle,
    ExportPicture,
    /// A position or scenario file to start a battle from.
    PositionFile,
    /// A battle report in this format.
    ExportReport(xenolog_report::Format),
}

/// Everything the UI can ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum AppCommand {
    /// Give a command: asks for dice and for a new branch as needed, then plays.
    Give(PlayRequest),
    /// Several commands fit one click: ask the player which.
    Choose(Vec<Intent>),
    /// Move the cursor to an entry (`None`: the setup).
    Seek(Option<EntryId>),
    /// Move the cursor to a position on the current line (0: the setup).
    SeekLine(usize),
    Undo,
    Redo,
    SwitchBranch(BranchId),
    RenameBranch(BranchId, String),
    /// Select a scene item (a unit or a hex), or clear the selection.
    Select(Option<String>),
    /// Start or stop playing the battle back.
    SetPlaying(bool),
    /// Ask the player for a file, then act on it.
    AskFile(FileRequest),
    NewCampaign(PathBuf),
    OpenCampaign(PathBuf),
    /// Open a campaign only to look at it (another Xenolog is writing it).
    OpenCampaignReadOnly(PathBuf),
    /// Read-only: read the campaign again, to follow what the writer added.
    Refresh,
    /// A file dropped on the window: a campaign or a battle to import.
    Dropped(PathBuf),
    OpenBattle(BattleId),
    NewBattle(NewBattleSpec),
    /// File > New battle from a position file: read it, find its game and
    /// open the New battle dialog on it (or say why it cannot be read).
    NewBattleFromFile(PathBuf),
    ImportBattle(PathBuf),
    /// Merge another copy of the open campaign into it (issue 30 item 9).
    MergeCopy(PathBuf),
    /// The same, the player having said the file is a copy of this campaign
    /// although its uid differs (upgraded apart from before copies kept one).
    MergeSameCampaign(PathBuf),
    ExportBattle(PathBuf),
    ExportPicture(PathBuf),
    /// Write the open battle's report in this format.
    ExportReport(xenolog_report::Format, PathBuf),
    /// File > Export battle report: the preview window.
    ShowReportExport,
    /// Edit > Check this battle: replay it from its seed and say how it went.
    CheckBattle,
    /// View > Luck: the Luck panel.
    ShowLuck,
    ShowNewBattle,
    /// Keep the New battle dialog's choices for next time (preferences).
    RememberNewBattle(super::prefs::NewBattleChoices),
    ShowShortcuts,
    /// Help > Legend and player aid.
    ShowPlayerAid,
    /// File > Connect to a club.
    ShowConnectClub,
    /// Start or stop the line-of-sight tool.
    LineOfSight(bool),
    /// A hex picked with the line-of-sight tool (its scene id).
    LosPick(String),
    ShowAbout,
    /// Help > Getting started.
    ShowGettingStarted,
    ShowBranches(bool),
    /// Show the Campaign view (rosters, experience, skills) in place of the
    /// board, or go back to the battles.
    ShowCampaign(bool),
    /// File > Export roster sheets: a printable HTML sheet per roster.
    ExportRosterSheets,
    /// Say something in the status bar (why a click did nothing).
    Explain(String),
    /// Close the notice on top.
    DismissNotice,
    /// Hot-seat: the screen was passed to this seat; show its view.
    LookAs(xenolog_engine::Actor),
    /// Show every seat's hidden information (`false`: each seat its own).
    RevealHidden(bool),
    Quit,
}
