// Measured headphone calibrations (`hearing-test --calibration`): CSV (RFC 4180 with `# key:`
// lines) or JSON bytes → the tables → every level a test could ask for → an audiogram SVG titled
// with the headphone's name (the whole path to the result file a person opens). Either an error
// that names the file, or tables whose amplitudes are finite and within full scale, and an SVG
// without a character XML forbids.
import Analysis
import FuzzSupport
import SensorData

@main
enum FuzzCalibration {
    static func main() { FuzzDriver.run(fuzzCalibration) }
}

func fuzzCalibration(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, count)
    let measured: HeadphoneCalibration.Measured
    do throws(ReadError) {
        measured = try HeadphoneCalibration.Measured(bytes: bytes, file: "calibration.csv")
    } catch {
        if !error.description.hasPrefix("calibration.csv") { fatalError("error does not name the file: \(error)") }
        return 0
    }
    let tables = measured.tables
    var audiogram = Audiogram()
    for f in measured.points.keys.sorted() {
        for level in stride(from: -10.0, through: 120, by: 5) {
            guard let amplitude = HeadphoneCalibration.researchKitAmplitude(hearingLevel: level, frequencyHz: f, tables: tables)?.amplitude else { continue }
            if !(amplitude.isFinite && amplitude > 0 && amplitude <= 1) { fatalError("amplitude \(amplitude) at \(level) dB HL, \(f) Hz") }
        }
        audiogram.thresholds[.right]?[f] = HeadphoneCalibration.maximumHearingLevel(frequencyHz: f, tables: tables)
    }
    let svg = audiogram.svg(title: "Hearing test, \(measured.headphone)")
    if svg.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" }) { fatalError("the SVG holds a control character") }
    return 0
}
