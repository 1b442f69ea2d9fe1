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

/// What a move's fast path needs to know of 16 bytes, a bit a byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MoveBytes {
    /// Bytes a move keeps as they are: a capital but `P`, a digit, one of
    /// `-*@=&+#`.
    pub kept: u16,
    /// `P`.
    pub pawn: u16,
    /// Capitals, `P` among them.
    pub capital: u16,
    /// `*` and `=`: a piece glyph may follow.
    pub before_glyph: u16,
    /// Bytes above ASCII.
    pub high: u16,
}

/// The [`MoveBytes`] of `block`.
#[inline(always)]
pub(crate) fn move_bytes(block: &[u8; 16]) -> MoveBytes {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_loadu_si128,
            _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is part of the x86-64 baseline; the 16 bytes loaded
        // are the block's, and `loadu` needs no alignment.
        unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast());
            let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
            // Signed compares: bytes above ASCII are negative, in no range.
            let within = |lo: u8, hi: u8| {
                _mm_and_si128(
                    _mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1)),
                    _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1)),
                )
            };
            let pawn = eq(b'P');
            let before_glyph = _mm_or_si128(eq(b'*'), eq(b'='));
            let signs = _mm_or_si128(
                _mm_or_si128(eq(b'-'), eq(b'@')),
                _mm_or_si128(_mm_or_si128(eq(b'&'), eq(b'+')), eq(b'#')),
            );
            let capital = within(b'A', b'Z');
            let letters_digits = _mm_or_si128(capital, within(b'0', b'9'));
            let kept = _mm_or_si128(_mm_or_si128(letters_digits, signs), before_glyph);
            let bits = |m| _mm_movemask_epi8(m) as u16;
            MoveBytes {
                kept: bits(kept) & !bits(pawn),
                pawn: bits(pawn),
                capital: bits(capital),
                before_glyph: bits(before_glyph),
                high: bits(v),
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        move_bytes_plain(block)
    }
}

/// [`move_bytes`] a byte at a time: the build for other targets, and what
/// the vector build is tested against.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn move_bytes_plain(block: &[u8; 16]) -> MoveBytes {
    let mut m = MoveBytes::default();
    for (k, &c) in block.iter().enumerate() {
        let bit = 1u16 << k;
        match c {
            b'P' => {
                m.pawn |= bit;
                m.capital |= bit;
            }
            b'*' | b'=' => {
                m.kept |= bit;
                m.before_glyph |= bit;
            }
            b'A'..=b'Z' => {
                m.kept |= bit;
                m.capital |= bit;
            }
            b'0'..=b'9' | b'-' | b'@' | b'&' | b'+' | b'#' => m.kept |= bit,
            0x80.. => m.high |= bit,
            _ => {}
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_bytes_classify_every_byte_at_every_place_as_the_plain_build() {
        for c in 0..=255u8 {
            for k in 0..16 {
                // Each value at each place, among bytes of every class.
                let mut block = *b"E7-E13*P=#x\xC3 ,:!";
                block[k] = c;
                assert_eq!(
                    move_bytes(&block),
                    move_bytes_plain(&block),
                    "{c:#04x} at {k}"
                );
            }
        }
    }
}
