//! Any bytes, read as a Kulami layout text: the parser never panics, and a layout it
//! accepts has 64 holes in 17 tiles and round-trips through its text form.
#![no_main]

use hamle::kulami::layout::Layout;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(layout) = text.parse::<Layout>() {
        assert_eq!(layout.holes().count_ones(), 64);
        assert!(layout.width() <= 10 && layout.height() <= 10);
        let again: Layout = layout.to_string().parse().expect("a layout's text parses");
        assert_eq!(again, layout);
        let grid: Layout = layout.to_grid().parse().expect("a layout's grid parses");
        assert_eq!(grid, layout);
    }
});
