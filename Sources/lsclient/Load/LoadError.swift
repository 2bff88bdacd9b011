/// Why a load run could not produce a report; lsclient prints it and exits non-zero.
struct LoadError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
