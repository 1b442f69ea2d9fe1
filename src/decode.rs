//! Compressed input, found by its magic bytes (whatever the file's name)
//! and read through its decoder: how the command line reads every input,
//! and the Python package too (feature "decode").
//!
//! The decoders: gzip by `flate2` (its pure-Rust `zlib-rs` backend), bzip2
//! by `bzip2` (pure Rust, `libbz2-rs-sys`), zstd by `zstd` and xz by
//! `liblzma` (the C libraries, built from source and linked in). Each reads
//! every stream of a file that holds several (`cat a.gz b.gz`), as
//! `gzip -d` does. Data that turns out truncated or corrupt ends the text
//! where it fails ([`Fault`]): the games before are read as a file that
//! ends there.
//!
//! ```
//! use ctlpgn_filter::decode::{decompressed, Container};
//! use std::io::{Read, Write};
//! let text = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
//! let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
//! gz.write_all(text).unwrap();
//! let compressed = gz.finish().unwrap();
//! let (mut input, container, fault) = decompressed(&compressed[..]).unwrap();
//! let mut read = Vec::new();
//! input.read_to_end(&mut read).unwrap();
//! assert_eq!((read.as_slice(), container), (&text[..], Some(Container::Gzip)));
//! assert!(fault.take().is_none());
//! ```

use crate::report::CutShort;
use std::fmt;
use std::io::{self, BufReader, Cursor, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A compression format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// gzip (`.gz`).
    Gzip,
    /// Zstandard (`.zst`).
    Zstd,
    /// xz (`.xz`).
    Xz,
    /// bzip2 (`.bz2`).
    Bzip2,
}

/// The most bytes [`Container::sniff`] looks at.
pub const MAGIC_LEN: usize = 10;

impl Container {
    /// Every format.
    pub const ALL: [Container; 4] = [
        Container::Gzip,
        Container::Zstd,
        Container::Xz,
        Container::Bzip2,
    ];

    /// The format whose magic bytes `start` begins with, if any.
    pub fn sniff(start: &[u8]) -> Option<Container> {
        match start {
            [0x1F, 0x8B, ..] => Some(Container::Gzip),
            [0x28, 0xB5, 0x2F, 0xFD, ..] => Some(Container::Zstd),
            [0xFD, b'7', b'z', b'X', b'Z', 0x00, ..] => Some(Container::Xz),
            // `BZh`, the block size, then a block's magic (the digits of
            // pi) or the end of stream's (of sqrt(pi)): ten bytes that no
            // text starts with.
            [b'B', b'Z', b'h', b'1'..=b'9', rest @ ..]
                if rest.starts_with(&[0x31, 0x41, 0x59, 0x26, 0x53, 0x59])
                    || rest.starts_with(&[0x17, 0x72, 0x45, 0x38, 0x50, 0x90]) =>
            {
                Some(Container::Bzip2)
            }
            _ => None,
        }
    }

    /// Its name in messages: `gzip`.
    pub fn name(self) -> &'static str {
        match self {
            Container::Gzip => "gzip",
            Container::Zstd => "zstd",
            Container::Xz => "xz",
            Container::Bzip2 => "bzip2",
        }
    }

    /// The file name suffix the format's own tool gives.
    pub fn suffix(self) -> &'static str {
        match self {
            Container::Gzip => "gz",
            Container::Zstd => "zst",
            Container::Xz => "xz",
            Container::Bzip2 => "bz2",
        }
    }

    /// The decompressed bytes of `input`.
    fn decoder<'a>(self, input: impl Read + 'a) -> io::Result<Box<dyn Read + 'a>> {
        const BUFFER: usize = 1 << 16;
        let input = BufReader::with_capacity(BUFFER, input);
        Ok(match self {
            Container::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
            Container::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(input)?),
            Container::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(input)),
            Container::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(input)),
        })
    }
}

impl fmt::Display for Container {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `input`'s first bytes (up to [`MAGIC_LEN`]), and `input` whole again.
pub fn peek<'a>(mut input: impl Read + 'a) -> io::Result<(Vec<u8>, Box<dyn Read + 'a>)> {
    let mut start = Vec::with_capacity(MAGIC_LEN);
    (&mut input)
        .take(MAGIC_LEN as u64)
        .read_to_end(&mut start)?;
    let again = Box::new(Cursor::new(start.clone()).chain(input));
    Ok((start, again))
}

/// `input` decompressed if it is compressed (and which format it was in),
/// else as it is; and where its decoder's error goes, if it fails.
pub fn decompressed<'a>(
    input: impl Read + 'a,
) -> io::Result<(Box<dyn Read + 'a>, Option<Container>, Fault)> {
    let fault = Fault::default();
    let (start, input) = peek(input)?;
    let Some(container) = Container::sniff(&start) else {
        return Ok((input, None, fault));
    };
    let source_failed = Arc::new(AtomicBool::new(false));
    let source = Source {
        inner: input,
        failed: source_failed.clone(),
    };
    let decoded = Decoded {
        decoder: container.decoder(source)?,
        container,
        source_failed,
        fault: fault.clone(),
        ended: false,
    };
    Ok((Box::new(decoded), Some(container), fault))
}

