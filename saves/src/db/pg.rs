//! The PostgreSQL backend of [`Db`] (issue 31, `server/POSTGRES.md` step P2),
//! over the synchronous `postgres` crate (rust-postgres 0.19).
//!
//! The statements of `saves` are written once, in SQLite's words; this
//! backend turns each into PostgreSQL's with the rewriter of P1
//! ([`rewrite`], [`rewrite_script`]) and keeps the prepared statement in a
//! cache keyed by the statement as written, so a statement is rewritten and
//! prepared once per connection.
//!
//! - Parameters are bound by the type the server inferred for each `$N`
//!   (an integer into `BIGINT`, `INTEGER` or `SMALLINT`, checked for range;
//!   a real into `DOUBLE PRECISION`; text; bytes into `BYTEA`); a
//!   parameter of the wrong kind is refused in words, never coerced.
//! - Cells come back as the same [`Value`]s SQLite gives: integers of every
//!   width, `BOOLEAN` as 0 or 1 (the campaign schema stores booleans as
//!   `BIGINT`, as SQLite stores them as integers), `NUMERIC` (what `SUM` of
//!   a `BIGINT` is) as an integer when whole, reals, text and bytes.
//! - Transactions and savepoints are plain SQL (`BEGIN`, `SAVEPOINT`,
//!   `ROLLBACK TO SAVEPOINT`, `RELEASE SAVEPOINT`): [`Tx`](super::Tx) and
//!   [`Savepoint`](super::Savepoint) work unchanged; whether a transaction
//!   is open is followed from the statements that open and end one.
//! - [`Db::insert_id`] is the `INSERT ... RETURNING id` of [`returning_id`];
//!   [`Db::table_exists`] asks `to_regclass` (so it follows `search_path`:
//!   a campaign's schema, [`create_campaign_schema`]).
//! - Every failure is a [`DbError`] in PostgreSQL's own words (the
//!   message, and its detail when it has one); a connection that cannot be
//!   made or is lost says so. Nothing panics.
//!
//! Not yet (P2's next steps, `server/POSTGRES.md` status): a `Postgres`
//! variant of [`Conn`](super::Conn) (it waits until `merge.rs` and
//! `transfer.rs` go through [`Db`] and the P1 `Deref` bridge is gone).

use std::cell::{Cell as Flag, RefCell};
use std::collections::HashMap;
use std::error::Error as _;

use postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use postgres::{Client, NoTls, Statement};

use super::{
    Code, Db, DbError, Dialect, Param, Params, Row, RowInner, Stmt, Value, returning_id, rewrite,
    rewrite_script,
};

/// The migrations of `schema/migrations`, in order: what
/// [`create_campaign_schema`] runs (rewritten) in a new schema. The SQLite
/// side reads the same files through `xenolog_schema::migrations()`.
const MIGRATIONS: &[&str] = &[
    include_str!("../../../schema/migrations/0001_campaign.sql"),
    include_str!("../../../schema/migrations/0002_battle_origin.sql"),
    include_str!("../../../schema/migrations/0003_strict_battles.sql"),
    include_str!("../../../schema/migrations/0004_notes.sql"),
    include_str!("../../../schema/migrations/0005_campaign.sql"),
    include_str!("../../../schema/migrations/0006_fair_seeds.sql"),
    include_str!("../../../schema/migrations/0007_copies.sql"),
];

/// A connection to a PostgreSQL server, as a [`Db`].
pub struct Postgres {
    client: RefCell<Client>,
    /// Prepared statements by the statement as written (SQLite's words).
    cache: RefCell<HashMap<String, Statement>>,
    /// Whether a `BEGIN` is open (followed from the statements run).
    in_tx: Flag<bool>,
}

