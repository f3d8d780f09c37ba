/// The EXIF Orientation tag: how the stored pixels must be turned to show the picture upright.
public enum Orientation: Int, CaseIterable, Sendable, Codable {
    case up = 1
    case mirrored = 2
    case down = 3
    case mirroredDown = 4
    /// Mirrored left-right, then turned 270 degrees clockwise (a transpose).
    case mirroredLeft = 5
    /// Turn 90 degrees clockwise to show upright.
    case left = 6
    /// Mirrored left-right, then turned 90 degrees clockwise (a transverse).
    case mirroredRight = 7
    /// Turn 270 degrees clockwise to show upright.
    case right = 8

    /// Reads a tag value the way viewers do: 0 and values out of range count as upright.
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .up
    }

    /// Whether turning upright swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}
