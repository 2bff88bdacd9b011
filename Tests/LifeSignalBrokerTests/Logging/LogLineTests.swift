@testable import LifeSignalBroker
import LifeSignalProtocol
import LifeSignalUV
import Logging
import Testing

@Suite struct LogLineTests {
    /// A logger whose lines are kept, and those lines parsed.
    private final class Captured: Sendable {
        let lines = Locked<[String]>([])
        var objects: [JSONObject] {
            lines.withLock { $0 }.compactMap { try? JSONValue.parse(Array($0.utf8)).objectValue }
        }

        func logger(handlerMetadata: Logger.Metadata = [:], provider: Logger.MetadataProvider? = nil) -> Logger {
            Logger(label: "test.label") { [self] label in
                var handler = LineLogHandler(label: label, format: .json, metadata: handlerMetadata,
                                             metadataProvider: provider) { line in
                    self.lines.withLock { $0.append(line) }
                }
                handler.logLevel = .trace
                return handler
            }
        }
    }

    @Test func aLineHasTheFixedFieldsThenTheMetadata() throws {
        let captured = Captured()
        captured.logger().info("listening", metadata: ["lifesignal.port": "7420"])
        let line = try #require(captured.lines.withLock { $0.first })
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
        let object = try #require(captured.objects.first)
        #expect(object["level"]?.stringValue == "info")
        #expect(object["label"]?.stringValue == "test.label")
        #expect(object["message"]?.stringValue == "listening")
        #expect(object["source"]?.stringValue == "LifeSignalBrokerTests")
        #expect(object["lifesignal.port"]?.stringValue == "7420")
        let time = try #require(object["time"]?.stringValue)
        #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(time)")
        #expect(Array(object.map(\.key).prefix(5)) == ["time", "level", "label", "message", "source"])
    }

    @Test(arguments: [
        "say \"hi\"", "two\nlines", "tab\tand\r\u{0}nul\u{1F}", "back\\slash", "Zoë 🚨 名前", "\u{7F}",
    ])
    func awkwardTextSurvivesOnOneLine(_ text: String) throws {
        let captured = Captured()
        captured.logger().warning("\(text)", metadata: ["value": "\(text)", "nested": ["inner": "\(text)"]])
        let line = try #require(captured.lines.withLock { $0.first })
        #expect(line.dropLast().contains("\n") == false)
        let object = try #require(captured.objects.first, "\(line)")
        #expect(object["message"]?.stringValue == text)
        #expect(object["value"]?.stringValue == text)
        #expect(object["nested"]?.objectValue?["inner"]?.stringValue == text)
    }

    @Test func controlCharactersAreEscapedAsUnicode() throws {
        let captured = Captured()
        captured.logger().info("a\u{1}b")
        let line = try #require(captured.lines.withLock { $0.first })
        #expect(line.contains(#""message":"a\u0001b""#), "\(line)")
    }

    @Test func nestedMetadataIsJSON() throws {
        let captured = Captured()
        captured.logger().info("x", metadata: [
            "list": ["a", "b"], "map": ["k": "v", "deeper": ["n": "1"]], "number": .stringConvertible(42),
        ])
        let object = try #require(captured.objects.first)
        #expect(object["list"] == .array([.string("a"), .string("b")]))
        #expect(object["map"]?.objectValue?["deeper"]?.objectValue?["n"]?.stringValue == "1")
        #expect(object["number"] == .int(42))
        #expect(object["list"]?.arrayValue?.first?.stringValue == "a")
    }

    /// Later wins: the handler's own < the logger's < the provider's < the call's.
    @Test func metadataMergesHandlerThenLoggerThenCallSite() throws {
        let captured = Captured()
        let provider = Logger.MetadataProvider { ["provided": "provider", "both": "provider"] }
        var logger = captured.logger(
            handlerMetadata: ["handler": "handler", "shared": "handler", "both": "handler"], provider: provider)
        logger[metadataKey: "logger"] = "logger"
        logger[metadataKey: "shared"] = "logger"
        logger.info("x", metadata: ["call": "call", "both": "call"])
        logger.info("y")
        let objects = captured.objects
        try #require(objects.count == 2)
        #expect(objects[0]["handler"]?.stringValue == "handler")
        #expect(objects[0]["logger"]?.stringValue == "logger")
        #expect(objects[0]["shared"]?.stringValue == "logger")
        #expect(objects[0]["provided"]?.stringValue == "provider")
        #expect(objects[0]["both"]?.stringValue == "call")
        #expect(objects[1]["both"]?.stringValue == "provider")
    }

    @Test func metadataCannotReplaceAFixedField() throws {
        let captured = Captured()
        captured.logger().info("real", metadata: ["message": "forged", "level": "critical"])
        let object = try #require(captured.objects.first)
        #expect(object["message"]?.stringValue == "real")
        #expect(object["level"]?.stringValue == "info")
        #expect(object["metadata.message"]?.stringValue == "forged")
    }

    @Test func levelsBelowTheHandlersAreNotWritten() {
        let captured = Captured()
        var logger = captured.logger()
        logger.logLevel = .info
        logger.debug("hidden")
        logger.notice("shown")
        #expect(captured.objects.map { $0["message"]?.stringValue } == ["shown"])
    }

    /// swift-log's layout with the JSON log's time: UTC, to the millisecond.
    @Test func aTextLineIsTimeLevelLabelFieldsSourceMessage() {
        let line = LogLineFormat.text.line(
            time: 1_764_063_667_123, level: .info, label: "lsbroker", message: "listening", source: "LifeSignalBroker",
            metadata: ["lifesignal.port": .stringConvertible(7420), "lifesignal.host": "127.0.0.1"])
        #expect(line == "2025-11-25T09:41:07.123Z info lsbroker: lifesignal.host=127.0.0.1 lifesignal.port=7420 "
            + "[LifeSignalBroker] listening\n")
        let bare = LogLineFormat.text.line(time: 0, level: .notice, label: "x", message: "m", source: "S", metadata: [:])
        #expect(bare == "1970-01-01T00:00:00.000Z notice x: [S] m\n")
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"), (1_764_063_667_123, "2025-11-25T09:41:07.123Z"),
        (-1, "1969-12-31T23:59:59.999Z"), (951_782_400_005, "2000-02-29T00:00:00.005Z"),
    ])
    func timesAreRFC3339InUTCWithMilliseconds(_ milliseconds: Int64, _ text: String) {
        #expect(RFC3339.utcMilliseconds(milliseconds) == text)
    }
}
