/// Items of one source on their way through the transforms, records apart from the rest. A log
/// gives records by the million and a stage changes a field or two of each: kept in an array of
/// their own, they are changed in place, without copying every other field out of an `Item`
/// and back once per stage.
public struct ItemBatch: Sendable {
    public var records: [RecordDraft]
    /// Photos and custom items; records are in `records`.
    public var items: [Item]

    public init(records: [RecordDraft] = [], items: [Item] = []) {
        self.records = records
        self.items = []
        append(contentsOf: items)
    }

    public mutating func append(contentsOf items: [Item]) {
        for item in items {
            if case .record(let draft) = item {
                records.append(draft)
            } else {
                self.items.append(item)
            }
        }
    }

    /// Everything in the batch, as items: the records after the rest.
    public var allItems: [Item] { items + records.map(Item.record) }
}
