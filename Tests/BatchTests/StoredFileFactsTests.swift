import Foundation
import SensorData
import Testing
import TestSupport
@testable import Batch

/// `FileFacts(stored:)` reads what `ResultStore.commitFileFacts` writes (JSONEncoder, sorted keys)
/// exactly as Foundation's JSONDecoder does: the same facts, and nil where the decoder throws.
@Suite struct StoredFileFactsTests {
    static func encoded(_ facts: FileFacts) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(facts), as: UTF8.self)
    }

    static func both(_ text: String) -> (decoder: FileFacts?, stored: FileFacts?) {
        let decoded = try? JSONDecoder().decode(FileFacts.self, from: Data(text.utf8))
        let stored = (try? JSONValue.parse(Array(text.utf8), file: "facts")).flatMap(FileFacts.init(stored:))
        return (decoded, stored)
    }

    @Test("the facts of every file of the discovery corpus and the sample data, and of facts with every field set, read back as the decoder reads them")
    func sameAsTheDecoder() throws {
        let folder = try OneReadTests.corpus()
        defer { folder.remove() }
        var all = Discovery.walk([folder.url.path]).files.map { Inventory.examine($0, audio: .streamed).0 }
        var full = FileFacts(sha256: String(repeating: "ab", count: 32), bytes: 9_007_199_254_740_992, error: "")
        full.category = .archive
        full.uploadManifest = true
        full.uploadItem = "Voice Activity"
        full.uploadMetadata = [.init(column: "taskRun", value: "x\"y\\z\u{1}é")]
        full.archiveEntries = ["a.json", "b/c.wav"]
        full.namedFiles = [.init(name: "accel.json", step: nil, identifier: "accelerometer"), .init(name: "a", step: "walk", identifier: nil)]
        full.tappingIdentifiers = [nil, "tapping.left"]
        (full.motion, full.camera, full.splResult, full.dBHLResult, full.audiogramRows) = (true, true, true, true, 12)
        (full.kindName, full.detail, full.loadError, full.loadNeedsMemory) = ("text document", "détail", "cannot be read", false)
        all.append(full)
        #expect(all.count >= 21)
        #expect(Set(all.map { $0.category }).count >= 5)
        for facts in all {
            let (decoded, stored) = Self.both(try Self.encoded(facts))
            #expect(decoded == facts)
            #expect(stored == facts)
        }
    }

    @Test("a missing key, a value of another type, a fraction or a null where a value is required: nil, as the decoder refuses it")
    func refusedAsTheDecoderRefuses() throws {
        let text = try Self.encoded(FileFacts(sha256: "ab", bytes: 10, error: "e"))
        let object = try #require(try JSONValue.parse(Array(text.utf8), file: "facts").object)
        let variants: [(String, JSONValue?)] = [
            ("sha256", nil), ("bytes", .string("10")), ("bytes", .number(10.5)), ("category", .string("film")),
            ("motion", .null), ("camera", nil), ("uploadItem", .number(1)), ("archiveEntries", .array([.number(1)])),
            ("tappingIdentifiers", .array([.bool(true)])), ("namedFiles", .array([.object(JSONObject(["step": .string("s")]))])),
            ("uploadMetadata", .object(JSONObject())), ("loadNeedsMemory", .string("yes")),
        ]
        for (key, value) in variants {
            var changed = JSONObject()
            for (name, member) in object.members where name != key { changed.append(name, member) }
            if let value { changed.append(key, value) }
            let (decoded, stored) = Self.both(JSONWriter().string(.object(changed)))
            #expect(decoded == nil, "the decoder took \(key) = \(String(describing: value))")
            #expect(stored == nil, "FileFacts(stored:) took \(key) = \(String(describing: value))")
        }
        // null for an optional: absent, for both
        var nulled = try #require(try JSONValue.parse(Array(text.utf8), file: "facts").object)
        nulled.append("uploadItem", .null)
        let (decoded, stored) = Self.both(JSONWriter().string(.object(nulled)))
        #expect(decoded != nil && decoded == stored)
    }
}
