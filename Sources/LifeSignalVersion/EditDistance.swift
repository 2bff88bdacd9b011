/// How far apart two words are, for "did you mean" (lsclient's commands, lsbroker's users).
public enum EditDistance {
    /// Levenshtein distance: insertions, deletions and substitutions.
    public static func between(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The name at the smallest edit distance from `word`, if it is close enough to be a typo: a
    /// third of its letters at most, one or two.
    public static func nearest(to word: String, among names: [String]) -> String? {
        guard let nearest = names.min(by: { between(word, $0) < between(word, $1) }),
              between(word, nearest) <= max(1, min(2, word.count / 3))
        else { return nil }
        return nearest
    }
}
