import DossierCore

/// Turns a quantity as written into a measurement in the units records keep: g, cm, ml, min,
/// count. The entry's kind settles what an ambiguous unit means: ounces of milk are fluid
/// ounces (ml), ounces on a scale are grams; a bare number after "체중" is grams, after "키"
/// centimetres.
public enum UnitConverter {
    enum Dimension {
        case mass, length, volume, time, count
    }

    private static let units: [String: (Dimension, Double)] = [
        "g": (.mass, 1), "gr": (.mass, 1), "gram": (.mass, 1), "grams": (.mass, 1), "그램": (.mass, 1), "그람": (.mass, 1),
        "kg": (.mass, 1000), "kilo": (.mass, 1000), "kilos": (.mass, 1000), "킬로": (.mass, 1000), "킬로그램": (.mass, 1000),
        "mg": (.mass, 0.001), "lb": (.mass, 453.59237), "lbs": (.mass, 453.59237), "파운드": (.mass, 453.59237),
        "cm": (.length, 1), "센치": (.length, 1), "센티": (.length, 1), "센티미터": (.length, 1), "mm": (.length, 0.1),
        "밀리미터": (.length, 0.1), "m": (.length, 100), "in": (.length, 2.54), "inch": (.length, 2.54),
        "inches": (.length, 2.54), "인치": (.length, 2.54),
        "ml": (.volume, 1), "미리": (.volume, 1), "밀리": (.volume, 1), "밀리리터": (.volume, 1), "cc": (.volume, 1),
        "l": (.volume, 1000), "리터": (.volume, 1000), "floz": (.volume, 29.5735),
        "min": (.time, 1), "mins": (.time, 1), "minute": (.time, 1), "minutes": (.time, 1), "분": (.time, 1),
        "h": (.time, 60), "hr": (.time, 60), "hrs": (.time, 60), "hour": (.time, 60), "hours": (.time, 60), "시간": (.time, 60),
        "分": (.time, 1), "時間": (.time, 60), "秒": (.time, 1.0 / 60),
        "마리": (.count, 1), "개": (.count, 1), "개체": (.count, 1), "회": (.count, 1), "번": (.count, 1), "回": (.count, 1),
        "x": (.count, 1), "pcs": (.count, 1), "ea": (.count, 1),
    ]

    static func isUnit(_ word: String) -> Bool { units[word] != nil || word == "oz" }

    /// Minutes in one of `unit`, when it is a unit of time.
    static func minutes(in unit: String) -> Double? {
        guard let (dimension, factor) = units[unit], dimension == .time else { return nil }
        return factor
    }

    /// The measurement for a quantity in an entry of `kind`; nil for a bare number that says
    /// nothing measurable.
    public static func measurement(_ quantity: Quantity, kind: String?) -> RecordMeasurement? {
        let unit = quantity.unit
        let isFood = quantity.label != nil && units[unit] == nil && unit != "oz" && !unit.isEmpty
        if isFood { return RecordMeasurement(name: quantity.label!, value: quantity.value, unit: .count) }
        if unit == "oz" {
            let liquid = kind == "feeding" || ["milk", "formula", "breast milk"].contains(quantity.label ?? "")
            return liquid
                ? RecordMeasurement(name: quantity.label ?? "amount", value: round(quantity.value * 29.5735), unit: .millilitres,
                                    decimals: RecordMeasurement.shownDecimals(of: quantity.decimals, convertedBy: 29.5735))
                : RecordMeasurement(name: kind == "weight" ? "weight" : quantity.label ?? "mass",
                                    value: round(quantity.value * 28.349523125), unit: .grams,
                                    decimals: RecordMeasurement.shownDecimals(of: quantity.decimals, convertedBy: 28.349523125))
        }
        guard let (dimension, factor) = units[unit] else {
            return bareNumber(quantity, kind: kind)
        }
        let value = round(quantity.value * factor)
        let decimals = RecordMeasurement.shownDecimals(of: quantity.decimals, convertedBy: factor)
        switch dimension {
        case .mass:
            return RecordMeasurement(name: kind == "weight" ? "weight" : quantity.label ?? "mass", value: value, unit: .grams,
                                     decimals: decimals)
        case .length:
            return RecordMeasurement(name: kind == "height" ? "height" : "length", value: value, unit: .centimetres,
                                     decimals: decimals)
        case .volume: return RecordMeasurement(name: quantity.label ?? "amount", value: value, unit: .millilitres, decimals: decimals)
        case .time: return RecordMeasurement(name: "duration", value: value, unit: .minutes, decimals: decimals)
        case .count: return RecordMeasurement(name: quantity.label ?? "count", value: value, unit: .count)
        }
    }

    /// A number counting something named is a count (`귀뚜라미 5`); a weight's or height's
    /// number with no unit is no measurement here: its unit is settled, or reported, by
    /// `UnitsTransform` (`unitlessDimension`), never assumed.
    private static func bareNumber(_ quantity: Quantity, kind: String?) -> RecordMeasurement? {
        if let label = quantity.label { return RecordMeasurement(name: label, value: quantity.value, unit: .count) }
        return nil
    }

    /// What a number with no unit measures in an entry of `kind`: a weight's (`체중 45`) is a
    /// mass and a height's a length; nil for anything else, and for a count of something named.
    static func unitlessDimension(_ quantity: Quantity, kind: String?) -> MeasurementUnit? {
        guard quantity.label == nil, units[quantity.unit] == nil, quantity.unit != "oz" else { return nil }
        switch kind {
        case "weight": return .grams
        case "height": return .centimetres
        default: return nil
        }
    }

    /// Conversions leave float noise (0.05 kg -> 50.00000000000001 g): keep 4 decimals.
    private static func round(_ value: Double) -> Double {
        (value * 10_000).rounded() / 10_000
    }
}
