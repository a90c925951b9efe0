//! One writer thread per open campaign file (DESIGN.md section 7): it owns
//! the `saves::Campaign` (and so its writer lock) and drains a queue. Every
//! append waiting in the queue when the thread comes round is written in one
//! `IMMEDIATE` transaction ([`Campaign::append_batch`]): one fsync for many
//! battles' commands (group commit). Other work on the file (loading a
//! battle, starting one, saving a position, a campaign edit) runs in queue
//! order: the appends queued before a job are written before it runs, so
//! a job always sees what every request before it did.
//!
//! On PostgreSQL the appends do not go to the campaign's own connection:
//! every campaign writer of the process hands its drained appends to one
//! [`Committer`] thread with a connection of its own, which writes what
//! every campaign has queued in **one** transaction (one commit, one WAL
//! flush; `saves::Committer`, a few statements a campaign) and answers
//! each writer. While a commit is in flight the writers' next appends
//! gather (group commit across campaigns). A writer waits for its answer
//! before its next job, so its other jobs still run behind its appends.
//! Since session 23 a command's append does not pass through its writer's
//! thread at all: whoever decided it hands it to the committer
//! ([`Committer::append`]), which gathers one commit's parts by campaign,
//! and the writer's jobs wait for the campaign's appends handed over before
//! them ([`Pending`]).
//!
//! A job that panics does not stop the campaign: each job runs under
//! `catch_unwind`, is answered with the panic's words, and the campaign file
//! is opened again (its transaction, if one was open, rolled back by SQLite)
//! before the next job. Should that reopening fail, the thread ends and
//! [`Writer::is_dead`] says so: the club replaces a dead writer on its next use.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;

use tokio::sync::oneshot;

use xenolog_saves::{AppendNotify, Campaign, Decided, Group, SaveError};

/// Opens the writer's campaign again (after a job panicked, or its
/// database connection was lost): the campaign file, or its PostgreSQL
/// schema.
pub type Reopen = Box<dyn Fn() -> Result<Campaign, SaveError> + Send>;

/// Where a writer on PostgreSQL sends each part's `pg_notify` (issue 31):
/// the channel, and the payload's prefix (`C:`, the club's campaign).
#[derive(Clone, Debug)]
pub struct Notify {
    pub channel: String,
    pub prefix: String,
}

/// At most this many appends share one transaction.
pub const MAX_BATCH: usize = 256;

/// How an append is answered: durable (`Ok`), or why not. A oneshot, so
/// that whoever waits for it may be a task awaiting it without holding a
/// thread ([`Writer::append_async`]) or a thread blocking on it.
type Reply = oneshot::Sender<Result<(), Unwritten>>;

/// Why an append was not written (nothing of it was).
#[derive(Debug)]
pub enum Unwritten {
    /// The campaign file's battle is not the one the command was decided
    /// on (the saves' `Stale`, the file's words after it).
    Stale(String),
    /// The seat's command id is recorded already, for another command:
    /// the file's key of the command ids refused it.
    ReusedId,
    /// The database could not be reached (PostgreSQL restarted, the
    /// connection lost): nothing of it was written, unless the commit's
    /// answer was what was lost (a resend with its command id settles it).
    Unavailable,
    /// PostgreSQL: the battle was held by another connection for longer
    /// than the committer waits for a lock (the saves' `Busy`; the words
    /// go to the server's log): nothing of it was written.
    Busy(String),
    /// Anything else, in words.
    Failed(String),
}

impl Unwritten {
    /// A part of a batch the file refused.
    fn of(e: SaveError) -> Unwritten {
        match e {
            SaveError::Stale { why, .. } => Unwritten::Stale(why),
            SaveError::Unreachable(_) => Unwritten::Unavailable,
            SaveError::Busy(why) => Unwritten::Busy(why),
            // The one insert into `club_commands` in a write is the
            // command's id; its key is (battle, seat, cmd_id). The saves
            // tell it by the constraint's code, on either backend.
            SaveError::CommandIdUsed { .. } => Unwritten::ReusedId,
            e => Unwritten::Failed(e.to_string()),
        }
    }
}

/// The answer of a commit for each of a writer's appends, in order.
type Answers = Vec<Result<(), Unwritten>>;

/// How a [`Share`] is answered: its campaign writer's thread, waiting for
/// the whole batch; or (PostgreSQL, a command's append handed straight to
/// the committer, [`Committer::append`]) the one part's awaiting task, its
/// campaign's count of such appends lowered once the share is let go.
enum Answer {
    Writer(mpsc::SyncSender<Answers>),
    Part(Reply, InFlight),
}

impl Answer {
    fn send(self, answers: Answers) {
        match self {
            Answer::Writer(to) => {
                let _ = to.send(answers);
            }
            Answer::Part(to, _counted) => {
                // A share of one part; an answer of another length is
                // nobody's (answered as lost, nothing known written).
                let one = match <[_; 1]>::try_from(answers) {
                    Ok([a]) => a,
                    Err(_) => Err(Unwritten::Unavailable),
                };
                let _ = to.send(one);
            }
        }
    }
}

/// A campaign's appends handed straight to the committer and not yet let
/// go by it (PostgreSQL). Its writer's other jobs (a battle loaded, a
/// position saved, a campaign edit) wait until none is left, as they wait
/// for the appends queued before them on SQLite: a job sees what every
/// command before it did. One a campaign, kept by the committer, so that a
/// writer started again counts the appends of the one before it.
#[derive(Default)]
pub struct Pending {
    count: std::sync::Mutex<usize>,
    settled: std::sync::Condvar,
    /// Tests: how many jobs have begun waiting.
    #[cfg(test)]
    waits: AtomicU64,
}

impl Pending {
    /// Wait until no append of the campaign is with the committer, `most`
    /// at most (a committer that late has answered them `Unavailable`);
    /// whether none is.
    fn wait_settled(&self, most: std::time::Duration) -> bool {
        let n = self.count.lock().unwrap_or_else(|p| p.into_inner());
        #[cfg(test)]
        self.waits.fetch_add(1, Ordering::Relaxed);
        let (n, _) = self
            .settled
            .wait_timeout_while(n, most, |n| *n > 0)
            .unwrap_or_else(|p| p.into_inner());
        *n == 0
    }
}

/// One append counted in its campaign's [`Pending`] until dropped.
struct InFlight(Arc<Pending>);

