//! How the board draws what an analysis found, decided without a window: where a free
//! placement board has its star points, and which candidates get a label and which only a
//! disc sized by their strength (a heat overlay, as Lizzie and KaTrain draw it).

/// Candidates with a label on their cell, at most, when more are shown than
/// [`ALL_LABELLED_UP_TO`]: the rest are discs. Forty cells of nearly the same "≤ -3.2" told
/// nothing; the tooltip and the table still give every number.
pub const LABELLED_MARKS: usize = 5;

/// Up to this many candidates shown, every one is labelled (Connect-4's seven columns: two
/// bare dots beside labels of the same value read as moves without a value).
pub const ALL_LABELLED_UP_TO: usize = 8;

/// How one candidate is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MarkStyle {
    /// A filled cell with its label (the best few).
    Labelled,
    /// A disc whose radius, as a share of half the cell, grows with the candidate's strength.
    Disc { radius: f32 },
}

/// The style of the candidate ranked `rank` (0 best) of `shown`, of strength `strength` in
/// [0, 1].
pub fn mark_style(rank: usize, shown: usize, strength: f32) -> MarkStyle {
    if rank < LABELLED_MARKS || shown <= ALL_LABELLED_UP_TO {
        MarkStyle::Labelled
    } else {
        MarkStyle::Disc { radius: 0.25 + 0.55 * strength.clamp(0.0, 1.0) }
    }
}

/// The star points of a `width` x `height` free placement board, as (column, row) from 0:
/// on boards of 13 lines or more the fourth line from each edge, on 9 to 12 lines the third,
/// where the corners' points meet, and the centre where both sides are odd (gomoku's 15 x 15:
/// d4, d12, l4, l12 and h8). None on boards under 9 lines (tic-tac-toe).
pub fn star_points(width: usize, height: usize) -> Vec<(usize, usize)> {
    let line = |n: usize| match n {
        13.. => Some(3),
        9..=12 => Some(2),
        _ => None,
    };
    let (Some(lx), Some(ly)) = (line(width), line(height)) else { return Vec::new() };
    let mut points = Vec::new();
    for x in [lx, width - 1 - lx] {
        for y in [ly, height - 1 - ly] {
            points.push((x, y));
        }
    }
    if width % 2 == 1 && height % 2 == 1 {
        points.push((width / 2, height / 2));
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cell_name;

    #[test]
    fn gomoku_has_the_five_star_points_players_know() {
        let mut names: Vec<String> = star_points(15, 15).into_iter().map(|(x, y)| cell_name(x, y)).collect();
        names.sort();
        assert_eq!(names, ["d12", "d4", "h8", "l12", "l4"]);
        assert_eq!(star_points(19, 19).len(), 5);
        assert!(star_points(19, 19).contains(&(3, 15)));
        let nine: Vec<String> = star_points(9, 9).into_iter().map(|(x, y)| cell_name(x, y)).collect();
        assert_eq!(nine, ["c3", "c7", "g3", "g7", "e5"]);
        assert_eq!(star_points(10, 10).len(), 4, "no centre on an even board");
        assert!(star_points(3, 3).is_empty() && star_points(7, 6).is_empty());
    }

    #[test]
    fn the_best_few_are_labelled_and_the_rest_are_discs_sized_by_strength() {
        assert_eq!(mark_style(0, 40, 1.0), MarkStyle::Labelled);
        assert_eq!(mark_style(LABELLED_MARKS - 1, 40, 0.1), MarkStyle::Labelled);
        // Connect-4's seven candidates: all labelled.
        assert!((0..7).all(|rank| mark_style(rank, 7, 0.1) == MarkStyle::Labelled));
        let (MarkStyle::Disc { radius: weak }, MarkStyle::Disc { radius: strong }) =
            (mark_style(LABELLED_MARKS, 40, 0.1), mark_style(LABELLED_MARKS + 3, 40, 0.9))
        else {
            panic!("discs after the labelled ones")
        };
        assert!(weak < strong && strong <= 0.8 && weak >= 0.25);
    }
}
