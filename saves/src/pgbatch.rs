//! Group commit on PostgreSQL in a few statements (issue 31 P5,
//! `server/POSTGRES.md` §2).
//!
//! A batch ([`Campaign::append_batch`]) on SQLite writes each part in a
//! savepoint of its own, about eleven statements a part; over a network
//! each is a round trip. Here a whole batch, of one campaign or of many
//! (the club server's one committer a process, [`Committer`]), is written
//! in a handful of statements whatever its size, per campaign:
//!
//! 1. **the lock**: every battle of the batch, `FOR UPDATE`, in the order of
//!    their ids (a fixed order: two processes locking overlapping batches
//!    never deadlock; campaigns too go in one order, by schema name);
//! 2. **the read**, after the lock (read committed: it sees every commit
//!    made before the locks were granted): each battle's game and seed, its
//!    stored entry count (the tail's last entry, the last block), branch
//!    count, cursor and current branch, and which of the batch's command ids are stored already;
//! 3. the checks, in memory, part by part in order, as the savepoint path
//!    makes them: a part whose battle is not at the head it was decided on
//!    is `Stale` (a second part of one battle was decided on the first, so
//!    it is stale when the first is), a command id stored or given earlier
//!    in the batch is `CommandIdUsed`; those parts are left out **before**
//!    anything is written;
//! 4. **the write**: one statement (data-modifying `WITH`s over `unnest` of
//!    arrays) inserts every entry, new branch, snapshot and command id,
//!    moves each battle's cursor, reveals the fair secrets of the battles
//!    that ended, and sends each part's `pg_notify` (delivered at commit);
//! 5. a block the batch filled is sealed by `blocks::seal_if_full` (once
//!    per 1,024 entries of a battle).
//!
//! With `BEGIN` and `COMMIT`: five round trips for a batch of one
//! campaign, two more a campaign: the locks of every campaign of a commit
//! go in one script (`lock_groups`, all `NOWAIT`; refused, the rounds
//! after lock campaign by campaign, to learn which one is busy). A read
//! and a write naming every campaign's schema, unprepared each commit,
//! cost PostgreSQL more than the round trips they saved (BENCHMARKS.md,
//! "Issue 31, session 20 (helper pgspeed)"). Should any statement fail anyway (a clash the
//! checks could not foresee: another writer that does not lock the
//! battle's row), the transaction is rolled back and the batch written
//! again by the savepoint path (`batch::write_parts`), whose outcomes
//! (`Stale`, `CommandIdUsed`, a part refused alone) these checks repeat. A
//! lost connection is not retried: the whole batch is refused
//! (`Unreachable`) and the next one connects again.
//!
//! **Two rounds** (the club server's [`Committer`], issue 31, session 23):
//! on a campaign's own connection (`Campaign::append_batch`, the
//! synchronous `postgres` client) each statement above is a round trip.
//! The committer's connection is a `tokio_postgres::Client` on a
//! current-thread runtime of its own, whose requests polled together are
//! sent together and answered in order (the driver's pipelining), so a
//! commit of any number of campaigns is two round trips:
//!
//! 1. `BEGIN` and each campaign's battles table locked (one simple-query
//!    script), then each campaign's battles locked `FOR UPDATE` and its
//!    read (statements prepared once, binary parameters, a generic plan);
//! 2. after the checks in memory, each campaign's write, then `COMMIT`.
//!
//! A statement not yet prepared is prepared in a round of its own before
//! (once per campaign and text); at most [`STATEMENT_CAMPAIGNS`]
//! campaigns' statements are kept prepared, the least recently committed
//! campaign's closed first (never one of the commit at hand). Statements
//! after a failure in a transaction fail with it ("current transaction is
//! aborted"): what is reported is always the first failure. The cases the
//! two rounds do not make themselves are handed, the pipe's transaction
//! ended first (nothing of it written), to the path above, on a
//! connection of the synchronous client the committer makes the first time
//! one is needed (`write_groups_busy`): a lock refused when the commit has
//! several campaigns (which one is busy is learnt there, campaign by
//! campaign), a statement failed (the savepoint path), a block to seal, a
//! part whose entries do not follow on. A lock refused to a commit of one
//! campaign leaves it out busy at once (it was waited for as its memo
//! says). A connection lost in either round refuses the commit
//! (`Unreachable`; lost at the `COMMIT`, its outcome is unknown, as on the
//! synchronous path) and the next commit connects again.
//!
//! **A held lock** (review5 S1): the committer's session waits at most
//! [`LOCK_WAIT`] for a lock (`lock_timeout`). A group whose lock is not
//! granted in time (`55P03`: a battle row held `FOR UPDATE` by a psql
//! session, the battles table held by a merge, a stopped process's
//! transaction) is left out: the transaction is rolled back and made again
//! without it, and each of its parts is answered [`SaveError::Busy`] in
//! words, nothing of it written. The other campaigns of the commit are
//! written. A campaign found busy is then locked `NOWAIT` for
//! [`BUSY_MEMO`], so that one held for long costs the others one wait in a
//! while, not one every commit. A stopped process's transaction is ended
//! by PostgreSQL (`idle_in_transaction_session_timeout`,
//! [`COMMITTER_SETTINGS`]), its locks let go.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use std::cell::{Cell, RefCell};

use postgres::types::ToSql;

use crate::batch::{AppendNotify, Decided, Head};
use crate::blocks::{BLOCK, count_from, seal_if_full};
use crate::campaign::now;
use crate::db::pg::{Answer, Pipe, Postgres, Request, fail, valid_schema_name};
use crate::db::{Begin, Code, Db, DbError, begin};
use crate::{BattleId, SaveError};

/// One campaign's share of a commit: its schema, its parts in the order
/// they were queued, and what each part written notifies.
#[derive(Clone, Copy)]
pub struct Group<'a> {
    pub schema: &'a str,
    pub batch: &'a [Decided],
    pub notify: Option<AppendNotify<'a>>,
}

/// A connection of its own that writes the batches of many campaigns of
/// one database in one transaction each (the club server's committer,
/// issue 31 P5: one commit, one WAL flush, for every campaign).
pub struct Committer {
    /// The connection string, with the committer's name and settings
    /// ([`with_session`]): what a connection made again uses.
    url: String,
    /// The connection the commits go on, its statements pipelined (module
    /// docs, "Two rounds"); `None` once lost: the next commit connects
    /// again.
    pipe: RefCell<Option<Pipe>>,
    /// A connection on the synchronous client for the commits the two
    /// rounds leave ([`write_groups_busy`]: a lock refused among several
    /// campaigns, a statement failed, a block to seal, a part not dense),
    /// made the first time one is needed.
    slow: RefCell<Option<Postgres>>,
    /// Round trips made on `pipe` so far (each round of pipelined
    /// statements is one).
    trips: Cell<u64>,
    /// How many campaigns' statements are kept prepared on `pipe`.
    keep: Cell<usize>,
    /// What a test runs between a commit's two rounds.
    between: RefCell<Option<Box<dyn FnMut() + Send>>>,
    /// The campaigns (schemas) a commit found busy lately, and when: each
    /// is tried without waiting (`NOWAIT`) until [`BUSY_MEMO`] has passed,
    /// so that a campaign held for long costs the others one
    /// `lock_timeout` wait every so often, not one every commit.
    busy: RefCell<HashMap<String, Instant>>,
}

