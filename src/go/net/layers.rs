//! The convolution layers as matrix products: a 3×3 convolution over a batch of boards is
//! `im2col` (each point's 3×3 neighbourhood of every input channel as one column) and one
//! matrix product with the weights; its gradient is two more products and `col2im`.
//!
//! Tensors are `[channel][board * area + point]`: the boards of a batch (all of one size)
//! side by side in each channel's row, so one product serves the whole batch.
//!
//! The products go through `ndarray`'s `general_mat_mul` (the `matrixmultiply` kernels,
//! behind a safe API). Measured on this machine (one thread, `gemm_speeds` below, a
//! 48×432 by 432×2592 product, a 9×9 batch of 32): ndarray 32 GFLOP/s, the plain loops 7.3
//! (`gemm_plain`, kept as the reference the tests compare against), so ndarray it is.

use ndarray::linalg::general_mat_mul;
use ndarray::{ArrayView2, ArrayViewMut2, ShapeBuilder};

/// A matrix stored row-major in a slice, possibly read transposed.
#[derive(Clone, Copy)]
pub struct Mat<'a> {
    pub data: &'a [f32],
    pub rows: usize,
    pub cols: usize,
    /// Read as its transpose (`cols × rows`).
    pub transposed: bool,
}

impl<'a> Mat<'a> {
    pub fn new(data: &'a [f32], rows: usize, cols: usize) -> Mat<'a> {
        Mat {
            data,
            rows,
            cols,
            transposed: false,
        }
    }

    pub fn t(self) -> Mat<'a> {
        Mat {
            transposed: !self.transposed,
            ..self
        }
    }

    fn view(self) -> ArrayView2<'a, f32> {
        let view =
            ArrayView2::from_shape((self.rows, self.cols).strides((self.cols, 1)), self.data)
                .expect("a matrix's slice holds rows × cols floats");
        if self.transposed {
            view.reversed_axes()
        } else {
            view
        }
    }

    /// (rows, cols) as read.
    fn shape(self) -> (usize, usize) {
        if self.transposed {
            (self.cols, self.rows)
        } else {
            (self.rows, self.cols)
        }
    }
}

/// `c = a · b + beta · c`, with `c` row-major `m × n`.
pub fn gemm(a: Mat, b: Mat, beta: f32, c: &mut [f32]) {
    let (m, _) = a.shape();
    let (_, n) = b.shape();
    let mut out = ArrayViewMut2::from_shape((m, n), c).expect("c holds m × n floats");
    general_mat_mul(1.0, &a.view(), &b.view(), beta, &mut out);
}

/// The same product in plain loops (i, k, j order, so the inner loop runs along rows of
/// `b` and `c` and vectorises): the reference for tests and for the speed comparison.
pub fn gemm_plain(a: Mat, b: Mat, beta: f32, c: &mut [f32]) {
    let (m, k) = a.shape();
    let (_, n) = b.shape();
    let (av, bv) = (a.view(), b.view());
    for x in c.iter_mut() {
        *x *= beta;
    }
    let b_rows: Vec<Vec<f32>> = (0..k).map(|r| bv.row(r).to_vec()).collect();
    for i in 0..m {
        let row = &mut c[i * n..(i + 1) * n];
        for (kk, b_row) in b_rows.iter().enumerate() {
            let aik = av[(i, kk)];
            for (x, &y) in row.iter_mut().zip(b_row) {
                *x += aik * y;
            }
        }
    }
}

/// The 3×3 neighbourhoods of `x` (`channels × batch·size²`) as the columns of `cols`
/// (`channels·9 × batch·size²`); off-board neighbours are 0.
pub fn im2col(x: &[f32], channels: usize, size: usize, batch: usize, cols: &mut [f32]) {
    let area = size * size;
    let width = batch * area;
    debug_assert_eq!(x.len(), channels * width);
    debug_assert_eq!(cols.len(), channels * 9 * width);
    for ch in 0..channels {
        let plane = &x[ch * width..(ch + 1) * width];
        for k in 0..9 {
            let (dy, dx) = (k / 3, k % 3);
            let row = &mut cols[(ch * 9 + k) * width..(ch * 9 + k + 1) * width];
            for b in 0..batch {
                let src = &plane[b * area..(b + 1) * area];
                let dst = &mut row[b * area..(b + 1) * area];
                shift(src, dst, size, dy, dx);
            }
        }
    }
}

