//! What an engine's heap holds, counted as the engine allocates: the bytes
//! it holds from the system allocator now and at its highest.
//!
//! QuickJS keeps its own count of the bytes it allocated, but gives it out
//! only through `JS_ComputeMemoryUsage`, which walks every object, shape
//! and atom of the runtime (tens of microseconds for a fresh engine, more
//! as the heap grows). The receipt's heap peak is read for every window,
//! so the engine's allocations go through [`CountingAllocator`] instead,
//! which counts them as they happen: reading the count costs nothing, and
//! the peak is the true one (a heap that grew and was collected within a
//! window is seen). The engine's own count, which its memory limit checks,
//! is still read where an exact figure matters (telling a bare throw at
//! the limit apart) — rarely.
//!
//! The engine asks the allocator for its arenas of small blocks and for
//! large blocks, not for each object, so counting costs an atomic add
//! per arena or large block.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rquickjs::allocator::Allocator;

/// An engine's heap as its allocator counted it; clones share the counts.
#[derive(Clone, Debug, Default)]
pub(crate) struct HeapMeter(Arc<Counts>);

#[derive(Debug, Default)]
struct Counts {
    held: AtomicUsize,
    peak: AtomicUsize,
}

impl HeapMeter {
    /// Bytes the engine holds from the allocator now.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.0.held.load(Ordering::Relaxed)
    }

    /// The most bytes the engine has held at once.
    pub(crate) fn peak(&self) -> usize {
        self.0.peak.load(Ordering::Relaxed)
    }

    fn grew(&self, bytes: usize) {
        let held = self.0.held.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.0.peak.fetch_max(held, Ordering::Relaxed);
    }

    fn shrank(&self, bytes: usize) {
        self.0.held.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// The C allocator QuickJS uses by default (`malloc`, `free`, `realloc`,
/// `malloc_usable_size`), counting into a [`HeapMeter`].
pub(crate) struct CountingAllocator(pub(crate) HeapMeter);

#[expect(unsafe_code, reason = "the engine's allocator is given to it through its C API")]
// SAFETY: every block comes from the C allocator, whose blocks are aligned
// for any fundamental type (at least `usize`), are at least the size asked
// for, and report their usable size; each is freed or resized only by the
// same allocator (the engine's contract), and the counts are kept from the
// usable sizes the C allocator reports for the blocks it handed out.
unsafe impl Allocator for CountingAllocator {
    fn alloc(&mut self, size: usize) -> *mut u8 {
        // SAFETY: `malloc` may be called with any size.
        let ptr = unsafe { libc::malloc(size) }.cast::<u8>();
        if !ptr.is_null() {
            // SAFETY: `ptr` was just returned by `malloc`.
            self.0.grew(unsafe { Self::usable_size(ptr) });
        }
        ptr
    }

    fn calloc(&mut self, count: usize, size: usize) -> *mut u8 {
        // SAFETY: `calloc` checks `count * size` for overflow itself.
        let ptr = unsafe { libc::calloc(count, size) }.cast::<u8>();
        if !ptr.is_null() {
            // SAFETY: `ptr` was just returned by `calloc`.
            self.0.grew(unsafe { Self::usable_size(ptr) });
        }
        ptr
    }

    unsafe fn dealloc(&mut self, ptr: *mut u8) {
        if ptr.is_null() {
            return;
        }
        // SAFETY: the caller hands back a live block of this allocator.
        self.0.shrank(unsafe { Self::usable_size(ptr) });
        // SAFETY: as above; it is not used again.
        unsafe { libc::free(ptr.cast()) };
    }

    unsafe fn realloc(&mut self, ptr: *mut u8, new_size: usize) -> *mut u8 {
        if ptr.is_null() {
            return self.alloc(new_size);
        }
        if new_size == 0 {
            // SAFETY: as `dealloc` (a zero-size resize frees the block).
            unsafe { self.dealloc(ptr) };
            return std::ptr::null_mut();
        }
        // SAFETY: the caller hands back a live block of this allocator.
        let old = unsafe { Self::usable_size(ptr) };
        // SAFETY: as above; on success the old block is not used again.
        let moved = unsafe { libc::realloc(ptr.cast(), new_size) }.cast::<u8>();
        if !moved.is_null() {
            // A failed resize leaves the old block, and the count, as they were.
            self.0.shrank(old);
            // SAFETY: `moved` was just returned by `realloc`.
            self.0.grew(unsafe { Self::usable_size(moved) });
        }
        moved
    }

    unsafe fn usable_size(ptr: *mut u8) -> usize {
        // SAFETY: the caller passes a live block of the C allocator.
        unsafe { libc::malloc_usable_size(ptr.cast()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meter_counts_what_the_engine_holds_and_its_highest_ga_1_2() {
        let meter = HeapMeter::default();
        let runtime = rquickjs::Runtime::new_with_alloc(CountingAllocator(meter.clone())).unwrap();
        let context = rquickjs::Context::full(&runtime).unwrap();
        let fresh = meter.held();
        assert!(fresh > 0, "a runtime and a context are held: {fresh}");
        context.with(|ctx| ctx.eval::<(), _>("globalThis.big = new Array(200000).fill(1.5)").unwrap());
        let grown = meter.held();
        assert!(grown > fresh + 1_000_000, "an array of 200,000 numbers is held: {fresh} -> {grown}");
        context.with(|ctx| ctx.eval::<(), _>("delete globalThis.big").unwrap());
        runtime.run_gc();
        assert!(meter.held() < grown, "collected: {grown} -> {}", meter.held());
        assert!(meter.peak() >= grown, "the peak stays: {} < {grown}", meter.peak());
        drop(context);
        drop(runtime);
        assert_eq!(meter.held(), 0, "a freed engine holds nothing");
    }
}