impl InFlight {
    fn new(p: &Arc<Pending>) -> InFlight {
        *p.count.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        InFlight(p.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut n = self.0.count.lock().unwrap_or_else(|p| p.into_inner());
        *n -= 1;
        if *n == 0 {
            self.0.settled.notify_all();
        }
    }
}

/// The answer of an append, awaited by a task or a thread: durable
/// (`Ok(Ok(()))`), refused (`Ok(Err(_))`), or its writer gone (`Err`).
pub type Settled = Result<Result<(), Unwritten>, oneshot::error::RecvError>;

/// An append queued: its answer to come. One handed straight to the
/// committer carries the committer's wait ([`COMMIT_WAIT`]): once it has
/// run out, the append is answered `Unavailable` and the committer's
/// thread replaced, as a writer does when its own wait runs out.
pub struct Written {
    answer: oneshot::Receiver<Result<(), Unwritten>>,
    wait: Option<(Arc<Committer>, u64, std::time::Instant)>,
}

impl Written {
    fn of(answer: oneshot::Receiver<Result<(), Unwritten>>) -> Written {
        Written { answer, wait: None }
    }

    /// Awaited by a task (on the runtime: its timer).
    pub async fn settled(self) -> Settled {
        let Some((c, generation, deadline)) = self.wait else {
            return self.answer.await;
        };
        match tokio::time::timeout_at(deadline.into(), self.answer).await {
            Ok(r) => r,
            Err(_) => Ok(Err(c.late(generation))),
        }
    }

