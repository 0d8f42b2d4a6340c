//! Axis ticks chosen here rather than by the drawing library, so that every exported figure
//! gets round values (1-2-5 steps, on log axes too), whole numbers on count axes, and one
//! notation per axis. Pure functions: the tests pin what a paper's reader sees.

/// Round tick values covering `lo..=hi`, about `target` of them, at a step of 1, 2 or 5 times
/// a power of ten. Only values inside the range are returned.
pub fn linear(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi < lo {
        return Vec::new();
    }
    if hi == lo {
        return vec![lo];
    }
    let step = nice_step((hi - lo) / target.max(1) as f64);
    stepped(lo, hi, step)
}

/// Like [`linear`] but the step is a whole number (counts of games, plies, depths).
pub fn integer(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi < lo {
        return Vec::new();
    }
    let step = nice_step((hi - lo) / target.max(1) as f64).max(1.0).round();
    stepped(lo, hi, step)
}

/// Ticks of a log10 axis whose drawn coordinate runs `lo..=hi` (exponents): values
/// `log10(m * 10^e)` for m in 1, 2, 5; only powers of ten when that gives at least three
/// ticks; every mantissa 1..9 when 1-2-5 gives fewer than three; round linear values (in data
/// units) for a range narrower than that.
pub fn log125(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi < lo {
        return Vec::new();
    }
    let with = |mantissas: &[f64]| -> Vec<f64> {
        let mut out = Vec::new();
        for e in (lo.floor() as i32 - 1)..=(hi.ceil() as i32) {
            for m in mantissas {
                let v = (m * 10f64.powi(e)).log10();
                if v >= lo - 1e-9 && v <= hi + 1e-9 {
                    out.push(v);
                }
            }
        }
        out
    };
    let decades = with(&[1.0]);
    if decades.len() >= 3 {
        return decades;
    }
    let ticks = with(&[1.0, 2.0, 5.0]);
    if ticks.len() >= 3 {
        return ticks;
    }
    let ticks = with(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    if ticks.len() >= 2 {
        return ticks;
    }
    linear(10f64.powf(lo), 10f64.powf(hi), 4).into_iter().filter(|v| *v > 0.0).map(f64::log10).collect()
}

/// A log10 axis over the exponents `lo..=hi`: its ticks ([`log125`]) and their labels, the
/// data values in one notation ("200", "500", "1000"; never 10^2.5 = "316.228"). The exported
/// figures and the workbench's plots label log axes with this.
pub fn log_axis(lo: f64, hi: f64) -> (Vec<f64>, Vec<String>) {
    let ticks = log125(lo, hi);
    let values: Vec<f64> = ticks.iter().map(|v| round_sig(10f64.powf(*v))).collect();
    let labels = labels(&values);
    (ticks, labels)
}

/// `v` to 6 significant digits (10^log10(500) is 499.99999999999994).
pub fn round_sig(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(5 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

/// At most `max` of `edges` (e.g. a histogram's bin edges), evenly thinned, first kept.
pub fn thinned(edges: &[f64], max: usize) -> Vec<f64> {
    let every = edges.len().div_ceil(max.max(1)).max(1);
    edges.iter().copied().step_by(every).collect()
}

/// Labels for tick values in one notation for the whole axis: plain decimals with the same
/// number of decimals when every value is between 0.001 and 100,000, else `m×10ⁿ` for all.
pub fn labels(values: &[f64]) -> Vec<String> {
    let big = values.iter().any(|v| v.abs() >= 1e5);
    let tiny = values.iter().any(|v| *v != 0.0 && v.abs() < 1e-3);
    if big || tiny {
        // Every mantissa with the decimals the most precise one needs (16,777,000 and
        // 16,778,000 both read 1.68×10⁷ with two; 1.678 beside 1.6779 mixed two forms).
        let mantissa = |v: f64| if v == 0.0 { 0.0 } else { v / 10f64.powi(v.abs().log10().floor() as i32) };
        let digits = values.iter().map(|&v| decimals_of(mantissa(v))).max().unwrap_or(0).min(8);
        return values.iter().map(|&v| scientific(v, digits)).collect();
    }
    let decimals = values.iter().map(|&v| decimals_of(v)).max().unwrap_or(0);
    values.iter().map(|&v| format!("{:.*}", decimals, v + 0.0)).collect()
}

/// The label of one value as [`labels`] would write it among `all`.
pub fn label_among(v: f64, all: &[f64]) -> String {
    let mut with: Vec<f64> = all.to_vec();
    with.push(v);
    labels(&with).pop().unwrap_or_default()
}

fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let e = raw.log10().floor();
    let base = 10f64.powf(e);
    let m = raw / base;
    // The nearest of 1, 2, 5, 10 (Heckbert's rounding), so about `target` ticks either way.
    let nice = if m < 1.5 {
        1.0
    } else if m < 3.0 {
        2.0
    } else if m < 7.0 {
        5.0
    } else {
        10.0
    };
    nice * base
}

fn stepped(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|i| clean(i as f64 * step)).collect()
}

/// Removes floating-point dust (0.30000000000000004 -> 0.3).
fn clean(v: f64) -> f64 {
    let s = format!("{v:.10}");
    s.parse().unwrap_or(v)
}

fn decimals_of(v: f64) -> usize {
    (0..6).find(|&d| ((v * 10f64.powi(d as i32)).round() - v * 10f64.powi(d as i32)).abs() < 1e-6).unwrap_or(6)
}

/// `m×10ⁿ` with `digits` decimals in the mantissa (`10ⁿ` alone for a mantissa of 1 when
/// there are none).
fn scientific(v: f64, digits: usize) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let e = v.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits as i32);
    let m = (v / 10f64.powi(e) * scale).round() / scale;
    let power = format!("10{}", superscript(e));
    if digits == 0 && (m - 1.0).abs() < 1e-9 {
        power
    } else if digits == 0 && (m + 1.0).abs() < 1e-9 {
        format!("−{power}")
    } else {
        format!("{m:.digits$}×{power}")
    }
}

