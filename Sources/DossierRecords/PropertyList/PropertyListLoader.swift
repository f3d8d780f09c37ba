import DossierCore
import Foundation

/// Loads property lists (XML, binary `bplist00`, OpenStep text) as Foundation objects, with
/// Foundation's parser kept away from files that would make it hang, crash or allocate without
/// bound: each format is checked first by a small reader of our own.
///
/// Values come back as Swift values, the same whichever format the file was in:
/// `[String: Any]`, `[Any]`, `String`, `Int` (or `UInt64` above `Int.max`), `Double`, `Bool`,
/// `Date`, `Data`, and keyed-archiver UIDs as `["CF$UID": Int]` (how XML property lists write
/// them). Foundation on Linux hands out `NSNumber`s whose `Int` view of 2^64-1 is nil and whose
/// `int64Value` is -1, and an internal UID class with no public accessor; normalising here means
/// no caller meets either.
public enum PropertyListLoader {
    public static func load(_ bytes: [UInt8], path: String) throws(PropertyListError) -> Any {
        let format = try check(bytes, path: path)
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw .unparseable(path: path, format: format, reason: reason(of: error, format: format))
        }
        return try normalize(value, path: path)
    }

    /// Property lists are read whole; app data and pickers are kilobytes, so anything this large
    /// is refused before it is read.
    public static let maximumFileSize = 64 << 20

    /// Loads the file at `path`.
    public static func load(path: String) throws(PropertyListError) -> Any {
        let size = SourcePath.status(path).map { Int($0.st_size) } ?? 0
        guard size <= maximumFileSize else {
            throw .unsupported(path: path, reason: "\(size) bytes is more than the \(maximumFileSize) a property list may have")
        }
        let descriptor = SourcePath.openForReading(path)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        let data: Data
        do {
            data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd() ?? Data()
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        return try load([UInt8](data), path: path)
    }

    /// Refuses what Foundation must not see; returns the format's name for messages.
    private static func check(_ bytes: [UInt8], path: String) throws(PropertyListError) -> String {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { throw .empty(path: path) }
        if bytes.starts(with: Array("bplist".utf8)) {
            guard bytes.starts(with: BinaryPropertyListChecker.header) else {
                let version = String(decoding: bytes.prefix(8).map { (0x20..<0x7F).contains($0) ? $0 : 0x3F }, as: UTF8.self)
                throw .unsupported(path: path, reason: "binary format '\(version)'; only 'bplist00' is read")
            }
            do {
                try BinaryPropertyListChecker.check(bytes)
            } catch {
                throw .invalidBinary(path: path, reason: error.reason)
            }
            return "binary"
        }
        if XMLPropertyListChecker.looksLikeXML(bytes) {
            do {
                try XMLPropertyListChecker.check(bytes)
            } catch {
                let line = XMLPropertyListChecker.line(of: error.offset, in: bytes)
                if error.isEntityDeclaration { throw .entityDeclaration(path: path, line: line) }
                throw .invalidXML(path: path, line: line, reason: error.reason)
            }
            return "XML"
        }
        do {
            try OpenStepPropertyListChecker.check(bytes)
        } catch {
            throw .unsupported(path: path, reason: "line \(error.line): OpenStep text \(error.reason)")
        }
        return "OpenStep"
    }

    /// Foundation's own explanation. It tries every format in turn, so the message of the parser
    /// for this file's format is the one to keep.
    private static func reason(of error: Error, format: String) -> String {
        let error = error as NSError
        if format == "OpenStep", let openStep = error.userInfo["kCFPropertyListOldStyleParsingError"] as? NSError,
           let text = openStep.userInfo[NSDebugDescriptionErrorKey] as? String {
            return text
        }
        return error.userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
    }

    private static func normalize(_ value: Any, path: String) throws(PropertyListError) -> Any {
        switch value {
        case let string as String:
            return string
        case let number as NSNumber:
            return normalize(number)
        case let date as Date:
            return date
        case let data as Data:
            return data
        case let array as [Any]:
            var result: [Any] = []
            result.reserveCapacity(array.count)
            for element in array { result.append(try normalize(element, path: path)) }
            return result
        case let dictionary as [AnyHashable: Any]:
            var result: [String: Any] = [:]
            result.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                guard let key = key.base as? String else {
                    throw .unsupported(path: path, reason: "a dictionary key of type \(type(of: key.base)), not a string")
                }
                result[key] = try normalize(element, path: path)
            }
            return result
        default:
            if let uid = keyedArchiverUID(value) { return ["CF$UID": uid] }
            throw .unsupported(path: path, reason: "a value of type \(type(of: value))")
        }
    }

    private static func normalize(_ number: NSNumber) -> Any {
        // The type code tells what the file held; on Linux, booleans are the only "c".
        switch String(cString: number.objCType) {
        case "c", "B":
            return number.boolValue
        case "d", "f":
            return number.doubleValue
        case "Q", "L", "I", "S", "C":
            let value = number.uint64Value
            return value <= UInt64(Int.max) ? Int(value) : value
        default:
            return Int(number.int64Value)
        }
    }

    /// Foundation on Linux reads a UID as its internal `_NSKeyedArchiverUID`, whose value has no
    /// public accessor: it is read by reflection (on Darwin it is a CF type Mirror cannot see into).
    private static func keyedArchiverUID(_ value: Any) -> Int? {
        guard String(describing: type(of: value)).hasSuffix("KeyedArchiverUID") else { return nil }
        for child in Mirror(reflecting: value).children where child.label == "value" {
            if let uid = child.value as? UInt32 { return Int(uid) }
            if let uid = child.value as? Int { return uid }
            if let uid = child.value as? UInt64 { return Int(exactly: uid) }
        }
        return nil
    }
}
