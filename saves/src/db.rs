//! The store's one door to its database (issue 31, `server/POSTGRES.md` §1,
//! step P1): every SQL statement of `saves` is issued through the [`Db`]
//! trait, never through a driver's own API, so that the campaign rules are
//! written once and a second backend (PostgreSQL, step P2) is one more
//! implementation of this trait, not a second copy of the rules.
//!
//! What the trait offers:
//!
//! - [`Db::execute`] a statement with parameters ([`ToParam`]: integers,
//!   reals, text, bytes, `NULL`), [`Db::execute_batch`] a script,
//!   [`Db::statement`] one to run many times (a bulk insert);
//! - rows two ways: [`DbExt::query`] into owned [`Value`] cells
//!   (`i64 | f64 | String | Vec<u8> | Null`), and the typed reader
//!   ([`Db::query_each`], [`DbExt::each`], [`DbExt::row`], [`DbExt::one`])
//!   that hands each row to a closure as a [`Row`] whose cells are read in
//!   place ([`Row::get`], [`Row::blob`]): the entries scan of a
//!   1,000,000-entry battle copies no cell it does not keep;
//! - a transaction ([`DbExt::begin`]: [`Tx`]) with savepoints
//!   ([`Tx::savepoint`]: [`Savepoint`]), rolled back when dropped
//!   unfinished, as `rusqlite`'s are;
//! - the dialect hooks the rewriter needs ([`Dialect`], [`rewrite`]):
//!   `?N` placeholders become `$N`, `INSERT OR IGNORE` becomes
//!   `ON CONFLICT DO NOTHING`, `BLOB` becomes `BYTEA`, `INTEGER PRIMARY KEY`
//!   (SQLite's rowid) becomes an identity column, and the new row's id is
//!   [`Db::insert_id`] (`last_insert_rowid()` on SQLite, `RETURNING id` on
//!   PostgreSQL). A table's existence is [`Db::table_exists`] (SQLite's
//!   `sqlite_master`, PostgreSQL's `to_regclass`).
//!
//! ## What a `Campaign` holds: the enum [`Conn`], not `Box<dyn Db>`
//!
//! A campaign holds a [`Conn`], an enum of the backends (today one variant,
//! [`Conn::Sqlite`]; P2 adds `Postgres`), which implements [`Db`] by
//! delegating to its variant. Why an enum rather than a boxed trait object:
//!
//! 1. The set is closed and `saves` owns both members: nothing outside adds a
//!    backend, so the openness of `dyn` buys nothing.
//! 2. Some operations belong to one backend only: SQLite's
//!    checkpoint-on-close switch, `synchronous`, `VACUUM INTO` backups, close
//!    and sync the file, migrations through `rusqlite_migration`. On the enum
//!    they are a `match` that the compiler checks for every variant when P2
//!    adds one; on a `Box<dyn Db>` they would be downcasts or trait methods
//!    that one backend cannot honour.
//! 3. Calls on the campaign's own connection dispatch statically; code that
//!    runs inside a transaction takes `&dyn Db` ([`Tx`] and [`Savepoint`]
//!    are `Db`s), one indirect call per statement or per row, which costs
//!    nothing next to a statement (measured with `benches/store_count.rs`
//!    and `perf stat`).
//!
//! `Db` is also implemented for `rusqlite::Connection` (what the
//! `Sqlite` variant delegates to). The P1 bridge (`Conn`'s `Deref` to the
//! SQLite connection, `Db` on `rusqlite::Transaction`, for `merge.rs` and
//! `transfer.rs`) is gone since session 17: every file of `saves` but this
//! one and `db/pg.rs` goes through [`Db`]
//! (`tests::p1_every_statement_of_saves_goes_through_db`).
//!
//! ## Errors
//!
//! A [`DbError`] carries the driver's own words (for SQLite exactly
//! `rusqlite`'s, so every message a player saw before reads the same) and,
//! where it matters for the words `saves` puts around them
//! (`error::sql_words`), what kind of failure it was ([`Code`]).

use std::borrow::Cow;
use std::path::Path;
use std::time::Duration;

/// The PostgreSQL backend (P2): `db/pg.rs`.
pub mod pg;

// ---------------------------------------------------------------------------
// Values, parameters, errors

/// One cell, owned: what [`DbExt::query`] returns.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// One parameter of a statement, borrowed from the caller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Param<'a> {
    Null,
    Integer(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
}

/// What can be bound to a `?N` of a statement. Booleans are stored as the
/// integers 0 and 1 (as `rusqlite` binds them), unsigned integers that fit
/// as they are; a `u64` (a seed, an entry id) is stored by the caller as
/// its `i64` bit pattern (`as i64`, migration 1).
pub trait ToParam {
    fn to_param(&self) -> Param<'_>;
}

macro_rules! int_param {
    ($($t:ty),*) => {$(
        impl ToParam for $t {
            fn to_param(&self) -> Param<'_> {
                Param::Integer(i64::from(*self))
            }
        }
    )*};
}
int_param!(i64, i32, u32, u16, u8, bool);

impl ToParam for f64 {
    fn to_param(&self) -> Param<'_> {
        Param::Real(*self)
    }
}
impl ToParam for str {
    fn to_param(&self) -> Param<'_> {
        Param::Text(self)
    }
}
impl ToParam for String {
    fn to_param(&self) -> Param<'_> {
        Param::Text(self)
    }
}
impl ToParam for [u8] {
    fn to_param(&self) -> Param<'_> {
        Param::Blob(self)
    }
}
impl ToParam for Vec<u8> {
    fn to_param(&self) -> Param<'_> {
        Param::Blob(self)
    }
}
impl<T: ToParam + ?Sized> ToParam for &T {
    fn to_param(&self) -> Param<'_> {
        (**self).to_param()
    }
}
impl<T: ToParam> ToParam for Option<T> {
    fn to_param(&self) -> Param<'_> {
        match self {
            Some(v) => v.to_param(),
            None => Param::Null,
        }
    }
}
impl ToParam for Value {
    fn to_param(&self) -> Param<'_> {
        match self {
            Value::Null => Param::Null,
            Value::Integer(n) => Param::Integer(*n),
            Value::Real(x) => Param::Real(*x),
            Value::Text(s) => Param::Text(s),
            Value::Blob(b) => Param::Blob(b),
        }
    }
}
impl ToParam for Param<'_> {
    fn to_param(&self) -> Param<'_> {
        *self
    }
}

