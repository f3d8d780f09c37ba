import DossierCore

extension PhotoFormat {
    /// A format no camera makes, for showing what adding one takes.
    static let toy = PhotoFormat(fileExtension: "toy", displayName: "Toy")
}
