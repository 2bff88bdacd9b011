// swift-tools-version:6.1
import PackageDescription

let strictSwift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "LifeSignal",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "lsbroker", targets: ["lsbroker"]),
        .executable(name: "lsclient", targets: ["lsclient"]),
        .library(name: "LifeSignalClient", targets: ["LifeSignalClient"]),
        .library(name: "LifeSignalProtocol", targets: ["LifeSignalProtocol"]),
        // A real broker in the test process (`TestBroker`), for an app's tests and ours.
        .library(name: "LifeSignalTesting", targets: ["LifeSignalTesting"]),
        // Fuzzes the protocol code: a seeded random run by default, libFuzzer with bench/fuzz.sh.
        .executable(name: "lsfuzz", targets: ["lsfuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-transport-services.git", from: "1.28.0"),
    ],
    targets: [
        // The only place libuv is visible; LifeSignalUV wraps it for everyone else.
        .systemLibrary(
            name: "CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        .target(
            name: "LifeSignalUV",
            dependencies: ["CLibUV"],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "LifeSignalProtocol",
            swiftSettings: strictSwift6
        ),
        // What both executables share: the release they report with --version (one constant, so they
        // never disagree), and how their command lines report an error.
        .target(
            name: "LifeSignalVersion",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSwift6
        ),
        // The fuzz harness, shared by lsfuzz and the seeded run in LifeSignalProtocolTests.
        .target(
            name: "LifeSignalFuzzing",
            dependencies: ["LifeSignalProtocol"],
            swiftSettings: strictSwift6
        ),
        // The rules: plain functions of the accounts a request touches, no I/O.
        .target(
            name: "LifeSignalRules",
            dependencies: ["LifeSignalProtocol"],
            swiftSettings: strictSwift6
        ),
        // The engine: what each request comes to (rule, accounts involved, limits), written once
        // for every store.
        .target(
            name: "LifeSignalEngine",
            dependencies: [
                "LifeSignalProtocol", "LifeSignalRules", "LifeSignalPush",
                "LifeSignalUV",  // Locked (Credentials' id source)
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSwift6
        ),
        // The embedded store: SQLite through GRDB, one writer thread committing in groups.
        .target(
            name: "LifeSignalStoreSQLite",
            dependencies: [
                "LifeSignalEngine", "LifeSignalProtocol", "LifeSignalRules", "LifeSignalPush",
                "LifeSignalUV",  // Locked, MonotonicClock
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSwift6
        ),
        // What tests share: a real broker in the test process (`TestBroker`, also a product for an
        // app's tests), and fixtures of accounts and ids for rule and engine tests.
        .target(
            name: "LifeSignalTesting",
            dependencies: [
                "LifeSignalProtocol", "LifeSignalRules", "LifeSignalBroker", "LifeSignalStoreSQLite", "LifeSignalUV",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift6
        ),
        // Token buckets, alone and keyed: the broker's limits and the push queue's throttles.
        .target(
            name: "LifeSignalLimits",
            swiftSettings: strictSwift6
        ),
        // Pushes leave through a gateway: recording (the default) or FCM HTTP v1 with its fair queue.
        .target(
            name: "LifeSignalPush",
            dependencies: [
                "LifeSignalUV",  // Locked
                "LifeSignalProtocol",
                "LifeSignalLimits",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "LifeSignalBroker",
            dependencies: [
                "LifeSignalUV",
                "LifeSignalProtocol",
                "LifeSignalRules",
                "LifeSignalEngine",
                "LifeSignalStoreSQLite",
                "LifeSignalPostgres",
                "LifeSignalLimits",
                "LifeSignalPush",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSwift6
        ),
        // The cluster's store: PostgreSQL through postgres-nio, schema and migrations.
        .target(
            name: "LifeSignalPostgres",
            dependencies: [
                "LifeSignalEngine", "LifeSignalProtocol", "LifeSignalRules", "LifeSignalPush",
                "LifeSignalUV",  // Locked: a lock ThreadSanitizer sees
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // sslmode: postgres-nio's TLS is configured with swift-nio-ssl's types.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSwift6
        ),
        .target(
            name: "LifeSignalClient",
            // No libuv: the transport is SwiftNIO's, sockets with NIOSSL here and Network.framework
            // on Apple's platforms, so an iOS app can build it.
            dependencies: [
                "LifeSignalProtocol",
                // The broker's own rules, for the in-memory client of an app's tests and previews.
                "LifeSignalRules",
                .product(name: "Logging", package: "swift-log"),
                // The state digest (DeviceState.digest), pinned TLS keys.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Apple's platforms connect through Network.framework (ClientTransport+Network).
                .product(name: "NIOTransportServices", package: "swift-nio-transport-services",
                         condition: .when(platforms: [.macOS, .iOS])),
            ],
            swiftSettings: strictSwift6
        ),
        .executableTarget(
            name: "lsbroker",
            dependencies: [
                "LifeSignalBroker",
                "LifeSignalStoreSQLite",
                "LifeSignalPush",
                "LifeSignalProtocol",
                "LifeSignalUV",
                "LifeSignalVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // `lsbroker pushes --user NAME` looks names up in the store (read-only).
                .product(name: "GRDB", package: "GRDB.swift"),
                "LifeSignalPostgres",
                // `lsbroker stats` and `users --metrics-url` read a running broker's operations endpoint.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictSwift6
        ),
        // The load generator: scenarios, thousands of devices on one loop, reports. `lsclient load`
        // is its command line.
        .target(
            name: "LifeSignalLoad",
            dependencies: [
                "LifeSignalClient",
                "LifeSignalProtocol",
                "LifeSignalUV",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictSwift6
        ),
        .executableTarget(
            name: "lsclient",
            dependencies: [
                "LifeSignalClient",
                "LifeSignalLoad",
                "LifeSignalProtocol",
                "LifeSignalUV",
                "LifeSignalVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictSwift6
        ),
        .executableTarget(
            name: "lsfuzz",
            dependencies: ["LifeSignalFuzzing", "LifeSignalProtocol"],
            swiftSettings: strictSwift6
        ),
        .testTarget(name: "LifeSignalUVTests", dependencies: ["LifeSignalUV"], swiftSettings: strictSwift6),
        .testTarget(
            name: "LifeSignalProtocolTests",
            dependencies: ["LifeSignalProtocol", "LifeSignalFuzzing"],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "LifeSignalRulesTests",
            dependencies: ["LifeSignalRules", "LifeSignalProtocol", "LifeSignalTesting"],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "LifeSignalEngineTests",
            dependencies: [
                "LifeSignalEngine", "LifeSignalRules", "LifeSignalProtocol", "LifeSignalPush", "LifeSignalTesting",
            ],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "LifeSignalLoadTests",
            dependencies: ["LifeSignalLoad", "LifeSignalClient", "LifeSignalProtocol"],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "LifeSignalBrokerTests",
            dependencies: [
                "LifeSignalBroker", "LifeSignalEngine", "LifeSignalStoreSQLite", "LifeSignalPostgres", "LifeSignalRules",
                "LifeSignalClient",
                "LifeSignalProtocol", "LifeSignalUV", "LifeSignalPush", "LifeSignalLimits", "LifeSignalFuzzing",
                "LifeSignalTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "LifeSignalPostgresTests",
            dependencies: [
                "LifeSignalPostgres", "LifeSignalBroker", "LifeSignalEngine", "LifeSignalStoreSQLite", "LifeSignalRules",
                "LifeSignalProtocol", "LifeSignalFuzzing", "LifeSignalPush", "LifeSignalTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "LifeSignalClientTests",
            dependencies: ["LifeSignalClient", "LifeSignalProtocol", "LifeSignalTesting"],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "IntegrationTests",
            // The executables are dependencies so that `swift test` builds the binaries it runs.
            dependencies: [
                "LifeSignalClient", "LifeSignalProtocol", "LifeSignalFuzzing", "lsbroker", "lsclient",
                // The fake FCM and token endpoint of FCMPushTests.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // Reading the histogram a load run file keeps (LoadRunFileTests).
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictSwift6
        ),
    ]
)
