import Testing
@testable import VCLintCore

/// `RecentClassSlots`, the session's direct-mapped cache in front of its classes by name: a slot answers only the name
/// it was given last, whatever other name maps to it, and forgetting drops only what was asked.
@Suite struct RecentClassSlotsTests {
    static func state(_ name: String) -> SessionTimeline.ClassState {
        SessionTimeline.ClassState(entry: Instrumentation.ClassEntry(name: name, dialect: .objcFunction), evictAt: 8)
    }

    @Test func aSlotAnswersOnlyTheNameItHolds() {
        var recent = RecentClassSlots()
        #expect(recent["ListViewController"] == nil, "nothing remembered yet")
        // Many names of one length and one first byte: some of them share a slot with another.
        let names = (0..<200).map { "C\(1000 + $0)ViewController" } + ["ListViewController", "ItemViewController", "", "é"]
        var remembered: [String: SessionTimeline.ClassState] = [:]
        for name in names {
            let s = Self.state(name)
            recent.remember(name, s)
            remembered[name] = s
            #expect(recent[name] === s, "the class just remembered is answered: \(name)")
            for other in names where other != name {
                if let answer = recent[other] {
                    #expect(answer === remembered[other], "a slot answered \(other) with another class's state")
                }
            }
        }
    }

    @Test func forgettingDropsOnlyThePickedClasses() {
        var recent = RecentClassSlots()
        let kept = Self.state("ListViewController"), gone = Self.state("ItemViewController")
        recent.remember("ListViewController", kept)
        recent.remember("ItemViewController", gone)
        #expect(recent["ItemViewController"] === gone, "the two names take different slots")
        recent.forget { $0 === gone }
        #expect(recent["ItemViewController"] == nil)
        #expect(recent["ListViewController"] === kept)
    }
}
