/// Operation names (PROTOCOL.md §3 and §5), and the `op` values of broker frames (§2).
public enum Op {
    // Session (§3)
    public static let register = "register"
    public static let hello = "hello"
    public static let keepalive = "keepalive"
    public static let bye = "bye"

    // After hello (§5)
    public static let profileUpdate = "profile.update"
    public static let qrRotate = "qr.rotate"
    /// v1.2 (§12): who owns a QR code, without adding anyone.
    public static let qrLookup = "qr.lookup"
    public static let deviceRegister = "device.register"
    public static let deviceUnregister = "device.unregister"
    public static let devicesList = "devices.list"
    public static let contactsAdd = "contacts.add"
    public static let contactsRemove = "contacts.remove"
    public static let contactsSetRoles = "contacts.setRoles"
    public static let contactsList = "contacts.list"
    public static let pingSend = "ping.send"
    public static let pingRespond = "ping.respond"
    public static let pingClear = "ping.clear"
    public static let checkIn = "checkin"
    /// Same as `checkIn`, spelled like the wire name.
    public static let checkin = checkIn
    public static let alertTrigger = "alert.trigger"
    public static let alertCancel = "alert.cancel"
    public static let notificationsList = "notifications.list"
    public static let notificationsRead = "notifications.read"
    public static let notificationsReadAll = "notifications.readAll"
    public static let notificationsDelete = "notifications.delete"
    /// v1.2 (§12): the user's account and everything of it are erased.
    public static let accountDelete = "account.delete"
    /// v1.2 (§12): a one-time code that links a new device to the account.
    public static let deviceLink = "device.link"
    /// v1.2 (§12), before hello: a new device spends a link code and gets its own token.
    public static let signin = "signin"
    /// v1.2 (§12): a device's credential and stored device go; revoking the caller's own is signing out.
    public static let deviceRevoke = "device.revoke"

    /// Ops allowed before `hello` succeeds (§3).
    public static let beforeHello: Set<String> = [register, hello, signin]

    /// Every request op of version 1; anything else is `unknown_op`.
    public static let all: Set<String> = [
        register, hello, keepalive, bye, profileUpdate, qrRotate, qrLookup, deviceRegister, deviceUnregister, devicesList,
        contactsAdd, contactsRemove, contactsSetRoles, contactsList, pingSend, pingRespond, pingClear, checkIn,
        alertTrigger, alertCancel, notificationsList, notificationsRead, notificationsReadAll, notificationsDelete,
        accountDelete, deviceLink, signin, deviceRevoke,
    ]

    // Broker → client (§2)
    public static let ok = "ok"
    public static let error = "error"
    public static let event = "event"
    public static let snapshot = "snapshot"
}
