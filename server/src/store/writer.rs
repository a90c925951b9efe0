//! One writer thread per open campaign file (DESIGN.md section 7): it owns
//! the `saves::Campaign` (and so its writer lock) and drains a queue. Every
//! append waiting in the queue when the thread comes round is written in one
//! `IMMEDIATE` transaction ([`Campaign::append_batch`]): one fsync for many
//! battles' commands (group commit). Other work on the file (loading a
//! battle, starting one, reading a command id) runs in queue order between
//! batches; it never concerns a battle with an append in the same batch,
//! because a battle's own commands wait for their append one at a time.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;

use xenolog_saves::{Campaign, Decided, SaveError};

/// At most this many appends share one transaction.
pub const MAX_BATCH: usize = 256;

/// Work for a writer thread.
enum Job {
    Append(Decided, mpsc::SyncSender<Result<(), String>>),
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
}

/// The writer thread has stopped (it panicked, or the server is stopping).
#[derive(Debug)]
pub struct Gone;

impl Writer {
    /// Start the writer of `campaign` (opened by the caller, so that an error
    /// opening it is the caller's to report).
    pub fn start(campaign: Campaign, name: String) -> std::io::Result<Writer> {
        let (tx, rx) = mpsc::channel();
        let stats = Arc::new(Stats::default());
        let counted = stats.clone();
        let thread = std::thread::Builder::new()
            .name(name)
            .spawn(move || run(campaign, rx, &counted))?;
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

    /// Append `d` in the next batch and wait until it is durable (or refused:
    /// the words say why).
    pub fn append(&self, d: Decided) -> Result<Result<(), String>, Gone> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.jobs
            .as_ref()
            .ok_or(Gone)?
            .send(Job::Append(d, tx))
            .map_err(|_| Gone)?;
        rx.recv().map_err(|_| Gone)
    }

    /// Run `f` on the campaign, in queue order, and wait for its result.
    pub fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Campaign) -> T + Send + 'static,
    ) -> Result<T, Gone> {
        let (tx, rx) = mpsc::sync_channel(1);
        let job = Job::Run(Box::new(move |c| {
            let _ = tx.send(f(c));
        }));
        self.jobs
            .as_ref()
            .ok_or(Gone)?
            .send(job)
            .map_err(|_| Gone)?;
        rx.recv().map_err(|_| Gone)
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

fn run(mut campaign: Campaign, jobs: mpsc::Receiver<Job>, stats: &Stats) {
    let mut appends: Vec<(Decided, mpsc::SyncSender<Result<(), String>>)> = Vec::new();
    while let Ok(first) = jobs.recv() {
        let mut next = Some(first);
        while let Some(job) = next.take() {
            match job {
                Job::Append(d, reply) => appends.push((d, reply)),
                Job::Run(f) => f(&mut campaign),
            }
            if appends.len() < MAX_BATCH {
                next = jobs.try_recv().ok();
            }
        }
        if !appends.is_empty() {
            stats.transactions.fetch_add(1, Ordering::Relaxed);
            stats
                .appends
                .fetch_add(appends.len() as u64, Ordering::Relaxed);
        }
        flush(&mut campaign, &mut appends);
    }
}

/// Write every queued append in one transaction and answer each.
fn flush(
    campaign: &mut Campaign,
    appends: &mut Vec<(Decided, mpsc::SyncSender<Result<(), String>>)>,
) {
    if appends.is_empty() {
        return;
    }
    let (batch, replies): (Vec<Decided>, Vec<_>) = appends.drain(..).unzip();
    match campaign.append_batch(&batch) {
        Ok(results) => {
            for (r, reply) in results.into_iter().zip(replies) {
                let _ = reply.send(r.map_err(|e: SaveError| e.to_string()));
            }
        }
        Err(e) => {
            let words = format!("the campaign file refused the write: {e}");
            for reply in replies {
                let _ = reply.send(Err(words.clone()));
            }
        }
    }
}
