import DossierCore

/// The sidecars phones and editors leave beside a photo: an iPhone's `.AAE` (a property list of
/// its edits, XML or binary) and XMP files (`IMG_1234.xmp`, `IMG_1234.JPG.xmp`). Recognised by
/// their content, before the property-list and text importers could read one as profiles, a
/// taxonomy or a log; filed byte for byte beside their photo, under its name (`...383bddf5.aae`),
/// wherever the photo is filed: taken by the same import, or filed from the same folder before
/// (`LivePhotoPairing`). One whose photo is in neither is skipped, with the reason, and left where
/// it is; the daemon keeps it in the inbox until its photo is filed
/// (`NotImportable.waitsForAnotherFile`). One whose name two photos share is left too, naming them.
public struct SidecarHandler: PhotoFormatHandler {
    public let name = "sidecar"
    public let summary = "iPhone edits (.AAE) and XMP sidecars (recognised by their content), filed beside their photo"
    public let formats: [PhotoFormat] = [.appleAdjustments, .xmpSidecar]
    /// Sidecars are a few kilobytes; a bigger file with a sidecar's start is not one to hold.
    static let maximumSize: Int64 = 16 << 20

    public init() {}

    public func canRead(head: [UInt8]) -> Bool {
        SidecarHandler.format(of: head) != nil || SidecarHandler.opensWithALongComment(head)
    }

    /// An XML declaration and then a comment that runs past the sniffed head: what follows it (an
    /// XMP packet, as editors that write a licence first leave them) only the whole file shows.
    static func opensWithALongComment(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head, as: UTF8.self).drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        guard text.hasPrefix("<?xml"), let declarationEnd = text.range(of: "?>") else { return false }
        let rest = text[declarationEnd.upperBound...].drop { $0.isWhitespace }
        return rest.hasPrefix("<!--") && !rest.contains("-->")
    }

    /// An AAE is a property list (XML or binary) whose keys are Apple's adjustment keys; an XMP
    /// sidecar is an XMP packet alone (`<?xpacket`, or `<x:xmpmeta` after an XML declaration).
    static func format(of head: [UInt8]) -> PhotoFormat? {
        let text = String(decoding: head, as: UTF8.self)
        // Every key iOS writes in one (sorted, as property lists are), XML or binary: whichever
        // the head holds names it.
        let adjustmentKeys = ["adjustmentBaseVersion", "adjustmentData", "adjustmentEditorBundleID",
                              "adjustmentFormatIdentifier", "adjustmentFormatVersion"]
        if head.starts(with: Array("bplist00".utf8)), adjustmentKeys.contains(where: { text.contains($0) }) {
            return .appleAdjustments
        }
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        guard start.hasPrefix("<") else { return nil }
        if text.contains("<plist"), adjustmentKeys.contains(where: { text.contains("<key>\($0)</key>") }) {
            return .appleAdjustments
        }
        if start.hasPrefix("<?xpacket") || start.hasPrefix("<x:xmpmeta")
            || (start.hasPrefix("<?xml") && text.contains("<x:xmpmeta")) {
            return .xmpSidecar
        }
        return nil
    }

    public func read(_ input: SourceInput, context: PipelineContext, into sink: any ItemSink) throws {
        guard input.source.size <= SidecarHandler.maximumSize else {
            let looks = SidecarHandler.format(of: input.head)?.displayName ?? "an XMP sidecar"
            throw NotImportable("it starts like \(looks) but is \(input.source.size) bytes, more than a sidecar holds")
        }
        // An XMP packet after a long comment shows only in the whole file, which is filed anyway.
        let whole = SidecarHandler.format(of: input.head) == nil ? try input.readAll() : nil
        guard let format = SidecarHandler.format(of: input.head) ?? whole.flatMap({ SidecarHandler.format(of: $0.bytes) })
        else {
            throw NotImportable("an XML file whose first bytes are a long comment, and no XMP sidecar after it: "
                + "it is left where it is")
        }
        guard let still = try LivePhotoPairing(context: context).still(forSidecar: input.source) else {
            throw NotImportable("\(format.displayName) of a photo that is neither beside it nor filed from its folder; "
                + "it is left where it is: import it with its photo", code: NotImportable.waitsForAnotherFile)
        }
        let data = try whole ?? input.readAll()
        var sidecar = Photo(source: input.source, format: format, content: .memory(data.bytes), sourceDigest: data.digest,
                            orientation: .up, width: 0, height: 0, captureDate: still.date, exif: nil, isVerified: true,
                            contentDigest: data.digest)
        sidecar.besideStill = still.path
        try sink.accept(.photo(sidecar))
    }

    /// Filed byte for byte.
    public func upright(_ photo: Photo) -> Photo {
        photo
    }
}
