//! Row tables on 2 MiB pages where the system offers them (Linux transparent huge pages, asked
//! for with `madvise(MADV_HUGEPAGE)`), plain heap memory elsewhere or for small tables.
//!
//! The bootstrap reads one row per draw at a random index. Once a table spans more 4 KiB pages
//! than the CPU's first-level TLB holds (a few hundred KiB), most draws also wait on a page
//! translation; on 2 MiB pages a 100,000-unit table is one page. The bytes stored are the same,
//! so every sum is the same number: only the memory's page size changes. Measured with
//! `cargo bench --bench engine` (docs/speed.md).

use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};
use std::ops::Deref;
use std::ptr::NonNull;

/// Tables smaller than this stay on the heap (a huge page would mostly be waste).
const MIN_BYTES: usize = 256 << 10;
/// The huge page size asked for, and the alignment of a page-backed table.
const PAGE: usize = 2 << 20;

/// An immutable table of `T` (plain numbers: no drop, every bit pattern valid), on huge pages
/// when it is at least `MIN_BYTES` and the system allows.
pub struct PageRows<T: Copy> {
    store: Store<T>,
}

enum Store<T: Copy> {
    Heap(Vec<T>),
    /// `len` values at `ptr`, allocated zeroed with `layout` (size a multiple of `PAGE`).
    Pages {
        ptr: NonNull<T>,
        len: usize,
        layout: Layout,
    },
}

// SAFETY: the table is never mutated after it is built and owns its memory, like a Vec<T>.
unsafe impl<T: Copy + Send> Send for PageRows<T> {}
unsafe impl<T: Copy + Sync> Sync for PageRows<T> {}

impl<T: Copy> PageRows<T> {
    /// The rows of `values`.
    pub fn new(values: Vec<T>) -> Self {
        let bytes = std::mem::size_of_val(values.as_slice());
        if bytes < MIN_BYTES || std::mem::align_of::<T>() > PAGE || !cfg!(target_os = "linux") {
            return PageRows {
                store: Store::Heap(values),
            };
        }
        let layout = Layout::from_size_align(bytes.div_ceil(PAGE) * PAGE, PAGE)
            .expect("a table's size fits a layout");
        // SAFETY: the layout's size is not zero (bytes ≥ MIN_BYTES).
        let raw = unsafe { alloc_zeroed(layout) };
        let Some(ptr) = NonNull::new(raw as *mut T) else {
            handle_alloc_error(layout)
        };
        advise_huge(raw, layout.size());
        // SAFETY: the allocation holds at least `values.len()` values of T, is aligned for T
        // (PAGE is a multiple of T's alignment), and does not overlap `values`.
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), ptr.as_ptr(), values.len()) };
        PageRows {
            store: Store::Pages {
                ptr,
                len: values.len(),
                layout,
            },
        }
    }
}

/// Asks Linux for transparent huge pages on `len` bytes at `ptr` (2 MiB aligned). Only a hint:
/// where it is refused or not supported the memory stays on ordinary pages.
fn advise_huge(ptr: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: madvise only reads the range's address; the range is one live allocation.
    unsafe {
        libc::madvise(ptr as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}

impl<T: Copy> Deref for PageRows<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.store {
            Store::Heap(v) => v,
            // SAFETY: `len` values were written at `ptr`, which lives as long as `self`.
            Store::Pages { ptr, len, .. } => unsafe {
                std::slice::from_raw_parts(ptr.as_ptr(), *len)
            },
        }
    }
}

impl<T: Copy> Drop for PageRows<T> {
    fn drop(&mut self) {
        if let Store::Pages { ptr, layout, .. } = &self.store {
            // SAFETY: allocated in `new` with this layout, freed once.
            unsafe { dealloc(ptr.as_ptr() as *mut u8, *layout) };
        }
    }
}

impl<T: Copy> Clone for PageRows<T> {
    fn clone(&self) -> Self {
        PageRows::new(self.to_vec())
    }
}

impl<T: Copy + std::fmt::Debug> std::fmt::Debug for PageRows<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_tables_hold_their_values() {
        for n in [0usize, 1, 1000, 40_000, 300_000] {
            let v: Vec<[f64; 2]> = (0..n).map(|i| [i as f64, -(i as f64) / 3.0]).collect();
            let rows = PageRows::new(v.clone());
            assert_eq!(&rows[..], &v[..], "{n} rows");
            let copy = rows.clone();
            drop(rows);
            assert_eq!(&copy[..], &v[..], "{n} rows, cloned");
        }
    }

    #[test]
    fn large_tables_sit_on_page_aligned_memory() {
        let v = vec![[1.5f64; 4]; 100_000];
        let rows = PageRows::new(v);
        if cfg!(target_os = "linux") {
            assert_eq!(rows.as_ptr() as usize % PAGE, 0);
        }
        assert!(rows.iter().all(|r| *r == [1.5; 4]));
    }
}