/// How many campaigns' statements the committer keeps prepared on its
/// session (a campaign's lock, read and writes are statements of their
/// own, its schema in their text): past it, the least recently committed
/// campaign's are closed (never one of the commit at hand), so that a
/// server of thousands of campaigns does not hold thousands of plans.
pub const STATEMENT_CAMPAIGNS: usize = 256;

/// How long the committer waits for a lock (PostgreSQL's `lock_timeout`):
/// a campaign whose battles another session holds longer is left out of
/// the commit, its parts answered [`SaveError::Busy`], and every other
/// campaign's are committed (issue 31, review5 S1).
pub const LOCK_WAIT: &str = "2s";

/// How long a campaign found busy is tried without waiting.
pub const BUSY_MEMO: Duration = Duration::from_secs(10);

/// The committer's session settings (made part of its connection string,
/// so that a connection made again has them too): its lock wait; a
/// transaction of its left idle (its process stopped mid-commit, a
/// network cut) is ended by PostgreSQL, and its locks let go, after
/// `idle_in_transaction_session_timeout`; a statement that runs for a
/// minute is stopped (a commit of many campaigns takes milliseconds);
/// a prepared statement is planned once, generic, never again for each
/// call's values (`plan_cache_mode`: left to itself PostgreSQL planned a
/// campaign's read anew every commit, about 150 µs a call, as its custom
/// plans for the values at hand always looked cheaper than the generic
/// one: BENCHMARKS.md, "Issue 31, session 21 (helper pgjoint)").
pub const COMMITTER_SETTINGS: &[(&str, &str)] = &[
    ("lock_timeout", LOCK_WAIT),
    ("idle_in_transaction_session_timeout", "10s"),
    ("statement_timeout", "1min"),
    ("plan_cache_mode", "force_generic_plan"),
];

/// `url` (a libpq string or a `postgres://` URL) with `application_name`
/// `name` and the session `settings` (`-c name=value` in `options`). An
/// `options` the url has already (the `--database` of `xenolog serve`) is
/// kept, `settings` after it: a setting both name is `settings`' (the
/// later `-c` wins), every other of the url's reaches the session too
/// (before session 22 the url's `options` was dropped: a connection
/// string holds one `options`, the last given). The url's `options` is
/// read by the driver's own parser (`tokio_postgres::Config`, the one both
/// clients connect with; session 23: it was parsed by hand here), and the
/// name and the whole `options` are added after the url as given: of a
/// word given twice the driver takes the last.
pub fn with_session(url: &str, name: &str, settings: &[(&str, &str)]) -> String {
    let given = url
        .parse::<tokio_postgres::Config>()
        .ok()
        .and_then(|c| c.get_options().map(str::to_owned));
    let options: Vec<String> = given
        .into_iter()
        .filter(|o| !o.trim().is_empty())
        .chain(settings.iter().map(|(k, v)| format!("-c {k}={v}")))
        .collect();
    let options = options.join(" ");
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let sep = if url.contains('?') { '&' } else { '?' };
        let esc = |t: &str| {
            t.replace('%', "%25")
                .replace(' ', "%20")
                .replace('=', "%3D")
                .replace('&', "%26")
                .replace('\\', "%5C")
        };
        let mut out = format!("{url}{sep}application_name={}", esc(name));
        if !options.is_empty() {
            out.push_str(&format!("&options={}", esc(&options)));
        }
        out
    } else {
        let quote = |t: &str| t.replace('\\', "\\\\").replace('\'', "\\'");
        let mut out = format!("{} application_name='{}'", url.trim_end(), quote(name));
        if !options.is_empty() {
            out.push_str(&format!(" options='{}'", quote(&options)));
        }
        out
    }
}

impl Committer {
    /// Connect to the database at `url` (the campaigns are its schemas).
    pub fn connect(url: &str) -> Result<Committer, SaveError> {
        // Seen in pg_stat_activity as what it is, also after a reconnect
        // (the name is part of the connection string made again).
        // With its lock wait and timeouts (COMMITTER_SETTINGS).
        let url = with_session(url, "xenolog committer", COMMITTER_SETTINGS);
        let pipe = Pipe::connect(&url).map_err(SaveError::Unreachable)?;
        Ok(Committer {
            url,
            pipe: RefCell::new(Some(pipe)),
            slow: RefCell::new(None),
            trips: Cell::new(0),
            keep: Cell::new(STATEMENT_CAMPAIGNS),
            between: RefCell::new(None),
            busy: RefCell::new(HashMap::new()),
        })
    }

    /// Keep at most `campaigns` campaigns' statements prepared (at least
    /// one; [`STATEMENT_CAMPAIGNS`] unless set).
    pub fn keep_statements_of(&self, campaigns: usize) {
        self.keep.set(campaigns.max(1));
    }

    /// Run `f` between the two rounds of every commit made in two rounds
    /// from now on, after the reads came back and before the writes are
    /// sent: what a test does to the connection there.
    #[doc(hidden)]
    pub fn between_rounds(&self, f: impl FnMut() + Send + 'static) {
        *self.between.borrow_mut() = Some(Box::new(f));
    }

