import Testing
@testable import VCLintCore

/// `LibC.keepFreedMemoryReturnable`: once a large block was freed, blocks of 1 MiB and more are still mapped on their
/// own (glibc marks such a chunk in its header: bit 1 of the size word before the block), so that freeing them gives
/// their memory back. Left dynamic, freeing a mapped block of 24 MiB raises glibc's threshold to its size (it does up
/// to 32 MiB), and every 8 MiB block after it comes from the heap. glibc serves a request from a free chunk of the
/// heap first, and the test runner's heap has many: blocks are taken (and held) until one is mapped.
@Suite struct AllocatorTests {
    #if canImport(Glibc)
    /// Under AddressSanitizer or ThreadSanitizer (`Tests/sanitize.sh`) their own allocator answers malloc.
    static let glibcAllocates = ["__asan_init", "__tsan_init"].allSatisfy { (name: String) in dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) == nil }

    @Test(.enabled(if: glibcAllocates, "a sanitizer's allocator answers malloc"))
    func largeBlocksStayMappedAfterALargerOneWasFreed() throws {
        LibC.keepFreedMemoryReturnable()
        let big = try #require(malloc(24 << 20))
        memset(big, 1, 24 << 20)
        free(big)
        var held: [UnsafeMutableRawPointer] = []
        defer { for block in held { free(block) } }
        var mapped = false
        // 64 blocks of 8 MiB, untouched: more than the free chunks of any heap this runner grows.
        for _ in 0..<64 where !mapped {
            let block = try #require(malloc(8 << 20))
            held.append(block)
            mapped = block.load(fromByteOffset: -MemoryLayout<UInt>.size, as: UInt.self) & 2 != 0
        }
        #expect(mapped, "\(held.count) blocks of 8 MiB, none mapped")
    }
    #endif
}
