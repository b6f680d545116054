import Glibc
import GRDB
import Testing
@testable import Batch

/// SQLite says only "unable to open database file"; its log says which file and which errno
/// (SQLiteOpenErrors). A store error quotes it, and a batch stops on the machine's limit.
@Suite struct SQLiteOpenErrorsTests {
    @Test("a logged open failure of a store's -shm with errno 24 makes its CANTOPEN error name the file and EMFILE's text, and the batch failure the machine's limit; the entry is used once")
    func limitNamed() {
        let store = "folder/limit-\(getpid()).sqlite"
        SQLiteOpenErrors.record("os_unix.c:4668: (24) open(/work/folder/limit-\(getpid()).sqlite-shm) - ")
        let error = StoreError(path: store, DatabaseError(resultCode: .SQLITE_CANTOPEN))
        let text = String(cString: strerror(EMFILE))
        #expect(error.message == "cannot open the result store: /work/folder/limit-\(getpid()).sqlite-shm: \(text)")
        guard case .environment(_, let resource) = BatchFailure(error) else {
            Issue.record("\(BatchFailure(error)) is not the machine's limit")
            return
        }
        #expect(resource == text)
        // Taken: the same error again says what SQLite says.
        let again = StoreError(path: store, DatabaseError(resultCode: .SQLITE_CANTOPEN))
        #expect(again.message.hasPrefix("cannot open the result store for writing (SQLite: "))
        guard case .store = BatchFailure(again) else {
            Issue.record("\(BatchFailure(again)) is not a store error")
            return
        }
    }

    @Test("lines that are not a system error of an open, and failures of other files, are not quoted")
    func otherLines() {
        let store = "other-\(getpid()).sqlite"
        SQLiteOpenErrors.record("cannot open file at line 4668 of [df5c253c0b]")
        SQLiteOpenErrors.record("statement aborts at 1: [BEGIN IMMEDIATE TRANSACTION] unable to open database file")
        SQLiteOpenErrors.record("os_unix.c:4668: (13) open(/elsewhere/unrelated-\(getpid()).sqlite) - ")
        SQLiteOpenErrors.record("os_unix.c:4668: (x) open(/work/other-\(getpid()).sqlite) - ")
        #expect(SQLiteOpenErrors.take(store: store) == nil)
    }
}
