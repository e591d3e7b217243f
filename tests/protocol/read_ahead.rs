//! Bounded read-ahead: while a command runs, the reader queues at most
//! `INPUT_QUEUE_LINES` lines and then waits, yet a running search still sees that lines
//! are pending and a `stop` the reader holds; every line is answered, in order.
//!
//! Neither test depends on the machine's speed to pass: the engine's first command waits
//! for the state it checks (with a patience of a minute), and the memory bound holds
//! however fast the client writes.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Command as Process, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use hamle::protocol::{Command, Engine, GtpError, INPUT_QUEUE_LINES, Session, serve};
use pretty_assertions::assert_eq;

/// Far longer than the reader takes to fill the queue on any machine.
const PATIENCE: Duration = Duration::from_secs(60);

/// Input handed out one line at a time, counting the lines the reader has taken.
struct CountedLines {
    lines: Vec<Vec<u8>>,
    next: usize,
    offset: usize,
    taken: Arc<AtomicUsize>,
}

impl Read for CountedLines {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buffer.len());
        buffer[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for CountedLines {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(self
            .lines
            .get(self.next)
            .map_or(&[][..], |line| &line[self.offset..]))
    }

    fn consume(&mut self, amount: usize) {
        self.offset += amount;
        if self
            .lines
            .get(self.next)
            .is_some_and(|l| self.offset >= l.len())
        {
            self.next += 1;
            self.offset = 0;
            self.taken.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// `hold` runs until a `stop` reaches it, then reports how many lines the reader had
/// taken from the input by then; `echo` answers its arguments.
struct HoldingEngine {
    taken: Arc<AtomicUsize>,
}

impl Engine for HoldingEngine {
    fn commands(&self) -> Vec<&'static str> {
        vec!["hold", "echo"]
    }

    fn execute(
        &mut self,
        command: &Command,
        session: &mut Session<'_>,
    ) -> Result<String, GtpError> {
        match command.name.as_str() {
            "echo" => Ok(command.args.join(" ")),
            "hold" => {
                let begun = Instant::now();
                while !session.interrupted() {
                    if begun.elapsed() > PATIENCE {
                        return Err(GtpError::other("no stop reached the running command"));
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                // An unbounded reader would read on through the lines after the stop.
                std::thread::sleep(Duration::from_millis(200));
                let pending = session.input_pending();
                Ok(format!(
                    "taken {} pending {pending}",
                    self.taken.load(Ordering::SeqCst)
                ))
            }
            _ => Err(GtpError::UnknownCommand),
        }
    }
}

#[test]
fn a_full_queue_holds_the_reader_yet_a_stop_it_holds_interrupts() {
    let after_stop = 1000;
    let mut lines = vec![b"hold\n".to_vec()];
    lines.extend((0..INPUT_QUEUE_LINES).map(|i| format!("{i} echo {i}\n").into_bytes()));
    lines.push(b"stop\n".to_vec());
    lines.extend((0..after_stop).map(|i| format!("{i} echo after\n").into_bytes()));
    let taken = Arc::new(AtomicUsize::new(0));
    let input = CountedLines {
        lines,
        next: 0,
        offset: 0,
        taken: Arc::clone(&taken),
    };
    let mut engine = HoldingEngine { taken };
    let mut output = Vec::new();
    serve(&mut engine, input, &mut output).expect("serve");
    let output = String::from_utf8(output).expect("utf-8 output");

    // `hold`, the queue's worth of lines, and the `stop` the reader waits to queue.
    let mut expected = format!("= taken {} pending true\n\n", INPUT_QUEUE_LINES + 2);
    for i in 0..INPUT_QUEUE_LINES {
        expected += &format!("={i} {i}\n\n");
    }
    expected += "= \n\n";
    for i in 0..after_stop {
        expected += &format!("={i} after\n\n");
    }
    assert_eq!(output, expected);
}

/// The peak resident memory of a running process, from `/proc/PID/status`, in KiB.
fn peak_resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmHWM line")
}

#[test]
fn lines_sent_during_a_search_do_not_pile_up_in_memory() {
    const LINES: usize = 200_000;
    // 200 MB of input in all: an unbounded queue held most of it (156 MB peak).
    let padding = "a".repeat(1000);
    let mut child = Process::new(env!("CARGO_BIN_EXE_hamle"))
        .args(["go", "--playouts", "5000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hamle");
    let stdin = child.stdin.take().expect("stdin");
    // The writer hands stdin back open, so that the engine still runs when it is measured.
    let writer = std::thread::spawn(move || -> io::Result<_> {
        let mut buffered = io::BufWriter::new(stdin);
        writeln!(buffered, "genmove b")?;
        for i in 0..LINES {
            writeln!(buffered, "{i} known_command {padding}")?;
        }
        buffered
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
    });
    let mut responses = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut next = || responses.next().expect("a line").expect("readable");
    let first = next();
    assert!(first.starts_with("= "), "{first}");
    assert_eq!(next(), "");
    for i in 0..LINES {
        assert_eq!(next(), format!("={i} false"));
        assert_eq!(next(), "");
    }
    let stdin = writer
        .join()
        .expect("writer thread")
        .expect("write the lines");
    let peak = peak_resident_kib(child.id());
    drop(stdin);
    assert!(child.wait().expect("exit").success());
    assert!(peak < 64 * 1024, "peak resident memory {peak} KiB");
}