/// `dst[y][x] = src[y + dy - 1][x + dx - 1]`, 0 off the board.
fn shift(src: &[f32], dst: &mut [f32], size: usize, dy: usize, dx: usize) {
    for y in 0..size {
        let out = &mut dst[y * size..(y + 1) * size];
        let sy = y + dy;
        if sy < 1 || sy > size {
            out.fill(0.0);
            continue;
        }
        let src_row = &src[(sy - 1) * size..sy * size];
        for (x, o) in out.iter_mut().enumerate() {
            let sx = x + dx;
            *o = if sx < 1 || sx > size {
                0.0
            } else {
                src_row[sx - 1]
            };
        }
    }
}

/// The gradient of [`im2col`]: adds each column entry back to the point it came from.
pub fn col2im_add(cols: &[f32], channels: usize, size: usize, batch: usize, dx: &mut [f32]) {
    let area = size * size;
    let width = batch * area;
    for ch in 0..channels {
        let plane = &mut dx[ch * width..(ch + 1) * width];
        for k in 0..9 {
            let (ky, kx) = (k / 3, k % 3);
            let row = &cols[(ch * 9 + k) * width..(ch * 9 + k + 1) * width];
            for b in 0..batch {
                let src = &row[b * area..(b + 1) * area];
                let dst = &mut plane[b * area..(b + 1) * area];
                for y in 0..size {
                    let sy = y + ky;
                    if sy < 1 || sy > size {
                        continue;
                    }
                    for x in 0..size {
                        let sx = x + kx;
                        if sx >= 1 && sx <= size {
                            dst[(sy - 1) * size + sx - 1] += src[y * size + x];
                        }
                    }
                }
            }
        }
    }
}

/// A 3×3 convolution: `out = w · cols + bias` (`w` is `out_ch × in_ch·9`).
pub fn conv_forward(w: &[f32], bias: &[f32], cols: &[f32], width: usize, out: &mut [f32]) {
    let out_ch = bias.len();
    let inner = w.len() / out_ch;
    for (row, &b) in out.chunks_exact_mut(width).zip(bias) {
        row.fill(b);
    }
    gemm(
        Mat::new(w, out_ch, inner),
        Mat::new(cols, inner, width),
        1.0,
        out,
    );
}

