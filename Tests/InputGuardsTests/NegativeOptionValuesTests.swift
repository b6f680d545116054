import Testing
@testable import InputGuards

/// A negative number given as a long option's separate value is joined to it before the parse
/// (NegativeOptionValues.swift); nothing else changes.
struct NegativeOptionValuesTests {
    @Test("a long option followed by -3, -0.5, -.5, -1/2, -inf, -Infinity or -NaN is joined as --name=value; option names, a short option, --, an option already with =, and values like -x or - stay as they are")
    func joining() {
        for value in ["-3", "-0.5", "-.5", "-1/2", "-1e308", "-inf", "-Infinity", "-NaN", "-0"] {
            #expect(NegativeOptionValues.joined(["score", "spl", "f.wav", "--threshold-decibels", value, "--json"])
                == ["score", "spl", "f.wav", "--threshold-decibels=" + value, "--json"], "\(value)")
        }
        for value in ["-x", "-", "--json", "-.", "-e5", "-infinite", "3"] {
            #expect(NegativeOptionValues.joined(["--shard", value]) == ["--shard", value], "\(value)")
        }
        #expect(NegativeOptionValues.joined(["-c", "-3"]) == ["-c", "-3"])
        #expect(NegativeOptionValues.joined(["--shard=0/2", "-1"]) == ["--shard=0/2", "-1"])
        #expect(NegativeOptionValues.joined(["--", "--shard", "-1/2"]) == ["--", "--shard", "-1/2"])
        #expect(NegativeOptionValues.joined(["--shard"]) == ["--shard"])
        #expect(NegativeOptionValues.joined(["--", "-3"]) == ["--", "-3"])
    }
}