    /// Write every group's parts in **one** transaction (statements
    /// qualified by each group's schema; the module docs). The outcome of
    /// each part, group by group, in order: `Ok` when written, or why it
    /// was left out (nothing of it written). `Err`: the whole commit was
    /// refused and nothing written (the connection lost: the next commit
    /// connects again; a schema name that cannot be one).
    pub fn commit(
        &self,
        groups: &[Group<'_>],
    ) -> Result<Vec<Vec<Result<(), SaveError>>>, SaveError> {
        if let Some(g) = groups.iter().find(|g| !valid_schema_name(g.schema)) {
            return Err(SaveError::Refused(format!(
                "'{}' cannot name a campaign's schema: nothing of the batch was written",
                g.schema
            )));
        }
        let now = Instant::now();
        let mut memo = self.busy.borrow_mut();
        memo.retain(|_, at| now.duration_since(*at) < BUSY_MEMO);
        let nowait: Vec<bool> = groups.iter().map(|g| memo.contains_key(g.schema)).collect();
        drop(memo);
        let (out, busy) = match self.in_two_rounds(groups, &nowait)? {
            Some(done) => done,
            None => {
                let mut slow = self.slow.borrow_mut();
                if slow.is_none() {
                    *slow = Some(
                        Postgres::connect(&self.url)
                            .map_err(|e| SaveError::Unreachable(e.to_string()))?,
                    );
                }
                let db = slow.as_ref().ok_or_else(|| {
                    SaveError::Unreachable("the committer's connection is gone".into())
                })?;
                write_groups_busy(db, groups, true, &nowait)?
            }
        };
        let mut memo = self.busy.borrow_mut();
        for (g, (b, quick)) in groups.iter().zip(busy.iter().zip(&nowait)) {
            if g.batch.is_empty() {
                // Nothing was locked: it says nothing of the hold
                // (review10 NIT 7).
                continue;
            }
            if !*b {
                memo.remove(g.schema);
            } else if !*quick {
                // Found busy after a whole wait: tried without waiting for
                // a while (a quick refusal does not lengthen the while).
                memo.insert(g.schema.to_owned(), now);
            }
        }
        Ok(out)
    }

    /// The campaigns (schemas) found busy lately, locked `NOWAIT` until
    /// [`BUSY_MEMO`] has passed (sorted): what the server's log or a test
    /// may ask.
    pub fn busy_campaigns(&self) -> Vec<String> {
        let now = Instant::now();
        let mut out: Vec<String> = self
            .busy
            .borrow()
            .iter()
            .filter(|(_, at)| now.duration_since(**at) < BUSY_MEMO)
            .map(|(s, _)| s.clone())
            .collect();
        out.sort();
        out
    }

    /// Round trips made on the committer's connections so far (each round
    /// of pipelined statements is one).
    pub fn round_trips(&self) -> u64 {
        self.trips.get() + self.slow.borrow().as_ref().map_or(0, Postgres::round_trips)
    }

    /// How often the server planned each statement prepared on the
    /// committer's session: (its text, generic plans, custom plans).
    pub fn plans_on_server(&self) -> Result<Vec<(String, i64, i64)>, SaveError> {
        let rows = {
            let pipe = self.pipe()?;
            self.trips.set(self.trips.get() + 1);
            pipe.plans()
        }
        .map_err(|e| SaveError::from(self.pipe_failed(e)))?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get(0).map_err(cell)?,
                    r.try_get(1).map_err(cell)?,
                    r.try_get(2).map_err(cell)?,
                ))
            })
            .collect()
    }

    /// The process id of the committer's server backend (a round trip;
    /// the connection made again if it was lost): what a test terminates
    /// to lose this committer's connection, and no other's.
    pub fn backend_pid(&self) -> Result<i64, SaveError> {
        let rows = self.one_query(crate::db::pg::BACKEND_PID)?;
        match rows.first() {
            Some(r) => r.try_get(0).map_err(cell),
            None => Err(SaveError::Sql("pg_backend_pid() gave no row".into())),
        }
    }

    /// End the session.
    pub fn close(self) -> Result<(), SaveError> {
        if let Some(db) = self.slow.into_inner() {
            db.close().map_err(SaveError::from)?;
        }
        Ok(())
    }

    /// The pipe, connected again if it was lost.
    fn pipe(&self) -> Result<std::cell::RefMut<'_, Pipe>, SaveError> {
        let mut slot = self.pipe.borrow_mut();
        if slot.is_none() {
            *slot = Some(Pipe::connect(&self.url).map_err(|e| {
                SaveError::Unreachable(format!(
                    "the connection to PostgreSQL was lost, and connecting again failed: {e}"
                ))
            })?);
        }
        Ok(std::cell::RefMut::map(slot, |p| {
            p.as_mut().expect("connected just above")
        }))
    }

    /// A failure of a statement on the pipe: lost, the pipe is dropped
    /// (the next commit connects again).
    fn pipe_failed(&self, e: tokio_postgres::Error) -> DbError {
        let e = fail(e);
        if e.code == Some(Code::Lost) {
            *self.pipe.borrow_mut() = None;
        }
        e
    }

    /// One statement with no parameters on the pipe, unprepared: every
    /// row.
    fn one_query(&self, text: &str) -> Result<Vec<tokio_postgres::Row>, SaveError> {
        let done = {
            let pipe = self.pipe()?;
            self.trips.set(self.trips.get() + 1);
            pipe.one(text)
        };
        done.map_err(|e| SaveError::from(self.pipe_failed(e)))
    }
}

/// The first failure of a round's answers (the statements after it in a
/// transaction fail with it: "current transaction is aborted"), and every
/// answer's rows (none for a failed one).
fn first_failure(
    answers: Vec<Answer>,
) -> (Vec<Vec<tokio_postgres::Row>>, Option<tokio_postgres::Error>) {
    let mut first = None;
    let rows = answers
        .into_iter()
        .map(|a| match a {
            Ok(rows) => rows,
            Err(e) => {
                first.get_or_insert(e);
                Vec::new()
            }
        })
        .collect();
    (rows, first)
}

/// What a commit in two rounds ends in: done (each part's outcome, and
/// which groups were left out busy), or left to the slow path (nothing of
/// it written, the pipe's transaction ended).
type TwoRounds = Option<(Outcomes, Vec<bool>)>;

