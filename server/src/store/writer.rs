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

/// One campaign writer's drained appends, for the [`Committer`].
struct Share {
    schema: String,
    batch: Vec<Decided>,
    notify: Option<Notify>,
    reply: mpsc::SyncSender<Answers>,
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
        let _ = self.reply.send(
            self.batch
                .iter()
                .map(|_| Err(Unwritten::Unavailable))
                .collect(),
        );
        None
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
            #[cfg(test)]
            sent: AtomicU64::new(0),
        })
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
        let mut share = Share {
            schema: schema.to_owned(),
            batch,
            notify: notify.cloned(),
            reply,
            deadline,
        };
        // A queue found closed (its thread died): once more, on a new one.
        let mut sent = None;
        for _ in 0..2 {
            let Some((queue, generation)) = self.queue() else {
                return unavailable();
            };
            match queue.send(share) {
                Ok(()) => {
                    #[cfg(test)]
                    self.sent.fetch_add(1, Ordering::Relaxed);
                    sent = Some(generation);
                    break;
                }
                Err(mpsc::SendError(back)) => {
                    share = back;
                    self.condemn(generation);
                }
            }
        }
        let Some(generation) = sent else {
            return unavailable();
        };
        match answer.recv_timeout(self.wait) {
            Ok(answers) if answers.len() == n => answers,
            Ok(_) => unavailable(),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                eprintln!(
                    "serve: the committer has not answered in {} s; a new one takes the next commit",
                    self.wait.as_secs()
                );
                self.condemn(generation);
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
            let _ = first.reply.send(Vec::new());
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
            let _ = first
                .reply
                .send(first.batch.iter().map(|_| Ok(())).collect());
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
                    for s in taken {
                        let _ = s.reply.send(
                            s.batch
                                .iter()
                                .map(|_| Err(Unwritten::Unavailable))
                                .collect(),
                        );
                    }
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
        let notifies: Vec<Option<AppendNotify<'_>>> = taken
            .iter()
            .map(|s| {
                s.notify.as_ref().map(|n| AppendNotify {
                    channel: &n.channel,
                    prefix: &n.prefix,
                })
            })
            .collect();
        let groups: Vec<Group<'_>> = taken
            .iter()
            .zip(&notifies)
            .map(|(s, n)| Group {
                schema: &s.schema,
                batch: &s.batch,
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
                taken
                    .iter()
                    .map(|s| s.batch.iter().map(|_| Err(refused_whole(&e))).collect())
                    .collect()
            }
            Err(p) => {
                // Its connection may be mid-transaction: a new one next time.
                let words = panic_words(&*p);
                conn = None;
                taken
                    .iter()
                    .map(|s| {
                        s.batch
                            .iter()
                            .map(|_| Err(Unwritten::Failed(words.clone())))
                            .collect()
                    })
                    .collect()
            }
        };
        for (s, a) in taken.into_iter().zip(answers) {
            let _ = s.reply.send(a);
        }
    }
    if let Some(c) = conn {
        let _ = c.close();
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
        let thread = std::thread::Builder::new().name(name).spawn(move || {
            let out = Out {
                notify: notify.as_ref(),
                appends: appends.as_ref(),
            };
            run(campaign, rx, &counted, &reopen, out);
            counted.dead.store(true, Ordering::Relaxed);
        })?;
        Ok(Writer {
            jobs: Some(tx),
            thread: Some(thread),
            stats,
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
    pub fn append_async(
        &self,
        d: Decided,
    ) -> Result<oneshot::Receiver<Result<(), Unwritten>>, Gone> {
        let (tx, rx) = oneshot::channel();
        self.jobs
            .as_ref()
            .ok_or(Gone(None))?
            .send(Job::Append(d, tx))
            .map_err(|_| Gone(None))?;
        Ok(rx)
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

/// Where a writer's appends go, and what each part notifies.
#[derive(Clone, Copy)]
struct Out<'a> {
    notify: Option<&'a Notify>,
    appends: Option<&'a Appends>,
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
                reply,
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
