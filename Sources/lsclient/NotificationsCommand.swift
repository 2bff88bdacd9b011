import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "List notifications, newest first, with their ids (notifications.list).",
        discussion: """
            One page at a time: --before ID continues after the oldest one shown. --unread keeps only the \
            unread ones of the page the broker returned; it does not search further back.
            """)

    @OptionGroup var globals: GlobalOptions

    @Flag(help: "Show only the unread notifications of the page.")
    var unread = false

    @Option(help: "Page size, 1–100.")
    var limit = 100

    @Option(help: "Start after this notification id (the last one of the previous page).")
    var before: String?

    func validate() throws {
        if !(1...100).contains(limit) { throw ValidationError("--limit must be between 1 and 100") }
    }

    func run() async throws {
        try await OneShot.run(globals) { client, hello in
            let page = try await client.listNotifications(limit: limit, before: before)
            let shown = unread ? page.notifications.filter { !$0.isRead } : page.notifications
            var fields: JSONObject = [
                "notifications": .array(shown.map(\.json)), "unreadCount": .int(Int64(page.unreadCount)),
            ]
            if unread {
                // Filtered here, not by the broker: say so, and how big the page was.
                fields["filter"] = "unread"
                fields["pageCount"] = .int(Int64(page.notifications.count))
            }
            return CommandResult(fields: fields, text: text(page, shown: shown, serverTime: hello.serverTime))
        }
    }

    private func text(_ page: NotificationPage, shown: [LifeSignalProtocol.Notification], serverTime: Int64)
        -> String
    {
        let clock = RelativeTime(serverTime: serverTime)
        let header: String
        if unread {
            header = "\(shown.count) unread in this page of \(page.notifications.count) "
                + "(unread only, filtered here); \(page.unreadCount) unread in all"
        } else if page.notifications.isEmpty {
            header = before == nil ? "no notifications" : "no notifications before \(before!)"
        } else {
            header = "\(Readable.count(page.notifications.count, "notification")), \(page.unreadCount) unread in all"
        }
        var lines = [header + (shown.isEmpty ? "" : ":")]
        lines += shown.map { "  " + Readable.notification($0, clock: clock, showID: true) }
        // A full page may have more behind it.
        if let last = page.notifications.last, page.notifications.count == limit {
            lines.append("older: lsclient notifications --before \(last.id)" + (unread ? " --unread" : ""))
        }
        return lines.joined(separator: "\n")
    }
}
