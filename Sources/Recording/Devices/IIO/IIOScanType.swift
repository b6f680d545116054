/// How one channel's value sits in a buffered IIO scan: the `scan_elements/*_type` string of
/// the Linux IIO ABI (`Documentation/ABI/testing/sysfs-bus-iio`, "in_accel_type"):
/// `[be|le]:[s|u]BITS/STORAGEBITS[XREPEAT]>>SHIFT`, e.g. `le:s16/16>>0` or `be:s12/16>>4`.
/// The value is the storage word (in the stated byte order) shifted right by SHIFT, its low BITS
/// bits, sign-extended when `s`.
public struct IIOScanType: Sendable, Hashable, CustomStringConvertible {
    public var bigEndian: Bool
    public var signed: Bool
    /// Significant bits, 1…STORAGEBITS − SHIFT.
    public var bits: Int
    /// Bits the value occupies in the scan: 8, 16, 32 or 64.
    public var storageBits: Int
    public var shift: Int

    /// Bytes of storage, which is also the channel's alignment in the scan.
    public var storageBytes: Int { storageBits / 8 }

    /// Parses a type string; nil when it is not one the ABI defines (repeated elements, `X2`,
    /// are refused: no accelerometer or gyroscope channel uses them).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func literal(_ string: String) -> Bool {
            let expected = Array(string.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else { return false }
            index += expected.count
            return true
        }
        /// A decimal number of at most three digits.
        func number() -> Int? {
            var value = 0, digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), digits < 3 {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        if literal("be:") { bigEndian = true } else if literal("le:") { bigEndian = false } else { return nil }
        if literal("s") { signed = true } else if literal("u") { signed = false } else { return nil }
        guard let bits = number(), literal("/"), let storage = number(), literal(">>"), let shift = number(), index == bytes.count,
              [8, 16, 32, 64].contains(storage), bits >= 1, shift + bits <= storage
        else { return nil }
        (self.bits, storageBits, self.shift) = (bits, storage, shift)
    }

    public var description: String {
        "\(bigEndian ? "be" : "le"):\(signed ? "s" : "u")\(bits)/\(storageBits)>>\(shift)"
    }

    /// The value at the start of `bytes` (which holds at least ``storageBytes``).
    public func value(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        var word: UInt64 = 0
        for k in 0..<storageBytes {
            let byte = UInt64(bytes[bigEndian ? k : storageBytes - 1 - k])
            word = word << 8 | byte
        }
        word >>= UInt64(shift)
        if bits < 64 { word &= (1 << UInt64(bits)) - 1 }
        guard signed, bits < 64, word & (1 << UInt64(bits - 1)) != 0 else { return Int64(bitPattern: word) }
        return Int64(bitPattern: word | ~((1 << UInt64(bits)) - 1))
    }
}
