//! Who plays next in a ladder: among its idle bots, the two that have played each other
//! least, then the two of closest rating (an unrated bot counts as 0, the mean), then the
//! lowest ids (so the same state always gives the same pairing). The bot that has had the
//! first seat less often takes it in the pairing's first game (the second game swaps).

use std::collections::BTreeMap;

/// An idle bot as pairing sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// `bots.id`.
    pub id: i64,
    /// Its latest rating in the ladder, if it has one.
    pub elo: Option<f64>,
}

/// What the ladder's finished games say: games between every two bots, first seats of each.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Keyed by (lower id, higher id).
    pub together: BTreeMap<(i64, i64), u64>,
    pub firsts: BTreeMap<i64, u64>,
}

impl History {
    /// One finished game.
    pub fn add(&mut self, first: i64, second: i64) {
        *self
            .together
            .entry((first.min(second), first.max(second)))
            .or_default() += 1;
        *self.firsts.entry(first).or_default() += 1;
    }

    fn together(&self, a: i64, b: i64) -> u64 {
        self.together
            .get(&(a.min(b), a.max(b)))
            .copied()
            .unwrap_or(0)
    }

    fn firsts(&self, id: i64) -> u64 {
        self.firsts.get(&id).copied().unwrap_or(0)
    }
}

/// How good a pairing is, smaller first: games together, rating gap, then the ids.
type Preference = (u64, f64, i64, i64);

/// The next pairing among `idle` (ids in the order the first game seats them), or `None`
/// with fewer than two.
pub fn choose(idle: &[Candidate], history: &History) -> Option<(i64, i64)> {
    let mut best: Option<(Preference, (i64, i64))> = None;
    for (k, a) in idle.iter().enumerate() {
        for b in &idle[k + 1..] {
            if a.id == b.id {
                continue;
            }
            let gap = (a.elo.unwrap_or(0.0) - b.elo.unwrap_or(0.0)).abs();
            let key = (
                history.together(a.id, b.id),
                gap,
                a.id.min(b.id),
                a.id.max(b.id),
            );
            let better = best.as_ref().is_none_or(|(known, _)| {
                key.0
                    .cmp(&known.0)
                    .then(key.1.total_cmp(&known.1))
                    .then((key.2, key.3).cmp(&(known.2, known.3)))
                    .is_lt()
            });
            if better {
                best = Some((key, (a.id, b.id)));
            }
        }
    }
    let (_, (a, b)) = best?;
    let first_a = (history.firsts(a), a) <= (history.firsts(b), b);
    Some(if first_a { (a, b) } else { (b, a) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bots(elos: &[(i64, Option<f64>)]) -> Vec<Candidate> {
        elos.iter()
            .map(|&(id, elo)| Candidate { id, elo })
            .collect()
    }

    #[test]
    fn fewest_games_together_come_first() {
        let mut history = History::default();
        history.add(1, 2);
        history.add(2, 1);
        let idle = bots(&[(1, Some(0.0)), (2, Some(0.0)), (3, Some(300.0))]);
        assert_eq!(
            choose(&idle, &history).map(|(a, b)| (a.min(b), a.max(b))),
            Some((1, 3))
        );
    }

    #[test]
    fn closest_rating_breaks_ties_then_ids() {
        let history = History::default();
        let idle = bots(&[(1, Some(0.0)), (2, Some(500.0)), (3, Some(450.0))]);
        assert_eq!(choose(&idle, &history), Some((2, 3)));
        let unrated = bots(&[(4, None), (5, None), (6, None)]);
        assert_eq!(choose(&unrated, &history), Some((4, 5)));
        assert_eq!(choose(&unrated[..1], &history), None);
    }

    #[test]
    fn the_bot_with_fewer_first_seats_sits_first() {
        let mut history = History::default();
        history.add(1, 9);
        let idle = bots(&[(1, None), (2, None)]);
        assert_eq!(choose(&idle, &history), Some((2, 1)));
    }
}
