import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import InputGuards
import Testing

/// Text from data inside XML (docs/reliability.md § Text in pages and charts): one escaper for
/// every page and chart.
@Suite struct XMLTextTests {
    @Test("markup characters become references; characters XML forbids are shown as \\x escapes")
    func escaped() {
        #expect(XMLText.escaped("a\u{01}<b>\"'&\u{FFFE}\té") == "a\\x01&lt;b&gt;&quot;&#39;&amp;\\u{FFFE}\té")
        #expect(XMLText.escaped("plain") == "plain")
    }

    @Test("a document with every escaped scalar below U+0100 in an element and an attribute is well-formed XML")
    func wellFormed() {
        let hostile = String(String.UnicodeScalarView((0..<0x100).compactMap(Unicode.Scalar.init))) + "\u{FFFE}\u{FFFF}"
        let document = "<svg a=\"\(XMLText.escaped(hostile))\"><text>\(XMLText.escaped(hostile))</text></svg>"
        let parser = XMLParser(data: Data(document.utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
    }
}