impl Committer {
    /// A commit in two rounds on the pipe (module docs, "Two rounds"):
    /// `None` for what the slow path (`write_groups_busy`) makes instead,
    /// the pipe's transaction ended first; `Err` when the connection was
    /// lost (nothing written, or, lost at the `COMMIT`, unknown).
    fn in_two_rounds(&self, groups: &[Group<'_>], nowait: &[bool]) -> Result<TwoRounds, SaveError> {
        let mut out: Outcomes = groups.iter().map(|_| Vec::new()).collect();
        let mut busy = vec![false; groups.len()];
        let mut live: Vec<usize> = (0..groups.len())
            .filter(|&i| !groups[i].batch.is_empty())
            .collect();
        if live.is_empty() {
            return Ok(Some((out, busy)));
        }
        if !live.iter().all(|&i| groups[i].batch.iter().all(dense)) {
            return Ok(None);
        }
        // The campaigns in one order (their locks too): two committers
        // never wait for each other in a circle.
        live.sort_by_key(|&i| groups[i].schema);
        // Several campaigns: every lock `NOWAIT`, nothing waited for while
        // anything is held (review10 S3; refused, the slow path learns
        // which campaign is busy); one: as its memo says.
        let wait = if live.len() > 1 || nowait[live[0]] {
            " NOWAIT"
        } else {
            ""
        };
        let prefix: Vec<String> = live
            .iter()
            .map(|&i| format!("{}.", groups[i].schema))
            .collect();
        let args: Vec<ReadArgs<'_>> = live.iter().map(|&i| ReadArgs::of(&groups[i])).collect();
        let mut texts: Vec<(&str, String)> = Vec::new();
        for (k, &i) in live.iter().enumerate() {
            let s = &prefix[k];
            texts.push((
                groups[i].schema,
                format!(
                    "SELECT id FROM {s}battles WHERE id = ANY($1) ORDER BY id FOR UPDATE{wait}"
                ),
            ));
            texts.push((groups[i].schema, read_sql(s, args[k].with_ids())));
        }
        let begin = std::iter::once("BEGIN".to_owned())
            .chain(
                prefix
                    .iter()
                    .map(|s| format!("LOCK TABLE {s}battles IN ROW EXCLUSIVE MODE{wait}")),
            )
            .collect::<Vec<_>>()
            .join("; ");
        let lock_args: Vec<[&(dyn ToSql + Sync); 1]> = args
            .iter()
            .map(|a| [&a.ids as &(dyn ToSql + Sync)])
            .collect();
        let read_args: Vec<Vec<&(dyn ToSql + Sync)>> = args.iter().map(ReadArgs::params).collect();

        let mut pipe = self.pipe()?;
        let schemas: Vec<&str> = live.iter().map(|&i| groups[i].schema).collect();
        pipe.touch(&schemas, self.keep.get());
        let stmts = match pipe.prepared(&texts, &self.trips) {
            Ok(s) => s,
            Err(e) => {
                drop(pipe);
                return self.left_to_the_slow_path(e, false);
            }
        };
        // 1. `BEGIN`, every lock, every read.
        let (rows, failed) = {
            let mut requests: Vec<Request<'_>> = vec![pipe.script(&begin)];
            for k in 0..live.len() {
                requests.push(pipe.query(&stmts[2 * k], &lock_args[k]));
                requests.push(pipe.query(&stmts[2 * k + 1], &read_args[k]));
            }
            self.trips.set(self.trips.get() + 1);
            first_failure(pipe.round(requests))
        };
        if let Some(e) = failed {
            let lone_busy = live.len() == 1
                && e.code() == Some(&tokio_postgres::error::SqlState::LOCK_NOT_AVAILABLE);
            drop(pipe);
            if lone_busy {
                // Its lock not granted in time: left out busy.
                self.rolled_back()?;
                let i = live[0];
                busy[i] = true;
                out[i] = busy_parts(&groups[i], &SaveError::from(fail(e)));
                return Ok(Some((out, busy)));
            }
            return self.left_to_the_slow_path(e, true);
        }
        // 2. The checks, in memory.
        let mut planned: Vec<(usize, Planned<'_>)> = Vec::new();
        for (k, &i) in live.iter().enumerate() {
            let read = match reads(&rows[2 + 2 * k], 1) {
                Ok(mut r) => r.pop().unwrap_or_default(),
                Err(_) => {
                    drop(pipe);
                    self.rolled_back()?;
                    return Ok(None);
                }
            };
            let p = plan(&groups[i], read);
            if !p.seals.is_empty() {
                // A block to seal (once per 1,024 entries of a battle):
                // the slow path seals it in its transaction.
                drop(pipe);
                self.rolled_back()?;
                return Ok(None);
            }
            planned.push((k, p));
        }
        // 3. Every write and the `COMMIT`.
        let writes: Vec<(String, Vec<&(dyn ToSql + Sync)>)> = planned
            .iter()
            .filter(|(_, p)| !p.positions.is_empty())
            .map(|(k, p)| write_statement(&prefix[*k], p))
            .collect();
        let wanted: Vec<(&str, String)> = planned
            .iter()
            .filter(|(_, p)| !p.positions.is_empty())
            .zip(&writes)
            .map(|((k, _), (text, _))| (groups[live[*k]].schema, text.clone()))
            .collect();
        let stmts = match pipe.prepared(&wanted, &self.trips) {
            Ok(s) => s,
            Err(e) => {
                drop(pipe);
                return self.left_to_the_slow_path(e, true);
            }
        };
        if let Some(f) = self.between.borrow_mut().as_mut() {
            f();
        }
        let (_, failed) = {
            let mut requests: Vec<Request<'_>> = stmts
                .iter()
                .zip(&writes)
                .map(|(st, (_, params))| pipe.query(st, params))
                .collect();
            requests.push(pipe.script("COMMIT"));
            self.trips.set(self.trips.get() + 1);
            first_failure(pipe.round(requests))
        };
        drop(pipe);
        if let Some(e) = failed {
            let e = self.pipe_failed(e);
            if e.code == Some(Code::Lost) {
                return Err(SaveError::from(e));
            }
            // A write failed, and the `COMMIT` after it ended the
            // transaction PostgreSQL had aborted (answered `ROLLBACK`), or
            // the `COMMIT` failed itself: nothing written either way; the
            // slow path makes the commit again (the savepoint path, should
            // its write fail too), and says in its words what it refuses.
            return Ok(None);
        }
        for (k, p) in planned {
            out[live[k]] = p.results;
        }
        Ok(Some((out, busy)))
    }

    /// A statement of the pipe failed (`e`, the first that did): lost,
    /// the commit is refused (`Unreachable`); else the transaction (when
    /// `open`) is rolled back and the commit left to the slow path.
    fn left_to_the_slow_path(
        &self,
        e: tokio_postgres::Error,
        open: bool,
    ) -> Result<TwoRounds, SaveError> {
        let e = self.pipe_failed(e);
        if e.code == Some(Code::Lost) {
            return Err(SaveError::from(e));
        }
        if open {
            self.rolled_back()?;
        }
        Ok(None)
    }

    /// The pipe's transaction rolled back (a round trip). Lost there, the
    /// pipe is dropped, and the commit refused (`Unreachable`): the server
    /// rolls a lost session's transaction back itself.
    fn rolled_back(&self) -> Result<(), SaveError> {
        let done = {
            let pipe = self.pipe()?;
            self.trips.set(self.trips.get() + 1);
            pipe.script_now("ROLLBACK")
        };
        done.map_err(|e| {
            // Not lost, yet not rolled back: the connection is dropped, so
            // that the slow path never waits for this transaction's locks.
            *self.pipe.borrow_mut() = None;
            SaveError::from(fail(e))
        })
    }
}

/// Each part of `g` left out busy (`why`: the lock refused, in words).
fn busy_parts(g: &Group<'_>, why: &SaveError) -> Vec<Result<(), SaveError>> {
    let why = match why {
        SaveError::Busy(w) => w.clone(),
        other => other.to_string(),
    };
    g.batch
        .iter()
        .map(|d| {
            Err(SaveError::Busy(format!(
                "battle {}'s campaign is busy: {why}",
                d.battle
            )))
        })
        .collect()
}

impl crate::Campaign {
    /// Round trips made on this campaign's connection so far (PostgreSQL;
    /// `None` on SQLite): what the tests of a batch count.
    pub fn round_trips(&self) -> Option<u64> {
        match &self.conn {
            crate::db::Conn::Postgres { db, .. } => Some(db.round_trips()),
            crate::db::Conn::Sqlite(_) => None,
        }
    }
}

/// Write `groups` in one transaction on `db` (module docs). `qualify`:
/// the statements name each group's schema (a connection serving many
/// campaigns); otherwise they use the connection's `search_path` (a
/// campaign's own connection).
pub(crate) fn write_groups(
    db: &Postgres,
    groups: &[Group<'_>],
    qualify: bool,
) -> Result<Vec<Vec<Result<(), SaveError>>>, SaveError> {
    let quick = vec![false; groups.len()];
    Ok(write_groups_busy(db, groups, qualify, &quick)?.0)
}

/// Each part's outcome, group by group.
type Outcomes = Vec<Vec<Result<(), SaveError>>>;

/// [`write_groups`], and which groups were left out busy: a group whose
/// lock was not granted within the session's `lock_timeout` (`55P03`;
/// the committer's [`LOCK_WAIT`]) is left out, each of its parts answered
/// [`SaveError::Busy`], and the others are committed. `nowait[i]`: group
/// `i` is locked `NOWAIT` (found busy lately): held still, it is left out
/// at once.
///
/// With several campaigns, no lock is waited for while another
/// campaign's is held (review10 S3: a committer waiting for a held
/// campaign kept the rows of the campaigns before it, so another process's
/// committer could time out on a campaign nobody held). Every group is
/// first locked `NOWAIT`; those refused are left out of that transaction
/// and written after it, each alone in a transaction of its own, where its
/// lock is waited for. Uncontended, the commit is the one transaction.
fn write_groups_busy(
    db: &Postgres,
    groups: &[Group<'_>],
    qualify: bool,
    nowait: &[bool],
) -> Result<(Outcomes, Vec<bool>), SaveError> {
    if groups.iter().filter(|g| !g.batch.is_empty()).count() < 2 {
        return write_round(db, groups, qualify, nowait);
    }
    let (mut out, mut left) = write_round(db, groups, qualify, &vec![true; groups.len()])?;
    for (i, g) in groups.iter().enumerate() {
        if !left[i] || nowait[i] {
            continue;
        }
        // The others are committed: what goes wrong now is this group's
        // alone (a lost connection answered as such, part by part).
        match write_round(db, std::slice::from_ref(g), qualify, &[false]) {
            Ok((o, l)) => {
                out[i] = o.into_iter().next().unwrap_or_default();
                left[i] = l.first().copied().unwrap_or(false);
            }
            Err(e) => {
                let lost = matches!(e, SaveError::Unreachable(_));
                let words = e.to_string();
                out[i] = g
                    .batch
                    .iter()
                    .map(|_| {
                        Err(if lost {
                            SaveError::Unreachable(words.clone())
                        } else {
                            SaveError::Refused(words.clone())
                        })
                    })
                    .collect();
                left[i] = false;
            }
        }
    }
    Ok((out, left))
}

/// One transaction of [`write_groups_busy`]: the groups' parts, each
/// group locked as `nowait` says; a group whose lock is refused is left
/// out busy, the transaction rolled back and made again without it (its
/// locks let go, so no campaign waits on a campaign left out).
fn write_round(
    db: &Postgres,
    groups: &[Group<'_>],
    qualify: bool,
    nowait: &[bool],
) -> Result<(Outcomes, Vec<bool>), SaveError> {
    let mut busy: Vec<Option<String>> = groups.iter().map(|_| None).collect();
    let answered = |mut out: Outcomes, busy: Vec<Option<String>>| {
        for (i, why) in busy.iter().enumerate() {
            if let Some(why) = why {
                out[i] = busy_parts(&groups[i], &SaveError::Busy(why.clone()));
            }
        }
        let left: Vec<bool> = busy.iter().map(Option::is_some).collect();
        (out, left)
    };
    if groups.iter().all(|g| g.batch.is_empty()) {
        return Ok(answered(groups.iter().map(|_| Vec::new()).collect(), busy));
    }
    // The campaigns in one order (their locks too): two committers never
    // wait for each other in a circle.
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&i| groups[i].schema);
    if groups.iter().all(|g| g.batch.iter().all(dense)) {
        // Every campaign's locks in one round trip while that is granted
        // (all `NOWAIT`: nothing waited for while anything is held); once
        // refused, the rounds after lock group by group, to learn which
        // campaign is busy.
        let mut together = qualify;
        // Each round leaves out one more busy group, or ends.
        loop {
            let tx = begin(db, Begin::Immediate)?;
            let mut out: Vec<Vec<Result<(), SaveError>>> =
                groups.iter().map(|_| Vec::new()).collect();
            let live: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&i| busy[i].is_none() && !groups[i].batch.is_empty())
                .collect();
            let locked = together && live.len() > 1 && live.iter().all(|&i| nowait[i]);
            if locked {
                match lock_groups(db, groups, &live) {
                    Ok(()) => {}
                    Err(e @ SaveError::Unreachable(_)) => return Err(e),
                    // Rolled back (the `Tx` dropped); again, group by group.
                    Err(_) => {
                        drop(tx);
                        together = false;
                        continue;
                    }
                }
            }
            let mut failed = None;
            for &i in &live {
                match write_group(db, &groups[i], qualify, nowait[i], !locked) {
                    Ok(r) => out[i] = r,
                    Err(e) => {
                        failed = Some((i, e));
                        break;
                    }
                }
            }
            match failed {
                None => {
                    tx.commit()?;
                    return Ok(answered(out, busy));
                }
                // Nothing to fall back on: the connection is gone.
                Some((_, e @ SaveError::Unreachable(_))) => return Err(e),
                // Rolled back (the `Tx` dropped); again without it.
                Some((i, SaveError::Busy(why))) => {
                    drop(tx);
                    busy[i] = Some(why);
                }
                // Rolled back (the `Tx` dropped); written again part by part.
                Some(_) => {
                    drop(tx);
                    break;
                }
            }
        }
    }
    let tx = begin(db, Begin::Immediate)?;
    let mut out: Vec<Vec<Result<(), SaveError>>> = groups.iter().map(|_| Vec::new()).collect();
    for &i in &order {
        if busy[i].is_some() {
            continue;
        }
        let g = &groups[i];
        if qualify {
            tx.execute_batch(&format!("SET LOCAL search_path TO {}", g.schema))?;
        }
        // The group's battles locked first, in the order of their ids, as
        // the few-statement path locks them (review5 S4: locked part by
        // part in the batch's order, a fallback and another process's
        // batch could wait for each other in a circle). In a savepoint: a
        // group whose lock is not granted is left out, busy.
        let sp = tx.savepoint()?;
        match lock_battles(db, g, "", nowait[i]) {
            Ok(()) => sp.release()?,
            Err(e @ SaveError::Unreachable(_)) => return Err(e),
            Err(SaveError::Busy(why)) => {
                sp.rollback()?;
                busy[i] = Some(why);
                continue;
            }
            // Said by the part's own write below.
            Err(_) => sp.rollback()?,
        }
        out[i] = crate::batch::write_parts(&tx, g.batch, g.notify.as_ref())?;
    }
    tx.commit()?;
    Ok(answered(out, busy))
}

/// Lock `g`'s battles table for writing and its battles `FOR UPDATE` in
/// the order of their ids (`s`: the schema's prefix, or empty for the
/// `search_path`'s), in one round trip. The table's lock is what a merge
/// holds against (review10 S4): a held table refuses the group here, not
/// each battle's write after. `nowait`: both taken `NOWAIT` (refused at
/// once).
fn lock_battles(db: &Postgres, g: &Group<'_>, s: &str, nowait: bool) -> Result<(), SaveError> {
    if let Some(script) = lock_script(db, g, s, nowait)? {
        db.execute_batch(&script)?;
    }
    Ok(())
}

/// The statements of [`lock_battles`] (`None`: no battle to lock). The
/// rows' `SELECT … FOR UPDATE` is a statement prepared on the session
/// (`Postgres::prepared_in_scripts`, once per schema and wait), its ids an
/// array: before session 22 the ids were written into its text, and
/// PostgreSQL planned it again at every commit (BENCHMARKS.md, "Issue 31,
/// session 22 (helper pgpath)").
fn lock_script(
    db: &Postgres,
    g: &Group<'_>,
    s: &str,
    nowait: bool,
) -> Result<Option<String>, SaveError> {
    let mut ids: Vec<BattleId> = g.batch.iter().map(|d| d.battle).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(None);
    }
    let wait = if nowait { " NOWAIT" } else { "" };
    let rows = db.prepared_in_scripts(
        &format!("SELECT id FROM {s}battles WHERE id = ANY($1) ORDER BY id FOR UPDATE{wait}"),
        "bigint[]",
    )?;
    // Numbers, written into the script (a script takes no parameters).
    let list: Vec<String> = ids.iter().map(i64::to_string).collect();
    Ok(Some(format!(
        "LOCK TABLE {s}battles IN ROW EXCLUSIVE MODE{wait}; EXECUTE {rows}('{{{}}}')",
        list.join(",")
    )))
}

/// The groups `live` (in the campaigns' order, each schema-qualified)
/// locked as [`lock_battles`] locks one, all `NOWAIT`, in **one** round
/// trip whatever their number: the first lock refused refuses the whole
/// script (which campaign is busy is then learnt group by group).
fn lock_groups(db: &Postgres, groups: &[Group<'_>], live: &[usize]) -> Result<(), SaveError> {
    let mut scripts: Vec<String> = Vec::new();
    for &i in live {
        if let Some(script) = lock_script(db, &groups[i], &format!("{}.", groups[i].schema), true)?
        {
            scripts.push(script);
        }
    }
    if !scripts.is_empty() {
        db.execute_batch(&scripts.join("; "))?;
    }
    Ok(())
}

/// Whether a part's entries follow on from the head it was decided on,
/// one after another (what `decide` makes): the few-statement path writes
/// only such parts; anything else goes the savepoint way.
fn dense(d: &Decided) -> bool {
    d.rows
        .iter()
        .enumerate()
        .all(|(i, r)| r.seq == d.entries_before + i as u64)
}

/// What the read found of a battle, moved on by each part taken.
/// The arrays of the write statement (module docs, step 4).
#[derive(Default)]
struct Arrays<'a> {
    e_battle: Vec<i64>,
    e_seq: Vec<i64>,
    e_record: Vec<&'a [u8]>,
    b_battle: Vec<i64>,
    b_id: Vec<i64>,
    b_name: Vec<&'a str>,
    b_parent: Vec<Option<i64>>,
    b_fork: Vec<Option<i64>>,
    b_kind: Vec<&'static str>,
    s_battle: Vec<i64>,
    s_seq: Vec<i64>,
    s_state: Vec<&'a [u8]>,
    c_battle: Vec<i64>,
    c_seat: Vec<i64>,
    c_id: Vec<&'a str>,
    c_entries: Vec<String>,
    revealed: Vec<i64>,
    notices: Vec<String>,
}

/// The position each battle is left at: its last part's.
struct Position<'a> {
    cursor: Option<i64>,
    branch: i64,
    status: &'a str,
    result: Option<&'a str>,
}

fn sql(e: DbError) -> SaveError {
    SaveError::from(e)
}

/// One campaign's parts, in the open transaction: lock, read, check,
/// write, seal. `Err` when a statement failed (the caller rolls back).
fn write_group(
    db: &Postgres,
    g: &Group<'_>,
    qualify: bool,
    nowait: bool,
    lock: bool,
) -> Result<Vec<Result<(), SaveError>>, SaveError> {
    if g.batch.is_empty() {
        return Ok(Vec::new());
    }
    let s = if qualify {
        format!("{}.", g.schema)
    } else {
        String::new()
    };
    // 1. The lock, in the order of the ids (unless taken already with
    // every campaign's, `lock_groups`).
    if lock {
        lock_battles(db, g, &s, nowait)?;
    }
    // 2. The read, after the lock.
    let args = ReadArgs::of(g);
    let rows = db
        .query_pg(&read_sql(&s, args.with_ids()), &args.params())
        .map_err(sql)?;
    let read = reads(&rows, 1)?.pop().unwrap_or_default();
    // 3. The checks, part by part in order.
    let mut planned = plan(g, read);
    if planned.positions.is_empty() {
        return Ok(planned.results);
    }
    // 4. The write: one statement.
    let (text, params) = write_statement(&s, &planned);
    db.query_pg(&text, &params).map_err(sql)?;
    // 5. The blocks the batch filled, sealed in the same transaction.
    seal(db, g, qualify, &planned.seals)?;
    Ok(std::mem::take(&mut planned.results))
}

/// The parameters of a group's read ([`read_sql`]): its battles, and the
/// command ids its parts carry (battle, seat, id).
struct ReadArgs<'a> {
    ids: Vec<BattleId>,
    c_battle: Vec<i64>,
    c_seat: Vec<i64>,
    c_id: Vec<&'a str>,
}

