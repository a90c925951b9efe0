//! One test's campaign on either backend (`Store`: a campaign file, or a
//! PostgreSQL schema of its own with a random name, dropped at the end) and
//! `both!`, a test written once and run as `<name>::on_sqlite` and
//! `<name>::on_postgres`; for the suites run on both backends (`backends.rs`,
//! `packed.rs`). Needs `mod pg` (support/pg.rs) beside it.
#![allow(dead_code)]

use std::path::PathBuf;

use xenolog_saves::Campaign;
use xenolog_saves::db::Db;
use xenolog_saves::db::pg::{Postgres, use_schema};

use super::pg::{drop_schema, random_schema, server};

/// Where a test's campaign lives.
pub enum Kind {
    Sqlite {
        _dir: tempfile::TempDir,
        path: PathBuf,
    },
    Postgres {
        url: String,
        schema: String,
    },
}

/// A test's campaign ("Club"), on one backend, reopened as the test says.
pub struct Store {
    pub c: Option<Campaign>,
    pub kind: Kind,
}

impl Store {
    pub fn sqlite() -> Store {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.xenolog");
        let c = Campaign::create(&path, "Club").unwrap();
        Store {
            c: Some(c),
            kind: Kind::Sqlite { _dir: dir, path },
        }
    }

    pub fn postgres(test: &str) -> Option<Store> {
        let url = server()?;
        let schema = random_schema(test);
        let c = Campaign::create_postgres(&url, &schema, "Club")
            .expect("a campaign schema is made on the test server");
        Some(Store {
            c: Some(c),
            kind: Kind::Postgres { url, schema },
        })
    }

    /// [`Store::postgres`], with its connection string and schema.
    pub fn postgres_at(test: &str) -> Option<(Store, String, String)> {
        let s = Store::postgres(test)?;
        let Kind::Postgres { url, schema } = &s.kind else {
            unreachable!()
        };
        let (url, schema) = (url.clone(), schema.clone());
        Some((s, url, schema))
    }

    pub fn c(&mut self) -> &mut Campaign {
        self.c.as_mut().unwrap()
    }

    /// Close the campaign and open it again for writing.
    pub fn reopen(&mut self) -> &mut Campaign {
        self.c = None;
        self.c = Some(match &self.kind {
            Kind::Sqlite { path, .. } => Campaign::open(path).unwrap(),
            Kind::Postgres { url, schema } => Campaign::open_postgres(url, schema).unwrap(),
        });
        self.c()
    }

    /// A folder for files the test writes (exports).
    pub fn files(&self) -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    /// A connection of its own to the campaign's tables, past the store's
    /// rules: what a test forges or counts with.
    pub fn raw(&self) -> Box<dyn Db> {
        match &self.kind {
            Kind::Sqlite { path, .. } => Box::new(rusqlite::Connection::open(path).unwrap()),
            Kind::Postgres { url, schema } => {
                let db = Postgres::connect(url).unwrap();
                use_schema(&db, schema).unwrap();
                Box::new(db)
            }
        }
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        self.c = None;
        if let Kind::Postgres { url, schema } = &self.kind {
            drop_schema(url, schema);
        }
    }
}

/// A test written once, run on both backends: `<name>::on_sqlite` and
/// `<name>::on_postgres`.
macro_rules! both {
    ($(#[$m:meta])* fn $name:ident($s:ident) $body:block) => {
        $(#[$m])*
        mod $name {
            use super::*;

            fn run($s: &mut Store) $body

            #[test]
            fn on_sqlite() {
                run(&mut Store::sqlite());
            }

            #[test]
            fn on_postgres() {
                if let Some(mut s) = Store::postgres(stringify!($name)) {
                    run(&mut s);
                }
            }
        }
    };
}
