/// Interleaved little-endian PCM bytes to and from Float, as devices and streams carry them.
public enum PCMSamples {
    /// A sample's encoding (ALSA's names).
    public enum Format: String, Sendable, CaseIterable {
        case s16 = "S16_LE", s32 = "S32_LE", float = "FLOAT_LE"

        public var bytes: Int { self == .s16 ? 2 : 4 }
    }

    /// The first `count` little-endian samples of `format` in `raw` as Float (integers scaled
    /// by 2⁻¹⁵ or 2⁻³¹).
    public static func samples(_ raw: UnsafeRawBufferPointer, count: Int, format: Format) -> [Float] {
        precondition(count * format.bytes <= raw.count, "samples: \(count) samples of \(format.bytes) bytes in \(raw.count)")
        return (0..<count).map { i -> Float in
            switch format {
            case .s16: Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))) / 32_768
            case .s32: Float(Double(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self))) / 2_147_483_648)
            case .float: Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
            }
        }
    }

    /// Samples as little-endian `format` bytes: clipped to [−1, 1] and rounded for the
    /// integers (NaN as 0).
    public static func bytes(_ samples: [Float], format: Format) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: samples.count * format.bytes)
        out.withUnsafeMutableBytes { raw in
            for (i, x) in samples.enumerated() {
                let clipped = x.isNaN ? 0 : Double(min(max(x, -1), 1))
                switch format {
                case .s16:
                    raw.storeBytes(of: Int16(clamping: Int((clipped * 32_768).rounded())).littleEndian, toByteOffset: 2 * i, as: Int16.self)
                case .s32:
                    raw.storeBytes(of: Int32(clamping: Int((clipped * 2_147_483_648).rounded())).littleEndian, toByteOffset: 4 * i, as: Int32.self)
                case .float:
                    raw.storeBytes(of: (x.isNaN ? 0 : x).bitPattern.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
                }
            }
        }
        return out
    }
}
