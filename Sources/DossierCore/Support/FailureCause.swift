import Foundation
import GRDB

/// Why an operation on the library failed, as the layer that failed said it: the C library's
/// errno, SQLite's extended result code, or (for causes that are Dossier's own) only words. The
/// code is what decisions look at (`LibraryError.isAboutTheLibrary`); the words are made for
/// whoever reads the error, and only shown.
public struct FailureCause: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    public enum Code: Sendable, Equatable {
        /// A system call's `errno` (`ENOSPC`).
        case errno(Int32)
        /// SQLite's extended result code (`SQLITE_IOERR_FSYNC`), from GRDB's `DatabaseError`.
        case sqlite(Int32)

        /// The code as programs read it (`--json`, the daemon's log): `ENOSPC`, `errno 140` for
        /// one without a name here, `SQLITE 778` for SQLite's extended codes.
        public var name: String {
            switch self {
            case .errno(let code): FailureCause.errnoNames[code] ?? "errno \(code)"
            case .sqlite(let code): "SQLITE \(code)"
            }
        }
    }

    public let code: Code?
    public let message: String

    public init(_ message: String, code: Code? = nil) {
        self.message = message
        self.code = code
    }

    public init(stringLiteral message: String) {
        self.init(message)
    }

    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }

    /// The failed system call's `errno` (the current one unless given), in the C library's words.
    public static func errno(_ code: Int32 = Foundation.errno) -> FailureCause {
        FailureCause(errnoMessage(code), code: .errno(code))
    }

    /// SQLite's failure, in its own words, with its extended code.
    public static func sqlite(_ error: DatabaseError, message: String) -> FailureCause {
        FailureCause(message, code: .sqlite(error.extendedResultCode.rawValue))
    }

    /// An error from a layer below, keeping its errno when it carries one.
    public static func of(_ error: any Error) -> FailureCause {
        if let library = error as? LibraryError, let cause = library.cause { return cause }
        if let posix = error as? POSIXError { return FailureCause("\(error)", code: .errno(posix.code.rawValue)) }
        // Foundation's file errors carry the system call's errno beneath them.
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain {
            return FailureCause((error as NSError).localizedDescription, code: .errno(Int32(underlying.code)))
        }
        if error is CocoaError { return FailureCause((error as NSError).localizedDescription) }
        return FailureCause("\(error)")
    }

    /// The errno, when the cause is a system call's.
    public var errno: Int32? {
        if case .errno(let code)? = code { return code }
        return nil
    }

    public var description: String { message }

    /// The names of the errno values a file system or the index can give an import: Glibc
    /// exports the numbers, not their names.
    static let errnoNames: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF",
        EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY",
        EEXIST: "EEXIST", EXDEV: "EXDEV", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR",
        EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE", ETXTBSY: "ETXTBSY", EFBIG: "EFBIG",
        ENOSPC: "ENOSPC", ESPIPE: "ESPIPE", EROFS: "EROFS", EMLINK: "EMLINK", ENAMETOOLONG: "ENAMETOOLONG",
        ENOTEMPTY: "ENOTEMPTY", ELOOP: "ELOOP", EOVERFLOW: "EOVERFLOW", EOPNOTSUPP: "EOPNOTSUPP",
        ETIMEDOUT: "ETIMEDOUT", ESTALE: "ESTALE", EDQUOT: "EDQUOT", ENOTCONN: "ENOTCONN", ENOLCK: "ENOLCK",
    ]
}
