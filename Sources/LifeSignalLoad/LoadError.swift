/// Why a load run could not produce a report; lsclient prints it and exits non-zero.
package struct LoadError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
