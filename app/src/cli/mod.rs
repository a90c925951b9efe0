//! The headless command line: every thing the app can do to a battle, scriptable.
//!
//! Exit codes: 0 ok; 1 a rule refused a command or verification failed;
//! 2 bad usage or a file error. Output is words, or JSON with `--json`.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use serde::Deserialize;
use serde_json::{Value, json};
use xenolog_engine::fair::{self, Bytes32};
use xenolog_engine::{Actor, Battle, EntryId, LegalCommand, Randomness, Viewer};
use xenolog_saves::{BattleId, Campaign, DiceMode, SaveError};

pub mod campaign;
mod club;
mod club_s7;
mod club_verify;
mod notes;
mod remote;
mod report;

/// Xenolog: campaign manager for alien-invasion tabletop games.
///
/// With no subcommand, opens the desktop app on the last campaign (or a sample
/// campaign on first start). The subcommands drive campaigns headless.
#[derive(Parser, Debug)]
#[command(name = "xenolog", version, about, long_about = None)]
#[command(
    after_help = "New to Xenolog? `xenolog help getting-started` (Help > Getting started in the app).\n\
                  Exit codes: 0 ok, 1 a rule refused a command or verification failed, 2 usage or file error."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Open the desktop app on a campaign file.
    Open { file: PathBuf },
    /// Create a campaign file.
    New {
        file: PathBuf,
        /// The campaign's name (defaults to the file name).
        #[arg(long)]
        name: Option<String>,
    },
    /// Create the sample campaign (the one the app opens on its first start).
    Sample { file: PathBuf },
    /// Upgrade a campaign saved by an older Xenolog to this build's format
    /// (a backup of the file as it was is written beside it first).
    Upgrade { file: PathBuf },
    /// List the games and their scenarios.
    Games {
        #[arg(long)]
        json: bool,
    },
    /// List the battles of a campaign.
    Battles {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Start a battle and print its id.
    Battle(NewBattleArgs),
    /// Campaign rosters: add, list, show, rename, retire.
    #[command(subcommand)]
    Roster(campaign::RosterCmd),
    /// Roster models: add, show, rename, retire, remove.
    #[command(subcommand)]
    Model(campaign::ModelCmd),
    /// Skills: list (costs and caps), buy.
    #[command(subcommand)]
    Skill(campaign::SkillCmd),
    /// The campaign: log, state [--at DATE], undo, redo, setting.
    #[command(subcommand)]
    Campaign(campaign::CampaignCmd),
    /// The legal commands at the cursor (with --json: one JSON object per line,
    /// each accepted by `play` as it is).
    Legal {
        #[command(flatten)]
        at: BattleRef,
        #[command(flatten)]
        view: ViewArg,
        #[arg(long)]
        json: bool,
    },
    /// Apply commands, one JSON object per line: {"actor":0,"command":{..},"dice":[..]}.
    /// "actor" is the seat's index from 0 (seat 1 is actor 0), as `legal --json` gives it.
    /// "dice" is optional: physical dice typed in, used in order for the command's rolls.
    /// Each accepted command is saved before the next is read; the first refused
    /// command stops the script with exit code 1. Or --pick N: the command `legal`
    /// numbers N.
    Play {
        #[command(flatten)]
        at: BattleRef,
        /// The script file, or - for standard input.
        #[arg(long, required_unless_present = "pick")]
        script: Option<PathBuf>,
        /// Instead of a script: give the command numbered N in the list
        /// `xenolog legal FILE --battle B` prints (with or without --as:
        /// a command has one number), from 1.
        #[arg(long, value_name = "N", conflicts_with = "script")]
        pick: Option<usize>,
        #[arg(long)]
        json: bool,
    },
    /// A bot plays N legal commands chosen at random (soak tests, demos).
    Autoplay {
        #[command(flatten)]
        at: BattleRef,
        #[arg(long)]
        steps: u64,
        /// Seed of the bot's choices (not of the battle's dice).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// With --server: the seat to play (default: your token's only seat).
        #[arg(long = "as", value_name = "SEAT", requires = "server")]
        seat: Option<String>,
        /// With --server: stop after this many seconds with nothing to do
        /// (the other seats not moving).
        #[arg(long, default_value_t = 600, value_name = "SECONDS")]
        wait: u64,
        #[arg(long)]
        json: bool,
    },
    /// Move the cursor back (nothing is deleted).
    Undo {
        #[command(flatten)]
        at: BattleRef,
        #[arg(long, default_value_t = 1)]
        steps: usize,
    },
    /// Move the cursor forward along the current branch.
    Redo {
        #[command(flatten)]
        at: BattleRef,
        #[arg(long, default_value_t = 1)]
        steps: usize,
    },
    /// Move the cursor to an entry: a number, `start` or `end`.
    Seek {
        #[command(flatten)]
        at: BattleRef,
        #[arg(long)]
        to: String,
    },
    /// The branch tree.
    Branches {
        #[command(flatten)]
        at: BattleRef,
        #[arg(long)]
        json: bool,
    },
    /// Make a branch current (cursor at its head).
    Switch {
        #[command(flatten)]
        at: BattleRef,
        #[arg(long)]
        branch: u32,
    },
    /// Rename a branch.
    RenameBranch {
        #[command(flatten)]
        at: BattleRef,
        #[arg(long)]
        branch: u32,
        #[arg(long)]
        name: String,
    },
    /// The event log of the current line, in words.
    Log {
        #[command(flatten)]
        at: BattleRef,
        #[command(flatten)]
        view: ViewArg,
        #[arg(long)]
        json: bool,
    },
    /// The full state at the cursor or at any entry.
    State {
        #[command(flatten)]
        at: Moment,
        #[arg(long)]
        json: bool,
    },
    /// Re-decide every recorded command from the seed and check events and
    /// hashes; for a club battle, also that its dice were fair. FILE is a
    /// campaign or a battle file (`.xenolog-battle`), or a campaign on
    /// PostgreSQL, postgres://USER@HOST:PORT/DB#SCHEMA (read-only).
    Verify {
        file: PathBuf,
        #[arg(long)]
        battle: Option<BattleId>,
        #[arg(long)]
        json: bool,
        /// The nonce you gave when you joined a club battle, as SEAT=HEX
        /// (seat numbered from 1, 64 hex digits): verify says whether it is
        /// the one recorded. May be given once per seat.
        #[arg(long, value_name = "SEAT=HEX")]
        nonce: Vec<String>,
    },
    /// Export one battle to a standalone file.
    Export {
        #[command(flatten)]
        at: BattleRef,
        #[arg(long)]
        out: PathBuf,
    },
    /// Import a battle file into a campaign.
    Import { file: PathBuf, battle_file: PathBuf },
    /// Notes on a battle's entries: add, list, remove.
    #[command(subcommand)]
    Note(notes::NoteCmd),
    /// The bookmarked entries of a battle; --add or --remove a bookmark.
    Bookmarks(notes::BookmarksArgs),
    /// A battle report: the story, the board at the moments that mattered and
    /// the luck, as Markdown, HTML, forum BBCode, or CSV (one row per die).
    Report(report::ReportArgs),
    /// Save the board at the cursor (or an entry) as an SVG picture.
    Picture {
        #[command(flatten)]
        at: Moment,
        #[arg(long)]
        out: PathBuf,
    },
    /// Run a club server in the foreground: remote players play through it
    /// (prints its address and, on the first start, the organiser's invitation).
    Serve(club::ServeArgs),
    /// A club server's own commands: redeem an invitation, invite, join a
    /// battle (with your nonce), list campaigns and battles, watch, download.
    #[command(subcommand)]
    Club(club::ClubCmd),
}

