//! The viewer contract: how a game turns one of its records into pictures, in no game's
//! words.
//!
//! A game implements [`RecordViewer`] beside its referee: it reads a record into the
//! positions after each move ([`Replay`]) and draws a position as an SVG string. The
//! blanket [`Viewer`] implementation renders every position, so the page generator (top
//! floor) holds a `&dyn Viewer` from the registry and names no game. A sixth game gets a
//! viewer page by implementing [`RecordViewer`] and adding one line to the registry.

use std::fmt::Write;

/// One position of a replayed record, with the move that led to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Step<P> {
    pub position: P,
    /// The move as the record writes it; `None` for the start position.
    pub mv: Option<String>,
    /// Who made that move, in the game's words (`Black`, `South`).
    pub mover: Option<String>,
    /// Anything else the record says of the move (Tavla's dice, Mangala's set).
    pub note: String,
}

/// Where a damaged record stopped being readable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordProblem {
    /// The line (from 1) the reader could not use, when it knows it.
    pub line: Option<usize>,
    pub message: String,
}

impl RecordProblem {
    pub fn at(line: usize, message: impl Into<String>) -> RecordProblem {
        RecordProblem {
            line: Some(line),
            message: message.into(),
        }
    }

    pub fn whole(message: impl Into<String>) -> RecordProblem {
        RecordProblem {
            line: None,
            message: message.into(),
        }
    }
}

/// What a record says besides its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordHeader {
    /// Each seat's side in the game's words and the player's name, first seat first.
    pub players: Vec<(String, String)>,
    /// The result as written (`B+3.5`, `W+R`, `0`, `*` when none).
    pub result: String,
    /// The record's free comment (the arena writes the reason the game ended there).
    pub comment: String,
    /// Other settings worth showing (`Layout`, `Komi`, …), in record order.
    pub settings: Vec<(String, String)>,
}

/// A record read as far as it could be: the positions from the start, and the problem
/// that stopped the reading, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay<P> {
    pub header: RecordHeader,
    pub steps: Vec<Step<P>>,
    pub problem: Option<RecordProblem>,
}

impl<P> Replay<P> {
    /// A record whose start cannot be set up: no steps, and why.
    pub fn unreadable(header: RecordHeader, message: impl Into<String>) -> Replay<P> {
        Replay {
            header,
            steps: Vec::new(),
            problem: Some(RecordProblem::whole(message)),
        }
    }
}

/// The `[Key "value"]` lines of a text record alone: what sets up its start, so that a
/// viewer can replay the moves itself, line by line, and name the line that fails.
pub fn tag_lines(text: &str) -> String {
    text.lines()
        .filter(|line| line.starts_with('['))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The move lines of a text record numbered as `12. e4 d5`: each line's number in the
/// file (from 1) and its moves, the move number left out.
pub fn numbered_move_lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(index, line)| {
        let mut words = line.split_whitespace();
        let numbered = !line.starts_with('[') && words.next().is_some_and(|w| w.ends_with('.'));
        numbered.then(|| (index + 1, words.collect()))
    })
}

/// Replays a text record's numbered move lines after the `start` step: `play` applies one
/// move and gives the step after it, or says why the move is not legal; the first such
/// move ends the replay, naming its line.
pub fn replay_numbered<P>(
    header: RecordHeader,
    start: Step<P>,
    text: &str,
    mut play: impl FnMut(&str) -> Result<Step<P>, String>,
) -> Replay<P> {
    let mut steps = vec![start];
    for (line, moves) in numbered_move_lines(text) {
        for answer in moves {
            match play(answer) {
                Ok(step) => steps.push(step),
                Err(why) => {
                    return Replay {
                        header,
                        steps,
                        problem: Some(RecordProblem::at(line, why)),
                    };
                }
            }
        }
    }
    Replay {
        header,
        steps,
        problem: None,
    }
}

/// A game's side of the viewer: read its records, draw its positions.
pub trait RecordViewer: Send + Sync {
    /// A position as drawn, with what the picture marks (the last move).
    type Position;

    /// The game's name (`go`, `tavla`, …), as the registry names it.
    fn game(&self) -> &'static str;

