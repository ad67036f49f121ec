//! A walk over a Parquet footer (Thrift compact protocol) before the parquet crate decodes it.
//! The crate's decoder reserves memory for a list by its declared length and recurses into
//! nested structs without a limit; a damaged or hostile footer could make it reserve gigabytes
//! or overflow the stack. This walk refuses a list, map or string declaring more elements than
//! bytes remain, nesting deeper than [`MAX_DEPTH`], and anything cut short.

/// Deepest struct/list nesting accepted (a real footer nests about 6 deep).
pub const MAX_DEPTH: usize = 64;

struct Walk<'a> {
    b: &'a [u8],
    at: usize,
}

type R<T> = std::result::Result<T, String>;

/// Checks that `footer` is one well-formed Thrift compact struct whose declared sizes fit.
pub fn check(footer: &[u8]) -> R<()> {
    let mut w = Walk { b: footer, at: 0 };
    w.strukt(0)
}

impl Walk<'_> {
    fn left(&self) -> usize {
        self.b.len() - self.at
    }

    fn byte(&mut self) -> R<u8> {
        let v = *self
            .b
            .get(self.at)
            .ok_or_else(|| format!("cut short at byte {}", self.at))?;
        self.at += 1;
        Ok(v)
    }

    fn varint(&mut self) -> R<u64> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            if shift < 64 {
                v |= u64::from(b & 0x7F) << shift;
            }
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(format!(
            "an integer longer than 10 bytes at byte {}",
            self.at
        ))
    }

    fn skip(&mut self, n: u64) -> R<()> {
        if n > self.left() as u64 {
            return Err(format!(
                "a field declares {n} bytes at byte {}, but only {} remain",
                self.at,
                self.left()
            ));
        }
        self.at += n as usize;
        Ok(())
    }

    /// A count of elements, each at least `min` bytes, that must fit in what remains.
    fn count(&mut self, n: u64, min: u64) -> R<u64> {
        if n.saturating_mul(min) > self.left() as u64 {
            return Err(format!(
                "a list declares {n} elements at byte {}, but only {} bytes remain",
                self.at,
                self.left()
            ));
        }
        Ok(n)
    }

    fn strukt(&mut self, depth: usize) -> R<()> {
        if depth > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
        loop {
            let h = self.byte()?;
            if h == 0 {
                return Ok(());
            }
            if h >> 4 == 0 {
                self.varint()?; // long-form field id
            }
            match h & 0x0F {
                1 | 2 => {} // booleans carry their value in the header
                t => self.value(t, depth)?,
            }
        }
    }

    fn value(&mut self, t: u8, depth: usize) -> R<()> {
        match t {
            1..=3 => self.skip(1), // a boolean element of a list, or a byte
            4..=6 => self.varint().map(drop),
            7 => self.skip(8),
            8 => {
                let n = self.varint()?;
                self.skip(n)
            }
            9 | 10 => {
                let h = self.byte()?;
                let n = match h >> 4 {
                    15 => self.varint()?,
                    n => u64::from(n),
                };
                let n = self.count(n, 1)?;
                (0..n).try_for_each(|_| self.value(h & 0x0F, depth + 1))
            }
            11 => {
                let n = self.varint()?;
                if n == 0 {
                    return Ok(());
                }
                let kv = self.byte()?;
                let n = self.count(n, 2)?;
                (0..n).try_for_each(|_| {
                    self.value(kv >> 4, depth + 1)?;
                    self.value(kv & 0x0F, depth + 1)
                })
            }
            12 => self.strukt(depth + 1),
            t => Err(format!("unknown field type {t} at byte {}", self.at)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_structs_pass() {
        // field 1 i32 = 1 (zigzag 2), field 2 binary "ab", field 3 list<i32> [1, 2], stop.
        let ok = [
            0x15, 0x02, 0x18, 0x02, b'a', b'b', 0x19, 0x25, 0x02, 0x04, 0x00,
        ];
        assert_eq!(check(&ok), Ok(()));
    }

    #[test]
    fn declared_sizes_beyond_the_bytes_are_refused() {
        // A list of 2^31 i64 elements in a few bytes.
        let list = [0x19, 0xF6, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00];
        assert!(check(&list)
            .unwrap_err()
            .contains("declares 2147483648 elements"));
        let string = [0x18, 0xFF, 0xFF, 0x03, b'a', 0x00];
        assert!(check(&string).unwrap_err().contains("declares 65535 bytes"));
        assert!(check(&[0x15]).unwrap_err().contains("cut short"));
        let deep = vec![0x1C_u8; 100];
        assert!(check(&deep).unwrap_err().contains("nested deeper"));
    }
}