/// A moment of a battle as one seat (or everyone) sees it: `state` and
/// `picture`.
#[derive(Args, Debug)]
struct Moment {
    #[command(flatten)]
    at: BattleRef,
    /// Entry number (default: the cursor); `start` for the setup.
    #[arg(long)]
    at_entry: Option<String>,
    #[command(flatten)]
    view: ViewArg,
}

impl Moment {
    /// The battle from its campaign file, the entry named (`None`: the
    /// setup) and whose view.
    fn open(&self) -> Out<(Box<dyn Battle>, Option<EntryId>, Viewer)> {
        let c = open_ro(&self.at.file)?;
        let b = load(&c, self.at.battle)?;
        let at_id = match &self.at_entry {
            Some(t) => parse_at(b.as_ref(), t)?,
            None => b.cursor(),
        };
        let viewer = self.view.viewer(&*b, true)?;
        Ok((b, at_id, viewer))
    }
}

/// Whose view to show.
#[derive(Args, Debug)]
struct ViewArg {
    /// Show what one seat may see: its number (from 1, as the app and the
    /// reports number seats) or its name; without it everything is shown,
    /// hidden hands included, with a warning while the battle is on.
    #[arg(long = "as", value_name = "SEAT")]
    seat: Option<String>,
}

impl ViewArg {
    /// The viewer asked for; `whole`: the whole state or board is shown
    /// (`state`, `picture`), not entries or commands.
    fn viewer(&self, b: &dyn Battle, whole: bool) -> Out<Viewer> {
        let seats = b.seats();
        let Some(asked) = self.seat.as_deref().map(str::trim) else {
            // `log` and `legal` say it only where one seat could read what
            // another may not (a hand): what a game hides from every seat
            // alike (Dimension X's face-down chits) no entry or command
            // names, and a solo player was told it on every `log` and
            // `legal` (session 22's new user). A whole state or picture
            // shows that too: said whenever something is hidden.
            let hidden = if whole {
                b.hides_information()
            } else {
                b.seats_see_differently()
            };
            if b.outcome().is_none() && hidden {
                eprintln!(
                    "note: showing what every seat may see, hidden information included; \
                     use --as SEAT to see one seat's view"
                );
            }
            return Ok(Viewer::All);
        };
        if asked.eq_ignore_ascii_case("all") {
            return Ok(Viewer::All);
        }
        let known = || {
            seats
                .iter()
                .map(|(a, name)| format!("{} ({name})", seat_number(*a)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // A number is a seat counted from 1 (0 is refused in words); any
        // other word is a seat's name.
        let found = if asked.chars().all(|c| c.is_ascii_digit()) {
            let seat = parse_seat(asked).map_err(|e| {
                Fail::usage(format!("--as {e}: this battle's seats are {}", known()))
            })?;
            seats.iter().find(|(a, _)| *a == seat)
        } else {
            seats
                .iter()
                .find(|(_, name)| asked.eq_ignore_ascii_case(name))
        };
        found.map(|(a, _)| Viewer::Seat(*a)).ok_or_else(|| {
            Fail::usage(format!(
                "this battle has no seat '{asked}': try {} or all",
                known()
            ))
        })
    }
}

/// A seat as a person types it on the command line (`--as`, `--roster
/// SEAT=`, `--nonce SEAT=`, `club invite --seat`, `club join --seat`):
/// numbered from 1, as the app, the reports and `verify` number seats. The
/// answer is the seat's index from 0, the `actor` of the JSON lines
/// (`legal --json`, `play --script`). A 0, the old way of typing the first
/// seat, is refused in words rather than taken as another seat.
pub(crate) fn parse_seat(typed: &str) -> Result<Actor, String> {
    let t = typed.trim();
    match t.parse::<u16>() {
        Ok(0) => Err(format!(
            "'{t}' is not a seat: seats are numbered from 1 (seat 1 is actor 0 in the JSON lines)"
        )),
        // 256 and up name no seat (the last index, 255, is the game itself).
        Ok(n @ 1..=255) => Ok(Actor(u8::try_from(n - 1).unwrap_or(u8::MAX))),
        _ => Err(format!(
            "'{t}' is not a seat number (seats are numbered from 1)"
        )),
    }
}

/// [`parse_seat`] as the seat's index, for a flag read by clap.
pub(crate) fn seat_index(typed: &str) -> Result<u8, String> {
    parse_seat(typed).map(|a| a.0)
}

/// A seat's number as people read it (from 1), for the words around a
/// typed seat.
pub(crate) fn seat_number(seat: Actor) -> u16 {
    u16::from(seat.0) + 1
}

#[derive(Args, Debug)]
struct BattleRef {
    /// The campaign file (with --server: the campaign's number or name on
    /// the server).
    file: PathBuf,
    /// The battle id (see `xenolog battles FILE`; with --server, the
    /// battle's number on the server, see `xenolog club battles`).
    #[arg(long)]
    battle: BattleId,
    /// A club server (ws://HOST:PORT): play or look at a battle there, as
    /// your token's seat (legal, play, state, log and autoplay).
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// The file holding your club token (default: the one `club redeem`
    /// wrote, or the XENOLOG_TOKEN variable); the token is never an argument.
    #[arg(long, value_name = "FILE", requires = "server")]
    token_file: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct NewBattleArgs {
    /// The campaign file.
    file: PathBuf,
    /// The game id (see `xenolog games`).
    #[arg(long)]
    game: String,
    /// Seed of the battle's dice (random when not given; always printed).
    #[arg(long)]
    seed: Option<u64>,
    /// A scenario id of the game.
    #[arg(long, conflicts_with = "scenario_file")]
    scenario: Option<String>,
    /// A scenario file of your own (format in the game's RULES.md).
    #[arg(long)]
    scenario_file: Option<PathBuf>,
    /// Play the two-player variant, where the game has one.
    #[arg(long)]
    two_player: bool,
    /// The faction of the next seat, by id (repeatable, in seat order; games
    /// with factions, e.g. Alien Invasion: unit, daleks, mib, spugs).
    #[arg(long = "faction", value_name = "ID")]
    factions: Vec<String>,
    /// A faction file of your own (repeatable; format in the game's
    /// RULES.md); name its id with --faction.
    #[arg(long = "faction-file", value_name = "PATH")]
    faction_files: Vec<PathBuf>,
    /// Players roll real dice and type them in.
    #[arg(long)]
    entered_dice: bool,
    /// A strict battle: no command can be given where dice were already
    /// rolled and seen (taking back a command never changes what comes next).
    #[arg(long)]
    strict: bool,
    /// The game's whole config as a JSON object (the flags above and
    /// `--option` are added to it), e.g. '{"scenario":"beta"}'.
    #[arg(long, value_name = "JSON")]
    config: Option<String>,
    /// One option of the game's config, e.g. `--option target=100`
    /// (repeatable; numbers and true/false are read as such, anything else
    /// as text).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// A title for the battle.
    #[arg(long)]
    title: Option<String>,
    /// Campaign roster models for a seat (Alien Invasion; repeatable):
    /// SEAT=ROSTER:MODEL,MODEL... with the seat numbered from 1 and roster
    /// and models by id or name, e.g. 1=Hawks:1,2.
    #[arg(long = "roster", value_name = "SEAT=ROSTER:MODELS")]
    rosters: Vec<String>,
    #[arg(long)]
    json: bool,
}

/// A battle's config from `--config` and `--option`s, before the friendly flags.
fn config_of(args: &NewBattleArgs) -> Result<serde_json::Map<String, Value>, Fail> {
    let mut config = match &args.config {
        None => serde_json::Map::new(),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => {
                return Err(Fail::usage(
                    "--config must be a JSON object, e.g. '{\"target\":100}'",
                ));
            }
            Err(e) => return Err(Fail::usage(format!("--config is not valid JSON: {e}"))),
        },
    };
    for o in &args.options {
        let Some((key, value)) = o.split_once('=').filter(|(k, _)| !k.trim().is_empty()) else {
            return Err(Fail::usage(format!(
                "--option {o}: write it as KEY=VALUE, e.g. --option target=100"
            )));
        };
        let value = value.trim();
        let value = match value {
            "true" => json!(true),
            "false" => json!(false),
            v => v
                .parse::<i64>()
                .map(|n| json!(n))
                .or_else(|_| v.parse::<f64>().map(|x| json!(x)))
                .unwrap_or_else(|_| json!(v)),
        };
        config.insert(key.trim().to_owned(), value);
    }
    Ok(config)
}

/// A failure with its exit code.
struct Fail {
    code: u8,
    message: String,
}

impl Fail {
    fn usage(message: impl Into<String>) -> Self {
        Self {
            code: 2,
            message: message.into(),
        }
    }
    fn rule(message: impl Into<String>) -> Self {
        Self {
            code: 1,
            message: message.into(),
        }
    }
}

impl From<SaveError> for Fail {
    fn from(e: SaveError) -> Self {
        let code = if matches!(e, SaveError::Play(_)) {
            1
        } else {
            2
        };
        let mut message = e.to_string();
        // A first mistake gets the way forward, not only the refusal.
        if matches!(e, SaveError::NoSuchBattle(_)) {
            message.push_str(": `xenolog battles FILE` lists its battles");
        }
        Self { code, message }
    }
}

type Out<T = ()> = Result<T, Fail>;

/// `xenolog help getting-started`: the page the app shows at Help > Getting
/// started.
const GETTING_STARTED: &str = include_str!("../../GETTING_STARTED.md");

/// Parse the arguments and run; with no subcommand (or `open FILE`) the
/// desktop app, which the caller hands in: the command line never names the
/// GUI (the arrow runs binary -> cli and binary -> gui, never cli -> gui).
pub fn main(app: impl FnOnce(Option<PathBuf>) -> anyhow::Result<()>) -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The page for a new user, the one the app shows at Help > Getting
    // started (one text: app/GETTING_STARTED.md).
    if args.len() == 3 && args[1] == "help" && args[2] == "getting-started" {
        print!("{GETTING_STARTED}");
        return ExitCode::SUCCESS;
    }
    // `xenolog FILE`, as a file manager or a new user gives it: the app on
    // that file, as `xenolog open FILE` (clap would call FILE an unknown
    // subcommand and suggest `club`).
    match file_to_open(&args) {
        Some(Ok(file)) => {
            return finish(app(Some(file)).map_err(|e| Fail::usage(format!("{e:#}"))));
        }
        Some(Err(fail)) => return finish(Err(fail)),
        None => {}
    }
    let cli = Cli::parse_from(args);
    let result = match cli.command {
        None => app(None).map_err(|e| Fail::usage(format!("{e:#}"))),
        Some(Cmd::Open { file }) => app(Some(file)).map_err(|e| Fail::usage(format!("{e:#}"))),
        Some(cmd) => run(cmd, &mut std::io::stdout().lock()),
    };
    finish(result)
}

/// The file `xenolog FILE` names, when FILE is the only argument, is no
/// subcommand and is a file that exists; refused in words when it names a
/// file (a dot or a slash in it) that does not exist.
fn file_to_open(args: &[std::ffi::OsString]) -> Option<Out<PathBuf>> {
    let [_, arg] = args else {
        return None;
    };
    let text = arg.to_string_lossy();
    if text.starts_with('-') {
        return None;
    }
    use clap::CommandFactory;
    if Cli::command().find_subcommand(text.as_ref()).is_some() || text == "help" {
        return None;
    }
    let path = PathBuf::from(arg);
    if path.is_file() {
        Some(Ok(path))
    } else if text.contains(['.', '/', std::path::MAIN_SEPARATOR]) {
        Some(Err(Fail::usage(format!(
            "there is no file {text} to open (nor a subcommand of that name): \
             `xenolog new FILE` makes a campaign, `xenolog sample FILE` the sample one, \
             and `xenolog --help` lists the subcommands"
        ))))
    } else {
        None
    }
}

/// The exit code of `result`, its error told on standard error.
fn finish(result: Out) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) if f.code == 0 => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

fn line(out: &mut dyn Write, text: impl std::fmt::Display) -> Out {
    writeln!(out, "{text}").map_err(|e| {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            // The reader went away (`xenolog log ... | head`): stop quietly.
            Fail {
                code: 0,
                message: String::new(),
            }
        } else {
            Fail::usage(format!("cannot write output: {e}"))
        }
    })
}

