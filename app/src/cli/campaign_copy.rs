//! `xenolog campaign copy FROM TO` (issue 31, `server/POSTGRES.md` §4): a
//! campaign moved whole between a campaign file and a schema of a PostgreSQL
//! database, either way (or file to file), every row as it is
//! (`xenolog_saves::copy_campaign`), then every battle verified there.
//!
//! A side is a file path, or `postgres://USER@HOST:PORT/DATABASE#SCHEMA`
//! (`postgresql://` too): the URL as PostgreSQL's clients take it, the
//! campaign's schema after `#`. The target must not exist yet (a file, or a
//! schema); it is made, filled in one transaction and verified; if anything
//! fails it is removed again and nothing is left.

use std::io::Write;
use std::path::PathBuf;

use serde_json::json;
use xenolog_saves::Campaign;
use xenolog_saves::db::Db;

use super::super::club_verify::hide_password;
use super::super::{Fail, Out, json_line, line};

/// One side of a copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Side {
    File(PathBuf),
    Postgres { url: String, schema: String },
}

impl Side {
    /// A file path, or a `postgres://...#SCHEMA` URL (parsed as `verify`
    /// parses it).
    pub(super) fn parse(text: &str) -> Result<Side, Fail> {
        match super::super::club_verify::postgres_campaign(text) {
            None => Ok(Side::File(PathBuf::from(text))),
            Some(at) => {
                let (url, schema) = at?;
                Ok(Side::Postgres { url, schema })
            }
        }
    }

    /// In words, without a password.
    pub(super) fn words(&self) -> String {
        match self {
            Side::File(p) => p.display().to_string(),
            Side::Postgres { url, schema } => {
                format!("schema {schema} of {}", hide_password(url))
            }
        }
    }

    fn open_source(&self) -> Out<Campaign> {
        Ok(match self {
            Side::File(p) => Campaign::open_read_only(p)?,
            Side::Postgres { url, schema } => Campaign::open_postgres(url, schema)?,
        })
    }

    /// Open for a merge's other copy: only read (a schema through a
    /// read-only session, as `verify` opens one), so that copy is never
    /// upgraded, sealed or written.
    pub(super) fn open_theirs(&self) -> Out<Campaign> {
        Ok(match self {
            Side::File(p) => Campaign::open_read_only(p)?,
            Side::Postgres { url, schema } => {
                super::super::club_verify::open_campaign(url, schema)?
            }
        })
    }

    /// Open for writing: the copy a merge writes.
    pub(super) fn open_ours(&self) -> Out<Campaign> {
        Ok(match self {
            Side::File(p) => Campaign::open(p)?,
            Side::Postgres { url, schema } => Campaign::open_postgres(url, schema)?,
        })
    }

    fn create(&self) -> Out<Campaign> {
        Ok(match self {
            Side::File(p) => Campaign::create(p, "")?,
            Side::Postgres { url, schema } => Campaign::create_postgres(url, schema, "")?,
        })
    }

    /// Remove a target this copy made (it failed): nothing is left.
    fn remove(&self) {
        match self {
            Side::File(p) => {
                for suffix in ["", "-wal", "-shm", ".lock"] {
                    let mut s = p.as_os_str().to_owned();
                    s.push(suffix);
                    let _ = std::fs::remove_file(PathBuf::from(s));
                }
            }
            Side::Postgres { url, schema } => {
                if let Ok(db) = xenolog_saves::db::pg::Postgres::connect(url) {
                    let _ = db.execute_batch(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
                }
            }
        }
    }
}

/// `xenolog campaign copy FROM TO`.
pub(super) fn copy(from: &str, to: &str, json: bool, out: &mut dyn Write) -> Out {
    let (from, to) = (Side::parse(from)?, Side::parse(to)?);
    if from == to {
        return Err(Fail::usage(
            "copy a campaign somewhere else, not onto itself",
        ));
    }
    if let Side::File(p) = &to
        && p.symlink_metadata().is_ok()
    {
        return Err(Fail::usage(format!(
            "{} already exists: a campaign is copied only to a new file; nothing was written",
            p.display()
        )));
    }
    let source = from.open_source()?;
    let mut target = to.create()?;
    let done = fill(&source, &mut target);
    drop(target);
    let (battles, rows) = match done {
        Ok(d) => d,
        Err(e) => {
            to.remove();
            return Err(e);
        }
    };
    if json {
        return json_line(
            out,
            &json!({"from": from.words(), "to": to.words(), "battles": battles, "rows": rows,
                "verified": true}),
        );
    }
    line(
        out,
        format!(
            "copied {} into {}: {battles} battle{}, {rows} rows; every battle verifies there",
            from.words(),
            to.words(),
            if battles == 1 { "" } else { "s" }
        ),
    )
}

/// Copy, then verify every battle on the target; the battles and rows.
fn fill(source: &Campaign, target: &mut Campaign) -> Out<(usize, u64)> {
    let copied = xenolog_saves::copy_campaign(source, target)?;
    let battles = target.battles()?;
    for b in &battles {
        let r = target.verify_battle(b.id)?;
        if !r.ok() {
            return Err(Fail::rule(format!(
                "battle {} ({}) does not verify after the copy: {r:?}; nothing was kept",
                b.id, b.title
            )));
        }
    }
    Ok((battles.len(), copied.rows()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_a_file_or_a_postgres_url_with_its_schema_after_the_hash() {
        assert_eq!(
            Side::parse("club.xenolog").ok(),
            Some(Side::File("club.xenolog".into()))
        );
        assert_eq!(
            Side::parse("postgres://me:pw@db:5432/league#club_7").ok(),
            Some(Side::Postgres {
                url: "postgres://me:pw@db:5432/league".into(),
                schema: "club_7".into()
            })
        );
        let e = Side::parse("postgres://me:pw@db/league").err().unwrap();
        assert!(e.message.contains("#SCHEMA"), "{}", e.message);
        assert!(!e.message.contains("pw"), "{}", e.message);
        let e = Side::parse("postgresql://db/league#Club").err().unwrap();
        assert!(e.message.contains("cannot name"), "{}", e.message);
        assert_eq!(
            hide_password("postgres://me:pw@db/league"),
            "postgres://me:***@db/league"
        );
    }
}
