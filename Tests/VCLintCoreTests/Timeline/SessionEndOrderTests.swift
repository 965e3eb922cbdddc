import Testing
@testable import VCLintCore

/// At a session's end the live instances are judged oldest first, merged from the classes' lists
/// (`SessionTimeline.forEachOldestFirst`) rather than sorted in one array: the order must be exact.
@Suite struct SessionEndOrderTests {
    @Test(arguments: [0, 1, 2, 3, 5, 40])
    func mergesTheClassesListsInSerialOrder(classes: Int) {
        var r = SplitMix(seed: UInt64(classes) + 17)
        var lists = [[Instance]](repeating: [], count: classes)
        let entry = Instrumentation.ClassEntry(name: "A", dialect: .objcFunction)
        var made = 0
        for _ in 0..<(classes * 50) {
            made += 1
            let k = r.int(classes)
            lists[k].append(Instance(serial: made, entry: entry, address: nil, generation: made, dialect: .objcFunction, line: made))
        }
        let nonEmpty = lists.filter { !$0.isEmpty }
        var seen: [Int] = []
        SessionTimeline.forEachOldestFirst(nonEmpty) { seen.append($0.serial) }
        #expect(seen == Array(stride(from: 1, through: made, by: 1)))
    }
}