impl<'a> ReadArgs<'a> {
    fn of(g: &Group<'a>) -> ReadArgs<'a> {
        let mut ids: Vec<BattleId> = g.batch.iter().map(|d| d.battle).collect();
        ids.sort_unstable();
        ids.dedup();
        let (mut c_battle, mut c_seat, mut c_id) = (Vec::new(), Vec::new(), Vec::new());
        for d in g.batch {
            if let Some((seat, cmd)) = &d.command_id {
                c_battle.push(d.battle);
                c_seat.push(i64::from(seat.0));
                c_id.push(cmd.as_str());
            }
        }
        ReadArgs {
            ids,
            c_battle,
            c_seat,
            c_id,
        }
    }

    /// Whether any part carries a command id (the read looks them up).
    fn with_ids(&self) -> bool {
        !self.c_battle.is_empty()
    }

    /// The parameters of [`read_sql`] with [`ReadArgs::with_ids`].
    fn params(&self) -> Vec<&(dyn ToSql + Sync)> {
        if self.with_ids() {
            vec![&self.ids, &self.c_battle, &self.c_seat, &self.c_id]
        } else {
            vec![&self.ids]
        }
    }
}

/// The read of one group, schema prefix `s`, its parameters
/// [`ReadArgs::params`]: each battle's game and seed, its stored entry
/// count (the tail's last entry, the last block), branch count, cursor and
/// branch; and, `ids`, the command ids stored (left out of the statement
/// when no part carries one: a join PostgreSQL would open its table and
/// index for at every call).
fn read_sql(s: &str, ids: bool) -> String {
    let mut text = format!(
        "SELECT 0::bigint, 0::bigint, b.id, b.game, b.seed, \
           (SELECT e.seq FROM {s}entries e WHERE e.battle = b.id ORDER BY e.seq DESC LIMIT 1), \
           (SELECT k.first FROM {s}entry_blocks k WHERE k.battle = b.id ORDER BY k.first DESC LIMIT 1), \
           (SELECT COUNT(*) FROM {s}branches r WHERE r.battle = b.id), \
           b.cursor::bigint, b.branch::bigint \
         FROM {s}battles b WHERE b.id = ANY($1)"
    );
    if ids {
        text.push_str(&format!(
            " UNION ALL \
             SELECT 0, 1, c.battle, c.cmd_id, c.seat, NULL, NULL, NULL, NULL, NULL \
             FROM {s}club_commands c \
             JOIN unnest($2::bigint[], $3::bigint[], $4::text[]) AS u(battle, seat, cmd_id) \
             ON c.battle = u.battle AND c.seat = u.seat AND c.cmd_id = u.cmd_id"
        ));
    }
    text
}

/// What the read found of one group's battles.
#[derive(Default)]
struct Read {
    heads: HashMap<BattleId, Head>,
    used: HashSet<(BattleId, i64, String)>,
}

/// The rows of [`read_sql`]s, parted among `groups` groups by their
/// first column.
fn reads(rows: &[postgres::Row], groups: usize) -> Result<Vec<Read>, SaveError> {
    let mut out: Vec<Read> = (0..groups).map(|_| Read::default()).collect();
    for r in rows {
        let group: i64 = r.try_get(0).map_err(cell)?;
        let Some(read) = usize::try_from(group).ok().and_then(|k| out.get_mut(k)) else {
            return Err(SaveError::Sql(format!(
                "reading the battles of a batch failed: a row of group {group} of {groups}"
            )));
        };
        let kind: i64 = r.try_get(1).map_err(cell)?;
        let battle: i64 = r.try_get(2).map_err(cell)?;
        let text: String = r.try_get(3).map_err(cell)?;
        let number: i64 = r.try_get(4).map_err(cell)?;
        if kind == 0 {
            let tail: Option<i64> = r.try_get(5).map_err(cell)?;
            let block: Option<i64> = r.try_get(6).map_err(cell)?;
            let branches: Option<i64> = r.try_get(7).map_err(cell)?;
            let cursor: Option<i64> = r.try_get(8).map_err(cell)?;
            let branch: Option<i64> = r.try_get(9).map_err(cell)?;
            read.heads.insert(
                battle,
                Head {
                    game: text,
                    seed: number,
                    entries: count_from(tail, block),
                    branches: branches.unwrap_or(0),
                    cursor,
                    branch: branch.unwrap_or(0),
                },
            );
        } else {
            read.used.insert((battle, number, text));
        }
    }
    Ok(out)
}

/// One group's checks made (module docs, step 3): each part's outcome,
/// and what the write of the parts taken sends.
struct Planned<'a> {
    results: Vec<Result<(), SaveError>>,
    a: Arrays<'a>,
    positions: Vec<(BattleId, Position<'a>)>,
    seals: Vec<(BattleId, u64)>,
    p_battle: Vec<i64>,
    p_cursor: Vec<Option<i64>>,
    p_branch: Vec<i64>,
    p_status: Vec<&'a str>,
    p_result: Vec<Option<&'a str>>,
    channel: &'a str,
    updated: i64,
}

/// The checks of one group's parts against what the read found, part by
/// part in order (module docs, step 3).
fn plan<'a>(g: &Group<'a>, read: Read) -> Planned<'a> {
    let Read {
        mut heads,
        mut used,
    } = read;
    let mut a = Arrays::default();
    let mut positions: Vec<(BattleId, Position<'_>)> = Vec::new();
    let mut seals: Vec<(BattleId, u64)> = Vec::new();
    let mut results = Vec::with_capacity(g.batch.len());
    let mut refused: HashSet<BattleId> = HashSet::new();
    for d in g.batch {
        if refused.contains(&d.battle) {
            results.push(Err(d.after_refused()));
            continue;
        }
        let checked = match heads.get(&d.battle) {
            None => Err(SaveError::NoSuchBattle(d.battle)),
            Some(h) => d.check_head(h),
        }
        .and_then(|()| match &d.command_id {
            Some((seat, cmd)) if used.contains(&(d.battle, i64::from(seat.0), cmd.clone())) => {
                Err(SaveError::CommandIdUsed {
                    battle: d.battle,
                    seat: seat.0,
                    cmd_id: cmd.clone(),
                })
            }
            _ => Ok(()),
        });
        if let Err(e) = checked {
            refused.insert(d.battle);
            results.push(Err(e));
            continue;
        }
        let Some(head) = heads.get_mut(&d.battle) else {
            continue;
        };
        if let Some((seat, cmd)) = &d.command_id {
            used.insert((d.battle, i64::from(seat.0), cmd.clone()));
        }
        // Taken: the battle's head moves on for the parts after it.
        head.entries += d.rows.len() as u64;
        head.cursor = d.cursor.map(|c| c as i64);
        head.branch = i64::from(d.branch);
        for r in &d.rows {
            a.e_battle.push(d.battle);
            a.e_seq.push(r.seq as i64);
            a.e_record.push(&r.bytes);
            if let Some(b) = &r.branch {
                head.branches += 1;
                a.b_battle.push(d.battle);
                a.b_id.push(i64::from(b.id));
                a.b_name.push(&b.name);
                a.b_parent.push(b.parent.map(i64::from));
                a.b_fork.push(b.fork.map(|f| f as i64));
                a.b_kind.push(b.kind.as_str());
            }
            if let Some(state) = &r.snapshot {
                a.s_battle.push(d.battle);
                a.s_seq.push(r.seq as i64);
                a.s_state.push(state);
            }
            if (r.seq + 1).is_multiple_of(BLOCK) {
                seals.push((d.battle, r.seq));
            }
        }
        if let Some((seat, cmd)) = &d.command_id {
            a.c_battle.push(d.battle);
            a.c_seat.push(i64::from(seat.0));
            a.c_id.push(cmd);
            a.c_entries
                .push(serde_json::to_string(&d.entries()).unwrap_or_else(|_| "[]".into()));
        }
        if d.ends() {
            a.revealed.push(d.battle);
        }
        if let Some(n) = &g.notify {
            a.notices.extend(d.notices(n.prefix));
        }
        let at = Position {
            cursor: d.cursor.map(|c| c as i64),
            branch: i64::from(d.branch),
            status: d.status,
            result: d.result.as_deref(),
        };
        match positions.iter_mut().find(|(b, _)| *b == d.battle) {
            Some((_, p)) => *p = at,
            None => positions.push((d.battle, at)),
        }
        results.push(Ok(()));
    }
    Planned {
        results,
        p_battle: positions.iter().map(|(b, _)| *b).collect(),
        p_cursor: positions.iter().map(|(_, p)| p.cursor).collect(),
        p_branch: positions.iter().map(|(_, p)| p.branch).collect(),
        p_status: positions.iter().map(|(_, p)| p.status).collect(),
        p_result: positions.iter().map(|(_, p)| p.result).collect(),
        a,
        positions,
        seals,
        channel: g.notify.map_or("", |n| n.channel),
        updated: now(),
    }
}

