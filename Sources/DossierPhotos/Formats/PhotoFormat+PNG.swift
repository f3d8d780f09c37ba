import DossierCore

extension PhotoFormat {
    public static let png = PhotoFormat(fileExtension: "png", displayName: "PNG")
}
