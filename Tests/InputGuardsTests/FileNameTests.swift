import Foundation
import InputGuards
import Testing

/// File names are bytes (FileName): the string form must give back exactly the bytes, so two
/// names never become one and every name can be opened again.
@Suite struct FileNameTests {
    @Test("valid UTF-8 is unchanged; invalid bytes, overlongs, surrogates, truncated sequences and genuine U+10FE80–U+10FEFF round-trip")
    func knownCases() {
        let cases: [(bytes: [UInt8], display: String)] = [
            (Array("tap.json".utf8), "tap.json"),
            (Array("héllo/日本.wav".utf8), "héllo/日本.wav"),
            ([0x61, 0xFF, 0x2E, 0x6A], "a\\xFF.j"),             // Latin-1 ÿ
            ([0x61, 0xFE], "a\\xFE"),
            ([0xC0, 0xAF], "\\xC0\\xAF"),                        // overlong "/"
            ([0xED, 0xA0, 0x80], "\\xED\\xA0\\x80"),             // UTF-8 of a surrogate
            ([0xE2, 0x82], "\\xE2\\x82"),                        // "€" cut short
            ([0xF4, 0x90, 0x80, 0x80], "\\xF4\\x90\\x80\\x80"),  // above U+10FFFF
            ([0xF4, 0x8F, 0xBA, 0x80], "\\xF4\\x8F\\xBA\\x80"),  // U+10FE80 itself is escaped
            ([0xEF, 0xBF, 0xBD], "\u{FFFD}"),                    // a real replacement character
        ]
        for (bytes, display) in cases {
            let string = FileName.string(decoding: bytes)
            #expect(FileName.bytes(of: string) == bytes, "\(bytes)")
            #expect(FileName.display(string) == display, "\(bytes)")
            #expect(FileName.hasEscapedBytes(string) == (display.contains("\\x")), "\(bytes)")
        }
        // The names that String(cString:) would all repair to "a\u{FFFD}" stay three names.
        let names = [[0x61, 0xFF], [0x61, 0xFE], [0x61, 0xEF, 0xBF, 0xBD]].map { FileName.string(decoding: $0 as [UInt8]) }
        #expect(Set(names).count == 3)
    }

    @Test("random byte strings: bytes(of: string(decoding: b)) == b, and valid UTF-8 decodes as Swift decodes it")
    func randomRoundTrip() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {  // SplitMix64
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var seen: [String: [UInt8]] = [:]
        for _ in 0..<20_000 {
            let length = Int(next() % 12)
            // Bias toward the bytes that make multi-byte sequences.
            let bytes = (0..<length).map { _ -> UInt8 in
                let r = next()
                return r % 3 == 0 ? UInt8(truncatingIfNeeded: r >> 8) : [0x61, 0x2F, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xF4, 0x8F, 0xBA, 0xED][Int((r >> 8) % 15)]
            }
            let string = FileName.string(decoding: bytes)
            #expect(FileName.bytes(of: string) == bytes)
            if let previous = seen[string] { #expect(previous == bytes, "two byte strings gave one string") }
            seen[string] = bytes
            if let valid = String(validating: bytes, as: UTF8.self), !FileName.hasEscapedBytes(string) {
                #expect(string == valid)
            }
            let viaC = FileName.withCString(string) { pointer in
                Array(UnsafeBufferPointer(start: pointer, count: bytes.count + 1)).map { UInt8(bitPattern: $0) }
            }
            if !bytes.contains(0) { #expect(viaC == bytes + [0]) }
        }
    }
}

@Suite struct CheckedConversionTests {
    @Test("checking: NaN, ±∞, 2^63 and values outside the bounds are nil; rounding follows the rule")
    func checking() {
        #expect(Int(checking: .nan) == nil)
        #expect(Int(checking: .infinity) == nil)
        #expect(Int(checking: -.infinity) == nil)
        #expect(Int(checking: 9_223_372_036_854_775_808.0) == nil)  // 2^63 = Int.max + 1
        #expect(Int(checking: -9_223_372_036_854_775_808.0) == Int.min)
        #expect(Int(checking: 1e300) == nil)
        #expect(Int(checking: -0.0) == 0)
        #expect(Int(checking: .leastNonzeroMagnitude) == 0)
        #expect(Int(checking: 2.5) == 2)
        #expect(Int(checking: 2.5, rounding: .toNearestOrEven) == 2)
        #expect(Int(checking: 2.5, rounding: .toNearestOrAwayFromZero) == 3)
        #expect(Int(checking: -2.5, rounding: .down) == -3)
        #expect(Int(checking: 10.4, in: 0...10) == 10)
        #expect(Int(checking: 11, in: 0...10) == nil)
        #expect(Int(checking: -0.5, in: 0...10) == 0)  // toward zero: −0.5 → 0
        #expect(Int(checking: -1, in: 0...10) == nil)
    }

    @Test("clamping: saturates at the bounds, NaN to the lower bound")
    func clamping() {
        #expect(Int(clamping: .nan, to: 3...9) == 3)
        #expect(Int(clamping: .infinity, to: 3...9) == 9)
        #expect(Int(clamping: -.infinity, to: 3...9) == 3)
        #expect(Int(clamping: 1e308) == Int.max)
        #expect(Int(clamping: -1e308) == Int.min)
        #expect(Int(clamping: 5.7, rounding: .up, to: 3...9) == 6)
        #expect(Double(1e300).compactDescription == "1e+300")
        #expect(Double(35).compactDescription == "35")
        #expect(Double(0.5).compactDescription == "0.5")
        #expect(Double.nan.compactDescription == "nan")
    }

    @Test("hexadecimal: two lowercase digits per byte, high nibble first")
    func hexadecimal() {
        #expect([UInt8]().hexadecimal == "")
        #expect([0x00, 0x09, 0x0A, 0x0F, 0x10, 0x9F, 0xA0, 0xFF].hexadecimal == "00090a0f109fa0ff")
        #expect(Array(0...255).map(UInt8.init).hexadecimal == (0...255).map { String(format: "%02x", $0) }.joined())
    }
}
