//! The listener (issue 31, `server/POSTGRES.md` §2 "Fan-out across
//! processes"): one `tokio_postgres` connection per server process that
//! `LISTEN`s on the club's channel and turns each notification into a
//! typed [`Hint`] — a battle's new entry (`C:B:SEQ`), a token revoked
//! (`revoked:ID`) — handed to a callback.
//!
//! A notification is only a hint. PostgreSQL delivers one when (and only
//! if) the transaction that sent it commits, never before; but while the
//! listener's connection is down, notifications are lost. So when the
//! connection goes (the database restarted, the backend terminated, the
//! network cut) the listener connects again with a growing pause (from
//! [`Listener::FIRST_PAUSE`] up to [`Listener::LONGEST_PAUSE`]), `LISTEN`s
//! again, and then hands [`Hint::CatchUp`]: "read everything again from
//! the tables" (every loaded battle after its head, the token map whole).
//!
//! The listener runs on a thread of its own with a one-thread tokio
//! runtime, so it needs no runtime from its caller (the token store opens
//! it from blocking code) and a slow callback never stalls the server's
//! sockets. The callback is called on a second plain thread, never on that
//! runtime (review3 M1): a callback may use the blocking `postgres` client
//! (the token store's `reload`), which panics on a runtime's thread.
//! [`Listener::start_quick`] names the hints whose handling never blocks
//! (a battle's entries, its parts, its moves): those are handed on from
//! the listener's own thread, one thread woken fewer a notification
//! (session 21), unless hints handed to the second thread are still being
//! handled there, so that every hint is handled in the order heard.
//! Dropping the [`Listener`] stops both.
//!
//! Its connection has TCP keepalives (every 10 s after 10 s idle, given up
//! after 3) and is probed every [`Listener::PROBE_EVERY`]: a half-open
//! connection (a cut network) is found in seconds, not after the system's
//! two hours, and [`Live`] says it is not listening meanwhile.

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use super::{CampaignId, ClubError, TokenId};

/// How long one attempt to connect may take (unless the URL says).
pub const CONNECT_WITHIN: Duration = Duration::from_secs(5);

/// What a notification says: where to look, never the thing itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Battle `battle` of campaign `campaign` has an entry at `seq`: a
    /// process that has it loaded reads the entries after its head.
    Entry {
        campaign: CampaignId,
        battle: i64,
        seq: u64,
    },
    /// Battle `battle` of campaign `campaign` has a new part ending at
    /// entry `seq`, carried in the payload (`e1:C:B:SEQ:BODY`, session 20;
    /// `body` is [`xenolog_saves::Carried`] in words, read where it is
    /// used): a process that holds the battle at the part's first entry
    /// extends it from `body` and reads nothing; otherwise it reads after
    /// its head as for [`Hint::Entry`]. The writer sends `C:B:SEQ` right
    /// after it (for processes that do not read this one): the listener
    /// drops that twin.
    Carried {
        campaign: CampaignId,
        battle: i64,
        seq: u64,
        body: String,
    },
    /// Battle `battle` of campaign `campaign` moved its live cursor
    /// without a new entry (a take-back, or a walk along its recorded
    /// line, decided by another process): a process that has it loaded
    /// reads it again and tells its watchers `moved`. `by`: the process
    /// that wrote it ([`Hint::payload`] carries it): a process skips its
    /// own, its battle being current already (issue 31 P5). 0: not said
    /// (a payload of an older build), never skipped.
    Moved {
        campaign: CampaignId,
        battle: i64,
        by: u64,
    },
    /// A token was revoked: forget it (its next `hello` reads the table).
    Revoked(TokenId),
    /// The listener connected again after losing its connection: any
    /// notification may have been missed, read everything again.
    CatchUp,
    /// A payload this build does not know (a newer process on the same
    /// database): ignored, with its words for the log.
    Other(String),
}