/// The parameters of one statement, in `?1, ?2...` order.
pub type Params<'p> = &'p [&'p dyn ToParam];

/// What kind of failure a [`DbError`] is, where `saves` words it itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    DiskFull,
    /// Another connection holds a lock (SQLite's BUSY or LOCKED).
    Busy,
    ReadOnly,
    PermissionDenied,
    Corrupt,
    NotADatabase,
    /// The disk reported an error.
    Io,
    CannotOpen,
    /// A query that must return a row returned none.
    NoRows,
    /// A unique or primary key refused the row (SQLite's
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`/`_UNIQUE`, PostgreSQL's `23505`):
    /// recognised by the code, never by the message's words.
    Unique,
    /// PostgreSQL could not serialize the transaction with another one
    /// (`40001`) or found a deadlock (`40P01`): retrying may succeed.
    Serialization,
    /// The connection to the database server is lost or was refused
    /// (PostgreSQL's SQLSTATE class `08`, `57P01`-`57P03`, or a client
    /// whose connection closed): nothing more goes through it; a new
    /// connection may succeed once the server is back (issue 31).
    Lost,
}

/// A database failure: the driver's own words and, where known, its kind
/// and which backend said it (so `error::sql_words` speaks of the file or
/// of the database, session 18).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbError {
    pub code: Option<Code>,
    text: String,
    on: Dialect,
}

impl DbError {
    /// A failure of `saves`' own making (a conversion, an upgrade), in words.
    pub fn other(text: impl Into<String>) -> DbError {
        DbError {
            code: None,
            text: text.into(),
            on: Dialect::Sqlite,
        }
    }

    /// A failure of this kind, in these words, from this backend (tests).
    #[cfg(test)]
    pub(crate) fn coded(code: Code, text: &str, on: Dialect) -> DbError {
        DbError {
            code: Some(code),
            text: text.into(),
            on,
        }
    }

    /// Which backend failed: SQLite (a file, or `saves`' own words) or
    /// PostgreSQL.
    pub fn dialect(&self) -> Dialect {
        self.on
    }
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for DbError {}

/// A cell as a backend read it, borrowed: what [`Cell::from_cell`]
/// converts (the same five kinds as a parameter).
pub type CellRef<'a> = Param<'a>;

impl Param<'_> {
    /// What the cell holds, in words ("the integer 300", "text").
    pub fn words(&self) -> String {
        match self {
            CellRef::Null => "NULL".into(),
            CellRef::Integer(n) => format!("the integer {n}"),
            CellRef::Real(x) => format!("the real {x}"),
            CellRef::Text(_) => "text".into(),
            CellRef::Blob(b) => format!("{} bytes", b.len()),
        }
    }
}

/// A cell's type as Rust reads it. On SQLite the conversion is `rusqlite`'s
/// own (`FromSql`), so a damaged file's cell is refused in the same words
/// as ever; on PostgreSQL it is [`Cell::from_cell`] (session 18), whose
/// refusal `db/pg.rs` words with the column and its PostgreSQL type.
pub trait Cell: Sized + rusqlite::types::FromSql {
    /// The cell as this type, or what was wanted instead, in words ("an
    /// integer from 0 to 255").
    fn from_cell(v: CellRef<'_>) -> Result<Self, &'static str>;
}

macro_rules! int_cell {
    ($($t:ty => $wanted:literal),*) => {$(
        impl Cell for $t {
            fn from_cell(v: CellRef<'_>) -> Result<Self, &'static str> {
                match v {
                    CellRef::Integer(n) => <$t>::try_from(n).map_err(|_| $wanted),
                    _ => Err($wanted),
                }
            }
        }
    )*};
}
int_cell!(
    i64 => "an integer",
    i32 => "an integer of 32 bits",
    u32 => "an integer from 0 to 4294967295",
    u16 => "an integer from 0 to 65535",
    u8 => "an integer from 0 to 255"
);

impl Cell for bool {
    fn from_cell(v: CellRef<'_>) -> Result<Self, &'static str> {
        match v {
            // As SQLite's: any integer, 0 false.
            CellRef::Integer(n) => Ok(n != 0),
            _ => Err("an integer (0 or 1, a flag)"),
        }
    }
}
impl Cell for f64 {
    fn from_cell(v: CellRef<'_>) -> Result<Self, &'static str> {
        match v {
            CellRef::Real(x) => Ok(x),
            CellRef::Integer(n) => Ok(n as f64),
            _ => Err("a number"),
        }
    }
}
impl Cell for String {
    fn from_cell(v: CellRef<'_>) -> Result<Self, &'static str> {
        match v {
            CellRef::Text(t) => Ok(t.to_owned()),
            _ => Err("text"),
        }
    }
}
impl Cell for Vec<u8> {
    fn from_cell(v: CellRef<'_>) -> Result<Self, &'static str> {
        match v {
            CellRef::Blob(b) => Ok(b.to_vec()),
            _ => Err("bytes"),
        }
    }
}
impl<T: Cell> Cell for Option<T> {
    fn from_cell(v: CellRef<'_>) -> Result<Self, &'static str> {
        match v {
            CellRef::Null => Ok(None),
            v => T::from_cell(v).map(Some),
        }
    }
}

/// A prepared statement ([`Db::statement`]).
pub trait Stmt {
    /// Run it with these parameters; the rows it changed.
    fn execute(&mut self, params: Params<'_>) -> Result<usize, DbError>;
}

/// A row, read in place: valid only inside the closure it is given to.
pub struct Row<'a> {
    inner: RowInner<'a>,
}

enum RowInner<'a> {
    Sqlite(&'a rusqlite::Row<'a>),
    /// A PostgreSQL row as the server sent it (binary); cells are read
    /// in place (`pg.rs`).
    Postgres(&'a postgres::Row),
}

impl Row<'_> {
    /// Column `i` (from 0) as `T`.
    pub fn get<T: Cell>(&self, i: usize) -> Result<T, DbError> {
        match &self.inner {
            RowInner::Sqlite(r) => r.get(i).map_err(DbError::from),
            RowInner::Postgres(r) => pg::get(r, i),
        }
    }

    /// Column `i` as bytes, borrowed (no copy); `None` if the cell is not
    /// bytes (a damaged file may hold anything), an error only if there is
    /// no such column.
    pub fn blob(&self, i: usize) -> Result<Option<&[u8]>, DbError> {
        match &self.inner {
            RowInner::Sqlite(r) => Ok(r.get_ref(i)?.as_blob().ok()),
            RowInner::Postgres(r) => pg::blob(r, i),
        }
    }

    /// Column `i` as an owned [`Value`].
    pub fn value(&self, i: usize) -> Result<Value, DbError> {
        use rusqlite::types::ValueRef as V;
        match &self.inner {
            RowInner::Sqlite(r) => Ok(match r.get_ref(i)? {
                V::Null => Value::Null,
                V::Integer(n) => Value::Integer(n),
                V::Real(x) => Value::Real(x),
                V::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                V::Blob(b) => Value::Blob(b.to_vec()),
            }),
            RowInner::Postgres(r) => pg::value(r, i),
        }
    }

    /// How many columns the row has.
    pub fn width(&self) -> usize {
        match &self.inner {
            RowInner::Sqlite(r) => r.as_ref().column_count(),
            RowInner::Postgres(r) => r.len(),
        }
    }

    /// The row read whole into a tuple of cells: column `i` into the
    /// tuple's `i`th.
    pub fn tuple<T: FromRow>(&self) -> Result<T, DbError> {
        T::from_row(self)
    }
}

/// What [`Row::tuple`] reads a row into: a tuple of up to ten [`Cell`]s.
pub trait FromRow: Sized {
    fn from_row(r: &Row<'_>) -> Result<Self, DbError>;
}

macro_rules! from_row_tuple {
    ($($t:ident $i:tt),+) => {
        impl<$($t: Cell),+> FromRow for ($($t,)+) {
            fn from_row(r: &Row<'_>) -> Result<Self, DbError> {
                Ok(($(r.get::<$t>($i)?,)+))
            }
        }
    };
}
from_row_tuple!(A 0, B 1);
from_row_tuple!(A 0, B 1, C 2);
from_row_tuple!(A 0, B 1, C 2, D 3);
from_row_tuple!(A 0, B 1, C 2, D 3, E 4);
from_row_tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
from_row_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
from_row_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
from_row_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
from_row_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);

// ---------------------------------------------------------------------------
// The trait

/// Which SQL a connection speaks: the statements are written once, in
/// SQLite's words, and [`rewrite`] turns them into PostgreSQL's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// How a transaction starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Begin {
    /// Takes the write lock when it first writes (SQLite `BEGIN DEFERRED`).
    Deferred,
    /// Takes the write lock at once (SQLite `BEGIN IMMEDIATE`; on
    /// PostgreSQL `BEGIN`, the head check locking the battle's row).
    Immediate,
    /// Reads only, every statement seeing the database as it was when the
    /// first one ran (SQLite: a deferred read transaction, which in WAL
    /// mode reads one snapshot; PostgreSQL: `REPEATABLE READ READ ONLY`).
    Snapshot,
}

/// A database connection, as the campaign rules see it (module docs).
///
/// Every method takes `&self`, as `rusqlite`'s do: a campaign reads and
/// writes through a shared reference (loading a battle refreshes its cached
/// status). A backend whose client needs `&mut` keeps it in a `RefCell`.
pub trait Db {
    /// The SQL this connection speaks.
    fn dialect(&self) -> Dialect;

    /// Run one statement (prepared once and cached); the rows it changed.
    fn execute(&self, sql: &str, params: Params<'_>) -> Result<usize, DbError>;

    /// Run a script of statements without parameters.
    fn execute_batch(&self, sql: &str) -> Result<(), DbError>;

    /// Prepare one statement to run many times (a bulk insert): the
    /// statement is looked up once, not once per row.
    fn statement<'a>(&'a self, sql: &str) -> Result<Box<dyn Stmt + 'a>, DbError>;

    /// Run one query and hand each row to `f` in order until it returns
    /// `Ok(false)` or the rows end.
    fn query_each(
        &self,
        sql: &str,
        params: Params<'_>,
        f: &mut dyn FnMut(&Row<'_>) -> Result<bool, DbError>,
    ) -> Result<(), DbError>;

    /// Run an `INSERT` into a table whose key is an `id` the database
    /// chooses, and return that id: SQLite's `last_insert_rowid()`,
    /// PostgreSQL's `RETURNING id` ([`returning_id`]).
    fn insert_id(&self, sql: &str, params: Params<'_>) -> Result<i64, DbError>;

    /// Whether a table of that name exists (tables made on first use).
    fn table_exists(&self, name: &str) -> Result<bool, DbError>;

    /// Whether a transaction is open on this connection.
    fn in_transaction(&self) -> bool;
}

/// What every [`Db`] offers on top of the trait's own methods.
pub trait DbExt: Db {
    /// Hand each row to `f`; an error of `f` stops the query and is returned.
    fn each<E: From<DbError>>(
        &self,
        sql: &str,
        params: Params<'_>,
        mut f: impl FnMut(&Row<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut failed = None;
        self.query_each(sql, params, &mut |r| match f(r) {
            Ok(()) => Ok(true),
            Err(e) => {
                failed = Some(e);
                Ok(false)
            }
        })?;
        failed.map_or(Ok(()), Err)
    }

    /// The first row, read by `f`, or `None` when there is none.
    fn row<T, E: From<DbError>>(
        &self,
        sql: &str,
        params: Params<'_>,
        f: impl FnOnce(&Row<'_>) -> Result<T, E>,
    ) -> Result<Option<T>, E> {
        let mut f = Some(f);
        let mut out = None;
        self.query_each(sql, params, &mut |r| {
            if let Some(f) = f.take() {
                out = Some(f(r));
            }
            Ok(false)
        })?;
        out.transpose()
    }

    /// The first column of the first row; an error ([`Code::NoRows`]) when
    /// there is no row.
    fn one<T: Cell>(&self, sql: &str, params: Params<'_>) -> Result<T, DbError> {
        self.row(sql, params, |r| r.get(0))?.ok_or_else(|| DbError {
            code: Some(Code::NoRows),
            text: "Query returned no rows".into(),
            on: self.dialect(),
        })
    }

    /// Every row, each read by `f`, in the order the query gives them; an
    /// error of `f` stops the query and is returned.
    fn rows<T, E: From<DbError>>(
        &self,
        sql: &str,
        params: Params<'_>,
        mut f: impl FnMut(&Row<'_>) -> Result<T, E>,
    ) -> Result<Vec<T>, E> {
        let mut out = Vec::new();
        self.each(sql, params, |r| {
            out.push(f(r)?);
            Ok::<(), E>(())
        })?;
        Ok(out)
    }

    /// Every row, as owned cells.
    fn query(&self, sql: &str, params: Params<'_>) -> Result<Vec<Vec<Value>>, DbError> {
        self.rows(sql, params, |r| {
            (0..r.width()).map(|i| r.value(i)).collect()
        })
    }

    /// Open a transaction, rolled back if dropped before [`Tx::commit`].
    fn begin(&self, how: Begin) -> Result<Tx<'_>, DbError>
    where
        Self: Sized,
    {
        begin(self, how)
    }
}

impl<D: Db + ?Sized> DbExt for D {}

/// Open a transaction on any connection (also a `&dyn Db`).
pub fn begin(db: &dyn Db, how: Begin) -> Result<Tx<'_>, DbError> {
    db.execute_batch(match (db.dialect(), how) {
        (Dialect::Sqlite, Begin::Deferred | Begin::Snapshot) => "BEGIN DEFERRED",
        (Dialect::Sqlite, Begin::Immediate) => "BEGIN IMMEDIATE",
        (Dialect::Postgres, Begin::Snapshot) => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
        (Dialect::Postgres, _) => "BEGIN",
    })?;
    Ok(Tx {
        db,
        open: true,
        savepoints: std::cell::Cell::new(0),
    })
}

/// An open transaction: statements go through it (it is a [`Db`] itself);
/// [`Tx::commit`] ends it, dropping it rolls it back (unless the database
/// already did, as SQLite does after some failures).
pub struct Tx<'a> {
    db: &'a dyn Db,
    open: bool,
    savepoints: std::cell::Cell<u32>,
}

impl<'a> Tx<'a> {
    /// Commit. If the commit fails the transaction is rolled back (when
    /// the database has not already), as `rusqlite`'s is.
    pub fn commit(mut self) -> Result<(), DbError> {
        self.db.execute_batch("COMMIT")?;
        self.open = false;
        Ok(())
    }

    /// A savepoint inside the transaction: released by
    /// [`Savepoint::release`], rolled back to (and released) otherwise.
    pub fn savepoint(&self) -> Result<Savepoint<'_>, DbError> {
        let n = self.savepoints.get();
        self.savepoints.set(n + 1);
        let name = format!("xenolog_sp{n}");
        self.db.execute_batch(&format!("SAVEPOINT {name}"))?;
        Ok(Savepoint {
            db: self.db,
            name,
            open: true,
        })
    }

    /// The connection, for a helper that takes `&dyn Db`.
    pub fn db(&self) -> &'a dyn Db {
        self.db
    }
}

/// The statements of a transaction (or a savepoint) go to its connection.
macro_rules! through {
    ($t:ident) => {
        impl Db for $t<'_> {
            fn dialect(&self) -> Dialect {
                self.db.dialect()
            }
            fn execute(&self, sql: &str, params: Params<'_>) -> Result<usize, DbError> {
                self.db.execute(sql, params)
            }
            fn execute_batch(&self, sql: &str) -> Result<(), DbError> {
                self.db.execute_batch(sql)
            }
            fn statement<'s>(&'s self, sql: &str) -> Result<Box<dyn Stmt + 's>, DbError> {
                self.db.statement(sql)
            }
            fn query_each(
                &self,
                sql: &str,
                params: Params<'_>,
                f: &mut dyn FnMut(&Row<'_>) -> Result<bool, DbError>,
            ) -> Result<(), DbError> {
                self.db.query_each(sql, params, f)
            }
            fn insert_id(&self, sql: &str, params: Params<'_>) -> Result<i64, DbError> {
                self.db.insert_id(sql, params)
            }
            fn table_exists(&self, name: &str) -> Result<bool, DbError> {
                self.db.table_exists(name)
            }
            fn in_transaction(&self) -> bool {
                self.db.in_transaction()
            }
        }
    };
}
through!(Tx);
through!(Savepoint);

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.open && self.db.in_transaction() {
            let _ = self.db.execute_batch("ROLLBACK");
        }
    }
}

/// A savepoint of a [`Tx`].
pub struct Savepoint<'a> {
    db: &'a dyn Db,
    name: String,
    open: bool,
}

impl Savepoint<'_> {
    /// Keep what was done since the savepoint (undone if that fails).
    pub fn release(mut self) -> Result<(), DbError> {
        self.db
            .execute_batch(&release(self.db.dialect(), &self.name))?;
        self.open = false;
        Ok(())
    }

    /// Undo what was done since the savepoint, and release it.
    pub fn rollback(mut self) -> Result<(), DbError> {
        self.open = false;
        self.undo()
    }

    fn undo(&self) -> Result<(), DbError> {
        let d = self.db.dialect();
        self.db
            .execute_batch(&format!("ROLLBACK TO {}", sp_name(d, &self.name)))?;
        self.db.execute_batch(&release(d, &self.name))
    }
}

fn sp_name(d: Dialect, name: &str) -> String {
    match d {
        Dialect::Sqlite => name.to_owned(),
        Dialect::Postgres => format!("SAVEPOINT {name}"),
    }
}

fn release(d: Dialect, name: &str) -> String {
    format!("RELEASE {}", sp_name(d, name))
}

impl Drop for Savepoint<'_> {
    fn drop(&mut self) {
        if self.open && self.db.in_transaction() {
            let _ = self.undo();
        }
    }
}

// ---------------------------------------------------------------------------
// The rewriter (used by the PostgreSQL backend, P2; tested on strings now)

/// `sql`, written in SQLite's words, in `to`'s words. For SQLite it is the
/// statement itself. For PostgreSQL, one rule each, applied outside quoted
/// strings and identifiers:
///
/// - `?N` → `$N` (parameters);
/// - `INSERT OR IGNORE INTO ...` → `INSERT INTO ... ON CONFLICT DO NOTHING`;
/// - `INSERT OR REPLACE INTO t (cols) ...` → `INSERT INTO t (cols) ...
///   ON CONFLICT (key) DO UPDATE SET c = EXCLUDED.c` for the other columns,
///   the key from [`primary_key`];
/// - `BLOB` → `BYTEA`; `INTEGER PRIMARY KEY` (the rowid) →
///   `BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY`; any other
///   `INTEGER` → `BIGINT` (SQLite's integers are 64-bit); `WITHOUT ROWID`
///   dropped;
/// - SQLite's scalar `MAX(a, b)` / `MIN(a, b)` → `GREATEST` / `LEAST`
///   (with one argument it is the aggregate, the same in both);
/// - `lower(hex(randomblob(N)))` → `N` random bytes in hex from
///   `gen_random_uuid()`, for N up to 16;
/// - `BEGIN IMMEDIATE` / `BEGIN DEFERRED` → `BEGIN`.
///
/// `PRAGMA` statements have no PostgreSQL form: [`rewrite`] returns `None`
/// for them, and the backend skips them.
pub fn rewrite(sql: &str, to: Dialect) -> Option<Cow<'_, str>> {
    if to == Dialect::Sqlite {
        return Some(Cow::Borrowed(sql));
    }
    let words = tokens(sql);
    let upper = |i: usize| words.get(i).map(|t| t.text.to_ascii_uppercase());
    if upper(first_word(&words)).as_deref() == Some("PRAGMA") {
        return None;
    }
    let mut out = String::with_capacity(sql.len() + 32);
    let mut tail = String::new();
    let mut i = 0;
    while i < words.len() {
        let t = &words[i];
        let w = t.text.to_ascii_uppercase();
        let next = |k: usize| next_word(&words, i, k).map(|j| words[j].text.to_ascii_uppercase());
        match t.kind {
            Kind::Param => {
                out.push('$');
                out.push_str(&t.text[1..]);
            }
            Kind::Word
                if w == "BEGIN" && matches!(next(1).as_deref(), Some("IMMEDIATE" | "DEFERRED")) =>
            {
                out.push_str("BEGIN");
                i = next_word(&words, i, 1).unwrap_or(i);
            }
            Kind::Word if w == "INSERT" && next(1).as_deref() == Some("OR") => {
                let how = next(2);
                out.push_str(t.text);
                i = next_word(&words, i, 2).unwrap_or(i);
                match how.as_deref() {
                    Some("IGNORE") => tail = " ON CONFLICT DO NOTHING".into(),
                    Some("REPLACE") => tail = upsert(&words[i + 1..]),
                    _ => {}
                }
            }
            Kind::Word if w == "BLOB" => out.push_str("BYTEA"),
            // SQLite's scalar MAX/MIN of several arguments; with one it is
            // the aggregate, the same word in both.
            Kind::Word if (w == "MAX" || w == "MIN") && several_arguments(&words[i + 1..]) => {
                out.push_str(if w == "MAX" { "GREATEST" } else { "LEAST" });
            }
            Kind::Word
                if w == "INTEGER"
                    && next(1).as_deref() == Some("PRIMARY")
                    && next(2).as_deref() == Some("KEY") =>
            {
                out.push_str("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY");
                i = next_word(&words, i, 2).unwrap_or(i);
            }
            Kind::Word if w == "INTEGER" => out.push_str("BIGINT"),
            Kind::Word if w == "WITHOUT" && next(1).as_deref() == Some("ROWID") => {
                // Drop the words and the blank before them.
                while out.ends_with(char::is_whitespace) {
                    out.pop();
                }
                i = next_word(&words, i, 1).unwrap_or(i);
            }
            Kind::Word if w == "LOWER" => match random_hex(&words[i..]) {
                Some((n, used)) => {
                    out.push_str(&format!(
                        "substr(replace(gen_random_uuid()::text, '-', ''), 1, {})",
                        n * 2
                    ));
                    i += used - 1;
                }
                None => out.push_str(t.text),
            },
            _ => out.push_str(t.text),
        }
        i += 1;
    }
    if !tail.is_empty() {
        let end = out.trim_end().trim_end_matches(';').trim_end().len();
        out.truncate(end);
        out.push_str(&tail);
    }
    Some(Cow::Owned(out))
}

