//! Reading the tables: at grid points, between them, and outside them.

use super::table::locate;
use super::*;

#[test]
fn locate_finds_the_interval_in_log_space() {
    let axis = [128.0, 256.0, 512.0];
    assert_eq!(locate(&axis, 128.0), (0, 0.0));
    assert_eq!(locate(&axis, 256.0), (1, 0.0));
    let (i, t) = locate(&axis, 181.019_335_983_756_2); // 128·√2
    assert_eq!(i, 0);
    assert!((t - 0.5).abs() < 1e-12);
    // Outside: the nearest edge.
    assert_eq!(locate(&axis, 64.0), (0, 0.0));
    assert_eq!(locate(&axis, 1e9), (1, 1.0));
    assert_eq!(locate(&axis, f64::NAN), (0, 0.0));
    assert_eq!(locate(&[7.0], 9.0), (0, 0.0));
}

#[test]
fn gemm_grid_points_read_their_measurement() {
    for (p, pass) in Pass::ALL.into_iter().enumerate() {
        for (i, &m) in H200_GEMM.m.iter().enumerate() {
            for (j, &n) in H200_GEMM.n.iter().enumerate() {
                for (l, &k) in H200_GEMM.k.iter().enumerate() {
                    let want = f64::from(H200_GEMM.tflops[p][i][j][l]);
                    assert_eq!(H200_GEMM.rate(pass, m, n, k), want, "{pass:?} {m} {n} {k}");
                }
            }
        }
    }
}

#[test]
fn gemm_between_points_is_log_linear() {
    let t = |i: usize, j: usize, l: usize| f64::from(H200_GEMM.tflops[0][i][j][l]);
    // M halfway in log space between 1,024 and 2,048 at N = K = 4,096: the geometric mean.
    let m = (1024.0_f64 * 2048.0).sqrt();
    let want = (t(3, 3, 3) * t(4, 3, 3)).sqrt();
    assert!((H200_GEMM.rate(Pass::Forward, m, 4096.0, 4096.0) - want).abs() < 1e-9);
    // N = 6,144 (QKV of Llama 3 8B): log2(6144/4096) = 0.585 of the way to 8,192.
    let frac = (6144.0_f64 / 4096.0).log2();
    let want = (t(4, 3, 3).ln() * (1.0 - frac) + t(4, 4, 3).ln() * frac).exp();
    assert!((H200_GEMM.rate(Pass::Forward, 2048.0, 6144.0, 4096.0) - want).abs() < 1e-9);
    // Three coordinates off the grid at once: between the corners' rates.
    let r = H200_GEMM.rate(Pass::Wgrad, 3000.0, 6000.0, 3000.0);
    let corners = [(4, 3, 2), (5, 4, 3)].map(|(i, j, l)| f64::from(H200_GEMM.tflops[2][i][j][l]));
    assert!(r > 0.0 && r.is_finite());
    assert!(r >= corners[0].min(corners[1]) * 0.8 && r <= corners[0].max(corners[1]) * 1.2);
}

#[test]
fn gemm_outside_the_grid_keeps_the_edge() {
    // Widths beyond 32,768 read the edge's rate.
    let edge = H200_GEMM.rate(Pass::Dgrad, 4096.0, 32768.0, 32768.0);
    assert_eq!(H200_GEMM.rate(Pass::Dgrad, 4096.0, 65536.0, 131072.0), edge);
    // Widths under 512 too.
    let edge = H200_GEMM.rate(Pass::Forward, 4096.0, 512.0, 512.0);
    assert_eq!(H200_GEMM.rate(Pass::Forward, 4096.0, 100.0, 64.0), edge);
    // Tokens beyond 16,384: the edge's rate.
    let edge = H200_GEMM.rate(Pass::Forward, 16384.0, 4096.0, 4096.0);
    assert_eq!(H200_GEMM.rate(Pass::Forward, 1e6, 4096.0, 4096.0), edge);
    // Fewer tokens than 128: the time of 128 tokens, so the rate falls in proportion.
    let at_128 = H200_GEMM.rate(Pass::Forward, 128.0, 4096.0, 4096.0);
    let at_32 = H200_GEMM.rate(Pass::Forward, 32.0, 4096.0, 4096.0);
    assert!((at_32 - at_128 / 4.0).abs() < 1e-9);
}

#[test]
fn attention_points_lengths_and_edges() {
    // A full-size measured point.
    assert_eq!(H200_ATTENTION.rate(4096.0, 128.0), 263.8);
    assert_eq!(H200_ATTENTION.full_rate(8192.0), 290.8);
    // A layer's measured point: 2,048 tokens × 32 heads at batch 1.
    assert!((H200_ATTENTION.rate(2048.0, 32.0) - 123.4).abs() < 1e-9);
    // Between the layer's widths at one length: log-linear (16 → 32 heads).
    let mid = H200_ATTENTION.rate(2048.0, (16.0_f64 * 32.0).sqrt());
    assert!((mid - (95.6_f64 * 123.4).sqrt()).abs() < 1e-9);
    // Between 64 heads (131,072 rows) and the full 524,288 rows at 2,048: toward 224.6.
    let r = H200_ATTENTION.rate(2048.0, 128.0);
    assert!((r - (151.5_f64 * 224.6).sqrt()).abs() < 1e-9);
    // More rows than the full calls: the full rate.
    assert_eq!(H200_ATTENTION.rate(2048.0, 1000.0), 224.6);
    // Fewer rows than measured: the nearest edge of the occupancy (16 heads' share).
    assert!((H200_ATTENTION.rate(2048.0, 4.0) - 95.6).abs() < 1e-9);
    // Between lengths: log-linear in the full rate and in the occupancy.
    let length = (2048.0_f64 * 4096.0).sqrt();
    assert!((H200_ATTENTION.full_rate(length) - (224.6_f64 * 263.8).sqrt()).abs() < 1e-9);
    // Outside the lengths: the nearest edge.
    assert_eq!(H200_ATTENTION.rate(256.0, 4096.0), 113.4);
    assert_eq!(H200_ATTENTION.rate(1e6, 32.0), 324.3);
    // At every width, a longer chunk never reads slower: a context-parallel chunk of s/c
    // tokens is never quicker per FLOP than the whole sequence.
    for n in [1.0, 4.0, 16.0, 32.0, 64.0, 256.0, 1024.0] {
        let mut last = 0.0;
        for length in [
            256.0, 512.0, 1024.0, 2048.0, 3000.0, 4096.0, 8192.0, 16384.0, 32768.0,
        ] {
            let r = H200_ATTENTION.rate(length, n);
            assert!(r >= last, "{n} heads × batch at {length}: {r} < {last}");
            last = r;
        }
    }
}