impl Postgres {
    /// Connect with a libpq-style string (`host=... port=... user=...
    /// dbname=...`) or a `postgres://` URL. No TLS (a club server talks to
    /// its database on the same machine or a private network).
    pub fn connect(params: &str) -> Result<Postgres, DbError> {
        let client = Client::connect(params, NoTls).map_err(|e| DbError {
            code: Some(Code::CannotOpen),
            text: format!("connecting to PostgreSQL failed: {}", words(&e)),
        })?;
        Ok(Postgres {
            client: RefCell::new(client),
            cache: RefCell::new(HashMap::new()),
            in_tx: Flag::new(false),
        })
    }

    /// The statement `sql` (SQLite's words) prepared in PostgreSQL's, from
    /// the cache; `None` for a statement with no PostgreSQL form (a PRAGMA).
    fn prepared(&self, sql: &str) -> Result<Option<Statement>, DbError> {
        if let Some(s) = self.cache.borrow().get(sql) {
            return Ok(Some(s.clone()));
        }
        let Some(text) = rewrite(sql, Dialect::Postgres) else {
            return Ok(None);
        };
        let stmt = self.client.borrow_mut().prepare(&text).map_err(fail)?;
        self.cache.borrow_mut().insert(sql.to_owned(), stmt.clone());
        Ok(Some(stmt))
    }

    fn run(&self, stmt: &Statement, params: Params<'_>) -> Result<usize, DbError> {
        let binds = binds(stmt, params)?;
        let refs: Vec<&(dyn ToSql + Sync)> = binds.iter().map(|b| b as _).collect();
        let n = self
            .client
            .borrow_mut()
            .execute(stmt, &refs)
            .map_err(fail)?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// Every row of a query, as owned cells. The rows are read whole before
    /// the first is handed on, so a reader may run statements of its own.
    fn rows(&self, stmt: &Statement, params: Params<'_>) -> Result<Vec<Vec<Value>>, DbError> {
        let binds = binds(stmt, params)?;
        let refs: Vec<&(dyn ToSql + Sync)> = binds.iter().map(|b| b as _).collect();
        let rows = self.client.borrow_mut().query(stmt, &refs).map_err(fail)?;
        rows.iter()
            .map(|r| (0..r.len()).map(|i| cell(r, i)).collect())
            .collect()
    }

    /// Follow whether a transaction is open from a script that was run.
    fn follow(&self, sql: &str) {
        let w = sql.trim_start().to_ascii_uppercase();
        if w.starts_with("BEGIN") || w.starts_with("START TRANSACTION") {
            self.in_tx.set(true);
        } else if w.starts_with("COMMIT")
            || w.starts_with("END")
            || (w.starts_with("ROLLBACK") && !w.starts_with("ROLLBACK TO"))
        {
            self.in_tx.set(false);
        }
    }
}

impl Db for Postgres {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn execute(&self, sql: &str, params: Params<'_>) -> Result<usize, DbError> {
        match self.prepared(sql)? {
            Some(stmt) => self.run(&stmt, params),
            None => Ok(0),
        }
    }

    fn execute_batch(&self, sql: &str) -> Result<(), DbError> {
        let text = rewrite_script(sql, Dialect::Postgres);
        let done = self.client.borrow_mut().batch_execute(&text);
        match done {
            Ok(()) => {
                self.follow(&text);
                Ok(())
            }
            // A failed COMMIT ends the transaction (PostgreSQL rolls it
            // back); a failed BEGIN opened none.
            Err(e) => {
                let w = text.trim_start().to_ascii_uppercase();
                if w.starts_with("COMMIT") {
                    self.in_tx.set(false);
                }
                Err(fail(e))
            }
        }
    }

