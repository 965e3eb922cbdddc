// The C library, for every file of the module and its clients: glibc on Linux, Darwin on macOS.
// An `@_exported` import is visible in all of VCLintCore's files (a plain one only in its own), so a
// file that calls getenv or write compiles on both systems whatever its own imports say.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// System calls whose bare names a caller's own members shadow (`PathList.read`, a local `open`),
/// so they are reached through this namespace instead of `Glibc.` (a module macOS does not have).
public enum LibC {
    @inline(__always)
    public static func open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags)
        #else
        Darwin.open(path, flags)
        #endif
    }

    @inline(__always)
    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    @inline(__always)
    public static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    @inline(__always)
    public static func rename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 {
        #if canImport(Glibc)
        Glibc.rename(from, to)
        #else
        Darwin.rename(from, to)
        #endif
    }

    public static func exit(_ code: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(code)
        #else
        Darwin.exit(code)
        #endif
    }

    /// Gives the free pages of the heap back to the system (glibc keeps what small objects freed, for the next
    /// ones: when a session's instances go as its lanes are written into blocks of their own, those pages would
    /// stay counted beside the blocks). Darwin's allocator returns its free pages by itself.
    public static func releaseFreeMemory() {
        #if canImport(Glibc)
        _ = mallocTrim?(0)
        #endif
    }

    /// Fixes glibc's thresholds at 1 MiB: a block that large is mapped on its own and unmapped when freed, and the
    /// heap's free top goes back to the system past 1 MiB. Left dynamic, glibc raises both whenever a large mapped
    /// block is freed (the mmap threshold to its size, up to 32 MiB; the trim threshold to twice it): from then on
    /// arrays of up to that size come from the heap and stay counted after they are freed (on 400k classes, 25 to 40
    /// MiB at the peak of `leaks`, `timeline` and `report`: docs/performance.md#memory). Not 128 KiB, glibc's
    /// default: each input's pipeline allocates buffers of 0.5 to 1 MiB, which 100k small captures would then map and
    /// unmap one by one (a fifth slower). `vclint` calls it first thing; Darwin's allocator has no such thresholds.
    public static func keepFreedMemoryReturnable() {
        #if canImport(Glibc)
        guard let mallopt else { return }
        _ = mallopt(mTrimThreshold, 1 << 20)
        _ = mallopt(mMmapThreshold, 1 << 20)
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `malloc_trim` and `mallopt`, which its module map does not export (`malloc.h`); nil under another C
    /// library.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(f, to: (@convention(c) (Int) -> Int32).self)
    }()
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        guard let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }
        return unsafeBitCast(f, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()
    /// `malloc.h`'s `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD`.
    private static let mTrimThreshold: Int32 = -1
    private static let mMmapThreshold: Int32 = -3
    #endif

    /// A directory stream: `DIR *` is opaque in glibc's headers and a complete struct in Darwin's.
    #if canImport(Darwin)
    public typealias DirectoryStream = UnsafeMutablePointer<DIR>
    #else
    public typealias DirectoryStream = OpaquePointer
    #endif
}

extension sigaction {
    /// The one-argument handler (`sa_handler`), which glibc and Darwin keep in differently named unions.
    public var plainHandler: (@convention(c) (Int32) -> Void)? {
        get {
            #if canImport(Darwin)
            __sigaction_u.__sa_handler
            #else
            __sigaction_handler.sa_handler
            #endif
        }
        set {
            #if canImport(Darwin)
            __sigaction_u.__sa_handler = newValue
            #else
            __sigaction_handler.sa_handler = newValue
            #endif
        }
    }
}
