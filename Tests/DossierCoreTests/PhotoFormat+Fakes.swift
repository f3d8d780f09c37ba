import DossierCore

/// Core knows no format by name (the photos plugin registers them): these stand in for the
/// plugin's, with the same extensions, for the tests of what Core does with a format.
extension PhotoFormat {
    static let jpeg = PhotoFormat(fileExtension: "jpg", displayName: "JPEG")
    static let png = PhotoFormat(fileExtension: "png", displayName: "PNG")
}