    fn statement<'a>(&'a self, sql: &str) -> Result<Box<dyn Stmt + 'a>, DbError> {
        Ok(Box::new(PgStmt {
            db: self,
            stmt: self.prepared(sql)?,
        }))
    }

    fn query_each(
        &self,
        sql: &str,
        params: Params<'_>,
        f: &mut dyn FnMut(&Row<'_>) -> Result<bool, DbError>,
    ) -> Result<(), DbError> {
        let Some(stmt) = self.prepared(sql)? else {
            return Err(DbError::other(format!(
                "PostgreSQL has no form of the statement: {sql}"
            )));
        };
        for r in self.rows(&stmt, params)? {
            if !f(&Row {
                inner: RowInner::Postgres(&r),
            })? {
                break;
            }
        }
        Ok(())
    }

    fn insert_id(&self, sql: &str, params: Params<'_>) -> Result<i64, DbError> {
        let key = returning_id(sql);
        let Some(stmt) = self.prepared(&key)? else {
            return Err(DbError::other(format!("not an INSERT: {sql}")));
        };
        let rows = self.rows(&stmt, params)?;
        match rows.first().and_then(|r| r.first()) {
            Some(Value::Integer(id)) => Ok(*id),
            _ => Err(DbError {
                code: Some(Code::NoRows),
                text: format!("the INSERT returned no id: {sql}"),
            }),
        }
    }

    fn table_exists(&self, name: &str) -> Result<bool, DbError> {
        let stmt = self
            .prepared("SELECT to_regclass(?1) IS NOT NULL")?
            .ok_or_else(|| DbError::other("no form of the table_exists query"))?;
        let rows = self.rows(&stmt, &[&name])?;
        Ok(matches!(
            rows.first().and_then(|r| r.first()),
            Some(Value::Integer(1))
        ))
    }

    fn in_transaction(&self) -> bool {
        self.in_tx.get()
    }
}

struct PgStmt<'a> {
    db: &'a Postgres,
    stmt: Option<Statement>,
}

impl Stmt for PgStmt<'_> {
    fn execute(&mut self, params: Params<'_>) -> Result<usize, DbError> {
        match &self.stmt {
            Some(s) => self.db.run(s, params),
            None => Ok(0),
        }
    }
}

// ---------------------------------------------------------------------------
// Campaign schemas

/// Whether `name` may name a campaign's schema: a lower-case SQL
/// identifier (letters, digits, `_`, not starting with a digit, at most 63
/// bytes), never one of PostgreSQL's own (`pg_*`, `information_schema`).
pub fn valid_schema_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && (b[0].is_ascii_lowercase() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
        && !name.starts_with("pg_")
        && name != "information_schema"
        && name != "public"
}

/// Make a campaign's schema: `CREATE SCHEMA name`, then, with `search_path`
/// set to it, every migration of `schema/migrations` in PostgreSQL's words
/// and a one-row `schema_version` table holding the number of migrations
/// run (SQLite keeps it in `user_version`). All in one transaction: the
/// schema is made whole or not at all. The connection's `search_path` is
/// left at the new schema, so what follows on it works in the campaign.
pub fn create_campaign_schema(db: &Postgres, name: &str) -> Result<(), DbError> {
    if !valid_schema_name(name) {
        return Err(DbError::other(format!(
            "'{name}' cannot name a campaign's schema: use lower-case letters, digits and _ \
             (not first a digit), at most 63, not pg_..., public or information_schema"
        )));
    }
    if MIGRATIONS.len() != xenolog_schema::SCHEMA_VERSION as usize {
        return Err(DbError::other(format!(
            "this build knows {} migrations for PostgreSQL but the schema is at version {}",
            MIGRATIONS.len(),
            xenolog_schema::SCHEMA_VERSION
        )));
    }
    let tx = super::begin(db, super::Begin::Immediate)?;
    tx.execute_batch(&format!(
        "CREATE SCHEMA {name}; SET LOCAL search_path TO {name}"
    ))?;
    for m in MIGRATIONS {
        tx.execute_batch(m)?;
    }
    tx.execute_batch(&format!(
        "CREATE TABLE schema_version (version INTEGER NOT NULL); \
         INSERT INTO schema_version (version) VALUES ({})",
        MIGRATIONS.len()
    ))?;
    tx.commit()?;
    use_schema(db, name)
}

/// Point the connection at a campaign's schema (`search_path`).
pub fn use_schema(db: &Postgres, name: &str) -> Result<(), DbError> {
    if !valid_schema_name(name) {
        return Err(DbError::other(format!(
            "'{name}' cannot name a campaign's schema"
        )));
    }
    // The cached statements were planned against the old path.
    db.cache.borrow_mut().clear();
    db.execute_batch(&format!("SET search_path TO {name}"))
}

