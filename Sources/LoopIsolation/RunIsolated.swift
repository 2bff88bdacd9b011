/// Runs `operation` isolated to `actor`, the caller being isolated to it already.
///
/// The other half is `LoopIsolated.onLoop`, which calls this function by its symbol through a
/// declaration without the `isolated` (an `isolated` parameter is passed like any other, so the
/// two agree at the machine level) once it has checked that it runs on the actor's loop thread.
/// It lives in a module of its own because the compiler rejects the two declarations of one
/// symbol in one module. The stdlib's `assumeIsolated` gets the same effect by bit-casting the
/// closure, which costs two heap allocations and about 650 instructions per call (measured).
@_silgen_name("lifesignal_run_isolated")
public func runIsolated<A: Actor, T>(_ actor: isolated A, _ operation: (isolated A) throws -> T) rethrows -> T {
    try operation(actor)
}
