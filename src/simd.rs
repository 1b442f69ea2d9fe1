//! The few vector operations the fast paths need, with a plain fallback.
//!
//! Compilers do not turn a loop of byte compares into a byte mask
//! (`pmovmskb`), and build for the oldest CPU of a target: so the masks
//! are written with SSE2 (part of every x86-64), and a sweep that gains
//! from wider vectors is compiled again for AVX2 and AVX-512, chosen at
//! run time by [`Width::detect`]; a move pair's 32 bytes are classified
//! with AVX2 where the CPU has it. Each `unsafe` block says why it holds.

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

/// What a move's fast path needs to know of 16 bytes (`u16`), or a move
/// pair's of 32 (`u32`), a bit a byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MoveBytes<M = u16> {
    /// Bytes a move keeps as they are: a capital but `P`, a digit, one of
    /// `-*@=&+#`.
    pub kept: M,
    /// `P`.
    pub pawn: M,
    /// Capitals, `P` among them.
    pub capital: M,
    /// `*` and `=`: a piece glyph may follow.
    pub before_glyph: M,
    /// Bytes above ASCII.
    pub high: M,
    /// `^`.
    pub caret: M,
    /// `,`.
    pub comma: M,
    /// A space or a line end.
    pub blank: M,
}

/// The [`MoveBytes`] of the vector `$v`, with the vector operations of its
/// width: `$bits` is the mask type, the rest name the intrinsics (`$gt` the
/// signed greater-than). One definition of the classes for every width.
#[cfg(target_arch = "x86_64")]
macro_rules! move_classes {
    ($v:ident: $bits:ty, $set1:ident, $eq:ident, $gt:ident, $and:ident, $or:ident, $movemask:ident) => {{
        let eq = |c: u8| $eq($v, $set1(c as i8));
        // Signed compares: bytes above ASCII are negative, in no range.
        let within =
            |lo: u8, hi: u8| $and($gt($v, $set1(lo as i8 - 1)), $gt($set1(hi as i8 + 1), $v));
        let pawn = eq(b'P');
        let before_glyph = $or(eq(b'*'), eq(b'='));
        let signs = $or(
            $or(eq(b'-'), eq(b'@')),
            $or($or(eq(b'&'), eq(b'+')), eq(b'#')),
        );
        let capital = within(b'A', b'Z');
        let kept = $or($or($or(capital, within(b'0', b'9')), signs), before_glyph);
        let bits = |m| $movemask(m) as $bits;
        MoveBytes {
            kept: bits(kept) & !bits(pawn),
            pawn: bits(pawn),
            capital: bits(capital),
            before_glyph: bits(before_glyph),
            high: bits($v),
            caret: bits(eq(b'^')),
            comma: bits(eq(b',')),
            blank: bits($or(eq(b' '), eq(b'\n'))),
        }
    }};
}

/// The [`MoveBytes`] of `block`.
#[inline(always)]
pub(crate) fn move_bytes(block: &[u8; 16]) -> MoveBytes {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_loadu_si128, _mm_movemask_epi8,
            _mm_or_si128, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is part of the x86-64 baseline; the 16 bytes loaded
        // are the block's, and `loadu` needs no alignment.
        unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast());
            move_classes!(v: u16, _mm_set1_epi8, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_and_si128, _mm_or_si128, _mm_movemask_epi8)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        move_bytes_plain(block)
    }
}

/// What a tag's fast path needs to know of 64 bytes, a bit a byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TagBytes {
    /// Bytes of a tag's name: ASCII letters, digits, `_`.
    pub name: u64,
    /// `"`.
    pub quote: u64,
    /// Bytes no tag value the writer writes holds: control characters,
    /// `\\`, DEL.
    pub refused: u64,
    /// Bytes above ASCII.
    pub high: u64,
}

/// The [`TagBytes`] of `block`.
#[inline(always)]
pub(crate) fn tag_bytes(block: &[u8; 64]) -> TagBytes {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_loadu_si128,
            _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        };
        let mut m = TagBytes::default();
        for j in 0..4 {
            // SAFETY: SSE2 is part of the x86-64 baseline; the 16 bytes
            // loaded from 16 * j lie within the block, and `loadu` needs
            // no alignment.
            let [name, quote, refused, high] = unsafe {
                let v = _mm_loadu_si128(block.as_ptr().add(16 * j).cast());
                let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
                // Signed compares: bytes above ASCII are negative, in no range.
                let within = |lo: u8, hi: u8| {
                    _mm_and_si128(
                        _mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1)),
                        _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1)),
                    )
                };
                let name = _mm_or_si128(
                    _mm_or_si128(within(b'0', b'9'), within(b'A', b'Z')),
                    _mm_or_si128(within(b'a', b'z'), eq(b'_')),
                );
                // Unsigned: a byte is at most 0x1F if the smaller of it
                // and 0x1F is itself.
                let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
                let refused = _mm_or_si128(control, _mm_or_si128(eq(b'\\'), eq(0x7F)));
                [name, eq(b'"'), refused, v].map(|m| u64::from(_mm_movemask_epi8(m) as u16))
            };
            m.name |= name << (16 * j);
            m.quote |= quote << (16 * j);
            m.refused |= refused << (16 * j);
            m.high |= high << (16 * j);
        }
        m
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        tag_bytes_plain(block)
    }
}

