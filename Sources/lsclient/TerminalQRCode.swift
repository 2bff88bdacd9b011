// A small QR Code (Model 2) encoder for showing short codes in a terminal, per ISO/IEC 18004.
// Deliberately narrow: byte mode (UTF-8), error correction level M, versions 1–5 (up to 84 bytes).
// Versions this small need no version-information block and have at most one alignment pattern.
enum TerminalQRCode {
    /// The modules of the smallest QR code holding `text`, row by row; `true` is dark.
    /// No quiet zone. Nil if the text is longer than 84 UTF-8 bytes.
    static func matrix(for text: String) -> [[Bool]]? {
        matrix(for: text, mask: nil)
    }

    /// As `matrix(for:)`, but with the mask pattern (0–7) forced; a nil mask picks the lowest penalty.
    static func matrix(for text: String, mask: Int?) -> [[Bool]]? {
        if let mask, !(0..<8).contains(mask) { return nil }
        let bytes = Array(text.utf8)
        guard let version = Version.levelM.first(where: { bytes.count <= $0.byteCapacity }) else { return nil }
        var symbol = Symbol(version: version)
        symbol.place(version.codewords(for: bytes))
        if let mask { return symbol.masked(with: mask) }
        // Ties go to the lowest mask number, as min(by:) keeps the first minimum.
        let candidates = (0..<8).map { mask in
            let modules = symbol.masked(with: mask)
            return (modules: modules, penalty: penalty(of: modules))
        }
        return candidates.min { $0.penalty < $1.penalty }?.modules
    }

    /// The code as text, two module rows per line, with a 4-module quiet zone; nil if the text doesn't fit.
    static func render(_ text: String) -> String? {
        guard let modules = matrix(for: text) else { return nil }
        let quietZone = 4
        let size = modules.count + 2 * quietZone
        func isDark(_ row: Int, _ column: Int) -> Bool {
            let r = row - quietZone, c = column - quietZone
            return modules.indices.contains(r) && modules.indices.contains(c) && modules[r][c]
        }
        // Dark modules are drawn as blocks, assuming a light background (a dark theme shows the code inverted).
        var lines: [String] = []
        for top in stride(from: 0, to: size, by: 2) {
            var line = ""
            for column in 0..<size {
                switch (isDark(top, column), isDark(top + 1, column)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

// MARK: - Versions and codewords

/// The level-M block structure of one version (ISO/IEC 18004 table 9). For versions 1–5 all blocks are equal.
private struct Version {
    let number: Int
    let dataCodewords: Int
    let ecCodewordsPerBlock: Int
    let blocks: Int

    static let levelM = [
        Version(number: 1, dataCodewords: 16, ecCodewordsPerBlock: 10, blocks: 1),
        Version(number: 2, dataCodewords: 28, ecCodewordsPerBlock: 16, blocks: 1),
        Version(number: 3, dataCodewords: 44, ecCodewordsPerBlock: 26, blocks: 1),
        Version(number: 4, dataCodewords: 64, ecCodewordsPerBlock: 18, blocks: 2),
        Version(number: 5, dataCodewords: 86, ecCodewordsPerBlock: 24, blocks: 2),
    ]

    var size: Int { 17 + 4 * number }

    /// The mode indicator (4 bits) and the byte count (8 bits) leave room for this many whole bytes.
    var byteCapacity: Int { (dataCodewords * 8 - 12) / 8 }

    /// Row and column of the single alignment pattern's centre; version 1 has none.
    var alignmentCentre: Int? { number > 1 ? size - 7 : nil }

    /// Data codewords with error correction appended, interleaved block by block as they are placed.
    func codewords(for bytes: [UInt8]) -> [UInt8] {
        let data = dataCodewords(for: bytes)
        let blockLength = dataCodewords / blocks
        let dataBlocks = (0..<blocks).map { Array(data[($0 * blockLength)..<(($0 + 1) * blockLength)]) }
        let divisor = ReedSolomon.generator(degree: ecCodewordsPerBlock)
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder(of: $0, dividedBy: divisor) }
        var result: [UInt8] = []
        for i in 0..<blockLength { for block in dataBlocks { result.append(block[i]) } }
        for i in 0..<ecCodewordsPerBlock { for block in ecBlocks { result.append(block[i]) } }
        return result
    }

    /// Byte-mode segment, terminator, bit padding, then the alternating pad codewords 0xEC 0x11.
    private func dataCodewords(for bytes: [UInt8]) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: 8)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, dataCodewords * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var result = bits.bytes
        var pad: UInt8 = 0xEC
        while result.count < dataCodewords {
            result.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return result
    }
}

/// Bits appended most significant first.
private struct BitBuffer {
    private(set) var bits: [Bool] = []

    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    /// Whole bytes only; callers pad to a byte boundary first.
    var bytes: [UInt8] {
        stride(from: 0, to: bits.count - 7, by: 8).map { start in
            bits[start..<(start + 8)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
        }
    }
}

/// Reed–Solomon error correction over GF(256) with the QR field polynomial x⁸+x⁴+x³+x²+1 (0x11d).
private enum ReedSolomon {
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        // Shift-and-add, reducing by the field polynomial whenever bit 8 appears.
        var product = 0
        for shift in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            product ^= ((Int(y) >> shift) & 1) * Int(x)
        }
        return UInt8(product)
    }

    /// Coefficients of ∏(x − αⁱ), i < degree, highest power first, without the leading 1.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                coefficients[j] = multiply(coefficients[j], root)
                if j + 1 < degree { coefficients[j] ^= coefficients[j + 1] }
            }
            root = multiply(root, 2)
        }
        return coefficients
    }

    /// The error-correction codewords: data(x)·x^degree mod generator(x), by polynomial long division.
    static func remainder(of data: [UInt8], dividedBy generator: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder.removeFirst()
            remainder.append(0)
            for i in remainder.indices { remainder[i] ^= multiply(generator[i], factor) }
        }
        return remainder
    }
}

