import Testing
@testable import VCLintCore

/// `LibC.keepFreedMemoryReturnable`: once a large block was freed, a block of 1 MiB and more is still mapped on
/// its own (glibc marks such a chunk in its header: bit 1 of the size word before the block), so that freeing it
/// gives its memory back. Left dynamic, freeing 64 MiB would have raised the threshold to 32 MiB and the next 8 MiB
/// would come from the heap.
@Suite struct AllocatorTests {
    #if canImport(Glibc)
    /// Under AddressSanitizer or ThreadSanitizer (`Tests/sanitize.sh`) their own allocator answers malloc.
    static let glibcAllocates = ["__asan_init", "__tsan_init"].allSatisfy { (name: String) in dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) == nil }

    @Test(.enabled(if: glibcAllocates, "a sanitizer's allocator answers malloc"))
    func aLargeBlockIsMappedAfterALargerOneWasFreed() throws {
        LibC.keepFreedMemoryReturnable()
        let big = try #require(malloc(64 << 20))
        memset(big, 1, 64 << 20)
        free(big)
        for size in [8 << 20, 2 << 20, 1 << 20] {
            let block = try #require(malloc(size))
            let header = block.load(fromByteOffset: -MemoryLayout<UInt>.size, as: UInt.self)
            #expect(header & 2 != 0, "a block of \(size) bytes comes from the heap")
            free(block)
        }
    }
    #endif
}
