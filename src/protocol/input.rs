use std::io::{BufRead, ErrorKind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;

/// The longest command line accepted (16 MiB); a longer one is answered with an error
/// and skipped, so that a runaway client cannot exhaust memory.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// What the reader thread hands to the command loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A preprocessed, non-empty command line.
    Line(String),
    /// A line over [`MAX_LINE_BYTES`]; the id, if its start held one.
    TooLong(Option<String>),
}

/// Flags the reader thread raises while a command runs, so that a long search can stop.
#[derive(Debug, Default)]
pub struct Signals {
    gogui_interrupt: AtomicBool,
    pending_lines: AtomicUsize,
    pending_stops: AtomicUsize,
    /// The reader has seen the end of input (or a read error): no line will come.
    closed: AtomicBool,
}

impl Signals {
    pub fn new() -> Arc<Signals> {
        Arc::new(Signals::default())
    }

    /// GoGui's `# interrupt` arrived during the running command, or a `stop` waits
    /// behind it.
    pub fn interrupted(&self) -> bool {
        self.gogui_interrupt.load(Ordering::Acquire)
            || self.pending_stops.load(Ordering::Acquire) > 0
    }

    pub fn raise_interrupt(&self) {
        self.gogui_interrupt.store(true, Ordering::Release);
    }

    /// Whether a command line is waiting: analysis streams end on any input.
    pub fn input_pending(&self) -> bool {
        self.pending_lines.load(Ordering::Acquire) > 0
    }

    /// True once the input has ended: the command loop stops after the lines queued,
    /// so work meant to fill the wait for the next line (pondering) must stop too.
    pub fn input_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// True when whatever a running command or a ponder is doing should end: an
    /// interrupt, a waiting line, or the end of input.
    pub fn anything_arrived(&self) -> bool {
        self.interrupted() || self.input_pending() || self.input_closed()
    }

    fn close(&self) {
        self.closed.store(true, Ordering::Release);
    }

    fn line_queued(&self, line: &Input) {
        if matches!(line, Input::Line(text) if interrupts_search(text)) {
            self.pending_stops.fetch_add(1, Ordering::AcqRel);
        }
        self.pending_lines.fetch_add(1, Ordering::AcqRel);
    }

    /// Called by the command loop as it takes `line` off the queue to run it: an
    /// interrupt meant for the previous command must not stop this one.
    pub fn line_taken(&self, line: &Input) {
        let decrement = |n: usize| n.checked_sub(1);
        if matches!(line, Input::Line(text) if interrupts_search(text)) {
            let _ = self
                .pending_stops
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, decrement);
        }
        let _ = self
            .pending_lines
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, decrement);
        self.gogui_interrupt.store(false, Ordering::Release);
    }
}

/// GTP v2 §3.1: drop control characters but HT and LF, cut `#` comments, turn HT into
/// a space. Returns `None` for a line left blank, which gets no response.
pub fn preprocess(raw: &str) -> Option<String> {
    let uncommented = raw.split('#').next().unwrap_or("");
    let line: String = uncommented
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    if line.trim().is_empty() {
        None
    } else {
        Some(line)
    }
}

fn is_interrupt(raw: &str) -> bool {
    raw.trim_matches(|c: char| c.is_whitespace() || c.is_control()) == "# interrupt"
}

/// Commands that must reach a running search at once rather than wait their turn.
/// `quit` is not one: a script piped in whole ends in `quit`, and the searches before it
/// must run their full budget, or the same seed would give moves that depend on timing.
fn interrupts_search(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let first = words.next();
    let name = match first {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.next(),
        other => other,
    };
    name == Some("stop")
}

/// Reads `reader` on its own thread and sends each command line down a channel.
/// The channel closes at end of input, which the command loop treats as `quit`.
pub fn spawn_reader<R: BufRead + Send + 'static>(
    reader: R,
    signals: Arc<Signals>,
) -> Receiver<Input> {
    let (sender, receiver) = channel();
    thread::Builder::new()
        .name("stdin-reader".into())
        .spawn(move || {
            read_lines(reader, &signals, &sender);
            signals.close();
        })
        .map_err(|error| tracing::error!("cannot start the input thread: {error}"))
        .ok();
    receiver
}