fn json_line(out: &mut dyn Write, value: &Value) -> Out {
    line(out, value)
}

fn open_rw(path: &Path) -> Out<Campaign> {
    Ok(Campaign::open(path)?)
}

fn open_ro(path: &Path) -> Out<Campaign> {
    Ok(Campaign::open_read_only(path)?)
}

fn load(c: &Campaign, id: BattleId) -> Out<Box<dyn Battle>> {
    Ok(c.load_battle(id)?)
}

/// Parse `start`, `end` or an entry number against a battle.
fn parse_at(battle: &dyn Battle, text: &str) -> Out<Option<EntryId>> {
    match text {
        "start" | "setup" => Ok(None),
        "end" | "head" => Ok(battle.head(battle.current_branch())),
        n => {
            let id: EntryId = n.parse().map_err(|_| {
                Fail::usage(format!("'{n}' is not an entry number, 'start' or 'end'"))
            })?;
            if id as usize >= battle.records().len() {
                return Err(Fail::usage(format!(
                    "there is no entry {id}: the battle has {} (0 to {})",
                    noun(battle.records().len(), "entry", "entries"),
                    battle.records().len().saturating_sub(1)
                )));
            }
            Ok(Some(id))
        }
    }
}

/// A count with its noun in the right number: `1 entry`, `2 entries`.
fn noun(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn cursor_text(battle: &dyn Battle) -> String {
    match battle.cursor() {
        None => "at the setup".to_owned(),
        Some(c) => format!("at entry {c}"),
    }
}

/// A `play` script, read line by line (`-`: standard input).
fn open_script(script: &Path) -> Out<Box<dyn BufRead>> {
    if script.as_os_str() == "-" {
        return Ok(Box::new(std::io::BufReader::new(std::io::stdin())));
    }
    let f = std::fs::File::open(script)
        .map_err(|e| Fail::usage(format!("cannot read script {}: {e}", script.display())))?;
    Ok(Box::new(std::io::BufReader::new(f)))
}

/// Script line `n` (from 1): `None` for a blank line or a `#` comment; a
/// line that is no command is a usage error naming the line, the shape
/// `expected` and how many commands before it were applied.
fn script_line(
    n: usize,
    text: std::io::Result<String>,
    played: u64,
    expected: &str,
) -> Out<Option<ScriptLine>> {
    let text = text.map_err(|e| Fail::usage(format!("cannot read script line {n}: {e}")))?;
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    serde_json::from_str(text).map(Some).map_err(|e| {
        Fail::usage(format!(
            "script line {n} is not a command ({e}); expected {expected}; {played} commands before it were applied"
        ))
    })
}

/// One line of a `play` script. Extra fields (as `legal --json` prints) are ignored.
#[derive(Deserialize)]
struct ScriptLine {
    actor: Actor,
    command: Value,
    #[serde(default)]
    dice: Option<Vec<u8>>,
}

/// The battle a command names on a club server (`--server`), if it does.
fn server_ref(cmd: &Cmd) -> Option<(&'static str, &BattleRef)> {
    let named = match cmd {
        Cmd::Legal { at, .. } => ("legal", at),
        Cmd::Play { at, .. } => ("play", at),
        Cmd::Autoplay { at, .. } => ("autoplay", at),
        Cmd::State { at, .. } => ("state", &at.at),
        Cmd::Log { at, .. } => ("log", at),
        Cmd::Undo { at, .. } => ("undo", at),
        Cmd::Redo { at, .. } => ("redo", at),
        Cmd::Seek { at, .. } => ("seek", at),
        Cmd::Branches { at, .. } => ("branches", at),
        Cmd::Switch { at, .. } => ("switch", at),
        Cmd::RenameBranch { at, .. } => ("rename-branch", at),
        Cmd::Export { at, .. } => ("export", at),
        Cmd::Picture { at, .. } => ("picture", &at.at),
        _ => return None,
    };
    named.1.server.is_some().then_some(named)
}

/// A command on a club server's battle (`--server`).
fn run_remote(cmd: Cmd, out: &mut dyn Write) -> Out {
    match cmd {
        Cmd::Legal { at, view, json } => remote::legal(&at, &view, json, out),
        Cmd::Play {
            at,
            script: Some(script),
            pick: None,
            json,
        } => remote::play(&at, &script, json, out),
        Cmd::Play { .. } => Err(Fail::usage(
            "--pick is for a campaign file; on a club server give a line of `legal --json` \
             to --script",
        )),
        Cmd::State { at, json } => {
            remote::state(&at.at, at.at_entry.as_deref(), &at.view, json, out)
        }
        Cmd::Log { at, view, json } => remote::log(&at, &view, json, out),
        Cmd::Autoplay {
            at,
            steps,
            seed,
            seat,
            wait,
            json,
        } => remote::autoplay(&at, seat.as_deref(), steps, seed, wait, json, out),
        other => {
            let what = server_ref(&other).map_or("this command", |(w, _)| w);
            Err(Fail::usage(format!(
                "{what} has no --server: on a club server the battle moves only forward through its \
                 server (legal, play, state, log and autoplay take --server; club download fetches \
                 the battle file after the end)"
            )))
        }
    }
}

fn run(cmd: Cmd, out: &mut dyn Write) -> Out {
    if server_ref(&cmd).is_some() {
        return run_remote(cmd, out);
    }
    match cmd {
        Cmd::Open { .. } => unreachable_gui(),
        Cmd::Upgrade { file } => {
            let c = Campaign::open(&file)?;
            match c.upgrade_backup() {
                Some(backup) => line(
                    out,
                    format!(
                        "upgraded {}; the file as it was is kept as {}",
                        file.display(),
                        backup.display()
                    ),
                ),
                None => line(
                    out,
                    format!("{} is already in this build's format", file.display()),
                ),
            }
        }
        Cmd::New { file, name } => {
            let name = name.unwrap_or_else(|| {
                file.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "Campaign".into())
            });
            Campaign::create(&file, &name)?;
            line(
                out,
                format!("created campaign '{name}' in {}", file.display()),
            )
        }
        Cmd::Sample { file } => {
            xenolog_saves::sample::create_sample(&file)?;
            line(
                out,
                format!("created the sample campaign in {}", file.display()),
            )
        }
        Cmd::Games { json } => games(out, json),
        Cmd::Battles { file, json } => {
            let c = open_ro(&file)?;
            campaign::check_trust(&file);
            let battles = c.battles()?;
            if battles.is_empty() && !json {
                // Standard output stays empty (a script counts its lines);
                // a person is told what to do next.
                eprintln!(
                    "no battles in {} yet: start one with `xenolog battle {} --game GAME` \
                     (`xenolog games` lists the games and their scenarios)",
                    file.display(),
                    xenolog_report::shell_quote(&file.to_string_lossy())
                );
            }
            for b in battles {
                if json {
                    json_line(
                        out,
                        &json!({"id": b.id, "game": b.game, "title": b.title, "seed": b.seed,
                            "entries": b.entries, "branches": b.branches, "status": b.status,
                            "result": b.result, "created": b.created, "updated": b.updated}),
                    )?;
                } else {
                    line(
                        out,
                        format!(
                            "{:>4}  {:<8} {:<40} {:>6} {:<7}  {:>2} {:<8}  {}{}",
                            b.id,
                            b.game,
                            b.title,
                            b.entries,
                            if b.entries == 1 { "entry" } else { "entries" },
                            b.branches,
                            if b.branches == 1 {
                                "branch"
                            } else {
                                "branches"
                            },
                            b.status,
                            b.result.map(|r| format!(": {r}")).unwrap_or_default()
                        ),
                    )?;
                }
            }
            Ok(())
        }
        Cmd::Battle(args) => new_battle(args, out),
        Cmd::Roster(c) => campaign::roster(c, out),
        Cmd::Model(c) => campaign::model(c, out),
        Cmd::Skill(c) => campaign::skill(c, out),
        Cmd::Campaign(c) => campaign::campaign(c, out),
        Cmd::Legal { at, view, json } => {
            let c = open_ro(&at.file)?;
            let b = load(&c, at.battle)?;
            let viewer = view.viewer(&*b, false)?;
            // Each command keeps its number in the whole list (from 1), the
            // one `play --pick N` takes, with --as too (session 21: --as
            // numbered one seat's commands afresh, and `--pick` gave
            // another command).
            let legal: Vec<(usize, _)> = b
                .legal()
                .into_iter()
                .enumerate()
                .map(|(i, l)| (i + 1, l))
                .filter(|(_, l)| match viewer {
                    Viewer::All => true,
                    Viewer::Seat(seat) => l.actor == seat,
                })
                .collect();
            if legal.is_empty() && !json {
                let why = match (b.outcome(), viewer) {
                    (Some(o), _) => format!("the battle is over: {}", o.summary),
                    (None, Viewer::Seat(seat)) => {
                        let asked: Vec<String> =
                            b.asked().iter().map(|a| b.actor_name(a.seat)).collect();
                        format!(
                            "{} is not asked to act now ({} {})",
                            b.actor_name(seat),
                            asked.join(" and "),
                            if asked.len() == 1 { "is" } else { "are" }
                        )
                    }
                    (None, Viewer::All) => "no command is possible".into(),
                };
                return line(out, why);
            }
            // In a battle whose dice the players enter, each line says the
            // dice its command rolls (a line is accepted as it is only with
            // them, as "dice":[..]).
            let entered = c.summary(at.battle)?.dice_mode == DiceMode::Entered;
            for (number, l) in &legal {
                let need = if entered {
                    b.dice_needed(l.actor, &l.command).unwrap_or_default()
                } else {
                    Vec::new()
                };
                if json {
                    let mut v = serde_json::to_value(l).unwrap_or(Value::Null);
                    if let (false, Some(o)) = (need.is_empty(), v.as_object_mut()) {
                        o.insert("dice_needed".into(), json!(need));
                    }
                    json_line(out, &v)?;
                } else {
                    let dice = match need.len() {
                        0 => String::new(),
                        1 => format!("  [enter 1 die: d{}]", need[0]),
                        n => format!(
                            "  [enter {n} dice: {}]",
                            need.iter()
                                .map(|s| format!("d{s}"))
                                .collect::<Vec<_>>()
                                .join(" ")
                        ),
                    };
                    line(
                        out,
                        format!("{number:>4}  {}: {}{dice}", b.actor_name(l.actor), l.text),
                    )?;
                }
            }
            Ok(())
        }
        Cmd::Play {
            at,
            script: Some(script),
            pick: None,
            json,
        } => play(at, &script, json, out),
        Cmd::Play { at, pick, json, .. } => play_pick(at, pick.unwrap_or(0), json, out),
        Cmd::Autoplay {
            at,
            steps,
            seed,
            json,
            ..
        } => autoplay(at, steps, seed, json, out),
        Cmd::Undo { at, steps } => move_cursor(at, out, |b| b.undo(steps), "back"),
        Cmd::Redo { at, steps } => move_cursor(at, out, |b| b.redo(steps), "forward"),
        Cmd::Seek { at, to } => {
            let mut c = open_rw(&at.file)?;
            let mut b = load(&c, at.battle)?;
            let from = b.cursor();
            let target = parse_at(b.as_ref(), &to)?;
            b.seek(target);
            c.save_position_from(at.battle, b.as_ref(), from)?;
            line(out, format!("cursor {}", cursor_text(b.as_ref())))
        }
        Cmd::Branches { at, json } => branches(at, json, out),
        Cmd::Switch { at, branch } => {
            let mut c = open_rw(&at.file)?;
            let mut b = load(&c, at.battle)?;
            let from = b.cursor();
            b.switch_branch(branch).map_err(|e| {
                Fail::usage(format!(
                    "{e}: `xenolog branches {} --battle {}` lists the battle's branches",
                    xenolog_report::shell_quote(&at.file.to_string_lossy()),
                    at.battle
                ))
            })?;
            c.save_position_from(at.battle, b.as_ref(), from)?;
            line(
                out,
                format!(
                    "on branch {branch} ({}), cursor {}",
                    b.branches()[branch as usize].name,
                    cursor_text(b.as_ref())
                ),
            )
        }
        Cmd::RenameBranch { at, branch, name } => {
            let mut c = open_rw(&at.file)?;
            let mut b = load(&c, at.battle)?;
            let from = b.cursor();
            b.rename_branch(branch, &name).map_err(Fail::usage)?;
            c.save_position_from(at.battle, b.as_ref(), from)?;
            line(
                out,
                format!("branch {branch} is now called '{}'", name.trim()),
            )
        }
        Cmd::Log { at, view, json } => log(at, &view, json, out),
        Cmd::State { at, json } => {
            let (b, at_id, viewer) = at.open()?;
            let state = b.state_json_as(at_id, viewer);
            if json {
                json_line(out, &state)
            } else {
                let flow = b.flow_at(at_id);
                line(
                    out,
                    format!(
                        "{} {}, turn {}, {}\n{}",
                        b.game_name(),
                        at_id.map_or("at the setup".to_owned(), |i| format!("after entry {i}")),
                        flow.turn,
                        flow.phase,
                        serde_json::to_string_pretty(&state).unwrap_or_default()
                    ),
                )
            }
        }
        Cmd::Verify {
            file,
            battle,
            json,
            nonce,
        } => verify(&file, battle, json, &nonce, out),
        Cmd::Export { at, out: dest } => {
            let c = open_ro(&at.file)?;
            c.export_battle(at.battle, &dest)?;
            line(
                out,
                format!("exported battle {} to {}", at.battle, dest.display()),
            )
        }
        Cmd::Import { file, battle_file } => {
            let mut c = open_rw(&file)?;
            let got = c.import_battle_counted(&battle_file)?;
            campaign::imported(&got, out)
        }
        Cmd::Note(cmd) => notes::note(cmd, out),
        Cmd::Bookmarks(args) => notes::bookmarks(args, out),
        Cmd::Report(args) => report::report(args, out),
        Cmd::Serve(args) => club::serve(args, out),
        Cmd::Club(c) => club::club(c, out),
        Cmd::Picture { at, out: dest } => {
            let (b, at_id, viewer) = at.open()?;
            let svg = b.scene_at_as(at_id, viewer).to_svg();
            xenolog_saves::write_atomically(&dest, svg.as_bytes())?;
            line(
                out,
                format!("wrote the board picture to {}", dest.display()),
            )
        }
    }
}