/// A script of statements (a migration) in `to`'s words: each statement
/// [`rewrite`]n, those with no form there (`PRAGMA`) left out but for the
/// comments before them. Statements end at a `;` outside quotes and comments.
pub fn rewrite_script(sql: &str, to: Dialect) -> String {
    if to == Dialect::Sqlite {
        return sql.to_owned();
    }
    let words = tokens(sql);
    let mut out = String::with_capacity(sql.len() + 64);
    let mut start = 0;
    let cut = |from: usize, to_: usize, out: &mut String| {
        let text = &sql[words[from].at..words.get(to_).map_or(sql.len(), |t| t.at)];
        match rewrite(text, to) {
            Some(stmt) => out.push_str(&stmt),
            // Keep the comments and blanks before the statement left out.
            None => words[from..to_]
                .iter()
                .take_while(|t| t.kind == Kind::Space)
                .for_each(|t| out.push_str(t.text)),
        }
    };
    for (i, t) in words.iter().enumerate() {
        if t.kind == Kind::Other && t.text == ";" {
            cut(start, i + 1, &mut out);
            start = i + 1;
        }
    }
    if start < words.len() {
        cut(start, words.len(), &mut out);
    }
    out
}

/// An `INSERT` of a table keyed by a database-chosen `id`, returning it
/// (PostgreSQL's form of SQLite's `last_insert_rowid()`).
pub fn returning_id(insert: &str) -> String {
    let body = insert.trim_end().trim_end_matches(';').trim_end();
    format!("{body} RETURNING id")
}