impl Hint {
    /// The payload of `pg_notify` for this hint (under PostgreSQL's 8,000
    /// bytes by far).
    pub fn payload(&self) -> String {
        match self {
            Hint::Entry {
                campaign,
                battle,
                seq,
            } => format!("{campaign}:{battle}:{seq}"),
            Hint::Carried {
                campaign,
                battle,
                seq,
                body,
            } => format!(
                "{}{campaign}:{battle}:{seq}:{body}",
                xenolog_saves::Carried::TAG
            ),
            Hint::Moved {
                campaign,
                battle,
                by: 0,
            } => format!("moved:{campaign}:{battle}"),
            Hint::Moved {
                campaign,
                battle,
                by,
            } => format!("moved:{campaign}:{battle}:{by}"),
            Hint::Revoked(id) => format!("revoked:{id}"),
            Hint::CatchUp => "catch-up".to_owned(),
            Hint::Other(s) => s.clone(),
        }
    }

    /// A notification's payload as a hint.
    pub fn parse(payload: &str) -> Hint {
        if let Some(id) = payload.strip_prefix("revoked:") {
            return match id.parse() {
                Ok(id) => Hint::Revoked(id),
                Err(_) => Hint::Other(payload.to_owned()),
            };
        }
        if let Some(rest) = payload.strip_prefix("moved:") {
            let parts: Vec<&str> = rest.split(':').collect();
            let by = match parts.get(2).map(|b| b.parse()) {
                None => Ok(0),
                Some(by) => by,
            };
            return match (
                parts.len(),
                parts[0].parse(),
                parts.get(1).map(|b| b.parse()),
                by,
            ) {
                (2 | 3, Ok(campaign), Some(Ok(battle)), Ok(by)) => Hint::Moved {
                    campaign,
                    battle,
                    by,
                },
                _ => Hint::Other(payload.to_owned()),
            };
        }
        if let Some(rest) = payload.strip_prefix(xenolog_saves::Carried::TAG) {
            let mut parts = rest.splitn(4, ':');
            let (c, b, q, body) = (parts.next(), parts.next(), parts.next(), parts.next());
            if let (Some(Ok(campaign)), Some(Ok(battle)), Some(Ok(seq)), Some(body)) = (
                c.map(str::parse),
                b.map(str::parse),
                q.map(str::parse),
                body,
            ) {
                return Hint::Carried {
                    campaign,
                    battle,
                    seq,
                    body: body.to_owned(),
                };
            }
            return Hint::Other(payload.to_owned());
        }
        if payload == "catch-up" {
            return Hint::CatchUp;
        }
        let parts: Vec<&str> = payload.split(':').collect();
        if let [c, b, s] = parts[..]
            && let (Ok(campaign), Ok(battle), Ok(seq)) = (c.parse(), b.parse(), s.parse())
        {
            return Hint::Entry {
                campaign,
                battle,
                seq,
            };
        }
        Hint::Other(payload.to_owned())
    }
}

/// Whether a listener is listening now, and on which of its connections:
/// shared with whoever must know that no notification can have been
/// missed (the token store trusts its memory only then, review3 SHOULD 1).
#[derive(Debug, Default)]
pub struct Live {
    /// The server process (backend) of its connection, 0 while it has none.
    pid: AtomicI32,
    /// How many connections have listened so far (the first is 1): a
    /// catch-up made for connection `n` is good only while it is `n`.
    connection: AtomicU64,
}

impl Live {
    /// The number of the connection listening now, or `None` while there
    /// is none (lost, connecting again, or stopped): then notifications
    /// may be missed.
    pub fn listening(&self) -> Option<u64> {
        // A connection's number is counted before its process is set, and
        // the process is cleared before the next is counted: the same
        // number on both sides of a process read means it is that one's.
        let n = self.connection.load(Ordering::Acquire);
        let pid = self.pid.load(Ordering::Acquire);
        (pid != 0 && self.connection.load(Ordering::Acquire) == n).then_some(n)
    }

    fn lost(&self) {
        self.pid.store(0, Ordering::Release);
    }

    fn listening_on(&self, pid: i32) {
        self.connection.fetch_add(1, Ordering::AcqRel);
        self.pid.store(pid, Ordering::Release);
    }
}

/// A running listener; dropped, it stops (its connection closed).
pub struct Listener {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The plain thread that calls the callback.
    hints: Option<std::thread::JoinHandle<()>>,
    live: Arc<Live>,
}