fn unreachable_gui() -> Out {
    Err(Fail::usage("the app is opened without a subcommand"))
}

fn games(out: &mut dyn Write, json: bool) -> Out {
    for g in xenolog_engine::games::games() {
        if json {
            json_line(
                out,
                &json!({"id": g.id, "name": g.name, "players": g.seats.range(), "seats": g.seats, "available": g.available,
                    "test_only": g.test_only, "rules_version": g.rules_version,
                    "options": g.options,
                    "scenarios": g.scenarios.iter().map(|s| json!({"id": s.id, "name": s.name, "description": s.description})).collect::<Vec<_>>()}),
            )?;
        } else {
            let status = if !g.available {
                " (coming)"
            } else if g.test_only {
                " (test game)"
            } else {
                ""
            };
            line(
                out,
                format!("{:<9} {} [{}]{status}", g.id, g.name, g.seats.words()),
            )?;
            for s in &g.scenarios {
                line(
                    out,
                    format!(
                        "          scenario {:<14} {}: {}",
                        s.id, s.name, s.description
                    ),
                )?;
            }
            for o in &g.options {
                let values = o.kind.words();
                line(
                    out,
                    format!(
                        "          --option {}=...  {} ({values}): {}",
                        o.key, o.label, o.help
                    ),
                )?;
            }
        }
    }
    Ok(())
}

