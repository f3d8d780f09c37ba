/// Receives what happens during an import: progress bars, JSON lines, logs. Events arrive one at
/// a time, in order, from the task driving the import.
public protocol OutcomeListener: Sendable {
    func receive(_ event: ImportEvent)
}