    /// Waited for on this thread (off the runtime's workers).
    pub fn settled_blocking(self) -> Settled {
        let Some((c, generation, deadline)) = self.wait else {
            return self.answer.blocking_recv();
        };
        match block_until(self.answer, deadline) {
            Some(r) => r,
            None => Ok(Err(c.late(generation))),
        }
    }
}

/// Poll `f` on this thread until it is ready or `deadline` passes
/// (`None`): a oneshot's answer waited for with a bound, without a runtime.
fn block_until<F: std::future::Future + Unpin>(
    mut f: F,
    deadline: std::time::Instant,
) -> Option<F::Output> {
    struct Unpark(std::thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = std::task::Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = std::task::Context::from_waker(&waker);
    loop {
        if let std::task::Poll::Ready(v) = std::pin::Pin::new(&mut f).poll(&mut cx) {
            return Some(v);
        }
        let now = std::time::Instant::now();
        if now >= deadline {
            return None;
        }
        std::thread::park_timeout(deadline - now);
    }
}

/// One campaign writer's drained appends (or one command's append handed
/// straight over), for the [`Committer`].
struct Share {
    schema: String,
    batch: Vec<Decided>,
    notify: Option<Notify>,
    reply: Answer,
    /// When its writer stops waiting for the answer and tells its client
    /// nothing was written: a thread that takes it later (one that was
    /// late, review10 S1) answers it without writing it.
    deadline: std::time::Instant,
}

impl Share {
    /// Its writer has stopped waiting (its wait ran out): answered
    /// `Unavailable` to nobody and not written, so that "nothing was
    /// changed" stays true (review10 S1); `None`. Otherwise the share.
    fn unless_given_up(self) -> Option<Share> {
        if std::time::Instant::now() < self.deadline {
            return Some(self);
        }
        self.unavailable();
        None
    }

    /// Not written: each part answered `Unavailable`.
    fn unavailable(self) {
        let answers = self
            .batch
            .iter()
            .map(|_| Err(Unwritten::Unavailable))
            .collect();
        self.reply.send(answers);
    }
}

/// The process's one committer on PostgreSQL (module docs): a thread with
/// a connection of its own that writes the appends of every campaign in
/// one transaction. A thread that has died (a panic outside the commit's
/// `catch_unwind`), or that has not answered within [`COMMIT_WAIT`], is
/// replaced by a new one at the next commit (review5 S1): the club keeps
/// one `Arc<Committer>` for good.
pub struct Committer {
    url: String,
    stats: Arc<Stats>,
    thread: std::sync::Mutex<Thread>,
    /// Threads started after the first.
    restarts: AtomicU64,
    /// How long a writer waits for its answer: [`COMMIT_WAIT`] (tests
    /// shorten it).
    wait: std::time::Duration,
    /// Each campaign's appends handed straight over and not yet let go
    /// (by schema).
    pending: std::sync::Mutex<std::collections::HashMap<String, Arc<Pending>>>,
    /// Shares handed to a thread so far (tests: what is queued).
    #[cfg(test)]
    sent: AtomicU64,
}

/// The committer's current thread.
struct Thread {
    shares: mpsc::Sender<Share>,
    handle: Option<JoinHandle<()>>,
    /// Which thread this is (0 the first).
    generation: u64,
    /// It died or did not answer in time: replaced at the next commit.
    replace: bool,
}

/// How long a campaign writer waits for the committer's answer before it
/// answers its appends `Unavailable` (nothing written, unless the commit's
/// answer is what was late: a resend with its command id settles it) and
/// the committer's thread is replaced. Far beyond any commit's own
/// bounds: each lock is waited for [`xenolog_saves::LOCK_WAIT`], each
/// statement at most a minute; what is left is a connection whose server
/// went silent (a network cut), which only TCP would notice, in hours.
pub const COMMIT_WAIT: std::time::Duration = std::time::Duration::from_secs(120);

impl Committer {
    /// Start the committer of the database at `url` (it connects on its
    /// first commit, and again after its connection is lost).
    pub fn start(url: String) -> std::io::Result<Committer> {
        let stats = Arc::new(Stats::default());
        let thread = Self::spawn(&url, &stats, 0)?;
        Ok(Committer {
            url,
            stats,
            thread: std::sync::Mutex::new(thread),
            restarts: AtomicU64::new(0),
            wait: COMMIT_WAIT,
            pending: std::sync::Mutex::default(),
            #[cfg(test)]
            sent: AtomicU64::new(0),
        })
    }

    /// The count of campaign `schema`'s appends handed straight over.
    pub fn pending_of(&self, schema: &str) -> Arc<Pending> {
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(schema.to_owned())
            .or_default()
            .clone()
    }

    fn spawn(url: &str, stats: &Arc<Stats>, generation: u64) -> std::io::Result<Thread> {
        let (tx, rx) = mpsc::channel();
        let (url, counted) = (url.to_owned(), stats.clone());
        let handle = std::thread::Builder::new()
            .name("committer".into())
            .spawn(move || commit_loop(&url, &rx, &counted))?;
        Ok(Thread {
            shares: tx,
            handle: Some(handle),
            generation,
            replace: false,
        })
    }

    /// (transactions, appends) committed so far, every campaign together.
    pub fn stats(&self) -> (u64, u64) {
        (
            self.stats.transactions.load(Ordering::Relaxed),
            self.stats.appends.load(Ordering::Relaxed),
        )
    }

    /// Committer threads started after the first (one died, or was late).
    #[cfg(test)]
    pub fn restarts(&self) -> u64 {
        self.restarts.load(Ordering::Relaxed)
    }

    /// The current thread's queue and generation; a thread that died or
    /// was late replaced first (`None`: no thread could be started).
    fn queue(&self) -> Option<(mpsc::Sender<Share>, u64)> {
        let mut t = self.thread.lock().unwrap_or_else(|p| p.into_inner());
        if t.replace || t.handle.as_ref().is_some_and(JoinHandle::is_finished) {
            eprintln!("serve: the committer's thread had stopped or was late; starting a new one");
            match Self::spawn(&self.url, &self.stats, t.generation + 1) {
                // The old thread is let go, not waited for: a late one may
                // be stuck on its connection; it ends once its queue is
                // dropped and its commit returns.
                Ok(new) => {
                    *t = new;
                    self.restarts.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => {
                    eprintln!("serve: a new committer thread cannot start: {e}");
                    return None;
                }
            }
        }
        Some((t.shares.clone(), t.generation))
    }

    /// The thread of `generation` is to be replaced at the next commit.
    fn condemn(&self, generation: u64) {
        let mut t = self.thread.lock().unwrap_or_else(|p| p.into_inner());
        if t.generation == generation {
            t.replace = true;
        }
    }

    /// Hand `share` to the current thread: its generation; `None` when no
    /// thread could take it (each part then answered `Unavailable`). A
    /// queue found closed (its thread died): once more, on a new one.
    fn send(&self, mut share: Share) -> Option<u64> {
        for _ in 0..2 {
            let Some((queue, generation)) = self.queue() else {
                break;
            };
            match queue.send(share) {
                Ok(()) => {
                    #[cfg(test)]
                    self.sent.fetch_add(1, Ordering::Relaxed);
                    return Some(generation);
                }
                Err(mpsc::SendError(back)) => {
                    share = back;
                    self.condemn(generation);
                }
            }
        }
        share.unavailable();
        None
    }

    /// The wait for the thread of `generation` ran out: it is replaced at
    /// the next commit, and what waited is answered `Unavailable`.
    fn late(&self, generation: u64) -> Unwritten {
        eprintln!(
            "serve: the committer has not answered in {} s; a new one takes the next commit",
            self.wait.as_secs()
        );
        self.condemn(generation);
        Unwritten::Unavailable
    }

    /// One command's append of campaign `schema`, handed to the committer
    /// straight from whoever decided it (a task or a blocking-pool
    /// thread): no campaign writer's thread in between (issue 31, session
    /// 23). Counted in `pending` until the committer lets it go, so that
    /// the campaign writer's later jobs run behind it. Its answer is
    /// awaited [`COMMIT_WAIT`] at most, as a writer's is.
    pub fn append(
        self: &Arc<Self>,
        schema: &str,
        d: Decided,
        notify: Option<&Notify>,
        pending: &Arc<Pending>,
    ) -> Written {
        self.part(schema, vec![d], notify, pending)
    }

    /// [`Committer::append`] of a share of `batch` (one part; tests: none).
    fn part(
        self: &Arc<Self>,
        schema: &str,
        batch: Vec<Decided>,
        notify: Option<&Notify>,
        pending: &Arc<Pending>,
    ) -> Written {
        let (reply, answer) = oneshot::channel();
        let deadline = std::time::Instant::now() + self.wait;
        let share = Share {
            schema: schema.to_owned(),
            batch,
            notify: notify.cloned(),
            reply: Answer::Part(reply, InFlight::new(pending)),
            deadline,
        };
        match self.send(share) {
            Some(generation) => Written {
                answer,
                wait: Some((self.clone(), generation, deadline)),
            },
            // Answered `Unavailable` already.
            None => Written::of(answer),
        }
    }

    /// Write `batch` of campaign `schema` with the next commit and wait
    /// for each part's answer, [`COMMIT_WAIT`] at most. A committer that
    /// stopped or is late answers every part `Unavailable`, and the next
    /// commit goes to a new thread; the late one, should it come back,
    /// does not write a share once its wait has run out.
    fn commit(&self, schema: &str, batch: Vec<Decided>, notify: Option<&Notify>) -> Answers {
        let n = batch.len();
        let unavailable = || (0..n).map(|_| Err(Unwritten::Unavailable)).collect();
        let (reply, answer) = mpsc::sync_channel(1);
        // Before the wait starts, so that the thread sees it passed by the
        // time the wait has run out.
        let deadline = std::time::Instant::now() + self.wait;
        let share = Share {
            schema: schema.to_owned(),
            batch,
            notify: notify.cloned(),
            reply: Answer::Writer(reply),
            deadline,
        };
        let Some(generation) = self.send(share) else {
            return unavailable();
        };
        match answer.recv_timeout(self.wait) {
            Ok(answers) if answers.len() == n => answers,
            Ok(_) => unavailable(),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                self.late(generation);
                unavailable()
            }
            // The thread died with this share: nothing of it was written
            // unless the commit itself was what it died after.
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                self.condemn(generation);
                unavailable()
            }
        }
    }
}

impl Drop for Committer {
    fn drop(&mut self) {
        let t = self.thread.get_mut().unwrap_or_else(|p| p.into_inner());
        let (closed, _) = mpsc::channel();
        drop(std::mem::replace(&mut t.shares, closed));
        if let Some(h) = t.handle.take() {
            // A thread that was late may be stuck: let go, not waited for.
            if !t.replace {
                let _ = h.join();
            }
        }
    }
}

/// The committer's thread: take every share queued, commit them in one
/// transaction, answer each; again.
fn commit_loop(url: &str, shares: &mpsc::Receiver<Share>, stats: &Stats) {
    let mut conn: Option<xenolog_saves::Committer> = None;
    while let Ok(first) = shares.recv() {
        // Tests: a committer thread that dies (a panic outside the
        // commit's `catch_unwind`), and one that answers without a
        // database.
        #[cfg(test)]
        if first.schema == TEST_PANIC {
            panic!("a test's committer thread dies");
        }
        // Tests: a gate that holds the thread until the test opens it, so
        // that shares queue behind it; then the next share is taken as
        // the first.
        #[cfg(test)]
        let first = if first.schema == TEST_GATE {
            let gate = GATE.lock().unwrap_or_else(|p| p.into_inner()).take();
            if let Some(gate) = gate {
                let _ = gate.recv();
            }
            first.reply.send(Vec::new());
            match shares.recv() {
                Ok(s) => s,
                Err(_) => break,
            }
        } else {
            first
        };
        // A share taken after its writer gave up on it (this thread was
        // late) is not written (review10 S1).
        let Some(first) = first.unless_given_up() else {
            continue;
        };
        #[cfg(test)]
        if first.schema == TEST_ECHO {
            stats.transactions.fetch_add(1, Ordering::Relaxed);
            let answers = first.batch.iter().map(|_| Ok(())).collect();
            first.reply.send(answers);
            continue;
        }
        let mut taken = vec![first];
        let mut parts = taken[0].batch.len();
        while parts < MAX_COMMIT {
            match shares.try_recv() {
                Ok(s) => {
                    parts += s.batch.len();
                    taken.push(s);
                }
                Err(_) => break,
            }
        }
        if conn.is_none() {
            match xenolog_saves::Committer::connect(url) {
                Ok(c) => conn = Some(c),
                Err(e) => {
                    eprintln!(
                        "serve: the committer cannot reach the database ({e}); the next commit tries again"
                    );
                    taken.into_iter().for_each(Share::unavailable);
                    continue;
                }
            }
        }
        let Some(c) = conn.as_ref() else { continue };
        // Again just before the write: connecting may have been slow.
        let taken: Vec<Share> = taken
            .into_iter()
            .filter_map(Share::unless_given_up)
            .collect();
        if taken.is_empty() {
            continue;
        }
        let parts: usize = taken.iter().map(|s| s.batch.len()).sum();
        // One group a campaign: its writer's share and the parts its tasks
        // handed straight over are written as one (one write statement a
        // campaign, not one a command).
        let (groups_of, shares) = by_campaign(taken);
        let notifies: Vec<Option<AppendNotify<'_>>> = groups_of
            .iter()
            .map(|g| {
                g.notify.as_ref().map(|n| AppendNotify {
                    channel: &n.channel,
                    prefix: &n.prefix,
                })
            })
            .collect();
        let groups: Vec<Group<'_>> = groups_of
            .iter()
            .zip(&notifies)
            .map(|(g, n)| Group {
                schema: &g.schema,
                batch: &g.batch,
                notify: *n,
            })
            .collect();
        stats.transactions.fetch_add(1, Ordering::Relaxed);
        stats.appends.fetch_add(parts as u64, Ordering::Relaxed);
        let done = catch_unwind(AssertUnwindSafe(|| c.commit(&groups)));
        drop(groups);
        let answers: Vec<Answers> = match done {
            Ok(Ok(results)) => results
                .into_iter()
                .map(|r| r.into_iter().map(|r| r.map_err(Unwritten::of)).collect())
                .collect(),
            Ok(Err(e)) => {
                if matches!(e, SaveError::Unreachable(_)) {
                    eprintln!(
                        "serve: the database is not reachable ({e}); the committer connects again"
                    );
                }
                groups_of
                    .iter()
                    .map(|g| g.batch.iter().map(|_| Err(refused_whole(&e))).collect())
                    .collect()
            }
            Err(p) => {
                // Its connection may be mid-transaction: a new one next time.
                let words = panic_words(&*p);
                conn = None;
                groups_of
                    .iter()
                    .map(|g| {
                        g.batch
                            .iter()
                            .map(|_| Err(Unwritten::Failed(words.clone())))
                            .collect()
                    })
                    .collect()
            }
        };
        answer_shares(shares, answers);
    }
    if let Some(c) = conn {
        let _ = c.close();
    }
}

/// A campaign's parts of one commit: every share of it, in the order taken.
struct CampaignGroup {
    schema: String,
    batch: Vec<Decided>,
    notify: Option<Notify>,
}

/// The shares taken for a commit gathered by campaign (first seen first),
/// each share's parts moved into its campaign's group; beside them, each
/// share's answer with its group and how many parts it had.
fn by_campaign(taken: Vec<Share>) -> (Vec<CampaignGroup>, Vec<(Answer, usize, usize)>) {
    let mut groups: Vec<CampaignGroup> = Vec::new();
    let mut shares = Vec::with_capacity(taken.len());
    for s in taken {
        let n = s.batch.len();
        let at = match groups.iter().position(|g| g.schema == s.schema) {
            Some(at) => {
                groups[at].batch.extend(s.batch);
                at
            }
            None => {
                groups.push(CampaignGroup {
                    schema: s.schema,
                    batch: s.batch,
                    notify: s.notify,
                });
                groups.len() - 1
            }
        };
        shares.push((s.reply, at, n));
    }
    (groups, shares)
}

/// Answer each share its parts' answers, taken in order from its
/// campaign's group's (a group answered short: the rest `Unavailable`).
fn answer_shares(shares: Vec<(Answer, usize, usize)>, answers: Vec<Answers>) {
    let mut answers: Vec<std::vec::IntoIter<Result<(), Unwritten>>> =
        answers.into_iter().map(Vec::into_iter).collect();
    for (reply, at, n) in shares {
        let mine = (0..n)
            .map(|_| {
                answers
                    .get_mut(at)
                    .and_then(Iterator::next)
                    .unwrap_or(Err(Unwritten::Unavailable))
            })
            .collect();
        reply.send(mine);
    }
}

/// Why each part of a commit refused whole (nothing of it written) was
/// not written: the connection lost, `Unavailable`; a lock not granted
/// (say at `COMMIT`, which takes the database's notify lock: review10 NIT
/// 5), `Busy`, retryable too; anything else in words.
fn refused_whole(e: &SaveError) -> Unwritten {
    match e {
        SaveError::Unreachable(_) => Unwritten::Unavailable,
        SaveError::Busy(why) => Unwritten::Busy(why.clone()),
        e => Unwritten::Failed(format!("the database refused the write: {e}")),
    }
}

#[cfg(test)]
const TEST_PANIC: &str = "\u{0}panic";
#[cfg(test)]
const TEST_ECHO: &str = "\u{0}echo";
#[cfg(test)]
const TEST_GATE: &str = "\u{0}gate";
#[cfg(test)]
static GATE: std::sync::Mutex<Option<mpsc::Receiver<()>>> = std::sync::Mutex::new(None);

/// At most about this many appends (every campaign's) share one commit.
pub const MAX_COMMIT: usize = 1024;

/// Where a writer's appends go: its own campaign (SQLite), or the
/// process's committer with the campaign's schema (PostgreSQL).
#[derive(Clone)]
pub struct Appends {
    pub committer: Arc<Committer>,
    pub schema: String,
}

/// Work for a writer thread.
enum Job {
    Append(Decided, Reply),
    Run(Box<dyn FnOnce(&mut Campaign) + Send>),
}

/// A campaign's writer thread and its queue.
pub struct Writer {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    stats: Arc<Stats>,
    /// PostgreSQL: where a command's append goes straight ([`Direct`]).
    direct: Option<Direct>,
}

/// PostgreSQL: a command's append goes from whoever decided it straight to
/// the process's committer, not through the campaign writer's thread (one
/// thread switch and its wake-up less a command: issue 31, session 23).
/// What the writer's thread kept is kept: the head is checked inside the
/// commit's transaction, the command is answered once it is committed,
/// and one battle's appends follow each other as its slot is held until
/// each is answered; the writer's other jobs wait for the campaign's
/// appends handed over before them ([`Pending`]).
struct Direct {
    to: Appends,
    notify: Option<Notify>,
    pending: Arc<Pending>,
}

/// What a writer has written: transactions and the appends in them.
#[derive(Default, Debug)]
pub struct Stats {
    pub transactions: AtomicU64,
    pub appends: AtomicU64,
    /// Jobs that panicked (each answered in words; the file reopened).
    pub panics: AtomicU64,
    /// The thread has ended (the queue closed, or the file could not be
    /// opened again after a panic).
    pub dead: AtomicBool,
}

/// The writer could not do the job: its thread has stopped (the server is
/// stopping, or the file could not be opened again), or the job panicked
/// (the words say where).
#[derive(Debug)]
pub struct Gone(pub Option<String>);

/// The words of a caught panic.
fn panic_words(p: &(dyn std::any::Any + Send)) -> String {
    let what = p
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned());
    // The panic's own words stay in the server's log: writer jobs run game
    // code on the whole state, so they could name a hidden card (principle
    // 14); the seat is told only what happened.
    eprintln!("serve: a campaign writer's job panicked: {what}");
    "the campaign's writer failed on this request; nothing of it was written, and the campaign goes on"
        .to_owned()
}