fn new_battle(args: NewBattleArgs, out: &mut dyn Write) -> Out {
    let mut config = config_of(&args)?;
    if let Some(s) = &args.scenario {
        config.insert("scenario".into(), json!(s));
    }
    if let Some(path) = &args.scenario_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Fail::usage(format!("cannot read scenario file {}: {e}", path.display()))
        })?;
        config.insert("scenario_text".into(), json!(text));
    }
    if args.two_player {
        config.insert("two_player".into(), json!(true));
    }
    if !args.factions.is_empty() {
        config.insert("factions".into(), json!(args.factions));
    }
    if !args.faction_files.is_empty() {
        let mut texts = Vec::new();
        for path in &args.faction_files {
            texts.push(std::fs::read_to_string(path).map_err(|e| {
                Fail::usage(format!("cannot read faction file {}: {e}", path.display()))
            })?);
        }
        config.insert("faction_texts".into(), json!(texts));
    }
    // The same short, clock-derived seeds as the app's New battle dialog.
    let seed = args.seed.unwrap_or_else(crate::random_seed);
    let game = xenolog_engine::games::games()
        .into_iter()
        .find(|g| g.id == args.game);
    let game_name = game.as_ref().map_or("battle", |g| g.name);
    // A scenario's own name reads better in the battle list than its id.
    let scenario_name = |id: &str| {
        game.as_ref()
            .and_then(|g| g.scenarios.iter().find(|s| s.id == id))
            .map_or_else(|| id.to_owned(), |s| s.name.clone())
    };
    let title = args
        .title
        .unwrap_or_else(|| match (&args.scenario, &args.scenario_file) {
            (Some(s), _) => format!("{game_name}: {}", scenario_name(s)),
            (None, Some(p)) => format!("{game_name}: {}", p.display()),
            _ => game_name.to_owned(),
        });
    let dice = if args.entered_dice {
        DiceMode::Entered
    } else {
        DiceMode::Rolled
    };
    let id = if args.rosters.is_empty() {
        let mut c = open_rw(&args.file)?;
        c.new_battle_with(
            &args.game,
            seed,
            &Value::Object(config),
            &title,
            dice,
            args.strict,
        )?
    } else {
        if args.game != "invasion" {
            return Err(Fail::usage(
                "--roster puts campaign rosters into an Alien Invasion battle (--game invasion)",
            ));
        }
        campaign::roster_battle(
            &args.file,
            seed,
            &Value::Object(config),
            &args.rosters,
            &title,
            dice,
            args.strict,
        )?
    };
    if args.json {
        json_line(out, &json!({"battle": id, "seed": seed}))
    } else {
        line(out, format!("{id}"))?;
        eprintln!("started battle {id} ('{title}') with seed {seed}");
        Ok(())
    }
}