/// What a decoder that failed said, kept for after the games: its text
/// ends where it failed ([`CutShort`]), and the games decoded before are
/// read as a file that ends there.
#[derive(Clone, Debug, Default)]
pub struct Fault {
    /// Set when the decoder fails, before the reader is told the text ends.
    pub cut: CutShort,
    error: Arc<Mutex<Option<io::Error>>>,
}

impl Fault {
    /// The decoder's error, if it failed: `gzip data cut short: the file
    /// is truncated`, `invalid xz data: ...` (the input not named).
    pub fn take(&self) -> Option<io::Error> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// The compressed input, which says when an error is its own (reading the
/// file failed), not the decoder's (the data is at fault).
struct Source<'a> {
    inner: Box<dyn Read + 'a>,
    failed: Arc<AtomicBool>,
}

impl Read for Source<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).inspect_err(|e| {
            if e.kind() != io::ErrorKind::Interrupted {
                self.failed.store(true, Ordering::Relaxed);
            }
        })
    }
}

/// A decoder whose error in the compressed data ends the text, kept in
/// `fault` with words that say the data is at fault. An error reading the
/// input itself passes as it is.
struct Decoded<'a> {
    decoder: Box<dyn Read + 'a>,
    container: Container,
    source_failed: Arc<AtomicBool>,
    fault: Fault,
    ended: bool,
}

impl Read for Decoded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        let e = match self.decoder.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Err(e),
            Err(e) if self.source_failed.swap(false, Ordering::Relaxed) => return Err(e),
            Err(e) => e,
        };
        let e = if e.kind() == io::ErrorKind::UnexpectedEof {
            io::Error::new(
                e.kind(),
                format!("{} data cut short: the file is truncated", self.container),
            )
        } else {
            io::Error::new(e.kind(), format!("invalid {} data: {e}", self.container))
        };
        *self.fault.error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
        // Set before the reader is answered that the text ends.
        self.fault.cut.set();
        self.ended = true;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const TEXT: &[u8] = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";

    fn read_all(bytes: Vec<u8>) -> (Vec<u8>, Option<Container>) {
        let (mut r, c, _) = decompressed(Cursor::new(bytes)).unwrap();
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        (out, c)
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn each_format_is_found_by_its_magic_bytes_and_read() {
        let gz = gzip(TEXT);
        let zst = zstd::stream::encode_all(TEXT, 3).unwrap();
        let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 6);
        xz.write_all(TEXT).unwrap();
        let xz = xz.finish().unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        bz.write_all(TEXT).unwrap();
        let bz = bz.finish().unwrap();
        for (bytes, c) in [
            (gz, Container::Gzip),
            (zst, Container::Zstd),
            (xz, Container::Xz),
            (bz, Container::Bzip2),
        ] {
            assert_eq!(read_all(bytes), (TEXT.to_vec(), Some(c)), "{c}");
        }
        assert_eq!(read_all(TEXT.to_vec()), (TEXT.to_vec(), None));
    }

    #[test]
    fn streams_one_after_the_other_are_read_whole() {
        let mut two = gzip(TEXT);
        two.extend(gzip(TEXT));
        assert_eq!(read_all(two).0, [TEXT, TEXT].concat());
    }

    #[test]
    fn text_that_starts_like_a_magic_number_is_text() {
        assert_eq!(Container::sniff(b"BZh9 is no game"), None);
        assert_eq!(Container::sniff(b"[Variant"), None);
        assert_eq!(Container::sniff(b"\x1F"), None);
    }

    #[test]
    fn truncated_or_corrupt_data_ends_the_text_and_the_error_says_so() {
        let text = TEXT.repeat(100);
        let gz = gzip(&text);
        let cut = Cursor::new(gz[..gz.len() / 2].to_vec());
        let (mut r, _, fault) = decompressed(cut).unwrap();
        let mut decoded = Vec::new();
        r.read_to_end(&mut decoded).unwrap();
        assert!(fault.cut.is_set());
        assert!(!decoded.is_empty() && text.starts_with(&decoded));
        let e = fault.take().unwrap();
        assert_eq!(e.to_string(), "gzip data cut short: the file is truncated");
        let mut bad = gzip(TEXT);
        bad[12] ^= 0xFF;
        bad[13] ^= 0xFF;
        let (mut r, _, fault) = decompressed(Cursor::new(bad)).unwrap();
        r.read_to_end(&mut Vec::new()).unwrap();
        let e = fault.take().unwrap();
        assert!(e.to_string().starts_with("invalid gzip data"), "{e}");
    }

    #[test]
    fn an_error_reading_the_input_passes_as_it_is() {
        struct Failing(Vec<u8>);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::other("the disk is gone"));
                }
                let n = buf.len().min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0.drain(..n);
                Ok(n)
            }
        }
        let gz = gzip(&TEXT.repeat(100));
        let (mut r, _, fault) = decompressed(Failing(gz[..gz.len() / 2].to_vec())).unwrap();
        let e = r.read_to_end(&mut Vec::new()).unwrap_err();
        assert_eq!(e.to_string(), "the disk is gone");
        assert!(fault.take().is_none() && !fault.cut.is_set());
    }

    #[test]
    fn whole_data_leaves_no_fault() {
        let (mut r, _, fault) = decompressed(Cursor::new(gzip(TEXT))).unwrap();
        r.read_to_end(&mut Vec::new()).unwrap();
        assert!(!fault.cut.is_set() && fault.take().is_none());
    }
}