/// [`tag_bytes`] a byte at a time: the build for other targets, and what
/// the vector build is tested against.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn tag_bytes_plain(block: &[u8; 64]) -> TagBytes {
    let mut m = TagBytes::default();
    for (k, &c) in block.iter().enumerate() {
        let bit = 1u64 << k;
        match c {
            b'0'..=b'9' | b'A'..=b'Z' | b'a'..=b'z' | b'_' => m.name |= bit,
            b'"' => m.quote |= bit,
            ..0x20 | b'\\' | 0x7F => m.refused |= bit,
            0x80.. => m.high |= bit,
            _ => {}
        }
    }
    m
}

/// The [`MoveBytes`] of 32 bytes.
#[inline(always)]
pub(crate) fn pair_bytes(block: &[u8; 32]) -> MoveBytes<u32> {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") {
        // SAFETY: this CPU has AVX2.
        return unsafe { pair_bytes_avx2(block) };
    }
    let (low, high) = block.split_first_chunk::<16>().expect("32 bytes");
    join(
        move_bytes(low),
        move_bytes(high.try_into().expect("16 bytes")),
    )
}

/// The [`MoveBytes`] of 32 bytes from those of their halves.
fn join(a: MoveBytes, b: MoveBytes) -> MoveBytes<u32> {
    let join = |a: u16, b: u16| u32::from(a) | u32::from(b) << 16;
    MoveBytes {
        kept: join(a.kept, b.kept),
        pawn: join(a.pawn, b.pawn),
        capital: join(a.capital, b.capital),
        before_glyph: join(a.before_glyph, b.before_glyph),
        high: join(a.high, b.high),
        caret: join(a.caret, b.caret),
        comma: join(a.comma, b.comma),
        blank: join(a.blank, b.blank),
    }
}

/// [`pair_bytes`] with AVX2: one vector of 32 bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn pair_bytes_avx2(block: &[u8; 32]) -> MoveBytes<u32> {
    use std::arch::x86_64::{
        _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
    };
    // SAFETY: the 32 bytes loaded are the block's, and `loadu` needs no
    // alignment.
    let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
    move_classes!(v: u32, _mm256_set1_epi8, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_and_si256, _mm256_or_si256, _mm256_movemask_epi8)
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
            b'^' => m.caret |= bit,
            b',' => m.comma |= bit,
            b' ' | b'\n' => m.blank |= bit,
            _ => {}
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_bytes_classify_every_byte_at_every_place_as_the_plain_build() {
        for c in 0..=255u8 {
            for k in 0..64 {
                let mut block = *b"[Event \"Caf\xC3\xA9 \\ \x7F\x1F\"]\n[Site \"Barcelona, Catalunya ESP\"]\n[R \"3.1\"]";
                block[k] = c;
                assert_eq!(
                    tag_bytes(&block),
                    tag_bytes_plain(&block),
                    "{c:#04x} at {k}"
                );
            }
        }
    }

    #[test]
    fn pair_bytes_classify_every_byte_at_every_place_as_the_plain_build() {
        for c in 0..=255u8 {
            for k in 0..32 {
                let mut block = *b"12. NK6\xC3\x97NP17^+, E7=D#\n@&*P x$,!";
                block[k] = c;
                let (low, high) = block.split_first_chunk::<16>().unwrap();
                let plain = join(
                    move_bytes_plain(low),
                    move_bytes_plain(high.try_into().unwrap()),
                );
                assert_eq!(pair_bytes(&block), plain, "{c:#04x} at {k}");
            }
        }
    }

    #[test]
    fn move_bytes_classify_every_byte_at_every_place_as_the_plain_build() {
        for c in 0..=255u8 {
            for k in 0..16 {
                // Each value at each place, among bytes of every class.
                let mut block = *b"E7-E13*P=#\n^\xC3 ,:";
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