impl Writer {
    /// Start the writer of `campaign` (opened by the caller, so that an error
    /// opening it is the caller's to report).
    /// `reopen` opens it again after a failure; `notify`, on PostgreSQL,
    /// is what each written part sends.
    /// `appends`, on PostgreSQL: the process's committer, which writes
    /// them (module docs).
    pub fn start(
        campaign: Campaign,
        name: String,
        reopen: Reopen,
        notify: Option<Notify>,
        appends: Option<Appends>,
    ) -> std::io::Result<Writer> {
        let (tx, rx) = mpsc::channel();
        let stats = Arc::new(Stats::default());
        let counted = stats.clone();
        let direct = appends.as_ref().map(|to| Direct {
            to: to.clone(),
            notify: notify.clone(),
            pending: to.committer.pending_of(&to.schema),
        });
        let settled = direct
            .as_ref()
            .map(|d| (d.pending.clone(), d.to.committer.wait));
        let thread = std::thread::Builder::new().name(name).spawn(move || {
            let out = Out {
                notify: notify.as_ref(),
                appends: appends.as_ref(),
                settled: settled.as_ref(),
            };
            run(campaign, rx, &counted, &reopen, out);
            counted.dead.store(true, Ordering::Relaxed);
        })?;
        Ok(Writer {
            jobs: Some(tx),
            thread: Some(thread),
            stats,
            direct,
        })
    }