fn superscript(e: i32) -> String {
    e.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_steps_are_one_two_or_five() {
        assert_eq!(linear(0.0, 1.0, 5), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(linear(2.9, 5.1, 5), vec![3.0, 3.5, 4.0, 4.5, 5.0]);
        assert_eq!(linear(-0.05, 1.05, 5), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
    }

    /// Whole-number data (K from 3 to 5) keeps every value, the last one too.
    #[test]
    fn integer_ticks_keep_the_ends() {
        assert_eq!(integer(2.9, 5.1, 8), vec![3.0, 4.0, 5.0]);
        assert_eq!(integer(0.0, 103.0, 5), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert!(integer(0.0, 7.0, 10).iter().all(|v| v.fract() == 0.0));
    }

    #[test]
    fn log_ticks_are_one_two_five_in_one_notation() {
        // 500..1259 (the range that gave 501.187 ... 1258.925): round values only.
        let t = log125(500f64.log10(), 1259f64.log10());
        let values: Vec<f64> = t.iter().map(|v| (10f64.powf(*v) * 1e6).round() / 1e6).collect();
        assert_eq!(values, vec![500.0, 600.0, 700.0, 800.0, 900.0, 1000.0]);
        // Three decades: powers of ten only, all in one notation.
        let t = log125(1e3f64.log10(), 1e6f64.log10());
        let values: Vec<f64> = t.iter().map(|v| (10f64.powf(*v)).round()).collect();
        assert_eq!(values, vec![1e3, 1e4, 1e5, 1e6]);
        assert_eq!(labels(&values), vec!["10³", "10⁴", "10⁵", "10⁶"]);
        // One decade: 1-2-5.
        let t = log125(10f64.log10(), 100f64.log10());
        let values: Vec<f64> = t.iter().map(|v| (10f64.powf(*v)).round()).collect();
        assert_eq!(values, vec![10.0, 20.0, 50.0, 100.0]);
    }

    /// The workbench's log axis once labelled egui's own marks, 10^2.5 as "316.228": the
    /// labels are round data values wherever the range falls.
    #[test]
    fn log_axis_labels_are_round_values() {
        for (lo, hi) in [(1.0, 6.0), (1.2, 3.7), (2.0, 2.5), (0.3, 0.9), (4.1, 4.3), (-1.0, 1.0)] {
            let (ticks, labels) = log_axis(lo, hi);
            assert!(ticks.len() >= 2, "{lo}..{hi}: {ticks:?}");
            for (t, l) in ticks.iter().zip(&labels) {
                assert!(*t >= lo - 1e-9 && *t <= hi + 1e-9);
                assert!(!l.contains('.') || l.len() <= 4, "{lo}..{hi}: {l}");
                let v = round_sig(10f64.powf(*t));
                let m = v / 10f64.powi(v.log10().floor() as i32);
                // A decade's ticks are 1-2-5 (whole mantissas); a narrow range's, round steps.
                assert!((m * 10.0 - (m * 10.0).round()).abs() < 1e-6, "{lo}..{hi}: {v} is not a round value");
            }
        }
        assert_eq!(log_axis(2.0, 3.0).1, ["100", "200", "500", "1000"]);
    }

    #[test]
    fn labels_share_one_notation() {
        assert_eq!(labels(&[10000.0, 100000.0]), vec!["10⁴", "10⁵"]);
        assert_eq!(labels(&[0.0, 0.5, 1.0]), vec!["0.0", "0.5", "1.0"]);
        assert_eq!(labels(&[0.0, 0.25, 0.5]), vec!["0.00", "0.25", "0.50"]);
        assert_eq!(labels(&[2e5, 5e5]), vec!["2×10⁵", "5×10⁵"]);
        assert_eq!(labels(&[3.0, 4.0, 5.0]), vec!["3", "4", "5"]);
        // A narrow range far from zero keeps its ticks apart.
        let l = labels(&[16_777_000.0, 16_778_000.0, 16_780_000.0]);
        assert_eq!(l, vec!["1.6777×10⁷", "1.6778×10⁷", "1.6780×10⁷"]);
    }

    #[test]
    fn thinning_keeps_the_first_edge() {
        let edges: Vec<f64> = (0..=30).map(f64::from).collect();
        let t = thinned(&edges, 8);
        assert!(t.len() <= 8 && t[0] == 0.0);
        assert!(t.windows(2).all(|w| w[1] - w[0] == t[1] - t[0]));
    }
}
