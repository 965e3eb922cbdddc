// libFuzzer's entry points for every vclint fuzz target, built into one binary by Tests/Fuzz/run.sh;
// VCLINT_FUZZ_TARGET (set by run.sh --target NAME) picks the target:
//   pipeline  bytes → report, through `lint(bytes:)` (FuzzTarget.swift)
//   gzip      the file-descriptor path: gzip members, trailing bytes, corrupt streams (FuzzInputs.swift)
//   live      `LiveFollower` over a file that grows, is truncated, rewritten and rotated (FuzzInputs.swift)
//   config    the YAML configuration loader (FuzzInputs.swift)
//   args      the command line, through the built `vclint` binary (FuzzArgs.swift)
//   views     inspect, timeline, leaks and the HTML report of a capture (FuzzViews.swift)
//   merge     a shard's lint or leak report, as merge and leaks read it (FuzzViews.swift)
//   logcat    each input line as a logcat line's message, then the pipeline's oracles (FuzzTarget.swift)
import Foundation

nonisolated(unsafe) private var fuzzTarget = "pipeline"

@_cdecl("LLVMFuzzerInitialize")
public func vclintFuzzInitialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    fuzzTarget = ProcessInfo.processInfo.environment["VCLINT_FUZZ_TARGET"] ?? "pipeline"
    guard ["pipeline", "gzip", "live", "config", "args", "views", "merge", "logcat"].contains(fuzzTarget) else { fuzzFail("unknown target \(fuzzTarget)") }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func vclintFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    switch fuzzTarget {
    case "gzip": return fuzzGzip(bytes)
    case "live": return fuzzLive(bytes)
    case "config": return fuzzConfig(bytes)
    case "args": return fuzzArgs(bytes)
    case "views": return fuzzViews(bytes)
    case "merge": return fuzzMerge(bytes)
    case "logcat": return fuzzLogcat(bytes)
    default: return fuzzPipeline(bytes)
    }
}
