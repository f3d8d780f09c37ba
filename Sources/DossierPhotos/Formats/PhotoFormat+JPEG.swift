import DossierCore

extension PhotoFormat {
    public static let jpeg = PhotoFormat(fileExtension: "jpg", displayName: "JPEG")
}
