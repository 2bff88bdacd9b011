/// A user's stored devices by id: a few per user (at most `--max-stored-devices`), so a plain
/// array searched in order; a dictionary held per online user cost more than the records.
struct DeviceTable {
    private var records: [DeviceRecord]

    init(_ records: [DeviceRecord]) { self.records = records }

    var values: [DeviceRecord] { records }

    subscript(deviceID: String) -> DeviceRecord? {
        get { records.first { $0.key.deviceID == deviceID } }
        set {
            let index = records.firstIndex { $0.key.deviceID == deviceID }
            switch (index, newValue) {
            case (let index?, let record?): records[index] = record
            case (let index?, nil): records.remove(at: index)
            case (nil, let record?): records.append(record)
            case (nil, nil): break
            }
        }
    }
}
