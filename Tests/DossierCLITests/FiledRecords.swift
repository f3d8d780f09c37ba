import Foundation
import DossierTestSupport
import Testing

/// A subject's records as one line each, for tests to compare whole: `date kind name=value unit …
/// field:value …`, measurements in the order filed and text fields by name, in date order.
enum FiledRecords {
    static func lines(of subject: String, in folder: TemporaryFolder, library: String = "Library") throws -> [String] {
        let result = try DossierBinary.run(["records", subject, "--library", library, "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        return result.jsonLines.map { record in
            let measured = (record["measurements"] as? [[String: Any]] ?? []).map {
                "\($0["name"]!)=\(($0["value"] as? Double).map { $0 == $0.rounded() ? String(Int($0)) : String($0) }!) \($0["unit"]!)"
            }
            let fields = (record["fields"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
            return ([record["date"] as? String ?? "?", record["kind"] as? String ?? "-"] + measured + fields).joined(separator: " ")
        }
    }
}
