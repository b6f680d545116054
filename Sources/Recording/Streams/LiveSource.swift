import Foundation
import Glibc
import InputGuards
import SensorData
import SignalProcessing
import Synchronization

/// What a live source does when its recorder falls behind by more than the queue holds.
public enum OverflowPolicy: String, Sendable, Hashable, CaseIterable {
    /// The reader waits for room, so the sender is slowed by pipe or TCP flow control: nothing
    /// is lost here (the default; right for files, pipes and senders that buffer).
    case block
    /// The reader never waits (a sensor that must not be slowed, whose own buffer would lose
    /// samples uncounted): the arriving chunk is dropped whole, and its items and lines are
    /// counted and reported.
    case drop
}

/// The bounded hand-off between a live source's reader thread and its recorder: at most
/// `capacityItems` queued (an empty queue takes any chunk, so the bound is `capacityItems` plus
/// one read of 64 KiB), and ``OverflowPolicy`` when full.
final class SampleQueue: Sendable {
    struct Drops: Sendable, Equatable {
        var items = 0
        var chunks = 0
        /// The lines of the first dropped chunk.
        var firstLines: ClosedRange<Int>?
    }

    private struct State {
        var chunks: [LineDecoder.Decoded] = []
        var queuedItems = 0
        var drops = Drops()
        var finished = false
        var closed = false
    }

    let capacityItems: Int
    private let state = Locked(State())

    init(capacityItems: Int) { self.capacityItems = capacityItems }

    /// Queues `chunk` (lines `lines`); when that would exceed the capacity, waits for room
    /// (`block`, polling every millisecond on the reader's own thread) or drops and counts it
    /// (`drop`). A chunk carrying an error is always queued, so the error is reported. False
    /// when the chunk was dropped or the consumer has closed the queue.
    @discardableResult
    func push(_ chunk: LineDecoder.Decoded, lines: ClosedRange<Int>, policy: OverflowPolicy) -> Bool {
        let size = chunk.items.count + chunk.rrIntervals.count
        while true {
            let queued: Bool? = state.withLock { state in
                if state.closed { return false }
                if state.queuedItems > 0, state.queuedItems + size > capacityItems, chunk.error == nil {
                    guard policy == .drop else { return nil }
                    state.drops.items += chunk.items.count
                    state.drops.chunks += 1
                    if state.drops.firstLines == nil { state.drops.firstLines = lines }
                    return false
                }
                state.chunks.append(chunk)
                state.queuedItems += size
                return true
            }
            if let queued { return queued }
            usleep(1_000)
        }
    }

    /// The consumer takes no more: a waiting or later `push` returns false.
    func close() { state.withLock { $0.closed = true } }
    var isClosed: Bool { state.withLock { $0.closed } }

    /// No more chunks will come.
    func finish() { state.withLock { $0.finished = true } }

    /// Everything queued, and whether the source has finished (then nothing more will come).
    func take() -> (chunks: [LineDecoder.Decoded], finished: Bool) {
        state.withLock { state in
            defer {
                state.chunks = []
                state.queuedItems = 0
            }
            return (state.chunks, state.finished)
        }
    }

    var drops: Drops { state.withLock { $0.drops } }
}

/// Checks a live source's sampling rate against the recorder's configured frequency, over
/// windows of at least `windowSeconds` of item time: ResearchKit files state the configured
/// frequency, so a sender at another rate would otherwise go unnoticed.
struct RateMonitor {
    let expectedHz: Double
    /// Relative deviation that is reported (0.1 = 10 %).
    let tolerance: Double
    let windowSeconds: Double
    private var windowStart: (time: Double, line: Int)?
    private var itemsInWindow = 0
    private(set) var warnings: [String] = []
    static let maximumWarnings = 3

    init(expectedHz: Double, tolerance: Double = 0.1, windowSeconds: Double = 2) {
        self.expectedHz = expectedHz
        self.tolerance = tolerance
        self.windowSeconds = windowSeconds
    }

    /// Feeds the item times of lines `lines` (one decoded chunk).
    mutating func observe(_ times: [Double], lines: ClosedRange<Int>) {
        guard let last = times.last, warnings.count < Self.maximumWarnings else { return }
        if windowStart == nil {
            windowStart = (times[0], lines.lowerBound)
            itemsInWindow = times.count - 1
        } else {
            itemsInWindow += times.count
        }
        guard let start = windowStart else { return }
        let span = last - start.time
        guard span >= windowSeconds else { return }
        let rate = Double(itemsInWindow) / span
        if abs(rate / expectedHz - 1) > tolerance {
            warnings.append("lines \(start.line)–\(lines.upperBound): items arrive at \(String(format: "%.1f", rate)) Hz, "
                + "the recorder is configured for \(String(format: "%g", expectedHz)) Hz"
                + (warnings.count == Self.maximumWarnings - 1 ? " (further rate warnings left out)" : ""))
        }
        windowStart = (last, lines.upperBound)
        itemsInWindow = 0
    }
}

