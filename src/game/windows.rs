//! The line windows of a board (every run of K cells in a line) and each cell's neighbours:
//! the geometry heuristics are written over, the same for 2D and 3D boards.

/// Precomputed per variant and shared (`Arc`) by every copy of a position.
#[derive(Debug)]
pub struct WindowTable {
    /// Cells in a window (K; 4 for connect3d).
    pub k: usize,
    /// Number of cells of the board (dense cell ids are `0..cells`).
    pub cells: usize,
    /// `windows[w * k .. (w + 1) * k]`: the cells of window `w`, in line order.
    pub window_cells: Vec<u16>,
    /// `of_cell[of_cell_start[c] .. of_cell_start[c + 1]]`: the windows through cell `c`.
    of_cell: Vec<u32>,
    of_cell_start: Vec<u32>,
    /// Adjacent cells (8 around in 2D, up to 26 in 3D).
    neighbours: Vec<u16>,
    neighbours_start: Vec<u32>,
    /// Maximal lines (edge to edge in one direction) at least `k` long, cells in order.
    pub lines: Vec<Vec<u16>>,
    /// Per cell, how central it is: 0 at the edge, growing towards the middle (for tie-breaks).
    pub centrality: Vec<u8>,
}

impl WindowTable {
    /// Builds the table from a list of windows and the neighbour lists.
    pub fn new(
        k: usize,
        cells: usize,
        windows: Vec<Vec<u16>>,
        lines: Vec<Vec<u16>>,
        neighbours: Vec<Vec<u16>>,
        centrality: Vec<u8>,
    ) -> WindowTable {
        let mut of: Vec<Vec<u32>> = vec![Vec::new(); cells];
        let mut window_cells = Vec::with_capacity(windows.len() * k);
        for (w, cs) in windows.iter().enumerate() {
            debug_assert_eq!(cs.len(), k);
            for &c in cs {
                of[c as usize].push(w as u32);
            }
            window_cells.extend_from_slice(cs);
        }
        let (of_cell, of_cell_start) = flatten(of);
        let (neighbours, neighbours_start) = flatten(neighbours);
        WindowTable { k, cells, window_cells, of_cell, of_cell_start, neighbours, neighbours_start, lines, centrality }
    }

    pub fn len(&self) -> usize {
        self.window_cells.len() / self.k.max(1)
    }

    pub fn is_empty(&self) -> bool {
        self.window_cells.is_empty()
    }

    #[inline]
    pub fn cells_of(&self, w: usize) -> &[u16] {
        &self.window_cells[w * self.k..(w + 1) * self.k]
    }

    #[inline]
    pub fn windows_through(&self, cell: usize) -> &[u32] {
        &self.of_cell[self.of_cell_start[cell] as usize..self.of_cell_start[cell + 1] as usize]
    }

    #[inline]
    pub fn neighbours(&self, cell: usize) -> &[u16] {
        &self.neighbours[self.neighbours_start[cell] as usize..self.neighbours_start[cell + 1] as usize]
    }

    /// Windows of a 2D grid: `cell(x, y)` numbers the cells, `k` in a row in the 4 directions.
    pub fn grid(width: usize, height: usize, k: usize, cell: impl Fn(usize, usize) -> usize) -> WindowTable {
        let inside = |x: isize, y: isize| x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height;
        let mut windows = Vec::new();
        let mut lines = Vec::new();
        for x in 0..width as isize {
            for y in 0..height as isize {
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let end = (x + dx * (k as isize - 1), y + dy * (k as isize - 1));
                    if inside(end.0, end.1) {
                        windows.push(
                            (0..k as isize)
                                .map(|i| cell((x + dx * i) as usize, (y + dy * i) as usize) as u16)
                                .collect(),
                        );
                    }
                    if !inside(x - dx, y - dy) {
                        let line: Vec<u16> = (0..)
                            .map(|i| (x + dx * i, y + dy * i))
                            .take_while(|&(a, b)| inside(a, b))
                            .map(|(a, b)| cell(a as usize, b as usize) as u16)
                            .collect();
                        if line.len() >= k {
                            lines.push(line);
                        }
                    }
                }
            }
        }
        let mut neighbours = vec![Vec::new(); width * height];
        let mut centrality = vec![0u8; width * height];
        for x in 0..width {
            for y in 0..height {
                for dx in -1..=1isize {
                    for dy in -1..=1isize {
                        let (nx, ny) = (x as isize + dx, y as isize + dy);
                        if (dx, dy) != (0, 0) && inside(nx, ny) {
                            neighbours[cell(x, y)].push(cell(nx as usize, ny as usize) as u16);
                        }
                    }
                }
                let edge = x.min(width - 1 - x).min(y.min(height - 1 - y));
                centrality[cell(x, y)] = edge.min(255) as u8;
            }
        }
        WindowTable::new(k, width * height, windows, lines, neighbours, centrality)
    }
}

fn flatten<T: Copy>(lists: Vec<Vec<T>>) -> (Vec<T>, Vec<u32>) {
    let mut flat = Vec::new();
    let mut start = Vec::with_capacity(lists.len() + 1);
    for l in &lists {
        start.push(flat.len() as u32);
        flat.extend_from_slice(l);
    }
    start.push(flat.len() as u32);
    (flat, start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_window_counts() {
        // Tic-tac-toe: 8 lines; the centre is on 4 of them, a corner on 3, an edge on 2.
        let t = WindowTable::grid(3, 3, 3, |x, y| x * 3 + y);
        assert_eq!(t.len(), 8);
        assert_eq!(t.windows_through(4).len(), 4);
        assert_eq!(t.windows_through(0).len(), 3);
        assert_eq!(t.windows_through(1).len(), 2);
        assert_eq!(t.neighbours(4).len(), 8);
        assert_eq!(t.neighbours(0).len(), 3);
        assert_eq!(t.lines.len(), 8);
        // Gomoku 15x15, K = 5: 11*15 + 15*11 + 2*11*11 windows.
        let g = WindowTable::grid(15, 15, 5, |x, y| x * 15 + y);
        assert_eq!(g.len(), 165 + 165 + 242);
    }
}