impl Listener {
    /// The pause before the first attempt to connect again.
    pub const FIRST_PAUSE: Duration = Duration::from_millis(100);
    /// The longest pause between attempts.
    pub const LONGEST_PAUSE: Duration = Duration::from_secs(5);
    /// How long [`Listener::start`] waits for the first `LISTEN`.
    const START: Duration = Duration::from_secs(20);
    /// How often the connection is asked a question (`SELECT 1`) while no
    /// notification comes; one not answered within this time ends it.
    pub const PROBE_EVERY: Duration = Duration::from_secs(5);

    /// Connect to the database at `url`, `LISTEN` on `channel`, and hand
    /// every notification to `on` as a [`Hint`] (on a plain thread of the
    /// listener's own, in the order heard; `on` may block). Returns once
    /// the first `LISTEN` is in place (so nothing committed after this
    /// returns is missed), or the reason it is not.
    pub fn start(
        url: &str,
        channel: &str,
        on: impl Fn(Hint) + Send + 'static,
    ) -> Result<Listener, ClubError> {
        Self::begin(url, channel, Hand::Thread(Box::new(on)))
    }

    /// [`Listener::start`], but each hint for which `blocks` is false is
    /// handed to `on` on the listener's own thread (a runtime's: `on` must
    /// not block nor use the blocking `postgres` client for it), one
    /// thread fewer woken; the others go to the second thread as
    /// [`Listener::start`] hands them. Hints are still handled one at a
    /// time and in the order heard: while any hint handed to the second
    /// thread is not yet handled, the quick ones queue behind it there.
    pub fn start_quick(
        url: &str,
        channel: &str,
        blocks: fn(&Hint) -> bool,
        on: impl Fn(Hint) + Send + Sync + 'static,
    ) -> Result<Listener, ClubError> {
        Self::begin(url, channel, Hand::Quick(Arc::new(on), blocks))
    }

    fn begin(url: &str, channel: &str, on: Hand) -> Result<Listener, ClubError> {
        let unreachable = |why: String| ClubError::File {
            path: format!("the club database's listener (channel {channel})"),
            why,
        };
        if channel.is_empty()
            || channel.len() > 63
            || !channel
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
        {
            return Err(unreachable(format!(
                "'{channel}' cannot name a channel (lower-case letters, digits and _)"
            )));
        }
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let (ready_tx, ready) = std::sync::mpsc::channel();
        let live = Arc::new(Live::default());
        let (url, channel, p) = (url.to_owned(), channel.to_owned(), live.clone());
        // Review3 M1: the callback runs here, off the listener's runtime
        // (but for the quick hints of `start_quick`).
        let (hint_tx, hint_rx) = std::sync::mpsc::channel::<Hint>();
        let queued = Arc::new(AtomicUsize::new(0));
        let (slow, quick) = match on {
            Hand::Thread(on) => (on, None),
            Hand::Quick(on, blocks) => {
                let slow = on.clone();
                let slow: Box<dyn Fn(Hint) + Send> = Box::new(move |h| slow(h));
                (slow, Some((on, blocks)))
            }
        };
        let handled = queued.clone();
        let hints = std::thread::Builder::new()
            .name("club-hints".into())
            .spawn(move || {
                for hint in hint_rx {
                    slow(hint);
                    // Handled: a quick hint after it may go the quick way.
                    handled.fetch_sub(1, Ordering::AcqRel);
                }
            })
            .map_err(|e| unreachable(format!("its thread cannot start: {e}")))?;
        let hint_tx = Handing {
            thread: hint_tx,
            queued,
            quick,
        };
        let thread = std::thread::Builder::new()
            .name("club-listener".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = ready_tx.send(Err(format!("its runtime cannot start: {e}")));
                        return;
                    }
                };
                rt.block_on(run(url, channel, hint_tx, ready_tx, stopped, p));
            })
            .map_err(|e| unreachable(format!("its thread cannot start: {e}")))?;
        let mut listener = Listener {
            stop: Some(stop),
            thread: Some(thread),
            hints: Some(hints),
            live,
        };
        match ready.recv_timeout(Self::START) {
            Ok(Ok(())) => Ok(listener),
            Ok(Err(why)) => Err(unreachable(why)),
            Err(_) => {
                listener.shut();
                Err(unreachable(format!(
                    "it did not start listening within {} s",
                    Self::START.as_secs()
                )))
            }
        }
    }

    /// The PostgreSQL process serving the listener's connection (for
    /// `pg_terminate_backend` in the tests), 0 while it is connecting.
    pub fn backend_pid(&self) -> i32 {
        self.live.pid.load(Ordering::Acquire)
    }

    /// Whether it listens now, shared (see [`Live`]).
    pub fn live(&self) -> Arc<Live> {
        self.live.clone()
    }

    fn shut(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        // The runtime's thread is done: the hints' sender is dropped, so
        // the hints' thread ends after the hints already sent.
        if let Some(t) = self.hints.take() {
            let _ = t.join();
        }
        self.live.lost();
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.shut();
    }
}