    /// (transactions, appends) written so far.
    pub fn stats(&self) -> (u64, u64) {
        (
            self.stats.transactions.load(Ordering::Relaxed),
            self.stats.appends.load(Ordering::Relaxed),
        )
    }

    /// Jobs that panicked so far.
    #[cfg(test)]
    pub fn panics(&self) -> u64 {
        self.stats.panics.load(Ordering::Relaxed)
    }

    /// Whether the thread has ended: a writer to replace.
    pub fn is_dead(&self) -> bool {
        self.stats.dead.load(Ordering::Relaxed)
    }

    /// Queue `d` for the next batch; the receiver is answered once it is
    /// durable (or refused: the words say why). A task awaits it without
    /// holding a thread: a command waiting for its fsync is a
    /// suspended task, not a blocking-pool thread (BENCHMARKS.md, the club
    /// server, session 16). A receiver whose sender is dropped unanswered
    /// means the writer stopped ([`Gone`]).
    ///
    /// On PostgreSQL the append goes straight to the committer ([`Direct`]).
    pub fn append_async(&self, d: Decided) -> Result<Written, Gone> {
        if let Some(to) = &self.direct {
            return Ok(to
                .to
                .committer
                .append(&to.to.schema, d, to.notify.as_ref(), &to.pending));
        }
        let (tx, rx) = oneshot::channel();
        self.jobs
            .as_ref()
            .ok_or(Gone(None))?
            .send(Job::Append(d, tx))
            .map_err(|_| Gone(None))?;
        Ok(Written::of(rx))
    }

    /// Run `f` on the campaign, in queue order, and wait for its result.
    pub fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Campaign) -> T + Send + 'static,
    ) -> Result<T, Gone> {
        let (tx, rx) = mpsc::sync_channel(1);
        let job = Job::Run(Box::new(move |c| {
            let r = catch_unwind(AssertUnwindSafe(|| f(c)));
            let failed = r.is_err();
            let _ = tx.send(r.map_err(|p| panic_words(&*p)));
            if failed {
                // Let the thread know: it reopens the file.
                std::panic::resume_unwind(Box::new("a job panicked"));
            }
        }));
        self.jobs
            .as_ref()
            .ok_or(Gone(None))?
            .send(job)
            .map_err(|_| Gone(None))?;
        rx.recv()
            .map_err(|_| Gone(None))?
            .map_err(|words| Gone(Some(words)))
    }
}