/// Bring every identity column of the connection's schema up to its table
/// (`setval` to the largest id there): after rows were written with ids of
/// their own (an import, a merge keeping the log's numbers), the next id the
/// database chooses follows them, as SQLite's rowid does by itself. Returns
/// how many identity columns there are.
pub fn catch_up_identities(db: &Postgres) -> Result<usize, DbError> {
    let cols = db.query_names(
        "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT) \
         FROM information_schema.columns \
         WHERE table_schema = current_schema() AND is_identity = 'YES' ORDER BY 1, 2",
    )?;
    for (table, col) in &cols {
        let (t, c) = (quoted(table), quoted(col));
        db.execute_batch(&format!(
            "SELECT setval(pg_get_serial_sequence('{}', '{}'), \
             COALESCE(MAX({c}), 1), MAX({c}) IS NOT NULL) FROM {t}",
            t.replace('\'', "''"),
            col.replace('\'', "''"),
        ))?;
    }
    Ok(cols.len())
}

/// An identifier in double quotes (a quote inside doubled).
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

impl Postgres {
    /// The rows of a query of two text columns.
    fn query_names(&self, sql: &str) -> Result<Vec<(String, String)>, DbError> {
        let stmt = self
            .prepared(sql)?
            .ok_or_else(|| DbError::other(format!("no PostgreSQL form: {sql}")))?;
        Ok(self
            .rows(&stmt, &[])?
            .into_iter()
            .filter_map(|r| match (r.first(), r.get(1)) {
                (Some(Value::Text(a)), Some(Value::Text(b))) => Some((a.clone(), b.clone())),
                _ => None,
            })
            .collect())
    }
}

// ---------------------------------------------------------------------------
// Parameters and cells

/// A parameter bound by the type the server gave its `$N`.
#[derive(Debug)]
struct Bind<'a>(Param<'a>);

fn binds<'p>(stmt: &Statement, params: Params<'p>) -> Result<Vec<Bind<'p>>, DbError> {
    let want = stmt.params().len();
    if params.len() != want {
        return Err(DbError::other(format!(
            "the statement takes {want} parameters but was given {}",
            params.len()
        )));
    }
    let binds: Vec<Bind<'p>> = params.iter().map(|p| Bind(p.to_param())).collect();
    for (i, (b, ty)) in binds.iter().zip(stmt.params()).enumerate() {
        fits(&b.0, ty).map_err(|why| DbError::other(format!("parameter {}: {why}", i + 1)))?;
    }
    Ok(binds)
}

/// Whether a parameter can be bound to a `$N` of type `ty`, in words if not.
fn fits(p: &Param<'_>, ty: &Type) -> Result<(), String> {
    let ok = match p {
        Param::Null => true,
        Param::Integer(n) => match *ty {
            Type::INT8 | Type::FLOAT8 | Type::NUMERIC | Type::BOOL => true,
            Type::INT4 => i32::try_from(*n).is_ok(),
            Type::INT2 => i16::try_from(*n).is_ok(),
            Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => true,
            _ => false,
        },
        Param::Real(_) => matches!(*ty, Type::FLOAT8 | Type::FLOAT4),
        Param::Text(_) => matches!(
            *ty,
            Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN
        ),
        Param::Blob(_) => *ty == Type::BYTEA,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} does not go into a column of type {ty}",
            kind(p)
        ))
    }
}

