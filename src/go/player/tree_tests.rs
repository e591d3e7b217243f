//! The search tree's own tests: superko inside the tree (a move may not recreate a
//! position of the game or of its own path) and tree reuse across searches.

use super::tests::{board_from, chinese, pt, request};
use super::*;
use crate::go::board::side_to_move_key;

/// Three kos at once (a triple ko) on 9×9, Black to move. White holds the kos at B2 (Black
/// takes at C2) and G2 (Black takes at H2); Black holds the one at C7 (White takes at B7).
/// Black C2, White B7, Black H2, White B2, Black C7, White G2 is a cycle: the board is
/// back where it started after six moves, each of them a legal simple-ko capture.
fn triple_ko() -> Board {
    board_from(&[
        ". . . . . . . . .",
        ". X O . . . . . .",
        "X . X O . . . . .",
        ". X O . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". X O . . . X O .",
        "X O . O . X O . O",
        ". X O . . . X O .",
    ])
}

/// The moves of `line` as tree moves.
fn line(board: &Board, vertices: &[&str]) -> Vec<Option<Point>> {
    vertices.iter().map(|v| Some(pt(board, v))).collect()
}

/// Builds a one-tree search context over `board` (every legal non-eye move at the root)
/// and hands a fresh tree to `check`.
fn with_tree<R>(
    board: &Board,
    to_move: Color,
    ko: KoRule,
    history: &[u64],
    check: impl FnOnce(&mut Tree) -> R,
) -> R {
    with_net_tree(board, to_move, ko, history, None, check)
}

/// [`with_tree`] whose search consults `net`.
pub(super) fn with_net_tree<R>(
    board: &Board,
    to_move: Color,
    ko: KoRule,
    history: &[u64],
    net: Option<&NetSearch>,
    check: impl FnOnce(&mut Tree) -> R,
) -> R {
    let points: Vec<Point> = board.points().collect();
    let mut root_moves: Vec<Option<Point>> = points
        .iter()
        .copied()
        .filter(|&p| board.is_legal(to_move, p, false) && !board.is_eye_like(to_move, p))
        .map(Some)
        .collect();
    root_moves.push(None);
    let ctx = Context {
        root: board,
        to_move,
        komi: 7.5,
        suicide_allowed: false,
        root_moves: &root_moves,
        opponent_passed: false,
        recent_moves: [None; HISTORY],
        net,
        points: &points,
        max_nodes: 1 << 16,
        playout_cap: playout_cap(board),
        params: Params::default(),
        ko,
        history,
    };
    let arena = Arena::new(ctx.max_nodes);
    let mut tree = Tree::new(&ctx, &arena, 1, 0);
    check(&mut tree)
}

#[test]
fn the_triple_ko_cycle_is_legal_under_simple_ko() {
    let board = triple_ko();
    let cycle = line(&board, &["C2", "B7", "H2", "B2", "C7", "G2"]);
    let mut replay = board.clone();
    let mut color = Color::Black;
    for mv in cycle.iter().flatten() {
        assert!(replay.is_legal(color, *mv, false), "{replay}");
        replay.play(color, *mv);
        color = color.opponent();
    }
    assert_eq!(replay.hash(), board.hash(), "{replay}");
    // In the tree, under simple ko, each move of the cycle is a child of the node before.
    let g2 = Some(pt(&board, "G2"));
    let children = with_tree(&board, Color::Black, KoRule::Simple, &[], |tree| {
        tree.children_after(&cycle[..5])
    });
    assert!(children.contains(&g2));
}

#[test]
fn a_tree_move_may_not_recreate_a_position_of_the_game() {
    let board = triple_ko();
    let g2 = Some(pt(&board, "G2"));
    let five = line(&board, &["C2", "B7", "H2", "B2", "C7"]);
    // The root position is in the game's history: White's G2 at the end of five
    // captures would recreate it.
    let positional = [board.hash()];
    let situational = [board.hash() ^ side_to_move_key(Color::Black)];
    for (ko, history) in [
        (KoRule::PositionalSuperko, &positional),
        (KoRule::SituationalSuperko, &situational),
    ] {
        let children = with_tree(&board, Color::Black, ko, history, |tree| {
            tree.children_after(&five)
        });
        assert!(!children.contains(&g2), "{ko}");
        // Only that move goes: White's other moves, and the pass, stay.
        assert!(children.contains(&Some(pt(&board, "E5"))), "{ko}");
        assert!(children.contains(&None), "{ko}");
    }
    // A history the position is not part of forbids nothing.
    let children = with_tree(
        &board,
        Color::Black,
        KoRule::PositionalSuperko,
        &[1],
        |tree| tree.children_after(&five),
    );
    assert!(children.contains(&g2));
}