/// The write of one group (module docs, step 4), schema prefix `s`, and
/// its parameters: its data-modifying `WITH`s (every entry, new branch,
/// snapshot and command id inserted, each battle's position moved, the
/// fair secrets of the battles that ended revealed), and the `SELECT` that
/// sends each part's `pg_notify` (delivered at commit). Only what the
/// group has is in the statement: an insert or update with nothing to do
/// is left out of its text, as PostgreSQL opens and locks a table and its
/// indexes, and starts an executor node, for each at every call, even
/// empty (session 22: most commits have entries and positions alone). So
/// a group's write is one of a few texts, each prepared once on the
/// connection.
fn write_statement<'p>(s: &str, p: &'p Planned<'_>) -> (String, Vec<&'p (dyn ToSql + Sync)>) {
    let a = &p.a;
    let mut params: Vec<&'p (dyn ToSql + Sync)> = Vec::new();
    let mut arg = |v: &'p (dyn ToSql + Sync), ty: &str| {
        params.push(v);
        format!("${}::{ty}", params.len())
    };
    let mut ctes: Vec<String> = Vec::new();
    if !a.e_battle.is_empty() {
        ctes.push(format!(
            "e AS (INSERT INTO {s}entries (battle, seq, record) \
               SELECT * FROM unnest({}, {}, {}))",
            arg(&a.e_battle, "bigint[]"),
            arg(&a.e_seq, "bigint[]"),
            arg(&a.e_record, "bytea[]"),
        ));
    }
    if !a.b_battle.is_empty() {
        ctes.push(format!(
            "br AS (INSERT INTO {s}branches (battle, id, name, parent, fork, kind) \
               SELECT * FROM unnest({}, {}, {}, {}, {}, {}))",
            arg(&a.b_battle, "bigint[]"),
            arg(&a.b_id, "bigint[]"),
            arg(&a.b_name, "text[]"),
            arg(&a.b_parent, "bigint[]"),
            arg(&a.b_fork, "bigint[]"),
            arg(&a.b_kind, "text[]"),
        ));
    }
    if !a.s_battle.is_empty() {
        ctes.push(format!(
            "sn AS (INSERT INTO {s}snapshots (battle, seq, state) \
               SELECT * FROM unnest({}, {}, {}))",
            arg(&a.s_battle, "bigint[]"),
            arg(&a.s_seq, "bigint[]"),
            arg(&a.s_state, "bytea[]"),
        ));
    }
    if !p.p_battle.is_empty() {
        ctes.push(format!(
            "p AS (UPDATE {s}battles b SET cursor = u.cursor, branch = u.branch, \
                 status = u.status, result = u.result, updated = {} \
               FROM unnest({}, {}, {}, {}, {}) AS u(id, cursor, branch, status, result) \
               WHERE b.id = u.id)",
            arg(&p.updated, "bigint"),
            arg(&p.p_battle, "bigint[]"),
            arg(&p.p_cursor, "bigint[]"),
            arg(&p.p_branch, "bigint[]"),
            arg(&p.p_status, "text[]"),
            arg(&p.p_result, "text[]"),
        ));
    }
    if !a.c_battle.is_empty() {
        ctes.push(format!(
            "c AS (INSERT INTO {s}club_commands (battle, seat, cmd_id, entries) \
               SELECT * FROM unnest({}, {}, {}, {}))",
            arg(&a.c_battle, "bigint[]"),
            arg(&a.c_seat, "bigint[]"),
            arg(&a.c_id, "text[]"),
            arg(&a.c_entries, "text[]"),
        ));
    }
    if !a.revealed.is_empty() {
        ctes.push(format!(
            "r AS (UPDATE {s}fair_seeds SET revealed = 1 \
               WHERE battle = ANY({}) AND secret IS NOT NULL)",
            arg(&a.revealed, "bigint[]"),
        ));
    }
    let notified = if a.notices.is_empty() {
        "0::bigint".to_owned()
    } else {
        format!(
            "(SELECT COUNT(pg_notify({}, n)) FROM unnest({}) AS n)",
            arg(&p.channel, "text"),
            arg(&a.notices, "text[]"),
        )
    };
    let text = if ctes.is_empty() {
        format!("SELECT {notified}")
    } else {
        format!("WITH {} SELECT {notified}", ctes.join(", "))
    };
    (text, params)
}

