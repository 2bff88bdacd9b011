import LifeSignalProtocol
import Testing

@Suite("JSONObject")
struct JSONObjectTests {
    @Test func setReplacesInPlaceOrAppends() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = "one"
        object["c"] = .null
        #expect(object.keys == ["a", "b", "c"])
        #expect(object["a"] == "one")
        #expect(object["c"] == .null)
        #expect(object["missing"] == nil)
        #expect(object.count == 3)
    }

    @Test func settingNilRemoves() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = nil
        object["zzz"] = nil
        #expect(object.keys == ["b"])
    }

    @Test func duplicatePairsKeepTheFirstPositionAndTheLastValue() {
        let object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
    }

    @Test func equalityIgnoresOrder() {
        let left: JSONObject = ["a": 1, "b": [true]]
        #expect(left == ["b": [true], "a": 1])
        #expect(left != ["a": 1, "b": [false]])
        #expect(left != ["a": 1])
        #expect(left != ["a": 1, "c": [true]])
    }

    @Test func iteratesInOrder() {
        let object: JSONObject = ["x": 1, "y": 2, "z": 3]
        #expect(object.map(\.key) == ["x", "y", "z"])
        #expect(object.map(\.value) == [1, 2, 3])
    }

    @Test func valueAccessors() {
        #expect(JSONValue.string("s").stringValue == "s")
        #expect(JSONValue.int(1).stringValue == nil)
        #expect(JSONValue.int(1).intValue == 1)
        #expect(JSONValue.double(1).intValue == nil)
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(JSONValue.object(["a": 1]).objectValue == ["a": 1])
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.null.isNull)
        #expect(!JSONValue.bool(false).isNull)
    }
}
