//! The game-independent SGF layer: collections, game trees, nodes and properties.

use std::fmt;

use super::error::SgfError;
use super::parse::{NodeView, Sink, parse};

/// One node: its properties in file order, values unescaped.
///
/// Identifiers are uppercase (`AB`, `KM`); a property written twice in one node,
/// as some old programs do, stays two entries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub properties: Vec<(String, Vec<String>)>,
}

impl Node {
    /// The values of the first property called `ident`.
    pub fn get(&self, ident: &str) -> Option<&[String]> {
        self.properties
            .iter()
            .find(|(id, _)| id == ident)
            .map(|(_, values)| values.as_slice())
    }

    /// The first value of the first property called `ident`.
    pub fn first(&self, ident: &str) -> Option<&str> {
        self.get(ident)
            .and_then(|values| values.first())
            .map(String::as_str)
    }

    /// Appends a property with one value.
    pub fn push(&mut self, ident: impl Into<String>, value: impl Into<String>) {
        self.properties.push((ident.into(), vec![value.into()]));
    }
}

/// A game tree: a sequence of nodes followed by its variations.
///
/// `Clone`, `PartialEq`, `Debug` and `Drop` are written by hand to run without
/// recursion: derived ones descend once per nesting level and overflow a thread's
/// stack on trees the parser accepts (up to [`super::MAX_DEPTH`] deep). The cost of the
/// `Drop` impl is that the fields cannot be moved out by destructuring; use
/// `std::mem::take` instead.
#[derive(Default)]
pub struct GameTree {
    pub nodes: Vec<Node>,
    pub variations: Vec<GameTree>,
}

impl GameTree {
    /// The main line: this tree's nodes, then those of the first variation at each fork.
    pub fn main_line(&self) -> impl Iterator<Item = &Node> {
        std::iter::successors(Some(self), |tree| tree.variations.first())
            .flat_map(|tree| tree.nodes.iter())
    }

    /// The tree as SGF text.
    pub fn to_sgf(&self) -> String {
        let mut out = String::new();
        write_tree(&mut out, self);
        out.push('\n');
        out
    }
}

impl Drop for GameTree {
    fn drop(&mut self) {
        let mut pending = std::mem::take(&mut self.variations);
        while let Some(mut tree) = pending.pop() {
            pending.append(&mut tree.variations);
        }
    }
}

impl Clone for GameTree {
    fn clone(&self) -> GameTree {
        struct Frame<'a> {
            source: &'a GameTree,
            next: usize,
            copy: GameTree,
        }
        fn frame(source: &GameTree) -> Frame<'_> {
            Frame {
                source,
                next: 0,
                copy: GameTree {
                    nodes: source.nodes.clone(),
                    variations: Vec::with_capacity(source.variations.len()),
                },
            }
        }
        let mut parents = Vec::new();
        let mut current = frame(self);
        loop {
            if let Some(child) = current.source.variations.get(current.next) {
                current.next += 1;
                parents.push(std::mem::replace(&mut current, frame(child)));
            } else if let Some(mut parent) = parents.pop() {
                parent.copy.variations.push(current.copy);
                current = parent;
            } else {
                return current.copy;
            }
        }
    }
}

impl PartialEq for GameTree {
    fn eq(&self, other: &GameTree) -> bool {
        let mut pending = vec![(self, other)];
        while let Some((a, b)) = pending.pop() {
            if a.nodes != b.nodes || a.variations.len() != b.variations.len() {
                return false;
            }
            pending.extend(a.variations.iter().zip(&b.variations));
        }
        true
    }
}

impl Eq for GameTree {}

