import LifeSignalProtocol

/// Foundation has a `Notification` too; in this module the name means LifeSignal's.
public typealias Notification = LifeSignalProtocol.Notification