impl Drop for Writer {
    /// Close the queue, let the thread finish what is queued, and wait for
    /// it: the campaign is then closed (checkpointed, its lock released).
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Where a writer's appends go, and what each part notifies; on
/// PostgreSQL, the campaign's appends handed straight to the committer,
/// waited for before each job (the committer's wait at most).
#[derive(Clone, Copy)]
struct Out<'a> {
    notify: Option<&'a Notify>,
    appends: Option<&'a Appends>,
    settled: Option<&'a (Arc<Pending>, std::time::Duration)>,
}

fn run(
    mut campaign: Campaign,
    jobs: mpsc::Receiver<Job>,
    stats: &Stats,
    reopen: &Reopen,
    notify: Out<'_>,
) {
    let path = campaign.path().to_owned();
    let mut appends: Vec<(Decided, Reply)> = Vec::new();
    // A job whose appends before it failed the write: it runs on the file
    // opened again.
    let mut carried: Option<Job> = None;
    loop {
        let first = match carried.take() {
            Some(job) => job,
            None => match jobs.recv() {
                Ok(job) => job,
                Err(_) => return,
            },
        };
        let mut next = Some(first);
        let mut panicked = false;
        while let Some(job) = next.take() {
            match job {
                Job::Append(d, reply) => appends.push((d, reply)),
                Job::Run(f) => {
                    // The appends queued before this job are written first:
                    // it sees the file as every request before it left it
                    // (a load, a command id looked up, a position saved).
                    if write(&mut campaign, &mut appends, stats, notify) {
                        panicked = true;
                        carried = Some(Job::Run(f));
                        break;
                    }
                    // And those handed straight to the committer before it.
                    if let Some((pending, most)) = notify.settled {
                        pending.wait_settled(*most);
                    }
                    // Answered by the job itself (in words) when it panics.
                    panicked |= catch_unwind(AssertUnwindSafe(|| f(&mut campaign))).is_err();
                }
            }
            if appends.len() < MAX_BATCH && !panicked {
                next = jobs.try_recv().ok();
            }
        }
        if !panicked {
            panicked = write(&mut campaign, &mut appends, stats, notify);
        } else {
            // Not written on a campaign a job left half-way: each is
            // answered, and its battle is loaded again from the file.
            for (_, reply) in appends.drain(..) {
                let _ = reply.send(Err(Unwritten::Failed(
                    "the campaign's writer failed on another request before this one was written; nothing of it was written: give it again".to_owned(),
                )));
            }
        }
        let lost = LOST.with(|l| l.replace(false));
        if panicked || lost {
            if panicked {
                stats.panics.fetch_add(1, Ordering::Relaxed);
            }
            // Close the campaign (its lock released, an open transaction
            // rolled back) and open it again for the next job. A
            // connection lost (PostgreSQL restarted) is let go the same
            // way; while the database is away the open fails and the
            // thread ends: the club starts a new writer on the next use.
            drop(campaign);
            match reopen() {
                Ok(c) => campaign = c,
                Err(e) => {
                    eprintln!(
                        "serve: the campaign file {} cannot be opened again after its writer failed: {e}",
                        path.display()
                    );
                    return;
                }
            }
        }
    }
}