/// `play --pick N`: the command numbered N in `legal`'s list, given as a
/// script line of it would be.
fn play_pick(at: BattleRef, n: usize, json: bool, out: &mut dyn Write) -> Out {
    let mut c = open_rw(&at.file)?;
    let mut b = load(&c, at.battle)?;
    let legal = b.legal();
    let Some(l) = n.checked_sub(1).and_then(|i| legal.get(i)).cloned() else {
        return Err(Fail::usage(format!(
            "there is no command {n} here: `xenolog legal {} --battle {}` lists {} \
             (numbered from 1)",
            xenolog_report::shell_quote(&at.file.to_string_lossy()),
            at.battle,
            noun(legal.len(), "command", "commands")
        )));
    };
    let ids = c.play_with_steps(at.battle, b.as_mut(), l.actor, &l.command, None)?;
    for id in ids {
        report_entry(b.as_ref(), id, json, out)?;
    }
    if !json {
        eprintln!("applied 1 command; cursor {}", cursor_text(b.as_ref()));
    }
    Ok(())
}

fn play(at: BattleRef, script: &Path, json: bool, out: &mut dyn Write) -> Out {
    let reader = open_script(script)?;
    let mut c = open_rw(&at.file)?;
    let mut b = load(&c, at.battle)?;
    let mut played = 0u64;
    for (n, text) in reader.lines().enumerate() {
        let n = n + 1;
        let Some(cmd) = script_line(
            n,
            text,
            played,
            r#"{"actor":0,"command":{...},"dice":[..]}"#,
        )?
        else {
            continue;
        };
        let ids = c
            .play_with_steps(at.battle, b.as_mut(), cmd.actor, &cmd.command, cmd.dice)
            .map_err(|e| {
                let f = Fail::from(e);
                Fail {
                    code: f.code,
                    message: format!(
                        "script line {n} refused: {}; {played} commands before it were applied",
                        f.message
                    ),
                }
            })?;
        played += 1;
        // The command, then each step the game took on its own after it.
        for id in ids {
            report_entry(b.as_ref(), id, json, out)?;
        }
    }
    if !json {
        eprintln!(
            "applied {played} commands; cursor {}",
            cursor_text(b.as_ref())
        );
    }
    Ok(())
}

fn report_entry(b: &dyn Battle, id: EntryId, json: bool, out: &mut dyn Write) -> Out {
    let text = b.entry_texts(&[id]).remove(0);
    if json {
        json_line(out, &serde_json::to_value(&text).unwrap_or(Value::Null))
    } else {
        let during = b.flow_at(b.records()[id as usize].parent);
        line(out, entry_line(&text, &during))
    }
}

