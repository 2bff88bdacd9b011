import LifeSignalProtocol

/// What a command reports: the fields of its `--json` result line, and the text for a person.
struct CommandResult {
    var fields: JSONObject
    var text: String

    func print(json: Bool) {
        if json {
            Console.json(JSONLines.result(fields))
        } else if !text.isEmpty {
            Console.out(text)
        }
    }
}