thread_local! {
    /// Set by a write that found the database connection lost: the
    /// writer opens the campaign again before its next job.
    static LOST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Write the appends queued so far, if any, in one transaction (counted);
/// whether the write panicked.
fn write(
    campaign: &mut Campaign,
    appends: &mut Vec<(Decided, Reply)>,
    stats: &Stats,
    out: Out<'_>,
) -> bool {
    if appends.is_empty() {
        return false;
    }
    stats.transactions.fetch_add(1, Ordering::Relaxed);
    stats
        .appends
        .fetch_add(appends.len() as u64, Ordering::Relaxed);
    match out.appends {
        Some(to) => {
            // The process's committer writes them with every other
            // campaign's; this writer waits for the answer, so its next
            // job runs behind them.
            let (batch, replies): (Vec<Decided>, Vec<_>) = appends.drain(..).unzip();
            let answers = to.committer.commit(&to.schema, batch, out.notify);
            for (a, reply) in answers.into_iter().zip(replies) {
                let _ = reply.send(a);
            }
            false
        }
        None => flush(campaign, appends, out.notify),
    }
}

/// Write every queued append in one transaction and answer each; whether
/// the write panicked (each append is then answered in words).
fn flush(
    campaign: &mut Campaign,
    appends: &mut Vec<(Decided, Reply)>,
    notify: Option<&Notify>,
) -> bool {
    if appends.is_empty() {
        return false;
    }
    let (batch, replies): (Vec<Decided>, Vec<_>) = appends.drain(..).unzip();
    let notify = notify.map(|n| AppendNotify {
        channel: &n.channel,
        prefix: &n.prefix,
    });
    match catch_unwind(AssertUnwindSafe(|| {
        campaign.append_batch_notify(&batch, notify.as_ref())
    })) {
        Ok(Err(SaveError::Unreachable(why))) => {
            eprintln!(
                "serve: {}: the database is not reachable ({why}); the writer connects again",
                campaign.path().display()
            );
            LOST.with(|l| l.set(true));
            for reply in replies {
                let _ = reply.send(Err(Unwritten::Unavailable));
            }
            false
        }
        Ok(Ok(results)) => {
            if results
                .iter()
                .any(|r| matches!(r, Err(SaveError::Unreachable(_))))
            {
                LOST.with(|l| l.set(true));
            }
            for (r, reply) in results.into_iter().zip(replies) {
                let _ = reply.send(r.map_err(Unwritten::of));
            }
            false
        }
        Ok(Err(e)) => {
            let words = format!("the campaign file refused the write: {e}");
            for reply in replies {
                let _ = reply.send(Err(Unwritten::Failed(words.clone())));
            }
            false
        }
        Err(p) => {
            let words = panic_words(&*p);
            for reply in replies {
                let _ = reply.send(Err(Unwritten::Failed(words.clone())));
            }
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// review5 S1: a committer thread that died (a panic outside the
    /// commit's `catch_unwind`, say an `eprintln!` on a broken stderr) is
    /// replaced: the commit it died with is answered `Unavailable`, and the
    /// next commit is taken by a new thread (counted by its transaction),
    /// not answered `Unavailable` for good.
    #[test]
    fn s1_a_committer_thread_that_died_is_replaced_and_the_next_commit_is_taken() {
        // No database: the test commits answer without one.
        let c = Committer::start("host=/nonexistent".into()).unwrap();
        let before = c.commit(TEST_ECHO, Vec::new(), None);
        assert!(before.is_empty());
        assert_eq!(c.stats().0, 1, "the first thread took a commit");
        let died = c.commit(TEST_PANIC, Vec::new(), None);
        assert!(died.is_empty());
        for round in 0..3 {
            let _ = c.commit(TEST_ECHO, Vec::new(), None);
            assert_eq!(
                c.stats().0,
                2 + round,
                "round {round}: a live thread took the commit after the panic"
            );
        }
        assert_eq!(c.restarts(), 1, "one new thread, kept");
    }

    /// review10 NIT 5: a commit refused whole for a lock not granted is
    /// answered `Busy` (the client's `unavailable`, retryable), not
    /// `Failed` (its `internal`); a lost connection `Unavailable`.
    #[test]
    fn nit5_a_commit_refused_whole_for_a_lock_is_busy_and_a_lost_one_unavailable() {
        let busy = refused_whole(&SaveError::Busy("held".into()));
        assert!(
            matches!(&busy, Unwritten::Busy(w) if w == "held"),
            "{busy:?}"
        );
        let lost = refused_whole(&SaveError::Unreachable("gone".into()));
        assert!(matches!(lost, Unwritten::Unavailable), "{lost:?}");
        let other = refused_whole(&SaveError::Refused("no".into()));
        assert!(
            matches!(&other, Unwritten::Failed(w) if w.starts_with("the database refused the write: ")),
            "{other:?}"
        );
    }

    /// The tests that hold a committer at the one [`GATE`], one at a time.
    static GATE_TESTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// review10 S1: a committer thread that was late (held at the gate)
    /// and comes back does not write a share queued behind it whose writer
    /// has stopped waiting and answered `Unavailable` ("nothing was
    /// changed"). No database: the share is a test echo, counted as a
    /// transaction when it is taken. Nothing is timed: the writer's wait
    /// has run out before the gate opens, whatever the machine's pace.
    #[test]
    fn s1_a_late_committer_does_not_write_a_share_its_writer_gave_up_on() {
        let _one_gate = GATE_TESTS.lock().unwrap_or_else(|p| p.into_inner());
        let mut c = Committer::start("host=/nonexistent".into()).unwrap();
        c.wait = std::time::Duration::from_secs(1);
        let (open, gate) = mpsc::channel();
        *GATE.lock().unwrap() = Some(gate);
        // The thread is held at the gate by a share no writer gives up on.
        let (queue, _) = c.queue().unwrap();
        let (reply, _held) = mpsc::sync_channel(1);
        queue
            .send(Share {
                schema: TEST_GATE.into(),
                batch: Vec::new(),
                notify: None,
                reply: Answer::Writer(reply),
                deadline: std::time::Instant::now() + std::time::Duration::from_secs(3600),
            })
            .unwrap();
        drop(queue);
        let answers = c.commit(TEST_ECHO, Vec::new(), None);
        assert!(answers.is_empty());
        assert!(
            c.thread.lock().unwrap().replace,
            "the echo's wait ran out: its thread is to be replaced"
        );
        let late = c.thread.lock().unwrap().handle.take().unwrap();
        open.send(()).unwrap();
        // The next commit goes to a new thread (counted once); the old
        // one's queue is dropped, so it ends once it has taken what it
        // holds.
        let _ = c.commit(TEST_ECHO, Vec::new(), None);
        assert_eq!(c.restarts(), 1);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !late.is_finished() {
            assert!(
                std::time::Instant::now() < deadline,
                "the late thread has not ended in 60 s"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        late.join().unwrap();
        assert_eq!(
            c.stats().0,
            1,
            "only the new thread's commit was taken; the given-up share was not written"
        );
    }

    /// Wait (60 s at most: a condition, not a time) until `ok`.
    fn until(what: &str, mut ok: impl FnMut() -> bool) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !ok() {
            assert!(std::time::Instant::now() < deadline, "{what}: not in 60 s");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Hold `c`'s thread at the [`GATE`] (a share no one gives up on); the
    /// sender that opens it.
    fn held_at_the_gate(c: &Committer) -> mpsc::Sender<()> {
        let (open, gate) = mpsc::channel();
        *GATE.lock().unwrap() = Some(gate);
        let (reply, _) = mpsc::sync_channel(1);
        assert!(
            c.send(Share {
                schema: TEST_GATE.into(),
                batch: Vec::new(),
                notify: None,
                reply: Answer::Writer(reply),
                deadline: std::time::Instant::now() + std::time::Duration::from_secs(3600),
            })
            .is_some()
        );
        until("the thread is held at the gate", || {
            GATE.lock().unwrap_or_else(|p| p.into_inner()).is_none()
        });
        open
    }

    /// Session 23: on PostgreSQL a command's append goes straight to the
    /// committer, not through its campaign's writer thread; a job of that
    /// writer (a battle loaded, a position saved) queued after it still
    /// runs only once the committer has let it go, so it sees the command
    /// (DESIGN.md section 7: a job sees what every request before it did).
    /// The committer is held at a gate (nothing timed): the job is found
    /// waiting, and runs after the append is answered, with none pending.
    #[test]
    fn s23_a_writers_job_waits_for_the_appends_handed_straight_to_the_committer_before_it() {
        let _one_gate = GATE_TESTS.lock().unwrap_or_else(|p| p.into_inner());
        let c = Arc::new(Committer::start("host=/nonexistent".into()).unwrap());
        let open = held_at_the_gate(&c);
        let pending = c.pending_of(TEST_ECHO);
        let mut answer = c.part(TEST_ECHO, Vec::new(), None, &pending).answer;
        assert_eq!(*pending.count.lock().unwrap(), 1, "the append is counted");
        let writer = Writer::start(
            Campaign::create_in_memory("Club").unwrap(),
            "campaign-test".into(),
            Box::new(|| Campaign::create_in_memory("Club")),
            None,
            Some(Appends {
                committer: c.clone(),
                schema: TEST_ECHO.into(),
            }),
        )
        .unwrap();
        let seen = pending.clone();
        let job = std::thread::spawn(move || {
            writer
                .run(move |_| *seen.count.lock().unwrap())
                .map_err(|g| g.0)
        });
        until("the writer's job waiting for the append", || {
            pending.waits.load(Ordering::Relaxed) >= 1
        });
        assert!(
            answer.try_recv().is_err(),
            "the append is not answered while the committer is held"
        );
        assert!(!job.is_finished(), "the job waits while the append is held");
        open.send(()).unwrap();
        assert_eq!(
            job.join().unwrap().unwrap(),
            0,
            "the job ran once no append of its campaign was with the committer"
        );
        assert!(
            answer.try_recv().is_ok(),
            "the append was answered before the job ran"
        );
    }

    /// Session 23: an append handed straight to a committer that is late
    /// (held at the gate) is answered `Unavailable` by the awaiting task
    /// once the committer's wait has run out, the thread is replaced, and
    /// the late thread, when it comes back, does not write it (review10
    /// S1 on the new path); its campaign's count goes back to none.
    #[test]
    fn s23_an_append_handed_straight_to_a_late_committer_is_unavailable_and_not_written() {
        let _one_gate = GATE_TESTS.lock().unwrap_or_else(|p| p.into_inner());
        let mut c = Committer::start("host=/nonexistent".into()).unwrap();
        c.wait = std::time::Duration::from_secs(1);
        let c = Arc::new(c);
        let pending = c.pending_of(TEST_ECHO);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let mut late = Vec::new();
        let mut gates = Vec::new();
        // Awaited by a task, then waited for on a thread: each time on a
        // thread held at the gate.
        for on_task in [true, false] {
            gates.push(held_at_the_gate(&c));
            let written = c.part(TEST_ECHO, Vec::new(), None, &pending);
            let answer = if on_task {
                rt.block_on(written.settled())
            } else {
                written.settled_blocking()
            };
            assert!(
                matches!(answer, Ok(Err(Unwritten::Unavailable))),
                "on a task {on_task}: {answer:?}"
            );
            let mut t = c.thread.lock().unwrap();
            assert!(
                t.replace,
                "on a task {on_task}: its wait ran out: the thread is to be replaced"
            );
            late.push(t.handle.take().unwrap());
        }
        for open in gates {
            open.send(()).unwrap();
        }
        // The next share goes to a new thread.
        let _ = c.commit(TEST_ECHO, Vec::new(), None);
        for t in late {
            until("a late thread ends", || t.is_finished());
            t.join().unwrap();
        }
        assert_eq!(
            c.stats().0,
            1,
            "only the new thread's commit was taken; the given-up appends were not written"
        );
        until("its campaign's count goes back to none", || {
            *pending.count.lock().unwrap() == 0
        });
    }

    /// Session 23: the shares of one commit are gathered by campaign (one
    /// write a campaign, not one a command), first seen first, and each
    /// share is answered its own parts' answers, in order.
    #[test]
    fn s23_one_campaigns_shares_are_one_group_and_each_share_is_answered_its_own_parts() {
        let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
        let mut answers = Vec::new();
        let shares: Vec<Share> = ["b", "a", "b"]
            .into_iter()
            .map(|schema| {
                let (reply, answer) = mpsc::sync_channel(1);
                answers.push(answer);
                Share {
                    schema: schema.into(),
                    batch: Vec::new(),
                    notify: None,
                    reply: Answer::Writer(reply),
                    deadline: far,
                }
            })
            .collect();
        let (groups, placed) = by_campaign(shares);
        let schemas: Vec<&str> = groups.iter().map(|g| g.schema.as_str()).collect();
        assert_eq!(
            schemas,
            ["b", "a"],
            "one group a campaign, first seen first"
        );
        let at: Vec<usize> = placed.iter().map(|(_, at, _)| *at).collect();
        assert_eq!(at, [0, 1, 0]);
        // As if the first "b" share had two parts, the second one.
        let placed: Vec<(Answer, usize, usize)> = placed
            .into_iter()
            .zip([2, 1, 1])
            .map(|((a, at, _), n)| (a, at, n))
            .collect();
        answer_shares(
            placed,
            vec![
                vec![
                    Ok(()),
                    Err(Unwritten::ReusedId),
                    Err(Unwritten::Busy("b".into())),
                ],
                vec![Err(Unwritten::Stale("a".into()))],
            ],
        );
        let got: Vec<String> = answers
            .iter()
            .map(|a| format!("{:?}", a.try_recv().unwrap()))
            .collect();
        assert_eq!(
            got,
            [
                "[Ok(()), Err(ReusedId)]",
                "[Err(Stale(\"a\"))]",
                "[Err(Busy(\"b\"))]"
            ]
        );
    }

    /// Wait until `c` has handed `n` shares to its thread (60 s at most: a
    /// condition, not a time).
    fn until_sent(c: &Committer, n: u64) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while c.sent.load(Ordering::Relaxed) < n {
            assert!(std::time::Instant::now() < deadline, "{n} shares not sent");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// review5 NIT 10: the one committer groups campaigns. Three campaigns'
    /// appends queued while the committer is busy (held at a gate, not
    /// timed) are written in **one** transaction. Needs the test cluster
    /// (the committer connects; the batches are empty, so nothing is
    /// written).
    #[test]
    fn nit10_appends_of_three_campaigns_queued_behind_a_commit_share_one_transaction() {
        let url = match std::env::var("XENOLOG_TEST_PG") {
            Ok(u) if !u.trim().is_empty() => u,
            _ => {
                assert!(
                    std::env::var_os("XENOLOG_REQUIRE_PG").is_none(),
                    "XENOLOG_REQUIRE_PG is set but XENOLOG_TEST_PG is not"
                );
                return;
            }
        };
        let _one_gate = GATE_TESTS.lock().unwrap_or_else(|p| p.into_inner());
        let c = Arc::new(Committer::start(url).unwrap());
        let (open, gate) = mpsc::channel();
        *GATE.lock().unwrap() = Some(gate);
        let held = {
            let c = c.clone();
            std::thread::spawn(move || c.commit(TEST_GATE, Vec::new(), None))
        };
        until_sent(&c, 1);
        let waiting: Vec<_> = ["campaign_1", "campaign_2", "campaign_3"]
            .into_iter()
            .map(|schema| {
                let c = c.clone();
                std::thread::spawn(move || c.commit(schema, Vec::new(), None))
            })
            .collect();
        until_sent(&c, 4);
        assert_eq!(c.stats().0, 0, "nothing committed while the gate holds");
        open.send(()).unwrap();
        held.join().unwrap();
        for w in waiting {
            assert!(w.join().unwrap().is_empty());
        }
        assert_eq!(
            c.stats().0,
            1,
            "three campaigns' queued appends, one transaction"
        );
    }
}