/// Connect, listen, hand on; again after a pause whenever the connection
/// ends, until stopped.
async fn run(
    url: String,
    channel: String,
    on: Handing,
    ready: std::sync::mpsc::Sender<Result<(), String>>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
    live: Arc<Live>,
) {
    let mut ready = Some(ready);
    let mut pause = Listener::FIRST_PAUSE;
    loop {
        let mut listening = false;
        let ended = tokio::select! {
            _ = &mut stopped => return,
            r = session(&url, &channel, &on, &live, &mut listening, &mut ready) => r,
        };
        live.lost();
        if let Some(first) = ready.take() {
            // The first connection failed: the caller is told, nothing runs.
            let _ = first.send(Err(match ended {
                Err(e) => e,
                Ok(()) => "its connection ended before it listened".into(),
            }));
            return;
        }
        if listening {
            pause = Listener::FIRST_PAUSE;
        }
        if let Err(e) = ended {
            eprintln!("serve: the club database's listener: {e}; connecting again");
        }
        tokio::select! {
            _ = &mut stopped => return,
            _ = tokio::time::sleep(pause) => {}
        }
        pause = (pause * 2).min(Listener::LONGEST_PAUSE);
    }
}

/// One connection's life: `LISTEN`, then every notification to `on`
/// until the connection ends.
async fn session(
    url: &str,
    channel: &str,
    on: &Handing,
    live: &Live,
    listening: &mut bool,
    ready: &mut Option<std::sync::mpsc::Sender<Result<(), String>>>,
) -> Result<(), String> {
    let mut config: tokio_postgres::Config = url
        .parse()
        .map_err(|e| format!("connecting failed: {}", words(&e)))?;
    // A database host that does not answer at all is given up on (and
    // tried again after the pause), not waited for for minutes.
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_WITHIN);
    }
    // A cut network is found by TCP too (the driver's default is 2 h idle).
    if config.get_keepalives_idle() >= Duration::from_secs(2 * 60 * 60) {
        config
            .keepalives(true)
            .keepalives_idle(Duration::from_secs(10))
            .keepalives_interval(Duration::from_secs(10))
            .keepalives_retries(3);
    }
    let (client, mut conn) = config
        .connect(tokio_postgres::NoTls)
        .await
        .map_err(|e| format!("connecting failed: {}", words(&e)))?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    // The connection is driven here: the replies to the client's queries,
    // and the notifications (which only `poll_message` hands out).
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| conn.poll_message(cx)).await {
                Some(Ok(tokio_postgres::AsyncMessage::Notification(n))) => {
                    if tx.send(n.payload().to_owned()).is_err() {
                        return Ok(());
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(words(&e)),
                None => return Ok(()),
            }
        }
    });
    let listen = async {
        client
            .batch_execute(&format!("LISTEN {channel}"))
            .await
            .map_err(|e| format!("LISTEN failed: {}", words(&e)))?;
        let row = client
            .query_one("SELECT pg_backend_pid()", &[])
            .await
            .map_err(|e| format!("its process is not known: {}", words(&e)))?;
        Ok::<i32, String>(row.get(0))
    };
    let backend = match listen.await {
        Ok(p) => p,
        Err(e) => {
            driver.abort();
            return Err(e);
        }
    };
    live.listening_on(backend);
    *listening = true;
    match ready.take() {
        Some(first) => {
            let _ = first.send(Ok(()));
        }
        // Connected again: whatever was sent meanwhile was not heard.
        None => {
            let _ = on.give(Hint::CatchUp);
        }
    }
    let mut probe = tokio::time::interval(Listener::PROBE_EVERY);
    probe.tick().await;
    let mut twins = Twins::default();
    loop {
        tokio::select! {
            payload = rx.recv() => match payload {
                Some(payload) => {
                    let Some(hint) = twins.pass(Hint::parse(&payload)) else {
                        continue;
                    };
                    if !on.give(hint) {
                        // Nobody hears any more: stopping.
                        break;
                    }
                }
                None => break,
            },
            _ = probe.tick() => {
                let asked = tokio::time::timeout(
                    Listener::PROBE_EVERY,
                    client.simple_query("SELECT 1"),
                )
                .await;
                match asked {
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => {
                        driver.abort();
                        return Err(format!("its connection failed: {}", words(&e)));
                    }
                    Err(_) => {
                        driver.abort();
                        return Err(format!(
                            "its connection did not answer within {} s",
                            Listener::PROBE_EVERY.as_secs()
                        ));
                    }
                }
            }
        }
    }
    drop(client);
    match driver.await {
        Ok(Ok(())) => Err("its connection ended".into()),
        Ok(Err(e)) => Err(format!("its connection failed: {e}")),
        Err(e) => Err(format!("its connection's task failed: {e}")),
    }
}

