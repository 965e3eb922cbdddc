import Testing
@testable import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

/// `bytesEqual` says what `memcmp(a, b, n) == 0` says, for every length and wherever the runs differ.
@Suite struct ShortCompareTests {
    @Test func agreesWithMemcmpAtEveryLengthAndPosition() {
        var rng = SplitMix(seed: 41)
        var differing = 0
        for n in 0...40 {
            for round in 0..<60 {
                var a = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                var b = a
                if n > 0, round > 0 { b[Int(rng.next() % UInt64(n))] ^= UInt8(1 + rng.next() % 255) }
                // Runs at odd addresses too: the compare reads unaligned words.
                a.insert(0, at: 0)
                b.insert(0, at: 0)
                let (fast, libc) = a.withUnsafeBufferPointer { pa in
                    b.withUnsafeBufferPointer { pb in
                        (bytesEqual(pa.baseAddress! + 1, pb.baseAddress! + 1, n), memcmp(pa.baseAddress! + 1, pb.baseAddress! + 1, n) == 0)
                    }
                }
                #expect(fast == libc, "length \(n) round \(round)")
                if !libc { differing += 1 }
            }
        }
        #expect(differing > 2_000)
    }
}
