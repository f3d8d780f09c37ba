/// The birthstone (탄생석) of each birth month, in the modern list (1912, US jewellers) that
/// Korean jewellers and the old diary apps use.
enum Birthstone {
    static let stones: [LocalizedName] = [
        LocalizedName(ko: "가넷", en: "Garnet"), LocalizedName(ko: "자수정", en: "Amethyst"),
        LocalizedName(ko: "아쿠아마린", en: "Aquamarine"), LocalizedName(ko: "다이아몬드", en: "Diamond"),
        LocalizedName(ko: "에메랄드", en: "Emerald"), LocalizedName(ko: "진주", en: "Pearl"),
        LocalizedName(ko: "루비", en: "Ruby"), LocalizedName(ko: "페리도트", en: "Peridot"),
        LocalizedName(ko: "사파이어", en: "Sapphire"), LocalizedName(ko: "오팔", en: "Opal"),
        LocalizedName(ko: "토파즈", en: "Topaz"), LocalizedName(ko: "터키석", en: "Turquoise"),
    ]

    static func stone(month: Int) -> LocalizedName { stones[month - 1] }
}
