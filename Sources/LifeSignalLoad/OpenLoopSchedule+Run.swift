/// The schedule as the open-loop scenarios use it: running while the run is sending.
package extension OpenLoopSchedule {
    /// Starts handing due requests to `send` for as long as `run` is sending; a timer that
    /// cannot be made fails the run's preparation.
    func start(in run: LoadRun, send: @escaping (_ index: UInt64, _ dueNs: UInt64) -> Void) {
        do {
            try start(on: run.loop, while: { [unowned run] in run.isSending }, send: send)
        } catch {
            run.preparationFailed("no timer: \(error)")
        }
    }
}
