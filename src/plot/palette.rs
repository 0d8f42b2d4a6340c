//! Colours shared by the workbench and exported figures: the Okabe-Ito palette (safe for
//! the common colour-vision deficiencies) for series, and viridis for heatmaps.

/// Okabe & Ito (2008), black moved last: blue, orange, bluish green, vermillion, sky blue,
/// reddish purple, yellow, black. The yellow is darkened to an olive gold: Okabe and Ito's
/// (240, 228, 66) is a fill colour, and as a line on a white page it could hardly be seen.
pub const SERIES: [[u8; 3]; 8] = [
    [0, 114, 178],
    [230, 159, 0],
    [0, 158, 115],
    [213, 94, 0],
    [86, 180, 233],
    [204, 121, 167],
    [175, 150, 0],
    [0, 0, 0],
];

/// The line pattern (an index into [`crate::plot::DASHES`]: solid, dashed, dotted, long
/// dashes) that goes with each colour of [`SERIES`]: an agent's pattern is its colour's, the
/// same whoever it is drawn beside (it was handed out per figure, and strong-ab's line was
/// solid beside jeng-mcts and dashed beside random). Ranked by how dark they print (black,
/// blue, bluish green, vermillion, olive, reddish purple, sky blue, orange), neighbouring
/// colours take different patterns, so that near greys in a greyscale print differ in
/// pattern; strong-ab-v1's blue is solid.
pub const COLOUR_DASH: [u8; 8] = [0, 2, 1, 2, 1, 0, 3, 3];

/// The colour of series `i`.
pub fn series(i: usize) -> [u8; 3] {
    SERIES[i % SERIES.len()]
}

/// The colour and marker of each preset agent (and of the accuracy study's two plain agents),
/// as palette and marker indices: a preset looks the same in every figure, whoever it is
/// drawn beside. The pairs a study draws together differ in colour: the study's five (random,
/// plain-ab, plain-uct, strong-ab-v1, strong-mcts), each paper's alpha-beta and MCTS agents,
/// strong-ab against strong-ab-v1, and random against any. The ten presets of the presets figure are more than the palette's eight
/// colours: three colours come twice there, each time with another marker, between agents no
/// paper compares. No two entries share both colour and marker.
const PRESET_LOOKS: [(&str, usize, usize); 16] = [
    ("strong-ab-v1", 0, 0),
    ("strong-ab", 5, 0),
    ("lim-mcts", 1, 1),
    ("alam-ab", 2, 2),
    ("strong-mcts", 3, 3),
    ("connectx-minimax", 4, 4),
    ("alam-mcts", 5, 5),
    ("lim-minimax", 6, 6),
    ("random", 7, 7),
    ("flecart", 2, 1),
    ("connectx-mcts", 5, 2),
    ("jeng-mcts", 1, 2),
    ("plain-ab", 4, 6),
    ("plain-uct", 1, 4),
    ("solver", 6, 0),
    ("gomoku-ab", 6, 1),
];

/// The names with a look of their own (see [`series_slots`]).
pub fn preset_names() -> impl Iterator<Item = &'static str> {
    PRESET_LOOKS.iter().map(|l| l.0)
}

/// A named series' palette colour and marker, as indices (see [`series_slots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub colour: usize,
    pub marker: usize,
}

/// The colours of named series (agents), one each (see [`series_slots`]).
///
/// ```
/// use mnklab::plot::palette::series_for;
/// let ab = series_for(&["strong-ab", "random"]);
/// let ba = series_for(&["random", "strong-ab"]);
/// assert_eq!((ab[0], ab[1]), (ba[1], ba[0]));
/// assert_ne!(ab[0], ab[1]);
/// // A preset has its colour whoever it is drawn beside.
/// assert_eq!(series_for(&["strong-ab"])[0], ab[0]);
/// ```
pub fn series_for<S: AsRef<str>>(names: &[S]) -> Vec<[u8; 3]> {
    series_slots(names).into_iter().map(|s| SERIES[s.colour]).collect()
}

/// The palette colour and marker each name takes. A preset agent takes its own
/// ([`PRESET_LOOKS`]), in every figure and run. Any other name prefers the colour its hash
/// picks, among those no preset in the figure holds; such names are served in sorted order,
/// and one whose colour is taken gets the next free one, so the same names always get the
/// same colours. Its marker follows its colour.
pub fn series_slots<S: AsRef<str>>(names: &[S]) -> Vec<Slot> {
    // FNV-1a: the same in every build and on every machine.
    let hash =
        |name: &str| name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let preset = |name: &str| {
        PRESET_LOOKS.iter().find(|(n, _, _)| *n == name).map(|&(_, colour, marker)| Slot { colour, marker })
    };
    let mut out: Vec<Option<Slot>> = names.iter().map(|n| preset(n.as_ref())).collect();
    let mut taken = [false; SERIES.len()];
    for s in out.iter().flatten() {
        taken[s.colour] = true;
    }
    let mut order: Vec<usize> = (0..names.len()).filter(|&i| out[i].is_none()).collect();
    order.sort_by(|&a, &b| names[a].as_ref().cmp(names[b].as_ref()));
    for (served, &i) in order.iter().enumerate() {
        if taken.iter().all(|&t| t) {
            // More names than colours: the palette comes round again.
            taken = [false; SERIES.len()];
        }
        let want = (hash(names[i].as_ref()) % SERIES.len() as u64) as usize;
        let free = (0..SERIES.len()).map(|k| (want + k) % SERIES.len()).find(|&k| !taken[k]);
        let k = free.unwrap_or(served % SERIES.len());
        taken[k] = true;
        out[i] = Some(Slot { colour: k, marker: k });
    }
    out.into_iter().map(|s| s.unwrap_or(Slot { colour: 0, marker: 0 })).collect()
}