// MARK: - Module placement

/// The module grid before masking, and which modules belong to function patterns (never masked).
private struct Symbol {
    let size: Int
    private var modules: [[Bool]]
    private var isFunction: [[Bool]]

    init(version: Version) {
        size = version.size
        modules = Array(repeating: Array(repeating: false, count: size), count: size)
        isFunction = modules
        // Timing patterns first: the finders and their separators then overwrite the ends.
        for i in 0..<size {
            setFunction(6, i, dark: i % 2 == 0)
            setFunction(i, 6, dark: i % 2 == 0)
        }
        for (row, column) in [(3, 3), (3, size - 4), (size - 4, 3)] {
            drawSquares(centre: (row, column), radius: 4) { $0 != 2 && $0 != 4 }  // finder plus light separator
        }
        if let centre = version.alignmentCentre {
            drawSquares(centre: (centre, centre), radius: 2) { $0 != 1 }
        }
        // Reserve the format areas (filled per mask) and set the always-dark module beside them.
        drawFormatBits(0)
    }

    private mutating func setFunction(_ row: Int, _ column: Int, dark: Bool) {
        modules[row][column] = dark
        isFunction[row][column] = true
    }

    /// Concentric squares around `centre`; `isDark` gets the ring's distance from the centre. Clipped to the symbol.
    private mutating func drawSquares(centre: (Int, Int), radius: Int, isDark: (Int) -> Bool) {
        for dr in -radius...radius {
            for dc in -radius...radius {
                let row = centre.0 + dr, column = centre.1 + dc
                guard (0..<size).contains(row), (0..<size).contains(column) else { continue }
                setFunction(row, column, dark: isDark(max(abs(dr), abs(dc))))
            }
        }
    }

    /// Both copies of the 15-bit format information (level M, `mask`), bit 0 being the least significant.
    private mutating func drawFormatBits(_ mask: Int) {
        let bits = Self.formatInformation(mask: mask)
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        // Copy around the top-left finder.
        for i in 0...5 { setFunction(i, 8, dark: bit(i)) }
        setFunction(7, 8, dark: bit(6))
        setFunction(8, 8, dark: bit(7))
        setFunction(8, 7, dark: bit(8))
        for i in 9..<15 { setFunction(8, 14 - i, dark: bit(i)) }
        // Copy split between the top-right and bottom-left finders.
        for i in 0..<8 { setFunction(8, size - 1 - i, dark: bit(i)) }
        for i in 8..<15 { setFunction(size - 15 + i, 8, dark: bit(i)) }
        setFunction(size - 8, 8, dark: true)
    }