/// The key columns of each campaign table that `INSERT OR REPLACE` writes
/// (schema/migrations): what `ON CONFLICT (...)` names on PostgreSQL.
pub fn primary_key(table: &str) -> Option<&'static [&'static str]> {
    Some(match table {
        "snapshots" | "entries" => &["battle", "seq"],
        "branches" => &["battle", "id"],
        "notes" => &["battle", "entry"],
        "fair_seeds" | "campaign_results" => &["battle"],
        "seat_nonces" => &["battle", "seat"],
        "club_commands" => &["battle", "seat", "cmd_id"],
        "campaign" | "battles" | "campaign_log" | "campaign_conflicts" => &["id"],
        _ => return None,
    })
}

/// `ON CONFLICT (key) DO UPDATE SET c = EXCLUDED.c, ...` for an
/// `INTO t (c1, c2, ...)` that follows.
fn upsert(rest: &[Token<'_>]) -> String {
    let words: Vec<&Token<'_>> = rest
        .iter()
        .filter(|t| !matches!(t.kind, Kind::Space))
        .collect();
    // INTO table ( cols... )
    let table = words.get(1).map(|t| t.text).unwrap_or("");
    let cols: Vec<&str> = words
        .iter()
        .skip(2)
        .take_while(|t| t.text != ")")
        .filter(|t| matches!(t.kind, Kind::Word))
        .map(|t| t.text)
        .collect();
    let Some(key) = primary_key(table) else {
        return " ON CONFLICT DO NOTHING".into();
    };
    let set: Vec<String> = cols
        .iter()
        .filter(|c| !key.contains(c))
        .map(|c| format!("{c} = EXCLUDED.{c}"))
        .collect();
    if set.is_empty() {
        return format!(" ON CONFLICT ({}) DO NOTHING", key.join(", "));
    }
    format!(
        " ON CONFLICT ({}) DO UPDATE SET {}",
        key.join(", "),
        set.join(", ")
    )
}

/// Whether `w` starts with a parenthesised list of more than one argument.
fn several_arguments(w: &[Token<'_>]) -> bool {
    let mut depth = 0;
    for t in w.iter().filter(|t| t.kind != Kind::Space) {
        match t.text {
            "(" => depth += 1,
            ")" if depth <= 1 => return false,
            ")" => depth -= 1,
            "," if depth == 1 => return true,
            _ if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

/// `lower ( hex ( randomblob ( N ) ) )` at the start of `w`: N and how many
/// tokens it takes.
fn random_hex(w: &[Token<'_>]) -> Option<(u32, usize)> {
    let want = [
        "lower",
        "(",
        "hex",
        "(",
        "randomblob",
        "(",
        "#",
        ")",
        ")",
        ")",
    ];
    let mut n = None;
    let mut k = 0;
    for (used, t) in w.iter().enumerate() {
        if matches!(t.kind, Kind::Space) {
            continue;
        }
        let expect = want[k];
        if expect == "#" {
            n = t.text.parse::<u32>().ok().filter(|n| (1..=16).contains(n));
            n?;
        } else if !t.text.eq_ignore_ascii_case(expect) {
            return None;
        }
        k += 1;
        if k == want.len() {
            return n.map(|n| (n, used + 1));
        }
    }
    None
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Word,
    Param,
    Quoted,
    Space,
    Other,
}

struct Token<'a> {
    kind: Kind,
    text: &'a str,
    /// Where it starts in the statement.
    at: usize,
}

fn first_word(t: &[Token<'_>]) -> usize {
    t.iter()
        .position(|t| !matches!(t.kind, Kind::Space))
        .unwrap_or(0)
}

/// The index of the `k`th token after `i` that is not blank.
fn next_word(t: &[Token<'_>], i: usize, k: usize) -> Option<usize> {
    t.iter()
        .enumerate()
        .skip(i + 1)
        .filter(|(_, t)| !matches!(t.kind, Kind::Space))
        .nth(k - 1)
        .map(|(j, _)| j)
}

/// Split SQL into words, `?N` parameters, quoted strings and identifiers
/// (kept whole, never rewritten), blanks and comments, and single characters.
fn tokens(sql: &str) -> Vec<Token<'_>> {
    let b = sql.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        let kind = if c.is_ascii_alphanumeric() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            Kind::Word
        } else if c == b'?' {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            Kind::Param
        } else if c == b'\'' || c == b'"' || c == b'`' {
            i += 1;
            loop {
                if i >= b.len() {
                    break;
                }
                if b[i] == c {
                    // A doubled quote is a quote inside the string.
                    if i + 1 < b.len() && b[i + 1] == c {
                        i += 2;
                        continue;
                    }
                    i += 1;
                    break;
                }
                i += 1;
            }
            Kind::Quoted
        } else if c == b'-' && b.get(i + 1) == Some(&b'-') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            Kind::Space
        } else if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            Kind::Space
        } else {
            // One character (all of it, if not ASCII).
            i += sql[i..].chars().next().map_or(1, char::len_utf8);
            Kind::Other
        };
        out.push(Token {
            kind,
            text: &sql[start..i],
            at: start,
        });
    }
    out
}

// ---------------------------------------------------------------------------
// SQLite (rusqlite): the only file of `saves` that names `rusqlite`, besides
// `merge.rs` and `transfer.rs` until they move (module docs).

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        use rusqlite::ErrorCode as C;
        let code = match e.sqlite_error_code() {
            Some(C::DiskFull) => Some(Code::DiskFull),
            Some(C::DatabaseBusy | C::DatabaseLocked) => Some(Code::Busy),
            Some(C::ReadOnly) => Some(Code::ReadOnly),
            Some(C::PermissionDenied) => Some(Code::PermissionDenied),
            Some(C::DatabaseCorrupt) => Some(Code::Corrupt),
            Some(C::NotADatabase) => Some(Code::NotADatabase),
            Some(C::SystemIoFailure) => Some(Code::Io),
            Some(C::CannotOpen) => Some(Code::CannotOpen),
            Some(C::ConstraintViolation)
                if e.sqlite_error().is_some_and(|f| {
                    f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                        || f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                }) =>
            {
                Some(Code::Unique)
            }
            _ if matches!(e, rusqlite::Error::QueryReturnedNoRows) => Some(Code::NoRows),
            _ => None,
        };
        DbError {
            code,
            text: e.to_string(),
            on: Dialect::Sqlite,
        }
    }
}

