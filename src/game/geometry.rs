//! Precomputed tables of one grid board: the padded bit layout and the symmetries.
//!
//! Layout (as in Pons' Connect-4 solver, plus padding): column-major, each column `height + 1`
//! bits with an always-empty bit on top, one empty column on each side, and one spare bit at
//! the bottom so stepping one cell in any direction from a real cell stays inside the set and
//! lands on either a real cell or an always-empty padding bit. Cell (x, y) sits at bit
//! `(x + 1) * (height + 1) + y + 1`. Win detection walks from the last stone until it meets a
//! cell that is not its own, so the padding ends every walk without bounds checks.

use std::sync::Arc;

use super::GridRules;
use super::windows::WindowTable;

#[derive(Debug)]
pub struct GridGeometry {
    pub rules: GridRules,
    pub width: usize,
    pub height: usize,
    pub k: usize,
    /// Bits per column (height + 1).
    pub stride: usize,
    pub cells: usize,
    /// Padded bit of each dense cell id (`x * height + y`).
    pub bit_of: Vec<u16>,
    /// Bit steps of the four line directions: up, right, up-right, down-right.
    pub dirs: [usize; 4],
    /// Number of symmetries used for the canonical hash (identity first).
    pub nsym: usize,
    /// `sym[s * cells + cell]`: the padded bit of the image of `cell` under symmetry `s`.
    pub sym: Vec<u16>,
    /// Line windows and neighbours, for heuristics (cells numbered `x * height + y`).
    pub windows: Arc<WindowTable>,
}

impl GridGeometry {
    pub fn new(rules: GridRules, capacity: usize) -> GridGeometry {
        let (width, height) = (rules.width() as usize, rules.height() as usize);
        let stride = height + 1;
        assert!((width + 2) * stride < capacity, "board {width}x{height} does not fit {capacity} bits");
        let cells = width * height;
        let bit = |x: usize, y: usize| ((x + 1) * stride + y + 1) as u16;
        let mut bit_of = vec![0u16; cells];
        for x in 0..width {
            for y in 0..height {
                bit_of[x * height + y] = bit(x, y);
            }
        }
        // The symmetry group of the board: the mirror only under gravity (up and down are not
        // alike), the 4 of a rectangle, or the 8 of a square.
        type Map = Box<dyn Fn(usize, usize) -> (usize, usize)>;
        let (w1, h1) = (width - 1, height - 1);
        let mut maps: Vec<Map> = vec![Box::new(|x, y| (x, y)), Box::new(move |x, y| (w1 - x, y))];
        if !rules.gravity() {
            maps.push(Box::new(move |x, y| (x, h1 - y)));
            maps.push(Box::new(move |x, y| (w1 - x, h1 - y)));
            if width == height {
                maps.push(Box::new(|x, y| (y, x)));
                maps.push(Box::new(move |x, y| (w1 - y, h1 - x)));
                maps.push(Box::new(move |x, y| (y, h1 - x)));
                maps.push(Box::new(move |x, y| (w1 - y, x)));
            }
        }
        let mut sym = vec![0u16; maps.len() * cells];
        for (s, f) in maps.iter().enumerate() {
            for x in 0..width {
                for y in 0..height {
                    let (tx, ty) = f(x, y);
                    sym[s * cells + x * height + y] = bit(tx, ty);
                }
            }
        }
        GridGeometry {
            rules,
            width,
            height,
            k: rules.k() as usize,
            stride,
            cells,
            bit_of,
            dirs: [1, stride, stride + 1, stride - 1],
            nsym: maps.len(),
            sym,
            windows: Arc::new(WindowTable::grid(width, height, rules.k() as usize, |x, y| x * height + y)),
        }
    }

    #[inline(always)]
    pub fn bit(&self, x: usize, y: usize) -> usize {
        (x + 1) * self.stride + y + 1
    }

    /// (x, y) of a real bit.
    #[inline]
    pub fn xy_of_bit(&self, b: usize) -> (usize, usize) {
        (b / self.stride - 1, b % self.stride - 1)
    }
}