    /// Level M (00) and the mask in 5 bits, a BCH(15,5) remainder (generator 0x537), XORed with 0x5412.
    static func formatInformation(mask: Int) -> Int {
        let data = 0b00 << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        return (data << 10 | remainder) ^ 0x5412
    }

    /// Codeword bits in the standard zigzag: two-column strips from the right, alternately up and down,
    /// skipping the vertical timing column. Leftover remainder bits are 0 (light before masking).
    mutating func place(_ codewords: [UInt8]) {
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for column in [right, right - 1] where !isFunction[row][column] {
                    let byte = bitIndex / 8
                    if byte < codewords.count {
                        modules[row][column] = (codewords[byte] >> (7 - bitIndex % 8)) & 1 == 1
                    }
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }

    /// The final symbol for one mask pattern: data modules flipped where the mask condition holds.
    func masked(with mask: Int) -> [[Bool]] {
        var copy = self
        copy.drawFormatBits(mask)
        for row in 0..<size {
            for column in 0..<size where !isFunction[row][column] && Self.maskCondition(mask, row, column) {
                copy.modules[row][column].toggle()
            }
        }
        return copy.modules
    }

    private static func maskCondition(_ mask: Int, _ i: Int, _ j: Int) -> Bool {
        switch mask {
        case 0: (i + j) % 2 == 0
        case 1: i % 2 == 0
        case 2: j % 3 == 0
        case 3: (i + j) % 3 == 0
        case 4: (i / 2 + j / 3) % 2 == 0
        case 5: (i * j) % 2 + (i * j) % 3 == 0
        case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }
}

// MARK: - Mask penalty

extension TerminalQRCode {
    /// The four penalty rules of ISO/IEC 18004 (7.8.3): runs, 2×2 blocks, finder look-alikes, dark/light balance.
    /// Scored on the finished symbol, format bits included; encoders that score with the format area blank
    /// (python-qrcode does) can pick a different, equally valid mask.
    fileprivate static func penalty(of modules: [[Bool]]) -> Int {
        let size = modules.count
        let columns = (0..<size).map { column in modules.map { $0[column] } }
        var total = 0
        for line in modules + columns {
            total += runPenalty(line) + finderLikePenalty(line)
        }
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let colour = modules[row][column]
                if modules[row][column + 1] == colour && modules[row + 1][column] == colour
                    && modules[row + 1][column + 1] == colour {
                    total += 3
                }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        // 10 points for each full 5% step away from half dark.
        total += abs(dark * 20 - size * size * 10) / (size * size) * 10
        return total
    }

    /// 3 points for a run of 5 same-coloured modules, plus 1 for each further module.
    private static func runPenalty(_ line: [Bool]) -> Int {
        var total = 0
        var runLength = 0
        for (index, module) in line.enumerated() {
            runLength = index > 0 && line[index - 1] == module ? runLength + 1 : 1
            if runLength == 5 { total += 3 } else if runLength > 5 { total += 1 }
        }
        return total
    }

    /// 40 points for each dark-light-dark×3-light-dark (1:1:3:1:1) pattern per side that has 4 light modules
    /// next to it, inside the symbol (the reading python-qrcode and others use: 10111010000 and 00001011101).
    private static func finderLikePenalty(_ line: [Bool]) -> Int {
        let core = [true, false, true, true, true, false, true]
        func isLight(_ range: Range<Int>) -> Bool {
            range.lowerBound >= 0 && range.upperBound <= line.count && !line[range].contains(true)
        }
        var total = 0
        for start in 0..<max(0, line.count - core.count + 1)
        where line[start..<(start + core.count)].elementsEqual(core) {
            let end = start + core.count
            if isLight((start - 4)..<start) { total += 40 }
            if isLight(end..<(end + 4)) { total += 40 }
        }
        return total
    }
}