impl From<rusqlite::types::FromSqlError> for DbError {
    fn from(e: rusqlite::types::FromSqlError) -> Self {
        DbError::from(rusqlite::Error::from(e))
    }
}

impl From<rusqlite_migration::Error> for DbError {
    fn from(e: rusqlite_migration::Error) -> Self {
        match e {
            rusqlite_migration::Error::RusqliteError { err, .. } => DbError::from(err),
            other => DbError::other(format!("upgrading the campaign failed: {other}")),
        }
    }
}

/// A parameter as `rusqlite` binds it (borrowed: nothing is copied).
struct Bind<'a>(Param<'a>);

impl rusqlite::ToSql for Bind<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef as V};
        Ok(ToSqlOutput::Borrowed(match self.0 {
            Param::Null => V::Null,
            Param::Integer(n) => V::Integer(n),
            Param::Real(x) => V::Real(x),
            Param::Text(s) => V::Text(s.as_bytes()),
            Param::Blob(b) => V::Blob(b),
        }))
    }
}

fn bind<'p>(params: Params<'p>) -> impl Iterator<Item = Bind<'p>> + 'p {
    params.iter().map(|p| Bind(p.to_param()))
}

/// How many prepared statements a connection keeps (rusqlite's default is
/// 16; `saves` has more than that on its hot paths together, and every
/// statement now goes through the cache).
const STATEMENT_CACHE: usize = 128;

impl Db for rusqlite::Connection {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(&self, sql: &str, params: Params<'_>) -> Result<usize, DbError> {
        Ok(self
            .prepare_cached(sql)?
            .execute(rusqlite::params_from_iter(bind(params)))?)
    }

    fn execute_batch(&self, sql: &str) -> Result<(), DbError> {
        Ok(rusqlite::Connection::execute_batch(self, sql)?)
    }

    fn statement<'a>(&'a self, sql: &str) -> Result<Box<dyn Stmt + 'a>, DbError> {
        Ok(Box::new(SqliteStmt(self.prepare_cached(sql)?)))
    }

    fn query_each(
        &self,
        sql: &str,
        params: Params<'_>,
        f: &mut dyn FnMut(&Row<'_>) -> Result<bool, DbError>,
    ) -> Result<(), DbError> {
        let mut stmt = self.prepare_cached(sql)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(bind(params)))?;
        while let Some(r) = rows.next()? {
            if !f(&Row {
                inner: RowInner::Sqlite(r),
            })? {
                break;
            }
        }
        Ok(())
    }

    fn insert_id(&self, sql: &str, params: Params<'_>) -> Result<i64, DbError> {
        Db::execute(self, sql, params)?;
        Ok(self.last_insert_rowid())
    }

    fn table_exists(&self, name: &str) -> Result<bool, DbError> {
        Ok(self
            .prepare_cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1")?
            .exists([name])?)
    }

    fn in_transaction(&self) -> bool {
        !self.is_autocommit()
    }
}

struct SqliteStmt<'a>(rusqlite::CachedStatement<'a>);

impl Stmt for SqliteStmt<'_> {
    fn execute(&mut self, params: Params<'_>) -> Result<usize, DbError> {
        Ok(self.0.execute(rusqlite::params_from_iter(bind(params)))?)
    }
}

/// A campaign's SQLite connection, with what only SQLite has.
pub struct Sqlite {
    conn: rusqlite::Connection,
}

impl Sqlite {
    fn new(conn: rusqlite::Connection) -> Sqlite {
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        Sqlite { conn }
    }

    /// Open an existing file, never creating one. Checkpointing on close is
    /// off until [`Sqlite::checkpoint_on_close`] turns it on (a stray `-wal`
    /// beside a file not yet known to be a campaign must not be written
    /// into it); a reader waits up to 5 s for a writer mid-checkpoint.
    pub fn open(path: &Path, read_only: bool) -> Result<Sqlite, DbError> {
        use rusqlite::OpenFlags as F;
        let db = Sqlite::open_with(
            path,
            if read_only {
                F::SQLITE_OPEN_READ_ONLY
            } else {
                F::SQLITE_OPEN_READ_WRITE
            },
        )?;
        db.checkpoint_on_close(false)?;
        db.conn.busy_timeout(Duration::from_secs(5))?;
        Ok(db)
    }

    /// Open read-only through a `file:` URI (an immutable file).
    pub fn open_uri_read_only(uri: &str) -> Result<Sqlite, DbError> {
        use rusqlite::OpenFlags as F;
        Sqlite::open_with(uri, F::SQLITE_OPEN_READ_ONLY | F::SQLITE_OPEN_URI)
    }

    /// Open `path` for writing, making it if it is not there (a campaign
    /// being built under its temporary name).
    pub fn create(path: &Path) -> Result<Sqlite, DbError> {
        use rusqlite::OpenFlags as F;
        Sqlite::open_with(path, F::SQLITE_OPEN_READ_WRITE | F::SQLITE_OPEN_CREATE)
    }

    /// A connection opened as `flags` say, without SQLite's own mutex (a
    /// connection is used by one thread at a time).
    fn open_with(path: impl AsRef<Path>, flags: rusqlite::OpenFlags) -> Result<Sqlite, DbError> {
        let flags = flags | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
        Ok(Sqlite::new(rusqlite::Connection::open_with_flags(
            path, flags,
        )?))
    }

    /// A database in memory.
    pub fn in_memory() -> Result<Sqlite, DbError> {
        Ok(Sqlite::new(rusqlite::Connection::open_in_memory()?))
    }

    /// Whether closing the last connection checkpoints the log into the file.
    pub fn checkpoint_on_close(&self, on: bool) -> Result<(), DbError> {
        self.conn.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            !on,
        )?;
        Ok(())
    }

    /// Run the numbered migrations up to the latest (`xenolog_schema`).
    pub fn migrate(&mut self) -> Result<(), DbError> {
        xenolog_schema::migrations().to_latest(&mut self.conn)?;
        Ok(())
    }

    /// Set a pragma (`PRAGMA name = value`).
    pub fn pragma_set(&self, name: &str, value: &str) -> Result<(), DbError> {
        self.conn.pragma_update(None, name, value)?;
        Ok(())
    }

    /// Close, reporting a failure (the log checkpointed, if on).
    pub fn close(self) -> Result<(), DbError> {
        self.conn.close().map_err(|(_, e)| DbError::from(e))
    }
}

/// A campaign's connection: one of the backends (module docs: why an enum).
pub enum Conn {
    Sqlite(Sqlite),
    /// A campaign in a schema of a PostgreSQL database (P2): the client,
    /// its `search_path` set to the schema, and the schema's name.
    Postgres {
        db: Box<pg::Postgres>,
        schema: String,
    },
}

impl Conn {
    /// The SQLite connection, for what only a file has (its write-ahead
    /// log, `synchronous`, checkpointing on close); `None` on PostgreSQL.
    pub fn sqlite(&self) -> Option<&Sqlite> {
        match self {
            Conn::Sqlite(s) => Some(s),
            Conn::Postgres { .. } => None,
        }
    }

    /// The campaign's schema on PostgreSQL; `None` for a SQLite file.
    pub fn schema(&self) -> Option<&str> {
        match self {
            Conn::Sqlite(_) => None,
            Conn::Postgres { schema, .. } => Some(schema),
        }
    }

    /// Where a PostgreSQL campaign is (the database's name, the server's
    /// address and port, the schema), to tell two opens of one campaign
    /// from two copies of it (a merge); `None` for SQLite, whose file is
    /// known by its path.
    pub fn postgres_place(&self) -> Result<Option<String>, DbError> {
        match self {
            Conn::Sqlite(_) => Ok(None),
            Conn::Postgres { schema, .. } => {
                let at: String = self.one(
                    "SELECT current_database() || ' ' || \
                     COALESCE(CAST(inet_server_addr() AS TEXT), '') || ' ' || \
                     COALESCE(CAST(inet_server_port() AS TEXT), '')",
                    &[],
                )?;
                Ok(Some(format!("{at} {schema}")))
            }
        }
    }

