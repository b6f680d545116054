@testable import InputGuards
import Testing

@Suite("How malloc is set up for the process (MemoryBudget.prepare)")
struct MemoryBudgetTests {
    @Test("one arena under an address-space limit; freed memory kept only where no limit counts it, so a limit's headroom is what is in use")
    func mallocPolicy() {
        #expect(MemoryBudget.mallocPolicy(addressSpaceLimited: true, memoryLimited: false) == .oneArena)
        #expect(MemoryBudget.mallocPolicy(addressSpaceLimited: true, memoryLimited: true) == .oneArena)
        #expect(MemoryBudget.mallocPolicy(addressSpaceLimited: false, memoryLimited: true) == .glibcDefaults)
        #expect(MemoryBudget.mallocPolicy(addressSpaceLimited: false, memoryLimited: false) == .keepFreed)
    }
}