/// What a listener hands its hints to ([`Listener::start`],
/// [`Listener::start_quick`]).
enum Hand {
    /// Every hint on the second thread.
    Thread(Box<dyn Fn(Hint) + Send>),
    /// The hints for which the function is false on the listener's own
    /// thread, the others on the second.
    Quick(Arc<dyn Fn(Hint) + Send + Sync>, fn(&Hint) -> bool),
}

/// The listener's side of the handing: the second thread's queue, how
/// many hints are in it or being handled there, and the quick way.
struct Handing {
    thread: std::sync::mpsc::Sender<Hint>,
    queued: Arc<AtomicUsize>,
    #[allow(clippy::type_complexity)]
    quick: Option<(Arc<dyn Fn(Hint) + Send + Sync>, fn(&Hint) -> bool)>,
}

impl Handing {
    /// Hand `hint` on: here when it is quick and nothing handed to the
    /// second thread is still to be handled (so the order heard is kept),
    /// otherwise to that thread. Whether anybody still hears.
    fn give(&self, hint: Hint) -> bool {
        if let Some((on, blocks)) = &self.quick
            && !blocks(&hint)
            && self.queued.load(Ordering::Acquire) == 0
        {
            on(hint);
            return true;
        }
        self.queued.fetch_add(1, Ordering::AcqRel);
        if self.thread.send(hint).is_err() {
            self.queued.fetch_sub(1, Ordering::AcqRel);
            return false;
        }
        true
    }
}

/// The `C:B:SEQ` sent right after a carried part (for processes that do
/// not read `e1:`) is that part's twin: dropped, the part being heard.
#[derive(Default)]
struct Twins {
    carried: Option<(CampaignId, i64, u64)>,
}

impl Twins {
    /// `hint`, or `None` when it is the twin of the carried part heard
    /// just before it.
    fn pass(&mut self, hint: Hint) -> Option<Hint> {
        let before = self.carried.take();
        match &hint {
            Hint::Carried {
                campaign,
                battle,
                seq,
                ..
            } => self.carried = Some((*campaign, *battle, *seq)),
            Hint::Entry {
                campaign,
                battle,
                seq,
            } if before == Some((*campaign, *battle, *seq)) => return None,
            _ => {}
        }
        Some(hint)
    }
}