    /// Close the connection, reporting a failure.
    pub fn close(self) -> Result<(), DbError> {
        match self {
            Conn::Sqlite(s) => s.close(),
            // Nothing to checkpoint or sync: every commit is on the
            // server already; this ends the session.
            Conn::Postgres { db, .. } => (*db).close(),
        }
    }

    /// The typed fast path for a long scan (a battle's entries): what
    /// [`DbExt::each`] does, but generic over the reader, so the row loop
    /// is compiled with it inline and no call per row goes through a
    /// `dyn` (measured: `each` costs about 70 instructions more per row
    /// on the 1,000,000-entry open; `benches/store_count.rs`). On
    /// PostgreSQL the rows stream (`query_raw`: read from the socket as
    /// the reader takes them, never the whole table in memory at once);
    /// the reader must not use the connection meanwhile (refused in words).
    pub fn scan<E: From<DbError>>(
        &self,
        sql: &str,
        params: Params<'_>,
        mut f: impl FnMut(&Row<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        match self {
            Conn::Sqlite(s) => {
                let mut stmt = s.conn.prepare_cached(sql).map_err(DbError::from)?;
                let mut rows = stmt
                    .query(rusqlite::params_from_iter(bind(params)))
                    .map_err(DbError::from)?;
                while let Some(r) = rows.next().map_err(DbError::from)? {
                    f(&Row {
                        inner: RowInner::Sqlite(r),
                    })?;
                }
                Ok(())
            }
            Conn::Postgres { db, .. } => db.scan(sql, params, f),
        }
    }

    /// Bring the schema to the latest version (the numbered migrations):
    /// `rusqlite_migration` on a file; on PostgreSQL the same migrations,
    /// rewritten, in one transaction, `schema_version` updated, the
    /// identities caught up and the statement cache dropped
    /// ([`pg::upgrade_campaign_schema`]).
    pub fn migrate(&mut self) -> Result<(), DbError> {
        match self {
            Conn::Sqlite(s) => s.migrate(),
            Conn::Postgres { db, schema } => pg::upgrade_campaign_schema(db, schema).map(|_| ()),
        }
    }

    /// The campaign's tables (not SQLite's own, not PostgreSQL's
    /// `schema_version`), by name.
    pub fn tables(&self) -> Result<Vec<String>, DbError> {
        let sql = match self {
            Conn::Sqlite(_) => {
                "SELECT name FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%' ORDER BY name"
            }
            Conn::Postgres { .. } => {
                "SELECT CAST(table_name AS TEXT) FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
                 AND table_name <> 'schema_version' ORDER BY 1"
            }
        };
        let mut out = Vec::new();
        self.each(sql, &[], |r| {
            out.push(r.get::<String>(0)?);
            Ok::<(), DbError>(())
        })?;
        Ok(out)
    }

    /// Table `table`'s columns, in their order.
    pub fn columns(&self, table: &str) -> Result<Vec<String>, DbError> {
        let sql = match self {
            Conn::Sqlite(_) => "SELECT name FROM pragma_table_info(?1) ORDER BY cid",
            Conn::Postgres { .. } => {
                "SELECT CAST(column_name AS TEXT) FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = ?1 \
                 ORDER BY ordinal_position"
            }
        };
        let mut out = Vec::new();
        self.each(sql, &[&table], |r| {
            out.push(r.get::<String>(0)?);
            Ok::<(), DbError>(())
        })?;
        Ok(out)
    }

    /// After rows were written with ids of their own (a battle import
    /// keeps none, but a copy and a merge's log numbers do): the next id
    /// the database chooses follows them. SQLite's rowid does by itself;
    /// PostgreSQL's identity columns are set ([`pg::catch_up_identities`]).
    pub fn catch_up_identities(&self) -> Result<(), DbError> {
        match self {
            Conn::Sqlite(_) => Ok(()),
            Conn::Postgres { db, .. } => pg::catch_up_identities(db).map(|_| ()),
        }
    }
}

/// Every call goes to the backend's own implementation.
macro_rules! both {
    ($self:ident, $c:ident => $e:expr) => {
        match $self {
            Conn::Sqlite(s) => {
                let $c = &s.conn;
                $e
            }
            Conn::Postgres { db, .. } => {
                let $c: &pg::Postgres = db;
                $e
            }
        }
    };
}

impl Db for Conn {
    fn dialect(&self) -> Dialect {
        both!(self, c => c.dialect())
    }
    fn execute(&self, sql: &str, params: Params<'_>) -> Result<usize, DbError> {
        both!(self, c => Db::execute(c, sql, params))
    }
    fn execute_batch(&self, sql: &str) -> Result<(), DbError> {
        both!(self, c => Db::execute_batch(c, sql))
    }
    fn statement<'a>(&'a self, sql: &str) -> Result<Box<dyn Stmt + 'a>, DbError> {
        both!(self, c => Db::statement(c, sql))
    }
    fn query_each(
        &self,
        sql: &str,
        params: Params<'_>,
        f: &mut dyn FnMut(&Row<'_>) -> Result<bool, DbError>,
    ) -> Result<(), DbError> {
        both!(self, c => Db::query_each(c, sql, params, f))
    }
    fn insert_id(&self, sql: &str, params: Params<'_>) -> Result<i64, DbError> {
        both!(self, c => Db::insert_id(c, sql, params))
    }
    fn table_exists(&self, name: &str) -> Result<bool, DbError> {
        both!(self, c => Db::table_exists(c, name))
    }
    fn in_transaction(&self) -> bool {
        both!(self, c => Db::in_transaction(c))
    }
}

/// Rust sources read as text, for the tests of every crate that check what
/// their own code says (each SQL statement prepares on both backends, no
/// GUI path in the command line, no whole battle outside the lens): one
/// reader here, which `saves`, `xenolog-server` and the app's tests share
/// instead of a copy each.
#[doc(hidden)]
pub mod source {
    use std::path::{Path, PathBuf};

    /// Every `.rs` file below `dir`, sorted.
    pub fn rust_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
            for e in std::fs::read_dir(dir)? {
                let p = e?.path();
                if p.is_dir() {
                    walk(&p, out)?;
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
            Ok(())
        }
        let mut out = Vec::new();
        walk(dir, &mut out)?;
        out.sort();
        Ok(out)
    }

