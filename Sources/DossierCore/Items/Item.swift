/// What an importer turns a source into, and what transforms and the filer work on.
public enum Item: Sendable {
    case photo(Photo)
    case record(RecordDraft)
    case custom(any CustomItem)

    public var subject: Subject? {
        get {
            switch self {
            case .photo(let photo): return photo.subject
            case .record(let draft): return draft.subject
            case .custom(let item): return item.subject
            }
        }
        set {
            switch self {
            case .photo(var photo):
                photo.subject = newValue
                self = .photo(photo)
            case .record(var draft):
                draft.subject = newValue
                self = .record(draft)
            case .custom(var item):
                item.subject = newValue
                self = .custom(item)
            }
        }
    }

    /// Whether routing must find a subject for it.
    public var needsSubject: Bool {
        switch self {
        case .photo, .record: return true
        case .custom(let item): return item.needsSubject
        }
    }
}

// MARK: - ItemBatch

/// Items of one source on their way through the transforms, records apart from the rest. A log
/// gives records by the million and a stage changes a field or two of each: kept in an array of
/// their own, they are changed in place, without copying every other field out of an `Item`
/// and back once per stage.
public struct ItemBatch: Sendable {
    public var records: [RecordDraft]
    /// Photos and custom items; records are in `records`.
    public var items: [Item]
    /// What the transforms could not settle (a number with no unit, no plausible reading), for
    /// the problems ledger: a transform reports, it never guesses in silence. Problems alike in
    /// all but their line (one for each of a log's weights with no unit) are counted as one.
    public var problems: [SourceProblem] = []

    /// Records given in `items` join `records`.
    public init(records: [RecordDraft] = [], items: [Item] = []) {
        self.records = records
        self.items = []
        for item in items {
            if case .record(let draft) = item {
                self.records.append(draft)
            } else {
                self.items.append(item)
            }
        }
    }

    /// Changes every custom item of one type in place (the profiles, for the stages that
    /// normalise them); the other items are left alone.
    public mutating func updateCustomItems<Custom: CustomItem>(_ type: Custom.Type,
                                                              _ body: (inout Custom) throws -> Void) rethrows {
        for index in items.indices {
            guard case .custom(let item) = items[index], var custom = item as? Custom else { continue }
            try body(&custom)
            items[index] = .custom(custom)
        }
    }
}
