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

/// The colour of series `i`.
pub fn series(i: usize) -> [u8; 3] {
    SERIES[i % SERIES.len()]
}

/// The colours of named series (agents), one each: a name keeps its colour from figure to
/// figure and run to run, whatever order the series come in. Each name prefers the colour its
/// hash picks; names are served in sorted order, and one whose colour is taken gets the next
/// free one, so the same names always get the same colours.
///
/// ```
/// use mnklab::plot::palette::series_for;
/// let ab = series_for(&["strong-ab", "random"]);
/// let ba = series_for(&["random", "strong-ab"]);
/// assert_eq!((ab[0], ab[1]), (ba[1], ba[0]));
/// assert_ne!(ab[0], ab[1]);
/// ```
pub fn series_for<S: AsRef<str>>(names: &[S]) -> Vec<[u8; 3]> {
    series_slots(names).into_iter().map(|k| SERIES[k]).collect()
}

/// The palette index each name takes (see [`series_for`]); a series' marker follows it, so
/// that a name keeps its shape as it keeps its colour.
pub fn series_slots<S: AsRef<str>>(names: &[S]) -> Vec<usize> {
    // FNV-1a: the same in every build and on every machine.
    let hash =
        |name: &str| name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| names[a].as_ref().cmp(names[b].as_ref()));
    let mut taken = [false; SERIES.len()];
    let mut out = vec![0; names.len()];
    for (served, &i) in order.iter().enumerate() {
        let want = (hash(names[i].as_ref()) % SERIES.len() as u64) as usize;
        // More names than colours: the palette repeats, as `series` does.
        let free = (0..SERIES.len()).map(|k| (want + k) % SERIES.len()).find(|&k| !taken[k]);
        let k = free.unwrap_or(served % SERIES.len());
        if free.is_some() {
            taken[k] = true;
        }
        if taken.iter().all(|&t| t) {
            taken = [false; SERIES.len()];
        }
        out[i] = k;
    }
    out
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