impl fmt::Debug for GameTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        enum Step<'a> {
            Tree(&'a GameTree),
            Text(&'static str),
        }
        let mut steps = vec![Step::Tree(self)];
        while let Some(step) = steps.pop() {
            match step {
                Step::Text(text) => f.write_str(text)?,
                Step::Tree(tree) => {
                    write!(f, "GameTree {{ nodes: {:?}, variations: [", tree.nodes)?;
                    steps.push(Step::Text("] }"));
                    for (i, child) in tree.variations.iter().enumerate().rev() {
                        steps.push(Step::Tree(child));
                        if i > 0 {
                            steps.push(Step::Text(", "));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Parses an SGF collection: one or more game trees.
///
/// Accepts `FF[1]`–`FF[4]`: identifiers with lowercase letters are reduced to their
/// uppercase ones (`AddBlack` → `AB`), and whitespace may separate anything outside
/// values. Values are unescaped (`\]` → `]`, `\\` → `\`, `\` + line break removed)
/// but otherwise kept as written: splitting composed values and converting
/// whitespace depend on the property's type, which this layer does not know.
pub fn parse_collection(text: &str) -> Result<Vec<GameTree>, SgfError> {
    let mut builder = TreeBuilder::default();
    parse(text, &mut builder)?;
    Ok(builder.trees)
}

/// Writes game trees as an SGF collection that [`parse_collection`] reads back equal.
///
/// Identifiers are written as they are, so they must be uppercase ASCII letters
/// (as parsed ones are). A property with no values is written with one empty value,
/// since SGF has no way to write none.
pub fn write_collection(trees: &[GameTree]) -> String {
    let mut out = String::new();
    for tree in trees {
        write_tree(&mut out, tree);
        out.push('\n');
    }
    out
}

/// The sink that keeps everything: each tree with its nodes as owned strings.
#[derive(Default)]
struct TreeBuilder {
    open: Vec<GameTree>,
    trees: Vec<GameTree>,
}

impl Sink<'_> for TreeBuilder {
    fn open_tree(&mut self) {
        self.open.push(GameTree::default());
    }

    fn node(&mut self, node: &NodeView<'_, '_>) {
        if let Some(tree) = self.open.last_mut() {
            let properties = node
                .properties()
                .map(|(ident, values)| {
                    let values = values.iter().map(|value| value.clone().into_owned());
                    (ident.to_owned(), values.collect())
                })
                .collect();
            tree.nodes.push(Node { properties });
        }
    }

    fn close_tree(&mut self) {
        if let Some(tree) = self.open.pop() {
            match self.open.last_mut() {
                Some(parent) => parent.variations.push(tree),
                None => self.trees.push(tree),
            }
        }
    }
}

/// Nodes per line in written sequences, to keep files readable in a text editor.
const NODES_PER_LINE: usize = 10;

/// Whether the node at `index` in a sequence `depth` trees deep starts a new line: the
/// root stands alone, then lines of [`NODES_PER_LINE`] nodes.
pub(super) fn line_break_before(index: usize, depth: usize) -> bool {
    index > 0 && ((index == 1 && depth == 0) || index.is_multiple_of(NODES_PER_LINE))
}

fn write_tree(out: &mut String, tree: &GameTree) {
    enum Step<'a> {
        Tree(&'a GameTree, usize),
        Close,
    }
    let mut steps = vec![Step::Tree(tree, 0)];
    while let Some(step) = steps.pop() {
        match step {
            Step::Close => out.push(')'),
            Step::Tree(tree, depth) => {
                if depth > 0 {
                    out.push('\n');
                }
                out.push('(');
                for (i, node) in tree.nodes.iter().enumerate() {
                    if line_break_before(i, depth) {
                        out.push('\n');
                    }
                    write_node(out, node);
                }
                steps.push(Step::Close);
                for child in tree.variations.iter().rev() {
                    steps.push(Step::Tree(child, depth + 1));
                }
            }
        }
    }
}

pub(super) fn write_node(out: &mut String, node: &Node) {
    out.push(';');
    for (ident, values) in &node.properties {
        out.push_str(ident);
        if values.is_empty() {
            out.push_str("[]");
        }
        for value in values {
            out.push('[');
            for c in value.chars() {
                if c == ']' || c == '\\' {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push(']');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::error::SgfErrorKind;
    use super::super::parse::MAX_DEPTH;
    use super::*;

    fn node(props: &[(&str, &[&str])]) -> Node {
        Node {
            properties: props
                .iter()
                .map(|(id, values)| {
                    (
                        id.to_string(),
                        values.iter().map(|v| v.to_string()).collect(),
                    )
                })
                .collect(),
        }
    }

    fn parse_one(text: &str) -> GameTree {
        let mut trees = parse_collection(text).expect("parses");
        assert_eq!(trees.len(), 1);
        trees.remove(0)
    }

    fn value_of(text: &str) -> String {
        let tree = parse_one(text);
        tree.nodes[0].properties[0].1[0].clone()
    }

    fn error_of(text: &str) -> SgfError {
        parse_collection(text).expect_err("must be rejected")
    }

    fn round_trip(trees: &[GameTree]) {
        let text = write_collection(trees);
        assert_eq!(parse_collection(&text).as_deref(), Ok(trees), "{text}");
    }

    #[test]
    fn structure_and_order() {
        let tree = parse_one("(;FF[4]GM[1]SZ[19];B[aa];W[bb](;B[cc])(;B[dd];W[ee]))");
        assert_eq!(tree.nodes.len(), 3);
        assert_eq!(
            tree.nodes[0],
            node(&[("FF", &["4"]), ("GM", &["1"]), ("SZ", &["19"])])
        );
        assert_eq!(tree.variations.len(), 2);
        assert_eq!(tree.variations[1].nodes[1], node(&[("W", &["ee"])]));
        let main: Vec<_> = tree.main_line().filter_map(|n| n.first("B")).collect();
        assert_eq!(main, ["aa", "cc"]);
    }

    #[test]
    fn whitespace_between_everything() {
        let tree = parse_one(" \r\n( ; AB [aa]\n [bb]\t;\x0bW[cc] ( ;B[dd] ) )\n\n");
        assert_eq!(tree.nodes[0], node(&[("AB", &["aa", "bb"])]));
        assert_eq!(tree.variations[0].nodes[0], node(&[("B", &["dd"])]));
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        assert_eq!(parse_one("\u{FEFF}(;C[x])").nodes[0].first("C"), Some("x"));
    }

    #[test]
    fn spec_escaping() {
        assert_eq!(value_of(r"(;C[a\]b])"), "a]b");
        assert_eq!(value_of(r"(;C[a\\b])"), r"a\b");
        assert_eq!(value_of(r"(;C[a\\])"), r"a\");
        assert_eq!(value_of(r"(;C[\a\b\:c])"), "ab:c");
        assert_eq!(value_of("(;C[(;)[])"), "(;)[");
        // Soft line breaks in all four spellings disappear; hard ones stay.
        assert_eq!(value_of("(;C[one\\\ntwo])"), "onetwo");
        assert_eq!(value_of("(;C[one\\\r\ntwo])"), "onetwo");
        assert_eq!(value_of("(;C[one\\\n\rtwo])"), "onetwo");
        assert_eq!(value_of("(;C[one\\\rtwo])"), "onetwo");
        assert_eq!(value_of("(;C[one\ntwo])"), "one\ntwo");
        assert_eq!(value_of("(;C[one\\\n\ntwo])"), "one\ntwo");
        assert_eq!(value_of("(;C[é\\ü])"), "éü");
        assert_eq!(value_of("(;C[])"), "");
    }

    #[test]
    fn old_identifiers_keep_their_capitals() {
        let tree = parse_one("(;GaMe[1]AddBlack[aa][bb]Comment[hi];Black[cc];White[tt])");
        assert_eq!(
            tree.nodes[0],
            node(&[("GM", &["1"]), ("AB", &["aa", "bb"]), ("C", &["hi"])])
        );
        assert_eq!(tree.nodes[1], node(&[("B", &["cc"])]));
        assert_eq!(tree.nodes[2], node(&[("W", &["tt"])]));
    }

    #[test]
    fn repeated_properties_stay_separate() {
        let tree = parse_one("(;AB[dd]AB[pd]C[x]AB[dp])");
        assert_eq!(
            tree.nodes[0],
            node(&[
                ("AB", &["dd"]),
                ("AB", &["pd"]),
                ("C", &["x"]),
                ("AB", &["dp"])
            ])
        );
        assert_eq!(tree.nodes[0].get("AB"), Some(&["dd".to_string()][..]));
    }

    #[test]
    fn collections() {
        let trees = parse_collection("(;GM[1])\n(;GM[1]C[second])").expect("parses");
        assert_eq!(trees.len(), 2);
        assert_eq!(trees[1].nodes[0].first("C"), Some("second"));
        round_trip(&trees);
    }

    #[test]
    fn error_messages() {
        let cases: &[(&str, &str)] = &[
            (
                "",
                "expected '(' at start of a game tree, found the end of the input at line 1, column 1",
            ),
            (
                "  \n",
                "expected '(' at start of a game tree, found the end of the input at line 2, column 1",
            ),
            (
                "x(;)",
                "expected '(' at start of a game tree, found other text (not shown) at line 1, column 1",
            ),
            (
                ";B[aa]",
                "expected '(' at start of a game tree, found ';' at line 1, column 1",
            ),
            (
                "(;)junk",
                "expected '(' at start of a game tree, found other text (not shown) at line 1, column 4",
            ),
            (
                "()",
                "expected ';' to start the first node after '(', found ')' at line 1, column 2",
            ),
            (
                "((;))",
                "expected ';' to start the first node after '(', found '(' at line 1, column 2",
            ),
            (
                "(;B[aa]\n  ;C[open",
                "unterminated property value: no closing ']' (a ']' inside a value must be written '\\]') at line 2, column 5",
            ),
            (
                "(;C[ends in backslash\\",
                "unterminated property value: no closing ']' (a ']' inside a value must be written '\\]') at line 1, column 4",
            ),
            (
                "(;B[aa]",
                "game tree opened here is never closed: missing ')' before the end at line 1, column 1",
            ),
            (
                "(;B[aa](;W[bb]",
                "game tree opened here is never closed: missing ')' before the end at line 1, column 8",
            ),
            (
                "(;B[aa]))",
                "')' without a matching '(' at line 1, column 9",
            ),
            (
                "(;B[aa](;W[bb]);B[cc])",
                "node after a variation: a game tree's nodes must all come before its '(' variations at line 1, column 16",
            ),
            (
                "(;B[aa]C)",
                "property C has no value: expected '[' at line 1, column 9",
            ),
            (
                "(;B[aa]\nbad[x])",
                "property identifier 'bad' has no uppercase letter at line 2, column 1",
            ),
            (
                "(;B[aa]1)",
                "found other text (not shown) where a property identifier, ';', '(' or ')' was expected at line 1, column 8",
            ),
            (
                "(;é[aa])",
                "found other text (not shown) where a property identifier, ';', '(' or ')' was expected at line 1, column 3",
            ),
            (
                "(;B[aa]\t\0)",
                "found a space or control character where a property identifier, ';', '(' or ')' was expected at line 1, column 9",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(error_of(text).to_string(), *message, "input {text:?}");
        }
    }

    #[test]
    fn error_kinds_and_positions() {
        let e = error_of("(;C[x]\r\n;B[aa\n");
        assert_eq!(e.kind, SgfErrorKind::UnterminatedValue);
        let p = e.position.expect("syntax errors have positions");
        assert_eq!((p.offset, p.line, p.column), (10, 2, 3));
        let e = error_of("(;C[é]é)");
        assert_eq!(e.kind, SgfErrorKind::UnexpectedChar { found: 'é' });
        assert_eq!(e.position.map(|p| (p.offset, p.column)), Some((7, 7)));
    }

    #[test]
    fn long_identifiers_are_shortened_in_messages() {
        let text = format!("(;{}[x])", "z".repeat(10_000));
        let message = error_of(&text).to_string();
        assert!(message.len() < 200, "{message}");
    }

    #[test]
    fn depth_is_capped() {
        let deep = |n: usize| format!("{}{}", "(;".repeat(n), ")".repeat(n));
        let tree = parse_one(&deep(MAX_DEPTH));
        let copy = tree.clone();
        assert_eq!(copy, tree);
        assert_eq!(parse_one(&tree.to_sgf()), tree);
        assert!(format!("{tree:?}").starts_with("GameTree { nodes: [Node"));
        assert_eq!(tree.main_line().count(), MAX_DEPTH);
        drop(copy);
        let e = error_of(&deep(MAX_DEPTH + 1));
        assert_eq!(e.kind, SgfErrorKind::TooDeep { limit: MAX_DEPTH });
        assert_eq!(
            e.to_string(),
            "game trees nested more than 10000 deep at line 1, column 20001"
        );
        // Unclosed and unopened floods fail fast and without recursion.
        assert_eq!(
            error_of(&"(;".repeat(MAX_DEPTH)).kind,
            SgfErrorKind::UnclosedGameTree
        );
        assert_eq!(
            error_of(&"(".repeat(100_000)).kind,
            SgfErrorKind::ExpectedNode { found: Some('(') }
        );
    }

    #[test]
    fn wide_and_long_inputs_are_linear() {
        let many_nodes = format!("(;{})", ";B[aa]".repeat(200_000));
        assert_eq!(parse_one(&many_nodes).nodes.len(), 200_001);
        let many_escapes = format!("(;C[{}])", "\\]".repeat(500_000));
        assert_eq!(value_of(&many_escapes).len(), 500_000);
        let many_vars = format!("(;{})", "(;B[aa])".repeat(100_000));
        let tree = parse_one(&many_vars);
        assert_eq!(tree.variations.len(), 100_000);
        assert_eq!(parse_one(&tree.to_sgf()), tree);
    }

    #[test]
    fn writer_escapes_and_round_trips() {
        let tree = GameTree {
            nodes: vec![
                node(&[
                    ("GM", &["1"]),
                    ("C", &["a]b\\c\\", "x\ny\r\n", "", "\\\n"]),
                    ("AP", &["me:1.0"]),
                ]),
                node(&[("B", &["aa"])]),
            ],
            variations: vec![
                GameTree {
                    nodes: vec![node(&[("W", &["bb"])])],
                    variations: vec![],
                },
                GameTree {
                    nodes: vec![node(&[("W", &["cc"])]), node(&[])],
                    variations: vec![GameTree {
                        nodes: vec![node(&[("N", &["é ] \\ ü"])])],
                        variations: vec![],
                    }],
                },
            ],
        };
        let text = tree.to_sgf();
        assert!(text.contains(r"C[a\]b\\c\\]"), "{text}");
        round_trip(&[tree.clone(), tree]);
    }

    #[test]
    fn writer_fills_in_empty_value_lists() {
        let tree = GameTree {
            nodes: vec![Node {
                properties: vec![("TE".into(), vec![])],
            }],
            variations: vec![],
        };
        assert_eq!(tree.to_sgf(), "(;TE[])\n");
    }

    #[test]
    fn parsed_text_round_trips() {
        for text in [
            "(;FF[4]C[root](;C[a\\\\](;B[aa])(;B[bb]))(;C[\\]]))",
            "(;FF[3]AddWhite[aa:bb]LB[aa:x\\:y]\n;B[tt]C[line\\\nbreak])",
        ] {
            round_trip(&parse_collection(text).expect("parses"));
        }
    }
}
