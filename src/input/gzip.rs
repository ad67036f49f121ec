//! A gzip stream decoded as it is read (flate2, multi-member like `zcat`), with the
//! decompression-bomb limit of [`super::MAX_GZIP_RATIO`] and an error that says the data is
//! truncated or corrupt and where in the compressed file.

use std::io::{self, Read};

use flate2::read::MultiGzDecoder;

/// The first two bytes of every gzip member (RFC 1952).
pub const MAGIC: [u8; 2] = [0x1F, 0x8B];

/// Counts the compressed bytes the decoder has pulled.
struct Counted<R> {
    inner: R,
    n: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.n += n as u64;
        Ok(n)
    }
}

/// Decoded bytes of a gzip stream, refusing more than the ratio limit allows.
pub struct Gunzip<R: Read> {
    dec: MultiGzDecoder<Counted<R>>,
    out: u64,
}

impl<R: Read> Gunzip<R> {
    pub fn new(inner: R) -> Self {
        Gunzip {
            dec: MultiGzDecoder::new(Counted { inner, n: 0 }),
            out: 0,
        }
    }
}

impl<R: Read> Read for Gunzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.dec.read(buf).map_err(|e| {
            let at = self.dec.get_ref().n;
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "gzip data truncated or corrupt near byte {at} of the compressed file ({e})"
                ),
            )
        })?;
        self.out += n as u64;
        let cap = self
            .dec
            .get_ref()
            .n
            .saturating_mul(super::MAX_GZIP_RATIO)
            .max(super::GZIP_FREE_BYTES);
        if self.out > cap {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "gzip data expands more than {}-fold ({} MiB from {} bytes): refused as a decompression bomb",
                    super::MAX_GZIP_RATIO,
                    self.out >> 20,
                    self.dec.get_ref().n
                ),
            ));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{write::GzEncoder, Compression};
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn round_trip_and_concatenated_members() {
        let mut two = gz(b"a b\n");
        two.extend(gz(b"c d\n"));
        let mut s = String::new();
        Gunzip::new(&two[..]).read_to_string(&mut s).unwrap();
        assert_eq!(s, "a b\nc d\n");
    }

    #[test]
    fn truncated_stream_is_an_error_naming_the_byte() {
        let data = gz(&b"q1 Q0 d1 1 1.0 t\n".repeat(1000));
        let cut = &data[..data.len() / 2];
        let e = Gunzip::new(cut).read_to_end(&mut Vec::new()).unwrap_err();
        assert!(
            e.to_string().contains("truncated or corrupt near byte"),
            "{e}"
        );
    }

    #[test]
    fn bomb_is_refused() {
        // 200 MiB of zeros compress to about 200 KB: 1000-fold.
        let mut e = GzEncoder::new(Vec::new(), Compression::best());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..200 {
            e.write_all(&zeros).unwrap();
        }
        let data = e.finish().unwrap();
        let err = io::copy(&mut Gunzip::new(&data[..]), &mut io::sink()).unwrap_err();
        assert!(err.to_string().contains("decompression bomb"), "{err}");
    }
}
