import Foundation

/// The seed of a test's random choices (when to kill a process, random bytes): `DOSSIER_TEST_SEED`
/// when it is set, so a failing run can be replayed, else a new one each run. Printed when made,
/// so the test's log says how to replay it; put it in failure messages too (`"\(seed)"`).
public struct TestSeed: CustomStringConvertible, Sendable {
    public static let variable = "DOSSIER_TEST_SEED"
    public let value: UInt64

    /// - Parameter test: named in the printed line, to tell the seeds of tests run together apart.
    public init(_ test: String = #function, file: String = #fileID) {
        let given = ProcessInfo.processInfo.environment[TestSeed.variable]
        if let given, let number = UInt64(given) {
            value = number
        } else {
            if let given { print("\(TestSeed.variable)=\(given) is not a whole number from 0 to 2^64-1; taking a new seed") }
            var system = SystemRandomNumberGenerator()
            value = system.next()
        }
        print("\(file) \(test): \(self)")
    }

    /// A generator that gives the same numbers for the same seed.
    public var generator: SeededGenerator { SeededGenerator(seed: value) }

    public var description: String { "seed \(value) (replay with \(TestSeed.variable)=\(value))" }
}
