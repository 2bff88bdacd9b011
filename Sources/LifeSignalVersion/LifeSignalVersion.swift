/// The release of LifeSignal's programs, printed by `lsbroker --version` and `lsclient --version`.
/// One constant for both, so that the broker and the client of a release never disagree.
public enum LifeSignalVersion {
    public static let current = "0.1.0"
}
