/// Text with position markers (`1️⃣`, `2️⃣`, …) where a diagnostic must point, as swift-format's
/// tests write them. The markers are removed and their 1-based line and column recorded.
public struct MarkedText {
    public let text: String
    /// Marker → (line, column), columns counted in Unicode scalars as libyaml counts them.
    public let markers: [String: (line: Int, column: Int)]

    public static let markerSymbols = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

    public init(_ marked: String) {
        var text = ""
        var markers: [String: (line: Int, column: Int)] = [:]
        var line = 1
        var column = 1
        var index = marked.startIndex
        outer: while index < marked.endIndex {
            for symbol in MarkedText.markerSymbols where marked[index...].hasPrefix(symbol) {
                markers[symbol] = (line, column)
                index = marked.index(index, offsetBy: symbol.count)
                continue outer
            }
            let character = marked[index]
            text.append(character)
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
            index = marked.index(after: index)
        }
        self.text = text
        self.markers = markers
    }

    /// `line:column` of a marker, as diagnostics print it.
    public func position(_ marker: String) -> String {
        guard let place = markers[marker] else { return "no marker \(marker)" }
        return "\(place.line):\(place.column)"
    }
}
