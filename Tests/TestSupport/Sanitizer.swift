import Glibc

/// The sanitizer this test process was built with (`swift test --sanitize=address|thread`
/// instruments the tests and the `activetask` they run alike), found by its runtime's entry point.
public enum Sanitizer: String, Sendable {
    case address, thread

    public static let active: Sanitizer? = {
        if dlsym(nil, "__asan_init") != nil { return .address }
        if dlsym(nil, "__tsan_init") != nil { return .thread }
        return nil
    }()
}