fn read_lines<R: BufRead>(mut reader: R, signals: &Signals, sender: &Sender<Input>) {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let outcome = read_bounded_line(&mut reader, &mut buffer);
        let input = match outcome {
            Ok(LineRead::Eof) | Err(_) => return,
            Ok(LineRead::TooLong) => {
                let head = String::from_utf8_lossy(&buffer[..buffer.len().min(64)]).into_owned();
                let id = preprocess(&head).and_then(|line| {
                    line.split_whitespace()
                        .next()
                        .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
                        .map(str::to_owned)
                });
                Input::TooLong(id)
            }
            Ok(LineRead::Line) => {
                let raw = String::from_utf8_lossy(&buffer);
                if is_interrupt(&raw) {
                    signals.raise_interrupt();
                    continue;
                }
                match preprocess(&raw) {
                    Some(line) => Input::Line(line),
                    None => continue,
                }
            }
        };
        signals.line_queued(&input);
        if sender.send(input).is_err() {
            return;
        }
    }
}

enum LineRead {
    Line,
    TooLong,
    Eof,
}

/// Reads one line into `buffer` (without its LF), keeping at most [`MAX_LINE_BYTES`]
/// and discarding the rest of an over-long line.
fn read_bounded_line<R: BufRead>(
    reader: &mut R,
    buffer: &mut Vec<u8>,
) -> std::io::Result<LineRead> {
    let mut too_long = false;
    let mut saw_any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(error) if error.kind() == ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if chunk.is_empty() {
            return Ok(match (saw_any, too_long) {
                (false, _) => LineRead::Eof,
                (true, true) => LineRead::TooLong,
                (true, false) => LineRead::Line,
            });
        }
        saw_any = true;
        let (taken, found_newline) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (at, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buffer.len());
        if taken > room {
            too_long = true;
        }
        buffer.extend_from_slice(&chunk[..taken.min(room)]);
        reader.consume(if found_newline { taken + 1 } else { taken });
        if found_newline {
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn preprocessing_follows_gtp_3_1() {
        assert_eq!(preprocess("play b d4\r"), Some("play b d4".into()));
        assert_eq!(preprocess("play\tb\td4"), Some("play b d4".into()));
        assert_eq!(preprocess("name # a comment"), Some("name ".into()));
        assert_eq!(preprocess("# only a comment"), None);
        assert_eq!(preprocess("   \t "), None);
        assert_eq!(preprocess("na\u{7}me\u{0}"), Some("name".into()));
    }

    fn read_all(bytes: &[u8]) -> Vec<Input> {
        let signals = Signals::new();
        let receiver = spawn_reader(std::io::Cursor::new(bytes.to_vec()), signals);
        receiver.iter().collect()
    }

    #[test]
    fn reader_skips_blank_and_interrupt_lines_and_ends_at_eof() {
        let inputs = read_all(b"name\r\n\n# interrupt\n  # hi\n1 version");
        assert_eq!(
            inputs,
            vec![Input::Line("name".into()), Input::Line("1 version".into())]
        );
    }

    #[test]
    fn over_long_line_is_reported_and_skipped() {
        let mut bytes = b"42 play b ".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
        bytes.extend_from_slice(b"\nname\n");
        let inputs = read_all(&bytes);
        assert_eq!(
            inputs,
            vec![
                Input::TooLong(Some("42".into())),
                Input::Line("name".into())
            ]
        );
    }

    #[test]
    fn end_of_input_is_signalled_once_the_lines_are_sent() {
        let signals = Signals::new();
        let receiver = spawn_reader(std::io::Cursor::new(b"name\n".to_vec()), signals.clone());
        // The channel closes after the flag is set: once the lines are all read, it is.
        let inputs: Vec<Input> = receiver.iter().collect();
        assert_eq!(inputs, vec![Input::Line("name".into())]);
        assert!(signals.input_closed());
        assert!(signals.anything_arrived());
        signals.line_taken(&inputs[0]);
        assert!(!signals.input_pending() && !signals.interrupted());
        assert!(signals.anything_arrived(), "a closed input stays closed");
        // A fresh set of flags has seen nothing.
        assert!(!Signals::new().anything_arrived());
    }

    #[test]
    fn stop_raises_the_interrupt_flag_and_quit_waits_its_turn() {
        let signals = Signals::new();
        let receiver = spawn_reader(std::io::Cursor::new(b"5 quit\n".to_vec()), signals.clone());
        let inputs: Vec<Input> = receiver.iter().collect();
        assert_eq!(inputs, vec![Input::Line("5 quit".into())]);
        assert!(!signals.interrupted());
        assert!(signals.input_pending());
        signals.line_taken(&inputs[0]);

        let signals = Signals::new();
        let receiver = spawn_reader(std::io::Cursor::new(b"5 stop\n".to_vec()), signals.clone());
        let inputs: Vec<Input> = receiver.iter().collect();
        assert_eq!(inputs, vec![Input::Line("5 stop".into())]);
        assert!(signals.interrupted());
        assert!(signals.input_pending());
        signals.line_taken(&inputs[0]);
        assert!(!signals.interrupted());
        assert!(!signals.input_pending());
    }
}
