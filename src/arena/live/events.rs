//! What happens in a living ladder, broadcast inside the server process: the pairing loop
//! sends, the web page's live feed (server-sent events) and anything else listening
//! receives. Every event is also a JSON object (`type` names its kind), as the feed sends
//! it. A listener that falls behind loses the oldest events (it reloads the state from the
//! database), never stalls the games.

use serde::Serialize;
use tokio::sync::broadcast;

/// How many events a slow listener may fall behind before it loses some.
pub const EVENT_BACKLOG: usize = 4096;

/// One thing that happened. `game` is `games.id`, bots are `bots.id` with their names.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LiveEvent {
    /// A game began: `first` moves first.
    GameStarted {
        game: i64,
        ladder: String,
        first: String,
        second: String,
    },
    /// A move was played (as the referee wrote it), `ms` the mover's thinking time.
    Move {
        game: i64,
        ply: u32,
        text: String,
        ms: u64,
    },
    /// A game ended: `score` is the first bot's (1, 0.5, 0), `None` when it was voided.
    GameEnded {
        game: i64,
        ladder: String,
        score: Option<f64>,
        reason: String,
    },
    /// The ladder's ratings were recomputed.
    Ratings {
        ladder: String,
    },
    /// A bot joined (connected, or was added) or left.
    BotJoined {
        ladder: String,
        bot: String,
    },
    BotLeft {
        ladder: String,
        bot: String,
    },
}

impl LiveEvent {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_owned())
    }
}

/// The server's one channel of events; cloning it shares it.
#[derive(Clone, Debug)]
pub struct LiveEvents {
    sender: broadcast::Sender<LiveEvent>,
}

impl Default for LiveEvents {
    fn default() -> LiveEvents {
        LiveEvents::new()
    }
}

impl LiveEvents {
    pub fn new() -> LiveEvents {
        LiveEvents {
            sender: broadcast::channel(EVENT_BACKLOG).0,
        }
    }

    /// Sends to every listener; nobody listening is not an error.
    pub fn send(&self, event: LiveEvent) {
        let _ = self.sender.send(event);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<LiveEvent> {
        self.sender.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_listener_receives_what_is_sent_after_it_subscribed() {
        let events = LiveEvents::new();
        events.send(LiveEvent::Ratings {
            ladder: "before".into(),
        });
        let mut listener = events.subscribe();
        let event = LiveEvent::Move {
            game: 7,
            ply: 1,
            text: "D4".into(),
            ms: 12,
        };
        events.send(event.clone());
        assert_eq!(listener.recv().await.ok(), Some(event));
    }

    #[test]
    fn events_are_json_objects_named_by_type() {
        let json = LiveEvent::GameEnded {
            game: 3,
            ladder: "go9".into(),
            score: Some(0.5),
            reason: "score".into(),
        }
        .to_json();
        assert_eq!(
            json,
            r#"{"type":"game_ended","game":3,"ladder":"go9","score":0.5,"reason":"score"}"#
        );
    }
}
