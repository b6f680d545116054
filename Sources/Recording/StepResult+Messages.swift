import AudioIO
import Foundation
import InputGuards

extension StepResult {
    /// One line per recorder: what it wrote (items, or frames for audio), refused and dropped.
    public var countLines: [String] {
        reports.map { report in
            "\(report.identifier): \(report.itemsWritten) \(report.identifier.lowercased().contains("audio") ? "frames" : "items")"
                + (report.itemsRejected > 0 ? ", \(report.itemsRejected) refused" : "") + (report.itemsDropped > 0 ? ", \(report.itemsDropped) dropped" : "")
        }
    }

    /// Each recorder's refused and dropped items, source warnings and source error, one line each.
    public var problemLines: [String] {
        reports.flatMap { report in
            var lines: [String] = []
            if report.itemsRejected > 0 {
                lines.append("\(report.identifier): \(report.itemsRejected) item(s) could not be written and were left out; first: \(report.firstRejection ?? "")")
            }
            if report.itemsDropped > 0 {
                lines.append("\(report.identifier): \(report.itemsDropped) item(s) dropped because the writer fell behind the source (buffer full)"
                    + (report.firstDroppedLines.map { "; first at lines \($0.lowerBound)–\($0.upperBound)" } ?? ""))
            }
            lines += report.warnings.map { "\(report.identifier): warning: \($0)" }
            if let error = report.sourceError { lines.append("\(error.description) (recording stopped; the items before it are kept)") }
            return lines
        }
    }

    /// True when a source failed (a bad line): the files hold every item before it.
    public var sourceFailed: Bool { reports.contains { $0.sourceError != nil } }

    /// How the step ended and after how long.
    public var endLine: String {
        "step \(identifier) ended by \(endReason) after \(String(format: "%.2f", endSeconds - startSeconds)) s"
    }
}

extension RecorderPlan {
    /// What a live or device source is reading from, for the user (nil for simulators and replays).
    public var sourceLine: String? {
        let identifier = configuration.identifier
        switch source {
        case .live(let live):
            return "\(identifier): " + (live.listener.map { "listening on " + ($0.port.map { "tcp port \($0)" } ?? live.address) }
                ?? "reading \(live.format.rawValue) lines from stdin")
        case .alsa(let capture):
            return "\(identifier): recording audio from \(capture.address) (\(capture.summary))"
        case .iio(let iio):
            let device = iio.device
            return "\(identifier): reading \(device.id) (\(device.name)) at "
                + (device.samplingFrequencyHz.map { "\($0.compactDescription) Hz" } ?? "its own rate")
                + ", scans of \(device.scanBytes) bytes: \(device.channels.map { "\($0.name) \($0.type)" }.joined(separator: ", "))"
        case .ble(let ble):
            return "\(identifier): heart-rate notifications of \(ble.deviceName) (\(ble.deviceAddress)) through BlueZ"
        case .simulate, .replay:
            return nil
        }
    }
}

/// The devices a recorder kind can record from (`record KIND --list-devices`).
public enum DeviceListing {
    /// Audio: the ALSA capture devices; heart rate: the Bluetooth devices BlueZ knows (those with a
    /// heart-rate characteristic marked); motion: the IIO devices under `iioRoot`. Each an
    /// identifier for `--source` and a description; names are bytes from the device or the bus.
    public static func devices(_ kind: RecorderSpec.Kind, iioRoot: String, openTimeoutSeconds: Double) throws(RecordingError) -> [(id: String, description: String)] {
        switch kind {
        case .audio:
            do throws(AudioError) {
                return try AlsaPCM.devices(.capture).map { ($0.0, $0.1) }
            } catch {
                throw RecordingError(file: error.file, reason: .sample(error.message))
            }
        case .heartRate:
            return try DeviceWait(seconds: openTimeoutSeconds).run("answer", source: "ble:") { () throws(RecordingError) in
                try BLEHeartRateSource.devices()
            }.map { ($0.address, $0.name + ($0.heartRate ? "\theart rate" : "")) }
        default:
            return try IIODevice.listDevices(root: iioRoot).map { ($0.id, $0.name) }
        }
    }

    /// ``devices(_:iioRoot:openTimeoutSeconds:)`` as lines: the identifier, a tab and the
    /// description; names are bytes from the device or the bus, shown as ``FileName`` shows them (`\xFF`).
    public static func lines(_ kind: RecorderSpec.Kind, iioRoot: String, openTimeoutSeconds: Double) throws(RecordingError) -> [String] {
        try devices(kind, iioRoot: iioRoot, openTimeoutSeconds: openTimeoutSeconds).map { device in
            device.description.isEmpty ? FileName.display(device.id) : "\(FileName.display(device.id))\t\(FileName.display(device.description))"
        }
    }

    /// What an empty list means for `kind`.
    public static func noneFound(_ kind: RecorderSpec.Kind, iioRoot: String) -> String {
        switch kind {
        case .audio: "no ALSA capture device was found"
        case .heartRate: "no Bluetooth device known to BlueZ was found"
        default: "no IIO device under \(FileName.display(iioRoot)) was found"
        }
    }
}
