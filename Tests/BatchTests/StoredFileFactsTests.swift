import Foundation
import SensorData
import Testing
import TestSupport
@testable import Batch

/// `FileFacts(stored:)` reads what `ResultStore.commitFileFacts` writes (JSONEncoder, sorted keys,
/// facts at their defaults left out) and what it wrote before (every key) exactly as Foundation's
/// JSONDecoder does: the same facts, and nil where the decoder throws.
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
            let text = try Self.encoded(facts)
            let (decoded, stored) = Self.both(text)
            #expect(decoded == facts)
            #expect(stored == facts)
            // The earlier stored form, every key present: the same facts.
            let (decodedFull, storedFull) = Self.both(try Self.full(text))
            #expect(decodedFull == facts && storedFull == facts)
        }
        // Only what differs from the defaults is written.
        #expect(try Self.encoded(FileFacts(sha256: "ab", bytes: 10, error: "e")) == #"{"bytes":10,"category":"unreadable","loadError":"e","sha256":"ab"}"#)
        #expect(try Self.encoded(full).count > 400)
    }

    /// `text` with every fact at its default written out, as the synthesized encoder stored it.
    static func full(_ text: String) throws -> String {
        var object = try #require(try JSONValue.parse(Array(text.utf8), file: "facts").object)
        let defaults: [(String, JSONValue)] = [
            ("archiveEntries", .array([])), ("audiogramRows", .number(0)), ("camera", .bool(false)), ("dBHLResult", .bool(false)),
            ("detail", .string("")), ("kindName", .string("")), ("motion", .bool(false)), ("namedFiles", .array([])),
            ("rangeOfMotionResult", .bool(false)), ("splResult", .bool(false)), ("tappingIdentifiers", .array([])),
            ("timedWalkResult", .bool(false)), ("uploadManifest", .bool(false)), ("uploadMetadata", .array([])),
        ]
        for (key, value) in defaults where object[key] == nil { object.append(key, value) }
        return JSONWriter().string(.object(object))
    }

    @Test("a missing hash, size or category, a value of another type, a fraction or a null where a value is required: nil, as the decoder refuses it; a fact absent or null is its default for both")
    func refusedAsTheDecoderRefuses() throws {
        let text = try Self.encoded(FileFacts(sha256: "ab", bytes: 10, error: "e"))
        let object = try #require(try JSONValue.parse(Array(text.utf8), file: "facts").object)
        let variants: [(String, JSONValue?)] = [
            ("sha256", nil), ("bytes", .string("10")), ("bytes", .number(10.5)), ("category", .string("film")),
            ("category", nil), ("bytes", .null), ("motion", .number(1)), ("camera", .string("true")), ("uploadItem", .number(1)), ("archiveEntries", .array([.number(1)])),
            ("audiogramRows", .number(1.5)), ("kindName", .bool(false)),
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
        // null for an optional or for a fact with a default: absent, for both
        for key in ["uploadItem", "motion", "archiveEntries", "audiogramRows", "detail", "loadNeedsMemory"] {
            var nulled = try #require(try JSONValue.parse(Array(text.utf8), file: "facts").object)
            nulled.append(key, .null)
            let (decoded, stored) = Self.both(JSONWriter().string(.object(nulled)))
            #expect(decoded == FileFacts(sha256: "ab", bytes: 10, error: "e") && decoded == stored, "\(key)")
        }
    }
}
