import DossierCore
import Foundation

/// The words tracking apps and spreadsheets use in CSV headers, in English and Korean (and a few
/// German and Japanese measurement names), and the units they put in them. Headers are compared as `key(_:)` makes them, so "Time Stamp",
/// "time_stamp" and "TIMESTAMP" are one word.
enum CSVHeaderVocabulary {
    enum Dimension: Hashable, Sendable {
        case mass, length, volume, duration, count

        var unit: MeasurementUnit {
            switch self {
            case .mass: return .grams
            case .length: return .centimetres
            case .volume: return .millilitres
            case .duration: return .minutes
            case .count: return .count
            }
        }

        /// What a column headed by a unit alone (`grams`, `kg`, `oz`) measures.
        var measurementName: String {
            switch self {
            case .mass: return "weight"
            case .length: return "length"
            case .volume: return "amount"
            case .duration: return "duration"
            case .count: return "count"
            }
        }
    }

    static let dateWords: Set<String> = ["date", "day", "날짜", "일자", "일시", "timestamp", "datetime", "start", "starttime",
                                         "startdate", "dateandtime", "datetimestamp", "when", "logged", "loggedat",
                                         "recorded", "recordedat", "createdat", "기록일", "기록일시", "날짜시간",
                                         // German, Dutch and Scandinavian sheets; Spanish; Japanese and Chinese.
                                         "datum", "fecha", "日付", "日期"]
    /// When an entry ended: a shed completed, a feeding or a nap over.
    static let endWords: Set<String> = ["end", "endtime", "enddate", "ended", "endedat", "finish", "finished", "finishedat",
                                        "completed", "completedat", "stop", "stoptime", "stopped", "until", "to",
                                        "종료", "종료시간", "종료일", "끝", "終了", "終了時刻"]
    static let timeWords: Set<String> = ["time", "시간", "시각", "timeofday"]
    static let subjectWords: Set<String> = ["name", "subject", "pet", "animal", "child", "baby", "이름", "개체", "아이",
                                            "petname", "childname", "babyname", "animalname"]
    static let kindWords: Set<String> = ["kind", "type", "category", "event", "activity", "종류", "구분", "분류",
                                         "eventtype", "activitytype", "recordcategory", "recordtype", "entrytype",
                                         "種類", "カテゴリ", "カテゴリー", "項目"]
    /// What a kind column's entry is more precisely (`Bottle`, `Left Breast`), kept on the record.
    static let subKindWords: Set<String> = ["method", "subtype", "subcategory", "subkind", "feedingtype", "feedtype",
                                            "detail", "세부", "세부종류", "세부항목", "방법", "詳細", "方法"]
    /// Counts of a meal, by the name records keep them under: what was offered, eaten, refused.
    /// A cell may also say yes or no (`Refused: yes`, `Ate: 0`).
    static let mealCounts: [String: String] = [
        "offered": "offered", "given": "offered", "presented": "offered", "급여수": "offered", "급여개수": "offered",
        "준개수": "offered", "angeboten": "offered", "gefressen": "eaten", "verweigert": "refused", "eaten": "eaten", "ate": "eaten", "consumed": "eaten", "먹은수": "eaten", "먹은개수": "eaten",
        "refused": "refused", "rejected": "refused", "noteaten": "refused",
        "거부": "refused", "거식": "refused", "안먹음": "refused", "남김": "refused", "食べ残し": "refused",
    ]
    /// A number that measures what its row's kind does (`Quantity` 20 beside `lbs`).
    static let quantityWords: Set<String> = ["quantity", "qty", "value", "수치", "값", "数量", "値"]
    /// The unit of the row's quantity.
    static let unitWords: Set<String> = ["unit", "units", "uom", "unitofmeasure", "단위", "単位"]
    static let noteWords: Set<String> = ["note", "notes", "memo", "memos", "comment", "comments", "메모", "비고", "내용"]

    /// Measurement names that need no unit in the header, and the dimension they measure.
    static let measurementNames: [String: Dimension] = [
        "weight": .mass, "무게": .mass, "체중": .mass, "mass": .mass, "gewicht": .mass, "体重": .mass,
        "height": .length, "키": .length, "length": .length, "길이": .length, "신장": .length, "länge": .length, "身長": .length,
        "amount": .volume, "volume": .volume, "양": .volume,
        "duration": .duration, "minutes": .duration, "mins": .duration, "분": .duration, "시간분": .duration,
        "sleep": .duration, "수면": .duration,
        "count": .count, "수량": .count, "마리": .count, "개": .count, "개수": .count,
    ]

