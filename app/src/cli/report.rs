//! `xenolog report`: a battle report in Markdown, HTML, forum BBCode, or one
//! CSV row per die, from the battle's log, its notes and the game's words.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use xenolog_engine::BranchId;
use xenolog_report::{Format, Options, Story};

use super::{Fail, Out, line, load, open_ro};

#[derive(Args, Debug)]
pub(super) struct ReportArgs {
    /// The campaign file.
    file: PathBuf,
    /// The battle id (see `xenolog battles FILE`).
    #[arg(long, required_unless_present = "campaign")]
    battle: Option<i64>,
    /// The whole campaign instead of one battle: every battle's result and
    /// key moments, the rosters' progress, and the luck of every die
    /// (md or html).
    #[arg(long, conflicts_with_all = ["battle", "branch", "pictures"])]
    campaign: bool,
    /// The branch to tell (default: the current one; see `xenolog branches`).
    #[arg(long)]
    branch: Option<BranchId>,
    /// md, html, bbcode or csv.
    #[arg(long, default_value = "md")]
    format: String,
    /// Board pictures at the end of every turn (`turns`, the default) or
    /// only at the bookmarks (`bookmarks`); always at the start and the end.
    #[arg(long, default_value = "turns", value_parser = ["turns", "bookmarks"])]
    pictures: String,
    /// Where to write it; the board pictures and plots of Markdown and
    /// BBCode are written beside it (SVG and PNG). Without it the report
    /// goes to standard output, without pictures.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub(super) fn report(args: ReportArgs, out: &mut dyn Write) -> Out {
    let format = Format::parse(&args.format).ok_or_else(|| {
        Fail::usage(format!(
            "there is no report format '{}': use md, html, bbcode or csv",
            args.format
        ))
    })?;
    let c = open_ro(&args.file)?;
    let Some(battle) = args.battle else {
        return campaign_report(&c, format, args.out.as_deref(), out);
    };
    let b = load(&c, battle)?;
    if let Some(branch) = args.branch
        && !b.branches().iter().any(|x| x.id == branch)
    {
        return Err(Fail::usage(format!(
            "{} has no branch {branch} (see `xenolog branches`)",
            c.battle_name(battle)?
        )));
    }
    let mut header = xenolog_report::header_of(&c, battle, args.branch)?;
    header.bookmark_pictures_only = args.pictures == "bookmarks";
    let story = Story::build(&*b, &header);
    match args.out {
        Some(path) => {
            let written = xenolog_report::write_report(&story, format, &path)?;
            line(
                out,
                format!(
                    "wrote the {} report to {}{}",
                    format.name(),
                    path.display(),
                    if written.len() > 1 {
                        format!(" and {} files beside it", written.len() - 1)
                    } else {
                        String::new()
                    }
                ),
            )?;
            if format == Format::BbCode {
                line(
                    out,
                    "upload the picture files to the forum and put their addresses in the [img] tags",
                )?;
            }
            Ok(())
        }
        None => {
            let options = Options {
                png: false,
                ..Options::default()
            };
            let r = xenolog_report::render(&story, format, &options);
            write!(out, "{}", r.text).map_err(|e| Fail::usage(format!("cannot write output: {e}")))
        }
    }
}

/// `xenolog report FILE --campaign`: the campaign report.
fn campaign_report(
    c: &xenolog_saves::Campaign,
    format: Format,
    path: Option<&std::path::Path>,
    out: &mut dyn Write,
) -> Out {
    let story = xenolog_report::campaign::build(c)?;
    let text = match format {
        Format::Markdown => xenolog_report::campaign::markdown(&story),
        Format::Html => xenolog_report::campaign::html(&story),
        other => {
            return Err(Fail::usage(format!(
                "a campaign report is written as md or html, not {}",
                other.name()
            )));
        }
    };
    match path {
        Some(p) => {
            xenolog_saves::write_atomically(p, text.as_bytes())?;
            line(
                out,
                format!(
                    "wrote the {} campaign report ({} battles, {} rosters) to {}",
                    format.name(),
                    story.battles.len(),
                    story.rosters.len(),
                    p.display()
                ),
            )
        }
        None => write!(out, "{text}").map_err(|e| Fail::usage(format!("cannot write output: {e}"))),
    }
}
