//! Any bytes, read as a Kulami position string on the default and a random layout, and as
//! GTP command lines for the Kulami engine: nothing panics, an accepted position
//! round-trips, and its legal moves are all playable.
#![no_main]

use hamle::kulami::cell::cells;
use hamle::kulami::command::KulamiCommand;
use hamle::kulami::layout::Layout;
use hamle::kulami::position::Setup;
use hamle::protocol::{parse_command, preprocess};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(setup) = text.parse::<Setup>() {
        assert_eq!(setup.to_string().parse::<Setup>(), Ok(setup));
        for layout in [Layout::standard(), Layout::random(3)] {
            if let Ok(position) = setup.validate(&layout) {
                assert_eq!(
                    Setup::of(&layout, &position).validate(&layout),
                    Ok(position)
                );
                for cell in cells(position.legal_moves(&layout)) {
                    let mut next = position;
                    assert!(next.play(&layout, cell).is_ok());
                }
            }
        }
    }
    for raw in text.split('\n') {
        let Some(line) = preprocess(raw) else {
            continue;
        };
        if let Ok(command) = parse_command(&line) {
            let _ = KulamiCommand::parse(&command);
        }
    }
});
