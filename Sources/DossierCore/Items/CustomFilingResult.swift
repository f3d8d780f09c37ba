/// What filing a custom item did.
public struct CustomFilingResult: Sendable, Equatable {
    /// Where it went, relative to the library root.
    public var path: String
    /// Whether the file was written (or, in a dry run, would be); false: already there as it is.
    public var wroteFile: Bool
    /// For a profile: the fields it changed, and the fields typed by hand it left as they were.
    public var profileChange: ProfileChange?

    public init(path: String, wroteFile: Bool, profileChange: ProfileChange? = nil) {
        self.path = path
        self.wroteFile = wroteFile
        self.profileChange = profileChange
    }

    /// Written (or, in a dry run, would be) at this path relative to the library root.
    public static func filed(path: String, profileChange: ProfileChange? = nil) -> CustomFilingResult {
        CustomFilingResult(path: path, wroteFile: true, profileChange: profileChange)
    }

    /// Already there as it is.
    public static func unchanged(path: String, profileChange: ProfileChange? = nil) -> CustomFilingResult {
        CustomFilingResult(path: path, wroteFile: false, profileChange: profileChange)
    }
}
