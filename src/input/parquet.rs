//! Parquet tables: one file, or a folder of part files (Spark, Polars, DuckDB, pyarrow) read as
//! one table in name order; in a Hive-partitioned folder (`lang=en/part-0.parquet`) each
//! partition key is one more string column, its value the folder's (a null for Hive's default
//! partition), unless the part files hold a column of that name themselves. Streamed by row group, [`BATCH_ROWS`] rows at a time, through the
//! parquet crate's typed column readers, on a second thread one batch ahead of the consumer:
//! memory is a few batches of the wanted columns (their buffers reused), whatever the file or
//! row group declares. Only flat columns of strings, integers and floats are read; `load/` and
//! `eval/` say which columns mean what.
//!
//! Checked before any data page is read: the magic bytes at both ends (a `.parquet` that is not
//! one, or is cut short, is named as such), the footer's thrift structure (`footer.rs`: no list
//! longer than the bytes left, bounded nesting), and every column chunk lying inside its file.

use std::borrow::Cow;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use parquet::basic::{ConvertedType, LogicalType, Type as Physical};
use parquet::column::reader::ColumnReader;
use parquet::data_type::ByteArray;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::error::{quoted, Error, Result};

/// Rows decoded at a time per column (the memory bound, with the longest string cells).
pub const BATCH_ROWS: usize = 1 << 16;

/// What a column holds, as far as rag-gate reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// UTF-8 strings (BYTE_ARRAY).
    Text,
    /// Signed integers (INT32, INT64).
    Int,
    /// Unsigned 64-bit integers (INT64 annotated unsigned).
    UInt,
    /// Unsigned integers of up to 32 bits (INT32 annotated uint8, uint16 or uint32): each
    /// value's 32 bits are read as unsigned (4,000,000,000 stays 4,000,000,000, never
    /// −294,967,296) and widened, so they decode as [`Kind::Int`] values.
    UInt32,
    /// FLOAT or DOUBLE.
    Float,
    /// Anything else (booleans, dates, decimals, nested lists and structs), by its description.
    Other(String),
}

/// The kinds an id column may have (ids are read as text; integers in decimal).
pub const IDS: &[Kind] = &[Kind::Text, Kind::Int, Kind::UInt32, Kind::UInt];
/// The kinds a number column may have.
pub const NUMBERS: &[Kind] = &[Kind::Float, Kind::Int, Kind::UInt32, Kind::UInt];
/// The kinds a rank column may have (integers that fit an i64).
pub const RANKS: &[Kind] = &[Kind::Int, Kind::UInt32];

impl Kind {
    pub fn describe(&self) -> String {
        match self {
            Kind::Text => "string".into(),
            Kind::Int | Kind::UInt32 => "integer".into(),
            Kind::UInt => "unsigned 64-bit integer".into(),
            Kind::Float => "float".into(),
            Kind::Other(s) => s.clone(),
        }
    }
}

/// A top-level column: its name, kind and leaf index in its file (None for nested fields and
/// partition keys).
#[derive(Debug, Clone)]
pub struct Column {
    pub name: String,
    pub kind: Kind,
    leaf: Option<usize>,
    /// The definition level of a non-null cell (0: the column is required).
    max_def: i16,
    /// For a Hive partition key: its index in the part's partition values.
    partition: Option<usize>,
}

impl Column {
    /// True for a Hive partition key (a column taken from the folder names, not the files).
    pub fn is_partition(&self) -> bool {
        self.partition.is_some()
    }
}

/// One part file's place and columns.
struct Part {
    path: PathBuf,
    shown: String,
    columns: Vec<Column>,
    /// The file's size in bytes: the decoded data may be at most [`super::MAX_GZIP_RATIO`]
    /// times it (or [`super::GZIP_FREE_BYTES`]), as for gzip.
    len: u64,
    /// Hive partition key → value of the folders the file lies in (outermost first).
    partition: Vec<(String, Option<String>)>,
}

/// An opened table: its part files (one for a plain file), their columns already checked to agree.
pub struct Table {
    pub shown: String,
    parts: Vec<Part>,
}

/// One value of a cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    Text(&'a [u8]),
    Int(i64),
    UInt(u64),
    Float(f64),
}

/// Decoded values of one column for the rows of a batch; `valid` is empty when no cell is null.
enum Values {
    Text(Vec<ByteArray>),
    Int(Vec<i64>),
    UInt(Vec<i64>),
    Float(Vec<f64>),
}

