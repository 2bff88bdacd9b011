import LifeSignalProtocol

/// Foundation has a `Notification` too: here the name is always the protocol's document.
typealias Notification = LifeSignalProtocol.Notification