/// The blocks `seals` a group's parts filled, sealed in the open
/// transaction (`blocks::seal_if_full`; once per 1,024 entries of a
/// battle).
fn seal(
    db: &Postgres,
    g: &Group<'_>,
    qualify: bool,
    seals: &[(BattleId, u64)],
) -> Result<(), SaveError> {
    if seals.is_empty() {
        return Ok(());
    }
    if qualify {
        db.execute_batch(&format!("SET LOCAL search_path TO {}", g.schema))?;
    }
    for &(battle, last) in seals {
        seal_if_full(db, battle, last)?;
    }
    Ok(())
}

/// A cell of the read that is not what the query makes: damage, in words.
fn cell(e: postgres::Error) -> SaveError {
    SaveError::Sql(format!("reading the battles of a batch failed: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the driver reads of a connection string: (options, name,
    /// hosts, ports, dbname, user).
    type Read = (
        Option<String>,
        Option<String>,
        usize,
        Vec<u16>,
        Option<String>,
        Option<String>,
    );

    fn read(url: &str) -> Read {
        let c: tokio_postgres::Config = url.parse().expect("the driver reads it");
        (
            c.get_options().map(str::to_owned),
            c.get_application_name().map(str::to_owned),
            c.get_hosts().len(),
            c.get_ports().to_vec(),
            c.get_dbname().map(str::to_owned),
            c.get_user().map(str::to_owned),
        )
    }

    /// Session 22: the url's own `options` is kept, the settings after it,
    /// in either form; the other words and parameters as they were.
    /// Session 23: read back by the driver's own parser (the string is the
    /// url as given, the name and the whole `options` after it).
    #[test]
    fn a_urls_own_options_are_kept_before_the_sessions_settings_in_either_form() {
        let s = &[("lock_timeout", "2s")];
        let given = r"host=h options = '-c search_path=a\'b -c x=\\y' port=1 dbname='d b'";
        assert_eq!(
            read(&with_session(given, "n", s)),
            (
                Some(r"-c search_path=a'b -c x=\y -c lock_timeout=2s".into()),
                Some("n".into()),
                1,
                vec![1],
                Some("d b".into()),
                None
            )
        );
        assert_eq!(
            read(&with_session("host=h options=-cwork_mem=7MB", "o'n", s)).0,
            Some("-cwork_mem=7MB -c lock_timeout=2s".into())
        );
        assert_eq!(
            read(&with_session("host=h options=-cwork_mem=7MB", "o'n", s)).1,
            Some("o'n".into())
        );
        assert_eq!(
            with_session("host=h", "n", &[]),
            "host=h application_name='n'"
        );
        assert_eq!(
            read(&with_session(
                "postgres://u@h:1/d?options=-c%20work_mem%3D7MB&sslmode=disable",
                "a b",
                s
            )),
            (
                Some("-c work_mem=7MB -c lock_timeout=2s".into()),
                Some("a b".into()),
                1,
                vec![1],
                Some("d".into()),
                Some("u".into())
            )
        );
        assert_eq!(
            read(&with_session("postgres://u@h/d?options=-c%20x%3D1", "n", s)).0,
            Some("-c x=1 -c lock_timeout=2s".into())
        );
        assert_eq!(
            with_session("postgres://u@h/d", "n", s),
            "postgres://u@h/d?application_name=n&options=-c%20lock_timeout%3D2s"
        );
    }
}