struct Decoded {
    values: Values,
    valid: Vec<bool>,
}

/// A batch of rows of the wanted columns (in the order asked for).
pub struct Batch<'t> {
    /// The part file, as shown.
    pub file: &'t str,
    /// 0-based row group in that file.
    pub row_group: usize,
    /// 0-based row within the row group of the batch's first row.
    pub first_row: usize,
    /// 0-based row within the whole table of the batch's first row.
    pub table_row: u64,
    pub len: usize,
    columns: &'t [Decoded],
}

/// A column of a batch without nulls, as decoded: a slice per kind, for loops that read every
/// row (the per-cell accessors below stay the way to read a column with nulls, and for errors).
#[derive(Clone, Copy)]
pub enum Dense<'a> {
    Text(&'a [ByteArray]),
    Int(&'a [i64]),
    UInt(&'a [i64]),
    Float(&'a [f64]),
}

impl Batch<'_> {
    /// Wanted column `c` as a slice of `len` values, when none of its cells is null.
    pub fn dense(&self, c: usize) -> Option<Dense<'_>> {
        let d = &self.columns[c];
        if !d.valid.is_empty() {
            return None;
        }
        Some(match &d.values {
            Values::Text(v) => Dense::Text(&v[..self.len]),
            Values::Int(v) => Dense::Int(&v[..self.len]),
            Values::UInt(v) => Dense::UInt(&v[..self.len]),
            Values::Float(v) => Dense::Float(&v[..self.len]),
        })
    }

    /// The cell of wanted column `c` at batch row `i`; None when it is null.
    #[inline]
    pub fn cell(&self, c: usize, i: usize) -> Option<Cell<'_>> {
        let d = &self.columns[c];
        if !d.valid.is_empty() && !d.valid[i] {
            return None;
        }
        Some(match &d.values {
            Values::Text(v) => Cell::Text(v[i].data()),
            Values::Int(v) => Cell::Int(v[i]),
            Values::UInt(v) => Cell::UInt(v[i] as u64),
            Values::Float(v) => Cell::Float(v[i]),
        })
    }

    /// The text of the cell of wanted column `c` (named `name`, holding `what`) at row `i`: a
    /// string as it is, an integer in decimal. A null, a float or bytes that are not UTF-8 are
    /// errors naming the place.
    pub fn text(&self, c: usize, i: usize, name: &str, what: &str) -> Result<Cow<'_, str>> {
        let bad = |m: &str| {
            Error::input(
                self.place(i),
                0,
                format!("column {} ({what}) {m}", quoted(name)),
            )
        };
        match self.cell(c, i) {
            None => Err(bad("is null; expected a value in every row")),
            Some(Cell::Text(b)) => std::str::from_utf8(b)
                .map(Cow::Borrowed)
                .map_err(|_| bad("is not UTF-8 text")),
            Some(Cell::Int(v)) => Ok(Cow::Owned(v.to_string())),
            Some(Cell::UInt(v)) => Ok(Cow::Owned(v.to_string())),
            Some(Cell::Float(v)) => Err(bad(&format!(
                "is the float {v}; expected a string or an integer"
            ))),
        }
    }

    /// The number in the cell of wanted column `c` at row `i` (a float, or an integer as f64);
    /// None for a null.
    pub fn number(&self, c: usize, i: usize) -> Option<f64> {
        match self.cell(c, i)? {
            Cell::Float(v) => Some(v),
            Cell::Int(v) => Some(v as f64),
            Cell::UInt(v) => Some(v as f64),
            Cell::Text(_) => None,
        }
    }

    /// Where row `i` of the batch is, for messages:
    /// `run/part-1.parquet (row group 2, row 17)`.
    pub fn place(&self, i: usize) -> String {
        format!(
            "{} (row group {}, row {})",
            self.file,
            self.row_group + 1,
            self.first_row + i + 1
        )
    }
}