/// A source read on its own thread into a ``SampleQueue`` (a line source, an IIO device), which
/// the step's recorder drains.
protocol QueuedSource: Sendable {
    var queue: SampleQueue { get }
    /// Starts the reader thread (once).
    func start()
    /// Ends the reading; the queue takes no more.
    func close()
    /// Rate and source warnings so far.
    var warnings: [String] { get }
    /// The error that ended the reading, if one did.
    var readError: RecordingError? { get }
    /// What the source adds to its file results' userInfo (link gaps, …).
    var userInfo: [String: Double] { get }
}

extension QueuedSource {
    var userInfo: [String: Double] { [:] }
}

/// The thread that reads a device source (IIO, BlueZ) into its queue: started once, `read` until
/// the queue closes or the device ends, then `release` (the device's buffer off, notifications
/// stopped) and the queue finished; the error that ended it is kept.
final class ReaderThread: Sendable {
    private let started = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    private let failure = Locked<RecordingError?>(nil)

    func start(name: String, queue: SampleQueue, read: @escaping @Sendable () throws(RecordingError) -> Void,
               release: @escaping @Sendable () -> Void) {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            defer {
                release()
                queue.finish()
                running.store(false, ordering: .releasing)
            }
            do throws(RecordingError) { try read() } catch { failure.withLock { $0 = error } }
        }
        thread.name = name
        thread.start()
    }

    /// Closes the queue (the reader stops within its 100-ms wait) and waits up to a second for
    /// the thread to release the device.
    func stop(_ queue: SampleQueue) {
        queue.close()
        for _ in 0..<1_000 where running.load(ordering: .acquiring) { usleep(1_000) }
    }

    var error: RecordingError? { failure.withLock { $0 } }
}

extension IIOSource: QueuedSource {}
extension BLEHeartRateSource: QueuedSource {}

/// A live line source — stdin, or the first sender on `tcp:PORT` / `unix:PATH` — read on its own
/// thread, decoded, and handed to the recorder through a ``SampleQueue``.
public final class LiveLineSource: QueuedSource {
    /// `stdin`, `tcp:PORT` or `unix:PATH`.
    public let address: String
    public let format: LineFormat
    public let kind: RecorderKind
    public let overflow: OverflowPolicy
    /// The listening socket (nil for stdin); bound when the source is created.
    public let listener: SocketListener?
    let queue: SampleQueue
    private let expectedHz: Double?
    private let outcome = Locked<(warnings: [String], error: RecordingError?)>(([], nil))
    /// The accepted sender's descriptor (−1 before), so `close()` can wake a blocked read.
    private let connection = Atomic<Int32>(-1)
    private let started = Atomic<Bool>(false)

    /// Checks the format and binds a socket address; reading starts with `start()`.
    public init(address: String, format: LineFormat, kind: RecorderKind, expectedFrequencyHz: Double?, capacityItems: Int,
                overflow: OverflowPolicy = .block) throws(RecordingError) {
        _ = try LineDecoder(format: format, kind: kind, name: address)
        guard SourceAddress(address)?.isLive == true else {
            throw RecordingError(file: address, reason: .sample("a live source is stdin, tcp:PORT or unix:PATH"))
        }
        self.address = address
        self.format = format
        self.kind = kind
        self.overflow = overflow
        expectedHz = expectedFrequencyHz
        listener = address == "stdin" ? nil : try SocketListener(address)
        queue = SampleQueue(capacityItems: capacityItems)
    }

    /// Starts the reader thread (once; later calls do nothing): accept a sender (sockets), read
    /// and decode lines, queue them, until end of input or a bad line.
    public func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            var descriptor: Int32 = 0
            defer {
                if listener != nil, descriptor > 0 {
                    connection.store(-1, ordering: .releasing)
                    FileSystem.close(descriptor)
                }
                queue.finish()
            }
            do throws(RecordingError) {
                if let listener {
                    descriptor = try listener.accept()
                    connection.store(descriptor, ordering: .releasing)
                }
                let reader = LineReader(descriptor: descriptor, name: address)
                var decoder = try LineDecoder(format: format, kind: kind, name: address)
                var rate = expectedHz.map { RateMonitor(expectedHz: $0) }
                while let lines = try reader.nextLines() {
                    let first = decoder.lineNumber + 1
                    let chunk = decoder.decode(lines)
                    let range = first...max(first, decoder.lineNumber)
                    if var monitor = rate {
                        monitor.observe(chunk.items.time, lines: range)
                        if monitor.warnings.count != rate?.warnings.count { outcome.withLock { $0.warnings = monitor.warnings } }
                        rate = monitor
                    }
                    queue.push(chunk, lines: range, policy: overflow)
                    if chunk.error != nil || queue.isClosed { break }
                }
            } catch {
                outcome.withLock { $0.error = error }
            }
        }
        thread.name = "activetask.\(address)"
        thread.start()
    }

    /// Ends the wait for a sender or the read of a connected one (sockets); a thread blocked
    /// reading stdin ends with the process.
    public func close() {
        queue.close()
        listener?.shutdown()
        let descriptor = connection.load(ordering: .acquiring)
        if descriptor > 0 { SocketListener.shutdown(connection: descriptor) }
    }

    /// Rate warnings of the whole source (after it finished), and a read or accept error.
    var warnings: [String] { outcome.withLock { $0.warnings } }
    var readError: RecordingError? { outcome.withLock { $0.error } }
}
