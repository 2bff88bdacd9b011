@testable import LifeSignalBroker
import LifeSignalFuzzing
import Testing

/// `DeviceTable` against the plain array it stands for, over random sets and removals.
@Suite struct DeviceTableTests {
    struct Entry: DeviceIdentified, Equatable {
        let deviceID: String
        let version: Int
    }

    @Test(arguments: 0..<20)
    func behavesAsAnArrayInTheOrderDevicesCame(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var table = DeviceTable<Entry>()
        var model: [Entry] = []
        for step in 0..<300 {
            let id = "d\(Int.random(in: 0..<5, using: &random))"
            if Bool.random(using: &random) {
                let entry = Entry(deviceID: id, version: step)
                table[id] = entry
                if let index = model.firstIndex(where: { $0.deviceID == id }) { model[index] = entry } else { model.append(entry) }
            } else {
                table[id] = nil
                model.removeAll { $0.deviceID == id }
            }
            #expect(table.values == model)
            #expect(Array(table) == model)
            #expect(table.count == model.count && table.isEmpty == model.isEmpty)
            for probe in 0..<5 { #expect(table["d\(probe)"] == model.first { $0.deviceID == "d\(probe)" }) }
        }
    }

    @Test func removingTheFirstKeepsTheOthersInOrder() {
        var table = DeviceTable([Entry(deviceID: "a", version: 0), Entry(deviceID: "b", version: 1), Entry(deviceID: "c", version: 2)])
        table["a"] = nil
        #expect(table.values.map(\.deviceID) == ["b", "c"])
        table["a"] = Entry(deviceID: "a", version: 3)
        #expect(table.values.map(\.deviceID) == ["b", "c", "a"])
    }
}