/// Opens a Parquet file or a folder of `*.parquet` part files (hidden and `_` files skipped),
/// flat or Hive-partitioned, and checks that every part has the same columns.
pub fn open(path: &Path, shown: &str) -> Result<Table> {
    let files = if path.is_dir() {
        super::parts::hive_parts(path, shown, "parquet")?
    } else {
        vec![super::parts::Part {
            path: path.to_path_buf(),
            relative: String::new(),
            partition: Vec::new(),
        }]
    };
    let mut parts: Vec<Part> = Vec::with_capacity(files.len());
    for f in files {
        let part_shown = if path.is_dir() {
            format!("{}/{}", shown.trim_end_matches('/'), f.relative)
        } else {
            shown.to_string()
        };
        let meta = read_footer(&f.path, &part_shown)?;
        let len = std::fs::metadata(&f.path).map_or(0, |m| m.len());
        let mut columns = columns_of(&meta);
        for (k, (key, _)) in f.partition.iter().enumerate() {
            // DuckDB's WRITE_PARTITION_COLUMNS keeps the key in the files too: theirs is read.
            if !columns.iter().any(|c| c.name == *key) {
                columns.push(Column {
                    name: key.clone(),
                    kind: Kind::Text,
                    leaf: None,
                    max_def: 0,
                    partition: Some(k),
                });
            }
        }
        if let Some(first) = parts.first() {
            same_columns(first, &part_shown, &columns)?;
        }
        parts.push(Part {
            path: f.path,
            shown: part_shown,
            columns,
            len,
            partition: f.partition,
        });
    }
    Ok(Table {
        shown: shown.to_string(),
        parts,
    })
}

/// The file's metadata after the checks of the module header.
fn read_footer(path: &Path, shown: &str) -> Result<ParquetMetaData> {
    let mut file = File::open(path).map_err(|e| Error::io(shown, "opening", e))?;
    let len = file
        .metadata()
        .map_err(|e| Error::io(shown, "opening", e))?
        .len();
    let mut head = [0u8; 4];
    let starts = file.read_exact(&mut head).is_ok() && &head == b"PAR1";
    if !starts {
        return Err(Error::input(
            shown,
            0,
            "not a Parquet file: it does not start with the magic bytes PAR1",
        ));
    }
    let mut tail = [0u8; 8];
    file.seek(SeekFrom::End(-8))
        .and_then(|_| file.read_exact(&mut tail))
        .ok();
    let footer_len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    if len < 12 || &tail[4..] != b"PAR1" || footer_len + 12 > len {
        return Err(Error::input(
            shown,
            0,
            format!(
                "truncated or damaged Parquet file ({len} bytes): no valid footer ending in PAR1 at its end"
            ),
        ));
    }
    let mut footer = vec![0u8; footer_len as usize];
    file.seek(SeekFrom::Start(len - 8 - footer_len))
        .and_then(|_| file.read_exact(&mut footer))
        .map_err(|e| Error::io(shown, "reading", e))?;
    super::parquet_footer::check(&footer)
        .map_err(|m| Error::input(shown, 0, format!("damaged Parquet footer: {m}")))?;
    let reader = SerializedFileReader::new(file)
        .map_err(|e| Error::input(shown, 0, format!("not a readable Parquet file: {e}")))?;
    let meta = reader.metadata().clone();
    check_chunks(&meta, len, shown)?;
    Ok(meta)
}