/// The gradients of a 3×3 convolution from `dout`: adds to `dw` and `dbias`, and writes
/// the columns' gradient into `dcols` when asked.
pub fn conv_backward(
    w: &[f32],
    cols: &[f32],
    dout: &[f32],
    width: usize,
    grads: (&mut [f32], &mut [f32]),
    dcols: Option<&mut [f32]>,
) {
    let (dw, dbias) = grads;
    let out_ch = dbias.len();
    let inner = w.len() / out_ch;
    for (row, db) in dout.chunks_exact(width).zip(dbias.iter_mut()) {
        *db += row.iter().sum::<f32>();
    }
    let dout_m = Mat::new(dout, out_ch, width);
    gemm(dout_m, Mat::new(cols, inner, width).t(), 1.0, dw);
    if let Some(dcols) = dcols {
        gemm(Mat::new(w, out_ch, inner).t(), dout_m, 0.0, dcols);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f32], b: &[f32]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-4, "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn gemm_matches_hand_products_and_transposes() {
        // [1 2; 3 4] · [5 6; 7 8] = [19 22; 43 50]
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [5.0, 6.0, 7.0, 8.0];
        let mut c = [0.0; 4];
        gemm(Mat::new(&a, 2, 2), Mat::new(&b, 2, 2), 0.0, &mut c);
        close(&c, &[19.0, 22.0, 43.0, 50.0]);
        // aᵀ · b = [1 3; 2 4] · [5 6; 7 8] = [26 30; 38 44], plus 1 × the old c.
        let mut c2 = [1.0; 4];
        gemm(Mat::new(&a, 2, 2).t(), Mat::new(&b, 2, 2), 1.0, &mut c2);
        close(&c2, &[27.0, 31.0, 39.0, 45.0]);
        let mut c3 = [1.0; 4];
        gemm_plain(Mat::new(&a, 2, 2).t(), Mat::new(&b, 2, 2), 1.0, &mut c3);
        close(&c3, &c2);
    }

    #[test]
    fn a_3x3_convolution_by_hand() {
        // One 2×2 board, one channel [1 2; 3 4]; a kernel of all ones sums each point's
        // neighbourhood: every point sees all four stones, so each output is 10 (+ bias 0.5).
        let x = [1.0, 2.0, 3.0, 4.0];
        let mut cols = [0.0; 9 * 4];
        im2col(&x, 1, 2, 1, &mut cols);
        let mut out = [0.0; 4];
        conv_forward(&[1.0; 9], &[0.5], &cols, 4, &mut out);
        close(&out, &[10.5; 4]);
        // The centre tap alone copies the input; the tap "one to the left" (k = 3) gives
        // each point its left neighbour: [0 1; 0 3].
        let mut centre = [0.0; 9];
        centre[4] = 1.0;
        conv_forward(&centre, &[0.0], &cols, 4, &mut out);
        close(&out, &x);
        let mut left = [0.0; 9];
        left[3] = 1.0;
        conv_forward(&left, &[0.0], &cols, 4, &mut out);
        close(&out, &[0.0, 1.0, 0.0, 3.0]);
    }

    #[test]
    fn col2im_is_the_transpose_of_im2col() {
        // <im2col(x), c> = <x, col2im(c)> for any x and c.
        let (ch, size, batch) = (2, 3, 2);
        let x: Vec<f32> = (0..ch * size * size * batch)
            .map(|i| (i % 7) as f32 - 3.0)
            .collect();
        let c: Vec<f32> = (0..ch * 9 * size * size * batch)
            .map(|i| (i % 5) as f32 * 0.5)
            .collect();
        let mut cols = vec![0.0; c.len()];
        im2col(&x, ch, size, batch, &mut cols);
        let mut back = vec![0.0; x.len()];
        col2im_add(&c, ch, size, batch, &mut back);
        let lhs: f32 = cols.iter().zip(&c).map(|(a, b)| a * b).sum();
        let rhs: f32 = x.iter().zip(&back).map(|(a, b)| a * b).sum();
        assert!((lhs - rhs).abs() < 1e-3, "{lhs} vs {rhs}");
    }

    #[test]
    fn conv_gradients_by_hand() {
        // out = w · cols + b with one output: d out / d w = cols, d out / d b = 1.
        let x = [1.0, 2.0, 3.0, 4.0];
        let mut cols = [0.0; 36];
        im2col(&x, 1, 2, 1, &mut cols);
        let w = [0.5; 9];
        let (mut dw, mut db, mut dcols) = ([0.0; 9], [0.0; 1], [0.0; 36]);
        conv_backward(
            &w,
            &cols,
            &[1.0, 0.0, 0.0, 0.0],
            4,
            (&mut dw, &mut db),
            Some(&mut dcols),
        );
        // The top-left point's neighbourhood (rows 0..3 of each tap, column 0).
        let expected: Vec<f32> = (0..9).map(|k| cols[k * 4]).collect();
        close(&dw, &expected);
        close(&db, &[1.0]);
        assert_eq!(dcols[4 * 4], 0.5);
        assert_eq!(dcols[4 * 4 + 1], 0.0);
    }

    /// `cargo test --release --lib go::net::layers -- --ignored --nocapture gemm_speeds`
    #[test]
    #[ignore = "a timing, for choosing the product's implementation"]
    fn gemm_speeds() {
        let (m, k, n) = (48, 432, 2592);
        let a: Vec<f32> = (0..m * k).map(|i| (i % 13) as f32 * 0.01).collect();
        let b: Vec<f32> = (0..k * n).map(|i| (i % 7) as f32 * 0.01).collect();
        let mut c = vec![0.0; m * n];
        for (name, f) in [
            ("ndarray", gemm as fn(Mat, Mat, f32, &mut [f32])),
            ("plain", gemm_plain),
        ] {
            let start = std::time::Instant::now();
            for _ in 0..20 {
                f(Mat::new(&a, m, k), Mat::new(&b, k, n), 0.0, &mut c);
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{name}: {:.2} GFLOP/s",
                20.0 * 2.0 * (m * k * n) as f64 / secs / 1e9
            );
        }
    }
}
