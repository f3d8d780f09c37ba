import Foundation

/// The time zone a library reads civil dates in: a birth date, a file's modification day, a
/// PNG's UTC time, "today". A property list `<date>` is an instant; read on a machine in Seoul and
/// on one in Los Angeles it falls on different days (a Dragon or a Rabbit, a different 100th
/// day). The library records its zone when it is first written, in `config/library.json`
/// (`{"timeZone": "Asia/Seoul"}`, the machine's zone by default), so one library gives one
/// answer on every machine. Edit the file to change it.
public enum LibraryTimeZone {
    public static let configurationPath = "config/library.json"

    private struct Configuration: Codable {
        var timeZone: String
    }

    /// The library's zone; the machine's while the library has none recorded (a dry run into a
    /// library not yet made).
    public static func of(_ layout: LibraryLayout) throws(LibraryError) -> TimeZone {
        let path = layout.root.appendingPathComponent(configurationPath).path
        guard layout.files.fileSize(path) != nil else { return .current }
        let bytes = try layout.files.readFile(path)
        guard let configuration = try? JSONDecoder().decode(Configuration.self, from: Data(bytes)) else {
            throw .badConfiguration(path: path, reason: "it is not {\"timeZone\": \"Area/City\"}")
        }
        guard let zone = TimeZone(identifier: configuration.timeZone) else {
            throw .badConfiguration(path: path, reason: "'\(configuration.timeZone)' is no time zone (write one like Asia/Seoul)")
        }
        return zone
    }

    /// Writes the machine's zone into a library that has none recorded yet; returns the library's zone.
    @discardableResult
    public static func record(in layout: LibraryLayout) throws(LibraryError) -> TimeZone {
        let path = layout.root.appendingPathComponent(configurationPath).path
        if layout.files.fileSize(path) != nil { return try of(layout) }
        try write(.current, in: layout)
        return .current
    }

    /// Sets the library's zone (`dossier init --time-zone`, for a library just made); its other
    /// settings stay as they are.
    public static func write(_ zone: TimeZone, in layout: LibraryLayout) throws(LibraryError) {
        let path = layout.root.appendingPathComponent(configurationPath).path
        var settings: [String: Any] = [:]
        if layout.files.fileSize(path) != nil,
           let object = try? JSONSerialization.jsonObject(with: Data(try layout.files.readFile(path))) as? [String: Any] {
            settings = object
        }
        settings["timeZone"] = zone.identifier
        let json = (try? JSONSerialization.data(withJSONObject: settings,
                                                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        try layout.files.createFolders((path as NSString).deletingLastPathComponent)
        try layout.files.replaceFile(at: path, with: Array(json) + [0x0A], stagingFolder: layout.stagingFolder.path)
    }
}