#[test]
fn a_tree_move_may_not_recreate_a_position_of_its_own_path() {
    let board = triple_ko();
    let g2 = Some(pt(&board, "G2"));
    // White to move plays E9 first; after the five captures, G2 would recreate the
    // position after E9, which only the path from the root has seen.
    let six = line(&board, &["E9", "C2", "B7", "H2", "B2", "C7"]);
    let positional = [board.hash()];
    let situational = [board.hash() ^ side_to_move_key(Color::White)];
    for (ko, history) in [
        (KoRule::PositionalSuperko, &positional),
        (KoRule::SituationalSuperko, &situational),
    ] {
        let children = with_tree(&board, Color::White, ko, history, |tree| {
            tree.children_after(&six)
        });
        assert!(!children.contains(&g2), "{ko}");
        assert!(children.contains(&Some(pt(&board, "E5"))), "{ko}");
    }
    let children = with_tree(&board, Color::White, KoRule::Simple, &[], |tree| {
        tree.children_after(&six)
    });
    assert!(children.contains(&g2));
}

#[test]
fn a_kept_tree_continues_under_the_moves_played() {
    let rules = chinese();
    let empty = Board::new(9).expect("9x9");
    let mut kept = KeptTrees::new();
    let first = search_keeping(&request(&empty, Color::Black, &rules, 2000), &mut kept);
    assert_eq!(first.reused, 0);
    let Decision::Play(m1) = first.decision else {
        panic!("expected a move, got {:?}", first.decision);
    };
    // The reply the tree looked at most below the move played, and its visits.
    let arena = &kept.nodes;
    let c1 = arena[0]
        .children()
        .find(|&c| arena[c].mv == Some(m1))
        .expect("the move played is a root child");
    let c2 = arena[c1]
        .children()
        .max_by_key(|&c| arena[c].visits)
        .expect("the move played was expanded");
    let (m2, visits) = (arena[c2].mv.expect("a reply, not a pass"), arena[c2].visits);
    assert!(visits > 0 && arena[c2].num_children > 0);

    // The game's positions, as positional superko (Chinese rules) keeps them.
    let mut board = empty.clone();
    let mut history = vec![board.hash()];
    board.play(Color::Black, m1);
    history.push(board.hash());
    board.play(Color::White, m2);
    history.push(board.hash());
    kept.advance(Color::Black, Some(m1));
    kept.advance(Color::White, Some(m2));
    let mut req = request(&board, Color::Black, &rules, 500);
    req.history = &history;
    let second = search_keeping(&req, &mut kept);
    assert_eq!(second.reused, u64::from(visits));
    // The budget counts new playouts; the statistics hold the old ones too.
    assert_eq!(second.playouts, 500);
    assert_eq!(kept.nodes[0].visits, visits + 500);
    let total: u64 = second.root_moves.iter().map(|m| m.visits).sum();
    assert!(total > 500, "{total}");
    // The new root's children are the root moves, in their order.
    let arena = &kept.nodes;
    let children: Vec<Option<Point>> = arena[0].children().map(|c| arena[c].mv).collect();
    let moves: Vec<Option<Point>> = second.root_moves.iter().map(|m| m.mv).collect();
    assert_eq!(children, moves);
    assert_eq!(moves.last(), Some(&None));
    assert!(!moves.contains(&Some(m1)) && !moves.contains(&Some(m2)));
}

