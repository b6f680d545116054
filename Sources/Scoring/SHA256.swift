import CNettle

/// SHA-256 (FIPS 180-4) through Nettle's implementation (`nettle/sha2.h`, with the processor's
/// SHA extensions where it has them): the content keys of files, archive entries and calibration
/// files (docs/batch.md). Fed in any number of pieces, in order; the digest is `SHA256_DIGEST_SIZE` (32) bytes.
public struct SHA256: Sendable {
    private var context = sha256_ctx()

    public init() {
        nettle_sha256_init(&context)
    }

    /// Adds the next bytes of the message.
    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    }

    /// Adds the next bytes of the message.
    public mutating func update(data bytes: [UInt8]) {
        bytes.withUnsafeBytes { update(bufferPointer: $0) }
    }

    /// The digest of everything added.
    public consuming func finalize() -> [UInt8] {
        let size = Int(SHA256_DIGEST_SIZE)
        return [UInt8](unsafeUninitializedCapacity: size) { digest, count in
            nettle_sha256_digest(&context, size, digest.baseAddress!)
            count = size
        }
    }

    /// The digest of `bytes`.
    public static func hash(data bytes: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(data: bytes)
        return hash.finalize()
    }
}
