//! Every position's board, written compactly: a page of a long game would otherwise repeat
//! the same board almost whole once a move (a 250-move Mangala game was 850 KB).
//!
//! Each board's SVG is cut into parts, one before each opening tag (so a part is an element
//! with its text and the closing tags after it; the parts joined are the SVG again, byte for
//! byte). Every distinct part is written once, as the numbers of its words (split at
//! spaces; every distinct word written once too: the parts of one board share their tags,
//! attributes and coordinates); the first board as the list of its parts' numbers, every
//! later one as the edits that make its list from the one before (Myers' diff: at, how many
//! removed, how many added, then the added numbers). The page's script rebuilds each board
//! from them. Nothing here knows a game.

use std::collections::HashMap;
use std::fmt::Write;

/// A diff further apart than this many edits is written as the whole list instead: it would
/// cost more to find than it saves.
const MAX_EDITS: usize = 256;

/// The JSON object `{"words":[…],"parts":[[…],…],"first":[…],"edits":[[…],…],"status":[…]}`
/// of `svgs` and `status` (one text a board, written as it is), with every `<` written
/// `\u003c` so that it can sit inside a `<script>` element.
pub fn encode(svgs: &[&str], status: &[String]) -> String {
    let mut numbers: HashMap<&str, u32> = HashMap::new();
    let mut parts: Vec<&str> = Vec::new();
    let lists: Vec<Vec<u32>> = svgs
        .iter()
        .map(|svg| {
            split(svg)
                .into_iter()
                .map(|part| {
                    *numbers.entry(part).or_insert_with(|| {
                        parts.push(part);
                        (parts.len() - 1) as u32
                    })
                })
                .collect()
        })
        .collect();
    let mut word_numbers: HashMap<&str, u32> = HashMap::new();
    let mut words: Vec<&str> = Vec::new();
    let part_words: Vec<Vec<u32>> = parts
        .iter()
        .map(|part| {
            part.split(' ')
                .map(|word| {
                    *word_numbers.entry(word).or_insert_with(|| {
                        words.push(word);
                        (words.len() - 1) as u32
                    })
                })
                .collect()
        })
        .collect();
    let mut json = String::from("{\"words\":");
    strings_array(&mut json, &words);
    json.push_str(",\"parts\":[");
    for (index, part) in part_words.iter().enumerate() {
        if index > 0 {
            json.push(',');
        }
        numbers_array(&mut json, part);
    }
    json.push_str("],\"first\":");
    numbers_array(&mut json, lists.first().map_or(&[][..], Vec::as_slice));
    json.push_str(",\"edits\":[");
    for (index, pair) in lists.windows(2).enumerate() {
        if index > 0 {
            json.push(',');
        }
        numbers_array(&mut json, &edits(&pair[0], &pair[1]));
    }
    json.push_str("],\"status\":");
    strings_array(&mut json, status);
    json.push('}');
    json
}

/// `strings` as a JSON array, `<` written `\u003c` as in [`encode`].
pub fn strings_json<S: AsRef<str>>(strings: &[S]) -> String {
    let mut json = String::new();
    strings_array(&mut json, strings);
    json
}

fn strings_array<S: AsRef<str>>(json: &mut String, strings: &[S]) {
    json.push('[');
    for (index, text) in strings.iter().enumerate() {
        if index > 0 {
            json.push(',');
        }
        json_string(json, text.as_ref());
    }
    json.push(']');
}

/// The SVG cut before each opening tag.
fn split(svg: &str) -> Vec<&str> {
    let bytes = svg.as_bytes();
    let mut parts = Vec::new();
    let mut start = 0;
    for at in 1..bytes.len() {
        if bytes[at] == b'<' && bytes.get(at + 1) != Some(&b'/') {
            parts.push(&svg[start..at]);
            start = at;
        }
    }
    if start < svg.len() {
        parts.push(&svg[start..]);
    }
    parts
}

/// The edits that make `new` from `old`, flat: for each, where in `old` (before any edit),
/// how many of `old` it removes, how many it adds, and the added numbers.
fn edits(old: &[u32], new: &[u32]) -> Vec<u32> {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let script = myers(a, b).unwrap_or_else(|| vec![(0, a.len(), 0, b.len())]);
    let mut flat = Vec::new();
    for (at, removed, from, added) in script {
        flat.extend([(head + at) as u32, removed as u32, added as u32]);
        flat.extend_from_slice(&b[from..from + added]);
    }
    flat
}

