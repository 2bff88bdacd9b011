import Logging

enum LogMetadata {
    /// As swift-log's own handler merges, later winning: the handler's own (given at init) < the
    /// logger's (`logger[metadataKey:]`) < the metadata provider's < the call's.
    static func merged(handler: Logger.Metadata, logger: Logger.Metadata, provider: Logger.MetadataProvider?,
                       call: Logger.Metadata?) -> Logger.Metadata {
        var merged = handler
        merged.merge(logger) { _, logger in logger }
        if let provided = provider?.get() { merged.merge(provided) { _, provider in provider } }
        if let call { merged.merge(call) { _, call in call } }
        return merged
    }
}