/// An entry in words, headed by the turn and phase it was given in (`during`:
/// the flow before it; the entry's own `flow` is where it left the battle).
fn entry_line(t: &xenolog_engine::EntryText, during: &xenolog_engine::FlowMark) -> String {
    let dice = if t.dice.is_empty() {
        String::new()
    } else {
        format!(
            "  [dice {}{}]",
            t.dice
                .iter()
                .map(|d| d.value.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            if t.entered { ", entered" } else { "" }
        )
    };
    let mut s = format!(
        "#{:<5} turn {:>2} {:<22} {}: {}{dice}",
        t.id, during.turn, during.phase, t.actor, t.command
    );
    for e in &t.events {
        s.push_str("\n         - ");
        s.push_str(e);
    }
    s
}

fn autoplay(at: BattleRef, steps: u64, seed: u64, json: bool, out: &mut dyn Write) -> Out {
    let mut c = open_rw(&at.file)?;
    let mut b = load(&c, at.battle)?;
    let mut bot = Randomness::new(seed, 0, None);
    let entered = c.summary(at.battle)?.dice_mode == DiceMode::Entered;
    let mut played = 0;
    while played < steps {
        let legal = waited_for(b.as_ref());
        if legal.is_empty() {
            break;
        }
        let pick = &legal[bot.pick(legal.len())];
        // With entered dice the bot rolls the players' dice too (from its own
        // seed), so they are recorded as entered, as a player's would be.
        let dice = if entered {
            let sides = b
                .dice_needed(pick.actor, &pick.command)
                .map_err(SaveError::Play)?;
            Some(
                sides
                    .iter()
                    .map(|&s| 1 + bot.below(u32::from(s)) as u8)
                    .collect(),
            )
        } else {
            None
        };
        let id = c.play(at.battle, b.as_mut(), pick.actor, &pick.command, dice)?;
        played += 1;
        if json {
            report_entry(b.as_ref(), id, true, out)?;
        }
    }
    autoplayed(played, b.outcome().map(|o| o.summary), json, out)
}

/// The commands a bot playing every seat chooses from: those of the seats
/// the game waits for ([`Battle::waited_for`]), when they have any. A seat
/// asked meanwhile may only take back what it set waiting (Night of the
/// Saucers: the offering seat may withdraw its swap while the game waits
/// for the answer); a bot that took its commands too could withdraw an
/// offer the moment it was made (session 22), which no player waiting for
/// an answer does.
fn waited_for(b: &dyn Battle) -> Vec<LegalCommand> {
    let mut legal = b.legal();
    let waited = b.waited_for();
    if legal.iter().any(|l| waited.contains(&l.actor)) {
        legal.retain(|l| waited.contains(&l.actor));
    }
    legal
}

/// What `autoplay` says at the end, on a file or over a server: how many
/// commands it played, and the battle's result if it is over.
fn autoplayed(played: u64, result: Option<String>, json: bool, out: &mut dyn Write) -> Out {
    if json {
        return json_line(out, &json!({"played": played, "outcome": result}));
    }
    line(
        out,
        format!(
            "played {played} commands; {}",
            result.map_or_else(
                || "the battle goes on".into(),
                |r| format!("the battle is over: {r}")
            )
        ),
    )
}

fn move_cursor(
    at: BattleRef,
    out: &mut dyn Write,
    step: impl FnOnce(&mut dyn Battle) -> usize,
    way: &str,
) -> Out {
    let mut c = open_rw(&at.file)?;
    let mut b = load(&c, at.battle)?;
    // The cursor loaded: another process on a shared PostgreSQL campaign
    // that moved the battle in between makes this move `Stale`.
    let from = b.cursor();
    let moved = step(b.as_mut());
    c.save_position_from(at.battle, b.as_ref(), from)?;
    line(
        out,
        format!(
            "moved {} {way}; cursor {}",
            noun(moved, "entry", "entries"),
            cursor_text(b.as_ref())
        ),
    )
}

fn branches(at: BattleRef, json: bool, out: &mut dyn Write) -> Out {
    let c = open_ro(&at.file)?;
    let b = load(&c, at.battle)?;
    let current = b.current_branch();
    // Children of each branch, for drawing the tree.
    let list = b.branches();
    fn walk(
        b: &dyn Battle,
        parent: Option<u32>,
        depth: usize,
        current: u32,
        out: &mut dyn Write,
    ) -> Out {
        for br in b.branches().iter().filter(|br| br.parent == parent) {
            let head = b.head(br.id);
            let len = head.map_or(0, |h| b.path_to(Some(h)).len());
            // Its kind (stored, migration 9), never read from its name.
            let fork = br.fork.map_or_else(
                || format!("{}, from the setup", br.kind.words()),
                |f| format!("{}, parts after entry {f}", br.kind.words()),
            );
            line(
                out,
                format!(
                    "{}{} {:>2} {:<20} {}, {} to head {}",
                    "  ".repeat(depth),
                    if br.id == current { "*" } else { " " },
                    br.id,
                    br.name,
                    if br.parent.is_some() {
                        fork
                    } else {
                        "main line".into()
                    },
                    noun(len, "entry", "entries"),
                    head.map_or("-".into(), |h| h.to_string())
                ),
            )?;
            walk(b, Some(br.id), depth + 1, current, out)?;
        }
        Ok(())
    }
    if json {
        for br in list {
            json_line(
                out,
                &json!({"id": br.id, "name": br.name, "parent": br.parent, "fork": br.fork,
                    "kind": br.kind.as_str(), "head": b.head(br.id), "current": br.id == current}),
            )?;
        }
        Ok(())
    } else {
        walk(b.as_ref(), None, 0, current, out)?;
        line(out, format!("cursor {}", cursor_text(b.as_ref())))
    }
}

fn log(at: BattleRef, view: &ViewArg, json: bool, out: &mut dyn Write) -> Out {
    let c = open_ro(&at.file)?;
    let b = load(&c, at.battle)?;
    let viewer = view.viewer(&*b, false)?;
    let line_ids = b.path_to(b.head(b.current_branch()));
    let cursor = b.cursor();
    let mut during = b.flow_at(None);
    let secret = if json {
        c.fair_secret(at.battle)?
    } else {
        None
    };
    if line_ids.is_empty() && !json {
        // Standard output stays empty (a script counts its lines); a person
        // is told why and how to play the first command (session 21: it
        // printed nothing at all).
        let file = xenolog_report::shell_quote(&at.file.to_string_lossy());
        eprintln!(
            "battle {b} has no entries yet: `xenolog legal {file} --battle {b}` lists the \
             commands that can be played, numbered, and `xenolog play {file} --battle {b} \
             --pick N` plays number N (or open it in the app: `xenolog {file}`)",
            b = at.battle
        );
    }
    for t in b.entry_texts_as(&line_ids, viewer) {
        if json {
            json_line(out, &entry_json(&*b, &t, secret.as_ref()))?;
        } else {
            let mark = if Some(t.id) == cursor { "> " } else { "  " };
            line(out, format!("{mark}{}", entry_line(&t, &during)))?;
        }
        during = t.flow;
    }
    if !json && let Some(o) = b.outcome() {
        line(out, format!("Result: {}", o.summary))?;
    }
    if !json {
        for note in log_notes(&*b) {
            line(out, note)?;
        }
    }
    Ok(())
}

/// An entry of `log --json` with the keys a club server's entry lines carry
/// (`server/src/lens.rs`), so a script reads a file's log and a server's
/// alike: `parent`, the entry it follows (null: the setup), and `receipt`,
/// the entry's chain keyed by the club's secret (DESIGN 5.4) when the
/// battle is a downloaded club battle whose secret is revealed, else null.
fn entry_json(b: &dyn Battle, t: &xenolog_engine::EntryText, secret: Option<&Bytes32>) -> Value {
    let mut entry = serde_json::to_value(t).unwrap_or(Value::Null);
    if let Value::Object(e) = &mut entry {
        let r = b.records().get(t.id as usize);
        e.insert("parent".into(), json!(r.and_then(|r| r.parent)));
        let receipt = secret
            .zip(r)
            .map(|(s, r)| fair::hex(&fair::receipt(s, &r.chain)));
        e.insert("receipt".into(), json!(receipt));
        if let Some(br) = r.and_then(|r| b.branches().get(r.branch as usize)) {
            e.insert("branch_kind".into(), json!(br.kind.as_str()));
        }
    }
    entry
}

/// What the log says about the battle as a whole: strict or how often it was
/// taken back past a roll, and entries recorded under older rules.
fn log_notes(b: &dyn Battle) -> Vec<String> {
    let mut notes = Vec::new();
    // The line shown, when it is not the main line: its kind (migration 9).
    if let Some(br) = b
        .branches()
        .get(b.current_branch() as usize)
        .filter(|br| br.parent.is_some())
    {
        notes.push(format!(
            "The line shown is the branch '{}', {}.",
            br.name,
            match br.kind {
                xenolog_engine::BranchKind::FromCopy =>
                    "another copy's line, landed here by a merge (played there, not taken back here)",
                xenolog_engine::BranchKind::WhatIf => "a what-if from a line played to its end",
                _ => "a take-back",
            }
        ));
    }
    let takebacks = b.takebacks_past_rolls();
    if b.meta().strict {
        notes.push(
            "A strict battle: no command could be taken back once its dice were seen.".into(),
        );
    } else if !takebacks.is_empty() {
        let names: Vec<String> = takebacks
            .iter()
            .map(|&id| format!("'{}'", b.branches()[id as usize].name))
            .collect();
        notes.push(format!(
            "Taken back past a roll {}: the dice had been seen when {} {} started.",
            times(takebacks.len()),
            if names.len() == 1 {
                "branch"
            } else {
                "branches"
            },
            names.join(", ")
        ));
    }
    let now = b.rules_version_now();
    let older = b.records().iter().filter(|r| r.rules_version < now).count();
    if older > 0 {
        notes.push(format!(
            "{older} {} recorded under an older rules version of {} (shown as recorded; \
             `xenolog verify` says whether today's rules, version {now}, would decide one differently).",
            if older == 1 { "entry was" } else { "entries were" },
            b.game_name()
        ));
    }
    notes
}

fn times(n: usize) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

/// `--nonce SEAT=HEX` arguments: the seat (from 1) and the nonce.
fn parse_nonces(given: &[String]) -> Out<Vec<(Actor, Bytes32)>> {
    given
        .iter()
        .map(|g| {
            let (seat, hex) = g.split_once('=').ok_or_else(|| {
                Fail::usage(format!(
                    "--nonce '{g}': expected SEAT=HEX, e.g. --nonce 2=9f3a... (64 hex digits)"
                ))
            })?;
            let seat = parse_seat(seat).map_err(|e| Fail::usage(format!("--nonce '{g}': {e}")))?;
            let nonce = fair::from_hex(hex)
                .map_err(|e| Fail::usage(format!("--nonce for seat {}: {e}", seat_number(seat))))?;
            Ok((seat, nonce))
        })
        .collect()
}

/// The fairness part of a battle's verification, if it has a fair seed.
fn fairness_of(
    b: &dyn Battle,
    secret: Option<&Bytes32>,
    kept: &[(Actor, Bytes32)],
) -> Option<fair::FairnessReport> {
    let seed = b.meta().fair.as_ref()?;
    let seats: Vec<Actor> = b.seats().into_iter().map(|(a, _)| a).collect();
    Some(fair::check(
        seed,
        b.meta().seed,
        &seats,
        secret,
        kept,
        b.records(),
    ))
}

/// One battle's verification: whether it passed, in words, and as JSON.
fn verify_one(
    b: &dyn Battle,
    secret: Option<&Bytes32>,
    kept: &[(Actor, Bytes32)],
) -> (bool, String, Value) {
    let r = b.verify();
    let mut ok = r.ok();
    let mut text = r.to_string();
    let mut detail = serde_json::to_value(&r).unwrap_or(Value::Null);
    if let Some(f) = fairness_of(b, secret, kept) {
        ok &= f.ok();
        for l in f.lines(&|a| b.actor_name(a)) {
            text.push_str("\n  ");
            text.push_str(&l);
        }
        detail["fairness"] = serde_json::to_value(&f).unwrap_or(Value::Null);
    }
    (ok, text, detail)
}

fn is_battle_file(path: &Path) -> Out<bool> {
    use std::io::Read;
    let mut head = [0; 15];
    let mut f = std::fs::File::open(path)
        .map_err(|e| Fail::usage(format!("cannot open {}: {e}", path.display())))?;
    let n = f.read(&mut head).unwrap_or(0);
    Ok(&head[..n] == xenolog_schema::battle_file::MAGIC)
}

/// `verify` of a battle file: the replay, and the fairness of a club battle.
fn verify_battle_file(
    file: &Path,
    battle: Option<BattleId>,
    json: bool,
    kept: &[(Actor, Bytes32)],
    out: &mut dyn Write,
) -> Out {
    if battle.is_some() {
        return Err(Fail::usage(format!(
            "{} is one battle's file: --battle is for campaigns",
            file.display()
        )));
    }
    let bad = |why: String| Fail::rule(format!("{} FAILED: {why}", file.display()));
    let bytes = std::fs::read(file)
        .map_err(|e| Fail::usage(format!("cannot read {}: {e}", file.display())))?;
    let f = xenolog_schema::battle_file::read_battle_file(&bytes)
        .map_err(|e| bad(format!("it is not a usable battle file: {e}")))?;
    drop(bytes);
    let secret = f.secret;
    let b = xenolog_engine::games::load_battle(f.into_stored())
        .map_err(|e| bad(format!("its battle cannot be rebuilt: {e}")))?;
    if !kept.is_empty() && b.meta().fair.is_none() {
        return Err(Fail::usage(
            "--nonce is for club battles, and this battle has no fair seed",
        ));
    }
    let (ok, text, detail) = verify_one(&*b, secret.as_ref(), kept);
    if json {
        json_line(
            out,
            &json!({"file": file.display().to_string(), "ok": ok, "report": detail}),
        )?;
    } else {
        line(out, format!("{}: {text}", file.display()))?;
    }
    if ok {
        Ok(())
    } else {
        Err(Fail::rule(format!(
            "{} failed verification",
            file.display()
        )))
    }
}

fn verify(
    file: &Path,
    battle: Option<BattleId>,
    json: bool,
    nonces: &[String],
    out: &mut dyn Write,
) -> Out {
    let kept = parse_nonces(nonces)?;
    // A campaign on PostgreSQL (issue 31 P5): `postgres://...#SCHEMA`.
    let c = match club_verify::postgres_campaign(&file.to_string_lossy()) {
        Some(at) => {
            let (url, schema) = at?;
            club_verify::open_campaign(&url, &schema)?
        }
        None if is_battle_file(file)? => {
            return verify_battle_file(file, battle, json, &kept, out);
        }
        None => open_ro(file)?,
    };
    let ids: Vec<BattleId> = match battle {
        Some(id) => vec![id],
        None => c.battles()?.into_iter().map(|b| b.id).collect(),
    };
    let names = c.battle_names()?;
    let mut failed = 0;
    let mut club = 0;
    for id in &ids {
        let (ok, text, detail) = match c.load_battle(*id) {
            Ok(b) => {
                club += usize::from(b.meta().fair.is_some());
                let secret = c.fair_secret(*id)?;
                verify_one(&*b, secret.as_ref(), &kept)
            }
            Err(e @ SaveError::Corrupt { .. }) => (
                false,
                format!("FAILED: {e}"),
                json!({"error": e.to_string()}),
            ),
            Err(e) => return Err(e.into()),
        };
        if !ok {
            failed += 1;
        }
        if json {
            json_line(out, &json!({"battle": id, "ok": ok, "report": detail}))?;
        } else {
            line(out, format!("{}: {text}", names.name(*id)))?;
        }
    }
    if !kept.is_empty() && club == 0 {
        return Err(Fail::usage(
            "--nonce is for club battles, and no battle verified has a fair seed",
        ));
    }
    let campaign_ok = battle.is_some() || campaign::verify_campaign(&c, json, out)?;
    if !campaign_ok {
        return Err(Fail::rule(if failed > 0 {
            format!(
                "{failed} of {} battles and the campaign failed verification",
                ids.len()
            )
        } else {
            "the campaign failed verification".to_owned()
        }));
    }
    if failed > 0 {
        Err(Fail::rule(format!(
            "{failed} of {} battles failed verification",
            ids.len()
        )))
    } else {
        Ok(())
    }
}