    /// The string literals of a Rust source whose first word (in any case)
    /// is one of `first_words` (`SELECT`, `INSERT`, ...): its SQL
    /// statements. Comments are passed over (a doc comment may quote), a
    /// character literal such as `'"'` starts no string, and a line
    /// continued with a backslash loses its newline and indent as Rust's does.
    pub fn sql_literals(src: &str, first_words: &[&str]) -> Vec<String> {
        let b = src.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b'\'' if b.get(i + 2) == Some(&b'\'') => i += 3,
                b'"' => {
                    let mut lit = String::new();
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        if b[i] == b'\\' {
                            i += 1;
                            if b.get(i) == Some(&b'\n') {
                                while i + 1 < b.len() && b[i + 1].is_ascii_whitespace() {
                                    i += 1;
                                }
                                i += 1;
                                continue;
                            }
                        }
                        lit.push(b[i] as char);
                        i += 1;
                    }
                    let first = lit.split_whitespace().next().unwrap_or("");
                    if first_words.iter().any(|w| w.eq_ignore_ascii_case(first)) {
                        out.push(lit);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SaveError;

    /// The files of `saves/src` still on `rusqlite`: none since P2 moved
    /// `merge.rs` and `transfer.rs` through [`Db`] (session 17).
    const STILL_ON_RUSQLITE: [&str; 0] = [];

    #[test]
    fn p1_every_statement_of_saves_goes_through_db() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let files = source::rust_files(&src).unwrap();
        assert!(files.len() > 10, "{files:?}");
        // What only a driver's own API would name.
        let driver = [
            "rusqlite",
            ".prepare(",
            "prepare_cached",
            "query_row",
            "query_map",
            "transaction_with_behavior",
            "unchecked_transaction",
            "last_insert_rowid",
            "params!",
        ];
        let mut found = Vec::new();
        for f in &files {
            let name = f.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            // The backends themselves (db.rs, db/pg.rs) name their drivers.
            if name == "db.rs"
                || name.starts_with("db/")
                || STILL_ON_RUSQLITE.contains(&name.as_str())
            {
                continue;
            }
            let text = std::fs::read_to_string(f).unwrap();
            for (n, line) in text.lines().enumerate() {
                if let Some(w) = driver.iter().find(|w| line.contains(*w)) {
                    found.push(format!("{name}:{}: {w}", n + 1));
                }
            }
        }
        assert!(
            found.is_empty(),
            "SQL must go through saves::db::Db, not the driver: {found:#?}"
        );
        // The two left behind still are (when they move, shrink the list).
        for name in STILL_ON_RUSQLITE {
            let text = std::fs::read_to_string(src.join(name)).unwrap();
            assert!(
                text.contains("rusqlite"),
                "{name} no longer names rusqlite: take it off STILL_ON_RUSQLITE"
            );
        }
    }

    fn pg(sql: &str) -> String {
        rewrite(sql, Dialect::Postgres)
            .expect("has a PostgreSQL form")
            .into_owned()
    }

    #[test]
    fn p1_sqlite_statements_are_left_as_written() {
        let s = "INSERT OR IGNORE INTO t (a) VALUES (?1)";
        assert_eq!(rewrite(s, Dialect::Sqlite).as_deref(), Some(s));
    }

    #[test]
    fn p1_rewriter_numbers_parameters_dollar_n_outside_strings() {
        assert_eq!(
            pg("SELECT seq, record FROM entries WHERE battle = ?1 AND seq > ?12 ORDER BY seq"),
            "SELECT seq, record FROM entries WHERE battle = $1 AND seq > $12 ORDER BY seq"
        );
        // A question mark inside a string or a quoted name is text.
        assert_eq!(
            pg("UPDATE t SET note = 'why?1' WHERE \"a?2\" = ?3"),
            "UPDATE t SET note = 'why?1' WHERE \"a?2\" = $3"
        );
        assert_eq!(pg("SELECT 'it''s ?1', ?2"), "SELECT 'it''s ?1', $2");
    }

    #[test]
    fn p1_rewriter_turns_insert_or_ignore_into_on_conflict_do_nothing() {
        assert_eq!(
            pg(
                "INSERT OR IGNORE INTO club_commands (battle, seat, cmd_id, entries) VALUES (?1, ?2, ?3, ?4)"
            ),
            "INSERT INTO club_commands (battle, seat, cmd_id, entries) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING"
        );
        assert_eq!(
            pg("insert or ignore into t (a) values (?1);"),
            "insert into t (a) values ($1) ON CONFLICT DO NOTHING"
        );
    }

    #[test]
    fn p1_rewriter_turns_insert_or_replace_into_an_upsert_on_the_tables_key() {
        assert_eq!(
            pg("INSERT OR REPLACE INTO snapshots (battle, seq, state) VALUES (?1, ?2, ?3)"),
            "INSERT INTO snapshots (battle, seq, state) VALUES ($1, $2, $3) \
             ON CONFLICT (battle, seq) DO UPDATE SET state = EXCLUDED.state"
        );
    }

    #[test]
    fn p1_rewriter_maps_blob_to_bytea_and_the_rowid_key_to_an_identity() {
        let ddl = "CREATE TABLE battles (
    id            INTEGER PRIMARY KEY,
    seed          INTEGER NOT NULL, -- u64 bit pattern
    config        TEXT    NOT NULL
);
CREATE TABLE entries (
    battle INTEGER NOT NULL,
    record BLOB    NOT NULL,
    PRIMARY KEY (battle, seq)
) WITHOUT ROWID;";
        assert_eq!(
            pg(ddl),
            "CREATE TABLE battles (
    id            BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    seed          BIGINT NOT NULL, -- u64 bit pattern
    config        TEXT    NOT NULL
);
CREATE TABLE entries (
    battle BIGINT NOT NULL,
    record BYTEA    NOT NULL,
    PRIMARY KEY (battle, seq)
);"
        );
    }

    #[test]
    fn p1_rewriter_keeps_names_that_only_contain_the_words() {
        // `blobs`, `integer_part`: words, not the type names.
        assert_eq!(
            pg("SELECT blobs, integer_part FROM t WHERE x = ?1"),
            "SELECT blobs, integer_part FROM t WHERE x = $1"
        );
    }

    #[test]
    fn p1_rewriter_maps_random_hex_begin_and_skips_pragmas() {
        assert_eq!(
            pg(
                "INSERT INTO campaign (id, name, created, uid) VALUES (1, ?1, ?2, lower(hex(randomblob(16))))"
            ),
            "INSERT INTO campaign (id, name, created, uid) VALUES (1, $1, $2, \
             substr(replace(gen_random_uuid()::text, '-', ''), 1, 32))"
        );
        assert_eq!(
            pg("SELECT lower(hex(randomblob(8)))"),
            "SELECT substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)"
        );
        assert_eq!(pg("BEGIN IMMEDIATE"), "BEGIN");
        assert_eq!(rewrite("PRAGMA journal_mode=WAL", Dialect::Postgres), None);
        assert_eq!(rewrite("  pragma user_version", Dialect::Postgres), None);
    }

    /// What starts a statement of `saves`: its SQLite-only ones too.
    const SQL_WORDS: &[&str] = &[
        "SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "PRAGMA", "VACUUM",
    ];

    #[test]
    fn p1_every_statement_of_saves_has_a_postgres_form_but_the_listed_ones() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let files = source::rust_files(&src).unwrap();
        // SQLite-only on purpose, each with its PostgreSQL plan in
        // server/POSTGRES.md (Status): the file's identity and size, the
        // write-ahead log, the backup before an upgrade.
        let sqlite_only = [
            "PRAGMA schema_version",
            "PRAGMA {name}",
            "PRAGMA journal_mode=WAL",
            "PRAGMA page_count",
            "PRAGMA page_size",
            "VACUUM INTO ?1",
        ];
        let mut statements = 0;
        let mut bad = Vec::new();
        for f in files.iter().filter(|f| !f.ends_with("db.rs")) {
            for sql in source::sql_literals(&std::fs::read_to_string(f).unwrap(), SQL_WORDS) {
                statements += 1;
                if sqlite_only.contains(&sql.trim()) {
                    continue;
                }
                let Some(pg) = rewrite(&sql, Dialect::Postgres) else {
                    bad.push(format!("{}: no PostgreSQL form: {sql}", f.display()));
                    continue;
                };
                let left: Vec<String> = tokens(&pg)
                    .iter()
                    .filter(|t| matches!(t.kind, Kind::Word | Kind::Param))
                    .map(|t| t.text.to_ascii_uppercase())
                    .filter(|w| {
                        w.starts_with('?')
                            || ["BLOB", "INTEGER", "ROWID", "RANDOMBLOB", "SQLITE_MASTER"]
                                .contains(&w.as_str())
                    })
                    .collect();
                if !left.is_empty() || pg.to_ascii_uppercase().contains("INSERT OR") {
                    bad.push(format!("{}: {left:?} left in: {pg}", f.display()));
                }
            }
        }
        // 73 when this was written (statements shared by several paths, such
        // as the entry insert, are one constant).
        assert!(statements >= 70, "found only {statements} statements");
        assert!(bad.is_empty(), "{bad:#?}");
    }

    #[test]
    fn p1_every_migration_rewrites_to_postgres_words() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schema/migrations");
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "sql"))
            .collect();
        names.sort();
        assert_eq!(names.len() as u32, xenolog_schema::SCHEMA_VERSION);
        for path in names {
            let sql = std::fs::read_to_string(&path).unwrap();
            let pg = rewrite_script(&sql, Dialect::Postgres);
            // Outside comments and strings, no word SQLite alone has.
            let words: Vec<String> = tokens(&pg)
                .iter()
                .filter(|t| matches!(t.kind, Kind::Word | Kind::Param))
                .map(|t| t.text.to_ascii_uppercase())
                .collect();
            for w in ["BLOB", "INTEGER", "PRAGMA", "ROWID", "RANDOMBLOB", "HEX"] {
                assert!(
                    !words.iter().any(|x| x == w),
                    "{}: {w} left in\n{pg}",
                    path.display()
                );
            }
            assert!(!words.iter().any(|x| x.starts_with('?')), "{pg}");
            // Every statement SQLite has is still there (but the pragma).
            let count = |s: &str, d: Dialect| {
                let t = tokens(s);
                let n = t.iter().filter(|t| t.text == ";").count();
                n - usize::from(d == Dialect::Sqlite && s.contains("PRAGMA application_id"))
            };
            assert_eq!(
                count(&pg, Dialect::Postgres),
                count(&sql, Dialect::Sqlite),
                "{pg}"
            );
        }
        let one = rewrite_script(
            &std::fs::read_to_string(dir.join("0001_campaign.sql")).unwrap(),
            Dialect::Postgres,
        );
        assert!(
            one.contains("-- 'XNLG': marks the file"),
            "the comments stay"
        );
        assert!(one.contains("record BYTEA    NOT NULL"), "{one}");
        assert!(
            one.contains("id            BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"),
            "{one}"
        );
    }

    #[test]
    fn p1_a_script_is_cut_at_semicolons_outside_quotes_and_comments() {
        let pg = rewrite_script(
            "PRAGMA foreign_keys = ON; -- a; comment\nINSERT INTO t (s) VALUES ('a;b', ?1);\nUPDATE t SET n = ?2",
            Dialect::Postgres,
        );
        assert_eq!(
            pg,
            " -- a; comment\nINSERT INTO t (s) VALUES ('a;b', $1);\nUPDATE t SET n = $2"
        );
    }

    #[test]
    fn p1_rewriter_turns_scalar_max_of_several_into_greatest() {
        assert_eq!(
            pg("SELECT MAX(COALESCE((SELECT MAX(origin_id) FROM campaign_log WHERE origin = ?1), 0),
                        COALESCE((SELECT MAX(origin_id) FROM campaign_conflicts WHERE origin = ?1), 0)) + 1"),
            "SELECT GREATEST(COALESCE((SELECT MAX(origin_id) FROM campaign_log WHERE origin = $1), 0),
                        COALESCE((SELECT MAX(origin_id) FROM campaign_conflicts WHERE origin = $1), 0)) + 1"
        );
        assert_eq!(
            pg("SELECT min(a, b), MIN(c), max(f(x, y))"),
            "SELECT LEAST(a, b), MIN(c), max(f(x, y))"
        );
    }

    #[test]
    fn p1_the_new_rows_id_is_returning_id_on_postgres() {
        assert_eq!(
            returning_id("INSERT INTO battles (game) VALUES ($1);"),
            "INSERT INTO battles (game) VALUES ($1) RETURNING id"
        );
    }

    fn memory() -> Conn {
        let c = Conn::Sqlite(Sqlite::in_memory().unwrap());
        c.execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, x REAL, s TEXT, b BLOB)",
        )
        .unwrap();
        c
    }

    #[test]
    fn p1_rows_come_back_as_values_and_as_typed_cells() {
        let c = memory();
        let id = c
            .insert_id(
                "INSERT INTO t (n, x, s, b) VALUES (?1, ?2, ?3, ?4)",
                &[&7i64, &1.5f64, &"seven", &vec![1u8, 2]],
            )
            .unwrap();
        assert_eq!(id, 1);
        c.execute("INSERT INTO t (n) VALUES (?1)", &[&None::<i64>])
            .unwrap();
        let mut put = c.statement("INSERT INTO t (n) VALUES (?1)").unwrap();
        for n in [10i64, 11] {
            assert_eq!(put.execute(&[&n]).unwrap(), 1);
        }
        drop(put);
        c.execute("DELETE FROM t WHERE n >= 10", &[]).unwrap();
        assert_eq!(
            c.query("SELECT n, x, s, b FROM t ORDER BY id", &[])
                .unwrap(),
            vec![
                vec![
                    Value::Integer(7),
                    Value::Real(1.5),
                    Value::Text("seven".into()),
                    Value::Blob(vec![1, 2])
                ],
                vec![Value::Null, Value::Null, Value::Null, Value::Null],
            ]
        );
        let got = c
            .row("SELECT n, s, b FROM t WHERE id = ?1", &[&1i64], |r| {
                Ok::<_, DbError>((
                    r.get::<u32>(0)?,
                    r.get::<String>(1)?,
                    r.blob(2)?.map(<[u8]>::to_vec),
                ))
            })
            .unwrap();
        assert_eq!(got, Some((7, "seven".into(), Some(vec![1, 2]))));
        assert_eq!(
            c.row("SELECT n FROM t WHERE id = 9", &[], |r| r.get::<i64>(0))
                .unwrap(),
            None
        );
        let e = c
            .one::<i64>("SELECT n FROM t WHERE id = 9", &[])
            .unwrap_err();
        assert_eq!(e.code, Some(Code::NoRows));
        // A text cell read as a number is refused in rusqlite's words.
        let e = c
            .one::<i64>("SELECT s FROM t WHERE id = 1", &[])
            .unwrap_err();
        assert!(e.to_string().contains("Invalid column type Text"), "{e}");
        assert!(c.table_exists("t").unwrap());
        assert!(!c.table_exists("club_commands").unwrap());
    }

    #[test]
    fn p1_a_row_reads_whole_into_a_tuple_column_by_column() {
        let c = memory();
        c.execute(
            "INSERT INTO t (n, s, b) VALUES (?1, ?2, ?3)",
            &[&7i64, &"seven", &vec![1u8, 2]],
        )
        .unwrap();
        c.execute("INSERT INTO t (s) VALUES ('none')", &[]).unwrap();
        type Read = (i64, Option<i64>, String, Vec<u8>);
        let got: Vec<Read> = c
            .rows("SELECT id, n, s, b FROM t WHERE n = 7", &[], |r| r.tuple())
            .unwrap();
        assert_eq!(got, vec![(1, Some(7), "seven".into(), vec![1, 2])]);
        let none: Option<(Option<i64>, String)> = c
            .row("SELECT n, s FROM t WHERE id = 2", &[], |r| r.tuple())
            .unwrap();
        assert_eq!(none, Some((None, "none".into())));
        // A cell of another type is an error, not a guess.
        let e = c
            .row("SELECT n, s FROM t WHERE id = 1", &[], |r| {
                r.tuple::<(i64, i64)>()
            })
            .unwrap_err();
        assert!(e.to_string().contains("Invalid column type Text"), "{e}");
    }

    #[test]
    fn p1_a_dropped_transaction_rolls_back_and_savepoints_undo_alone() {
        let c = memory();
        {
            let tx = c.begin(Begin::Immediate).unwrap();
            tx.execute("INSERT INTO t (n) VALUES (1)", &[]).unwrap();
            assert!(c.in_transaction());
        }
        assert!(!c.in_transaction());
        assert_eq!(c.one::<i64>("SELECT COUNT(*) FROM t", &[]).unwrap(), 0);

        let tx = c.begin(Begin::Immediate).unwrap();
        tx.execute("INSERT INTO t (n) VALUES (1)", &[]).unwrap();
        let sp = tx.savepoint().unwrap();
        sp.execute("INSERT INTO t (n) VALUES (2)", &[]).unwrap();
        sp.rollback().unwrap();
        let sp = tx.savepoint().unwrap();
        sp.execute("INSERT INTO t (n) VALUES (3)", &[]).unwrap();
        sp.release().unwrap();
        {
            let sp = tx.savepoint().unwrap();
            sp.execute("INSERT INTO t (n) VALUES (4)", &[]).unwrap();
            // Dropped: undone.
        }
        tx.commit().unwrap();
        let ns: Vec<i64> = c
            .query("SELECT n FROM t ORDER BY n", &[])
            .unwrap()
            .into_iter()
            .map(|r| match r[0] {
                Value::Integer(n) => n,
                _ => -1,
            })
            .collect();
        assert_eq!(ns, vec![1, 3]);
    }

    #[test]
    fn p1_a_commit_that_fails_is_rolled_back_as_rusqlites_is() {
        let c = memory();
        c.execute_batch(
            "PRAGMA foreign_keys = ON;
             CREATE TABLE child (p INTEGER REFERENCES t(id) DEFERRABLE INITIALLY DEFERRED);",
        )
        .unwrap();
        let tx = c.begin(Begin::Immediate).unwrap();
        tx.execute("INSERT INTO child (p) VALUES (99)", &[])
            .unwrap();
        // SQLite refuses the COMMIT (no row 99) and leaves the transaction open.
        let e = tx.commit().unwrap_err();
        assert!(e.to_string().contains("FOREIGN KEY"), "{e}");
        assert!(
            !c.in_transaction(),
            "rolled back when the failed commit was dropped"
        );
        assert_eq!(c.one::<i64>("SELECT COUNT(*) FROM child", &[]).unwrap(), 0);
        c.begin(Begin::Immediate).unwrap().commit().unwrap();
    }

    #[test]
    fn p2_a_unique_key_refusal_is_known_by_its_code_and_is_a_typed_conflict() {
        let c = memory();
        c.execute("INSERT INTO t (id, n) VALUES (1, 1)", &[])
            .unwrap();
        let e = c
            .execute("INSERT INTO t (id, n) VALUES (1, 2)", &[])
            .unwrap_err();
        assert_eq!(e.code, Some(Code::Unique), "{e}");
        c.execute_batch("CREATE UNIQUE INDEX t_s ON t (s)").unwrap();
        c.execute("UPDATE t SET s = 'a'", &[]).unwrap();
        let e = c
            .execute("INSERT INTO t (id, s) VALUES (2, 'a')", &[])
            .unwrap_err();
        assert_eq!(e.code, Some(Code::Unique), "{e}");
        assert!(matches!(SaveError::from(e), SaveError::Conflict(_)));
        // Another constraint is not a unique one.
        c.execute_batch("CREATE TABLE k (n INTEGER NOT NULL)")
            .unwrap();
        let e = c
            .execute("INSERT INTO k (n) VALUES (NULL)", &[])
            .unwrap_err();
        assert_eq!(e.code, None, "{e}");
    }

    #[test]
    fn p1_an_error_in_a_row_reader_stops_the_query_and_is_returned() {
        let c = memory();
        for n in 0..5i64 {
            c.execute("INSERT INTO t (n) VALUES (?1)", &[&n]).unwrap();
        }
        let mut seen = 0;
        let r = c.each("SELECT n FROM t ORDER BY n", &[], |r| {
            seen += 1;
            if r.get::<i64>(0)? == 2 {
                return Err(SaveError::Refused("two".into()));
            }
            Ok(())
        });
        assert!(matches!(r, Err(SaveError::Refused(_))));
        assert_eq!(seen, 3);
    }
}