#[test]
fn a_kept_tree_is_dropped_when_the_position_does_not_follow() {
    let rules = chinese();
    let empty = Board::new(9).expect("9x9");
    // The move the first search picks (the kept searches below are the same search),
    // so surely one the tree expanded.
    let Decision::Play(center) = search(&request(&empty, Color::Black, &rules, 1500)).decision
    else {
        panic!("no move on an empty board");
    };
    let reply = empty
        .points()
        .find(|&p| p != center)
        .expect("another point");
    let mut after = empty.clone();
    after.play(Color::Black, center);
    let history = [empty.hash(), after.hash()];
    // Each case: the moves told to the kept tree, and the request that follows.
    let searched_after = |moves: &[(Color, Option<Point>)], edit: &dyn Fn(&mut SearchRequest)| {
        let mut kept = KeptTrees::new();
        search_keeping(&request(&empty, Color::Black, &rules, 1500), &mut kept);
        for &(color, mv) in moves {
            kept.advance(color, mv);
        }
        let mut req = request(&after, Color::White, &rules, 100);
        req.history = &history;
        edit(&mut req);
        search_keeping(&req, &mut kept).reused
    };
    let played = [(Color::Black, Some(center))];
    // The position follows: kept.
    assert!(searched_after(&played, &|_| {}) > 0);
    // Another komi, a missing move, a move of the wrong colour, another side to move,
    // a history the moves do not explain, a move too many: all start afresh.
    assert_eq!(searched_after(&played, &|r| r.komi = 0.5), 0);
    // The statistics are the search komi's (dynamic komi): another search komi starts
    // afresh, another game komi under the same search komi does not.
    assert_eq!(searched_after(&played, &|r| r.search_komi = Some(20.5)), 0);
    let same_search_komi = |r: &mut SearchRequest| {
        r.search_komi = Some(r.komi);
        r.komi = 0.5;
    };
    assert!(searched_after(&played, &same_search_komi) > 0);
    assert_eq!(searched_after(&[], &|_| {}), 0);
    assert_eq!(searched_after(&[(Color::White, Some(center))], &|_| {}), 0);
    assert_eq!(searched_after(&played, &|r| r.to_move = Color::Black), 0);
    // The history lacks the position before E5.
    static ODD: [u64; 1] = [12345];
    assert_eq!(searched_after(&played, &|r| r.history = &ODD), 0);
    let two = [(Color::Black, Some(center)), (Color::White, Some(reply))];
    assert_eq!(searched_after(&two, &|_| {}), 0);
    // And a cleared store keeps nothing.
    let mut kept = KeptTrees::new();
    search_keeping(&request(&empty, Color::Black, &rules, 500), &mut kept);
    kept.advance(Color::Black, Some(center));
    kept.clear();
    assert!(kept.is_empty());
    let mut req = request(&after, Color::White, &rules, 100);
    req.history = &history;
    assert_eq!(search_keeping(&req, &mut kept).reused, 0);
}

#[test]
fn searches_with_kept_trees_are_reproducible() {
    let rules = chinese();
    let run = |threads: usize| {
        let mut board = Board::new(9).expect("9x9");
        let mut history = vec![board.hash()];
        let mut kept = KeptTrees::new();
        let mut color = Color::Black;
        let mut results = Vec::new();
        for n in 0..4 {
            let mut req = request(&board, color, &rules, 600);
            req.threads = threads;
            req.seed = n;
            req.history = &history;
            let result = search_keeping(&req, &mut kept);
            let mv = match result.decision {
                Decision::Play(p) => {
                    board.play(color, p);
                    Some(p)
                }
                _ => {
                    board.pass();
                    None
                }
            };
            kept.advance(color, mv);
            history.push(board.hash());
            color = color.opponent();
            results.push(result);
        }
        results
    };
    let once = run(1);
    assert_eq!(once, run(1));
    assert!(
        once[1..].iter().all(|r| r.reused > 0),
        "{:?}",
        once.iter().map(|r| r.reused).collect::<Vec<_>>()
    );
    // Threads share one tree, so their searches depend on timing; what they keep is
    // still one tree holding every playout, and it is reused.
    let shared = run(2);
    assert!(shared.iter().all(|r| r.playouts == 600));
    assert!(shared[1..].iter().all(|r| r.reused > 0));
}

#[test]
fn threads_grow_one_shared_tree() {
    let rules = chinese();
    let board = Board::new(9).expect("9x9");
    let mut kept = KeptTrees::new();
    let mut req = request(&board, Color::Black, &rules, 900);
    req.threads = 3;
    let result = search_keeping(&req, &mut kept);
    assert_eq!(result.playouts, 900);
    // One tree whose root counts every thread's playouts (root parallelism kept one
    // tree a thread, each with a third of them).
    assert_eq!(kept.nodes[0].visits, 900);
    let visits: u64 = result.root_moves.iter().map(|m| m.visits).sum();
    assert_eq!(visits, 900);
    // The same tree serves a search with another number of threads.
    kept.advance(Color::Black, result.principal_variation.first().copied());
    let mut after = board.clone();
    if let Some(&p) = result.principal_variation.first() {
        after.play(Color::Black, p);
    }
    let history = [board.hash(), after.hash()];
    let mut next = request(&after, Color::White, &rules, 100);
    next.history = &history;
    assert!(search_keeping(&next, &mut kept).reused > 0);
}

#[test]
fn a_finished_search_leaves_no_virtual_loss_behind() {
    let board = Board::new(9).expect("9x9");
    with_tree(&board, Color::Black, KoRule::Simple, &[], |tree| {
        let budget = Budget::new(300, None, &|| false, false, 1);
        tree.search(&budget, None);
        assert_eq!(tree.playouts, 300);
        let arena = tree.arena;
        assert!(arena.len() > 100, "{}", arena.len());
        assert_eq!(arena.get(0).visits(), 300);
        // Every step into a node is matched by a step back out.
        assert!((0..arena.len()).all(|i| arena.get(i).in_flight() == 0));
    });
}