    /// Units by `key(_:)` of how they are written, with every dimension they may mean.
    /// An ounce is fluid (ml) unless the column weighs something; an "m" is minutes on a duration.
    private static let units: [String: [(Dimension, Double)]] = {
        var table: [String: [(Dimension, Double)]] = [:]
        func add(_ words: [String], _ dimension: Dimension, _ factor: Double) {
            for word in words { table[word, default: []].append((dimension, factor)) }
        }
        add(["g", "gr", "gram", "grams", "gramme", "grammes", "그램", "그람"], .mass, 1)
        add(["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "킬로", "킬로그램"], .mass, 1000)
        add(["mg", "milligram", "milligrams"], .mass, 0.001)
        add(["lb", "lbs", "pound", "pounds", "파운드"], .mass, 453.59237)
        add(["floz", "fluidounce", "fluidounces"], .volume, 29.5735)
        add(["oz", "ounce", "ounces", "온스"], .volume, 29.5735)
        add(["oz", "ounce", "ounces", "온스"], .mass, 28.349523125)
        add(["cm", "centimetre", "centimetres", "centimeter", "centimeters", "센치", "센티", "센티미터"], .length, 1)
        add(["mm", "millimetre", "millimetres", "millimeter", "millimeters", "밀리미터"], .length, 0.1)
        add(["m", "metre", "metres", "meter", "meters", "미터"], .length, 100)
        add(["in", "inch", "inches", "인치"], .length, 2.54)
        add(["ft", "foot", "feet"], .length, 30.48)
        add(["ml", "millilitre", "millilitres", "milliliter", "milliliters", "cc", "미리", "밀리", "밀리리터"], .volume, 1)
        add(["l", "litre", "litres", "liter", "liters", "리터"], .volume, 1000)
        add(["min", "mins", "minute", "minutes", "분", "m", "分"], .duration, 1)
        add(["h", "hr", "hrs", "hour", "hours", "시간", "時間"], .duration, 60)
        add(["s", "sec", "secs", "second", "seconds", "초", "秒"], .duration, 1.0 / 60)
        add(["ms", "msec", "millisecond", "milliseconds"], .duration, 1.0 / 60_000)
        add(["count", "마리", "개", "회", "번", "pcs", "pc", "ea", "x", "times", "number"], .count, 1)
        return table
    }()

    /// Lowercased letters and digits only: case, spaces and punctuation do not tell headers apart.
    static func key(_ text: String) -> String {
        String(String.UnicodeScalarView(text.lowercased().unicodeScalars.filter {
            $0.properties.isAlphabetic || $0.properties.numericType != nil
        }))
    }

    /// The dimension and factor a unit means in a column named `name` (a `key`), if it is a unit.
    static func unit(_ written: String, forName name: String) -> (Dimension, Double)? {
        guard let meanings = units[key(written)] else { return nil }
        if let wanted = measurementNames[name], let meaning = meanings.first(where: { $0.0 == wanted }) { return meaning }
        return meanings[0]
    }

    static func isUnit(_ written: String) -> Bool { units[key(written)] != nil }

    /// Unit words that head columns of other things as often: `Min` and `Max` temperatures, `In`
    /// and `Out`, `Number`, `Times`.
    static let unitOnlySometimes: Set<String> = ["min", "in", "hr", "number", "times", "ea", "pc", "pcs"]

    /// What one `written` unit is in `unit` (the one records keep for its dimension): `kg` in g
    /// is 1000, `oz` in ml is 29.5735 and in g 28.35; nil when it measures something else.
    static func factor(of written: String, in unit: MeasurementUnit) -> Double? {
        units[key(written)]?.first { $0.0.unit == unit }?.1
    }

    /// The units `written` may be, as the unit records keep for each dimension it may measure.
    static func meanings(of written: String) -> [(unit: MeasurementUnit, factor: Double)] {
        (units[key(written)] ?? []).map { ($0.0.unit, $0.1) }
    }

    /// A header split into its name and what is written in a trailing bracket (`Amount (oz.)`,
    /// `무게(g)`, `Weight [kg]`, `Date (local)`), or after it when that is a unit (`weight_kg`).
    static func split(header: String) -> (name: String, bracket: String?) {
        let trimmed = header.trimmedWhitespace
        for (open, close) in [("(", ")"), ("[", "]"), ("（", "）"), ("{", "}")] where trimmed.hasSuffix(close) {
            guard let start = trimmed.range(of: open, options: .backwards) else { continue }
            let inside = String(trimmed[start.upperBound..<trimmed.index(before: trimmed.endIndex)])
            let name = String(trimmed[..<start.lowerBound]).trimmedWhitespace
            return (name, inside.trimmedWhitespace)
        }
        // `Mass in g`, `Length in m`: a unit after "in", after a known measurement name.
        if let range = trimmed.range(of: " in ", options: [.backwards, .caseInsensitive]) {
            let name = String(trimmed[..<range.lowerBound]).trimmedWhitespace
            let unit = String(trimmed[range.upperBound...]).trimmedWhitespace
            if measurementNames[key(name)] != nil, isUnit(unit) { return (name, unit) }
        }
        // `weight_kg`, `Duration min`: only after a known measurement name, so "Pet No" stays text.
        if let separator = trimmed.lastIndex(where: { $0 == " " || $0 == "_" || $0 == "-" }) {
            let name = String(trimmed[..<separator]).trimmedWhitespace
            let unit = String(trimmed[trimmed.index(after: separator)...])
            if measurementNames[key(name)] != nil, isUnit(unit) { return (name, unit) }
        }
        return (trimmed, nil)
    }
}
