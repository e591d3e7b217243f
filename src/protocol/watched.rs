//! GTP's stdin, read by the command loop itself while it waits for a command, and watched
//! by a thread only while a command (or a ponder) runs.
//!
//! Why: with a reader thread that hands every line over a channel, each command costs two
//! thread wake-ups before the engine starts on it (the reader's, then the command loop's).
//! Between engines that answer at once (an arena's fast match) that hop was a third of
//! the time of a move: `hamle bench arena` played about 1.4 times as many games a second
//! without it. The running command still sees what arrives meanwhile (`stop`, GoGui's
//! `# interrupt`, a waiting line that ends an analysis stream), as with the reader thread:
//!
//! - While the loop is idle it holds the reader and blocks on stdin; nothing else reads.
//! - When a command starts, the loop marks itself busy and lets go of the reader. The
//!   watcher thread then takes the lines already buffered and, as more arrive (`poll`),
//!   reads them into the same bounded queue and raises the same flags as the reader
//!   thread did ([`Signals`]).
//! - When the command (and its ponder) ends, the loop takes queued lines first, then reads
//!   stdin again. The watcher reads only under the reader's lock and only while the loop is
//!   busy, so every line is read once, in order, by one of the two.
//!
//! `serve_stdio` uses it; `serve` on any other reader keeps the reader thread
//! ([`super::input::spawn_reader`]).

use std::io::{self, BufReader, Stdin};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use rustix::event::{PollFd, PollFlags, Timespec, poll};

use super::input::{INPUT_QUEUE_LINES, Input, LineReader, Signals, classify};

type StdinLines = LineReader<BufReader<Stdin>>;

/// Whether a command runs, and whether the input has ended.
#[derive(Default)]
struct Phase {
    busy: bool,
    ended: bool,
}

struct Shared {
    reader: Mutex<StdinLines>,
    phase: Mutex<Phase>,
    /// Wakes the watcher when a command starts.
    started: Condvar,
    signals: Arc<Signals>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere (caught per command) leaves the data as it was.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Stdin as the command loop reads it (see the module's documentation).
pub struct WatchedStdin {
    shared: Arc<Shared>,
    queued: Receiver<Input>,
}

impl WatchedStdin {
    /// Starts the watcher (idle until a command runs).
    pub fn new(signals: Arc<Signals>) -> WatchedStdin {
        let (sender, queued) = sync_channel(INPUT_QUEUE_LINES);
        let shared = Arc::new(Shared {
            reader: Mutex::new(LineReader::new(BufReader::new(io::stdin()))),
            phase: Mutex::new(Phase::default()),
            started: Condvar::new(),
            signals,
        });
        let watched = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("stdin-watcher".into())
            .spawn(move || watch(&watched, &sender))
            .map_err(|error| tracing::error!("cannot start the input watcher: {error}"))
            .ok();
        WatchedStdin { shared, queued }
    }

    /// The next command line: one the watcher queued, else one read from stdin (blocking).
    /// `None` at the end of input.
    pub fn next(&self) -> Option<Input> {
        loop {
            if let Some(input) = self.take_queued() {
                return Some(input);
            }
            let mut reader = lock(&self.shared.reader);
            // The watcher may have queued a line just before the lock was ours.
            if let Some(input) = self.take_queued() {
                return Some(input);
            }
            if lock(&self.shared.phase).ended {
                return None;
            }
            match reader.read_line() {
                Ok(Some(line)) => {
                    if let Some(input) = classify(line, &self.shared.signals) {
                        self.shared.signals.direct_line_taken();
                        return Some(input);
                    }
                }
                Ok(None) | Err(_) => {
                    self.end();
                    return None;
                }
            }
        }
    }

    fn take_queued(&self) -> Option<Input> {
        match self.queued.try_recv() {
            Ok(input) => {
                self.shared.signals.line_taken(&input);
                Some(input)
            }
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => None,
        }
    }

    /// A command starts: the watcher reads what arrives until [`WatchedStdin::idle`].
    pub fn busy(&self) {
        lock(&self.shared.phase).busy = true;
        self.shared.started.notify_one();
    }

    /// The command (and its ponder) is over: the loop reads stdin itself again.
    pub fn idle(&self) {
        lock(&self.shared.phase).busy = false;
    }

    fn end(&self) {
        lock(&self.shared.phase).ended = true;
        self.shared.signals.close();
        self.shared.started.notify_one();
    }
}

/// The watcher: while a command runs, the lines already buffered, then each line as it
/// arrives; idle otherwise. Ends at the end of input or when the loop is gone.
fn watch(shared: &Shared, sender: &SyncSender<Input>) {
    loop {
        {
            let mut phase = lock(&shared.phase);
            while !phase.busy && !phase.ended {
                phase = shared
                    .started
                    .wait(phase)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if phase.ended {
                return;
            }
        }
        if !read_while_busy(shared, sender) {
            return;
        }
    }
}

/// Reads lines into the queue while the loop is busy; false when the input has ended or
/// the loop is gone.
fn read_while_busy(shared: &Shared, sender: &SyncSender<Input>) -> bool {
    loop {
        {
            let mut reader = lock(&shared.reader);
            loop {
                if !lock(&shared.phase).busy {
                    return true;
                }
                if !reader.has_buffered_line() {
                    break;
                }
                if !read_one(shared, &mut reader, sender) {
                    return false;
                }
            }
        }
        // Until something arrives (the end of input counts too).
        let _ = stdin_ready(None);
        let mut reader = lock(&shared.reader);
        if !lock(&shared.phase).busy {
            return true;
        }
        // The loop may have read what woke the poll before it went busy again.
        let zero = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        if (reader.has_buffered_line() || stdin_ready(Some(&zero)))
            && !read_one(shared, &mut reader, sender)
        {
            return false;
        }
    }
}

/// Whether stdin has something to read (or has ended) within `timeout` (`None`: wait).
fn stdin_ready(timeout: Option<&Timespec>) -> bool {
    let stdin = io::stdin();
    let mut fds = [PollFd::new(&stdin, PollFlags::IN)];
    poll(&mut fds, timeout).is_ok_and(|ready| ready > 0)
}

/// Reads one line into the queue, raising the flags first; false at the end of input or
/// when the loop is gone.
fn read_one(shared: &Shared, reader: &mut StdinLines, sender: &SyncSender<Input>) -> bool {
    match reader.read_line() {
        Ok(Some(line)) => {
            let Some(input) = classify(line, &shared.signals) else {
                return true;
            };
            // Raised before the send, which waits while the queue is full.
            shared.signals.line_queued(&input);
            sender.send(input).is_ok()
        }
        Ok(None) | Err(_) => {
            lock(&shared.phase).ended = true;
            shared.signals.close();
            false
        }
    }
}
