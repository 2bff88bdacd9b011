/// Rows of cells as aligned text, for both programs' tables (`lsbroker users`' devices,
/// `lsclient sync`): each column padded to its widest cell (counted in characters), two spaces
/// apart; no line ends in spaces (the last cell is not padded, and empty cells at the end drop).
public enum TextColumns {
    public static func aligned(_ rows: [[String]]) -> [String] {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (index, cell) in row.enumerated() {
                if index == widths.count { widths.append(0) }
                widths[index] = max(widths[index], cell.count)
            }
        }
        return rows.map { row in
            let line = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
            return String(line[..<(line.lastIndex { $0 != " " }.map(line.index(after:)) ?? line.startIndex)])
        }
    }
}
