// The test product's entry point. Every test in this package is a Swift Testing test, so none
// needs the XCTest list that SwiftPM otherwise discovers on Linux from the debug build's index
// store: with this file in place SwiftPM builds no discovery module, and scripts/test.sh builds
// without index-while-building (`--disable-index-store`, a sixth of the build's CPU time:
// Benchmarks/README.md "CI's wall time") and runs Swift Testing alone (`--disable-xctest
// --enable-swift-testing`: SwiftPM runs Swift Testing beside an entry point of one's own only
// when asked to).

import Testing

@main
struct TestMain {
    static func main() async {
        await Testing.__swiftPMEntryPoint() as Never
    }
}
