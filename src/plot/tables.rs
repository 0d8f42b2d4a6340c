//! Summary tables for papers: the arena's per-pairing statistics as LaTeX (booktabs) and
//! Markdown, with the same columns as the CLI's summary.

use crate::arena::stats::PairStats;

/// The columns every table has: the CLI summary's, the per-move cost of each side as
/// "agent / opponent" (means over all their moves).
const HEADER: [&str; 11] = [
    "Variant",
    "Agent",
    "Opponent",
    "Games",
    "W-D-L",
    "Score (95% CI)",
    "Elo",
    "1st-player wins",
    "ms/move",
    "Nodes/move",
    "Forfeits",
];

fn cells(s: &PairStats) -> [String; 11] {
    [
        s.variant.to_string(),
        s.names[0].clone(),
        s.names[1].clone(),
        s.games.to_string(),
        format!("{}-{}-{}", s.wins, s.draws, s.losses),
        format!("{:.3} ({:.3}-{:.3})", s.score, s.score_low, s.score_high),
        crate::arena::stats::elo_label(s).replace("+-", "± "),
        format!("{:.1}%", 100.0 * s.first_player_wins as f64 / s.games.max(1) as f64),
        format!("{:.1} / {:.1}", s.mean_time[0] * 1e3, s.mean_time[1] * 1e3),
        format!("{:.0} / {:.0}", s.mean_nodes[0], s.mean_nodes[1]),
        format!("{} / {}", s.forfeits[0], s.forfeits[1]),
    ]
}

/// Escapes LaTeX's special characters.
fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '±' => out.push_str("$\\pm$"),
            _ => out.push(ch),
        }
    }
    out
}

/// A `table` environment with a booktabs `tabular` (needs `\usepackage{booktabs}`).
pub fn latex_table(stats: &[PairStats], caption: &str) -> String {
    let mut out = String::from("\\begin{table}[ht]\n\\centering\n\\begin{tabular}{lllrrlrrrrr}\n\\toprule\n");
    out.push_str(&HEADER.iter().map(|h| latex_escape(h)).collect::<Vec<_>>().join(" & "));
    out.push_str(" \\\\\n\\midrule\n");
    for s in stats {
        out.push_str(&cells(s).iter().map(|c| latex_escape(c)).collect::<Vec<_>>().join(" & "));
        out.push_str(" \\\\\n");
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out.push_str(&format!("\\caption{{{}}}\n\\end{{table}}\n", latex_escape(caption)));
    out
}

/// A GitHub-flavoured Markdown table.
pub fn markdown_table(stats: &[PairStats]) -> String {
    let escape = |s: &str| s.replace('|', "\\|");
    let mut out = format!("| {} |\n", HEADER.join(" | "));
    out.push_str("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for s in stats {
        out.push_str(&format!("| {} |\n", cells(s).iter().map(|c| escape(c)).collect::<Vec<_>>().join(" | ")));
    }
    out
}