fn kind(p: &Param<'_>) -> &'static str {
    match p {
        Param::Null => "NULL",
        Param::Integer(_) => "an integer",
        Param::Real(_) => "a real",
        Param::Text(_) => "text",
        Param::Blob(_) => "bytes",
    }
}

impl ToSql for Bind<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self.0 {
            Param::Null => Ok(IsNull::Yes),
            Param::Integer(n) => match *ty {
                Type::INT8 => n.to_sql(ty, out),
                Type::INT4 => i32::try_from(n)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(n)?.to_sql(ty, out),
                Type::FLOAT8 => (n as f64).to_sql(ty, out),
                Type::BOOL => (n != 0).to_sql(ty, out),
                Type::NUMERIC => numeric(n, out),
                _ => n.to_string().as_str().to_sql(ty, out),
            },
            Param::Real(x) => match *ty {
                Type::FLOAT4 => (x as f32).to_sql(ty, out),
                _ => x.to_sql(ty, out),
            },
            Param::Text(s) => s.to_sql(ty, out),
            Param::Blob(b) => b.to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        // Checked before binding, with words (`fits`).
        true
    }

    to_sql_checked!();
}

/// An integer in PostgreSQL's binary `NUMERIC` form (base 10000 digits).
fn numeric(
    n: i64,
    out: &mut postgres::types::private::BytesMut,
) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
    let mut digits = Vec::new();
    let mut m = n.unsigned_abs();
    while m > 0 {
        digits.push((m % 10_000) as i16);
        m /= 10_000;
    }
    digits.reverse();
    let weight = digits.len() as i16 - 1;
    let mut b = Vec::with_capacity(8 + 2 * digits.len());
    b.extend_from_slice(&(digits.len() as i16).to_be_bytes());
    b.extend_from_slice(&weight.max(0).to_be_bytes());
    b.extend_from_slice(&(if n < 0 { 0x4000u16 } else { 0 }).to_be_bytes());
    b.extend_from_slice(&0u16.to_be_bytes());
    for d in digits {
        b.extend_from_slice(&d.to_be_bytes());
    }
    out.extend_from_slice(&b);
    Ok(IsNull::No)
}

/// A cell of any type, as the server sent it (binary), read by [`cell`].
struct Raw<'a>(Option<&'a [u8]>);

impl<'a> postgres::types::FromSql<'a> for Raw<'a> {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Raw(Some(raw)))
    }
    fn from_sql_null(_: &Type) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Raw(None))
    }
    fn accepts(_: &Type) -> bool {
        true
    }
}

/// Cell `i` of a row as the [`Value`] SQLite would give.
fn cell(r: &postgres::Row, i: usize) -> Result<Value, DbError> {
    let ty = r.columns()[i].type_().clone();
    let Raw(raw) = r.try_get::<_, Raw<'_>>(i).map_err(fail)?;
    let Some(raw) = raw else {
        return Ok(Value::Null);
    };
    let bad = || {
        DbError::other(format!(
            "column {} ({}) of type {ty} could not be read",
            i,
            r.columns()[i].name()
        ))
    };
    let int = |n: usize| -> Result<i64, DbError> {
        let b: [u8; 8] = {
            let mut b = [0u8; 8];
            if raw.len() != n {
                return Err(bad());
            }
            let fill = if raw[0] & 0x80 != 0 { 0xff } else { 0 };
            b[..8 - n].fill(fill);
            b[8 - n..].copy_from_slice(raw);
            b
        };
        Ok(i64::from_be_bytes(b))
    };
    Ok(match ty {
        Type::INT8 => Value::Integer(int(8)?),
        Type::INT4 | Type::OID => Value::Integer(int(4)?),
        Type::INT2 => Value::Integer(int(2)?),
        Type::BOOL => Value::Integer(i64::from(raw.first().copied().ok_or_else(bad)? != 0)),
        Type::FLOAT8 => Value::Real(f64::from_be_bytes(raw.try_into().map_err(|_| bad())?)),
        Type::FLOAT4 => Value::Real(f64::from(f32::from_be_bytes(
            raw.try_into().map_err(|_| bad())?,
        ))),
        Type::BYTEA => Value::Blob(raw.to_vec()),
        Type::NUMERIC => read_numeric(raw).ok_or_else(bad)?,
        _ => Value::Text(std::str::from_utf8(raw).map_err(|_| bad())?.to_owned()),
    })
}

