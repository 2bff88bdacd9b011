import Testing

@testable import lsbroker

/// `lsbroker stats`'s reading of the Prometheus text: samples, labels with escapes, and
/// quantiles from histogram buckets as PromQL's `histogram_quantile` gives them.
@Suite struct PrometheusSamplesTests {
    @Test func samplesWithAndWithoutLabels() {
        let samples = PrometheusSamples(parsing: """
            # TYPE lifesignal_requests_total counter
            lifesignal_requests_total{op="ping.send",result="ok"} 250
            lifesignal_requests_total{op="hello",result="not_found"} 2

            lifesignal_users_loaded 3.0
            """)
        #expect(samples.samples.count == 3)
        #expect(samples.total("lifesignal_requests_total") == 252)
        #expect(samples.total("lifesignal_requests_total", ["result": "ok"]) == 250)
        #expect(samples.total("lifesignal_users_loaded") == 3)
        #expect(samples.total("absent") == 0)
    }

    @Test func labelValuesKeepTheirEscapes() {
        let samples = PrometheusSamples(parsing: #"m{a="x \"y\", z",b="back\\slash",c="line\nbreak"} 1"#)
        #expect(samples.samples.first?.labels == ["a": #"x "y", z"#, "b": #"back\slash"#, "c": "line\nbreak"])
    }

    @Test func quantilesInterpolateWithinTheirBucket() {
        let samples = PrometheusSamples(parsing: """
            d_bucket{op="a",le="0.001"} 50
            d_bucket{op="a",le="0.002"} 90
            d_bucket{op="a",le="0.004"} 100
            d_bucket{op="a",le="+Inf"} 100
            """)
        #expect(samples.quantile(0.5, of: "d") == 0.001)
        #expect(abs(samples.quantile(0.7, of: "d")! - 0.0015) < 1e-12)
        #expect(abs(samples.quantile(0.99, of: "d")! - 0.0038) < 1e-12)
        #expect(samples.quantile(0.5, of: "d", ["op": "b"]) == nil)
    }

    @Test func aQuantileInTheOpenBucketIsTheLastBound() {
        let samples = PrometheusSamples(parsing: """
            d_bucket{le="1.0"} 1
            d_bucket{le="+Inf"} 10
            """)
        #expect(samples.quantile(0.9, of: "d") == 1.0)
    }
}