/// Myers' shortest edit script from `a` to `b` as runs `(at in a, removed, from in b,
/// added)`, or `None` past [`MAX_EDITS`].
fn myers(a: &[u32], b: &[u32]) -> Option<Vec<(usize, usize, usize, usize)>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let offset = n + m + 1;
    let mut v = vec![0isize; 2 * offset as usize + 1];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut found = false;
    for d in 0..=(n + m).min(MAX_EDITS as isize) {
        trace.push(v.clone());
        for k in (-d..=d).step_by(2) {
            let index = (k + offset) as usize;
            let mut x = if k == -d || (k != d && v[index - 1] < v[index + 1]) {
                v[index + 1]
            } else {
                v[index - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[index] = x;
            if x >= n && y >= m {
                found = true;
                break;
            }
        }
        if found {
            break;
        }
    }
    if !found {
        return None;
    }
    // Walk back through the trace: each step one removal or one addition.
    let (mut x, mut y) = (n, m);
    let mut steps: Vec<(bool, usize, usize)> = Vec::new();
    for (d, v) in trace.iter().enumerate().rev() {
        let d = d as isize;
        if d == 0 {
            break;
        }
        let k = x - y;
        let index = (k + offset) as usize;
        let down = k == -d || (k != d && v[index - 1] < v[index + 1]);
        let previous_k = if down { k + 1 } else { k - 1 };
        let previous_x = v[(previous_k + offset) as usize];
        let previous_y = previous_x - previous_k;
        while x > previous_x && y > previous_y {
            x -= 1;
            y -= 1;
        }
        // `down`: b[previous_y] added at a[previous_x]; else a[previous_x] removed.
        steps.push((down, previous_x as usize, previous_y as usize));
        x = previous_x;
        y = previous_y;
    }
    steps.reverse();
    let mut runs: Vec<(usize, usize, usize, usize)> = Vec::new();
    for (added, at, from) in steps {
        let (removed, count) = if added { (0, 1) } else { (1, 0) };
        match runs.last_mut() {
            // Next to the run before: removals go on from where it ended in `a`, additions
            // from where they ended in `b`.
            Some(run) if run.0 + run.1 == at && run.2 + run.3 == from => {
                run.1 += removed;
                run.3 += count;
            }
            _ => runs.push((at, removed, from, count)),
        }
    }
    Some(runs)
}

fn numbers_array(json: &mut String, numbers: &[u32]) {
    json.push('[');
    for (index, number) in numbers.iter().enumerate() {
        if index > 0 {
            json.push(',');
        }
        let _ = write!(json, "{number}");
    }
    json.push(']');
}

/// `text` as a JSON string, `<` escaped too (no `</script>` can end the element early).
fn json_string(json: &mut String, text: &str) {
    json.push('"');
    for c in text.chars() {
        match c {
            '"' => json.push_str("\\\""),
            '\\' => json.push_str("\\\\"),
            '<' => json.push_str("\\u003c"),
            c if (c as u32) < 0x20 => {
                let _ = write!(json, "\\u{:04x}", c as u32);
            }
            c => json.push(c),
        }
    }
    json.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies the flat edits to `old` as the page's script does (last edit first, so that
    /// each `at` is still a place in `old`).
    fn apply(old: &[u32], flat: &[u32]) -> Vec<u32> {
        let mut edits = Vec::new();
        let mut i = 0;
        while i < flat.len() {
            let (at, removed, added) =
                (flat[i] as usize, flat[i + 1] as usize, flat[i + 2] as usize);
            edits.push((at, removed, flat[i + 3..i + 3 + added].to_vec()));
            i += 3 + added;
        }
        let mut list = old.to_vec();
        for (at, removed, added) in edits.into_iter().rev() {
            list.splice(at..at + removed, added);
        }
        list
    }

    #[test]
    fn parts_join_to_the_svg() {
        let svg = "<svg a=\"1\"><g><circle r=\"2\"/><text x=\"1\">3 &lt; 4</text></g></svg>";
        let parts = split(svg);
        assert_eq!(parts.concat(), svg);
        let json = encode(&[svg, svg], &["a </script>".to_owned()]);
        assert!(!json.contains('<'), "{json}");
        assert!(
            json.ends_with(",\"edits\":[[]],\"status\":[\"a \\u003c/script>\"]}"),
            "{json}"
        );
        assert_eq!(parts[3], "<text x=\"1\">3 &lt; 4</text></g></svg>");
    }

    #[test]
    fn edits_rebuild_every_list() {
        let cases: [(&[u32], &[u32]); 6] = [
            (&[1, 2, 3, 4, 5], &[1, 2, 9, 4, 5, 7]),
            (&[], &[1, 2]),
            (&[1, 2], &[]),
            (&[1, 2, 3], &[3, 2, 1]),
            (&[5, 1, 5, 2, 5, 3], &[1, 5, 2, 5, 3, 5, 8]),
            (&[1, 2, 3, 4, 5, 6, 7, 8], &[1, 3, 4, 9, 6, 8, 10]),
        ];
        for (old, new) in cases {
            assert_eq!(apply(old, &edits(old, new)), new, "{old:?} → {new:?}");
        }
        // A change in one place costs one edit, not the rest of the list.
        let old: Vec<u32> = (0..300).collect();
        let mut new = old.clone();
        new[10] = 1000;
        new.push(1001);
        assert_eq!(edits(&old, &new), [10, 1, 1, 1000, 300, 0, 1, 1001]);
    }
}