/// PostgreSQL's binary `NUMERIC`: an integer when whole and in range (what
/// `SUM` of integers gives), else a real.
fn read_numeric(raw: &[u8]) -> Option<Value> {
    let h = |k: usize| -> Option<u16> {
        Some(u16::from_be_bytes(
            raw.get(2 * k..2 * k + 2)?.try_into().ok()?,
        ))
    };
    let ndigits = h(0)? as usize;
    let weight = h(1)? as i16;
    let sign = h(2)?;
    if sign == 0xC000 {
        return Some(Value::Real(f64::NAN));
    }
    let mut whole: i128 = 0;
    let mut real = 0f64;
    let mut fraction = false;
    for k in 0..ndigits {
        let d = h(4 + k)? as i128;
        let power = weight as i32 - k as i32;
        real += d as f64 * 10_000f64.powi(power);
        if power >= 0 {
            whole = whole.checked_add(d.checked_mul(10_000i128.checked_pow(power as u32)?)?)?;
        } else if d != 0 {
            fraction = true;
        }
    }
    let neg = sign == 0x4000;
    if !fraction && let Ok(n) = i64::try_from(if neg { -whole } else { whole }) {
        return Some(Value::Integer(n));
    }
    Some(Value::Real(if neg { -real } else { real }))
}

/// PostgreSQL's words for a failure: the server's message (and detail), or
/// the client's (a connection refused, lost).
fn words(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return match db.detail() {
            Some(d) => format!("{}: {} ({d})", db.severity(), db.message()),
            None => format!("{}: {}", db.severity(), db.message()),
        };
    }
    match e.source() {
        Some(s) => format!("{e}: {s}"),
        None => e.to_string(),
    }
}

fn fail(e: postgres::Error) -> DbError {
    use postgres::error::SqlState as S;
    let code = match e.code() {
        Some(c) if *c == S::DISK_FULL => Some(Code::DiskFull),
        Some(c)
            if *c == S::LOCK_NOT_AVAILABLE
                || *c == S::T_R_SERIALIZATION_FAILURE
                || *c == S::T_R_DEADLOCK_DETECTED =>
        {
            Some(Code::Busy)
        }
        Some(c) if *c == S::READ_ONLY_SQL_TRANSACTION => Some(Code::ReadOnly),
        Some(c) if *c == S::INSUFFICIENT_PRIVILEGE => Some(Code::PermissionDenied),
        Some(c) if *c == S::DATA_CORRUPTED || *c == S::INDEX_CORRUPTED => Some(Code::Corrupt),
        Some(c) if *c == S::IO_ERROR => Some(Code::Io),
        _ if e.is_closed() => Some(Code::Io),
        _ => None,
    };
    DbError {
        code,
        text: words(&e),
    }
}

// ---------------------------------------------------------------------------
// A row's cells, for `Row` (db.rs)

/// Cell `i` as `T`, converted as SQLite's cells are (the same words when
/// a cell is not of the type asked for).
pub(super) fn get<T: super::Cell>(r: &[Value], i: usize) -> Result<T, DbError> {
    use rusqlite::types::ValueRef as V;
    let v = r.get(i).ok_or_else(|| no_column(r, i))?;
    let v = match v {
        Value::Null => V::Null,
        Value::Integer(n) => V::Integer(*n),
        Value::Real(x) => V::Real(*x),
        Value::Text(s) => V::Text(s.as_bytes()),
        Value::Blob(b) => V::Blob(b),
    };
    T::column_result(v).map_err(DbError::from)
}

/// Cell `i` as bytes, borrowed, `None` when it is not bytes.
pub(super) fn blob(r: &[Value], i: usize) -> Result<Option<&[u8]>, DbError> {
    match r.get(i).ok_or_else(|| no_column(r, i))? {
        Value::Blob(b) => Ok(Some(b)),
        _ => Ok(None),
    }
}

/// Cell `i`, owned.
pub(super) fn value(r: &[Value], i: usize) -> Result<Value, DbError> {
    r.get(i).cloned().ok_or_else(|| no_column(r, i))
}

fn no_column(r: &[Value], i: usize) -> DbError {
    DbError::other(format!(
        "Invalid column index: {i} (the row has {})",
        r.len()
    ))
}