fn words(e: &tokio_postgres::Error) -> String {
    use std::error::Error as _;
    if let Some(db) = e.as_db_error() {
        return format!("{}: {}", db.severity(), db.message());
    }
    match e.source() {
        Some(s) => format!("{e}: {s}"),
        None => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Session 21: a hint that never blocks is handed on the listener's
    /// own thread only while nothing handed to the second thread is still
    /// to be handled there; otherwise it queues behind it, so every hint is
    /// handled in the order heard (a battle's entry never overtakes a
    /// catch-up or a revocation heard before it).
    #[test]
    fn a_quick_hint_queues_behind_a_slow_one_not_yet_handled_so_the_order_heard_is_kept() {
        let (thread, second) = std::sync::mpsc::channel();
        let here = Arc::new(std::sync::Mutex::new(Vec::new()));
        let h = here.clone();
        let hand = Handing {
            thread,
            queued: Arc::new(AtomicUsize::new(0)),
            quick: Some((
                Arc::new(move |hint| h.lock().unwrap().push(hint)),
                |h: &Hint| matches!(h, Hint::CatchUp),
            )),
        };
        let entry = |seq| Hint::Entry {
            campaign: 1,
            battle: 2,
            seq,
        };
        assert!(hand.give(entry(0)));
        assert_eq!(
            *here.lock().unwrap(),
            vec![entry(0)],
            "quick, nothing queued: handed on the listener's thread"
        );
        assert!(second.try_recv().is_err());
        assert!(hand.give(Hint::CatchUp));
        assert!(hand.give(entry(1)));
        assert_eq!(
            *here.lock().unwrap(),
            vec![entry(0)],
            "behind the catch-up not yet handled: not handed here"
        );
        assert_eq!(second.try_recv().unwrap(), Hint::CatchUp);
        assert_eq!(second.try_recv().unwrap(), entry(1), "after it, in order");
        // The second thread has handled both (as its loop counts them).
        hand.queued.fetch_sub(2, Ordering::AcqRel);
        assert!(hand.give(entry(2)));
        assert_eq!(*here.lock().unwrap(), vec![entry(0), entry(2)]);
        assert!(second.try_recv().is_err());
    }

    #[test]
    fn payloads_read_back_as_the_hints_they_were() {
        for h in [
            Hint::Entry {
                campaign: 3,
                battle: 17,
                seq: 204,
            },
            Hint::Revoked(9),
            Hint::Carried {
                campaign: 3,
                battle: 17,
                seq: 204,
                body: "AQID+/9".into(),
            },
            Hint::Moved {
                campaign: 2,
                battle: 5,
                by: 0,
            },
            Hint::Moved {
                campaign: 2,
                battle: 5,
                by: u64::MAX,
            },
            Hint::CatchUp,
        ] {
            assert_eq!(Hint::parse(&h.payload()), h);
        }
        assert_eq!(Hint::parse("3:x:1"), Hint::Other("3:x:1".into()));
        assert_eq!(Hint::parse("revoked:"), Hint::Other("revoked:".into()));
        assert_eq!(Hint::parse("moved:2"), Hint::Other("moved:2".into()));
        // Session 18's payload, without the process: never skipped.
        assert_eq!(
            Hint::parse("moved:2:5"),
            Hint::Moved {
                campaign: 2,
                battle: 5,
                by: 0
            }
        );
        assert_eq!(
            Hint::parse("moved:2:5:x"),
            Hint::Other("moved:2:5:x".into())
        );
        assert_eq!(
            Hint::parse("moved:2:5:1:1"),
            Hint::Other("moved:2:5:1:1".into())
        );
        // A carried part's words, damaged or of a later format: unknown
        // (ignored; the `C:B:SEQ` sent after it is read as ever).
        for other in ["e1:3:x:1:AA", "e1:3:17:204", "e2:3:17:204:AA"] {
            assert_eq!(Hint::parse(other), Hint::Other(other.into()));
        }
    }

    #[test]
    fn the_entry_after_its_carried_part_is_dropped_as_its_twin_and_no_other() {
        let carried = |seq| Hint::Carried {
            campaign: 3,
            battle: 17,
            seq,
            body: "AA".into(),
        };
        let entry = |battle, seq| Hint::Entry {
            campaign: 3,
            battle,
            seq,
        };
        let mut twins = Twins::default();
        // (hint, whether it is passed on)
        let heard = [
            (carried(4), true),
            (entry(17, 4), false),
            // Its twin once only; an entry not announced by a part is kept.
            (entry(17, 4), true),
            (carried(6), true),
            (entry(18, 6), true),
            (entry(17, 6), true),
            (Hint::CatchUp, true),
            (entry(17, 7), true),
        ];
        for (n, (hint, passed)) in heard.into_iter().enumerate() {
            assert_eq!(
                twins.pass(hint.clone()).is_some(),
                passed,
                "hint {n}: {hint:?}"
            );
        }
    }
}
