import Testing
@testable import Batch
@testable import Scoring

@Suite struct SnifferTests {
    static let cases: [([UInt8], InputSniffer.Format)] = {
        var cases: [([UInt8], InputSniffer.Format)] = []
        cases.append((Array("  {\"items\":[]}".utf8), .json))
        cases.append(([0xEF, 0xBB, 0xBF] + Array("[1]".utf8), .json))
        cases.append((Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8), .audio("WAV")))
        cases.append(([0, 0, 0, 0x20] + Array("ftypM4A ".utf8), .audio("MPEG-4")))
        cases.append((Array("fLaC\u{0}\u{0}".utf8), .audio("FLAC")))
        cases.append((Array("OggS\u{0}\u{2}".utf8), .audio("Ogg")))
        cases.append((Array("caff\u{0}\u{1}".utf8), .audio("CAF")))
        cases.append((Array("1,2,3\n4,5,6\n".utf8), .csv))
        cases.append((Array("# Title\nSome words.\n".utf8), .text))
        cases.append(([0x00, 0x01, 0x02, 0x7F, 0x80], .binary))
        cases.append(([], .empty))
        return cases
    }()

    @Test("content decides, never the extension")
    func signatures() {
        for (bytes, format) in Self.cases {
            #expect(InputSniffer.sniff(prefix: bytes) == format, "\(bytes.prefix(8))")
        }
    }
}
