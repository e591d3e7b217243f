//! Reading a line protocol's input: the line reader every protocol shares (a bound on a
//! line, bytes that are not UTF-8 replaced), GTP's preprocessing (§3.1), and GTP's stdin
//! reader thread with the flags it raises for a running search.

use std::io::{self, BufRead, ErrorKind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;

/// The longest command line accepted (16 MiB); a longer one is answered with an error
/// and skipped, so that a runaway client cannot exhaust memory.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// How many command lines the stdin reader queues ahead of the command loop. Past that,
/// the reader waits for the loop to take one, and a client writing faster than the engine
/// answers waits on its pipe instead of the engine holding its input in memory (200k lines
/// sent during one search held 300 MB). No controller sends this many lines ahead.
pub const INPUT_QUEUE_LINES: usize = 1024;

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
    /// A blank or comment-only line came since the last command was taken: it gets no
    /// answer, but it is input, so it ends an analysis stream or a ponder (§1).
    blank_line: AtomicBool,
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

    /// Whether a line came that the running command has not taken (a command waiting, or
    /// a blank or comment-only line): analysis streams end on any input.
    pub fn input_pending(&self) -> bool {
        self.pending_lines.load(Ordering::Acquire) > 0 || self.blank_line.load(Ordering::Acquire)
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

    /// The command loop read `input` itself (nothing was queued): an interrupt raised
    /// before it was meant for the previous command.
    pub fn direct_line_taken(&self) {
        self.gogui_interrupt.store(false, Ordering::Release);
        self.blank_line.store(false, Ordering::Release);
    }

    pub(super) fn close(&self) {
        self.closed.store(true, Ordering::Release);
    }

    pub(super) fn line_queued(&self, line: &Input) {
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
        self.blank_line.store(false, Ordering::Release);
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

/// Reads `reader` on its own thread and sends each command line down a channel that holds
/// at most [`INPUT_QUEUE_LINES`]. The channel closes at end of input, which the command
/// loop treats as `quit`.
///
/// The flags a search polls are raised as each line is read, before it waits for room in
/// the queue: a full queue still shows a line pending, and a `stop` the reader holds while
/// waiting still interrupts. A `stop` further behind in the input is read when the queue
/// has room again.
pub fn spawn_reader<R: BufRead + Send + 'static>(
    reader: R,
    signals: Arc<Signals>,
) -> Receiver<Input> {
    let (sender, receiver) = sync_channel(INPUT_QUEUE_LINES);
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

fn read_lines<R: BufRead>(reader: R, signals: &Signals, sender: &SyncSender<Input>) {
    for line in LineReader::new(reader) {
        let input = match line {
            Err(_) => return,
            Ok(line) => match classify(line, signals) {
                Some(input) => input,
                None => continue,
            },
        };
        // Raised before the send, which waits while the queue is full.
        signals.line_queued(&input);
        if sender.send(input).is_err() {
            return;
        }
    }
}

/// What the command loop gets of a line read: a command, or nothing for a blank line or
/// GoGui's `# interrupt` (which raises its flag instead).
pub fn classify(line: RawLine, signals: &Signals) -> Option<Input> {
    match line {
        RawLine::TooLong(head) => Some(Input::TooLong(leading_id(&head))),
        RawLine::Text(raw) => {
            if is_interrupt(&raw) {
                signals.raise_interrupt();
                return None;
            }
            let line = preprocess(&raw).map(Input::Line);
            if line.is_none() {
                signals.blank_line.store(true, Ordering::Release);
            }
            line
        }
    }
}

/// The id at the start of an over-long line, if it held one, so that the error answer
/// carries it.
fn leading_id(head: &str) -> Option<String> {
    preprocess(head).and_then(|line| {
        line.split_whitespace()
            .next()
            .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
            .map(str::to_owned)
    })
}

/// How many bytes of an over-long line [`LineReader`] keeps to say what it was: enough
/// for an id or a command name, little enough to quote in an error.
pub const LINE_HEAD_BYTES: usize = 64;

/// A buffer grown past this by a long line is given back once the line is read, so that
/// one long line does not keep megabytes for the rest of the session.
const KEEP_BUFFER_BYTES: usize = 64 * 1024;

/// One line as [`LineReader`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawLine {
    /// A whole line without its LF; bytes that are not UTF-8 became U+FFFD.
    Text(String),
    /// A line over the reader's limit, skipped up to its LF: its first
    /// [`LINE_HEAD_BYTES`] bytes, decoded the same way, so that the answer can name it.
    TooLong(String),
}

/// The one way every line protocol (GTP, UBGI, gnubg's external player socket) reads its
/// input: at most a limit of bytes a line ([`MAX_LINE_BYTES`] unless told), the rest of an
/// over-long line discarded up to its LF rather than buffered, bytes that are not UTF-8
/// replaced rather than fatal. A protocol answers [`RawLine::TooLong`] with its own error
/// and reads on.
pub struct LineReader<R> {
    reader: R,
    limit: usize,
    buffer: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader with the limit [`MAX_LINE_BYTES`].
    pub fn new(reader: R) -> LineReader<R> {
        LineReader::with_limit(reader, MAX_LINE_BYTES)
    }

    /// A reader that keeps at most `limit` bytes of a line.
    pub fn with_limit(reader: R, limit: usize) -> LineReader<R> {
        LineReader {
            reader,
            limit,
            buffer: Vec::new(),
        }
    }

    /// The next line, `Ok(None)` at the end of input. A last line without its LF is a line.
    pub fn read_line(&mut self) -> io::Result<Option<RawLine>> {
        self.buffer.clear();
        let outcome = read_bounded_line(&mut self.reader, &mut self.buffer, self.limit)?;
        let line = match outcome {
            LineRead::Eof => None,
            LineRead::Line => Some(RawLine::Text(
                String::from_utf8_lossy(&self.buffer).into_owned(),
            )),
            LineRead::TooLong => {
                let head = &self.buffer[..self.buffer.len().min(LINE_HEAD_BYTES)];
                Some(RawLine::TooLong(String::from_utf8_lossy(head).into_owned()))
            }
        };
        if self.buffer.capacity() > KEEP_BUFFER_BYTES {
            self.buffer = Vec::new();
        }
        Ok(line)
    }
}

impl<T: io::Read> LineReader<io::BufReader<T>> {
    /// Whether a whole line already waits in the buffer (reading it cannot block).
    pub fn has_buffered_line(&self) -> bool {
        self.reader.buffer().contains(&b'\n')
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = io::Result<RawLine>;

    fn next(&mut self) -> Option<io::Result<RawLine>> {
        self.read_line().transpose()
    }
}

enum LineRead {
    Line,
    TooLong,
    Eof,
}

/// Reads one line into `buffer` (without its LF), keeping at most `limit` bytes and
/// discarding the rest of an over-long line.
fn read_bounded_line<R: BufRead>(
    reader: &mut R,
    buffer: &mut Vec<u8>,
    limit: usize,
) -> io::Result<LineRead> {
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
        let room = limit.saturating_sub(buffer.len());
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
    fn a_blank_or_comment_line_is_input_until_the_next_command_is_taken() {
        for blank in ["", "   ", "# only a comment"] {
            let signals = Signals::new();
            assert!(classify(RawLine::Text(blank.into()), &signals).is_none());
            assert!(signals.input_pending(), "{blank:?} ends a stream");
            assert!(!signals.interrupted(), "{blank:?} stops no search");
            signals.direct_line_taken();
            assert!(!signals.input_pending());
        }
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

    fn lines_with_limit(bytes: &[u8], limit: usize) -> Vec<RawLine> {
        LineReader::with_limit(bytes, limit)
            .collect::<io::Result<Vec<_>>>()
            .expect("reading a slice cannot fail")
    }

    #[test]
    fn line_reader_keeps_lines_whole_and_replaces_bad_bytes() {
        let text = |t: &str| RawLine::Text(t.into());
        assert_eq!(
            lines_with_limit(b"one\r\n\ntw\xffo\nlast", 16),
            vec![text("one\r"), text(""), text("tw\u{fffd}o"), text("last")]
        );
        assert_eq!(lines_with_limit(b"", 16), vec![]);
    }

    #[test]
    fn line_reader_skips_the_rest_of_an_over_long_line() {
        let text = |t: &str| RawLine::Text(t.into());
        // Exactly the limit is a line; one byte more is too long, with or without its LF.
        assert_eq!(
            lines_with_limit(b"12345678\n123456789\nnext\n123456789", 8),
            vec![
                text("12345678"),
                RawLine::TooLong("12345678".into()),
                text("next"),
                RawLine::TooLong("12345678".into()),
            ]
        );
        // The head quoted is at most LINE_HEAD_BYTES, decoded like any line.
        let mut long = b"\xff".to_vec();
        long.extend(std::iter::repeat_n(b'x', 500));
        long.extend_from_slice(b"\nafter");
        let lines = lines_with_limit(&long, 100);
        let RawLine::TooLong(head) = &lines[0] else {
            panic!("{lines:?}")
        };
        assert!(head.starts_with('\u{fffd}') && head.chars().count() == LINE_HEAD_BYTES);
        assert_eq!(lines[1], text("after"));
    }

    #[test]
    fn line_reader_never_holds_more_than_its_limit() {
        let mut bytes = vec![b'x'; 100_000];
        bytes.extend_from_slice(b"\nnext\n");
        let mut reader = LineReader::with_limit(bytes.as_slice(), 1000);
        assert!(matches!(reader.read_line(), Ok(Some(RawLine::TooLong(_)))));
        assert_eq!(reader.buffer.len(), 1000);
        assert_eq!(
            reader.read_line().ok().flatten(),
            Some(RawLine::Text("next".into()))
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