    /// Whether `text`, read from a file whose name ends in `extension` (lowercase, no
    /// dot), is one of this game's records.
    fn recognizes(&self, text: &str, extension: &str) -> bool;

    /// Reads the record and replays its moves. Never fails: a damaged record gives the
    /// positions before the damage and the problem; a record with no readable start gives
    /// no steps at all.
    fn replay(&self, text: &str) -> Replay<Self::Position>;

    /// The position as a standalone `<svg>` element. Each piece carries a class naming
    /// it (`stone black`, `checker white`, …) so that a page can be checked piece by piece.
    fn svg(&self, position: &Self::Position) -> String;
}

/// One step of a record ready to show: the move and its picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub mv: Option<String>,
    pub mover: Option<String>,
    pub note: String,
    pub svg: String,
}

/// A record ready to show.
#[derive(Clone, Debug, PartialEq)]
pub struct GameView {
    pub game: &'static str,
    pub header: RecordHeader,
    pub frames: Vec<Frame>,
    pub problem: Option<RecordProblem>,
}

/// A viewer behind the contract, as the registry hands it out.
pub trait Viewer: Send + Sync {
    fn game(&self) -> &'static str;
    fn recognizes(&self, text: &str, extension: &str) -> bool;
    /// The record read and every position drawn.
    fn view(&self, text: &str) -> GameView;
}

impl<V: RecordViewer> Viewer for V {
    fn game(&self) -> &'static str {
        RecordViewer::game(self)
    }

    fn recognizes(&self, text: &str, extension: &str) -> bool {
        RecordViewer::recognizes(self, text, extension)
    }

    fn view(&self, text: &str) -> GameView {
        let replay = self.replay(text);
        let frames = replay
            .steps
            .iter()
            .map(|step| Frame {
                mv: step.mv.clone(),
                mover: step.mover.clone(),
                note: step.note.clone(),
                svg: self.svg(&step.position),
            })
            .collect();
        GameView {
            game: RecordViewer::game(self),
            header: replay.header,
            frames,
            problem: replay.problem,
        }
    }
}

/// Text for SVG or HTML: `&`, `<`, `>` and `"` escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped(&mut out, text);
    out
}

/// [`escape`] onto the end of `out`: a page escapes thousands of words, most of which
/// need nothing.
pub fn push_escaped(out: &mut String, text: &str) {
    let mut plain_from = 0;
    for (at, c) in text.char_indices() {
        let entity = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            _ => continue,
        };
        out.push_str(&text[plain_from..at]);
        out.push_str(entity);
        plain_from = at + 1;
    }
    out.push_str(&text[plain_from..]);
}

/// A number for SVG: at most two decimals, no trailing zeros (`1`, `9.55`, `0.4`), as the
/// pages hold hundreds of boards. Rounded in hundredths with integers: a page draws
/// thousands of numbers, and exact float formatting was a tenth of a fast match's time.
pub fn num(value: f64) -> String {
    let mut out = String::new();
    push_num(&mut out, value);
    out
}

/// [`num`] onto the end of `out`, with no allocation of its own.
pub fn push_num(out: &mut String, value: f64) {
    let hundredths = (value * 100.0).round();
    if !hundredths.is_finite() || hundredths.abs() >= 1e15 {
        let _ = write!(out, "{value}");
        return;
    }
    // In range: |hundredths| < 1e15 fits an i64 exactly.
    let hundredths = hundredths as i64;
    let (whole, fraction) = (
        hundredths.unsigned_abs() / 100,
        hundredths.unsigned_abs() % 100,
    );
    if hundredths < 0 {
        out.push('-');
    }
    push_digits(out, whole);
    match fraction {
        0 => {}
        tenths if tenths % 10 == 0 => {
            out.push('.');
            push_digits(out, tenths / 10);
        }
        _ => {
            out.push('.');
            out.push(char::from(b'0' + (fraction / 10) as u8));
            out.push(char::from(b'0' + (fraction % 10) as u8));
        }
    }
}

/// The decimal digits of `n`.
fn push_digits(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &digit in &digits[at..] {
        out.push(char::from(digit));
    }
}

/// A point of a drawing, in its user units.
pub type Point = (f64, f64);

