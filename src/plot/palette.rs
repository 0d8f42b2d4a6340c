//! Colours shared by the workbench and exported figures: the Okabe-Ito palette (safe for
//! the common colour-vision deficiencies) for series, and viridis for heatmaps.

/// Okabe & Ito (2008), black moved last: blue, orange, bluish green, vermillion, sky blue,
/// reddish purple, yellow, black.
pub const SERIES: [[u8; 3]; 8] = [
    [0, 114, 178],
    [230, 159, 0],
    [0, 158, 115],
    [213, 94, 0],
    [86, 180, 233],
    [204, 121, 167],
    [240, 228, 66],
    [0, 0, 0],
];

/// The colour of series `i`.
pub fn series(i: usize) -> [u8; 3] {
    SERIES[i % SERIES.len()]
}

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

/// Black or white, whichever reads better on `background`.
pub fn text_on(background: [u8; 3]) -> [u8; 3] {
    let [r, g, b] = background.map(f64::from);
    if 0.299 * r + 0.587 * g + 0.114 * b > 140.0 { [0, 0, 0] } else { [255, 255, 255] }
}