/// Marks that call for attention (the review's mistakes and losses): vermillion.
pub const EMPHASIS: [u8; 3] = [213, 94, 0];

/// Win, draw and loss, in that order, for W/D/L bars and pies.
pub const OUTCOME: [[u8; 3]; 3] = [[0, 158, 115], [153, 153, 153], [213, 94, 0]];

/// Nine samples of matplotlib's viridis, interpolated linearly.
const VIRIDIS: [[f64; 3]; 9] = [
    [68.0, 1.0, 84.0],
    [71.0, 44.0, 122.0],
    [59.0, 81.0, 139.0],
    [44.0, 113.0, 142.0],
    [33.0, 144.0, 141.0],
    [39.0, 173.0, 129.0],
    [92.0, 200.0, 99.0],
    [170.0, 220.0, 50.0],
    [253.0, 231.0, 37.0],
];

/// Viridis at `t` in [0, 1] (clamped).
pub fn viridis(t: f64) -> [u8; 3] {
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 };
    let h = t * (VIRIDIS.len() - 1) as f64;
    let i = (h.floor() as usize).min(VIRIDIS.len() - 2);
    let f = h - i as f64;
    let mut out = [0u8; 3];
    for c in 0..3 {
        out[c] = (VIRIDIS[i][c] + f * (VIRIDIS[i + 1][c] - VIRIDIS[i][c])).round() as u8;
    }
    out
}

/// How dark a colour prints in grey: its luma (ITU-R BT.601), 0 black to 255 white.
pub fn grey([r, g, b]: [u8; 3]) -> f64 {
    0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b)
}

/// Black or white, whichever reads better on `background`.
pub fn text_on(background: [u8; 3]) -> [u8; 3] {
    if grey(background) > 140.0 { [0, 0, 0] } else { [255, 255, 255] }
}

#[cfg(test)]
mod tests {
    use super::{COLOUR_DASH, PRESET_LOOKS, SERIES, grey, series_slots};

    /// [`COLOUR_DASH`] goes with [`SERIES`] by index: colours next to each other in grey (what
    /// a greyscale print shows) take different patterns, and a change of either list that
    /// breaks it is caught here.
    #[test]
    fn colours_near_in_grey_differ_in_pattern() {
        assert_eq!(COLOUR_DASH.len(), SERIES.len());
        assert!(COLOUR_DASH.iter().all(|&d| usize::from(d) < crate::plot::DASHES.len()));
        let mut by_grey: Vec<usize> = (0..SERIES.len()).collect();
        by_grey.sort_by(|&a, &b| grey(SERIES[a]).total_cmp(&grey(SERIES[b])));
        for pair in by_grey.windows(2) {
            let [a, b] = [pair[0], pair[1]];
            assert_ne!(COLOUR_DASH[a], COLOUR_DASH[b], "{:?} and {:?} print alike", SERIES[a], SERIES[b]);
        }
    }

    /// A preset's colour and marker are its own whoever it is drawn beside: alone, beside each
    /// other preset, and among all of them (the tour saw strong-ab green alone and orange
    /// beside random, in two plots of one run).
    #[test]
    fn a_preset_looks_the_same_beside_any_other() {
        let presets = crate::agents::preset_names();
        let all = series_slots(&presets);
        for (i, a) in presets.iter().enumerate() {
            let alone = series_slots(&[a])[0];
            assert_eq!(all[i], alone, "{a} among all");
            for b in &presets {
                assert_eq!(series_slots(&[a, b])[0], alone, "{a} beside {b}");
                assert_eq!(series_slots(&[b, a])[1], alone, "{a} after {b}");
                // A name of the user's own takes a colour no preset in the figure holds.
                let own = series_slots(&[a, b, &"my-agent"]);
                assert_eq!(own[0], alone, "{a} beside {b} and my-agent");
                assert!(own[2].colour != own[0].colour && own[2].colour != own[1].colour, "{a} {b}: {own:?}");
            }
        }
    }

    /// Every preset has a look of its own; no two looks are the same; the agents studied
    /// together differ in colour.
    #[test]
    fn presets_studied_together_differ_in_colour() {
        for name in crate::agents::preset_names() {
            assert!(PRESET_LOOKS.iter().any(|(n, _, _)| *n == name), "{name} has no look");
        }
        for (i, a) in PRESET_LOOKS.iter().enumerate() {
            for b in &PRESET_LOOKS[i + 1..] {
                assert!((a.1, a.2) != (b.1, b.2), "{} and {} look the same", a.0, b.0);
            }
        }
        let sets: [&[&str]; 9] = [
            &["random", "plain-ab", "plain-uct", "strong-ab-v1", "strong-mcts"],
            &["random", "plain-ab", "plain-uct", "strong-ab", "strong-mcts"],
            &["strong-ab", "strong-ab-v1", "gomoku-ab"],
            // The workbench's slots A and B at first.
            &["strong-ab", "jeng-mcts"],
            &["alam-ab", "alam-mcts", "random"],
            &["lim-minimax", "lim-mcts", "random"],
            &["connectx-minimax", "connectx-mcts", "random"],
            &["jeng-mcts", "random", "strong-mcts"],
            &["flecart", "lim-minimax", "random", "strong-ab"],
        ];
        for set in sets {
            let slots = series_slots(set);
            for i in 0..set.len() {
                for j in i + 1..set.len() {
                    assert_ne!(slots[i].colour, slots[j].colour, "{} and {}", set[i], set[j]);
                }
            }
        }
    }
}
