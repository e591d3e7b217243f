//! The network inside the search: its value as virtual visits of the node it judged,
//! for the right side, and nets held per search rather than per process.

use super::tests::{board_from, chinese, pt, request};
use super::tree_tests::with_net_tree;
use super::*;
use crate::go::net::{self, Snapshot};

/// The built-in net with `value_visits` virtual visits of its value.
fn builtin(value_visits: f32) -> NetSearch {
    NetSearch {
        value_visits,
        ..NetSearch::new(net::builtin().expect("the built-in net"))
    }
}

/// A 9×9 position Black has won: a wall on the sixth line, White squeezed above it.
fn black_wins() -> Board {
    board_from(&[
        ". . . . . . . . .",
        ". . . . . . . . .",
        "O O O O O O O O O",
        "X X X X X X X X X",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . X . . . X .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ])
}

/// (prior visits, prior wins) of the root's child `mv` before and after expanding it, in a tree
/// over `board` with Black to move that consults `net`.
fn expanded_prior(board: &Board, mv: Point, net: &NetSearch) -> (f32, f32, f32, f32) {
    with_net_tree(
        board,
        Color::Black,
        KoRule::Simple,
        &[],
        Some(net),
        |tree| {
            let arena = tree.arena;
            let child = (arena.get(0).child_range())
                .find(|&c| arena.get(c).mv() == Some(mv))
                .expect("a root move");
            let before = (
                arena.get(child).prior_visits(),
                arena.get(child).prior_wins(),
            );
            tree.children_after(&[Some(mv)]);
            let after = (
                arena.get(child).prior_visits(),
                arena.get(child).prior_wins(),
            );
            (before.0, before.1, after.0, after.1)
        },
    )
}

#[test]
fn the_nets_value_is_a_prior_of_the_expanded_node_for_the_player_who_moved_in() {
    let board = black_wins();
    let mv = pt(&board, "E2");
    let mut after = board.clone();
    after.play(Color::Black, mv);
    let recent = [Some(mv), None, None, None, None];
    let snapshot = Snapshot::of_board(&after, Color::White, 7.5, &recent);
    let valued = builtin(50.0);
    let white_wins = net::evaluate(&valued.net, &snapshot).value;
    assert!(white_wins < 0.25, "the net sees White lost: {white_wins}");

    let (visits_before, wins_before, visits, wins) = expanded_prior(&board, mv, &valued);
    assert!((visits - visits_before - 50.0).abs() < 1e-3);
    // The node's wins are Black's, who moved into it: the net's value is White's.
    let black_share = (wins - wins_before) / 50.0;
    assert!(
        (black_share - (1.0 - white_wins)).abs() < 1e-4,
        "{black_share}"
    );

    // Without value visits the expansion leaves the node's own prior alone.
    let (visits_before, wins_before, visits, wins) = expanded_prior(&board, mv, &builtin(0.0));
    assert_eq!((visits, wins), (visits_before, wins_before));
}

#[test]
fn each_search_consults_its_own_net() {
    let rules = chinese();
    let board = Board::new(9).expect("9x9");
    let plain = search(&request(&board, Color::Black, &rules, 300));
    let policy = builtin(0.0);
    let valued = builtin(20.0);
    let mut with_net = request(&board, Color::Black, &rules, 300);
    with_net.net = Some(&policy);
    let net_result = search(&with_net);
    with_net.net = Some(&valued);
    let value_result = search(&with_net);
    // The net's policy moves the priors; a search without it afterwards is as before.
    assert_ne!(plain.root_moves, net_result.root_moves);
    assert_ne!(net_result.root_moves, value_result.root_moves);
    assert_eq!(plain, search(&request(&board, Color::Black, &rules, 300)));
    with_net.net = Some(&policy);
    assert_eq!(net_result, search(&with_net));
}

/// A search of `board` with `to_move`, consulting `net`, whose tree is kept for a look.
fn kept_search(board: &Board, to_move: Color, net: &NetSearch) -> KeptTrees {
    let rules = chinese();
    let mut kept = KeptTrees::new();
    let mut req = request(board, to_move, &rules, 400);
    req.net = Some(net);
    search_keeping(&req, &mut kept);
    kept
}

#[test]
fn mixed_values_are_backed_up_for_the_player_who_moved() {
    let board = black_wins();
    let mixed = NetSearch {
        value_weight: 0.5,
        ..builtin(0.0)
    };
    for to_move in [Color::Black, Color::White] {
        let kept = kept_search(&board, to_move, &mixed);
        let nodes = &kept.nodes;
        // Values are the mover's: Black's moves judged won, White's lost.
        let black_moved = to_move == Color::Black;
        for c in nodes[0].children().filter(|&c| nodes[c].visits > 20) {
            let value = nodes[c].value;
            assert_eq!(value > 0.7, black_moved, "{to_move:?} {value}");
            assert_eq!(value < 0.3, !black_moved, "{to_move:?} {value}");
        }
        // The root's own judgement is its mover's, the side not to move.
        assert_eq!(nodes[0].net_value > 0.5, !black_moved);
    }
}