/// A straight segment from one point to another.
pub type Segment = (Point, Point);

/// A small SVG writer: the games' drawings share its opening tag and shapes, so every
/// board scales to its box and every piece is marked the same way. It writes straight
/// into its text, without formatting machinery: a fast match draws a few hundred boards a
/// game, and drawing them was the largest part of its time.
pub struct Svg {
    text: String,
}

impl Svg {
    /// An `<svg>` of `width` × `height` user units, scaling to the width of its box. No
    /// namespace: the drawing is inline in an HTML page, which needs none.
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let mut svg = Svg {
            text: String::with_capacity(4096),
        };
        svg.text.push_str("<svg class=\"board\" viewBox=\"0 0 ");
        push_num(&mut svg.text, width);
        svg.text.push(' ');
        push_num(&mut svg.text, height);
        svg.text.push_str("\" role=\"img\" aria-label=\"");
        push_escaped(&mut svg.text, title);
        svg.text.push_str(
            "\" font-family=\"sans-serif\" text-anchor=\"middle\" dominant-baseline=\"central\">",
        );
        svg
    }

    /// ` name="value"`, the value a number.
    fn number(&mut self, name: &str, value: f64) {
        self.text.push(' ');
        self.text.push_str(name);
        self.text.push_str("=\"");
        push_num(&mut self.text, value);
        self.text.push('"');
    }

    /// ` name="value"`, the value text (escaped).
    fn word(&mut self, name: &str, value: &str) {
        self.text.push(' ');
        self.text.push_str(name);
        self.text.push_str("=\"");
        push_escaped(&mut self.text, value);
        self.text.push('"');
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, class: &str) {
        self.text.push_str("<rect");
        self.word("class", class);
        self.number("x", x);
        self.number("y", y);
        self.number("width", w);
        self.number("height", h);
        self.word("fill", fill);
        self.text
            .push_str(" stroke=\"#333\" stroke-width=\".02\"/>");
    }

    /// Straight segments drawn as one path, `width` units wide.
    pub fn lines(&mut self, segments: &[Segment], width: f64) {
        self.text.push_str("<path d=\"");
        for (a, b) in segments {
            self.text.push('M');
            push_num(&mut self.text, a.0);
            self.text.push(' ');
            push_num(&mut self.text, a.1);
            self.text.push('L');
            push_num(&mut self.text, b.0);
            self.text.push(' ');
            push_num(&mut self.text, b.1);
        }
        self.text.push_str("\" stroke=\"#222\"");
        self.number("stroke-width", width);
        self.text.push_str(" fill=\"none\"/>");
    }

    /// A round piece: `class` names it (`stone black`), `fill` and `stroke` draw it.
    pub fn circle(&mut self, centre: (f64, f64), r: f64, fill: &str, stroke: &str, class: &str) {
        self.text.push_str("<circle");
        self.word("class", class);
        self.number("cx", centre.0);
        self.number("cy", centre.1);
        self.number("r", r);
        self.word("fill", fill);
        self.word("stroke", stroke);
        self.number("stroke-width", (r / 8.0).max(0.02));
        self.text.push_str("/>");
    }

    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str, class: &str) {
        self.text.push_str("<polygon");
        self.word("class", class);
        self.text.push_str(" points=\"");
        for (index, (x, y)) in points.iter().enumerate() {
            if index > 0 {
                self.text.push(' ');
            }
            push_num(&mut self.text, *x);
            self.text.push(',');
            push_num(&mut self.text, *y);
        }
        self.text.push('"');
        self.word("fill", fill);
        self.text
            .push_str(" stroke=\"#333\" stroke-width=\".02\"/>");
    }

    /// Centred text of `size` units at `at`.
    pub fn text(&mut self, at: (f64, f64), size: f64, fill: &str, class: &str, text: &str) {
        self.text.push_str("<text");
        self.word("class", class);
        self.number("x", at.0);
        self.number("y", at.1);
        self.number("font-size", size);
        self.word("fill", fill);
        self.text.push('>');
        push_escaped(&mut self.text, text);
        self.text.push_str("</text>");
    }

    /// Many labels of one size and colour (coordinates), in one group.
    pub fn labels(&mut self, labels: &[((f64, f64), String)], size: f64, fill: &str) {
        self.text.push_str("<g class=\"coord\"");
        self.number("font-size", size);
        self.word("fill", fill);
        self.text.push('>');
        for ((x, y), text) in labels {
            self.text.push_str("<text");
            self.number("x", *x);
            self.number("y", *y);
            self.text.push('>');
            push_escaped(&mut self.text, text);
            self.text.push_str("</text>");
        }
        self.text.push_str("</g>");
    }

    pub fn finish(mut self) -> String {
        self.text.push_str("</svg>");
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Counter;

    impl RecordViewer for Counter {
        type Position = u32;

        fn game(&self) -> &'static str {
            "counter"
        }

        fn recognizes(&self, text: &str, _extension: &str) -> bool {
            text.starts_with("count")
        }

        fn replay(&self, text: &str) -> Replay<u32> {
            let mut steps = vec![Step {
                position: 0,
                mv: None,
                mover: None,
                note: String::new(),
            }];
            let mut problem = None;
            for (index, line) in text.lines().enumerate().skip(1) {
                match line.parse::<u32>() {
                    Ok(n) => steps.push(Step {
                        position: n,
                        mv: Some(line.to_owned()),
                        mover: None,
                        note: String::new(),
                    }),
                    Err(_) => {
                        problem = Some(RecordProblem::at(index + 1, "not a number"));
                        break;
                    }
                }
            }
            Replay {
                header: RecordHeader::default(),
                steps,
                problem,
            }
        }

        fn svg(&self, position: &u32) -> String {
            let mut svg = Svg::new(1.0, 1.0, "count");
            svg.text((0.5, 0.5), 0.5, "#000", "count", &position.to_string());
            svg.finish()
        }
    }

    #[test]
    fn numbers_have_at_most_two_decimals_and_no_trailing_zeros() {
        let cases = [
            (0.0, "0"),
            (-0.001, "0"),
            (1.0, "1"),
            (9.55, "9.55"),
            (0.4, "0.4"),
            (-0.5, "-0.5"),
            (2.999, "3"),
            (10.05, "10.05"),
            (123_456.7, "123456.7"),
            (-40.0, "-40"),
        ];
        for (value, text) in cases {
            assert_eq!(num(value), text, "{value}");
        }
        assert_eq!(num(f64::INFINITY), "inf");
    }

    #[test]
    fn text_is_escaped_for_attributes_and_elements() {
        assert_eq!(escape("plain"), "plain");
        assert_eq!(escape("a<b & \"c\">é"), "a&lt;b &amp; &quot;c&quot;&gt;é");
        let mut svg = Svg::new(1.0, 1.0, "t");
        svg.text((0.5, 0.25), 0.1, "#000", "x\"y", "<3");
        let drawn = svg.finish();
        assert!(
            drawn.contains("<text class=\"x&quot;y\" x=\"0.5\" y=\"0.25\" font-size=\"0.1\" fill=\"#000\">&lt;3</text>"),
            "{drawn}"
        );
    }

    #[test]
    fn every_readable_step_is_drawn_and_the_damage_is_named() {
        let viewer: &dyn Viewer = &Counter;
        assert!(viewer.recognizes("count\n", "txt"));
        let view = viewer.view("count\n3\n<x>\n4\n");
        assert_eq!(view.frames.len(), 2);
        assert!(
            view.frames[1].svg.contains(">3</text>"),
            "{:?}",
            view.frames
        );
        assert_eq!(
            (num(1.0), num(9.549), num(0.4), num(-0.001)),
            ("1".into(), "9.55".into(), "0.4".into(), "0".into())
        );
        assert_eq!(
            (num(-2.5), num(12.05), num(-0.07), num(100.0), num(f64::NAN)),
            (
                "-2.5".into(),
                "12.05".into(),
                "-0.07".into(),
                "100".into(),
                "NaN".into()
            )
        );
        assert_eq!(view.problem, Some(RecordProblem::at(3, "not a number")));
        assert_eq!(
            escape("<a href=\"x\">&"),
            "&lt;a href=&quot;x&quot;&gt;&amp;"
        );
    }
}
