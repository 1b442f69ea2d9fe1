//! The few vector operations the fast paths need, with a plain fallback.
//!
//! Compilers do not turn a loop of byte compares into a byte mask
//! (`pmovmskb`), and build for the oldest CPU of a target: so the masks
//! are written with SSE2 (part of every x86-64), and a sweep that gains
//! from wider vectors is compiled again for AVX2 and AVX-512, chosen at
//! run time by [`Width::detect`]. Each `unsafe` block says why it holds.

/// Bit `k` set where `block[k] == byte`.
#[inline(always)]
pub(crate) fn eq_mask(block: &[u8; 64], byte: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        let mut m = 0u64;
        for j in 0..4 {
            // SAFETY: SSE2 is part of the x86-64 baseline; the 16 bytes
            // loaded from 16 * j lie within the block, and `loadu` needs
            // no alignment.
            let bits = unsafe {
                let v = _mm_loadu_si128(block.as_ptr().add(16 * j).cast());
                _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(byte as i8)))
            };
            m |= u64::from(bits as u16) << (16 * j);
        }
        m
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        block
            .iter()
            .enumerate()
            .fold(0, |m, (k, &c)| m | (u64::from(c == byte) << k))
    }
}

/// The widest vectors of this CPU that a sweep is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// The target's baseline (SSE2 on x86-64).
    Base,
    /// AVX2: 32 bytes.
    Avx2,
    /// AVX-512 with byte operations: 64 bytes.
    Avx512,
}

impl Width {
    /// What this CPU has (the standard library caches the answer).
    #[inline]
    pub(crate) fn detect() -> Width {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx512bw") {
                return Width::Avx512;
            }
            if is_x86_feature_detected!("avx2") {
                return Width::Avx2;
            }
        }
        Width::Base
    }
}