#[test]
fn without_weight_no_value_is_backed_up() {
    let board = black_wins();
    let kept = kept_search(&board, Color::Black, &builtin(0.0));
    assert!(kept.nodes.iter().all(|node| node.value == 0.0));
    // The net's own judgements are kept all the same (they cost nothing more).
    assert!(kept.nodes[0].net_value < 0.3);
}

/// The built-in net judging a node once it has `min_visits` real visits.
fn judging_after(min_visits: u32) -> NetSearch {
    NetSearch {
        min_visits: Some(min_visits),
        ..builtin(0.0)
    }
}

#[test]
fn min_visits_up_to_the_expansion_threshold_change_nothing() {
    let rules = chinese();
    let board = black_wins();
    let mut req = request(&board, Color::White, &rules, 300);
    let at_expansion = builtin(0.0);
    req.net = Some(&at_expansion);
    let every = search(&req);
    // Play expands a node at its fourth visit: asking for up to four changes nothing.
    for net in [judging_after(1), judging_after(4)] {
        let mut req = request(&board, Color::White, &rules, 300);
        req.net = Some(&net);
        assert_eq!(search(&req), every, "--net-min-visits {:?}", net.min_visits);
    }
    assert!(every.net_evaluations > 1);
}

#[test]
fn a_high_threshold_leaves_the_net_to_the_root() {
    let rules = chinese();
    let board = Board::new(9).expect("9x9");
    let mut req = request(&board, Color::Black, &rules, 300);
    let plain = search(&req);
    assert_eq!(plain.net_evaluations, 0);
    let root_only = judging_after(NET_ROOT_ONLY);
    req.net = Some(&root_only);
    let result = search(&req);
    assert_eq!(result.net_evaluations, 1);
    // The root's prior alone already moves the search, and the same seed repeats it.
    assert_ne!(result.root_moves, plain.root_moves);
    assert_eq!(search(&req), result);
    // A threshold no node reaches in this search does the same.
    let high = judging_after(MAX_NET_MIN_VISITS);
    req.net = Some(&high);
    assert_eq!(search(&req), result);
}

#[test]
fn by_default_larger_boards_leave_the_net_to_the_root() {
    let rules = chinese();
    let net = builtin(0.0);
    for (size, root_only) in [(9, false), (11, false), (12, true), (13, true), (19, true)] {
        let board = Board::new(size).expect("a board");
        let mut req = request(&board, Color::Black, &rules, 100);
        req.net = Some(&net);
        let evaluations = search(&req).net_evaluations;
        assert_eq!(evaluations == 1, root_only, "{size}: {evaluations}");
        let told = judging_after(if root_only { NET_ROOT_ONLY } else { 0 });
        req.net = Some(&told);
        assert_eq!(search(&req).net_evaluations, evaluations, "{size}");
    }
}

#[test]
fn nodes_are_judged_once_they_have_the_visits() {
    let board = black_wins();
    let min_visits = 24;
    let net = judging_after(min_visits);
    let kept = kept_search(&board, Color::White, &net);
    let nodes = &kept.nodes;
    let expanded = || (1..nodes.len()).filter(|&i| nodes[i].num_children > 0);
    let judged: Vec<usize> = expanded().filter(|&i| nodes[i].net_value >= 0.0).collect();
    let pending: Vec<usize> = expanded()
        .filter(|&i| nodes[i].net_value == arena::NET_PENDING)
        .collect();
    assert_eq!(judged.len() + pending.len(), expanded().count());
    assert!(!judged.is_empty() && !pending.is_empty());
    // Judged at `min_visits` (the walk that judges a node counts when it comes back).
    assert!(judged.iter().all(|&i| nodes[i].visits > min_visits));
    // A pending node is judged by the first walk through it after `min_visits`.
    assert!(pending.iter().all(|&i| nodes[i].visits <= min_visits));
    // A judged node's children carry the net's prior beside the classical one.
    let search_at = |net: &NetSearch| {
        let rules = chinese();
        let mut req = request(&board, Color::White, &rules, 400);
        req.net = Some(net);
        search(&req)
    };
    let result = search_at(&net);
    assert_eq!(result.net_evaluations, 1 + judged.len() as u64);
    assert!(result.net_evaluations < search_at(&builtin(0.0)).net_evaluations);
}