/// Every column chunk must lie inside the file: a declared size is never trusted.
fn check_chunks(meta: &ParquetMetaData, len: u64, shown: &str) -> Result<()> {
    for (g, rg) in meta.row_groups().iter().enumerate() {
        if rg.num_rows() < 0 {
            return Err(Error::input(
                shown,
                0,
                format!("row group {} declares {} rows", g + 1, rg.num_rows()),
            ));
        }
        for c in rg.columns() {
            let (start, size) = c.byte_range();
            if start.checked_add(size).is_none_or(|end| end > len) {
                return Err(Error::input(
                    shown,
                    0,
                    format!(
                        "row group {} column {} declares {size} bytes at byte {start}, past the end of the file ({len} bytes): truncated or damaged",
                        g + 1,
                        quoted(&c.column_path().string())
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The top-level columns of a file; a nested field is one column of kind `Other`.
fn columns_of(meta: &ParquetMetaData) -> Vec<Column> {
    let mut out: Vec<Column> = Vec::new();
    for (leaf, d) in meta
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .enumerate()
    {
        let parts = d.path().parts();
        let top = parts.first().cloned().unwrap_or_default();
        if parts.len() > 1 || d.max_rep_level() > 0 {
            if out.last().is_none_or(|c| c.name != top) {
                out.push(Column {
                    name: top,
                    kind: Kind::Other("a nested list or struct".into()),
                    leaf: None,
                    max_def: 0,
                    partition: None,
                });
            }
            continue;
        }
        let kind = kind_of(d.physical_type(), d.logical_type(), d.converted_type());
        out.push(Column {
            name: top,
            kind,
            leaf: Some(leaf),
            max_def: d.max_def_level(),
            partition: None,
        });
    }
    out
}

/// What a leaf column means: its logical type first, else its (legacy) converted type, else its
/// physical type. Every annotation a number or an id can carry is read by its meaning (unsigned
/// integers as unsigned); one that is not a plain number or string (a date, a time, a
/// timestamp, a decimal, an interval, a float16, a UUID, BSON, null) is a kind named in the
/// refusal, never read as the integers or bytes it is stored in.
fn kind_of(p: Physical, logical: Option<LogicalType>, converted: ConvertedType) -> Kind {
    let other = |what: &str| Kind::Other(what.to_string());
    if let Some(l) = logical {
        return match l {
            LogicalType::Decimal { .. } => other("decimal"),
            LogicalType::Date => other("date"),
            LogicalType::Time { .. } => other("time"),
            LogicalType::Timestamp { .. } => other("timestamp"),
            LogicalType::Integer {
                is_signed: false,
                bit_width,
            } => match (p, bit_width) {
                (Physical::INT64, _) => Kind::UInt,
                (Physical::INT32, 8 | 16 | 32) => Kind::UInt32,
                _ => other("an unsigned integer of an unknown width"),
            },
            LogicalType::Integer { .. } => physical(p),
            LogicalType::Unknown => other("null"),
            LogicalType::Bson => other("BSON"),
            LogicalType::Uuid => other("UUID"),
            LogicalType::Float16 => other("float16"),
            LogicalType::Map | LogicalType::List => other("a nested list or struct"),
            LogicalType::String | LogicalType::Enum | LogicalType::Json => physical(p),
        };
    }
    match converted {
        ConvertedType::DECIMAL => other("decimal"),
        ConvertedType::UINT_64 if p == Physical::INT64 => Kind::UInt,
        ConvertedType::UINT_8 | ConvertedType::UINT_16 | ConvertedType::UINT_32
            if p == Physical::INT32 =>
        {
            Kind::UInt32
        }
        ConvertedType::UINT_8
        | ConvertedType::UINT_16
        | ConvertedType::UINT_32
        | ConvertedType::UINT_64 => other("an unsigned integer of an unknown width"),
        ConvertedType::DATE => other("date"),
        ConvertedType::TIME_MILLIS | ConvertedType::TIME_MICROS => other("time"),
        ConvertedType::TIMESTAMP_MILLIS | ConvertedType::TIMESTAMP_MICROS => other("timestamp"),
        ConvertedType::INTERVAL => other("interval"),
        ConvertedType::BSON => other("BSON"),
        ConvertedType::MAP | ConvertedType::MAP_KEY_VALUE | ConvertedType::LIST => {
            other("a nested list or struct")
        }
        _ => physical(p),
    }
}

/// A column's kind from its physical type alone.
fn physical(p: Physical) -> Kind {
    let other = |what: &str| Kind::Other(what.to_string());
    match p {
        Physical::BYTE_ARRAY => Kind::Text,
        Physical::INT32 | Physical::INT64 => Kind::Int,
        Physical::FLOAT | Physical::DOUBLE => Kind::Float,
        Physical::BOOLEAN => other("boolean"),
        Physical::INT96 => other("int96 timestamp"),
        Physical::FIXED_LEN_BYTE_ARRAY => other("fixed-length bytes"),
    }
}

/// `"name" (kind)` of each column (the first 12), for messages.
pub fn listing(columns: &[Column]) -> String {
    let mut s: Vec<String> = columns
        .iter()
        .take(12)
        .map(|c| format!("{} ({})", quoted(&c.name), c.kind.describe()))
        .collect();
    if columns.len() > 12 {
        s.push(format!("and {} more", columns.len() - 12));
    }
    s.join(", ")
}

/// A part whose columns (names and kinds, in any order) differ from the first part's.
fn same_columns(first: &Part, shown: &str, columns: &[Column]) -> Result<()> {
    let key = |cs: &[Column]| {
        let mut k: Vec<(String, Kind)> = cs
            .iter()
            .map(|c| (c.name.clone(), c.kind.clone()))
            .collect();
        k.sort_by(|a, b| a.0.cmp(&b.0));
        k
    };
    if key(&first.columns) != key(columns) {
        return Err(Error::input(
            shown,
            0,
            format!(
                "its columns ({}) differ from those of {} ({}): the part files of a folder must share one schema",
                listing(columns),
                first.shown,
                listing(&first.columns)
            ),
        ));
    }
    Ok(())
}

impl Table {
    /// The columns of the first part (every part has the same).
    pub fn columns(&self) -> &[Column] {
        &self.parts[0].columns
    }

    /// The column named `name`, if there is one.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns().iter().find(|c| c.name == name)
    }

    /// An error for a column the table lacks, listing those it has.
    pub fn missing(&self, what: &str, name: &str) -> Error {
        Error::input(
            &self.shown,
            0,
            format!(
                "no column {} ({what}); columns: {}",
                quoted(name),
                listing(self.columns())
            ),
        )
    }

    /// Refuses column `name` unless its kind is one of `accepted`.
    pub fn expect_kind(&self, name: &str, what: &str, accepted: &[Kind]) -> Result<()> {
        let Some(c) = self.column(name) else {
            return Err(self.missing(what, name));
        };
        if accepted.contains(&c.kind) {
            return Ok(());
        }
        let want: Vec<String> = accepted.iter().map(Kind::describe).collect();
        let mut want = want;
        want.dedup();
        Err(Error::input(
            &self.parts[0].shown,
            0,
            format!(
                "column {} ({what}) holds {} values; expected {}",
                quoted(name),
                c.kind.describe(),
                want.join(" or ")
            ),
        ))
    }

    /// Calls `f` with each batch of the named columns (which must exist with readable kinds), in
    /// file, row-group and row order, while `f` returns true. Returns false when `f` stopped it.
    ///
    /// The batches are decoded on a second thread, one batch ahead of `f` (a channel of one):
    /// decompressing and decoding the next batch overlaps with `f`'s work on this one. Memory
    /// stays a few batches (the one decoded, the one waiting, the one `f` holds), their buffers
    /// handed back for reuse; the order of batches and of errors is the order of the file.
    pub fn for_each_batch(
        &self,
        names: &[&str],
        f: &mut dyn FnMut(&Batch) -> Result<bool>,
    ) -> Result<bool> {
        let (tx, rx) = mpsc::sync_channel::<Result<Decoded1>>(1);
        let (back, spare) = mpsc::channel::<Vec<Decoded>>();
        std::thread::scope(|s| {
            s.spawn(move || self.decode_all(names, &tx, &spare));
            let out = (|| {
                for sent in rx.iter() {
                    let sent = sent?;
                    let batch = Batch {
                        file: &self.parts[sent.part].shown,
                        row_group: sent.row_group,
                        first_row: sent.first_row,
                        table_row: sent.table_row,
                        len: sent.len,
                        columns: &sent.columns,
                    };
                    if !f(&batch)? {
                        return Ok(false);
                    }
                    // The decoder may be gone (it sent its last batch): then the buffers drop.
                    let _ = back.send(sent.columns);
                }
                Ok(true)
            })();
            // Hang up first: a decoder waiting to send sees it and stops, so the scope can join.
            drop(rx);
            out
        })
    }

    /// The decoding thread of [`Table::for_each_batch`]: every part in order, each batch or the
    /// first error sent down `tx`; it stops when the receiver hangs up.
    fn decode_all(
        &self,
        names: &[&str],
        tx: &mpsc::SyncSender<Result<Decoded1>>,
        spare: &mpsc::Receiver<Vec<Decoded>>,
    ) {
        let mut table_row = 0u64;
        for (k, part) in self.parts.iter().enumerate() {
            let leaves = names
                .iter()
                .map(|n| {
                    part.columns
                        .iter()
                        .find(|c| c.name == *n)
                        .and_then(|c| match (c.leaf, c.partition) {
                            (Some(l), _) => Some(Wanted::Leaf(l, c.kind.clone(), c.max_def)),
                            (None, Some(k)) => Some(Wanted::Constant(
                                part.partition[k].1.as_ref().map(|v| v.as_bytes().to_vec()),
                            )),
                            (None, None) => None,
                        })
                        .ok_or_else(|| self.missing("asked for", n))
                })
                .collect::<Result<Vec<_>>>();
            let read = leaves.and_then(|leaves| {
                let mut emit = |b: Decoded1| tx.send(Ok(b)).is_ok();
                let mut reuse = || spare.try_recv().ok();
                read_part(k, part, &leaves, table_row, &mut emit, &mut reuse)
            });
            match read {
                Ok(Some(next)) => table_row = next,
                Ok(None) => return,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            }
        }
    }
}

/// A decoded batch on its way from the decoding thread: [`Batch`] with owned columns.
struct Decoded1 {
    part: usize,
    row_group: usize,
    first_row: usize,
    table_row: u64,
    len: usize,
    columns: Vec<Decoded>,
}

/// Where a wanted column's values come from: a leaf column of the file (index, kind,
/// definition level of a non-null cell), or a partition key's value, the same in every row.
#[derive(Debug, Clone)]
enum Wanted {
    Leaf(usize, Kind, i16),
    Constant(Option<Vec<u8>>),
}

/// Streams part `k`; returns the table row after its last row (None: the receiver hung up).
/// Each batch goes to `emit` (false: nobody listens any more) in column buffers from `reuse`
/// when one came back, new ones otherwise; the scratch buffers are reused from batch to batch.
fn read_part(
    k: usize,
    part: &Part,
    leaves: &[Wanted],
    mut table_row: u64,
    emit: &mut dyn FnMut(Decoded1) -> bool,
    reuse: &mut dyn FnMut() -> Option<Vec<Decoded>>,
) -> Result<Option<u64>> {
    let pq_err = |g: usize, e: parquet::errors::ParquetError| {
        Error::input(
            &part.shown,
            0,
            format!("row group {}: damaged Parquet data: {e}", g + 1),
        )
    };
    let file = File::open(&part.path).map_err(|e| Error::io(&part.shown, "opening", e))?;
    let reader = SerializedFileReader::new(file).map_err(|e| pq_err(0, e))?;
    let mut scratch: Vec<Scratch> = leaves.iter().map(|_| Scratch::default()).collect();
    // Decompression bomb: the bytes decoded so far, against the same bound as gzip's. A few KB
    // of run-length-encoded pages can declare millions of rows; decoding stops at the bound.
    let cap = part
        .len
        .saturating_mul(super::MAX_GZIP_RATIO)
        .max(super::GZIP_FREE_BYTES);
    let mut decoded = 0u64;
    let any_leaf = leaves.iter().any(|w| matches!(w, Wanted::Leaf(..)));
    for g in 0..reader.num_row_groups() {
        let rg = reader.get_row_group(g).map_err(|e| pq_err(g, e))?;
        let mut readers = leaves
            .iter()
            .map(|w| match w {
                Wanted::Leaf(l, _, _) => rg.get_column_reader(*l).map(Some),
                Wanted::Constant(_) => Ok(None),
            })
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| pq_err(g, e))?;
        let declared = rg.metadata().num_rows().max(0) as usize;
        let mut first_row = 0usize;
        loop {
            let mut columns = reuse()
                .filter(|c| c.len() == leaves.len())
                .unwrap_or_else(|| leaves.iter().map(|_| Decoded::default()).collect());
            let mut batch = BatchBuffers {
                columns: &mut columns,
                scratch: &mut scratch,
                decoded: &mut decoded,
            };
            let len = batch.fill(part, g, (leaves, &mut readers), cap, |_| {
                // Without a leaf column, the rows are the ones the row group declares.
                BATCH_ROWS.min(declared - first_row)
            })?;
            if len == 0 {
                if any_leaf {
                    check_rows(&part.shown, g, rg.metadata().num_rows(), first_row)?;
                }
                break;
            }
            let batch = Decoded1 {
                part: k,
                row_group: g,
                first_row,
                table_row,
                len,
                columns,
            };
            if !emit(batch) {
                return Ok(None);
            }
            first_row += len;
            table_row += len as u64;
        }
    }
    Ok(Some(table_row))
}

/// The buffers one batch of [`read_part`] is decoded into, and the running count of decoded bytes.
struct BatchBuffers<'a> {
    columns: &'a mut Vec<Decoded>,
    scratch: &'a mut Vec<Scratch>,
    decoded: &'a mut u64,
}

impl BatchBuffers<'_> {
    /// Decodes the next batch of every leaf column of row group `g`, then repeats each partition
    /// value over its rows (`rows_without_leaf` gives the count when no leaf column is wanted);
    /// returns the batch's rows (0: the row group is done).
    fn fill(
        &mut self,
        part: &Part,
        g: usize,
        (leaves, readers): (&[Wanted], &mut [Option<ColumnReader>]),
        cap: u64,
        rows_without_leaf: impl FnOnce(()) -> usize,
    ) -> Result<usize> {
        let mut len = None;
        let each = readers.iter_mut().zip(leaves).zip(self.columns.iter_mut());
        for (((r, w), out), s) in each.zip(self.scratch.iter_mut()) {
            let (Some(r), Wanted::Leaf(_, kind, max_def)) = (r, w) else {
                continue;
            };
            let n = decode(r, kind, *max_def, out, s).map_err(|e| {
                Error::input(
                    &part.shown,
                    0,
                    format!("row group {}: damaged Parquet data: {e}", g + 1),
                )
            })?;
            *self.decoded += decoded_bytes(out);
            within_cap(part, g, *self.decoded, cap)?;
            if *len.get_or_insert(n) != n {
                return Err(Error::input(
                    &part.shown,
                    0,
                    format!("row group {}: columns of unequal length", g + 1),
                ));
            }
        }
        let len = len.unwrap_or_else(|| rows_without_leaf(()));
        for (w, out) in leaves.iter().zip(self.columns.iter_mut()) {
            if let Wanted::Constant(v) = w {
                repeat(out, v.as_deref(), len);
                *self.decoded += decoded_bytes(out);
                within_cap(part, g, *self.decoded, cap)?;
            }
        }
        Ok(len)
    }
}

/// Refuses a part whose `decoded` bytes passed `cap` (a decompression bomb).
fn within_cap(part: &Part, g: usize, decoded: u64, cap: u64) -> Result<()> {
    if decoded <= cap {
        return Ok(());
    }
    Err(Error::input(
        &part.shown,
        0,
        format!(
            "row group {}: the Parquet data expands more than {}-fold (over {} MiB from {} \
             bytes): refused as a decompression bomb",
            g + 1,
            super::MAX_GZIP_RATIO,
            decoded >> 20,
            part.len
        ),
    ))
}

/// The bytes a decoded column batch holds: 8 a number, a string's length plus 8.
fn decoded_bytes(d: &Decoded) -> u64 {
    match &d.values {
        // A null cell holds no bytes (and must not be asked its length).
        Values::Text(v) if !d.valid.is_empty() => v
            .iter()
            .zip(&d.valid)
            .map(|(b, &ok)| if ok { b.len() as u64 + 8 } else { 8 })
            .sum(),
        Values::Text(v) => v.iter().map(|b| b.len() as u64 + 8).sum(),
        Values::Int(v) | Values::UInt(v) => 8 * v.len() as u64,
        Values::Float(v) => 8 * v.len() as u64,
    }
}

/// A row group must hold the rows its metadata declares (more or fewer: damaged or hostile).
fn check_rows(shown: &str, g: usize, declared: i64, read: usize) -> Result<()> {
    if declared == read as i64 {
        return Ok(());
    }
    Err(Error::input(
        shown,
        0,
        format!(
            "row group {} declares {declared} rows but its columns hold {read}: damaged file",
            g + 1
        ),
    ))
}

impl Default for Decoded {
    fn default() -> Self {
        Decoded {
            values: Values::Text(Vec::new()),
            valid: Vec::new(),
        }
    }
}

/// One column's reused buffers besides its decoded values: the definition levels, and the
/// 32-bit values read before widening.
#[derive(Default)]
struct Scratch {
    defs: Vec<i16>,
    i32s: Vec<i32>,
    f32s: Vec<f32>,
}

/// The emptied buffer of `values` as variant `$variant`, replacing the variant if it is another.
macro_rules! emptied {
    ($values:expr, $variant:ident) => {{
        if !matches!($values, Values::$variant(_)) {
            *$values = Values::$variant(Vec::new());
        }
        match $values {
            Values::$variant(v) => {
                v.clear();
                v
            }
            _ => unreachable!("the variant was set just above"),
        }
    }};
}

/// `len` rows of the value `v` (None: null) in `out`.
fn repeat(out: &mut Decoded, v: Option<&[u8]>, len: usize) {
    let cell = ByteArray::from(v.unwrap_or_default().to_vec());
    let values = emptied!(&mut out.values, Text);
    values.extend(std::iter::repeat_n(cell, len));
    out.valid.clear();
    if v.is_none() {
        out.valid.resize(len, false);
    }
}

/// Reads up to [`BATCH_ROWS`] rows of one column into `out` (the values spread over the rows,
/// a default where a cell is null, `valid` empty when none is); returns the rows read.
fn decode(
    r: &mut ColumnReader,
    kind: &Kind,
    max_def: i16,
    out: &mut Decoded,
    s: &mut Scratch,
) -> parquet::errors::Result<usize> {
    s.defs.clear();
    out.valid.clear();
    let defs = Some(&mut s.defs);
    let unsigned = *kind == Kind::UInt;
    let values = &mut out.values;
    let (records, _, _) = match r {
        ColumnReader::ByteArrayColumnReader(r) => {
            r.read_records(BATCH_ROWS, defs, None, emptied!(values, Text))?
        }
        ColumnReader::Int32ColumnReader(r) => {
            s.i32s.clear();
            let n = r.read_records(BATCH_ROWS, defs, None, &mut s.i32s)?;
            let ints = emptied!(values, Int);
            if *kind == Kind::UInt32 {
                // The 32 bits of an unsigned column are its value: reinterpret, then widen.
                ints.extend(s.i32s.iter().map(|&v| i64::from(v as u32)));
            } else {
                ints.extend(s.i32s.iter().map(|&v| i64::from(v)));
            }
            n
        }
        ColumnReader::Int64ColumnReader(r) if unsigned => {
            r.read_records(BATCH_ROWS, defs, None, emptied!(values, UInt))?
        }
        ColumnReader::Int64ColumnReader(r) => {
            r.read_records(BATCH_ROWS, defs, None, emptied!(values, Int))?
        }
        ColumnReader::FloatColumnReader(r) => {
            s.f32s.clear();
            let n = r.read_records(BATCH_ROWS, defs, None, &mut s.f32s)?;
            emptied!(values, Float).extend(s.f32s.iter().map(|&v| f64::from(v)));
            n
        }
        ColumnReader::DoubleColumnReader(r) => {
            r.read_records(BATCH_ROWS, defs, None, emptied!(values, Float))?
        }
        _ => {
            return Err(parquet::errors::ParquetError::General(
                "a column of an unsupported type".into(),
            ))
        }
    };
    if max_def == 0 || s.defs.iter().all(|&d| d == max_def) {
        return Ok(records);
    }
    out.valid.extend(s.defs.iter().map(|&d| d == max_def));
    match values {
        Values::Text(v) => spread(v, &out.valid),
        Values::Int(v) | Values::UInt(v) => spread(v, &out.valid),
        Values::Float(v) => spread(v, &out.valid),
    }
    Ok(records)
}

/// Spreads the non-null values at the front of `v` over the rows of `valid`, in place, from the
/// back: row i gets the next value when valid, a default otherwise (never read: `cell` is None).
fn spread<T: Default>(v: &mut Vec<T>, valid: &[bool]) {
    let mut next = v.len().min(valid.len());
    v.resize_with(valid.len(), T::default);
    for (i, &ok) in valid.iter().enumerate().rev() {
        if ok && next > 0 {
            next -= 1;
            v.swap(i, next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn spread_puts_each_value_at_its_valid_row_in_order() {
        let valid = [false, true, true, false, false, true, false];
        let mut v = vec![10, 20, 30];
        spread(&mut v, &valid);
        let got: Vec<Option<i32>> = v
            .iter()
            .zip(valid)
            .map(|(&x, ok)| ok.then_some(x))
            .collect();
        assert_eq!(got, [None, Some(10), Some(20), None, None, Some(30), None]);
    }

    #[test]
    fn spread_keeps_values_when_every_row_is_valid_and_fills_an_all_null_batch() {
        let mut v = vec![1.5, 2.5];
        spread(&mut v, &[true, true]);
        assert_eq!(v, [1.5, 2.5]);
        let mut none: Vec<f64> = Vec::new();
        spread(&mut none, &[false, false, false]);
        assert_eq!(none.len(), 3);
        let mut text = vec![String::from("a"), String::from("b")];
        spread(&mut text, &[true, false, true]);
        assert_eq!((text[0].as_str(), text[2].as_str()), ("a", "b"));
    }
}
